// A paper's detail card (litgraph-paper): every stored field with its
// authors (positions, institutions), venue, topics, keywords, and the
// references and citing papers present in the store.
#pragma once

#include <cstdint>

#include "litgraph/graph.h"
#include "litgraph/output.h"
#include "litgraph/store.h"

namespace litgraph {

// `max_links` caps the reference / citing id lists (counts are always full).
Json PaperCard(Store* store, Graph* graph, int64_t paper, size_t max_links = 200);

}  // namespace litgraph
