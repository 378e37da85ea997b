// Vector files and HNSW indexes, memory-mapped so that opening costs O(1).
// Each is a checked file (checked_file.h) of the store's vectors generation
// (generation.h); the layouts below are their payloads.
//
// VectorFile (<name>.vec): float32 rows indexed by dense node id (row 0
// unused); an all-zero row means "no vector".
//   header 64 bytes: magic "LGVEC\0\0\3", u32 dim, u32 reserved, u64 rows,
//   u64 present rows, u64 data_at (512), ...; zeros up to data_at; then
//   rows x dim float32. Rows start on a check page, so a 128-float row is
//   one page to verify, not two (files of magic ...\2 have their rows at
//   byte 64 and are still read).
//
// HnswIndex (<name>.hnsw): an HNSW graph built with hnswlib (inner product on
// unit vectors) and exported to a flat, mappable layout, because hnswlib's own
// loadIndex reads the whole index into memory (a store must open in <= 30 ms
// at any size). Node n is the row (dense id) n of the VectorFile, so a
// search reads no label; rows without a vector are nodes without links, but for
// those whose vector went after the index was built (embed's fold): waypoints
// a search passes through and never returns.
//   header 64 bytes: magic "LGHNSW\0\3", u32 dim, u32 M, u32 maxM0, u32 entry,
//     i32 max level, u32 stride, u64 nodes (rows), u64 upper words,
//     u64 level0_at, u64 nodes with a vector
//   u8[nodes] (padded to 8)      level of each node
//   u64[nodes]                   offset of a node's upper-level links (u32 units)
//   zeros up to level0_at (a multiple of 512)
//   u32[nodes][stride / 4]       level-0 links, unused slots 0xffffffff; stride
//                                is the power of two >= 4 maxM0 bytes (128 at
//                                M = 16), so a list lies in one check page
//   u32[upper words]             per node with level >= 1, for each level
//                                1..level: count, maxM slots
// (Files of magic ...\2, whose nodes carry a label array and counted level-0
// lists straddling pages, are still read.)
// Search is the HNSW algorithm (greedy descent through upper levels, beam of
// width ef at level 0) over these arrays, reading vectors from the VectorFile
// by node. Every link is read through the checked file, so a damaged index
// ends the search (status()) instead of walking out of bounds.
// The hnswlib index itself is kept beside it (<name>.hnswlib, its saved
// bytes as the payload) so new vectors can be added without rebuilding
// (embed --missing); it is verified in full before hnswlib reads it.
// hnswlib builds over each row rounded to IEEE half precision (HalfRow), so
// its elements are half the float rows' bytes and a build fetches half the
// memory per distance; searches read the float rows of the VectorFile. A
// generation holding such an index says manifest format
// kDerivedFormatHalfGraphs (generation.h). Indexes of float elements, saved
// before, are still extended as they are.
//
// FieldVectors: a field's vectors as queries see them, a base (<name>.vec
// and <name>.hnsw, as above) and, after `embed --missing`, a delta of the
// rows embedded or dropped since the base, so that an update writes work in
// proportion to what changed instead of the whole field:
//   <name>.delta.ids   header 64 bytes: magic "LGVDEL\0\0\1", u32 count,
//                      u32 reserved, u64 present rows of the field (base and
//                      delta together), ...; then u32[count] node ids,
//                      ascending
//   <name>.delta.vec   a VectorFile of count rows: row i is the vector of
//                      ids[i] (all zero: the node has none now)
//   <name>.delta.hnsw  an HnswIndex over <name>.delta.vec (its nodes are rows
//                      of the delta), written when the delta has
//                      kDeltaIndexMinRows rows or more; smaller deltas are
//                      scanned. Beside it <name>.delta.hnswlib, the hnswlib
//                      index labelled by node id, which the next
//                      `embed --missing` extends with the ids that joined
//                      the delta instead of indexing the whole delta again.
// A node in the delta is masked out of the base: its base vector is never
// returned. Search merges the base index's beam (masked nodes dropped) with
// the delta's top k.
//
// Segments (<name>.seg1.hnsw, .seg2, ...): further HNSW graphs over rows of
// the base's <name>.vec that the base index does not hold (Lucene's
// segments):
//  - litgraph-merge writes a shard's own index as a segment, its links
//    copied as they are, node n labelled with the merged store's id of the
//    shard's row n, so that no shard's rows are inserted again;
//  - a compaction (embed) indexes a delta's rows in a segment of their own
//    (BuildHnswSegments, node n the delta's n-th row with a vector) when the
//    delta is large enough to have an index (kDeltaIndexMinRows): a small
//    graph and no node moved in the base index, where inserting them there
//    costs more the larger the base.
// A segment is a flat index whose nodes carry labels (magic "LGHNSW\0\4":
// the layout of ...\3 followed by u32[nodes], node -> dense id; with the top
// bit set, a waypoint scored by that id's vector and never returned;
// 0xffffffff: none). A row is a live node of at most one segment. It may be
// live in the base index too: a delta's row whose vector changed keeps its
// base node where the old vector put it, so searches return one hit per row
// (that node counts towards the base index's rebuild, as a moved one). The
// delta masks segments as it masks the base. A compaction keeps each
// segment, its rows the delta changed made waypoints, and folds a segment
// into the base index once fewer than half of its nodes are live.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "litgraph/checked_file.h"
#include "litgraph/status.h"

