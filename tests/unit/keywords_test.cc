// Tests for keywords.h and the pure parts of llm.h: keyword normalization,
// candidate phrases, the built-in extractor's contract (on realistic
// abstracts and on a generated corpus with phrase statistics), the phrase
// statistics file (round trip, corrupt files), and the validation of
// chat-completions answers. Files are real files in a fresh temporary
// directory.
#include "litgraph/keywords.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "litgraph/keyword_store.h"
#include "litgraph/lexical.h"
#include "litgraph/llm.h"
#include "litgraph/text.h"
#include "test_util.h"

namespace litgraph {
namespace {

using litgraph::testing::Payload;
using litgraph::testing::ReadFile;
using litgraph::testing::ScopedTempDir;
using litgraph::testing::TestId;
using litgraph::testing::WriteFile;
using nlohmann::json;

int WordCount(const std::string& phrase) {
  if (phrase.empty()) return 0;
  return 1 + static_cast<int>(std::count(phrase.begin(), phrase.end(), ' '));
}

std::vector<std::string> Split(const std::string& phrase) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= phrase.size()) {
    size_t sp = phrase.find(' ', start);
    if (sp == std::string::npos) sp = phrase.size();
    out.push_back(phrase.substr(start, sp - start));
    start = sp + 1;
  }
  return out;
}

// A subset of the extractor's evaluative adjectives and filler heads (the
// full lists are private to keywords.cc).
// ("robust" is not among them: "robust control" is a field.)
const std::set<std::string> kVague = {"novel",    "new",       "proposed",  "existing",
                                      "recent",   "effective", "efficient", "important",
                                      "various",  "different", "several",   "significant",
                                      "improved", "promising", "simple"};
const std::set<std::string> kFillerHeads = {"approach",  "method", "methodology", "technique",
                                            "framework", "result", "strategy",    "solution",
                                            "scheme",    "work",   "tool"};

struct Paper {
  const char* title;
  const char* abstract;
};

// Realistic abstracts (paraphrased, of the kind found in the fixtures and in
// arXiv listings), with evaluative language the extractor must not keep.
const std::vector<Paper>& Abstracts() {
  static const std::vector<Paper> kPapers = {
      {"Graph Neural Networks for Molecular Property Prediction",
       "Predicting molecular properties is a central task in drug discovery. We propose a novel "
       "graph neural network that learns representations of molecules directly from their "
       "molecular graphs. Our proposed approach combines message passing with an attention "
       "mechanism over chemical bonds. Experiments on standard benchmark datasets show that the "
       "new method outperforms existing approaches in molecular property prediction, and an "
       "ablation study confirms the value of bond attention."},
      {"Neural Machine Translation by Jointly Learning to Align and Translate",
       "Neural machine translation is a recently proposed approach to machine translation. "
       "Unlike traditional statistical machine translation, neural machine translation aims at "
       "building a single neural network that can be jointly tuned to maximize translation "
       "performance. In this paper, we conjecture that the use of a fixed-length vector is a "
       "bottleneck in improving the performance of the basic encoder-decoder architecture, and "
       "propose to extend it by allowing a model to automatically soft-search for parts of a "
       "source sentence that are relevant to predicting a target word."},
      {"The state of OA: a large-scale analysis of the prevalence and impact of Open Access "
       "articles",
       "Despite growing interest in Open Access (OA) to scholarly literature, there is an unmet "
       "need for large-scale, up-to-date, and reproducible studies assessing the prevalence and "
       "characteristics of OA. We address this need using oaDOI, an open online service that "
       "determines OA status for 67 million articles. We use three samples, each of 100,000 "
       "articles, to investigate OA in three populations: all journal articles assigned a "
       "Crossref DOI, recent journal articles indexed in Web of Science, and articles viewed by "
       "users of Unpaywall. We estimate that at least 28% of the scholarly literature is OA."},
      {"Biodiversity Finance and the Conservation Funding Gap",
       "Biodiversity loss threatens ecosystem services on which economies depend. We review "
       "biodiversity finance mechanisms, including payments for ecosystem services, "
       "biodiversity offsets and green bonds, and estimate the conservation funding gap at the "
       "global scale. Private investment in nature-based solutions remains small compared with "
       "public spending. We discuss how impact investment, blended finance and natural capital "
       "accounting could close the funding gap, and we identify risks of greenwashing."},
      {"Deep Residual Learning for Image Recognition",
       "Deeper neural networks are more difficult to train. We present a residual learning "
       "framework to ease the training of networks that are substantially deeper than those "
       "used previously. We explicitly reformulate the layers as learning residual functions "
       "with reference to the layer inputs. We provide comprehensive empirical evidence showing "
       "that these residual networks are easier to optimize, and can gain accuracy from "
       "considerably increased depth. On the ImageNet dataset we evaluate residual nets with a "
       "depth of up to 152 layers. This result won the 1st place on the ILSVRC 2015 "
       "classification task."},
      {"Citation Network Analysis of Research Fronts in Scientometrics",
       "Citation analysis is widely used to map the structure of science. We build a citation "
       "network of 1.2 million articles and apply community detection and main path analysis "
       "to identify research fronts. Co-citation clusters and bibliographic coupling reveal "
       "emerging topics earlier than keyword counts. The proposed pipeline supports science "
       "mapping, research evaluation and the study of knowledge diffusion in scientometrics."},
  };
  return kPapers;
}

// ---- NormalizeKeyword / Singular --------------------------------------------

TEST(NormalizeKeywordTest, CanonicalForms) {
  EXPECT_EQ(NormalizeKeyword("Graph Neural Networks"), "graph neural network");
  EXPECT_EQ(NormalizeKeyword("pre-training"), "pre-training");
  EXPECT_EQ(NormalizeKeyword("Studies"), "study");
  EXPECT_EQ(NormalizeKeyword("Analyses"), "analysis");
  EXPECT_EQ(NormalizeKeyword("physics"), "physics");
  EXPECT_EQ(NormalizeKeyword("Quantum Physics"), "quantum physics");
  EXPECT_EQ(NormalizeKeyword("Case Studies"), "case study");
}

// A hyphenated compound is one word, as in the keyphrase literature and its
// scorers ("closed-loop systems" is not "closed loop systems"); a dash
// between spaces or at a word's edge is punctuation.
TEST(NormalizeKeywordTest, HyphenatedWordsStayWhole) {
  EXPECT_EQ(NormalizeKeyword("Closed-Loop Systems"), "closed-loop system");
  EXPECT_EQ(NormalizeKeyword("E-mails"), "e-mail");
  EXPECT_EQ(NormalizeKeyword("pre\u2010training"), "pre-training");  // U+2010 HYPHEN
  EXPECT_EQ(NormalizeKeyword("state-of-the-art methods"), "state-of-the-art method");
  EXPECT_EQ(NormalizeKeyword("graphs - a survey"), "graphs a survey");
  EXPECT_EQ(NormalizeKeyword("-pre- training-"), "pre training");
  EXPECT_EQ(NormalizeKeyword("Schrödinger-Poisson Solvers"), "schrodinger-poisson solver");
}

