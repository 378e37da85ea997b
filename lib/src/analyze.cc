#include "litgraph/analyze.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <tuple>
#include <unordered_map>

#include "litgraph/metrics.h"
#include "litgraph/text.h"

namespace litgraph {

namespace {

void BuildCitations(PaperSet* s, const std::vector<std::pair<uint32_t, uint32_t>>& edges) {
  const uint32_t n = s->size();
  std::vector<std::pair<uint32_t, uint32_t>> fwd, back;
  for (auto [a, b] : edges) {
    if (a >= n || b >= n || a == b) continue;
    fwd.emplace_back(a, b);
    back.emplace_back(b, a);
  }
  BuildCsr(n, std::move(fwd), &s->ref_off, &s->refs);
  BuildCsr(n, std::move(back), &s->cit_off, &s->citers);
}

}  // namespace

PaperSet PaperSet::FromEdges(uint32_t n, const std::vector<std::pair<uint32_t, uint32_t>>& edges,
                             const std::vector<std::vector<uint32_t>>& keywords,
                             const std::vector<int32_t>& topics) {
  PaperSet s;
  s.papers.resize(n);
  std::iota(s.papers.begin(), s.papers.end(), 0u);
  s.years.assign(n, 0);
  BuildCitations(&s, edges);
  std::vector<std::pair<uint32_t, uint32_t>> kw;
  for (uint32_t p = 0; p < n && p < keywords.size(); ++p)
    for (uint32_t k : keywords[p]) kw.emplace_back(p, k);
  BuildCsr(n, std::move(kw), &s.kw_off, &s.keywords);
  s.topic.assign(n, -1);
  for (uint32_t p = 0; p < n && p < topics.size(); ++p) s.topic[p] = topics[p];
  return s;
}

Result<PaperSet> LoadPaperSet(Graph& graph, std::vector<uint32_t> papers) {
  std::sort(papers.begin(), papers.end());
  papers.erase(std::unique(papers.begin(), papers.end()), papers.end());
  while (!papers.empty() && papers.back() >= graph.num_papers()) papers.pop_back();
  PaperSet s;
  s.papers = std::move(papers);
  const uint32_t n = s.size();
  std::unordered_map<uint32_t, uint32_t> local;
  local.reserve(n * 2);
  for (uint32_t i = 0; i < n; ++i) local.emplace(s.papers[i], i);
  s.years.resize(n);
  std::vector<std::pair<uint32_t, uint32_t>> edges, kw;
  s.topic.assign(n, -1);
  Adjacency& cites = graph.adj(Rel::kCitesOut);
  Adjacency& keywords = graph.adj(Rel::kKeywords);
  Adjacency& topics = graph.adj(Rel::kTopics);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t p = s.papers[i];
    s.years[i] = static_cast<uint16_t>(graph.Year(p));
    for (uint32_t r : cites.Neighbours(p).ids)
      if (auto it = local.find(r); it != local.end()) edges.emplace_back(i, it->second);
    for (uint32_t k : keywords.Neighbours(p).ids) kw.emplace_back(i, k);
    // Primary topic first, then the highest score (attr: score in
    // thousandths << 1 | is_primary), as metrics.cc PaperFields.
    Adjacency::List l = topics.Neighbours(p);
    if (l.size() > 0) {
      size_t best = 0;
      for (size_t j = 1; j < l.size(); ++j) {
        const uint32_t a = l.attrs.empty() ? 0 : l.attrs[j];
        const uint32_t b = l.attrs.empty() ? 0 : l.attrs[best];
        if ((a & 1) != (b & 1) ? (a & 1) > (b & 1) : (a >> 1) > (b >> 1)) best = j;
      }
      s.topic[i] = static_cast<int32_t>(l.ids[best]);
    }
  }
  BuildCitations(&s, edges);
  BuildCsr(n, std::move(kw), &s.kw_off, &s.keywords);
  LITGRAPH_RETURN_IF_ERROR(graph.status());
  return s;
}

std::vector<uint32_t> AllPapers(Graph& graph) {
  std::vector<uint32_t> out;
  for (int64_t id : graph.store()->PaperIds())
    if (id >= 0) out.push_back(static_cast<uint32_t>(id));
  return out;
}

