// Reading a store back as the records that built it, for litgraph-merge
// (merge.h): each work as the WorkRec an ingest would apply (authorships,
// institutions, venue, topics with their hierarchy, packed references as
// stored), with the keywords extraction gave it, and the entity records
// (author, institution, source and topic rows an entity record wrote).
// Every scan streams rows in dense id order: memory does not grow with the
// store. The store may be opened for reading (its snapshot is what is read).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "litgraph/keywords.h"
#include "litgraph/records.h"
#include "litgraph/store.h"
#include "litgraph/store_write.h"

namespace litgraph {

// A work of a store with what hangs on it.
struct StoredWork {
  int64_t id = 0;  // dense id in the store read
  Record record;   // a WorkRec
  WorkKeys keys;   // title_key and the packed refs / related as stored
  // Extraction: whether the paper was processed (keyword_extracted) and by
  // which backend, its keywords by keyword id (score, display form).
  bool keywords_extracted = false;
  std::string keyword_backend;
  std::vector<Keyword> keywords;
  // Its title or abstract changed since its vectors were made.
  bool vectors_stale = false;
};

// Calls fn for every work of `store` in dense id order. Corruption when a
// packed reference list is damaged.
Status ForEachStoredWork(Store* store, const std::function<void(StoredWork&)>& fn);

// Calls fn with an entity record (AuthorRec, InstitutionRec, SourceRec,
// TopicRec) for every author, institution, source and topic row an entity
// record wrote (updated_date set), by table then id. Stub rows that works
// created are left out: applying the works creates them.
void ForEachStoredEntity(Store* store, const std::function<void(Record&)>& fn);

// The copy of a store's works into another, table by table (CopyStoredWorks).
// A paper copied: its dense ids in both stores, and whether its vectors
// were stale in `shard`.
struct CopiedPaper {
  int64_t id = 0;        // in the store written
  int64_t shard_id = 0;  // in the store read
  bool vectors_stale = false;
};
struct CopiedWorks {
  int64_t works = 0, references = 0, paper_keywords = 0;
};

// Whether CopyStoredWorks may apply `shard`'s works to `out`: none of them
// is a paper of `out` (no external id in common: else each is an upsert
// that compares dates) and `out` keeps no citation table. One lookup per
// paper of `shard`.
bool CanCopyStoredWorks(Store* out, Store* shard);

// Applies every work of `shard` to `out` (a writer, inside its transaction)
// with the rows, dense ids and keyword links that ForEachStoredWork applied
// through `writer` and KeywordWriter::Write gives, but table by table:
// papers (with their venues), then authorships (authors, institutions),
// topics (with their hierarchy), keywords; a paper without extracted
// keywords waits for extraction (keyword_pending). Each table is read in its
// primary key's order, so no record is built and each written table grows
// at its end. Nodes are met in the order the works would meet them, so they
// get the same ids; maps from `shard`'s ids to `out`'s take 4 bytes per
// paper, author, institution, keyword and topic of `shard`. Calls fn for
// each paper in id order and step(name) as each table starts. Corruption
// when a packed reference list is damaged. The caller checked
// CanCopyStoredWorks and applied `shard`'s entity records first.
Status CopyStoredWorks(Store* out, Store* shard, RecordWriter* writer, KeywordWriter* keywords,
                       const std::function<void(const CopiedPaper&)>& fn,
                       const std::function<void(std::string_view step)>& step, CopiedWorks* counts);

// Calls fn(id, ext_id) for every keyword of `store` in id order.
void ForEachKeywordExtId(Store* store,
                         const std::function<void(int64_t id, std::string_view ext_id)>& fn);

// Writer only, inside the caller's transaction: forgets that `paper`'s
// vectors are stale (vectors for its current text were carried over).
void ClearVectorsStale(Store* store, int64_t paper);

}  // namespace litgraph
