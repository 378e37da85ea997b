#!/usr/bin/env bash
# Installs litgraph's build, test and benchmark dependencies from Debian 12
# packages. Safe to re-run: does nothing when everything is present.
set -euo pipefail
PACKAGES=(
  build-essential cmake ninja-build pkg-config python3
  libcli11-dev nlohmann-json3-dev libsqlite3-dev sqlite3 libhnswlib-dev libzstd-dev
  libfmt-dev zlib1g-dev libsimdjson-dev libcurl4-openssl-dev libstemmer-dev libjemalloc-dev libxxhash-dev
  libgtest-dev libgmock-dev libbenchmark-dev clang-14 libclang-rt-14-dev llvm-14
  python3-networkx python3-igraph python3-bibtexparser python3-citeproc python3-jsonschema
  graphviz parallel
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "installing: ${missing[*]}" >&2
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
