// Tests for search.h.
//
// The helpers (TitlesInText, AbstractOf, KeywordLevel / TitleLevel) and the
// parameter profiles and biases are checked against the values the header
// and SciAtlas (section 3) document. TriSearch::Run runs end to end on a real
// store: 42 native records with abstracts in three topics (protein folding,
// finance, graph learning), with built-in keywords (RunKeywordExtraction) and
// a 16-dimension built-in embedding (RunEmbed). With q.candidates fixing the
// pool, every candidate is returned, so eq. 8-10 and 17-18 are recomputed
// here from the returned score parts and must match exactly.
#include "litgraph/search.h"

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
#include "litgraph/metrics.h"
#include "litgraph/semantic.h"
#include "litgraph/store.h"
#include "store_fixture.h"
#include "test_util.h"

namespace litgraph {
namespace {

using litgraph::testing::ScopedTempDir;
using litgraph::testing::WriteFile;
using nlohmann::json;

// ---- TitlesInText --------------------------------------------------------------

TEST(TitlesInTextTest, QuotedTitlesOfFourWordsOrMore) {
  auto t = TitlesInText(
      "As shown in \"Attention Is All You Need\" and \"short title here\" and \"too short\".");
  ASSERT_EQ(t.size(), 1u) << "\"short title here\" has three words, fewer than four";
  EXPECT_EQ(t[0].first, "Attention Is All You Need");
  EXPECT_DOUBLE_EQ(t[0].second, 0.85);
  auto two = TitlesInText(
      "\"Graph Attention Networks Revisited\" and \"Neural Message Passing for Chemistry\"");
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].first, "Graph Attention Networks Revisited");
  EXPECT_EQ(two[1].first, "Neural Message Passing for Chemistry");
}

TEST(TitlesInTextTest, ShortQuotesAreIgnored) {
  EXPECT_TRUE(TitlesInText("the \"so-called\" effect and the \"big data\" era").empty());
  EXPECT_TRUE(TitlesInText("\"one two three\"").empty());
  EXPECT_TRUE(TitlesInText("").empty());
  EXPECT_TRUE(TitlesInText("no quotes at all in this text").empty());
  auto t = TitlesInText("\"one two three four\"");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].first, "one two three four");
}

TEST(TitlesInTextTest, CurlyQuotes) {
  auto t = TitlesInText(
      "see \xe2\x80\x9c"
      "Deep Residual Learning for Image Recognition"
      "\xe2\x80\x9d for details");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].first, "Deep Residual Learning for Image Recognition");
  EXPECT_DOUBLE_EQ(t[0].second, 0.85);
}

TEST(TitlesInTextTest, UnclosedQuoteIsNotATitle) {
  EXPECT_TRUE(TitlesInText("an \"unclosed quote with many words in it").empty());
}

TEST(TitlesInTextTest, ReferenceLines) {
  auto t = TitlesInText(
      "Related work.\n"
      "[1] Smith J, Doe K. A Title Of Some Paper. ACL, 2019.\n"
      "  [12] Vaswani and Shazeer. Attention Is All You Need. NeurIPS, 2017.\n"
      "[3] Someone. Short. Venue.\n");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].first, "A Title Of Some Paper");
  EXPECT_DOUBLE_EQ(t[0].second, 0.65);
  EXPECT_EQ(t[1].first, "Attention Is All You Need");
  EXPECT_DOUBLE_EQ(t[1].second, 0.65);
}

TEST(TitlesInTextTest, QuotedAndReferenceTitlesTogether) {
  auto t = TitlesInText(
      "We extend \"Graph Attention Networks for Node Classification\".\n"
      "[2] Kipf T, Welling M. Semi-Supervised Classification with Graph "
      "Convolutional Networks. ICLR, 2017.\n");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_DOUBLE_EQ(t[0].second, 0.85);
  EXPECT_EQ(t[1].first, "Semi-Supervised Classification with Graph Convolutional Networks");
  EXPECT_DOUBLE_EQ(t[1].second, 0.65);
}

// Regression test for a fixed bug (lib/src/search.cc, TitlesInText): a reference line is split at
// the first two ". " after the bracket, so an author given with initials
// ("A. Author.") is taken as the title boundary: for
// "[3] A. Author. A Title Of Some Paper. ACL, 2019." the candidate is
// "Author" (one word, dropped) and the actual title is never found. Expected
// ("A Title Of Some Paper", 0.65); actual: no title.
TEST(TitlesInTextTest, ReferenceLineWithInitials) {
  auto t = TitlesInText("[3] A. Author. A Title Of Some Paper. ACL, 2019.");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].first, "A Title Of Some Paper");
  EXPECT_DOUBLE_EQ(t[0].second, 0.65);
}

// ---- AbstractOf ------------------------------------------------------------------

TEST(AbstractOfTest, JsonRecordAbstract) {
  EXPECT_EQ(AbstractOf(R"({"id": "x", "title": "T", "abstract": "The abstract text."})"),
            "The abstract text.");
  EXPECT_EQ(AbstractOf(R"({"text": "Only a text field."})"), "Only a text field.");
  // A record whose abstract is not a string falls back to the whole text.
  std::string odd = R"({"abstract": 5})";
  EXPECT_EQ(AbstractOf(odd), odd);
}

TEST(AbstractOfTest, ParagraphAfterAnAbstractHeading) {
  std::string para =
      "We present a method for folding proteins that combines coarse-grained molecular dynamics "
      "with learned energy functions, and show on fifty benchmark proteins that it recovers "
      "native tertiary structure more often than earlier methods while using less compute.";
  ASSERT_GT(para.size(), 200u);
  std::string paper = "A Fast Protein Folder\nJane Doe, John Roe\n\nAbstract\n" + para +
                      "\n\n1 Introduction\nProteins fold into structures that determine function.";
  EXPECT_EQ(AbstractOf(paper), para);
  std::string upper = "Title\n\nABSTRACT\n" + para + "\n\nINTRODUCTION\nMore text.";
  EXPECT_EQ(AbstractOf(upper), para);
}

TEST(AbstractOfTest, FallsBackToTheFirst2000Characters) {
  std::string text;
  while (text.size() < 5000) text += "graph learning without any heading, ";
  EXPECT_EQ(AbstractOf(text), text.substr(0, 2000));
  EXPECT_EQ(AbstractOf("short text"), "short text");
  EXPECT_EQ(AbstractOf(""), "");
  // The word "abstract" inside a sentence is not a heading.
  std::string sentence = "In the abstract, graph learning is hard. " + text;
  EXPECT_EQ(AbstractOf(sentence), sentence.substr(0, 2000));
  // A JSON value that is not an object is text like any other.
  EXPECT_EQ(AbstractOf("[1, 2, 3]"), "[1, 2, 3]");
}

