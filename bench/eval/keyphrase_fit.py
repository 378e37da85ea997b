#!/usr/bin/python3
"""Fits the weights of the built-in keyword extractor (lib/src/keywords.cc) on Inspec train.

  keyphrase_fit.py --bin BUILD [--data ../shared/data/inspec-dev] [--write lib/src/keywords.cc]

The features come from the C++ extractor itself (BUILD/litgraph-keyphrase-features, built
with -DLITGRAPH_BUILD_BENCH=ON), so there is one implementation of them. A candidate is
positive when it matches one of the paper's gold keyphrases under kp_eval.py's matching
(Porter-stemmed words, hyphenated words whole). Two models are fitted by L2-regularized
logistic regression (Newton's method on standardized features): one with the corpus
statistics of a store made of the 1,000 training papers, one without statistics (filter
mode without a store, stores under 50 papers).

Only the training split is used. Before the final fit, a 2-fold cross-validation over the
training papers (fixed split) reports macro F1@5/@10 of the whole extractor (the selection
rules of KeywordExtractor::Extract included, with up to 20 keywords), so that changes can be
judged without looking at the validation split. --write replaces the generated block of
keywords.cc (between "BEGIN GENERATED WEIGHTS" and "END GENERATED WEIGHTS").

--sweep-reuse 0,0.5,1 --shared-corpus RECORDS.jsonl...: for each value of the reusability prior
(kReuseWeight, a logit bonus per unit of ln df for multi-word phrases; not fitted, as Inspec's
labels are indifferent to it), the cross-validated Inspec F1 and, on each further corpus, the
share of keyword links (at most 8 a paper, the default) whose keyword is chosen for >= 2 papers
(shared_share of keywords_eval.py), with the corpus model fitted on all of train.

Needs /usr/bin/python3 with nltk and numpy (Debian: python3-nltk pulls python3-numpy).
"""
import argparse
import json
import math
import os
import random
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DATA = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "data", "inspec-dev"))

# Constants of lib/src/keywords.cc that the selection simulation needs.
REUSE_WEIGHT_RE = re.compile(r"constexpr double kReuseWeight = ([0-9.]+);")


def load_features(binary, records, stats):
    cmd = [binary, records] + ([] if stats else ["--no-stats"])
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout.splitlines()
    head = json.loads(out[0])
    docs = [json.loads(line) for line in out[1:]]
    return head["features"], docs


def fit(X, y, l2, iters=100):
    mu = X[:, 1:].mean(0)
    sd = X[:, 1:].std(0)
    sd[sd < 1e-9] = 1.0
    Z = X.copy()
    Z[:, 1:] = (X[:, 1:] - mu) / sd
    w = np.zeros(X.shape[1])
    reg = l2 * np.eye(len(w))
    reg[0, 0] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(Z @ w)))
        g = Z.T @ (p - y) / len(y) + reg @ w
        H = (Z * (p * (1 - p))[:, None]).T @ Z / len(y) + reg + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(H, g)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    raw = w.copy()
    raw[1:] = w[1:] / sd
    raw[0] = w[0] - (w[1:] * mu / sd).sum()
    return raw


def contains_words(big, small):
    return len(big) > len(small) and f" {small} " in f" {big} "


def select(cands, logits, whole, max_kw=20, min_kw=3, keep_ratio=0.3):
    """KeywordExtractor::Extract's selection."""
    order = sorted(range(len(cands)), key=lambda i: (-logits[i], cands[i]))
    out = []
    if not order:
        return out
    best = 1 / (1 + math.exp(-logits[order[0]]))
    for i in order:
        if len(out) >= max_kw:
            break
        if not whole[i] and any(contains_words(o, cands[i]) for o in out):
            continue
        p = 1 / (1 + math.exp(-logits[i]))
        if len(out) >= min_kw and p < keep_ratio * best:
            break
        out.append(cands[i])
    return out


def macro_f1(preds, gold, kp, k):
    total = 0.0
    for did, items in gold.items():
        gs, seen = [], set()
        for it in items:
            t = kp.tokens(it, "hyphen")
            if t and t not in seen:
                seen.add(t)
                gs.append({t})
        pl, ps = [], set()
        for t in preds.get(did, []):
            st = kp.tokens(t, "hyphen")
            if st and st not in ps:
                ps.add(st)
                pl.append(st)
        total += kp.score_doc(pl, gs, k)["F1"]
    return 100 * total / max(1, len(gold))


def matrices(docs, gold, kp):
    X, y, doc_of = [], [], []
    for d in docs:
        gs = {kp.tokens(g, "hyphen") for g in gold.get(d["id"], [])}
        for text, _, f in d["candidates"]:
            X.append(f)
            y.append(1.0 if kp.tokens(text, "hyphen") in gs else 0.0)
            doc_of.append(d["id"])
    return np.array(X, dtype=np.float64), np.array(y), doc_of


