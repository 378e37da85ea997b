// Tests for lexical.h: the impact-ordered BM25 index built by Ingest, checked
// against a brute-force BM25 computed here from AnalyzeTerms() of every
// paper's title + " " + abstract with the documented formula.
#include "litgraph/lexical.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "litgraph/generation.h"
#include "litgraph/graph.h"
#include "litgraph/ingest.h"
#include "litgraph/store.h"
#include "test_util.h"

namespace litgraph {
namespace {

using litgraph::testing::ScopedTempDir;
using litgraph::testing::WriteFile;

// Content words (with inflected variants that stem together), in decreasing
// frequency; documents draw from them with Zipf-like weights 1/(rank+1).
const std::vector<std::string> kVocabulary = {
    "graph",     "network",      "networks",     "neural",    "model",    "models",
    "learning",  "protein",      "folding",      "quantum",   "citation", "citations",
    "retrieval", "ranking",      "ranked",       "embedding", "language", "transformer",
    "attention", "biodiversity", "finance",      "climate",   "carbon",   "ocean",
    "genome",    "sequencing",   "immune",       "vaccine",   "galaxy",   "telescope",
    "algorithm", "complexity",   "theorem",      "proof",     "market",   "policy",
    "energy",    "battery",      "catalyst",     "polymer",   "robot",    "sensor",
    "vision",    "speech",       "translation",  "parsing",   "semantic", "syntax",
    "compiler",  "database",     "entanglement", "lineage",   "hajič",    "æther"};
// Noise the analyzer drops: stopwords and one-letter words.
const std::vector<std::string> kNoise = {"the", "of", "and", "in", "a", "x", "is", "with", "for"};

struct Corpus {
  std::vector<std::string> ext_ids, titles, abstracts;
};

Corpus MakeCorpus(std::mt19937& rng, int n) {
  std::vector<double> weights;
  for (size_t i = 0; i < kVocabulary.size(); ++i) weights.push_back(1.0 / (i + 1));
  std::discrete_distribution<size_t> zipf(weights.begin(), weights.end());
  std::uniform_int_distribution<size_t> noise(0, kNoise.size() - 1);
  auto text = [&](int words) {
    std::string s;
    for (int i = 0; i < words; ++i) {
      if (!s.empty()) s += (rng() % 5 == 0) ? ", " : " ";
      if (rng() % 4 == 0)
        s += kNoise[noise(rng)];
      else if (rng() % 40 == 0)
        s += std::to_string(rng() % 3000);
      else
        s += kVocabulary[zipf(rng)];
    }
    return s;
  };
  Corpus c;
  for (int i = 0; i < n; ++i) {
    c.ext_ids.push_back("L" + std::to_string(i));
    if (i == 17 || i == 113) {  // no indexable term at all
      c.titles.push_back("The and of");
      c.abstracts.push_back("");
      continue;
    }
    std::string title = text(2 + static_cast<int>(rng() % 7));
    title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
    c.titles.push_back(title);
    c.abstracts.push_back(i % 9 == 0 ? "" : text(static_cast<int>(rng() % 60)));
  }
  return c;
}

struct BruteForce {
  double k1 = 1.2, b = 0.75;
  std::map<uint32_t, std::map<std::string, int>> tf;  // doc -> term -> tf
  std::map<uint32_t, int> len;
  std::map<std::string, uint32_t> df;
  uint64_t n = 0;
  double avgdl = 0;
  double max_weight = 0;

