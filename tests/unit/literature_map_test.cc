// Tests of literature_map.h on a small hand-built citation graph, whose
// co-citation and coupling values are worked out below by hand.
#include "litgraph/literature_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/ingest.h"
#include "litgraph/store.h"
#include "store_fixture.h"
#include "test_util.h"

namespace litgraph {
namespace {

// S is the seed. Its citing papers C1 (cites S A B), C2 (S A), C3 (S B D E)
// make A, B, D, E co-cited with it; its references R1 (cited by S A P),
// R2 (S A Q T U) and R3 (S and H1..H10) couple it with A, P, Q, T, U, H*.
// X1 (cites A), X2 (E F) and Z (cited by T) complete the degrees:
//   |C(S)| = 3, |C(A)| = 3, |C(B)| = 2, |C(D)| = 1, |C(E)| = 2
//   |R(S)| = 3, |R(A)| = 2, |R(P)| = |R(Q)| = |R(U)| = 1, |R(T)| = 2
//   |R(C1)| = 3, |R(C2)| = 2, |R(C3)| = 4; |C(R1)| = 3, |C(R2)| = 5, |C(R3)| = 11
const std::vector<std::pair<std::string, std::vector<std::string>>> kPapers = {
    {"S", {"R1", "R2", "R3"}},
    {"A", {"R1", "R2"}},
    {"B", {}},
    {"D", {}},
    {"E", {}},
    {"F", {}},
    {"P", {"R1"}},
    {"Q", {"R2"}},
    {"T", {"R2", "Z"}},
    {"U", {"R2"}},
    {"R1", {}},
    {"R2", {}},
    {"R3", {}},
    {"Z", {}},
    {"C1", {"S", "A", "B"}},
    {"C2", {"S", "A"}},
    {"C3", {"S", "B", "D", "E"}},
    {"X1", {"A"}},
    {"X2", {"E", "F"}},
    {"H1", {"R3"}},
    {"H2", {"R3"}},
    {"H3", {"R3"}},
    {"H4", {"R3"}},
    {"H5", {"R3"}},
    {"H6", {"R3"}},
    {"H7", {"R3"}},
    {"H8", {"R3"}},
    {"H9", {"R3"}},
    {"H10", {"R3"}},
};

class LiteratureMapTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string lines;
    for (const auto& [id, refs] : kPapers)
      lines +=
          nlohmann::json{{"id", id}, {"title", "Paper " + id}, {"references", refs}}.dump() + "\n";
    ASSERT_NO_FATAL_FAILURE(litgraph::testing::IngestStore(tmp_, lines, &store_, &graph_));
    for (const auto& [id, refs] : kPapers) {
      auto dense = store_->PaperByExtId(id);
      ASSERT_TRUE(dense.has_value()) << id;
      id_[id] = static_cast<uint32_t>(*dense);
      name_[static_cast<uint32_t>(*dense)] = id;
    }
  }

  LiteratureMap Build(std::vector<std::string> seeds, MapOptions o) {
    std::vector<uint32_t> ids;
    for (const std::string& s : seeds) ids.push_back(id_.at(s));
    auto map = BuildLiteratureMap(*graph_, ids, o);
    EXPECT_TRUE(map.ok()) << map.status().message();
    return map.ok() ? *map : LiteratureMap();
  }
  // The entries of a role, by name, in rank order.
  std::vector<std::string> Role(const LiteratureMap& m, MapRole role) {
    std::vector<std::string> out;
    for (const MapEntry& e : m.entries)
      if (e.role == role) out.push_back(name_.at(e.paper));
    return out;
  }
  const MapEntry* Find(const LiteratureMap& m, const std::string& name) {
    for (const MapEntry& e : m.entries)
      if (e.paper == id_.at(name)) return &e;
    return nullptr;
  }
  std::vector<std::string> Names(const std::vector<uint32_t>& ids) {
    std::vector<std::string> out;
    for (uint32_t p : ids) out.push_back(name_.at(p));
    std::sort(out.begin(), out.end());
    return out;
  }
  // A map with every candidate as a similar work, both relations weighing 1.
  static MapOptions All(MapMeasure cc, MapMeasure bc) {
    MapOptions o;
    o.similar = 100;
    o.coupling_weight = 1;
    o.co_citation = cc;
    o.coupling = bc;
    return o;
  }

