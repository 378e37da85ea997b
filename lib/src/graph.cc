#include "litgraph/graph.h"

#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <numbers>

#include "litgraph/coding.h"
#include "litgraph/log_count.h"

namespace litgraph {

namespace {

constexpr char kAdjMagic[8] = {'L', 'G', 'A', 'D', 'J', 0, 0, 2};
constexpr char kRankedMagic[8] = {'L', 'G', 'R', 'N', 'K', 0, 0, 2};
constexpr uint64_t kRawBit = uint64_t{1} << 63;

struct AdjHeader {
  char magic[8];
  uint64_t num_nodes;
  uint64_t num_edges;
  uint64_t num_blocks;
  uint32_t nodes_per_block;
  uint32_t max_degree;
  uint32_t has_attrs;
  uint32_t listed;  // 0: dense
  uint64_t index_offset;
  uint64_t nodes_offset;
};
static_assert(sizeof(AdjHeader) == Adjacency::kHeaderSize);

// Whether zstd is worth trying on a block, which is kept compressed only
// when zstd halves it: the order-0 entropy of its bytes (the size Huffman
// coding of its literals comes to, matches aside) is at most 60% of its
// size. Lists of ids, delta-coded, are near 7 bits a byte and rarely halve;
// trying them cost a zstd call per block (4-7 us, ~5 s of a 1M build) for
// 43 blocks kept compressed out of 637k. Lists whose attributes repeat
// (COOCCUR counts of 1) pass (bench/results/2026-11-28-block-gate). A pure
// function of the bytes, so a patched file still equals a full build's.
bool MayHalve(std::string_view bytes) {
  uint32_t count[256] = {};
  for (unsigned char c : bytes) ++count[c];
  double sum = 0;  // sum of c ln c over the byte values
  for (uint32_t c : count)
    if (c > 1) sum += static_cast<double>(c) * LogOfCount(c);
  const auto n = static_cast<double>(bytes.size());
  const double entropy_bytes = (n * LogOfCount(bytes.size()) - sum) / (8 * std::numbers::ln2);
  return entropy_bytes <= 0.6 * n;
}

struct RankedHeader {
  char magic[8];
  uint64_t lists;
  uint64_t entries;
  uint32_t length;
  uint32_t has_attrs;
  uint64_t dir_offset;
  uint64_t reserved[3];
};
static_assert(sizeof(RankedHeader) == 64);
constexpr size_t kRankedDirEntry = 16;  // u32 node, u32 0, u64 offset

template <typename T>
bool ReadValue(const CheckedFile& f, uint64_t offset, T* out) {
  const uint8_t* p = f.Read(offset, sizeof(T));
  if (!p) return false;
  std::memcpy(out, p, sizeof(T));
  return true;
}

// Skips n varints: a varint ends at each byte below 0x80, counted eight
// bytes at a time. False when the data ends first.
bool SkipVarints(const uint8_t** p, const uint8_t* end, uint64_t n) {
  const uint8_t* q = *p;
  while (n > 0 && end - q >= 8) {
    uint64_t w;
    std::memcpy(&w, q, 8);
    // The ends' high bits moved down to one 0/1 per byte, summed by the
    // multiply into the top byte: without -mpopcnt, __builtin_popcountll is
    // a call into libgcc (4.4% of a 60-seed rwr-rank at 10M works).
    const uint64_t stops = (~w & 0x8080808080808080ull) >> 7;
    const uint64_t c = (stops * 0x0101010101010101ull) >> 56;
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

}  // namespace

// ---- Adjacency --------------------------------------------------------------

Adjacency::~Adjacency() {
  if (dctx_) ZSTD_freeDCtx(static_cast<ZSTD_DCtx*>(dctx_));
}

std::string AdjDeltaName(const std::string& adj_name) {
  constexpr std::string_view kAdj = ".adj";
  std::string_view stem = adj_name;
  if (stem.ends_with(kAdj)) stem.remove_suffix(kAdj.size());
  return std::string(stem) + kAdjDeltaSuffix;
}

Status Adjacency::Open(const GenerationView& generation, const std::string& name) {
  auto id = generation.Identity(name);
  if (!id.ok()) return id.status();
  LITGRAPH_RETURN_IF_ERROR(Open(generation.Path(name), *id));
  const std::string delta = AdjDeltaName(name);
  if (!generation.Has(delta)) return Status::Ok();
  auto delta_id = generation.Identity(delta);
  if (!delta_id.ok()) return delta_id.status();
  auto d = std::make_unique<Adjacency>();
  LITGRAPH_RETURN_IF_ERROR(d->OpenFile(generation.Path(delta), *delta_id));
  if (!d->sparse() || d->has_attrs_ != has_attrs_ || sparse())
    return Status::Corruption(
        fmt::format("{}: not the delta of {}", generation.Path(delta), generation.Path(name)));
  view_nodes_ = std::max(num_nodes_, d->num_nodes_);
  num_edges_ = d->num_edges_;  // the relation's totals
  max_degree_ = d->max_degree_;
  delta_ = std::move(d);
  return Status::Ok();
}

Status Adjacency::Open(const std::string& path, const FileIdentity& id) {
  delta_.reset();
  return OpenFile(path, id);
}

Status Adjacency::OpenFile(const std::string& path, const FileIdentity& id) {
  LITGRAPH_RETURN_IF_ERROR(file_.Open(path, id));
  auto bad = [&](const char* what) {
    return Status::Corruption(fmt::format("{}: {}", path, what));
  };
  AdjHeader h;
  if (!ReadValue(file_, 0, &h)) return bad("truncated graph file");
  if (std::memcmp(h.magic, kAdjMagic, 8) != 0) return bad("not a litgraph adjacency file");
  if (h.nodes_per_block == 0 || h.num_blocks > file_.size() / 8 || h.index_offset > file_.size() ||
      (h.num_blocks + 1) * 8 > file_.size() - h.index_offset)
    return bad("corrupt graph header");
  const uint64_t listed = h.listed ? h.listed : h.num_nodes;
  if (h.num_blocks != (listed + h.nodes_per_block - 1) / h.nodes_per_block ||
      (h.listed &&
       (h.nodes_offset > file_.size() || h.listed * uint64_t{4} > file_.size() - h.nodes_offset)))
    return bad("corrupt graph header");
  num_nodes_ = h.num_nodes;
  num_edges_ = h.num_edges;
  num_blocks_ = h.num_blocks;
  nodes_per_block_ = h.nodes_per_block;
  max_degree_ = h.max_degree;
  has_attrs_ = h.has_attrs != 0;
  listed_ = h.listed;
  index_off_ = h.index_offset;
  nodes_off_ = h.nodes_offset;
  view_nodes_ = num_nodes_;
  return Status::Ok();
}

// A damaged page first: what decoding then found wrong is its consequence.
Status Adjacency::status() const {
  LITGRAPH_RETURN_IF_ERROR(file_.status());
  LITGRAPH_RETURN_IF_ERROR(status_);
  return delta_ ? delta_->status() : Status::Ok();
}

uint32_t Adjacency::ListedNode(uint64_t i) {
  uint32_t id = 0;
  if (i >= listed_ || !ReadValue(file_, nodes_off_ + i * 4, &id)) Damaged("corrupt node list");
  return id;
}

uint64_t Adjacency::LowerBound(uint64_t node, uint64_t from) const {
  auto at = [&](uint64_t i) {
    uint32_t id = 0;
    return ReadValue(file_, nodes_off_ + i * 4, &id) ? uint64_t{id} : ~uint64_t{0};
  };
  if (from > listed_ || (from > 0 && at(from - 1) >= node)) from = 0;  // not ascending
  // Gallop from `from`, then search the bracket.
  uint64_t lo = from, step = 1;
  uint64_t hi = lo;
  while (hi < listed_ && at(hi) < node) {
    lo = hi + 1;
    hi = std::min(listed_, lo + step);
    step *= 2;
  }
  while (lo < hi) {  // the answer is in [lo, hi]
    const uint64_t mid = lo + (hi - lo) / 2;
    if (at(mid) < node)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

int64_t Adjacency::DeltaPosition(uint64_t node, uint64_t* hint) const {
  if (!delta_ || node >= delta_->num_nodes_) return -1;
  const uint64_t at = delta_->LowerBound(node, hint ? *hint : 0);
  if (hint) *hint = at;
  uint32_t id = 0;
  const bool listed = at < delta_->listed_ &&
                      ReadValue(delta_->file_, delta_->nodes_off_ + at * 4, &id) && id == node;
  return listed ? static_cast<int64_t>(at) : -1;
}

Adjacency::List Adjacency::ListAt(uint64_t position) {
  uint32_t deg;
  if (!Decode(position, &deg)) return {};
  return MakeList(decoded_.data(), deg);
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
  if (n > 0) std::memcpy(dst, words, n * sizeof(uint32_t));
  g.lists[node] = {dst, deg};
  return MakeList(dst, deg);
}

Adjacency::List Adjacency::Damaged(const char* what) {
  if (status_.ok()) status_ = Status::Corruption(fmt::format("{}: {}", file_.path(), what));
  return {};
}

int64_t Adjacency::Position(uint64_t node) const {
  if (node >= num_nodes_) return -1;
  if (listed_ == 0) return static_cast<int64_t>(node);
  uint64_t lo = 0, hi = listed_;  // first listed node >= node
  while (lo < hi) {
    uint64_t mid = (lo + hi) / 2;
    uint32_t id;
    if (!ReadValue(file_, nodes_off_ + mid * 4, &id)) return -1;
    if (id < node)
      lo = mid + 1;
    else
      hi = mid;
  }
  uint32_t id;
  if (lo == listed_ || !ReadValue(file_, nodes_off_ + lo * 4, &id) || id != node) return -1;
  return static_cast<int64_t>(lo);
}

bool Adjacency::LoadBlock(uint64_t b) {
  block_ = UINT64_MAX;
  uint64_t at[2];
  if (!ReadValue(file_, index_off_ + b * 8, &at)) return false;
  const uint64_t begin = at[0] & ~kRawBit, end = at[1] & ~kRawBit;
  const bool raw = at[0] & kRawBit;
  if (end < begin || kHeaderSize + end > index_off_) return false;
  const uint8_t* data = file_.Read(kHeaderSize + begin, end - begin);
  if (!data) return false;
  if (raw) {
    block_data_ = data;
    block_end_ = data + (end - begin);
  } else {
    unsigned long long n = ZSTD_getFrameContentSize(data, end - begin);
    if (n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN || n > (64u << 20))
      return false;
    scratch_.resize(n);
    if (!dctx_) dctx_ = ZSTD_createDCtx();
    size_t got =
        ZSTD_decompressDCtx(static_cast<ZSTD_DCtx*>(dctx_), scratch_.data(), n, data, end - begin);
    if (ZSTD_isError(got) || got != n) return false;
    block_data_ = reinterpret_cast<const uint8_t*>(scratch_.data());
    block_end_ = block_data_ + n;
  }
  block_ = b;
  ++blocks_decoded_;
  return true;
}

bool Adjacency::StoredBlock(uint64_t b, std::string_view* bytes, bool* raw) {
  uint64_t at[2];
  if (b >= num_blocks_ || !ReadValue(file_, index_off_ + b * 8, &at)) return false;
  const uint64_t begin = at[0] & ~kRawBit, end = at[1] & ~kRawBit;
  if (end < begin || kHeaderSize + end > index_off_) {
    Damaged("corrupt graph block index");
    return false;
  }
  const uint8_t* data = file_.Read(kHeaderSize + begin, end - begin);
  if (!data) return false;
  *bytes = {reinterpret_cast<const char*>(data), end - begin};
  *raw = (at[0] & kRawBit) != 0;
  return true;
}

Adjacency::List Adjacency::Neighbours(uint64_t node) {
  if (node >= view_nodes_) return {};
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
  if (const int64_t d = DeltaPosition(node, nullptr); d >= 0) {
    const List l = delta_->ListAt(static_cast<uint64_t>(d));  // (ids, then attributes)
    return Keep(node, l.ids.data(), static_cast<uint32_t>(l.size()));
  }
  const int64_t position = Position(node);
  uint32_t deg;
  if (position < 0 || !Decode(static_cast<uint64_t>(position), &deg)) return {};
  return Keep(node, decoded_.data(), deg);
}

Adjacency::List Adjacency::Once(uint64_t node) {
  if (node >= view_nodes_) return {};
  for (const Generation& g : gens_)
    if (auto it = g.lists.find(node); it != g.lists.end())
      return MakeList(it->second.words, it->second.deg);
  if (const int64_t d = DeltaPosition(node, nullptr); d >= 0)
    return delta_->ListAt(static_cast<uint64_t>(d));
  const int64_t position = Position(node);
  uint32_t deg;
  if (position < 0 || !Decode(static_cast<uint64_t>(position), &deg)) return {};
  return MakeList(decoded_.data(), deg);
}

// Decodes the list at `position` from its block into decoded_.
bool Adjacency::Decode(uint64_t position, uint32_t* out_deg) {
  auto damaged = [&](const char* what) {
    Damaged(what);
    return false;
  };
  const uint64_t b = position / nodes_per_block_;
  if (b != block_ && !LoadBlock(b)) return damaged("corrupt graph block");
  // Skip the lists of the block's earlier nodes, then decode this one.
  const uint8_t* p = block_data_;
  const uint8_t* pend = block_end_;
  const uint64_t per_edge = has_attrs_ ? 2 : 1;
  uint64_t deg, v;
  for (uint64_t i = b * nodes_per_block_; i < position; ++i)
    if (!GetVarint(&p, pend, &deg) || !SkipVarints(&p, pend, deg * per_edge))
      return damaged("corrupt graph block contents");
  if (!GetVarint(&p, pend, &deg) || deg > static_cast<uint64_t>(pend - p) ||
      deg * per_edge > static_cast<uint64_t>(pend - p))
    return damaged("corrupt graph block contents");
  decoded_.resize(deg * per_edge);
  uint64_t prev = 0;
  for (uint64_t k = 0; k < deg; ++k) {
    if (!GetVarint(&p, pend, &v)) return damaged("corrupt graph block contents");
    prev = k == 0 ? v : prev + v;
    decoded_[k] = static_cast<uint32_t>(prev);
  }
  if (has_attrs_)
    for (uint64_t k = 0; k < deg; ++k) {
      if (!GetVarint(&p, pend, &v)) return damaged("corrupt graph block contents");
      decoded_[deg + k] = static_cast<uint32_t>(v);
    }
  *out_deg = static_cast<uint32_t>(deg);
  return true;
}

// ---- AdjacencyScan ----------------------------------------------------------

bool AdjacencyScan::Load(uint64_t block) {
  block_ = block;
  start_.clear();
  words_.clear();
  if (a_.listed_ != 0 || !a_.LoadBlock(block)) {
    a_.Damaged("corrupt graph block");
    return false;
  }
  const uint8_t* p = a_.block_data_;
  const uint8_t* end = a_.block_end_;
  const uint64_t first = block * a_.nodes_per_block_;
  const uint64_t last = std::min<uint64_t>(first + a_.nodes_per_block_, a_.num_nodes_);
  for (uint64_t n = first; n < last; ++n) {
    start_.push_back(words_.size());
    uint64_t deg, v, prev = 0;
    if (!GetVarint(&p, end, &deg) || deg > static_cast<uint64_t>(end - p)) {
      a_.Damaged("corrupt graph block contents");
      return false;
    }
    for (uint64_t k = 0; k < deg; ++k) {
      if (!GetVarint(&p, end, &v)) {
        a_.Damaged("corrupt graph block contents");
        return false;
      }
      prev = k == 0 ? v : prev + v;
      words_.push_back(static_cast<uint32_t>(prev));
    }
    if (a_.has_attrs_)
      for (uint64_t k = 0; k < deg; ++k) {
        if (!GetVarint(&p, end, &v)) {
          a_.Damaged("corrupt graph block contents");
          return false;
        }
        words_.push_back(static_cast<uint32_t>(v));
      }
  }
  start_.push_back(words_.size());
  return true;
}

Adjacency::List AdjacencyScan::Get(uint64_t node) {
  if (node >= a_.view_nodes_) return {};
  if (const int64_t d = a_.DeltaPosition(node, &delta_at_); d >= 0) {  // copied: until next Get
    const Adjacency::List l = a_.delta_->ListAt(static_cast<uint64_t>(d));
    delta_words_.assign(l.ids.begin(), l.ids.end());
    delta_words_.insert(delta_words_.end(), l.attrs.begin(), l.attrs.end());
    return a_.MakeList(delta_words_.data(), static_cast<uint32_t>(l.size()));
  }
  if (node >= a_.num_nodes_) return {};
  const uint64_t b = node / a_.nodes_per_block_;
  if (b != block_ && !Load(b)) return {};
  const uint64_t i = node - b * a_.nodes_per_block_;
  if (i + 1 >= start_.size()) return {};
  const uint64_t words = start_[i + 1] - start_[i];
  const uint32_t deg = static_cast<uint32_t>(a_.has_attrs_ ? words / 2 : words);
  return a_.MakeList(words_.data() + start_[i], deg);
}

// ---- AdjacencyWriter ------------------------------------------------------

AdjacencyWriter::~AdjacencyWriter() {
  if (cctx_) ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(cctx_));
}

Status AdjacencyWriter::Open(const std::string& path, const FileIdentity& id, uint64_t node_space,
                             bool has_attrs, bool sparse, uint32_t nodes_per_block,
                             int zstd_level) {
  node_space_ = node_space;
  attrs_ = has_attrs;
  sparse_ = sparse;
  per_block_ = std::max<uint32_t>(1, nodes_per_block);
  level_ = zstd_level;
  auto* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level_);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0);  // the checked file hashes every page
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
  cctx_ = cctx;
  LITGRAPH_RETURN_IF_ERROR(out_.Open(path, id));
  return out_.Append(std::string(Adjacency::kHeaderSize, '\0'));  // filled in by Finish
}

Status AdjacencyWriter::AddList(std::span<const uint32_t> ids, std::span<const uint32_t> attrs) {
  max_degree_ = std::max<uint32_t>(max_degree_, static_cast<uint32_t>(ids.size()));
  edges_ += ids.size();
  PutVarint(ids.size(), &raw_);
  uint32_t prev = 0;
  for (size_t k = 0; k < ids.size(); ++k) {
    PutVarint(k == 0 ? ids[k] : ids[k] - prev, &raw_);
    prev = ids[k];
  }
  if (attrs_)
    for (size_t k = 0; k < ids.size(); ++k) PutVarint(k < attrs.size() ? attrs[k] : 0, &raw_);
  if (++in_block_ == per_block_) return FlushBlock();
  return Status::Ok();
}

Status AdjacencyWriter::FlushBlock() {
  if (in_block_ == 0) return Status::Ok();
  uint64_t at = out_.size() - Adjacency::kHeaderSize;
  size_t n = 0;
  bool halved = false;
  if (MayHalve(raw_)) {
    comp_.resize(ZSTD_compressBound(raw_.size()));
    n = ZSTD_compress2(static_cast<ZSTD_CCtx*>(cctx_), comp_.data(), comp_.size(), raw_.data(),
                       raw_.size());
    halved = !ZSTD_isError(n) && n <= raw_.size() / 2;
  }
  Status st;
  // A block is kept compressed only when zstd halves it. A zstd frame costs
  // 4-6 us to decode even when it holds 400 bytes, and ~2 us a KiB more,
  // against a raw block used in place; the subgraph of rwr-rank and
  // tri-search reads thousands of blocks. Keeping every block that zstd
  // shrank made the 1M store's lists 11% smaller, and rwr-rank's subgraph
  // took 46-57 ms p50 instead of 27-29 (bench/results/2026-11-27-raw-blocks).
  if (halved) {
    st = out_.Append({comp_.data(), n});
  } else {
    at |= kRawBit;
    st = out_.Append(raw_);
  }
  index_.push_back(at);
  raw_.clear();
  in_block_ = 0;
  return st;
}

Status AdjacencyWriter::Add(uint64_t node, std::span<const uint32_t> ids,
                            std::span<const uint32_t> attrs) {
  if (node < next_ || node >= node_space_)
    return Status::Internal(fmt::format("adjacency list of node {} out of order", node));
  if (sparse_) {
    nodes_.push_back(static_cast<uint32_t>(node));
  } else {
    for (; next_ < node; ++next_) LITGRAPH_RETURN_IF_ERROR(AddList({}, {}));
  }
  next_ = node + 1;
  return AddList(ids, attrs);
}

Status AdjacencyWriter::AddStoredBlock(uint64_t node, std::string_view bytes, bool raw) {
  if (!sparse_)
    for (; next_ < node; ++next_) LITGRAPH_RETURN_IF_ERROR(AddList({}, {}));  // empty lists before
  if (sparse_ || in_block_ != 0 || node != next_ || node % per_block_ != 0 || node >= node_space_)
    return Status::Internal(fmt::format("stored block at node {} out of place", node));
  uint64_t at = out_.size() - Adjacency::kHeaderSize;
  if (raw) at |= kRawBit;
  index_.push_back(at);
  next_ = std::min<uint64_t>(node + per_block_, node_space_);
  return out_.Append(bytes);
}

Status AdjacencyWriter::Finish() {
  if (!sparse_)
    for (; next_ < node_space_; ++next_) LITGRAPH_RETURN_IF_ERROR(AddList({}, {}));
  LITGRAPH_RETURN_IF_ERROR(FlushBlock());
  AdjHeader h{};
  std::memcpy(h.magic, kAdjMagic, 8);
  h.num_nodes = node_space_;
  h.num_edges = edges_;
  h.num_blocks = index_.size();
  h.nodes_per_block = per_block_;
  h.max_degree = max_degree_;
  h.has_attrs = attrs_ ? 1 : 0;
  h.listed = sparse_ ? static_cast<uint32_t>(nodes_.size()) : 0;
  index_.push_back(out_.size() - Adjacency::kHeaderSize);  // the data size
  h.index_offset = out_.size();
  LITGRAPH_RETURN_IF_ERROR(
      out_.Append({reinterpret_cast<const char*>(index_.data()), index_.size() * 8}));
  h.nodes_offset = out_.size();
  if (sparse_) {
    if (nodes_.empty()) h.listed = 0, h.num_nodes = 0, h.num_blocks = 0;
    LITGRAPH_RETURN_IF_ERROR(
        out_.Append({reinterpret_cast<const char*>(nodes_.data()), nodes_.size() * 4}));
  }
  LITGRAPH_RETURN_IF_ERROR(out_.PatchHeader(0, {reinterpret_cast<const char*>(&h), sizeof h}));
  return out_.Finish();
}

Status WriteAdjacency(const std::string& path, const FileIdentity& id, uint64_t num_nodes,
                      std::span<const uint64_t> offsets, std::span<const uint32_t> ids,
                      std::span<const uint32_t> attrs, uint32_t nodes_per_block, int zstd_level) {
  AdjacencyWriter w;
  LITGRAPH_RETURN_IF_ERROR(
      w.Open(path, id, num_nodes, !attrs.empty(), false, nodes_per_block, zstd_level));
  for (uint64_t n = 0; n < num_nodes; ++n) {
    uint64_t a = offsets[n], e = offsets[n + 1];
    if (a == e) continue;
    LITGRAPH_RETURN_IF_ERROR(
        w.Add(n, ids.subspan(a, e - a), attrs.empty() ? attrs : attrs.subspan(a, e - a)));
  }
  return w.Finish();
}

// ---- Patching -----------------------------------------------------------------

void ListPatch::Add(uint32_t node, std::span<const uint32_t> list_ids,
                    std::span<const uint32_t> list_attrs) {
  nodes.push_back(node);
  ids.insert(ids.end(), list_ids.begin(), list_ids.end());
  attrs.insert(attrs.end(), list_attrs.begin(), list_attrs.end());
  offsets.push_back(ids.size());
}

int64_t ListPatch::Find(uint32_t node) const {
  auto it = std::lower_bound(nodes.begin(), nodes.end(), node);
  return it != nodes.end() && *it == node ? it - nodes.begin() : -1;
}

namespace {

// The lists of `patch` and those of old's delta it does not replace, by node.
ListPatch WithDeltaLists(Adjacency& old, const ListPatch& patch) {
  ListPatch out;
  Adjacency* delta = old.delta();
  AdjacencyScan scan(old);  // (a delta node's list is its delta list)
  size_t k = 0;
  for (uint64_t i = 0; delta && i < delta->listed(); ++i) {
    const uint32_t n = delta->ListedNode(i);
    for (; k < patch.size() && patch.nodes[k] < n; ++k)
      out.Add(patch.nodes[k], patch.Ids(k), patch.Attrs(k));
    if (k < patch.size() && patch.nodes[k] == n) continue;  // replaced
    const Adjacency::List l = scan.Get(n);
    out.Add(n, l.ids, l.attrs);
  }
  for (; k < patch.size(); ++k) out.Add(patch.nodes[k], patch.Ids(k), patch.Attrs(k));
  return out;
}

}  // namespace

Status PatchAdjacency(Adjacency& old, const ListPatch& patch_in, uint64_t node_space,
                      const std::string& path, const FileIdentity& id, uint32_t nodes_per_block,
                      int zstd_level) {
  // A delta is folded in: its lists join the patch, so no block of the base
  // holding one of its nodes is copied.
  ListPatch folded;
  if (old.delta()) folded = WithDeltaLists(old, patch_in);
  const ListPatch& patch = old.delta() ? folded : patch_in;
  const uint64_t old_n = old.base_nodes(), view_n = old.num_nodes(), per = nodes_per_block;
  if (old.sparse() || (old_n > 0 && old.nodes_per_block() != per) || node_space < view_n ||
      (!patch.empty() && patch.nodes.back() >= node_space))
    return Status::Internal(fmt::format("{}: cannot patch this adjacency file", path));
  AdjacencyWriter w;
  LITGRAPH_RETURN_IF_ERROR(
      w.Open(path, id, node_space, old.has_attrs(), false, nodes_per_block, zstd_level));
  uint64_t edges = old.num_edges();
  uint32_t new_max = 0;
  bool lost_max = false;  // a replaced list had the old maximum degree
  AdjacencyScan scan(old);
  size_t k = 0;
  for (uint64_t first = 0; first < node_space; first += per) {
    const uint64_t last = std::min(first + per, node_space);
    const bool patched = k < patch.size() && patch.nodes[k] < last;
    const uint64_t old_count = first < old_n ? std::min(per, old_n - first) : 0;
    if (!patched && old_count == last - first) {
      std::string_view bytes;
      bool raw = false;
      if (!old.StoredBlock(first / per, &bytes, &raw)) {
        LITGRAPH_RETURN_IF_ERROR(old.status());
        return Status::Corruption(fmt::format("{}: unreadable block", path));
      }
      LITGRAPH_RETURN_IF_ERROR(w.AddStoredBlock(first, bytes, raw));
      continue;
    }
    for (uint64_t n = first; n < last; ++n) {
      if (k < patch.size() && patch.nodes[k] == n) {
        if (n < view_n) {
          const uint32_t before = static_cast<uint32_t>(scan.Get(n).size());
          edges -= before;
          if (before == old.max_degree()) lost_max = true;
        }
        auto ids = patch.Ids(k);
        edges += ids.size();
        new_max = std::max<uint32_t>(new_max, static_cast<uint32_t>(ids.size()));
        LITGRAPH_RETURN_IF_ERROR(w.Add(n, ids, patch.Attrs(k)));
        ++k;
      } else if (n < old_n) {
        Adjacency::List l = scan.Get(n);
        if (!l.ids.empty()) LITGRAPH_RETURN_IF_ERROR(w.Add(n, l.ids, l.attrs));
      }
    }
  }
  uint32_t max_degree = std::max(old.max_degree(), new_max);
  if (lost_max && new_max < old.max_degree()) {  // the old maximum may be gone: look
    max_degree = new_max;
    for (uint64_t n = 0; n < old_n; ++n)
      if (patch.Find(static_cast<uint32_t>(n)) < 0)
        max_degree = std::max(max_degree, old.Degree(n));
  }
  LITGRAPH_RETURN_IF_ERROR(old.status());
  w.SetTotals(edges, max_degree);
  return w.Finish();
}

Status WriteAdjacencyDelta(Adjacency& old, const ListPatch& patch, uint64_t node_space,
                           const std::string& path, const FileIdentity& id,
                           uint32_t nodes_per_block, int zstd_level) {
  const uint64_t view_n = old.num_nodes();
  if (old.sparse() || node_space < view_n || (!patch.empty() && patch.nodes.back() >= node_space))
    return Status::Internal(fmt::format("{}: cannot write this adjacency delta", path));
  AdjacencyWriter w;
  LITGRAPH_RETURN_IF_ERROR(
      w.Open(path, id, node_space, old.has_attrs(), true, nodes_per_block, zstd_level));
  // The old delta's lists and the patch's, merged by node as they are
  // written (the patch's where both have one), with the relation's totals:
  // the old ones, less the lists replaced, plus the new ones. The maximum
  // degree is looked for among the base's other lists when a replaced list
  // had it.
  uint64_t edges = old.num_edges();
  uint32_t new_max = 0;
  bool lost_max = false;
  uint64_t written = 0;
  AdjacencyScan scan(old);
  auto add = [&](uint32_t n, std::span<const uint32_t> ids, std::span<const uint32_t> attrs,
                 uint32_t before) -> Status {
    edges += ids.size();
    edges -= before;
    if (before == old.max_degree() && before > 0) lost_max = true;
    new_max = std::max<uint32_t>(new_max, static_cast<uint32_t>(ids.size()));
    ++written;
    return w.Add(n, ids, attrs);
  };
  Adjacency* delta = old.delta();
  const uint64_t listed = delta ? delta->listed() : 0;
  uint64_t i = 0;
  size_t k = 0;
  while (i < listed || k < patch.size()) {
    const uint32_t d = i < listed ? delta->ListedNode(i) : ~uint32_t{0};
    if (k < patch.size() && patch.nodes[k] <= d) {
      const uint32_t n = patch.nodes[k];
      const auto before = static_cast<uint32_t>(n < view_n ? scan.Get(n).size() : 0);
      LITGRAPH_RETURN_IF_ERROR(add(n, patch.Ids(k), patch.Attrs(k), before));
      if (n == d) ++i;  // replaced
      ++k;
    } else {  // the old delta's list stays
      const Adjacency::List l = scan.Get(d);
      LITGRAPH_RETURN_IF_ERROR(add(d, l.ids, l.attrs, static_cast<uint32_t>(l.size())));
      ++i;
    }
  }
  // A delta always lists a node (a sparse file of none would read as
  // dense): with no list to replace, the last node of a grown space, whose
  // list is empty (it is new).
  if (written == 0) {
    if (node_space == 0 || node_space - 1 < view_n)
      return Status::Internal(fmt::format("{}: an empty adjacency delta", path));
    LITGRAPH_RETURN_IF_ERROR(add(static_cast<uint32_t>(node_space - 1), {}, {}, 0));
  }
  uint32_t max_degree = std::max(old.max_degree(), new_max);
  if (lost_max && new_max < old.max_degree()) {
    max_degree = new_max;
    for (uint64_t n = 0; n < old.base_nodes(); ++n)
      if (patch.Find(static_cast<uint32_t>(n)) < 0)  // (a delta list of the view counts)
        max_degree = std::max(max_degree, static_cast<uint32_t>(scan.Get(n).size()));
  }
  LITGRAPH_RETURN_IF_ERROR(old.status());
  w.SetTotals(edges, max_degree);
  return w.Finish();
}

// ---- RankedLists ------------------------------------------------------------

Status RankedLists::Open(const GenerationView& generation, const std::string& name) {
  auto id = generation.Identity(name);
  if (!id.ok()) return id.status();
  return Open(generation.Path(name), *id);
}

Status RankedLists::Open(const std::string& path, const FileIdentity& id) {
  LITGRAPH_RETURN_IF_ERROR(file_.Open(path, id));
  auto bad = [&](const char* what) {
    return Status::Corruption(fmt::format("{}: {}", path, what));
  };
  RankedHeader h;
  if (!ReadValue(file_, 0, &h)) return bad("truncated ranked lists");
  if (std::memcmp(h.magic, kRankedMagic, 8) != 0) return bad("not a litgraph ranked-lists file");
  if (h.dir_offset < sizeof h || h.dir_offset > file_.size() ||
      h.lists > (file_.size() - h.dir_offset) / kRankedDirEntry ||
      h.dir_offset + h.lists * kRankedDirEntry + 8 != file_.size())
    return bad("corrupt ranked-lists header");
  lists_ = h.lists;
  length_ = h.length;
  attrs_ = h.has_attrs != 0;
  dir_off_ = h.dir_offset;
  data_size_ = h.dir_offset - sizeof h;
  return Status::Ok();
}

// A damaged page first: what decoding then found wrong is its consequence.
Status RankedLists::status() const {
  LITGRAPH_RETURN_IF_ERROR(file_.status());
  return status_;
}

void RankedLists::Damaged(const char* what) const {
  if (status_.ok()) status_ = Status::Corruption(fmt::format("{}: {}", file_.path(), what));
}

int64_t RankedLists::Entry(uint32_t node) const {
  uint64_t lo = 0, hi = lists_;  // first directory entry with id >= node
  while (lo < hi) {
    uint64_t mid = (lo + hi) / 2;
    uint32_t id;
    if (!ReadValue(file_, dir_off_ + mid * kRankedDirEntry, &id)) return -1;
    if (id < node)
      lo = mid + 1;
    else
      hi = mid;
  }
  uint32_t id;
  if (lo == lists_ || !ReadValue(file_, dir_off_ + lo * kRankedDirEntry, &id) || id != node)
    return -1;
  return static_cast<int64_t>(lo);
}

bool RankedLists::Lists(uint32_t node) const { return lists_ > 0 && Entry(node) >= 0; }

RankedLists::Cursor RankedLists::Find(uint32_t node) const {
  if (lists_ == 0) return {};
  int64_t e = Entry(node);
  if (e < 0) return {};
  return At(static_cast<uint64_t>(e));
}

uint32_t RankedLists::NodeAt(uint64_t i) const {
  uint32_t id = 0;
  if (i >= lists_ || !ReadValue(file_, dir_off_ + i * kRankedDirEntry, &id))
    Damaged("corrupt ranked-lists directory");
  return id;
}

RankedLists::Cursor RankedLists::At(uint64_t i) const {
  uint64_t begin, end;
  if (i >= lists_ || !ReadValue(file_, dir_off_ + i * kRankedDirEntry + 8, &begin) ||
      !ReadValue(file_, dir_off_ + (i + 1) * kRankedDirEntry + (i + 1 < lists_ ? 8 : 0), &end) ||
      begin > end || end > data_size_) {
    Damaged("corrupt ranked-lists directory");
    return {};
  }
  const uint8_t* p = file_.Read(sizeof(RankedHeader) + begin, end - begin);
  if (!p) return {};
  return Cursor(this, p, p + (end - begin));
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

Status RankedListsWriter::Open(const std::string& path, const FileIdentity& id, bool has_attrs,
                               uint32_t length) {
  attrs_ = has_attrs;
  length_ = length;
  LITGRAPH_RETURN_IF_ERROR(out_.Open(path, id));
  return out_.Append(std::string(sizeof(RankedHeader), '\0'));  // filled in by Finish
}

Status RankedListsWriter::Add(uint32_t node, std::span<const uint32_t> ids,
                              std::span<const uint32_t> attrs) {
  uint32_t zero = 0;
  dir_.append(reinterpret_cast<const char*>(&node), 4);
  dir_.append(reinterpret_cast<const char*>(&zero), 4);
  dir_.append(reinterpret_cast<const char*>(&data_), 8);
  buf_.clear();
  for (size_t k = 0; k < ids.size(); ++k) {
    PutVarint(ids[k], &buf_);
    if (attrs_) PutVarint(k < attrs.size() ? attrs[k] : 0, &buf_);
  }
  data_ += buf_.size();
  entries_ += ids.size();
  return out_.Append(buf_);
}

Status RankedListsWriter::Finish() {
  RankedHeader h{};
  std::memcpy(h.magic, kRankedMagic, 8);
  h.lists = dir_.size() / kRankedDirEntry;
  h.entries = entries_;
  h.length = length_;
  h.has_attrs = attrs_ ? 1 : 0;
  h.dir_offset = out_.size();
  dir_.append(reinterpret_cast<const char*>(&data_), 8);
  LITGRAPH_RETURN_IF_ERROR(out_.Append(dir_));
  LITGRAPH_RETURN_IF_ERROR(out_.PatchHeader(0, {reinterpret_cast<const char*>(&h), sizeof h}));
  return out_.Finish();
}

Status PatchRankedLists(const RankedLists& old, const std::vector<uint32_t>& renew,
                        const ListPatch& fresh, const std::string& path, const FileIdentity& id,
                        uint32_t length) {
  RankedListsWriter w;
  LITGRAPH_RETURN_IF_ERROR(w.Open(path, id, old.has_attrs(), length));
  std::vector<uint32_t> ids, attrs;
  size_t r = 0, f = 0;
  auto emit_fresh_until = [&](uint64_t bound) -> Status {  // renewed nodes below bound
    for (; r < renew.size() && renew[r] < bound; ++r) {
      while (f < fresh.size() && fresh.nodes[f] < renew[r]) ++f;
      if (f < fresh.size() && fresh.nodes[f] == renew[r])
        LITGRAPH_RETURN_IF_ERROR(w.Add(renew[r], fresh.Ids(f), fresh.Attrs(f)));
    }
    return Status::Ok();
  };
  for (uint64_t i = 0; i < old.lists(); ++i) {
    const uint32_t node = old.NodeAt(i);
    LITGRAPH_RETURN_IF_ERROR(emit_fresh_until(node));
    if (r < renew.size() && renew[r] == node) continue;  // renewed: emitted with its bound
    ids.clear();
    attrs.clear();
    RankedLists::Cursor c = old.At(i);
    uint32_t v, a;
    while (c.Next(&v, &a)) {
      ids.push_back(v);
      if (old.has_attrs()) attrs.push_back(a);
    }
    LITGRAPH_RETURN_IF_ERROR(w.Add(node, ids, attrs));
  }
  LITGRAPH_RETURN_IF_ERROR(emit_fresh_until(UINT64_MAX));
  LITGRAPH_RETURN_IF_ERROR(old.status());
  return w.Finish();
}

Status WriteRankedLists(const std::string& path, const FileIdentity& id, uint64_t num_nodes,
                        std::span<const uint64_t> offsets, std::span<const uint32_t> ids,
                        std::span<const uint32_t> attrs, uint32_t length) {
  RankedListsWriter w;
  LITGRAPH_RETURN_IF_ERROR(w.Open(path, id, !attrs.empty(), length));
  for (uint64_t n = 0; n < num_nodes; ++n) {
    uint64_t a = offsets[n], e = offsets[n + 1];
    if (a == e) continue;
    LITGRAPH_RETURN_IF_ERROR(w.Add(static_cast<uint32_t>(n), ids.subspan(a, e - a),
                                   attrs.empty() ? attrs : attrs.subspan(a, e - a)));
  }
  return w.Finish();
}

// ---- Graph ------------------------------------------------------------------

Result<std::unique_ptr<Graph>> Graph::Open(Store* store) {
  auto view = store->Current("graph");
  if (!view.ok()) return view.status();
  if (!*view)
    return Status::NotFound(
        fmt::format("{}: the store has no graph yet (run litgraph-ingest)", store->dir()));
  std::unique_ptr<Graph> g(new Graph());
  g->store_ = store;
  g->view_ = *view;
  LITGRAPH_RETURN_IF_ERROR(g->view_->OpenFile("paper.citations", &g->citations_));
  LITGRAPH_RETURN_IF_ERROR(g->view_->OpenFile("paper.years", &g->years_));
  g->num_papers_ = g->citations_.size() / sizeof(uint32_t);
  if (g->years_.size() != g->num_papers_ * sizeof(uint16_t))
    return Status::Corruption(g->view_->dir() + ": paper.years does not match paper.citations");
  return g;
}

const RankedLists& Graph::ranked(Rel r) {
  auto& slot = ranked_[static_cast<int>(r)];
  if (!slot) {
    slot = std::make_unique<RankedLists>();
    if (GetRelInfo(r).ranked) {
      Status st = slot->Open(*view_, std::string(GetRelInfo(r).file) + ".ranked");
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
    Status st = slot->Open(*view_, std::string(GetRelInfo(r).file) + ".adj");
    if (!st.ok()) {
      if (open_status_.ok()) open_status_ = st;
      slot = std::make_unique<Adjacency>();
      slot->OpenEmpty();
    }
  }
  return *slot;
}

Status Graph::status() const {
  if (!open_status_.ok()) return open_status_;
  LITGRAPH_RETURN_IF_ERROR(citations_.status());
  LITGRAPH_RETURN_IF_ERROR(years_.status());
  for (int r = 0; r < kRelCount; ++r) {
    if (adj_[r]) LITGRAPH_RETURN_IF_ERROR(adj_[r]->status());
    if (ranked_[r]) LITGRAPH_RETURN_IF_ERROR(ranked_[r]->status());
  }
  return Status::Ok();
}

uint32_t Graph::StoredCitations(uint64_t paper) const {
  uint32_t v = 0;
  if (paper < num_papers_) ReadValue(citations_, paper * 4, &v);
  return v;
}

uint32_t Graph::Citations(uint64_t paper) const { return CitationCount(StoredCitations(paper)); }

bool Graph::CitationsFromRecord(uint64_t paper) const {
  return paper < num_papers_ && !(StoredCitations(paper) & kCitationsFromStoreBit);
}

uint32_t Graph::InStoreCitations(uint64_t paper) const {
  return const_cast<Graph*>(this)->adj(Rel::kCitesIn).Degree(paper);
}

int Graph::Year(uint64_t paper) const {
  uint16_t v = 0;
  if (paper < num_papers_) ReadValue(years_, paper * 2, &v);
  return v;
}

}  // namespace litgraph
