# fish completion for litgraph-mcp (generated from its option definitions)
complete -c litgraph-mcp -s h -l help -d 'Print this help message and exit'
complete -c litgraph-mcp -l version -d 'Print the version and exit'
complete -c litgraph-mcp -l db -r -f -a '(__fish_complete_directories)' -d 'Store directory (default: $LITGRAPH_DB, else ./litgraph.db)'
complete -c litgraph-mcp -l format -r -f -a 'jsonl' -d 'Output format (default: table on a terminal, jsonl otherwise)'
complete -c litgraph-mcp -s q -l quiet -d 'No progress, notes or warnings on stderr'
complete -c litgraph-mcp -l threads -r -d 'Worker threads (default: all cores)'
complete -c litgraph-mcp -l allow-writes -d 'Also offer the tools that change the store (ingest, extract_keywords, embed)'
complete -c litgraph-mcp -l timeout -r -d 'Time limit of one tool call in seconds (default 60)'
