// Building the lexical index in bounded memory (lexical.h, LexicalBuilder).
//
// Add() tokenizes a document into (term, document, tf) postings of the run
// being collected; when the run's buffer reaches the budget it is sorted by
// term and spilled to a run file:
//
//   per term, bytewise ascending: varint length, the term's bytes,
//   varint count, count x (varint document-id delta, varint tf)
//
// Postings of a document added again later are dropped: at the spill when
// the later add is in the same run, at the merge otherwise (each run knows
// the serial numbers of the adds it holds, each document its latest add).
// Build() merges the runs by term twice: the first pass finds every term's
// df and so the largest BM25 weight (the global impact scale), the second
// writes each term's postings impact-descending and the lexicon's arrays.
// The files equal those of an in-memory build whatever the budget.

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <optional>

#include "lexical_format.h"
#include "litgraph/coding.h"
#include "litgraph/lexical.h"
#include "litgraph/store.h"
#include "litgraph/text.h"
#include "spill_file.h"
#include "text_feeder.h"

namespace litgraph {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxMergeWidth = 64;  // runs merged at once (open files)

// A run file read sequentially through a buffer.
class RunFile {
 public:
  RunFile() = default;
  RunFile(const RunFile&) = delete;
  RunFile& operator=(const RunFile&) = delete;
  ~RunFile() {
    if (f_) std::fclose(f_);
  }
  Status Open(const std::string& path, size_t buffer) {
    path_ = path;
    f_ = std::fopen(path.c_str(), "rb");
    if (!f_) return ErrnoError(path, "open");
    buf_.resize(std::max<size_t>(buffer, 64));
    return Status::Ok();
  }
  // The next term block's term and posting count; false at the end.
  bool NextTerm(std::string* term, uint64_t* count) {
    uint64_t len = 0;
    if (!Fill(1)) return false;
    if (!Varint(&len) || !Fill(len)) return Damaged();
    term->assign(reinterpret_cast<const char*>(buf_.data() + at_), len);
    at_ += len;
    return Varint(count) || Damaged();
  }
  bool Posting(uint64_t* doc_delta, uint64_t* tf) {
    return (Varint(doc_delta) && Varint(tf)) || Damaged();
  }
  const Status& status() const { return status_; }

 private:
  // At least n bytes buffered, unless the file ends first.
  bool Fill(size_t n) {
    if (end_ - at_ >= n) return true;
    std::memmove(buf_.data(), buf_.data() + at_, end_ - at_);
    end_ -= at_;
    at_ = 0;
    if (n > buf_.size()) buf_.resize(n);
    while (end_ < n) {
      size_t got = std::fread(buf_.data() + end_, 1, buf_.size() - end_, f_);
      if (got == 0) {
        if (std::ferror(f_)) status_ = ErrnoError(path_, "read");
        return false;
      }
      end_ += got;
    }
    return true;
  }
  bool Varint(uint64_t* v) {
    Fill(10);
    const uint8_t* p = buf_.data() + at_;
    if (!GetVarint(&p, buf_.data() + end_, v)) return false;
    at_ = static_cast<size_t>(p - buf_.data());
    return true;
  }
  bool Damaged() {
    if (status_.ok()) status_ = Status::Corruption(path_ + ": truncated or damaged run");
    return false;
  }
  std::string path_;
  FILE* f_ = nullptr;
  std::vector<uint8_t> buf_;
  size_t at_ = 0, end_ = 0;
  Status status_;
};

struct DocTf {
  uint32_t doc, tf;
};

// An index's kept run (<prefix>run; doc/graph-format.md): this header, u32
// (document, length) pairs by document, then the run's bytes.
constexpr char kSavedRunMagic[8] = {'L', 'G', 'L', 'R', 'U', 'N', 0, 1};
struct SavedRunHeader {
  char magic[8];
  uint64_t docs, run_bytes, reserved;
};
static_assert(sizeof(SavedRunHeader) == 32);

// Writes one term block of a run (postings in ascending document order).
void PutTermBlock(std::string_view term, const std::vector<DocTf>& postings, OutFile* out) {
  out->Varint(term.size());
  out->Put(term);
  out->Varint(postings.size());
  uint32_t prev = 0;
  for (const DocTf& p : postings) {
    out->Varint(p.doc - prev);
    out->Varint(p.tf);
    prev = p.doc;
  }
}

}  // namespace

