#!/usr/bin/env python3
"""CSFCube development fold: lexical levers tried offline on a replica of the built-in model.

The built-in model scores a query against a paper by (1 - w) LSA cosine + w TF-IDF cosine
(embed.h; w = 0.8, 128 dimensions, sublinear tf, idf ln((N+1)/(df+1)) + 1). This script
rebuilds that similarity in Python over the same texts (title + abstract sentences; NLTK's
Snowball stemmer and scikit-learn's English stopwords stand in for lexical.h's analysis) and
re-ranks each query's judged pool as bench/eval/csfcube.py does, so that levers on the text
representation can be screened in seconds before any is built in C++. The replica is checked
against the shipped tool: its `shipped` variant must land near csfcube.py's
`find-paper --semantic` (0.5755-0.5808 NDCG%20 in the committed runs).

Variants (each a scoring of (query paper, candidate)):
  tfidf            TF-IDF cosine alone (sublinear tf, idf^1)
  shipped          0.2 LSA(128) + 0.8 TF-IDF: the built-in model's similarity
  idf^P            TF-IDF cosine with idf raised to P (0, 0.25, 0.5, 0.75, 1.5)
  tf=bin|sqrt      binary or square-root tf instead of 1 + ln tf
  bm25idf          BM25's idf ln(1 + (N - df + 0.5) / (df + 0.5)) in place of the smoothed one
  shipped_idf0.5   the shipped blend with idf^0.5 in its lexical part
  sent_maxsim      mean over query sentences of the best TF-IDF cosine with a candidate
                   sentence (a lexical analogue of Aspire's sentence matching), and its
                   blends with the whole-text cosine (0.3, 0.5, 0.7)
  rocchio_K_B      pseudo-relevance feedback: the query plus B times the mean of the pool's
                   top K by TF-IDF cosine
  cluster_G        a candidate's score plus G times its mean similarity to the top 10 weighted
                   by their scores (cluster hypothesis re-rank inside the pool)
  bigram_W         (1 - W) unigram cosine + W cosine over adjacent-stem bigrams of df >= 2
Every variant is paired with `shipped` (and `tfidf`) by the randomization test of
bench/eval/aan_map.py (sign flips, 10,000 rounds, two-sided p) over the 24 query facets.

Needs python3-numpy, python3-scipy, python3-sklearn, python3-nltk (Debian).
Usage: csfcube_lexical.py [--shared ../shared/data/csfcube-dev] [--variants a,b,...]
         [--per-query FILE]
CSV on stdout: variant, ndcg%20, map, then (difference, p) of each metric against shipped
and against tfidf
"""
import argparse
import collections
import csv
import json
import math
import os
import re
import sys

import numpy as np
import scipy.sparse as sp
from nltk.stem.snowball import SnowballStemmer
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS
from sklearn.utils.extmath import randomized_svd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from aan_map import randomization_p  # noqa: E402
from csfcube import average_precision, ndcg  # noqa: E402


