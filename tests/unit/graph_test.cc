// Tests for graph.h: adjacency files written by WriteAdjacency and read back
// through Adjacency::Open / Neighbours, including edge cases (empty lists,
// zero nodes, a node of very high degree, ids near 2^32 - 1), corrupt files
// and random access across more blocks than the decoded-block cache holds.
#include "litgraph/graph.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "../../lib/src/graph_build_parts.h"
#include "test_util.h"

namespace litgraph {
namespace {

using litgraph::testing::Payload;
using litgraph::testing::ReadFile;
using litgraph::testing::ScopedTempDir;
using litgraph::testing::TestId;
using litgraph::testing::WriteFile;

struct CsrGraph {
  uint64_t num_nodes = 0;
  std::vector<uint64_t> offsets = {0};
  std::vector<uint32_t> ids, attrs;

  void AddNode(std::vector<uint32_t> nbrs, const std::vector<uint32_t>& node_attrs = {}) {
    ++num_nodes;
    ids.insert(ids.end(), nbrs.begin(), nbrs.end());
    attrs.insert(attrs.end(), node_attrs.begin(), node_attrs.end());
    offsets.push_back(ids.size());
  }
  std::vector<uint32_t> List(uint64_t n) const {
    return {ids.begin() + static_cast<long>(offsets[n]),
            ids.begin() + static_cast<long>(offsets[n + 1])};
  }
  std::vector<uint32_t> Attrs(uint64_t n) const {
    if (attrs.empty()) return {};
    return {attrs.begin() + static_cast<long>(offsets[n]),
            attrs.begin() + static_cast<long>(offsets[n + 1])};
  }
  uint32_t MaxDegree() const {
    uint64_t m = 0;
    for (uint64_t n = 0; n < num_nodes; ++n) m = std::max(m, offsets[n + 1] - offsets[n]);
    return static_cast<uint32_t>(m);
  }
};

// Random sorted neighbour lists (distinct ids below id_limit), degrees 0..max_degree.
CsrGraph RandomGraph(std::mt19937_64& rng, uint64_t num_nodes, uint32_t max_degree,
                     uint64_t id_limit, bool with_attrs) {
  CsrGraph g;
  for (uint64_t n = 0; n < num_nodes; ++n) {
    uint32_t deg = static_cast<uint32_t>(rng() % (max_degree + 1));
    if (rng() % 4 == 0) deg = 0;  // plenty of empty lists
    std::set<uint32_t> s;
    while (s.size() < deg) s.insert(static_cast<uint32_t>(rng() % id_limit));
    std::vector<uint32_t> a;
    if (with_attrs)
      for (size_t i = 0; i < s.size(); ++i)
        a.push_back(static_cast<uint32_t>(rng() >> (rng() % 64)));
    g.AddNode({s.begin(), s.end()}, a);
  }
  return g;
}

Status Write(const std::string& path, const CsrGraph& g, uint32_t nodes_per_block) {
  return WriteAdjacency(path, TestId(path), g.num_nodes, g.offsets, g.ids, g.attrs,
                        nodes_per_block);
}

void ExpectSame(Adjacency& adj, const CsrGraph& g, uint64_t node) {
  Adjacency::List l = adj.Neighbours(node);
  std::vector<uint32_t> got(l.ids.begin(), l.ids.end());
  ASSERT_EQ(got, g.List(node)) << "node " << node;
  std::vector<uint32_t> got_attrs(l.attrs.begin(), l.attrs.end());
  ASSERT_EQ(got_attrs, g.Attrs(node)) << "node " << node;
  EXPECT_EQ(adj.Degree(node), g.List(node).size());
}

TEST(AdjacencyTest, RandomGraphsRoundTrip) {
  ScopedTempDir tmp;
  std::mt19937_64 rng(2024);
  int files = 0;
  for (uint32_t npb : {1u, 7u, 64u}) {
    for (bool with_attrs : {false, true}) {
      for (uint64_t num_nodes : {uint64_t{1}, uint64_t{6}, uint64_t{7}, uint64_t{8}, uint64_t{63},
                                 uint64_t{64}, uint64_t{65}, uint64_t{500}}) {
        CsrGraph g = RandomGraph(rng, num_nodes, 40, 1 + rng() % 100000, with_attrs);
        std::string path = tmp.File("g" + std::to_string(files++) + ".adj");
        ASSERT_TRUE(Write(path, g, npb).ok());
        EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
        Adjacency adj;
        Status st = adj.Open(path, TestId(path));
        ASSERT_TRUE(st.ok()) << st.message();
        EXPECT_EQ(adj.num_nodes(), num_nodes);
        EXPECT_EQ(adj.num_edges(), g.ids.size());
        EXPECT_EQ(adj.max_degree(), g.MaxDegree());
        EXPECT_EQ(adj.nodes_per_block(), npb);
        for (uint64_t n = 0; n < num_nodes; ++n) ExpectSame(adj, g, n);
        // Outside the id space: no neighbours.
        EXPECT_EQ(adj.Neighbours(num_nodes).size(), 0u);
        EXPECT_EQ(adj.Neighbours(num_nodes + 1000).size(), 0u);
      }
    }
  }
}

TEST(AdjacencyTest, AllListsEmpty) {
  ScopedTempDir tmp;
  CsrGraph g;
  for (int i = 0; i < 200; ++i) g.AddNode({});
  for (uint32_t npb : {1u, 7u, 64u}) {
    std::string path = tmp.File("empty" + std::to_string(npb) + ".adj");
    ASSERT_TRUE(Write(path, g, npb).ok());
    Adjacency adj;
    ASSERT_TRUE(adj.Open(path, TestId(path)).ok());
    EXPECT_EQ(adj.num_nodes(), 200u);
    EXPECT_EQ(adj.num_edges(), 0u);
    EXPECT_EQ(adj.max_degree(), 0u);
    for (uint64_t n = 0; n < 200; ++n) EXPECT_EQ(adj.Neighbours(n).size(), 0u);
  }
}

TEST(AdjacencyTest, ZeroNodes) {
  ScopedTempDir tmp;
  CsrGraph g;
  for (bool attrs : {false, true}) {
    std::string path = tmp.File(attrs ? "zero_a.adj" : "zero.adj");
    ASSERT_TRUE(WriteAdjacency(path, TestId(path), 0, g.offsets, {}, {}, 64).ok());
    Adjacency adj;
    Status st = adj.Open(path, TestId(path));
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(adj.num_nodes(), 0u);
    EXPECT_EQ(adj.num_edges(), 0u);
    EXPECT_EQ(adj.Neighbours(0).size(), 0u);
    EXPECT_EQ(adj.Neighbours(12345).size(), 0u);
  }
}

TEST(AdjacencyTest, OneNodeOfVeryHighDegree) {
  ScopedTempDir tmp;
  constexpr uint32_t kDegree = 1000000;
  CsrGraph g;
  std::vector<uint32_t> big(kDegree), attrs(kDegree);
  for (uint32_t k = 0; k < kDegree; ++k) {
    big[k] = k * 4000u + (k % 7);  // spread up to ~4e9, strictly increasing
    attrs[k] = k % 1000;
  }
  g.AddNode({5, 9}, {1, 2});
  g.AddNode(big, attrs);
  g.AddNode({}, {});
  g.AddNode({0}, {7});
  std::string path = tmp.File("hub.adj");
  ASSERT_TRUE(Write(path, g, 64).ok());
  Adjacency adj;
  ASSERT_TRUE(adj.Open(path, TestId(path)).ok());
  EXPECT_EQ(adj.max_degree(), kDegree);
  EXPECT_EQ(adj.num_edges(), kDegree + 3u);
  for (uint64_t n = 0; n < 4; ++n) ExpectSame(adj, g, n);
  // A second, differently blocked copy.
  ASSERT_TRUE(Write(path, g, 1).ok());
  Adjacency adj1;
  ASSERT_TRUE(adj1.Open(path, TestId(path)).ok());
  for (uint64_t n = 0; n < 4; ++n) ExpectSame(adj1, g, n);
}

// A block is stored compressed only when zstd halves it: every other block
// is read in place, without a zstd frame to decode. zstd is not even tried
// on a block whose bytes are near 8 bits of order-0 entropy each
// (delta-coded ids): such blocks stay raw, even the rare one that zstd
// would halve through repeats alone.
TEST(AdjacencyTest, BlocksAreCompressedOnlyWhenZstdHalvesThem) {
  ScopedTempDir tmp;
  std::mt19937_64 rng(5);
  CsrGraph g;
  // Block 0: the same run of ids in every list, which zstd shrinks many times.
  for (int n = 0; n < 8; ++n) {
    std::vector<uint32_t> run(300), attrs(300, 3);
    for (uint32_t k = 0; k < 300; ++k) run[k] = 1000 + 2 * k;
    g.AddNode(run, attrs);
  }
  // Block 1: random ids with random attributes, which it shrinks by far less.
  CsrGraph noise = RandomGraph(rng, 8, 300, 1u << 30, true);
  for (uint64_t n = 0; n < 8; ++n) {
    std::vector<uint32_t> l = noise.List(n), a = noise.Attrs(n);
    if (l.empty()) l = {7}, a = {9};
    g.AddNode(l, a);
  }
  // Block 2: one list of random ids and attributes 8 times: high-entropy
  // bytes that zstd halves through the repeats.
  std::mt19937_64 rng2(7);
  std::set<uint32_t> distinct;
  while (distinct.size() < 300) distinct.insert(static_cast<uint32_t>(rng2() % (1u << 30)));
  std::vector<uint32_t> ids(distinct.begin(), distinct.end()), attrs;
  for (size_t i = 0; i < ids.size(); ++i) attrs.push_back(static_cast<uint32_t>(rng2() >> 40));
  for (int n = 0; n < 8; ++n) g.AddNode(ids, attrs);
  std::string path = tmp.File("mixed.adj");
  ASSERT_TRUE(Write(path, g, 8).ok());
  Adjacency adj;
  ASSERT_TRUE(adj.Open(path, TestId(path)).ok());
  std::string_view bytes;
  bool raw = true;
  ASSERT_TRUE(adj.StoredBlock(0, &bytes, &raw));
  EXPECT_FALSE(raw) << "a block zstd shrinks many times is stored raw";
  EXPECT_LT(bytes.size(), 8u * 300u / 4);
  ASSERT_TRUE(adj.StoredBlock(1, &bytes, &raw));
  EXPECT_TRUE(raw) << "a block zstd does not halve is compressed (" << bytes.size() << " bytes)";
  ASSERT_TRUE(adj.StoredBlock(2, &bytes, &raw));
  EXPECT_TRUE(raw) << "zstd was tried on a block of high-entropy bytes (" << bytes.size()
                   << " bytes stored)";
  // zstd would have halved it: the check would pass without the gate otherwise.
  std::string out(ZSTD_compressBound(bytes.size()), '\0');
  const size_t n = ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), 3);
  ASSERT_FALSE(ZSTD_isError(n));
  EXPECT_LE(n, bytes.size() / 2);
  for (uint64_t i = 0; i < g.num_nodes; ++i) ExpectSame(adj, g, i);
  ASSERT_TRUE(adj.status().ok());
}