TEST(NormalizeKeywordTest, OnlyTheLastWordIsSingular) {
  // "systems" as a modifier stays plural; the head becomes singular.
  EXPECT_EQ(NormalizeKeyword("Systems Biology Approaches"), "systems biology approach");
  EXPECT_EQ(NormalizeKeyword("Networks"), "network");
}

TEST(NormalizeKeywordTest, FoldsDiacriticsAndPunctuation) {
  EXPECT_EQ(NormalizeKeyword("Schrödinger Equations"), "schrodinger equation");
  EXPECT_EQ(NormalizeKeyword("Réseaux de Neurones"), "reseaux de neurone");
  EXPECT_EQ(NormalizeKeyword("Gödel"), "godel");
  // Decomposed e + combining acute accent folds the same way.
  EXPECT_EQ(NormalizeKeyword("Poincare\xcc\x81 Maps"), NormalizeKeyword("Poincaré Maps"));
  EXPECT_EQ(NormalizeKeyword("  Graph   Neural\tNetworks  "), "graph neural network");
  EXPECT_EQ(NormalizeKeyword("question/answering"), "question answering");
  EXPECT_EQ(NormalizeKeyword("Q&A systems"), "q a system");
}

TEST(NormalizeKeywordTest, EmptyAndSeparatorOnly) {
  EXPECT_EQ(NormalizeKeyword(""), "");
  EXPECT_EQ(NormalizeKeyword(" -- , !"), "");
}

TEST(NormalizeKeywordTest, Idempotent) {
  for (const char* s :
       {"Graph Neural Networks", "pre-training", "Analyses", "Schrödinger Equations",
        "Case Studies", "matrices", "Bayesian Hypotheses"}) {
    std::string once = NormalizeKeyword(s);
    EXPECT_EQ(NormalizeKeyword(once), once) << s;
  }
}

TEST(SingularTest, RegularAndIrregularPlurals) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"networks", "network"},
      {"studies", "study"},
      {"analyses", "analysis"},
      {"hypotheses", "hypothesis"},
      {"matrices", "matrix"},
      {"indices", "index"},
      {"vertices", "vertex"},
      {"criteria", "criterion"},
      {"phenomena", "phenomenon"},
      {"approaches", "approach"},
      {"classes", "class"},
      {"processes", "process"},
      {"boxes", "box"},
      {"meshes", "mesh"},
      {"heroes", "hero"},
      {"children", "child"},
      {"corpora", "corpus"},
      {"biases", "bias"},
      {"viruses", "virus"},
      {"axes", "axis"},
      {"leaves", "leaf"},
      {"probabilities", "probability"},
      {"graphs", "graph"},
      {"languages", "language"},
  };
  for (auto [plural, singular] : cases) EXPECT_EQ(Singular(plural), singular) << plural;
}

TEST(SingularTest, WordsThatStayAsTheyAre) {
  for (const char* w :
       {"physics", "mathematics", "economics", "linguistics", "series", "species", "data",
        "news",    "corpus",      "analysis",  "process",     "class",  "status",  "bias",
        "gas",     "network",     "study",     "dynamics",    "its",    "bus"}) {
    EXPECT_EQ(Singular(w), w) << w;
  }
}

TEST(SingularTest, SingularIsIdempotentOnNouns) {
  for (const char* w : {"networks", "studies", "analyses", "matrices", "approaches", "classes",
                        "children", "phenomena", "languages"}) {
    std::string s = Singular(w);
    EXPECT_EQ(Singular(s), s) << w;
  }
}

// Library limitation (lib/src/keywords.cc, Singular): common plurals are left
// plural or cut wrongly, so "research areas" and "research area" become two
// Keyword nodes. The "as"/"os" exclusions keep "areas", "ideas", "scenarios",
// "ratios" plural; the "ics" exclusion (meant for physics, economics) keeps
// "metrics" and "topics"; the "ches" rule turns "caches" into "cach"; the
// "ies" rule turns "movies" into "movy".
TEST(SingularTest, CommonPlurals) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"areas", "area"},     {"ideas", "idea"},   {"scenarios", "scenario"}, {"ratios", "ratio"},
      {"metrics", "metric"}, {"topics", "topic"}, {"caches", "cache"},       {"movies", "movie"},
  };
  for (auto [plural, singular] : cases) EXPECT_EQ(Singular(plural), singular) << plural;
}

TEST(KeywordExtIdTest, Prefix) {
  EXPECT_EQ(KeywordExtId("graph neural network"), "kw:graph neural network");
}

// ---- ForEachCandidate --------------------------------------------------------

struct Candidate {
  std::string phrase;
  int words;
  size_t sentence;
  bool run_final;
};

std::vector<Candidate> Candidates(const std::string& text) {
  std::vector<Candidate> out;
  ForEachCandidate(text, [&](const std::string& p, int w, size_t s, bool f) {
    out.push_back({p, w, s, f});
  });
  return out;
}

// Is the candidate the (head-singularized) words of one comma/period-free
// segment of text? Words as NormalizeKeyword makes them (hyphenated
// compounds whole).
bool InsideOneSegment(const std::string& text, const std::string& phrase) {
  std::vector<std::string> want = Split(phrase);
  std::string segment;
  auto check = [&](const std::string& seg) {
    std::string normalized = NormalizeKeyword(seg);
    if (normalized.empty()) return false;
    std::vector<std::string> words = Split(normalized);
    for (size_t i = 0; i + want.size() <= words.size(); ++i) {
      bool ok = true;
      for (size_t k = 0; k + 1 < want.size() && ok; ++k) ok = words[i + k] == want[k];
      if (ok && Singular(words[i + want.size() - 1]) == want.back()) return true;
    }
    return false;
  };
  for (char c : text + ".") {
    if (c == ',' || c == '.' || c == ';' || c == ':' || c == '(' || c == ')' || c == '?' ||
        c == '!') {
      if (check(segment)) return true;
      segment.clear();
    } else {
      segment.push_back(c);
    }
  }
  return false;
}

TEST(ForEachCandidateTest, PropertiesOnRealisticAbstracts) {
  size_t total = 0;
  for (const Paper& p : Abstracts()) {
    for (const std::string& text : {std::string(p.title), std::string(p.abstract)}) {
      for (const Candidate& c : Candidates(text)) {
        ++total;
        SCOPED_TRACE(c.phrase);
        std::vector<std::string> w = Split(c.phrase);
        ASSERT_GE(c.words, 1);
        ASSERT_LE(c.words, 4);
        EXPECT_EQ(WordCount(c.phrase), c.words);
        EXPECT_EQ(NormalizeKeyword(c.phrase), c.phrase) << "not in normalized form";
        EXPECT_FALSE(IsStopword(w.front())) << "starts with a stopword";
        EXPECT_FALSE(IsStopword(w.back())) << "ends with a stopword";
        EXPECT_FALSE(kVague.count(w.front())) << "starts with a vague adjective";
        EXPECT_FALSE(kVague.count(w.back())) << "ends with a vague adjective";
        if (c.words == 1) {
          EXPECT_FALSE(kFillerHeads.count(w.back())) << "a filler alone";
        }
        for (const auto& word : w) EXPECT_FALSE(word.empty());
        EXPECT_TRUE(InsideOneSegment(text, c.phrase)) << "crosses punctuation";
      }
    }
  }
  EXPECT_GT(total, 100u);
}