  litgraph::testing::ScopedTempDir tmp_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Graph> graph_;
  std::map<std::string, uint32_t> id_;
  std::map<uint32_t, std::string> name_;
};

const double kLn2 = std::log(2.0), kLn3 = std::log(3.0), kLn4 = std::log(4.0), kLn5 = std::log(5.0),
             kLn11 = std::log(11.0);

TEST_F(LiteratureMapTest, MeasureNames) {
  for (MapMeasure m : {MapMeasure::kCount, MapMeasure::kSalton, MapMeasure::kAdamicAdar}) {
    MapMeasure back = MapMeasure::kCount;
    ASSERT_TRUE(ParseMapMeasure(MapMeasureName(m), &back));
    EXPECT_EQ(back, m);
  }
  MapMeasure m;
  EXPECT_FALSE(ParseMapMeasure("cosine", &m));
  EXPECT_STREQ(MapMeasureName(MapMeasure::kAdamicAdar), "adamic-adar");
  MapNormalization n;
  EXPECT_TRUE(ParseMapNormalization("global", &n));
  EXPECT_EQ(n, MapNormalization::kGlobal);
  EXPECT_FALSE(ParseMapNormalization("none", &n));
  EXPECT_STREQ(MapRoleName(MapRole::kDerivative), "derivative");
}

TEST_F(LiteratureMapTest, CountsAreSharedPapers) {
  LiteratureMap m = Build({"S"}, All(MapMeasure::kCount, MapMeasure::kCount));
  const std::map<std::string, std::pair<uint32_t, uint32_t>> want = {
      {"A", {2, 2}}, {"B", {2, 0}}, {"D", {1, 0}}, {"E", {1, 0}},  {"P", {0, 1}},
      {"Q", {0, 1}}, {"T", {0, 1}}, {"U", {0, 1}}, {"H1", {0, 1}}, {"H10", {0, 1}}};
  for (const auto& [name, counts] : want) {
    const MapEntry* e = Find(m, name);
    ASSERT_NE(e, nullptr) << name;
    EXPECT_EQ(e->role, MapRole::kSimilar) << name;
    EXPECT_EQ(e->co_cited, counts.first) << name;
    EXPECT_EQ(e->coupled, counts.second) << name;
    EXPECT_DOUBLE_EQ(e->co_citation, counts.first) << name;
    EXPECT_DOUBLE_EQ(e->coupling, counts.second) << name;
    EXPECT_EQ(Names(e->seeds), std::vector<std::string>{"S"}) << name;
    EXPECT_EQ(e->similar_to, static_cast<int64_t>(id_["S"])) << name;
  }
  EXPECT_EQ(m.candidates, 4u + 4u + 10u);  // A B D E; P Q T U; H1..H10
  EXPECT_FALSE(m.capped);
  // Per seed, each relation over its best (2 and 2), summed: A 1 + 1, B 1, the rest 1/2;
  // ties by citations (E 2, D 1, the others 0), then dense id.
  std::vector<std::string> similar = Role(m, MapRole::kSimilar);
  ASSERT_EQ(similar.size(), 18u);
  EXPECT_EQ(std::vector<std::string>(similar.begin(), similar.begin() + 4),
            (std::vector<std::string>{"A", "B", "E", "D"}));
  EXPECT_DOUBLE_EQ(Find(m, "A")->score, 2.0);
  EXPECT_DOUBLE_EQ(Find(m, "B")->score, 1.0);
  EXPECT_DOUBLE_EQ(Find(m, "P")->score, 0.5);
  EXPECT_DOUBLE_EQ(Find(m, "H3")->score, 0.5);
}

