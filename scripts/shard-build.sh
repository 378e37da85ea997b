#!/usr/bin/env bash
# Builds one shard of a sharded build (doc/sharded-build.md): the input files
# of one slice of a corpus (an OpenAlex snapshot partition directory such as
# data/works/updated_date=2024-01-15, or files) into the store
# SHARDS/<name>.db, with the keyword phrase statistics and embedding model of
# the store SAMPLE, so that every shard agrees with the others and
# `litgraph merge` can combine them.
#
#   scripts/shard-build.sh SAMPLE SHARDS INPUT...
#
# INPUT is a directory (its *.gz and *.jsonl files, sorted) or files; the
# shard is named after the first INPUT (updated_date=2024-01-15.db), or
# LITGRAPH_SHARD_NAME when set. The
# store is built under SHARDS/<name>.db.tmp and renamed when complete, so a
# killed job leaves no shard that looks finished: run it again (GNU parallel
# --resume-failed, a Slurm requeue) and it starts over. A finished shard is
# left alone. Set LITGRAPH_BIN to the directory of the litgraph executables
# when they are not on PATH, and LITGRAPH_SHARD_OPTS to add options (such as
# --memory-budget 2G) to ingest and extract-keywords, and LITGRAPH_SHARD_EMBED_OPTS
# to embed's (--no-index: the shard skips its HNSW indexes, and the merge
# inserts its vectors on the merge machine instead of keeping the shard's
# indexes as segments of the merged store).
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 SAMPLE SHARDS INPUT..." >&2
  exit 2
fi
sample=$1 shards=$2
shift 2
bin=${LITGRAPH_BIN:+$LITGRAPH_BIN/}
name=${LITGRAPH_SHARD_NAME:-$(basename "$1")}
name=${name%.gz}
name=${name%.jsonl}
out="$shards/$name.db"
if [ -d "$out" ]; then
  echo "$out: already built" >&2
  exit 0
fi
files=()
for input in "$@"; do
  if [ -d "$input" ]; then
    while IFS= read -r f; do files+=("$f"); done < <(find "$input" -maxdepth 1 -type f \
      \( -name '*.gz' -o -name '*.jsonl' -o -name '*.json' \) | sort)
  else
    files+=("$input")
  fi
done
mkdir -p "$shards"
rm -rf "$out.tmp"
# shellcheck disable=SC2086  # LITGRAPH_SHARD_OPTS is a list of options
"${bin}litgraph-ingest" --db "$out.tmp" -q ${LITGRAPH_SHARD_OPTS:-} "${files[@]}"
# shellcheck disable=SC2086
"${bin}litgraph-extract-keywords" --db "$out.tmp" -q ${LITGRAPH_SHARD_OPTS:-} --stats-from "$sample"
# shellcheck disable=SC2086
"${bin}litgraph-embed" --db "$out.tmp" -q --model-from "$sample" ${LITGRAPH_SHARD_EMBED_OPTS:-}
mv "$out.tmp" "$out"
echo "$out: built from ${#files[@]} files" >&2
