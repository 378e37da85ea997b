// Tests for output.h: terminal safety (EscapeControls, JsonLine) and the
// formats that print records for people (table, tsv, drawings, raw text).
#include "litgraph/output.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <random>
#include <string>

namespace litgraph {
namespace {

// True when `s` holds a byte a terminal could take as (part of) a control
// sequence: C0, DEL, or a C1 character in UTF-8 (C2 80 to C2 9F).
bool HasControl(const std::string& s, bool allow_lines = false) {
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (allow_lines && (c == '\n' || c == '\t')) continue;
    if (c < 0x20 || c == 0x7F) return true;
    if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0) return true;
  }
  return false;
}

// Everything an Output writes, as a string; `setup` may shape the output.
std::string Render(Format format, const std::vector<Json>& records,
                   const std::vector<Column>& columns = {}, const std::string& raw = "",
                   const std::function<void(Output&)>& setup = nullptr) {
  std::FILE* f = std::tmpfile();
  EXPECT_NE(f, nullptr);
  {
    Output out(format, f);
    if (!columns.empty()) out.SetColumns(columns);
    if (setup) setup(out);
    for (const Json& r : records) out.Write(r);
    if (!raw.empty()) out.Raw(raw);
    out.Finish();
  }
  std::string s;
  std::rewind(f);
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) s.append(buf, n);
  std::fclose(f);
  return s;
}

TEST(EscapeControlsTest, PrintableTextIsUnchanged) {
  for (const std::string s : {"", "plain ASCII title", "back\\slash and \"quotes\"",
                              "caf\u00e9 \u4e2d\u6587 \U0001F600", "nbsp\u00a0and \u00bf"}) {
    EXPECT_EQ(EscapeControls(s), s);
    EXPECT_EQ(EscapeControls(s, true), s);
  }
}

TEST(EscapeControlsTest, C0ControlsAndDelBecomeVisible) {
  EXPECT_EQ(EscapeControls("a\x1b]0;pwned\x07z"), "a\\x1b]0;pwned\\x07z");
  EXPECT_EQ(EscapeControls("\x1b[2J\x1b[H"), "\\x1b[2J\\x1b[H");
  EXPECT_EQ(EscapeControls(std::string("nul\0here", 8)), "nul\\x00here");
  EXPECT_EQ(EscapeControls("del\x7f"), "del\\x7f");
  EXPECT_EQ(EscapeControls("bs\b"), "bs\\x08");
  EXPECT_EQ(EscapeControls("a\tb\nc\rd"), "a\\tb\\nc\\rd");
}

TEST(EscapeControlsTest, KeepLinesKeepsTabAndNewlineOnly) {
  EXPECT_EQ(EscapeControls("line 1\n\tline 2\r\n\x1b[31m", true), "line 1\n\tline 2\\r\n\\x1b[31m");
}

TEST(EscapeControlsTest, C1ControlsBecomeVisible) {
  EXPECT_EQ(EscapeControls("csi\u009b31m"), "csi\\u009b31m");
  EXPECT_EQ(EscapeControls("\u0080\u0085\u009f"), "\\u0080\\u0085\\u009f");
  EXPECT_EQ(EscapeControls("\u00a0"), "\u00a0");  // the first printable after C1
}

