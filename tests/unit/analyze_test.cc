// Tests of analyze.h: each analysis against a brute-force reading of its
// definition on small random graphs (lineage depth by enumerating every
// chain, participation from per-neighbour maps, PageRank by a dense power
// iteration, gaps by counting every pair, duplicate titles by scoring every
// pair, betweenness from all-pairs path counts), hand-checked graphs (a
// cycle, two cliques and a bridge, a path), community detection on planted
// partitions, and the loader on a real store.
#include "litgraph/analyze.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "litgraph/text.h"
#include "store_fixture.h"
#include "test_util.h"

namespace litgraph {
namespace {

using Edges = std::vector<std::pair<uint32_t, uint32_t>>;

// Random citations between n papers; `dag`: only a later index cites an
// earlier one.
Edges RandomEdges(std::mt19937& rng, uint32_t n, uint32_t m, bool dag) {
  Edges e;
  for (uint32_t i = 0; i < m; ++i) {
    uint32_t a = rng() % n, b = rng() % n;
    if (a == b) continue;
    if (dag && a < b) std::swap(a, b);
    e.emplace_back(a, b);
  }
  return e;
}

// The longest chain p <- c1 <- c2 ... by trying every simple path.
uint32_t BruteDepth(uint32_t n, const Edges& edges, uint32_t p) {
  std::vector<std::set<uint32_t>> citers(n);
  for (auto [a, b] : edges)
    if (a != b) citers[b].insert(a);
  std::vector<char> on(n, 0);
  std::function<uint32_t(uint32_t)> go = [&](uint32_t x) {
    on[x] = 1;
    uint32_t best = 0;
    for (uint32_t c : citers[x])
      if (!on[c]) best = std::max(best, 1 + go(c));
    on[x] = 0;
    return best;
  };
  return go(p);
}

TEST(AnalyzeLineage, MatchesBruteForceOnRandomDags) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    const uint32_t n = 1 + rng() % 12;
    const Edges edges = RandomEdges(rng, n, rng() % (3 * n + 1), true);
    const PaperSet s = PaperSet::FromEdges(n, edges);
    const std::vector<LineageDepth> d = ComputeLineageDepths(s);
    for (uint32_t p = 0; p < n; ++p) {
      ASSERT_EQ(d[p].depth, BruteDepth(n, edges, p)) << "round " << round << " paper " << p;
      // The chain is real: each step cites the previous, and it has depth + 1 papers.
      std::vector<uint32_t> chain = LineageChain(d, p);
      ASSERT_EQ(chain.size(), d[p].depth + 1u);
      for (size_t i = 1; i < chain.size(); ++i) {
        auto refs = s.Refs(chain[i]);
        EXPECT_TRUE(std::find(refs.begin(), refs.end(), chain[i - 1]) != refs.end());
      }
    }
  }
}

// 0 <- 1 <- 2 <- 3, and 3 <-> 4 cite each other (a cycle), 5 <- 4; 6 alone.
// Condensed: {3,4} is one step, so depth(0) = 0->1->2->{3,4}->5 = 4 steps.
TEST(AnalyzeLineage, HandCheckedWithCycle) {
  const Edges edges = {{1, 0}, {2, 1}, {3, 2}, {4, 3}, {3, 4}, {5, 4}};
  const PaperSet s = PaperSet::FromEdges(7, edges);
  const std::vector<LineageDepth> d = ComputeLineageDepths(s);
  EXPECT_EQ(d[0].depth, 4u);
  EXPECT_EQ(d[1].depth, 3u);
  EXPECT_EQ(d[2].depth, 2u);
  EXPECT_EQ(d[3].depth, 1u);
  EXPECT_EQ(d[4].depth, 1u);
  EXPECT_EQ(d[5].depth, 0u);
  EXPECT_EQ(d[6].depth, 0u);
  EXPECT_EQ(LineageChain(d, 0), (std::vector<uint32_t>{0, 1, 2, 3, 5}));
  // A long chain does not overflow anything (the SCC search is iterative).
  Edges chain;
  for (uint32_t i = 1; i < 200000; ++i) chain.emplace_back(i, i - 1);
  const PaperSet long_chain = PaperSet::FromEdges(200000, chain);
  EXPECT_EQ(ComputeLineageDepths(long_chain)[0].depth, 199999u);
}