class Collection:
    def __init__(self, shared):
        self.papers = {}
        for line in open(os.path.join(shared, "papers.jsonl")):
            p = json.loads(line)
            self.papers[p["paper_id"]] = p
        self.queries = [json.loads(line) for line in open(os.path.join(shared, "queries.jsonl"))]
        self.qrels = collections.defaultdict(dict)
        with open(os.path.join(shared, "qrels.tsv")) as f:
            next(f)
            for line in f:
                q, facet, p, r = line.rstrip("\n").split("\t")
                self.qrels[(q, facet)][p] = int(r)
        stem, memo = SnowballStemmer("english"), {}

        def toks(text):
            out = []
            for w in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", text.lower()):
                for x in w.split("-"):
                    if len(x) < 2 or x in ENGLISH_STOP_WORDS:
                        continue
                    if x not in memo:
                        memo[x] = stem.stem(x)
                    out.append(memo[x])
            return out

        self.ids = list(self.papers)
        self.sents = {i: [toks(s) for s in [p["title"]] + [x["text"] for x in p["abstract_sentences"]]]
                      for i, p in self.papers.items()}
        self.toks = {i: [t for s in ss for t in s] for i, ss in self.sents.items()}
        self.df = collections.Counter()
        for i in self.ids:
            self.df.update(set(self.toks[i]))
        self.n = len(self.ids)

    def idf(self, t, kind="smooth"):
        d = self.df.get(t, 0)
        if kind == "bm25":
            return math.log(1 + (self.n - d + 0.5) / (d + 0.5))
        return math.log((self.n + 1) / (d + 1)) + 1

    def vec(self, tokens, power=1.0, tf="log", idf_kind="smooth", df=None, n=None):
        c = collections.Counter(tokens)
        f = {"log": lambda k: 1 + math.log(k), "bin": lambda k: 1.0, "sqrt": math.sqrt}[tf]
        if df is None:
            v = {t: f(k) * self.idf(t, idf_kind) ** power for t, k in c.items()}
        else:
            v = {t: f(k) * (math.log((n + 1) / (df[t] + 1)) + 1) ** power for t, k in c.items()}
        z = math.sqrt(sum(x * x for x in v.values())) or 1.0
        return {t: x / z for t, x in v.items()}

    def lsa(self, vecs, dim=128):
        vocab = {t: j for j, t in enumerate(sorted(t for t, d in self.df.items() if d >= 2))}
        rows, cols, vals = [], [], []
        for r, i in enumerate(self.ids):
            for t, x in vecs[i].items():
                if t in vocab:
                    rows.append(r), cols.append(vocab[t]), vals.append(x)
        m = sp.csr_matrix((vals, (rows, cols)), shape=(self.n, len(vocab)))
        _, _, vt = randomized_svd(m, dim, n_iter=4, random_state=1)
        e = m @ vt.T
        e /= np.linalg.norm(e, axis=1, keepdims=True) + 1e-12
        return {i: e[r] for r, i in enumerate(self.ids)}

    def evaluate(self, score):
        out = {}
        for q in self.queries:
            key = (q["query_paper_id"], q["facet"])
            pool = self.qrels[key]
            ranked = sorted(pool, key=lambda c: (-score(key, c), c))
            rel = [pool[c] for c in ranked]
            out[f"{key[0]}/{key[1]}"] = (ndcg(rel, int(0.2 * len(pool))),
                                         average_precision([r >= 2 for r in rel]))
        return out


def cos(a, b):
    if len(a) > len(b):
        a, b = b, a
    return sum(x * b.get(t, 0.0) for t, x in a.items())


