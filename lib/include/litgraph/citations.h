// Citation neighbourhoods of a paper through the graph files (SciNetBench's
// pair-wise relations; SciPIP's co-citation retrieval): its references and citing papers, the
// papers most often co-cited with it, and the papers sharing most references
// with it (bibliographic coupling). Each list is ranked (count, then the
// neighbour's citations, then dense id) and cut at `limit`.
#pragma once

#include <cstdint>
#include <vector>

#include "litgraph/graph.h"

namespace litgraph {

struct Neighbour {
  uint32_t paper;
  uint32_t count;  // shared citing papers / shared references; 1 for direct links
};

enum class Neighbourhood { kReferences, kCitedBy, kCoCited, kCoupled };
const char* NeighbourhoodName(Neighbourhood n);  // "references", "cited_by", ...

// At most max_scan citing papers (co-citation) or references' citers
// (coupling) are read, most cited first, so a hub's list stays fast; the
// flag says when that cap cut the scan.
Result<std::vector<Neighbour>> CitationNeighbours(Graph& graph, uint32_t paper, Neighbourhood kind,
                                                  size_t limit, bool* capped = nullptr,
                                                  size_t max_scan = 20000);

}  // namespace litgraph
