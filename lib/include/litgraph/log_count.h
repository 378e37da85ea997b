// Logarithms of counts, for the hot loops that take them of small integers
// (a term's frequency in a text, a phrase's occurrences, a document
// frequency): below kLogTableSize they come from a table made once per
// process by the same calls, so the values are std::log's and std::log1p's
// own, bit for bit. On the hubs corpus (long multilingual abstracts) the
// keyword extractor's logarithms were 27% of its time
// (bench/results/2026-11-28-fresh-process).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

namespace litgraph {

inline constexpr uint32_t kLogTableSize = 4096;

namespace log_count_detail {
struct Tables {
  std::array<double, kLogTableSize> log, log1p;
  Tables() {
    for (uint32_t i = 0; i < kLogTableSize; ++i) {
      log[i] = std::log(static_cast<double>(i));
      log1p[i] = std::log1p(static_cast<double>(i));
    }
  }
};
inline const Tables& Get() {
  static const Tables t;
  return t;
}
}  // namespace log_count_detail

// std::log(n).
inline double LogOfCount(uint64_t n) {
  return n < kLogTableSize ? log_count_detail::Get().log[n] : std::log(static_cast<double>(n));
}
// std::log1p(n).
inline double Log1pOfCount(uint64_t n) {
  return n < kLogTableSize ? log_count_detail::Get().log1p[n] : std::log1p(static_cast<double>(n));
}

}  // namespace litgraph
