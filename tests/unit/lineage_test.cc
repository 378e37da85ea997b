// Property tests for lineage.h: FindLineage over explicit adjacency on random
// small graphs (DAGs, and graphs with cycles and mutual citations) against
// exhaustive enumeration of all simple paths.
#include "litgraph/lineage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/ingest.h"
#include "litgraph/store.h"
#include "test_util.h"

namespace litgraph {
namespace {

using Adj = std::vector<std::vector<uint32_t>>;

struct TestGraph {
  Adj out;  // out[v]: papers v cites (sorted, distinct)
  std::vector<uint64_t> weight;
};

// A DAG: node rank r cites only lower ranks; ranks are shuffled onto ids so
// that id order says nothing about the citation order.
TestGraph RandomDag(std::mt19937& rng, uint32_t n, double p) {
  std::vector<uint32_t> id(n);
  std::iota(id.begin(), id.end(), 0);
  std::shuffle(id.begin(), id.end(), rng);
  std::bernoulli_distribution edge(p);
  TestGraph g;
  g.out.assign(n, {});
  for (uint32_t r = 0; r < n; ++r)
    for (uint32_t s = 0; s < r; ++s)
      if (edge(rng)) g.out[id[r]].push_back(id[s]);
  std::uniform_int_distribution<uint64_t> w(0, 50);
  for (uint32_t v = 0; v < n; ++v) g.weight.push_back(w(rng));
  for (auto& l : g.out) std::sort(l.begin(), l.end());
  return g;
}

// Any directed graph: random edges, several mutual citations and an
// occasional self-citation (never part of a simple path).
TestGraph RandomCyclic(std::mt19937& rng, uint32_t n, double p) {
  std::bernoulli_distribution edge(p);
  std::vector<std::set<uint32_t>> out(n);
  for (uint32_t v = 0; v < n; ++v)
    for (uint32_t u = 0; u < n; ++u)
      if (u != v && edge(rng)) out[v].insert(u);
  std::uniform_int_distribution<uint32_t> node(0, n - 1);
  for (uint32_t i = 0; i < n / 3; ++i) {  // mutual citations
    uint32_t a = node(rng), b = node(rng);
    if (a == b) continue;
    out[a].insert(b);
    out[b].insert(a);
  }
  if (rng() % 4 == 0) {
    uint32_t v = node(rng);
    out[v].insert(v);
  }
  TestGraph g;
  for (auto& s : out) g.out.emplace_back(s.begin(), s.end());
  std::uniform_int_distribution<uint64_t> w(0, 50);
  for (uint32_t v = 0; v < n; ++v) g.weight.push_back(w(rng));
  return g;
}

struct Path {
  std::vector<uint32_t> nodes;
  uint64_t citations = 0;
  int hops() const { return static_cast<int>(nodes.size()) - 1; }
};

// All simple paths from `from` with 1..max_hops edges, grouped by end node.
std::map<uint32_t, std::vector<Path>> EnumeratePaths(const TestGraph& g, uint32_t from,
                                                     int max_hops) {
  std::map<uint32_t, std::vector<Path>> by_end;
  std::vector<uint32_t> stack = {from};
  std::vector<char> on(g.out.size(), 0);
  on[from] = 1;
  auto rec = [&](auto&& self, uint32_t v) -> void {
    if (static_cast<int>(stack.size()) - 1 >= max_hops) return;
    for (uint32_t u : g.out[v]) {
      if (on[u]) continue;
      stack.push_back(u);
      on[u] = 1;
      Path p;
      p.nodes = stack;
      for (uint32_t x : stack) p.citations += g.weight[x];
      by_end[u].push_back(p);
      self(self, u);
      on[u] = 0;
      stack.pop_back();
    }
  };
  rec(rec, from);
  return by_end;
}

// The documented order, written plainly: the mean compared as a fraction
// in long double (exact for these small sums).
bool Before(const Path& a, const Path& b, bool shortest, LineageObjective objective) {
  if (shortest && a.hops() != b.hops()) return a.hops() < b.hops();
  if (objective == LineageObjective::kMean) {
    long double ma = static_cast<long double>(a.citations) / a.nodes.size(),
                mb = static_cast<long double>(b.citations) / b.nodes.size();
    if (ma != mb) return ma > mb;
  } else if (a.citations != b.citations) {
    return a.citations > b.citations;
  }
  if (a.hops() != b.hops()) return a.hops() < b.hops();
  return a.nodes < b.nodes;
}

std::vector<Path> ExpectedBest(const std::vector<Path>& all, int max_hops, size_t k, bool shortest,
                               LineageObjective objective) {
  std::vector<Path> ok;
  for (const Path& p : all)
    if (p.hops() <= max_hops) ok.push_back(p);
  std::sort(ok.begin(), ok.end(),
            [&](const Path& a, const Path& b) { return Before(a, b, shortest, objective); });
  if (ok.size() > k) ok.resize(k);
  return ok;
}

std::string Describe(const TestGraph& g) {
  std::ostringstream s;
  for (size_t v = 0; v < g.out.size(); ++v) {
    s << v << "(w" << g.weight[v] << ")->";
    for (uint32_t u : g.out[v]) s << " " << u;
    s << "\n";
  }
  return s.str();
}

std::string Describe(const std::vector<uint32_t>& nodes) {
  std::string s;
  for (uint32_t v : nodes) s += (s.empty() ? "" : ",") + std::to_string(v);
  return s;
}

bool HasEdge(const TestGraph& g, uint32_t from, uint32_t to) {
  return std::binary_search(g.out[from].begin(), g.out[from].end(), to);
}

// Checks FindLineage for every combination of max_hops 1..6, k in {1, 3},
// both orderings and both objectives on the pair (newer, older). Returns the
// number of calls.
int CheckPair(const TestGraph& g, uint32_t newer, uint32_t older,
              const std::map<uint32_t, std::vector<Path>>& paths_from_newer) {
  static const std::vector<Path> kNone;
  auto it = paths_from_newer.find(older);
  const std::vector<Path>& all =
      newer == older || it == paths_from_newer.end() ? kNone : it->second;
  int calls = 0;
  for (int max_hops = 1; max_hops <= 6; ++max_hops) {
    for (size_t k : {size_t{1}, size_t{3}}) {
      for (int variant = 0; variant < 4; ++variant) {
        const bool shortest = variant & 1;
        LineageOptions o;
        o.max_hops = max_hops;
        o.k = k;
        o.shortest = shortest;
        o.objective = variant & 2 ? LineageObjective::kTotal : LineageObjective::kMean;
        LineageStats stats;
        std::vector<LineagePath> got = FindLineage(g.out, g.weight, newer, older, o, &stats);
        ++calls;
        std::vector<Path> want = ExpectedBest(all, max_hops, k, shortest, o.objective);
        auto where = [&] {
          return "newer=" + std::to_string(newer) + " older=" + std::to_string(older) +
                 " max_hops=" + std::to_string(max_hops) + " k=" + std::to_string(k) +
                 (shortest ? " shortest" : "") +
                 (o.objective == LineageObjective::kMean ? " mean" : " total") + "\n" + Describe(g);
        };
        EXPECT_FALSE(stats.truncated) << where();
        // Every returned path is simple, connected newer -> older and summed right.
        for (const LineagePath& p : got) {
          EXPECT_GE(p.nodes.size(), 2u) << where();
          if (p.nodes.size() < 2) continue;
          EXPECT_EQ(p.nodes.front(), newer) << where();
          EXPECT_EQ(p.nodes.back(), older) << where();
          EXPECT_LE(p.hops(), max_hops) << where();
          std::set<uint32_t> distinct(p.nodes.begin(), p.nodes.end());
          EXPECT_EQ(distinct.size(), p.nodes.size()) << "not simple: " << Describe(p.nodes) << "\n"
                                                     << where();
          uint64_t sum = 0;
          for (size_t i = 0; i < p.nodes.size(); ++i) {
            sum += g.weight[p.nodes[i]];
            if (i + 1 < p.nodes.size()) {
              EXPECT_TRUE(HasEdge(g, p.nodes[i], p.nodes[i + 1]))
                  << "no edge " << p.nodes[i] << "->" << p.nodes[i + 1] << "\n"
                  << where();
            }
          }
          EXPECT_EQ(p.citations, sum) << where();
        }
        // Exactly the k best under the documented order.
        EXPECT_EQ(got.size(), want.size()) << where();
        for (size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
          EXPECT_EQ(got[i].nodes, want[i].nodes)
              << "rank " << i << ": got " << Describe(got[i].nodes) << " (" << got[i].citations
              << ") want " << Describe(want[i].nodes) << " (" << want[i].citations << ")\n"
              << where();
          EXPECT_EQ(got[i].citations, want[i].citations) << where();
        }
        int shortest_hops = -1;
        for (const Path& p : all)
          if (p.hops() <= max_hops && (shortest_hops < 0 || p.hops() < shortest_hops))
            shortest_hops = p.hops();
        if (newer != older) {
          EXPECT_EQ(stats.shortest_hops, shortest_hops) << where();
        }
        if (::testing::Test::HasFailure()) return calls;
      }
    }
  }
  return calls;
}

constexpr int kPairsPerGraph = 8;

void RunRandomGraphs(bool cyclic, uint32_t seed, int graphs) {
  std::mt19937 rng(seed);
  int calls = 0, found = 0, unreachable = 0;
  for (int gi = 0; gi < graphs; ++gi) {
    uint32_t n = 8 + static_cast<uint32_t>(rng() % 23);  // 8..30 nodes
    // Average out-degree 1.5..5 keeps exhaustive enumeration cheap.
    double p = (1.5 + static_cast<double>(rng() % 36) / 10.0) / n;
    TestGraph g = cyclic ? RandomCyclic(rng, n, p) : RandomDag(rng, n, p);
    std::uniform_int_distribution<uint32_t> node(0, n - 1);
    for (int pair = 0; pair < kPairsPerGraph; ++pair) {
      uint32_t newer = node(rng), older = node(rng);
      auto paths = EnumeratePaths(g, newer, 6);
      if (pair == 0) {
        older = newer;
      } else if (pair % 2 == 0 && !paths.empty()) {
        // Half the pairs are chosen among the papers newer reaches.
        auto it = paths.begin();
        std::advance(it, static_cast<long>(rng() % paths.size()));
        older = it->first;
      }
      if (newer != older) (paths.count(older) ? found : unreachable)++;
      calls += CheckPair(g, newer, older, paths);
      if (::testing::Test::HasFailure()) {
        ADD_FAILURE() << "graph " << gi << " (seed " << seed << ")";
        return;
      }
    }
  }
  // The generator produced both outcomes, so both branches were exercised.
  EXPECT_GT(found, 2 * graphs);
  EXPECT_GT(unreachable, 10);
  EXPECT_EQ(calls, graphs * kPairsPerGraph * 48);
}

TEST(LineagePropertyTest, RandomDagsMatchExhaustiveEnumeration) { RunRandomGraphs(false, 1, 250); }

TEST(LineagePropertyTest, RandomCyclicGraphsMatchExhaustiveEnumeration) {
  RunRandomGraphs(true, 2, 250);
}

TEST(LineageTest, NewerEqualsOlderIsEmpty) {
  Adj out = {{1}, {0}};
  std::vector<uint64_t> w = {5, 5};
  LineageStats stats;
  EXPECT_TRUE(FindLineage(out, w, 0, 0, LineageOptions(), &stats).empty());
  EXPECT_TRUE(FindLineage(out, w, 1, 1, LineageOptions(), nullptr).empty());
}

TEST(LineageTest, UnreachableAndTooFarAreEmpty) {
  // 0 -> 1 -> 2 -> 3, and 4 isolated.
  Adj out = {{1}, {2}, {3}, {}, {}};
  std::vector<uint64_t> w = {1, 1, 1, 1, 1};
  LineageOptions o;
  LineageStats stats;
  EXPECT_TRUE(FindLineage(out, w, 0, 4, o, &stats).empty());
  EXPECT_EQ(stats.shortest_hops, -1);
  EXPECT_TRUE(FindLineage(out, w, 3, 0, o, &stats).empty());  // wrong direction
  o.max_hops = 2;
  LineageStats s2;
  EXPECT_TRUE(FindLineage(out, w, 0, 3, o, &s2).empty());
  EXPECT_EQ(s2.shortest_hops, -1);
  o.max_hops = 3;
  LineageStats s3;
  auto got = FindLineage(out, w, 0, 3, o, &s3);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].nodes, (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(got[0].citations, 4u);
  EXPECT_EQ(s3.shortest_hops, 3);
  // Ids beyond the adjacency are simply unknown papers.
  EXPECT_TRUE(FindLineage(out, w, 0, 77, o, nullptr).empty());
}

TEST(LineageTest, HandWorkedExample) {
  // B=0 cites 1 (w 100) and 2 (w 1); both cite A=3; 2 also reaches A via 4.
  //   0 -> 1 -> 3          citations 10 + 100 + 7 = 117, 2 hops
  //   0 -> 2 -> 3          10 + 1 + 7 = 18, 2 hops
  //   0 -> 2 -> 4 -> 3     10 + 1 + 50 + 7 = 68, 3 hops
  //   0 -> 3               10 + 7 = 17, 1 hop
  Adj out = {{1, 2, 3}, {3}, {3, 4}, {}, {3}};
  std::vector<uint64_t> w = {10, 100, 1, 7, 50};
  LineageOptions o;
  o.k = 10;
  // By mean citations per paper: 117/3 = 39, 17/2 = 8.5, 68/4 = 17, 18/3 = 6.
  auto mean = FindLineage(out, w, 0, 3, o, nullptr);
  ASSERT_EQ(mean.size(), 4u);
  EXPECT_EQ(mean[0].nodes, (std::vector<uint32_t>{0, 1, 3}));
  EXPECT_EQ(mean[1].nodes, (std::vector<uint32_t>{0, 2, 4, 3}));
  EXPECT_EQ(mean[2].nodes, (std::vector<uint32_t>{0, 3}));
  EXPECT_EQ(mean[3].nodes, (std::vector<uint32_t>{0, 2, 3}));
  EXPECT_DOUBLE_EQ(mean[0].mean(), 39.0);
  // By total citations (SciNetBench).
  o.objective = LineageObjective::kTotal;
  auto best = FindLineage(out, w, 0, 3, o, nullptr);
  ASSERT_EQ(best.size(), 4u);
  EXPECT_EQ(best[0].nodes, (std::vector<uint32_t>{0, 1, 3}));
  EXPECT_EQ(best[0].citations, 117u);
  EXPECT_EQ(best[1].nodes, (std::vector<uint32_t>{0, 2, 4, 3}));
  EXPECT_EQ(best[2].nodes, (std::vector<uint32_t>{0, 2, 3}));
  EXPECT_EQ(best[3].nodes, (std::vector<uint32_t>{0, 3}));
  o.shortest = true;  // then by total
  auto shortest = FindLineage(out, w, 0, 3, o, nullptr);
  ASSERT_EQ(shortest.size(), 4u);
  EXPECT_EQ(shortest[0].nodes, (std::vector<uint32_t>{0, 3}));
  EXPECT_EQ(shortest[1].nodes, (std::vector<uint32_t>{0, 1, 3}));
  EXPECT_EQ(shortest[2].nodes, (std::vector<uint32_t>{0, 2, 3}));
  EXPECT_EQ(shortest[3].nodes, (std::vector<uint32_t>{0, 2, 4, 3}));
  // Ties in citations go to fewer hops, then to the smaller id sequence.
  Adj tie = {{1, 2, 3}, {4}, {4}, {5}, {}, {4}};
  std::vector<uint64_t> tw = {0, 5, 5, 2, 0, 3};  // 0-1-4: 5, 0-2-4: 5, 0-3-5-4: 5
  o = LineageOptions();
  o.objective = LineageObjective::kTotal;
  o.k = 3;
  auto ties = FindLineage(tie, tw, 0, 4, o, nullptr);
  ASSERT_EQ(ties.size(), 3u);
  EXPECT_EQ(ties[0].nodes, (std::vector<uint32_t>{0, 1, 4}));
  EXPECT_EQ(ties[1].nodes, (std::vector<uint32_t>{0, 2, 4}));
  EXPECT_EQ(ties[2].nodes, (std::vector<uint32_t>{0, 3, 5, 4}));
}

// The complaint: with the total, the answer grows with --max-hops
// (every extra paper adds citations); with the mean it does not.
TEST(LineageTest, TheMeanDoesNotLengthenThePathWithMaxHops) {
  // B=0 cites A=6 directly; 0 -> 1 -> 2 -> 3 -> 4 -> 5 -> 6 is a chain of
  // modestly cited papers. Weights: B 10, A 10, the chain 5 each.
  Adj out = {{1, 6}, {2}, {3}, {4}, {5}, {6}, {}};
  std::vector<uint64_t> w = {10, 5, 5, 5, 5, 5, 10};
  for (int max_hops : {1, 3, 6, 12}) {
    LineageOptions o;
    o.max_hops = max_hops;
    auto mean = FindLineage(out, w, 0, 6, o, nullptr);
    ASSERT_EQ(mean.size(), 1u);
    EXPECT_EQ(mean[0].hops(), 1) << max_hops;
    o.objective = LineageObjective::kTotal;
    auto total = FindLineage(out, w, 0, 6, o, nullptr);
    ASSERT_EQ(total.size(), 1u);
    EXPECT_EQ(total[0].hops(), max_hops >= 6 ? 6 : 1) << max_hops;
  }
}

// The Graph overload on a real store: record citation counts are the weights,
// dense ids the nodes, and the answer matches the explicit overload run on the
// store's own cites.out adjacency.
TEST(LineageStoreTest, GraphOverloadMatchesExplicitAdjacency) {
  litgraph::testing::ScopedTempDir tmp;
  // Papers P0 (oldest) .. P9; Pi cites a few older ones; counts chosen by hand.
  const std::vector<std::vector<int>> cites = {{},     {0},    {0, 1}, {1},       {2, 3},
                                               {0, 4}, {4, 5}, {3, 6}, {6, 7, 2}, {8, 1}};
  std::string lines;
  for (size_t i = 0; i < cites.size(); ++i) {
    nlohmann::json refs = nlohmann::json::array();
    for (int c : cites[i]) refs.push_back("P" + std::to_string(c));
    nlohmann::json j = {{"id", "P" + std::to_string(i)},
                        {"title", "Paper number " + std::to_string(i)},
                        {"year", 2000 + static_cast<int>(i)},
                        {"references", refs}};
    if (i % 3 != 0) j["cited_by_count"] = static_cast<int>(10 * i + 3);  // others: in-store counts
    lines += j.dump() + "\n";
  }
  litgraph::testing::WriteFile(tmp.File("papers.jsonl"), lines);
  auto store = Store::Open(tmp.File("db"), Store::Mode::kWrite, true);
  ASSERT_TRUE(store.ok()) << store.status().message();
  IngestStats stats;
  ASSERT_TRUE(Ingest(store->get(), {tmp.File("papers.jsonl")}, IngestOptions(), &stats).ok());
  auto graph = Graph::Open(store->get());
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  Graph& g = **graph;
  std::vector<uint32_t> dense;
  for (size_t i = 0; i < cites.size(); ++i)
    dense.push_back(static_cast<uint32_t>(*(*store)->PaperByExtId("P" + std::to_string(i))));
  // Explicit adjacency and weights from the graph files.
  Adj out(g.num_papers());
  std::vector<uint64_t> weight(g.num_papers());
  for (uint32_t v = 0; v < g.num_papers(); ++v) {
    auto l = g.adj(Rel::kCitesOut).Neighbours(v);
    out[v].assign(l.ids.begin(), l.ids.end());
    weight[v] = g.Citations(v);
  }
  for (size_t i = 0; i < cites.size(); ++i) {
    std::vector<uint32_t> want;
    for (int c : cites[i]) want.push_back(dense[c]);
    std::sort(want.begin(), want.end());
    EXPECT_EQ(out[dense[i]], want) << "P" << i;
    if (i % 3 != 0) {
      EXPECT_EQ(g.Citations(dense[i]), 10 * i + 3);
      EXPECT_TRUE(g.CitationsFromRecord(dense[i]));
    } else {
      EXPECT_FALSE(g.CitationsFromRecord(dense[i]));
      EXPECT_EQ(g.Citations(dense[i]), g.InStoreCitations(dense[i]));
    }
    EXPECT_EQ(g.Year(dense[i]), 2000 + static_cast<int>(i));
  }
  EXPECT_EQ(g.InStoreCitations(dense[0]), 3u);  // P1, P2, P5
  for (int k : {1, 3}) {
    for (bool shortest : {false, true}) {
      LineageOptions o;
      o.k = static_cast<size_t>(k);
      o.shortest = shortest;
      for (uint32_t newer : {dense[9], dense[8], dense[7]}) {
        for (uint32_t older : {dense[0], dense[1], dense[3]}) {
          auto found = FindLineage(g, newer, older, o, nullptr);
          ASSERT_TRUE(found.ok()) << found.status().message();
          const std::vector<LineagePath>& a = *found;
          auto b = FindLineage(out, weight, newer, older, o, nullptr);
          ASSERT_EQ(a.size(), b.size());
          for (size_t i = 0; i < a.size(); ++i) {
            EXPECT_EQ(a[i].nodes, b[i].nodes);
            EXPECT_EQ(a[i].citations, b[i].citations);
          }
          if (older == dense[0]) {
            EXPECT_FALSE(a.empty());
          }
        }
      }
    }
  }
  // Ancestors of P9 within two hops: P8, P1 (depth 1) and P6, P7, P2, P0 (depth 2),
  // ranked by citations, then depth, then id; each parent one hop closer.
  TreeOptions t;
  t.depth = 2;
  bool truncated = true;
  auto tree_or = LineageTree(g, dense[9], t, &truncated);
  ASSERT_TRUE(tree_or.ok()) << tree_or.status().message();
  const std::vector<TreeNode>& tree = *tree_or;
  EXPECT_FALSE(truncated);
  std::set<uint32_t> got, want = {dense[8], dense[1], dense[6], dense[7], dense[2], dense[0]};
  for (const TreeNode& n : tree) {
    got.insert(n.paper);
    if (n.depth == 1) {
      EXPECT_EQ(n.parent, dense[9]);
      EXPECT_TRUE(n.via.empty());
    } else {
      EXPECT_EQ(n.depth, 2);
      EXPECT_TRUE(std::binary_search(out[n.parent].begin(), out[n.parent].end(), n.paper));
      EXPECT_TRUE(std::binary_search(out[dense[9]].begin(), out[dense[9]].end(), n.parent));
      EXPECT_EQ(n.via, std::vector<uint32_t>{n.parent});
    }
  }
  EXPECT_EQ(got, want);
  for (size_t i = 1; i < tree.size(); ++i) {
    uint32_t ca = g.Citations(tree[i - 1].paper), cb = g.Citations(tree[i].paper);
    EXPECT_TRUE(ca > cb || (ca == cb && (tree[i - 1].depth < tree[i].depth ||
                                         (tree[i - 1].depth == tree[i].depth &&
                                          tree[i - 1].paper < tree[i].paper))));
  }
}

}  // namespace
}  // namespace litgraph
