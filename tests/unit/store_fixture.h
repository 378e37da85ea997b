// A store built from records for tests that need a real store and graph
// (export_test, literature_map_test); kept apart from test_util.h so the other
// tests do not compile the ingest and graph headers.
#pragma once

#include <memory>
#include <string>

#include "litgraph/graph.h"
#include "litgraph/ingest.h"
#include "litgraph/store.h"
#include "test_util.h"

namespace litgraph::testing {

// A store at dir/db holding the native JSON-lines records `jsonl` (written to
// dir/papers.jsonl and ingested), and its graph. Call it under
// ASSERT_NO_FATAL_FAILURE.
inline void IngestStore(const ScopedTempDir& dir, const std::string& jsonl,
                        std::unique_ptr<Store>* store, std::unique_ptr<Graph>* graph) {
  WriteFile(dir.File("papers.jsonl"), jsonl);
  auto opened = Store::Open(dir.File("db"), Store::Mode::kWrite, true);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  *store = std::move(*opened);
  IngestStats stats;
  ASSERT_TRUE(Ingest(store->get(), {dir.File("papers.jsonl")}, IngestOptions(), &stats).ok());
  auto g = Graph::Open(store->get());
  ASSERT_TRUE(g.ok()) << g.status().message();
  *graph = std::move(*g);
}

}  // namespace litgraph::testing
