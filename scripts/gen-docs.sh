#!/usr/bin/env bash
# Regenerates man/litgraph-*.1 and completions/ from the tools' own option
# definitions (--generate-man, --generate-completion). Usage: gen-docs.sh BUILD
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
mkdir -p man completions/bash completions/zsh completions/fish
for src in tools/*.cc; do
  name=$(basename "$src" .cc)
  [ "$name" = litgraph ] && continue
  tool="litgraph-$name"
  exe="$BUILD/$tool"
  "$exe" --generate-man > "man/$tool.1"
  "$exe" --generate-completion bash > "completions/bash/$tool"
  "$exe" --generate-completion zsh > "completions/zsh/_$tool"
  "$exe" --generate-completion fish > "completions/fish/$tool.fish"
done
