#include "litgraph/search.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

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

// The C of eq. 10 over a pool's citation counts: their total ("log") or
// their 95th percentile ("p95", the reference code).
double ImportanceScale(const std::vector<uint32_t>& counts, const std::string& mode) {
  if (counts.empty()) return 1;
  if (mode == "p95") {
    std::vector<uint32_t> s = counts;
    std::sort(s.begin(), s.end());
    return s[std::min(s.size() - 1, static_cast<size_t>(std::ceil(0.95 * (s.size() - 1))))];
  }
  double c = 0;
  for (uint32_t x : counts) c += x;
  return c;
}

// imp(p) = min(1, ln(1 + c_p) / ln(1 + max(1, C))); 1 in "uniform" mode.
double Importance(uint32_t c_p, double scale, const std::string& mode) {
  if (mode == "uniform") return 1.0;
  return std::min(1.0, std::log(1.0 + c_p) / std::log(1.0 + std::max(1.0, scale)));
}

}  // namespace

double KeywordLevel(const std::string& level) {
  return level == "high" ? 0.9 : level == "middle" ? 0.7 : level == "low" ? 0.4 : -1;
}
double TitleLevel(const std::string& level) {
  return level == "high" ? 0.95 : level == "middle" ? 0.85 : level == "low" ? 0.65 : -1;
}

void SearchParams::Register(ParamTable* t) {
  rwr.Register(t);
  t->Add("max_query_keywords", &max_query_keywords, "Keywords extracted from the query (m)");
  t->Add("theta_kw", &theta_kw, "Cosine threshold of keyword vector matches");
  t->Add("kw_vector_top", &kw_vector_top, "Vector matches kept per query keyword");
  t->Add("sem_top", &sem_top, "Papers retrieved by title and by abstract vectors");
  t->Add("sem_keep", &sem_keep, "Of those, kept per list");
  t->Add("hnsw_ef", &hnsw_ef, "HNSW search beam width");
  t->Add("w_title_vec", &w_title_vec, "Weight of the title cosine in eq. 4");
  t->Add("w_abs_vec", &w_abs_vec, "Weight of the abstract cosine in eq. 4");
  t->Add("theta_title", &theta_title, "Fuzzy title threshold (eq. 5)");
  t->Add("title_top", &title_top, "Papers kept per title");
  t->Add("max_titles", &max_titles, "Titles used from a query");
  t->Add("lambda_emb", &lambda_emb, "Weight of the semantic score in s_pre (eq. 9)");
  t->Add("lambda_title", &lambda_title, "Weight of the title score in s_pre (eq. 9)");
  t->Add("bonus_exact", &bonus_exact, "s_pre bonus of an exact title hit");
  t->Add("bonus_fuzzy", &bonus_fuzzy, "s_pre bonus of a fuzzy title hit");
  t->Add("lambda_lex", &lambda_lex, "Weight of MinMax BM25 in s_pre (not in the paper; 0 = off)");
  t->Add("lexical_top", &lexical_top, "BM25 top-N papers added to the candidates (not in the paper; 0 = off)");
  t->Add("max_paper_seeds", &max_paper_seeds, "Paper seeds kept (title hits first)");
  t->Add("max_keyword_seeds", &max_keyword_seeds, "Keyword seeds kept");
  t->Add("gamma", &gamma, "Importance factor of seed weights (eq. 11)");
  t->Add("importance", &importance, "Citation importance: log (eq. 10), p95 or uniform",
         {"log", "p95", "uniform"});
  t->Add("lambda_pre", &lambda_pre, "Weight of the pre-graph score (eq. 18)");
  t->Add("lambda_graph", &lambda_graph, "Weight of the graph score (eq. 18)");
  t->Add("lambda_imp", &lambda_imp, "Weight of citation importance (eq. 18)");
  t->Add("gate_floor", &gate_floor, "Floor of the graph gate (eq. 17)");
  t->Add("title_hit_bonus", &title_hit_bonus, "Final bonus of an exact title hit (reference: 0.10)");
  t->Add("dedup_threshold", &dedup_threshold, "Near-duplicate title threshold (0 = off)");
}

Status SearchParams::ApplyProfile(const std::string& profile) {
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
    importance = "p95";
    return Status::Ok();
  }
  return Status::Usage("unknown ranking profile: " + profile);
}