namespace litgraph {

class GenerationBuilder;
class GenerationView;

class VectorFile {
 public:
  Status Open(const std::string& path, const FileIdentity& id);
  Status Open(const GenerationView& generation, const std::string& name);
  int dim() const { return dim_; }
  uint64_t rows() const { return rows_; }
  uint64_t present() const { return present_; }
  // Row of a node, nullptr when out of range, absent (zero) or damaged
  // (status()).
  const float* Row(uint64_t id) const;
  // Row without the absence check (the HNSW graph only links present rows).
  const float* RawRow(uint64_t id) const;
  // Drops the mapping of rows [first, end) (CheckedFile::Release): a build
  // that reads the file once, in row order, keeps its RSS to what it holds.
  void Release(uint64_t first, uint64_t end) const;
  // The first damage a read met; ok when none.
  Status status() const { return file_.status(); }

  // Writes rows (row-major, rows x dim) as `name` of a generation.
  static Status Write(GenerationBuilder* out, const std::string& name, int dim, uint64_t rows,
                      const float* data);
  // The same as a standalone file with the given identity.
  static Status Write(const std::string& path, const FileIdentity& id, int dim, uint64_t rows,
                      const float* data);
  // Rows from a function called for rows 0..rows-1 in order, twice (null or
  // all zero: no vector); the pointers it returns need only last until its
  // next call.
  static Status Write(GenerationBuilder* out, const std::string& name, int dim, uint64_t rows,
                      const std::function<const float*(uint64_t row)>& row);
  static Status Write(const std::string& path, const FileIdentity& id, int dim, uint64_t rows,
                      const std::function<const float*(uint64_t row)>& row);

