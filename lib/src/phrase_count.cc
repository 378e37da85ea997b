#include "litgraph/phrase_count.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <utility>

#include "litgraph/keywords.h"
#include "parallel_chunks.h"
#include "phrase_stats_format.h"
#include "spill_file.h"

namespace litgraph {

namespace fs = std::filesystem;

namespace {

constexpr size_t kPairBytes = 12;  // u64 key, u32 count

// A run's (key, count) pairs read back through a buffer; or those of a
// phrase counts file (a statistics file of every key: AddCounts), read from
// its checked mapping a window at a time.
class RunReader {
 public:
  RunReader() = default;
  RunReader(const RunReader&) = delete;
  RunReader& operator=(const RunReader&) = delete;
  ~RunReader() {
    if (f_) std::fclose(f_);
  }
  Status Open(const std::string& path, size_t buffer) {
    path_ = path;
    f_ = std::fopen(path.c_str(), "rb");
    if (!f_) return ErrnoError(path, "open");
    buf_.resize(std::max<size_t>(buffer / kPairBytes, 1) * kPairBytes);
    return Status::Ok();
  }
  Status OpenCounts(const std::string& path, const FileIdentity& id) {
    path_ = path;
    LITGRAPH_RETURN_IF_ERROR(counts_.Open(path, id));
    StatsHeader h;
    LITGRAPH_RETURN_IF_ERROR(ReadStatsHeader(counts_, path, &h));
    pairs_ = h.count;
    return Status::Ok();
  }
  // The next pair; false at the end or on an error (status()).
  bool Next(uint64_t* key, uint32_t* count) {
    if (!f_) return NextCounted(key, count);
    if (at_ == end_) {
      end_ = std::fread(buf_.data(), 1, buf_.size(), f_);
      at_ = 0;
      if (std::ferror(f_)) status_ = ErrnoError(path_, "read");
      if (end_ % kPairBytes != 0 && status_.ok())
        status_ = Status::Corruption(path_ + ": truncated run");
      if (end_ == 0 || !status_.ok()) return false;
    }
    std::memcpy(key, buf_.data() + at_, 8);
    std::memcpy(count, buf_.data() + at_ + 8, 4);
    at_ += kPairBytes;
    return true;
  }
  const Status& status() const { return status_; }

