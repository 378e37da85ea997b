#!/bin/bash
# shards_ab.sh INPUT WORK REPS BIN_BUILD BIN...: 4 shards of INPUT (consecutive quarters) built by
# BIN_BUILD (keywords and vectors from the first shard's statistics and model), then merged by
# each BIN in turn, REPS times; CSV bin,rep,wall_s,rss_kb,load_s,graph_s,works_from_kept_runs
set -e
in=$1 work=$2 reps=$3 bb=$4; shift 4
mkdir -p $work; n=$(wc -l < $in); q=$(( (n + 3) / 4 ))
split -l $q -d -a 1 $in $work/part
for i in 0 1 2 3; do
  d=$work/shard$i.db; rm -rf $d
  $bb/litgraph-ingest --db $d -q $work/part$i
  if [ $i = 0 ]; then $bb/litgraph-extract-keywords --db $d -q; $bb/litgraph-embed --db $d -q
  else $bb/litgraph-extract-keywords --db $d -q --stats-from $work/shard0.db; $bb/litgraph-embed --db $d -q --model-from $work/shard0.db; fi
done
echo "bin,rep,wall_s,rss_kb,load_s,graph_s,works_from_kept_runs"
for r in $(seq $reps); do for b in "$@"; do
  o=$work/merged-$(basename $b).db; rm -rf $o
  t=$( { /usr/bin/time -f "%e,%M" $b/litgraph-merge --db $o -q --stats $work/shard{0,1,2,3}.db > $work/m-$(basename $b)-$r.json; } 2>&1 | tail -1)
  echo "$(basename $b),$r,$t,$(python3 -c "import json;d=json.load(open('$work/m-$(basename $b)-$r.json'));print(round(d['load_seconds'],2),round(d['graph_seconds'],2),d.get('works_from_kept_runs',''),sep=',')")"
done; done
