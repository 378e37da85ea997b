// Tests of metric_select.h: condition parsing, values, and the source on a
// real store: computed on demand (CD per paper, PageRank in memory), read
// from the metrics file once built, the same either way, novelty refused
// without a file that has it, and the filter.
#include "litgraph/metric_select.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "store_fixture.h"
#include "test_util.h"

namespace litgraph {
namespace {

TEST(MetricSelect, ParsesConditions) {
  auto c = ParseMetricCondition("cd>=0.2");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->field, MetricField::kCd);
  EXPECT_EQ(c->op, CompareOp::kGreaterEqual);
  EXPECT_EQ(c->value, 0.2);
  c = ParseMetricCondition(" citation_percentile < 90 ");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->field, MetricField::kPercentile);
  EXPECT_EQ(c->op, CompareOp::kLess);
  EXPECT_EQ(c->value, 90);
  for (auto [text, op] :
       std::vector<std::pair<const char*, CompareOp>>{{"n_k=0", CompareOp::kEqual},
                                                      {"n_k==0", CompareOp::kEqual},
                                                      {"n_k!=0", CompareOp::kNotEqual},
                                                      {"n_k<=0", CompareOp::kLessEqual},
                                                      {"n_k>0", CompareOp::kGreater}}) {
    auto x = ParseMetricCondition(text);
    ASSERT_TRUE(x.ok()) << text;
    EXPECT_EQ(x->op, op) << text;
    EXPECT_EQ(x->field, MetricField::kNK);
  }
  for (const char* bad : {"cd", "cd>=", "cd>=x", "cd>=nan", "cd>=inf", "disruption>=0.1", ">=1",
                          "cd=>1", "cd>=1 2"}) {
    auto x = ParseMetricCondition(bad);
    ASSERT_FALSE(x.ok()) << bad;
    EXPECT_EQ(x.status().code(), Code::kInvalidArgument) << bad;
  }
  EXPECT_NE(ParseMetricCondition("disruption>1").status().message().find("cited_by_in_store"),
            std::string::npos);  // lists the known fields
  for (const auto& name : MetricFieldNames())
    EXPECT_STREQ(MetricFieldName(*ParseMetricField(name)), name.c_str());
}

TEST(MetricSelect, ConditionsOnNullNeverHold) {
  MetricCondition c;
  c.op = CompareOp::kNotEqual;
  c.value = 1;
  EXPECT_FALSE(c.Holds(std::nullopt));
  EXPECT_TRUE(c.Holds(0.5));
  MetricRecord r;
  r.disruption.undefined = CdUndefined::kNoReferences;
  r.disruption.n_i = 3;
  EXPECT_FALSE(MetricValue(r, MetricField::kCd).has_value());
  EXPECT_EQ(*MetricValue(r, MetricField::kNI), 3);
  EXPECT_FALSE(MetricValue(r, MetricField::kPageRank).has_value());
  EXPECT_FALSE(MetricValue(r, MetricField::kNovelty).has_value());
}

