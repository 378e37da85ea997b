#include "litgraph/vectors.h"

#include <fmt/format.h>
#include <hnswlib/hnswlib.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <queue>
#include <span>
#include <thread>
#include <unordered_set>

#include "litgraph/embed.h"
#include "litgraph/files.h"
#include "litgraph/generation.h"

namespace litgraph {

namespace {

constexpr char kVecMagic[8] = {'L', 'G', 'V', 'E', 'C', 0, 0, 3};
constexpr char kVecMagicV2[8] = {'L', 'G', 'V', 'E', 'C', 0, 0, 2};  // rows at byte 64
// Where the rows start: one check page (checked_file.h) after the file's
// start, so a row of a multiple of 512 bytes (128 floats) lies in whole pages
// and reading it verifies only them.
constexpr uint64_t kVecDataAt = 512;
constexpr char kHnswMagic[8] = {'L', 'G', 'H', 'N', 'S', 'W', 0, 3};
constexpr char kHnswMagicV2[8] = {'L', 'G', 'H', 'N', 'S', 'W', 0, 2};  // nodes with labels
constexpr char kHnswMagicV4[8] = {'L', 'G', 'H', 'N', 'S', 'W', 0, 4};  // v3 with labels
constexpr uint32_t kNoLink = 0xffffffffu;  // an unused level-0 slot (v3)
constexpr char kDeltaMagic[8] = {'L', 'G', 'V', 'D', 'E', 'L', 0, 1};

struct VecHeader {
  char magic[8];
  uint32_t dim;
  uint32_t reserved0;
  uint64_t rows;
  uint64_t present;
  uint64_t data_at;  // v3: the rows' offset (v2: 0, the rows follow the header)
  uint64_t reserved[3];
};
static_assert(sizeof(VecHeader) == 64);

struct HnswHeader {
  char magic[8];
  uint32_t dim, M, maxM0, entry;
  int32_t max_level;
  uint32_t stride;  // v3: bytes of a level-0 list (v2: 0)
  uint64_t nodes;
  uint64_t upper_words;
  uint64_t level0_at;  // v3: offset of the level-0 lists (v2: 0)
  uint64_t indexed;    // v3: nodes with a vector (v2: 0, every node has one)
};
static_assert(sizeof(HnswHeader) == 64);

struct DeltaHeader {
  char magic[8];
  uint32_t count;
  uint32_t reserved0;
  uint64_t present;
  uint64_t reserved[5];
};
static_assert(sizeof(DeltaHeader) == 64);

bool ByScore(const VectorHit& a, const VectorHit& b) {
  return a.score != b.score ? a.score > b.score : a.id < b.id;
}

// The best k of `hits` in score order.
void TopK(std::vector<VectorHit>* hits, size_t k) {
  const size_t m = std::min(k, hits->size());
  std::partial_sort(hits->begin(), hits->begin() + static_cast<long>(m), hits->end(), ByScore);
  hits->resize(m);
}

// One hit per row. A row is live in the base index and in a segment when a
// compaction indexed its new vector in that segment: its base node stays
// where the old vector put it. Both score it by the row's one vector.
void OnePerRow(std::vector<VectorHit>* hits) {
  std::sort(hits->begin(), hits->end(),
            [](const VectorHit& a, const VectorHit& b) { return a.id < b.id; });
  hits->erase(std::unique(hits->begin(), hits->end(),
                          [](const VectorHit& a, const VectorHit& b) { return a.id == b.id; }),
              hits->end());
}

bool IsZero(const float* v, int dim) {
  for (int i = 0; i < dim; ++i)
    if (v[i] != 0) return false;
  return true;
}

template <typename T>
std::string_view Bytes(const std::vector<T>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)};
}

using HnswLib = hnswlib::HierarchicalNSW<float>;

float HalfDistancePortable(const uint16_t* a, const uint16_t* b, int dim) {
  // Eight independent sums, as Dot's portable kernel.
  float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int i = 0;
  for (; i + 8 <= dim; i += 8)
    for (int k = 0; k < 8; ++k) s[k] += HalfToFloat(a[i + k]) * HalfToFloat(b[i + k]);
  float t = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
  for (; i < dim; ++i) t += HalfToFloat(a[i]) * HalfToFloat(b[i]);
  return 1.0f - t;
}

#if defined(__x86_64__)
__attribute__((target("avx2,f16c"))) inline __m256 LoadHalves(const uint16_t* p) {
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// Two chains of fused multiply-adds over eight halves widened at a time.
__attribute__((target("avx2,fma,f16c"))) float HalfDistanceAvx2(const uint16_t* a,
                                                                const uint16_t* b, int dim) {
  __m256 s0 = _mm256_setzero_ps(), s1 = s0;
  int i = 0;
  for (; i + 16 <= dim; i += 16) {
    s0 = _mm256_fmadd_ps(LoadHalves(a + i), LoadHalves(b + i), s0);
    s1 = _mm256_fmadd_ps(LoadHalves(a + i + 8), LoadHalves(b + i + 8), s1);
  }
  for (; i + 8 <= dim; i += 8) s0 = _mm256_fmadd_ps(LoadHalves(a + i), LoadHalves(b + i), s0);
  const __m256 s = _mm256_add_ps(s0, s1);
  __m128 h = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
  h = _mm_add_ps(h, _mm_movehl_ps(h, h));
  h = _mm_add_ss(h, _mm_shuffle_ps(h, h, 1));
  float t = _mm_cvtss_f32(h);
  for (; i < dim; ++i) t += HalfToFloat(a[i]) * HalfToFloat(b[i]);
  return 1.0f - t;
}
#endif

using HalfDistanceFn = float (*)(const uint16_t*, const uint16_t*, int);
HalfDistanceFn HalfDistanceFunction() {
#if defined(__x86_64__)
  static const HalfDistanceFn f = [] {
    __builtin_cpu_init();
    // F16C through cpuid: clang 14's __builtin_cpu_supports does not know it.
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) != 0;
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c
               ? HalfDistanceAvx2
               : HalfDistancePortable;
  }();
  return f;
#else
  return HalfDistancePortable;
#endif
}