// Merges runs by term: each term once, with the postings of its documents'
// latest versions (ascending document ids within each run's share).
class LexicalBuilder::Merger {
 public:
  // live(run, doc): whether run `run` holds doc's latest version.
  Merger(const std::vector<Run>& runs, size_t buffer,
         std::function<bool(size_t run, uint32_t doc)> live)
      : files_(runs.size()), terms_(runs.size()), counts_(runs.size()), live_(std::move(live)) {
    for (size_t r = 0; r < runs.size(); ++r) {
      shifts_.push_back(runs[r].shift);
      status_ = files_[r].Open(runs[r].path, buffer);
      if (!status_.ok()) return;
      Advance(r);
    }
  }
  // The next term with at least one live posting; false at the end or on
  // an error (status()).
  bool Next(std::string* term, std::vector<DocTf>* postings) {
    while (!heap_.empty() && status_.ok()) {
      postings->clear();
      *term = terms_[heap_.front()];
      while (!heap_.empty() && terms_[heap_.front()] == *term) {
        std::pop_heap(heap_.begin(), heap_.end(), Later());
        size_t r = heap_.back();
        heap_.pop_back();
        uint64_t doc = shifts_[r];
        for (uint64_t i = 0; i < counts_[r]; ++i) {
          uint64_t delta = 0, tf = 0;
          if (!files_[r].Posting(&delta, &tf)) break;
          doc += delta;
          if (live_(r, static_cast<uint32_t>(doc)))
            postings->push_back({static_cast<uint32_t>(doc), static_cast<uint32_t>(tf)});
        }
        if (!files_[r].status().ok()) {
          status_ = files_[r].status();
          return false;
        }
        Advance(r);
      }
      if (!postings->empty()) return status_.ok();
    }
    return false;
  }
  const Status& status() const { return status_; }

 private:
  struct LaterRun {
    const Merger* m;
    bool operator()(size_t a, size_t b) const {
      int c = m->terms_[a].compare(m->terms_[b]);
      return c != 0 ? c > 0 : a > b;
    }
  };
  LaterRun Later() const { return {this}; }
  void Advance(size_t r) {
    if (files_[r].NextTerm(&terms_[r], &counts_[r])) {
      heap_.push_back(r);
      std::push_heap(heap_.begin(), heap_.end(), Later());
    } else if (!files_[r].status().ok() && status_.ok()) {
      status_ = files_[r].status();
    }
  }
  std::vector<RunFile> files_;
  std::vector<std::string> terms_;
  std::vector<uint64_t> counts_;
  std::vector<uint32_t> shifts_;  // each run's (Run::shift)
  std::vector<size_t> heap_;
  std::function<bool(size_t, uint32_t)> live_;
  Status status_;
};

LexicalBuilder::LexicalBuilder(std::string dir, std::string name, bool title_only, size_t budget)
    : dir_(std::move(dir)),
      name_(std::move(name)),
      title_only_(title_only),
      budget_(std::max<size_t>(budget, 1 << 16)) {}

LexicalBuilder::~LexicalBuilder() {
  std::error_code ec;
  for (const Run& r : runs_) fs::remove(r.path, ec);
  fs::remove(PathOf("lexicon"), ec);
  fs::remove(PathOf("postings"), ec);
  fs::remove(PathOf("saved"), ec);
}

size_t LexicalBuilder::BufferBytes() const {
  return postings_.capacity() * sizeof(Posting) + words_.bytes() + stems_.bytes() +
         word_term_.capacity() * 4;
}

void LexicalBuilder::Add(uint32_t doc, std::string_view title, std::string_view abstract) {
  // Each distinct surface word of a run is stemmed once; kNoTerm marks
  // stopwords and one-letter words.
  tids_.clear();
  auto add_text = [&](std::string_view text) {
    ForEachWord(text, [&](std::string_view w) {
      bool added = false;
      uint32_t wid = words_.Intern(w, &added);
      if (added) {
        uint32_t term = kNoTerm;
        if (w.size() >= 2 && !IsStopword(w)) term = stems_.Intern(Stem(w));
        word_term_.push_back(term);
      }
      if (word_term_[wid] != kNoTerm) tids_.push_back(word_term_[wid]);
    });
  };
  add_text(title);
  if (!title_only_) add_text(abstract);
  if (doc >= latest_.size()) {
    size_t n = std::max<size_t>(doc + 1, latest_.size() * 2);
    latest_.resize(n, 0);
    length_.resize(n, 0);
  }
  latest_[doc] = ++serial_;
  length_[doc] = static_cast<uint32_t>(tids_.size());
  std::sort(tids_.begin(), tids_.end());
  for (size_t i = 0; i < tids_.size();) {
    size_t j = i;
    while (j < tids_.size() && tids_[j] == tids_[i]) ++j;
    postings_.push_back(
        {tids_[i], doc, serial_, static_cast<uint32_t>(std::min<size_t>(j - i, 65535))});
    i = j;
  }
  if (BufferBytes() > budget_) Spill();
}