// Library limitation (lib/src/keywords.cc, ForEachCandidate via IsBreak):
// prepositions missing from both the stopword list (lexical.cc) and the break
// words start candidates: "Despite growing interest in Open Access" yields
// "despite" and "despite growing interest" (chosen as a keyword of the OA
// abstract), "Unlike traditional statistical machine translation" yields
// "unlike".
TEST(ForEachCandidateTest, NoCandidateStartsWithAPreposition) {
  const std::set<std::string> kPrepositions = {"despite",    "unlike", "beyond", "along",
                                               "throughout", "amid",   "onto",   "besides"};
  for (const Paper& p : Abstracts()) {
    for (const Candidate& c : Candidates(p.abstract)) {
      std::vector<std::string> w = Split(c.phrase);
      EXPECT_FALSE(kPrepositions.count(w.front())) << c.phrase;
      EXPECT_FALSE(kPrepositions.count(w.back())) << c.phrase;
    }
  }
}

TEST(ForEachCandidateTest, PunctuationEndsRuns) {
  std::vector<Candidate> cands =
      Candidates("Graph learning, protein folding. Molecule design; drug discovery");
  std::set<std::string> phrases;
  for (const auto& c : cands) phrases.insert(c.phrase);
  EXPECT_TRUE(phrases.count("graph learning"));
  EXPECT_TRUE(phrases.count("protein folding"));
  EXPECT_TRUE(phrases.count("molecule design"));
  EXPECT_TRUE(phrases.count("drug discovery"));
  for (const auto& p : phrases) {
    EXPECT_EQ(p.find("learning protein"), std::string::npos) << p;
    EXPECT_EQ(p.find("folding molecule"), std::string::npos) << p;
    EXPECT_EQ(p.find("design drug"), std::string::npos) << p;
  }
  // Sentence indexes: "protein folding" is in sentence 0, "molecule design" in 1.
  for (const auto& c : cands) {
    if (c.phrase == "protein folding") {
      EXPECT_EQ(c.sentence, 0u);
    }
    if (c.phrase == "molecule design") {
      EXPECT_EQ(c.sentence, 1u);
    }
    if (c.phrase == "drug discovery") {
      EXPECT_EQ(c.sentence, 1u);
      EXPECT_TRUE(c.run_final);
    }
  }
}

TEST(ForEachCandidateTest, VagueWordsFillersAndStopwordsBound) {
  std::set<std::string> phrases;
  ForEachCandidate("We propose a novel graph neural network approach for the proposed task.",
                   [&](const std::string& p, int, size_t, bool) { phrases.insert(p); });
  EXPECT_TRUE(phrases.count("graph neural network")) << ::testing::PrintToString(phrases);
  for (const auto& p : phrases) {
    EXPECT_NE(p.rfind("novel", 0), 0u) << p;
    EXPECT_NE(p, "approach") << "a filler alone";
    EXPECT_EQ(p.find("proposed"), std::string::npos) << p;
    EXPECT_EQ(p.find(" for"), std::string::npos) << p;
  }
  // Five content words in a row: no candidate longer than four.
  for (const auto& c : Candidates("protein structure graph attention network embedding"))
    EXPECT_LE(c.words, 4) << c.phrase;
}

TEST(ForEachCandidateTest, EmptyAndPunctuationOnly) {
  EXPECT_TRUE(Candidates("").empty());
  EXPECT_TRUE(Candidates(" ,.;: -- !!").empty());
  EXPECT_TRUE(Candidates("the of and in 2019 42").empty());
}

std::set<std::string> Phrases(const std::string& text) {
  std::set<std::string> out;
  for (const Candidate& c : Candidates(text)) out.insert(c.phrase);
  return out;
}

// Technical terms keep their adjectives and participles: the old candidates
// broke at "sliding" and "closed", leaving "mode control" and "loop system".
TEST(ForEachCandidateTest, AdjectiveNounTermsKeptWhole) {
  std::set<std::string> p = Phrases(
      "We design a sliding mode control for closed-loop systems using linear matrix "
      "inequalities, and a distributed estimation scheme for weighted graphs.");
  for (const char* want : {"sliding mode control", "closed-loop system", "linear matrix inequality",
                           "distributed estimation scheme", "weighted graph"})
    EXPECT_TRUE(p.count(want)) << want << " in " << ::testing::PrintToString(p);
  EXPECT_FALSE(p.count("loop system")) << "the compound is one word";
  EXPECT_FALSE(p.count("closed-loop")) << "a modifier compound is no keyword alone";
  EXPECT_FALSE(p.count("distributed")) << "a participle is no keyword alone";
  EXPECT_FALSE(p.count("linear")) << "an adjective is no keyword alone";
}

TEST(ForEachCandidateTest, HyphenatedTermsAreOneWord) {
  std::set<std::string> p = Phrases("A real-time e-mail filter for peer-to-peer networks.");
  EXPECT_TRUE(p.count("real-time e-mail filter")) << ::testing::PrintToString(p);
  EXPECT_TRUE(p.count("peer-to-peer network")) << ::testing::PrintToString(p);
  EXPECT_FALSE(p.count("real-time")) << "a modifier compound is no keyword alone";
  for (const auto& phrase : p) {
    EXPECT_EQ(phrase.find("real time"), std::string::npos) << phrase;
    EXPECT_EQ(phrase.find("peer to"), std::string::npos) << phrase;
  }
}

// Verbs, adverbs and generic words end chunks; they are not keywords.
TEST(ForEachCandidateTest, VerbsAndGenericWordsAreNotKeywords) {
  std::set<std::string> p = Phrases(
      "We propose to manage fault detection. The model tests the hypothesis, and numerical "
      "tests show that the method is known. Today we say that it is highly efficient.");
  EXPECT_TRUE(p.count("fault detection")) << ::testing::PrintToString(p);
  EXPECT_TRUE(p.count("numerical test")) << ::testing::PrintToString(p);
  for (const char* no : {"manage fault detection", "model test", "method", "today", "say", "known",
                         "efficient", "highly efficient"})
    EXPECT_FALSE(p.count(no)) << no;
}

// ---- KeywordExtractor --------------------------------------------------------

