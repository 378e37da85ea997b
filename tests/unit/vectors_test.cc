// Tests for vectors.h: VectorFile round trips (absent rows, the present
// count), corrupt and truncated files, BuildHnsw + HnswIndex recall against
// the exact BruteForceSearch on random unit vectors, result order and ids,
// extending an index built over earlier rows (embed --missing), indexes
// over empty vector files, a base with a delta, and segments (a merge's
// shard indexes, relabelled). Real files in a fresh temporary directory.
#include "litgraph/vectors.h"

#include <gtest/gtest.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "litgraph/embed.h"
#include "test_util.h"

namespace litgraph {
namespace {

using litgraph::testing::Payload;
using litgraph::testing::ReadFile;
using litgraph::testing::ScopedTempDir;
using litgraph::testing::TestId;
using litgraph::testing::TestStore;
using litgraph::testing::WriteFile;

// rows x dim random unit vectors (row 0 and every `hole`-th row left zero).
std::vector<float> RandomUnitRows(uint64_t rows, int dim, uint64_t seed, uint64_t hole = 0) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> g(0, 1);
  std::vector<float> data(rows * dim, 0.0f);
  for (uint64_t r = 1; r < rows; ++r) {
    if (hole && r % hole == 0) continue;
    float* v = data.data() + r * dim;
    for (int i = 0; i < dim; ++i) v[i] = g(rng);
    Normalize(v, dim);
  }
  return data;
}

std::vector<float> RandomQuery(int dim, std::mt19937_64& rng) {
  std::normal_distribution<float> g(0, 1);
  std::vector<float> q(dim);
  for (float& x : q) x = g(rng);
  Normalize(q.data(), dim);
  return q;
}

// ---- VectorFile ---------------------------------------------------------------

TEST(VectorFileTest, RoundTrip) {
  ScopedTempDir tmp;
  const int dim = 5;
  const uint64_t rows = 7;
  std::vector<float> data(rows * dim, 0.0f);
  for (uint64_t r : {1, 2, 4, 6})
    for (int i = 0; i < dim; ++i) data[r * dim + i] = static_cast<float>(r * 10 + i) - 20.5f;
  data[3 * dim + 2] = -0.0f;  // negative zero is still "no vector"
  const std::string path = tmp.File("title.vec");
  ASSERT_TRUE(VectorFile::Write(path, TestId(path), dim, rows, data.data()).ok());
  EXPECT_EQ(Payload(path).size(), 512 + rows * dim * sizeof(float));  // rows from byte 512
  VectorFile f;
  Status st = f.Open(path, TestId(path));
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(f.dim(), dim);
  EXPECT_EQ(f.rows(), rows);
  EXPECT_EQ(f.present(), 4u);
  for (uint64_t r = 0; r < rows; ++r) {
    bool present = r == 1 || r == 2 || r == 4 || r == 6;
    const float* v = f.Row(r);
    if (!present) {
      EXPECT_EQ(v, nullptr) << r;
      continue;
    }
    ASSERT_NE(v, nullptr) << r;
    for (int i = 0; i < dim; ++i) EXPECT_EQ(v[i], data[r * dim + i]) << r << "," << i;
  }
  EXPECT_EQ(f.Row(rows), nullptr) << "out of range";
  EXPECT_EQ(f.Row(1ull << 40), nullptr);
}

TEST(VectorFileTest, RewriteReplacesAtomically) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("v.vec");
  std::vector<float> a = RandomUnitRows(10, 4, 1), b = RandomUnitRows(3, 4, 2);
  ASSERT_TRUE(VectorFile::Write(path, TestId(path), 4, 10, a.data()).ok());
  ASSERT_TRUE(VectorFile::Write(path, TestId(path), 4, 3, b.data()).ok());
  VectorFile f;
  ASSERT_TRUE(f.Open(path, TestId(path)).ok());
  EXPECT_EQ(f.rows(), 3u);
  EXPECT_EQ(f.present(), 2u);
  EXPECT_EQ(f.Row(2)[3], b[2 * 4 + 3]);
  for (const auto& e : std::filesystem::directory_iterator(tmp.path()))
    EXPECT_EQ(e.path().filename(), "v.vec") << "temporary file left behind";
}

TEST(VectorFileTest, EmptyFile) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("empty.vec");
  ASSERT_TRUE(VectorFile::Write(path, TestId(path), 8, 0, nullptr).ok());
  VectorFile f;
  ASSERT_TRUE(f.Open(path, TestId(path)).ok());
  EXPECT_EQ(f.rows(), 0u);
  EXPECT_EQ(f.present(), 0u);
  EXPECT_EQ(f.Row(0), nullptr);
  std::vector<float> q(8, 0.5f);
  EXPECT_TRUE(BruteForceSearch(f, q.data(), 10).empty());
}

TEST(VectorFileTest, CorruptAndTruncatedFilesFail) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("good.vec");
  const FileIdentity id = TestId(path);
  std::vector<float> data = RandomUnitRows(400, 6, 3);  // 10,112 bytes: 20 pages
  ASSERT_TRUE(VectorFile::Write(path, id, 6, 400, data.data()).ok());
  const std::string good = ReadFile(path), payload = Payload(path);
  struct Case {
    const char* name;
    std::string bytes;
    bool rewrap;  // a valid checked file around a bad payload
  };
  std::string bad_magic = payload;
  bad_magic[0] = 'X';
  std::string zero_dim = payload;
  zero_dim[8] = zero_dim[9] = zero_dim[10] = zero_dim[11] = 0;
  std::string more_rows = payload;
  more_rows[16] = static_cast<char>(more_rows[16] + 1);
  std::string flipped = good;
  flipped[100] ^= 4;
  std::vector<Case> cases = {{"truncated_data", good.substr(0, good.size() - 4), false},
                             {"truncated_header", good.substr(0, 40), false},
                             {"empty", "", false},
                             {"extra_bytes", good + "xxxx", false},
                             {"flipped_header", flipped, false},
                             {"bad_magic", bad_magic, true},
                             {"zero_dim", zero_dim, true},
                             {"rows_mismatch", more_rows, true},
                             {"payload_truncated", payload.substr(0, payload.size() - 4), true}};
  for (const Case& c : cases) {
    const std::string p = tmp.File(std::string(c.name) + ".vec");
    if (c.rewrap)
      ASSERT_TRUE(WriteCheckedFile(p, id, c.bytes).ok());
    else
      WriteFile(p, c.bytes);
    VectorFile f;
    Status st = f.Open(p, id);
    EXPECT_FALSE(st.ok()) << c.name;
    EXPECT_EQ(st.code(), Code::kCorruption) << c.name;
  }
  // A flipped byte in a row of another page: Open succeeds (O(1)), reading
  // the row fails and names the file; rows of intact pages still read.
  {
    std::string bad = good;
    bad[512 + 300 * 6 * 4 + 5] ^= 1;
    const std::string p = tmp.File("row.vec");
    WriteFile(p, bad);
    VectorFile f;
    ASSERT_TRUE(f.Open(p, id).ok());
    EXPECT_NE(f.Row(7), nullptr);
    EXPECT_TRUE(f.status().ok());
    EXPECT_EQ(f.Row(300), nullptr);
    EXPECT_EQ(f.status().code(), Code::kCorruption);
    EXPECT_NE(f.status().message().find("row.vec"), std::string::npos);
  }
  // Another store's or another field's file.
  FileIdentity other = id;
  other.name = "abstract.vec";
  VectorFile f;
  EXPECT_EQ(f.Open(path, other).code(), Code::kCorruption);
  VectorFile missing;
  EXPECT_FALSE(missing.Open(tmp.File("missing.vec"), id).ok());
}

// ---- BruteForceSearch ----------------------------------------------------------------

