#!/bin/bash
# compact_ab.sh SRC WORK REPS BIN...: ingest --compact (every graph file rebuilt from SQLite) on
# hard-link copies of SRC, binaries alternating; prints label,rep,wall,graph_seconds,graph_bytes
set -e
src=$1 work=$2 reps=$3; shift 3
mkdir -p $work
for r in $(seq $reps); do for b in "$@"; do
  d=$work/run.db; rm -rf $d; python3 /work/bench-data/cron1m/mkexp.py $src $d
  s=$( { /usr/bin/time -f "%e" $b/litgraph-ingest --db $d --compact --stats -q </dev/null > $work/$(basename $b)-$r.json; } 2>&1 | tail -1)
  g=$(ls -d $d/graph.* | sort -t. -k2 -n | tail -1)
  bytes=$(du -sb --apparent-size $g | cut -f1)
  gs=$(python3 -c "import json;print(json.load(open('$work/$(basename $b)-$r.json'))['graph_seconds'])")
  echo "$(basename $b),$r,$s,$gs,$bytes"
done; done
rm -rf $work/run.db
