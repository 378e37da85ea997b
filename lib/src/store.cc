#include "litgraph/store.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "litgraph/fts_tokens.h"
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
CREATE VIRTUAL TABLE paper_fts USING fts5(
  title, abstract, content='paper', content_rowid='id',
  tokenize='porter unicode61 remove_diacritics 2');
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
};

}  // namespace

const std::vector<std::string>& SchemaMigrations() { return kMigrations; }

const char* NodeTypeName(NodeType t) {
  static const char* kNames[] = {"paper", "author", "institution", "source", "topic",
                                 "subfield", "field", "domain", "keyword"};
  return kNames[static_cast<int>(t)];
}

const char* NodeTypeTable(NodeType t) { return NodeTypeName(t); }

bool ParseNodeType(std::string_view s, NodeType* t) {
  for (int i = 0; i < kNodeTypeCount; ++i) {
    if (s == NodeTypeName(static_cast<NodeType>(i))) {
      *t = static_cast<NodeType>(i);
      return true;
    }
  }
  if (s == "venue") {
    *t = NodeType::kSource;
    return true;
  }
  return false;
}

Result<std::unique_ptr<Store>> Store::Open(const std::string& dir, Mode mode, bool create) {
  std::unique_ptr<Store> s(new Store());
  Status st;
  try {
    st = s->Init(dir, mode, create);
  } catch (const StatusError& e) {
    st = e.status();
  }
  if (!st.ok()) return st;
  return s;
}

Store::~Store() {
  by_ext_ = Stmt();
  by_doi_ = Stmt();
  by_title_ = Stmt();
  summary_ = Stmt();
  summary_authors_ = Stmt();
  if (read_txn_ && db_.is_open()) sqlite3_exec(db_.raw(), "COMMIT", nullptr, nullptr, nullptr);
  db_.Close();
  if (lock_fd_ >= 0) close(lock_fd_);
}

Status Store::Init(const std::string& dir, Mode mode, bool create) {
  dir_ = dir;
  mode_ = mode;
  std::string db_path = dir + "/litgraph.sqlite";
  std::error_code ec;
  if (!create && !fs::exists(db_path, ec))
    return Status::Io(fmt::format("{}: no litgraph store here (create one with litgraph-ingest)",
                                  dir));
  if (mode == Mode::kRead) {
    // Read-write handle (without CREATE) so WAL readers can use the shared
    // memory index; we never write through it.
    Status st = db_.Open(db_path, access(db_path.c_str(), W_OK) == 0, false);
    if (!st.ok()) return st;
    db_.Exec("PRAGMA query_only=1; PRAGMA cache_size=-65536; PRAGMA mmap_size=268435456;");
    auto version = db_.QueryInt("PRAGMA user_version");
    int v = version ? static_cast<int>(*version) : 0;
    if (v > kSchemaVersion)
      return Status::Io(fmt::format("{}: store schema version {} is newer than this litgraph "
                                    "({}); upgrade litgraph",
                                    dir, v, kSchemaVersion));
    if (v < kSchemaVersion)
      return Status::Io(fmt::format("{}: store schema version {} needs migrating to {}; run "
                                    "any writing tool (e.g. litgraph-ingest with no input)",
                                    dir, v, kSchemaVersion));
    db_.Exec("BEGIN");
    read_txn_ = true;
    db_.QueryInt("SELECT count(*) FROM meta");  // starts the snapshot
  } else {
    fs::create_directories(dir, ec);
    if (ec) return Status::Io(fmt::format("{}: cannot create store directory: {}", dir, ec.message()));
    std::string lock_path = dir + "/LOCK";
    lock_fd_ = open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock_fd_ < 0)
      return Status::Io(fmt::format("{}: {}", lock_path, std::strerror(errno)));
    if (flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      if (isatty(STDERR_FILENO))
        fmt::print(stderr, "litgraph: waiting for another writer to finish with {}\n", dir);
      if (flock(lock_fd_, LOCK_EX) != 0)
        return Status::Io(fmt::format("{}: cannot lock: {}", lock_path, std::strerror(errno)));
    }
    Status st = db_.Open(db_path, true, true);
    if (!st.ok()) return st;
    // Before any FTS5 table is used on this connection (fts_tokens.h).
    auto fts = FtsTokens::Install(db_.raw());
    if (!fts.ok()) return fts.status();
    fts_tokens_ = fts.value();
    // 16 KiB pages suit rows carrying an abstract: a bulk load runs ~15%
    // faster than with 4 KiB pages (bench/results). Only a new file takes it.
    db_.Exec("PRAGMA page_size=16384;");
    db_.Exec(
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-524288;"
        "PRAGMA temp_store=MEMORY; PRAGMA mmap_size=1073741824; PRAGMA journal_size_limit=67108864;");
    st = Migrate();
    if (!st.ok()) return st;
    RemoveOrphanGenerations();
  }
  by_ext_ = db_.Prepare("SELECT id FROM paper WHERE ext_id = ?");
  by_doi_ = db_.Prepare("SELECT id FROM paper WHERE doi = ?");
  by_title_ = db_.Prepare("SELECT id FROM paper WHERE title_key = ? ORDER BY id LIMIT 50");
  summary_ = db_.Prepare(
      "SELECT p.ext_id, p.title, p.doi, p.type, p.year, p.cited_by_count, s.name, p.date "
      "FROM paper p LEFT JOIN source s ON s.id = p.source_id WHERE p.id = ?");
  summary_authors_ = db_.Prepare(
      "SELECT a.name, au.raw_name FROM authorship au JOIN author a ON a.id = au.author_id "
      "WHERE au.paper_id = ? ORDER BY au.position");
  return Status::Ok();
}

