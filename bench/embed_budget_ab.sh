#!/usr/bin/env bash
# bench/embed_budget_ab.sh WORK STORE RUN... : a full `embed --train` of fresh copies of STORE,
# one per RUN, each RUN `label=BIN[:extra embed arguments]` (e.g. `old=/b/binT`,
# `new=/b/binV`, `b32m=/b/binV:--memory-budget 32M`), in the order given. CSV on stdout: label,
# wall and peak RSS, embed and index seconds, index segments, the md5 of each field's .vec (the
# same vectors whatever the budget), then recall@10 and the search time of each field at ef 120
# (`litgraph-vector-bench --efs 120`: $VB, else the first RUN's binary), the store's bytes, the recall of
# the top 60 at ef 120 (the tools' semantic path) and the vector generation's bytes. Copies
# are removed after each run.
set -euo pipefail
work=$1; src=$2; shift 2
mkdir -p "$work"
echo "label,wall_s,peak_rss_mb,embed_s,index_s,index_segments,md5_title,md5_abstract,md5_keyword,recall_title,us_title,recall_abstract,us_abstract,recall_keyword,us_keyword,store_mb,recall60_title,recall60_abstract,vectors_mb"
vb=${VB:-}  # the vector bench: $VB, else the first RUN's
for run in "$@"; do
  label=${run%%=*}; rest=${run#*=}; bin=${rest%%:*}; extra=""
  [ "$rest" != "$bin" ] && extra=${rest#*:}
  [ -z "$vb" ] && vb=$bin/litgraph-vector-bench
  db=$work/embed-$label.db
  rm -rf "$db"; cp -a "$src" "$db"; sync
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  /usr/bin/time -f %M -o "$work/rss.txt" "$bin/litgraph-embed" --db "$db" --train --stats -q $extra \
    > "$work/embed-$label.json"
  t1=$(date +%s.%N)
  gen=$(sqlite3 "file:$db/litgraph.sqlite?mode=ro" "select value from meta where key='vectors_generation'")
  md5() { md5sum "$db/vectors.$gen/$1.vec" | cut -c1-12; }
  "$vb" --db "$db" --efs 120 --queries 200 --repeats 3 > "$work/vb-$label.csv" 2> /dev/null
  python3 - "$label" "$t0" "$t1" "$work" "$(md5 title)" "$(md5 abstract)" "$(md5 keyword)" \
    "$(du -sm "$db" | cut -f1)" "$(du -sm "$db/vectors.$gen" | cut -f1)" <<'EOF'
import csv, json, sys
label, t0, t1, work, m_t, m_a, m_k, mb, vmb = sys.argv[1:]
s = json.load(open(f"{work}/embed-{label}.json"))
rss = int(open(f"{work}/rss.txt").read().split()[-1]) // 1024
rec, rec60 = {}, {}
for r in csv.DictReader(open(f"{work}/vb-{label}.csv")):
    if r["impl"] == "hnsw" and r["ef"] == "120" and r["workload"] == f"{r['field']}_vec":
        rec[r["field"]] = (r["recall"], r["p50_us"])
    # The tools' semantic path: the top 60 at ef 120, recall of the exact top 60.
    if r["impl"] == "hnsw_top60_recall60" and r["workload"] == f"{r['field']}_vec":
        rec60[r["field"]] = r["recall"]
row = [label, round(float(t1) - float(t0), 1), rss, round(s["embed_seconds"], 1),
       round(s["index_seconds"], 1), s.get("index_segments", 0), m_t, m_a, m_k]
for f in ("title", "abstract", "keyword"):
    row += list(rec.get(f, ("", "")))
row += [mb, rec60.get("title", ""), rec60.get("abstract", ""), vmb]
print(",".join(str(x) for x in row), flush=True)
EOF
  rm -rf "$db"
done
