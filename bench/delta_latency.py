#!/usr/bin/env python3
"""Query latency of a store as it is (e.g. with large full-text and vector deltas, left by
updates run with --compact-at 100), to compare with the same store after its deltas are folded.

    python3 bench/delta_latency.py --bin BUILD --db STORE [--papers 40] [--repeats 3] --out F.json

Picks --papers stored papers (evenly spaced ids, the same for the same store size) and runs, for
each, as fresh processes:
  title      litgraph-find-paper -n 20 TITLE              (BM25: base and delta)
  semantic   litgraph-find-paper --semantic -n 20 TITLE   (HNSW: base and delta)
  abstract   litgraph-find-paper -n 20 ABSTRACT           (a whole abstract, at most 3,000 chars)
  tri        litgraph-tri-search -n 20 TITLE
The first pass warms the page cache and is not counted; p50 and p90 of the others. Prints a
table; --out keeps every sample. `--report A.json B.json` prints two runs side by side.
"""
import argparse
import json
import sqlite3
import statistics
import subprocess
import time

KINDS = ["title", "semantic", "abstract", "tri"]


def queries(db, n):
    con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
    top = con.execute("SELECT max(id) FROM paper").fetchone()[0]
    out = []
    for k in range(n):
        pid = 1 + (k * 7919 * 131) % top
        row = con.execute("SELECT id, title, abstract FROM paper WHERE id >= ? AND title != ''"
                          " AND length(abstract) > 200 ORDER BY id LIMIT 1", (pid,)).fetchone()
        if row:
            out.append({"id": row[0], "title": row[1], "abstract": row[2][:3000]})
    return out


def argv_of(bin_dir, db, kind, q):
    if kind == "title":
        return [f"{bin_dir}/litgraph-find-paper", "--db", db, "-n", "20", q["title"]]
    if kind == "semantic":
        return [f"{bin_dir}/litgraph-find-paper", "--db", db, "--semantic", "-n", "20", q["title"]]
    if kind == "abstract":
        return [f"{bin_dir}/litgraph-find-paper", "--db", db, "-n", "20", q["abstract"]]
    return [f"{bin_dir}/litgraph-tri-search", "--db", db, "-n", "20", q["title"]]


def measure(a):
    qs = queries(a.db, a.papers)
    samples = {k: [] for k in KINDS}
    for rep in range(a.repeats + 1):
        for q in qs:
            for kind in KINDS:
                t = time.perf_counter()
                p = subprocess.run(argv_of(a.bin, a.db, kind, q), capture_output=True)
                ms = (time.perf_counter() - t) * 1000
                if p.returncode not in (0, 1):
                    raise SystemExit(f"{kind} {q['id']}: exit {p.returncode}: {p.stderr[-300:]}")
                if rep > 0:
                    samples[kind].append(ms)
    return {"db": a.db, "bin": a.bin, "papers": len(qs), "repeats": a.repeats,
            "samples_ms": samples,
            "summary": {k: {"p50": round(statistics.median(v), 1),
                            "p90": round(sorted(v)[int(0.9 * (len(v) - 1))], 1)}
                        for k, v in samples.items()}}


def report(paths):
    runs = [json.load(open(p)) for p in paths]
    print("| kind | " + " | ".join(f"{p}: p50 / p90" for p in paths) + " |")
    print("|---|" + "---|" * len(paths))
    for k in KINDS:
        cells = [f"{r['summary'][k]['p50']:.1f} / {r['summary'][k]['p90']:.1f} ms" for r in runs]
        print(f"| {k} | " + " | ".join(cells) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin")
    ap.add_argument("--db")
    ap.add_argument("--papers", type=int, default=40)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out")
    ap.add_argument("--report", nargs="+")
    a = ap.parse_args()
    if a.report:
        report(a.report)
        return
    if not (a.bin and a.db):
        ap.error("--bin and --db are needed")
    r = measure(a)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(r, f)
    for k in KINDS:
        print(k, r["summary"][k])


if __name__ == "__main__":
    main()