void ExpectContract(const std::vector<Keyword>& kws, size_t max_keywords = 8) {
  ASSERT_GE(kws.size(), 1u);
  ASSERT_LE(kws.size(), max_keywords);
  EXPECT_EQ(kws[0].score, 10);
  std::set<std::string> seen;
  for (size_t i = 0; i < kws.size(); ++i) {
    const Keyword& k = kws[i];
    SCOPED_TRACE(k.text);
    EXPECT_GE(k.score, 1);
    EXPECT_LE(k.score, 10);
    if (i > 0) {
      EXPECT_LE(k.score, kws[i - 1].score) << "not best first";
    }
    EXPECT_TRUE(seen.insert(k.text).second) << "duplicate";
    int words = WordCount(k.text);
    EXPECT_GE(words, 1);
    EXPECT_LE(words, 4);
    std::string first = Split(k.text).front();
    EXPECT_NE(first, "novel");
    EXPECT_NE(first, "new");
    EXPECT_NE(first, "proposed");
    EXPECT_EQ(NormalizeKeyword(k.text), k.text);
  }
}

TEST(KeywordExtractorTest, ContractWithoutStatistics) {
  KeywordExtractor ex(nullptr);
  for (const Paper& p : Abstracts()) {
    SCOPED_TRACE(p.title);
    std::vector<Keyword> kws = ex.Extract(p.title, p.abstract);
    ExpectContract(kws);
    EXPECT_GE(kws.size(), 3u);
  }
}

// The built-in backend extracts a batch on several threads: the same keywords,
// in the same order, as on one.
TEST(KeywordExtractorTest, BackendThreadsGiveTheSameKeywords) {
  std::vector<PaperText> batch;
  for (int copy = 0; copy < 40; ++copy)
    for (const Paper& p : Abstracts())
      batch.push_back({static_cast<int64_t>(batch.size()), p.title,
                       std::string(p.abstract) + " Variant " + std::to_string(copy) +
                           " studies sample " + std::to_string(copy * 7) + " carefully.",
                       ""});
  std::vector<std::vector<Keyword>> one, many;
  std::vector<std::string> failures;
  ASSERT_TRUE(
      MakeBuiltinKeywordBackend(nullptr, {}, nullptr, 1)->Extract(batch, &one, &failures).ok());
  ASSERT_TRUE(
      MakeBuiltinKeywordBackend(nullptr, {}, nullptr, 4)->Extract(batch, &many, &failures).ok());
  ASSERT_EQ(one.size(), batch.size());
  ASSERT_EQ(many.size(), batch.size());
  for (size_t i = 0; i < batch.size(); ++i) {
    ASSERT_FALSE(one[i].empty());
    ASSERT_EQ(one[i].size(), many[i].size()) << i;
    for (size_t k = 0; k < one[i].size(); ++k) {
      EXPECT_EQ(one[i][k].text, many[i][k].text);
      EXPECT_EQ(one[i][k].score, many[i][k].score);
      EXPECT_EQ(one[i][k].surface, many[i][k].surface);
    }
  }
  EXPECT_TRUE(failures.empty());
}

// Keywords keep a display form as written (issue: "Moses" showed as its
// matching form "mose"): the case of an occurrence inside an abstract
// sentence, diacritics and plurals as written; title case and sentence
// starts lowercased.
TEST(KeywordExtractorTest, SurfaceFormsAreAsWritten) {
  KeywordExtractor ex(nullptr);
  std::vector<Keyword> kws = ex.Extract(
      "Moses: Open Source Toolkit for Statistical Machine Translation",
      "We describe an open-source toolkit for statistical machine translation. The toolkit "
      "includes Moses, a decoder trained on parallel corpora. Statistical machine translation "
      "with Moses gives factored translation models. The Protéines network of Larivière was "
      "used for Protéines analysis.");
  std::map<std::string, std::string> surface;
  for (const Keyword& k : kws) surface[k.text] = k.surface;
  ASSERT_TRUE(surface.count("mose")) << ::testing::PrintToString(surface);
  EXPECT_EQ(surface["mose"], "Moses");
  ASSERT_TRUE(surface.count("statistical machine translation"));
  EXPECT_EQ(surface["statistical machine translation"], "statistical machine translation");
  for (const Keyword& k : kws) {
    EXPECT_FALSE(k.surface.empty()) << k.text;
    EXPECT_EQ(NormalizeKeyword(k.surface), k.text) << k.surface;
  }
}

TEST(KeywordExtractorTest, SurfaceOfTitleOnlyPhrasesIsLowercased) {
  KeywordExtractor ex(nullptr);
  std::vector<Keyword> kws = ex.Extract("Sliding Mode Control of DC Motors", "");
  ASSERT_FALSE(kws.empty());
  for (const Keyword& k : kws) {
    EXPECT_EQ(NormalizeKeyword(k.surface), k.text) << k.surface;
    if (k.text == "sliding mode control") {
      EXPECT_EQ(k.surface, "sliding mode control");
    }
    if (k.text.find("dc") != std::string::npos) {
      EXPECT_NE(k.surface.find("DC"), std::string::npos);
    }
  }
}

TEST(KeywordExtractorTest, MaxKeywordsAndDeterminism) {
  KeywordExtractor ex(nullptr);
  const Paper& p = Abstracts()[0];
  ExtractOptions o;
  o.max_keywords = 2;
  o.min_keywords = 1;
  ExpectContract(ex.Extract(p.title, p.abstract, o), 2);
  std::vector<Keyword> a = ex.Extract(p.title, p.abstract), b = ex.Extract(p.title, p.abstract);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].text, b[i].text);
    EXPECT_EQ(a[i].score, b[i].score);
  }
}

bool HasKeyword(const std::vector<Keyword>& kws, const std::string& t) {
  return std::any_of(kws.begin(), kws.end(), [&](const Keyword& k) { return k.text == t; });
}

TEST(KeywordExtractorTest, TopicOfTheTitleIsFound) {
  KeywordExtractor ex(nullptr);
  EXPECT_TRUE(
      HasKeyword(ex.Extract(Abstracts()[1].title, Abstracts()[1].abstract), "machine translation"));
  EXPECT_TRUE(HasKeyword(ex.Extract(Abstracts()[3].title, Abstracts()[3].abstract),
                         "biodiversity finance"));
  EXPECT_TRUE(
      HasKeyword(ex.Extract(Abstracts()[4].title, Abstracts()[4].abstract), "image recognition"));
  EXPECT_TRUE(
      HasKeyword(ex.Extract(Abstracts()[5].title, Abstracts()[5].abstract), "citation network"));
}

