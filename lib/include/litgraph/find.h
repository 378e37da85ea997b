// Finding papers: by id, DOI, title (exact, then fuzzy), author, or free text
// (BM25), with year / venue / type filters. The engine behind
// litgraph-find-paper, and the resolver every tool uses for paper arguments.
//
// Matching rules:
//  - id: the store's external id ("W2741809807", a native id) or an OpenAlex
//    URL; doi: bare, https://doi.org/ URL or doi: prefix.
//  - title: exact match of the normalized form (letters only, lowercase) with
//    score 1; otherwise fuzzy candidates (BM25 over titles alone) scored with
//    SciAtlas' eq. 5 (0.65 LCS ratio + 0.35 token Jaccard, text.h) and kept
//    when >= 0.88.
//  - author: all name tokens must match an author's name (diacritics folded);
//    an exact full-name match scores 1, a token match 0.9. Papers are ordered
//    by score, then citations, then year (newest first).
//  - text: BM25 over title + abstract (lexical.h). With --author too, the
//    author's papers are ranked by the text's BM25.
//  - like (query by example): stored papers are the query. BM25 with the
//    examples' title + abstract, cut to their like_terms most informative
//    terms (SelectQueryTerms); semantic with their stored vectors
//    (SemanticIndex::PaperQuery, no model call); hybrid fuses the two as for
//    text. The examples themselves are never returned.
// Filters: after/before are inclusive publication years; venue matches a
// source whose normalized name contains the given words, or its id / ISSN-L;
// type is the OpenAlex work type.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/lexical.h"
#include "litgraph/semantic.h"
#include "litgraph/store.h"

namespace litgraph {

// How free text is matched: BM25, the title and abstract vectors (SciAtlas
// eq. 4), or both fused.
enum class TextMatch : uint8_t { kLexical, kSemantic, kHybrid };
// Hybrid fusion: reciprocal rank fusion (k = 60), or 0.5 x min-max BM25 +
// 0.5 x min-max cosine over the fused pool.
enum class Fusion : uint8_t { kRrf, kLinear };

struct FindQuery {
  std::string id, doi, title, author, text;
  TextMatch text_match = TextMatch::kLexical;
  Fusion fusion = Fusion::kRrf;
  // When non-empty: rank exactly these papers (dense ids), scoring each.
  std::vector<int64_t> candidates;
  int after = 0, before = 0;  // inclusive years, 0 = open
  std::string venue, type;
  // A filter of the caller's (metric conditions, metric_select.h): papers
  // for which it returns false are never hits. Null: none.
  std::function<bool(int64_t)> accept;
  size_t limit = 20;
  double title_threshold = 0.88;
  size_t lexical_budget = 400000;  // postings visited per text query (lexical.h)
  // Query by example: stored papers (dense ids). Ranked by text_match and
  // fusion like free text; excludes them from the hits. Not combined with
  // text, id, doi, title or author (InvalidArgument).
  std::vector<int64_t> like;
  size_t like_terms = kDefaultLikeTerms;  // BM25 terms of the examples kept (0 = all)
  static constexpr size_t kDefaultLikeTerms = 0;
};

// What matched a hit.
enum class MatchKind : uint8_t {
  kId,
  kDoi,
  kTitleExact,
  kTitleFuzzy,
  kTitle,
  kAuthor,
  kAuthorText,
  kText,
  kSemantic,
  kHybrid,
  kLikeText,
  kLikeSemantic,
  kLikeHybrid,
};
// Its name in records: "id", "doi", "title_exact", "title_fuzzy", "title",
// "author", "author+text", "text", "semantic", "hybrid", "like_text",
// "like_semantic", "like_hybrid".
const char* MatchName(MatchKind m);

struct FindHit {
  int64_t paper = 0;
  double score = 0;
  MatchKind match = MatchKind::kText;
};

// Long-query term selection (query by example): the `max_terms` terms of
// highest query weight x IDF, in their original order, dropping terms no
// other paper has (document frequency <= `own_docs`, the examples' own).
// max_terms 0 keeps every term that passes the frequency test.
std::vector<QueryTerm> SelectQueryTerms(const LexicalIndex& index, std::vector<QueryTerm> terms,
                                        size_t max_terms, uint32_t own_docs = 1);

// The example papers of --like: each argument one or more ids, DOIs or exact
// titles separated by commas, or "-" for ids on standard input (one a line or
// JSON lines with "id", jsonl.h). Duplicates are dropped, order kept.
// NotFound naming the first argument that is not in the store;
// InvalidArgument when nothing is given; MalformedInput / IoError from
// standard input.
Result<std::vector<int64_t>> ResolveExamples(Store* store, const std::vector<std::string>& args);

// Opens the derived indexes of the store's current generation lazily; works
// (more slowly, through FTS5) when the store has no graph generation yet. A
// layer that fails to open, or shows damage while read, reads as absent and
// latches the error in status(), which callers check before trusting a
// result.
class PaperFinder {
 public:
  explicit PaperFinder(Store* store);
  ~PaperFinder();