TEST(BruteForceSearchTest, ExactTopKInOrder) {
  ScopedTempDir tmp;
  const int dim = 3;
  // Row r points at angle r x 10 degrees in the x-y plane; rows 0 and 4 empty.
  std::vector<float> data(10 * dim, 0.0f);
  for (int r = 1; r < 10; ++r) {
    if (r == 4) continue;
    data[r * dim] = std::cos(r * 10 * M_PI / 180);
    data[r * dim + 1] = std::sin(r * 10 * M_PI / 180);
  }
  const std::string path = tmp.File("v.vec");
  ASSERT_TRUE(VectorFile::Write(path, TestId(path), dim, 10, data.data()).ok());
  VectorFile f;
  ASSERT_TRUE(f.Open(path, TestId(path)).ok());
  float q[3] = {static_cast<float>(std::cos(50 * M_PI / 180)),
                static_cast<float>(std::sin(50 * M_PI / 180)), 0};
  std::vector<VectorHit> hits = BruteForceSearch(f, q, 4);
  ASSERT_EQ(hits.size(), 4u);
  EXPECT_EQ(hits[0].id, 5u);
  EXPECT_NEAR(hits[0].score, 1.0f, 1e-6);
  // Then 6 (10 degrees; 4 is absent), then 3 and 7 (20 degrees either side).
  EXPECT_EQ(hits[1].id, 6u);
  EXPECT_EQ((std::set<uint32_t>{hits[2].id, hits[3].id}), (std::set<uint32_t>{3, 7}));
  EXPECT_GE(hits[1].score, hits[2].score);
  EXPECT_GE(hits[2].score, hits[3].score);
  EXPECT_EQ(BruteForceSearch(f, q, 100).size(), 8u) << "every present row";
  EXPECT_TRUE(BruteForceSearch(f, q, 0).empty());
}

// ---- HNSW ---------------------------------------------------------------------------------

struct Indexed {
  VectorFile vec;
  HnswIndex index;
  const GenerationView* view = nullptr;
};

// Writes <name>.vec and builds <name>.hnsw(lib) in a new generation of the
// store's vectors, extending the index of `base` when given.
void BuildIndex(TestStore* store, const std::string& name, const std::vector<float>& data,
                uint64_t rows, int dim, Indexed* out, const GenerationView* base = nullptr,
                const std::vector<uint64_t>& changed = {}, bool relink_neighbours = false,
                int ef_construction = 200, bool half = true) {
  GenerationBuilder* b = store->Start("vectors");
  ASSERT_TRUE(VectorFile::Write(b, name + ".vec", dim, rows, data.data()).ok());
  VectorFile vec;
  Status st = vec.Open(b->Path(name + ".vec"), *b->Identity(name + ".vec"));
  ASSERT_TRUE(st.ok()) << st.message();
  HnswBuildOptions o;
  o.threads = 1;
  o.relink_neighbours = relink_neighbours;
  o.ef_construction = ef_construction;
  o.half = half;
  st = BuildHnsw(vec, b, name, o, base, changed);
  ASSERT_TRUE(st.ok()) << st.message();
  out->view = store->Commit();
  EXPECT_TRUE(out->view->Has(name + ".hnsw"));
  EXPECT_TRUE(out->view->Has(name + ".hnswlib"));
  ASSERT_TRUE(out->vec.Open(*out->view, name + ".vec").ok());
  st = out->index.Open(*out->view, name + ".hnsw", &out->vec);
  ASSERT_TRUE(st.ok()) << st.message();
}

double RecallAt10(const Indexed& x, int dim, int queries, size_t ef, uint64_t seed) {
  std::mt19937_64 rng(seed);
  size_t found = 0, wanted = 0;
  for (int i = 0; i < queries; ++i) {
    std::vector<float> q = RandomQuery(dim, rng);
    std::vector<VectorHit> exact = BruteForceSearch(x.vec, q.data(), 10);
    std::vector<VectorHit> approx = x.index.Search(q.data(), 10, ef);
    std::set<uint32_t> a;
    for (const auto& h : approx) a.insert(h.id);
    for (const auto& h : exact) found += a.count(h.id);
    wanted += exact.size();
  }
  return static_cast<double>(found) / wanted;
}

TEST(HnswTest, RecallAndResultShape) {
  ScopedTempDir tmp;
  TestStore store(tmp.File("s"));
  const int dim = 32;
  const uint64_t rows = 2001;  // ids 1..2000
  std::vector<float> data = RandomUnitRows(rows, dim, 42);
  Indexed x;
  BuildIndex(&store, "title", data, rows, dim, &x);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(x.vec.present(), 2000u);
  EXPECT_EQ(x.index.nodes(), 2000u);
  double recall = RecallAt10(x, dim, 200, 64, 7);
  EXPECT_GE(recall, 0.95) << "recall@10 at ef 64";
  // Shape: k results, sorted by score, valid present ids, scores are the dot products.
  std::mt19937_64 rng(9);
  for (int i = 0; i < 50; ++i) {
    std::vector<float> q = RandomQuery(dim, rng);
    std::vector<VectorHit> hits = x.index.Search(q.data(), 10, 64);
    ASSERT_EQ(hits.size(), 10u);
    std::set<uint32_t> ids;
    for (size_t k = 0; k < hits.size(); ++k) {
      ASSERT_GE(hits[k].id, 1u);
      ASSERT_LT(hits[k].id, rows);
      const float* v = x.vec.Row(hits[k].id);
      ASSERT_NE(v, nullptr);
      EXPECT_NEAR(hits[k].score, Dot(q.data(), v, dim), 1e-5);
      EXPECT_TRUE(ids.insert(hits[k].id).second) << "duplicate id";
      if (k > 0) {
        EXPECT_GE(hits[k - 1].score, hits[k].score);
      }
    }
  }
  // A stored vector finds itself first.
  for (uint32_t id : {1u, 777u, 2000u}) {
    std::vector<VectorHit> hits = x.index.Search(x.vec.Row(id), 1, 64);
    ASSERT_EQ(hits.size(), 1u);
    EXPECT_EQ(hits[0].id, id);
    EXPECT_NEAR(hits[0].score, 1.0f, 1e-5);
  }
  // k larger than ef is served (ef is raised to k); k = 0 gives nothing.
  std::vector<float> q = RandomQuery(dim, rng);
  EXPECT_EQ(x.index.Search(q.data(), 100, 10).size(), 100u);
  EXPECT_TRUE(x.index.Search(q.data(), 0, 64).empty());
}

#if defined(__x86_64__)
__attribute__((target("f16c"))) uint16_t HardwareHalf(float f) {
  return static_cast<uint16_t>(_mm_extract_epi16(_mm_cvtps_ph(_mm_set_ss(f), 0), 0));
}
__attribute__((target("f16c"))) float HardwareFloat(uint16_t h) {
  return _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(h)));
}
#endif

// hnswlib builds over half rows, each value rounded to nearest even. The
// conversion is integer arithmetic, the same bytes on every CPU: it agrees
// with F16C's VCVTPS2PH (where the CPU has it) on every class of float
// (normals, subnormals of both, ties, overflow, inf, NaN), and every half
// converts back exactly.
TEST(HalfRowTest, TheConversionRoundsToNearestEvenLikeF16C) {
  auto bits = [](float f) {
    uint32_t x = 0;
    std::memcpy(&x, &f, 4);
    return x;
  };
  auto from_bits = [](uint32_t x) {
    float f = 0;
    std::memcpy(&f, &x, 4);
    return f;
  };
  // Known values: exact, ties to even both ways, the largest half and past
  // it, the smallest subnormal and half of it (a tie to 0).
  EXPECT_EQ(FloatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(FloatToHalf(1.0f + 0x1p-11f), 0x3c00);      // tie, 0x3c00 even
  EXPECT_EQ(FloatToHalf(1.0f + 3 * 0x1p-11f), 0x3c02);  // tie, up to even
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToHalf(65519.99f), 0x7bff);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7c00);
  EXPECT_EQ(FloatToHalf(0x1p-24f), 0x0001);
  EXPECT_EQ(FloatToHalf(0x1p-25f), 0x0000);
  EXPECT_EQ(FloatToHalf(3 * 0x1p-25f), 0x0002);
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(FloatToHalf(from_bits(0x7f800000u)), 0x7c00);
  EXPECT_EQ(FloatToHalf(from_bits(0x7fc00000u)) & 0x7e00, 0x7e00);
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const auto x = static_cast<uint16_t>(h);
    if ((x & 0x7c00) == 0x7c00 && (x & 0x3ff)) continue;  // NaN
    EXPECT_EQ(FloatToHalf(HalfToFloat(x)), x) << h;
  }
  EXPECT_EQ(HalfToFloat(0x0001), 0x1p-24f);
  EXPECT_EQ(HalfToFloat(0x3555), 0.333251953125f);
