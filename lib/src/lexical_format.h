// The lexicon's header and BM25's idf, shared by the lexical index's reader
// (lexical.cc) and its builder (lexical_build.cc). Layout: doc/graph-format.md.
#pragma once

#include <cmath>
#include <cstdint>

namespace litgraph {

inline constexpr char kLexMagic[8] = {'L', 'G', 'L', 'E', 'X', 0, 0, 2};

struct LexHeader {
  char magic[8];
  uint64_t num_terms;
  uint64_t num_docs;  // documents indexed
  uint64_t id_space;  // max doc id + 1
  double scale;       // BM25 per impact unit
  double avgdl, k1, b;
  uint64_t strings_bytes;
  uint64_t reserved[3];
};
static_assert(sizeof(LexHeader) == 96);

inline double IdfOf(uint64_t n, uint32_t df) {
  return std::log(1.0 + (static_cast<double>(n) - df + 0.5) / (df + 0.5));
}

}  // namespace litgraph
