// Finding papers: by id, DOI, title (exact, then fuzzy), author, or free text
// (BM25), with year / venue / type filters. The engine behind
// litgraph-find-paper, and the resolver every tool uses for paper arguments.
//
// Matching rules:
//  - id: the store's external id ("W2741809807", a native id) or an OpenAlex
//    URL; doi: bare, https://doi.org/ URL or doi: prefix.
//  - title: exact match of the normalized form (letters only, lowercase) with
//    score 1; otherwise fuzzy candidates (BM25 over titles alone) scored with
//    seeds/000 eq. 5 (0.65 LCS ratio + 0.35 token Jaccard, text.h) and kept
//    when >= 0.88.
//  - author: all name tokens must match an author's name (diacritics folded);
//    an exact full-name match scores 1, a token match 0.9. Papers are ordered
//    by score, then citations, then year (newest first).
//  - text: BM25 over title + abstract (lexical.h). With --author too, the
//    author's papers are ranked by the text's BM25.
// Filters: after/before are inclusive publication years; venue matches a
// source whose normalized name contains the given words, or its id / ISSN-L;
// type is the OpenAlex work type.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/lexical.h"
#include "litgraph/output.h"
#include "litgraph/semantic.h"
#include "litgraph/store.h"

namespace litgraph {

struct FindQuery {
  std::string id, doi, title, author, text;
  // How free text is matched: "lexical" (BM25), "semantic" (title and
  // abstract vectors, seeds/000 eq. 4) or "hybrid" (both, fused).
  std::string text_mode = "lexical";
  // Hybrid fusion: "rrf" (reciprocal rank fusion, k = 60) or "linear"
  // (0.5 x min-max BM25 + 0.5 x min-max cosine over the fused pool).
  std::string fusion = "rrf";
  // When non-empty: rank exactly these papers (dense ids), scoring each.
  std::vector<int64_t> candidates;
  int after = 0, before = 0;  // inclusive years, 0 = open
  std::string venue, type;
  size_t limit = 20;
  double title_threshold = 0.88;
  size_t lexical_budget = 400000;  // postings visited per text query (lexical.h)
};

struct FindHit {
  int64_t paper = 0;
  double score = 0;
  std::string match;  // "id", "doi", "title_exact", "title_fuzzy", "author", "text"
};

// Opens the derived indexes of the store's current generation lazily; works
// (more slowly, through FTS5) when the store has no graph generation yet.
class PaperFinder {
 public:
  explicit PaperFinder(Store* store);
  ~PaperFinder();

  // Hits in rank order (score, then id). Usage error when the query is empty.
  Result<std::vector<FindHit>> Find(const FindQuery& q);

  // Title path: exact hits (score 1) or fuzzy hits >= threshold, best first.
  std::vector<FindHit> MatchTitle(const std::string& title, size_t limit, double threshold);

  // Resolves a paper argument (id, DOI or title). Ambiguous titles return
  // Usage listing the candidates; nothing found returns NotFound.
  Result<int64_t> Resolve(const std::string& text);

  // The semantic layer; nullptr when the store has no vectors.
  SemanticIndex* semantic();
  // The model's similarity (semantic.h) of the query with a paper's title
  // and abstract, combined by seeds/000 eq. 4/7:
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

  Graph* graph();                // nullptr when the store has no graph
  const LexicalIndex* lexical();  // title + abstract index; nullptr when absent
  const LexicalIndex* title_lexical();  // titles-only index; nullptr when absent

 private:
  std::vector<FindHit> TextSearch(const std::string& text, size_t k, size_t budget,
                                  const std::function<bool(uint32_t)>& accept);
  std::vector<int64_t> AuthorIds(const std::string& name, bool* exact);
  struct Filter;

  Store* store_;
  std::vector<FindHit> TextHits(const FindQuery& q, const std::function<bool(uint32_t)>& accept);
  bool graph_tried_ = false, lexical_tried_ = false, title_tried_ = false, semantic_tried_ = false;
  std::unique_ptr<SemanticIndex> semantic_;
  std::unique_ptr<Graph> graph_;
  std::unique_ptr<LexicalIndex> lexical_, title_lexical_;
};

// Reads paper ids from a file ("-" = stdin): one id / DOI per line, or JSON
// lines with an "id" field. Ids not in the store are reported through
// *missing (may be null) and skipped; BadInput for a malformed line.
Result<std::vector<int64_t>> ReadPaperIdList(Store* store, const std::string& path,
                                             std::vector<std::string>* missing);

// The common JSON fields of a paper record (litgraph-json(7)): id, type,
// title, year, venue, authors, cited_by_count, citation_source, doi.
Json PaperJson(const PaperSummary& p, Graph* graph);

// A record for any node: PaperJson for papers; {id, type, name} plus
// type-specific counts for the others (keywords: text, paper_count).
Json NodeJson(Store* store, Graph* graph, NodeType type, int64_t id);

// Table columns for paper results.
std::vector<Column> PaperColumns();

}  // namespace litgraph
