#!/bin/bash
# maps.sh PID OUT: every 2 s, the mappings with Rss >= 30 MB (name, Rss MB)
pid=$1; out=$2; t0=$(date +%s)
while kill -0 $pid 2>/dev/null; do
  echo "t=$(( $(date +%s) - t0 ))" >> $out
  awk '/^[0-9a-f]+-[0-9a-f]+ /{name=$6; if(name=="")name="[anon]"} /^Rss:/{ if ($2>=30720) printf "  %6d MB %s\n", $2/1024, name }' /proc/$pid/smaps 2>/dev/null >> $out
  sleep 2
done