#if defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;  // clang 14 has no "f16c" for __builtin_cpu_supports
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & bit_F16C))
    GTEST_SKIP() << "no F16C to compare with";
  std::mt19937 rng(5);
  for (int i = 0; i < 2000000; ++i) {
    // Every exponent alike: random bits, half of them in the half's range.
    uint32_t x = static_cast<uint32_t>(rng());
    if (i % 2) x = (x & 0x80ffffffu) | ((100u + rng() % 45u) << 23);
    const float f = from_bits(x);
    ASSERT_EQ(FloatToHalf(f), HardwareHalf(f)) << std::hex << x;
  }
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const auto x = static_cast<uint16_t>(h);
    const float a = HalfToFloat(x), b = HardwareFloat(x);
    ASSERT_TRUE(bits(a) == bits(b) || (std::isnan(a) && std::isnan(b))) << h;
  }
#endif
}

// Their distance is 1 - <a, b> over the half values summed in float, the
// same whichever kernel the CPU runs up to the order of the sum (tails past
// a multiple of 16 and of 8 included), and close to the float rows'.
TEST(HalfRowTest, TheDistanceIsTheDotProductOfTheHalfValues) {
  std::mt19937_64 rng(17);
  for (int dim : {1, 7, 8, 15, 16, 20, 100, 128, 300}) {
    for (int t = 0; t < 20; ++t) {
      std::vector<float> a = RandomQuery(dim, rng), b = RandomQuery(dim, rng);
      std::vector<uint16_t> ha(HalfRowBytes(dim) / 2), hb(HalfRowBytes(dim) / 2);
      HalfRow(a.data(), dim, ha.data());
      HalfRow(b.data(), dim, hb.data());
      double sum = 0;
      for (int i = 0; i < dim; ++i) {
        EXPECT_NEAR(HalfToFloat(ha[i]), a[i], std::fabs(a[i]) * 0x1p-11 + 0x1p-25) << dim;
        sum += static_cast<double>(HalfToFloat(ha[i])) * HalfToFloat(hb[i]);
      }
      const size_t d = static_cast<size_t>(dim);
      EXPECT_NEAR(HalfDistance(ha.data(), hb.data(), &d), 1.0 - sum, 1e-5) << dim;
      EXPECT_NEAR(HalfDistance(ha.data(), hb.data(), &d), 1.0f - Dot(a.data(), b.data(), dim), 2e-3)
          << dim;
    }
  }
}

// The bytes of an element of a generation's <name>.hnswlib: its saved
// label_offset less its offsetData (hnswalg.h saveIndex, size_t 5 and 6).
uint64_t HnswLibElementBytes(const GenerationView& g, const std::string& name) {
  const std::string bytes = Payload(g.Path(name + ".hnswlib"));
  uint64_t words[6] = {};
  if (bytes.size() >= sizeof words) std::memcpy(words, bytes.data(), sizeof words);
  return words[4] - words[5];
}

// A new index is built over half rows, and its generation says manifest
// format 4, which readers from before refuse (they would extend it as float
// rows); a generation inheriting it says so too. An index saved over float
// rows (by a build from before) is extended over float rows and its
// generation stays at format 2. Both find their rows.
TEST(HnswTest, AnIndexIsExtendedOverTheRowsItWasBuiltOver) {
  ScopedTempDir tmp;
  const int dim = 32;
  const uint64_t rows = 2001;
  std::vector<float> all = RandomUnitRows(rows, dim, 78);
  std::vector<float> first(all.begin(), all.begin() + 1501 * dim);
  for (bool half : {false, true}) {
    TestStore store(tmp.File(half ? "half" : "float"));
    Indexed a, b;
    BuildIndex(&store, "title", first, 1501, dim, &a, nullptr, {}, false, 200, half);
    ASSERT_FALSE(HasFatalFailure());
    const uint64_t element = half ? HalfRowBytes(dim) : dim * sizeof(float);
    const int format = half ? kDerivedFormatHalfGraphs : kDerivedFormat;
    EXPECT_EQ(HnswLibElementBytes(*a.view, "title"), element);
    EXPECT_EQ(a.view->format(), format);
    BuildIndex(&store, "title", all, rows, dim, &b, a.view);  // half by default
    ASSERT_FALSE(HasFatalFailure());
    EXPECT_EQ(HnswLibElementBytes(*b.view, "title"), element) << "the base's rows kept";
    EXPECT_EQ(b.view->format(), format);
    EXPECT_EQ(b.index.nodes(), 2000u);
    EXPECT_GE(RecallAt10(b, dim, 200, 64, 5), 0.95) << half;
    size_t self = 0;
    for (uint32_t id = 1; id <= 2000; ++id) {
      std::vector<VectorHit> hits = b.index.Search(b.vec.Row(id), 1, 64);
      self += !hits.empty() && hits[0].id == id;
    }
    EXPECT_GE(self, 1990u) << half;
    // Carried over unchanged, the index keeps its generation's format.
    GenerationBuilder* c = store.Start("vectors");
    for (const char* f : {"title.vec", "title.hnsw", "title.hnswlib"})
      ASSERT_TRUE(c->Inherit(*b.view, f).ok());
    EXPECT_EQ(store.Commit()->format(), format);
  }
}

TEST(HnswTest, AbsentRowsAreNotIndexed) {
  ScopedTempDir tmp;
  const int dim = 16;
  const uint64_t rows = 600;
  std::vector<float> data = RandomUnitRows(rows, dim, 5, /*hole=*/3);
  TestStore store(tmp.File("s"));
  Indexed x;
  BuildIndex(&store, "abstract", data, rows, dim, &x);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(x.index.nodes(), x.vec.present());
  std::mt19937_64 rng(3);
  for (int i = 0; i < 30; ++i) {
    std::vector<float> q = RandomQuery(dim, rng);
    for (const VectorHit& h : x.index.Search(q.data(), 20, 64)) {
      EXPECT_NE(h.id % 3, 0u) << "absent row returned";
      EXPECT_NE(h.id, 0u);
    }
  }
  EXPECT_GE(RecallAt10(x, dim, 100, 64, 11), 0.95);
}

TEST(HnswTest, ExtendingAnIndexFindsTheNewRows) {
  ScopedTempDir tmp;
  const int dim = 32;
  const uint64_t rows = 2001;
  std::vector<float> all = RandomUnitRows(rows, dim, 77);
  // First build: rows 1..1500 present (the later rows not yet embedded).
  std::vector<float> first(all.begin(), all.begin() + 1501 * dim);
  TestStore store(tmp.File("s"));
  Indexed a;
  BuildIndex(&store, "title", first, 1501, dim, &a);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(a.index.nodes(), 1500u);
  // Second build over all 2,000 rows, starting from the first hnswlib index.
  Indexed b;
  BuildIndex(&store, "title", all, rows, dim, &b, a.view);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(b.index.nodes(), 2000u) << "each row once";
  // Every new row finds itself.
  size_t self = 0;
  for (uint32_t id = 1501; id <= 2000; ++id) {
    std::vector<VectorHit> hits = b.index.Search(b.vec.Row(id), 1, 64);
    self += !hits.empty() && hits[0].id == id;
  }
  EXPECT_GE(self, 495u);
  // Queries near new rows return them; overall recall holds.
  EXPECT_GE(RecallAt10(b, dim, 200, 64, 5), 0.95);
  std::mt19937_64 rng(1);
  size_t new_hits = 0;
  for (int i = 0; i < 100; ++i) {
    std::vector<float> q = RandomQuery(dim, rng);
    for (const VectorHit& h : b.index.Search(q.data(), 10, 64)) new_hits += h.id > 1500;
  }
  EXPECT_GT(new_hits, 100u) << "a quarter of the rows are new: they must show up";
  // The old index is unchanged by the extension.
  EXPECT_EQ(a.index.nodes(), 1500u);
}

// An extension links the rows it inserts with its own beam (embed
// --ef-construction), not the one the index was first built with, which
// hnswlib saves with the index.
TEST(HnswTest, AnExtensionLinksWithItsOwnBeam) {
  ScopedTempDir tmp;
  const int dim = 16;
  std::vector<float> all = RandomUnitRows(801, dim, 78);
  std::vector<float> first(all.begin(), all.begin() + 601 * dim);
  TestStore store(tmp.File("s"));
  Indexed a, b;
  BuildIndex(&store, "title", first, 601, dim, &a);
  ASSERT_FALSE(HasFatalFailure());
  BuildIndex(&store, "title", all, 801, dim, &b, a.view, {}, false, 40);
  ASSERT_FALSE(HasFatalFailure());
  // hnswlib's saved header: ef_construction_ is the size_t at byte 88.
  auto saved_ef = [](const GenerationView* g) {
    const std::string bytes = Payload(g->Path("title.hnswlib"));
    uint64_t ef = 0;
    if (bytes.size() >= 96) std::memcpy(&ef, bytes.data() + 88, 8);
    return ef;
  };
  EXPECT_EQ(saved_ef(a.view), 200u);
  EXPECT_EQ(saved_ef(b.view), 40u);
  EXPECT_EQ(b.index.nodes(), 800u);
}

