// The store: a directory holding a SQLite database of record metadata and
// source relations, next to generations of derived, memory-mapped files
// (graph, lexical index, keyword statistics, vectors). The full format is in
// doc/store-format.md.
//
//   DIR/litgraph.sqlite      SQLite (WAL): nodes, source relations, FTS5
//   DIR/LOCK                 flock()ed by the one writer at a time
//   DIR/graph.<N>/           derived graph files of generation N
//   DIR/keywords.<N>/        corpus phrase statistics of generation N
//   DIR/vectors.<N>/         vectors and HNSW indexes of generation N
//   DIR/metrics.<N>/         citation metrics of generation N (metrics.h;
//                            written by litgraph-metrics --build only)
//
// Consistency: the meta table names the current generation of each derived
// artifact. A writer builds generation N+1 beside N, then commits the meta row
// in the same SQLite transaction as the data it was built from; a killed
// writer leaves an orphan directory (removed by the next writer) and the old
// store untouched. A reader opens SQLite, starts one read transaction for its
// whole lifetime (so every query sees one snapshot) and opens the generation
// that snapshot names. Generation N-1 is kept until N+1 commits, so a reader
// that raced a commit still finds its files.
//
// All SQL lives in the store's modules: store.cc (opening, schema, meta,
// generations), store_read.cc (the lookups and scans below) and
// store_write.cc (store_write.h: the writers). Other modules use this API.
// Failing statements throw StatusError (status.h).
//
// Opening reads only the meta table: nothing proportional to the store size.
// Thread-safety: a Store and everything it returns belong to one thread.
#pragma once

#include <charconv>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "litgraph/checked_file.h"
#include "litgraph/model.h"
#include "litgraph/report.h"
#include "litgraph/sqlite.h"
#include "litgraph/status.h"

namespace litgraph {

class GenerationView;

// The schema version this build writes; older stores are migrated on the
// first write-mode open (read-mode refuses newer stores, and stores older
// than kOldestReadableSchema: v6 only dropped a table readers never used, v7
// only added one they can do without, v8 only dropped an index).
inline constexpr int kSchemaVersion = 8;
inline constexpr int kOldestReadableSchema = 5;

// The derived artifacts, each a series of generations (generation.h).
inline constexpr const char* kArtifacts[] = {"graph", "keywords", "vectors", "metrics"};

// A paper as tools print it (the common fields of litgraph-json(7)).
struct PaperSummary {
  int64_t id = 0;  // dense id
  std::string ext_id, title, doi, type, venue, date;
  int year = 0;
  int64_t cited_by_count = -1;       // from the record; -1 when absent
  std::vector<std::string> authors;  // names in author order
};

// Everything else the paper card shows (PaperCard, render.h). Absent values
// are nullopt.
struct PaperDetails {
  using Text = std::optional<std::string>;
  std::string abstract;
  Text date, work_type, language, oa_status, oa_url, pdf_url, landing_page_url, updated_date;
  std::optional<int64_t> referenced_works_count;
  std::optional<bool> is_oa;
  Text source_id, source_name;   // the venue's external id and name
  size_t stored_references = 0;  // reference ids kept with the record
  std::string oa_keywords_json;  // OpenAlex's keywords as stored (JSON), "" when none
  struct Institution {
    std::string ext_id, name;
  };
  struct Authorship {
    int64_t position = 0;  // 0-based
    std::string ext_id, name;
    Text raw_name, author_position, orcid;
    bool is_corresponding = false;
    std::vector<Institution> institutions;
  };
  struct Topic {
    std::string ext_id, name;
    std::optional<double> score;
    bool is_primary = false;
    Text subfield, field, domain;
  };
  struct Keyword {
    std::string ext_id, text;
    int64_t score = 0;
    std::string label;  // display form (the text when none is stored)
  };
  std::vector<Authorship> authorships;  // by position
  std::vector<Topic> topics;            // primary first, then by score, then id
  std::vector<Keyword> keywords;        // by score, then text
};

// A paper's text, for extraction and embedding.
struct PaperText {
  int64_t id = 0;
  std::string title, abstract;
  std::string label;  // external id, for messages
};

// Text columns that vectors are computed from.
enum class TextColumn : uint8_t { kPaperTitle, kPaperAbstract, kKeywordText };

// One paper row as the graph build reads it.
struct PaperLinksRow {
  int64_t id;
  std::string_view refs, related;  // packed id lists (coding.h)
  std::optional<int64_t> source_id, cited_by_count, year;
};

// One authorship row as the graph build reads it.
struct AuthorshipRow {
  int64_t paper, position, author;
  bool is_corresponding;
  std::string_view institutions;  // space-separated institution ids
};

// A node's exported attributes (litgraph-export, export.h): columns with a
// name and a type, values read from the node's row.
enum class AttrType : uint8_t { kString, kInt, kFloat, kBool };
struct AttrColumn {
  const char* name;
  AttrType type;
};
struct AttrValue {
  bool null = true;
  int64_t i = 0;  // kInt, kBool
  double f = 0;   // kFloat
  std::string_view s;
};
// One node: its dense id and a value per column of NodeColumns(type). The
// views are valid during the callback only.
struct NodeRow {
  int64_t id = 0;
  std::span<const AttrValue> values;
};

// The relational citation table (doc/store-format.md, "Citations for SQL"):
// created by `litgraph-export --sql`, kept current by every ingest after.
inline constexpr const char* kCitationTable = "citation_ref";

// Calls fn(id) for each institution id of an authorship's `institutions`.
template <typename Fn>
void ForEachInstitutionId(std::string_view list, Fn&& fn) {
  size_t p = 0;
  while (p < list.size()) {
    size_t e = list.find(' ', p);
    if (e == std::string_view::npos) e = list.size();
    uint32_t id = 0;
    std::from_chars(list.data() + p, list.data() + e, id);
    fn(id);
    p = e + 1;
  }
}

class Store {
 public:
  enum class Mode { kRead, kWrite };

