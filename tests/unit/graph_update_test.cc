// The incremental graph update (UpdateGraph): a store grown by many small
// upserts — new works that resolve earlier dangling references, works
// replaced by versions with other references, related works, authors,
// topics, venues and counts — has after every update the very files a full
// build of the same rows writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/graph_build.h"
#include "litgraph/ingest.h"
#include "litgraph/keyword_store.h"
#include "litgraph/lexical.h"
#include "litgraph/store.h"
#include "test_util.h"

namespace litgraph {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::ScopedTempDir;

std::vector<json> ReadWorks() {
  std::vector<json> works;
  for (const char* name : {"snowball.works.jsonl", "search-biodiversity-finance.works.jsonl"}) {
    std::string text = testing::ReadFile(testing::TestData(name));
    size_t p = 0;
    while (p < text.size()) {
      size_t e = text.find('\n', p);
      if (e == std::string::npos) e = text.size();
      if (e > p) works.push_back(json::parse(text.substr(p, e - p)));
      p = e + 1;
    }
  }
  return works;
}

// Payload of every derived file of a graph generation, by name.
std::vector<std::pair<std::string, std::string>> FilesOf(const std::string& db, int64_t gen) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : fs::directory_iterator(db + "/graph." + std::to_string(gen))) {
    std::string name = e.path().filename().string();
    if (name == "MANIFEST" || name == "PIN") continue;
    out.emplace_back(name, testing::Payload(e.path().string()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

json Changed(json w, const std::string& other, const std::string& date);

class GraphUpdateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = Store::Open(tmp_.File("db"), Store::Mode::kWrite, /*create=*/true);
    ASSERT_TRUE(opened.ok()) << opened.status().message();
    store_ = std::move(*opened);
  }

  // Ingests `works` (one JSON line each) as one update.
  void Upsert(const std::vector<json>& works, bool build_graph = true) {
    std::string path = tmp_.File("batch.jsonl");
    std::string text;
    for (const json& w : works) text += w.dump() + "\n";
    testing::WriteFile(path, text);
    IngestOptions o;
    o.ranked_length = 4;  // short ranked lists: the fixtures' hubs have some
    o.cooccur_top_k = kTopK;
    o.full_build_fraction = 0.5;
    o.adjacency_delta_fraction = adjacency_fraction_;
    o.build_graph = build_graph;
    IngestStats is;
    Status st = Ingest(store_.get(), {path}, o, &is);
    ASSERT_TRUE(st.ok()) << st.message();
  }

  // Extracts keywords (built-in) for every paper or the missing ones.
  void ExtractKeywords(bool missing, size_t memory_budget = size_t{1} << 30) {
    KeywordRunOptions ko;
    ko.memory_budget = memory_budget;
    if (missing) ko.select = KeywordRunOptions::Select::kMissing;
    ko.ranked_length = 4;
    ko.cooccur_top_k = kTopK;
    ko.batch = 37;   // many batches: read and written while the next is extracted
    ko.threads = 2;  // COOCCUR recounts on two threads (ingest: one per core)
    KeywordRunStats ks;
    auto builtin = [](const PhraseStats* ps) {
      return MakeBuiltinKeywordBackend(ps, {}, nullptr, 2);
    };
    Status st = RunKeywordExtraction(store_.get(), ko, builtin, &ks);
    ASSERT_TRUE(st.ok()) << st.message();
  }

  // The papers extract-keywords --missing takes are those without a record
  // of their extraction, and every keyword's paper_count is its links'.
  void ExpectKeywordBookkeeping() {
    Stmt st = store_->db().Prepare(
        "SELECT p.id FROM paper p WHERE NOT EXISTS"
        " (SELECT 1 FROM keyword_extracted k WHERE k.paper_id = p.id) ORDER BY p.id");
    std::vector<int64_t> without;
    while (st.Step()) without.push_back(st.Int(0));
    EXPECT_EQ(store_->PaperIdsWithoutKeywords(), without);
    EXPECT_EQ(store_->db().QueryInt(
                  "SELECT count(*) FROM keyword k WHERE paper_count !="
                  " (SELECT count(*) FROM paper_keyword pk WHERE pk.keyword_id = k.id)"),
              0)
        << "keyword counts";
  }

  // The generation the last update wrote equals a full build of the store.
  // Counts the adjacency deltas the last update extended and folded.
  void TallyAdjacencyDeltas() {
    auto info = json::parse(store_->GetMeta("graph_info").value_or("{}"));
    if (!info.contains("adjacency_update")) return;
    const json& a = info["adjacency_update"];
    extended_ += a.value("deltas_extended", 0);
    folded_ += a.value("deltas_folded", 0);
  }

  void ExpectSameAsFullBuild(bool patched) {
    auto info = json::parse(store_->GetMeta("graph_info").value_or("{}"));
    TallyAdjacencyDeltas();
    EXPECT_EQ(info.contains("updated_papers"), patched)
        << "generation " << store_->Generation("graph");
    ExpectFilesOfAFullBuild();
  }

  void ExpectFilesOfAFullBuild() {
    const int64_t gen = store_->Generation("graph");
    GraphBuildOptions full;
    full.ranked_length = 4;
    full.cooccur_top_k = kTopK;
    GraphBuildStats gs;
    {
      Transaction txn(&store_->db(), "IMMEDIATE");
      Status st = BuildGraph(store_.get(), full, &gs);
      ASSERT_TRUE(st.ok()) << st.message();
      txn.Commit();
    }
    auto a = FilesOf(tmp_.File("db"), gen), b = FilesOf(tmp_.File("db"), gen + 1);
    // A lexical index with a delta ranks by its base's statistics (lexical.h):
    // its files differ from a full build's, and what it matches is checked.
    const bool delta =
        fs::exists(tmp_.File("db") + "/graph." + std::to_string(gen) + "/delta.lexicon");
    if (delta) {
      ++deltas_;
      auto lexical = [](const auto& file) {
        for (const char* name :
             {"lexicon", "postings", "run", "title.lexicon", "title.postings", "title.run"})
          if (file.first == name) return true;
        return file.first.rfind("delta.", 0) == 0 || file.first.rfind("title.delta.", 0) == 0;
      };
      std::erase_if(a, lexical);
      std::erase_if(b, lexical);
      ExpectSameMatches(gen, gen + 1);
    }
    // A relation with an adjacency delta: base and delta list what the full
    // build's file lists, node by node, with the same totals.
    std::vector<std::string> with_delta;
    for (const auto& [name, payload] : a)
      if (name.ends_with(kAdjDeltaSuffix))
        with_delta.push_back(name.substr(0, name.size() - std::strlen(kAdjDeltaSuffix)) + ".adj");
    for (const std::string& adj : with_delta) {
      ++adjacency_deltas_;
      ExpectSameLists(gen, gen + 1, adj);
      std::erase_if(a,
                    [&](const auto& f) { return f.first == adj || f.first == AdjDeltaName(adj); });
      std::erase_if(b, [&](const auto& f) { return f.first == adj; });
    }
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].first, b[i].first);
      EXPECT_TRUE(a[i].second == b[i].second)
          << a[i].first << " of the patched generation " << gen << " differs from a full build";
    }
  }

  // Relation `adj` of generation `patched` (a base and its delta) lists
  // what generation `full` lists.
  void ExpectSameLists(int64_t patched, int64_t full, const std::string& adj) {
    bool gone = false;
    auto pv = GenerationView::Open(tmp_.File("db"), store_->id(), "graph", patched, false, &gone);
    auto fv = GenerationView::Open(tmp_.File("db"), store_->id(), "graph", full, false, &gone);
    ASSERT_TRUE(pv.ok() && fv.ok());
    Adjacency p, f;
    ASSERT_TRUE(p.Open(**pv, adj).ok()) << adj;
    ASSERT_TRUE(f.Open(**fv, adj).ok()) << adj;
    ASSERT_NE(p.delta(), nullptr) << adj;
    // A generation with a delta says a format the readers before deltas refuse.
    const json manifest = json::parse(
        testing::Payload(tmp_.File("db") + "/graph." + std::to_string(patched) + "/MANIFEST"));
    EXPECT_EQ(manifest.value("format", 0), kDerivedFormatWithDeltas);
    EXPECT_EQ(f.delta(), nullptr) << adj;
    EXPECT_EQ(p.num_nodes(), f.num_nodes()) << adj;
    EXPECT_EQ(p.num_edges(), f.num_edges()) << adj;
    EXPECT_EQ(p.max_degree(), f.max_degree()) << adj;
    AdjacencyScan ps(p), fs(f);
    for (uint64_t n = 0; n < f.num_nodes() + 2; ++n) {
      const Adjacency::List a = p.Neighbours(n), b = f.Neighbours(n);
      ASSERT_TRUE(std::ranges::equal(a.ids, b.ids)) << adj << " node " << n;
      ASSERT_TRUE(std::ranges::equal(a.attrs, b.attrs)) << adj << " node " << n;
      const Adjacency::List c = ps.Get(n);  // the scan reads the same
      ASSERT_TRUE(std::ranges::equal(c.ids, b.ids)) << adj << " scanned node " << n;
      ASSERT_TRUE(std::ranges::equal(c.attrs, b.attrs)) << adj << " scanned node " << n;
    }
    EXPECT_TRUE(p.status().ok() && f.status().ok());
  }

  // Each paper's title, as a query of both lexical indexes of two
  // generations, matches the same papers (a paper whose base postings the
  // delta masks matches by its current text only).
  void ExpectSameMatches(int64_t patched, int64_t full) {
    bool gone = false;
    StoreId id = store_->id();
    auto open = [&](int64_t gen) {
      auto v = GenerationView::Open(tmp_.File("db"), id, "graph", gen, false, &gone);
      EXPECT_TRUE(v.ok()) << v.status().message();
      return std::move(*v);
    };
    auto pv = open(patched), fv = open(full);
    for (const std::string& prefix : {std::string(), std::string(kTitleIndexPrefix)}) {
      LexicalIndex p, f;
      ASSERT_TRUE(p.Open(*pv, prefix).ok());
      ASSERT_TRUE(f.Open(*fv, prefix).ok());
      EXPECT_TRUE(p.has_delta());
      std::vector<uint32_t> docs;
      for (int64_t d = 1; d <= store_->MaxId(NodeType::kPaper); ++d)
        docs.push_back(static_cast<uint32_t>(d));
      for (uint32_t d : docs) {
        auto text = store_->GetPaperText(d);
        if (!text) continue;
        auto q = LexicalIndex::QueryTerms(text->title);
        std::vector<float> in_p = p.ScoreDocs(q, docs), in_f = f.ScoreDocs(q, docs);
        for (size_t i = 0; i < docs.size(); ++i)
          ASSERT_EQ(in_p[i] > 0, in_f[i] > 0) << prefix << "title of " << d << " and paper "
                                              << docs[i] << ", generation " << patched;
      }
    }
  }

  // Half the fixtures, then the rest and changed versions of them in many
  // small upserts, each generation compared with a full build.
  void GrowByManySmallUpserts() {
    std::vector<json> works = ReadWorks();
    ASSERT_GE(works.size(), 200u);
    // A third without a record citation count: their in-store count changes
    // when a later work cites them, which ranks the lists holding them again.
    for (size_t i = 0; i < works.size(); i += 3) works[i].erase("cited_by_count");
    // Half the fixtures at once (a full build), then the rest in slices: later
    // slices hold works the earlier ones cite (their dangling references
    // resolve), and works the earlier ones are cited by.
    const size_t first = works.size() / 2;
    Upsert({works.begin(), works.begin() + first});
    ASSERT_GT(store_->Generation("graph"), 0);
    for (size_t at = first; at < works.size(); at += 25) {
      Upsert({works.begin() + at, works.begin() + std::min(works.size(), at + 25)});
      ExpectSameAsFullBuild(true);
    }
    // An author record: its last institution counts as an affiliation.
    json author = json::parse(testing::ReadFile(testing::TestData("A5023888391.json")));
    Upsert({author});
    ExpectSameAsFullBuild(true);
    // A new author's record twice in one ingest, then a work that lists it
    // with the first record's institution: none of it was in the graph.
    json newcomer = author;
    newcomer["id"] = "https://openalex.org/A9999999999";
    json again = newcomer;
    again["updated_date"] = "2030-01-01";
    again["last_known_institutions"] =
        json::array({{{"id", "https://openalex.org/I27837315"}, {"display_name", "Michigan"}}});
    json work = works[first];
    ASSERT_FALSE(work["authorships"].empty());
    work["updated_date"] = "2029-01-01";
    work["authorships"][0]["author"]["id"] = newcomer["id"];
    work["authorships"][0]["institutions"] = newcomer["last_known_institutions"];
    Upsert({newcomer, again, work});
    ExpectSameAsFullBuild(true);
    // Replaced versions: other references, related works, teams, topics,
    // years and counts; the author record twice, with another institution
    // each time (only the stored version's affiliation was in the graph).
    std::vector<json> changed;
    for (size_t i = 0; i < works.size(); i += 9)
      changed.push_back(Changed(works[i], works[(i * 7 + 3) % works.size()]["id"], "2030-01-01"));
    for (const char* inst :
         {"https://openalex.org/I27837315", "https://openalex.org/I4200000002"}) {
      json a = author;
      a["last_known_institutions"] = json::array({{{"id", inst}, {"display_name", inst}}});
      a["updated_date"] = std::string("2030-01-0") + (inst[24] == '2' ? "1" : "2");
      changed.push_back(a);
    }
    Upsert(changed);
    ExpectSameAsFullBuild(true);
    // A work that references a stored work and an unknown one: few
    // references are looked up one by one, many found by a scan (the slices
    // above); both resolve alike.
    {
      json w = works[5];
      w["referenced_works"] = json::array({works[7]["id"], "https://openalex.org/W1"});
      w["related_works"] = json::array({works[8]["id"]});
      w["updated_date"] = "2030-06-01";
      Upsert({w});
      ExpectSameAsFullBuild(true);
    }
    // One work three times in one ingest, each with other words: the second
    // version is the newest, the third is stale. The lexical delta, tokenized
    // while the records are written, holds what the store holds.
    {
      json w = works[3];
      std::vector<json> versions;
      for (const auto& [title, date] : {std::pair{"quasar lensing survey", "2032-01-01"},
                                        std::pair{"coral reef acoustics", "2032-02-01"},
                                        std::pair{"glacier calving dynamics", "2031-12-01"}}) {
        w["title"] = w["display_name"] = title;
        w["updated_date"] = date;
        versions.push_back(w);
      }
      Upsert(versions);
      const std::string url = works[3]["id"];
      const auto id = store_->PaperByExtId(url.substr(url.rfind('/') + 1));
      ASSERT_TRUE(id);
      auto stored = store_->GetPaperText(*id);
      ASSERT_TRUE(stored);
      EXPECT_EQ(stored->title, "coral reef acoustics");
      ExpectSameAsFullBuild(true);
    }
    // And back to the originals, later still.
    std::vector<json> back;
    for (size_t i = 0; i < works.size(); i += 9) {
      json w = works[i];
      w["updated_date"] = "2031-01-01";
      back.push_back(w);
    }
    Upsert(back);
    ExpectSameAsFullBuild(true);
    // An update with nothing new to write still makes a generation.
    Upsert({});
    ExpectSameAsFullBuild(true);
    EXPECT_GT(deltas_, 0);  // some updates wrote lexical deltas
  }

  static constexpr size_t kTopK = 3;  // own COOCCUR lists shorter than most rows
  ScopedTempDir tmp_;
  std::unique_ptr<Store> store_;
  int deltas_ = 0;                   // generations compared with a lexical delta
  int adjacency_deltas_ = 0;         // relations compared with an adjacency delta
  int extended_ = 0, folded_ = 0;    // deltas an update extended, folded into a base
  double adjacency_fraction_ = 0.2;  // IngestOptions::adjacency_delta_fraction of Upsert
};

