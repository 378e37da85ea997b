#!/usr/bin/env bash
# Configures and builds the sanitizer build (doc/fuzzing.md): clang-14,
# -DLITGRAPH_FUZZ=ON, so the library, tools and unit tests are built with
# AddressSanitizer and UndefinedBehaviorSanitizer and the libFuzzer targets
# beside them. `make test-sanitize` runs ctest in it and `make fuzz`
# (scripts/fuzz.sh) runs the fuzz targets from it: one clang build for both.
#
#   scripts/sanitize-build.sh [TARGET...]   default: everything
#
# Environment:
#   SANITIZE_BUILD  build directory (build-sanitize)
#   JOBS            build jobs (2)
#   CXX             the clang to build with (clang++-14)
# Exit status 2 on a configure or build error.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${SANITIZE_BUILD:-build-sanitize}
CXX_CLANG=${CXX:-clang++-14}
command -v "$CXX_CLANG" >/dev/null || { echo "$0: $CXX_CLANG not found (scripts/install-deps.sh)" >&2; exit 2; }

mkdir -p "$BUILD"
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_CXX_COMPILER="$CXX_CLANG" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DLITGRAPH_FUZZ=ON -DLITGRAPH_BUILD_TESTS=ON -DLITGRAPH_BUILD_BENCH=OFF -DLITGRAPH_JEMALLOC=OFF \
  >"$BUILD/configure.log" 2>&1 || { cat "$BUILD/configure.log" >&2; exit 2; }
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$BUILD" -j "${JOBS:-2}" "${targets[@]}" || exit 2