TEST(AnalyzeBridges, ParticipationMatchesDefinition) {
  std::mt19937 rng(11);
  for (int round = 0; round < 100; ++round) {
    const uint32_t n = 2 + rng() % 30;
    const Edges edges = RandomEdges(rng, n, rng() % (4 * n), false);
    std::vector<int32_t> topics(n);
    for (auto& t : topics) t = static_cast<int32_t>(rng() % 4) - 1;  // -1 = none
    const PaperSet s = PaperSet::FromEdges(n, edges, {}, topics);
    const std::vector<Participation> got = ComputeParticipation(s, s.topic);
    std::set<std::pair<uint32_t, uint32_t>> uniq;
    for (auto [a, b] : edges)
      if (a != b) uniq.emplace(a, b);
    for (uint32_t p = 0; p < n; ++p) {
      std::map<std::string, int> per;  // community -> neighbours in it
      int k = 0;
      for (auto [a, b] : uniq) {
        uint32_t q;
        if (a == p)
          q = b;
        else if (b == p)
          q = a;
        else
          continue;
        ++k;
        ++per[topics[q] >= 0 ? "t" + std::to_string(topics[q]) : "p" + std::to_string(q)];
      }
      double want = 0;
      if (k > 0) {
        want = 1;
        for (auto& [c, kc] : per) want -= (double(kc) / k) * (double(kc) / k);
      }
      EXPECT_NEAR(got[p].coefficient, want, 1e-12) << "round " << round << " paper " << p;
      EXPECT_EQ(got[p].degree, static_cast<uint32_t>(k));
      EXPECT_EQ(got[p].communities, per.size());
    }
  }
}

// Two 6-cliques {0..5} and {6..11} (each pair cites once) joined by 6 -> 5,
// and a paper 12 citing 1, 2, 7 and 8: label propagation finds the cliques;
// 12 and the ends of the bridge are the bridges.
TEST(AnalyzeBridges, TwoCliques) {
  Edges edges;
  for (uint32_t base : {0u, 6u})
    for (uint32_t i = 0; i < 6; ++i)
      for (uint32_t j = 0; j < i; ++j) edges.emplace_back(base + i, base + j);
  edges.emplace_back(6, 5);
  for (uint32_t r : {1u, 2u, 7u, 8u}) edges.emplace_back(12, r);
  const PaperSet s = PaperSet::FromEdges(13, edges);
  for (uint64_t seed : {1, 2, 3}) {
    const std::vector<int32_t> c = LabelPropagation(s, 50, seed);
    EXPECT_EQ(LabelPropagation(s, 50, seed), c);  // seeded
    for (uint32_t i = 1; i < 6; ++i) EXPECT_EQ(c[i], c[0]) << "seed " << seed;
    for (uint32_t i = 7; i < 12; ++i) EXPECT_EQ(c[i], c[6]) << "seed " << seed;
    EXPECT_NE(c[0], c[6]) << "seed " << seed;
    const std::vector<Participation> p = ComputeParticipation(s, c);
    EXPECT_NEAR(p[0].coefficient, 0.0, 1e-12);                    // every neighbour in its clique
    EXPECT_NEAR(p[12].coefficient, 0.5, 1e-12);                   // 2 and 2
    EXPECT_NEAR(p[5].coefficient, 1 - (25.0 + 1.0) / 36, 1e-12);  // 5 of 6 in one
    EXPECT_EQ(p[5].communities, 2u);
  }
}

// Betweenness by its definition: all-pairs BFS distances and path counts,
// and for every unordered pair {s, t} and every other v on a shortest path
// (d(s,v) + d(v,t) = d(s,t)) the share sigma_sv sigma_vt / sigma_st.
std::vector<double> BruteBetweenness(uint32_t n, const Edges& edges) {
  std::vector<std::set<uint32_t>> adj(n);
  for (auto [a, b] : edges)
    if (a != b) {
      adj[a].insert(b);
      adj[b].insert(a);
    }
  std::vector<std::vector<int>> d(n, std::vector<int>(n, -1));
  std::vector<std::vector<double>> sigma(n, std::vector<double>(n, 0));
  for (uint32_t s = 0; s < n; ++s) {
    std::vector<uint32_t> q = {s};
    d[s][s] = 0;
    sigma[s][s] = 1;
    for (size_t h = 0; h < q.size(); ++h)
      for (uint32_t w : adj[q[h]]) {
        if (d[s][w] < 0) {
          d[s][w] = d[s][q[h]] + 1;
          q.push_back(w);
        }
        if (d[s][w] == d[s][q[h]] + 1) sigma[s][w] += sigma[s][q[h]];
      }
  }
  std::vector<double> b(n, 0);
  for (uint32_t s = 0; s < n; ++s)
    for (uint32_t t = s + 1; t < n; ++t) {
      if (d[s][t] < 0) continue;
      for (uint32_t v = 0; v < n; ++v)
        if (v != s && v != t && d[s][v] >= 0 && d[v][t] >= 0 && d[s][v] + d[v][t] == d[s][t])
          b[v] += sigma[s][v] * sigma[v][t] / sigma[s][t];
    }
  return b;
}

