// A literature map over a set of seed papers, as Connected Papers and
// Inciteful draw one: the papers most similar to the seeds, the prior works
// they build on and the derivative works building on them, with the citation
// edges among all of these.
//
// Similar works. For a seed s and a candidate q, two relations (Small 1973;
// Kessler 1963), with C(x) the papers citing x and R(x) the papers x cites:
//   co-citation            C(s) ∩ C(q): papers citing both
//   bibliographic coupling R(s) ∩ R(q): references both cite
// each scored by one of three measures (MapMeasure):
//   count         the size of the intersection
//   salton        the count over sqrt(|C(s)| x |C(q)|) (coupling: the R sizes),
//                 the cosine of the two citation vectors (Inciteful's measure
//                 for co-citation)
//   adamic-adar   the sum over the shared citing papers c of 1 / log |R(c)|
//                 (coupling: over the shared references r of 1 / log |C(r)|),
//                 so a paper citing few others, or a reference few others
//                 cite, says more (Inciteful's measure for coupling)
// Per seed, each relation's scores are divided by their largest value over
// the candidates, weighted, and summed: per_seed(s, q) = w_cc x cc(s, q) /
// max cc(s, .) + w_bc x bc(s, q) / max bc(s, .). A candidate's similarity is
// the sum of per_seed over the seeds (MapNormalization::kSeed); or, with
// kGlobal, each relation is first summed over the seeds and then divided by
// its largest sum. Seeds are never similar works; the candidates are the
// papers sharing a citing paper or a reference with a seed.
//
// The map's graph G is the seeds and the similar works. Prior works: papers
// outside G cited by most papers of G. Derivative works: papers outside G
// citing most papers of G (never a paper already chosen as a prior work).
// Both rank by that count, then citations (Graph::Citations), then dense id;
// similar works by similarity, then citations, then dense id.
//
// Cost: only the adjacency of the seeds' neighbourhood is read: each seed's
// citing papers and their reference lists, each reference's citing papers,
// the lists of G's papers, and (salton only) one list per candidate for its
// degree. A hub stays fast: at most max_scan of a seed's citing papers are
// read for co-citation (the most cited first), and at most 10 x max_scan
// citations of its references for coupling (the least cited references
// first, which say the most); `capped` tells when either cut.
//
// Thread-safety: uses the Graph's adjacency readers (one thread per Graph).
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/status.h"

namespace litgraph {

enum class MapMeasure { kCount, kSalton, kAdamicAdar };
// "count", "salton", "adamic-adar".
const char* MapMeasureName(MapMeasure m);
// Parses one of the names above; false for anything else.
bool ParseMapMeasure(std::string_view name, MapMeasure* out);

// How the two relations' scores are put on one scale (see above).
enum class MapNormalization { kSeed, kGlobal };
const char* MapNormalizationName(MapNormalization n);  // "seed", "global"
bool ParseMapNormalization(std::string_view name, MapNormalization* out);

enum class MapRole { kSeed, kSimilar, kPrior, kDerivative };
const char* MapRoleName(MapRole r);  // "seed", "similar", "prior", "derivative"

struct MapOptions {
  size_t similar = 20;     // similar works
  size_t prior = 10;       // prior works
  size_t derivative = 10;  // derivative works
  // The defaults recovered held-out papers' references from three of them
  // best on the ACL Anthology Network (bench/results/2026-11-26-map):
  // co-citation carries the map, coupling adds a little at a quarter weight.
  MapMeasure co_citation = MapMeasure::kAdamicAdar;
  MapMeasure coupling = MapMeasure::kSalton;
  double co_citation_weight = 1.0;  // 0 leaves the relation out (and unread)
  double coupling_weight = 0.25;
  MapNormalization normalization = MapNormalization::kSeed;
  size_t max_scan = 5000;  // citing papers read per seed (see above)
};

struct MapEntry {
  uint32_t paper = 0;
  MapRole role = MapRole::kSeed;
  int rank = 0;  // 1-based within the role; seeds in the order given
  // similar: the similarity; prior: papers of G citing it; derivative:
  // papers of G it cites; seed: 0.
  double score = 0;
  // The relations' scores in the chosen measures, and the shared citing
  // papers (co_cited) and references (coupled), each summed over the seeds
  // (a seed's own row counts the other seeds). Zero for a paper that shares
  // nothing with any seed.
  double co_citation = 0, coupling = 0;
  uint32_t co_cited = 0, coupled = 0;
  std::vector<uint32_t> seeds;  // the seeds it shares a citing paper or a reference with
  // The seed with the largest per_seed score (similar works; -1 when none).
  int64_t similar_to = -1;
  // Papers of G it cites and papers of G citing it, ascending.
  std::vector<uint32_t> cites, cited_by;
};

struct LiteratureMap {
  // Seeds, similar, prior, then derivative works, each in rank order.
  std::vector<MapEntry> entries;
  // Citation edges (citing, cited) among all the map's papers, ascending.
  std::vector<std::pair<uint32_t, uint32_t>> citations;
  bool capped = false;    // a seed's scan was cut at max_scan
  size_t candidates = 0;  // papers sharing a citing paper or a reference with a seed
};

// The map of `seeds` (dense paper ids; repeats are dropped). InvalidArgument
// without seeds; the graph's damage as Graph::status().
Result<LiteratureMap> BuildLiteratureMap(Graph& graph, const std::vector<uint32_t>& seeds,
                                         const MapOptions& options);

}  // namespace litgraph
