// Tests for embed.h: Normalize / Dot, and the built-in LSA model trained with
// TrainLsaOnTexts on a synthetic corpus of two clearly separated topics
// (protein structure vs. finance): the model file opens, has the requested
// dimension, embeds texts as unit vectors that keep the topics apart on
// held-out texts, returns false / zeros for text without a known term, and
// has an identity (model_id) that depends on the model's content only.
// The HTTP backend is exercised against the fake server by the CLI tests
// (tests/cli/run.py, case_embed_http_backend).
#include "litgraph/embed.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "litgraph/ingest.h"
#include "litgraph/keyword_store.h"
#include "litgraph/semantic.h"
#include "litgraph/store.h"
#include "test_util.h"

namespace litgraph {
namespace {

using litgraph::testing::ReadFile;
using litgraph::testing::ScopedTempDir;
using litgraph::testing::WriteFile;

// ---- Normalize / Dot -------------------------------------------------------------

TEST(VectorMathTest, NormalizeAndDot) {
  float v[2] = {3, 4};
  EXPECT_TRUE(Normalize(v, 2));
  EXPECT_FLOAT_EQ(v[0], 0.6f);
  EXPECT_FLOAT_EQ(v[1], 0.8f);
  EXPECT_FLOAT_EQ(Dot(v, v, 2), 1.0f);
  float z[3] = {0, 0, 0};
  EXPECT_FALSE(Normalize(z, 3));
  EXPECT_EQ(z[0], 0);
  EXPECT_EQ(z[2], 0);
  float a[4] = {1, -2, 3, 0.5f}, b[4] = {2, 1, -1, 4};
  EXPECT_FLOAT_EQ(Dot(a, b, 4), 2 - 2 - 3 + 2);
  EXPECT_FLOAT_EQ(Dot(a, b, 0), 0);
  float tiny[2] = {1e-20f, 0};
  EXPECT_TRUE(Normalize(tiny, 2));
  EXPECT_FLOAT_EQ(tiny[0], 1.0f);
  float big[3] = {1e19f, 1e19f, 0};
  EXPECT_TRUE(Normalize(big, 3));
  EXPECT_NEAR(Dot(big, big, 3), 1.0f, 1e-6);
}

// Dot's kernel (AVX2 and FMA where the CPU has them) against a sum in double
// precision, at every length through the 32-wide loop, the 8-wide one and the
// tail, on unaligned rows; and Dot calls the kernel DotFunction names.
TEST(VectorMathTest, DotKernelMatchesADoubleSumAtEveryLength) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> a(301), b(301);
  for (int dim = 0; dim <= 300; ++dim) {
    for (float& x : a) x = u(rng);
    for (float& x : b) x = u(rng);
    double exact = 0, magnitude = 0;
    for (int i = 0; i < dim; ++i) {
      exact += static_cast<double>(a[i + 1]) * b[i];
      magnitude += std::abs(static_cast<double>(a[i + 1]) * b[i]);
    }
    const float got = DotFunction()(a.data() + 1, b.data(), dim);
    EXPECT_NEAR(got, exact, 1e-6 * (magnitude + 1)) << "dim " << dim;
    EXPECT_EQ(Dot(a.data() + 1, b.data(), dim), got) << "dim " << dim;
  }
}

// ---- The built-in LSA model ----------------------------------------------------------

const std::vector<std::string> kProtein = {"protein",   "folding", "amino",     "acid",
                                           "structure", "residue", "peptide",   "chain",
                                           "helix",     "enzyme",  "molecular", "binding"};
const std::vector<std::string> kFinance = {"stock",     "market",   "finance", "investment",
                                           "portfolio", "equity",   "bond",    "trading",
                                           "price",     "dividend", "asset",   "capital"};

std::string RandomDoc(const std::vector<std::string>& vocab, std::mt19937_64& rng, int words = 8) {
  std::string doc;
  for (int i = 0; i < words; ++i) {
    if (!doc.empty()) doc += i % 4 == 0 ? ". " : " ";
    doc += vocab[rng() % vocab.size()];
  }
  return doc;
}

std::vector<std::string> Corpus(uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> docs;
  for (int i = 0; i < 100; ++i) {
    docs.push_back(RandomDoc(kProtein, rng));
    docs.push_back(RandomDoc(kFinance, rng));
  }
  return docs;
}

Status Train(const std::string& path, int dim, uint64_t seed = 1, uint64_t corpus_seed = 1,
             LsaTrainStats* stats_out = nullptr) {
  LsaTrainOptions o;
  o.dim = dim;
  o.seed = seed;
  LsaTrainStats stats;
  Status st = TrainLsaOnTexts(Corpus(corpus_seed), o, path, &stats);
  if (stats_out) *stats_out = stats;
  return st;
}

// An 8-dimension model of Corpus() at path, opened.
void TrainAndOpen(const std::string& path, LsaModel* m) {
  ASSERT_TRUE(Train(path, 8).ok());
  ASSERT_TRUE(m->Open(path).ok());
}

std::vector<float> EmbedText(const LsaModel& m, const std::string& text, bool* any = nullptr) {
  std::vector<float> v(m.dim(), 7.0f);  // garbage: EmbedOne must overwrite
  bool ok = m.EmbedOne(text, v.data());
  if (any) *any = ok;
  return v;
}

double Norm(const std::vector<float>& v) {
  double s = 0;
  for (float x : v) s += static_cast<double>(x) * x;
  return std::sqrt(s);
}

TEST(LsaModelTest, TrainsAndOpensWithTheRequestedDimension) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("model");
  LsaTrainStats stats;
  Status st = Train(path, 8, 1, 1, &stats);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(stats.docs, 200u);
  EXPECT_EQ(stats.terms, 24u) << "every word of both vocabularies (stemmed) occurs in 2+ docs";
  EXPECT_GT(stats.nonzeros, 200u);
  LsaModel m;
  st = m.Open(path);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(m.dim(), 8);
  EXPECT_EQ(m.terms(), 24u);
  EXPECT_EQ(m.model_id().rfind("lsa:", 0), 0u) << m.model_id();
  for (int dim : {4, 16}) {
    const std::string p = tmp.File("model" + std::to_string(dim));
    ASSERT_TRUE(Train(p, dim).ok());
    LsaModel md;
    ASSERT_TRUE(md.Open(p).ok());
    EXPECT_EQ(md.dim(), dim);
  }
}

// The idf of every term, read from the model file (embed.h: header 64
// bytes, u64[terms + 1] string offsets, f32[terms] idf, f32[terms][dim],
// strings).
std::vector<std::pair<std::string, float>> ReadIdf(const std::string& path) {
  std::string f = ReadFile(path);
  uint32_t dim, terms;
  std::memcpy(&dim, f.data() + 8, 4);
  std::memcpy(&terms, f.data() + 12, 4);
  const char* offsets = f.data() + 64;
  const char* idf = offsets + (terms + 1) * 8;
  const char* strings = idf + terms * 4 + static_cast<size_t>(terms) * dim * 4;
  std::vector<std::pair<std::string, float>> out;
  for (uint32_t t = 0; t < terms; ++t) {
    uint64_t a, b;
    float x;
    std::memcpy(&a, offsets + t * 8, 8);
    std::memcpy(&b, offsets + (t + 1) * 8, 8);
    std::memcpy(&x, idf + t * 4, 4);
    out.emplace_back(std::string(strings + a, b - a), x);
  }
  return out;
}

