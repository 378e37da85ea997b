#!/usr/bin/env bash
# Runs each libFuzzer target (fuzz/, doc/fuzzing.md) for a bounded time over
# its committed seed corpus (fuzz/corpus/<target>/), then prints the
# executions, speed, coverage and crashes of every target. The targets come
# from the sanitizer build (scripts/sanitize-build.sh: clang, ASan+UBSan,
# build-sanitize), which `make test-sanitize` also uses; only the targets
# run are (re)built here, so after `make test-sanitize` nothing is.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   default 30 s, every target
#   FUZZ_SEEDS=1 scripts/fuzz.sh 0                     regenerate the corpus only
#
# Environment:
#   SANITIZE_BUILD the sanitizer build directory (build-sanitize)
#   FUZZ_PARALLEL  targets run at the same time (1; CI uses 2)
#   JOBS           build jobs (2)
#   CXX            the clang to build with (clang++-14)
#   FUZZ_SEEDS=1   regenerate fuzz/corpus with fuzz-make-seeds first
#
# Dictionaries (tokens the mutator inserts) are fuzz/dict/<target>.dict.
# Inputs that found new coverage go to $SANITIZE_BUILD/fuzz-work/<target>/
# (not the committed corpus); a crashing input to
# $SANITIZE_BUILD/fuzz-artifacts/, with the log beside it. Exit status 1
# when any target crashed, 2 on a build or usage error.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET=${1:-30}
shift || true
[[ "$SECONDS_PER_TARGET" =~ ^[0-9]+$ ]] || { echo "usage: $0 [SECONDS_PER_TARGET] [TARGET...]" >&2; exit 2; }
BUILD=${SANITIZE_BUILD:-build-sanitize}
export SANITIZE_BUILD=$BUILD
PARALLEL=${FUZZ_PARALLEL:-1}

ALL_TARGETS=$(sed -n '/^set(LITGRAPH_FUZZ_TARGETS/,/)/p' fuzz/CMakeLists.txt |
  tr -d '()' | sed 's/set//; s/LITGRAPH_FUZZ_TARGETS//' | tr -s ' \n' ' ')
TARGETS=${*:-$ALL_TARGETS}

t0=$(date +%s)
build_targets=()
for t in $TARGETS; do build_targets+=("fuzz-$t"); done
[ "${FUZZ_SEEDS:-0}" = 1 ] && build_targets+=(fuzz-make-seeds)
scripts/sanitize-build.sh "${build_targets[@]}" || exit 2
echo "fuzz: built in $(( $(date +%s) - t0 )) s" >&2

if [ "${FUZZ_SEEDS:-0}" = 1 ]; then
  # Generated seeds are replaced; the inputs of fixed crashes (crash-*) stay.
  [ -d fuzz/corpus ] && find fuzz/corpus -type f ! -name 'crash-*' -delete
  "$BUILD/fuzz/fuzz-make-seeds" fuzz/corpus
fi
# 0 seconds: build (and seed) only; libFuzzer would read 0 as "no limit".
[ "$SECONDS_PER_TARGET" = 0 ] && exit 0

# Scratch files of the targets on tmpfs, removed on exit.
if [ -d /dev/shm ]; then TMP_BASE=/dev/shm; else TMP_BASE=${TMPDIR:-/tmp}; fi
SCRATCH=$(mktemp -d "$TMP_BASE/litgraph-fuzz-run.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
export LITGRAPH_FUZZ_TMP=$SCRATCH
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Symbolized stack traces (llvm-14).
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && [ -x /usr/lib/llvm-14/bin/llvm-symbolizer ]; then
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
fi

ART="$BUILD/fuzz-artifacts"
mkdir -p "$ART"

run_one() {
  local t=$1 work="$BUILD/fuzz-work/$1" log="$ART/$1.log"
  mkdir -p "$work" "$SCRATCH/$t"
  local rc=0 dict=()
  [ -f "fuzz/dict/$t.dict" ] && dict=(-dict="fuzz/dict/$t.dict")
  LITGRAPH_FUZZ_TMP="$SCRATCH/$t" "$BUILD/fuzz/fuzz-$t" -max_total_time="$SECONDS_PER_TARGET" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$ART/$t-" \
    "${dict[@]}" "$work" "fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
  echo "$rc" >"$ART/$t.rc"
}

for t in $TARGETS; do
  rm -f "$ART/$t-"* "$ART/$t.rc"
  run_one "$t" &
  while [ "$(jobs -rp | wc -l)" -ge "$PARALLEL" ]; do wait -n || true; done
done
wait

crashed=0
printf '%-14s %12s %8s %7s %7s %5s %8s\n' target executions exec/s cov ft new crashes
for t in $TARGETS; do
  log="$ART/$t.log"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  newu=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  rc=$(cat "$ART/$t.rc")
  crashes=0
  if [ "$rc" != 0 ]; then
    crashes=1
    crashed=1
  fi
  printf '%-14s %12s %8s %7s %7s %5s %8s\n' "$t" "${execs:-?}" "${speed:-?}" "${cov:-?}" \
    "${ft:-?}" "${newu:-?}" "$crashes"
  if [ "$rc" != 0 ]; then
    echo "  $t: exit $rc; input: $(ls "$ART/$t-"* 2>/dev/null | tr '\n' ' ')log: $log" >&2
    grep -m1 -E 'ERROR: |runtime error|fuzz invariant failed|deadly signal' "$log" | sed 's/^/  /' >&2 || true
  fi
done
echo "fuzz: total $(( $(date +%s) - t0 )) s" >&2
exit "$crashed"