// ---- Levels ------------------------------------------------------------------------

TEST(LevelTest, KeywordAndTitleLevels) {
  EXPECT_DOUBLE_EQ(KeywordLevel("high"), 0.9);
  EXPECT_DOUBLE_EQ(KeywordLevel("middle"), 0.7);
  EXPECT_DOUBLE_EQ(KeywordLevel("low"), 0.4);
  EXPECT_LT(KeywordLevel("HIGH"), 0);
  EXPECT_LT(KeywordLevel("medium"), 0);
  EXPECT_LT(KeywordLevel(""), 0);
  EXPECT_DOUBLE_EQ(TitleLevel("high"), 0.95);
  EXPECT_DOUBLE_EQ(TitleLevel("middle"), 0.85);
  EXPECT_DOUBLE_EQ(TitleLevel("low"), 0.65);
  EXPECT_LT(TitleLevel("top"), 0);
}

// ---- Profiles and biases -------------------------------------------------------------

TEST(SearchParamsTest, DefaultsAreThePapers) {
  SearchParams p;
  EXPECT_DOUBLE_EQ(p.lambda_pre, 0.35);
  EXPECT_DOUBLE_EQ(p.lambda_graph, 0.45);
  EXPECT_DOUBLE_EQ(p.lambda_imp, 0.20);
  EXPECT_DOUBLE_EQ(p.gate_floor, 0.25);
  EXPECT_DOUBLE_EQ(p.gamma, 0.5);
  EXPECT_DOUBLE_EQ(p.rwr.alpha, 0.15);
  EXPECT_DOUBLE_EQ(p.lambda_emb, 0.3);
  EXPECT_DOUBLE_EQ(p.lambda_title, 0.8);
  EXPECT_DOUBLE_EQ(p.bonus_exact, 0.35);
  EXPECT_DOUBLE_EQ(p.bonus_fuzzy, 0.10);
  EXPECT_DOUBLE_EQ(p.theta_title, 0.88);
  EXPECT_DOUBLE_EQ(p.theta_kw, 0.7);
  EXPECT_EQ(p.sem_top, 60u);
  EXPECT_EQ(p.sem_keep, 15u);
  EXPECT_EQ(p.limit, 20u);
  EXPECT_EQ(p.importance, Importance::kLog);
  // The extensions are off.
  EXPECT_EQ(p.short_query, nullptr);
  EXPECT_EQ(p.prf_docs, 0u);
  EXPECT_DOUBLE_EQ(p.like_lambda_pre, 0.0);
  EXPECT_DOUBLE_EQ(p.lambda_lex, 0.0);
}

TEST(SearchParamsTest, BalancedChangesNothing) {
  SearchParams p;
  ASSERT_TRUE(p.ApplyProfile("balanced").ok());
  SearchParams d;
  EXPECT_EQ(p.lambda_pre, d.lambda_pre);
  EXPECT_EQ(p.lambda_graph, d.lambda_graph);
  EXPECT_EQ(p.lambda_imp, d.lambda_imp);
  EXPECT_EQ(p.gate_floor, d.gate_floor);
  EXPECT_EQ(p.gamma, d.gamma);
  EXPECT_EQ(p.rwr.alpha, d.rwr.alpha);
  EXPECT_EQ(p.importance, d.importance);
}

TEST(SearchParamsTest, PrecisionTrustsDirectMatchesAndRestartsMore) {
  SearchParams p, d;
  ASSERT_TRUE(p.ApplyProfile("precision").ok());
  EXPECT_GT(p.lambda_pre, d.lambda_pre);
  EXPECT_LT(p.lambda_graph, d.lambda_graph);
  EXPECT_LT(p.gate_floor, d.gate_floor) << "a stricter gate";
  EXPECT_GT(p.rwr.alpha, d.rwr.alpha) << "more restart";
  EXPECT_NEAR(p.lambda_pre + p.lambda_graph + p.lambda_imp, 1.0, 1e-12);
}

TEST(SearchParamsTest, DiscoveryRelaxesTheGateAndRestartsLess) {
  SearchParams p, d;
  ASSERT_TRUE(p.ApplyProfile("discovery").ok());
  EXPECT_GT(p.gate_floor, d.gate_floor) << "relaxed gate (eq. 17)";
  EXPECT_LT(p.rwr.alpha, d.rwr.alpha) << "lower restart";
  EXPECT_GT(p.lambda_graph, d.lambda_graph);
  EXPECT_NEAR(p.lambda_pre + p.lambda_graph + p.lambda_imp, 1.0, 1e-12);
}

TEST(SearchParamsTest, ImpactWeighsCitations) {
  SearchParams p, d;
  ASSERT_TRUE(p.ApplyProfile("impact").ok());
  EXPECT_GT(p.gamma, d.gamma) << "eq. 11";
  EXPECT_GT(p.lambda_imp, d.lambda_imp) << "eq. 18";
  EXPECT_NEAR(p.lambda_pre + p.lambda_graph + p.lambda_imp, 1.0, 1e-12);
}

TEST(SearchParamsTest, AdaptiveRanksByQueryLength) {
  SearchParams p;
  ASSERT_TRUE(p.ApplyProfile("adaptive").ok());
  ASSERT_NE(p.short_query, nullptr);
  ASSERT_GT(p.long_words, p.short_words);
  const SearchParams& s = *p.short_query;
  const size_t short_n = static_cast<size_t>(p.short_words);
  const size_t long_n = static_cast<size_t>(p.long_words);
  SearchParams a = p.ForQueryWords(1), b = p.ForQueryWords(short_n), c = p.ForQueryWords(long_n);
  EXPECT_EQ(a.short_query, nullptr);
  EXPECT_DOUBLE_EQ(p.ShortQueryWeight(1), 1.0);
  EXPECT_DOUBLE_EQ(p.ShortQueryWeight(long_n + 100), 0.0);
  for (const SearchParams* x : {&a, &b}) {  // short: the short side's values
    EXPECT_DOUBLE_EQ(x->lambda_pre, s.lambda_pre);
    EXPECT_DOUBLE_EQ(x->lambda_graph, s.lambda_graph);
    EXPECT_DOUBLE_EQ(x->gate_floor, s.gate_floor);
    EXPECT_DOUBLE_EQ(x->rwr.alpha, s.rwr.alpha);
    EXPECT_DOUBLE_EQ(x->lambda_lex, s.lambda_lex);
  }
  EXPECT_DOUBLE_EQ(c.lambda_pre, p.lambda_pre);  // long: these
  EXPECT_DOUBLE_EQ(c.gate_floor, p.gate_floor);
  EXPECT_DOUBLE_EQ(c.rwr.alpha, p.rwr.alpha);
  // In between: a linear blend, halfway at the midpoint.
  size_t mid = (short_n + long_n) / 2;
  double t = p.ShortQueryWeight(mid);
  EXPECT_GT(t, 0.0);
  EXPECT_LT(t, 1.0);
  SearchParams m = p.ForQueryWords(mid);
  EXPECT_NEAR(m.lambda_graph, t * s.lambda_graph + (1 - t) * p.lambda_graph, 1e-12);
  EXPECT_NEAR(m.gate_floor, t * s.gate_floor + (1 - t) * p.gate_floor, 1e-12);
  EXPECT_NEAR(m.rwr.alpha, t * s.rwr.alpha + (1 - t) * p.rwr.alpha, 1e-12);
  // Weights of the final score sum to 1 on both sides.
  EXPECT_NEAR(s.lambda_pre + s.lambda_graph + s.lambda_imp, 1.0, 1e-12);
  EXPECT_NEAR(p.lambda_pre + p.lambda_graph + p.lambda_imp, 1.0, 1e-12);
  EXPECT_GT(p.like_lambda_pre, 0.0) << "--like keeps s_pre's weight";
  // Without short_query every query has the same parameters.
  SearchParams plain;
  EXPECT_DOUBLE_EQ(plain.ShortQueryWeight(1), 0.0);
  EXPECT_DOUBLE_EQ(plain.ForQueryWords(1).lambda_graph, plain.lambda_graph);
}

