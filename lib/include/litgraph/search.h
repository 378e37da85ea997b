// Tri-path recall and graph rerank (SciAtlas, Qiao et al. 2025, section 3,
// eq. 1-18 and Table 2). Every formula and default of SearchParams is the
// paper's; options name the variants of its published reference code. The
// tools' default ranking is the "adaptive" profile (SearchParams::
// ApplyProfile): final weights by query length, chosen on development data. TriSearch::Run runs the
// stages below in this order, each a function of its own (search.cc).
//
//  1. Keyword path: up to m = 8 keywords of the query (importance / 10) and
//     --keyword entries; exact match of the normalized text (eq. 1) and vector
//     match against keyword vectors, cosine >= 0.7, top 3 per keyword (eq. 2);
//     a keyword node's weight is its best match (eq. 3).
//  2. Semantic path: the query embedded (only a paper's abstract when a whole
//     paper is given), top 60 by title and by abstract vectors, top 15 of each
//     kept (no cross-encoder by default); s_emb by eq. 4.
//  3. Title path: --title entries and titles quoted in the query, each with a
//     confidence; exact normalized match 1.0, else fuzzy eq. 5 >= 0.88; at most
//     5 papers per title; s_title = c x m (eq. 6).
//  4. Merge (eq. 7-9): for every candidate the exact title / abstract cosines
//     combined by eq. 4; MinMax over candidates; s_pre = 0.3 emb + 0.8 title +
//     bonus (0.35 exact title hit, 0.10 fuzzy). At most 30 paper seeds (title
//     hits first) and 30 keyword seeds (reference code).
//  5. Subgraph and seeds (eq. 10-12): 2 hops, Table 2 weights (rwr.h);
//     imp(p) = min(1, ln(1 + c_p) / ln(1 + max(1, C))), C the subgraph's total
//     citations ("log"; "p95": C = the 95th percentile count; "uniform": 1);
//     w_p = s_pre (1 + gamma imp), gamma = 0.5; keyword seeds w_g.
//  6. Random walk with restart (eq. 13-15).
//  7. Final (eq. 16-18): over every paper of the subgraph, imp_final on that
//     pool, gate g = max(0.25, MinMax s_pre), s_final = min(1, 0.35 s_pre~ +
//     0.45 s_graph~ g + 0.20 imp_final); near-duplicate titles (eq. 5 >= 0.80)
//     removed, keeping the better; top 20.
//
// Query by example (SearchQuery::like, stored papers): the paths are fed by
// the examples instead of query text. Keyword path: the examples' stored
// keywords (HAS_KEYWORD, importance / 10) as exact matches, and their
// stored keyword vectors' matches (cosine >= theta_kw, top kw_vector_top);
// extraction from their text only when they have none. Semantic path: their
// stored vectors (SemanticIndex::PaperQuery). Title path: their titles
// (confidence 0.95), for other papers with (nearly) the same title. Merge:
// each example is a candidate scored as an exact title hit with its own
// vectors (so a paper seed with the top s_pre); the like_similar similar
// works (and like_prior prior works) of the examples' literature map
// (literature_map.h with its default measures) join the candidates, their
// score divided by the role's best adding lambda_like x that to s_pre
// (ScoreParts::like); and up to like_neighbours of their references and as
// many of their citations (each most cited first) join the candidates,
// scored by the examples' vectors like the others. Defaults chosen on AAN
// development papers (bench/results/2026-11-26-like). The
// examples are excluded from the results; they stay seeds, so the paths of
// the records start from them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "litgraph/find.h"
#include "litgraph/keyword_store.h"
#include "litgraph/metrics.h"
#include "litgraph/params.h"
#include "litgraph/rwr.h"