// Sorts the run's postings by term (a counting sort by the terms' bytewise
// rank; within a term they are in the order added) and writes its file.
void LexicalBuilder::Spill() {
  const size_t n_terms = stems_.size();
  if (!postings_.empty() && status_.ok()) {
    std::vector<uint32_t> order(n_terms), start(n_terms + 1, 0);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return stems_.str(a) < stems_.str(b); });
    std::vector<uint32_t> rank(n_terms);
    for (uint32_t r = 0; r < n_terms; ++r) rank[order[r]] = r;
    for (const Posting& p : postings_) ++start[rank[p.tid] + 1];
    for (size_t r = 0; r < n_terms; ++r) start[r + 1] += start[r];
    std::vector<Posting> sorted(postings_.size());
    {
      std::vector<uint32_t> fill(start.begin(), start.end() - 1);
      for (const Posting& p : postings_) sorted[fill[rank[p.tid]]++] = p;
    }
    postings_ = decltype(postings_)();  // not `= {}`: that keeps the capacity
    Run run{PathOf(fmt::format("{}.run", next_run_++)), run_first_serial_, serial_ + 1};
    OutFile out;
    status_ = out.Open(run.path);
    std::vector<DocTf> live;
    for (size_t r = 0; r < n_terms && status_.ok(); ++r) {
      live.clear();
      bool ascending = true;
      for (uint32_t i = start[r]; i < start[r + 1]; ++i) {
        const Posting& p = sorted[i];
        if (latest_[p.doc] != p.serial) continue;  // added again in this run
        ascending = ascending && (live.empty() || live.back().doc < p.doc);
        live.push_back({p.doc, p.tf});
      }
      if (!ascending)
        std::sort(live.begin(), live.end(),
                  [](const DocTf& a, const DocTf& b) { return a.doc < b.doc; });
      if (!live.empty()) PutTermBlock(stems_.str(order[r]), live, &out);
    }
    Status closed = out.Close();
    if (status_.ok()) status_ = closed;
    runs_.push_back(std::move(run));
  }
  run_first_serial_ = serial_ + 1;
  postings_ = decltype(postings_)();
  // Swapped with fresh ones, not assigned: a moved-in short string keeps the
  // arena's buffer.
  StringInterner words, stems;
  std::swap(words_, words);
  std::swap(stems_, stems);
  word_term_ = decltype(word_term_)();
}

