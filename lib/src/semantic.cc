#include "litgraph/semantic.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "litgraph/files.h"
#include "litgraph/generation.h"
#include "litgraph/lexical.h"
#include "litgraph/store.h"

namespace litgraph {

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;
namespace fs = std::filesystem;

double Since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

json InfoOf(const GenerationView* view) {
  return view && view->info().is_object() ? view->info() : json::object();
}

// Members of a generation's info read without trusting their types: a
// forged MANIFEST ({"model_id": 7}) must not make a reader throw. "" (or
// `otherwise`) when a member is absent or of another type.
std::string InfoStr(const json& info, const char* key) {
  auto it = info.find(key);
  return it != info.end() && it->is_string() ? it->get<std::string>() : std::string();
}
double InfoNum(const json& info, const char* key, double otherwise) {
  auto it = info.find(key);
  return it != info.end() && it->is_number() ? it->get<double>() : otherwise;
}

TextColumn ColumnOf(VecField f) {
  switch (f) {
    case VecField::kTitle:
      return TextColumn::kPaperTitle;
    case VecField::kAbstract:
      return TextColumn::kPaperAbstract;
    case VecField::kKeyword:
      return TextColumn::kKeywordText;
  }
  return TextColumn::kPaperTitle;
}

// One embedding run's state, passed from stage to stage.
struct EmbedRun {
  Store* store;
  const EmbedRunOptions& o;
  EmbedRunStats* stats;
  json info;
  const GenerationView* cur;  // the current generation, null when none
  GenerationBuilder* out;     // the new one
  bool full = true;           // re-embed everything (no vectors to reuse)
  std::unique_ptr<Embedder> embedder;
  std::vector<uint64_t> stale;  // papers whose text changed since their vectors
};

// A count the manifest's info keeps per field (e.g. info["hnsw_moved"][name]);
// 0 when absent or not a count.
uint64_t InfoCount(const json& counts, const std::string& name) {
  auto it = counts.find(name);
  return it != counts.end() && it->is_number_unsigned() ? it->get<uint64_t>() : 0;
}

// Records that field `name` has `segments` segments (info["vector_segments"]).
void SetSegments(EmbedRun* r, const std::string& name, size_t segments) {
  json& counts = r->info["vector_segments"];
  if (!counts.is_object()) counts = json::object();
  counts[name] = segments;
}

// Opens the built-in model the new generation holds (written or inherited).
Status OpenModel(EmbedRun* r) {
  auto id = r->out->Identity("model");
  if (!id.ok()) return id.status();
  auto lsa = std::make_unique<LsaModel>();
  LITGRAPH_RETURN_IF_ERROR(lsa->Open(r->out->Path("model"), *id));
  lsa->model_id();  // its first MiB read now: damage there ends the run before any work
  LITGRAPH_RETURN_IF_ERROR(lsa->status());
  r->stats->lexical_weight = lsa->lexical_weight();
  r->embedder = std::move(lsa);
  return Status::Ok();
}

// The built-in model of another store (options.model_from), copied into the
// new generation. Refuses to mix it with the vectors of another model unless
// asked to replace them; the same model as the store's keeps --missing
// incremental.
Status CopyModel(EmbedRun* r) {
  const EmbedRunOptions& o = r->o;
  auto from = Store::Open(o.model_from, Store::Mode::kRead);
  if (!from.ok()) return from.status();
  auto view = (*from)->Current("vectors");
  if (!view.ok()) return view.status();
  const json from_info = InfoOf(*view);
  if (!*view || InfoStr(from_info, "backend") != "builtin" || !(*view)->Has("model"))
    return Status::InvalidArgument(
        fmt::format("{}: the store has no built-in embedding model to copy (run litgraph-embed "
                    "on it first)",
                    o.model_from));
  LITGRAPH_RETURN_IF_ERROR(r->out->Import(**view, "model"));
  LITGRAPH_RETURN_IF_ERROR(OpenModel(r));
  const std::string cur_model = InfoStr(r->info, "model_id");
  const std::string model = r->embedder->model_id();
  if (r->cur && cur_model != model) {
    if (!o.replace)
      return Status::InvalidArgument(fmt::format(
          "the store's vectors were made by {}; the model of {} is {}: embedding with it would "
          "mix models (pass --replace to re-embed everything with it)",
          cur_model, o.model_from, model));
    r->full = true;
  }
  r->info = json::object();
  for (const char* key : {"backend", "method", "train_docs", "terms", "papers_at_train"})
    if (from_info.contains(key)) r->info[key] = from_info[key];
  r->info["model_from"] = o.model_from;
  return Status::Ok();
}

// Chooses the model: the HTTP backend, or the built-in model (trained when
// asked or when there is none, else linked from the current generation).
// Refuses to mix the vectors of two models unless asked to replace them.
Status ChooseModel(EmbedRun* r) {
  const EmbedRunOptions& o = r->o;
  const bool cur_gen = r->cur != nullptr;
  std::string cur_model = InfoStr(r->info, "model_id");
  if (o.backend == "http") {
    auto http = std::make_unique<HttpEmbedder>(o.http);
    LITGRAPH_RETURN_IF_ERROR(http->Probe());
    if (cur_gen && cur_model != http->model_id() && !o.replace)
      return Status::InvalidArgument(fmt::format(
          "the store's vectors were made by {}; embedding with {} would mix models (pass "
          "--replace to re-embed everything with the new model)",
          cur_model, http->model_id()));
    if (cur_model != http->model_id()) r->full = true;
    r->info = {{"backend", "http"}, {"url", o.http.url}, {"model", o.http.model}};
    r->embedder = std::move(http);
    return Status::Ok();
  }
  if (!o.model_from.empty()) return CopyModel(r);
  bool have_builtin = cur_gen && InfoStr(r->info, "backend") == "builtin" && r->cur->Has("model");
  if (cur_gen && !have_builtin && !o.replace && !o.train)
    return Status::InvalidArgument(fmt::format(
        "the store's vectors were made by {}; embedding with the built-in model would mix "
        "models (pass --replace or --train to re-embed everything)",
        cur_model));
  if (o.train || !have_builtin) {
    LITGRAPH_RETURN_IF_ERROR(TrainLsa(r->store, o.lsa, r->out->Path("model"),
                                      r->out->NewFile("model"), &r->stats->train));
    r->stats->trained = true;
    r->full = true;
    r->info = {{"backend", "builtin"},
               {"method", "lsa"},
               {"train_docs", r->stats->train.docs},
               {"terms", r->stats->train.terms},
               {"papers_at_train", r->store->PaperCount()}};
  } else {
    LITGRAPH_RETURN_IF_ERROR(r->out->Inherit(*r->cur, "model"));
  }
  LITGRAPH_RETURN_IF_ERROR(OpenModel(r));
  if (!r->stats->trained &&
      r->store->PaperCount() > 1.5 * InfoNum(r->info, "papers_at_train", 0.0)) {
    r->stats->retrain_due = true;
    r->stats->retrain_reason = "the store has over 1.5x the papers the model was trained on";
  }
  return Status::Ok();
}

// The share of the words of up to 1,000 of `texts` (evenly spaced) that
// `model` does not know; -1 when they have fewer than 50 words.
double UnknownWords(const LsaModel& model, const std::vector<std::string>& texts) {
  const size_t step = std::max<size_t>(1, texts.size() / 1000);
  int64_t words = 0, unknown = 0;
  for (size_t i = 0; i < texts.size(); i += step)
    for (const std::string& t : AnalyzeTerms(texts[i])) {
      ++words;
      unknown += model.Find(t) < 0;
    }
  return words < 50 ? -1 : static_cast<double>(unknown) / words;
}

// Vocabulary drift of an incremental run: new abstracts (a sample of them)
// against a sample of the old ones.
void MeasureDrift(EmbedRun* r, const std::vector<std::string>& todo_texts,
                  const std::vector<std::string>& old_sample) {
  const auto* lsa = dynamic_cast<const LsaModel*>(r->embedder.get());
  if (!lsa || r->full || todo_texts.empty()) return;
  r->stats->unknown_words_new = UnknownWords(*lsa, todo_texts);
  r->stats->unknown_words_old = UnknownWords(*lsa, old_sample);
  if (r->stats->unknown_words_new >= 0 && r->stats->unknown_words_old >= 0 &&
      r->stats->unknown_words_new > r->stats->unknown_words_old + 0.10 && !r->stats->retrain_due) {
    r->stats->retrain_due = true;
    r->stats->retrain_reason = fmt::format(
        "{:.0f}% of the new abstracts' words are unknown to the model ({:.0f}% of the older ones)",
        100 * r->stats->unknown_words_new, 100 * r->stats->unknown_words_old);
  }
}

// Computes the vectors of `texts` into data (texts.size() x dim, in order);
// `done` of `total` texts of the field were embedded before them (progress).
Status EmbedRows(EmbedRun* r, const std::string& name, const std::vector<std::string>& texts,
                 std::vector<float>* data, uint64_t done, uint64_t total) {
  const int dim = r->embedder->dim();
  data->assign(texts.size() * dim, 0.0f);
  if (auto* lsa = dynamic_cast<LsaModel*>(r->embedder.get())) {
    int threads = std::max(1, r->o.threads);
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t)
      ts.emplace_back([&, t] {
        LsaModel::WordCache cache;
        for (size_t i = t; i < texts.size(); i += threads)
          lsa->EmbedOne(texts[i], data->data() + i * dim, &cache);
      });
    for (auto& th : ts) th.join();
    return Status::Ok();
  }
  const size_t chunk = 4096;
  for (size_t i = 0; i < texts.size(); i += chunk) {
    std::vector<std::string> batch(
        texts.begin() + static_cast<long>(i),
        texts.begin() + static_cast<long>(std::min(texts.size(), i + chunk)));
    std::vector<float> out;
    LITGRAPH_RETURN_IF_ERROR(r->embedder->Embed(batch, &out));
    std::copy(out.begin(), out.begin() + static_cast<long>(batch.size() * dim),
              data->begin() + static_cast<long>(i * dim));
    r->o.reporter->Progress(fmt::format("{} {} / {}", name, done + i + batch.size(), total));
  }
  return Status::Ok();
}

