// Vector files and HNSW indexes, memory-mapped so that opening costs O(1).
// Each is a checked file (checked_file.h) of the store's vectors generation
// (generation.h); the layouts below are their payloads.
//
// VectorFile (<name>.vec): float32 rows indexed by dense node id (row 0
// unused); an all-zero row means "no vector".
//   header 64 bytes: magic "LGVEC\0\0\2", u32 dim, u32 reserved, u64 rows,
//   u64 present rows, ...; then rows x dim float32.
//
// HnswIndex (<name>.hnsw): an HNSW graph built with hnswlib (inner product on
// unit vectors) and exported to a flat, mappable layout, because hnswlib's own
// loadIndex reads the whole index into memory (a store must open in <= 30 ms
// at any size):
//   header 64 bytes: magic "LGHNSW\0\2", u32 dim, u32 M, u32 maxM0, u32 entry,
//     i32 max level, u64 nodes, u64 upper words
//   u32[nodes]                   node -> dense id (label)
//   u8[nodes] (padded to 8)      level of each node
//   u64[nodes]                   offset of a node's upper-level links (u32 units)
//   u32[nodes][1 + maxM0]        level-0 links: count, neighbours
//   u32[upper words]             per node with level >= 1, for each level
//                                1..level: count, maxM slots
// Search is the HNSW algorithm (greedy descent through upper levels, beam of
// width ef at level 0) over these arrays, reading vectors from the VectorFile
// by label. Every link and label is read through the checked file, so a
// damaged index ends the search (status()) instead of walking out of bounds.
// The hnswlib index itself is kept beside it (<name>.hnswlib, its saved
// bytes as the payload) so new vectors can be added without rebuilding
// (embed --missing); it is verified in full before hnswlib reads it.
#pragma once

#include <cstdint>
#include <functional>
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
  uint64_t rows_ = 0, present_ = 0;
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

// Builds the index over the present rows of `vectors` and writes both
// <name>.hnswlib and <name>.hnsw into `out`. With `base` (a generation
// holding <name>.hnswlib over the same vectors' earlier rows) the index is
// extended rather than rebuilt; rows in `changed` (their vectors differ from
// the base's) are re-linked in place.
Status BuildHnsw(const VectorFile& vectors, GenerationBuilder* out, const std::string& name,
                 const HnswBuildOptions& options, const GenerationView* base = nullptr,
                 const std::vector<uint64_t>& changed = {});

class HnswIndex {
 public:
  Status Open(const GenerationView& generation, const std::string& name, const VectorFile* vectors);
  uint64_t nodes() const { return nodes_; }
  // Top-k by inner product with a beam of width ef (>= k). Stops early on a
  // damaged index (status()).
  std::vector<VectorHit> Search(const float* query, size_t k, size_t ef) const;
  // The first damage a read met; ok when none.
  Status status() const { return file_.status(); }

 private:
  // Link list (count, then slots) of a node at level 0 / an upper level;
  // null when damaged.
  const uint32_t* Level0(uint32_t node) const;
  const uint32_t* Upper(uint32_t node, int level) const;
  bool Label(uint32_t node, uint32_t* label) const;
  int Level(uint32_t node) const;
  float Score(const float* q, uint32_t node) const;

  CheckedFile file_;
  const VectorFile* vectors_ = nullptr;
  int dim_ = 0, M_ = 0, maxM0_ = 0, max_level_ = 0;
  uint32_t entry_ = 0;
  uint64_t nodes_ = 0, upper_words_ = 0;
  uint64_t labels_at_ = 0, levels_at_ = 0, upper_off_at_ = 0, level0_at_ = 0, upper_at_ = 0;
};

// Exact top-k by scanning every present row (the baseline for recall).
std::vector<VectorHit> BruteForceSearch(const VectorFile& vectors, const float* query, size_t k);

}  // namespace litgraph
