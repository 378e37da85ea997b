#include "litgraph/keyword_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <thread>
#include <unordered_map>

#include "litgraph/generation.h"
#include "litgraph/graph_build.h"
#include "litgraph/phrase_count.h"
#include "litgraph/store.h"
#include "litgraph/store_write.h"
#include "parallel_chunks.h"

namespace litgraph {

namespace {

using Clock = std::chrono::steady_clock;

class BuiltinBackend : public KeywordBackend {
 public:
  BuiltinBackend(const PhraseStats* stats, ExtractOptions options, Store* known, int threads)
      : extractor_(
            stats,
            known ? std::function<bool(const std::string&)>([known](const std::string& phrase) {
              return known->NodeByExtId(NodeType::kKeyword, KeywordExtId(phrase)).has_value();
            })
                  : nullptr),
        options_(options),
        // `known` asks the store's one SQLite connection: one thread then.
        threads_(known ? 1 : std::max(1, threads)),
        uses_store_(known != nullptr) {}
  // Each paper's result depends on that paper alone, so the output does not
  // depend on the number of threads.
  Status Extract(const std::vector<PaperText>& papers, std::vector<std::vector<Keyword>>* out,
                 std::vector<std::string>*) override {
    out->assign(papers.size(), {});
    ParallelChunks(papers.size(), threads_, 16, [&](uint64_t b, uint64_t e, int) {
      for (uint64_t i = b; i < e; ++i)
        (*out)[i] = extractor_.Extract(papers[i].title, papers[i].abstract, options_);
    });
    return Status::Ok();
  }
  std::string name() const override { return "builtin"; }
  bool UsesStore() const override { return uses_store_; }