// hnswlib's space for a build: inner product over float rows with Dot's
// kernel (AVX2 and FMA where the CPU has them: hnswlib picks its own kernels
// at compile time, SSE for this build's baseline), or over half rows
// (HalfRow). The distance is hnswlib's, 1 - <a, b>.
class HnswSpace : public hnswlib::SpaceInterface<float> {
 public:
  HnswSpace(int dim, bool half) : param_{static_cast<size_t>(dim), DotFunction()}, half_(half) {}
  bool half() const { return half_; }
  size_t get_data_size() override {
    return half_ ? HalfRowBytes(static_cast<int>(param_.dim)) : param_.dim * sizeof(float);
  }
  hnswlib::DISTFUNC<float> get_dist_func() override { return half_ ? HalfDistance : FloatDistance; }
  void* get_dist_func_param() override { return &param_; }
  // The element hnswlib copies for `row`: the row, or its half values in a
  // buffer of the calling thread, valid until its next call.
  const void* Element(const float* row) const {
    if (!half_) return row;
    thread_local std::vector<uint16_t> buf;
    buf.resize(param_.dim);
    HalfRow(row, static_cast<int>(param_.dim), buf.data());
    return buf.data();
  }

 private:
  struct Param {
    size_t dim;  // first: HalfDistance reads it
    DotFn dot;
  };
  static float FloatDistance(const void* a, const void* b, const void* param) {
    const auto* p = static_cast<const Param*>(param);
    return 1.0f - p->dot(static_cast<const float*>(a), static_cast<const float*>(b),
                         static_cast<int>(p->dim));
  }
  Param param_;
  bool half_;
};

// The row of `labels` (ascending) holding `label`: the label itself when
// there are none, -1 when it is not among them.
int64_t RowOfLabel(std::span<const uint32_t> labels, uint64_t label) {
  if (labels.empty()) return label < INT64_MAX ? static_cast<int64_t>(label) : -1;
  auto it = std::lower_bound(labels.begin(), labels.end(), label);
  return it != labels.end() && *it == label ? it - labels.begin() : -1;
}

// The hnswlib index to extend: `base`'s <name>.hnswlib, verified in full,
// copied out of its checked file and loaded (hnswlib reads a path) with the
// space of its elements (`*space`: half or float rows of `dim`, read
// from its saved layout, hnswalg.h saveIndex: label_offset and offsetData
// are its 5th and 6th size_t).
std::unique_ptr<HnswLib> LoadBase(const GenerationView& base, const std::string& name,
                                  const std::string& scratch, int dim,
                                  std::unique_ptr<HnswSpace>* space, size_t max_elements) {
  {
    // Closed before hnswlib loads the copy: the mapping, read whole, would
    // stay in the RSS beside the loaded index (1.6 GB each at 10M titles).
    CheckedFile f;
    Status st = base.OpenFile(name + ".hnswlib", &f);
    if (st.ok()) st = f.VerifyAll();
    if (!st.ok()) throw StatusError(st);
    const auto* bytes = reinterpret_cast<const char*>(f.Read(0, f.size()));
    uint64_t label_offset = 0, data_offset = 0;
    if (bytes && f.size() >= 48) {
      std::memcpy(&label_offset, bytes + 32, 8);
      std::memcpy(&data_offset, bytes + 40, 8);
    }
    const uint64_t element = label_offset - data_offset;
    if (element != HalfRowBytes(dim) && element != static_cast<uint64_t>(dim) * sizeof(float))
      throw StatusError(Status::Corruption(
          fmt::format("{}: elements of {} bytes are no rows of dimension {}",
                      base.Path(name + ".hnswlib"), static_cast<int64_t>(element), dim)));
    *space = std::make_unique<HnswSpace>(dim, element == HalfRowBytes(dim));
    st = WriteFileAtomic(scratch, {bytes, f.size()});
    if (!st.ok()) throw StatusError(st);
  }
  auto index = std::make_unique<HnswLib>(space->get(), scratch, false, max_elements);
  std::filesystem::remove(scratch);
  return index;
}

// Moves a node whose vector changed: the node's own links are found as an
// insertion finds them, and the nodes it links to link back (hnswlib's
// updatePoint with neighbour probability 0). hnswlib's addPoint of a known
// label also rebuilds the list of every old neighbour from its two-hop
// candidates (probability 1), about 20 times an insertion's work; those
// lists keep their link to the moved node instead, one slot each until the
// next rebuild.
void Relink(HnswLib* index, const void* v, hnswlib::labeltype label) {
  hnswlib::tableint id;
  {
    std::unique_lock<std::mutex> l(index->cur_element_count_guard_);
    id = index->label_lookup_.at(label);
  }
  std::unique_lock<std::mutex> l(
      index->link_list_update_locks_[id & (HnswLib::max_update_element_locks - 1)]);
  index->updatePoint(v, id, 0.0f);
}

// Saves an hnswlib index as a checked file of `out`.
Status SaveHnswLib(HnswLib* index, GenerationBuilder* out, const std::string& name) {
  const std::string scratch = out->Path(name + ".scratch");
  index->saveIndex(scratch);
  MappedFile saved;
  LITGRAPH_RETURN_IF_ERROR(saved.Open(scratch));
  CheckedFileWriter w;
  LITGRAPH_RETURN_IF_ERROR(w.Open(out->Path(name), out->NewFile(name)));
  // Copied 64 MiB at a time, each released after: the saved index is as big
  // as the one in memory beside it (740 MB of keyword index at 1M hubs works).
  constexpr size_t kPiece = size_t{64} << 20;
  for (size_t at = 0; at < saved.size(); at += kPiece) {
    const size_t len = std::min(kPiece, saved.size() - at);
    LITGRAPH_RETURN_IF_ERROR(w.Append({reinterpret_cast<const char*>(saved.data()) + at, len}));
    saved.Release(at, len);
  }
  LITGRAPH_RETURN_IF_ERROR(w.Finish());
  std::filesystem::remove(scratch);
  return Status::Ok();
}

// Bytes of a v3 level-0 list of maxM0 links: the power of two that holds
// them, so that lists never straddle a check page (<= 512 bytes).
uint32_t Level0Stride(uint32_t maxM0) {
  uint32_t stride = 16;
  while (stride < maxM0 * 4) stride *= 2;
  return stride;
}