Status LexicalBuilder::Build(uint64_t id_space, const Bm25Params& params,
                             const LexicalFrame* frame) {
  Spill();
  LITGRAPH_RETURN_IF_ERROR(status_);
  tids_ = decltype(tids_)();
  // Document lengths of each document's latest version (a delta: the base's
  // statistics, plus the papers beyond the base's id space).
  const uint64_t docs_seen = std::min<uint64_t>(latest_.size(), id_space);
  uint64_t num_docs = 0, total_len = 0;
  for (uint64_t d = frame ? frame->base_id_space : 0; d < docs_seen; ++d)
    if (latest_[d] != 0 && length_[d] > 0) {
      ++num_docs;
      total_len += length_[d];
    }
  const double avgdl = frame      ? frame->avgdl
                       : num_docs ? static_cast<double>(total_len) / num_docs
                                  : 1.0;
  if (frame) num_docs += frame->base_docs;
  // A term's df: a delta adds the base's.
  auto df_of = [&](const std::string& term, size_t postings) {
    return static_cast<uint32_t>(postings + (frame ? frame->base_df(term) : 0));
  };
  auto live = [&](const Run& run, uint32_t doc) {
    return doc < docs_seen && latest_[doc] >= run.first_serial && latest_[doc] < run.end_serial;
  };
  const size_t buffer = std::clamp<size_t>(budget_ / (2 * kMaxMergeWidth), 16 << 10, 1 << 20);
  // Too many runs to open at once: merge the oldest into one (its postings
  // all live, it holds the serials of the runs it replaces).
  while (runs_.size() > kMaxMergeWidth) {
    std::vector<Run> group(runs_.begin(), runs_.begin() + kMaxMergeWidth);
    Run merged{PathOf(fmt::format("{}.run", next_run_++)), group.front().first_serial,
               group.back().end_serial};
    Merger m(group, buffer, [&](size_t r, uint32_t doc) { return live(group[r], doc); });
    OutFile out;
    LITGRAPH_RETURN_IF_ERROR(out.Open(merged.path));
    std::string term;
    std::vector<DocTf> postings;
    while (m.Next(&term, &postings)) {
      std::sort(postings.begin(), postings.end(),
                [](const DocTf& a, const DocTf& b) { return a.doc < b.doc; });
      PutTermBlock(term, postings, &out);
    }
    LITGRAPH_RETURN_IF_ERROR(m.status());
    LITGRAPH_RETURN_IF_ERROR(out.Close());
    std::error_code ec;
    for (const Run& r : group) fs::remove(r.path, ec);
    // It takes the place of the runs it replaces: runs stay in serial order,
    // so a later group's serials are one interval (appended at the end, a
    // group mixing it with newer runs had an empty interval and lost its
    // documents).
    runs_.erase(runs_.begin(), runs_.begin() + kMaxMergeWidth);
    runs_.insert(runs_.begin(), std::move(merged));
  }
  auto merge = [&] {
    return Merger(runs_, buffer, [&](size_t r, uint32_t doc) { return live(runs_[r], doc); });
  };
  auto weight = [&](double idf, const DocTf& p) {
    double tf = p.tf;
    double norm = params.k1 * (1 - params.b + params.b * length_[p.doc] / avgdl);
    return idf * tf * (params.k1 + 1) / (tf + norm);
  };
  // Pass 1: the number of terms, their bytes, and the largest weight.
  uint64_t n_terms = 0, n_post = 0, strings_bytes = 0;
  double max_w = 0;
  std::string term;
  std::vector<DocTf> postings;
  {
    Merger m = merge();
    while (m.Next(&term, &postings)) {
      if (!frame) {
        const double idf = IdfOf(num_docs, df_of(term, postings.size()));
        for (const DocTf& p : postings) max_w = std::max(max_w, weight(idf, p));
      }
      ++n_terms;
      n_post += postings.size();
      strings_bytes += term.size();
    }
    LITGRAPH_RETURN_IF_ERROR(m.status());
  }
  const double scale = frame ? frame->scale : max_w > 0 ? max_w / 255.0 : 1.0;
  // Pass 2: postings, and the lexicon's four arrays written in place.
  LexHeader h{};
  std::memcpy(h.magic, kLexMagic, 8);
  h.num_terms = n_terms;
  h.num_docs = num_docs;
  h.id_space = id_space;
  h.scale = scale;
  h.avgdl = avgdl;
  h.k1 = params.k1;
  h.b = params.b;
  h.strings_bytes = strings_bytes;
  const std::string lexicon_path = PathOf("lexicon"), postings_path = PathOf("postings");
  const uint64_t term_off_at = sizeof h, post_off_at = term_off_at + (n_terms + 1) * 8,
                 df_at = post_off_at + (n_terms + 1) * 8, strings_at = df_at + n_terms * 4;
  {
    OutFile header;
    LITGRAPH_RETURN_IF_ERROR(header.Open(lexicon_path));
    header.Raw(h);
    LITGRAPH_RETURN_IF_ERROR(header.Close());
  }
  OutFile term_off, post_off, dfs, strings, out;
  LITGRAPH_RETURN_IF_ERROR(term_off.Open(lexicon_path, static_cast<int64_t>(term_off_at)));
  LITGRAPH_RETURN_IF_ERROR(post_off.Open(lexicon_path, static_cast<int64_t>(post_off_at)));
  LITGRAPH_RETURN_IF_ERROR(dfs.Open(lexicon_path, static_cast<int64_t>(df_at)));
  LITGRAPH_RETURN_IF_ERROR(strings.Open(lexicon_path, static_cast<int64_t>(strings_at)));
  LITGRAPH_RETURN_IF_ERROR(out.Open(postings_path));
  // The postings as one run, for the next update (AddSaved).
  OutFile saved;
  LITGRAPH_RETURN_IF_ERROR(saved.Open(PathOf("saved")));
  built_id_space_ = id_space;
  std::vector<DocTf> by_doc;
  std::vector<uint64_t> keys;  // (255 - impact) << 32 | doc
  std::string block, segment;
  Merger m = merge();
  while (m.Next(&term, &postings)) {
    by_doc = postings;
    std::sort(by_doc.begin(), by_doc.end(),
              [](const DocTf& a, const DocTf& b) { return a.doc < b.doc; });
    PutTermBlock(term, by_doc, &saved);
    const double idf = IdfOf(num_docs, df_of(term, postings.size()));
    keys.clear();
    for (const DocTf& p : postings) {
      auto imp = static_cast<uint64_t>(
          std::clamp<long>(std::lround(static_cast<float>(weight(idf, p)) / scale), 1, 255));
      keys.push_back((255 - imp) << 32 | p.doc);
    }
    std::sort(keys.begin(), keys.end());
    // Varint segment count, then per segment: u8 impact, varint count,
    // varint bytes, the doc-id deltas (the first one absolute).
    block.clear();
    uint32_t segments = 0;
    for (size_t i = 0; i < keys.size(); ++i)
      segments += i == 0 || keys[i] >> 32 != keys[i - 1] >> 32;
    PutVarint(segments, &block);
    for (size_t i = 0; i < keys.size();) {
      size_t j = i;
      while (j < keys.size() && keys[j] >> 32 == keys[i] >> 32) ++j;
      block.push_back(static_cast<char>(255 - (keys[i] >> 32)));
      PutVarint(j - i, &block);
      segment.clear();
      uint32_t prev = 0;
      for (size_t k = i; k < j; ++k) {
        const auto doc = static_cast<uint32_t>(keys[k]);
        PutVarint(k == i ? doc : doc - prev, &segment);
        prev = doc;
      }
      PutVarint(segment.size(), &block);
      block += segment;
      i = j;
    }
    term_off.Raw(static_cast<uint64_t>(strings.written()));
    post_off.Raw(static_cast<uint64_t>(out.written()));
    dfs.Raw(static_cast<uint32_t>(postings.size()));
    strings.Put(term);
    out.Put(block);
  }
  LITGRAPH_RETURN_IF_ERROR(m.status());
  term_off.Raw(static_cast<uint64_t>(strings.written()));
  post_off.Raw(static_cast<uint64_t>(out.written()));
  built_.terms = static_cast<int64_t>(n_terms);
  built_.postings = static_cast<int64_t>(n_post);
  built_.bytes = static_cast<int64_t>(strings_at + strings.written() + out.written());
  for (OutFile* f : {&term_off, &post_off, &dfs, &strings, &out, &saved})
    LITGRAPH_RETURN_IF_ERROR(f->Close());
  return Status::Ok();
}