TEST(AnalyzeBetweenness, ExactMatchesBruteForceOnRandomGraphs) {
  std::mt19937 rng(17);
  for (int round = 0; round < 30; ++round) {
    const uint32_t n = 2 + rng() % 40;
    const Edges edges = RandomEdges(rng, n, rng() % (3 * n), false);
    const PaperSet s = PaperSet::FromEdges(n, edges);
    const std::vector<double> want = BruteBetweenness(n, edges);
    const Betweenness got = ComputeBetweenness(CitationGraph(s), n);
    EXPECT_TRUE(got.exact);
    EXPECT_EQ(got.sources, n);
    for (uint32_t v = 0; v < n; ++v) {
      EXPECT_NEAR(got.value[v], want[v], 1e-9 * (1 + want[v])) << "round " << round << " v " << v;
      if (n >= 3) EXPECT_NEAR(got.normalized[v], want[v] / ((n - 1.0) * (n - 2.0) / 2), 1e-9);
    }
    // Sampling with k >= n is the exact computation, whatever the seed.
    const Betweenness more = ComputeBetweenness(CitationGraph(s), n + 5, 99);
    EXPECT_EQ(more.value, got.value);
  }
}

TEST(AnalyzeBetweenness, SampledIsSeededAndEstimatesExact) {
  std::mt19937 rng(3);
  const uint32_t n = 400;
  const PaperSet s = PaperSet::FromEdges(n, RandomEdges(rng, n, 1600, false));
  const UndirectedGraph g = CitationGraph(s);
  const Betweenness exact = ComputeBetweenness(g, n);
  const Betweenness a = ComputeBetweenness(g, 200, 5);
  EXPECT_FALSE(a.exact);
  EXPECT_EQ(a.sources, 200u);
  EXPECT_EQ(ComputeBetweenness(g, 200, 5).value, a.value);  // seeded
  EXPECT_NE(ComputeBetweenness(g, 200, 6).value, a.value);
  // Unbiased: the totals agree closely, and the top paper is found.
  double sum_exact = 0, sum_a = 0;
  for (uint32_t v = 0; v < n; ++v) {
    sum_exact += exact.value[v];
    sum_a += a.value[v];
  }
  EXPECT_NEAR(sum_a / sum_exact, 1.0, 0.1);
  const uint32_t top = static_cast<uint32_t>(
      std::max_element(exact.value.begin(), exact.value.end()) - exact.value.begin());
  EXPECT_NEAR(a.value[top] / exact.value[top], 1.0, 0.35);
}

// A path 0 - 1 - 2 - 3 - 4 by hand: 2 lies on the paths of {0,3} {0,4} {1,3}
// {1,4}, 1 on those of 0 with 2, 3, 4.
TEST(AnalyzeBetweenness, HandCheckedPath) {
  const PaperSet s = PaperSet::FromEdges(5, {{1, 0}, {2, 1}, {3, 2}, {4, 3}});
  const Betweenness b = ComputeBetweenness(CitationGraph(s), 5);
  EXPECT_EQ(b.value, (std::vector<double>{0, 3, 4, 3, 0}));
  EXPECT_DOUBLE_EQ(b.normalized[2], 4.0 / 6);
}

