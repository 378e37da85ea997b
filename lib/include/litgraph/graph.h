// The typed graph: memory-mapped, block-compressed adjacency files over the
// dense per-type node ids of the store, each a checked file (checked_file.h)
// of the store's graph generation (generation.h).
//
// One adjacency file per relation and direction (Rel, model.h), each mapping
// a source node to its sorted neighbours and one 32-bit attribute per edge
// whose meaning depends on the relation (RelInfo::attr). The payload
// (doc/graph-format.md has the full description):
//
//   header   64 bytes: magic "LGADJ\0\0\2", u64 node space (max id + 1),
//            u64 edges, u64 blocks, u32 nodes per block, u32 max degree,
//            u32 has attributes, u32 listed nodes (0: dense), u64 index
//            offset, u64 nodes offset
//   data     blocks; a block decompresses (zstd, or stored raw when zstd
//            does not shrink it) to, for each of its nodes: varint degree,
//            degree x varint id delta (first absolute), degree x varint
//            attribute (files with attributes)
//   index    (blocks + 1) x u64: each block's offset from the data start;
//            bit 63 set = block stored raw
//   nodes    sparse files only: u32 x listed nodes, ascending
//
// A dense file has a list for every node of its space, block b holding the
// nodes b x nodes-per-block onwards; a sparse file lists some nodes only (a
// delta: the lists an update replaced), block b holding the lists of the
// listed nodes at those positions.
//
// Deltas. A generation may hold beside a relation's dense file
// `<relation>.adj` a sparse `<relation>.delta.adj` (kAdjDeltaSuffix): the
// lists the updates since that base replaced, over the relation's whole new
// node space. Opened from a generation, an Adjacency reads both as one
// relation: a node the delta lists has its delta list, any other its base
// list. The delta's header holds the totals of that view (edges, maximum
// degree). Updates write a delta instead of rewriting the base until it
// would pass GraphBuildOptions::adjacency_delta_fraction of the base's
// bytes (graph_build.h), then fold it in (doc/graph-format.md, "Adjacency
// deltas").
//
// Opening maps the file and checks its footer and header: O(1) in the graph
// size. Neighbours(n) decompresses n's block (the last one read is kept, for
// its neighbours in id order), skips the lists before n's and decodes n's
// list alone into a cache of decoded lists (32 MiB per file by default). The
// cache has two generations: lists are decoded into the current
// generation's arena; when it holds half the budget, the older generation is
// dropped and the current one becomes the older (a list found there moves
// back into the current one). The arenas' memory is reused rather than
// freed, so a warm cache allocates nothing. Why lists and not whole blocks:
// a query reads one node of most blocks it touches, and in a fresh process
// every decoded byte lands on a new page the kernel must fault in and zero;
// caching only what was asked for cut a 60-seed rwr-rank subgraph at 1M
// papers from 27 to 21 ms (bench/results/2026-11-22-hybrid/summary.md).
// Node attribute arrays (citation counts, years) are flat little-endian
// checked files.
//
// Damage: readers never throw and never read outside their file. A damaged
// block or list reads as empty and latches the first error in the reader's
// status(); Graph::status() gathers them, and every algorithm over a Graph
// checks it before returning (LevelDB's Iterator::status()).
//
// Thread-safety: an Adjacency (its cache) belongs to one thread; Graph's
// lazily opened files are opened by one thread before others read them; the
// attribute arrays and checked files may be read from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "litgraph/checked_file.h"
#include "litgraph/generation.h"
#include "litgraph/model.h"
#include "litgraph/status.h"
#include "litgraph/store.h"

namespace litgraph {

class Adjacency {
 public:
  static constexpr size_t kHeaderSize = 64;
  Adjacency() = default;
  ~Adjacency();
  Adjacency(const Adjacency&) = delete;
  Adjacency& operator=(const Adjacency&) = delete;
  // Opens an adjacency file with the identity it must have.
  Status Open(const std::string& path, const FileIdentity& id);
  // Opens one of a generation's files, with its delta when the generation
  // has one (`name` + kAdjDeltaSuffix in place of ".adj").
  Status Open(const GenerationView& generation, const std::string& name);
  void OpenEmpty() { num_nodes_ = view_nodes_ = 0; }

