// Text embedding models: the built-in corpus-trained model and the HTTP
// backend, behind one interface.
//
// Built-in model ("lsa"): latent semantic analysis trained on the store's own
// titles and abstracts (no download). Documents become TF-IDF vectors over
// the corpus vocabulary (the lexical analysis of lexical.h: folded words,
// stopwords dropped, Snowball stems; sublinear tf 1 + ln tf, smoothed idf,
// rows L2-normalized); a randomized truncated SVD (Halko, Martinsson & Tropp
// 2011: Gaussian sketch, two power iterations, Cholesky-QR) gives the top
// `dim` right singular vectors V. A text embeds as normalize(tfidf(text) V).
// Chosen over alternatives by retrieval quality on the CSFCube development
// fold (bench/results, doc/embeddings.md).
//
// Model file (vectors.<N>/model, memory-mapped, O(1) open):
//   header 64 bytes: magic "LGLSA\0\0\1", u32 dim, u32 terms, u64 train docs,
//     u64 string bytes, f64 reserved...
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
#include <string>
#include <string_view>
#include <vector>

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
  size_t max_docs = 200000;   // training sample (evenly spaced over paper ids)
  size_t max_terms = 100000;  // vocabulary: most frequent terms with df >= 2
  int power_iterations = 2;
  int oversample = 32;
  int threads = 2;
  uint64_t seed = 1;
};

struct LsaTrainStats {
  size_t docs = 0, terms = 0, nonzeros = 0;
  double seconds = 0;
};

// Trains on the store's papers and writes the model file to `path`.
Status TrainLsa(Store* store, const LsaTrainOptions& options, const std::string& path,
                LsaTrainStats* stats);
// Trains on given texts (tests, evaluation).
Status TrainLsaOnTexts(const std::vector<std::string>& texts, const LsaTrainOptions& options,
                       const std::string& path, LsaTrainStats* stats);

class LsaModel : public Embedder {
 public:
  Status Open(const std::string& path);
  int dim() const override { return dim_; }
  std::string model_id() const override { return id_; }
  Status Embed(const std::vector<std::string>& texts, std::vector<float>* out) override;
  // Embeds one text into out[0..dim); returns false when no term is known.
  bool EmbedOne(std::string_view text, float* out) const;
  uint64_t train_docs() const { return train_docs_; }
  uint32_t terms() const { return terms_; }

 private:
  int64_t Find(std::string_view term) const;
  MappedFile file_;
  int dim_ = 0;
  uint32_t terms_ = 0;
  uint64_t train_docs_ = 0;
  const uint64_t* offsets_ = nullptr;
  const float* idf_ = nullptr;
  const float* vectors_ = nullptr;
  const char* strings_ = nullptr;
  std::string id_;
};

struct HttpEmbedOptions {
  std::string url;    // base URL or full /v1/embeddings endpoint
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
float Dot(const float* a, const float* b, int dim);

}  // namespace litgraph