  void Add(uint32_t doc, const std::string& text) {
    std::vector<std::string> terms = AnalyzeTerms(text);
    if (terms.empty()) return;
    ++n;
    len[doc] = static_cast<int>(terms.size());
    for (const auto& t : terms) ++tf[doc][t];
    for (const auto& [t, f] : tf[doc]) ++df[t];
  }
  void Finish() {
    double total = 0;
    for (const auto& [d, l] : len) total += l;
    avgdl = total / static_cast<double>(n);
    for (const auto& [d, terms] : tf)
      for (const auto& [t, f] : terms) max_weight = std::max(max_weight, Weight(t, d));
  }
  double Idf(uint32_t f) const { return std::log(1.0 + (n - f + 0.5) / (f + 0.5)); }
  double Weight(const std::string& term, uint32_t doc) const {
    auto it = tf.find(doc);
    if (it == tf.end()) return 0;
    auto jt = it->second.find(term);
    if (jt == it->second.end()) return 0;
    double f = jt->second;
    double norm = k1 * (1 - b + b * len.at(doc) / avgdl);
    return Idf(df.at(term)) * f * (k1 + 1) / (f + norm);
  }
  double Score(const std::vector<QueryTerm>& q, uint32_t doc) const {
    double s = 0;
    for (const auto& t : q) s += t.weight * Weight(t.term, doc);
    return s;
  }
  double scale() const { return max_weight / 255.0; }
};

// A search adds its postings up a tile of documents at a time
// (LexicalIndex::tile_docs): tiles of a few documents, crossed by every
// posting list many times, give the same hits, scores and postings visited
// as one tile over every document, with budgets that stop inside a term.
void ExpectTilesAgree(LexicalIndex& index, const std::vector<QueryTerm>& q,
                      const std::string& text) {
  const uint64_t saved = index.tile_docs;
  for (size_t budget : {size_t{0}, size_t{40}})
    for (size_t k : {size_t{5}, size_t{400}}) {
      index.tile_docs = uint64_t{1} << 20;
      const std::vector<LexicalHit> whole = index.Search(q, k, budget);
      const uint64_t visited = index.last_postings_visited;
      for (uint64_t tile : {8u, 24u, 64u}) {
        index.tile_docs = tile;
        const std::vector<LexicalHit> tiled = index.Search(q, k, budget);
        EXPECT_EQ(index.last_postings_visited, visited) << text << " tile " << tile;
        ASSERT_EQ(tiled.size(), whole.size()) << text << " tile " << tile;
        for (size_t i = 0; i < whole.size(); ++i) {
          EXPECT_EQ(tiled[i].doc, whole[i].doc) << text << " tile " << tile << " at " << i;
          EXPECT_EQ(tiled[i].score, whole[i].score) << text << " tile " << tile << " at " << i;
        }
      }
    }
  index.tile_docs = saved;
}

class LexicalIndexTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new ScopedTempDir();
    std::mt19937 rng(31337);
    corpus_ = new Corpus(MakeCorpus(rng, 200));
    std::string lines;
    for (size_t i = 0; i < corpus_->ext_ids.size(); ++i) {
      nlohmann::json j = {{"id", corpus_->ext_ids[i]},
                          {"title", corpus_->titles[i]},
                          {"abstract", corpus_->abstracts[i]},
                          {"year", 2000 + static_cast<int>(i % 20)}};
      lines += j.dump() + "\n";
    }
    WriteFile(tmp_->File("corpus.jsonl"), lines);
    auto store = Store::Open(tmp_->File("db"), Store::Mode::kWrite, true);
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = store.value().release();
    IngestStats stats;
    Status st = Ingest(store_, {tmp_->File("corpus.jsonl")}, IngestOptions(), &stats);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(stats.works_new, 200);
    auto graph = Graph::Open(store_);
    ASSERT_TRUE(graph.ok()) << graph.status().message();
    index_ = new LexicalIndex();
    st = index_->Open((*graph)->view());
    ASSERT_TRUE(st.ok()) << st.message();
    brute_ = new BruteForce();
    for (size_t i = 0; i < corpus_->ext_ids.size(); ++i) {
      auto id = store_->PaperByExtId(corpus_->ext_ids[i]);
      ASSERT_TRUE(id);
      docs_.push_back(static_cast<uint32_t>(*id));
      brute_->Add(static_cast<uint32_t>(*id), corpus_->titles[i] + " " + corpus_->abstracts[i]);
    }
    brute_->Finish();
  }
  static void TearDownTestSuite() {
    delete index_;
    delete store_;
    delete brute_;
    delete corpus_;
    delete tmp_;
    docs_.clear();
  }
  void SetUp() override {
    ASSERT_NE(index_, nullptr);
    ASSERT_NE(brute_, nullptr);
    ASSERT_EQ(docs_.size(), 200u);
  }

  // Random query text of 1..4 vocabulary words (repeats allowed), sometimes
  // with a stopword or an unknown word.
  static std::string RandomQuery(std::mt19937& rng) {
    std::string q;
    int words = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < words; ++i) {
      if (!q.empty()) q += ' ';
      q += kVocabulary[rng() % kVocabulary.size()];
    }
    if (rng() % 3 == 0) q += " the";
    if (rng() % 5 == 0) q += " zyzzyva";
    return q;
  }
  static double TotalWeight(const std::vector<QueryTerm>& q) {
    double w = 0;
    for (const auto& t : q) w += t.weight;
    return w;
  }

  static ScopedTempDir* tmp_;
  static Corpus* corpus_;
  static Store* store_;
  static LexicalIndex* index_;
  static BruteForce* brute_;
  static std::vector<uint32_t> docs_;
};

ScopedTempDir* LexicalIndexTest::tmp_ = nullptr;
Corpus* LexicalIndexTest::corpus_ = nullptr;
Store* LexicalIndexTest::store_ = nullptr;
LexicalIndex* LexicalIndexTest::index_ = nullptr;
BruteForce* LexicalIndexTest::brute_ = nullptr;
std::vector<uint32_t> LexicalIndexTest::docs_;

TEST(AnalyzeTermsTest, DropsStopwordsAndShortWordsAndStems) {
  EXPECT_TRUE(IsStopword("the"));
  EXPECT_FALSE(IsStopword("graph"));
  EXPECT_EQ(Stem("networks"), "network");
  EXPECT_EQ(Stem("ranking"), Stem("ranked"));
  EXPECT_EQ(AnalyzeTerms("The Networks of a graph, x 2020"),
            (std::vector<std::string>{"network", "graph", "2020"}));
  auto q = LexicalIndex::QueryTerms("network networks graph the");
  ASSERT_EQ(q.size(), 2u);
  EXPECT_EQ(q[0].term, "graph");
  EXPECT_EQ(q[0].weight, 1.0f);
  EXPECT_EQ(q[1].term, "network");
  EXPECT_EQ(q[1].weight, 2.0f);
}

