#include "litgraph/keyword_store.h"

#include <fmt/format.h>

#include <chrono>
#include <unordered_map>

#include "litgraph/graph_build.h"
#include "litgraph/sqlite.h"
#include "litgraph/store.h"

namespace litgraph {

namespace {

using Clock = std::chrono::steady_clock;

class BuiltinBackend : public KeywordBackend {
 public:
  BuiltinBackend(const PhraseStats* stats, ExtractOptions options)
      : extractor_(stats), options_(options) {}
  Status Extract(const std::vector<PaperText>& papers, std::vector<std::vector<Keyword>>* out,
                 std::vector<std::string>*) override {
    out->clear();
    for (const PaperText& p : papers) out->push_back(extractor_.Extract(p.title, p.abstract, options_));
    return Status::Ok();
  }
  std::string name() const override { return "builtin"; }

 private:
  KeywordExtractor extractor_;
  ExtractOptions options_;
};

// Writes extracted keywords with per-run caches.
class KeywordWriter {
 public:
  KeywordWriter(Db* db, std::string backend) : db_(db), backend_(std::move(backend)) {
    find_ = db->Prepare("SELECT id FROM keyword WHERE ext_id = ?");
    insert_ = db->Prepare("INSERT INTO keyword(ext_id, text) VALUES(?, ?)");
    fts_ = db->Prepare("INSERT INTO keyword_fts(rowid, text) VALUES(?, ?)");
    clear_ = db->Prepare("DELETE FROM paper_keyword WHERE paper_id = ?");
    link_ = db->Prepare(
        "INSERT OR REPLACE INTO paper_keyword(paper_id, keyword_id, score) VALUES(?, ?, ?)");
    done_ = db->Prepare(
        "INSERT OR REPLACE INTO keyword_extracted(paper_id, backend) VALUES(?, ?)");
  }

  int64_t Write(int64_t paper, const std::vector<Keyword>& kws) {
    clear_.Bind(1, paper).Exec();
    int64_t n = 0;
    for (const Keyword& k : kws) {
      if (k.text.empty()) continue;
      link_.Bind(1, paper).Bind(2, KeywordId(k.text)).Bind(3, static_cast<int64_t>(k.score)).Exec();
      ++n;
    }
    done_.Bind(1, paper).Bind(2, backend_).Exec();
    return n;
  }

 private:
  int64_t KeywordId(const std::string& text) {
    auto it = cache_.find(text);
    if (it != cache_.end()) return it->second;
    std::string ext = KeywordExtId(text);
    find_.Bind(1, ext);
    int64_t id;
    if (find_.Step()) {
      id = find_.Int(0);
      find_.Reset();
    } else {
      find_.Reset();
      insert_.Bind(1, ext).Bind(2, text).Exec();
      id = db_->LastInsertRowid();
      fts_.Bind(1, id).Bind(2, text).Exec();
    }
    cache_.emplace(text, id);
    return id;
  }

