#!/usr/bin/env python3
"""Paired tests across like_eval.py output files: runs measured in separate invocations.

like_eval.py tests the pairs of one invocation; runs split over several invocations (two
processes at a time) are paired here from their per-query CSVs with the same randomization test
(aan_map.randomization_p: sign flips, 10,000 rounds, two-sided p). A run name may be prefixed
with its file's tag (TAG:RUN) when two files hold runs of the same name.

Usage: paired_runs.py --per-query A-per-query.csv [B-per-query.csv ...] \
           --pairs 'new=base,...' [--facet background|method|result] [--out FILE]
CSV on stdout: new,base,metric,queries,mean_new,mean_base,mean_diff,p
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from aan_map import randomization_p  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-query", nargs="+", required=True)
    ap.add_argument("--pairs", required=True)
    ap.add_argument("--facet", default="", help="csfcube: only queries of this facet")
    ap.add_argument("--out", default="")
    a = ap.parse_args()
    rows, metrics = {}, None
    for path in a.per_query:
        tag = os.path.basename(path).replace("-per-query.csv", "")
        with open(path) as f:
            r = csv.reader(f)
            header = next(r)
            metrics = metrics or header[2:]
            for line in r:
                run, q, vals = line[0], line[1], [float(x) for x in line[2:]]
                if a.facet and not q.endswith("/" + a.facet):
                    continue
                for name in (run, f"{tag}:{run}"):
                    rows.setdefault(name, {})[q] = dict(zip(header[2:], vals))
    out = [["new", "base", "metric", "queries", "mean_new", "mean_base", "mean_diff", "p"]]
    for pair in filter(None, a.pairs.split(",")):
        new, base = pair.split("=")
        if new not in rows or base not in rows:
            print(f"# {pair}: run missing", file=sys.stderr)
            continue
        qs = [q for q in rows[new] if q in rows[base]]
        for m in metrics:
            d = [rows[new][q][m] - rows[base][q][m] for q in qs]
            mn = sum(rows[new][q][m] for q in qs) / len(qs)
            mb = sum(rows[base][q][m] for q in qs) / len(qs)
            out.append([new, base, m, len(qs), f"{mn:.4f}", f"{mb:.4f}",
                        f"{sum(d) / len(d):+.4f}", f"{randomization_p(d):.4f}"])
    csv.writer(sys.stdout).writerows(out)
    if a.out:
        with open(a.out, "w") as f:
            csv.writer(f).writerows(out)


if __name__ == "__main__":
    sys.exit(main())