TEST(AdjacencyTest, IdsNearTheTopOfThe32BitRange) {
  ScopedTempDir tmp;
  const uint32_t kMax = 0xFFFFFFFFu;
  CsrGraph g;
  g.AddNode({kMax}, {kMax});
  g.AddNode({0, kMax}, {0, 1});  // one delta of 2^32 - 1
  g.AddNode({kMax - 2, kMax - 1, kMax}, {kMax, kMax - 1, 0});
  g.AddNode({}, {});
  g.AddNode({1u << 31, (1u << 31) + 1, kMax}, {3, 2, 1});
  for (uint32_t npb : {1u, 2u, 64u}) {
    std::string path = tmp.File("top" + std::to_string(npb) + ".adj");
    ASSERT_TRUE(Write(path, g, npb).ok());
    Adjacency adj;
    ASSERT_TRUE(adj.Open(path, TestId(path)).ok());
    for (uint64_t n = 0; n < g.num_nodes; ++n) ExpectSame(adj, g, n);
  }
}

TEST(AdjacencyTest, CorruptOrMissingFilesFailToOpen) {
  ScopedTempDir tmp;
  std::mt19937_64 rng(5);
  CsrGraph g = RandomGraph(rng, 300, 30, 5000, true);
  std::string good = tmp.File("good.adj");
  const FileIdentity id = TestId(good);
  ASSERT_TRUE(Write(good, g, 7).ok());
  std::string bytes = ReadFile(good);
  ASSERT_GT(bytes.size(), Adjacency::kHeaderSize + kCheckedFooterSize + 16);
  {
    Adjacency adj;
    ASSERT_TRUE(adj.Open(good, id).ok());
  }
  auto open_as = [&](const std::string& name, std::string_view content, const FileIdentity& as) {
    std::string path = tmp.File(name);
    WriteFile(path, content);
    Adjacency adj;
    return adj.Open(path, as);
  };
  // Truncations anywhere, by one byte, trailing garbage: the footer no longer
  // describes the file.
  for (size_t keep : {size_t{0}, size_t{10}, Adjacency::kHeaderSize, bytes.size() / 2,
                      bytes.size() - kCheckedFooterSize, bytes.size() - 1}) {
    Status st = open_as("cut" + std::to_string(keep) + ".adj", bytes.substr(0, keep), id);
    EXPECT_EQ(st.code(), Code::kCorruption) << "kept " << keep << " of " << bytes.size();
  }
  EXPECT_EQ(open_as("long.adj", bytes + "xyz", id).code(), Code::kCorruption);
  // A file of another store, another build or another relation is refused.
  FileIdentity other = id;
  other.store[0] ^= 1;
  EXPECT_EQ(open_as("store.adj", bytes, other).code(), Code::kCorruption);
  other = id;
  other.build = 2;
  EXPECT_EQ(open_as("build.adj", bytes, other).code(), Code::kCorruption);
  other = id;
  other.name = "cites.in.adj";
  Status st = open_as("name.adj", bytes, other);
  EXPECT_EQ(st.code(), Code::kCorruption);
  EXPECT_NE(st.message().find("name.adj"), std::string::npos) << st.message();
  // A checked file whose payload is not an adjacency file.
  {
    std::string bad = Payload(good);
    bad[0] = 'X';
    std::string path = tmp.File("magic.adj");
    ASSERT_TRUE(WriteCheckedFile(path, id, bad).ok());
    Adjacency adj;
    EXPECT_EQ(adj.Open(path, id).code(), Code::kCorruption);
  }
  // Missing file: an error, never an empty relation.
  {
    Adjacency adj;
    EXPECT_FALSE(adj.Open(tmp.File("missing.adj"), id).ok());
  }
}