// Rows whose vectors changed (a paper's abstract rewritten) are re-linked in
// place by an extension: each finds itself at its new position, once, whether
// the node alone moves (the default) or its old neighbours' lists are rebuilt
// too (hnswlib's own update), and with the same recall.
TEST(HnswTest, ExtendingAnIndexRelinksChangedRows) {
  ScopedTempDir tmp;
  const int dim = 32;
  const uint64_t rows = 2001;
  std::vector<float> data = RandomUnitRows(rows, dim, 78);
  TestStore store(tmp.File("s"));
  Indexed a;
  BuildIndex(&store, "title", data, rows, dim, &a);
  ASSERT_FALSE(HasFatalFailure());
  std::vector<float> moved = RandomUnitRows(rows, dim, 79);
  std::vector<uint64_t> changed;
  for (uint64_t id = 10; id < rows; id += 20) {
    std::copy(moved.begin() + id * dim, moved.begin() + (id + 1) * dim, data.begin() + id * dim);
    changed.push_back(id);
  }
  auto self_hits = [&](const Indexed& x) {
    size_t n = 0;
    for (uint64_t id : changed) {
      std::vector<VectorHit> hits = x.index.Search(x.vec.Row(id), 1, 64);
      n += !hits.empty() && hits[0].id == id;
    }
    return n;
  };
  Indexed stale, relinked, neighbours;
  BuildIndex(&store, "title", data, rows, dim, &stale, a.view);
  ASSERT_FALSE(HasFatalFailure());
  BuildIndex(&store, "title", data, rows, dim, &relinked, a.view, changed);
  ASSERT_FALSE(HasFatalFailure());
  BuildIndex(&store, "title", data, rows, dim, &neighbours, a.view, changed, true);
  ASSERT_FALSE(HasFatalFailure());
  for (const Indexed* x : {&relinked, &neighbours}) {
    EXPECT_EQ(x->index.nodes(), 2000u) << "each row once";
    EXPECT_GE(self_hits(*x), changed.size() * 98 / 100);
    EXPECT_LT(self_hits(stale), self_hits(*x)) << "without re-linking the graph is stale";
    EXPECT_GE(RecallAt10(*x, dim, 200, 64, 6), 0.95);
  }
  // Queries near the moved rows (a moved row's vector plus noise) find their
  // neighbours as well either way.
  std::mt19937_64 rng(12);
  size_t found[2] = {0, 0}, wanted = 0;
  for (size_t i = 0; i < changed.size(); i += 2) {
    std::vector<float> q = RandomQuery(dim, rng);
    const float* v = relinked.vec.Row(changed[i]);
    for (int d = 0; d < dim; ++d) q[d] = q[d] + 2 * v[d];
    std::vector<VectorHit> exact = BruteForceSearch(relinked.vec, q.data(), 10);
    wanted += exact.size();
    for (int m = 0; m < 2; ++m) {
      std::set<uint32_t> got;
      for (const auto& h : (m ? neighbours : relinked).index.Search(q.data(), 10, 64))
        got.insert(h.id);
      for (const auto& h : exact) found[m] += got.count(h.id);
    }
  }
  EXPECT_GE(static_cast<double>(found[0]) / wanted, 0.95);
  EXPECT_GE(found[0] + wanted / 50, found[1]) << "moving the node alone loses recall";
}

// Rows whose vector went (a changed text with no word the model knows) stay
// in an extended index as waypoints: a search passes through them and never
// returns them, even when queried with their old vectors.
TEST(HnswTest, RowsWhoseVectorWentAreNeverReturned) {
  ScopedTempDir tmp;
  const int dim = 16;
  const uint64_t rows = 1001;
  std::vector<float> data = RandomUnitRows(rows, dim, 81);
  TestStore store(tmp.File("s"));
  Indexed a;
  BuildIndex(&store, "title", data, rows, dim, &a);
  ASSERT_FALSE(HasFatalFailure());
  std::vector<uint64_t> gone;
  std::vector<std::vector<float>> old;
  for (uint64_t id = 7; id < rows; id += 50) {
    old.emplace_back(data.begin() + id * dim, data.begin() + (id + 1) * dim);
    std::fill(data.begin() + id * dim, data.begin() + (id + 1) * dim, 0.0f);
    gone.push_back(id);
  }
  Indexed b;
  BuildIndex(&store, "title", data, rows, dim, &b, a.view, gone);
  ASSERT_FALSE(HasFatalFailure());
  const std::set<uint64_t> went(gone.begin(), gone.end());
  for (const auto& q : old) {  // every node within reach of the beam
    const std::vector<VectorHit> hits = b.index.Search(q.data(), rows, rows);
    EXPECT_GT(hits.size(), 900u);
    for (const VectorHit& h : hits) EXPECT_EQ(went.count(h.id), 0u) << h.id << " has no vector";
  }
  EXPECT_GE(RecallAt10(b, dim, 100, 64, 3), 0.95);
}

TEST(HnswTest, MissingBaseIndexBuildsFromScratch) {
  ScopedTempDir tmp;
  std::vector<float> data = RandomUnitRows(300, 8, 4);
  TestStore store(tmp.File("s"));
  Indexed other;  // a generation without v.hnswlib
  BuildIndex(&store, "w", data, 300, 8, &other);
  ASSERT_FALSE(HasFatalFailure());
  Indexed x;
  BuildIndex(&store, "v", data, 300, 8, &x, other.view);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(x.index.nodes(), 299u);
}

TEST(HnswTest, EmptyVectorFileGivesAnEmptyIndex) {
  ScopedTempDir tmp;
  std::vector<float> zeros(10 * 8, 0.0f);  // rows but none present
  TestStore store(tmp.File("s"));
  Indexed x;
  BuildIndex(&store, "zeros", zeros, 10, 8, &x);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(x.index.nodes(), 0u);
  std::vector<float> q(8, 0.35f);
  EXPECT_TRUE(x.index.Search(q.data(), 5, 64).empty());
  Indexed y;
  BuildIndex(&store, "norows", {}, 0, 8, &y);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(y.index.nodes(), 0u);
  EXPECT_TRUE(y.index.Search(q.data(), 5, 64).empty());
}

TEST(HnswTest, CorruptIndexOrWrongVectorsFail) {
  ScopedTempDir tmp;
  TestStore store(tmp.File("s"));
  std::vector<float> data = RandomUnitRows(100, 8, 2);
  Indexed x;
  BuildIndex(&store, "v", data, 100, 8, &x);
  ASSERT_FALSE(HasFatalFailure());
  const std::string path = x.view->Path("v.hnsw");
  const std::string good = ReadFile(path);
  const std::string saved = good;
  // Truncated, extended, damaged in the header or in the links: refused at
  // open or reported by the search, never a crash.
  std::vector<std::pair<std::string, std::string>> cases = {
      {"trunc", good.substr(0, good.size() - 4)},
      {"short", good.substr(0, 20)},
      {"magic", "Z" + good.substr(1)},
      {"extra", good + "1234"}};
  for (size_t at = 64; at + kCheckedFooterSize < good.size(); at += good.size() / 7) {
    std::string bad = good;
    bad[at] ^= 0x40;
    cases.emplace_back("flip" + std::to_string(at), bad);
  }
  std::vector<float> q = RandomUnitRows(2, 8, 9);
  for (const auto& [name, bytes] : cases) {
    // The damaged bytes replace the file in place (a reader's view of a
    // disk that went bad).
    std::filesystem::remove(path);
    WriteFile(path, bytes);
    HnswIndex idx;
    Status st = idx.Open(*x.view, "v.hnsw", &x.vec);
    if (st.ok()) {
      idx.Search(q.data() + 8, 10, 64);
      st = idx.status();
    }
    EXPECT_EQ(st.code(), Code::kCorruption) << name;
  }
  std::filesystem::remove(path);
  WriteFile(path, saved);
  // An index opened with vectors of another dimension.
  std::vector<float> other = RandomUnitRows(100, 4, 2);
  ASSERT_TRUE(
      VectorFile::Write(tmp.File("other.vec"), TestId(tmp.File("other.vec")), 4, 100, other.data())
          .ok());
  VectorFile ov;
  ASSERT_TRUE(ov.Open(tmp.File("other.vec"), TestId(tmp.File("other.vec"))).ok());
  HnswIndex idx;
  EXPECT_FALSE(idx.Open(*x.view, "v.hnsw", &ov).ok());
}

}  // namespace
}  // namespace litgraph

