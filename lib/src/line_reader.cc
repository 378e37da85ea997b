#include "line_reader.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>

#include "litgraph/jsonl.h"

namespace litgraph {

namespace {
constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr size_t kBlock = size_t{1} << 20;  // gzip: zlib's buffer too
constexpr size_t kStreamBlock = size_t{1} << 16;
}  // namespace

LineReader::~LineReader() {
  if (gz_)
    gzclose(gz_);  // closes fd_ too
  else if (own_fd_)
    close(fd_);
}

Status LineReader::Open(const std::string& path, bool gzip) {
  name_ = path == "-" ? "<stdin>" : path;
  if (path == "-") NoticeTerminalInput();
  const bool own = path != "-" || gzip;  // gzclose closes what it reads
  int fd = path == "-" ? (gzip ? dup(STDIN_FILENO) : STDIN_FILENO)
                       : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Status::IoError(fmt::format("{}: cannot open: {}", name_, std::strerror(errno)));
  fd_ = fd;
  own_fd_ = own;
  struct stat sb;
  if (fstat(fd_, &sb) != 0)
    return Status::IoError(fmt::format("{}: cannot open: {}", name_, std::strerror(errno)));
  if (S_ISDIR(sb.st_mode)) return Status::IoError(fmt::format("{}: is a directory", name_));
  if (gzip) {
    gz_ = gzdopen(fd_, "rb");
    if (!gz_) return Status::IoError(fmt::format("{}: cannot open", name_));
    gzbuffer(gz_, kBlock);
  }
  buf_.resize(gzip ? kBlock : kStreamBlock);
  return Status::Ok();
}

void LineReader::Open(std::istream* in, std::string name) {
  name_ = std::move(name);
  in_ = in;
  buf_.resize(kStreamBlock);
}

int64_t LineReader::Fill(Status* st) {
  if (gz_) {
    const int n = gzread(gz_, buf_.data(), static_cast<unsigned>(buf_.size()));
    int err = Z_OK;
    const char* msg = n <= 0 ? gzerror(gz_, &err) : "";
    if (n < 0) {
      *st = err == Z_DATA_ERROR || err == Z_BUF_ERROR
                ? Status::MalformedInput(
                      fmt::format("{}:{}: corrupt gzip data: {}", name_, line_no_ + 1, msg))
                : Status::IoError(fmt::format("{}: read error: {}", name_, msg));
      return -1;
    }
    if (n == 0 && err == Z_BUF_ERROR) {  // input ended inside a gzip stream
      *st = Status::MalformedInput(
          fmt::format("{}:{}: truncated gzip stream ({})", name_, line_no_ + 1, msg));
      return -1;
    }
    return n;
  }
  if (in_) {
    in_->read(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    if (in_->bad()) {
      *st = Status::IoError(fmt::format("{}: read error", name_));
      return -1;
    }
    return in_->gcount();
  }
  for (;;) {
    const ssize_t n = read(fd_, buf_.data(), buf_.size());
    if (n >= 0) return n;
    if (errno != EINTR) {
      *st = Status::IoError(fmt::format("{}: read error: {}", name_, std::strerror(errno)));
      return -1;
    }
  }
}

bool LineReader::Next(std::string* line, size_t max_bytes, Status* st) {
  line->clear();
  for (;;) {
    if (pos_ == len_) {
      if (eof_) {
        if (line->empty()) return false;
        break;
      }
      const int64_t n = Fill(st);
      if (n < 0) return false;
      if (n == 0) {
        eof_ = true;
        continue;
      }
      pos_ = 0;
      len_ = static_cast<size_t>(n);
      bytes_ += n;
    }
    if (after_cr_) {  // the LF of a CRLF whose CR ended the last line
      after_cr_ = false;
      if (buf_[pos_] == '\n' && ++pos_ == len_) continue;
    }
    const char* start = buf_.data() + pos_;
    const char* nl = static_cast<const char*>(std::memchr(start, '\n', len_ - pos_));
    size_t take = nl ? nl - start : len_ - pos_;
    // A CR ends a line too (CRLF, or a lone CR): a second, short search,
    // bounded by the LF found.
    if (const void* cr = std::memchr(start, '\r', take)) {
      nl = static_cast<const char*>(cr);
      take = nl - start;
      after_cr_ = true;
    }
    if (line->size() + take > max_bytes) {
      *st = Status::MalformedInput(
          fmt::format("{}:{}: line longer than {} bytes", name_, line_no_ + 1, max_bytes));
      return false;
    }
    line->append(start, take);
    pos_ += take;
    if (nl) {
      ++pos_;
      break;
    }
  }
  if (line_no_++ == 0 && std::string_view(*line).substr(0, kBom.size()) == kBom)
    line->erase(0, kBom.size());
  return true;
}

}  // namespace litgraph
