#include "litgraph/rwr.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>
#include <unordered_set>

namespace litgraph {

void RwrParams::Register(ParamTable* t) {
  // Weights and factors are bounded so that products of a few of them stay
  // finite (a weight of 1e308 made scores infinite, then NaN).
  constexpr double kMaxWeight = 1e6;
  // Each relation weight once, in the relation table's order.
  std::vector<double RelationWeights::*> seen;
  for (const RelInfo& r : AllRelations()) {
    if (std::find(seen.begin(), seen.end(), r.weight) != seen.end()) continue;
    seen.push_back(r.weight);
    t->Add(r.weight_name, &(this->*r.weight), r.weight_help, ParamTable::Between(0, kMaxWeight));
  }
  t->Add("eps_kw", &eps_kw, "kappa of non-seed keywords", ParamTable::Between(0, kMaxWeight));
  t->Add("c_max", &c_max, "Cap of log(1 + count) for COAUTHOR and COOCCUR",
         ParamTable::Between(0, kMaxWeight));
  t->Add("author_position_boost", &author_position_boost,
         "Factor on AUTHORED edges of first and last authors", ParamTable::Between(0, kMaxWeight));
  t->Add("alpha", &alpha, "Restart probability", ParamTable::Above(0, 1));
  t->Add("epsilon", &epsilon, "Convergence threshold on the L1 change", ParamTable::Above(0, 1));
  t->Add("max_iter", &max_iter, "Maximum iterations", ParamTable::Between(1, 100000));
  t->AddChoice("propagation", &propagation, "rwr or two-step (reference code)",
               {{"rwr", Propagation::kRwr}, {"two-step", Propagation::kTwoStep}});
  t->Add("two_step_decay", &two_step_decay, "Decay per hop of two-step propagation",
         ParamTable::Between(0, 1));
  t->Add("hops", &hops, "Subgraph radius in hops", ParamTable::Between(1, 10));
  t->Add("per_hop_cap", &per_hop_cap, "New nodes per hop per node type",
         ParamTable::Between(1, 1e7));
}

namespace {

using Clock = std::chrono::steady_clock;
double Since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// A hop candidate's rank within its node type, the documented rule: its
// strongest edge to the previous hops, by weight and then by the tie-break
// strength (a paper's citation count; the joint papers of a COAUTHOR or
// COOCCUR edge, whose weight saturates at c_max), then the smaller dense id.
struct Key {
  float w;
  uint32_t tie;
  uint32_t id;
};
bool Better(const Key& a, const Key& b) {
  if (a.w != b.w) return a.w > b.w;
  if (a.tie != b.tie) return a.tie > b.tie;
  return a.id < b.id;
}

// One thread's candidates of a hop: every (node, key) offered, and per type a
// heap of the per-hop-cap best keys of the distinct nodes offered, each at its
// first key. A node's key only grows with later edges, so the heap's worst
// key never exceeds the true cap-th best key of the hop, and an edge ranking
// below it cannot change the selection: it is skipped.
class HopSelector {
 public:
  explicit HopSelector(size_t cap) : cap_(cap) {}
  // The key to beat for type t, or null while fewer than cap nodes are known:
  // this selector's worst kept key, or the other thread's when that is higher
  // (each is a lower bound of the hop's true cap-th best key).
  const Key* Floor(NodeType t) const {
    const auto& h = heap_[static_cast<int>(t)];
    const Key* own = cap_ > 0 && h.size() >= cap_ ? &h.front() : nullptr;
    const auto& ext = external_[static_cast<int>(t)];
    if (!ext) return own;
    return own && Better(*own, *ext) ? own : &*ext;
  }
  void Offer(NodeRef v, const Key& k) {
    found_.push_back({v, k});
    if (!seen_.insert(v.key()).second) return;
    auto& h = heap_[static_cast<int>(v.type)];
    h.push_back(k);
    std::push_heap(h.begin(), h.end(), Better);  // front: the worst kept key
    if (h.size() > cap_) {
      std::pop_heap(h.begin(), h.end(), Better);
      h.pop_back();
    }
  }
  std::vector<std::pair<NodeRef, Key>>& found() { return found_; }