namespace litgraph {
namespace {

// ---- FieldVectors: a base and a delta ----------------------------------------

// `data` (rows x dim) as one plain vector file at `path`, opened into *out.
void WritePlain(const std::string& path, int dim, uint64_t rows, const std::vector<float>& data,
                VectorFile* out) {
  ASSERT_TRUE(VectorFile::Write(path, TestId(path), dim, rows, data.data()).ok());
  ASSERT_TRUE(out->Open(path, TestId(path)).ok());
}

// A base over rows 1..1499 (every 7th absent), then a delta: 120 changed
// rows, 30 rows whose vector went (zero), 20 rows that gain one, and rows
// 1500..1999 new. Read through FieldVectors, every row is the merged one,
// Exact equals a brute-force scan of the merged rows, and Search (scanning
// the delta, or with an index of its own) finds the merged top 10.
void CheckDelta(uint64_t index_min_rows) {
  ScopedTempDir tmp;
  TestStore store(tmp.File("s"));
  const int dim = 16;
  const uint64_t base_rows = 1500, rows = 2000;
  std::vector<float> base = RandomUnitRows(base_rows, dim, 21, /*hole=*/7);
  std::vector<float> fresh = RandomUnitRows(rows, dim, 22);
  // The merged rows, and the delta's ids.
  std::vector<float> merged(rows * dim, 0.0f);
  std::copy(base.begin(), base.end(), merged.begin());
  std::vector<uint32_t> ids;
  for (uint32_t id = 1; id < rows; ++id) {
    const bool had = id < base_rows && id % 7 != 0;
    bool in = id >= base_rows;                             // new
    if (had && id % 11 == 0) in = true;                    // changed (or gone, below)
    if (!had && id < base_rows && id % 3 == 0) in = true;  // gains one
    if (!in) continue;
    ids.push_back(id);
    const bool gone = had && id % 55 == 0 && id < base_rows;
    std::fill(merged.begin() + id * dim, merged.begin() + (id + 1) * dim, 0.0f);
    if (!gone)
      std::copy(fresh.begin() + id * dim, fresh.begin() + (id + 1) * dim,
                merged.begin() + id * dim);
  }
  uint64_t present = 0;
  for (uint64_t r = 0; r < rows; ++r)
    present += std::any_of(merged.begin() + r * dim, merged.begin() + (r + 1) * dim,
                           [](float x) { return x != 0; });
  HnswBuildOptions o;
  o.threads = 1;
  // Generation 1: the base.
  GenerationBuilder* b = store.Start("vectors");
  ASSERT_TRUE(VectorFile::Write(b, "f.vec", dim, base_rows, base.data()).ok());
  VectorFile bv;
  ASSERT_TRUE(bv.Open(b->Path("f.vec"), *b->Identity("f.vec")).ok());
  ASSERT_TRUE(BuildHnsw(bv, b, "f", o).ok());
  const GenerationView* g1 = store.Commit();
  // Generation 2: the base's files linked, the delta beside them.
  b = store.Start("vectors");
  for (const char* f : {"f.vec", "f.hnsw", "f.hnswlib"}) ASSERT_TRUE(b->Inherit(*g1, f).ok());
  Status st = FieldVectors::WriteDelta(
      b, "f", dim, ids, [&](uint64_t i) { return merged.data() + uint64_t{ids[i]} * dim; }, present,
      o, index_min_rows);
  ASSERT_TRUE(st.ok()) << st.message();
  const GenerationView* g2 = store.Commit();
  EXPECT_EQ(g2->Has("f.delta.hnsw"), ids.size() >= index_min_rows);
  EXPECT_EQ(g2->Has("f.delta.hnswlib"), ids.size() >= index_min_rows);
  FieldVectors fv;
  st = fv.Open(*g2, "f");
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(fv.rows(), rows);
  EXPECT_EQ(fv.present(), present);
  EXPECT_EQ(fv.delta_rows(), ids.size());
  EXPECT_EQ(fv.DeltaIds(), ids);
  for (uint64_t r = 0; r < rows + 5; ++r) {
    const float* want = r < rows ? merged.data() + r * dim : nullptr;
    if (want && std::all_of(want, want + dim, [](float x) { return x == 0; })) want = nullptr;
    const float* got = fv.Row(r);
    ASSERT_EQ(got == nullptr, want == nullptr) << "row " << r;
    if (got) {
      ASSERT_TRUE(std::equal(got, got + dim, want)) << "row " << r;
    }
  }
  // The merged rows as one plain file: the exact answers.
  VectorFile mv;
  ASSERT_NO_FATAL_FAILURE(WritePlain(tmp.File("m.vec"), dim, rows, merged, &mv));
  std::mt19937_64 rng(5);
  size_t found = 0, wanted = 0;
  for (int i = 0; i < 200; ++i) {
    std::vector<float> q = RandomQuery(dim, rng);
    std::vector<VectorHit> exact = BruteForceSearch(mv, q.data(), 10);
    std::vector<VectorHit> got = fv.Exact(q.data(), 10);
    ASSERT_EQ(got.size(), exact.size());
    for (size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].id, exact[k].id);
      EXPECT_EQ(got[k].score, exact[k].score);
    }
    std::vector<VectorHit> approx = fv.Search(q.data(), 10, 64);
    ASSERT_EQ(approx.size(), 10u);
    std::set<uint32_t> a;
    for (const VectorHit& h : approx) {
      // Each hit scores by its merged vector: a masked base vector never shows.
      const float* v = merged.data() + uint64_t{h.id} * dim;
      EXPECT_NEAR(h.score, Dot(q.data(), v, dim), 1e-5) << h.id;
      EXPECT_TRUE(a.insert(h.id).second) << "duplicate " << h.id;
    }
    for (const VectorHit& h : exact) found += a.count(h.id);
    wanted += exact.size();
  }
  EXPECT_GE(static_cast<double>(found) / wanted, 0.95);
  ASSERT_TRUE(fv.status().ok());
  // A damaged id list is an error, not a silent answer.
  const std::string ids_path = g2->Path("f.delta.ids");
  std::string bytes = ReadFile(ids_path);
  bytes[70] ^= 0x10;
  std::filesystem::remove(ids_path);
  WriteFile(ids_path, bytes);
  FieldVectors damaged;
  st = damaged.Open(*g2, "f");
  if (st.ok()) {
    for (uint64_t r = 0; r < rows; ++r) damaged.Row(r);
    st = damaged.status();
  }
  EXPECT_EQ(st.code(), Code::kCorruption);
}

TEST(FieldVectorsTest, AScannedDeltaReadsAsTheMergedRows) { CheckDelta(1u << 30); }

TEST(FieldVectorsTest, AnIndexedDeltaReadsAsTheMergedRows) { CheckDelta(100); }

// The labels of a generation's <name>.hnswlib, by hnswlib's internal id
// (insertion order), read from hnswlib's saved layout (hnswalg.h,
// saveIndex): six size_t, an int, a u32, three size_t, a double and a
// size_t, then cur_element_count records of size_data_per_element bytes,
// each with its label (size_t) at label_offset. (hnswlib's headers define
// functions outside templates, so a second translation unit cannot include
// them.)
std::vector<uint64_t> HnswLibLabels(const GenerationView& g, const std::string& name) {
  const std::string bytes = Payload(g.Path(name + ".hnswlib"));
  auto word = [&](size_t at) {
    uint64_t v = 0;
    if (at + 8 <= bytes.size()) std::memcpy(&v, bytes.data() + at, 8);
    return v;
  };
  const uint64_t count = word(16), per_element = word(24), label_offset = word(32);
  const size_t records = 6 * 8 + 4 + 4 + 3 * 8 + 8 + 8;
  std::vector<uint64_t> labels;
  for (uint64_t i = 0; i < count; ++i)
    labels.push_back(word(records + i * per_element + label_offset));
  return labels;
}

