#!/bin/bash
# The cron path of issue 13 on a store small enough to copy often: ingest INPUT, then
# extract-keywords --missing and embed --missing, with two builds alternating, each run on a
# fresh copy of SRC (never written).
#
#   bench/cron_ab.sh BEFORE_BIN AFTER_BIN SRC INPUT WORK [REPS=2]
#
# CSV on stdout: label,rep,ingest_s,ingest_kb,keywords_s,keywords_kb,embed_s,embed_kb (wall
# seconds and peak RSS from GNU time); each step's --stats JSON in WORK. For 1M-work stores
# use bench/cron_bench.py, which generates its input and measures query latency too.
# AFTER_SRC=DIR in the environment gives the after build its own copy of SRC (e.g. SRC
# migrated to a newer schema beforehand, so that the one-time migration is not timed).
set -euo pipefail
[ $# -ge 5 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
before=$1 after=$2 src=$3 input=$4 work=$5 reps=${6:-2}
mkdir -p "$work"
db=$work/run.db
echo "label,rep,ingest_s,ingest_kb,keywords_s,keywords_kb,embed_s,embed_kb"
for rep in $(seq "$reps"); do
  for label in before after; do
    if [ $label = before ]; then bin=$before; else bin=$after; fi
    from=$src; [ $label = after ] && from=${AFTER_SRC:-$src}
    rm -rf "$db"; cp -a "$from" "$db"; sync
    line="$label,$rep"
    for step in ingest keywords embed; do
      case $step in
        ingest) cmd=("$bin/litgraph-ingest" --db "$db" --stats -q "$input");;
        keywords) cmd=("$bin/litgraph-extract-keywords" --db "$db" --missing --stats -q);;
        embed) cmd=("$bin/litgraph-embed" --db "$db" --missing --stats -q);;
      esac
      t=$( { /usr/bin/time -f "%e,%M" "${cmd[@]}" > "$work/$label-$rep-$step.json"; } 2>&1 | tail -1)
      line="$line,$t"
    done
    echo "$line"
  done
done
rm -rf "$db"
