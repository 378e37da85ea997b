#include "litgraph/semantic.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "litgraph/sqlite.h"
#include "litgraph/store.h"

namespace litgraph {

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;
namespace fs = std::filesystem;

double Since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

json ReadInfo(Store* store) {
  auto v = store->GetMeta("vectors_info");
  if (!v) return json::object();
  json j = json::parse(*v, nullptr, false);
  return j.is_object() ? j : json::object();
}

// Texts of one field by dense id (empty where there is nothing to embed).
std::vector<std::string> FieldTexts(Store* store, VecField f, uint64_t rows) {
  std::vector<std::string> texts(rows);
  const char* sql = f == VecField::kTitle      ? "SELECT id, title FROM paper"
                    : f == VecField::kAbstract ? "SELECT id, abstract FROM paper"
                                               : "SELECT id, text FROM keyword";
  Stmt st = store->db().Prepare(sql);
  while (st.Step()) {
    uint64_t id = static_cast<uint64_t>(st.Int(0));
    if (id < rows) texts[id] = st.Str(1);
  }
  return texts;
}

}  // namespace

const char* VecFieldName(VecField f) {
  switch (f) {
    case VecField::kTitle: return "title";
    case VecField::kAbstract: return "abstract";
    case VecField::kKeyword: return "keyword";
  }
  return "";
}