  // Floors shared by two selectors of one hop.
  struct Shared {
    std::mutex m;
    std::array<std::optional<Key>, kNodeTypeCount> floor;
  };
  // Publishes this selector's floors and takes the other's.
  void Sync(Shared* s) {
    std::lock_guard<std::mutex> lock(s->m);
    for (int t = 0; t < kNodeTypeCount; ++t) {
      const auto& h = heap_[t];
      if (cap_ > 0 && h.size() >= cap_ && (!s->floor[t] || Better(h.front(), *s->floor[t])))
        s->floor[t] = h.front();
      external_[t] = s->floor[t];
    }
  }

 private:
  size_t cap_;
  std::array<std::vector<Key>, kNodeTypeCount> heap_;
  std::array<std::optional<Key>, kNodeTypeCount> external_;
  std::unordered_set<uint64_t> seen_;
  std::vector<std::pair<NodeRef, Key>> found_;
};

// The dense ids of one node type in the subgraph: sorted, and as a bitset.
struct MemberSet {
  std::vector<uint32_t> sorted;
  std::vector<uint64_t> bits;
  void Build() {
    std::sort(sorted.begin(), sorted.end());
    bits.assign(sorted.empty() ? 0 : sorted.back() / 64 + 1, 0);
    for (uint32_t id : sorted) bits[id / 64] |= uint64_t{1} << (id % 64);
  }
  bool Has(uint32_t id) const { return id / 64 < bits.size() && (bits[id / 64] >> (id % 64)) & 1; }
};

// A hub list whose ranked prefix could place every entry: the rest of the
// list ranks below `last`.
struct Deferred {
  Rel r;
  NodeRef u;
  Key last;
};

// Reads relation lists for the subgraph stages and weighs their edges by the
// relation table (model.h). One per thread: it holds memoized weights.
class EdgeReader {
 public:
  EdgeReader(Graph& g, const RwrParams& p, const std::unordered_map<uint32_t, double>& kw_seed)
      : g_(g), p_(p), kw_seed_(kw_seed) {}

  // The relation's weight (Table 2); 0 = the relation is off.
  double Base(Rel r) const { return p_.*GetRelInfo(r).weight; }

  // kappa(g) of a keyword: its seed weight, else eps_kw.
  double Kappa(uint32_t keyword) const {
    auto it = kw_seed_.find(keyword);
    return it != kw_seed_.end() ? it->second : p_.eps_kw;
  }

  // Whether r's ranked file lists r's edges in the per-hop order: its weight
  // must rise with the file's attribute rank (not so for AUTHORED once the
  // author position changes the weight).
  bool Ranked(Rel r) const {
    const RelInfo& info = GetRelInfo(r);
    if (!info.ranked) return false;
    return info.weight_kind != EdgeWeight::kAuthorship || p_.author_position_boost == 1.0;
  }

  // An upper bound of the weight of any edge of relation r leaving u.
  double MaxWeight(Rel r, NodeRef u) const {
    const RelInfo& info = GetRelInfo(r);
    const double base = Base(r);
    switch (info.weight_kind) {
      case EdgeWeight::kKeyword: {
        if (info.from == NodeType::kKeyword) return base * Kappa(u.id);
        double kappa = p_.eps_kw;
        for (auto& [k, w] : kw_seed_) kappa = std::max(kappa, w);
        return base * kappa;
      }
      case EdgeWeight::kCount:
        return base * std::max(1.0, p_.c_max);
      case EdgeWeight::kAuthorship:
        return base * std::max(1.0, p_.author_position_boost);
      case EdgeWeight::kConstant:
      case EdgeWeight::kTopicScore:
        return base;
    }
    return base;
  }

