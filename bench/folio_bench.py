#!/usr/bin/env python3
"""What the page cache's folio size does to query latency, and to the page checks.

  folio_bench.py --bin BUILD --db STORE [--queries 60] [--repeat 2] [--cycles 2]
                 [--cold 3] [--out FILE.json]

Store files of 2 MiB or more are mapped with MADV_HUGEPAGE (lib/src/files.cc),
so the faults that first read them fill the page cache with 2 MiB folios;
LITGRAPH_HUGE_MAPS=0 maps them plainly (4 KiB folios from read-around). The
folios stay in the page cache for every later reader, so the two modes cannot
alternate query by query: each cycle, for each mode in turn (the order
alternating between cycles), the driver

  1. drops the page cache (root only: /proc/sys/vm/drop_caches) and reads the
     SQLite file sequentially, so that its pages are cached alike in both modes;
  2. times the first --cold queries (tri-search, or find-paper on a store
     without vectors) on the cold derived files;
  3. runs every query once, in that mode, to fill the cache as readers would;
  4. runs every query --repeat times with the page checks on and off
     (LITGRAPH_VERIFY_PAGES), alternating, as bench/reliability/checksum_cost.py.

Reports per mode and kind of query the p50 with checks on, the change of the
huge-folio p50 against the plain one with a 95% bootstrap interval (queries
paired across the modes' runs), and in each mode the checks' p50 change with
its interval; the JSON keeps every time and the page-cache figures of
/proc/meminfo after each cycle. The queries are benchlib.store_queries'.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import log, p50_change, run_checks_on_off, store_queries, timed  # noqa: E402

MODES = {"plain": "0", "huge": "1"}


def meminfo():
    out = {}
    with open("/proc/meminfo") as f:
        for line in f:
            k, v = line.split(":")
            if k in ("Cached", "FileHugePages"):
                out[k + "_kb"] = int(v.split()[0])
    return out


def drop_caches(db):
    subprocess.run(["sync"], check=True)
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")
    with open(os.path.join(db, "litgraph.sqlite"), "rb") as f:
        while f.read(1 << 24):
            pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--queries", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--cycles", type=int, default=2)
    ap.add_argument("--cold", type=int, default=3)
    ap.add_argument("--out")
    a = ap.parse_args()
    if not os.access("/proc/sys/vm/drop_caches", os.W_OK):
        raise SystemExit("folio_bench.py: needs root (it drops the page cache between modes)")
    rows, queries = store_queries(a.bin, a.db, a.queries)
    first = "tri_search" if any(k == "tri_search" for k, _, _ in queries) else "find_abstract"
    cold_set = [q for q in queries if q[0] == first][:a.cold]
    # times[mode][kind][checks on/off]: wall ms in run order (cycle, repeat, query)
    times = {m: {} for m in MODES}
    cold = {m: [] for m in MODES}
    cache = {m: [] for m in MODES}
    for c in range(a.cycles):
        for mode in (list(MODES) if c % 2 == 0 else list(MODES)[::-1]):
            env = dict(os.environ, LITGRAPH_DB=a.db, LITGRAPH_HUGE_MAPS=MODES[mode],
                       LITGRAPH_VERIFY_PAGES="1")
            drop_caches(a.db)
            cold[mode].append([round(timed(cmd, env, stdin)[0], 2) for _, cmd, stdin in cold_set])
            t0 = time.time()
            for _, cmd, stdin in queries:
                timed(cmd, env, stdin)
            log(f"cycle {c} {mode}: cold {cold[mode][-1]} ms, warm-up {time.time() - t0:.1f} s")
            wall, _ = run_checks_on_off(queries, env, a.repeat)
            for kind, m in wall.items():
                for v, xs in m.items():
                    times[mode].setdefault(kind, {}).setdefault(v, []).extend(xs)
            cache[mode].append(meminfo())
    report = {"db": a.db, "queries_per_kind": len(rows), "repeat": a.repeat,
              "cycles": a.cycles, "cold_kind": first, "cold_ms": cold, "page_cache": cache,
              "load_average": os.getloadavg(), "kinds": {}}
    print(f"cold {first} (ms): " + "; ".join(f"{m} {cold[m]}" for m in MODES))
    print(f"{'query':16} {'n':>4} {'plain p50':>10} {'huge p50':>9} {'change [95% CI]':>24} "
          f"{'checks plain [CI]':>24} {'checks huge [CI]':>24}")
    for kind in times["plain"]:
        p, h = times["plain"][kind], times["huge"][kind]
        n = len(p["on"])
        # The same query in the same repeat and cycle of each mode pairs up.
        change, change_ci = p50_change(list(zip(h["on"], p["on"])))
        checks = {mode: p50_change(list(zip(t["on"], t["off"])))
                  for mode, t in (("plain", p), ("huge", h))}
        report["kinds"][kind] = {
            "n": n, "p50_plain_ms": round(statistics.median(p["on"]), 2),
            "p50_huge_ms": round(statistics.median(h["on"]), 2),
            "huge_change_pct": round(change, 2),
            "huge_change_ci95_pct": [round(x, 2) for x in change_ci],
            "checks_change_pct": {m: round(checks[m][0], 2) for m in checks},
            "checks_change_ci95_pct": {m: [round(x, 2) for x in checks[m][1]] for m in checks},
            "wall_ms": {m: {v: [round(x, 3) for x in times[m][kind][v]] for v in ("on", "off")}
                        for m in MODES}}
        fmt = lambda ch, ci: f"{ch:+.1f}% [{ci[0]:+.1f}, {ci[1]:+.1f}]"
        print(f"{kind:16} {n:>4} {statistics.median(p['on']):>10.2f} "
              f"{statistics.median(h['on']):>9.2f} {fmt(change, change_ci):>24} "
              f"{fmt(*checks['plain']):>24} {fmt(*checks['huge']):>24}")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
