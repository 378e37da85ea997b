// The store's write side (store_write.h): record upserts, the bulk-load mode,
// keyword rows and the backend answer cache.
#include "litgraph/store_write.h"

#include <fmt/format.h>

#include <algorithm>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

#include "litgraph/coding.h"
#include "litgraph/flat_map.h"
#include "litgraph/text.h"

namespace litgraph {

namespace {

// ext_id -> row id of the nodes a run has met. OpenAlex ids (a capital
// letter and a number: "A5023888391") key a flat table, one cache miss per
// lookup on the writer thread's hottest path; other ids a string map.
class IdCache {
 public:
  // 0 when unknown (row ids start at 1).
  int64_t Find(const std::string& ext) const {
    if (uint64_t k = Key(ext)) {
      const int64_t* id = numbered_.Find(k);
      return id ? *id : 0;
    }
    auto it = named_.find(ext);
    return it == named_.end() ? 0 : it->second;
  }
  void Put(const std::string& ext, int64_t id) {
    if (size() >= kMaxEntries) {  // bound memory on huge runs
      numbered_.clear();
      named_.clear();
    }
    if (uint64_t k = Key(ext))
      numbered_[k] = id;
    else
      named_[ext] = id;
  }
  size_t size() const { return numbered_.size() + named_.size(); }
  // Misses lately: whether the last kNewRun were all nodes the store did
  // not have (Ensure then inserts before it looks).
  void NoteMiss(bool was_new) { new_run_ = was_new ? std::min(new_run_ + 1, kNewRun) : 0; }
  bool MissesAreNew() const { return new_run_ >= kNewRun; }

 private:
  static constexpr size_t kMaxEntries = 4000000;
  static constexpr int kNewRun = 64;
  int new_run_ = 0;
  // The letter in the top byte, the number (no leading zero, < 2^56) below;
  // 0 for any other id.
  static uint64_t Key(std::string_view ext) {
    uint64_t n = ShortIdNumber(ext);
    if (n == 0 || ext[1] == '0' || n >= (uint64_t{1} << 56)) return 0;
    return (static_cast<uint64_t>(ext[0]) << 56) | n;
  }

  U64Map<int64_t> numbered_;
  std::unordered_map<std::string, int64_t> named_;
};

// What a KeywordWriter cache entry costs besides its text: the hash node,
// the string and a bucket.
constexpr size_t kKeywordCacheEntryBytes = 80;

}  // namespace

class RecordWriter::Impl {
 public:
  Impl(Store* store, WriteCounts* stats,
       std::function<void(int64_t, std::string&&, std::string&&)> on_text)
      : db_(&store->db()), stats_(stats), on_text_(std::move(on_text)) {
    find_paper_ =
        db_->Prepare("SELECT id, updated_date, title, abstract FROM paper WHERE ext_id = ?");
    insert_paper_ = db_->Prepare(
        "INSERT INTO paper(ext_id, doi, title, title_key, abstract, year, date, type, language,"
        " source_id, cited_by_count, referenced_works_count, is_oa, oa_status, oa_url, pdf_url,"
        " landing_page_url, updated_date, refs, related, oa_keywords)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21)"
        " ON CONFLICT(ext_id) DO NOTHING");
    update_paper_ = db_->Prepare(
        "UPDATE paper SET ext_id=?1, doi=?2, title=?3, title_key=?4, abstract=?5, year=?6,"
        " date=?7, type=?8, language=?9, source_id=?10, cited_by_count=?11,"
        " referenced_works_count=?12, is_oa=?13, oa_status=?14, oa_url=?15, pdf_url=?16,"
        " landing_page_url=?17, updated_date=?18, refs=?19, related=?20, oa_keywords=?21"
        " WHERE id=?22");
    delete_authorships_ = db_->Prepare("DELETE FROM authorship WHERE paper_id = ?");
    delete_topics_ = db_->Prepare("DELETE FROM paper_topic WHERE paper_id = ?");
    insert_authorship_ = db_->Prepare(
        "INSERT OR REPLACE INTO authorship(paper_id, position, author_id, raw_name,"
        " author_position, is_corresponding, institutions) VALUES(?,?,?,?,?,?,?)");
    insert_topic_ = db_->Prepare(
        "INSERT OR REPLACE INTO paper_topic(paper_id, topic_id, score, is_primary)"
        " VALUES(?,?,?,?)");
    citations_ = store->HasCitationTable();
  }

