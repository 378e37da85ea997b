// Reporter: where long-running library work reports progress, notes and
// warnings. The library never prints; each tool passes a Reporter that draws
// on its terminal or stays quiet (tools/tool.h).
#pragma once

#include <mutex>
#include <string_view>

namespace litgraph {

class Reporter {
 public:
  virtual ~Reporter() = default;
  // A transient status line ("120000 works, 9800 works/s"), replacing the
  // previous one; an empty line clears it. Callers limit the rate.
  virtual void Progress(std::string_view line) = 0;
  // A line worth keeping ("indexing title vectors").
  virtual void Note(std::string_view message) = 0;
  // Something the user should know (a skipped record, a capped scan).
  virtual void Warn(std::string_view message) = 0;
};

// A Reporter that drops everything (tests, library callers without a tool).
Reporter* NullReporter();

// Forwards to `to` under a lock: one Reporter for work on several threads
// (litgraph-merge's graph build and vectors).
class LockedReporter : public Reporter {
 public:
  explicit LockedReporter(Reporter* to) : to_(to) {}
  void Progress(std::string_view line) override {
    std::lock_guard<std::mutex> l(mu_);
    to_->Progress(line);
  }
  void Note(std::string_view message) override {
    std::lock_guard<std::mutex> l(mu_);
    to_->Note(message);
  }
  void Warn(std::string_view message) override {
    std::lock_guard<std::mutex> l(mu_);
    to_->Warn(message);
  }

 private:
  std::mutex mu_;
  Reporter* to_;
};

}  // namespace litgraph
