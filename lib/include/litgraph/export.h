// Graph export: the store's graph, or the neighbourhood of some seed nodes,
// as GraphML or as the CSV files of `neo4j-admin database import full`, in
// the node labels and relation types of SciAtlas's Neo4j schema (Paper,
// Author, Institution, Source, Topic, Subfield, Field, Domain, Keyword;
// CITES, RELATED_TO, AUTHORED, COAUTHOR, AFFILIATED_WITH, PUBLISHED_IN,
// HAS_TOPIC, SUBFIELD_OF, FIELD_OF, DOMAIN_OF, HAS_KEYWORD, COOCCUR).
//
// Streaming: node attributes come from SQLite in id order
// (Store::ForEachNodeRow), edges from the memory-mapped adjacency files a
// block at a time (AdjacencyScan), so a whole-store export holds one block
// and one row at a time whatever the store's size. A neighbourhood holds its
// node set (at most max_nodes nodes).
//
// Node ids: a node is identified by its type and dense id ("paper:12" in
// GraphML, the integer :ID of its label's ID space in the CSV files), so an
// edge is written without looking its ends up; the external id (OpenAlex's
// "W123") is the node's `id` attribute. Each relation is written once, in
// the direction of its label (Author -AUTHORED-> Paper); the symmetric ones
// (RELATED_TO, COAUTHOR, COOCCUR) once per pair, from the lower id.
// Thread-safety: one export per Graph at a time.
#pragma once

#include <bitset>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/model.h"
#include "litgraph/report.h"
#include "litgraph/status.h"

namespace litgraph {

enum class ExportFormat { kGraphml, kNeo4j };

// Relation types by the Rel that exports them (the direction of the label).
using RelationSet = std::bitset<kRelCount>;

// The relation types, in model order: "CITES", "RELATED_TO", ...
std::vector<std::string> ExportRelationNames();
// Every relation type.
RelationSet AllExportRelations();
// "CITES,AUTHORED" (any case, spaces allowed) as a set; InvalidArgument
// naming an unknown name and listing the valid ones.
Result<RelationSet> ParseRelations(std::string_view list);

// Neo4j's label of a node type ("Paper").
const char* NodeLabel(NodeType t);

struct ExportOptions {
  ExportFormat format = ExportFormat::kGraphml;
  // GraphML: the file to write ("" = the `out` stream given to Export);
  // neo4j: the directory (created when missing; files of an earlier export
  // there are replaced).
  std::string out;
  std::vector<NodeRef> seeds;  // empty: the whole store
  int hops = 1;                // neighbourhood depth
  RelationSet relations = AllExportRelations();
  size_t max_nodes = 100000;  // a neighbourhood larger than this is refused
  Reporter* reporter = NullReporter();
};

struct ExportStats {
  std::map<std::string, int64_t> nodes;  // by label
  std::map<std::string, int64_t> edges;  // by relation type
  int64_t total_nodes = 0, total_edges = 0;
  std::vector<std::string> files;  // written, in order
  std::string import_command;      // neo4j: the neo4j-admin command line
  // GraphML to a stream whose reader went away (`| head`): the export
  // stopped early, quietly.
  bool pipe_closed = false;
};

// The nodes within `hops` of the seeds over the relations (both directions
// of each), sorted by type then id. InvalidArgument when they are more than
// max_nodes (naming the hop that overflowed).
Result<std::vector<NodeRef>> ExportNeighbourhood(Graph& graph, const std::vector<NodeRef>& seeds,
                                                 int hops, const RelationSet& relations,
                                                 size_t max_nodes);

// Writes the export. GraphML goes to options.out or, without one, to `out`.
// IoError naming the file when writing fails; graph damage as Graph::status().
Status Export(Graph& graph, const ExportOptions& options, std::FILE* out, ExportStats* stats);

// --- Pure pieces (unit-tested) ----------------------------------------------

// Text for XML character data and attribute values: & < > " ' escaped;
// characters XML 1.0 forbids (C0 controls but tab, newline and carriage
// return; U+FFFE, U+FFFF), C1 controls and DEL removed; invalid UTF-8 bytes
// replaced by U+FFFD.
std::string XmlText(std::string_view s);

// A string field of neo4j-admin's CSV: always double-quoted, an inner quote
// doubled (RFC 4180); line breaks and other control characters (C0, DEL,
// C1) become spaces, so no field spans lines (the importer's default,
// --multiline-fields=false).
std::string CsvString(std::string_view s);

}  // namespace litgraph
