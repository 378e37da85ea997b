#!/bin/bash
# extract-keywords --missing at 10M after an upsert: binC (before) then binD (after)
cd /work/bench-data/cron10m
S=/work/bench-data/s10m/store-10000000-default.db
src=upsert-c10000000-g2-s1-r0.2-w100000.jsonl
n=5
for pair in "binC W1075 2026-05-01" "binD W1076 2026-06-01"; do
  set -- $pair
  python3 /work/main/bench/cron_remake.py $src up.jsonl --to $2 --date $3 --prefix "Revised $n times: "
  n=$((n + 1))
  /work/bench-data/binD/litgraph-ingest --db $S -q up.jsonl
  rm -f up.jsonl
  t0=$(date +%s.%N)
  /work/bench-data/$1/litgraph-extract-keywords --db $S --missing --stats -q > kw-$1.json &
  sleep 0.3; p=$(pgrep -x litgraph-extrac); rm -f rsskw-$1.log; /tmp/sample.sh $p rsskw-$1.log; wait
  t1=$(date +%s.%N)
  echo "$1 wall $(python3 -c "print(round($t1-$t0,1))") peak_rss_mb $(sort -k2 -n rsskw-$1.log | tail -1 | awk '{print int($2/1024)}') peak_anon_mb $(sort -k3 -n rsskw-$1.log | tail -1 | awk '{print int($3/1024)}')" >> kwab-10m.txt
done
echo done >> kwab-10m.txt
