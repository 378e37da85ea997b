#!/usr/bin/env python3
"""Keyword extraction throughput of one or more builds on the same store.

  keywords_speed.py --store BASE.db --work DIR --bin BUILD [--bin OTHER ...] [--repeat 2]
                    [--threads N]

BASE.db is an ingested store without keywords (e.g. litgraph-gen-works --works 100000,
litgraph-ingest). For each build and repeat, BASE.db is copied to DIR and
litgraph-extract-keywords --stats runs on the copy; reported per run:
  papers_per_s      the tool's own figure: papers / extract_seconds (wall clock of the
                    extraction loop, with its SQLite writes; the recount of the corpus
                    statistics before it is not included)
  total_s           the tool's whole run (recount, extraction, graph files)
  cpu_s             user + system CPU time of the whole run (getrusage of the child)
  papers_per_cpu_s  papers / cpu_s: the whole run per CPU second, which a busy machine
                    (other processes on the same cores) disturbs less than wall time
  papers_per_total_s  papers / total_s
  maxrss_mb         peak resident memory
  shared_share      after the timed run: the share of the store's paper->keyword links whose
                    keyword is linked to >= 2 papers (keyword.paper_count >= 2), as in
                    keywords_eval.py
Builds alternate within a repeat, so that both see the same machine load. The load
average is printed before each run. --threads N is passed to the tool (default: the tool's
own default); the builtin extraction loop runs on one thread in every build so far, so it
changes nothing there yet.
"""
import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time


def run_once(binary, base, work, tag, threads=None):
    db = os.path.join(work, f"speed-{tag}.db")
    shutil.rmtree(db, ignore_errors=True)
    shutil.copytree(base, db)
    t0 = time.perf_counter()
    cmd = [os.path.join(binary, "litgraph-extract-keywords"), "--db", db, "-q", "--stats"]
    if threads:
        cmd += ["--threads", str(threads)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)  # this child's own rusage
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"{binary}: litgraph-extract-keywords exited {p.returncode}")
    s = json.loads(out.strip().splitlines()[-1])
    cpu = usage.ru_utime + usage.ru_stime
    con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
    links, shared = con.execute(
        "SELECT count(*), coalesce(sum(k.paper_count >= 2), 0) FROM paper_keyword pk"
        " JOIN keyword k ON k.id = pk.keyword_id").fetchone()
    con.close()
    shutil.rmtree(db, ignore_errors=True)
    papers = s["papers"]
    return {"bin": binary, "threads": threads, "papers": papers,
            "paper_keywords": s["paper_keywords"], "keywords": s["keywords"],
            "extract_s": round(s["extract_seconds"], 2),
            "papers_per_s": round(papers / s["extract_seconds"]),
            "total_s": round(s["seconds"], 2), "papers_per_total_s": round(papers / s["seconds"]),
            "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
            "papers_per_cpu_s": round(papers / cpu), "maxrss_mb": round(usage.ru_maxrss / 1024),
            "load_after": round(os.getloadavg()[0], 2),
            "shared_share": round(shared / max(1, links), 4)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--bin", action="append", required=True)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--threads", type=int)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    for rep in range(a.repeat):
        for i, b in enumerate(a.bin):
            print(f"# load average {os.getloadavg()[0]:.2f}", file=sys.stderr)
            print(json.dumps(run_once(b, a.store, a.work, f"{i}-{rep}", a.threads)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
