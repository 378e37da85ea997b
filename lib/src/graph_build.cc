#include "litgraph/graph_build.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <unordered_map>

#include "graph_build_parts.h"
#include "litgraph/checked_file.h"
#include "litgraph/coding.h"
#include "litgraph/edge_sort.h"
#include "litgraph/files.h"
#include "litgraph/flat_map.h"
#include "litgraph/generation.h"
#include "litgraph/graph.h"
#include "litgraph/lexical.h"
#include "litgraph/store.h"
#include "parallel_chunks.h"

namespace litgraph {

namespace graph_parts {

namespace fs = std::filesystem;

// The ranked list of a hub relation's list (graph.h): for a list longer
// than `length`, its first `length` entries by attribute rank, citations
// (lists of papers; `citations` as stored in paper.citations), id. Empty
// for shorter lists.
void RankList(Rel rel, std::span<const uint32_t> ids, std::span<const uint32_t> attrs,
              std::span<const uint32_t> citations, uint32_t length, std::vector<uint32_t>* out_ids,
              std::vector<uint32_t>* out_attrs) {
  out_ids->clear();
  out_attrs->clear();
  const size_t n = ids.size();
  if (n <= length) return;
  const bool with_attrs = !attrs.empty();
  const bool papers = GetRelInfo(rel).to == NodeType::kPaper;
  // Each entry's rank as one key, (attribute rank << 32 | citations): the
  // order is key descending, then id ascending. Made once per entry, so the
  // selection compares integers (a comparator that looked both up again cost
  // 10% of a 10M-work update, for venue and topic lists of 2,000+ papers).
  thread_local std::vector<uint64_t> keys, heap;
  thread_local std::vector<uint32_t> pick, ties;
  keys.resize(n);
  const uint32_t* cites = citations.data();
  const size_t n_cites = citations.size();
  constexpr size_t kAhead = 16;  // prefetch distance into paper.citations
  for (size_t i = 0; i < n; ++i) {
    uint64_t c = 0;
    if (papers) {
      if (i + kAhead < n && ids[i + kAhead] < n_cites) __builtin_prefetch(cites + ids[i + kAhead]);
      if (ids[i] < n_cites) c = CitationCount(cites[ids[i]]);
    }
    const uint64_t r = with_attrs ? RankedAttr(rel, attrs[i]) : 0;
    keys[i] = r << 32 | c;
  }
  // The length-th largest key (a min-heap of the best keys seen).
  heap.assign(keys.begin(), keys.begin() + length);
  std::make_heap(heap.begin(), heap.end(), std::greater<>());
  for (size_t i = length; i < n; ++i)
    if (keys[i] > heap.front()) {
      std::pop_heap(heap.begin(), heap.end(), std::greater<>());
      heap.back() = keys[i];
      std::push_heap(heap.begin(), heap.end(), std::greater<>());
    }
  const uint64_t floor = heap.front();
  // Every entry above the floor, and of those at it the smallest ids.
  pick.clear();
  ties.clear();
  for (uint32_t i = 0; i < n; ++i) {
    if (keys[i] > floor)
      pick.push_back(i);
    else if (keys[i] == floor)
      ties.push_back(i);
  }
  auto by_id = [&](uint32_t x, uint32_t y) { return ids[x] < ids[y]; };
  const size_t need = length - pick.size();
  if (ties.size() > need) std::nth_element(ties.begin(), ties.begin() + need, ties.end(), by_id);
  pick.insert(pick.end(), ties.begin(), ties.begin() + need);
  std::sort(pick.begin(), pick.end(), [&](uint32_t x, uint32_t y) {
    return keys[x] != keys[y] ? keys[x] > keys[y] : ids[x] < ids[y];
  });
  for (uint32_t i : pick) {
    out_ids->push_back(ids[i]);
    if (with_attrs) out_attrs->push_back(attrs[i]);
  }
}

// Resolves external paper ids (as packed in paper.refs) to dense ids.
class PaperIdMap {
 public:
  explicit PaperIdMap(size_t expected) { works_.reserve(expected); }
  void Add(std::string_view ext, uint32_t id) {
    uint64_t n = PackedWorkNumber(ext);
    if (n != 0)
      works_[n] = id;
    else
      other_.emplace(std::string(ext), id);
  }
  void Prefetch(const PackedId& p) const {
    if (p.is_work_number) works_.Prefetch(p.work_number);
  }
  // 0 when unknown (dense ids start at 1).
  uint32_t Find(const PackedId& p) const {
    if (p.is_work_number) {
      const uint32_t* id = works_.Find(p.work_number);
      return id ? *id : 0;
    }
    auto it = other_.find(std::string(p.text));
    return it == other_.end() ? 0 : it->second;
  }

