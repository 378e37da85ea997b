#include "litgraph/store.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "litgraph/generation.h"
#include "litgraph/text.h"

namespace litgraph {

namespace fs = std::filesystem;

namespace {

// Migration i (0-based) brings a store from version i to version i+1.
// Never edit a released migration; append a new one.
const std::vector<std::string> kMigrations = {
    // v1: nodes and source relations of OpenAlex works.
    R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE paper(
  id INTEGER PRIMARY KEY,
  ext_id TEXT NOT NULL UNIQUE,
  doi TEXT,
  title TEXT NOT NULL DEFAULT '',
  title_key TEXT NOT NULL DEFAULT '',
  abstract TEXT NOT NULL DEFAULT '',
  year INTEGER,
  date TEXT,
  type TEXT,
  language TEXT,
  source_id INTEGER,
  cited_by_count INTEGER,
  referenced_works_count INTEGER,
  is_oa INTEGER,
  oa_status TEXT,
  oa_url TEXT,
  pdf_url TEXT,
  landing_page_url TEXT,
  updated_date TEXT,
  refs BLOB,
  related BLOB,
  oa_keywords TEXT
);
CREATE INDEX paper_doi ON paper(doi) WHERE doi IS NOT NULL;
CREATE INDEX paper_title_key ON paper(title_key);
CREATE TABLE author(
  id INTEGER PRIMARY KEY,
  ext_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL DEFAULT '',
  name_key TEXT NOT NULL DEFAULT '',
  orcid TEXT,
  works_count INTEGER,
  cited_by_count INTEGER,
  last_institution_id INTEGER,
  updated_date TEXT
);
CREATE INDEX author_name_key ON author(name_key);
CREATE VIRTUAL TABLE author_fts USING fts5(
  name, content='author', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
CREATE TABLE authorship(
  paper_id INTEGER NOT NULL,
  position INTEGER NOT NULL,
  author_id INTEGER NOT NULL,
  raw_name TEXT,
  author_position TEXT,
  is_corresponding INTEGER NOT NULL DEFAULT 0,
  institutions TEXT,
  PRIMARY KEY(paper_id, position)
) WITHOUT ROWID;
CREATE INDEX authorship_author ON authorship(author_id);
CREATE TABLE institution(
  id INTEGER PRIMARY KEY,
  ext_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL DEFAULT '',
  ror TEXT,
  country_code TEXT,
  type TEXT,
  works_count INTEGER,
  cited_by_count INTEGER,
  updated_date TEXT
);
CREATE TABLE source(
  id INTEGER PRIMARY KEY,
  ext_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL DEFAULT '',
  name_key TEXT NOT NULL DEFAULT '',
  issn_l TEXT,
  type TEXT,
  publisher TEXT,
  works_count INTEGER,
  cited_by_count INTEGER,
  updated_date TEXT
);
CREATE INDEX source_name_key ON source(name_key);
CREATE TABLE topic(
  id INTEGER PRIMARY KEY,
  ext_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL DEFAULT '',
  subfield_id INTEGER,
  description TEXT,
  keywords TEXT,
  works_count INTEGER,
  updated_date TEXT
);
CREATE TABLE subfield(id INTEGER PRIMARY KEY, ext_id TEXT NOT NULL UNIQUE,
                      name TEXT NOT NULL DEFAULT '', field_id INTEGER);
CREATE TABLE field(id INTEGER PRIMARY KEY, ext_id TEXT NOT NULL UNIQUE,
                   name TEXT NOT NULL DEFAULT '', domain_id INTEGER);
CREATE TABLE domain(id INTEGER PRIMARY KEY, ext_id TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL DEFAULT '');
CREATE TABLE paper_topic(
  paper_id INTEGER NOT NULL,
  topic_id INTEGER NOT NULL,
  score REAL,
  is_primary INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY(paper_id, topic_id)
) WITHOUT ROWID;
)sql",
    // v2: the keyword layer (litgraph-extract-keywords).
    R"sql(
CREATE TABLE keyword(
  id INTEGER PRIMARY KEY,
  ext_id TEXT NOT NULL UNIQUE,
  text TEXT NOT NULL,
  paper_count INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE paper_keyword(
  paper_id INTEGER NOT NULL,
  keyword_id INTEGER NOT NULL,
  score INTEGER NOT NULL,
  PRIMARY KEY(paper_id, keyword_id)
) WITHOUT ROWID;
CREATE INDEX paper_keyword_keyword ON paper_keyword(keyword_id);
CREATE VIRTUAL TABLE keyword_fts USING fts5(
  text, content='keyword', content_rowid='id',
  tokenize='porter unicode61 remove_diacritics 2');
)sql",
    // v3: which papers were processed by which keyword backend (--missing
    // resumes from it), and the answer cache of network backends.
    R"sql(
CREATE TABLE keyword_extracted(paper_id INTEGER PRIMARY KEY, backend TEXT NOT NULL);
CREATE TABLE backend_cache(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
)sql",
    // v4: the store's identity, written into the footer of every derived file
    // (checked_file.h) so that files from another store are refused.
    R"sql(
INSERT OR IGNORE INTO meta(key, value) VALUES('store_id', lower(hex(randomblob(16))));
)sql",
    // v5: a keyword's display form, as first written in a paper ("Moses" for
    // the keyword "mose"; NULL when it equals the text), and the papers whose
    // title or abstract changed since their vectors were computed (embed
    // --missing embeds them again).
    R"sql(
ALTER TABLE keyword ADD COLUMN label TEXT;
CREATE TABLE vectors_stale(paper_id INTEGER PRIMARY KEY);
)sql",
    // v6: no FTS5 index of paper titles and abstracts. The graph's lexical
    // indexes (doc/graph-format.md) answer every text query; keeping FTS5
    // current was most of the SQLite writer's work on every load, upsert and
    // merge. (Stores created at v1-v5 had paper_fts.)
    R"sql(
DROP TABLE IF EXISTS paper_fts;
)sql",
    // v7: the papers extract-keywords --missing takes, kept by the writers
    // (store_write.cc) so that finding them costs what changed rather than a
    // scan of every paper: new papers, and papers whose text changed since
    // their keywords were extracted. Keyword counts are kept up to date by
    // the writers from here on, so they are made exact once.
    R"sql(
