#!/bin/bash
set -e
cd /work/bench-data/tie
for lab in float half; do
  bin=/work/bench-data/bin0; [ $lab = half ] && bin=/work/main/build
  rm -rf $lab.db; cp -a /work/bench-data/ab/s250k-hubs.db $lab.db
  $bin/litgraph-embed --db $lab.db --train --stats -q > embed-$lab.json
  for eps in 1e-6 1e-4 1e-3; do
    /work/main/build/litgraph-vector-bench --db $lab.db --efs 120 --queries 200 --repeats 1 --tie-eps $eps > vb-$lab-$eps.csv 2>/dev/null
  done
done
touch done
