#!/usr/bin/python3
"""Does tri-search keep what BM25 puts first? (issue 13: "tri-search never misses a paper that
find-paper's BM25 would put first")

    /usr/bin/python3 bench/eval/bm25_first.py --bin BUILD --db STORE [--queries 40] [--seed 1]
        [--kind title|abstract] [--tri-args "..."]

For --queries stored papers drawn at random (deterministic for --seed), the query is the
paper's title (or its abstract's first 60 words): `find-paper` (BM25) gives its first hit, and
`tri-search --limit 20` its list. Prints how often BM25's first is tri-search's first, in its
top 5 and in its top 20, and the queries where it is missing, with the paper's citation count.
"""
import argparse
import json
import random
import sqlite3
import subprocess


def run(argv):
    p = subprocess.run(argv, capture_output=True, text=True)
    return [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--queries", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kind", choices=["title", "abstract"], default="title")
    ap.add_argument("--tri-args", default="")
    a = ap.parse_args()
    con = sqlite3.connect(f"file:{a.db}/litgraph.sqlite?mode=ro", uri=True)
    max_id = con.execute("select max(id) from paper").fetchone()[0]
    rng = random.Random(a.seed)
    queries = []
    while len(queries) < a.queries:
        row = con.execute("select title, abstract from paper where id = ?",
                          (rng.randint(1, max_id),)).fetchone()
        if not row:
            continue
        text = row[0] if a.kind == "title" else " ".join(row[1].split()[:60])
        if len(text.split()) >= 3:
            queries.append(text)
    at = {1: 0, 5: 0, 20: 0}
    missing = []
    for q in queries:
        bm25 = run([f"{a.bin}/litgraph-find-paper", "--db", a.db, "--format", "jsonl", "-n", "1", q])
        tri = run([f"{a.bin}/litgraph-tri-search", "--db", a.db, "--format", "jsonl", "-n", "20",
                   *a.tri_args.split(), q])
        if not bm25:
            continue
        first = bm25[0]["id"]
        ids = [r["id"] for r in tri]
        for k in at:
            at[k] += first in ids[:k]
        if first not in ids:
            missing.append((q[:70], first, bm25[0].get("cited_by_count")))
    n = len(queries)
    print(json.dumps({"db": a.db, "kind": a.kind, "queries": n, "tri_args": a.tri_args,
                      "bm25_first_at_1": at[1] / n, "in_top5": at[5] / n, "in_top20": at[20] / n,
                      "missing": missing}, indent=1))


if __name__ == "__main__":
    main()