  int64_t Apply(Record& r, const WorkKeys& keys) {
    return std::visit(
        [&](auto& rec) -> int64_t {
          if constexpr (std::is_same_v<std::decay_t<decltype(rec)>, WorkRec>) {
            return ApplyWork(rec, keys);
          } else {
            ApplyOne(rec);
            return 0;
          }
        },
        r);
  }

  int64_t EnsureAuthor(const AuthorshipRec& a) {
    bool inserted = false;
    int64_t id = Ensure(
        a.author.ext_id, &authors_, &Prep(&find_author_, "SELECT id FROM author WHERE ext_id = ?"),
        &Prep(&insert_author_,
              "INSERT INTO author(ext_id, name, name_key, orcid) VALUES(?,?,?,?)"
              " ON CONFLICT(ext_id) DO NOTHING"),
        [&](Stmt& s) {
          s.Bind(2, a.author.name).Bind(3, NormalizeName(a.author.name));
          s.BindTextOrNull(4, a.orcid);
        },
        &inserted);
    if (inserted) IndexAuthorName(id, a.author.name);
    return id;
  }

  int64_t EnsureInstitution(const InstitutionRef& i) {
    return Ensure(i.ext_id, &institutions_,
                  &Prep(&find_inst_, "SELECT id FROM institution WHERE ext_id = ?"),
                  &Prep(&insert_inst_,
                        "INSERT INTO institution(ext_id, name, ror, country_code, type)"
                        " VALUES(?,?,?,?,?) ON CONFLICT(ext_id) DO NOTHING"),
                  [&](Stmt& s) {
                    s.Bind(2, i.name).BindTextOrNull(3, i.ror).BindTextOrNull(4, i.country_code);
                    s.BindTextOrNull(5, i.type);
                  });
  }

  int64_t EnsureSource(const SourceRef& src) {
    return Ensure(src.ext_id, &sources_,
                  &Prep(&find_source_, "SELECT id FROM source WHERE ext_id = ?"),
                  &Prep(&insert_source_,
                        "INSERT INTO source(ext_id, name, name_key, issn_l, type, publisher)"
                        " VALUES(?,?,?,?,?,?) ON CONFLICT(ext_id) DO NOTHING"),
                  [&](Stmt& s) {
                    s.Bind(2, src.name).Bind(3, NormalizeName(src.name));
                    s.BindTextOrNull(4, src.issn_l).BindTextOrNull(5, src.type);
                    s.BindTextOrNull(6, src.publisher);
                  });
  }

  int64_t EnsureTopic(const TopicRef& t) {
    if (int64_t id = topics_.Find(t.ext_id)) return id;
    int64_t domain = t.domain.ext_id.empty()
                         ? 0
                         : EnsureSimple("domain", t.domain, nullptr, 0, &domains_, &find_domain_,
                                        &insert_domain_);
    int64_t field = t.field.ext_id.empty() ? 0
                                           : EnsureSimple("field", t.field, "domain_id", domain,
                                                          &fields_, &find_field_, &insert_field_);
    int64_t subfield = t.subfield.ext_id.empty()
                           ? 0
                           : EnsureSimple("subfield", t.subfield, "field_id", field, &subfields_,
                                          &find_subfield_, &insert_subfield_);
    return EnsureSimple("topic", t, "subfield_id", subfield, &topics_, &find_topic_,
                        &insert_topic_row_);
  }

 private:
  // Id of the node with ext_id in `table`, inserting a stub row when missing
  // (`*inserted`, when given, says whether it did). `fill` binds the
  // remaining insert columns starting at 2; `insert` does nothing on a
  // conflicting ext_id. While the cache's misses keep being new nodes (a
  // first load, a shard of new authors) the insert is tried first and the
  // lookup made only when it inserted nothing: one index search per new
  // node instead of two.
  int64_t Ensure(const std::string& ext_id, IdCache* cache, Stmt* find, Stmt* insert,
                 const std::function<void(Stmt&)>& fill, bool* inserted = nullptr) {
    if (inserted) *inserted = false;
    int64_t id = cache->Find(ext_id);
    if (id != 0) return id;
    auto lookup = [&] {
      find->Bind(1, ext_id);
      if (find->Step()) id = find->Int(0);
      find->Reset();
    };
    if (!cache->MissesAreNew()) lookup();
    bool added = false;
    if (id == 0) {
      insert->Bind(1, ext_id);
      fill(*insert);
      insert->Exec();
      added = db_->Changes() > 0;
      if (added)
        id = db_->LastInsertRowid();
      else
        lookup();  // it was there
      if (id == 0)
        throw StatusError(Status::Internal(fmt::format("{}: neither found nor inserted", ext_id)));
    }
    if (inserted) *inserted = added;
    cache->NoteMiss(added);
    cache->Put(ext_id, id);
    return id;
  }

