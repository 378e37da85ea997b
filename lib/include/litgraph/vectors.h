// Vector files and HNSW indexes, memory-mapped so that opening costs O(1).
//
// VectorFile (<name>.vec): float32 rows indexed by dense node id (row 0
// unused); an all-zero row means "no vector".
//   header 64 bytes: magic "LGVEC\0\0\1", u32 dim, u32 reserved, u64 rows,
//   u64 present rows, ...; then rows x dim float32.
//
// HnswIndex (<name>.hnsw): an HNSW graph built with hnswlib (inner product on
// unit vectors) and exported to a flat, mappable layout, because hnswlib's own
// loadIndex reads the whole index into memory (a store must open in <= 30 ms
// at any size):
//   header 64 bytes: magic "LGHNSW\0\1", u32 dim, u32 M, u32 maxM0, u32 entry,
//     i32 max level, u64 nodes, u64 upper words
//   u32[nodes]                   node -> dense id (label)
//   u8[nodes] (padded to 8)      level of each node
//   u64[nodes]                   offset of a node's upper-level links (u32 units)
//   u32[nodes][1 + maxM0]        level-0 links: count, neighbours
//   u32[upper words]             per node with level >= 1, for each level
//                                1..level: count, maxM slots
// Search is the HNSW algorithm (greedy descent through upper levels, beam of
// width ef at level 0) over these arrays, reading vectors from the VectorFile
// by label. The hnswlib index itself is kept beside it (<name>.hnswlib) so
// new vectors can be added without rebuilding (embed --missing).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "litgraph/files.h"
#include "litgraph/status.h"

namespace litgraph {

class VectorFile {
 public:
  Status Open(const std::string& path);
  int dim() const { return dim_; }
  uint64_t rows() const { return rows_; }
  uint64_t present() const { return present_; }
  // Row of a node, nullptr when out of range or absent (zero).
  const float* Row(uint64_t id) const;
  // Row without the absence check (the HNSW graph only links present rows).
  const float* RawRow(uint64_t id) const { return id < rows_ ? data_ + id * dim_ : nullptr; }

  // Writes rows (row-major, rows x dim) to path atomically.
  static Status Write(const std::string& path, int dim, uint64_t rows, const float* data);

 private:
  MappedFile file_;
  int dim_ = 0;
  uint64_t rows_ = 0, present_ = 0;
  const float* data_ = nullptr;
};

struct HnswBuildOptions {
  int M = 16;
  int ef_construction = 200;
  int threads = 2;
  uint64_t seed = 100;
};

struct VectorHit {
  uint32_t id;  // dense node id
  float score;  // inner product (cosine for unit vectors)
};

// Builds (or extends, when `hnswlib_in` names an existing hnswlib index of
// the same vectors' earlier rows) the index over the present rows of `vectors`
// and writes both <prefix>.hnswlib and <prefix>.hnsw.
Status BuildHnsw(const VectorFile& vectors, const std::string& prefix,
                 const HnswBuildOptions& options, const std::string& hnswlib_in = "");

class HnswIndex {
 public:
  Status Open(const std::string& path, const VectorFile* vectors);
  uint64_t nodes() const { return nodes_; }
  // Top-k by inner product with a beam of width ef (>= k).
  std::vector<VectorHit> Search(const float* query, size_t k, size_t ef) const;

 private:
  const uint32_t* Level0(uint32_t node) const {
    return level0_ + static_cast<size_t>(node) * (1 + maxM0_);
  }
  const uint32_t* Upper(uint32_t node, int level) const {
    return upper_ + upper_off_[node] + static_cast<size_t>(level - 1) * (1 + M_);
  }
  float Score(const float* q, uint32_t node) const;

  MappedFile file_;
  const VectorFile* vectors_ = nullptr;
  int dim_ = 0, M_ = 0, maxM0_ = 0, max_level_ = 0;
  uint32_t entry_ = 0;
  uint64_t nodes_ = 0;
  const uint32_t* labels_ = nullptr;
  const uint8_t* levels_ = nullptr;
  const uint64_t* upper_off_ = nullptr;
  const uint32_t* level0_ = nullptr;
  const uint32_t* upper_ = nullptr;
};

// Exact top-k by scanning every present row (the baseline for recall).
std::vector<VectorHit> BruteForceSearch(const VectorFile& vectors, const float* query, size_t k);

}  // namespace litgraph
