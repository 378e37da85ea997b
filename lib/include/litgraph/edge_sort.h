// Edges sorted in bounded memory: the graph build's external sort.
//
// An EdgeSorter collects (src, dst, attr) triples of one relation direction
// in a buffer of at most `budget` bytes. A full buffer is sorted (counting
// sort by source over the source id space, then each source's edges by
// (dst, attr)) and spilled to a run file; reading merges the runs (a k-way
// merge through a heap, a read buffer per run). A sorter that never filled
// its buffer sorts in memory and touches no file. Either way the edges come
// out in ascending (src, dst, attr) order, so the files built from them do
// not depend on the budget.
//
// Memory: the buffer (12 bytes per edge), plus while spilling 4 bytes per
// source id of the relation's id space (the counting sort). While reading,
// the buffer is gone and the runs' read buffers share the budget: budget /
// runs each, at most kReadBuffer, at least kMinReadBuffer (so more than
// budget / kMinReadBuffer runs take kMinReadBuffer each). Disk: 12 bytes
// per spilled edge, in `dir`, removed when the sorter goes.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "litgraph/status.h"

namespace litgraph {

struct Edge {
  uint32_t src, dst, attr;
};

class EdgeSorter {
 public:
  static constexpr size_t kReadBuffer = 1 << 20, kMinReadBuffer = 4 << 10;

  // Run files go to dir/<prefix>.<k>.run; sources are ids [0, sources).
  EdgeSorter(std::string dir, std::string prefix, uint64_t sources, size_t budget);
  ~EdgeSorter();
  EdgeSorter(EdgeSorter&&) noexcept;
  EdgeSorter& operator=(EdgeSorter&&) noexcept;

  void Add(uint32_t src, uint32_t dst, uint32_t attr = 0) {
    buffer_.push_back({src, dst, attr});
    if (buffer_.size() >= capacity_) Spill();
  }
  uint64_t size() const { return spilled_ + buffer_.size(); }
  size_t runs() const { return runs_.size(); }
  // The first failure to write a run (a full disk), or ok.
  const Status& status() const { return status_; }

  // Reads the edges in ascending (src, dst, attr) order; may be called again
  // for another pass. Next() returns null at the end (or on a read error:
  // see status()).
  class Reader {
   public:
    ~Reader();
    Reader(Reader&&) noexcept;
    const Edge* Next();
    const Status& status() const { return status_; }

   private:
    friend class EdgeSorter;
    struct Run;
    Reader() = default;
    const std::vector<Edge>* memory_ = nullptr;
    size_t at_ = 0;
    std::vector<std::unique_ptr<Run>> runs_;
    std::vector<uint32_t> heap_;  // run indexes, smallest head first
    Edge current_{};
    size_t chunk_ = 0;  // edges per read of a run
    Status status_;
  };
  Reader Read();

 private:
  void Spill();
  void SortBuffer();
  std::string dir_, prefix_;
  uint64_t sources_ = 0;
  size_t capacity_ = 0;
  std::vector<Edge> buffer_;
  bool sorted_ = false;
  std::vector<std::string> runs_;
  uint64_t spilled_ = 0;
  Status status_;
};

}  // namespace litgraph