TEST(SearchParamsTest, CommandLineValuesApplyToASecondTable) {
  SearchParams a, b;
  ParamTable ta, tb;
  a.Register(&ta);
  b.Register(&tb);
  ASSERT_TRUE(ta.SetFromCommandLine("lambda_graph", "0.7").ok());
  ASSERT_TRUE(ta.SetFromCommandLine("alpha", "0.3").ok());
  ASSERT_TRUE(ta.ApplyCommandLineTo(&tb).ok());
  EXPECT_DOUBLE_EQ(b.lambda_graph, 0.7);
  EXPECT_DOUBLE_EQ(b.rwr.alpha, 0.3);
  EXPECT_DOUBLE_EQ(b.lambda_pre, 0.35) << "only what was given";
}

TEST(SearchParamsTest, UnknownProfileIsAUsageError) {
  SearchParams p;
  Status st = p.ApplyProfile("fastest");
  EXPECT_EQ(st.code(), Code::kInvalidArgument);
  EXPECT_NE(st.message().find("fastest"), std::string::npos);
  EXPECT_EQ(p.ApplyProfile("").code(), Code::kInvalidArgument);
  EXPECT_EQ(p.ApplyProfile("Precision").code(), Code::kInvalidArgument);
  EXPECT_DOUBLE_EQ(p.lambda_pre, 0.35) << "a rejected profile changes nothing";
}

TEST(SearchParamsTest, BiasScalesOneRelation) {
  struct Case {
    const char* spec;
    double RwrParams::*field;
    double factor;
  };
  for (const Case& c : std::vector<Case>{{"keyword=high", &RwrParams::beta_hk, 1.5},
                                         {"nonseed_keyword=low", &RwrParams::eps_kw, 0.5},
                                         {"citation=high", &RwrParams::beta_cite, 1.5},
                                         {"citation=middle", &RwrParams::beta_cite, 1.0},
                                         {"citation=low", &RwrParams::beta_cite, 0.5},
                                         {"related=high", &RwrParams::beta_rel, 1.5},
                                         {"authorship=low", &RwrParams::beta_auth, 0.5},
                                         {"coauthorship=high", &RwrParams::beta_coauth, 1.5},
                                         {"cooccurrence=low", &RwrParams::beta_cooc, 0.5}}) {
    SearchParams p, d;
    ASSERT_TRUE(p.ApplyBias(c.spec).ok()) << c.spec;
    EXPECT_DOUBLE_EQ(p.rwr.*(c.field), d.rwr.*(c.field) * c.factor) << c.spec;
  }
  SearchParams p;
  ASSERT_TRUE(p.ApplyBias("citation=high").ok());
  EXPECT_DOUBLE_EQ(p.rwr.beta_cite, 1.5);
  EXPECT_DOUBLE_EQ(p.rwr.beta_rel, 0.9) << "other relations unchanged";
  EXPECT_DOUBLE_EQ(p.rwr.alpha, 0.15);
}

TEST(SearchParamsTest, ExplorationBiasMovesTheRestart) {
  SearchParams hi, lo, mid;
  ASSERT_TRUE(hi.ApplyBias("exploration=high").ok());
  ASSERT_TRUE(lo.ApplyBias("exploration=low").ok());
  ASSERT_TRUE(mid.ApplyBias("exploration=middle").ok());
  EXPECT_LT(hi.rwr.alpha, 0.15) << "more exploration = less restart";
  EXPECT_GT(lo.rwr.alpha, 0.15);
  EXPECT_DOUBLE_EQ(mid.rwr.alpha, 0.15);
  EXPECT_GT(hi.rwr.alpha, 0);
  EXPECT_LT(lo.rwr.alpha, 1);
}

TEST(SearchParamsTest, BadBiasesAreUsageErrors) {
  for (const char* bad :
       {"citation", "citation=", "citation=huge", "=high", "gravity=high", "citation=HIGH", ""}) {
    SearchParams p;
    EXPECT_EQ(p.ApplyBias(bad).code(), Code::kInvalidArgument) << bad;
    EXPECT_DOUBLE_EQ(p.rwr.beta_cite, 1.0) << bad;
  }
}

// ---- TriSearch end to end ----------------------------------------------------------------

struct Topic {
  std::vector<std::string> phrases;
  std::vector<std::string> authors;
};

const std::vector<Topic>& Topics() {
  static const std::vector<Topic> t = {
      {{"protein folding", "amino acid sequence", "molecular dynamics simulation",
        "tertiary structure prediction", "hydrophobic core packing", "free energy landscape",
        "chaperone assisted folding", "misfolded protein aggregation"},
       {"Ada Folder", "Ben Helix", "Cara Strand"}},
      {{"stock market volatility", "portfolio optimization", "asset pricing model",
        "investment risk management", "financial time series", "market efficiency hypothesis",
        "hedge fund returns", "interest rate forecasting"},
       {"Dan Ledger", "Eve Equity", "Finn Bond"}},
      {{"graph neural network", "node classification", "message passing scheme", "link prediction",
        "graph convolution layer", "representation learning", "knowledge graph embedding",
        "citation network analysis"},
       {"Gil Vertex", "Hana Edge", "Ivo Walker"}},
  };
  return t;
}

const char* kAdjectives[14] = {"Scalable",     "Robust",      "Efficient",   "Adaptive",
                               "Hierarchical", "Bayesian",    "Sparse",      "Deep",
                               "Stochastic",   "Variational", "Distributed", "Interpretable",
                               "Contrastive",  "Temporal"};

