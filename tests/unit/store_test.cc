// Tests for store.h and ingest.h: opening and migrating stores, upserts,
// staleness, dangling references resolved by later ingests, and the
// atomicity of a failed ingest. Every test works on real files in a fresh
// temporary directory.
#include "litgraph/store.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "litgraph/find.h"
#include "litgraph/generation.h"
#include "litgraph/graph.h"
#include "litgraph/ingest.h"
#include "litgraph/lexical.h"
#include "litgraph/sqlite.h"
#include "litgraph/store_write.h"
#include "litgraph/text.h"
#include "test_util.h"

namespace litgraph {
namespace {

using litgraph::testing::ReadFile;
using litgraph::testing::ScopedTempDir;
using litgraph::testing::TestData;
using litgraph::testing::WriteFile;

std::string Gzip(const std::string& data) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string out(deflateBound(&zs, data.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

std::unique_ptr<Store> OpenStore(const std::string& dir, Store::Mode mode) {
  auto s = Store::Open(dir, mode, /*create=*/mode == Store::Mode::kWrite);
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (!s.ok()) return nullptr;
  return std::move(s.value());
}

Status IngestFiles(Store* store, const std::vector<std::string>& files,
                   IngestStats* stats_out = nullptr) {
  IngestStats stats;
  IngestOptions options;
  Status st = Ingest(store, files, options, &stats);
  if (stats_out) *stats_out = stats;
  return st;
}

// Papers whose title/abstract the graph's BM25 index matches for `query`,
// ascending.
std::vector<int64_t> Bm25Matches(Store* store, const std::string& query) {
  auto view = store->Current("graph");
  EXPECT_TRUE(view.ok() && *view);
  if (!view.ok() || !*view) return {};
  LexicalIndex index;
  EXPECT_TRUE(index.Open(**view).ok());
  std::vector<int64_t> out;
  for (const LexicalHit& h : index.Search(LexicalIndex::QueryTerms(query), 100))
    out.push_back(h.doc);
  std::sort(out.begin(), out.end());
  return out;
}

// ---- Opening --------------------------------------------------------------------

TEST(StoreTest, OpenForWriteCreatesAStore) {
  ScopedTempDir tmp;
  const std::string dir = tmp.File("nested/store");
  {
    auto store = OpenStore(dir, Store::Mode::kWrite);
    ASSERT_TRUE(store);
    EXPECT_EQ(store->mode(), Store::Mode::kWrite);
    EXPECT_EQ(store->dir(), dir);
    EXPECT_EQ(store->db().QueryInt("PRAGMA user_version"), kSchemaVersion);
    EXPECT_EQ(store->GetMeta("schema_version"), std::to_string(kSchemaVersion));
    EXPECT_EQ(store->PaperCount(), 0);
    EXPECT_EQ(store->Generation("graph"), 0);
    EXPECT_EQ(store->MaxId(NodeType::kPaper), 0);
  }
  EXPECT_TRUE(std::filesystem::exists(dir + "/litgraph.sqlite"));
  auto reader = OpenStore(dir, Store::Mode::kRead);
  ASSERT_TRUE(reader);
  EXPECT_EQ(reader->PaperCount(), 0);
}

TEST(StoreTest, OpenForReadFailsWithoutAStore) {
  ScopedTempDir tmp;
  auto empty = Store::Open(tmp.path(), Store::Mode::kRead);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), Code::kIoError);
  EXPECT_NE(empty.status().message().find(tmp.path()), std::string::npos);
  auto missing = Store::Open(tmp.File("does-not-exist"), Store::Mode::kRead);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), Code::kIoError);
  EXPECT_FALSE(std::filesystem::exists(tmp.File("does-not-exist")));  // read never creates
}

// A store as an older litgraph wrote it at schema `version`: its
// migrations, then `sql` (its rows).
void MakeOldStore(const std::string& dir, int version, const std::string& sql) {
  std::filesystem::create_directories(dir);
  Db db;
  ASSERT_TRUE(db.Open(dir + "/litgraph.sqlite", true, true).ok());
  for (int v = 0; v < version; ++v) db.Exec(SchemaMigrations()[v]);
  db.Exec(fmt::format("PRAGMA user_version = {};", version));
  db.Exec(fmt::format("INSERT OR REPLACE INTO meta(key, value) VALUES('schema_version', '{}')",
                      version));
  db.Exec(sql);
}

// A version-1 store: only the first migration.
void MakeV1Store(const std::string& dir) {
  MakeOldStore(dir, 1,
               "INSERT INTO paper(ext_id, title, title_key, year) VALUES('OLD-1', 'An old paper', "
               "'anoldpaper', 1999)");
}

TEST(StoreTest, MigratesVersionOneStoreOnWriteOpen) {
  ScopedTempDir tmp;
  const std::string dir = tmp.path();
  MakeV1Store(dir);
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  ASSERT_GE(SchemaMigrations().size(), 2u);
  ASSERT_EQ(static_cast<int>(SchemaMigrations().size()), kSchemaVersion);

  // A reader refuses the unmigrated store.
  auto reader = Store::Open(dir, Store::Mode::kRead);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), Code::kIoError);
  EXPECT_NE(reader.status().message().find("migrat"), std::string::npos)
      << reader.status().message();

  {
    auto store = OpenStore(dir, Store::Mode::kWrite);
    ASSERT_TRUE(store);
    EXPECT_EQ(store->db().QueryInt("PRAGMA user_version"), kSchemaVersion);
    EXPECT_EQ(store->GetMeta("schema_version"), std::to_string(kSchemaVersion));
    EXPECT_EQ(store->PaperCount(), 1);
    auto id = store->PaperByExtId("OLD-1");
    ASSERT_TRUE(id);
    EXPECT_EQ(store->GetPaperSummary(*id)->title, "An old paper");
    EXPECT_EQ(store->db().QueryInt(
                  "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='keyword'"),
              1);
    EXPECT_EQ(store->db().QueryInt("SELECT count(*) FROM keyword"), 0);
    EXPECT_EQ(store->db().QueryInt("SELECT count(*) FROM paper_keyword"), 0);
  }
  // Migrating twice is a no-op; a reader now accepts the store.
  {
    auto store = OpenStore(dir, Store::Mode::kWrite);
    ASSERT_TRUE(store);
    EXPECT_EQ(store->PaperCount(), 1);
  }
  auto reader2 = OpenStore(dir, Store::Mode::kRead);
  ASSERT_TRUE(reader2);
  EXPECT_TRUE(reader2->PaperByExtId("OLD-1"));
}

