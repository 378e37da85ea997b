#include "litgraph/search.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

#include "litgraph/keywords.h"
#include "litgraph/literature_map.h"
#include "litgraph/text.h"

namespace litgraph {

namespace {

using Clock = std::chrono::steady_clock;
double Ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// MinMax normalization (eq. 8); a constant non-zero column maps to 1.
std::vector<double> MinMax(const std::vector<double>& x) {
  if (x.empty()) return {};
  double lo = *std::min_element(x.begin(), x.end()), hi = *std::max_element(x.begin(), x.end());
  std::vector<double> out(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    out[i] = hi > lo ? (x[i] - lo) / (hi - lo) : (hi > 0 ? 1.0 : 0.0);
  return out;
}

// The C of eq. 10 over a pool's citation counts: their total (kLog) or their
// 95th percentile (kP95, the reference code).
double ImportanceScale(const std::vector<uint32_t>& counts, Importance mode) {
  if (counts.empty()) return 1;
  if (mode == Importance::kP95) {
    std::vector<uint32_t> s = counts;
    std::sort(s.begin(), s.end());
    return s[std::min(s.size() - 1, static_cast<size_t>(std::ceil(0.95 * (s.size() - 1))))];
  }
  double c = 0;
  for (uint32_t x : counts) c += x;
  return c;
}

// imp(p) = min(1, ln(1 + c_p) / ln(1 + max(1, C))); 1 in "uniform" mode.
double ImportanceOf(uint32_t c_p, double scale, Importance mode) {
  if (mode == Importance::kUniform) return 1.0;
  return std::min(1.0, std::log(1.0 + c_p) / std::log(1.0 + std::max(1.0, scale)));
}

// The adaptive profile's two sides, chosen on development data
// (bench/results/2026-11-26-default): AAN citation recovery from titles for
// short queries, CSFCube's development fold (abstracts) for long ones.
// Short: the graph decides (no gate, eq. 17; little restart; citations and
// BM25 count more); long: the direct matches do.
void ShortQueryPreset(SearchParams* p) {
  p->lambda_pre = 0.10, p->lambda_graph = 0.75, p->lambda_imp = 0.15, p->gate_floor = 1.0;
  p->rwr.alpha = 0.05;
  p->rwr.beta_cite = 1.5;
  p->importance = Importance::kP95;
  p->lambda_lex = 0.3;
}
void LongQueryPreset(SearchParams* p) {
  p->lambda_pre = 0.80, p->lambda_graph = 0.10, p->lambda_imp = 0.10;
  p->short_words = 20, p->long_words = 60;
  p->like_lambda_pre = 0.4;  // AAN development papers 1-500 (--like)
}

}  // namespace

double KeywordLevel(const std::string& level) {
  return level == "high" ? 0.9 : level == "middle" ? 0.7 : level == "low" ? 0.4 : -1;
}
double TitleLevel(const std::string& level) {
  return level == "high" ? 0.95 : level == "middle" ? 0.85 : level == "low" ? 0.65 : -1;
}

void SearchParams::Register(ParamTable* t) {
  constexpr double kMaxWeight = 1e6;  // as in RwrParams::Register: scores stay finite
  rwr.Register(t);
  t->Add("max_query_keywords", &max_query_keywords, "Keywords extracted from the query (m)",
         ParamTable::Between(0, 100));
  t->Add("theta_kw", &theta_kw, "Cosine threshold of keyword vector matches",
         ParamTable::Between(0, 1));
  t->Add("kw_vector_top", &kw_vector_top, "Vector matches kept per query keyword",
         ParamTable::Between(0, 1000));
  t->Add("sem_top", &sem_top, "Papers retrieved by title and by abstract vectors",
         ParamTable::Between(0, 100000));
  t->Add("sem_keep", &sem_keep, "Of those, kept per list", ParamTable::Between(0, 100000));
  t->Add("hnsw_ef", &hnsw_ef, "HNSW search beam width", ParamTable::Between(1, 100000));
  t->Add("w_title_vec", &w_title_vec, "Weight of the title cosine in the semantic score s_emb",
         ParamTable::Between(0, 1));
  t->Add("w_abs_vec", &w_abs_vec, "Weight of the abstract cosine in the semantic score s_emb",
         ParamTable::Between(0, 1));
  t->Add("theta_title", &theta_title, "Fuzzy title threshold: the least title similarity kept",
         ParamTable::Between(0, 1));
  t->Add("title_top", &title_top, "Papers kept per title", ParamTable::Between(0, 1000));
  t->Add("max_titles", &max_titles, "Titles used from a query", ParamTable::Between(0, 1000));
  t->Add("lambda_emb", &lambda_emb, "Weight of the semantic score in the pre-graph score s_pre",
         ParamTable::Between(0, kMaxWeight));
  t->Add("lambda_title", &lambda_title, "Weight of the title score in the pre-graph score s_pre",
         ParamTable::Between(0, kMaxWeight));
  t->Add("bonus_exact", &bonus_exact, "s_pre bonus of an exact title hit",
         ParamTable::Between(0, kMaxWeight));
  t->Add("bonus_fuzzy", &bonus_fuzzy, "s_pre bonus of a fuzzy title hit",
         ParamTable::Between(0, kMaxWeight));
  t->Add("lambda_lex", &lambda_lex, "Weight of MinMax BM25 in s_pre (not in the paper; 0 = off)",
         ParamTable::Between(0, kMaxWeight));
  t->Add("lexical_top", &lexical_top,
         "BM25 top-N papers added to the candidates (not in the paper; 0 = off)",
         ParamTable::Between(0, 100000));
  t->Add("prf_docs", &prf_docs,
         "Pseudo-relevance feedback: candidates of the best s_pre that are a second query "
         "(not in the paper; 0 = off)",
         ParamTable::Between(0, 1000));
  t->Add("lambda_prf", &lambda_prf,
         "Pseudo-relevance feedback: weight of the similarity to that query in s_pre",
         ParamTable::Between(0, kMaxWeight));
  t->Add("max_paper_seeds", &max_paper_seeds, "Paper seeds kept (title hits first)",
         ParamTable::Between(0, 100000));
  t->Add("max_keyword_seeds", &max_keyword_seeds, "Keyword seeds kept",
         ParamTable::Between(0, 100000));
  t->Add("like_similar", &like_similar,
         "Query by example: similar works of the examples' literature map added to the candidates",
         ParamTable::Between(0, 100000));
  t->Add("like_prior", &like_prior,
         "Query by example: prior works of the examples' literature map added to the candidates",
         ParamTable::Between(0, 100000));
  t->Add("lambda_like", &lambda_like,
         "Query by example: weight of the literature-map similarity in s_pre",
         ParamTable::Between(0, kMaxWeight));
  t->Add("like_lambda_pre", &like_lambda_pre,
         "Query by example: least final weight of s_pre (lambda_graph gives up the difference; "
         "0 = off)",
         ParamTable::Between(0, kMaxWeight));
  t->Add("like_neighbours", &like_neighbours,
         "Query by example: references and citations of the examples added to the candidates",
         ParamTable::Between(0, 100000));
  t->Add("gamma", &gamma, "Seed paper weight s_pre x (1 + gamma x importance): gamma",
         ParamTable::Between(0, kMaxWeight));
  t->AddChoice(
      "importance", &importance,
      "Citation importance: log (log-scaled citations), p95, uniform, or percentile (citation "
      "percentile within field and year, from the store's metrics file)",
      {{"log", Importance::kLog},
       {"p95", Importance::kP95},
       {"uniform", Importance::kUniform},
       {"percentile", Importance::kPercentile}});
  t->Add("lambda_pre", &lambda_pre, "Weight of the pre-graph score in the final score",
         ParamTable::Between(0, kMaxWeight));
  t->Add("lambda_graph", &lambda_graph, "Weight of the gated graph score in the final score",
         ParamTable::Between(0, kMaxWeight));
  t->Add("lambda_imp", &lambda_imp, "Weight of citation importance in the final score",
         ParamTable::Between(0, kMaxWeight));
  t->Add("gate_floor", &gate_floor, "Floor of the graph gate max(floor, normalized s_pre)",
         ParamTable::Between(0, 1));
  t->Add("title_hit_bonus", &title_hit_bonus, "Final bonus of an exact title hit (reference: 0.10)",
         ParamTable::Between(0, kMaxWeight));
  t->Add("dedup_threshold", &dedup_threshold, "Near-duplicate title threshold (0 = off)",
         ParamTable::Between(0, 1));
  t->Add("short_words", &short_words,
         "Adaptive profile: queries of at most this many words are ranked as short ones",
         ParamTable::Between(0, 1e6));
  t->Add("long_words", &long_words,
         "Adaptive profile: queries of at least this many words are ranked as long ones",
         ParamTable::Between(0, 1e6));
}

Status SearchParams::ApplyProfile(const std::string& profile) {
  if (profile == "adaptive") {
    // Chosen on development data (bench/results/2026-11-26-default): short
    // (title-like) queries lean on the graph, long (abstract-like) ones on
    // the direct matches.
    auto short_params = std::make_shared<SearchParams>();
    ShortQueryPreset(short_params.get());
    LongQueryPreset(this);
    short_query = std::move(short_params);
    return Status::Ok();
  }
  if (profile == "balanced") return Status::Ok();
  if (profile == "precision") {
    // Trust the direct matches: more pre-graph weight, a stricter gate, more
    // restart (the walk stays near the seeds).
    lambda_pre = 0.50, lambda_graph = 0.35, lambda_imp = 0.15, gate_floor = 0.15;
    rwr.alpha = 0.25;
    return Status::Ok();
  }
  if (profile == "discovery") {
    // Relaxed gate (eq. 17) and lower restart: graph-found papers rise.
    lambda_pre = 0.25, lambda_graph = 0.60, lambda_imp = 0.15, gate_floor = 0.50;
    rwr.alpha = 0.10;
    rwr.eps_kw = 0.40;
    return Status::Ok();
  }
  if (profile == "impact") {
    // Citations weigh more in seeds (eq. 11) and in the final score (eq. 18).
    gamma = 1.0;
    lambda_pre = 0.30, lambda_graph = 0.35, lambda_imp = 0.35;
    importance = Importance::kP95;
    return Status::Ok();
  }
  return Status::InvalidArgument("unknown ranking profile: " + profile);
}

double SearchParams::ShortQueryWeight(size_t words) const {
  if (!short_query) return 0;
  double w = static_cast<double>(words);
  if (w <= short_words) return 1;
  if (w >= long_words) return 0;
  return (long_words - w) / (long_words - short_words);  // long_words > short_words here
}

SearchParams SearchParams::ForQueryWords(size_t words) const {
  SearchParams out = *this;
  out.short_query.reset();
  double t = ShortQueryWeight(words);
  if (t <= 0) return out;
  const SearchParams& a = *short_query;
  auto blend = [t](double x_short, double x_long) {
    return t >= 1 ? x_short : t * x_short + (1 - t) * x_long;
  };
  static constexpr double SearchParams::*kFields[] = {
      &SearchParams::theta_kw,    &SearchParams::w_title_vec,     &SearchParams::w_abs_vec,
      &SearchParams::theta_title, &SearchParams::lambda_emb,      &SearchParams::lambda_title,
      &SearchParams::bonus_exact, &SearchParams::bonus_fuzzy,     &SearchParams::lambda_lex,
      &SearchParams::lambda_like, &SearchParams::lambda_prf,      &SearchParams::gamma,
      &SearchParams::lambda_pre,  &SearchParams::lambda_graph,    &SearchParams::lambda_imp,
      &SearchParams::gate_floor,  &SearchParams::title_hit_bonus, &SearchParams::dedup_threshold};
  static constexpr double RwrParams::*kRwrFields[] = {&RwrParams::beta_cite,
                                                      &RwrParams::beta_rel,
                                                      &RwrParams::beta_auth,
                                                      &RwrParams::beta_coauth,
                                                      &RwrParams::beta_affil,
                                                      &RwrParams::beta_published,
                                                      &RwrParams::beta_topic,
                                                      &RwrParams::beta_hierarchy,
                                                      &RwrParams::beta_hk,
                                                      &RwrParams::beta_cooc,
                                                      &RwrParams::eps_kw,
                                                      &RwrParams::c_max,
                                                      &RwrParams::author_position_boost,
                                                      &RwrParams::alpha,
                                                      &RwrParams::two_step_decay};
  for (double SearchParams::*f : kFields) out.*f = blend(a.*f, this->*f);
  for (double RwrParams::*f : kRwrFields) out.rwr.*f = blend(a.rwr.*f, rwr.*f);
  if (t >= 0.5) out.importance = a.importance;  // a choice: the nearer side's
  return out;
}

bool ParseRetrievalMode(std::string_view name, RetrievalMode* mode) {
  if (name == "hybrid")
    *mode = RetrievalMode::kHybrid;
  else if (name == "keyword")
    *mode = RetrievalMode::kKeyword;
  else if (name == "semantic")
    *mode = RetrievalMode::kSemantic;
  else if (name == "title")
    *mode = RetrievalMode::kTitle;
  else
    return false;
  return true;
}

std::vector<std::string> BiasNames() {
  std::vector<std::string> names;
  for (const RelInfo& r : AllRelations())
    if (r.bias[0] && std::find(names.begin(), names.end(), r.bias) == names.end())
      names.push_back(r.bias);
  names.push_back("nonseed_keyword");
  names.push_back("exploration");
  return names;
}

Status SearchParams::ApplyBias(const std::string& spec) {
  auto names = [] {
    std::string s;
    for (const auto& n : BiasNames()) s += (s.empty() ? "" : ", ") + n;
    return s;
  };
  size_t eq = spec.find('=');
  if (eq == std::string::npos)
    return Status::InvalidArgument(
        "--bias expects relation=level, e.g. citation=high (relations: " + names() + ")");
  std::string rel = spec.substr(0, eq), level = spec.substr(eq + 1);
  double f = level == "low" ? 0.5 : level == "middle" ? 1.0 : level == "high" ? 1.5 : -1;
  if (f < 0) return Status::InvalidArgument("--bias level must be low, middle or high: " + spec);
  if (rel == "nonseed_keyword") {
    rwr.eps_kw *= f;
    return Status::Ok();
  }
  if (rel == "exploration") {
    rwr.alpha = std::clamp(rwr.alpha / f, 0.01, 0.9);
    return Status::Ok();
  }
  for (const RelInfo& r : AllRelations())
    if (r.bias[0] != '\0' && rel == r.bias) {
      rwr.*r.weight *= f;
      return Status::Ok();
    }
  return Status::InvalidArgument("unknown --bias relation \"" + rel + "\" (relations: " + names() +
                                 ")");
}

std::vector<std::pair<std::string, double>> TitlesInText(const std::string& text) {
  std::vector<std::pair<std::string, double>> out;
  // "Quoted titles" of at least four words.
  for (size_t i = 0; i < text.size(); ++i) {
    bool curly = text.compare(i, 3, "\u201c") == 0;
    if (text[i] != '"' && !curly) continue;
    size_t start = i + (curly ? 3 : 1);
    size_t end = curly ? text.find("\u201d", start) : text.find('"', start);
    if (end == std::string::npos) break;
    std::string t = text.substr(start, end - start);
    if (Words(t).size() >= 4 && t.size() < 300) out.emplace_back(t, 0.85);
    i = end;
  }
  // Reference-like lines: "[12] Authors. Title. Venue, 2019." -> the title.
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    std::string line = text.substr(pos, eol - pos);
    pos = eol + 1;
    size_t a = line.find_first_not_of(" \t");
    if (a == std::string::npos || line[a] != '[') continue;
    size_t close = line.find(']', a);
    if (close == std::string::npos) continue;
    // Sentences of the reference: authors (with initials), title, venue.
    // The title is the longest one of 3+ words after the first.
    std::vector<std::string> parts;
    std::string rest = line.substr(close + 1);
    size_t p = 0;
    while (p < rest.size()) {
      size_t d = rest.find(". ", p);
      if (d == std::string::npos) d = rest.size();
      parts.push_back(rest.substr(p, d - p));
      p = d + 2;
    }
    std::string title;
    size_t title_words = 0;
    for (size_t k = 1; k < parts.size(); ++k) {
      size_t w = Words(parts[k]).size();
      if (w >= 3 && w > title_words) title = parts[k], title_words = w;
    }
    size_t a2 = title.find_first_not_of(" \t");
    if (a2 != std::string::npos) title = title.substr(a2);
    while (!title.empty() && (title.back() == '.' || title.back() == ' ')) title.pop_back();
    if (Words(title).size() >= 3) out.emplace_back(title, 0.65);
  }
  return out;
}

std::string AbstractOf(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_object()) {
    if (j.contains("abstract") && j["abstract"].is_string())
      return j["abstract"].get<std::string>();
    if (j.contains("text") && j["text"].is_string()) return j["text"].get<std::string>();
  }
  std::string lower;
  for (char c : text)
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  size_t h = lower.find("abstract");
  if (h != std::string::npos) {
    size_t start = text.find_first_of("\n", h);
    if (start != std::string::npos && start - h < 20) {
      size_t end = text.find("\n\n", start + 1);
      while (end != std::string::npos && end < start + 200) end = text.find("\n\n", end + 2);
      std::string a =
          text.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1);
      if (a.size() > 100) return a;
    }
  }
  return text.substr(0, 2000);
}