CREATE TABLE keyword_pending(paper_id INTEGER PRIMARY KEY);
INSERT INTO keyword_pending(paper_id) SELECT p.id FROM paper p
  WHERE NOT EXISTS (SELECT 1 FROM keyword_extracted k WHERE k.paper_id = p.id);
UPDATE keyword SET paper_count = 0;
UPDATE keyword SET paper_count = c.n FROM (SELECT keyword_id, count(*) AS n
  FROM paper_keyword GROUP BY keyword_id) AS c WHERE keyword.id = c.keyword_id;
)sql",
    // v8: no index of keyword links by keyword. No query read it (the graph's
    // keyword.papers lists answer "the papers of a keyword"), every link an
    // extraction wrote was an insert at a random place of it, and a bulk
    // load rebuilt it by a sort of every link. Keyword counts are recounted
    // in C++ (RefreshKeywordCounts).
    R"sql(
DROP INDEX IF EXISTS paper_keyword_keyword;
)sql",
};

}  // namespace

const std::vector<std::string>& SchemaMigrations() { return kMigrations; }

Result<std::unique_ptr<Store>> Store::Open(const std::string& dir, Mode mode, bool create,
                                           Reporter* reporter) {
  std::unique_ptr<Store> s(new Store());
  Status st;
  try {
    st = s->Init(dir, mode, create, reporter);
  } catch (const StatusError& e) {
    st = e.status();
  }
  if (!st.ok()) return st;
  return s;
}