// Regression test for a fixed bug (lib/src/embed.cc, Corpus::Build and TrainFromCorpus): Build()
// appends the closing sentinel to doc_start_ and then uses docs() (=
// doc_start_.size()) as the document count, which is now N + 1. So the
// smoothed idf is ln((1 + N + 1) / (1 + df)) + 1 instead of the documented
// ln((1 + N) / (1 + df)) + 1, and the model header's train_docs (LsaModel::
// train_docs()) is N + 1. Input: 200 documents, "protein" in all of them.
// Expected: train_docs() == 200 and idf("protein") == 1.0; actual: 201 and
// ln(202 / 201) + 1 = 1.00496.
TEST(LsaModelTest, TrainDocsAndIdfCountTheDocuments) {
  ScopedTempDir tmp;
  std::vector<std::string> docs = Corpus();
  for (std::string& d : docs) d += ". protein";
  LsaTrainOptions o;
  o.dim = 8;
  LsaTrainStats stats;
  ASSERT_TRUE(TrainLsaOnTexts(docs, o, tmp.File("m"), &stats).ok());
  EXPECT_EQ(stats.docs, 200u);
  LsaModel m;
  ASSERT_TRUE(m.Open(tmp.File("m")).ok());
  EXPECT_EQ(m.train_docs(), 200u);
  bool found = false;
  for (const auto& [term, idf] : ReadIdf(tmp.File("m")))
    if (term == "protein") {
      found = true;
      EXPECT_FLOAT_EQ(idf, 1.0f) << "ln((1 + N) / (1 + df)) + 1 with df = N";
    }
  EXPECT_TRUE(found);
}

TEST(LsaModelTest, IdfIsSmoothedAndDecreasesWithDocumentFrequency) {
  ScopedTempDir tmp;
  std::vector<std::string> docs = Corpus();
  for (size_t i = 0; i < docs.size(); ++i) docs[i] += i % 2 ? ". protein" : ". protein ribosome";
  LsaTrainOptions o;
  o.dim = 8;
  LsaTrainStats stats;
  ASSERT_TRUE(TrainLsaOnTexts(docs, o, tmp.File("m"), &stats).ok());
  std::map<std::string, float> idf;
  for (const auto& [term, x] : ReadIdf(tmp.File("m"))) idf[term] = x;
  ASSERT_TRUE(idf.count("protein") && idf.count("ribosom")) << "stems";
  // Within the off-by-one above (N or N + 1 documents).
  EXPECT_NEAR(idf["protein"], 1.0, 0.01);
  EXPECT_NEAR(idf["ribosom"], std::log(201.0 / 101.0) + 1, 0.01);
  EXPECT_GT(idf["ribosom"], idf["protein"]);
  // Terms sorted bytewise (the binary search of the format).
  std::vector<std::pair<std::string, float>> all = ReadIdf(tmp.File("m"));
  for (size_t i = 1; i < all.size(); ++i) EXPECT_LT(all[i - 1].first, all[i].first);
}

TEST(LsaModelTest, EmbeddingsAreUnitVectors) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("model");
  LsaModel m;
  ASSERT_NO_FATAL_FAILURE(TrainAndOpen(path, &m));
  std::mt19937_64 rng(99);
  for (int i = 0; i < 20; ++i) {
    bool any = false;
    std::vector<float> v = EmbedText(m, RandomDoc(i % 2 ? kProtein : kFinance, rng, 5), &any);
    EXPECT_TRUE(any);
    EXPECT_NEAR(Norm(v), 1.0, 1e-5);
  }
  // Case, inflection and word order do not matter (folded stems, bag of words).
  std::vector<float> a = EmbedText(m, "Protein folding of amino acids");
  std::vector<float> b = EmbedText(m, "acid amino FOLDS proteins");
  for (int i = 0; i < m.dim(); ++i) EXPECT_NEAR(a[i], b[i], 1e-6);
  // Unknown words are ignored.
  std::vector<float> c = EmbedText(m, "protein folding of amino acids with xylophones");
  for (int i = 0; i < m.dim(); ++i) EXPECT_NEAR(a[i], c[i], 1e-6);
}

TEST(LsaModelTest, SameTopicIsCloserThanCrossTopicOnHeldOutTexts) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("model");
  LsaModel m;
  ASSERT_NO_FATAL_FAILURE(TrainAndOpen(path, &m));
  std::mt19937_64 rng(12345);  // texts not in the training corpus
  std::vector<std::vector<float>> prot, fin;
  for (int i = 0; i < 15; ++i) {
    prot.push_back(EmbedText(m, RandomDoc(kProtein, rng, 6)));
    fin.push_back(EmbedText(m, RandomDoc(kFinance, rng, 6)));
  }
  double min_same = 2, max_cross = -2, sum_same = 0, sum_cross = 0;
  int n_same = 0, n_cross = 0;
  for (size_t i = 0; i < prot.size(); ++i) {
    for (size_t j = 0; j < prot.size(); ++j) {
      if (i != j) {
        for (auto* group : {&prot, &fin}) {
          double s = Dot((*group)[i].data(), (*group)[j].data(), m.dim());
          min_same = std::min(min_same, s);
          sum_same += s;
          ++n_same;
        }
      }
      double x = Dot(prot[i].data(), fin[j].data(), m.dim());
      max_cross = std::max(max_cross, x);
      sum_cross += x;
      ++n_cross;
    }
  }
  EXPECT_GT(min_same, max_cross) << "every same-topic pair closer than every cross-topic pair";
  EXPECT_GT(sum_same / n_same, sum_cross / n_cross + 0.5);
  // And a handwritten pair of each.
  std::vector<float> p1 = EmbedText(m, "helix structure of a peptide chain"),
                     p2 = EmbedText(m, "enzyme binding residue"),
                     f1 = EmbedText(m, "stock market trading price"),
                     f2 = EmbedText(m, "bond portfolio and dividend investment");
  EXPECT_GT(Dot(p1.data(), p2.data(), 8), Dot(p1.data(), f1.data(), 8));
  EXPECT_GT(Dot(f1.data(), f2.data(), 8), Dot(f2.data(), p2.data(), 8));
}

// A word cache (embed's bulk path) gives every text the same vector, to the
// bit, as embedding it alone: repeated and inflected words, stopwords,
// one-letter words, words the model does not know, other scripts.
TEST(LsaModelTest, AWordCacheGivesTheSameVectors) {
  ScopedTempDir tmp;
  LsaModel m;
  ASSERT_NO_FATAL_FAILURE(TrainAndOpen(tmp.File("model"), &m));
  std::mt19937_64 rng(5);
  std::vector<std::string> texts = {
      "Protein folding of amino acids, proteins FOLD; a b c protein protein",
      "acid amino FOLDS proteins with xylophones and the of a",
      "Überraschung: Proteinfaltung und Aminosäuren, 蛋白质 折叠 protein",
      "",
      "x",
      "the of and"};
  for (int i = 0; i < 40; ++i) texts.push_back(RandomDoc(i % 2 ? kProtein : kFinance, rng, 30));
  LsaModel::WordCache cache;
  for (int pass = 0; pass < 2; ++pass)  // the second with every word cached
    for (const std::string& t : texts) {
      std::vector<float> alone(m.dim()), cached(m.dim(), 7.0f);
      const bool a = m.EmbedOne(t, alone.data());
      const bool c = m.EmbedOne(t, cached.data(), &cache);
      EXPECT_EQ(a, c) << t;
      EXPECT_EQ(0, std::memcmp(alone.data(), cached.data(), alone.size() * sizeof(float))) << t;
    }
  EXPECT_GT(cache.size(), 10u);
}