TriSearch::TriSearch(Store* store, SearchParams params, std::unique_ptr<KeywordBackend> backend)
    : store_(store),
      base_(std::move(params)),
      p_(base_),
      finder_(store),
      kw_backend_(std::move(backend)) {
  stats_status_ = OpenPhraseStats(store_, &phrase_stats_);
  have_stats_ = stats_status_.ok();
  if (stats_status_.code() == Code::kNotFound) stats_status_ = Status::Ok();  // none built yet
}

TriSearch::~TriSearch() = default;

struct TriSearch::State {
  const SearchQuery& q;
  SearchTrace* trace;
  Graph* graph = nullptr;
  SemanticIndex* sem = nullptr;
  bool pool_mode = false;
  std::unordered_set<int64_t> pool;
  // Keyword path: keyword node -> w_g (eq. 3).
  std::unordered_map<int64_t, double> kw_weight;
  // Semantic path: the query vector and the candidates.
  QueryVector eq;
  std::unordered_set<int64_t> p_emb;
  // BM25 standing in for the semantic path (trace->bm25_stand_in): its
  // candidates' scores.
  std::unordered_map<int64_t, float> bm25;
  // Title path: candidates with their best s_title (eq. 6).
  struct TitleHit {
    double score = 0;
    bool exact = false;
  };
  std::unordered_map<int64_t, TitleHit> p_title;
  // Merge: every candidate's scores; the seeds kept.
  std::unordered_map<int64_t, ScoreParts> parts;
  std::vector<int64_t> paper_seeds;
  std::vector<std::pair<int64_t, double>> kw_seeds;
  bool no_seeds = false;
  WalkResult walk;

