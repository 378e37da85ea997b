// Building the derived graph files of a store from its SQLite tables.
//
// BuildGraph writes a complete new generation directory (every adjacency of
// graph.h, the paper attribute arrays and the lexical index of lexical.h), then records it as
// current in the caller's open write transaction: the graph becomes visible exactly when the SQLite
// data it was built from commits.
//
// Derived relations:
//  - CITES resolves each paper's stored reference ids against the papers in
//    the store; unresolved ids are dangling references (counted in the stats,
//    linked by a later build once the cited work is ingested). Self-citations
//    and duplicate references are dropped.
//  - RELATED_TO is symmetrised; each edge's attribute says which side listed
//    the other (kRelatedListed / kRelatedListedBy bits), so an update can
//    take one paper's listing out.
//  - COAUTHOR counts the papers two authors share. A paper with more than
//    kCoauthorFullTeam authors contributes pairs only among its first
//    kCoauthorHead and last kCoauthorTail authors (lead and senior positions),
//    so one 3,000-author paper adds 300 pairs rather than 4.5 million.
//  - AFFILIATED_WITH counts the papers on which an author lists an institution,
//    plus the author record's last known institution.
//  - COOCCUR counts the papers two keywords share; each keyword keeps its
//    cooccur_top_k (64) strongest co-occurrences (and their reverse edges), so a
//    popular keyword's thousands of single co-occurrences do not weigh on
//    every walk through it.
//
// Memory: edges are sorted within GraphBuildOptions::memory_budget, spilled
// runs merged (edge_sort.h). An update (UpdateGraph) holds the changed lists
// in memory: proportional to the edges the change reaches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/report.h"
#include "litgraph/status.h"

namespace litgraph {

class Store;

inline constexpr int kCoauthorFullTeam = 25;
inline constexpr int kCoauthorHead = 20;
inline constexpr int kCoauthorTail = 5;
inline constexpr size_t kCooccurTopK = 64;

struct LexicalBuilders;

struct GraphBuildOptions {
  uint32_t nodes_per_block = 16;  // chosen by bench/graph_bench (doc/graph-format.md)
  int zstd_level = 3;
  Reporter* reporter = NullReporter();
  // Already holds every paper's text (ingest into an empty store feeds one
  // while loading); finished on a second thread while relations are built.
  // Null: the lexical index is built by scanning the paper table.
  LexicalBuilders* lexical = nullptr;
  // Already holds the texts of the papers an update changed (ingest feeds
  // one while loading, on a thread of its own): UpdateGraph's lexical delta
  // then reads only the older delta's papers from the paper table. Full
  // builds ignore it.
  LexicalBuilders* changed_texts = nullptr;
  // Threads for an update's COOCCUR recounts and a full build of the lexical
  // indexes (0: one per core).
  int threads = 0;
  // Length of the ranked lists of hub relations (graph.h; tests use short ones).
  uint32_t ranked_length = kRankedLength;
  // Bytes the edge sorters may hold in memory (edge_sort.h); beyond it they
  // spill sorted runs into the new generation's directory and merge them.
  size_t memory_budget = size_t{1} << 30;
  // Each keyword's own COOCCUR list: its strongest co-occurrences (tests
  // use fewer).
  size_t cooccur_top_k = kCooccurTopK;
  // UpdateGraph (and UpdateKeywordLayer) build in full instead when more
  // papers than this fraction of the store changed.
  double full_build_fraction = 0.25;
  // An update rebuilds the lexical indexes in full (compacts them) instead
  // of writing a delta when the delta would hold more papers than this
  // fraction of the base's (lexical.h, UpdateLexicalIndexes).
  double lexical_delta_fraction = 0.2;
  // An update writes a relation's changed lists into its adjacency delta
  // (graph.h), the base linked unchanged, until the delta would be this
  // fraction of the base file's size; then it folds the delta into a new
  // base. 0 folds every delta, and writes none.
  double adjacency_delta_fraction = 0.2;
};

struct GraphBuildStats {
  int64_t edges = 0;  // over all adjacency files (each direction once)
  int64_t cites_edges = 0;
  int64_t dangling_references = 0;
  int64_t bytes = 0;        // on disk
  int64_t cites_bytes = 0;  // cites.out + cites.in
  int64_t lexical_terms = 0, lexical_postings = 0;
  double seconds = 0;
};

// Builds every file of a new generation. Requires a store opened for writing
// with a transaction open.
Status BuildGraph(Store* store, const GraphBuildOptions& options, GraphBuildStats* stats);

// What an ingest changed (dense ids), for UpdateGraph.
struct GraphChanges {
  std::vector<uint32_t> papers;   // works upserted: new or replaced
  std::vector<uint32_t> authors;  // author records upserted (their last institution)
  bool hierarchy = false;         // topic, subfield, field or domain records upserted
  // (author, institution) AFFILIATED_WITH contributions of the rows the
  // ingest replaced, as the current graph counts them (WriteCounts).
  std::vector<std::pair<uint32_t, uint32_t>> old_affiliations;
};

// Writes the next generation from the current one and the rows that
// changed, rewriting only what the change reaches (graph_update.cc): the
// same files as BuildGraph over the same rows, byte for byte. Builds in full
// (BuildGraph) when the store has no graph yet, when its graph was written
// by an older release, or when more than options.full_build_fraction of the
// papers changed.
Status UpdateGraph(Store* store, const GraphChanges& changes, const GraphBuildOptions& options,
                   GraphBuildStats* stats);

// The keyword layer only (extract-keywords): a new generation with HAS_KEYWORD
// and COOCCUR rebuilt and every other file hard-linked from the current one.
// InvalidArgument when the store has no graph yet.
Status RebuildKeywordLayer(Store* store, const GraphBuildOptions& options);

// The same for a change of the keyword rows of `papers` (dense ids) only:
// their lists and the lists they reach are patched (graph_update.cc), the
// files byte for byte those of RebuildKeywordLayer. Rebuilds instead when
// more than options.full_build_fraction of the papers changed or the graph
// cannot be patched.
Status UpdateKeywordLayer(Store* store, const std::vector<uint32_t>& papers,
                          const GraphBuildOptions& options);

}  // namespace litgraph
