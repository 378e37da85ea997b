// Output formats: result records as JSON lines, or a readable table / TSV
// of chosen columns; graphs of papers as Graphviz DOT or Mermaid.
//
// Every record is a JSON object with stable snake_case keys (litgraph-json(7)).
// In jsonl mode each record becomes one compact line, written through the JSON
// library. Table and tsv modes print the columns a tool declares; nested values
// are flattened ("a; b; c"). Writes to a closed pipe throw BrokenPipe, which
// Tool::Run turns into a quiet exit.
//
// Terminal safety: records come from outside (a crafted title can hold ESC or
// BEL bytes that would move the cursor, rewrite the screen or retitle the
// window), so every human-readable output passes its text through one
// function, EscapeControls: table and tsv cells, drawings and reports (Raw),
// and the tool layer's messages, notes, warnings and progress lines. JSON
// lines stay valid JSON with the same content; control characters in them
// are \u escapes (JsonLine).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "litgraph/jsonl.h"

namespace litgraph {

enum class Format { kJsonl, kTable, kTsv, kDot, kMermaid };

// Parses a --format value; returns false for an unknown name.
bool ParseFormat(const std::string& name, Format* out);

struct BrokenPipe {};

struct Column {
  std::string key;     // record key (a top-level field)
  std::string header;  // column title
  int max_width = 0;   // table mode truncates longer values (0 = no limit)
};

class Output {
 public:
  explicit Output(Format format, std::FILE* out = stdout);
  ~Output();
  // Columns for table/tsv mode; without them every top-level scalar is shown.
  void SetColumns(std::vector<Column> columns) { columns_ = std::move(columns); }
  void Write(const Json& record);
  // Emits buffered table rows and flushes. Called by the destructor too.
  void Finish();
  Format format() const { return format_; }
  size_t count() const { return count_; }

  // Writes text (drawings, reports) through EscapeControls(text, true).
  void Raw(std::string_view text);

 private:
  void Put(std::string_view s);
  std::string Cell(const Json& record, const Column& c) const;

  Format format_;
  std::FILE* out_;
  std::vector<Column> columns_;
  std::vector<Json> rows_;  // table mode buffers to size the columns
  size_t count_ = 0;
  bool finished_ = false;
  bool line_buffered_ = false;
};

// Text safe to print on a terminal: each C0 control character (U+0000 to
// U+001F), DEL (U+007F) and C1 control character (U+0080 to U+009F) becomes
// a visible escape (\t, \n, \r, \x1b, \x7f, \u009b), and so does each
// byte that is not part of valid UTF-8 (\xff), so no input can form an
// escape sequence. With `keep_lines`, tab and newline stay as they are (for
// multi-line reports and messages). Everything else, backslashes included,
// is unchanged; the result holds no control characters, so escaping twice
// changes nothing.
std::string EscapeControls(std::string_view text, bool keep_lines = false);

// A record as one line of JSON (without the newline): the JSON library's
// output with DEL and the C1 control characters also written as \u escapes
// (it escapes U+0000 to U+001F itself) and invalid UTF-8 replaced by U+FFFD.
// The same value as record.dump(), safe on a terminal.
std::string JsonLine(const Json& record);

// Flattens a JSON value to one line of text for table and tsv cells.
std::string FlattenForCell(const Json& v);

// A drawing of nodes and directed edges (kDot or kMermaid).
struct DrawNode {
  uint64_t key;       // unique, names the node in Mermaid ("p<key>")
  std::string id;     // names it in DOT, shown in Mermaid
  std::string label;  // one line
};
struct DrawEdge {
  uint64_t from, to;  // node keys
  std::string label;
};
std::string Draw(Format format, const std::string& name, const std::vector<DrawNode>& nodes,
                 const std::vector<DrawEdge>& edges);

}  // namespace litgraph