  Stmt& Prep(Stmt* s, const char* sql) {
    if (!s->raw()) *s = db_->Prepare(sql);
    return *s;
  }

  void IndexAuthorName(int64_t id, const std::string& name) {
    Prep(&author_fts_insert_, "INSERT INTO author_fts(rowid, name) VALUES(?, ?)")
        .Bind(1, id)
        .Bind(2, name)
        .Exec();
  }

  int64_t EnsureSimple(const char* table, const NamedRef& ref, const char* parent_col,
                       int64_t parent, IdCache* cache, Stmt* find, Stmt* insert) {
    if (!find->raw()) {
      *find = db_->Prepare(fmt::format("SELECT id FROM {} WHERE ext_id = ?", table));
      *insert =
          db_->Prepare(parent_col ? fmt::format("INSERT INTO {}(ext_id, name, {}) VALUES(?,?,?)",
                                                table, parent_col)
                                  : fmt::format("INSERT INTO {}(ext_id, name) VALUES(?,?)", table));
    }
    return Ensure(ref.ext_id, cache, find, insert, [&](Stmt& s) {
      s.Bind(2, ref.name);
      if (parent_col) s.BindIntOrNull(3, parent, 1);
    });
  }

  int64_t ApplyWork(WorkRec& w, const WorkKeys& keys) {
    int64_t id = UpsertPaperRow(w, keys);
    if (id == 0) return 0;  // stale
    ++stats_->works;
    if (stats_->track) stats_->papers.push_back(static_cast<uint32_t>(id));
    stats_->references += static_cast<int64_t>(w.refs.size());
    if (on_text_) on_text_(id, std::move(w.title), std::move(w.abstract));  // last use
    if (citations_) WriteCitations(id, w);
    WriteAuthorships(id, w.authors);
    for (const TopicRef& t : w.topics) {
      int64_t topic_id = EnsureTopic(t);
      insert_topic_.Bind(1, id).Bind(2, topic_id).Bind(3, t.score).Bind(4, t.is_primary ? 1 : 0);
      insert_topic_.Exec();
    }
    return id;
  }

  // The paper row, inserted or replacing the stored one (whose authorships,
  // topics and full-text row go; when its text changed, it waits for new
  // keywords and vectors); its id, or 0 when the stored version is newer.
  int64_t UpsertPaperRow(const WorkRec& w, const WorkKeys& keys) {
    int64_t source_id = w.has_source ? EnsureSource(w.source) : 0;
    const std::string &refs = keys.refs, &related = keys.related, &title_key = keys.title_key;
    // Nothing is copied: w and keys outlive each statement's run.
    auto bind = [&](Stmt& st) {
      st.BindStatic(1, w.ext_id).BindStaticOrNull(2, w.doi).BindStatic(3, w.title);
      st.BindStatic(4, title_key).BindStatic(5, w.abstract).BindIntOrNull(6, w.year, 1);
      st.BindStaticOrNull(7, w.date).BindStaticOrNull(8, w.type).BindStaticOrNull(9, w.language);
      st.BindIntOrNull(10, source_id, 1).BindIntOrNull(11, w.cited_by_count);
      st.BindIntOrNull(12, w.referenced_works_count).BindIntOrNull(13, w.is_oa);
      st.BindStaticOrNull(14, w.oa_status).BindStaticOrNull(15, w.oa_url);
      st.BindStaticOrNull(16, w.pdf_url).BindStaticOrNull(17, w.landing_page_url);
      st.BindStaticOrNull(18, w.updated_date);
      if (refs.empty())
        st.BindNull(19);
      else
        st.BindStaticBlob(19, refs);
      if (related.empty())
        st.BindNull(20);
      else
        st.BindStaticBlob(20, related);
      st.BindStaticOrNull(21, w.oa_keywords_json);
    };
    // New works (the common case of a bulk load) cost one insert; a conflict
    // on ext_id sends the work down the update path.
    bind(insert_paper_);
    insert_paper_.Exec();
    if (db_->Changes() == 1) {
      ++stats_->works_new;
      const int64_t id = db_->LastInsertRowid();
      if (stats_->track) seen_papers_.insert(id);
      MarkKeywordsPending(id);
      return id;
    }
    int64_t id = 0;
    std::string old_title, old_abstract, old_updated;
    {
      ScopedStmt find(find_paper_.Bind(1, w.ext_id));
      if (find->Step()) {
        id = find->Int(0);
        old_updated = find->Str(1);
        old_title = find->Str(2);
        old_abstract = find->Str(3);
      }
    }
    if (!old_updated.empty() && !w.updated_date.empty() && w.updated_date < old_updated) {
      ++stats_->works_stale;
      return 0;
    }
    bind(update_paper_);
    update_paper_.Bind(22, id);
    update_paper_.Exec();
    if (stats_->track && seen_papers_.insert(id).second) {
      // AFFILIATED_WITH counts of the version the graph holds, for the
      // graph update to take out.
      Stmt& rows = Prep(&old_authorships_,
                        "SELECT author_id, institutions FROM authorship WHERE paper_id = ?");
      rows.Bind(1, id);
      while (rows.Step()) {
        const auto author = static_cast<uint32_t>(rows.Int(0));
        ForEachInstitutionId(rows.Text(1), [&](uint32_t inst) {
          stats_->old_affiliations.emplace_back(author, inst);
        });
      }
      rows.Reset();
    }
    delete_authorships_.Bind(1, id).Exec();
    delete_topics_.Bind(1, id).Exec();
    // A new text: its keywords are extracted again (extract-keywords
    // --missing) and its vectors computed again (embed --missing); until
    // then the old ones stay, as the graph and the vectors hold them.
    if (old_title != w.title || old_abstract != w.abstract) {
      Prep(&delete_extracted_, "DELETE FROM keyword_extracted WHERE paper_id = ?")
          .Bind(1, id)
          .Exec();
      MarkKeywordsPending(id);
      Prep(&mark_vectors_stale_, "INSERT OR IGNORE INTO vectors_stale(paper_id) VALUES(?)")
          .Bind(1, id)
          .Exec();
    }
    ++stats_->works_updated;
    return id;
  }

