// Structural analyses of a set of papers (issue 15, item 4): a field, a
// query's results or the whole store, taken as the subgraph the set induces
// (CITES between papers of the set; their keywords, topics and authors).
//
//  influential  papers by PageRank over the set's citations (PageRank of
//               metrics.h on the induced graph: damping 0.85, dangling mass
//               spread uniformly) with their in-set citation counts;
//               keywords by the summed PageRank of the set's papers that
//               have them.
//  bridges      papers between communities: each paper's community is its
//               primary topic (kTopics), or from a label propagation over
//               the set's undirected citation graph, or over the set's
//               keyword co-occurrence graph (KeywordCommunities); a
//               paper's participation coefficient
//                   P = 1 - sum_c (k_c / k)^2
//               over its k in-set citation neighbours (references and
//               citing papers), k_c of them in community c (Guimera &
//               Amaral 2005); 0 when all neighbours share one community.
//               Beside it, the paper's betweenness centrality in the
//               set's undirected citation graph (exact, or estimated
//               from sampled sources).
//  lineage      lineage depth: the longest chain of descendants within the
//               set (p <- c1 <- c2 ... , each citing the previous), in
//               citation steps. Citation cycles (data errors, same-year
//               mutual citations) are condensed: the papers of a strongly
//               connected component share one step.
//  gaps         detached papers (no citation to or from another paper of
//               the set), keywords used by one paper of the set, and sparse
//               keyword-pair cells between dense ones: among the `top`
//               keywords most used in the set (each by >= min_count papers),
//               pairs whose co-occurrence count is at most `sparse_ratio` x
//               its expectation under independence (f_a f_b / N), with an
//               expectation of at least `min_expected`.
//  duplicates   near-duplicate candidates: papers whose titles score >=
//               title_threshold (text.h TitleMatchScore; candidate pairs
//               share one of the two letter-only words of either title
//               rarest in the set, or the normalized title), authors of the set with the same
//               normalized name but different ids, or the same surname and compatible given names
//               ("J. Smith" / "John Smith"), and keywords of the set whose words are the same up to
//               a plural ending.
//
// The algorithms work on a PaperSet in memory (local indices 0..n-1); the
// loaders read it from the graph. Each finding carries its evidence.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/status.h"
#include "litgraph/store.h"

namespace litgraph {

// The subgraph a set of papers induces.
struct PaperSet {
  std::vector<uint32_t> papers;   // dense paper ids, ascending; local index = position
  std::vector<uint16_t> years;    // 0 = unknown
  std::vector<uint64_t> ref_off;  // in-set references of each paper (local)
  std::vector<uint32_t> refs;
  std::vector<uint64_t> cit_off;  // in-set citing papers of each paper (local)
  std::vector<uint32_t> citers;
  std::vector<uint64_t> kw_off;  // keyword node ids of each paper, ascending
  std::vector<uint32_t> keywords;
  std::vector<int32_t> topic;  // primary topic node id, -1 none