// A version-5 store (as litgraph wrote them until paper_fts went) is read as
// it is; the first writer drops its FTS5 table.
TEST(StoreTest, ReadsAVersionFiveStoreAndDropsItsFtsTableOnWriteOpen) {
  ScopedTempDir tmp;
  const std::string dir = tmp.path();
  MakeOldStore(dir, 5,
               "CREATE VIRTUAL TABLE paper_fts USING fts5(title, abstract, content='paper',"
               " content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');"
               "INSERT INTO paper(ext_id, title, title_key) VALUES('V5-1', 'Walrus', 'walrus');"
               "INSERT INTO paper_fts(rowid, title) VALUES(1, 'Walrus');");
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  auto fts_tables = [](Store* s) {
    return s->db().QueryInt("SELECT count(*) FROM sqlite_master WHERE name = 'paper_fts'");
  };
  {
    auto reader = OpenStore(dir, Store::Mode::kRead);
    ASSERT_TRUE(reader);
    EXPECT_TRUE(reader->PaperByExtId("V5-1"));
    EXPECT_EQ(fts_tables(reader.get()), 1);
  }
  auto writer = OpenStore(dir, Store::Mode::kWrite);
  ASSERT_TRUE(writer);
  EXPECT_EQ(writer->db().QueryInt("PRAGMA user_version"), kSchemaVersion);
  EXPECT_EQ(fts_tables(writer.get()), 0);
  EXPECT_TRUE(writer->PaperByExtId("V5-1"));
}

// A version-6 store: a reader finds the papers without keywords by a scan;
// the first writer lists them in keyword_pending and makes the keyword
// counts exact, which KeywordWriter then keeps.
TEST(StoreTest, MigratesAVersionSixStoreToKeptKeywordBookkeeping) {
  ScopedTempDir tmp;
  const std::string dir = tmp.path();
  MakeOldStore(dir, 6,
               "INSERT INTO paper(id, ext_id, title, title_key) VALUES(1, 'P1', 'a', 'a'),"
               " (2, 'P2', 'b', 'b'), (3, 'P3', 'c', 'c');"
               "INSERT INTO keyword(id, ext_id, text, paper_count) VALUES(1, 'kw:k1', 'k1', 7),"
               " (2, 'kw:k2', 'k2', 0), (3, 'kw:k3', 'k3', 1);"
               "INSERT INTO paper_keyword(paper_id, keyword_id, score) VALUES(1, 1, 5),"
               " (1, 2, 4), (3, 2, 3);"
               "INSERT INTO keyword_extracted(paper_id, backend) VALUES(1, 'builtin'),"
               " (3, 'builtin');");
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  {
    auto reader = OpenStore(dir, Store::Mode::kRead);
    ASSERT_TRUE(reader);
    EXPECT_EQ(reader->PaperIdsWithoutKeywords(), std::vector<int64_t>({2}));
  }
  auto writer = OpenStore(dir, Store::Mode::kWrite);
  ASSERT_TRUE(writer);
  Db& db = writer->db();
  EXPECT_EQ(db.QueryInt("PRAGMA user_version"), kSchemaVersion);
  EXPECT_EQ(db.QueryInt("SELECT count(*) FROM keyword_pending"), 1);
  EXPECT_EQ(writer->PaperIdsWithoutKeywords(), std::vector<int64_t>({2}));
  auto counts = [&] {
    std::vector<int64_t> out;
    Stmt st = db.Prepare("SELECT paper_count FROM keyword ORDER BY id");
    while (st.Step()) out.push_back(st.Int(0));
    return out;
  };
  EXPECT_EQ(counts(), std::vector<int64_t>({1, 2, 0}));
  // The writer keeps the counts exact: paper 3's keywords go from {k2} to
  // {k1, k3}, and paper 1's are written again unchanged. Paper 2 is still
  // pending.
  KeywordWriter kw(writer.get(), "builtin", 1 << 20, /*keep_counts=*/true);
  Keyword k1, k3;
  k1.text = "k1";
  k3.text = "k3";
  EXPECT_EQ(kw.Write(3, {k1, k3, k3}), 2);
  EXPECT_EQ(kw.Write(1, {k1}), 1);
  kw.ApplyCounts();
  EXPECT_EQ(counts(), std::vector<int64_t>({2, 0, 1}));
  EXPECT_EQ(KeywordsInUse(writer.get()), 2);
  EXPECT_EQ(writer->PaperIdsWithoutKeywords(), std::vector<int64_t>({2}));
  EXPECT_EQ(kw.Write(2, {}), 0);  // no keywords, but extracted
  EXPECT_TRUE(writer->PaperIdsWithoutKeywords().empty());
}

TEST(StoreTest, RefusesNewerSchema) {
  ScopedTempDir tmp;
  { auto store = OpenStore(tmp.path(), Store::Mode::kWrite); }
  {
    Db db;
    ASSERT_TRUE(db.Open(tmp.File("litgraph.sqlite"), true, false).ok());
    db.Exec("PRAGMA user_version = " + std::to_string(kSchemaVersion + 7));
  }
  for (Store::Mode mode : {Store::Mode::kRead, Store::Mode::kWrite}) {
    auto s = Store::Open(tmp.path(), mode);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.status().code(), Code::kIoError);
    EXPECT_NE(s.status().message().find("newer"), std::string::npos) << s.status().message();
  }
}

// ---- Upserts ------------------------------------------------------------------------