  // The paper is one extract-keywords --missing takes (store.cc, v7).
  void MarkKeywordsPending(int64_t id) {
    Prep(&mark_keywords_pending_, "INSERT OR IGNORE INTO keyword_pending(paper_id) VALUES(?)")
        .Bind(1, id)
        .Exec();
  }

  // The work's rows of the citation table (store.h, kCitationTable), when
  // the store has one.
  void WriteCitations(int64_t paper, const WorkRec& w) {
    Prep(&delete_citations_, "DELETE FROM citation_ref WHERE paper_id = ?").Bind(1, paper).Exec();
    Stmt& insert = Prep(&insert_citation_,
                        "INSERT OR IGNORE INTO citation_ref(paper_id, cited_ext_id) VALUES(?, ?)");
    for (const std::string& ref : w.refs)
      if (ref != w.ext_id) insert.Bind(1, paper).BindStatic(2, ref).Exec();
  }

  void WriteAuthorships(int64_t paper, const std::vector<AuthorshipRec>& authors) {
    std::string inst_ids;
    for (size_t i = 0; i < authors.size(); ++i) {
      const AuthorshipRec& a = authors[i];
      int64_t author_id = EnsureAuthor(a);
      inst_ids.clear();
      for (const auto& inst : a.institutions) {
        if (!inst_ids.empty()) inst_ids += ' ';
        inst_ids += std::to_string(EnsureInstitution(inst));
      }
      insert_authorship_.Bind(1, paper).Bind(2, static_cast<int64_t>(i)).Bind(3, author_id);
      insert_authorship_.BindStaticOrNull(4, a.raw_name).BindStaticOrNull(5, a.author_position);
      insert_authorship_.Bind(6, a.is_corresponding ? 1 : 0).BindStaticOrNull(7, inst_ids);
      insert_authorship_.Exec();
    }
  }