def cross_validate(names, docs, gold, kp, l2, reuse):
    ids = sorted(d["id"] for d in docs)
    random.Random(20261123).shuffle(ids)
    folds = [set(ids[: len(ids) // 2]), set(ids[len(ids) // 2:])]
    X, y, doc_of = matrices(docs, gold, kp)
    whole_i, logdf_i = names.index("whole"), names.index("log_df")
    res = []
    for fold in folds:
        train = np.array([d not in fold for d in doc_of])
        w = fit(X[train], y[train], l2)
        preds = {}
        for d in docs:
            if d["id"] not in fold:
                continue
            F = np.array([c[2] for c in d["candidates"]], dtype=np.float64).reshape(-1, len(names))
            logits = F @ w + reuse * F[:, logdf_i] if len(F) else []
            preds[d["id"]] = select([c[0] for c in d["candidates"]], list(logits),
                                    [c[2][whole_i] > 0 for c in d["candidates"]])
        g = {k: v for k, v in gold.items() if k in fold}
        res.append((macro_f1(preds, g, kp, 5), macro_f1(preds, g, kp, 10)))
    return np.mean(res, axis=0)


def shared_share(docs, names, w, reuse):
    whole_i, logdf_i = names.index("whole"), names.index("log_df")
    links, users = [], {}
    for d in docs:
        F = np.array([c[2] for c in d["candidates"]], dtype=np.float64).reshape(-1, len(names))
        logits = list(F @ w + reuse * F[:, logdf_i]) if len(F) else []
        kws = select([c[0] for c in d["candidates"]], logits,
                     [c[2][whole_i] > 0 for c in d["candidates"]], max_kw=8)
        links.append(kws)
        for k in kws:
            users[k] = users.get(k, 0) + 1
    total = sum(len(k) for k in links)
    return sum(1 for ks in links for k in ks if users[k] >= 2) / max(1, total)


def sweep(a, binary, records, gold, kp):
    names, docs = load_features(binary, records, True)
    X, y, _ = matrices(docs, gold, kp)
    w = fit(X, y, a.l2)
    others = [(os.path.basename(p), load_features(binary, p, True)[1]) for p in a.shared_corpus]
    for reuse in (float(x) for x in a.sweep_reuse.split(",")):
        f5, f10 = cross_validate(names, docs, gold, kp, a.l2, reuse)
        shares = " ".join(f"{n} {shared_share(d, names, w, reuse):.3f}" for n, d in others)
        print(f"reuse {reuse:g}: Inspec train CV F1@5 {f5:.2f} F1@10 {f10:.2f}; shared_share {shares}")
    return 0


def cpp_array(name, w):
    vals = [f"{v:.6g}" for v in w]
    lines, cur = [], "   "
    for v in vals:
        if len(cur) + len(v) + 2 > 98:
            lines.append(cur)
            cur = "   "
        cur += f" {v},"
    lines.append(cur)
    return f"constexpr double {name}[kNumFeatures] = {{\n" + "\n".join(lines) + "\n};"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--l2", type=float, default=1e-3)
    ap.add_argument("--write", help="keywords.cc to update in place")
    ap.add_argument("--sweep-reuse", help="comma-separated reusability weights to compare")
    ap.add_argument("--shared-corpus", nargs="*", default=[], help="records.jsonl for shared_share")
    a = ap.parse_args()
    sys.path.insert(0, a.data)
    import kp_eval as kp  # noqa: E402  (the scorer's own tokenization and stemming)

    records = os.path.join(a.data, "train.records.jsonl")
    with open(os.path.join(a.data, "train.gold.json")) as f:
        gold = json.load(f)
    binary = os.path.join(a.bin, "litgraph-keyphrase-features")
    src = a.write or os.path.join(HERE, "..", "..", "lib", "src", "keywords.cc")
    with open(src) as f:
        reuse = float(REUSE_WEIGHT_RE.search(f.read()).group(1))
    if a.sweep_reuse:
        return sweep(a, binary, records, gold, kp)
    blocks = []
    for stats, cname in ((True, "kCorpusWeights"), (False, "kTextWeights")):
        names, docs = load_features(binary, records, stats)
        f5, f10 = cross_validate(names, docs, gold, kp, a.l2, reuse if stats else 0.0)
        X, y, _ = matrices(docs, gold, kp)
        w = fit(X, y, a.l2)
        print(f"{cname}: {len(docs)} papers, {len(y)} candidates ({int(y.sum())} gold), "
              f"2-fold CV on train: macro F1@5 {f5:.2f} F1@10 {f10:.2f}", file=sys.stderr)
        blocks.append(cpp_array(cname, w))
    block = "\n".join(blocks)
    if a.write:
        with open(a.write) as f:
            s = f.read()
        b = s.index("// BEGIN GENERATED WEIGHTS\n") + len("// BEGIN GENERATED WEIGHTS\n")
        e = s.index("// END GENERATED WEIGHTS")
        with open(a.write, "w") as f:
            f.write(s[:b] + block + "\n" + s[e:])
    else:
        print(block)
    return 0


if __name__ == "__main__":
    sys.exit(main())