// Exports an hnswlib index to the flat layout (vectors.h): node n is row n,
// the row whose label is labels[n] (label n when `labels` is empty). As a
// segment, each node's row is appended: labels[n] (n when `labels` is
// empty; kNoLabel for a node without a vector).
Status ExportHnsw(const HnswLib& index, int dim, GenerationBuilder* out, const std::string& name,
                  std::span<const uint32_t> labels, bool segment = false) {
  const uint64_t count = index.cur_element_count;
  // Internal id -> row, and the row space.
  std::vector<uint32_t> label(count);
  uint64_t n = labels.size();
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t l = index.getExternalLabel(static_cast<hnswlib::tableint>(i));
    const int64_t r = RowOfLabel(labels, l);
    if (r < 0 || r >= UINT32_MAX)
      return Status::InvalidArgument(out->Path(name) + ": label out of range");
    label[i] = static_cast<uint32_t>(r);
    if (labels.empty()) n = std::max(n, l + 1);
  }
  if (segment && !labels.empty() && labels.back() >= kWaypoint)
    return Status::InvalidArgument(out->Path(name) + ": rows past a segment's label range");
  HnswHeader h{};
  std::memcpy(h.magic, segment ? kHnswMagicV4 : kHnswMagic, 8);
  h.dim = static_cast<uint32_t>(dim);
  h.M = static_cast<uint32_t>(index.maxM_);
  h.maxM0 = static_cast<uint32_t>(index.maxM0_);
  h.entry = count ? label[index.enterpoint_node_] : 0;
  h.max_level = count ? index.maxlevel_ : 0;
  h.stride = Level0Stride(h.maxM0);
  h.nodes = n;
  h.indexed = count;
  std::vector<uint8_t> levels((n + 7) / 8 * 8, 0);
  std::vector<uint64_t> upper_off(n, 0);
  const uint64_t words = h.stride / 4;
  std::vector<uint32_t> level0(n * words, kNoLink);
  std::vector<uint32_t> upper;
  for (uint64_t i = 0; i < count; ++i) {
    const auto node = static_cast<hnswlib::tableint>(i);
    const uint32_t me = label[i];
    int lv = std::min(index.element_levels_[i], 255);
    levels[me] = static_cast<uint8_t>(lv);
    auto* l0 = index.get_linklist0(node);
    uint32_t cnt = std::min<uint32_t>(index.getListCount(l0), h.maxM0);
    uint32_t* dst = level0.data() + me * words;
    for (uint32_t k = 0; k < cnt; ++k) dst[k] = label[l0[1 + k]];
    upper_off[me] = upper.size();
    for (int l = 1; l <= lv; ++l) {
      auto* ll = index.get_linklist(node, l);
      uint32_t c = std::min<uint32_t>(index.getListCount(ll), h.M);
      upper.push_back(c);
      for (uint32_t k = 0; k < h.M; ++k) upper.push_back(k < c ? label[ll[1 + k]] : 0);
    }
  }
  h.upper_words = upper.size();
  const uint64_t before = sizeof h + levels.size() + upper_off.size() * 8;
  h.level0_at = (before + 511) / 512 * 512;
  CheckedFileWriter w;
  LITGRAPH_RETURN_IF_ERROR(w.Open(out->Path(name), out->NewFile(name)));
  LITGRAPH_RETURN_IF_ERROR(w.Append({reinterpret_cast<const char*>(&h), sizeof h}));
  LITGRAPH_RETURN_IF_ERROR(w.Append(Bytes(levels)));
  LITGRAPH_RETURN_IF_ERROR(w.Append(Bytes(upper_off)));
  LITGRAPH_RETURN_IF_ERROR(w.Append(std::string(h.level0_at - before, '\0')));
  LITGRAPH_RETURN_IF_ERROR(w.Append(Bytes(level0)));
  LITGRAPH_RETURN_IF_ERROR(w.Append(Bytes(upper)));
  if (segment) {  // node n is row labels[n]
    std::vector<uint32_t> row(n, kNoLabel);
    for (uint32_t node : label) row[node] = labels.empty() ? node : labels[node];
    LITGRAPH_RETURN_IF_ERROR(w.Append(Bytes(row)));
  }
  return w.Finish();
}

// Inserts the rows of `todo` on `threads` threads, insert(i) for the i-th.
// hnswlib's addPoint is thread-safe; the insertion order per thread is
// fixed, but the graph depends on thread timing, so one thread gives a
// reproducible index and more threads a faster build. hnswlib copies each
// vector it inserts, so the source rows are read once: every 64Ki of the
// first `ascending` rows (in row order), thread 0 drops the mapping of the
// rows the threads have passed (VectorFile::Release), and the build's RSS
// stays what hnswlib holds (at 10M rows the file alone is 5 GB). A row read
// again is mapped again.
template <typename Insert>
void InsertRows(const VectorFile& vectors, const std::vector<uint64_t>& todo, size_t ascending,
                int threads, Insert insert) {
  threads = std::max(1, threads);
  const size_t margin = (size_t{1} << 16) * static_cast<size_t>(threads);
  uint64_t released = 0;
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t)
    ts.emplace_back([&, t] {
      for (size_t i = t; i < todo.size(); i += threads) {
        insert(i);
        if (t == 0 && i < ascending && i >= margin && i % margin == 0 &&
            todo[i - margin] > released) {
          vectors.Release(released, todo[i - margin]);
          released = todo[i - margin];
        }
      }
    });
  for (auto& th : ts) th.join();
  vectors.Release(0, vectors.rows());
}

// The index of rows `todo` of `vectors` (ascending, each with a vector) as
// segment `name` (above): node n is row todo[n], so the segment's size
// follows its rows however far apart they are.
Status BuildSegment(const VectorFile& vectors, const std::vector<uint64_t>& todo,
                    const HnswBuildOptions& o, GenerationBuilder* out, const std::string& name) {
  if (!todo.empty() && todo.back() >= kWaypoint)
    return Status::InvalidArgument(out->Path(name) + ": rows past a segment's label range");
  const std::vector<uint32_t> rows(todo.begin(), todo.end());
  HnswSpace space(vectors.dim(), o.half);
  try {
    HnswLib index(&space, std::max<size_t>(todo.size(), 1), static_cast<size_t>(o.M),
                  static_cast<size_t>(o.ef_construction), static_cast<size_t>(o.seed));
    InsertRows(vectors, todo, todo.size(), o.threads,
               [&](size_t i) { index.addPoint(space.Element(vectors.Row(todo[i])), todo[i]); });
    LITGRAPH_RETURN_IF_ERROR(vectors.status());
    return ExportHnsw(index, vectors.dim(), out, name, rows, /*segment=*/true);
  } catch (const std::exception& e) {
    return Status::IoError(fmt::format("{}: hnswlib: {}", out->Path(name), e.what()));
  }
}

}  // namespace