std::string Cap(std::string s) {
  s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

struct PaperSpec {
  std::string ext, title;
  int topic, year, cites;
};

std::vector<PaperSpec>& Specs() {
  static std::vector<PaperSpec> specs;
  return specs;
}

// A store with 42 papers (14 per topic), keywords and 16-dim embeddings, built
// once for the suite and reopened read-only by each test.
class TriSearchTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new ScopedTempDir();
    dir_ = tmp_->File("store");
    std::string text;
    Specs().clear();
    for (int t = 0; t < 3; ++t) {
      const Topic& tp = Topics()[t];
      for (int j = 0; j < 14; ++j) {
        const auto& ph = tp.phrases;
        std::string a = ph[j % 8], b = ph[(j + 3) % 8], c = ph[(j + 5) % 8], d = ph[(j + 1) % 8],
                    e = ph[(j + 6) % 8];
        PaperSpec s;
        s.ext = "T" + std::to_string(t) + "-" + std::to_string(j);
        s.title = std::string(kAdjectives[j]) + " " + a + " with " + b + " for " + c;
        s.topic = t;
        s.year = 2005 + j;
        s.cites = (j * 5 + t * 3) % 13;
        json refs = json::array();
        if (j >= 1) refs.push_back("T" + std::to_string(t) + "-" + std::to_string(j - 1));
        if (j >= 2) refs.push_back("T" + std::to_string(t) + "-" + std::to_string(j - 2));
        json rec = {{"id", s.ext},
                    {"title", s.title},
                    {"abstract", Cap(a) + " and " + b + " are studied together. Our approach to " +
                                     c + " improves on prior work in " + d + ". Experiments on " +
                                     e + " show that " + a + " benefits from " + c + "."},
                    {"year", s.year},
                    {"cited_by_count", s.cites},
                    {"authors", json::array({tp.authors[j % 3], tp.authors[(j + 1) % 3]})},
                    {"references", refs}};
        text += rec.dump() + "\n";
        Specs().push_back(s);
      }
    }
    const std::string file = tmp_->File("records.jsonl");
    WriteFile(file, text);
    auto s = Store::Open(dir_, Store::Mode::kWrite, true);
    ASSERT_TRUE(s.ok()) << s.status().message();
    Store* store = s.value().get();
    IngestStats is;
    Status st = Ingest(store, {file}, IngestOptions{}, &is);
    ASSERT_TRUE(st.ok()) << st.message();
    EmbedRunStats es;
    ASSERT_NO_FATAL_FAILURE(testing::ExtractAndEmbed(store, &es));
    ASSERT_EQ(es.dim, 16);
    ASSERT_EQ(es.titles, 42);
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
  const PaperSpec& SpecOf(int64_t id) {
    auto l = store_->NodeLabel(NodeType::kPaper, id);
    EXPECT_TRUE(l.has_value());
    for (const PaperSpec& s : Specs())
      if (l && s.ext == l->first) return s;
    ADD_FAILURE() << "unknown paper " << id;
    return Specs()[0];
  }

  std::vector<SearchResult> Run(const SearchQuery& q, SearchParams p = {},
                                SearchTrace* trace = nullptr) {
    TriSearch search(store_.get(), p);
    SearchTrace local;
    auto r = search.Run(q, trace ? trace : &local);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? r.value() : std::vector<SearchResult>{};
  }

  static ScopedTempDir* tmp_;
  static std::string dir_;
  std::unique_ptr<Store> store_;
};

ScopedTempDir* TriSearchTest::tmp_ = nullptr;
std::string TriSearchTest::dir_;

std::vector<double> MinMaxOf(const std::vector<double>& x) {
  double lo = *std::min_element(x.begin(), x.end()), hi = *std::max_element(x.begin(), x.end());
  std::vector<double> out;
  for (double v : x) out.push_back(hi > lo ? (v - lo) / (hi - lo) : (hi > 0 ? 1.0 : 0.0));
  return out;
}

void ExpectSortedByFinal(const std::vector<SearchResult>& r) {
  for (size_t i = 1; i < r.size(); ++i)
    EXPECT_GE(r[i - 1].s.final_score, r[i].s.final_score) << "not sorted at " << i;
}

// Recomputes eq. 8-10 and 17-18 over a pool that the results cover exactly.
void CheckFormula(const std::vector<SearchResult>& r,
                  const std::vector<PaperSpec>& specs_of_results, const SearchParams& p) {
  ASSERT_FALSE(r.empty());
  std::vector<double> pre, graph, emb, title;
  double total_cites = 0;
  for (size_t i = 0; i < r.size(); ++i) {
    pre.push_back(r[i].s.pre);
    graph.push_back(r[i].s.graph);
    emb.push_back(r[i].s.emb);
    title.push_back(r[i].s.title);
    total_cites += specs_of_results[i].cites;
  }
  std::vector<double> pre_n = MinMaxOf(pre), graph_n = MinMaxOf(graph), emb_n = MinMaxOf(emb),
                      title_n = MinMaxOf(title);
  for (size_t i = 0; i < r.size(); ++i) {
    const ScoreParts& s = r[i].s;
    double bonus = s.title_exact ? p.bonus_exact : s.title_fuzzy ? p.bonus_fuzzy : 0.0;
    EXPECT_NEAR(s.pre, p.lambda_emb * emb_n[i] + p.lambda_title * title_n[i] + bonus, 1e-12)
        << "eq. 9, " << i;
    double imp = std::min(1.0, std::log(1.0 + specs_of_results[i].cites) /
                                   std::log(1.0 + std::max(1.0, total_cites)));
    EXPECT_NEAR(s.importance, imp, 1e-12) << "eq. 10, " << i;
    double gate = std::max(p.gate_floor, pre_n[i]);
    EXPECT_NEAR(s.gate, gate, 1e-12) << "eq. 17, " << i;
    double final_score = std::min(
        1.0, p.lambda_pre * pre_n[i] + p.lambda_graph * graph_n[i] * gate + p.lambda_imp * imp);
    EXPECT_NEAR(s.final_score, final_score, 1e-12) << "eq. 18, " << i;
    EXPECT_GE(s.final_score, 0);
    EXPECT_LE(s.final_score, 1);
    EXPECT_GE(s.graph, 0);
    EXPECT_LE(s.graph, 1);
  }
}