// Another version of a work: fewer references plus one to `other`, related
// works, authors in another order without the last, other topic scores, a
// year later, no record citation count (the in-store count is used), a
// later updated_date.
json Changed(json w, const std::string& other, const std::string& date) {
  if (w.contains("referenced_works") && w["referenced_works"].is_array()) {
    json refs = json::array();
    for (size_t i = 0; i < w["referenced_works"].size(); i += 2)
      refs.push_back(w["referenced_works"][i]);
    refs.push_back(other);
    w["referenced_works"] = refs;
  }
  w["related_works"] = json::array({other});
  if (w.contains("authorships") && w["authorships"].is_array() && w["authorships"].size() > 1) {
    json a = w["authorships"];
    std::reverse(a.begin(), a.end());
    a.erase(a.end() - 1);
    w["authorships"] = a;
  }
  if (w.contains("topics") && w["topics"].is_array())
    for (auto& t : w["topics"])
      if (t.contains("score") && t["score"].is_number()) t["score"] = t["score"].get<double>() / 2;
  if (w.contains("publication_year") && w["publication_year"].is_number())
    w["publication_year"] = w["publication_year"].get<int>() + 1;
  w.erase("cited_by_count");
  w["updated_date"] = date;
  return w;
}

// Every update folds each relation's changes into its base file: the files
// are byte for byte a full build's.
TEST_F(GraphUpdateTest, ManySmallUpsertsWriteTheFilesOfAFullBuild) {
  adjacency_fraction_ = 0;
  GrowByManySmallUpserts();
  EXPECT_EQ(adjacency_deltas_, 0);
}