namespace litgraph {

// How eq. 10 scales citation counts: by the pool's total (the paper), by its
// 95th percentile (reference code), or not at all (relevance-only tasks);
// or, not in the paper, a paper's citation percentile within its field and
// year / 100 from the store's metrics file (metrics.h; litgraph-metrics
// --build), which compares papers with those of their own field and age
// (InvalidArgument when the store has no current metrics file).
enum class Importance : uint8_t { kLog, kP95, kUniform, kPercentile };

struct SearchParams {
  RwrParams rwr;
  // Keyword path.
  size_t max_query_keywords = 8;
  double theta_kw = 0.7;
  size_t kw_vector_top = 3;
  // Semantic path.
  size_t sem_top = 60, sem_keep = 15;
  size_t hnsw_ef = 300;  // search beam (recall@10 >= 0.95 for short queries at 1M)
  double w_title_vec = 0.4, w_abs_vec = 0.6;
  // Title path.
  double theta_title = 0.88;
  size_t title_top = 5, max_titles = 10;
  // Merge.
  double lambda_emb = 0.3, lambda_title = 0.8, bonus_exact = 0.35, bonus_fuzzy = 0.10;
  double lambda_lex = 0.0;  // BM25 in s_pre (not in the paper; 0 = off)
  size_t lexical_top = 0;   // BM25 top-N added to the candidates (not in the paper; 0 = off)
  size_t max_paper_seeds = 30, max_keyword_seeds = 30;
  // Pseudo-relevance feedback (not in the paper; 0 = off): the prf_docs
  // candidates of the best s_pre are a second query (their stored vectors,
  // SemanticIndex::PaperQuery); each candidate's similarity to it, MinMax
  // over the candidates, adds lambda_prf x that to s_pre.
  size_t prf_docs = 0;
  double lambda_prf = 0;
  // Query by example (not in the paper): the examples' literature map
  // (literature_map.h, its default measures: co-citation and coupling)
  // gives like_similar similar works as candidates, whose similarity
  // (divided by the best) enters s_pre with weight lambda_like; and
  // like_neighbours of the examples' references and of their citations
  // join the candidates (0 = off).
  size_t like_similar = 40;
  size_t like_prior = 0;  // and prior works (cited by most of the map), scored by their own best
  double lambda_like = 0.8;
  size_t like_neighbours = 0;
  // With examples, the final weight of s_pre (which holds the map's
  // similarity) is at least like_lambda_pre, lambda_graph giving up the
  // difference (down to 0); 0 = off. The adaptive profile sets 0.4: its short
  // side leans on the graph, which serves text queries but not the map's
  // evidence.
  double like_lambda_pre = 0;
  // Seeds and final ranking.
  double gamma = 0.5;
  Importance importance = Importance::kLog;
  double lambda_pre = 0.35, lambda_graph = 0.45, lambda_imp = 0.20, gate_floor = 0.25;
  double title_hit_bonus = 0.0;   // reference code: 0.10
  double dedup_threshold = 0.80;  // 0 = keep near-duplicate titles
  size_t limit = 20;
  // Query-adaptive ranking (not in the paper; --ranking-profile adaptive):
  // with short_query set, a query of at most short_words words is ranked with
  // short_query's real-valued parameters, one of at least long_words words
  // with these, and one in between with the two blended linearly in its word
  // count (ForQueryWords): every real-valued parameter, and importance from
  // the nearer side. Counts (limit, seeds, ...) are always these.
  double short_words = 0, long_words = 0;
  std::shared_ptr<const SearchParams> short_query;

  void Register(ParamTable* table);
  // --ranking-profile: adaptive | precision | balanced | discovery | impact.
  // "adaptive" sets short_query to the short-query preset (over default
  // parameters: a caller that applies a config file or flags after the
  // profile applies them to *short_query too, see tools/tri-search.cc).
  Status ApplyProfile(const std::string& profile);
  // The parameters a query of `words` words is ranked with (these without
  // short_query). short_query is null in the result.
  SearchParams ForQueryWords(size_t words) const;
  // 1 for a query ranked with short_query's parameters, 0 with these, in
  // between for a blend; 0 without short_query.
  double ShortQueryWeight(size_t words) const;
  // --bias name=level (low | middle | high: x0.5, x1, x1.5): the relations'
  // bias names of the relation table (model.h: keyword, citation, related,
  // authorship, coauthorship, cooccurrence), nonseed_keyword (eps_kw) and
  // exploration (alpha, divided).
  Status ApplyBias(const std::string& spec);
};

// The names --bias accepts, for messages and documentation.
std::vector<std::string> BiasNames();

// Which recall paths run: one alone (ablations) or all three.
enum class RetrievalMode : uint8_t { kHybrid, kKeyword, kSemantic, kTitle };
// "hybrid", "keyword", "semantic", "title"; false for anything else.
bool ParseRetrievalMode(std::string_view name, RetrievalMode* mode);
// What is ranked: papers, or authors by their walk score (eq. 19).
enum class SearchTarget : uint8_t { kPaper, kAuthor };

struct SearchQuery {
  std::string text;      // any text; for a whole paper, see abstract
  std::string abstract;  // what to embed when a paper is given
  std::vector<std::pair<std::string, double>> keywords;  // --keyword, importance in [0,1]
  std::vector<std::pair<std::string, double>> titles;    // --title, confidence
  int after = 0, before = 0;                             // inclusive years on results
  std::string field;                                     // OpenAlex field (name or id) on results
  // A filter of the caller's on result papers (metric conditions,
  // metric_select.h), after the others. Null: none.
  std::function<bool(int64_t)> accept;
  RetrievalMode mode = RetrievalMode::kHybrid;
  SearchTarget target = SearchTarget::kPaper;
  std::vector<int64_t> candidates;  // rank only these papers
  std::vector<int64_t> exclude;
  // Query by example: stored papers (dense ids) whose keywords, vectors,
  // title and citations are the query; never in the results. Not combined
  // with text (InvalidArgument); --keyword and --title entries add to them.
  std::vector<int64_t> like;
};

struct ScoreParts {
  double emb = 0, title = 0, pre = 0, graph = 0, gate = 0, importance = 0, final_score = 0;
  double lex = 0;
  double like = 0;  // query by example: literature-map similarity to the examples, / the best
  bool has_like = false;
  bool has_emb = false, title_exact = false, title_fuzzy = false;
};

struct SearchResult {
  NodeType type = NodeType::kPaper;
  int64_t id = 0;
  ScoreParts s;
  bool is_seed = false;
  std::vector<ExplainPath> paths;
  uint32_t local = 0;
};

struct SearchTrace {
  std::vector<Keyword> query_keywords;
  std::vector<std::pair<std::string, double>> keyword_seeds;  // ext id, w_g
  std::vector<std::pair<std::string, double>> titles;         // title, confidence
  std::vector<std::pair<int64_t, double>> paper_seeds;        // id, w_p (normalized later)
  size_t subgraph_nodes = 0, subgraph_edges = 0;
  int iterations = 0;
  // Stage timings in milliseconds.
  double t_keywords = 0, t_semantic = 0, t_title = 0, t_merge = 0, t_subgraph = 0, t_walk = 0,
         t_rank = 0;
  size_t query_words = 0;      // the words of the query text (ForQueryWords)
  double short_weight = 0;     // SearchParams::ShortQueryWeight of the query
  bool adaptive = false;       // the parameters had a short_query side
  bool bm25_stand_in = false;  // no paper vectors, or none for the query: BM25 stood in
  std::vector<double> t_hops;  // the subgraph's hop selections
  double t_edges = 0;          // and its edge collection
};

class TriSearch {
 public:
  // keyword_backend: null = built-in extractor over the store's statistics.
  TriSearch(Store* store, SearchParams params,
            std::unique_ptr<KeywordBackend> keyword_backend = {});
  ~TriSearch();