TEST(IngestTest, NativeReingestUpdatesInPlace) {
  ScopedTempDir tmp;
  const std::string dir = tmp.File("db");
  WriteFile(
      tmp.File("v1.jsonl"),
      R"({"id": "N1", "title": "Quantum walrus migration", "abstract": "Seals too.", "year": 2001, "authors": ["Ann Author"]})"
      "\n"
      R"({"id": "N2", "title": "Unrelated paper", "year": 2002})"
      "\n");
  WriteFile(
      tmp.File("v2.jsonl"),
      R"({"id": "N1", "title": "Penguin colonies revisited", "abstract": "Seals too.", "year": 2003, "authors": ["Bob Writer", "Ann Author"]})"
      "\n");
  auto store = OpenStore(dir, Store::Mode::kWrite);
  ASSERT_TRUE(store);
  IngestStats s1;
  ASSERT_TRUE(IngestFiles(store.get(), {tmp.File("v1.jsonl")}, &s1).ok());
  EXPECT_EQ(s1.works_new, 2);
  EXPECT_EQ(s1.works_updated, 0);
  auto id = store->PaperByExtId("N1");
  ASSERT_TRUE(id);
  EXPECT_EQ(Bm25Matches(store.get(), "walrus"), std::vector<int64_t>{*id});

  IngestStats s2;
  ASSERT_TRUE(IngestFiles(store.get(), {tmp.File("v2.jsonl")}, &s2).ok());
  EXPECT_EQ(s2.works_new, 0);
  EXPECT_EQ(s2.works_updated, 1);
  EXPECT_EQ(store->PaperCount(), 2);
  EXPECT_EQ(store->PaperByExtId("N1"), id);  // same dense id
  auto p = store->GetPaperSummary(*id);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->title, "Penguin colonies revisited");
  EXPECT_EQ(p->year, 2003);
  EXPECT_EQ(p->authors, (std::vector<std::string>{"Bob Writer", "Ann Author"}));
  EXPECT_EQ(store->PapersByTitleKey("penguincoloniesrevisited"), std::vector<int64_t>{*id});
  EXPECT_TRUE(store->PapersByTitleKey("quantumwalrusmigration").empty());
  // Full-text search sees the new title only; the unchanged abstract once.
  EXPECT_EQ(Bm25Matches(store.get(), "penguin"), std::vector<int64_t>{*id});
  EXPECT_TRUE(Bm25Matches(store.get(), "walrus").empty());
  EXPECT_EQ(Bm25Matches(store.get(), "seals"), std::vector<int64_t>{*id});
}

// The writer inserts before it looks once its cache's misses keep being new
// authors; a known author met after such a run (here: a store's own author
// the second ingest's writer has not cached) is found, not duplicated, and
// its name is indexed once.
TEST(IngestTest, AKnownAuthorAfterARunOfNewOnesKeepsItsRow) {
  ScopedTempDir tmp;
  std::string v1, v2;
  for (int k = 0; k < 100; ++k) {
    v1 += fmt::format(R"({{"id": "O{}", "title": "Old paper {}", "authors": ["Old Author{}"]}})", k,
                      k, k) +
          "\n";
    v2 += fmt::format(R"({{"id": "N{}", "title": "New paper {}", "authors": ["New Author{}"]}})", k,
                      k, k) +
          "\n";
  }
  v2 += R"({"id": "L", "title": "Last paper", "authors": ["Old Author5", "New Author3"]})"
        "\n";
  WriteFile(tmp.File("v1.jsonl"), v1);
  WriteFile(tmp.File("v2.jsonl"), v2);
  auto store = OpenStore(tmp.File("db"), Store::Mode::kWrite);
  ASSERT_TRUE(store);
  IngestStats s1, s2;
  ASSERT_TRUE(IngestFiles(store.get(), {tmp.File("v1.jsonl")}, &s1).ok());
  auto old_id = store->db().QueryInt(
      "SELECT author_id FROM authorship a JOIN paper p"
      " ON p.id = a.paper_id WHERE p.ext_id = 'O5'");
  ASSERT_TRUE(old_id);
  ASSERT_TRUE(IngestFiles(store.get(), {tmp.File("v2.jsonl")}, &s2).ok());
  EXPECT_EQ(store->db().QueryInt("SELECT count(*) FROM author"), 200);
  EXPECT_EQ(store->db().QueryInt("SELECT count(*) FROM author_fts"), 200);
  EXPECT_EQ(store->db().QueryInt("SELECT author_id FROM authorship a JOIN paper p"
                                 " ON p.id = a.paper_id WHERE p.ext_id = 'L' AND a.position = 0"),
            *old_id);
  EXPECT_EQ(store->db().QueryInt("SELECT a.author_id = b.author_id FROM authorship a, authorship b,"
                                 " paper p, paper q WHERE p.id = a.paper_id AND q.id = b.paper_id"
                                 " AND p.ext_id = 'L' AND a.position = 1 AND q.ext_id = 'N3'"),
            1);
}

// A store loaded with --no-graph has no text index yet: a text query says
// so (not found), instead of answering nothing.
TEST(IngestTest, TextQueriesOfAStoreWithoutAGraphSayThereIsNoIndex) {
  ScopedTempDir tmp;
  WriteFile(tmp.File("w.jsonl"), R"({"id": "N1", "title": "Quantum walrus migration"})"
                                 "\n");
  auto store = OpenStore(tmp.File("db"), Store::Mode::kWrite);
  ASSERT_TRUE(store);
  IngestOptions o;
  o.build_graph = false;
  IngestStats stats;
  ASSERT_TRUE(Ingest(store.get(), {tmp.File("w.jsonl")}, o, &stats).ok());
  PaperFinder finder(store.get());
  FindQuery q;
  q.text = "walrus";
  auto hits = finder.Find(q);
  ASSERT_FALSE(hits.ok());
  EXPECT_EQ(hits.status().code(), Code::kNotFound);
  EXPECT_NE(hits.status().message().find("no full-text index"), std::string::npos)
      << hits.status().message();
  PaperFinder again(store.get());
  FindQuery by_title;  // an exact title needs no index
  by_title.title = "Quantum walrus migration";
  auto exact = again.Find(by_title);
  ASSERT_TRUE(exact.ok()) << exact.status().message();
  ASSERT_EQ(exact->size(), 1u);
}

