// Tests for merge.h (and store_merge.h): shard stores merged into one equal
// a single ingest of the same records (rows, dense ids, keywords, vectors,
// the graph's counts), into an empty or a non-empty store; duplicates are
// deduplicated by external id and by updated_date; dangling references of a
// shard resolve; shards of different models are refused; a failing shard
// leaves the output store unchanged; a merge run twice gives the same store;
// shards' HNSW indexes kept as segments answer as one index does, through
// the merged store's later compactions; a shard copied table by table gives
// the rows its works applied one by one give (real OpenAlex records).
//
// The corpus: 24 native records in three topics, each paper citing the two
// before it in its topic and written by authors the topic's papers share;
// shards are consecutive slices of it (so references cross shards).
#include "litgraph/merge.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "litgraph/checked_file.h"
#include "litgraph/ingest.h"
#include "litgraph/keyword_store.h"
#include "litgraph/lexical.h"
#include "litgraph/semantic.h"
#include "litgraph/store.h"
#include "store_fixture.h"
#include "test_util.h"

namespace litgraph {
namespace {

using litgraph::testing::ScopedTempDir;
using litgraph::testing::WriteFile;
using nlohmann::json;

const char* kNames[6] = {"Ada Lovelace",    "Alan Turing",    "Grace Hopper",
                         "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth"};

// The records, one JSON line each, in corpus order (paper j of every topic,
// then j + 1): a slice of consecutive lines holds papers whose references
// point into earlier slices.
std::vector<std::string> Records(const std::string& updated = "2026-01-01") {
  std::vector<std::string> lines;
  for (int j = 0; j < 8; ++j)
    for (int t = 0; t < 3; ++t) {
      json rec = testing::TopicPaper('M', t, j);
      rec["authors"] = {kNames[(t + j) % 6], kNames[(t + j + 1) % 6]};
      rec["venue"] = "Journal of " + testing::TopicPhrases()[t][0];
      rec["updated_date"] = updated;
      lines.push_back(rec.dump());
    }
  return lines;
}

std::string Join(const std::vector<std::string>& lines, size_t from, size_t to) {
  std::string s;
  for (size_t i = from; i < to && i < lines.size(); ++i) s += lines[i] + "\n";
  return s;
}

class MergeTest : public ::testing::Test {
 protected:
  // The single-process build: every record ingested, keywords extracted
  // (counting its own statistics) and embedded (training its own model).
  static void SetUpTestSuite() {
    tmp_ = new ScopedTempDir();
    single_ = tmp_->File("single");
    ASSERT_NO_FATAL_FAILURE(Build(single_, Join(Records(), 0, 24), "", ""));
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }

  // A store at `dir` from `jsonl`: ingest, then keywords and a 16-dimension
  // built-in embedding, with the statistics and model of the store at
  // `from` when given (else its own).
  static void Build(const std::string& dir, const std::string& jsonl, const std::string& stats_from,
                    const std::string& model_from) {
    const std::string file = dir + ".jsonl";
    WriteFile(file, jsonl);
    auto s = Store::Open(dir, Store::Mode::kWrite, true);
    ASSERT_TRUE(s.ok()) << s.status().message();
    Store* store = s->get();
    IngestStats is;
    Status st = Ingest(store, {file}, IngestOptions{}, &is);
    ASSERT_TRUE(st.ok()) << st.message();
    KeywordRunOptions ko;
    ko.stats_from = stats_from;
    KeywordRunStats ks;
    st = RunKeywordExtraction(
        store, ko, [](const PhraseStats* ps) { return MakeBuiltinKeywordBackend(ps); }, &ks);
    ASSERT_TRUE(st.ok()) << st.message();
    EmbedRunOptions eo;
    eo.lsa.dim = 16;
    eo.threads = 1;
    eo.hnsw.threads = 1;
    eo.model_from = model_from;
    eo.keyword_min_papers = kw_min_;
    EmbedRunStats es;
    st = RunEmbed(store, eo, &es);
    ASSERT_TRUE(st.ok()) << st.message();
  }

