#!/usr/bin/env python3
"""Ingest throughput and store size, with SQLite FTS5 alone as the baseline.

Workloads:
  ingest_<N>     litgraph-ingest of N synthetic OpenAlex works (litgraph-gen-works, seed 1)
                 into an empty store: works/s end to end (parse, SQLite + FTS5, graph files,
                 lexical index, commit), store bytes, graph bytes per CITES edge, peak RSS
  reingest_<M>   upsert of M works already in the store (the cron path: WAL, update + FTS
                 delete/insert, full graph rebuild)
  fts5_<N>       baseline in the same run: SQLite FTS5 alone indexing the same N titles +
                 abstracts (porter unicode61) in one transaction, docs/s

CSV on stdout: workload,metric,value
Usage: ingest_bench.py --bin BUILD --work DIR [--sizes 100000,1000000]
"""
import argparse
import json
import os
import sqlite3
import subprocess
import time


def du(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--reingest", type=int, default=50000)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    print("workload,metric,value")
    for n in [int(x) for x in a.sizes.split(",")]:
        data = os.path.join(a.work, f"works-{n}.jsonl")
        if not os.path.exists(data):
            subprocess.run([f"{a.bin}/litgraph-gen-works", "--works", str(n), "--out", data],
                           check=True, stderr=subprocess.DEVNULL)
        db = os.path.join(a.work, f"bench-{n}.db")
        subprocess.run(["rm", "-rf", db], check=True)
        t = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", f"{a.bin}/litgraph-ingest", "--db", db,
                            "-q", "--stats", data], capture_output=True, text=True, check=True)
        wall = time.perf_counter() - t
        s = json.loads(p.stdout)
        rss_kb = int(p.stderr.strip().splitlines()[-1])
        info = json.loads(sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
                          .execute("select value from meta where key='graph_info'").fetchone()[0])
        gen = os.path.join(db, f"graph.{info['generation']}")
        cites_bytes = sum(os.path.getsize(os.path.join(gen, f)) for f in
                          ("cites.out.adj", "cites.in.adj"))
        w = f"ingest_{n}"
        print(f"{w},works,{s['works']}")
        print(f"{w},works_per_s,{s['works'] / wall:.0f}")
        print(f"{w},wall_s,{wall:.1f}")
        print(f"{w},load_s,{s['load_seconds']:.1f}")
        print(f"{w},graph_s,{s['graph_seconds']:.1f}")
        print(f"{w},input_bytes,{s['input_bytes']}")
        print(f"{w},sqlite_bytes,{os.path.getsize(os.path.join(db, 'litgraph.sqlite'))}")
        print(f"{w},graph_dir_bytes,{du(gen)}")
        print(f"{w},cites_edges,{s['cites_edges']}")
        print(f"{w},cites_bytes_per_edge,{cites_bytes / (2 * s['cites_edges']):.3f}")
        print(f"{w},all_edges,{info['edges']}")
        print(f"{w},peak_rss_mb,{rss_kb / 1024:.0f}", flush=True)

        # The cron path: re-ingest the first M works (all updates) into the full store.
        m = min(a.reingest, n)
        part = os.path.join(a.work, f"works-{n}-head{m}.jsonl")
        with open(data) as src, open(part, "w") as dst:
            for i, line in enumerate(src):
                if i >= m:
                    break
                dst.write(line)
        t = time.perf_counter()
        p = subprocess.run([f"{a.bin}/litgraph-ingest", "--db", db, "-q", "--stats", part],
                           capture_output=True, text=True, check=True)
        wall = time.perf_counter() - t
        s = json.loads(p.stdout)
        w = f"reingest_{m}_into_{n}"
        print(f"{w},works_updated,{s['works_updated']}")
        print(f"{w},wall_s,{wall:.1f}")
        print(f"{w},load_s,{s['load_seconds']:.1f}")
        print(f"{w},graph_s,{s['graph_seconds']:.1f}", flush=True)

        # Baseline: FTS5 alone on the same text.
        con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
        docs = con.execute("select id, title, abstract from paper").fetchall()
        path = os.path.join(a.work, f"fts-{n}.sqlite")
        for suffix in ("", "-wal", "-shm", "-journal"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
        f = sqlite3.connect(path, isolation_level=None)
        f.execute("create virtual table f using fts5(title, abstract, "
                  "tokenize='porter unicode61 remove_diacritics 2')")
        t = time.perf_counter()
        f.execute("begin")
        f.executemany("insert into f(rowid, title, abstract) values(?,?,?)", docs)
        f.execute("commit")
        dt = time.perf_counter() - t
        f.close()
        os.remove(path)
        print(f"fts5_{n},docs_per_s,{len(docs) / dt:.0f}", flush=True)


if __name__ == "__main__":
    main()
