// Tests for query by example (--like): the query construction of find.h
// (ResolveExamples, SelectQueryTerms, PaperFinder::ExampleText and Find with
// FindQuery::like), semantic.h (SemanticIndex::PaperQuery) and search.h
// (TriSearch with SearchQuery::like).
//
// A real store: 30 native records in three topics (10 each), every paper
// citing the two before it in its topic, with built-in keywords and a
// 16-dimension built-in embedding, built once for the suite.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "litgraph/find.h"
#include "litgraph/graph.h"
#include "litgraph/ingest.h"
#include "litgraph/keyword_store.h"
#include "litgraph/lexical.h"
#include "litgraph/search.h"
#include "litgraph/semantic.h"
#include "litgraph/store.h"
#include "store_fixture.h"
#include "test_util.h"

namespace litgraph {
namespace {

using litgraph::testing::ScopedTempDir;
using litgraph::testing::WriteFile;
using nlohmann::json;

class LikeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new ScopedTempDir();
    dir_ = tmp_->File("store");
    std::string text;
    for (int t = 0; t < 3; ++t) {
      for (int j = 0; j < 10; ++j) {
        json rec = testing::TopicPaper('L', t, j);
        rec["cited_by_count"] = 10 - j;
        text += rec.dump() + "\n";
      }
    }
    // A paper with a word no other paper has ("zanzibarite"), for term selection.
    text += json({{"id", "L9-0"},
                  {"title", "Zanzibarite portfolio optimization"},
                  {"abstract", "zanzibarite zanzibarite portfolio optimization."},
                  {"year", 2020}})
                .dump() +
            "\n";
    const std::string file = tmp_->File("records.jsonl");
    WriteFile(file, text);
    auto s = Store::Open(dir_, Store::Mode::kWrite, true);
    ASSERT_TRUE(s.ok()) << s.status().message();
    Store* store = s.value().get();
    IngestStats is;
    Status st = Ingest(store, {file}, IngestOptions{}, &is);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_NO_FATAL_FAILURE(testing::ExtractAndEmbed(store));
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }
  void SetUp() override {
    ASSERT_FALSE(HasFatalFailure());
    auto s = Store::Open(dir_, Store::Mode::kRead);
    ASSERT_TRUE(s.ok()) << s.status().message();
    store_ = std::move(s.value());
  }
  int64_t Id(const std::string& ext) {
    auto id = store_->PaperByExtId(ext);
    EXPECT_TRUE(id.has_value()) << ext;
    return id.value_or(-1);
  }
  std::string ExtOf(int64_t id) {
    auto l = store_->NodeLabel(NodeType::kPaper, id);
    return l ? l->first : "";
  }
  static ScopedTempDir* tmp_;
  static std::string dir_;
  std::unique_ptr<Store> store_;
};

ScopedTempDir* LikeTest::tmp_ = nullptr;
std::string LikeTest::dir_;

// ---- ResolveExamples ------------------------------------------------------------

TEST_F(LikeTest, ExamplesAreRepeatableAndCommaSeparated) {
  auto ids = ResolveExamples(store_.get(), {"L0-1, L0-2", "L1-3", "L0-1"});
  ASSERT_TRUE(ids.ok()) << ids.status().message();
  EXPECT_EQ(*ids, (std::vector<int64_t>{Id("L0-1"), Id("L0-2"), Id("L1-3")}));
}

TEST_F(LikeTest, AMissingExampleIsNotFoundNamingIt) {
  auto ids = ResolveExamples(store_.get(), {"L0-1,W404"});
  ASSERT_FALSE(ids.ok());
  EXPECT_EQ(ids.status().code(), Code::kNotFound);
  EXPECT_NE(ids.status().message().find("W404"), std::string::npos) << ids.status().message();
  auto none = ResolveExamples(store_.get(), {" , "});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), Code::kInvalidArgument);
}

// ---- SelectQueryTerms -------------------------------------------------------------