  // Entity records overwrite the stub rows works created.
  void ApplyOne(AuthorRec& a) {
    Stmt& old = Prep(&find_author_name_,
                     "SELECT id, name, last_institution_id FROM author WHERE ext_id = ?");
    old.Bind(1, a.ext_id);
    if (old.Step()) {
      // The first version this ingest replaces is the one the graph holds.
      if (stats_->track && seen_authors_.insert(old.Int(0)).second && !old.IsNull(2))
        stats_->old_affiliations.emplace_back(static_cast<uint32_t>(old.Int(0)),
                                              static_cast<uint32_t>(old.Int(2)));
      Prep(&author_fts_delete_,
           "INSERT INTO author_fts(author_fts, rowid, name) VALUES('delete', ?, ?)")
          .Bind(1, old.Int(0))
          .Bind(2, old.Text(1))
          .Exec();
    }
    old.Reset();
    int64_t inst = 0;
    if (!a.last_known_institutions.empty() && !a.last_known_institutions[0].ext_id.empty())
      inst = EnsureInstitution(a.last_known_institutions[0]);
    Stmt& s = Prep(&upsert_author_,
                   "INSERT INTO author(ext_id, name, name_key, orcid, works_count, cited_by_count,"
                   " last_institution_id, updated_date) VALUES(?1,?2,?3,?4,?5,?6,?7,?8)"
                   " ON CONFLICT(ext_id) DO UPDATE SET name=?2, name_key=?3,"
                   " orcid=coalesce(?4, orcid), works_count=?5, cited_by_count=?6,"
                   " last_institution_id=coalesce(?7, last_institution_id), updated_date=?8");
    s.Bind(1, a.ext_id).Bind(2, a.name).Bind(3, NormalizeName(a.name)).BindTextOrNull(4, a.orcid);
    s.BindIntOrNull(5, a.works_count).BindIntOrNull(6, a.cited_by_count);
    s.BindIntOrNull(7, inst, 1).BindTextOrNull(8, a.updated_date).Exec();
    Stmt& find = Prep(&find_author_, "SELECT id FROM author WHERE ext_id = ?");
    find.Bind(1, a.ext_id);
    if (find.Step()) {
      IndexAuthorName(find.Int(0), a.name);
      if (stats_->track) {
        stats_->authors.push_back(static_cast<uint32_t>(find.Int(0)));
        seen_authors_.insert(find.Int(0));  // a new author: the graph holds none of it
      }
    }
    find.Reset();
    ++stats_->entities;
  }

  void ApplyOne(InstitutionRec& r) {
    Stmt& s = Prep(&upsert_inst_,
                   "INSERT INTO institution(ext_id, name, ror, country_code, type, works_count,"
                   " cited_by_count, updated_date) VALUES(?1,?2,?3,?4,?5,?6,?7,?8)"
                   " ON CONFLICT(ext_id) DO UPDATE SET name=?2, ror=?3, country_code=?4, type=?5,"
                   " works_count=?6, cited_by_count=?7, updated_date=?8");
    s.Bind(1, r.inst.ext_id).Bind(2, r.inst.name).BindTextOrNull(3, r.inst.ror);
    s.BindTextOrNull(4, r.inst.country_code).BindTextOrNull(5, r.inst.type);
    s.BindIntOrNull(6, r.works_count).BindIntOrNull(7, r.cited_by_count);
    s.BindTextOrNull(8, r.updated_date).Exec();
    ++stats_->entities;
  }

  void ApplyOne(SourceRec& r) {
    Stmt& s = Prep(&upsert_source_,
                   "INSERT INTO source(ext_id, name, name_key, issn_l, type, publisher,"
                   " works_count, cited_by_count, updated_date) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)"
                   " ON CONFLICT(ext_id) DO UPDATE SET name=?2, name_key=?3, issn_l=?4, type=?5,"
                   " publisher=?6, works_count=?7, cited_by_count=?8, updated_date=?9");
    s.Bind(1, r.source.ext_id).Bind(2, r.source.name).Bind(3, NormalizeName(r.source.name));
    s.BindTextOrNull(4, r.source.issn_l).BindTextOrNull(5, r.source.type);
    s.BindTextOrNull(6, r.source.publisher).BindIntOrNull(7, r.works_count);
    s.BindIntOrNull(8, r.cited_by_count).BindTextOrNull(9, r.updated_date).Exec();
    ++stats_->entities;
  }

  void ApplyOne(TopicRec& r) {
    int64_t id = EnsureTopic(r.topic);
    Stmt& s = Prep(&update_topic_,
                   "UPDATE topic SET name=?, description=?, keywords=?, works_count=?,"
                   " updated_date=? WHERE id=?");
    s.Bind(1, r.topic.name).BindTextOrNull(2, r.description).BindTextOrNull(3, r.keywords);
    s.BindIntOrNull(4, r.works_count).BindTextOrNull(5, r.updated_date).Bind(6, id).Exec();
    stats_->topics = true;
    ++stats_->entities;
  }

  void ApplyOne(SkippedRec&) { ++stats_->skipped; }

