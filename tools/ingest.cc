// litgraph-ingest: loads publication records into a store.
//
// Reads OpenAlex works / authors / institutions / sources / topics and native
// paper records from files or stdin (JSON lines, API pages, single documents,
// gzip or plain), upserts them into the store at --db and rebuilds the graph
// files, all as one atomic update. Writes nothing to stdout unless --stats
// asks for a JSON summary; the human summary goes to stderr.
// Exit codes: 0 ok, 2 usage, 3 malformed record (FILE:LINE named), 4 I/O or
// store error, 5 internal error.
#include "litgraph/ingest.h"

#include <fmt/format.h>

#include "litgraph/store.h"
#include "tool.h"

// Read by jemalloc (CMakeLists.txt links it to this tool) at start-up: keep
// freed pages instead of returning them to the kernel after 10 s. A load
// frees and reallocates gigabytes (records, then the graph build's edge
// arrays), and every returned page came back as a fault plus a zeroing:
// the graph phase of a 1M-work load took 9.5-9.9 s instead of 11.9-14.2 s,
// for ~8% more peak RSS (bench/results/2026-11-22-ingest/summary.md).
extern "C" {
const char* malloc_conf = "dirty_decay_ms:-1,muzzy_decay_ms:-1";
// jemalloc's control interface; null when the tool is linked without it
// (sanitizer builds).
int mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen)
    __attribute__((weak));
}