// Planted partitions: four groups of 40 papers, citations within a group
// with probability 0.25 and across with 0.005; keywords drawn from the
// group's own ten with probability 0.9. Both label propagations recover
// the groups (purity: each found community's papers mostly of one group),
// and a seed gives the same labels every time.
TEST(AnalyzeCommunities, PlantedPartitionsAndSeeds) {
  std::mt19937 rng(23);
  const uint32_t groups = 4, size = 40, n = groups * size;
  Edges edges;
  std::vector<std::vector<uint32_t>> keywords(n);
  std::uniform_real_distribution<double> u(0, 1);
  for (uint32_t a = 0; a < n; ++a) {
    for (uint32_t b = 0; b < a; ++b)
      if (u(rng) < (a / size == b / size ? 0.25 : 0.005)) edges.emplace_back(a, b);
    for (int k = 0; k < 4; ++k)
      keywords[a].push_back(u(rng) < 0.9 ? (a / size) * 10 + rng() % 10 : 1000 + rng() % 40);
  }
  const PaperSet s = PaperSet::FromEdges(n, edges, keywords);
  auto purity = [&](const std::vector<int32_t>& c) {
    std::map<int32_t, std::map<uint32_t, uint32_t>> by;  // community -> group -> papers
    for (uint32_t p = 0; p < n; ++p)
      if (c[p] >= 0) ++by[c[p]][p / size];
    uint32_t right = 0;
    for (auto& [comm, g] : by) {
      uint32_t top = 0;
      for (auto [grp, k] : g) top = std::max(top, k);
      right += top;
    }
    return static_cast<double>(right) / n;
  };
  for (uint64_t seed : {1, 2, 3}) {
    const std::vector<int32_t> cit = LabelPropagation(s, 50, seed);
    const std::vector<int32_t> kw = KeywordCommunities(s, 50, seed);
    EXPECT_EQ(LabelPropagation(s, 50, seed), cit);
    EXPECT_EQ(KeywordCommunities(s, 50, seed), kw);
    EXPECT_GE(purity(cit), 0.95) << "seed " << seed;
    EXPECT_GE(purity(kw), 0.9) << "seed " << seed;
    // Not one giant community: at least the four groups' worth.
    EXPECT_GE(*std::max_element(cit.begin(), cit.end()) + 1, 4) << "seed " << seed;
    EXPECT_GE(*std::max_element(kw.begin(), kw.end()) + 1, 4) << "seed " << seed;
  }
  // A paper without keywords has no keyword community.
  std::vector<std::vector<uint32_t>> some = {{1, 2}, {}, {2, 3}};
  const std::vector<int32_t> c = KeywordCommunities(PaperSet::FromEdges(3, {}, some));
  EXPECT_EQ(c[1], -1);
  EXPECT_EQ(c[0], c[2]);  // linked through keyword 2
}

TEST(AnalyzeInfluence, PageRankAndKeywordsMatchDenseComputation) {
  std::mt19937 rng(5);
  for (int round = 0; round < 20; ++round) {
    const uint32_t n = 2 + rng() % 25;
    const Edges edges = RandomEdges(rng, n, 3 * n, false);
    std::vector<std::vector<uint32_t>> kws(n);
    for (auto& k : kws)
      for (int i = rng() % 3; i > 0; --i) k.push_back(100 + rng() % 5);
    const PaperSet s = PaperSet::FromEdges(n, edges, kws);
    const Influence inf = ComputeInfluence(s, 0.85, 1e-13);
    std::set<std::pair<uint32_t, uint32_t>> uniq;
    for (auto [a, b] : edges)
      if (a != b) uniq.emplace(a, b);
    std::vector<int> out(n, 0);
    for (auto [a, b] : uniq) ++out[a];
    std::vector<double> x(n, 1.0 / n), y(n);
    for (int it = 0; it < 3000; ++it) {
      double dangling = 0;
      for (uint32_t u = 0; u < n; ++u)
        if (!out[u]) dangling += x[u];
      for (uint32_t v = 0; v < n; ++v) y[v] = (1 - 0.85) / n + 0.85 * dangling / n;
      for (auto [a, b] : uniq) y[b] += 0.85 * x[a] / out[a];
      x.swap(y);
    }
    for (uint32_t v = 0; v < n; ++v) EXPECT_NEAR(inf.pagerank[v], x[v], 1e-10);
    std::map<uint32_t, double> sum;
    std::map<uint32_t, uint32_t> papers;
    for (uint32_t p = 0; p < n; ++p) {
      std::set<uint32_t> mine(kws[p].begin(), kws[p].end());
      for (uint32_t k : mine) sum[k] += x[p], ++papers[k];
    }
    ASSERT_EQ(inf.keywords.size(), sum.size());
    for (size_t i = 0; i < inf.keywords.size(); ++i) {
      EXPECT_NEAR(inf.keywords[i].score, sum[inf.keywords[i].keyword], 1e-10);
      EXPECT_EQ(inf.keywords[i].papers, papers[inf.keywords[i].keyword]);
      if (i) {
        EXPECT_GE(inf.keywords[i - 1].score, inf.keywords[i].score);
      }
    }
  }
}

