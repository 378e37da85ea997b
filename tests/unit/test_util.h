// Helpers shared by the unit tests: a fresh temporary directory per test and
// small file utilities. Header-only; the unit test glob picks up *_test.cc
// files only.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "litgraph/checked_file.h"
#include "litgraph/generation.h"
#include "litgraph/report.h"
#include "litgraph/sqlite.h"
#include "litgraph/store.h"

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

// The identity a test gives a standalone checked file: a fixed store, build
// 1, the file's base name.
inline FileIdentity TestId(const std::string& path) {
  FileIdentity id;
  for (size_t i = 0; i < id.store.size(); ++i) id.store[i] = static_cast<uint8_t>(i + 1);
  id.build = 1;
  id.name = std::filesystem::path(path).filename().string();
  return id;
}

// A checked file's payload (the format's own bytes, without page hashes and
// footer).
inline std::string Payload(const std::string& path) {
  std::string bytes = ReadFile(path);
  if (bytes.size() < kCheckedFooterSize) return {};
  uint64_t n = 0;
  std::memcpy(&n, bytes.data() + bytes.size() - kCheckedFooterSize + 40, 8);
  return n <= bytes.size() ? bytes.substr(0, n) : std::string();
}

// A real store in a temporary directory whose derived generations a test
// builds by hand: Start() a builder, write files into it, Commit() and read
// them through the view it returns (valid while the TestStore lives).
class TestStore {
 public:
  explicit TestStore(const std::string& dir) {
    auto s = Store::Open(dir, Store::Mode::kWrite, /*create=*/true);
    if (!s.ok()) throw StatusError(s.status());
    store_ = std::move(*s);
  }
  Store* store() { return store_.get(); }
  GenerationBuilder* Start(const std::string& artifact) {
    auto b = GenerationBuilder::Start(store_.get(), artifact);
    if (!b.ok()) throw StatusError(b.status());
    artifact_ = artifact;
    builder_ = std::move(*b);
    return builder_.get();
  }
  const GenerationView* Commit() {
    {
      Transaction txn(&store_->db(), "IMMEDIATE");
      Status st = builder_->Commit();
      if (!st.ok()) throw StatusError(st);
      txn.Commit();
    }
    builder_.reset();
    auto v = store_->Current(artifact_);
    if (!v.ok()) throw StatusError(v.status());
    return *v;
  }

 private:
  std::unique_ptr<Store> store_;
  std::unique_ptr<GenerationBuilder> builder_;
  std::string artifact_;
};

// Path of a fixture under tests/data.
inline std::string TestData(std::string_view name) {
  return std::string(LITGRAPH_TEST_DATA) + "/" + std::string(name);
}

}  // namespace litgraph::testing
