#!/bin/bash
# The cron path on the CSFCube development store (real data): 420 works, 5 runs per binary,
# each on a fresh copy; wall seconds per step (GNU time).
set -euo pipefail
for rep in 1 2 3 4 5; do
  for label in before after; do
    if [ $label = before ]; then B=/work/bin0; src=csf.db; else B=/work/bin3; src=csf-v6.db; fi
    rm -rf run.db; cp -a $src run.db
    i=$( { /usr/bin/time -f %e $B/litgraph-ingest --db run.db -q csf-upsert.jsonl; } 2>&1 )
    k=$( { /usr/bin/time -f %e $B/litgraph-extract-keywords --db run.db --missing -q; } 2>&1 )
    e=$( { /usr/bin/time -f %e $B/litgraph-embed --db run.db --missing -q; } 2>&1 )
    echo "$label,$rep,$i,$k,$e"
  done
done
