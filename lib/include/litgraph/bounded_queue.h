// A bounded queue between one producer thread (a reader: parses input,
// reads shards) and one consumer thread (the SQLite writer), as ingest and
// merge use it. Push blocks while the queue is full; Pop blocks while it is
// empty and returns false once the producer is Done and everything was
// taken; Close (the consumer gives up) unblocks both sides.
//
// Return: the consumer hands back an item it has applied, so the producer
// frees what it allocated on its own thread (at its next Push), off the
// consumer's, which is the bottleneck.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>

namespace litgraph {

template <typename T>
class BoundedQueue {
 public:
  explicit BoundedQueue(size_t capacity) : capacity_(capacity) {}
  void Push(T item) {
    std::deque<T> spent;  // freed on return, on the producer's thread, after unlocking
    std::unique_lock<std::mutex> l(mu_);
    not_full_.wait(l, [&] { return q_.size() < capacity_ || closed_; });
    if (closed_) return;
    q_.push_back(std::move(item));
    spent.swap(spent_);
    not_empty_.notify_one();
  }
  void Return(T item) {
    std::lock_guard<std::mutex> l(mu_);
    if (!done_ && !closed_) spent_.push_back(std::move(item));
  }
  bool Pop(T* item) {
    std::unique_lock<std::mutex> l(mu_);
    not_empty_.wait(l, [&] { return !q_.empty() || done_ || closed_; });
    if (q_.empty()) return false;
    *item = std::move(q_.front());
    q_.pop_front();
    not_full_.notify_one();
    return true;
  }
  void Done() {
    std::lock_guard<std::mutex> l(mu_);
    done_ = true;
    not_empty_.notify_all();
  }
  void Close() {
    std::lock_guard<std::mutex> l(mu_);
    closed_ = true;
    not_full_.notify_all();
    not_empty_.notify_all();
  }
  bool closed() {
    std::lock_guard<std::mutex> l(mu_);
    return closed_;
  }

 private:
  std::mutex mu_;
  std::condition_variable not_full_, not_empty_;
  std::deque<T> q_, spent_;
  size_t capacity_;
  bool done_ = false, closed_ = false;
};

}  // namespace litgraph
