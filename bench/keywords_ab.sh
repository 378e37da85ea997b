#!/bin/bash
# A full extract-keywords (phrase statistics recounted, every paper extracted, the keyword
# layer rebuilt; default --threads) with two builds alternating, each run on a fresh copy of
# each store (never written). The keywords written are compared: an md5 of paper_keyword.
#
#   bench/keywords_ab.sh BEFORE_BIN AFTER_BIN WORK REPS STORE...
#
# BIN: a build directory holding litgraph-extract-keywords. STORE: NAME=DIR. CSV on stdout:
# store,label,rep,wall_s,user_s,sys_s,maxrss_kb,extract_seconds,papers,keywords_md5.
set -euo pipefail
[ $# -ge 5 ] || { sed -n '2,9p' "$0" >&2; exit 2; }
before=$1 after=$2 work=$3 reps=$4
shift 4
mkdir -p "$work"
db=$work/run.db
echo "store,label,rep,wall_s,user_s,sys_s,maxrss_kb,extract_seconds,papers,keywords_md5"
for rep in $(seq "$reps"); do
  for store in "$@"; do
    name=${store%%=*} src=${store#*=}
    for label in before after; do
      if [ $label = before ]; then bin=$before; else bin=$after; fi
      rm -rf "$db"; cp -a "$src" "$db"; sync
      /usr/bin/time -f "%e,%U,%S,%M" -o "$work/time" \
        "$bin/litgraph-extract-keywords" --db "$db" --stats -q > "$work/$name-$label-$rep.json"
      stats=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["extract_seconds"], d["papers"], sep=",")' "$work/$name-$label-$rep.json")
      md5=$(sqlite3 "$db/litgraph.sqlite" "SELECT paper_id, keyword_id, score FROM paper_keyword ORDER BY 1, 2" | md5sum | cut -c1-12)
      echo "$name,$label,$rep,$(cat "$work/time"),$stats,$md5"
    done
  done
done
rm -rf "$db"