  // Hits in rank order (score, then id). InvalidArgument when the query is empty.
  Result<std::vector<FindHit>> Find(const FindQuery& q);

  // Title path: exact hits (score 1) or fuzzy hits >= threshold, best first.
  std::vector<FindHit> MatchTitle(const std::string& title, size_t limit, double threshold);

  // Resolves a paper argument (id, DOI or title). Ambiguous titles return
  // InvalidArgument listing the candidates; nothing found returns NotFound.
  Result<int64_t> Resolve(const std::string& text);

  // The semantic layer; nullptr when the store has no vectors.
  SemanticIndex* semantic();
  // The model's similarity (semantic.h) of the query with a paper's title
  // and abstract, combined by SciAtlas eq. 4/7:
  // (0.4 s_t + 0.6 s_a) / (0.4 [s_t] + 0.6 [s_a]). False when the paper has
  // neither vector.
  bool EmbeddingScore(const QueryVector& query, int64_t paper, double* score,
                      double* title_cos = nullptr, double* abstract_cos = nullptr);
  // Top-k of one field by the model's similarity: the HNSW top-k and, when
  // the model has a lexical part, the lexical index's top-k for the field.
  std::vector<VectorHit> SemanticField(VecField f, const QueryVector& query, size_t k, size_t ef);
  // Semantic top-k: SemanticField top-60 of titles and of abstracts,
  // combined by EmbeddingScore.
  std::vector<FindHit> SemanticSearch(const QueryVector& query, size_t k, size_t per_field = 60);

  // Query by example: the papers' titles and abstracts as one text
  // (title. abstract, a blank line between papers).
  std::string ExampleText(const std::vector<int64_t>& papers);

  Graph* graph();                       // nullptr when the store has no graph
  const LexicalIndex* lexical();        // title + abstract index; nullptr when absent
  const LexicalIndex* title_lexical();  // titles-only index; nullptr when absent
  // The first error any layer showed (ok when none).
  Status status() const;

 private:
  void Latch(const Status& st);
  // BM25 top-k of `terms` (an analysed text); none, and status() says why,
  // when the store has no lexical index.
  std::vector<FindHit> TextSearch(const std::vector<QueryTerm>& terms, size_t k, size_t budget,
                                  const std::function<bool(uint32_t)>& accept);
  std::vector<int64_t> AuthorIds(const std::string& name, bool* exact);
  struct Filter;

  Store* store_;
  std::vector<FindHit> TextHits(const FindQuery& q, const std::function<bool(uint32_t)>& accept);
  bool graph_tried_ = false, lexical_tried_ = false, title_tried_ = false, semantic_tried_ = false;
  Status status_;
  std::unique_ptr<SemanticIndex> semantic_;
  std::unique_ptr<Graph> graph_;
  std::unique_ptr<LexicalIndex> lexical_, title_lexical_;
};

}  // namespace litgraph