uint16_t FloatToHalf(float f) {
  // Round to nearest even in integer arithmetic (after F. Giesen's
  // float_to_half_fast3_rtne): halves' subnormals by one float addition
  // whose rounding is the half's; normal values by adding half an ulp of
  // the half, less one unless the kept bits are odd.
  uint32_t x = 0;
  std::memcpy(&x, &f, 4);
  const auto sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  if (x > 0x7f800000u)  // NaN: quiet, the payload's top bits kept (as F16C)
    return sign | static_cast<uint16_t>(0x7e00u | ((x >> 13) & 0x3ffu));
  if (x >= 0x477ff000u) return sign | 0x7c00u;  // 65520 and up round past 65504: inf
  if (x < 0x38800000u) {                        // below the smallest normal half: a subnormal or 0
    float v = 0;
    std::memcpy(&v, &x, 4);
    v += 0.5f;  // its ulp is 2^-24, the half subnormals' step
    uint32_t y = 0;
    std::memcpy(&y, &v, 4);
    return sign | static_cast<uint16_t>(y - 0x3f000000u);
  }
  const uint32_t odd = (x >> 13) & 1u;
  x += 0xc8000fffu + odd;  // rebias the exponent (-112 << 23), then round
  return sign | static_cast<uint16_t>(x >> 13);
}

float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  uint32_t x = 0;
  if (exp == 0x1f) {
    x = sign | 0x7f800000u | (mant << 13);
  } else if (exp != 0) {
    x = sign | ((exp + 112) << 23) | (mant << 13);
  } else {
    const float v = static_cast<float>(mant) * 0x1p-24f;  // exact
    std::memcpy(&x, &v, 4);
    x |= sign;
  }
  float f = 0;
  std::memcpy(&f, &x, 4);
  return f;
}

void HalfRow(const float* row, int dim, uint16_t* out) {
  for (int i = 0; i < dim; ++i) out[i] = FloatToHalf(row[i]);
}

float HalfDistance(const void* a, const void* b, const void* dim) {
  static const HalfDistanceFn f = HalfDistanceFunction();
  return f(static_cast<const uint16_t*>(a), static_cast<const uint16_t*>(b),
           static_cast<int>(*static_cast<const size_t*>(dim)));
}

Status VectorFile::Write(GenerationBuilder* out, const std::string& name, int dim, uint64_t rows,
                         const float* data) {
  return Write(out->Path(name), out->NewFile(name), dim, rows, data);
}

Status VectorFile::Write(const std::string& path, const FileIdentity& id, int dim, uint64_t rows,
                         const float* data) {
  return Write(path, id, dim, rows, [&](uint64_t r) { return data + r * dim; });
}

Status VectorFile::Write(GenerationBuilder* out, const std::string& name, int dim, uint64_t rows,
                         const std::function<const float*(uint64_t)>& row) {
  return Write(out->Path(name), out->NewFile(name), dim, rows, row);
}

Status VectorFile::Write(const std::string& path, const FileIdentity& id, int dim, uint64_t rows,
                         const std::function<const float*(uint64_t)>& row) {
  VecHeader h{};
  std::memcpy(h.magic, kVecMagic, 8);
  h.dim = static_cast<uint32_t>(dim);
  h.rows = rows;
  h.data_at = kVecDataAt;
  // One pass over the rows: the header's count of rows present is patched in
  // at the end.
  CheckedFileWriter w;
  LITGRAPH_RETURN_IF_ERROR(w.Open(path, id));
  LITGRAPH_RETURN_IF_ERROR(w.Append({reinterpret_cast<const char*>(&h), sizeof h}));
  LITGRAPH_RETURN_IF_ERROR(w.Append(std::string(kVecDataAt - sizeof h, '\0')));
  const size_t row_bytes = static_cast<size_t>(dim) * sizeof(float);
  std::string chunk;
  chunk.reserve(1 << 20);
  for (uint64_t r = 0; r < rows; ++r) {
    const float* v = row(r);
    h.present += v && !IsZero(v, dim) ? 1 : 0;
    if (v)
      chunk.append(reinterpret_cast<const char*>(v), row_bytes);
    else
      chunk.append(row_bytes, '\0');
    if (chunk.size() >= (1 << 20) || r + 1 == rows) {
      LITGRAPH_RETURN_IF_ERROR(w.Append(chunk));
      chunk.clear();
    }
  }
  LITGRAPH_RETURN_IF_ERROR(w.PatchHeader(0, {reinterpret_cast<const char*>(&h), sizeof h}));
  return w.Finish();
}

Status VectorFile::Open(const GenerationView& generation, const std::string& name) {
  auto id = generation.Identity(name);
  if (!id.ok()) return id.status();
  return Open(generation.Path(name), *id);
}

Status VectorFile::Open(const std::string& path, const FileIdentity& id) {
  LITGRAPH_RETURN_IF_ERROR(file_.Open(path, id));
  VecHeader h;
  const uint8_t* p = file_.Read(0, sizeof h);
  if (!p) return Status::Corruption(path + ": truncated vector file");
  std::memcpy(&h, p, sizeof h);
  const bool v2 = std::memcmp(h.magic, kVecMagicV2, 8) == 0;
  if (v2) h.data_at = sizeof h;
  if ((!v2 && std::memcmp(h.magic, kVecMagic, 8) != 0) || h.dim == 0 || h.dim > 65536 ||
      h.data_at < sizeof h || h.data_at % sizeof(float) != 0 || h.data_at > file_.size() ||
      h.rows > (file_.size() - h.data_at) / (h.dim * sizeof(float)) ||
      file_.size() != h.data_at + h.rows * h.dim * sizeof(float))
    return Status::Corruption(path + ": corrupt vector file");
  data_at_ = h.data_at;
  dim_ = static_cast<int>(h.dim);
  rows_ = h.rows;
  present_ = h.present;
  return Status::Ok();
}

const float* VectorFile::RawRow(uint64_t id) const {
  if (id >= rows_) return nullptr;
  const uint64_t bytes = static_cast<uint64_t>(dim_) * sizeof(float);
  return reinterpret_cast<const float*>(file_.Read(data_at_ + id * bytes, bytes));
}

void VectorFile::Release(uint64_t first, uint64_t end) const {
  if (first >= end || first >= rows_) return;
  const uint64_t bytes = static_cast<uint64_t>(dim_) * sizeof(float);
  file_.Release(data_at_ + first * bytes, (std::min(end, rows_) - first) * bytes);
}

const float* VectorFile::Row(uint64_t id) const {
  const float* r = RawRow(id);
  return r && !IsZero(r, dim_) ? r : nullptr;
}

