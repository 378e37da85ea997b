# fish completion for litgraph (generated from tools/tools.list)
function __litgraph_delegate
  set -l words (commandline -opc)
  complete -C "litgraph-$words[2] $words[3..-1] "(commandline -ct)
end
complete -c litgraph -f -n __fish_use_subcommand -a 'ingest find-paper paper lineage map extract-keywords embed rwr-rank tri-search status mcp export metrics analyze merge help'
complete -c litgraph -f -n 'not __fish_use_subcommand' -a '(__litgraph_delegate)'
