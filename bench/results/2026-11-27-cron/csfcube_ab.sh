#!/bin/bash
# The cron path on the CSFCube development store (real data): 420 works into 4,205, 5 runs per
# binary alternating, each on a fresh copy; wall seconds per step (GNU time).
set -euo pipefail
cd /work/bench-data/csf
for rep in 1 2 3 4 5; do
  for label in before after; do
    if [ $label = before ]; then B=/work/bin3; else B=/work/pch; fi
    rm -rf run.db; cp -a csf-v6.db run.db; sync
    i=$( { /usr/bin/time -f %e $B/litgraph-ingest --db run.db -q csf-upsert.jsonl; } 2>&1 )
    k=$( { /usr/bin/time -f %e $B/litgraph-extract-keywords --db run.db --missing -q; } 2>&1 )
    e=$( { /usr/bin/time -f %e $B/litgraph-embed --db run.db --missing -q; } 2>&1 )
    echo "$label,$rep,$i,$k,$e"
  done
done