Status RunEmbed(Store* store, const EmbedRunOptions& o, EmbedRunStats* stats,
                const std::function<void(const std::string&)>& note) {
  auto t0 = Clock::now();
  try {
    json info = ReadInfo(store);
    int64_t cur_gen = store->Generation("vectors");
    std::string cur_dir = cur_gen ? store->ArtifactDir("vectors", cur_gen) : "";
    int64_t gen = 0;
    auto dir_or = store->NewArtifactDir("vectors", &gen);
    if (!dir_or.ok()) return dir_or.status();
    const std::string dir = dir_or.value();
    struct Cleanup {
      std::string dir;
      bool keep = false;
      ~Cleanup() {
        std::error_code ec;
        if (!keep) fs::remove_all(dir, ec);
      }
    } cleanup{dir};

    std::unique_ptr<Embedder> embedder;
    bool full = !o.missing || cur_gen == 0;
    std::string cur_model = info.value("model_id", "");
    if (o.backend == "http") {
      auto http = std::make_unique<HttpEmbedder>(o.http);
      Status st = http->Probe();
      if (!st.ok()) return st;
      if (cur_gen && cur_model != http->model_id() && !o.replace)
        return Status::Usage(fmt::format(
            "the store's vectors were made by {}; embedding with {} would mix models (pass "
            "--replace to re-embed everything with the new model)",
            cur_model, http->model_id()));
      if (cur_model != http->model_id()) full = true;
      info = {{"backend", "http"}, {"url", o.http.url}, {"model", o.http.model}};
      embedder = std::move(http);
    } else {
      bool have_builtin = cur_gen && info.value("backend", "") == "builtin" &&
                          fs::exists(cur_dir + "/model");
      if (cur_gen && !have_builtin && !o.replace && !o.train)
        return Status::Usage(fmt::format(
            "the store's vectors were made by {}; embedding with the built-in model would mix "
            "models (pass --replace or --train to re-embed everything)",
            cur_model));
      if (o.train || !have_builtin) {
        ThrowIfError(TrainLsa(store, o.lsa, dir + "/model", &stats->train));
        stats->trained = true;
        full = true;
        info = {{"backend", "builtin"},
                {"method", "lsa"},
                {"train_docs", stats->train.docs},
                {"terms", stats->train.terms},
                {"papers_at_train", store->PaperCount()}};
      } else {
        fs::create_hard_link(cur_dir + "/model", dir + "/model");
      }
      auto lsa = std::make_unique<LsaModel>();
      ThrowIfError(lsa->Open(dir + "/model"));
      stats->lexical_weight = lsa->lexical_weight();
      embedder = std::move(lsa);
      stats->retrain_due = !stats->trained &&
                           store->PaperCount() > 1.5 * info.value("papers_at_train", 0.0);
    }
    const int dim = embedder->dim();
    stats->dim = dim;
    stats->model_id = embedder->model_id();

    auto t_embed = Clock::now();
    double index_seconds = 0;
    for (VecField f : {VecField::kTitle, VecField::kAbstract, VecField::kKeyword}) {
      uint64_t rows = static_cast<uint64_t>(store->MaxId(f == VecField::kKeyword ? NodeType::kKeyword
                                                                                : NodeType::kPaper)) + 1;
      std::vector<std::string> texts = FieldTexts(store, f, rows);
      std::vector<float> data(rows * dim, 0.0f);
      std::vector<char> need(rows, 1);
      VectorFile old;
      std::string name = VecFieldName(f);
      if (!full && old.Open(cur_dir + "/" + name + ".vec").ok() && old.dim() == dim) {
        for (uint64_t r = 0; r < rows && r < old.rows(); ++r)
          if (const float* v = old.Row(r)) {
            std::copy(v, v + dim, data.begin() + r * dim);
            need[r] = 0;
          }
      }
      std::vector<uint64_t> todo;
      for (uint64_t r = 0; r < rows; ++r)
        if (need[r] && !texts[r].empty()) todo.push_back(r);
      if (auto* lsa = dynamic_cast<LsaModel*>(embedder.get())) {
        int threads = std::max(1, o.threads);
        std::vector<std::thread> ts;
        for (int t = 0; t < threads; ++t)
          ts.emplace_back([&, t] {
            for (size_t i = t; i < todo.size(); i += threads)
              lsa->EmbedOne(texts[todo[i]], data.data() + todo[i] * dim);
          });
        for (auto& th : ts) th.join();
      } else {
        const size_t chunk = 4096;
        for (size_t i = 0; i < todo.size(); i += chunk) {
          std::vector<std::string> batch;
          for (size_t j = i; j < todo.size() && j < i + chunk; ++j) batch.push_back(texts[todo[j]]);
          std::vector<float> out;
          ThrowIfError(embedder->Embed(batch, &out));
          for (size_t j = 0; j < batch.size(); ++j)
            std::copy(out.begin() + j * dim, out.begin() + (j + 1) * dim, data.begin() + todo[i + j] * dim);
          if (o.progress) fmt::print(stderr, "\rlitgraph-embed: {} {} / {}   ", name, i + batch.size(), todo.size());
        }
        if (o.progress) fmt::print(stderr, "\r\033[K");
      }
      (f == VecField::kTitle ? stats->titles : f == VecField::kAbstract ? stats->abstracts : stats->keywords) =
          static_cast<int64_t>(todo.size());
      ThrowIfError(VectorFile::Write(dir + "/" + name + ".vec", dim, rows, data.data()));
      data = {};
      texts = {};
      auto t_index = Clock::now();
      VectorFile vf;
      ThrowIfError(vf.Open(dir + "/" + name + ".vec"));
      std::string old_lib;
      if (!full && fs::exists(cur_dir + "/" + name + ".hnswlib")) {
        old_lib = dir + "/" + name + ".base.hnswlib";
        fs::copy_file(cur_dir + "/" + name + ".hnswlib", old_lib);
      }
      if (note && o.progress) note(fmt::format("indexing {} vectors", name));
      HnswBuildOptions ho = o.hnsw;
      ho.threads = std::max(1, o.threads);
      ThrowIfError(BuildHnsw(vf, dir + "/" + name, ho, old_lib));
      if (!old_lib.empty()) fs::remove(old_lib);
      index_seconds += Since(t_index);
    }
    stats->index_seconds = index_seconds;
    stats->embed_seconds = Since(t_embed) - index_seconds;
    info["model_id"] = stats->model_id;
    info["dim"] = dim;
    info["generation"] = gen;
    FsyncDir(dir);
    FsyncDir(store->dir());
    Transaction txn(&store->db(), "IMMEDIATE");
    store->SetMeta("vectors_info", info.dump());
    store->SetGeneration("vectors", gen);
    txn.Commit();
    cleanup.keep = true;
  } catch (const StatusError& e) {
    return e.status();
  } catch (const fs::filesystem_error& e) {
    return Status::Io(e.what());
  }
  stats->seconds = Since(t0);
  return Status::Ok();
}

Result<std::unique_ptr<SemanticIndex>> SemanticIndex::Open(Store* store, const std::string& http_key) {
  int64_t gen = store->Generation("vectors");
  if (gen == 0)
    return Status::NotFound(fmt::format("{}: the store has no vectors yet (run litgraph-embed)", store->dir()));
  std::unique_ptr<SemanticIndex> s(new SemanticIndex());
  s->dir_ = store->ArtifactDir("vectors", gen);
  json info = ReadInfo(store);
  s->model_id_ = info.value("model_id", "");
  if (info.value("backend", "") == "http") {
    HttpEmbedOptions ho;
    ho.url = info.value("url", "");
    ho.model = info.value("model", "");
    ho.http.api_key = http_key;
    s->embedder_ = std::make_unique<HttpEmbedder>(ho);
  } else {
    auto lsa = std::make_unique<LsaModel>();
    Status st = lsa->Open(s->dir_ + "/model");
    if (!st.ok()) return st;
    s->lsa_ = lsa.get();
    s->lexical_weight_ = lsa->lexical_weight();
    s->embedder_ = std::move(lsa);
  }
  s->store_ = store;
  return s;
}