Status LexicalBuilder::Write(GenerationBuilder* out, const std::string& prefix,
                             LexicalBuildStats* stats) {
  LITGRAPH_RETURN_IF_ERROR(status_);
  for (const char* what : {"lexicon", "postings"}) {
    const std::string from = PathOf(what), name = prefix + what;
    CheckedFileWriter w;
    LITGRAPH_RETURN_IF_ERROR(w.Open(out->Path(name), out->NewFile(name)));
    LITGRAPH_RETURN_IF_ERROR(AppendFile(from, &w));
    LITGRAPH_RETURN_IF_ERROR(w.Finish());
    std::error_code ec;
    fs::remove(from, ec);
  }
  // The run: header, (doc, length) of every document indexed, the postings.
  std::string docs;
  for (uint64_t d = 0; d < std::min<uint64_t>(latest_.size(), built_id_space_); ++d)
    if (latest_[d] != 0) {
      const uint32_t pair[2] = {static_cast<uint32_t>(d), length_[d]};
      docs.append(reinterpret_cast<const char*>(pair), sizeof pair);
    }
  std::error_code ec;
  const uint64_t run_bytes = fs::file_size(PathOf("saved"), ec);
  if (ec) return Status::IoError(PathOf("saved") + ": " + ec.message());
  SavedRunHeader h{};
  std::memcpy(h.magic, kSavedRunMagic, 8);
  h.docs = docs.size() / 8;
  h.run_bytes = run_bytes;
  const std::string name = prefix + "run";
  CheckedFileWriter w;
  LITGRAPH_RETURN_IF_ERROR(w.Open(out->Path(name), out->NewFile(name)));
  LITGRAPH_RETURN_IF_ERROR(w.Append({reinterpret_cast<const char*>(&h), sizeof h}));
  LITGRAPH_RETURN_IF_ERROR(w.Append(docs));
  LITGRAPH_RETURN_IF_ERROR(AppendFile(PathOf("saved"), &w));
  LITGRAPH_RETURN_IF_ERROR(w.Finish());
  fs::remove(PathOf("saved"), ec);
  *stats = built_;
  return Status::Ok();
}

