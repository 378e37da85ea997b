// A store built from records for tests that need a real store and graph
// (export_test, literature_map_test, search_test, like_test); kept apart from test_util.h so the
// other tests do not compile the ingest and graph headers.
#pragma once

#include <memory>
#include <string>

#include "litgraph/graph.h"
#include "litgraph/ingest.h"
#include "litgraph/keyword_store.h"
#include "litgraph/semantic.h"
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

// Keywords of every paper (the built-in extractor) and their vectors (a
// 16-dimension built-in model, one thread: deterministic). Call it under
// ASSERT_NO_FATAL_FAILURE.
inline void ExtractAndEmbed(Store* store, EmbedRunStats* embedded = nullptr) {
  KeywordRunOptions ko;
  KeywordRunStats ks;
  Status st = RunKeywordExtraction(
      store, ko, [](const PhraseStats* ps) { return MakeBuiltinKeywordBackend(ps); }, &ks);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_GT(ks.paper_keywords, 0);
  EmbedRunOptions eo;
  eo.lsa.dim = 16;
  eo.threads = 1;
  eo.hnsw.threads = 1;
  EmbedRunStats es;
  st = RunEmbed(store, eo, &es);
  ASSERT_TRUE(st.ok()) << st.message();
  if (embedded) *embedded = es;
}

}  // namespace litgraph::testing
