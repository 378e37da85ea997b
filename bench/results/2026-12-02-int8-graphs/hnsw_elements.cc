// Prototype: HNSW build over float32 elements vs int8-quantized elements.
#include <hnswlib/hnswlib.h>
#include <immintrin.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <queue>
#include <random>
#include <thread>
#include <unordered_set>

#include "litgraph/embed.h"
#include "litgraph/semantic.h"
#include "litgraph/store.h"

using namespace litgraph;
using Clock = std::chrono::steady_clock;

struct FParam {
  size_t dim;
};
static float FDist(const void* a, const void* b, const void* p) {
  return 1.0f - Dot(static_cast<const float*>(a), static_cast<const float*>(b),
                    static_cast<int>(static_cast<const FParam*>(p)->dim));
}
class FSpace : public hnswlib::SpaceInterface<float> {
 public:
  explicit FSpace(size_t d) : p_{d} {}
  size_t get_data_size() override { return p_.dim * 4; }
  hnswlib::DISTFUNC<float> get_dist_func() override { return FDist; }
  void* get_dist_func_param() override { return &p_; }
  FParam p_;
};

__attribute__((target("avx2"))) static int32_t DotI8(const int8_t* a, const int8_t* b, int dim) {
  __m256i acc = _mm256_setzero_si256();
  int i = 0;
  for (; i + 16 <= dim; i += 16) {
    __m256i x = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i)));
    __m256i y = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i)));
    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(x, y));
  }
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
  int32_t t = _mm_cvtsi128_si32(s);
  for (; i < dim; ++i) t += a[i] * b[i];
  return t;
}
static float QDist(const void* a, const void* b, const void* p) {
  const int dim = static_cast<int>(static_cast<const FParam*>(p)->dim);
  float sa, sb;
  std::memcpy(&sa, a, 4);
  std::memcpy(&sb, b, 4);
  return 1.0f - sa * sb *
                    static_cast<float>(DotI8(static_cast<const int8_t*>(a) + 4,
                                             static_cast<const int8_t*>(b) + 4, dim));
}
class QSpace : public hnswlib::SpaceInterface<float> {
 public:
  explicit QSpace(size_t d) : p_{d} {}
  size_t get_data_size() override { return p_.dim + 4; }
  hnswlib::DISTFUNC<float> get_dist_func() override { return QDist; }
  void* get_dist_func_param() override { return &p_; }
  FParam p_;
};
static void Quantize(const float* v, int dim, char* out) {
  float m = 0;
  for (int i = 0; i < dim; ++i) m = std::max(m, std::fabs(v[i]));
  float s = m > 0 ? m / 127.0f : 0.0f;
  std::memcpy(out, &s, 4);
  for (int i = 0; i < dim; ++i) out[4 + i] = static_cast<int8_t>(s > 0 ? std::lround(v[i] / s) : 0);
}

__attribute__((target("avx2,fma,f16c"))) static float HDist(const void* a, const void* b,
                                                            const void* p) {
  const int dim = static_cast<int>(static_cast<const FParam*>(p)->dim);
  const auto* x = static_cast<const uint16_t*>(a);
  const auto* y = static_cast<const uint16_t*>(b);
  __m256 s0 = _mm256_setzero_ps(), s1 = s0;
  int i = 0;
  for (; i + 16 <= dim; i += 16) {
    s0 = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(x + i))),
                         _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(y + i))), s0);
    s1 = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(x + i + 8))),
                         _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(y + i + 8))), s1);
  }
  __m256 s = _mm256_add_ps(s0, s1);
  __m128 h = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
  h = _mm_add_ps(h, _mm_movehl_ps(h, h));
  h = _mm_add_ss(h, _mm_shuffle_ps(h, h, 1));
  return 1.0f - _mm_cvtss_f32(h);
}
class HSpace : public hnswlib::SpaceInterface<float> {
 public:
  explicit HSpace(size_t d) : p_{d} {}
  size_t get_data_size() override { return p_.dim * 2; }
  hnswlib::DISTFUNC<float> get_dist_func() override { return HDist; }
  void* get_dist_func_param() override { return &p_; }
  FParam p_;
};
__attribute__((target("f16c"))) static void ToHalf(const float* v, int dim, char* out) {
  for (int i = 0; i < dim; i += 8)
    _mm_storeu_si128((__m128i*)(out + 2 * i), _mm256_cvtps_ph(_mm256_loadu_ps(v + i), 0));
}