TEST(AnalyzeGaps, MatchesCountingEveryPair) {
  std::mt19937 rng(13);
  for (int round = 0; round < 100; ++round) {
    const uint32_t n = 5 + rng() % 40;
    const Edges edges = RandomEdges(rng, n, rng() % n, false);
    std::vector<std::vector<uint32_t>> kws(n);
    for (auto& k : kws)
      for (int i = rng() % 4; i > 0; --i) k.push_back(rng() % 12);
    const PaperSet s = PaperSet::FromEdges(n, edges, kws);
    GapOptions o;
    o.top = 6;
    o.min_count = 3;
    o.sparse_ratio = 0.5;
    o.min_expected = 1.0;
    const Gaps g = ComputeGaps(s, o);
    // Detached: no edge at all.
    std::vector<uint32_t> detached;
    for (uint32_t p = 0; p < n; ++p) {
      bool any = false;
      for (auto [a, b] : edges) any |= a != b && (a == p || b == p);
      if (!any) detached.push_back(p);
    }
    EXPECT_EQ(g.detached, detached);
    std::map<uint32_t, std::set<uint32_t>> papers_of;
    for (uint32_t p = 0; p < n; ++p)
      for (uint32_t k : kws[p]) papers_of[k].insert(p);
    std::vector<std::pair<uint32_t, uint32_t>> single;
    for (auto& [k, ps] : papers_of)
      if (ps.size() == 1) single.emplace_back(k, *ps.begin());
    EXPECT_EQ(g.single_use, single);
    // Dense: the 6 most used (ties: smaller id) with >= 3 papers.
    std::vector<std::pair<int, uint32_t>> by;  // -count, id
    for (auto& [k, ps] : papers_of)
      if (ps.size() >= 3) by.emplace_back(-static_cast<int>(ps.size()), k);
    std::sort(by.begin(), by.end());
    if (by.size() > 6) by.resize(6);
    std::set<std::pair<uint32_t, uint32_t>> want;
    for (size_t i = 0; i < by.size(); ++i)
      for (size_t j = i + 1; j < by.size(); ++j) {
        const uint32_t a = std::min(by[i].second, by[j].second),
                       b = std::max(by[i].second, by[j].second);
        size_t both = 0;
        for (uint32_t p : papers_of[a]) both += papers_of[b].count(p);
        const double expected = double(papers_of[a].size()) * papers_of[b].size() / n;
        if (expected >= 1.0 && both <= 0.5 * expected) want.emplace(a, b);
        for (const auto& x : g.sparse_pairs)
          if (x.a == a && x.b == b) {
            EXPECT_EQ(x.observed, both);
            EXPECT_NEAR(x.expected, expected, 1e-12);
          }
      }
    std::set<std::pair<uint32_t, uint32_t>> got;
    for (const auto& x : g.sparse_pairs) got.emplace(x.a, x.b);
    EXPECT_EQ(got, want) << "round " << round;
  }
}

TEST(AnalyzeDuplicates, TitlesMatchEveryPairScored) {
  const std::vector<std::string> base = {
      "Graph neural networks for molecular property prediction",
      "A survey of open access citation advantage",
      "Global vectors for word representation",
      "Deep residual learning for image recognition",
      "The state of open access: a large-scale analysis",
      "Attention is all you need",
      "Random walks with restart on heterogeneous graphs",
      "Disruption in science and technology",
  };
  std::mt19937 rng(17);
  std::vector<std::string> titles;
  for (int i = 0; i < 60; ++i) {
    std::string t = base[rng() % base.size()];
    switch (rng() % 4) {
      case 0:
        break;  // exact copy
      case 1:
        t += "s";  // a plural
        break;
      case 2:
        t[rng() % t.size()] = 'x';  // a typo
        break;
      default:
        t = "Unrelated title number " + std::to_string(i) + " about topic " + std::to_string(i * 7);
    }
    titles.push_back(t);
  }
  const std::vector<DuplicatePair> got = DuplicateTitles(titles, 0.9);
  std::set<std::pair<uint32_t, uint32_t>> want, found;
  for (uint32_t a = 0; a < titles.size(); ++a)
    for (uint32_t b = a + 1; b < titles.size(); ++b)
      if (TitleMatchScore(titles[a], titles[b]) >= 0.9) want.emplace(a, b);
  for (const auto& x : got) {
    found.emplace(x.a, x.b);
    EXPECT_NEAR(x.score, TitleMatchScore(titles[x.a], titles[x.b]), 1e-12);
  }
  EXPECT_FALSE(want.empty());
  EXPECT_EQ(found, want);
}

