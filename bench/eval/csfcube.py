#!/usr/bin/env python3
"""CSFCube development fold: re-rank each query's judged pool, score like the official script.

Protocol (iesl/CSFCube eval_scripts/ranking_eval.py): for each (query paper, facet) the
candidates are that query's judged pool; a run orders the whole pool; metrics per query:
  ndcg%20  NDCG at k = int(0.2 * pool size), gains = graded relevance 0..3, discount
           weights 1, 1, 1/log2(3), ... (rank_metrics.ndcg_at_k, method 0)
  ndcg@20  the same at k = 20
  map      average precision with relevance >= 2 as relevant
  rprec    the official script's r_precision: precision up to the last relevant item
averaged over the 24 queries of the development fold ("all" facets). The query text is the
query paper's title and abstract; with --faceted, its title and the sentences of the facet;
with --facet-boost, title and abstract followed by the facet's sentences once more
(bench/results/2026-11-27-faceted: neither helps).

Runs (each a litgraph tool over the same store, ranking only the pool):
  bm25        litgraph-find-paper --candidates POOL QUERY               (lexical)
  embedding   litgraph-find-paper --candidates POOL --semantic QUERY    (built-in model)
  hybrid      litgraph-find-paper --candidates POOL --hybrid QUERY      (RRF)
  hybrid_lin  litgraph-find-paper --candidates POOL --hybrid --fusion linear QUERY
  tri-search  litgraph-tri-search --candidates POOL QUERY (when built; --tri-args adds flags)
Anchors on this collection: Okapi BM25 0.532 NDCG%20, SPECTER 0.533.

Usage: csfcube.py --bin BUILD --work DIR [--shared DIR] [--runs bm25,embedding,...]
                  [--embed-args "--dim 128"] [--rebuild]
CSV on stdout: run,queries,ndcg%20,ndcg@20,map,rprec
"""
import argparse
import json
import math
import os
import shlex
import subprocess
import sys
import tempfile


def dcg(r, k):
    r = r[:k]
    if not r:
        return 0.0
    return r[0] + sum(x / math.log2(i + 1) for i, x in enumerate(r[1:], start=1))


def ndcg(r, k):
    best = dcg(sorted(r, reverse=True), k)
    return dcg(r, k) / best if best else 0.0


def average_precision(binary):
    hits, out = 0, []
    for i, b in enumerate(binary):
        if b:
            hits += 1
            out.append(hits / (i + 1))
    return sum(out) / len(out) if out else 0.0


def r_precision(binary):
    last = max((i for i, b in enumerate(binary) if b), default=-1)
    return sum(binary[: last + 1]) / (last + 1) if last >= 0 else 0.0


