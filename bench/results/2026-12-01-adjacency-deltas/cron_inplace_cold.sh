#!/bin/bash
# in-place 10M cron A/B: stdin lines "INPUT BIN"
db=/work/bench-data/s10m/store-10000000-default.db
cd /work/bench-data/cron10m
info() { python3 - "$(ls -d $db/graph.* | tail -1)" "$1" <<'PY'
import json,sys
raw=open(sys.argv[1]+'/MANIFEST','rb').read(); s=raw[raw.find(b'{'):].decode('utf-8','ignore')
d=json.JSONDecoder().raw_decode(s)[0]['info']
print(json.dumps({k: d.get(k) for k in sys.argv[2].split(',')}))
PY
}
while read f b; do
  sync; echo 3 > /proc/sys/vm/drop_caches; sleep 5
  t1=$( { /usr/bin/time -f "%e,%M" /work/bench-data/$b/litgraph-ingest --db $db --stats -q $f > ing-$f-$b.json; } 2>&1 | tail -1)
  gi=$(info update_seconds)
  t2=$( { /usr/bin/time -f "%e,%M" /work/bench-data/$b/litgraph-extract-keywords --db $db --missing --stats -q > kw-$f-$b.json; } 2>&1 | tail -1)
  ki=$(info keyword_update)
  echo "$f,$b,ingest,$t1,keywords,$t2 $(python3 -c "import json;j=json.load(open('ing-$f-$b.json'));print('load=%.1f graph=%.1f'%(j['load_seconds'],j['graph_seconds']))")"
  echo "  $gi"; echo "  $ki"
done