// The vectors a run computes, rows ascending: texts gathered into chunks of
// at most `chunk_bytes` (texts and their vectors), each chunk embedded and its vectors appended to
// a scratch file in the new generation, which is then mapped. So memory holds a chunk and 4 bytes
// per row, not the field (10M abstracts are ~12 GB of text and, at 128 dimensions, 5 GB of
// vectors). Keeps every `sample_step`-th text for the drift measure.
class NewVectors {
 public:
  NewVectors(EmbedRun* r, const std::string& name, uint64_t expected, size_t chunk_bytes)
      : r_(r),
        name_(name),
        path_(r->out->Path(name + ".new.tmp")),
        expected_(expected),
        chunk_bytes_(chunk_bytes),
        sample_step_(std::max<uint64_t>(1, expected / 1000)) {}
  ~NewVectors() { Drop(); }
  // Unmaps and removes the scratch file (its vectors are in the vector
  // file or the delta by then).
  void Drop() {
    if (file_) std::fclose(file_);
    file_ = nullptr;
    map_ = MappedFile();
    rows_ = decltype(rows_)();
    std::error_code ec;
    fs::remove(path_, ec);
  }

  Status Add(uint64_t row, std::string&& text) {
    if (rows_.size() % sample_step_ == 0) sample_.push_back(text);
    rows_.push_back(static_cast<uint32_t>(row));
    pending_bytes_ += text.size() + 64 + static_cast<size_t>(r_->embedder->dim()) * sizeof(float);
    texts_.push_back(std::move(text));
    return pending_bytes_ >= chunk_bytes_ ? Flush() : Status::Ok();
  }
  Status Finish() {
    LITGRAPH_RETURN_IF_ERROR(Flush());
    r_->o.reporter->Progress("");
    if (!file_) return Status::Ok();  // nothing embedded
    const bool ok = std::fflush(file_) == 0;
    std::fclose(file_);
    file_ = nullptr;
    if (!ok) return Status::IoError(path_ + ": cannot write embedded vectors");
    return map_.Open(path_);
  }
  // Whether `row` was embedded now, and then its vector (nullptr: the text
  // embeds to zeros, no word the model knows).
  // Rows asked for in ascending order (the vector file's writer, a delta's)
  // release the mapping behind them every 64 MiB: read once, the scratch
  // file's pages need not stay in this process's RSS (5 GB at 10M abstracts).
  bool Find(uint64_t row, const float** v) const {
    auto it = std::lower_bound(rows_.begin(), rows_.end(), row);
    if (it == rows_.end() || *it != row) return false;
    const size_t dim = static_cast<size_t>(r_->embedder->dim());
    const size_t at = static_cast<size_t>(it - rows_.begin()) * dim * sizeof(float);
    behind_.At(at);
    const float* x = reinterpret_cast<const float*>(map_.data() + at);
    *v = std::all_of(x, x + dim, [](float f) { return f == 0.0f; }) ? nullptr : x;
    return true;
  }
  const std::vector<uint32_t>& rows() const { return rows_; }
  const std::vector<std::string>& sample() const { return sample_; }

