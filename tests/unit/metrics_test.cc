// Tests of metrics.h: the CD index on a hand-checked graph and against a
// brute-force reading of its definition on random graphs (every count, with
// and without a window, the undefined cases), PageRank against a dense power
// iteration, percentiles, the novelty z-score arithmetic on a tiny network
// and the randomization's invariants, and the derived file's round trip on a
// real store.
#include "litgraph/metrics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/store.h"
#include "store_fixture.h"
#include "test_util.h"

namespace litgraph {
namespace {

using Edges = std::vector<std::pair<uint32_t, uint32_t>>;

// The definition read literally: sets of papers, no marks, no sorted lists.
Disruption BruteForce(uint32_t n, const std::vector<uint16_t>& years, const Edges& edges,
                      uint32_t f, int window) {
  std::vector<std::set<uint32_t>> refs(n);
  for (auto [a, b] : edges)
    if (a != b) refs[a].insert(b);
  Disruption d;
  const int fy = years[f];
  if (window > 0 && fy == 0) {
    d.undefined = CdUndefined::kNoYear;
    return d;
  }
  for (uint32_t c = 0; c < n; ++c) {
    if (c == f) continue;
    const int cy = years[c];
    bool counted =
        window > 0 ? (cy != 0 && cy >= fy && cy - fy <= window) : (fy == 0 || cy == 0 || cy >= fy);
    if (!counted) continue;
    const bool cites_f = refs[c].count(f) > 0;
    bool cites_ref = false;
    for (uint32_t r : refs[f])
      if (refs[c].count(r)) cites_ref = true;
    if (cites_f && !cites_ref) ++d.n_i;
    if (cites_f && cites_ref) ++d.n_j;
    if (!cites_f && cites_ref) ++d.n_k;
  }
  if (refs[f].empty())
    d.undefined = CdUndefined::kNoReferences;
  else if (d.n_i + d.n_j + d.n_k == 0)
    d.undefined = CdUndefined::kNoCitations;
  return d;
}

// The hand-checked graph. F (2005) cites R1 and R2 (2000).
//   A 2006 cites F            n_i in both
//   B 2007 cites F, R1        n_j in both
//   C 2008 cites R2           n_k in both
//   D 2012 cites F            n_i unbounded only (7 years after F)
//   E 2003 cites R1           older than F: never counted
//   G 2009 cites R1, R2       n_k (once) in both
//   H ---- cites F            unknown year: n_i unbounded only
//   I 2011 cites F, R2        n_j unbounded only
//   J 2010 cites F            n_i in both (5 years after F: in the window)
// CD_5: n_i 2 (A J), n_j 1 (B), n_k 2 (C G): (2 - 1) / 5 = 0.2, no n_k 1/3.
// Unbounded: n_i 4 (A D H J), n_j 2 (B I), n_k 2: 2 / 8 = 0.25, no n_k 1/3.
enum : uint32_t { R1, R2, F, A, B, C, D, E, G, H, I, J, kN };
const std::vector<uint16_t> kYears = {2000, 2000, 2005, 2006, 2007, 2008,
                                      2012, 2003, 2009, 0,    2011, 2010};
const Edges kEdges = {{F, R1}, {F, R2}, {A, F},  {B, F}, {B, R1}, {C, R2}, {D, F},
                      {E, R1}, {G, R1}, {G, R2}, {H, F}, {I, F},  {I, R2}, {J, F}};

Disruption Cd(const CitationCsr& g, uint32_t f, int window) {
  std::vector<uint32_t> mark(g.num_papers(), 0);
  return ComputeDisruption(g, f, window, &mark, f + 1);
}

TEST(MetricsDisruption, HandCheckedGraph) {
  const CitationCsr g = CitationCsr::FromEdges(kYears, kEdges);
  Disruption w5 = Cd(g, F, 5);
  EXPECT_EQ(w5.n_i, 2u);
  EXPECT_EQ(w5.n_j, 1u);
  EXPECT_EQ(w5.n_k, 2u);
  EXPECT_DOUBLE_EQ(*w5.Cd(), 0.2);
  EXPECT_DOUBLE_EQ(*w5.CdNoNk(), 1.0 / 3);
  Disruption all = Cd(g, F, 0);
  EXPECT_EQ(all.n_i, 4u);
  EXPECT_EQ(all.n_j, 2u);
  EXPECT_EQ(all.n_k, 2u);
  EXPECT_DOUBLE_EQ(*all.Cd(), 0.25);
  EXPECT_DOUBLE_EQ(*all.CdNoNk(), 1.0 / 3);
  // A window of 1 year: A (n_i); B is 2 years after F.
  Disruption w1 = Cd(g, F, 1);
  EXPECT_EQ(w1.n_i, 1u);
  EXPECT_EQ(w1.n_j + w1.n_k, 0u);
  EXPECT_DOUBLE_EQ(*w1.Cd(), 1.0);
}

TEST(MetricsDisruption, UndefinedCases) {
  const CitationCsr g = CitationCsr::FromEdges(kYears, kEdges);
  // R1 has no references: null, but its citing papers in the window (F
  // 2005, E 2003) still count as n_i.
  Disruption r1 = Cd(g, R1, 5);
  EXPECT_EQ(r1.undefined, CdUndefined::kNoReferences);
  EXPECT_EQ(r1.n_i, 2u);
  EXPECT_FALSE(r1.Cd().has_value());
  EXPECT_FALSE(r1.CdNoNk().has_value());
  EXPECT_STREQ(CdUndefinedName(r1.CdNoNkUndefined()), "no_references");
  // A cites F and nothing cites A: CD 0 from n_k (B, I, J cite F within
  // [2006, 2011]), the variant undefined.
  Disruption a = Cd(g, A, 5);
  EXPECT_EQ(a.n_k, 3u);
  EXPECT_EQ(a.n_i + a.n_j, 0u);
  EXPECT_DOUBLE_EQ(*a.Cd(), 0.0);
  EXPECT_FALSE(a.CdNoNk().has_value());
  EXPECT_EQ(a.CdNoNkUndefined(), CdUndefined::kNoCitations);
  // D (2012) cites F; nothing later cites F or D.
  Disruption d = Cd(g, D, 5);
  EXPECT_EQ(d.undefined, CdUndefined::kNoCitations);
  EXPECT_STREQ(CdUndefinedName(d.undefined), "no_citations");
  // H has no year: undefined with a window, computed without one.
  EXPECT_EQ(Cd(g, H, 5).undefined, CdUndefined::kNoYear);
  Disruption h = Cd(g, H, 0);
  EXPECT_EQ(h.undefined, CdUndefined::kNone);
  EXPECT_EQ(h.n_k, 5u);  // A B D I J cite F; nothing cites H
}

TEST(MetricsDisruption, MatchesBruteForceOnRandomGraphs) {
  std::mt19937 rng(7);
  for (int round = 0; round < 60; ++round) {
    const uint32_t n = 5 + rng() % 60;
    std::vector<uint16_t> years(n);
    for (auto& y : years) y = rng() % 8 == 0 ? 0 : static_cast<uint16_t>(1990 + rng() % 20);
    Edges edges;
    const int m = static_cast<int>(rng() % (4 * n));
    for (int e = 0; e < m; ++e) {
      uint32_t a = rng() % n, b = rng() % n;
      if (round % 3 != 0 && years[a] && years[b] && years[a] < years[b]) std::swap(a, b);
      edges.emplace_back(a, b);  // self-citations and cycles included
    }
    const CitationCsr g = CitationCsr::FromEdges(years, edges);
    for (int window : {0, 1, 3, 5}) {
      const std::vector<Disruption> all = ComputeDisruptionAll(g, window, 2);
      for (uint32_t f = 0; f < n; ++f) {
        Disruption want = BruteForce(n, years, edges, f, window);
        ASSERT_EQ(all[f], want) << "round " << round << " window " << window << " focal " << f
                                << ": got " << all[f].n_i << "/" << all[f].n_j << "/" << all[f].n_k
                                << " want " << want.n_i << "/" << want.n_j << "/" << want.n_k;
      }
    }
  }
}

TEST(MetricsPageRank, MatchesDensePowerIteration) {
  std::mt19937 rng(3);
  for (int round = 0; round < 10; ++round) {
    const uint32_t n = 3 + rng() % 40;
    Edges edges;
    for (uint32_t e = 0; e < 3 * n; ++e) {
      uint32_t a = rng() % n, b = rng() % n;
      if (a != b) edges.emplace_back(a, b);
    }
    const CitationCsr g = CitationCsr::FromEdges(std::vector<uint16_t>(n, 2000), edges);
    PageRankOptions o;
    o.tolerance = 1e-13;
    o.max_iterations = 1000;
    PageRankResult got = ComputePageRank(g, o, 2);
    // Dense: M[v][u] = 1/out(u) for u -> v; dangling columns 1/n.
    std::set<std::pair<uint32_t, uint32_t>> uniq(edges.begin(), edges.end());
    std::vector<int> out(n, 0);
    for (auto [a, b] : uniq) ++out[a];
    std::vector<std::vector<double>> m(n, std::vector<double>(n, 0));
    for (auto [a, b] : uniq) m[b][a] = 1.0 / out[a];
    for (uint32_t u = 0; u < n; ++u)
      if (out[u] == 0)
        for (uint32_t v = 0; v < n; ++v) m[v][u] = 1.0 / n;
    std::vector<double> x(n, 1.0 / n), y(n);
    for (int it = 0; it < 2000; ++it) {
      for (uint32_t v = 0; v < n; ++v) {
        double s = 0;
        for (uint32_t u = 0; u < n; ++u) s += m[v][u] * x[u];
        y[v] = (1 - o.damping) / n + o.damping * s;
      }
      x.swap(y);
    }
    double sum = 0;
    for (uint32_t v = 0; v < n; ++v) {
      EXPECT_NEAR(got.rank[v], x[v], 1e-10) << "round " << round << " paper " << v;
      sum += got.rank[v];
    }
    EXPECT_NEAR(sum, 1.0, 1e-12);
    EXPECT_LT(got.residual, o.tolerance);
  }
}

TEST(MetricsPercentile, MidRankWithinGroups) {
  // Group 1: counts 0 0 5 9; group 2: one paper.
  std::vector<uint64_t> group = {1, 1, 1, 1, 2};
  std::vector<uint32_t> count = {5, 0, 9, 0, 100};
  std::vector<float> p = GroupPercentiles(group, count);
  EXPECT_FLOAT_EQ(p[1], 100 * (0 + 0.5 * 2) / 4);  // 25
  EXPECT_FLOAT_EQ(p[3], 25);
  EXPECT_FLOAT_EQ(p[0], 100 * (2 + 0.5) / 4);  // 62.5
  EXPECT_FLOAT_EQ(p[2], 100 * (3 + 0.5) / 4);  // 87.5
  EXPECT_FLOAT_EQ(p[4], 50);
}

// Novelty. Papers 0..3 are cited papers in venues 0, 0, 1, 2; papers 4 and
// 5 cite them. Observed: 4 cites {0, 2, 3} (venues 0 1 2: pairs 01 02 12),
// 5 cites {0, 1, 2} (venues 0 0 1: pairs 00 01 01). Counts: 00 1, 01 3,
// 02 1, 12 1. Two "randomized" networks given by hand:
//   X: 4 -> {0, 1, 3} (0 0 2: 00 02 02), 5 -> {0, 2, 3} (0 1 2: 01 02 12)
//   Y: 4 -> {1, 2, 3} (0 1 2: 01 02 12), 5 -> {0, 1, 2} (0 0 1: 00 01 01)
// Pair 00: X 1, Y 1 -> mean 1, sd 0: z undefined (skipped).
// Pair 01: X 1, Y 3 -> mean 2, sd sqrt(2): z = (3 - 2) / sqrt(2).
// Pair 02: X 3, Y 1 -> mean 2, sd sqrt(2): z = (1 - 2) / sqrt(2).
// Pair 12: X 1, Y 1 -> sd 0: undefined.
TEST(MetricsNovelty, ZScoreArithmeticOnATinyNetwork) {
  const std::vector<uint16_t> years(6, 2000);
  const Edges edges = {{4, 0}, {4, 2}, {4, 3}, {5, 0}, {5, 1}, {5, 2}};
  const CitationCsr g = CitationCsr::FromEdges(years, edges);
  const std::vector<int32_t> venue = {0, 0, 1, 2, -1, -1};
  // Reference arrays in CSR order (paper 4's, then 5's).
  const std::vector<std::vector<uint32_t>> randomized = {{0, 1, 3, 0, 2, 3}, {1, 2, 3, 0, 1, 2}};
  std::vector<VenuePairZ> z = VenuePairZScores(g, venue, randomized);
  ASSERT_EQ(z.size(), 4u);
  auto at = [&](int a, int b) {
    for (const auto& p : z)
      if (p.a == a && p.b == b) return p;
    ADD_FAILURE() << "no pair " << a << b;
    return VenuePairZ{};
  };
  EXPECT_EQ(at(0, 0).observed, 1);
  EXPECT_EQ(at(0, 0).sd, 0);
  EXPECT_TRUE(std::isnan(at(0, 0).z));
  EXPECT_EQ(at(0, 1).observed, 3);
  EXPECT_DOUBLE_EQ(at(0, 1).mean, 2);
  EXPECT_DOUBLE_EQ(at(0, 1).sd, std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(at(0, 1).z, 1 / std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(at(0, 2).z, -1 / std::sqrt(2.0));
  EXPECT_TRUE(std::isnan(at(1, 2).z));
  // Venue ids this large make the pair index a hash map instead of a
  // triangular array: the same numbers.
  const std::vector<int32_t> far = {9000, 9000, 9001, 9002, -1, -1};
  std::vector<VenuePairZ> z2 = VenuePairZScores(g, far, randomized);
  ASSERT_EQ(z2.size(), z.size());
  for (size_t i = 0; i < z.size(); ++i) {
    EXPECT_EQ(z2[i].a, z[i].a + 9000);
    EXPECT_EQ(z2[i].b, z[i].b + 9000);
    EXPECT_EQ(z2[i].observed, z[i].observed);
    EXPECT_EQ(z2[i].sd, z[i].sd);
  }
  // Nearest-rank percentiles of a paper's pair values.
  std::vector<float> v = {5, 1, 4, 2, 3};
  EXPECT_EQ(PercentileNearestRank(&v, 0.1), 1);  // ceil(0.5) - 1 = index 0
  EXPECT_EQ(PercentileNearestRank(&v, 0.5), 3);  // ceil(2.5) - 1 = index 2
  std::vector<float> empty;
  EXPECT_TRUE(std::isnan(PercentileNearestRank(&empty, 0.5)));
}

// A random citation graph of n papers in `span` years from 2000 and m
// citations (self-citations dropped by FromEdges); *years gets the years.
CitationCsr RandomGraph(std::mt19937& rng, uint32_t n, int span, int m,
                        std::vector<uint16_t>* years) {
  years->resize(n);
  for (auto& y : *years) y = static_cast<uint16_t>(2000 + rng() % span);
  Edges edges;
  for (int e = 0; e < m; ++e) edges.emplace_back(rng() % n, rng() % n);
  return CitationCsr::FromEdges(*years, edges);
}

// Keyword novelty. Papers 0..2 are cited, with keyword labels {0, 1}, {1},
// {2}; papers 3 and 4 cite them. A label of one reference pairs with each
// label of every other reference, never with another label of its own
// reference. Observed: 3 cites {0, 1}: (0 of paper 0, 1 of paper 1) and
// (1, 1) -- not (0, 1) within paper 0; 4 cites {1, 2}: (1, 2). Counts 01 1,
// 11 1, 12 1. Three networks by hand:
//   X: 3 -> {0, 2} (02 12), 4 -> {1, 2} (12):      01 0, 11 0, 12 2
//   Y: 3 -> {0, 1} (01 11), 4 -> {0, 2} (02 12):   01 1, 11 1, 12 1
//   Z: 3 -> {1, 2} (12),    4 -> {0, 1} (01 11):   01 1, 11 1, 12 1
// 01 and 11: mean 2/3, variance ((2/3)^2 + 2 (1/3)^2) / 2 = 1/3, z = (1 -
// 2/3) / sqrt(1/3) = 1/sqrt(3); 12: mean 4/3, z = -1/sqrt(3). Paper 3's
// pairs {1/sqrt(3), 1/sqrt(3)}, paper 4's {-1/sqrt(3)}.
TEST(MetricsNovelty, KeywordPairZScoresOnATinyNetwork) {
  const std::vector<uint16_t> years(5, 2000);
  const CitationCsr g = CitationCsr::FromEdges(years, {{3, 0}, {3, 1}, {4, 1}, {4, 2}});
  PaperLabels labels;
  labels.off = {0, 2, 3, 4, 4, 4};
  labels.ids = {0, 1, 1, 2};
  labels.num_labels = 3;
  const std::vector<std::vector<uint32_t>> randomized = {{0, 2, 1, 2}, {0, 1, 0, 2}, {1, 2, 0, 1}};
  const std::vector<PairZ> z = LabelPairZScores(g, labels, randomized);
  ASSERT_EQ(z.size(), 3u);  // 01 11 12: no pair within paper 0
  const double r3 = 1 / std::sqrt(3.0);
  EXPECT_EQ(z[0].a, 0);
  EXPECT_EQ(z[0].b, 1);
  EXPECT_EQ(z[0].observed, 1);
  EXPECT_DOUBLE_EQ(z[0].mean, 2.0 / 3);
  EXPECT_DOUBLE_EQ(z[0].sd, std::sqrt(1.0 / 3));
  EXPECT_NEAR(z[0].z, r3, 1e-12);
  EXPECT_EQ(z[1].a, 1);
  EXPECT_EQ(z[1].b, 1);
  EXPECT_NEAR(z[1].z, r3, 1e-12);
  EXPECT_EQ(z[2].a, 1);
  EXPECT_EQ(z[2].b, 2);
  EXPECT_DOUBLE_EQ(z[2].mean, 4.0 / 3);
  EXPECT_NEAR(z[2].z, -r3, 1e-12);
  const std::vector<Novelty> nv = NoveltyFromNetworks(g, labels, randomized);
  EXPECT_EQ(nv[3].pairs, 2u);
  EXPECT_NEAR(nv[3].novelty, r3, 1e-6);
  EXPECT_NEAR(nv[3].conventionality, r3, 1e-6);
  EXPECT_EQ(nv[4].pairs, 1u);
  EXPECT_NEAR(nv[4].novelty, -r3, 1e-6);
  EXPECT_EQ(nv[0].pairs, 0u);  // no references: no pair
  EXPECT_TRUE(std::isnan(nv[0].novelty));
  // Venue novelty is the one-label case of the same counting.
  const std::vector<int32_t> venue = {0, 1, 2, -1, -1};
  const std::vector<PairZ> zv = VenuePairZScores(g, venue, randomized);
  const std::vector<PairZ> zl = LabelPairZScores(g, VenueLabels(venue), randomized);
  ASSERT_EQ(zv.size(), zl.size());
  for (size_t i = 0; i < zv.size(); ++i) EXPECT_EQ(zv[i].observed, zl[i].observed);
}

// Keyword labels: the vocabulary is the most used keywords (ties: smaller
// id); each paper keeps its per_reference keywords of highest importance
// (ties: more used). Keywords 10 and 20 are used twice, 30 and 40 once.
TEST(MetricsNovelty, KeywordLabelsVocabularyAndImportance) {
  const std::vector<uint64_t> off = {0, 3, 4, 6, 6};
  const std::vector<uint32_t> ids = {10, 20, 30, 10, 20, 40};
  const std::vector<uint32_t> importance = {5, 9, 9, 1, 2, 3};
  KeywordNoveltyOptions o;
  o.vocabulary = 3;  // 10 20 30: 40 is out
  o.per_reference = 1;
  KeywordLabelStats st;
  PaperLabels l = KeywordLabels(off, ids, importance, o, &st);
  EXPECT_EQ(st.vocabulary, (std::vector<uint32_t>{10, 20, 30}));
  EXPECT_EQ(st.keywords, 4u);
  EXPECT_EQ(st.papers_with_keywords, 3u);
  EXPECT_EQ(st.papers_labelled, 3u);
  EXPECT_EQ(l.num_labels, 3);
  // Paper 0: 20 and 30 tie on importance 9, 20 is used more: label 1.
  EXPECT_EQ(std::vector<int32_t>(l.Of(0).begin(), l.Of(0).end()), std::vector<int32_t>{1});
  EXPECT_EQ(std::vector<int32_t>(l.Of(1).begin(), l.Of(1).end()), std::vector<int32_t>{0});
  // Paper 2: 40 (importance 3) is outside the vocabulary; 20 remains.
  EXPECT_EQ(std::vector<int32_t>(l.Of(2).begin(), l.Of(2).end()), std::vector<int32_t>{1});
  EXPECT_TRUE(l.Of(3).empty());
  o.per_reference = 2;
  l = KeywordLabels(off, ids, importance, o, &st);
  EXPECT_EQ(std::vector<int32_t>(l.Of(0).begin(), l.Of(0).end()), (std::vector<int32_t>{1, 2}));
}

// The variants share the randomized networks: venue novelty computed with
// the keyword variant beside it equals venue novelty alone, and the
// keyword variant equals its computation from the same explicit networks.
TEST(MetricsNovelty, VariantsShareTheNetworks) {
  std::mt19937 rng(5);
  const uint32_t n = 200;
  std::vector<uint16_t> years;
  const CitationCsr g = RandomGraph(rng, n, 4, 1500, &years);
  std::vector<int32_t> venue(n);
  for (auto& v : venue) v = static_cast<int32_t>(rng() % 6) - 1;
  std::vector<uint64_t> off = {0};
  std::vector<uint32_t> ids, importance;
  for (uint32_t p = 0; p < n; ++p) {
    std::set<uint32_t> k;
    for (int i = 0; i < 3; ++i) k.insert(rng() % 12);
    for (uint32_t x : k) {
      ids.push_back(x);
      importance.push_back(1 + rng() % 10);
    }
    off.push_back(ids.size());
  }
  KeywordNoveltyOptions ko;
  ko.per_reference = 2;
  const PaperLabels kl = KeywordLabels(off, ids, importance, ko);
  const PaperLabels vl = VenueLabels(venue);
  NoveltyOptions o;
  o.k = 5;
  o.seed = 9;
  const auto both = ComputeNoveltyVariants(g, {&vl, &kl}, o, 2);
  const auto alone = ComputeNovelty(g, venue, o, 1);
  std::vector<std::vector<uint32_t>> nets;
  for (int i = 0; i < o.k; ++i) nets.push_back(RandomizeReferences(g, o.seed + i));
  const auto explicit_kw = NoveltyFromNetworks(g, kl, nets);
  auto same = [](float x, float y) { return (std::isnan(x) && std::isnan(y)) || x == y; };
  size_t defined = 0;
  for (uint32_t p = 0; p < n; ++p) {
    EXPECT_EQ(both[0][p].pairs, alone[p].pairs);
    EXPECT_EQ(both[1][p].pairs, explicit_kw[p].pairs);
    EXPECT_TRUE(same(both[0][p].novelty, alone[p].novelty)) << p;
    EXPECT_TRUE(same(both[1][p].novelty, explicit_kw[p].novelty)) << p;
    EXPECT_TRUE(same(both[1][p].conventionality, explicit_kw[p].conventionality)) << p;
    defined += !std::isnan(both[1][p].novelty);
  }
  EXPECT_GT(defined, n / 2);
}

TEST(MetricsNovelty, RandomizationKeepsDegreesAndYears) {
  std::mt19937 rng(11);
  const uint32_t n = 300;
  std::vector<uint16_t> years;
  const CitationCsr g = RandomGraph(rng, n, 6, 3000, &years);
  const std::vector<uint32_t> r1 = RandomizeReferences(g, 42);
  EXPECT_EQ(r1, RandomizeReferences(g, 42));  // seeded: reproducible
  EXPECT_NE(r1, RandomizeReferences(g, 43));
  ASSERT_EQ(r1.size(), g.num_edges());
  std::vector<uint32_t> in_before(n, 0), in_after(n, 0);
  std::vector<std::multiset<int>> citing_years_before(n), citing_years_after(n);
  size_t pos = 0, moved = 0;
  for (uint32_t p = 0; p < n; ++p) {
    std::multiset<int> before, after;  // the years of p's references
    for (uint32_t r : g.Refs(p)) {
      const uint32_t s = r1[pos++];
      before.insert(years[r]);
      after.insert(years[s]);
      ++in_before[r];
      ++in_after[s];
      citing_years_before[r].insert(years[p]);
      citing_years_after[s].insert(years[p]);
      moved += r != s;
    }
    EXPECT_EQ(before, after) << "paper " << p;  // reference count and cited years
  }
  EXPECT_EQ(pos, r1.size());
  EXPECT_EQ(in_before, in_after);                      // citation counts
  EXPECT_EQ(citing_years_before, citing_years_after);  // citing years per cited paper
  EXPECT_GT(moved, r1.size() / 2);                     // and it does randomize
}

const char* const kNames[] = {"R1", "R2", "F", "A", "B", "C", "D", "E", "G", "H", "I", "J"};

// The hand-checked graph's papers as native records; `changed` upserts C
// with a citation of F and a later year, and adds K citing F and B.
std::string HandRecords(bool changed, bool only_changes = false) {
  std::map<uint32_t, std::vector<std::string>> refs;
  for (auto [a, b] : kEdges) refs[a].push_back(kNames[b]);
  std::string lines;
  for (uint32_t p = 0; p < kN; ++p) {
    nlohmann::json j = {{"id", kNames[p]},
                        {"title", std::string("Paper ") + kNames[p]},
                        {"references", refs[p]},
                        {"venue", p % 2 ? "Odd venue" : "Even venue"}};
    if (kYears[p]) j["year"] = kYears[p];
    if (changed && p == C) {
      j["references"] = {"R2", "F"};
      j["year"] = 2009;
      j["updated_date"] = "2026-01-02";
    }
    if (!only_changes || (changed && p == C)) lines += j.dump() + "\n";
  }
  if (changed)
    lines += nlohmann::json({{"id", "K"},
                             {"title", "Paper K"},
                             {"year", 2008},
                             {"venue", "Even venue"},
                             {"references", {"F", "B"}}})
                 .dump() +
             "\n";
  return lines;
}

// A real store: the derived file's round trip, the on-demand computation
// from the adjacency files, and staleness after an ingest.
TEST(MetricsStore, BuildReadAndOnDemand) {
  litgraph::testing::ScopedTempDir tmp;
  const char* const* names = kNames;
  std::unique_ptr<Store> store;
  std::unique_ptr<Graph> graph;
  ASSERT_NO_FATAL_FAILURE(litgraph::testing::IngestStore(tmp, HandRecords(false), &store, &graph));
  std::map<std::string, uint32_t> id;
  for (uint32_t p = 0; p < kN; ++p)
    id[names[p]] = static_cast<uint32_t>(*store->PaperByExtId(names[p]));
  // On demand from the adjacency files, and the batch over the loaded CSR.
  std::vector<uint32_t> all;
  for (uint32_t p = 0; p < kN; ++p) all.push_back(id[names[p]]);
  auto csr = CitationCsr::Load(*graph, 2);
  ASSERT_TRUE(csr.ok()) << csr.status().message();
  for (int window : {0, 5}) {
    auto on_demand = ComputeDisruptionOf(*graph, all, window);
    ASSERT_TRUE(on_demand.ok());
    std::vector<Disruption> batch = ComputeDisruptionAll(*csr, window, 2);
    for (uint32_t p = 0; p < kN; ++p) {
      const Disruption want = Cd(CitationCsr::FromEdges(kYears, kEdges), p, window);
      EXPECT_EQ((*on_demand)[p], want) << names[p] << " window " << window;
      EXPECT_EQ(batch[id[names[p]]], want) << names[p] << " window " << window;
    }
  }
  graph.reset();
  MetricsBuildOptions o;
  o.novelty = true;
  o.novelty_options.k = 4;
  MetricsBuildStats stats;
  ASSERT_TRUE(BuildMetrics(store.get(), o, &stats).ok());
  EXPECT_EQ(stats.edges, kEdges.size());
  store.reset();
  auto reader = Store::Open(tmp.File("db"), Store::Mode::kRead);
  ASSERT_TRUE(reader.ok());
  auto g = Graph::Open(reader->get());
  ASSERT_TRUE(g.ok());
  bool stale = true;
  auto file = MetricsFile::Open(reader->get(), **g, &stale);
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_TRUE(*file);
  EXPECT_FALSE(stale);
  EXPECT_EQ((*file)->window(), 5);
  EXPECT_TRUE((*file)->has_novelty());
  PaperMetrics m;
  ASSERT_TRUE((*file)->Get(id["F"], &m));
  EXPECT_EQ(m.disruption, Cd(CitationCsr::FromEdges(kYears, kEdges), F, 5));
  EXPECT_EQ(m.in_store_citations, 6u);  // A B D H I J
  EXPECT_GT(m.pagerank, 0);
  ASSERT_TRUE((*file)->Get(id["R1"], &m));
  EXPECT_EQ(m.disruption.undefined, CdUndefined::kNoReferences);
  EXPECT_TRUE((*file)->status().ok());
  file->reset();
  g->reset();
  reader->reset();
  // An ingest that changes the citations without updating the metrics
  // (ingest --no-metrics) makes the file stale.
  {
    auto w = Store::Open(tmp.File("db"), Store::Mode::kWrite);
    ASSERT_TRUE(w.ok());
    litgraph::testing::WriteFile(
        tmp.File("more.jsonl"),
        R"({"id": "K", "title": "Paper K", "year": 2007, "references": ["F"]})"
        "\n");
    IngestStats is;
    IngestOptions io;
    io.update_metrics = false;
    ASSERT_TRUE(Ingest(w->get(), {tmp.File("more.jsonl")}, io, &is).ok());
    EXPECT_FALSE(is.metrics_rebuilt);
  }
  auto again = Store::Open(tmp.File("db"), Store::Mode::kRead);
  ASSERT_TRUE(again.ok());
  auto g2 = Graph::Open(again->get());
  ASSERT_TRUE(g2.ok());
  auto file2 = MetricsFile::Open(again->get(), **g2, &stale);
  ASSERT_TRUE(file2.ok());
  EXPECT_FALSE(*file2);
  EXPECT_TRUE(stale);
}

// Every paper's metrics of a store by external id, from its metrics file
// (which must be current).
std::map<std::string, PaperMetrics> StoredMetrics(const std::string& db) {
  std::map<std::string, PaperMetrics> out;
  auto store = Store::Open(db, Store::Mode::kRead);
  EXPECT_TRUE(store.ok());
  auto g = Graph::Open(store->get());
  EXPECT_TRUE(g.ok());
  bool stale = true;
  auto file = MetricsFile::Open(store->get(), **g, &stale);
  EXPECT_TRUE(file.ok());
  EXPECT_FALSE(stale);
  if (!file.ok() || !*file) return out;
  for (int64_t id : (*store)->PaperIds()) {
    PaperMetrics m;
    EXPECT_TRUE((*file)->Get(static_cast<uint32_t>(id), &m));
    out[(*store)->PaperExtId(id)] = m;
  }
  return out;
}

// After an upsert, the store's metrics (rebuilt by the ingest) equal those
// of a store built from scratch from the same records.
TEST(MetricsStore, IngestRebuildsMetricsEqualToAFreshBuild) {
  litgraph::testing::ScopedTempDir tmp;
  MetricsBuildOptions o;
  o.novelty = true;
  o.novelty_options.k = 4;
  o.novelty_options.seed = 3;
  o.threads = 2;
  MetricsBuildStats stats;
  {
    std::unique_ptr<Store> store;
    std::unique_ptr<Graph> graph;
    ASSERT_NO_FATAL_FAILURE(
        litgraph::testing::IngestStore(tmp, HandRecords(false), &store, &graph));
    graph.reset();
    ASSERT_TRUE(BuildMetrics(store.get(), o, &stats).ok());
    litgraph::testing::WriteFile(tmp.File("changes.jsonl"), HandRecords(true, true));
    IngestStats is;
    ASSERT_TRUE(Ingest(store.get(), {tmp.File("changes.jsonl")}, IngestOptions(), &is).ok());
    EXPECT_EQ(is.works_new, 1);
    EXPECT_EQ(is.works_updated, 1);
    EXPECT_TRUE(is.metrics_rebuilt);
    // Current metrics are left alone.
    bool rebuilt = true;
    ASSERT_TRUE(RefreshMetrics(store.get(), 1, &rebuilt, &stats).ok());
    EXPECT_FALSE(rebuilt);
  }
  litgraph::testing::ScopedTempDir fresh;
  {
    std::unique_ptr<Store> store;
    std::unique_ptr<Graph> graph;
    ASSERT_NO_FATAL_FAILURE(
        litgraph::testing::IngestStore(fresh, HandRecords(true), &store, &graph));
    graph.reset();
    ASSERT_TRUE(BuildMetrics(store.get(), o, &stats).ok());
  }
  const auto updated = StoredMetrics(tmp.File("db"));
  const auto scratch = StoredMetrics(fresh.File("db"));
  ASSERT_EQ(updated.size(), 13u);
  ASSERT_EQ(scratch.size(), 13u);
  auto same = [](float x, float y) { return (std::isnan(x) && std::isnan(y)) || x == y; };
  for (const auto& [id, want] : scratch) {
    ASSERT_TRUE(updated.count(id)) << id;
    const PaperMetrics& got = updated.at(id);
    EXPECT_EQ(got.disruption, want.disruption) << id;
    EXPECT_EQ(got.window, want.window);
    EXPECT_NEAR(got.pagerank, want.pagerank, 1e-12) << id;
    EXPECT_EQ(got.percentile, want.percentile) << id;
    EXPECT_EQ(got.in_store_citations, want.in_store_citations) << id;
    EXPECT_TRUE(got.has_novelty);
    EXPECT_EQ(got.novelty.pairs, want.novelty.pairs) << id;
    EXPECT_TRUE(same(got.novelty.novelty, want.novelty.novelty)) << id;
    EXPECT_TRUE(same(got.novelty.conventionality, want.novelty.conventionality)) << id;
  }
  // The upsert did change values: F gained citing papers (C now, and K).
  EXPECT_EQ(updated.at("F").in_store_citations, 8u);
}

// A novelty file of the first layout (venue pairs only, 12 bytes a paper)
// still reads, with the same values as the current layout's venue part.
TEST(MetricsStore, ReadsTheVersionOneNoveltyFile) {
  litgraph::testing::ScopedTempDir tmp;
  std::unique_ptr<Store> store;
  std::unique_ptr<Graph> graph;
  ASSERT_NO_FATAL_FAILURE(litgraph::testing::IngestStore(tmp, HandRecords(false), &store, &graph));
  graph.reset();
  MetricsBuildOptions o;
  o.novelty = true;
  o.novelty_options.k = 4;
  MetricsBuildStats stats;
  std::map<int, std::vector<PaperMetrics>> read;
  for (int version : {1, 2}) {
    o.novelty_file_version = version;
    ASSERT_TRUE(BuildMetrics(store.get(), o, &stats).ok());
    auto g = Graph::Open(store.get());
    ASSERT_TRUE(g.ok());
    auto file = MetricsFile::Open(store.get(), **g);
    ASSERT_TRUE(file.ok()) << file.status().message();
    ASSERT_TRUE(*file);
    EXPECT_EQ((*file)->novelty_version(), version);
    EXPECT_TRUE((*file)->has_novelty());
    EXPECT_FALSE((*file)->has_keyword_novelty());
    for (uint32_t p = 0; p < (*file)->num_papers(); ++p) {
      PaperMetrics m;
      ASSERT_TRUE((*file)->Get(p, &m));
      EXPECT_FALSE(m.has_keyword_novelty);
      read[version].push_back(m);
    }
  }
  ASSERT_EQ(read[1].size(), read[2].size());
  for (size_t p = 0; p < read[1].size(); ++p) {
    EXPECT_EQ(read[1][p].novelty.pairs, read[2][p].novelty.pairs);
    EXPECT_EQ(std::isnan(read[1][p].novelty.novelty), std::isnan(read[2][p].novelty.novelty));
    if (!std::isnan(read[1][p].novelty.novelty))
      EXPECT_EQ(read[1][p].novelty.novelty, read[2][p].novelty.novelty);
  }
  o.keyword_novelty = true;
  o.novelty_file_version = 1;
  EXPECT_FALSE(BuildMetrics(store.get(), o, &stats).ok());  // v1 has no keyword part
}

}  // namespace
}  // namespace litgraph
