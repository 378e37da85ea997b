#include "litgraph/graph.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <new>

#include "litgraph/coding.h"

namespace litgraph {

namespace {

constexpr char kMagic[8] = {'L', 'G', 'A', 'D', 'J', 0, 0, 1};
constexpr uint64_t kRawBit = uint64_t{1} << 63;

struct Header {
  char magic[8];
  uint64_t num_nodes;
  uint64_t num_edges;
  uint64_t num_blocks;
  uint32_t nodes_per_block;
  uint32_t max_degree;
  uint32_t has_attrs;
  uint32_t reserved[5];
};
static_assert(sizeof(Header) == Adjacency::kHeaderSize);

}  // namespace

namespace {
constexpr char kRankedMagic[8] = {'L', 'G', 'R', 'N', 'K', 0, 0, 1};
struct RankedHeader {
  char magic[8];
  uint64_t lists;
  uint64_t entries;
  uint32_t length;
  uint32_t has_attrs;
  uint32_t reserved[8];
};
static_assert(sizeof(RankedHeader) == 64);
constexpr size_t kRankedDirEntry = 16;  // u32 node, u32 0, u64 offset
}  // namespace

Status RankedLists::Open(const std::string& path) {
  path_ = path;
  LITGRAPH_RETURN_IF_ERROR(file_.Open(path));
  RankedHeader h;
  if (file_.size() < sizeof h)
    return Status::Corruption(fmt::format("{}: truncated ranked lists", path));
  std::memcpy(&h, file_.data(), sizeof h);
  if (std::memcmp(h.magic, kRankedMagic, 8) != 0)
    return Status::Corruption(fmt::format("{}: not a litgraph ranked-lists file", path));
  if (h.lists > (file_.size() - sizeof h) / kRankedDirEntry)
    return Status::Corruption(fmt::format("{}: corrupt ranked-lists header", path));
  lists_ = h.lists;
  length_ = h.length;
  attrs_ = h.has_attrs != 0;
  dir_ = file_.data() + sizeof h;
  data_ = dir_ + lists_ * kRankedDirEntry + 8;
  if (data_ > file_.data() + file_.size())
    return Status::Corruption(fmt::format("{}: truncated ranked lists", path));
  data_size_ = static_cast<uint64_t>(file_.data() + file_.size() - data_);
  uint64_t recorded;
  std::memcpy(&recorded, data_ - 8, 8);
  if (recorded != data_size_)
    return Status::Corruption(fmt::format("{}: truncated ranked lists", path));
  return Status::Ok();
}

RankedLists::Cursor RankedLists::Find(uint32_t node) const {
  uint64_t lo = 0, hi = lists_;  // first directory entry with id >= node
  while (lo < hi) {
    uint64_t mid = (lo + hi) / 2;
    uint32_t id;
    std::memcpy(&id, dir_ + mid * kRankedDirEntry, 4);
    if (id < node)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == lists_) return {};
  uint32_t id;
  uint64_t begin, end;
  std::memcpy(&id, dir_ + lo * kRankedDirEntry, 4);
  if (id != node) return {};
  std::memcpy(&begin, dir_ + lo * kRankedDirEntry + 8, 8);
  const uint8_t* next = lo + 1 < lists_
                            ? dir_ + (lo + 1) * kRankedDirEntry + 8  // the next list's offset
                            : dir_ + lists_ * kRankedDirEntry;       // the data size
  std::memcpy(&end, next, 8);
  if (begin > end || end > data_size_) {
    Damaged("corrupt ranked-lists directory");
    return {};
  }
  return Cursor(this, data_ + begin, data_ + end);
}

void RankedLists::Damaged(const char* what) const {
  if (status_.ok()) status_ = Status::Corruption(fmt::format("{}: {}", path_, what));
}

bool RankedLists::Cursor::Next(uint32_t* id, uint32_t* attr) {
  if (p_ == end_) return false;
  uint64_t v = 0, a = 0;
  if (!GetVarint(&p_, end_, &v) || (owner_->attrs_ && !GetVarint(&p_, end_, &a))) {
    owner_->Damaged("corrupt ranked list");
    p_ = end_;
    return false;
  }
  *id = static_cast<uint32_t>(v);
  *attr = static_cast<uint32_t>(a);
  return true;
}

Status WriteRankedLists(const std::string& path, uint64_t num_nodes,
                        std::span<const uint64_t> offsets, std::span<const uint32_t> ids,
                        std::span<const uint32_t> attrs, uint32_t length) {
  RankedHeader h{};
  std::memcpy(h.magic, kRankedMagic, 8);
  h.length = length;
  h.has_attrs = attrs.empty() ? 0 : 1;
  std::string dir, data;
  for (uint64_t n = 0; n < num_nodes; ++n) {
    if (offsets[n] == offsets[n + 1]) continue;
    uint32_t node = static_cast<uint32_t>(n), zero = 0;
    uint64_t at = data.size();
    dir.append(reinterpret_cast<const char*>(&node), 4);
    dir.append(reinterpret_cast<const char*>(&zero), 4);
    dir.append(reinterpret_cast<const char*>(&at), 8);
    for (uint64_t k = offsets[n]; k < offsets[n + 1]; ++k) {
      PutVarint(ids[k], &data);
      if (!attrs.empty()) PutVarint(attrs[k], &data);
    }
    ++h.lists;
    h.entries += offsets[n + 1] - offsets[n];
  }
  uint64_t size = data.size();
  std::string file(reinterpret_cast<const char*>(&h), sizeof h);
  file += dir;
  file.append(reinterpret_cast<const char*>(&size), 8);
  file += data;
  return WriteFileAtomic(path, file);
}

Adjacency::~Adjacency() {
  if (dctx_) ZSTD_freeDCtx(static_cast<ZSTD_DCtx*>(dctx_));
}

Status Adjacency::Open(const std::string& path) {
  path_ = path;
  LITGRAPH_RETURN_IF_ERROR(file_.Open(path));
  if (file_.size() < kHeaderSize)
    return Status::Corruption(fmt::format("{}: truncated graph file", path));
  Header h;
  std::memcpy(&h, file_.data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, 8) != 0)
    return Status::Corruption(fmt::format("{}: not a litgraph adjacency file", path));
  num_nodes_ = h.num_nodes;
  num_edges_ = h.num_edges;
  num_blocks_ = h.num_blocks;
  nodes_per_block_ = h.nodes_per_block;
  max_degree_ = h.max_degree;
  has_attrs_ = h.has_attrs != 0;
  if (nodes_per_block_ == 0 || num_blocks_ >= file_.size() / sizeof(uint64_t))
    return Status::Corruption(fmt::format("{}: corrupt graph header", path));
  size_t index_bytes = (num_blocks_ + 1) * sizeof(uint64_t);
  if (kHeaderSize + index_bytes > file_.size() ||
      num_blocks_ != (num_nodes_ + nodes_per_block_ - 1) / nodes_per_block_)
    return Status::Corruption(fmt::format("{}: corrupt graph header", path));
  index_ = reinterpret_cast<const uint64_t*>(file_.data() + kHeaderSize);
  data_ = file_.data() + kHeaderSize + index_bytes;
  data_size_ = file_.size() - kHeaderSize - index_bytes;
  if ((index_[num_blocks_] & ~kRawBit) != data_size_)
    return Status::Corruption(fmt::format("{}: truncated graph file", path));
  return Status::Ok();
}

