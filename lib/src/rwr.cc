#include "litgraph/rwr.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_set>

namespace litgraph {

void RwrParams::Register(ParamTable* t) {
  t->Add("beta_hk", &beta_hk, "HAS_KEYWORD base weight");
  t->Add("eps_kw", &eps_kw, "kappa of non-seed keywords");
  t->Add("beta_cite", &beta_cite, "CITES weight");
  t->Add("beta_rel", &beta_rel, "RELATED_TO weight");
  t->Add("beta_auth", &beta_auth, "AUTHORED weight");
  t->Add("beta_coauth", &beta_coauth, "COAUTHOR base weight");
  t->Add("beta_cooc", &beta_cooc, "COOCCUR base weight");
  t->Add("c_max", &c_max, "Cap of log(1 + count) for COAUTHOR and COOCCUR");
  t->Add("beta_published", &beta_published, "PUBLISHED_IN weight (0 = off)");
  t->Add("beta_topic", &beta_topic, "HAS_TOPIC weight x topic score (0 = off)");
  t->Add("beta_affil", &beta_affil, "AFFILIATED_WITH weight (0 = off)");
  t->Add("beta_hierarchy", &beta_hierarchy, "SUBFIELD_OF / FIELD_OF / DOMAIN_OF weight (0 = off)");
  t->Add("author_position_boost", &author_position_boost,
         "Factor on AUTHORED edges of first and last authors");
  t->Add("alpha", &alpha, "Restart probability");
  t->Add("epsilon", &epsilon, "Convergence threshold on the L1 change");
  t->Add("max_iter", &max_iter, "Maximum iterations");
  t->Add("propagation", &propagation, "rwr or two-step (reference code)", {"rwr", "two-step"});
  t->Add("two_step_decay", &two_step_decay, "Decay per hop of two-step propagation");
  t->Add("hops", &hops, "Subgraph radius in hops");
  t->Add("per_hop_cap", &per_hop_cap, "New nodes per hop per node type");
}

const char* RelLabel(Rel r) { return GetRelInfo(r).label; }

Json ExplainJson(Store* store, const Subgraph& g, const std::vector<ExplainPath>& paths,
                 std::vector<std::string>* seeds_used) {
  auto label = [&](uint32_t local) {
    const NodeRef& r = g.nodes[local];
    auto l = store->NodeLabel(r.type, r.id);
    return l ? l->first : std::to_string(r.id);
  };
  Json out = Json::array();
  for (const ExplainPath& p : paths) {
    Json ids = Json::array(), rels = Json::array();
    std::string text;
    for (size_t k = 0; k < p.nodes.size(); ++k) {
      std::string id = label(p.nodes[k]);
      ids.push_back(id);
      text += id;
      if (k < p.rels.size()) {
        rels.push_back(RelLabel(p.rels[k]));
        text += std::string(" -") + RelLabel(p.rels[k]) + "- ";
      }
    }
    if (seeds_used && std::find(seeds_used->begin(), seeds_used->end(), ids[0]) == seeds_used->end())
      seeds_used->push_back(ids[0]);
    out.push_back({{"nodes", ids}, {"relations", rels}, {"strength", p.strength}, {"text", text}});
  }
  return out;
}

namespace {

// Relations leaving a node of each type.
const std::vector<Rel>& RelsFrom(NodeType t) {
  static const std::vector<Rel> kPaper = {Rel::kCitesOut, Rel::kCitesIn, Rel::kRelated, Rel::kAuthors,
                                          Rel::kKeywords, Rel::kPublishedIn, Rel::kTopics};
  static const std::vector<Rel> kAuthor = {Rel::kAuthoredPapers, Rel::kCoauthor, Rel::kAffiliations};
  static const std::vector<Rel> kInst = {Rel::kInstitutionAuthors};
  static const std::vector<Rel> kSource = {Rel::kSourcePapers};
  static const std::vector<Rel> kTopic = {Rel::kTopicPapers, Rel::kTopicSubfield};
  static const std::vector<Rel> kSubfield = {Rel::kSubfieldTopics, Rel::kSubfieldField};
  static const std::vector<Rel> kField = {Rel::kFieldSubfields, Rel::kFieldDomain};
  static const std::vector<Rel> kDomain = {Rel::kDomainFields};
  static const std::vector<Rel> kKeyword = {Rel::kKeywordPapers, Rel::kCooccur};
  switch (t) {
    case NodeType::kPaper: return kPaper;
    case NodeType::kAuthor: return kAuthor;
    case NodeType::kInstitution: return kInst;
    case NodeType::kSource: return kSource;
    case NodeType::kTopic: return kTopic;
    case NodeType::kSubfield: return kSubfield;
    case NodeType::kField: return kField;
    case NodeType::kDomain: return kDomain;
    case NodeType::kKeyword: return kKeyword;
  }
  return kPaper;
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

// The relation lists the edge stage reads for a node of each type, and
// whether for every member (the short side of a directed relation) or for
// expanded nodes only (symmetric relations, stored in both directions).
const std::vector<std::pair<Rel, bool>>& EdgeRelsFrom(NodeType t) {
  static const std::vector<std::pair<Rel, bool>> kPaper = {
      {Rel::kCitesOut, true}, {Rel::kRelated, false}, {Rel::kAuthors, true},
      {Rel::kKeywords, true}, {Rel::kPublishedIn, true}, {Rel::kTopics, true}};
  static const std::vector<std::pair<Rel, bool>> kAuthor = {{Rel::kCoauthor, false}, {Rel::kAffiliations, true}};
  static const std::vector<std::pair<Rel, bool>> kTopic = {{Rel::kTopicSubfield, true}};
  static const std::vector<std::pair<Rel, bool>> kSubfield = {{Rel::kSubfieldField, true}};
  static const std::vector<std::pair<Rel, bool>> kField = {{Rel::kFieldDomain, true}};
  static const std::vector<std::pair<Rel, bool>> kKeyword = {{Rel::kCooccur, false}};
  static const std::vector<std::pair<Rel, bool>> kNone;
  switch (t) {
    case NodeType::kPaper: return kPaper;
    case NodeType::kAuthor: return kAuthor;
    case NodeType::kTopic: return kTopic;
    case NodeType::kSubfield: return kSubfield;
    case NodeType::kField: return kField;
    case NodeType::kKeyword: return kKeyword;
    default: return kNone;  // institutions, sources, domains: read from the other side
  }
}

// A hub list whose ranked prefix could place every entry: the rest of the
// list ranks below `last`.
struct Deferred {
  Rel r;
  NodeRef u;
  Key last;
};

class EdgeReader {
 public:
  EdgeReader(Graph& g, const RwrParams& p, const std::unordered_map<uint32_t, double>& kw_seed)
      : g_(g), p_(p), kw_seed_(kw_seed) {}

  double Base(Rel r) const {
    switch (r) {
      case Rel::kCitesOut: case Rel::kCitesIn: return p_.beta_cite;
      case Rel::kRelated: return p_.beta_rel;
      case Rel::kAuthors: case Rel::kAuthoredPapers: return p_.beta_auth;
      case Rel::kCoauthor: return p_.beta_coauth;
      case Rel::kCooccur: return p_.beta_cooc;
      case Rel::kKeywords: case Rel::kKeywordPapers: return p_.beta_hk;
      case Rel::kPublishedIn: case Rel::kSourcePapers: return p_.beta_published;
      case Rel::kTopics: case Rel::kTopicPapers: return p_.beta_topic;
      case Rel::kAffiliations: case Rel::kInstitutionAuthors: return p_.beta_affil;
      default: return p_.beta_hierarchy;
    }
  }

  // Whether r's ranked file lists r's edges in the per-hop order: its weight
  // must rise with the file's attribute rank (not so for AUTHORED once the
  // author position changes the weight).
  bool Ranked(Rel r) const {
    if (!RankedRelation(r)) return false;
    return r != Rel::kAuthoredPapers || p_.author_position_boost == 1.0;
  }

  // An upper bound of the weight of any edge of relation r leaving u.
  double MaxWeight(Rel r, NodeRef u) const {
    double base = Base(r);
    switch (r) {
      case Rel::kKeywords: {
        double kappa = p_.eps_kw;
        for (auto& [k, w] : kw_seed_) kappa = std::max(kappa, w);
        return base * kappa;
      }
      case Rel::kKeywordPapers: {
        auto it = kw_seed_.find(u.id);
        return base * (it != kw_seed_.end() ? it->second : p_.eps_kw);
      }
      case Rel::kCoauthor: case Rel::kCooccur: return base * std::max(1.0, p_.c_max);
      case Rel::kAuthors: case Rel::kAuthoredPapers: return base * std::max(1.0, p_.author_position_boost);
      default: return base;
    }
  }

  // Table 2 weight of one edge from `u` to `v` over relation r with attr a.
  float Weight(Rel r, NodeRef u, NodeRef v, uint32_t a) {
    double base = Base(r);
    switch (r) {
      case Rel::kKeywords: case Rel::kKeywordPapers: {
        uint32_t kw = r == Rel::kKeywords ? v.id : u.id;
        auto it = kw_seed_.find(kw);
        double kappa = it != kw_seed_.end() ? it->second : p_.eps_kw;
        return static_cast<float>(base * kappa * (a / 10.0));
      }
      case Rel::kCoauthor: case Rel::kCooccur: {
        auto& memo = r == Rel::kCoauthor ? coauthor_w_ : cooccur_w_;  // counts are small
        if (a < memo.size() && memo[a] >= 0) return memo[a];
        float w = static_cast<float>(base * std::max(1.0, std::min(p_.c_max, std::log(1.0 + a))));
        if (a < memo.size()) memo[a] = w;
        return w;
      }
      case Rel::kAuthors: case Rel::kAuthoredPapers: {
        if (p_.author_position_boost == 1.0) return static_cast<float>(base);
        uint32_t paper = r == Rel::kAuthors ? u.id : v.id;
        uint32_t pos = a >> 1;
        uint32_t team = g_.adj(Rel::kAuthors).Degree(paper);
        bool lead = pos == 0 || pos + 1 == team;
        return static_cast<float>(base * (lead ? p_.author_position_boost : 1.0));
      }
      case Rel::kTopics: case Rel::kTopicPapers:
        return static_cast<float>(base * ((a >> 1) / 1000.0));
      default:
        return static_cast<float>(base);
    }
  }

  // Offers `sel` every neighbour of u over r not yet in `g` that may still
  // rank among the per-hop cap of its type. An entry below the type's floor
  // costs its decoding and a comparison. A hub's list is read from its ranked
  // prefix, in the order of the rule, only as far as it can still place a
  // node; when the whole prefix could place, the list is returned as deferred
  // (the rest of it ranks below the prefix's last entry) for ScanAll.
  void Candidates(Rel r, NodeRef u, const Subgraph& g, HopSelector* sel, std::vector<Deferred>* deferred) {
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
  // search per member for long lists, a bit test per entry otherwise.
  template <typename Fn>
  void Within(Rel r, NodeRef u, const MemberSet& in, Fn&& fn) {
    if (in.sorted.empty()) return;
    const RelInfo& info = GetRelInfo(r);
    auto l = g_.adj(r).Neighbours(u.id);
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
    const NodeType t = GetRelInfo(r).to;
    const Key* floor = sel.Floor(t);
    if (floor && w < floor->w) return false;
    uint32_t tie = t == NodeType::kPaper ? g_.Citations(id)
                   : r == Rel::kCoauthor || r == Rel::kCooccur ? a : 0u;
    *k = Key{w, tie, id};
    return !floor || Better(*k, *floor);
  }
  static bool IsNew(const Subgraph& g, NodeRef u, NodeRef v) { return !(v == u) && !g.local.count(v.key()); }

  Graph& g_;
  const RwrParams& p_;
  const std::unordered_map<uint32_t, double>& kw_seed_;
  std::array<float, 256> coauthor_w_ = Unset(), cooccur_w_ = Unset();
  static std::array<float, 256> Unset() {
    std::array<float, 256> a;
    a.fill(-1.0f);
    return a;
  }
};

}  // namespace

Subgraph BuildSubgraph(Graph& graph, const std::vector<Seed>& seeds, const RwrParams& params) {
  Subgraph g;
  std::unordered_map<uint32_t, double> kw_seed;
  for (const Seed& s : seeds)
    if (s.node.type == NodeType::kKeyword) kw_seed[s.node.id] = std::max(kw_seed[s.node.id], s.weight);
  // Two threads share the graph's mappings (pages faulted in once) but never
  // an adjacency file: each relation (its Adjacency and decoded-list cache)
  // belongs to one thread per stage. Every file the stages may read is opened
  // first, as Graph opens files lazily and that is not thread-safe.
  const bool two = params.threads > 1;
  EdgeReader reader(graph, params, kw_seed), reader2(graph, params, kw_seed);
  if (two)
    for (int r = 0; r < kRelCount; ++r)
      if (reader.Base(static_cast<Rel>(r)) > 0) {
        graph.adj(static_cast<Rel>(r));
        graph.ranked(static_cast<Rel>(r));
      }
  // Runs fn(reader, thread) on thread 0 and, with two threads, thread 1.
  auto run = [&](const auto& fn) {
    if (!two) {
      fn(reader, 0);
      return;
    }
    std::thread t([&] { fn(reader2, 1); });
    fn(reader, 0);
    t.join();
  };
  auto add = [&](NodeRef n, int hop) {
    auto [it, inserted] = g.local.emplace(n.key(), static_cast<uint32_t>(g.nodes.size()));
    if (inserted) {
      g.nodes.push_back(n);
      g.hop.push_back(hop);
    }
    return it->second;
  };
  std::vector<uint32_t> frontier;
  for (const Seed& s : seeds) {
    size_t before = g.nodes.size();
    uint32_t id = add(s.node, 0);
    if (g.nodes.size() > before) frontier.push_back(id);
  }
  std::vector<uint32_t> expanded;
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); };
  for (int h = 1; h <= params.hops && !frontier.empty(); ++h) {
    const auto t_hop = Clock::now();
    expanded.insert(expanded.end(), frontier.begin(), frontier.end());
    // Relation lists in decreasing order of their strongest possible edge, so
    // the floors rise early and a list that cannot beat its type's floor is
    // not read at all.
    std::vector<std::tuple<double, Rel, uint32_t>> work;
    for (uint32_t u : frontier)
      for (Rel r : RelsFrom(g.nodes[u].type))
        if (reader.Base(r) > 0) work.emplace_back(reader.MaxWeight(r, g.nodes[u]), r, u);
    std::stable_sort(work.begin(), work.end(), [](const auto& a, const auto& b) { return std::get<0>(a) > std::get<0>(b); });
    std::array<HopSelector, 2> sel{HopSelector(params.per_hop_cap), HopSelector(params.per_hop_cap)};
    // Which thread reads each relation: the largest share of lists first, to
    // the thread with fewer so far. AUTHORED's two directions go together
    // (with author_position_boost a weight of one reads the other's degrees).
    std::array<int, kRelCount> owner{};
    if (two) {
      auto group = [](Rel r) { return r == Rel::kAuthoredPapers ? Rel::kAuthors : r; };
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
      owner[static_cast<int>(Rel::kAuthoredPapers)] = owner[static_cast<int>(Rel::kAuthors)];
    }
    HopSelector::Shared shared;
    run([&](EdgeReader& rd, int t) {
      std::vector<Deferred> deferred;
      for (const auto& [maxw, r, u] : work) {
        if (owner[static_cast<int>(r)] != t) continue;
        const Key* floor = sel[t].Floor(GetRelInfo(r).to);
        if (floor && static_cast<float>(maxw) < floor->w) continue;  // edge weights are floats
        rd.Candidates(r, g.nodes[u], g, &sel[t], &deferred);
        if (two) sel[t].Sync(&shared);
      }
      // The rest of a hub list only when its prefix's last entry still beats
      // the floor: by now the floors are high, so this is rare.
      for (const Deferred& d : deferred) {
        const Key* floor = sel[t].Floor(GetRelInfo(d.r).to);
        if (!floor || Better(d.last, *floor)) rd.ScanAll(d.r, d.u, g, &sel[t]);
      }
    });
    // Each node at its best key; then the cap best of each type. Pruning
    // only dropped edges that could not be selected, so the result does not
    // depend on the order of the lists or the number of threads.
    auto& found = sel[0].found();
    found.insert(found.end(), sel[1].found().begin(), sel[1].found().end());
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
      return a.first.type != b.first.type ? a.first.type < b.first.type : Better(a.second, b.second);
    });
    frontier.clear();
    for (size_t i = 0; i < found.size();) {
      size_t j = i;
      size_t kept = 0;
      for (; j < found.size() && found[j].first.type == found[i].first.type; ++j) {
        if (kept >= params.per_hop_cap) continue;
        size_t before = g.nodes.size();
        uint32_t id = add(found[j].first, h);
        if (g.nodes.size() > before) {  // a node's first entry is its best
          frontier.push_back(id);
          ++kept;
        }
      }
      i = j;
    }
    g.hop_ms.push_back(since(t_hop));
  }
  const auto t_edges = Clock::now();
  // Edges: every edge with an expanded end (seeds and hops before the last)
  // whose other end is in the subgraph; different relations between two
  // nodes add up. Each relation is read from one side: a directed relation
  // from its short side (a paper's references, authors, keywords, venue and
  // topics; an author's institutions; a topic's parent) for every member, so
  // the long lists of hubs (a paper's citers, a keyword's papers) are never
  // decoded here; a symmetric relation (RELATED_TO, COAUTHOR, COOCCUR) from
  // the expanded nodes.
  std::array<MemberSet, kNodeTypeCount> members;
  for (const NodeRef& n : g.nodes) members[static_cast<int>(n.type)].sorted.push_back(n.id);
  for (auto& m : members) m.Build();
  std::vector<uint8_t> is_expanded(g.nodes.size(), 0);
  for (uint32_t u : expanded) is_expanded[u] = 1;
  auto canonical = [](Rel r) -> uint8_t {
    switch (r) {  // both directions of a relation are one undirected edge
      case Rel::kCitesIn: return static_cast<uint8_t>(Rel::kCitesOut);
      case Rel::kAuthoredPapers: return static_cast<uint8_t>(Rel::kAuthors);
      case Rel::kInstitutionAuthors: return static_cast<uint8_t>(Rel::kAffiliations);
      case Rel::kSourcePapers: return static_cast<uint8_t>(Rel::kPublishedIn);
      case Rel::kTopicPapers: return static_cast<uint8_t>(Rel::kTopics);
      case Rel::kSubfieldTopics: return static_cast<uint8_t>(Rel::kTopicSubfield);
      case Rel::kFieldSubfields: return static_cast<uint8_t>(Rel::kSubfieldField);
      case Rel::kDomainFields: return static_cast<uint8_t>(Rel::kFieldDomain);
      case Rel::kKeywordPapers: return static_cast<uint8_t>(Rel::kKeywords);
      default: return static_cast<uint8_t>(r);
    }
  };
  struct RawEdge {
    uint32_t a, b;
    uint8_t rel;
    float w;
  };
  // One task per relation, taken by whichever thread is free: a relation's
  // file is read by one thread only.
  std::vector<std::pair<Rel, bool>> tasks;
  for (int type = 0; type < kNodeTypeCount; ++type)
    if (!members[type].sorted.empty())
      for (auto rel : EdgeRelsFrom(static_cast<NodeType>(type)))
        if (reader.Base(rel.first) > 0 && !members[static_cast<int>(GetRelInfo(rel.first).to)].sorted.empty())
          tasks.push_back(rel);
  std::array<std::vector<RawEdge>, 2> raws;
  std::atomic<size_t> next_task{0};
  run([&](EdgeReader& rd, int t) {
    for (size_t i = next_task++; i < tasks.size(); i = next_task++) {
      const auto [r, every_member] = tasks[i];
      const NodeType from = GetRelInfo(r).from;
      const auto& m = members[static_cast<int>(GetRelInfo(r).to)];
      for (uint32_t u = 0; u < g.nodes.size(); ++u) {
        const NodeRef un = g.nodes[u];
        if (un.type != from || (!every_member && !is_expanded[u])) continue;
        rd.Within(r, un, m, [&](NodeRef v, float w) {
          uint32_t vl = g.local.at(v.key());
          if (is_expanded[u] || is_expanded[vl]) raws[t].push_back({std::min(u, vl), std::max(u, vl), canonical(r), w});
        });
      }
    }
  });
  std::vector<RawEdge> raw = std::move(raws[0]);
  raw.insert(raw.end(), raws[1].begin(), raws[1].end());
  std::sort(raw.begin(), raw.end(), [](const RawEdge& x, const RawEdge& y) {
    return x.a != y.a ? x.a < y.a : x.b != y.b ? x.b < y.b : x.rel != y.rel ? x.rel < y.rel : x.w > y.w;
  });
  struct Agg {
    uint32_t a, b;
    float w, best;
    uint8_t rel;
  };
  std::vector<Agg> merged;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (i > 0 && raw[i].a == raw[i - 1].a && raw[i].b == raw[i - 1].b && raw[i].rel == raw[i - 1].rel)
      continue;  // the same relation seen from the other end
    if (!merged.empty() && merged.back().a == raw[i].a && merged.back().b == raw[i].b) {
      merged.back().w += raw[i].w;
      if (raw[i].w > merged.back().best) {
        merged.back().best = raw[i].w;
        merged.back().rel = raw[i].rel;
      }
    } else {
      merged.push_back({raw[i].a, raw[i].b, raw[i].w, raw[i].w, raw[i].rel});
    }
  }
  const size_t n = g.nodes.size();
  g.offsets.assign(n + 1, 0);
  for (const Agg& e : merged) {
    ++g.offsets[e.a + 1];
    ++g.offsets[e.b + 1];
  }
  for (size_t i = 0; i < n; ++i) g.offsets[i + 1] += g.offsets[i];
  g.nbr.resize(g.offsets[n]);
  g.weight.resize(g.offsets[n]);
  g.rel.resize(g.offsets[n]);
  std::vector<uint64_t> fill(g.offsets.begin(), g.offsets.end() - 1);
  for (const Agg& e : merged) {
    for (auto [x, y] : {std::make_pair(e.a, e.b), std::make_pair(e.b, e.a)}) {
      uint64_t at = fill[x]++;
      g.nbr[at] = y;
      g.weight[at] = e.w;
      g.rel[at] = e.rel;
    }
  }
  g.edges_ms = since(t_edges);
  return g;
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
  auto step = [&](const std::vector<double>& cur, std::vector<double>* next) {
    next->assign(n, 0.0);
    for (size_t u = 0; u < n; ++u) {
      if (cur[u] == 0) continue;
      if (out_w[u] <= 0) {
        (*next)[u] += cur[u];
        continue;
      }
      double f = cur[u] / out_w[u];
      for (uint64_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) (*next)[g.nbr[k]] += f * g.weight[k];
    }
  };
  if (p.propagation == "two-step") {
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

std::vector<ExplainPath> Explain(const Subgraph& g, const std::vector<Seed>& seeds, uint32_t target,
                                 size_t max_paths) {
  std::unordered_map<uint32_t, double> seed_w;
  double z = 0;
  for (const Seed& s : seeds) {
    int i = g.Find(s.node);
    if (i >= 0 && s.weight > 0) {
      seed_w[static_cast<uint32_t>(i)] += s.weight;
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
  if (seed_w.count(target)) paths.push_back({{target}, {}, seed_w[target] / z});
  for (uint64_t k = g.offsets[target]; k < g.offsets[target + 1]; ++k) {
    uint32_t m = g.nbr[k];
    double w_mt = g.weight[k];
    Rel r_mt = static_cast<Rel>(g.rel[k]);
    if (auto it = seed_w.find(m); it != seed_w.end())
      paths.push_back({{m, target}, {r_mt}, it->second / z * w_mt / total(m)});
    for (uint64_t j = g.offsets[m]; j < g.offsets[m + 1]; ++j) {
      uint32_t s = g.nbr[j];
      if (s == target) continue;
      auto it = seed_w.find(s);
      if (it == seed_w.end()) continue;
      double strength = it->second / z * g.weight[j] / total(s) * w_mt / total(m);
      paths.push_back({{s, m, target}, {static_cast<Rel>(g.rel[j]), r_mt}, strength});
    }
  }
  std::sort(paths.begin(), paths.end(), [](const ExplainPath& a, const ExplainPath& b) {
    return a.strength != b.strength ? a.strength > b.strength : a.nodes < b.nodes;
  });
  if (paths.size() > max_paths) paths.resize(max_paths);
  return paths;
}

}  // namespace litgraph
