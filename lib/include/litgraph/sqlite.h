// A thin RAII layer over the SQLite C API.
//
// Errors throw StatusError(Status::IoError(...)) naming the database file and
// the SQL that failed: the library's one exception (status.h). Only the
// store's modules (store.h) use this layer.
// Not thread-safe: one Db and its statements belong to one thread.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "litgraph/status.h"

namespace litgraph {

class Db;

// A prepared statement. Bind parameters are 1-based as in SQLite.
class Stmt {
 public:
  Stmt() = default;
  Stmt(Db* db, std::string_view sql);
  ~Stmt();
  Stmt(Stmt&& o) noexcept;
  Stmt& operator=(Stmt&& o) noexcept;
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& Bind(int i, int64_t v);
  Stmt& Bind(int i, int v) { return Bind(i, static_cast<int64_t>(v)); }
  Stmt& Bind(int i, double v);
  Stmt& Bind(int i, std::string_view v);  // bound as TEXT (copied); empty binds ''
  // Bind without copying: v must stay valid until the statement is reset.
  Stmt& BindStatic(int i, std::string_view v);
  Stmt& BindStaticBlob(int i, std::string_view v);
  Stmt& BindStaticOrNull(int i, std::string_view v) {
    return v.empty() ? BindNull(i) : BindStatic(i, v);
  }
  Stmt& BindNull(int i);
  // Binds a copy of column `col` of `from`'s current row, type and all.
  Stmt& BindColumn(int i, const Stmt& from, int col);
  // Binds NULL when the value is absent (empty string / negative sentinel).
  Stmt& BindTextOrNull(int i, std::string_view v) { return v.empty() ? BindNull(i) : Bind(i, v); }
  Stmt& BindIntOrNull(int i, int64_t v, int64_t null_below = 0) {
    return v < null_below ? BindNull(i) : Bind(i, v);
  }

  // Advances; true while a row is available.
  bool Step();
  // Runs to completion (for statements without result rows) and resets.
  void Exec();
  void Reset();

  bool IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }
  double Double(int col) const { return sqlite3_column_double(stmt_, col); }
  std::string_view Text(int col) const;
  std::string Str(int col) const { return std::string(Text(col)); }
  std::string_view Blob(int col) const;
  sqlite3_stmt* raw() const { return stmt_; }

 private:
  [[noreturn]] void Fail(int rc) const;
  Db* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

class Db {
 public:
  Db() = default;
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  // Opens (read-only, or read-write creating the file when create is true).
  // `uri_params` ("immutable=1") opens through a file: URI with them.
  Status Open(const std::string& path, bool writable, bool create,
              const std::string& uri_params = "");
  void Close();
  bool is_open() const { return db_ != nullptr; }

  // Executes one or more statements without results.
  void Exec(std::string_view sql);
  Stmt Prepare(std::string_view sql) { return Stmt(this, sql); }
  // Single-value helpers.
  std::optional<int64_t> QueryInt(std::string_view sql);
  int64_t LastInsertRowid() const { return sqlite3_last_insert_rowid(db_); }
  int Changes() const { return sqlite3_changes(db_); }

  sqlite3* raw() const { return db_; }
  const std::string& path() const { return path_; }
  [[noreturn]] void Fail(int rc, std::string_view what) const;

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

// Resets a reused statement (Store's cache) when the scope ends.
class ScopedStmt {
 public:
  explicit ScopedStmt(Stmt& s) : s_(s) {}
  ~ScopedStmt() { s_.Reset(); }
  ScopedStmt(const ScopedStmt&) = delete;
  ScopedStmt& operator=(const ScopedStmt&) = delete;
  Stmt* operator->() { return &s_; }
  Stmt& operator*() { return s_; }

 private:
  Stmt& s_;
};

// Commits on Commit(), rolls back on destruction otherwise.
class Transaction {
 public:
  // mode: "DEFERRED", "IMMEDIATE" or "EXCLUSIVE".
  explicit Transaction(Db* db, const char* mode = "IMMEDIATE");
  ~Transaction();
  void Commit();

 private:
  Db* db_;
  bool open_ = true;
};

}  // namespace litgraph
