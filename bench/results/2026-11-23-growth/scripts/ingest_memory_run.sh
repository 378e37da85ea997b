#!/bin/bash
# Bounded lexical build + SQLite within the budget: peak RSS and wall clock of ingest,
# before (e33d513+1bd8c0d: in-memory lexical build) and after, on hubs and English-like corpora.
L=/work/bench-data/lx; B=$L/bin
run() { # name binary input args...
  local name=$1 bin=$2 in=$3; shift 3
  rm -rf $L/$name.db
  /usr/bin/time -f "$name %e s %M KB" $bin --db $L/$name.db -q --stats "$@" $in > $L/$name.json 2>> $L/log
  for f in lexicon postings title.lexicon title.postings; do head -c -64 $L/$name.db/graph.1/$f | sha256sum | cut -c1-16; done | tr '\n' ' ' >> $L/log; echo " $name lexical sums" >> $L/log
}
run h100k-before $B/litgraph-ingest.before /work/bench-data/ext/h100k.jsonl
run h100k-after $B/litgraph-ingest /work/bench-data/ext/h100k.jsonl
run h100k-after-256m $B/litgraph-ingest /work/bench-data/ext/h100k.jsonl --memory-budget 256M
head -100000 /work/bench-data/works-1m.jsonl > $L/w100k.jsonl
run w100k-before $B/litgraph-ingest.before $L/w100k.jsonl
run w100k-after $B/litgraph-ingest $L/w100k.jsonl
rm -rf $L/h100k-*.db $L/w100k-*.db
run hubs-1m-after $B/litgraph-ingest /work/bench-data/hubs-1m.jsonl
du -sb $L/hubs-1m-after.db >> $L/log
echo done >> $L/log