TEST_F(LexicalIndexTest, CountsAndDocumentFrequencies) {
  EXPECT_EQ(index_->num_docs(), brute_->n);
  EXPECT_EQ(brute_->n, 198u);  // two papers have no indexable term
  EXPECT_EQ(index_->num_terms(), brute_->df.size());
  for (const auto& [term, df] : brute_->df) EXPECT_EQ(index_->DocFreq(term), df) << term;
  EXPECT_EQ(index_->DocFreq("zyzzyva"), 0u);
  EXPECT_EQ(index_->DocFreq(""), 0u);
  EXPECT_EQ(index_->DocFreq("networks"), 0u);  // only the stem is indexed
  EXPECT_GT(index_->DocFreq("network"), 0u);
  for (uint32_t df : {1u, 10u, 100u}) EXPECT_NEAR(index_->Idf(df), brute_->Idf(df), 1e-12) << df;
}

TEST_F(LexicalIndexTest, ExactSearchMatchesBruteForceBm25) {
  std::mt19937 rng(4242);
  const double scale = brute_->scale();
  ASSERT_GT(scale, 0);
  for (int qi = 0; qi < 150; ++qi) {
    const std::string text = RandomQuery(rng);
    const std::vector<QueryTerm> q = LexicalIndex::QueryTerms(text);
    const double tol = 2 * scale * TotalWeight(q);
    // Brute-force ranking over all documents with a positive score.
    std::vector<std::pair<double, uint32_t>> exact;
    for (uint32_t d : docs_) {
      double s = brute_->Score(q, d);
      if (s > 0) exact.emplace_back(s, d);
    }
    std::sort(exact.begin(), exact.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    const size_t k = 10;
    std::vector<LexicalHit> hits = index_->Search(q, k, 0);
    ASSERT_EQ(hits.size(), std::min(k, exact.size())) << text;
    if (hits.empty()) continue;
    std::map<uint32_t, double> exact_of;
    for (const auto& [s, d] : exact) exact_of[d] = s;
    // Ordered by score, ties by doc id; every score close to exact BM25.
    for (size_t i = 0; i < hits.size(); ++i) {
      if (i > 0) {
        EXPECT_TRUE(hits[i - 1].score > hits[i].score ||
                    (hits[i - 1].score == hits[i].score && hits[i - 1].doc < hits[i].doc))
            << text << " at " << i;
      }
      ASSERT_TRUE(exact_of.count(hits[i].doc)) << text << ": hit without any query term";
      EXPECT_NEAR(hits[i].score, exact_of[hits[i].doc], tol / 2) << text;
    }
    // Same top-k set up to quantization ties.
    const double kth = exact[hits.size() - 1].first;
    double weakest_hit = 1e300;
    std::set<uint32_t> hit_docs;
    for (const auto& h : hits) {
      hit_docs.insert(h.doc);
      weakest_hit = std::min(weakest_hit, exact_of[h.doc]);
      EXPECT_GE(exact_of[h.doc], kth - tol) << text << " doc " << h.doc;
    }
    for (size_t i = 0; i < hits.size(); ++i) {
      if (!hit_docs.count(exact[i].second)) {
        EXPECT_LE(exact[i].first, weakest_hit + tol) << text << " missed doc " << exact[i].second;
      }
    }
  }
}

TEST_F(LexicalIndexTest, SearchInSmallTilesEqualsOneTile) {
  std::mt19937 rng(8080);
  for (int qi = 0; qi < 100; ++qi) {
    const std::string text = RandomQuery(rng);
    ExpectTilesAgree(*index_, LexicalIndex::QueryTerms(text), text);
  }
}

TEST_F(LexicalIndexTest, ScoreDocsAgreesWithSearchAndBruteForce) {
  std::mt19937 rng(99);
  const double scale = brute_->scale();
  for (int qi = 0; qi < 60; ++qi) {
    const std::vector<QueryTerm> q = LexicalIndex::QueryTerms(RandomQuery(rng));
    const double tol = 2 * scale * TotalWeight(q);
    std::vector<LexicalHit> hits = index_->Search(q, 25, 0);
    std::vector<uint32_t> hit_docs;
    for (const auto& h : hits) hit_docs.push_back(h.doc);
    std::vector<float> scored = index_->ScoreDocs(q, hit_docs);
    ASSERT_EQ(scored.size(), hits.size());
    for (size_t i = 0; i < hits.size(); ++i)
      EXPECT_NEAR(scored[i], hits[i].score, 1e-4 * std::max(1.0f, hits[i].score));
    // Every document, including ones without the terms (score 0).
    std::vector<float> all = index_->ScoreDocs(q, docs_);
    for (size_t i = 0; i < docs_.size(); ++i) {
      double want = brute_->Score(q, docs_[i]);
      if (want == 0) {
        EXPECT_EQ(all[i], 0.0f);
      } else {
        EXPECT_NEAR(all[i], want, tol / 2);
      }
    }
  }
  // Duplicate and unknown documents.
  auto q = LexicalIndex::QueryTerms("graph");
  std::vector<uint32_t> docs = {docs_[0], docs_[0], 999999};
  std::vector<float> s = index_->ScoreDocs(q, docs);
  EXPECT_EQ(s[0], s[1]);
  EXPECT_EQ(s[2], 0.0f);
}

TEST_F(LexicalIndexTest, BudgetLimitedSearchReturnsKHitsBoundedByExact) {
  std::mt19937 rng(7);
  int checked = 0;
  for (int qi = 0; qi < 100; ++qi) {
    const std::vector<QueryTerm> q = LexicalIndex::QueryTerms(RandomQuery(rng));
    if (q.empty()) continue;
    const size_t k = 5;
    size_t matching = 0;
    for (uint32_t d : docs_) matching += brute_->Score(q, d) > 0;
    if (matching < k) continue;
    const size_t budget = k * q.size();
    std::vector<LexicalHit> hits = index_->Search(q, k, budget);
    const uint64_t visited = index_->last_postings_visited;
    ASSERT_EQ(hits.size(), k);
    ++checked;
    std::vector<uint32_t> hit_docs;
    for (const auto& h : hits) hit_docs.push_back(h.doc);
    std::vector<float> exact = index_->ScoreDocs(q, hit_docs);
    for (size_t i = 0; i < k; ++i)
      EXPECT_LE(hits[i].score, exact[i] * (1 + 1e-5) + 1e-6) << "doc " << hits[i].doc;
    index_->Search(q, k, 0);
    EXPECT_LE(visited, index_->last_postings_visited);
  }
  EXPECT_GT(checked, 20);
}

TEST_F(LexicalIndexTest, FilteredSearchRanksTheAcceptedDocuments) {
  std::mt19937 rng(5);
  const double scale = brute_->scale();
  for (int qi = 0; qi < 40; ++qi) {
    const std::vector<QueryTerm> q = LexicalIndex::QueryTerms(RandomQuery(rng));
    const double tol = 2 * scale * TotalWeight(q);
    auto accept = [](uint32_t d) { return d % 7 == 3; };
    std::vector<LexicalHit> hits = index_->Search(q, 50, 0, accept);
    std::vector<double> exact;
    for (uint32_t d : docs_)
      if (accept(d) && brute_->Score(q, d) > 0) exact.push_back(brute_->Score(q, d));
    std::sort(exact.rbegin(), exact.rend());
    ASSERT_EQ(hits.size(), std::min<size_t>(50, exact.size()));
    for (size_t i = 0; i < hits.size(); ++i) {
      EXPECT_TRUE(accept(hits[i].doc));
      EXPECT_NEAR(hits[i].score, exact[i], tol);  // i-th best, up to quantization
    }
  }
}

TEST_F(LexicalIndexTest, EmptyQueriesAndZeroK) {
  EXPECT_TRUE(index_->Search({}, 10).empty());
  EXPECT_TRUE(index_->Search(LexicalIndex::QueryTerms("the of and"), 10).empty());
  EXPECT_TRUE(index_->Search(LexicalIndex::QueryTerms("zyzzyva"), 10).empty());
  EXPECT_TRUE(index_->Search(LexicalIndex::QueryTerms("graph"), 0).empty());
  std::vector<QueryTerm> zero_weight = {{"graph", 0.0f}};
  EXPECT_TRUE(index_->Search(zero_weight, 10).empty());
}

TEST_F(LexicalIndexTest, MissingIndexIsNotFound) {
  auto view = store_->Current("graph");
  ASSERT_TRUE(view.ok()) << view.status().message();
  LexicalIndex index;
  Status st = index.Open(**view, "no_such_");
  EXPECT_EQ(st.code(), Code::kNotFound);
}

// Updates write a delta (lexical.h, UpdateLexicalIndexes): the changed and
// new papers indexed again with the base's statistics, their base postings
// masked. Checked against that documented frame computed here; then an
// update past the delta fraction compacts, and the index is exact BM25 of
// the current texts again.
class LexicalDeltaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open(tmp_.File("db"), Store::Mode::kWrite, true);
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(*store);
  }
  // Ingests (ext id, title, abstract) records as one update.
  void Upsert(const std::vector<std::array<std::string, 3>>& docs) {
    std::string lines;
    for (const auto& [id, title, abstract] : docs)
      lines += nlohmann::json({{"id", id}, {"title", title}, {"abstract", abstract}}).dump() + "\n";
    WriteFile(tmp_.File("batch.jsonl"), lines);
    IngestStats stats;
    Status st = Ingest(store_.get(), {tmp_.File("batch.jsonl")}, IngestOptions(), &stats);
    ASSERT_TRUE(st.ok()) << st.message();
    for (const auto& [id, title, abstract] : docs) text_[id] = title + " " + abstract;
  }
  uint32_t Doc(const std::string& ext) {
    auto id = store_->PaperByExtId(ext);
    EXPECT_TRUE(id) << ext;
    return static_cast<uint32_t>(id.value_or(0));
  }
  const GenerationView* View() {
    auto view = store_->Current("graph");
    EXPECT_TRUE(view.ok() && *view) << view.status().message();
    return view.ok() ? *view : nullptr;
  }
  static std::vector<std::array<std::string, 3>> Records(const Corpus& c, const std::string& prefix,
                                                         size_t first, size_t step) {
    std::vector<std::array<std::string, 3>> out;
    for (size_t i = 0; i < c.ext_ids.size(); ++i)
      out.push_back({prefix + std::to_string(first + i * step), c.titles[i], c.abstracts[i]});
    return out;
  }

  // Two updates against one (ADeltaBuiltOverTwoUpdatesEqualsOneBuiltAtOnce).
  void ADeltaBuiltOverTwoUpdates();

  ScopedTempDir tmp_;
  std::unique_ptr<Store> store_;
  std::map<std::string, std::string> text_;  // ext id -> current title + abstract
  bool damage_run_ = false;
};

