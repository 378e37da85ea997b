#!/bin/bash
# kw_ab.sh ROUNDS BIN... : extract-keywords --missing on fresh copies of ${PREKW:-prekw.db} (the 1M store
# after the cron upsert), alternating binaries; then the graph files of the two last stores compared
rounds=$1; shift
for i in $(seq 1 $rounds); do for b in "$@"; do
  ./mkexp.sh ${PREKW:-prekw.db} kw-$b.db; sync
  /usr/bin/time -f "%e %M" -o /tmp/t.txt /work/bench-data/$b/litgraph-extract-keywords --db kw-$b.db --missing --stats -q > /tmp/k.json
  python3 -c "
import json; d=json.load(open('/tmp/k.json')); t=open('/tmp/t.txt').read().split()
print('$b', $i, t[0], int(t[1])//1024, round(d['extract_seconds'],2), round(d['seconds'],2))"
  [ $i -lt $rounds ] && rm -rf kw-$b.db
done; done