Status SearchParams::ApplyBias(const std::string& spec) {
  size_t eq = spec.find('=');
  if (eq == std::string::npos) return Status::Usage("--bias expects relation=level, e.g. citation=high");
  std::string rel = spec.substr(0, eq), level = spec.substr(eq + 1);
  double f = level == "low" ? 0.5 : level == "middle" ? 1.0 : level == "high" ? 1.5 : -1;
  if (f < 0) return Status::Usage("--bias level must be low, middle or high: " + spec);
  if (rel == "keyword") rwr.beta_hk *= f;
  else if (rel == "nonseed_keyword") rwr.eps_kw *= f;
  else if (rel == "citation") rwr.beta_cite *= f;
  else if (rel == "related") rwr.beta_rel *= f;
  else if (rel == "authorship") rwr.beta_auth *= f;
  else if (rel == "coauthorship") rwr.beta_coauth *= f;
  else if (rel == "cooccurrence") rwr.beta_cooc *= f;
  else if (rel == "exploration") rwr.alpha = std::clamp(rwr.alpha / f, 0.01, 0.9);
  else return Status::Usage("unknown --bias relation: " + rel);
  return Status::Ok();
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
    if (j.contains("abstract") && j["abstract"].is_string()) return j["abstract"].get<std::string>();
    if (j.contains("text") && j["text"].is_string()) return j["text"].get<std::string>();
  }
  std::string lower;
  for (char c : text) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  size_t h = lower.find("abstract");
  if (h != std::string::npos) {
    size_t start = text.find_first_of("\n", h);
    if (start != std::string::npos && start - h < 20) {
      size_t end = text.find("\n\n", start + 1);
      while (end != std::string::npos && end < start + 200) end = text.find("\n\n", end + 2);
      std::string a = text.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1);
      if (a.size() > 100) return a;
    }
  }
  return text.substr(0, 2000);
}

TriSearch::TriSearch(Store* store, SearchParams params, std::unique_ptr<KeywordBackend> backend)
    : store_(store), p_(std::move(params)), finder_(store), kw_backend_(std::move(backend)) {
  have_stats_ = OpenPhraseStats(store_, &phrase_stats_).ok();
}

TriSearch::~TriSearch() = default;