// A full build on two threads (two title + abstract builders fed alternate
// batches, one absorbing the other's runs) writes the same files as on one,
// and as ingest's bulk load: with a budget that spills each builder into
// dozens of runs (past the 64 merged at once) and with one that does not.
TEST_F(LexicalDeltaTest, ABuildOnTwoThreadsWritesTheSameFiles) {
  std::mt19937 rng(77);
  Upsert(Records(MakeCorpus(rng, 20000), "P", 0, 1));
  const GenerationView* loaded = View();
  ASSERT_NE(loaded, nullptr);
  const std::vector<std::string> files = {"lexicon", "postings", "title.lexicon", "title.postings"};
  std::map<std::string, std::string> bulk;
  for (const std::string& f : files) bulk[f] = testing::Payload(loaded->Path(f));
  for (size_t budget : {size_t{1} << 16, size_t{64} << 20})
    for (int threads : {1, 2}) {
      auto out = GenerationBuilder::Start(store_.get(), "graph");
      ASSERT_TRUE(out.ok()) << out.status().message();
      LexicalBuildStats stats;
      Status st = BuildLexicalIndexes(store_.get(), out->get(), budget, &stats, threads);
      ASSERT_TRUE(st.ok()) << st.message();
      EXPECT_GT(stats.postings, 200000);
      for (const std::string& f : files)
        EXPECT_TRUE(testing::Payload((*out)->Path(f)) == bulk[f])
            << f << " differs: budget " << budget << ", " << threads << " threads";
    }
}

