// VectorFile (vectors.h): a vector file opened, its rows read (present,
// absent, out of range) and searched exhaustively (BruteForceSearch).
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "litgraph/embed.h"
#include "litgraph/vectors.h"

using namespace litgraph;
using namespace litgraph::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Input in = Decode(data, size);
  const std::string name = "title.vec";
  const std::string path = ScratchDir() + "/" + name;
  WriteInput(path, Identity(name), in);
  VectorFile v;
  if (!v.Open(path, Identity(name)).ok()) return 0;
  Check(v.dim() > 0, "a vector file of dimension 0 opened");
  double sum = 0;
  const uint64_t rows = v.rows();
  for (uint64_t r : {uint64_t{0}, uint64_t{1}, uint64_t{2}, rows / 2, rows - 1, rows, rows + 1,
                     UINT64_MAX, uint64_t{1} << 32}) {
    if (const float* row = v.Row(r)) sum += row[0] + row[v.dim() - 1];
    if (const float* row = v.RawRow(r)) sum += row[v.dim() - 1];
  }
  std::vector<float> q(static_cast<size_t>(v.dim()), 1.0f);
  Normalize(q.data(), v.dim());
  for (size_t k : {size_t{0}, size_t{1}, size_t{5}, size_t{1000}}) {
    std::vector<VectorHit> hits = BruteForceSearch(v, q.data(), k);
    Check(hits.size() <= k, "more hits than asked for");
    for (const VectorHit& h : hits) {
      Check(h.id < rows, "a hit outside the file");
      sum += h.score;
    }
  }
  Use(sum);
  Use(v.status());
  return 0;
}