  // Of the relation (the base and its delta as one):
  uint64_t num_nodes() const { return view_nodes_; }  // source id space (max id + 1)
  uint64_t num_edges() const { return num_edges_; }
  uint32_t max_degree() const { return max_degree_; }
  // Of the base file alone:
  uint64_t base_nodes() const { return num_nodes_; }
  uint32_t nodes_per_block() const { return nodes_per_block_; }
  size_t file_bytes() const { return file_.size(); }
  bool sparse() const { return listed_ > 0; }
  // The delta opened beside the base (null when there is none).
  Adjacency* delta() const { return delta_.get(); }
  // Sparse files: the nodes listed, and the i-th of them (ascending).
  uint64_t listed() const { return listed_; }
  uint32_t ListedNode(uint64_t i);

  // Neighbours of `node` (sorted ascending) and their attributes (empty when
  // the file has none). The spans stay valid until the next call on this
  // Adjacency. Nodes outside the id space, or not listed in a sparse file,
  // have no neighbours.
  struct List {
    std::span<const uint32_t> ids;
    std::span<const uint32_t> attrs;
    size_t size() const { return ids.size(); }
  };
  List Neighbours(uint64_t node);
  // The same list for a caller that will not ask for it again (the last
  // stage of a query): a list in the cache is returned from there, another
  // is decoded into a scratch buffer and not kept, so reading it touches no
  // new memory. Valid until the next call on this Adjacency.
  List Once(uint64_t node);
  uint32_t Degree(uint64_t node) { return static_cast<uint32_t>(Neighbours(node).size()); }
  // Sparse files: whether `node` has a list here.
  bool Lists(uint64_t node) const { return Position(node) >= 0; }
  // Whether the delta lists `node` (false without a delta). `hint`, when
  // given, is a position in the delta's node list to search onwards from
  // (a caller walking nodes in ascending order keeps it: AdjacencyScan).
  bool DeltaLists(uint64_t node, uint64_t* hint = nullptr) const {
    return DeltaPosition(node, hint) >= 0;
  }

  friend class AdjacencyScan;
  // Block b of the base as stored (compressed or raw) and whether it is
  // raw; false when it is damaged. For writers that copy unchanged blocks
  // (PatchAdjacency; the delta's nodes must be among those they replace).
  bool StoredBlock(uint64_t b, std::string_view* bytes, bool* raw);
  bool has_attrs() const { return has_attrs_; }

  // Blocks read (decompressed) so far, for benchmarks and tests.
  uint64_t blocks_decoded() const {
    return blocks_decoded_ + (delta_ ? delta_->blocks_decoded_ : 0);
  }
  // The decoded-block cache's budget (default kCacheBytes).
  void set_cache_bytes(size_t bytes) { cache_limit_ = bytes; }
  // The first damage a read found (ok when none).
  Status status() const;

 private:
  // A decoded list in a cache arena: ids, then attributes (files with them).
  struct Cached {
    const uint32_t* words;
    uint32_t deg;
  };
  // One cache generation: its lists and the bump-allocated arena they live in.
  struct Generation {
    std::unordered_map<uint64_t, Cached> lists;
    std::vector<std::pair<uint32_t*, size_t>> chunks;  // malloc'd, words each
    size_t chunk = 0, used = 0;                        // bump position: chunks[chunk] + used
    size_t bytes = 0;                                  // words handed out, in bytes
    uint32_t* Allocate(size_t words);
    void Clear();  // keeps the chunks
    ~Generation();
  };
  List MakeList(const uint32_t* words, uint32_t deg) const {
    List l;
    l.ids = std::span<const uint32_t>(words, deg);
    if (has_attrs_) l.attrs = std::span<const uint32_t>(words + deg, deg);
    return l;
  }
  List Keep(uint64_t node, const uint32_t* words, uint32_t deg);
  // The node's position in the file's node order; -1 when it has no list.
  int64_t Position(uint64_t node) const;
  // The node's position in the delta's node list, -1 when the delta does
  // not list it (DeltaLists), and the list at a position of this file,
  // decoded into decoded_ (damage reads as empty).
  int64_t DeltaPosition(uint64_t node, uint64_t* hint) const;
  List ListAt(uint64_t position);
  // Reads block b into block_data_.. block_end_; false when it is damaged.
  bool LoadBlock(uint64_t b);
  // Decodes the list into decoded_; false when it is damaged.
  bool Decode(uint64_t position, uint32_t* deg);
  List Damaged(const char* what);