uint32_t* Adjacency::Generation::Allocate(size_t words) {
  while (chunk < chunks.size() && used + words > chunks[chunk].second) {
    ++chunk;
    used = 0;
  }
  if (chunk == chunks.size()) {
    // Chunks grow from 64K words up to 1M words (4 MiB); a longer list gets
    // a chunk of its own size.
    size_t size =
        std::max(words, std::min<size_t>(size_t{1} << 20, size_t{1} << (16 + chunks.size())));
    auto* p = static_cast<uint32_t*>(std::malloc(size * sizeof(uint32_t)));
    if (!p) throw std::bad_alloc();
    chunks.emplace_back(p, size);
    used = 0;
  }
  uint32_t* out = chunks[chunk].first + used;
  used += words;
  bytes += words * sizeof(uint32_t);
  return out;
}

void Adjacency::Generation::Clear() {
  lists.clear();
  chunk = used = bytes = 0;
}

Adjacency::Generation::~Generation() {
  for (auto& c : chunks) std::free(c.first);
}

Adjacency::List Adjacency::Keep(uint64_t node, const uint32_t* words, uint32_t deg) {
  size_t n = static_cast<size_t>(deg) * (has_attrs_ ? 2 : 1);
  if (gens_[cur_].bytes + n * sizeof(uint32_t) > cache_limit_ / 2 && !gens_[cur_].lists.empty()) {
    cur_ ^= 1;  // the older generation goes; the current one becomes the older
    gens_[cur_].Clear();
  }
  Generation& g = gens_[cur_];
  uint32_t* dst = g.Allocate(n);
  std::memcpy(dst, words, n * sizeof(uint32_t));
  g.lists[node] = {dst, deg};
  return MakeList(dst, deg);
}

// Skips n varints: a varint ends at each byte below 0x80, counted eight
// bytes at a time. False when the data ends first.
static bool SkipVarints(const uint8_t** p, const uint8_t* end, uint64_t n) {
  const uint8_t* q = *p;
  while (n > 0 && end - q >= 8) {
    uint64_t w;
    std::memcpy(&w, q, 8);
    uint64_t stops = ~w & 0x8080808080808080ull;
    uint64_t c = static_cast<uint64_t>(__builtin_popcountll(stops));
    if (c >= n) break;  // the n-th end is in this word: finish byte by byte
    n -= c;
    q += 8;
  }
  for (; n > 0; ++q) {
    if (q >= end) return false;
    if (*q < 0x80) --n;
  }
  *p = q;
  return true;
}

