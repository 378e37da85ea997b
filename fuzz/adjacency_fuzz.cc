// Adjacency (graph.h): an adjacency file, dense or sparse, opened and read:
// the neighbours of the first nodes, the last ones and a few the input
// names, twice (the second time from the decoded-list cache), with a cache
// small enough that its generations turn over, and scanned in ascending
// order (AdjacencyScan). An input with two parts (fuzz_util.h's kSplit) is
// also a base and its delta in one generation (cites.out.adj and
// cites.out.delta.adj), read as one relation the same ways. Damage must read
// as empty lists and latch in status(); nothing may crash, hang or read
// outside the files.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "fuzz_util.h"
#include "litgraph/graph.h"

using namespace litgraph;
using namespace litgraph::fuzz;

namespace {

// Reads `a` the ways queries and updates do; `hint` names a few more nodes.
void Exercise(Adjacency& a, size_t size, std::string_view hint) {
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
  for (size_t i = 0; i + 4 <= hint.size() && i < 64; i += 16) {
    uint32_t v;
    std::memcpy(&v, hint.data() + i, 4);
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
      sum += a.DeltaLists(node);
    }
  // A scan in ascending order (the update's and the metrics' reader) of the
  // first nodes: it must give the lists Neighbours gives.
  AdjacencyScan scan(a);
  std::vector<uint32_t> ids, attrs;
  for (uint64_t node = 0; node < n && node < 64; ++node) {
    Adjacency::List s = scan.Get(node);
    Check(s.attrs.empty() || s.attrs.size() == s.ids.size(), "scan: attributes not parallel");
    ids.assign(s.ids.begin(), s.ids.end());
    attrs.assign(s.attrs.begin(), s.attrs.end());
    const bool damaged = !a.status().ok();
    Adjacency::List l = a.Neighbours(node);
    // Damage found by one reader and not yet by the other reads differently.
    if (!damaged && a.status().ok())
      Check(std::equal(ids.begin(), ids.end(), l.ids.begin(), l.ids.end()) &&
                std::equal(attrs.begin(), attrs.end(), l.attrs.begin(), l.attrs.end()),
            "the scan and Neighbours disagree");
  }
  Use(sum);
  Use(a.blocks_decoded());
  Use(a.status());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Input in = Decode(data, size);
  const std::string name = "cites.out.adj";
  {
    const std::string path = ScratchDir() + "/" + name;
    WriteInput(path, Identity(name), in);
    Adjacency a;
    if (a.Open(path, Identity(name)).ok()) Exercise(a, size, in.bytes);
  }
  auto [base, delta] = SplitPair(in.bytes);
  if (delta.empty()) return 0;
  static GenerationView* view = MakeGeneration("graph", {name, AdjDeltaName(name)}).release();
  WriteInput(view->Path(name), Identity(name), {in.raw, base});
  WriteInput(view->Path(AdjDeltaName(name)), Identity(AdjDeltaName(name)), {in.raw, delta});
  Adjacency both;
  if (!both.Open(*view, name).ok()) return 0;
  Check(both.delta() != nullptr, "a generation's delta was not opened");
  Check(both.num_nodes() >= both.base_nodes(), "the relation has fewer nodes than its base");
  Exercise(both, size, delta);
  return 0;
}