// A damaged block reads as empty and latches a Corruption status naming the
// file; nothing throws and nothing is read outside the mapping.
TEST(AdjacencyTest, CorruptBlocksReportOnRead) {
  ScopedTempDir tmp;
  std::mt19937_64 rng(11);
  CsrGraph g = RandomGraph(rng, 100, 30, 5000, true);
  std::string path = tmp.File("g.adj");
  const FileIdentity id = TestId(path);
  ASSERT_TRUE(Write(path, g, 10).ok());
  const std::string bytes = ReadFile(path);
  const std::string payload = Payload(path);
  uint64_t index_off = 0;
  std::memcpy(&index_off, payload.data() + 48, 8);
  ASSERT_LT(index_off, payload.size());
  // One flipped byte in any page: the page checksum catches it on first read.
  for (size_t at : {Adjacency::kHeaderSize + 3, payload.size() / 2, payload.size() - 1}) {
    std::string bad = bytes;
    bad[at] ^= 0x10;
    std::string p = tmp.File("flip" + std::to_string(at) + ".adj");
    WriteFile(p, bad);
    Adjacency adj;
    Status st = adj.Open(p, id);
    if (st.ok()) {
      for (uint64_t n = 0; n < g.num_nodes; ++n) adj.Neighbours(n);
      st = adj.status();
    }
    EXPECT_EQ(st.code(), Code::kCorruption) << at;
    EXPECT_NE(st.message().find(p), std::string::npos) << st.message();
  }
  // Checksums intact but every data byte wrong (a writer bug, not damage):
  // the format's own checks report it.
  {
    std::string bad = payload;
    for (size_t i = Adjacency::kHeaderSize; i < index_off; ++i) bad[i] = '\xFF';
    std::string p = tmp.File("data.adj");
    ASSERT_TRUE(WriteCheckedFile(p, id, bad).ok());
    Adjacency adj;
    ASSERT_TRUE(adj.Open(p, id).ok());
    for (uint64_t n = 0; n < g.num_nodes; n += 5) {
      EXPECT_EQ(adj.Neighbours(n).size(), 0u) << n;
      EXPECT_EQ(adj.status().code(), Code::kCorruption) << n;
    }
    EXPECT_NE(adj.status().message().find("data.adj"), std::string::npos) << adj.status().message();
  }
  // Block offsets running backwards.
  {
    std::string bad = payload;
    uint64_t huge = index_off + 1000;
    std::memcpy(&bad[index_off + 8], &huge, 8);  // start of block 1
    std::string p = tmp.File("index.adj");
    ASSERT_TRUE(WriteCheckedFile(p, id, bad).ok());
    Adjacency adj;
    Status st = adj.Open(p, id);
    if (st.ok()) {
      EXPECT_EQ(adj.Neighbours(10).size(), 0u);
      st = adj.status();
    }
    EXPECT_EQ(st.code(), Code::kCorruption);
  }
}

