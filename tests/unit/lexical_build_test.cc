// The lexical index built in bounded memory (lexical.h, LexicalBuilder):
// sorted runs merged into the same files whatever the budget.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "litgraph/lexical.h"
#include "test_util.h"

namespace litgraph {
namespace {

namespace fs = std::filesystem;
using testing::ScopedTempDir;

struct Doc {
  uint32_t id;
  std::string title, abstract;
};

// Documents over a Zipf-like vocabulary with rare words in several scripts,
// so runs share common terms and hold many of their own.
std::vector<Doc> RandomDocs(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  const std::vector<std::string> stems = {"graph", "neural", "network", "model", "learn",
                                          "citat", "paper",  "retriev", "rank",  "walk"};
  const std::vector<std::string> scripts = {"", "é", "ж", "λ", "字"};
  auto word = [&]() {
    uint32_t r = rng() % 100;
    if (r < 60) return stems[rng() % stems.size()] + (r % 2 ? "s" : "ing");
    return scripts[rng() % scripts.size()] + "w" + std::to_string(rng() % 20000);
  };
  std::vector<Doc> docs;
  for (uint32_t i = 0; i < n; ++i) {
    Doc d{i, "", ""};
    for (uint32_t k = 0, len = 3 + rng() % 8; k < len; ++k) d.title += word() + " ";
    for (uint32_t k = 0, len = rng() % 60; k < len; ++k) d.abstract += word() + " the ";
    docs.push_back(d);
  }
  return docs;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Builds `docs` (in that order) and returns lexicon + postings payloads.
std::pair<std::string, std::string> Build(const std::string& dir, const std::vector<Doc>& docs,
                                          uint64_t id_space, size_t budget, size_t* runs,
                                          bool title_only = false) {
  LexicalBuilder b(dir, "t", title_only, budget);
  for (const Doc& d : docs) b.Add(d.id, d.title, d.abstract);
  if (runs) *runs = b.runs();  // runs spilled before the last buffer
  Status st = b.Build(id_space, Bm25Params());
  EXPECT_TRUE(st.ok()) << st.message();
  return {Slurp(dir + "/t.lexicon"), Slurp(dir + "/t.postings")};
}

TEST(LexicalBuildTest, ASmallBudgetWritesTheSameFilesThroughManyRuns) {
  ScopedTempDir big_dir, small_dir;
  std::vector<Doc> docs = RandomDocs(12000, 1);
  size_t big_runs = 0, small_runs = 0;
  auto big = Build(big_dir.path(), docs, docs.size(), size_t{256} << 20, &big_runs);
  auto small = Build(small_dir.path(), docs, docs.size(), 64 << 10, &small_runs);
  EXPECT_EQ(big_runs, 0u);
  EXPECT_GT(small_runs, 64u);  // more than are merged at once
  EXPECT_GT(big.first.size(), 96u);
  EXPECT_TRUE(big.first == small.first);  // not EXPECT_EQ: no binary dumps
  EXPECT_TRUE(big.second == small.second);
  for (bool title_only : {true}) {
    auto a = Build(big_dir.path(), docs, docs.size(), size_t{256} << 20, nullptr, title_only);
    auto b = Build(small_dir.path(), docs, docs.size(), 64 << 10, nullptr, title_only);
    EXPECT_TRUE(a == b);
    EXPECT_LT(a.second.size(), big.second.size());
  }
}

// Every run fills the budget: a spill frees the buffer. An earlier build kept
// its capacity, so once the postings buffer alone outgrew the budget every
// later document spilled a run of its own (400,000 runs for an update of a
// 1M-work store). A small vocabulary makes the postings the buffer's bulk.
TEST(LexicalBuildTest, EachRunFillsTheBudget) {
  ScopedTempDir dir;
  std::vector<Doc> docs;
  for (uint32_t i = 0; i < 12000; ++i) {
    Doc d{i, "", ""};
    for (uint32_t k = 0; k < 40; ++k)
      d.abstract += "w" + std::to_string((i * 7 + k * 13) % 500) + " ";
    docs.push_back(d);
  }
  size_t runs = 0;
  Build(dir.path(), docs, docs.size(), 1 << 20, &runs);
  EXPECT_GE(runs, 2u);
  EXPECT_LE(runs, 30u) << "480k postings x 16 bytes over 1 MiB buffers";
}

// Run counts where merging 64 at a time leaves a merged run beside newer
// ones (both counts lost documents before the merged run kept its place).
TEST(LexicalBuildTest, EveryRunCountKeepsEveryDocument) {
  for (size_t n : {6600u, 8850u}) {  // 190 and 253 runs: both lost documents
    ScopedTempDir big_dir, small_dir;
    std::vector<Doc> docs = RandomDocs(n, 7);
    size_t runs = 0;
    auto big = Build(big_dir.path(), docs, docs.size(), size_t{256} << 20, nullptr);
    auto small = Build(small_dir.path(), docs, docs.size(), 64 << 10, &runs);
    EXPECT_GT(runs, 64u);
    EXPECT_TRUE(big.first == small.first) << n << " documents, " << runs << " runs";
    EXPECT_TRUE(big.second == small.second) << n << " documents, " << runs << " runs";
  }
}

TEST(LexicalBuildTest, ADocumentAddedAgainKeepsOnlyItsLatestVersion) {
  ScopedTempDir once_dir, twice_dir, twice_small_dir;
  std::vector<Doc> docs = RandomDocs(3000, 2);
  // Versions of 300 documents added earlier (an upsert seen twice in one
  // load), some in the same run as their latest version, some in older runs.
  std::vector<Doc> stale = RandomDocs(300, 3);
  std::vector<Doc> twice;
  for (Doc d : stale) {
    d.id = (d.id * 7) % 3000;
    twice.push_back(d);
  }
  twice.insert(twice.end(), docs.begin(), docs.end());
  twice.push_back({17, "the", ""});  // its latest version: a stopword, no postings
  std::vector<Doc> once = docs;
  once[17].title = "the";
  once[17].abstract = "";
  auto a = Build(once_dir.path(), once, 3000, size_t{256} << 20, nullptr);
  auto b = Build(twice_dir.path(), twice, 3000, size_t{256} << 20, nullptr);
  size_t runs = 0;
  auto c = Build(twice_small_dir.path(), twice, 3000, 64 << 10, &runs);
  EXPECT_GT(runs, 1u);
  EXPECT_TRUE(a == b);
  EXPECT_TRUE(a == c);
}

TEST(LexicalBuildTest, DocumentsOutsideTheIdSpaceAreLeftOut) {
  ScopedTempDir all_dir, cut_dir;
  std::vector<Doc> docs = RandomDocs(2000, 4);
  std::vector<Doc> first(docs.begin(), docs.begin() + 1000);
  auto a = Build(all_dir.path(), first, 1000, size_t{256} << 20, nullptr);
  auto b = Build(cut_dir.path(), docs, 1000, 64 << 10, nullptr);
  EXPECT_TRUE(a == b);
}

TEST(LexicalBuildTest, NoDocumentsGiveAnEmptyIndexAndFilesGoWithTheBuilder) {
  ScopedTempDir dir;
  {
    auto empty = Build(dir.path(), {}, 0, 1 << 20, nullptr);
    EXPECT_EQ(empty.first.size(), 96u + 16u);  // header, one term offset, one postings offset
    EXPECT_TRUE(empty.second.empty());
  }
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(LexicalBuildTest, ADamagedRunIsAnErrorNamingIt) {
  ScopedTempDir dir;
  std::vector<Doc> docs = RandomDocs(3000, 5);
  LexicalBuilder b(dir.path(), "t", false, 64 << 10);
  for (const Doc& d : docs) b.Add(d.id, d.title, d.abstract);
  ASSERT_GT(b.runs(), 1u);
  const std::string run = dir.path() + "/t.0.run";
  fs::resize_file(run, fs::file_size(run) / 2);
  Status st = b.Build(docs.size(), Bm25Params());
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("t.0.run"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace litgraph
