#include "litgraph/jsonl.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

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

// An open input: a file, or standard input. IoError naming it when it is a
// directory or cannot be opened.
class Input {
 public:
  Status Open(const std::string& path) {
    name_ = path == "-" ? "<stdin>" : path;
    if (path == "-") NoticeTerminalInput();
    struct stat sb;
    const int r = path == "-" ? fstat(STDIN_FILENO, &sb) : stat(path.c_str(), &sb);
    if (r != 0)
      return Status::IoError(fmt::format("{}: cannot open: {}", name_, std::strerror(errno)));
    if (S_ISDIR(sb.st_mode)) return Status::IoError(fmt::format("{}: is a directory", name_));
    if (path == "-") return Status::Ok();
    file_.open(path, std::ios::binary);
    if (!file_)
      return Status::IoError(fmt::format("{}: cannot open: {}", name_, std::strerror(errno)));
    in_ = &file_;
    return Status::Ok();
  }
  std::istream& in() { return *in_; }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::ifstream file_;
  std::istream* in_ = &std::cin;
};

// IoError when reading `in` failed (not at its end). Standard input reads
// through stdio, which keeps its error flag to itself.
Status ReadStatus(std::istream& in, const std::string& name) {
  if (in.bad() || (&in == &std::cin && std::ferror(stdin)))
    return Status::IoError(fmt::format("{}: read error", name));
  return Status::Ok();
}

// Calls fn(line, line number) for each line of `in`: a line ends at LF, CRLF
// or a lone CR, and a byte order mark at the start is dropped.
Status ForEachRawLine(std::istream& in, const std::string& name,
                      const std::function<Status(std::string_view, int64_t)>& fn) {
  std::string chunk;
  int64_t n = 0;
  while (std::getline(in, chunk)) {
    std::string_view rest(chunk);
    if (n == 0 && rest.substr(0, kBom.size()) == kBom) rest.remove_prefix(kBom.size());
    // A chunk ends at LF; CRs inside it end lines too (CR-only line ends),
    // and a CR right before the LF belongs to that LF.
    for (;;) {
      size_t cr = rest.find('\r');
      LITGRAPH_RETURN_IF_ERROR(fn(rest.substr(0, cr), ++n));
      if (cr == std::string_view::npos) break;
      rest.remove_prefix(cr + 1);
      if (rest.empty()) break;
    }
  }
  return ReadStatus(in, name);
}

Status ForEachLine(std::istream& in, const std::string& name,
                   const std::function<Status(std::string_view, const std::string&)>& fn) {
  return ForEachRawLine(in, name, [&](std::string_view line, int64_t n) -> Status {
    std::string_view s = Trim(line);
    if (s.empty()) return Status::Ok();
    return fn(s, fmt::format("{}:{}", name, n));
  });
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
  return ForEachLine(input.in(), input.name(), fn);
}

Status ForEachJsonLine(std::istream& in, const std::string& name,
                       const std::function<Status(Json&, const std::string&)>& fn) {
  return ForEachLine(in, name, [&](std::string_view s, const std::string& where) {
    return ParseJsonObject(s, where, fn);
  });
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
  LITGRAPH_RETURN_IF_ERROR(
      ForEachRawLine(input.in(), input.name(), [&](std::string_view line, int64_t) {
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