def build_store(a, shared):
    db = os.path.join(a.work, "csfcube.db")
    marker = os.path.join(a.work, "csfcube.built")
    if os.path.exists(marker) and not a.rebuild:
        return db
    subprocess.run(["rm", "-rf", db, marker], check=True)
    os.makedirs(a.work, exist_ok=True)
    recs = os.path.join(a.work, "csfcube.jsonl")
    with open(recs, "w") as out:
        for line in open(os.path.join(shared, "papers.jsonl")):
            p = json.loads(line)
            out.write(json.dumps({"id": "cs:" + p["paper_id"], "title": p["title"], "year": p.get("year"),
                                  "abstract": " ".join(s["text"] for s in p["abstract_sentences"])}) + "\n")
    run = lambda *cmd: subprocess.run(list(cmd), check=True, stdout=subprocess.DEVNULL)
    run(f"{a.bin}/litgraph-ingest", "--db", db, "-q", recs)
    run(f"{a.bin}/litgraph-extract-keywords", "--db", db, "-q")
    run(f"{a.bin}/litgraph-embed", "--db", db, "-q", *shlex.split(a.embed_args))
    open(marker, "w").close()
    return db


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                                     "shared", "data", "csfcube-dev"))
    ap.add_argument("--runs", default="bm25,embedding,hybrid,hybrid_lin,tri-search")
    ap.add_argument("--embed-args", default="")
    ap.add_argument("--tri-args", default="")
    ap.add_argument("--faceted", action="store_true")
    ap.add_argument("--facet-boost", action="store_true",
                    help="the whole abstract, then the facet's sentences once more")
    ap.add_argument("--rebuild", action="store_true")
    ap.add_argument("--per-query", action="store_true")
    a = ap.parse_args()
    if not os.path.exists(os.path.join(a.shared, "qrels.tsv")):
        print(f"skipped: {a.shared} not present", file=sys.stderr)
        return 0
    db = build_store(a, a.shared)
    papers = {}
    for line in open(os.path.join(a.shared, "papers.jsonl")):
        p = json.loads(line)
        papers[p["paper_id"]] = p
    pools = {}
    for line in open(os.path.join(a.shared, "qrels.tsv")):
        q, facet, pid, rel = line.rstrip("\n").split("\t")
        if q == "query_paper_id":
            continue
        pools.setdefault((q, facet), {})[pid] = int(rel)
    queries = [json.loads(l) for l in open(os.path.join(a.shared, "queries.jsonl"))]
    runs = {
        "bm25": [f"{a.bin}/litgraph-find-paper"],
        "embedding": [f"{a.bin}/litgraph-find-paper", "--semantic"],
        "hybrid": [f"{a.bin}/litgraph-find-paper", "--hybrid"],
        "hybrid_lin": [f"{a.bin}/litgraph-find-paper", "--hybrid", "--fusion", "linear"],
        "tri-search": [f"{a.bin}/litgraph-tri-search"] + shlex.split(a.tri_args),
    }
    print("run,queries,ndcg%20,ndcg@20,map,rprec")
    for name in a.runs.split(","):
        cmd = runs[name]
        if not os.path.exists(cmd[0]):
            print(f"{name}: {cmd[0]} not built, skipped", file=sys.stderr)
            continue
        totals = {"ndcg%20": 0.0, "ndcg@20": 0.0, "map": 0.0, "rprec": 0.0}
        n = 0
        for q in queries:
            qp = papers[q["query_paper_id"]]
            if a.facet_boost:
                text = (qp["title"] + ". " + " ".join(s["text"] for s in qp["abstract_sentences"])
                        + " " + " ".join(s["text"] for s in qp["abstract_sentences"]
                                         if s["facet"] == q["facet"]))
            elif a.faceted:
                text = qp["title"] + ". " + " ".join(s["text"] for s in qp["abstract_sentences"]
                                                     if s["facet"] == q["facet"])
            else:
                text = qp["title"] + ". " + " ".join(s["text"] for s in qp["abstract_sentences"])
            pool = pools[(q["query_paper_id"], q["facet"])]
            with tempfile.NamedTemporaryFile("w", suffix=".ids", delete=False) as f:
                f.write("\n".join("cs:" + pid for pid in pool) + "\n")
                cands = f.name
            p = subprocess.run(cmd + ["--db", db, "--format", "jsonl", "--candidates", cands,
                                      "--limit", str(len(pool) + 10), "-q", text],
                               capture_output=True, text=True)
            os.remove(cands)
            if p.returncode not in (0, 1):
                print(f"{name}: {p.stderr.strip()[:500]}", file=sys.stderr)
                break
            ranked = [json.loads(l)["id"][3:] for l in p.stdout.splitlines() if l.strip()]
            seen = set(ranked)
            ranked += sorted(pid for pid in pool if pid not in seen)  # unranked go last
            rels = [pool[pid] for pid in ranked if pid in pool]
            binary = [1 if r >= 2 else 0 for r in rels]
            m = {"ndcg%20": ndcg(rels, int(0.2 * len(rels))), "ndcg@20": ndcg(rels, 20),
                 "map": average_precision(binary), "rprec": r_precision(binary)}
            if a.per_query:
                print(f"# {name} {q['query_paper_id']}_{q['facet']} pool={len(pool)} "
                      + " ".join(f"{k}={v:.3f}" for k, v in m.items()), file=sys.stderr)
            for k in totals:
                totals[k] += m[k]
            n += 1
        if n:
            print(f"{name},{n}," + ",".join(f"{totals[k] / n:.4f}" for k in
                                            ("ndcg%20", "ndcg@20", "map", "rprec")), flush=True)


if __name__ == "__main__":
    sys.exit(main())
