// The graph build's shared parts (graph_build.cc builds a generation from
// scratch, graph_update.cc patches the current one): edge collection and
// sorting, ranked lists, the relation writer and the per-relation builders.
// Private to lib/src.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "litgraph/checked_file.h"
#include "litgraph/coding.h"
#include "litgraph/edge_sort.h"
#include "litgraph/generation.h"
#include "litgraph/graph.h"
#include "litgraph/graph_build.h"
#include "litgraph/store.h"

namespace litgraph::graph_parts {

// How parallel edges (the same pair twice) combine their attributes.
enum class Merge { kFirst, kSum, kMax, kOr };

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
        else if (merge == Merge::kOr)
          attrs.back() |= e->attr;
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

// A generation's info with the edge counts of the relations rewritten
// (`counts`: file name -> edges) set over the old ones; returns the total
// over every relation, which it records as "edges".
inline int64_t SetRelationCounts(const nlohmann::json& counts, nlohmann::json* info) {
  for (const auto& [name, count] : counts.items()) (*info)["relations"][name] = count;
  int64_t edges = 0;
  for (const auto& [name, count] : (*info)["relations"].items()) edges += count.get<int64_t>();
  (*info)["edges"] = edges;
  return edges;
}

// The ranked list of a hub relation's list (graph.h): for a list longer
// than `length`, its first `length` entries by attribute rank, citations
// (lists of papers; `citations` as stored in paper.citations), id. Empty
// for shorter lists.
void RankList(Rel rel, std::span<const uint32_t> ids, std::span<const uint32_t> attrs,
              std::span<const uint32_t> citations, uint32_t length, std::vector<uint32_t>* out_ids,
              std::vector<uint32_t>* out_attrs);

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

// COAUTHOR pairs of one paper's team (its distinct authors in author order),
// each pair both ways with `weight`. A team of more than kCoauthorFullTeam
// authors contributes pairs among its first kCoauthorHead and last
// kCoauthorTail authors only.
void AddTeam(const std::vector<uint32_t>& team, uint32_t weight,
             const std::function<void(uint32_t, uint32_t, uint32_t)>& add);
// The AUTHORED attribute of an authorship: position << 1 | is_corresponding.
uint32_t AuthorshipAttr(int64_t position, bool is_corresponding);
// The HAS_TOPIC attribute: round(score x 1000) << 1 | is_primary.
uint32_t TopicAttr(std::optional<double> score, bool primary);

// RELATED_TO's attribute bits: the paper lists the neighbour, the neighbour
// lists the paper (an edge has one or both).
inline constexpr uint32_t kRelatedListed = 1, kRelatedListedBy = 2;

// Dangling references (`cites.dangling`, doc/graph-format.md): every
// reference and related-work id that names no paper of the store, by key,
// so that a later update finds the papers whose links a new paper
// resolves. Entries are (key, citing paper | kDanglingRelated for
// RELATED_TO), ascending.
inline constexpr char kDanglingFile[] = "cites.dangling";
inline constexpr uint32_t kDanglingRelated = 1u << 31;
// An OpenAlex work's number; any other id's 64-bit hash with bit 63 set.
uint64_t ReferenceKey(const PackedId& ref);
uint64_t ReferenceKey(std::string_view ext_id);

// Writes the entries ascending; Add may come in any order when sorted
// through a DanglingSorter.
class DanglingWriter {
 public:
  Status Open(const std::string& path, const FileIdentity& id);
  Status Add(uint64_t key, uint32_t paper);
  Status Finish();

 private:
  CheckedFileWriter out_;
  std::string buf_;
  uint64_t count_ = 0;
};

// Collects entries in any order in bounded memory (an EdgeSorter).
class DanglingSorter {
 public:
  explicit DanglingSorter(const SortPlan& plan)
      : sorter_(plan.dir, "sort.dangling", 0, plan.budget_per_sorter) {}
  void Add(uint64_t key, uint32_t paper) {
    sorter_.Add(static_cast<uint32_t>(key >> 32), static_cast<uint32_t>(key), paper);
  }
  // Writes cites.dangling; *references: its entries of CITES.
  Status Write(GenerationBuilder* out, int64_t* references);

 private:
  EdgeSorter sorter_;
};

class DanglingIndex {
 public:
  Status Open(const GenerationView& view);
  uint64_t size() const { return count_; }
  uint64_t Key(uint64_t i) const;
  uint32_t Paper(uint64_t i) const;
  // The first entry with a key >= `key`.
  uint64_t LowerBound(uint64_t key) const;
  Status status() const { return file_.status(); }

 private:
  CheckedFile file_;
  uint64_t count_ = 0;
};

// Sorters collecting at once, each with an equal share of the budget.
SortPlan PlanSorts(GenerationBuilder* out, const GraphBuildOptions& options,
                   const NodeSpace& space);
bool IsKeywordFile(std::string_view name);
// The topic hierarchy (SUBFIELD_OF, FIELD_OF, DOMAIN_OF), both ways.
Status BuildHierarchyRelations(Store* store, const SortPlan& plan, RelationWriter* w);
Status BuildKeywordRelations(Store* store, const SortPlan& plan, RelationWriter* w, size_t top_k);
// Runs `build` into a new generation of the graph and commits it; on
// failure (a failed SQLite statement included) the new directory goes.
Status InNewGeneration(Store* store, const std::function<Status(GenerationBuilder*)>& build);

}  // namespace litgraph::graph_parts
