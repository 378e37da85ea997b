// The external sort of the graph build (edge_sort.h) and a graph built in a
// small memory budget (graph_build.h).
#include "litgraph/edge_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "litgraph/graph_build.h"
#include "litgraph/ingest.h"
#include "litgraph/sqlite.h"
#include "litgraph/store.h"
#include "test_util.h"

namespace litgraph {
namespace {

namespace fs = std::filesystem;
using testing::ScopedTempDir;

std::vector<Edge> RandomEdges(size_t n, uint32_t sources, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Edge> e(n);
  for (Edge& x : e)  // parallel edges too
    x = {static_cast<uint32_t>(rng() % sources), static_cast<uint32_t>(rng() % 5000),
         static_cast<uint32_t>(rng() % 3)};
  return e;
}

std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> Sorted(std::vector<Edge> e) {
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> t;
  for (const Edge& x : e) t.emplace_back(x.src, x.dst, x.attr);
  std::sort(t.begin(), t.end());
  return t;
}

std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> ReadAll(EdgeSorter& s) {
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> t;
  EdgeSorter::Reader r = s.Read();
  for (const Edge* e = r.Next(); e; e = r.Next()) t.emplace_back(e->src, e->dst, e->attr);
  EXPECT_TRUE(r.status().ok()) << r.status().message();
  return t;
}

size_t FilesIn(const std::string& dir) {
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(EdgeSorterTest, UnderItsBudgetSortsInMemoryAndWritesNothing) {
  ScopedTempDir tmp;
  std::vector<Edge> edges = RandomEdges(20000, 300, 1);
  EdgeSorter s(tmp.path(), "t", 300, size_t{64} << 20);
  for (const Edge& e : edges) s.Add(e.src, e.dst, e.attr);
  EXPECT_EQ(s.runs(), 0u);
  EXPECT_EQ(ReadAll(s), Sorted(edges));
  EXPECT_EQ(FilesIn(tmp.path()), 0u);
}

TEST(EdgeSorterTest, SpilledRunsMergeIntoTheSortedOrderAndGoWithTheSorter) {
  ScopedTempDir tmp;
  // Hub sources (a few ids with most edges) and a sparse id space above 64n:
  // both sorts of a run (counting and comparison) are used.
  for (uint32_t sources : {7u, 300u, 100000000u}) {
    std::vector<Edge> edges = RandomEdges(150000, sources, sources);
    {
      EdgeSorter s(tmp.path(), "t", sources, 1);  // 1024 edges per run
      for (const Edge& e : edges) s.Add(e.src, e.dst, e.attr);
      EXPECT_EQ(s.size(), edges.size());
      EXPECT_GT(s.runs(), 100u);
      auto want = Sorted(edges);
      EXPECT_EQ(ReadAll(s), want) << sources;
      EXPECT_EQ(ReadAll(s), want) << "a second pass reads the same";
      EXPECT_GT(FilesIn(tmp.path()), 100u);
    }
    EXPECT_EQ(FilesIn(tmp.path()), 0u) << "the runs are removed with the sorter";
  }
}

TEST(EdgeSorterTest, ARunThatCannotBeWrittenIsAnError) {
  EdgeSorter s("/nonexistent/dir", "t", 10, 1);
  for (uint32_t i = 0; i < 3000; ++i) s.Add(i % 10, i, 0);
  EXPECT_EQ(s.status().code(), Code::kIoError);
  EXPECT_NE(s.status().message().find("/nonexistent/dir/t.0.run"), std::string::npos)
      << s.status().message();
}

// The graph of the fixtures built with the default budget and with a budget
// so small that every relation spills: the same bytes in every file.
TEST(GraphBuildTest, ASmallMemoryBudgetBuildsTheSameFiles) {
  ScopedTempDir tmp;
  auto opened = Store::Open(tmp.File("db"), Store::Mode::kWrite, /*create=*/true);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  Store* store = opened->get();
  IngestStats is;
  ASSERT_TRUE(Ingest(store,
                     {testing::TestData("snowball.works.jsonl"),
                      testing::TestData("search-biodiversity-finance.works.jsonl")},
                     IngestOptions(), &is)
                  .ok());
  auto files_of = [&](int64_t gen) {
    std::vector<std::pair<std::string, std::string>> out;
    std::string dir = tmp.File("db") + "/graph." + std::to_string(gen);
    for (const auto& e : fs::directory_iterator(dir)) {
      std::string name = e.path().filename().string();
      if (name == "MANIFEST" || name == "PIN") continue;
      out.emplace_back(name, testing::Payload(e.path().string()));
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  const int64_t first = store->Generation("graph");
  GraphBuildOptions small;
  small.memory_budget = 1;  // 1024 edges per sorter
  GraphBuildStats gs;
  {
    Transaction txn(&store->db(), "IMMEDIATE");
    ASSERT_TRUE(BuildGraph(store, small, &gs).ok());
    txn.Commit();
  }
  ASSERT_EQ(store->Generation("graph"), first + 1);
  EXPECT_GT(gs.edges, 8000);
  auto a = files_of(first), b = files_of(first + 1);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].first, b[i].first);
    EXPECT_TRUE(a[i].second == b[i].second) << a[i].first << " differs";
  }
  // (title.run is the title index's kept run, lexical.h.)
  for (const auto& e :
       fs::directory_iterator(tmp.File("db") + "/graph." + std::to_string(first + 1)))
    if (e.path().filename() != "title.run") {
      EXPECT_NE(e.path().extension(), ".run") << "no sorted run is left behind";
    }
}

}  // namespace
}  // namespace litgraph
