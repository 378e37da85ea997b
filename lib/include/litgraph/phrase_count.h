// Counting the corpus phrase statistics in bounded memory: the bytes of
// PhraseStats' file (keywords.h) for a corpus of any size.
//
// A PhraseCounter takes each document's statistics keys (PhraseKeysOf) into
// a buffer of at most `budget` bytes (8 per key). A full buffer is sorted
// and spilled to a run file of (key, count) pairs, keys ascending, each once
// (u64 key, u32 count: 12 bytes a pair), or takes a counts file another
// counter wrote (AddCounts). Write() merges the runs, summing
// each key's counts, at most kMaxMergeWidth at a time (more are first merged
// into one, and so on), and streams the keys counted in two documents or
// more, and their counts, into the statistics file: the same bytes that
// PhraseStats::AddDocument over the same documents and PhraseStats::Write
// give, whatever the budget.
//
// Memory: the buffer, then while merging a read buffer per run (budget /
// 128, between 16 KiB and 1 MiB). Disk: 12 bytes per distinct key of each
// run, and 4 per key written, in `dir`. The counter creates `dir` and
// removes it when it goes; a killed process leaves it to its next owner.
// Not thread-safe (it sorts a full buffer on `threads` threads of its own).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "litgraph/checked_file.h"
#include "litgraph/status.h"

namespace litgraph {

// A checked file to write: its path and identity.
struct PhraseFile {
  std::string path;
  FileIdentity id;
};

class PhraseCounter {
 public:
  static constexpr size_t kMaxMergeWidth = 64;  // runs open at once

  // `threads`: for sorting a full buffer.
  PhraseCounter(std::string dir, size_t budget, int threads = 1);
  ~PhraseCounter();
  PhraseCounter(const PhraseCounter&) = delete;
  PhraseCounter& operator=(const PhraseCounter&) = delete;

  // Counts the candidate phrases of one document (PhraseKeysOf).
  void AddDocument(std::string_view title, std::string_view abstract);
  // Counts one document given by its keys, each once.
  void AddKeys(std::span<const uint64_t> keys);
  // Counts the documents a phrase counts file holds (Write's `all`: another
  // store's, checked with its identity), merged as one more run: a merge
  // adds a shard's counts instead of its texts. The file must stay until
  // Write; a damaged one fails Write.
  void AddCounts(const std::string& path, const FileIdentity& id);

  // Merges the runs and writes the statistics file as a checked file. Once.
  Status Write(const std::string& path, const FileIdentity& id);
  // The same, into either or both of: `df`, the statistics (keys of two
  // documents or more), and `all`, the phrase counts file (every key, the
  // same format: what AddCounts takes).
  Status Write(const PhraseFile* df, const PhraseFile* all);

  uint64_t num_docs() const { return num_docs_; }
  // Distinct keys counted, one-document keys included (after Write).
  uint64_t distinct() const { return distinct_; }
  // Runs spilled so far.
  size_t runs() const { return runs_.size(); }

 private:
  void Spill();
  // Merges runs_[0, n) into fn(key, count) calls, keys ascending, each once.
  template <typename Fn>
  Status Merge(size_t n, Fn&& fn);
  std::string RunPath();
  std::string dir_;
  int threads_;
  size_t capacity_;     // keys in the buffer
  size_t read_buffer_;  // bytes per run while merging
  std::vector<uint64_t> buffer_;
  struct Input {  // a run of this counter's, or another store's counts file
    std::string path;
    FileIdentity id;
    bool counts;
  };
  std::vector<Input> runs_;
  size_t next_run_ = 0;
  uint64_t num_docs_ = 0, distinct_ = 0;
  std::vector<uint64_t> keys_;  // AddDocument's scratch
  Status status_;               // the first failure to write a run
};

}  // namespace litgraph