TEST(IngestTest, OpenAlexStaleVersionIsSkipped) {
  ScopedTempDir tmp;
  WriteFile(
      tmp.File("new.jsonl"),
      R"({"id": "https://openalex.org/W100", "title": "Fresh title", "updated_date": "2024-05-01T00:00:00", "cited_by_count": 5})"
      "\n");
  WriteFile(
      tmp.File("old.jsonl"),
      R"({"id": "https://openalex.org/W100", "title": "Stale title", "updated_date": "2023-01-01T00:00:00", "cited_by_count": 1})"
      "\n");
  WriteFile(
      tmp.File("newer.jsonl"),
      R"({"id": "https://openalex.org/W100", "title": "Newest title", "updated_date": "2025-01-01T00:00:00"})"
      "\n");
  auto store = OpenStore(tmp.File("db"), Store::Mode::kWrite);
  ASSERT_TRUE(store);
  ASSERT_TRUE(IngestFiles(store.get(), {tmp.File("new.jsonl")}).ok());
  auto id = store->PaperByExtId("W100");
  ASSERT_TRUE(id);

  IngestStats stale;
  ASSERT_TRUE(IngestFiles(store.get(), {tmp.File("old.jsonl")}, &stale).ok());
  EXPECT_EQ(stale.works_stale, 1);
  EXPECT_EQ(stale.works, 0);
  EXPECT_EQ(store->GetPaperSummary(*id)->title, "Fresh title");
  EXPECT_EQ(store->GetPaperSummary(*id)->cited_by_count, 5);
  EXPECT_TRUE(Bm25Matches(store.get(), "stale").empty());

  IngestStats newer;
  ASSERT_TRUE(IngestFiles(store.get(), {tmp.File("newer.jsonl")}, &newer).ok());
  EXPECT_EQ(newer.works_stale, 0);
  EXPECT_EQ(newer.works_updated, 1);
  EXPECT_EQ(store->PaperByExtId("W100"), id);
  EXPECT_EQ(store->GetPaperSummary(*id)->title, "Newest title");
}

TEST(IngestTest, DanglingReferenceIsLinkedWhenTheCitedWorkArrives) {
  ScopedTempDir tmp;
  WriteFile(tmp.File("b.jsonl"),
            R"({"id": "B", "title": "Citing paper", "references": ["X1", "A"]})"
            "\n"
            R"({"id": "A", "title": "Present cited paper"})"
            "\n");
  WriteFile(tmp.File("x1.jsonl"), R"({"id": "X1", "title": "Late arrival"})"
                                  "\n");
  auto store = OpenStore(tmp.File("db"), Store::Mode::kWrite);
  ASSERT_TRUE(store);
  IngestStats s1;
  ASSERT_TRUE(IngestFiles(store.get(), {tmp.File("b.jsonl")}, &s1).ok());
  EXPECT_EQ(s1.dangling_references, 1);
  EXPECT_EQ(s1.cites_edges, 1);
  const uint32_t b = static_cast<uint32_t>(*store->PaperByExtId("B"));
  const uint32_t a = static_cast<uint32_t>(*store->PaperByExtId("A"));
  {
    auto g = Graph::Open(store.get());
    ASSERT_TRUE(g.ok()) << g.status().message();
    auto l = (*g)->adj(Rel::kCitesOut).Neighbours(b);
    EXPECT_EQ(std::vector<uint32_t>(l.ids.begin(), l.ids.end()), std::vector<uint32_t>{a});
  }
  const int64_t gen1 = store->Generation("graph");

  IngestStats s2;
  ASSERT_TRUE(IngestFiles(store.get(), {tmp.File("x1.jsonl")}, &s2).ok());
  EXPECT_EQ(s2.dangling_references, 0);
  EXPECT_EQ(s2.cites_edges, 2);
  EXPECT_GT(store->Generation("graph"), gen1);
  const uint32_t x1 = static_cast<uint32_t>(*store->PaperByExtId("X1"));
  auto g = Graph::Open(store.get());
  ASSERT_TRUE(g.ok()) << g.status().message();
  auto out = (*g)->adj(Rel::kCitesOut).Neighbours(b);
  std::vector<uint32_t> cited(out.ids.begin(), out.ids.end());
  std::vector<uint32_t> want = {a, x1};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(cited, want);
  auto in = (*g)->adj(Rel::kCitesIn).Neighbours(x1);
  EXPECT_EQ(std::vector<uint32_t>(in.ids.begin(), in.ids.end()), std::vector<uint32_t>{b});
  // No record counts: citations come from the store.
  EXPECT_EQ((*g)->Citations(x1), 1u);
  EXPECT_FALSE((*g)->CitationsFromRecord(x1));
}

TEST(IngestTest, FailedIngestLeavesStoreUnchanged) {
  ScopedTempDir tmp;
  const std::string dir = tmp.File("db");
  WriteFile(tmp.File("base.jsonl"), R"({"id": "P1", "title": "Base one"})"
                                    "\n"
                                    R"({"id": "P2", "title": "Base two", "references": ["P1"]})"
                                    "\n");
  WriteFile(tmp.File("good.jsonl"), R"({"id": "P3", "title": "Would be new"})"
                                    "\n");
  WriteFile(tmp.File("bad.jsonl"), R"({"id": "P4", "title": "Also new"})"
                                   "\n"
                                   R"({"id": "P1", "title": "Overwrite attempt"})"
                                   "\n"
                                   R"({"id": "P5", "title": })"
                                   "\n"
                                   R"({"id": "P6", "title": "After the error"})"
                                   "\n");
  int64_t gen_before = 0;
  {
    auto store = OpenStore(dir, Store::Mode::kWrite);
    ASSERT_TRUE(store);
    ASSERT_TRUE(IngestFiles(store.get(), {tmp.File("base.jsonl")}).ok());
    gen_before = store->Generation("graph");
    EXPECT_GT(gen_before, 0);

    Status st = IngestFiles(store.get(), {tmp.File("good.jsonl"), tmp.File("bad.jsonl")});
    EXPECT_EQ(st.code(), Code::kMalformedInput);
    EXPECT_NE(st.message().find(tmp.File("bad.jsonl") + ":3"), std::string::npos) << st.message();
    EXPECT_EQ(st.message().find("good.jsonl"), std::string::npos) << st.message();
  }
  auto reader = OpenStore(dir, Store::Mode::kRead);
  ASSERT_TRUE(reader);
  EXPECT_EQ(reader->PaperCount(), 2);
  EXPECT_FALSE(reader->PaperByExtId("P3"));
  EXPECT_FALSE(reader->PaperByExtId("P4"));
  EXPECT_EQ(reader->GetPaperSummary(*reader->PaperByExtId("P1"))->title, "Base one");
  EXPECT_EQ(reader->Generation("graph"), gen_before);
  auto g = Graph::Open(reader.get());
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ((*g)->adj(Rel::kCitesOut).num_edges(), 1u);
}