 private:
  KeywordExtractor extractor_;
  ExtractOptions options_;
  int threads_;
  bool uses_store_;
};

}  // namespace

std::unique_ptr<KeywordBackend> MakeBuiltinKeywordBackend(const PhraseStats* stats,
                                                          ExtractOptions options, Store* known,
                                                          int threads) {
  return std::make_unique<BuiltinBackend>(stats, options, known, threads);
}

Result<PaperText> PaperTextOf(const Json& rec, const std::string& where) {
  std::string field[3];
  const char* names[3] = {"title", "abstract", "text"};
  for (int i = 0; i < 3; ++i) {
    auto it = rec.find(names[i]);
    if (it == rec.end() || it->is_null()) continue;
    if (!it->is_string())
      return Status::MalformedInput(
          fmt::format("{}: field \"{}\" must be a string", where, names[i]));
    field[i] = it->get<std::string>();
  }
  return PaperText{0, field[0], field[1].empty() ? field[2] : field[1], where};
}

namespace {

// Every paper's phrases into `counter`.
void CountStoreTexts(Store* store, PhraseCounter* counter, int threads) {
  // Texts in batches (2,000 documents or 64 MiB), each document's keys found
  // on `threads` threads and counted in document order.
  constexpr size_t kBatch = 2000, kBatchBytes = size_t{64} << 20;
  std::vector<std::pair<std::string, std::string>> texts;
  std::vector<std::vector<uint64_t>> keys(kBatch);
  size_t bytes = 0;
  auto count = [&] {
    ParallelChunks(texts.size(), threads, 16, [&](uint64_t b, uint64_t e, int) {
      for (uint64_t i = b; i < e; ++i) PhraseKeysOf(texts[i].first, texts[i].second, &keys[i]);
    });
    for (size_t i = 0; i < texts.size(); ++i) counter->AddKeys(keys[i]);
    texts.clear();
    bytes = 0;
  };
  store->ForEachPaperText([&](int64_t, std::string_view title, std::string_view abstract) {
    texts.emplace_back(title, abstract);
    bytes += title.size() + abstract.size();
    if (texts.size() == kBatch || bytes >= kBatchBytes) count();
  });
  count();
}

// The store's own phrase counts (kPhraseCountsFile) into `out`.
Status KeepPhraseCounts(Store* store, size_t memory, int threads, GenerationBuilder* out) {
  PhraseCounter counter(store->dir() + "/keywords.tmp", memory, threads);
  CountStoreTexts(store, &counter, threads);
  const PhraseFile all{out->Path(kPhraseCountsFile), out->NewFile(kPhraseCountsFile)};
  LITGRAPH_RETURN_IF_ERROR(counter.Write(nullptr, &all));
  out->info()["phrase_counts"] = {{"documents", counter.num_docs()},
                                  {"phrases", counter.distinct()},
                                  {"text_version", store->TextVersion()}};
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<GenerationBuilder>> CountPhraseStats(Store* store, size_t memory,
                                                            int threads) {
  // The runs go beside the generations (keywords.tmp: removed by the
  // counter, or with the generations' leftovers when killed).
  PhraseCounter counter(store->dir() + "/keywords.tmp", memory, threads);
  CountStoreTexts(store, &counter, threads);
  return WritePhraseStats(store, &counter);
}

Result<std::unique_ptr<GenerationBuilder>> WritePhraseStats(Store* store, PhraseCounter* counter) {
  auto out = GenerationBuilder::Start(store, "keywords");
  if (!out.ok()) return out.status();
  const std::string path = (*out)->Path("phrase_df");
  const FileIdentity id = (*out)->NewFile("phrase_df");
  LITGRAPH_RETURN_IF_ERROR(counter->Write(path, id));
  (*out)->info() = {{"documents", counter->num_docs()}, {"phrases", counter->distinct()}};
  return std::move(out.value());
}

Status OpenPhraseStats(Store* store, PhraseStats* stats) {
  auto view = store->Current("keywords");
  if (!view.ok()) return view.status();
  if (!*view) return Status::NotFound("no phrase statistics yet (run litgraph-extract-keywords)");
  auto id = (*view)->Identity("phrase_df");
  if (!id.ok()) return id.status();
  return stats->Open((*view)->Path("phrase_df"), *id);
}

namespace {

// The papers a run processes.
std::vector<int64_t> Targets(Store* store, const KeywordRunOptions& options) {
  switch (options.select) {
    case KeywordRunOptions::Select::kIds:
      return options.ids;
    case KeywordRunOptions::Select::kMissing:
      return store->PaperIdsWithoutKeywords();
    case KeywordRunOptions::Select::kAll:
      return store->PaperIds();
  }
  return {};
}

// Extracts and writes keywords for `targets` in batches inside *txn;
// commits and begins a new transaction after each batch when asked (remote
// backends: an interrupted run keeps its finished batches).
Status ExtractAll(Store* store, const KeywordRunOptions& options,
                  const std::vector<int64_t>& targets, KeywordBackend* backend,
                  KeywordWriter* writer, std::unique_ptr<Transaction>* txn,
                  KeywordRunStats* stats) {
  auto read = [&](size_t i, std::vector<PaperText>* batch) {
    batch->clear();
    for (size_t j = i; j < targets.size() && j < i + options.batch; ++j)
      if (auto t = store->GetPaperText(targets[j])) batch->push_back(std::move(*t));
  };
  auto last_progress = Clock::now();
  auto write = [&](const std::vector<PaperText>& batch,
                   const std::vector<std::vector<Keyword>>& results,
                   const std::vector<std::string>& failures) {
    for (const auto& f : failures) {
      ++stats->failures;
      options.reporter->Warn(f);
    }
    for (size_t k = 0; k < batch.size(); ++k) {
      if (results[k].empty() && !failures.empty()) continue;  // retry on the next --missing
      stats->paper_keywords += writer->Write(batch[k].id, results[k]);
      ++stats->papers;
    }
    if (options.commit_batches) {
      writer->ApplyCounts();
      (*txn)->Commit();
      *txn = std::make_unique<Transaction>(&store->db(), "IMMEDIATE");
    }
    if (std::chrono::duration<double>(Clock::now() - last_progress).count() > 0.5) {
      last_progress = Clock::now();
      options.reporter->Progress(fmt::format("{} / {} papers", stats->papers, targets.size()));
    }
  };
  std::vector<PaperText> batch[2];
  std::vector<std::vector<Keyword>> results[2];
  std::vector<std::string> failures[2];
  if (backend->UsesStore()) {
    // The store's connection is this thread's: one step at a time, and a
    // remote backend's finished batch is written (and committed) at once.
    for (size_t i = 0; i < targets.size(); i += options.batch) {
      read(i, &batch[0]);
      failures[0].clear();
      LITGRAPH_RETURN_IF_ERROR(backend->Extract(batch[0], &results[0], &failures[0]));
      write(batch[0], results[0], failures[0]);
    }
    options.reporter->Progress("");
    return Status::Ok();
  }
  // Batch k is extracted on other threads while this one writes batch k - 1's
  // keywords and reads batch k + 1: SQLite's work overlaps the extraction's,
  // and the rows are written in the same order.
  read(0, &batch[0]);
  for (size_t i = 0, k = 0; i < targets.size(); i += options.batch, k ^= 1) {
    Status extracted;
    std::exception_ptr failed, failed_extracting;
    failures[k].clear();
    std::thread worker([&] {
      try {
        extracted = backend->Extract(batch[k], &results[k], &failures[k]);
      } catch (...) {
        failed_extracting = std::current_exception();
      }
    });
    try {
      if (i > 0) write(batch[k ^ 1], results[k ^ 1], failures[k ^ 1]);
      read(i + options.batch, &batch[k ^ 1]);
    } catch (...) {
      failed = std::current_exception();
    }
    worker.join();
    if (failed) std::rethrow_exception(failed);
    if (failed_extracting) std::rethrow_exception(failed_extracting);
    LITGRAPH_RETURN_IF_ERROR(extracted);
    if (i + options.batch >= targets.size()) write(batch[k], results[k], failures[k]);
  }
  options.reporter->Progress("");
  return Status::Ok();
}

}  // namespace

Status RunKeywordExtraction(
    Store* store, const KeywordRunOptions& options,
    const std::function<std::unique_ptr<KeywordBackend>(const PhraseStats*)>& make_backend,
    KeywordRunStats* stats) {
  auto t0 = Clock::now();
  try {
    // SQLite within the budget: a quarter as page cache, a quarter mapped,
    // sorts in temporary files.
    store->LimitSqliteMemory(options.memory_budget / 4, options.memory_budget / 4);
    std::vector<int64_t> targets = Targets(store, options);
    // Corpus phrase statistics: recounted on a full run, else reused. Either
    // way the extractor reads them from the memory-mapped file.
    PhraseStats recounted, stored;
    const PhraseStats* phrase_stats = nullptr;
    std::unique_ptr<GenerationBuilder> new_stats;
    bool recount = options.select == KeywordRunOptions::Select::kAll || options.recount ||
                   !OpenPhraseStats(store, &stored).ok();
    if (!options.stats_from.empty()) {
      auto from = Store::Open(options.stats_from, Store::Mode::kRead);
      if (!from.ok()) return from.status();
      auto view = (*from)->Current("keywords");
      if (!view.ok()) return view.status();
      if (!*view || !(*view)->Has("phrase_df"))
        return Status::InvalidArgument(fmt::format(
            "{}: the store has no phrase statistics to copy (run litgraph-extract-keywords on it "
            "first)",
            options.stats_from));
      auto out = GenerationBuilder::Start(store, "keywords");
      if (!out.ok()) return out.status();
      new_stats = std::move(out.value());
      LITGRAPH_RETURN_IF_ERROR(new_stats->Import(**view, "phrase_df"));
      new_stats->info() = (*view)->info();
      new_stats->info().erase("phrase_counts");  // (the sample's own, when it is a shard)
      new_stats->info()["stats_from"] = options.stats_from;
      LITGRAPH_RETURN_IF_ERROR(
          KeepPhraseCounts(store, options.memory_budget / 2, options.threads, new_stats.get()));
      auto id = new_stats->Identity("phrase_df");
      if (!id.ok()) return id.status();
      LITGRAPH_RETURN_IF_ERROR(recounted.Open(new_stats->Path("phrase_df"), *id));
      phrase_stats = &recounted;
    } else if (recount) {
      auto out = CountPhraseStats(store, options.memory_budget / 2, options.threads);
      if (!out.ok()) return out.status();
      new_stats = std::move(out.value());
      auto id = new_stats->Identity("phrase_df");
      if (!id.ok()) return id.status();
      LITGRAPH_RETURN_IF_ERROR(recounted.Open(new_stats->Path("phrase_df"), *id));
      phrase_stats = &recounted;
    } else {
      phrase_stats = &stored;
      stats->recount_due = store->PaperCount() > 1.2 * static_cast<double>(stored.num_docs());
    }
    stats->corpus_docs = static_cast<int64_t>(phrase_stats->num_docs());
    std::unique_ptr<KeywordBackend> backend = make_backend(phrase_stats);
    // One transaction: keyword rows, counts, the graph's keyword layer and
    // the statistics' generation commit together (batches commit on their
    // own only for remote backends).
    auto txn = std::make_unique<Transaction>(&store->db(), "IMMEDIATE");
    auto t_extract = Clock::now();
    // A full run recounts the keywords' papers at the end; an update adds
    // what it changed.
    const bool full = options.select == KeywordRunOptions::Select::kAll;
    KeywordWriter writer(store, backend->name(), options.memory_budget / 8, !full);
    if (options.select == KeywordRunOptions::Select::kMissing) writer.ReadPendingLinks();
    LITGRAPH_RETURN_IF_ERROR(
        ExtractAll(store, options, targets, backend.get(), &writer, &txn, stats));
    LITGRAPH_RETURN_IF_ERROR(phrase_stats->status());  // damage a lookup met
    stats->extract_seconds = std::chrono::duration<double>(Clock::now() - t_extract).count();
    writer.ApplyCounts();
    stats->keywords_total = full ? RefreshKeywordCounts(store) : KeywordsInUse(store);
    if (store->Generation("graph") > 0) {
      GraphBuildOptions go;
      go.memory_budget = options.memory_budget;
      go.threads = options.threads;
      go.ranked_length = options.ranked_length;
      go.cooccur_top_k = options.cooccur_top_k;
      // Patched for the papers processed (a full run rebuilds it).
      std::vector<uint32_t> papers(targets.begin(), targets.end());
      LITGRAPH_RETURN_IF_ERROR(UpdateKeywordLayer(store, papers, go));
    }
    if (new_stats) LITGRAPH_RETURN_IF_ERROR(new_stats->Commit());
    store->SetMeta("keyword_backend", backend->name());
    txn->Commit();
  } catch (const StatusError& e) {
    return e.status();
  }
  stats->seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return Status::Ok();
}

}  // namespace litgraph
