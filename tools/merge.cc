// litgraph-merge: shard stores merged into one store.
//
// Reads the stores given as arguments (each built by ingest, and optionally
// extract-keywords --stats-from and embed --model-from a common store) and
// merges them, in order, into the store at --db (created when missing; it
// may hold papers already): papers, authors, institutions, venues and topics
// deduplicated by external id as ingest does, keywords, vectors, then the
// graph, phrase statistics and HNSW indexes built once. One atomic update:
// a failed or killed merge leaves --db as it was, and running it again
// gives the same store. Writes nothing to stdout unless --stats asks for
// a JSON summary; the human summary goes to stderr.
// Exit codes: 0 ok, 2 usage (including shards whose embedding models
// differ), 4 I/O or store error (a shard missing or damaged), 5 internal.
#include "litgraph/merge.h"

#include <fmt/format.h>

#include "litgraph/store.h"
#include "tool.h"

namespace {

using namespace litgraph;

Manual ToolManual() {
  Manual man;
  man.synopsis = "[OPTIONS] SHARD...";
  man.description =
      "Merges shard stores into the store at --db, creating it when missing: the last step of a "
      "sharded build, where each slice of a corpus (an OpenAlex snapshot's updated_date= "
      "partitions, say) was built into a store of its own on any machine, under GNU parallel "
      "or a Slurm job array (doc/sharded-build.md).\n\n"
      "Each SHARD is read back as the records that built it and applied, shard after shard, "
      "the way ingest applies records: papers, authors, institutions, venues and topics are "
      "deduplicated by their external ids (a work older than the version already merged is "
      "skipped, any other replaces it), and references that point into other shards, dangling "
      "there, resolve in the merged store. A shard none of whose works the store holds yet "
      "(every shard of a merge into a new store, unless shards overlap) is copied table by "
      "table instead, with the same rows and ids and several times faster. Keywords are "
      "carried over with their papers and vectors by external id. The graph, the lexical index, "
      "the keyword phrase statistics "
      "(counted over the merged corpus) and the HNSW indexes are then built once. A shard "
      "whose own HNSW index holds exactly the vectors it brings keeps that index as a segment "
      "of the merged store's (its links copied, not built again): queries search the base "
      "index and the segments together (each segment adds an HNSW search: with 3 segments per "
      "field a 1M-work store answered find-paper --semantic 31% and tri-search 19% slower in "
      "fresh processes, bench/results/2026-11-27-segments), and "
      "later compactions of `litgraph-embed` fold them once half stale (`litgraph-embed "
      "--missing --fold-segments` folds them all); at most "
      "--max-segments per field are kept, the largest first. --fold-vectors builds one index "
      "per field instead. Shards cut "
      "from consecutive slices of an input and merged in that order give the store a single "
      "ingest of the input gives, and the same query answers.\n\n"
      "For keywords and vectors to agree, every shard must use one set of phrase statistics "
      "and one embedding model: build them once (on a sample, or a first shard) and hand them "
      "to every shard with `litgraph-extract-keywords --stats-from` and `litgraph-embed "
      "--model-from`. Shards whose models differ are refused (exit 2) unless --no-vectors.\n\n"
      "Merging into a store that holds papers already (a monthly shard into the main store) "
      "is the same upsert. The whole merge is one atomic update: if it fails or is killed the "
      "store at --db keeps its previous content, and running the same merge again gives the "
      "same store (so does running it twice).";
  man.input = "Stores (directories) built by litgraph-ingest, in the order given.";
  man.output =
      "A summary on standard error (works, keywords, vectors, edges, works/s). With --stats, "
      "the same summary as one JSON object on standard output: {\"type\": \"merge_summary\", "
      "...}.";
  man.exit_status =
      "Exit 2 when the shards' embedding models differ (or differ from the output store's), "
      "when some shards have vectors and others none, or when a shard is the output store; "
      "exit 4 when a shard is missing or damaged. Nothing is stored then.";
  man.examples = {
      {"litgraph-merge --db all.db shard-*.db", "Merge shards into a new store."},
      {"litgraph-merge --db main.db 2026-11.db", "Merge a monthly shard into the main store."},
      {"litgraph-merge --db all.db --no-vectors a.db b.db && litgraph-embed --db all.db",
       "Merge shards embedded by different models, then embed the result."}};
  return man;
}

}  // namespace

