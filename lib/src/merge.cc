// litgraph-merge's library (merge.h): shards applied through ingest's
// writer, keywords and vectors carried over by external id, derived files
// built once.
#include "litgraph/merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <thread>

#include "litgraph/bounded_queue.h"
#include "litgraph/generation.h"
#include "litgraph/graph_build.h"
#include "litgraph/keyword_store.h"
#include "litgraph/lexical.h"
#include "litgraph/phrase_count.h"
#include "litgraph/report.h"
#include "litgraph/semantic.h"
#include "litgraph/store.h"
#include "litgraph/store_merge.h"
#include "litgraph/store_write.h"
#include "scoped_thread.h"
#include "text_feeder.h"

namespace litgraph {

namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

struct Shard {
  std::string dir;
  std::unique_ptr<Store> store;
  const GenerationView* vectors = nullptr;  // its current vectors generation, or null
  std::string model_id;
  bool has_keywords = false;  // it has phrase statistics (keywords were extracted)
};

// Where each row of OUT gets its vector: (shard index + 1) << 32 | the
// shard's row, 0 for none (OUT's own vector, if any, stays). 8 bytes per row.
class RowSources {
 public:
  // Room for rows 0..rows-1 (an upper bound: OUT's rows plus the shards').
  void Reserve(uint64_t rows) { src_.assign(rows, 0); }
  void Set(int64_t row, size_t shard, int64_t shard_row) {
    const auto r = static_cast<size_t>(row);
    if (r >= src_.size()) src_.resize(std::max(r + 1, src_.size() + src_.size() / 2), 0);
    src_[r] = (static_cast<uint64_t>(shard) + 1) << 32 | static_cast<uint32_t>(shard_row);
  }
  void SetIfUnset(int64_t row, size_t shard, int64_t shard_row) {
    size_t s;
    uint64_t r;
    if (!Get(static_cast<uint64_t>(row), &s, &r)) Set(row, shard, shard_row);
  }
  // False when the row has no shard source.
  bool Get(uint64_t row, size_t* shard, uint64_t* shard_row) const {
    if (row >= src_.size() || src_[row] == 0) return false;
    *shard = (src_[row] >> 32) - 1;
    *shard_row = src_[row] & 0xffffffffu;
    return true;
  }

