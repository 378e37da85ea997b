// Checked files: how every derived file of a store is written and read, so
// that damage, a missing file or a file from elsewhere is an error naming
// the file, never a wrong answer or a crash.
//
// A checked file is a format's own bytes (the payload) followed by a table
// of page hashes and a footer:
//
//   payload  the format's bytes (adjacency, postings, vectors, ...)
//   pages    u64 XXH3 (seeded with the page number) of each payload page
//            (512 B to 64 KiB, the writer's choice), the last page short
//   footer   64 bytes: char[8] magic "LGCHK\0\0\1", u8[16] store id,
//            u64 build (the generation that wrote the file), u64 name hash
//            (XXH3 of the file's name in its generation, "cites.out.adj"),
//            u64 payload bytes, u32 page shift (9 to 16), u32 reserved,
//            u64 XXH3 of the 56 bytes before it
//
// Opening maps the file and checks the footer against the identity the
// reader expects (the store, the build the generation's manifest names, the
// name): O(1) whatever the size, and a file copied from another store,
// another generation or another relation is refused. Each payload page is
// verified the first time it is read (Read()); a damaged page makes Read()
// return null and latches a Corruption status naming the file. Pages are
// 512 bytes: queries read a few bytes at random places (a vector row, a
// probe of a binary search over sorted strings, a node's offset), and a read
// verifies the whole page around it. With 4 KiB pages (the first stores'
// size, still read) the check cost a 1M-work tri-search +9.8% p50, with
// 512-byte pages +8.5%, other queries <= 5%
// (bench/results/2026-11-25-reliability/checksum-cost-1m.md). A read inside
// one verified page is an inline bit test, and pages hash with libxxhash's
// AVX2 dispatch (bench/results/2026-11-26-reliability/README.md). With the
// page cache in 2 MiB folios (MappedFile) tri-search pays +3.0%
// (bench/results/2026-11-27-folios). The hash table is 1.6% of the payload.
//
// Writers stream the payload; the first page stays in memory until Finish()
// so a format can fill in its header last (PatchHeader). Files are written to
// <path>.tmp, fsynced and renamed into place, in writes of 2 MiB at 2 MiB
// boundaries (the first 2 MiB, holding the header, at Finish): the page cache
// then holds a new file in 2 MiB folios, which a reader's huge-page mapping
// (files.h) maps with one fault each. Written in smaller pieces, a file the
// update had just made was cached in small folios, and a tri-search on it took
// a page fault per vector row it read: 16,500 faults and 137-190 ms at 1M works
// against 4,200 and 77-80 ms once the files were read back in 2 MiB folios
// (bench/results/2026-11-28-fresh-process).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "litgraph/files.h"
#include "litgraph/status.h"

namespace litgraph {

using StoreId = std::array<uint8_t, 16>;

// What a checked file must be: written for this store, by this build, under
// this name.
struct FileIdentity {
  StoreId store{};
  uint64_t build = 0;
  std::string name;
};

inline constexpr uint32_t kCheckedPageShift = 9;  // 512-byte pages, what writers use
// Page sizes a reader accepts (the first stores wrote 4 KiB pages, shift 12).
inline constexpr uint32_t kCheckedMinPageShift = 9, kCheckedMaxPageShift = 16;
inline constexpr size_t kCheckedFooterSize = 64;

// XXH3 64-bit of bytes (seeded), for checked files and manifests.
uint64_t Hash64(std::string_view bytes, uint64_t seed = 0);

class CheckedFile {
 public:
  CheckedFile() = default;
  CheckedFile(const CheckedFile&) = delete;
  CheckedFile& operator=(const CheckedFile&) = delete;

  // Maps `path` and checks its footer against `expect`. Corruption when the
  // footer is damaged or names another store, build or file; IoError when
  // the file cannot be opened (a missing file included).
  Status Open(const std::string& path, const FileIdentity& expect);

