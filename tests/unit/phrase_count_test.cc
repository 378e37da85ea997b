// PhraseCounter (phrase_count.h): counts in bounded memory equal to an
// in-memory count, and the very bytes of PhraseStats' file, whatever the
// budget and however many runs were merged.
#include "litgraph/phrase_count.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "litgraph/keywords.h"
#include "test_util.h"

namespace litgraph {
namespace {

using testing::ReadFile;
using testing::ScopedTempDir;
using testing::TestId;

struct Doc {
  std::string title, abstract;
};

// Papers of a small vocabulary, so that phrases recur across papers.
std::vector<Doc> TextCorpus(size_t n) {
  const std::vector<std::string> adjectives = {"neural",   "robust", "sparse",    "bayesian",
                                               "adaptive", "convex", "stochastic"};
  const std::vector<std::string> nouns = {"graph",    "network",  "model",      "control",
                                          "protein",  "language", "retrieval",  "inference",
                                          "learning", "molecule", "estimation", "system"};
  std::mt19937_64 rng(7);
  auto pick = [&](const std::vector<std::string>& words) { return words[rng() % words.size()]; };
  std::vector<Doc> docs;
  for (size_t i = 0; i < n; ++i) {
    Doc d;
    d.title = pick(adjectives) + " " + pick(nouns) + " " + pick(nouns) + " for " + pick(nouns);
    for (int s = 0; s < 6; ++s)
      d.abstract += "We study " + pick(adjectives) + " " + pick(nouns) + " " + pick(nouns) +
                    " of the " + pick(nouns) + " word" + std::to_string(rng() % 500) + ". ";
    docs.push_back(std::move(d));
  }
  return docs;
}

// Documents of distinct random keys: a few common to many documents, most
// rare, spread over the 64-bit space.
std::vector<std::vector<uint64_t>> KeyCorpus(size_t n) {
  std::mt19937_64 rng(11);
  std::vector<std::vector<uint64_t>> docs(n);
  for (auto& keys : docs) {
    std::set<uint64_t> set;
    const size_t size = rng() % 30;
    while (set.size() < size) {
      const uint64_t rank = (rng() % 2) ? rng() % 50 : rng() % 100000;
      set.insert((rank + 1) * 0x9e3779b97f4a7c15ull);
    }
    keys.assign(set.begin(), set.end());
  }
  return docs;
}

TEST(PhraseCounterTest, ManyRunsCountAsInMemory) {
  ScopedTempDir dir;
  const auto docs = KeyCorpus(5000);
  std::map<uint64_t, uint32_t> df;
  size_t occurrences = 0;
  for (const auto& keys : docs)
    for (uint64_t k : keys) {
      ++df[k];
      ++occurrences;
    }
  // 16 keys a run: more than 64 x 64 runs, so merged runs are merged again.
  PhraseCounter counter(dir.File("runs"), 16 * sizeof(uint64_t));
  for (const auto& keys : docs) counter.AddKeys(keys);
  EXPECT_EQ(counter.runs(), occurrences / 16);
  ASSERT_GT(counter.runs(), PhraseCounter::kMaxMergeWidth * PhraseCounter::kMaxMergeWidth);
  const std::string path = dir.File("phrase_df");
  ASSERT_TRUE(counter.Write(path, TestId(path)).ok());
  EXPECT_EQ(counter.distinct(), df.size());

  PhraseStats stats;
  ASSERT_TRUE(stats.Open(path, TestId(path)).ok());
  EXPECT_EQ(stats.num_docs(), docs.size());
  size_t shared = 0;
  for (const auto& [key, n] : df) {
    EXPECT_EQ(stats.DocFreq(key), n >= 2 ? n : 0u) << key;  // df 1 is implied
    shared += n >= 2;
  }
  EXPECT_EQ(stats.size(), shared);
  EXPECT_GT(shared, 50u);
  EXPECT_LT(shared, df.size());
  EXPECT_TRUE(stats.status().ok());
}

TEST(PhraseCounterTest, SameFileAsPhraseStatsWhateverTheBudgetAndThreads) {
  ScopedTempDir dir;
  const auto docs = TextCorpus(300);
  PhraseStats in_memory;
  for (const Doc& d : docs) in_memory.AddDocument(d.title, d.abstract);
  const std::string want_path = dir.File("want");
  ASSERT_TRUE(in_memory.Write(want_path, TestId("phrase_df")).ok());
  const std::string want = ReadFile(want_path);
  ASSERT_GT(in_memory.size(), 100u);

  // Full buffers are sorted on `threads` threads.
  const std::pair<size_t, int> cases[] = {
      {size_t{64} << 20, 1}, {1024, 1}, {1024, 3}, {64 << 10, 2}};
  for (const auto& [budget, threads] : cases) {
    SCOPED_TRACE(::testing::Message() << budget << " bytes, " << threads << " threads");
    PhraseCounter counter(dir.File("runs"), budget, threads);
    for (const Doc& d : docs) counter.AddDocument(d.title, d.abstract);
    EXPECT_EQ(counter.runs() > PhraseCounter::kMaxMergeWidth, budget == 1024);
    const std::string path = dir.File("got");
    ASSERT_TRUE(counter.Write(path, TestId("phrase_df")).ok());
    EXPECT_EQ(ReadFile(path), want);
    EXPECT_EQ(counter.num_docs(), in_memory.num_docs());
    EXPECT_EQ(counter.distinct(), in_memory.size());
  }
  EXPECT_FALSE(std::filesystem::exists(dir.File("runs"))) << "the runs go with the counter";
}

// Lookups interpolate on the assumption that keys (hashes) are uniform;
// keys bunched at both ends of the 64-bit space are found all the same.
TEST(PhraseCounterTest, LookupsFindKeysThatAreNotUniform) {
  ScopedTempDir dir;
  std::vector<uint64_t> keys;
  for (uint64_t k = 1; k <= 3000; ++k) keys.push_back(k);
  for (uint64_t k = 1; k <= 3000; ++k) keys.push_back(~uint64_t{0} - 3000 + k);
  PhraseCounter counter(dir.File("runs"), 1 << 20);
  counter.AddKeys(keys);
  counter.AddKeys(keys);
  const std::string path = dir.File("phrase_df");
  ASSERT_TRUE(counter.Write(path, TestId(path)).ok());
  PhraseStats stats;
  ASSERT_TRUE(stats.Open(path, TestId(path)).ok());
  for (uint64_t k : keys) EXPECT_EQ(stats.DocFreq(k), 2u) << k;
  const std::vector<uint64_t> absent = {3001, uint64_t{1} << 63, ~uint64_t{0} - 3000};
  for (uint64_t k : absent) EXPECT_EQ(stats.DocFreq(k), 0u) << k;
  // Looked up all at once, present and absent keys interleaved (more than
  // the lookups in flight), each gets what DocFreq says.
  std::vector<uint64_t> mixed;
  for (size_t i = 0; i < keys.size(); i += 97) {
    mixed.push_back(keys[i]);
    mixed.push_back(absent[i % absent.size()]);
  }
  std::vector<uint32_t> got(mixed.size(), 7);
  stats.DocFreqs(mixed, got);
  for (size_t i = 0; i < mixed.size(); ++i) EXPECT_EQ(got[i], i % 2 ? 0u : 2u) << mixed[i];
  EXPECT_TRUE(stats.status().ok());
}

// Batched lookups, in counting mode and on the written file, give every
// key of a text corpus its document frequency (counted here apart).
TEST(PhraseCounterTest, BatchedLookupsGiveEachKeyItsCount) {
  ScopedTempDir dir;
  PhraseStats in_memory;
  std::map<uint64_t, uint32_t> df;
  std::vector<uint64_t> asked;
  for (const Doc& d : TextCorpus(300)) {
    in_memory.AddDocument(d.title, d.abstract);
    std::vector<uint64_t> keys;
    PhraseKeysOf(d.title, d.abstract, &keys);
    for (uint64_t k : keys) ++df[k];
    asked.insert(asked.end(), keys.begin(), keys.end());
  }
  asked.push_back(12345);  // in no document
  ASSERT_TRUE(in_memory.Write(dir.File("df"), TestId("phrase_df")).ok());
  PhraseStats opened;
  ASSERT_TRUE(opened.Open(dir.File("df"), TestId("phrase_df")).ok());
  size_t shared = 0, once = 0;
  for (const PhraseStats* stats : {&in_memory, &opened}) {
    std::vector<uint32_t> got(asked.size(), 7);
    stats->DocFreqs(asked, got);
    for (size_t i = 0; i < asked.size(); ++i) {
      const uint32_t n = df.count(asked[i]) ? df[asked[i]] : 0;
      EXPECT_EQ(got[i], stats == &opened && n < 2 ? 0u : n) << i;  // the file keeps df >= 2
      shared += n >= 2;
      once += n == 1;
    }
  }
  EXPECT_GT(shared, 1000u);
  EXPECT_GT(once, 100u);
  EXPECT_TRUE(opened.status().ok());
}

// Counts files (every key, df 1 included) of a corpus's slices, added up
// by another counter with more texts of its own, give the statistics file of
// counting the whole corpus at once: what a merge of shards relies on.
TEST(PhraseCounterTest, KeptCountsOfSlicesAddUpToTheWholeCorpus) {
  ScopedTempDir dir;
  const auto docs = TextCorpus(400);
  PhraseCounter whole(dir.File("whole"), 1024);
  for (const Doc& d : docs) whole.AddDocument(d.title, d.abstract);
  ASSERT_TRUE(whole.Write(dir.File("want"), TestId("phrase_df")).ok());
  // Three slices kept as counts files, the last fed as texts; the first
  // with a small budget (its counts merged from many runs).
  const size_t cuts[] = {0, 90, 250, 330, 400};
  PhraseCounter sum(dir.File("sum"), 1 << 20);
  for (size_t c = 0; c < 4; ++c) {
    if (c == 3) {
      for (size_t i = cuts[c]; i < cuts[c + 1]; ++i)
        sum.AddDocument(docs[i].title, docs[i].abstract);
      continue;
    }
    PhraseCounter slice(dir.File("slice"), c == 0 ? 512 : 1 << 20);
    for (size_t i = cuts[c]; i < cuts[c + 1]; ++i)
      slice.AddDocument(docs[i].title, docs[i].abstract);
    const PhraseFile counts{dir.File("counts" + std::to_string(c)), TestId("phrase_counts")};
    ASSERT_TRUE(slice.Write(nullptr, &counts).ok());
    // Every key, once counted or more.
    PhraseStats opened;
    ASSERT_TRUE(opened.Open(counts.path, counts.id).ok());
    EXPECT_EQ(opened.size(), slice.distinct());
    sum.AddCounts(counts.path, counts.id);
  }
  const PhraseFile df{dir.File("got"), TestId("phrase_df")};
  const PhraseFile all{dir.File("all"), TestId("phrase_counts")};
  ASSERT_TRUE(sum.Write(&df, &all).ok());
  EXPECT_EQ(ReadFile(df.path), ReadFile(dir.File("want")));
  EXPECT_EQ(sum.num_docs(), docs.size());
  EXPECT_EQ(sum.distinct(), whole.distinct());
  EXPECT_TRUE(std::filesystem::exists(dir.File("counts0"))) << "another store's file stays";
  // The counts of the whole: each key's document frequency, df 1 included.
  PhraseStats got_all;
  ASSERT_TRUE(got_all.Open(all.path, all.id).ok());
  EXPECT_EQ(got_all.size(), whole.distinct());
  // A counts file of another identity fails the count.
  PhraseCounter wrong(dir.File("wrong"), 1 << 20);
  wrong.AddCounts(dir.File("counts1"), TestId("phrase_df"));
  EXPECT_FALSE(wrong.Write(dir.File("none"), TestId("phrase_df")).ok());
}

TEST(PhraseCounterTest, EmptyCorpus) {
  ScopedTempDir dir;
  PhraseStats in_memory;
  ASSERT_TRUE(in_memory.Write(dir.File("want"), TestId("phrase_df")).ok());
  PhraseCounter counter(dir.File("runs"), 1 << 20);
  ASSERT_TRUE(counter.Write(dir.File("got"), TestId("phrase_df")).ok());
  EXPECT_EQ(ReadFile(dir.File("got")), ReadFile(dir.File("want")));
  EXPECT_EQ(counter.distinct(), 0u);
}

TEST(PhraseCounterTest, DamagedOrUnwritableRunsFail) {
  ScopedTempDir dir;
  const auto docs = KeyCorpus(200);
  {
    PhraseCounter counter(dir.File("runs"), 64);
    for (const auto& keys : docs) counter.AddKeys(keys);
    ASSERT_GT(counter.runs(), 1u);
    std::filesystem::resize_file(dir.File("runs/0.run"), 12 * 3 + 5);
    Status st = counter.Write(dir.File("phrase_df"), TestId("phrase_df"));
    EXPECT_EQ(st.code(), Code::kCorruption) << st.message();
    EXPECT_FALSE(std::filesystem::exists(dir.File("phrase_df")));
  }
  // The run directory cannot be made: under a regular file.
  testing::WriteFile(dir.File("file"), "x");
  PhraseCounter counter(dir.File("file/runs"), 64);
  for (const auto& keys : docs) counter.AddKeys(keys);
  Status st = counter.Write(dir.File("phrase_df"), TestId("phrase_df"));
  EXPECT_EQ(st.code(), Code::kIoError) << st.message();
  EXPECT_FALSE(std::filesystem::exists(dir.File("phrase_df")));
}

}  // namespace
}  // namespace litgraph
