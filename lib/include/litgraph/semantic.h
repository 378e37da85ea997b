// The semantic layer of a store: an embedding model, title / abstract /
// keyword vectors and their HNSW indexes, in DIR/vectors.<N>/
// (doc/store-format.md), with meta.vectors_info naming the model.
//
// Writing (litgraph-embed): RunEmbed trains the built-in model when asked or
// when there is none, embeds what is missing (or everything), and builds or
// extends the indexes, as a new generation committed atomically. Vectors of
// two models never mix: a different model than the stored one is refused
// unless `replace` re-embeds everything.
//
// Reading: SemanticIndex opens the current generation (memory-mapped, O(1))
// and embeds queries with the same model.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "litgraph/embed.h"
#include "litgraph/status.h"
#include "litgraph/vectors.h"

namespace litgraph {

class Store;

enum class VecField { kTitle, kAbstract, kKeyword };
const char* VecFieldName(VecField f);  // "title", "abstract", "keyword"

struct EmbedRunOptions {
  bool train = false;    // (re)train the built-in model and re-embed everything
  bool missing = false;  // only rows without vectors (new papers / keywords)
  bool replace = false;  // allow switching models (re-embeds everything)
  std::string backend = "builtin";  // builtin | http
  LsaTrainOptions lsa;
  HttpEmbedOptions http;
  HnswBuildOptions hnsw;
  bool progress = false;
  int threads = 2;
};

struct EmbedRunStats {
  std::string model_id;
  int dim = 0;
  bool trained = false;
  LsaTrainStats train;
  int64_t titles = 0, abstracts = 0, keywords = 0;  // vectors computed in this run
  double embed_seconds = 0, index_seconds = 0, seconds = 0;
  bool retrain_due = false;
};

Status RunEmbed(Store* store, const EmbedRunOptions& options, EmbedRunStats* stats,
                const std::function<void(const std::string&)>& note = {});

class SemanticIndex {
 public:
  // NotFound when the store has no vectors (run litgraph-embed). For an HTTP
  // model, `http_key` is the API key (from the environment).
  static Result<std::unique_ptr<SemanticIndex>> Open(Store* store,
                                                     const std::string& http_key = "");

  Embedder& embedder() { return *embedder_; }
  int dim() const { return embedder_->dim(); }
  const std::string& model_id() const { return model_id_; }
  // Lazily opened vectors and index of a field.
  const VectorFile& vectors(VecField f);
  std::vector<VectorHit> Search(VecField f, const float* query, size_t k, size_t ef);
  // Embeds one text; an empty vector when the text has no term the model
  // knows (the built-in model's zero vector: no semantic evidence, rather than
  // every paper at cosine 0).
  Result<std::vector<float>> EmbedText(const std::string& text);

 private:
  SemanticIndex() = default;
  struct Field {
    bool opened = false;
    VectorFile vec;
    HnswIndex hnsw;
    bool has_index = false;
  };
  Field& Get(VecField f);
  std::string dir_, model_id_;
  std::unique_ptr<Embedder> embedder_;
  Field fields_[3];
};

}  // namespace litgraph