// With adjacency deltas (the default), each relation lists what a full
// build's lists; folding them (ingest --compact-at 0 with no input) writes
// the full build's files again.
TEST_F(GraphUpdateTest, ManySmallUpsertsWithAdjacencyDeltasListAsAFullBuild) {
  GrowByManySmallUpserts();
  EXPECT_GT(adjacency_deltas_, 0);
  adjacency_fraction_ = 0;
  const int before = adjacency_deltas_;
  Upsert({});
  ExpectSameAsFullBuild(true);
  EXPECT_EQ(adjacency_deltas_, before) << "a delta left after --compact-at 0";
}

// Updates one after another, with no full build between them (the
// comparisons above make one after each): deltas are extended by later
// updates and folded once they pass the fraction; at the end of each chain
// the relations list what a full build lists.
TEST_F(GraphUpdateTest, AdjacencyDeltasAreExtendedAndFoldedOverManyUpdates) {
  std::vector<json> works = ReadWorks();
  const size_t first = works.size() / 2;
  Upsert({works.begin(), works.begin() + first});
  adjacency_fraction_ = 0.35;
  size_t at = first;
  for (int chain = 0; chain < 3; ++chain) {
    for (int step = 0; step < 4 && at < works.size(); ++step, at += 8) {
      Upsert({works.begin() + at, works.begin() + std::min(works.size(), at + 8)});
      TallyAdjacencyDeltas();
    }
    std::vector<json> changed;  // and some changed versions of earlier works
    for (size_t i = chain; i < first; i += 23)
      changed.push_back(Changed(works[i], works[(i * 7 + 3) % works.size()]["id"],
                                "2030-01-0" + std::to_string(chain + 1)));
    Upsert(changed);
    ExpectSameAsFullBuild(true);
  }
  EXPECT_GT(extended_, 0) << "no update wrote a delta over a delta";
  EXPECT_GT(folded_, 0) << "no update folded a delta";
  // ingest --compact-at 0 with no input folds every delta: a full build's files.
  Upsert({works.begin() + at, works.begin() + std::min(works.size(), at + 8)});
  adjacency_fraction_ = 0;
  Upsert({});
  const int before = adjacency_deltas_;
  ExpectSameAsFullBuild(true);
  EXPECT_EQ(adjacency_deltas_, before) << "a delta left after --compact-at 0";
}

