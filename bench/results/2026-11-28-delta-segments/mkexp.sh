#!/bin/sh
# mkexp.sh SRC DIR: a scratch copy of store SRC (generations hard-linked, the database copied)
set -e
rm -rf "$2"; mkdir "$2"
for d in "$1"/*/; do cp -al "$d" "$2/"; rm -f "$2/$(basename "$d")/PIN"; cp "$d/PIN" "$2/$(basename "$d")/PIN" 2>/dev/null || true; done
cp "$1/litgraph.sqlite" "$2/"; touch "$2/LOCK"
