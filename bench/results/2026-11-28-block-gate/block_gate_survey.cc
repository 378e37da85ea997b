#include <zstd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "litgraph/generation.h"
#include "litgraph/graph.h"
#include "litgraph/store.h"
using namespace litgraph;
// order-0 entropy in bytes
static double H0Bytes(const uint8_t* p, size_t n) {
  uint32_t h[256] = {0};
  for (size_t i = 0; i < n; ++i) ++h[p[i]];
  static std::vector<float> t;
  if (t.empty()) {
    t.resize(1 << 16);
    for (size_t c = 1; c < t.size(); ++c) t[c] = c * std::log(double(c));
  }
  double s = 0;
  for (int i = 0; i < 256; ++i) s += h[i] < t.size() ? t[h[i]] : h[i] * std::log(double(h[i]));
  double nl = n < t.size() ? t[n] : n * std::log(double(n));
  return (nl - s) / (8 * std::log(2.0));
}
int main(int argc, char** argv) {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 3);
  ZSTD_DCtx* d = ZSTD_createDCtx();
  double thr[] = {0.5, 0.6, 0.7, 0.8, 0.9};
  auto store = Store::Open(argv[1], Store::Mode::kRead);
  if (!store.ok()) {
    printf("open failed: %s\n", store.status().message().c_str());
    return 1;
  }
  auto gv = (*store)->Current("graph");
  const GenerationView* g = *gv;
  for (int a = 2; a < argc; ++a) {
    Adjacency adj;
    auto st = adj.Open(*g, argv[a]);
    if (!st.ok()) {
      printf("%s: %s\n", argv[a], st.message().c_str());
      continue;
    }
    uint64_t blocks = (adj.num_nodes() + adj.nodes_per_block() - 1) / adj.nodes_per_block();
    uint64_t comp = 0, bytes = 0;
    double zt = 0, ht = 0;
    uint64_t skip[5] = {0}, miss[5] = {0}, small = 0, smallmiss = 0;
    std::string raw, out;
    for (uint64_t b = 0; b < blocks; ++b) {
      std::string_view sv;
      bool israw;
      if (!adj.StoredBlock(b, &sv, &israw)) break;
      if (israw)
        raw.assign(sv);
      else {
        unsigned long long n = ZSTD_getFrameContentSize(sv.data(), sv.size());
        raw.resize(n);
        ZSTD_decompressDCtx(d, raw.data(), n, sv.data(), sv.size());
      }
      bytes += raw.size();
      auto t0 = std::chrono::steady_clock::now();
      out.resize(ZSTD_compressBound(raw.size()));
      size_t n = ZSTD_compress2(c, out.data(), out.size(), raw.data(), raw.size());
      auto t1 = std::chrono::steady_clock::now();
      double h = H0Bytes((const uint8_t*)raw.data(), raw.size());
      auto t2 = std::chrono::steady_clock::now();
      zt += std::chrono::duration<double>(t1 - t0).count();
      ht += std::chrono::duration<double>(t2 - t1).count();
      bool keep = !ZSTD_isError(n) && n <= raw.size() / 2;
      comp += keep;
      for (int k = 0; k < 5; ++k)
        if (h > thr[k] * raw.size()) {
          ++skip[k];
          miss[k] += keep;
        }
      if (raw.size() < 48) {
        ++small;
        smallmiss += keep;
      }
    }
    printf("%-28s blocks %8lu comp %7lu avgraw %6.0f zstd %.3fs h0 %.3fs small<48 %lu(miss %lu)",
           argv[a], blocks, comp, blocks ? double(bytes) / blocks : 0, zt, ht, small, smallmiss);
    for (int k = 0; k < 5; ++k) printf(" | %.1f: skip %lu miss %lu", thr[k], skip[k], miss[k]);
    printf("\n");
  }
}
