// Running keyword extraction over a store (litgraph-extract-keywords, store
// mode): choose papers, extract with a backend, write Keyword nodes,
// HAS_KEYWORD rows, the keyword FTS index and a new graph generation with
// HAS_KEYWORD / COOCCUR, atomically.
//
// Corpus statistics: a full run (all papers) recounts the phrase document
// frequencies in bounded memory (PhraseCounter, its runs in
// DIR/keywords.tmp) and stores them as DIR/keywords.<N>/phrase_df; --missing
// and --id runs reuse the stored counts (recounting only when there are
// none), and the summary says when the corpus has grown enough (> 20%)
// since the last count for a full run to be due. Extraction reads the
// counts from that memory-mapped file either way.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "litgraph/graph_build.h"
#include "litgraph/jsonl.h"
#include "litgraph/keywords.h"
#include "litgraph/report.h"
#include "litgraph/status.h"
#include "litgraph/store.h"

namespace litgraph {

class GenerationBuilder;

// Where keywords come from. Extract() is called with one batch at a time,
// not always on the thread that made the backend (one that does not use the
// store runs beside the thread reading and writing it); implementations may
// work concurrently inside a batch.
class KeywordBackend {
 public:
  virtual ~KeywordBackend() = default;
  // One result per input, same order. A paper the backend could not handle
  // gets an empty list and a message in *failures (counted, not fatal).
  virtual Status Extract(const std::vector<PaperText>& papers,
                         std::vector<std::vector<Keyword>>* out,
                         std::vector<std::string>* failures) = 0;
  virtual std::string name() const = 0;  // recorded in meta.keyword_backend
  // Whether Extract() uses the store (its SQLite connection): when not, the
  // next batch is read while one is extracted.
  virtual bool UsesStore() const { return true; }
};

// The built-in statistical extractor over the given corpus statistics; with
// `known`, phrases that are already Keyword nodes of that store are
// preferred (query mode: filter-mode records, tri-search queries).
// `threads` extract a batch's papers concurrently (without `known` only).
std::unique_ptr<KeywordBackend> MakeBuiltinKeywordBackend(const PhraseStats* stats,
                                                          ExtractOptions options = {},
                                                          Store* known = nullptr, int threads = 1);

// The text of a record given on standard input (extract-keywords --filter):
// "title" and "abstract", or "text" for the abstract. MalformedInput naming
// `where` when one of them is not a string.
Result<PaperText> PaperTextOf(const Json& record, const std::string& where);

struct KeywordRunOptions {
  enum class Select { kAll, kMissing, kIds } select = Select::kAll;
  std::vector<int64_t> ids;  // for kIds (dense paper ids)
  bool recount = false;      // recount phrase statistics even when not a full run
  // The phrase statistics of another store (its current keywords
  // generation), copied instead of counted: shards of one corpus extracting
  // with one set of statistics (litgraph-merge). The store's own phrases
  // are then counted too, every one (documents of one included), and kept
  // beside them as `phrase_counts` (kPhraseCountsFile), which litgraph-merge
  // adds up instead of counting the shards' texts again.
  std::string stats_from;
  size_t batch = 2000;  // papers per backend call / commit unit for remote backends
  int threads = 1;  // for counting phrase statistics and COOCCUR recounts (the backend has its own)
  Reporter* reporter = NullReporter();  // progress, and the papers a backend failed on
  // Commit after every batch (remote backends: an interrupted run keeps its
  // finished batches; --missing resumes). Built-in: one transaction.
  bool commit_batches = false;
  // Memory (doc/memory.md): SQLite's page cache 1/4 and mapping 1/4; the
  // phrase counting 1/2 (phrase_count.h), the keyword id cache 1/8, the
  // keyword layer's edge sorting (graph_build.h) in turn.
  size_t memory_budget = size_t{1} << 30;
  // The keyword layer's (GraphBuildOptions; tests set them).
  uint32_t ranked_length = kRankedLength;
  size_t cooccur_top_k = kCooccurTopK;
};

struct KeywordRunStats {
  int64_t papers = 0;          // papers processed
  int64_t paper_keywords = 0;  // HAS_KEYWORD rows written
  int64_t keywords_total = 0;  // Keyword nodes in the store afterwards
  int64_t failures = 0;
  int64_t corpus_docs = 0;  // documents behind the phrase statistics
  bool recount_due = false;
  double extract_seconds = 0, seconds = 0;
};

// `make_backend` receives the phrase statistics (possibly freshly counted).
Status RunKeywordExtraction(
    Store* store, const KeywordRunOptions& options,
    const std::function<std::unique_ptr<KeywordBackend>(const PhraseStats*)>& make_backend,
    KeywordRunStats* stats);

// Counts the phrase statistics of every paper of the store (writer, inside
// the caller's transaction) within `memory` bytes into a new keywords
// generation, to be committed by the caller; the documents' phrases are found
// on `threads` threads (the counts do not depend on their number).
Result<std::unique_ptr<GenerationBuilder>> CountPhraseStats(Store* store, size_t memory,
                                                            int threads = 1);

class PhraseCounter;
// The phrase statistics `counter` counted (every paper of the store, each
// once: what CountPhraseStats counts) written into a new keywords
// generation, to be committed by the caller.
Result<std::unique_ptr<GenerationBuilder>> WritePhraseStats(Store* store, PhraseCounter* counter);

// A shard's own phrase counts, in its keywords generation beside the
// statistics it copied (KeywordRunOptions::stats_from): the format of
// phrase_df with every key, one document's included (phrase_count.h), and in
// the generation's info "phrase_counts": {"documents", "text_version"} (the
// store's Store::TextVersion when counted).
inline constexpr char kPhraseCountsFile[] = "phrase_counts";

// Opens the store's phrase statistics (NotFound when never counted).
Status OpenPhraseStats(Store* store, PhraseStats* stats);

}  // namespace litgraph
