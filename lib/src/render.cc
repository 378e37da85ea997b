#include "litgraph/render.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "litgraph/export.h"
#include "litgraph/metrics.h"

namespace litgraph {

namespace {

Json TextOrNull(const std::optional<std::string>& s) { return s ? Json(*s) : Json(nullptr); }

// A paper as a drawing's node: its id, and title (shortened), year and
// citations as the label.
DrawNode PaperNode(Store* store, Graph& g, uint32_t id) {
  auto p = store->GetPaperSummary(id);
  std::string title = p ? p->title : std::to_string(id);
  if (title.size() > 60) {
    size_t cut = 57;  // at a character boundary
    while (cut > 0 && (static_cast<unsigned char>(title[cut]) & 0xC0) == 0x80) --cut;
    title = title.substr(0, cut) + "...";
  }
  std::string year = p && p->year ? std::to_string(p->year) : "?";
  return {id, p ? p->ext_id : std::to_string(id),
          fmt::format("{} ({}), {} cites", title, year, g.Citations(id))};
}

// Papers (sorted, unique) and citing -> cited edges as a drawing.
std::string DrawPapers(Format format, Store* store, Graph& g, std::vector<uint32_t> ids,
                       std::vector<std::pair<uint32_t, uint32_t>> edges) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  std::vector<DrawNode> nodes;
  for (uint32_t id : ids) nodes.push_back(PaperNode(store, g, id));
  std::vector<DrawEdge> draw_edges;
  for (auto [a, b] : edges) draw_edges.push_back({a, b, "cites"});
  return Draw(format, "lineage", nodes, draw_edges);
}

}  // namespace

Json PaperJson(const PaperSummary& p, Graph* graph) {
  Json j = {{"id", p.ext_id}, {"type", "paper"}, {"title", p.title}};
  j["year"] = p.year ? Json(p.year) : Json(nullptr);
  j["venue"] = p.venue.empty() ? Json(nullptr) : Json(p.venue);
  j["authors"] = p.authors;
  if (graph && p.id > 0) {
    j["cited_by_count"] = graph->Citations(static_cast<uint64_t>(p.id));
    j["citation_source"] =
        graph->CitationsFromRecord(static_cast<uint64_t>(p.id)) ? "record" : "store";
  } else {
    j["cited_by_count"] = p.cited_by_count >= 0 ? Json(p.cited_by_count) : Json(nullptr);
    j["citation_source"] = p.cited_by_count >= 0 ? Json("record") : Json(nullptr);
  }
  j["doi"] = p.doi.empty() ? Json(nullptr) : Json(p.doi);
  return j;
}

Json NodeJson(Store* store, Graph* graph, NodeType type, int64_t id) {
  if (type == NodeType::kPaper) {
    auto p = store->GetPaperSummary(id);
    return p ? PaperJson(*p, graph) : Json{{"id", std::to_string(id)}, {"type", "paper"}};
  }
  auto label = store->NodeLabel(type, id);
  Json j = {{"id", label ? label->first : std::to_string(id)}, {"type", NodeTypeName(type)}};
  if (type == NodeType::kKeyword) {
    j["text"] = label ? label->second : "";
    j["label"] = store->KeywordLabel(id).value_or(j["text"].get<std::string>());
    j["title"] = j["label"];
  } else {
    j["name"] = label ? label->second : "";
    j["title"] = j["name"];
  }
  if (type == NodeType::kAuthor) {
    auto inst = store->AuthorCurrentInstitution(id);
    auto inst_label = inst ? store->NodeLabel(NodeType::kInstitution, *inst) : std::nullopt;
    j["institution"] = inst_label ? Json(inst_label->second) : Json(nullptr);
    if (graph) j["papers"] = graph->adj(Rel::kAuthoredPapers).Degree(static_cast<uint64_t>(id));
  }
  return j;
}

std::vector<Column> NodeColumns() {
  return {{"rank", "#", 0},       {"score", "score", 0}, {"type", "type", 0},
          {"id", "id", 0},        {"title", "name", 40}, {"institution", "institution", 40},
          {"papers", "papers", 0}};
}