 private:
  bool NextCounted(uint64_t* key, uint32_t* count) {
    if (next_ == pairs_ || !status_.ok()) return false;
    if (next_ == window_end_) {  // the next window of keys and of counts
      constexpr uint64_t kWindow = 8192;
      window_end_ = std::min(pairs_, next_ + kWindow);
      const uint64_t n = window_end_ - next_;
      keys_ = counts_.Read(sizeof(StatsHeader) + 8 * next_, 8 * n);
      dfs_ = counts_.Read(sizeof(StatsHeader) + 8 * pairs_ + 4 * next_, 4 * n);
      window_ = next_;
      if (!keys_ || !dfs_) {
        status_ = counts_.status();
        return false;
      }
    }
    std::memcpy(key, keys_ + 8 * (next_ - window_), 8);
    std::memcpy(count, dfs_ + 4 * (next_ - window_), 4);
    ++next_;
    return true;
  }
  std::string path_;
  FILE* f_ = nullptr;
  std::vector<char> buf_;
  size_t at_ = 0, end_ = 0;
  CheckedFile counts_;
  uint64_t pairs_ = 0, next_ = 0, window_ = 0, window_end_ = 0;
  const uint8_t *keys_ = nullptr, *dfs_ = nullptr;
  Status status_;
};

// Partitions v[0, n) in place by byte `shift / 8` of its keys, into parts
// [start[b], start[b + 1]) (American flag sort's pass).
void PartitionByByte(uint64_t* v, size_t n, int shift, std::array<size_t, 257>* start) {
  std::array<size_t, 257>& s = *start;
  s.fill(0);
  for (size_t i = 0; i < n; ++i) ++s[((v[i] >> shift) & 255) + 1];
  for (size_t b = 0; b < 256; ++b) s[b + 1] += s[b];
  std::array<size_t, 256> next;
  std::copy(s.begin(), s.end() - 1, next.begin());
  for (size_t b = 0; b < 256; ++b)
    while (next[b] < s[b + 1]) {  // each key swapped into its part
      uint64_t x = v[next[b]];
      for (size_t d = (x >> shift) & 255; d != b; d = (x >> shift) & 255)
        std::swap(x, v[next[d]++]);
      v[next[b]++] = x;
    }
}

// Sorts hash keys (spread evenly over their top bytes): partitioned by the
// top byte, then each part, on `threads` threads, by the second byte, and
// the small parts sorted in cache. 64M random keys on this machine: 7.7 s
// with std::sort, 6.1-6.4 s this way on one thread, 4.2-4.3 s on two.
void SortKeys(std::vector<uint64_t>* keys, int threads) {
  std::array<size_t, 257> start;
  PartitionByByte(keys->data(), keys->size(), 56, &start);
  ParallelChunks(256, threads, 1, [&](uint64_t b, uint64_t e, int) {
    std::array<size_t, 257> inner;
    for (; b < e; ++b) {
      uint64_t* part = keys->data() + start[b];
      PartitionByByte(part, start[b + 1] - start[b], 48, &inner);
      for (size_t c = 0; c < 256; ++c) std::sort(part + inner[c], part + inner[c + 1]);
    }
  });
}

}  // namespace

PhraseCounter::PhraseCounter(std::string dir, size_t budget, int threads)
    : dir_(std::move(dir)),
      threads_(threads),
      capacity_(std::max<size_t>(budget / sizeof(uint64_t), 1)),
      read_buffer_(std::clamp<size_t>(budget / (2 * kMaxMergeWidth), 16 << 10, 1 << 20)) {
  std::error_code ec;
  fs::create_directories(dir_, ec);  // a failure shows when a run is written
  buffer_.reserve(capacity_);
}

PhraseCounter::~PhraseCounter() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

void PhraseCounter::AddDocument(std::string_view title, std::string_view abstract) {
  PhraseKeysOf(title, abstract, &keys_);
  AddKeys(keys_);
}

// A document's keys may be split between two runs: its keys are distinct,
// so the sums are the same.
void PhraseCounter::AddKeys(std::span<const uint64_t> keys) {
  for (uint64_t k : keys) {
    buffer_.push_back(k);
    if (buffer_.size() >= capacity_) Spill();
  }
  ++num_docs_;
}

std::string PhraseCounter::RunPath() { return fmt::format("{}/{}.run", dir_, next_run_++); }

void PhraseCounter::Spill() {
  if (!buffer_.empty() && status_.ok()) {
    SortKeys(&buffer_, threads_);
    std::string path = RunPath();
    OutFile out;
    status_ = out.Open(path);
    for (size_t i = 0; i < buffer_.size() && status_.ok();) {
      size_t j = i + 1;
      while (j < buffer_.size() && buffer_[j] == buffer_[i]) ++j;
      out.Raw(buffer_[i]);
      out.Raw(static_cast<uint32_t>(j - i));
      i = j;
    }
    Status closed = out.Close();
    if (status_.ok()) status_ = closed;
    if (status_.ok()) runs_.push_back({std::move(path), {}, false});
  }
  buffer_.clear();
}

void PhraseCounter::AddCounts(const std::string& path, const FileIdentity& id) {
  if (!status_.ok()) return;
  CheckedFile f;
  StatsHeader h;
  status_ = f.Open(path, id);
  if (status_.ok()) status_ = ReadStatsHeader(f, path, &h);
  if (!status_.ok()) return;
  runs_.push_back({path, id, true});
  num_docs_ += h.num_docs;
}

template <typename Fn>
Status PhraseCounter::Merge(size_t n, Fn&& fn) {
  std::vector<RunReader> files(n);
  std::vector<uint32_t> counts(n);
  std::vector<std::pair<uint64_t, size_t>> heap;  // (key, run), smallest key first
  for (size_t r = 0; r < n; ++r) {
    const Input& in = runs_[r];
    LITGRAPH_RETURN_IF_ERROR(in.counts ? files[r].OpenCounts(in.path, in.id)
                                       : files[r].Open(in.path, read_buffer_));
    uint64_t key;
    if (files[r].Next(&key, &counts[r])) heap.emplace_back(key, r);
    LITGRAPH_RETURN_IF_ERROR(files[r].status());
  }
  const auto later = std::greater<>();
  std::make_heap(heap.begin(), heap.end(), later);
  while (!heap.empty()) {
    const uint64_t key = heap.front().first;
    uint32_t count = 0;
    while (!heap.empty() && heap.front().first == key) {
      std::pop_heap(heap.begin(), heap.end(), later);
      const size_t r = heap.back().second;
      count += counts[r];
      if (files[r].Next(&heap.back().first, &counts[r])) {
        std::push_heap(heap.begin(), heap.end(), later);
      } else {
        LITGRAPH_RETURN_IF_ERROR(files[r].status());
        heap.pop_back();
      }
    }
    LITGRAPH_RETURN_IF_ERROR(fn(key, count));
  }
  return Status::Ok();
}

namespace {

// One statistics file being written: the keys counted at least `min`
// times go into the file as they come, their counts to a side file
// appended after them; the header, written first, gets the count last.
class StatsOut {
 public:
  StatsOut(const PhraseFile& f, uint32_t min, std::string counts_path)
      : f_(f), min_(min), counts_path_(std::move(counts_path)) {}
  Status Open(uint64_t num_docs) {
    std::memcpy(h_.magic, kStatsMagic, 8);
    h_.num_docs = num_docs;
    LITGRAPH_RETURN_IF_ERROR(file_.Open(f_.path, f_.id));
    LITGRAPH_RETURN_IF_ERROR(file_.Append(header()));
    return counts_.Open(counts_path_);
  }
  Status Add(uint64_t key, uint32_t count) {
    if (count < min_) return Status::Ok();
    ++h_.count;
    keys_.append(reinterpret_cast<const char*>(&key), sizeof key);
    counts_.Raw(count);
    if (keys_.size() < kWriteBuffer) return Status::Ok();
    Status st = file_.Append(keys_);
    keys_.clear();
    return st;
  }
  Status Finish() {
    LITGRAPH_RETURN_IF_ERROR(file_.Append(keys_));
    LITGRAPH_RETURN_IF_ERROR(counts_.Close());
    LITGRAPH_RETURN_IF_ERROR(AppendFile(counts_path_, &file_));
    LITGRAPH_RETURN_IF_ERROR(file_.PatchHeader(0, header()));
    LITGRAPH_RETURN_IF_ERROR(file_.Finish());
    std::error_code ec;
    fs::remove(counts_path_, ec);
    return Status::Ok();
  }

