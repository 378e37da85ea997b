#!/usr/bin/env python3
"""Query by example (--like) against text queries of the same paper, on development data only.

csfcube  CSFCube development fold (../shared/data/csfcube-dev; the store and metrics of
         csfcube.py). Each (query paper, facet) re-ranks its judged pool, as csfcube.py does;
         the text runs query with the paper's title and abstract (csfcube.py's query), the like
         runs with --like cs:QUERY_ID (the query papers are in the collection). The query paper
         is dropped from its own pool in every run (one pool, 8781666/result, judges it 3: a
         text query ranks it first, --like never returns it), so both sides rank the same
         papers. NDCG%20 (graded) and MAP (relevance >= 2) per facet and overall.
         --csf-query title: the text runs query with the title alone (short topical queries).
aan      ACL Anthology Network, development sample of aan_map.py / aan_citations.py --split dev
         (eligible: >= 5 references in the collection; the test sample random.Random(7) of N is
         never queried; the development sample random.Random(11) of N from the rest). The store
         holds every paper with its title; the development papers keep their citations (papers
         citing them) but their own reference lists are removed, so nothing in the store links
         a query paper to its references. Task: for a development paper P, rank the store's
         papers; relevant = P's references within the collection (Recall@20, binary nDCG@20).
         Text runs query with P's title (AAN has no abstracts) and --exclude P (tri-search) or
         drop P from the list (find-paper) so both sides rank the same papers; like runs with
         --like P.
Significance: paired randomization test (sign flips of per-query differences, 10,000 rounds,
two-sided p) of each like run against its text run (--pairs) on each metric.

Usage: like_eval.py csfcube --bin BUILD --work DIR [--runs ...] [--out DIR]
       like_eval.py aan --bin BUILD --work DIR [--n 1000] [--runs ...] [--out DIR]
Runs are name=TOOL:ARGS with TEXT or LIKE in ARGS (see RUNS_*); --pairs like=text,...
CSV on stdout: benchmark,run,facet,queries,metric values; then the paired tests.
"""
import argparse
import csv
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from csfcube import average_precision, build_store as build_csf_store, ndcg  # noqa: E402
from aan_citations import load_aan  # noqa: E402
from aan_map import ndcg_binary, randomization_p, recall, split  # noqa: E402

SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared",
                      "data")

# name -> (tool, flags); the query goes where TEXT / LIKE stand.
RUNS_CSF = {
    "bm25_text": ("find-paper", "TEXT"),
    "bm25_like": ("find-paper", "LIKE"),
    "sem_text": ("find-paper", "--semantic TEXT"),
    "sem_like": ("find-paper", "--semantic LIKE"),
    "hybrid_text": ("find-paper", "--hybrid TEXT"),
    "hybrid_like": ("find-paper", "--hybrid LIKE"),
    "tri_text": ("tri-search", "TEXT"),
    "tri_like": ("tri-search", "LIKE"),
}
PAIRS_CSF = "bm25_like=bm25_text,sem_like=sem_text,hybrid_like=hybrid_text,tri_like=tri_text"
RUNS_AAN = {
    "bm25_text": ("find-paper", "TEXT"),
    "bm25_like": ("find-paper", "LIKE"),
    "hybrid_text": ("find-paper", "--hybrid TEXT"),
    "hybrid_like": ("find-paper", "--hybrid LIKE"),
    "tri_text": ("tri-search", "TEXT"),
    "tri_like": ("tri-search", "LIKE"),
}
PAIRS_AAN = "bm25_like=bm25_text,hybrid_like=hybrid_text,tri_like=tri_text"


def parse_runs(spec, default):
    if not spec:
        return dict(default)
    runs = {}
    for item in spec.split(";"):
        if not item.strip():
            continue
        name, rest = item.split("=", 1)
        tool, flags = rest.split(":", 1)
        runs[name.strip()] = (tool.strip(), flags)
    return runs


def command(a, db, tool, flags, text, like, exclude=None, extra=()):
    cmd = [f"{a.bin}/litgraph-{tool}", "--db", db, "--format", "jsonl", "-q"] + list(extra)
    words = shlex.split(flags)
    tail = []
    for w in words:
        if w == "LIKE" and tool == "map":
            tail = ["--", like]  # litgraph-map: the example as the seed (a baseline)
        elif w == "LIKE":
            cmd += ["--like", like]
        elif w == "TEXT":
            tail = ["--", text]
            if exclude and tool == "tri-search":
                cmd += ["--exclude", exclude]
        else:
            cmd.append(w)
    return cmd + tail


