#include "litgraph/rwr.h"

#include <algorithm>
#include <cmath>
#include <map>
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

struct Edge {
  NodeRef to;
  float w;
  Rel rel;
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

  void Read(NodeRef u, std::vector<Edge>* out) {
    out->clear();
    for (Rel r : RelsFrom(u.type)) {
      if (Base(r) == 0) continue;
      const RelInfo& info = GetRelInfo(r);
      auto l = g_.adj(r).Neighbours(u.id);
      for (size_t i = 0; i < l.size(); ++i) {
        NodeRef v{info.to, l.ids[i]};
        if (v == u) continue;
        float w = Weight(r, u, v, l.attrs.empty() ? 0 : l.attrs[i]);
        if (w > 0) out->push_back({v, w, r});
      }
    }
  }

 private:
  Graph& g_;
  const RwrParams& p_;
  const std::unordered_map<uint32_t, double>& kw_seed_;
};

}  // namespace

Subgraph BuildSubgraph(Graph& graph, const std::vector<Seed>& seeds, const RwrParams& params) {
  Subgraph g;
  std::unordered_map<uint32_t, double> kw_seed;
  for (const Seed& s : seeds)
    if (s.node.type == NodeType::kKeyword) kw_seed[s.node.id] = std::max(kw_seed[s.node.id], s.weight);
  EdgeReader reader(graph, params, kw_seed);
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
  std::vector<std::vector<Edge>> lists(g.nodes.size());  // edges of expanded nodes
  std::vector<Edge> buf;
  for (int h = 1; h <= params.hops && !frontier.empty(); ++h) {
    struct Cand {
      NodeRef node;
      float w;
      uint32_t cites;
    };
    std::unordered_map<uint64_t, Cand> cand;
    for (uint32_t u : frontier) {
      reader.Read(g.nodes[u], &buf);
      if (lists.size() <= u) lists.resize(u + 1);
      lists[u] = buf;
      for (const Edge& e : buf) {
        if (g.local.count(e.to.key())) continue;
        auto [it, inserted] = cand.emplace(e.to.key(), Cand{e.to, e.w, 0});
        if (!inserted) it->second.w = std::max(it->second.w, e.w);
      }
    }
    std::map<NodeType, std::vector<Cand>> by_type;
    for (auto& [k, c] : cand) {
      if (c.node.type == NodeType::kPaper) c.cites = graph.Citations(c.node.id);
      by_type[c.node.type].push_back(c);
    }
    frontier.clear();
    for (auto& [type, cs] : by_type) {
      size_t keep = std::min(cs.size(), params.per_hop_cap);
      std::partial_sort(cs.begin(), cs.begin() + keep, cs.end(), [](const Cand& a, const Cand& b) {
        if (a.w != b.w) return a.w > b.w;
        if (a.cites != b.cites) return a.cites > b.cites;
        return a.node.id < b.node.id;
      });
      for (size_t i = 0; i < keep; ++i) frontier.push_back(add(cs[i].node, h));
    }
    if (h == params.hops) break;  // the last hop's nodes are the boundary
  }
  // Undirected edges among subgraph nodes; a relation seen from both ends is
  // counted once, different relations between a pair add up.
  struct PairRel {
    uint32_t a, b;
    uint8_t rel;
    bool operator<(const PairRel& o) const {
      return a != o.a ? a < o.a : b != o.b ? b < o.b : rel < o.rel;
    }
  };
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
  std::map<PairRel, float> pairs;
  for (uint32_t u = 0; u < lists.size(); ++u) {
    for (const Edge& e : lists[u]) {
      auto it = g.local.find(e.to.key());
      if (it == g.local.end()) continue;
      uint32_t v = it->second;
      PairRel key{std::min(u, v), std::max(u, v), canonical(e.rel)};
      auto [pit, inserted] = pairs.emplace(key, e.w);
      if (!inserted) pit->second = std::max(pit->second, e.w);
    }
  }
  const size_t n = g.nodes.size();
  struct Agg {
    float w = 0, best = 0;
    uint8_t rel = 0;
  };
  std::map<std::pair<uint32_t, uint32_t>, Agg> merged;
  for (auto& [k, w] : pairs) {
    Agg& a = merged[{k.a, k.b}];
    a.w += w;
    if (w > a.best) {
      a.best = w;
      a.rel = k.rel;
    }
  }
  g.offsets.assign(n + 1, 0);
  for (auto& [k, a] : merged) {
    ++g.offsets[k.first + 1];
    ++g.offsets[k.second + 1];
  }
  for (size_t i = 0; i < n; ++i) g.offsets[i + 1] += g.offsets[i];
  g.nbr.resize(g.offsets[n]);
  g.weight.resize(g.offsets[n]);
  g.rel.resize(g.offsets[n]);
  std::vector<uint64_t> fill(g.offsets.begin(), g.offsets.end() - 1);
  for (auto& [k, a] : merged) {
    for (auto [x, y] : {std::make_pair(k.first, k.second), std::make_pair(k.second, k.first)}) {
      uint64_t at = fill[x]++;
      g.nbr[at] = y;
      g.weight[at] = a.w;
      g.rel[at] = a.rel;
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
