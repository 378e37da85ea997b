#!/usr/bin/env python3
"""Query cost of the deltas (issue 13): the same queries on a store whose full-text index and
vectors are one base (BASE) and on a store with a base plus a delta (DELTA, e.g. after a
100k-work upsert), interleaved query by query so that machine load hits both alike.

Queries (drawn with --seed from the papers BASE and DELTA hold alike, read-only): --abstracts whole stored abstracts (80-250
words, BM25 with its postings budget), --words three of the 20 most frequent content words,
--titles exact stored titles (--title: the fuzzy-title index); semantic_title: the titles'
words with --semantic (the vector indexes: base, or base + delta); tri_search: the titles'
words through litgraph-tri-search (every path). --workloads picks some (comma-separated).
Each query is a fresh process; wall ms from spawn to exit.

CSV on stdout: workload,store,runs,p50_ms,p90_ms,mean_results,cpu_p50_ms (user + system time
of the process, less disturbed by other load than wall time), then per workload the medians
of the paired ratios DELTA/BASE of wall and CPU time.
Usage: lexical_delta_bench.py --bin BIN --base STORE --delta STORE [--runs 40] [--seed 7]
       [--workloads abstract,common_words,title_fuzzy,semantic_title,tri_search]
"""
import argparse
import random
import resource
import sqlite3
import statistics
import subprocess
import time

from benchlib import pct


def run(tool, db, args):
    """Wall ms, CPU ms (user + system of the process) and the number of results."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run([tool, "--db", db, "--limit", "20"] + args, capture_output=True)
    dt = (time.perf_counter() - t) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    if p.returncode not in (0, 1):
        raise SystemExit(f"{args[:3]}: exit {p.returncode}: {p.stderr.decode()[:300]}")
    return dt, len(p.stdout.splitlines()), cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--base", required=True)
    ap.add_argument("--delta", required=True)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workloads", default="abstract,common_words,title_fuzzy")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    con = sqlite3.connect(f"file:{a.base}/litgraph.sqlite?mode=ro", uri=True)
    other = sqlite3.connect(f"file:{a.delta}/litgraph.sqlite?mode=ro", uri=True)
    top = con.execute("SELECT max(id) FROM paper").fetchone()[0]
    abstracts, titles = [], []
    while len(abstracts) < a.runs or len(titles) < a.runs:
        i = rng.randint(1, top)
        sql = "SELECT title, abstract FROM paper WHERE id = ?"
        r = con.execute(sql, (i,)).fetchone()
        if not r or r != other.execute(sql, (i,)).fetchone():
            continue  # papers the same in both stores (not changed by the update)
        if r[1] and 80 <= len(r[1].split()) <= 250 and len(abstracts) < a.runs:
            abstracts.append(r[1])
        if r[0] and len(titles) < a.runs:
            titles.append(r[0])
    words = {}
    for (ab,) in con.execute("SELECT abstract FROM paper WHERE id % 997 = 0 LIMIT 1000"):
        for w in (ab or "").lower().split():
            w = w.strip(".,;:()")
            if len(w) > 4:
                words[w] = words.get(w, 0) + 1
    common = [w for w, _ in sorted(words.items(), key=lambda x: -x[1])[:20]]
    workloads = {
        "abstract": [ab.split() for ab in abstracts],
        "common_words": [rng.sample(common, 3) for _ in range(a.runs)],
        "title_fuzzy": [["--title", t] for t in titles],
        "semantic_title": [["--semantic"] + t.split() for t in titles],
        "tri_search": [t.split() for t in titles],
    }
    print("workload,store,runs,p50_ms,p90_ms,mean_results,cpu_p50_ms")
    ratios = {}
    for name in a.workloads.split(","):
        queries = workloads[name]
        tool = f"{a.bin}/litgraph-{'tri-search' if name == 'tri_search' else 'find-paper'}"
        run(tool, a.base, queries[0])
        run(tool, a.delta, queries[0])
        res = {"base": [], "delta": []}
        for i, q in enumerate(queries):
            order = ["base", "delta"] if i % 2 == 0 else ["delta", "base"]
            for s in order:
                res[s].append(run(tool, a.base if s == "base" else a.delta, q))
        for s in ("base", "delta"):
            ms = [m for m, _, _ in res[s]]
            cpu = [c for _, _, c in res[s]]
            print(f"{name},{s},{len(ms)},{pct(ms, 50):.2f},{pct(ms, 90):.2f},"
                  f"{statistics.mean(n for _, n, _ in res[s]):.1f},{pct(cpu, 50):.1f}")
        pairs = list(zip(res["base"], res["delta"]))
        ratios[name] = (statistics.median(d[0] / b[0] for b, d in pairs),
                        statistics.median(d[2] / max(b[2], 0.1) for b, d in pairs))
    for name, (wall, cpu) in ratios.items():
        print(f"{name},paired_median_ratio_delta_over_base,{a.runs},{wall:.3f},,,{cpu:.3f}")


if __name__ == "__main__":
    main()