 private:
  Status Flush() {
    if (texts_.empty()) return Status::Ok();
    if (!file_ && !(file_ = std::fopen(path_.c_str(), "wb")))
      return Status::IoError(path_ + ": cannot create: " + std::strerror(errno));
    std::vector<float> data;
    LITGRAPH_RETURN_IF_ERROR(
        EmbedRows(r_, name_, texts_, &data, rows_.size() - texts_.size(), expected_));
    if (std::fwrite(data.data(), sizeof(float), data.size(), file_) != data.size())
      return Status::IoError(path_ + ": cannot write embedded vectors: " + std::strerror(errno));
    r_->o.reporter->Progress(fmt::format("{} {} / {}", name_, rows_.size(), expected_));
    texts_.clear();
    pending_bytes_ = 0;
    return Status::Ok();
  }

  EmbedRun* r_;
  std::string name_, path_;
  uint64_t expected_;
  size_t chunk_bytes_, pending_bytes_ = 0;
  uint64_t sample_step_;
  std::vector<uint32_t> rows_;
  std::vector<std::string> texts_, sample_;
  std::FILE* file_ = nullptr;
  MappedFile map_;
  mutable ReleaseBehind behind_{size_t{64} << 20,
                                [this](uint64_t a, uint64_t b) { map_.Release(a, b - a); }};
};

// At a compaction, the segments of the current generation that stay: each
// with the rows of `delta` (ascending; their vectors change now, and another
// index takes them) made waypoints, numbered afresh. A segment with fewer
// than half of its nodes live is folded instead (every one with
// --fold-segments): its live rows go into the base index (`*folded`,
// ascending). Flags the rows the kept segments hold in `elsewhere`, and
// counts them in `*kept_out`.
Status KeepSegments(EmbedRun* r, const FieldVectors& old, const std::string& name,
                    const std::vector<std::vector<uint32_t>>& labels,
                    const std::vector<uint32_t>& delta, uint64_t rows,
                    std::vector<uint8_t>* elsewhere, size_t* kept_out,
                    std::vector<uint64_t>* folded) {
  if (labels.empty()) return Status::Ok();
  if (r->o.fold_segments) {  // every segment folded
    for (const auto& segment : labels)
      for (uint32_t l : segment)
        if (l < rows) folded->push_back(l);
    std::sort(folded->begin(), folded->end());
    return Status::Ok();
  }
  elsewhere->assign(rows, 0);
  size_t& kept = *kept_out;
  for (size_t k = 0; k < labels.size(); ++k) {
    std::vector<uint32_t> next = labels[k];
    uint64_t live = 0;
    bool changed = false;
    for (uint32_t& l : next) {
      if (l >= rows) continue;  // a waypoint already, or no label
      if (std::binary_search(delta.begin(), delta.end(), l)) {
        l |= kWaypoint;
        changed = true;
      } else {
        ++live;
      }
    }
    if (live * 2 < old.segment(k).nodes()) {  // folded
      for (uint32_t l : next)
        if (l < rows) folded->push_back(l);
      continue;
    }
    const std::string to = FieldVectors::SegmentFile(name, ++kept);
    if (!changed && kept == k + 1)
      LITGRAPH_RETURN_IF_ERROR(r->out->Inherit(*r->cur, to));
    else
      LITGRAPH_RETURN_IF_ERROR(WriteHnswSegment(
          *r->cur, FieldVectors::SegmentFile(name, k + 1),
          [&](uint64_t node, uint32_t) { return node < next.size() ? next[node] : kNoLabel; },
          r->out, to));
    for (uint32_t l : next)
      if (l < rows) (*elsewhere)[l] = 1;
  }
  std::sort(folded->begin(), folded->end());
  if (kept > 0) {
    SetSegments(r, name, kept);
  }
  return Status::Ok();
}

