#!/usr/bin/python3
"""litgraph-metrics on a store: the batch build (CD_t for every paper, PageRank, percentiles,
optionally novelty), on-demand queries, and a plain Python peer in the same run.

    /usr/bin/python3 bench/metrics_bench.py --bin BUILD --db STORE --work DIR
        [--threads 2] [--window 5] [--novelty] [--k 10] [--queries 100] [--sample 2000]
        [--seed 1] [--skip-peer]

The source store is never written: it is copied (cp -a) into --work, the build runs on the
copy, and the copy is removed at the end.

Workloads (one invocation, same binary and store):
  build        `litgraph-metrics --db COPY --build --stats --threads T --window W` under
               /usr/bin/time -f '%e %M': wall seconds, peak RSS, and the tool's phase times
               (read the citation graph, CD, PageRank, write). edges/core-s = CITES edges /
               (CD seconds x T), fast-cdindex's measure (~4.6k edges per core-second).
  novelty      the same with --novelty --k K (only with --novelty).
  query_file   `litgraph-metrics --db COPY P1..Pq` for --queries random papers with citations,
               one process: reads the metrics file (ms per process).
  query_live   the same with --window W+1 (not in the file): CD computed from the adjacency
               files for those papers.
  python_peer  a plain Python implementation (sets; no litgraph code): reads every paper's
               references from SQLite (paper.refs, decoded in Python), builds the citing lists,
               computes CD_W for --sample random papers; seconds for the sample, extrapolated
               to every paper (loading excluded, reported apart), and checks the sample
               against litgraph's values from the file (mismatches column).

stdout: CSV workload,papers,edges,seconds,peak_rss_mb,edges_per_core_s,mismatches,load1,note
(load1: the 1-minute load average before the run; the machine is shared).
"""
import argparse
import array
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def load1():
    return os.getloadavg()[0]


def timed_tool(cmd):
    """(wall seconds, peak RSS MB, stdout) of a command under /usr/bin/time."""
    p = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr[-2000:]}")
    wall, rss_kb = p.stderr.strip().splitlines()[-1].split()
    return float(wall), int(rss_kb) / 1024, p.stdout


def decode_refs(blob, dense):
    """Dense ids of a packed paper.refs blob (doc/store-format.md): W<n> is varint(n << 1),
    any other id varint(len << 1 | 1) and its bytes."""
    out = []
    i, n = 0, len(blob)
    while i < n:
        v, shift = 0, 0
        while True:
            b = blob[i]
            i += 1
            v |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                break
        if v & 1:
            ln = v >> 1
            ext = blob[i:i + ln].decode()
            i += ln
        else:
            ext = f"W{v >> 1}"
        d = dense.get(ext)
        if d is not None:
            out.append(d)
    return out