Adjacency::List Adjacency::Damaged(const char* what) {
  if (status_.ok()) status_ = Status::Corruption(fmt::format("{}: {}", path_, what));
  return {};
}

bool Adjacency::LoadBlock(uint64_t b) {
  uint64_t begin = index_[b] & ~kRawBit, end = index_[b + 1] & ~kRawBit;
  bool raw = index_[b] & kRawBit;
  block_ = UINT64_MAX;
  if (end < begin || end > data_size_) return false;
  if (raw) {
    block_data_ = data_ + begin;
    block_end_ = data_ + end;
  } else {
    unsigned long long n = ZSTD_getFrameContentSize(data_ + begin, end - begin);
    if (n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN) return false;
    scratch_.resize(n);
    if (!dctx_) dctx_ = ZSTD_createDCtx();
    size_t got = ZSTD_decompressDCtx(static_cast<ZSTD_DCtx*>(dctx_), scratch_.data(), n,
                                     data_ + begin, end - begin);
    if (ZSTD_isError(got) || got != n) return false;
    block_data_ = reinterpret_cast<const uint8_t*>(scratch_.data());
    block_end_ = block_data_ + n;
  }
  block_ = b;
  ++blocks_decoded_;
  return true;
}

Adjacency::List Adjacency::Neighbours(uint64_t node) {
  if (node >= num_nodes_) return {};
  if (auto it = gens_[cur_].lists.find(node); it != gens_[cur_].lists.end())
    return MakeList(it->second.words, it->second.deg);
  Generation& old = gens_[cur_ ^ 1];
  if (auto it = old.lists.find(node); it != old.lists.end()) {
    Cached c = it->second;
    old.lists.erase(it);
    // Copied out before Keep() may clear the older generation's arena.
    decoded_.assign(c.words, c.words + static_cast<size_t>(c.deg) * (has_attrs_ ? 2 : 1));
    return Keep(node, decoded_.data(), c.deg);
  }
  const uint64_t b = node / nodes_per_block_;
  if (b != block_ && !LoadBlock(b)) return Damaged("corrupt graph block");
  // Skip the lists of the block's earlier nodes, then decode this one.
  const uint8_t* p = block_data_;
  const uint8_t* pend = block_end_;
  const uint64_t per_edge = has_attrs_ ? 2 : 1;
  uint64_t deg, v;
  for (uint64_t i = b * nodes_per_block_; i < node; ++i)
    if (!GetVarint(&p, pend, &deg) || !SkipVarints(&p, pend, deg * per_edge))
      return Damaged("corrupt graph block contents");
  if (!GetVarint(&p, pend, &deg) || deg > static_cast<uint64_t>(pend - p) ||
      deg * per_edge > static_cast<uint64_t>(pend - p))
    return Damaged("corrupt graph block contents");
  decoded_.resize(deg * per_edge);
  uint64_t prev = 0;
  for (uint64_t k = 0; k < deg; ++k) {
    if (!GetVarint(&p, pend, &v)) return Damaged("corrupt graph block contents");
    prev = k == 0 ? v : prev + v;
    decoded_[k] = static_cast<uint32_t>(prev);
  }
  if (has_attrs_)
    for (uint64_t k = 0; k < deg; ++k) {
      if (!GetVarint(&p, pend, &v)) return Damaged("corrupt graph block contents");
      decoded_[deg + k] = static_cast<uint32_t>(v);
    }
  return Keep(node, decoded_.data(), static_cast<uint32_t>(deg));
}