  // Opens the file alone (Open(generation) adds the delta).
  Status OpenFile(const std::string& path, const FileIdentity& id);
  // The position of `node` in the node list of this sparse file, searched
  // from `from` (the first listed node >= node), or listed_.
  uint64_t LowerBound(uint64_t node, uint64_t from) const;
  CheckedFile file_;
  std::unique_ptr<Adjacency> delta_;
  uint64_t view_nodes_ = 0;  // num_nodes() of base and delta
  uint64_t num_nodes_ = 0, num_edges_ = 0, num_blocks_ = 0, listed_ = 0;
  uint32_t nodes_per_block_ = 1, max_degree_ = 0;
  bool has_attrs_ = false;
  uint64_t index_off_ = 0, nodes_off_ = 0;
  static constexpr size_t kCacheBytes = 32u << 20;
  size_t cache_limit_ = kCacheBytes;
  Generation gens_[2];
  int cur_ = 0;
  std::string scratch_;          // decompressed bytes of block_
  uint64_t block_ = UINT64_MAX;  // the last block read, and its bytes
  const uint8_t* block_data_ = nullptr;
  const uint8_t* block_end_ = nullptr;
  std::vector<uint32_t> decoded_;  // the list being decoded
  void* dctx_ = nullptr;           // ZSTD_DCtx, reused: a context per call costs page faults
  uint64_t blocks_decoded_ = 0;
  Status status_;
};

// Reads a dense file's lists a block at a time, for writers that walk nodes
// in ascending order (PatchAdjacency, graph updates): each block is decoded
// once into flat arrays, without the per-list cache of Neighbours(). The
// lists of a delta come from it (found by a cursor that moves with the
// nodes asked). Damage reads as empty lists and shows in the Adjacency's
// status().
class AdjacencyScan {
 public:
  explicit AdjacencyScan(Adjacency& adjacency) : a_(adjacency) {}
  // Any order works; ascending decodes each block once. The spans stay valid
  // until the next Get.
  Adjacency::List Get(uint64_t node);

 private:
  bool Load(uint64_t block);
  Adjacency& a_;
  uint64_t delta_at_ = 0;              // the delta's node list: where the last search ended
  std::vector<uint32_t> delta_words_;  // the last delta list
  uint64_t block_ = UINT64_MAX;
  std::vector<uint64_t> start_;  // per node of the block: its words' offset, then the end
  std::vector<uint32_t> words_;  // per node: ids, then attributes
};

// Writes an adjacency file list by list, in ascending node order, in bounded
// memory (the block index and, for sparse files, the node list stay in RAM:
// 8 bytes per block and 4 per listed node).
class AdjacencyWriter {
 public:
  // node_space: ids [0, node_space). Dense files list every node (the nodes
  // not given to Add have empty lists); sparse files only the nodes given.
  Status Open(const std::string& path, const FileIdentity& id, uint64_t node_space, bool has_attrs,
              bool sparse, uint32_t nodes_per_block = 16, int zstd_level = 3);
  ~AdjacencyWriter();
  Status Add(uint64_t node, std::span<const uint32_t> ids, std::span<const uint32_t> attrs);
  // Appends the nodes [node, node + nodes per block) as a block copied from
  // another file of the same layout (Adjacency::StoredBlock); `node` must
  // start a block. The header's edge count and maximum degree then come
  // from SetTotals.
  Status AddStoredBlock(uint64_t node, std::string_view bytes, bool raw);
  void SetTotals(uint64_t edges, uint32_t max_degree) {
    edges_ = edges;
    max_degree_ = max_degree;
  }
  Status Finish();
  uint64_t edges() const { return edges_; }
  uint32_t max_degree() const { return max_degree_; }