Status LexicalBuilder::AddSaved(const CheckedFile& f, const std::vector<uint32_t>& replaced,
                                uint32_t shift) {
  Spill();
  LITGRAPH_RETURN_IF_ERROR(status_);
  SavedRunHeader h;
  const uint8_t* p = f.Read(0, sizeof h);
  if (!p) return f.status();
  std::memcpy(&h, p, sizeof h);
  const uint64_t docs_at = sizeof h;
  if (std::memcmp(h.magic, kSavedRunMagic, 8) != 0 || h.docs > f.size() / 8 ||
      f.size() != docs_at + h.docs * 8 + h.run_bytes)
    return Status::Corruption(f.path() + ": not a kept lexical run");
  const uint8_t* docs = f.Read(docs_at, h.docs * 8);
  if (!docs && h.docs > 0) return f.status();
  // The run is read as a run file of this builder (removed with the others).
  Run run{PathOf(fmt::format("{}.run", next_run_++)), serial_ + 1, 0, shift};
  {
    OutFile copy;
    LITGRAPH_RETURN_IF_ERROR(copy.Open(run.path));
    if (h.run_bytes > 0) {
      const uint8_t* bytes = f.Read(docs_at + h.docs * 8, h.run_bytes);
      if (!bytes) return f.status();
      copy.Put({reinterpret_cast<const char*>(bytes), h.run_bytes});
    }
    LITGRAPH_RETURN_IF_ERROR(copy.Close());
  }
  for (uint64_t i = 0; i < h.docs; ++i) {
    uint32_t pair[2];
    std::memcpy(pair, docs + i * 8, 8);
    if (std::binary_search(replaced.begin(), replaced.end(), pair[0])) continue;
    if (pair[0] > UINT32_MAX - shift)
      return Status::Corruption(
          fmt::format("{}: document {} past the id space", f.path(), pair[0]));
    const uint32_t doc = pair[0] + shift;
    if (doc >= latest_.size()) {
      const size_t n = std::max<size_t>(size_t{doc} + 1, latest_.size() * 2);
      latest_.resize(n, 0);
      length_.resize(n, 0);
    }
    if (latest_[doc] != 0) continue;  // added here: this version replaces it
    latest_[doc] = ++serial_;
    length_[doc] = pair[1];
  }
  run.end_serial = serial_ + 1;
  runs_.push_back(std::move(run));
  run_first_serial_ = serial_ + 1;
  return Status::Ok();
}

LexicalBuilders::LexicalBuilders(const std::string& dir_in, size_t budget)
    : dir(dir_in),
      text(dir_in, "text", false, budget / 4 * 3),
      title(dir_in, "title", true, budget / 4) {
  std::error_code ec;
  fs::create_directories(dir, ec);  // a failure shows when a run is written
}

LexicalBuilders::~LexicalBuilders() {
  if (build_.valid()) build_.wait();
  std::error_code ec;
  fs::remove_all(dir, ec);
}

void LexicalBuilders::StartBuild(uint64_t id_space, int threads) {
  id_space_ = id_space;
  build_ = std::async(std::launch::async, [this, id_space, threads] {
    if (threads < 2) {
      LITGRAPH_RETURN_IF_ERROR(text.Build(id_space, Bm25Params()));
      return title.Build(id_space, Bm25Params());
    }
    auto titles = std::async(std::launch::async,
                             [this, id_space] { return title.Build(id_space, Bm25Params()); });
    Status st = text.Build(id_space, Bm25Params());
    Status title_st = titles.get();
    return st.ok() ? title_st : st;
  });
}

Status LexicalBuilders::Write(GenerationBuilder* out, uint64_t id_space, LexicalBuildStats* stats) {
  if (!build_.valid()) StartBuild(id_space);
  LITGRAPH_RETURN_IF_ERROR(build_.get());
  if (id_space != id_space_)
    return Status::Internal(
        fmt::format("lexical index built for {} ids, not {}", id_space_, id_space));
  LexicalBuildStats title_stats;
  LITGRAPH_RETURN_IF_ERROR(text.Write(out, "", stats));
  return title.Write(out, kTitleIndexPrefix, &title_stats);
}

Status BuildLexicalIndexes(Store* store, GenerationBuilder* out, size_t budget,
                           LexicalBuildStats* stats, int threads) {
  const uint64_t id_space = static_cast<uint64_t>(store->MaxId(NodeType::kPaper)) + 1;
  if (threads < 2) {
    LexicalBuilders b(out->Path("lexical.tmp"), budget);
    store->ForEachPaperText([&](int64_t id, std::string_view title, std::string_view abstract) {
      b.Add(static_cast<uint32_t>(id), title, abstract);
    });
    return b.Write(out, id_space, stats);
  }
  // Budget: 3/8 to each title + abstract builder, 1/8 to the titles'.
  LexicalBuilders b(out->Path("lexical.tmp"), budget / 2);
  LexicalBuilder second(b.dir, "text2", false, budget / 8 * 3);
  {
    TextFeeder first(
        [&](uint32_t d, std::string_view t, std::string_view a) { b.text.Add(d, t, a); });
    TextFeeder other(
        [&](uint32_t d, std::string_view t, std::string_view a) { second.Add(d, t, a); });
    uint64_t n = 0;
    store->ForEachPaperText([&](int64_t id, std::string_view title, std::string_view abstract) {
      b.title.Add(static_cast<uint32_t>(id), title, {});
      (n++ / 256 % 2 ? other : first).Add(id, std::string(title), std::string(abstract));
    });
  }  // both fed
  LITGRAPH_RETURN_IF_ERROR(b.text.Absorb(&second));
  b.StartBuild(id_space, threads);
  return b.Write(out, id_space, stats);
}

