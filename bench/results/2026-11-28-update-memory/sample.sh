#!/bin/bash
# sample.sh PID OUT: every 0.5 s, Rss/Anonymous/file of the process (smaps_rollup, kB)
pid=$1; out=$2
while kill -0 $pid 2>/dev/null; do
  awk -v t=$(date +%s.%N) '/^Rss:/{r=$2} /^Anonymous:/{a=$2} /^Pss_File:/{f=$2} END{print t, r, a, f}' /proc/$pid/smaps_rollup 2>/dev/null >> $out
  sleep 0.5
done
