#include "litgraph/output.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <unordered_map>

#include "litgraph/citation.h"
#include "litgraph/text.h"

namespace litgraph {

bool ParseFormat(const std::string& name, Format* out) {
  if (name == "jsonl" || name == "json")
    *out = Format::kJsonl;
  else if (name == "table")
    *out = Format::kTable;
  else if (name == "tsv")
    *out = Format::kTsv;
  else if (name == "csv")
    *out = Format::kCsv;
  else if (name == "md")
    *out = Format::kMarkdown;
  else if (name == "bibtex")
    *out = Format::kBibtex;
  else if (name == "ris")
    *out = Format::kRis;
  else if (name == "csljson")
    *out = Format::kCslJson;
  else if (name == "dot")
    *out = Format::kDot;
  else if (name == "mermaid")
    *out = Format::kMermaid;
  else
    return false;
  return true;
}

bool IsCitationFormat(Format f) {
  return f == Format::kBibtex || f == Format::kRis || f == Format::kCslJson;
}

bool ParseSortKey(const std::string& text, SortKey* out) {
  size_t colon = text.find(':');
  std::string field = text.substr(0, colon),
              dir = colon == std::string::npos ? "desc" : text.substr(colon + 1);
  if (field.empty() || (dir != "asc" && dir != "desc")) return false;
  for (char c : field)
    if (!(std::islower(static_cast<unsigned char>(c)) ||
          std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  *out = {field, dir == "asc"};
  return true;
}

Output::Output(Format format, std::FILE* out) : format_(format), out_(out) {
  // Streaming consumers (an agent reading a pipe) see each line as it comes
  // when stdout is a terminal; into pipes we keep stdio's block buffering.
  line_buffered_ = isatty(fileno(out_));
  struct winsize ws;
  if (line_buffered_ && ioctl(fileno(out_), TIOCGWINSZ, &ws) == 0) width_ = ws.ws_col;
}

Output::~Output() {
  try {
    Finish();
  } catch (...) {
  }
}

void Output::Put(std::string_view s) {
  if (s.empty()) return;
  if (std::fwrite(s.data(), 1, s.size(), out_) != s.size()) {
    if (errno == EPIPE) throw BrokenPipe{};
  }
}

namespace {

bool IsPlain(std::string_view s) {
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x7F) return false;
  }
  return true;
}

}  // namespace

std::string EscapeControls(std::string_view s, bool keep_lines) {
  if (IsPlain(s)) return std::string(s);  // the common case: printable ASCII
  std::string out;
  out.reserve(s.size() + 16);
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
      ++i;
    } else if (c == '\n' || c == '\t') {
      out += keep_lines ? std::string(1, static_cast<char>(c)) : c == '\n' ? "\\n" : "\\t";
      ++i;
    } else if (c == '\r') {
      out += "\\r";
      ++i;
    } else if (c < 0x80) {  // other C0 controls and DEL
      out += fmt::format("\\x{:02x}", c);
      ++i;
    } else if (size_t n = Utf8Length(s, i); n == 0) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    } else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(s[i + 1]));  // C1
      i += 2;
    } else {
      out.append(s.data() + i, n);
      i += n;
    }
  }
  return out;
}

std::string JsonLine(const Json& record) {
  std::string line = record.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (IsPlain(line)) return line;
  // Valid UTF-8 now, so C2 followed by 80-9F is always a C1 character, and
  // characters outside the ASCII range occur only inside JSON strings.
  std::string out;
  out.reserve(line.size() + 16);
  for (size_t i = 0; i < line.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(line[i]);
    if (c == 0x7F) {
      out += "\\u007f";
    } else if (c == 0xC2 && i + 1 < line.size() && static_cast<unsigned char>(line[i + 1]) < 0xA0) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(line[i + 1]));
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

void Output::Raw(std::string_view text) {
  Put(EscapeControls(text, /*keep_lines=*/true));
  if (line_buffered_) std::fflush(out_);
}

std::string FlattenForCell(const Json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v.get<double>());
    return buf;
  }
  if (v.is_array()) {
    std::string s;
    for (const auto& e : v) {
      if (!s.empty()) s += "; ";
      if (e.is_object() && e.contains("name"))
        s += FlattenForCell(e["name"]);
      else if (e.is_object() && e.contains("text"))
        s += FlattenForCell(e["text"]);
      else if (e.is_object() && e.contains("id"))
        s += FlattenForCell(e["id"]);
      else
        s += FlattenForCell(e);
    }
    return s;
  }
  if (v.is_object()) return v.dump();
  return v.dump();
}