Status WriteAdjacency(const std::string& path, uint64_t num_nodes,
                      std::span<const uint64_t> offsets, std::span<const uint32_t> ids,
                      std::span<const uint32_t> attrs, uint32_t nodes_per_block, int zstd_level) {
  uint64_t num_blocks = (num_nodes + nodes_per_block - 1) / nodes_per_block;
  Header h{};
  std::memcpy(h.magic, kMagic, 8);
  h.num_nodes = num_nodes;
  h.num_edges = ids.size();
  h.num_blocks = num_blocks;
  h.nodes_per_block = nodes_per_block;
  h.has_attrs = attrs.empty() ? 0 : 1;
  std::vector<uint64_t> index(num_blocks + 1, 0);
  std::string data, raw;
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, zstd_level);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
  std::string comp;
  for (uint64_t b = 0; b < num_blocks; ++b) {
    raw.clear();
    uint64_t first = b * nodes_per_block, last = std::min(num_nodes, first + nodes_per_block);
    for (uint64_t n = first; n < last; ++n) {
      uint64_t a = offsets[n], e = offsets[n + 1];
      h.max_degree = std::max<uint32_t>(h.max_degree, static_cast<uint32_t>(e - a));
      PutVarint(e - a, &raw);
      uint32_t prev = 0;
      for (uint64_t k = a; k < e; ++k) {
        PutVarint(k == a ? ids[k] : ids[k] - prev, &raw);
        prev = ids[k];
      }
      if (!attrs.empty())
        for (uint64_t k = a; k < e; ++k) PutVarint(attrs[k], &raw);
    }
    index[b] = data.size();
    comp.resize(ZSTD_compressBound(raw.size()));
    size_t n = ZSTD_compress2(cctx, comp.data(), comp.size(), raw.data(), raw.size());
    if (!ZSTD_isError(n) && n < raw.size()) {
      data.append(comp.data(), n);
    } else {
      index[b] |= kRawBit;
      data += raw;
    }
  }
  ZSTD_freeCCtx(cctx);
  index[num_blocks] = data.size();
  std::string file;
  file.reserve(sizeof h + index.size() * 8 + data.size());
  file.append(reinterpret_cast<const char*>(&h), sizeof h);
  file.append(reinterpret_cast<const char*>(index.data()), index.size() * 8);
  file += data;
  return WriteFileAtomic(path, file);
}

Result<std::unique_ptr<Graph>> Graph::Open(Store* store) {
  int64_t gen = store->Generation("graph");
  if (gen == 0)
    return Status::NotFound(
        fmt::format("{}: the store has no graph yet (run litgraph-ingest)", store->dir()));
  std::unique_ptr<Graph> g(new Graph());
  g->store_ = store;
  g->generation_ = gen;
  g->dir_ = store->ArtifactDir("graph", gen);
  Status st = g->citations_.Open(g->dir_ + "/paper.citations");
  if (!st.ok()) return st;
  st = g->years_.Open(g->dir_ + "/paper.years");
  if (!st.ok()) return st;
  g->num_papers_ = g->citations_.size() / sizeof(uint32_t);
  if (g->years_.size() != g->num_papers_ * sizeof(uint16_t))
    return Status::Corruption(
        fmt::format("{}: paper.years does not match paper.citations", g->dir_));
  return g;
}

const RankedLists& Graph::ranked(Rel r) {
  auto& slot = ranked_[static_cast<int>(r)];
  if (!slot) {
    slot = std::make_unique<RankedLists>();
    std::string path = dir_ + "/" + GetRelInfo(r).file + ".ranked";
    std::error_code ec;
    if (GetRelInfo(r).ranked && std::filesystem::exists(path, ec)) {
      Status st = slot->Open(path);
      if (!st.ok()) {
        slot = std::make_unique<RankedLists>();
        if (open_status_.ok()) open_status_ = st;
      }
    }
  }
  return *slot;
}

Adjacency& Graph::adj(Rel r) {
  auto& slot = adj_[static_cast<int>(r)];
  if (!slot) {
    slot = std::make_unique<Adjacency>();
    std::string path = dir_ + "/" + GetRelInfo(r).file + ".adj";
    std::error_code ec;
    Status st = std::filesystem::exists(path, ec) ? slot->Open(path) : Status::Ok();
    if (!st.ok() && open_status_.ok()) open_status_ = st;
    if (!st.ok() || !std::filesystem::exists(path, ec)) {
      slot = std::make_unique<Adjacency>();
      slot->OpenEmpty();
    }
  }
  return *slot;
}

Status Graph::status() const {
  if (!open_status_.ok()) return open_status_;
  for (int r = 0; r < kRelCount; ++r) {
    if (adj_[r] && !adj_[r]->status().ok()) return adj_[r]->status();
    if (ranked_[r] && !ranked_[r]->status().ok()) return ranked_[r]->status();
  }
  return Status::Ok();
}

uint32_t Graph::Citations(uint64_t paper) const {
  if (paper >= num_papers_) return 0;
  uint32_t v;
  std::memcpy(&v, citations_.data() + paper * 4, 4);
  return CitationCount(v);
}

bool Graph::CitationsFromRecord(uint64_t paper) const {
  if (paper >= num_papers_) return false;
  uint32_t v;
  std::memcpy(&v, citations_.data() + paper * 4, 4);
  return !(v & kCitationsFromStoreBit);
}

uint32_t Graph::InStoreCitations(uint64_t paper) const {
  return const_cast<Graph*>(this)->adj(Rel::kCitesIn).Degree(paper);
}

int Graph::Year(uint64_t paper) const {
  if (paper >= num_papers_) return 0;
  uint16_t v;
  std::memcpy(&v, years_.data() + paper * 2, 2);
  return v;
}

}  // namespace litgraph
