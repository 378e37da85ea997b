// Tests for rwr.h.
//
// RandomWalk and Explain run on small Subgraph objects built by hand, and are
// compared with values computed independently here: closed forms, the
// stationary distribution solved as the linear system
//   (I - (1 - alpha) P^T) r = alpha s            (eq. 13-15 at convergence)
// by Gaussian elimination, and single propagation steps multiplied out with a
// dense transition matrix.
//
// BuildSubgraph runs on real stores made by ingesting native records written
// to temporary files (and, for the keyword layer, paper_keyword rows written
// in a transaction followed by a keyword-only graph rebuild, as
// keyword_store.cc does): the per-hop cap and its tie rule, the radius, zero
// weights switching relations off, undirected edges and the Table 2 weights.
#include "litgraph/rwr.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/graph_build.h"
#include "litgraph/ingest.h"
#include "litgraph/sqlite.h"
#include "litgraph/store.h"
#include "test_util.h"

namespace litgraph {

// Readable node references in failure messages.
void PrintTo(const NodeRef& n, std::ostream* os) { *os << NodeTypeName(n.type) << ":" << n.id; }

namespace {

// BuildSubgraph on a graph whose files are sound.
Subgraph MustBuild(Graph& graph, const std::vector<Seed>& seeds, const RwrParams& params) {
  auto g = BuildSubgraph(graph, seeds, params);
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(g.value()) : Subgraph();
}

using litgraph::testing::ScopedTempDir;
using litgraph::testing::WriteFile;
using nlohmann::json;

// ---- Hand-built subgraphs ----------------------------------------------------

struct E {
  int a, b;
  float w;
  Rel rel = Rel::kCitesOut;
};

NodeRef PaperNode(uint32_t i) { return {NodeType::kPaper, i + 100}; }

// n paper nodes (local id i = paper i + 100) and undirected edges in CSR form.
Subgraph MakeSubgraph(size_t n, const std::vector<E>& edges) {
  Subgraph g;
  for (size_t i = 0; i < n; ++i) {
    NodeRef r = PaperNode(static_cast<uint32_t>(i));
    g.local[r.key()] = static_cast<uint32_t>(g.nodes.size());
    g.nodes.push_back(r);
    g.hop.push_back(0);
  }
  struct Half {
    uint32_t to;
    float w;
    uint8_t rel;
  };
  std::vector<std::vector<Half>> adj(n);
  for (const E& e : edges) {
    adj[e.a].push_back({static_cast<uint32_t>(e.b), e.w, static_cast<uint8_t>(e.rel)});
    adj[e.b].push_back({static_cast<uint32_t>(e.a), e.w, static_cast<uint8_t>(e.rel)});
  }
  g.offsets.push_back(0);
  for (size_t u = 0; u < n; ++u) {
    for (const Half& h : adj[u]) {
      g.nbr.push_back(h.to);
      g.weight.push_back(h.w);
      g.rel.push_back(h.rel);
    }
    g.offsets.push_back(g.nbr.size());
  }
  return g;
}

using Matrix = std::vector<std::vector<double>>;

// Dense transition matrix P[u][v] = w(u, v) / sum_x w(u, x); a node without
// neighbours keeps its mass (P[u][u] = 1).
Matrix Transition(const Subgraph& g) {
  const size_t n = g.nodes.size();
  Matrix p(n, std::vector<double>(n, 0.0));
  for (size_t u = 0; u < n; ++u) {
    double total = 0;
    for (uint64_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) total += g.weight[k];
    if (total <= 0) {
      p[u][u] = 1;
      continue;
    }
    for (uint64_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      p[u][g.nbr[k]] += g.weight[k] / total;
  }
  return p;
}

// y = P^T x.
std::vector<double> StepT(const Matrix& p, const std::vector<double>& x) {
  std::vector<double> y(x.size(), 0.0);
  for (size_t u = 0; u < x.size(); ++u)
    for (size_t v = 0; v < x.size(); ++v) y[v] += p[u][v] * x[u];
  return y;
}

// Solves A x = b by Gaussian elimination with partial pivoting.
std::vector<double> Solve(Matrix a, std::vector<double> b) {
  const size_t n = b.size();
  for (size_t c = 0; c < n; ++c) {
    size_t piv = c;
    for (size_t r = c + 1; r < n; ++r)
      if (std::abs(a[r][c]) > std::abs(a[piv][c])) piv = r;
    std::swap(a[c], a[piv]);
    std::swap(b[c], b[piv]);
    for (size_t r = c + 1; r < n; ++r) {
      double f = a[r][c] / a[c][c];
      for (size_t k = c; k < n; ++k) a[r][k] -= f * a[c][k];
      b[r] -= f * b[c];
    }
  }
  std::vector<double> x(n);
  for (size_t i = n; i-- > 0;) {
    double s = b[i];
    for (size_t k = i + 1; k < n; ++k) s -= a[i][k] * x[k];
    x[i] = s / a[i][i];
  }
  return x;
}

// The normalized seed vector of eq. 12, computed here independently.
std::vector<double> SeedVector(const Subgraph& g, const std::vector<Seed>& seeds) {
  std::vector<double> s(g.nodes.size(), 0.0);
  double z = 0;
  for (const Seed& sd : seeds) {
    int i = g.Find(sd.node);
    if (i >= 0 && sd.weight > 0) {
      s[i] += sd.weight;
      z += sd.weight;
    }
  }
  for (double& x : s) x /= z;
  return s;
}

// The exact stationary distribution: (I - (1 - alpha) P^T) r = alpha s.
std::vector<double> Stationary(const Subgraph& g, const std::vector<Seed>& seeds, double alpha) {
  const size_t n = g.nodes.size();
  Matrix p = Transition(g);
  Matrix a(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) a[i][j] = (i == j ? 1.0 : 0.0) - (1 - alpha) * p[j][i];
  std::vector<double> b = SeedVector(g, seeds);
  for (double& x : b) x *= alpha;
  return Solve(a, b);
}

RwrParams Converging() {
  RwrParams p;
  p.epsilon = 1e-14;
  p.max_iter = 100000;
  return p;
}

void ExpectScores(const std::vector<double>& got, const std::vector<double>& want, double tol,
                  const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tol) << what << " node " << i;
}

double Sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

// ---- RandomWalk ---------------------------------------------------------------

TEST(RandomWalkTest, PathOfThreeMatchesTheClosedForm) {
  // a - b - c with unit weights, seed a. With d = 1 - alpha:
  //   r_b = alpha d / (1 - d^2), r_c = d r_b / 2, r_a = alpha + d r_b / 2.
  Subgraph g = MakeSubgraph(3, {{0, 1, 1.0f}, {1, 2, 1.0f}});
  std::vector<Seed> seeds = {{PaperNode(0), 1.0}};
  RwrParams p = Converging();
  WalkResult w = RandomWalk(g, seeds, p);
  const double alpha = 0.15, d = 0.85;
  const double rb = alpha * d / (1 - d * d), rc = d * rb / 2, ra = alpha + d * rb / 2;
  ExpectScores(w.score, {ra, rb, rc}, 1e-10, "path");
  EXPECT_NEAR(ra, 0.3452702702702703, 1e-15);  // the closed form itself, by hand
  EXPECT_NEAR(Sum(w.score), 1.0, 1e-12);
  EXPECT_LT(w.residual, p.epsilon);
}

TEST(RandomWalkTest, TriangleWithUnequalWeightsSolvesTheLinearSystem) {
  Subgraph g = MakeSubgraph(3, {{0, 1, 1.0f}, {1, 2, 2.0f}, {0, 2, 5.0f}});
  for (double alpha : {0.15, 0.5, 0.9}) {
    RwrParams p = Converging();
    p.alpha = alpha;
    std::vector<Seed> seeds = {{PaperNode(0), 1.0}};
    WalkResult w = RandomWalk(g, seeds, p);
    ExpectScores(w.score, Stationary(g, seeds, alpha), 1e-10,
                 "triangle alpha " + std::to_string(alpha));
    EXPECT_NEAR(Sum(w.score), 1.0, 1e-12);
    // The heavy 0-2 edge carries more mass to 2 than the light 0-1 edge to 1.
    EXPECT_GT(w.score[2], w.score[1]);
  }
}

TEST(RandomWalkTest, LargerGraphSolvesTheLinearSystem) {
  // Two triangles joined by a bridge, a pendant node and parallel weights.
  Subgraph g = MakeSubgraph(7, {{0, 1, 1.0f},
                                {1, 2, 0.5f},
                                {0, 2, 2.0f},
                                {2, 3, 0.25f},
                                {3, 4, 1.2f},
                                {4, 5, 0.8f},
                                {3, 5, 3.0f},
                                {5, 6, 0.6f}});
  std::vector<Seed> seeds = {{PaperNode(1), 0.7}, {PaperNode(5), 0.2}, {PaperNode(6), 0.1}};
  RwrParams p = Converging();
  WalkResult w = RandomWalk(g, seeds, p);
  ExpectScores(w.score, Stationary(g, seeds, p.alpha), 1e-10, "two triangles");
}

TEST(RandomWalkTest, NodeWithoutNeighboursKeepsItsMass) {
  // a - b, and c alone. Seeds a and c with equal weight: c keeps its half at
  // every iteration (alpha x 0.5 + (1 - alpha) x 0.5).
  Subgraph g = MakeSubgraph(3, {{0, 1, 1.0f}});
  std::vector<Seed> seeds = {{PaperNode(0), 1.0}, {PaperNode(2), 1.0}};
  for (int iters : {1, 2, 5, 100000}) {
    RwrParams p = Converging();
    p.max_iter = iters;
    WalkResult w = RandomWalk(g, seeds, p);
    EXPECT_DOUBLE_EQ(w.score[2], 0.5) << iters;
    EXPECT_NEAR(Sum(w.score), 1.0, 1e-12);
  }
  WalkResult w = RandomWalk(g, seeds, Converging());
  ExpectScores(w.score, Stationary(g, seeds, 0.15), 1e-10, "dangling");
  // a and b share the other half: r_a = 0.5 alpha + d r_b and r_b = d r_a give
  // r_a = 0.5 alpha / (1 - d^2) = 0.5 / (1 + d) and r_b = d r_a.
  EXPECT_NEAR(w.score[0], 0.5 / 1.85, 1e-10);
  EXPECT_NEAR(w.score[1], 0.5 * 0.85 / 1.85, 1e-10);
}

TEST(RandomWalkTest, SeedWeightsAreNormalizedToADistribution) {
  Subgraph g = MakeSubgraph(4, {{0, 1, 1.0f}, {1, 2, 1.0f}, {2, 3, 2.0f}, {0, 3, 0.5f}});
  // Eq. 12: weights 3 and 1 are the distribution (0.75, 0.25).
  std::vector<Seed> seeds = {{PaperNode(0), 3.0}, {PaperNode(2), 1.0}};
  RwrParams p = Converging();
  WalkResult w = RandomWalk(g, seeds, p);
  ExpectScores(w.score, Stationary(g, seeds, p.alpha), 1e-10, "weighted seeds");
  // Scaling all weights changes nothing; duplicate entries add up.
  WalkResult scaled = RandomWalk(g, {{PaperNode(0), 6.0}, {PaperNode(2), 2.0}}, p);
  ExpectScores(scaled.score, w.score, 1e-12, "scaled");
  WalkResult dup =
      RandomWalk(g, {{PaperNode(0), 1.0}, {PaperNode(2), 1.0}, {PaperNode(0), 2.0}}, p);
  ExpectScores(dup.score, w.score, 1e-12, "duplicates");
  // The walk is linear in s: 0.75 r(a) + 0.25 r(c).
  WalkResult ra = RandomWalk(g, {{PaperNode(0), 1.0}}, p),
             rc = RandomWalk(g, {{PaperNode(2), 1.0}}, p);
  for (size_t i = 0; i < 4; ++i)
    EXPECT_NEAR(w.score[i], 0.75 * ra.score[i] + 0.25 * rc.score[i], 1e-10);
  // With no iteration the scores are the seed distribution itself.
  RwrParams none = p;
  none.max_iter = 0;
  WalkResult s = RandomWalk(g, seeds, none);
  ExpectScores(s.score, {0.75, 0.0, 0.25, 0.0}, 1e-15, "r(0) = s");
  EXPECT_EQ(s.iterations, 0);
}

TEST(RandomWalkTest, SeedsOutsideTheSubgraphOrWithoutWeightAreIgnored) {
  Subgraph g = MakeSubgraph(3, {{0, 1, 1.0f}, {1, 2, 1.0f}});
  RwrParams p = Converging();
  WalkResult base = RandomWalk(g, {{PaperNode(0), 1.0}}, p);
  WalkResult w = RandomWalk(g,
                            {{PaperNode(0), 1.0},
                             {PaperNode(50), 5.0},             // not in the subgraph
                             {{NodeType::kAuthor, 100}, 5.0},  // same id, other type
                             {PaperNode(2), 0.0},              // no weight
                             {PaperNode(1), -3.0}},            // negative
                            p);
  ExpectScores(w.score, base.score, 1e-12, "ignored seeds");
  // Nothing usable: all zeros, no iteration.
  WalkResult none = RandomWalk(g, {{PaperNode(50), 1.0}, {PaperNode(1), 0.0}}, p);
  ExpectScores(none.score, {0, 0, 0}, 0, "no seeds");
  EXPECT_EQ(none.iterations, 0);
  WalkResult empty = RandomWalk(g, {}, p);
  ExpectScores(empty.score, {0, 0, 0}, 0, "empty seeds");
}

TEST(RandomWalkTest, StopsAtTheFirstIterationBelowEpsilon) {
  Subgraph g =
      MakeSubgraph(4, {{0, 1, 1.0f}, {1, 2, 3.0f}, {2, 3, 1.0f}, {3, 0, 2.0f}, {0, 2, 1.0f}});
  std::vector<Seed> seeds = {{PaperNode(0), 1.0}};
  RwrParams p;  // epsilon 1e-6, max_iter 50
  WalkResult w = RandomWalk(g, seeds, p);
  EXPECT_LT(w.residual, p.epsilon);
  EXPECT_GE(w.iterations, 1);
  EXPECT_LE(w.iterations, p.max_iter);
  // One iteration fewer has not converged yet: the walk stops at the first.
  RwrParams fewer = p;
  fewer.max_iter = w.iterations - 1;
  WalkResult f = RandomWalk(g, seeds, fewer);
  EXPECT_EQ(f.iterations, w.iterations - 1);
  EXPECT_GE(f.residual, p.epsilon);
  // And the converged scores are within the geometric tail of the exact ones.
  ExpectScores(w.score, Stationary(g, seeds, p.alpha), 1e-5, "converged at 1e-6");
}

TEST(RandomWalkTest, MaxIterBoundsTheIterations) {
  Subgraph g = MakeSubgraph(3, {{0, 1, 1.0f}, {1, 2, 1.0f}});
  RwrParams p;
  p.epsilon = 0;  // never met
  p.max_iter = 7;
  WalkResult w = RandomWalk(g, {{PaperNode(0), 1.0}}, p);
  EXPECT_EQ(w.iterations, 7);
  EXPECT_GT(w.residual, 0);
  // The 7 iterations are exactly r(t+1) = alpha s + (1 - alpha) P^T r(t).
  Matrix pm = Transition(g);
  std::vector<double> s = {1, 0, 0}, r = s;
  double last = 0;
  for (int t = 0; t < 7; ++t) {
    std::vector<double> next = StepT(pm, r);
    last = 0;
    for (size_t i = 0; i < 3; ++i) {
      next[i] = 0.15 * s[i] + 0.85 * next[i];
      last += std::abs(next[i] - r[i]);
    }
    r = next;
  }
  ExpectScores(w.score, r, 1e-14, "seven iterations");
  EXPECT_NEAR(w.residual, last, 1e-14);
}

TEST(RandomWalkTest, OneIterationIsExactlyOneStep) {
  Subgraph g = MakeSubgraph(4, {{0, 1, 1.0f}, {0, 2, 3.0f}, {1, 2, 1.0f}});  // 3 has no edge
  std::vector<Seed> seeds = {{PaperNode(0), 2.0}, {PaperNode(3), 2.0}};
  RwrParams p;
  p.max_iter = 1;
  p.alpha = 0.2;
  WalkResult w = RandomWalk(g, seeds, p);
  // By hand: s = (0.5, 0, 0, 0.5); P^T s = (0, 0.5 x 1/4, 0.5 x 3/4, 0.5).
  std::vector<double> want = {0.2 * 0.5, 0.8 * 0.125, 0.8 * 0.375, 0.2 * 0.5 + 0.8 * 0.5};
  ExpectScores(w.score, want, 1e-15, "one step");
  EXPECT_EQ(w.iterations, 1);
  EXPECT_NEAR(w.residual, 0.4 + 0.1 + 0.3 + 0.0, 1e-15);  // ||r(1) - s||_1
}

TEST(RandomWalkTest, TwoStepPropagationIsSPlusDecayedSteps) {
  // The reference code's s + d P s + d^2 P^2 s. On the path a - b - c from a:
  // P s = (0, 1, 0), P^2 s = (0.5, 0, 0.5).
  Subgraph path = MakeSubgraph(3, {{0, 1, 1.0f}, {1, 2, 1.0f}});
  RwrParams p;
  p.propagation = Propagation::kTwoStep;
  WalkResult w = RandomWalk(path, {{PaperNode(0), 1.0}}, p);
  ExpectScores(w.score, {1 + 0.85 * 0.85 * 0.5, 0.85, 0.85 * 0.85 * 0.5}, 1e-15, "two-step path");
  EXPECT_EQ(w.iterations, 2);
  // A weighted graph with a node without neighbours and another decay.
  Subgraph g = MakeSubgraph(5, {{0, 1, 1.0f}, {1, 2, 2.0f}, {0, 2, 4.0f}, {2, 3, 1.0f}});
  std::vector<Seed> seeds = {{PaperNode(0), 1.0}, {PaperNode(4), 3.0}, {PaperNode(3), 1.0}};
  p.two_step_decay = 0.6;
  w = RandomWalk(g, seeds, p);
  Matrix pm = Transition(g);
  std::vector<double> s = SeedVector(g, seeds), p1 = StepT(pm, s), p2 = StepT(pm, p1), want(5);
  for (size_t i = 0; i < 5; ++i) want[i] = s[i] + 0.6 * p1[i] + 0.36 * p2[i];
  ExpectScores(w.score, want, 1e-12, "two-step weighted");
  EXPECT_DOUBLE_EQ(w.score[4], 0.6 * (1 + 0.6 + 0.36)) << "a lone seed keeps its mass at each step";
}

// ---- Explain ---------------------------------------------------------------------

// 0 and 1 are seeds (weights 3 and 1); 5 is three hops from any seed.
Subgraph ExplainGraph() {
  return MakeSubgraph(6, {{0, 2, 1.0f, Rel::kCitesOut},
                          {1, 2, 2.0f, Rel::kRelated},
                          {2, 3, 1.0f, Rel::kCitesOut},
                          {0, 3, 1.0f, Rel::kRelated},
                          {1, 3, 0.4f, Rel::kCitesOut},
                          {3, 4, 1.0f, Rel::kCitesOut},
                          {4, 5, 1.0f, Rel::kCitesOut}});
}

double EdgeW(const Subgraph& g, uint32_t a, uint32_t b, Rel* rel = nullptr) {
  for (uint64_t k = g.offsets[a]; k < g.offsets[a + 1]; ++k)
    if (g.nbr[k] == b) {
      if (rel) *rel = static_cast<Rel>(g.rel[k]);
      return g.weight[k];
    }
  return -1;
}

double Out(const Subgraph& g, uint32_t a) {
  double s = 0;
  for (uint64_t k = g.offsets[a]; k < g.offsets[a + 1]; ++k) s += g.weight[k];
  return s;
}

// Checks the documented shape of every path to `target`.
void CheckPaths(const Subgraph& g, const std::vector<Seed>& seeds, uint32_t target,
                const std::vector<ExplainPath>& paths, size_t max_paths) {
  std::set<uint32_t> seed_locals;
  for (const Seed& s : seeds)
    if (g.Find(s.node) >= 0 && s.weight > 0)
      seed_locals.insert(static_cast<uint32_t>(g.Find(s.node)));
  EXPECT_LE(paths.size(), max_paths);
  for (size_t i = 0; i < paths.size(); ++i) {
    const ExplainPath& p = paths[i];
    ASSERT_FALSE(p.nodes.empty());
    EXPECT_TRUE(seed_locals.count(p.nodes.front())) << "path " << i << " does not start at a seed";
    EXPECT_EQ(p.nodes.back(), target);
    EXPECT_LE(p.nodes.size(), 3u) << "more than 2 hops";
    ASSERT_EQ(p.rels.size(), p.nodes.size() - 1);
    for (size_t k = 0; k + 1 < p.nodes.size(); ++k) {
      Rel r;
      EXPECT_GT(EdgeW(g, p.nodes[k], p.nodes[k + 1], &r), 0) << "not adjacent";
      EXPECT_EQ(r, p.rels[k]);
    }
    EXPECT_GT(p.strength, 0);
    if (i > 0) {
      EXPECT_GE(paths[i - 1].strength, p.strength) << "not sorted by strength";
    }
  }
}

TEST(ExplainTest, PathsAndStrengthsOnAHandGraph) {
  Subgraph g = ExplainGraph();
  std::vector<Seed> seeds = {{PaperNode(0), 3.0}, {PaperNode(1), 1.0}};
  // Target 3: 0 -> 3, 0 -> 2 -> 3, 1 -> 3, 1 -> 2 -> 3 (strength = seed share x
  // transition probabilities along the path).
  const double w0 = Out(g, 0), w1 = Out(g, 1), w2 = Out(g, 2);
  ASSERT_DOUBLE_EQ(w0, 2.0);
  ASSERT_NEAR(w1, 2.4, 1e-6);
  ASSERT_DOUBLE_EQ(w2, 4.0);
  std::vector<std::pair<std::vector<uint32_t>, double>> want = {
      {{0, 3}, 0.75 * 1.0 / w0},
      {{0, 2, 3}, 0.75 * (1.0 / w0) * (1.0 / w2)},
      {{1, 3}, 0.25 * 0.4f / w1},
      {{1, 2, 3}, 0.25 * (2.0 / w1) * (1.0 / w2)},
  };
  std::sort(want.begin(), want.end(),
            [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<ExplainPath> all = Explain(g, seeds, 3, 10);
  ASSERT_EQ(all.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(all[i].nodes, want[i].first) << i;
    EXPECT_NEAR(all[i].strength, want[i].second, 1e-15) << i;
  }
  CheckPaths(g, seeds, 3, all, 10);
  EXPECT_EQ(all[0].rels, std::vector<Rel>{Rel::kRelated});
  // The default keeps the three strongest.
  std::vector<ExplainPath> top = Explain(g, seeds, 3);
  ASSERT_EQ(top.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(top[i].nodes, all[i].nodes);
  CheckPaths(g, seeds, 3, top, 3);
}

TEST(ExplainTest, SeedsExplainThemselvesAndFarNodesHaveNoPath) {
  Subgraph g = ExplainGraph();
  std::vector<Seed> seeds = {{PaperNode(0), 3.0}, {PaperNode(1), 1.0}};
  std::vector<ExplainPath> self = Explain(g, seeds, 0);
  ASSERT_FALSE(self.empty());
  EXPECT_EQ(self[0].nodes, std::vector<uint32_t>{0});
  EXPECT_DOUBLE_EQ(self[0].strength, 0.75);
  CheckPaths(g, seeds, 0, self, 3);
  for (const ExplainPath& p : self)
    EXPECT_FALSE(p.nodes.size() > 1 && p.nodes[0] == 0) << "a seed looping back to itself";
  EXPECT_TRUE(Explain(g, seeds, 5).empty()) << "node 5 is three hops away";
  // Node 4 is two hops from both seeds through 3.
  std::vector<ExplainPath> four = Explain(g, seeds, 4);
  ASSERT_EQ(four.size(), 2u);
  CheckPaths(g, seeds, 4, four, 3);
  EXPECT_EQ(four[0].nodes, (std::vector<uint32_t>{0, 3, 4}));
  EXPECT_EQ(four[1].nodes, (std::vector<uint32_t>{1, 3, 4}));
  // No seed in the subgraph: no path.
  EXPECT_TRUE(Explain(g, {{PaperNode(77), 1.0}}, 3).empty());
}

TEST(ExplainTest, EveryNodeOfARandomGraphFollowsTheContract) {
  std::vector<E> edges;
  uint32_t x = 12345;
  auto next = [&] { return x = x * 1103515245u + 12345u, (x >> 16) & 0x7fff; };
  std::set<std::pair<int, int>> seen;
  for (int i = 0; i < 60; ++i) {
    int a = next() % 20, b = next() % 20;
    if (a == b || seen.count({std::min(a, b), std::max(a, b)})) continue;
    seen.insert({std::min(a, b), std::max(a, b)});
    edges.push_back(
        {a, b, 0.25f + (next() % 8) * 0.25f, (next() % 2) ? Rel::kCitesOut : Rel::kRelated});
  }
  Subgraph g = MakeSubgraph(20, edges);
  std::vector<Seed> seeds = {{PaperNode(0), 1.0}, {PaperNode(7), 2.0}, {PaperNode(13), 0.5}};
  for (uint32_t t = 0; t < 20; ++t) CheckPaths(g, seeds, t, Explain(g, seeds, t), 3);
}

// ---- BuildSubgraph on real stores -------------------------------------------------

std::string Native(const std::string& id, const std::string& title, json extra = json::object()) {
  json j = {{"id", id}, {"title", title}};
  for (auto& [k, v] : extra.items()) j[k] = v;
  return j.dump();
}

std::unique_ptr<Store> Build(const ScopedTempDir& tmp, const std::vector<std::string>& records) {
  std::string text;
  for (const auto& r : records) text += r + "\n";
  const std::string file = tmp.File("records.jsonl");
  WriteFile(file, text);
  auto s = Store::Open(tmp.File("store"), Store::Mode::kWrite, /*create=*/true);
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (!s.ok()) return nullptr;
  IngestOptions options;
  IngestStats stats;
  Status st = Ingest(s.value().get(), {file}, options, &stats);
  EXPECT_TRUE(st.ok()) << st.message();
  return std::move(s.value());
}

std::unique_ptr<Graph> OpenGraph(Store* store) {
  auto g = Graph::Open(store);
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(g.value()) : nullptr;
}

uint32_t PaperId(Store* s, const std::string& ext) {
  auto id = s->PaperByExtId(ext);
  EXPECT_TRUE(id.has_value()) << ext;
  return id ? static_cast<uint32_t>(*id) : 0;
}

uint32_t AuthorId(Store* s, const std::string& name) {
  Stmt st = s->db().Prepare("SELECT id FROM author WHERE name = ?");
  st.Bind(1, name);
  EXPECT_TRUE(st.Step()) << name;
  return static_cast<uint32_t>(st.Int(0));
}

NodeRef P(uint32_t id) { return {NodeType::kPaper, id}; }
NodeRef A(uint32_t id) { return {NodeType::kAuthor, id}; }
NodeRef K(uint32_t id) { return {NodeType::kKeyword, id}; }

std::set<uint32_t> AtHop(const Subgraph& g, NodeType t, int hop) {
  std::set<uint32_t> out;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].type == t && g.hop[i] == hop) out.insert(g.nodes[i].id);
  return out;
}

std::optional<std::pair<float, Rel>> EdgeOf(const Subgraph& g, NodeRef a, NodeRef b) {
  int la = g.Find(a), lb = g.Find(b);
  if (la < 0 || lb < 0) return std::nullopt;
  for (uint64_t k = g.offsets[la]; k < g.offsets[la + 1]; ++k)
    if (g.nbr[k] == static_cast<uint32_t>(lb))
      return std::make_pair(g.weight[k], static_cast<Rel>(g.rel[k]));
  return std::nullopt;
}

// Structural invariants of every subgraph: CSR shape, the local map, no self
// loops, one entry per neighbour, and undirected edges (each edge in both
// endpoints' lists with the same weight and relation). Nodes at the last hop
// are the boundary: no edge joins two of them (their adjacency is not read).
void CheckStructure(const Subgraph& g, int hops) {
  const size_t n = g.nodes.size();
  ASSERT_EQ(g.hop.size(), n);
  ASSERT_EQ(g.offsets.size(), n + 1);
  ASSERT_EQ(g.local.size(), n);
  ASSERT_EQ(g.nbr.size(), g.offsets[n]);
  ASSERT_EQ(g.weight.size(), g.nbr.size());
  ASSERT_EQ(g.rel.size(), g.nbr.size());
  EXPECT_EQ(g.nbr.size() % 2, 0u);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(g.Find(g.nodes[i]), static_cast<int>(i));
    EXPECT_GE(g.hop[i], 0);
    EXPECT_LE(g.hop[i], hops);
  }
  for (uint32_t u = 0; u < n; ++u) {
    std::set<uint32_t> nb;
    for (uint64_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      uint32_t v = g.nbr[k];
      ASSERT_LT(v, n);
      EXPECT_NE(v, u) << "self loop";
      EXPECT_TRUE(nb.insert(v).second) << "parallel entries not merged";
      EXPECT_GT(g.weight[k], 0);
      EXPECT_FALSE(g.hop[u] == hops && g.hop[v] == hops) << "edge between two boundary nodes";
      bool back = false;
      for (uint64_t j = g.offsets[v]; j < g.offsets[v + 1]; ++j)
        if (g.nbr[j] == u) {
          back = true;
          EXPECT_EQ(g.weight[j], g.weight[k]);
          EXPECT_EQ(g.rel[j], g.rel[k]);
        }
      EXPECT_TRUE(back) << "edge " << u << " - " << v << " only in one list";
    }
  }
}

std::string StarAuthor(int i) {
  char name[32];
  std::snprintf(name, sizeof name, "Star Author %02d", i);
  return name;
}

// A seed paper S by 12 authors, cited by 50 papers C01..C50 whose citation
// counts repeat (ties broken by id).
std::vector<std::string> StarRecords() {
  std::vector<std::string> recs;
  json authors = json::array();
  for (int i = 1; i <= 12; ++i) authors.push_back(StarAuthor(i));
  recs.push_back(
      Native("S", "The seed paper of the star", {{"authors", authors}, {"cited_by_count", 50}}));
  for (int i = 1; i <= 50; ++i) {
    char id[8];
    std::snprintf(id, sizeof id, "C%02d", i);
    recs.push_back(Native(id, std::string("Citing paper number ") + id,
                          {{"references", json::array({"S"})}, {"cited_by_count", (i * 7) % 11}}));
  }
  return recs;
}

// The 10 citing papers the documented rule keeps: all tie on weight (CITES
// 1.0), so the most cited, then the smaller ids.
std::set<uint32_t> ExpectedStarPapers(Store* store, Graph* graph, size_t cap) {
  std::vector<std::pair<uint32_t, uint32_t>> citing;  // (citations, id)
  for (int i = 1; i <= 50; ++i) {
    char id[8];
    std::snprintf(id, sizeof id, "C%02d", i);
    uint32_t pid = PaperId(store, id);
    EXPECT_EQ(graph->Citations(pid), static_cast<uint32_t>((i * 7) % 11))
        << "the record's count is used";
    citing.push_back({static_cast<uint32_t>((i * 7) % 11), pid});
  }
  std::sort(citing.begin(), citing.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::set<uint32_t> want;
  for (size_t i = 0; i < cap; ++i) want.insert(citing[i].second);
  return want;
}

TEST(BuildSubgraphTest, PerHopCapLimitsNewNodesPerTypePerHop) {
  ScopedTempDir tmp;
  auto store = Build(tmp, StarRecords());
  ASSERT_TRUE(store);
  auto graph = OpenGraph(store.get());
  ASSERT_TRUE(graph);
  const uint32_t s = PaperId(store.get(), "S");
  // Authors tie on AUTHORED 0.8 and have no citation counts: the smaller ids.
  std::vector<uint32_t> authors;
  for (int i = 1; i <= 12; ++i) authors.push_back(AuthorId(store.get(), StarAuthor(i)));
  std::sort(authors.begin(), authors.end());
  std::set<uint32_t> want_authors(authors.begin(), authors.begin() + 10);

  RwrParams p;
  p.per_hop_cap = 10;
  p.hops = 1;
  Subgraph g = MustBuild(*graph, {{P(s), 1.0}}, p);
  CheckStructure(g, 1);
  EXPECT_EQ(AtHop(g, NodeType::kPaper, 0), std::set<uint32_t>{s});
  EXPECT_EQ(AtHop(g, NodeType::kPaper, 1).size(), 10u) << "exactly the cap of papers";
  EXPECT_EQ(AtHop(g, NodeType::kAuthor, 1), want_authors) << "and of authors, by the tie rule";
  EXPECT_EQ(g.nodes.size(), 21u);
  EXPECT_EQ(g.edges(), 20u) << "a star: every hop-1 node linked to the seed only";
  // Without a binding cap every neighbour is kept.
  p.per_hop_cap = 500;
  Subgraph all = MustBuild(*graph, {{P(s), 1.0}}, p);
  CheckStructure(all, 1);
  EXPECT_EQ(AtHop(all, NodeType::kPaper, 1).size(), 50u);
  EXPECT_EQ(AtHop(all, NodeType::kAuthor, 1).size(), 12u);
  // A cap of 1: one node of each type; the author with the smallest id.
  p.per_hop_cap = 1;
  Subgraph one = MustBuild(*graph, {{P(s), 1.0}}, p);
  EXPECT_EQ(AtHop(one, NodeType::kPaper, 1).size(), 1u);
  EXPECT_EQ(AtHop(one, NodeType::kAuthor, 1), std::set<uint32_t>{authors[0]});
}

// Regression test for a fixed bug (lib/src/rwr.cc, BuildSubgraph / EdgeReader::Strongest): the
// documented tie rule (rwr.h, rwr-rank's man page: strongest edge, then the
// node's citation count, then the smaller id) is not applied when the
// candidates of one relation list tie on weight beyond the cap: Strongest()
// cuts each neighbour list to per_hop_cap entries by (weight, smaller id)
// before citation counts are read, so the citation tie-break only sees the
// survivors. Input: paper S cited by C01..C50 (CITES 1.0 each, record
// cited_by_count (i x 7) mod 11), seed S, per_hop_cap 10, hops 1. Expected
// hop-1 papers: the 10 most cited (counts 10, 10, 10, 10, 9, ...: dense ids
// {4, 7, 15, 18, 26, 29, 37, 40, 48, 51}); actual: the 10 smallest ids
// {2..11} whatever their citations. With per_hop_cap 1 the expected paper is
// the most cited one (id 4), actual id 2.
TEST(BuildSubgraphTest, PerHopCapBreaksWeightTiesByCitationCount) {
  ScopedTempDir tmp;
  auto store = Build(tmp, StarRecords());
  ASSERT_TRUE(store);
  auto graph = OpenGraph(store.get());
  ASSERT_TRUE(graph);
  const uint32_t s = PaperId(store.get(), "S");
  RwrParams p;
  p.hops = 1;
  for (size_t cap : {10u, 1u, 25u}) {
    p.per_hop_cap = cap;
    Subgraph g = MustBuild(*graph, {{P(s), 1.0}}, p);
    EXPECT_EQ(AtHop(g, NodeType::kPaper, 1), ExpectedStarPapers(store.get(), graph.get(), cap))
        << cap;
  }
}

TEST(BuildSubgraphTest, TheStrongestEdgeWinsTheCap) {
  // S cites A (CITES 1.0) and is related to B (RELATED_TO 0.9): with one
  // paper per hop, A; with RELATED_TO at 1.5, B.
  ScopedTempDir tmp;
  auto store =
      Build(tmp, {Native("S", "Seed paper",
                         {{"references", json::array({"A"})}, {"related", json::array({"B"})}}),
                  Native("A", "Cited paper", {{"cited_by_count", 0}}),
                  Native("B", "Related paper", {{"cited_by_count", 1000}})});
  ASSERT_TRUE(store);
  auto graph = OpenGraph(store.get());
  ASSERT_TRUE(graph);
  const uint32_t s = PaperId(store.get(), "S"), a = PaperId(store.get(), "A"),
                 b = PaperId(store.get(), "B");
  RwrParams p;
  p.per_hop_cap = 1;
  Subgraph g = MustBuild(*graph, {{P(s), 1.0}}, p);
  EXPECT_EQ(AtHop(g, NodeType::kPaper, 1), std::set<uint32_t>{a}) << "weight before citations";
  p.beta_rel = 1.5;
  g = MustBuild(*graph, {{P(s), 1.0}}, p);
  EXPECT_EQ(AtHop(g, NodeType::kPaper, 1), std::set<uint32_t>{b});
  p.per_hop_cap = 2;
  g = MustBuild(*graph, {{P(s), 1.0}}, p);
  EXPECT_EQ(AtHop(g, NodeType::kPaper, 1), (std::set<uint32_t>{a, b}));
}

TEST(BuildSubgraphTest, HopsSetTheRadius) {
  // A -> B -> C -> D, B -> E, C -> E (references). From A: B at hop 1, C and E
  // at hop 2, D at hop 3.
  ScopedTempDir tmp;
  auto store = Build(tmp, {Native("A", "Paper A", {{"references", json::array({"B"})}}),
                           Native("B", "Paper B", {{"references", json::array({"C", "E"})}}),
                           Native("C", "Paper C", {{"references", json::array({"D", "E"})}}),
                           Native("D", "Paper D"), Native("E", "Paper E")});
  ASSERT_TRUE(store);
  auto graph = OpenGraph(store.get());
  ASSERT_TRUE(graph);
  auto id = [&](const char* e) { return PaperId(store.get(), e); };
  RwrParams p;
  p.hops = 1;
  Subgraph g1 = MustBuild(*graph, {{P(id("A")), 1.0}}, p);
  CheckStructure(g1, 1);
  EXPECT_EQ(AtHop(g1, NodeType::kPaper, 1), std::set<uint32_t>{id("B")});
  EXPECT_EQ(g1.nodes.size(), 2u);
  EXPECT_EQ(g1.edges(), 1u);
  p.hops = 2;
  Subgraph g2 = MustBuild(*graph, {{P(id("A")), 1.0}}, p);
  CheckStructure(g2, 2);
  EXPECT_EQ(AtHop(g2, NodeType::kPaper, 2), (std::set<uint32_t>{id("C"), id("E")}));
  EXPECT_EQ(g2.Find(P(id("D"))), -1);
  EXPECT_EQ(g2.edges(), 3u) << "A-B, B-C, B-E; C-E joins two boundary nodes";
  EXPECT_FALSE(EdgeOf(g2, P(id("C")), P(id("E"))).has_value());
  p.hops = 3;
  Subgraph g3 = MustBuild(*graph, {{P(id("A")), 1.0}}, p);
  CheckStructure(g3, 3);
  EXPECT_EQ(AtHop(g3, NodeType::kPaper, 3), std::set<uint32_t>{id("D")});
  EXPECT_TRUE(EdgeOf(g3, P(id("C")), P(id("E"))).has_value());
  EXPECT_EQ(g3.edges(), 5u);
  // Two seeds: both at hop 0, shared neighbours once.
  p.hops = 1;
  Subgraph two = MustBuild(*graph, {{P(id("A")), 1.0}, {P(id("C")), 1.0}, {P(id("A")), 2.0}}, p);
  CheckStructure(two, 1);
  EXPECT_EQ(AtHop(two, NodeType::kPaper, 0), (std::set<uint32_t>{id("A"), id("C")}));
  EXPECT_EQ(AtHop(two, NodeType::kPaper, 1), (std::set<uint32_t>{id("B"), id("D"), id("E")}));
}

TEST(BuildSubgraphTest, RelationsWithZeroWeightAreNotTraversed) {
  ScopedTempDir tmp;
  auto store = Build(tmp, StarRecords());
  ASSERT_TRUE(store);
  auto graph = OpenGraph(store.get());
  ASSERT_TRUE(graph);
  const uint32_t s = PaperId(store.get(), "S");
  RwrParams p;
  p.beta_cite = 0;
  Subgraph g = MustBuild(*graph, {{P(s), 1.0}}, p);
  CheckStructure(g, 2);
  EXPECT_TRUE(AtHop(g, NodeType::kPaper, 1).empty()) << "citing papers reached with beta_cite = 0";
  EXPECT_TRUE(AtHop(g, NodeType::kPaper, 2).empty());
  EXPECT_EQ(AtHop(g, NodeType::kAuthor, 1).size(), 12u);
  for (size_t k = 0; k < g.rel.size(); ++k) EXPECT_NE(static_cast<Rel>(g.rel[k]), Rel::kCitesOut);
  // Authorship off too: the seed alone, no edge, and the walk keeps its mass.
  p.beta_auth = 0;
  Subgraph alone = MustBuild(*graph, {{P(s), 1.0}}, p);
  EXPECT_EQ(alone.nodes.size(), 1u);
  EXPECT_EQ(alone.edges(), 0u);
  WalkResult w = RandomWalk(alone, {{P(s), 1.0}}, p);
  ASSERT_EQ(w.score.size(), 1u);
  EXPECT_DOUBLE_EQ(w.score[0], 1.0);
  // Citations only: 50 citing papers, no author.
  RwrParams c;
  c.beta_auth = 0;
  Subgraph cites = MustBuild(*graph, {{P(s), 1.0}}, c);
  EXPECT_EQ(AtHop(cites, NodeType::kPaper, 1).size(), 50u);
  EXPECT_TRUE(AtHop(cites, NodeType::kAuthor, 1).empty());
}

// A keyword layer written by hand, as keyword_store.cc writes one: Keyword
// nodes `texts`, HAS_KEYWORD links (paper, index into texts, score 1..10),
// paper counts, then the graph rebuilt with `options` (its keyword layer
// alone when `keywords_only`) in the same transaction. Returns the keywords'
// dense ids.
std::vector<uint32_t> WriteKeywordLayer(Store* s, const std::vector<std::string>& texts,
                                        const std::vector<std::tuple<uint32_t, size_t, int>>& links,
                                        const GraphBuildOptions& options,
                                        bool keywords_only = false) {
  Db& db = s->db();
  Transaction txn(&db, "IMMEDIATE");
  std::vector<uint32_t> ids;
  Stmt add = db.Prepare("INSERT INTO keyword(ext_id, text) VALUES(?, ?)");
  for (const std::string& t : texts) {
    add.Reset();
    add.Bind(1, "kw:" + t).Bind(2, t).Exec();
    ids.push_back(static_cast<uint32_t>(db.LastInsertRowid()));
  }
  Stmt link = db.Prepare(
      "INSERT OR IGNORE INTO paper_keyword(paper_id, keyword_id, score) VALUES(?, ?, ?)");
  for (auto [p, k, score] : links) {
    link.Reset();
    link.Bind(1, static_cast<int64_t>(p))
        .Bind(2, static_cast<int64_t>(ids[k]))
        .Bind(3, score)
        .Exec();
  }
  db.Exec(
      "UPDATE keyword SET paper_count = (SELECT count(*) FROM paper_keyword WHERE keyword_id = "
      "keyword.id)");
  GraphBuildStats gs;
  Status st = keywords_only ? RebuildKeywordLayer(s, options) : BuildGraph(s, options, &gs);
  EXPECT_TRUE(st.ok()) << st.message();
  txn.Commit();
  return ids;
}

// Papers and authors for Table 2, and a keyword layer written by hand:
//  P1 by X, Y; cites and is related to P2; P5 cites P1.
//  P2, P3 by X, Y (X and Y share 3 papers); P4 by X, Z (1 paper);
//  Q1..Q8 by X, W (8 papers: ln 9 > c_max).
//  Keywords K1, K2 on P1, P2, P3 (scores below), so they co-occur 3 times.
struct Table2Store {
  ScopedTempDir tmp;
  std::unique_ptr<Store> store;
  std::unique_ptr<Graph> graph;
  uint32_t p1, p2, p3, p4, p5, x, y, z, w, k1, k2;
};

void MakeTable2Store(Table2Store* t) {
  std::vector<std::string> recs = {
      Native("P1", "First paper",
             {{"authors", json::array({"Xavier Xu", "Yara Young"})},
              {"references", json::array({"P2"})},
              {"related", json::array({"P2"})}}),
      Native("P2", "Second paper", {{"authors", json::array({"Xavier Xu", "Yara Young"})}}),
      Native("P3", "Third paper", {{"authors", json::array({"Xavier Xu", "Yara Young"})}}),
      Native("P4", "Fourth paper", {{"authors", json::array({"Xavier Xu", "Zed Zimmer"})}}),
      Native("P5", "Fifth paper", {{"references", json::array({"P1"})}}),
  };
  for (int i = 1; i <= 8; ++i)
    recs.push_back(Native("Q" + std::to_string(i), "Joint paper " + std::to_string(i),
                          {{"authors", json::array({"Xavier Xu", "Wanda Wu"})}}));
  t->store = Build(t->tmp, recs);
  ASSERT_TRUE(t->store);
  Store* s = t->store.get();
  t->p1 = PaperId(s, "P1");
  t->p2 = PaperId(s, "P2");
  t->p3 = PaperId(s, "P3");
  t->p4 = PaperId(s, "P4");
  t->p5 = PaperId(s, "P5");
  t->x = AuthorId(s, "Xavier Xu");
  t->y = AuthorId(s, "Yara Young");
  t->z = AuthorId(s, "Zed Zimmer");
  t->w = AuthorId(s, "Wanda Wu");
  GraphBuildOptions go;
  auto kw = WriteKeywordLayer(
      s, {"alpha topic", "beta topic"},
      {{t->p1, 0, 10}, {t->p1, 1, 4}, {t->p2, 0, 6}, {t->p2, 1, 5}, {t->p3, 0, 8}, {t->p3, 1, 3}},
      go, /*keywords_only=*/true);
  t->k1 = kw[0];
  t->k2 = kw[1];
  t->graph = OpenGraph(s);
  ASSERT_TRUE(t->graph);
}

void ExpectEdge(const Subgraph& g, NodeRef a, NodeRef b, double w, Rel rel,
                const std::string& what) {
  auto e = EdgeOf(g, a, b);
  ASSERT_TRUE(e.has_value()) << what << ": no edge";
  EXPECT_NEAR(e->first, w, 1e-6) << what;
  EXPECT_EQ(e->second, rel) << what;
}

TEST(BuildSubgraphTest, Table2EdgeWeights) {
  Table2Store t;
  MakeTable2Store(&t);
  ASSERT_TRUE(t.graph);
  RwrParams p;
  // Seeds: P1 and the keyword K1 with weight 0.8 (its kappa).
  Subgraph g = MustBuild(*t.graph, {{P(t.p1), 1.0}, {K(t.k1), 0.8}}, p);
  CheckStructure(g, 2);
  EXPECT_EQ(AtHop(g, NodeType::kPaper, 1), (std::set<uint32_t>{t.p2, t.p3, t.p5}));
  EXPECT_EQ(AtHop(g, NodeType::kAuthor, 1), (std::set<uint32_t>{t.x, t.y}));
  EXPECT_EQ(AtHop(g, NodeType::kKeyword, 1), std::set<uint32_t>{t.k2});
  EXPECT_EQ(AtHop(g, NodeType::kAuthor, 2), (std::set<uint32_t>{t.z, t.w}));
  // CITES 1.0; CITES + RELATED_TO between the same papers add up (1.9),
  // labelled by the stronger relation.
  ExpectEdge(g, P(t.p1), P(t.p5), 1.0, Rel::kCitesOut, "CITES");
  ExpectEdge(g, P(t.p1), P(t.p2), 1.0 + 0.9, Rel::kCitesOut, "CITES + RELATED_TO");
  // AUTHORED 0.8.
  ExpectEdge(g, P(t.p1), A(t.x), 0.8, Rel::kAuthors, "AUTHORED");
  ExpectEdge(g, A(t.y), P(t.p3), 0.8, Rel::kAuthors, "AUTHORED (from the author)");
  // COAUTHOR 0.6 max(1, min(2, ln(1 + n))).
  ExpectEdge(g, A(t.x), A(t.y), 0.6 * std::log(4.0), Rel::kCoauthor, "COAUTHOR n = 3");
  ExpectEdge(g, A(t.x), A(t.z), 0.6, Rel::kCoauthor, "COAUTHOR n = 1 (floor 1)");
  ExpectEdge(g, A(t.x), A(t.w), 0.6 * 2.0, Rel::kCoauthor, "COAUTHOR n = 8 (cap 2)");
  // HAS_KEYWORD 1.2 kappa score / 10: kappa = 0.8 for the seed K1, 0.25 for K2.
  ExpectEdge(g, P(t.p1), K(t.k1), 1.2 * 0.8 * 1.0, Rel::kKeywords, "HAS_KEYWORD seed 10");
  ExpectEdge(g, P(t.p2), K(t.k1), 1.2 * 0.8 * 0.6, Rel::kKeywords, "HAS_KEYWORD seed 6");
  ExpectEdge(g, P(t.p3), K(t.k1), 1.2 * 0.8 * 0.8, Rel::kKeywords, "HAS_KEYWORD seed 8");
  ExpectEdge(g, P(t.p1), K(t.k2), 1.2 * 0.25 * 0.4, Rel::kKeywords, "HAS_KEYWORD other 4");
  ExpectEdge(g, P(t.p2), K(t.k2), 1.2 * 0.25 * 0.5, Rel::kKeywords, "HAS_KEYWORD other 5");
  ExpectEdge(g, P(t.p3), K(t.k2), 1.2 * 0.25 * 0.3, Rel::kKeywords, "HAS_KEYWORD other 3");
  // COOCCUR 0.6 max(1, min(2, ln(1 + m))), m = 3 shared papers.
  ExpectEdge(g, K(t.k1), K(t.k2), 0.6 * std::log(4.0), Rel::kCooccur, "COOCCUR m = 3");
  // Nothing that Table 2 does not list: every edge is one of the above types.
  for (size_t k = 0; k < g.rel.size(); ++k) {
    Rel r = static_cast<Rel>(g.rel[k]);
    EXPECT_TRUE(r == Rel::kCitesOut || r == Rel::kRelated || r == Rel::kAuthors ||
                r == Rel::kCoauthor || r == Rel::kKeywords || r == Rel::kCooccur)
        << GetRelInfo(r).label;
  }
}

TEST(BuildSubgraphTest, WeightsFollowTheParameters) {
  Table2Store t;
  MakeTable2Store(&t);
  ASSERT_TRUE(t.graph);
  RwrParams p;
  p.beta_cite = 2.0;
  p.beta_rel = 0.5;
  p.beta_auth = 0.3;
  p.beta_coauth = 1.0;
  p.c_max = 1.5;
  p.beta_hk = 2.0;
  p.eps_kw = 0.1;
  p.beta_cooc = 0.2;
  Subgraph g = MustBuild(*t.graph, {{P(t.p1), 1.0}, {K(t.k1), 0.5}}, p);
  CheckStructure(g, 2);
  ExpectEdge(g, P(t.p1), P(t.p5), 2.0, Rel::kCitesOut, "CITES");
  ExpectEdge(g, P(t.p1), P(t.p2), 2.5, Rel::kCitesOut, "CITES + RELATED_TO");
  ExpectEdge(g, P(t.p1), A(t.x), 0.3, Rel::kAuthors, "AUTHORED");
  ExpectEdge(g, A(t.x), A(t.w), 1.5, Rel::kCoauthor, "COAUTHOR capped at c_max");
  ExpectEdge(g, A(t.x), A(t.y), 1.0 * std::log(4.0), Rel::kCoauthor, "COAUTHOR");
  ExpectEdge(g, P(t.p1), K(t.k1), 2.0 * 0.5 * 1.0, Rel::kKeywords, "HAS_KEYWORD seed");
  ExpectEdge(g, P(t.p2), K(t.k2), 2.0 * 0.1 * 0.5, Rel::kKeywords, "HAS_KEYWORD eps");
  ExpectEdge(g, K(t.k1), K(t.k2), 0.2 * std::log(4.0), Rel::kCooccur, "COOCCUR");
  // RELATED_TO alone when citations are off.
  p.beta_cite = 0;
  Subgraph r = MustBuild(*t.graph, {{P(t.p1), 1.0}}, p);
  ExpectEdge(r, P(t.p1), P(t.p2), 0.5, Rel::kRelated, "RELATED_TO");
  EXPECT_EQ(r.Find(P(t.p5)), -1);
}

// ---- BuildSubgraph against a direct reference --------------------------------
//
// The reference reads every full adjacency list (no ranked files, no floors,
// no threads): per hop, each new neighbour's strongest edge from the frontier,
// the per-type cap by (weight, citations, id); then every edge with an
// expanded end, each relation once per pair, relations adding up.

const std::vector<Rel>& RefRels(NodeType t) {
  static const std::vector<Rel> kPaper = {Rel::kCitesOut, Rel::kCitesIn, Rel::kRelated,
                                          Rel::kAuthors, Rel::kKeywords};
  static const std::vector<Rel> kAuthor = {Rel::kAuthoredPapers, Rel::kCoauthor};
  static const std::vector<Rel> kKeyword = {Rel::kKeywordPapers, Rel::kCooccur};
  static const std::vector<Rel> kNone;
  return t == NodeType::kPaper     ? kPaper
         : t == NodeType::kAuthor  ? kAuthor
         : t == NodeType::kKeyword ? kKeyword
                                   : kNone;
}

// Table 2 at the default parameters, as floats the same way the library rounds them.
float RefWeight(const RwrParams& p, const std::map<uint32_t, double>& kappa, Rel r, NodeRef u,
                NodeRef v, uint32_t a) {
  auto count_w = [&](double beta) {
    return static_cast<float>(beta * std::max(1.0, std::min(p.c_max, std::log(1.0 + a))));
  };
  switch (r) {
    case Rel::kCitesOut:
    case Rel::kCitesIn:
      return static_cast<float>(p.beta_cite);
    case Rel::kRelated:
      return static_cast<float>(p.beta_rel);
    case Rel::kAuthors:
    case Rel::kAuthoredPapers:
      return static_cast<float>(p.beta_auth);
    case Rel::kCoauthor:
      return count_w(p.beta_coauth);
    case Rel::kCooccur:
      return count_w(p.beta_cooc);
    case Rel::kKeywords:
    case Rel::kKeywordPapers: {
      uint32_t kw = r == Rel::kKeywords ? v.id : u.id;
      auto it = kappa.find(kw);
      return static_cast<float>(p.beta_hk * (it != kappa.end() ? it->second : p.eps_kw) *
                                (a / 10.0));
    }
    default:
      return 0;
  }
}

uint8_t RefCanonical(Rel r) {
  switch (r) {
    case Rel::kCitesIn:
      return static_cast<uint8_t>(Rel::kCitesOut);
    case Rel::kAuthoredPapers:
      return static_cast<uint8_t>(Rel::kAuthors);
    case Rel::kKeywordPapers:
      return static_cast<uint8_t>(Rel::kKeywords);
    default:
      return static_cast<uint8_t>(r);
  }
}

struct RefSubgraph {
  std::map<NodeRef, int> hop;
  std::map<std::pair<NodeRef, NodeRef>, double> edges;  // (smaller, larger) -> summed weight
  // (smaller, larger) -> the strongest relation (the smaller of equals)
  std::map<std::pair<NodeRef, NodeRef>, uint8_t> rel;
};

RefSubgraph ReferenceSubgraph(Graph& graph, const std::vector<Seed>& seeds, const RwrParams& p) {
  std::map<uint32_t, double> kappa;
  for (const Seed& s : seeds)
    if (s.node.type == NodeType::kKeyword) kappa[s.node.id] = std::max(kappa[s.node.id], s.weight);
  RefSubgraph out;
  std::vector<NodeRef> frontier;
  for (const Seed& s : seeds)
    if (out.hop.emplace(s.node, 0).second) frontier.push_back(s.node);
  for (int h = 1; h <= p.hops && !frontier.empty(); ++h) {
    // Each node at its strongest edge: weight, then the tie-break strength
    // (citations of a paper; joint papers of a COAUTHOR or COOCCUR edge).
    std::map<NodeRef, std::pair<float, uint32_t>> best;
    for (NodeRef u : frontier)
      for (Rel r : RefRels(u.type)) {
        auto l = graph.adj(r).Neighbours(u.id);
        for (size_t i = 0; i < l.size(); ++i) {
          NodeRef v{GetRelInfo(r).to, l.ids[i]};
          if (v == u || out.hop.count(v)) continue;
          uint32_t a = l.attrs.empty() ? 0 : l.attrs[i];
          float w = RefWeight(p, kappa, r, u, v, a);
          uint32_t tie = v.type == NodeType::kPaper                  ? graph.Citations(v.id)
                         : r == Rel::kCoauthor || r == Rel::kCooccur ? a
                                                                     : 0u;
          if (w > 0 && (!best.count(v) || std::make_pair(w, tie) > best[v])) best[v] = {w, tie};
        }
      }
    std::map<NodeType, std::vector<std::tuple<float, uint32_t, uint32_t>>> by_type;
    for (auto [v, key] : best) by_type[v.type].emplace_back(key.first, key.second, v.id);
    frontier.clear();
    for (auto& [t, cs] : by_type) {
      std::sort(cs.begin(), cs.end(), [](const auto& a, const auto& b) {
        if (std::get<0>(a) != std::get<0>(b)) return std::get<0>(a) > std::get<0>(b);
        if (std::get<1>(a) != std::get<1>(b)) return std::get<1>(a) > std::get<1>(b);
        return std::get<2>(a) < std::get<2>(b);
      });
      for (size_t i = 0; i < std::min(cs.size(), p.per_hop_cap); ++i) {
        NodeRef v{t, std::get<2>(cs[i])};
        out.hop[v] = h;
        frontier.push_back(v);
      }
    }
  }
  std::map<std::tuple<NodeRef, NodeRef, uint8_t>, float> per_rel;
  for (auto [u, hu] : out.hop) {
    if (hu >= p.hops) continue;  // boundary: not expanded
    for (Rel r : RefRels(u.type)) {
      auto l = graph.adj(r).Neighbours(u.id);
      for (size_t i = 0; i < l.size(); ++i) {
        NodeRef v{GetRelInfo(r).to, l.ids[i]};
        if (v == u || !out.hop.count(v)) continue;
        float w = RefWeight(p, kappa, r, u, v, l.attrs.empty() ? 0 : l.attrs[i]);
        if (w <= 0) continue;
        auto k = std::make_tuple(std::min(u, v), std::max(u, v), RefCanonical(r));
        per_rel[k] = std::max(per_rel[k], w);
      }
    }
  }
  std::map<std::pair<NodeRef, NodeRef>, float> best;
  for (auto& [k, w] : per_rel) {  // in relation order within a pair
    const std::pair<NodeRef, NodeRef> pair{std::get<0>(k), std::get<1>(k)};
    out.edges[pair] += w;
    if (!best.count(pair) || w > best[pair]) {
      best[pair] = w;
      out.rel[pair] = std::get<2>(k);
    }
  }
  return out;
}

// A random store with hubs (built with ranked lists of 6, so hubs have
// them): papers cite earlier ones with preferential attachment, a prolific
// author and a team whose members share many papers, few distinct citation
// counts (ties), and a keyword layer where popular keywords co-occur often
// (COAUTHOR and COOCCUR weights saturate: ties broken by the joint count).
struct RandomStore {
  ScopedTempDir tmp;
  std::unique_ptr<Store> store;
  std::unique_ptr<Graph> graph;
  uint32_t papers = 0, authors = 0, keywords = 0;
};

void MakeRandomStore(RandomStore* t, uint32_t seed) {
  std::mt19937 rng(seed);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int n = 160;
  std::vector<std::string> recs;
  std::vector<int> cited_weight(n, 1);
  for (int i = 0; i < n; ++i) {
    json refs = json::array(), related = json::array(), authors = json::array();
    std::set<int> rs;
    for (int k = 0; k < std::min(i, uni(0, 6)); ++k) {
      std::discrete_distribution<int> pick(cited_weight.begin(), cited_weight.begin() + i);
      rs.insert(pick(rng));
    }
    if (i > 3 && uni(0, 9) == 0) rs.insert(i + 1 < n ? i + 1 : 0);  // a citation forward: cycles
    for (int r : rs) {
      refs.push_back("W" + std::to_string(r));
      cited_weight[r] += 3;
    }
    if (i > 0 && uni(0, 3) == 0) related.push_back("W" + std::to_string(uni(0, i - 1)));
    std::set<int> as;
    if (uni(0, 2) == 0) as.insert(0);  // the prolific author
    for (int k = 0; k < uni(1, 3); ++k)
      as.insert(uni(0, 1) ? uni(1, 6) : uni(7, 30));  // 1-6: a team
    for (int a : as) authors.push_back("Random Author " + std::to_string(a));
    recs.push_back(Native("W" + std::to_string(i), "Random paper " + std::to_string(i),
                          {{"references", refs},
                           {"related", related},
                           {"authors", authors},
                           {"cited_by_count", uni(0, 4)}}));
  }
  t->store = Build(t->tmp, recs);
  ASSERT_TRUE(t->store);
  Store* s = t->store.get();
  const int nk = 10;
  std::vector<std::string> texts;
  for (int k = 0; k < nk; ++k) texts.push_back(fmt::format("topic {}", k));
  std::vector<std::tuple<uint32_t, size_t, int>> links;
  for (int i = 0; i < n; ++i) {
    uint32_t pid = PaperId(s, "W" + std::to_string(i));
    for (int k = 0; k < uni(1, 4); ++k) {
      int kw = std::min(uni(0, nk - 1), uni(0, nk - 1));  // low keywords are popular
      links.emplace_back(pid, static_cast<size_t>(kw), uni(1, 10));
    }
  }
  GraphBuildOptions go;
  go.ranked_length = 6;  // short ranked lists, so that hubs have them
  WriteKeywordLayer(s, texts, links, go);
  t->graph = OpenGraph(s);
  ASSERT_TRUE(t->graph);
  t->papers = static_cast<uint32_t>(s->MaxId(NodeType::kPaper));
  t->authors = static_cast<uint32_t>(s->MaxId(NodeType::kAuthor));
  t->keywords = static_cast<uint32_t>(s->MaxId(NodeType::kKeyword));
}

TEST(BuildSubgraphTest, MatchesAReferenceOnRandomStores) {
  int ranked_lists = 0;
  for (uint32_t store_seed : {1u, 2u, 3u}) {
    RandomStore t;
    MakeRandomStore(&t, store_seed);
    ASSERT_TRUE(t.graph);
    for (Rel r :
         {Rel::kCitesIn, Rel::kKeywordPapers, Rel::kAuthoredPapers, Rel::kCoauthor, Rel::kCooccur})
      ranked_lists += static_cast<int>(t.graph->ranked(r).lists());
    std::mt19937 rng(store_seed * 7919);
    auto uni = [&](uint32_t lo, uint32_t hi) {
      return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
    };
    for (int q = 0; q < 40; ++q) {
      std::vector<Seed> seeds;
      for (uint32_t k = 0, m = uni(1, 4); k < m; ++k)
        seeds.push_back({P(uni(1, t.papers)), 0.1 + uni(0, 9) / 10.0});
      if (q % 3 == 0) seeds.push_back({K(uni(1, t.keywords)), 0.2 + uni(0, 12) / 10.0});
      if (q % 4 == 0) seeds.push_back({A(uni(1, t.authors)), 0.5});
      RwrParams p;
      p.per_hop_cap = std::vector<size_t>{1, 2, 3, 5, 8, 20, 500}[q % 7];
      p.threads = q % 2 ? 2 : 1;
      RefSubgraph want = ReferenceSubgraph(*t.graph, seeds, p);
      Subgraph g = MustBuild(*t.graph, seeds, p);
      CheckStructure(g, p.hops);
      const std::string what =
          fmt::format("store {} query {} cap {}", store_seed, q, p.per_hop_cap);
      std::map<NodeRef, int> got;
      for (size_t i = 0; i < g.nodes.size(); ++i) got[g.nodes[i]] = g.hop[i];
      ASSERT_EQ(got, want.hop) << what;
      std::map<std::pair<NodeRef, NodeRef>, double> got_edges;
      std::map<std::pair<NodeRef, NodeRef>, uint8_t> got_rel;
      for (uint32_t a = 0; a < g.nodes.size(); ++a)
        for (uint64_t k = g.offsets[a]; k < g.offsets[a + 1]; ++k)
          if (a < g.nbr[k]) {
            const std::pair<NodeRef, NodeRef> pair{std::min(g.nodes[a], g.nodes[g.nbr[k]]),
                                                   std::max(g.nodes[a], g.nodes[g.nbr[k]])};
            got_edges[pair] = g.weight[k];
            got_rel[pair] = g.rel[k];
          }
      ASSERT_EQ(got_edges.size(), want.edges.size()) << what;
      ASSERT_EQ(got_rel, want.rel) << what;
      for (auto& [k, w] : want.edges) {
        auto it = got_edges.find(k);
        ASSERT_NE(it, got_edges.end()) << what;
        EXPECT_NEAR(it->second, w, 1e-5) << what;
      }
    }
  }
  EXPECT_GT(ranked_lists, 30) << "the stores should exercise ranked lists";
}

// Two threads give the subgraph of one, also when AUTHORED weights read the
// authors relation's degrees (author_position_boost: both directions of
// AUTHORED must then belong to one thread).
TEST(BuildSubgraphTest, TwoThreadsMatchOneWithAuthorPositionBoost) {
  RandomStore t;
  MakeRandomStore(&t, 5);
  ASSERT_TRUE(t.graph);
  std::mt19937 rng(4242);
  auto uni = [&](uint32_t lo, uint32_t hi) {
    return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
  };
  int boosted = 0;  // queries whose weights the boost changed
  for (int q = 0; q < 20; ++q) {
    std::vector<Seed> seeds;
    for (uint32_t k = 0, m = uni(1, 4); k < m; ++k)
      seeds.push_back({P(uni(1, t.papers)), 0.1 + uni(0, 9) / 10.0});
    if (q % 2 == 0) seeds.push_back({A(uni(1, t.authors)), 0.5});
    RwrParams p;
    p.author_position_boost = 1.5;
    p.per_hop_cap = std::vector<size_t>{2, 5, 20, 500}[q % 4];
    p.threads = 1;
    Subgraph one = MustBuild(*t.graph, seeds, p);
    p.threads = 2;
    Subgraph two = MustBuild(*t.graph, seeds, p);
    auto edges = [](const Subgraph& g) {
      std::map<std::pair<NodeRef, NodeRef>, std::pair<float, uint8_t>> out;
      for (uint32_t a = 0; a < g.nodes.size(); ++a)
        for (uint64_t k = g.offsets[a]; k < g.offsets[a + 1]; ++k)
          out[{g.nodes[a], g.nodes[g.nbr[k]]}] = {g.weight[k], g.rel[k]};
      return out;
    };
    std::map<NodeRef, int> h1, h2;
    for (size_t i = 0; i < one.nodes.size(); ++i) h1[one.nodes[i]] = one.hop[i];
    for (size_t i = 0; i < two.nodes.size(); ++i) h2[two.nodes[i]] = two.hop[i];
    ASSERT_EQ(h1, h2) << "query " << q;
    ASSERT_EQ(edges(one), edges(two)) << "query " << q;
    p.author_position_boost = 1.0;
    boosted += edges(MustBuild(*t.graph, seeds, p)) != edges(one);
  }
  EXPECT_GT(boosted, 5) << "the boost should change AUTHORED weights";
}

TEST(BuildSubgraphTest, WalkAndExplainOnARealSubgraph) {
  Table2Store t;
  MakeTable2Store(&t);
  ASSERT_TRUE(t.graph);
  RwrParams p = Converging();
  std::vector<Seed> seeds = {{P(t.p1), 1.0}, {K(t.k1), 0.8}};
  Subgraph g = MustBuild(*t.graph, seeds, p);
  WalkResult w = RandomWalk(g, seeds, p);
  ExpectScores(w.score, Stationary(g, seeds, p.alpha), 1e-9, "real subgraph");
  EXPECT_NEAR(Sum(w.score), 1.0, 1e-9);
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    std::vector<ExplainPath> paths = Explain(g, seeds, i);
    CheckPaths(g, seeds, i, paths, 3);
    EXPECT_FALSE(paths.empty()) << "node " << i << " (hop " << g.hop[i] << ") has no path";
  }
  EXPECT_STREQ(GetRelInfo(Rel::kCitesOut).label, "CITES");
  EXPECT_STREQ(GetRelInfo(Rel::kAuthors).label, "AUTHORED");
  EXPECT_STREQ(GetRelInfo(Rel::kKeywords).label, "HAS_KEYWORD");
}

}  // namespace
}  // namespace litgraph