// An update takes the current delta's unchanged papers from its kept runs
// (delta.run, title.delta.run) instead of their texts. Two updates, the
// second changing papers of the first again (one to a text without terms),
// give the same delta files, runs included, as one update of both.
TEST_F(LexicalDeltaTest, ADeltaBuiltOverTwoUpdatesEqualsOneBuiltAtOnce) {
  ADeltaBuiltOverTwoUpdates();
}

// A damaged run only spares work: the update reads the texts instead, and
// writes the same files.
TEST_F(LexicalDeltaTest, ADamagedRunIsReadFromTheTextsInstead) {
  damage_run_ = true;
  ADeltaBuiltOverTwoUpdates();
}

void LexicalDeltaTest::ADeltaBuiltOverTwoUpdates() {
  std::mt19937 rng(31);
  const auto base = Records(MakeCorpus(rng, 3000), "B", 0, 1);
  std::mt19937 rng1(32), rng2(33);
  auto first = Records(MakeCorpus(rng1, 150), "B", 7, 19);  // base papers changed
  for (auto& r : Records(MakeCorpus(rng1, 60), "N", 0, 1)) first.push_back(r);
  auto second = Records(MakeCorpus(rng2, 30), "B", 7, 38);  // changed again
  for (auto& r : Records(MakeCorpus(rng2, 10), "N", 0, 3)) second.push_back(r);
  for (auto& r : Records(MakeCorpus(rng2, 100), "B", 11, 23)) second.push_back(r);
  for (auto& r : Records(MakeCorpus(rng2, 50), "N", 60, 1)) second.push_back(r);
  second.push_back({"B45", "The of and", "with the"});  // no term left
  Upsert(base);
  Upsert(first);
  ASSERT_TRUE(View()->Has("delta.run") && View()->Has("title.delta.run"));
  if (damage_run_) {
    const std::string path = View()->Path("title.delta.run");
    std::string bytes = testing::ReadFile(path);
    bytes[40] ^= 0x01;
    std::filesystem::remove(path);
    WriteFile(path, bytes);
  }
  Upsert(second);
  const GenerationView* updated = View();
  ASSERT_TRUE(updated);
  auto once = Store::Open(tmp_.File("once"), Store::Mode::kWrite, true);
  ASSERT_TRUE(once.ok()) << once.status().message();
  auto ingest = [&](const std::vector<std::array<std::string, 3>>& docs) {
    std::string lines;
    for (const auto& [id, title, abstract] : docs)
      lines += nlohmann::json({{"id", id}, {"title", title}, {"abstract", abstract}}).dump() + "\n";
    WriteFile(tmp_.File("once.jsonl"), lines);
    IngestStats stats;
    Status st = Ingest(once->get(), {tmp_.File("once.jsonl")}, IngestOptions(), &stats);
    ASSERT_TRUE(st.ok()) << st.message();
  };
  ingest(base);
  std::vector<std::array<std::string, 3>> both = first;
  both.insert(both.end(), second.begin(), second.end());
  ingest(both);
  auto view = (*once)->Current("graph");
  ASSERT_TRUE(view.ok() && *view);
  for (const std::string prefix : {"delta.", "title.delta."})
    for (const char* what : {"lexicon", "postings", "mask", "run"}) {
      const std::string name = prefix + what;
      ASSERT_TRUE(updated->Has(name) && (*view)->Has(name)) << name;
      EXPECT_TRUE(testing::Payload(updated->Path(name)) == testing::Payload((*view)->Path(name)))
          << name << " differs";
    }
  LexicalIndex index;
  ASSERT_TRUE(index.Open(*updated).ok());
  std::set<std::string> changed;
  for (const auto& r : both) changed.insert(r[0]);
  EXPECT_EQ(index.delta_docs(), changed.size());
}