TEST_F(LiteratureMapTest, SaltonIsTheCosineOfCitationVectors) {
  LiteratureMap m = Build({"S"}, All(MapMeasure::kSalton, MapMeasure::kSalton));
  // Co-citation: shared citing papers over sqrt(|C(S)| |C(q)|), |C(S)| = 3.
  EXPECT_DOUBLE_EQ(Find(m, "A")->co_citation, 2 / std::sqrt(3.0 * 3));
  EXPECT_DOUBLE_EQ(Find(m, "B")->co_citation, 2 / std::sqrt(3.0 * 2));
  EXPECT_DOUBLE_EQ(Find(m, "D")->co_citation, 1 / std::sqrt(3.0 * 1));
  EXPECT_DOUBLE_EQ(Find(m, "E")->co_citation, 1 / std::sqrt(3.0 * 2));
  // Coupling: shared references over sqrt(|R(S)| |R(q)|), |R(S)| = 3.
  EXPECT_DOUBLE_EQ(Find(m, "A")->coupling, 2 / std::sqrt(3.0 * 2));
  EXPECT_DOUBLE_EQ(Find(m, "P")->coupling, 1 / std::sqrt(3.0 * 1));
  EXPECT_DOUBLE_EQ(Find(m, "T")->coupling, 1 / std::sqrt(3.0 * 2));
  EXPECT_DOUBLE_EQ(Find(m, "H7")->coupling, 1 / std::sqrt(3.0 * 1));
  // Similarity: co-citation over its best (B's), plus coupling over its best (A's).
  const double best_cc = 2 / std::sqrt(6.0), best_bc = 2 / std::sqrt(6.0);
  EXPECT_DOUBLE_EQ(Find(m, "A")->score, (2 / 3.0) / best_cc + 1.0);
  EXPECT_DOUBLE_EQ(Find(m, "D")->score, (1 / std::sqrt(3.0)) / best_cc);
  EXPECT_DOUBLE_EQ(Find(m, "P")->score, (1 / std::sqrt(3.0)) / best_bc);
}

TEST_F(LiteratureMapTest, AdamicAdarWeighsRarePapersMore) {
  LiteratureMap m = Build({"S"}, All(MapMeasure::kAdamicAdar, MapMeasure::kAdamicAdar));
  // Co-citation: 1 / log |R(c)| over the shared citing papers c (C1: 3, C2: 2, C3: 4).
  EXPECT_DOUBLE_EQ(Find(m, "A")->co_citation, 1 / kLn3 + 1 / kLn2);
  EXPECT_DOUBLE_EQ(Find(m, "B")->co_citation, 1 / kLn3 + 1 / kLn4);
  EXPECT_DOUBLE_EQ(Find(m, "D")->co_citation, 1 / kLn4);
  EXPECT_DOUBLE_EQ(Find(m, "E")->co_citation, 1 / kLn4);
  // Coupling: 1 / log |C(r)| over the shared references r (R1: 3, R2: 5, R3: 11).
  EXPECT_DOUBLE_EQ(Find(m, "A")->coupling, 1 / kLn3 + 1 / kLn5);
  EXPECT_DOUBLE_EQ(Find(m, "P")->coupling, 1 / kLn3);
  EXPECT_DOUBLE_EQ(Find(m, "U")->coupling, 1 / kLn5);
  EXPECT_DOUBLE_EQ(Find(m, "H2")->coupling, 1 / kLn11);
  EXPECT_EQ(Find(m, "A")->co_cited, 2u);  // counts are kept whatever the measure
  EXPECT_EQ(Find(m, "A")->coupled, 2u);
}