  // Table 2 weight of one edge from `u` to `v` over relation r with attr a.
  float Weight(Rel r, NodeRef u, NodeRef v, uint32_t a) {
    const RelInfo& info = GetRelInfo(r);
    const double base = Base(r);
    switch (info.weight_kind) {
      case EdgeWeight::kConstant:
        return static_cast<float>(base);
      case EdgeWeight::kKeyword: {
        uint32_t kw = info.to == NodeType::kKeyword ? v.id : u.id;
        return static_cast<float>(base * Kappa(kw) * (a / 10.0));
      }
      case EdgeWeight::kCount: {
        auto& memo = count_w_[static_cast<int>(CanonicalRel(r))];  // counts are small
        if (a < memo.size() && memo[a] >= 0) return memo[a];
        float w = static_cast<float>(base * std::max(1.0, std::min(p_.c_max, std::log(1.0 + a))));
        if (a < memo.size()) memo[a] = w;
        return w;
      }
      case EdgeWeight::kAuthorship: {
        if (p_.author_position_boost == 1.0) return static_cast<float>(base);
        const bool from_paper = info.from == NodeType::kPaper;
        uint32_t paper = from_paper ? u.id : v.id;
        uint32_t pos = a >> 1;
        uint32_t team = g_.adj(from_paper ? r : info.reverse).Degree(paper);
        bool lead = pos == 0 || pos + 1 == team;
        return static_cast<float>(base * (lead ? p_.author_position_boost : 1.0));
      }
      case EdgeWeight::kTopicScore:
        return static_cast<float>(base * ((a >> 1) / 1000.0));
    }
    return static_cast<float>(base);
  }

  // Offers `sel` every neighbour of u over r not yet in `g` that may still
  // rank among the per-hop cap of its type. An entry below the type's floor
  // costs its decoding and a comparison. A hub's list is read from its ranked
  // prefix, in the order of the rule, only as far as it can still place a
  // node; when the whole prefix could place, the list is returned as deferred
  // (the rest of it ranks below the prefix's last entry) for ScanAll.
  void Candidates(Rel r, NodeRef u, const Subgraph& g, HopSelector* sel,
                  std::vector<Deferred>* deferred) {
    const NodeType to = GetRelInfo(r).to;
    if (Ranked(r)) {
      RankedLists::Cursor c = g_.ranked(r).Find(u.id);
      if (!c.empty()) {
        size_t placed = 0;
        uint32_t id, attr;
        Key k{};
        while (c.Next(&id, &attr)) {
          // Later entries rank lower: the first that cannot be selected ends
          // the list, and so do `cap` new nodes (any later one ranks below them).
          if (!MakeKey(*sel, r, id, Weight(r, u, NodeRef{to, id}, attr), attr, &k)) return;
          if (!IsNew(g, u, NodeRef{to, id})) continue;
          sel->Offer(NodeRef{to, id}, k);
          if (++placed >= p_.per_hop_cap) return;
        }
        deferred->push_back({r, u, k});
        return;
      }
    }
    ScanAll(r, u, g, sel);
  }

  // Offers `sel` the entries of u's whole list over r that may still place.
  void ScanAll(Rel r, NodeRef u, const Subgraph& g, HopSelector* sel) {
    const NodeType to = GetRelInfo(r).to;
    auto l = g_.adj(r).Neighbours(u.id);
    for (size_t i = 0; i < l.size(); ++i) {
      NodeRef v{to, l.ids[i]};
      const uint32_t a = l.attrs.empty() ? 0 : l.attrs[i];
      Key k;
      if (MakeKey(*sel, r, v.id, Weight(r, u, v, a), a, &k) && IsNew(g, u, v)) sel->Offer(v, k);
    }
  }

  // Calls fn(v, w) for the neighbours of u over r that `in` contains: a
  // search per member for long lists, a bit test per entry otherwise. The
  // last stage: a list is not kept in the file's cache (Adjacency::Once),
  // unless the edge weights read the same file (an author's position).
  template <typename Fn>
  void Within(Rel r, NodeRef u, const MemberSet& in, Fn&& fn) {
    if (in.sorted.empty()) return;
    const RelInfo& info = GetRelInfo(r);
    const bool weights_read_lists =
        info.weight_kind == EdgeWeight::kAuthorship && p_.author_position_boost != 1.0;
    auto l = weights_read_lists ? g_.adj(r).Neighbours(u.id) : g_.adj(r).Once(u.id);
    auto visit = [&](size_t i) {
      NodeRef v{info.to, l.ids[i]};
      if (v == u) return;
      float w = Weight(r, u, v, l.attrs.empty() ? 0 : l.attrs[i]);
      if (w > 0) fn(v, w);
    };
    if (l.size() > 16 * in.sorted.size()) {
      for (uint32_t id : in.sorted) {
        auto it = std::lower_bound(l.ids.begin(), l.ids.end(), id);
        if (it != l.ids.end() && *it == id) visit(static_cast<size_t>(it - l.ids.begin()));
      }
    } else {
      for (size_t i = 0; i < l.size(); ++i)
        if (in.Has(l.ids[i])) visit(i);
    }
  }