// One field: its vectors (reusing the current generation's unless a full
// run), and either a new base (the vector file and its HNSW index, extended
// when possible) or a delta beside the current base (vectors.h).
// Memory: a byte per row, the ids of the delta and of the rows embedded, a
// chunk of texts and their vectors (NewVectors), samples of 1,000 old and new
// texts, and an HNSW graph within the budget; the old and new vectors are
// read from mapped files while the vector file is written.
Status EmbedField(EmbedRun* r, VecField f, double* index_seconds) {
  const int dim = r->embedder->dim();
  const NodeType type = f == VecField::kKeyword ? NodeType::kKeyword : NodeType::kPaper;
  const uint64_t rows = static_cast<uint64_t>(r->store->MaxId(type)) + 1;
  const std::string name = VecFieldName(f);
  std::vector<char> need(rows, 1);
  std::vector<uint32_t> delta;  // rows whose vector differs from the base's
  FieldVectors old;
  const bool reuse = !r->full && r->cur->Has(name + ".vec");
  // Keyword vectors only for keywords of at least keyword_min_papers papers
  // (EmbedRunOptions); `eligible` empty: every row. Set again by every run
  // from keyword.paper_count, so that a keyword that came to be shared gets
  // its vector and one no longer shared loses it, as a full run would.
  std::vector<char> eligible;
  const uint64_t min_papers = std::max<uint32_t>(r->o.keyword_min_papers, 1);
  if (f == VecField::kKeyword &&
      (min_papers > 1 || (reuse && InfoCount(r->info, "keyword_min_papers") > 1))) {
    eligible.assign(rows, min_papers <= 1 ? 1 : 0);
    if (min_papers > 1)
      r->store->ForEachKeywordOfPapers(static_cast<int64_t>(min_papers), [&](int64_t id) {
        if (id >= 0 && static_cast<uint64_t>(id) < rows) eligible[static_cast<size_t>(id)] = 1;
      });
  }
  if (f == VecField::kKeyword) {
    if (min_papers > 1)
      r->info["keyword_min_papers"] = min_papers;
    else
      r->info.erase("keyword_min_papers");
  }
  // The rows an earlier run of this model looked at: a row among them without
  // a vector had no text it could embed, and gets one only when its text
  // changes (stale, below).
  json& seen = r->info["embedded_rows"];
  if (!seen.is_object()) seen = json::object();
  const uint64_t looked_at = reuse ? InfoCount(seen, name) : 0;
  if (reuse) {
    LITGRAPH_RETURN_IF_ERROR(old.Open(*r->cur, name));
    if (old.dim() != dim)
      return Status::Corruption(r->cur->Path(name + ".vec") +
                                ": dimension differs from the model's");
    std::fill(need.begin(), need.begin() + static_cast<int64_t>(std::min(rows, looked_at)), 0);
    for (uint64_t i = looked_at; i < rows && i < old.rows(); ++i)
      if (old.Row(i)) need[i] = 0;
    delta = old.DeltaIds();
    LITGRAPH_RETURN_IF_ERROR(old.status());
    if (!eligible.empty())
      for (uint64_t i = 0; i < rows; ++i) {
        const bool has = i < old.rows() && old.Row(i);
        need[i] = eligible[i] && !has;
        if (has && !eligible[i]) delta.push_back(static_cast<uint32_t>(i));  // its vector goes
      }
    // Papers whose text changed since: their old vectors go.
    if (type == NodeType::kPaper)
      for (uint64_t i : r->stale)
        if (i < rows) {
          need[i] = 1;
          delta.push_back(static_cast<uint32_t>(i));
        }
  } else if (!eligible.empty()) {
    need = eligible;
  }
  // The texts of the rows to embed, in id order, embedded a chunk at a time
  // (NewVectors), and about 1,000 old ones, evenly spaced (drift): looked up
  // by id when they are few, else in one scan.
  const uint64_t kept = static_cast<uint64_t>(std::count(need.begin(), need.end(), 0));
  const uint64_t step = std::max<uint64_t>(1, kept / 1000);
  NewVectors fresh(r, name, rows - kept, std::max<size_t>(r->o.memory_budget / 16, 1 << 20));
  std::vector<std::string> old_sample;
  if ((rows - kept) * 8 < rows) {
    uint64_t ordinal = 0;
    for (uint64_t row = 1; row < rows; ++row) {
      if (!need[row] && ordinal++ % step != 0) continue;
      std::string text = r->store->GetText(ColumnOf(f), static_cast<int64_t>(row));
      if (text.empty()) continue;
      if (need[row])
        LITGRAPH_RETURN_IF_ERROR(fresh.Add(row, std::move(text)));
      else
        old_sample.push_back(std::move(text));
    }
  } else {
    uint64_t ordinal = 0;
    try {
      r->store->ForEachText(ColumnOf(f), [&](int64_t id, std::string_view text) {
        const auto row = static_cast<uint64_t>(id);
        if (row >= rows || text.empty()) return;
        if (need[row]) {
          Status st = fresh.Add(row, std::string(text));
          if (!st.ok()) throw StatusError(st);  // ends the scan
        } else if (ordinal++ % step == 0) {
          old_sample.emplace_back(text);
        }
      });
    } catch (const StatusError& e) {
      return e.status();
    }
  }
  LITGRAPH_RETURN_IF_ERROR(fresh.Finish());
  if (f == VecField::kAbstract) MeasureDrift(r, fresh.sample(), old_sample);
  old_sample = decltype(old_sample)();
  seen[name] = rows;
  (f == VecField::kTitle      ? r->stats->titles
   : f == VecField::kAbstract ? r->stats->abstracts
                              : r->stats->keywords) = static_cast<int64_t>(fresh.rows().size());
  for (uint32_t row : fresh.rows()) delta.push_back(row);
  std::sort(delta.begin(), delta.end());
  delta.erase(std::unique(delta.begin(), delta.end()), delta.end());
  // A row's vector: a new one, else the old one kept, else none (a text with
  // no word the model knows embeds to zeros: none).
  // Asked for in ascending row order: the old base's mapping is released
  // behind (VectorFile::Release), as the scratch file's (NewVectors::Find).
  ReleaseBehind old_behind(uint64_t{1} << 17,
                           [&](uint64_t a, uint64_t b) { old.ReleaseBase(a, b); });
  auto vector_of = [&](uint64_t row) -> const float* {
    const float* v;
    if (fresh.Find(row, &v)) return v;
    if (!reuse || need[row] || (!eligible.empty() && !eligible[row])) return nullptr;
    old_behind.At(row);
    return old.Row(row);
  };
  HnswBuildOptions ho = r->o.hnsw;
  ho.threads = std::max(1, r->o.threads);
  const bool compact =
      !reuse || r->o.compact || r->o.fold_segments ||
      static_cast<double>(delta.size()) > r->o.delta_fraction * static_cast<double>(old.present());
  if (!compact) {
    // The base's files unchanged, the delta beside them.
    for (const char* ext : {".vec", ".hnsw", ".hnswlib"})
      if (r->cur->Has(name + ext)) LITGRAPH_RETURN_IF_ERROR(r->out->Inherit(*r->cur, name + ext));
    for (size_t k = 1; k <= old.segments(); ++k)
      LITGRAPH_RETURN_IF_ERROR(r->out->Inherit(*r->cur, FieldVectors::SegmentFile(name, k)));
    uint64_t present = old.present(), delta_present = 0;
    // The delta's nodes embedded again (or gone): moved in its index.
    std::vector<uint64_t> redone;
    for (uint32_t id : delta) {
      const bool has = vector_of(id) != nullptr;
      present += (has ? 1 : 0) - (old.Row(id) ? 1 : 0);
      delta_present += has ? 1 : 0;
      if (need[id] && old.InDelta(id)) redone.push_back(id);
    }
    LITGRAPH_RETURN_IF_ERROR(old.status());
    // The delta's index is extended, like the base's at a compaction, until
    // the nodes moved or gone in it since it was built reach half of it.
    json& delta_moved = r->info["delta_moved"];
    if (!delta_moved.is_object()) delta_moved = json::object();
    const uint64_t moved_total = InfoCount(delta_moved, name) + redone.size();
    const bool extend =
        r->o.index && r->cur->Has(name + ".delta.hnswlib") && moved_total * 2 <= delta_present;
    delta_moved[name] = extend ? moved_total : 0;
    auto t_index = Clock::now();
    r->o.reporter->Progress(fmt::format("indexing {} delta vectors", name));
    LITGRAPH_RETURN_IF_ERROR(FieldVectors::WriteDelta(
        r->out, name, dim, delta, [&](uint64_t i) { return vector_of(delta[i]); }, present, ho,
        r->o.index ? r->o.delta_index_min_rows : UINT64_MAX, extend ? r->cur : nullptr, redone));
    LITGRAPH_RETURN_IF_ERROR(old.status());
    *index_seconds += Since(t_index);
    r->stats->delta_rows += static_cast<int64_t>(delta.size());
    if (!r->info["vector_delta"].is_object()) r->info["vector_delta"] = json::object();
    r->info["vector_delta"][name] = delta.size();
    return Status::Ok();
  }
  r->stats->compacted = reuse;
  for (const char* key : {"vector_delta", "delta_moved", "vector_segments"})
    if (r->info.contains(key) && r->info[key].is_object()) r->info[key].erase(name);
  // A new base: every row, and the index extended by the rows the base's
  // index lacks, with the nodes whose vector changed moved (about an
  // insertion's work each, vectors.cc: Relink). A node whose vector went
  // stays as a waypoint searches never return (HnswIndex::Search), and a
  // moved node leaves a link to it in its old neighbours' lists; so once the
  // nodes moved or gone since the index was built reach half of it, it is
  // built afresh.
  // The rows the segments of a merge hold (vectors.h) are not nodes of the
  // base index: a changed one is inserted there, not moved.
  std::vector<std::vector<uint32_t>> segment_labels;
  std::vector<uint8_t> in_segment;
  uint64_t in_segments = 0;
  if (reuse && old.segments() > 0) {
    in_segment.assign(rows, 0);
    for (size_t k = 0; k < old.segments(); ++k) {
      segment_labels.push_back(old.segment(k).Labels());
      for (uint32_t l : segment_labels.back())
        if (l < rows && !in_segment[l]) {
          in_segment[l] = 1;
          ++in_segments;
        }
    }
  }
  // About: the rows with a vector that are not a segment's.
  const uint64_t base_nodes = reuse ? old.present() - std::min(old.present(), in_segments) : 0;
  std::vector<uint64_t> changed;
  bool rebuild = !reuse;
  json& moved = r->info["hnsw_moved"];
  if (!moved.is_object()) moved = json::object();
  if (reuse) {
    for (uint32_t id : delta)
      if (old.BaseRow(id) && !(id < in_segment.size() && in_segment[id])) changed.push_back(id);
    if ((InfoCount(moved, name) + changed.size()) * 2 > base_nodes) rebuild = true;
  }
  moved[name] = rebuild || !r->o.index ? 0 : InfoCount(moved, name) + changed.size();
  LITGRAPH_RETURN_IF_ERROR(VectorFile::Write(r->out, name + ".vec", dim, rows, vector_of));
  LITGRAPH_RETURN_IF_ERROR(old.status());
  fresh.Drop();
  if (!r->o.index) return Status::Ok();  // vectors only: queries scan them
  auto t_index = Clock::now();
  VectorFile vf;
  auto id = r->out->Identity(name + ".vec");
  if (!id.ok()) return id.status();
  LITGRAPH_RETURN_IF_ERROR(vf.Open(r->out->Path(name + ".vec"), *id));
  r->o.reporter->Progress(fmt::format("indexing {} vectors", name));
  // The nodes an index may have within the memory budget; at most
  // kMaxBudgetGraphs graphs a field (each one a search per query), the
  // budget raised for that when it is smaller.
  const uint64_t nodes = std::max(HnswNodesWithin(r->o.memory_budget, dim, ho.M),
                                  (vf.present() + kMaxBudgetGraphs - 1) / kMaxBudgetGraphs);
  // Extended, the base keeps its nodes and the rows past `nodes` go into new
  // segments beside the kept ones: when that could make too many graphs (at
  // most every row not in the base spills: the rows of kept segments too),
  // the index is built afresh. --fold-segments asks for one index: unbounded.
  if (!rebuild && !r->o.fold_segments) {
    const uint64_t in_base = old.has_index() ? old.base_index().nodes() : 0;
    const uint64_t held = std::min(in_base, nodes);
    const uint64_t spill = vf.present() > held ? vf.present() - held : 0;
    if (1 + old.segments() + (spill + nodes - 1) / nodes > kMaxBudgetGraphs) {
      rebuild = true;
      moved[name] = 0;
    }
  }
  if (rebuild) {
    // Built afresh within the memory budget: past it, in segments.
    size_t segments = 0;
    LITGRAPH_RETURN_IF_ERROR(BuildHnswWithin(vf, r->out, name, ho, nodes, &segments));
    if (segments > 0) {
      SetSegments(r, name, segments);
    }
    r->stats->index_segments += static_cast<int64_t>(segments);
  } else {
    std::vector<uint8_t> elsewhere;
    size_t kept_segments = 0;
    std::vector<uint64_t> folded;
    LITGRAPH_RETURN_IF_ERROR(KeepSegments(r, old, name, segment_labels, delta, rows, &elsewhere,
                                          &kept_segments, &folded));
    // A delta large enough for an index of its own (WriteDelta) is indexed
    // in a new segment, built afresh with the base's beam: its rows are not
    // inserted into the base index, nor the base nodes of the changed ones
    // moved there, which at 1M papers took 138 s for 300k rows. The
    // delta's own index, built with the delta's smaller beam for a while,
    // is not kept: at 1M papers, kept as a segment it found the new papers'
    // titles with recall@10 0.971 against 0.995 (bench/results/
    // 2026-11-28-delta-segments). The base index stays as it is: the nodes of
    // the changed rows where their old vectors put them (counted as moved
    // above). Not when a segment was folded (its rows go into the base
    // index) or the graphs would pass kMaxDeltaSegmentGraphs.
    std::vector<uint64_t> live;  // the delta's rows with a vector
    ReleaseBehind behind(uint64_t{1} << 17, [&](uint64_t a, uint64_t b) { vf.Release(a, b); });
    for (uint32_t id : delta) {
      behind.At(id);
      if (vf.Row(id)) live.push_back(id);
    }
    behind.All();
    LITGRAPH_RETURN_IF_ERROR(vf.status());
    const bool delta_segment = !r->o.fold_segments && folded.empty() && old.has_index() &&
                               delta.size() >= r->o.delta_index_min_rows && live.size() <= nodes &&
                               kept_segments + 2 <= kMaxDeltaSegmentGraphs;
    if (delta_segment) {
      for (const char* ext : {".hnsw", ".hnswlib"})
        if (r->cur->Has(name + ext)) LITGRAPH_RETURN_IF_ERROR(r->out->Inherit(*r->cur, name + ext));
      size_t added = 0;
      LITGRAPH_RETURN_IF_ERROR(
          BuildHnswSegments(vf, live, r->out, name, ho, nodes, kept_segments, &added));
      SetSegments(r, name, kept_segments + added);
      r->stats->index_segments += static_cast<int64_t>(added);
    } else {
      // A folded segment's rows that are base nodes too (a compaction indexed
      // their new vectors in the segment) are moved there.
      std::vector<uint64_t> moving = changed;
      moving.insert(moving.end(), folded.begin(), folded.end());
      ho.max_nodes = nodes;
      std::vector<uint64_t> spilled;
      LITGRAPH_RETURN_IF_ERROR(BuildHnsw(vf, r->out, name, ho, r->cur, moving, {}, elsewhere,
                                         r->o.fold_segments ? nullptr : &spilled));
      if (!spilled.empty()) {
        size_t added = 0;
        LITGRAPH_RETURN_IF_ERROR(
            BuildHnswSegments(vf, spilled, r->out, name, ho, nodes, kept_segments, &added));
        SetSegments(r, name, kept_segments + added);
        r->stats->index_segments += static_cast<int64_t>(added);
      }
    }
  }
  *index_seconds += Since(t_index);
  return Status::Ok();
}

}  // namespace

