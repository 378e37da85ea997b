#!/usr/bin/env python3
"""Keyphrase quality of litgraph-extract-keywords on Inspec (Hulth 2003), with the
standard exact-match scorer (../shared/data/inspec-dev/kp_eval.py), and a paired
randomization test between two runs.

  inspec.py run --bin BUILD --split train|dev --mode store|filter|filter-store --out DIR
  inspec.py compare RUN_A RUN_B [--flips 10000]

run: the split's records ({id, title, abstract}) are native litgraph records. Modes:
  store         litgraph-ingest the records into a fresh store, litgraph-extract-keywords
                over it (corpus statistics counted on the split's own papers, as on any
                store), then each paper's keywords read back from the store in rank order.
  filter        litgraph-extract-keywords --filter with no store (no corpus statistics).
  filter-store  --filter against the store of the store mode (statistics + known-keyword
                boost: the query path of tri-search).
Keywords are requested with --max-keywords 20 (the CLI maximum) so that the cutoffs @5
and @10 see the extractor's own ranking beyond its default of 8; the store keeps only the
integer importance, so the export orders by importance then text (the extractor gives the
first ten ranks distinct importances). kp_eval.py keeps fewer than k predictions unpadded
(P = correct / predicted, the pke convention of the published figures); F1_fixed (P =
correct / k) is reported as well.
Writes DIR/pred.jsonl, DIR/summary.json (both protocols: "all" gold keyphrases and
"present" only), DIR/per_doc.jsonl (per-document P/R/F1 at 5 and 10, both protocols) and
DIR/run.json (command, binary, timings).

compare: for each of all/present x F1@5/F1@10 (macro), the mean paired difference B - A
over the documents both runs scored, and a two-sided p-value from a randomization test
that flips the sign of each document's difference (10,000 random flip vectors, fixed seed;
p = (1 + #{|mean flipped| >= |mean observed|}) / (1 + flips)).

Needs /usr/bin/python3 with nltk for kp_eval.py (Debian: apt-get install python3-nltk).
"""
import argparse
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DATA = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "data", "inspec-dev"))
METRICS = [("all", 5), ("all", 10), ("present", 5), ("present", 10)]


def run_cmd(cmd, **kw):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, check=True, **kw)
    return r, time.perf_counter() - t0


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def export_store(db, ids):
    con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
    by_ext = {}
    for ext, text, score in con.execute(
            "SELECT p.ext_id, k.text, pk.score FROM paper_keyword pk JOIN paper p ON p.id = pk.paper_id"
            " JOIN keyword k ON k.id = pk.keyword_id ORDER BY p.ext_id, pk.score DESC, k.text"):
        by_ext.setdefault(ext, []).append({"text": text, "score": score})
    con.close()
    return [{"id": i, "keywords": by_ext.get(i, [])} for i in ids]


def cmd_run(a):
    records = os.path.join(a.data, f"{a.split}.records.jsonl")
    gold = os.path.join(a.data, f"{a.split}.gold.json")
    scorer = os.path.join(a.data, "kp_eval.py")
    os.makedirs(a.out, exist_ok=True)
    recs = read_jsonl(records)
    ids = [str(r["id"]) for r in recs]
    ingest = os.path.join(a.bin, "litgraph-ingest")
    extract = os.path.join(a.bin, "litgraph-extract-keywords")
    info = {"bin": os.path.abspath(a.bin), "split": a.split, "mode": a.mode,
            "max_keywords": a.max_keywords, "docs": len(recs)}
    pred_path = os.path.join(a.out, "pred.jsonl")
    db = os.path.join(a.out, "store.db")
    if a.mode in ("store", "filter-store"):
        shutil.rmtree(db, ignore_errors=True)
        _, info["ingest_seconds"] = run_cmd([ingest, "--db", db, "-q", records])
        r, info["extract_seconds"] = run_cmd(
            [extract, "--db", db, "-q", "--stats", "--max-keywords", str(a.max_keywords)],
            stdout=subprocess.PIPE, text=True)
        info["extract_stats"] = json.loads(r.stdout.strip().splitlines()[-1])
    if a.mode == "store":
        preds = export_store(db, ids)
        with open(pred_path, "w", encoding="utf-8") as f:
            for p in preds:
                f.write(json.dumps(p) + "\n")
    else:
        # Filter mode: without a store, --db must name a directory that does not exist.
        fdb = db if a.mode == "filter-store" else os.path.join(a.out, "no-such-store.db")
        if a.mode == "filter":
            shutil.rmtree(fdb, ignore_errors=True)
        with open(records, "rb") as fin, open(pred_path, "wb") as fout:
            _, info["filter_seconds"] = run_cmd(
                [extract, "--db", fdb, "-q", "--filter", "--max-keywords", str(a.max_keywords)],
                stdin=fin, stdout=fout)
    preds = read_jsonl(pred_path)
    counts = [len(p.get("keywords") or []) for p in preds]
    info["keywords_per_doc"] = {"mean": sum(counts) / max(1, len(counts)), "min": min(counts, default=0),
                                "max": max(counts, default=0)}
    ties = 0
    for p in preds:
        top = [k["score"] for k in (p.get("keywords") or [])[:10]]
        ties += len(top) != len(set(top))
    info["docs_with_tied_scores_in_top10"] = ties
    per_doc = os.path.join(a.out, "per_doc.jsonl")
    r = subprocess.run([a.python, scorer, pred_path, gold, "--records", records, "--json",
                        "--per-doc", per_doc], check=True, stdout=subprocess.PIPE, text=True)
    summary = json.loads(r.stdout)
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    info["command"] = " ".join(sys.argv)
    with open(os.path.join(a.out, "run.json"), "w") as f:
        json.dump(info, f, indent=1)
    print(f"{a.split} {a.mode} ({a.bin}): {len(recs)} docs, "
          f"{info['keywords_per_doc']['mean']:.2f} keywords/doc, tied top-10 docs {ties}")
    for proto in ("all", "present"):
        print(f"  {proto:8s} F1@5 {summary[f'{proto}.F1@5']:6.2f}  F1@10 {summary[f'{proto}.F1@10']:6.2f}"
              f"  (P@10 {summary[f'{proto}.P@10']:.2f} R@10 {summary[f'{proto}.R@10']:.2f};"
              f" F1_fixed@10 {summary[f'{proto}.F1_fixed@10']:.2f}; micro F1@10"
              f" {summary[f'{proto}.microF1@10']:.2f})")
    return 0