// The schema's indexes, as sqlite_master has them.
std::vector<std::string> IndexSql(Store* store) {
  std::vector<std::string> out;
  Stmt st = store->db().Prepare(
      "SELECT name || ': ' || coalesce(sql, '') FROM sqlite_master WHERE type = 'index' ORDER BY "
      "name");
  while (st.Step()) out.push_back(st.Str(0));
  return out;
}

// Into an empty store, ingest drops the secondary indexes for the load and
// builds them after it (ingest.cc): the store ends with exactly the schema's
// indexes, working, and a failed load leaves the empty store as it was.
TEST(IngestTest, BulkLoadRestoresEverySecondaryIndex) {
  ScopedTempDir tmp;
  std::vector<std::string> schema;
  {
    auto fresh = OpenStore(tmp.File("fresh"), Store::Mode::kWrite);
    ASSERT_TRUE(fresh);
    schema = IndexSql(fresh.get());
  }
  ASSERT_GE(schema.size(), 5u);
  EXPECT_NE(std::find_if(schema.begin(), schema.end(),
                         [](const std::string& s) {
                           return s.rfind("paper_title_key: CREATE INDEX", 0) == 0;
                         }),
            schema.end());
  WriteFile(tmp.File("bad.jsonl"), R"({"id": "P1", "title": "One"})"
                                   "\n"
                                   R"({"id": "P2", "title": })"
                                   "\n");
  WriteFile(
      tmp.File("good.jsonl"),
      R"({"id": "P1", "title": "Graph neural networks", "doi": "10.1/abc", "authors": ["Ada Lovelace"]})"
      "\n");
  const std::string dir = tmp.File("db");
  {
    auto store = OpenStore(dir, Store::Mode::kWrite);
    ASSERT_TRUE(store);
    EXPECT_EQ(IngestFiles(store.get(), {tmp.File("bad.jsonl")}).code(), Code::kMalformedInput);
    EXPECT_EQ(store->PaperCount(), 0);
    EXPECT_EQ(IndexSql(store.get()), schema) << "a failed bulk load restores the dropped indexes";
    ASSERT_TRUE(IngestFiles(store.get(), {tmp.File("good.jsonl")}).ok());
    EXPECT_EQ(IndexSql(store.get()), schema);
    // The indexes serve their lookups.
    auto plan = [&](const std::string& sql) {
      Stmt st = store->db().Prepare("EXPLAIN QUERY PLAN " + sql);
      std::string all;
      while (st.Step()) all += st.Str(3) + "; ";
      return all;
    };
    EXPECT_NE(plan("SELECT id FROM paper WHERE title_key = 'x'").find("paper_title_key"),
              std::string::npos);
    EXPECT_NE(plan("SELECT id FROM paper WHERE doi = 'x'").find("paper_doi"), std::string::npos);
    EXPECT_NE(plan("SELECT paper_id FROM authorship WHERE author_id = 1").find("authorship_author"),
              std::string::npos);
    EXPECT_EQ(Bm25Matches(store.get(), "neural"), std::vector<int64_t>{*store->PaperByExtId("P1")});
  }
  auto reader = OpenStore(dir, Store::Mode::kRead);
  ASSERT_TRUE(reader);
  EXPECT_TRUE(reader->PaperByExtId("P1"));
  EXPECT_EQ(reader->PapersByTitleKey(NormalizeTitleKey("Graph neural networks")).size(), 1u);
}

TEST(IngestTest, SkipInvalidCountsAndContinues) {
  ScopedTempDir tmp;
  WriteFile(tmp.File("mixed.jsonl"), R"({"id": "Q1", "title": "ok"})"
                                     "\n"
                                     "not json at all\n"
                                     R"({"id": "Q2", "title": 7})"
                                     "\n"
                                     "\n"
                                     R"({"id": "Q3", "title": "ok too"})"
                                     "\n");
  auto store = OpenStore(tmp.File("db"), Store::Mode::kWrite);
  ASSERT_TRUE(store);
  IngestOptions options;
  options.skip_invalid = true;
  litgraph::testing::RecordingReporter reporter;
  const std::vector<std::string>& warnings = reporter.warnings;
  options.reporter = &reporter;
  IngestStats stats;
  ASSERT_TRUE(Ingest(store.get(), {tmp.File("mixed.jsonl")}, options, &stats).ok());
  EXPECT_EQ(stats.invalid, 2);
  EXPECT_EQ(stats.works_new, 2);
  EXPECT_EQ(store->PaperCount(), 2);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find("mixed.jsonl:2"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[1].find("mixed.jsonl:3"), std::string::npos) << warnings[1];
}

TEST(IngestTest, MissingInputIsIoAndChangesNothing) {
  ScopedTempDir tmp;
  WriteFile(tmp.File("a.jsonl"), R"({"id": "M1", "title": "fine"})"
                                 "\n");
  auto store = OpenStore(tmp.File("db"), Store::Mode::kWrite);
  ASSERT_TRUE(store);
  Status st = IngestFiles(store.get(), {tmp.File("a.jsonl"), tmp.File("nope.jsonl")});
  EXPECT_EQ(st.code(), Code::kIoError);
  EXPECT_NE(st.message().find("nope.jsonl"), std::string::npos) << st.message();
  EXPECT_EQ(store->PaperCount(), 0);
  EXPECT_EQ(store->Generation("graph"), 0);
}