// Library limitation (lib/src/keywords.cc, KeywordExtractor::Extract, no
// statistics or a store under 50 papers): for "Graph Neural Networks for
// Molecular Property Prediction" the result is [molecular property 10,
// neural network 7, property prediction 7, graph neural 4]. The bigram length
// prior (1.25 vs 1.15) ranks "neural network" above "graph neural network",
// which the redundancy rule then drops as an extension of a chosen phrase
// (without statistics every extension is dropped), and "graph neural", a
// fragment ending in an adjective (head_final false, only x0.6), is kept.
TEST(KeywordExtractorTest, TitleNounPhrasesWin) {
  KeywordExtractor ex(nullptr);
  std::vector<Keyword> kws = ex.Extract(Abstracts()[0].title, Abstracts()[0].abstract);
  EXPECT_TRUE(HasKeyword(kws, "graph neural network"));
  EXPECT_TRUE(HasKeyword(kws, "molecular property prediction"));
  EXPECT_FALSE(HasKeyword(kws, "graph neural"));
  std::vector<Keyword> mt = ex.Extract(Abstracts()[1].title, Abstracts()[1].abstract);
  EXPECT_FALSE(HasKeyword(mt, "neural machine"));
}

TEST(KeywordExtractorTest, EmptyInputGivesNothing) {
  KeywordExtractor ex(nullptr);
  EXPECT_TRUE(ex.Extract("", "").empty());
  EXPECT_TRUE(ex.Extract("The", "of and the, in 2020.").empty());
}

TEST(KeywordExtractorTest, ShortTitleOnlyGivesFewKeywords) {
  KeywordExtractor ex(nullptr);
  std::vector<Keyword> kws = ex.Extract("Glove: Global Vectors", "");
  EXPECT_LE(kws.size(), 3u);
  for (const auto& k : kws) EXPECT_LE(WordCount(k.text), 4);
}

TEST(KeywordExtractorTest, KnownKeywordsAreFavoured) {
  const Paper& p = Abstracts()[3];
  KeywordExtractor plain(nullptr);
  std::vector<Keyword> base = plain.Extract(p.title, p.abstract);
  ASSERT_GE(base.size(), 2u);
  // Boost the last chosen keyword: its relative importance cannot drop.
  std::string target = base.back().text;
  int before = base.back().score;
  KeywordExtractor boosted(nullptr, [&](const std::string& s) { return s == target; });
  std::vector<Keyword> kws = boosted.Extract(p.title, p.abstract);
  auto it =
      std::find_if(kws.begin(), kws.end(), [&](const Keyword& k) { return k.text == target; });
  ASSERT_NE(it, kws.end());
  EXPECT_GE(it->score, before);
}

// ---- A generated corpus with phrase statistics -------------------------------

struct Doc {
  std::string title, abstract;
  std::string unique_word;  // a word only this document uses
};

// Letters-only word unique to document i ("zqa", "zqb", ...), never a stopword.
std::string UniqueWord(int i) {
  std::string w = "zq";
  do {
    w.push_back(static_cast<char>('a' + i % 26));
    i /= 26;
  } while (i > 0);
  return w + "ix";
}

// 80 documents. Each uses two of twelve topic phrases (each topic in ~13% of
// the documents), a generic phrase "deep learning" in 40% of them, and a
// phrase of its own in the title and the first sentence.
std::vector<Doc> Corpus() {
  static const std::vector<std::string> kTopics = {
      "protein folding",    "machine translation",    "graph neural network", "speech recognition",
      "image segmentation", "reinforcement learning", "knowledge graph",      "topic modeling",
      "citation analysis",  "climate modeling",       "drug discovery",       "anomaly detection"};
  std::vector<Doc> docs;
  for (int i = 0; i < 80; ++i) {
    const std::string& a = kTopics[i % kTopics.size()];
    const std::string& b = kTopics[(i * 5 + 3) % kTopics.size()];
    std::string u = UniqueWord(i);
    Doc d;
    d.unique_word = u;
    d.title = "The " + u + " lattice for " + a + " and " + b;
    d.abstract = "We study the " + u + " lattice. Our " + u + " lattice improves " + a + ". ";
    if (i % 5 < 2) d.abstract += "It relies on deep learning. Deep learning is everywhere. ";
    d.abstract +=
        "We evaluate " + a + " on benchmarks for " + b + ", and " + a + " again with care.";
    docs.push_back(d);
  }
  return docs;
}

// Document frequency of every candidate phrase, counted independently.
std::unordered_map<std::string, int> CountDf(const std::vector<Doc>& docs) {
  std::unordered_map<std::string, int> df;
  for (const Doc& d : docs) {
    std::set<std::string> seen;
    auto add = [&](const std::string& p, int, size_t, bool) { seen.insert(p); };
    ForEachCandidate(d.title, add);
    ForEachCandidate(d.abstract, add);
    for (const auto& p : seen) ++df[p];
  }
  return df;
}

// PhraseStats is neither copyable nor movable (it may own a mapping).
void Count(const std::vector<Doc>& docs, PhraseStats* s) {
  for (const Doc& d : docs) s->AddDocument(d.title, d.abstract);
}

TEST(PhraseStatsTest, CountsDocumentFrequencies) {
  std::vector<Doc> docs = Corpus();
  PhraseStats s;
  Count(docs, &s);
  auto df = CountDf(docs);
  EXPECT_EQ(s.num_docs(), docs.size());
  // The words of chunks are counted too, under keys of their own.
  EXPECT_GT(s.size(), df.size());
  for (const auto& [p, n] : df) EXPECT_EQ(s.DocFreq(PhraseHash(p)), static_cast<uint32_t>(n)) << p;
  EXPECT_EQ(df.at("deep learning"), 32);
  EXPECT_EQ(df.at(docs[7].unique_word + " lattice"), 1);
  EXPECT_EQ(s.DocFreq(PhraseHash("no such phrase anywhere")), 0u);
}

// Corpus statistics rank, they do not filter: the old extractor dropped
// every phrase of a single paper (df < 2), yet most keyphrases of a paper are
// its own (Inspec). A generic phrase ("deep learning", in 40% of the papers)
// does not outrank the paper's topics, and a phrase of one paper (its
// "<unique> lattice", in the title) can be a keyword.
TEST(KeywordExtractorTest, CorpusStatisticsRankWithoutSuppressingPhrasesOfOnePaper) {
  std::vector<Doc> docs = Corpus();
  ASSERT_GE(docs.size(), 60u);
  PhraseStats s;
  Count(docs, &s);
  auto df = CountDf(docs);
  KeywordExtractor ex(&s);
  size_t total = 0, own = 0;
  for (const Doc& d : docs) {
    SCOPED_TRACE(d.title);
    std::vector<Keyword> kws = ex.Extract(d.title, d.abstract);
    ExpectContract(kws);
    EXPECT_GE(kws.size(), 3u);
    total += kws.size();
    bool topic = false, unique = false;
    for (const Keyword& k : kws) {
      EXPECT_TRUE(df.count(k.text)) << k.text << " is not a candidate";
      topic = topic || d.title.find(k.text) != std::string::npos;
      unique = unique || k.text.find(d.unique_word) != std::string::npos;
    }
    EXPECT_TRUE(topic) << "the paper's own topics are there";
    EXPECT_NE(kws[0].text, "deep learning");
    own += unique;
  }
  EXPECT_GT(total, 3 * docs.size());
  EXPECT_GT(own, docs.size() / 2) << "phrases of one paper are kept";
}