TEST(LsaModelTest, TextWithoutKnownTermsGivesZeros) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("model");
  LsaModel m;
  ASSERT_NO_FATAL_FAILURE(TrainAndOpen(path, &m));
  for (const char* text : {"", "zebra quasar", "the of and with", "12345 !!!"}) {
    bool any = true;
    std::vector<float> v = EmbedText(m, text, &any);
    EXPECT_FALSE(any) << text;
    for (float x : v) EXPECT_EQ(x, 0.0f) << text;
  }
  // Embed() gives one row per text, zero rows where nothing is known.
  std::vector<float> out;
  ASSERT_TRUE(m.Embed({"protein folding", "zebra quasar", "stock market"}, &out).ok());
  ASSERT_EQ(out.size(), 3u * 8);
  std::vector<float> r0(out.begin(), out.begin() + 8), r1(out.begin() + 8, out.begin() + 16),
      r2(out.begin() + 16, out.end());
  EXPECT_NEAR(Norm(r0), 1.0, 1e-5);
  EXPECT_EQ(Norm(r1), 0.0);
  EXPECT_NEAR(Norm(r2), 1.0, 1e-5);
  std::vector<float> one = EmbedText(m, "stock market");
  for (int i = 0; i < 8; ++i) EXPECT_EQ(r2[i], one[i]);
  ASSERT_TRUE(m.Embed({}, &out).ok());
  EXPECT_TRUE(out.empty());
}

TEST(LsaModelTest, ModelIdIsStableAndFollowsTheContent) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("model");
  ASSERT_TRUE(Train(path, 8).ok());
  LsaModel a, b;
  ASSERT_TRUE(a.Open(path).ok());
  ASSERT_TRUE(b.Open(path).ok());
  EXPECT_EQ(a.model_id(), b.model_id()) << "two opens of one file";
  // A copy elsewhere is the same model.
  std::filesystem::copy_file(path, tmp.File("copy"));
  LsaModel c;
  ASSERT_TRUE(c.Open(tmp.File("copy")).ok());
  EXPECT_EQ(c.model_id(), a.model_id());
  // Training is deterministic: the same options give the same file and id.
  ASSERT_TRUE(Train(tmp.File("again"), 8).ok());
  EXPECT_EQ(ReadFile(tmp.File("again")), ReadFile(path));
  LsaModel d;
  ASSERT_TRUE(d.Open(tmp.File("again")).ok());
  EXPECT_EQ(d.model_id(), a.model_id());
  // Trained differently: another id.
  ASSERT_TRUE(Train(tmp.File("seed2"), 8, /*seed=*/2).ok());
  ASSERT_TRUE(Train(tmp.File("dim6"), 6).ok());
  ASSERT_TRUE(Train(tmp.File("corpus2"), 8, 1, /*corpus_seed=*/2).ok());
  for (const char* other : {"seed2", "dim6", "corpus2"}) {
    LsaModel e;
    ASSERT_TRUE(e.Open(tmp.File(other)).ok()) << other;
    EXPECT_NE(e.model_id(), a.model_id()) << other;
  }
}

// The id is computed at its first use, not at open (queries never ask): a
// model whose first MiB is damaged past its header opens, and asking for its
// id reports the damage.
TEST(LsaModelTest, ModelIdReadsTheFirstMiBWhenAsked) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("model");
  ASSERT_TRUE(Train(path, 8).ok());
  std::string bytes = ReadFile(path);
  ASSERT_GT(bytes.size(), 1100u);
  bytes[700] ^= 0x40;  // the payload's second 512-byte page
  WriteFile(tmp.File("damaged"), bytes);
  LsaModel m;
  ASSERT_TRUE(m.Open(tmp.File("damaged")).ok());
  EXPECT_TRUE(m.status().ok()) << "the open read the header's page only";
  EXPECT_EQ(m.model_id(), "lsa:damaged");
  EXPECT_FALSE(m.status().ok());
  EXPECT_EQ(m.model_id(), "lsa:damaged") << "computed once";
}

// The lexical part (embed.h): the unit TF-IDF vector over the model's
// vocabulary, sublinear tf and the model's idf, unknown words dropped.
TEST(LsaModelTest, SparsePartIsTheUnitTfIdfVector) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("model");
  LsaModel m;
  ASSERT_NO_FATAL_FAILURE(TrainAndOpen(path, &m));
  std::map<std::string, float> idf;
  std::vector<std::string> vocab;
  for (auto& [t, x] : ReadIdf(path)) {
    idf[t] = x;
    vocab.push_back(t);
  }
  SparseVector v = m.EmbedSparse("Protein proteins FOLDING of a xylophone");
  ASSERT_EQ(v.terms.size(), 3u) << "protein (twice, stemmed), fold and the unknown xylophon";
  EXPECT_LT(v.terms[0], v.terms[1]) << "ascending term ids";
  EXPECT_LT(v.terms[1], v.terms[2]) << "ascending term ids";
  EXPECT_GE(v.terms[2], m.terms()) << "an unknown word's id is above the vocabulary";
  double norm = 0;
  for (float w : v.weights) norm += static_cast<double>(w) * w;
  EXPECT_NEAR(norm, 1.0, 1e-6);
  std::map<std::string, float> by_term;
  for (size_t i = 0; i + 1 < v.terms.size(); ++i) by_term[vocab[v.terms[i]]] = v.weights[i];
  ASSERT_TRUE(by_term.count("protein") && by_term.count("fold"));
  EXPECT_NEAR(by_term["protein"] / by_term["fold"],
              (1 + std::log(2.0)) * idf["protein"] / idf["fold"], 1e-5);
  // An unknown word weighs the idf of a word in one training document.
  const double unknown_idf = std::log((1.0 + static_cast<double>(m.train_docs())) / 2) + 1;
  EXPECT_NEAR(v.weights[2] / by_term["fold"], unknown_idf / idf["fold"], 1e-5);
  // Texts of unknown words embed their lexical part and match each other.
  SparseVector a = m.EmbedSparse("xylophone quartet"), b = m.EmbedSparse("a xylophone solo");
  ASSERT_EQ(a.terms.size(), 2u);
  EXPECT_GT(SparseDot(a, b), 0.3f);
  EXPECT_EQ(SparseDot(a, m.EmbedSparse("protein folding")), 0.0f);
  EXPECT_TRUE(m.EmbedSparse("").empty());
}

// The cached lexical part (SemanticIndex scores stored texts through one
// cache) is the uncached one, word for word and bit for bit, whatever the
// cache already holds.
TEST(LsaModelTest, CachedSparseEmbeddingEqualsTheUncached) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("model");
  LsaModel m;
  ASSERT_NO_FATAL_FAILURE(TrainAndOpen(path, &m));
  const std::vector<std::string> texts = {
      "Protein proteins FOLDING of a xylophone",
      "xylophone quartet, xylophones and a QUARTET",
      "",
      "a of the",
      "Die Faltung der Proteine \u00fcber Nacht, Faltung und Faltung",
      "protein folding protein folding protein folding kinetics",
      "x y z 42 4242 co-operative self-assembly",
      "Protein proteins FOLDING of a xylophone",
  };
  LsaModel::WordCache cache;
  for (int round = 0; round < 2; ++round)
    for (const std::string& t : texts) {
      SparseVector a = m.EmbedSparse(t), b = m.EmbedSparse(t, &cache);
      EXPECT_EQ(a.terms, b.terms) << t;
      ASSERT_EQ(a.weights.size(), b.weights.size()) << t;
      for (size_t i = 0; i < a.weights.size(); ++i) EXPECT_EQ(a.weights[i], b.weights[i]) << t;
    }
  EXPECT_GT(cache.size(), 10u);
  // The dense embedding through the same cache skips the unknown words.
  std::vector<float> plain(m.dim()), cached(m.dim());
  ASSERT_EQ(m.EmbedOne(texts[0], plain.data()), m.EmbedOne(texts[0], cached.data(), &cache));
  EXPECT_EQ(plain, cached);
}