// Open() promises to validate the header, but index_bytes = (num_blocks + 1)
// * 8 is computed without an overflow check.
TEST(AdjacencyTest, HeaderWithOverflowingBlockCountFailsToOpen) {
  ScopedTempDir tmp;
  std::string file(72, '\0');
  const char magic[8] = {'L', 'G', 'A', 'D', 'J', 0, 0, 2};
  std::memcpy(&file[0], magic, 8);
  const uint64_t nodes = uint64_t{1} << 61, edges = 0, blocks = uint64_t{1} << 61;
  const uint32_t per_block = 1;
  std::memcpy(&file[8], &nodes, 8);
  std::memcpy(&file[16], &edges, 8);
  std::memcpy(&file[24], &blocks, 8);
  std::memcpy(&file[32], &per_block, 4);
  const std::string path = tmp.File("overflow.adj");
  ASSERT_TRUE(WriteCheckedFile(path, TestId(path), file).ok());
  Adjacency adj;
  Status st = adj.Open(path, TestId(path));
  EXPECT_FALSE(st.ok()) << "opened with " << adj.num_nodes() << " nodes";
}

TEST(AdjacencyTest, RandomAccessAcrossManyBlocksUsesTheCacheCorrectly) {
  ScopedTempDir tmp;
  std::mt19937_64 rng(99);
  // 3000 nodes in blocks of 7: 429 blocks, far more than a 48 KiB cache holds.
  CsrGraph g = RandomGraph(rng, 3000, 25, 1u << 31, true);
  std::string path = tmp.File("many.adj");
  ASSERT_TRUE(Write(path, g, 7).ok());
  Adjacency adj;
  ASSERT_TRUE(adj.Open(path, TestId(path)).ok());
  adj.set_cache_bytes(48 << 10);
  std::uniform_int_distribution<uint64_t> pick(0, g.num_nodes - 1);
  for (int i = 0; i < 20000; ++i) {
    uint64_t n = pick(rng);
    ExpectSame(adj, g, n);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // Many more decodes than blocks: blocks were evicted and decoded again.
  EXPECT_GT(adj.blocks_decoded(), 429u);
  // A small working set stays cached: re-reading it decodes nothing new.
  for (uint64_t n = 0; n < 7 * 10; ++n) ExpectSame(adj, g, n);
  uint64_t before = adj.blocks_decoded();
  for (int round = 0; round < 5; ++round)
    for (uint64_t n = 0; n < 7 * 10; ++n) ExpectSame(adj, g, n);
  EXPECT_EQ(adj.blocks_decoded(), before);
  // Sweeps in both directions.
  for (uint64_t n = 0; n < g.num_nodes; ++n) ExpectSame(adj, g, n);
  for (uint64_t n = g.num_nodes; n-- > 0;) ExpectSame(adj, g, n);
}

TEST(AdjacencyTest, OnceReadsAListWithoutKeepingIt) {
  ScopedTempDir tmp;
  std::mt19937_64 rng(7);
  CsrGraph g = RandomGraph(rng, 200, 30, 1u << 20, true);
  std::string path = tmp.File("once.adj");
  ASSERT_TRUE(Write(path, g, 1).ok());  // a block per node: decodes count list reads
  Adjacency adj;
  ASSERT_TRUE(adj.Open(path, TestId(path)).ok());
  auto expect_list = [&](Adjacency::List l, uint64_t n) {
    EXPECT_EQ(std::vector<uint32_t>(l.ids.begin(), l.ids.end()), g.List(n)) << "node " << n;
    EXPECT_EQ(std::vector<uint32_t>(l.attrs.begin(), l.attrs.end()), g.Attrs(n)) << "node " << n;
  };
  for (uint64_t n = 0; n < g.num_nodes; ++n) expect_list(adj.Once(n), n);
  EXPECT_EQ(adj.Once(g.num_nodes).size(), 0u);
  // Nothing was kept: a list read again is decoded again.
  adj.Once(5);
  adj.Once(6);
  uint64_t before = adj.blocks_decoded();
  expect_list(adj.Once(5), 5);
  EXPECT_EQ(adj.blocks_decoded(), before + 1);
  // A list Neighbours() kept is served from the cache, with no decoding.
  expect_list(adj.Neighbours(7), 7);
  adj.Once(8);
  before = adj.blocks_decoded();
  expect_list(adj.Once(7), 7);
  EXPECT_EQ(adj.blocks_decoded(), before);
}

TEST(RelInfoTest, EveryRelationHasAFileAndConsistentDirections) {
  std::set<std::string> files;
  for (int i = 0; i < kRelCount; ++i) {
    const RelInfo& r = GetRelInfo(static_cast<Rel>(i));
    EXPECT_EQ(static_cast<int>(r.rel), i);
    EXPECT_TRUE(files.insert(r.file).second) << r.file;
    EXPECT_NE(std::string(r.label), "");
  }
  EXPECT_EQ(GetRelInfo(Rel::kCitesOut).from, NodeType::kPaper);
  EXPECT_TRUE(GetRelInfo(Rel::kCitesOut).forward);
  EXPECT_FALSE(GetRelInfo(Rel::kCitesIn).forward);
  EXPECT_EQ(GetRelInfo(Rel::kAuthoredPapers).from, NodeType::kAuthor);
  EXPECT_EQ(GetRelInfo(Rel::kAuthoredPapers).to, NodeType::kPaper);
}

// ---- Ranked lists -------------------------------------------------------------

TEST(RankedListsTest, RoundTripsListsInTheirOwnOrder) {
  ScopedTempDir tmp;
  std::mt19937 rng(5);
  for (bool with_attrs : {false, true}) {
    // Node n has a list when n % 3 == 0: ids in a shuffled order (not sorted),
    // large ids included; other nodes have none.
    const uint64_t n = 500;
    std::vector<uint64_t> offsets(n + 1, 0);
    std::vector<uint32_t> ids, attrs;
    for (uint64_t v = 0; v < n; ++v) {
      offsets[v] = ids.size();
      if (v % 3 != 0) continue;
      size_t len = 1 + rng() % 40;
      for (size_t k = 0; k < len; ++k) {
        ids.push_back(k == 0 ? 0xFFFFFFFFu : static_cast<uint32_t>(rng()));
        if (with_attrs) attrs.push_back(static_cast<uint32_t>(rng() % 1000));
      }
    }
    offsets[n] = ids.size();
    const std::string path = tmp.File(with_attrs ? "a.ranked" : "b.ranked");
    ASSERT_TRUE(WriteRankedLists(path, TestId(path), n, offsets, ids, attrs, 40).ok());
    RankedLists r;
    ASSERT_TRUE(r.Open(path, TestId(path)).ok());
    EXPECT_EQ(r.lists(), (n + 2) / 3);
    EXPECT_EQ(r.length(), 40u);
    for (uint64_t v = 0; v < n + 5; ++v) {
      RankedLists::Cursor c = r.Find(static_cast<uint32_t>(v));
      std::vector<uint32_t> got_ids, got_attrs;
      uint32_t id, attr;
      while (c.Next(&id, &attr)) {
        got_ids.push_back(id);
        got_attrs.push_back(attr);
      }
      if (v >= n || v % 3 != 0) {
        EXPECT_TRUE(c.empty());
        EXPECT_TRUE(got_ids.empty()) << v;
        continue;
      }
      std::vector<uint32_t> want(ids.begin() + offsets[v], ids.begin() + offsets[v + 1]);
      EXPECT_EQ(got_ids, want) << v;
      if (with_attrs) {
        EXPECT_EQ(got_attrs,
                  std::vector<uint32_t>(attrs.begin() + offsets[v], attrs.begin() + offsets[v + 1]))
            << v;
      }
    }
  }
}

// RankList (the ranked list of one hub list) against a full sort by its
// rule: attribute rank descending, citations descending, id ascending; with
// many ties at the cut, papers beyond paper.citations, and lists of exactly
// and just over the length.
TEST(RankedListsTest, RankListTakesTheFirstEntriesOfTheFullOrder) {
  std::mt19937 rng(11);
  std::vector<uint32_t> citations(5000);
  for (uint32_t& c : citations)
    c = static_cast<uint32_t>(rng() % 6) | (rng() % 2 ? kCitationsFromStoreBit : 0u);
  for (Rel rel : {Rel::kSourcePapers, Rel::kTopicPapers, Rel::kCoauthor}) {
    const bool with_attrs = GetRelInfo(rel).attr != nullptr && GetRelInfo(rel).attr[0] != '\0';
    for (size_t len : {40, 41, 200, 3000}) {
      std::vector<uint32_t> ids;
      for (uint32_t v = 0; ids.size() < len; v += 1 + rng() % 3) ids.push_back(v);  // some > 5000
      if (len == 3000) std::shuffle(ids.begin(), ids.end(), rng);  // any order ranks the same
      std::vector<uint32_t> attrs;
      if (with_attrs)
        for (size_t k = 0; k < len; ++k) attrs.push_back(static_cast<uint32_t>(rng() % 4));
      std::vector<uint32_t> got_ids, got_attrs;
      graph_parts::RankList(rel, ids, attrs, citations, 40, &got_ids, &got_attrs);
      std::vector<uint32_t> order(len);
      for (uint32_t i = 0; i < len; ++i) order[i] = i;
      auto cites = [&](uint32_t p) {
        return GetRelInfo(rel).to == NodeType::kPaper && p < citations.size()
                   ? CitationCount(citations[p])
                   : 0u;
      };
      auto rank = [&](uint32_t i) { return with_attrs ? RankedAttr(rel, attrs[i]) : 0u; };
      std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
        if (rank(x) != rank(y)) return rank(x) > rank(y);
        if (cites(ids[x]) != cites(ids[y])) return cites(ids[x]) > cites(ids[y]);
        return ids[x] < ids[y];
      });
      std::vector<uint32_t> want_ids, want_attrs;
      if (len > 40)
        for (size_t k = 0; k < 40; ++k) {
          want_ids.push_back(ids[order[k]]);
          if (with_attrs) want_attrs.push_back(attrs[order[k]]);
        }
      EXPECT_EQ(got_ids, want_ids) << GetRelInfo(rel).file << " " << len;
      EXPECT_EQ(got_attrs, want_attrs) << GetRelInfo(rel).file << " " << len;
    }
  }
}

