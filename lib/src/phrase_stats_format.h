// The phrase statistics file's header, shared by its reader and in-memory
// writer (keywords.cc, PhraseStats) and its bounded-memory writer
// (phrase_count.cc, PhraseCounter). Layout: doc/store-format.md.
#pragma once

#include <cstdint>

namespace litgraph {

inline constexpr char kStatsMagic[8] = {'L', 'G', 'P', 'H', 'R', 0, 0, 2};

// Followed by u64[count] keys, ascending, then u32[count] document
// frequencies, parallel.
struct StatsHeader {
  char magic[8];
  uint64_t num_docs;
  uint64_t count;
  uint64_t reserved;
};
static_assert(sizeof(StatsHeader) == 32);

}  // namespace litgraph