TEST(AnalyzeDuplicates, AuthorsAndKeywords) {
  const auto people = DuplicateNames({{1, "John Smith"},
                                      {2, "J. Smith"},
                                      {3, "Jane Smith"},
                                      {4, "John  Smith"},
                                      {5, "Jan Hajič"},
                                      {6, "Jan Hajic"},
                                      {7, "Peter Jones"}});
  std::map<std::pair<uint32_t, uint32_t>, std::string> got;
  for (const auto& x : people) got[{x.a, x.b}] = x.reason;
  const std::map<std::pair<uint32_t, uint32_t>, std::string> want = {{{1, 4}, "same_name"},
                                                                     {{5, 6}, "same_name"},
                                                                     {{1, 2}, "initials"},
                                                                     {{2, 3}, "initials"},
                                                                     {{2, 4}, "initials"}};
  EXPECT_EQ(got, want);  // John and Jane Smith are not a candidate
  const auto kws = DuplicateKeywords({{1, "neural network"},
                                      {2, "neural networks"},
                                      {3, "case studies"},
                                      {4, "case study"},
                                      {5, "analysis"},
                                      {6, "analyses"},
                                      {7, "graph"}});
  std::set<std::pair<uint32_t, uint32_t>> kw;
  for (const auto& x : kws) kw.emplace(x.a, x.b);
  EXPECT_EQ(kw, (std::set<std::pair<uint32_t, uint32_t>>{{1, 2}, {3, 4}}));
}

// The loader reads the induced subgraph of a real store.
TEST(AnalyzeStore, LoadsTheInducedSubgraph) {
  litgraph::testing::ScopedTempDir tmp;
  std::string lines;
  // A <- B <- C, D cites A and X; X is outside the set.
  const char* rows[][3] = {{"A", "2000", ""},
                           {"B", "2001", "A"},
                           {"C", "2002", "B"},
                           {"D", "2003", "A X"},
                           {"X", "1999", ""}};
  for (auto& r : rows) {
    nlohmann::json j = {
        {"id", r[0]}, {"title", std::string("Paper ") + r[0]}, {"year", std::stoi(r[1])}};
    std::vector<std::string> refs;
    for (auto& w : Words(r[2])) refs.push_back(std::string(1, static_cast<char>(w[0] - 32)));
    j["references"] = refs;
    lines += j.dump() + "\n";
  }
  std::unique_ptr<Store> store;
  std::unique_ptr<Graph> graph;
  ASSERT_NO_FATAL_FAILURE(litgraph::testing::IngestStore(tmp, lines, &store, &graph));
  auto id = [&](const char* e) { return static_cast<uint32_t>(*store->PaperByExtId(e)); };
  auto set = LoadPaperSet(*graph, {id("D"), id("C"), id("B"), id("A"), id("A")});
  ASSERT_TRUE(set.ok()) << set.status().message();
  ASSERT_EQ(set->size(), 4u);
  EXPECT_EQ(set->refs.size(), 3u);  // B->A, C->B, D->A (D->X is outside)
  std::map<uint32_t, uint32_t> local;
  for (uint32_t i = 0; i < set->size(); ++i) local[set->papers[i]] = i;
  const auto d = ComputeLineageDepths(*set);
  EXPECT_EQ(d[local[id("A")]].depth, 2u);
  EXPECT_EQ(set->years[local[id("C")]], 2002);
  EXPECT_EQ(AllPapers(*graph).size(), 5u);
  EXPECT_EQ(ComputeGaps(*set).detached.size(), 0u);
}

}  // namespace
}  // namespace litgraph
