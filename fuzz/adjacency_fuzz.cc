// Adjacency (graph.h): an adjacency file, dense or sparse, opened and read:
// the neighbours of the first nodes, the last ones and a few the input
// names, twice (the second time from the decoded-list cache), with a cache
// small enough that its generations turn over. Damage must read as empty
// lists and latch in status(); nothing may crash, hang or read outside the
// file.
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "litgraph/graph.h"

using namespace litgraph;
using namespace litgraph::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Input in = Decode(data, size);
  const std::string name = "cites.out.adj";
  const std::string path = ScratchDir() + "/" + name;
  WriteInput(path, Identity(name), in);
  Adjacency a;
  if (!a.Open(path, Identity(name)).ok()) return 0;
  // Small caches exercise the two-generation turnover.
  a.set_cache_bytes(size % 3 == 0 ? 256 : size % 3 == 1 ? 4096 : 1u << 20);
  std::vector<uint64_t> nodes;
  const uint64_t n = a.num_nodes();
  for (uint64_t i = 0; i < 40 && i < n; ++i) nodes.push_back(i);
  for (uint64_t back = 1; back <= 3 && back <= n; ++back) nodes.push_back(n - back);
  nodes.push_back(n);
  nodes.push_back(n + 1);
  nodes.push_back(UINT64_MAX);
  nodes.push_back(uint64_t{1} << 32);
  for (size_t i = 0; i + 4 <= in.bytes.size() && i < 64; i += 16) {
    uint32_t v;
    std::memcpy(&v, in.bytes.data() + i, 4);
    nodes.push_back(v);
    if (n) nodes.push_back(v % n);
  }
  uint64_t sum = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (uint64_t node : nodes) {
      Adjacency::List l = a.Neighbours(node);
      for (uint32_t id : l.ids) sum += id;
      for (uint32_t at : l.attrs) sum += at;
      Check(l.attrs.empty() || l.attrs.size() == l.ids.size(), "attributes not parallel to ids");
      sum += a.Degree(node);
      sum += a.Lists(node);
    }
  Use(sum);
  Use(a.blocks_decoded());
  Use(a.status());
  return 0;
}
