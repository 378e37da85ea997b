#!/bin/bash
# mab.sh DIR N REPS: shards shard1..4-N.db in DIR merged by binL (session start) and binQ (copy), alternating
dir=$1; n=$2; reps=$3
shards="$dir/shard1-$n.db $dir/shard2-$n.db $dir/shard3-$n.db $dir/shard4-$n.db"
echo "corpus,bin,rep,wall_s,peak_rss_mb,load_s,keywords_s,graph_s,vectors_s,works,works_copied"
for r in $(seq 1 $reps); do for b in binL binQ; do
  out=/tmp/mab-out.db; rm -rf $out
  t0=$(date +%s.%N)
  /usr/bin/time -f %M -o /tmp/mab-rss /work/bench-data/$b/litgraph-merge --db $out -q --stats $shards > /tmp/mab-stats.json
  t1=$(date +%s.%N)
  python3 -c "
import json
s=json.load(open('/tmp/mab-stats.json'))
print(','.join(str(x) for x in ['$(basename $dir)','$b',$r,round($t1-$t0,2),round(int(open('/tmp/mab-rss').read().split()[-1])/1024),round(s['load_seconds'],2),round(s['keywords_seconds'],2),round(s['graph_seconds'],2),round(s['vectors_seconds'],2),s['works'],s.get('works_copied',0)]))"
  rm -rf $out
done; done