// A delta's index is labelled by node id, so the next embed --missing
// extends it: the ids that joined the delta (new rows, and base rows whose
// vector changed) are inserted after the old ones, and delta rows whose
// vector changed again are moved. Searches find every delta row by its own
// vector and the merged rows' top 10 as well as a delta built afresh. A
// previous index with a node the delta no longer holds is not extended.
TEST(FieldVectorsTest, ADeltaIndexIsExtendedByTheNextDelta) {
  ScopedTempDir tmp;
  TestStore store(tmp.File("s"));
  const int dim = 16;
  const uint64_t base_rows = 1000, rows = 2000;
  std::vector<float> merged = RandomUnitRows(base_rows, dim, 31);
  merged.resize(rows * dim, 0.0f);
  std::vector<float> fresh = RandomUnitRows(rows, dim, 32), again = RandomUnitRows(rows, dim, 33);
  HnswBuildOptions o;
  o.threads = 1;
  GenerationBuilder* b = store.Start("vectors");
  ASSERT_TRUE(VectorFile::Write(b, "f.vec", dim, base_rows, merged.data()).ok());
  VectorFile bv;
  ASSERT_TRUE(bv.Open(b->Path("f.vec"), *b->Identity("f.vec")).ok());
  ASSERT_TRUE(BuildHnsw(bv, b, "f", o).ok());
  const GenerationView* g1 = store.Commit();
  auto set_row = [&](uint32_t id, const std::vector<float>& from) {
    std::copy(from.begin() + id * dim, from.begin() + (id + 1) * dim, merged.begin() + id * dim);
  };
  auto write_delta = [&](const std::vector<uint32_t>& ids, const GenerationView* previous,
                         const std::vector<uint64_t>& changed) {
    GenerationBuilder* g = store.Start("vectors");
    for (const char* f : {"f.vec", "f.hnsw", "f.hnswlib"}) EXPECT_TRUE(g->Inherit(*g1, f).ok());
    Status st = FieldVectors::WriteDelta(
        g, "f", dim, ids, [&](uint64_t i) { return merged.data() + uint64_t{ids[i]} * dim; }, 0, o,
        1, previous, changed);
    EXPECT_TRUE(st.ok()) << st.message();
    return store.Commit();
  };
  // Round 1: rows 1000..1499 new, every 9th base row changed.
  std::vector<uint32_t> ids;
  for (uint32_t id = 9; id < base_rows; id += 9) ids.push_back(id);
  for (uint32_t id = 1000; id < 1500; ++id) ids.push_back(id);
  for (uint32_t id : ids) set_row(id, fresh);
  const GenerationView* g2 = write_delta(ids, nullptr, {});
  const std::vector<uint64_t> first = HnswLibLabels(*g2, "f.delta");
  ASSERT_EQ(first.size(), ids.size());
  // Round 2: rows 1500..1999 new, every 7th base row changed, and every 5th
  // delta row embedded again.
  std::vector<uint64_t> changed;
  for (uint32_t id : ids)
    if (id % 5 == 0) {
      changed.push_back(id);
      set_row(id, again);
    }
  for (uint32_t id = 7; id < base_rows; id += 7)
    if (id % 9 != 0) ids.push_back(id);
  for (uint32_t id = 1500; id < rows; ++id) ids.push_back(id);
  std::sort(ids.begin(), ids.end());
  for (uint32_t id : ids)
    if (id % 7 == 0 && id % 9 != 0 && id < base_rows) set_row(id, fresh);
  for (uint32_t id = 1500; id < rows; ++id) set_row(id, fresh);
  const GenerationView* g3 = write_delta(ids, g2, changed);
  const std::vector<uint64_t> extended = HnswLibLabels(*g3, "f.delta");
  ASSERT_EQ(extended.size(), ids.size());
  EXPECT_TRUE(std::equal(first.begin(), first.end(), extended.begin()))
      << "the old delta's nodes come first: extended, not built again";
  EXPECT_FALSE(std::is_sorted(extended.begin(), extended.end()));
  FieldVectors fv;
  ASSERT_TRUE(fv.Open(*g3, "f").ok());
  EXPECT_EQ(fv.DeltaIds(), ids);
  size_t self = 0;
  for (uint32_t id : ids) {
    const float* v = merged.data() + uint64_t{id} * dim;
    ASSERT_TRUE(std::equal(v, v + dim, fv.Row(id))) << id;
    std::vector<VectorHit> hit = fv.Search(v, 1, 64);
    self += !hit.empty() && hit[0].id == id;
  }
  EXPECT_GE(self, ids.size() * 99 / 100) << "delta rows found by their own vectors";
  // The merged rows' top 10.
  VectorFile mv;
  ASSERT_NO_FATAL_FAILURE(WritePlain(tmp.File("m.vec"), dim, rows, merged, &mv));
  std::mt19937_64 rng(8);
  size_t found = 0, wanted = 0;
  for (int i = 0; i < 200; ++i) {
    std::vector<float> q = RandomQuery(dim, rng);
    std::set<uint32_t> got;
    for (const VectorHit& h : fv.Search(q.data(), 10, 64)) got.insert(h.id);
    for (const VectorHit& h : BruteForceSearch(mv, q.data(), 10)) found += got.count(h.id);
    wanted += 10;
  }
  EXPECT_GE(static_cast<double>(found) / wanted, 0.95);
  ASSERT_TRUE(fv.status().ok());
  // A delta without one of the old delta's ids (only a compaction shrinks a
  // delta): the old index is not extended but built afresh, in row order.
  ids.erase(ids.begin());
  const GenerationView* g4 = write_delta(ids, g3, {});
  const std::vector<uint64_t> rebuilt = HnswLibLabels(*g4, "f.delta");
  EXPECT_EQ(rebuilt.size(), ids.size());
  EXPECT_TRUE(std::is_sorted(rebuilt.begin(), rebuilt.end()));
}

