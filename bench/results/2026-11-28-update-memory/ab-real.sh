#!/bin/bash
# ab.sh STORE RECORDS N BIN...: an upsert of RECORDS' first N records, retitled (cron_remake.py),
# into a fresh copy of STORE by each BIN's ingest, then extract-keywords --missing by the same
# BIN; peak RSS of each (smaps_rollup every 0.1 s).
store=$1; records=$2; n=$3; shift 3
head -n "$n" "$records" | python3 /work/main/bench/cron_remake.py /dev/stdin up.jsonl --new-prefix NONE --to NONE --date 2099-01-01 --prefix "Revised "
peak() { sort -k2 -n $1 | tail -1 | awk '{print int($2/1024)}'; }
for b in "$@"; do
  rm -rf s.db; cp -a "$store" s.db; sync
  t0=$(date +%s.%N)
  /work/bench-data/$b/litgraph-ingest --db s.db -q up.jsonl &
  sleep 0.05; p=$(pgrep -x litgraph-ingest); rm -f r1.log; while kill -0 $p 2>/dev/null; do awk -v t=0 '/^Rss:/{r=$2} /^Anonymous:/{a=$2} END{print t, r, a}' /proc/$p/smaps_rollup >> r1.log 2>/dev/null; sleep 0.1; done; wait
  t1=$(date +%s.%N)
  /work/bench-data/$b/litgraph-extract-keywords --db s.db --missing -q &
  sleep 0.05; p=$(pgrep -x litgraph-extrac); rm -f r2.log; while kill -0 $p 2>/dev/null; do awk -v t=0 '/^Rss:/{r=$2} /^Anonymous:/{a=$2} END{print t, r, a}' /proc/$p/smaps_rollup >> r2.log 2>/dev/null; sleep 0.1; done; wait
  t2=$(date +%s.%N)
  echo "$b ingest $(python3 -c "print(round($t1-$t0,1))") s $(peak r1.log) MB; keywords $(python3 -c "print(round($t2-$t1,1))") s $(peak r2.log) MB"
done
rm -rf s.db