// An update past the delta fraction folds base and delta into one index
// from their runs and the changed papers' texts: the same files, runs
// included, as a build from every paper's text.
TEST_F(LexicalDeltaTest, ACompactionFromTheRunsEqualsABuildFromTheTexts) {
  std::mt19937 rng(41);
  Upsert(Records(MakeCorpus(rng, 1000), "B", 0, 1));
  ASSERT_TRUE(View()->Has("run") && View()->Has("title.run"));
  std::mt19937 rng1(42), rng2(43);
  auto first = Records(MakeCorpus(rng1, 120), "B", 3, 7);
  for (auto& r : Records(MakeCorpus(rng1, 30), "N", 0, 1)) first.push_back(r);
  Upsert(first);
  ASSERT_TRUE(View()->Has("delta.run"));
  auto second = Records(MakeCorpus(rng2, 40), "B", 3, 14);  // changed again
  for (auto& r : Records(MakeCorpus(rng2, 60), "B", 5, 11)) second.push_back(r);
  for (auto& r : Records(MakeCorpus(rng2, 20), "N", 30, 1)) second.push_back(r);
  second.push_back({"B12", "The of and", "with the"});  // no term left
  Upsert(second);
  const GenerationView* compacted = View();
  ASSERT_TRUE(compacted);
  EXPECT_FALSE(compacted->Has("delta.lexicon")) << "past 20% of the base: one index again";
  EXPECT_FALSE(compacted->Has("delta.run"));
  auto out = GenerationBuilder::Start(store_.get(), "graph");
  ASSERT_TRUE(out.ok()) << out.status().message();
  LexicalBuildStats stats;
  Status st = BuildLexicalIndexes(store_.get(), out->get(), size_t{1} << 16, &stats, 2);
  ASSERT_TRUE(st.ok()) << st.message();
  for (const std::string prefix : {"", "title."})
    for (const char* what : {"lexicon", "postings", "run"}) {
      const std::string name = prefix + what;
      EXPECT_TRUE(testing::Payload(compacted->Path(name)) == testing::Payload((*out)->Path(name)))
          << name << " differs from a build from the texts";
    }
}

TEST_F(LexicalDeltaTest, UpdatesSearchBaseAndDeltaWithTheBaseStatistics) {
  std::mt19937 rng(2027);
  Upsert(Records(MakeCorpus(rng, 200), "L", 0, 1));
  BruteForce base;
  for (const auto& [ext, text] : text_) base.Add(Doc(ext), text);
  base.Finish();
  // 20 papers replaced by other texts (none of them without terms), 15 new.
  std::mt19937 rng2(5);
  Corpus changed = MakeCorpus(rng2, 40);
  changed.ext_ids.resize(20);
  changed.titles.erase(changed.titles.begin(), changed.titles.begin() + 20);
  changed.abstracts.erase(changed.abstracts.begin(), changed.abstracts.begin() + 20);
  std::vector<std::array<std::string, 3>> update = Records(changed, "L", 5, 10);
  Corpus fresh = MakeCorpus(rng2, 15);
  for (auto& r : Records(fresh, "N", 0, 1)) update.push_back(r);
  for (auto& r : update) r[1] += " quokkafresh";  // a term no base paper has
  Upsert(update);

  const GenerationView* view = View();
  ASSERT_TRUE(view);
  EXPECT_TRUE(view->Has("delta.lexicon") && view->Has("delta.mask"));
  EXPECT_TRUE(view->Has("title.delta.lexicon") && view->Has("title.delta.mask"));
  LexicalIndex index;
  ASSERT_TRUE(index.Open(*view).ok());
  ASSERT_TRUE(index.has_delta());
  EXPECT_EQ(index.delta_docs(), 35u);
  std::set<uint32_t> delta_docs;
  ASSERT_TRUE(index.ForEachDeltaDoc([&](uint32_t d) { delta_docs.insert(d); }).ok());
  // The documented frame: N = base papers + new ones, df = base + delta,
  // the base's average length and scale.
  std::map<uint32_t, std::map<std::string, int>> tf;
  std::map<uint32_t, int> len;
  std::map<std::string, uint32_t> delta_df;
  uint64_t n = base.n;
  for (const auto& r : update) {
    const uint32_t d = Doc(r[0]);
    EXPECT_TRUE(delta_docs.count(d)) << r[0];
    std::vector<std::string> terms = AnalyzeTerms(r[1] + " " + r[2]);
    len[d] = static_cast<int>(terms.size());
    for (const auto& t : terms) ++tf[d][t];
    for (const auto& [t, f] : tf[d]) ++delta_df[t];
    if (r[0][0] == 'N') ++n;
  }
  EXPECT_EQ(index.num_docs(), n);
  for (const auto& [t, df] : delta_df) EXPECT_EQ(index.DocFreq(t), base.df[t] + df) << t;
  const double scale = base.scale();
  auto impact = [&](double w) { return std::clamp<long>(std::lround(w / scale), 1, 255); };
  auto expected = [&](const std::vector<QueryTerm>& q, uint32_t d) {
    double s = 0;
    for (const QueryTerm& t : q) {
      if (delta_docs.count(d)) {
        auto it = tf[d].find(t.term);
        if (it == tf[d].end()) continue;
        const double f = it->second, df = base.df[t.term] + delta_df[t.term];
        const double idf = std::log(1.0 + (n - df + 0.5) / (df + 0.5));
        const double norm = base.k1 * (1 - base.b + base.b * len[d] / base.avgdl);
        s += t.weight * impact(idf * f * (base.k1 + 1) / (f + norm)) * scale;
      } else if (double w = base.Weight(t.term, d); w > 0) {
        s += t.weight * impact(w) * scale;
      }
    }
    return s;
  };
  std::vector<uint32_t> all;
  for (const auto& [ext, text] : text_) all.push_back(Doc(ext));
  std::mt19937 qrng(11);
  for (int qi = 0; qi < 120; ++qi) {
    std::string text;
    for (int w = 0; w < 1 + static_cast<int>(qrng() % 3); ++w)
      text += kVocabulary[qrng() % kVocabulary.size()] + " ";
    if (qi % 4 == 0) text += "quokkafresh";
    const std::vector<QueryTerm> q = LexicalIndex::QueryTerms(text);
    double weights = 0;
    for (const auto& t : q) weights += t.weight;
    const double tol = scale * weights * 1.01;
    std::vector<float> scored = index.ScoreDocs(q, all);
    std::vector<std::pair<double, uint32_t>> ranked;
    for (size_t i = 0; i < all.size(); ++i) {
      const double e = expected(q, all[i]);
      EXPECT_NEAR(scored[i], e, tol) << text << " doc " << all[i];
      if (e > 0) ranked.emplace_back(e, all[i]);
    }
    std::sort(ranked.rbegin(), ranked.rend());
    std::vector<LexicalHit> hits = index.Search(q, 10, 0);
    ASSERT_EQ(hits.size(), std::min<size_t>(10, ranked.size())) << text;
    for (size_t i = 0; i < hits.size(); ++i) {
      EXPECT_NEAR(hits[i].score, expected(q, hits[i].doc), tol) << text;
      EXPECT_GE(expected(q, hits[i].doc), ranked[hits.size() - 1].first - tol) << text;
    }
    ExpectTilesAgree(index, q, text);  // the delta's mask read a tile at a time
  }
  // The new term finds exactly the delta's papers; the title index has a
  // delta too.
  EXPECT_EQ(index.Search(LexicalIndex::QueryTerms("quokkafresh"), 100, 0).size(), 35u);
  LexicalIndex titles;
  ASSERT_TRUE(titles.Open(*view, kTitleIndexPrefix).ok());
  EXPECT_TRUE(titles.has_delta());
  EXPECT_EQ(titles.Search(LexicalIndex::QueryTerms("quokkafresh"), 100, 0).size(), 35u);

  // A second update: the delta is rebuilt with both updates' papers.
  Upsert({{"N100", "quokkafresh ocean", ""}});
  view = View();
  LexicalIndex second;
  ASSERT_TRUE(second.Open(*view).ok());
  EXPECT_EQ(second.delta_docs(), 36u);
  EXPECT_EQ(second.Search(LexicalIndex::QueryTerms("quokkafresh"), 100, 0).size(), 36u);

  // Past 20% of the base's papers: compacted, exact BM25 of the texts.
  Corpus more = MakeCorpus(rng2, 10);
  Upsert(Records(more, "L", 1, 10));
  view = View();
  EXPECT_FALSE(view->Has("delta.lexicon") || view->Has("delta.mask") ||
               view->Has("title.delta.lexicon"));
  LexicalIndex compacted;
  ASSERT_TRUE(compacted.Open(*view).ok());
  EXPECT_FALSE(compacted.has_delta());
  BruteForce now;
  for (const auto& [ext, text] : text_) now.Add(Doc(ext), text);
  now.Finish();
  EXPECT_EQ(compacted.num_docs(), now.n);
  for (const auto& [t, df] : now.df) EXPECT_EQ(compacted.DocFreq(t), df) << t;
}