  // The query text: the free text, or the examples' titles and abstracts.
  std::string text, abstract;
  std::unordered_set<int64_t> examples;
  std::unordered_map<int64_t, double> like_sim;  // similar works: similarity / the best

  State(const SearchQuery& query, SearchTrace* t)
      : q(query), trace(t), text(query.text), abstract(query.abstract) {
    examples.insert(query.like.begin(), query.like.end());
  }
  bool like() const { return !q.like.empty(); }
  bool Uses(RetrievalMode path) const { return q.mode == RetrievalMode::kHybrid || q.mode == path; }
};

namespace {

// Runs one stage and adds its time to *ms.
template <typename Fn>
auto Timed(double* ms, Fn&& fn) {
  auto t = Clock::now();
  struct Add {
    double* ms;
    Clock::time_point t;
    ~Add() { *ms += Ms(t, Clock::now()); }
  } add{ms, t};
  return fn();
}

}  // namespace

Result<std::vector<SearchResult>> TriSearch::Run(const SearchQuery& q, SearchTrace* trace) {
  SearchTrace local;
  if (!trace) trace = &local;
  State s(q, trace);
  LITGRAPH_RETURN_IF_ERROR(stats_status_);  // damaged phrase statistics
  if (s.like()) {
    if (!q.text.empty() || !q.abstract.empty())
      return Status::InvalidArgument(
          "--like is a query of its own: give no query text or --file with it");
    s.text = finder_.ExampleText(q.like);
    s.abstract.clear();
  }
  trace->query_words = Words(s.text).size();
  trace->short_weight = base_.ShortQueryWeight(trace->query_words);
  trace->adaptive = base_.short_query != nullptr;
  p_ = base_.ForQueryWords(trace->query_words);
  if (s.like() && p_.lambda_pre < p_.like_lambda_pre) {
    p_.lambda_graph = std::max(0.0, p_.lambda_graph - (p_.like_lambda_pre - p_.lambda_pre));
    p_.lambda_pre = p_.like_lambda_pre;
  }
  s.graph = finder_.graph();
  if (!s.graph) {
    LITGRAPH_RETURN_IF_ERROR(finder_.status());
    return Status::IoError(store_->dir() + ": the store has no graph yet (run litgraph-ingest)");
  }
  if (p_.importance == Importance::kPercentile && !metrics_) {
    bool stale = false;
    auto file = MetricsFile::Open(store_, *s.graph, &stale);
    if (!file.ok()) return file.status();
    if (!*file)
      return Status::InvalidArgument(
          stale ? "importance percentile: the store's metrics file predates its citations (run "
                  "litgraph-metrics --build)"
                : "importance percentile needs the store's metrics file (run litgraph-metrics "
                  "--build)");
    metrics_ = std::move(file.value());
  }
  s.sem = finder_.semantic();
  s.pool_mode = !q.candidates.empty();
  s.pool.insert(q.candidates.begin(), q.candidates.end());
  LITGRAPH_RETURN_IF_ERROR(Timed(&trace->t_keywords, [&] { return KeywordPath(&s); }));
  if (have_stats_) LITGRAPH_RETURN_IF_ERROR(phrase_stats_.status());
  LITGRAPH_RETURN_IF_ERROR(Timed(&trace->t_semantic, [&] { return SemanticPath(&s); }));
  Timed(&trace->t_title, [&] { TitlePath(&s); });
  Timed(&trace->t_merge, [&] { Merge(&s); });
  LITGRAPH_RETURN_IF_ERROR(Timed(&trace->t_subgraph, [&] { return SeedSubgraph(&s); }));
  if (s.no_seeds) return std::vector<SearchResult>{};
  Timed(&trace->t_walk, [&] { Walk(&s); });
  std::vector<SearchResult> out = Timed(&trace->t_rank, [&] { return FinalRanking(&s); });
  LITGRAPH_RETURN_IF_ERROR(finder_.status());
  if (metrics_) LITGRAPH_RETURN_IF_ERROR(metrics_->status());
  return out;
}

