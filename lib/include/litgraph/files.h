// File helpers for the derived, memory-mapped store files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "litgraph/status.h"

namespace litgraph {

// A read-only memory-mapped file. Opening costs O(1) whatever the size. A
// file of 2 MiB or more is mapped at a 2 MiB boundary with huge-page advice,
// so the page cache reads it in 2 MiB folios (files.cc says what it saves).
class MappedFile {
 public:
  MappedFile() = default;
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  MappedFile(MappedFile&& o) noexcept : data_(o.data_), size_(o.size_) {
    o.data_ = nullptr;
    o.size_ = 0;
  }
  MappedFile& operator=(MappedFile&& o) noexcept;
  Status Open(const std::string& path);
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  // Drops the process's mapping of the whole pages inside [offset, offset +
  // len): the file's pages stay in the page cache, no longer counted in this
  // process's RSS, and a later read maps them again. For a build that reads
  // a big file once, front to back.
  void Release(size_t offset, size_t len) const;

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// Releases a mapping behind a reader that moves forward through it, so a file
// read once does not pile up in the RSS: At(pos) calls release(from, pos)
// once pos is `step` past the last release. A position before the last
// release starts another pass: everything is released and counted afresh.
// Positions are the caller's units (bytes of a MappedFile, rows of a
// VectorFile); release(0, UINT64_MAX) means all of it.
class ReleaseBehind {
 public:
  ReleaseBehind(uint64_t step, std::function<void(uint64_t, uint64_t)> release)
      : step_(step), release_(std::move(release)) {}
  void At(uint64_t pos) {
    if (pos < done_) All();
    if (pos >= done_ + step_) {
      release_(done_, pos);
      done_ = pos;
    }
  }
  void All() {
    release_(0, UINT64_MAX);
    done_ = 0;
  }

 private:
  uint64_t step_, done_ = 0;
  std::function<void(uint64_t, uint64_t)> release_;
};

// Writes path + ".tmp", fsyncs it and renames it over path.
Status WriteFileAtomic(const std::string& path, std::string_view data);

// Binary search in a mapped table of sorted strings: string i is
// strings[offsets[i] .. offsets[i + 1]). Returns its index or -1.
int64_t FindSortedString(const uint64_t* offsets, const char* strings, uint64_t count,
                         std::string_view key);

// fsync() of a directory, so renames inside it are durable.
void FsyncDir(const std::string& dir);

// A zero-filled scratch array from anonymous memory: pages are zeroed by the
// kernel on first touch, so a huge, sparsely used array costs only the pages
// a query touches (a bitmap over an HNSW graph's nodes). `dense`: the caller
// expects to touch most pages, so the array asks for transparent huge pages:
// one fault per 2 MiB instead of 512 (the BM25 accumulator, before it was
// cut into tiles: bench/results/2026-11-22-hybrid/summary.md).
template <typename T>
class ZeroedArray {
 public:
  explicit ZeroedArray(size_t n, bool dense = false);
  ~ZeroedArray();
  ZeroedArray(const ZeroedArray&) = delete;
  ZeroedArray& operator=(const ZeroedArray&) = delete;
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  size_t size() const { return n_; }

 private:
  T* data_ = nullptr;
  size_t n_ = 0;
};

void* MapZeroed(size_t bytes, bool dense = false);
void UnmapZeroed(void* p, size_t bytes);

template <typename T>
ZeroedArray<T>::ZeroedArray(size_t n, bool dense)
    : data_(static_cast<T*>(MapZeroed(n * sizeof(T), dense))), n_(n) {}
template <typename T>
ZeroedArray<T>::~ZeroedArray() {
  UnmapZeroed(data_, n_ * sizeof(T));
}

}  // namespace litgraph
