#!/usr/bin/env python3
"""Two builds of one tool on the same queries, alternating in random order per query.

  binab.py OLD_BIN NEW_BIN TOOL STORE REPS QUERIES_FILE [EXTRA_ARGS...]

Each line of QUERIES_FILE is one query (the tool's positional argument). Prints the p50
of each build, the median of the paired new/old ratios and how many outputs were identical.
"""
import random
import statistics
import subprocess
import sys
import time

old, new, tool, db, reps, queries = sys.argv[1:7]
extra = sys.argv[7:]
bins = {"old": old, "new": new}
lines = [line.strip() for line in open(queries) if line.strip()]
t = {k: [] for k in bins}
same = 0
random.seed(2)
for _ in range(int(reps)):
    for q in lines:
        outs = {}
        order = list(bins)
        random.shuffle(order)
        for k in order:
            t0 = time.perf_counter()
            outs[k] = subprocess.run([f"{bins[k]}/litgraph-{tool}", "--db", db, "--format", "jsonl",
                                      *extra, q], capture_output=True).stdout
            t[k].append(time.perf_counter() - t0)
        same += outs["old"] == outs["new"]
ratios = [a / b for a, b in zip(t["new"], t["old"])]
print(f"{tool} {' '.join(extra)}: old p50 {statistics.median(t['old']) * 1000:.2f} ms, "
      f"new {statistics.median(t['new']) * 1000:.2f} ms, "
      f"paired {100 * (statistics.median(ratios) - 1):+.1f}%, identical {same}/{len(t['old'])}")
