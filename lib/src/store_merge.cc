// A store read back as records (store_merge.h): the scans litgraph-merge
// applies through the ingest path's RecordWriter.
#include "litgraph/store_merge.h"

#include <fmt/format.h>

#include <algorithm>

#include "litgraph/coding.h"

namespace litgraph {

namespace {

std::string StrOrEmpty(const Stmt& s, int col) {
  return s.IsNull(col) ? std::string() : s.Str(col);
}
int64_t IntOr(const Stmt& s, int col, int64_t otherwise) {
  return s.IsNull(col) ? otherwise : s.Int(col);
}

// The nodes a work names, read from a row at column `c` on: a venue's
// ext_id, name, issn_l, type, publisher; an institution's ext_id, name, ror,
// country_code, type (kInstitutionById's columns); a topic's ext_id and name,
// then its subfield's, field's and domain's (kTopicColumns).
SourceRef SourceAt(const Stmt& s, int c) {
  SourceRef r;
  r.ext_id = s.Str(c);
  r.name = s.Str(c + 1);
  r.issn_l = StrOrEmpty(s, c + 2);
  r.type = StrOrEmpty(s, c + 3);
  r.publisher = StrOrEmpty(s, c + 4);
  return r;
}
InstitutionRef InstitutionAt(const Stmt& s, int c) {
  InstitutionRef r;
  r.ext_id = s.Str(c);
  r.name = s.Str(c + 1);
  r.ror = StrOrEmpty(s, c + 2);
  r.country_code = StrOrEmpty(s, c + 3);
  r.type = StrOrEmpty(s, c + 4);
  return r;
}
TopicRef TopicAt(const Stmt& s, int c) {
  TopicRef t;
  t.ext_id = s.Str(c);
  t.name = s.Str(c + 1);
  t.subfield = {StrOrEmpty(s, c + 2), StrOrEmpty(s, c + 3)};
  t.field = {StrOrEmpty(s, c + 4), StrOrEmpty(s, c + 5)};
  t.domain = {StrOrEmpty(s, c + 6), StrOrEmpty(s, c + 7)};
  return t;
}
constexpr const char* kInstitutionById =
    "SELECT ext_id, name, ror, country_code, type FROM institution WHERE id = ?";
// A topic's columns (with `topic t` and kTopicParents joined).
constexpr const char* kTopicColumns =
    "t.ext_id, t.name, sf.ext_id, sf.name, f.ext_id, f.name, d.ext_id, d.name";
constexpr const char* kTopicParents =
    "LEFT JOIN subfield sf ON sf.id = t.subfield_id LEFT JOIN field f ON f.id = sf.field_id"
    " LEFT JOIN domain d ON d.id = f.domain_id";

// A scan ordered by paper id (its first column), read alongside the paper
// table: rows of the paper being read are taken, earlier ones skipped.
class ByPaper {
 public:
  ByPaper(Db* db, const char* sql) : st_(db->Prepare(sql)) { valid_ = st_.Step(); }
  // Calls fn for each row of `paper`.
  template <typename Fn>
  void Take(int64_t paper, Fn&& fn) {
    while (valid_ && st_.Int(0) < paper) valid_ = st_.Step();
    while (valid_ && st_.Int(0) == paper) {
      fn(st_);
      valid_ = st_.Step();
    }
  }

