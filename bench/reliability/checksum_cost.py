#!/usr/bin/env python3
"""What verifying checked-file pages costs queries (issue 20).

  checksum_cost.py --bin BUILD --db STORE [--queries 40] [--repeat 3] [--out FILE.json]

Runs one query set against STORE with page verification on (the default) and
off (LITGRAPH_VERIFY_PAGES=0, a switch that exists for this measurement only),
alternating on/off query by query so both see the same machine load. Every
query is a fresh process, so each pays its first-touch verification in full
(the worst case: a long-lived process verifies a page once). Reports per kind
of query the p50 and p90 wall time of each mode and the p50 change, the median
of the paired on/off ratios, the change of the median CPU time, and a 95%
bootstrap interval of the p50 change (the pairs resampled); the JSON keeps
every wall time. --kinds picks some kinds of query only.

Queries, from papers spread over the store's id range: find-paper with the
whole abstract (lexical), paper --cited-by, rwr-rank from 60 seeds (a
find-paper --limit 60 result), lineage --descendants, and tri-search when the
store has keywords and vectors.
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from benchlib import p50_change, run_checks_on_off, store_queries  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--queries", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out")
    ap.add_argument("--kinds", help="only these kinds of query (comma-separated)")
    a = ap.parse_args()
    rows, queries = store_queries(a.bin, a.db, a.queries, a.kinds)
    times, cpus = run_checks_on_off(queries, dict(os.environ, LITGRAPH_DB=a.db), a.repeat)
    report = {"db": a.db, "queries_per_kind": len(rows), "repeat": a.repeat,
              "load_average": os.getloadavg(), "kinds": {}}
    # Besides the wall-time medians: the median of the paired ratios (each
    # query's on/off runs ran back to back) and the change of the median CPU
    # time (user + system), which other jobs on the machine disturb less.
    print(f"{'query':16} {'n':>4} {'p50 on':>9} {'p50 off':>9} {'change':>8} {'p90 on':>9} "
          f"{'p90 off':>9} {'paired':>8} {'cpu':>8}  p50 change 95% CI")
    for kind, m in times.items():
        p50 = {k: statistics.median(v) for k, v in m.items()}
        p90 = {k: statistics.quantiles(v, n=10)[-1] for k, v in m.items()}
        paired = (statistics.median(x / y for x, y in zip(m["on"], m["off"])) - 1) * 100
        c = {k: statistics.median(v) for k, v in cpus[kind].items()}
        cpu_change = (c["on"] / c["off"] - 1) * 100
        change, ci = p50_change(list(zip(m["on"], m["off"])))
        report["kinds"][kind] = {"n": len(m["on"]), "p50_on_ms": round(p50["on"], 2),
                                 "p50_off_ms": round(p50["off"], 2),
                                 "p50_change_pct": round(change, 2),
                                 "p90_on_ms": round(p90["on"], 2), "p90_off_ms": round(p90["off"], 2),
                                 "paired_median_change_pct": round(paired, 2),
                                 "cpu_p50_on_ms": round(c["on"], 2),
                                 "cpu_p50_off_ms": round(c["off"], 2),
                                 "cpu_p50_change_pct": round(cpu_change, 2),
                                 "p50_change_ci95_pct": [round(ci[0], 2), round(ci[1], 2)],
                                 "wall_ms": {k: [round(x, 3) for x in v] for k, v in m.items()}}
        print(f"{kind:16} {len(m['on']):>4} {p50['on']:>9.2f} {p50['off']:>9.2f} {change:>+7.1f}% "
              f"{p90['on']:>9.2f} {p90['off']:>9.2f} {paired:>+7.1f}% {cpu_change:>+7.1f}% "
              f"[{ci[0]:+.1f}, {ci[1]:+.1f}]")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