def python_peer(db, window, sample, seed, truth_tool):
    con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
    t0 = time.time()
    dense = {ext: pid for pid, ext in con.execute("select id, ext_id from paper")}
    n = max(dense.values()) + 1
    years = array.array("H", [0]) * n
    refs = [None] * n
    for pid, year, blob in con.execute("select id, year, refs from paper"):
        years[pid] = year or 0
        r = sorted(set(decode_refs(blob, dense))) if blob else []
        refs[pid] = array.array("I", [x for x in r if x != pid])
    citers = [[] for _ in range(n)]
    for p in range(n):
        if refs[p] is not None:
            for r in refs[p]:
                citers[r].append(p)
    edges = sum(len(r) for r in refs if r is not None)
    load_s = time.time() - t0

    def cd(f):
        fy = years[f]
        if window > 0 and not fy:
            return (0, 0, 0)

        def counted(c):
            cy = years[c]
            if c == f:
                return False
            if window > 0:
                return cy and fy <= cy <= fy + window
            return not fy or not cy or cy >= fy

        cite_refs = set()
        for r in refs[f] or ():
            for c in citers[r]:
                if counted(c):
                    cite_refs.add(c)
        cite_f = {c for c in citers[f] if counted(c)}
        return (len(cite_f - cite_refs), len(cite_f & cite_refs), len(cite_refs - cite_f))

    papers = [p for p in range(n) if refs[p] is not None]
    picked = random.Random(seed).sample(papers, min(sample, len(papers)))
    t0 = time.time()
    got = {p: cd(p) for p in picked}
    sample_s = time.time() - t0
    # litgraph's values for the sample, from the metrics file.
    ext = {pid: e for e, pid in dense.items()}
    mismatches = 0
    out = subprocess.run(truth_tool + [ext[p] for p in picked[:500]], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        r = json.loads(line)
        if (r["n_i"], r["n_j"], r["n_k"]) != got[dense[r["id"]]]:
            mismatches += 1
    return {"papers": len(papers), "edges": edges, "load_s": load_s, "sample_s": sample_s,
            "sampled": len(picked), "mismatches": mismatches}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--window", type=int, default=5)
    ap.add_argument("--novelty", action="store_true")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--sample", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-peer", action="store_true")
    a = ap.parse_args()
    tool = os.path.join(a.bin, "litgraph-metrics")
    os.makedirs(a.work, exist_ok=True)
    copy = os.path.join(a.work, os.path.basename(a.db.rstrip("/")) + ".metrics-copy")
    if os.path.exists(copy):
        shutil.rmtree(copy)
    log(f"copying {a.db} to {copy}")
    subprocess.run(["cp", "-a", a.db, copy], check=True)
    print("workload,papers,edges,seconds,peak_rss_mb,edges_per_core_s,mismatches,load1,note")
    try:
        common = ["--db", copy, "--threads", str(a.threads), "--window", str(a.window)]
        l1 = load1()
        wall, rss, out = timed_tool([tool, "--build", "--stats", "-q"] + common)
        s = json.loads(out)
        rate = s["cites_edges"] / (s["cd_seconds"] * a.threads)
        print(f"build,{s['papers']},{s['cites_edges']},{wall:.2f},{rss:.0f},{rate:.0f},,{l1:.2f},"
              f"read {s['load_seconds']:.2f}s CD_{a.window} {s['cd_seconds']:.2f}s PageRank "
              f"{s['pagerank_seconds']:.2f}s ({s['pagerank_iterations']} it) write "
              f"{s['write_seconds']:.2f}s", flush=True)
        if a.novelty:
            l1 = load1()
            wall, rss, out = timed_tool([tool, "--build", "--stats", "-q", "--novelty", "--k",
                                         str(a.k)] + common)
            s2 = json.loads(out)
            print(f"novelty,{s2['papers']},{s2['cites_edges']},{wall:.2f},{rss:.0f},,,{l1:.2f},"
                  f"novelty K={a.k} {s2['novelty_seconds']:.2f}s of the build", flush=True)
        con = sqlite3.connect(f"file:{copy}/litgraph.sqlite?mode=ro", uri=True)
        with_refs = [r[0] for r in con.execute(
            "select ext_id from paper where refs is not null order by id")]
        ids = random.Random(a.seed).sample(with_refs, min(a.queries, len(with_refs)))
        for name, extra in (("query_file", []), ("query_live", ["--window", str(a.window + 1)])):
            l1 = load1()
            wall, rss, out = timed_tool([tool, "--db", copy] + extra + ids)
            got = len(out.splitlines())
            print(f"{name},{got},,{wall:.3f},{rss:.0f},,,{l1:.2f},"
                  f"{wall * 1000 / max(1, got):.2f} ms per paper in one process", flush=True)
        if not a.skip_peer:
            l1 = load1()
            peer = python_peer(copy, a.window, a.sample, a.seed,
                               [tool, "--db", copy, "--window", str(a.window)])
            full = peer["sample_s"] / peer["sampled"] * peer["papers"]
            rate = peer["edges"] / full
            print(f"python_peer,{peer['sampled']},{peer['edges']},{peer['sample_s']:.2f},,"
                  f"{rate:.0f},{peer['mismatches']},{l1:.2f},"
                  f"extrapolated to {peer['papers']} papers: {full:.0f}s on 1 core; loading "
                  f"{peer['load_s']:.0f}s apart", flush=True)
    finally:
        shutil.rmtree(copy, ignore_errors=True)
        log(f"removed {copy}")


if __name__ == "__main__":
    main()
