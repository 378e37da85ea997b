// The store: a directory holding a SQLite database of record metadata and
// source relations, next to generations of derived, memory-mapped files
// (graph, lexical index, vectors). The full format is in doc/store-format.md.
//
//   DIR/litgraph.sqlite      SQLite (WAL): nodes, source relations, FTS5
//   DIR/LOCK                 flock()ed by the one writer at a time
//   DIR/graph.<N>/           derived graph files of generation N
//   DIR/vectors.<N>/         vectors and HNSW indexes of generation N
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
// Opening reads only the meta table: nothing proportional to the store size.
// Thread-safety: a Store and everything it returns belong to one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "litgraph/sqlite.h"
#include "litgraph/status.h"

namespace litgraph {

class FtsTokens;

// The schema version this build writes; older stores are migrated on the
// first write-mode open (read-mode refuses newer or unmigrated stores).
inline constexpr int kSchemaVersion = 3;

// Node types with dense per-type ids (SQLite rowids of their tables).
enum class NodeType : uint8_t {
  kPaper, kAuthor, kInstitution, kSource, kTopic, kSubfield, kField, kDomain, kKeyword,
};
inline constexpr int kNodeTypeCount = 9;
const char* NodeTypeName(NodeType t);       // "paper", "author", ...
const char* NodeTypeTable(NodeType t);      // SQL table
bool ParseNodeType(std::string_view s, NodeType* t);

// A paper as tools print it (the common fields of litgraph-json(7)).
struct PaperSummary {
  int64_t id = 0;                 // dense id
  std::string ext_id, title, doi, type, venue, date;
  int year = 0;
  int64_t cited_by_count = -1;    // from the record; -1 when absent
  std::vector<std::string> authors;  // names in author order
};

class Store {
 public:
  enum class Mode { kRead, kWrite };

  // Opens DIR. kWrite migrates the schema, takes the writer lock (waiting for
  // another writer) and removes orphan generations; it creates the directory
  // and database only when `create` is set (ingest), else a missing store is
  // an Io error as in kRead.
  static Result<std::unique_ptr<Store>> Open(const std::string& dir, Mode mode,
                                             bool create = false);
  ~Store();

  Db& db() { return db_; }
  // The FTS5 token replay of a writer's connection (fts_tokens.h); null for
  // readers.
  FtsTokens* fts_tokens() { return fts_tokens_; }
  const std::string& dir() const { return dir_; }
  Mode mode() const { return mode_; }

  // Current generation number of a derived artifact ("graph", "vectors"),
  // 0 when none was built; and its directory.
  int64_t Generation(const std::string& artifact);
  std::string ArtifactDir(const std::string& artifact, int64_t generation) const;
  // Writer only: a fresh empty directory for the next generation.
  Result<std::string> NewArtifactDir(const std::string& artifact, int64_t* generation);
  // Writer only, inside the caller's transaction: makes `generation` current.
  void SetGeneration(const std::string& artifact, int64_t generation);

  std::optional<std::string> GetMeta(const std::string& key);
  void SetMeta(const std::string& key, const std::string& value);

  // Lookups by the forms users type. Return dense paper ids.
  std::optional<int64_t> PaperByExtId(const std::string& ext_id);
  std::optional<int64_t> PaperByDoi(const std::string& doi);  // any DOI form
  std::vector<int64_t> PapersByTitleKey(const std::string& title_key);
  // Resolves an id, OpenAlex URL, DOI (bare/URL/doi:) to a paper.
  std::optional<int64_t> ResolvePaperId(const std::string& text);

  std::optional<PaperSummary> GetPaperSummary(int64_t id);
  int64_t PaperCount();
  int64_t MaxId(NodeType t);  // largest dense id in use (0 when empty)

  // Resolves a node of any type from its external id; `type_hint` (a node
  // type name, may be empty) picks the table. Papers also resolve by DOI.
  std::optional<std::pair<NodeType, int64_t>> ResolveNode(const std::string& ext_id,
                                                          const std::string& type_hint = "");

  // The external id and display name of any node.
  std::optional<std::pair<std::string, std::string>> NodeLabel(NodeType t, int64_t id);
  std::optional<int64_t> NodeByExtId(NodeType t, const std::string& ext_id);

 private:
  Store() = default;
  Status Init(const std::string& dir, Mode mode, bool create);
  Status Migrate();
  void RemoveOrphanGenerations();

  std::string dir_;
  Mode mode_ = Mode::kRead;
  Db db_;
  FtsTokens* fts_tokens_ = nullptr;  // owned by db_'s connection
  int lock_fd_ = -1;
  bool read_txn_ = false;
  Stmt by_ext_, by_doi_, by_title_, summary_, summary_authors_;
};

// The SQL of each schema version's migration, exposed for the migration test.
const std::vector<std::string>& SchemaMigrations();

}  // namespace litgraph