std::vector<Column> PaperColumns() {
  return {{"rank", "#", 0},       {"score", "score", 0},          {"year", "year", 0},
          {"id", "id", 0},        {"title", "title", 70},         {"authors", "authors", 30},
          {"venue", "venue", 24}, {"cited_by_count", "cites", 0}, {"doi", "doi", 0, false}};
}

std::function<Json(const Json& paper)> CitationFields(Store* store) {
  return [store](const Json& paper) {
    Json extra = Json::object();
    auto id = paper.find("id");
    auto dense = id != paper.end() && id->is_string() ? store->PaperByExtId(id->get<std::string>())
                                                      : std::nullopt;
    if (!dense) return extra;
    if (auto s = store->GetPaperSummary(*dense)) {
      if (!s->type.empty()) extra["work_type"] = s->type;
      if (!s->date.empty()) extra["date"] = s->date;
    }
    if (auto d = store->GetPaperDetails(*dense); d && d->landing_page_url)
      extra["landing_page_url"] = *d->landing_page_url;
    return extra;
  };
}

namespace {

// `text` wrapped at `width` columns (counted in code points), each line
// indented by `indent`.
std::string Wrap(const std::string& text, size_t width, const std::string& indent) {
  std::string out, line;
  auto columns = [](const std::string& s) {
    size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
  };
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(at, end - at);
    at = end + 1;
    if (word.empty()) continue;
    if (!line.empty() && columns(indent + line + " " + word) > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

std::string Names(const Json& list, const char* key, size_t max) {
  std::string s;
  size_t n = 0;
  for (const Json& e : list) {
    if (n == max) return s + fmt::format(", ... ({} in all)", list.size());
    std::string name = e.is_string() ? e.get<std::string>()
                       : e.is_object() && e.contains(key) && e[key].is_string()
                           ? e[key].get<std::string>()
                           : "";
    if (name.empty()) continue;
    s += (n++ ? ", " : "") + name;
  }
  return s;
}

}  // namespace

std::string PaperCardText(const Json& card, size_t width) {
  if (width == 0) width = 100;
  width = std::max<size_t>(width, 40);
  auto text = [&](const char* key) {
    auto it = card.find(key);
    return it != card.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  auto number = [&](const char* key) {
    auto it = card.find(key);
    return it != card.end() && it->is_number() ? std::to_string(it->get<int64_t>()) : "?";
  };
  std::string year = card.contains("year") && card["year"].is_number()
                         ? " (" + std::to_string(card["year"].get<int>()) + ")"
                         : "";
  std::string s = Wrap(text("title") + year, width, "");
  std::string ids = text("id");
  if (!text("doi").empty()) ids += "  doi:" + text("doi");
  if (!text("work_type").empty()) ids += "  " + text("work_type");
  s += Wrap(ids, width, "  ");
  if (!text("venue").empty()) s += Wrap("Venue: " + text("venue"), width, "  ");
  if (card.contains("authors") && !card["authors"].empty())
    s += Wrap("Authors: " + Names(card["authors"], "name", 12), width, "  ");
  s += Wrap(fmt::format("Cited by {} ({}), {} in the store. References: {}, {} in the store.",
                        number("cited_by_count"), text("citation_source"),
                        number("cited_by_in_store_count"), number("referenced_works_count"),
                        number("references_in_store_count")),
            width, "  ");
  if (auto m = card.find("metrics"); m != card.end() && m->is_object()) {
    auto num = [&](const char* key, const char* fmt_spec) {
      auto it = m->find(key);
      return it != m->end() && it->is_number()
                 ? fmt::format(fmt::runtime(fmt_spec), it->get<double>())
                 : std::string("null");
    };
    const Json& w = (*m)["cd_window"];
    s += Wrap(
        fmt::format("Disruption CD{} {} (n_i {}, n_j {}, n_k {}; without n_k {}). "
                    "PageRank {}, citation percentile {} in field and year.{}",
                    w.is_number() ? "_" + std::to_string(w.get<int>()) : "", num("cd", "{:.3f}"),
                    num("n_i", "{:.0f}"), num("n_j", "{:.0f}"), num("n_k", "{:.0f}"),
                    num("cd_no_nk", "{:.3f}"), num("pagerank", "{:.3g}"),
                    num("citation_percentile", "{:.1f}"),
                    m->contains("novelty_pairs") && (*m)["novelty_pairs"].is_number()
                        ? fmt::format(" Novelty {}, conventionality {}.", num("novelty", "{:.2f}"),
                                      num("conventionality", "{:.2f}"))
                        : ""),
        width, "  ");
  }
  if (card.contains("keywords") && !card["keywords"].empty())
    s += Wrap("Keywords: " + Names(card["keywords"], "label", 12), width, "  ");
  if (card.contains("topics") && !card["topics"].empty())
    s += Wrap("Topics: " + Names(card["topics"], "name", 5), width, "  ");
  if (!text("landing_page_url").empty()) s += Wrap(text("landing_page_url"), width, "  ");
  if (!text("abstract").empty()) s += "\n" + Wrap(text("abstract"), width, "  ");
  return s;
}

Json ExplainJson(Store* store, const Subgraph& g, const std::vector<ExplainPath>& paths,
                 std::vector<std::string>* seeds_used) {
  auto label = [&](uint32_t local) {
    const NodeRef& r = g.nodes[local];
    auto l = store->NodeLabel(r.type, r.id);
    return l ? l->first : std::to_string(r.id);
  };
  Json out = Json::array();
  for (const ExplainPath& p : paths) {
    Json ids = Json::array(), rels = Json::array();
    std::string text;
    for (size_t k = 0; k < p.nodes.size(); ++k) {
      std::string id = label(p.nodes[k]);
      ids.push_back(id);
      text += id;
      if (k < p.rels.size()) {
        const char* rel = GetRelInfo(p.rels[k]).label;
        rels.push_back(rel);
        text += std::string(" -") + rel + "- ";
      }
    }
    if (seeds_used &&
        std::find(seeds_used->begin(), seeds_used->end(), ids[0]) == seeds_used->end())
      seeds_used->push_back(ids[0]);
    out.push_back({{"nodes", ids}, {"relations", rels}, {"strength", p.strength}, {"text", text}});
  }
  return out;
}

Json PaperCard(Store* store, Graph* graph, int64_t paper, size_t max_links,
               const MetricsFile* metrics) {
  auto summary = store->GetPaperSummary(paper);
  auto d = store->GetPaperDetails(paper);
  if (!summary || !d) return Json();
  Json j = PaperJson(*summary, graph);
  j["date"] = TextOrNull(d->date);
  j["work_type"] = TextOrNull(d->work_type);
  j["language"] = TextOrNull(d->language);
  j["abstract"] = d->abstract;
  j["source"] =
      d->source_id ? Json({{"id", *d->source_id}, {"name", *d->source_name}}) : Json(nullptr);
  j["open_access"] = {{"is_oa", d->is_oa ? Json(*d->is_oa) : Json(nullptr)},
                      {"oa_status", TextOrNull(d->oa_status)},
                      {"oa_url", TextOrNull(d->oa_url)}};
  j["pdf_url"] = TextOrNull(d->pdf_url);
  j["landing_page_url"] = TextOrNull(d->landing_page_url);
  j["updated_date"] = TextOrNull(d->updated_date);
  j["referenced_works_count"] =
      d->referenced_works_count ? Json(*d->referenced_works_count) : Json(d->stored_references);
  j["openalex_keywords"] =
      d->oa_keywords_json.empty() ? Json::array() : Json::parse(d->oa_keywords_json);
  Json authors = Json::array();
  for (const auto& a : d->authorships) {
    Json insts = Json::array();
    for (const auto& i : a.institutions) insts.push_back({{"id", i.ext_id}, {"name", i.name}});
    authors.push_back({{"id", a.ext_id},
                       {"name", a.name},
                       {"raw_name", TextOrNull(a.raw_name)},
                       {"position", a.position + 1},
                       {"author_position", TextOrNull(a.author_position)},
                       {"is_corresponding", a.is_corresponding},
                       {"orcid", TextOrNull(a.orcid)},
                       {"institutions", insts}});
  }
  j["authorships"] = authors;
  Json topics = Json::array();
  for (const auto& t : d->topics)
    topics.push_back({{"id", t.ext_id},
                      {"name", t.name},
                      {"score", t.score ? Json(*t.score) : Json(nullptr)},
                      {"is_primary", t.is_primary},
                      {"subfield", TextOrNull(t.subfield)},
                      {"field", TextOrNull(t.field)},
                      {"domain", TextOrNull(t.domain)}});
  j["topics"] = topics;
  Json keywords = Json::array();
  for (const auto& k : d->keywords)
    keywords.push_back(
        {{"id", k.ext_id}, {"text", k.text}, {"label", k.label}, {"score", k.score}});
  j["keywords"] = keywords;
  if (graph) {
    auto list = [&](Rel r, const char* key, const char* count_key) {
      auto l = graph->adj(r).Neighbours(static_cast<uint64_t>(paper));
      std::vector<uint32_t> ids(l.ids.begin(), l.ids.end());
      j[count_key] = ids.size();
      Json arr = Json::array();
      for (size_t i = 0; i < ids.size() && i < max_links; ++i) {
        auto label = store->NodeLabel(NodeType::kPaper, ids[i]);
        if (label) arr.push_back(label->first);
      }
      j[key] = arr;
    };
    list(Rel::kCitesOut, "references_in_store", "references_in_store_count");
    j["dangling_references"] =
        static_cast<int64_t>(d->stored_references) - j["references_in_store_count"].get<int64_t>();
    list(Rel::kCitesIn, "cited_by_in_store", "cited_by_in_store_count");
  }
  PaperMetrics m;
  if (metrics && metrics->Get(static_cast<uint32_t>(paper), &m))
    j["metrics"] = MetricFieldsJson(ToRecord(static_cast<uint32_t>(paper), m));
  return j;
}

Json MetricFieldsJson(const MetricRecord& m) {
  auto opt = [](auto v) { return v ? Json(*v) : Json(nullptr); };
  auto why = [](CdUndefined u) {
    return u == CdUndefined::kNone ? Json(nullptr) : Json(CdUndefinedName(u));
  };
  const Disruption& d = m.disruption;
  Json j;
  j["cd_window"] = m.window > 0 ? Json(m.window) : Json(nullptr);
  j["n_i"] = d.n_i;
  j["n_j"] = d.n_j;
  j["n_k"] = d.n_k;
  j["cd"] = opt(d.Cd());
  j["cd_undefined"] = why(d.undefined);
  j["cd_no_nk"] = opt(d.CdNoNk());
  j["cd_no_nk_undefined"] = why(d.CdNoNkUndefined());
  j["cited_by_in_store"] = m.in_store_citations;
  j["pagerank"] = opt(m.pagerank);
  j["citation_percentile"] =
      m.percentile ? Json(static_cast<double>(*m.percentile)) : Json(nullptr);
  auto novelty = [&](const std::optional<Novelty>& n, const std::string& suffix) {
    const bool defined = n && !std::isnan(n->novelty);
    j["novelty" + suffix] = defined ? Json(static_cast<double>(n->novelty)) : Json(nullptr);
    j["conventionality" + suffix] =
        defined ? Json(static_cast<double>(n->conventionality)) : Json(nullptr);
    j["novelty" + suffix + "_pairs"] = n ? Json(n->pairs) : Json(nullptr);
  };
  novelty(m.novelty, "");
  novelty(m.keyword_novelty, "_keywords");
  j["metrics_source"] = m.from_file ? "file" : "computed";
  return j;
}

Json MetricJson(Store* store, Graph* graph, const MetricRecord& m) {
  auto p = store->GetPaperSummary(m.paper);
  if (!p) return Json();
  Json j = PaperJson(*p, graph);
  const Json fields = MetricFieldsJson(m);  // items() of a temporary would dangle
  for (auto& [k, v] : fields.items()) j[k] = v;
  return j;
}

std::vector<Column> MetricColumns() {
  return {{"id", "id", 0},
          {"year", "year", 0},
          {"title", "title", 50},
          {"cd", "cd", 0},
          {"cd_no_nk", "cd_no_nk", 0},
          {"n_i", "n_i", 0},
          {"n_j", "n_j", 0},
          {"n_k", "n_k", 0},
          {"cited_by_count", "cites", 0},
          {"cited_by_in_store", "in_store", 0},
          {"citation_percentile", "pct", 0},
          {"pagerank", "pagerank", 0},
          {"novelty", "novelty", 0},
          {"conventionality", "conv", 0},
          {"doi", "doi", 0, false}};
}

std::string NodeExtId(Store* store, NodeType type, int64_t id) {
  auto label = store->NodeLabel(type, id);
  return label ? label->first : "";
}

Json AnalysisJson(Store* store, const std::string& analysis, const std::string& finding, int rank,
                  size_t total, double score, NodeType subject, int64_t id, int64_t other,
                  Json evidence) {
  auto title = [&](int64_t node) -> std::string {
    auto label = store->NodeLabel(subject, node);
    if (!label) return "";
    if (subject == NodeType::kKeyword) return store->KeywordLabel(node).value_or(label->second);
    return label->second;
  };
  Json j = {{"type", "analysis"},
            {"analysis", analysis},
            {"finding", finding},
            {"rank", rank},
            {"total", total},
            {"score", score},
            {"subject", NodeTypeName(subject)},
            {"id", NodeExtId(store, subject, id)},
            {"title", title(id)}};
  if (subject == NodeType::kPaper) {
    auto f = store->GetPaperFacets(id);
    j["year"] = f && f->year ? Json(f->year) : Json(nullptr);
  }
  if (other >= 0) {
    j["other_id"] = NodeExtId(store, subject, other);
    j["other_title"] = title(other);
  }
  j["evidence"] = std::move(evidence);
  return j;
}

std::vector<Column> AnalysisColumns() {
  return {{"finding", "finding", 0},
          {"rank", "#", 0},
          {"score", "score", 0},
          {"id", "id", 0},
          {"title", "title", 50},
          {"other_id", "other", 0},
          {"other_title", "other title", 40}};
}

Json NeighbourJson(Store* store, Graph* graph, const Neighbour& n, Neighbourhood kind,
                   const std::string& of, int rank) {
  auto p = store->GetPaperSummary(n.paper);
  if (!p) return Json();
  Json j = PaperJson(*p, graph);
  j["rank"] = rank;
  j["score"] = n.count;
  j["relation"] = NeighbourhoodName(kind);
  j["of"] = of;
  return j;
}

std::vector<Json> LineagePathRecords(Store* store, Graph* graph,
                                     const std::vector<LineagePath>& paths) {
  std::vector<Json> out;
  int path_no = 0;
  for (const auto& p : paths) {
    ++path_no;
    for (size_t i = 0; i < p.nodes.size(); ++i) {
      uint32_t node = p.nodes[p.nodes.size() - 1 - i];  // oldest first
      auto s = store->GetPaperSummary(node);
      if (!s) continue;
      Json j = {{"path", path_no},
                {"step", i},
                {"hops", p.hops()},
                {"score", p.citations},
                {"mean_citations", p.mean()},
                {"rank", path_no}};
      Json paper = PaperJson(*s, graph);
      for (auto& [k, v] : paper.items()) j[k] = v;
      j["relation"] = i == 0 ? Json(nullptr) : Json("CITES");
      out.push_back(std::move(j));
    }
  }
  return out;
}

std::vector<Json> LineageTreeRecords(Store* store, Graph* graph, uint32_t root,
                                     const std::vector<TreeNode>& nodes, bool descendants) {
  std::vector<Json> out;
  auto root_p = store->GetPaperSummary(root);
  int rank = 0;
  for (const auto& n : nodes) {
    auto p = store->GetPaperSummary(n.paper);
    if (!p) continue;
    Json j = PaperJson(*p, graph);
    j["rank"] = ++rank;
    j["score"] = j["cited_by_count"];
    j["depth"] = n.depth;
    auto parent = store->GetPaperSummary(n.parent);
    j["parent"] = parent ? parent->ext_id : "";
    Json via = Json::array();
    for (uint32_t v : n.via)
      if (auto vp = store->GetPaperSummary(v)) via.push_back(vp->ext_id);
    j["via"] = via;
    j["relation"] = descendants ? "CITED_BY" : "CITES";
    j["root"] = root_p ? root_p->ext_id : "";
    out.push_back(std::move(j));
  }
  return out;
}

std::string DrawLineagePaths(Format format, Store* store, Graph& graph,
                             const std::vector<LineagePath>& paths) {
  std::vector<uint32_t> ids;
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  for (const auto& p : paths)
    for (size_t i = 0; i < p.nodes.size(); ++i) {
      ids.push_back(p.nodes[i]);
      if (i + 1 < p.nodes.size()) edges.emplace_back(p.nodes[i], p.nodes[i + 1]);
    }
  return DrawPapers(format, store, graph, std::move(ids), std::move(edges));
}

std::string DrawLineageTree(Format format, Store* store, Graph& graph, uint32_t root,
                            const std::vector<TreeNode>& nodes, bool descendants) {
  std::vector<uint32_t> ids = {root};
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  for (const auto& n : nodes) {
    ids.push_back(n.paper);
    for (uint32_t v : n.via) ids.push_back(v);
    uint32_t prev = root;
    std::vector<uint32_t> chain = n.via;
    chain.push_back(n.paper);
    for (uint32_t v : chain) {
      edges.push_back(descendants ? std::make_pair(v, prev) : std::make_pair(prev, v));
      prev = v;
    }
  }
  return DrawPapers(format, store, graph, std::move(ids), std::move(edges));
}

namespace {

// External ids of dense paper ids, looked up once each.
class ExtIds {
 public:
  explicit ExtIds(Store* store) : store_(store) {}
  const std::string& operator()(uint32_t paper) {
    auto it = ids_.find(paper);
    if (it != ids_.end()) return it->second;
    auto label = store_->NodeLabel(NodeType::kPaper, paper);
    return ids_[paper] = label ? label->first : std::to_string(paper);
  }
  Json List(const std::vector<uint32_t>& papers) {
    Json a = Json::array();
    for (uint32_t p : papers) a.push_back((*this)(p));
    return a;
  }

 private:
  Store* store_;
  std::unordered_map<uint32_t, std::string> ids_;
};

}  // namespace

std::vector<Json> LiteratureMapRecords(Store* store, Graph* graph, const LiteratureMap& map) {
  std::vector<Json> out;
  ExtIds ext(store);
  for (const MapEntry& e : map.entries) {
    auto p = store->GetPaperSummary(e.paper);
    if (!p) continue;
    Json j = PaperJson(*p, graph);
    j["role"] = MapRoleName(e.role);
    j["rank"] = e.rank;
    j["score"] = e.role == MapRole::kSeed ? Json(nullptr) : Json(e.score);
    j["co_citation"] = e.co_citation;
    j["coupling"] = e.coupling;
    j["co_cited"] = e.co_cited;
    j["coupled"] = e.coupled;
    j["seeds"] = ext.List(e.seeds);
    j["similar_to"] =
        e.similar_to >= 0 ? Json(ext(static_cast<uint32_t>(e.similar_to))) : Json(nullptr);
    j["cites_in_map"] = ext.List(e.cites);
    j["cited_by_in_map"] = ext.List(e.cited_by);
    out.push_back(std::move(j));
  }
  return out;
}

std::vector<Column> LiteratureMapColumns() {
  return {{"role", "role", 0},
          {"rank", "#", 0},
          {"score", "score", 0},
          {"year", "year", 0},
          {"id", "id", 0},
          {"title", "title", 60},
          {"authors", "authors", 24},
          {"cited_by_count", "cites", 0},
          {"doi", "doi", 0, false}};
}

namespace {

// The "similar" edges of a map: similar work -> the seed it is most similar
// to, for each similar work without a citation edge to any seed.
std::vector<std::pair<uint32_t, uint32_t>> SimilarEdges(const LiteratureMap& map) {
  std::unordered_set<uint32_t> seeds, linked;
  for (const MapEntry& e : map.entries)
    if (e.role == MapRole::kSeed) seeds.insert(e.paper);
  for (auto [a, b] : map.citations) {
    if (seeds.count(b)) linked.insert(a);
    if (seeds.count(a)) linked.insert(b);
  }
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  for (const MapEntry& e : map.entries)
    if (e.role == MapRole::kSimilar && e.similar_to >= 0 && !linked.count(e.paper))
      edges.emplace_back(e.paper, static_cast<uint32_t>(e.similar_to));
  return edges;
}

}  // namespace

std::string DrawLiteratureMap(Format format, Store* store, Graph& graph, const LiteratureMap& map) {
  std::vector<DrawNode> nodes;
  for (const MapEntry& e : map.entries) {
    DrawNode n = PaperNode(store, graph, e.paper);
    n.label = std::string(MapRoleName(e.role)) + ": " + n.label;
    n.group = MapRoleName(e.role);
    nodes.push_back(std::move(n));
  }
  std::vector<DrawEdge> edges;
  for (auto [a, b] : map.citations) edges.push_back({a, b, "cites"});
  for (auto [a, b] : SimilarEdges(map)) edges.push_back({a, b, "similar", true});
  return Draw(format, "literature_map", nodes, edges);
}

std::string LiteratureMapGraphml(Store* store, Graph& graph, const LiteratureMap& map) {
  std::string s =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\"\n"
      "    xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
      "    xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
      "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n";
  const std::pair<const char*, const char*> node_keys[] = {
      {"id", "string"},           {"label", "string"},
      {"role", "string"},         {"rank", "int"},
      {"score", "double"},        {"year", "int"},
      {"cited_by_count", "long"}, {"doi", "string"},
      {"co_citation", "double"},  {"coupling", "double"}};
  for (auto [name, type] : node_keys)
    s += fmt::format("  <key id=\"n_{0}\" for=\"node\" attr.name=\"{0}\" attr.type=\"{1}\"/>\n",
                     name, type);
  s += "  <key id=\"e_relation\" for=\"edge\" attr.name=\"relation\" attr.type=\"string\"/>\n";
  s += "  <graph id=\"literature_map\" edgedefault=\"directed\">\n";
  auto data = [&](const char* key, const std::string& value) {
    s += fmt::format("<data key=\"n_{}\">{}</data>", key, value);
  };
  for (const MapEntry& e : map.entries) {
    auto p = store->GetPaperSummary(e.paper);
    s += fmt::format("    <node id=\"paper:{}\">", e.paper);
    data("id", XmlText(p ? p->ext_id : std::to_string(e.paper)));
    if (p) data("label", XmlText(p->title));
    data("role", MapRoleName(e.role));
    data("rank", std::to_string(e.rank));
    if (e.role != MapRole::kSeed) data("score", fmt::format("{}", e.score));
    if (p && p->year) data("year", std::to_string(p->year));
    data("cited_by_count", std::to_string(graph.Citations(e.paper)));
    if (p && !p->doi.empty()) data("doi", XmlText(p->doi));
    data("co_citation", fmt::format("{}", e.co_citation));
    data("coupling", fmt::format("{}", e.coupling));
    s += "</node>\n";
  }
  auto edge = [&](uint32_t a, uint32_t b, const char* relation) {
    s += fmt::format(
        "    <edge source=\"paper:{}\" target=\"paper:{}\"><data "
        "key=\"e_relation\">{}</data></edge>\n",
        a, b, relation);
  };
  for (auto [a, b] : map.citations) edge(a, b, "cites");
  for (auto [a, b] : SimilarEdges(map)) edge(a, b, "similar");
  return s + "  </graph>\n</graphml>\n";
}

Json SearchResultJson(Store* store, Graph* graph, const TriSearch& search, const SearchTrace& trace,
                      const SearchResult& r, int rank) {
  Json j = NodeJson(store, graph, r.type, r.id);
  j["rank"] = rank;
  j["score"] = r.s.final_score;
  j["scores"] = {{"emb", r.s.emb},          {"title", r.s.title}, {"pre", r.s.pre},
                 {"graph", r.s.graph},      {"gate", r.s.gate},   {"importance", r.s.importance},
                 {"final", r.s.final_score}};
  if (search.params().lambda_lex > 0 || trace.bm25_stand_in) j["scores"]["lex"] = r.s.lex;
  if (r.s.has_like) j["scores"]["like"] = r.s.like;
  j["is_seed"] = r.is_seed;
  std::vector<std::string> seeds_used;
  j["paths"] = ExplainJson(store, search.subgraph(), r.paths, &seeds_used);
  j["seeds"] = seeds_used;
  return j;
}

std::string SearchReport(const TriSearch& search, const SearchTrace& trace,
                         const std::vector<SearchResult>& results,
                         const std::vector<Json>& records) {
  const SearchParams& p = search.params();
  // Text from the store and the query is escaped (EscapeControls), one line
  // per item.
  std::string report = "Query keywords:";
  for (const auto& k : trace.query_keywords)
    report += fmt::format(" {} ({})", EscapeControls(k.text), k.score);
  report += "\nKeyword seeds:";
  for (const auto& [k, w] : trace.keyword_seeds)
    report += fmt::format(" {} {:.2f};", EscapeControls(k), w);
  report += fmt::format(
      "\nTitles matched: {}\nPaper seeds: {}\nSubgraph: {} nodes, {} edges; "
      "walk converged in {} iterations\n\n",
      trace.titles.size(), trace.paper_seeds.size(), trace.subgraph_nodes, trace.subgraph_edges,
      trace.iterations);
  if (trace.adaptive)
    report.insert(report.size() - 1,
                  fmt::format("Adaptive ranking: {} query words, short-query weight {:.2f}\n",
                              trace.query_words, trace.short_weight));
  if (trace.bm25_stand_in)
    report.insert(report.size() - 1,
                  "Semantic path: BM25 stood in (no paper vectors to search, or none for this "
                  "query)\n");
  for (size_t i = 0; i < results.size() && i < records.size(); ++i) {
    const SearchResult& r = results[i];
    const Json& j = records[i];
    report += fmt::format("{:>2}. {:.3f}  {}  {}\n", i + 1, r.s.final_score,
                          EscapeControls(j["id"].get<std::string>()),
                          EscapeControls(j.value("title", "")));
    report += fmt::format(
        "    final {:.3f} = {} x pre~ + {} x graph~ x gate {:.2f} + {} x importance {:.2f}{}"
        "; pre {:.3f} ({} {:.3f}, title {:.2f}{}), graph {:.5f}{}\n",
        r.s.final_score, p.lambda_pre, p.lambda_graph, r.s.gate, p.lambda_imp, r.s.importance,
        r.s.title_exact && p.title_hit_bonus > 0 ? fmt::format(" + {} title hit", p.title_hit_bonus)
                                                 : "",
        r.s.pre, trace.bm25_stand_in ? "BM25" : "semantic", trace.bm25_stand_in ? r.s.lex : r.s.emb,
        r.s.title,
        (r.s.title_exact   ? ", exact title hit"
         : r.s.title_fuzzy ? ", fuzzy title hit"
                           : std::string()) +
            (r.s.has_like ? fmt::format(", like the examples {:.2f}", r.s.like) : std::string()),
        r.s.graph, r.is_seed ? "; a seed" : "; found by the walk");
    for (const auto& path : j["paths"])
      report += "    via " + EscapeControls(path["text"].get<std::string>()) + "\n";
  }
  return report;
}

}  // namespace litgraph