TEST(KeywordExtractorTest, SameResultsFromCountedAndStoredStatistics) {
  ScopedTempDir dir;
  std::vector<Doc> docs = Corpus();
  PhraseStats counted;
  Count(docs, &counted);
  ASSERT_TRUE(counted.Write(dir.File("phrase_df"), TestId(dir.File("phrase_df"))).ok());
  PhraseStats stored;
  ASSERT_TRUE(stored.Open(dir.File("phrase_df"), TestId(dir.File("phrase_df"))).ok());
  KeywordExtractor a(&counted), b(&stored);
  for (const Doc& d : docs) {
    std::vector<Keyword> x = a.Extract(d.title, d.abstract), y = b.Extract(d.title, d.abstract);
    ASSERT_EQ(x.size(), y.size()) << d.title;
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_EQ(x[i].text, y[i].text);
      EXPECT_EQ(x[i].score, y[i].score);
    }
  }
}

TEST(KeywordExtractorTest, SmallCorpusDoesNotFilterByDocumentFrequency) {
  // Under 50 documents the statistics are not used as a filter.
  std::vector<Doc> docs = Corpus();
  docs.resize(10);
  PhraseStats s;
  Count(docs, &s);
  KeywordExtractor ex(&s);
  std::vector<Keyword> kws = ex.Extract(docs[0].title, docs[0].abstract);
  ExpectContract(kws);
  bool unique = false;
  for (const auto& k : kws)
    unique = unique || k.text.find(docs[0].unique_word) != std::string::npos;
  EXPECT_TRUE(unique) << "the title phrase should win without df filtering";
}

TEST(KeywordExtractorTest, WholeTermsAreChosenNotTheirFragments) {
  KeywordExtractor ex(nullptr);
  std::vector<Keyword> kws = ex.Extract(
      "Sliding mode control of closed-loop systems",
      "A sliding mode control law is designed for uncertain closed-loop systems. The sliding "
      "mode control keeps closed-loop systems stable under bounded disturbances.");
  EXPECT_TRUE(HasKeyword(kws, "sliding mode control"));
  EXPECT_TRUE(HasKeyword(kws, "closed-loop system"));
  EXPECT_FALSE(HasKeyword(kws, "mode control"));
  EXPECT_FALSE(HasKeyword(kws, "loop system"));
}

// Different phrases never tie: the output order is the ranking, the first
// ten importances are strictly decreasing (the store keeps only them), and
// Candidates() orders by score, then text.
TEST(KeywordExtractorTest, NoTies) {
  ExtractOptions o;
  o.max_keywords = 20;
  std::vector<Doc> docs = Corpus();
  PhraseStats s;
  Count(docs, &s);
  for (const PhraseStats* stats : std::vector<const PhraseStats*>{nullptr, &s}) {
    KeywordExtractor ex(stats);
    for (const Paper& p : Abstracts()) {
      SCOPED_TRACE(p.title);
      std::vector<Keyword> kws = ex.Extract(p.title, p.abstract, o);
      ExpectContract(kws, 20);
      for (size_t i = 1; i < kws.size() && i < 10; ++i)
        EXPECT_LT(kws[i].score, kws[i - 1].score) << kws[i].text;
      for (size_t i = 10; i < kws.size(); ++i) EXPECT_EQ(kws[i].score, 1);
      std::vector<KeywordCandidate> cands = ex.Candidates(p.title, p.abstract);
      ASSERT_GE(cands.size(), kws.size());
      std::set<std::string> texts;
      for (size_t i = 0; i < cands.size(); ++i) {
        EXPECT_TRUE(texts.insert(cands[i].text).second) << cands[i].text;
        EXPECT_EQ(cands[i].features.size(), KeywordFeatureNames().size());
        if (i > 0) {
          const auto& a = cands[i - 1];
          const auto& b = cands[i];
          EXPECT_TRUE(a.score > b.score || (a.score == b.score && a.text < b.text)) << b.text;
        }
      }
    }
  }
}

TEST(KeywordExtractorTest, UpToTwentyKeywords) {
  KeywordExtractor ex(nullptr);
  const Paper& p = Abstracts()[2];
  ExtractOptions o;
  o.max_keywords = 20;
  o.keep_ratio = 0;
  std::vector<Keyword> many = ex.Extract(p.title, p.abstract, o);
  ExpectContract(many, 20);
  EXPECT_GT(many.size(), 8u);
  std::vector<Keyword> eight = ex.Extract(p.title, p.abstract);
  ASSERT_LE(eight.size(), 8u);
  for (size_t i = 0; i < eight.size(); ++i) EXPECT_EQ(eight[i].text, many[i].text) << i;
}

// Text the extractor was not written for: other languages and scripts, no
// function words at all, markup, broken UTF-8, a huge text. No crash, output
// within the contract, time linear in the input (the text is read up to a
// bound).
TEST(KeywordExtractorTest, RobustOnUnseenText) {
  std::string no_stopwords;
  for (int i = 0; i < 3000; ++i) no_stopwords += "alpha" + std::to_string(i % 97) + "x beta ";
  std::string huge;
  while (huge.size() < (20u << 20)) huge += Abstracts()[huge.size() % 6].abstract;
  std::string one_word(1u << 20, 'q');
  std::string cjk;
  for (int i = 0; i < 20000; ++i)
    cjk += "\xe6\xb7\xb1\xe5\xba\xa6\xe5\xad\xa6\xe4\xb9\xa0";  // 深度学习
  std::string binary;
  for (int i = 0; i < 100000; ++i) binary.push_back(static_cast<char>((i * 7919) % 256));
  const std::vector<std::pair<std::string, std::string>> texts = {
      {"Réseaux de neurones profonds pour la traduction automatique",
       "Nous proposons un modèle de réseaux de neurones pour la traduction automatique."},
      {"Tiefe neuronale Netze für maschinelle Übersetzung",
       "Wir stellen ein neuronales Übersetzungsmodell mit Aufmerksamkeit vor."},
      {"Глубокие нейронные сети", "Мы предлагаем новую модель машинного перевода."},
      {"التعلم العميق", "نقترح نموذجا جديدا للترجمة الآلية"},
      {"深度学习的机器翻译", cjk},
      {"", no_stopwords},
      {"Graph Neural Networks", huge},
      {one_word, one_word},
      {"\xff\xfe\xc3", binary},
      {"<jats:p>Graph <b>neural</b> networks</jats:p>", "&amp; &lt;tag&gt; \t\r\n ;;;;"},
      {std::string(100000, '-'), std::string(100000, '.')},
  };
  std::vector<Doc> docs = Corpus();
  PhraseStats s;
  Count(docs, &s);
  for (const auto& [title, abstract] : texts) s.AddDocument(title, abstract);
  for (const PhraseStats* stats : std::vector<const PhraseStats*>{nullptr, &s}) {
    KeywordExtractor ex(stats);
    for (const auto& [title, abstract] : texts) {
      SCOPED_TRACE(title.substr(0, 40));
      auto start = std::chrono::steady_clock::now();
      std::vector<Keyword> kws = ex.Extract(title, abstract);
      double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      EXPECT_LT(seconds, 5.0);
      EXPECT_LE(kws.size(), 8u);
      if (!kws.empty()) ExpectContract(kws);
      for (const Keyword& k : kws) EXPECT_LE(k.text.size(), 4 * 65u);
    }
  }
  // Other scripts are folded, not dropped.
  KeywordExtractor ex(nullptr);
  std::vector<Keyword> ru = ex.Extract("Глубокие нейронные сети", "");
  EXPECT_FALSE(ru.empty());
}

