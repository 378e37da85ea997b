// HnswIndex (vectors.h): a fuzzed index over a valid small vector file (the
// rows of HnswRows(), fuzz_util.h, which the seed indexes were built over),
// opened and searched with several queries, k and beam widths. A damaged
// index must end the search (status()), never walk outside its file.
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "litgraph/embed.h"
#include "litgraph/vectors.h"

using namespace litgraph;
using namespace litgraph::fuzz;

namespace {

struct Fixture {
  std::unique_ptr<GenerationView> view;
  VectorFile vectors;
  Fixture() {
    view = MakeGeneration("vectors", {"title.vec", "title.hnsw"});
    std::vector<float> rows = HnswRows();
    Check(VectorFile::Write(view->Path("title.vec"), Identity("title.vec"), kHnswDim, kHnswRows,
                            rows.data())
              .ok(),
          "vector file write");
    Check(vectors.Open(*view, "title.vec").ok(), "vector file open");
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Fixture* fx = new Fixture();
  const Input in = Decode(data, size);
  WriteInput(fx->view->Path("title.hnsw"), Identity("title.hnsw"), in);
  HnswIndex index;
  if (!index.Open(*fx->view, "title.hnsw", &fx->vectors).ok()) return 0;
  std::vector<float> rows = HnswRows();
  float sum = 0;
  for (uint64_t qrow : {uint64_t{1}, uint64_t{9}, uint64_t{30}}) {
    const float* q = rows.data() + qrow * kHnswDim;
    for (auto [k, ef] : {std::pair<size_t, size_t>{1, 1}, {5, 16}, {10, 64}, {100, 10}}) {
      std::vector<VectorHit> hits = index.Search(q, k, ef);
      Check(hits.size() <= k, "more hits than asked for");
      for (const VectorHit& h : hits) sum += h.score + static_cast<float>(h.id);
    }
  }
  Use(sum);
  Use(index.status());
  return 0;
}
