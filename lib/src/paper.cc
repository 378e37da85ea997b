#include "litgraph/paper.h"

#include "litgraph/coding.h"
#include "litgraph/find.h"

namespace litgraph {

namespace {

Json TextOrNull(Stmt& s, int col) { return s.IsNull(col) ? Json(nullptr) : Json(s.Str(col)); }

}  // namespace

Json PaperCard(Store* store, Graph* graph, int64_t paper, size_t max_links) {
  auto summary = store->GetPaperSummary(paper);
  if (!summary) return Json();
  Json j = PaperJson(*summary, graph);
  Db& db = store->db();
  Stmt p = db.Prepare(
      "SELECT p.abstract, p.date, p.type, p.language, p.referenced_works_count, p.is_oa,"
      " p.oa_status, p.oa_url, p.pdf_url, p.landing_page_url, p.updated_date, s.ext_id,"
      " s.name, p.refs, p.oa_keywords FROM paper p LEFT JOIN source s ON s.id = p.source_id"
      " WHERE p.id = ?");
  p.Bind(1, paper);
  if (!p.Step()) return Json();
  j["date"] = TextOrNull(p, 1);
  j["work_type"] = TextOrNull(p, 2);
  j["language"] = TextOrNull(p, 3);
  j["abstract"] = p.Str(0);
  j["source"] = p.IsNull(11) ? Json(nullptr) : Json({{"id", p.Str(11)}, {"name", p.Str(12)}});
  j["open_access"] = {{"is_oa", p.IsNull(5) ? Json(nullptr) : Json(p.Int(5) != 0)},
                      {"oa_status", TextOrNull(p, 6)},
                      {"oa_url", TextOrNull(p, 7)}};
  j["pdf_url"] = TextOrNull(p, 8);
  j["landing_page_url"] = TextOrNull(p, 9);
  j["updated_date"] = TextOrNull(p, 10);
  std::vector<std::string> refs;
  UnpackIdList(p.Blob(13), &refs);
  j["referenced_works_count"] = p.IsNull(4) ? Json(refs.size()) : Json(p.Int(4));
  j["openalex_keywords"] = p.IsNull(14) ? Json::array() : Json::parse(p.Str(14));

  Json authors = Json::array();
  Stmt a = db.Prepare(
      "SELECT au.position, a.ext_id, a.name, au.raw_name, au.author_position,"
      " au.is_corresponding, au.institutions, a.orcid FROM authorship au"
      " JOIN author a ON a.id = au.author_id WHERE au.paper_id = ? ORDER BY au.position");
  Stmt inst = db.Prepare("SELECT ext_id, name FROM institution WHERE id = ?");
  a.Bind(1, paper);
  while (a.Step()) {
    Json insts = Json::array();
    std::string ids = a.Str(6);
    size_t pos = 0;
    while (pos < ids.size()) {
      size_t e = ids.find(' ', pos);
      if (e == std::string::npos) e = ids.size();
      inst.Bind(1, static_cast<int64_t>(std::stoll(ids.substr(pos, e - pos))));
      if (inst.Step()) insts.push_back({{"id", inst.Str(0)}, {"name", inst.Str(1)}});
      inst.Reset();
      pos = e + 1;
    }
    authors.push_back({{"id", a.Str(1)},
                       {"name", a.Str(2)},
                       {"raw_name", TextOrNull(a, 3)},
                       {"position", a.Int(0) + 1},
                       {"author_position", TextOrNull(a, 4)},
                       {"is_corresponding", a.Int(5) != 0},
                       {"orcid", TextOrNull(a, 7)},
                       {"institutions", insts}});
  }
  j["authorships"] = authors;

  Json topics = Json::array();
  Stmt t = db.Prepare(
      "SELECT t.ext_id, t.name, pt.score, pt.is_primary, sf.name, f.name, d.name"
      " FROM paper_topic pt JOIN topic t ON t.id = pt.topic_id"
      " LEFT JOIN subfield sf ON sf.id = t.subfield_id LEFT JOIN field f ON f.id = sf.field_id"
      " LEFT JOIN domain d ON d.id = f.domain_id WHERE pt.paper_id = ?"
      " ORDER BY pt.is_primary DESC, pt.score DESC, t.ext_id");
  t.Bind(1, paper);
  while (t.Step())
    topics.push_back({{"id", t.Str(0)},
                      {"name", t.Str(1)},
                      {"score", t.IsNull(2) ? Json(nullptr) : Json(t.Double(2))},
                      {"is_primary", t.Int(3) != 0},
                      {"subfield", TextOrNull(t, 4)},
                      {"field", TextOrNull(t, 5)},
                      {"domain", TextOrNull(t, 6)}});
  j["topics"] = topics;

  Json keywords = Json::array();
  Stmt k = db.Prepare(
      "SELECT k.ext_id, k.text, pk.score FROM paper_keyword pk JOIN keyword k"
      " ON k.id = pk.keyword_id WHERE pk.paper_id = ? ORDER BY pk.score DESC, k.text");
  k.Bind(1, paper);
  while (k.Step()) keywords.push_back({{"id", k.Str(0)}, {"text", k.Str(1)}, {"score", k.Int(2)}});
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
        static_cast<int64_t>(refs.size()) - j["references_in_store_count"].get<int64_t>();
    list(Rel::kCitesIn, "cited_by_in_store", "cited_by_in_store_count");
  }
  return j;
}

}  // namespace litgraph
