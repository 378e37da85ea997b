#!/bin/bash
# The cron path on the 100k hubs store: 10k works (5k changed, 5k new); before (bin3) and
# after (pch), alternating, each run on a fresh copy.
set -euo pipefail
cd /work/bench-data/hubs
for rep in 1 2; do
  for label in before after; do
    if [ $label = before ]; then B=/work/bin3; else B=/work/pch; fi
    rm -rf run.db; cp -a h100k.db run.db; sync
    line="$label,$rep"
    for step in ingest keywords embed; do
      case $step in
        ingest) cmd=($B/litgraph-ingest --db run.db --stats -q h100k-upsert-10k.jsonl);;
        keywords) cmd=($B/litgraph-extract-keywords --db run.db --missing --stats -q);;
        embed) cmd=($B/litgraph-embed --db run.db --missing --stats -q);;
      esac
      t=$( { /usr/bin/time -f "%e %M" "${cmd[@]}" > ab2-$label-$rep-$step.json; } 2>&1 | tail -1)
      line="$line,$step,$t"
    done
    echo "$line"
  done
done
