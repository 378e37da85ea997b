#include "litgraph/edge_sort.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

namespace litgraph {

namespace {

bool Less(const Edge& a, const Edge& b) {
  if (a.src != b.src) return a.src < b.src;
  if (a.dst != b.dst) return a.dst < b.dst;
  return a.attr < b.attr;
}

}  // namespace

EdgeSorter::EdgeSorter(std::string dir, std::string prefix, uint64_t sources, size_t budget)
    : dir_(std::move(dir)),
      prefix_(std::move(prefix)),
      sources_(sources),
      capacity_(std::max<size_t>(budget / (2 * sizeof(Edge)), 1024)) {}  // + its sorted copy

EdgeSorter::~EdgeSorter() {
  for (const std::string& r : runs_) std::remove(r.c_str());
}

EdgeSorter::EdgeSorter(EdgeSorter&& o) noexcept { *this = std::move(o); }

EdgeSorter& EdgeSorter::operator=(EdgeSorter&& o) noexcept {
  if (this == &o) return *this;
  for (const std::string& r : runs_) std::remove(r.c_str());
  dir_ = std::move(o.dir_);
  prefix_ = std::move(o.prefix_);
  sources_ = o.sources_;
  capacity_ = o.capacity_;
  buffer_ = std::move(o.buffer_);
  sorted_ = o.sorted_;
  runs_ = std::move(o.runs_);
  o.runs_.clear();
  spilled_ = o.spilled_;
  status_ = o.status_;
  return *this;
}

// Counting sort by source (ids below sources_; others are sorted after),
// then each source's edges by (dst, attr).
void EdgeSorter::SortBuffer() {
  if (sorted_) return;
  sorted_ = true;
  const size_t n = buffer_.size();
  if (n < 4096 || sources_ > 64 * n) {  // few edges over a large id space
    std::sort(buffer_.begin(), buffer_.end(), Less);
    return;
  }
  std::vector<uint32_t> start(sources_ + 1, 0);
  for (const Edge& e : buffer_)
    if (e.src >= sources_) {
      std::sort(buffer_.begin(), buffer_.end(), Less);  // ids outside the space
      return;
    } else {
      ++start[e.src + 1];
    }
  for (uint64_t s = 0; s < sources_; ++s) start[s + 1] += start[s];
  std::vector<Edge> out(n);
  {
    std::vector<uint32_t> fill(start.begin(), start.end() - 1);
    for (const Edge& e : buffer_) out[fill[e.src]++] = e;
  }
  for (uint64_t s = 0; s < sources_; ++s)
    if (start[s + 1] - start[s] > 1)
      std::sort(out.begin() + start[s], out.begin() + start[s + 1], Less);
  buffer_ = std::move(out);
}

void EdgeSorter::Spill() {
  if (!status_.ok() || buffer_.empty()) return;
  sorted_ = false;
  SortBuffer();
  std::string path = fmt::format("{}/{}.{}.run", dir_, prefix_, runs_.size());
  std::FILE* f = std::fopen(path.c_str(), "wb");
  bool ok = f && std::fwrite(buffer_.data(), sizeof(Edge), buffer_.size(), f) == buffer_.size();
  if (f && std::fclose(f) != 0) ok = false;
  if (!ok) {
    status_ = Status::IoError(
        fmt::format("{}: cannot write a sorted run: {}", path, std::strerror(errno ? errno : EIO)));
    std::remove(path.c_str());
    return;
  }
  runs_.push_back(std::move(path));
  spilled_ += buffer_.size();
  buffer_.clear();
  buffer_.shrink_to_fit();  // the next run allocates again: peak stays one buffer
  buffer_.reserve(capacity_);
  sorted_ = false;
}

struct EdgeSorter::Reader::Run {
  std::FILE* file = nullptr;
  std::vector<Edge> buf;
  size_t at = 0, have = 0;
  ~Run() {
    if (file) std::fclose(file);
  }
  // The run's next edge, or null at its end.
  const Edge* Head(Status* status, size_t chunk) {
    if (at < have) return &buf[at];
    buf.resize(chunk);
    have = std::fread(buf.data(), sizeof(Edge), chunk, file);
    at = 0;
    if (have == 0 && std::ferror(file) && status->ok())
      *status = Status::IoError("cannot read a sorted run back");
    return have ? &buf[0] : nullptr;
  }
};

EdgeSorter::Reader::~Reader() = default;
EdgeSorter::Reader::Reader(Reader&&) noexcept = default;

EdgeSorter::Reader EdgeSorter::Read() {
  Reader r;
  r.status_ = status_;
  if (runs_.empty()) {
    SortBuffer();
    r.memory_ = &buffer_;
    return r;
  }
  if (!buffer_.empty()) Spill();  // the rest as a last run: the buffer's memory goes
  buffer_ = std::vector<Edge>();
  r.status_ = status_;
  if (!r.status_.ok()) return r;
  // The sorter's budget is 2 x capacity_ edges (the buffer and its sorted
  // copy); its runs' read buffers share it.
  r.chunk_ = std::clamp<size_t>(2 * capacity_ / runs_.size(), kMinReadBuffer / sizeof(Edge),
                                kReadBuffer / sizeof(Edge));
  for (const std::string& path : runs_) {
    auto run = std::make_unique<Reader::Run>();
    run->file = std::fopen(path.c_str(), "rb");
    if (!run->file) {
      r.status_ = Status::IoError(fmt::format("{}: {}", path, std::strerror(errno)));
      return r;
    }
    if (run->Head(&r.status_, r.chunk_)) {
      r.heap_.push_back(static_cast<uint32_t>(r.runs_.size()));
      r.runs_.push_back(std::move(run));
    }
  }
  auto greater = [&r](uint32_t a, uint32_t b) {
    return Less(r.runs_[b]->buf[r.runs_[b]->at], r.runs_[a]->buf[r.runs_[a]->at]);
  };
  std::make_heap(r.heap_.begin(), r.heap_.end(), greater);
  return r;
}

const Edge* EdgeSorter::Reader::Next() {
  if (memory_) return at_ < memory_->size() ? &(*memory_)[at_++] : nullptr;
  if (heap_.empty() || !status_.ok()) return nullptr;
  auto greater = [this](uint32_t a, uint32_t b) {
    return Less(runs_[b]->buf[runs_[b]->at], runs_[a]->buf[runs_[a]->at]);
  };
  std::pop_heap(heap_.begin(), heap_.end(), greater);
  Run& run = *runs_[heap_.back()];
  current_ = run.buf[run.at++];
  if (run.Head(&status_, chunk_))
    std::push_heap(heap_.begin(), heap_.end(), greater);
  else
    heap_.pop_back();
  return &current_;
}

}  // namespace litgraph
