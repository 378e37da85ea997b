#include "litgraph/checked_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <xxhash.h>
#if defined(__x86_64__)
// libxxhash's runtime dispatch (AVX2 where the CPU has it, the same hashes):
// a 1M-work tri-search verifies ~30k pages, and the plain entry point
// (SSE2) spent ~650 instructions on each.
#include <xxh_x86dispatch.h>
#endif

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace litgraph {

namespace {

constexpr char kMagic[8] = {'L', 'G', 'C', 'H', 'K', 0, 0, 1};
struct Footer {
  char magic[8];
  uint8_t store[16];
  uint64_t build;
  uint64_t name_hash;
  uint64_t payload;
  uint32_t page_shift;
  uint32_t reserved;
  uint64_t hash;  // of the 56 bytes before it
};
static_assert(sizeof(Footer) == kCheckedFooterSize);

uint64_t TableOffset(uint64_t payload) { return (payload + 7) & ~uint64_t{7}; }
uint64_t PageCount(uint64_t payload, uint32_t shift) {
  return (payload + (uint64_t{1} << shift) - 1) >> shift;
}

bool WriteAllAt(int fd, const void* data, size_t n, uint64_t offset) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = pwrite(fd, p, n, static_cast<off_t>(offset));
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
    offset += static_cast<uint64_t>(w);
  }
  return true;
}

// LITGRAPH_VERIFY_PAGES=0 turns the page check off (every page reads as
// verified): for measuring what it costs (bench/results/2026-11-23-reliability),
// never for use.
const bool kVerifyPages = [] {
  const char* v = std::getenv("LITGRAPH_VERIFY_PAGES");
  return !(v && std::string_view(v) == "0");
}();

}  // namespace

uint64_t Hash64(std::string_view bytes, uint64_t seed) {
#if defined(__x86_64__)
  return XXH3_64bits_withSeed_dispatch(bytes.data(), bytes.size(), seed);
#else
  return XXH3_64bits_withSeed(bytes.data(), bytes.size(), seed);
#endif
}

Status CheckedFile::Open(const std::string& path, const FileIdentity& expect) {
  // Opened again: nothing of the previous file stays (its mapping, its
  // verified pages, its damage).
  path_ = path;
  payload_ = pages_ = 0;
  page_shift_ = kCheckedPageShift;
  hashes_ = nullptr;
  verified_.reset();
  damaged_.store(false);
  LITGRAPH_RETURN_IF_ERROR(file_.Open(path));
  auto bad = [&](const char* what) {
    return Status::Corruption(fmt::format("{}: {}", path, what));
  };
  if (file_.size() < sizeof(Footer)) return bad("truncated (no footer)");
  Footer f;
  std::memcpy(&f, file_.data() + file_.size() - sizeof f, sizeof f);
  if (std::memcmp(f.magic, kMagic, 8) != 0) return bad("not a litgraph checked file");
  if (Hash64({reinterpret_cast<const char*>(&f), sizeof f - 8}) != f.hash)
    return bad("damaged footer");
  if (std::memcmp(f.store, expect.store.data(), 16) != 0) return bad("belongs to another store");
  if (f.build != expect.build)
    return bad(fmt::format("written by generation {}, the manifest names {}", f.build, expect.build)
                   .c_str());
  if (f.name_hash != Hash64(expect.name)) return bad(("is not " + expect.name).c_str());
  if (f.page_shift < kCheckedMinPageShift || f.page_shift > kCheckedMaxPageShift)
    return bad("unknown page size");
  const uint64_t pages = PageCount(f.payload, f.page_shift);
  if (f.payload > file_.size() || TableOffset(f.payload) + pages * 8 + sizeof f != file_.size())
    return bad("truncated or padded");
  payload_ = f.payload;
  pages_ = pages;
  page_shift_ = f.page_shift;
  hashes_ = reinterpret_cast<const uint64_t*>(file_.data() + TableOffset(payload_));
  // Zeroed words are valid atomics (lock-free, no other state).
  static_assert(std::atomic<uint64_t>::is_always_lock_free);
  const uint64_t words = (pages_ + 63) / 64 + 1;
  void* bits = std::calloc(words, sizeof(std::atomic<uint64_t>));
  if (!bits) return Status::IoError(path + ": out of memory for its page bitmap");
  verified_.reset(static_cast<std::atomic<uint64_t>*>(bits));
  if (!kVerifyPages)
    for (uint64_t i = 0; i < words; ++i) verified_[i].store(~uint64_t{0});
  return Status::Ok();
}

