// The store's write side: record upserts (ingest), the bulk-load mode of an
// empty store, keyword rows (extract-keywords) and the backend answer cache.
// Callers hold the writer lock (Store::Mode::kWrite) and an open transaction.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "litgraph/keywords.h"
#include "litgraph/records.h"
#include "litgraph/store.h"

namespace litgraph {

// Column values a work derives from its record, computed off the writer
// thread (ingest's reader thread): the SQLite writer is a load's bottleneck.
struct WorkKeys {
  std::string title_key, refs, related;  // NormalizeTitleKey, PackIdList x 2
};

// What a RecordWriter did.
struct WriteCounts {
  int64_t works = 0, works_new = 0, works_updated = 0;
  int64_t works_stale = 0;  // older than the stored version: skipped
  int64_t entities = 0;     // author / institution / source / topic records
  int64_t skipped = 0;      // recognised but unsupported (concepts, funders, ...)
  int64_t references = 0;   // reference ids of stored works
  // What was written, kept when `track` is set (the graph update's input):
  // dense ids of the works and author records, and whether a topic record
  // came.
  bool track = false;
  std::vector<uint32_t> papers, authors;
  bool topics = false;
  // (author, institution) AFFILIATED_WITH contributions the ingest replaced:
  // one per institution of each replaced work's stored authorships, and
  // each replaced author record's stored last institution.
  std::vector<std::pair<uint32_t, uint32_t>> old_affiliations;
};

// Applies records with prepared statements and per-run id caches. A work is
// an upsert keyed by its external id: a version whose updated_date is older
// than the stored one is skipped, anything else replaces the stored paper
// with its authorships and topics (its dense id stays; its keywords are
// dropped when title or abstract changed). Entity records overwrite the
// stub rows works created.
class RecordWriter {
 public:
  // `on_text`, when set, receives each stored work's dense id, title and
  // abstract (moved out of the record: its last use).
  RecordWriter(
      Store* store, WriteCounts* counts,
      std::function<void(int64_t id, std::string&& title, std::string&& abstract)> on_text = {});
  ~RecordWriter();
  // Returns the stored work's dense id; 0 for a stale work and for records
  // that are not works.
  int64_t Apply(Record& record, const WorkKeys& keys);
  // The dense id of a node a work names, a stub row inserted when the store
  // has none, as applying the work does (for rows copied from another
  // store: store_merge.h). EnsureTopic ensures the topic's hierarchy too.
  int64_t EnsureAuthor(const AuthorshipRec& a);
  int64_t EnsureInstitution(const InstitutionRef& i);
  int64_t EnsureSource(const SourceRef& s);
  int64_t EnsureTopic(const TopicRef& t);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Loading into an empty store. A rollback journal replaces the WAL for the
// load (new pages are written once, and the journal holds only the few pages
// that existed, so a crash still rolls back to the empty store), with the
// database locked exclusively so that no reader can make the commit fail;
// the WAL returns when this object goes. When readers already have the
// store open the load stays in WAL (the reporter hears why). Secondary indexes (every explicit
// CREATE INDEX) serve queries, not the load, which looks nodes up by ext_id: they are dropped and
// re-created after it by a sort, in the same transaction.
class BulkLoad {
 public:
  // Before the load's transaction begins.
  BulkLoad(Store* store, Reporter* reporter);
  ~BulkLoad();
  // Inside the transaction, before and after the load.
  void DropSecondaryIndexes();
  void RestoreSecondaryIndexes();

 private:
  Store* store_;
  bool rollback_journal_ = false;
  std::vector<std::string> deferred_;
};

// Writes extracted keywords: Keyword nodes (created on first use, with their
// FTS row), a paper's HAS_KEYWORD rows (replacing its earlier ones) and the
// record that the paper was processed by `backend`. Keyword ids are cached
// in about `cache_bytes` (a full cache starts afresh; ids it lacks are looked
// up in SQLite), so the ids written do not depend on it.
// With `keep_counts`, the writer also keeps keyword.paper_count exact: the
// changes its writes make are applied by ApplyCounts (before each commit),
// so an update costs what it changed rather than a recount of every link
// (RefreshKeywordCounts, which bulk writers call instead).
class KeywordWriter {
 public:
  KeywordWriter(Store* store, std::string backend, size_t cache_bytes, bool keep_counts = false);
  // Returns the number of links written.
  int64_t Write(int64_t paper, const std::vector<Keyword>& keywords);
  // With keep_counts, when every paper this writer will write is in
  // keyword_pending (extract-keywords --missing): reads those papers' links
  // in one pass, in place of a lookup per paper written, and a paper
  // without any is written without deleting.
  void ReadPendingLinks();
  // Adds the writes' changes since the last call to keyword.paper_count.
  void ApplyCounts();
  // The keyword's id, inserted (with its display form `surface`, when that
  // differs from the text) if new.
  int64_t KeywordId(const std::string& text, const std::string& surface = "");

 private:
  Store* store_;
  std::string backend_;
  std::unordered_map<std::string, int64_t> cache_;
  size_t cache_bytes_ = 0, cache_limit_;
  bool keep_counts_;
  std::unordered_map<int64_t, int64_t> count_changes_;  // keyword id -> links added
  bool read_pending_ = false;
  std::unordered_map<int64_t, std::vector<int64_t>> old_links_;  // ReadPendingLinks'
  std::vector<int64_t> ids_;                                     // Write's scratch
};

// Recounts every keyword's paper_count; returns the keywords in use.
int64_t RefreshKeywordCounts(Store* store);
// The keywords with at least one paper.
int64_t KeywordsInUse(Store* store);

}  // namespace litgraph
