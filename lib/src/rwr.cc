#include "litgraph/rwr.h"

#include <algorithm>
#include <array>
#include <memory>
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
      case Rel::kCoauthor: case Rel::kCooccur:
        return static_cast<float>(base * std::max(1.0, std::min(p_.c_max, std::log(1.0 + a))));
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

  // Calls fn(v, w) for the `cap` strongest neighbours of u over r (weight,
  // then smaller id), so a hub costs its decoding but not per-edge work.
  template <typename Fn>
  void Strongest(Rel r, NodeRef u, size_t cap, Fn&& fn) {
    const RelInfo& info = GetRelInfo(r);
    auto l = g_.adj(r).Neighbours(u.id);
    scratch_.clear();
    scratch_.reserve(l.size());
    const bool self_possible = info.to == u.type;
    if (r == Rel::kKeywordPapers) {
      // Hub lists: one kappa for the whole list, weight = factor x score.
      auto it = kw_seed_.find(u.id);
      float f = static_cast<float>(Base(r) * (it != kw_seed_.end() ? it->second : p_.eps_kw) / 10.0);
      for (size_t i = 0; i < l.size(); ++i)
        if (l.attrs[i] > 0) scratch_.push_back({f * static_cast<float>(l.attrs[i]), l.ids[i]});
    } else if (l.attrs.empty() && r != Rel::kAuthors && r != Rel::kAuthoredPapers) {
      float w = static_cast<float>(Base(r));  // unweighted relations
      for (size_t i = 0; i < l.size(); ++i)
        if (!self_possible || l.ids[i] != u.id) scratch_.push_back({w, l.ids[i]});
    } else {
      for (size_t i = 0; i < l.size(); ++i) {
        NodeRef v{info.to, l.ids[i]};
        if (v == u) continue;
        float w = Weight(r, u, v, l.attrs.empty() ? 0 : l.attrs[i]);
        if (w > 0) scratch_.push_back({w, l.ids[i]});
      }
    }
    if (scratch_.size() > cap) {
      // The documented rule: strongest edge, then (papers) more citations,
      // then smaller id. Citation counts are read only for the entries tied
      // with the cap-th weight.
      std::nth_element(scratch_.begin(), scratch_.begin() + (cap - 1), scratch_.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      float cut = scratch_[cap - 1].first;
      auto mid = std::partition(scratch_.begin(), scratch_.end(), [&](const auto& e) { return e.first > cut; });
      size_t above = static_cast<size_t>(mid - scratch_.begin());
      auto tied_end = std::partition(mid, scratch_.end(), [&](const auto& e) { return e.first == cut; });
      std::vector<std::pair<float, uint32_t>>::iterator tied_begin = mid;
      size_t need = cap - above;
      if (info.to == NodeType::kPaper) {
        std::vector<std::tuple<uint32_t, uint32_t>> tied;
        for (auto it = tied_begin; it != tied_end; ++it) tied.emplace_back(g_.Citations(it->second), it->second);
        std::partial_sort(tied.begin(), tied.begin() + need, tied.end(), [](const auto& a, const auto& b) {
          return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) > std::get<0>(b) : std::get<1>(a) < std::get<1>(b);
        });
        for (size_t i = 0; i < need; ++i) tied_begin[i] = {cut, std::get<1>(tied[i])};
      } else {
        std::partial_sort(tied_begin, tied_begin + need, tied_end,
                          [](const auto& a, const auto& b) { return a.second < b.second; });
      }
      scratch_.resize(cap);
    }
    for (auto& [w, id] : scratch_) fn(NodeRef{info.to, id}, w);
  }

  // Calls fn(v, w) for the neighbours of u over r that `in` (sorted ids of
  // the target type) contains: a merge for long lists, a search for short.
  template <typename Fn>
  void Within(Rel r, NodeRef u, const std::vector<uint32_t>& in, Fn&& fn) {
    if (in.empty()) return;
    const RelInfo& info = GetRelInfo(r);
    auto l = g_.adj(r).Neighbours(u.id);
    auto visit = [&](size_t i) {
      NodeRef v{info.to, l.ids[i]};
      if (v == u) return;
      float w = Weight(r, u, v, l.attrs.empty() ? 0 : l.attrs[i]);
      if (w > 0) fn(v, w);
    };
    if (l.size() > 4 * in.size()) {
      for (uint32_t id : in) {
        auto it = std::lower_bound(l.ids.begin(), l.ids.end(), id);
        if (it != l.ids.end() && *it == id) visit(static_cast<size_t>(it - l.ids.begin()));
      }
    } else {
      for (size_t i = 0; i < l.size(); ++i)
        if (std::binary_search(in.begin(), in.end(), l.ids[i])) visit(i);
    }
  }

 private:
  Graph& g_;
  const RwrParams& p_;
  const std::unordered_map<uint32_t, double>& kw_seed_;
  std::vector<std::pair<float, uint32_t>> scratch_;
};

}  // namespace

