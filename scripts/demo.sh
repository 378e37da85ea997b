#!/usr/bin/env bash
# The main job on the bundled sample: ingest the CC0 OpenAlex records in
# tests/data into a store and search it. Usage: scripts/demo.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
BIN="$BUILD"
DB="$BUILD/demo.db"
rm -rf "$DB"
export LITGRAPH_DB="$DB"
"$BIN/litgraph" ingest tests/data/*.jsonl tests/data/*.json
echo "== find-paper: biodiversity finance" >&2
"$BIN/litgraph" find-paper --format table --limit 5 biodiversity finance
echo "== lineage: how 'Semantic Text Matching for Long-Form Documents' descends from GloVe" >&2
"$BIN/litgraph" lineage --format table W2250539671 W2911997761
