#!/usr/bin/env python3
"""Convert the ACL Anthology Network (../shared/data/aan) to litgraph native records.

Input (DIR = --shared, default: <repo>/../shared/data):
  DIR/aan/papers.jsonl    {"id", "title", "authors": [...], "venue", "year"} per line
  DIR/aan/citations.tsv   citing<TAB>cited, one header line

Output on stdout, one JSON object per paper, in papers.jsonl order:
  {"id", "title", "authors", "venue", "year", "references": [cited ids]}
references keep citations.tsv order, without duplicates, self-citations or ids that
are not papers. No "cited_by_count": a store built from these records counts
citations in the store (doc/graph-format.md, paper.citations).

--holdout FILE: ids (one per line, '#' comments allowed) to leave out together with
every edge touching them (citation-recovery evaluation: the held-out paper is later
queried by its title and scored on its references).

Summary on stderr: papers, papers held out, references written, edges dropped.
Standard library only.

    bench/data/aan_to_native.py > aan.jsonl
    litgraph-ingest --db aan.db aan.jsonl
"""
import argparse
import json
import os
import sys


def main():
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", default=os.path.join(repo, "..", "shared", "data"),
                    help="the shared data directory holding aan/ (default: %(default)s)")
    ap.add_argument("--holdout", help="file of paper ids to drop, with their edges")
    a = ap.parse_args()
    aan = os.path.join(a.shared, "aan")

    holdout = set()
    if a.holdout:
        with open(a.holdout, encoding="utf-8") as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    holdout.add(line)

    papers = []
    with open(os.path.join(aan, "papers.jsonl"), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                p = json.loads(line)
            except ValueError as e:
                sys.exit(f"{aan}/papers.jsonl:{n}: {e}")
            papers.append(p)
    ids = {str(p["id"]) for p in papers}
    missing_holdout = holdout - ids

    refs = {}
    dropped = {"holdout": 0, "unknown": 0, "self": 0, "duplicate": 0}
    with open(os.path.join(aan, "citations.tsv"), encoding="utf-8") as f:
        next(f, None)  # header
        for n, line in enumerate(f, 2):
            line = line.rstrip("\n")
            if not line:
                continue
            parts = line.split("\t")
            if len(parts) != 2:
                sys.exit(f"{aan}/citations.tsv:{n}: expected citing<TAB>cited")
            citing, cited = parts
            if citing in holdout or cited in holdout:
                dropped["holdout"] += 1
            elif citing not in ids or cited not in ids:
                dropped["unknown"] += 1
            elif citing == cited:
                dropped["self"] += 1
            else:
                lst = refs.setdefault(citing, {})
                if cited in lst:
                    dropped["duplicate"] += 1
                else:
                    lst[cited] = None

    out = sys.stdout
    written = edges = 0
    for p in papers:
        pid = str(p["id"])
        if pid in holdout:
            continue
        rec = {"id": pid, "title": p.get("title") or "", "authors": p.get("authors") or [],
               "venue": p.get("venue") or "", "year": p.get("year"),
               "references": list(refs.get(pid, {}))}
        if rec["year"] is None:
            del rec["year"]
        if not rec["venue"]:
            del rec["venue"]
        out.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
        written += 1
        edges += len(rec["references"])
    print(f"aan_to_native: {written} papers ({len(holdout) - len(missing_holdout)} held out"
          + (f", {len(missing_holdout)} holdout ids unknown" if missing_holdout else "")
          + f"), {edges} references; dropped edges: " +
          ", ".join(f"{k} {v}" for k, v in dropped.items()), file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.stderr.close()
