// Files of the bounded-memory builds' sorted runs, shared by the lexical
// index's builder (lexical_build.cc) and the phrase counter
// (phrase_count.cc): sequential writes through a buffer, and a finished file
// copied into a checked file.
#pragma once

#include <fmt/format.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "litgraph/checked_file.h"
#include "litgraph/coding.h"
#include "litgraph/status.h"

namespace litgraph {

inline constexpr size_t kWriteBuffer = size_t{1} << 20;

inline Status ErrnoError(const std::string& path, const char* what) {
  return Status::IoError(fmt::format("{}: {}: {}", path, what, std::strerror(errno)));
}

// A region of a file written sequentially through a buffer; the first
// failure is kept.
class OutFile {
 public:
  OutFile() = default;
  OutFile(const OutFile&) = delete;
  OutFile& operator=(const OutFile&) = delete;
  ~OutFile() {
    if (f_) std::fclose(f_);
  }
  // Creates (truncates) path, or with `offset` writes into an existing file.
  Status Open(const std::string& path, int64_t offset = -1) {
    path_ = path;
    f_ = std::fopen(path.c_str(), offset < 0 ? "wb" : "r+b");
    if (!f_) return ErrnoError(path, "open");
    if (offset > 0 && fseeko(f_, offset, SEEK_SET) != 0) return ErrnoError(path, "seek");
    buf_.reserve(kWriteBuffer);
    return Status::Ok();
  }
  void Put(std::string_view bytes) {
    buf_.append(bytes);
    if (buf_.size() >= kWriteBuffer) Flush();
  }
  void Varint(uint64_t v) { PutVarint(v, &buf_); }
  template <typename T>
  void Raw(const T& v) {
    Put(std::string_view(reinterpret_cast<const char*>(&v), sizeof v));
  }
  uint64_t written() const { return flushed_ + buf_.size(); }
  Status Close() {
    Flush();
    if (f_ && std::fclose(f_) != 0 && status_.ok()) status_ = ErrnoError(path_, "write");
    f_ = nullptr;
    return status_;
  }

 private:
  void Flush() {
    if (!buf_.empty() && status_.ok() &&
        std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size())
      status_ = ErrnoError(path_, "write");
    flushed_ += buf_.size();
    buf_.clear();
  }
  std::string path_;
  FILE* f_ = nullptr;
  std::string buf_;
  uint64_t flushed_ = 0;
  Status status_;
};

// Appends the bytes of the file at `path` to *out.
inline Status AppendFile(const std::string& path, CheckedFileWriter* out) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return ErrnoError(path, "open");
  std::vector<char> buf(kWriteBuffer);
  Status st;
  while (st.ok()) {
    size_t got = std::fread(buf.data(), 1, buf.size(), f);
    if (got == 0) {
      if (std::ferror(f)) st = ErrnoError(path, "read");
      break;
    }
    st = out->Append(std::string_view(buf.data(), got));
  }
  std::fclose(f);
  return st;
}

}  // namespace litgraph