TEST_F(LiteratureMapTest, PriorAndDerivativeWorks) {
  MapOptions o;
  o.co_citation = MapMeasure::kSalton;  // Inciteful's pair, at equal weights
  o.coupling = MapMeasure::kAdamicAdar;
  o.coupling_weight = 1;
  o.similar = 3;
  LiteratureMap m = Build({"S"}, o);
  // Similarity: A 2/3 / (2/sqrt 6) + 1, B 1, D (1/sqrt 3) / (2/sqrt 6), P (1/ln 3) / A's ...
  EXPECT_EQ(Role(m, MapRole::kSeed), std::vector<std::string>{"S"});
  EXPECT_EQ(Role(m, MapRole::kSimilar), (std::vector<std::string>{"A", "B", "D"}));
  // G = S A B D. Prior: R1 and R2 cited by S and A (R2 first: cited more), R3 by S.
  EXPECT_EQ(Role(m, MapRole::kPrior), (std::vector<std::string>{"R2", "R1", "R3"}));
  EXPECT_DOUBLE_EQ(Find(m, "R2")->score, 2);
  EXPECT_DOUBLE_EQ(Find(m, "R3")->score, 1);
  EXPECT_EQ(Names(Find(m, "R1")->cited_by), (std::vector<std::string>{"A", "S"}));
  // Derivative: C1 cites S A B, C3 S B D (C1 first: dense id), C2 S A, X1 A.
  EXPECT_EQ(Role(m, MapRole::kDerivative), (std::vector<std::string>{"C1", "C3", "C2", "X1"}));
  EXPECT_DOUBLE_EQ(Find(m, "C1")->score, 3);
  EXPECT_DOUBLE_EQ(Find(m, "X1")->score, 1);
  EXPECT_EQ(Names(Find(m, "C3")->cites), (std::vector<std::string>{"B", "D", "S"}));
  // Ranks within each role; seeds score 0.
  EXPECT_EQ(Find(m, "S")->rank, 1);
  EXPECT_EQ(Find(m, "R1")->rank, 2);
  EXPECT_EQ(Find(m, "C2")->rank, 3);
  // Every citation edge among the map's papers, and only those.
  std::set<std::pair<std::string, std::string>> edges;
  for (auto [a, b] : m.citations) edges.insert({name_[a], name_[b]});
  const std::set<std::pair<std::string, std::string>> want = {
      {"S", "R1"}, {"S", "R2"}, {"S", "R3"}, {"A", "R1"}, {"A", "R2"}, {"C1", "S"}, {"C1", "A"},
      {"C1", "B"}, {"C2", "S"}, {"C2", "A"}, {"C3", "S"}, {"C3", "B"}, {"C3", "D"}, {"X1", "A"}};
  EXPECT_EQ(edges, want);
  // Limits: fewer prior and derivative works; none at all.
  o.prior = 1;
  o.derivative = 0;
  m = Build({"S"}, o);
  EXPECT_EQ(Role(m, MapRole::kPrior), std::vector<std::string>{"R2"});
  EXPECT_TRUE(Role(m, MapRole::kDerivative).empty());
}

TEST_F(LiteratureMapTest, SeedsAreNeverSimilarWorks) {
  MapOptions o = All(MapMeasure::kCount, MapMeasure::kCount);
  LiteratureMap m = Build({"S", "A", "S"}, o);  // a repeated seed counts once
  EXPECT_EQ(Role(m, MapRole::kSeed), (std::vector<std::string>{"S", "A"}));
  for (const std::string& s : Role(m, MapRole::kSimilar)) EXPECT_TRUE(s != "S" && s != "A");
  for (const std::string& s : Role(m, MapRole::kPrior)) EXPECT_TRUE(s != "S" && s != "A");
  // A seed's row holds what it shares with the other seeds: A and S are both cited by C1
  // and C2, and share R1 and R2.
  EXPECT_EQ(Find(m, "A")->co_cited, 2u);
  EXPECT_EQ(Find(m, "A")->coupled, 2u);
  EXPECT_EQ(Find(m, "S")->co_cited, 2u);
  EXPECT_EQ(Names(Find(m, "A")->seeds), std::vector<std::string>{"S"});
  EXPECT_EQ(Find(m, "A")->similar_to, -1);
  // Evidence adds up over the seeds: B is co-cited with S (C1, C3) and with A (C1).
  EXPECT_EQ(Find(m, "B")->co_cited, 3u);
  EXPECT_EQ(Names(Find(m, "B")->seeds), (std::vector<std::string>{"A", "S"}));
  LiteratureMap only_a = Build({"A"}, MapOptions());
  LiteratureMap only_s = Build({"S"}, MapOptions());
  LiteratureMap both = Build({"S", "A"}, MapOptions());
  EXPECT_DOUBLE_EQ(Find(both, "B")->co_citation,
                   Find(only_s, "B")->co_citation + Find(only_a, "B")->co_citation);
  // Not found without seeds.
  EXPECT_FALSE(BuildLiteratureMap(*graph_, {}, MapOptions()).ok());
}