// Segments (litgraph-merge): the index of a second store kept beside the
// base index, its nodes relabelled with the merged ids. The base index holds
// the first store's rows only (the others flagged `elsewhere`); searches over
// both find every row by its own vector, score each hit by its merged vector,
// return no row twice and match the exact top 10. A delta on top masks the
// segment's rows as it masks the base's, and a compaction's copy of a
// segment with some rows made waypoints leaves them to the base index.
TEST(FieldVectorsTest, SegmentsAnswerWithTheMergedIds) {
  ScopedTempDir tmp;
  const int dim = 16;
  const uint64_t a_rows = 600, b_rows = 500, rows = a_rows + b_rows - 1;
  HnswBuildOptions o;
  o.threads = 1;
  auto index_store = [&](TestStore* store, const std::vector<float>& data, uint64_t n) {
    GenerationBuilder* b = store->Start("vectors");
    EXPECT_TRUE(VectorFile::Write(b, "f.vec", dim, n, data.data()).ok());
    VectorFile v;
    EXPECT_TRUE(v.Open(b->Path("f.vec"), *b->Identity("f.vec")).ok());
    EXPECT_TRUE(BuildHnsw(v, b, "f", o).ok());
    return store->Commit();
  };
  TestStore sa(tmp.File("a")), sb(tmp.File("b")), merged_store(tmp.File("m"));
  const std::vector<float> a = RandomUnitRows(a_rows, dim, 21, 13);
  const std::vector<float> bv = RandomUnitRows(b_rows, dim, 22, 17);
  const GenerationView* ga = index_store(&sa, a, a_rows);
  const GenerationView* gb = index_store(&sb, bv, b_rows);
  // Merged ids: A's rows as they are, B's row r at a_rows - 1 + r.
  std::vector<float> merged(rows * dim, 0.0f);
  std::copy(a.begin(), a.end(), merged.begin());
  std::copy(bv.begin() + dim, bv.end(), merged.begin() + a_rows * dim);
  auto present = [&](const std::vector<float>& d, uint64_t r) {
    return std::any_of(d.begin() + r * dim, d.begin() + (r + 1) * dim,
                       [](float x) { return x != 0; });
  };
  std::vector<uint8_t> elsewhere(rows, 0);
  uint64_t b_present = 0;
  for (uint64_t r = 1; r < b_rows; ++r)
    if (present(bv, r)) {
      elsewhere[a_rows - 1 + r] = 1;
      ++b_present;
    }
  GenerationBuilder* g = merged_store.Start("vectors");
  ASSERT_TRUE(VectorFile::Write(g, "f.vec", dim, rows, merged.data()).ok());
  VectorFile mv;
  ASSERT_TRUE(mv.Open(g->Path("f.vec"), *g->Identity("f.vec")).ok());
  ASSERT_TRUE(BuildHnsw(mv, g, "f", o, ga, {}, {}, elsewhere).ok());
  uint64_t labelled = 0;
  Status st = WriteHnswSegment(
      *gb, "f.hnsw",
      [&](uint64_t node, uint32_t old) {
        EXPECT_EQ(old, node);  // an unlabelled index: node n is row n
        return node >= 1 && present(bv, node) ? static_cast<uint32_t>(a_rows - 1 + node) : kNoLabel;
      },
      g, FieldVectors::SegmentFile("f", 1), &labelled);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(labelled, b_present);
  const GenerationView* gm = merged_store.Commit();
  FieldVectors fv;
  st = fv.Open(*gm, "f");
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(fv.segments(), 1u);
  EXPECT_FALSE(fv.OneIndex());
  EXPECT_TRUE(fv.segment(0).labelled());
  // The base index was extended by nothing: A's rows only.
  EXPECT_EQ(HnswLibLabels(*gm, "f").size(), HnswLibLabels(*ga, "f").size());
  auto check = [&](const FieldVectors& f, const std::vector<float>& want, const char* what) {
    std::mt19937_64 rng(8);
    size_t found = 0, wanted = 0;
    VectorFile plain;
    WritePlain(tmp.File(std::string(what) + ".vec"), dim, rows, want, &plain);
    for (int i = 0; i < 200; ++i) {
      std::vector<float> q = RandomQuery(dim, rng);
      std::vector<VectorHit> exact = BruteForceSearch(plain, q.data(), 10);
      std::vector<VectorHit> got = f.Search(q.data(), 10, 64);
      ASSERT_EQ(got.size(), 10u) << what;
      std::set<uint32_t> seen;
      for (const VectorHit& h : got) {
        ASSERT_LT(h.id, rows) << what;
        EXPECT_NEAR(h.score, Dot(q.data(), want.data() + uint64_t{h.id} * dim, dim), 1e-5)
            << what << " " << h.id;
        EXPECT_TRUE(seen.insert(h.id).second) << what << ": duplicate " << h.id;
      }
      for (const VectorHit& h : exact) found += seen.count(h.id);
      wanted += exact.size();
    }
    EXPECT_GE(static_cast<double>(found) / wanted, 0.95) << what;
    // Every row is found by its own vector, in the base or the segment.
    size_t self = 0, rows_with = 0;
    for (uint64_t r = 1; r < rows; ++r) {
      if (!present(want, r)) continue;
      ++rows_with;
      std::vector<VectorHit> top = f.Search(want.data() + r * dim, 1, 64);
      self += !top.empty() && top[0].id == r;
    }
    EXPECT_GE(static_cast<double>(self) / rows_with, 0.99) << what;
    EXPECT_TRUE(f.status().ok()) << what;
  };
  ASSERT_NO_FATAL_FAILURE(check(fv, merged, "segments"));
  // A delta over base and segment rows: new vectors for every 5th row.
  std::vector<uint32_t> ids;
  std::vector<float> after = merged;
  const std::vector<float> fresh = RandomUnitRows(rows, dim, 23);
  for (uint64_t r = 1; r < rows; r += 5) {
    ids.push_back(static_cast<uint32_t>(r));
    std::copy(fresh.begin() + r * dim, fresh.begin() + (r + 1) * dim, after.begin() + r * dim);
  }
  uint64_t after_present = 0;
  for (uint64_t r = 0; r < rows; ++r) after_present += present(after, r);
  g = merged_store.Start("vectors");
  for (const char* f : {"f.vec", "f.hnsw", "f.hnswlib", "f.seg1.hnsw"})
    ASSERT_TRUE(g->Inherit(*gm, f).ok()) << f;
  st = FieldVectors::WriteDelta(
      g, "f", dim, ids, [&](uint64_t i) { return after.data() + uint64_t{ids[i]} * dim; },
      after_present, o, 1u << 30);
  ASSERT_TRUE(st.ok()) << st.message();
  const GenerationView* gd = merged_store.Commit();
  FieldVectors with_delta;
  ASSERT_TRUE(with_delta.Open(*gd, "f").ok());
  EXPECT_EQ(with_delta.segments(), 1u);
  ASSERT_NO_FATAL_FAILURE(check(with_delta, after, "delta"));
  // The compaction's copy: the delta's rows made waypoints of the segment
  // (scored, never returned) and inserted into the base index instead.
  std::vector<uint32_t> labels = with_delta.segment(0).Labels();
  ASSERT_FALSE(labels.empty());
  g = merged_store.Start("vectors");
  ASSERT_TRUE(VectorFile::Write(g, "f.vec", dim, rows, after.data()).ok());
  std::vector<uint8_t> kept(rows, 0);
  auto changes = [&](uint32_t l) { return std::binary_search(ids.begin(), ids.end(), l); };
  for (uint32_t l : labels)
    if (l != kNoLabel && !changes(l)) kept[l] = 1;
  st = WriteHnswSegment(
      *gd, "f.seg1.hnsw",
      [&](uint64_t, uint32_t old) {
        return old != kNoLabel && changes(old) ? kWaypoint | old : old;
      },
      g, "f.seg1.hnsw", &labelled);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(labelled, static_cast<uint64_t>(std::count(kept.begin(), kept.end(), 1)));
  EXPECT_LT(labelled, b_present);
  VectorFile cv;
  ASSERT_TRUE(cv.Open(g->Path("f.vec"), *g->Identity("f.vec")).ok());
  std::vector<uint64_t> changed;
  for (uint32_t id : ids)
    if (id < a_rows) changed.push_back(id);
  ASSERT_TRUE(BuildHnsw(cv, g, "f", o, gd, changed, {}, kept).ok());
  const GenerationView* gc = merged_store.Commit();
  FieldVectors compacted;
  ASSERT_TRUE(compacted.Open(*gc, "f").ok());
  EXPECT_EQ(compacted.delta_rows(), 0u);
  ASSERT_NO_FATAL_FAILURE(check(compacted, after, "compacted"));
  // A damaged segment is an error, not a silent answer.
  const std::string seg = gm->Path("f.seg1.hnsw");
  std::string bytes = ReadFile(seg);
  bytes[Payload(seg).size() - 3] ^= 0x40;  // the last node's label
  std::filesystem::remove(seg);
  WriteFile(seg, bytes);
  FieldVectors damaged;
  st = damaged.Open(*gm, "f");
  if (st.ok()) {
    for (int i = 0; i < 50 && damaged.status().ok(); ++i)
      damaged.Search(merged.data() + (a_rows + i) * dim, 10, 64);
    std::vector<uint32_t> l = damaged.segment(0).Labels();
    st = damaged.status();
  }
  EXPECT_EQ(st.code(), Code::kCorruption);
}

