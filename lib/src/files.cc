#include "litgraph/files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace litgraph {

MappedFile::~MappedFile() {
  if (data_ && size_) munmap(const_cast<uint8_t*>(data_), size_);
}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    if (data_ && size_) munmap(const_cast<uint8_t*>(data_), size_);
    data_ = o.data_;
    size_ = o.size_;
    o.data_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

namespace {

constexpr size_t kHugePage = size_t{2} << 20;

// `bytes` of fresh anonymous memory (`prot`) at a 2 MiB boundary, or null:
// a span with room to align is mapped and what lies outside the aligned part
// given back (from the first page boundary past it: munmap takes a
// page-aligned address). Unmapped with munmap(p, bytes).
void* MapAligned(size_t bytes, int prot) {
  const size_t span = bytes + kHugePage;
  void* raw = mmap(nullptr, span, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw), end = start + span;
  const uintptr_t aligned = (start + kHugePage - 1) & ~uintptr_t{kHugePage - 1};
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t used = (aligned + bytes + page - 1) & ~(page - 1);
  if (aligned > start) munmap(raw, aligned - start);
  if (end > used) munmap(reinterpret_cast<void*>(used), end - used);
  return reinterpret_cast<void*>(aligned);
}

// Maps `size` bytes of `fd` read-only. A file of 2 MiB or more is mapped at
// a 2 MiB-aligned address with MADV_HUGEPAGE: a fault on it then reads the
// file into the page cache in 2 MiB folios, where the default read-around
// leaves 4 KiB ones, and every later reader maps them in fewer, cheaper
// faults. On a 1M-work store whose page cache queries had filled, tri-search
// took 129.6 ms p50 against 165.4 ms with 4 KiB folios, and the page checks
// cost it +3.0% (four runs pooled) against +4.7-5.0%. The first query on a
// cold cache reads more: 1.9-2.2 s against 1.4-1.8 s
// (bench/results/2026-11-27-folios).
// LITGRAPH_HUGE_MAPS=0 maps plainly (the man pages: a store much larger than
// memory, read at random on a cold cache, may do better so).
void* MapReadOnly(int fd, size_t size) {
  static const bool huge = [] {
    const char* v = std::getenv("LITGRAPH_HUGE_MAPS");
    return !(v && std::string_view(v) == "0");
  }();
  void* at = huge && size >= kHugePage ? MapAligned(size, PROT_NONE) : nullptr;
  if (!at) return mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  // The file over the reserved range (MAP_FIXED replaces it).
  void* p = mmap(at, size, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
  if (p == MAP_FAILED) {
    munmap(at, size);
    return mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  }
  madvise(p, size, MADV_HUGEPAGE);  // advice: failure is harmless
  return p;
}

}  // namespace

void MappedFile::Release(size_t offset, size_t len) const {
  if (!data_ || offset >= size_) return;
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<uintptr_t>(data_) + offset;
  const uintptr_t end = reinterpret_cast<uintptr_t>(data_) + std::min(size_, offset + len);
  const uintptr_t a = (begin + page - 1) / page * page, b = end / page * page;
  if (a < b) madvise(reinterpret_cast<void*>(a), b - a, MADV_DONTNEED);
}

Status MappedFile::Open(const std::string& path) {
  *this = MappedFile();  // a file opened before is unmapped, not leaked
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IoError(fmt::format("{}: {}", path, std::strerror(errno)));
  struct stat sb;
  if (fstat(fd, &sb) != 0) {
    close(fd);
    return Status::IoError(fmt::format("{}: {}", path, std::strerror(errno)));
  }
  size_ = static_cast<size_t>(sb.st_size);
  if (size_ > 0) {
    void* p = MapReadOnly(fd, size_);
    if (p == MAP_FAILED) {
      close(fd);
      size_ = 0;
      return Status::IoError(fmt::format("{}: mmap: {}", path, std::strerror(errno)));
    }
    data_ = static_cast<const uint8_t*>(p);
  }
  close(fd);
  return Status::Ok();
}

Status WriteFileAtomic(const std::string& path, std::string_view data) {
  std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) return Status::IoError(fmt::format("{}: {}", tmp, std::strerror(errno)));
  bool ok = data.empty() || std::fwrite(data.data(), 1, data.size(), f) == data.size();
  ok = std::fflush(f) == 0 && ok;
  ok = fsync(fileno(f)) == 0 && ok;
  ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return Status::IoError(fmt::format("{}: write failed: {}", path, std::strerror(errno)));
  }
  return Status::Ok();
}

int64_t FindSortedString(const uint64_t* offsets, const char* strings, uint64_t count,
                         std::string_view key) {
  int64_t lo = 0, hi = static_cast<int64_t>(count) - 1;
  while (lo <= hi) {
    int64_t mid = (lo + hi) / 2;
    std::string_view t(strings + offsets[mid], offsets[mid + 1] - offsets[mid]);
    int c = t.compare(key);
    if (c == 0) return mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

void FsyncDir(const std::string& dir) {
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    fsync(fd);
    close(fd);
  }
}

void* MapZeroed(size_t bytes, bool dense) {
  if (bytes == 0) return nullptr;
  void* p;
  if (!dense || bytes < kHugePage) {
    p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
             -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return p;
  }
  // Huge pages: aligned to 2 MiB, so that every page of the array can be one.
  p = MapAligned(bytes, PROT_READ | PROT_WRITE);
  if (!p) throw std::bad_alloc();
  madvise(p, bytes, MADV_HUGEPAGE);  // advice: failure is harmless
  return p;
}

void UnmapZeroed(void* p, size_t bytes) {
  if (p && bytes) munmap(p, bytes);
}

}  // namespace litgraph
