#!/bin/bash
# OOV lexical part: old (kw-quality build e9a770f, query code = main c9edc5d) vs new (main + unknown words), same stores
cd /work/main
O=/work/bench-data/oov
for side in old new; do
  BIN=$([ $side = old ] && echo /work/wt-kw/build || echo /work/bench-data/oov/bin)
  /usr/bin/python3 bench/eval/csfcube.py --bin $BIN --work $O/cs --per-query \
    --runs embedding,hybrid,tri-search > $O/csfcube-$side.csv 2> $O/csfcube-$side.log
  /usr/bin/python3 bench/eval/aan_citations.py --bin $BIN --work $O/aan --split dev \
    --runs bm25,tri-search > $O/aan-dev-$side.csv 2> $O/aan-dev-$side.log
done
echo done > $O/done