const char* VecFieldName(VecField f) {
  switch (f) {
    case VecField::kTitle:
      return "title";
    case VecField::kAbstract:
      return "abstract";
    case VecField::kKeyword:
      return "keyword";
  }
  return "";
}

Status RunEmbed(Store* store, const EmbedRunOptions& o, EmbedRunStats* stats) {
  auto t0 = Clock::now();
  try {
    // SQLite within the budget: texts are read once, front to back, so a
    // sixteenth as page cache and an eighth mapped (the writer's defaults,
    // 512 MiB and 1 GiB, would sit beside the training matrix and the HNSW
    // build: doc/memory.md).
    store->LimitSqliteMemory(o.memory_budget / 16, o.memory_budget / 8);
    auto cur = store->Current("vectors");
    if (!cur.ok()) return cur.status();
    auto out = GenerationBuilder::Start(store, "vectors");
    if (!out.ok()) return out.status();
    const json kept = InfoOf(*cur);
    EmbedRun r{store, o, stats, kept, *cur, out->get(), true, nullptr, {}};
    r.full = !o.missing || r.cur == nullptr;
    LITGRAPH_RETURN_IF_ERROR(ChooseModel(&r));
    // A run that keeps the current vectors keeps their bookkeeping.
    if (!r.full)
      for (const char* key : {"vector_delta", "hnsw_moved", "delta_moved", "embedded_rows"})
        if (!r.info.contains(key) && kept.contains(key)) r.info[key] = kept[key];
    if (!r.full)
      for (int64_t id : store->PaperIdsWithStaleVectors()) r.stale.push_back(id);
    stats->changed = static_cast<int64_t>(r.stale.size());
    stats->dim = r.embedder->dim();
    stats->model_id = r.embedder->model_id();
    auto t_embed = Clock::now();
    double index_seconds = 0;
    for (VecField f : {VecField::kTitle, VecField::kAbstract, VecField::kKeyword})
      LITGRAPH_RETURN_IF_ERROR(EmbedField(&r, f, &index_seconds));
    stats->index_seconds = index_seconds;
    stats->embed_seconds = Since(t_embed) - index_seconds;
    r.info["model_id"] = stats->model_id;
    r.info["dim"] = stats->dim;
    r.info["generation"] = (*out)->number();
    (*out)->info() = r.info;
    Transaction txn(&store->db(), "IMMEDIATE");
    store->db().Exec("DELETE FROM vectors_stale");  // all embedded again (writers serialize)
    LITGRAPH_RETURN_IF_ERROR((*out)->Commit());
    txn.Commit();
  } catch (const StatusError& e) {
    return e.status();
  } catch (const fs::filesystem_error& e) {
    return Status::IoError(e.what());
  }
  stats->seconds = Since(t0);
  return Status::Ok();
}

