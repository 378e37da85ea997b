// Tests for coding.h: LEB128 varints and packed external id lists.
#include "litgraph/coding.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>
#include <vector>

namespace litgraph {
namespace {

bool Decode(std::string_view s, uint64_t* v, size_t* used = nullptr) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(s.data());
  const uint8_t* begin = p;
  bool ok = GetVarint(&p, p + s.size(), v);
  if (used) *used = static_cast<size_t>(p - begin);
  return ok;
}

TEST(VarintTest, EdgeValuesRoundTripWithExpectedLengths) {
  struct Case {
    uint64_t v;
    size_t len;
  };
  const Case cases[] = {
      {0, 1},
      {1, 1},
      {127, 1},
      {128, 2},
      {16383, 2},
      {16384, 3},
      {(uint64_t{1} << 32) - 1, 5},
      {uint64_t{1} << 32, 5},
      {(uint64_t{1} << 63) - 1, 9},
      {uint64_t{1} << 63, 10},
      {std::numeric_limits<uint64_t>::max(), 10},
  };
  for (const Case& c : cases) {
    std::string s;
    PutVarint(c.v, &s);
    EXPECT_EQ(s.size(), c.len) << c.v;
    EXPECT_EQ(VarintLength(c.v), c.len) << c.v;
    uint64_t got = 12345;
    size_t used = 0;
    ASSERT_TRUE(Decode(s, &got, &used)) << c.v;
    EXPECT_EQ(got, c.v);
    EXPECT_EQ(used, s.size());
  }
}

TEST(VarintTest, KnownEncodings) {
  std::string s;
  PutVarint(0, &s);
  EXPECT_EQ(s, std::string(1, '\0'));
  s.clear();
  PutVarint(300, &s);
  EXPECT_EQ(s, "\xAC\x02");
  s.clear();
  PutVarint(std::numeric_limits<uint64_t>::max(), &s);
  EXPECT_EQ(s, std::string(9, '\xFF') + "\x01");
}

TEST(VarintTest, TruncatedInputReturnsFalse) {
  uint64_t v;
  EXPECT_FALSE(Decode("", &v));
  for (uint64_t x : {uint64_t{128}, uint64_t{1} << 32, std::numeric_limits<uint64_t>::max()}) {
    std::string s;
    PutVarint(x, &s);
    for (size_t n = 0; n < s.size(); ++n) {
      size_t used = 99;
      EXPECT_FALSE(Decode(s.substr(0, n), &v, &used)) << x << " cut at " << n;
      EXPECT_LE(used, n);  // never reads past the end
    }
  }
}

TEST(VarintTest, OverlongInputReturnsFalse) {
  uint64_t v;
  EXPECT_FALSE(Decode(std::string(11, '\x80') + "\x01", &v));
  EXPECT_FALSE(Decode(std::string(10, '\xFF'), &v));
}

TEST(VarintTest, SequencesDecodeInOrder) {
  std::mt19937_64 rng(42);
  std::vector<uint64_t> values;
  std::string s;
  for (int i = 0; i < 2000; ++i) {
    uint64_t x = rng() >> (rng() % 64);
    values.push_back(x);
    PutVarint(x, &s);
  }
  const uint8_t* p = reinterpret_cast<const uint8_t*>(s.data());
  const uint8_t* end = p + s.size();
  for (uint64_t want : values) {
    uint64_t got;
    ASSERT_TRUE(GetVarint(&p, end, &got));
    ASSERT_EQ(got, want);
  }
  EXPECT_EQ(p, end);
}

TEST(FixedTest, LittleEndianWidths) {
  std::string s;
  PutFixed32(0x01020304u, &s);
  PutFixed64(0x0102030405060708ull, &s);
  ASSERT_EQ(s.size(), 12u);
  EXPECT_EQ(s.substr(0, 4), "\x04\x03\x02\x01");
  EXPECT_EQ(s.substr(4), "\x08\x07\x06\x05\x04\x03\x02\x01");
}

TEST(WorkNumberTest, CanonicalAndInvalidIds) {
  EXPECT_EQ(WorkNumber("W2741809807"), 2741809807u);
  EXPECT_EQ(WorkNumber("W1"), 1u);
  EXPECT_EQ(WorkNumber("W"), 0u);
  EXPECT_EQ(WorkNumber("W0"), 0u);
  EXPECT_EQ(WorkNumber("w12"), 0u);
  EXPECT_EQ(WorkNumber("A12"), 0u);
  EXPECT_EQ(WorkNumber("W12a"), 0u);
  EXPECT_EQ(WorkNumber(""), 0u);
  EXPECT_EQ(WorkNumber("W123456789012345678901"), 0u);  // too long
}

TEST(ShortIdNumberTest, AnyCapitalLetterAndDigits) {
  EXPECT_EQ(ShortIdNumber("A5023888391"), 5023888391u);
  EXPECT_EQ(ShortIdNumber("W2741809807"), 2741809807u);
  EXPECT_EQ(ShortIdNumber("I27837315"), 27837315u);
  EXPECT_EQ(ShortIdNumber("a12"), 0u);
  EXPECT_EQ(ShortIdNumber("A"), 0u);
  EXPECT_EQ(ShortIdNumber("A12x"), 0u);
  EXPECT_EQ(ShortIdNumber("name:smith"), 0u);
  EXPECT_EQ(ShortIdNumber("A9999999999999999999"), 9999999999999999999u);  // 19 digits
  EXPECT_EQ(ShortIdNumber("A12345678901234567890"), 0u);                   // 20: too long
}

std::vector<std::string> RoundTrip(const std::vector<std::string>& ids) {
  std::vector<std::string> out = {"junk"};
  EXPECT_TRUE(UnpackIdList(PackIdList(ids), &out));
  return out;
}

TEST(IdListTest, RoundTripsWorkNativeAndOddIds) {
  const std::vector<std::string> ids = {"W2741809807", "W1",          "W007",           "W0",
                                        "W",           "A00-1001",    "J82-3002",       "",
                                        "w123",        "10.1234/abc", "name:hajic jan", "Hajič",
                                        "W4385245566", "W1"};
  EXPECT_EQ(RoundTrip(ids), ids);
  EXPECT_EQ(RoundTrip({}), std::vector<std::string>{});
  EXPECT_EQ(PackIdList({}), "");
}

TEST(IdListTest, CanonicalWorkIdsPackAsNumbersOthersAsStrings) {
  // "W2741809807" packs as varint(n << 1); "W007" stays a 4-byte string.
  std::string w = PackIdList({"W2741809807"});
  EXPECT_EQ(w.size(), VarintLength(uint64_t{2741809807} << 1));
  std::string nc = PackIdList({"W007"});
  EXPECT_EQ(nc, std::string("\x09W007"));  // (4 << 1) | 1 = 9
  std::vector<PackedId> seen;
  std::vector<std::string> texts;
  ASSERT_TRUE(ForEachPackedId(PackIdList({"W5", "W007", "X1"}), [&](const PackedId& p) {
    seen.push_back(p);
    texts.emplace_back(p.text);
  }));
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_TRUE(seen[0].is_work_number);
  EXPECT_EQ(seen[0].work_number, 5u);
  EXPECT_FALSE(seen[1].is_work_number);
  EXPECT_EQ(texts[1], "W007");
  EXPECT_FALSE(seen[2].is_work_number);
  EXPECT_EQ(texts[2], "X1");
}

TEST(IdListTest, RandomListsRoundTrip) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::string> ids;
    int n = static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      switch (rng() % 4) {
        case 0:
          ids.push_back("W" + std::to_string(1 + rng() % 5000000000ull));
          break;
        case 1:
          ids.push_back("W0" + std::to_string(rng() % 1000));
          break;
        case 2:
          ids.push_back("P" + std::to_string(rng() % 100) + "-" + std::to_string(rng() % 9));
          break;
        default: {
          std::string s(rng() % 300, 'x');  // long strings need multi-byte lengths
          for (char& c : s) c = static_cast<char>(rng() % 256);
          ids.push_back(s);
        }
      }
    }
    ASSERT_EQ(RoundTrip(ids), ids) << "round " << round;
  }
}