TEST_F(LikeTest, TermSelectionKeepsTheMostInformativeTermsInOrder) {
  PaperFinder finder(store_.get());
  const LexicalIndex* lex = finder.lexical();
  ASSERT_NE(lex, nullptr);
  std::vector<QueryTerm> terms = LexicalIndex::QueryTerms(finder.ExampleText({Id("L9-0")}));
  // "zanzibarit" only occurs in the example itself: it cannot rank, it goes.
  auto has = [](const std::vector<QueryTerm>& ts, const std::string& t) {
    return std::any_of(ts.begin(), ts.end(), [&](const QueryTerm& q) { return q.term == t; });
  };
  ASSERT_TRUE(has(terms, Stem("zanzibarite")));
  std::vector<QueryTerm> all = SelectQueryTerms(*lex, terms, 0);
  EXPECT_FALSE(has(all, Stem("zanzibarite")));
  EXPECT_EQ(all.size(), terms.size() - 1);
  // Top 1 by weight x IDF: "portfolio" (2 occurrences) and "optim" have the
  // same document frequency and weight, so the first of the two in text order.
  std::vector<QueryTerm> one = SelectQueryTerms(*lex, terms, 1);
  ASSERT_EQ(one.size(), 1u);
  double best = 0;
  for (const QueryTerm& t : all) {
    uint32_t df = lex->DocFreq(t.term);
    best = std::max(best, t.weight * lex->Idf(df));
  }
  EXPECT_DOUBLE_EQ(one[0].weight * lex->Idf(lex->DocFreq(one[0].term)), best);
  // Kept in their original order.
  std::vector<QueryTerm> two = SelectQueryTerms(*lex, terms, 2);
  ASSERT_EQ(two.size(), 2u);
  auto pos = [&](const std::string& t) {
    for (size_t i = 0; i < terms.size(); ++i)
      if (terms[i].term == t) return i;
    return terms.size();
  };
  EXPECT_LT(pos(two[0].term), pos(two[1].term));
}

// ---- SemanticIndex::PaperQuery --------------------------------------------------

TEST_F(LikeTest, StoredVectorsBlendTitleAndAbstract) {
  auto sem = SemanticIndex::Open(store_.get());
  ASSERT_TRUE(sem.ok()) << sem.status().message();
  SemanticIndex& s = **sem;
  const int64_t p = Id("L2-4");
  const float* t = s.vectors(VecField::kTitle).Row(p);
  const float* a = s.vectors(VecField::kAbstract).Row(p);
  ASSERT_TRUE(t && a);
  QueryVector q = s.PaperQuery({static_cast<uint64_t>(p)}, "text");
  ASSERT_EQ(q.dense.size(), 16u);
  std::vector<double> want(16);
  double norm = 0;
  for (int i = 0; i < 16; ++i) {
    want[i] = 0.4 * t[i] + 0.6 * a[i];
    norm += want[i] * want[i];
  }
  norm = std::sqrt(norm);
  for (int i = 0; i < 16; ++i) EXPECT_NEAR(q.dense[i], want[i] / norm, 1e-6) << i;
  EXPECT_EQ(q.text, "text");
  // Two examples: the normalized sum of their blends.
  const int64_t p2 = Id("L2-5");
  QueryVector q2 = s.PaperQuery({static_cast<uint64_t>(p), static_cast<uint64_t>(p2)}, "");
  ASSERT_EQ(q2.dense.size(), 16u);
  double n2 = 0;
  for (float x : q2.dense) n2 += x * x;
  EXPECT_NEAR(n2, 1.0, 1e-5);
  // No vector at all: no dense part (ids past the store).
  QueryVector none = s.PaperQuery({1000000}, "");
  EXPECT_TRUE(none.dense.empty());
}

// ---- PaperFinder::Find with like --------------------------------------------------