  uint32_t size() const { return static_cast<uint32_t>(papers.size()); }
  std::span<const uint32_t> Refs(uint32_t p) const {
    return {refs.data() + ref_off[p], ref_off[p + 1] - ref_off[p]};
  }
  std::span<const uint32_t> Citers(uint32_t p) const {
    return {citers.data() + cit_off[p], cit_off[p + 1] - cit_off[p]};
  }
  std::span<const uint32_t> Keywords(uint32_t p) const {
    return {keywords.data() + kw_off[p], kw_off[p + 1] - kw_off[p]};
  }
  // For tests: n papers (ids 0..n-1, years 0), edges (citing, cited) between
  // them (self-citations and repeats dropped), keywords per paper, topics.
  static PaperSet FromEdges(uint32_t n, const std::vector<std::pair<uint32_t, uint32_t>>& edges,
                            const std::vector<std::vector<uint32_t>>& keywords = {},
                            const std::vector<int32_t>& topics = {});
};

// Reads the subgraph of `papers` (dense ids; duplicates and ids that are not
// papers dropped) from the graph.
Result<PaperSet> LoadPaperSet(Graph& graph, std::vector<uint32_t> papers);
// Every paper of the store; the papers of an OpenAlex field given by name
// (case-insensitive) or id ("fields/17" or "17"), a paper belonging to the
// field of its primary topic (metrics.h PaperFields). NotFound for an
// unknown field.
std::vector<uint32_t> AllPapers(Graph& graph);
Result<std::vector<uint32_t>> PapersOfField(Store* store, Graph& graph, const std::string& field);

// ---- influential ----
struct Influence {
  std::vector<double> pagerank;  // per paper (local); sums to 1
  int iterations = 0;
  struct KeywordScore {
    uint32_t keyword;
    double score;        // summed PageRank of its papers
    uint32_t papers;     // papers of the set with it
    uint32_t top_paper;  // local index of its paper of highest PageRank
  };
  std::vector<KeywordScore> keywords;  // by score, then papers, then id
};
Influence ComputeInfluence(const PaperSet& s, double damping = 0.85, double tolerance = 1e-12);

// ---- bridges ----
// An undirected weighted graph over nodes 0..n-1: each edge in both lists.
struct UndirectedGraph {
  std::vector<uint64_t> off;   // n + 1
  std::vector<uint32_t> ids;   // neighbours of each node, ascending, no self-loops
  std::vector<double> weight;  // per entry of ids
  uint32_t size() const { return off.empty() ? 0 : static_cast<uint32_t>(off.size() - 1); }
  std::span<const uint32_t> Of(uint32_t v) const {
    return {ids.data() + off[v], off[v + 1] - off[v]};
  }
};
// The set's citations as an undirected graph: weight 1 per direction (a
// mutual citation weighs 2).
UndirectedGraph CitationGraph(const PaperSet& s);

// Communities by label propagation (Raghavan, Albert & Kumara 2007): each
// node starts with its own label; in passes over the nodes in a random
// order, a node takes the label of largest total edge weight among its
// neighbours (ties: a random one of them; its own kept when it is among the
// heaviest), until no label changes or `max_passes`. Seeded: the same seed
// gives the same labels on every platform. Labels are renumbered 0.. by
// first node.
std::vector<int32_t> LabelPropagation(const UndirectedGraph& g, int max_passes = 50,
                                      uint64_t seed = 1);
// Over the set's undirected citation graph (CitationGraph).
std::vector<int32_t> LabelPropagation(const PaperSet& s, int max_passes = 50, uint64_t seed = 1);
// Communities from the set's keyword graph: keywords used by the set are
// linked by the number of its papers having both (co-occurrence within the
// set), label propagation groups them, and a paper's community is the one
// most of its keywords belong to (ties: the smaller label); -1 for a paper
// without keywords. Labels renumbered 0.. by first paper.
std::vector<int32_t> KeywordCommunities(const PaperSet& s, int max_passes = 50, uint64_t seed = 1);

// Betweenness centrality (Brandes 2001) over an undirected graph, unweighted
// (shortest paths by hops): the share of shortest paths between other
// pairs that pass through a node, each unordered pair once. With
// `samples` < n, the single-source dependencies of `samples` sources drawn
// without replacement (seeded) are scaled by n / samples (Brandes & Pich
// 2007, an unbiased estimate); exact (every node a source) when samples >=
// n. Cost: samples x (n + edges).
struct Betweenness {
  std::vector<double> value;       // per node: pairs' shares, each unordered pair once
  std::vector<double> normalized;  // value / ((n - 1)(n - 2) / 2), 0 for n < 3
  uint32_t sources = 0;
  bool exact = false;
};
Betweenness ComputeBetweenness(const UndirectedGraph& g, uint32_t samples, uint64_t seed = 1);
// Participation coefficient of each paper (above) for community labels
// (-1: no community; such neighbours count as one community each).
struct Participation {
  double coefficient = 0;
  uint32_t degree = 0;       // in-set citation neighbours (references + citing papers)
  uint32_t communities = 0;  // distinct communities among them
};
std::vector<Participation> ComputeParticipation(const PaperSet& s,
                                                const std::vector<int32_t>& community);

// ---- lineage ----
struct LineageDepth {
  uint32_t depth = 0;          // citation steps of the longest chain of descendants
  uint32_t next = UINT32_MAX;  // the citing paper the chain continues with (local), none: MAX
};
std::vector<LineageDepth> ComputeLineageDepths(const PaperSet& s);
// The chain from p: p, next(p), next(next(p)), ... (local indices).
std::vector<uint32_t> LineageChain(const std::vector<LineageDepth>& d, uint32_t p);

// ---- gaps ----
struct GapOptions {
  size_t top = 30;         // dense keywords considered for pairs
  uint32_t min_count = 3;  // papers a dense keyword has at least
  double sparse_ratio = 0.25;
  double min_expected = 2.0;
};
struct KeywordPairGap {
  uint32_t a, b;              // keyword ids, a < b
  uint32_t count_a, count_b;  // papers of the set with each
  uint32_t observed;          // papers with both
  double expected;            // count_a x count_b / papers
};
struct Gaps {
  std::vector<uint32_t> detached;                         // local indices, ascending
  std::vector<std::pair<uint32_t, uint32_t>> single_use;  // keyword id, its paper (local)
  std::vector<KeywordPairGap> sparse_pairs;               // by expected - observed, largest first
};
Gaps ComputeGaps(const PaperSet& s, const GapOptions& o = {});

// ---- duplicates ----
struct DuplicatePair {
  uint32_t a, b;  // papers: local indices; authors and keywords: node ids (a < b)
  double score;
  std::string reason;  // "title", "same_name", "initials", "plural"
};
// Titles given per local paper.
std::vector<DuplicatePair> DuplicateTitles(const std::vector<std::string>& titles,
                                           double threshold = 0.88);
// Names given per node id (pairs of distinct ids).
std::vector<DuplicatePair> DuplicateNames(
    const std::vector<std::pair<uint32_t, std::string>>& names);
std::vector<DuplicatePair> DuplicateKeywords(
    const std::vector<std::pair<uint32_t, std::string>>& keywords);

}  // namespace litgraph
