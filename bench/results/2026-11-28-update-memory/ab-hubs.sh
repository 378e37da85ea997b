#!/bin/bash
# peak RSS / anonymous of an upsert (20k changed + 10k new hubs works) into the 100k hubs store
cd /work/bench-data/hubsup
if [ ! -e upsert.jsonl ]; then
  /work/pch/litgraph-gen-works --works 110000 --profile hubs 2>/dev/null | tail -n 10000 > new.jsonl
  head -n 20000 ../mergehubs/works-100000hubs.jsonl > old.jsonl
  python3 /work/main/bench/cron_remake.py old.jsonl changed.jsonl --new-prefix NONE --to NONE --date 2027-01-01 --prefix "Revised "
  cat changed.jsonl new.jsonl > upsert.jsonl; rm old.jsonl changed.jsonl new.jsonl
fi
for r in ${ROUNDS:-1 2}; do for b in ${BINS:-binB binC}; do
  rm -rf s.db; cp -a ../mergehubs/merged-100000-fold.db s.db; sync
  t0=$(date +%s.%N)
  /work/bench-data/$b/litgraph-ingest --db s.db -q upsert.jsonl &
  sleep 0.2; p=$(pgrep -x litgraph-ingest); rm -f rss.log; /tmp/sample.sh $p rss.log; wait
  t1=$(date +%s.%N)
  echo "$b round$r wall $(python3 -c "print(round($t1-$t0,1))") peak_rss_mb $(sort -k2 -n rss.log | tail -1 | awk '{print int($2/1024)}') peak_anon_mb $(sort -k3 -n rss.log | tail -1 | awk '{print int($3/1024)}')"
done; done
rm -rf s.db