int main(int argc, char** argv) {
  Tool tool("merge", ToolManual(), {"jsonl"});
  std::vector<std::string> shards;
  MergeOptions opt;
  bool no_vectors = false;
  tool.app().add_option("shards", shards, "Shard stores, merged in this order")->type_name("SHARD");
  tool.app().add_flag("--no-vectors", no_vectors,
                      "Do not carry vectors over (shards of different models; embed after)");
  bool fold_vectors = false;
  tool.app().add_flag("--fold-vectors", fold_vectors,
                      "Insert every shard's vectors into one HNSW index per field, instead of "
                      "keeping shards' indexes as segments (slower merge)");
  tool.app()
      .add_option("--max-segments", opt.max_segments,
                  "Shard indexes kept per field at most, the largest first (default 8; each "
                  "adds an HNSW search to every vector search)")
      ->type_name("N")
      ->check(NumberIn(0, 1024));
  tool.app()
      .add_option("--hnsw-m", opt.hnsw.M, "HNSW links per node (default 16)")
      ->type_name("N")
      ->check(NumberIn(4, 128));
  tool.app()
      .add_option("--ef-construction", opt.hnsw.ef_construction,
                  "HNSW build beam width (default 200)")
      ->type_name("N")
      ->check(NumberIn(10, 2000));
  AddMemoryBudgetOption(&tool.app(), "SQLite's cache and the sorts of the graph build",
                        &opt.memory_budget);
  tool.AddStatsFlag();
  return tool.Run(argc, argv, [&]() -> Status {
    if (shards.empty()) return Status::InvalidArgument("give the shard stores to merge");
    opt.vectors = !no_vectors;
    opt.vector_segments = !fold_vectors;
    opt.reporter = tool.reporter();
    opt.hnsw.threads = ResolveThreads(tool.common().threads);
    MergeStats s;
    // A merge into a new store that fails leaves no empty store behind.
    LITGRAPH_RETURN_IF_ERROR(
        WriteNewOrExistingStore(tool, [&](Store* store) { return Merge(store, shards, opt, &s); }));
    const double rate = s.load_seconds > 0 ? static_cast<double>(s.works) / s.load_seconds : 0;
    tool.Summary(
        fmt::format("{} shards: {} works ({} new, {} updated, {} stale), {} other records; {} "
                    "keyword links, {} keywords; {} vectors{}{}; {} edges ({} citations, {} "
                    "dangling references); {:.1f} s ({:.0f} works/s loading)",
                    s.shards, s.works, s.works_new, s.works_updated, s.works_stale, s.entities,
                    s.paper_keywords, s.keywords, s.vectors,
                    s.model_id.empty() ? "" : " (" + s.model_id + ")",
                    s.vector_segments == 0
                        ? std::string()
                        : fmt::format(", {} of them in {} shard indexes kept as segments",
                                      s.vectors_in_segments, s.vector_segments),
                    s.graph_edges, s.cites_edges, s.dangling_references, s.seconds, rate),
        {{"id", tool.common().db},
         {"type", "merge_summary"},
         {"shards", s.shards},
         {"works", s.works},
         {"works_new", s.works_new},
         {"works_updated", s.works_updated},
         {"works_stale", s.works_stale},
         {"works_copied", s.works_copied},
         {"works_from_kept_runs", s.works_from_kept_runs},
         {"works_from_kept_counts", s.works_from_kept_counts},
         {"entities", s.entities},
         {"paper_keywords", s.paper_keywords},
         {"keywords", s.keywords},
         {"vectors", s.vectors},
         {"vectors_indexed", s.vectors_indexed},
         {"vectors_in_segments", s.vectors_in_segments},
         {"vector_segments", s.vector_segments},
         {"model", s.model_id.empty() ? Json() : Json(s.model_id)},
         {"edges", s.graph_edges},
         {"cites_edges", s.cites_edges},
         {"dangling_references", s.dangling_references},
         {"load_seconds", s.load_seconds},
         {"keywords_seconds", s.keywords_seconds},
         {"graph_seconds", s.graph_seconds},
         {"vectors_seconds", s.vectors_seconds},
         {"seconds", s.seconds},
         {"works_per_second", rate}});
    return Status::Ok();
  });
}