std::string Output::Cell(const Json& record, const Column& c) const {
  auto it = record.find(c.key);
  std::string s = it == record.end() ? "" : FlattenForCell(*it);
  for (char& ch : s)
    if (ch == '\t' || ch == '\n' || ch == '\r') ch = ' ';
  return EscapeControls(s);
}

static size_t Utf8Width(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

static std::string Utf8Truncate(const std::string& s, size_t width) {
  if (Utf8Width(s) <= width) return s;
  size_t n = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (n == width - 1) break;
      ++n;
    }
  }
  return s.substr(0, i) + "\u2026";
}

namespace {

// --sort's order: numbers, then strings, then booleans; absent and null
// values last whatever the direction.
int Rank(const Json* v) {
  if (!v || v->is_null()) return 3;
  return v->is_number() ? 0 : v->is_string() ? 1 : 2;
}

bool Before(const Json& a, const Json& b, const SortKey& key) {
  auto find = [&](const Json& r) {
    auto it = r.find(key.field);
    return it == r.end() ? nullptr : &*it;
  };
  const Json *x = find(a), *y = find(b);
  int rx = Rank(x), ry = Rank(y);
  if (rx != ry || rx == 3) return rx < ry;
  bool less = rx == 0   ? x->get<double>() < y->get<double>()
              : rx == 1 ? x->get<std::string>() < y->get<std::string>()
                        : x->get<bool>() < y->get<bool>();
  bool greater = rx == 0   ? y->get<double>() < x->get<double>()
                 : rx == 1 ? y->get<std::string>() < x->get<std::string>()
                           : y->get<bool>() < x->get<bool>();
  return key.ascending ? less : greater;
}

// An RFC 4180 field: quoted when it holds a comma, quote or line break.
std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// A Markdown table cell: pipes escaped.
std::string MdCell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

void Output::Write(const Json& record) {
  ++count_;
  if (format_ == Format::kTable || sort_)
    rows_.push_back(record);
  else
    Emit(record);
  if (line_buffered_) std::fflush(out_);
}

void Output::Emit(const Json& record) {
  if (IsCitationFormat(format_)) return EmitCitation(record);
  ++emitted_;
  if (format_ == Format::kJsonl || format_ == Format::kDot || format_ == Format::kMermaid) {
    if (fields_.empty()) return Put(JsonLine(record) + "\n");
    Json shown = Json::object();
    for (const std::string& f : fields_) shown[f] = record.contains(f) ? record[f] : Json(nullptr);
    return Put(JsonLine(shown) + "\n");
  }
  if (emitted_ == 1) {  // the columns, from the first record unless given
    if (!fields_.empty()) {
      columns_.clear();
      for (const std::string& f : fields_) columns_.push_back({f, f, 0});
    } else if (columns_.empty()) {
      for (auto it = record.begin(); it != record.end(); ++it)
        if (!it->is_structured()) columns_.push_back({it.key(), it.key(), 0});
    }
  }
  auto row = [&](auto cell) {
    std::vector<std::string> cells;
    for (const Column& c : columns_) cells.push_back(cell(c));
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
      if (format_ == Format::kTsv)
        line += (i ? "\t" : "") + cells[i];
      else if (format_ == Format::kCsv)
        line += (i ? "," : "") + CsvField(cells[i]);
      else
        line += (i ? " | " : "| ") + MdCell(cells[i]) + (i + 1 == cells.size() ? " |" : "");
    }
    Put(line + (format_ == Format::kCsv ? "\r\n" : "\n"));
  };
  if (emitted_ == 1) {
    // Headers are the record keys, so a header row feeds straight into
    // --fields or a spreadsheet's column names.
    row([](const Column& c) { return EscapeControls(c.key); });
    if (format_ == Format::kMarkdown) {
      std::string rule;
      for (size_t i = 0; i < columns_.size(); ++i) rule += "|---";
      Put(rule + "|\n");
    }
  }
  row([&](const Column& c) { return Cell(record, c); });
}