TEST(IngestTest, FixturesLoadAndResolve) {
  ScopedTempDir tmp;
  auto store = OpenStore(tmp.File("db"), Store::Mode::kWrite);
  ASSERT_TRUE(store);
  IngestStats stats;
  // A single-line work, an entity record, and a 200-line JSON-lines file.
  ASSERT_TRUE(
      IngestFiles(store.get(),
                  {TestData("W2741809807.json"), TestData("A5023888391.json"),
                   TestData("C71924100.json"), TestData("search-biodiversity-finance.works.jsonl")},
                  &stats)
          .ok());
  EXPECT_EQ(stats.works, 201);
  EXPECT_EQ(stats.entities, 1);
  EXPECT_EQ(stats.skipped, 1);
  EXPECT_EQ(store->PaperCount(), 201);
  auto id = store->PaperByExtId("W2741809807");
  ASSERT_TRUE(id);
  for (const char* form : {"W2741809807", "https://openalex.org/W2741809807",
                           "https://api.openalex.org/works/W2741809807", "10.7717/PEERJ.4375",
                           "https://doi.org/10.7717/peerj.4375", "doi:10.7717/peerj.4375"}) {
    EXPECT_EQ(store->ResolvePaperId(form), id) << form;
  }
  EXPECT_FALSE(store->ResolvePaperId("W1"));
  EXPECT_FALSE(store->ResolvePaperId(""));
  auto p = store->GetPaperSummary(*id);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->venue, "PeerJ");
  EXPECT_EQ(p->authors.size(), 9u);
  EXPECT_EQ(p->authors[0], "Heather Piwowar");
  EXPECT_EQ(p->cited_by_count, 962);
  auto author = store->NodeByExtId(NodeType::kAuthor, "A5023888391");
  ASSERT_TRUE(author);
  EXPECT_EQ(store->NodeLabel(NodeType::kAuthor, *author)->second, "Jason Priem");
}

TEST(IngestTest, MultiLineDocumentsPagesAndArrays) {
  ScopedTempDir tmp;
  WriteFile(tmp.File("page.json"),
            "{\n  \"meta\": {\"count\": 2},\n  \"results\": [\n"
            "    {\"id\": \"https://openalex.org/W11\", \"title\": \"Page one\"},\n"
            "    {\"id\": \"https://openalex.org/W12\", \"title\": \"Page two\",\n"
            "     \"referenced_works\": [\"https://openalex.org/W11\"]}\n  ]\n}\n");
  WriteFile(tmp.File("array.json"),
            "[\n  {\"id\": \"R1\", \"title\": \"Array one\"},\n"
            "  {\"id\": \"R2\", \"title\": \"Array two\", \"references\": [\"R1\", \"W12\"]}\n]\n");
  WriteFile(tmp.File("one.json"), "{\n  \"id\": \"R3\",\n  \"title\": \"Pretty single\"\n}\n");
  WriteFile(tmp.File("crlf.jsonl"),
            "{\"id\": \"R4\", \"title\": \"Windows one\"}\r\n{\"id\": \"R5\", \"title\": \"Windows "
            "two\"}\r\n");
  auto store = OpenStore(tmp.File("db"), Store::Mode::kWrite);
  ASSERT_TRUE(store);
  IngestStats stats;
  Status st = IngestFiles(
      store.get(),
      {tmp.File("page.json"), tmp.File("array.json"), tmp.File("one.json"), tmp.File("crlf.jsonl")},
      &stats);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(stats.works_new, 7);
  EXPECT_EQ(store->PaperCount(), 7);
  EXPECT_EQ(stats.cites_edges, 3);
  EXPECT_EQ(stats.dangling_references, 0);
  for (const char* id : {"W11", "W12", "R1", "R2", "R3", "R4", "R5"})
    EXPECT_TRUE(store->PaperByExtId(id)) << id;
  EXPECT_EQ(store->GetPaperSummary(*store->PaperByExtId("R5"))->title, "Windows two");
}

TEST(IngestTest, GzipInputIsDetectedByContent) {
  ScopedTempDir tmp;
  std::string lines;
  for (int i = 0; i < 300; ++i)
    lines += R"({"id": "G)" + std::to_string(i) + R"(", "title": "Compressed paper number )" +
             std::to_string(i) +
             R"("})"
             "\n";
  const std::string gz = Gzip(lines);
  ASSERT_EQ(static_cast<unsigned char>(gz[0]), 0x1f);
  WriteFile(tmp.File("works.data"), gz);  // no .gz suffix
  auto store = OpenStore(tmp.File("db"), Store::Mode::kWrite);
  ASSERT_TRUE(store);
  IngestStats stats;
  Status st = IngestFiles(store.get(), {tmp.File("works.data")}, &stats);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(store->PaperCount(), 300);
  EXPECT_EQ(stats.input_bytes, static_cast<int64_t>(lines.size()));
  // A truncated stream is malformed input and loads nothing.
  WriteFile(tmp.File("cut.gz"), gz.substr(0, gz.size() / 2));
  IngestStats cut_stats;
  st = IngestFiles(store.get(), {tmp.File("cut.gz")}, &cut_stats);
  EXPECT_EQ(st.code(), Code::kMalformedInput) << st.message();
  EXPECT_NE(st.message().find("cut.gz"), std::string::npos) << st.message();
  EXPECT_EQ(store->PaperCount(), 300);
}

TEST(IngestTest, OverlongLineIsBadInputEvenWhenSkippingInvalid) {
  ScopedTempDir tmp;
  WriteFile(tmp.File("long.jsonl"), R"({"id": "S1", "title": "short"})"
                                    "\n"
                                    R"({"id": "S2", "title": ")" +
                                        std::string(500, 'x') + "\"}\n");
  auto store = OpenStore(tmp.File("db"), Store::Mode::kWrite);
  ASSERT_TRUE(store);
  IngestOptions options;
  options.max_line_bytes = 100;
  options.skip_invalid = true;
  IngestStats stats;
  Status st = Ingest(store.get(), {tmp.File("long.jsonl")}, options, &stats);
  EXPECT_EQ(st.code(), Code::kMalformedInput);
  EXPECT_NE(st.message().find("long.jsonl:2"), std::string::npos) << st.message();
  EXPECT_EQ(store->PaperCount(), 0);
}