 private:
  std::vector<uint64_t> src_;
};

std::string ModelOf(const GenerationView* v) {
  if (!v || !v->info().is_object()) return "";
  auto it = v->info().find("model_id");
  return it != v->info().end() && it->is_string() ? it->get<std::string>() : "";
}

// Opens the shards (read snapshots) and checks that they can be merged:
// none is OUT itself, and, when vectors are carried over, all have vectors
// of one model, OUT's too when it has vectors.
Status OpenShards(Store* out, const std::vector<std::string>& dirs, const MergeOptions& options,
                  std::vector<Shard>* shards) {
  for (const std::string& dir : dirs) {
    Shard& s = shards->emplace_back();
    s.dir = dir;
    auto st = Store::Open(dir, Store::Mode::kRead);
    if (!st.ok()) return st.status();
    s.store = std::move(st.value());
    if (s.store->id() == out->id())
      return Status::InvalidArgument(
          fmt::format("{}: is the output store itself (merge other stores into it)", dir));
    auto v = s.store->Current("vectors");
    if (!v.ok()) return v.status();
    s.vectors = *v;
    s.model_id = ModelOf(s.vectors);
    auto k = s.store->Current("keywords");
    if (!k.ok()) return k.status();
    s.has_keywords = *k != nullptr;
  }
  if (!options.vectors) return Status::Ok();
  const Shard* with = nullptr;     // the first shard with vectors
  const Shard* without = nullptr;  // the first without
  for (const Shard& s : *shards) {
    if (!s.vectors) {
      if (!without) without = &s;
    } else if (!with) {
      with = &s;
    } else if (with->model_id != s.model_id) {
      return Status::InvalidArgument(fmt::format(
          "the shards' embedding models differ: {} has {}, {} has {} (embed every shard with "
          "`litgraph-embed --model-from` one store, or merge with --no-vectors)",
          with->dir, with->model_id, s.dir, s.model_id));
    }
  }
  if (with && without)
    return Status::InvalidArgument(
        fmt::format("{} has vectors but {} has none (embed it with `litgraph-embed --model-from "
                    "{}`, or merge with --no-vectors)",
                    with->dir, without->dir, with->dir));
  auto cur = out->Current("vectors");
  if (!cur.ok()) return cur.status();
  if (with && *cur && ModelOf(*cur) != with->model_id)
    return Status::InvalidArgument(fmt::format(
        "the output store's vectors were made by {} but {}'s by {} (merge with --no-vectors and "
        "re-embed, or embed the shards with `litgraph-embed --model-from` the output store)",
        ModelOf(*cur), with->dir, with->model_id));
  return Status::Ok();
}

// What the reader thread hands the writer: a run of a shard's works.
struct Batch {
  std::vector<StoredWork> works;
  Status error;  // the shard could not be read: ends the merge
};

// The batches between the two threads (at most 8 waiting).
using BatchQueue = BoundedQueue<Batch>;

// The reader thread of a shard whose works are applied one by one: its works
// in batches of 512.
void ReadShard(Store* store, BatchQueue* queue) {
  Batch batch;
  Status st;
  try {
    st = ForEachStoredWork(store, [&](StoredWork& w) {
      batch.works.push_back(std::move(w));
      if (batch.works.size() >= 512) {
        queue->Push(std::move(batch));
        batch = Batch();
      }
    });
  } catch (const StatusError& e) {
    st = e.status();
  }
  batch.error = st;
  queue->Push(std::move(batch));
  queue->Done();
}

// The texts of the store at `dir`, read on a connection of its own, handed
// to `feeder` (when given) as those of papers first, first + 1, ... (the ids
// a copy gives its papers in OUT) and, when given, counted by `phrases`;
// counts them in `*fed`. Stops early once `stop` is set.
Status FeedTexts(const std::string& dir, int64_t first, TextFeeder* feeder, PhraseCounter* phrases,
                 const std::atomic<bool>& stop, int64_t* fed) {
  try {
    auto s = Store::Open(dir, Store::Mode::kRead);
    if (!s.ok()) return s.status();
    (*s)->ForEachPaperText([&](int64_t, std::string_view title, std::string_view abstract) {
      if (stop.load(std::memory_order_relaxed)) return;
      if (phrases) phrases->AddDocument(title, abstract);
      if (feeder) feeder->Add(first + *fed, std::string(title), std::string(abstract));
      ++*fed;
    });
  } catch (const StatusError& e) {
    return e.status();
  } catch (const std::exception& e) {
    return Status::Internal(fmt::format("{}: reading texts: {}", dir, e.what()));
  }
  return Status::Ok();
}

// The kept runs of a shard's lexical indexes (lexical.h), when a copy of its
// papers may take them instead of tokenizing their texts: its papers are ids
// 1..n, so that the copy gives paper p the id first - 1 + p, and its graph
// holds every paper's current text (no ingest --no-graph since).
Status ShardKeptRuns(Store* shard, std::unique_ptr<KeptRuns>* runs) {
  runs->reset();
  if (shard->GetMeta("graph_stale") == "1") return Status::Ok();
  auto count = shard->db().QueryInt("SELECT count(*) FROM paper");
  if (!count || *count != shard->MaxId(NodeType::kPaper)) return Status::Ok();
  auto graph = shard->Current("graph");
  if (!graph.ok()) return graph.status();
  if (!*graph) return Status::Ok();
  auto kept = std::make_unique<KeptRuns>();
  bool usable = false;
  LITGRAPH_RETURN_IF_ERROR(kept->Open(**graph, &usable));
  if (usable) *runs = std::move(kept);
  return Status::Ok();
}

// The phrase counts a shard's extract-keywords kept (keyword_store.h,
// KeepPhraseCounts), when they count exactly its papers' current texts: made
// at the store's present text version, over as many documents as it has
// papers. False otherwise (counts from an older release, or texts written
// since).
bool ShardPhraseCounts(Store* shard, PhraseFile* counts) {
  auto view = shard->Current("keywords");
  if (!view.ok() || !*view || !(*view)->Has(kPhraseCountsFile)) return false;
  const nlohmann::json& info = (*view)->info().value("phrase_counts", nlohmann::json::object());
  if (info.value("text_version", int64_t{-1}) != shard->TextVersion() ||
      info.value("documents", int64_t{-1}) != shard->PaperCount())
    return false;
  auto id = (*view)->Identity(kPhraseCountsFile);
  if (!id.ok()) return false;
  *counts = {(*view)->Path(kPhraseCountsFile), *id};
  return true;
}

// Applies every shard's entity records, then its works with their keywords,
// in order; records where each written row's vectors are. A shard none of
// whose works OUT holds yet (every shard of a merge into an empty store,
// unless shards overlap) is copied table by table (CopyStoredWorks, the
// same rows), its texts fed to `feeder` and counted by `phrases` meanwhile;
// the lexical builders take the papers of a copied shard from its kept runs
// instead when they can (ShardKeptRuns: added on the feeder's thread in
// order with its texts, the first failure in `*kept_status`, which the
// caller reads once the feeder has finished). The others' works
// are read on a thread of their own and applied one by one, each an upsert
// that compares dates.
Status ApplyShards(Store* out, std::vector<Shard>& shards, bool bulk, const MergeOptions& options,
                   WriteCounts* counts, RowSources* papers, LexicalBuilders* lexical,
                   TextFeeder* feeder, PhraseCounter* phrases, Status* kept_status,
                   MergeStats* stats) {
  RecordWriter writer(out, counts, [&](int64_t id, std::string&& title, std::string&& abstract) {
    if (feeder) feeder->Add(id, std::move(title), std::move(abstract));
  });
  std::map<std::string, std::unique_ptr<KeywordWriter>> keyword_writers;
  KeywordWriter copied_keywords(out, "", options.memory_budget / 8);  // ids only
  const auto t0 = Clock::now();
  auto last_progress = t0;
  auto progress = [&](size_t i, std::string_view step) {
    if (Since(last_progress) <= 0.5) return;
    last_progress = Clock::now();
    options.reporter->Progress(fmt::format("shard {}/{}: {} works, {:.0f} works/s{}", i + 1,
                                           shards.size(), counts->works,
                                           static_cast<double>(counts->works) / Since(t0), step));
  };
  const WorkKeys no_keys;
  for (size_t i = 0; i < shards.size(); ++i) {
    Store* store = shards[i].store.get();
    ForEachStoredEntity(store, [&](Record& r) { writer.Apply(r, no_keys); });
    if (options.copy_works && CanCopyStoredWorks(out, store)) {
      // The copy gives the shard's papers the ids after OUT's last, in
      // order: the lexical indexes tokenize their texts meanwhile (else the
      // copy of the papers would wait for the tokenizer).
      const int64_t first = out->MaxId(NodeType::kPaper) + 1;
      // Its lexical postings from its kept runs (in order with the texts
      // fed before), else from its texts.
      std::unique_ptr<KeptRuns> runs;
      if (feeder) LITGRAPH_RETURN_IF_ERROR(ShardKeptRuns(store, &runs));
      const bool from_runs = runs != nullptr;
      const auto shift = static_cast<uint32_t>(first - 1);
      if (from_runs) {  // (the runs are unmapped once added)
        feeder->Then([lexical, kept_status, r = std::shared_ptr<KeptRuns>(std::move(runs)), shift] {
          if (kept_status->ok()) *kept_status = r->AddTo(lexical, shift);
        });
        stats->works_from_kept_runs += store->MaxId(NodeType::kPaper);
      }
      TextFeeder* texts_to = from_runs ? nullptr : feeder;
      // Its phrases from the counts its own extract-keywords kept, else
      // from its texts.
      PhraseCounter* count_to = phrases;
      PhraseFile kept_counts;
      if (phrases && ShardPhraseCounts(store, &kept_counts)) {
        phrases->AddCounts(kept_counts.path, kept_counts.id);
        stats->works_from_kept_counts += store->PaperCount();
        count_to = nullptr;
      }
      Status texts_status;
      int64_t texts_fed = 0;
      std::atomic<bool> stop_texts{false};
      ScopedThread texts([&] { stop_texts = true; },  // the copy failed
                         !texts_to && !count_to ? std::function<void()>() : [&] {
                           texts_status = FeedTexts(shards[i].dir, first, texts_to, count_to,
                                                    stop_texts, &texts_fed);
                         });
      CopiedWorks copied;
      std::string step;
      bool contiguous = true;
      LITGRAPH_RETURN_IF_ERROR(CopyStoredWorks(
          out, store, &writer, &copied_keywords,
          [&](const CopiedPaper& p) {
            contiguous &= p.id == first + copied.works - 1;          // counted before fn
            contiguous &= !from_runs || p.id == p.shard_id + shift;  // the runs' ids
            if (shards[i].vectors && !p.vectors_stale) papers->Set(p.id, i, p.shard_id);
            ++counts->works;
            progress(i, step);
          },
          [&](std::string_view name) {
            step = fmt::format(", copying {}", name);
            last_progress = t0;  // report each step
            progress(i, step);
          },
          &copied));
      texts.Join();
      LITGRAPH_RETURN_IF_ERROR(texts_status);
      // The texts read apart are those of the papers copied, one for one.
      if (!contiguous || ((texts_to || count_to) && texts_fed != copied.works))
        return Status::Internal(
            fmt::format("{}: {} papers copied with ids from {} {}, {} texts read", shards[i].dir,
                        copied.works, first, contiguous ? "in order" : "out of order", texts_fed));
      counts->works_new += copied.works;
      counts->references += copied.references;
      stats->paper_keywords += copied.paper_keywords;
      stats->works_copied += copied.works;
      continue;
    }
    BatchQueue queue(8);
    ScopedThread reader([&] { queue.Close(); }, [&] { ReadShard(store, &queue); });
    Batch batch;
    while (queue.Pop(&batch)) {
      for (StoredWork& w : batch.works) {
        const int64_t id = writer.Apply(w.record, w.keys);
        if (id == 0) continue;  // OUT holds a newer version
        if (w.keywords_extracted) {
          auto& kw = keyword_writers[w.keyword_backend];
          if (!kw)
            kw = std::make_unique<KeywordWriter>(out, w.keyword_backend, options.memory_budget / 8);
          stats->paper_keywords += kw->Write(id, w.keywords);
        }
        if (shards[i].vectors && !w.vectors_stale) {
          papers->Set(id, i, w.id);
          if (!bulk) ClearVectorsStale(out, id);  // the shard's vectors are of its text
        }
      }
      if (!batch.error.ok()) return batch.error;
      progress(i, "");
    }
  }
  options.reporter->Progress("");
  return Status::Ok();
}

// Keeps as segments of field `name` (vectors.h) the indexes of the shards
// whose index holds exactly the vectors they give the merged store, none of
// them a node of the base index (`base_rows`: the store whose index is
// extended, or null): each shard's rows relabelled with their merged ids;
// the `max_segments` of them with the most rows when more qualify.
// Flags the rows the segments hold in `elsewhere` (one byte per row) and
// counts the segments written in `*segments`.
Status WriteSegments(std::vector<Shard>& shards, const std::vector<FieldVectors>& from,
                     const RowSources& src, const std::vector<std::vector<uint32_t>>* same_text,
                     const VectorFile& merged, const FieldVectors& own, bool keep_own,
                     const FieldVectors* base_rows, const std::string& name, GenerationBuilder* g,
                     size_t max_segments, std::vector<uint8_t>* elsewhere, size_t* segments,
                     MergeStats* stats) {
  // Each candidate shard's rows -> their merged rows (4 bytes per row).
  std::vector<std::vector<uint32_t>> merged_row(shards.size());
  for (size_t i = 0; i < shards.size(); ++i)
    if (from[i].OneIndex() && base_rows != &from[i]) merged_row[i].assign(from[i].rows(), kNoLabel);
  const uint64_t rows = merged.rows();
  for (uint64_t r = 0; r < rows; ++r) {
    size_t shard;
    uint64_t shard_row;
    if (src.Get(r, &shard, &shard_row) && shard_row < merged_row[shard].size())
      merged_row[shard][shard_row] = static_cast<uint32_t>(r);
  }
  elsewhere->assign(rows, 0);
  std::vector<uint64_t> live(shards.size(), 0);
  for (size_t i = 0; i < shards.size(); ++i) {
    std::vector<uint32_t>& to = merged_row[i];
    if (to.empty()) continue;
    // Every vector of the shard must be the merged row's, and that row no
    // node of the base index; else, when the field's vectors are functions of
    // their text (`same_text`: each shard row's merged row, a keyword's), the
    // node is a waypoint scored by the merged row's vector, which is the same
    // and is indexed elsewhere. Any other row another shard or OUT replaced,
    // or an OUT row the shard replaced, disqualifies the shard: its rows are
    // inserted.
    const std::vector<uint32_t>* all = same_text ? &(*same_text)[i] : nullptr;
    bool whole = true;
    for (uint64_t r = 0; r < to.size() && whole; ++r) {
      if (!from[i].Row(r)) {
        to[r] = kNoLabel;  // no vector here: a node that returns nothing
        continue;
      }
      const uint32_t m = to[r];
      if (m < kWaypoint && !(keep_own && own.Row(m)) && !(base_rows && base_rows->BaseRow(m))) {
        ++live[i];
        continue;
      }
      const uint32_t same = all && r < all->size() ? (*all)[r] : kNoLabel;
      whole = same < kWaypoint;
      to[r] = kWaypoint | same;
    }
    LITGRAPH_RETURN_IF_ERROR(from[i].status());
    LITGRAPH_RETURN_IF_ERROR(own.status());
    if (!whole) to.clear();
  }
  // The shards with the most live rows keep their indexes, up to the cap;
  // segments are numbered in shard order.
  std::vector<size_t> kept;
  for (size_t i = 0; i < shards.size(); ++i)
    if (!merged_row[i].empty() && live[i] > 0) kept.push_back(i);
  std::stable_sort(kept.begin(), kept.end(), [&](size_t a, size_t b) { return live[a] > live[b]; });
  if (kept.size() > max_segments) kept.resize(max_segments);
  std::sort(kept.begin(), kept.end());
  for (size_t i : kept) {
    const std::vector<uint32_t>& to = merged_row[i];
    uint64_t labelled = 0;
    const size_t k = ++*segments;
    ++stats->vector_segments;
    LITGRAPH_RETURN_IF_ERROR(WriteHnswSegment(
        *shards[i].vectors, name + ".hnsw",
        [&](uint64_t node, uint32_t) { return node < to.size() ? to[node] : kNoLabel; }, g,
        FieldVectors::SegmentFile(name, k), &labelled));
    for (uint32_t m : to)
      if (m < kWaypoint) (*elsewhere)[m] = 1;
    stats->vectors_in_segments += static_cast<int64_t>(labelled);
  }
  return Status::Ok();
}

// The vectors generation of the merged store in the making. Start and
// Commit read and write OUT's SQLite, on the merge's thread; Write reads
// only files (OUT's generation and the shards'), so it runs beside the
// graph build.
struct VectorsJob {
  const GenerationView* cur = nullptr;  // OUT's vectors before the merge (or null)
  std::unique_ptr<GenerationBuilder> g;
  uint64_t paper_rows = 0, keyword_rows = 0;  // OUT's id spaces (max id + 1)
  // With keyword vectors only for keywords of at least N papers (embed
  // --keyword-min-papers, in the model's info): the keyword rows that have
  // one (empty: every row), and the vectors of those no store had (keywords
  // shared once merged), embedded by EmbedSharedKeywords.
  std::vector<char> keyword_eligible;
  std::vector<uint32_t> embedded_rows;  // ascending
  std::vector<float> embedded;          // dim floats for each of embedded_rows
};

Status StartVectors(Store* out, VectorsJob* job) {
  auto cur = out->Current("vectors");
  if (!cur.ok()) return cur.status();
  job->cur = *cur;
  auto gen = GenerationBuilder::Start(out, "vectors");
  if (!gen.ok()) return gen.status();
  job->g = std::move(gen.value());
  job->paper_rows = static_cast<uint64_t>(out->MaxId(NodeType::kPaper)) + 1;
  job->keyword_rows = static_cast<uint64_t>(out->MaxId(NodeType::kKeyword)) + 1;
  return Status::Ok();
}

// The keyword vectors a merge makes (VectorsJob): read and embedded on the
// merge's thread, as they need OUT's SQLite. `keyword_rows`: each shard's
// keyword rows -> OUT's. Memory: a byte per keyword row, and the vectors of
// the keywords that only the merge made shared.
Status EmbedSharedKeywords(Store* out, std::vector<Shard>& shards,
                           const std::vector<std::vector<uint32_t>>& keyword_rows,
                           RowSources* keywords, VectorsJob* job, Reporter* reporter) {
  const GenerationView* model = job->cur;
  for (const Shard& s : shards)
    if (s.vectors && !model) model = s.vectors;
  if (!model) return Status::Ok();
  const int64_t min_papers = model->info().value("keyword_min_papers", int64_t{1});
  if (min_papers <= 1) return Status::Ok();
  const uint64_t rows = job->keyword_rows;
  job->keyword_eligible.assign(rows, 0);
  out->ForEachKeywordOfPapers(min_papers, [&](int64_t id) {
    if (id >= 0 && static_cast<uint64_t>(id) < rows) job->keyword_eligible[id] = 1;
  });
  // The rows some store has a vector for (a keyword's vector is a function
  // of its text): taken from the first shard that has one, which need not be
  // the first shard that has the keyword.
  std::vector<char> has(rows, 0);
  if (job->cur && job->cur->Has("keyword.vec")) {
    FieldVectors own;
    LITGRAPH_RETURN_IF_ERROR(own.Open(*job->cur, "keyword"));
    for (uint64_t r = 0; r < rows && r < own.rows(); ++r) has[r] = own.Row(r) != nullptr;
    LITGRAPH_RETURN_IF_ERROR(own.status());
  }
  for (size_t i = 0; i < shards.size(); ++i) {
    if (!shards[i].vectors || !shards[i].vectors->Has("keyword.vec")) continue;
    FieldVectors from;
    LITGRAPH_RETURN_IF_ERROR(from.Open(*shards[i].vectors, "keyword"));
    const auto& map = keyword_rows[i];
    for (uint64_t r = 0; r < map.size() && r < from.rows(); ++r)
      if (map[r] < rows && !has[map[r]] && from.Row(r)) {
        has[map[r]] = 1;
        keywords->Set(map[r], i, static_cast<int64_t>(r));
      }
    LITGRAPH_RETURN_IF_ERROR(from.status());
  }
  for (uint64_t r = 0; r < rows; ++r)
    if (job->keyword_eligible[r] && !has[r]) job->embedded_rows.push_back(static_cast<uint32_t>(r));
  if (job->embedded_rows.empty()) return Status::Ok();
  if (!model->Has("model")) {
    reporter->Warn(
        fmt::format("{} keywords came to be shared by the merge and have no vector: "
                    "run litgraph-embed --missing on the merged store",
                    job->embedded_rows.size()));
    job->embedded_rows.clear();
    return Status::Ok();
  }
  LsaModel lsa;
  auto id = model->Identity("model");
  if (!id.ok()) return id.status();
  LITGRAPH_RETURN_IF_ERROR(lsa.Open(model->Path("model"), *id));
  const size_t dim = static_cast<size_t>(lsa.dim());
  constexpr size_t kChunk = 4096;
  std::vector<std::string> texts;
  std::vector<float> vecs;
  for (size_t i = 0; i < job->embedded_rows.size(); i += kChunk) {
    texts.clear();
    for (size_t j = i; j < std::min(i + kChunk, job->embedded_rows.size()); ++j)
      texts.push_back(out->GetText(TextColumn::kKeywordText, job->embedded_rows[j]));
    LITGRAPH_RETURN_IF_ERROR(lsa.Embed(texts, &vecs));
    job->embedded.insert(job->embedded.end(), vecs.begin(), vecs.begin() + texts.size() * dim);
  }
  LITGRAPH_RETURN_IF_ERROR(lsa.status());
  reporter->Note(fmt::format("{} keywords came to be shared by the merge: embedded",
                             job->embedded_rows.size()));
  return Status::Ok();
}

// The vectors generation's files: the model (OUT's, else the shards'), each
// field's rows from the shard that wrote the row last, else OUT's own, and
// HNSW indexes over them; its info, committed by the caller.
Status WriteVectors(VectorsJob* job, std::vector<Shard>& shards, const RowSources& papers,
                    const RowSources& keywords,
                    const std::vector<std::vector<uint32_t>>& keyword_rows,
                    const MergeOptions& options, MergeStats* stats) {
  const GenerationView* cur = job->cur;
  const GenerationView* first = nullptr;
  for (const Shard& s : shards)
    if (s.vectors && !first) first = s.vectors;
  const GenerationView* model = cur ? cur : first;
  GenerationBuilder* g = job->g.get();
  if (model->Has("model"))
    LITGRAPH_RETURN_IF_ERROR(model == cur ? g->Inherit(*model, "model")
                                          : g->Import(*model, "model"));
  nlohmann::json info = model->info();
  const int dim = info.value("dim", 0);
  // The merged generation is a base with, maybe, segments; no delta.
  for (const char* key : {"vector_delta", "delta_moved", "vector_segments", "segment_stale"})
    info.erase(key);
  for (VecField f : {VecField::kTitle, VecField::kAbstract, VecField::kKeyword}) {
    const std::string name = VecFieldName(f);
    const RowSources& src = f == VecField::kKeyword ? keywords : papers;
    // Each store's vectors as its queries see them: the base and the delta of
    // its embed --missing runs (vectors.h).
    std::vector<FieldVectors> from(shards.size());
    for (size_t i = 0; i < shards.size(); ++i)
      if (shards[i].vectors && shards[i].vectors->Has(name + ".vec")) {
        LITGRAPH_RETURN_IF_ERROR(from[i].Open(*shards[i].vectors, name));
        if (from[i].dim() != dim)
          return Status::Corruption(fmt::format("{}: {} dimensions, the model has {}",
                                                shards[i].vectors->Path(name + ".vec"),
                                                from[i].dim(), dim));
      }
    FieldVectors own;
    if (cur && cur->Has(name + ".vec")) LITGRAPH_RETURN_IF_ERROR(own.Open(*cur, name));
    const NodeType type = f == VecField::kKeyword ? NodeType::kKeyword : NodeType::kPaper;
    const bool keep_own = f == VecField::kKeyword;  // a function of the text alone
    const uint64_t rows = type == NodeType::kKeyword ? job->keyword_rows : job->paper_rows;
    const bool eligible = keep_own && !job->keyword_eligible.empty();
    LITGRAPH_RETURN_IF_ERROR(
        VectorFile::Write(g, name + ".vec", dim, rows, [&](uint64_t row) -> const float* {
          if (eligible) {
            if (!job->keyword_eligible[row]) return nullptr;
            const auto& e = job->embedded_rows;
            auto it = std::lower_bound(e.begin(), e.end(), row);
            if (it != e.end() && *it == row) {
              const float* v = job->embedded.data() + static_cast<size_t>(it - e.begin()) * dim;
              return std::any_of(v, v + dim, [](float x) { return x != 0; }) ? v : nullptr;
            }
          }
          const float* mine = own.dim() == dim ? own.Row(row) : nullptr;
          if (mine && keep_own) return mine;
          size_t shard;
          uint64_t shard_row;
          if (src.Get(row, &shard, &shard_row)) return from[shard].Row(shard_row);
          return mine;
        }));
    for (const FieldVectors& v : from) LITGRAPH_RETURN_IF_ERROR(v.status());
    LITGRAPH_RETURN_IF_ERROR(own.status());
    VectorFile merged;
    LITGRAPH_RETURN_IF_ERROR(merged.Open(g->Path(name + ".vec"), *g->Identity(name + ".vec")));
    stats->vectors += static_cast<int64_t>(merged.present());
    // An index whose rows are rows of the merged store is extended rather
    // than rebuilt (rows a shard replaced are re-linked): OUT's own, or the
    // first shard's when it went into an empty store. The cost of a monthly
    // shard merged into the main store follows the shard. The index is that
    // of the store's base: rows of its delta count as changed.
    const GenerationView* base = nullptr;
    std::vector<uint64_t> changed;
    if (cur) {
      if (own.dim() == dim && cur->Has(name + ".hnswlib")) {
        base = cur;
        for (uint64_t r = 0; r < own.rows(); ++r) {
          size_t shard;
          uint64_t shard_row;
          if (own.BaseRow(r) && (own.InDelta(r) || (!keep_own && src.Get(r, &shard, &shard_row))))
            changed.push_back(r);
        }
      }
    } else if (shards[0].vectors && shards[0].vectors->Has(name + ".hnswlib") &&
               from[0].dim() == dim) {
      base = shards[0].vectors;
      for (uint64_t r = 0; r < from[0].rows() && base; ++r) {
        if (!from[0].Row(r) && !from[0].BaseRow(r)) continue;
        size_t shard;
        uint64_t shard_row;
        if (!src.Get(r, &shard, &shard_row) || (shard == 0 && shard_row != r))
          base = nullptr;  // the first shard's rows are not the merged store's
        else if (shard != 0 || (from[0].BaseRow(r) && from[0].InDelta(r)))
          changed.push_back(r);
      }
    }
    // A changed row whose vector went stays in an extended index: build afresh.
    for (uint64_t r : changed)
      if (!merged.Row(r)) base = nullptr;
    for (const FieldVectors& v : from) LITGRAPH_RETURN_IF_ERROR(v.status());
    LITGRAPH_RETURN_IF_ERROR(own.status());
    if (!base) changed.clear();
    const FieldVectors* base_rows = !base ? nullptr : base == cur ? &own : &from[0];
    std::vector<uint8_t> elsewhere;  // rows a segment holds
    if (options.vector_segments) {
      const int64_t before = stats->vectors_in_segments;
      size_t segments = 0;
      LITGRAPH_RETURN_IF_ERROR(WriteSegments(shards, from, src, keep_own ? &keyword_rows : nullptr,
                                             merged, own, keep_own, base_rows, name, g,
                                             options.max_segments, &elsewhere, &segments, stats));
      if (segments > 0) {
        if (!info["vector_segments"].is_object())
          info["vector_segments"] = nlohmann::json::object();
        info["vector_segments"][name] = segments;
        options.reporter->Note(fmt::format("{} vectors: {} kept in {} shard indexes (segments)",
                                           name, stats->vectors_in_segments - before, segments));
      }
    }
    int64_t indexed = static_cast<int64_t>(changed.size());
    for (uint64_t r = 0; r < rows; ++r)
      indexed += merged.Row(r) && !(base_rows && base_rows->BaseRow(r)) &&
                 !(r < elsewhere.size() && elsewhere[r]);
    stats->vectors_indexed += indexed;
    options.reporter->Progress(fmt::format("indexing {} vectors", name));
    LITGRAPH_RETURN_IF_ERROR(
        BuildHnsw(merged, g, name, options.hnsw, base, changed, {}, elsewhere));
  }
  options.reporter->Progress("");
  info["generation"] = g->number();
  info["merged_shards"] = shards.size();
  g->info() = info;
  stats->model_id = ModelOf(model);
  return Status::Ok();
}

}  // namespace