SemanticIndex::Field& SemanticIndex::Get(VecField f) {
  Field& fl = fields_[static_cast<int>(f)];
  if (!fl.opened) {
    fl.opened = true;
    std::string base = dir_ + "/" + VecFieldName(f);
    ThrowIfError(fl.vec.Open(base + ".vec"));
    if (fs::exists(base + ".hnsw")) {
      ThrowIfError(fl.hnsw.Open(base + ".hnsw", &fl.vec));
      fl.has_index = true;
    }
  }
  return fl;
}

const VectorFile& SemanticIndex::vectors(VecField f) { return Get(f).vec; }

std::vector<VectorHit> SemanticIndex::Search(VecField f, const float* query, size_t k, size_t ef) {
  Field& fl = Get(f);
  if (!fl.has_index) return BruteForceSearch(fl.vec, query, k);
  return fl.hnsw.Search(query, k, ef);
}

Result<QueryVector> SemanticIndex::EmbedQuery(const std::string& text) {
  QueryVector q;
  q.text = text;
  auto v = EmbedText(text);
  if (!v.ok()) return v.status();
  q.dense = std::move(v.value());
  if (lexical_weight_ > 0 && !q.dense.empty()) q.sparse = lsa_->EmbedSparse(text);
  return q;
}

const SparseVector& SemanticIndex::StoredSparse(VecField f, uint64_t id) {
  auto& cache = sparse_cache_[static_cast<int>(f)];
  auto it = cache.find(id);
  if (it != cache.end()) return it->second;
  if (cache.size() >= 100000) cache.clear();  // a long-lived index stays bounded
  Stmt& st = text_stmt_[static_cast<int>(f)];
  if (!st.raw())
    st = store_->db().Prepare(f == VecField::kTitle      ? "SELECT title FROM paper WHERE id = ?"
                              : f == VecField::kAbstract ? "SELECT abstract FROM paper WHERE id = ?"
                                                         : "SELECT text FROM keyword WHERE id = ?");
  st.Bind(1, static_cast<int64_t>(id));
  SparseVector v;
  if (st.Step()) v = lsa_->EmbedSparse(st.Text(0));
  st.Reset();
  return cache.emplace(id, std::move(v)).first->second;
}

bool SemanticIndex::Score(const QueryVector& q, VecField f, uint64_t id, double* score) {
  const float* row = vectors(f).Row(id);
  if (!row || q.empty()) return false;
  double s = Dot(q.dense.data(), row, static_cast<int>(q.dense.size()));
  if (lexical_weight_ > 0)
    s = (1 - lexical_weight_) * s + lexical_weight_ * SparseDot(q.sparse, StoredSparse(f, id));
  *score = s;
  return true;
}

std::vector<VectorHit> SemanticIndex::Search(VecField f, const QueryVector& q, size_t k, size_t depth,
                                             size_t ef, const std::vector<uint32_t>& extra) {
  std::vector<VectorHit> hits;
  if (q.empty()) return hits;
  std::vector<VectorHit> dense = Search(f, q.dense.data(), std::max(k, depth), std::max(ef, depth));
  if (lexical_weight_ <= 0) {
    if (dense.size() > k) dense.resize(k);
    return dense;
  }
  std::vector<uint32_t> ids;
  for (const VectorHit& h : dense) ids.push_back(h.id);
  ids.insert(ids.end(), extra.begin(), extra.end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (uint32_t id : ids) {
    double s;
    if (Score(q, f, id, &s)) hits.push_back({id, static_cast<float>(s)});
  }
  std::sort(hits.begin(), hits.end(), [](const VectorHit& a, const VectorHit& b) {
    return a.score != b.score ? a.score > b.score : a.id < b.id;
  });
  if (hits.size() > k) hits.resize(k);
  return hits;
}

Result<std::vector<float>> SemanticIndex::EmbedText(const std::string& text) {
  std::vector<float> v;
  Status st = embedder_->Embed({text}, &v);
  if (!st.ok()) return st;
  if (embedder_->dim() != vectors(VecField::kTitle).dim())
    return Status::Io(fmt::format("the embedding model returns {} dimensions but the store's "
                                  "vectors have {}", embedder_->dim(), vectors(VecField::kTitle).dim()));
  if (std::all_of(v.begin(), v.end(), [](float x) { return x == 0; })) v.clear();
  return v;
}

}  // namespace litgraph