Status BuildHnsw(const VectorFile& vectors, GenerationBuilder* out, const std::string& name,
                 const HnswBuildOptions& o, const GenerationView* base,
                 const std::vector<uint64_t>& changed, std::span<const uint32_t> labels,
                 std::span<const uint8_t> elsewhere, std::vector<uint64_t>* spilled) {
  const int dim = vectors.dim();
  // The space of the index extended, else of o.half; declared before the
  // index so that it outlives it.
  std::unique_ptr<HnswSpace> space;
  std::unique_ptr<HnswLib> index;
  std::unordered_set<uint64_t> have;
  const size_t present = std::max<size_t>(vectors.present(), 1);
  auto label_of = [&](uint64_t r) -> uint64_t { return labels.empty() ? r : labels[r]; };
  try {
    if (base && base->Has(name + ".hnswlib")) {
      // Room for the rows it may take: within max_nodes when it stops there
      // (hnswlib allocates a lock and a level per slot up front).
      index = LoadBase(*base, name, out->Path(name + ".base"), dim, &space,
                       spilled ? std::min<size_t>(present, o.max_nodes) : present);
      // The rows inserted now are linked with this run's beam, not the saved one.
      index->ef_construction_ = std::max<size_t>(static_cast<size_t>(o.ef_construction), index->M_);
      for (size_t i = 0; i < index->cur_element_count; ++i) {
        const uint64_t l = index->getExternalLabel(i);
        // A node that is no row any more (a delta loses rows only when a
        // compaction folds it into the base): start afresh.
        const int64_t r = RowOfLabel(labels, l);
        if (r < 0 || static_cast<uint64_t>(r) >= vectors.rows()) {
          index.reset();
          have.clear();
          break;
        }
        have.insert(l);
      }
    }
    // The rows to insert; with `spilled`, those past max_nodes go there.
    const uint64_t has = index ? index->cur_element_count : 0;
    const uint64_t room = !spilled ? UINT64_MAX : o.max_nodes > has ? o.max_nodes - has : 0;
    // Every row is read to see whether it has a vector, and released behind
    // the scan: left mapped, the whole file stayed in the RSS until the
    // insertions passed it (1.46 GB of keyword vectors at 1M hubs works,
    // bench/results/2026-12-04-embed-rss).
    std::vector<uint64_t> todo;
    ReleaseBehind behind(uint64_t{1} << 17, [&](uint64_t a, uint64_t b) { vectors.Release(a, b); });
    for (uint64_t r = 0; r < vectors.rows(); ++r) {
      behind.At(r);
      if (vectors.Row(r) && !have.count(label_of(r)) && !(r < elsewhere.size() && elsewhere[r]))
        (todo.size() < room ? todo : *spilled).push_back(r);
    }
    behind.All();
    const size_t added = todo.size();
    // A new index has room for its rows (hnswlib allocates a lock and a
    // level per element of its capacity up front).
    if (!index) {
      space = std::make_unique<HnswSpace>(dim, o.half);
      index = std::make_unique<HnswLib>(
          space.get(), std::max<size_t>(added, 1), static_cast<size_t>(o.M),
          static_cast<size_t>(o.ef_construction), static_cast<size_t>(o.seed));
    }
    // addPoint of a label the index has updates its vector and links.
    for (uint64_t l : changed) {
      const int64_t r = RowOfLabel(labels, l);
      if (r >= 0 && static_cast<uint64_t>(r) < vectors.rows() && vectors.Row(r) && have.count(l))
        todo.push_back(static_cast<uint64_t>(r));
    }
    LITGRAPH_RETURN_IF_ERROR(vectors.status());
    if (index->max_elements_ < index->cur_element_count + added)
      index->resizeIndex(index->cur_element_count + added);
    // The rows added first (ascending), then the changed ones.
    InsertRows(vectors, todo, added, o.threads, [&](size_t i) {
      const auto label = static_cast<hnswlib::labeltype>(label_of(todo[i]));
      const void* element = space->Element(vectors.Row(todo[i]));
      if (i < added || o.relink_neighbours)
        index->addPoint(element, label);
      else
        Relink(index.get(), element, label);
    });
    if (o.save_hnswlib) {
      if (space->half()) out->NeedFormat(kDerivedFormatHalfGraphs);
      LITGRAPH_RETURN_IF_ERROR(SaveHnswLib(index.get(), out, name + ".hnswlib"));
    }
  } catch (const StatusError& e) {
    return e.status();
  } catch (const std::exception& e) {
    return Status::IoError(fmt::format("{}: hnswlib: {}", out->Path(name), e.what()));
  }
  return ExportHnsw(*index, dim, out, name + ".hnsw", labels);
}

uint64_t HnswNodesWithin(size_t bytes, int dim, int M) {
  // hnswlib's element (half row, level-0 links of 2M slots, upper links
  // ~M/2 slots on average), the export's copy of the level-0 links, and 96
  // for the node's lock, level and label map entry and the export's level
  // and offset.
  const uint64_t per_node = HalfRowBytes(dim) + 2 * static_cast<uint64_t>(M) * 4 * 2 +
                            static_cast<uint64_t>(M) * 4 / 2 + 96;
  return std::max<uint64_t>(bytes / per_node, 16);
}

Status BuildHnswWithin(const VectorFile& vectors, GenerationBuilder* out, const std::string& name,
                       const HnswBuildOptions& options, uint64_t max_nodes, size_t* segments) {
  // The first max_nodes rows with a vector are the base index, the rest cut
  // into segments.
  HnswBuildOptions o = options;
  o.max_nodes = max_nodes;
  std::vector<uint64_t> spilled;
  LITGRAPH_RETURN_IF_ERROR(BuildHnsw(vectors, out, name, o, nullptr, {}, {}, {}, &spilled));
  return BuildHnswSegments(vectors, spilled, out, name, options, max_nodes, 0, segments);
}

Status BuildHnswSegments(const VectorFile& vectors, const std::vector<uint64_t>& rows,
                         GenerationBuilder* out, const std::string& name,
                         const HnswBuildOptions& options, uint64_t max_nodes, size_t first,
                         size_t* segments) {
  *segments = 0;
  max_nodes = std::max<uint64_t>(max_nodes, 1);
  for (size_t at = 0; at < rows.size(); at += max_nodes) {
    const std::vector<uint64_t> run(
        rows.begin() + static_cast<int64_t>(at),
        rows.begin() + static_cast<int64_t>(std::min<uint64_t>(rows.size(), at + max_nodes)));
    LITGRAPH_RETURN_IF_ERROR(BuildSegment(vectors, run, options, out,
                                          FieldVectors::SegmentFile(name, first + ++*segments)));
  }
  return Status::Ok();
}