def variants(c):
    """name -> score(key, candidate), built lazily."""
    tfidf = {i: c.vec(c.toks[i]) for i in c.ids}
    lsa = c.lsa(tfidf)
    out = {
        "tfidf": lambda k, d: cos(tfidf[k[0]], tfidf[d]),
        "shipped": lambda k, d: 0.2 * float(lsa[k[0]] @ lsa[d]) + 0.8 * cos(tfidf[k[0]], tfidf[d]),
    }

    def weighted(**kw):
        w = {i: c.vec(c.toks[i], **kw) for i in c.ids}
        return lambda k, d: cos(w[k[0]], w[d])

    for p in (0.0, 0.25, 0.5, 0.75, 1.5):
        out[f"idf^{p}"] = (lambda p: lambda: weighted(power=p))(p)
    out["tf=bin"] = lambda: weighted(tf="bin")
    out["tf=sqrt"] = lambda: weighted(tf="sqrt")
    out["bm25idf"] = lambda: weighted(idf_kind="bm25")

    def shipped_half():
        w = {i: c.vec(c.toks[i], power=0.5) for i in c.ids}
        return lambda k, d: 0.2 * float(lsa[k[0]] @ lsa[d]) + 0.8 * cos(w[k[0]], w[d])

    out["shipped_idf0.5"] = shipped_half
    sv = {i: [c.vec(s) for s in ss if s] for i, ss in c.sents.items()}

    def maxsim(k, d):
        m = [max(cos(a, b) for b in sv[d]) for a in sv[k[0]]]
        return sum(m) / len(m)

    out["sent_maxsim"] = lambda k, d: maxsim(k, d)
    for lam in (0.3, 0.5, 0.7):
        out[f"sent_maxsim_{lam}"] = (lambda lam: lambda k, d: (1 - lam) * cos(tfidf[k[0]], tfidf[d])
                                     + lam * maxsim(k, d))(lam)
    pools = {(q["query_paper_id"], q["facet"]): list(c.qrels[(q["query_paper_id"], q["facet"])])
             for q in c.queries}

    def rocchio(top_k, beta):
        new = {}
        for key, pool in pools.items():
            qv = tfidf[key[0]]
            top = sorted(pool, key=lambda d: -cos(qv, tfidf[d]))[:top_k]
            v = collections.Counter(qv)
            for d in top:
                for t, x in tfidf[d].items():
                    v[t] += beta * x / top_k
            z = math.sqrt(sum(x * x for x in v.values()))
            new[key] = {t: x / z for t, x in v.items()}
        return lambda k, d: cos(new[k], tfidf[d])

    for kk, b in ((3, 0.3), (5, 0.3), (5, 0.6), (10, 0.3)):
        out[f"rocchio_{kk}_{b}"] = (lambda kk, b: lambda: rocchio(kk, b))(kk, b)

    def cluster(gamma):
        sc = {}
        for key, pool in pools.items():
            s = {d: cos(tfidf[key[0]], tfidf[d]) for d in pool}
            top = sorted(pool, key=lambda d: -s[d])[:10]
            for d in pool:
                sc[(key, d)] = s[d] + gamma * sum(s[t] * cos(tfidf[d], tfidf[t])
                                                  for t in top if t != d) / 10
        return lambda k, d: sc[(k, d)]

    for g in (0.1, 0.3, 0.5):
        out[f"cluster_{g}"] = (lambda g: lambda: cluster(g))(g)

    def bigram(w):
        big = {i: [a + "_" + b for s in c.sents[i] for a, b in zip(s, s[1:])] for i in c.ids}
        bdf = collections.Counter()
        for i in c.ids:
            bdf.update(set(big[i]))
        bv = {i: c.vec([b for b in big[i] if bdf[b] >= 2], df=bdf, n=c.n) for i in c.ids}
        return lambda k, d: (1 - w) * cos(tfidf[k[0]], tfidf[d]) + w * cos(bv[k[0]], bv[d])

    for w in (0.2, 0.35, 0.5):
        out[f"bigram_{w}"] = (lambda w: lambda: bigram(w))(w)
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.join(here, "../../../shared/data/csfcube-dev"))
    ap.add_argument("--variants", default="")
    ap.add_argument("--per-query", default="")
    a = ap.parse_args()
    if not os.path.exists(os.path.join(a.shared, "qrels.tsv")):
        sys.exit(f"csfcube_lexical.py: no CSFCube development fold at {a.shared}")
    c = Collection(a.shared)
    vs = variants(c)
    names = a.variants.split(",") if a.variants else list(vs)
    results = {}
    for name in ["shipped", "tfidf"] + [n for n in names if n not in ("shipped", "tfidf")]:
        fn = vs[name]
        if fn.__code__.co_argcount == 0:  # built on first use
            fn = fn()
        results[name] = c.evaluate(fn)
    w = csv.writer(sys.stdout)
    w.writerow(["variant", "ndcg%20", "map"] + [f"diff_{m}_vs_{b},p" for b in ("shipped", "tfidf")
                                               for m in ("ndcg", "map")])
    qs = sorted(results["shipped"])
    for name, r in results.items():
        row = [name]
        for m in (0, 1):
            row.append(f"{np.mean([r[q][m] for q in qs]):.4f}")
        for base in (results["shipped"], results["tfidf"]):
            for m in (0, 1):
                diffs = [r[q][m] - base[q][m] for q in qs]
                row += [f"{np.mean(diffs):+.4f}", f"{randomization_p(diffs):.4f}"]
        w.writerow(row)
        sys.stdout.flush()
    if a.per_query:
        with open(a.per_query, "w") as f:
            pw = csv.writer(f)
            pw.writerow(["run", "query", "ndcg%20", "map"])
            for name, r in results.items():
                for q in qs:
                    pw.writerow([name, q, f"{r[q][0]:.6f}", f"{r[q][1]:.6f}"])


if __name__ == "__main__":
    main()