// 1. Keyword path: the query's keywords matched to Keyword nodes exactly
// (eq. 1) and by vector (eq. 2); a node keeps its best match (eq. 3).
Status TriSearch::KeywordPath(State* s) {
  if (!s->Uses(RetrievalMode::kKeyword)) return Status::Ok();
  std::vector<Keyword> extracted, stored;
  if (s->like() && LikeKeywords(s, &stored)) {
    // The examples' stored keywords stand for the extracted ones.
  } else if (kw_backend_) {
    std::vector<std::vector<Keyword>> res;
    std::vector<std::string> failures;
    LITGRAPH_RETURN_IF_ERROR(kw_backend_->Extract({{0, "", s->text, "query"}}, &res, &failures));
    extracted = res.empty() ? std::vector<Keyword>{} : res[0];
  } else {
    KeywordExtractor ex(have_stats_ ? &phrase_stats_ : nullptr, [&](const std::string& phrase) {
      return store_->NodeByExtId(NodeType::kKeyword, KeywordExtId(phrase)).has_value();
    });
    ExtractOptions eo;
    eo.max_keywords = p_.max_query_keywords;
    extracted = ex.Extract("", s->text, eo);
  }
  if (extracted.size() > p_.max_query_keywords) extracted.resize(p_.max_query_keywords);
  s->trace->query_keywords = extracted;
  s->trace->query_keywords.insert(s->trace->query_keywords.end(), stored.begin(), stored.end());
  std::vector<std::pair<std::string, double>> ks;
  for (const auto& k : extracted) ks.emplace_back(k.text, k.score / 10.0);
  for (const auto& [text, level] : s->q.keywords) ks.emplace_back(NormalizeKeyword(text), level);
  for (const auto& [text, w] : ks) {
    if (text.empty()) continue;
    if (auto id = store_->NodeByExtId(NodeType::kKeyword, KeywordExtId(text)))  // eq. 1
      s->kw_weight[*id] = std::max(s->kw_weight[*id], w);
    if (s->sem && s->sem->vectors(VecField::kKeyword).present() > 0) {  // eq. 2
      auto v = s->sem->EmbedQuery(text);
      if (!v.ok()) return v.status();
      for (const VectorHit& h :
           s->sem->Search(VecField::kKeyword, *v, p_.kw_vector_top, 4 * p_.kw_vector_top, 64))
        if (h.score >= p_.theta_kw) s->kw_weight[h.id] = std::max(s->kw_weight[h.id], w * h.score);
    }
  }
  return Status::Ok();
}

