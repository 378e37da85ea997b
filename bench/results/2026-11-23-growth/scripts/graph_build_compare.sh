#!/bin/bash
# Bounded-memory graph build: files identical to the in-memory build (payloads: every byte but the 64-byte footer)
# usage: compare.sh CORPUS.jsonl NAME
set -e
C=$1; N=$2; W=/work/bench-data/ext
OLD=/work/wt-kw/build; NEW=/work/bench-data/ext/bin
for side in old new new8m; do
  rm -rf $W/$N-$side.db
  BIN=$([ $side = old ] && echo $OLD || echo $NEW)
  B=$([ $side = new8m ] && echo "--memory-budget 8M" || echo "")
  /usr/bin/time -f "$side ingest %e s %M KB" $BIN/litgraph-ingest --db $W/$N-$side.db -q $B $C
  /usr/bin/time -f "$side keywords %e s %M KB" $BIN/litgraph-extract-keywords --db $W/$N-$side.db -q $B
done
for side in old new new8m; do
  g=$(ls -d $W/$N-$side.db/graph.* | tail -1)
  (cd $g && for f in $(ls | grep -v -e PIN -e MANIFEST | sort); do s=$(stat -c %s $f); echo "$f $(head -c $((s-64)) $f | md5sum | cut -c1-16)"; done) > $W/$N-$side.sums
done
diff $W/$N-old.sums $W/$N-new.sums && echo "$N: new == old"
diff $W/$N-old.sums $W/$N-new8m.sums && echo "$N: new8m == old"
wc -l < $W/$N-old.sums