def run_ids(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd[:8])}...: exit {p.returncode}: {p.stderr.strip()[:500]}")
    return [json.loads(l)["id"] for l in p.stdout.splitlines() if l.strip()]


def paired(rows, pairs, metrics, group=None):
    """rows: run -> {query: {metric: value}}; yields (like, text, metric, mean diff, p, n)."""
    for pair in filter(None, pairs.split(",")):
        like, text = pair.split("=")
        if like not in rows or text not in rows:
            continue
        qs = [q for q in rows[like] if q in rows[text] and (group is None or group(q))]
        for m in metrics:
            d = [rows[like][q][m] - rows[text][q][m] for q in qs]
            if d:
                yield like, text, m, sum(d) / len(d), randomization_p(d), len(d)


def csfcube(a):
    shared = os.path.join(a.shared or SHARED, "csfcube-dev")
    ns = argparse.Namespace(bin=a.bin, work=a.work, embed_args=a.embed_args, rebuild=a.rebuild)
    db = build_csf_store(ns, shared)
    papers = {}
    for line in open(os.path.join(shared, "papers.jsonl")):
        p = json.loads(line)
        papers[p["paper_id"]] = p
    pools = {}
    for line in open(os.path.join(shared, "qrels.tsv")):
        q, facet, pid, rel = line.rstrip("\n").split("\t")
        if q != "query_paper_id":
            pools.setdefault((q, facet), {})[pid] = int(rel)
    queries = [json.loads(l) for l in open(os.path.join(shared, "queries.jsonl"))]
    runs = parse_runs(a.runs, RUNS_CSF)
    rows = {}
    for name, (tool, flags) in runs.items():
        rows[name] = {}
        for q in queries:
            qid, facet = q["query_paper_id"], q["facet"]
            qp = papers[qid]
            text = qp["title"] + ". " + " ".join(s["text"] for s in qp["abstract_sentences"])
            if a.csf_query == "title":
                text = qp["title"]  # a short topical query
            pool = {pid: r for pid, r in pools[(qid, facet)].items() if pid != qid}
            with tempfile.NamedTemporaryFile("w", suffix=".ids", delete=False) as f:
                f.write("\n".join("cs:" + pid for pid in pool) + "\n")
                cands = f.name
            cmd = command(a, db, tool, flags, text, "cs:" + qid,
                          extra=["--candidates", cands, "--limit", str(len(pool) + 10)])
            ranked = [x[3:] for x in run_ids(cmd)]
            os.remove(cands)
            seen = set(ranked)
            ranked = [p for p in ranked if p in pool]
            ranked += sorted(pid for pid in pool if pid not in seen)  # unranked go last
            rels = [pool[pid] for pid in ranked]
            binary = [1 if r >= 2 else 0 for r in rels]
            rows[name][(qid, facet)] = {"ndcg%20": ndcg(rels, int(0.2 * len(rels))),
                                        "map": average_precision(binary)}
        print(f"# {name} done", file=sys.stderr, flush=True)
    metrics = ["ndcg%20", "map"]
    facets = ["all", "background", "method", "result"]
    summary = []
    for name in runs:
        for facet in facets:
            qs = [k for k in rows[name] if facet == "all" or k[1] == facet]
            summary.append(["csfcube", name, facet, len(qs)] +
                           [f"{sum(rows[name][k][m] for k in qs) / len(qs):.4f}" for m in metrics])
    tests = []
    for facet in facets:
        for like, text, m, d, p, n in paired(rows, a.pairs or PAIRS_CSF, metrics,
                                              None if facet == "all" else
                                              (lambda k, f=facet: k[1] == f)):
            tests.append(["csfcube", like, text, facet, m, n, f"{d:+.4f}", f"{p:.4f}"])
    report(a, summary, tests, rows, ["benchmark", "run", "facet", "queries"] + metrics)


