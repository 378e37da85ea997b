#!/bin/bash
# alternating A/B of embed at 250k hubs: old (7564352) vs new (b1e5bc5)
cd /work/rss/ab
echo "rep,bin,seconds,train_s,embed_s,index_s,peak_rss_mb,user_s,sys_s" > ab.csv
for rep in 1 2; do
  for b in old new; do
    rm -rf s.db; cp -a /work/rss/h250-kw.db s.db; sync
    /usr/bin/time -f "%M %U %S" -o t.txt ./embed-$b --db s.db --stats -q > e.json
    python3 - $rep $b <<'PY' >> ab.csv
import json,sys
d=json.load(open('e.json')); m,u,s=open('t.txt').read().split()
print(f"{sys.argv[1]},{sys.argv[2]},{d['seconds']:.1f},{d['train_seconds']:.1f},{d['embed_seconds']:.1f},{d['index_seconds']:.1f},{int(m)//1024},{u},{s}")
PY
  done
done
echo done > done