TEST(IdListTest, CorruptBlobsAreRejected) {
  std::vector<std::string> out;
  // String entry claiming 5 bytes with 2 present.
  EXPECT_FALSE(UnpackIdList(std::string("\x0B") + "ab", &out));
  // Truncated varint.
  EXPECT_FALSE(UnpackIdList("\x80", &out));
  // A valid entry followed by a truncated one.
  std::string blob = PackIdList({"W12", "abc"});
  EXPECT_FALSE(UnpackIdList(blob.substr(0, blob.size() - 1), &out));
  // Huge length that would overflow a pointer addition.
  std::string huge;
  PutVarint((uint64_t{1} << 62) | 1, &huge);
  EXPECT_FALSE(UnpackIdList(huge + "abc", &out));
  // Every prefix of a valid blob either decodes to a prefix of the list or fails.
  std::vector<std::string> ids = {"W2741809807", "A00-1001", "W3"};
  std::string full = PackIdList(ids);
  for (size_t n = 0; n <= full.size(); ++n) {
    std::vector<std::string> got;
    if (UnpackIdList(full.substr(0, n), &got)) {
      ASSERT_LE(got.size(), ids.size());
      for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], ids[i]);
    }
  }
}

// Work numbers are packed as varint(n << 1), which drops the top bit of n.
// WorkNumber accepts up to 19 digits, i.e. values up to 9999999999999999999 >
// 2^63, so such an id does not round-trip.
TEST(IdListTest, HugeWorkNumbersRoundTrip) {
  const std::vector<std::string> ids = {"W9223372036854775808", "W9999999999999999999"};
  EXPECT_EQ(RoundTrip(ids), ids);
}

}  // namespace
}  // namespace litgraph
