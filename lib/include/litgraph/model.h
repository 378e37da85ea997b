// The data model: node types and every relation between them, in one table.
//
// Nodes are the nine types of the SciAtlas schema (Qiao et al., "SciAtlas: a
// large-scale knowledge graph for automated scientific research", 2025,
// Fig. 2). Each node has a stable external id and a dense id within its type
// (the SQLite rowid of its table).
//
// A relation type (CITES, AUTHORED, ...) is stored as one or two directions,
// each a Rel with an adjacency file mapping a node to its sorted neighbours
// and one 32-bit attribute per edge. kRelations (model.cc) has one row per
// direction and says everything the code needs about it: its file, label,
// endpoints and direction, what its attribute means and how it ranks a hub's
// neighbours, the walk weight that scales it (SciAtlas Table 2) and how that
// weight depends on the edge, the --bias name that scales the weight, and
// which side of the relation the walk's edge collection reads. Code reads the
// table instead of switching over Rel.
//
// Adding a relation built from existing tables touches: this file (a Rel
// value, and a RelationWeights member when it has a weight of its own),
// model.cc (its row), graph_build.cc (its edges) and doc/graph-format.md.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace litgraph {

// Node types with dense per-type ids.
enum class NodeType : uint8_t {
  kPaper,
  kAuthor,
  kInstitution,
  kSource,
  kTopic,
  kSubfield,
  kField,
  kDomain,
  kKeyword,
};
inline constexpr int kNodeTypeCount = 9;
const char* NodeTypeName(NodeType t);  // "paper", "author", ... (also the SQL table)
// Accepts the names above and "venue" for sources.
bool ParseNodeType(std::string_view s, NodeType* t);

// A node of any type.
struct NodeRef {
  NodeType type;
  uint32_t id;
  bool operator==(const NodeRef& o) const { return type == o.type && id == o.id; }
  bool operator<(const NodeRef& o) const { return type != o.type ? type < o.type : id < o.id; }
  uint64_t key() const { return (static_cast<uint64_t>(type) << 32) | id; }
};

// Relations as stored: each value is one direction of a relation type.
enum class Rel : uint8_t {
  kCitesOut,            // paper -> papers it cites
  kCitesIn,             // paper -> papers citing it
  kRelated,             // paper -- paper (RELATED_TO, both directions merged)
  kAuthors,             // paper -> authors
  kAuthoredPapers,      // author -> papers
  kCoauthor,            // author -- author
  kAffiliations,        // author -> institutions
  kInstitutionAuthors,  // institution -> authors
  kPublishedIn,         // paper -> source
  kSourcePapers,        // source -> papers
  kTopics,              // paper -> topics
  kTopicPapers,         // topic -> papers
  kTopicSubfield,       // topic -> subfield
  kSubfieldTopics,      // subfield -> topics
  kSubfieldField,       // subfield -> field
  kFieldSubfields,      // field -> subfields
  kFieldDomain,         // field -> domain
  kDomainFields,        // domain -> fields
  kKeywords,            // paper -> keywords
  kKeywordPapers,       // keyword -> papers
  kCooccur,             // keyword -- keyword
};
inline constexpr int kRelCount = 21;

// The walk's weight of each relation type (SciAtlas Table 2). Relations off
// by default (0) can be switched on.
struct RelationWeights {
  double beta_cite = 1.00;
  double beta_rel = 0.90;
  double beta_auth = 0.80;
  double beta_coauth = 0.60;
  double beta_affil = 0;
  double beta_published = 0;
  double beta_topic = 0;
  double beta_hierarchy = 0;
  double beta_hk = 1.20;
  double beta_cooc = 0.60;
};

// How an edge's walk weight follows from the relation's weight w and the
// edge's attribute a (the walk's other parameters are in rwr.h).
enum class EdgeWeight : uint8_t {
  kConstant,    // w
  kKeyword,     // w x kappa(keyword) x a / 10 (a = importance 1..10)
  kCount,       // w x max(1, min(c_max, ln(1 + a))) (a = a count)
  kAuthorship,  // w, x author_position_boost for a paper's first and last author
  kTopicScore,  // w x topic score (a >> 1 = score x 1000)
};

// The attribute's part in the order of a hub's ranked list (graph.h):
// neighbours by this key descending, then citations, then id.
enum class RankKey : uint8_t {
  kNone,      // one key for the whole list
  kAttr,      // the attribute
  kAttrHigh,  // the attribute without its low bit (a >> 1)
};

// Which side of an edge the walk's edge collection reads (rwr.cc): every edge
// is read once, from the side that keeps hub lists undecoded.
enum class EdgeSide : uint8_t {
  kNone,      // read from the other direction
  kMembers,   // for every subgraph member: a directed relation's short side
  kExpanded,  // for expanded nodes only: symmetric relations
};

struct RelInfo {
  Rel rel;
  const char* file;   // adjacency file name in the generation directory (+ ".adj")
  const char* label;  // relation type: "CITES", "AUTHORED", ...
  NodeType from, to;
  bool forward;      // direction of the label: from -[label]-> to
  Rel reverse;       // the other direction; itself for symmetric relations
  const char* attr;  // what the attribute means ("" = none)
  bool ranked;       // has ranked lists beside it (<file>.ranked)
  RankKey rank_key;
  double RelationWeights::*weight;  // its walk weight
  const char* weight_name;          // that weight's parameter name ("beta_cite")
  const char* weight_help;
  EdgeWeight weight_kind;
  const char* bias;  // --bias name scaling the weight ("" = none)
  EdgeSide edge_side;
};

const RelInfo& GetRelInfo(Rel r);
// Every direction, in Rel order.
std::span<const RelInfo> AllRelations();
// The direction an undirected edge of either direction is reported as: the
// one the walk's edge collection reads.
Rel CanonicalRel(Rel r);
// The attribute's ranking key (RankKey).
uint32_t RankedAttr(Rel r, uint32_t attr);

}  // namespace litgraph