  // Opens DIR. kWrite migrates the schema, takes the writer lock (waiting for
  // another writer, which `reporter` hears about) and removes orphan
  // generations; it creates the directory and database only when `create`
  // is set (ingest), else a missing store is an error as in kRead.
  static Result<std::unique_ptr<Store>> Open(const std::string& dir, Mode mode, bool create = false,
                                             Reporter* reporter = NullReporter());
  ~Store();

  // The database itself, for the store's own modules and tests.
  Db& db() { return db_; }
  // A build's SQLite within its memory budget: `cache` bytes of page cache,
  // the file's first `mapped` bytes mapped, sorts spilled to temporary files.
  void LimitSqliteMemory(size_t cache, size_t mapped);
  // A statement prepared once per store and reused, for the store's modules:
  // `sql` must be a string literal (its address is the key).
  Stmt& CachedStmt(const char* sql);
  const std::string& dir() const { return dir_; }
  // Whether a writer holds the store's lock now (another process's, or this
  // one's).
  bool WriterActive() const;
  // Past this, a WAL no writer is working on was left behind (Store's
  // destructor, TruncateWal): the writers' journal_size_limit.
  static constexpr uint64_t kWalLeftBytes = uint64_t{64} << 20;
  Mode mode() const { return mode_; }

  // --- Meta and derived generations ---------------------------------------
  // The store's identity (meta.store_id), in every derived file's footer.
  const StoreId& id() const { return id_; }
  // Current generation number of a derived artifact ("graph", "keywords",
  // "vectors") in this snapshot, 0 when none was built.
  int64_t Generation(const std::string& artifact);
  // That generation, pinned for a reader (generation.h); null when none was
  // built; an error when its manifest is damaged or from an older format.
  Result<const GenerationView*> Current(const std::string& artifact);
  // Writer only, inside the caller's transaction (GenerationBuilder):
  // makes `generation` current.
  void SetGeneration(const std::string& artifact, int64_t generation);
  std::optional<std::string> GetMeta(const std::string& key);
  void SetMeta(const std::string& key, const std::string& value);
  // How many writes of papers' texts the store has had (meta.text_version):
  // ingest and merge, which alone write titles and abstracts, count one
  // for each run that stored a work. What is derived from the texts outside
  // the graph's updates records the version it saw, and is stale when the
  // store's has moved on (a shard's phrase counts, keyword_store.h).
  int64_t TextVersion();
  void NoteTextsWritten();  // writer only, inside the transaction writing them

