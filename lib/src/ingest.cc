#include "litgraph/ingest.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <type_traits>
#include <unordered_map>

#include "line_reader.h"
#include "litgraph/bounded_queue.h"
#include "litgraph/coding.h"
#include "litgraph/flat_map.h"
#include "litgraph/graph_build.h"
#include "litgraph/jsonl.h"
#include "litgraph/lexical.h"
#include "litgraph/metrics.h"
#include "litgraph/records.h"
#include "litgraph/store.h"
#include "litgraph/store_write.h"
#include "litgraph/text.h"
#include "scoped_thread.h"
#include "text_feeder.h"

namespace litgraph {

namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

bool IsBlank(std::string_view s) {
  return s.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// A first line that opens a JSON value without closing it ("{", "[",
// '{"id": "W1",') starts a multi-line document; a complete but malformed
// line is a bad JSON-lines record instead.
bool LooksLikeDocumentStart(std::string_view line) {
  size_t a = line.find_first_not_of(" \t"), b = line.find_last_not_of(" \t");
  if (a == std::string_view::npos) return false;
  return (line[a] == '{' || line[a] == '[') && line[b] != '}' && line[b] != ']';
}

// What the reader thread hands the writer: parsed records of one input line
// (or one document) with their derived keys, or the error that line had.
struct Item {
  std::vector<Record> records;
  std::vector<WorkKeys> keys;  // parallel to records (empty for non-works)
  Status error;
};

struct Batch {
  std::vector<Item> items;
  Status fatal;  // unreadable input: stops the run even with --skip-invalid
  int64_t bytes = 0;
};

using BatchQueue = BoundedQueue<Batch>;

std::string Where(const std::string& file, int64_t line) {
  return fmt::format("{}:{}", file, line);
}

// Reads every input, parses, and pushes batches. Runs on its own thread.
void Produce(const std::vector<std::string>& inputs, const IngestOptions& options,
             BatchQueue* queue, std::function<void(const std::string&)> note_empty) {
  RecordParser parser;
  Batch batch;
  auto flush = [&] {
    queue->Push(std::move(batch));
    batch = Batch();
  };
  std::string line;
  for (const std::string& path : inputs) {
    LineReader reader;  // gzip or plain
    Status st = reader.Open(path, /*gzip=*/true);
    if (!st.ok()) {
      batch.fatal = st;
      flush();
      break;
    }
    bool first = true;
    int64_t records_in_file = 0;
    int64_t last_bytes = 0;
    while (reader.Next(&line, options.max_line_bytes, &st)) {
      if (IsBlank(line)) continue;
      int64_t line_no = reader.line_no();
      size_t used = line.size();
      line.resize(used + RecordParser::kPadding);
      Item item;
      Status ps = parser.Parse(std::string_view(line.data(), used), true, &item.records);
      line.resize(used);
      if (!ps.ok() && first && LooksLikeDocumentStart(line)) {
        // Not one record per line: the file is one JSON document.
        std::string doc = line;
        std::string more;
        while (reader.Next(&more, options.max_line_bytes, &st)) {
          doc += '\n';
          doc += more;
        }
        if (!st.ok()) break;
        size_t used_doc = doc.size();
        doc.resize(used_doc + RecordParser::kPadding);
        item.records.clear();
        ps = parser.Parse(std::string_view(doc.data(), used_doc), true, &item.records);
      }
      first = false;
      if (!ps.ok())
        item.error = Status::MalformedInput(Where(reader.name(), line_no) + ": " + ps.message());
      records_in_file += static_cast<int64_t>(item.records.size()) + (ps.ok() ? 0 : 1);
      item.keys.resize(item.records.size());
      for (size_t i = 0; i < item.records.size(); ++i)
        if (auto* w = std::get_if<WorkRec>(&item.records[i])) {
          WorkKeys& k = item.keys[i];
          k.title_key = NormalizeTitleKey(w->title);
          k.refs = PackIdList(w->refs);
          k.related = PackIdList(w->related);
        }
      batch.items.push_back(std::move(item));
      if (batch.items.size() >= 512) {
        batch.bytes = reader.bytes() - last_bytes;
        last_bytes = reader.bytes();
        flush();
      }
    }
    batch.bytes += reader.bytes() - last_bytes;
    if (!st.ok()) {
      batch.fatal = st;
      flush();
      break;
    }
    if (records_in_file == 0) note_empty(reader.name());
  }
  flush();
  queue->Done();
}

// Applies the reader thread's batches in the caller's transaction.
Status ApplyBatches(BatchQueue* queue, RecordWriter* writer, const IngestOptions& options,
                    IngestStats* stats, Clock::time_point t0, const WriteCounts& counts) {
  Batch batch;
  auto last_progress = Clock::now();
  while (queue->Pop(&batch)) {
    stats->input_bytes += batch.bytes;
    for (Item& item : batch.items) {
      if (!item.error.ok()) {
        if (!options.skip_invalid) return item.error;
        ++stats->invalid;
        options.reporter->Warn("skipped: " + item.error.message());
        continue;
      }
      for (size_t i = 0; i < item.records.size(); ++i) {
        ++stats->records;
        writer->Apply(item.records[i], item.keys[i]);
      }
    }
    if (!batch.fatal.ok()) return batch.fatal;
    queue->Return(std::move(batch));
    if (Since(last_progress) > 0.5) {
      last_progress = Clock::now();
      options.reporter->Progress(fmt::format("{} works, {:.0f} works/s", counts.works,
                                             static_cast<double>(counts.works) / Since(t0)));
    }
  }
  options.reporter->Progress("");
  return Status::Ok();
}

}  // namespace

Status Ingest(Store* store, const std::vector<std::string>& inputs_in, const IngestOptions& options,
              IngestStats* stats) {
  auto t0 = Clock::now();
  if (store->mode() != Store::Mode::kWrite)
    return Status::Internal("Ingest needs a store opened for writing");
  std::vector<std::string> inputs = inputs_in;
  if (inputs.empty()) inputs.push_back("-");
  BatchQueue queue(16);
  std::vector<std::string> empty_inputs;
  std::mutex empty_mu;
  ScopedThread producer([&] { queue.Close(); },
                        [&] {
                          Produce(inputs, options, &queue, [&](const std::string& name) {
                            std::lock_guard<std::mutex> l(empty_mu);
                            empty_inputs.push_back(name);
                          });
                        });

  WriteCounts counts;
  try {
    std::unique_ptr<BulkLoad> bulk;
    if (store->IsEmpty()) bulk = std::make_unique<BulkLoad>(store, options.reporter);
    // An update of a store with a graph patches it (graph_build.h, UpdateGraph),
    // unless an ingest with --no-graph changed rows the graph does not show.
    const bool has_graph = !bulk && store->Generation("graph") > 0;
    counts.track = has_graph && options.build_graph && store->GetMeta("graph_stale") != "1";
    // SQLite within the budget: half of it as page cache, a quarter mapped,
    // and index builds' sorts spilled to temporary files, not to memory.
    store->LimitSqliteMemory(options.memory_budget / 2, options.memory_budget / 4);
    Transaction txn(&store->db(), "IMMEDIATE");
    // Into an empty store the lexical indexes are tokenized on a thread of
    // their own during the load, and built while SQLite builds its indexes.
    // An update tokenizes the texts it writes likewise, for the lexical
    // delta of the graph update.
    const bool update = counts.track && !options.compact;
    std::unique_ptr<LexicalBuilders> lexical;
    std::unique_ptr<TextFeeder> feeder;
    if ((bulk && options.build_graph) || update) {
      // Its runs go beside the generations (a killed load's are removed with
      // the next graph generation's leftovers); half the budget for a bulk
      // load, the other half being SQLite's while it loads, a quarter for
      // an update (whose graph update needs memory beside it).
      lexical = std::make_unique<LexicalBuilders>(store->dir() + "/graph.lexical.tmp",
                                                  options.memory_budget / (bulk ? 2 : 4));
      feeder = std::make_unique<TextFeeder>(lexical.get());
    }
    if (bulk) bulk->DropSecondaryIndexes();
    RecordWriter writer(store, &counts,
                        [&](int64_t id, std::string&& title, std::string&& abstract) {
                          if (feeder) feeder->Add(id, std::move(title), std::move(abstract));
                        });
    LITGRAPH_RETURN_IF_ERROR(ApplyBatches(&queue, &writer, options, stats, t0, counts));
    if (counts.works > 0) store->NoteTextsWritten();
    if (feeder) {
      feeder->Finish();
      if (bulk) lexical->StartBuild(static_cast<uint64_t>(store->MaxId(NodeType::kPaper)) + 1);
    }
    if (bulk) bulk->RestoreSecondaryIndexes();
    stats->load_seconds = Since(t0);
    for (const auto& name : empty_inputs) options.reporter->Warn(name + ": no records in input");
    if (!options.build_graph && has_graph) store->SetMeta("graph_stale", "1");
    if (options.build_graph) {
      if (has_graph) store->SetMeta("graph_stale", "0");  // committed with the new generation
      auto tg = Clock::now();
      GraphBuildStats gs;
      GraphBuildOptions go;
      go.reporter = options.reporter;
      go.lexical = bulk ? lexical.get() : nullptr;
      go.changed_texts = bulk ? nullptr : lexical.get();
      go.memory_budget = options.memory_budget;
      go.threads = options.threads;
      go.ranked_length = options.ranked_length;
      go.cooccur_top_k = options.cooccur_top_k;
      go.full_build_fraction = options.full_build_fraction;
      go.lexical_delta_fraction = options.lexical_delta_fraction;
      go.adjacency_delta_fraction = options.adjacency_delta_fraction;
      if (update) {
        GraphChanges changes;
        changes.papers = std::move(counts.papers);
        changes.authors = std::move(counts.authors);
        changes.hierarchy = counts.topics;
        changes.old_affiliations = std::move(counts.old_affiliations);
        LITGRAPH_RETURN_IF_ERROR(UpdateGraph(store, changes, go, &gs));
      } else {
        LITGRAPH_RETURN_IF_ERROR(BuildGraph(store, go, &gs));
      }
      stats->graph_edges = gs.edges;
      stats->cites_edges = gs.cites_edges;
      stats->dangling_references = gs.dangling_references;
      stats->graph_seconds = Since(tg);
    }
    txn.Commit();
  } catch (const StatusError& e) {
    return e.status();
  }
  if (options.build_graph && options.update_metrics) {
    const auto tm = Clock::now();
    MetricsBuildStats ms;
    LITGRAPH_RETURN_IF_ERROR(
        RefreshMetrics(store, options.threads, &stats->metrics_rebuilt, &ms, options.reporter));
    stats->metrics_seconds = Since(tm);
  }
  stats->works = counts.works;
  stats->works_new = counts.works_new;
  stats->works_updated = counts.works_updated;
  stats->works_stale = counts.works_stale;
  stats->entities = counts.entities;
  stats->skipped = counts.skipped;
  stats->references = counts.references;
  stats->seconds = Since(t0);
  return Status::Ok();
}

}  // namespace litgraph