// A damaged page of the delta's mask: the base postings of the papers its
// 4096-byte window covers read as held by the delta, so a search skips them
// and reports the damage; a search that needs no base posting there (a
// term only the delta has) never reads the window and stays ok. Tiles of 8
// documents read the same windows as one tile.
TEST_F(LexicalDeltaTest, ADamagedMaskWindowHidesItsBasePapersOnly) {
  std::mt19937 rng(404);
  Upsert(Records(MakeCorpus(rng, 5000), "L", 0, 1));
  Upsert({{"L3", "quokkafresh ocean", ""}, {"N1", "quokkafresh graph", ""}});
  const GenerationView* view = View();
  ASSERT_TRUE(view && view->Has("delta.mask"));
  {
    LexicalIndex intact;
    ASSERT_TRUE(intact.Open(*view).ok());
    EXPECT_GT(intact.Search(LexicalIndex::QueryTerms("graph"), 50).size(), 2u);
  }
  {  // a byte of the mask's second check page (papers 4032 to 8127)
    std::fstream f(view->Path("delta.mask"), std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(600);
    char c = 0;
    f.get(c);
    f.seekp(600);
    f.put(static_cast<char>(c ^ 0x40));
  }
  const std::set<uint32_t> delta = {Doc("L3"), Doc("N1")};
  for (uint64_t tile : {uint64_t{1} << 16, uint64_t{8}}) {
    LexicalIndex index;
    ASSERT_TRUE(index.Open(*view).ok());
    index.tile_docs = tile;
    EXPECT_EQ(index.Search(LexicalIndex::QueryTerms("quokkafresh"), 10).size(), 2u) << tile;
    EXPECT_TRUE(index.status().ok()) << tile << ": " << index.status().message();
    const std::vector<LexicalHit> hits = index.Search(LexicalIndex::QueryTerms("graph"), 50);
    ASSERT_FALSE(hits.empty()) << tile;
    for (const LexicalHit& h : hits) EXPECT_TRUE(delta.count(h.doc)) << tile << " doc " << h.doc;
    EXPECT_EQ(index.status().code(), Code::kCorruption) << tile;
  }
}

// Forged indexes: payloads a writer bug or a forger could produce, behind
// valid checksums (fuzz/lexical_fuzz.cc found the first). A one-document,
// one-term index ("graph"), then its lexicon or postings rewritten.
class ForgedLexicalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ts_ = std::make_unique<testing::TestStore>(tmp_.path());
    GenerationBuilder* out = ts_->Start("graph");
    LexicalBuilder b(tmp_.path(), "forged", false, 1 << 20);
    b.Add(3, "graph", "");
    ASSERT_TRUE(b.Build(4, {}).ok());
    LexicalBuildStats stats;
    ASSERT_TRUE(b.Write(out, "", &stats).ok());
    view_ = ts_->Commit();
  }
  void Rewrite(const std::string& name, const std::string& payload) {
    auto id = view_->Identity(name);
    ASSERT_TRUE(id.ok());
    ASSERT_TRUE(WriteCheckedFile(view_->Path(name), *id, payload).ok());
  }
  // The lexicon with its id space (header bytes 24..32) replaced.
  std::string WithIdSpace(uint64_t id_space) {
    std::string lex = testing::Payload(view_->Path("lexicon"));
    std::memcpy(lex.data() + 24, &id_space, 8);
    return lex;
  }
  // Postings of "graph" replaced by `postings`: the lexicon's postings
  // offsets (after the 96-byte header and the two term-string offsets) end
  // at their size, and the id space is 2^32.
  void ForgePostings(const std::string& postings) {
    Rewrite("postings", postings);
    std::string lex = WithIdSpace(uint64_t{1} << 32);
    const uint64_t end = postings.size();
    std::memcpy(lex.data() + 96 + 16 + 8, &end, 8);
    Rewrite("lexicon", lex);
  }
  ScopedTempDir tmp_;
  std::unique_ptr<testing::TestStore> ts_;
  const GenerationView* view_ = nullptr;
};

