// JSON lines in: the one reader every tool uses for records on standard
// input or in a file, and the paper-id lists that --candidates reads.
//
// A JSON-lines input holds one value per line; blank lines are skipped, a
// UTF-8 byte order mark at the start and CR before LF are accepted. Errors
// name the input and line ("<stdin>:3: ...") and are MalformedInput.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "litgraph/status.h"

namespace litgraph {

using Json = nlohmann::ordered_json;

class Store;

// Calls fn(record, where) for each JSON object of `in` ("where" is
// "NAME:LINE", for messages); stops at fn's first error. A line that is not a
// JSON object is MalformedInput.
Status ForEachJsonLine(std::istream& in, const std::string& name,
                       const std::function<Status(Json& record, const std::string& where)>& fn);

// Opens `path` ("-" = standard input) and reads it as above; IoError when it
// cannot be opened or is a directory.
Status ForEachJsonLineIn(const std::string& path,
                         const std::function<Status(Json& record, const std::string& where)>& fn);

// Reads paper ids from a file ("-" = stdin): one id / DOI per line, or JSON
// lines with an "id" field. Ids not in the store are reported through
// *missing (may be null) and skipped; MalformedInput for a malformed line.
Result<std::vector<int64_t>> ReadPaperIdList(Store* store, const std::string& path,
                                             std::vector<std::string>* missing);

}  // namespace litgraph
