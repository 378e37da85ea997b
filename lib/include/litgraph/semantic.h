// The semantic layer of a store: an embedding model, title / abstract /
// keyword vectors and their HNSW indexes, in DIR/vectors.<N>/
// (doc/store-format.md), with meta.vectors_info naming the model.
//
// Writing (litgraph-embed): RunEmbed trains the built-in model when asked or
// when there is none, embeds what is missing (or everything), and builds or
// extends the indexes, as a new generation committed atomically. With
// `missing`, the rows embedded (or dropped) since the base go into a delta
// beside the base's files, linked unchanged (vectors.h, FieldVectors): the
// work is in proportion to the delta. Past `delta_fraction` of the base's
// rows, or with `compact`, the delta is folded into a new base. Vectors of
// two models never mix: a different model than the stored one is refused
// unless `replace` re-embeds everything.
//
// Reading: SemanticIndex opens the current generation (memory-mapped, O(1))
// and embeds queries with the same model.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "litgraph/embed.h"
#include "litgraph/report.h"
#include "litgraph/status.h"
#include "litgraph/vectors.h"

namespace litgraph {

class GenerationView;
class Store;

enum class VecField { kTitle, kAbstract, kKeyword };
const char* VecFieldName(VecField f);  // "title", "abstract", "keyword"

struct EmbedRunOptions {
  bool train = false;    // (re)train the built-in model and re-embed everything
  bool missing = false;  // only rows without vectors (new papers / keywords)
  bool replace = false;  // allow switching models (re-embeds everything)
  bool compact = false;  // fold the delta into the base (with missing)
  // With missing: compact, and insert the rows of a merge's segments
  // (vectors.h) into the base index, leaving one index per field.
  bool fold_segments = false;
  double delta_fraction = 0.2;  // the delta's rows past which a run compacts
  // Deltas of fewer rows are scanned by queries, not indexed (tests lower it).
  uint64_t delta_index_min_rows = FieldVectors::kDeltaIndexMinRows;
  // Keyword vectors (tri-search's vector match of keywords, eq. 2) only for
  // keywords of at least this many papers (a keyword of one paper brings
  // that paper alone; bench/results/2026-12-05-keyword-vectors); 1: every
  // keyword.
  uint32_t keyword_min_papers = 2;
  std::string backend = "builtin";  // builtin | http
  // The built-in model of another store (its current vectors generation),
  // copied instead of trained: shards of one corpus embedded by one model
  // (litgraph-merge). A store with vectors of another model needs replace.
  std::string model_from;
  LsaTrainOptions lsa;
  HttpEmbedOptions http;
  HnswBuildOptions hnsw;
  Reporter* reporter = NullReporter();
  int threads = 2;
  // Build HNSW indexes over the vectors written. Without (--no-index),
  // semantic queries scan the rows: for shard stores, whose indexes litgraph
  // merge does not use (it indexes the merged store).
  bool index = true;
  // Memory for the texts being embedded (a sixteenth of it per chunk) and
  // the HNSW index being built: an index built afresh whose nodes would not
  // fit is built in segments of at most HnswNodesWithin(memory_budget) nodes
  // (vectors.h), one at a time, each searched beside the base.
  size_t memory_budget = size_t{2} << 30;
};

// The graphs a field's index is cut into at most by the memory budget (a
// smaller budget is raised): each one costs every vector query a search.
constexpr uint64_t kMaxBudgetGraphs = 16;
// The graphs a field may have for a compaction to index its delta in a
// segment of its own (vectors.h); past them the delta goes into the base
// index. At 1M papers a graph adds ~0.35 ms to a title search at ef 120.
constexpr uint64_t kMaxDeltaSegmentGraphs = 8;

struct EmbedRunStats {
  std::string model_id;
  int dim = 0;
  double lexical_weight = 0;  // the built-in model's (embed.h)
  bool trained = false;
  LsaTrainStats train;
  int64_t titles = 0, abstracts = 0, keywords = 0;  // vectors computed in this run
  int64_t changed = 0;         // papers embedded again: their text changed (--missing)
  int64_t delta_rows = 0;      // rows in the fields' deltas after the run (0: compacted or full)
  bool compacted = false;      // a --missing run folded its delta into a new base
  int64_t index_segments = 0;  // segments written by indexes built within the budget
  double embed_seconds = 0, index_seconds = 0, seconds = 0;
  // Vocabulary drift (built-in model, --missing runs): the share of the
  // words of newly embedded abstracts (and, for reference, of abstracts
  // embedded before) that the model does not know; -1 when not measured.
  double unknown_words_new = -1, unknown_words_old = -1;
  // Papers grew by half since training, or new text has 10 points more
  // unknown words than the old: the model no longer describes the corpus.
  bool retrain_due = false;
  std::string retrain_reason;
};

Status RunEmbed(Store* store, const EmbedRunOptions& options, EmbedRunStats* stats);

// A query embedded by the store's model: the dense vector the indexes
// search, and the built-in model's lexical part (embed.h).
struct QueryVector {
  std::string text;
  std::vector<float> dense;  // empty: the text has no term the model knows
  SparseVector sparse;       // the lexical part, unknown words included (embed.h)
  bool empty() const { return dense.empty() && sparse.empty(); }
};

class SemanticIndex {
 public:
  // NotFound when the store has no vectors (run litgraph-embed). For an HTTP
  // model, `http_key` is the API key (from the environment).
  static Result<std::unique_ptr<SemanticIndex>> Open(Store* store,
                                                     const std::string& http_key = "");

