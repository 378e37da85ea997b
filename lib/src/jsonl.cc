#include "litgraph/jsonl.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "litgraph/store.h"

namespace litgraph {

namespace {

// The line without a leading BOM (first line) and trailing CR, trimmed of
// blanks at both ends.
std::string_view Clean(std::string_view line, bool first) {
  if (first && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
  size_t a = line.find_first_not_of(" \t\r");
  if (a == std::string_view::npos) return {};
  size_t b = line.find_last_not_of(" \t\r");
  return line.substr(a, b - a + 1);
}

// Reads lines of `path` ("-" = stdin) into fn(cleaned line, where).
Status ForEachLineIn(const std::string& path,
                     const std::function<Status(std::string_view, const std::string&)>& fn) {
  std::ifstream file;
  std::istream* in = &std::cin;
  const std::string name = path == "-" ? "<stdin>" : path;
  if (path != "-") {
    struct stat sb;
    if (stat(path.c_str(), &sb) == 0 && S_ISDIR(sb.st_mode))
      return Status::IoError(fmt::format("{}: is a directory", path));
    file.open(path);
    if (!file)
      return Status::IoError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
    in = &file;
  }
  std::string line;
  for (int64_t n = 1; std::getline(*in, line); ++n) {
    std::string_view s = Clean(line, n == 1);
    if (s.empty()) continue;
    LITGRAPH_RETURN_IF_ERROR(fn(s, fmt::format("{}:{}", name, n)));
  }
  return Status::Ok();
}

}  // namespace

Status ForEachJsonLine(std::istream& in, const std::string& name,
                       const std::function<Status(Json&, const std::string&)>& fn) {
  std::string line;
  for (int64_t n = 1; std::getline(in, line); ++n) {
    std::string_view s = Clean(line, n == 1);
    if (s.empty()) continue;
    std::string where = fmt::format("{}:{}", name, n);
    Json j = Json::parse(s, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      return Status::MalformedInput(where + ": expected a JSON object");
    LITGRAPH_RETURN_IF_ERROR(fn(j, where));
  }
  return Status::Ok();
}

Status ForEachJsonLineIn(const std::string& path,
                         const std::function<Status(Json&, const std::string&)>& fn) {
  return ForEachLineIn(path, [&](std::string_view s, const std::string& where) -> Status {
    Json j = Json::parse(s, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      return Status::MalformedInput(where + ": expected a JSON object");
    return fn(j, where);
  });
}

Result<std::vector<int64_t>> ReadPaperIdList(Store* store, const std::string& path,
                                             std::vector<std::string>* missing) {
  std::vector<int64_t> ids;
  Status st = ForEachLineIn(path, [&](std::string_view s, const std::string& where) -> Status {
    std::string id(s);
    if (id[0] == '{') {
      Json j = Json::parse(id, nullptr, false);
      if (j.is_discarded() || !j.contains("id") || !j["id"].is_string())
        return Status::MalformedInput(where +
                                      ": expected an id or a JSON object with a string \"id\"");
      id = j["id"].get<std::string>();
    }
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
