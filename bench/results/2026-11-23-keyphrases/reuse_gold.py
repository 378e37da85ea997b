#!/usr/bin/python3
"""shared_share of Inspec's own gold keyphrases: the share of (paper, gold keyphrase) links whose
keyphrase is a gold keyphrase of >= 2 papers of the same split (exact lowercase text, and after
Porter stemming as kp_eval.py matches). A reference for the extractor's shared_share on Inspec.
Usage: reuse_gold.py [../shared/data/inspec-dev]"""
import collections
import json
import os
import sys

from nltk.stem.porter import PorterStemmer

data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "shared", "data", "inspec-dev")
ps = PorterStemmer()
forms = {"exact": lambda k: " ".join(k.lower().split()),
         "stemmed": lambda k: " ".join(ps.stem(w) for w in k.lower().split())}
for name, splits in (("train", ["train"]), ("dev", ["dev"]), ("train+dev", ["train", "dev"])):
    gold = {}
    for s in splits:
        with open(os.path.join(data, f"{s}.gold.json")) as f:
            gold.update(json.load(f))
    for form, fn in forms.items():
        df, links = collections.Counter(), []
        for ks in gold.values():
            kws = {fn(k) for k in ks}
            df.update(kws)
            links += kws
        share = sum(1 for k in links if df[k] >= 2) / len(links)
        print(f"{name},{form},docs={len(gold)},links={len(links)},shared_share={share:.3f}")