  // An update of the store at `dir`, as the cron recipe runs it: `jsonl`
  // ingested (when not empty), keywords extracted for the papers without
  // them, and `eo` (embed --missing with the test's model size) run.
  static void Update(const std::string& dir, const std::string& jsonl, EmbedRunOptions eo,
                     EmbedRunStats* es) {
    const std::string file = dir + "-update.jsonl";
    WriteFile(file, jsonl);
    auto s = Store::Open(dir, Store::Mode::kWrite);
    ASSERT_TRUE(s.ok()) << s.status().message();
    IngestStats is;
    if (!jsonl.empty()) {
      ASSERT_TRUE(Ingest(s->get(), {file}, IngestOptions{}, &is).ok());
    }
    KeywordRunOptions ko;
    ko.select = KeywordRunOptions::Select::kMissing;
    KeywordRunStats ks;
    Status st = RunKeywordExtraction(
        s->get(), ko, [](const PhraseStats* ps) { return MakeBuiltinKeywordBackend(ps); }, &ks);
    ASSERT_TRUE(st.ok()) << st.message();
    eo.lsa.dim = 16;
    eo.threads = 1;
    eo.hnsw.threads = 1;
    eo.missing = true;
    eo.keyword_min_papers = kw_min_;
    st = RunEmbed(s->get(), eo, es);
    ASSERT_TRUE(st.ok()) << st.message();
  }

  // Shards of the corpus: records [cuts[i], cuts[i + 1]) each, with the
  // single build's statistics and model.
  std::vector<std::string> Shards(const std::vector<size_t>& cuts) {
    std::vector<std::string> dirs;
    const auto lines = Records();
    for (size_t i = 0; i + 1 < cuts.size(); ++i) {
      dirs.push_back(tmp_dir_.File("shard" + std::to_string(i)));
      Build(dirs.back(), Join(lines, cuts[i], cuts[i + 1]), single_, single_);
      if (HasFatalFailure()) return {};
    }
    return dirs;
  }

  static Status MergeInto(const std::string& out, const std::vector<std::string>& shards,
                          MergeStats* stats, bool vectors = true, bool segments = true,
                          size_t max_segments = 8) {
    auto s = Store::Open(out, Store::Mode::kWrite, true);
    if (!s.ok()) return s.status();
    MergeOptions o;
    o.vectors = vectors;
    o.vector_segments = segments;
    o.max_segments = max_segments;
    o.hnsw.threads = 1;
    return Merge(s->get(), shards, o, stats);
  }

  // What a store holds, by external id and dense id: papers, authorships,
  // venues, keywords and their links, the graph's counts and the vectors.
  static std::vector<std::string> Dump(const std::string& dir) {
    std::vector<std::string> rows;
    auto s = Store::Open(dir, Store::Mode::kRead);
    EXPECT_TRUE(s.ok()) << s.status().message();
    if (!s.ok()) return rows;
    Store* store = s->get();
    auto query = [&](const char* sql) {
      Stmt st = store->db().Prepare(sql);
      const int n = sqlite3_column_count(st.raw());
      while (st.Step()) {
        std::string row = sql;
        for (int i = 0; i < n; ++i) row += "|" + (st.IsNull(i) ? "NULL" : st.Str(i));
        rows.push_back(row);
      }
    };
    query(
        "SELECT p.id, p.ext_id, p.title, p.abstract, p.year, p.updated_date, s.ext_id, s.name"
        " FROM paper p LEFT JOIN source s ON s.id = p.source_id ORDER BY p.id");
    query(
        "SELECT p.ext_id, a.position, u.id, u.ext_id, u.name FROM authorship a"
        " JOIN paper p ON p.id = a.paper_id JOIN author u ON u.id = a.author_id"
        " ORDER BY p.id, a.position");
    query(
        "SELECT p.ext_id, k.id, k.ext_id, k.label, k.paper_count, pk.score FROM paper_keyword pk"
        " JOIN paper p ON p.id = pk.paper_id JOIN keyword k ON k.id = pk.keyword_id"
        " ORDER BY p.id, k.id");
    query("SELECT p.ext_id, e.backend FROM keyword_extracted e JOIN paper p ON p.id = e.paper_id");
    query("SELECT p.ext_id FROM keyword_pending k JOIN paper p ON p.id = k.paper_id ORDER BY p.id");
    query("SELECT count(*) FROM author");
    query("SELECT count(*) FROM source");
    query("SELECT count(*) FROM keyword");
    query("SELECT count(*) FROM vectors_stale");
    json info = json::parse(store->GetMeta("graph_info").value_or("{}"));
    rows.push_back("cites_edges|" + info.value("cites_edges", json()).dump());
    rows.push_back("dangling|" + info.value("dangling_references", json()).dump());
    rows.push_back("edges|" + info.value("edges", json()).dump());
    // The lexical indexes answer as well: each paper's title as a query.
    auto graph = store->Current("graph");
    EXPECT_TRUE(graph.ok() && *graph);
    if (graph.ok() && *graph) {
      for (const char* prefix : {"", kTitleIndexPrefix}) {
        LexicalIndex index;
        Status ls = index.Open(**graph, prefix);
        EXPECT_TRUE(ls.ok()) << ls.message();
        Stmt titles = store->db().Prepare("SELECT title FROM paper ORDER BY id");
        while (titles.Step()) {
          std::string row = fmt::format("bm25 {}|{}", prefix, titles.Text(0));
          for (const LexicalHit& h : index.Search(LexicalIndex::QueryTerms(titles.Str(0)), 3))
            row += fmt::format(" {}:{:.4f}", h.doc, h.score);
          rows.push_back(row);
        }
      }
    }
    PhraseStats ps;
    Status st = OpenPhraseStats(store, &ps);
    rows.push_back("phrase_docs|" + (st.ok() ? std::to_string(ps.num_docs()) : st.message()));
    if (st.ok()) {  // and the counts of every paper's phrases
      rows.push_back("phrases|" + std::to_string(ps.size()));
      Stmt texts = store->db().Prepare("SELECT title, abstract FROM paper ORDER BY id");
      std::vector<uint64_t> keys;
      while (texts.Step()) {
        PhraseKeysOf(texts.Text(0), texts.Text(1), &keys);
        std::string row = "phrase_df|" + texts.Str(0);
        for (uint64_t k : keys) row += " " + std::to_string(ps.DocFreq(k));
        rows.push_back(row);
      }
    }
    auto index = SemanticIndex::Open(store);
    EXPECT_TRUE(index.ok()) << index.status().message();
    if (!index.ok()) return rows;
    rows.push_back("model|" + (*index)->model_id());
    for (VecField f : {VecField::kTitle, VecField::kAbstract, VecField::kKeyword}) {
      const FieldVectors& v = (*index)->vectors(f);
      for (uint64_t r = 0; r < v.rows(); ++r) {
        std::string row = std::string(VecFieldName(f)) + "|" + std::to_string(r);
        if (const float* x = v.Row(r))
          for (int i = 0; i < v.dim(); ++i) row += " " + std::to_string(x[i]);
        rows.push_back(row);
      }
      // The HNSW index answers as the single build's does.
      if (v.rows() > 1 && v.Row(1)) {
        std::string row = std::string(VecFieldName(f)) + " nearest to 1:";
        for (const VectorHit& h : (*index)->Search(f, v.Row(1), 5, 50))
          row += " " + std::to_string(h.id);
        rows.push_back(row);
      }
    }
    return rows;
  }