Store::~Store() {
  stmts_.clear();  // finalized before the connection closes
  views_.clear();  // unpinned
  // A writer removes what its commits left unused (after them: a crash
  // before a commit must find the previous generation in place).
  if (mode_ == Mode::kWrite && lock_fd_ >= 0 && db_.is_open()) {
    try {
      RemoveUnused();
    } catch (const StatusError&) {
    }
  }
  if (read_txn_ && db_.is_open()) sqlite3_exec(db_.raw(), "COMMIT", nullptr, nullptr, nullptr);
  if (mode_ == Mode::kWrite && lock_fd_ >= 0 && db_.is_open()) TruncateWal();
  db_.Close();
  if (lock_fd_ >= 0) close(lock_fd_);
}

// A writer leaves no WAL behind. SQLite checkpoints on close only when the
// closing connection is the last one, and readers never checkpoint
// (InitReader), so a reader open when an update closed used to leave the
// update's WAL in place, and every later process that opened the store alone
// rebuilt its WAL index from the whole file: 1.8 GB after a 100k upsert into
// 1M works, 516 ms per find-paper instead of 12.5 ms; 1.9 GB and 0.56 s at
// 10M works (bench/results/2026-11-28-wal). Past kWalLeftBytes of WAL the
// writer waits up to kWalWaitMs for the readers of the WAL to finish
// (readers that start meanwhile read the database file, so the wait ends);
// a smaller WAL, cheap to read, is emptied only when no reader holds it.
// When a reader holds its snapshot longer, the WAL stays for the next writer.
void Store::LimitSqliteMemory(size_t cache, size_t mapped) {
  db_.Exec(fmt::format("PRAGMA cache_size=-{}; PRAGMA mmap_size={}; PRAGMA temp_store=FILE;",
                       cache / 1024, mapped));
}

