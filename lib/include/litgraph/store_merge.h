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

// Calls fn(id, ext_id) for every keyword of `store` in id order.
void ForEachKeywordExtId(Store* store,
                         const std::function<void(int64_t id, std::string_view ext_id)>& fn);

// Writer only, inside the caller's transaction: forgets that `paper`'s
// vectors are stale (vectors for its current text were carried over).
void ClearVectorsStale(Store* store, int64_t paper);

}  // namespace litgraph
