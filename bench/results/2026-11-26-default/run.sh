#!/bin/bash
# run.sh BENCH TAG RUNS [extra like_eval args]
B=${BIN:-/work/bench-data/bin12}
cd /work/h19
bench=$1; tag=$2; runs=$3; shift 3
work=/work/bench-data/h19/$bench
[ $bench = csfcube ] || work=/work/bench-data/h19/aan
python3 bench/eval/like_eval.py ${bench%%-*} --bin $B --work $work --out /work/bench-data/h19/out --tag $tag --runs "$runs" --pairs "none=none" "$@" > /work/bench-data/h19/out/$tag.log 2>&1
echo "$tag rc=$?" >> /work/bench-data/h19/out/done.txt