 private:
  // The key of an edge over r of weight w and attribute a to node `id`;
  // false when it cannot beat the floor of the node's type.
  bool MakeKey(const HopSelector& sel, Rel r, uint32_t id, float w, uint32_t a, Key* k) {
    if (w <= 0) return false;
    const RelInfo& info = GetRelInfo(r);
    const Key* floor = sel.Floor(info.to);
    if (floor && w < floor->w) return false;
    uint32_t tie = info.to == NodeType::kPaper              ? g_.Citations(id)
                   : info.weight_kind == EdgeWeight::kCount ? a
                                                            : 0u;
    *k = Key{w, tie, id};
    return !floor || Better(*k, *floor);
  }
  static bool IsNew(const Subgraph& g, NodeRef u, NodeRef v) {
    return !(v == u) && !g.local.count(v.key());
  }

  Graph& g_;
  const RwrParams& p_;
  const std::unordered_map<uint32_t, double>& kw_seed_;
  std::array<std::array<float, 256>, kRelCount> count_w_ = Unset();
  static std::array<std::array<float, 256>, kRelCount> Unset() {
    std::array<std::array<float, 256>, kRelCount> a;
    for (auto& x : a) x.fill(-1.0f);
    return a;
  }
};

// A subgraph edge before merging: one relation seen from one side.
struct RawEdge {
  uint32_t a, b;
  uint8_t rel;
  float w;
};

// Builds a Subgraph in three stages: hop selection (SelectHop, once per hop),
// edge collection (CollectEdges) and assembly into CSR (Assemble).
class SubgraphBuilder {
 public:
  SubgraphBuilder(Graph& graph, const std::vector<Seed>& seeds, const RwrParams& params)
      : graph_(graph),
        params_(params),
        two_(params.threads > 1),
        readers_{EdgeReader(graph, params, kw_seed_), EdgeReader(graph, params, kw_seed_)} {
    for (const Seed& s : seeds)
      if (s.node.type == NodeType::kKeyword)
        kw_seed_[s.node.id] = std::max(kw_seed_[s.node.id], s.weight);
    // Two threads share the graph's mappings (pages faulted in once) but never
    // an adjacency file: each relation (its Adjacency and decoded-list cache)
    // belongs to one thread per stage. Every file the stages may read is
    // opened first, as Graph opens files lazily and that is not thread-safe.
    if (two_)
      for (const RelInfo& r : AllRelations())
        if (readers_[0].Base(r.rel) > 0) {
          graph.adj(r.rel);
          graph.ranked(r.rel);
        }
    for (const Seed& s : seeds) {
      size_t before = g_.nodes.size();
      uint32_t id = Add(s.node, 0);
      if (g_.nodes.size() > before) frontier_.push_back(id);
    }
  }

  Result<Subgraph> Build() {
    for (int h = 1; h <= params_.hops && !frontier_.empty(); ++h) {
      const auto t = Clock::now();
      SelectHop(h);
      g_.hop_ms.push_back(Since(t));
    }
    const auto t = Clock::now();
    Assemble(CollectEdges());
    g_.edges_ms = Since(t);
    LITGRAPH_RETURN_IF_ERROR(graph_.status());
    return std::move(g_);
  }

 private:
  uint32_t Add(NodeRef n, int hop) {
    auto [it, inserted] = g_.local.emplace(n.key(), static_cast<uint32_t>(g_.nodes.size()));
    if (inserted) {
      g_.nodes.push_back(n);
      g_.hop.push_back(hop);
    }
    return it->second;
  }