Status WriteHnswSegment(const GenerationView& from, const std::string& from_name,
                        const std::function<uint32_t(uint64_t node, uint32_t old)>& label,
                        GenerationBuilder* out, const std::string& name, uint64_t* labelled) {
  const std::string path = from.Path(from_name);
  CheckedFile f;
  LITGRAPH_RETURN_IF_ERROR(from.OpenFile(from_name, &f));
  HnswHeader h;
  const uint8_t* p = f.Read(0, sizeof h);
  if (!p) return Status::Corruption(path + ": truncated index");
  std::memcpy(&h, p, sizeof h);
  const bool v4 = std::memcmp(h.magic, kHnswMagicV4, 8) == 0;
  if (!v4 && std::memcmp(h.magic, kHnswMagic, 8) != 0)
    return Status::InvalidArgument(path + ": not a flat (v3 or v4) litgraph HNSW index");
  const uint64_t n = h.nodes, size = f.size();
  if (n > size / 9 || h.level0_at > size || h.upper_words > size / 4 || h.stride > 1u << 20)
    return Status::Corruption(path + ": corrupt index");
  const uint64_t links_end = h.level0_at + n * h.stride + h.upper_words * 4;
  if (size != links_end + (v4 ? n * 4 : 0)) return Status::Corruption(path + ": corrupt index");
  std::memcpy(h.magic, kHnswMagicV4, 8);
  CheckedFileWriter w;
  LITGRAPH_RETURN_IF_ERROR(w.Open(out->Path(name), out->NewFile(name)));
  LITGRAPH_RETURN_IF_ERROR(w.Append({reinterpret_cast<const char*>(&h), sizeof h}));
  constexpr uint64_t kChunk = uint64_t{1} << 20;
  for (uint64_t at = sizeof h; at < links_end; at += kChunk) {
    const uint64_t len = std::min(kChunk, links_end - at);
    const uint8_t* bytes = f.Read(at, len);
    if (!bytes) return f.status();
    LITGRAPH_RETURN_IF_ERROR(w.Append({reinterpret_cast<const char*>(bytes), len}));
  }
  std::vector<uint32_t> labels(n);
  uint64_t count = 0;
  for (uint64_t node = 0; node < n; ++node) {
    uint32_t old = static_cast<uint32_t>(node);
    if (v4) {
      const uint8_t* l = f.Read(links_end + node * 4, 4);
      if (!l) return f.status();
      std::memcpy(&old, l, 4);
    }
    labels[node] = label(node, old);
    count += (labels[node] & kWaypoint) == 0;
  }
  LITGRAPH_RETURN_IF_ERROR(w.Append(Bytes(labels)));
  // A new segment counts its live nodes; a rewritten one keeps the count it
  // was made with (embed folds a segment once fewer than half are left).
  if (!v4) {
    h.indexed = count;
    LITGRAPH_RETURN_IF_ERROR(w.PatchHeader(offsetof(HnswHeader, indexed),
                                           {reinterpret_cast<const char*>(&h.indexed), 8}));
  }
  if (labelled) *labelled = count;
  return w.Finish();
}

Status HnswIndex::Open(const GenerationView& generation, const std::string& name,
                       const VectorFile* vectors) {
  const std::string path = generation.Path(name);
  LITGRAPH_RETURN_IF_ERROR(generation.OpenFile(name, &file_));
  HnswHeader h;
  const uint8_t* p = file_.Read(0, sizeof h);
  if (!p) return Status::Corruption(path + ": truncated index");
  std::memcpy(&h, p, sizeof h);
  v2_ = std::memcmp(h.magic, kHnswMagicV2, 8) == 0;
  const bool v4 = std::memcmp(h.magic, kHnswMagicV4, 8) == 0;
  if (!v2_ && !v4 && std::memcmp(h.magic, kHnswMagic, 8) != 0)
    return Status::Corruption(path + ": not a litgraph HNSW index");
  labelled_ = v2_ || v4;
  if (static_cast<int>(h.dim) != vectors->dim())
    return Status::Corruption(path + ": index and vectors differ in dimension");
  const uint64_t n = h.nodes, size = file_.size();
  // Every term bounded by the file size before it is multiplied.
  if (n > size / 9 || h.maxM0 > 1u << 16 || h.M > 1u << 16 || h.upper_words > size / 4 ||
      h.max_level < 0 || h.max_level > 255 || (n > 0 && h.entry >= n))
    return Status::Corruption(path + ": corrupt index");
  if (v2_) {
    labels_at_ = sizeof h;
    levels_at_ = labels_at_ + n * 4;
    upper_off_at_ = levels_at_ + (n + 7) / 8 * 8;
    level0_at_ = upper_off_at_ + n * 8;
    stride_ = (1 + h.maxM0) * 4;
  } else {
    levels_at_ = sizeof h;
    upper_off_at_ = levels_at_ + (n + 7) / 8 * 8;
    level0_at_ = h.level0_at;
    stride_ = h.stride;
    if (stride_ < h.maxM0 * 4 || stride_ % 4 != 0 || stride_ > 1u << 20 || level0_at_ % 4 != 0 ||
        level0_at_ < upper_off_at_ + n * 8 || level0_at_ > size)
      return Status::Corruption(path + ": corrupt index");
  }
  if (n > (size - std::min(size, level0_at_)) / std::max<uint64_t>(stride_, 1) ||
      size != level0_at_ + n * stride_ + h.upper_words * 4 + (v4 ? n * 4 : 0))
    return Status::Corruption(path + ": corrupt index");
  if (v4) labels_at_ = level0_at_ + n * stride_ + h.upper_words * 4;
  vectors_ = vectors;
  dim_ = static_cast<int>(h.dim);
  M_ = static_cast<int>(h.M);
  maxM0_ = static_cast<int>(h.maxM0);
  entry_ = h.entry;
  max_level_ = h.max_level;
  nodes_ = n;
  indexed_ = v2_ ? n : h.indexed;
  upper_words_ = h.upper_words;
  upper_at_ = level0_at_ + n * stride_;
  return Status::Ok();
}

bool HnswIndex::Level0(uint32_t node, const uint32_t** links, uint32_t* count) const {
  auto* l = reinterpret_cast<const uint32_t*>(file_.Read(level0_at_ + node * stride_, stride_));
  if (!l) return false;
  if (v2_) {
    if (l[0] > static_cast<uint32_t>(maxM0_)) return false;
    *links = l + 1;
    *count = l[0];
    return true;
  }
  uint32_t c = 0;
  while (c < static_cast<uint32_t>(maxM0_) && l[c] != kNoLink) ++c;
  *links = l;
  *count = c;
  return true;
}