Result<std::unique_ptr<SemanticIndex>> SemanticIndex::Open(Store* store,
                                                           const std::string& http_key) {
  auto view = store->Current("vectors");
  if (!view.ok()) return view.status();
  if (*view == nullptr)
    return Status::NotFound(
        fmt::format("{}: the store has no vectors yet (run litgraph-embed)", store->dir()));
  std::unique_ptr<SemanticIndex> s(new SemanticIndex());
  s->view_ = *view;
  json info = InfoOf(s->view_);
  s->model_id_ = InfoStr(info, "model_id");
  if (InfoStr(info, "backend") == "http") {
    HttpEmbedOptions ho;
    ho.url = InfoStr(info, "url");
    ho.model = InfoStr(info, "model");
    ho.http.api_key = http_key;
    s->embedder_ = std::make_unique<HttpEmbedder>(ho);
  } else {
    auto id = s->view_->Identity("model");
    if (!id.ok()) return id.status();
    auto lsa = std::make_unique<LsaModel>();
    LITGRAPH_RETURN_IF_ERROR(lsa->Open(s->view_->Path("model"), *id));
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
    Status st = fl.vec.Open(*view_, VecFieldName(f));
    fl.ok = st.ok();
    // A field that failed to open answers nothing and status() reports why.
    if (!st.ok() && status_.ok()) status_ = st;
  }
  return fl;
}

