// Tests for vectors.h: VectorFile round trips (absent rows, the present
// count), corrupt and truncated files, BuildHnsw + HnswIndex recall against
// the exact BruteForceSearch on random unit vectors, result order and ids,
// extending an index built over earlier rows (embed --missing), and indexes
// over empty vector files. Real files in a fresh temporary directory.
#include "litgraph/vectors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "litgraph/embed.h"
#include "test_util.h"

namespace litgraph {
namespace {

using litgraph::testing::ReadFile;
using litgraph::testing::ScopedTempDir;
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
  ASSERT_TRUE(VectorFile::Write(path, dim, rows, data.data()).ok());
  EXPECT_EQ(std::filesystem::file_size(path), 64 + rows * dim * sizeof(float));
  VectorFile f;
  Status st = f.Open(path);
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
  ASSERT_TRUE(VectorFile::Write(path, 4, 10, a.data()).ok());
  ASSERT_TRUE(VectorFile::Write(path, 4, 3, b.data()).ok());
  VectorFile f;
  ASSERT_TRUE(f.Open(path).ok());
  EXPECT_EQ(f.rows(), 3u);
  EXPECT_EQ(f.present(), 2u);
  EXPECT_EQ(f.Row(2)[3], b[2 * 4 + 3]);
  for (const auto& e : std::filesystem::directory_iterator(tmp.path()))
    EXPECT_EQ(e.path().filename(), "v.vec") << "temporary file left behind";
}

TEST(VectorFileTest, EmptyFile) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("empty.vec");
  ASSERT_TRUE(VectorFile::Write(path, 8, 0, nullptr).ok());
  VectorFile f;
  ASSERT_TRUE(f.Open(path).ok());
  EXPECT_EQ(f.rows(), 0u);
  EXPECT_EQ(f.present(), 0u);
  EXPECT_EQ(f.Row(0), nullptr);
  std::vector<float> q(8, 0.5f);
  EXPECT_TRUE(BruteForceSearch(f, q.data(), 10).empty());
}

TEST(VectorFileTest, CorruptAndTruncatedFilesFail) {
  ScopedTempDir tmp;
  const std::string path = tmp.File("good.vec");
  std::vector<float> data = RandomUnitRows(20, 6, 3);
  ASSERT_TRUE(VectorFile::Write(path, 6, 20, data.data()).ok());
  const std::string good = ReadFile(path);
  struct Case {
    const char* name;
    std::string bytes;
  };
  std::string bad_magic = good;
  bad_magic[0] = 'X';
  std::string zero_dim = good;
  zero_dim[8] = zero_dim[9] = zero_dim[10] = zero_dim[11] = 0;
  std::string more_rows = good;
  more_rows[16] = static_cast<char>(more_rows[16] + 1);
  std::vector<Case> cases = {{"truncated_data", good.substr(0, good.size() - 4)},
                             {"truncated_header", good.substr(0, 40)},
                             {"empty", ""},
                             {"extra_bytes", good + "xxxx"},
                             {"bad_magic", bad_magic},
                             {"zero_dim", zero_dim},
                             {"rows_mismatch", more_rows}};
  for (const Case& c : cases) {
    const std::string p = tmp.File(std::string(c.name) + ".vec");
    WriteFile(p, c.bytes);
    VectorFile f;
    Status st = f.Open(p);
    EXPECT_FALSE(st.ok()) << c.name;
    EXPECT_EQ(st.code(), Code::kCorruption) << c.name;
  }
  VectorFile missing;
  EXPECT_FALSE(missing.Open(tmp.File("missing.vec")).ok());
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
  ASSERT_TRUE(VectorFile::Write(path, dim, 10, data.data()).ok());
  VectorFile f;
  ASSERT_TRUE(f.Open(path).ok());
  float q[3] = {std::cos(50 * M_PI / 180), std::sin(50 * M_PI / 180), 0};
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
};