void Store::TruncateWal() {
  std::error_code ec;
  const auto wal = fs::file_size(dir_ + "/litgraph.sqlite-wal", ec);
  sqlite3_busy_timeout(db_.raw(), !ec && wal > kWalLeftBytes ? kWalWaitMs : 0);
  // A failure leaves the WAL as it was: every commit in it stays readable.
  sqlite3_wal_checkpoint_v2(db_.raw(), nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
}

bool Store::WriterActive() const {
  const int fd = open((dir_ + "/LOCK").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  close(fd);  // and the shared lock with it
  return held;
}

Status Store::Init(const std::string& dir, Mode mode, bool create, Reporter* reporter) {
  dir_ = dir;
  mode_ = mode;
  std::error_code ec;
  if (!create && !fs::exists(dir + "/litgraph.sqlite", ec))
    return Status::IoError(
        fmt::format("{}: no litgraph store here (create one with litgraph-ingest)", dir));
  return mode == Mode::kRead ? InitReader() : InitWriter(reporter);
}

// A reader opens the database, checks the schema version and starts the one
// snapshot every query of the process sees, then pins the derived
// generations that snapshot names (generation.h). A store the user cannot
// write (another user's, a read-only mount, a container image) opens
// read-only: sharing the WAL index when its -shm file exists, else as an
// immutable database (safe as long as nobody writes it).
Status Store::InitReader() {
  const std::string db_path = dir_ + "/litgraph.sqlite";
  const bool writable = access(db_path.c_str(), W_OK) == 0 && access(dir_.c_str(), W_OK) == 0;
  Status st;
  for (const char* how : {"rw", "ro", "immutable"}) {
    if (writable ? std::string(how) != "rw" : std::string(how) == "rw") continue;
    st = db_.Open(db_path, std::string(how) == "rw", false,
                  std::string(how) == "immutable" ? "immutable=1" : "");
    if (!st.ok()) continue;
    try {
      // A reader never checkpoints: SQLite's last connection to close
      // checkpoints the WAL, and when queries kept a writer's checkpoints
      // from finishing, that is the rest of an update's WAL (a likely cause
      // of a 7.4 s query during a 1M update, bench/results/2026-11-25-growth).
      // Writers checkpoint as they commit and close.
      sqlite3_db_config(db_.raw(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
      // Pages are read through a mapping of the file's first 2 GB (SQLite's
      // largest here, SQLITE_MAX_MMAP_SIZE): a page read by pread() lands in
      // freshly allocated cache memory, four page faults per 16 KiB page in
      // a fresh process (rwr-rank's seeds and rows at 1M: 430 of 2,500
      // faults; bench/results/2026-11-28-fresh-process).
      db_.Exec("PRAGMA query_only=1; PRAGMA cache_size=-65536; PRAGMA mmap_size=2147418112;");
      db_.QueryInt("SELECT count(*) FROM sqlite_master");
      break;
    } catch (const StatusError& e) {
      st = e.status();
      db_.Close();
    }
  }
  if (!st.ok() && st.message().find("database is locked") != std::string::npos)
    return Status::IoError(dir_ +
                           ": locked by its first bulk load (litgraph-ingest into an empty store) "
                           "for longer than the 10 s a reader waits; try again when it finishes");
  if (!st.ok()) return st;
  auto version = db_.QueryInt("PRAGMA user_version");
  int v = version ? static_cast<int>(*version) : 0;
  if (v > kSchemaVersion)
    return Status::IoError(fmt::format(
        "{}: store schema version {} is newer than this litgraph ({}); upgrade litgraph", dir_, v,
        kSchemaVersion));
  if (v < kOldestReadableSchema)
    return Status::IoError(
        fmt::format("{}: store schema version {} needs migrating to {}; run any writing tool (e.g. "
                    "litgraph-ingest with no input)",
                    dir_, v, kSchemaVersion));
  // Snapshot, then pins; a generation removed in between (a writer committed
  // twice meanwhile) means a new snapshot.
  for (int attempt = 0;; ++attempt) {
    db_.Exec("BEGIN");
    read_txn_ = true;
    db_.QueryInt("SELECT count(*) FROM meta");  // starts the snapshot
    bool gone = false;
    LITGRAPH_RETURN_IF_ERROR(PinGenerations(&gone));
    if (!gone) return Status::Ok();
    db_.Exec("COMMIT");
    read_txn_ = false;
    if (attempt == 50) return Status::IoError(dir_ + ": generations keep changing; try again");
  }
}

Status Store::InitWriter(Reporter* reporter) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec)
    return Status::IoError(
        fmt::format("{}: cannot create store directory: {}", dir_, ec.message()));
  std::string lock_path = dir_ + "/LOCK";
  lock_fd_ = open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) return Status::IoError(fmt::format("{}: {}", lock_path, std::strerror(errno)));
  if (flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    reporter->Note(fmt::format("waiting for another writer to finish with {}", dir_));
    if (flock(lock_fd_, LOCK_EX) != 0)
      return Status::IoError(fmt::format("{}: cannot lock: {}", lock_path, std::strerror(errno)));
  }
  LITGRAPH_RETURN_IF_ERROR(db_.Open(dir_ + "/litgraph.sqlite", true, true));
  // 16 KiB pages suit rows carrying an abstract: a bulk load runs ~15%
  // faster than with 4 KiB pages (bench/results). Only a new file takes it.
  db_.Exec("PRAGMA page_size=16384;");
  db_.Exec(
      "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-524288;"
      "PRAGMA temp_store=MEMORY; PRAGMA mmap_size=1073741824; PRAGMA "
      "journal_size_limit=" +
      std::to_string(kWalLeftBytes) + ";");
  LITGRAPH_RETURN_IF_ERROR(Migrate());
  LITGRAPH_RETURN_IF_ERROR(ReadStoreId());
  RemoveUnused();
  return Status::Ok();
}

Status Store::ReadStoreId() {
  auto hex = GetMeta("store_id");
  if (!hex || hex->size() != 32) return Status::Corruption(dir_ + ": the store has no valid id");
  for (size_t i = 0; i < 16; ++i)
    id_[i] = static_cast<uint8_t>(std::stoi(hex->substr(2 * i, 2), nullptr, 16));
  return Status::Ok();
}

Status Store::PinGenerations(bool* gone) {
  LITGRAPH_RETURN_IF_ERROR(ReadStoreId());
  views_.clear();
  for (const char* artifact : kArtifacts) {
    int64_t n = Generation(artifact);
    if (n == 0) continue;
    bool g = false;
    auto v = GenerationView::Open(dir_, id_, artifact, n, /*pin=*/true, &g);
    if (g) {
      *gone = true;
      return Status::Ok();
    }
    if (v.ok())
      views_[artifact] = std::move(v.value());
    else
      view_errors_[artifact] = v.status();
  }
  return Status::Ok();
}

Result<const GenerationView*> Store::Current(const std::string& artifact) {
  if (mode_ == Mode::kRead) {  // the generations pinned at open
    if (auto it = views_.find(artifact); it != views_.end()) return it->second.get();
    if (auto it = view_errors_.find(artifact); it != view_errors_.end()) return it->second;
    return static_cast<const GenerationView*>(nullptr);
  }
  // A writer sees its own commits; views it handed out stay valid.
  int64_t n = Generation(artifact);
  if (n == 0) return static_cast<const GenerationView*>(nullptr);
  auto it = views_.find(artifact);
  if (it != views_.end() && it->second->number() == n) return it->second.get();
  // Files of an older release: the writer builds the artifact afresh and its
  // commit retires them.
  if (GenerationView::IsOlderFormat(dir_, artifact, n))
    return static_cast<const GenerationView*>(nullptr);
  bool gone = false;
  auto v = GenerationView::Open(dir_, id_, artifact, n, /*pin=*/false, &gone);
  if (!v.ok()) return v.status();
  if (it != views_.end()) retired_views_.push_back(std::move(it->second));
  return (views_[artifact] = std::move(v.value())).get();
}

void Store::RemoveUnused() {
  for (const char* artifact : kArtifacts)
    RemoveUnusedGenerations(dir_, artifact, Generation(artifact));
}

Status Store::Migrate() {
  auto version = db_.QueryInt("PRAGMA user_version");
  int v = version ? static_cast<int>(*version) : 0;
  if (v > kSchemaVersion)
    return Status::IoError(fmt::format(
        "{}: store schema version {} is newer than this litgraph ({})", dir_, v, kSchemaVersion));
  for (; v < kSchemaVersion; ++v) {
    Transaction txn(&db_, "EXCLUSIVE");
    db_.Exec(kMigrations[v]);
    db_.Exec(fmt::format("PRAGMA user_version = {}", v + 1));
    db_.Exec(fmt::format("INSERT OR REPLACE INTO meta(key, value) VALUES('schema_version', '{}')",
                         v + 1));
    txn.Commit();
  }
  return Status::Ok();
}

std::optional<std::string> Store::GetMeta(const std::string& key) {
  Stmt& st = CachedStmt("SELECT value FROM meta WHERE key = ?");
  st.Bind(1, key);
  std::optional<std::string> v;
  if (st.Step() && !st.IsNull(0)) v = st.Str(0);
  st.Reset();
  return v;
}

void Store::SetMeta(const std::string& key, const std::string& value) {
  CachedStmt("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)")
      .Bind(1, key)
      .Bind(2, value)
      .Exec();
}

int64_t Store::TextVersion() {
  auto v = GetMeta("text_version");
  return v ? std::strtoll(v->c_str(), nullptr, 10) : 0;
}

void Store::NoteTextsWritten() { SetMeta("text_version", std::to_string(TextVersion() + 1)); }

Stmt& Store::CachedStmt(const char* sql) {
  auto it = stmts_.find(sql);
  if (it == stmts_.end()) it = stmts_.emplace(sql, db_.Prepare(sql)).first;
  return it->second;
}

int64_t Store::Generation(const std::string& artifact) {
  auto v = GetMeta(artifact + "_generation");
  return v ? std::strtoll(v->c_str(), nullptr, 10) : 0;
}

void Store::SetGeneration(const std::string& artifact, int64_t generation) {
  SetMeta(artifact + "_generation", std::to_string(generation));
}

}  // namespace litgraph
