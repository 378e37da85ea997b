// The incremental graph update (graph_build.h, UpdateGraph): a new
// generation written from the current one and the rows an ingest changed.
//
// Every relation is recomputed for the nodes whose lists the change can
// alter, and only for them; the files are then written by PatchAdjacency /
// PatchRankedLists, which copy every block without such a node as stored.
// What is recomputed, with U the upserted papers:
//  - papers whose links are read again (L): U, plus the papers whose
//    dangling references or related works name a new paper of U
//    (cites.dangling); their CITES, RELATED_TO and PUBLISHED_IN lists come
//    from their rows;
//  - reverse lists (cites.in, source.papers, authored, institution.authors,
//    topic.papers): every target of an old or new list of a changed source
//    gets its old list without the changed sources plus their new edges;
//  - RELATED_TO is symmetrised with an attribute saying which side listed
//    the other, so a changed paper's contribution is taken out exactly;
//  - COAUTHOR is a sum over papers: the old teams of U (from the old
//    `authors` lists, in position order) are subtracted and the new ones
//    added;
//  - AFFILIATED_WITH of the authors of the old and new teams (and of
//    upserted author records) is read again from their authorships;
//  - paper.citations: the rows of U, and the in-store in-degree of every
//    paper whose cites.in changed; ranked lists of papers are ranked again
//    wherever a paper's citation count changed;
//  - the lexical indexes get a delta: the papers changed since their base
//    (the old delta's and U) indexed again with the base's statistics, the
//    base carried over; past GraphBuildOptions::lexical_delta_fraction of
//    the base they are rebuilt in full (UpdateLexicalIndexes, lexical.h);
//  - HAS_KEYWORD of U from its rows, reverse lists as above; COOCCUR from
//    the count changes of the pairs of U's old and new keywords
//    (CooccurPatch). extract-keywords patches the keyword layer alone the
//    same way (UpdateKeywordLayer, RunKeywords).
// Files are written behind: Write() queues a relation's patch for one writer
// thread (WriteBehind) and the update goes on computing the next patch; the
// writer reads the old files through its own readers, and Run waits for it
// before the manifest is made.
// The result is byte for byte the generation a full build of the same rows
// writes, but for the lexical delta, which ranks as the documented frame
// says (tests/unit/graph_update_test.cc builds both and compares).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>

#include "graph_build_parts.h"
#include "litgraph/bounded_queue.h"
#include "litgraph/coding.h"
#include "litgraph/graph_build.h"
#include "litgraph/lexical.h"
#include "litgraph/store.h"
#include "parallel_chunks.h"

namespace litgraph {

namespace {

using namespace graph_parts;  // NOLINT(google-build-using-namespace): the build's own parts

// A set of dense ids as a bitmap.
class IdSet {
 public:
  explicit IdSet(uint64_t space) : bits_((space + 63) / 64, 0) {}
  void Insert(uint32_t id) {
    if (id / 64 < bits_.size()) bits_[id / 64] |= uint64_t{1} << (id % 64);
  }
  bool Has(uint64_t id) const {
    return id / 64 < bits_.size() && (bits_[id / 64] >> (id % 64) & 1) != 0;
  }

