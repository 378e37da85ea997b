#include "litgraph/ingest.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <type_traits>
#include <unordered_map>

#include "litgraph/coding.h"
#include "litgraph/flat_map.h"
#include "litgraph/fts_tokens.h"
#include "litgraph/graph_build.h"
#include "litgraph/lexical.h"
#include "litgraph/records.h"
#include "litgraph/store.h"
#include "litgraph/text.h"

namespace litgraph {

namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Reads lines from a file or stdin, gzip or plain (zlib reads plain files
// transparently). Lines keep RecordParser::kPadding spare bytes after them.
class LineReader {
 public:
  ~LineReader() {
    if (gz_) gzclose(gz_);
  }

  Status Open(const std::string& path) {
    name_ = path == "-" ? "<stdin>" : path;
    int fd = path == "-" ? dup(STDIN_FILENO) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Status::Io(fmt::format("{}: {}", name_, std::strerror(errno)));
    gz_ = gzdopen(fd, "rb");
    if (!gz_) {
      close(fd);
      return Status::Io(fmt::format("{}: cannot open", name_));
    }
    gzbuffer(gz_, 1 << 20);
    buf_.resize(1 << 20);
    return Status::Ok();
  }

  const std::string& name() const { return name_; }
  int64_t line_no() const { return line_no_; }
  int64_t bytes() const { return bytes_; }

  // Next line without its newline; false at end of input or on error (*st).
  bool Next(std::string* line, size_t max_bytes, Status* st) {
    line->clear();
    for (;;) {
      if (pos_ == len_) {
        if (eof_) {
          if (line->empty()) return false;
          ++line_no_;
          return true;
        }
        int n = gzread(gz_, buf_.data(), static_cast<unsigned>(buf_.size()));
        if (n < 0) {
          int err;
          const char* msg = gzerror(gz_, &err);
          *st = err == Z_DATA_ERROR || err == Z_BUF_ERROR
                    ? Status::BadInput(fmt::format("{}:{}: corrupt gzip data: {}", name_,
                                                   line_no_ + 1, msg))
                    : Status::Io(fmt::format("{}: read error: {}", name_, msg));
          return false;
        }
        if (n == 0) {
          int err;
          const char* msg = gzerror(gz_, &err);
          if (err == Z_BUF_ERROR) {  // input ended inside a gzip stream
            *st = Status::BadInput(fmt::format("{}:{}: truncated gzip stream ({})", name_,
                                               line_no_ + 1, msg));
            return false;
          }
          eof_ = true;
          continue;
        }
        bytes_ += n;
        pos_ = 0;
        len_ = static_cast<size_t>(n);
      }
      const char* start = buf_.data() + pos_;
      const void* nl = std::memchr(start, '\n', len_ - pos_);
      size_t take = nl ? static_cast<const char*>(nl) - start : len_ - pos_;
      if (line->size() + take > max_bytes) {
        *st = Status::BadInput(fmt::format("{}:{}: line longer than {} bytes", name_,
                                           line_no_ + 1, max_bytes));
        return false;
      }
      line->append(start, take);
      pos_ += take;
      if (nl) {
        ++pos_;
        ++line_no_;
        if (!line->empty() && line->back() == '\r') line->pop_back();
        return true;
      }
    }
  }

 private:
  gzFile gz_ = nullptr;
  std::string name_;
  std::vector<char> buf_;
  size_t pos_ = 0, len_ = 0;
  bool eof_ = false;
  int64_t line_no_ = 0, bytes_ = 0;
};

bool IsBlank(std::string_view s) {
  return s.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// A first line that opens a JSON value without closing it ("{", "[",
// '{"id": "W1",') starts a multi-line document; a complete but malformed
// line is a bad JSON-lines record instead.
bool LooksLikeDocumentStart(std::string_view line) {
  size_t a = line.find_first_not_of(" \t"), b = line.find_last_not_of(" \t");
  if (a == std::string_view::npos) return false;
  return (line[a] == '{' || line[a] == '[') && line[b] != '}' && line[b] != ']';
}

// Column values a work derives from its record, computed on the reader
// thread: the writer thread (SQLite) is the bottleneck of a load.
struct WorkKeys {
  std::string title_key, refs, related;  // NormalizeTitleKey, PackIdList x 2
  // FTS5 tokens of title and abstract (fts_tokens.h), when recorded.
  bool fts_recorded = false;
  std::string fts_title, fts_abstract;
};

// What the reader thread hands the writer: parsed records of one input line
// (or one document) with their derived keys, or the error that line had.
struct Item {
  std::vector<Record> records;
  std::vector<WorkKeys> keys;  // parallel to records (empty for non-works)
  Status error;
};

struct Batch {
  std::vector<Item> items;
  Status fatal;  // unreadable input: stops the run even with --skip-invalid
  int64_t bytes = 0;
};

class BatchQueue {
 public:
  explicit BatchQueue(size_t capacity) : capacity_(capacity) {}
  void Push(Batch b) {
    std::deque<Batch> spent;  // freed on return, on the producer's thread, after unlocking
    std::unique_lock<std::mutex> l(mu_);
    not_full_.wait(l, [&] { return q_.size() < capacity_ || closed_; });
    if (closed_) return;
    q_.push_back(std::move(b));
    spent.swap(spent_);
    not_empty_.notify_one();
  }
  // The consumer hands back a batch it has applied, so the producer frees
  // the records it allocated, off the consumer's (SQLite writer's) thread.
  void Return(Batch b) {
    std::lock_guard<std::mutex> l(mu_);
    if (!done_ && !closed_) spent_.push_back(std::move(b));
  }
  // False once the producer finished and everything was taken.
  bool Pop(Batch* b) {
    std::unique_lock<std::mutex> l(mu_);
    not_empty_.wait(l, [&] { return !q_.empty() || done_ || closed_; });
    if (q_.empty()) return false;
    *b = std::move(q_.front());
    q_.pop_front();
    not_full_.notify_one();
    return true;
  }
  void Done() {
    std::lock_guard<std::mutex> l(mu_);
    done_ = true;
    not_empty_.notify_all();
  }
  void Close() {  // consumer gives up: unblock the producer
    std::lock_guard<std::mutex> l(mu_);
    closed_ = true;
    not_full_.notify_all();
    not_empty_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable not_full_, not_empty_;
  std::deque<Batch> q_, spent_;
  size_t capacity_;
  bool done_ = false, closed_ = false;
};

std::string Where(const std::string& file, int64_t line) { return fmt::format("{}:{}", file, line); }

// Reads every input, parses, and pushes batches. Runs on its own thread.
// `fts`, when given, records each work's FTS5 tokens for the writer.
void Produce(const std::vector<std::string>& inputs, const IngestOptions& options,
             FtsTokens::Pretokenizer* fts, BatchQueue* queue,
             std::function<void(const std::string&)> note_empty) {
  RecordParser parser;
  Batch batch;
  auto flush = [&] {
    queue->Push(std::move(batch));
    batch = Batch();
  };
  std::string line;
  for (const std::string& path : inputs) {
    LineReader reader;
    Status st = reader.Open(path);
    if (!st.ok()) {
      batch.fatal = st;
      flush();
      break;
    }
    bool first = true;
    int64_t records_in_file = 0;
    int64_t last_bytes = 0;
    while (reader.Next(&line, options.max_line_bytes, &st)) {
      if (IsBlank(line)) continue;
      int64_t line_no = reader.line_no();
      size_t used = line.size();
      line.resize(used + RecordParser::kPadding);
      Item item;
      Status ps = parser.Parse(std::string_view(line.data(), used), true, &item.records);
      line.resize(used);
      if (!ps.ok() && first && LooksLikeDocumentStart(line)) {
        // Not one record per line: the file is one JSON document.
        std::string doc = line;
        std::string more;
        while (reader.Next(&more, options.max_line_bytes, &st)) {
          doc += '\n';
          doc += more;
        }
        if (!st.ok()) break;
        size_t used_doc = doc.size();
        doc.resize(used_doc + RecordParser::kPadding);
        item.records.clear();
        ps = parser.Parse(std::string_view(doc.data(), used_doc), true, &item.records);
      }
      first = false;
      if (!ps.ok()) item.error = Status::BadInput(Where(reader.name(), line_no) + ": " + ps.message());
      records_in_file += static_cast<int64_t>(item.records.size()) + (ps.ok() ? 0 : 1);
      item.keys.resize(item.records.size());
      for (size_t i = 0; i < item.records.size(); ++i)
        if (auto* w = std::get_if<WorkRec>(&item.records[i])) {
          WorkKeys& k = item.keys[i];
          k.title_key = NormalizeTitleKey(w->title);
          k.refs = PackIdList(w->refs);
          k.related = PackIdList(w->related);
          k.fts_recorded = fts && fts->Tokenize(w->title, &k.fts_title) &&
                           fts->Tokenize(w->abstract, &k.fts_abstract);
        }
      batch.items.push_back(std::move(item));
      if (batch.items.size() >= 512) {
        batch.bytes = reader.bytes() - last_bytes;
        last_bytes = reader.bytes();
        flush();
      }
    }
    batch.bytes += reader.bytes() - last_bytes;
    if (!st.ok()) {
      batch.fatal = st;
      flush();
      break;
    }
    if (records_in_file == 0) note_empty(reader.name());
  }
  flush();
  queue->Done();
}

// Feeds stored papers' text to a LexicalBuilder on its own thread, so the
// lexical index of a bulk load is tokenized while SQLite works.
class TextFeeder {
 public:
  explicit TextFeeder(LexicalBuilders* builder)
      : builder_(builder), thread_([this] { Run(); }) {}
  ~TextFeeder() { Finish(); }

  void Add(int64_t id, std::string title, std::string abstract) {
    batch_.push_back({static_cast<uint32_t>(id), std::move(title), std::move(abstract)});
    if (batch_.size() >= 256) Flush();
  }
  // Waits until every document was added to the builder.
  void Finish() {
    if (!thread_.joinable()) return;
    Flush();
    {
      std::lock_guard<std::mutex> l(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  struct Doc {
    uint32_t id;
    std::string title, abstract;
  };
  void Flush() {
    if (batch_.empty()) return;
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return queue_.size() < 64; });
    queue_.push_back(std::move(batch_));
    batch_.clear();
    cv_.notify_all();
  }
  void Run() {
    for (;;) {
      std::vector<Doc> docs;
      {
        std::unique_lock<std::mutex> l(mu_);
        cv_.wait(l, [&] { return !queue_.empty() || done_; });
        if (queue_.empty()) return;
        docs = std::move(queue_.front());
        queue_.pop_front();
        cv_.notify_all();
      }
      for (const Doc& d : docs) builder_->Add(d.id, d.title, d.abstract);
    }
  }
  LexicalBuilders* builder_;
  std::vector<Doc> batch_;
  std::deque<std::vector<Doc>> queue_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

// ext_id -> row id of the nodes a run has met. OpenAlex ids (a capital
// letter and a number: "A5023888391") key a flat table, one cache miss per
// lookup on the writer thread's hottest path; other ids a string map.
class IdCache {
 public:
  // 0 when unknown (row ids start at 1).
  int64_t Find(const std::string& ext) const {
    if (uint64_t k = Key(ext)) {
      const int64_t* id = numbered_.Find(k);
      return id ? *id : 0;
    }
    auto it = named_.find(ext);
    return it == named_.end() ? 0 : it->second;
  }
  void Put(const std::string& ext, int64_t id) {
    if (size() >= kMaxEntries) {  // bound memory on huge runs
      numbered_.clear();
      named_.clear();
    }
    if (uint64_t k = Key(ext)) numbered_[k] = id;
    else named_[ext] = id;
  }
  size_t size() const { return numbered_.size() + named_.size(); }

 private:
  static constexpr size_t kMaxEntries = 4000000;
  // The letter in the top byte, the number (no leading zero, < 2^56) below;
  // 0 for any other id.
  static uint64_t Key(std::string_view ext) {
    uint64_t n = ShortIdNumber(ext);
    if (n == 0 || ext[1] == '0' || n >= (uint64_t{1} << 56)) return 0;
    return (static_cast<uint64_t>(ext[0]) << 56) | n;
  }

  U64Map<int64_t> numbered_;
  std::unordered_map<std::string, int64_t> named_;
};

// Applies records to SQLite with prepared statements and per-run id caches.
class Loader {
 public:
  Loader(Store* store, IngestStats* stats, TextFeeder* feeder)
      : store_(store), db_(&store->db()), stats_(stats), feeder_(feeder) {
    find_paper_ = db_->Prepare(
        "SELECT id, updated_date, title, abstract FROM paper WHERE ext_id = ?");
    insert_paper_ = db_->Prepare(
        "INSERT INTO paper(ext_id, doi, title, title_key, abstract, year, date, type, language,"
        " source_id, cited_by_count, referenced_works_count, is_oa, oa_status, oa_url, pdf_url,"
        " landing_page_url, updated_date, refs, related, oa_keywords)"
        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21)"
        " ON CONFLICT(ext_id) DO NOTHING");
    update_paper_ = db_->Prepare(
        "UPDATE paper SET ext_id=?1, doi=?2, title=?3, title_key=?4, abstract=?5, year=?6,"
        " date=?7, type=?8, language=?9, source_id=?10, cited_by_count=?11,"
        " referenced_works_count=?12, is_oa=?13, oa_status=?14, oa_url=?15, pdf_url=?16,"
        " landing_page_url=?17, updated_date=?18, refs=?19, related=?20, oa_keywords=?21"
        " WHERE id=?22");
    fts_insert_ = db_->Prepare("INSERT INTO paper_fts(rowid, title, abstract) VALUES(?, ?, ?)");
    fts_delete_ = db_->Prepare(
        "INSERT INTO paper_fts(paper_fts, rowid, title, abstract) VALUES('delete', ?, ?, ?)");
    delete_authorships_ = db_->Prepare("DELETE FROM authorship WHERE paper_id = ?");
    delete_topics_ = db_->Prepare("DELETE FROM paper_topic WHERE paper_id = ?");
    delete_keywords_ = db_->Prepare("DELETE FROM paper_keyword WHERE paper_id = ?");
    insert_authorship_ = db_->Prepare(
        "INSERT OR REPLACE INTO authorship(paper_id, position, author_id, raw_name,"
        " author_position, is_corresponding, institutions) VALUES(?,?,?,?,?,?,?)");
    insert_topic_ = db_->Prepare(
        "INSERT OR REPLACE INTO paper_topic(paper_id, topic_id, score, is_primary)"
        " VALUES(?,?,?,?)");
  }

  void Apply(Record& r, const WorkKeys& keys) {
    std::visit([&](auto& rec) {
      if constexpr (std::is_same_v<std::decay_t<decltype(rec)>, WorkRec>) ApplyWork(rec, keys);
      else ApplyOne(rec);
    }, r);
  }

 private:
  // Id of the node with ext_id in `table`, inserting a stub row when missing.
  // `fill` binds the remaining insert columns starting at 2.
  int64_t Ensure(const std::string& ext_id, IdCache* cache, Stmt* find, Stmt* insert,
                 const std::function<void(Stmt&)>& fill) {
    int64_t id = cache->Find(ext_id);
    if (id != 0) return id;
    find->Bind(1, ext_id);
    if (find->Step()) {
      id = find->Int(0);
      find->Reset();
    } else {
      find->Reset();
      insert->Bind(1, ext_id);
      fill(*insert);
      insert->Exec();
      id = db_->LastInsertRowid();
    }
    cache->Put(ext_id, id);
    return id;
  }

  Stmt& Prep(Stmt* s, const char* sql) {
    if (!s->raw()) *s = db_->Prepare(sql);
    return *s;
  }

  int64_t EnsureAuthor(const AuthorshipRec& a) {
    bool inserted = false;
    int64_t id = Ensure(a.author.ext_id, &authors_,
                        &Prep(&find_author_, "SELECT id FROM author WHERE ext_id = ?"),
                        &Prep(&insert_author_,
                              "INSERT INTO author(ext_id, name, name_key, orcid) VALUES(?,?,?,?)"),
                        [&](Stmt& s) {
                          s.Bind(2, a.author.name).Bind(3, NormalizeName(a.author.name));
                          s.BindTextOrNull(4, a.orcid);
                          inserted = true;
                        });
    if (inserted) IndexAuthorName(id, a.author.name);
    return id;
  }

  void IndexAuthorName(int64_t id, const std::string& name) {
    Prep(&author_fts_insert_, "INSERT INTO author_fts(rowid, name) VALUES(?, ?)")
        .Bind(1, id).Bind(2, name).Exec();
  }

  int64_t EnsureInstitution(const InstitutionRef& i) {
    return Ensure(i.ext_id, &institutions_,
                  &Prep(&find_inst_, "SELECT id FROM institution WHERE ext_id = ?"),
                  &Prep(&insert_inst_,
                        "INSERT INTO institution(ext_id, name, ror, country_code, type)"
                        " VALUES(?,?,?,?,?)"),
                  [&](Stmt& s) {
                    s.Bind(2, i.name).BindTextOrNull(3, i.ror).BindTextOrNull(4, i.country_code);
                    s.BindTextOrNull(5, i.type);
                  });
  }

  int64_t EnsureSource(const SourceRef& src) {
    return Ensure(src.ext_id, &sources_,
                  &Prep(&find_source_, "SELECT id FROM source WHERE ext_id = ?"),
                  &Prep(&insert_source_,
                        "INSERT INTO source(ext_id, name, name_key, issn_l, type, publisher)"
                        " VALUES(?,?,?,?,?,?)"),
                  [&](Stmt& s) {
                    s.Bind(2, src.name).Bind(3, NormalizeName(src.name));
                    s.BindTextOrNull(4, src.issn_l).BindTextOrNull(5, src.type);
                    s.BindTextOrNull(6, src.publisher);
                  });
  }

  int64_t EnsureSimple(const char* table, const NamedRef& ref, const char* parent_col,
                       int64_t parent, IdCache* cache,
                       Stmt* find, Stmt* insert) {
    if (!find->raw()) {
      *find = db_->Prepare(fmt::format("SELECT id FROM {} WHERE ext_id = ?", table));
      *insert = db_->Prepare(
          parent_col ? fmt::format("INSERT INTO {}(ext_id, name, {}) VALUES(?,?,?)", table,
                                   parent_col)
                     : fmt::format("INSERT INTO {}(ext_id, name) VALUES(?,?)", table));
    }
    return Ensure(ref.ext_id, cache, find, insert, [&](Stmt& s) {
      s.Bind(2, ref.name);
      if (parent_col) s.BindIntOrNull(3, parent, 1);
    });
  }

  int64_t EnsureTopic(const TopicRef& t) {
    if (int64_t id = topics_.Find(t.ext_id)) return id;
    int64_t domain = t.domain.ext_id.empty()
                         ? 0
                         : EnsureSimple("domain", t.domain, nullptr, 0, &domains_, &find_domain_,
                                        &insert_domain_);
    int64_t field = t.field.ext_id.empty()
                        ? 0
                        : EnsureSimple("field", t.field, "domain_id", domain, &fields_,
                                       &find_field_, &insert_field_);
    int64_t subfield = t.subfield.ext_id.empty()
                           ? 0
                           : EnsureSimple("subfield", t.subfield, "field_id", field, &subfields_,
                                          &find_subfield_, &insert_subfield_);
    return EnsureSimple("topic", t, "subfield_id", subfield, &topics_, &find_topic_,
                        &insert_topic_row_);
  }

  void ApplyWork(WorkRec& w, const WorkKeys& keys) {
    int64_t source_id = w.has_source ? EnsureSource(w.source) : 0;
    const std::string &refs = keys.refs, &related = keys.related, &title_key = keys.title_key;
    // Nothing is copied: w and keys outlive each statement's run.
    auto bind = [&](Stmt& st) {
      st.BindStatic(1, w.ext_id).BindStaticOrNull(2, w.doi).BindStatic(3, w.title);
      st.BindStatic(4, title_key).BindStatic(5, w.abstract).BindIntOrNull(6, w.year, 1);
      st.BindStaticOrNull(7, w.date).BindStaticOrNull(8, w.type).BindStaticOrNull(9, w.language);
      st.BindIntOrNull(10, source_id, 1).BindIntOrNull(11, w.cited_by_count);
      st.BindIntOrNull(12, w.referenced_works_count).BindIntOrNull(13, w.is_oa);
      st.BindStaticOrNull(14, w.oa_status).BindStaticOrNull(15, w.oa_url);
      st.BindStaticOrNull(16, w.pdf_url).BindStaticOrNull(17, w.landing_page_url);
      st.BindStaticOrNull(18, w.updated_date);
      if (refs.empty()) st.BindNull(19); else st.BindStaticBlob(19, refs);
      if (related.empty()) st.BindNull(20); else st.BindStaticBlob(20, related);
      st.BindStaticOrNull(21, w.oa_keywords_json);
    };
    // New works (the common case of a bulk load) cost one insert; a conflict
    // on ext_id sends the work down the update path.
    bind(insert_paper_);
    insert_paper_.Exec();
    int64_t id = 0;
    if (db_->Changes() == 1) {
      id = db_->LastInsertRowid();
      ++stats_->works_new;
    } else {
      find_paper_.Bind(1, w.ext_id);
      std::string old_title, old_abstract, old_updated;
      if (find_paper_.Step()) {
        id = find_paper_.Int(0);
        old_updated = find_paper_.Str(1);
        old_title = find_paper_.Str(2);
        old_abstract = find_paper_.Str(3);
      }
      find_paper_.Reset();
      if (!old_updated.empty() && !w.updated_date.empty() && w.updated_date < old_updated) {
        ++stats_->works_stale;
        return;
      }
      bind(update_paper_);
      update_paper_.Bind(22, id);
      update_paper_.Exec();
      fts_delete_.Bind(1, id).Bind(2, old_title).Bind(3, old_abstract).Exec();
      delete_authorships_.Bind(1, id).Exec();
      delete_topics_.Bind(1, id).Exec();
      if (old_title != w.title || old_abstract != w.abstract) {
        delete_keywords_.Bind(1, id).Exec();
        Prep(&delete_extracted_, "DELETE FROM keyword_extracted WHERE paper_id = ?").Bind(1, id).Exec();
      }
      ++stats_->works_updated;
    }
    ++stats_->works;
    stats_->references += static_cast<int64_t>(w.refs.size());
    {
      struct Disarm {
        FtsTokens* f;
        ~Disarm() {
          if (f) f->Disarm();
        }
      } disarm{keys.fts_recorded ? store_->fts_tokens() : nullptr};
      if (disarm.f) disarm.f->Arm(w.title, keys.fts_title, w.abstract, keys.fts_abstract);
      fts_insert_.Bind(1, id).BindStatic(2, w.title).BindStatic(3, w.abstract).Exec();
    }
    if (feeder_) feeder_->Add(id, std::move(w.title), std::move(w.abstract));  // last use
    std::string inst_ids;
    for (size_t i = 0; i < w.authors.size(); ++i) {
      const AuthorshipRec& a = w.authors[i];
      int64_t author_id = EnsureAuthor(a);
      inst_ids.clear();
      for (const auto& inst : a.institutions) {
        if (!inst_ids.empty()) inst_ids += ' ';
        inst_ids += std::to_string(EnsureInstitution(inst));
      }
      insert_authorship_.Bind(1, id).Bind(2, static_cast<int64_t>(i)).Bind(3, author_id);
      insert_authorship_.BindStaticOrNull(4, a.raw_name).BindStaticOrNull(5, a.author_position);
      insert_authorship_.Bind(6, a.is_corresponding ? 1 : 0).BindStaticOrNull(7, inst_ids);
      insert_authorship_.Exec();
    }
    for (const TopicRef& t : w.topics) {
      int64_t topic_id = EnsureTopic(t);
      insert_topic_.Bind(1, id).Bind(2, topic_id).Bind(3, t.score).Bind(4, t.is_primary ? 1 : 0);
      insert_topic_.Exec();
    }
  }

  // Entity records overwrite the stub rows works created.
  void ApplyOne(AuthorRec& a) {
    Stmt& old = Prep(&find_author_name_, "SELECT id, name FROM author WHERE ext_id = ?");
    old.Bind(1, a.ext_id);
    if (old.Step()) {
      Prep(&author_fts_delete_,
           "INSERT INTO author_fts(author_fts, rowid, name) VALUES('delete', ?, ?)")
          .Bind(1, old.Int(0)).Bind(2, old.Text(1)).Exec();
    }
    old.Reset();
    int64_t inst = 0;
    if (!a.last_known_institutions.empty() && !a.last_known_institutions[0].ext_id.empty())
      inst = EnsureInstitution(a.last_known_institutions[0]);
    Stmt& s = Prep(&upsert_author_,
                   "INSERT INTO author(ext_id, name, name_key, orcid, works_count, cited_by_count,"
                   " last_institution_id, updated_date) VALUES(?1,?2,?3,?4,?5,?6,?7,?8)"
                   " ON CONFLICT(ext_id) DO UPDATE SET name=?2, name_key=?3,"
                   " orcid=coalesce(?4, orcid), works_count=?5, cited_by_count=?6,"
                   " last_institution_id=coalesce(?7, last_institution_id), updated_date=?8");
    s.Bind(1, a.ext_id).Bind(2, a.name).Bind(3, NormalizeName(a.name)).BindTextOrNull(4, a.orcid);
    s.BindIntOrNull(5, a.works_count).BindIntOrNull(6, a.cited_by_count);
    s.BindIntOrNull(7, inst, 1).BindTextOrNull(8, a.updated_date).Exec();
    Stmt& find = Prep(&find_author_, "SELECT id FROM author WHERE ext_id = ?");
    find.Bind(1, a.ext_id);
    if (find.Step()) IndexAuthorName(find.Int(0), a.name);
    find.Reset();
    ++stats_->entities;
  }

  void ApplyOne(InstitutionRec& r) {
    Stmt& s = Prep(&upsert_inst_,
                   "INSERT INTO institution(ext_id, name, ror, country_code, type, works_count,"
                   " cited_by_count, updated_date) VALUES(?1,?2,?3,?4,?5,?6,?7,?8)"
                   " ON CONFLICT(ext_id) DO UPDATE SET name=?2, ror=?3, country_code=?4, type=?5,"
                   " works_count=?6, cited_by_count=?7, updated_date=?8");
    s.Bind(1, r.inst.ext_id).Bind(2, r.inst.name).BindTextOrNull(3, r.inst.ror);
    s.BindTextOrNull(4, r.inst.country_code).BindTextOrNull(5, r.inst.type);
    s.BindIntOrNull(6, r.works_count).BindIntOrNull(7, r.cited_by_count);
    s.BindTextOrNull(8, r.updated_date).Exec();
    ++stats_->entities;
  }

  void ApplyOne(SourceRec& r) {
    Stmt& s = Prep(&upsert_source_,
                   "INSERT INTO source(ext_id, name, name_key, issn_l, type, publisher,"
                   " works_count, cited_by_count, updated_date) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)"
                   " ON CONFLICT(ext_id) DO UPDATE SET name=?2, name_key=?3, issn_l=?4, type=?5,"
                   " publisher=?6, works_count=?7, cited_by_count=?8, updated_date=?9");
    s.Bind(1, r.source.ext_id).Bind(2, r.source.name).Bind(3, NormalizeName(r.source.name));
    s.BindTextOrNull(4, r.source.issn_l).BindTextOrNull(5, r.source.type);
    s.BindTextOrNull(6, r.source.publisher).BindIntOrNull(7, r.works_count);
    s.BindIntOrNull(8, r.cited_by_count).BindTextOrNull(9, r.updated_date).Exec();
    ++stats_->entities;
  }

  void ApplyOne(TopicRec& r) {
    int64_t id = EnsureTopic(r.topic);
    Stmt& s = Prep(&update_topic_,
                   "UPDATE topic SET name=?, description=?, keywords=?, works_count=?,"
                   " updated_date=? WHERE id=?");
    s.Bind(1, r.topic.name).BindTextOrNull(2, r.description).BindTextOrNull(3, r.keywords);
    s.BindIntOrNull(4, r.works_count).BindTextOrNull(5, r.updated_date).Bind(6, id).Exec();
    ++stats_->entities;
  }

  void ApplyOne(SkippedRec&) { ++stats_->skipped; }

  Store* store_;
  Db* db_;
  IngestStats* stats_;
  TextFeeder* feeder_;
  Stmt find_paper_, insert_paper_, update_paper_, fts_insert_, fts_delete_;
  Stmt delete_authorships_, delete_topics_, delete_keywords_, insert_authorship_, insert_topic_;
  Stmt find_author_, insert_author_, find_inst_, insert_inst_, find_source_, insert_source_;
  Stmt find_domain_, insert_domain_, find_field_, insert_field_, find_subfield_,
      insert_subfield_, find_topic_, insert_topic_row_;
  Stmt upsert_author_, upsert_inst_, upsert_source_, update_topic_;
  Stmt find_author_name_, author_fts_insert_, author_fts_delete_, delete_extracted_;
  IdCache authors_, institutions_, sources_, topics_, subfields_, fields_, domains_;
};

}  // namespace

Status Ingest(Store* store, const std::vector<std::string>& inputs_in,
              const IngestOptions& options, IngestStats* stats) {
  auto t0 = Clock::now();
  std::vector<std::string> inputs = inputs_in;
  if (inputs.empty()) inputs.push_back("-");
  BatchQueue queue(16);
  std::vector<std::string> empty_inputs;
  std::mutex empty_mu;
  // FTS5's tokenizing moves to the reader thread (fts_tokens.h).
  std::unique_ptr<FtsTokens::Pretokenizer> fts;
  if (store->fts_tokens()) {
    auto p = store->fts_tokens()->NewPretokenizer();
    if (!p.ok()) return p.status();
    fts = std::move(p.value());
  }
  std::thread producer([&] {
    Produce(inputs, options, fts.get(), &queue, [&](const std::string& name) {
      std::lock_guard<std::mutex> l(empty_mu);
      empty_inputs.push_back(name);
    });
  });
  struct JoinOnExit {
    std::thread& t;
    BatchQueue& q;
    ~JoinOnExit() {
      q.Close();
      if (t.joinable()) t.join();
    }
  } joiner{producer, queue};

  if (store->mode() != Store::Mode::kWrite)
    return Status::Internal("Ingest needs a store opened for writing");
  Status result;
  // Loading into an empty store: a rollback journal instead of the WAL. New
  // pages are written once (the WAL would write them twice, once more at the
  // checkpoint) and the journal only holds the few pages that existed, so a
  // crash still rolls back to the empty store. WAL mode returns after commit.
  Db& db = store->db();
  bool bulk = false;
  try {
    bulk = !db.QueryInt("SELECT 1 FROM paper LIMIT 1").has_value();
    if (bulk) db.Exec("PRAGMA journal_mode=DELETE; PRAGMA cache_size=-1048576;");
  } catch (const StatusError& e) {
    return e.status();
  }
  struct RestoreWal {
    Db& db;
    bool on;
    ~RestoreWal() {
      if (on) sqlite3_exec(db.raw(), "PRAGMA journal_mode=WAL; PRAGMA cache_size=-524288;",
                           nullptr, nullptr, nullptr);
    }
  } restore{db, bulk};
  try {
    Transaction txn(&store->db(), "IMMEDIATE");
    std::unique_ptr<LexicalBuilders> lexical;
    std::unique_ptr<TextFeeder> feeder;
    if (bulk && options.build_graph) {
      lexical = std::make_unique<LexicalBuilders>();
      feeder = std::make_unique<TextFeeder>(lexical.get());
    }
    // Secondary indexes (every explicit CREATE INDEX: DOIs, title keys,
    // author names, authorships by author, ...) serve queries, not the load,
    // which looks nodes up by ext_id (UNIQUE autoindexes, kept). Into an empty
    // store they are dropped and built once after the load, by a sort instead
    // of a million random B-tree inserts; in the same transaction, so a failed
    // load still leaves the store as it was.
    std::vector<std::string> deferred_indexes;
    if (bulk) {
      Stmt idx = db.Prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL");
      std::vector<std::string> names;
      while (idx.Step()) {
        names.push_back(idx.Str(0));
        deferred_indexes.push_back(idx.Str(1));
      }
      for (const auto& name : names) db.Exec("DROP INDEX \"" + name + "\"");
      // FTS5 merges its index segments 4 at a time, and at 16 on one level
      // (crisis) while inserting: on a 1M-work load that rewriting was a
      // sizeable part of FTS5's cost, itself 63% of this thread's. Wider merges
      // during the load, FTS5's defaults again for later upserts: the writer
      // thread's CPU fell 5% (bench/results/2026-11-22-hybrid/summary.md).
      db.Exec("INSERT INTO paper_fts(paper_fts, rank) VALUES('automerge', 16);"
              "INSERT INTO paper_fts(paper_fts, rank) VALUES('crisismerge', 64);");
    }
    Loader loader(store, stats, feeder.get());
    Batch batch;
    auto last_progress = Clock::now();
    while (queue.Pop(&batch)) {
      stats->input_bytes += batch.bytes;
      for (Item& item : batch.items) {
        if (!item.error.ok()) {
          if (!options.skip_invalid) return item.error;
          ++stats->invalid;
          if (options.warn) options.warn("skipped: " + item.error.message());
          continue;
        }
        for (size_t i = 0; i < item.records.size(); ++i) {
          ++stats->records;
          loader.Apply(item.records[i], item.keys[i]);
        }
      }
      if (!batch.fatal.ok()) return batch.fatal;
      queue.Return(std::move(batch));
      if (options.progress && Since(last_progress) > 0.5) {
        last_progress = Clock::now();
        fmt::print(stderr, "\rlitgraph-ingest: {} works, {:.0f} works/s   ", stats->works,
                   static_cast<double>(stats->works) / Since(t0));
      }
    }
    if (options.progress) fmt::print(stderr, "\r\033[K");
    if (feeder) {  // the lexical indexes build while SQLite builds its indexes
      feeder->Finish();
      lexical->StartBuild(static_cast<uint64_t>(store->MaxId(NodeType::kPaper)) + 1);
    }
    for (const auto& sql : deferred_indexes) db.Exec(sql);
    if (bulk)
      db.Exec("INSERT INTO paper_fts(paper_fts, rank) VALUES('automerge', 4);"
              "INSERT INTO paper_fts(paper_fts, rank) VALUES('crisismerge', 16);");
    stats->load_seconds = Since(t0);
    for (const auto& name : empty_inputs)
      if (options.warn) options.warn(name + ": no records in input");
    if (options.build_graph) {
      auto tg = Clock::now();
      GraphBuildStats gs;
      GraphBuildOptions go;
      go.progress = options.progress;
      go.lexical = lexical.get();
      Status st = BuildGraph(store, go, &gs);
      if (!st.ok()) return st;
      stats->graph_edges = gs.edges;
      stats->cites_edges = gs.cites_edges;
      stats->dangling_references = gs.dangling_references;
      stats->graph_seconds = Since(tg);
    }
    txn.Commit();
  } catch (const StatusError& e) {
    result = e.status();
  }
  stats->seconds = Since(t0);
  return result;
}

}  // namespace litgraph