TEST_F(TriSearchTest, CandidatePoolScoresFollowTheFormulas) {
  std::vector<int64_t> cands;
  for (int t = 0; t < 3; ++t)
    for (int j : {0, 3, 7, 11})
      cands.push_back(Id("T" + std::to_string(t) + "-" + std::to_string(j)));
  SearchQuery q;
  q.text = "protein folding on a free energy landscape with molecular dynamics simulation";
  q.candidates = cands;
  SearchParams p;
  SearchTrace trace;
  std::vector<SearchResult> r = Run(q, p, &trace);
  ASSERT_EQ(r.size(), cands.size()) << "every candidate is returned";
  std::set<int64_t> got;
  std::vector<PaperSpec> specs;
  for (const auto& x : r) {
    got.insert(x.id);
    specs.push_back(SpecOf(x.id));
    EXPECT_EQ(x.type, NodeType::kPaper);
    EXPECT_TRUE(x.s.has_emb);
  }
  EXPECT_EQ(got, std::set<int64_t>(cands.begin(), cands.end()));
  ExpectSortedByFinal(r);
  CheckFormula(r, specs, p);
  EXPECT_GT(trace.subgraph_nodes, 0u);
  EXPECT_GT(trace.iterations, 0);
  // The semantic path works: a protein folding paper ranks first.
  EXPECT_EQ(SpecOf(r[0].id).topic, 0);
}

TEST_F(TriSearchTest, CandidatePoolWithAnExactTitle) {
  std::vector<int64_t> cands;
  for (int t = 0; t < 3; ++t)
    for (int j : {1, 4, 9}) cands.push_back(Id("T" + std::to_string(t) + "-" + std::to_string(j)));
  const PaperSpec& target = Specs()[14 + 4];  // T1-4, a finance paper
  ASSERT_EQ(target.ext, "T1-4");
  SearchQuery q;
  q.text = "protein folding";
  q.titles = {{target.title, 0.95}};
  SearchParams p;
  q.candidates = cands;
  std::vector<SearchResult> r = Run(q, p);
  ASSERT_EQ(r.size(), cands.size());
  std::vector<PaperSpec> specs;
  for (const auto& x : r) specs.push_back(SpecOf(x.id));
  CheckFormula(r, specs, p);
  ASSERT_EQ(specs[0].ext, "T1-4") << "the exact title hit ranks first";
  EXPECT_TRUE(r[0].s.title_exact);
  EXPECT_NEAR(r[0].s.title, 0.95, 1e-12) << "eq. 6: confidence x 1.0";
  for (size_t i = 1; i < r.size(); ++i) EXPECT_FALSE(r[i].s.title_exact);
  ExpectSortedByFinal(r);
}

TEST_F(TriSearchTest, ImportanceModesAndWeightsAreApplied) {
  std::vector<int64_t> cands;
  for (int j = 0; j < 14; j += 2) cands.push_back(Id("T2-" + std::to_string(j)));
  SearchQuery q;
  q.text = "graph neural network for node classification";
  q.candidates = cands;
  SearchParams p;
  p.importance = Importance::kUniform;
  p.lambda_pre = 0.5;
  p.lambda_graph = 0.3;
  p.lambda_imp = 0.2;
  p.gate_floor = 0.1;
  std::vector<SearchResult> r = Run(q, p);
  ASSERT_EQ(r.size(), cands.size());
  std::vector<double> pre, graph;
  for (const auto& x : r) {
    pre.push_back(x.s.pre);
    graph.push_back(x.s.graph);
  }
  std::vector<double> pre_n = MinMaxOf(pre), graph_n = MinMaxOf(graph);
  for (size_t i = 0; i < r.size(); ++i) {
    EXPECT_DOUBLE_EQ(r[i].s.importance, 1.0) << "uniform";
    double gate = std::max(0.1, pre_n[i]);
    EXPECT_NEAR(r[i].s.final_score, std::min(1.0, 0.5 * pre_n[i] + 0.3 * graph_n[i] * gate + 0.2),
                1e-12);
  }
}

// importance percentile (not in the paper): the citation percentile within
// field and year from the metrics file; without a current file, a usage error.
TEST_F(TriSearchTest, PercentileImportanceReadsTheMetricsFile) {
  std::vector<int64_t> cands;
  for (int j = 0; j < 14; j += 2) cands.push_back(Id("T1-" + std::to_string(j)));
  SearchQuery q;
  q.text = "graph neural network for node classification";
  q.candidates = cands;
  SearchParams p;
  p.importance = Importance::kPercentile;
  {
    TriSearch search(store_.get(), p);
    auto r = search.Run(q, nullptr);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
    EXPECT_NE(r.status().message().find("litgraph-metrics --build"), std::string::npos);
  }
  {
    auto w = Store::Open(dir_, Store::Mode::kWrite);
    ASSERT_TRUE(w.ok()) << w.status().message();
    MetricsBuildStats stats;
    ASSERT_TRUE(BuildMetrics(w->get(), MetricsBuildOptions(), &stats).ok());
  }
  auto reopened = Store::Open(dir_, Store::Mode::kRead);
  ASSERT_TRUE(reopened.ok());
  store_ = std::move(reopened.value());
  std::vector<SearchResult> r = Run(q, p);
  ASSERT_EQ(r.size(), cands.size());
  auto graph = Graph::Open(store_.get());
  ASSERT_TRUE(graph.ok());
  auto file = MetricsFile::Open(store_.get(), **graph);
  ASSERT_TRUE(file.ok() && *file);
  std::set<double> distinct;
  for (const SearchResult& x : r) {
    PaperMetrics m;
    ASSERT_TRUE((*file)->Get(static_cast<uint32_t>(x.id), &m));
    EXPECT_NEAR(x.s.importance, m.percentile / 100.0, 1e-12) << x.id;
    distinct.insert(x.s.importance);
  }
  EXPECT_GT(distinct.size(), 1u);  // the papers' percentiles differ: not a constant
}

TEST_F(TriSearchTest, ExactTitleRanksFirst) {
  const PaperSpec& target = Specs()[28 + 6];  // T2-6
  SearchQuery q;
  q.text = target.title;
  q.titles = {{target.title, 0.95}};
  std::vector<SearchResult> r = Run(q);
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(SpecOf(r[0].id).ext, target.ext);
  EXPECT_TRUE(r[0].s.title_exact);
  EXPECT_TRUE(r[0].is_seed);
  ExpectSortedByFinal(r);
  EXPECT_LE(r.size(), 20u);
  // Case and punctuation do not matter to the exact match (letters only).
  std::string shouting = target.title;
  for (char& c : shouting) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  q.titles = {{shouting + "!", 0.95}};
  r = Run(q);
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(SpecOf(r[0].id).ext, target.ext);
  EXPECT_TRUE(r[0].s.title_exact);
}