  // Runs fn(reader, thread) on thread 0 and, with two threads, thread 1.
  template <typename Fn>
  void Run(const Fn& fn) {
    if (!two_) {
      fn(readers_[0], 0);
      return;
    }
    std::thread t([&] { fn(readers_[1], 1); });
    fn(readers_[0], 0);
    t.join();
  }

  // Which thread reads each relation: the largest share of lists first, to
  // the thread with fewer so far. AUTHORED's two directions go together (with
  // author_position_boost a weight of one reads the other's degrees).
  std::array<int, kRelCount> Owners(
      const std::vector<std::tuple<double, Rel, uint32_t>>& work) const {
    std::array<int, kRelCount> owner{};
    if (!two_) return owner;
    auto group = [](Rel r) {
      const RelInfo& info = GetRelInfo(r);
      return info.weight_kind == EdgeWeight::kAuthorship && info.from != NodeType::kPaper
                 ? info.reverse
                 : r;
    };
    std::array<size_t, kRelCount> lists{};
    for (const auto& w : work) ++lists[static_cast<int>(group(std::get<1>(w)))];
    std::vector<int> order;
    for (int r = 0; r < kRelCount; ++r)
      if (lists[r]) order.push_back(r);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return lists[a] > lists[b]; });
    size_t load[2] = {0, 0};
    for (int r : order) {
      int t = load[1] < load[0] ? 1 : 0;
      owner[r] = t;
      load[t] += lists[r];
    }
    for (int r = 0; r < kRelCount; ++r)
      owner[r] = owner[static_cast<int>(group(static_cast<Rel>(r)))];
    return owner;
  }