  Db* db_;
  WriteCounts* stats_;
  std::function<void(int64_t, std::string&&, std::string&&)> on_text_;
  Stmt find_paper_, insert_paper_, update_paper_;
  Stmt delete_authorships_, delete_topics_, insert_authorship_, insert_topic_;
  Stmt find_author_, insert_author_, find_inst_, insert_inst_, find_source_, insert_source_;
  Stmt find_domain_, insert_domain_, find_field_, insert_field_, find_subfield_, insert_subfield_,
      find_topic_, insert_topic_row_;
  Stmt upsert_author_, upsert_inst_, upsert_source_, update_topic_, old_authorships_;
  // Papers and author records this ingest wrote (or found) already: only
  // their first replacement shows the version the graph holds.
  std::unordered_set<int64_t> seen_papers_, seen_authors_;
  Stmt find_author_name_, author_fts_insert_, author_fts_delete_, delete_extracted_;
  Stmt mark_vectors_stale_, mark_keywords_pending_;
  Stmt delete_citations_, insert_citation_;
  bool citations_ = false;  // the store has the citation table
  IdCache authors_, institutions_, sources_, topics_, subfields_, fields_, domains_;
};

namespace {

// The citation table and its views (doc/store-format.md, "Citations for SQL").
// Rows are the citing paper's dense id and the cited work's external id as
// its record gives it, so a reference to a work that arrives later resolves
// through the join without touching the row. Self-references are left out,
// as in the graph's CITES.
constexpr const char* kCitationSchema = R"sql(
CREATE TABLE IF NOT EXISTS citation_ref(
  paper_id INTEGER NOT NULL,
  cited_ext_id TEXT NOT NULL,
  PRIMARY KEY(paper_id, cited_ext_id)
) WITHOUT ROWID;
DROP VIEW IF EXISTS paper_citation;
DROP VIEW IF EXISTS citation;
CREATE VIEW citation(citing_id, cited_id, citing_paper, cited_paper) AS
  SELECT p.ext_id, r.cited_ext_id, r.paper_id, q.id
  FROM citation_ref r JOIN paper p ON p.id = r.paper_id
  LEFT JOIN paper q ON q.ext_id = r.cited_ext_id;
CREATE VIEW paper_citation(citing, cited) AS
  SELECT r.paper_id, q.id FROM citation_ref r JOIN paper q ON q.ext_id = r.cited_ext_id;
)sql";

}  // namespace

int64_t Store::BuildCitationTable() {
  db_.Exec(kCitationSchema);
  // Filled in paper order without its index, which a sort then builds.
  db_.Exec("DROP INDEX IF EXISTS citation_ref_cited; DELETE FROM citation_ref;");
  Stmt insert =
      db_.Prepare("INSERT OR IGNORE INTO citation_ref(paper_id, cited_ext_id) VALUES(?, ?)");
  Stmt papers = db_.Prepare("SELECT id, ext_id, refs FROM paper WHERE refs IS NOT NULL");
  std::vector<std::string> refs;
  while (papers.Step()) {
    const int64_t id = papers.Int(0);
    const std::string_view ext = papers.Text(1);
    refs.clear();
    if (!UnpackIdList(papers.Blob(2), &refs))
      throw StatusError(Status::Corruption(
          fmt::format("{}: paper {}: its packed references are damaged", db_.path(), ext)));
    for (const std::string& ref : refs)
      if (ref != ext) insert.Bind(1, id).BindStatic(2, ref).Exec();
  }
  db_.Exec("CREATE INDEX citation_ref_cited ON citation_ref(cited_ext_id)");
  return db_.QueryInt("SELECT count(*) FROM citation_ref").value_or(0);
}

RecordWriter::RecordWriter(Store* store, WriteCounts* counts,
                           std::function<void(int64_t, std::string&&, std::string&&)> on_text)
    : impl_(std::make_unique<Impl>(store, counts, std::move(on_text))) {}
RecordWriter::~RecordWriter() = default;
int64_t RecordWriter::Apply(Record& record, const WorkKeys& keys) {
  return impl_->Apply(record, keys);
}
int64_t RecordWriter::EnsureAuthor(const AuthorshipRec& a) { return impl_->EnsureAuthor(a); }
int64_t RecordWriter::EnsureInstitution(const InstitutionRef& i) {
  return impl_->EnsureInstitution(i);
}
int64_t RecordWriter::EnsureSource(const SourceRef& s) { return impl_->EnsureSource(s); }
int64_t RecordWriter::EnsureTopic(const TopicRef& t) { return impl_->EnsureTopic(t); }