TEST_F(TriSearchTest, DefaultSearchReturnsTopicalResultsWithPaths) {
  SearchQuery q;
  q.text = "portfolio optimization and asset pricing model under stock market volatility";
  SearchTrace trace;
  std::vector<SearchResult> r = Run(q, {}, &trace);
  ASSERT_FALSE(r.empty());
  EXPECT_LE(r.size(), 20u);
  ExpectSortedByFinal(r);
  EXPECT_EQ(SpecOf(r[0].id).topic, 1);
  int finance_top5 = 0;
  for (size_t i = 0; i < r.size() && i < 5; ++i) finance_top5 += SpecOf(r[i].id).topic == 1;
  EXPECT_GE(finance_top5, 4);
  std::set<int64_t> ids;
  for (const auto& x : r) {
    EXPECT_TRUE(ids.insert(x.id).second) << "duplicate result";
    EXPECT_GE(x.s.final_score, 0);
    EXPECT_LE(x.s.final_score, 1);
    EXPECT_GE(x.s.gate, 0.25);
    EXPECT_LE(x.paths.size(), 3u);
  }
  EXPECT_FALSE(r[0].paths.empty()) << "the top result is explained";
  EXPECT_GT(trace.subgraph_nodes, 0u);
  EXPECT_FALSE(trace.paper_seeds.empty());
}

TEST_F(TriSearchTest, LimitCutsTheResults) {
  SearchQuery q;
  q.text = "graph neural network message passing scheme";
  SearchParams p;
  p.limit = 3;
  std::vector<SearchResult> r = Run(q, p);
  EXPECT_EQ(r.size(), 3u);
}

TEST_F(TriSearchTest, RetrievalModes) {
  SearchQuery q;
  q.text = "protein folding and misfolded protein aggregation";
  for (const char* mode : {"keyword", "semantic", "hybrid"}) {
    ASSERT_TRUE(ParseRetrievalMode(mode, &q.mode));
    SearchTrace trace;
    std::vector<SearchResult> r = Run(q, {}, &trace);
    ASSERT_FALSE(r.empty()) << mode;
    ExpectSortedByFinal(r);
    EXPECT_EQ(SpecOf(r[0].id).topic, 0) << mode;
    if (std::string(mode) == "keyword") {
      EXPECT_FALSE(trace.keyword_seeds.empty()) << "the keyword path seeds keywords";
      EXPECT_TRUE(trace.paper_seeds.empty()) << "no semantic or title path in keyword mode";
      for (const auto& x : r) EXPECT_EQ(x.s.emb, 0) << "no embedding score in keyword mode";
    }
    if (std::string(mode) == "semantic") {
      EXPECT_TRUE(trace.keyword_seeds.empty());
    }
  }
  // Title mode with no title anywhere: no seed, nothing found (and no crash).
  q.mode = RetrievalMode::kTitle;
  SearchTrace trace;
  std::vector<SearchResult> none = Run(q, {}, &trace);
  EXPECT_TRUE(none.empty());
  EXPECT_TRUE(trace.keyword_seeds.empty());
  EXPECT_TRUE(trace.paper_seeds.empty());
  // Title mode with a title quoted in the query text.
  const PaperSpec& target = Specs()[5];  // T0-5
  q.text = "a follow-up of \"" + target.title + "\" with new data";
  std::vector<SearchResult> r = Run(q, {}, &trace);
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(SpecOf(r[0].id).ext, target.ext);
  EXPECT_TRUE(r[0].s.title_exact);
  EXPECT_NEAR(r[0].s.title, 0.85, 1e-12) << "quoted titles have confidence 0.85";
}

// The built-in model's similarity (semantic.h): (1 - w) dense cosine + w
// TF-IDF cosine over the stored text, w = 0.8 by default.
TEST_F(TriSearchTest, SemanticScoreMixesDenseAndLexicalCosines) {
  auto sem = SemanticIndex::Open(store_.get());
  ASSERT_TRUE(sem.ok()) << sem.status().message();
  SemanticIndex& s = *sem.value();
  ASSERT_DOUBLE_EQ(s.lexical_weight(), 0.8);
  auto* lsa = dynamic_cast<LsaModel*>(&s.embedder());
  ASSERT_NE(lsa, nullptr);
  const std::string text = "hedge fund returns and portfolio optimization";
  auto q = s.EmbedQuery(text);
  ASSERT_TRUE(q.ok());
  ASSERT_FALSE(q->empty());
  for (const char* ext : {"T1-3", "T0-3", "T2-7"}) {
    int64_t id = Id(ext);
    const PaperSpec& spec = SpecOf(id);
    double got;
    ASSERT_TRUE(s.Score(*q, VecField::kTitle, static_cast<uint64_t>(id), &got));
    const float* row = s.vectors(VecField::kTitle).Row(static_cast<uint64_t>(id));
    double want = 0.2 * Dot(q->dense.data(), row, s.dim()) +
                  0.8 * SparseDot(lsa->EmbedSparse(text), lsa->EmbedSparse(spec.title));
    EXPECT_NEAR(got, want, 1e-6) << ext;
  }
  double unused;
  EXPECT_FALSE(s.Score(*q, VecField::kTitle, 100000, &unused)) << "no such paper";
}

// A word that only three titles share ranks exactly those titles first: the
// lexical part, with the lexical index's candidates, keeps rare words that
// 16 latent dimensions blur.
TEST_F(TriSearchTest, SemanticFieldKeepsRareTitleWords) {
  PaperFinder finder(store_.get());
  SemanticIndex* sem = finder.semantic();
  ASSERT_NE(sem, nullptr);
  auto q = sem->EmbedQuery("interpretable");
  ASSERT_TRUE(q.ok());
  std::vector<VectorHit> hits = finder.SemanticField(VecField::kTitle, *q, 3, 64);
  ASSERT_EQ(hits.size(), 3u);
  for (const VectorHit& h : hits)
    EXPECT_EQ(SpecOf(h.id).title.rfind("Interpretable ", 0), 0u) << SpecOf(h.id).title;
}

TEST_F(TriSearchTest, CandidatesModeReturnsOnlyCandidates) {
  std::vector<int64_t> cands = {Id("T0-2"), Id("T1-2"), Id("T2-2"), Id("T2-13")};
  for (const char* mode : {"hybrid", "keyword", "semantic", "title"}) {
    SearchQuery q;
    q.text = "graph neural network for link prediction";
    ASSERT_TRUE(ParseRetrievalMode(mode, &q.mode));
    q.candidates = cands;
    std::vector<SearchResult> r = Run(q);
    std::set<int64_t> got;
    for (const auto& x : r) got.insert(x.id);
    EXPECT_EQ(got, std::set<int64_t>(cands.begin(), cands.end())) << mode;
    ExpectSortedByFinal(r);
  }
}

TEST_F(TriSearchTest, ExcludeRemovesAPaper) {
  SearchQuery q;
  q.text = "hydrophobic core packing in tertiary structure prediction";
  std::vector<SearchResult> r = Run(q);
  ASSERT_GE(r.size(), 2u);
  int64_t top = r[0].id;
  q.exclude = {top};
  std::vector<SearchResult> r2 = Run(q);
  ASSERT_FALSE(r2.empty());
  for (const auto& x : r2) EXPECT_NE(x.id, top);
  // In a candidate pool too.
  q.candidates = {Id("T0-1"), Id("T0-2"), Id("T0-3")};
  q.exclude = {Id("T0-2")};
  std::vector<SearchResult> r3 = Run(q);
  std::set<int64_t> got;
  for (const auto& x : r3) got.insert(x.id);
  EXPECT_EQ(got, (std::set<int64_t>{Id("T0-1"), Id("T0-3")}));
}

