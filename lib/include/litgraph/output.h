// Output formats: result records as JSON lines; a readable table, TSV, CSV
// or Markdown table of chosen columns; paper records as citations (BibTeX,
// RIS, CSL-JSON, citation.h); graphs of papers as Graphviz DOT or Mermaid.
//
// Every record is a JSON object with stable snake_case keys (litgraph-json(7)).
// In jsonl mode each record becomes one compact line, written through the JSON
// library. Column modes print the columns a tool declares, or the fields the
// user chose; nested values are flattened ("a; b; c"). Citation modes print
// one entry per distinct paper and skip other records (authors, keywords).
// Writes to a closed pipe throw BrokenPipe, which Tool::Run turns into a
// quiet exit.
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
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "litgraph/jsonl.h"

namespace litgraph {

enum class Format {
  kJsonl,
  kTable,
  kTsv,
  kCsv,       // RFC 4180: quoted where needed, CRLF line ends, a header row
  kMarkdown,  // a GitHub-flavoured pipe table
  kBibtex,
  kRis,
  kCslJson,  // one JSON array of CSL items
  kDot,
  kMermaid
};

// Whether a format prints citations (BibTeX, RIS, CSL-JSON).
bool IsCitationFormat(Format f);

// Parses a --format value; returns false for an unknown name.
bool ParseFormat(const std::string& name, Format* out);

struct BrokenPipe {};

struct Column {
  std::string key;       // record key (a top-level field)
  std::string header;    // column title
  int max_width = 0;     // table mode truncates longer values (0 = no limit)
  bool in_table = true;  // false: only in tsv, csv and md (the DOI)
};

// --sort: a record field, largest first unless `ascending`; records without
// the field (or null) come last either way.
struct SortKey {
  std::string field;
  bool ascending = false;
};
// Parses "FIELD", "FIELD:desc" or "FIELD:asc"; false when malformed.
bool ParseSortKey(const std::string& text, SortKey* out);

class Output {
 public:
  explicit Output(Format format, std::FILE* out = stdout);
  ~Output();
  // Columns for table/tsv mode; without them every top-level scalar is shown.
  void SetColumns(std::vector<Column> columns) { columns_ = std::move(columns); }
  // --fields: these record fields as the columns (in every column mode) and
  // the only keys of each JSON line, in this order (null when absent).
  void SetFields(std::vector<std::string> fields) { fields_ = std::move(fields); }
  // --sort: records are buffered and written in this order at Finish.
  void SetSort(std::optional<SortKey> sort) { sort_ = std::move(sort); }
  // Table mode: the width to fit (the terminal's, found when stdout is one;
  // 0 = none). Columns with a max_width then share what the others leave:
  // wider than max_width on a wide terminal, narrower (8 at least) on a
  // narrow one.
  void SetWidth(size_t width) { width_ = width; }
  size_t width() const { return width_; }
  // Citation modes: fields to add to a paper record before it is cited
  // (work_type, date, landing_page_url: what records do not carry).
  void SetCitationFields(std::function<Json(const Json& paper)> fn) { citation_fields_ = fn; }
  void Write(const Json& record);
  // Emits buffered table rows and flushes. Called by the destructor too.
  void Finish();
  Format format() const { return format_; }
  size_t count() const { return count_; }

  // Writes text (drawings, reports) through EscapeControls(text, true).
  void Raw(std::string_view text);

 private:
  void Put(std::string_view s);
  void Emit(const Json& record);
  void EmitCitation(const Json& record);
  void WriteTable();
  std::string Cell(const Json& record, const Column& c) const;

  Format format_;
  std::FILE* out_;
  std::vector<Column> columns_;
  std::vector<std::string> fields_;
  std::optional<SortKey> sort_;
  std::function<Json(const Json&)> citation_fields_;
  std::vector<Json> rows_;                            // buffered for the table's widths or --sort
  std::unordered_set<std::string> cited_ids_, keys_;  // citation modes: seen so far
  size_t count_ = 0, emitted_ = 0;
  bool finished_ = false;
  bool line_buffered_ = false;
  size_t width_ = 0;
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

// A drawing of nodes and directed edges (kDot or kMermaid). Nodes of a
// group share a fill colour (DOT fillcolor, a Mermaid classDef named after
// the group), the groups taking the colours of a fixed palette in the order
// they first appear; nodes without a group are drawn plain.
struct DrawNode {
  uint64_t key;            // unique, names the node in Mermaid ("p<key>")
  std::string id;          // names it in DOT, shown in Mermaid
  std::string label;       // one line
  std::string group = "";  // letters, digits and _ only (a Mermaid class name)
};
struct DrawEdge {
  uint64_t from, to;  // node keys
  std::string label;
  bool dashed = false;  // DOT style=dashed, Mermaid -.->
};
std::string Draw(Format format, const std::string& name, const std::vector<DrawNode>& nodes,
                 const std::vector<DrawEdge>& edges);

}  // namespace litgraph