 private:
  CheckedFile file_;
  int dim_ = 0;
  uint64_t rows_ = 0, present_ = 0, data_at_ = 0;
};

// hnswlib's elements for a build (above): a row as dim IEEE binary16
// values, each the float rounded to nearest, ties to even (what F16C's
// VCVTPS2PH does; computed without it, so the bytes are the same on every
// CPU). Half values convert back to float exactly.
inline size_t HalfRowBytes(int dim) { return 2 * static_cast<size_t>(dim); }
uint16_t FloatToHalf(float f);
float HalfToFloat(uint16_t h);
void HalfRow(const float* row, int dim, uint16_t* out);
// hnswlib's distance of two half rows, 1 - <a, b> summed in float (F16C and
// FMA where the CPU has them); `dim` points at the dimension as a size_t
// (hnswlib's distance parameter).
float HalfDistance(const void* a, const void* b, const void* dim);

struct HnswBuildOptions {
  int M = 16;
  // Build over half rows (HalfRow). int8 rows were faster still but lost
  // recall on some corpora; half rows kept the float rows' recall
  // (bench/results/2026-12-02-int8-graphs, 2026-12-02-half-graphs).
  bool half = true;
  int ef_construction = 200;
  // The delta's index (FieldVectors::WriteDelta) is built with the smaller
  // of the two: it is rebuilt by every `embed --missing` and replaced by the
  // base's at compaction. On a 100k-paper delta of the 1M store, 64 instead
  // of 200 built it in 58% of the time for recall@10 at ef 120 of 0.981-0.985
  // instead of 0.983-0.988 (bench/results/2026-11-26-cron).
  int delta_ef_construction = 64;
  int threads = 2;
  uint64_t seed = 100;
  bool save_hnswlib = true;  // keep <name>.hnswlib so a later run can extend the index
  // Extending an index, a changed vector also rebuilds its old neighbours'
  // lists (hnswlib's own update, ~20 insertions of work) instead of moving
  // the node alone (~1 insertion; vectors.cc, Relink).
  bool relink_neighbours = false;
  // With BuildHnsw's `spilled`: the index it builds or extends grows to this
  // many nodes at most, and the rows past it are handed back for segments
  // (BuildHnswSegments), so a compaction stays within the memory budget.
  // Ignored without `spilled`.
  uint64_t max_nodes = UINT64_MAX;
};

struct VectorHit {
  uint32_t id;  // dense node id
  float score;  // inner product (cosine for unit vectors)
};

// Builds the index over the present rows of `vectors` (those flagged in
// `elsewhere` aside: a segment holds them) and writes both
// <name>.hnswlib and <name>.hnsw into `out`. hnswlib labels row r with
// labels[r] (ascending; a delta's node ids), or with r when `labels` is
// empty; the .hnsw's node n is row n either way. With `base` (a generation
// holding <name>.hnswlib over the labels of earlier rows) the index is
// extended rather than rebuilt; labels in `changed` (their vectors differ
// from the base's) are re-linked in place. A base holding a label that is no
// row of `vectors` is not extended: the index is built afresh.
// With `spilled`, the rows that would take the index past
// options.max_nodes are not inserted but appended to `*spilled` (ascending).
Status BuildHnsw(const VectorFile& vectors, GenerationBuilder* out, const std::string& name,
                 const HnswBuildOptions& options, const GenerationView* base = nullptr,
                 const std::vector<uint64_t>& changed = {}, std::span<const uint32_t> labels = {},
                 std::span<const uint8_t> elsewhere = {}, std::vector<uint64_t>* spilled = nullptr);

// The HNSW nodes whose build fits in `bytes` (hnswlib builds in memory: the
// half row, the links and their export, ~640 bytes a node at 128
// dimensions and M = 16); at least 16.
uint64_t HnswNodesWithin(size_t bytes, int dim, int M);

// Builds the index of `vectors` afresh within a memory bound: the rows in
// runs of at most `max_nodes` rows with a vector, the first run's index the
// base (<name>.hnsw and .hnswlib, as BuildHnsw) and each later run's a
// segment (<name>.segK.hnsw, below), built one at a time. `*segments`
// receives their count (0: one index, BuildHnsw's).
Status BuildHnswWithin(const VectorFile& vectors, GenerationBuilder* out, const std::string& name,
                       const HnswBuildOptions& options, uint64_t max_nodes, size_t* segments);

// Segments <name>.seg<first+1>.hnsw, ... over `rows` (ascending rows of
// `vectors` with a vector), cut in runs of at most `max_nodes` rows and built
// one at a time, node n of a segment its run's n-th row; `*segments`
// receives their count.
Status BuildHnswSegments(const VectorFile& vectors, const std::vector<uint64_t>& rows,
                         GenerationBuilder* out, const std::string& name,
                         const HnswBuildOptions& options, uint64_t max_nodes, size_t first,
                         size_t* segments);

// A segment node labelled kWaypoint | id is scored by row id's vector but
// never returned (the row is live in another index: the base, or another
// segment); one labelled kNoLabel has no vector at all.
constexpr uint32_t kWaypoint = 0x80000000u;
constexpr uint32_t kNoLabel = 0xffffffffu;

// Writes `name` (a segment, above) into `out`: the flat index `from_name` of
// `from` with its links as they are and node n labelled label(n, old), old
// being n's label there (n itself in an unlabelled index). Nothing is
// inserted: the cost is a copy of the file. `*labelled` (when given)
// receives the count of nodes with a label that is no waypoint's.
Status WriteHnswSegment(const GenerationView& from, const std::string& from_name,
                        const std::function<uint32_t(uint64_t node, uint32_t old)>& label,
                        GenerationBuilder* out, const std::string& name,
                        uint64_t* labelled = nullptr);

class HnswIndex {
 public:
  Status Open(const GenerationView& generation, const std::string& name, const VectorFile* vectors);
  // Nodes with a vector (the graph's size); a segment's live nodes when it
  // was made.
  uint64_t nodes() const { return indexed_; }
  // Whether nodes carry labels (a segment); else node n is row n.
  bool labelled() const { return labelled_; }
  // Every node's label (kNoLabel: none); empty on damage (status()).
  std::vector<uint32_t> Labels() const;
  // Top-k by inner product with a beam of width ef (>= k). Stops early on a
  // damaged index (status()).
  std::vector<VectorHit> Search(const float* query, size_t k, size_t ef) const;
  // The first damage a read met; ok when none.
  Status status() const { return file_.status(); }

 private:
  // The level-0 links of a node; false when damaged.
  bool Level0(uint32_t node, const uint32_t** links, uint32_t* count) const;
  // Link list (count, then slots) of a node at an upper level; null when
  // damaged.
  const uint32_t* Upper(uint32_t node, int level) const;
  bool Label(uint32_t node, uint32_t* label) const;
  int Level(uint32_t node) const;
  float Score(const float* q, uint32_t node) const;