BulkLoad::BulkLoad(Store* store, Reporter* reporter) : store_(store) {
  Db& db = store_->db();
  // Leaving WAL needs the only connection; with a reader open the load
  // stays in WAL (slower, as safe) rather than failing.
  std::string mode;
  try {
    Stmt q = db.Prepare("PRAGMA journal_mode=DELETE");
    if (q.Step()) mode = q.Str(0);
  } catch (const StatusError&) {
  }
  if (mode != "delete") {
    reporter->Note(
        "readers have the store open: loading through the WAL (slower than the "
        "first-load path, equally safe)");
    return;
  }
  // In the rollback journal a reader's lock would hold up the commit and
  // the cache spills (and fail the load after the busy timeout): the load
  // keeps the database to itself. Readers meanwhile wait, then are told the
  // store is being loaded.
  db.Exec("PRAGMA locking_mode=EXCLUSIVE;");
  rollback_journal_ = true;
}

BulkLoad::~BulkLoad() {
  if (!rollback_journal_) return;
  sqlite3_exec(store_->db().raw(),
               "PRAGMA locking_mode=NORMAL; PRAGMA journal_mode=WAL; PRAGMA cache_size=-524288;",
               nullptr, nullptr, nullptr);
}

void BulkLoad::DropSecondaryIndexes() {
  Db& db = store_->db();
  std::vector<std::string> names;
  {
    Stmt idx =
        db.Prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL");
    while (idx.Step()) {
      names.push_back(idx.Str(0));
      deferred_.push_back(idx.Str(1));
    }
  }
  for (const auto& name : names) db.Exec("DROP INDEX \"" + name + "\"");
}

void BulkLoad::RestoreSecondaryIndexes() {
  Db& db = store_->db();
  // The sorts of CREATE INDEX on helper threads (SQLite's sorter merges
  // their runs): 20% less time for the indexes of a 250k-work shard's rows
  // with a second core free.
  const unsigned cores = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  db.Exec(fmt::format("PRAGMA threads={}", cores));
  for (const auto& sql : deferred_) db.Exec(sql);
  db.Exec("PRAGMA threads=0");
  deferred_.clear();
}

KeywordWriter::KeywordWriter(Store* store, std::string backend, size_t cache_bytes,
                             bool keep_counts)
    : store_(store),
      backend_(std::move(backend)),
      cache_limit_(cache_bytes),
      keep_counts_(keep_counts) {}

int64_t KeywordWriter::Write(int64_t paper, const std::vector<Keyword>& kws) {
  static const char* kOld = "SELECT keyword_id FROM paper_keyword WHERE paper_id = ?";
  static const char* kClear = "DELETE FROM paper_keyword WHERE paper_id = ?";
  static const char* kLink =
      "INSERT OR REPLACE INTO paper_keyword(paper_id, keyword_id, score) VALUES(?, ?, ?)";
  static const char* kDone =
      "INSERT OR REPLACE INTO keyword_extracted(paper_id, backend) VALUES(?, ?)";
  // The paper's links go, and with keep_counts their keywords' counts down:
  // links read apart (DELETE ... RETURNING deletes in two passes, 50%
  // slower), or in one pass beforehand (ReadPendingLinks).
  bool linked = true;
  if (keep_counts_ && read_pending_) {
    auto it = old_links_.find(paper);
    linked = it != old_links_.end();
    if (linked) {
      for (int64_t id : it->second) --count_changes_[id];
      old_links_.erase(it);
    }
  } else if (keep_counts_) {
    ScopedStmt old(store_->CachedStmt(kOld).Bind(1, paper));
    while (old->Step()) --count_changes_[old->Int(0)];
  }
  if (linked) store_->CachedStmt(kClear).Bind(1, paper).Exec();
  ids_.clear();
  for (const Keyword& k : kws) {
    if (k.text.empty()) continue;
    const int64_t id = KeywordId(k.text, k.surface);
    store_->CachedStmt(kLink)
        .Bind(1, paper)
        .Bind(2, id)
        .Bind(3, static_cast<int64_t>(k.score))
        .Exec();
    ids_.push_back(id);
  }
  store_->CachedStmt(kDone).Bind(1, paper).Bind(2, backend_).Exec();
  store_->CachedStmt("DELETE FROM keyword_pending WHERE paper_id = ?").Bind(1, paper).Exec();
  // Links, not keywords: two texts of one keyword make one row.
  std::sort(ids_.begin(), ids_.end());
  ids_.erase(std::unique(ids_.begin(), ids_.end()), ids_.end());
  if (keep_counts_)
    for (int64_t id : ids_) ++count_changes_[id];
  return static_cast<int64_t>(ids_.size());
}

