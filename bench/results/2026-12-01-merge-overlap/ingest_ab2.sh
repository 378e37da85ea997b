#!/bin/bash
# bulk ingest of one 250k-work slice into an empty store, alternating binaries:
# binary,rep,wall_s,peak_rss_kb,user_s,sys_s,load_s,graph_s
in=/work/bench-data/merge1m/works-1000000-part2.jsonl
cat $in > /dev/null
for r in ${REPS:-1 2 3}; do for b in ${BINS:-bin8 bin9}; do
  rm -rf /work/bench-data/i.db; sync; sleep 2
  t=$( { /usr/bin/time -f "%e,%M,%U,%S" /work/bench-data/$b/litgraph-ingest --db /work/bench-data/i.db --stats -q $in > /work/bench-data/ingest-$b-$r.json; } 2>&1 | tail -1)
  echo "$b,$r,$t,$(python3 -c "import json;j=json.load(open('/work/bench-data/ingest-$b-$r.json'));print('%.1f,%.1f'%(j['load_seconds'],j['graph_seconds']))")"
done; done
rm -rf /work/bench-data/i.db