  // --- Lookups ------------------------------------------------------------
  // Papers by the forms users type; dense paper ids.
  std::optional<int64_t> PaperByExtId(const std::string& ext_id);
  std::optional<int64_t> PaperByDoi(const std::string& doi);  // any DOI form
  std::vector<int64_t> PapersByTitleKey(const std::string& title_key);
  // Resolves an id, OpenAlex URL, DOI (bare/URL/doi:) or exact title (one
  // paper only; an ambiguous title resolves to nothing) to a paper.
  std::optional<int64_t> ResolvePaperId(const std::string& text);

  std::optional<PaperSummary> GetPaperSummary(int64_t id);
  std::optional<PaperDetails> GetPaperDetails(int64_t id);
  std::optional<PaperText> GetPaperText(int64_t id);
  // One text column of a node ("" when the node has none).
  std::string GetText(TextColumn column, int64_t id);
  // Year (0 = unknown), source id (0 = none) and work type of a paper.
  struct PaperFacets {
    int year = 0;
    int64_t source_id = 0;
    std::string type;
  };
  std::optional<PaperFacets> GetPaperFacets(int64_t id);
  // Whether a paper has a topic in an OpenAlex field given by name or id.
  bool PaperInField(int64_t paper, const std::string& field);

  bool IsEmpty();  // no paper yet
  int64_t PaperCount();
  int64_t MaxId(NodeType t);  // largest dense id in use (0 when empty)

  // Resolves a node of any type from its external id; `type_hint` (a node
  // type name, may be empty) picks the table. Papers also resolve by DOI.
  std::optional<std::pair<NodeType, int64_t>> ResolveNode(const std::string& ext_id,
                                                          const std::string& type_hint = "");
  // The external id and display name of any node.
  std::optional<std::pair<std::string, std::string>> NodeLabel(NodeType t, int64_t id);
  std::optional<int64_t> NodeByExtId(NodeType t, const std::string& ext_id);

  // Sources whose id or ISSN-L equals `id_or_issn` or whose normalized name
  // equals `name_key`; without such a name, those whose name holds
  // `name_key`'s words as whole words, in order.
  std::vector<int64_t> SourcesMatching(const std::string& id_or_issn, const std::string& name_key);
  // Authors whose normalized name equals `name_key`, at most `limit`.
  std::vector<int64_t> AuthorsByNameKey(const std::string& name_key, size_t limit);
  // Authors whose name has every word of `name_key` (FTS5), at most `limit`.
  std::vector<int64_t> AuthorsWithNameWords(const std::string& name_key, size_t limit);
  std::vector<int64_t> PapersOfAuthor(int64_t author);
  // Answers cached from network backends (llm.h), keyed by content hash.
  std::optional<std::string> CacheGet(const std::string& key);
  void CachePut(const std::string& key, const std::string& value);

  // --- Scans (the derived-file builders' inputs) ---------------------------
  // Papers in id order.
  std::vector<int64_t> PaperIds();
  // Papers never given keywords, or whose text changed since (schema v7's
  // keyword_pending; a scan of every paper in an older store a reader opens).
  std::vector<int64_t> PaperIdsWithoutKeywords();
  // Papers whose title or abstract changed since their vectors were made.
  std::vector<int64_t> PaperIdsWithStaleVectors();
  void ForEachPaperExtId(const std::function<void(int64_t id, std::string_view ext_id)>& fn);
  void ForEachPaperLinks(const std::function<void(const PaperLinksRow&)>& fn);
  // Title and abstract of every paper in id order; with `every` > 1 only ids
  // divisible by it (an evenly spaced sample).
  void ForEachPaperText(
      const std::function<void(int64_t id, std::string_view title, std::string_view abstract)>& fn,
      int64_t every = 1);
  // One text column of every paper (or keyword), in id order.
  void ForEachText(TextColumn column,
                   const std::function<void(int64_t id, std::string_view text)>& fn);
  // The keywords of at least `min_papers` papers (keyword.paper_count), by id.
  void ForEachKeywordOfPapers(int64_t min_papers, const std::function<void(int64_t)>& fn);
  // Authorships by paper, then position.
  void ForEachAuthorship(const std::function<void(const AuthorshipRow&)>& fn);
  void ForEachAuthorLastInstitution(const std::function<void(int64_t author, int64_t inst)>& fn);
  void ForEachPaperTopic(const std::function<void(int64_t paper, int64_t topic,
                                                  std::optional<double> score, bool primary)>& fn);
  // Parent links of the topic hierarchy: topic -> subfield, subfield ->
  // field, field -> domain (`child` is kTopic, kSubfield or kField).
  void ForEachParent(NodeType child, const std::function<void(int64_t child, int64_t parent)>& fn);
  // HAS_KEYWORD rows by paper.
  void ForEachPaperKeyword(
      const std::function<void(int64_t paper, int64_t keyword, int64_t score)>& fn);

