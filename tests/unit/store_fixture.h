// A store built from records for tests that need a real store and graph
// (export_test, literature_map_test, search_test, like_test, merge_test); kept apart from
// test_util.h so the other tests do not compile the ingest and graph headers.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/ingest.h"
#include "litgraph/keyword_store.h"
#include "litgraph/semantic.h"
#include "litgraph/store.h"
#include "test_util.h"

namespace litgraph::testing {

// A small corpus of three topics (protein folding, finance, graph learning):
// paper j of topic t is "<prefix><t>-<j>", with a title and abstract made of
// the topic's phrases, year 2010 + j, and references to papers j - 1 and
// j - 2 of its topic (j < 10). Callers add fields of their own.
inline std::string TopicPaperId(char prefix, int t, int j) {
  return std::string(1, prefix) + std::to_string(t) + "-" + std::to_string(j);
}
inline const std::vector<std::vector<std::string>>& TopicPhrases() {
  static const std::vector<std::vector<std::string>> kPhrases = {
      {"protein folding", "amino acid sequence", "molecular dynamics simulation",
       "tertiary structure prediction", "hydrophobic core packing", "free energy landscape"},
      {"stock market volatility", "portfolio optimization", "asset pricing model",
       "investment risk management", "financial time series", "hedge fund returns"},
      {"graph neural network", "node classification", "message passing scheme", "link prediction",
       "graph convolution layer", "knowledge graph embedding"},
  };
  return kPhrases;
}
inline nlohmann::json TopicPaper(char prefix, int t, int j) {
  static const char* kAdjectives[10] = {"Scalable",   "Robust",     "Efficient", "Adaptive",
                                        "Bayesian",   "Sparse",     "Deep",      "Temporal",
                                        "Stochastic", "Contrastive"};
  const auto& ph = TopicPhrases()[t];
  const std::string a = ph[j % 6], b = ph[(j + 2) % 6], c = ph[(j + 4) % 6];
  nlohmann::json refs = nlohmann::json::array();
  if (j >= 1) refs.push_back(TopicPaperId(prefix, t, j - 1));
  if (j >= 2) refs.push_back(TopicPaperId(prefix, t, j - 2));
  return {{"id", TopicPaperId(prefix, t, j)},
          {"title", std::string(kAdjectives[j]) + " " + a + " with " + b},
          {"abstract", "We study " + a + " and " + b + ". Our method for " + c + " improves " + a +
                           " on benchmarks of " + b + "."},
          {"year", 2010 + j},
          {"references", refs}};
}

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
