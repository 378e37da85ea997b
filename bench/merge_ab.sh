#!/usr/bin/env bash
# bench/merge_ab.sh BIN WORK N REPS: the shards shard1..4-N.db in WORK (kept by
# merge_bench.py --keep-merged) merged into WORK/ab-MODE.db with the shards' indexes kept as
# segments and with --fold-vectors, alternating, REPS times. CSV on stdout: mode, rep, wall
# and peak RSS, the merge's phase seconds, and its vectors, vectors_indexed,
# vectors_in_segments and vector_segments (from --stats). The last rep's stores stay.
set -euo pipefail
bin=$1; work=$2; n=$3; reps=$4
shards="$work/shard1-$n.db $work/shard2-$n.db $work/shard3-$n.db $work/shard4-$n.db"
echo "mode,rep,wall_s,peak_rss_mb,load_s,keywords_s,graph_s,vectors_s,vectors,vectors_indexed,vectors_in_segments,vector_segments"
for r in $(seq 1 $reps); do
  for mode in segments fold; do
    out=$work/ab-$mode.db; rm -rf $out
    extra=""; [ $mode = fold ] && extra=--fold-vectors
    t0=$(date +%s.%N)
    /usr/bin/time -f %M -o $work/rss.txt $bin/litgraph-merge --db $out -q --stats $extra $shards > $work/stats.json
    t1=$(date +%s.%N)
    python3 -c "
import json,sys
s=json.load(open('$work/stats.json'))
print(','.join(str(x) for x in ['$mode',$r,round($t1-$t0,1),round(int(open('$work/rss.txt').read().split()[-1])/1024),round(s['load_seconds'],1),round(s['keywords_seconds'],1),round(s['graph_seconds'],1),round(s['vectors_seconds'],1),s['vectors'],s['vectors_indexed'],s['vectors_in_segments'],s['vector_segments']]))"
    [ $r -lt $reps ] && rm -rf $out
  done
done