def aan(a):
    shared = os.path.join(a.shared or SHARED, "aan")
    papers, refs, dev = split(shared, a.n, a.seed)
    dev_set = set(dev)
    os.makedirs(a.work, exist_ok=True)
    db = os.path.join(a.work, f"aan-like-dev{a.n}-{a.seed}.db")
    marker = db + ".built"
    if a.rebuild or not os.path.exists(marker):
        subprocess.run(["rm", "-rf", db, marker], check=True)
        recs = db + ".jsonl"
        with open(recs, "w") as f:
            for p in papers:
                r = dict(p)
                # A development paper keeps its text and its citations, not its references.
                r["references"] = [] if p["id"] in dev_set else sorted(refs.get(p["id"], ()))
                f.write(json.dumps(r) + "\n")
        run = lambda *cmd: subprocess.run(list(cmd), check=True, stdout=subprocess.DEVNULL)
        run(f"{a.bin}/litgraph-ingest", "--db", db, "-q", recs)
        run(f"{a.bin}/litgraph-extract-keywords", "--db", db, "-q")
        run(f"{a.bin}/litgraph-embed", "--db", db, "-q", *shlex.split(a.embed_args))
        open(marker, "w").close()
    title = {p["id"]: p["title"] for p in papers}
    queries = [pid for pid in dev if refs.get(pid)][a.skip_queries:]
    queries = queries[: a.limit_queries or None]
    runs = parse_runs(a.runs, RUNS_AAN)
    rows = {}
    for name, (tool, flags) in runs.items():
        rows[name] = {}
        for pid in queries:
            cmd = command(a, db, tool, flags, title[pid], pid, exclude=pid,
                          extra=[] if tool == "map" else ["--limit", str(a.k + 1)])
            ranked = [x for x in run_ids(cmd) if x != pid][: a.k]
            rel = refs[pid]
            rows[name][pid] = {"recall@20": recall(ranked, rel, a.k),
                               "ndcg@20": ndcg_binary(ranked, rel, a.k)}
        print(f"# {name} done", file=sys.stderr, flush=True)
    metrics = ["recall@20", "ndcg@20"]
    summary = [["aan", name, "all", len(rows[name])] +
               [f"{sum(v[m] for v in rows[name].values()) / len(rows[name]):.4f}" for m in metrics]
               for name in runs]
    tests = [["aan", like, text, "all", m, n, f"{d:+.4f}", f"{p:.4f}"]
             for like, text, m, d, p, n in paired(rows, a.pairs or PAIRS_AAN, metrics)]
    report(a, summary, tests, rows, ["benchmark", "run", "facet", "queries"] + metrics)


def report(a, summary, tests, rows, header):
    w = csv.writer(sys.stdout)
    w.writerow(header)
    w.writerows(summary)
    w.writerow(["benchmark", "like", "text", "facet", "metric", "queries", "mean_diff", "p"])
    w.writerows(tests)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        tag = a.cmd + (("-" + a.tag) if a.tag else "")
        with open(os.path.join(a.out, f"{tag}-summary.csv"), "w") as f:
            csv.writer(f).writerows([header] + summary)
        with open(os.path.join(a.out, f"{tag}-paired.csv"), "w") as f:
            csv.writer(f).writerows(
                [["benchmark", "like", "text", "facet", "metric", "queries", "mean_diff", "p"]] +
                tests)
        with open(os.path.join(a.out, f"{tag}-per-query.csv"), "w") as f:
            cw = csv.writer(f)
            metrics = header[4:]
            cw.writerow(["run", "query"] + metrics)
            for name, qs in rows.items():
                for q, v in qs.items():
                    cw.writerow([name, "/".join(q) if isinstance(q, tuple) else q] +
                                [f"{v[m]:.6f}" for m in metrics])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=("csfcube", "aan"))
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--shared", default="")
    ap.add_argument("--runs", default="", help="'name=tool:flags;...' (TEXT / LIKE mark the query)")
    ap.add_argument("--pairs", default="", help="'like_run=text_run,...' for the paired tests")
    ap.add_argument("--embed-args", default="")
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--k", type=int, default=20)
    ap.add_argument("--limit-queries", type=int, default=0)
    ap.add_argument("--skip-queries", type=int, default=0,
                    help="aan: start after this many development papers (a held-apart part)")
    ap.add_argument("--csf-query", choices=("abstract", "title"), default="abstract",
                    help="csfcube: the text query is the paper's title and abstract (default) "
                    "or its title alone (a short topical query)")
    ap.add_argument("--out", default="")
    ap.add_argument("--tag", default="")
    ap.add_argument("--rebuild", action="store_true")
    a = ap.parse_args()
    return csfcube(a) if a.cmd == "csfcube" else aan(a)


if __name__ == "__main__":
    sys.exit(main())
