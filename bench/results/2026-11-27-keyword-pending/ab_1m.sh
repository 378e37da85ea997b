#!/bin/bash
# A/B of extract-keywords --missing after one 100k round of the 1M generator store: binT
# (d9a2a91) on the schema-6 store, binU (this change) on the same store migrated to schema 7
# beforehand (the migration's SQL run by sqlite3), so that the one-time migration is not timed.
# Each run on a fresh copy; the .check files hold the keyword counts and links afterwards.
cd /work/bench-data
for i in 1 2 3; do
  for b in T U; do
    src=xk/k1-after-ingest.db; [ $b = U ] && src=xk/k1-v7.db
    rm -rf xk/run.db; cp -a $src xk/run.db; sync
    /usr/bin/time -f "%e s %M KB" bin$b/litgraph-extract-keywords --db xk/run.db --missing --stats -q > xk/ab-$b-$i.json 2> xk/ab-$b-$i.time
    echo "$b $i $(cat xk/ab-$b-$i.time) $(cat xk/ab-$b-$i.json)"
    sqlite3 xk/run.db/litgraph.sqlite "SELECT count(*), sum(paper_count), sum(id*paper_count) FROM keyword; SELECT count(*), sum(keyword_id), sum(score) FROM paper_keyword; SELECT count(*) FROM keyword_extracted" > xk/ab-$b-$i.check
    cat xk/ab-$b-$i.check
  done
done
rm -rf xk/run.db