  // Hop h: from the frontier, the per_hop_cap best new nodes of each type by
  // their strongest edge (the documented rule) become the next frontier.
  void SelectHop(int h) {
    expanded_.insert(expanded_.end(), frontier_.begin(), frontier_.end());
    // Relation lists in decreasing order of their strongest possible edge, so
    // the floors rise early and a list that cannot beat its type's floor is
    // not read at all.
    std::vector<std::tuple<double, Rel, uint32_t>> work;
    for (uint32_t u : frontier_)
      for (const RelInfo& r : AllRelations())
        if (r.from == g_.nodes[u].type && readers_[0].Base(r.rel) > 0)
          work.emplace_back(readers_[0].MaxWeight(r.rel, g_.nodes[u]), r.rel, u);
    std::stable_sort(work.begin(), work.end(),
                     [](const auto& a, const auto& b) { return std::get<0>(a) > std::get<0>(b); });
    std::array<HopSelector, 2> sel{HopSelector(params_.per_hop_cap),
                                   HopSelector(params_.per_hop_cap)};
    const std::array<int, kRelCount> owner = Owners(work);
    HopSelector::Shared shared;
    Run([&](EdgeReader& rd, int t) {
      std::vector<Deferred> deferred;
      for (const auto& [maxw, r, u] : work) {
        if (owner[static_cast<int>(r)] != t) continue;
        const Key* floor = sel[t].Floor(GetRelInfo(r).to);
        if (floor && static_cast<float>(maxw) < floor->w) continue;  // edge weights are floats
        rd.Candidates(r, g_.nodes[u], g_, &sel[t], &deferred);
        if (two_) sel[t].Sync(&shared);
      }
      // The rest of a hub list only when its prefix's last entry still beats
      // the floor: by now the floors are high, so this is rare.
      for (const Deferred& d : deferred) {
        const Key* floor = sel[t].Floor(GetRelInfo(d.r).to);
        if (!floor || Better(d.last, *floor)) rd.ScanAll(d.r, d.u, g_, &sel[t]);
      }
    });
    // Each node at its best key; then the cap best of each type. Pruning
    // only dropped edges that could not be selected, so the result does not
    // depend on the order of the lists or the number of threads.
    auto& found = sel[0].found();
    found.insert(found.end(), sel[1].found().begin(), sel[1].found().end());
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
      return a.first.type != b.first.type ? a.first.type < b.first.type
                                          : Better(a.second, b.second);
    });
    frontier_.clear();
    for (size_t i = 0; i < found.size();) {
      size_t j = i;
      size_t kept = 0;
      for (; j < found.size() && found[j].first.type == found[i].first.type; ++j) {
        if (kept >= params_.per_hop_cap) continue;
        size_t before = g_.nodes.size();
        uint32_t id = Add(found[j].first, h);
        if (g_.nodes.size() > before) {  // a node's first entry is its best
          frontier_.push_back(id);
          ++kept;
        }
      }
      i = j;
    }
  }

  // Every edge with an expanded end (seeds and hops before the last) whose
  // other end is in the subgraph. Each relation is read from one side
  // (RelInfo::edge_side): a directed relation from its short side (a paper's
  // references, authors, keywords, venue and topics; an author's
  // institutions; a topic's parent) for every member, so the long lists of
  // hubs (a paper's citers, a keyword's papers) are never decoded here; a
  // symmetric relation (RELATED_TO, COAUTHOR, COOCCUR) from the expanded
  // nodes.
  std::vector<RawEdge> CollectEdges() {
    std::array<MemberSet, kNodeTypeCount> members;
    for (const NodeRef& n : g_.nodes) members[static_cast<int>(n.type)].sorted.push_back(n.id);
    for (auto& m : members) m.Build();
    std::vector<uint8_t> is_expanded(g_.nodes.size(), 0);
    for (uint32_t u : expanded_) is_expanded[u] = 1;
    // One task per relation, taken by whichever thread is free: a relation's
    // file is read by one thread only.
    std::vector<Rel> tasks;
    for (const RelInfo& r : AllRelations())
      if (r.edge_side != EdgeSide::kNone && !members[static_cast<int>(r.from)].sorted.empty() &&
          readers_[0].Base(r.rel) > 0 && !members[static_cast<int>(r.to)].sorted.empty())
        tasks.push_back(r.rel);
    std::array<std::vector<RawEdge>, 2> raws;
    std::atomic<size_t> next_task{0};
    Run([&](EdgeReader& rd, int t) {
      for (size_t i = next_task++; i < tasks.size(); i = next_task++) {
        const RelInfo& info = GetRelInfo(tasks[i]);
        const bool every_member = info.edge_side == EdgeSide::kMembers;
        const auto& m = members[static_cast<int>(info.to)];
        const uint8_t rel = static_cast<uint8_t>(CanonicalRel(info.rel));
        for (uint32_t u = 0; u < g_.nodes.size(); ++u) {
          const NodeRef un = g_.nodes[u];
          if (un.type != info.from || (!every_member && !is_expanded[u])) continue;
          rd.Within(info.rel, un, m, [&](NodeRef v, float w) {
            uint32_t vl = g_.local.at(v.key());
            if (is_expanded[u] || is_expanded[vl])
              raws[t].push_back({std::min(u, vl), std::max(u, vl), rel, w});
          });
        }
      }
    });
    std::vector<RawEdge> raw = std::move(raws[0]);
    raw.insert(raw.end(), raws[1].begin(), raws[1].end());
    return raw;
  }

  // Merges the raw edges (parallel relations between two nodes add up; the
  // pair keeps its strongest relation) into the undirected CSR.
  void Assemble(std::vector<RawEdge> raw) {
    std::sort(raw.begin(), raw.end(), [](const RawEdge& x, const RawEdge& y) {
      return x.a != y.a       ? x.a < y.a
             : x.b != y.b     ? x.b < y.b
             : x.rel != y.rel ? x.rel < y.rel
                              : x.w > y.w;
    });
    // Merged in place, into raw[0..out) (no second array to fault in): one
    // entry per pair, its weight the sum and its relation the strongest.
    size_t out = 0;
    float best = 0;
    RawEdge prev{};
    for (size_t i = 0; i < raw.size(); ++i) {
      const RawEdge e = raw[i];
      const bool same_pair = i > 0 && e.a == prev.a && e.b == prev.b;
      const bool same_rel = same_pair && e.rel == prev.rel;
      prev = e;
      if (same_rel) continue;  // the same relation seen from the other end
      if (same_pair) {
        raw[out - 1].w += e.w;
        if (e.w > best) {
          best = e.w;
          raw[out - 1].rel = e.rel;
        }
      } else {
        best = e.w;
        raw[out++] = e;
      }
    }
    raw.resize(out);
    const size_t n = g_.nodes.size();
    g_.offsets.assign(n + 1, 0);
    for (const RawEdge& e : raw) {
      ++g_.offsets[e.a + 1];
      ++g_.offsets[e.b + 1];
    }
    for (size_t i = 0; i < n; ++i) g_.offsets[i + 1] += g_.offsets[i];
    g_.nbr.resize(g_.offsets[n]);
    g_.weight.resize(g_.offsets[n]);
    g_.rel.resize(g_.offsets[n]);
    std::vector<uint64_t> fill(g_.offsets.begin(), g_.offsets.end() - 1);
    for (const RawEdge& e : raw) {
      for (auto [x, y] : {std::make_pair(e.a, e.b), std::make_pair(e.b, e.a)}) {
        uint64_t at = fill[x]++;
        g_.nbr[at] = y;
        g_.weight[at] = e.w;
        g_.rel[at] = e.rel;
      }
    }
  }

  Graph& graph_;
  const RwrParams& params_;
  const bool two_;
  std::unordered_map<uint32_t, double> kw_seed_;  // before readers_, which refer to it
  std::array<EdgeReader, 2> readers_;
  Subgraph g_;
  std::vector<uint32_t> frontier_, expanded_;
};

}  // namespace

