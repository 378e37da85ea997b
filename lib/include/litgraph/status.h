// Status and Result: how every library function reports failure.
//
// Library functions never exit and never print; they return a Status (or a
// Result<T>, a value or a Status). A Status carries one of the product's exit
// codes (spec/product.md) and a one-line message without the tool prefix; the
// tool's main() prints "litgraph-<tool>: error: <message>" and exits with the
// code. Exceptions thrown by dependencies are caught at the lowest layer and
// converted; StatusError lets deep helpers unwind to that layer.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace litgraph {

// Process exit codes shared by every tool.
enum class Code : int {
  kOk = 0,
  kNotFound = 1,   // a search found nothing
  kUsage = 2,      // bad arguments, ambiguous input
  kBadInput = 3,   // malformed input record (message names file and line)
  kIo = 4,         // I/O, store or backend failure
  kInternal = 5,   // a bug
};

class Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status Usage(std::string msg) { return Status(Code::kUsage, std::move(msg)); }
  static Status BadInput(std::string msg) { return Status(Code::kBadInput, std::move(msg)); }
  static Status Io(std::string msg) { return Status(Code::kIo, std::move(msg)); }
  static Status Internal(std::string msg) { return Status(Code::kInternal, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  int exit_code() const { return static_cast<int>(code_); }
  const std::string& message() const { return message_; }

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

// Thrown by internal helpers; converted back to a Status at API boundaries.
class StatusError : public std::runtime_error {
 public:
  explicit StatusError(Status s) : std::runtime_error(s.message()), status_(std::move(s)) {}
  const Status& status() const { return status_; }

 private:
  Status status_;
};

inline void ThrowIfError(const Status& s) {
  if (!s.ok()) throw StatusError(s);
}

// A value or the Status explaining why there is none.
template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {}  // NOLINT
  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  T* operator->() { return &*value_; }
  T& operator*() { return *value_; }
  // Value or throw StatusError (for code that unwinds to an API boundary).
  T& ValueOrThrow() {
    if (!value_) throw StatusError(status_);
    return *value_;
  }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace litgraph
