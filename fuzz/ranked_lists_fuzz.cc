// RankedLists (graph.h): a ranked-lists file opened, then the lists of the
// first nodes and of nodes the input names walked to their end. Damage must
// end a list and latch in status().
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "litgraph/graph.h"

using namespace litgraph;
using namespace litgraph::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Input in = Decode(data, size);
  const std::string name = "cites.in.ranked";
  const std::string path = ScratchDir() + "/" + name;
  WriteInput(path, Identity(name), in);
  RankedLists r;
  if (!r.Open(path, Identity(name)).ok()) return 0;
  std::vector<uint32_t> nodes;
  for (uint32_t i = 0; i < 40; ++i) nodes.push_back(i);
  nodes.push_back(UINT32_MAX);
  for (size_t i = 64; i + 4 <= in.bytes.size() && i < 64 + 16 * 8; i += 16) {
    uint32_t v;
    std::memcpy(&v, in.bytes.data() + i, 4);  // directory entries' node ids
    nodes.push_back(v);
    nodes.push_back(v + 1);
  }
  uint64_t sum = r.lists() + r.length();
  for (uint32_t node : nodes) {
    sum += r.Lists(node);
    RankedLists::Cursor c = r.Find(node);
    uint32_t id, attr;
    size_t steps = 0;
    while (c.Next(&id, &attr)) {
      sum += id + attr;
      Check(++steps <= in.bytes.size(), "a ranked list longer than its file");
    }
  }
  Use(sum);
  Use(r.status());
  return 0;
}
