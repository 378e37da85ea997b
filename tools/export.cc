// litgraph-export: the store's graph, or a neighbourhood of it, for other
// tools: GraphML, or the CSV files of Neo4j's bulk importer in SciAtlas's
// schema; and, with --sql, the citation table sqlite3 users join on.
//
// Reads seed ids (--id, --seeds FILE) for a neighbourhood; nothing for the
// whole store. Writes GraphML to standard output or --out FILE; the neo4j
// files and import.sh into --out DIR. A summary record goes to standard
// output (to stderr when the GraphML does).
// Exit codes: 0 ok, 1 no seed is in the store, 2 usage (an unknown relation,
// a neighbourhood over --max-nodes), 3 malformed seed line, 4 store or I/O
// error.
#include "litgraph/export.h"

#include <fmt/format.h>

#include "litgraph/graph.h"
#include "litgraph/jsonl.h"
#include "litgraph/store.h"
#include "tool.h"

namespace {

using namespace litgraph;

Manual ToolManual() {
  Manual man;
  man.synopsis = "[OPTIONS]";
  man.description =
      "Writes the store's graph for graph tools: the whole store, or the neighbourhood of seed "
      "nodes (--id, --seeds) within --hops steps over the chosen --relations.\n\n"
      "--format graphml (the default) writes one GraphML document: nodes with typed "
      "attributes (type, label, id = the external id, title or display_name, year, doi, "
      "venue_source_display_name, cited_by_count, ...) and directed edges with relation and, "
      "where the relation has one, weight and its own attributes. Node ids are "
      "\"<type>:<dense id>\" (\"paper:12\").\n\n"
      "--format neo4j writes the input files of `neo4j-admin database import full` (Neo4j 5) "
      "into --out DIR, in SciAtlas's schema: a node file per label (Paper, Author, "
      "Institution, Source, Topic, Subfield, Field, Domain, Keyword) and a relationship file "
      "per type (CITES, RELATED_TO, AUTHORED, COAUTHOR, AFFILIATED_WITH, PUBLISHED_IN, "
      "HAS_TOPIC, SUBFIELD_OF, FIELD_OF, DOMAIN_OF, HAS_KEYWORD, COOCCUR), and import.sh with "
      "the import command.\n\n"
      "Each relation is written once in its label's direction (Author -AUTHORED-> Paper); "
      "RELATED_TO, COAUTHOR and COOCCUR once per pair. The export streams: nodes from the "
      "database, edges from the graph files, in bounded memory whatever the store's size.\n\n"
      "--sql instead creates (or refills) the citation table in the store's SQLite database, "
      "for sqlite3 users: citation(citing_id, cited_id, citing_paper, cited_paper) and "
      "paper_citation(citing, cited); every later ingest keeps it current. It takes the "
      "store's writer lock, like ingest.";
  man.input =
      "With --seeds FILE (- for standard input): seed nodes one per line, as ids, DOIs, "
      "OpenAlex URLs, titles, or JSON records with an \"id\" (any tool's output).";
  man.output =
      "GraphML (standard output or --out FILE), or the neo4j files in --out DIR. A summary "
      "record {\"type\": \"export\", format, nodes {label: count}, edges {type: count}, "
      "total_nodes, total_edges, files, import_command (neo4j)} on standard output, or on "
      "stderr when the GraphML goes to standard output. With --sql: {\"type\": "
      "\"citation_table\", rows, in_store}.";
  man.exit_status =
      "Exit 1 when no seed is in the store; 2 when a relation name is unknown or the "
      "neighbourhood exceeds --max-nodes; 4 when the store has no graph or a file cannot be "
      "written.";
  man.examples = {
      {"litgraph-export --db lib.db --out lib.graphml", "The whole store as GraphML."},
      {"litgraph-export --db lib.db --id W2741809807 --hops 2 --relations CITES > hood.graphml",
       "The citation neighbourhood of one paper, two steps out."},
      {"litgraph-export --db lib.db --format neo4j --out neo4j-import && neo4j-import/import.sh",
       "Files for neo4j-admin, then the import."},
      {"litgraph-export --db lib.db --sql && sqlite3 lib.db/litgraph.sqlite \"SELECT citing_id "
       "FROM citation WHERE cited_id = 'W2741809807'\"",
       "The citation table, then the papers citing one work."}};
  return man;
}

struct Options {
  std::string out, seeds_file, relations;
  std::vector<std::string> ids;
  int hops = 1;
  size_t max_nodes = 100000;
  bool sql = false;
};

void AddOptions(Tool& tool, Options* o) {
  CLI::App& app = tool.app();
  app.get_option("--format")->description("What to write (default: graphml)");
  app.add_option("-o,--out", o->out, "GraphML file (default: stdout); neo4j: the directory")
      ->type_name("PATH");
  app.add_option("--id", o->ids, "A seed node (id, DOI or title); repeatable")->type_name("ID");
  app.add_option("--seeds", o->seeds_file, "Seed ids one per line (- = stdin)")->type_name("FILE");
  app.add_option("--hops", o->hops, "Neighbourhood depth around the seeds (default 1)")
      ->type_name("N")
      ->check(NumberIn(0, 10));
  app.add_option("--relations", o->relations,
                 "Relation types to export and expand over, comma-separated (default: all)")
      ->type_name("LIST");
  app.add_option("--max-nodes", o->max_nodes,
                 "Refuse a neighbourhood larger than this (default 100000)")
      ->type_name("N")
      ->check(NumberIn<size_t>(1, 1000000000));
  app.add_flag("--sql", o->sql, "Create or refill the store's citation table for SQL instead");
}

// Seed nodes: papers by any form paper accepts, other nodes by their id.
Result<std::vector<NodeRef>> ReadSeeds(Tool& tool, Store* store, const Options& o) {
  std::vector<NodeRef> seeds;
  int64_t missing = 0;
  auto add = [&](const std::string& text) {
    if (auto p = store->ResolvePaperId(text)) {
      seeds.push_back(NodeRef{NodeType::kPaper, static_cast<uint32_t>(*p)});
    } else if (auto n = store->ResolveNode(text)) {
      seeds.push_back(NodeRef{n->first, static_cast<uint32_t>(n->second)});
    } else {
      tool.Warn(fmt::format("{}: not in the store", text));
      ++missing;
    }
  };
  for (const std::string& id : o.ids) add(id);
  if (!o.seeds_file.empty())
    LITGRAPH_RETURN_IF_ERROR(
        ForEachIdIn(o.seeds_file, [&](const std::string& id, const std::string&) {
          add(id);
          return Status::Ok();
        }));
  if (seeds.empty()) return Status::NotFound(missing ? "no seed is in the store" : "no seed given");
  return seeds;
}

Status RunSql(Tool& tool) {
  auto store = Store::Open(tool.common().db, Store::Mode::kWrite, false, tool.reporter());
  if (!store.ok()) return store.status();
  Db& db = (*store)->db();
  Transaction txn(&db, "IMMEDIATE");
  const int64_t rows = (*store)->BuildCitationTable();
  const int64_t in_store =
      db.QueryInt("SELECT count(*) FROM citation WHERE cited_paper IS NOT NULL").value_or(0);
  txn.Commit();
  tool.Note(
      fmt::format("citation table: {} references, {} to papers in the store", rows, in_store));
  Output out(Format::kJsonl);
  out.Write(Json{{"id", tool.common().db},
                 {"type", "citation_table"},
                 {"rows", rows},
                 {"in_store", in_store}});
  out.Finish();
  return Status::Ok();
}

Status Run(Tool& tool, const Options& o) {
  if (o.sql) {
    if (!o.out.empty() || !o.ids.empty() || !o.seeds_file.empty() ||
        !tool.common().format_name.empty())
      return Status::InvalidArgument(
          "--sql writes the citation table only: no --format, --out "
          "or seeds");
    return RunSql(tool);
  }
  ExportOptions eo;
  eo.format = tool.common().format_name == "neo4j" ? ExportFormat::kNeo4j : ExportFormat::kGraphml;
  eo.out = o.out;
  eo.hops = o.hops;
  eo.max_nodes = o.max_nodes;
  eo.reporter = tool.reporter();
  if (eo.format == ExportFormat::kNeo4j && (o.out.empty() || o.out == "-"))
    return Status::InvalidArgument("--format neo4j needs --out DIR");
  if (!o.relations.empty()) {
    auto rels = ParseRelations(o.relations);
    if (!rels.ok()) return rels.status();
    eo.relations = *rels;
  }
  auto store_or = Store::Open(tool.common().db, Store::Mode::kRead);
  if (!store_or.ok()) return store_or.status();
  Store* store = store_or->get();
  if (!o.ids.empty() || !o.seeds_file.empty()) {
    auto seeds = ReadSeeds(tool, store, o);
    if (!seeds.ok()) return seeds.status();
    eo.seeds = std::move(*seeds);
  }
  auto graph = Graph::Open(store);
  if (!graph.ok())
    return graph.status().code() == Code::kNotFound ? Status::IoError(graph.status().message())
                                                    : graph.status();
  ExportStats stats;
  LITGRAPH_RETURN_IF_ERROR(Export(**graph, eo, stdout, &stats));
  Json summary{{"id", tool.common().db},
               {"type", "export"},
               {"format", eo.format == ExportFormat::kNeo4j ? "neo4j" : "graphml"},
               {"nodes", stats.nodes},
               {"edges", stats.edges},
               {"total_nodes", stats.total_nodes},
               {"total_edges", stats.total_edges},
               {"files", stats.files}};
  if (!stats.import_command.empty()) summary["import_command"] = stats.import_command;
  const std::string human = fmt::format("{} nodes, {} edges", stats.total_nodes, stats.total_edges);
  if (eo.format == ExportFormat::kGraphml && (o.out.empty() || o.out == "-")) {
    if (!stats.pipe_closed) tool.Note(human);
    return Status::Ok();
  }
  tool.Note(human + (stats.import_command.empty() ? "" : "; import with " + stats.files.back()));
  Output out(Format::kJsonl);
  out.Write(summary);
  out.Finish();
  return Status::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  Tool tool("export", ToolManual(), {"graphml", "neo4j"});
  Options o;
  AddOptions(tool, &o);
  return tool.Run(argc, argv, [&] { return Run(tool, o); });
}
