#!/bin/sh
# embed --missing A/B on fresh copies of one store state; prints embed/index seconds
SRC=$1; shift
for rep in 1 2; do
  for b in "$@"; do
    rm -rf /work/bench-data/eab.db; cp -r $SRC /work/bench-data/eab.db; sync
    /work/bench-data/$b/litgraph-embed --db /work/bench-data/eab.db --missing --stats -q > /tmp/eab.json
    python3 -c "import json;d=json.load(open('/tmp/eab.json'));print('$b', $rep, round(d['seconds'],2), round(d['embed_seconds'],2), round(d['index_seconds'],2))"
  done
done
rm -rf /work/bench-data/eab.db
