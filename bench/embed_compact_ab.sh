#!/usr/bin/env bash
# bench/embed_compact_ab.sh WORK RECORDS N BUDGET RUN... : a compaction of `embed` within
# --memory-budget BUDGET. RUN is `label=BIN`. The first RUN's binaries build the store once:
# RECORDS' first N lines are ingested, keyworded and embedded (`embed --train --memory-budget
# BUDGET`, so the index is cut within the budget), then the rest are ingested with
# `extract-keywords --missing`. Each RUN then compacts a fresh copy of that store:
# `embed --missing --compact --memory-budget BUDGET`.
# CSV on stdout, one row per RUN and field: label, field, wall and peak RSS of the compaction,
# the base index's nodes, the HNSW nodes the budget holds, the field's segments, and
# recall@10 and p50 search time at ef 120 (`litgraph-vector-bench`, the first RUN's binary).
set -euo pipefail
work=$1; records=$2; n=$3; budget=$4; shift 4
mkdir -p "$work"
first=${1#*=}
prep=$work/prep.db
if [ ! -e "$work/prep.done" ]; then
  rm -rf "$prep"
  head -n "$n" "$records" > "$work/base.jsonl"
  tail -n +"$((n + 1))" "$records" > "$work/new.jsonl"
  "$first/litgraph-ingest" --db "$prep" -q "$work/base.jsonl"
  "$first/litgraph-extract-keywords" --db "$prep" -q
  "$first/litgraph-embed" --db "$prep" --train --memory-budget "$budget" -q
  "$first/litgraph-ingest" --db "$prep" -q "$work/new.jsonl"
  "$first/litgraph-extract-keywords" --db "$prep" --missing -q
  touch "$work/prep.done"
fi
echo "label,field,wall_s,peak_rss_mb,base_nodes,budget_nodes,segments,recall,p50_us"
for run in "$@"; do
  label=${run%%=*}; bin=${run#*=}
  db=$work/compact-$label.db
  rm -rf "$db"; cp -a "$prep" "$db"; sync
  t0=$(date +%s.%N)
  /usr/bin/time -f %M -o "$work/rss.txt" "$bin/litgraph-embed" --db "$db" --missing --compact \
    --memory-budget "$budget" --stats -q > "$work/embed-$label.json"
  t1=$(date +%s.%N)
  "$first/litgraph-vector-bench" --db "$db" --efs 120 --queries 200 --repeats 3 \
    > "$work/vb-$label.csv" 2> /dev/null
  gen=$(sqlite3 "file:$db/litgraph.sqlite?mode=ro" \
    "select value from meta where key='vectors_generation'")
  python3 - "$label" "$t0" "$t1" "$work" "$db/vectors.$gen" "$budget" <<'EOF'
import csv, json, os, re, struct, sys
label, t0, t1, work, gen, budget = sys.argv[1:]
rss = int(open(f"{work}/rss.txt").read().split()[-1]) // 1024
units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
m = re.fullmatch(r"(\d+)([KMG]?)", budget)
budget_bytes = int(m.group(1)) * units.get(m.group(2), 1)
rec = {}
for r in csv.DictReader(open(f"{work}/vb-{label}.csv")):
    if r["impl"] == "hnsw" and r["ef"] == "120" and r["workload"] == f"{r['field']}_vec":
        rec[r["field"]] = (r["recall"], r["p50_us"])
for field in ("title", "abstract", "keyword"):
    with open(f"{gen}/{field}.hnsw", "rb") as f:
        h = f.read(64)
    dim = struct.unpack_from("<I", h, 8)[0]
    M = struct.unpack_from("<I", h, 12)[0]
    indexed = struct.unpack_from("<Q", h, 56)[0]
    per_node = dim * 4 + 2 * M * 4 * 2 + M * 4 // 2 + 96
    segs = sum(1 for x in os.listdir(gen) if x.startswith(f"{field}.seg") and x.endswith(".hnsw"))
    r, us = rec.get(field, ("", ""))
    print(f"{label},{field},{float(t1) - float(t0):.1f},{rss},{indexed},"
          f"{max(budget_bytes // per_node, 16)},{segs},{r},{us}")
EOF
  rm -rf "$db"
done
