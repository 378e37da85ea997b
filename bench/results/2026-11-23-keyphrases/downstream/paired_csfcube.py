#!/usr/bin/python3
"""Paired sign-flip randomization test between two csfcube.py --per-query runs (their stderr).
Usage: paired_csfcube.py RUN_NAME A.log B.log   (10,000 flips, seed 1, two-sided;
p = (1 + #{|mean flipped| >= |mean observed|}) / (1 + flips), as bench/eval/inspec.py compare)"""
import random
import re
import sys


def load(path, run):
    out = {}
    pat = re.compile(rf"# {re.escape(run)} (\S+) pool=\d+ ndcg%20=(\S+) ndcg@20=(\S+) map=(\S+) rprec=(\S+)")
    for line in open(path):
        m = pat.match(line)
        if m:
            out[m.group(1)] = [float(x) for x in m.groups()[1:]]
    return out


run, a_path, b_path = sys.argv[1:4]
a, b = load(a_path, run), load(b_path, run)
q = sorted(set(a) & set(b))
print(f"A = {a_path}\nB = {b_path}\n{run}: paired sign-flip randomization test, 10000 flips, "
      "two-sided (per-query values as logged, 3 decimals)")
print(f"{'metric':10} {'queries':>7} {'A':>7} {'B':>7} {'B-A':>8} {'B>A':>4} {'B<A':>4}  p")
rng = random.Random(1)
for i, name in enumerate(["ndcg%20", "ndcg@20", "map", "rprec"]):
    d = [b[k][i] - a[k][i] for k in q]
    obs = abs(sum(d) / len(d))
    hits = sum(1 for _ in range(10000)
               if abs(sum(x if rng.random() < 0.5 else -x for x in d) / len(d)) >= obs - 1e-12)
    print(f"{name:10} {len(q):7d} {sum(a[k][i] for k in q) / len(q):7.4f} "
          f"{sum(b[k][i] for k in q) / len(q):7.4f} {sum(d) / len(d):+8.4f} "
          f"{sum(x > 0 for x in d):4d} {sum(x < 0 for x in d):4d}  {(1 + hits) / 10001:.3g}")