const FieldVectors& SemanticIndex::vectors(VecField f) {
  static const FieldVectors kNone;
  const Field& fl = Get(f);
  return fl.ok ? fl.vec : kNone;
}

Status SemanticIndex::status() const {
  LITGRAPH_RETURN_IF_ERROR(status_);
  if (lsa_) LITGRAPH_RETURN_IF_ERROR(lsa_->status());
  for (const Field& fl : fields_)
    if (fl.ok) LITGRAPH_RETURN_IF_ERROR(fl.vec.status());
  return Status::Ok();
}

std::vector<VectorHit> SemanticIndex::Search(VecField f, const float* query, size_t k, size_t ef) {
  return vectors(f).Search(query, k, ef);
}

Result<QueryVector> SemanticIndex::EmbedQuery(const std::string& text) {
  QueryVector q;
  q.text = text;
  auto v = EmbedText(text);
  if (!v.ok()) return v.status();
  q.dense = std::move(v.value());
  // The lexical part covers words the model has not seen too (embed.h), so a
  // query of new words still finds the papers that use them.
  if (lexical_weight_ > 0) q.sparse = lsa_->EmbedSparse(text);
  return q;
}

QueryVector SemanticIndex::PaperQuery(const std::vector<uint64_t>& papers,
                                      const std::string& text) {
  QueryVector q;
  q.text = text;
  const int dim = vectors(VecField::kTitle).dim() ? vectors(VecField::kTitle).dim()
                                                  : vectors(VecField::kAbstract).dim();
  std::vector<double> sum(static_cast<size_t>(std::max(dim, 0)), 0.0);
  bool any = false;
  for (uint64_t id : papers) {
    const float* t =
        vectors(VecField::kTitle).dim() == dim ? vectors(VecField::kTitle).Row(id) : nullptr;
    const float* a =
        vectors(VecField::kAbstract).dim() == dim ? vectors(VecField::kAbstract).Row(id) : nullptr;
    if (!t && !a) continue;
    const double wt = t ? 0.4 : 0, wa = a ? 0.6 : 0;
    for (int i = 0; i < dim; ++i) sum[i] += (wt * (t ? t[i] : 0) + wa * (a ? a[i] : 0)) / (wt + wa);
    any = true;
  }
  double norm = 0;
  for (double x : sum) norm += x * x;
  if (any && norm > 0) {
    norm = std::sqrt(norm);
    q.dense.resize(sum.size());
    for (size_t i = 0; i < sum.size(); ++i) q.dense[i] = static_cast<float>(sum[i] / norm);
  }
  if (lexical_weight_ > 0) q.sparse = lsa_->EmbedSparse(text);
  return q;
}

