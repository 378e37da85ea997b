# fish completion for litgraph-status (generated from its option definitions)
complete -c litgraph-status -s h -l help -d 'Print this help message and exit'
complete -c litgraph-status -l version -d 'Print the version and exit'
complete -c litgraph-status -l db -r -f -a '(__fish_complete_directories)' -d 'Store directory (default: $LITGRAPH_DB, else ./litgraph.db)'
complete -c litgraph-status -l format -r -f -a 'jsonl table tsv' -d 'Output format (default: table on a terminal, jsonl otherwise)'
complete -c litgraph-status -s q -l quiet -d 'No progress, notes or warnings on stderr'
complete -c litgraph-status -l threads -r -d 'Worker threads (default: all cores)'
complete -c litgraph-status -l verify -d 'Also check every page of every derived file (reads the whole store)'
