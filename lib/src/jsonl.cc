#include "litgraph/jsonl.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <istream>
#include <vector>

#include "litgraph/store.h"

namespace litgraph {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

std::string_view Trim(std::string_view line) {
  size_t a = line.find_first_not_of(" \t");
  if (a == std::string_view::npos) return {};
  size_t b = line.find_last_not_of(" \t");
  return line.substr(a, b - a + 1);
}

std::function<void()>& TerminalInputNotice() {
  static std::function<void()> fn;
  return fn;
}

// Splits a stream of bytes into lines: a line ends at LF, CRLF or a lone CR,
// and a byte order mark at the start of the first line is dropped. Lines go
// out as soon as their end arrives (a pipe's reader answers line by line).
class LineSplitter {
 public:
  using Fn = std::function<Status(std::string_view, int64_t)>;
  explicit LineSplitter(const Fn& fn) : fn_(fn) {}

  Status Feed(std::string_view bytes) {
    while (!bytes.empty()) {
      if (after_cr_) {  // the LF of a CRLF whose CR ended the last line
        after_cr_ = false;
        if (bytes[0] == '\n') {
          bytes.remove_prefix(1);
          continue;
        }
      }
      const size_t end = bytes.find_first_of("\r\n");
      if (end == std::string_view::npos) {
        partial_.append(bytes);
        return Status::Ok();
      }
      after_cr_ = bytes[end] == '\r';
      if (partial_.empty()) {
        LITGRAPH_RETURN_IF_ERROR(Emit(bytes.substr(0, end)));
      } else {
        partial_.append(bytes.substr(0, end));
        LITGRAPH_RETURN_IF_ERROR(Emit(partial_));
        partial_.clear();
      }
      bytes.remove_prefix(end + 1);
    }
    return Status::Ok();
  }
  // The last line, when the input does not end with a line end.
  Status Finish() { return partial_.empty() ? Status::Ok() : Emit(partial_); }

 private:
  Status Emit(std::string_view line) {
    if (n_ == 0 && line.substr(0, kBom.size()) == kBom) line.remove_prefix(kBom.size());
    return fn_(line, ++n_);
  }
  const Fn& fn_;
  std::string partial_;
  bool after_cr_ = false;
  int64_t n_ = 0;
};

// An open input: a file, or standard input, read with read(2) (not through
// iostreams, whose standard input takes a byte at a time). IoError naming
// it when it is a directory or cannot be opened.
class Input {
 public:
  Input() = default;
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;
  ~Input() {
    if (fd_ > STDIN_FILENO) close(fd_);
  }

  Status Open(const std::string& path) {
    name_ = path == "-" ? "<stdin>" : path;
    if (path == "-") NoticeTerminalInput();
    fd_ = path == "-" ? STDIN_FILENO : open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0)
      return Status::IoError(fmt::format("{}: cannot open: {}", name_, std::strerror(errno)));
    struct stat sb;
    if (fstat(fd_, &sb) != 0)
      return Status::IoError(fmt::format("{}: cannot open: {}", name_, std::strerror(errno)));
    if (S_ISDIR(sb.st_mode)) return Status::IoError(fmt::format("{}: is a directory", name_));
    return Status::Ok();
  }
  const std::string& name() const { return name_; }

  // Calls fn(line, line number) for each line.
  Status ForEachRawLine(const LineSplitter::Fn& fn) {
    LineSplitter lines(fn);
    std::vector<char> buf(size_t{1} << 16);
    for (;;) {
      const ssize_t n = read(fd_, buf.data(), buf.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0)
        return Status::IoError(fmt::format("{}: read error: {}", name_, std::strerror(errno)));
      if (n == 0) return lines.Finish();
      LITGRAPH_RETURN_IF_ERROR(lines.Feed({buf.data(), static_cast<size_t>(n)}));
    }
  }

 private:
  std::string name_;
  int fd_ = -1;
};

