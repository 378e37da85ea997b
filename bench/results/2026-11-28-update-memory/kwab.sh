#!/bin/bash
# kwab.sh: extract-keywords --missing after the 100k upsert into 1M, peak RSS / anonymous per binary
cd /work/bench-data/ht
for b in "$@"; do
  rm -rf s.db; cp -a ${STORE:-../merge1m/merged-1000000-segments.db} s.db; sync
  /work/bench-data/binC/litgraph-ingest --db s.db -q ${UPSERT:-/work/bench-data/cron1m/upsert-c1000000-g2-s1-r0.2-w100000.jsonl}
  t0=$(date +%s.%N)
  /work/bench-data/$b/litgraph-extract-keywords --db s.db --missing --stats -q > kw-$b.json &
  sleep 0.3; p=$(pgrep -x litgraph-extrac); rm -f rsskw-$b.log; /tmp/sample.sh $p rsskw-$b.log; wait
  t1=$(date +%s.%N)
  echo "$b wall $(python3 -c "print(round($t1-$t0,1))") peak_rss_mb $(sort -k2 -n rsskw-$b.log | tail -1 | awk '{print int($2/1024)}') peak_anon_mb $(sort -k3 -n rsskw-$b.log | tail -1 | awk '{print int($3/1024)}')"
done
rm -rf s.db