TEST(LsaModelTest, SparseDotMatchesTheDenseDotProduct) {
  SparseVector a{{1, 4, 9}, {0.5f, -2.0f, 1.0f}}, b{{0, 4, 9, 12}, {3.0f, 0.25f, 2.0f, 7.0f}};
  EXPECT_FLOAT_EQ(SparseDot(a, b), -2.0f * 0.25f + 1.0f * 2.0f);
  EXPECT_FLOAT_EQ(SparseDot(b, a), SparseDot(a, b));
  EXPECT_FLOAT_EQ(SparseDot(a, SparseVector{}), 0.0f);
  EXPECT_FLOAT_EQ(SparseDot(SparseVector{{2, 3}, {1, 1}}, SparseVector{{0, 1, 4}, {1, 1, 1}}),
                  0.0f);
}

TEST(LsaModelTest, LexicalWeightIsRecordedInTheModel) {
  ScopedTempDir tmp;
  for (double w : {0.0, 0.3, 0.8}) {
    LsaTrainOptions o;
    o.dim = 8;
    o.lexical_weight = w;
    LsaTrainStats stats;
    const std::string path = tmp.File("model" + std::to_string(w));
    ASSERT_TRUE(TrainLsaOnTexts(Corpus(), o, path, &stats).ok());
    LsaModel m;
    ASSERT_TRUE(m.Open(path).ok());
    EXPECT_DOUBLE_EQ(m.lexical_weight(), w);
  }
  EXPECT_DOUBLE_EQ(LsaTrainOptions{}.lexical_weight, 0.8) << "the documented default";
}

TEST(LsaModelTest, BadModelFilesFail) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("model");
  ASSERT_TRUE(Train(path, 8).ok());
  const std::string good = ReadFile(path);
  for (auto [name, bytes] :
       std::vector<std::pair<std::string, std::string>>{{"trunc", good.substr(0, good.size() - 1)},
                                                        {"header", good.substr(0, 30)},
                                                        {"empty", ""},
                                                        {"magic", "X" + good.substr(1)},
                                                        {"extra", good + "z"}}) {
    WriteFile(tmp.File(name), bytes);
    LsaModel m;
    EXPECT_FALSE(m.Open(tmp.File(name)).ok()) << name;
  }
  LsaModel m;
  EXPECT_FALSE(m.Open(tmp.File("missing")).ok());
}

TEST(LsaModelTest, TooLittleTextIsAnError) {
  ScopedTempDir tmp;
  LsaTrainOptions o;
  o.dim = 8;
  LsaTrainStats stats;
  EXPECT_FALSE(TrainLsaOnTexts({}, o, tmp.File("m0"), &stats).ok());
  EXPECT_FALSE(TrainLsaOnTexts({"protein folding"}, o, tmp.File("m1"), &stats).ok());
  // Words that occur once carry no vocabulary (df >= 2).
  EXPECT_FALSE(
      TrainLsaOnTexts({"alpha beta", "gamma delta", "epsilon zeta"}, o, tmp.File("m2"), &stats)
          .ok());
  EXPECT_FALSE(std::filesystem::exists(tmp.File("m2")));
}

TEST(LsaModelTest, VocabularyCapKeepsTheMostFrequentTerms) {
  ScopedTempDir tmp;
  LsaTrainOptions o;
  o.dim = 4;
  o.max_terms = 10;
  LsaTrainStats stats;
  // "protein folding chain" in every doc, "rare*" words in two docs each.
  std::vector<std::string> docs;
  for (int i = 0; i < 40; ++i)
    docs.push_back("protein folding chain" + std::string(" rare") + static_cast<char>('a' + i / 2) +
                   "x");
  ASSERT_TRUE(TrainLsaOnTexts(docs, o, tmp.File("m"), &stats).ok());
  EXPECT_EQ(stats.terms, 10u);
  LsaModel m;
  ASSERT_TRUE(m.Open(tmp.File("m")).ok());
  EXPECT_EQ(m.terms(), 10u);
  bool any = false;
  EmbedText(m, "protein", &any);
  EXPECT_TRUE(any) << "the most frequent term is kept";
}

// Training holds at most max_tracked_terms distinct terms while it reads the
// sample (a multilingual corpus has tens of millions of words, most used
// once). Input: the two-topic corpus, every document with 40 words of its own,
// after two documents holding all the topic words; a cap of 1024 terms.
// Expected: rare terms were dropped along the way, and the model file is the
// one an unbounded count writes (only words used once were dropped, and the
// vocabulary needs df >= 2).
TEST(LsaModelTest, TrainingCountsTermsWithinItsCap) {
  ScopedTempDir tmp;
  std::vector<std::string> topics = Corpus(), docs;
  std::string all;
  for (const std::string& d : topics) all += d + ". ";
  docs = {all, all};
  for (size_t i = 0; i < topics.size(); ++i) {
    std::string d = topics[i];
    for (int j = 0; j < 40; ++j) d += fmt::format(" zq{}x{}", i, j);
    docs.push_back(d);
  }
  LsaTrainOptions o;
  o.dim = 8;
  LsaTrainStats unbounded, capped;
  o.max_tracked_terms = size_t{1} << 30;
  ASSERT_TRUE(TrainLsaOnTexts(docs, o, tmp.File("unbounded"), &unbounded).ok());
  EXPECT_EQ(unbounded.dropped_terms, 0u);
  o.max_tracked_terms = 1024;
  ASSERT_TRUE(TrainLsaOnTexts(docs, o, tmp.File("capped"), &capped).ok());
  EXPECT_GT(capped.dropped_terms, 7000u) << "of 8,000 words used once";
  EXPECT_EQ(capped.terms, unbounded.terms);
  EXPECT_EQ(ReadFile(tmp.File("capped")), ReadFile(tmp.File("unbounded")));
}

// An empty batch needs no request: Embed({}) should succeed with no output,
// as LsaModel::Embed does.
// Regression test for a fixed bug (lib/src/embed.cc, HttpEmbedder::Embed): with no texts there
// are no request bodies, `parsed` is empty, and
// `int d = static_cast<int>(parsed[0][0].size());` (embed.cc:489) reads out of
// bounds: the process dies with SIGSEGV. Expected: Status::Ok and an empty
// *out. Not reachable from the tools today (RunEmbed and EmbedText never pass
// an empty batch), but any library caller can hit it.
TEST(HttpEmbedderTest, EmptyBatchMakesNoRequest) {
  HttpEmbedOptions o;
  o.url = "http://127.0.0.1:1/v1";  // nothing listens: a request would fail
  o.model = "none";
  o.http.timeout_ms = 500;
  HttpEmbedder e(o);
  EXPECT_EQ(e.model_id(), "http:none");
  EXPECT_EQ(e.dim(), 0) << "learned from the first answer";
  std::vector<float> out = {1, 2, 3};
  Status st = e.Embed({}, &out);
  EXPECT_TRUE(st.ok()) << st.message();
  EXPECT_TRUE(out.empty());
}