Result<std::vector<SearchResult>> TriSearch::Run(const SearchQuery& q, SearchTrace* trace) {
  Graph* graph = finder_.graph();
  if (!graph) return Status::Io(store_->dir() + ": the store has no graph yet (run litgraph-ingest)");
  SemanticIndex* sem = finder_.semantic();
  const bool use_kw = q.mode == "keyword" || q.mode == "hybrid";
  const bool use_sem = q.mode == "semantic" || q.mode == "hybrid";
  const bool use_title = q.mode == "title" || q.mode == "hybrid";
  const bool pool_mode = !q.candidates.empty();
  std::unordered_set<int64_t> pool(q.candidates.begin(), q.candidates.end());
  auto t0 = Clock::now();

  // 1. Keyword path.
  std::unordered_map<int64_t, double> kw_weight;
  if (use_kw) {
    std::vector<Keyword> extracted;
    if (kw_backend_) {
      std::vector<std::vector<Keyword>> res;
      std::vector<std::string> failures;
      Status st = kw_backend_->Extract({{0, "", q.text, "query"}}, &res, &failures);
      if (!st.ok()) return st;
      extracted = res.empty() ? std::vector<Keyword>{} : res[0];
    } else {
      Stmt known = store_->db().Prepare("SELECT 1 FROM keyword WHERE ext_id = ?");
      KeywordExtractor ex(have_stats_ ? &phrase_stats_ : nullptr, [&](const std::string& phrase) {
        known.Bind(1, KeywordExtId(phrase));
        bool hit = known.Step();
        known.Reset();
        return hit;
      });
      ExtractOptions eo;
      eo.max_keywords = p_.max_query_keywords;
      extracted = ex.Extract("", q.text, eo);
    }
    if (extracted.size() > p_.max_query_keywords) extracted.resize(p_.max_query_keywords);
    if (trace) trace->query_keywords = extracted;
    std::vector<std::pair<std::string, double>> ks;
    for (const auto& k : extracted) ks.emplace_back(k.text, k.score / 10.0);
    for (const auto& [text, level] : q.keywords) ks.emplace_back(NormalizeKeyword(text), level);
    for (const auto& [text, s] : ks) {
      if (text.empty()) continue;
      if (auto id = store_->NodeByExtId(NodeType::kKeyword, KeywordExtId(text)))  // eq. 1
        kw_weight[*id] = std::max(kw_weight[*id], s);
      if (sem && sem->vectors(VecField::kKeyword).present() > 0) {  // eq. 2
        auto v = sem->EmbedQuery(text);
        if (!v.ok()) return v.status();
        for (const VectorHit& h :
             sem->Search(VecField::kKeyword, *v, p_.kw_vector_top, 4 * p_.kw_vector_top, 64))
          if (h.score >= p_.theta_kw) kw_weight[h.id] = std::max(kw_weight[h.id], s * h.score);
      }
    }
  }
  auto t1 = Clock::now();

  // 2. Semantic path.
  QueryVector eq;
  std::unordered_set<int64_t> p_emb;
  if (sem && (use_sem || use_title)) {
    auto v = sem->EmbedQuery(q.abstract.empty() ? q.text : q.abstract);
    if (!v.ok()) return v.status();
    eq = std::move(v.value());  // empty: no term the model knows
  }
  if (use_sem && !eq.empty()) {
    if (pool_mode) {
      p_emb = pool;
    } else {
      for (VecField f : {VecField::kTitle, VecField::kAbstract}) {
        auto hits = finder_.SemanticField(f, eq, p_.sem_top, std::max(p_.hnsw_ef, p_.sem_top));
        for (size_t i = 0; i < hits.size() && i < p_.sem_keep; ++i) p_emb.insert(hits[i].id);
      }
    }
  }
  // Optional lexical recall (an extension: BM25 hits join the candidates).
  if (p_.lexical_top > 0 && !pool_mode && finder_.lexical()) {
    for (const LexicalHit& h :
         finder_.lexical()->Search(LexicalIndex::QueryTerms(q.abstract.empty() ? q.text : q.abstract),
                                   p_.lexical_top, 400000))
      p_emb.insert(h.doc);
  }
  auto t2 = Clock::now();

  // 3. Title path.
  struct TitleHit {
    double score = 0;
    bool exact = false;
  };
  std::unordered_map<int64_t, TitleHit> p_title;
  if (use_title) {
    auto titles = q.titles;
    for (auto& t : TitlesInText(q.text)) titles.push_back(t);
    std::stable_sort(titles.begin(), titles.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    if (titles.size() > p_.max_titles) titles.resize(p_.max_titles);
    if (trace) trace->titles = titles;
    for (const auto& [title, conf] : titles) {
      size_t kept = 0;
      for (const FindHit& h : finder_.MatchTitle(title, pool_mode ? 50 : p_.title_top, p_.theta_title)) {
        if (pool_mode && !pool.count(h.paper)) continue;
        if (kept++ >= p_.title_top) break;
        TitleHit& t = p_title[h.paper];
        double s = conf * h.score;  // eq. 6
        if (s > t.score) t.score = s;
        t.exact = t.exact || h.match == "title_exact";
      }
    }
  }
  auto t3 = Clock::now();

  // 4. Merge (eq. 7-9).
  std::vector<int64_t> cands(p_emb.begin(), p_emb.end());
  for (auto& [id, t] : p_title)
    if (!p_emb.count(id)) cands.push_back(id);
  std::sort(cands.begin(), cands.end());
  std::vector<double> emb(cands.size(), 0), ttl(cands.size(), 0), lex(cands.size(), 0);
  std::vector<char> has_emb(cands.size(), 0);
  for (size_t i = 0; i < cands.size(); ++i) {
    double s;
    if (!eq.empty() && finder_.EmbeddingScore(eq, cands[i], &s)) {
      emb[i] = s;
      has_emb[i] = 1;
    }
    if (auto it = p_title.find(cands[i]); it != p_title.end()) ttl[i] = it->second.score;
  }
  if (p_.lambda_lex > 0 && finder_.lexical() && !cands.empty()) {
    std::vector<uint32_t> docs(cands.begin(), cands.end());
    std::vector<float> s = finder_.lexical()->ScoreDocs(LexicalIndex::QueryTerms(q.text), docs);
    for (size_t i = 0; i < cands.size(); ++i) lex[i] = s[i];
  }
  std::vector<double> emb_n = MinMax(emb), ttl_n = MinMax(ttl), lex_n = MinMax(lex);
  std::unordered_map<int64_t, ScoreParts> parts;
  for (size_t i = 0; i < cands.size(); ++i) {
    ScoreParts& sp = parts[cands[i]];
    sp.emb = emb[i];
    sp.has_emb = has_emb[i];
    sp.title = ttl[i];
    sp.lex = lex[i];
    auto it = p_title.find(cands[i]);
    sp.title_exact = it != p_title.end() && it->second.exact;
    sp.title_fuzzy = it != p_title.end() && !it->second.exact;
    double bonus = sp.title_exact ? p_.bonus_exact : sp.title_fuzzy ? p_.bonus_fuzzy : 0;
    sp.pre = p_.lambda_emb * emb_n[i] + p_.lambda_title * ttl_n[i] + p_.lambda_lex * lex_n[i] + bonus;
  }
  // Paper seeds: title hits first, then by s_pre (reference code cap).
  std::vector<int64_t> paper_seeds = cands;
  std::sort(paper_seeds.begin(), paper_seeds.end(), [&](int64_t a, int64_t b) {
    bool ta = parts[a].title > 0, tb = parts[b].title > 0;
    if (ta != tb) return ta;
    if (parts[a].pre != parts[b].pre) return parts[a].pre > parts[b].pre;
    return a < b;
  });
  if (paper_seeds.size() > p_.max_paper_seeds) paper_seeds.resize(p_.max_paper_seeds);
  std::vector<std::pair<int64_t, double>> kw_seeds(kw_weight.begin(), kw_weight.end());
  std::sort(kw_seeds.begin(), kw_seeds.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (kw_seeds.size() > p_.max_keyword_seeds) kw_seeds.resize(p_.max_keyword_seeds);
  auto t4 = Clock::now();

  // 5. Subgraph and seed distribution (eq. 10-12).
  seeds_.clear();
  for (auto& [id, w] : kw_seeds) seeds_.push_back({{NodeType::kKeyword, static_cast<uint32_t>(id)}, w});
  for (int64_t id : paper_seeds) seeds_.push_back({{NodeType::kPaper, static_cast<uint32_t>(id)}, 1.0});
  if (seeds_.empty() && !pool_mode) return std::vector<SearchResult>{};
  subgraph_ = BuildSubgraph(*graph, seeds_, p_.rwr);
  {
    std::vector<uint32_t> counts;
    for (const NodeRef& n : subgraph_.nodes)
      if (n.type == NodeType::kPaper) counts.push_back(graph->Citations(n.id));
    double scale = ImportanceScale(counts, p_.importance);
    for (Seed& s : seeds_)
      if (s.node.type == NodeType::kPaper)  // eq. 11
        s.weight = parts[s.node.id].pre *
                   (1 + p_.gamma * Importance(graph->Citations(s.node.id), scale, p_.importance));
  }
  if (trace) {
    for (auto& [id, w] : kw_seeds) {
      auto l = store_->NodeLabel(NodeType::kKeyword, id);
      trace->keyword_seeds.emplace_back(l ? l->first : std::to_string(id), w);
    }
    for (const Seed& s : seeds_)
      if (s.node.type == NodeType::kPaper) trace->paper_seeds.emplace_back(s.node.id, s.weight);
    trace->subgraph_nodes = subgraph_.nodes.size();
    trace->subgraph_edges = subgraph_.edges();
    trace->t_hops = subgraph_.hop_ms;
    trace->t_edges = subgraph_.edges_ms;
  }
  auto t5 = Clock::now();

  // 6. Random walk with restart.
  WalkResult walk = RandomWalk(subgraph_, seeds_, p_.rwr);
  if (trace) trace->iterations = walk.iterations;
  auto t6 = Clock::now();

  // 7. Final ranking.
  std::vector<SearchResult> results;
  std::unordered_set<int64_t> excluded(q.exclude.begin(), q.exclude.end());
  if (q.target == "author") {
    for (uint32_t i = 0; i < subgraph_.nodes.size(); ++i) {
      if (subgraph_.nodes[i].type != NodeType::kAuthor) continue;
      SearchResult r;
      r.type = NodeType::kAuthor;
      r.id = subgraph_.nodes[i].id;
      r.local = i;
      r.s.graph = walk.score[i];
      r.s.final_score = walk.score[i];  // eq. 19
      results.push_back(r);
    }
  } else {
    std::vector<int64_t> pool_ids;
    if (pool_mode) {
      pool_ids = q.candidates;
    } else {
      for (const NodeRef& n : subgraph_.nodes)
        if (n.type == NodeType::kPaper) pool_ids.push_back(n.id);
    }
    Stmt field_stmt;
    if (!q.field.empty())
      field_stmt = store_->db().Prepare(
          "SELECT 1 FROM paper_topic pt JOIN topic t ON t.id = pt.topic_id JOIN subfield sf ON "
          "sf.id = t.subfield_id JOIN field f ON f.id = sf.field_id WHERE pt.paper_id = ?1 AND "
          "(f.name = ?2 COLLATE NOCASE OR f.ext_id = ?2 OR f.ext_id = 'fields/' || ?2) LIMIT 1");
    std::vector<int64_t> kept;
    for (int64_t id : pool_ids) {
      if (excluded.count(id)) continue;
      int year = graph->Year(static_cast<uint64_t>(id));
      if (q.after && (year == 0 || year < q.after)) continue;
      if (q.before && (year == 0 || year > q.before)) continue;
      if (!q.field.empty()) {
        field_stmt.Bind(1, id).Bind(2, q.field);
        bool ok = field_stmt.Step();
        field_stmt.Reset();
        if (!ok) continue;
      }
      kept.push_back(id);
    }
    std::vector<double> pre(kept.size()), gr(kept.size());
    std::vector<uint32_t> cites(kept.size());
    for (size_t i = 0; i < kept.size(); ++i) {
      auto it = parts.find(kept[i]);
      pre[i] = it == parts.end() ? 0 : it->second.pre;
      int local = subgraph_.Find({NodeType::kPaper, static_cast<uint32_t>(kept[i])});
      gr[i] = local >= 0 ? walk.score[local] : 0;
      cites[i] = graph->Citations(static_cast<uint64_t>(kept[i]));
    }
    std::vector<double> pre_n = MinMax(pre), gr_n = MinMax(gr);
    double scale = ImportanceScale(cites, p_.importance);
    std::vector<double> imp(kept.size());
    for (size_t i = 0; i < kept.size(); ++i) imp[i] = Importance(cites[i], scale, p_.importance);
    for (size_t i = 0; i < kept.size(); ++i) {
      SearchResult r;
      r.id = kept[i];
      if (auto it = parts.find(kept[i]); it != parts.end()) r.s = it->second;
      r.s.graph = gr[i];
      r.s.gate = std::max(p_.gate_floor, pre_n[i]);  // eq. 17
      r.s.importance = imp[i];
      r.s.final_score = std::min(1.0, p_.lambda_pre * pre_n[i] + p_.lambda_graph * gr_n[i] * r.s.gate +
                                          p_.lambda_imp * imp[i]);  // eq. 18
      if (r.s.title_exact) r.s.final_score += p_.title_hit_bonus;
      int local = subgraph_.Find({NodeType::kPaper, static_cast<uint32_t>(kept[i])});
      r.local = local >= 0 ? static_cast<uint32_t>(local) : UINT32_MAX;
      results.push_back(r);
    }
  }
  std::unordered_set<uint64_t> seed_keys;
  for (const Seed& s : seeds_) seed_keys.insert(s.node.key());
  std::sort(results.begin(), results.end(), [](const SearchResult& a, const SearchResult& b) {
    return a.s.final_score != b.s.final_score ? a.s.final_score > b.s.final_score : a.id < b.id;
  });
  // Near-duplicate titles: keep the better ranked of two titles >= threshold.
  std::vector<SearchResult> out;
  std::vector<std::string> kept_titles;
  size_t want = pool_mode ? q.candidates.size() : p_.limit;
  for (SearchResult& r : results) {
    if (out.size() >= want) break;
    if (r.type == NodeType::kPaper && p_.dedup_threshold > 0 && !pool_mode) {
      auto label = store_->NodeLabel(NodeType::kPaper, r.id);
      std::string title = label ? label->second : "";
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
  auto t7 = Clock::now();
  if (trace) {
    trace->t_keywords = Ms(t0, t1);
    trace->t_semantic = Ms(t1, t2);
    trace->t_title = Ms(t2, t3);
    trace->t_merge = Ms(t3, t4);
    trace->t_subgraph = Ms(t4, t5);
    trace->t_walk = Ms(t5, t6);
    trace->t_rank = Ms(t6, t7);
  }
  return out;
}

}  // namespace litgraph
