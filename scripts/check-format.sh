#!/usr/bin/env bash
# Checks that every C++ file follows .clang-format (Google style, 100
# columns). Exit 77 (a skipped test) when clang-format is not installed.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "clang-format not installed: skipped"; exit 77; }
git ls-files '*.cc' '*.h' | xargs clang-format --dry-run --Werror
