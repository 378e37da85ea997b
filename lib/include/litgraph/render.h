// Records as tools print them: the JSON objects of litgraph-json(7) for
// papers, nodes, explanations, paper cards, neighbour lists, lineage paths
// and trees and search results, the table columns that show them, drawings
// of citation graphs, and tri-search's readable report. Tools write what
// these return through Output (output.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "litgraph/citations.h"
#include "litgraph/graph.h"
#include "litgraph/lineage.h"
#include "litgraph/literature_map.h"
#include "litgraph/output.h"
#include "litgraph/rwr.h"
#include "litgraph/search.h"
#include "litgraph/store.h"

namespace litgraph {

class MetricsFile;    // metrics.h
struct MetricRecord;  // metrics.h

// The common fields of a paper record: id, type, title, year, venue,
// authors, cited_by_count, citation_source, doi.
Json PaperJson(const PaperSummary& p, Graph* graph);

// A record for any node: PaperJson for papers; {id, type, name, title} plus
// type-specific fields for the others (keywords: text; authors: institution,
// the last known one, and papers, their number in the store when `graph`).
Json NodeJson(Store* store, Graph* graph, NodeType type, int64_t id);

// Table columns for paper results (the DOI in tsv, csv and md only).
std::vector<Column> PaperColumns();
// Table columns for other nodes (authors, keywords, ...): name, institution
// and papers in the store.
std::vector<Column> NodeColumns();

// What citations need beyond a paper record (Output::SetCitationFields):
// work_type, date and landing_page_url from the store, for a record whose id
// is a stored paper.
std::function<Json(const Json& paper)> CitationFields(Store* store);

// Explanations as JSON: [{nodes: [external ids], relations, strength, text}].
// Appends each path's seed id to *seeds_used (without repeats) when given.
Json ExplainJson(Store* store, const Subgraph& g, const std::vector<ExplainPath>& paths,
                 std::vector<std::string>* seeds_used = nullptr);

// A paper's detail card: every stored field with its authors (positions,
// institutions), venue, topics, keywords, and the references and citing
// papers present in the store (`max_links` caps the id lists; counts are
// always full). Null when the paper does not exist. With `metrics` (the
// store's current metrics file), the card has "metrics": MetricFieldsJson.
Json PaperCard(Store* store, Graph* graph, int64_t paper, size_t max_links = 200,
               const MetricsFile* metrics = nullptr);

// A paper card (PaperCard's record) for people: title and year, ids, venue,
// authors, counts from the record and the store, keywords, topics and the
// abstract, wrapped at `width` columns (0: 100).
std::string PaperCardText(const Json& card, size_t width);

// A neighbour of `of` in a citation neighbourhood, ranked.
Json NeighbourJson(Store* store, Graph* graph, const Neighbour& n, Neighbourhood kind,
                   const std::string& of, int rank);

// Lineage paths as records, one per step, oldest paper first.
std::vector<Json> LineagePathRecords(Store* store, Graph* graph,
                                     const std::vector<LineagePath>& paths);
// A lineage tree's nodes as records.
std::vector<Json> LineageTreeRecords(Store* store, Graph* graph, uint32_t root,
                                     const std::vector<TreeNode>& nodes, bool descendants);
// The same as a drawing (Format::kDot or kMermaid): papers labelled with
// title, year and citations; edges "cites" from citing to cited.
std::string DrawLineagePaths(Format format, Store* store, Graph& graph,
                             const std::vector<LineagePath>& paths);
std::string DrawLineageTree(Format format, Store* store, Graph& graph, uint32_t root,
                            const std::vector<TreeNode>& nodes, bool descendants);

// A literature map's papers as records, in the map's order: the paper
// fields with role, rank, score (null for seeds), co_citation, coupling,
// co_cited, coupled, seeds (ids), similar_to (an id or null), cites_in_map
// and cited_by_in_map (ids of the seeds and similar works it cites / that
// cite it).
std::vector<Json> LiteratureMapRecords(Store* store, Graph* graph, const LiteratureMap& map);
// Table columns for them.
std::vector<Column> LiteratureMapColumns();
// The map as a drawing (Format::kDot or kMermaid): its papers, filled by
// role and labelled "role: title (year), N cites"; "cites" edges from citing
// to cited; and a dashed "similar" edge from each similar work without a
// citation edge to any seed to the seed it is most similar to.
std::string DrawLiteratureMap(Format format, Store* store, Graph& graph, const LiteratureMap& map);
// The same graph as a GraphML document: nodes "paper:<dense id>" with id
// (external), label (title), role, rank, score, year, cited_by_count, doi,
// co_citation and coupling; edges with relation ("cites" or "similar").
std::string LiteratureMapGraphml(Store* store, Graph& graph, const LiteratureMap& map);

// A paper's citation metrics (litgraph-json(7), METRICS): cd_window,
// n_i, n_j, n_k, cd, cd_undefined, cd_no_nk, cd_no_nk_undefined,
// cited_by_in_store, pagerank, citation_percentile, novelty,
// conventionality, novelty_pairs, metrics_source.
Json MetricFieldsJson(const MetricRecord& m);
// A metric_entry record: the paper fields and the metrics; null when the
// paper does not exist.
Json MetricJson(Store* store, Graph* graph, const MetricRecord& m);
// Table columns for them.
std::vector<Column> MetricColumns();

// One finding of litgraph-analyze (analyze.h), an analysis_entry record:
// {type: "analysis", analysis, finding, rank, total (findings of this kind
// before the limit), score, subject (node type), id, title, year (papers),
// other_id and other_title (pairs), evidence}. `other` < 0: not a pair.
// Node ids are dense ids of `subject`'s type.
Json AnalysisJson(Store* store, const std::string& analysis, const std::string& finding, int rank,
                  size_t total, double score, NodeType subject, int64_t id, int64_t other,
                  Json evidence);
// The external id of a node ("" when it does not exist).
std::string NodeExtId(Store* store, NodeType type, int64_t id);
std::vector<Column> AnalysisColumns();

// One tri-search result of the search `trace` describes: the node's record,
// rank, score, scores, is_seed, paths and seeds.
Json SearchResultJson(Store* store, Graph* graph, const TriSearch& search, const SearchTrace& trace,
                      const SearchResult& r, int rank);
// --explain: a readable account of a search, its seeds and each result.
std::string SearchReport(const TriSearch& search, const SearchTrace& trace,
                         const std::vector<SearchResult>& results,
                         const std::vector<Json>& records);

}  // namespace litgraph
