#!/bin/bash
# 1M update benchmark with the incremental graph update (new binaries in bin/).
set -euo pipefail
cd /work/bench-data/up
U=/work/bench-data/cron/1m/upsert-c1000000-g2-s1-r0.2-w50000.jsonl
rm -rf s1m-a.db; cp -a /work/bench-data/ck/s1m.db s1m-a.db; sync
: > empty.jsonl
uptime > load-before.txt
/usr/bin/time -f '%e %M %U %S' -o full.time bin/litgraph-ingest --db s1m-a.db --stats -q empty.jsonl > full.json 2> full.err || true
sqlite3 s1m-a.db/litgraph.sqlite "select value from meta where key='graph_info'" > full.info
uptime > load-mid.txt
/usr/bin/time -f '%e %M %U %S' -o up50k.time bin/litgraph-ingest --db s1m-a.db --stats -q $U > up50k.json 2> up50k.err
sqlite3 s1m-a.db/litgraph.sqlite "select value from meta where key='graph_info'" > up50k.info
/usr/bin/time -f '%e %M %U %S' -o kw50k.time bin/litgraph-extract-keywords --db s1m-a.db --missing --stats -q > kw50k.json 2> kw50k.err
/usr/bin/time -f '%e %M %U %S' -o emb50k.time bin/litgraph-embed --db s1m-a.db --missing --stats -q > emb50k.json 2> emb50k.err
uptime > load-after.txt
echo ALLDONE
