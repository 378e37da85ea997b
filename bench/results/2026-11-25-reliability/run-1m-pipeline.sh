#!/bin/bash
# 1M checksum-cost run (issue 20): generate, ingest, extract-keywords, embed, measure.
set -euo pipefail
B=/work/bench-data/ck/bin
D=/work/bench-data/ck
cd $D
[ -f works-1m.jsonl ] || $B/litgraph-gen-works --works 1000000 --out works-1m.jsonl
[ -f ingested.ok ] || { rm -rf s1m.db; /usr/bin/time -v $B/litgraph-ingest --db s1m.db -q works-1m.jsonl 2> ingest.time; touch ingested.ok; }
rm -f works-1m.jsonl
[ -f kw.ok ] || { /usr/bin/time -v $B/litgraph-extract-keywords --db s1m.db -q 2> kw.time; touch kw.ok; }
[ -f emb.ok ] || { /usr/bin/time -v $B/litgraph-embed --db s1m.db --train -q 2> embed.time; touch emb.ok; }
/usr/bin/python3 /work/main/bench/reliability/checksum_cost.py --bin $B --db s1m.db --queries 40 --repeat 3 --out $D/checksum-cost-1m.json > $D/checksum-cost-1m.txt 2>&1
echo ALLDONE
