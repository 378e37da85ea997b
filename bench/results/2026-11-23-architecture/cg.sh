#!/bin/bash
# Instruction counts (callgrind) of fixed queries, base vs new binaries:
# repeatable whatever else the machine runs.
DB=/work/bench-data/s1m.db
T=$(sqlite3 $DB/litgraph.sqlite "select title from paper where id=83338")
A=$(sqlite3 $DB/litgraph.sqlite "select substr(abstract,1,1500) from paper where id=83338")
for side in base new; do
  BIN=$([ $side = base ] && echo /work/base || echo /work/main/build)
  cg() { name=$1; shift; valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | grep -o "Collected : [0-9]*" | sed "s/Collected : /$side,$name,/"; }
  cg find_abstract $BIN/litgraph-find-paper --db $DB --format jsonl "$A"
  cg find_title $BIN/litgraph-find-paper --db $DB --format jsonl --title "$T"
  $BIN/litgraph-find-paper --db $DB --format jsonl --limit 60 "$T" > /tmp/seeds60.jsonl
  cg rwr_60 sh -c "$BIN/litgraph-rwr-rank --db $DB --format jsonl < /tmp/seeds60.jsonl"
  cg tri_title $BIN/litgraph-tri-search --db $DB --format jsonl "$T"
  cg tri_abstract $BIN/litgraph-tri-search --db $DB --format jsonl "$A"
  cg lineage $BIN/litgraph-lineage --db $DB --format jsonl W1000000014 W1000583359
done
