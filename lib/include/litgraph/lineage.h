// Citation lineage: paths from a newer paper B back to an older paper A
// along CITES edges (citing -> cited), and lineage trees (SciNetBench's
// path-wise task; Agents-K1's lineage command).
//
// Most influential path: among all simple citation paths from B to A of at
// most max_hops edges, by default (LineageObjective::kMean) the one whose
// papers are most cited on average (Graph::Citations: record counts when
// present, else in-store): a detour through a paper adds to it only if that
// paper is cited more than the path's papers on average, so the answer does
// not grow with max_hops. LineageObjective::kTotal is SciNetBench's ground
// truth, the largest total citation count, which favours the longest path
// allowed. Ties: fewer hops, then the lexicographically smaller sequence of
// dense ids from B. The mean objective runs the search below once per exact
// hop count (the best total for h hops is the best mean for h hops) and
// keeps the best means. Finding the best total:
//  1. Bidirectional expansion: forward from B over cites.out and backward from
//     A over cites.in, always growing the side whose next layer is cheaper,
//     until the two depths sum to max_hops. Every edge of every qualifying
//     path is seen by one of the two expansions (the node at position
//     ceil(len/2) splits a path between them), so the union of visited nodes
//     and expansion edges (the corridor) contains all answers.
//  2. Dynamic programming over the corridor: best[h][v] = the largest weight
//     of a walk from v to A with at most h edges. Walks include simple paths,
//     so this bounds every completion from above.
//  3. Depth-first branch and bound from B, successors in bound order, pruning
//     partial paths whose bound cannot beat the k-th best found. Exact; on
//     citation graphs (nearly acyclic) the first path found is usually final.
// Property tests compare against exhaustive enumeration on random graphs with
// cycles.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/status.h"

namespace litgraph {

enum class LineageObjective {
  kMean,   // most cited papers on average (the default)
  kTotal,  // largest total citation count (SciNetBench)
};

struct LineageOptions {
  int max_hops = 6;
  size_t k = 1;           // number of distinct paths
  bool shortest = false;  // order by hops first (then the objective)
  LineageObjective objective = LineageObjective::kMean;
  uint64_t max_expanded = 2000000;  // nodes expanded across both sides
  uint64_t max_steps = 20000000;    // DFS steps before giving up (reported)
};

struct LineagePath {
  std::vector<uint32_t> nodes;  // from the newer paper B to the older A
  uint64_t citations = 0;       // sum of Graph::Citations over nodes
  double mean() const { return nodes.empty() ? 0 : static_cast<double>(citations) / nodes.size(); }
  int hops() const { return static_cast<int>(nodes.size()) - 1; }
};

struct LineageStats {
  uint64_t forward_expanded = 0, backward_expanded = 0;
  int forward_depth = 0, backward_depth = 0;
  uint64_t corridor_nodes = 0, corridor_edges = 0;
  uint64_t dfs_steps = 0;
  bool truncated = false;  // a cap was hit; results may not be optimal
  int shortest_hops = -1;  // -1 when unreachable within max_hops
};

// Paths from `newer` to `older`, best first. Empty when none exists within
// max_hops (stats say how far the search went); an error when the graph's
// files are damaged.
Result<std::vector<LineagePath>> FindLineage(Graph& graph, uint32_t newer, uint32_t older,
                                             const LineageOptions& options, LineageStats* stats);

// The lineage between two papers given in either order. `a` is taken as the
// older; when b's year is earlier they swap, and with equal or unknown years
// both directions are tried.
struct LineageResult {
  uint32_t older = 0, newer = 0;  // as traced
  bool swapped = false;           // b turned out to be the older paper
  std::vector<LineagePath> paths;
  LineageStats stats;
};
Result<LineageResult> TraceLineage(Graph& graph, uint32_t a, uint32_t b,
                                   const LineageOptions& options);

// The same search over an explicit adjacency (tests and benchmarks):
// out[v] lists the papers v cites; weight[v] its citation count.
std::vector<LineagePath> FindLineage(const std::vector<std::vector<uint32_t>>& out,
                                     const std::vector<uint64_t>& weight, uint32_t newer,
                                     uint32_t older, const LineageOptions& options,
                                     LineageStats* stats);

// Lineage tree of one paper: its ancestors (papers it builds on, following
// cites.out) or descendants (papers building on it, cites.in) up to `depth`
// hops, each with its BFS-tree parent (the most cited neighbour one hop
// closer to the root). Ranked by citations, then depth, then id.
struct TreeNode {
  uint32_t paper;
  int depth;
  uint32_t parent;            // == root for depth 1
  std::vector<uint32_t> via;  // tree path root -> ... -> parent (root excluded)
};
struct TreeOptions {
  bool descendants = false;
  int depth = 2;
  size_t limit = 50;
  uint64_t max_nodes = 200000;  // nodes visited before the walk stops (reported)
};
Result<std::vector<TreeNode>> LineageTree(Graph& graph, uint32_t root, const TreeOptions& options,
                                          bool* truncated);

}  // namespace litgraph