  // --- Rows of some nodes (the incremental graph update's inputs) ----------
  // The same rows as the scans above for the given ids only, in the order
  // given (authorships of a paper by position).
  void ForEachPaperLinksOf(const std::vector<uint32_t>& papers,
                           const std::function<void(const PaperLinksRow&)>& fn);
  void ForEachAuthorshipOf(const std::vector<uint32_t>& papers,
                           const std::function<void(const AuthorshipRow&)>& fn);
  // An author's last institution (the author record's).
  std::optional<int64_t> AuthorLastInstitution(int64_t author);
  // For display: that, else the first institution of the author's latest
  // paper in the store (by year, then id).
  std::optional<int64_t> AuthorCurrentInstitution(int64_t author);
  // A keyword's display form (keyword.label), nullopt when it has none.
  std::optional<std::string> KeywordLabel(int64_t keyword);
  // HAS_KEYWORD rows of the given papers.
  void ForEachPaperKeywordOf(
      const std::vector<uint32_t>& papers,
      const std::function<void(int64_t paper, int64_t keyword, int64_t score)>& fn);
  void ForEachPaperTopicOf(
      const std::vector<uint32_t>& papers,
      const std::function<void(int64_t paper, int64_t topic, std::optional<double> score,
                               bool primary)>& fn);
  std::string PaperExtId(int64_t id);

  // --- Export (export.h) ---------------------------------------------------
  // The exported columns of a node type: "id" (the external id) first, then
  // its name ("title", "display_name" or "text"), then the others. A column
  // name has the same type in every node type.
  static std::span<const AttrColumn> NodeColumns(NodeType t);
  // Rows of type t by ascending id: every node (ids null) or those of *ids
  // (ascending; ids without a row are skipped).
  void ForEachNodeRow(NodeType t, const std::vector<uint32_t>* ids,
                      const std::function<void(const NodeRow&)>& fn);

  // --- Citations for SQL ----------------------------------------------------
  // Whether the citation table exists (a writer's ingest then keeps it
  // current).
  bool HasCitationTable();
  // Writer only, inside the caller's transaction: creates the citation table,
  // its index and views, or refills it from paper.refs; returns its rows.
  int64_t BuildCitationTable();

 private:
  Store() = default;
  Status Init(const std::string& dir, Mode mode, bool create, Reporter* reporter);
  Status InitReader();
  Status InitWriter(Reporter* reporter);
  Status Migrate();
  Status ReadStoreId();
  Status PinGenerations(bool* gone);
  void RemoveUnused();
  // Checkpoints and empties the WAL when closing a writer (store.cc).
  void TruncateWal();
  static constexpr int kWalWaitMs = 2000;
  std::string dir_;
  Mode mode_ = Mode::kRead;
  Db db_;
  int lock_fd_ = -1;
  bool read_txn_ = false;
  StoreId id_{};
  std::map<std::string, std::unique_ptr<GenerationView>> views_;
  std::map<std::string, Status> view_errors_;
  std::vector<std::unique_ptr<GenerationView>> retired_views_;  // a writer's, superseded
  std::unordered_map<const char*, Stmt> stmts_;
};

// The SQL of each schema version's migration, exposed for the migration test.
const std::vector<std::string>& SchemaMigrations();

}  // namespace litgraph
