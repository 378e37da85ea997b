// Text embedding models: the built-in corpus-trained model and the HTTP
// backend, behind one interface.
//
// Built-in model ("lsa"): latent semantic analysis trained on the store's own
// titles and abstracts (no download). Documents become TF-IDF vectors over
// the corpus vocabulary (the lexical analysis of lexical.h: folded words,
// stopwords dropped, Snowball stems; sublinear tf 1 + ln tf, smoothed idf,
// rows L2-normalized); a randomized truncated SVD (Halko, Martinsson & Tropp
// 2011: Gaussian sketch, two power iterations, Cholesky-QR) gives the top
// `dim` right singular vectors V. A text's dense part is
// normalize(tfidf(text) V).
//
// The model also has a lexical part: the text's unit TF-IDF vector itself,
// sparse over the vocabulary. A text embeds as the concatenation
// [sqrt(1 - w) dense ; sqrt(w) sparse], so the similarity of two texts is
//   (1 - w) dense . dense' + w tfidf . tfidf'
// with w the model's lexical weight. Why: 128 latent dimensions keep the
// topic of a text but lose its rare words, which decide short queries (a
// title matched the most frequent head word, "parser", and missed "partial
// parser"; bench/results/2026-11-22-hybrid/summary.md). The dense part is
// what the HNSW indexes hold; the lexical part is computed from the stored
// text when a candidate is scored (semantic.h), and the lexical index
// supplies candidates the dense search misses. The weight (0.8) and the
// dimension were chosen on development data: the CSFCube development fold and
// an ACL Anthology split disjoint from the evaluation's (same summary).
//
// Model file (vectors.<N>/model, a checked file, memory-mapped, O(1) open):
//   header 64 bytes: magic "LGLSA\0\0\1", u32 dim, u32 terms, u64 train docs,
//     u64 string bytes, f64 lexical weight w (0 in files written before it
//     existed: dense only), f64 reserved...
//   u64[terms + 1] string offsets (terms sorted bytewise), f32[terms] idf,
//   f32[terms][dim] term vectors, term strings.
//
// HTTP backend ("http:<model>"): an OpenAI-compatible POST /v1/embeddings
// (llama.cpp server, Ollama, vLLM, text-embeddings-inference, OpenAI),
// batched, with retries and timeouts; the key from LITGRAPH_EMBED_API_KEY or
// OPENAI_API_KEY. Vectors are L2-normalized on receipt.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "litgraph/checked_file.h"
#include "litgraph/files.h"
#include "litgraph/http.h"
#include "litgraph/status.h"

namespace litgraph {

class Store;

class Embedder {
 public:
  virtual ~Embedder() = default;
  virtual int dim() const = 0;
  // The model's identity, recorded with the vectors it made ("lsa:<hash>" or
  // "http:<model>"); vectors of different models are never mixed.
  virtual std::string model_id() const = 0;
  // Unit-length vectors (all zeros for text with no known term), one per text.
  virtual Status Embed(const std::vector<std::string>& texts, std::vector<float>* out) = 0;
};

struct LsaTrainOptions {
  int dim = 128;
  double lexical_weight = 0.8;  // w of the lexical part, recorded in the model
  size_t max_docs = 200000;     // training sample (evenly spaced over paper ids)
  size_t max_terms = 100000;    // vocabulary: most frequent terms with df >= 2
  // Distinct terms counted at once while reading the sample; past it the
  // rarest so far are dropped (~70 bytes a term, twice: words and stems).
  size_t max_tracked_terms = size_t{1} << 21;
  int power_iterations = 2;
  int oversample = 32;
  int threads = 2;
  uint64_t seed = 1;
};

struct LsaTrainStats {
  size_t docs = 0, terms = 0, nonzeros = 0;
  size_t dropped_terms = 0;  // rare terms dropped to stay within max_tracked_terms
  double seconds = 0;
};

// Trains on the store's papers and writes the model file to `path` with
// identity `id` (checked_file.h).
Status TrainLsa(Store* store, const LsaTrainOptions& options, const std::string& path,
                const FileIdentity& id, LsaTrainStats* stats);
// Trains on given texts (tests, evaluation).
Status TrainLsaOnTexts(const std::vector<std::string>& texts, const LsaTrainOptions& options,
                       const std::string& path, LsaTrainStats* stats, const FileIdentity& id = {});

// A sparse vector: ascending term ids and their weights.
struct SparseVector {
  std::vector<uint32_t> terms;
  std::vector<float> weights;
  bool empty() const { return terms.empty(); }
};
float SparseDot(const SparseVector& a, const SparseVector& b);

class LsaModel : public Embedder {
 public:
  Status Open(const std::string& path, const FileIdentity& id = {});
  // The first damage a read met (a damaged model embeds texts as empty);
  // ok when none.
  Status status() const { return file_.status(); }
  // The weight w of the lexical part (see above); 0 = dense only.
  double lexical_weight() const { return lexical_weight_; }
  // The lexical part: the unit TF-IDF vector of a text over the model's
  // vocabulary (sublinear tf, the model's idf) and the words it has not seen
  // (ids above the vocabulary, hashed; the idf of a word in one training
  // document), so a text of new words still matches texts that use them.
  // Two unknown words of one hash count as one (a 2^-31 chance a pair).
  // With a cache (WordCache below), the same vector, sooner: for scoring
  // many stored texts.
  SparseVector EmbedSparse(std::string_view text) const { return EmbedSparse(text, nullptr); }
  int dim() const override { return dim_; }
  // "lsa:" and a hash of the file's first MiB (its header and the start of
  // its tables), computed at the first call: a query never asks, and hashing
  // the MiB at open verified its 2,048 pages in every query process. A
  // damaged MiB latches in status().
  std::string model_id() const override;
  Status Embed(const std::vector<std::string>& texts, std::vector<float>* out) override;
  // Each distinct word's term, for embedding many texts on one thread: a
  // word is stemmed and looked up in the vocabulary once, not at each use.
  class WordCache {
   public:
    size_t size() const { return terms_.size(); }

