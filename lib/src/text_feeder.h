// TextFeeder: stored papers' text handed to the lexical builders
// (lexical.h) on a thread of their own, so that a bulk load's lexical
// indexes are tokenized while SQLite works (ingest into an empty store,
// litgraph-merge into an empty store). Private to the library.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "litgraph/lexical.h"

namespace litgraph {

// Feeds documents to `builder` (or to `add`) on its own thread, 256 at a
// time, at most 64 batches waiting.
class TextFeeder {
 public:
  using AddFn =
      std::function<void(uint32_t doc, std::string_view title, std::string_view abstract)>;
  explicit TextFeeder(LexicalBuilders* builder)
      : TextFeeder([builder](uint32_t d, std::string_view t, std::string_view a) {
          builder->Add(d, t, a);
        }) {}
  explicit TextFeeder(AddFn add) : add_(std::move(add)), thread_([this] { Run(); }) {}
  ~TextFeeder() { Finish(); }

  void Add(int64_t id, std::string title, std::string abstract) {
    batch_.push_back({static_cast<uint32_t>(id), std::move(title), std::move(abstract)});
    if (batch_.size() >= 256) Flush();
  }
  // Calls fn on the feeding thread once the documents given so far are
  // added (for builder calls that must come in order with the adds).
  void Then(std::function<void()> fn) {
    Flush();
    Push({{}, std::move(fn)});
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
  // A batch of documents, or a call (Then).
  struct Item {
    std::vector<Doc> docs;
    std::function<void()> then;
  };
  void Flush() {
    if (batch_.empty()) return;
    Push({std::move(batch_), {}});
    batch_.clear();
  }
  // Queues an item once fewer than 64 wait.
  void Push(Item item) {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return queue_.size() < 64; });
    queue_.push_back(std::move(item));
    cv_.notify_all();
  }
  void Run() {
    for (;;) {
      Item item;
      {
        std::unique_lock<std::mutex> l(mu_);
        cv_.wait(l, [&] { return !queue_.empty() || done_; });
        if (queue_.empty()) return;
        item = std::move(queue_.front());
        queue_.pop_front();
        cv_.notify_all();
      }
      for (const Doc& d : item.docs) add_(d.id, d.title, d.abstract);
      if (item.then) item.then();
    }
  }
  AddFn add_;
  std::vector<Doc> batch_;
  std::deque<Item> queue_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace litgraph
