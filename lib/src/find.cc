#include "litgraph/find.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "litgraph/jsonl.h"
#include "litgraph/text.h"

namespace litgraph {

const char* MatchName(MatchKind m) {
  switch (m) {
    case MatchKind::kId:
      return "id";
    case MatchKind::kDoi:
      return "doi";
    case MatchKind::kTitleExact:
      return "title_exact";
    case MatchKind::kTitleFuzzy:
      return "title_fuzzy";
    case MatchKind::kTitle:
      return "title";
    case MatchKind::kAuthor:
      return "author";
    case MatchKind::kAuthorText:
      return "author+text";
    case MatchKind::kText:
      return "text";
    case MatchKind::kSemantic:
      return "semantic";
    case MatchKind::kHybrid:
      return "hybrid";
    case MatchKind::kLikeText:
      return "like_text";
    case MatchKind::kLikeSemantic:
      return "like_semantic";
    case MatchKind::kLikeHybrid:
      return "like_hybrid";
  }
  return "";
}

PaperFinder::PaperFinder(Store* store) : store_(store) {}
PaperFinder::~PaperFinder() = default;

void PaperFinder::Latch(const Status& st) {
  if (status_.ok() && !st.ok() && st.code() != Code::kNotFound) status_ = st;
}

Status PaperFinder::status() const {
  if (!status_.ok()) return status_;
  if (graph_) LITGRAPH_RETURN_IF_ERROR(graph_->status());
  if (lexical_) LITGRAPH_RETURN_IF_ERROR(lexical_->status());
  if (title_lexical_) LITGRAPH_RETURN_IF_ERROR(title_lexical_->status());
  if (semantic_) LITGRAPH_RETURN_IF_ERROR(semantic_->status());
  return Status::Ok();
}

Graph* PaperFinder::graph() {
  if (!graph_tried_) {
    graph_tried_ = true;
    auto g = Graph::Open(store_);
    if (g.ok())
      graph_ = std::move(g.value());
    else
      Latch(g.status());
  }
  return graph_.get();
}

const LexicalIndex* PaperFinder::lexical() {
  if (!lexical_tried_) {
    lexical_tried_ = true;
    if (Graph* g = graph()) {
      auto idx = std::make_unique<LexicalIndex>();
      Status st = idx->Open(g->view());
      if (st.ok())
        lexical_ = std::move(idx);
      else
        Latch(st);
    }
  }
  return lexical_.get();
}

const LexicalIndex* PaperFinder::title_lexical() {
  if (!title_tried_) {
    title_tried_ = true;
    if (Graph* g = graph()) {
      auto idx = std::make_unique<LexicalIndex>();
      Status st = idx->Open(g->view(), kTitleIndexPrefix);
      if (st.ok())
        title_lexical_ = std::move(idx);
      else
        Latch(st);
    }
  }
  return title_lexical_.get();
}

SemanticIndex* PaperFinder::semantic() {
  if (!semantic_tried_) {
    semantic_tried_ = true;
    auto s =
        SemanticIndex::Open(store_, ApiKeyFromEnv({"LITGRAPH_EMBED_API_KEY", "OPENAI_API_KEY"}));
    if (s.ok())
      semantic_ = std::move(s.value());
    else
      Latch(s.status());
  }
  return semantic_.get();
}

bool PaperFinder::EmbeddingScore(const QueryVector& q, int64_t paper, double* score,
                                 double* title_cos, double* abstract_cos) {
  SemanticIndex* sem = semantic();
  if (!sem) return false;
  double st = 0, sa = 0;
  bool t = sem->Score(q, VecField::kTitle, static_cast<uint64_t>(paper), &st);
  bool a = sem->Score(q, VecField::kAbstract, static_cast<uint64_t>(paper), &sa);
  if (!t && !a) return false;
  if (title_cos) *title_cos = t ? st : std::nan("");
  if (abstract_cos) *abstract_cos = a ? sa : std::nan("");
  *score = (0.4 * (t ? st : 0) + 0.6 * (a ? sa : 0)) / (0.4 * (t ? 1 : 0) + 0.6 * (a ? 1 : 0));
  return true;
}

std::vector<VectorHit> PaperFinder::SemanticField(VecField f, const QueryVector& q, size_t k,
                                                  size_t ef) {
  SemanticIndex* sem = semantic();
  if (!sem) return {};
  std::vector<uint32_t> extra;
  // The model's lexical part: the lexical index's best matches of the field
  // join the dense candidates (titles: the titles-only index).
  const LexicalIndex* lex = f == VecField::kTitle ? title_lexical() : lexical();
  if (sem->lexical_weight() > 0 && lex && !q.text.empty())
    for (const LexicalHit& h : lex->Search(LexicalIndex::QueryTerms(q.text), k, 200000))
      extra.push_back(h.doc);
  return sem->Search(f, q, k, k, ef, extra);
}

std::vector<FindHit> PaperFinder::SemanticSearch(const QueryVector& q, size_t k, size_t per_field) {
  std::vector<FindHit> hits;
  if (!semantic()) return hits;
  std::vector<uint32_t> ids;
  // A wide beam: short queries against abstract vectors need ef ~300 for
  // recall@10 >= 0.95 at 1M papers (bench/results, vectors_s1m.csv).
  size_t ef = std::max<size_t>(per_field * 5, 300);
  for (VecField f : {VecField::kTitle, VecField::kAbstract})
    for (const VectorHit& h : SemanticField(f, q, per_field, ef)) ids.push_back(h.id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (uint32_t id : ids) {
    double s;
    if (EmbeddingScore(q, id, &s)) hits.push_back({id, s, MatchKind::kSemantic});
  }
  std::sort(hits.begin(), hits.end(), [](const FindHit& a, const FindHit& b) {
    return a.score != b.score ? a.score > b.score : a.paper < b.paper;
  });
  if (hits.size() > k) hits.resize(k);
  return hits;
}

std::vector<QueryTerm> SelectQueryTerms(const LexicalIndex& index, std::vector<QueryTerm> terms,
                                        size_t max_terms, uint32_t own_docs) {
  struct Scored {
    double score;
    size_t at;
  };
  std::vector<Scored> scored;
  for (size_t i = 0; i < terms.size(); ++i) {
    uint32_t df = index.DocFreq(terms[i].term);
    // A term only the examples have matches nothing else: it cannot rank.
    if (df <= own_docs) continue;
    scored.push_back({terms[i].weight * index.Idf(df), i});
  }
  if (max_terms > 0 && scored.size() > max_terms) {
    std::stable_sort(scored.begin(), scored.end(),
                     [](const Scored& a, const Scored& b) { return a.score > b.score; });
    scored.resize(max_terms);
    std::sort(scored.begin(), scored.end(),
              [](const Scored& a, const Scored& b) { return a.at < b.at; });
  }
  std::vector<QueryTerm> out;
  for (const Scored& x : scored) out.push_back(std::move(terms[x.at]));
  return out;
}

Result<std::vector<int64_t>> ResolveExamples(Store* store, const std::vector<std::string>& args) {
  std::vector<int64_t> ids;
  auto add = [&](int64_t id) {
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  };
  for (const std::string& arg : args) {
    if (arg == "-") {
      std::vector<std::string> missing;
      auto read = ReadPaperIdList(store, "-", &missing);
      if (!read.ok()) return read.status();
      if (!missing.empty())
        return Status::NotFound(
            fmt::format("--like {}: no such paper in the store (standard input)", missing[0]));
      for (int64_t id : *read) add(id);
      continue;
    }
    size_t start = 0;
    while (start <= arg.size()) {
      size_t comma = arg.find(',', start);
      if (comma == std::string::npos) comma = arg.size();
      std::string item = arg.substr(start, comma - start);
      start = comma + 1;
      size_t a = item.find_first_not_of(" \t"), b = item.find_last_not_of(" \t");
      if (a == std::string::npos) continue;
      item = item.substr(a, b - a + 1);
      auto id = store->ResolvePaperId(item);
      if (!id) return Status::NotFound(fmt::format("--like {}: no such paper in the store", item));
      add(*id);
    }
  }
  if (ids.empty()) return Status::InvalidArgument("--like needs a paper id");
  return ids;
}

std::string PaperFinder::ExampleText(const std::vector<int64_t>& papers) {
  std::string text;
  for (int64_t p : papers) {
    std::string t = store_->GetText(TextColumn::kPaperTitle, p);
    std::string a = store_->GetText(TextColumn::kPaperAbstract, p);
    if (!text.empty()) text += "\n\n";
    text += t;
    if (!t.empty() && !a.empty()) text += ". ";
    text += a;
  }
  return text;
}

// Free text (or, with q.like, the examples) by the requested mode, over the
// candidates when given.
std::vector<FindHit> PaperFinder::TextHits(const FindQuery& q,
                                           const std::function<bool(uint32_t)>& accept) {
  const bool pool = !q.candidates.empty();
  const bool like = !q.like.empty();
  const size_t k = pool ? q.candidates.size() : q.limit;
  const std::string text = like ? ExampleText(q.like) : q.text;
  std::vector<QueryTerm> terms = LexicalIndex::QueryTerms(text);
  if (like && lexical())
    terms = SelectQueryTerms(*lexical(), std::move(terms), q.like_terms,
                             static_cast<uint32_t>(q.like.size()));
  std::vector<uint32_t> docs;
  for (int64_t c : q.candidates)
    if (!accept || accept(static_cast<uint32_t>(c))) docs.push_back(static_cast<uint32_t>(c));
  auto sorted = [](std::vector<FindHit> h) {
    std::sort(h.begin(), h.end(), [](const FindHit& a, const FindHit& b) {
      return a.score != b.score ? a.score > b.score : a.paper < b.paper;
    });
    return h;
  };
  auto lexical_hits = [&](size_t n) {
    std::vector<FindHit> h;
    if (pool) {
      if (!lexical()) return h;
      std::vector<float> s = lexical()->ScoreDocs(terms, docs);
      for (size_t i = 0; i < docs.size(); ++i) h.push_back({docs[i], s[i], MatchKind::kText});
      return sorted(h);
    }
    return TextSearch(terms, n, q.lexical_budget, accept);
  };
  auto semantic_hits = [&](size_t n) -> std::vector<FindHit> {
    std::vector<FindHit> h;
    if (!semantic()) {
      Latch(Status::InvalidArgument(store_->dir() +
                                    ": the store has no vectors (run litgraph-embed)"));
      return h;
    }
    Result<QueryVector> v = QueryVector{};
    if (like) {
      std::vector<uint64_t> ids(q.like.begin(), q.like.end());
      v = semantic()->PaperQuery(ids, text);  // the stored vectors: no model call
    } else {
      v = semantic()->EmbedQuery(text);
    }
    if (!v.ok()) {
      Latch(v.status());
      return h;
    }
    if (v->empty()) return h;  // no term the model knows
    if (pool) {
      for (uint32_t d : docs) {
        double s;
        h.push_back({d, EmbeddingScore(*v, d, &s) ? s : -1.0, MatchKind::kSemantic});
      }
      return sorted(h);
    }
    for (auto& x : SemanticSearch(*v, std::max<size_t>(n * 3, 60)))
      if (!accept || accept(static_cast<uint32_t>(x.paper))) h.push_back(x);
    if (h.size() > n) h.resize(n);
    return h;
  };
  // With examples, the match kinds say so ("like_text", ...).
  auto named = [&](std::vector<FindHit> h) {
    if (like)
      for (FindHit& x : h)
        x.match = x.match == MatchKind::kText       ? MatchKind::kLikeText
                  : x.match == MatchKind::kSemantic ? MatchKind::kLikeSemantic
                                                    : MatchKind::kLikeHybrid;
    return h;
  };
  if (q.text_match == TextMatch::kLexical) return named(lexical_hits(k));
  if (q.text_match == TextMatch::kSemantic) return named(semantic_hits(k));
  // Hybrid: fuse the two rankings.
  size_t depth = pool ? k : std::max<size_t>(q.limit * 5, 100);
  std::vector<FindHit> lex = lexical_hits(depth), sem = semantic_hits(depth);
  std::unordered_map<int64_t, double> fused;
  if (q.fusion == Fusion::kLinear) {
    auto add = [&](const std::vector<FindHit>& hs) {
      if (hs.empty()) return;
      double hi = hs.front().score, lo = hs.back().score;
      for (const auto& h : hs) fused[h.paper] += 0.5 * (hi > lo ? (h.score - lo) / (hi - lo) : 1.0);
    };
    add(lex);
    add(sem);
  } else {
    for (size_t r = 0; r < lex.size(); ++r) fused[lex[r].paper] += 1.0 / (60.0 + r + 1);
    for (size_t r = 0; r < sem.size(); ++r) fused[sem[r].paper] += 1.0 / (60.0 + r + 1);
  }
  std::vector<FindHit> h;
  for (auto& [p, s] : fused) h.push_back({p, s, MatchKind::kHybrid});
  h = sorted(h);
  if (h.size() > k) h.resize(k);
  return named(std::move(h));
}

// Year / venue / type filters, checked per candidate from the paper row.
struct PaperFinder::Filter {
  Store* store;
  const FindQuery& q;
  std::unordered_set<int64_t> sources;
  bool active = false;

  Filter(Store* s, const FindQuery& query) : store(s), q(query) {
    active = q.after || q.before || !q.venue.empty() || !q.type.empty() || q.accept;
    if (q.venue.empty()) return;
    std::string ext = ShortOpenAlexId(q.venue);
    for (int64_t id : store->SourcesMatching(ext.empty() ? q.venue : ext, NormalizeName(q.venue)))
      sources.insert(id);
  }

  bool Accept(int64_t paper) {
    if (!active) return true;
    auto f = store->GetPaperFacets(paper);
    if (!f) return false;
    if (q.after && (f->year == 0 || f->year < q.after)) return false;
    if (q.before && (f->year == 0 || f->year > q.before)) return false;
    if (!q.venue.empty() && (f->source_id == 0 || !sources.count(f->source_id))) return false;
    if (!q.type.empty() && f->type != q.type) return false;
    return !q.accept || q.accept(paper);
  }
};

std::vector<FindHit> PaperFinder::TextSearch(const std::vector<QueryTerm>& terms, size_t k,
                                             size_t budget,
                                             const std::function<bool(uint32_t)>& accept) {
  std::vector<FindHit> hits;
  if (const LexicalIndex* lex = lexical()) {
    for (const LexicalHit& h : lex->Search(terms, k, budget, accept))
      hits.push_back({h.doc, h.score, MatchKind::kText});
    return hits;
  }
  // No graph yet (the store was only loaded with ingest --no-graph): nothing
  // to search the text with, which status() says.
  if (status_.ok())
    status_ = Status::NotFound(fmt::format(
        "{}: the store has no full-text index yet (loaded with --no-graph); run litgraph-ingest "
        "without --no-graph to build it",
        store_->dir()));
  return hits;
}

std::vector<FindHit> PaperFinder::MatchTitle(const std::string& title, size_t limit,
                                             double threshold) {
  std::vector<FindHit> hits;
  for (int64_t id : store_->PapersByTitleKey(NormalizeTitleKey(title))) {
    hits.push_back({id, 1.0, MatchKind::kTitleExact});
    if (hits.size() >= limit) return hits;
  }
  if (!hits.empty()) return hits;
  // Fuzzy: candidates whose titles share the title's words, scored by eq. 5.
  std::vector<FindHit> candidates;
  if (const LexicalIndex* t = title_lexical()) {
    for (const LexicalHit& h : t->Search(LexicalIndex::QueryTerms(title), 100, 300000))
      candidates.push_back({h.doc, h.score, MatchKind::kTitle});
  } else {
    candidates = TextSearch(LexicalIndex::QueryTerms(title), 100, 200000, {});
  }
  for (const FindHit& c : candidates) {
    double m = TitleMatchScore(title, store_->GetText(TextColumn::kPaperTitle, c.paper));
    if (m >= threshold) hits.push_back({c.paper, m, MatchKind::kTitleFuzzy});
  }
  std::sort(hits.begin(), hits.end(), [](const FindHit& a, const FindHit& b) {
    return a.score != b.score ? a.score > b.score : a.paper < b.paper;
  });
  if (hits.size() > limit) hits.resize(limit);
  return hits;
}

std::vector<int64_t> PaperFinder::AuthorIds(const std::string& name, bool* exact) {
  std::string key = NormalizeName(name);
  *exact = false;
  if (key.empty()) return {};
  std::vector<int64_t> ids = store_->AuthorsByNameKey(key, 1000);
  if (!ids.empty()) {
    *exact = true;
    return ids;
  }
  return store_->AuthorsWithNameWords(key, 1000);
}

Result<std::vector<FindHit>> PaperFinder::Find(const FindQuery& q) {
  std::vector<FindHit> hits;
  if (!q.like.empty() &&
      (!q.text.empty() || !q.id.empty() || !q.doi.empty() || !q.title.empty() || !q.author.empty()))
    return Status::InvalidArgument(
        "--like is a query of its own: give no query text, --id, --doi, --title or --author "
        "with it");
  Filter filter(store_, q);
  std::unordered_set<int64_t> examples(q.like.begin(), q.like.end());
  auto accept = [&](int64_t id) { return !examples.count(id) && filter.Accept(id); };
  auto keep = [&](std::vector<FindHit> in) {
    for (auto& h : in)
      if (accept(h.paper)) hits.push_back(std::move(h));
  };
  std::unordered_set<int64_t> author_papers;
  double author_score = 0;
  bool by_author = !q.author.empty();
  if (by_author) {
    bool exact = false;
    std::vector<int64_t> authors = AuthorIds(q.author, &exact);
    author_score = exact ? 1.0 : 0.9;
    for (int64_t a : authors)
      for (int64_t p : store_->PapersOfAuthor(a)) author_papers.insert(p);
  }
  auto by_author_ok = [&](int64_t id) { return !by_author || author_papers.count(id) > 0; };

  if (!q.id.empty()) {
    if (auto id = store_->ResolvePaperId(q.id)) keep({{*id, 1.0, MatchKind::kId}});
  } else if (!q.doi.empty()) {
    if (NormalizeDoi(q.doi).empty())
      return Status::InvalidArgument(fmt::format("not a DOI: {}", q.doi));
    if (auto id = store_->PaperByDoi(q.doi)) keep({{*id, 1.0, MatchKind::kDoi}});
  } else if (!q.title.empty()) {
    for (auto& h : MatchTitle(q.title, std::max<size_t>(q.limit * 5, 50), q.title_threshold))
      if (by_author_ok(h.paper) && accept(h.paper)) hits.push_back(h);
  } else if (by_author) {
    std::vector<uint32_t> docs;
    for (int64_t id : author_papers)
      if (accept(id)) docs.push_back(static_cast<uint32_t>(id));
    std::sort(docs.begin(), docs.end());
    if (!q.text.empty() && lexical()) {
      std::vector<float> s = lexical()->ScoreDocs(LexicalIndex::QueryTerms(q.text), docs);
      for (size_t i = 0; i < docs.size(); ++i)
        if (s[i] > 0) hits.push_back({docs[i], s[i], MatchKind::kAuthorText});
    } else {
      // Same name score for all: most cited first, then newest, then id.
      Graph* g = graph();
      auto key = [&](uint32_t d) {
        return std::make_tuple(g ? -static_cast<int64_t>(g->Citations(d)) : 0, g ? -g->Year(d) : 0,
                               d);
      };
      std::sort(docs.begin(), docs.end(), [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
      for (uint32_t d : docs) hits.push_back({d, author_score, MatchKind::kAuthor});
    }
  } else if (!q.text.empty() || !q.like.empty()) {
    for (auto& h : TextHits(q, [&](uint32_t id) { return accept(id); }))
      hits.push_back(std::move(h));
  } else {
    return Status::InvalidArgument(
        "nothing to find: give a query, --id, --doi, --title, --author or --like");
  }
  // Every path above yields hits in its own deterministic order for equal
  // scores; keep it.
  std::stable_sort(hits.begin(), hits.end(),
                   [](const FindHit& a, const FindHit& b) { return a.score > b.score; });
  if (hits.size() > q.limit) hits.resize(q.limit);
  LITGRAPH_RETURN_IF_ERROR(status());
  return hits;
}

Result<int64_t> PaperFinder::Resolve(const std::string& text) {
  if (auto id = store_->ResolvePaperId(text)) return *id;
  std::vector<FindHit> hits = MatchTitle(text, 10, 0.88);
  if (hits.empty())
    return Status::NotFound(fmt::format("no paper matches \"{}\" (id, DOI or title)", text));
  bool exact_unique = hits[0].match == MatchKind::kTitleExact &&
                      (hits.size() == 1 || hits[1].match != MatchKind::kTitleExact);
  bool fuzzy_clear = hits.size() == 1 || hits[0].score - hits[1].score >= 0.05;
  if (exact_unique || (hits[0].match != MatchKind::kTitleExact && fuzzy_clear))
    return hits[0].paper;
  std::string list;
  for (const FindHit& h : hits) {
    auto p = store_->GetPaperSummary(h.paper);
    if (!p) continue;
    std::string title = p->title;  // one line per paper (the tool escapes the rest)
    for (char& c : title)
      if (c == '\n' || c == '\r') c = ' ';
    list +=
        fmt::format("\n  {}  {}  {}", p->ext_id, p->year ? std::to_string(p->year) : "?", title);
  }
  return Status::InvalidArgument(
      fmt::format("\"{}\" matches several papers; give an id:{}", text, list));
}

}  // namespace litgraph