void BuildIndex(const ScopedTempDir& tmp, const std::string& name, const std::vector<float>& data,
                uint64_t rows, int dim, Indexed* out, const std::string& hnswlib_in = "") {
  const std::string vpath = tmp.File(name + ".vec");
  ASSERT_TRUE(VectorFile::Write(vpath, dim, rows, data.data()).ok());
  ASSERT_TRUE(out->vec.Open(vpath).ok());
  HnswBuildOptions o;
  o.threads = 1;
  Status st = BuildHnsw(out->vec, tmp.File(name), o, hnswlib_in);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_TRUE(std::filesystem::exists(tmp.File(name + ".hnsw")));
  EXPECT_TRUE(std::filesystem::exists(tmp.File(name + ".hnswlib")));
  st = out->index.Open(tmp.File(name + ".hnsw"), &out->vec);
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
  const int dim = 32;
  const uint64_t rows = 2001;  // ids 1..2000
  std::vector<float> data = RandomUnitRows(rows, dim, 42);
  Indexed x;
  BuildIndex(tmp, "title", data, rows, dim, &x);
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

TEST(HnswTest, AbsentRowsAreNotIndexed) {
  ScopedTempDir tmp;
  const int dim = 16;
  const uint64_t rows = 600;
  std::vector<float> data = RandomUnitRows(rows, dim, 5, /*hole=*/3);
  Indexed x;
  BuildIndex(tmp, "abstract", data, rows, dim, &x);
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
  Indexed a;
  BuildIndex(tmp, "first", first, 1501, dim, &a);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(a.index.nodes(), 1500u);
  // Second build over all 2,000 rows, starting from the first hnswlib index.
  Indexed b;
  BuildIndex(tmp, "second", all, rows, dim, &b, tmp.File("first.hnswlib"));
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

TEST(HnswTest, MissingBaseIndexBuildsFromScratch) {
  ScopedTempDir tmp;
  std::vector<float> data = RandomUnitRows(300, 8, 4);
  Indexed x;
  BuildIndex(tmp, "v", data, 300, 8, &x, tmp.File("no-such.hnswlib"));
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(x.index.nodes(), 299u);
}

TEST(HnswTest, EmptyVectorFileGivesAnEmptyIndex) {
  ScopedTempDir tmp;
  std::vector<float> zeros(10 * 8, 0.0f);  // rows but none present
  Indexed x;
  BuildIndex(tmp, "zeros", zeros, 10, 8, &x);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(x.index.nodes(), 0u);
  std::vector<float> q(8, 0.35f);
  EXPECT_TRUE(x.index.Search(q.data(), 5, 64).empty());
  Indexed y;
  BuildIndex(tmp, "norows", {}, 0, 8, &y);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_EQ(y.index.nodes(), 0u);
  EXPECT_TRUE(y.index.Search(q.data(), 5, 64).empty());
}

TEST(HnswTest, CorruptIndexOrWrongVectorsFail) {
  ScopedTempDir tmp;
  std::vector<float> data = RandomUnitRows(100, 8, 2);
  Indexed x;
  BuildIndex(tmp, "v", data, 100, 8, &x);
  ASSERT_FALSE(HasFatalFailure());
  const std::string good = ReadFile(tmp.File("v.hnsw"));
  for (auto [name, bytes] : std::vector<std::pair<std::string, std::string>>{
           {"trunc.hnsw", good.substr(0, good.size() - 4)},
           {"short.hnsw", good.substr(0, 20)},
           {"magic.hnsw", "Z" + good.substr(1)},
           {"extra.hnsw", good + "1234"}}) {
    WriteFile(tmp.File(name), bytes);
    HnswIndex idx;
    EXPECT_FALSE(idx.Open(tmp.File(name), &x.vec).ok()) << name;
  }
  // An index opened with vectors of another dimension.
  std::vector<float> other = RandomUnitRows(100, 4, 2);
  ASSERT_TRUE(VectorFile::Write(tmp.File("other.vec"), 4, 100, other.data()).ok());
  VectorFile ov;
  ASSERT_TRUE(ov.Open(tmp.File("other.vec")).ok());
  HnswIndex idx;
  EXPECT_FALSE(idx.Open(tmp.File("v.hnsw"), &ov).ok());
}

}  // namespace
}  // namespace litgraph
