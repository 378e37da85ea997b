#!/bin/bash
# kwab.sh SRC REPS: full extract-keywords on fresh copies of SRC by binO (schema 7) and binP (schema 8), alternating
src=$1; reps=$2
for r in $(seq 1 $reps); do for b in binO binP; do
  rm -rf /tmp/kw.db; cp -a $src /tmp/kw.db; sync
  t0=$(date +%s.%N)
  /work/bench-data/$b/litgraph-extract-keywords --db /tmp/kw.db -q --stats > /tmp/kw.json
  t1=$(date +%s.%N)
  python3 -c "
import json; s=json.load(open('/tmp/kw.json'))
print('$(basename $(dirname $src))', '$b', $r, round($t1-$t0,2), round(s.get('extract_seconds',0),2), s.get('paper_keywords', s.get('links','')))"
done; done; rm -rf /tmp/kw.db