TEST(IngestTest, EmptyInputWarnsAndSucceeds) {
  ScopedTempDir tmp;
  WriteFile(tmp.File("empty.jsonl"), "\n   \n");
  auto store = OpenStore(tmp.File("db"), Store::Mode::kWrite);
  ASSERT_TRUE(store);
  IngestOptions options;
  litgraph::testing::RecordingReporter reporter;
  const std::vector<std::string>& warnings = reporter.warnings;
  options.reporter = &reporter;
  IngestStats stats;
  ASSERT_TRUE(Ingest(store.get(), {tmp.File("empty.jsonl")}, options, &stats).ok());
  EXPECT_EQ(stats.records, 0);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("empty.jsonl: no records"), std::string::npos) << warnings[0];
  // A graph generation exists even for an empty store.
  EXPECT_GT(store->Generation("graph"), 0);
  EXPECT_TRUE(Graph::Open(store.get()).ok());
}

TEST(IngestTest, SelfAndDuplicateReferencesAndSymmetricRelated) {
  ScopedTempDir tmp;
  WriteFile(
      tmp.File("refs.jsonl"),
      R"({"id": "D1", "title": "Cited"})"
      "\n"
      R"({"id": "D2", "title": "Citing", "references": ["D2", "D1", "D1", "D9"], "related": ["D1"]})"
      "\n");
  auto store = OpenStore(tmp.File("db"), Store::Mode::kWrite);
  ASSERT_TRUE(store);
  IngestStats stats;
  ASSERT_TRUE(IngestFiles(store.get(), {tmp.File("refs.jsonl")}, &stats).ok());
  EXPECT_EQ(stats.cites_edges, 1);
  EXPECT_EQ(stats.dangling_references, 1);  // D9
  const uint32_t d1 = static_cast<uint32_t>(*store->PaperByExtId("D1"));
  const uint32_t d2 = static_cast<uint32_t>(*store->PaperByExtId("D2"));
  auto g = Graph::Open(store.get());
  ASSERT_TRUE(g.ok());
  auto out = (*g)->adj(Rel::kCitesOut).Neighbours(d2);
  EXPECT_EQ(std::vector<uint32_t>(out.ids.begin(), out.ids.end()), std::vector<uint32_t>{d1});
  auto r1 = (*g)->adj(Rel::kRelated).Neighbours(d1);
  EXPECT_EQ(std::vector<uint32_t>(r1.ids.begin(), r1.ids.end()), std::vector<uint32_t>{d2});
  auto r2 = (*g)->adj(Rel::kRelated).Neighbours(d2);
  EXPECT_EQ(std::vector<uint32_t>(r2.ids.begin(), r2.ids.end()), std::vector<uint32_t>{d1});
}

// A generation a reader uses is never removed, whatever the number of
// commits since (the reader keeps its snapshot); one nobody uses goes at the
// next writer, as do the leftovers of killed writers.
TEST(StoreTest, WritersRemoveUnusedGenerationsButNeverAPinnedOne) {
  ScopedTempDir tmp;
  const std::string dir = tmp.File("db");
  for (int i = 0; i < 5; ++i)
    WriteFile(tmp.File(std::to_string(i) + ".jsonl"),
              fmt::format(R"({{"id": "O{}", "title": "paper {}", "references": ["O0"]}})"
                          "\n",
                          i, i));
  auto ingest = [&](int i) {
    auto store = OpenStore(dir, Store::Mode::kWrite);
    ASSERT_TRUE(store);
    ASSERT_TRUE(IngestFiles(store.get(), {tmp.File(std::to_string(i) + ".jsonl")}).ok());
  };
  ingest(0);
  ingest(1);
  auto reader = OpenStore(dir, Store::Mode::kRead);
  ASSERT_TRUE(reader);
  const int64_t pinned = reader->Generation("graph");
  const std::string pinned_dir = dir + "/graph." + std::to_string(pinned);
  ASSERT_TRUE(std::filesystem::exists(pinned_dir));
  for (int i = 2; i < 5; ++i) ingest(i);
  // Three commits later the reader's generation is still there and whole.
  EXPECT_TRUE(std::filesystem::exists(pinned_dir));
  EXPECT_EQ(reader->Generation("graph"), pinned);
  EXPECT_EQ(reader->PaperCount(), 2);
  {
    auto g = Graph::Open(reader.get());
    ASSERT_TRUE(g.ok()) << g.status().message();
    const uint32_t o0 = static_cast<uint32_t>(*reader->PaperByExtId("O0"));
    EXPECT_EQ((*g)->adj(Rel::kCitesIn).Neighbours(o0).size(), 1u) << "O1 cites O0";
    EXPECT_TRUE((*g)->status().ok()) << (*g)->status().message();
  }
  int64_t current = 0;
  {
    auto store = OpenStore(dir, Store::Mode::kRead);
    current = store->Generation("graph");
  }
  EXPECT_GT(current, pinned);
  const std::string cur = dir + "/graph." + std::to_string(current);
  // What a killed writer leaves behind.
  std::filesystem::create_directories(dir + "/graph." + std::to_string(current + 5));
  std::filesystem::create_directories(dir + "/graph.3.tmp");
  std::filesystem::create_directories(dir + "/vectors.9");
  reader.reset();  // unpins
  {
    auto store = OpenStore(dir, Store::Mode::kWrite);
    ASSERT_TRUE(store);
  }
  EXPECT_TRUE(std::filesystem::exists(cur));
  EXPECT_FALSE(std::filesystem::exists(pinned_dir));
  EXPECT_FALSE(std::filesystem::exists(dir + "/graph." + std::to_string(current + 5)));
  EXPECT_FALSE(std::filesystem::exists(dir + "/graph.3.tmp"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/vectors.9"));
  auto again = OpenStore(dir, Store::Mode::kRead);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->Generation("graph"), current);
  EXPECT_TRUE(Graph::Open(again.get()).ok());
}

// A MANIFEST whose values have other types than the writer's (a forged
// file, behind a valid checksum): fuzz/manifest_fuzz.cc found that
// {"format": {...}} made GenerationView::Open throw nlohmann's type_error
// (the process aborted). Every such manifest is now Corruption.
TEST(StoreTest, ManifestOfOtherTypesIsCorruption) {
  ScopedTempDir tmp;
  testing::TestStore ts(tmp.File("db"));
  ts.Start("graph");
  const GenerationView* view = ts.Commit();
  ASSERT_NE(view, nullptr);
  const std::string manifest = view->dir() + "/MANIFEST";
  const FileIdentity id{ts.store()->id(), static_cast<uint64_t>(view->number()), "MANIFEST"};
  auto open = [&](const std::string& payload) {
    EXPECT_TRUE(WriteCheckedFile(manifest, id, payload).ok());
    bool gone = false;
    auto v = GenerationView::Open(tmp.File("db"), ts.store()->id(), "graph", view->number(),
                                  /*pin=*/false, &gone);
    EXPECT_FALSE(gone);
    return v.ok() ? Status::Ok() : v.status();
  };
  EXPECT_TRUE(open(R"({"format": 2, "files": {}})").ok());
  for (const char* payload :
       {R"({"format": {"a": 1}, "files": {}})", R"({"format": "2", "files": {}})",
        R"({"format": 2.5, "files": {}})", R"({"format": [2], "files": {}})",
        R"({"format": null, "files": {}})", R"({"files": {}})", R"({"format": 2, "files": []})",
        R"({"format": 2, "files": {"x": 1}})", R"({"format": 2, "files": {"x": ["1", 0]}})",
        R"([2])", "not json"}) {
    Status st = open(payload);
    EXPECT_EQ(st.code(), Code::kCorruption) << payload;
  }
}

TEST(IngestTest, ReadOnlyStoreCannotIngest) {
  ScopedTempDir tmp;
  const std::string dir = tmp.File("db");
  { auto store = OpenStore(dir, Store::Mode::kWrite); }
  WriteFile(tmp.File("a.jsonl"), R"({"id": "RO1", "title": "x"})"
                                 "\n");
  auto reader = OpenStore(dir, Store::Mode::kRead);
  ASSERT_TRUE(reader);
  IngestStats stats;
  Status st = IngestFiles(reader.get(), {tmp.File("a.jsonl")}, &stats);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(reader->PaperCount(), 0);
}

}  // namespace
}  // namespace litgraph