const uint32_t* HnswIndex::Upper(uint32_t node, int level) const {
  const uint8_t* o = file_.Read(upper_off_at_ + uint64_t{node} * 8, 8);
  if (!o) return nullptr;
  uint64_t off;
  std::memcpy(&off, o, 8);
  const uint64_t words = 1 + static_cast<uint64_t>(M_);
  off += static_cast<uint64_t>(level - 1) * words;
  if (off > upper_words_ || words > upper_words_ - off) return nullptr;
  auto* l = reinterpret_cast<const uint32_t*>(file_.Read(upper_at_ + off * 4, words * 4));
  return l && l[0] <= static_cast<uint32_t>(M_) ? l : nullptr;
}

bool HnswIndex::Label(uint32_t node, uint32_t* label) const {
  if (!labelled_) {
    *label = node;
    return true;
  }
  const uint8_t* p = file_.Read(labels_at_ + uint64_t{node} * 4, 4);
  if (!p) return false;
  std::memcpy(label, p, 4);
  return true;
}

std::vector<uint32_t> HnswIndex::Labels() const {
  std::vector<uint32_t> labels(nodes_);
  for (uint64_t n = 0; n < nodes_; ++n)
    if (!Label(static_cast<uint32_t>(n), &labels[n])) return {};
  return labels;
}

int HnswIndex::Level(uint32_t node) const {
  const uint8_t* p = file_.Read(levels_at_ + node, 1);
  return p ? *p : -1;
}

float HnswIndex::Score(const float* q, uint32_t node) const {
  uint32_t label;
  const float* v = Label(node, &label) ? vectors_->RawRow(label & ~kWaypoint) : nullptr;
  return v ? Dot(q, v, dim_) : -2.0f;
}

std::vector<VectorHit> HnswIndex::Search(const float* query, size_t k, size_t ef) const {
  std::vector<VectorHit> out;
  if (nodes_ == 0 || k == 0) return out;
  ef = std::max(ef, k);
  uint32_t cur = entry_;
  float cur_s = Score(query, cur);
  for (int level = max_level_; level >= 1; --level) {
    bool changed = true;
    while (changed) {
      changed = false;
      if (Level(cur) < level) break;
      const uint32_t* l = Upper(cur, level);
      if (!l) break;
      for (uint32_t i = 0; i < l[0]; ++i) {
        uint32_t c = l[1 + i];
        if (c >= nodes_) continue;
        float s = Score(query, c);
        if (s > cur_s) {
          cur_s = s;
          cur = c;
          changed = true;
        }
      }
    }
  }
  // Beam search at level 0. candidates: max-heap by score; results: min-heap.
  using Item = std::pair<float, uint32_t>;
  std::priority_queue<Item> candidates;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> results;
  // Visited marks: a bitmap from lazily zeroed pages costs only the pages
  // the search touches.
  ZeroedArray<uint64_t> visited_bits((nodes_ + 63) / 64);
  struct Visited {
    ZeroedArray<uint64_t>& bits;
    bool insert(uint32_t n) {
      uint64_t m = uint64_t{1} << (n & 63);
      if (bits[n >> 6] & m) return false;
      bits[n >> 6] |= m;
      return true;
    }
  } visited{visited_bits};
  candidates.emplace(cur_s, cur);
  results.emplace(cur_s, cur);
  visited.insert(cur);
  while (!candidates.empty()) {
    auto [s, c] = candidates.top();
    if (results.size() >= ef && s < results.top().first) break;
    candidates.pop();
    const uint32_t* l;
    uint32_t count;
    if (!Level0(c, &l, &count)) break;  // damaged: status() says so
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t nb = l[i];
      if (nb >= nodes_ || !visited.insert(nb)) continue;
      float ns = Score(query, nb);
      if (results.size() < ef || ns > results.top().first) {
        candidates.emplace(ns, nb);
        results.emplace(ns, nb);
        if (results.size() > ef) results.pop();
      }
    }
  }
  // A node whose vector went since the index was built (embed's fold keeps
  // it as a waypoint), or a segment's waypoint, is passed through, never
  // returned.
  while (!results.empty()) {
    uint32_t label;
    if (Label(results.top().second, &label) && !(label & kWaypoint) && vectors_->Row(label))
      out.push_back({label, results.top().first});
    results.pop();
  }
  std::sort(out.begin(), out.end(), ByScore);
  if (out.size() > k) out.resize(k);
  return out;
}

std::vector<VectorHit> BruteForceSearch(const VectorFile& vectors, const float* query, size_t k) {
  std::vector<VectorHit> all;
  for (uint64_t r = 0; r < vectors.rows(); ++r)
    if (const float* v = vectors.Row(r))
      all.push_back({static_cast<uint32_t>(r), Dot(query, v, vectors.dim())});
  TopK(&all, k);
  return all;
}

Status FieldVectors::Open(const GenerationView& generation, const std::string& name) {
  LITGRAPH_RETURN_IF_ERROR(base_.Open(generation, name + ".vec"));
  rows_ = base_.rows();
  present_ = base_.present();
  if (generation.Has(name + ".hnsw")) {
    LITGRAPH_RETURN_IF_ERROR(index_.Open(generation, name + ".hnsw", &base_));
    has_index_ = true;
  }
  for (size_t k = 1; has_index_ && generation.Has(SegmentFile(name, k)); ++k) {
    segments_.push_back(std::make_unique<HnswIndex>());
    LITGRAPH_RETURN_IF_ERROR(segments_.back()->Open(generation, SegmentFile(name, k), &base_));
  }
  if (!generation.Has(name + ".delta.ids")) return Status::Ok();
  const std::string path = generation.Path(name + ".delta.ids");
  LITGRAPH_RETURN_IF_ERROR(generation.OpenFile(name + ".delta.ids", &ids_));
  DeltaHeader h;
  const uint8_t* p = ids_.Read(0, sizeof h);
  if (!p) return Status::Corruption(path + ": truncated delta");
  std::memcpy(&h, p, sizeof h);
  if (std::memcmp(h.magic, kDeltaMagic, 8) != 0 || ids_.size() != sizeof h + uint64_t{h.count} * 4)
    return Status::Corruption(path + ": corrupt delta");
  LITGRAPH_RETURN_IF_ERROR(delta_.Open(generation, name + ".delta.vec"));
  if (delta_.rows() != h.count || delta_.dim() != base_.dim())
    return Status::Corruption(path + ": delta ids and vectors disagree");
  delta_count_ = h.count;
  present_ = h.present;
  uint32_t last = 0;
  if (delta_count_ > 0 && DeltaId(delta_count_ - 1, &last))
    rows_ = std::max<uint64_t>(rows_, last + uint64_t{1});
  if (generation.Has(name + ".delta.hnsw")) {
    LITGRAPH_RETURN_IF_ERROR(delta_index_.Open(generation, name + ".delta.hnsw", &delta_));
    has_delta_index_ = true;
  }
  return ids_.status();
}

