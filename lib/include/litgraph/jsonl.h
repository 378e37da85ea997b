// Input for the tools: the one reader of JSON lines on standard input or in
// a file, the paper-id lists that --candidates reads, and the text inputs of
// other options (--file, --config).
//
// Every input is a path or "-" (standard input, named "<stdin>" in
// messages). A directory, a missing or unreadable file and a failing read
// are IoError naming the input. Lines end at LF, CRLF or a lone CR; a UTF-8
// byte order mark at the start is skipped; blank lines are skipped. Errors
// about a line name the input and line ("<stdin>:3: ...") and are
// MalformedInput.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "litgraph/status.h"

namespace litgraph {

using Json = nlohmann::ordered_json;

class Store;

// A tool that starts reading standard input from a terminal seems to hang
// to a user who did not mean to give input: every reader of "-" calls
// NoticeTerminalInput(), which runs `fn` (the tools print a hint on stderr)
// when standard input is a terminal. Not thread-safe: set it at start-up.
void SetTerminalInputNotice(std::function<void()> fn);
void NoticeTerminalInput();

// Calls fn(line, where) for each non-blank line of `path` ("-" = standard
// input), trimmed of blanks; "where" is "NAME:LINE", for messages. Stops at
// fn's first error.
Status ForEachLineIn(
    const std::string& path,
    const std::function<Status(std::string_view line, const std::string& where)>& fn);

// Calls fn(record, where) for each JSON object of `in`, which is named
// `name` in messages; stops at fn's first error. A line that is not a JSON
// object is MalformedInput.
Status ForEachJsonLine(std::istream& in, const std::string& name,
                       const std::function<Status(Json& record, const std::string& where)>& fn);

// The same for `path` ("-" = standard input, checked like a file).
Status ForEachJsonLineIn(const std::string& path,
                         const std::function<Status(Json& record, const std::string& where)>& fn);

// The whole of `path` ("-" = standard input) as text, without a leading
// byte order mark and with CRLF and CR line ends as LF.
Result<std::string> ReadTextInput(const std::string& path);

// Calls fn(record, where) for each line of `path` ("-" = standard input):
// a JSON object (a record of any litgraph tool), or a plain line (an id, DOI,
// OpenAlex URL or title) given as {"id": line}. A line that starts with "{"
// but is not a JSON object is MalformedInput.
Status ForEachRecordIn(const std::string& path,
                       const std::function<Status(Json& record, const std::string& where)>& fn);

// Calls fn(id, where) for each line of `path` ("-" = standard input): the
// line itself (an id, DOI, OpenAlex URL or title), or the "id" of a JSON
// object (a record of any litgraph tool). MalformedInput for a JSON line
// without a string "id".
Status ForEachIdIn(
    const std::string& path,
    const std::function<Status(const std::string& id, const std::string& where)>& fn);

// Reads paper ids from a file ("-" = stdin): one id / DOI per line, or JSON
// lines with an "id" field. Ids not in the store are reported through
// *missing (may be null) and skipped; MalformedInput for a malformed line.
Result<std::vector<int64_t>> ReadPaperIdList(Store* store, const std::string& path,
                                             std::vector<std::string>* missing);

}  // namespace litgraph
