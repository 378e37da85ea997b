#include "litgraph/vectors.h"

#include <fmt/format.h>
#include <hnswlib/hnswlib.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <queue>
#include <thread>
#include <unordered_set>

#include "litgraph/embed.h"

namespace litgraph {

namespace {

constexpr char kVecMagic[8] = {'L', 'G', 'V', 'E', 'C', 0, 0, 1};
constexpr char kHnswMagic[8] = {'L', 'G', 'H', 'N', 'S', 'W', 0, 1};

struct VecHeader {
  char magic[8];
  uint32_t dim;
  uint32_t reserved0;
  uint64_t rows;
  uint64_t present;
  uint64_t reserved[4];
};
static_assert(sizeof(VecHeader) == 64);

struct HnswHeader {
  char magic[8];
  uint32_t dim, M, maxM0, entry;
  int32_t max_level;
  uint32_t reserved0;
  uint64_t nodes;
  uint64_t upper_words;
  uint64_t reserved[2];
};
static_assert(sizeof(HnswHeader) == 64);

bool IsZero(const float* v, int dim) {
  for (int i = 0; i < dim; ++i)
    if (v[i] != 0) return false;
  return true;
}

}  // namespace

Status VectorFile::Write(const std::string& path, int dim, uint64_t rows, const float* data) {
  VecHeader h{};
  std::memcpy(h.magic, kVecMagic, 8);
  h.dim = static_cast<uint32_t>(dim);
  h.rows = rows;
  for (uint64_t r = 0; r < rows; ++r) h.present += IsZero(data + r * dim, dim) ? 0 : 1;
  std::string file(reinterpret_cast<const char*>(&h), sizeof h);
  file.append(reinterpret_cast<const char*>(data), rows * dim * sizeof(float));
  return WriteFileAtomic(path, file);
}

Status VectorFile::Open(const std::string& path) {
  Status st = file_.Open(path);
  if (!st.ok()) return st;
  VecHeader h;
  if (file_.size() < sizeof h) return Status::Corruption(path + ": truncated vector file");
  std::memcpy(&h, file_.data(), sizeof h);
  if (std::memcmp(h.magic, kVecMagic, 8) != 0 || h.dim == 0 ||
      file_.size() != sizeof h + h.rows * h.dim * sizeof(float))
    return Status::Corruption(path + ": corrupt vector file");
  dim_ = static_cast<int>(h.dim);
  rows_ = h.rows;
  present_ = h.present;
  data_ = reinterpret_cast<const float*>(file_.data() + sizeof h);
  return Status::Ok();
}

const float* VectorFile::Row(uint64_t id) const {
  if (id >= rows_) return nullptr;
  const float* r = data_ + id * dim_;
  return IsZero(r, dim_) ? nullptr : r;
}

Status BuildHnsw(const VectorFile& vectors, const std::string& prefix, const HnswBuildOptions& o,
                 const std::string& hnswlib_in) {
  const int dim = vectors.dim();
  hnswlib::InnerProductSpace space(static_cast<size_t>(dim));
  std::unique_ptr<hnswlib::HierarchicalNSW<float>> index;
  std::unordered_set<uint64_t> have;
  size_t present = vectors.present();
  try {
    if (!hnswlib_in.empty() && std::filesystem::exists(hnswlib_in)) {
      index = std::make_unique<hnswlib::HierarchicalNSW<float>>(&space, hnswlib_in, false,
                                                                std::max<size_t>(present, 1));
      for (size_t i = 0; i < index->cur_element_count; ++i) have.insert(index->getExternalLabel(i));
    } else {
      index = std::make_unique<hnswlib::HierarchicalNSW<float>>(
          &space, std::max<size_t>(present, 1), static_cast<size_t>(o.M),
          static_cast<size_t>(o.ef_construction), static_cast<size_t>(o.seed));
    }
    std::vector<uint64_t> todo;
    for (uint64_t r = 0; r < vectors.rows(); ++r)
      if (vectors.Row(r) && !have.count(r)) todo.push_back(r);
    if (index->max_elements_ < index->cur_element_count + todo.size())
      index->resizeIndex(index->cur_element_count + todo.size());
    // hnswlib's addPoint is thread-safe; the insertion order per thread is
    // fixed, but the graph depends on thread timing, so one thread gives a
    // reproducible index and more threads a faster build.
    int threads = std::max(1, o.threads);
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t)
      ts.emplace_back([&, t] {
        for (size_t i = t; i < todo.size(); i += threads)
          index->addPoint(vectors.Row(todo[i]), static_cast<hnswlib::labeltype>(todo[i]));
      });
    for (auto& th : ts) th.join();
    index->saveIndex(prefix + ".hnswlib.tmp");
    std::filesystem::rename(prefix + ".hnswlib.tmp", prefix + ".hnswlib");
  } catch (const std::exception& e) {
    return Status::IoError(fmt::format("{}: hnswlib: {}", prefix, e.what()));
  }
  // Export to the flat layout.
  const uint64_t n = index->cur_element_count;
  HnswHeader h{};
  std::memcpy(h.magic, kHnswMagic, 8);
  h.dim = static_cast<uint32_t>(dim);
  h.M = static_cast<uint32_t>(index->maxM_);
  h.maxM0 = static_cast<uint32_t>(index->maxM0_);
  h.entry = n ? static_cast<uint32_t>(index->enterpoint_node_) : 0;
  h.max_level = n ? index->maxlevel_ : 0;
  h.nodes = n;
  std::vector<uint32_t> labels(n);
  std::vector<uint8_t> levels((n + 7) / 8 * 8, 0);
  std::vector<uint64_t> upper_off(n, 0);
  std::vector<uint32_t> level0(n * (1 + h.maxM0), 0);
  std::vector<uint32_t> upper;
  for (uint64_t i = 0; i < n; ++i) {
    labels[i] = static_cast<uint32_t>(index->getExternalLabel(static_cast<hnswlib::tableint>(i)));
    int lv = index->element_levels_[i];
    levels[i] = static_cast<uint8_t>(std::min(lv, 255));
    auto* l0 = index->get_linklist0(static_cast<hnswlib::tableint>(i));
    uint32_t cnt = index->getListCount(l0);
    uint32_t* dst = level0.data() + i * (1 + h.maxM0);
    dst[0] = cnt;
    std::memcpy(dst + 1, l0 + 1, cnt * sizeof(uint32_t));
    upper_off[i] = upper.size();
    for (int l = 1; l <= lv; ++l) {
      auto* ll = index->get_linklist(static_cast<hnswlib::tableint>(i), l);
      uint32_t c = index->getListCount(ll);
      upper.push_back(c);
      for (uint32_t k = 0; k < h.M; ++k) upper.push_back(k < c ? ll[1 + k] : 0);
    }
  }
  h.upper_words = upper.size();
  std::string file(reinterpret_cast<const char*>(&h), sizeof h);
  file.append(reinterpret_cast<const char*>(labels.data()), labels.size() * 4);
  file.append(reinterpret_cast<const char*>(levels.data()), levels.size());
  file.append(reinterpret_cast<const char*>(upper_off.data()), upper_off.size() * 8);
  file.append(reinterpret_cast<const char*>(level0.data()), level0.size() * 4);
  file.append(reinterpret_cast<const char*>(upper.data()), upper.size() * 4);
  return WriteFileAtomic(prefix + ".hnsw", file);
}

