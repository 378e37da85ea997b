// Helpers shared by the unit tests: a fresh temporary directory per test and
// small file utilities. Header-only; the unit test glob picks up *_test.cc
// files only.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "litgraph/report.h"

namespace litgraph::testing {

// A Reporter that keeps what it hears.
class RecordingReporter : public Reporter {
 public:
  void Progress(std::string_view line) override { progress.emplace_back(line); }
  void Note(std::string_view m) override { notes.emplace_back(m); }
  void Warn(std::string_view m) override { warnings.emplace_back(m); }
  std::vector<std::string> progress, notes, warnings;
};

// A directory under ::testing::TempDir() unique to this process and test,
// created empty and removed (recursively) on destruction.
class ScopedTempDir {
 public:
  ScopedTempDir() {
    static std::atomic<int> counter{0};
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "x";
    for (char& c : name)
      if (c == '/') c = '_';
    path_ = std::filesystem::path(::testing::TempDir()) /
            ("litgraph_unit_" + std::to_string(getpid()) + "_" +
             std::to_string(counter.fetch_add(1)) + "_" + name);
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScopedTempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScopedTempDir(const ScopedTempDir&) = delete;
  ScopedTempDir& operator=(const ScopedTempDir&) = delete;

  std::string path() const { return path_.string(); }
  // path()/name
  std::string File(std::string_view name) const { return (path_ / std::string(name)).string(); }

 private:
  std::filesystem::path path_;
};

inline void WriteFile(const std::string& path, std::string_view contents) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  ASSERT_TRUE(f) << "cannot write " << path;
  f.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  ASSERT_TRUE(f.good()) << "cannot write " << path;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Path of a fixture under tests/data.
inline std::string TestData(std::string_view name) {
  return std::string(LITGRAPH_TEST_DATA) + "/" + std::string(name);
}

}  // namespace litgraph::testing
