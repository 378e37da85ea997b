// ParallelChunks: a loop over [0, n) on a few threads, for the library's
// data-parallel steps (citation metrics, keyword extraction, phrase
// counting). Private to the library.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace litgraph {

// Worker threads for a `threads` option: itself when positive, else one per
// core.
inline int Workers(int threads) {
  if (threads > 0) return threads;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// Runs fn(begin, end, worker) over [0, n) in chunks handed out dynamically
// (hubs and long texts make per-item costs uneven, so static halves would
// leave a core idle), on `threads` threads, the caller's among them as
// worker 0. An exception stops the handing out and is rethrown on the
// caller's thread once every worker has stopped.
template <typename Fn>
void ParallelChunks(uint64_t n, int threads, uint64_t chunk, Fn&& fn) {
  threads = std::max(1, threads);
  std::atomic<uint64_t> next{0};
  std::mutex mu;
  std::exception_ptr failed;
  auto work = [&](int worker) {
    try {
      for (;;) {
        const uint64_t b = next.fetch_add(chunk);
        if (b >= n) return;
        fn(b, std::min(n, b + chunk), worker);
      }
    } catch (...) {
      next = n;
      std::lock_guard<std::mutex> l(mu);
      if (!failed) failed = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads && static_cast<uint64_t>(t) * chunk < n; ++t)
    pool.emplace_back(work, t);
  work(0);
  for (auto& t : pool) t.join();
  if (failed) std::rethrow_exception(failed);
}

}  // namespace litgraph
