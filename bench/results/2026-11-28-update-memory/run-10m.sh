#!/bin/bash
# run-10m.sh BIN:ID:DATE:PREFIX... : 100k upserts into the 10M store in place, one after another,
# each made fresh from the applied cron upsert by bench/cron_remake.py (new works' ids from ID,
# changed works' updated_date DATE and title prefix PREFIX), and ingested by BIN's
# litgraph-ingest with its smaps_rollup sampled (sample.sh). One line a run on stdout:
# label wall peak_rss_mb peak_anon_mb. The runs of runs.txt, in order:
#   binB:W1073:2026-03-01:'Thrice revised ' binC:W1074:2026-04-01:'Four times revised '
#   binE:W1077:2026-07-01:'Revised 8 times: '
#   binB:W1078:2026-08-01:'Revised 9 times: ' binE:W1079:2026-09-01:'Revised 10 times: '
#   binF:W1080:2026-10-01:'Revised 11 times: ' binB:W1081:2026-11-01:'Revised 12 times: '
here=$(cd "$(dirname "$0")" && pwd)
cd /work/bench-data/cron10m
S=/work/bench-data/s10m/store-10000000-default.db
for run in "$@"; do
  IFS=: read -r bin id date prefix <<< "$run"
  python3 /work/main/bench/cron_remake.py upsert-c10000000-g2-s1-r0.2-w100000.jsonl up.jsonl \
    --to "$id" --date "$date" --prefix "$prefix"
  t0=$(date +%s.%N)
  /work/bench-data/$bin/litgraph-ingest --db $S --stats -q up.jsonl > ingest-$bin.json 2> ingest-$bin.err &
  sleep 0.3; p=$(pgrep -x litgraph-ingest); rm -f rss-$bin.log; "$here/sample.sh" $p rss-$bin.log; wait
  t1=$(date +%s.%N)
  echo "$bin wall $(python3 -c "print(round($t1-$t0,1))") peak_rss_mb $(sort -k2 -n rss-$bin.log | tail -1 | awk '{print int($2/1024)}') peak_anon_mb $(sort -k3 -n rss-$bin.log | tail -1 | awk '{print int($3/1024)}')"
  rm -f up.jsonl
done