  Embedder& embedder() { return *embedder_; }
  int dim() const { return embedder_->dim(); }
  const std::string& model_id() const { return model_id_; }
  // Lazily opened vectors and index of a field (empty when they fail to
  // open: see status()).
  const FieldVectors& vectors(VecField f);
  // The first error the model's or a field's files showed (at open or on a
  // damaged read), ok when none.
  Status status() const;
  // Dense top-k of the field's index (cosine).
  std::vector<VectorHit> Search(VecField f, const float* query, size_t k, size_t ef);
  // Embeds one text; an empty vector when the text has no term the model
  // knows (the built-in model's zero vector: no semantic evidence, rather than
  // every paper at cosine 0).
  Result<std::vector<float>> EmbedText(const std::string& text);

  // The model's similarity, lexical part included (embed.h). 0 = dense only
  // (HTTP models, built-in models trained before the lexical part).
  double lexical_weight() const { return lexical_weight_; }
  Result<QueryVector> EmbedQuery(const std::string& text);
  // Query by example: stored papers as one query, without calling the
  // model (a store with an HTTP model needs no network). Each paper's title
  // and abstract rows are blended by eq. 4's weights (0.4, 0.6; the row
  // present alone when the other is missing), the blends of all papers
  // summed and renormalized to a unit vector. The lexical part (built-in
  // model) is that of `text`, the papers' titles and abstracts. Empty when
  // no paper has a vector and the text has no lexical part.
  QueryVector PaperQuery(const std::vector<uint64_t>& papers, const std::string& text);
  // Similarity of a query with node `id` in field f: (1 - w) cosine of the
  // dense vectors + w cosine of the TF-IDF vectors of the query and of the
  // node's stored text (title, abstract or keyword). False when the node has
  // no vector in the field.
  bool Score(const QueryVector& q, VecField f, uint64_t id, double* score);
  // Top-k of a field by Score: the dense index's top `depth` (>= k) and the
  // `extra` candidates (for the lexical part, the lexical index's best
  // matches), rescored. Score order, then id.
  std::vector<VectorHit> Search(VecField f, const QueryVector& q, size_t k, size_t depth, size_t ef,
                                const std::vector<uint32_t>& extra = {});

 private:
  SemanticIndex() = default;
  const SparseVector& StoredSparse(VecField f, uint64_t id);
  struct Field {
    bool opened = false;
    bool ok = false;  // opened without error; else the field answers nothing
    FieldVectors vec;
  };
  Field& Get(VecField f);
  const GenerationView* view_ = nullptr;  // owned by the store
  std::string model_id_;
  std::unique_ptr<Embedder> embedder_;
  const LsaModel* lsa_ = nullptr;  // the built-in model, when it is the store's
  double lexical_weight_ = 0;
  Store* store_ = nullptr;
  std::unordered_map<uint64_t, SparseVector> sparse_cache_[3];  // stored texts' lexical parts
  LsaModel::WordCache sparse_words_;                            // their words' terms
  Field fields_[3];
  Status status_;
};

}  // namespace litgraph