Status LexicalBuilder::Absorb(LexicalBuilder* other) {
  Spill();
  other->Spill();
  LITGRAPH_RETURN_IF_ERROR(status_);
  LITGRAPH_RETURN_IF_ERROR(other->status_);
  const uint32_t shift = serial_;
  for (Run r : other->runs_) {
    r.first_serial += shift;
    r.end_serial += shift;
    runs_.push_back(std::move(r));
  }
  other->runs_.clear();  // now ours to remove
  if (other->latest_.size() > latest_.size()) {
    latest_.resize(other->latest_.size(), 0);
    length_.resize(other->latest_.size(), 0);
  }
  for (size_t d = 0; d < other->latest_.size(); ++d)
    if (other->latest_[d] != 0) {
      latest_[d] = other->latest_[d] + shift;
      length_[d] = other->length_[d];
    }
  serial_ += other->serial_;
  run_first_serial_ = serial_ + 1;
  other->latest_ = decltype(other->latest_)();
  other->length_ = decltype(other->length_)();
  other->serial_ = 0;
  other->run_first_serial_ = 1;
  return Status::Ok();
}

namespace {

// The mask of a delta: u64 count of papers, then a bit per paper id.
Status WriteMask(GenerationBuilder* out, const std::string& name, const std::vector<uint32_t>& docs,
                 uint64_t id_space) {
  std::string bits(8 + (id_space + 7) / 8, '\0');
  const uint64_t count = docs.size();
  std::memcpy(bits.data(), &count, 8);
  for (uint32_t d : docs) bits[8 + d / 8] = static_cast<char>(bits[8 + d / 8] | (1 << (d % 8)));
  return WriteCheckedFile(out->Path(name), out->NewFile(name), bits);
}

// Opens the kept runs of a generation's index (<prefix>run, and the title
// index's) and checks every page of them; false when either is missing or
// damaged.
bool OpenKeptRuns(const GenerationView& g, const std::string& prefix, CheckedFile* text_run,
                  CheckedFile* title_run) {
  for (auto [name, f] : {std::pair{prefix + "run", text_run},
                         std::pair{kTitleIndexPrefix + prefix + "run", title_run}})
    if (!g.Has(name) || !g.OpenFile(name, f).ok() || !f->VerifyAll().ok()) return false;
  return true;
}

}  // namespace

Status KeptRuns::Open(const GenerationView& graph, bool* usable) {
  *usable = false;
  if (!graph.Has("lexicon") || !graph.Has(std::string(kTitleIndexPrefix) + "lexicon"))
    return Status::Ok();
  LexicalIndex text;
  LITGRAPH_RETURN_IF_ERROR(text.Open(graph));
  if (!OpenKeptRuns(graph, "", &runs_[0], &runs_[1])) return Status::Ok();
  has_delta_ = text.has_delta();
  if (has_delta_) {
    if (!OpenKeptRuns(graph, kDeltaPrefix, &runs_[2], &runs_[3])) return Status::Ok();
    LITGRAPH_RETURN_IF_ERROR(text.ForEachDeltaDoc([&](uint32_t d) { delta_.push_back(d); }));
    std::sort(delta_.begin(), delta_.end());
  }
  *usable = true;
  return Status::Ok();
}

Status KeptRuns::AddTo(LexicalBuilders* b, uint32_t shift) const {
  LITGRAPH_RETURN_IF_ERROR(b->text.AddSaved(runs_[0], delta_, shift));
  LITGRAPH_RETURN_IF_ERROR(b->title.AddSaved(runs_[1], delta_, shift));
  if (has_delta_) {
    LITGRAPH_RETURN_IF_ERROR(b->text.AddSaved(runs_[2], {}, shift));
    LITGRAPH_RETURN_IF_ERROR(b->title.AddSaved(runs_[3], {}, shift));
  }
  return Status::Ok();
}