TEST_F(TriSearchTest, YearFilters) {
  SearchQuery q;
  q.text = "financial time series and interest rate forecasting";
  q.after = 2010;
  q.before = 2014;
  std::vector<SearchResult> r = Run(q);
  ASSERT_FALSE(r.empty());
  for (const auto& x : r) {
    int y = SpecOf(x.id).year;
    EXPECT_GE(y, 2010);
    EXPECT_LE(y, 2014);
  }
}

TEST_F(TriSearchTest, TargetAuthorReturnsAuthors) {
  SearchQuery q;
  q.text = "stock market volatility and hedge fund returns";
  q.target = SearchTarget::kAuthor;
  std::vector<SearchResult> r = Run(q);
  ASSERT_FALSE(r.empty());
  std::set<std::string> finance = {"Dan Ledger", "Eve Equity", "Finn Bond"};
  for (const auto& x : r) {
    EXPECT_EQ(x.type, NodeType::kAuthor);
    auto l = store_->NodeLabel(NodeType::kAuthor, x.id);
    ASSERT_TRUE(l.has_value());
    EXPECT_DOUBLE_EQ(x.s.final_score, x.s.graph) << "eq. 19: the walk score";
  }
  ExpectSortedByFinal(r);
  auto first = store_->NodeLabel(NodeType::kAuthor, r[0].id);
  EXPECT_TRUE(finance.count(first->second)) << first->second;
}

TEST_F(TriSearchTest, ProfilesRun) {
  SearchQuery q;
  q.text = "representation learning with graph convolution layer";
  for (const char* profile : {"adaptive", "precision", "balanced", "discovery", "impact"}) {
    SearchParams p;
    ASSERT_TRUE(p.ApplyProfile(profile).ok());
    std::vector<SearchResult> r = Run(q, p);
    ASSERT_FALSE(r.empty()) << profile;
    ExpectSortedByFinal(r);
    double floor = p.short_query ? std::min(p.gate_floor, p.short_query->gate_floor) : p.gate_floor;
    for (const auto& x : r) EXPECT_GE(x.s.gate, floor) << profile;
  }
}

// Regression test for a fixed bug (lib/src/search.cc, TriSearch::Run, semantic path): a query
// with no term the embedding model knows embeds to the zero vector, which is
// searched anyway (the keyword path skips zero vectors, the semantic path
// does not): every paper scores 0, the HNSW search returns arbitrary papers,
// they become candidates and seeds of weight 0, and the walk has no mass. The
// result is a list of papers ranked by citation importance alone (pre = graph
// = 0). Expected: no candidate, an empty result (tri-search exits 1);
// actual: 20 unrelated papers. PaperFinder's semantic text search
// (lib/src/find.cc) has the same problem (find-paper --semantic zzqqxxjj).
TEST_F(TriSearchTest, QueryWithoutAKnownTermFindsNothing) {
  for (const char* mode : {"semantic", "hybrid"}) {
    SearchQuery q;
    q.text = "zzqqxxjj";
    ASSERT_TRUE(ParseRetrievalMode(mode, &q.mode));
    std::vector<SearchResult> r = Run(q);
    EXPECT_TRUE(r.empty()) << mode << ": " << r.size() << " results, first graph score "
                           << (r.empty() ? 0 : r[0].s.graph);
  }
}

// A store not embedded yet (ingest alone, then with keywords): BM25 stands
// in for the semantic path, so a paper's title finds it near the top, as
// find-paper does. Before, such a store gave no paper at all for its own titles (found
// at 10M works: a store ingested and searched before embed). With the pool
// fixed, s_pre is BM25's MinMax at the cosine's weight plus the title terms.
TEST_F(TriSearchTest, WithoutVectorsBm25StandsInForTheSemanticPath) {
  SearchTrace embedded;
  SearchQuery tq;
  tq.text = Specs()[5].title;
  ASSERT_FALSE(Run(tq, {}, &embedded).empty());
  EXPECT_FALSE(embedded.bm25_stand_in) << "the store has vectors";

  ScopedTempDir tmp;
  auto w = Store::Open(tmp.File("plain"), Store::Mode::kWrite, true);
  ASSERT_TRUE(w.ok()) << w.status().message();
  IngestStats is;
  ASSERT_TRUE(Ingest(w.value().get(), {tmp_->File("records.jsonl")}, IngestOptions{}, &is).ok());
  w.value().reset();
  for (bool keywords : {false, true}) {
    if (keywords) {
      auto k = Store::Open(tmp.File("plain"), Store::Mode::kWrite);
      ASSERT_TRUE(k.ok());
      KeywordRunStats ks;
      Status st = RunKeywordExtraction(
          k.value().get(), KeywordRunOptions{},
          [](const PhraseStats* ps) { return MakeBuiltinKeywordBackend(ps); }, &ks);
      ASSERT_TRUE(st.ok()) << st.message();
    }
    auto r = Store::Open(tmp.File("plain"), Store::Mode::kRead);
    ASSERT_TRUE(r.ok());
    Store* plain = r.value().get();
    // Papers 6 and 7 of each topic: no other title shares their three
    // phrases (paper j and j + 8 do, and the results keep one of two
    // near-duplicate titles).
    for (int i : {6, 21, 34}) {
      const PaperSpec& want = Specs()[static_cast<size_t>(i)];
      SearchQuery q;
      q.text = want.title;
      SearchTrace trace;
      TriSearch search(plain, {});
      auto got = search.Run(q, &trace);
      ASSERT_TRUE(got.ok()) << got.status().message();
      // Found, near the top: the graph reranks papers whose titles share
      // most of their phrases.
      const int64_t id = *plain->PaperByExtId(want.ext);
      size_t rank = 0;
      while (rank < got->size() && (*got)[rank].id != id) ++rank;
      EXPECT_LT(rank, 3u) << "keywords " << keywords << ": " << want.title;
      EXPECT_TRUE(trace.bm25_stand_in);
      if (rank < got->size()) EXPECT_GT((*got)[rank].s.lex, 0);
    }
    // The pool's s_pre: BM25 at lambda_emb + lambda_lex, the title terms.
    SearchQuery q;
    q.text = "portfolio optimization and asset pricing model";
    for (int j = 0; j < 14; ++j)
      q.candidates.push_back(*plain->PaperByExtId("T1-" + std::to_string(j)));
    SearchParams p;  // the paper's weights
    TriSearch search(plain, p);
    SearchTrace trace;
    auto got = search.Run(q, &trace);
    ASSERT_TRUE(got.ok()) << got.status().message();
    ASSERT_EQ(got->size(), 14u);
    std::vector<double> lex, title;
    for (const SearchResult& x : *got) {
      lex.push_back(x.s.lex);
      title.push_back(x.s.title);
      EXPECT_EQ(x.s.emb, 0);
    }
    std::vector<double> lex_n = MinMaxOf(lex), title_n = MinMaxOf(title);
    for (size_t i = 0; i < got->size(); ++i) {
      const ScoreParts& sp = (*got)[i].s;
      double bonus = sp.title_exact ? p.bonus_exact : sp.title_fuzzy ? p.bonus_fuzzy : 0.0;
      EXPECT_NEAR(sp.pre,
                  (p.lambda_emb + p.lambda_lex) * lex_n[i] + p.lambda_title * title_n[i] + bonus,
                  1e-12)
          << i;
    }
    EXPECT_GT(*std::max_element(lex.begin(), lex.end()), 0);
  }
}