 private:
  Status AddList(std::span<const uint32_t> ids, std::span<const uint32_t> attrs);
  Status FlushBlock();
  CheckedFileWriter out_;
  uint64_t node_space_ = 0, next_ = 0, edges_ = 0;
  bool attrs_ = false, sparse_ = false;
  uint32_t per_block_ = 16, max_degree_ = 0, in_block_ = 0;
  int level_ = 3;
  std::string raw_, comp_;
  std::vector<uint64_t> index_;
  std::vector<uint32_t> nodes_;
  void* cctx_ = nullptr;
};

// New lists of some nodes of one relation direction, in ascending node
// order (an empty list removes the node's edges).
struct ListPatch {
  std::vector<uint32_t> nodes;
  std::vector<uint64_t> offsets{0};
  std::vector<uint32_t> ids, attrs;  // attrs empty or parallel to ids
  void Add(uint32_t node, std::span<const uint32_t> list_ids, std::span<const uint32_t> list_attrs);
  size_t size() const { return nodes.size(); }
  bool empty() const { return nodes.empty(); }
  std::span<const uint32_t> Ids(size_t i) const {
    return {ids.data() + offsets[i], offsets[i + 1] - offsets[i]};
  }
  std::span<const uint32_t> Attrs(size_t i) const {
    if (attrs.empty()) return {};
    return {attrs.data() + offsets[i], offsets[i + 1] - offsets[i]};
  }
  // The index of `node`, or -1.
  int64_t Find(uint32_t node) const;
};

// Writes the dense file `old` with the lists of `patch` replaced, over
// node_space (>= old's): blocks without a replaced node are copied as
// stored, the others encoded again, so the file is byte for byte the one a
// full build of the same lists writes. Cost: a copy of the file plus the
// patched blocks. When `old` has a delta, its lists join the patch (the
// patch's where both have one), so no base block holding one is copied:
// this folds the delta, and the file is again a full build's.
Status PatchAdjacency(Adjacency& old, const ListPatch& patch, uint64_t node_space,
                      const std::string& path, const FileIdentity& id, uint32_t nodes_per_block,
                      int zstd_level);

// Writes a dense adjacency file from CSR arrays (offsets has num_nodes + 1
// entries; each node's ids sorted ascending; attrs empty or parallel to ids).
Status WriteAdjacency(const std::string& path, const FileIdentity& id, uint64_t num_nodes,
                      std::span<const uint64_t> offsets, std::span<const uint32_t> ids,
                      std::span<const uint32_t> attrs, uint32_t nodes_per_block = 16,
                      int zstd_level = 3);

// Writes the delta of `old` (its base kept) with the lists of `patch`
// replaced: the old delta's lists and the patch's, the patch's where both
// have one, as a sparse file over node_space (>= old's), whose header holds
// the totals of the relation it and the base make. Cost: the delta.
Status WriteAdjacencyDelta(Adjacency& old, const ListPatch& patch, uint64_t node_space,
                           const std::string& path, const FileIdentity& id,
                           uint32_t nodes_per_block, int zstd_level);
// The delta file of an adjacency file ("cites.out.adj" -> "cites.out.delta.adj").
std::string AdjDeltaName(const std::string& adj_name);

// Ranked lists (`<relation>.ranked`, doc/graph-format.md) beside the hub
// relations (RelInfo::ranked): for every node with more than kRankedLength
// neighbours (the length is recorded in the file), its first kRankedLength
// neighbours in the order of the subgraph's per-hop rule: attribute rank
// (RankedAttr, model.h) descending, then (papers) citation count descending,
// then id ascending. A reader walks a list entry by entry and stops as soon
// as the rest cannot matter, so a hub costs a few entries instead of its
// whole list. A list that is present but empty means "no ranked list" (a
// delta's way of removing one).
//
//   header     64 bytes: magic "LGRNK\0\0\2", u64 lists, u64 entries,
//              u32 list length, u32 has attributes, u64 directory offset
//   data       per list, in rank order: varint id [, varint attribute]
//   directory  lists x (u32 node, u32 0, u64 byte offset), by node; then the
//              data size as a final u64
inline constexpr uint32_t kRankedLength = 128;

// paper.citations holds one u32 per paper: the count ranking uses, with this
// bit set when it is the in-store CITES in-degree rather than the record's.
inline constexpr uint32_t kCitationsFromStoreBit = 0x80000000u;
inline uint32_t CitationCount(uint32_t stored) { return stored & ~kCitationsFromStoreBit; }

class RankedLists {
 public:
  Status Open(const std::string& path, const FileIdentity& id);
  Status Open(const GenerationView& generation, const std::string& name);
  void OpenEmpty() {}

  class Cursor {
   public:
    Cursor() = default;
    Cursor(const RankedLists* owner, const uint8_t* p, const uint8_t* end)
        : owner_(owner), p_(p), end_(end) {}
    bool empty() const { return p_ == end_; }
    // The next entry; false at the end of the list or at damage (latched in
    // the owner's status()).
    bool Next(uint32_t* id, uint32_t* attr);