Status HnswIndex::Open(const std::string& path, const VectorFile* vectors) {
  Status st = file_.Open(path);
  if (!st.ok()) return st;
  HnswHeader h;
  if (file_.size() < sizeof h) return Status::Corruption(path + ": truncated index");
  std::memcpy(&h, file_.data(), sizeof h);
  if (std::memcmp(h.magic, kHnswMagic, 8) != 0)
    return Status::Corruption(path + ": not a litgraph HNSW index");
  if (static_cast<int>(h.dim) != vectors->dim())
    return Status::Corruption(path + ": index and vectors differ in dimension");
  uint64_t n = h.nodes;
  size_t need =
      sizeof h + n * 4 + (n + 7) / 8 * 8 + n * 8 + n * (1 + h.maxM0) * 4 + h.upper_words * 4;
  if (file_.size() != need) return Status::Corruption(path + ": corrupt index");
  vectors_ = vectors;
  dim_ = static_cast<int>(h.dim);
  M_ = static_cast<int>(h.M);
  maxM0_ = static_cast<int>(h.maxM0);
  entry_ = h.entry;
  max_level_ = h.max_level;
  nodes_ = n;
  const uint8_t* p = file_.data() + sizeof h;
  labels_ = reinterpret_cast<const uint32_t*>(p);
  p += n * 4;
  levels_ = p;
  p += (n + 7) / 8 * 8;
  upper_off_ = reinterpret_cast<const uint64_t*>(p);
  p += n * 8;
  level0_ = reinterpret_cast<const uint32_t*>(p);
  p += n * (1 + h.maxM0) * 4;
  upper_ = reinterpret_cast<const uint32_t*>(p);
  return Status::Ok();
}

float HnswIndex::Score(const float* q, uint32_t node) const {
  const float* v = vectors_->RawRow(labels_[node]);
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
      if (levels_[cur] < level) break;
      const uint32_t* l = Upper(cur, level);
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
    const uint32_t* l = Level0(c);
    for (uint32_t i = 0; i < l[0]; ++i) {
      uint32_t nb = l[1 + i];
      if (nb >= nodes_ || !visited.insert(nb)) continue;
      float ns = Score(query, nb);
      if (results.size() < ef || ns > results.top().first) {
        candidates.emplace(ns, nb);
        results.emplace(ns, nb);
        if (results.size() > ef) results.pop();
      }
    }
  }
  while (!results.empty()) {
    out.push_back({labels_[results.top().second], results.top().first});
    results.pop();
  }
  std::sort(out.begin(), out.end(), [](const VectorHit& a, const VectorHit& b) {
    return a.score != b.score ? a.score > b.score : a.id < b.id;
  });
  if (out.size() > k) out.resize(k);
  return out;
}

std::vector<VectorHit> BruteForceSearch(const VectorFile& vectors, const float* query, size_t k) {
  std::vector<VectorHit> all;
  for (uint64_t r = 0; r < vectors.rows(); ++r)
    if (const float* v = vectors.Row(r))
      all.push_back({static_cast<uint32_t>(r), Dot(query, v, vectors.dim())});
  size_t m = std::min(k, all.size());
  std::partial_sort(all.begin(), all.begin() + m, all.end(),
                    [](const VectorHit& a, const VectorHit& b) {
                      return a.score != b.score ? a.score > b.score : a.id < b.id;
                    });
  all.resize(m);
  return all;
}

}  // namespace litgraph