void CheckedFile::FreeBits::operator()(std::atomic<uint64_t>* p) const { std::free(p); }

bool CheckedFile::VerifyPage(uint64_t page) const {
  if (Verified(page)) return true;
  const uint64_t begin = page << page_shift_;
  const uint64_t len = std::min(uint64_t{1} << page_shift_, payload_ - begin);
  uint64_t want;
  std::memcpy(&want, hashes_ + page, 8);
  if (Hash64({reinterpret_cast<const char*>(file_.data() + begin), len}, page) != want) {
    damaged_.store(true);
    return false;
  }
  verified_[page / 64].fetch_or(uint64_t{1} << (page % 64), std::memory_order_relaxed);
  return true;
}

const uint8_t* CheckedFile::ReadVerifying(uint64_t offset, uint64_t len) const {
  if (offset > payload_ || len > payload_ - offset) {
    damaged_.store(true);
    return nullptr;
  }
  if (len > 0)
    for (uint64_t p = offset >> page_shift_; p <= (offset + len - 1) >> page_shift_; ++p)
      if (!VerifyPage(p)) return nullptr;
  return file_.data() + offset;
}

Status CheckedFile::VerifyAll() const {
  for (uint64_t p = 0; p < pages_; ++p)
    if (!VerifyPage(p)) break;
  return status();
}

Status CheckedFile::status() const {
  if (damaged_.load())
    return Status::Corruption(path_ +
                              ": damaged (a page fails its checksum, or a read ran past the end)");
  return Status::Ok();
}

CheckedFileWriter::~CheckedFileWriter() {
  if (fd_ >= 0) {
    close(fd_);
    unlink(tmp_.c_str());
  }
}

Status CheckedFileWriter::Open(const std::string& path, const FileIdentity& id,
                               uint32_t page_shift) {
  if (page_shift < kCheckedMinPageShift || page_shift > kCheckedMaxPageShift)
    return Status::Internal(fmt::format("{}: page shift {} out of range", path, page_shift));
  page_shift_ = page_shift;
  path_ = path;
  tmp_ = path + ".tmp";
  id_ = id;
  fd_ = open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) return Status::IoError(fmt::format("{}: {}", tmp_, std::strerror(errno)));
  return Status::Ok();
}

namespace {
// Writes go out in chunks of this size at multiples of it (see the header).
constexpr uint64_t kChunk = uint64_t{2} << 20;

// Appends to `table` the hash of each page of bytes at payload offset `at`
// (a page boundary), the last page short when the bytes end inside it.
void HashPages(std::string_view bytes, uint64_t at, uint32_t page_shift, std::string* table) {
  const size_t page = size_t{1} << page_shift;
  for (size_t off = 0; off < bytes.size(); off += page) {
    uint64_t h = Hash64(bytes.substr(off, page), (at + off) >> page_shift);
    table->append(reinterpret_cast<const char*>(&h), 8);
  }
}
}  // namespace

Status CheckedFileWriter::Append(std::string_view bytes) {
  if (size_ < kChunk) {  // the head stays in memory
    size_t take = std::min<size_t>(bytes.size(), kChunk - size_);
    head_.append(bytes.data(), take);
    size_ += take;
    bytes.remove_prefix(take);
  }
  if (!pending_.empty()) {  // complete the pending chunk first
    size_t take = std::min<size_t>(bytes.size(), kChunk - pending_.size());
    pending_.append(bytes.data(), take);
    size_ += take;
    bytes.remove_prefix(take);
    if (pending_.size() < kChunk) return Status::Ok();
    LITGRAPH_RETURN_IF_ERROR(Flush(false));
  }
  // Whole chunks go out from the caller's bytes, not copied (an index of
  // 740 MB appended at once was copied whole before).
  const size_t n = bytes.size() / kChunk * kChunk;
  LITGRAPH_RETURN_IF_ERROR(WriteAt(bytes.substr(0, n), size_));
  size_ += n;
  bytes.remove_prefix(n);
  pending_.append(bytes.data(), bytes.size());
  size_ += bytes.size();
  return Status::Ok();
}

