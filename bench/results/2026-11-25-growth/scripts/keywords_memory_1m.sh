#!/bin/bash
# extract-keywords (kwmem) on a 1M-work hubs store at the default budget: the corpus on which
# the in-memory build was killed at 24.3 GB (2026-11-23-growth/summary.md). The before binary
# is not run here: it would take the machine's memory again.
set -eu
K=${K:-/work/bench-data/kw}; B=$K/bin
[ -f $K/h1m.jsonl ] || $B/litgraph-gen-works --works 1000000 --profile hubs --out $K/h1m.jsonl
[ -d $K/h1m.db ] || /usr/bin/time -f "ingest %e s %M KB" -a -o $K/h1m.log \
  $B/litgraph-ingest.before --db $K/h1m.db -q $K/h1m.jsonl
/usr/bin/time -v $B/litgraph-extract-keywords --db $K/h1m.db -q --stats > $K/h1m-after-1g.json \
  2> $K/h1m-after-1g.time
printf 'after-1g %s wall, %s s CPU, %s KB\n' \
  "$(grep 'Elapsed (wall' $K/h1m-after-1g.time | awk '{print $NF}')" \
  "$(awk '/User time|System time/ {s += $NF} END {print s}' $K/h1m-after-1g.time)" \
  "$(grep 'Maximum resident' $K/h1m-after-1g.time | awk '{print $NF}')" | tee -a $K/h1m.log
cat $K/h1m-after-1g.json | tee -a $K/h1m.log
du -sb $K/h1m.db | tee -a $K/h1m.log