void KeywordWriter::ReadPendingLinks() {
  if (!keep_counts_) return;
  Stmt links = store_->db().Prepare(
      "SELECT pk.paper_id, pk.keyword_id FROM keyword_pending kp"
      " CROSS JOIN paper_keyword pk ON pk.paper_id = kp.paper_id");  // CROSS: in this order
  while (links.Step()) old_links_[links.Int(0)].push_back(links.Int(1));
  read_pending_ = true;
}

void KeywordWriter::ApplyCounts() {
  std::vector<std::pair<int64_t, int64_t>> changes;
  for (const auto& [id, n] : count_changes_)
    if (n != 0) changes.emplace_back(id, n);
  count_changes_.clear();
  std::sort(changes.begin(), changes.end());  // the table's order
  for (const auto& [id, n] : changes)
    store_->CachedStmt("UPDATE keyword SET paper_count = paper_count + ? WHERE id = ?")
        .Bind(1, n)
        .Bind(2, id)
        .Exec();
}

int64_t KeywordWriter::KeywordId(const std::string& text, const std::string& surface) {
  auto it = cache_.find(text);
  if (it != cache_.end()) return it->second;
  std::string ext = KeywordExtId(text);
  int64_t id;
  {
    ScopedStmt find(store_->CachedStmt("SELECT id FROM keyword WHERE ext_id = ?").Bind(1, ext));
    id = find->Step() ? find->Int(0) : 0;
  }
  if (id == 0) {
    store_->CachedStmt("INSERT INTO keyword(ext_id, text, label) VALUES(?, ?, ?)")
        .Bind(1, ext)
        .Bind(2, text)
        .BindTextOrNull(3, surface == text ? std::string_view() : std::string_view(surface))
        .Exec();
    id = store_->db().LastInsertRowid();
    store_->CachedStmt("INSERT INTO keyword_fts(rowid, text) VALUES(?, ?)")
        .Bind(1, id)
        .Bind(2, text)
        .Exec();
  }
  cache_bytes_ += text.size() + kKeywordCacheEntryBytes;
  if (cache_bytes_ > cache_limit_) {
    cache_.clear();
    cache_bytes_ = text.size() + kKeywordCacheEntryBytes;
  }
  cache_.emplace(text, id);
  return id;
}

int64_t RefreshKeywordCounts(Store* store) {
  // The links counted in one scan of paper_keyword (it has no index by
  // keyword: a GROUP BY would sort every link), 4 bytes per keyword; the
  // counts that differ written in id order.
  Db& db = store->db();
  constexpr uint32_t kSame = UINT32_MAX;  // the stored count is right
  std::vector<uint32_t> counts(static_cast<size_t>(store->MaxId(NodeType::kKeyword)) + 1, 0);
  {
    Stmt links = db.Prepare("SELECT keyword_id FROM paper_keyword");
    while (links.Step()) {
      const int64_t id = links.Int(0);
      if (id >= 0 && static_cast<uint64_t>(id) < counts.size()) ++counts[static_cast<size_t>(id)];
    }
  }
  int64_t in_use = 0;
  {
    Stmt rows = db.Prepare("SELECT id, paper_count FROM keyword");
    while (rows.Step()) {
      const int64_t id = rows.Int(0);
      if (id < 0 || static_cast<uint64_t>(id) >= counts.size()) continue;  // MaxId bounds them
      uint32_t& n = counts[static_cast<size_t>(id)];
      in_use += n > 0;
      if (n == rows.Int(1)) n = kSame;
    }
  }
  Stmt update = db.Prepare("UPDATE keyword SET paper_count = ? WHERE id = ?");
  for (size_t id = 1; id < counts.size(); ++id)
    if (counts[id] != kSame)  // an id without a row updates nothing
      update.Bind(1, static_cast<int64_t>(counts[id])).Bind(2, static_cast<int64_t>(id)).Exec();
  return in_use;
}

int64_t KeywordsInUse(Store* store) {
  return store->db().QueryInt("SELECT count(*) FROM keyword WHERE paper_count > 0").value_or(0);
}

void Store::CachePut(const std::string& key, const std::string& value) {
  CachedStmt("INSERT OR REPLACE INTO backend_cache(key, value) VALUES(?, ?)")
      .Bind(1, key)
      .Bind(2, value)
      .Exec();
}

}  // namespace litgraph
