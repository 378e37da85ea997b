#!/usr/bin/env python3
"""The real-data update of README.md: 420 works into the CSFCube development store (4,205
papers of ../shared/data/csfcube-dev with their abstracts, built by bench/eval/csfcube.py):
210 stored papers with another paper's title and abstract, 210 new ids.
Usage: make_csfcube_upsert.py STORE > csf-upsert.jsonl"""
import json
import random
import sqlite3
import sys

con = sqlite3.connect(f"file:{sys.argv[1]}/litgraph.sqlite?mode=ro", uri=True)
rows = con.execute("select ext_id, title, abstract, year from paper").fetchall()
rng = random.Random(4)
for k, i in enumerate(rng.sample(range(len(rows)), 420)):
    ext, _, _, year = rows[i]
    other = rows[(i * 7919 + 13) % len(rows)]
    print(json.dumps({"id": ext if k < 210 else "CSFNEW%d" % k, "title": other[1],
                      "abstract": other[2], "year": year, "updated_date": "2099-01-01"}))
