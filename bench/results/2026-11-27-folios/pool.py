#!/usr/bin/env python3
"""Pools the page checks' on/off pairs of the 1M runs with 2 MiB folios (folios-1m.json,
checksum-cost-1m*.json) and prints each kind's p50 change with its 95% bootstrap interval."""
import json
import os
import statistics
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", ".."))
from benchlib import p50_change  # noqa: E402

runs = {}
for k, v in json.load(open(os.path.join(here, "folios-1m.json")))["kinds"].items():
    huge = v["wall_ms"]["huge"]
    runs.setdefault(k, []).append(list(zip(huge["on"], huge["off"])))
for name in ("checksum-cost-1m.json", "checksum-cost-1m-2.json", "checksum-cost-1m-3.json"):
    for k, v in json.load(open(os.path.join(here, name)))["kinds"].items():
        runs[k].append(list(zip(v["wall_ms"]["on"], v["wall_ms"]["off"])))
for k, rs in runs.items():
    pairs = [p for r in rs for p in r]
    on, off = statistics.median(x for x, _ in pairs), statistics.median(y for _, y in pairs)
    paired = (statistics.median(x / y for x, y in pairs) - 1) * 100
    change, (lo, hi) = p50_change(pairs)
    print(f"{k:14} n={len(pairs)} p50 on {on:.2f} off {off:.2f} change {change:+.1f}% "
          f"[{lo:+.1f}, {hi:+.1f}] paired {paired:+.1f}%")