namespace litgraph {
namespace {

// A reader leaves the WAL to writers: closing the last connection does not
// checkpoint it (the rest of an update's WAL when queries had kept the
// writer's checkpoints from finishing).
TEST(StoreTest, ReadersDoNotCheckpointTheWalOnClose) {
  ScopedTempDir tmp;
  const std::string dir = tmp.File("store");
  ASSERT_TRUE(OpenStore(dir, Store::Mode::kWrite));
  const std::string wal = dir + "/litgraph.sqlite-wal";
  {
    // A writer whose commits are left in the WAL, as when readers hold
    // snapshots while it checkpoints.
    Db w;
    ASSERT_TRUE(w.Open(dir + "/litgraph.sqlite", true, false).ok());
    sqlite3_db_config(w.raw(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    w.Exec("PRAGMA wal_autocheckpoint=0");
    for (int i = 0; i < 50; ++i)
      w.Exec(fmt::format("INSERT OR REPLACE INTO meta(key, value) VALUES('k{}', '{}')", i,
                         std::string(4000, 'x')));
  }
  ASSERT_TRUE(std::filesystem::exists(wal));
  const auto before = std::filesystem::file_size(wal);
  ASSERT_GT(before, 50u * 4000);
  {
    auto reader = OpenStore(dir, Store::Mode::kRead);
    ASSERT_TRUE(reader);
    EXPECT_EQ(reader->GetMeta("k49"), std::string(4000, 'x'));  // read through the WAL
  }
  ASSERT_TRUE(std::filesystem::exists(wal)) << "the reader checkpointed and removed the WAL";
  EXPECT_EQ(std::filesystem::file_size(wal), before);
  // A writer's close checkpoints it.
  ASSERT_TRUE(OpenStore(dir, Store::Mode::kWrite));
  EXPECT_FALSE(std::filesystem::exists(wal) && std::filesystem::file_size(wal) >= before);
}

// A writer leaves no large WAL behind a reader that was open when it closed:
// it waits for the reader, then checkpoints and empties the WAL. Else every
// later process opening the store alone rebuilds the WAL index from the whole
// WAL.
TEST(StoreTest, AWriterEmptiesTheWalAfterTheReadersOfItsCommits) {
  ScopedTempDir tmp;
  const std::string dir = tmp.File("store");
  const std::string wal = dir + "/litgraph.sqlite-wal";
  auto writer = OpenStore(dir, Store::Mode::kWrite);
  ASSERT_TRUE(writer);
  for (int i = 0; i < 50; ++i)
    writer->SetMeta(fmt::format("k{}", i), std::string(4000, static_cast<char>('a' + i % 26)));
  // One commit past Store::kWalLeftBytes of WAL, as an update's, so that the
  // writer waits for the reader.
  writer->db().Exec("BEGIN");
  for (int i = 0; i < 66; ++i)
    writer->SetMeta(fmt::format("filler{}", i), std::string(size_t{1} << 20, 'f'));
  writer->db().Exec("COMMIT");
  ASSERT_GT(std::filesystem::file_size(wal), Store::kWalLeftBytes);
  auto reader = OpenStore(dir, Store::Mode::kRead);  // holds a snapshot
  ASSERT_TRUE(reader);
  std::thread done_reading([&reader] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_EQ(reader->GetMeta("k49"), std::string(4000, 'x'));
    reader.reset();  // closes after the writer began closing
  });
  writer.reset();
  done_reading.join();
  EXPECT_FALSE(std::filesystem::exists(wal) && std::filesystem::file_size(wal) > 0)
      << std::filesystem::file_size(wal) << " bytes of WAL left";
  auto again = OpenStore(dir, Store::Mode::kRead);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->GetMeta("k25"), std::string(4000, 'z'));
}

}  // namespace
}  // namespace litgraph
