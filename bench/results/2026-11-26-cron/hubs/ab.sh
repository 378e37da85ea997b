#!/bin/bash
# The cron path on the 100k hubs store: 10k works (5k changed, 5k new), before and after.
set -euo pipefail
cd /work/bench-data/hubs
run() {  # run LABEL BIN DB
  local label=$1 B=$2 db=$3
  for step in ingest keywords embed; do
    case $step in
      ingest) cmd=($B/litgraph-ingest --db $db --stats -q h100k-upsert-10k.jsonl);;
      keywords) cmd=($B/litgraph-extract-keywords --db $db --missing --stats -q);;
      embed) cmd=($B/litgraph-embed --db $db --missing --stats -q);;
    esac
    echo "$label $step load $(cut -d' ' -f1-3 /proc/loadavg)"
    /usr/bin/time -f "$label $step wall %e s cpu %U+%S rss %M KB" "${cmd[@]}" > $label-$step.json 2> $label-$step.time
    tail -1 $label-$step.time
    sqlite3 $db/litgraph.sqlite "select value from meta where key='graph_info'" > $label-$step.graph_info.json
  done
}
rm -rf hb.db ha.db; cp -a h100k.db hb.db; cp -a h100k.db ha.db; sync
run before /work/bin0 hb.db
/usr/bin/time -f "migrate wall %e s" /work/bin3/litgraph-ingest --db ha.db -q /tmp/empty.jsonl
run after /work/bin3 ha.db
echo done