TEST_F(LiteratureMapTest, GlobalNormalizationAndWeights) {
  // One seed: scaling per seed and globally agree.
  MapOptions o = All(MapMeasure::kSalton, MapMeasure::kAdamicAdar);
  LiteratureMap per_seed = Build({"S"}, o);
  o.normalization = MapNormalization::kGlobal;
  LiteratureMap global = Build({"S"}, o);
  EXPECT_EQ(Role(per_seed, MapRole::kSimilar), Role(global, MapRole::kSimilar));
  for (const MapEntry& e : global.entries) {
    if (e.role == MapRole::kSimilar) {
      EXPECT_DOUBLE_EQ(e.score, Find(per_seed, name_[e.paper])->score);
    }
  }
  // Coupling alone: co-citation is not read, so B, D and E are not candidates.
  o.co_citation_weight = 0;
  LiteratureMap coupling = Build({"S"}, o);
  EXPECT_EQ(Find(coupling, "B"), nullptr);
  EXPECT_EQ(Role(coupling, MapRole::kSimilar).front(), "A");
  EXPECT_DOUBLE_EQ(Find(coupling, "A")->score, 1.0);
  EXPECT_DOUBLE_EQ(Find(coupling, "P")->score, (1 / kLn3) / (1 / kLn3 + 1 / kLn5));
  // Weights scale each relation.
  o = All(MapMeasure::kCount, MapMeasure::kCount);
  o.coupling_weight = 3;
  LiteratureMap weighted = Build({"S"}, o);
  EXPECT_DOUBLE_EQ(Find(weighted, "A")->score, 1 + 3);
  EXPECT_DOUBLE_EQ(Find(weighted, "P")->score, 3 * 0.5);
  EXPECT_EQ(Role(weighted, MapRole::kSimilar)[1], "P");  // 1.5 (coupling 1/2, x 3) beats B's 1
}

TEST_F(LiteratureMapTest, HubScansAreCapped) {
  MapOptions o = All(MapMeasure::kCount, MapMeasure::kCount);
  o.max_scan = 2;  // co-citation reads 2 of S's 3 citing papers: C1 and C2 (all cited 0 times:
                   // by id); coupling reads up to 20 citations: all 19 of R1, R2, R3
  LiteratureMap m = Build({"S"}, o);
  EXPECT_TRUE(m.capped);
  EXPECT_EQ(Find(m, "A")->co_cited, 2u);
  EXPECT_EQ(Find(m, "B")->co_cited, 1u);  // C3 was not read
  EXPECT_EQ(Find(m, "D"), nullptr);
  ASSERT_NE(Find(m, "H1"), nullptr);
  o.max_scan = 1;  // coupling reads up to 10: R1 (3) and R2 (5), not the hub R3 (11)
  m = Build({"S"}, o);
  EXPECT_TRUE(m.capped);
  EXPECT_EQ(Find(m, "H1"), nullptr);
  EXPECT_EQ(Find(m, "A")->coupled, 2u);
  o.max_scan = 3;
  EXPECT_FALSE(Build({"S"}, o).capped);
}

}  // namespace
}  // namespace litgraph
