#!/bin/bash
# bench/rounds_recall.sh SRC WORK WORKS PROFILE RECENT VB BIN... : for each BIN, three cron rounds
# of WORKS works on a copy of store SRC (bench/cron_rounds.py --keep, generator profile PROFILE,
# new works from the most recent RECENT share), then litgraph-vector-bench (binary VB) on the
# result: random papers and keywords into WORK/vb-rand-BIN.csv, and the papers and keywords the
# rounds added into WORK/vb-new-BIN.csv (recall@10 against exact search at ef 64 and 120).
set -euo pipefail
[ $# -ge 7 ] || { sed -n '2,6p' "$0" >&2; exit 2; }
src=$1 work=$2 works=$3 profile=$4 recent=$5 vb=$6; shift 6
here=$(cd "$(dirname "$0")" && pwd)
max() { sqlite3 "file:$1/litgraph.sqlite?mode=ro" "SELECT max(id) FROM $2"; }
pmax=$(max "$src" paper) kmax=$(max "$src" keyword)
mkdir -p "$work"
for bin in "$@"; do
  b=$(basename "$bin")
  python3 "$here/cron_rounds.py" --bin "$bin" --src "$src" --work "$work" --rounds 3 \
    --works "$works" --recent "$recent" --profile "$profile" --keep \
    --out "$work/keep-$b.json" > "$work/keep-$b.log" 2>&1
  db=$work/rounds.db
  sqlite3 "file:$db/litgraph.sqlite?mode=ro" "SELECT id FROM paper WHERE id > $pmax" > "$work/new-papers.txt"
  sqlite3 "file:$db/litgraph.sqlite?mode=ro" "SELECT id FROM keyword WHERE id > $kmax" > "$work/new-kw.txt"
  "$vb" --db "$db" --efs 64,120 --queries 500 --repeats 1 > "$work/vb-rand-$b.csv" 2>/dev/null
  "$vb" --db "$db" --efs 64,120 --queries 500 --repeats 1 --papers "$work/new-papers.txt" \
    --keywords "$work/new-kw.txt" > "$work/vb-new-$b.csv" 2>/dev/null
  rm -rf "$db"
done