Status Store::Migrate() {
  auto version = db_.QueryInt("PRAGMA user_version");
  int v = version ? static_cast<int>(*version) : 0;
  if (v > kSchemaVersion)
    return Status::Io(fmt::format("{}: store schema version {} is newer than this litgraph ({})",
                                  dir_, v, kSchemaVersion));
  for (; v < kSchemaVersion; ++v) {
    Transaction txn(&db_, "EXCLUSIVE");
    db_.Exec(kMigrations[v]);
    db_.Exec(fmt::format("PRAGMA user_version = {}", v + 1));
    db_.Exec(fmt::format(
        "INSERT OR REPLACE INTO meta(key, value) VALUES('schema_version', '{}')", v + 1));
    txn.Commit();
  }
  return Status::Ok();
}

void Store::RemoveOrphanGenerations() {
  for (const char* artifact : {"graph", "vectors", "keywords"}) {
    int64_t current = Generation(artifact);
    int64_t keep_prev = 0;
    std::error_code ec;
    std::vector<std::pair<int64_t, fs::path>> dirs;
    for (const auto& e : fs::directory_iterator(dir_, ec)) {
      std::string name = e.path().filename().string();
      std::string prefix = std::string(artifact) + ".";
      if (name.rfind(prefix, 0) != 0) continue;
      std::string rest = name.substr(prefix.size());
      char* end = nullptr;
      long long n = std::strtoll(rest.c_str(), &end, 10);
      if (end == rest.c_str() || *end != '\0') {
        fs::remove_all(e.path(), ec);  // graph.5.tmp and the like
        continue;
      }
      dirs.emplace_back(n, e.path());
      if (n < current && n > keep_prev) keep_prev = n;
    }
    for (const auto& [n, path] : dirs)
      if (n != current && n != keep_prev) fs::remove_all(path, ec);
  }
}

std::optional<std::string> Store::GetMeta(const std::string& key) {
  Stmt st = db_.Prepare("SELECT value FROM meta WHERE key = ?");
  st.Bind(1, key);
  if (st.Step() && !st.IsNull(0)) return st.Str(0);
  return std::nullopt;
}

void Store::SetMeta(const std::string& key, const std::string& value) {
  Stmt st = db_.Prepare("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)");
  st.Bind(1, key).Bind(2, value).Exec();
}

int64_t Store::Generation(const std::string& artifact) {
  auto v = GetMeta(artifact + "_generation");
  return v ? std::strtoll(v->c_str(), nullptr, 10) : 0;
}

std::string Store::ArtifactDir(const std::string& artifact, int64_t generation) const {
  return fmt::format("{}/{}.{}", dir_, artifact, generation);
}

Result<std::string> Store::NewArtifactDir(const std::string& artifact, int64_t* generation) {
  if (mode_ != Mode::kWrite) return Status::Internal("NewArtifactDir on a read-only store");
  int64_t g = Generation(artifact) + 1;
  std::error_code ec;
  while (fs::exists(ArtifactDir(artifact, g), ec)) ++g;
  std::string path = ArtifactDir(artifact, g);
  fs::create_directories(path, ec);
  if (ec) return Status::Io(fmt::format("{}: {}", path, ec.message()));
  *generation = g;
  return path;
}

void Store::SetGeneration(const std::string& artifact, int64_t generation) {
  SetMeta(artifact + "_generation", std::to_string(generation));
}

std::optional<int64_t> Store::PaperByExtId(const std::string& ext_id) {
  by_ext_.Bind(1, ext_id);
  std::optional<int64_t> r;
  if (by_ext_.Step()) r = by_ext_.Int(0);
  by_ext_.Reset();
  return r;
}

std::optional<int64_t> Store::PaperByDoi(const std::string& doi) {
  std::string d = NormalizeDoi(doi);
  if (d.empty()) return std::nullopt;
  by_doi_.Bind(1, d);
  std::optional<int64_t> r;
  if (by_doi_.Step()) r = by_doi_.Int(0);
  by_doi_.Reset();
  return r;
}

std::vector<int64_t> Store::PapersByTitleKey(const std::string& title_key) {
  std::vector<int64_t> out;
  if (title_key.empty()) return out;
  by_title_.Bind(1, title_key);
  while (by_title_.Step()) out.push_back(by_title_.Int(0));
  by_title_.Reset();
  return out;
}