Status Merge(Store* out, const std::vector<std::string>& dirs, const MergeOptions& options,
             MergeStats* stats) {
  const auto t0 = Clock::now();
  if (out->mode() != Store::Mode::kWrite)
    return Status::Internal("Merge needs a store opened for writing");
  stats->shards = static_cast<int64_t>(dirs.size());
  WriteCounts counts;
  try {
    std::vector<Shard> shards;
    LITGRAPH_RETURN_IF_ERROR(OpenShards(out, dirs, options, &shards));
    std::unique_ptr<BulkLoad> bulk;
    if (out->IsEmpty()) bulk = std::make_unique<BulkLoad>(out, options.reporter);
    // SQLite within the budget, as ingest: half as page cache, a quarter
    // mapped, sorts in temporary files.
    out->LimitSqliteMemory(options.memory_budget / 2, options.memory_budget / 4);
    Transaction txn(&out->db(), "IMMEDIATE");
    if (bulk) bulk->DropSecondaryIndexes();
    // Into an empty store, as ingest: the lexical indexes are tokenized on a
    // thread of their own during the load and built while the phrase
    // statistics are counted (a quarter of the budget: the counting has half).
    std::unique_ptr<LexicalBuilders> lexical;
    Status kept_status;  // (before the feeder, whose thread may set it as it goes)
    std::unique_ptr<TextFeeder> feeder;
    if (bulk) {
      lexical = std::make_unique<LexicalBuilders>(out->dir() + "/graph.lexical.tmp",
                                                  options.memory_budget / 4);
      feeder = std::make_unique<TextFeeder>(lexical.get());
    }
    // The shards' keyword backend: when there is one, the merged corpus's
    // phrase statistics are counted (what a full extract-keywords run over
    // it counts). Into an empty store, the copied shards' texts are counted
    // as they are read (an eighth of the budget), which serves when every
    // shard was copied (each paper counted once).
    std::string backend;
    for (Shard& s : shards) {
      if (!s.has_keywords) continue;
      if (auto b = s.store->GetMeta("keyword_backend")) backend = *b;
    }
    std::unique_ptr<PhraseCounter> phrases;
    if (bulk && !backend.empty())
      phrases = std::make_unique<PhraseCounter>(out->dir() + "/keywords.load.tmp",
                                                options.memory_budget / 8);
    RowSources papers, keywords;
    uint64_t rows = static_cast<uint64_t>(out->MaxId(NodeType::kPaper)) + 1;
    for (const Shard& s : shards) rows += static_cast<uint64_t>(s.store->MaxId(NodeType::kPaper));
    if (options.vectors) papers.Reserve(rows);
    LITGRAPH_RETURN_IF_ERROR(ApplyShards(out, shards, bulk != nullptr, options, &counts, &papers,
                                         lexical.get(), feeder.get(), phrases.get(), &kept_status,
                                         stats));
    if (counts.works > 0) out->NoteTextsWritten();
    if (feeder) {
      feeder->Finish();
      LITGRAPH_RETURN_IF_ERROR(kept_status);
      lexical->StartBuild(static_cast<uint64_t>(out->MaxId(NodeType::kPaper)) + 1);
    }
    if (bulk) bulk->RestoreSecondaryIndexes();
    stats->load_seconds = Since(t0);

    // Keywords: counts, and the phrase statistics of the merged corpus (what
    // a full extract-keywords run over it counts), when the shards have any.
    const auto tk = Clock::now();
    std::unique_ptr<GenerationBuilder> phrase_stats;
    if (!backend.empty()) {
      options.reporter->Progress("counting phrase statistics");
      const bool counted = phrases && stats->works_copied == counts.works;
      Result<std::unique_ptr<GenerationBuilder>> ps =
          counted ? WritePhraseStats(out, phrases.get()) : std::unique_ptr<GenerationBuilder>();
      phrases.reset();  // its runs go before a count of its own
      if (!counted) ps = CountPhraseStats(out, options.memory_budget / 2, options.hnsw.threads);
      if (!ps.ok()) return ps.status();
      phrase_stats = std::move(ps.value());
      out->SetMeta("keyword_backend", backend);
    }
    stats->keywords = RefreshKeywordCounts(out);
    stats->keywords_seconds = Since(tk);

    // The vectors are written beside the graph build (they read only files;
    // everything they need from OUT's SQLite is read first), both reporting
    // through one lock.
    LockedReporter reporter(options.reporter);
    MergeOptions vector_options = options;
    vector_options.reporter = &reporter;
    bool any_vectors = false;
    for (const Shard& s : shards) any_vectors |= s.vectors != nullptr;
    VectorsJob vectors;
    std::vector<std::vector<uint32_t>> keyword_rows(shards.size());
    Status vectors_status;
    const bool with_vectors = options.vectors && any_vectors;
    if (with_vectors) {
      // Keyword rows by external id (their ids in OUT are known now). A
      // keyword's vector depends on its text only: the first shard's is
      // taken, and OUT's own is kept (WriteVectors).
      // Each shard's keyword rows -> OUT's (4 bytes per row): where a shard's
      // keyword index, kept as a segment, finds the vectors of its keywords
      // that other stores gave (the same vectors).
      keywords.Reserve(static_cast<uint64_t>(out->MaxId(NodeType::kKeyword)) + 1);
      for (size_t i = 0; i < shards.size(); ++i) {
        if (!shards[i].vectors) continue;
        ForEachKeywordExtId(shards[i].store.get(), [&](int64_t id, std::string_view ext) {
          auto mine = out->NodeByExtId(NodeType::kKeyword, std::string(ext));
          if (!mine) return;
          keywords.SetIfUnset(*mine, i, id);
          auto& rows = keyword_rows[i];
          if (static_cast<uint64_t>(id) >= rows.size())
            rows.resize(std::max<size_t>(static_cast<size_t>(id) + 1, rows.size() * 2), kNoLabel);
          rows[static_cast<size_t>(id)] =
              *mine < kWaypoint ? static_cast<uint32_t>(*mine) : kNoLabel;
        });
      }
      LITGRAPH_RETURN_IF_ERROR(StartVectors(out, &vectors));
      LITGRAPH_RETURN_IF_ERROR(
          EmbedSharedKeywords(out, shards, keyword_rows, &keywords, &vectors, options.reporter));
    }
    {
      ScopedThread vector_thread(
          nullptr, !with_vectors ? std::function<void()>() : [&] {
            const auto tv = Clock::now();
            try {
              vectors_status = WriteVectors(&vectors, shards, papers, keywords, keyword_rows,
                                            vector_options, stats);
            } catch (const StatusError& e) {
              vectors_status = e.status();
            } catch (const std::exception& e) {
              vectors_status = Status::IoError(fmt::format("writing the vectors: {}", e.what()));
            }
            stats->vectors_seconds = Since(tv);
          });
      const auto tg = Clock::now();
      if (out->GetMeta("graph_stale") == "1") out->SetMeta("graph_stale", "0");
      GraphBuildOptions go;
      go.reporter = &reporter;
      go.memory_budget = options.memory_budget;
      go.lexical = lexical.get();
      GraphBuildStats gs;
      LITGRAPH_RETURN_IF_ERROR(BuildGraph(out, go, &gs));
      stats->graph_edges = gs.edges;
      stats->cites_edges = gs.cites_edges;
      stats->dangling_references = gs.dangling_references;
      stats->graph_seconds = Since(tg);
      vector_thread.Join();
    }
    if (phrase_stats) LITGRAPH_RETURN_IF_ERROR(phrase_stats->Commit());
    LITGRAPH_RETURN_IF_ERROR(vectors_status);
    if (with_vectors) LITGRAPH_RETURN_IF_ERROR(vectors.g->Commit());
    txn.Commit();
  } catch (const StatusError& e) {
    return e.status();
  } catch (const std::filesystem::filesystem_error& e) {
    return Status::IoError(e.what());
  }
  stats->works = counts.works;
  stats->works_new = counts.works_new;
  stats->works_updated = counts.works_updated;
  stats->works_stale = counts.works_stale;
  stats->entities = counts.entities;
  stats->seconds = Since(t0);
  return Status::Ok();
}

}  // namespace litgraph
