// The store's read side: lookups by the forms users type, the records tools
// print, and the scans derived-file builders read (store.h).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "litgraph/coding.h"
#include "litgraph/store.h"
#include "litgraph/text.h"

namespace litgraph {

namespace {

std::optional<std::string> TextOrNull(const Stmt& s, int col) {
  if (s.IsNull(col)) return std::nullopt;
  return s.Str(col);
}

std::optional<int64_t> IntOrNull(const Stmt& s, int col) {
  if (s.IsNull(col)) return std::nullopt;
  return s.Int(col);
}

// The first column of the first row, when there is one.
std::optional<int64_t> FirstInt(Stmt& s) {
  ScopedStmt q(s);
  if (q->Step()) return q->Int(0);
  return std::nullopt;
}

std::vector<int64_t> AllInts(Stmt& s) {
  ScopedStmt q(s);
  std::vector<int64_t> out;
  while (q->Step()) out.push_back(q->Int(0));
  return out;
}

}  // namespace

std::optional<int64_t> Store::PaperByExtId(const std::string& ext_id) {
  return NodeByExtId(NodeType::kPaper, ext_id);
}

std::optional<int64_t> Store::PaperByDoi(const std::string& doi) {
  std::string d = NormalizeDoi(doi);
  if (d.empty()) return std::nullopt;
  return FirstInt(CachedStmt("SELECT id FROM paper WHERE doi = ?").Bind(1, d));
}

std::vector<int64_t> Store::PapersByTitleKey(const std::string& title_key) {
  if (title_key.empty()) return {};
  return AllInts(CachedStmt("SELECT id FROM paper WHERE title_key = ? ORDER BY id LIMIT 50")
                     .Bind(1, title_key));
}

std::optional<int64_t> Store::ResolvePaperId(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (auto id = PaperByExtId(text)) return id;
  std::string shortid = ShortOpenAlexId(text);
  if (!shortid.empty() && shortid != text)
    if (auto id = PaperByExtId(shortid)) return id;
  if (!NormalizeDoi(text).empty())
    if (auto id = PaperByDoi(text)) return id;
  std::vector<int64_t> by_title = PapersByTitleKey(NormalizeTitleKey(text));
  if (by_title.size() == 1) return by_title[0];
  return std::nullopt;
}

std::optional<PaperSummary> Store::GetPaperSummary(int64_t id) {
  ScopedStmt s(CachedStmt(
      "SELECT p.ext_id, p.title, p.doi, p.type, p.year, p.cited_by_count, s.name, p.date "
      "FROM paper p LEFT JOIN source s ON s.id = p.source_id WHERE p.id = ?"));
  s->Bind(1, id);
  if (!s->Step()) return std::nullopt;
  PaperSummary p;
  p.id = id;
  p.ext_id = s->Str(0);
  p.title = s->Str(1);
  p.doi = s->Str(2);
  p.type = s->Str(3);
  p.year = s->IsNull(4) ? 0 : static_cast<int>(s->Int(4));
  p.cited_by_count = s->IsNull(5) ? -1 : s->Int(5);
  p.venue = s->Str(6);
  p.date = s->Str(7);
  ScopedStmt a(CachedStmt(
      "SELECT a.name, au.raw_name FROM authorship au JOIN author a ON a.id = au.author_id "
      "WHERE au.paper_id = ? ORDER BY au.position"));
  a->Bind(1, id);
  while (a->Step()) {
    std::string name = a->Str(0);
    p.authors.push_back(name.empty() ? a->Str(1) : name);
  }
  return p;
}

namespace {

// The paper row's own fields; false when there is no such paper.
bool ReadPaperRow(Stmt& p, PaperDetails* d) {
  if (!p.Step()) return false;
  d->abstract = p.Str(0);
  d->date = TextOrNull(p, 1);
  d->work_type = TextOrNull(p, 2);
  d->language = TextOrNull(p, 3);
  d->referenced_works_count = IntOrNull(p, 4);
  if (!p.IsNull(5)) d->is_oa = p.Int(5) != 0;
  d->oa_status = TextOrNull(p, 6);
  d->oa_url = TextOrNull(p, 7);
  d->pdf_url = TextOrNull(p, 8);
  d->landing_page_url = TextOrNull(p, 9);
  d->updated_date = TextOrNull(p, 10);
  if (!p.IsNull(11)) {
    d->source_id = p.Str(11);
    d->source_name = p.Str(12);
  }
  std::vector<std::string> refs;
  UnpackIdList(p.Blob(13), &refs);
  d->stored_references = refs.size();
  if (!p.IsNull(14)) d->oa_keywords_json = p.Str(14);
  return true;
}

PaperDetails::Authorship ReadAuthorship(Stmt& a, Stmt& inst) {
  PaperDetails::Authorship au;
  au.position = a.Int(0);
  au.ext_id = a.Str(1);
  au.name = a.Str(2);
  au.raw_name = TextOrNull(a, 3);
  au.author_position = TextOrNull(a, 4);
  au.is_corresponding = a.Int(5) != 0;
  au.orcid = TextOrNull(a, 7);
  std::string ids = a.Str(6);  // space-separated institution ids
  size_t pos = 0;
  while (pos < ids.size()) {
    size_t e = ids.find(' ', pos);
    if (e == std::string::npos) e = ids.size();
    ScopedStmt i(inst.Bind(1, static_cast<int64_t>(std::stoll(ids.substr(pos, e - pos)))));
    if (i->Step()) au.institutions.push_back({i->Str(0), i->Str(1)});
    pos = e + 1;
  }
  return au;
}

}  // namespace

std::optional<PaperDetails> Store::GetPaperDetails(int64_t id) {
  PaperDetails d;
  {
    ScopedStmt p(CachedStmt(
        "SELECT p.abstract, p.date, p.type, p.language, p.referenced_works_count, p.is_oa,"
        " p.oa_status, p.oa_url, p.pdf_url, p.landing_page_url, p.updated_date, s.ext_id,"
        " s.name, p.refs, p.oa_keywords FROM paper p LEFT JOIN source s ON s.id = p.source_id"
        " WHERE p.id = ?"));
    if (!ReadPaperRow(p->Bind(1, id), &d)) return std::nullopt;
  }
  {
    ScopedStmt a(CachedStmt(
        "SELECT au.position, a.ext_id, a.name, au.raw_name, au.author_position,"
        " au.is_corresponding, au.institutions, a.orcid FROM authorship au"
        " JOIN author a ON a.id = au.author_id WHERE au.paper_id = ? ORDER BY au.position"));
    Stmt& inst = CachedStmt("SELECT ext_id, name FROM institution WHERE id = ?");
    a->Bind(1, id);
    while (a->Step()) d.authorships.push_back(ReadAuthorship(*a, inst));
  }
  {
    ScopedStmt t(CachedStmt(
        "SELECT t.ext_id, t.name, pt.score, pt.is_primary, sf.name, f.name, d.name"
        " FROM paper_topic pt JOIN topic t ON t.id = pt.topic_id"
        " LEFT JOIN subfield sf ON sf.id = t.subfield_id LEFT JOIN field f ON f.id = sf.field_id"
        " LEFT JOIN domain d ON d.id = f.domain_id WHERE pt.paper_id = ?"
        " ORDER BY pt.is_primary DESC, pt.score DESC, t.ext_id"));
    t->Bind(1, id);
    while (t->Step()) {
      PaperDetails::Topic topic{t->Str(0),        t->Str(1),         std::nullopt,
                                t->Int(3) != 0,   TextOrNull(*t, 4), TextOrNull(*t, 5),
                                TextOrNull(*t, 6)};
      if (!t->IsNull(2)) topic.score = t->Double(2);
      d.topics.push_back(std::move(topic));
    }
  }
  {
    ScopedStmt k(CachedStmt(
        "SELECT k.ext_id, k.text, pk.score, coalesce(k.label, k.text) FROM paper_keyword pk"
        " JOIN keyword k ON k.id = pk.keyword_id WHERE pk.paper_id = ?"
        " ORDER BY pk.score DESC, k.text"));
    k->Bind(1, id);
    while (k->Step()) d.keywords.push_back({k->Str(0), k->Str(1), k->Int(2), k->Str(3)});
  }
  return d;
}

std::optional<PaperText> Store::GetPaperText(int64_t id) {
  ScopedStmt s(CachedStmt("SELECT title, abstract, ext_id FROM paper WHERE id = ?").Bind(1, id));
  if (!s->Step()) return std::nullopt;
  return PaperText{id, s->Str(0), s->Str(1), s->Str(2)};
}

namespace {

const char* TextSql(TextColumn c) {
  switch (c) {
    case TextColumn::kPaperTitle:
      return "SELECT title FROM paper WHERE id = ?";
    case TextColumn::kPaperAbstract:
      return "SELECT abstract FROM paper WHERE id = ?";
    case TextColumn::kKeywordText:
      return "SELECT text FROM keyword WHERE id = ?";
  }
  return "";
}

const char* ScanTextSql(TextColumn c) {
  switch (c) {
    case TextColumn::kPaperTitle:
      return "SELECT id, title FROM paper ORDER BY id";
    case TextColumn::kPaperAbstract:
      return "SELECT id, abstract FROM paper ORDER BY id";
    case TextColumn::kKeywordText:
      return "SELECT id, text FROM keyword ORDER BY id";
  }
  return "";
}

}  // namespace

std::string Store::GetText(TextColumn column, int64_t id) {
  ScopedStmt s(CachedStmt(TextSql(column)).Bind(1, id));
  return s->Step() ? s->Str(0) : std::string();
}

std::optional<Store::PaperFacets> Store::GetPaperFacets(int64_t id) {
  ScopedStmt s(CachedStmt("SELECT year, source_id, type FROM paper WHERE id = ?").Bind(1, id));
  if (!s->Step()) return std::nullopt;
  PaperFacets f;
  f.year = s->IsNull(0) ? 0 : static_cast<int>(s->Int(0));
  f.source_id = s->IsNull(1) ? 0 : s->Int(1);
  f.type = s->Str(2);
  return f;
}

bool Store::PaperInField(int64_t paper, const std::string& field) {
  ScopedStmt s(CachedStmt(
      "SELECT 1 FROM paper_topic pt JOIN topic t ON t.id = pt.topic_id JOIN subfield sf ON "
      "sf.id = t.subfield_id JOIN field f ON f.id = sf.field_id WHERE pt.paper_id = ?1 AND "
      "(f.name = ?2 COLLATE NOCASE OR f.ext_id = ?2 OR f.ext_id = 'fields/' || ?2) LIMIT 1"));
  s->Bind(1, paper).Bind(2, field);
  return s->Step();
}

bool Store::IsEmpty() { return !db_.QueryInt("SELECT 1 FROM paper LIMIT 1").has_value(); }

int64_t Store::PaperCount() { return db_.QueryInt("SELECT count(*) FROM paper").value_or(0); }

int64_t Store::MaxId(NodeType t) {
  return db_.QueryInt(fmt::format("SELECT max(id) FROM {}", NodeTypeName(t))).value_or(0);
}

namespace {

// Per node type (NodeType order).
constexpr const char* kLabelSql[kNodeTypeCount] = {
    "SELECT ext_id, title FROM paper WHERE id = ?",
    "SELECT ext_id, name FROM author WHERE id = ?",
    "SELECT ext_id, name FROM institution WHERE id = ?",
    "SELECT ext_id, name FROM source WHERE id = ?",
    "SELECT ext_id, name FROM topic WHERE id = ?",
    "SELECT ext_id, name FROM subfield WHERE id = ?",
    "SELECT ext_id, name FROM field WHERE id = ?",
    "SELECT ext_id, name FROM domain WHERE id = ?",
    "SELECT ext_id, text FROM keyword WHERE id = ?",
};
constexpr const char* kByExtIdSql[kNodeTypeCount] = {
    "SELECT id FROM paper WHERE ext_id = ?",       "SELECT id FROM author WHERE ext_id = ?",
    "SELECT id FROM institution WHERE ext_id = ?", "SELECT id FROM source WHERE ext_id = ?",
    "SELECT id FROM topic WHERE ext_id = ?",       "SELECT id FROM subfield WHERE ext_id = ?",
    "SELECT id FROM field WHERE ext_id = ?",       "SELECT id FROM domain WHERE ext_id = ?",
    "SELECT id FROM keyword WHERE ext_id = ?",
};

}  // namespace

std::optional<std::pair<std::string, std::string>> Store::NodeLabel(NodeType t, int64_t id) {
  ScopedStmt s(CachedStmt(kLabelSql[static_cast<int>(t)]).Bind(1, id));
  if (!s->Step()) return std::nullopt;
  return std::make_pair(s->Str(0), s->Str(1));
}

std::optional<int64_t> Store::NodeByExtId(NodeType t, const std::string& ext_id) {
  return FirstInt(CachedStmt(kByExtIdSql[static_cast<int>(t)]).Bind(1, ext_id));
}

std::optional<std::pair<NodeType, int64_t>> Store::ResolveNode(const std::string& ext_id,
                                                               const std::string& type_hint) {
  auto of = [](NodeType t,
               std::optional<int64_t> id) -> std::optional<std::pair<NodeType, int64_t>> {
    if (!id) return std::nullopt;
    return std::make_pair(t, *id);
  };
  NodeType t;
  if (!type_hint.empty() && ParseNodeType(type_hint, &t)) {
    if (t == NodeType::kPaper) return of(t, ResolvePaperId(ext_id));
    std::string key =
        t == NodeType::kKeyword && ext_id.rfind("kw:", 0) != 0 ? "kw:" + ext_id : ext_id;
    std::string shortid = ShortOpenAlexId(key);
    return of(t, NodeByExtId(t, shortid.empty() ? key : shortid));
  }
  if (ext_id.rfind("kw:", 0) == 0)
    return of(NodeType::kKeyword, NodeByExtId(NodeType::kKeyword, ext_id));
  if (ext_id.rfind("name:", 0) == 0)
    return of(NodeType::kAuthor, NodeByExtId(NodeType::kAuthor, ext_id));
  if (ext_id.rfind("venue:", 0) == 0)
    return of(NodeType::kSource, NodeByExtId(NodeType::kSource, ext_id));
  std::string shortid = ShortOpenAlexId(ext_id);
  if (!shortid.empty()) {
    NodeType ot = NodeType::kPaper;
    if (shortid.rfind("subfields/", 0) == 0)
      ot = NodeType::kSubfield;
    else if (shortid.rfind("fields/", 0) == 0)
      ot = NodeType::kField;
    else if (shortid.rfind("domains/", 0) == 0)
      ot = NodeType::kDomain;
    else if (shortid[0] == 'A')
      ot = NodeType::kAuthor;
    else if (shortid[0] == 'I')
      ot = NodeType::kInstitution;
    else if (shortid[0] == 'S')
      ot = NodeType::kSource;
    else if (shortid[0] == 'T')
      ot = NodeType::kTopic;
    if (ot != NodeType::kPaper) return of(ot, NodeByExtId(ot, shortid));
  }
  return of(NodeType::kPaper, ResolvePaperId(ext_id));
}

std::vector<int64_t> Store::SourcesMatching(const std::string& id_or_issn,
                                            const std::string& name_key) {
  Stmt s = db_.Prepare(
      "SELECT id FROM source WHERE ext_id = ?1 OR issn_l = ?1 OR (?2 <> '' AND name_key = ?2)");
  s.Bind(1, id_or_issn).Bind(2, name_key);
  std::vector<int64_t> ids = AllInts(s);
  if (!ids.empty() || name_key.empty()) return ids;
  // No exact name: names holding the words as whole words ("acl" matches
  // "annual meeting of the acl", never "eacl").
  Stmt w = db_.Prepare(
      "SELECT id FROM source WHERE instr(' ' || name_key || ' ', ' ' || ?1 || ' ') > 0");
  w.Bind(1, name_key);
  return AllInts(w);
}

std::vector<int64_t> Store::AuthorsByNameKey(const std::string& name_key, size_t limit) {
  Stmt s = db_.Prepare("SELECT id FROM author WHERE name_key = ? LIMIT ?");
  s.Bind(1, name_key).Bind(2, static_cast<int64_t>(limit));
  return AllInts(s);
}

std::vector<int64_t> Store::AuthorsWithNameWords(const std::string& name_key, size_t limit) {
  std::string match;
  size_t p = 0;
  while (p < name_key.size()) {
    size_t e = name_key.find(' ', p);
    if (e == std::string::npos) e = name_key.size();
    match += (match.empty() ? "\"" : " AND \"") + name_key.substr(p, e - p) + "\"";
    p = e + 1;
  }
  if (match.empty()) return {};
  Stmt s = db_.Prepare("SELECT rowid FROM author_fts WHERE author_fts MATCH ? LIMIT ?");
  s.Bind(1, match).Bind(2, static_cast<int64_t>(limit));
  return AllInts(s);
}

std::vector<int64_t> Store::PapersOfAuthor(int64_t author) {
  return AllInts(CachedStmt("SELECT paper_id FROM authorship WHERE author_id = ?").Bind(1, author));
}

std::optional<std::string> Store::CacheGet(const std::string& key) {
  ScopedStmt s(CachedStmt("SELECT value FROM backend_cache WHERE key = ?").Bind(1, key));
  if (!s->Step()) return std::nullopt;
  return s->Str(0);
}

std::vector<int64_t> Store::PaperIds() {
  // Without ORDER BY, SQLite scans the smallest covering index (title_key)
  // instead of the table: at 1M papers 0.4 s and a few MB, where the table
  // scan read (and, with mmap, mapped) every row's abstract.
  Stmt s = db_.Prepare("SELECT id FROM paper");
  std::vector<int64_t> ids = AllInts(s);
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<int64_t> Store::PaperIdsWithoutKeywords() {
  const bool pending =
      db_.QueryInt("SELECT count(*) FROM sqlite_master WHERE name = 'keyword_pending'")
          .value_or(0) > 0;
  Stmt s = db_.Prepare(pending ? "SELECT paper_id FROM keyword_pending ORDER BY paper_id"
                               : "SELECT p.id FROM paper p WHERE NOT EXISTS"
                                 " (SELECT 1 FROM keyword_extracted k WHERE k.paper_id = p.id)"
                                 " ORDER BY p.id");
  return AllInts(s);
}

std::vector<int64_t> Store::PaperIdsWithStaleVectors() {
  Stmt s = db_.Prepare("SELECT paper_id FROM vectors_stale ORDER BY paper_id");
  return AllInts(s);
}

void Store::ForEachPaperExtId(const std::function<void(int64_t, std::string_view)>& fn) {
  Stmt st = db_.Prepare("SELECT id, ext_id FROM paper");
  while (st.Step()) fn(st.Int(0), st.Text(1));
}

void Store::ForEachPaperLinks(const std::function<void(const PaperLinksRow&)>& fn) {
  Stmt st = db_.Prepare(
      "SELECT id, refs, related, source_id, cited_by_count, year FROM paper ORDER BY id");
  while (st.Step())
    fn(PaperLinksRow{st.Int(0), st.Blob(1), st.Blob(2), IntOrNull(st, 3), IntOrNull(st, 4),
                     IntOrNull(st, 5)});
}

void Store::ForEachPaperText(
    const std::function<void(int64_t, std::string_view, std::string_view)>& fn, int64_t every) {
  Stmt st = every > 1
                ? db_.Prepare("SELECT id, title, abstract FROM paper WHERE id % ? = 0 ORDER BY id")
                : db_.Prepare("SELECT id, title, abstract FROM paper ORDER BY id");
  if (every > 1) st.Bind(1, every);
  while (st.Step()) fn(st.Int(0), st.Text(1), st.Text(2));
}

void Store::ForEachText(TextColumn column,
                        const std::function<void(int64_t, std::string_view)>& fn) {
  Stmt st = db_.Prepare(ScanTextSql(column));
  while (st.Step()) fn(st.Int(0), st.Text(1));
}

void Store::ForEachKeywordOfPapers(int64_t min_papers, const std::function<void(int64_t)>& fn) {
  Stmt st = db_.Prepare("SELECT id FROM keyword WHERE paper_count >= ? ORDER BY id");
  st.Bind(1, min_papers);
  while (st.Step()) fn(st.Int(0));
}

void Store::ForEachAuthorship(const std::function<void(const AuthorshipRow&)>& fn) {
  Stmt st = db_.Prepare(
      "SELECT paper_id, position, author_id, is_corresponding, institutions FROM authorship"
      " ORDER BY paper_id, position");
  while (st.Step()) fn(AuthorshipRow{st.Int(0), st.Int(1), st.Int(2), st.Int(3) != 0, st.Text(4)});
}

void Store::ForEachAuthorLastInstitution(const std::function<void(int64_t, int64_t)>& fn) {
  Stmt st = db_.Prepare(
      "SELECT id, last_institution_id FROM author WHERE last_institution_id IS NOT NULL");
  while (st.Step()) fn(st.Int(0), st.Int(1));
}

void Store::ForEachPaperTopic(
    const std::function<void(int64_t, int64_t, std::optional<double>, bool)>& fn) {
  Stmt st = db_.Prepare("SELECT paper_id, topic_id, score, is_primary FROM paper_topic");
  while (st.Step()) {
    std::optional<double> score;
    if (!st.IsNull(2)) score = st.Double(2);
    fn(st.Int(0), st.Int(1), score, st.Int(3) != 0);
  }
}

void Store::ForEachParent(NodeType child, const std::function<void(int64_t, int64_t)>& fn) {
  const char* sql = child == NodeType::kTopic      ? "SELECT id, subfield_id FROM topic"
                    : child == NodeType::kSubfield ? "SELECT id, field_id FROM subfield"
                    : child == NodeType::kField    ? "SELECT id, domain_id FROM field"
                                                   : nullptr;
  if (!sql) return;
  Stmt st = db_.Prepare(sql);
  while (st.Step())
    if (!st.IsNull(1)) fn(st.Int(0), st.Int(1));
}

void Store::ForEachPaperKeyword(const std::function<void(int64_t, int64_t, int64_t)>& fn) {
  Stmt st = db_.Prepare("SELECT paper_id, keyword_id, score FROM paper_keyword ORDER BY paper_id");
  while (st.Step()) fn(st.Int(0), st.Int(1), st.Int(2));
}

void Store::ForEachPaperLinksOf(const std::vector<uint32_t>& papers,
                                const std::function<void(const PaperLinksRow&)>& fn) {
  Stmt& st = CachedStmt(
      "SELECT id, refs, related, source_id, cited_by_count, year FROM paper WHERE id = ?");
  for (uint32_t id : papers) {
    ScopedStmt s(st.Bind(1, static_cast<int64_t>(id)));
    if (s->Step())
      fn(PaperLinksRow{s->Int(0), s->Blob(1), s->Blob(2), IntOrNull(*s, 3), IntOrNull(*s, 4),
                       IntOrNull(*s, 5)});
  }
}

void Store::ForEachAuthorshipOf(const std::vector<uint32_t>& papers,
                                const std::function<void(const AuthorshipRow&)>& fn) {
  Stmt& st = CachedStmt(
      "SELECT paper_id, position, author_id, is_corresponding, institutions FROM authorship"
      " WHERE paper_id = ? ORDER BY position");
  for (uint32_t id : papers) {
    ScopedStmt s(st.Bind(1, static_cast<int64_t>(id)));
    while (s->Step())
      fn(AuthorshipRow{s->Int(0), s->Int(1), s->Int(2), s->Int(3) != 0, s->Text(4)});
  }
}

std::optional<int64_t> Store::AuthorLastInstitution(int64_t author) {
  return FirstInt(CachedStmt("SELECT last_institution_id FROM author WHERE id = ? AND"
                             " last_institution_id IS NOT NULL")
                      .Bind(1, author));
}

std::optional<std::string> Store::KeywordLabel(int64_t keyword) {
  ScopedStmt s(
      CachedStmt("SELECT label FROM keyword WHERE id = ? AND label IS NOT NULL").Bind(1, keyword));
  if (!s->Step()) return std::nullopt;
  return s->Str(0);
}

std::optional<int64_t> Store::AuthorCurrentInstitution(int64_t author) {
  if (auto last = AuthorLastInstitution(author)) return last;
  Stmt& st = CachedStmt(
      "SELECT a.institutions FROM authorship a JOIN paper p ON p.id = a.paper_id"
      " WHERE a.author_id = ? AND a.institutions IS NOT NULL AND a.institutions != ''"
      " ORDER BY p.year DESC, p.id DESC LIMIT 1");
  ScopedStmt s(st.Bind(1, author));
  if (!s->Step()) return std::nullopt;
  int64_t first = 0;
  const std::string_view ids = s->Text(0);
  auto [end, ec] = std::from_chars(ids.data(), ids.data() + ids.size(), first);
  if (ec != std::errc() || end == ids.data()) return std::nullopt;
  return first;
}

void Store::ForEachPaperKeywordOf(const std::vector<uint32_t>& papers,
                                  const std::function<void(int64_t, int64_t, int64_t)>& fn) {
  Stmt& st = CachedStmt("SELECT paper_id, keyword_id, score FROM paper_keyword WHERE paper_id = ?");
  for (uint32_t id : papers) {
    ScopedStmt s(st.Bind(1, static_cast<int64_t>(id)));
    while (s->Step()) fn(s->Int(0), s->Int(1), s->Int(2));
  }
}

void Store::ForEachPaperTopicOf(
    const std::vector<uint32_t>& papers,
    const std::function<void(int64_t, int64_t, std::optional<double>, bool)>& fn) {
  Stmt& st = CachedStmt(
      "SELECT paper_id, topic_id, score, is_primary FROM paper_topic WHERE paper_id = ?");
  for (uint32_t id : papers) {
    ScopedStmt s(st.Bind(1, static_cast<int64_t>(id)));
    while (s->Step()) {
      std::optional<double> score;
      if (!s->IsNull(2)) score = s->Double(2);
      fn(s->Int(0), s->Int(1), score, s->Int(3) != 0);
    }
  }
}

std::string Store::PaperExtId(int64_t id) {
  ScopedStmt s(CachedStmt("SELECT ext_id FROM paper WHERE id = ?").Bind(1, id));
  return s->Step() ? s->Str(0) : std::string();
}

// --- Export -----------------------------------------------------------------

namespace {

using enum AttrType;

// A node type's exported columns and the SQL that reads each, over its table
// aliased `n` (papers join their source as `s`). Names follow SciAtlas's Neo4j
// schema (its Appendix A) where it has the attribute; "type" is the node's
// label in GraphML, so the rows' own types are work_type, source_type and
// institution_type.
struct NodeColumnSql {
  AttrColumn column;
  const char* expr;
};

constexpr NodeColumnSql kPaperColumns[] = {
    {{"id", kString}, "n.ext_id"},
    {{"title", kString}, "n.title"},
    {{"title_normalized", kString}, "n.title_key"},
    {{"year", kInt}, "n.year"},
    {{"publication_date", kString}, "n.date"},
    {{"doi", kString}, "n.doi"},
    {{"work_type", kString}, "n.type"},
    {{"language", kString}, "n.language"},
    {{"cited_by_count", kInt}, "n.cited_by_count"},
    {{"referenced_works_count", kInt}, "n.referenced_works_count"},
    {{"is_oa", kBool}, "n.is_oa"},
    {{"oa_status", kString}, "n.oa_status"},
    {{"pdf_url", kString}, "n.pdf_url"},
    {{"venue_source_id", kString}, "s.ext_id"},
    {{"venue_source_display_name", kString}, "s.name"},
    {{"updated_date", kString}, "n.updated_date"},
    {{"abstract", kString}, "n.abstract"},
};
constexpr NodeColumnSql kAuthorColumns[] = {
    {{"id", kString}, "n.ext_id"},
    {{"display_name", kString}, "n.name"},
    {{"orcid", kString}, "n.orcid"},
    {{"works_count", kInt}, "n.works_count"},
    {{"cited_by_count", kInt}, "n.cited_by_count"},
};
constexpr NodeColumnSql kInstitutionColumns[] = {
    {{"id", kString}, "n.ext_id"},
    {{"display_name", kString}, "n.name"},
    {{"ror", kString}, "n.ror"},
    {{"country_code", kString}, "n.country_code"},
    {{"institution_type", kString}, "n.type"},
    {{"works_count", kInt}, "n.works_count"},
    {{"cited_by_count", kInt}, "n.cited_by_count"},
};
constexpr NodeColumnSql kSourceColumns[] = {
    {{"id", kString}, "n.ext_id"},
    {{"display_name", kString}, "n.name"},
    {{"issn_l", kString}, "n.issn_l"},
    {{"source_type", kString}, "n.type"},
    {{"publisher", kString}, "n.publisher"},
    {{"works_count", kInt}, "n.works_count"},
    {{"cited_by_count", kInt}, "n.cited_by_count"},
};
constexpr NodeColumnSql kTopicColumns[] = {
    {{"id", kString}, "n.ext_id"},
    {{"display_name", kString}, "n.name"},
    {{"description", kString}, "n.description"},
    {{"works_count", kInt}, "n.works_count"},
};
constexpr NodeColumnSql kNamedColumns[] = {
    // subfield, field, domain
    {{"id", kString}, "n.ext_id"},
    {{"display_name", kString}, "n.name"},
};
constexpr NodeColumnSql kKeywordColumns[] = {
    {{"id", kString}, "n.ext_id"},
    {{"text", kString}, "n.text"},
    {{"frequency", kInt}, "n.paper_count"},
};

std::span<const NodeColumnSql> ColumnSql(NodeType t) {
  switch (t) {
    case NodeType::kPaper:
      return kPaperColumns;
    case NodeType::kAuthor:
      return kAuthorColumns;
    case NodeType::kInstitution:
      return kInstitutionColumns;
    case NodeType::kSource:
      return kSourceColumns;
    case NodeType::kTopic:
      return kTopicColumns;
    case NodeType::kSubfield:
    case NodeType::kField:
    case NodeType::kDomain:
      return kNamedColumns;
    case NodeType::kKeyword:
      return kKeywordColumns;
  }
  return kNamedColumns;
}

// The columns of every type, built once from the SQL tables above.
struct ColumnLists {
  std::vector<AttrColumn> lists[kNodeTypeCount];
  ColumnLists() {
    for (int t = 0; t < kNodeTypeCount; ++t)
      for (const NodeColumnSql& c : ColumnSql(static_cast<NodeType>(t)))
        lists[t].push_back(c.column);
  }
};

std::string NodeRowSql(NodeType t, bool one) {
  std::string sql = "SELECT n.id";
  for (const NodeColumnSql& c : ColumnSql(t)) sql += fmt::format(", {}", c.expr);
  sql += fmt::format(" FROM {} n", NodeTypeName(t));
  if (t == NodeType::kPaper) sql += " LEFT JOIN source s ON s.id = n.source_id";
  sql += one ? " WHERE n.id = ?" : " ORDER BY n.id";
  return sql;
}

void ReadNodeRow(const Stmt& st, std::span<const AttrColumn> columns,
                 std::vector<AttrValue>* values, const std::function<void(const NodeRow&)>& fn) {
  for (size_t i = 0; i < columns.size(); ++i) {
    const int col = static_cast<int>(i) + 1;
    AttrValue& v = (*values)[i];
    v = AttrValue{};
    if (st.IsNull(col)) continue;
    v.null = false;
    switch (columns[i].type) {
      case kString:
        v.s = st.Text(col);
        v.null = v.s.empty();
        break;
      case kInt:
      case kBool:
        v.i = st.Int(col);
        break;
      case kFloat:
        v.f = st.Double(col);
        break;
    }
  }
  fn(NodeRow{st.Int(0), *values});
}

}  // namespace

std::span<const AttrColumn> Store::NodeColumns(NodeType t) {
  static const ColumnLists lists;
  return lists.lists[static_cast<int>(t)];
}

void Store::ForEachNodeRow(NodeType t, const std::vector<uint32_t>* ids,
                           const std::function<void(const NodeRow&)>& fn) {
  std::span<const AttrColumn> columns = NodeColumns(t);
  std::vector<AttrValue> values(columns.size());
  Stmt st = db_.Prepare(NodeRowSql(t, ids != nullptr));
  if (!ids) {
    while (st.Step()) ReadNodeRow(st, columns, &values, fn);
    return;
  }
  for (uint32_t id : *ids) {
    ScopedStmt s(st.Bind(1, static_cast<int64_t>(id)));
    if (s->Step()) ReadNodeRow(*s, columns, &values, fn);
  }
}

bool Store::HasCitationTable() {
  return FirstInt(CachedStmt(
                      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'citation_ref'"))
      .has_value();
}

}  // namespace litgraph
