#!/bin/bash
# sample.sh PID OUT: t VmRSS RssAnon RssFile (MB) every 0.5 s
pid=$1; out=$2; t0=$(date +%s.%N)
echo "t rss anon file" > $out
while kill -0 $pid 2>/dev/null; do
  s=$(awk '/VmRSS|RssAnon|RssFile/{printf "%d ", $2/1024}' /proc/$pid/status 2>/dev/null)
  echo "$(echo "$(date +%s.%N) - $t0" | bc) $s" >> $out
  sleep 0.5
done