// ---- PhraseStats file ---------------------------------------------------------

TEST(PhraseStatsTest, WriteOpenRoundTrip) {
  ScopedTempDir dir;
  std::vector<Doc> docs = Corpus();
  PhraseStats counted;
  Count(docs, &counted);
  auto df = CountDf(docs);
  std::string path = dir.File("phrase_df");
  ASSERT_TRUE(counted.Write(path, TestId(path)).ok());
  PhraseStats opened;
  Status st = opened.Open(path, TestId(path));
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(opened.num_docs(), counted.num_docs());
  size_t kept = 0, singletons = 0;
  for (const auto& [p, n] : df) {
    uint64_t h = PhraseHash(p);
    if (n >= 2) {
      ++kept;
      EXPECT_EQ(opened.DocFreq(h), counted.DocFreq(h)) << p;
      EXPECT_EQ(opened.DocFreq(h), static_cast<uint32_t>(n)) << p;
    } else {
      ++singletons;
      EXPECT_EQ(opened.DocFreq(h), 0u) << p;
    }
  }
  EXPECT_GT(kept, 20u);
  EXPECT_GT(singletons, 80u);
  // Kept: the phrases and the words of two papers or more.
  EXPECT_GE(opened.size(), kept);
  EXPECT_LT(opened.size(), counted.size());
  // Payload size: 32-byte header + 12 bytes per kept key.
  EXPECT_EQ(Payload(path).size(), 32 + 12 * opened.size());
  // Hashes absent from the corpus, around and between the stored ones.
  for (uint64_t h : {uint64_t{1}, uint64_t{2}, ~uint64_t{0}, uint64_t{1} << 63})
    if (!counted.DocFreq(h)) {
      EXPECT_EQ(opened.DocFreq(h), 0u);
    }
}

TEST(PhraseStatsTest, EmptyStatisticsRoundTrip) {
  ScopedTempDir dir;
  PhraseStats empty;
  ASSERT_TRUE(empty.Write(dir.File("e"), TestId(dir.File("e"))).ok());
  PhraseStats opened;
  ASSERT_TRUE(opened.Open(dir.File("e"), TestId(dir.File("e"))).ok());
  EXPECT_EQ(opened.num_docs(), 0u);
  EXPECT_EQ(opened.size(), 0u);
  EXPECT_EQ(opened.DocFreq(PhraseHash("graph")), 0u);
  KeywordExtractor ex(&opened);
  ExpectContract(ex.Extract(Abstracts()[0].title, Abstracts()[0].abstract));
}

TEST(PhraseStatsTest, CorruptFilesFailToOpen) {
  ScopedTempDir dir;
  PhraseStats counted;
  Count(Corpus(), &counted);
  std::string good_path = dir.File("good");
  ASSERT_TRUE(counted.Write(good_path, TestId(good_path)).ok());
  std::string good = ReadFile(good_path);
  ASSERT_GT(good.size(), 64u);
  struct Bad {
    const char* name;
    std::string bytes;
  };
  std::string bad_magic = good;
  bad_magic[0] = 'X';
  std::vector<Bad> bad = {
      {"empty", ""},
      {"short_header", good.substr(0, 20)},
      {"truncated", good.substr(0, good.size() - 5)},
      {"trailing_byte", good + "!"},
      {"bad_magic", bad_magic},
      {"text", std::string(200, 'a')},
  };
  for (const auto& b : bad) {
    std::string path = dir.File(b.name);
    WriteFile(path, b.bytes);
    PhraseStats s;
    EXPECT_FALSE(s.Open(path, TestId(good_path)).ok()) << b.name;
  }
  PhraseStats missing;
  EXPECT_FALSE(missing.Open(dir.File("does_not_exist"), TestId(dir.File("does_not_exist"))).ok());
}

// Regression test for a fixed bug (lib/src/keywords.cc, PhraseStats::Open):
// the size check multiplied the header's count by 12, so a count of k + 2^62
// wrapped to the size of a valid file and lookups read past the mapping.
TEST(PhraseStatsTest, CorruptCountDoesNotWrap) {
  ScopedTempDir dir;
  PhraseStats counted;
  Count(Corpus(), &counted);
  ASSERT_TRUE(counted.Write(dir.File("good"), TestId(dir.File("good"))).ok());
  std::string bytes = Payload(dir.File("good"));
  ASSERT_GE(bytes.size(), 32u);
  uint64_t count;
  std::memcpy(&count, bytes.data() + 16, 8);
  count += uint64_t{1} << 62;
  std::memcpy(bytes.data() + 16, &count, 8);
  ASSERT_TRUE(WriteCheckedFile(dir.File("bad"), TestId(dir.File("bad")), bytes).ok());
  PhraseStats s;
  EXPECT_FALSE(s.Open(dir.File("bad"), TestId(dir.File("bad"))).ok());
}

// Library limitation (lib/src/keywords.cc, PhraseStats::Write): Write only
// looks at the counting table, so statistics obtained by Open() write back
// as an empty file (count 0) instead of their phrases. Not reached by the
// tools today (only freshly counted statistics are written).
TEST(PhraseStatsTest, WriteOfOpenedStatisticsKeepsPhrases) {
  ScopedTempDir dir;
  PhraseStats counted;
  Count(Corpus(), &counted);
  ASSERT_TRUE(counted.Write(dir.File("a"), TestId(dir.File("a"))).ok());
  PhraseStats opened;
  ASSERT_TRUE(opened.Open(dir.File("a"), TestId(dir.File("a"))).ok());
  ASSERT_TRUE(opened.Write(dir.File("b"), TestId(dir.File("b"))).ok());
  EXPECT_EQ(Payload(dir.File("a")), Payload(dir.File("b")));
}

// ---- LLM answers ------------------------------------------------------------

std::string ChatResponse(const std::string& content) {
  json r = {{"id", "chatcmpl-1"},
            {"object", "chat.completion"},
            {"model", "fake"},
            {"choices",
             {{{"index", 0},
               {"message", {{"role", "assistant"}, {"content", content}}},
               {"finish_reason", "stop"}}}}};
  return r.dump();
}

std::string Answer(const json& keywords, const json& scores) {
  return ChatResponse(json{{"keywords", keywords}, {"scores", scores}}.dump());
}