TEST(RankedListsTest, DamagedFilesFailToOpen) {
  ScopedTempDir tmp;
  std::vector<uint64_t> offsets = {0, 2, 2, 5};
  std::vector<uint32_t> ids = {9, 3, 7, 1, 8};
  const std::string path = tmp.File("x.ranked");
  const FileIdentity id = TestId(path);
  ASSERT_TRUE(WriteRankedLists(path, id, 3, offsets, ids, {}).ok());
  std::string bytes = ReadFile(path);
  RankedLists ok;
  ASSERT_TRUE(ok.Open(path, id).ok());
  WriteFile(tmp.File("short.ranked"), bytes.substr(0, bytes.size() - 1));
  RankedLists a;
  EXPECT_FALSE(a.Open(tmp.File("short.ranked"), id).ok()) << "truncated";
  std::string payload = Payload(path);
  ASSERT_TRUE(WriteCheckedFile(tmp.File("tiny.ranked"), id, payload.substr(0, 20)).ok());
  RankedLists b;
  EXPECT_FALSE(b.Open(tmp.File("tiny.ranked"), id).ok()) << "truncated header";
  payload[0] = 'X';
  ASSERT_TRUE(WriteCheckedFile(tmp.File("magic.ranked"), id, payload).ok());
  RankedLists c;
  EXPECT_FALSE(c.Open(tmp.File("magic.ranked"), id).ok()) << "wrong magic";
  FileIdentity other = id;
  other.name = "cites.in.ranked";
  RankedLists d;
  EXPECT_FALSE(d.Open(path, other).ok()) << "another relation's file";
}

}  // namespace
}  // namespace litgraph