TEST(HttpEmbedderTest, UnreachableEndpointIsAnIoError) {
  HttpEmbedOptions o;
  o.url = "http://127.0.0.1:1/v1";
  o.model = "none";
  o.http.timeout_ms = 500;
  o.http.retries = 0;
  HttpEmbedder e(o);
  std::vector<float> out;
  Status st = e.Embed({"protein folding"}, &out);
  EXPECT_EQ(st.code(), Code::kIoError);
  EXPECT_NE(st.message().find("127.0.0.1:1"), std::string::npos) << st.message();
  EXPECT_EQ(e.Probe().code(), Code::kIoError);
}

}  // namespace
}  // namespace litgraph

namespace litgraph {
namespace {

// Ingests `files` and extracts keywords with the built-in extractor (of the
// papers without keywords only, when `missing`).
void IngestWithKeywords(Store* store, const std::vector<std::string>& files, bool missing) {
  IngestStats is;
  ASSERT_TRUE(Ingest(store, files, IngestOptions{}, &is).ok());
  KeywordRunOptions ko;
  if (missing) ko.select = KeywordRunOptions::Select::kMissing;
  KeywordRunStats ks;
  auto builtin = [](const PhraseStats* ps) { return MakeBuiltinKeywordBackend(ps); };
  ASSERT_TRUE(RunKeywordExtraction(store, ko, builtin, &ks).ok());
}

// A writable store in `tmp` of the snowball fixture with keywords, and the
// embedding options of the tests below (16 dimensions, one index thread).
void OpenSnowball(const ScopedTempDir& tmp, std::unique_ptr<Store>* store, EmbedRunOptions* eo) {
  auto opened = Store::Open(tmp.File("db"), Store::Mode::kWrite, true);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  *store = std::move(opened.value());
  ASSERT_NO_FATAL_FAILURE(
      IngestWithKeywords(store->get(), {testing::TestData("snowball.works.jsonl")}, false));
  eo->lsa.dim = 16;
  eo->hnsw.threads = 1;
}

// The payloads of the current vectors generation's base vector files.
std::map<std::string, std::string> VectorPayloads(Store* store) {
  std::map<std::string, std::string> out;
  auto view = store->Current("vectors");
  EXPECT_TRUE(view.ok() && *view);
  if (!view.ok() || !*view) return out;
  for (const char* f : {"title.vec", "abstract.vec", "keyword.vec"})
    out[f] = testing::Payload((*view)->Path(f));
  return out;
}

// Field `name` of the store's current vectors generation.
std::unique_ptr<FieldVectors> CurrentField(Store* store, const char* name) {
  auto view = store->Current("vectors");
  EXPECT_TRUE(view.ok() && *view);
  auto v = std::make_unique<FieldVectors>();
  EXPECT_TRUE(view.ok() && *view && v->Open(**view, name).ok()) << name;
  return v;
}

// Every row of `v` with a vector, searched by it (top k, ef 64), comes first
// (or ties with a row of the same vector), and no answer names a row twice.
void ExpectEveryRowFoundByItsVector(const FieldVectors& v, size_t k, const std::string& name) {
  uint64_t found = 0, present = 0;
  for (uint64_t row = 0; row < v.rows(); ++row) {
    const float* vec = v.Row(row);
    if (!vec) continue;
    ++present;
    std::vector<VectorHit> hits = v.Search(vec, k, 64);
    found += !hits.empty() && (hits[0].id == row || hits[0].score >= 0.9999f);
    std::vector<uint32_t> ids;
    for (const VectorHit& h : hits) ids.push_back(h.id);
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end()) << name << " row " << row;
  }
  EXPECT_EQ(found, present) << name;
  EXPECT_TRUE(v.status().ok()) << name;
}

// embed --missing leaves a delta beside the base (vectors.h) that reads as
// the rows a full re-embedding writes; a second --missing run carries the
// delta over, and --compact folds it into base files byte-identical to a
// full re-embedding's. New papers, a paper whose abstract changed, and papers
// and keywords it keeps.
TEST(EmbedMissingTest, ADeltaAndItsCompactionGiveTheVectorsOfAFullReembedding) {
  ScopedTempDir tmp;
  auto opened = Store::Open(tmp.File("db"), Store::Mode::kWrite, true);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  Store* store = opened->get();
  const std::vector<std::string> all = {
      testing::TestData("snowball.works.jsonl"),
      testing::TestData("search-biodiversity-finance.works.jsonl")};
  ASSERT_NO_FATAL_FAILURE(IngestWithKeywords(store, {all[0]}, false));
  EmbedRunOptions eo;
  eo.lsa.dim = 16;
  eo.threads = 2;
  eo.hnsw.threads = 1;
  EmbedRunStats es;
  ASSERT_TRUE(RunEmbed(store, eo, &es).ok());
  // New papers, and one paper whose abstract changed.
  auto id = store->PaperByExtId("W2741809807");
  ASSERT_TRUE(id);
  std::string changed = nlohmann::json({{"id", "W2741809807"},
                                        {"title", "Open access at scale"},
                                        {"abstract", "Bus routes and timetables in Trondheim."},
                                        {"updated_date", "2099-01-01"}})
                            .dump();
  WriteFile(tmp.File("changed.jsonl"), changed + "\n");
  ASSERT_NO_FATAL_FAILURE(IngestWithKeywords(store, {all[1], tmp.File("changed.jsonl")}, true));
  EmbedRunOptions missing = eo;
  missing.missing = true;
  missing.delta_fraction = 100;  // never compacts by size
  EmbedRunStats ms;
  ASSERT_TRUE(RunEmbed(store, missing, &ms).ok());
  EXPECT_FALSE(ms.trained);
  EXPECT_FALSE(ms.compacted);
  EXPECT_GT(ms.abstracts, 0);
  EXPECT_GE(ms.delta_rows, ms.titles + ms.abstracts + ms.keywords);
  // Every field's rows, read through the store's semantic index.
  auto rows = [&] {
    std::map<std::string, std::vector<std::vector<float>>> out;
    auto sem = SemanticIndex::Open(store);
    EXPECT_TRUE(sem.ok());
    if (!sem.ok()) return out;
    for (VecField f : {VecField::kTitle, VecField::kAbstract, VecField::kKeyword}) {
      const FieldVectors& v = (*sem)->vectors(f);
      const auto n = static_cast<uint64_t>(
          store->MaxId(f == VecField::kKeyword ? NodeType::kKeyword : NodeType::kPaper) + 1);
      for (uint64_t r = 0; r < n; ++r) {
        const float* p = v.Row(r);
        out[VecFieldName(f)].push_back(p ? std::vector<float>(p, p + v.dim())
                                         : std::vector<float>());
      }
    }
    EXPECT_TRUE((*sem)->status().ok());
    return out;
  };
  const auto delta_rows = rows();
  {
    auto view = store->Current("vectors");
    ASSERT_TRUE(view.ok() && *view);
    for (const char* f : {"title.delta.ids", "abstract.delta.vec", "keyword.delta.ids"})
      EXPECT_TRUE((*view)->Has(f)) << f;
  }
  // Nothing new (texts without a known word, whose vector is zero, are not
  // tried again with the same model, but for shared keywords, which are
  // tried at every run: --keyword-min-papers): the delta is carried over as
  // it is.
  EmbedRunStats again;
  ASSERT_TRUE(RunEmbed(store, missing, &again).ok());
  EXPECT_EQ(again.titles + again.abstracts, 0);
  int64_t shared_without = 0;
  {
    Stmt shared = store->db().Prepare("SELECT id FROM keyword WHERE paper_count >= 2");
    while (shared.Step())
      shared_without += delta_rows.at("keyword").at(static_cast<size_t>(shared.Int(0))).empty();
  }
  EXPECT_EQ(again.keywords, shared_without);
  EXPECT_EQ(again.delta_rows, ms.delta_rows);
  EXPECT_TRUE(rows() == delta_rows);
  EmbedRunOptions compact = missing;
  compact.compact = true;
  EmbedRunStats cs;
  ASSERT_TRUE(RunEmbed(store, compact, &cs).ok());
  EXPECT_TRUE(cs.compacted);
  EXPECT_EQ(cs.delta_rows, 0);
  const auto incremental = VectorPayloads(store);
  {
    auto view = store->Current("vectors");
    ASSERT_TRUE(view.ok() && *view);
    for (const auto& [name, size] : (*view)->files())
      EXPECT_EQ(name.find("delta"), std::string::npos) << name;
    // The changed paper's title node was moved in the extended index, and is
    // counted towards its rebuild. Its new abstract has no word the model
    // knows: its abstract vector went, and its node, kept as a waypoint,
    // counts too.
    const auto& moved = (*view)->info().at("hnsw_moved");
    EXPECT_EQ(moved.value("title", -1), 1);
    EXPECT_EQ(moved.value("abstract", -1), 1);
    EXPECT_EQ(moved.value("keyword", -1), 0);
  }
  EmbedRunStats fs;
  ASSERT_TRUE(RunEmbed(store, eo, &fs).ok());  // every row again, same model
  EXPECT_FALSE(fs.trained);
  {
    auto view = store->Current("vectors");
    ASSERT_TRUE(view.ok() && *view);
    EXPECT_EQ((*view)->info().at("hnsw_moved").value("abstract", -1), 0) << "built afresh";
  }
  const auto full = VectorPayloads(store);
  EXPECT_TRUE(rows() == delta_rows) << "the delta read otherwise than a full re-embedding";
  for (const auto& [name, bytes] : full) {
    EXPECT_GT(bytes.size(), 64u) << name;
    EXPECT_TRUE(incremental.at(name) == bytes) << name << " differs from a full re-embedding";
  }
}

// With deltas indexed from one row, the second --missing run extends the
// delta's index instead of indexing the delta again: a delta paper whose text
// changed is moved in it (counted in the manifest's delta_moved), and every
// delta row is found by its own vector. A compaction drops the count.
TEST(EmbedMissingTest, TheNextRunExtendsTheDeltaIndex) {
  ScopedTempDir tmp;
  std::unique_ptr<Store> opened;
  EmbedRunOptions eo;
  ASSERT_NO_FATAL_FAILURE(OpenSnowball(tmp, &opened, &eo));
  Store* store = opened.get();
  EmbedRunStats es;
  ASSERT_TRUE(RunEmbed(store, eo, &es).ok());
  EmbedRunOptions missing = eo;
  missing.missing = true;
  missing.delta_fraction = 100;
  missing.delta_index_min_rows = 1;
  ASSERT_NO_FATAL_FAILURE(IngestWithKeywords(
      store, {testing::TestData("search-biodiversity-finance.works.jsonl")}, true));
  auto moved = [&](const char* field) {
    auto view = store->Current("vectors");
    EXPECT_TRUE(view.ok() && *view);
    EXPECT_TRUE((*view)->Has(std::string(field) + ".delta.hnswlib")) << field;
    return (*view)->info().at("delta_moved").value(field, -1);
  };
  EmbedRunStats first;
  ASSERT_TRUE(RunEmbed(store, missing, &first).ok());
  EXPECT_EQ(moved("title"), 0);
  const std::string changed = nlohmann::json({{"id", "W4235089722"},
                                              {"title", "Open access citations at scale"},
                                              {"abstract", "Bibliometric impact of open access."},
                                              {"updated_date", "2099-01-01"}})
                                  .dump();
  WriteFile(tmp.File("changed.jsonl"), changed + "\n");
  ASSERT_NO_FATAL_FAILURE(IngestWithKeywords(store, {tmp.File("changed.jsonl")}, true));
  EmbedRunStats second;
  ASSERT_TRUE(RunEmbed(store, missing, &second).ok());
  EXPECT_FALSE(second.compacted);
  EXPECT_EQ(second.titles, 1);
  EXPECT_EQ(moved("title"), 1) << "the changed paper was in the delta's index";
  {
    auto sem = SemanticIndex::Open(store);
    ASSERT_TRUE(sem.ok());
    const FieldVectors& v = (*sem)->vectors(VecField::kTitle);
    size_t found = 0;
    const std::vector<uint32_t> ids = v.DeltaIds();
    ASSERT_GT(ids.size(), 150u);
    for (uint32_t id : ids) {
      const float* row = v.Row(id);
      if (!row) {
        ++found;
        continue;
      }
      std::vector<VectorHit> hit = v.Search(row, 1, 64);
      found += !hit.empty() && (hit[0].id == id || hit[0].score >= 0.9999f);
    }
    EXPECT_EQ(found, ids.size());
    ASSERT_TRUE(v.status().ok());
  }
  EmbedRunOptions compact = missing;
  compact.compact = true;
  EmbedRunStats cs;
  ASSERT_TRUE(RunEmbed(store, compact, &cs).ok());
  auto view = store->Current("vectors");
  ASSERT_TRUE(view.ok() && *view);
  EXPECT_FALSE((*view)->info().at("delta_moved").contains("title"));
  EXPECT_FALSE((*view)->Has("title.delta.hnswlib"));
}

// A compaction indexes a delta large enough for an index of its own in a new
// segment (vectors.h): the base index is inherited byte for byte, the
// segment's nodes are the delta's rows, and a changed base paper, live in
// both, is returned once. The next compaction makes the row a waypoint of the
// first segment when it changes again, and --fold-segments leaves one index.
// The vector files equal a full re-embedding's, and every row is found by its
// own vector throughout.
TEST(EmbedMissingTest, ACompactionIndexesALargeDeltaInASegmentOfItsOwn) {
  ScopedTempDir tmp;
  std::unique_ptr<Store> opened;
  EmbedRunOptions eo;
  ASSERT_NO_FATAL_FAILURE(OpenSnowball(tmp, &opened, &eo));
  Store* store = opened.get();
  EmbedRunStats es;
  ASSERT_TRUE(RunEmbed(store, eo, &es).ok());
  EmbedRunOptions missing = eo;
  missing.missing = true;
  missing.delta_fraction = 100;
  missing.delta_index_min_rows = 1;
  EmbedRunOptions compact = missing;
  compact.compact = true;
  auto current = [&] {
    auto view = store->Current("vectors");
    EXPECT_TRUE(view.ok() && *view);
    return *view;
  };
  auto field = [&](const char* name) { return CurrentField(store, name); };
  // A base paper's new title and abstract, in words the model knows.
  const std::vector<uint32_t> base_titles = field("title")->base_index().Labels();
  int changes = 0;
  auto change = [&](const std::string& ext_id, const std::string& title) {
    const std::string file = tmp.File("change" + std::to_string(++changes) + ".jsonl");
    WriteFile(file, nlohmann::json({{"id", ext_id},
                                    {"title", title},
                                    {"abstract", "Open access articles are cited more often."},
                                    {"updated_date", fmt::format("2099-01-{:02}", changes)}})
                            .dump() +
                        "\n");
    return file;
  };
  auto changed_id = store->PaperByExtId("W2741809807");
  ASSERT_TRUE(changed_id);
  const auto changed_row = static_cast<uint32_t>(*changed_id);
  ASSERT_NO_FATAL_FAILURE(
      IngestWithKeywords(store,
                         {testing::TestData("search-biodiversity-finance.works.jsonl"),
                          change("W2741809807", "The open access citation advantage")},
                         true));
  EmbedRunStats first;
  ASSERT_TRUE(RunEmbed(store, missing, &first).ok());
  ASSERT_TRUE(current()->Has("title.delta.hnswlib"));
  const std::vector<uint32_t> delta_ids = field("title")->DeltaIds();
  ASSERT_TRUE(std::binary_search(delta_ids.begin(), delta_ids.end(), changed_row));
  const std::string base_index = testing::Payload(current()->Path("title.hnsw"));

  EmbedRunStats cs;
  ASSERT_TRUE(RunEmbed(store, compact, &cs).ok());
  EXPECT_TRUE(cs.compacted);
  EXPECT_EQ(cs.delta_rows, 0);
  EXPECT_EQ(cs.index_segments, 3) << "one segment a field";
  auto check = [&](const char* name) { ExpectEveryRowFoundByItsVector(*field(name), 10, name); };
  {
    auto view = current();
    for (const auto& [file, size] : view->files())
      EXPECT_EQ(file.find("delta"), std::string::npos) << file;
    EXPECT_EQ(testing::Payload(view->Path("title.hnsw")), base_index) << "the base index stays";
    EXPECT_EQ(view->info().at("vector_segments").value("title", -1), 1);
    EXPECT_EQ(view->info().at("hnsw_moved").value("title", -1), 1) << "the changed paper";
    std::unique_ptr<FieldVectors> titles = field("title");
    ASSERT_EQ(titles->segments(), 1u);
    EXPECT_EQ(titles->base_index().Labels(), base_titles);
    std::vector<uint32_t> live;
    for (uint32_t id : delta_ids)
      if (titles->Row(id)) live.push_back(id);
    EXPECT_EQ(titles->segment(0).Labels(), live);
    // The changed paper is live in the base (its old place) and in the
    // segment: one hit, its own, first.
    std::vector<VectorHit> hits = titles->Search(titles->Row(changed_row), 10, 64);
    ASSERT_FALSE(hits.empty());
    EXPECT_EQ(hits[0].id, changed_row);
  }
  for (const char* name : {"title", "abstract", "keyword"}) check(name);

  // The paper changes again, and a segment paper too: both become waypoints
  // of the first segment and live nodes of a second.
  const uint32_t segment_row = delta_ids.back();
  auto p = store->GetPaperSummary(static_cast<int64_t>(segment_row));
  ASSERT_TRUE(p);
  ASSERT_NO_FATAL_FAILURE(IngestWithKeywords(
      store,
      {change("W2741809807", "Citation counts of open access articles"),
       change(p->ext_id, "Citations of open access papers in biodiversity finance")},
      true));
  EmbedRunStats again;
  ASSERT_TRUE(RunEmbed(store, compact, &again).ok());
  {
    std::unique_ptr<FieldVectors> titles = field("title");
    ASSERT_EQ(titles->segments(), 2u);
    EXPECT_EQ(titles->segment(1).Labels(), std::vector<uint32_t>({changed_row, segment_row}));
    std::vector<uint32_t> first_segment = titles->segment(0).Labels();
    for (uint32_t row : {changed_row, segment_row}) {
      auto at = std::find(first_segment.begin(), first_segment.end(), row | kWaypoint);
      EXPECT_NE(at, first_segment.end()) << row << " is no waypoint of the first segment";
    }
    EXPECT_EQ(current()->info().at("hnsw_moved").value("title", -1), 1)
        << "the segment paper was no base node";
  }
  for (const char* name : {"title", "abstract", "keyword"}) check(name);
  // --fold-segments inserts the segments' rows into the base index, and
  // moves the base nodes of the rows that changed.
  EmbedRunOptions fold = compact;
  fold.fold_segments = true;
  EmbedRunStats folds;
  ASSERT_TRUE(RunEmbed(store, fold, &folds).ok());
  EXPECT_EQ(field("title")->segments(), 0u);
  for (const char* name : {"title", "abstract", "keyword"}) check(name);
  const auto incremental = VectorPayloads(store);
  EmbedRunStats fs;
  ASSERT_TRUE(RunEmbed(store, eo, &fs).ok());  // every row again, same model
  for (const auto& [name, bytes] : VectorPayloads(store))
    EXPECT_TRUE(incremental.at(name) == bytes) << name << " differs from a full re-embedding";
}

// A compaction within --memory-budget: the base index is extended only up to
// the nodes the budget holds, and the rows past them are indexed in new
// segments; every row is still found by its own vector.
TEST(EmbedMissingTest, ACompactionExtendsTheBaseIndexOnlyWithinTheBudget) {
  ScopedTempDir tmp;
  std::unique_ptr<Store> opened;
  EmbedRunOptions eo;
  ASSERT_NO_FATAL_FAILURE(OpenSnowball(tmp, &opened, &eo));
  Store* store = opened.get();
  eo.memory_budget = 100 << 20;
  EmbedRunStats es;
  ASSERT_TRUE(RunEmbed(store, eo, &es).ok());
  auto field = [&](const char* name) { return CurrentField(store, name); };
  const uint64_t first = std::max(field("title")->present(), field("abstract")->present());
  // Room for 10 more nodes than the first papers have vectors.
  EmbedRunOptions compact = eo;
  compact.missing = true;
  compact.compact = true;
  compact.memory_budget = (first + 10) * (HalfRowBytes(16) + 2 * 16 * 4 * 2 + 16 * 4 / 2 + 96);
  const uint64_t cap = HnswNodesWithin(compact.memory_budget, 16, compact.hnsw.M);
  ASSERT_EQ(cap, first + 10);
  ASSERT_NO_FATAL_FAILURE(IngestWithKeywords(
      store, {testing::TestData("search-biodiversity-finance.works.jsonl")}, true));
  EmbedRunStats cs;
  ASSERT_TRUE(RunEmbed(store, compact, &cs).ok());
  EXPECT_TRUE(cs.compacted);
  EXPECT_GT(cs.index_segments, 0);
  // Every row with a vector is found by it, through the base or a segment,
  // and the manifest counts the segments.
  auto check = [&](const char* name) {
    auto view = store->Current("vectors");
    ASSERT_TRUE(view.ok() && *view);
    std::unique_ptr<FieldVectors> opened_field = field(name);
    const FieldVectors& v = *opened_field;
    EXPECT_EQ((*view)->info()["vector_segments"][name], v.segments()) << name;
    ExpectEveryRowFoundByItsVector(v, 1, name);
  };
  for (const char* name : {"title", "abstract"}) {
    std::unique_ptr<FieldVectors> v = field(name);
    ASSERT_GT(v->present(), cap + 100) << name;
    EXPECT_EQ(v->base_index().nodes(), cap) << name << ": the base extended past the budget";
    EXPECT_EQ(v->segments(), (v->present() - cap + cap - 1) / cap) << name;
    check(name);
  }
  // Two papers of two title segments, far apart, change: their segments are
  // kept with those nodes as waypoints, the base is full, and the two rows
  // go into one new segment of two nodes (not one node per row between them).
  uint64_t rows_changed[2];
  size_t segments_before;
  {
    std::unique_ptr<FieldVectors> titles = field("title");
    segments_before = titles->segments();
    ASSERT_GE(segments_before, 2u);
    const std::vector<uint32_t> a = titles->segment(0).Labels();
    const std::vector<uint32_t> b = titles->segment(segments_before - 1).Labels();
    rows_changed[0] = a.front();
    rows_changed[1] = b.back();
    ASSERT_LT(rows_changed[0] + 60, rows_changed[1]);
  }
  std::string changes;
  for (uint64_t row : rows_changed) {
    auto p = store->GetPaperSummary(static_cast<int64_t>(row));
    ASSERT_TRUE(p);
    changes += nlohmann::json({{"id", p->ext_id},
                               {"title", "The open access citation advantage of articles"},
                               {"abstract", "Open access articles are cited more often."},
                               {"updated_date", "2099-01-01"}})
                   .dump() +
               "\n";
  }
  WriteFile(tmp.File("changed.jsonl"), changes);
  ASSERT_NO_FATAL_FAILURE(IngestWithKeywords(store, {tmp.File("changed.jsonl")}, true));
  EmbedRunStats again;
  ASSERT_TRUE(RunEmbed(store, compact, &again).ok());
  std::unique_ptr<FieldVectors> titles = field("title");
  EXPECT_EQ(titles->base_index().nodes(), cap);
  ASSERT_EQ(titles->segments(), segments_before + 1);
  const std::vector<uint32_t> added = titles->segment(segments_before).Labels();
  EXPECT_EQ(added, std::vector<uint32_t>({static_cast<uint32_t>(rows_changed[0]),
                                          static_cast<uint32_t>(rows_changed[1])}));
  check("title");
  check("abstract");
}

// A paper stored without an abstract has no abstract vector, and
// embed --missing does not look at it again while its text stays; once an
// ingest gives it an abstract, the next --missing run embeds it (by id, not
// by a scan of every text: the other papers were all looked at).
TEST(EmbedMissingTest, APaperThatGainsAnAbstractIsEmbeddedByTheNextRun) {
  ScopedTempDir tmp;
  auto opened = Store::Open(tmp.File("db"), Store::Mode::kWrite, true);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  Store* store = opened->get();
  const std::string bare = nlohmann::json({{"id", "W9000000001"},
                                           {"title", "Bus route timetables"},
                                           {"updated_date", "2020-01-01"}})
                               .dump();
  WriteFile(tmp.File("bare.jsonl"), bare + "\n");
  ASSERT_NO_FATAL_FAILURE(IngestWithKeywords(
      store, {testing::TestData("snowball.works.jsonl"), tmp.File("bare.jsonl")}, false));
  EmbedRunOptions eo;
  eo.lsa.dim = 16;
  eo.hnsw.threads = 1;
  EmbedRunStats es;
  ASSERT_TRUE(RunEmbed(store, eo, &es).ok());
  auto id = store->PaperByExtId("W9000000001");
  ASSERT_TRUE(id);
  auto abstract_of = [&] {
    auto sem = SemanticIndex::Open(store);
    EXPECT_TRUE(sem.ok());
    return sem.ok() && (*sem)->vectors(VecField::kAbstract).Row(static_cast<uint64_t>(*id));
  };
  EXPECT_FALSE(abstract_of());
  EmbedRunOptions missing = eo;
  missing.missing = true;
  EmbedRunStats nothing;
  ASSERT_TRUE(RunEmbed(store, missing, &nothing).ok());
  EXPECT_EQ(nothing.titles + nothing.abstracts + nothing.keywords, 0);
  const std::string filled =
      nlohmann::json({{"id", "W9000000001"},
                      {"title", "Bus route timetables"},
                      {"abstract",
                       "Citations and altmetrics of open access publications: a bibliometric "
                       "study of their impact."},
                      {"updated_date", "2021-01-01"}})
          .dump();
  WriteFile(tmp.File("filled.jsonl"), filled + "\n");
  ASSERT_NO_FATAL_FAILURE(IngestWithKeywords(store, {tmp.File("filled.jsonl")}, true));
  EmbedRunStats ms;
  ASSERT_TRUE(RunEmbed(store, missing, &ms).ok());
  EXPECT_EQ(ms.abstracts, 1);
  EXPECT_EQ(ms.titles, 1) << "its text changed: both fields again";
  EXPECT_TRUE(abstract_of());
}

// embed --no-index (shard stores): vector files and no HNSW file, searches
// that scan every row; a later --missing --compact run indexes them without
// changing the vector files.
TEST(EmbedNoIndexTest, VectorsWithoutIndexesAreScannedUntilACompactionIndexesThem) {
  ScopedTempDir tmp;
  auto opened = Store::Open(tmp.File("db"), Store::Mode::kWrite, true);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  Store* store = opened->get();
  ASSERT_NO_FATAL_FAILURE(IngestWithKeywords(
      store, {testing::TestData("search-biodiversity-finance.works.jsonl")}, false));
  EmbedRunOptions eo;
  eo.lsa.dim = 16;
  eo.hnsw.threads = 1;
  eo.index = false;
  EmbedRunStats es;
  ASSERT_TRUE(RunEmbed(store, eo, &es).ok());
  EXPECT_EQ(es.index_seconds, 0);
  const auto unindexed = VectorPayloads(store);
  {
    auto view = store->Current("vectors");
    ASSERT_TRUE(view.ok() && *view);
    for (const char* f : {"title.vec", "abstract.vec", "keyword.vec"})
      EXPECT_TRUE((*view)->Has(f)) << f;
    for (const auto& [name, size] : (*view)->files())
      EXPECT_EQ(name.find("hnsw"), std::string::npos) << name;
  }
  {
    auto sem = SemanticIndex::Open(store);
    ASSERT_TRUE(sem.ok()) << sem.status().message();
    const FieldVectors& v = (*sem)->vectors(VecField::kAbstract);
    EXPECT_FALSE(v.has_index());
    int searched = 0;
    for (uint64_t r = 0; r < v.rows(); ++r) {
      const float* q = v.Row(r);
      if (!q) continue;
      auto hits = v.Search(q, 5, 10);
      auto exact = v.Exact(q, 5);
      ASSERT_EQ(hits.size(), exact.size());
      for (size_t i = 0; i < hits.size(); ++i) EXPECT_EQ(hits[i].id, exact[i].id) << r;
      ++searched;
    }
    EXPECT_GT(searched, 50);
    EXPECT_TRUE((*sem)->status().ok());
  }
  EmbedRunOptions compact = eo;
  compact.index = true;
  compact.missing = true;
  compact.compact = true;
  EmbedRunStats cs;
  ASSERT_TRUE(RunEmbed(store, compact, &cs).ok());
  EXPECT_TRUE(cs.compacted);
  {
    auto view = store->Current("vectors");
    ASSERT_TRUE(view.ok() && *view);
    for (const char* f : {"title.hnsw", "abstract.hnsw", "keyword.hnsw"})
      EXPECT_TRUE((*view)->Has(f)) << f;
  }
  const auto indexed = VectorPayloads(store);
  for (const char* f : {"title.vec", "abstract.vec", "keyword.vec"})
    EXPECT_TRUE(indexed.at(f) == unindexed.at(f)) << f << " changed";
  auto sem = SemanticIndex::Open(store);
  ASSERT_TRUE(sem.ok());
  EXPECT_TRUE((*sem)->vectors(VecField::kAbstract).has_index());
}

}  // namespace
}  // namespace litgraph