std::optional<int64_t> Store::ResolvePaperId(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (auto id = PaperByExtId(text)) return id;
  std::string shortid = ShortOpenAlexId(text);
  if (!shortid.empty() && shortid != text)
    if (auto id = PaperByExtId(shortid)) return id;
  if (!NormalizeDoi(text).empty()) return PaperByDoi(text);
  return std::nullopt;
}

std::optional<PaperSummary> Store::GetPaperSummary(int64_t id) {
  summary_.Bind(1, id);
  if (!summary_.Step()) {
    summary_.Reset();
    return std::nullopt;
  }
  PaperSummary p;
  p.id = id;
  p.ext_id = summary_.Str(0);
  p.title = summary_.Str(1);
  p.doi = summary_.Str(2);
  p.type = summary_.Str(3);
  p.year = summary_.IsNull(4) ? 0 : static_cast<int>(summary_.Int(4));
  p.cited_by_count = summary_.IsNull(5) ? -1 : summary_.Int(5);
  p.venue = summary_.Str(6);
  p.date = summary_.Str(7);
  summary_.Reset();
  summary_authors_.Bind(1, id);
  while (summary_authors_.Step()) {
    std::string name = summary_authors_.Str(0);
    p.authors.push_back(name.empty() ? summary_authors_.Str(1) : name);
  }
  summary_authors_.Reset();
  return p;
}

int64_t Store::PaperCount() { return db_.QueryInt("SELECT count(*) FROM paper").value_or(0); }

int64_t Store::MaxId(NodeType t) {
  return db_.QueryInt(fmt::format("SELECT max(id) FROM {}", NodeTypeTable(t))).value_or(0);
}

std::optional<std::pair<std::string, std::string>> Store::NodeLabel(NodeType t, int64_t id) {
  const char* name_col = t == NodeType::kPaper ? "title" : t == NodeType::kKeyword ? "text" : "name";
  Stmt st = db_.Prepare(
      fmt::format("SELECT ext_id, {} FROM {} WHERE id = ?", name_col, NodeTypeTable(t)));
  st.Bind(1, id);
  if (!st.Step()) return std::nullopt;
  return std::make_pair(st.Str(0), st.Str(1));
}

std::optional<std::pair<NodeType, int64_t>> Store::ResolveNode(const std::string& ext_id,
                                                               const std::string& type_hint) {
  NodeType t;
  if (!type_hint.empty() && ParseNodeType(type_hint, &t)) {
    if (t == NodeType::kPaper) {
      if (auto id = ResolvePaperId(ext_id)) return std::make_pair(t, *id);
      return std::nullopt;
    }
    std::string key = t == NodeType::kKeyword && ext_id.rfind("kw:", 0) != 0 ? "kw:" + ext_id : ext_id;
    std::string shortid = ShortOpenAlexId(key);
    if (auto id = NodeByExtId(t, shortid.empty() ? key : shortid)) return std::make_pair(t, *id);
    return std::nullopt;
  }
  if (ext_id.rfind("kw:", 0) == 0) {
    if (auto id = NodeByExtId(NodeType::kKeyword, ext_id)) return std::make_pair(NodeType::kKeyword, *id);
    return std::nullopt;
  }
  if (ext_id.rfind("name:", 0) == 0) {
    if (auto id = NodeByExtId(NodeType::kAuthor, ext_id)) return std::make_pair(NodeType::kAuthor, *id);
    return std::nullopt;
  }
  if (ext_id.rfind("venue:", 0) == 0) {
    if (auto id = NodeByExtId(NodeType::kSource, ext_id)) return std::make_pair(NodeType::kSource, *id);
    return std::nullopt;
  }
  std::string shortid = ShortOpenAlexId(ext_id);
  if (!shortid.empty()) {
    NodeType ot = NodeType::kPaper;
    if (shortid.rfind("subfields/", 0) == 0) ot = NodeType::kSubfield;
    else if (shortid.rfind("fields/", 0) == 0) ot = NodeType::kField;
    else if (shortid.rfind("domains/", 0) == 0) ot = NodeType::kDomain;
    else if (shortid[0] == 'A') ot = NodeType::kAuthor;
    else if (shortid[0] == 'I') ot = NodeType::kInstitution;
    else if (shortid[0] == 'S') ot = NodeType::kSource;
    else if (shortid[0] == 'T') ot = NodeType::kTopic;
    if (ot != NodeType::kPaper) {
      if (auto id = NodeByExtId(ot, shortid)) return std::make_pair(ot, *id);
      return std::nullopt;
    }
  }
  if (auto id = ResolvePaperId(ext_id)) return std::make_pair(NodeType::kPaper, *id);
  return std::nullopt;
}

std::optional<int64_t> Store::NodeByExtId(NodeType t, const std::string& ext_id) {
  Stmt st = db_.Prepare(fmt::format("SELECT id FROM {} WHERE ext_id = ?", NodeTypeTable(t)));
  st.Bind(1, ext_id);
  if (!st.Step()) return std::nullopt;
  return st.Int(0);
}

}  // namespace litgraph
