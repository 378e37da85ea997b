#include "litgraph/sqlite.h"

#include <fmt/format.h>

#include <mutex>

namespace litgraph {

Stmt::Stmt(Db* db, std::string_view sql) : db_(db) {
  int rc = sqlite3_prepare_v3(db->raw(), sql.data(), static_cast<int>(sql.size()),
                              SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
  if (rc != SQLITE_OK) db->Fail(rc, sql);
}

Stmt::~Stmt() {
  if (stmt_) sqlite3_finalize(stmt_);
}

Stmt::Stmt(Stmt&& o) noexcept : db_(o.db_), stmt_(o.stmt_) { o.stmt_ = nullptr; }

Stmt& Stmt::operator=(Stmt&& o) noexcept {
  if (this != &o) {
    if (stmt_) sqlite3_finalize(stmt_);
    db_ = o.db_;
    stmt_ = o.stmt_;
    o.stmt_ = nullptr;
  }
  return *this;
}

void Stmt::Fail(int rc) const { db_->Fail(rc, sqlite3_sql(stmt_) ? sqlite3_sql(stmt_) : ""); }

Stmt& Stmt::Bind(int i, int64_t v) {
  int rc = sqlite3_bind_int64(stmt_, i, v);
  if (rc != SQLITE_OK) Fail(rc);
  return *this;
}

Stmt& Stmt::Bind(int i, double v) {
  int rc = sqlite3_bind_double(stmt_, i, v);
  if (rc != SQLITE_OK) Fail(rc);
  return *this;
}

Stmt& Stmt::Bind(int i, std::string_view v) {
  int rc = sqlite3_bind_text(stmt_, i, v.data() ? v.data() : "", static_cast<int>(v.size()),
                             SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) Fail(rc);
  return *this;
}

Stmt& Stmt::BindStatic(int i, std::string_view v) {
  int rc = sqlite3_bind_text(stmt_, i, v.data() ? v.data() : "", static_cast<int>(v.size()),
                             SQLITE_STATIC);
  if (rc != SQLITE_OK) Fail(rc);
  return *this;
}

Stmt& Stmt::BindStaticBlob(int i, std::string_view v) {
  int rc = sqlite3_bind_blob(stmt_, i, v.data() ? v.data() : "", static_cast<int>(v.size()),
                             SQLITE_STATIC);
  if (rc != SQLITE_OK) Fail(rc);
  return *this;
}

Stmt& Stmt::BindNull(int i) {
  int rc = sqlite3_bind_null(stmt_, i);
  if (rc != SQLITE_OK) Fail(rc);
  return *this;
}

Stmt& Stmt::BindColumn(int i, const Stmt& from, int col) {
  int rc = sqlite3_bind_value(stmt_, i, sqlite3_column_value(from.stmt_, col));
  if (rc != SQLITE_OK) Fail(rc);
  return *this;
}

bool Stmt::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  sqlite3_reset(stmt_);
  Fail(rc);
}

void Stmt::Exec() {
  while (Step()) {
  }
  Reset();
}

void Stmt::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::string_view Stmt::Text(int col) const {
  const unsigned char* p = sqlite3_column_text(stmt_, col);
  if (!p) return {};
  return {reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(stmt_, col))};
}

std::string_view Stmt::Blob(int col) const {
  const void* p = sqlite3_column_blob(stmt_, col);
  if (!p) return {};
  return {static_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(stmt_, col))};
}

Db::~Db() { Close(); }

void Db::Close() {
  if (db_) {
    sqlite3_close_v2(db_);
    db_ = nullptr;
  }
}

namespace {

// Before SQLite's first use: no memory statistics. With them (Debian's
// default), every allocation and free of every connection takes one global
// mutex, which the threads of a merge or an ingest contend for.
void ConfigureSqliteOnce() {
  static std::once_flag once;
  std::call_once(once, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
}

}  // namespace

Status Db::Open(const std::string& path, bool writable, bool create,
                const std::string& uri_params) {
  ConfigureSqliteOnce();
  Close();
  path_ = path;
  int flags = writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY;
  if (create) flags |= SQLITE_OPEN_CREATE;
  flags |= SQLITE_OPEN_NOMUTEX;
  std::string name = path;
  if (!uri_params.empty()) {
    // A file: URI; '?', '#' and '%' in the path are percent-encoded.
    name = "file:";
    for (char c : path) {
      if (c == '?' || c == '#' || c == '%')
        name += fmt::format("%{:02X}", static_cast<unsigned char>(c));
      else
        name += c;
    }
    name += "?" + uri_params;
    flags |= SQLITE_OPEN_URI;
  }
  int rc = sqlite3_open_v2(name.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    Close();
    return Status::IoError(fmt::format("{}: cannot open database: {}", path, msg));
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, 10000);
  return Status::Ok();
}

void Db::Fail(int rc, std::string_view what) const {
  std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
  std::string sql(what.substr(0, 120));
  for (char& c : sql)
    if (c == '\n') c = ' ';
  throw StatusError(Status::IoError(fmt::format("{}: {} (in: {})", path_, msg, sql)));
}

void Db::Exec(std::string_view sql) {
  std::string s(sql);
  char* err = nullptr;
  int rc = sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    std::string head = s.substr(0, 120);
    for (char& c : head)
      if (c == '\n') c = ' ';
    throw StatusError(Status::IoError(fmt::format("{}: {} (in: {})", path_, msg, head)));
  }
}

std::optional<int64_t> Db::QueryInt(std::string_view sql) {
  Stmt st(this, sql);
  if (st.Step() && !st.IsNull(0)) return st.Int(0);
  return std::nullopt;
}

Transaction::Transaction(Db* db, const char* mode) : db_(db) {
  db_->Exec(fmt::format("BEGIN {}", mode));
}

Transaction::~Transaction() {
  if (open_) sqlite3_exec(db_->raw(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::Commit() {
  db_->Exec("COMMIT");
  open_ = false;
}

}  // namespace litgraph