 private:
  U64Map<uint32_t> works_;
  std::unordered_map<std::string, uint32_t> other_;
};

// CITES, RELATED_TO, PUBLISHED_IN and the paper attribute arrays
// (paper.citations, paper.years). *citations receives paper.citations.
Status BuildPaperRelations(Store* store, GenerationBuilder* out, const SortPlan& plan,
                           RelationWriter* w, std::vector<uint32_t>* citations,
                           GraphBuildStats* stats) {
  const NodeSpace& space = *plan.space;
  const uint64_t n_papers = space[NodeType::kPaper];
  PaperIdMap ids(n_papers);
  store->ForEachPaperExtId(
      [&](int64_t id, std::string_view ext) { ids.Add(ext, static_cast<uint32_t>(id)); });
  Edges cites(plan, Rel::kCitesOut), related(plan, Rel::kRelated),
      published(plan, Rel::kPublishedIn);
  std::vector<int64_t> record_counts(n_papers, -1);
  std::vector<uint16_t> years(n_papers, 0);
  // A row's ids are decoded, then prefetched, then resolved: the lookups'
  // cache misses overlap.
  std::vector<PackedId> refs;
  auto resolve = [&](std::string_view blob, auto&& fn) {
    refs.clear();
    bool ok = ForEachPackedId(blob, [&](const PackedId& ref) { refs.push_back(ref); });
    for (const PackedId& ref : refs) ids.Prefetch(ref);
    for (const PackedId& ref : refs) fn(ref, ids.Find(ref));
    return ok;
  };
  DanglingSorter dangling(plan);
  bool corrupt = false;
  int64_t corrupt_paper = 0;
  store->ForEachPaperLinks([&](const PaperLinksRow& row) {
    uint32_t p = static_cast<uint32_t>(row.id);
    bool ok = resolve(row.refs, [&](const PackedId& ref, uint32_t q) {
      if (q == 0) {
        dangling.Add(ReferenceKey(ref), p);
      } else if (q != p) {
        cites.Add(p, q);
      }
    });
    ok = resolve(row.related,
                 [&](const PackedId& ref, uint32_t q) {
                   if (q == 0) {
                     dangling.Add(ReferenceKey(ref), p | kDanglingRelated);
                   } else if (q != p) {
                     related.fwd.Add(p, q, kRelatedListed);
                     related.fwd.Add(q, p, kRelatedListedBy);
                   }
                 }) &&
         ok;
    if (!ok && !corrupt) corrupt = true, corrupt_paper = row.id;
    if (row.source_id) published.Add(p, static_cast<uint32_t>(*row.source_id));
    if (row.cited_by_count) record_counts[p] = *row.cited_by_count;
    if (row.year) years[p] = static_cast<uint16_t>(std::clamp<int64_t>(*row.year, 0, 65535));
  });
  if (corrupt)
    return Status::Corruption(fmt::format("paper {}: corrupt reference list", corrupt_paper));
  // The in-store in-degree: the length of each paper's cites.in list.
  std::vector<uint32_t> in_store(n_papers, 0);
  LITGRAPH_RETURN_IF_ERROR(
      ForEachList(*cites.back, Merge::kFirst, false,
                  [&](uint64_t p, std::span<const uint32_t> ids, std::span<const uint32_t>) {
                    if (p < n_papers) in_store[p] = static_cast<uint32_t>(ids.size());
                    return Status::Ok();
                  }));
  for (uint32_t d : in_store) stats->cites_edges += d;
  // The count ranking uses: the record's when present, else the in-store
  // in-degree, flagged.
  citations->assign(n_papers, 0);
  for (uint64_t p = 0; p < n_papers; ++p) {
    int64_t c = record_counts[p];
    (*citations)[p] = c >= 0 ? static_cast<uint32_t>(std::min<int64_t>(c, ~kCitationsFromStoreBit))
                             : (in_store[p] | kCitationsFromStoreBit);
  }
  w->set_citations(*citations);
  LITGRAPH_RETURN_IF_ERROR(
      WriteCheckedFile(out->Path("paper.citations"), out->NewFile("paper.citations"),
                       {reinterpret_cast<const char*>(citations->data()), citations->size() * 4}));
  LITGRAPH_RETURN_IF_ERROR(
      WriteCheckedFile(out->Path("paper.years"), out->NewFile("paper.years"),
                       {reinterpret_cast<const char*>(years.data()), years.size() * 2}));
  LITGRAPH_RETURN_IF_ERROR(dangling.Write(out, &stats->dangling_references));
  LITGRAPH_RETURN_IF_ERROR(w->WriteBothWays(std::move(cites), Merge::kFirst));
  LITGRAPH_RETURN_IF_ERROR(w->WriteBothWays(std::move(related), Merge::kOr));
  return w->WriteBothWays(std::move(published), Merge::kFirst);
}

void AddTeam(const std::vector<uint32_t>& team, uint32_t weight,
             const std::function<void(uint32_t, uint32_t, uint32_t)>& add) {
  std::vector<uint32_t> members;
  if (static_cast<int>(team.size()) > kCoauthorFullTeam) {
    members.assign(team.begin(), team.begin() + kCoauthorHead);
    members.insert(members.end(), team.end() - kCoauthorTail, team.end());
  } else {
    members = team;
  }
  std::sort(members.begin(), members.end());
  for (size_t i = 0; i < members.size(); ++i)
    for (size_t j = i + 1; j < members.size(); ++j) {
      add(members[i], members[j], weight);
      add(members[j], members[i], weight);
    }
}

uint32_t AuthorshipAttr(int64_t position, bool is_corresponding) {
  return static_cast<uint32_t>(std::clamp<int64_t>(position, 0, 1 << 20)) << 1 |
         (is_corresponding ? 1u : 0u);
}

uint32_t TopicAttr(std::optional<double> score, bool primary) {
  uint32_t milli =
      static_cast<uint32_t>(std::lround(std::clamp(score.value_or(0.0), 0.0, 1.0) * 1000));
  return milli << 1 | (primary ? 1u : 0u);
}

// AUTHORED, COAUTHOR and AFFILIATED_WITH from the authorships.
// ---- Dangling references ----------------------------------------------------
//
// cites.dangling payload: header 32 bytes (magic "LGDNG\0\0\1", u64 entries,
// u64[2] reserved), then per entry u64 key and u32 paper, ascending.

namespace {
constexpr char kDanglingMagic[8] = {'L', 'G', 'D', 'N', 'G', 0, 0, 1};
constexpr size_t kDanglingHeader = 32, kDanglingEntry = 12;
}  // namespace

uint64_t ReferenceKey(const PackedId& ref) {
  if (ref.is_work_number) return ref.work_number & ~(uint64_t{1} << 63);
  return XXH3_64bits(ref.text.data(), ref.text.size()) | uint64_t{1} << 63;
}

uint64_t ReferenceKey(std::string_view ext_id) {
  uint64_t n = PackedWorkNumber(ext_id);
  if (n != 0) return n & ~(uint64_t{1} << 63);
  return XXH3_64bits(ext_id.data(), ext_id.size()) | uint64_t{1} << 63;
}

Status DanglingWriter::Open(const std::string& path, const FileIdentity& id) {
  LITGRAPH_RETURN_IF_ERROR(out_.Open(path, id));
  return out_.Append(std::string(kDanglingHeader, '\0'));
}

Status DanglingWriter::Add(uint64_t key, uint32_t paper) {
  buf_.append(reinterpret_cast<const char*>(&key), 8);
  buf_.append(reinterpret_cast<const char*>(&paper), 4);
  ++count_;
  if (buf_.size() < (1u << 20)) return Status::Ok();
  Status st = out_.Append(buf_);
  buf_.clear();
  return st;
}

Status DanglingWriter::Finish() {
  LITGRAPH_RETURN_IF_ERROR(out_.Append(buf_));
  char header[kDanglingHeader] = {};
  std::memcpy(header, kDanglingMagic, 8);
  std::memcpy(header + 8, &count_, 8);
  LITGRAPH_RETURN_IF_ERROR(out_.PatchHeader(0, {header, kDanglingHeader}));
  return out_.Finish();
}

Status DanglingSorter::Write(GenerationBuilder* out, int64_t* references) {
  DanglingWriter w;
  LITGRAPH_RETURN_IF_ERROR(w.Open(out->Path(kDanglingFile), out->NewFile(kDanglingFile)));
  LITGRAPH_RETURN_IF_ERROR(sorter_.status());
  EdgeSorter::Reader r = sorter_.Read();
  Edge last{};
  bool any = false;
  for (const Edge* e = r.Next(); e; e = r.Next()) {
    if (any && e->src == last.src && e->dst == last.dst && e->attr == last.attr) continue;
    last = *e;
    any = true;
    LITGRAPH_RETURN_IF_ERROR(w.Add(uint64_t{e->src} << 32 | e->dst, e->attr));
    if (!(e->attr & kDanglingRelated)) ++*references;
  }
  LITGRAPH_RETURN_IF_ERROR(r.status());
  return w.Finish();
}

Status DanglingIndex::Open(const GenerationView& view) {
  LITGRAPH_RETURN_IF_ERROR(view.OpenFile(kDanglingFile, &file_));
  const uint8_t* h = file_.Read(0, kDanglingHeader);
  if (!h || std::memcmp(h, kDanglingMagic, 8) != 0)
    return Status::Corruption(file_.path() + ": not a dangling-references file");
  std::memcpy(&count_, h + 8, 8);
  if (count_ > (file_.size() - kDanglingHeader) / kDanglingEntry ||
      kDanglingHeader + count_ * kDanglingEntry != file_.size())
    return Status::Corruption(file_.path() + ": corrupt dangling-references header");
  return Status::Ok();
}

uint64_t DanglingIndex::Key(uint64_t i) const {
  uint64_t k = 0;
  if (const uint8_t* p = file_.Read(kDanglingHeader + i * kDanglingEntry, 8)) std::memcpy(&k, p, 8);
  return k;
}

uint32_t DanglingIndex::Paper(uint64_t i) const {
  uint32_t v = 0;
  if (const uint8_t* p = file_.Read(kDanglingHeader + i * kDanglingEntry + 8, 4))
    std::memcpy(&v, p, 4);
  return v;
}

uint64_t DanglingIndex::LowerBound(uint64_t key) const {
  uint64_t lo = 0, hi = count_;
  while (lo < hi) {
    uint64_t mid = (lo + hi) / 2;
    if (Key(mid) < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

Status BuildAuthorshipRelations(Store* store, const SortPlan& plan, RelationWriter* w) {
  Edges authored(plan, Rel::kAuthors), coauthor(plan, Rel::kCoauthor),
      affiliated(plan, Rel::kAffiliations);
  auto add_pair = [&](uint32_t a, uint32_t b, uint32_t n) { coauthor.fwd.Add(a, b, n); };
  int64_t cur = -1;
  std::vector<uint32_t> team;  // distinct authors in author order
  store->ForEachAuthorship([&](const AuthorshipRow& row) {
    if (row.paper != cur) {
      AddTeam(team, 1, add_pair);
      team.clear();
      cur = row.paper;
    }
    uint32_t author = static_cast<uint32_t>(row.author);
    authored.Add(static_cast<uint32_t>(row.paper), author,
                 AuthorshipAttr(row.position, row.is_corresponding));
    if (std::find(team.begin(), team.end(), author) == team.end()) team.push_back(author);
    ForEachInstitutionId(row.institutions, [&](uint32_t inst) { affiliated.Add(author, inst, 1); });
  });
  AddTeam(team, 1, add_pair);
  store->ForEachAuthorLastInstitution([&](int64_t author, int64_t inst) {
    affiliated.Add(static_cast<uint32_t>(author), static_cast<uint32_t>(inst), 1);
  });
  // An author listed twice on one paper keeps the first position (kFirst
  // after sorting by (id, attr)).
  LITGRAPH_RETURN_IF_ERROR(w->WriteBothWays(std::move(authored), Merge::kFirst));
  LITGRAPH_RETURN_IF_ERROR(w->WriteBothWays(std::move(coauthor), Merge::kSum));
  return w->WriteBothWays(std::move(affiliated), Merge::kSum);
}

// HAS_TOPIC.
Status BuildTopicRelations(Store* store, const SortPlan& plan, RelationWriter* w) {
  Edges topics(plan, Rel::kTopics);
  store->ForEachPaperTopic(
      [&](int64_t paper, int64_t topic, std::optional<double> score, bool primary) {
        topics.Add(static_cast<uint32_t>(paper), static_cast<uint32_t>(topic),
                   TopicAttr(score, primary));
      });
  return w->WriteBothWays(std::move(topics), Merge::kMax);
}

Status BuildHierarchyRelations(Store* store, const SortPlan& plan, RelationWriter* w) {
  for (Rel up : {Rel::kTopicSubfield, Rel::kSubfieldField, Rel::kFieldDomain}) {
    Edges e(plan, up);
    store->ForEachParent(GetRelInfo(up).from, [&](int64_t child, int64_t parent) {
      e.Add(static_cast<uint32_t>(child), static_cast<uint32_t>(parent));
    });
    LITGRAPH_RETURN_IF_ERROR(w->WriteBothWays(std::move(e), Merge::kFirst));
  }
  return Status::Ok();
}

// HAS_KEYWORD both ways and COOCCUR. COOCCUR keeps each keyword's top_k
// strongest co-occurrences (its own list) and the reverse of those edges:
// popular keywords co-occur with thousands of others, mostly once, which
// costs every walk through them and says little.
Status BuildKeywordRelations(Store* store, const SortPlan& plan, RelationWriter* w, size_t top_k) {
  Edges has(plan, Rel::kKeywords), cooc(plan, Rel::kCooccur);
  int64_t cur = -1;
  std::vector<uint32_t> kws;
  auto flush = [&] {
    std::sort(kws.begin(), kws.end());
    for (size_t i = 0; i < kws.size(); ++i)
      for (size_t j = i + 1; j < kws.size(); ++j) {
        cooc.Add(kws[i], kws[j], 1);
        cooc.Add(kws[j], kws[i], 1);
      }
    kws.clear();
  };
  store->ForEachPaperKeyword([&](int64_t paper, int64_t keyword, int64_t score) {
    if (paper != cur) {
      flush();
      cur = paper;
    }
    uint32_t kw = static_cast<uint32_t>(keyword);
    has.Add(static_cast<uint32_t>(cur), kw, static_cast<uint32_t>(score));
    kws.push_back(kw);
  });
  flush();
  LITGRAPH_RETURN_IF_ERROR(w->WriteBothWays(std::move(has), Merge::kMax));
  Edges top(plan, Rel::kCooccur);
  std::vector<std::pair<uint32_t, uint32_t>> order;
  LITGRAPH_RETURN_IF_ERROR(ForEachList(
      cooc.fwd, Merge::kSum, true,
      [&](uint64_t k, std::span<const uint32_t> ids, std::span<const uint32_t> attrs) {
        order.clear();
        for (size_t i = 0; i < ids.size(); ++i) order.emplace_back(attrs[i], ids[i]);
        size_t keep = std::min<size_t>(order.size(), top_k);
        std::partial_sort(order.begin(), order.begin() + keep, order.end(),
                          [](const auto& x, const auto& y) {
                            return x.first != y.first ? x.first > y.first : x.second < y.second;
                          });
        for (size_t i = 0; i < keep; ++i) {
          top.Add(static_cast<uint32_t>(k), order[i].second, order[i].first);
          top.Add(order[i].second, static_cast<uint32_t>(k), order[i].first);
        }
        return Status::Ok();
      }));
  cooc.fwd = EdgeSorter(plan.dir, "sort.done", 0, 0);  // its runs go
  return w->Write(Rel::kCooccur, std::move(top.fwd), Merge::kMax);
}

// Sorters collecting at once: six (three relations both ways) while the
// paper table is read, plus the two relations being written (whose buffers
// are spilled or small). Each gets an equal share of the budget.
SortPlan PlanSorts(GenerationBuilder* out, const GraphBuildOptions& options,
                   const NodeSpace& space) {
  constexpr size_t kSortersAtOnce = 8;
  return {out->dir(), options.memory_budget / kSortersAtOnce, &space};
}

bool IsKeywordFile(std::string_view name) {
  for (const RelInfo& r : AllRelations())
    if (r.from == NodeType::kKeyword || r.to == NodeType::kKeyword)
      if (name == std::string(r.file) + ".adj" || name == std::string(r.file) + ".ranked")
        return true;
  return false;
}

// Runs `build` into a new generation of the graph and commits it; on
// failure (a failed SQLite statement included) the new directory goes.
Status InNewGeneration(Store* store, const std::function<Status(GenerationBuilder*)>& build) {
  auto out = GenerationBuilder::Start(store, "graph");
  if (!out.ok()) return out.status();
  try {
    LITGRAPH_RETURN_IF_ERROR(build(out->get()));
    return (*out)->Commit();
  } catch (const StatusError& e) {
    return e.status();
  }
}

}  // namespace graph_parts

using namespace graph_parts;  // NOLINT(google-build-using-namespace): this file's own parts

Status BuildGraph(Store* store, const GraphBuildOptions& options, GraphBuildStats* stats) {
  auto t0 = std::chrono::steady_clock::now();
  return InNewGeneration(store, [&](GenerationBuilder* out) -> Status {
    const NodeSpace space(store);
    const uint64_t n_papers = space[NodeType::kPaper];
    // The lexical indexes of an empty store's first load were fed during the
    // load; they finish on a second thread while the relations are built.
    std::future<Status> lexical_done;
    LexicalBuildStats ls;
    if (options.lexical)
      lexical_done = std::async(std::launch::async,
                                [&] { return options.lexical->Write(out, n_papers, &ls); });
    struct WaitLexical {
      std::future<Status>& f;
      ~WaitLexical() {
        if (f.valid()) f.wait();
      }
    } wait_lexical{lexical_done};
    std::vector<uint32_t> citations;  // outlives the writer's pending writes
    const SortPlan plan = PlanSorts(out, options, space);
    RelationWriter w(out, options, space);
    LITGRAPH_RETURN_IF_ERROR(BuildPaperRelations(store, out, plan, &w, &citations, stats));
    LITGRAPH_RETURN_IF_ERROR(BuildAuthorshipRelations(store, plan, &w));
    LITGRAPH_RETURN_IF_ERROR(BuildTopicRelations(store, plan, &w));
    LITGRAPH_RETURN_IF_ERROR(BuildHierarchyRelations(store, plan, &w));
    LITGRAPH_RETURN_IF_ERROR(BuildKeywordRelations(store, plan, &w, options.cooccur_top_k));
    LITGRAPH_RETURN_IF_ERROR(w.Finish());
    LITGRAPH_RETURN_IF_ERROR(lexical_done.valid()
                                 ? lexical_done.get()
                                 : BuildLexicalIndexes(store, out, options.memory_budget, &ls,
                                                       Workers(options.threads)));
    stats->edges = w.edges();
    stats->lexical_terms = ls.terms;
    stats->lexical_postings = ls.postings;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(out->dir(), ec)) {
      auto size = static_cast<int64_t>(e.file_size(ec));
      stats->bytes += size;
      std::string name = e.path().filename().string();
      if (name == "cites.out.adj" || name == "cites.in.adj") stats->cites_bytes += size;
    }
    stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out->info() = {{"generation", out->number()},
                   {"edges", stats->edges},
                   {"cites_edges", stats->cites_edges},
                   {"dangling_references", stats->dangling_references},
                   {"bytes", stats->bytes},
                   {"relations", w.counts()},
                   {"lexical_terms", stats->lexical_terms},
                   {"lexical_postings", stats->lexical_postings},
                   {"nodes_per_block", options.nodes_per_block}};
    return Status::Ok();
  });
}

Status RebuildKeywordLayer(Store* store, const GraphBuildOptions& options) {
  auto from = store->Current("graph");
  if (!from.ok()) return from.status();
  if (!*from) return Status::InvalidArgument("the store has no graph yet (run litgraph-ingest)");
  const GenerationView& view = **from;
  return InNewGeneration(store, [&](GenerationBuilder* out) -> Status {
    for (const auto& [name, build] : view.files())
      if (!IsKeywordFile(name)) LITGRAPH_RETURN_IF_ERROR(out->Inherit(view, name));
    CheckedFile citations;
    LITGRAPH_RETURN_IF_ERROR(view.OpenFile("paper.citations", &citations));
    const uint8_t* c = citations.Read(0, citations.size());
    if (!c) return citations.status();
    const NodeSpace space(store);
    const SortPlan plan = PlanSorts(out, options, space);
    RelationWriter w(out, options, space);
    w.set_citations({reinterpret_cast<const uint32_t*>(c), citations.size() / 4});
    LITGRAPH_RETURN_IF_ERROR(BuildKeywordRelations(store, plan, &w, options.cooccur_top_k));
    LITGRAPH_RETURN_IF_ERROR(w.Finish());
    nlohmann::json info = view.info();
    SetRelationCounts(w.counts(), &info);
    info["generation"] = out->number();
    out->info() = info;
    return Status::Ok();
  });
}

}  // namespace litgraph
