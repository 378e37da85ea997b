#!/usr/bin/python3
"""litgraph-rwr-rank latency from find-paper seeds, with python-igraph in the same run.

    /usr/bin/python3 bench/rwr_bench.py --bin BUILD --db STORE [--dataset NAME]
        [--queries 50] [--limits 10,30,60] [--seed 1] [--repeats 3] [--warmup 5]
        [--peer-repeats 5] [--summary-csv FILE] [--no-peer] [--rwr-args "--threads 1"]

Queries (deterministic for --seed): for each query a random stored paper; half the queries
(all of them when the store has no abstracts, e.g. AAN) are 2-3 random content words of its
title in title order (`title_words`), the other half one random sentence of its abstract
(`abstract_sentence`, 6-60 words).

Workloads, per query and per seed count L in --limits:
  find       `litgraph-find-paper --db STORE --format jsonl --limit L QUERY` (not the
             subject; its wall time is reported and its output is the seed list)
  rwr        `litgraph-rwr-rank --db STORE --timings --limit 20 --format jsonl` with those
             seeds on stdin, a fresh process: wall clock from spawn to exit (process start,
             store open, seed resolution, subgraph, walk, ranking, explanations, output)
             and the --timings JSON on stderr (seeds, nodes, edges, iterations, load_ms,
             subgraph_ms, walk_ms, total_ms). --repeats runs; each figure is the median
             over them.
  igraph     the peer, python-igraph (Debian python3-igraph, PRPACK): litgraph-rwr-rank
             cannot dump its subgraph, so the peer runs on a graph of the SAME SIZE, not the
             same subgraph: Graph.Erdos_Renyi(n=nodes, m=edges) (undirected, like the
             walk) with uniform random weights in [0.6, 1.2] (Table 2's range), built once
             per row and not timed; then only
             personalized_pagerank(damping=0.85, reset_vertices=<`seeds` random nodes>,
             weights) is timed, in process (no process start), median of --peer-repeats,
             with OMP_NUM_THREADS=1 (PRPACK's OpenMP threads spin on a busy machine; the
             litgraph walk is single-threaded too).
  spawn      /bin/true as a process: the driver's own process-start overhead.

Before timing, --warmup untimed queries (find + rwr at the largest L) fill the page cache.

stdout: one CSV row per (query, L). stderr: progress and the summary. --summary-csv FILE:
the summary as workload,param,value,unit,count rows (p50/p99 of subgraph_ms, walk_ms,
subgraph+walk, total_ms, wall_ms; subgraph sizes; igraph; ratios), per L.
"""
import os

# igraph's PRPACK uses OpenMP; on a busy 2-core machine the spinning threads give the peer
# tails of seconds. One thread, like litgraph's walk (set before igraph is imported).
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import random
import shlex
import re
import statistics
import subprocess
import time

from benchlib import PaperSampler, content_words, log, pct

def make_queries(db, n, seed):
    rng = random.Random(seed)
    papers = PaperSampler(db)
    out = []
    while len(out) < n:
        row = papers.random(rng)
        if not row:
            continue
        title, abstract = row
        kind = "title_words" if (not papers.has_abstracts or len(out) % 2 == 0) else "abstract_sentence"
        if kind == "title_words":
            words = content_words(title)
            if len(words) < 2:
                continue
            k = min(len(words), rng.choice((2, 3)))
            idx = sorted(rng.sample(range(len(words)), k))
            q = " ".join(words[i] for i in idx)
        else:
            if not abstract:
                continue
            sents = [s.strip() for s in re.split(r"(?<=[.!?])\s+", abstract)
                     if 6 <= len(s.split()) <= 60]
            if not sents:
                continue
            q = rng.choice(sents)
        out.append((kind, q))
    return out


def run(cmd, stdin=None):
    t = time.perf_counter()
    p = subprocess.run(cmd, input=stdin, capture_output=True)
    return (time.perf_counter() - t) * 1000, p


