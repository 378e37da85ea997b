#!/bin/bash
# merge the 4 1M shards with each binary, alternating; label,rep,wall,rss_kb + the --stats json
cd /work/bench-data/merge1m
for r in 1 2; do for b in ${BINS:-binJ binK}; do
  rm -rf /work/bench-data/gate/m.db
  t=$( { /usr/bin/time -f "%e,%M" /work/bench-data/$b/litgraph-merge --db /work/bench-data/gate/m.db -q --stats shard1-1000000.db shard2-1000000.db shard3-1000000.db shard4-1000000.db > /work/bench-data/gate/merge-$b-$r.json; } 2>&1 | tail -1)
  echo "$b,$r,$t"
done; done
rm -rf /work/bench-data/gate/m.db