// 2. Semantic path: the query embedded (a whole paper's abstract alone), the
// top sem_top papers by title and by abstract vectors, sem_keep of each.
Status TriSearch::SemanticPath(State* s) {
  const SearchQuery& q = s->q;
  if (s->sem && s->like()) {
    std::vector<uint64_t> ids(q.like.begin(), q.like.end());
    s->eq = s->sem->PaperQuery(ids, s->text);  // the stored vectors: no model call
  } else if (s->sem && (s->Uses(RetrievalMode::kSemantic) || s->Uses(RetrievalMode::kTitle))) {
    auto v = s->sem->EmbedQuery(s->abstract.empty() ? s->text : s->abstract);
    if (!v.ok()) return v.status();
    s->eq = std::move(v.value());  // empty: no term the model knows
  }
  if (s->Uses(RetrievalMode::kSemantic) && !s->eq.empty()) {
    if (s->pool_mode) {
      s->p_emb = s->pool;
    } else {
      for (VecField f : {VecField::kTitle, VecField::kAbstract}) {
        auto hits = finder_.SemanticField(f, s->eq, p_.sem_top, std::max(p_.hnsw_ef, p_.sem_top));
        for (size_t i = 0; i < hits.size() && i < p_.sem_keep; ++i) s->p_emb.insert(hits[i].id);
      }
    }
  }
  // No paper vectors to search (a store not embedded yet, or merged with
  // --no-vectors), or a query the model cannot embed: BM25 stands in for the
  // semantic path (in the default, hybrid mode; a --mode semantic ablation
  // stays without), its top sem_top papers the candidates and its score the
  // cosine's share of s_pre (Merge), so tri-search finds what find-paper does.
  const bool vectors = s->sem && (s->sem->vectors(VecField::kTitle).present() > 0 ||
                                  s->sem->vectors(VecField::kAbstract).present() > 0);
  const bool stand_in =
      s->q.mode == RetrievalMode::kHybrid && (!vectors || s->eq.empty()) && finder_.lexical();
  s->trace->bm25_stand_in = stand_in;
  if (stand_in && s->pool_mode) s->p_emb = s->pool;
  // One BM25 search for the stand-in and the optional lexical recall (an
  // extension, lexical_top: BM25 hits join the candidates).
  const size_t lexical_k = std::max(stand_in ? p_.sem_top : size_t{0}, p_.lexical_top);
  if (lexical_k > 0 && !s->pool_mode && finder_.lexical())
    for (const LexicalHit& h : finder_.lexical()->Search(
             LexicalIndex::QueryTerms(s->abstract.empty() ? s->text : s->abstract), lexical_k,
             400000)) {
      s->p_emb.insert(h.doc);
      if (stand_in) s->bm25[h.doc] = h.score;
    }
  return Status::Ok();
}

