#include "litgraph/graph_build.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <unordered_map>

#include "litgraph/checked_file.h"
#include "litgraph/coding.h"
#include "litgraph/edge_sort.h"
#include "litgraph/files.h"
#include "litgraph/flat_map.h"
#include "litgraph/generation.h"
#include "litgraph/graph.h"
#include "litgraph/lexical.h"
#include "litgraph/store.h"

namespace litgraph {

namespace {

namespace fs = std::filesystem;

// How parallel edges (the same pair twice) combine their attributes.
enum class Merge { kFirst, kSum, kMax };

// The id space of every node type: max dense id + 1.
struct NodeSpace {
  uint64_t size[kNodeTypeCount];
  explicit NodeSpace(Store* store) {
    for (int t = 0; t < kNodeTypeCount; ++t)
      size[t] = static_cast<uint64_t>(store->MaxId(static_cast<NodeType>(t))) + 1;
  }
  uint64_t operator[](NodeType t) const { return size[static_cast<int>(t)]; }
};

// Where sorters spill and how much each may hold (edge_sort.h).
struct SortPlan {
  std::string dir;
  size_t budget_per_sorter;
  const NodeSpace* space;
  EdgeSorter Sorter(Rel direction) const {
    static std::atomic<uint64_t> serial{0};
    return EdgeSorter(dir, fmt::format("sort.{}.{}", GetRelInfo(direction).file, serial++),
                      (*space)[GetRelInfo(direction).from], budget_per_sorter);
  }
};

// Edges of one relation, collected in its direction `rel` and sorted for it
// and, when it has one, for its reverse.
struct Edges {
  Edges(const SortPlan& plan, Rel rel) : rel(rel), fwd(plan.Sorter(rel)) {
    if (GetRelInfo(rel).reverse != rel) back.emplace(plan.Sorter(GetRelInfo(rel).reverse));
  }
  void Add(uint32_t s, uint32_t d, uint32_t a = 0) {
    fwd.Add(s, d, a);
    if (back) back->Add(d, s, a);
  }
  Rel rel;
  EdgeSorter fwd;
  std::optional<EdgeSorter> back;
};

// Calls fn(node, ids, attrs) for each source's list in ascending order, ids
// ascending and parallel edges combined by `merge` (the first is the one of
// the smallest attribute). Attributes are kept when `with_attrs`.
template <typename Fn>
Status ForEachList(EdgeSorter& sorter, Merge merge, bool with_attrs, Fn&& fn) {
  LITGRAPH_RETURN_IF_ERROR(sorter.status());
  EdgeSorter::Reader r = sorter.Read();
  std::vector<uint32_t> ids, attrs;
  int64_t node = -1;
  auto flush = [&]() -> Status {
    Status st;
    if (node >= 0 && !ids.empty()) st = fn(static_cast<uint64_t>(node), ids, attrs);
    ids.clear();
    attrs.clear();
    return st;
  };
  for (const Edge* e = r.Next(); e; e = r.Next()) {
    if (static_cast<int64_t>(e->src) != node) {
      LITGRAPH_RETURN_IF_ERROR(flush());
      node = e->src;
    }
    if (!ids.empty() && ids.back() == e->dst) {  // a parallel edge
      if (with_attrs) {
        if (merge == Merge::kSum)
          attrs.back() += e->attr;
        else if (merge == Merge::kMax)
          attrs.back() = std::max(attrs.back(), e->attr);
      }
      continue;
    }
    ids.push_back(e->dst);
    if (with_attrs) attrs.push_back(e->attr);
  }
  LITGRAPH_RETURN_IF_ERROR(r.status());
  return flush();
}

// The ranked list of a hub relation's list (graph.h): for a list longer
// than `length`, its first `length` entries by attribute rank, citations
// (lists of papers; `citations` as stored in paper.citations), id. Empty
// for shorter lists.
void RankList(Rel rel, std::span<const uint32_t> ids, std::span<const uint32_t> attrs,
              std::span<const uint32_t> citations, uint32_t length, std::vector<uint32_t>* out_ids,
              std::vector<uint32_t>* out_attrs) {
  out_ids->clear();
  out_attrs->clear();
  if (ids.size() <= length) return;
  const bool with_attrs = !attrs.empty();
  const bool papers = GetRelInfo(rel).to == NodeType::kPaper;
  auto cites = [&](uint32_t p) {
    return papers && p < citations.size() ? CitationCount(citations[p]) : 0u;
  };
  auto rank = [&](uint32_t i) { return with_attrs ? RankedAttr(rel, attrs[i]) : 0u; };
  std::vector<uint32_t> order(ids.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::partial_sort(order.begin(), order.begin() + length, order.end(),
                    [&](uint32_t x, uint32_t y) {
                      if (rank(x) != rank(y)) return rank(x) > rank(y);
                      uint32_t cx = cites(ids[x]), cy = cites(ids[y]);
                      if (cx != cy) return cx > cy;
                      return ids[x] < ids[y];
                    });
  for (size_t k = 0; k < length; ++k) {
    out_ids->push_back(ids[order[k]]);
    if (with_attrs) out_attrs->push_back(attrs[order[k]]);
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

// Writes each relation's adjacency file, and ranked lists beside the hub
// relations, on a second thread while the next relation is collected: at
// most two relations in flight, each merging its sorted runs.
class RelationWriter {
 public:
  RelationWriter(GenerationBuilder* out, const GraphBuildOptions& options, const NodeSpace& space)
      : out_(out), options_(options), space_(space) {}
  ~RelationWriter() { Wait(); }

  // The citation counts ranked lists order papers by (paper.citations of the
  // generation being written); must outlive the writes.
  void set_citations(std::span<const uint32_t> c) { citations_ = c; }

  Status Write(Rel rel, EdgeSorter sorter, Merge merge) {
    const RelInfo& info = GetRelInfo(rel);
    FileIdentity adj = out_->NewFile(std::string(info.file) + ".adj");
    FileIdentity ranked =
        info.ranked ? out_->NewFile(std::string(info.file) + ".ranked") : FileIdentity{};
    auto task = std::make_shared<EdgeSorter>(std::move(sorter));
    pending_.push_back(std::async(std::launch::async, [this, rel, adj, ranked, task, merge] {
      return WriteFiles(rel, adj, ranked, task.get(), merge);
    }));
    if (pending_.size() < 2) return Status::Ok();
    Status st = pending_.front().get();
    pending_.erase(pending_.begin());
    return st;
  }
  // Writes a relation collected in its own direction and, when it has one,
  // its reverse.
  Status WriteBothWays(Edges e, Merge merge) {
    Rel rel = e.rel;
    LITGRAPH_RETURN_IF_ERROR(Write(rel, std::move(e.fwd), merge));
    if (!e.back) return Status::Ok();
    return Write(GetRelInfo(rel).reverse, std::move(*e.back), merge);
  }
  // Waits for every write; the first failure.
  Status Finish() {
    Status result;
    for (auto& f : pending_) {
      Status st = f.get();
      if (result.ok()) result = st;
    }
    pending_.clear();
    return result;
  }
  int64_t edges() const { return edges_; }
  const nlohmann::json& counts() const { return counts_; }

 private:
  Status WriteFiles(Rel rel, const FileIdentity& adj_id, const FileIdentity& ranked_id,
                    EdgeSorter* sorter, Merge merge) {
    const RelInfo& info = GetRelInfo(rel);
    const bool with_attrs = info.attr[0] != '\0';
    AdjacencyWriter adj;
    LITGRAPH_RETURN_IF_ERROR(adj.Open(out_->Path(adj_id.name), adj_id, space_[info.from],
                                      with_attrs, false, options_.nodes_per_block,
                                      options_.zstd_level));
    RankedListsWriter ranked;
    if (info.ranked)
      LITGRAPH_RETURN_IF_ERROR(
          ranked.Open(out_->Path(ranked_id.name), ranked_id, with_attrs, options_.ranked_length));
    std::vector<uint32_t> top_ids, top_attrs;
    LITGRAPH_RETURN_IF_ERROR(ForEachList(
        *sorter, merge, with_attrs,
        [&](uint64_t node, std::span<const uint32_t> ids,
            std::span<const uint32_t> attrs) -> Status {
          LITGRAPH_RETURN_IF_ERROR(adj.Add(node, ids, attrs));
          if (!info.ranked) return Status::Ok();
          RankList(rel, ids, attrs, citations_, options_.ranked_length, &top_ids, &top_attrs);
          if (top_ids.empty()) return Status::Ok();
          return ranked.Add(static_cast<uint32_t>(node), top_ids, top_attrs);
        }));
    LITGRAPH_RETURN_IF_ERROR(adj.Finish());
    if (info.ranked) LITGRAPH_RETURN_IF_ERROR(ranked.Finish());
    std::lock_guard<std::mutex> lock(mu_);
    edges_ += static_cast<int64_t>(adj.edges());
    counts_[info.file] = adj.edges();
    return Status::Ok();
  }
  void Wait() {
    for (auto& f : pending_)
      if (f.valid()) f.wait();
  }

  GenerationBuilder* out_;
  const GraphBuildOptions& options_;
  const NodeSpace& space_;
  std::span<const uint32_t> citations_;
  std::vector<std::future<Status>> pending_;
  std::mutex mu_;  // guards edges_ and counts_
  int64_t edges_ = 0;
  nlohmann::json counts_ = nlohmann::json::object();
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
    for (const PackedId& ref : refs) fn(ids.Find(ref));
    return ok;
  };
  bool corrupt = false;
  int64_t corrupt_paper = 0;
  store->ForEachPaperLinks([&](const PaperLinksRow& row) {
    uint32_t p = static_cast<uint32_t>(row.id);
    bool ok = resolve(row.refs, [&](uint32_t q) {
      if (q == 0)
        ++stats->dangling_references;
      else if (q != p)
        cites.Add(p, q);
    });
    ok = resolve(row.related,
                 [&](uint32_t q) {
                   if (q != 0 && q != p) {
                     related.Add(p, q);
                     related.Add(q, p);
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
  LITGRAPH_RETURN_IF_ERROR(w->WriteBothWays(std::move(cites), Merge::kFirst));
  LITGRAPH_RETURN_IF_ERROR(w->WriteBothWays(std::move(related), Merge::kFirst));
  return w->WriteBothWays(std::move(published), Merge::kFirst);
}

// COAUTHOR pairs of one paper's authors (in author order). A paper with more
// than kCoauthorFullTeam authors contributes pairs among its first
// kCoauthorHead and last kCoauthorTail authors only.
void AddTeam(const std::vector<uint32_t>& team, Edges* coauthor) {
  std::vector<uint32_t> members;
  if (static_cast<int>(team.size()) > kCoauthorFullTeam) {
    members.assign(team.begin(), team.begin() + kCoauthorHead);
    members.insert(members.end(), team.end() - kCoauthorTail, team.end());
  } else {
    members = team;
  }
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  for (size_t i = 0; i < members.size(); ++i)
    for (size_t j = i + 1; j < members.size(); ++j) {
      coauthor->Add(members[i], members[j], 1);
      coauthor->Add(members[j], members[i], 1);
    }
}

// AUTHORED, COAUTHOR and AFFILIATED_WITH from the authorships.
Status BuildAuthorshipRelations(Store* store, const SortPlan& plan, RelationWriter* w) {
  Edges authored(plan, Rel::kAuthors), coauthor(plan, Rel::kCoauthor),
      affiliated(plan, Rel::kAffiliations);
  int64_t cur = -1;
  std::vector<uint32_t> team;
  store->ForEachAuthorship([&](const AuthorshipRow& row) {
    if (row.paper != cur) {
      AddTeam(team, &coauthor);
      team.clear();
      cur = row.paper;
    }
    uint32_t author = static_cast<uint32_t>(row.author);
    uint32_t attr = static_cast<uint32_t>(std::min<int64_t>(row.position, 1 << 20)) << 1 |
                    (row.is_corresponding ? 1u : 0u);
    authored.Add(static_cast<uint32_t>(row.paper), author, attr);
    team.push_back(author);
    std::string_view inst = row.institutions;
    size_t p = 0;
    while (p < inst.size()) {
      size_t e = inst.find(' ', p);
      if (e == std::string_view::npos) e = inst.size();
      affiliated.Add(author,
                     static_cast<uint32_t>(
                         std::strtoul(std::string(inst.substr(p, e - p)).c_str(), nullptr, 10)),
                     1);
      p = e + 1;
    }
  });
  AddTeam(team, &coauthor);
  store->ForEachAuthorLastInstitution([&](int64_t author, int64_t inst) {
    affiliated.Add(static_cast<uint32_t>(author), static_cast<uint32_t>(inst), 1);
  });
  // An author listed twice on one paper keeps the first position (kFirst
  // after sorting by (id, attr)).
  LITGRAPH_RETURN_IF_ERROR(w->WriteBothWays(std::move(authored), Merge::kFirst));
  LITGRAPH_RETURN_IF_ERROR(w->WriteBothWays(std::move(coauthor), Merge::kSum));
  return w->WriteBothWays(std::move(affiliated), Merge::kSum);
}

// HAS_TOPIC and the topic hierarchy (SUBFIELD_OF, FIELD_OF, DOMAIN_OF).
Status BuildTopicRelations(Store* store, const SortPlan& plan, RelationWriter* w) {
  Edges topics(plan, Rel::kTopics);
  store->ForEachPaperTopic(
      [&](int64_t paper, int64_t topic, std::optional<double> score, bool primary) {
        uint32_t milli =
            static_cast<uint32_t>(std::lround(std::clamp(score.value_or(0.0), 0.0, 1.0) * 1000));
        topics.Add(static_cast<uint32_t>(paper), static_cast<uint32_t>(topic),
                   milli << 1 | (primary ? 1u : 0u));
      });
  LITGRAPH_RETURN_IF_ERROR(w->WriteBothWays(std::move(topics), Merge::kMax));
  for (Rel up : {Rel::kTopicSubfield, Rel::kSubfieldField, Rel::kFieldDomain}) {
    Edges e(plan, up);
    store->ForEachParent(GetRelInfo(up).from, [&](int64_t child, int64_t parent) {
      e.Add(static_cast<uint32_t>(child), static_cast<uint32_t>(parent));
    });
    LITGRAPH_RETURN_IF_ERROR(w->WriteBothWays(std::move(e), Merge::kFirst));
  }
  return Status::Ok();
}

// HAS_KEYWORD both ways and COOCCUR. COOCCUR keeps each keyword's
// kCooccurTopK strongest co-occurrences and the reverse of those edges:
// popular keywords co-occur with thousands of others, mostly once, which
// costs every walk through them and says little.
Status BuildKeywordRelations(Store* store, const SortPlan& plan, RelationWriter* w) {
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
        size_t keep = std::min<size_t>(order.size(), kCooccurTopK);
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

}  // namespace

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
    LITGRAPH_RETURN_IF_ERROR(BuildKeywordRelations(store, plan, &w));
    LITGRAPH_RETURN_IF_ERROR(w.Finish());
    LITGRAPH_RETURN_IF_ERROR(lexical_done.valid()
                                 ? lexical_done.get()
                                 : BuildLexicalIndexes(store, out, options.memory_budget, &ls));
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
    LITGRAPH_RETURN_IF_ERROR(BuildKeywordRelations(store, plan, &w));
    LITGRAPH_RETURN_IF_ERROR(w.Finish());
    nlohmann::json info = view.info();
    for (const auto& [name, count] : w.counts().items()) info["relations"][name] = count;
    int64_t edges = 0;  // the total over every relation, the new keyword layer included
    for (const auto& [name, count] : info["relations"].items()) edges += count.get<int64_t>();
    info["edges"] = edges;
    info["generation"] = out->number();
    out->info() = info;
    return Status::Ok();
  });
}

}  // namespace litgraph
