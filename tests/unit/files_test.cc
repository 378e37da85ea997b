// Tests for files.h: ZeroedArray, sparse (4 KiB pages) and dense (huge-page
// advice, 2 MiB-aligned), and FindSortedString.
#include "litgraph/files.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace litgraph {
namespace {

template <typename T>
void ExpectZeroedAndWritable(ZeroedArray<T>& a) {
  for (size_t i = 0; i < a.size(); i += 997) EXPECT_EQ(a[i], T{}) << i;
  EXPECT_EQ(a[a.size() - 1], T{});
  for (size_t i = 0; i < a.size(); i += 4096 / sizeof(T)) a[i] = static_cast<T>(i % 251 + 1);
  a[a.size() - 1] = T{7};
  for (size_t i = 0; i + 1 < a.size(); i += 4096 / sizeof(T))
    EXPECT_EQ(a[i], static_cast<T>(i % 251 + 1)) << i;
  EXPECT_EQ(a[a.size() - 1], T{7});
}

TEST(ZeroedArrayTest, SparseArraysAreZeroedAndWritable) {
  for (size_t n : {size_t{1}, size_t{1000}, size_t{3} << 20}) {
    ZeroedArray<float> a(n);
    EXPECT_EQ(a.size(), n);
    ExpectZeroedAndWritable(a);
  }
}

TEST(ZeroedArrayTest, DenseArraysAreHugePageAligned) {
  // 5 MiB of floats: more than two huge pages, not a multiple of one.
  const size_t n = (size_t{5} << 20) / sizeof(float) + 3;
  ZeroedArray<float> a(n, /*dense=*/true);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(&a[0]) % (size_t{2} << 20), 0u);
  ExpectZeroedAndWritable(a);
  // Below 2 MiB a dense array is an ordinary one.
  ZeroedArray<uint32_t> small(1000, /*dense=*/true);
  ExpectZeroedAndWritable(small);
  // Many in turn: each is unmapped whole (no leak of the alignment slack
  // would show here, but a bad munmap of the trimmed parts would crash).
  for (int i = 0; i < 50; ++i) {
    ZeroedArray<uint64_t> b((size_t{3} << 20) / 8 + i, true);
    b[b.size() - 1] = 1;
    EXPECT_EQ(b[0], 0u);
  }
}

TEST(ZeroedArrayTest, EmptyArray) {
  ZeroedArray<float> a(0);
  EXPECT_EQ(a.size(), 0u);
  ZeroedArray<float> b(0, true);
  EXPECT_EQ(b.size(), 0u);
}

TEST(FindSortedStringTest, FindsEveryStringAndNothingElse) {
  std::vector<std::string> words = {"alpha", "beta", "betamax", "delta", "gamma"};
  std::string strings;
  std::vector<uint64_t> offsets;
  for (const auto& w : words) {
    offsets.push_back(strings.size());
    strings += w;
  }
  offsets.push_back(strings.size());
  for (size_t i = 0; i < words.size(); ++i)
    EXPECT_EQ(FindSortedString(offsets.data(), strings.data(), words.size(), words[i]),
              static_cast<int64_t>(i));
  for (const char* miss : {"", "a", "alph", "alphaa", "bet", "betam", "zeta", "epsilon"})
    EXPECT_EQ(FindSortedString(offsets.data(), strings.data(), words.size(), miss), -1) << miss;
  EXPECT_EQ(FindSortedString(offsets.data(), strings.data(), 0, "alpha"), -1);
}

}  // namespace
}  // namespace litgraph
