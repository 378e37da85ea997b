#!/bin/bash
# mk2.sh SRC DEST BINDIR [ZSTD_KEEP]: DEST = SRC's metadata and graph with the graph rebuilt by BINDIR's ingest --compact; vectors and keywords symlinked
set -e
src=$1; d=$2; bin=$3
rm -rf $d; mkdir -p $d
cp $src/litgraph.sqlite $d/
for g in $src/*.*; do case $(basename $g) in graph.*) cp -r $g $d/;; litgraph.sqlite*) ;; *) ln -s $g $d/$(basename $g);; esac; done
ZSTD_KEEP=${4:-1.0} /usr/bin/time -f "%e s %M KB" $bin/litgraph-ingest --db $d --compact -q --stats </dev/null
du -sh $d/graph.*
