#!/bin/bash
# ingest at 10M after the mallctl fix (binE), in place
cd /work/bench-data/cron10m
S=/work/bench-data/s10m/store-10000000-default.db
python3 /work/main/bench/cron_remake.py upsert-c10000000-g2-s1-r0.2-w100000.jsonl up8.jsonl --to W1077 --date 2026-07-01 --prefix "Revised 8 times: "
t0=$(date +%s.%N)
/work/bench-data/binE/litgraph-ingest --db $S --stats -q up8.jsonl > ingest-binE.json 2> ingest-binE.err &
sleep 0.3; p=$(pgrep -x litgraph-ingest); rm -f rss-binE.log; /tmp/sample.sh $p rss-binE.log; wait
t1=$(date +%s.%N)
echo "binE wall $(python3 -c "print(round($t1-$t0,1))") peak_rss_mb $(sort -k2 -n rss-binE.log | tail -1 | awk '{print int($2/1024)}') peak_anon_mb $(sort -k3 -n rss-binE.log | tail -1 | awk '{print int($3/1024)}')" >> ab45.txt
rm -f up8.jsonl
echo done8 >> ab45.txt