  Result<std::vector<SearchResult>> Run(const SearchQuery& q, SearchTrace* trace);

  PaperFinder& finder() { return finder_; }
  // The last query's subgraph and seeds (for explanations).
  const Subgraph& subgraph() const { return subgraph_; }
  const std::vector<Seed>& seeds() const { return seeds_; }
  // The last query's parameters (the given ones before any query).
  const SearchParams& params() const { return p_; }
  // Whether BM25 stood in for the semantic path in the last query.

 private:
  struct State;  // one query's state, passed from stage to stage
  Status KeywordPath(State* s);
  Status SemanticPath(State* s);
  void TitlePath(State* s);
  bool LikeKeywords(State* s, std::vector<Keyword>* shown);
  void LikeCandidates(State* s);
  void Merge(State* s);
  void Feedback(State* s, const std::vector<int64_t>& cands);
  Status SeedSubgraph(State* s);
  void Walk(State* s);
  std::vector<SearchResult> FinalRanking(State* s);
  std::vector<SearchResult> PaperResults(State* s);
  std::vector<SearchResult> AuthorResults(State* s);
  std::vector<SearchResult> CutAndExplain(const State& s, std::vector<SearchResult> results);
  // imp(p) of eq. 10 for a paper with `cites` citations, or its percentile.
  double ImportanceOfPaper(uint32_t paper, uint32_t cites, double scale) const;

  Store* store_;
  std::unique_ptr<MetricsFile> metrics_;  // importance kPercentile only
  SearchParams base_;                     // as given
  SearchParams p_;                        // the current query's (base_.ForQueryWords)
  PaperFinder finder_;
  std::unique_ptr<KeywordBackend> kw_backend_;
  PhraseStats phrase_stats_;
  Status stats_status_;  // opening the phrase statistics, NotFound excepted
  bool have_stats_ = false;
  Subgraph subgraph_;
  std::vector<Seed> seeds_;
};

// Titles in free text: "quoted strings" of 4+ words and reference-like lines
// ("[1] A. Author. Title. Venue, 2019."), with confidences 0.85 / 0.65.
std::vector<std::pair<std::string, double>> TitlesInText(const std::string& text);

// The abstract of a whole paper given as text: the paragraph after an
// "Abstract" heading, else the first 2,000 characters; a JSON record's
// "abstract" field when the text is one.
std::string AbstractOf(const std::string& text);

// Level words of --keyword / --title ("high:...", "middle:", "low:").
double KeywordLevel(const std::string& level);  // 0.9 / 0.7 / 0.4
double TitleLevel(const std::string& level);    // 0.95 / 0.85 / 0.65

}  // namespace litgraph