// Writes bytes at payload offset `at` (a multiple of kChunk and of the page)
// and hashes their pages.
Status CheckedFileWriter::WriteAt(std::string_view bytes, uint64_t at) {
  if (!bytes.empty() && !WriteAllAt(fd_, bytes.data(), bytes.size(), at))
    return Status::IoError(fmt::format("{}: write failed: {}", tmp_, std::strerror(errno)));
  HashPages(bytes, at, page_shift_, &hashes_);
  return Status::Ok();
}

// Writes the pending whole chunks (every pending byte when `last`).
Status CheckedFileWriter::Flush(bool last) {
  const size_t n = last ? pending_.size() : pending_.size() / kChunk * kChunk;
  LITGRAPH_RETURN_IF_ERROR(WriteAt({pending_.data(), n}, size_ - pending_.size()));
  pending_.erase(0, n);
  return Status::Ok();
}

Status CheckedFileWriter::PatchHeader(uint64_t offset, std::string_view bytes) {
  if (offset + bytes.size() > std::min<uint64_t>(head_.size(), page()))
    return Status::Internal(fmt::format("{}: header patch outside the first page", path_));
  std::memcpy(head_.data() + offset, bytes.data(), bytes.size());
  return Status::Ok();
}

Status CheckedFileWriter::Finish() {
  LITGRAPH_RETURN_IF_ERROR(Flush(true));
  auto fail = [&] {
    return Status::IoError(fmt::format("{}: write failed: {}", tmp_, std::strerror(errno)));
  };
  if (!head_.empty() && !WriteAllAt(fd_, head_.data(), head_.size(), 0)) return fail();
  std::string table;
  HashPages(head_, 0, page_shift_, &table);
  table += hashes_;
  Footer f{};
  std::memcpy(f.magic, kMagic, 8);
  std::memcpy(f.store, id_.store.data(), 16);
  f.build = id_.build;
  f.name_hash = Hash64(id_.name);
  f.payload = size_;
  f.page_shift = page_shift_;
  f.hash = Hash64({reinterpret_cast<const char*>(&f), sizeof f - 8});
  table.append(reinterpret_cast<const char*>(&f), sizeof f);
  if (!WriteAllAt(fd_, table.data(), table.size(), TableOffset(size_))) return fail();
  if (TableOffset(size_) > size_) {  // zero padding before the table
    static const char zeros[8] = {};
    if (!WriteAllAt(fd_, zeros, TableOffset(size_) - size_, size_)) return fail();
  }
  if (fsync(fd_) != 0) return fail();
  close(fd_);
  fd_ = -1;
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    unlink(tmp_.c_str());
    return Status::IoError(fmt::format("{}: rename failed: {}", path_, std::strerror(errno)));
  }
  return Status::Ok();
}

int64_t FindSortedString(const CheckedFile& f, uint64_t offsets_at, uint64_t strings_at,
                         uint64_t count, std::string_view key) {
  int64_t lo = 0, hi = static_cast<int64_t>(count) - 1;
  while (lo <= hi) {
    int64_t mid = (lo + hi) / 2;
    const uint8_t* o = f.Read(offsets_at + static_cast<uint64_t>(mid) * 8, 16);
    if (!o) return -1;
    uint64_t a, b;
    std::memcpy(&a, o, 8);
    std::memcpy(&b, o + 8, 8);
    if (b < a) return -1;
    const uint8_t* s = f.Read(strings_at + a, b - a);
    if (!s) return -1;
    int c = std::string_view(reinterpret_cast<const char*>(s), b - a).compare(key);
    if (c == 0) return mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

Status WriteCheckedFile(const std::string& path, const FileIdentity& id, std::string_view payload,
                        uint32_t page_shift) {
  CheckedFileWriter w;
  LITGRAPH_RETURN_IF_ERROR(w.Open(path, id, page_shift));
  LITGRAPH_RETURN_IF_ERROR(w.Append(payload));
  return w.Finish();
}

}  // namespace litgraph
