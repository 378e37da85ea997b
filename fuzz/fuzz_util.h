// Shared pieces of the libFuzzer targets in fuzz/ (doc/fuzzing.md).
//
// Derived files are checked files (checked_file.h): a payload behind page
// hashes and a footer naming store, build and file. A target fuzzes them two
// ways, chosen by the input's first byte:
//   'R'    the rest of the input is the whole file, footer included: it must
//          be refused cleanly (or, when the footer survives, every damaged
//          page read as damage);
//   other  the whole input is the payload, written with WriteCheckedFile and
//          the identity the reader expects, so the format parser behind the
//          checksum sees any byte sequence (a writer bug, a forged file).
// Files go to a scratch directory on tmpfs ($LITGRAPH_FUZZ_TMP, else
// /dev/shm/litgraph-fuzz-<pid>, else $TMPDIR), removed at exit.
//
// Targets never print; a broken invariant (an oracle) calls Check, which
// aborts so that libFuzzer records the input.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "litgraph/checked_file.h"
#include "litgraph/generation.h"
#include "litgraph/status.h"

namespace litgraph::fuzz {

// Aborts (a libFuzzer crash with this input) when an invariant fails.
inline void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz invariant failed: %s\n", what);
    std::abort();
  }
}

// Uses a value so the reads that produced it are not optimized away.
template <typename T>
inline void Use(const T& v) {
  asm volatile("" : : "g"(&v) : "memory");
}

// The scratch directory of this process, created on first use.
inline const std::string& ScratchDir() {
  // Never destroyed: the exit handler below runs after static destructors.
  static const std::string* dir = [] {
    std::string base;
    if (const char* t = std::getenv("LITGRAPH_FUZZ_TMP"); t && *t) {
      base = t;
    } else if (std::filesystem::is_directory("/dev/shm")) {
      base = "/dev/shm";
    } else {
      const char* t2 = std::getenv("TMPDIR");
      base = t2 && *t2 ? t2 : "/tmp";
    }
    auto* d = new std::string(base + "/litgraph-fuzz-" + std::to_string(getpid()));
    std::filesystem::remove_all(*d);
    std::filesystem::create_directories(*d);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(ScratchDir(), ec);
    });
    return d;
  }();
  return *dir;
}

// The store every fuzzed file claims to belong to.
inline StoreId FuzzStoreId() {
  StoreId id{};
  for (size_t i = 0; i < id.size(); ++i) id[i] = static_cast<uint8_t>(i + 1);
  return id;
}

// The identity a file named `name` must have (build 1 of the fuzz store).
inline FileIdentity Identity(const std::string& name, uint64_t build = 1) {
  return FileIdentity{FuzzStoreId(), build, name};
}

// A fuzz input: the raw file ('R' first) or a payload.
struct Input {
  bool raw = false;
  std::string_view bytes;
};

inline Input Decode(const uint8_t* data, size_t size) {
  std::string_view all(reinterpret_cast<const char*>(data), size);
  if (!all.empty() && all[0] == 'R') return {true, all.substr(1)};
  return {false, all};
}

// Writes bytes as they are (no fsync: a scratch file).
inline void WriteRaw(const std::string& path, std::string_view bytes) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  Check(fd >= 0, "cannot create a scratch file");
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t w = write(fd, bytes.data() + done, bytes.size() - done);
    Check(w > 0, "cannot write a scratch file");
    done += static_cast<size_t>(w);
  }
  close(fd);
}

// Writes an input as the file at `path` with identity `id`: raw, or its
// payload wrapped as a checked file.
inline void WriteInput(const std::string& path, const FileIdentity& id, const Input& in) {
  if (in.raw) {
    WriteRaw(path, in.bytes);
  } else {
    Status st = WriteCheckedFile(path, id, in.bytes);
    if (!st.ok()) std::fprintf(stderr, "%s\n", st.message().c_str());
    Check(st.ok(), "WriteCheckedFile failed on tmpfs");
  }
}

// Two inputs in one: the bytes before and after the first kSplit (files of
// a pair such as lexicon + postings); the second is empty when there is none.
inline constexpr std::string_view kSplit = "\n--LGFUZZ--\n";
inline std::pair<std::string_view, std::string_view> SplitPair(std::string_view bytes) {
  size_t at = bytes.find(kSplit);
  if (at == std::string_view::npos) return {bytes, {}};
  return {bytes.substr(0, at), bytes.substr(at + kSplit.size())};
}

// A generation directory <scratch>/<artifact>.1 whose MANIFEST (build 1)
// lists `files`, all of build 1 and empty (the targets write them after the
// view is open: a view checks sizes at open only), and an empty PIN;
// returns its view.
inline std::unique_ptr<GenerationView> MakeGeneration(const std::string& artifact,
                                                      const std::vector<std::string>& files,
                                                      const nlohmann::json& info = {}) {
  const std::string dir = ScratchDir() + "/" + artifact + ".1";
  std::filesystem::create_directories(dir);
  WriteRaw(dir + "/PIN", "");
  nlohmann::json j = {{"format", kDerivedFormat}, {"artifact", artifact}, {"generation", 1}};
  j["files"] = nlohmann::json::object();
  for (const auto& f : files) {
    WriteRaw(dir + "/" + f, "");
    j["files"][f] = {1, 0};
  }
  j["info"] = info.is_null() ? nlohmann::json::object() : info;
  Status st = WriteCheckedFile(dir + "/MANIFEST", Identity("MANIFEST"), j.dump());
  Check(st.ok(), "cannot write a MANIFEST");
  bool gone = false;
  auto v = GenerationView::Open(ScratchDir(), FuzzStoreId(), artifact, 1, false, &gone);
  Check(v.ok(), "cannot open the generation just written");
  return std::move(*v);
}

// The deterministic small vector file the HNSW target searches and its seeds
// were built over: kRows rows of kDim floats, unit length, row 0 and every
// seventh row absent (zero).
inline constexpr int kHnswDim = 8;
inline constexpr uint64_t kHnswRows = 48;
inline std::vector<float> HnswRows() {
  std::vector<float> v(kHnswRows * kHnswDim, 0.0f);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (uint64_t r = 1; r < kHnswRows; ++r) {
    if (r % 7 == 0) continue;
    double norm = 0;
    for (int d = 0; d < kHnswDim; ++d) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      float f = static_cast<float>(static_cast<int64_t>(x % 2001) - 1000) / 1000.0f;
      v[r * kHnswDim + d] = f;
      norm += static_cast<double>(f) * f;
    }
    if (norm == 0) continue;
    for (int d = 0; d < kHnswDim; ++d)
      v[r * kHnswDim + d] = static_cast<float>(v[r * kHnswDim + d] / std::sqrt(norm));
  }
  return v;
}

// A few texts in the vocabulary of tests/data (queries, keyword extraction).
inline const std::vector<std::string>& SampleTexts() {
  static const std::vector<std::string> t = {
      "graph neural networks for molecule property prediction",
      "biodiversity finance and natural capital accounting",
      "citation analysis of open access articles",
      "the state of open access: a large-scale analysis of the prevalence and impact of open "
      "access articles",
      "deep learning",
      "",
      "\"A Survey of Snowball Sampling in Citation Networks\" and related work",
      "[1] A. Author. Ecosystem services valuation in conservation finance. Nature, 2019.",
  };
  return t;
}

}  // namespace litgraph::fuzz