// F (2005) cites R1, R2 (2000); A 2006, J 2010 cite F; B 2007 cites F and
// R1; C 2008 cites R2: CD_5(F) = (2 - 1) / (2 + 1 + 1) = 0.25.
TEST(MetricSelect, SourceComputesThenReadsTheFile) {
  litgraph::testing::ScopedTempDir tmp;
  const std::vector<std::tuple<std::string, int, std::vector<std::string>>> rows = {
      {"R1", 2000, {}},         {"R2", 2000, {}},    {"F", 2005, {"R1", "R2"}}, {"A", 2006, {"F"}},
      {"B", 2007, {"F", "R1"}}, {"C", 2008, {"R2"}}, {"J", 2010, {"F"}}};
  std::string lines;
  for (const auto& [id, year, refs] : rows)
    lines += nlohmann::json({{"id", id},
                             {"title", "Paper " + id},
                             {"year", year},
                             {"references", refs},
                             {"venue", "V" + std::to_string(year % 2)}})
                 .dump() +
             "\n";
  std::unique_ptr<Store> store;
  std::unique_ptr<Graph> graph;
  ASSERT_NO_FATAL_FAILURE(litgraph::testing::IngestStore(tmp, lines, &store, &graph));
  std::map<std::string, uint32_t> id;
  for (const auto& row : rows)
    id[std::get<0>(row)] = static_cast<uint32_t>(*store->PaperByExtId(std::get<0>(row)));
  std::string note;
  // No file: CD on demand.
  auto cd_only = PaperMetricSource::Open(store.get(), graph.get(), {MetricField::kCd}, 1, &note);
  ASSERT_TRUE(cd_only.ok()) << cd_only.status().message();
  EXPECT_FALSE((*cd_only)->from_file());
  EXPECT_NE(note.find("no metrics file"), std::string::npos);
  EXPECT_DOUBLE_EQ(*(*cd_only)->Get(id["F"]).disruption.Cd(), 0.25);
  EXPECT_FALSE((*cd_only)->Get(id["F"]).pagerank.has_value());
  EXPECT_EQ((*cd_only)->Get(id["F"]).in_store_citations, 3u);
  MetricFilter filter(cd_only->get(), {*ParseMetricCondition("cd>0.2")});
  EXPECT_TRUE(filter.Accept(id["F"]));
  EXPECT_FALSE(filter.Accept(id["R1"]));  // no references: CD null
  MetricFilter none(cd_only->get(), {*ParseMetricCondition("cd>0.3")});
  EXPECT_FALSE(none.Accept(id["F"]));
  // PageRank without a file: every paper's metrics in memory.
  auto ranked = PaperMetricSource::Open(store.get(), graph.get(),
                                        {MetricField::kPageRank, MetricField::kCd}, 1, &note);
  ASSERT_TRUE(ranked.ok());
  EXPECT_NE(note.find("in memory"), std::string::npos);
  const MetricRecord computed = (*ranked)->Get(id["R2"]);
  ASSERT_TRUE(computed.pagerank.has_value());
  EXPECT_DOUBLE_EQ(*(*ranked)->Get(id["F"]).disruption.Cd(), 0.25);
  // Novelty: never computed at query time.
  auto novelty =
      PaperMetricSource::Open(store.get(), graph.get(), {MetricField::kNovelty}, 1, &note);
  ASSERT_FALSE(novelty.ok());
  EXPECT_EQ(novelty.status().code(), Code::kInvalidArgument);
  EXPECT_NE(novelty.status().message().find("--build --novelty"), std::string::npos);
  // Built: read from the file, the same values.
  graph.reset();
  MetricsBuildStats stats;
  ASSERT_TRUE(BuildMetrics(store.get(), MetricsBuildOptions(), &stats).ok());
  store.reset();
  auto reader = Store::Open(tmp.File("db"), Store::Mode::kRead);
  ASSERT_TRUE(reader.ok());
  auto g = Graph::Open(reader->get());
  ASSERT_TRUE(g.ok());
  auto file = PaperMetricSource::Open(reader->get(), g->get(),
                                      {MetricField::kPageRank, MetricField::kCd}, 1, &note);
  ASSERT_TRUE(file.ok());
  EXPECT_TRUE((*file)->from_file());
  EXPECT_EQ(note, "");
  EXPECT_EQ((*file)->Get(id["F"]).disruption, (*ranked)->Get(id["F"]).disruption);
  EXPECT_NEAR(*(*file)->Get(id["R2"]).pagerank, *computed.pagerank, 1e-9);
  EXPECT_EQ(*(*file)->Get(id["R2"]).percentile, *computed.percentile);
  EXPECT_TRUE((*file)->Get(id["F"]).from_file);
  // The file has no novelty: asking for it still says how to get it.
  auto no_novelty =
      PaperMetricSource::Open(reader->get(), g->get(), {MetricField::kConventionality}, 1, &note);
  ASSERT_FALSE(no_novelty.ok());
  EXPECT_NE(no_novelty.status().message().find("not in the store's metrics file"),
            std::string::npos);
  EXPECT_TRUE((*file)->status().ok());
}

}  // namespace
}  // namespace litgraph