using H = hnswlib::HierarchicalNSW<float>;

// Float beam search over an index's graph with float vectors `data`.
std::vector<uint32_t> Search(const H& h, const std::vector<float>& data, int dim, const float* q,
                             size_t ef, size_t k) {
  auto d = [&](uint32_t id) {
    return 1.0f - Dot(q, data.data() + static_cast<size_t>(h.getExternalLabel(id)) * dim, dim);
  };
  uint32_t cur = h.enterpoint_node_;
  float cd = d(cur);
  for (int l = h.maxlevel_; l > 0; --l) {
    bool changed = true;
    while (changed) {
      changed = false;
      auto* ll = h.get_linklist(cur, l);
      int c = h.getListCount(ll);
      for (int i = 0; i < c; ++i) {
        uint32_t n = ll[1 + i];
        float nd = d(n);
        if (nd < cd) cd = nd, cur = n, changed = true;
      }
    }
  }
  std::priority_queue<std::pair<float, uint32_t>> top;  // max-heap
  std::priority_queue<std::pair<float, uint32_t>, std::vector<std::pair<float, uint32_t>>,
                      std::greater<>>
      cand;
  std::unordered_set<uint32_t> seen{cur};
  top.push({cd, cur});
  cand.push({cd, cur});
  while (!cand.empty()) {
    auto [cdist, c] = cand.top();
    if (cdist > top.top().first && top.size() >= ef) break;
    cand.pop();
    auto* ll = h.get_linklist0(c);
    int cnt = h.getListCount(ll);
    for (int i = 0; i < cnt; ++i) {
      uint32_t n = ll[1 + i];
      if (!seen.insert(n).second) continue;
      float nd = d(n);
      if (top.size() < ef || nd < top.top().first) {
        cand.push({nd, n});
        top.push({nd, n});
        if (top.size() > ef) top.pop();
      }
    }
  }
  std::vector<std::pair<float, uint32_t>> v;
  while (!top.empty()) v.push_back(top.top()), top.pop();
  std::sort(v.begin(), v.end());
  std::vector<uint32_t> out;
  for (size_t i = 0; i < std::min(k, v.size()); ++i)
    out.push_back(static_cast<uint32_t>(h.getExternalLabel(v[i].second)));
  return out;
}