def load_per_doc(run_dir):
    out = {}
    for d in read_jsonl(os.path.join(run_dir, "per_doc.jsonl")):
        out[d["id"]] = d
    return out


def paired_test(diffs, flips, seed):
    """Two-sided sign-flip randomization test of mean(diffs) == 0."""
    n = len(diffs)
    if n == 0:
        return 0.0, 1.0
    obs = sum(diffs) / n
    rng = random.Random(seed)
    hits = 0
    target = abs(obs) - 1e-12
    for _ in range(flips):
        s = 0.0
        for d in diffs:
            s += d if rng.random() < 0.5 else -d
        if abs(s / n) >= target:
            hits += 1
    return obs, (1 + hits) / (1 + flips)


def cmd_compare(a):
    da, db = load_per_doc(a.run_a), load_per_doc(a.run_b)
    rows = []
    for proto, k in METRICS:
        key = f"{proto}@{k}"
        common = [i for i in da if i in db and key in da[i] and key in db[i]]
        xa = [da[i][key]["F1"] for i in common]
        xb = [db[i][key]["F1"] for i in common]
        diffs = [y - x for x, y in zip(xa, xb)]
        mean_diff, p = paired_test(diffs, a.flips, a.seed)
        row = {"metric": f"{proto}.F1@{k}", "docs": len(common),
               "a": round(100 * sum(xa) / max(1, len(xa)), 2),
               "b": round(100 * sum(xb) / max(1, len(xb)), 2),
               "diff": round(100 * mean_diff, 2),
               "better": sum(1 for d in diffs if d > 0), "worse": sum(1 for d in diffs if d < 0),
               "p": p}
        rows.append(row)
    if a.json:
        print(json.dumps({"a": a.run_a, "b": a.run_b, "flips": a.flips, "rows": rows}, indent=1))
        return 0
    print(f"A = {a.run_a}\nB = {a.run_b}\npaired sign-flip randomization test, {a.flips} flips, two-sided")
    print(f"{'metric':18s} {'docs':>5s} {'A':>7s} {'B':>7s} {'B-A':>7s} {'B>A':>5s} {'B<A':>5s}  p")
    for r in rows:
        print(f"{r['metric']:18s} {r['docs']:5d} {r['a']:7.2f} {r['b']:7.2f} {r['diff']:+7.2f} "
              f"{r['better']:5d} {r['worse']:5d}  {r['p']:.4g}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--bin", required=True, help="directory with litgraph-ingest and litgraph-extract-keywords")
    r.add_argument("--split", choices=["train", "dev"], required=True)
    r.add_argument("--mode", choices=["store", "filter", "filter-store"], default="store")
    r.add_argument("--out", required=True)
    r.add_argument("--data", default=DEFAULT_DATA)
    r.add_argument("--max-keywords", type=int, default=20)
    r.add_argument("--python", default="/usr/bin/python3", help="python with nltk, for kp_eval.py")
    c = sub.add_parser("compare")
    c.add_argument("run_a")
    c.add_argument("run_b")
    c.add_argument("--flips", type=int, default=10000)
    c.add_argument("--seed", type=int, default=20261123)
    c.add_argument("--json", action="store_true")
    a = ap.parse_args()
    return cmd_run(a) if a.cmd == "run" else cmd_compare(a)


if __name__ == "__main__":
    sys.exit(main())