   private:
    friend class LsaModel;
    struct Hash {
      using is_transparent = void;
      size_t operator()(std::string_view w) const { return std::hash<std::string_view>()(w); }
    };
    // word -> term id (below terms()); for a word the model does not know,
    // its hashed id (UnknownTermId, terms() or above); -2: not a term (a
    // stopword or a one-letter word).
    std::unordered_map<std::string, int64_t, Hash, std::equal_to<>> terms_;
    std::vector<uint32_t> ids_;  // scratch
  };
  // Embeds one text into out[0..dim); returns false when no term is known.
  // With a cache, the same vector, sooner.
  bool EmbedOne(std::string_view text, float* out, WordCache* cache = nullptr) const;
  SparseVector EmbedSparse(std::string_view text, WordCache* cache) const;
  uint64_t train_docs() const { return train_docs_; }
  uint32_t terms() const { return terms_; }
  // A term's id in the vocabulary (an analyzed term, lexical.h); -1 when the
  // model does not know it.
  int64_t Find(std::string_view term) const;

 private:
  float Idf(uint32_t term) const;
  const float* TermVector(uint32_t term) const;  // null when damaged
  // (term id, sublinear tf x idf) of the text's known terms, ascending ids;
  // with `unknown`, the unknown ones too (UnknownTermId: above the known).
  std::vector<std::pair<uint32_t, float>> TermWeights(std::string_view text, WordCache* cache,
                                                      bool unknown) const;
  uint32_t UnknownTermId(std::string_view term) const;
  // A word's entry in the cache (WordCache::terms_), looked up and added.
  int64_t CachedTerm(std::string_view word, WordCache* cache) const;
  CheckedFile file_;
  int dim_ = 0;
  uint32_t terms_ = 0;
  uint64_t train_docs_ = 0;
  double lexical_weight_ = 0;
  uint64_t offsets_at_ = 0, idf_at_ = 0, vectors_at_ = 0, strings_at_ = 0;
  mutable std::once_flag id_once_;
  mutable std::string id_;
};

struct HttpEmbedOptions {
  std::string url;  // base URL or full /v1/embeddings endpoint
  std::string model;
  size_t batch = 64;  // texts per request
  HttpOptions http;
};

// The HTTP backend; dim is learned from the first answer (Probe()).
class HttpEmbedder : public Embedder {
 public:
  explicit HttpEmbedder(HttpEmbedOptions options);
  int dim() const override { return dim_; }
  std::string model_id() const override { return "http:" + o_.model; }
  Status Embed(const std::vector<std::string>& texts, std::vector<float>* out) override;
  // Embeds a probe text to learn the dimension.
  Status Probe();

 private:
  HttpEmbedOptions o_;
  HttpClient client_;
  int dim_ = 0;
};

// Normalizes v[0..dim) to unit length; returns false for a zero vector.
bool Normalize(float* v, int dim);
// The inner product of two rows: AVX2 with FMA where the CPU has them (the
// last bits of a sum then differ from the portable loop's).
float Dot(const float* a, const float* b, int dim);
using DotFn = float (*)(const float*, const float*, int);
DotFn DotFunction();  // the kernel Dot calls, for callers that keep a pointer

}  // namespace litgraph