Result<std::vector<uint32_t>> PapersOfField(Store* store, Graph& graph, const std::string& field) {
  const std::string want = NormalizeName(field);
  std::string short_id = field;
  if (short_id.rfind("fields/", 0) != 0) short_id = "fields/" + short_id;
  int64_t found = -1;
  const int64_t max_field = store->MaxId(NodeType::kField);
  for (int64_t f = 0; f <= max_field && found < 0; ++f) {
    auto label = store->NodeLabel(NodeType::kField, f);
    if (!label) continue;
    if (label->first == field || label->first == short_id ||
        ShortOpenAlexId(label->first) == short_id || NormalizeName(label->second) == want)
      found = f;
  }
  if (found < 0)
    return Status::NotFound("no field named \"" + field + "\" in the store (a name or fields/N)");
  auto fields = PaperFields(graph);
  if (!fields.ok()) return fields.status();
  std::vector<uint32_t> out;
  for (uint32_t p = 0; p < fields->size(); ++p)
    if ((*fields)[p] == found) out.push_back(p);
  return out;
}

Influence ComputeInfluence(const PaperSet& s, double damping, double tolerance) {
  Influence out;
  const uint32_t n = s.size();
  if (n == 0) return out;
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  for (uint32_t p = 0; p < n; ++p)
    for (uint32_t r : s.Refs(p)) edges.emplace_back(p, r);
  CitationCsr g = CitationCsr::FromEdges(std::vector<uint16_t>(n, 0), edges);
  PageRankOptions o;
  o.damping = damping;
  o.tolerance = tolerance;
  o.max_iterations = 500;
  PageRankResult pr = ComputePageRank(g, o, 1);
  out.pagerank = std::move(pr.rank);
  out.iterations = pr.iterations;
  std::unordered_map<uint32_t, size_t> at;
  for (uint32_t p = 0; p < n; ++p)
    for (uint32_t k : s.Keywords(p)) {
      auto [it, added] = at.emplace(k, out.keywords.size());
      if (added) out.keywords.push_back({k, 0, 0, p});
      Influence::KeywordScore& ks = out.keywords[it->second];
      ks.score += out.pagerank[p];
      ++ks.papers;
      if (out.pagerank[p] > out.pagerank[ks.top_paper]) ks.top_paper = p;
    }
  std::sort(out.keywords.begin(), out.keywords.end(), [](const auto& a, const auto& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.papers != b.papers) return a.papers > b.papers;
    return a.keyword < b.keyword;
  });
  return out;
}

namespace {

// From weighted edges (a, b, w) between distinct nodes below n: both
// directions, repeated pairs merged (weights summed).
UndirectedGraph FromWeightedEdges(uint32_t n,
                                  std::vector<std::tuple<uint32_t, uint32_t, double>> edges) {
  const size_t half = edges.size();
  for (size_t i = 0; i < half; ++i) {
    auto [a, b, w] = edges[i];
    edges.emplace_back(b, a, w);
  }
  std::sort(edges.begin(), edges.end());
  UndirectedGraph g;
  g.off.assign(n + 1, 0);
  for (size_t i = 0; i < edges.size(); ++i) {
    auto [a, b, w] = edges[i];
    if (a == b || a >= n || b >= n) continue;
    if (!g.ids.empty() && i > 0 && std::get<0>(edges[i - 1]) == a &&
        std::get<1>(edges[i - 1]) == b) {
      g.weight.back() += w;
      continue;
    }
    g.ids.push_back(b);
    g.weight.push_back(w);
    ++g.off[a + 1];
  }
  for (uint32_t v = 0; v < n; ++v) g.off[v + 1] += g.off[v];
  return g;
}

void Renumber(std::vector<int32_t>* label) {
  std::unordered_map<int32_t, int32_t> renumber;
  for (int32_t& l : *label)
    if (l >= 0) l = renumber.emplace(l, static_cast<int32_t>(renumber.size())).first->second;
}

}  // namespace