 private:
  std::vector<uint64_t> bits_;
};

template <typename T>
void SortUnique(std::vector<T>* v) {
  std::sort(v->begin(), v->end());
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

struct Triple {
  uint32_t a, b, attr;
  bool operator<(const Triple& o) const {
    return a != o.a ? a < o.a : b != o.b ? b < o.b : attr < o.attr;
  }
};

// Sorts triples whose `a` is below `space` as std::sort would: a counting
// sort by `a` (4 bytes per id of the space, and a copy of the triples), then
// each `a`'s run by (b, attr). Two passes over the triples where std::sort
// makes ~log2(n) of them: the pairs of an update's keywords are ~110 per
// paper.
void SortTriples(std::vector<Triple>* v, size_t space) {
  if (std::any_of(v->begin(), v->end(), [&](const Triple& t) { return t.a >= space; })) {
    std::sort(v->begin(), v->end());
    return;
  }
  std::vector<uint32_t> end(space + 1, 0);
  for (const Triple& t : *v) ++end[t.a + 1];
  for (size_t i = 1; i <= space; ++i) end[i] += end[i - 1];
  std::vector<Triple> out(v->size());
  for (const Triple& t : *v) out[end[t.a]++] = t;  // end[a]: the end of a's run
  for (size_t a = 0, begin = 0; a < space; begin = end[a++])
    if (end[a] - begin > 1)
      std::sort(out.begin() + static_cast<int64_t>(begin), out.begin() + end[a]);
  v->swap(out);
}

// A change of a pair's count (COOCCUR).
struct CountDelta {
  uint32_t a, b;
  int32_t delta;
};

// A keyword's co-occurrence with keyword `id`: the papers they share.
struct Cooc {
  uint32_t id, count;
};
// COOCCUR's order (graph_build.cc): more shared papers first, then the
// smaller id.
bool Stronger(const Cooc& x, const Cooc& y) {
  return x.count != y.count ? x.count > y.count : x.id < y.id;
}
// The first k of `row` in that order, sorted by it.
void TopK(std::vector<Cooc>* row, size_t k) {
  const size_t keep = std::min(row->size(), k);
  std::partial_sort(row->begin(), row->begin() + static_cast<std::ptrdiff_t>(keep), row->end(),
                    Stronger);
  row->resize(keep);
}

// The new list of `node`: the patch's when it has one, else its old list
// from `old` (valid until the scan moves to another block).
Adjacency::List NewList(const ListPatch& patch, AdjacencyScan& old, uint32_t node) {
  const int64_t i = patch.Find(node);
  if (i < 0) return old.Get(node);
  return {patch.Ids(static_cast<size_t>(i)), patch.Attrs(static_cast<size_t>(i))};
}

// One writer thread for the files of an update: jobs run in the order
// queued, at most two wait (each holds its patch), and the first failure
// skips the rest. Finish() waits for every job.
class WriteBehind {
 public:
  WriteBehind() : queue_(2), thread_([this] { Work(); }) {}
  ~WriteBehind() {
    queue_.Done();
    if (thread_.joinable()) thread_.join();
  }
  // Ok, or the first job's failure (fail fast: the caller stops queueing).
  Status Queue(std::function<Status()> job) {
    LITGRAPH_RETURN_IF_ERROR(Failed());
    queue_.Push(std::move(job));
    return Status::Ok();
  }
  Status Finish() {
    queue_.Done();
    if (thread_.joinable()) thread_.join();
    return Failed();
  }

 private:
  Status Failed() {
    std::lock_guard<std::mutex> l(mu_);
    return first_error_;
  }
  void Work() {
    std::function<Status()> job;
    while (queue_.Pop(&job)) {
      if (!Failed().ok()) continue;
      Status st;
      try {
        st = job();
      } catch (const StatusError& e) {
        st = e.status();
      } catch (const std::bad_alloc&) {
        st = Status::IoError("out of memory writing the graph update");
      } catch (const std::exception& e) {
        st = Status::Internal(std::string("writing the graph update: ") + e.what());
      }
      job = nullptr;  // its patch freed here, on this thread
      if (!st.ok()) {
        std::lock_guard<std::mutex> l(mu_);
        if (first_error_.ok()) first_error_ = st;
      }
    }
  }
  BoundedQueue<std::function<Status()>> queue_;
  std::mutex mu_;
  Status first_error_;
  std::thread thread_;
};

class Updater {
 public:
  Updater(Store* store, const GenerationView& old, GenerationBuilder* out,
          const GraphBuildOptions& options)
      : store_(store), old_(old), out_(out), options_(options), space_(store) {}

  Status Run(const GraphChanges& changes, GraphBuildStats* stats);
  Status RunKeywords(const std::vector<uint32_t>& papers);

 private:
  Adjacency& Old(Rel r) {
    auto& slot = old_adj_[static_cast<int>(r)];
    if (!slot) {
      slot = std::make_unique<Adjacency>();
      Status st = slot->Open(old_, std::string(GetRelInfo(r).file) + ".adj");
      if (!st.ok()) throw StatusError(st);
    }
    return *slot;
  }
  // The old file read block by block (nodes asked in ascending order).
  AdjacencyScan& Scan(Rel r) {
    auto& slot = scans_[static_cast<int>(r)];
    if (!slot) slot = std::make_unique<AdjacencyScan>(Old(r));
    return *slot;
  }
  // A copy of a node's old list (empty outside the old file).
  void OldList(Rel r, uint64_t node, std::vector<uint32_t>* ids, std::vector<uint32_t>* attrs) {
    Adjacency::List l = Scan(r).Get(node);
    ids->assign(l.ids.begin(), l.ids.end());
    attrs->assign(l.attrs.begin(), l.attrs.end());
  }
  Status Begin(const std::vector<uint32_t>& papers, std::vector<uint32_t>* citations);
  Status ReadPaperRows(const std::vector<uint32_t>& links);
  // The dense ids of works by number (0: not in the store).
  std::unordered_map<uint64_t, uint32_t> ResolveWorkNumbers(std::vector<uint64_t> numbers);
  ListPatch ReversePatch(Rel fwd_rel, const ListPatch& fwd, const IdSet& changed);
  // Writes relation `r` from its patch (queued for the writer thread, or
  // inherited when nothing changed); `rerank`: nodes whose ranked list is
  // ranked again although their list did not change (ascending or not).
  Status Write(Rel r, ListPatch patch, std::vector<uint32_t> rerank = {});
  // Waits for the queued writes; their edge counts go to counts_.
  Status FinishWrites();
  // With a delta fraction of 0, folds the deltas of the relations this
  // update did not write (ingest --compact-at 0 with no input).
  Status FoldUnwrittenDeltas();
  // Targets (in relation `fwd`, new lists) of the papers whose citation
  // count changed: the nodes whose ranked lists in fwd's reverse rank them.
  std::vector<uint32_t> RerankedBy(Rel fwd, const ListPatch& fwd_patch);
  // The lists of a relation whose attribute is a sum of contributions
  // (COAUTHOR, AFFILIATED_WITH): each node's old counts plus the deltas
  // (node, neighbour, +-1 as u32) given, zero counts dropped.
  ListPatch SumPatch(Rel r, std::vector<Triple>* deltas);
  Status UpdateCitations();
  Status UpdateRelated();
  Status UpdateAuthorships(const GraphChanges& changes);
  Status UpdateTopics();
  Status WriteDangling();
  Status UpdateKeywords();
  ListPatch CooccurPatch(const ListPatch& has, const ListPatch& keyword_papers,
                         const std::vector<CountDelta>& deltas);
  // Every paper's new keywords in memory (keyword_offsets_, keyword_ids_)
  // when they fit in half the budget; once.
  void LoadKeywordLists(const ListPatch& has);
  // Keyword j's co-occurrences counted from its papers' keywords, with
  // `tally` (a zeroed counter per keyword, left zeroed). Thread-safe once the
  // lists are loaded.
  void CountRow(uint32_t j, const ListPatch& has, std::span<const uint32_t> papers,
                std::vector<uint32_t>* tally, std::vector<Cooc>* row);
  bool OwnListHolds(uint32_t j, uint32_t k);

  // Seconds since the last lap, recorded under `name` (update_seconds).
  void Lap(const char* name) {
    auto now = std::chrono::steady_clock::now();
    seconds_[name] = std::chrono::duration<double>(now - lap_).count();
    lap_ = now;
  }

  Store* store_;
  const GenerationView& old_;
  GenerationBuilder* out_;
  const GraphBuildOptions& options_;
  NodeSpace space_;
  std::unique_ptr<Adjacency> old_adj_[kRelCount];
  std::unique_ptr<AdjacencyScan> scans_[kRelCount];
  nlohmann::json counts_ = nlohmann::json::object();
  std::mutex written_mu_;
  std::map<std::string, int64_t> written_edges_;  // by the writer thread, per relation
  std::set<std::string> folded_;                  // adjacency deltas folded into a new base
  // Relations whose update wrote a new delta, extended their delta, or
  // folded it into a new base (the generation's info: adjacency_update).
  struct {
    int64_t written = 0, extended = 0, folded = 0;
  } adjacency_;
  nlohmann::json AdjacencyCounts() const {
    return {{"deltas_written", adjacency_.written},
            {"deltas_extended", adjacency_.extended},
            {"deltas_folded", adjacency_.folded}};
  }
  nlohmann::json seconds_ = nlohmann::json::object();
  std::chrono::steady_clock::time_point lap_ = std::chrono::steady_clock::now();

  std::vector<uint32_t> papers_;  // U, ascending
  std::vector<uint32_t> links_;   // L, ascending
  std::unique_ptr<IdSet> in_papers_, in_links_;
  // From the rows of L.
  ListPatch cites_, published_;
  std::map<uint32_t, std::vector<uint32_t>> related_;        // paper -> papers it lists
  std::vector<std::pair<uint32_t, int64_t>> record_counts_;  // paper, count (-1: none)
  std::vector<std::pair<uint32_t, uint16_t>> years_;
  std::vector<std::pair<uint64_t, uint32_t>> dangling_;  // the new entries of L
  ListPatch cites_in_;
  std::vector<uint32_t> old_citations_, citations_;
  std::vector<uint32_t> citations_changed_;  // papers whose count changed, ascending
  int64_t dangling_references_ = 0;
  // How the new own COOCCUR lists were found (CooccurPatch): from the known
  // counts, or counted afresh.
  int64_t certified_ = 0, recounted_ = 0;
  nlohmann::json CooccurCounts() const {
    return {{"certified", certified_}, {"recounted", recounted_}};
  }
  // LoadKeywordLists': every paper's new keywords (CSR).
  bool lists_loaded_ = false;
  std::vector<uint64_t> keyword_offsets_;
  std::vector<uint32_t> keyword_ids_;
  WriteBehind writes_;  // last: its thread stops before the rest is destroyed
};

// U (the changed papers within the store's id space, ascending) and the
// current generation's paper.citations into *citations.
Status Updater::Begin(const std::vector<uint32_t>& papers, std::vector<uint32_t>* citations) {
  const uint64_t n_papers = space_[NodeType::kPaper];
  CheckedFile f;
  LITGRAPH_RETURN_IF_ERROR(old_.OpenFile("paper.citations", &f));
  const uint8_t* p = f.Read(0, f.size());
  if (!p) return f.status();
  citations->resize(f.size() / 4);
  std::memcpy(citations->data(), p, citations->size() * 4);
  for (uint32_t id : papers)
    if (id < n_papers) papers_.push_back(id);
  SortUnique(&papers_);
  in_papers_ = std::make_unique<IdSet>(n_papers);
  for (uint32_t id : papers_) in_papers_->Insert(id);
  return Status::Ok();
}

// U, new papers' dangling referrers, their rows.
Status Updater::Run(const GraphChanges& changes, GraphBuildStats* stats) {
  const uint64_t n_papers = space_[NodeType::kPaper];
  LITGRAPH_RETURN_IF_ERROR(Begin(changes.papers, &old_citations_));
  const uint64_t n_old = old_citations_.size();
  // Papers whose unresolved references or related works a new paper resolves.
  links_ = papers_;
  {
    DanglingIndex d;
    LITGRAPH_RETURN_IF_ERROR(d.Open(old_));
    for (auto it = std::lower_bound(papers_.begin(), papers_.end(), n_old); it != papers_.end();
         ++it) {
      const uint64_t key = ReferenceKey(store_->PaperExtId(*it));
      for (uint64_t i = d.LowerBound(key); i < d.size() && d.Key(i) == key; ++i)
        links_.push_back(d.Paper(i) & ~kDanglingRelated);
    }
    LITGRAPH_RETURN_IF_ERROR(d.status());
  }
  SortUnique(&links_);
  in_links_ = std::make_unique<IdSet>(n_papers);
  for (uint32_t p : links_) in_links_->Insert(p);
  LITGRAPH_RETURN_IF_ERROR(ReadPaperRows(links_));
  Lap("rows");

  // CITES and the counts that depend on it.
  cites_in_ = ReversePatch(Rel::kCitesOut, cites_, *in_links_);
  LITGRAPH_RETURN_IF_ERROR(UpdateCitations());
  std::vector<uint32_t> cited_rerank = RerankedBy(Rel::kCitesOut, cites_);
  LITGRAPH_RETURN_IF_ERROR(Write(Rel::kCitesOut, std::move(cites_)));
  LITGRAPH_RETURN_IF_ERROR(Write(Rel::kCitesIn, std::move(cites_in_), std::move(cited_rerank)));
  Lap("cites");
  LITGRAPH_RETURN_IF_ERROR(UpdateRelated());
  Lap("related");
  ListPatch source_papers = ReversePatch(Rel::kPublishedIn, published_, *in_links_);
  std::vector<uint32_t> source_rerank = RerankedBy(Rel::kPublishedIn, published_);
  LITGRAPH_RETURN_IF_ERROR(Write(Rel::kPublishedIn, std::move(published_)));
  LITGRAPH_RETURN_IF_ERROR(
      Write(Rel::kSourcePapers, std::move(source_papers), std::move(source_rerank)));
  Lap("published");
  LITGRAPH_RETURN_IF_ERROR(UpdateAuthorships(changes));
  LITGRAPH_RETURN_IF_ERROR(UpdateTopics());
  Lap("topics");
  LITGRAPH_RETURN_IF_ERROR(WriteDangling());
  Lap("dangling");
  // Whole layers: the topic hierarchy when its records changed, the keyword
  // layer and the lexical indexes when papers did.
  const SortPlan plan = PlanSorts(out_, options_, space_);
  {
    RelationWriter w(out_, options_, space_);
    w.set_citations(citations_);
    // (new works may bring new topics: the hierarchy's id spaces grow)
    if (changes.hierarchy || !papers_.empty())
      LITGRAPH_RETURN_IF_ERROR(BuildHierarchyRelations(store_, plan, &w));
    LITGRAPH_RETURN_IF_ERROR(w.Finish());
    for (const auto& [name, count] : w.counts().items()) counts_[name] = count;
  }
  if (!papers_.empty()) LITGRAPH_RETURN_IF_ERROR(UpdateKeywords());
  Lap("cooccur");
  LexicalBuildStats ls;
  bool compacted = false;
  // (Without changed papers too: an update with no input folds a delta past
  // the fraction, `ingest --compact-at 0 </dev/null`.)
  LITGRAPH_RETURN_IF_ERROR(UpdateLexicalIndexes(
      store_, old_, papers_, options_.lexical_delta_fraction, out_, options_.memory_budget, &ls,
      &compacted, options_.changed_texts, Workers(options_.threads)));
  Lap("lexical");
  LITGRAPH_RETURN_IF_ERROR(FoldUnwrittenDeltas());
  LITGRAPH_RETURN_IF_ERROR(FinishWrites());
  Lap("writes");  // waiting for the writer thread
  // Everything else is carried over (a compacted index's old delta goes).
  auto is_delta = [](const std::string& name) {
    return name.rfind(kDeltaPrefix, 0) == 0 ||
           name.rfind(std::string(kTitleIndexPrefix) + kDeltaPrefix, 0) == 0;
  };
  for (const auto& [name, build] : old_.files())
    if (!out_->Identity(name).ok() && !(compacted && is_delta(name)) && !folded_.count(name))
      LITGRAPH_RETURN_IF_ERROR(out_->Inherit(old_, name));

  nlohmann::json info = old_.info();
  stats->edges = SetRelationCounts(counts_, &info);
  stats->cites_edges = info["relations"].value("cites.in", int64_t{0});
  stats->dangling_references = dangling_references_;
  if (compacted) {
    stats->lexical_terms = ls.terms;
    stats->lexical_postings = ls.postings;
    info.erase("lexical_delta");
  } else {  // the base's, and the delta's papers
    stats->lexical_terms = info.value("lexical_terms", int64_t{0});
    stats->lexical_postings = info.value("lexical_postings", int64_t{0});
    if (!papers_.empty())
      info["lexical_delta"] = {
          {"papers", ls.delta_docs}, {"terms", ls.terms}, {"postings", ls.postings}};
  }
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(out_->dir(), ec)) {
    auto size = static_cast<int64_t>(e.file_size(ec));
    stats->bytes += size;
  }
  info["generation"] = out_->number();
  info["cites_edges"] = stats->cites_edges;
  info["dangling_references"] = stats->dangling_references;
  info["bytes"] = stats->bytes;
  info["lexical_terms"] = stats->lexical_terms;
  info["lexical_postings"] = stats->lexical_postings;
  info["updated_papers"] = papers_.size();
  info["cooccur_update"] = CooccurCounts();
  info["adjacency_update"] = AdjacencyCounts();
  info["update_seconds"] = seconds_;
  out_->info() = info;
  return Status::Ok();
}

std::unordered_map<uint64_t, uint32_t> Updater::ResolveWorkNumbers(std::vector<uint64_t> wanted) {
  SortUnique(&wanted);
  std::unordered_map<uint64_t, uint32_t> works;
  works.reserve(wanted.size());
  for (uint64_t n : wanted) works.emplace(n, 0);
  if (wanted.size() > space_[NodeType::kPaper] / 8) {
    // Many: one scan of the ext_id index (a work number is the canonical
    // "W<n>": PackedWorkNumber is 0 for any other id).
    store_->ForEachPaperExtId([&](int64_t id, std::string_view ext) {
      if (auto it = works.find(PackedWorkNumber(ext)); it != works.end())
        it->second = static_cast<uint32_t>(id);
    });
  } else {
    // Few: looked up in the index's order, whose pages then come in turn.
    std::vector<std::pair<std::string, uint64_t>> names;
    names.reserve(wanted.size());
    for (uint64_t n : wanted) names.emplace_back(fmt::format("W{}", n), n);
    std::sort(names.begin(), names.end());
    for (const auto& [name, n] : names)
      works[n] = static_cast<uint32_t>(store_->PaperByExtId(name).value_or(0));
  }
  return works;
}

// CITES, RELATED_TO and PUBLISHED_IN lists, counts and years from the rows
// of `links`, references resolved against the store.
Status Updater::ReadPaperRows(const std::vector<uint32_t>& links) {
  // The rows, read once and held (their packed lists: a few bytes per
  // reference), so that the work numbers they reference resolve all at once.
  struct HeldRow {
    int64_t id;
    std::string refs, related;
    std::optional<int64_t> source_id, cited_by_count, year;
  };
  std::vector<HeldRow> rows;
  std::vector<uint64_t> numbers;
  store_->ForEachPaperLinksOf(links, [&](const PaperLinksRow& row) {
    rows.push_back({row.id, std::string(row.refs), std::string(row.related), row.source_id,
                    row.cited_by_count, row.year});
    auto add = [&](const PackedId& ref) {
      if (ref.is_work_number) numbers.push_back(ref.work_number);
    };
    ForEachPackedId(row.refs, add);  // a corrupt list: said below
    ForEachPackedId(row.related, add);
  });
  const std::unordered_map<uint64_t, uint32_t> works = ResolveWorkNumbers(std::move(numbers));
  std::unordered_map<std::string, uint32_t> others;
  auto find = [&](const PackedId& ref) -> uint32_t {
    if (ref.is_work_number) {
      auto it = works.find(ref.work_number);
      return it == works.end() ? 0 : it->second;
    }
    auto [it, fresh] = others.try_emplace(std::string(ref.text), 0);
    if (fresh) it->second = static_cast<uint32_t>(store_->PaperByExtId(it->first).value_or(0));
    return it->second;
  };
  bool corrupt = false;
  int64_t corrupt_paper = 0;
  std::vector<uint32_t> ids;
  for (const HeldRow& row : rows) {
    const uint32_t p = static_cast<uint32_t>(row.id);
    ids.clear();
    bool ok = ForEachPackedId(row.refs, [&](const PackedId& ref) {
      uint32_t q = find(ref);
      if (q == 0)
        dangling_.emplace_back(ReferenceKey(ref), p);
      else if (q != p)
        ids.push_back(q);
    });
    SortUnique(&ids);
    cites_.Add(p, ids, {});
    std::vector<uint32_t>& rel = related_[p];
    ok = ForEachPackedId(row.related,
                         [&](const PackedId& ref) {
                           uint32_t q = find(ref);
                           if (q == 0)
                             dangling_.emplace_back(ReferenceKey(ref), p | kDanglingRelated);
                           else if (q != p)
                             rel.push_back(q);
                         }) &&
         ok;
    SortUnique(&rel);
    if (!ok && !corrupt) corrupt = true, corrupt_paper = row.id;
    if (row.source_id) {
      uint32_t s = static_cast<uint32_t>(*row.source_id);
      published_.Add(p, {&s, 1}, {});
    } else {
      published_.Add(p, {}, {});
    }
    record_counts_.emplace_back(p, row.cited_by_count.value_or(-1));
    years_.emplace_back(p, row.year
                               ? static_cast<uint16_t>(std::clamp<int64_t>(*row.year, 0, 65535))
                               : uint16_t{0});
  }
  if (corrupt)
    return Status::Corruption(fmt::format("paper {}: corrupt reference list", corrupt_paper));
  std::sort(dangling_.begin(), dangling_.end());
  dangling_.erase(std::unique(dangling_.begin(), dangling_.end()), dangling_.end());
  return Status::Ok();
}

ListPatch Updater::ReversePatch(Rel fwd_rel, const ListPatch& fwd, const IdSet& changed) {
  const Rel rev_rel = GetRelInfo(fwd_rel).reverse;
  std::vector<Triple> add;  // (target, source, attr)
  std::vector<uint32_t> touched;
  for (size_t i = 0; i < fwd.size(); ++i) {
    auto ids = fwd.Ids(i), attrs = fwd.Attrs(i);
    for (size_t k = 0; k < ids.size(); ++k) {
      add.push_back({ids[k], fwd.nodes[i], attrs.empty() ? 0 : attrs[k]});
      touched.push_back(ids[k]);
    }
    Adjacency::List l = Scan(fwd_rel).Get(fwd.nodes[i]);
    touched.insert(touched.end(), l.ids.begin(), l.ids.end());
  }
  std::sort(add.begin(), add.end());
  SortUnique(&touched);
  const bool with_attrs = Old(rev_rel).has_attrs();
  ListPatch out;
  std::vector<uint32_t> ids, attrs;
  size_t a = 0;
  for (uint32_t t : touched) {
    ids.clear();
    attrs.clear();
    Adjacency::List l = Scan(rev_rel).Get(t);
    while (a < add.size() && add[a].a < t) ++a;
    size_t k = 0;
    for (;;) {  // merge the old list's kept entries with the additions, by source
      while (k < l.ids.size() && changed.Has(l.ids[k])) ++k;
      const bool has_old = k < l.ids.size(), has_add = a < add.size() && add[a].a == t;
      if (!has_old && !has_add) break;
      if (has_add && (!has_old || add[a].b < l.ids[k])) {
        ids.push_back(add[a].b);
        if (with_attrs) attrs.push_back(add[a].attr);
        ++a;
      } else {
        ids.push_back(l.ids[k]);
        if (with_attrs) attrs.push_back(l.attrs[k]);
        ++k;
      }
    }
    out.Add(t, ids, attrs);
  }
  return out;
}

std::vector<uint32_t> Updater::RerankedBy(Rel fwd, const ListPatch& fwd_patch) {
  std::vector<uint32_t> out;
  for (uint32_t p : citations_changed_) {
    const Adjacency::List l = NewList(fwd_patch, Scan(fwd), p);
    out.insert(out.end(), l.ids.begin(), l.ids.end());
  }
  SortUnique(&out);
  return out;
}

Status Updater::Write(Rel r, ListPatch patch, std::vector<uint32_t> rerank) {
  const RelInfo& info = GetRelInfo(r);
  const std::string adj_name = std::string(info.file) + ".adj";
  const std::string delta_name = AdjDeltaName(adj_name);
  const std::string ranked_name = std::string(info.file) + ".ranked";
  Adjacency& old = Old(r);
  const uint64_t space = space_[info.from];
  const double fraction = options_.adjacency_delta_fraction;
  // Lists unchanged (a delta is folded when the fraction is 0).
  const bool same_lists =
      patch.empty() && space == old.num_nodes() && !(old.delta() && fraction <= 0);
  if (same_lists) {
    LITGRAPH_RETURN_IF_ERROR(out_->Inherit(old_, adj_name));
    if (old.delta()) LITGRAPH_RETURN_IF_ERROR(out_->Inherit(old_, delta_name));
    counts_[info.file] = old.num_edges();
    if (!info.ranked || rerank.empty()) {
      if (info.ranked) LITGRAPH_RETURN_IF_ERROR(out_->Inherit(old_, ranked_name));
      return Status::Ok();
    }
  }
  // The changed lists go into the relation's delta (the base linked
  // unchanged) until it would hold `fraction` of the base's bytes, at a
  // guess of 1.5 bytes per entry; then base and delta are folded into a new
  // base (doc/graph-format.md, "Deltas").
  const double entries = static_cast<double>(patch.ids.size() * (old.has_attrs() ? 2 : 1));
  const double delta_bytes = (old.delta() ? static_cast<double>(old.delta()->file_bytes()) : 0) +
                             1.5 * entries + 2.0 * static_cast<double>(patch.size());
  const bool as_delta = !same_lists && fraction > 0 &&
                        delta_bytes <= fraction * static_cast<double>(old.file_bytes());
  if (as_delta) {
    LITGRAPH_RETURN_IF_ERROR(out_->Inherit(old_, adj_name));
    ++(old.delta() ? adjacency_.extended : adjacency_.written);
  } else if (!same_lists && old.delta()) {
    folded_.insert(delta_name);  // not carried over
    ++adjacency_.folded;
  }
  const std::string written_name = same_lists ? "" : as_delta ? delta_name : adj_name;
  const FileIdentity adj_id = same_lists ? FileIdentity{} : out_->NewFile(written_name);
  const FileIdentity ranked_id = info.ranked ? out_->NewFile(ranked_name) : FileIdentity{};
  // The job reads the old files through readers of its own (an Adjacency and
  // its scans are one thread's); citations_ no longer changes.
  return writes_.Queue([this, r, adj_name, written_name, ranked_name, adj_id, ranked_id, space,
                        as_delta, patch = std::move(patch),
                        rerank = std::move(rerank)]() -> Status {
    const RelInfo& info = GetRelInfo(r);
    Adjacency old;
    LITGRAPH_RETURN_IF_ERROR(old.Open(old_, adj_name));
    const std::string path = out_->Path(written_name);
    if (!written_name.empty()) {
      LITGRAPH_RETURN_IF_ERROR(
          as_delta ? WriteAdjacencyDelta(old, patch, space, path, adj_id, options_.nodes_per_block,
                                         options_.zstd_level)
                   : PatchAdjacency(old, patch, space, path, adj_id, options_.nodes_per_block,
                                    options_.zstd_level));
      Adjacency written;  // its edge count (the relation's), for the manifest
      LITGRAPH_RETURN_IF_ERROR(written.Open(path, adj_id));
      std::lock_guard<std::mutex> l(written_mu_);
      written_edges_[info.file] = static_cast<int64_t>(written.num_edges());
    }
    if (!info.ranked) return Status::Ok();
    std::vector<uint32_t> renew = rerank;
    renew.insert(renew.end(), patch.nodes.begin(), patch.nodes.end());
    SortUnique(&renew);
    AdjacencyScan scan(old);
    ListPatch fresh;
    std::vector<uint32_t> top_ids, top_attrs;
    for (uint32_t n : renew) {
      const Adjacency::List l = NewList(patch, scan, n);
      RankList(r, l.ids, l.attrs, citations_, options_.ranked_length, &top_ids, &top_attrs);
      if (!top_ids.empty()) fresh.Add(n, top_ids, top_attrs);
    }
    LITGRAPH_RETURN_IF_ERROR(old.status());
    RankedLists old_ranked;
    LITGRAPH_RETURN_IF_ERROR(old_ranked.Open(old_, ranked_name));
    return PatchRankedLists(old_ranked, renew, fresh, out_->Path(ranked_name), ranked_id,
                            options_.ranked_length);
  });
}

Status Updater::FoldUnwrittenDeltas() {
  if (options_.adjacency_delta_fraction > 0) return Status::Ok();
  for (int i = 0; i < kRelCount; ++i) {
    const Rel r = static_cast<Rel>(i);
    const std::string adj_name = std::string(GetRelInfo(r).file) + ".adj";
    if (!old_.Has(AdjDeltaName(adj_name)) || out_->Identity(adj_name).ok()) continue;
    LITGRAPH_RETURN_IF_ERROR(Write(r, ListPatch()));
  }
  return Status::Ok();
}

Status Updater::FinishWrites() {
  LITGRAPH_RETURN_IF_ERROR(writes_.Finish());
  for (const auto& [file, edges] : written_edges_) counts_[file] = edges;
  return Status::Ok();
}

ListPatch Updater::SumPatch(Rel r, std::vector<Triple>* deltas) {
  std::sort(deltas->begin(), deltas->end(),
            [](const Triple& x, const Triple& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
  ListPatch out;
  std::vector<uint32_t> ids, attrs;
  const std::vector<Triple>& d = *deltas;
  for (size_t i = 0; i < d.size();) {
    const uint32_t a = d[i].a;
    // The old list (ascending neighbours) and a's deltas (ascending b)
    // merged: each neighbour's old count plus its deltas, zeros dropped.
    const Adjacency::List old = Scan(r).Get(a);
    ids.clear();
    attrs.clear();
    size_t k = 0;
    while (k < old.ids.size() || (i < d.size() && d[i].a == a)) {
      const bool has_delta = i < d.size() && d[i].a == a;
      const uint32_t b = !has_delta            ? old.ids[k]
                         : k == old.ids.size() ? d[i].b
                                               : std::min(old.ids[k], d[i].b);
      int64_t n = 0;
      if (k < old.ids.size() && old.ids[k] == b) n = old.attrs[k++];
      for (; i < d.size() && d[i].a == a && d[i].b == b; ++i) n += static_cast<int32_t>(d[i].attr);
      if (n > 0) ids.push_back(b), attrs.push_back(static_cast<uint32_t>(n));
    }
    out.Add(a, ids, attrs);
  }
  return out;
}

// paper.citations and paper.years.
Status Updater::UpdateCitations() {
  const uint64_t n_papers = space_[NodeType::kPaper];
  citations_ = old_citations_;
  citations_.resize(n_papers, kCitationsFromStoreBit);
  auto in_degree = [&](uint32_t p) -> uint32_t {
    int64_t i = cites_in_.Find(p);
    if (i >= 0) return static_cast<uint32_t>(cites_in_.Ids(i).size());
    return static_cast<uint32_t>(Scan(Rel::kCitesIn).Get(p).size());
  };
  for (auto [p, c] : record_counts_)
    citations_[p] = c >= 0 ? static_cast<uint32_t>(std::min<int64_t>(c, ~kCitationsFromStoreBit))
                           : (in_degree(p) | kCitationsFromStoreBit);
  for (uint32_t t : cites_in_.nodes)
    if (citations_[t] & kCitationsFromStoreBit)
      citations_[t] = in_degree(t) | kCitationsFromStoreBit;
  for (uint64_t p = 0; p < n_papers; ++p) {
    const uint32_t before = p < old_citations_.size() ? CitationCount(old_citations_[p]) : 0;
    if (CitationCount(citations_[p]) != before || p >= old_citations_.size())
      citations_changed_.push_back(static_cast<uint32_t>(p));
  }
  LITGRAPH_RETURN_IF_ERROR(
      WriteCheckedFile(out_->Path("paper.citations"), out_->NewFile("paper.citations"),
                       {reinterpret_cast<const char*>(citations_.data()), citations_.size() * 4}));
  CheckedFile f;
  LITGRAPH_RETURN_IF_ERROR(old_.OpenFile("paper.years", &f));
  const uint8_t* y = f.Read(0, f.size());
  if (!y) return f.status();
  std::vector<uint16_t> years(n_papers, 0);
  std::memcpy(years.data(), y, std::min<uint64_t>(f.size(), n_papers * 2));
  for (auto [p, year] : years_) years[p] = year;
  return WriteCheckedFile(out_->Path("paper.years"), out_->NewFile("paper.years"),
                          {reinterpret_cast<const char*>(years.data()), years.size() * 2});
}

// RELATED_TO: each list entry says which side listed the other; a paper of
// L loses what it listed before and what it was listed by from another
// paper of L, then gains their new listings.
Status Updater::UpdateRelated() {
  std::vector<Triple> add;  // (paper, neighbour, bit)
  std::vector<uint32_t> touched;
  for (const auto& [p, listed] : related_) {
    touched.push_back(p);
    for (uint32_t q : listed) {
      add.push_back({p, q, kRelatedListed});
      add.push_back({q, p, kRelatedListedBy});
      touched.push_back(q);
    }
    Adjacency::List l = Scan(Rel::kRelated).Get(p);
    touched.insert(touched.end(), l.ids.begin(), l.ids.end());
  }
  std::sort(add.begin(), add.end());
  SortUnique(&touched);
  ListPatch patch;
  std::vector<uint32_t> ids, attrs;
  size_t a = 0;
  for (uint32_t x : touched) {
    Adjacency::List l = Scan(Rel::kRelated).Get(x);
    const bool x_changed = in_links_->Has(x);
    // The old entries that stay (ascending neighbours) merged with x's
    // additions (ascending), the bits of one neighbour or-ed.
    auto old_bits = [&](size_t k) {
      uint32_t bits = l.attrs.empty() ? 0 : l.attrs[k];
      if (x_changed) bits &= ~kRelatedListed;
      if (in_links_->Has(l.ids[k])) bits &= ~kRelatedListedBy;
      return bits;
    };
    while (a < add.size() && add[a].a < x) ++a;
    ids.clear();
    attrs.clear();
    size_t k = 0;
    for (;;) {
      while (k < l.ids.size() && old_bits(k) == 0) ++k;
      const bool has_old = k < l.ids.size(), has_add = a < add.size() && add[a].a == x;
      if (!has_old && !has_add) break;
      const uint32_t q = !has_add ? l.ids[k] : !has_old ? add[a].b : std::min(l.ids[k], add[a].b);
      uint32_t bits = 0;
      if (has_old && l.ids[k] == q) bits = old_bits(k++);
      for (; a < add.size() && add[a].a == x && add[a].b == q; ++a) bits |= add[a].attr;
      ids.push_back(q);
      attrs.push_back(bits);
    }
    patch.Add(x, ids, attrs);
  }
  return Write(Rel::kRelated, std::move(patch));
}

// AUTHORED both ways, COAUTHOR and AFFILIATED_WITH.
Status Updater::UpdateAuthorships(const GraphChanges& changes) {
  ListPatch authors;
  std::vector<Triple> pairs;  // (author, coauthor, +-1 as u32)
  std::vector<Triple> affil;  // (author, institution, +-1 as u32)
  auto add_pair = [&](uint32_t a, uint32_t b, uint32_t n) { pairs.push_back({a, b, n}); };
  std::vector<uint32_t> ids, attrs, team;
  std::vector<std::pair<uint32_t, uint32_t>> by_position;
  // Old teams: the old `authors` lists in position order.
  for (uint32_t p : papers_) {
    OldList(Rel::kAuthors, p, &ids, &attrs);
    by_position.clear();
    for (size_t k = 0; k < ids.size(); ++k) by_position.emplace_back(attrs[k], ids[k]);
    std::sort(by_position.begin(), by_position.end());
    team.clear();
    for (auto [attr, author] : by_position) team.push_back(author);
    AddTeam(team, ~uint32_t{0}, add_pair);
  }
  team.clear();
  // New teams and lists from the rows.
  std::vector<std::pair<uint32_t, uint32_t>> list;  // author, attr
  size_t next = 0;
  int64_t cur = -1;
  auto flush = [&] {
    if (cur < 0) return;
    while (papers_[next] < cur) authors.Add(papers_[next++], {}, {});
    std::sort(list.begin(), list.end());
    ids.clear();
    attrs.clear();
    for (auto [author, attr] : list)
      if (ids.empty() || ids.back() != author) ids.push_back(author), attrs.push_back(attr);
    authors.Add(static_cast<uint32_t>(cur), ids, attrs);
    ++next;
    AddTeam(team, 1, add_pair);
    list.clear();
    team.clear();
  };
  store_->ForEachAuthorshipOf(papers_, [&](const AuthorshipRow& row) {
    if (row.paper != cur) {
      flush();
      cur = row.paper;
    }
    const uint32_t author = static_cast<uint32_t>(row.author);
    list.emplace_back(author, AuthorshipAttr(row.position, row.is_corresponding));
    ForEachInstitutionId(row.institutions, [&](uint32_t inst) {
      affil.push_back({author, inst, 1});
    });
    if (std::find(team.begin(), team.end(), author) == team.end()) team.push_back(author);
  });
  flush();
  while (next < papers_.size()) authors.Add(papers_[next++], {}, {});
  ListPatch authored = ReversePatch(Rel::kAuthors, authors, *in_papers_);
  std::vector<uint32_t> authored_rerank = RerankedBy(Rel::kAuthors, authors);
  LITGRAPH_RETURN_IF_ERROR(Write(Rel::kAuthors, std::move(authors)));
  LITGRAPH_RETURN_IF_ERROR(
      Write(Rel::kAuthoredPapers, std::move(authored), std::move(authored_rerank)));

  // COAUTHOR: old counts minus the old teams' pairs plus the new ones.
  ListPatch coauthor = SumPatch(Rel::kCoauthor, &pairs);
  LITGRAPH_RETURN_IF_ERROR(Write(Rel::kCoauthor, std::move(coauthor)));
  Lap("authors_coauthor");

  // AFFILIATED_WITH: old counts minus what the ingest replaced plus the new
  // rows and last institutions.
  std::vector<uint32_t> records(changes.authors.begin(), changes.authors.end());
  SortUnique(&records);
  for (uint32_t a : records)
    if (auto last = store_->AuthorLastInstitution(a))
      affil.push_back({a, static_cast<uint32_t>(*last), 1});
  for (auto [a, inst] : changes.old_affiliations) affil.push_back({a, inst, ~uint32_t{0}});
  ListPatch affiliations = SumPatch(Rel::kAffiliations, &affil);
  IdSet in_affected(space_[NodeType::kAuthor]);
  for (uint32_t a : affiliations.nodes) in_affected.Insert(a);
  ListPatch institution_authors = ReversePatch(Rel::kAffiliations, affiliations, in_affected);
  LITGRAPH_RETURN_IF_ERROR(Write(Rel::kAffiliations, std::move(affiliations)));
  Lap("affiliations");
  return Write(Rel::kInstitutionAuthors, std::move(institution_authors));
}

// HAS_TOPIC both ways, from the topic rows of U.
Status Updater::UpdateTopics() {
  ListPatch topics;
  std::map<uint32_t, uint32_t> row;  // topic -> attr, of one paper
  int64_t cur = -1;
  std::vector<uint32_t> ids, attrs;
  auto flush = [&] {
    ids.clear();
    attrs.clear();
    for (auto [t, a] : row) ids.push_back(t), attrs.push_back(a);
    row.clear();
  };
  size_t next = 0;  // papers_ without rows get an empty list
  store_->ForEachPaperTopicOf(
      papers_, [&](int64_t paper, int64_t topic, std::optional<double> score, bool primary) {
        if (paper != cur && cur >= 0) {
          flush();
          while (papers_[next] < cur) topics.Add(papers_[next++], {}, {});
          topics.Add(static_cast<uint32_t>(cur), ids, attrs);
          ++next;
        }
        cur = paper;
        uint32_t& a = row[static_cast<uint32_t>(topic)];
        a = std::max(a, TopicAttr(score, primary));
      });
  if (cur >= 0) {
    flush();
    while (papers_[next] < cur) topics.Add(papers_[next++], {}, {});
    topics.Add(static_cast<uint32_t>(cur), ids, attrs);
    ++next;
  }
  while (next < papers_.size()) topics.Add(papers_[next++], {}, {});
  ListPatch topic_papers = ReversePatch(Rel::kTopics, topics, *in_papers_);
  std::vector<uint32_t> topic_rerank = RerankedBy(Rel::kTopics, topics);
  LITGRAPH_RETURN_IF_ERROR(Write(Rel::kTopics, std::move(topics)));
  return Write(Rel::kTopicPapers, std::move(topic_papers), std::move(topic_rerank));
}

// cites.dangling: the old entries of papers outside L, and L's new ones.
Status Updater::WriteDangling() {
  DanglingIndex old;
  LITGRAPH_RETURN_IF_ERROR(old.Open(old_));
  DanglingWriter w;
  LITGRAPH_RETURN_IF_ERROR(w.Open(out_->Path(kDanglingFile), out_->NewFile(kDanglingFile)));
  size_t j = 0;
  auto emit = [&](uint64_t key, uint32_t paper) -> Status {
    if (!(paper & kDanglingRelated)) ++dangling_references_;
    return w.Add(key, paper);
  };
  for (uint64_t i = 0; i < old.size(); ++i) {
    const uint64_t key = old.Key(i);
    const uint32_t paper = old.Paper(i);
    if (in_links_->Has(paper & ~kDanglingRelated)) continue;
    for (; j < dangling_.size() && dangling_[j] < std::make_pair(key, paper); ++j)
      LITGRAPH_RETURN_IF_ERROR(emit(dangling_[j].first, dangling_[j].second));
    LITGRAPH_RETURN_IF_ERROR(emit(key, paper));
  }
  for (; j < dangling_.size(); ++j)
    LITGRAPH_RETURN_IF_ERROR(emit(dangling_[j].first, dangling_[j].second));
  LITGRAPH_RETURN_IF_ERROR(old.status());
  return w.Finish();
}

// --- The keyword layer --------------------------------------------------------

// HAS_KEYWORD both ways and COOCCUR, for the papers of U (their keyword rows
// may have changed).
Status Updater::UpdateKeywords() {
  // HAS_KEYWORD from the rows of U (parallel rows keep the highest score, as
  // a full build merges them).
  // Only the lists that changed: an ingest keeps the keywords of the papers
  // it writes (new papers have none yet), so its patch is usually empty and
  // the keyword layer is carried over.
  std::vector<Triple> rows;  // (paper, keyword, score)
  store_->ForEachPaperKeywordOf(papers_, [&](int64_t paper, int64_t keyword, int64_t score) {
    rows.push_back({static_cast<uint32_t>(paper), static_cast<uint32_t>(keyword),
                    static_cast<uint32_t>(score)});
  });
  std::sort(rows.begin(), rows.end());
  ListPatch has;
  IdSet in_has(space_[NodeType::kPaper]);
  std::vector<uint32_t> ids, attrs;
  size_t r = 0;
  for (uint32_t p : papers_) {
    ids.clear();
    attrs.clear();
    for (; r < rows.size() && rows[r].a == p; ++r)
      if (ids.empty() || ids.back() != rows[r].b)
        ids.push_back(rows[r].b), attrs.push_back(rows[r].attr);
      else
        attrs.back() = std::max(attrs.back(), rows[r].attr);
    const Adjacency::List old = Scan(Rel::kKeywords).Get(p);
    if (std::ranges::equal(old.ids, ids) && std::ranges::equal(old.attrs, attrs)) continue;
    has.Add(p, ids, attrs);
    in_has.Insert(p);
  }
  rows = {};
  // COOCCUR counts change by each paper's keyword pairs before (-1) and
  // after (+1).
  std::vector<Triple> pairs;  // (keyword, keyword, +-1 as u32), both ways
  auto add_pairs = [&](std::span<const uint32_t> kws, uint32_t sign) {
    for (size_t i = 0; i < kws.size(); ++i)
      for (size_t j = i + 1; j < kws.size(); ++j) {
        pairs.push_back({kws[i], kws[j], sign});
        pairs.push_back({kws[j], kws[i], sign});
      }
  };
  for (size_t i = 0; i < has.size(); ++i) {
    add_pairs(Scan(Rel::kKeywords).Get(has.nodes[i]).ids, ~uint32_t{0});
    add_pairs(has.Ids(i), 1);
  }
  SortTriples(&pairs, space_[NodeType::kKeyword]);
  std::vector<CountDelta> deltas;
  for (size_t i = 0; i < pairs.size();) {
    CountDelta d{pairs[i].a, pairs[i].b, 0};
    for (; i < pairs.size() && pairs[i].a == d.a && pairs[i].b == d.b; ++i)
      d.delta += static_cast<int32_t>(pairs[i].attr);
    if (d.delta != 0) deltas.push_back(d);
  }
  pairs = {};
  LITGRAPH_RETURN_IF_ERROR(Write(Rel::kKeywords, has));  // copies: CooccurPatch reads them
  ListPatch keyword_papers = ReversePatch(Rel::kKeywords, has, in_has);
  LITGRAPH_RETURN_IF_ERROR(
      Write(Rel::kKeywordPapers, keyword_papers, RerankedBy(Rel::kKeywords, has)));
  Lap("keywords");
  return Write(Rel::kCooccur, CooccurPatch(has, keyword_papers, deltas));
}

// COOCCUR lists (graph_build.h): each keyword's own list is its K strongest
// co-occurrences (K = options_.cooccur_top_k), and a file list holds its own
// list and the keywords whose own lists hold it. Only the counts of the pairs
// in `deltas` changed (T: the keywords with one). For a keyword j of T:
//  - its old own list is the K strongest of its old file list (a subset of
//    its co-occurrences holding the K strongest);
//  - a file list shorter than K holds every co-occurrence of j, so the new
//    counts are the old ones plus the deltas;
//  - else every pair missing from the file list was weaker than the old K-th
//    entry e. The new counts of the listed pairs are known; missing pairs
//    without a gain stay weaker than e, and a bound (e's count plus the
//    gain, and either keyword's paper count) caps those with one. When the
//    K-th known count is at least as strong as e and stronger than every
//    cap, the known counts give the new own list. Otherwise (j lost pairs
//    near its threshold, or gained new ones) its co-occurrences are counted
//    afresh from its papers' keywords (CountRow).
// The file lists rewritten are those of T and of the keywords that entered or
// left an own list of T.
ListPatch Updater::CooccurPatch(const ListPatch& has, const ListPatch& keyword_papers,
                                const std::vector<CountDelta>& deltas) {
  const size_t k_top = options_.cooccur_top_k;
  // The new papers of a keyword with a delta (each is in the patch: it is in
  // an old or new list of a changed paper).
  auto papers_of = [&](uint32_t k) -> std::span<const uint32_t> {
    const int64_t i = keyword_papers.Find(k);
    return i >= 0 ? keyword_papers.Ids(static_cast<size_t>(i)) : std::span<const uint32_t>();
  };
  std::vector<uint32_t> touched;               // T, ascending
  std::vector<std::vector<Cooc>> own_new;      // per keyword of T
  std::vector<std::vector<uint32_t>> own_old;  // per keyword of T, ids ascending
  std::vector<uint32_t> ids, attrs;
  std::vector<Cooc> known, pending;
  std::vector<size_t> recount;  // indexes into touched
  for (size_t i = 0; i < deltas.size();) {
    const uint32_t j = deltas[i].a;
    size_t end = i;
    while (end < deltas.size() && deltas[end].a == j) ++end;
    OldList(Rel::kCooccur, j, &ids, &attrs);
    known.clear();
    for (size_t x = 0; x < ids.size(); ++x) known.push_back({ids[x], attrs[x]});
    TopK(&known, k_top);
    const bool complete = ids.size() < k_top;  // the file list is every co-occurrence
    const Cooc e = known.empty() ? Cooc{0, 0} : known.back();
    own_old.emplace_back();
    for (const Cooc& c : known) own_old.back().push_back(c.id);
    std::sort(own_old.back().begin(), own_old.back().end());
    // The listed pairs' new counts, and the missing pairs with a delta.
    known.clear();
    pending.clear();
    size_t d = i;
    auto missing = [&](const CountDelta& m) {
      if (m.delta <= 0) return;  // (complete: cannot happen; else stays weaker than e)
      if (complete)
        known.push_back({m.b, static_cast<uint32_t>(m.delta)});
      else
        pending.push_back({m.b, static_cast<uint32_t>(m.delta)});
    };
    for (size_t x = 0; x < ids.size(); ++x) {
      for (; d < end && deltas[d].b < ids[x]; ++d) missing(deltas[d]);
      int64_t c = attrs[x];
      if (d < end && deltas[d].b == ids[x]) c += deltas[d++].delta;
      if (c > 0) known.push_back({ids[x], static_cast<uint32_t>(c)});
    }
    for (; d < end; ++d) missing(deltas[d]);
    if (!complete) {
      std::sort(known.begin(), known.end(), Stronger);
      bool certain = known.size() >= k_top && !Stronger(e, known[k_top - 1]);
      const size_t deg_j = papers_of(j).size();
      for (size_t x = 0; certain && x < pending.size(); ++x) {
        // At most e's count plus the gain, and no more than either has papers.
        const Cooc& m = pending[x];
        const uint32_t bound = static_cast<uint32_t>(
            std::min<uint64_t>({uint64_t{e.count} + m.count, deg_j, papers_of(m.id).size()}));
        certain = !Stronger({m.id, bound}, known[k_top - 1]);
      }
      if (certain) {
        ++certified_;
      } else {
        recount.push_back(touched.size());  // counted below
        ++recounted_;
      }
    }
    TopK(&known, k_top);
    touched.push_back(j);
    own_new.push_back(known);
    i = end;
  }
  // The keywords whose co-occurrences are counted afresh: on `threads`
  // threads when every paper's keywords are in memory (each row is its own).
  if (!recount.empty()) {
    LoadKeywordLists(has);
    const int threads = keyword_offsets_.empty() ? 1 : Workers(options_.threads);
    std::vector<std::vector<uint32_t>> tallies(static_cast<size_t>(threads));
    ParallelChunks(recount.size(), threads, 16, [&](uint64_t b, uint64_t e, int worker) {
      std::vector<uint32_t>& tally = tallies[static_cast<size_t>(worker)];
      if (tally.empty()) tally.assign(space_[NodeType::kKeyword], 0);
      for (uint64_t x = b; x < e; ++x) {
        const size_t t = recount[x];
        CountRow(touched[t], has, papers_of(touched[t]), &tally, &own_new[t]);
        TopK(&own_new[t], k_top);
        // Every co-occurrence was listed: keep the top k's room only (a hub
        // keyword's row held hundreds of thousands until the update ended).
        own_new[t].shrink_to_fit();
      }
    });
  }
  // Who holds whom in the new own lists of T: (held, holder, count).
  std::vector<Triple> held;
  std::vector<uint32_t> affected = touched, now;
  for (size_t t = 0; t < touched.size(); ++t) {
    now.clear();
    for (const Cooc& c : own_new[t]) {
      held.push_back({c.id, touched[t], c.count});
      now.push_back(c.id);
    }
    std::sort(now.begin(), now.end());
    std::set_symmetric_difference(now.begin(), now.end(), own_old[t].begin(), own_old[t].end(),
                                  std::back_inserter(affected));
  }
  SortTriples(&held, space_[NodeType::kKeyword]);
  SortUnique(&affected);
  auto in_touched = [&](uint32_t k) -> int64_t {
    auto it = std::lower_bound(touched.begin(), touched.end(), k);
    return it != touched.end() && *it == k ? it - touched.begin() : -1;
  };
  ListPatch out;
  auto by_id = [](const Cooc& x, const Cooc& y) { return x.id < y.id; };
  std::vector<Cooc> entries;         // k's new file list
  std::vector<uint32_t> own_before;  // ids ascending
  size_t h = 0;
  for (uint32_t k : affected) {
    OldList(Rel::kCooccur, k, &ids, &attrs);
    const int64_t t = in_touched(k);
    if (t >= 0) {
      entries = own_new[t];
      own_before = own_old[t];
    } else {  // its counts did not change, nor its own list
      entries.clear();
      for (size_t x = 0; x < ids.size(); ++x) entries.push_back({ids[x], attrs[x]});
      TopK(&entries, k_top);
      own_before.clear();
    }
    // The own lists of T that hold k; their count stands for a pair k's own
    // list holds too (the last of equal ids is kept).
    while (h < held.size() && held[h].a < k) ++h;
    for (; h < held.size() && held[h].a == k; ++h) entries.push_back({held[h].b, held[h].attr});
    std::stable_sort(entries.begin(), entries.end(), by_id);
    size_t w = 0;
    for (size_t x = 0; x < entries.size(); ++x)
      if (x + 1 == entries.size() || entries[x + 1].id != entries[x].id) entries[w++] = entries[x];
    entries.resize(w);
    // The rest of the old list: the keywords outside T whose own lists hold
    // k (they did not change); those k's own list held are asked.
    for (size_t x = 0; x < ids.size(); ++x) {
      const uint32_t j = ids[x];
      if (std::binary_search(entries.begin(), entries.begin() + static_cast<int64_t>(w), Cooc{j, 0},
                             by_id) ||
          in_touched(j) >= 0)
        continue;
      if (std::binary_search(own_before.begin(), own_before.end(), j) && !OwnListHolds(j, k))
        continue;
      entries.push_back({j, attrs[x]});
    }
    std::sort(entries.begin(), entries.end(), by_id);
    ids.clear();
    attrs.clear();
    for (const Cooc& c : entries) ids.push_back(c.id), attrs.push_back(c.count);
    out.Add(k, ids, attrs);
  }
  return out;
}

// Every paper's new HAS_KEYWORD list (8 bytes per paper and 4 per edge),
// when that fits in half the memory budget; else CountRow reads them list by
// list from the old file, slower.
void Updater::LoadKeywordLists(const ListPatch& has) {
  if (lists_loaded_) return;
  lists_loaded_ = true;
  Adjacency& old = Old(Rel::kKeywords);
  const uint64_t n = space_[NodeType::kPaper];
  if (8 * (n + 1) + 4 * (old.num_edges() + has.ids.size()) > options_.memory_budget / 2) return;
  keyword_offsets_.reserve(n + 1);
  keyword_ids_.reserve(old.num_edges() + has.ids.size());
  keyword_offsets_.push_back(0);
  size_t i = 0;  // the patch's nodes ascend with p
  for (uint64_t p = 0; p < n; ++p) {
    while (i < has.size() && has.nodes[i] < p) ++i;
    std::span<const uint32_t> kws =
        i < has.size() && has.nodes[i] == p ? has.Ids(i) : Scan(Rel::kKeywords).Get(p).ids;
    keyword_ids_.insert(keyword_ids_.end(), kws.begin(), kws.end());
    keyword_offsets_.push_back(keyword_ids_.size());
  }
}

void Updater::CountRow(uint32_t j, const ListPatch& has, std::span<const uint32_t> papers,
                       std::vector<uint32_t>* tally, std::vector<Cooc>* row) {
  std::vector<uint32_t>& count = *tally;
  std::vector<uint32_t> seen;
  for (uint32_t q : papers) {
    std::span<const uint32_t> kws;
    if (!keyword_offsets_.empty()) {
      kws = {keyword_ids_.data() + keyword_offsets_[q],
             keyword_offsets_[q + 1] - keyword_offsets_[q]};
    } else {
      const int64_t i = has.Find(q);
      kws = i >= 0 ? has.Ids(static_cast<size_t>(i)) : Old(Rel::kKeywords).Neighbours(q).ids;
    }
    for (uint32_t k : kws)
      if (k != j && k < count.size() && count[k]++ == 0) seen.push_back(k);
  }
  row->clear();
  for (uint32_t k : seen) {
    row->push_back({k, count[k]});
    count[k] = 0;
  }
}

// Whether keyword j's own COOCCUR list (unchanged by this update) holds k.
bool Updater::OwnListHolds(uint32_t j, uint32_t k) {
  Adjacency::List l = Old(Rel::kCooccur).Neighbours(j);
  std::vector<Cooc> row;
  for (size_t x = 0; x < l.ids.size(); ++x) row.push_back({l.ids[x], l.attrs[x]});
  TopK(&row, options_.cooccur_top_k);
  return std::any_of(row.begin(), row.end(), [&](const Cooc& c) { return c.id == k; });
}

// The keyword layer only (extract-keywords): HAS_KEYWORD and COOCCUR patched
// for `papers`, every other file carried over.
Status Updater::RunKeywords(const std::vector<uint32_t>& papers) {
  // The citation counts do not change: ranked lists order by the stored ones.
  LITGRAPH_RETURN_IF_ERROR(Begin(papers, &citations_));
  LITGRAPH_RETURN_IF_ERROR(UpdateKeywords());
  Lap("cooccur");
  LITGRAPH_RETURN_IF_ERROR(FoldUnwrittenDeltas());
  LITGRAPH_RETURN_IF_ERROR(FinishWrites());
  Lap("writes");  // waiting for the writer thread
  for (const auto& [name, build] : old_.files())
    if (!out_->Identity(name).ok() && !folded_.count(name))
      LITGRAPH_RETURN_IF_ERROR(out_->Inherit(old_, name));
  nlohmann::json info = old_.info();
  SetRelationCounts(counts_, &info);
  info["generation"] = out_->number();
  info["keyword_update"] = CooccurCounts();
  info["keyword_update"]["papers"] = papers_.size();
  info["keyword_update"]["adjacency"] = AdjacencyCounts();
  info["keyword_update"]["seconds"] = seconds_;
  out_->info() = info;
  return Status::Ok();
}

// Whether the current generation can be patched: it has the files an update
// reads, in the layout these options write.
bool Patchable(const GenerationView& view, const GraphBuildOptions& options) {
  for (const char* name :
       {kDanglingFile, "related.adj", "cites.in.ranked", "keywords.adj", "cooccur.adj"})
    if (!view.Has(name)) return false;
  Adjacency related;
  if (!related.Open(view, "related.adj").ok() || !related.has_attrs() ||
      (related.num_nodes() > 0 && related.nodes_per_block() != options.nodes_per_block))
    return false;
  RankedLists ranked;
  return ranked.Open(view, "cites.in.ranked").ok() &&
         (ranked.lists() == 0 || ranked.length() == options.ranked_length);
}

}  // namespace

Status UpdateGraph(Store* store, const GraphChanges& changes, const GraphBuildOptions& options,
                   GraphBuildStats* stats) {
  auto t0 = std::chrono::steady_clock::now();
  auto current = store->Current("graph");
  if (!current.ok()) return current.status();
  const int64_t papers = store->MaxId(NodeType::kPaper);
  if (!*current || !Patchable(**current, options) ||
      static_cast<double>(changes.papers.size()) > options.full_build_fraction * papers)
    return BuildGraph(store, options, stats);
  const GenerationView& old = **current;
  Status st = InNewGeneration(store, [&](GenerationBuilder* out) -> Status {
    Updater u(store, old, out, options);
    return u.Run(changes, stats);
  });
  stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return st;
}

Status UpdateKeywordLayer(Store* store, const std::vector<uint32_t>& papers,
                          const GraphBuildOptions& options) {
  auto current = store->Current("graph");
  if (!current.ok()) return current.status();
  if (!*current) return Status::InvalidArgument("the store has no graph yet (run litgraph-ingest)");
  const int64_t n = store->MaxId(NodeType::kPaper);
  if (!Patchable(**current, options) ||
      static_cast<double>(papers.size()) > options.full_build_fraction * static_cast<double>(n))
    return RebuildKeywordLayer(store, options);
  const GenerationView& old = **current;
  return InNewGeneration(store, [&](GenerationBuilder* out) -> Status {
    Updater u(store, old, out, options);
    return u.RunKeywords(papers);
  });
}

}  // namespace litgraph
