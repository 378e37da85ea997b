#!/bin/bash
# merge the 4 1M shards with each binary, alternating: label,rep,wall,rss_kb + phases
cd /work/bench-data/merge1m
for r in ${REPS:-1 2}; do for b in ${BINS:-bin7 bin8}; do
  rm -rf /work/bench-data/m.db; sync; find shard*-1000000.db -type f -exec cat {} + > /dev/null; sleep 2
  t=$( { /usr/bin/time -f "%e,%M" /work/bench-data/$b/litgraph-merge --db /work/bench-data/m.db -q --stats ${FLAGS} shard1-1000000.db shard2-1000000.db shard3-1000000.db shard4-1000000.db > /work/bench-data/merge-$b-$r.json; } 2>&1 | grep -v "^T" | tail -1)
  echo "$b,$r,$t,$(python3 -c "import json;j=json.load(open('/work/bench-data/merge-$b-$r.json'));print('load=%.1f kw=%.1f graph=%.1f vec=%.1f total=%.1f'%(j['load_seconds'],j['keywords_seconds'],j['graph_seconds'],j['vectors_seconds'],j['seconds']))")"
done; done
rm -rf /work/bench-data/m.db
