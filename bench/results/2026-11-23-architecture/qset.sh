#!/bin/bash
# Runs a fixed set of queries with the binaries in BIN against DB, one output
# file per query in OUT (stdout + exit code). Used to check that a refactor
# leaves every query output byte-identical.
BIN=$1; DB=$2; OUT=$3; N=${4:-12}
mkdir -p "$OUT"; rm -f "$OUT"/*
export LITGRAPH_DB=$DB
q() { local name=$1; shift; "$@" > "$OUT/$name.out" 2>/dev/null; echo "exit $?" >> "$OUT/$name.out"; }
mapfile -t ROWS < <(sqlite3 -separator $'\t' "$DB/litgraph.sqlite" "select ext_id, title, substr(abstract,1,1500) from paper where id % (select max(id)/$N from paper) = 3 order by id limit $N")
i=0
for row in "${ROWS[@]}"; do
  i=$((i+1))
  IFS=$'\t' read -r id title abstract <<< "$row"
  words=$(echo "$title" | cut -d' ' -f1-4)
  q find_words_$i $BIN/litgraph-find-paper --format jsonl $words
  q find_title_$i $BIN/litgraph-find-paper --format jsonl --title "$title"
  q find_abs_$i $BIN/litgraph-find-paper --format jsonl "$abstract"
  q find_sem_$i $BIN/litgraph-find-paper --format jsonl --semantic "$title"
  q find_hyb_$i $BIN/litgraph-find-paper --format jsonl --hybrid "$title"
  q find_id_$i $BIN/litgraph-find-paper --format jsonl --id "$id"
  q paper_$i $BIN/litgraph-paper --format jsonl "$id"
  q citedby_$i $BIN/litgraph-paper --format jsonl --cited-by "$id"
  q cocited_$i $BIN/litgraph-paper --format jsonl --co-cited "$id"
  q coupled_$i $BIN/litgraph-paper --format jsonl --coupled "$id"
  q tri_$i $BIN/litgraph-tri-search --format jsonl "$title"
  q tri_abs_$i $BIN/litgraph-tri-search --format jsonl "$abstract"
  q tri_disc_$i $BIN/litgraph-tri-search --format jsonl --ranking-profile discovery "$words"
  q tri_auth_$i $BIN/litgraph-tri-search --format jsonl --target author "$words"
  q tri_explain_$i $BIN/litgraph-tri-search --explain "$title"
  $BIN/litgraph-find-paper --format jsonl --limit 30 "$title" > "$OUT/seeds_$i" 2>/dev/null
  q rwr_$i $BIN/litgraph-rwr-rank --format jsonl < "$OUT/seeds_$i"
  q rwr_auth_$i $BIN/litgraph-rwr-rank --format jsonl --target any --threads 2 < "$OUT/seeds_$i"
  rm -f "$OUT/seeds_$i"
  r1=$($BIN/litgraph-paper --format jsonl --references --limit 1 "$id" 2>/dev/null | python3 -c 'import sys,json; l=sys.stdin.readline(); print(json.loads(l)["id"] if l else "")')
  if [ -n "$r1" ]; then
    r2=$($BIN/litgraph-paper --format jsonl --references --limit 1 "$r1" 2>/dev/null | python3 -c 'import sys,json; l=sys.stdin.readline(); print(json.loads(l)["id"] if l else "")')
    if [ -n "$r2" ]; then
      q lineage_$i $BIN/litgraph-lineage --format jsonl "$r2" "$id"
      q lineage_k_$i $BIN/litgraph-lineage --format jsonl --k 3 "$r2" "$id"
      q lineage_dot_$i $BIN/litgraph-lineage --format dot "$r2" "$id"
      q anc_$i $BIN/litgraph-lineage --format jsonl --ancestors "$id"
      q desc_$i $BIN/litgraph-lineage --format mermaid --descendants "$r2"
    fi
  fi
done