UndirectedGraph CitationGraph(const PaperSet& s) {
  std::vector<std::tuple<uint32_t, uint32_t, double>> edges;
  for (uint32_t p = 0; p < s.size(); ++p)
    for (uint32_t r : s.Refs(p)) edges.emplace_back(p, r, 1.0);
  return FromWeightedEdges(s.size(), std::move(edges));
}

std::vector<int32_t> LabelPropagation(const UndirectedGraph& g, int max_passes, uint64_t seed) {
  const uint32_t n = g.size();
  std::vector<int32_t> label(n);
  std::iota(label.begin(), label.end(), 0);
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 rng(seed);
  std::unordered_map<int32_t, double> weight;
  std::vector<int32_t> best;
  for (int pass = 0; pass < max_passes; ++pass) {
    // Fisher-Yates with rng() % k: the same order on every platform.
    for (uint32_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
    bool changed = false;
    for (uint32_t p : order) {
      weight.clear();
      for (uint64_t i = g.off[p]; i < g.off[p + 1]; ++i) weight[label[g.ids[i]]] += g.weight[i];
      if (weight.empty()) continue;
      double top = 0;
      for (auto [l, w] : weight) top = std::max(top, w);
      // Kept when it is among the heaviest (no oscillation).
      if (auto it = weight.find(label[p]); it != weight.end() && it->second == top) continue;
      best.clear();
      for (auto [l, w] : weight)
        if (w == top) best.push_back(l);
      std::sort(best.begin(), best.end());  // the map's order is not portable
      label[p] = best[rng() % best.size()];
      changed = true;
    }
    if (!changed) break;
  }
  Renumber(&label);
  return label;
}

std::vector<int32_t> LabelPropagation(const PaperSet& s, int max_passes, uint64_t seed) {
  return LabelPropagation(CitationGraph(s), max_passes, seed);
}

std::vector<int32_t> KeywordCommunities(const PaperSet& s, int max_passes, uint64_t seed) {
  // Keywords of the set, numbered by first use (papers ascending).
  std::unordered_map<uint32_t, uint32_t> local;
  std::vector<uint32_t> kw(s.keywords.size());
  for (size_t i = 0; i < kw.size(); ++i)
    kw[i] = local.emplace(s.keywords[i], static_cast<uint32_t>(local.size())).first->second;
  std::vector<std::tuple<uint32_t, uint32_t, double>> edges;
  for (uint32_t p = 0; p < s.size(); ++p)
    for (uint64_t i = s.kw_off[p]; i < s.kw_off[p + 1]; ++i)
      for (uint64_t j = i + 1; j < s.kw_off[p + 1]; ++j) edges.emplace_back(kw[i], kw[j], 1.0);
  const std::vector<int32_t> keyword_label = LabelPropagation(
      FromWeightedEdges(static_cast<uint32_t>(local.size()), std::move(edges)), max_passes, seed);
  std::vector<int32_t> label(s.size(), -1);
  std::map<int32_t, uint32_t> count;  // ordered: ties go to the smaller label
  for (uint32_t p = 0; p < s.size(); ++p) {
    count.clear();
    for (uint64_t i = s.kw_off[p]; i < s.kw_off[p + 1]; ++i) ++count[keyword_label[kw[i]]];
    uint32_t top = 0;
    for (auto [l, c] : count)
      if (c > top) {
        top = c;
        label[p] = l;
      }
  }
  Renumber(&label);
  return label;
}

Betweenness ComputeBetweenness(const UndirectedGraph& g, uint32_t samples, uint64_t seed) {
  const uint32_t n = g.size();
  Betweenness b;
  b.value.assign(n, 0);
  b.normalized.assign(n, 0);
  std::vector<uint32_t> sources(n);
  std::iota(sources.begin(), sources.end(), 0u);
  b.exact = samples >= n;
  if (!b.exact) {
    // The first `samples` of a seeded Fisher-Yates shuffle.
    std::mt19937_64 rng(seed);
    for (uint32_t i = 0; i < samples; ++i) std::swap(sources[i], sources[i + rng() % (n - i)]);
    sources.resize(samples);
    std::sort(sources.begin(), sources.end());
  }
  b.sources = static_cast<uint32_t>(sources.size());
  std::vector<int32_t> dist(n, -1);
  std::vector<double> sigma(n, 0), delta(n, 0);
  std::vector<uint32_t> order;  // BFS order: the queue, then the stack
  order.reserve(n);
  for (uint32_t s : sources) {
    order.assign(1, s);
    dist[s] = 0;
    sigma[s] = 1;
    for (size_t h = 0; h < order.size(); ++h) {
      const uint32_t v = order[h];
      for (uint32_t w : g.Of(v)) {
        if (dist[w] < 0) {
          dist[w] = dist[v] + 1;
          order.push_back(w);
        }
        if (dist[w] == dist[v] + 1) sigma[w] += sigma[v];
      }
    }
    for (size_t h = order.size(); h-- > 0;) {
      const uint32_t w = order[h];
      for (uint32_t v : g.Of(w))
        if (dist[v] == dist[w] - 1) delta[v] += sigma[v] / sigma[w] * (1 + delta[w]);
      if (w != s) b.value[w] += delta[w];
    }
    for (uint32_t v : order) {
      dist[v] = -1;
      sigma[v] = 0;
      delta[v] = 0;
    }
  }
  // Every unordered pair is reached from both ends: halved.
  const double scale = b.sources == 0 ? 0 : 0.5 * n / b.sources;
  const double pairs = n >= 3 ? (n - 1.0) * (n - 2.0) / 2 : 0;
  for (uint32_t v = 0; v < n; ++v) {
    b.value[v] *= scale;
    b.normalized[v] = pairs > 0 ? b.value[v] / pairs : 0;
  }
  return b;
}

std::vector<Participation> ComputeParticipation(const PaperSet& s,
                                                const std::vector<int32_t>& community) {
  const uint32_t n = s.size();
  std::vector<Participation> out(n);
  std::unordered_map<int64_t, uint32_t> count;
  for (uint32_t p = 0; p < n; ++p) {
    count.clear();
    uint32_t k = 0;
    auto add = [&](uint32_t q) {
      // A neighbour without a community is a community of its own.
      const int64_t c = community[q] >= 0 ? community[q] : -1 - static_cast<int64_t>(q);
      ++count[c];
      ++k;
    };
    for (uint32_t q : s.Refs(p)) add(q);
    for (uint32_t q : s.Citers(p)) add(q);
    out[p].degree = k;
    out[p].communities = static_cast<uint32_t>(count.size());
    if (k == 0) continue;
    double sum = 0;
    for (auto [c, kc] : count) sum += (static_cast<double>(kc) / k) * (static_cast<double>(kc) / k);
    out[p].coefficient = std::max(0.0, 1.0 - sum);
  }
  return out;
}

std::vector<LineageDepth> ComputeLineageDepths(const PaperSet& s) {
  const uint32_t n = s.size();
  // Tarjan's strongly connected components over "p -> its citing papers",
  // iteratively (chains of thousands of papers would overflow a recursion).
  // Components come out in reverse topological order: every component a
  // paper's citers reach is finished before the paper's own.
  std::vector<int64_t> index(n, -1), low(n, 0);
  std::vector<char> on_stack(n, 0);
  std::vector<uint32_t> stack, comp(n, 0);
  std::vector<std::vector<uint32_t>> comps;
  int64_t next_index = 0;
  struct Frame {
    uint32_t p;
    size_t i;
  };
  std::vector<Frame> call;
  for (uint32_t root = 0; root < n; ++root) {
    if (index[root] >= 0) continue;
    call.push_back({root, 0});
    index[root] = low[root] = next_index++;
    stack.push_back(root);
    on_stack[root] = 1;
    while (!call.empty()) {
      Frame& f = call.back();
      std::span<const uint32_t> c = s.Citers(f.p);
      if (f.i < c.size()) {
        const uint32_t q = c[f.i++];
        if (index[q] < 0) {
          index[q] = low[q] = next_index++;
          stack.push_back(q);
          on_stack[q] = 1;
          call.push_back({q, 0});
        } else if (on_stack[q]) {
          low[f.p] = std::min(low[f.p], index[q]);
        }
        continue;
      }
      const uint32_t p = f.p;
      call.pop_back();
      if (!call.empty()) low[call.back().p] = std::min(low[call.back().p], low[p]);
      if (low[p] == index[p]) {
        std::vector<uint32_t> members;
        uint32_t q;
        do {
          q = stack.back();
          stack.pop_back();
          on_stack[q] = 0;
          comp[q] = static_cast<uint32_t>(comps.size());
          members.push_back(q);
        } while (q != p);
        comps.push_back(std::move(members));
      }
    }
  }
  // Depth per component, in the order found (descendants first).
  std::vector<LineageDepth> out(n);
  std::vector<uint32_t> cdepth(comps.size(), 0), cnext(comps.size(), UINT32_MAX);
  for (uint32_t ci = 0; ci < comps.size(); ++ci) {
    for (uint32_t p : comps[ci])
      for (uint32_t q : s.Citers(p)) {
        const uint32_t cq = comp[q];
        if (cq == ci) continue;
        const uint32_t d = cdepth[cq] + 1;
        if (d > cdepth[ci] || (d == cdepth[ci] && cnext[ci] != UINT32_MAX && q < cnext[ci])) {
          cdepth[ci] = d;
          cnext[ci] = q;
        }
      }
  }
  for (uint32_t p = 0; p < n; ++p) out[p] = {cdepth[comp[p]], cnext[comp[p]]};
  return out;
}

std::vector<uint32_t> LineageChain(const std::vector<LineageDepth>& d, uint32_t p) {
  std::vector<uint32_t> chain = {p};
  while (d[chain.back()].next != UINT32_MAX && chain.size() <= d.size())
    chain.push_back(d[chain.back()].next);
  return chain;
}

Gaps ComputeGaps(const PaperSet& s, const GapOptions& o) {
  Gaps g;
  const uint32_t n = s.size();
  for (uint32_t p = 0; p < n; ++p)
    if (s.Refs(p).empty() && s.Citers(p).empty()) g.detached.push_back(p);
  std::unordered_map<uint32_t, uint32_t> count, first;
  for (uint32_t p = 0; p < n; ++p)
    for (uint32_t k : s.Keywords(p)) {
      if (count[k]++ == 0) first[k] = p;
    }
  for (auto [k, c] : count)
    if (c == 1) g.single_use.emplace_back(k, first[k]);
  std::sort(g.single_use.begin(), g.single_use.end());
  // The dense keywords: most used first (ties: smaller id), at least min_count.
  std::vector<std::pair<uint32_t, uint32_t>> dense;  // count, keyword
  for (auto [k, c] : count)
    if (c >= o.min_count) dense.emplace_back(c, k);
  std::sort(dense.begin(), dense.end(), [](auto a, auto b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  if (dense.size() > o.top) dense.resize(o.top);
  const size_t m = dense.size();
  std::unordered_map<uint32_t, uint32_t> slot;
  for (size_t i = 0; i < m; ++i) slot[dense[i].second] = static_cast<uint32_t>(i);
  std::vector<uint32_t> co(m * m, 0);
  std::vector<uint32_t> mine;
  for (uint32_t p = 0; p < n; ++p) {
    mine.clear();
    for (uint32_t k : s.Keywords(p))
      if (auto it = slot.find(k); it != slot.end()) mine.push_back(it->second);
    for (size_t i = 0; i < mine.size(); ++i)
      for (size_t j = i + 1; j < mine.size(); ++j) {
        const uint32_t a = std::min(mine[i], mine[j]), b = std::max(mine[i], mine[j]);
        ++co[a * m + b];
      }
  }
  for (size_t i = 0; i < m; ++i)
    for (size_t j = i + 1; j < m; ++j) {
      const double expected =
          static_cast<double>(dense[i].first) * static_cast<double>(dense[j].first) / n;
      const uint32_t obs = co[i * m + j];
      if (expected < o.min_expected || obs > o.sparse_ratio * expected) continue;
      KeywordPairGap gap;
      gap.a = std::min(dense[i].second, dense[j].second);
      gap.b = std::max(dense[i].second, dense[j].second);
      gap.count_a = count[gap.a];
      gap.count_b = count[gap.b];
      gap.observed = obs;
      gap.expected = expected;
      g.sparse_pairs.push_back(gap);
    }
  std::sort(g.sparse_pairs.begin(), g.sparse_pairs.end(), [](const auto& x, const auto& y) {
    const double dx = x.expected - x.observed, dy = y.expected - y.observed;
    if (dx != dy) return dx > dy;
    return std::make_pair(x.a, x.b) < std::make_pair(y.a, y.b);
  });
  return g;
}

namespace {

// Names and keywords: words of a normalized form.
std::vector<std::string> SplitWords(const std::string& s) {
  std::vector<std::string> w;
  for (size_t at = 0; at < s.size();) {
    size_t sp = s.find(' ', at);
    if (sp == std::string::npos) sp = s.size();
    if (sp > at) w.push_back(s.substr(at, sp - at));
    at = sp + 1;
  }
  return w;
}

// A word's singular form, crudely: "studies" -> "study", "networks" ->
// "network"; "analysis", "class" and short words kept.
std::string Singular(const std::string& w) {
  if (w.size() > 4 && w.ends_with("ies")) return w.substr(0, w.size() - 3) + "y";
  if (w.size() > 3 && w.ends_with("s") && !w.ends_with("ss") && !w.ends_with("is") &&
      !w.ends_with("us"))
    return w.substr(0, w.size() - 1);
  return w;
}

}  // namespace

std::vector<DuplicatePair> DuplicateTitles(const std::vector<std::string>& titles,
                                           double threshold) {
  const uint32_t n = static_cast<uint32_t>(titles.size());
  // What the score compares (text.h TitleMatchScore): the title key, and the
  // letters-only words, here as sorted distinct word ids.
  std::vector<std::string> key(n), joined(n);
  std::vector<std::vector<uint32_t>> words(n);
  std::unordered_map<std::string, uint32_t> word_id;
  std::vector<uint32_t> df;
  for (uint32_t p = 0; p < n; ++p) {
    key[p] = NormalizeTitleKey(titles[p]);
    joined[p] = NormalizeTitleWords(titles[p]);
    for (const std::string& w : SplitWords(joined[p])) {
      auto [it, added] = word_id.emplace(w, static_cast<uint32_t>(word_id.size()));
      words[p].push_back(it->second);
    }
    std::sort(words[p].begin(), words[p].end());
    words[p].erase(std::unique(words[p].begin(), words[p].end()), words[p].end());
    df.resize(word_id.size(), 0);
    for (uint32_t w : words[p]) ++df[w];
  }
  // Blocks: each paper goes into the blocks of its two rarest words and of
  // its title key (equal keys score 1); two titles that score >= 0.88
  // nearly always share one of them.
  std::unordered_map<uint64_t, std::vector<uint32_t>> block;
  std::unordered_map<std::string, std::vector<uint32_t>> same_key;
  for (uint32_t p = 0; p < n; ++p) {
    std::vector<std::pair<uint32_t, uint32_t>> r;  // df, word
    for (uint32_t w : words[p]) r.emplace_back(df[w], w);
    std::sort(r.begin(), r.end());
    for (size_t i = 0; i < r.size() && i < 2; ++i) block[r[i].second].push_back(p);
    if (!key[p].empty()) same_key[key[p]].push_back(p);
  }
  std::vector<std::pair<uint32_t, uint32_t>> candidates;
  auto pairs_of = [&](const std::vector<uint32_t>& ps) {
    if (ps.size() > 500) return;  // a word that common is nobody's rarest in practice
    for (size_t i = 0; i < ps.size(); ++i)
      for (size_t j = i + 1; j < ps.size(); ++j)
        candidates.emplace_back(std::min(ps[i], ps[j]), std::max(ps[i], ps[j]));
  };
  for (auto& [w, ps] : block) pairs_of(ps);
  for (auto& [k, ps] : same_key) pairs_of(ps);
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  std::vector<DuplicatePair> out;
  for (auto [a, b] : candidates) {
    if (titles[a].empty() || titles[b].empty()) continue;
    if (key[a].empty() || key[a] != key[b]) {
      // score = 0.65 seq + 0.35 jaccard with seq <= 2 min(|a|, |b|) / (|a| + |b|):
      // most pairs are ruled out by this bound before the LCS.
      if (joined[a].empty() || joined[b].empty()) continue;
      size_t inter = 0;
      for (size_t i = 0, j = 0; i < words[a].size() && j < words[b].size();) {
        if (words[a][i] == words[b][j])
          ++inter, ++i, ++j;
        else if (words[a][i] < words[b][j])
          ++i;
        else
          ++j;
      }
      const double jaccard = static_cast<double>(inter) /
                             static_cast<double>(words[a].size() + words[b].size() - inter);
      const double la = static_cast<double>(joined[a].size()),
                   lb = static_cast<double>(joined[b].size());
      if (0.65 * 2 * std::min(la, lb) / (la + lb) + 0.35 * jaccard < threshold - 1e-9) continue;
    }
    const double score = TitleMatchScore(titles[a], titles[b]);
    if (score >= threshold) out.push_back({a, b, score, "title"});
  }
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
    if (x.score != y.score) return x.score > y.score;
    return std::make_pair(x.a, x.b) < std::make_pair(y.a, y.b);
  });
  return out;
}

std::vector<DuplicatePair> DuplicateNames(
    const std::vector<std::pair<uint32_t, std::string>>& names) {
  // Grouped by surname (the last word of the normalized name).
  struct Name {
    uint32_t id;
    std::string key;
    std::vector<std::string> given;
  };
  std::map<std::string, std::vector<Name>> by_surname;
  for (const auto& [id, name] : names) {
    std::string key = NormalizeName(name);
    std::vector<std::string> w = SplitWords(key);
    if (w.empty()) continue;
    std::string surname = w.back();
    w.pop_back();
    by_surname[surname].push_back({id, key, w});
  }
  // Given names compatible: the same number of words, each equal or one an
  // initial of the other (its first letter, a one-letter word).
  auto compatible = [](const std::vector<std::string>& a, const std::vector<std::string>& b) {
    if (a.size() != b.size() || a.empty()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i] == b[i]) continue;
      const bool ia = a[i].size() == 1, ib = b[i].size() == 1;
      if ((ia || ib) && a[i][0] == b[i][0]) continue;
      return false;
    }
    return true;
  };
  std::vector<DuplicatePair> out;
  for (auto& [surname, group] : by_surname) {
    if (group.size() > 2000) continue;
    for (size_t i = 0; i < group.size(); ++i)
      for (size_t j = i + 1; j < group.size(); ++j) {
        const Name &x = group[i], &y = group[j];
        if (x.id == y.id) continue;
        if (x.key == y.key)
          out.push_back({std::min(x.id, y.id), std::max(x.id, y.id), 1.0, "same_name"});
        else if (compatible(x.given, y.given))
          out.push_back({std::min(x.id, y.id), std::max(x.id, y.id), 0.9, "initials"});
      }
  }
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
    if (x.score != y.score) return x.score > y.score;
    return std::make_pair(x.a, x.b) < std::make_pair(y.a, y.b);
  });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const auto& x, const auto& y) { return x.a == y.a && x.b == y.b; }),
            out.end());
  return out;
}

std::vector<DuplicatePair> DuplicateKeywords(
    const std::vector<std::pair<uint32_t, std::string>>& keywords) {
  std::unordered_map<std::string, std::vector<std::pair<uint32_t, std::string>>> by_key;
  for (const auto& [id, text] : keywords) {
    std::string key;
    for (const auto& w : Words(text)) {
      if (!key.empty()) key += ' ';
      key += Singular(w);
    }
    if (!key.empty()) by_key[key].emplace_back(id, text);
  }
  std::vector<DuplicatePair> out;
  for (auto& [key, group] : by_key)
    for (size_t i = 0; i < group.size(); ++i)
      for (size_t j = i + 1; j < group.size(); ++j) {
        if (group[i].first == group[j].first) continue;
        const bool same = NormalizeName(group[i].second) == NormalizeName(group[j].second);
        out.push_back({std::min(group[i].first, group[j].first),
                       std::max(group[i].first, group[j].first), same ? 1.0 : 0.9,
                       same ? "same_name" : "plural"});
      }
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
    if (x.score != y.score) return x.score > y.score;
    return std::make_pair(x.a, x.b) < std::make_pair(y.a, y.b);
  });
  return out;
}

}  // namespace litgraph