def rwr_once(a, seeds_bytes):
    wall, p = run([f"{a.bin}/litgraph-rwr-rank", "--db", a.db, "--timings", "--limit", "20",
                   "--format", "jsonl"] + shlex.split(a.rwr_args), seeds_bytes)
    if p.returncode != 0:
        raise SystemExit(f"litgraph-rwr-rank: exit {p.returncode}: {p.stderr.decode()[-400:]}")
    t = None
    for line in p.stderr.decode().splitlines():
        if line.startswith("{"):
            t = json.loads(line)
    if t is None:
        raise SystemExit(f"litgraph-rwr-rank: no --timings line: {p.stderr.decode()[-400:]}")
    t["wall_ms"] = wall
    t["results"] = len([l for l in p.stdout.splitlines() if l.strip()])
    return t


def igraph_peer(nodes, edges, seeds, repeats, rng):
    import igraph as ig
    random.seed(rng.randint(0, 2**31))  # igraph draws from Python's random module
    g = ig.Graph.Erdos_Renyi(n=nodes, m=edges, directed=False, loops=False)
    g.es["weight"] = [rng.uniform(0.6, 1.2) for _ in range(g.ecount())]
    reset = rng.sample(range(nodes), min(seeds, nodes))
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        pr = g.personalized_pagerank(directed=False, damping=0.85, reset_vertices=reset,
                                     weights="weight")
        times.append((time.perf_counter() - t) * 1000)
    assert len(pr) == nodes
    return statistics.median(times), g.vcount(), g.ecount()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--dataset", default="store")
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--limits", default="10,30,60")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--peer-repeats", type=int, default=5)
    ap.add_argument("--summary-csv")
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--epsilon", type=float, default=1e-6,
                    help="the tool's convergence threshold (rwr.h default), for the converged count")
    ap.add_argument("--rwr-args", default="", help="extra litgraph-rwr-rank flags, e.g. '--threads 1'")
    a = ap.parse_args()
    limits = [int(x) for x in a.limits.split(",")]
    rng = random.Random(a.seed + 1000)

    queries = make_queries(a.db, a.queries + a.warmup, a.seed)
    warm, queries = queries[:a.warmup], queries[a.warmup:]
    log(f"{a.dataset}: {len(queries)} queries ({sum(k == 'title_words' for k, _ in queries)} "
        f"title_words), limits {limits}, {a.repeats} repeats; warming up with {len(warm)}")
    for kind, q in warm:
        _, p = run([f"{a.bin}/litgraph-find-paper", "--db", a.db, "--format", "jsonl",
                    "--limit", str(max(limits)), q])
        if p.stdout.strip():
            rwr_once(a, p.stdout)

    spawn = [run(["/bin/true"])[0] for _ in range(21)]
    cols = ["dataset", "query", "kind", "limit", "seeds", "nodes", "edges", "iterations",
            "residual", "find_ms", "wall_ms", "load_ms", "subgraph_ms", "walk_ms", "subgraph_walk_ms",
            "total_ms", "results", "peer", "peer_nodes", "peer_edges", "peer_ppr_ms"]
    print(",".join(cols), flush=True)
    rows = []
    no_seeds = {L: 0 for L in limits}
    for qi, (kind, q) in enumerate(queries):
        for L in limits:
            find_ms, p = run([f"{a.bin}/litgraph-find-paper", "--db", a.db, "--format", "jsonl",
                              "--limit", str(L), q])
            if p.returncode not in (0, 1):
                raise SystemExit(f"find-paper: exit {p.returncode}: {p.stderr.decode()[-300:]}")
            if not p.stdout.strip():
                no_seeds[L] += 1
                continue
            runs = [rwr_once(a, p.stdout) for _ in range(a.repeats)]
            med = lambda k: statistics.median(r[k] for r in runs)
            r = {"dataset": a.dataset, "query": qi, "kind": kind, "limit": L,
                 "seeds": runs[0]["seeds"], "nodes": runs[0]["nodes"], "edges": runs[0]["edges"],
                 "iterations": runs[0]["iterations"], "residual": runs[0]["residual"],
                 "find_ms": find_ms,
                 "wall_ms": med("wall_ms"), "load_ms": med("load_ms"),
                 "subgraph_ms": med("subgraph_ms"), "walk_ms": med("walk_ms"),
                 "subgraph_walk_ms": statistics.median(x["subgraph_ms"] + x["walk_ms"] for x in runs),
                 "total_ms": med("total_ms"), "results": runs[0]["results"],
                 "peer": "", "peer_nodes": "", "peer_edges": "", "peer_ppr_ms": ""}
            if not a.no_peer and r["nodes"] > 0:
                ms, pn, pe = igraph_peer(r["nodes"], r["edges"], r["seeds"], a.peer_repeats, rng)
                r.update(peer="igraph_prpack_same_size_ER_graph", peer_nodes=pn, peer_edges=pe,
                         peer_ppr_ms=ms)
            rows.append(r)
            print(",".join(f"{r[c]:.3g}" if c == "residual" else f"{r[c]:.3f}"
                           if isinstance(r[c], float) else str(r[c]) for c in cols),
                  flush=True)
        if qi % 10 == 9:
            log(f"  {qi + 1}/{len(queries)} queries")

    summary = [("spawn", "true", "p50", pct(spawn, 50), "ms", len(spawn))]
    for L in limits:
        rs = [r for r in rows if r["limit"] == L]
        if not rs:
            continue
        w = f"rwr_limit{L}"
        n = len(rs)
        for k in ("subgraph_ms", "walk_ms", "subgraph_walk_ms", "total_ms", "wall_ms", "find_ms"):
            xs = [r[k] for r in rs]
            summary.append((w, k, "p50", pct(xs, 50), "ms", n))
            summary.append((w, k, "p99", pct(xs, 99), "ms", n))
        for k in ("seeds", "nodes", "edges", "iterations"):
            xs = [r[k] for r in rs]
            summary.append((w, k, "p50", pct(xs, 50), "count", n))
            summary.append((w, k, "max", max(xs), "count", n))
        summary.append((w, "converged", "count",
                        sum(r["residual"] < a.epsilon for r in rs), "count", n))
        summary.append((w, "residual", "max", max(r["residual"] for r in rs), "L1", n))
        summary.append((w, "queries_without_seeds", "count", no_seeds[L], "count", len(queries)))
        ps = [r for r in rs if r["peer_ppr_ms"] != ""]
        if ps:
            xs = [r["peer_ppr_ms"] for r in ps]
            summary.append((w, "igraph_ppr_same_size_ms", "p50", pct(xs, 50), "ms", len(ps)))
            summary.append((w, "igraph_ppr_same_size_ms", "p99", pct(xs, 99), "ms", len(ps)))
            summary.append((w, "igraph_over_walk", "p50_ratio",
                            pct(xs, 50) / max(1e-9, pct([r["walk_ms"] for r in ps], 50)), "x", len(ps)))
            summary.append((w, "igraph_over_subgraph_walk", "p50_ratio",
                            pct(xs, 50) / max(1e-9, pct([r["subgraph_walk_ms"] for r in ps], 50)),
                            "x", len(ps)))
    log(f"\nsummary ({a.dataset}; peer = igraph personalized_pagerank on a random graph of the "
        f"same node/edge counts, NOT the identical subgraph)")
    lines = ["workload,param,value,unit,count"]
    for w, k, stat, v, unit, cnt in summary:
        lines.append(f"{w},{k}_{stat},{v:.3g},{unit},{cnt}" if isinstance(v, float) and v < 0.01 and v > 0
                     else f"{w},{k}_{stat},{v:.3f},{unit},{cnt}" if isinstance(v, float)
                     else f"{w},{k}_{stat},{v},{unit},{cnt}")
    for l in lines:
        log(l)
    if a.summary_csv:
        with open(a.summary_csv, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