// The lines of a stream (tests, fuzzing), as Input::ForEachRawLine.
Status ForEachRawLine(std::istream& in, const std::string& name, const LineSplitter::Fn& fn) {
  LineSplitter lines(fn);
  std::vector<char> buf(size_t{1} << 16);
  while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0)
    LITGRAPH_RETURN_IF_ERROR(lines.Feed({buf.data(), static_cast<size_t>(in.gcount())}));
  if (in.bad()) return Status::IoError(fmt::format("{}: read error", name));
  return lines.Finish();
}

// Calls fn(trimmed line, "NAME:LINE") for each non-blank line.
LineSplitter::Fn NonBlankLines(const std::string& name,
                               std::function<Status(std::string_view, const std::string&)> fn) {
  return [&name, fn = std::move(fn)](std::string_view line, int64_t n) -> Status {
    std::string_view s = Trim(line);
    if (s.empty()) return Status::Ok();
    return fn(s, fmt::format("{}:{}", name, n));
  };
}

Status ParseJsonObject(std::string_view s, const std::string& where,
                       const std::function<Status(Json&, const std::string&)>& fn) {
  Json j = Json::parse(s, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Status::MalformedInput(where + ": expected a JSON object");
  return fn(j, where);
}

}  // namespace

void SetTerminalInputNotice(std::function<void()> fn) { TerminalInputNotice() = std::move(fn); }

void NoticeTerminalInput() {
  if (TerminalInputNotice() && isatty(STDIN_FILENO)) TerminalInputNotice()();
}

Status ForEachLineIn(const std::string& path,
                     const std::function<Status(std::string_view, const std::string&)>& fn) {
  Input input;
  LITGRAPH_RETURN_IF_ERROR(input.Open(path));
  return input.ForEachRawLine(NonBlankLines(input.name(), fn));
}

Status ForEachJsonLine(std::istream& in, const std::string& name,
                       const std::function<Status(Json&, const std::string&)>& fn) {
  auto parse = [&](std::string_view s, const std::string& where) {
    return ParseJsonObject(s, where, fn);
  };
  return ForEachRawLine(in, name, NonBlankLines(name, parse));
}

Status ForEachJsonLineIn(const std::string& path,
                         const std::function<Status(Json&, const std::string&)>& fn) {
  return ForEachLineIn(path, [&](std::string_view s, const std::string& where) {
    return ParseJsonObject(s, where, fn);
  });
}

Result<std::string> ReadTextInput(const std::string& path) {
  Input input;
  LITGRAPH_RETURN_IF_ERROR(input.Open(path));
  std::string text;
  LITGRAPH_RETURN_IF_ERROR(input.ForEachRawLine([&](std::string_view line, int64_t) {
    text.append(line.data(), line.size());
    text += '\n';
    return Status::Ok();
  }));
  return text;
}

Status ForEachRecordIn(const std::string& path,
                       const std::function<Status(Json&, const std::string&)>& fn) {
  return ForEachLineIn(path, [&](std::string_view s, const std::string& where) -> Status {
    if (s[0] == '{') return ParseJsonObject(s, where, fn);
    Json j = {{"id", std::string(s)}};
    return fn(j, where);
  });
}

Status ForEachIdIn(
    const std::string& path,
    const std::function<Status(const std::string& id, const std::string& where)>& fn) {
  return ForEachRecordIn(path, [&](Json& j, const std::string& where) -> Status {
    if (!j.contains("id") || !j["id"].is_string())
      return Status::MalformedInput(where +
                                    ": expected an id or a JSON object with a string \"id\"");
    return fn(j["id"].get<std::string>(), where);
  });
}

Result<std::vector<int64_t>> ReadPaperIdList(Store* store, const std::string& path,
                                             std::vector<std::string>* missing) {
  std::vector<int64_t> ids;
  Status st = ForEachIdIn(path, [&](const std::string& id, const std::string&) -> Status {
    if (auto p = store->ResolvePaperId(id))
      ids.push_back(*p);
    else if (missing)
      missing->push_back(id);
    return Status::Ok();
  });
  if (!st.ok()) return st;
  return ids;
}

}  // namespace litgraph
