#!/bin/bash
# ab.sh: peak RSS / anonymous of the 1M cron ingest under malloc settings
cd /work/bench-data/ht
for cfg in ${CFGS:-default arena1 mmap1m}; do
  rm -rf s.db; cp -a ../merge1m/merged-1000000-segments.db s.db; sync
  case $cfg in
    default) envs="";;
    arena1) envs="MALLOC_ARENA_MAX=1";;
    mmap1m) envs="GLIBC_TUNABLES=glibc.malloc.mmap_threshold=1048576";;
    decay1s) envs="MALLOC_CONF=dirty_decay_ms:1000,muzzy_decay_ms:0";;
    decay0) envs="MALLOC_CONF=dirty_decay_ms:0,muzzy_decay_ms:0";;
  esac
  t0=$(date +%s.%N)
  env $envs ${BIN:-/work/pch}/litgraph-ingest --db s.db -q /work/bench-data/cron1m/upsert-c1000000-g2-s1-r0.2-w100000.jsonl &
  sleep 0.3; p=$(pgrep -x litgraph-ingest); rm -f rss-$cfg.log; /tmp/sample.sh $p rss-$cfg.log; wait
  t1=$(date +%s.%N)
  echo "$cfg wall $(python3 -c "print(round($t1-$t0,1))") peak_rss_mb $(sort -k2 -n rss-$cfg.log | tail -1 | awk '{print int($2/1024)}') peak_anon_mb $(sort -k3 -n rss-$cfg.log | tail -1 | awk '{print int($3/1024)}')"
done
