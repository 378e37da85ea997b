// Status and Result: how the library reports failure.
//
// Functions that can fail return a Status, or a Result<T> (a value or the
// Status saying why there is none); both are [[nodiscard]]. A Status carries
// a Code saying what kind of failure it is and a one-line message without any
// tool name; the tool layer (tools/tool.h) maps codes to exit codes and
// prints "litgraph-<tool>: error: <message>". The library never prints and
// never exits.
//
// One failure unwinds instead of returning: a SQLite statement that fails
// (an I/O error of the database file, sqlite.h) throws StatusError, because
// every store function would otherwise thread a Status through each row it
// reads. Entry points that run a whole operation (Ingest, BuildGraph,
// RunKeywordExtraction, RunEmbed, and the tool frame around every
// executable) catch it and return it as a Status. Nothing else throws
// StatusError; dependencies' exceptions are caught where they are called.
// Besides it only std::bad_alloc and Output's BrokenPipe (a closed output
// pipe, output.h) unwind, both to the tool frame: an out-of-memory error and
// a quiet exit.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace litgraph {

enum class Code : unsigned char {
  kOk,
  kNotFound,         // nothing matched: a search, an id, a layer not built yet
  kInvalidArgument,  // the request is invalid or ambiguous (the caller can fix it)
  kMalformedInput,   // an input record or file is malformed (the message names file and line)
  kIoError,          // a file, the database or a network backend failed
  kCorruption,       // a store file is damaged or belongs to another store
  kInternal,         // a bug
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status InvalidArgument(std::string msg) {
    return Status(Code::kInvalidArgument, std::move(msg));
  }
  static Status MalformedInput(std::string msg) {
    return Status(Code::kMalformedInput, std::move(msg));
  }
  static Status IoError(std::string msg) { return Status(Code::kIoError, std::move(msg)); }
  static Status Corruption(std::string msg) { return Status(Code::kCorruption, std::move(msg)); }
  static Status Internal(std::string msg) { return Status(Code::kInternal, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

// The one exception of the library (see above): a failed SQLite statement.
class StatusError : public std::runtime_error {
 public:
  explicit StatusError(Status s) : std::runtime_error(s.message()), status_(std::move(s)) {}
  const Status& status() const { return status_; }

 private:
  Status status_;
};

// A value or the Status explaining why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {}  // NOLINT
  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

// Returns from the calling function when `expr` (a Status) is not ok.
#define LITGRAPH_RETURN_IF_ERROR(expr)                   \
  do {                                                   \
    ::litgraph::Status litgraph_status_ = (expr);        \
    if (!litgraph_status_.ok()) return litgraph_status_; \
  } while (0)

}  // namespace litgraph