Status UpdateLexicalIndexes(Store* store, const GenerationView& old,
                            const std::vector<uint32_t>& changed, double compact_fraction,
                            GenerationBuilder* out, size_t budget, LexicalBuildStats* stats,
                            bool* compacted, LexicalBuilders* changed_texts, int threads) {
  *compacted = true;
  const uint64_t id_space = static_cast<uint64_t>(store->MaxId(NodeType::kPaper)) + 1;
  LexicalIndex text, title;
  if (!old.Has("lexicon") || !old.Has(std::string(kTitleIndexPrefix) + "lexicon"))
    return BuildLexicalIndexes(store, out, budget, stats, threads);
  LITGRAPH_RETURN_IF_ERROR(text.Open(old));
  LITGRAPH_RETURN_IF_ERROR(title.Open(old, kTitleIndexPrefix));
  // The papers of the delta: the current delta's and the changed ones.
  std::vector<uint32_t> docs;
  LITGRAPH_RETURN_IF_ERROR(text.ForEachDeltaDoc([&](uint32_t d) { docs.push_back(d); }));
  docs.insert(docs.end(), changed.begin(), changed.end());
  std::sort(docs.begin(), docs.end());
  docs.erase(std::unique(docs.begin(), docs.end()), docs.end());
  while (!docs.empty() && docs.back() >= id_space) docs.pop_back();
  const LexicalFrame text_frame = text.Frame(), title_frame = title.Frame();
  const std::string delta = kDeltaPrefix, title_delta = std::string(kTitleIndexPrefix) + delta;
  // The papers that did not change come from the runs kept beside the
  // current files, the changed ones from their texts. Without intact runs (a
  // generation of an older release, or a damaged run: they only spare work)
  // every paper of the delta, or of the store, is read and tokenized again.
  // runs[0..1]: the delta's text and title runs; runs[2..3]: the base's.
  CheckedFile runs[4];
  const bool compact = static_cast<double>(docs.size()) >
                       compact_fraction * static_cast<double>(text_frame.base_docs);
  if (changed.empty() && !compact) {  // nothing new: every file is carried over as it is
    *compacted = false;
    return Status::Ok();
  }
  const bool delta_runs = !text.has_delta() || OpenKeptRuns(old, delta, &runs[0], &runs[1]);
  if (compact && !(delta_runs && OpenKeptRuns(old, "", &runs[2], &runs[3])))
    return BuildLexicalIndexes(store, out, budget, stats, threads);
  *compacted = compact;
  std::optional<LexicalBuilders> own;
  LexicalBuilders& b =
      changed_texts ? *changed_texts : own.emplace(out->Path("lexical.tmp"), budget);
  for (uint32_t d : delta_runs ? changed : docs)
    if (!changed_texts || !std::binary_search(changed.begin(), changed.end(), d))
      if (std::optional<PaperText> t = store->GetPaperText(d)) b.Add(d, t->title, t->abstract);
  if (text.has_delta() && delta_runs) {
    LITGRAPH_RETURN_IF_ERROR(b.text.AddSaved(runs[0], changed));
    LITGRAPH_RETURN_IF_ERROR(b.title.AddSaved(runs[1], changed));
  }
  if (compact) {
    // The base's papers but the delta's: one index again, with the runs'
    // postings scored afresh, as a build from every paper's text.
    LITGRAPH_RETURN_IF_ERROR(b.text.AddSaved(runs[2], docs));
    LITGRAPH_RETURN_IF_ERROR(b.title.AddSaved(runs[3], docs));
    b.StartBuild(id_space, threads);
    return b.Write(out, id_space, stats);
  }
  LITGRAPH_RETURN_IF_ERROR(b.text.Build(id_space, Bm25Params(), &text_frame));
  LITGRAPH_RETURN_IF_ERROR(b.title.Build(id_space, Bm25Params(), &title_frame));
  LexicalBuildStats title_stats;
  LITGRAPH_RETURN_IF_ERROR(b.text.Write(out, delta, stats));
  LITGRAPH_RETURN_IF_ERROR(b.title.Write(out, title_delta, &title_stats));
  LITGRAPH_RETURN_IF_ERROR(WriteMask(out, delta + "mask", docs, id_space));
  LITGRAPH_RETURN_IF_ERROR(WriteMask(out, title_delta + "mask", docs, id_space));
  // The base is carried over.
  for (const std::string& prefix : {std::string(), std::string(kTitleIndexPrefix)})
    for (const char* what : {"lexicon", "postings", "run"})
      if (old.Has(prefix + what)) LITGRAPH_RETURN_IF_ERROR(out->Inherit(old, prefix + what));
  stats->delta_docs = static_cast<int64_t>(docs.size());
  return Status::Ok();
}

}  // namespace litgraph
