#!/bin/sh
# Bridges on a 10k-paper field: communities from topics, the citation graph and the keyword
# graph, participation with betweenness from 64 sampled sources (the default), exact
# betweenness, and all five analyses in one process. Each command runs 3 times (the exact betweenness once) under
# /usr/bin/time (wall, user CPU, system CPU, peak RSS); the tool's own summary record
# (--stats) is kept beside it. Usage: bridges_bench.sh BIN_DIR STORE FIELD > log 2>&1
BIN=$1
DB=$2
FIELD=$3
run() {
  n=3
  if [ "$1" = "--once" ]; then n=1; shift; fi
  for i in $(seq $n); do
    echo "## $*"
    /usr/bin/time -f 'time: %e s %U u %S s %M KB' "$BIN/litgraph-analyze" --db "$DB" --field "$FIELD" --stats -q -n 20 "$@" | tail -1
  done
}
uptime
run bridges --communities topic
run bridges --communities citation
run bridges --communities keyword
run bridges --communities keyword --bridge-rank betweenness
run --once bridges --communities citation --betweenness-samples 100000 --bridge-rank betweenness
run influential bridges lineage gaps duplicates --communities keyword
uptime
