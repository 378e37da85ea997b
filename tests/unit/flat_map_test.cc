// Tests for flat_map.h: U64Map against std::unordered_map.
#include "litgraph/flat_map.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_map>

namespace litgraph {
namespace {

TEST(U64MapTest, EmptyMapFindsNothing) {
  U64Map<int64_t> m;
  EXPECT_EQ(m.Find(1), nullptr);
  EXPECT_EQ(m.size(), 0u);
}

TEST(U64MapTest, InsertOverwriteAndDefaultValue) {
  U64Map<int64_t> m;
  EXPECT_EQ(m[42], 0);  // value-initialized when new
  m[42] = 7;
  m[43] = 8;
  m[42] = 9;
  ASSERT_NE(m.Find(42), nullptr);
  EXPECT_EQ(*m.Find(42), 9);
  EXPECT_EQ(*m.Find(43), 8);
  EXPECT_EQ(m.Find(44), nullptr);
  EXPECT_EQ(m.size(), 2u);
  m.clear();
  EXPECT_EQ(m.Find(42), nullptr);
  EXPECT_EQ(m.size(), 0u);
  m[42] = 1;
  EXPECT_EQ(*m.Find(42), 1);
}

// Random keys, and keys equal in their low 32 bits (the bits a weak hash
// would use), through many rehashes, with and without reserve.
TEST(U64MapTest, MatchesUnorderedMapThroughRehashes) {
  for (bool reserve : {false, true}) {
    std::mt19937_64 rng(reserve ? 7 : 11);
    U64Map<uint32_t> m;
    if (reserve) m.reserve(50000);
    std::unordered_map<uint64_t, uint32_t> ref;
    for (uint32_t i = 0; i < 50000; ++i) {
      uint64_t key = i % 3 == 0 ? (rng() | 1) : (static_cast<uint64_t>(i) << 32) | 5;
      m[key] = i;
      ref[key] = i;
      if (i % 7 == 0) {  // overwrite an earlier key
        m[key] = i + 1;
        ref[key] = i + 1;
      }
    }
    ASSERT_EQ(m.size(), ref.size());
    for (const auto& [k, v] : ref) {
      const uint32_t* got = m.Find(k);
      ASSERT_NE(got, nullptr) << k;
      EXPECT_EQ(*got, v) << k;
    }
    for (int i = 0; i < 1000; ++i) {
      uint64_t k = rng() | 2;
      if (!ref.count(k)) {
        EXPECT_EQ(m.Find(k), nullptr);
      }
    }
  }
}

}  // namespace
}  // namespace litgraph
