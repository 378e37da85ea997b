#!/usr/bin/env bash
# Export throughput and peak RSS on a synthetic store.
#   run.sh BUILD WORKS   (e.g. run.sh build 100000)
# Generates WORKS synthetic OpenAlex works (litgraph-gen-works), ingests them into a fresh
# store under $TMPDIR, then times each export form once with /usr/bin/time -v. Prints CSV:
# workload,seconds,peak_rss_kb,nodes,edges,bytes
set -euo pipefail
BUILD=${1:-build}
WORKS=${2:-100000}
TMP=${TMPDIR:-/tmp}/litgraph-export-bench
rm -rf "$TMP" && mkdir -p "$TMP"
DB=$TMP/store.db
"$BUILD/litgraph-gen-works" --works "$WORKS" > "$TMP/works.jsonl"
"$BUILD/litgraph-ingest" --db "$DB" -q "$TMP/works.jsonl"
"$BUILD/litgraph-extract-keywords" --db "$DB" -q
rm -f "$TMP/works.jsonl"
measure() {  # measure NAME OUTPUT_PATH CMD...
  local name=$1 out=$2
  shift 2
  /usr/bin/time -v "$@" > "$TMP/$name.stdout" 2> "$TMP/$name.time"
  local secs rss summary nodes edges bytes
  secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0;
         for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$TMP/$name.time")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/$name.time")
  summary=$(grep -h '"type":' "$TMP/$name.stdout" | tail -1 || true)
  nodes=$(python3 -c 'import json,sys; r=json.loads(sys.argv[1] or "{}"); print(r.get("total_nodes", r.get("rows", "")))' "$summary")
  edges=$(python3 -c 'import json,sys; r=json.loads(sys.argv[1] or "{}"); print(r.get("total_edges", r.get("in_store", "")))' "$summary")
  bytes=$(du -sb "$out" | cut -f1)
  echo "$name,$secs,$rss,$nodes,$edges,$bytes"
}
echo "workload,seconds,peak_rss_kb,nodes,edges,bytes"
measure graphml "$TMP/store.graphml" "$BUILD/litgraph-export" --db "$DB" -q --out "$TMP/store.graphml"
measure neo4j "$TMP/neo4j" "$BUILD/litgraph-export" --db "$DB" -q --format neo4j --out "$TMP/neo4j"
measure graphml_cites "$TMP/cites.graphml" "$BUILD/litgraph-export" --db "$DB" -q --relations CITES --out "$TMP/cites.graphml"
measure sql "$DB/litgraph.sqlite" "$BUILD/litgraph-export" --db "$DB" -q --sql