// An index built within a memory bound (embed --memory-budget): runs of at
// most max_nodes rows with a vector, the first the base index, the others
// segments built one at a time. They answer as one index: recall against
// exact search, every row found by its own vector, no row twice, scores the
// rows' own. A bound above the rows gives BuildHnsw's single index.
TEST(FieldVectorsTest, AnIndexBuiltWithinABoundIsCutIntoSegments) {
  ScopedTempDir tmp;
  const int dim = 16;
  const uint64_t rows = 1500;
  HnswBuildOptions o;
  o.threads = 1;
  const std::vector<float> data = RandomUnitRows(rows, dim, 31, 7);  // every 7th row absent
  uint64_t present = 0;
  for (uint64_t r = 0; r < rows; ++r)
    present += std::any_of(data.begin() + r * dim, data.begin() + (r + 1) * dim,
                           [](float x) { return x != 0; });
  for (uint64_t max_nodes : {400u, 2000u}) {
    TestStore store(tmp.File("s" + std::to_string(max_nodes)));
    GenerationBuilder* g = store.Start("vectors");
    ASSERT_TRUE(VectorFile::Write(g, "f.vec", dim, rows, data.data()).ok());
    VectorFile v;
    ASSERT_TRUE(v.Open(g->Path("f.vec"), *g->Identity("f.vec")).ok());
    size_t segments = 99;
    Status st = BuildHnswWithin(v, g, "f", o, max_nodes, &segments);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(segments, (present + max_nodes - 1) / max_nodes - 1) << max_nodes;
    const GenerationView* gv = store.Commit();
    FieldVectors fv;
    st = fv.Open(*gv, "f");
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(fv.segments(), segments);
    EXPECT_EQ(fv.OneIndex(), segments == 0);
    // Each segment holds at most max_nodes rows, a run of rows past the
    // previous graph's, one node per row with a vector, in row order.
    const std::vector<uint64_t> base = HnswLibLabels(*gv, "f");
    uint64_t last = base.empty() ? 0 : *std::max_element(base.begin(), base.end());
    std::set<uint32_t> held;
    for (size_t k = 0; k < fv.segments(); ++k) {
      std::vector<uint32_t> labels = fv.segment(k).Labels();
      uint64_t live = 0;
      for (size_t n = 0; n < labels.size(); ++n) {
        const uint32_t l = labels[n];
        ASSERT_NE(l, kNoLabel) << "segment " << k << " node " << n << " has no row";
        ++live;
        if (n > 0) EXPECT_GT(l, labels[n - 1]) << "segment " << k << " node " << n;
        EXPECT_GT(l, last) << "segment " << k << " overlaps the graph before it";
        EXPECT_TRUE(held.insert(l).second) << "row " << l << " in two segments";
      }
      if (!held.empty()) last = *held.rbegin();
      EXPECT_LE(live, max_nodes);
      EXPECT_EQ(fv.segment(k).nodes(), live);
    }
    EXPECT_EQ(base.size() + held.size(), present);
    std::mt19937_64 rng(9);
    size_t found = 0, wanted = 0;
    for (int i = 0; i < 200; ++i) {
      std::vector<float> q = RandomQuery(dim, rng);
      std::vector<VectorHit> exact = fv.Exact(q.data(), 10);
      std::vector<VectorHit> got = fv.Search(q.data(), 10, 64);
      ASSERT_EQ(got.size(), 10u);
      std::set<uint32_t> seen;
      for (const VectorHit& h : got) {
        ASSERT_LT(h.id, rows);
        EXPECT_NEAR(h.score, Dot(q.data(), data.data() + uint64_t{h.id} * dim, dim), 1e-5);
        EXPECT_TRUE(seen.insert(h.id).second) << "duplicate " << h.id;
      }
      for (const VectorHit& h : exact) found += seen.count(h.id);
      wanted += exact.size();
    }
    EXPECT_GE(static_cast<double>(found) / wanted, 0.95) << max_nodes;
    size_t self = 0;
    for (uint64_t r = 0; r < rows; ++r) {
      if (!fv.Row(r)) continue;
      std::vector<VectorHit> top = fv.Search(data.data() + r * dim, 1, 64);
      self += !top.empty() && top[0].id == r;
    }
    EXPECT_GE(static_cast<double>(self) / present, 0.99) << max_nodes;
    EXPECT_TRUE(fv.status().ok());
  }
  // The bound from bytes: ~640 bytes a node at 128 dimensions and M = 16
  // (a half row of 256 bytes, links 256 + 32, 96 of bookkeeping).
  EXPECT_EQ(HnswNodesWithin(size_t{900} << 20, 128, 16), (size_t{900} << 20) / 640);
  EXPECT_EQ(HnswNodesWithin(1024, 128, 16), 16u);
}

TEST(FieldVectorsTest, WithoutADeltaTheBaseAnswers) {
  ScopedTempDir tmp;
  TestStore store(tmp.File("s"));
  std::vector<float> data = RandomUnitRows(300, 8, 4);
  GenerationBuilder* b = store.Start("vectors");
  ASSERT_TRUE(VectorFile::Write(b, "f.vec", 8, 300, data.data()).ok());
  const GenerationView* g = store.Commit();  // no index: a scan
  FieldVectors fv;
  ASSERT_TRUE(fv.Open(*g, "f").ok());
  EXPECT_FALSE(fv.has_index());
  EXPECT_EQ(fv.delta_rows(), 0u);
  EXPECT_EQ(fv.present(), 299u);
  EXPECT_TRUE(fv.DeltaIds().empty());
  std::vector<float> q = RandomUnitRows(2, 8, 9);
  std::vector<VectorHit> hits = fv.Search(q.data() + 8, 5, 64);
  ASSERT_EQ(hits.size(), 5u);
  ASSERT_TRUE(fv.Row(hits[0].id));
  EXPECT_NEAR(hits[0].score, Dot(q.data() + 8, fv.Row(hits[0].id), 8), 1e-6);
  FieldVectors missing;
  EXPECT_FALSE(missing.Open(*g, "nothere").ok());
}

}  // namespace
}  // namespace litgraph

namespace litgraph {
namespace {

// Files of the previous formats (vectors rows at byte 64; an HNSW graph
// whose nodes carry labels and counted level-0 lists) are still read.
TEST(FormatCompatibilityTest, VersionTwoVectorAndIndexFilesAreRead) {
  ScopedTempDir tmp;
  TestStore store(tmp.File("s"));
  const int dim = 4;
  const uint64_t rows = 10;
  std::vector<float> data(rows * dim, 0.0f);
  for (uint64_t r : {2, 5, 9}) {
    data[r * dim + r % dim] = 1.0f;  // unit vectors along axes 2, 1, 1 (+0.5 on axis 3 below)
  }
  data[9 * dim + 3] = 0.5f;
  Normalize(data.data() + 9 * dim, dim);
  GenerationBuilder* b = store.Start("vectors");
  std::string vec(64, '\0');
  const char vmagic[8] = {'L', 'G', 'V', 'E', 'C', 0, 0, 2};
  std::memcpy(vec.data(), vmagic, 8);
  const uint32_t udim = dim;
  const uint64_t present = 3;
  std::memcpy(vec.data() + 8, &udim, 4);
  std::memcpy(vec.data() + 16, &rows, 8);
  std::memcpy(vec.data() + 24, &present, 8);
  vec.append(reinterpret_cast<const char*>(data.data()), data.size() * sizeof(float));
  ASSERT_TRUE(WriteCheckedFile(b->Path("f.vec"), b->NewFile("f.vec"), vec).ok());
  // Three nodes labelled 5, 2, 9, each linked to the other two; M 2, maxM0 4.
  std::string h(64, '\0');
  const char hmagic[8] = {'L', 'G', 'H', 'N', 'S', 'W', 0, 2};
  std::memcpy(h.data(), hmagic, 8);
  const uint32_t head[4] = {dim, 2, 4, 0};  // dim, M, maxM0, entry
  std::memcpy(h.data() + 8, head, 16);
  const uint64_t nodes = 3, upper_words = 0;
  std::memcpy(h.data() + 32, &nodes, 8);
  std::memcpy(h.data() + 40, &upper_words, 8);
  auto put = [&h](const auto& v) { h.append(reinterpret_cast<const char*>(&v), sizeof v); };
  for (uint32_t label : {5u, 2u, 9u}) put(label);
  h.append(8, '\0');  // levels, padded to 8
  for (int i = 0; i < 3; ++i) put(uint64_t{0});
  const uint32_t level0[3][5] = {{2, 1, 2, 0, 0}, {2, 0, 2, 0, 0}, {2, 0, 1, 0, 0}};
  put(level0);
  ASSERT_TRUE(WriteCheckedFile(b->Path("f.hnsw"), b->NewFile("f.hnsw"), h).ok());
  const GenerationView* g = store.Commit();
  FieldVectors fv;
  Status st = fv.Open(*g, "f");
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_TRUE(fv.has_index());
  EXPECT_EQ(fv.present(), 3u);
  ASSERT_NE(fv.Row(9), nullptr);
  EXPECT_EQ(fv.Row(3), nullptr);
  const float q[4] = {0, 0.1f, 1, 0};  // closest to row 2, then 5
  std::vector<VectorHit> hits = fv.Search(q, 3, 10);
  ASSERT_EQ(hits.size(), 3u);
  EXPECT_EQ(hits[0].id, 2u);
  EXPECT_EQ(hits[1].id, 5u);
  EXPECT_EQ(hits[2].id, 9u);
  EXPECT_TRUE(fv.status().ok());
}

}  // namespace
}  // namespace litgraph