int main(int argc, char** argv) {
  std::string db = argv[1];
  size_t n = std::stoul(argv[2]);
  int threads = argc > 3 ? std::stoi(argv[3]) : 1;
  int efc = argc > 4 ? std::stoi(argv[4]) : 200;
  std::string field = argc > 5 ? argv[5] : "title";
  auto store = Store::Open(db, Store::Mode::kRead);
  auto sem = SemanticIndex::Open(store->get());
  const FieldVectors& fv = (*sem)->vectors(field == "abstract"  ? VecField::kAbstract
                                           : field == "keyword" ? VecField::kKeyword
                                                                : VecField::kTitle);
  int dim = (*sem)->dim();
  std::vector<float> data;
  for (uint64_t r = 0; r < fv.rows() && data.size() / dim < n; ++r)
    if (const float* p = fv.Row(r)) data.insert(data.end(), p, p + dim);
  n = data.size() / dim;
  fprintf(stderr, "%zu rows dim %d\n", n, dim);
  // Queries: 200 random rows; exact top 10 by brute force.
  std::mt19937_64 rng(1);
  std::vector<size_t> qs;
  for (int i = 0; i < 200; ++i) qs.push_back(rng() % n);
  std::vector<std::vector<uint32_t>> exact;
  size_t ties = 0;
  double s1 = 0, s10 = 0, gap = 0;
  for (size_t q : qs) {
    std::vector<std::pair<float, uint32_t>> all(n);
    for (size_t i = 0; i < n; ++i)
      all[i] = {-Dot(data.data() + q * dim, data.data() + i * dim, dim), static_cast<uint32_t>(i)};
    std::partial_sort(all.begin(), all.begin() + 11, all.end());
    if (all[9].first - all[10].first > -1e-6f) ++ties;
    s1 += -all[1].first;
    s10 += -all[9].first;
    gap += all[10].first - all[9].first;
    std::vector<uint32_t> e;
    for (int i = 0; i < 10; ++i) e.push_back(all[i].second);
    exact.push_back(e);
  }
  fprintf(stderr, "mean 2nd score %.4f 10th %.4f gap 10-11 %.5f\n", s1 / qs.size(), s10 / qs.size(),
          gap / qs.size());
  {
    double err = 0, mx = 0;
    std::vector<char> qa(dim + 4), qb(dim + 4);
    FParam fp{(size_t)dim};
    for (size_t i = 0; i < 2000; ++i) {
      const float* a = data.data() + (rng() % n) * dim;
      const float* b = data.data() + (rng() % n) * dim;
      Quantize(a, dim, qa.data());
      Quantize(b, dim, qb.data());
      double e = std::fabs(QDist(qa.data(), qb.data(), &fp) - FDist(a, b, &fp));
      err += e;
      mx = std::max(mx, e);
    }
    double top = 0;
    for (size_t i = 0; i < 2000; ++i) {
      const float* a = data.data() + (rng() % n) * dim;
      float m = 0;
      for (int k = 0; k < dim; ++k) m = std::max(m, std::fabs(a[k]));
      top += m;
    }
    fprintf(stderr, "quantized distance error mean %.5f max %.5f; mean max|v_i| %.3f\n", err / 2000,
            mx, top / 2000);
  }
  fprintf(stderr, "queries whose 10th and 11th exact scores tie: %zu of %zu\n", ties, qs.size());
  for (int kind = 0; kind < 3; ++kind) {
    FSpace fs(dim);
    QSpace qsp(dim);
    HSpace hsp(dim);
    hnswlib::SpaceInterface<float>* sp =
        kind == 0   ? static_cast<hnswlib::SpaceInterface<float>*>(&fs)
        : kind == 1 ? static_cast<hnswlib::SpaceInterface<float>*>(&qsp)
                    : &hsp;
    H h(sp, n, 16, efc, 100);
    auto t0 = Clock::now();
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t)
      ts.emplace_back([&, t] {
        std::vector<char> buf(dim * 2 + 4);
        for (size_t i = t; i < n; i += threads) {
          const float* v = data.data() + i * dim;
          if (kind == 0)
            h.addPoint(v, i);
          else if (kind == 2) {
            ToHalf(v, dim, buf.data());
            h.addPoint(buf.data(), i);
          } else {
            Quantize(v, dim, buf.data());
            h.addPoint(buf.data(), i);
          }
        }
      });
    for (auto& t : ts) t.join();
    double secs = std::chrono::duration<double>(Clock::now() - t0).count();
    for (size_t ef : {32, 64, 120}) {
      size_t hit = 0;
      for (size_t i = 0; i < qs.size(); ++i) {
        auto got = Search(h, data, dim, data.data() + qs[i] * dim, ef, 10);
        for (uint32_t g : got)
          if (std::find(exact[i].begin(), exact[i].end(), g) != exact[i].end()) ++hit;
      }
      printf("%s,%zu,%d,%d,%.2f,%zu,%.4f\n",
             kind == 0   ? "float"
             : kind == 1 ? "int8"
                         : "fp16",
             n, threads, efc, secs, ef, hit / (10.0 * qs.size()));
    }
    fflush(stdout);
  }
}
