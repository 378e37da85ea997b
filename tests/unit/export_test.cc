#include "litgraph/export.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "litgraph/graph.h"
#include "litgraph/ingest.h"
#include "litgraph/store.h"
#include "store_fixture.h"
#include "test_util.h"

namespace litgraph {
namespace {

TEST(XmlTextTest, EscapesMarkup) {
  EXPECT_EQ(XmlText("a < b & c > \"d\" 'e'"), "a &lt; b &amp; c &gt; &quot;d&quot; &apos;e&apos;");
  EXPECT_EQ(XmlText(""), "");
}

TEST(XmlTextTest, DropsCharactersXmlForbids) {
  EXPECT_EQ(XmlText(std::string("a\x01"
                                "b\x1b[2Jc\x7f"
                                "d",
                                10)),
            "ab[2Jcd");
  EXPECT_EQ(XmlText(std::string("nul\0x", 5)), "nulx");
  EXPECT_EQ(XmlText("tab\tline\ncr\r"), "tab\tline\ncr\r");  // allowed in XML 1.0
  EXPECT_EQ(XmlText("c1 \xC2\x9B"
                    "31m"),
            "c1 31m");  // U+009B CSI
  EXPECT_EQ(XmlText("\xEF\xBF\xBE\xEF\xBF\xBF"
                    "ok"),
            "ok");  // U+FFFE, U+FFFF
}

TEST(XmlTextTest, KeepsValidUtf8AndReplacesInvalid) {
  EXPECT_EQ(XmlText("Gödel – 数学 \xF0\x9F\x93\x9A"), "Gödel – 数学 \xF0\x9F\x93\x9A");
  EXPECT_EQ(XmlText("\xFF"
                    "a"),
            "\xEF\xBF\xBD"
            "a");
  EXPECT_EQ(XmlText("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong '/'
  EXPECT_EQ(XmlText("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(XmlText("cut \xE6\x95"), "cut \xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(XmlTextTest, EscapingTwiceEscapesTheAmpersands) {
  EXPECT_EQ(XmlText(XmlText("<")), "&amp;lt;");
}

TEST(CsvStringTest, QuotesAndDoublesQuotes) {
  EXPECT_EQ(CsvString("plain"), "\"plain\"");
  EXPECT_EQ(CsvString(""), "\"\"");
  EXPECT_EQ(CsvString("say \"hi\", then go"), "\"say \"\"hi\"\", then go\"");
  EXPECT_EQ(CsvString("a;b\\c"), "\"a;b\\c\"");  // no escapes but quotes
}

TEST(CsvStringTest, NoFieldSpansLines) {
  EXPECT_EQ(CsvString("line\r\nnext\ttab\x1b"), "\"line  next tab \"");
  EXPECT_EQ(CsvString("c1\xC2\x9B"
                      "31m \xC2\xA0nbsp"),
            "\"c1 31m \xC2\xA0nbsp\"");
}

TEST(ParseRelationsTest, NamesAnyCaseAndSpaces) {
  auto r = ParseRelations("cites, AUTHORED ,Has_Keyword");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->count(), 3u);
  EXPECT_TRUE(r->test(static_cast<int>(Rel::kCitesOut)));
  EXPECT_TRUE(r->test(static_cast<int>(Rel::kAuthoredPapers)));
  EXPECT_TRUE(r->test(static_cast<int>(Rel::kKeywords)));
}

TEST(ParseRelationsTest, UnknownNameListsTheValidOnes) {
  auto r = ParseRelations("CITES,CITED_BY");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
  EXPECT_NE(r.status().message().find("'CITED_BY'"), std::string::npos);
  EXPECT_NE(r.status().message().find("COOCCUR"), std::string::npos);
  EXPECT_FALSE(ParseRelations(" , ").ok());
}

TEST(ExportRelationNamesTest, OneDirectionPerRelationType) {
  const std::vector<std::string> names = ExportRelationNames();
  EXPECT_EQ(names.size(), 12u);  // SciAtlas's relation types
  EXPECT_EQ(AllExportRelations().count(), names.size());
  for (const char* want :
       {"CITES", "RELATED_TO", "AUTHORED", "COAUTHOR", "AFFILIATED_WITH", "PUBLISHED_IN",
        "HAS_TOPIC", "SUBFIELD_OF", "FIELD_OF", "DOMAIN_OF", "HAS_KEYWORD", "COOCCUR"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
}

// A small store: P0 <- P1 <- P2 <- P3 (each cites the previous), P4 alone,
// P0 and P1 by author A, P3 by B.
class ExportStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string lines;
    for (int i = 0; i < 5; ++i) {
      nlohmann::json j = {{"id", "P" + std::to_string(i)},
                          {"title", "Paper <" + std::to_string(i) + "> & co"},
                          {"year", 2000 + i}};
      if (i > 0 && i < 4) j["references"] = {"P" + std::to_string(i - 1), "X-missing"};
      if (i <= 1) j["authors"] = {"Ann A"};
      if (i == 3) j["authors"] = {"Bob B"};
      lines += j.dump() + "\n";
    }
    ASSERT_NO_FATAL_FAILURE(testing::IngestStore(tmp_, lines, &store_, &graph_));
  }
  NodeRef Paper(int i) {
    return NodeRef{NodeType::kPaper,
                   static_cast<uint32_t>(*store_->PaperByExtId("P" + std::to_string(i)))};
  }

  testing::ScopedTempDir tmp_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Graph> graph_;
};

TEST_F(ExportStoreTest, NeighbourhoodFollowsHopsAndRelations) {
  auto cites = *ParseRelations("CITES");
  auto one = ExportNeighbourhood(*graph_, {Paper(1)}, 1, cites, 100);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(*one, (std::vector<NodeRef>{Paper(0), Paper(1), Paper(2)}));
  auto two = ExportNeighbourhood(*graph_, {Paper(1)}, 2, cites, 100);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->size(), 4u);  // P0..P3, not the lonely P4
  auto zero = ExportNeighbourhood(*graph_, {Paper(4)}, 0, cites, 100);
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(*zero, std::vector<NodeRef>{Paper(4)});
  // Over AUTHORED, P0 reaches its author and through it P1.
  auto authored = ExportNeighbourhood(*graph_, {Paper(0)}, 2, *ParseRelations("AUTHORED"), 100);
  ASSERT_TRUE(authored.ok());
  EXPECT_EQ(authored->size(), 3u);
}

TEST_F(ExportStoreTest, NeighbourhoodOverMaxNodesIsRefused) {
  auto r = ExportNeighbourhood(*graph_, {Paper(1)}, 3, *ParseRelations("CITES"), 3);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
  EXPECT_NE(r.status().message().find("--max-nodes 3"), std::string::npos);
}

TEST_F(ExportStoreTest, GraphmlCountsAndEscapes) {
  ExportOptions o;
  o.out = tmp_.File("g.graphml");
  ExportStats stats;
  ASSERT_TRUE(Export(*graph_, o, stdout, &stats).ok());
  EXPECT_EQ(stats.nodes["Paper"], 5);
  EXPECT_EQ(stats.nodes["Author"], 2);
  EXPECT_EQ(stats.edges["CITES"], 3);  // the missing work is not a node
  EXPECT_EQ(stats.edges["AUTHORED"], 3);
  const std::string xml = testing::ReadFile(o.out);
  EXPECT_NE(xml.find("<data key=\"n_title\">Paper &lt;2&gt; &amp; co</data>"), std::string::npos);
  EXPECT_NE(xml.find("<key id=\"n_year\" for=\"node\" attr.name=\"year\" attr.type=\"long\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("<data key=\"e_relation\">AUTHORED</data><data key=\"e_position\">0</data>"
                     "<data key=\"e_is_corresponding\">false</data>"),
            std::string::npos);
  EXPECT_EQ(xml.substr(xml.size() - 22), "  </graph>\n</graphml>\n");
  EXPECT_FALSE(std::filesystem::exists(o.out + ".tmp"));
}

TEST_F(ExportStoreTest, Neo4jFilesHaveTypedHeadersAndSkipEmptyOnes) {
  ExportOptions o;
  o.format = ExportFormat::kNeo4j;
  o.out = tmp_.File("neo");
  ExportStats stats;
  ASSERT_TRUE(Export(*graph_, o, stdout, &stats).ok());
  const std::string papers = testing::ReadFile(tmp_.File("neo/Paper.csv"));
  EXPECT_EQ(papers.substr(0, papers.find('\n')).substr(0, 48),
            ":ID(Paper),id,title,title_normalized,year:int,pu");
  EXPECT_NE(papers.find(",\"P2\",\"Paper <2> & co\","), std::string::npos);
  EXPECT_EQ(testing::ReadFile(tmp_.File("neo/CITES.csv")).substr(0, 38),
            ":START_ID(Paper),:END_ID(Paper),:TYPE\n");
  EXPECT_FALSE(std::filesystem::exists(tmp_.File("neo/Keyword.csv")));  // none extracted
  EXPECT_FALSE(std::filesystem::exists(tmp_.File("neo/COOCCUR.csv")));
  EXPECT_NE(stats.import_command.find("--nodes=" + tmp_.File("neo/Paper.csv")), std::string::npos);
  EXPECT_EQ(stats.import_command.find("Keyword"), std::string::npos);
  const std::string script = testing::ReadFile(tmp_.File("neo/import.sh"));
  EXPECT_NE(script.find("--relationships=CITES.csv"), std::string::npos);
}

TEST_F(ExportStoreTest, SubgraphKeepsEdgesBetweenMembersOnly) {
  ExportOptions o;
  o.out = tmp_.File("sub.graphml");
  o.seeds = {Paper(1)};
  o.relations = *ParseRelations("CITES");
  ExportStats stats;
  ASSERT_TRUE(Export(*graph_, o, stdout, &stats).ok());
  EXPECT_EQ(stats.total_nodes, 3);
  EXPECT_EQ(stats.edges["CITES"], 2);  // P1->P0, P2->P1; not P3->P2
}

TEST_F(ExportStoreTest, CitationTableFollowsIngest) {
  {
    Transaction txn(&store_->db());
    EXPECT_EQ(store_->BuildCitationTable(), 6);  // 3 in the store, 3 to the missing work
    txn.Commit();
  }
  EXPECT_TRUE(store_->HasCitationTable());
  auto count = [&](const char* sql) { return store_->db().QueryInt(sql).value_or(-1); };
  EXPECT_EQ(count("SELECT count(*) FROM paper_citation"), 3);
  EXPECT_EQ(count("SELECT count(*) FROM citation WHERE cited_id = 'X-missing'"), 3);
  // The missing work arrives and P3 drops its references: the table follows.
  testing::WriteFile(tmp_.File("more.jsonl"),
                     "{\"id\":\"X-missing\",\"title\":\"Found\"}\n"
                     "{\"id\":\"P3\",\"title\":\"Paper 3 again\",\"references\":[\"P3\"]}\n");
  IngestStats stats;
  graph_.reset();
  ASSERT_TRUE(Ingest(store_.get(), {tmp_.File("more.jsonl")}, IngestOptions(), &stats).ok());
  EXPECT_EQ(count("SELECT count(*) FROM citation_ref"), 4);  // no self-citation
  EXPECT_EQ(count("SELECT count(*) FROM paper_citation"), 4);
  EXPECT_EQ(count("SELECT count(*) FROM citation WHERE cited_paper IS NULL"), 0);
}

}  // namespace
}  // namespace litgraph