const SparseVector& SemanticIndex::StoredSparse(VecField f, uint64_t id) {
  auto& cache = sparse_cache_[static_cast<int>(f)];
  auto it = cache.find(id);
  if (it != cache.end()) return it->second;
  if (cache.size() >= 100000) cache.clear();  // a long-lived index stays bounded
  SparseVector v =
      lsa_->EmbedSparse(store_->GetText(ColumnOf(f), static_cast<int64_t>(id)), &sparse_words_);
  return cache.emplace(id, std::move(v)).first->second;
}

bool SemanticIndex::Score(const QueryVector& q, VecField f, uint64_t id, double* score) {
  if (q.empty()) return false;
  const float* row = q.dense.empty() ? nullptr : vectors(f).Row(id);
  const double dense = row ? Dot(q.dense.data(), row, static_cast<int>(q.dense.size())) : 0;
  if (lexical_weight_ <= 0) {
    *score = dense;
    return row != nullptr;
  }
  // A paper without a vector (embedded before its words were known, or not
  // embedded yet) still scores by the lexical part.
  const SparseVector& stored = StoredSparse(f, id);
  if (!row && stored.empty()) return false;
  *score = (1 - lexical_weight_) * dense + lexical_weight_ * SparseDot(q.sparse, stored);
  return true;
}

std::vector<VectorHit> SemanticIndex::Search(VecField f, const QueryVector& q, size_t k,
                                             size_t depth, size_t ef,
                                             const std::vector<uint32_t>& extra) {
  std::vector<VectorHit> hits;
  if (q.empty()) return hits;
  std::vector<VectorHit> dense;
  if (!q.dense.empty()) dense = Search(f, q.dense.data(), std::max(k, depth), std::max(ef, depth));
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
    return Status::IoError(
        fmt::format("the embedding model returns {} dimensions but the store's "
                    "vectors have {}",
                    embedder_->dim(), vectors(VecField::kTitle).dim()));
  if (std::all_of(v.begin(), v.end(), [](float x) { return x == 0; })) v.clear();
  return v;
}

}  // namespace litgraph