void Output::EmitCitation(const Json& record) {
  auto type = record.find("type");
  auto id = record.find("id");
  if (type == record.end() || *type != "paper" || id == record.end() || !id->is_string()) return;
  if (!cited_ids_.insert(id->get<std::string>()).second) return;  // cited already
  Json paper = record;
  if (citation_fields_) {
    const Json extra = citation_fields_(record);
    for (auto& [k, v] : extra.items())
      if (!paper.contains(k)) paper[k] = v;
  }
  // Two papers of one export with one key: the second gets "a", then "b"...
  std::string key = CitationKey(paper);
  for (size_t n = 0; !keys_.insert(key).second; ++n)
    key = CitationKey(paper) +
          (n < 26 ? std::string(1, static_cast<char>('a' + n)) : std::to_string(n));
  ++emitted_;
  if (format_ == Format::kBibtex) {
    Put((emitted_ > 1 ? "\n" : "") + BibtexEntry(paper, key));
  } else if (format_ == Format::kRis) {
    Put((emitted_ > 1 ? "\n" : "") + RisEntry(paper));
  } else {  // one JSON array, an item per line, closed by Finish
    Put((emitted_ > 1 ? ",\n" : "[\n") + JsonLine(CslJsonItem(paper, key)));
  }
}

void Output::WriteTable() {
  std::vector<Column> cols;
  if (!fields_.empty()) {
    for (const std::string& f : fields_) cols.push_back({f, f, 0});
  } else {
    for (const Column& c : columns_)
      if (c.in_table) cols.push_back(c);
    if (cols.empty())
      for (auto it = rows_[0].begin(); it != rows_[0].end(); ++it)
        if (!it->is_structured()) cols.push_back({it.key(), it.key(), 40});
  }
  std::vector<std::vector<std::string>> cells;
  std::vector<size_t> width(cols.size());
  for (size_t i = 0; i < cols.size(); ++i) width[i] = Utf8Width(cols[i].header);
  for (const auto& r : rows_) {
    std::vector<std::string> row;
    for (size_t i = 0; i < cols.size(); ++i) {
      row.push_back(Cell(r, cols[i]));
      width[i] = std::max(width[i], Utf8Width(row.back()));
    }
    cells.push_back(std::move(row));
  }
  // The most each column may take: max_width, or on a terminal a share of
  // what the fixed columns leave, the narrowest flexible columns first.
  std::vector<size_t> limit(cols.size());
  for (size_t i = 0; i < cols.size(); ++i)
    limit[i] = cols[i].max_width > 0 ? static_cast<size_t>(cols[i].max_width) : width[i];
  if (width_ > 0) {
    size_t left = width_, flexible = 0;
    for (size_t i = 0; i < cols.size(); ++i) {
      left -= std::min(left, (i ? 2 : 0) + (cols[i].max_width > 0 ? 0 : width[i]));
      flexible += cols[i].max_width > 0;
    }
    std::vector<size_t> order;
    for (size_t i = 0; i < cols.size(); ++i)
      if (cols[i].max_width > 0) order.push_back(i);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return width[a] < width[b]; });
    for (size_t i : order) {
      limit[i] = std::max<size_t>(8, std::min(width[i], left / flexible--));
      left -= std::min(left, limit[i]);
    }
  }
  for (size_t i = 0; i < cols.size(); ++i) {
    if (width[i] <= limit[i]) continue;
    width[i] = std::max(limit[i], Utf8Width(cols[i].header));
    for (auto& row : cells) row[i] = Utf8Truncate(row[i], width[i]);
  }
  auto emit = [&](const std::vector<std::string>& row) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(width[i] - Utf8Width(row[i]) + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    Put(line + "\n");
  };
  std::vector<std::string> header;
  for (const auto& c : cols) header.push_back(EscapeControls(c.header));
  emit(header);
  for (const auto& row : cells) emit(row);
}

