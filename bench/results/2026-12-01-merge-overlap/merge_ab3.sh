#!/bin/bash
# merge the 4 1M shards with each binary, alternating (shards read into the page cache first):
# binary,rep,wall_s,peak_rss_kb,user_s,sys_s,steal_s + the phases of --stats
cd /work/bench-data/merge1m
for r in ${REPS:-1 2}; do for b in ${BINS:-bin7 bin8}; do
  rm -rf /work/bench-data/m.db; sync; find shard*-1000000.db -type f -exec cat {} + > /dev/null; sleep 2
  s0=$(awk '/^cpu /{print $9}' /proc/stat)
  t=$( { /usr/bin/time -f "%e,%M,%U,%S" /work/bench-data/$b/litgraph-merge --db /work/bench-data/m.db -q --stats ${FLAGS} shard1-1000000.db shard2-1000000.db shard3-1000000.db shard4-1000000.db > /work/bench-data/merge-$b-$r.json; } 2>&1 | tail -1)
  s1=$(awk '/^cpu /{print $9}' /proc/stat)
  echo "$b,$r,$t,$(( (s1-s0)/100 )),$(python3 -c "import json;j=json.load(open('/work/bench-data/merge-$b-$r.json'));print('load=%.1f kw=%.1f graph=%.1f vec=%.1f total=%.1f'%(j['load_seconds'],j['keywords_seconds'],j['graph_seconds'],j['vectors_seconds'],j['seconds']))")"
done; done
rm -rf /work/bench-data/m.db
