#!/usr/bin/env bash
# bench/scale_run.sh BIN WORK N [PROFILE] [STEPS]: a store of N synthetic works built at scale
# (issue 13's 10M figures), each step a fresh process timed by /usr/bin/time, output in WORK.
#
# STEPS (comma-separated, default ingest,sizes,queries,keywords,sizes,queries):
#   ingest    litgraph-gen-works --works N --profile PROFILE | litgraph-ingest --stats: the
#             records go through a pipe, never on disk (~7.6 GB per 1M works). Both sides are
#             timed: the wall clock is the pipeline's, the generator's CPU is apart.
#   keywords  litgraph-extract-keywords --stats (the whole corpus: phrase statistics, every
#             paper, the keyword layer)
#   embed     litgraph-embed --stats ARGS (EMBED_ARGS, default --no-index: train the model and
#             embed every text; the HNSW indexes at 10M take hours on 2 cores)
#   sizes     bytes of the store by part (SQLite, graph, keywords, vectors) and per work
#   queries   find_bench.py (start-up, title, abstract), rwr_bench.py (60 seeds, no peer),
#             trisearch_bench.py (short, title, abstract): fresh processes on the store
# Every step appends one line `step,wall_s,peak_rss_mb,user_s,sys_s` to WORK/steps.csv and
# keeps its --stats JSON and stderr as WORK/<step>.json / .err.
set -euo pipefail
bin=$(realpath "$1"); work=$2; n=$3; profile=${4:-default}
steps=${5:-ingest,sizes,queries,keywords,sizes,queries}
here=$(cd "$(dirname "$0")" && pwd)
db=$work/store-$n-$profile.db
mkdir -p "$work"
[ -f "$work/steps.csv" ] || echo "step,wall_s,peak_rss_mb,user_s,sys_s" > "$work/steps.csv"
fmt='%e %M %U %S'

record() {  # name timefile
  read -r wall rss user sys < <(tail -1 "$2")
  echo "$1,$wall,$((rss / 1024)),$user,$sys" | tee -a "$work/steps.csv"
}

for step in ${steps//,/ }; do
  case $step in
    ingest)
      rm -rf "$db"
      t0=$(date +%s.%N)
      /usr/bin/time -f "$fmt" -o "$work/gen.time" "$bin/litgraph-gen-works" --works "$n" \
          --profile "$profile" 2> "$work/gen.err" |
        /usr/bin/time -f "$fmt" -o "$work/ingest.time" "$bin/litgraph-ingest" --db "$db" \
          --stats -q - > "$work/ingest.json" 2> "$work/ingest.err"
      t1=$(date +%s.%N)
      record gen "$work/gen.time"
      record ingest "$work/ingest.time"
      echo "pipeline_wall_s,$(echo "$t1 - $t0" | bc)" | tee -a "$work/steps.csv"
      ;;
    keywords)
      /usr/bin/time -f "$fmt" -o "$work/keywords.time" "$bin/litgraph-extract-keywords" \
        --db "$db" --stats -q > "$work/keywords.json" 2> "$work/keywords.err"
      record keywords "$work/keywords.time"
      ;;
    embed)
      # shellcheck disable=SC2086
      /usr/bin/time -f "$fmt" -o "$work/embed.time" "$bin/litgraph-embed" --db "$db" --stats \
        -q ${EMBED_ARGS:---no-index} > "$work/embed.json" 2> "$work/embed.err"
      record embed "$work/embed.time"
      ;;
    sizes)
      {
        echo "part,bytes,bytes_per_work"
        for p in "$db"/litgraph.sqlite "$db"/graph.* "$db"/keywords.* "$db"/vectors.*; do
          [ -e "$p" ] || continue
          b=$(du -sb "$p" | cut -f1)
          echo "$(basename "$p"),$b,$((b / n))"
        done
        b=$(du -sb "$db" | cut -f1)
        echo "store,$b,$((b / n))"
      } | tee "$work/sizes-$(date +%H%M%S).csv"
      ;;
    queries)
      tag=$(date +%H%M%S)
      /usr/bin/python3 "$here/find_bench.py" --bin "$bin" --db "$db" --runs 30 \
        > "$work/find-$tag.csv" 2> "$work/find-$tag.err"
      /usr/bin/python3 "$here/rwr_bench.py" --bin "$bin" --db "$db" --queries 30 --limits 60 \
        --no-peer > "$work/rwr-$tag.csv" 2> "$work/rwr-$tag.err"
      /usr/bin/python3 "$here/trisearch_bench.py" --bin "$bin" --db "$db" --queries 20 \
        > "$work/tri-$tag.csv" 2> "$work/tri-$tag.err"
      cat "$work/find-$tag.csv" "$work/rwr-$tag.csv" "$work/tri-$tag.csv"
      ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
  esac
done
