#!/bin/bash
# recall_hubs.sh BIN...: three cron rounds of 20k hubs works per binary (store kept), then
# litgraph-vector-bench (binZ's): random papers and keywords, and those the rounds added
cd /work/bench-data/roundshubs
for b in "$@"; do
  python3 /work/main/bench/cron_rounds.py --bin /work/bench-data/$b --src /work/bench-data/mergehubs/merged-100000-fold.db --work /work/bench-data/roundshubs --rounds 3 --works 20000 --recent 0.5 --profile hubs --keep --out keep-$b.json > keep-$b.log 2>&1
  sqlite3 "file:rounds.db/litgraph.sqlite?mode=ro" "select id from paper where id > 100000" > new-papers.txt
  sqlite3 "file:rounds.db/litgraph.sqlite?mode=ro" "select id from keyword where id > 487417" > new-kw.txt
  /work/bench-data/binZ/litgraph-vector-bench --db rounds.db --efs 64,120 --queries 500 --repeats 1 > vb-rand-$b.csv 2>/dev/null
  /work/bench-data/binZ/litgraph-vector-bench --db rounds.db --efs 64,120 --queries 500 --repeats 1 --papers new-papers.txt --keywords new-kw.txt > vb-new-$b.csv 2>/dev/null
  rm -rf rounds.db
done