   private:
    const RankedLists* owner_ = nullptr;
    const uint8_t* p_ = nullptr;
    const uint8_t* end_ = nullptr;
  };
  // The node's ranked list: empty when the node has kRankedLength neighbours
  // or fewer (read its adjacency list instead).
  Cursor Find(uint32_t node) const;
  // Whether the file has an entry for the node (possibly an empty list).
  bool Lists(uint32_t node) const;
  uint64_t lists() const { return lists_; }
  bool has_attrs() const { return attrs_; }
  // The i-th list of the directory (ascending nodes) and its node.
  uint32_t NodeAt(uint64_t i) const;
  Cursor At(uint64_t i) const;
  uint32_t length() const { return length_; }
  Status status() const;

 private:
  // The directory entry of `node` (its position), or -1.
  int64_t Entry(uint32_t node) const;
  void Damaged(const char* what) const;
  CheckedFile file_;
  mutable Status status_;
  uint64_t lists_ = 0, dir_off_ = 0, data_size_ = 0;
  uint32_t length_ = 0;
  bool attrs_ = false;
};

// Writes ranked lists list by list, in ascending node order.
class RankedListsWriter {
 public:
  Status Open(const std::string& path, const FileIdentity& id, bool has_attrs,
              uint32_t length = kRankedLength);
  // The node's list, in rank order (an empty list: "no ranked list").
  Status Add(uint32_t node, std::span<const uint32_t> ids, std::span<const uint32_t> attrs);
  Status Finish();

 private:
  CheckedFileWriter out_;
  bool attrs_ = false;
  uint32_t length_ = kRankedLength;
  uint64_t data_ = 0, entries_ = 0;
  std::string dir_, buf_;
};

// Writes `old` with the lists of the nodes in `renew` replaced by `fresh`
// (ascending nodes, each list already in rank order; a node of `renew`
// without a list in `fresh` loses its ranked list).
Status PatchRankedLists(const RankedLists& old, const std::vector<uint32_t>& renew,
                        const ListPatch& fresh, const std::string& path, const FileIdentity& id,
                        uint32_t length);

// Writes the ranked lists of the nodes whose list in the CSR arrays is not
// empty (each already in rank order, `length` entries).
Status WriteRankedLists(const std::string& path, const FileIdentity& id, uint64_t num_nodes,
                        std::span<const uint64_t> offsets, std::span<const uint32_t> ids,
                        std::span<const uint32_t> attrs, uint32_t length = kRankedLength);

// The graph of one store generation.
class Graph {
 public:
  // Opens the generation the store's snapshot names. NotFound when the store
  // has no graph yet (run litgraph-ingest); an error when its manifest or
  // attribute files are damaged.
  static Result<std::unique_ptr<Graph>> Open(Store* store);

  Store* store() { return store_; }
  const GenerationView& view() const { return *view_; }
  int64_t generation() const { return view_->number(); }

  // Lazily opened adjacency of a relation (one that is missing or fails to
  // open reads as empty and reports through status()).
  Adjacency& adj(Rel r);
  // Its ranked lists (empty for relations without them).
  const RankedLists& ranked(Rel r);
  // The first damage any of the graph's files showed, ok when none.
  Status status() const;

  // Paper attributes (dense paper id).
  uint64_t num_papers() const { return num_papers_; }  // id space: max id + 1
  // Citation count used for ranking and lineage: the record's cited_by_count
  // when present, else the in-store CITES in-degree (SciNetBench's
  // collective credit).
  uint32_t Citations(uint64_t paper) const;
  bool CitationsFromRecord(uint64_t paper) const;
  uint32_t InStoreCitations(uint64_t paper) const;
  int Year(uint64_t paper) const;  // 0 = unknown

 private:
  Graph() = default;
  uint32_t StoredCitations(uint64_t paper) const;
  Store* store_ = nullptr;
  const GenerationView* view_ = nullptr;
  uint64_t num_papers_ = 0;
  std::unique_ptr<Adjacency> adj_[kRelCount];
  std::unique_ptr<RankedLists> ranked_[kRelCount];
  CheckedFile citations_, years_;
  Status open_status_;  // a relation file that failed to open
};

}  // namespace litgraph
