#!/bin/sh
# ingest --compact (no input: the graph rebuilt in full) on fresh copies; wall s and peak RSS
SRC=$1; shift
for rep in 1 2; do
  for b in "$@"; do
    rm -rf /work/bench-data/cab.db; cp -r $SRC /work/bench-data/cab.db; sync
    /usr/bin/time -f "%e %M" -o /tmp/cab.time /work/bench-data/$b/litgraph-ingest --db /work/bench-data/cab.db --compact --stats -q > /tmp/cab.json
    echo "$b $rep $(cat /tmp/cab.time) $(python3 -c "import json;d=json.load(open('/tmp/cab.json'));print(round(d['graph_seconds'],2))")"
    md5sum /work/bench-data/cab.db/graph.*/lexicon /work/bench-data/cab.db/graph.*/postings | awk '{print $1}' | tr '\n' ' '; echo
  done
done
rm -rf /work/bench-data/cab.db