TEST(EscapeControlsTest, InvalidUtf8BytesBecomeVisible) {
  EXPECT_EQ(EscapeControls("\xff"), "\\xff");
  EXPECT_EQ(EscapeControls("a\x9b"
                           "31m"),
            "a\\x9b31m");                                                 // a raw 8-bit CSI
  EXPECT_EQ(EscapeControls("\xc0\x80"), "\\xc0\\x80");                    // overlong NUL
  EXPECT_EQ(EscapeControls("\xc2"), "\\xc2");                             // truncated
  EXPECT_EQ(EscapeControls("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // surrogate
  EXPECT_EQ(EscapeControls("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(EscapeControls("\xe4\xb8"), "\\xe4\\xb8");
}

// Any byte string: the result holds no control character and escaping it
// again changes nothing.
TEST(EscapeControlsTest, AnyBytesGiveSafeTextAndEscapingIsIdempotent) {
  std::mt19937 rng(20);
  for (int round = 0; round < 2000; ++round) {
    std::string s(rng() % 40, '\0');
    for (char& c : s) c = static_cast<char>(rng() % 256);
    for (bool keep : {false, true}) {
      const std::string once = EscapeControls(s, keep);
      EXPECT_FALSE(HasControl(once, keep)) << once;
      EXPECT_EQ(EscapeControls(once, keep), once);
    }
  }
}

TEST(JsonLineTest, EscapesDelAndC1AndStaysTheSameValue) {
  Json j = {{"id", "W1"},
            {"title", "t\x1b[2J\x07\x7f\u009b\u0085 caf\u00e9"},
            {"n", 3},
            {"list", {"a\u0080", "b"}}};
  const std::string line = JsonLine(j);
  EXPECT_FALSE(HasControl(line)) << line;
  EXPECT_NE(line.find("\\u007f"), std::string::npos) << line;
  EXPECT_NE(line.find("\\u009b"), std::string::npos) << line;
  EXPECT_NE(line.find("caf\u00e9"), std::string::npos) << line;  // other text stays UTF-8
  EXPECT_EQ(Json::parse(line), j);
}

TEST(JsonLineTest, InvalidUtf8IsReplaced) {
  Json j = {{"title", "bad \xff byte"}};
  const std::string line = JsonLine(j);
  EXPECT_EQ(Json::parse(line)["title"], "bad \ufffd byte");
}

TEST(JsonLineTest, PlainRecordsAreTheLibraryDump) {
  Json j = {{"id", "W1"}, {"score", 0.5}, {"authors", {"A", "B"}}};
  EXPECT_EQ(JsonLine(j), j.dump());
}

const std::string kEvil = "Title\x1b]0;owned\x07 \x1b[2J\u009b31m\x7f end";

TEST(OutputTest, TableAndTsvEscapeEveryCell) {
  std::vector<Json> rows = {{{"id", "W1\x1b[H"}, {"title", kEvil}, {"authors", {"A\x07", "B"}}},
                            {{"id", "W2"}, {"title", "line\nbreak\ttab"}, {"authors", {"C"}}}};
  std::vector<Column> cols = {{"id", "id", 0}, {"title", "title", 30}, {"authors", "authors", 0}};
  for (Format f : {Format::kTable, Format::kTsv}) {
    const std::string out = Render(f, rows, cols);
    EXPECT_FALSE(HasControl(out, true)) << out;
    EXPECT_NE(out.find("W1\\x1b[H"), std::string::npos) << out;
    EXPECT_NE(out.find("A\\x07"), std::string::npos) << out;
    EXPECT_NE(out.find("line break tab"), std::string::npos) << out;
  }
  // Without declared columns every scalar field is a column, keys included.
  const std::string out = Render(Format::kTable, {{{"k\x1b", "v\x1b"}}});
  EXPECT_FALSE(HasControl(out, true)) << out;
}

TEST(OutputTest, JsonlStaysValidJsonWithTheSameContent) {
  Json j = {{"id", "W1"}, {"title", kEvil}};
  const std::string out = Render(Format::kJsonl, {j});
  EXPECT_FALSE(HasControl(out, true)) << out;
  EXPECT_EQ(Json::parse(out), j);
}

TEST(OutputTest, RawTextKeepsItsLinesAndEscapesTheRest) {
  const std::string out = Render(Format::kJsonl, {}, {}, "report\n\ttitle " + kEvil + "\n");
  EXPECT_FALSE(HasControl(out, true)) << out;
  EXPECT_EQ(out.rfind("report\n\ttitle Title\\x1b]0;owned\\x07", 0), 0u) << out;
}

std::vector<Json> Papers() {
  return {{{"id", "W1"},
           {"type", "paper"},
           {"title", "Comma, \"quoted\""},
           {"year", 2001},
           {"authors", {"Ada Lovelace"}},
           {"score", 0.5},
           {"doi", "10.1/x"}},
          {{"id", "W2"},
           {"type", "paper"},
           {"title", "Pipe | here"},
           {"year", 2010},
           {"authors", {"Ada Lovelace"}},
           {"score", 0.9}},
          {{"id", "A1"}, {"type", "author"}, {"name", "Ada Lovelace"}, {"score", 0.7}},
          {{"id", "W1"},
           {"type", "paper"},
           {"title", "Comma, \"quoted\""},
           {"year", 2001},
           {"authors", {"Ada Lovelace"}},
           {"score", 0.1}}};
}

TEST(OutputTest, CsvQuotesAsRfc4180AndMarkdownEscapesPipes) {
  std::vector<Column> cols = {{"id", "id", 0}, {"title", "title", 5}, {"doi", "doi", 0, false}};
  const std::vector<Json> all = Papers();
  const std::vector<Json> two(all.begin(), all.begin() + 2);
  EXPECT_EQ(Render(Format::kCsv, two, cols),
            "id,title,doi\r\nW1,\"Comma, \"\"quoted\"\"\",10.1/x\r\nW2,Pipe | here,\r\n");
  EXPECT_EQ(Render(Format::kMarkdown, two, cols),
            "| id | title | doi |\n|---|---|---|\n| W1 | Comma, \"quoted\" | 10.1/x |\n"
            "| W2 | Pipe \\| here |  |\n");
  // The table leaves out columns meant for files only, and truncates.
  std::string table = Render(Format::kTable, two, cols);
  EXPECT_EQ(table.find("doi"), std::string::npos);
  EXPECT_NE(table.find("Comm\u2026"), std::string::npos);
}

TEST(OutputTest, TablesFitTheTerminalWidth) {
  std::vector<Column> cols = {{"id", "id", 0}, {"year", "year", 0}, {"title", "title", 20}};
  std::vector<Json> rows = Papers();
  rows[0]["title"] = std::string(100, 'x');
  auto longest = [](const std::string& table) {
    size_t n = 0, line = 0;
    for (unsigned char c : table) {
      if (c == '\n')
        n = std::max(n, line), line = 0;
      else if ((c & 0xC0) != 0x80)
        ++line;
    }
    return n;
  };
  // Not a terminal: max_width holds.
  EXPECT_EQ(longest(Render(Format::kTable, rows, cols)), 2 + 2 + 4 + 2 + 20u);
  // A wide terminal shows whole titles; a narrow one cuts them to fit.
  std::string wide = Render(Format::kTable, rows, cols, "", [](Output& o) { o.SetWidth(200); });
  EXPECT_NE(wide.find(std::string(100, 'x')), std::string::npos);
  EXPECT_EQ(longest(wide), 2 + 2 + 4 + 2 + 100u);
  std::string narrow = Render(Format::kTable, rows, cols, "", [](Output& o) { o.SetWidth(30); });
  EXPECT_EQ(longest(narrow), 30u) << narrow;
  // Never below 8 characters for a flexible column.
  std::string tiny = Render(Format::kTable, rows, cols, "", [](Output& o) { o.SetWidth(5); });
  EXPECT_NE(tiny.find(std::string(7, 'x') + "\u2026"), std::string::npos) << tiny;
}

TEST(OutputTest, FieldsChooseColumnsAndJsonKeys) {
  auto fields = [](Output& o) { o.SetFields({"year", "id", "missing"}); };
  EXPECT_EQ(Render(Format::kTsv, {Papers()[0]}, {}, "", fields), "year\tid\tmissing\n2001\tW1\t\n");
  EXPECT_EQ(Render(Format::kJsonl, {Papers()[0]}, {}, "", fields),
            "{\"year\":2001,\"id\":\"W1\",\"missing\":null}\n");
}

TEST(OutputTest, SortOrdersRecordsAndPutsMissingValuesLast) {
  auto ids = [](const std::string& jsonl) {
    std::string s;
    for (size_t at = 0; (at = jsonl.find("\"id\":\"", at)) != std::string::npos; at += 6)
      s += jsonl.substr(at + 6, 2) + " ";
    return s;
  };
  auto by = [](const char* text) {
    return [text](Output& o) {
      SortKey key;
      ASSERT_TRUE(ParseSortKey(text, &key));
      o.SetSort(key);
    };
  };
  EXPECT_EQ(ids(Render(Format::kJsonl, Papers(), {}, "", by("score"))), "W2 A1 W1 W1 ");
  EXPECT_EQ(ids(Render(Format::kJsonl, Papers(), {}, "", by("score:asc"))), "W1 W1 A1 W2 ");
  // Stable, with the author (no year) last in both directions.
  EXPECT_EQ(ids(Render(Format::kJsonl, Papers(), {}, "", by("year"))), "W2 W1 W1 A1 ");
  EXPECT_EQ(ids(Render(Format::kJsonl, Papers(), {}, "", by("year:asc"))), "W1 W1 W2 A1 ");
  SortKey key;
  for (const char* bad : {"", ":asc", "year:up", "Year", "year;rm"})
    EXPECT_FALSE(ParseSortKey(bad, &key)) << bad;
}

TEST(OutputTest, CitationsCiteEachPaperOnceWithDistinctKeys) {
  std::string bib = Render(Format::kBibtex, Papers());
  EXPECT_EQ(bib.find("@misc{lovelace2001comma,"), 0u) << bib;
  EXPECT_NE(bib.find("@misc{lovelace2010pipe,"), std::string::npos);
  size_t entries = 0;
  for (size_t at = 0; (at = bib.find("\n@", at)) != std::string::npos; ++at) ++entries;
  EXPECT_EQ(entries, 1u);  // W1 once, W2; the author is not cited
  // One key, two papers: the second gets a suffix.
  std::vector<Json> same = {Papers()[0], Papers()[0]};
  same[1]["id"] = "W3";
  std::string twice = Render(Format::kBibtex, same);
  EXPECT_NE(twice.find("{lovelace2001comma,"), std::string::npos);
  EXPECT_NE(twice.find("{lovelace2001commaa,"), std::string::npos);
  Json csl = Json::parse(Render(Format::kCslJson, Papers()));
  ASSERT_EQ(csl.size(), 2u);
  EXPECT_EQ(csl[0]["id"], "lovelace2001comma");
  EXPECT_EQ(Render(Format::kCslJson, {}), "[]\n");
  std::string ris = Render(Format::kRis, Papers(), {}, "", [](Output& o) {
    o.SetCitationFields([](const Json& p) { return Json{{"work_type", "dataset"}, {"id", "no"}}; });
  });
  EXPECT_EQ(ris.find("TY  - DATA\nAU  - Lovelace, Ada\n"), 0u) << ris;
  EXPECT_NE(ris.find("ID  - W1\n"), std::string::npos);  // record fields win
}

TEST(DrawTest, DotAndMermaidLabelsAreEscaped) {
  std::vector<DrawNode> nodes = {{1, "W1\x1b", kEvil + " \"q\" \\ x\ny"}, {2, "W2", "plain"}};
  std::vector<DrawEdge> edges = {{1, 2, "cites\x07"}};
  const std::string dot = Draw(Format::kDot, "g", nodes, edges);
  EXPECT_FALSE(HasControl(dot, true)) << dot;
  // The drawing shows the escape: a DOT string with the backslash escaped.
  EXPECT_NE(dot.find("Title\\\\x1b]0;owned\\\\x07"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\\\"q\\\" \\\\ x y"), std::string::npos) << dot;  // one line
  const std::string mermaid = Draw(Format::kMermaid, "g", nodes, edges);
  EXPECT_FALSE(HasControl(mermaid, true)) << mermaid;
  EXPECT_NE(mermaid.find("W1\\x1b<br/>"), std::string::npos) << mermaid;
  EXPECT_NE(mermaid.find("Title\\x1b]0;owned\\x07"), std::string::npos) << mermaid;
  EXPECT_NE(mermaid.find("'q' \\ x y"), std::string::npos) << mermaid;
  EXPECT_NE(mermaid.find("cites\\x07"), std::string::npos) << mermaid;
}

TEST(DrawTest, GroupsAreFilledAndDashedEdgesDrawn) {
  std::vector<DrawNode> nodes = {{1, "W1", "one", "seed"},
                                 {2, "W2", "two", "similar"},
                                 {3, "W3", "three", "similar"},
                                 {4, "W4", "four"}};
  std::vector<DrawEdge> edges = {{2, 1, "cites"}, {3, 1, "similar", true}};
  const std::string dot = Draw(Format::kDot, "g", nodes, edges);
  // Groups take the palette's colours in order of first appearance; no group, no fill.
  EXPECT_NE(dot.find("\"W1\" [label=\"one\", style=\"rounded,filled\", fillcolor=\"#fde68a\"];"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("\"W3\" [label=\"three\", style=\"rounded,filled\", fillcolor=\"#bfdbfe\"];"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("\"W4\" [label=\"four\"];"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"W2\" -> \"W1\" [label=\"cites\"];"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"W3\" -> \"W1\" [label=\"similar\", style=dashed];"), std::string::npos)
      << dot;
  const std::string mermaid = Draw(Format::kMermaid, "g", nodes, edges);
  EXPECT_NE(mermaid.find("  p2 -->|cites| p1\n"), std::string::npos) << mermaid;
  EXPECT_NE(mermaid.find("  p3 -.->|similar| p1\n"), std::string::npos) << mermaid;
  EXPECT_NE(mermaid.find("  classDef seed fill:#fde68a\n  class p1 seed\n"), std::string::npos)
      << mermaid;
  EXPECT_NE(mermaid.find("  classDef similar fill:#bfdbfe\n  class p2,p3 similar\n"),
            std::string::npos)
      << mermaid;
  // Without groups, nothing changes: no fills, no classes.
  const std::string plain = Draw(Format::kMermaid, "g", {{1, "W1", "one"}}, {});
  EXPECT_EQ(plain, "graph BT\n  p1[\"W1<br/>one\"]\n");
}

}  // namespace
}  // namespace litgraph
