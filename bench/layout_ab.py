#!/usr/bin/env python3
"""Query latency on two stores of the same records whose files differ in layout only, or of
two builds on one store.

  layout_ab.py --bin BUILD --a STORE_A [--b STORE_B] [--bin-b BUILD_B] [--queries 40]
               [--repeat 3] [--kinds K1,K2] [--allow-differences] [--out FILE.json]

With --bin-b, side B runs BUILD_B's tools (on STORE_B, or on STORE_A when --b is not given):
a change of code measured the way a change of layout is.

The two stores hold the same records and differ in how their derived files are
written (for example, graph files written by two builds of the writer). The
queries are benchlib.store_queries' (find-paper with a whole abstract, paper
--cited-by, rwr-rank from 60 seeds, lineage --descendants, tri-search), chosen
on store A, with the seed lists of rwr-rank computed once on A and given to
both stores; on a store with vectors, find-paper --semantic and --hybrid with each
query paper's title too (find_semantic, find_hybrid). Each query runs --repeat times on each store, A and B
back to back with the order alternating, one fresh process each, after one
untimed run of every query on both stores to fill the page cache.

Every query must print the same output on both sides: a layout change (or a
change of code meant to be exact) must not change an answer. The driver stops
at the first difference, unless --allow-differences: then it counts, per kind,
the queries whose answers differ (stores whose approximate HNSW graphs differ,
such as a merged store with shard indexes kept as segments against one built
with --fold-vectors).

Reports per kind the p50 wall time on A and on B and the change of B's p50
against A's with a 95% bootstrap interval (the query's runs paired); the JSON
keeps every time.
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import log, p50_change, store_queries, timed  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--a", required=True)
    ap.add_argument("--b")
    ap.add_argument("--bin-b")
    ap.add_argument("--queries", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kinds")
    ap.add_argument("--out")
    ap.add_argument("--allow-differences", action="store_true")
    a = ap.parse_args()

    a.b = a.b or a.a
    a.bin_b = a.bin_b or a.bin
    _, queries = store_queries(a.bin, a.a, a.queries)
    titles = [cmd[-1] for kind, cmd, _ in queries if kind == "tri_search"]
    find = os.path.join(a.bin, "litgraph-find-paper")
    for mode in ("semantic", "hybrid"):
        queries += [("find_" + mode, [find, "--format", "jsonl", "--" + mode, t], None)
                    for t in titles]
    if a.kinds:
        queries = [q for q in queries if q[0] in a.kinds.split(",")]
    envs = {s: dict(os.environ, LITGRAPH_DB=db) for s, db in (("a", a.a), ("b", a.b))}

    def argv(side, cmd):
        if side == "b" and a.bin_b != a.bin:  # the same tool from the other build
            return [os.path.join(a.bin_b, os.path.basename(cmd[0]))] + cmd[1:]
        return cmd

    log(f"{len(queries)} queries; warming both stores")
    differ = {}
    for kind, cmd, stdin in queries:
        outs = {s: timed(argv(s, cmd), envs[s], stdin)[2] for s in ("a", "b")}
        differ[kind] = differ.get(kind, 0) + (outs["a"] != outs["b"])
        if outs["a"] != outs["b"] and not a.allow_differences:
            raise SystemExit(f"{kind}: {' '.join(cmd)[:200]}: the two sides answer differently")
    times = {}
    for r in range(a.repeat):
        for i, (kind, cmd, stdin) in enumerate(queries):
            order = ("a", "b") if (r + i) % 2 == 0 else ("b", "a")
            got = {}
            for s in order:
                wall, _, out = timed(argv(s, cmd), envs[s], stdin)
                got[s] = wall
                got[s + "_out"] = out
            if got["a_out"] != got["b_out"] and not a.allow_differences:
                raise SystemExit(f"{kind}: {' '.join(cmd)[:200]}: the two sides answer differently")
            times.setdefault(kind, []).append((got["b"], got["a"]))
        log(f"repeat {r + 1}/{a.repeat} done")
    report = {"bin": a.bin, "bin_b": a.bin_b, "a": a.a, "b": a.b, "queries": a.queries,
              "repeat": a.repeat, "kinds": {}}
    print("| query | runs | p50 A | p50 B | B against A [95% CI] | answers differing |")
    print("|---|---|---|---|---|---|")
    for kind, pairs in times.items():
        change, (lo, hi) = p50_change(pairs)
        pa = statistics.median(y for _, y in pairs)
        pb = statistics.median(x for x, _ in pairs)
        print(f"| {kind} | {len(pairs)} | {pa:.2f} ms | {pb:.2f} ms | "
              f"{change:+.1f}% [{lo:+.1f}, {hi:+.1f}] | {differ[kind]} of {len(pairs) // a.repeat} |")
        report["kinds"][kind] = {"b_a_ms": pairs, "p50_a": pa, "p50_b": pb, "change_pct": change,
                                 "ci95": [lo, hi], "queries_differing": differ[kind]}
    if a.out:
        with open(a.out, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
