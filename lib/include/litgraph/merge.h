// Merging shard stores into one (litgraph-merge): the last step of a sharded
// build, where each slice of a corpus was built into a store of its own by
// the ordinary tools (ingest; extract-keywords --stats-from and embed
// --model-from a common sample, so that every shard uses one set of phrase
// statistics and one embedding model).
//
// Each shard is read back as the records that built it (store_merge.h) and
// applied, shard after shard, through ingest's RecordWriter: the merged
// store deduplicates papers, authors, institutions, venues and topics by
// their external ids exactly as an ingest of the concatenated inputs would
// (a work older than the stored version is skipped, any other replaces it),
// and references that dangled in a shard resolve when the graph is built.
// Keyword rows are written with each work (KeywordWriter), vectors are
// carried over by external id, and the derived files are built once at the
// end: the graph (BuildGraph, lexical index included), the phrase
// statistics (counted over the merged corpus, as a full extract-keywords
// run would) and the HNSW indexes over the merged vectors (OUT's own, or
// the first shard's into an empty OUT, extended when their rows are the
// merged store's, else built anew), beside which the other shards' indexes
// are kept as segments when their rows allow it. With shards cut
// from consecutive slices of an input and merged in that order, dense ids
// are those of a single ingest of the input, and queries answer the same.
//
// Atomic: the whole merge is one SQLite transaction on OUT, and the new
// generations (graph, keywords, vectors) commit with it; a merge that fails,
// is interrupted or killed leaves OUT as it was (the next writer removes the
// uncommitted generation directories). Restartable: merging is an upsert, so
// running the same merge again after a crash, or after it succeeded, gives
// the same store.
//
// Memory (doc/memory.md): SQLite's page cache and the graph build within
// `memory_budget`, plus 8 bytes per work and per keyword of OUT (where each
// row's vector comes from), plus 5 bytes per row of a field while its
// segments are chosen (each shard row's merged row, and which rows a segment
// holds), plus HNSW's build (dim x 4 + 128 bytes per vector inserted at
// M = 16).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "litgraph/report.h"
#include "litgraph/status.h"
#include "litgraph/vectors.h"

namespace litgraph {

class Store;

struct MergeOptions {
  // Carry vectors over. Shards with vectors must agree on the model (and
  // with OUT's, when it has vectors); false leaves OUT's vectors as they are
  // (new papers get theirs from `embed --missing`).
  bool vectors = true;
  // A shard whose index holds exactly the vectors it gives the merged store
  // keeps it as a segment of the merged field (vectors.h) instead of having
  // its vectors inserted into one index: the merge copies the index, and
  // embed's compactions fold the segments later (once half of one is stale).
  // false builds one index per field, as a single-process build has.
  bool vector_segments = true;
  // At most this many segments per field (each costs every vector search
  // one more HNSW search: 0.4-0.5 ms each at 1M works in a warm process, and
  // more in a fresh one, bench/results/2026-11-27-segments): the shards with
  // the most vectors keep their indexes, the others' vectors are inserted.
  size_t max_segments = 8;
  // A shard none of whose works OUT holds yet is copied table by table
  // (store_merge.h: CopyStoredWorks); false applies every work one by one,
  // as for shards that overlap (the same rows, slower).
  bool copy_works = true;
  size_t memory_budget = size_t{1} << 30;
  HnswBuildOptions hnsw;  // the indexes over the merged vectors; its threads count phrases too
  Reporter* reporter = NullReporter();
};

struct MergeStats {
  int64_t shards = 0;
  int64_t works = 0;  // works written (new + updated)
  int64_t works_new = 0, works_updated = 0;
  int64_t works_stale = 0;  // older than the version OUT already had: skipped
  // Works of shards copied table by table (none of their works was in OUT).
  int64_t works_copied = 0;
  // Of those, works whose lexical postings came from their shard's kept runs
  // (lexical.h, KeptRuns) instead of their texts tokenized again.
  int64_t works_from_kept_runs = 0;
  // Of those, works whose phrases came from the counts their shard's
  // extract-keywords kept (keyword_store.h) instead of their texts.
  int64_t works_from_kept_counts = 0;
  int64_t entities = 0;        // author / institution / source / topic records
  int64_t paper_keywords = 0;  // HAS_KEYWORD rows written
  int64_t keywords = 0;        // Keyword nodes in use afterwards
  int64_t vectors = 0;         // title + abstract + keyword vectors carried over
  // Vectors inserted into (or re-linked in) the HNSW indexes: all of them,
  // or, when an index was extended (OUT's own, or the first shard's), the
  // rows it lacked and the rows a shard replaced.
  int64_t vectors_indexed = 0;
  // Vectors whose shard's index was kept as a segment, and the segments.
  int64_t vectors_in_segments = 0, vector_segments = 0;
  std::string model_id;  // of the merged vectors ("" when none)
  int64_t graph_edges = 0, cites_edges = 0, dangling_references = 0;
  double load_seconds = 0, keywords_seconds = 0, graph_seconds = 0, vectors_seconds = 0;
  double seconds = 0;
};

// Merges the stores at `shards` (directories, in order) into `out`, opened
// for writing (it may hold papers already). InvalidArgument when a shard is
// OUT itself, or when vectors are carried over and the shards' models differ
// (or differ from OUT's), or some shards have vectors and others none;
// IoError / Corruption when a shard cannot be read. On any error OUT is
// unchanged.
Status Merge(Store* out, const std::vector<std::string>& shards, const MergeOptions& options,
             MergeStats* stats);

}  // namespace litgraph