namespace {

using namespace litgraph;

Manual ToolManual() {
  Manual man;
  man.synopsis = "[OPTIONS] [FILE...]";
  man.description =
      "Loads publication records into the store at --db, creating it when missing. Each FILE "
      "(or standard input, when no FILE or - is given) holds OpenAlex records as JSON lines "
      "(snapshot part files, API pages one per line), a single JSON document (one record, an "
      "API page {\"results\": [...]}, or an array of records), optionally gzip-compressed.\n\n"
      "OpenAlex works become Paper nodes with their authors, institutions, venue, topics, "
      "references and related works; OpenAlex author, institution, source and topic records "
      "enrich those nodes. Native records "
      "{\"id\",\"title\",\"abstract\",\"year\",\"authors\":[...],\"venue\",\"doi\","
      "\"references\":[...]} bring papers from other sources.\n\n"
      "Ingest is an upsert: a work already in the store is replaced unless the stored version "
      "has a newer updated_date, so a cron job can feed daily OpenAlex changes. References to "
      "works not in the store are kept and linked when the cited work arrives. The whole run "
      "is one atomic update: if it fails or is killed, the store keeps its previous content.\n\n"
      "An update into a store with a graph writes only what the changed records reach: "
      "the new lists of the nodes they touch, into each relation's delta of the lists changed "
      "since its base, and a delta of the full-text index holding the papers changed since its "
      "base (searched together with the base, scored with the base's statistics). When a delta "
      "would pass 20% of its base (--compact-at: the full-text index's papers, a relation's "
      "bytes), it is folded into a new base; --compact rebuilds every derived graph file. A "
      "cron job that updates "
      "often can leave the fold to a quieter hour: "
      "--compact-at 100 on the updates, and ingest --compact-at 0 with no input when it "
      "suits. "
      "Readers keep their snapshot during every update.\n\n"
      "When the store has citation metrics (litgraph-metrics --build) and the update changed "
      "what they are computed from, they are rebuilt with the options they were built with "
      "(window, PageRank, novelty K and seed, keyword novelty), after the records and graph "
      "are committed; all of them, since CD, PageRank, percentiles and novelty are global. "
      "That costs about what litgraph-metrics --build does (at 1M papers ~40 s without "
      "novelty, minutes with it). --no-metrics skips it: the metrics are then stale, "
      "litgraph-status says so, and the tools compute instead of reading them until "
      "litgraph-metrics --build runs.";
  man.input =
      "JSON records; see litgraph-json(7) for the native record and the accepted "
      "OpenAlex fields. Unknown fields are ignored. Lines may end in LF, CRLF or CR, and a "
      "UTF-8 byte order mark at the start of an input is skipped.";
  man.output =
      "A summary on standard error (works, edges, works/s). With --stats, the same summary as "
      "one JSON object on standard output.";
  man.exit_status =
      "A malformed record (including an id with a control character) stops the run with exit "
      "3 and a message naming the file and line; "
      "nothing from the run is stored. With --skip-invalid such records are counted, reported "
      "and skipped. An empty input is not an error.";
  man.examples = {
      {"litgraph-ingest --db lib.db works.jsonl.gz", "Load an OpenAlex snapshot part file."},
      {"curl -s 'https://api.openalex.org/works?search=graph' | litgraph-ingest --db lib.db",
       "Load one API page from standard input."},
      {"litgraph-ingest --db lib.db --skip-invalid changes/*.jsonl",
       "A cron job's daily update that keeps going past bad records."},
      {"litgraph-ingest --db lib.db --compact-at 100 changes.jsonl.gz",
       "An hourly update that leaves the full-text delta's fold to a quieter hour."},
      {"litgraph-ingest --db lib.db --compact-at 0 </dev/null",
       "The nightly job: fold the full-text delta into its base."},
      {"litgraph-ingest --db lib.db --compact </dev/null",
       "Rebuild every derived graph file in full (the full-text delta folded in)."}};
  return man;
}

// An update into a store that holds papers returns freed pages after a
// second instead of keeping them: its phases free what the next ones do not
// reuse. The setting is the default of the arenas made from now on: the
// threads' and the one for allocations of 8 MiB or more, which jemalloc then
// gives decay 0. The main thread's arena keeps its pages. A 100k upsert into
// 10M works peaked at 5,593 MB instead of 6,467 MB in the same time; setting
// every arena saved 70 MB more and took 10% longer
// (bench/results/2026-11-28-update-memory). A first load keeps every page
// (malloc_conf above).
void ReturnFreedPagesWhenUpdating(litgraph::Store* store) {
  if (!mallctl || store->MaxId(litgraph::NodeType::kPaper) == 0) return;
  ssize_t dirty = 1000, muzzy = 0;
  mallctl("arenas.dirty_decay_ms", nullptr, nullptr, &dirty, sizeof dirty);
  mallctl("arenas.muzzy_decay_ms", nullptr, nullptr, &muzzy, sizeof muzzy);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace litgraph;
  Tool tool("ingest", ToolManual(), {"jsonl"});
  std::vector<std::string> files;
  IngestOptions opt;
  bool no_graph = false;
  tool.app()
      .add_option("files", files, "Input files (- or none: standard input)")
      ->type_name("FILE");
  tool.app().add_flag("--skip-invalid", opt.skip_invalid,
                      "Count and skip malformed records instead of stopping");
  tool.app().add_flag("--no-graph", no_graph,
                      "Do not rebuild the graph files (a later ingest or `litgraph-ingest` with no "
                      "input rebuilds them)");
  bool no_metrics = false;
  tool.app().add_flag(
      "--no-metrics", no_metrics,
      "Do not rebuild the store's citation metrics (left stale for litgraph-metrics to "
      "rebuild)");
  tool.app().add_flag(
      "--compact", opt.compact,
      "Rebuild the derived graph files in full instead of updating them: folds the lexical "
      "index's delta into its base too (updates fold it on their own past --compact-at; "
      "--compact-at 0 with no input folds it alone)");
  tool.app()
      .add_option("--compact-at", opt.lexical_delta_fraction,
                  "Fold a delta into its base once it would pass this share of it: the "
                  "full-text delta's papers, a relation's adjacency delta's bytes (default 0.2; "
                  "0 folds them now, also with no input; 100 leaves it to such a run)")
      ->type_name("FRACTION")
      ->check(NumberIn(0.0, 1e6));
  tool.app()
      .add_option("--max-line-bytes", opt.max_line_bytes,
                  "Longest accepted input line (default 256 MiB)")
      ->type_name("N")
      ->check(NumberIn<size_t>(1, size_t{1} << 32));
  AddMemoryBudgetOption(&tool.app(),
                        "SQLite's cache and the sorts of the lexical index and the graph",
                        &opt.memory_budget);
  tool.AddStatsFlag();
  return tool.Run(argc, argv, [&]() -> Status {
    opt.build_graph = !no_graph;
    opt.adjacency_delta_fraction = opt.lexical_delta_fraction;  // --compact-at: both deltas
    opt.update_metrics = !no_metrics;
    opt.threads = tool.common().threads;
    opt.reporter = tool.reporter();
    IngestStats s;
    // A first ingest that fails leaves no empty store behind.
    LITGRAPH_RETURN_IF_ERROR(WriteNewOrExistingStore(tool, [&](Store* store) {
      ReturnFreedPagesWhenUpdating(store);
      return Ingest(store, files, opt, &s);
    }));
    double rate = s.seconds > 0 ? static_cast<double>(s.works) / s.seconds : 0;
    tool.Summary(
        fmt::format("{} works ({} new, {} updated, {} stale), {} other records, {} invalid; {} "
                    "edges ({} citations, {} dangling references){}; {:.1f} s, {:.0f} works/s",
                    s.works, s.works_new, s.works_updated, s.works_stale, s.entities + s.skipped,
                    s.invalid, s.graph_edges, s.cites_edges, s.dangling_references,
                    s.metrics_rebuilt
                        ? fmt::format("; citation metrics rebuilt in {:.1f} s", s.metrics_seconds)
                        : "",
                    s.seconds, rate),
        {{"id", tool.common().db},
         {"type", "ingest_summary"},
         {"records", s.records},
         {"works", s.works},
         {"works_new", s.works_new},
         {"works_updated", s.works_updated},
         {"works_stale", s.works_stale},
         {"entities", s.entities},
         {"skipped", s.skipped},
         {"invalid", s.invalid},
         {"edges", s.graph_edges},
         {"cites_edges", s.cites_edges},
         {"dangling_references", s.dangling_references},
         {"input_bytes", s.input_bytes},
         {"load_seconds", s.load_seconds},
         {"graph_seconds", s.graph_seconds},
         {"metrics_rebuilt", s.metrics_rebuilt},
         {"metrics_seconds", s.metrics_seconds},
         {"seconds", s.seconds},
         {"works_per_second", rate}});
    return Status::Ok();
  });
}
