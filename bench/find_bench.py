#!/usr/bin/env python3
"""find-paper latency, process start included, with the FTS5 baseline in the same run.

Workloads (each run N times as a fresh `litgraph-find-paper` process):
  startup        --id of a missing paper: process start + store open + one B-tree probe
  id             --id W... of a random stored paper
  doi            --doi https://doi.org/... of a random stored paper
  title_exact    --title with a random stored paper's exact title
  title_fuzzy    the same title with one letter changed (a typo)
  rare_word      one word with document frequency < 50
  common_word    one word from the 20 most frequent content words
  common_words   three of them
  abstract       a whole stored abstract (80-250 words) as the query

Peer (same store, same queries, in-process sqlite3 so without process start):
  fts5_or_bm25   SELECT rowid FROM paper_fts WHERE paper_fts MATCH 't1 OR t2 ...'
                 ORDER BY bm25(paper_fts) LIMIT 20   -- the naive approach; only on
                 stores of schema 5 or older, which kept an FTS5 index of the papers
                 (skipped elsewhere)

CSV on stdout: workload,impl,runs,p50_ms,p99_ms,mean_results
Usage: find_bench.py --bin BUILD --db STORE [--runs 50] [--seed 1]
"""
import argparse
import random
import re
import sqlite3
import statistics
import subprocess
import time

from benchlib import pct


def run_tool(tool, args):
    t = time.perf_counter()
    p = subprocess.run([tool] + args, capture_output=True)
    dt = (time.perf_counter() - t) * 1000
    if p.returncode not in (0, 1):
        raise SystemExit(f"{tool} {args[:4]}: exit {p.returncode}: {p.stderr.decode()[:300]}")
    return dt, len([l for l in p.stdout.splitlines() if l.strip()])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-peer", action="store_true")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    con = sqlite3.connect(f"file:{a.db}/litgraph.sqlite?mode=ro", uri=True)
    if not con.execute("select count(*) from sqlite_master where name = 'paper_fts'").fetchone()[0]:
        a.no_peer = True  # a store of schema 6 or later: no FTS5 index to compare with
    max_id = con.execute("select max(id) from paper").fetchone()[0]

    def random_paper():
        while True:
            row = con.execute("select ext_id, doi, title, abstract from paper where id = ?",
                              (rng.randint(1, max_id),)).fetchone()
            if row and row[2] and row[3]:
                return row

    # Word frequencies from a sample of abstracts.
    freq = {}
    for (abstract,) in con.execute("select abstract from paper where id % 97 = 0 limit 5000"):
        for w in set(re.findall(r"[a-z]{4,}", abstract.lower())):
            freq[w] = freq.get(w, 0) + 1
    stop = {"that", "this", "with", "from", "were", "which", "these", "their", "have", "been",
            "than", "into", "also", "such", "both", "between", "while", "through", "where",
            "when", "there", "they", "them", "other", "over", "under", "using", "most", "more"}
    common = [w for w, _ in sorted(freq.items(), key=lambda x: -x[1]) if w not in stop][:20]
    rare = [w for w, c in freq.items() if c == 1]

    def mutate(t):  # one typo: a letter replaced
        chars = list(t)
        letters = [i for i, ch in enumerate(chars) if ch.isalpha()]
        i = rng.choice(letters)
        chars[i] = "x" if chars[i] != "x" else "y"
        return "".join(chars)

    workloads = {
        "startup": lambda: ["--id", "W1"],
        "id": lambda: ["--id", random_paper()[0]],
        "doi": lambda: (lambda p: ["--doi", "https://doi.org/" + p[1]] if p[1] else ["--id", p[0]])(random_paper()),
        "title_exact": lambda: ["--title", random_paper()[2]],
        "title_fuzzy": lambda: ["--title", mutate(random_paper()[2])],
        "rare_word": lambda: [rng.choice(rare)],
        "common_word": lambda: [rng.choice(common)],
        "common_words": lambda: rng.sample(common, 3),
        "abstract": lambda: [random_paper()[3]],
    }
    tool = f"{a.bin}/litgraph-find-paper"
    print("workload,impl,runs,p50_ms,p99_ms,mean_results")
    queries = {name: [gen() for _ in range(a.runs)] for name, gen in workloads.items()}
    for name, qs in queries.items():
        times, counts = [], []
        for q in qs:
            dt, n = run_tool(tool, ["--db", a.db, "--format", "jsonl"] + q)
            times.append(dt)
            counts.append(n)
        print(f"{name},litgraph,{len(times)},{pct(times, 50):.2f},{pct(times, 99):.2f},"
              f"{statistics.mean(counts):.1f}", flush=True)
        if a.no_peer or name in ("startup", "id", "doi", "title_exact", "title_fuzzy"):
            continue
        times, counts = [], []
        for q in qs[: max(5, a.runs // 5)]:
            words = sorted(set(re.findall(r"[a-z0-9]+", " ".join(q).lower())))
            match = " OR ".join(f'"{w}"' for w in words)
            t = time.perf_counter()
            rows = con.execute("select rowid from paper_fts where paper_fts match ? "
                               "order by bm25(paper_fts) limit 20", (match,)).fetchall()
            times.append((time.perf_counter() - t) * 1000)
            counts.append(len(rows))
        print(f"{name},fts5_or_bm25,{len(times)},{pct(times, 50):.2f},{pct(times, 99):.2f},"
              f"{statistics.mean(counts):.1f}", flush=True)


if __name__ == "__main__":
    main()