// An id space beyond u32 document ids made Search map an accumulator of
// 2^64 floats: std::bad_alloc (or, where n * 4 wrapped, a few bytes written
// far beyond). Now the lexicon is refused at open.
TEST_F(ForgedLexicalTest, IdSpaceBeyondDocumentIdsIsCorruption) {
  {
    LexicalIndex ok;
    ASSERT_TRUE(ok.Open(*view_).ok());
    EXPECT_EQ(ok.Search(LexicalIndex::QueryTerms("graph"), 5).size(), 1u);
  }
  for (uint64_t id_space :
       {uint64_t{0xFF0000000000002E}, (uint64_t{1} << 62) + 1, uint64_t{1} << 33}) {
    Rewrite("lexicon", WithIdSpace(id_space));
    LexicalIndex index;
    Status st = index.Open(*view_);
    EXPECT_EQ(st.code(), Code::kCorruption) << id_space;
  }
  Rewrite("lexicon", WithIdSpace(uint64_t{1} << 32));  // the largest id space u32 ids allow
  LexicalIndex index;
  ASSERT_TRUE(index.Open(*view_).ok());
  EXPECT_EQ(index.Search(LexicalIndex::QueryTerms("graph"), 5).size(), 1u);
}

// A segment claiming more postings than it has bytes made Search reserve
// room for all of them (2^32 - 1 x 4 bytes with a 2^32 id space): now the
// term reads as damaged.
TEST_F(ForgedLexicalTest, SegmentCountBeyondItsBytesIsDamage) {
  // The postings of "graph": 1 segment, impact, count 1, 1 byte, doc 3.
  std::string post = testing::Payload(view_->Path("postings"));
  ASSERT_EQ(post.size(), 5u);
  ASSERT_EQ(post[0], 1);
  ASSERT_EQ(post[2], 1);
  ForgePostings(post.substr(0, 2) + std::string("\xff\xff\xff\xff\x0f", 5) + post.substr(3));
  LexicalIndex index;
  ASSERT_TRUE(index.Open(*view_).ok());
  EXPECT_TRUE(index.Search(LexicalIndex::QueryTerms("graph"), 5).empty());
  EXPECT_EQ(index.status().code(), Code::kCorruption);
  std::vector<uint32_t> docs = {3};
  EXPECT_EQ(index.ScoreDocs(LexicalIndex::QueryTerms("graph"), docs)[0], 0.0f);
}

// A document delta that wraps around u64 to an earlier document (20, then
// 20 + 2^64 - 18 = 2): a search adding up tiles of 8 documents would have
// written before its tile's accumulator; it is damage, and the document
// before it still counts.
TEST_F(ForgedLexicalTest, ADocumentDeltaThatWrapsAroundIsDamage) {
  std::string post = testing::Payload(view_->Path("postings"));
  ASSERT_EQ(post.size(), 5u);
  const std::string docs("\x14\xee\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11);
  ForgePostings(post.substr(0, 2) + "\x02" + "\x0b" + docs);
  LexicalIndex index;
  ASSERT_TRUE(index.Open(*view_).ok());
  index.tile_docs = 8;
  const std::vector<LexicalHit> hits = index.Search(LexicalIndex::QueryTerms("graph"), 5);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].doc, 20u);
  EXPECT_EQ(index.status().code(), Code::kCorruption);
}

}  // namespace
}  // namespace litgraph