 private:
  Stmt st_;
  bool valid_ = false;
};

}  // namespace

Status ForEachStoredWork(Store* store, const std::function<void(StoredWork&)>& fn) {
  Db& db = store->db();
  Stmt papers = db.Prepare(
      "SELECT p.id, p.ext_id, p.doi, p.title, p.title_key, p.abstract, p.year, p.date, p.type,"
      " p.language, p.cited_by_count, p.referenced_works_count, p.is_oa, p.oa_status, p.oa_url,"
      " p.pdf_url, p.landing_page_url, p.updated_date, p.refs, p.related, p.oa_keywords,"
      " s.ext_id, s.name, s.issn_l, s.type, s.publisher, k.backend,"
      " EXISTS(SELECT 1 FROM vectors_stale v WHERE v.paper_id = p.id)"
      " FROM paper p LEFT JOIN source s ON s.id = p.source_id"
      " LEFT JOIN keyword_extracted k ON k.paper_id = p.id ORDER BY p.id");
  // Authorships by paper and position, topics and keywords by paper and id:
  // the primary keys' order, so each scan streams.
  ByPaper authorships(
      &db,
      "SELECT a.paper_id, a.raw_name, a.author_position, a.is_corresponding, a.institutions,"
      " u.ext_id, u.name, u.orcid FROM authorship a JOIN author u ON u.id = a.author_id"
      " ORDER BY a.paper_id, a.position");
  ByPaper topics(
      &db, fmt::format("SELECT pt.paper_id, pt.score, pt.is_primary, {} FROM paper_topic pt"
                       " JOIN topic t ON t.id = pt.topic_id {} ORDER BY pt.paper_id, pt.topic_id",
                       kTopicColumns, kTopicParents)
               .c_str());
  ByPaper keywords(&db,
                   "SELECT pk.paper_id, pk.score, k.text, k.label FROM paper_keyword pk"
                   " JOIN keyword k ON k.id = pk.keyword_id ORDER BY pk.paper_id, pk.keyword_id");
  Stmt& institution = store->CachedStmt(kInstitutionById);
  StoredWork sw;
  while (papers.Step()) {
    sw.id = papers.Int(0);
    sw.record = WorkRec();
    WorkRec& w = std::get<WorkRec>(sw.record);
    w.ext_id = papers.Str(1);
    w.is_openalex = ShortIdNumber(w.ext_id) != 0;
    w.doi = StrOrEmpty(papers, 2);
    w.title = papers.Str(3);
    sw.keys = WorkKeys();
    sw.keys.title_key = papers.Str(4);
    w.abstract = papers.Str(5);
    w.year = static_cast<int>(IntOr(papers, 6, 0));
    w.date = StrOrEmpty(papers, 7);
    w.type = StrOrEmpty(papers, 8);
    w.language = StrOrEmpty(papers, 9);
    w.cited_by_count = IntOr(papers, 10, -1);
    w.referenced_works_count = IntOr(papers, 11, -1);
    w.is_oa = static_cast<int>(IntOr(papers, 12, -1));
    w.oa_status = StrOrEmpty(papers, 13);
    w.oa_url = StrOrEmpty(papers, 14);
    w.pdf_url = StrOrEmpty(papers, 15);
    w.landing_page_url = StrOrEmpty(papers, 16);
    w.updated_date = StrOrEmpty(papers, 17);
    sw.keys.refs = std::string(papers.Blob(18));
    sw.keys.related = std::string(papers.Blob(19));
    if (!UnpackIdList(sw.keys.refs, &w.refs) || !UnpackIdList(sw.keys.related, &w.related))
      return Status::Corruption(
          fmt::format("{}: paper {}: its packed references are damaged", db.path(), w.ext_id));
    w.oa_keywords_json = StrOrEmpty(papers, 20);
    w.has_source = !papers.IsNull(21);
    if (w.has_source) w.source = SourceAt(papers, 21);
    sw.keywords_extracted = !papers.IsNull(26);
    sw.keyword_backend = StrOrEmpty(papers, 26);
    sw.vectors_stale = papers.Int(27) != 0;
    authorships.Take(sw.id, [&](const Stmt& s) {
      AuthorshipRec& a = w.authors.emplace_back();
      a.raw_name = StrOrEmpty(s, 1);
      a.author_position = StrOrEmpty(s, 2);
      a.is_corresponding = s.Int(3) != 0;
      a.author.ext_id = s.Str(5);
      a.author.name = s.Str(6);
      a.orcid = StrOrEmpty(s, 7);
      ForEachInstitutionId(s.Text(4), [&](uint32_t inst) {
        ScopedStmt q(institution.Bind(1, static_cast<int64_t>(inst)));
        if (q->Step()) a.institutions.push_back(InstitutionAt(*q, 0));
      });
    });
    topics.Take(sw.id, [&](const Stmt& s) {
      TopicRef& t = w.topics.emplace_back(TopicAt(s, 3));
      t.score = s.IsNull(1) ? 0 : s.Double(1);
      t.is_primary = s.Int(2) != 0;
    });
    sw.keywords.clear();
    keywords.Take(sw.id, [&](const Stmt& s) {
      sw.keywords.push_back({s.Str(2), static_cast<int>(s.Int(1)), StrOrEmpty(s, 3)});
    });
    fn(sw);
  }
  return Status::Ok();
}

namespace {

// Dense ids of one store -> another's, 0 while unknown: 4 bytes per id up to
// the largest (dense ids are 32-bit in the graph).
class IdMap {
 public:
  explicit IdMap(int64_t max_id) : to_(static_cast<size_t>(std::max<int64_t>(max_id, 0)) + 1, 0) {}
  uint32_t Get(int64_t id) const {
    return id >= 0 && static_cast<uint64_t>(id) < to_.size() ? to_[static_cast<size_t>(id)] : 0;
  }
  void Set(int64_t id, int64_t to) {
    if (id >= 0 && static_cast<uint64_t>(id) < to_.size())
      to_[static_cast<size_t>(id)] = static_cast<uint32_t>(to);
  }