Subgraph BuildSubgraph(Graph& graph, const std::vector<Seed>& seeds, const RwrParams& params) {
  Subgraph g;
  std::unordered_map<uint32_t, double> kw_seed;
  for (const Seed& s : seeds)
    if (s.node.type == NodeType::kKeyword) kw_seed[s.node.id] = std::max(kw_seed[s.node.id], s.weight);
  EdgeReader reader(graph, params, kw_seed);
  // A second reader on its own Graph (adjacency caches are per thread) lets
  // two threads scan adjacency lists; results are merged in the serial order,
  // so the subgraph is the same with one thread or two.
  std::unique_ptr<Graph> second_graph;
  std::unique_ptr<EdgeReader> second;
  if (params.threads > 1 && graph.store()) {
    auto g2 = Graph::Open(graph.store());
    if (g2.ok()) {
      second_graph = std::move(g2.value());
      second = std::make_unique<EdgeReader>(*second_graph, params, kw_seed);
    }
  }
  // Runs fn(reader, begin, end) over [0, n), split in two when worthwhile.
  auto split = [&](size_t n, const auto& fn) {
    if (!second || n < 64) {
      fn(reader, 0, n, 0);
      return;
    }
    size_t mid = n / 2;
    std::thread t([&] { fn(*second, mid, n, 1); });
    fn(reader, 0, mid, 0);
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
  for (int h = 1; h <= params.hops && !frontier.empty(); ++h) {
    expanded.insert(expanded.end(), frontier.begin(), frontier.end());
    struct Cand {
      float w;
      uint32_t cites;
      NodeRef node;
    };
    std::unordered_map<uint64_t, Cand> cand;
    cand.reserve(frontier.size() * 64);
    std::array<std::vector<float>, kNodeTypeCount> best;  // candidate weights per type, for the bound
    // Relations in decreasing order of their strongest possible edge: once a
    // type has `cap` candidates at least as strong as a relation can give, the
    // relation cannot change the selection and is not scanned for candidates.
    std::vector<std::tuple<double, Rel, uint32_t>> work;
    for (uint32_t u : frontier)
      for (Rel r : RelsFrom(g.nodes[u].type))
        if (reader.Base(r) > 0) work.emplace_back(reader.MaxWeight(r, g.nodes[u]), r, u);
    std::stable_sort(work.begin(), work.end(), [](const auto& a, const auto& b) { return std::get<0>(a) > std::get<0>(b); });
    std::array<float, kNodeTypeCount> floor_w;  // cap-th best weight so far per type
    floor_w.fill(-1.0f);
    for (size_t i = 0; i < work.size();) {
      size_t j = i;
      double level = std::get<0>(work[i]);
      while (j < work.size() && std::get<0>(work[j]) == level) ++j;
      std::vector<size_t> todo;
      for (size_t k = i; k < j; ++k) {
        auto [maxw, r, u] = work[k];
        if (maxw >= floor_w[static_cast<int>(GetRelInfo(r).to)]) todo.push_back(k);
      }
      std::array<std::vector<std::pair<NodeRef, float>>, 2> found;
      split(todo.size(), [&](EdgeReader& rd, size_t b, size_t e, int t) {
        for (size_t x = b; x < e; ++x) {
          auto [maxw, r, u] = work[todo[x]];
          rd.Strongest(r, g.nodes[u], params.per_hop_cap, [&](NodeRef v, float w) {
            if (!g.local.count(v.key())) found[t].emplace_back(v, w);
          });
        }
      });
      for (const auto& part : found)
        for (const auto& [v, w] : part) {
          auto [it, inserted] = cand.emplace(v.key(), Cand{w, 0, v});
          // The floor counts each node once, at its first weight: never
          // above the true cap-th weight, so pruning stays safe.
          if (inserted) best[static_cast<int>(v.type)].push_back(w);
          else if (w > it->second.w) it->second.w = w;
        }
      for (int type = 0; type < kNodeTypeCount; ++type) {
        auto& ws = best[type];
        if (ws.size() >= params.per_hop_cap) {
          std::nth_element(ws.begin(), ws.begin() + (params.per_hop_cap - 1), ws.end(), std::greater<float>());
          floor_w[type] = ws[params.per_hop_cap - 1];
          ws.resize(params.per_hop_cap);
        }
      }
      i = j;
    }
    std::array<std::vector<Cand>, kNodeTypeCount> by_type;
    for (auto& [k, c] : cand) by_type[static_cast<int>(c.node.type)].push_back(c);
    frontier.clear();
    for (auto& cs : by_type) {
      if (cs.empty()) continue;
      // Papers tie on weight often (CITES is 1.0): citation counts break ties,
      // read only for the candidates at or above the cut weight.
      size_t keep = std::min(cs.size(), params.per_hop_cap);
      std::nth_element(cs.begin(), cs.begin() + (keep - 1), cs.end(),
                       [](const Cand& a, const Cand& b) { return a.w > b.w; });
      float cut = cs[keep - 1].w;
      std::vector<Cand> top;
      for (Cand& c : cs)
        if (c.w >= cut) {
          if (c.node.type == NodeType::kPaper) c.cites = graph.Citations(c.node.id);
          top.push_back(c);
        }
      std::sort(top.begin(), top.end(), [](const Cand& a, const Cand& b) {
        if (a.w != b.w) return a.w > b.w;
        if (a.cites != b.cites) return a.cites > b.cites;
        return a.node.id < b.node.id;
      });
      for (size_t i = 0; i < keep; ++i) frontier.push_back(add(top[i].node, h));
    }
  }
  // Edges: every edge of an expanded node whose other end is in the
  // subgraph; a relation seen from both ends counts once, different
  // relations between two nodes add up.
  std::array<std::vector<uint32_t>, kNodeTypeCount> members;
  for (const NodeRef& n : g.nodes) members[static_cast<int>(n.type)].push_back(n.id);
  for (auto& ids : members) std::sort(ids.begin(), ids.end());
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
  std::array<std::vector<RawEdge>, 2> raws;
  split(expanded.size(), [&](EdgeReader& rd, size_t b, size_t e, int t) {
    for (size_t x = b; x < e; ++x) {
      uint32_t u = expanded[x];
      const NodeRef un = g.nodes[u];
      for (Rel r : RelsFrom(un.type)) {
        if (rd.Base(r) <= 0) continue;
        const auto& m = members[static_cast<int>(GetRelInfo(r).to)];
        if (m.empty()) continue;
        rd.Within(r, un, m, [&](NodeRef v, float w) {
          uint32_t vl = g.local.at(v.key());
          raws[t].push_back({std::min(u, vl), std::max(u, vl), canonical(r), w});
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
