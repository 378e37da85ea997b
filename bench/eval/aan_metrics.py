#!/usr/bin/env python3
"""litgraph-metrics on the ACL Anthology Network against a straightforward Python implementation.

Builds a store of every AAN paper (native records with their references inside the collection,
as aan_citations.py writes them), runs `litgraph-metrics --build` (CD_5, PageRank) and reads
every paper's record with --all; then recomputes, independently and literally from the
definitions (Python sets and dicts, no code shared with litgraph):
  CD_5 and unbounded CD: n_i, n_j, n_k and the undefined reasons of every paper;
  in-store citation counts;
  PageRank (damping 0.85, dangling mass spread uniformly, power iteration to 1e-12).
Exit 1 at the first mismatch (printed), 0 when all agree; "skipped" and exit 0 when the AAN
data (../shared/data/aan) is not present.

Usage: aan_metrics.py --bin BUILD --work DIR [--shared DIR] [--time]
CSV on stdout with --time: what,seconds,papers,edges (litgraph's build and the Python peer).
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from aan_citations import load_aan, write_without  # noqa: E402


def brute_cd(years, refs, citers, f, window):
    """(n_i, n_j, n_k, undefined) of focal f, read off the definition."""
    fy = years.get(f)
    if window > 0 and not fy:
        return 0, 0, 0, "no_year"

    def counted(c):
        cy = years.get(c)
        if c == f:
            return False
        if window > 0:
            return bool(cy) and fy <= cy <= fy + window
        return not fy or not cy or cy >= fy

    r = refs.get(f, set()) - {f}
    cite_refs = set()
    for x in r:
        cite_refs |= {c for c in citers.get(x, ()) if counted(c)}
    cite_f = {c for c in citers.get(f, ()) if counted(c)}
    n_i, n_j = len(cite_f - cite_refs), len(cite_f & cite_refs)
    n_k = len(cite_refs - cite_f)
    if not r:
        why = "no_references"
    elif n_i + n_j + n_k == 0:
        why = "no_citations"
    else:
        why = None
    return n_i, n_j, n_k, why


def pagerank(ids, refs, d=0.85, tol=1e-12):
    n = len(ids)
    pr = {p: 1 / n for p in ids}
    for _ in range(1000):
        dangling = sum(pr[p] for p in ids if not refs.get(p))
        nxt = {p: (1 - d) / n + d * dangling / n for p in ids}
        for p in ids:
            out = refs.get(p)
            if out:
                share = d * pr[p] / len(out)
                for q in out:
                    nxt[q] += share
        change = sum(abs(nxt[p] - pr[p]) for p in ids)
        pr = nxt
        if change < tol:
            break
    return pr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                     "..", "..", "..", "shared", "data", "aan"))
    ap.add_argument("--time", action="store_true", help="print timings as CSV")
    a = ap.parse_args()
    if not os.path.exists(os.path.join(a.shared, "citations.tsv")):
        print(f"skipped: {a.shared} not present", file=sys.stderr)
        return 0
    papers, refs = load_aan(a.shared)
    os.makedirs(a.work, exist_ok=True)
    db = os.path.join(a.work, "aan-metrics.db")
    if not os.path.exists(os.path.join(db, "litgraph.sqlite")):
        records = os.path.join(a.work, "aan-metrics.jsonl")
        write_without(papers, refs, set(), records)
        subprocess.run([os.path.join(a.bin, "litgraph-ingest"), "--db", db, "-q", records], check=True)
    tool = os.path.join(a.bin, "litgraph-metrics")
    t0 = time.time()
    subprocess.run([tool, "--db", db, "--build", "-q"], check=True)
    build_s = time.time() - t0
    got = {}
    for window in ("5", "unbounded"):
        out = subprocess.run([tool, "--db", db, "--all", "--window", window,
                              "--fields", "id,n_i,n_j,n_k,cd_undefined,cd,cited_by_in_store,pagerank,metrics_source"],
                             check=True, capture_output=True).stdout.decode()
        got[window] = {r["id"]: r for r in map(json.loads, out.splitlines())}
    years = {p["id"]: p.get("year") or 0 for p in papers}
    citers = {}
    for s, ts in refs.items():
        for t in ts:
            citers.setdefault(t, set()).add(s)
    ids = [p["id"] for p in papers]
    edges = sum(len(v) for v in refs.values())
    t0 = time.time()
    bad = 0
    for window, w in (("5", 5), ("unbounded", 0)):
        for f in ids:
            want = brute_cd(years, refs, citers, f, w)
            r = got[window][f]
            have = (r["n_i"], r["n_j"], r["n_k"], r["cd_undefined"])
            if have != want:
                bad += 1
                if bad <= 5:
                    print(f"mismatch CD window {window} {f}: litgraph {have}, python {want}")
            if r["cited_by_in_store"] != len(citers.get(f, ())):
                bad += 1
                print(f"mismatch in-store citations {f}: {r['cited_by_in_store']} vs {len(citers.get(f, ()))}")
    py_cd_s = time.time() - t0
    t0 = time.time()
    pr = pagerank(ids, refs)
    py_pr_s = time.time() - t0
    worst = max(abs(got["5"][p]["pagerank"] - pr[p]) for p in ids)
    if worst > 1e-9:
        bad += 1
        print(f"mismatch PageRank: largest difference {worst:.3g}")
    sources = {r["metrics_source"] for r in got["5"].values()}
    if sources != {"file"}:
        bad += 1
        print(f"CD_5 --all should read the file, read {sources}")
    defined = sum(1 for r in got["5"].values() if r["cd"] is not None)
    print(f"AAN: {len(ids)} papers, {edges} citations; CD_5 defined for {defined}; "
          f"{'all agree' if not bad else f'{bad} mismatches'} (CD_5, unbounded CD, in-store "
          f"citations, PageRank max diff {worst:.2g})", file=sys.stderr)
    if a.time:
        print("what,seconds,papers,edges")
        print(f"litgraph-metrics --build (CD_5+PageRank+percentiles),{build_s:.3f},{len(ids)},{edges}")
        print(f"python brute force CD (CD_5 and unbounded),{py_cd_s:.3f},{len(ids)},{edges}")
        print(f"python PageRank,{py_pr_s:.3f},{len(ids)},{edges}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
