#!/bin/bash
# ingab.sh REP: one 100k-work update (50k new, 50k changed) into copies of the 1M store whose
# graph was written under the old rule (k100) and the halving rule (k50), same binary.
in=/work/bench-data/rounds/round-c1000000-g2-s1-w100000-1.jsonl
for k in $( [ $(( $1 % 2 )) = 1 ] && echo "k100 k50" || echo "k50 k100" ); do
  d=/work/bench-data/zk/cp-$k; rm -rf $d; mkdir -p $d
  cp stores/$k/litgraph.sqlite $d/; cp -r stores/$k/graph.5 $d/; ln -s /work/bench-data/s1m-runs-v7.db/vectors.1 $d/vectors.1; ln -s /work/bench-data/s1m-runs-v7.db/keywords.1 $d/keywords.1
  sync; sleep 2
  /usr/bin/time -f "$k %e s %U u %S sys %M KB" /work/pch/litgraph-ingest --db $d --stats -q --compact-at 100 $in > ingab-$k-$1.json 2> ingab-$k-$1.time
  echo "$(tail -1 ingab-$k-$1.time) $(python3 -c "import json;d=json.load(open('ingab-$k-$1.json'));print('load',round(d['load_seconds'],1),'graph',round(d['graph_seconds'],1),'total',round(d['seconds'],1))")"
  rm -rf $d
done