  CheckedFile file_;
  const VectorFile* vectors_ = nullptr;
  int dim_ = 0, M_ = 0, maxM0_ = 0, max_level_ = 0;
  uint32_t entry_ = 0;
  uint64_t nodes_ = 0, indexed_ = 0, upper_words_ = 0, stride_ = 0;
  uint64_t labels_at_ = 0, levels_at_ = 0, upper_off_at_ = 0, level0_at_ = 0, upper_at_ = 0;
  bool v2_ = false;        // an older file: counted level-0 lists
  bool labelled_ = false;  // v2 or a segment: nodes carry labels
};

// Exact top-k by scanning every present row (the baseline for recall).
std::vector<VectorHit> BruteForceSearch(const VectorFile& vectors, const float* query, size_t k);

// A field's base and delta (above).
class FieldVectors {
 public:
  // Below this many rows a delta is scanned rather than indexed: a scan of
  // 20k rows of 128 floats reads 10 MB, about the cost of an index search.
  static constexpr uint64_t kDeltaIndexMinRows = 20000;

  // The file of segment k (1, 2, ...) of field `name`.
  static std::string SegmentFile(const std::string& name, size_t k) {
    return name + ".seg" + std::to_string(k) + ".hnsw";
  }

  // Opens <name>.vec (and .hnsw, the segments and the delta files when
  // present).
  Status Open(const GenerationView& generation, const std::string& name);
  int dim() const { return base_.dim(); }
  // The node id space: past the base's rows and the delta's ids.
  uint64_t rows() const { return rows_; }
  uint64_t present() const { return present_; }
  uint64_t delta_rows() const { return delta_count_; }
  bool has_index() const { return has_index_; }
  size_t segments() const { return segments_.size(); }
  // Segment k (0-based) of the field.
  const HnswIndex& segment(size_t k) const { return *segments_[k]; }
  // The base index (has_index()).
  const HnswIndex& base_index() const { return index_; }
  // Whether the base index alone holds every vector (no delta, no segment,
  // node n is row n): a merge can keep it as a segment.
  bool OneIndex() const {
    return has_index_ && delta_count_ == 0 && segments_.empty() && !index_.labelled();
  }
  // The vector of node `id` (the delta's when the node is in it); nullptr
  // when it has none or the file is damaged (status()).
  const float* Row(uint64_t id) const;
  // The base's vector of node `id`, the delta aside.
  const float* BaseRow(uint64_t id) const { return base_.Row(id); }
  // Drops the mapping of the base's rows [first, end) (VectorFile::Release).
  void ReleaseBase(uint64_t first, uint64_t end) const { base_.Release(first, end); }
  // Whether node `id` is in the delta.
  bool InDelta(uint64_t id) const { return DeltaRow(id) >= 0; }
  // The delta's node ids, ascending.
  std::vector<uint32_t> DeltaIds() const;
  // Top-k by inner product: the beams of width ef of the base index and of
  // each segment without the nodes of the delta, merged with the delta's top
  // k (its index, or a scan). Without a base index, a scan of everything.
  // (One beam shared by the indexes, each search starting from the scores
  // the previous ones found, was tried: recall@10 fell to 0.90-0.92 against
  // exact search, and some rows were not found by their own vector.)
  std::vector<VectorHit> Search(const float* query, size_t k, size_t ef) const;
  // Exact top-k over every present row (the baseline for recall).
  std::vector<VectorHit> Exact(const float* query, size_t k) const;
  Status status() const;

  // Writes the delta of `name` into `out`: the node ids (ascending) and a
  // row function as VectorFile::Write's; `present` counts the field's rows
  // with a vector, base and delta together. Builds <name>.delta.hnsw when
  // the delta has `index_min_rows` rows or more, with <name>.delta.hnswlib
  // (labels: node ids). With `previous` (a generation whose delta of `name`
  // had fewer ids, all among `ids`) its delta index is extended: the new ids
  // inserted, the nodes in `changed` moved (BuildHnsw).
  static Status WriteDelta(GenerationBuilder* out, const std::string& name, int dim,
                           const std::vector<uint32_t>& ids,
                           const std::function<const float*(uint64_t i)>& row, uint64_t present,
                           const HnswBuildOptions& options,
                           uint64_t index_min_rows = kDeltaIndexMinRows,
                           const GenerationView* previous = nullptr,
                           const std::vector<uint64_t>& changed = {});

 private:
  // The delta row of a node, -1 when it is not in the delta.
  int64_t DeltaRow(uint64_t id) const;
  bool DeltaId(uint64_t i, uint32_t* id) const;

  VectorFile base_;
  HnswIndex index_;
  bool has_index_ = false;
  std::vector<std::unique_ptr<HnswIndex>> segments_;
  CheckedFile ids_;
  VectorFile delta_;
  HnswIndex delta_index_;
  bool has_delta_index_ = false;
  uint64_t delta_count_ = 0, rows_ = 0, present_ = 0;
};

}  // namespace litgraph