 private:
  std::vector<uint32_t> to_;
};

// `out`'s id of the node `id` of a table of the store read: from `map`, else
// `ensure`d from the row `find` (bound to id) gives, else 0 (no such row).
template <typename Ensure>
uint32_t Mapped(IdMap* map, int64_t id, Stmt& find, Ensure&& ensure) {
  if (uint32_t to = map->Get(id)) return to;
  ScopedStmt row(find.Bind(1, id));
  if (!row->Step()) return 0;
  const int64_t to = ensure(*row);
  map->Set(id, to);
  return static_cast<uint32_t>(to);
}

}  // namespace

bool CanCopyStoredWorks(Store* out, Store* shard) {
  if (out->HasCitationTable()) return false;
  if (out->IsEmpty()) return true;
  Stmt ids = shard->db().Prepare("SELECT ext_id FROM paper");
  Stmt& find = out->CachedStmt("SELECT 1 FROM paper WHERE ext_id = ?");
  while (ids.Step()) {
    ScopedStmt f(find.Bind(1, ids.Text(0)));
    if (f->Step()) return false;
  }
  return true;
}

Status CopyStoredWorks(Store* out, Store* shard, RecordWriter* writer, KeywordWriter* keywords,
                       const std::function<void(const CopiedPaper&)>& fn,
                       const std::function<void(std::string_view step)>& step,
                       CopiedWorks* counts) {
  Db& from = shard->db();
  Db& to = out->db();
  const int64_t max_paper = shard->MaxId(NodeType::kPaper);
  IdMap papers(max_paper);
  std::vector<uint8_t> extracted(static_cast<size_t>(std::max<int64_t>(max_paper, 0)) + 1, 0);

  // Papers, each with its venue (ensured first, as applying the work does).
  step("papers");
  {
    IdMap sources(shard->MaxId(NodeType::kSource));
    Stmt find_source =
        from.Prepare("SELECT ext_id, name, issn_l, type, publisher FROM source WHERE id = ?");
    Stmt rows = from.Prepare(
        "SELECT p.id, p.ext_id, p.doi, p.title, p.title_key, p.abstract, p.year, p.date, p.type,"
        " p.language, p.source_id, p.cited_by_count, p.referenced_works_count, p.is_oa,"
        " p.oa_status, p.oa_url, p.pdf_url, p.landing_page_url, p.updated_date, p.refs,"
        " p.related, p.oa_keywords, k.backend,"
        " EXISTS(SELECT 1 FROM vectors_stale v WHERE v.paper_id = p.id)"
        " FROM paper p LEFT JOIN keyword_extracted k ON k.paper_id = p.id ORDER BY p.id");
    Stmt insert = to.Prepare(
        "INSERT INTO paper(ext_id, doi, title, title_key, abstract, year, date, type, language,"
        " source_id, cited_by_count, referenced_works_count, is_oa, oa_status, oa_url, pdf_url,"
        " landing_page_url, updated_date, refs, related, oa_keywords)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21)");
    Stmt done =
        to.Prepare("INSERT OR REPLACE INTO keyword_extracted(paper_id, backend) VALUES(?, ?)");
    Stmt pending = to.Prepare("INSERT OR IGNORE INTO keyword_pending(paper_id) VALUES(?)");
    while (rows.Step()) {
      const int64_t shard_id = rows.Int(0);
      int64_t refs = 0;
      auto count = [&](const PackedId&) { ++refs; };
      if (!ForEachPackedId(rows.Blob(19), count) ||
          !ForEachPackedId(rows.Blob(20), [](const PackedId&) {}))
        return Status::Corruption(fmt::format("{}: paper {}: its packed references are damaged",
                                              from.path(), rows.Text(1)));
      uint32_t source = 0;
      if (!rows.IsNull(10))
        source = Mapped(&sources, rows.Int(10), find_source,
                        [&](const Stmt& r) { return writer->EnsureSource(SourceAt(r, 0)); });
      for (int c = 1; c <= 21; ++c) {
        if (c == 10)
          insert.BindIntOrNull(10, source, 1);
        else
          insert.BindColumn(c, rows, c);
      }
      insert.Exec();
      const int64_t id = to.LastInsertRowid();
      papers.Set(shard_id, id);
      if (!rows.IsNull(22)) {
        if (shard_id >= 0 && static_cast<uint64_t>(shard_id) < extracted.size())
          extracted[static_cast<size_t>(shard_id)] = 1;  // else beyond MaxId: none
        done.Bind(1, id).BindStatic(2, rows.Text(22)).Exec();
      } else {
        pending.Bind(1, id).Exec();
      }
      ++counts->works;
      counts->references += refs;
      fn(CopiedPaper{id, shard_id, rows.Int(23) != 0});
    }
  }

  // Authorships by paper and position, renumbered as a work's list (a row
  // whose author row is missing is left out, as the work read back lacks it).
  step("authorships");
  {
    IdMap authors(shard->MaxId(NodeType::kAuthor));
    IdMap institutions(shard->MaxId(NodeType::kInstitution));
    Stmt find_author = from.Prepare("SELECT ext_id, name, orcid FROM author WHERE id = ?");
    Stmt find_institution = from.Prepare(kInstitutionById);
    Stmt rows = from.Prepare(
        "SELECT paper_id, author_id, raw_name, author_position, is_corresponding, institutions"
        " FROM authorship ORDER BY paper_id, position");
    Stmt insert = to.Prepare(
        "INSERT OR REPLACE INTO authorship(paper_id, position, author_id, raw_name,"
        " author_position, is_corresponding, institutions) VALUES(?,?,?,?,?,?,?)");
    int64_t last = 0, position = 0;
    std::string inst_ids;
    while (rows.Step()) {
      const uint32_t paper = papers.Get(rows.Int(0));
      if (paper == 0) continue;
      if (paper != last) last = paper, position = 0;
      const uint32_t author = Mapped(&authors, rows.Int(1), find_author, [&](const Stmt& r) {
        AuthorshipRec a;
        a.author.ext_id = r.Str(0);
        a.author.name = r.Str(1);
        a.orcid = StrOrEmpty(r, 2);
        return writer->EnsureAuthor(a);
      });
      if (author == 0) continue;
      inst_ids.clear();
      ForEachInstitutionId(rows.Text(5), [&](uint32_t inst) {
        const uint32_t i = Mapped(&institutions, inst, find_institution, [&](const Stmt& r) {
          return writer->EnsureInstitution(InstitutionAt(r, 0));
        });
        if (i == 0) return;
        if (!inst_ids.empty()) inst_ids += ' ';
        inst_ids += std::to_string(i);
      });
      insert.Bind(1, static_cast<int64_t>(paper)).Bind(2, position++);
      insert.Bind(3, static_cast<int64_t>(author));
      insert.BindStaticOrNull(4, rows.Text(2)).BindStaticOrNull(5, rows.Text(3));
      insert.Bind(6, rows.Int(4) != 0 ? 1 : 0).BindStaticOrNull(7, inst_ids);
      insert.Exec();
    }
  }

  // Topics by paper and topic, each with its hierarchy.
  step("topics");
  {
    IdMap topics(shard->MaxId(NodeType::kTopic));
    Stmt find_topic = from.Prepare(
        fmt::format("SELECT {} FROM topic t {} WHERE t.id = ?", kTopicColumns, kTopicParents));
    Stmt rows = from.Prepare(
        "SELECT paper_id, topic_id, score, is_primary FROM paper_topic"
        " ORDER BY paper_id, topic_id");
    Stmt insert = to.Prepare(
        "INSERT OR REPLACE INTO paper_topic(paper_id, topic_id, score, is_primary)"
        " VALUES(?,?,?,?)");
    while (rows.Step()) {
      const uint32_t paper = papers.Get(rows.Int(0));
      if (paper == 0) continue;
      const uint32_t topic = Mapped(&topics, rows.Int(1), find_topic, [&](const Stmt& r) {
        return writer->EnsureTopic(TopicAt(r, 0));
      });
      if (topic == 0) continue;
      insert.Bind(1, static_cast<int64_t>(paper)).Bind(2, static_cast<int64_t>(topic));
      insert.Bind(3, rows.IsNull(2) ? 0.0 : rows.Double(2)).Bind(4, rows.Int(3) != 0 ? 1 : 0);
      insert.Exec();
    }
  }

  // Keyword links of the papers whose keywords were extracted (a paper
  // waiting for extraction keeps none, as the work read back brings none).
  step("keywords");
  {
    IdMap ids(shard->MaxId(NodeType::kKeyword));
    Stmt find_keyword = from.Prepare("SELECT text, label FROM keyword WHERE id = ?");
    Stmt rows = from.Prepare(
        "SELECT paper_id, keyword_id, score FROM paper_keyword ORDER BY paper_id, keyword_id");
    Stmt insert = to.Prepare(
        "INSERT OR REPLACE INTO paper_keyword(paper_id, keyword_id, score) VALUES(?, ?, ?)");
    while (rows.Step()) {
      const int64_t shard_paper = rows.Int(0);
      const uint32_t paper = papers.Get(shard_paper);
      if (paper == 0 || !extracted[static_cast<size_t>(shard_paper)]) continue;
      // A keyword without text is none (the work read back has it not).
      const uint32_t keyword = Mapped(&ids, rows.Int(1), find_keyword, [&](const Stmt& r) {
        return r.Text(0).empty() ? int64_t{0} : keywords->KeywordId(r.Str(0), StrOrEmpty(r, 1));
      });
      if (keyword == 0) continue;
      insert.Bind(1, static_cast<int64_t>(paper)).Bind(2, static_cast<int64_t>(keyword));
      insert.Bind(3, rows.Int(2)).Exec();
      ++counts->paper_keywords;
    }
  }
  return Status::Ok();
}

void ForEachStoredEntity(Store* store, const std::function<void(Record&)>& fn) {
  Db& db = store->db();
  // Rows an entity record wrote: a stub row that a work created has none of
  // these columns.
  constexpr const char* kFromRecord =
      "(x.updated_date IS NOT NULL OR x.works_count IS NOT NULL"
      " OR x.cited_by_count IS NOT NULL)";
  {
    Stmt st = db.Prepare(fmt::format(
        "SELECT x.ext_id, x.name, x.orcid, x.works_count, x.cited_by_count, x.updated_date,"
        " i.ext_id, i.name, i.ror, i.country_code, i.type FROM author x"
        " LEFT JOIN institution i ON i.id = x.last_institution_id WHERE {} ORDER BY x.id",
        kFromRecord));
    while (st.Step()) {
      AuthorRec a;
      a.ext_id = st.Str(0);
      a.name = st.Str(1);
      a.orcid = StrOrEmpty(st, 2);
      a.works_count = IntOr(st, 3, -1);
      a.cited_by_count = IntOr(st, 4, -1);
      a.updated_date = StrOrEmpty(st, 5);
      if (!st.IsNull(6)) {
        InstitutionRef& r = a.last_known_institutions.emplace_back();
        r.ext_id = st.Str(6);
        r.name = st.Str(7);
        r.ror = StrOrEmpty(st, 8);
        r.country_code = StrOrEmpty(st, 9);
        r.type = StrOrEmpty(st, 10);
      }
      Record rec = std::move(a);
      fn(rec);
    }
  }
  {
    Stmt st = db.Prepare(
        fmt::format("SELECT x.ext_id, x.name, x.ror, x.country_code, x.type, x.works_count,"
                    " x.cited_by_count, x.updated_date FROM institution x WHERE {} ORDER BY x.id",
                    kFromRecord));
    while (st.Step()) {
      InstitutionRec r;
      r.inst.ext_id = st.Str(0);
      r.inst.name = st.Str(1);
      r.inst.ror = StrOrEmpty(st, 2);
      r.inst.country_code = StrOrEmpty(st, 3);
      r.inst.type = StrOrEmpty(st, 4);
      r.works_count = IntOr(st, 5, -1);
      r.cited_by_count = IntOr(st, 6, -1);
      r.updated_date = StrOrEmpty(st, 7);
      Record rec = std::move(r);
      fn(rec);
    }
  }
  {
    Stmt st = db.Prepare(
        fmt::format("SELECT x.ext_id, x.name, x.issn_l, x.type, x.publisher, x.works_count,"
                    " x.cited_by_count, x.updated_date FROM source x WHERE {} ORDER BY x.id",
                    kFromRecord));
    while (st.Step()) {
      SourceRec r;
      r.source.ext_id = st.Str(0);
      r.source.name = st.Str(1);
      r.source.issn_l = StrOrEmpty(st, 2);
      r.source.type = StrOrEmpty(st, 3);
      r.source.publisher = StrOrEmpty(st, 4);
      r.works_count = IntOr(st, 5, -1);
      r.cited_by_count = IntOr(st, 6, -1);
      r.updated_date = StrOrEmpty(st, 7);
      Record rec = std::move(r);
      fn(rec);
    }
  }
  {
    Stmt st = db.Prepare(
        "SELECT x.ext_id, x.name, x.description, x.keywords, x.works_count, x.updated_date,"
        " sf.ext_id, sf.name, f.ext_id, f.name, d.ext_id, d.name FROM topic x"
        " LEFT JOIN subfield sf ON sf.id = x.subfield_id LEFT JOIN field f ON f.id = sf.field_id"
        " LEFT JOIN domain d ON d.id = f.domain_id"
        " WHERE x.updated_date IS NOT NULL OR x.works_count IS NOT NULL"
        " OR x.description IS NOT NULL ORDER BY x.id");
    while (st.Step()) {
      TopicRec r;
      r.topic.ext_id = st.Str(0);
      r.topic.name = st.Str(1);
      r.description = StrOrEmpty(st, 2);
      r.keywords = StrOrEmpty(st, 3);
      r.works_count = IntOr(st, 4, -1);
      r.updated_date = StrOrEmpty(st, 5);
      r.topic.subfield = {StrOrEmpty(st, 6), StrOrEmpty(st, 7)};
      r.topic.field = {StrOrEmpty(st, 8), StrOrEmpty(st, 9)};
      r.topic.domain = {StrOrEmpty(st, 10), StrOrEmpty(st, 11)};
      Record rec = std::move(r);
      fn(rec);
    }
  }
}

void ForEachKeywordExtId(Store* store,
                         const std::function<void(int64_t id, std::string_view ext_id)>& fn) {
  Stmt st = store->db().Prepare("SELECT id, ext_id FROM keyword ORDER BY id");
  while (st.Step()) fn(st.Int(0), st.Text(1));
}

void ClearVectorsStale(Store* store, int64_t paper) {
  store->CachedStmt("DELETE FROM vectors_stale WHERE paper_id = ?").Bind(1, paper).Exec();
}

}  // namespace litgraph
