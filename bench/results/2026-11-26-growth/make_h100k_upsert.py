#!/usr/bin/env python3
"""The hubs-corpus update of README.md: 10k works of the 100k-work hubs corpus (the
`litgraph-gen-works` multilingual heavy-hub profile, /work/bench-data/kw/h100k.jsonl): 5k stored
works with another work's title and abstract, 5k under new ids; updated_date later than any.
Usage: make_h100k_upsert.py CORPUS.jsonl > h100k-upsert-10k.jsonl"""
import json
import random
import sys

lines = open(sys.argv[1]).readlines()
rng = random.Random(4)
for k, i in enumerate(rng.sample(range(len(lines)), 10000)):
    w, o = json.loads(lines[i]), json.loads(lines[(i * 7919 + 13) % len(lines)])
    w["title"] = w["display_name"] = o["title"]
    w["abstract_inverted_index"] = o.get("abstract_inverted_index")
    w["updated_date"] = "2099-01-01T00:00:00.000000"
    if k >= 5000:
        w["id"], w["doi"] = "https://openalex.org/W39%08d" % k, None
    print(json.dumps(w))
