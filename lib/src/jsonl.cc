#include "litgraph/jsonl.h"

#include <fmt/format.h>
#include <unistd.h>

#include <istream>
#include <limits>

#include "line_reader.h"
#include "litgraph/store.h"

namespace litgraph {

namespace {

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

using LineFn = std::function<Status(std::string_view, int64_t)>;

// Calls fn(line, line number) for each line of `reader`.
Status ForEachRawLine(LineReader& reader, const LineFn& fn) {
  std::string line;
  Status st;
  while (reader.Next(&line, std::numeric_limits<size_t>::max(), &st))
    LITGRAPH_RETURN_IF_ERROR(fn(line, reader.line_no()));
  return st;
}

// Calls fn(trimmed line, "NAME:LINE") for each non-blank line.
LineFn NonBlankLines(const std::string& name,
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
  LineReader reader;
  LITGRAPH_RETURN_IF_ERROR(reader.Open(path, /*gzip=*/false));
  return ForEachRawLine(reader, NonBlankLines(reader.name(), fn));
}

Status ForEachJsonLine(std::istream& in, const std::string& name,
                       const std::function<Status(Json&, const std::string&)>& fn) {
  auto parse = [&](std::string_view s, const std::string& where) {
    return ParseJsonObject(s, where, fn);
  };
  LineReader reader;
  reader.Open(&in, name);
  return ForEachRawLine(reader, NonBlankLines(name, parse));
}

Status ForEachJsonLineIn(const std::string& path,
                         const std::function<Status(Json&, const std::string&)>& fn) {
  return ForEachLineIn(path, [&](std::string_view s, const std::string& where) {
    return ParseJsonObject(s, where, fn);
  });
}

Result<std::string> ReadTextInput(const std::string& path) {
  LineReader reader;
  LITGRAPH_RETURN_IF_ERROR(reader.Open(path, /*gzip=*/false));
  std::string text;
  LITGRAPH_RETURN_IF_ERROR(ForEachRawLine(reader, [&](std::string_view line, int64_t) {
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