Result<Subgraph> BuildSubgraph(Graph& graph, const std::vector<Seed>& seeds,
                               const RwrParams& params) {
  return SubgraphBuilder(graph, seeds, params).Build();
}

WalkResult RandomWalk(const Subgraph& g, const std::vector<Seed>& seeds, const RwrParams& p) {
  const size_t n = g.nodes.size();
  WalkResult res;
  std::vector<double> s(n, 0.0);
  double z = 0;
  for (const Seed& sd : seeds) {
    int i = g.Find(sd.node);
    if (i >= 0 && sd.weight > 0) {
      s[i] += sd.weight;
      z += sd.weight;
    }
  }
  if (z <= 0) {
    res.score.assign(n, 0.0);
    return res;
  }
  for (double& x : s) x /= z;
  std::vector<double> out_w(n, 0.0);
  for (size_t u = 0; u < n; ++u)
    for (uint64_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) out_w[u] += g.weight[k];
  // One step of mass propagation: next = P^T cur (dangling nodes keep theirs).
  // The subgraph is undirected, each edge stored at both ends with one
  // weight, so a node gathers what its neighbours send it: sequential
  // writes, and reads of `share` (a few KiB) where the push form scattered
  // its writes.
  std::vector<double> share(n);
  auto step = [&](const std::vector<double>& cur, std::vector<double>* next) {
    next->resize(n);
    for (size_t u = 0; u < n; ++u) share[u] = out_w[u] > 0 ? cur[u] / out_w[u] : 0.0;
    for (size_t v = 0; v < n; ++v) {
      double in = out_w[v] > 0 ? 0.0 : cur[v];
      for (uint64_t k = g.offsets[v]; k < g.offsets[v + 1]; ++k)
        in += share[g.nbr[k]] * g.weight[k];
      (*next)[v] = in;
    }
  };
  if (p.propagation == Propagation::kTwoStep) {
    std::vector<double> p1, p2;
    step(s, &p1);
    step(p1, &p2);
    res.score.resize(n);
    for (size_t i = 0; i < n; ++i)
      res.score[i] = s[i] + p.two_step_decay * p1[i] + p.two_step_decay * p.two_step_decay * p2[i];
    res.iterations = 2;
    return res;
  }
  std::vector<double> r = s, next;
  for (int it = 1; it <= p.max_iter; ++it) {
    step(r, &next);
    double diff = 0;
    for (size_t i = 0; i < n; ++i) {
      next[i] = p.alpha * s[i] + (1 - p.alpha) * next[i];
      diff += std::abs(next[i] - r[i]);
    }
    r.swap(next);
    res.iterations = it;
    res.residual = diff;
    if (diff < p.epsilon) break;
  }
  res.score = std::move(r);
  return res;
}