TEST_F(LikeTest, FindLikeNeverReturnsTheExampleAndSaysLike) {
  PaperFinder finder(store_.get());
  const int64_t ex = Id("L1-5");
  for (TextMatch m : {TextMatch::kLexical, TextMatch::kSemantic, TextMatch::kHybrid}) {
    FindQuery q;
    q.like = {ex};
    q.text_match = m;
    q.limit = 10;
    auto hits = finder.Find(q);
    ASSERT_TRUE(hits.ok()) << hits.status().message();
    ASSERT_FALSE(hits->empty());
    const MatchKind want = m == TextMatch::kLexical    ? MatchKind::kLikeText
                           : m == TextMatch::kSemantic ? MatchKind::kLikeSemantic
                                                       : MatchKind::kLikeHybrid;
    int same_topic_top5 = 0;
    for (size_t i = 0; i < hits->size(); ++i) {
      EXPECT_NE((*hits)[i].paper, ex) << "the example itself";
      EXPECT_EQ((*hits)[i].match, want);
      if (i < 5)
        same_topic_top5 +=
            ExtOf((*hits)[i].paper).rfind("L1-", 0) == 0 || ExtOf((*hits)[i].paper) == "L9-0";
    }
    EXPECT_GE(same_topic_top5, 4) << "mode " << static_cast<int>(m);
  }
  EXPECT_STREQ(MatchName(MatchKind::kLikeHybrid), "like_hybrid");
}

TEST_F(LikeTest, FindLikeWithTextIsAUsageError) {
  PaperFinder finder(store_.get());
  FindQuery q;
  q.like = {Id("L1-5")};
  q.text = "portfolio";
  auto hits = finder.Find(q);
  ASSERT_FALSE(hits.ok());
  EXPECT_EQ(hits.status().code(), Code::kInvalidArgument);
}

TEST_F(LikeTest, FindLikeRanksACandidatePool) {
  PaperFinder finder(store_.get());
  FindQuery q;
  q.like = {Id("L0-3")};
  q.candidates = {Id("L0-3"), Id("L0-4"), Id("L1-4"), Id("L2-4")};
  q.limit = 10;
  auto hits = finder.Find(q);
  ASSERT_TRUE(hits.ok()) << hits.status().message();
  ASSERT_EQ(hits->size(), 3u) << "the example is left out of the pool";
  EXPECT_EQ(ExtOf((*hits)[0].paper), "L0-4");
}

// ---- TriSearch with like ------------------------------------------------------------

TEST_F(LikeTest, TriSearchLikeSeedsFromTheExample) {
  const int64_t ex = Id("L2-5");
  SearchQuery q;
  q.like = {ex};
  SearchParams p;
  TriSearch search(store_.get(), p);
  SearchTrace trace;
  auto r = search.Run(q, &trace);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_FALSE(r->empty());
  for (const SearchResult& x : *r) EXPECT_NE(x.id, ex) << "the example itself";
  // The example is the strongest paper seed.
  ASSERT_FALSE(trace.paper_seeds.empty());
  auto best = std::max_element(trace.paper_seeds.begin(), trace.paper_seeds.end(),
                               [](const auto& a, const auto& b) { return a.second < b.second; });
  EXPECT_EQ(best->first, ex);
  // Its stored keywords are the query keywords, and keyword seeds.
  Graph* g = search.finder().graph();
  ASSERT_NE(g, nullptr);
  std::set<std::string> stored;
  Adjacency::List l = g->adj(Rel::kKeywords).Neighbours(static_cast<uint64_t>(ex));
  for (uint32_t k : l.ids) stored.insert(store_->NodeLabel(NodeType::kKeyword, k)->second);
  ASSERT_FALSE(stored.empty());
  for (const Keyword& k : trace.query_keywords) EXPECT_TRUE(stored.count(k.text)) << k.text;
  EXPECT_FALSE(trace.keyword_seeds.empty());
  // Its references (L2-4, L2-3) and citations (L2-6, L2-7) are reached.
  std::set<std::string> top;
  for (size_t i = 0; i < r->size() && i < 8; ++i) top.insert(ExtOf((*r)[i].id));
  EXPECT_TRUE(top.count("L2-4") && top.count("L2-6")) << "top 8 misses a neighbour";
  // Paths start from seeds, some from the example.
  bool from_example = false;
  const Subgraph& sub = search.subgraph();
  for (const SearchResult& x : *r)
    for (const ExplainPath& path : x.paths) {
      ASSERT_FALSE(path.nodes.empty());
      const NodeRef& seed = sub.nodes[path.nodes[0]];
      if (seed.type == NodeType::kPaper && seed.id == static_cast<uint32_t>(ex))
        from_example = true;
    }
  EXPECT_TRUE(from_example);
}

