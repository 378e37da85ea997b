// Tests for jsonl.h: line ends (LF, CRLF, lone CR), the byte order mark,
// line numbers in messages, and inputs that are not readable files.
#include "litgraph/jsonl.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "test_util.h"

namespace litgraph {
namespace {

using litgraph::testing::ScopedTempDir;
using litgraph::testing::WriteFile;

// The "id" of each record with the "where" it was given.
std::vector<std::pair<std::string, std::string>> Ids(const std::string& path, Status* st) {
  std::vector<std::pair<std::string, std::string>> out;
  *st = ForEachJsonLineIn(path, [&](Json& j, const std::string& where) {
    out.emplace_back(j.value("id", ""), where);
    return Status::Ok();
  });
  return out;
}

TEST(JsonLinesTest, EveryLineEndAndTheByteOrderMark) {
  ScopedTempDir tmp;
  const std::pair<const char*, std::string> cases[] = {
      {"lf", "{\"id\":\"a\"}\n\n{\"id\":\"b\"}\n"},
      {"crlf", "{\"id\":\"a\"}\r\n\r\n{\"id\":\"b\"}\r\n"},
      {"cr", "{\"id\":\"a\"}\r\r{\"id\":\"b\"}\r"},
      {"mixed", "{\"id\":\"a\"}\r\n\r{\"id\":\"b\"}"},
      {"bom", "\xEF\xBB\xBF{\"id\":\"a\"}\n  \t\n{\"id\":\"b\"}"},
      {"bomcr", "\xEF\xBB\xBF{\"id\":\"a\"}\r\r{\"id\":\"b\"}\r\n"},
  };
  for (const auto& [name, text] : cases) {
    const std::string path = tmp.File(name);
    WriteFile(path, text);
    Status st;
    auto ids = Ids(path, &st);
    ASSERT_TRUE(st.ok()) << name << ": " << st.message();
    ASSERT_EQ(ids.size(), 2u) << name;
    EXPECT_EQ(ids[0], std::make_pair(std::string("a"), path + ":1")) << name;
    EXPECT_EQ(ids[1], std::make_pair(std::string("b"), path + ":3")) << name;
  }
}

TEST(JsonLinesTest, MalformedLineNamesFileAndLineWithAnyLineEnd) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("bad.jsonl");
  WriteFile(path, "{\"id\":\"a\"}\r{\"id\":\"b\"}\r{oops\r{\"id\":\"c\"}\r");
  Status st;
  auto ids = Ids(path, &st);
  EXPECT_EQ(st.code(), Code::kMalformedInput);
  EXPECT_EQ(st.message(), path + ":3: expected a JSON object");
  EXPECT_EQ(ids.size(), 2u);
}

TEST(JsonLinesTest, StreamReaderNamesItsInput) {
  std::istringstream in("\xEF\xBB\xBF{\"id\":1}\r\n[1]\r\n");
  int n = 0;
  Status st = ForEachJsonLine(in, "<stdin>", [&](Json&, const std::string& where) {
    EXPECT_EQ(where, "<stdin>:1");
    ++n;
    return Status::Ok();
  });
  EXPECT_EQ(n, 1);
  EXPECT_EQ(st.message(), "<stdin>:2: expected a JSON object");
}

// Input is read in blocks of 64 KiB: lines straddle them (the first line's
// CRLF is split between the first two), and line numbers run on.
TEST(JsonLinesTest, LinesAcrossReadBlocks) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("long.jsonl");
  const size_t block = size_t{1} << 16;
  std::vector<std::string> want = {std::string(block - 10, 'a')};  // {"id":"…"}\r: 64 KiB
  std::string text = "{\"id\":\"" + want[0] + "\"}\r\n";
  ASSERT_EQ(text.substr(block - 1, 2), "\r\n");
  for (int i = 1; text.size() < 5 * block; ++i) {
    want.push_back(std::string(static_cast<size_t>(1000 + (i * 997) % 8000), 'x') +
                   std::to_string(i));
    text += "{\"id\":\"" + want.back() + "\"}";
    text += i % 3 == 0 ? "\n" : i % 3 == 1 ? "\r\n" : "\r";
  }
  text += "{\"id\":\"last\"}";  // no line end
  want.push_back("last");
  WriteFile(path, text);
  Status st;
  auto got = Ids(path, &st);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].first, want[i]);
    EXPECT_EQ(got[i].second, path + ":" + std::to_string(i + 1));
  }
  std::istringstream in(text);
  size_t lines = 0;
  st = ForEachJsonLine(in, "<stdin>", [&](Json& j, const std::string& where) {
    EXPECT_EQ(where, "<stdin>:" + std::to_string(++lines));
    EXPECT_EQ(j["id"], want[lines - 1]);
    return Status::Ok();
  });
  EXPECT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(lines, want.size());
}

TEST(JsonLinesTest, DirectoriesAndMissingFilesAreIoErrorsNamingThem) {
  ScopedTempDir tmp;
  Status st;
  Ids(tmp.path(), &st);
  EXPECT_EQ(st.code(), Code::kIoError);
  EXPECT_EQ(st.message(), tmp.path() + ": is a directory");
  const std::string missing = tmp.File("missing.jsonl");
  Ids(missing, &st);
  EXPECT_EQ(st.code(), Code::kIoError);
  EXPECT_NE(st.message().find(missing + ": cannot open"), std::string::npos) << st.message();
  auto text = ReadTextInput(tmp.path());
  EXPECT_EQ(text.status().code(), Code::kIoError);
  EXPECT_NE(text.status().message().find("is a directory"), std::string::npos);
}

TEST(JsonLinesTest, UnreadableFileIsAnIoError) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads any file";
  ScopedTempDir tmp;
  const std::string path = tmp.File("secret.jsonl");
  WriteFile(path, "{\"id\":\"a\"}\n");
  ASSERT_EQ(chmod(path.c_str(), 0), 0);
  Status st;
  Ids(path, &st);
  EXPECT_EQ(st.code(), Code::kIoError);
  EXPECT_NE(st.message().find(path), std::string::npos) << st.message();
}

TEST(ReadTextInputTest, LineEndsBecomeLfAndTheByteOrderMarkGoes) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("idea.txt");
  WriteFile(path, "\xEF\xBB\xBFTitle\r\rAbstract one.\r\nTwo.\rEnd");
  auto text = ReadTextInput(path);
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(*text, "Title\n\nAbstract one.\nTwo.\nEnd\n");
}

TEST(ForEachLineInTest, TrimmedNonBlankLinesWithTheirNumbers) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("ids.txt");
  WriteFile(path, "  W1 \r\n\t\r\nW2\rW3");
  std::vector<std::string> got;
  ASSERT_TRUE(ForEachLineIn(path, [&](std::string_view line, const std::string& where) {
                got.push_back(std::string(line) + "@" + where.substr(path.size()));
                return Status::Ok();
              }).ok());
  EXPECT_EQ(got, (std::vector<std::string>{"W1@:1", "W2@:3", "W3@:4"}));
}

}  // namespace
}  // namespace litgraph
