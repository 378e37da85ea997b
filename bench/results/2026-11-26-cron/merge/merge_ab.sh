#!/bin/bash
# Merge of 4 shards against one ingest, on corpora merge_bench.py does not make: the 100k
# hubs corpus (litgraph-gen-works --profile hubs) and the CSFCube development papers (real
# data). Before = bin0 (dab5f32, FTS5), after = bin3 (2f37080). Shards are consecutive
# quarters of the records file, ingested one after another; wall seconds by GNU time; the
# merge's own summary (--stats) gives its load seconds. CSV: corpus,bin,rep,step,wall_s,extra
set -euo pipefail
cd /work/bench-data/mx
echo "corpus,binary,rep,step,wall_s,load_seconds"
for corpus in hubs:/work/bench-data/hubs/h100k.jsonl csfcube:/work/bench-data/csf/csfcube.jsonl; do
  name=${corpus%%:*}; file=${corpus#*:}
  n=$(wc -l < "$file")
  for i in 0 1 2 3; do
    sed -n "$((n * i / 4 + 1)),$((n * (i + 1) / 4))p" "$file" > $name-part$i.jsonl
  done
  reps=1; [ $name = csfcube ] && reps=3
  for rep in $(seq $reps); do
    for label in before after; do
      B=/work/bin0; [ $label = after ] && B=/work/bin3
      rm -rf s?.db merged.db single.db
      for i in 0 1 2 3; do $B/litgraph-ingest --db s$i.db -q $name-part$i.jsonl; done
      t0=$(date +%s.%N)
      $B/litgraph-merge --db merged.db --stats -q s0.db s1.db s2.db s3.db > merge.json
      t1=$(date +%s.%N)
      echo "$name,$label,$rep,merge,$(echo "$t1 - $t0" | bc),$(python3 -c "import json; print(json.load(open('merge.json')).get('load_seconds'))")"
      t0=$(date +%s.%N)
      $B/litgraph-ingest --db single.db --stats -q "$file" > ingest.json
      t1=$(date +%s.%N)
      echo "$name,$label,$rep,ingest,$(echo "$t1 - $t0" | bc),$(python3 -c "import json; print(json.load(open('ingest.json')).get('load_seconds'))")"
      a=$(sqlite3 merged.db/litgraph.sqlite "select count(*) from paper"); b=$(sqlite3 single.db/litgraph.sqlite "select count(*) from paper")
      [ "$a" = "$b" ] || { echo "papers differ: $a vs $b" >&2; exit 1; }
    done
  done
done
