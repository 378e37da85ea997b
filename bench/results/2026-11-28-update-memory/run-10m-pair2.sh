#!/bin/bash
# ingest at 10M, before (binB) then fixed (binE), back to back, in place
cd /work/bench-data/cron10m
S=/work/bench-data/s10m/store-10000000-default.db
python3 /work/main/bench/cron_remake.py upsert-c10000000-g2-s1-r0.2-w100000.jsonl up11.jsonl --to W1080 --date 2026-10-01 --prefix "Revised 11 times: "
python3 /work/main/bench/cron_remake.py upsert-c10000000-g2-s1-r0.2-w100000.jsonl up12.jsonl --to W1081 --date 2026-11-01 --prefix "Revised 12 times: "
for pair in "binF up11" "binB up12"; do
  set -- $pair
  t0=$(date +%s.%N)
  /work/bench-data/$1/litgraph-ingest --db $S --stats -q $2.jsonl > ingest-$1-c.json 2> ingest-$1-c.err &
  sleep 0.3; p=$(pgrep -x litgraph-ingest); rm -f rss-$1-c.log; /tmp/sample.sh $p rss-$1-c.log; wait
  t1=$(date +%s.%N)
  echo "$1 pair wall $(python3 -c "print(round($t1-$t0,1))") peak_rss_mb $(sort -k2 -n rss-$1-c.log | tail -1 | awk '{print int($2/1024)}') peak_anon_mb $(sort -k3 -n rss-$1-c.log | tail -1 | awk '{print int($3/1024)}')" >> ab45.txt
  rm -f $2.jsonl
done
echo done1112 >> ab45.txt