  const std::string& path() const { return path_; }
  uint64_t size() const { return payload_; }  // payload bytes
  uint32_t page_shift() const { return page_shift_; }
  // The payload bytes [offset, offset + len), each page they cover verified
  // once; null when the range is outside the payload or a page is damaged
  // (latched in status()). Thread-safe.
  // The common case, a read inside one page already verified, is inline.
  const uint8_t* Read(uint64_t offset, uint64_t len) const {
    if (offset <= payload_ && len - 1 < payload_ - offset) {
      const uint64_t page = offset >> page_shift_;
      if (page == (offset + len - 1) >> page_shift_ && Verified(page)) return file_.data() + offset;
    }
    return ReadVerifying(offset, len);
  }
  // A hint: starts loading the payload byte at `offset` into the cache (no
  // check, nothing read; a later Read verifies).
  void Prefetch(uint64_t offset) const {
    if (offset < payload_) __builtin_prefetch(file_.data() + offset);
  }
  // Drops this process's mapping of payload bytes [offset, offset + len)
  // (MappedFile::Release): a build that read them once. Reads stay valid.
  void Release(uint64_t offset, uint64_t len) const { file_.Release(offset, len); }
  // Verifies every page now (tests, `litgraph verify`).
  Status VerifyAll() const;
  // The first damage a read met; ok when none.
  Status status() const;

 private:
  bool Verified(uint64_t page) const {
    return verified_[page / 64].load(std::memory_order_relaxed) >> (page % 64) & 1;
  }
  const uint8_t* ReadVerifying(uint64_t offset, uint64_t len) const;
  bool VerifyPage(uint64_t page) const;  // Verified(page), or hashes it
  MappedFile file_;
  std::string path_;
  uint64_t payload_ = 0, pages_ = 0;
  uint32_t page_shift_ = kCheckedPageShift;
  const uint64_t* hashes_ = nullptr;
  // One bit per page, calloc'd: a large allocation is mapped zero pages, so
  // opening a big file does not write its whole bitmap.
  struct FreeBits {
    void operator()(std::atomic<uint64_t>* p) const;
  };
  std::unique_ptr<std::atomic<uint64_t>[], FreeBits> verified_;
  mutable std::atomic<bool> damaged_{false};
};

// Writes a checked file. Append the payload, optionally PatchHeader (bytes
// within the first page), then Finish. A writer that is destroyed without
// Finish leaves nothing behind.
class CheckedFileWriter {
 public:
  CheckedFileWriter() = default;
  ~CheckedFileWriter();
  CheckedFileWriter(const CheckedFileWriter&) = delete;
  CheckedFileWriter& operator=(const CheckedFileWriter&) = delete;

  // page_shift: log2 of the page size, kCheckedMinPageShift to
  // kCheckedMaxPageShift.
  Status Open(const std::string& path, const FileIdentity& id,
              uint32_t page_shift = kCheckedPageShift);
  Status Append(std::string_view bytes);
  // Overwrites payload bytes [offset, offset + bytes.size()) inside the first
  // page (a header the format fills in last; 512 bytes at least).
  Status PatchHeader(uint64_t offset, std::string_view bytes);
  uint64_t size() const { return size_; }  // payload bytes so far
  Status Finish();

 private:
  Status Flush(bool last);
  Status WriteAt(std::string_view bytes, uint64_t at);
  uint64_t page() const { return uint64_t{1} << page_shift_; }  // bytes
  std::string path_, tmp_;
  FileIdentity id_;
  uint32_t page_shift_ = kCheckedPageShift;
  int fd_ = -1;
  uint64_t size_ = 0;    // payload bytes appended
  std::string head_;     // the first 2 MiB (the header's page among them): written at Finish
  std::string pending_;  // the bytes after them not yet written
  std::string hashes_;   // u64 per page written (the head's are made at Finish)
};

// Binary search in a checked file's table of sorted strings: string i is the
// bytes [strings_at + off[i], strings_at + off[i + 1]) of the payload, with
// off the u64 array at offsets_at. The string's index, or -1 (also when the
// table is damaged: see the file's status()).
int64_t FindSortedString(const CheckedFile& f, uint64_t offsets_at, uint64_t strings_at,
                         uint64_t count, std::string_view key);

// Writes `payload` as a checked file in one call.
Status WriteCheckedFile(const std::string& path, const FileIdentity& id, std::string_view payload,
                        uint32_t page_shift = kCheckedPageShift);

}  // namespace litgraph