bool FieldVectors::DeltaId(uint64_t i, uint32_t* id) const {
  const uint8_t* p = ids_.Read(sizeof(DeltaHeader) + i * 4, 4);
  if (!p) return false;
  std::memcpy(id, p, 4);
  return true;
}

int64_t FieldVectors::DeltaRow(uint64_t id) const {
  uint64_t lo = 0, hi = delta_count_;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    uint32_t v;
    if (!DeltaId(mid, &v)) return -1;  // damaged: status() says so
    if (v < id)
      lo = mid + 1;
    else if (v > id)
      hi = mid;
    else
      return static_cast<int64_t>(mid);
  }
  return -1;
}

std::vector<uint32_t> FieldVectors::DeltaIds() const {
  std::vector<uint32_t> ids;
  ids.reserve(delta_count_);
  for (uint64_t i = 0; i < delta_count_; ++i) {
    uint32_t id;
    if (!DeltaId(i, &id)) break;
    ids.push_back(id);
  }
  return ids;
}

const float* FieldVectors::Row(uint64_t id) const {
  if (delta_count_ > 0) {
    const int64_t r = DeltaRow(id);
    if (r >= 0) return delta_.Row(static_cast<uint64_t>(r));
  }
  return base_.Row(id);
}

std::vector<VectorHit> FieldVectors::Search(const float* query, size_t k, size_t ef) const {
  if (!has_index_) return Exact(query, k);
  if (delta_count_ == 0 && segments_.empty()) return index_.Search(query, k, ef);
  // With a delta, the whole beam, so that masked nodes do not leave fewer
  // than k.
  const size_t beam = delta_count_ > 0 ? std::max(k, ef) : k;
  std::vector<VectorHit> hits;
  for (const VectorHit& h : index_.Search(query, beam, ef))
    if (!InDelta(h.id)) hits.push_back(h);
  for (const auto& segment : segments_)
    for (const VectorHit& h : segment->Search(query, beam, ef))
      if (!InDelta(h.id)) hits.push_back(h);
  if (!segments_.empty()) OnePerRow(&hits);
  if (delta_count_ == 0) {
    TopK(&hits, k);
    return hits;
  }
  std::vector<VectorHit> delta =
      has_delta_index_ ? delta_index_.Search(query, k, ef) : BruteForceSearch(delta_, query, k);
  for (const VectorHit& h : delta) {
    uint32_t id;
    if (DeltaId(h.id, &id)) hits.push_back({id, h.score});
  }
  TopK(&hits, k);
  return hits;
}

std::vector<VectorHit> FieldVectors::Exact(const float* query, size_t k) const {
  std::vector<VectorHit> all;
  const int dim = base_.dim();
  // The base's rows without the delta's ids (a merge walk over both in id
  // order), then the delta's rows.
  uint64_t next = 0;
  uint32_t masked = 0;
  bool have_masked = delta_count_ > 0 && DeltaId(0, &masked);
  for (uint64_t r = 0; r < base_.rows(); ++r) {
    while (have_masked && masked < r) have_masked = ++next < delta_count_ && DeltaId(next, &masked);
    if (have_masked && masked == r) continue;
    if (const float* v = base_.Row(r))
      all.push_back({static_cast<uint32_t>(r), Dot(query, v, dim)});
  }
  for (uint64_t i = 0; i < delta_count_; ++i) {
    uint32_t id;
    const float* v = delta_.Row(i);
    if (v && DeltaId(i, &id)) all.push_back({id, Dot(query, v, dim)});
  }
  TopK(&all, k);
  return all;
}

Status FieldVectors::status() const {
  LITGRAPH_RETURN_IF_ERROR(base_.status());
  if (has_index_) LITGRAPH_RETURN_IF_ERROR(index_.status());
  for (const auto& segment : segments_) LITGRAPH_RETURN_IF_ERROR(segment->status());
  if (delta_count_ > 0) {
    LITGRAPH_RETURN_IF_ERROR(ids_.status());
    LITGRAPH_RETURN_IF_ERROR(delta_.status());
  }
  if (has_delta_index_) LITGRAPH_RETURN_IF_ERROR(delta_index_.status());
  return Status::Ok();
}

Status FieldVectors::WriteDelta(GenerationBuilder* out, const std::string& name, int dim,
                                const std::vector<uint32_t>& ids,
                                const std::function<const float*(uint64_t i)>& row,
                                uint64_t present, const HnswBuildOptions& options,
                                uint64_t index_min_rows, const GenerationView* previous,
                                const std::vector<uint64_t>& changed) {
  if (ids.size() > UINT32_MAX) return Status::InvalidArgument(name + ": delta too large");
  DeltaHeader h{};
  std::memcpy(h.magic, kDeltaMagic, 8);
  h.count = static_cast<uint32_t>(ids.size());
  h.present = present;
  CheckedFileWriter w;
  const std::string ids_name = name + ".delta.ids";
  LITGRAPH_RETURN_IF_ERROR(w.Open(out->Path(ids_name), out->NewFile(ids_name)));
  LITGRAPH_RETURN_IF_ERROR(w.Append({reinterpret_cast<const char*>(&h), sizeof h}));
  LITGRAPH_RETURN_IF_ERROR(w.Append(Bytes(ids)));
  LITGRAPH_RETURN_IF_ERROR(w.Finish());
  const std::string vec_name = name + ".delta.vec";
  LITGRAPH_RETURN_IF_ERROR(VectorFile::Write(out, vec_name, dim, ids.size(), row));
  if (ids.size() < index_min_rows) return Status::Ok();
  VectorFile vf;
  auto id = out->Identity(vec_name);
  if (!id.ok()) return id.status();
  LITGRAPH_RETURN_IF_ERROR(vf.Open(out->Path(vec_name), *id));
  HnswBuildOptions o = options;
  o.ef_construction = std::min(o.ef_construction, o.delta_ef_construction);
  // Labelled by node id, so that the next run extends it (its rows shift as
  // ids join the delta; its labels do not).
  return BuildHnsw(vf, out, name + ".delta", o, previous, changed, ids);
}

}  // namespace litgraph
