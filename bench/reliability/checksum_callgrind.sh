#!/bin/bash
# Instruction counts (callgrind) of fixed queries with checked-file page
# verification on and off (LITGRAPH_VERIFY_PAGES=0, for this measurement
# only): what the checks cost, whatever else the machine runs. Each query is
# a fresh process, so every page it touches is verified once.
#   checksum_callgrind.sh BUILD_DIR STORE [ROW_ID]   -> CSV: query,on,off,change_pct
set -euo pipefail
BIN=$1; DB=$2; ROW=${3:-83}
T=$(sqlite3 "$DB/litgraph.sqlite" "select title from paper where id=$ROW")
A=$(sqlite3 "$DB/litgraph.sqlite" "select substr(abstract,1,1500) from paper where id=$ROW")
ID=$(sqlite3 "$DB/litgraph.sqlite" "select ext_id from paper where id=$ROW")
SEEDS=$(mktemp)
"$BIN/litgraph-find-paper" --db "$DB" --format jsonl --limit 60 "$T" > "$SEEDS"
count() {  # count VERIFY cmd...
  local v=$1; shift
  LITGRAPH_VERIFY_PAGES=$v valgrind --tool=callgrind --trace-children=yes \
    --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | grep -o "Collected : [0-9]*" |
    sed "s/Collected : //" | python3 -c "import sys; print(sum(int(x) for x in sys.stdin))"
}
row() {  # row NAME cmd...
  local name=$1; shift
  local on off
  on=$(count 1 "$@"); off=$(count 0 "$@")
  echo "$name,$on,$off,$(python3 -c "print(round(($on / $off - 1) * 100, 2))")"
}
echo "query,instructions_verify_on,instructions_verify_off,change_pct"
row find_abstract "$BIN/litgraph-find-paper" --db "$DB" --format jsonl "$A"
row find_title "$BIN/litgraph-find-paper" --db "$DB" --format jsonl --title "$T"
row cited_by "$BIN/litgraph-paper" --db "$DB" --format jsonl --cited-by "$ID"
row rwr_60_seeds sh -c "'$BIN/litgraph-rwr-rank' --db '$DB' --format jsonl < '$SEEDS'"
row lineage_tree "$BIN/litgraph-lineage" --db "$DB" --format jsonl --descendants "$ID"
if [ "$(sqlite3 "$DB/litgraph.sqlite" "select value from meta where key='vectors_generation'")" != "" ]; then
  row find_semantic "$BIN/litgraph-find-paper" --db "$DB" --format jsonl --semantic "$T"
  row tri_title "$BIN/litgraph-tri-search" --db "$DB" --format jsonl "$T"
  row tri_abstract "$BIN/litgraph-tri-search" --db "$DB" --format jsonl "$A"
fi
rm -f "$SEEDS"