// The same store embedded within a budget of ~22 HNSW nodes (embed
// --memory-budget): each field's index is cut into a base and segments, and
// tri-search and find-paper --semantic answer as with one index (graphs this
// small are searched exhaustively, so the answers are the same).
TEST_F(TriSearchTest, AnIndexBuiltInSegmentsAnswersAsOne) {
  ScopedTempDir tmp;
  auto w = Store::Open(tmp.File("seg"), Store::Mode::kWrite, true);
  ASSERT_TRUE(w.ok()) << w.status().message();
  Store* seg = w.value().get();
  IngestStats is;
  ASSERT_TRUE(Ingest(seg, {tmp_->File("records.jsonl")}, IngestOptions{}, &is).ok());
  KeywordRunStats ks;
  ASSERT_TRUE(RunKeywordExtraction(
                  seg, KeywordRunOptions{},
                  [](const PhraseStats* ps) { return MakeBuiltinKeywordBackend(ps); }, &ks)
                  .ok());
  EmbedRunOptions eo;
  eo.lsa.dim = 16;
  eo.threads = 1;
  eo.hnsw.threads = 1;
  eo.memory_budget = 18400;   // 18400 / (16 x 2 + 256 + 32 + 96) = 44 nodes
  eo.keyword_min_papers = 1;  // every keyword: more than one segment's worth
  EmbedRunStats es;
  Status st = RunEmbed(seg, eo, &es);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(HnswNodesWithin(eo.memory_budget, 16, eo.hnsw.M), 44u);
  // Titles and abstracts: 42 rows, one index; keywords: more than 44.
  auto v = seg->Current("vectors");
  ASSERT_TRUE(v.ok() && *v);
  FieldVectors kw;
  ASSERT_TRUE(kw.Open(**v, "keyword").ok());
  ASSERT_GT(kw.present(), 44u);
  EXPECT_EQ(kw.segments(), (kw.present() + 43) / 44 - 1);
  EXPECT_EQ(es.index_segments, static_cast<int64_t>(kw.segments()));
  EXPECT_EQ((*v)->info()["vector_segments"]["keyword"], kw.segments());
  // A budget of 22 nodes cuts the paper fields too (the same model: trained
  // again on the same papers with the same seed).
  eo.memory_budget = 10000;
  eo.train = true;
  eo.keyword_min_papers = EmbedRunOptions().keyword_min_papers;  // as the fixture's store
  st = RunEmbed(seg, eo, &es);
  ASSERT_TRUE(st.ok()) << st.message();
  w.value().reset();
  auto r = Store::Open(tmp.File("seg"), Store::Mode::kRead);
  ASSERT_TRUE(r.ok());
  v = r.value()->Current("vectors");
  ASSERT_TRUE(v.ok() && *v);
  for (const char* field : {"title", "abstract"}) {
    FieldVectors fv;
    ASSERT_TRUE(fv.Open(**v, field).ok());
    EXPECT_EQ(fv.segments(), 1u) << field;  // 42 rows in runs of 22
  }
  for (int i = 0; i < 42; i += 5) {
    SearchQuery q;
    q.text = Specs()[static_cast<size_t>(i)].title;
    std::vector<SearchResult> one = Run(q);
    TriSearch search(r.value().get(), {});
    auto got = search.Run(q, nullptr);
    ASSERT_TRUE(got.ok()) << got.status().message();
    ASSERT_EQ(got->size(), one.size()) << q.text;
    for (size_t k = 0; k < one.size(); ++k) {
      EXPECT_EQ((*got)[k].id, one[k].id) << q.text << " rank " << k;
      EXPECT_NEAR((*got)[k].s.final_score, one[k].s.final_score, 1e-9) << q.text;
    }
    PaperFinder a(store_.get()), b(r.value().get());
    FindQuery fq;
    fq.text = q.text;
    fq.text_match = TextMatch::kSemantic;
    fq.limit = 10;
    auto ha = a.Find(fq), hb = b.Find(fq);
    ASSERT_TRUE(ha.ok() && hb.ok());
    ASSERT_EQ(ha->size(), hb->size());
    for (size_t k = 0; k < ha->size(); ++k) EXPECT_EQ((*ha)[k].paper, (*hb)[k].paper) << q.text;
  }
}

TEST_F(TriSearchTest, NoGraphIsAnIoError) {
  ScopedTempDir tmp;
  auto s = Store::Open(tmp.File("empty"), Store::Mode::kWrite, true);
  ASSERT_TRUE(s.ok());
  TriSearch search(s.value().get(), {});
  SearchQuery q;
  q.text = "anything";
  auto r = search.Run(q, nullptr);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kIoError);
}

// A vectors MANIFEST whose info members have other types than the writer's
// (a forged file behind a valid checksum): SemanticIndex::Open read them
// with nlohmann's value(), which throws type_error; found while writing
// fuzz/manifest_fuzz.cc. Now such members read as absent, and the missing
// model is the error.
TEST(SemanticIndexTest, ManifestInfoOfOtherTypesIsAnErrorNotAnException) {
  testing::ScopedTempDir tmp;
  testing::TestStore ts(tmp.File("db"));
  GenerationBuilder* out = ts.Start("vectors");
  out->info() = {{"model_id", 7}, {"backend", {1, 2}}, {"url", nullptr}, {"model", false}};
  ts.Commit();
  Result<std::unique_ptr<SemanticIndex>> sem = Status::Internal("not run");
  ASSERT_NO_THROW(sem = SemanticIndex::Open(ts.store()));
  ASSERT_FALSE(sem.ok());
  EXPECT_EQ(sem.status().code(), Code::kCorruption) << sem.status().message();
}

}  // namespace
}  // namespace litgraph
