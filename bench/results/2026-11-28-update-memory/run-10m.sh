#!/bin/bash
cd /work/bench-data/cron10m
S=/work/bench-data/s10m/store-10000000-default.db
src=upsert-c10000000-g2-s1-r0.2-w100000.jsonl
python3 /work/main/bench/cron_remake.py $src upsert4.jsonl --to W1073 --date 2026-03-01 --prefix "Thrice revised "
python3 /work/main/bench/cron_remake.py $src upsert5.jsonl --to W1074 --date 2026-04-01 --prefix "Four times revised "
for pair in "binB upsert4" "binC upsert5"; do
  set -- $pair
  t0=$(date +%s.%N)
  /work/bench-data/$1/litgraph-ingest --db $S --stats -q $2.jsonl > ingest-$1.json 2> ingest-$1.err &
  sleep 0.3; p=$(pgrep -x litgraph-ingest); rm -f rss-$1.log; /tmp/sample.sh $p rss-$1.log; wait
  t1=$(date +%s.%N)
  echo "$1 wall $(python3 -c "print(round($t1-$t0,1))") peak_rss_mb $(sort -k2 -n rss-$1.log | tail -1 | awk '{print int($2/1024)}') peak_anon_mb $(sort -k3 -n rss-$1.log | tail -1 | awk '{print int($3/1024)}')" >> ab45.txt
done
echo done >> ab45.txt