TEST_F(LikeTest, TriSearchLikeNeighboursJoinTheCandidates) {
  const int64_t ex = Id("L0-5");
  SearchQuery q;
  q.like = {ex};
  SearchParams p;
  p.like_neighbours = 0;
  p.like_similar = 0;
  p.sem_keep = 0;  // no semantic candidates: only the example and its neighbours
  p.max_query_keywords = 0;
  {
    TriSearch search(store_.get(), p);
    SearchTrace trace;
    ASSERT_TRUE(search.Run(q, &trace).ok());
    ASSERT_EQ(trace.paper_seeds.size(), 1u);
    EXPECT_EQ(trace.paper_seeds[0].first, ex);
  }
  p.like_neighbours = 1;  // one reference and one citation, the most cited of each
  TriSearch search(store_.get(), p);
  SearchTrace trace;
  auto r = search.Run(q, &trace);
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::set<std::string> seeds;
  for (const auto& [id, w] : trace.paper_seeds) seeds.insert(ExtOf(id));
  // L0-5 cites L0-4 and L0-3 (L0-3 more cited), is cited by L0-6 and L0-7
  // (L0-6 more cited).
  EXPECT_EQ(seeds, (std::set<std::string>{"L0-5", "L0-3", "L0-6"}));
  for (const SearchResult& x : *r) EXPECT_NE(x.id, ex);
}

TEST_F(LikeTest, TriSearchLikeSimilarWorksEnterThePreGraphScore) {
  const int64_t ex = Id("L0-5");
  SearchQuery q;
  q.like = {ex};
  SearchParams p;
  p.sem_keep = 0;  // candidates: the example and its literature map's similar works
  p.max_query_keywords = 0;
  p.like_similar = 5;
  p.lambda_like = 0.8;
  TriSearch search(store_.get(), p);
  SearchTrace trace;
  auto r = search.Run(q, &trace);
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::set<std::string> seeds;
  for (const auto& [id, w] : trace.paper_seeds) seeds.insert(ExtOf(id));
  // Co-cited with L0-5: L0-4 (by L0-6) and L0-6 (by L0-7); coupled: L0-4
  // (both cite L0-3) and L0-6 (both cite L0-4).
  EXPECT_TRUE(seeds.count("L0-5") && seeds.count("L0-4") && seeds.count("L0-6"));
  double best = 0;
  for (const SearchResult& x : *r) {
    EXPECT_NE(x.id, ex);
    EXPECT_TRUE(x.s.has_like);
    EXPECT_GE(x.s.like, 0);
    EXPECT_LE(x.s.like, 1);
    best = std::max(best, x.s.like);
    // s_pre = 0.3 emb~ + 0.8 title~ + bonus + lambda_like x like: no title
    // hit but the example's, so the like part is what it adds above emb.
    EXPECT_GE(x.s.pre + 1e-12, p.lambda_like * x.s.like);
  }
  EXPECT_DOUBLE_EQ(best, 1.0) << "the most similar work scores 1";
  EXPECT_TRUE(ExtOf((*r)[0].id) == "L0-4" || ExtOf((*r)[0].id) == "L0-6") << ExtOf((*r)[0].id);
}

TEST_F(LikeTest, TriSearchLikeWithTextIsAUsageError) {
  SearchQuery q;
  q.like = {Id("L2-5")};
  q.text = "graph";
  TriSearch search(store_.get(), SearchParams{});
  auto r = search.Run(q, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
}

}  // namespace
}  // namespace litgraph