std::vector<uint32_t> RankNodes(const Subgraph& g, const WalkResult& walk,
                                const std::vector<Seed>& seeds, const NodeType* type,
                                bool exclude_seeds, size_t limit) {
  std::unordered_set<uint64_t> is_seed;
  for (const Seed& s : seeds) is_seed.insert(s.node.key());
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    if (type && g.nodes[i].type != *type) continue;
    if (exclude_seeds && is_seed.count(g.nodes[i].key())) continue;
    order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return walk.score[a] != walk.score[b] ? walk.score[a] > walk.score[b] : g.nodes[a] < g.nodes[b];
  });
  if (order.size() > limit) order.resize(limit);
  return order;
}

Result<std::optional<Seed>> SeedFromRecord(Store* store, const Json& j,
                                           const std::string& weight_field,
                                           const std::string& where) {
  if (!j.contains("id") || !j["id"].is_string())
    return Status::MalformedInput(where + ": expected a JSON object with a string \"id\"");
  double w = 1.0;
  std::string field = !weight_field.empty()  ? weight_field
                      : j.contains("weight") ? "weight"
                                             : "score";
  if (j.contains(field)) {
    if (!j[field].is_number())
      return Status::MalformedInput(fmt::format("{}: field \"{}\" must be a number", where, field));
    w = j[field].get<double>();
  } else if (!weight_field.empty()) {
    return Status::MalformedInput(fmt::format("{}: no field \"{}\"", where, field));
  }
  std::string type =
      j.contains("type") && j["type"].is_string() ? j["type"].get<std::string>() : "";
  auto node = store->ResolveNode(j["id"].get<std::string>(), type);
  if (!node) return std::optional<Seed>();
  return std::optional<Seed>(Seed{{node->first, static_cast<uint32_t>(node->second)}, w});
}

std::vector<ExplainPath> Explain(const Subgraph& g, const std::vector<Seed>& seeds, uint32_t target,
                                 size_t max_paths) {
  // Seed weights by local node, dense: the two-hop loop below tests every
  // neighbour of every neighbour of the target (Explain, with a hash lookup
  // each, was 6.7% of a 60-seed rwr-rank at 10M works).
  std::vector<double> seed_w(g.nodes.size(), 0);
  std::vector<uint8_t> is_seed(g.nodes.size(), 0);
  double z = 0;
  for (const Seed& s : seeds) {
    int i = g.Find(s.node);
    if (i >= 0 && s.weight > 0) {
      seed_w[static_cast<uint32_t>(i)] += s.weight;
      is_seed[static_cast<uint32_t>(i)] = 1;
      z += s.weight;
    }
  }
  std::vector<ExplainPath> paths;
  if (z <= 0) return paths;
  std::vector<double> out_w(g.nodes.size(), -1);
  auto total = [&](uint32_t u) {
    if (out_w[u] < 0) {
      out_w[u] = 0;
      for (uint64_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) out_w[u] += g.weight[k];
    }
    return out_w[u];
  };
  if (is_seed[target]) paths.push_back({{target}, {}, seed_w[target] / z});
  for (uint64_t k = g.offsets[target]; k < g.offsets[target + 1]; ++k) {
    uint32_t m = g.nbr[k];
    double w_mt = g.weight[k];
    Rel r_mt = static_cast<Rel>(g.rel[k]);
    if (is_seed[m]) paths.push_back({{m, target}, {r_mt}, seed_w[m] / z * w_mt / total(m)});
    for (uint64_t j = g.offsets[m]; j < g.offsets[m + 1]; ++j) {
      uint32_t s = g.nbr[j];
      if (s == target || !is_seed[s]) continue;
      double strength = seed_w[s] / z * g.weight[j] / total(s) * w_mt / total(m);
      paths.push_back({{s, m, target}, {static_cast<Rel>(g.rel[j]), r_mt}, strength});
    }
  }
  // Distinct paths never tie on both keys: the first max_paths suffice.
  auto stronger = [](const ExplainPath& a, const ExplainPath& b) {
    return a.strength != b.strength ? a.strength > b.strength : a.nodes < b.nodes;
  };
  const size_t keep = std::min(paths.size(), max_paths);
  std::partial_sort(paths.begin(), paths.begin() + static_cast<long>(keep), paths.end(), stronger);
  paths.resize(keep);
  return paths;
}

}  // namespace litgraph
