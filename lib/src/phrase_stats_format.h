// The phrase statistics file's header, shared by its reader and in-memory
// writer (keywords.cc, PhraseStats) and its bounded-memory writer
// (phrase_count.cc, PhraseCounter). Layout: doc/store-format.md.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "litgraph/checked_file.h"
#include "litgraph/status.h"

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

// The header of an opened statistics file, checked against the file's size
// (Corruption naming `path` when they disagree).
inline Status ReadStatsHeader(const CheckedFile& file, const std::string& path, StatsHeader* h) {
  const uint8_t* hp = file.Read(0, sizeof *h);
  if (!hp) return Status::Corruption(path + ": truncated phrase statistics");
  std::memcpy(h, hp, sizeof *h);
  // count is checked by division: a corrupt count must not wrap the product.
  if (std::memcmp(h->magic, kStatsMagic, 8) != 0 || (file.size() - sizeof *h) % 12 != 0 ||
      h->count != (file.size() - sizeof *h) / 12)
    return Status::Corruption(path + ": corrupt phrase statistics");
  return Status::Ok();
}

}  // namespace litgraph
