#!/bin/bash
# recall_after.sh BIN...: three cron rounds per binary (store kept), then litgraph-vector-bench (binW's):
# random papers and keywords, and the papers and keywords the rounds added
cd /work/bench-data/rounds1m
for b in "$@"; do
  python3 /work/main/bench/cron_rounds.py --bin /work/bench-data/$b --src /work/bench-data/merge1m/merged-1000000-segments.db --work /work/bench-data/rounds1m --rounds 3 --works 100000 --keep --out keep-$b.json > keep-$b.log 2>&1
  sqlite3 "file:rounds.db/litgraph.sqlite?mode=ro" "select id from paper where id > 1000000" > new-papers.txt
  sqlite3 "file:rounds.db/litgraph.sqlite?mode=ro" "select id from keyword where id > 273058" > new-kw.txt
  /work/bench-data/binW/litgraph-vector-bench --db rounds.db --efs 64,120 --queries 500 --repeats 1 > vb-rand-$b.csv 2>/dev/null
  /work/bench-data/binW/litgraph-vector-bench --db rounds.db --efs 64,120 --queries 500 --repeats 1 --papers new-papers.txt --keywords new-kw.txt > vb-new-$b.csv 2>/dev/null
  rm -rf rounds.db
done
