// ScopedThread: a thread that is joined however its scope is left (an
// error return, an exception), after `stop` tells it to finish early
// (closes its queue, raises its flag). Private to the library.
#pragma once

#include <functional>
#include <thread>
#include <utility>

namespace litgraph {

class ScopedThread {
 public:
  // Runs `run` on a new thread. An empty `run` starts none.
  ScopedThread(std::function<void()> stop, std::function<void()> run) : stop_(std::move(stop)) {
    if (run) thread_ = std::thread(std::move(run));
  }
  ~ScopedThread() {
    if (!thread_.joinable()) return;
    if (stop_) stop_();
    thread_.join();
  }
  ScopedThread(const ScopedThread&) = delete;
  ScopedThread& operator=(const ScopedThread&) = delete;

  // Waits for the thread to finish on its own.
  void Join() {
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::function<void()> stop_;
  std::thread thread_;
};

}  // namespace litgraph
