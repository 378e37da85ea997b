#!/usr/bin/env bash
# Regenerates man/ and completions/ from the tools' own option definitions
# (--generate-man, --generate-completion) and from tools/tools.list (the
# dispatcher's litgraph(1) and completions). Usage: gen-docs.sh BUILD
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
mkdir -p man completions/bash completions/zsh completions/fish
gen() {  # gen EXE NAME: the man page and completions of one executable
  "$1" --generate-man > "man/$2.1"
  "$1" --generate-completion bash > "completions/bash/$2"
  "$1" --generate-completion zsh > "completions/zsh/_$2"
  "$1" --generate-completion fish > "completions/fish/$2.fish"
}
grep -v '^#' tools/tools.list | cut -f1 | while read -r name; do
  gen "$BUILD/litgraph-$name" "litgraph-$name"
done
gen "$BUILD/litgraph" litgraph
