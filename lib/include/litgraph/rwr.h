// Typed random walk with restart over the 2-hop subgraph of a seed set
// (SciAtlas, Qiao et al. 2025, sections 3.2-3.3, eq. 10-15 and Table 2).
//
// Subgraph: from the seeds, 2 hops over every relation whose weight is not
// zero, edges undirected. Each hop keeps at most per_hop_cap new nodes per
// node type, chosen by a deterministic rule: the strongest edge linking the
// node to the previous hop (its Table 2 weight; equal weights: for papers the
// higher citation count, for COAUTHOR and COOCCUR edges, whose weight
// saturates at c_max, the higher count of joint papers), then the smaller
// dense id. The walk's edges are every edge of a seed or hop-1 node whose
// other end is in the subgraph (hop-2 nodes are the boundary: their edges to
// each other are left out), parallel relations between two nodes adding up.
//
// Edge weights (Table 2; each relation's weight and how it depends on the
// edge are in the relation table, model.h): HAS_KEYWORD beta_hk * kappa(g) *
// rel (rel = score / 10, kappa = the seed weight of keyword g, eps_kw for
// other keywords); CITES beta_cite; RELATED_TO beta_rel; AUTHORED beta_auth;
// COAUTHOR and COOCCUR beta * max(1, min(c_max, ln(1 + count)));
// PUBLISHED_IN, HAS_TOPIC, AFFILIATED_WITH and the topic hierarchy 0 unless
// switched on.
//
// Walk (eq. 13-15): P(v|u) = w(u,v) / sum_x w(u,x); r(0) = s;
// r(t+1) = alpha s + (1 - alpha) sum_u r_u(t) P(v|u); a node without
// neighbours keeps its own (1 - alpha) mass; stop when ||r(t+1) - r(t)||_1 <
// epsilon or after max_iter iterations. Propagation::kTwoStep gives SciAtlas'
// reference code's s + d P s + d^2 P^2 s with d = 0.85 instead.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/jsonl.h"
#include "litgraph/params.h"
#include "litgraph/status.h"

namespace litgraph {

enum class Propagation : uint8_t { kRwr, kTwoStep };

// The relation weights (RelationWeights, model.h) and the walk's own
// parameters.
struct RwrParams : RelationWeights {
  // Table 2: kappa of keywords that are not seeds; the cap of the count term.
  double eps_kw = 0.25, c_max = 2.0;
  // Section 10: first and last authors' AUTHORED edges weigh this much more.
  double author_position_boost = 1.0;
  // Eq. 14-15.
  double alpha = 0.15, epsilon = 1e-6;
  int max_iter = 50;
  Propagation propagation = Propagation::kRwr;
  double two_step_decay = 0.85;
  // Subgraph.
  int hops = 2;
  size_t per_hop_cap = 500;
  // Adjacency scans on up to two threads (same result): both share the
  // graph's mappings, and each relation is read by one of them. One by
  // default: with lists decoded alone, a 60-seed subgraph at 1M papers takes
  // the same in a fresh process with two threads as with one (21.4 / 21.6 ms
  // p50, bench/results/2026-11-22-hybrid/summary.md).
  int threads = 1;

  // The named parameters shared by flags and config files (params.h).
  void Register(ParamTable* table);
};

struct Seed {
  NodeRef node;
  double weight;
};

// An undirected weighted subgraph in CSR form over local ids.
struct Subgraph {
  std::vector<NodeRef> nodes;
  std::vector<int> hop;                          // 0 for seeds
  std::vector<uint64_t> offsets;                 // nodes + 1
  std::vector<uint32_t> nbr;                     // local ids
  std::vector<float> weight;                     // summed Table 2 weight
  std::vector<uint8_t> rel;                      // strongest relation of the pair (Rel)
  std::unordered_map<uint64_t, uint32_t> local;  // NodeRef::key() -> local id
  std::vector<double> hop_ms;                    // time to select each hop's nodes
  double edges_ms = 0;                           // time to collect the edges
  size_t edges() const { return nbr.size() / 2; }
  int Find(const NodeRef& n) const {
    auto it = local.find(n.key());
    return it == local.end() ? -1 : static_cast<int>(it->second);
  }
};

// Builds the subgraph; keyword seeds' weights are their kappa(g). Fails when
// the graph files it read are damaged (Graph::status()).
Result<Subgraph> BuildSubgraph(Graph& graph, const std::vector<Seed>& seeds,
                               const RwrParams& params);

struct WalkResult {
  std::vector<double> score;  // per local node
  int iterations = 0;
  double residual = 0;  // last L1 change
};

// Runs the walk from the normalized seed distribution (eq. 12).
WalkResult RandomWalk(const Subgraph& g, const std::vector<Seed>& seeds, const RwrParams& params);

// The walk's nodes ranked by score (then node), of one type (all when
// `type` is null), seeds left out when asked; at most `limit`.
std::vector<uint32_t> RankNodes(const Subgraph& g, const WalkResult& walk,
                                const std::vector<Seed>& seeds, const NodeType* type,
                                bool exclude_seeds, size_t limit);

// A seed from a record of any tool (rwr-rank's input): "id" (any node type,
// papers also by DOI), an optional "type", and its weight from
// `weight_field` when given, else "weight", else "score", else 1.
// Nullopt when the node is not in the store; MalformedInput naming `where`
// for a record without a string id or with a weight that is not a number.
Result<std::optional<Seed>> SeedFromRecord(Store* store, const Json& record,
                                           const std::string& weight_field,
                                           const std::string& where);

// An explanation: seed -> ... -> node, with the relation of each hop.
struct ExplainPath {
  std::vector<uint32_t> nodes;  // local ids, seed first
  std::vector<Rel> rels;        // nodes.size() - 1 relations
  double strength;              // seed share x product of transition probabilities
};
// Up to `max_paths` strongest paths of at most 2 hops from any seed to `target`.
std::vector<ExplainPath> Explain(const Subgraph& g, const std::vector<Seed>& seeds, uint32_t target,
                                 size_t max_paths = 3);

}  // namespace litgraph