// Rows changed by an ingest without a graph build (--no-graph) are not in
// the graph: the next update builds in full.
TEST_F(GraphUpdateTest, AnUpdateAfterANoGraphIngestBuildsInFull) {
  std::vector<json> works = ReadWorks();
  Upsert({works.begin(), works.begin() + 100});
  Upsert({works.begin() + 100, works.begin() + 110}, /*build_graph=*/false);
  Upsert({works.begin() + 110, works.begin() + 120});
  ExpectSameAsFullBuild(false);
  Upsert({works.begin() + 120, works.begin() + 130});
  ExpectSameAsFullBuild(true);
}

TEST_F(GraphUpdateTest, ALargeUpdateBuildsInFull) {
  std::vector<json> works = ReadWorks();
  Upsert({works.begin(), works.begin() + 20});
  Upsert({works.begin() + 20, works.end()});  // ten times the store
  ExpectSameAsFullBuild(false);
}

// The keyword layer of extract-keywords and of ingest, patched: HAS_KEYWORD
// both ways and COOCCUR (with own lists of 3, so that most keywords have
// co-occurrences beyond their list) equal a full build's after new papers,
// papers whose text changed (their old keywords stay until the extraction)
// and extraction of the missing ones.
TEST_F(GraphUpdateTest, KeywordUpdatesWriteTheFilesOfAFullBuild) {
  std::vector<json> works = ReadWorks();
  const size_t first = works.size() / 2;
  Upsert({works.begin(), works.begin() + first});
  ExtractKeywords(false);
  ExpectFilesOfAFullBuild();
  int64_t certified = 0, recounted = 0;
  // How the last generation's own COOCCUR lists were found (its info's
  // `key`: an ingest's or extract-keywords' patch).
  auto tally = [&](const char* key) {
    auto info = json::parse(store_->GetMeta("graph_info").value_or("{}"));
    ASSERT_TRUE(info.contains(key)) << "the keyword layer was not patched";
    certified += info[key].value("certified", int64_t{0});
    recounted += info[key].value("recounted", int64_t{0});
  };
  auto upsert = [&](const std::vector<json>& batch) {
    Upsert(batch);
    tally("cooccur_update");
    ExpectSameAsFullBuild(true);
    ExpectKeywordBookkeeping();
    EXPECT_FALSE(store_->PaperIdsWithoutKeywords().empty());
  };
  // Every other extraction with a budget too small to hold the papers'
  // keyword lists: co-occurrences are then counted from the file.
  bool small_budget = false;
  auto extract_missing = [&] {
    ExtractKeywords(true, small_budget ? size_t{1} << 16 : size_t{1} << 30);
    small_budget = !small_budget;
    tally("keyword_update");
    ExpectFilesOfAFullBuild();
    ExpectKeywordBookkeeping();
    EXPECT_TRUE(store_->PaperIdsWithoutKeywords().empty());
  };
  for (size_t at = first; at < works.size(); at += 40) {
    ASSERT_NO_FATAL_FAILURE(
        upsert({works.begin() + at, works.begin() + std::min(works.size(), at + 40)}));
    ASSERT_NO_FATAL_FAILURE(extract_missing());
  }
  // Papers with another paper's title and abstract: the ingest keeps their
  // keywords, the extraction replaces them.
  std::vector<json> changed;
  for (size_t i = 0; i < works.size(); i += 7) {
    json w = works[i];
    const json& other = works[(i * 5 + 11) % works.size()];
    for (const char* f : {"title", "display_name", "abstract_inverted_index"})
      if (other.contains(f)) w[f] = other[f];
    w["updated_date"] = "2030-01-01";
    changed.push_back(w);
  }
  auto keywords_of = [&](const json& w) {
    std::vector<int64_t> out;
    std::string ext = w["id"].get<std::string>();
    ext = ext.substr(ext.rfind('/') + 1);  // an OpenAlex URL's W number
    auto id = store_->PaperByExtId(ext);
    EXPECT_TRUE(id);
    store_->ForEachPaperKeywordOf({static_cast<uint32_t>(id.value_or(0))},
                                  [&](int64_t, int64_t k, int64_t) { out.push_back(k); });
    return out;
  };
  const auto before = keywords_of(changed.front());
  ASSERT_FALSE(before.empty());
  ASSERT_NO_FATAL_FAILURE(upsert(changed));
  EXPECT_EQ(keywords_of(changed.front()), before) << "kept until the extraction";
  ASSERT_NO_FATAL_FAILURE(extract_missing());
  EXPECT_NE(keywords_of(changed.front()), before) << "the new text's keywords";
  std::vector<json> back;
  for (size_t i = 0; i < works.size(); i += 7) {
    json w = works[i];
    w["updated_date"] = "2031-01-01";
    back.push_back(w);
  }
  ASSERT_NO_FATAL_FAILURE(upsert(back));
  ASSERT_NO_FATAL_FAILURE(extract_missing());
  // Both ways of finding a new own list were taken.
  EXPECT_GT(certified, 0);
  EXPECT_GT(recounted, 0);
}

// Phrase statistics counted on several threads are those counted on one,
// with runs spilled (a small budget) or not.
TEST_F(GraphUpdateTest, PhraseStatisticsDoNotDependOnThreads) {
  Upsert(ReadWorks(), /*build_graph=*/false);
  auto count = [&](size_t memory, int threads) {
    auto out = CountPhraseStats(store_.get(), memory, threads);
    EXPECT_TRUE(out.ok()) << out.status().message();
    if (!out.ok()) return std::string();
    return testing::Payload((*out)->Path("phrase_df"));
  };
  const std::string one = count(size_t{1} << 30, 1);
  ASSERT_FALSE(one.empty());
  EXPECT_EQ(count(size_t{1} << 30, 3), one);
  const std::string spilled = count(size_t{1} << 16, 1);
  EXPECT_EQ(count(size_t{1} << 16, 3), spilled);
}

}  // namespace
}  // namespace litgraph