  static void ExpectSameStore(const std::string& a, const std::string& b) {
    const auto da = Dump(a), db = Dump(b);
    ASSERT_EQ(da.size(), db.size());
    for (size_t i = 0; i < da.size(); ++i) EXPECT_EQ(da[i], db[i]) << "row " << i;
  }

  static ScopedTempDir* tmp_;
  static std::string single_;
  // embed --keyword-min-papers: every keyword's vector (1) for the tests of
  // the vector mechanisms (segments, deltas), whose counts assume it.
  static uint32_t kw_min_;
  ScopedTempDir tmp_dir_;  // per test
};

ScopedTempDir* MergeTest::tmp_ = nullptr;
std::string MergeTest::single_;
uint32_t MergeTest::kw_min_ = 1;

TEST_F(MergeTest, ShardsMergeIntoTheStoreOfASingleIngest) {
  auto shards = Shards({0, 5, 11, 18, 24});
  ASSERT_EQ(shards.size(), 4u);
  // References into earlier shards dangle in a shard.
  {
    auto s = Store::Open(shards[2], Store::Mode::kRead);
    ASSERT_TRUE(s.ok());
    json info = json::parse((*s)->GetMeta("graph_info").value_or("{}"));
    EXPECT_GT(info.value("dangling_references", 0), 0);
  }
  MergeStats ms;
  Status st = MergeInto(tmp_dir_.File("merged"), shards, &ms);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(ms.shards, 4);
  EXPECT_EQ(ms.works, 24);
  EXPECT_EQ(ms.works_new, 24);
  // Every shard's lexical postings came from its kept runs, and its phrases
  // from its kept counts, not its texts.
  EXPECT_EQ(ms.works_from_kept_runs, 24);
  EXPECT_EQ(ms.works_from_kept_counts, 24);
  EXPECT_EQ(ms.dangling_references, 0);  // every reference is to a paper of the corpus
  EXPECT_GT(ms.cites_edges, 0);
  EXPECT_GT(ms.paper_keywords, 0);
  EXPECT_GT(ms.vectors, 0);
  // The first shard's indexes were extended, not rebuilt, and the other
  // shards' paper indexes kept as segments.
  EXPECT_LT(ms.vectors_indexed, ms.vectors);
  EXPECT_GE(ms.vector_segments, 6);  // shards 2-4, titles and abstracts
  EXPECT_GT(ms.vectors_in_segments, 0);
  EXPECT_LE(ms.vectors_indexed + ms.vectors_in_segments, ms.vectors);
  ExpectSameStore(single_, tmp_dir_.File("merged"));
  // Negative control: the dump sees rows, vectors and the graph, and a store
  // missing a shard, or merged out of order, is not the single build.
  const auto whole = Dump(single_);
  EXPECT_GT(whole.size(), 200u);
  ASSERT_TRUE(MergeInto(tmp_dir_.File("partial"), {shards[0], shards[1], shards[2]}, &ms).ok());
  EXPECT_NE(Dump(tmp_dir_.File("partial")), whole);
  ASSERT_TRUE(
      MergeInto(tmp_dir_.File("reordered"), {shards[1], shards[0], shards[2], shards[3]}, &ms)
          .ok());
  EXPECT_NE(Dump(tmp_dir_.File("reordered")), whole);
}

// With the default keyword vectors (keywords of two papers or more), the
// merge gives the keywords that only the merged store shares their vectors:
// those a shard has (not always the first shard of the keyword), else
// embedded by the merge.
TEST_F(MergeTest, KeywordsSharedOnceMergedGetTheirVectors) {
  kw_min_ = 2;
  const std::string single = tmp_dir_.File("single2");
  ASSERT_NO_FATAL_FAILURE(Build(single, Join(Records(), 0, 24), single_, single_));
  auto shards = Shards({0, 6, 12, 18, 24});
  kw_min_ = 1;
  ASSERT_EQ(shards.size(), 4u);
  MergeStats ms;
  const std::string merged = tmp_dir_.File("merged2");
  Status st = MergeInto(merged, shards, &ms);
  ASSERT_TRUE(st.ok()) << st.message();
  ExpectSameStore(single, merged);
  // Fewer keyword vectors than keywords, and the difference is the one the
  // minimum makes.
  auto s = Store::Open(single, Store::Mode::kRead);
  ASSERT_TRUE(s.ok());
  auto index = SemanticIndex::Open(s->get());
  ASSERT_TRUE(index.ok());
  const auto shared = (*s)->db().QueryInt("SELECT count(*) FROM keyword WHERE paper_count >= 2");
  const auto all = (*s)->db().QueryInt("SELECT count(*) FROM keyword");
  ASSERT_TRUE(shared && all);
  EXPECT_LT(*shared, *all);
  EXPECT_EQ(static_cast<int64_t>((*index)->vectors(VecField::kKeyword).present()), *shared);
}

TEST_F(MergeTest, AShardMergesIntoANonEmptyStore) {
  // The main store holds the first 14 records; a monthly shard the rest.
  const std::string main = tmp_dir_.File("main");
  ASSERT_NO_FATAL_FAILURE(Build(main, Join(Records(), 0, 14), single_, single_));
  auto shards = Shards({14, 24});
  ASSERT_EQ(shards.size(), 1u);
  MergeStats ms;
  Status st = MergeInto(main, shards, &ms);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(ms.works_new, 10);
  // Nothing was inserted into the main store's indexes: the shard's 10
  // papers are new rows, so its own title, abstract and keyword indexes were
  // kept as segments (the keywords the main store has already being
  // waypoints of the shard's keyword index).
  EXPECT_EQ(ms.vector_segments, 3);
  EXPECT_GT(ms.vectors_in_segments, 20);
  EXPECT_EQ(ms.vectors_indexed, 0);
  ExpectSameStore(single_, main);
}

// Stores whose vectors are a base and a delta (embed --missing): the main
// store's and a shard's delta rows are read as their queries read them.
TEST_F(MergeTest, StoresWithAVectorDeltaMerge) {
  // Records [from, to) ingested into `dir` and embedded into a delta.
  auto add = [&](const std::string& dir, size_t from, size_t to) {
    EmbedRunOptions eo;
    eo.delta_fraction = 100;  // keep a delta
    EmbedRunStats es;
    ASSERT_NO_FATAL_FAILURE(Update(dir, Join(Records(), from, to), eo, &es));
    EXPECT_GT(es.delta_rows, 0);
    EXPECT_FALSE(es.compacted);
  };
  const std::string main = tmp_dir_.File("main");
  ASSERT_NO_FATAL_FAILURE(Build(main, Join(Records(), 0, 10), single_, single_));
  ASSERT_NO_FATAL_FAILURE(add(main, 10, 14));
  const std::string shard = tmp_dir_.File("shard");
  ASSERT_NO_FATAL_FAILURE(Build(shard, Join(Records(), 14, 20), single_, single_));
  ASSERT_NO_FATAL_FAILURE(add(shard, 20, 24));
  MergeStats ms;
  Status st = MergeInto(main, {shard}, &ms);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(ms.works_new, 10);
  ExpectSameStore(single_, main);
  auto s = Store::Open(main, Store::Mode::kRead);
  ASSERT_TRUE(s.ok());
  auto view = (*s)->Current("vectors");
  ASSERT_TRUE(view.ok() && *view);
  for (const auto& [name, size] : (*view)->files())
    EXPECT_EQ(name.find("delta"), std::string::npos) << name << ": the merged store is all base";
  EXPECT_FALSE((*view)->info().contains("vector_delta"));
}

// Shards' indexes kept as segments answer as one index does, before and
// after the merged store's updates: a compaction that changes nothing keeps
// them, one that changes every paper of a shard folds that shard's segments
// into the base index, and the store answers as a single build given the
// same update; embed --fold-segments leaves one index per field.
// --fold-vectors (vector_segments false) writes no segment.
TEST_F(MergeTest, ShardIndexesKeptAsSegmentsAnswerAsOneIndex) {
  auto shards = Shards({0, 6, 12, 18, 24});
  ASSERT_EQ(shards.size(), 4u);
  const std::string merged = tmp_dir_.File("merged"), folded = tmp_dir_.File("folded");
  MergeStats ms, fs;
  ASSERT_TRUE(MergeInto(merged, shards, &ms).ok());
  ASSERT_TRUE(MergeInto(folded, shards, &fs, true, false).ok());
  EXPECT_GE(ms.vector_segments, 6);
  EXPECT_EQ(fs.vector_segments, 0);
  EXPECT_EQ(fs.vectors_in_segments, 0);
  EXPECT_GT(fs.vectors_indexed, ms.vectors_indexed);
  ExpectSameStore(single_, merged);
  ExpectSameStore(single_, folded);
  // One segment per field at most: the largest shard's (shard 2 of 6
  // papers; shards 3 and 4 hold 6 too, so the first of them), the others'
  // vectors inserted.
  const std::string capped = tmp_dir_.File("capped");
  MergeStats cs;
  ASSERT_TRUE(MergeInto(capped, shards, &cs, true, true, 1).ok());
  EXPECT_GE(cs.vector_segments, 2);
  EXPECT_LE(cs.vector_segments, 3);
  EXPECT_GT(cs.vectors_indexed, ms.vectors_indexed);
  EXPECT_LT(cs.vectors_indexed, fs.vectors_indexed);
  ExpectSameStore(single_, capped);
  auto segment_files = [](const std::string& dir) {
    std::vector<std::string> names;
    auto s = Store::Open(dir, Store::Mode::kRead);
    EXPECT_TRUE(s.ok());
    auto view = (*s)->Current("vectors");
    EXPECT_TRUE(view.ok() && *view);
    for (const auto& [name, size] : (*view)->files())
      if (name.find(".seg") != std::string::npos) names.push_back(name);
    std::sort(names.begin(), names.end());
    return names;
  };
  const auto before = segment_files(merged);
  EXPECT_EQ(before.size(), static_cast<size_t>(ms.vector_segments));
  EXPECT_TRUE(std::count(before.begin(), before.end(), "abstract.seg3.hnsw")) << before.size();
  // Keywords the shards share: waypoints of the later shards' keyword indexes.
  EXPECT_TRUE(std::count(before.begin(), before.end(), "keyword.seg1.hnsw")) << before.size();
  EXPECT_TRUE(segment_files(folded).empty());
  // Records, keywords and vectors of `jsonl` into `dir`: embed --missing
  // with a compaction.
  auto update = [&](const std::string& dir, const std::string& jsonl, bool fold = false) {
    EmbedRunOptions eo;
    eo.compact = true;
    eo.fold_segments = fold;
    EmbedRunStats es;
    ASSERT_NO_FATAL_FAILURE(Update(dir, jsonl, eo, &es));
  };
  // A compaction with nothing changed keeps every segment.
  ASSERT_NO_FATAL_FAILURE(update(merged, ""));
  EXPECT_EQ(segment_files(merged), before);
  ExpectSameStore(single_, merged);
  // New texts for the last shard's papers, in the merged store and in a copy
  // of the single build: the last shard's segments fold, the others stay.
  std::string revised;
  for (int j = 6; j < 8; ++j)
    for (int t = 0; t < 3; ++t) {
      json rec = json::parse(Records()[static_cast<size_t>(j * 3 + t)]);
      rec["abstract"] = rec["abstract"].get<std::string>() + " We revise " +
                        testing::TopicPhrases()[(t + 1) % 3][j % 6] + " as well.";
      rec["updated_date"] = "2026-02-01";
      revised += rec.dump() + "\n";
    }
  const std::string single = tmp_dir_.File("single-updated");
  std::filesystem::copy(single_, single, std::filesystem::copy_options::recursive);
  ASSERT_NO_FATAL_FAILURE(update(single, revised));
  ASSERT_NO_FATAL_FAILURE(update(merged, revised));
  const auto after = segment_files(merged);
  EXPECT_LT(after.size(), before.size());
  EXPECT_FALSE(after.empty());
  EXPECT_FALSE(std::count(after.begin(), after.end(), "abstract.seg3.hnsw"));
  ExpectSameStore(single, merged);
  // --fold-segments: one index per field.
  ASSERT_NO_FATAL_FAILURE(update(merged, "", true));
  EXPECT_TRUE(segment_files(merged).empty());
  ExpectSameStore(single, merged);
}

TEST_F(MergeTest, DuplicatesAreDeduplicatedByExternalIdAndDate) {
  // Two shards overlap (records 8-11 in both), and a third holds an older
  // version of every record: the merged store is still the single build.
  auto shards = Shards({0, 12, 24});
  ASSERT_EQ(shards.size(), 2u);
  const std::string overlap = tmp_dir_.File("overlap");
  ASSERT_NO_FATAL_FAILURE(Build(overlap, Join(Records(), 8, 16), single_, single_));
  const std::string old = tmp_dir_.File("old");
  ASSERT_NO_FATAL_FAILURE(Build(old, Join(Records("2025-01-01"), 0, 24), single_, single_));
  MergeStats ms;
  Status st = MergeInto(tmp_dir_.File("merged"), {shards[0], overlap, shards[1], old}, &ms);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(ms.works_new, 24);
  EXPECT_EQ(ms.works_updated, 8);  // the overlap, written again
  EXPECT_EQ(ms.works_stale, 24);   // the old versions, skipped
  ExpectSameStore(single_, tmp_dir_.File("merged"));
}

TEST_F(MergeTest, MergingTwiceGivesTheSameStore) {
  auto shards = Shards({0, 10, 24});
  ASSERT_EQ(shards.size(), 2u);
  const std::string out = tmp_dir_.File("merged");
  MergeStats first, second;
  ASSERT_TRUE(MergeInto(out, shards, &first).ok());
  Status st = MergeInto(out, shards, &second);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(second.works_new, 0);
  EXPECT_EQ(second.works_updated, 24);
  ExpectSameStore(single_, out);
}

TEST_F(MergeTest, ShardsOfDifferentModelsAreRefused) {
  auto shards = Shards({0, 12});
  ASSERT_EQ(shards.size(), 1u);
  // A shard that trained its own model (its statistics too).
  const std::string own = tmp_dir_.File("own");
  ASSERT_NO_FATAL_FAILURE(Build(own, Join(Records(), 12, 24), "", ""));
  const std::string out = tmp_dir_.File("merged");
  MergeStats ms;
  Status st = MergeInto(out, {shards[0], own}, &ms);
  EXPECT_EQ(st.code(), Code::kInvalidArgument) << st.message();
  EXPECT_NE(st.message().find("models differ"), std::string::npos) << st.message();
  {
    auto s = Store::Open(out, Store::Mode::kRead);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ((*s)->PaperCount(), 0);
  }
  // Without vectors the same shards merge; the store has none then.
  st = MergeInto(out, {shards[0], own}, &ms, /*vectors=*/false);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(ms.vectors, 0);
  auto s = Store::Open(out, Store::Mode::kRead);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ((*s)->PaperCount(), 24);
  EXPECT_EQ((*s)->Generation("vectors"), 0);
}

// Every row of the tables a merge writes, sorted: ids included, each value
// with its SQL type, so that two stores compare row for row.
std::vector<std::string> Tables(const std::string& dir) {
  std::vector<std::string> rows;
  auto s = Store::Open(dir, Store::Mode::kRead);
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (!s.ok()) return rows;
  for (const char* table :
       {"paper", "author", "institution", "source", "topic", "subfield", "field", "domain",
        "authorship", "paper_topic", "keyword", "paper_keyword", "keyword_extracted",
        "keyword_pending", "vectors_stale"}) {
    Stmt st = (*s)->db().Prepare(fmt::format("SELECT * FROM {}", table));
    const int n = sqlite3_column_count(st.raw());
    while (st.Step()) {
      std::string row = table;
      for (int i = 0; i < n; ++i) {
        const int type = sqlite3_column_type(st.raw(), i);  // before any conversion
        row += fmt::format("|{}:{}", type, type == SQLITE_NULL ? "NULL" : st.Str(i));
      }
      rows.push_back(row);
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST_F(MergeTest, ACopiedShardEqualsItsWorksAppliedOneByOne) {
  // Real OpenAlex records (venues, institutions, topics with their
  // hierarchy) and entity records, in three shards: the first two share
  // authors and topics; in the second, two works changed after their
  // keywords and vectors were made (waiting for both, their old links kept).
  auto lines = [](const std::string& file) {
    std::vector<std::string> out;
    std::istringstream in(testing::ReadFile(testing::TestData(file)));
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) out.push_back(line);
    return out;
  };
  const auto finance = lines("search-biodiversity-finance.works.jsonl");
  ASSERT_EQ(finance.size(), 200u);
  std::string entities;
  for (const char* f : {"A5023888391.json", "I27837315.json", "S137773608.json", "T11636.json"})
    entities += lines(f)[0] + "\n";
  const std::vector<std::string> dirs = {tmp_dir_.File("s1"), tmp_dir_.File("s2"),
                                         tmp_dir_.File("s3")};
  ASSERT_NO_FATAL_FAILURE(Build(dirs[0], entities + Join(finance, 0, 100), "", ""));
  ASSERT_NO_FATAL_FAILURE(Build(dirs[1], Join(finance, 100, 200), dirs[0], dirs[0]));
  ASSERT_NO_FATAL_FAILURE(
      Build(dirs[2], Join(lines("snowball.works.jsonl"), 0, 45), dirs[0], dirs[0]));
  {
    std::string changed;
    for (size_t i : {120, 150}) {
      json w = json::parse(finance[i]);
      w["title"] = w["display_name"] =  // a phrase of its own, in both
          "Quantum lattice chromodynamics: " + w.value("title", std::string());
      w["updated_date"] = "2030-01-01T00:00:00";
      changed += w.dump() + "\n";
    }
    WriteFile(tmp_dir_.File("changed.jsonl"), changed);
    auto s = Store::Open(dirs[1], Store::Mode::kWrite);
    ASSERT_TRUE(s.ok());
    IngestStats is;
    ASSERT_TRUE(Ingest(s->get(), {tmp_dir_.File("changed.jsonl")}, IngestOptions{}, &is).ok());
    EXPECT_EQ(is.works_updated, 2);
  }
  auto merge = [&](const std::string& out, const std::vector<std::string>& from, bool copy,
                   MergeStats* ms) {
    auto s = Store::Open(tmp_dir_.File(out), Store::Mode::kWrite, true);
    ASSERT_TRUE(s.ok()) << s.status().message();
    MergeOptions o;
    o.copy_works = copy;
    o.hnsw.threads = 1;
    Status st = Merge(s->get(), from, o, ms);
    ASSERT_TRUE(st.ok()) << st.message();
  };
  MergeStats copied, applied;
  ASSERT_NO_FATAL_FAILURE(merge("copied", dirs, true, &copied));
  ASSERT_NO_FATAL_FAILURE(merge("applied", dirs, false, &applied));
  EXPECT_EQ(copied.works_copied, 245);
  EXPECT_EQ(applied.works_copied, 0);
  // The lexical postings of copied shards come from their kept runs (the
  // second shard's a base and a delta), the same index as their texts give.
  EXPECT_EQ(copied.works_from_kept_runs, 245);
  EXPECT_EQ(applied.works_from_kept_runs, 0);
  // Their phrases from the counts their extract-keywords --stats-from kept:
  // the third shard's. The first counted its own statistics (no counts
  // kept), and the second's counts went stale with its two changed works.
  EXPECT_EQ(copied.works_from_kept_counts, 45);
  EXPECT_EQ(applied.works_from_kept_counts, 0);
  // The lexical files hold the same bytes.
  {
    auto a = Store::Open(tmp_dir_.File("copied"), Store::Mode::kRead);
    auto b = Store::Open(tmp_dir_.File("applied"), Store::Mode::kRead);
    ASSERT_TRUE(a.ok() && b.ok());
    auto ga = (*a)->Current("graph"), gb = (*b)->Current("graph");
    ASSERT_TRUE(ga.ok() && *ga && gb.ok() && *gb);
    auto same_bytes = [](const GenerationView& va, const GenerationView& vb, const char* name) {
      CheckedFile fa, fb;
      ASSERT_TRUE(va.OpenFile(name, &fa).ok()) << name;
      ASSERT_TRUE(vb.OpenFile(name, &fb).ok()) << name;
      ASSERT_GT(fa.size(), 0u) << name;
      ASSERT_EQ(fa.size(), fb.size()) << name;
      EXPECT_EQ(std::memcmp(fa.Read(0, fa.size()), fb.Read(0, fb.size()), fa.size()), 0) << name;
    };
    for (const char* name :
         {"lexicon", "postings", "run", "title.lexicon", "title.postings", "title.run"})
      same_bytes(**ga, **gb, name);
    // So do the phrase statistics, added up from kept counts or counted.
    auto ka = (*a)->Current("keywords"), kb = (*b)->Current("keywords");
    ASSERT_TRUE(ka.ok() && *ka && kb.ok() && *kb);
    same_bytes(**ka, **kb, "phrase_df");
  }
  EXPECT_EQ(copied.works_new, applied.works_new);
  EXPECT_EQ(copied.paper_keywords, applied.paper_keywords);
  EXPECT_EQ(copied.entities, 4);
  const auto tables = Tables(tmp_dir_.File("copied"));
  EXPECT_GT(tables.size(), 3000u);
  EXPECT_EQ(tables, Tables(tmp_dir_.File("applied")));
  ExpectSameStore(tmp_dir_.File("copied"), tmp_dir_.File("applied"));
  // The full-text indexes of copied authors and keywords hold their rows.
  auto s = Store::Open(tmp_dir_.File("copied"), Store::Mode::kWrite);
  ASSERT_TRUE(s.ok());
  (*s)->db().Exec("INSERT INTO author_fts(author_fts) VALUES('integrity-check')");
  (*s)->db().Exec("INSERT INTO keyword_fts(keyword_fts) VALUES('integrity-check')");
  EXPECT_EQ((*s)->db().QueryInt("SELECT count(*) FROM keyword_pending"), 2);
  EXPECT_EQ((*s)->db().QueryInt("SELECT count(*) FROM institution"),
            (*s)->db().QueryInt("SELECT count(*) FROM institution WHERE name != ''"));
  // The third shard copied after the second was applied as records (it
  // overlaps the first), into a store that holds papers: the same rows again.
  const std::string overlap = tmp_dir_.File("overlap");
  ASSERT_NO_FATAL_FAILURE(Build(overlap, Join(finance, 50, 150), dirs[0], dirs[0]));
  MergeStats mixed, mixed_applied;
  ASSERT_NO_FATAL_FAILURE(merge("mixed", {dirs[0], overlap, dirs[2]}, true, &mixed));
  ASSERT_NO_FATAL_FAILURE(
      merge("mixed-applied", {dirs[0], overlap, dirs[2]}, false, &mixed_applied));
  EXPECT_EQ(mixed.works_copied, 145);  // the first and the third shard
  // The first shard's kept runs, then its papers that the second replaces.
  EXPECT_EQ(mixed.works_from_kept_runs, 145);
  EXPECT_EQ(mixed.works_updated, 50);
  EXPECT_EQ(Tables(tmp_dir_.File("mixed")), Tables(tmp_dir_.File("mixed-applied")));
  ExpectSameStore(tmp_dir_.File("mixed"), tmp_dir_.File("mixed-applied"));
}

TEST_F(MergeTest, AFailingShardLeavesTheOutputUnchanged) {
  const std::string main = tmp_dir_.File("main");
  ASSERT_NO_FATAL_FAILURE(Build(main, Join(Records(), 0, 8), single_, single_));
  const auto before = Dump(main);
  auto shards = Shards({8, 16, 24});
  ASSERT_EQ(shards.size(), 2u);
  {  // The second shard's last paper has damaged packed references.
    auto s = Store::Open(shards[1], Store::Mode::kWrite);
    ASSERT_TRUE(s.ok());
    (*s)->db().Exec("UPDATE paper SET refs = x'ff' WHERE id = (SELECT max(id) FROM paper)");
  }
  MergeStats ms;
  Status st = MergeInto(main, shards, &ms);
  EXPECT_EQ(st.code(), Code::kCorruption) << st.message();
  EXPECT_EQ(Dump(main), before);
  // A missing shard, and the output store as a shard, are refused up front.
  st = MergeInto(main, {shards[0], tmp_dir_.File("nonexistent")}, &ms);
  EXPECT_FALSE(st.ok());
  st = MergeInto(main, {main}, &ms);
  EXPECT_EQ(st.code(), Code::kInvalidArgument) << st.message();
  EXPECT_EQ(Dump(main), before);
  // No generation directory of the failed merges is left once a writer
  // opens the store.
  { ASSERT_TRUE(Store::Open(main, Store::Mode::kWrite).ok()); }
  int dirs = 0;
  for (const auto& e : std::filesystem::directory_iterator(main)) dirs += e.is_directory() ? 1 : 0;
  EXPECT_EQ(dirs, 3);  // graph, keywords and vectors: one current generation each
}

}  // namespace
}  // namespace litgraph