  Db* db_;
  std::string backend_;
  Stmt find_, insert_, fts_, clear_, link_, done_;
  std::unordered_map<std::string, int64_t> cache_;
};

}  // namespace

std::unique_ptr<KeywordBackend> MakeBuiltinKeywordBackend(const PhraseStats* stats,
                                                          ExtractOptions options) {
  return std::make_unique<BuiltinBackend>(stats, options);
}

Status OpenPhraseStats(Store* store, PhraseStats* stats) {
  int64_t gen = store->Generation("keywords");
  if (gen == 0) return Status::NotFound("no phrase statistics yet (run litgraph-extract-keywords)");
  return stats->Open(store->ArtifactDir("keywords", gen) + "/phrase_df");
}

Status RunKeywordExtraction(
    Store* store, const KeywordRunOptions& options,
    const std::function<std::unique_ptr<KeywordBackend>(const PhraseStats*)>& make_backend,
    KeywordRunStats* stats, const std::function<void(const std::string&)>& warn) {
  auto t0 = Clock::now();
  Db& db = store->db();
  try {
    // Papers to process.
    std::vector<int64_t> targets;
    if (options.select == KeywordRunOptions::Select::kIds) {
      targets = options.ids;
    } else {
      Stmt st = db.Prepare(
          options.select == KeywordRunOptions::Select::kAll
              ? "SELECT id FROM paper ORDER BY id"
              : "SELECT p.id FROM paper p WHERE NOT EXISTS"
                " (SELECT 1 FROM keyword_extracted k WHERE k.paper_id = p.id) ORDER BY p.id");
      while (st.Step()) targets.push_back(st.Int(0));
    }
    // Corpus phrase statistics: recounted on a full run, else reused.
    PhraseStats counted, stored;
    const PhraseStats* phrase_stats = nullptr;
    int64_t new_gen = 0;
    std::string new_dir;
    bool recount = options.select == KeywordRunOptions::Select::kAll || options.recount ||
                   !OpenPhraseStats(store, &stored).ok();
    int64_t papers_now = store->PaperCount();
    if (recount) {
      Stmt st = db.Prepare("SELECT title, abstract FROM paper");
      while (st.Step()) counted.AddDocument(st.Text(0), st.Text(1));
      auto dir = store->NewArtifactDir("keywords", &new_gen);
      if (!dir.ok()) return dir.status();
      new_dir = dir.value();
      ThrowIfError(counted.Write(new_dir + "/phrase_df"));
      phrase_stats = &counted;
    } else {
      phrase_stats = &stored;
      stats->recount_due = papers_now > 1.2 * static_cast<double>(stored.num_docs());
    }
    stats->corpus_docs = static_cast<int64_t>(phrase_stats->num_docs());
    std::unique_ptr<KeywordBackend> backend = make_backend(phrase_stats);

    std::unique_ptr<Transaction> txn = std::make_unique<Transaction>(&db, "IMMEDIATE");
    KeywordWriter writer(&db, backend->name());
    Stmt text = db.Prepare("SELECT title, abstract, ext_id FROM paper WHERE id = ?");
    auto t_extract = Clock::now();
    std::vector<PaperText> batch;
    std::vector<std::vector<Keyword>> results;
    std::vector<std::string> failures;
    auto last_progress = Clock::now();
    for (size_t i = 0; i < targets.size(); i += options.batch) {
      batch.clear();
      for (size_t j = i; j < targets.size() && j < i + options.batch; ++j) {
        text.Bind(1, targets[j]);
        if (text.Step()) batch.push_back({targets[j], text.Str(0), text.Str(1), text.Str(2)});
        text.Reset();
      }
      failures.clear();
      Status st = backend->Extract(batch, &results, &failures);
      if (!st.ok()) return st;
      for (const auto& f : failures) {
        ++stats->failures;
        if (warn) warn(f);
      }
      for (size_t k = 0; k < batch.size(); ++k) {
        if (results[k].empty() && !failures.empty()) continue;  // retry on the next --missing
        stats->paper_keywords += writer.Write(batch[k].id, results[k]);
        ++stats->papers;
      }
      if (options.commit_batches) {
        txn->Commit();
        txn = std::make_unique<Transaction>(&db, "IMMEDIATE");
      }
      if (options.progress && std::chrono::duration<double>(Clock::now() - last_progress).count() > 0.5) {
        last_progress = Clock::now();
        fmt::print(stderr, "\rlitgraph-extract-keywords: {} / {} papers   ", stats->papers,
                   targets.size());
      }
    }
    if (options.progress) fmt::print(stderr, "\r\033[K");
    stats->extract_seconds = std::chrono::duration<double>(Clock::now() - t_extract).count();
    db.Exec(
        "UPDATE keyword SET paper_count = 0;"
        "UPDATE keyword SET paper_count = c.n FROM (SELECT keyword_id, count(*) AS n"
        " FROM paper_keyword GROUP BY keyword_id) AS c WHERE keyword.id = c.keyword_id;");
    stats->keywords_total = db.QueryInt("SELECT count(*) FROM keyword WHERE paper_count > 0").value_or(0);
    if (store->Generation("graph") > 0) {
      GraphBuildOptions go;
      go.keywords_only = true;
      GraphBuildStats gs;
      Status st = BuildGraph(store, go, &gs);
      if (!st.ok()) return st;
    }
    if (new_gen) store->SetGeneration("keywords", new_gen);
    store->SetMeta("keyword_backend", backend->name());
    txn->Commit();
  } catch (const StatusError& e) {
    return e.status();
  }
  stats->seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return Status::Ok();
}

}  // namespace litgraph
