#!/usr/bin/python3
"""Checks litgraph-rwr-rank's random walk against igraph's personalized PageRank.

  igraph_check.py --records RECORDS.jsonl --seeds SEEDS.jsonl --ranking OUT.jsonl
                  [--alpha 0.15] [--tol 1e-6]

RECORDS are native paper records ({"id", "references", ...}); the graph is
their citations as undirected, unweighted edges (CITES = 1.0 and every other
relation switched off in rwr-rank), one edge per linked pair, references to
ids not in the file dropped. SEEDS are rwr-rank's input lines ({"id",
"weight"}). OUT is rwr-rank's output over the whole graph (--target paper or
any, a limit above the node count, and a subgraph that is the whole graph).

With damping = 1 - alpha and reset = the normalized seed weights, igraph's
personalized PageRank solves r = alpha s + (1 - alpha) P^T r, the walk of
SciAtlas section 3.3 (eq. 13-15). igraph treats nodes without
neighbours differently, so the graph must have none (checked).

Exit 0 when every node's score agrees within --tol and rwr-rank's order is
igraph's order (up to ties within --tol); 1 with the differences otherwise;
2 on bad input. Prints a one-line JSON summary. Needs python-igraph.
"""
import argparse
import json
import sys

import igraph


def load_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", required=True)
    ap.add_argument("--seeds", required=True)
    ap.add_argument("--ranking", required=True)
    ap.add_argument("--alpha", type=float, default=0.15)
    ap.add_argument("--tol", type=float, default=1e-6)
    args = ap.parse_args()

    records = load_jsonl(args.records)
    ids = [r["id"] for r in records]
    index = {x: i for i, x in enumerate(ids)}
    if len(index) != len(ids):
        print("igraph_check: duplicate record ids", file=sys.stderr)
        return 2
    pairs = set()
    for r in records:
        a = index[r["id"]]
        for ref in r.get("references", []):
            b = index.get(ref)
            if b is not None and b != a:
                pairs.add((min(a, b), max(a, b)))
    g = igraph.Graph(n=len(ids), edges=sorted(pairs), directed=False)
    lonely = [ids[v] for v in range(len(ids)) if g.degree(v) == 0]
    if lonely:
        print(f"igraph_check: nodes without neighbours {lonely}: igraph handles them differently",
              file=sys.stderr)
        return 2

    reset = [0.0] * len(ids)
    for s in load_jsonl(args.seeds):
        w = float(s.get("weight", 1.0))
        if s["id"] in index and w > 0:
            reset[index[s["id"]]] += w
    total = sum(reset)
    if total <= 0:
        print("igraph_check: no seed in the records", file=sys.stderr)
        return 2
    reset = [x / total for x in reset]
    want = g.personalized_pagerank(directed=False, damping=1.0 - args.alpha, reset=reset,
                                   weights=None)
    want = {ids[i]: want[i] for i in range(len(ids))}

    got_rows = [r for r in load_jsonl(args.ranking) if r.get("type", "paper") == "paper"]
    got = {r["id"]: r["score"] for r in got_rows}
    problems = []
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    if missing:
        problems.append(f"not ranked by rwr-rank: {missing}")
    if extra:
        problems.append(f"ranked but not in the records: {extra}")
    max_diff = 0.0
    for x in sorted(set(want) & set(got)):
        d = abs(want[x] - got[x])
        max_diff = max(max_diff, d)
        if d > args.tol:
            problems.append(f"{x}: rwr-rank {got[x]:.12f}, igraph {want[x]:.12f}")
    # rwr-rank's order must be igraph's (ties within tol aside).
    order = [r["id"] for r in got_rows if r["id"] in want]
    for a, b in zip(order, order[1:]):
        if want[a] < want[b] - args.tol:
            problems.append(f"order: {a} ranked above {b} but igraph scores {want[a]:.9f} < "
                            f"{want[b]:.9f}")
    ranks = [r.get("rank") for r in got_rows]
    if ranks != list(range(1, len(got_rows) + 1)):
        problems.append(f"ranks are not 1..n: {ranks}")
    print(json.dumps({"nodes": len(ids), "edges": len(pairs), "compared": len(set(want) & set(got)),
                      "max_abs_diff": max_diff, "ok": not problems}))
    for p in problems[:50]:
        print("igraph_check: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
