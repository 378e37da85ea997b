#include "litgraph/citations.h"

#include <algorithm>
#include <unordered_map>

namespace litgraph {

const char* NeighbourhoodName(Neighbourhood n) {
  switch (n) {
    case Neighbourhood::kReferences:
      return "references";
    case Neighbourhood::kCitedBy:
      return "cited_by";
    case Neighbourhood::kCoCited:
      return "co_cited";
    case Neighbourhood::kCoupled:
      return "coupled";
  }
  return "";
}

Result<std::vector<Neighbour>> CitationNeighbours(Graph& graph, uint32_t paper, Neighbourhood kind,
                                                  size_t limit, bool* capped, size_t max_scan) {
  if (capped) *capped = false;
  Adjacency& out = graph.adj(Rel::kCitesOut);
  Adjacency& in = graph.adj(Rel::kCitesIn);
  std::unordered_map<uint32_t, uint32_t> count;
  auto copy = [](Adjacency::List l) { return std::vector<uint32_t>(l.ids.begin(), l.ids.end()); };
  auto by_citations = [&](std::vector<uint32_t>* v) {
    std::sort(v->begin(), v->end(), [&](uint32_t a, uint32_t b) {
      uint32_t ca = graph.Citations(a), cb = graph.Citations(b);
      return ca != cb ? ca > cb : a < b;
    });
  };
  switch (kind) {
    case Neighbourhood::kReferences:
      for (uint32_t q : out.Neighbours(paper).ids) count[q] = 1;
      break;
    case Neighbourhood::kCitedBy:
      for (uint32_t q : in.Neighbours(paper).ids) count[q] = 1;
      break;
    case Neighbourhood::kCoCited: {
      // Papers cited together with `paper` by the same citing paper.
      std::vector<uint32_t> citers = copy(in.Neighbours(paper));
      if (citers.size() > max_scan) {
        by_citations(&citers);
        citers.resize(max_scan);
        if (capped) *capped = true;
      }
      for (uint32_t c : citers)
        for (uint32_t q : out.Neighbours(c).ids)
          if (q != paper) ++count[q];
      break;
    }
    case Neighbourhood::kCoupled: {
      // Papers citing the same references as `paper`.
      size_t scanned = 0;
      for (uint32_t r : copy(out.Neighbours(paper))) {
        std::vector<uint32_t> citers = copy(in.Neighbours(r));
        for (uint32_t q : citers) {
          if (scanned++ >= max_scan * 10) {
            if (capped) *capped = true;
            break;
          }
          if (q != paper) ++count[q];
        }
      }
      break;
    }
  }
  std::vector<Neighbour> result;
  result.reserve(count.size());
  for (auto [q, c] : count) result.push_back({q, c});
  std::sort(result.begin(), result.end(), [&](const Neighbour& a, const Neighbour& b) {
    if (a.count != b.count) return a.count > b.count;
    uint32_t ca = graph.Citations(a.paper), cb = graph.Citations(b.paper);
    if (ca != cb) return ca > cb;
    return a.paper < b.paper;
  });
  if (result.size() > limit) result.resize(limit);
  LITGRAPH_RETURN_IF_ERROR(graph.status());
  return result;
}

}  // namespace litgraph
