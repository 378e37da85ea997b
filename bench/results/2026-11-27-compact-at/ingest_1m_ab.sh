#!/bin/bash
# 1M ingest of one 100k round: binT (d9a2a91, schema 6 source) against binW (schema 7 source migrated beforehand), alternating, fresh copies
cd /work/bench-data
for i in 1 2; do
  for b in T W; do
    src=s1m-runs.db; [ $b = W ] && src=s1m-runs-v7.db
    rm -rf kp/ing.db; cp -a $src kp/ing.db; sync
    /usr/bin/time -f "%e s %M KB" bin$b/litgraph-ingest --db kp/ing.db --stats -q rounds/round-c1000000-g2-s1-w100000-1.jsonl > kp/ing-$b-$i.json 2> kp/ing-$b-$i.time
    echo "$b $i $(cat kp/ing-$b-$i.time) $(python3 -c "import json;d=json.load(open('kp/ing-$b-$i.json'));print(round(d['load_seconds'],2),round(d['graph_seconds'],2),round(d['seconds'],2))")"
  done
done
rm -rf kp/ing.db