// 3. Title path: --title entries and titles found in the query, best
// confidence first; exact or fuzzy (eq. 5) matches, s_title = c x m (eq. 6).
void TriSearch::TitlePath(State* s) {
  if (!s->Uses(RetrievalMode::kTitle)) return;
  auto titles = s->q.titles;
  if (s->like()) {
    for (int64_t p : s->q.like)
      titles.emplace_back(store_->GetText(TextColumn::kPaperTitle, p), TitleLevel("high"));
  } else {
    for (auto& t : TitlesInText(s->text)) titles.push_back(t);
  }
  std::stable_sort(titles.begin(), titles.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (titles.size() > p_.max_titles) titles.resize(p_.max_titles);
  s->trace->titles = titles;
  for (const auto& [title, conf] : titles) {
    size_t kept = 0;
    for (const FindHit& h :
         finder_.MatchTitle(title, s->pool_mode ? 50 : p_.title_top, p_.theta_title)) {
      if (s->pool_mode && !s->pool.count(h.paper)) continue;
      if (s->examples.count(h.paper)) continue;  // seeds of their own (Merge)
      if (kept++ >= p_.title_top) break;
      State::TitleHit& t = s->p_title[h.paper];
      double score = conf * h.score;  // eq. 6
      if (score > t.score) t.score = score;
      t.exact = t.exact || h.match == MatchKind::kTitleExact;
    }
  }
}

// Query by example, keyword path: the examples' stored keywords (importance
// / 10) and the keywords their stored vectors match (eq. 2 with the stored
// vector as the query). False when the examples have no keywords.
bool TriSearch::LikeKeywords(State* s, std::vector<Keyword>* shown) {
  Adjacency& has = s->graph->adj(Rel::kKeywords);
  std::vector<std::pair<uint32_t, double>> own;
  for (int64_t p : s->q.like) {
    Adjacency::List l = has.Neighbours(static_cast<uint64_t>(p));
    for (size_t i = 0; i < l.size(); ++i)
      own.emplace_back(l.ids[i], l.attrs.empty() ? 1.0 : std::min(1.0, l.attrs[i] / 10.0));
  }
  if (own.empty()) return false;
  // The strongest first, as extraction would rank them; at most m per example.
  std::stable_sort(own.begin(), own.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (own.size() > p_.max_query_keywords * s->q.like.size())
    own.resize(p_.max_query_keywords * s->q.like.size());
  const bool vectors = s->sem && s->sem->vectors(VecField::kKeyword).present() > 0;
  for (const auto& [id, w] : own) {
    s->kw_weight[id] = std::max(s->kw_weight[id], w);  // eq. 1
    Keyword k;
    if (auto label = store_->NodeLabel(NodeType::kKeyword, id)) k.text = label->second;
    k.score = static_cast<int>(std::lround(w * 10));
    shown->push_back(std::move(k));
    if (!vectors) continue;
    std::vector<VectorHit> hits;
    if (const float* row = s->sem->vectors(VecField::kKeyword).Row(id)) {
      hits = s->sem->Search(VecField::kKeyword, row, p_.kw_vector_top, 64);
    } else {
      // A keyword without a vector (embed --keyword-min-papers): its text
      // embedded, as a query's keyword is.
      auto v = s->sem->EmbedQuery(store_->GetText(TextColumn::kKeywordText, id));
      if (v.ok() && !v->empty())
        hits = s->sem->Search(VecField::kKeyword, *v, p_.kw_vector_top, 4 * p_.kw_vector_top, 64);
    }
    for (const VectorHit& h : hits)
      if (h.score >= p_.theta_kw)  // eq. 2
        s->kw_weight[h.id] = std::max(s->kw_weight[h.id], w * h.score);
  }
  return true;
}

// Query by example, merge: the examples as exact title hits (the top seeds)
// and up to like_neighbours of their references, then citations, most cited
// first, as candidates (within the pool, in pool mode).
void TriSearch::LikeCandidates(State* s) {
  for (int64_t p : s->q.like) s->p_title[p] = {TitleLevel("high"), true};
  if (p_.like_similar > 0 || p_.like_prior > 0) {
    MapOptions mo;
    mo.similar = p_.like_similar;
    mo.prior = p_.like_prior;
    mo.derivative = 0;
    std::vector<uint32_t> seeds(s->q.like.begin(), s->q.like.end());
    auto map = BuildLiteratureMap(*s->graph, seeds, mo);
    if (map.ok()) {  // else the graph's damage, which Run reports
      // Each role's scores divided by that role's best.
      double best[2] = {0, 0};
      auto role = [](const MapEntry& e) {
        return e.role == MapRole::kSimilar ? 0 : e.role == MapRole::kPrior ? 1 : -1;
      };
      for (const MapEntry& e : map->entries)
        if (role(e) >= 0) best[role(e)] = std::max(best[role(e)], e.score);
      for (const MapEntry& e : map->entries) {
        if (role(e) < 0 || best[role(e)] <= 0) continue;
        if (s->examples.count(e.paper) || (s->pool_mode && !s->pool.count(e.paper))) continue;
        double& sim = s->like_sim[e.paper];
        sim = std::max(sim, e.score / best[role(e)]);
        s->p_emb.insert(e.paper);
      }
    }
  }
  if (p_.like_neighbours == 0) return;
  for (Rel rel : {Rel::kCitesOut, Rel::kCitesIn}) {
    std::vector<uint32_t> near;
    Adjacency& adj = s->graph->adj(rel);
    for (int64_t p : s->q.like) {
      Adjacency::List l = adj.Neighbours(static_cast<uint64_t>(p));
      near.insert(near.end(), l.ids.begin(), l.ids.end());
    }
    std::sort(near.begin(), near.end());
    near.erase(std::unique(near.begin(), near.end()), near.end());
    std::stable_sort(near.begin(), near.end(), [&](uint32_t a, uint32_t b) {
      return s->graph->Citations(a) > s->graph->Citations(b);
    });
    size_t added = 0;
    for (uint32_t n : near) {
      if (added >= p_.like_neighbours) break;
      if (s->examples.count(n) || (s->pool_mode && !s->pool.count(n))) continue;
      if (s->p_emb.insert(n).second) ++added;
    }
  }
}

// 4. Merge (eq. 7-9): every candidate's cosines combined by eq. 4, MinMax
// over the candidates, s_pre; then the paper seeds (title hits first) and
// keyword seeds, each capped (reference code).
void TriSearch::Merge(State* s) {
  if (s->like()) LikeCandidates(s);
  std::vector<int64_t> cands(s->p_emb.begin(), s->p_emb.end());
  for (auto& [id, t] : s->p_title)
    if (!s->p_emb.count(id)) cands.push_back(id);
  std::sort(cands.begin(), cands.end());
  std::vector<double> emb(cands.size(), 0), ttl(cands.size(), 0), lex(cands.size(), 0);
  std::vector<char> has_emb(cands.size(), 0);
  for (size_t i = 0; i < cands.size(); ++i) {
    double score;
    if (!s->eq.empty() && finder_.EmbeddingScore(s->eq, cands[i], &score)) {
      emb[i] = score;
      has_emb[i] = 1;
    }
    if (auto it = s->p_title.find(cands[i]); it != s->p_title.end()) ttl[i] = it->second.score;
  }
  // BM25's weight in s_pre: lambda_lex, plus the cosine's when it stands in.
  const bool stand_in = s->trace->bm25_stand_in;
  const double w_lex = p_.lambda_lex + (stand_in ? p_.lambda_emb : 0);
  if (stand_in && !s->pool_mode) {
    // The stand-in's own scores (its search's): scoring the candidates again
    // reads every posting of the query's terms, 0.3-0.6 s for an abstract
    // at 10M works. A candidate of another path scores 0.
    for (size_t i = 0; i < cands.size(); ++i)
      if (auto it = s->bm25.find(cands[i]); it != s->bm25.end()) lex[i] = it->second;
  } else if (w_lex > 0 && finder_.lexical() && !cands.empty()) {
    std::vector<uint32_t> docs(cands.begin(), cands.end());
    std::vector<float> x = finder_.lexical()->ScoreDocs(LexicalIndex::QueryTerms(s->text), docs);
    for (size_t i = 0; i < cands.size(); ++i) lex[i] = x[i];
  }
  std::vector<double> emb_n = MinMax(emb), ttl_n = MinMax(ttl), lex_n = MinMax(lex);
  for (size_t i = 0; i < cands.size(); ++i) {
    ScoreParts& sp = s->parts[cands[i]];
    sp.emb = emb[i];
    sp.has_emb = has_emb[i];
    sp.title = ttl[i];
    sp.lex = lex[i];
    auto it = s->p_title.find(cands[i]);
    sp.title_exact = it != s->p_title.end() && it->second.exact;
    sp.title_fuzzy = it != s->p_title.end() && !it->second.exact;
    double bonus = sp.title_exact ? p_.bonus_exact : sp.title_fuzzy ? p_.bonus_fuzzy : 0;
    sp.pre = p_.lambda_emb * emb_n[i] + p_.lambda_title * ttl_n[i] + w_lex * lex_n[i] + bonus;
    if (s->like()) {
      auto it = s->like_sim.find(cands[i]);
      sp.like = it == s->like_sim.end() ? 0 : it->second;  // already on [0, 1]
      sp.has_like = true;
      sp.pre += p_.lambda_like * sp.like;
    }
  }
  if (p_.prf_docs > 0 && p_.lambda_prf > 0 && s->sem && !s->eq.empty()) Feedback(s, cands);
  auto& parts = s->parts;
  s->paper_seeds = cands;
  std::sort(s->paper_seeds.begin(), s->paper_seeds.end(), [&](int64_t a, int64_t b) {
    bool ta = parts[a].title > 0, tb = parts[b].title > 0;
    if (ta != tb) return ta;
    if (parts[a].pre != parts[b].pre) return parts[a].pre > parts[b].pre;
    return a < b;
  });
  if (s->paper_seeds.size() > p_.max_paper_seeds) s->paper_seeds.resize(p_.max_paper_seeds);
  s->kw_seeds.assign(s->kw_weight.begin(), s->kw_weight.end());
  std::sort(s->kw_seeds.begin(), s->kw_seeds.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (s->kw_seeds.size() > p_.max_keyword_seeds) s->kw_seeds.resize(p_.max_keyword_seeds);
}

// Pseudo-relevance feedback: the prf_docs candidates of the best s_pre (the
// examples and exact title hits are the query's own) as a second query.
void TriSearch::Feedback(State* s, const std::vector<int64_t>& cands) {
  std::vector<int64_t> order(cands);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    double pa = s->parts[a].pre, pb = s->parts[b].pre;
    return pa != pb ? pa > pb : a < b;
  });
  std::vector<uint64_t> top;
  for (int64_t id : order) {
    if (top.size() >= p_.prf_docs) break;
    if (s->examples.count(id) || s->parts[id].title_exact) continue;
    top.push_back(static_cast<uint64_t>(id));
  }
  if (top.empty()) return;
  std::vector<int64_t> ids(top.begin(), top.end());
  QueryVector fq = s->sem->PaperQuery(top, finder_.ExampleText(ids));
  if (fq.empty()) return;
  std::vector<double> sim(cands.size(), 0);
  for (size_t i = 0; i < cands.size(); ++i) {
    double score;
    if (finder_.EmbeddingScore(fq, cands[i], &score)) sim[i] = score;
  }
  std::vector<double> sim_n = MinMax(sim);
  for (size_t i = 0; i < cands.size(); ++i) s->parts[cands[i]].pre += p_.lambda_prf * sim_n[i];
}

// 5. Subgraph and seed distribution (eq. 10-12): the 2-hop subgraph of the
// seeds; paper seeds weigh s_pre (1 + gamma imp), keyword seeds w_g.
Status TriSearch::SeedSubgraph(State* s) {
  seeds_.clear();
  for (auto& [id, w] : s->kw_seeds)
    seeds_.push_back({{NodeType::kKeyword, static_cast<uint32_t>(id)}, w});
  for (int64_t id : s->paper_seeds)
    seeds_.push_back({{NodeType::kPaper, static_cast<uint32_t>(id)}, 1.0});
  if (seeds_.empty() && !s->pool_mode) {
    s->no_seeds = true;
    return Status::Ok();
  }
  auto sub = BuildSubgraph(*s->graph, seeds_, p_.rwr);
  if (!sub.ok()) return sub.status();
  subgraph_ = std::move(sub.value());
  std::vector<uint32_t> counts;
  for (const NodeRef& n : subgraph_.nodes)
    if (n.type == NodeType::kPaper) counts.push_back(s->graph->Citations(n.id));
  double scale = ImportanceScale(counts, p_.importance);
  for (Seed& seed : seeds_)
    if (seed.node.type == NodeType::kPaper)  // eq. 11
      seed.weight = s->parts[seed.node.id].pre *
                    (1 + p_.gamma * ImportanceOfPaper(seed.node.id,
                                                      s->graph->Citations(seed.node.id), scale));
  SearchTrace* trace = s->trace;
  for (auto& [id, w] : s->kw_seeds) {
    auto l = store_->NodeLabel(NodeType::kKeyword, id);
    trace->keyword_seeds.emplace_back(l ? l->first : std::to_string(id), w);
  }
  for (const Seed& seed : seeds_)
    if (seed.node.type == NodeType::kPaper)
      trace->paper_seeds.emplace_back(seed.node.id, seed.weight);
  trace->subgraph_nodes = subgraph_.nodes.size();
  trace->subgraph_edges = subgraph_.edges();
  trace->t_hops = subgraph_.hop_ms;
  trace->t_edges = subgraph_.edges_ms;
  return Status::Ok();
}

// 6. Random walk with restart (eq. 13-15).
void TriSearch::Walk(State* s) {
  s->walk = RandomWalk(subgraph_, seeds_, p_.rwr);
  s->trace->iterations = s->walk.iterations;
}

// 7. Final ranking (eq. 16-19).
std::vector<SearchResult> TriSearch::FinalRanking(State* s) {
  std::vector<SearchResult> results =
      s->q.target == SearchTarget::kAuthor ? AuthorResults(s) : PaperResults(s);
  std::sort(results.begin(), results.end(), [](const SearchResult& a, const SearchResult& b) {
    return a.s.final_score != b.s.final_score ? a.s.final_score > b.s.final_score : a.id < b.id;
  });
  return CutAndExplain(*s, std::move(results));
}

// Authors by their walk score (eq. 19).
std::vector<SearchResult> TriSearch::AuthorResults(State* s) {
  std::vector<SearchResult> results;
  for (uint32_t i = 0; i < subgraph_.nodes.size(); ++i) {
    if (subgraph_.nodes[i].type != NodeType::kAuthor) continue;
    SearchResult r;
    r.type = NodeType::kAuthor;
    r.id = subgraph_.nodes[i].id;
    r.local = i;
    r.s.graph = s->walk.score[i];
    r.s.final_score = s->walk.score[i];
    results.push_back(r);
  }
  return results;
}

// Every paper of the subgraph (or the candidates) that passes the filters:
// imp_final over that pool, the gate (eq. 17) and s_final (eq. 18).
std::vector<SearchResult> TriSearch::PaperResults(State* s) {
  const SearchQuery& q = s->q;
  Graph* graph = s->graph;
  std::vector<int64_t> pool_ids;
  if (s->pool_mode) {
    pool_ids = q.candidates;
  } else {
    for (const NodeRef& n : subgraph_.nodes)
      if (n.type == NodeType::kPaper) pool_ids.push_back(n.id);
  }
  std::unordered_set<int64_t> excluded(q.exclude.begin(), q.exclude.end());
  excluded.insert(q.like.begin(), q.like.end());  // never an example itself
  std::vector<int64_t> kept;
  for (int64_t id : pool_ids) {
    if (excluded.count(id)) continue;
    int year = graph->Year(static_cast<uint64_t>(id));
    if (q.after && (year == 0 || year < q.after)) continue;
    if (q.before && (year == 0 || year > q.before)) continue;
    if (!q.field.empty() && !store_->PaperInField(id, q.field)) continue;
    if (q.accept && !q.accept(id)) continue;
    kept.push_back(id);
  }
  std::vector<double> pre(kept.size()), gr(kept.size());
  std::vector<uint32_t> cites(kept.size());
  for (size_t i = 0; i < kept.size(); ++i) {
    auto it = s->parts.find(kept[i]);
    pre[i] = it == s->parts.end() ? 0 : it->second.pre;
    int local = subgraph_.Find({NodeType::kPaper, static_cast<uint32_t>(kept[i])});
    gr[i] = local >= 0 ? s->walk.score[local] : 0;
    cites[i] = graph->Citations(static_cast<uint64_t>(kept[i]));
  }
  std::vector<double> pre_n = MinMax(pre), gr_n = MinMax(gr);
  double scale = ImportanceScale(cites, p_.importance);
  std::vector<SearchResult> results;
  for (size_t i = 0; i < kept.size(); ++i) {
    SearchResult r;
    r.id = kept[i];
    if (auto it = s->parts.find(kept[i]); it != s->parts.end()) r.s = it->second;
    r.s.has_like = s->like();
    r.s.graph = gr[i];
    r.s.gate = std::max(p_.gate_floor, pre_n[i]);  // eq. 17
    r.s.importance = ImportanceOfPaper(static_cast<uint32_t>(kept[i]), cites[i], scale);
    r.s.final_score =
        std::min(1.0, p_.lambda_pre * pre_n[i] + p_.lambda_graph * gr_n[i] * r.s.gate +
                          p_.lambda_imp * r.s.importance);  // eq. 18
    if (r.s.title_exact) r.s.final_score += p_.title_hit_bonus;
    int local = subgraph_.Find({NodeType::kPaper, static_cast<uint32_t>(kept[i])});
    r.local = local >= 0 ? static_cast<uint32_t>(local) : UINT32_MAX;
    results.push_back(r);
  }
  return results;
}

double TriSearch::ImportanceOfPaper(uint32_t paper, uint32_t cites, double scale) const {
  if (p_.importance != Importance::kPercentile) return ImportanceOf(cites, scale, p_.importance);
  PaperMetrics m;
  if (!metrics_ || !metrics_->Get(paper, &m)) return 0;  // damage latches in the file's status
  return std::clamp(static_cast<double>(m.percentile) / 100.0, 0.0, 1.0);
}

// The top results, near-duplicate titles (eq. 5 >= dedup_threshold) removed
// keeping the better ranked, with their explanation paths.
std::vector<SearchResult> TriSearch::CutAndExplain(const State& s,
                                                   std::vector<SearchResult> results) {
  std::unordered_set<uint64_t> seed_keys;
  for (const Seed& seed : seeds_) seed_keys.insert(seed.node.key());
  std::vector<SearchResult> out;
  std::vector<std::string> kept_titles;
  size_t want = s.pool_mode ? std::min(s.q.candidates.size(), p_.limit) : p_.limit;
  for (SearchResult& r : results) {
    if (out.size() >= want) break;
    if (r.type == NodeType::kPaper && p_.dedup_threshold > 0 && !s.pool_mode) {
      std::string title = store_->GetText(TextColumn::kPaperTitle, r.id);
      bool dup = false;
      for (const auto& t : kept_titles)
        if (!title.empty() && TitleMatchScore(title, t) >= p_.dedup_threshold) dup = true;
      if (dup) continue;
      kept_titles.push_back(title);
    }
    r.is_seed = seed_keys.count(NodeRef{r.type, static_cast<uint32_t>(r.id)}.key()) > 0;
    out.push_back(std::move(r));
  }
  for (SearchResult& r : out)
    if (r.local != UINT32_MAX && out.size() <= 200) r.paths = Explain(subgraph_, seeds_, r.local);
  return out;
}

}  // namespace litgraph
