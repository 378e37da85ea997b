#!/usr/bin/env bash
# bench/wal_after_update.sh WORK STORE UPSERT.jsonl RUN... : the WAL an update leaves when
# queries run through it, and what it costs the queries after it. RUN is `label=BIN`. For each
# RUN, in the order given, a fresh copy of STORE gets the cron path's two first steps
# (`litgraph-ingest UPSERT`, then `litgraph-extract-keywords --missing`) while a loop of
# `litgraph-find-paper` processes queries it without pause (one at a time, as a busy reader
# would), and a second reader holds snapshots of HOLD seconds one after another (environment,
# default 1; 0 for none), as a slow query or a script reading the SQLite file does. After the
# writers exit the loops stop, and 15 find-paper processes run alone, one
# after another: the store's first reader rebuilds SQLite's WAL index from the whole WAL, and
# so does every later one that opens the store alone.
# CSV on stdout: label, the writers' wall seconds, queries run during the update, WAL bytes
# left, and the p50 / max of the lone queries' wall ms. Copies are removed after each run.
set -euo pipefail
work=$1; src=$2; upsert=$3; shift 3
mkdir -p "$work"
ms() { python3 -c "import sys; print(round((float(sys.argv[2]) - float(sys.argv[1])) * 1000, 1))" "$@"; }
echo "label,writers_s,queries_during,wal_bytes,lone_p50_ms,lone_max_ms"
for run in "$@"; do
  label=${run%%=*}; bin=${run#*=}
  db=$work/wal-$label.db
  rm -rf "$db"; cp -a "$src" "$db"; sync
  rm -f "$work/stop" "$work/count"
  (
    n=0
    while [ ! -e "$work/stop" ]; do
      "$bin/litgraph-find-paper" --db "$db" --limit 5 graph neural network > /dev/null 2>&1 || true
      n=$((n + 1))
    done
    echo $n > "$work/count"
  ) &
  loop=$!
  holder=""
  if [ "${HOLD:-1}" != 0 ]; then
    python3 - "$db" "${HOLD:-1}" "$work/stop" <<'PY' &
import os, sqlite3, sys, time
db, hold, stop = sys.argv[1], float(sys.argv[2]), sys.argv[3]
while not os.path.exists(stop):
    con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True, isolation_level=None)
    con.execute("BEGIN")
    con.execute("SELECT count(*) FROM meta").fetchone()  # the snapshot starts
    time.sleep(hold)
    con.close()
PY
    holder=$!
  fi
  t0=$(date +%s.%N)
  "$bin/litgraph-ingest" --db "$db" -q "$upsert"
  "$bin/litgraph-extract-keywords" --db "$db" --missing -q
  t1=$(date +%s.%N)
  touch "$work/stop"; wait $loop $holder
  wal=0
  [ -e "$db/litgraph.sqlite-wal" ] && wal=$(stat -c %s "$db/litgraph.sqlite-wal")
  lone=()
  for _ in $(seq 15); do
    a=$(date +%s.%N)
    "$bin/litgraph-find-paper" --db "$db" --limit 5 graph neural network > /dev/null
    b=$(date +%s.%N)
    lone+=("$(ms "$a" "$b")")
  done
  python3 - "$label" "$(ms "$t0" "$t1")" "$(cat "$work/count")" "$wal" "${lone[@]}" <<'EOF'
import statistics, sys
label, writers_ms, count, wal = sys.argv[1:5]
lone = [float(x) for x in sys.argv[5:]]
print(f"{label},{float(writers_ms) / 1000:.1f},{count},{wal},{statistics.median(lone):.1f},{max(lone):.1f}")
EOF
  rm -rf "$db"
done
