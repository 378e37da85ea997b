// Output formats: result records as JSON lines, or a readable table / TSV
// of chosen columns; graphs of papers as Graphviz DOT or Mermaid.
//
// Every record is a JSON object with stable snake_case keys (litgraph-json(7)).
// In jsonl mode each record becomes one compact line, written through the JSON
// library. Table and tsv modes print the columns a tool declares; nested values
// are flattened ("a; b; c"). Writes to a closed pipe throw BrokenPipe, which
// Tool::Run turns into a quiet exit.
#pragma once

#include <cstdio>
#include <string>
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

  // Writes raw text (drawings, reports).
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
