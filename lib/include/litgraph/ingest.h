// Ingest: records from files or stdin into a store, as one atomic update.
//
// Inputs are JSON lines (OpenAlex snapshot part files, API pages one per line,
// native records), a single JSON document spanning several lines (one record,
// an API page {"results": [...]}, or an array of records), each optionally
// gzip-compressed (detected by content, not name). See records.h for what a
// record may hold.
//
// Every work is an upsert keyed by its external id: a version whose
// updated_date is older than the stored one is skipped ("stale"), anything
// else replaces the stored paper with its authorships and topics (its dense
// id stays the same; its extracted keywords are dropped when title or
// abstract changed). References and related works are stored as the external
// ids the record gives; the graph build resolves them, so a reference to a
// work not yet in the store stays dangling until that work arrives.
//
// The whole run is one SQLite transaction, and the derived files of the new
// generation are committed with it: an ingest that fails, is interrupted or
// killed leaves the previous store readable and unchanged.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/graph_build.h"
#include "litgraph/report.h"
#include "litgraph/status.h"

namespace litgraph {

class Store;

struct IngestOptions {
  bool skip_invalid = false;           // count and skip malformed records
  bool build_graph = true;             // rebuild derived files after loading
  size_t max_line_bytes = 256u << 20;  // longer lines are malformed input
  // Memory of the whole ingest (doc/memory.md): while loading, half is
  // SQLite's page cache and half the lexical index's runs; then the graph
  // build's (GraphBuildOptions).
  size_t memory_budget = size_t{1} << 30;
  // Hears progress and warnings (skipped records, empty inputs).
  Reporter* reporter = NullReporter();
  // The graph build's (GraphBuildOptions; tests set them).
  uint32_t ranked_length = kRankedLength;
  size_t cooccur_top_k = kCooccurTopK;
  double full_build_fraction = 0.25;
  // The shares of their bases past which an update folds the lexical
  // index's delta and each relation's adjacency delta (GraphBuildOptions;
  // ingest --compact-at sets both).
  double lexical_delta_fraction = 0.2;
  double adjacency_delta_fraction = 0.2;
  // Build every derived graph file in full, not as an update (folds the
  // lexical delta into its base).
  bool compact = false;
  // After the graph changed, rebuild the store's citation metrics when it
  // has them (metrics.h RefreshMetrics, `threads` workers; 0: one per
  // core), after the ingest's own commit: a failure there leaves the new
  // records and graph committed and the metrics stale (litgraph-status
  // says so). false leaves them stale.
  bool update_metrics = true;
  // Workers of the metrics rebuild and of a graph update's COOCCUR recounts
  // (0: one per core).
  int threads = 0;
};

struct IngestStats {
  int64_t records = 0;  // JSON records read
  int64_t works = 0;    // works stored (new + updated)
  int64_t works_new = 0;
  int64_t works_updated = 0;
  int64_t works_stale = 0;  // older than the stored version: skipped
  int64_t entities = 0;     // author / institution / source / topic records
  int64_t skipped = 0;      // recognised but unsupported (concepts, funders, ...)
  int64_t invalid = 0;      // malformed, skipped under --skip-invalid
  int64_t references = 0;   // reference ids read from stored works
  int64_t input_bytes = 0;
  double load_seconds = 0;   // reading + SQLite
  double graph_seconds = 0;  // derived files
  double seconds = 0;        // total
  // From the graph build (zero when it was skipped).
  int64_t graph_edges = 0;
  int64_t cites_edges = 0;
  int64_t dangling_references = 0;
  bool metrics_rebuilt = false;  // RefreshMetrics ran
  double metrics_seconds = 0;
};

// Loads `inputs` ("-" = stdin; empty = stdin) into the store opened for
// writing. Returns MalformedInput "FILE:LINE: what" for malformed input (unless
// skip_invalid), IoError for unreadable files or store failures.
Status Ingest(Store* store, const std::vector<std::string>& inputs, const IngestOptions& options,
              IngestStats* stats);

}  // namespace litgraph
