#!/bin/bash
# embed_ab.sh ROUNDS BIN... : embed --missing on fresh copies of prepped.db, alternating binaries.
# VB=1: litgraph-vector-bench (binW's) on each result: random queries into vb-BIN-ROUND.csv,
# the keywords the update added (new-keywords.txt) into vbk-BIN-ROUND.csv
rounds=$1; shift
for i in $(seq 1 $rounds); do for b in "$@"; do
  ./mkexp.sh prepped.db exp.db; sync
  /usr/bin/time -f "%e %M" -o /tmp/t.txt /work/bench-data/$b/litgraph-embed --db exp.db --missing --stats -q > /tmp/e.json
  cp /tmp/e.json embed-$b-$i.json
  python3 -c "
import json,sys; d=json.load(open('/tmp/e.json')); t=open('/tmp/t.txt').read().split()
print('$b', $i, t[0], int(t[1])//1024, round(d['embed_seconds'],2), round(d['index_seconds'],2), d['keywords'], d['compacted'], d['index_segments'])"
  if [ "${VB:-0}" = 1 ]; then
    /work/bench-data/binW/litgraph-vector-bench --db exp.db --efs 64,120 --queries 300 --repeats 1 > vb-$b-$i.csv 2>/dev/null
    /work/bench-data/binW/litgraph-vector-bench --db exp.db --efs 64,120 --queries 300 --repeats 1 --sets keyword_vec --keywords new-keywords.txt > vbk-$b-$i.csv 2>/dev/null
  fi
done; done
rm -rf exp.db
