#!/bin/bash
# extract-keywords in bounded memory (issue 13, item 1): peak RSS and wall clock of a full run
# before (main 99b0076: phrase counts in a hash table in memory) and after (kwmem: PhraseCounter,
# mapped phrase_df, SQLite and the keyword id cache in the budget), at 1G and 64M, each on a
# fresh copy of one ingested store, and whether the keyword output is identical.
# Binaries: bin/litgraph-*.before built from 99b0076, bin/litgraph-extract-keywords from kwmem.
set -eu
K=${K:-/work/bench-data/kw}; B=$K/bin
WORKS=${WORKS:-100000}; NAME=${NAME:-h100k}
[ -f $K/$NAME.jsonl ] || $B/litgraph-gen-works --works $WORKS --profile hubs --out $K/$NAME.jsonl
[ -d $K/$NAME.db ] || $B/litgraph-ingest.before --db $K/$NAME.db -q $K/$NAME.jsonl
# What the keyword layer wrote: its SQLite rows, and every file of the current keywords and
# graph generations (same store id and generation numbers in every copy: whole files compare).
sums() {
  local db=$1
  for q in "select id, ext_id, text, paper_count from keyword order by id" \
           "select paper_id, keyword_id, score from paper_keyword order by paper_id, keyword_id" \
           "select paper_id, backend from keyword_extracted order by paper_id"; do
    echo "$(sqlite3 "file:$db/litgraph.sqlite?mode=ro" "$q" | sha256sum | cut -c1-16) $q"
  done
  for a in keywords graph; do
    g=$(sqlite3 "file:$db/litgraph.sqlite?mode=ro" "select value from meta where key='${a}_generation'")
    (cd $db/$a.$g && for f in $(ls | grep -v '^PIN$'); do echo "$(sha256sum < $f | cut -c1-16) $a.$g/$f"; done)
  done
}
run() {  # run LABEL BINARY [ARGS...]
  local label=$1 bin=$2; shift 2
  local db=$K/$NAME-$label.db
  rm -rf $db; cp -a $K/$NAME.db $db; sync
  /usr/bin/time -v $bin --db $db -q --stats "$@" > $K/$NAME-$label.json 2> $K/$NAME-$label.time
  sums $db > $K/$NAME-$label.sums
  printf '%s %s wall, %s s CPU, %s KB, %s papers, %s keyword links\n' "$label" \
    "$(grep 'Elapsed (wall' $K/$NAME-$label.time | awk '{print $NF}')" \
    "$(awk '/User time|System time/ {s += $NF} END {print s}' $K/$NAME-$label.time)" \
    "$(grep 'Maximum resident' $K/$NAME-$label.time | awk '{print $NF}')" \
    "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['papers'])" $K/$NAME-$label.json)" \
    "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['paper_keywords'])" $K/$NAME-$label.json)" \
    | tee -a $K/$NAME.log
  rm -rf $db
}
run before-1g $B/litgraph-extract-keywords.before
run after-1g $B/litgraph-extract-keywords
run after-64m $B/litgraph-extract-keywords --memory-budget 64M
run before-64m $B/litgraph-extract-keywords.before --memory-budget 64M
run after-8m $B/litgraph-extract-keywords --memory-budget 8M
# The machine is shared: the first two again, in the other order, for the spread of timings.
run after-1g-2 $B/litgraph-extract-keywords
run before-1g-2 $B/litgraph-extract-keywords.before
for l in after-1g after-64m before-64m after-8m after-1g-2 before-1g-2; do
  if cmp -s $K/$NAME-before-1g.sums $K/$NAME-$l.sums; then echo "$l: output identical to before-1g"
  else echo "$l: output DIFFERS from before-1g"; diff $K/$NAME-before-1g.sums $K/$NAME-$l.sums || true; fi
done | tee -a $K/$NAME.log
