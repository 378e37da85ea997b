// What a store holds and whether its layers are current: the report of
// litgraph-status, for people, agents and cron jobs.
#pragma once

#include <string>
#include <vector>

#include "litgraph/jsonl.h"
#include "litgraph/status.h"

namespace litgraph {

class Store;

struct StoreReport {
  Json record;                        // {"type": "store_status", ...} (litgraph-json(7))
  std::vector<std::string> problems;  // what needs a tool run (empty: healthy)
  std::vector<std::string> damage;    // files that failed verification
};

// Describes `store` (opened for reading): node counts, edges per relation,
// dangling references, each derived layer's generation and what it lacks,
// whether the embedding model is due for a retrain, bytes per part. Reads
// only metadata and manifests (O(1) in the store's size, but for two
// indexed SQL counts); with `verify` every page of every derived file is
// checked too (reads the whole store).
Result<StoreReport> DescribeStore(Store* store, bool verify);

}  // namespace litgraph
