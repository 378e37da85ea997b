#!/usr/bin/env python3
"""What the built-in keyword extractor produces, on three collections.

For each store (after litgraph-extract-keywords):
  papers_with_keywords, keywords_per_paper (mean), distinct_keywords,
  shared_share   share of a paper's keyword links whose keyword is used by >= 2 papers
  score_hist     importance distribution 1..10
  words_hist     keyword length in words
and, on the OpenAlex fixtures, overlap with OpenAlex's own annotations (a weak reference:
OpenAlex keywords are generated differently): the share of papers where at least one of our
keywords shares a content word with one of OpenAlex's keywords or topic names, and the share
of our keywords that do.

Stores: the bundled fixtures (tests/data), the ACL Anthology (titles only) and CSFCube
(titles + abstracts), built under --work from ../shared/data when present.
Usage: keywords_eval.py --bin BUILD --work DIR [--samples 10]
"""
import argparse
import collections
import json
import os
import sqlite3
import subprocess
import sys

STOP = set("a an the of and or in on for to with by from at as is are be this that we our new "
           "using based via its their into over under".split())


def build(bin_dir, db, inputs):
    if os.path.exists(os.path.join(db, "litgraph.sqlite")):
        return
    subprocess.run([f"{bin_dir}/litgraph-ingest", "--db", db, "-q"] + inputs, check=True)
    subprocess.run([f"{bin_dir}/litgraph-extract-keywords", "--db", db, "-q"], check=True)


def content_words(text):
    out = set()
    for w in "".join(c.lower() if c.isalnum() else " " for c in text).split():
        if w not in STOP and len(w) > 2:
            out.add(w[:-1] if w.endswith("s") and len(w) > 4 else w)
    return out


def report(name, db, samples, openalex=False):
    con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
    papers = con.execute("select count(*) from paper").fetchone()[0]
    links = con.execute("select pk.paper_id, k.text, pk.score, k.paper_count from paper_keyword pk "
                        "join keyword k on k.id = pk.keyword_id").fetchall()
    by_paper = collections.defaultdict(list)
    for pid, text, score, count in links:
        by_paper[pid].append((text, score, count))
    rows = [f"{name},papers,{papers}",
            f"{name},papers_with_keywords,{len(by_paper)}",
            f"{name},keywords_per_paper,{len(links) / max(1, len(by_paper)):.2f}",
            f"{name},distinct_keywords,{len({t for _, t, _, _ in links})}",
            f"{name},shared_share,{sum(1 for l in links if l[3] >= 2) / max(1, len(links)):.3f}"]
    scores = collections.Counter(s for _, _, s, _ in links)
    rows.append(f"{name},score_hist," + " ".join(f"{s}:{scores[s]}" for s in range(1, 11)))
    words = collections.Counter(len(t.split()) for _, t, _, _ in links)
    rows.append(f"{name},words_hist," + " ".join(f"{w}:{words[w]}" for w in sorted(words)))
    if openalex:
        hit_papers = hit_kw = total_kw = 0
        for pid, oa, topics in con.execute(
                "select p.id, p.oa_keywords, (select group_concat(t.name, ' | ') from paper_topic pt "
                "join topic t on t.id = pt.topic_id where pt.paper_id = p.id) from paper p"):
            ref = set()
            for k in json.loads(oa) if oa else []:
                ref |= content_words(k["text"])
            ref |= content_words(topics or "")
            if not ref or pid not in by_paper:
                continue
            ours = [content_words(t) & ref for t, _, _ in by_paper[pid]]
            hit_papers += any(ours)
            hit_kw += sum(1 for o in ours if o)
            total_kw += len(ours)
        with_ref = sum(1 for pid in by_paper)
        rows.append(f"{name},openalex_overlap_papers,{hit_papers / max(1, with_ref):.3f}")
        rows.append(f"{name},openalex_overlap_keywords,{hit_kw / max(1, total_kw):.3f}")
    print("\n".join(rows))
    titles = dict(con.execute("select id, title from paper"))
    for pid in sorted(by_paper)[:: max(1, len(by_paper) // samples)][:samples]:
        kws = ", ".join(f"{t} ({s})" for t, s, _ in sorted(by_paper[pid], key=lambda x: -x[1]))
        print(f"# {name} | {titles[pid][:90]} | {kws}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--samples", type=int, default=10)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--shared", default=os.path.join(here, "..", "..", "..", "shared", "data"))
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    data = os.path.join(here, "..", "..", "tests", "data")
    fx = os.path.join(a.work, "kw-fixtures.db")
    build(a.bin, fx, sorted(os.path.join(data, f) for f in os.listdir(data) if f.endswith((".json", ".jsonl"))))
    print("collection,metric,value")
    report("openalex_fixtures", fx, a.samples, openalex=True)
    aan = os.path.join(a.shared, "aan", "papers.jsonl")
    if os.path.exists(aan):
        db = os.path.join(a.work, "kw-aan.db")
        build(a.bin, db, [aan])
        report("aan_titles", db, a.samples)
    cs = os.path.join(a.shared, "csfcube-dev", "papers.jsonl")
    if os.path.exists(cs):
        recs = os.path.join(a.work, "kw-csfcube.jsonl")
        with open(recs, "w") as f:
            for line in open(cs):
                p = json.loads(line)
                f.write(json.dumps({"id": "cs:" + p["paper_id"], "title": p["title"],
                                    "abstract": " ".join(s["text"] for s in p["abstract_sentences"])}) + "\n")
        db = os.path.join(a.work, "kw-csfcube.db")
        build(a.bin, db, [recs])
        report("csfcube", db, a.samples)


if __name__ == "__main__":
    sys.exit(main())