 private:
  std::string_view header() const { return {reinterpret_cast<const char*>(&h_), sizeof h_}; }
  const PhraseFile& f_;
  const uint32_t min_;
  const std::string counts_path_;
  StatsHeader h_{};
  CheckedFileWriter file_;
  OutFile counts_;
  std::string keys_;
};

}  // namespace

Status PhraseCounter::Write(const std::string& path, const FileIdentity& id) {
  const PhraseFile df{path, id};
  return Write(&df, nullptr);
}

Status PhraseCounter::Write(const PhraseFile* df, const PhraseFile* all) {
  Spill();                        // the rest as a last run: the buffer's memory goes
  buffer_ = decltype(buffer_)();  // not `= {}`: that keeps the capacity
  LITGRAPH_RETURN_IF_ERROR(status_);
  std::error_code ec;
  auto remove_runs = [&](size_t n) {  // (counts files belong to their stores)
    for (size_t r = 0; r < n; ++r)
      if (!runs_[r].counts) fs::remove(runs_[r].path, ec);
    runs_.erase(runs_.begin(), runs_.begin() + static_cast<int64_t>(n));
  };
  // Too many runs to open at once: the oldest are merged into one.
  while (runs_.size() > kMaxMergeWidth) {
    std::string merged = RunPath();
    OutFile out;
    LITGRAPH_RETURN_IF_ERROR(out.Open(merged));
    LITGRAPH_RETURN_IF_ERROR(Merge(kMaxMergeWidth, [&](uint64_t key, uint32_t count) {
      out.Raw(key);
      out.Raw(count);
      return Status::Ok();
    }));
    LITGRAPH_RETURN_IF_ERROR(out.Close());
    remove_runs(kMaxMergeWidth);
    runs_.push_back({std::move(merged), {}, false});
  }
  // Keys counted in one document are implied by the statistics (df 1:
  // PhraseStats::Write); the counts file holds them too.
  std::vector<std::unique_ptr<StatsOut>> outs;
  if (df) outs.push_back(std::make_unique<StatsOut>(*df, 2, dir_ + "/counts.df"));
  if (all) outs.push_back(std::make_unique<StatsOut>(*all, 1, dir_ + "/counts.all"));
  for (auto& o : outs) LITGRAPH_RETURN_IF_ERROR(o->Open(num_docs_));
  distinct_ = 0;
  LITGRAPH_RETURN_IF_ERROR(Merge(runs_.size(), [&](uint64_t key, uint32_t count) {
    ++distinct_;
    for (auto& o : outs) LITGRAPH_RETURN_IF_ERROR(o->Add(key, count));
    return Status::Ok();
  }));
  for (auto& o : outs) LITGRAPH_RETURN_IF_ERROR(o->Finish());
  remove_runs(runs_.size());
  return Status::Ok();
}

}  // namespace litgraph