TEST(ParseKeywordAnswerTest, AcceptsValidAnswerNormalizesAndDropsDuplicates) {
  std::vector<Keyword> kws;
  std::string why;
  ASSERT_TRUE(ParseKeywordAnswer(
      Answer({"Graph Neural Networks", "graph neural network", "Protein-Folding", "Case Studies"},
             {9, 8, 6, 3}),
      &kws, &why))
      << why;
  ASSERT_EQ(kws.size(), 3u);
  EXPECT_EQ(kws[0].text, "graph neural network");
  EXPECT_EQ(kws[0].score, 9);                 // the first occurrence wins
  EXPECT_EQ(kws[1].text, "protein-folding");  // a hyphenated compound stays one word
  EXPECT_EQ(kws[1].score, 6);
  EXPECT_EQ(kws[2].text, "case study");
  EXPECT_EQ(kws[2].score, 3);
}

TEST(ParseKeywordAnswerTest, AcceptsBoundsAndFencedContent) {
  std::vector<Keyword> kws;
  std::string why;
  json eight = json::array(), scores = json::array();
  for (int i = 0; i < 8; ++i) {
    eight.push_back("topic " + std::string(1, static_cast<char>('a' + i)) + "x");
    scores.push_back(i % 2 ? 1 : 10);
  }
  EXPECT_TRUE(ParseKeywordAnswer(Answer(eight, scores), &kws, &why)) << why;
  EXPECT_EQ(kws.size(), 8u);
  EXPECT_TRUE(ParseKeywordAnswer(Answer({"one two three four five six"}, {5}), &kws, &why)) << why;
  ASSERT_EQ(kws.size(), 1u);
  EXPECT_EQ(kws[0].text, "one two three four five six");
  std::string fenced =
      "```json\n{\"keywords\": [\"machine translation\", \"attention\"], \"scores\": [10, 7]}\n```";
  ASSERT_TRUE(ParseKeywordAnswer(ChatResponse(fenced), &kws, &why)) << why;
  ASSERT_EQ(kws.size(), 2u);
  EXPECT_EQ(kws[0].text, "machine translation");
  EXPECT_EQ(kws[0].score, 10);
  EXPECT_EQ(kws[1].text, "attention");
  EXPECT_EQ(kws[1].score, 7);
}

TEST(ParseKeywordAnswerTest, RejectsBrokenAnswers) {
  json nine = json::array(), nine_scores = json::array();
  for (int i = 0; i < 9; ++i) {
    nine.push_back("topic " + std::string(1, static_cast<char>('a' + i)) + "x");
    nine_scores.push_back(5);
  }
  const std::vector<std::pair<const char*, std::string>> bad = {
      {"not json", "this is not json"},
      {"json array", "[1, 2]"},
      {"no choices", R"({"id": "x", "object": "chat.completion"})"},
      {"empty choices", R"({"choices": []})"},
      {"no content", R"({"choices": [{"message": {"role": "assistant"}}]})"},
      {"content not string", R"({"choices": [{"message": {"content": 5}}]})"},
      {"content without object", ChatResponse("I cannot help with that request.")},
      {"content with broken object", ChatResponse("{\"keywords\": [\"a\", }")},
      {"no scores", ChatResponse(R"({"keywords": ["graph"]})")},
      {"lengths differ", Answer({"graph", "protein folding"}, {5})},
      {"score 0", Answer({"graph"}, {0})},
      {"score 11", Answer({"graph"}, {11})},
      {"score 2.5", Answer({"graph"}, {2.5})},
      {"score string", Answer({"graph"}, {"7"})},
      {"negative score", Answer({"graph"}, {-3})},
      {"empty list", Answer(json::array(), json::array())},
      {"9 keywords", Answer(nine, nine_scores)},
      {"7 words", Answer({"one two three four five six seven"}, {5})},
      {"keyword not string", Answer({42}, {5})},
      {"empty keyword", Answer({"  --  "}, {5})},
  };
  for (const auto& [name, body] : bad) {
    std::vector<Keyword> kws = {{"stale", 3, ""}};
    std::string why;
    EXPECT_FALSE(ParseKeywordAnswer(body, &kws, &why)) << name;
    EXPECT_FALSE(why.empty()) << name;
  }
}

// Regression test for a fixed bug (lib/src/llm.cc, ParseKeywordAnswer): integer scores are read
// with get<int>(), which wraps 64-bit values, so a score of 4294967297
// (2^32 + 1) is accepted as 1 and -4294967286 as 10 instead of being
// rejected as outside 1..10.
TEST(ParseKeywordAnswerTest, HugeIntegerScores) {
  std::vector<Keyword> kws;
  std::string why;
  EXPECT_FALSE(ParseKeywordAnswer(
      ChatResponse(R"({"keywords": ["graph"], "scores": [4294967297]})"), &kws, &why));
  EXPECT_FALSE(ParseKeywordAnswer(
      ChatResponse(R"({"keywords": ["graph"], "scores": [-4294967286]})"), &kws, &why));
}

TEST(KeywordRequestBodyTest, ValidJsonWithModelMessagesAndPaper) {
  LlmOptions o;
  o.model = "qwen-test";
  std::string title = "Graph \"Neural\" Networks {} for Molecules";
  std::string abstract = "We predict molecular properties with message passing.\nNew line, é.";
  json body = json::parse(KeywordRequestBody(o, title, abstract), nullptr, false);
  ASSERT_FALSE(body.is_discarded());
  EXPECT_EQ(body["model"], "qwen-test");
  ASSERT_TRUE(body["messages"].is_array());
  ASSERT_EQ(body["messages"].size(), 2u);
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][1]["role"], "user");
  EXPECT_FALSE(body["messages"][0]["content"].get<std::string>().empty());
  std::string user = body["messages"][1]["content"];
  EXPECT_NE(user.find("Title: " + title), std::string::npos) << user;
  EXPECT_NE(user.find(abstract), std::string::npos) << user;
  EXPECT_NE(user.find("\"keywords\""), std::string::npos) << "asks for the JSON shape";
}

TEST(KeywordRequestBodyTest, AbstractIsCutToMaxCharsAndStaysValidJson) {
  LlmOptions o;
  o.model = "m";
  o.max_chars = 21;
  // A two-byte character straddles the cut.
  std::string abstract = "abcdefghijklmnopqrst" + std::string("é") + "SHOULD_NOT_BE_SENT";
  std::string raw = KeywordRequestBody(o, "T", abstract);
  json body = json::parse(raw, nullptr, false);
  ASSERT_FALSE(body.is_discarded()) << raw;
  std::string user = body["messages"][1]["content"];
  EXPECT_NE(user.find("abcdefghijklmnopqrst"), std::string::npos);
  EXPECT_EQ(user.find("SHOULD_NOT_BE_SENT"), std::string::npos);
}

}  // namespace
}  // namespace litgraph
