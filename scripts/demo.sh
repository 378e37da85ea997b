#!/usr/bin/env bash
# The main job on the bundled sample: ingest the CC0 OpenAlex records in
# tests/data into a store, build its keyword and semantic layers, and search
# it. Usage: scripts/demo.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
DB="$BUILD/demo.db"
rm -rf "$DB"
export LITGRAPH_DB="$DB"
L="$BUILD/litgraph"
"$L" ingest tests/data/*.jsonl tests/data/*.json
"$L" extract-keywords
"$L" embed
echo "== find-paper: biodiversity finance" >&2
"$L" find-paper --format table --limit 5 biodiversity finance
echo "== lineage: how 'Semantic Text Matching for Long-Form Documents' descends from GloVe" >&2
"$L" lineage --format table W2250539671 W2911997761
echo "== tri-search: financing biodiversity conservation through private investment" >&2
"$L" tri-search --format table --limit 10 financing biodiversity conservation through private investment