void Output::Finish() {
  if (finished_) return;
  finished_ = true;
  if (sort_)
    std::stable_sort(rows_.begin(), rows_.end(),
                     [&](const Json& a, const Json& b) { return Before(a, b, *sort_); });
  if (format_ == Format::kTable) {
    if (!rows_.empty()) WriteTable();
  } else {
    for (const Json& r : rows_) Emit(r);
  }
  rows_.clear();
  if (format_ == Format::kCslJson) Put(emitted_ ? "\n]\n" : "[]\n");
  if (std::fflush(out_) != 0 && errno == EPIPE) throw BrokenPipe{};
}

namespace {

// A label on one line: line breaks and tabs as spaces, other control
// characters escaped (EscapeControls).
std::string OneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return EscapeControls(s);
}

// A DOT string: quotes and backslashes escaped, so the drawing shows the
// escapes of OneLine.
std::string DotQuote(const std::string& s) {
  std::string out;
  for (char c : OneLine(s)) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// A Mermaid string: double quotes end it, so they become single quotes.
std::string MermaidQuote(const std::string& s) {
  std::string out = OneLine(s);
  for (char& c : out)
    if (c == '"') c = '\'';
  return out;
}

}  // namespace

std::string Draw(Format format, const std::string& name, const std::vector<DrawNode>& nodes,
                 const std::vector<DrawEdge>& edges) {
  std::unordered_map<uint64_t, std::string> ids;
  for (const DrawNode& n : nodes) ids.emplace(n.key, n.id);
  auto id = [&](uint64_t key) {
    auto it = ids.find(key);
    return it == ids.end() ? std::to_string(key) : it->second;
  };
  // Group colours: pale fills that keep black text readable.
  static const char* const kPalette[] = {"#fde68a", "#bfdbfe", "#d9f99d", "#fbcfe8",
                                         "#ddd6fe", "#fed7aa", "#a5f3fc", "#e5e7eb"};
  std::vector<std::string> groups;  // in order of first appearance
  std::unordered_map<std::string, std::string> colour;
  for (const DrawNode& n : nodes)
    if (!n.group.empty() && !colour.count(n.group)) {
      colour[n.group] = kPalette[groups.size() % std::size(kPalette)];
      groups.push_back(n.group);
    }
  std::string s;
  if (format == Format::kDot) {
    s += "digraph " + name + " {\n  rankdir=BT;\n  node [shape=box, style=rounded];\n";
    for (const DrawNode& n : nodes) {
      std::string style;
      if (!n.group.empty())
        style = fmt::format(", style=\"rounded,filled\", fillcolor=\"{}\"", colour[n.group]);
      s += fmt::format("  \"{}\" [label=\"{}\"{}];\n", DotQuote(n.id), DotQuote(n.label), style);
    }
    for (const DrawEdge& e : edges)
      s += fmt::format("  \"{}\" -> \"{}\" [label=\"{}\"{}];\n", DotQuote(id(e.from)),
                       DotQuote(id(e.to)), DotQuote(e.label), e.dashed ? ", style=dashed" : "");
    return s + "}\n";
  }
  s += "graph BT\n";
  for (const DrawNode& n : nodes) {
    s += fmt::format("  p{}[\"{}<br/>{}\"]\n", n.key, MermaidQuote(n.id), MermaidQuote(n.label));
  }
  for (const DrawEdge& e : edges)
    s += fmt::format("  p{} {}|{}| p{}\n", e.from, e.dashed ? "-.->" : "-->", MermaidQuote(e.label),
                     e.to);
  for (const std::string& g : groups) {
    s += fmt::format("  classDef {} fill:{}\n  class ", g, colour[g]);
    bool first = true;
    for (const DrawNode& n : nodes)
      if (n.group == g) {
        s += fmt::format("{}p{}", first ? "" : ",", n.key);
        first = false;
      }
    s += " " + g + "\n";
  }
  return s;
}

}  // namespace litgraph
