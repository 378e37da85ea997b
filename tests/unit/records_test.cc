// Tests for records.h: RecordParser on the real OpenAlex fixtures in
// tests/data, native records, API pages, arrays, and malformed input.
#include "litgraph/records.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "litgraph/text.h"
#include "test_util.h"

namespace litgraph {
namespace {

using litgraph::testing::ReadFile;
using litgraph::testing::TestData;

std::vector<Record> ParseOk(std::string_view json) {
  RecordParser parser;
  std::vector<Record> out;
  Status st = parser.Parse(json, false, &out);
  EXPECT_TRUE(st.ok()) << st.message();
  return out;
}

Status ParseStatus(std::string_view json, std::vector<Record>* out = nullptr) {
  RecordParser parser;
  std::vector<Record> local;
  return parser.Parse(json, false, out ? out : &local);
}

template <typename T>
const T& Only(const std::vector<Record>& recs) {
  static const T kEmpty{};
  EXPECT_EQ(recs.size(), 1u);
  if (recs.size() != 1 || !std::holds_alternative<T>(recs[0])) {
    ADD_FAILURE() << "unexpected record kind (index "
                  << (recs.empty() ? -1 : static_cast<int>(recs[0].index())) << ")";
    return kEmpty;
  }
  return std::get<T>(recs[0]);
}

// ---- The work fixture -------------------------------------------------------

TEST(RecordParserTest, ParsesWorkFixture) {
  std::string json = ReadFile(TestData("W2741809807.json"));
  ASSERT_FALSE(json.empty());
  std::vector<Record> recs = ParseOk(json);
  const WorkRec& w = Only<WorkRec>(recs);
  EXPECT_TRUE(w.is_openalex);
  EXPECT_EQ(w.ext_id, "W2741809807");
  EXPECT_EQ(w.doi, "10.7717/peerj.4375");
  EXPECT_EQ(w.year, 2018);
  EXPECT_EQ(w.date, "2018-02-13");
  EXPECT_EQ(w.title,
            "The state of OA: a large-scale analysis of the prevalence and impact of Open Access "
            "articles");
  EXPECT_EQ(w.type, "article");
  EXPECT_EQ(w.language, "en");
  EXPECT_EQ(w.is_oa, 1);
  EXPECT_EQ(w.oa_status, "gold");
  EXPECT_EQ(w.updated_date, "2025-06-11T00:03:37.532706");
  EXPECT_EQ(w.cited_by_count, 962);
  EXPECT_EQ(w.referenced_works_count, 45);

  ASSERT_EQ(w.authors.size(), 9u);
  EXPECT_EQ(w.authors[0].author.name, "Heather Piwowar");
  EXPECT_EQ(w.authors[0].author.ext_id, "A5048491430");
  EXPECT_EQ(w.authors[0].author_position, "first");
  EXPECT_EQ(w.authors[0].orcid, "https://orcid.org/0000-0003-1613-5981");
  ASSERT_EQ(w.authors[0].institutions.size(), 1u);
  EXPECT_EQ(w.authors[0].institutions[0].ext_id, "I4210166736");
  EXPECT_EQ(w.authors[1].author.name, "Jason Priem");
  EXPECT_EQ(w.authors[8].author.name, "Stefanie Haustein");
  EXPECT_EQ(w.authors[8].author_position, "last");

  ASSERT_TRUE(w.has_source);
  EXPECT_EQ(w.source.name, "PeerJ");
  EXPECT_EQ(w.source.ext_id, "S1983995261");
  EXPECT_EQ(w.source.issn_l, "2167-8359");

  ASSERT_EQ(w.topics.size(), 3u);
  int primary = 0;
  for (const TopicRef& t : w.topics) {
    primary += t.is_primary;
    if (t.is_primary) {
      EXPECT_EQ(t.ext_id, "T10102");
    }
  }
  EXPECT_EQ(primary, 1);
  EXPECT_EQ(w.topics[0].subfield.ext_id, "subfields/1804");
  EXPECT_EQ(w.topics[0].field.ext_id, "fields/18");
  EXPECT_EQ(w.topics[0].domain.ext_id, "domains/2");
  EXPECT_NEAR(w.topics[0].score, 0.9969, 1e-9);

  ASSERT_EQ(w.refs.size(), 45u);
  EXPECT_EQ(w.refs[0], "W1560783210");
  for (const auto& r : w.refs) EXPECT_EQ(ShortOpenAlexId(r), r);
  EXPECT_EQ(w.related.size(), 10u);
  EXPECT_FALSE(w.oa_keywords_json.empty());
  EXPECT_TRUE(nlohmann::json::accept(w.oa_keywords_json));

  EXPECT_EQ(w.abstract.rfind("Despite growing interest in Open Access", 0), 0u) << w.abstract;
  // The abstract equals the inverted index rebuilt independently.
  auto doc = nlohmann::json::parse(json);
  std::vector<std::pair<std::string, std::vector<uint32_t>>> index;
  for (auto& [word, positions] : doc["abstract_inverted_index"].items())
    index.emplace_back(word, positions.get<std::vector<uint32_t>>());
  EXPECT_EQ(w.abstract, AbstractFromInvertedIndex(index));
}

// Dense positions are placed directly, sparse ones sorted; gaps are skipped
// and a position given twice keeps its first word, on both paths.
TEST(RecordParserTest, AbstractFromDenseAndSparsePositions) {
  auto abstract = [](const std::string& index) {
    return Only<WorkRec>(ParseOk(R"({"id": "https://openalex.org/W1", "title": "t",)"
                                 R"( "abstract_inverted_index": )" +
                                 index + "}"))
        .abstract;
  };
  EXPECT_EQ(abstract(R"({"graphs": [1, 4], "neural": [0], "of": [3], "use": [2, 1]})"),
            "neural graphs use of graphs");
  EXPECT_EQ(abstract(R"({"far": [900000], "near": [0], "mid": [500000, 0]})"), "near mid far");
  EXPECT_EQ(abstract(R"({"only": [7]})"), "only");
  EXPECT_EQ(abstract("{}"), "");
}

TEST(RecordParserTest, PaddedAndUnpaddedParsesAgree) {
  std::string json = ReadFile(TestData("W2741809807.json"));
  std::string padded = json + std::string(RecordParser::kPadding, '\0');
  RecordParser parser;
  std::vector<Record> a, b;
  ASSERT_TRUE(parser.Parse(std::string_view(padded.data(), json.size()), true, &a).ok());
  ASSERT_TRUE(parser.Parse(json, false, &b).ok());
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(std::get<WorkRec>(a[0]).abstract, std::get<WorkRec>(b[0]).abstract);
  EXPECT_EQ(std::get<WorkRec>(a[0]).refs, std::get<WorkRec>(b[0]).refs);
}

TEST(RecordParserTest, EveryLineOfSearchResultsIsOneWork) {
  std::ifstream in(TestData("search-biodiversity-finance.works.jsonl"));
  ASSERT_TRUE(in);
  RecordParser parser;  // one parser reused across lines
  std::string line;
  std::set<std::string> ids;
  int lines = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    ++lines;
    std::vector<Record> recs;
    Status st = parser.Parse(line, false, &recs);
    ASSERT_TRUE(st.ok()) << "line " << lines << ": " << st.message();
    ASSERT_EQ(recs.size(), 1u) << "line " << lines;
    ASSERT_TRUE(std::holds_alternative<WorkRec>(recs[0])) << "line " << lines;
    const WorkRec& w = std::get<WorkRec>(recs[0]);
    auto j = nlohmann::json::parse(line);
    EXPECT_EQ(w.ext_id, ShortOpenAlexId(j["id"].get<std::string>())) << "line " << lines;
    EXPECT_EQ(w.ext_id[0], 'W');
    if (j.contains("referenced_works") && j["referenced_works"].is_array()) {
      EXPECT_EQ(w.refs.size(), j["referenced_works"].size()) << "line " << lines;
    }
    if (j.contains("authorships") && j["authorships"].is_array()) {
      EXPECT_LE(w.authors.size(), j["authorships"].size()) << "line " << lines;
    }
    if (j.contains("title") && j["title"].is_string()) {
      EXPECT_EQ(w.title, j["title"].get<std::string>()) << "line " << lines;
    }
    ids.insert(w.ext_id);
  }
  EXPECT_EQ(lines, 200);
  EXPECT_EQ(ids.size(), 200u);
}

// ---- Entity fixtures ------------------------------------------------------------

TEST(RecordParserTest, ParsesAuthorFixture) {
  std::vector<Record> recs = ParseOk(ReadFile(TestData("A5023888391.json")));
  const AuthorRec& a = Only<AuthorRec>(recs);
  EXPECT_EQ(a.ext_id, "A5023888391");
  EXPECT_EQ(a.name, "Jason Priem");
  EXPECT_EQ(a.orcid, "https://orcid.org/0000-0001-6187-6610");
  EXPECT_EQ(a.works_count, 62);
  EXPECT_EQ(a.cited_by_count, 3890);
  EXPECT_EQ(a.updated_date, "2025-06-08T21:53:07.725446");
  ASSERT_EQ(a.last_known_institutions.size(), 1u);
  EXPECT_EQ(a.last_known_institutions[0].ext_id, "I4200000001");
  EXPECT_EQ(a.last_known_institutions[0].name, "OurResearch");
  EXPECT_EQ(a.last_known_institutions[0].country_code, "CA");
}

TEST(RecordParserTest, ParsesInstitutionFixture) {
  std::vector<Record> recs = ParseOk(ReadFile(TestData("I27837315.json")));
  const InstitutionRec& r = Only<InstitutionRec>(recs);
  EXPECT_EQ(r.inst.ext_id, "I27837315");
  EXPECT_EQ(r.inst.name, "University of Michigan");
  EXPECT_EQ(r.inst.ror, "https://ror.org/00jmfr291");
  EXPECT_EQ(r.inst.country_code, "US");
  EXPECT_EQ(r.works_count, 932812);
  EXPECT_EQ(r.cited_by_count, 22780242);
}

TEST(RecordParserTest, ParsesSourceFixture) {
  std::vector<Record> recs = ParseOk(ReadFile(TestData("S137773608.json")));
  const SourceRec& r = Only<SourceRec>(recs);
  EXPECT_EQ(r.source.ext_id, "S137773608");
  EXPECT_EQ(r.source.name, "Nature");
  EXPECT_EQ(r.source.issn_l, "0028-0836");
  EXPECT_EQ(r.source.type, "journal");
  EXPECT_EQ(r.source.publisher, "Nature Portfolio");
  EXPECT_EQ(r.works_count, 431710);
}

TEST(RecordParserTest, ParsesTopicFixture) {
  std::vector<Record> recs = ParseOk(ReadFile(TestData("T11636.json")));
  const TopicRec& r = Only<TopicRec>(recs);
  EXPECT_EQ(r.topic.ext_id, "T11636");
  EXPECT_EQ(r.topic.name, "Artificial Intelligence in Healthcare and Education");
  EXPECT_EQ(r.topic.subfield.ext_id, "subfields/2718");
  EXPECT_EQ(r.topic.subfield.name, "Health Informatics");
  EXPECT_EQ(r.topic.field.ext_id, "fields/27");
  EXPECT_EQ(r.topic.domain.ext_id, "domains/4");
  EXPECT_EQ(r.works_count, 42324);
  EXPECT_EQ(r.keywords.rfind("Artificial Intelligence; Machine Learning", 0), 0u) << r.keywords;
  EXPECT_EQ(r.description.rfind("This cluster of papers", 0), 0u);
}

TEST(RecordParserTest, ConceptsFundersPublishersAreSkipped) {
  const std::pair<const char*, const char*> cases[] = {{"C71924100.json", "concept"},
                                                       {"F4320332161.json", "funder"},
                                                       {"P4310319965.json", "publisher"}};
  for (const auto& [file, kind] : cases) {
    std::vector<Record> recs = ParseOk(ReadFile(TestData(file)));
    EXPECT_EQ(Only<SkippedRec>(recs).kind, kind) << file;
  }
}

// ---- Containers ------------------------------------------------------------------

TEST(RecordParserTest, ApiPageYieldsEachResult) {
  std::string page = R"({"meta": {"count": 2, "page": 1},
    "results": [
      {"id": "https://openalex.org/W1", "title": "First", "publication_year": 2001},
      {"id": "https://openalex.org/W2", "display_name": "Second", "referenced_works": ["https://openalex.org/W1"]}
    ], "group_by": []})";
  std::vector<Record> recs = ParseOk(page);
  ASSERT_EQ(recs.size(), 2u);
  const WorkRec& a = std::get<WorkRec>(recs[0]);
  const WorkRec& b = std::get<WorkRec>(recs[1]);
  EXPECT_EQ(a.ext_id, "W1");
  EXPECT_EQ(a.title, "First");
  EXPECT_EQ(a.year, 2001);
  EXPECT_EQ(b.ext_id, "W2");
  EXPECT_EQ(b.title, "Second");  // display_name stands in for a missing title
  EXPECT_EQ(b.refs, std::vector<std::string>{"W1"});
}

TEST(RecordParserTest, EmptyApiPageYieldsNothing) {
  std::vector<Record> recs = ParseOk(R"({"meta": {"count": 0}, "results": []})");
  EXPECT_TRUE(recs.empty());
}

TEST(RecordParserTest, JsonArrayOfMixedRecords) {
  std::string arr = "[" + ReadFile(TestData("W2741809807.json")) + "," +
                    ReadFile(TestData("A5023888391.json")) + R"(, {"id": "N1", "title": "x"}])";
  std::vector<Record> recs = ParseOk(arr);
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_TRUE(std::holds_alternative<WorkRec>(recs[0]));
  EXPECT_TRUE(std::holds_alternative<AuthorRec>(recs[1]));
  ASSERT_TRUE(std::holds_alternative<WorkRec>(recs[2]));
  EXPECT_FALSE(std::get<WorkRec>(recs[2]).is_openalex);
}

// ---- Native records -----------------------------------------------------------------

TEST(RecordParserTest, NativeRecord) {
  std::vector<Record> recs = ParseOk(
      R"({"id":"A00-1001","title":"Translation of Natural Language","authors":["Amble, Tore"],)"
      R"("venue":"ACL","year":2000,"references":["J82-3002"]})");
  const WorkRec& w = Only<WorkRec>(recs);
  EXPECT_FALSE(w.is_openalex);
  EXPECT_EQ(w.ext_id, "A00-1001");
  EXPECT_EQ(w.title, "Translation of Natural Language");
  EXPECT_EQ(w.year, 2000);
  EXPECT_EQ(w.type, "article");
  ASSERT_EQ(w.authors.size(), 1u);
  EXPECT_EQ(w.authors[0].author.name, "Amble, Tore");
  EXPECT_EQ(w.authors[0].author.ext_id, "name:amble tore");
  EXPECT_EQ(w.authors[0].author_position, "first");
  ASSERT_TRUE(w.has_source);
  EXPECT_EQ(w.source.name, "ACL");
  EXPECT_EQ(w.source.ext_id, "venue:acl");
  EXPECT_EQ(w.refs, std::vector<std::string>{"J82-3002"});
  EXPECT_EQ(w.cited_by_count, -1);
}

TEST(RecordParserTest, NativeRecordOptionalFields) {
  std::vector<Record> recs = ParseOk(R"({
    "id": "paper-7", "title": "T", "abstract": "An abstract.", "year": 1999,
    "date": "1999-05-01", "doi": "https://doi.org/10.1/ABC", "type": "preprint",
    "cited_by_count": 17, "updated_date": "2024-01-01", "related": ["paper-8"],
    "authors": [{"name": "Ada Lovelace", "id": "orcid-1"}, "Charles Babbage", {"name": "Last One"}],
    "unknown_field": {"nested": [1, 2, 3]}, "another": true})");
  const WorkRec& w = Only<WorkRec>(recs);
  EXPECT_EQ(w.ext_id, "paper-7");
  EXPECT_EQ(w.abstract, "An abstract.");
  EXPECT_EQ(w.year, 1999);
  EXPECT_EQ(w.date, "1999-05-01");
  EXPECT_EQ(w.doi, "10.1/abc");
  EXPECT_EQ(w.type, "preprint");
  EXPECT_EQ(w.cited_by_count, 17);
  EXPECT_EQ(w.updated_date, "2024-01-01");
  EXPECT_EQ(w.related, std::vector<std::string>{"paper-8"});
  ASSERT_EQ(w.authors.size(), 3u);
  EXPECT_EQ(w.authors[0].author.ext_id, "orcid-1");
  EXPECT_EQ(w.authors[1].author.ext_id, "name:charles babbage");
  EXPECT_EQ(w.authors[0].author_position, "first");
  EXPECT_EQ(w.authors[1].author_position, "middle");
  EXPECT_EQ(w.authors[2].author_position, "last");
  EXPECT_FALSE(w.has_source);
}

TEST(RecordParserTest, NativeNullYearIsUnknown) {
  std::vector<Record> recs =
      ParseOk(R"({"id": "N9", "title": "T", "year": null, "authors": null})");
  EXPECT_EQ(Only<WorkRec>(recs).year, 0);
  EXPECT_TRUE(Only<WorkRec>(recs).authors.empty());
}

TEST(RecordParserTest, NativeNumericIdBecomesString) {
  std::vector<Record> recs = ParseOk(R"({"id": 12345, "title": "Numbered"})");
  EXPECT_EQ(Only<WorkRec>(recs).ext_id, "12345");
}

TEST(RecordParserTest, UnknownFieldsAreAccepted) {
  std::vector<Record> recs = ParseOk(
      R"({"id": "https://openalex.org/W5", "title": "x", "brand_new_field": [1, {"a": null}],)"
      R"( "abstract_inverted_index": null, "authorships": null, "future": {"x": 1}})");
  const WorkRec& w = Only<WorkRec>(recs);
  EXPECT_EQ(w.ext_id, "W5");
  EXPECT_TRUE(w.authors.empty());
}

// ---- Errors ----------------------------------------------------------------------------

TEST(RecordParserTest, MalformedJsonIsBadInput) {
  for (const char* bad : {R"({"id": "N1", "title": )", "{", "not json", R"({"id": "N1",})", ""}) {
    Status st = ParseStatus(bad);
    EXPECT_EQ(st.code(), Code::kMalformedInput) << bad;
    EXPECT_FALSE(st.message().empty());
  }
}

TEST(RecordParserTest, WrongFieldTypesNameTheField) {
  struct Case {
    const char* json;
    const char* field;
  };
  const Case cases[] = {
      {R"({"id": "N1", "title": 5})", "\"title\""},
      {R"({"id": "N1", "authors": "x"})", "\"authors\""},
      {R"({"id": "N1", "year": "soon"})", "\"year\""},
      {R"({"id": "N1", "references": "J1"})", "\"references\""},
      {R"({"id": "N1", "references": [1]})", "\"references\""},
      {R"({"id": "N1", "abstract": ["a"]})", "\"abstract\""},
      {R"({"id": "https://openalex.org/W1", "title": 5})", "\"title\""},
      {R"({"id": "https://openalex.org/W1", "authorships": {}})", "\"authorships\""},
      {R"({"id": "https://openalex.org/W1", "cited_by_count": "many"})", "\"cited_by_count\""},
      {R"({"id": "https://openalex.org/A1", "display_name": 3})", "\"display_name\""},
  };
  for (const Case& c : cases) {
    Status st = ParseStatus(c.json);
    EXPECT_EQ(st.code(), Code::kMalformedInput) << c.json;
    EXPECT_NE(st.message().find(c.field), std::string::npos) << c.json << " -> " << st.message();
  }
}

// Integers given as doubles: integral ones within int64's range are the
// integer, others name the field. fuzz/abstract_fuzz.cc found that 1e97
// (an abstract position) was cast to int64_t before its range was checked:
// undefined behaviour (UBSan: "1e+97 is outside the range of representable
// values of type 'long'").
TEST(RecordParserTest, IntegersGivenAsDoublesOutsideInt64AreBadInput) {
  const WorkRec w = Only<WorkRec>(ParseOk(
      R"({"id": "https://openalex.org/W1", "cited_by_count": 1e18, "publication_year": 2019.0})"));
  EXPECT_EQ(w.cited_by_count, 1000000000000000000);
  EXPECT_EQ(w.year, 2019);
  EXPECT_EQ(Only<WorkRec>(ParseOk(R"({"id": "W1", "title": "t", "cited_by_count": -4e18})"))
                .cited_by_count,
            -4000000000000000000);
  for (const char* value : {"1e97", "-1e97", "9.3e18", "-9.3e18", "1e308", "2.5", "-0.5"}) {
    std::string work =
        std::string(R"({"id": "https://openalex.org/W1", "cited_by_count": )") + value + "}";
    Status st = ParseStatus(work);
    EXPECT_EQ(st.code(), Code::kMalformedInput) << value;
    EXPECT_NE(st.message().find("cited_by_count"), std::string::npos) << st.message();
    std::string abstract =
        std::string(R"({"id": "https://openalex.org/W1", "abstract_inverted_index": {"a": [)") +
        value + "]}}";
    st = ParseStatus(abstract);
    EXPECT_EQ(st.code(), Code::kMalformedInput) << value;
    EXPECT_NE(st.message().find("abstract_inverted_index"), std::string::npos) << st.message();
  }
}

TEST(RecordParserTest, MissingOrEmptyIdIsBadInput) {
  for (const char* bad : {R"({"title": "no id"})", R"({"id": "", "title": "x"})",
                          R"({"id": null, "title": "x"})", R"({"id": [1], "title": "x"})"}) {
    Status st = ParseStatus(bad);
    EXPECT_EQ(st.code(), Code::kMalformedInput) << bad;
    EXPECT_NE(st.message().find("id"), std::string::npos) << bad << " -> " << st.message();
  }
}

// An id with a control character would be stored but unreachable (no
// command-line argument holds a NUL) and would print as terminal commands.
TEST(RecordParserTest, ControlCharactersInIdsAreBadInput) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"id": "N\u0000x", "title": "t"})", "U+0000"},
      {R"({"id": "N\u001b[2J", "title": "t"})", "U+001B"},
      {R"({"id": "N\u007f", "title": "t"})", "U+007F"},
      {R"({"id": "N\u009b", "title": "t"})", "U+009B"},
      {R"({"id": "N1", "title": "t", "references": ["N\u0007"]})", "references"},
      {R"({"id": "N1", "title": "t", "authors": [{"name": "A B", "id": "A\n1"}]})", "authors[].id"},
      {R"({"id": "N1", "title": "t", "doi": "10.1/x\u0000"})", "doi"},
      {R"({"id": "https://openalex.org/W1\u0000", "title": "t"})", "U+0000"},
      {R"({"id": "https://openalex.org/W1", "referenced_works": ["https://openalex.org/W2\t"]})",
       "U+0009"},
      {R"({"id": "https://openalex.org/A1\u0085"})", "U+0085"},
  };
  for (const auto& [json, needle] : cases) {
    Status st = ParseStatus(json);
    EXPECT_EQ(st.code(), Code::kMalformedInput) << json;
    EXPECT_NE(st.message().find("control characters"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find(needle), std::string::npos) << json << " -> " << st.message();
  }
  // Printable non-ASCII (U+00A0 and up) is an ordinary id; so are control
  // characters in a title, which output escapes.
  auto recs = ParseOk(R"({"id": "N\u00e9\u00a0\u4e2d", "title": "t\u001b[31m"})");
  EXPECT_EQ(Only<WorkRec>(recs).ext_id, "N\u00e9\u00a0\u4e2d");
  EXPECT_EQ(Only<WorkRec>(recs).title, "t\x1b[31m");
}

TEST(RecordParserTest, NonObjectRecordsAreBadInput) {
  EXPECT_EQ(ParseStatus("42").code(), Code::kMalformedInput);
  EXPECT_EQ(ParseStatus(R"("W1")").code(), Code::kMalformedInput);
  EXPECT_EQ(ParseStatus(R"([{"id": "N1"}, 3])").code(), Code::kMalformedInput);
  EXPECT_EQ(ParseStatus(R"({"results": [3]})").code(), Code::kMalformedInput);
  EXPECT_EQ(ParseStatus(R"({"results": "x"})").code(), Code::kMalformedInput);
}

TEST(RecordParserTest, UnsupportedOpenAlexEntityIsBadInput) {
  Status st = ParseStatus(R"({"id": "https://openalex.org/X123"})");
  EXPECT_EQ(st.code(), Code::kMalformedInput);
  EXPECT_NE(st.message().find("X123"), std::string::npos) << st.message();
}

TEST(RecordParserTest, ParserRecoversAfterAnError) {
  RecordParser parser;
  std::vector<Record> out;
  EXPECT_FALSE(parser.Parse(R"({"id": "N1", "title": 5})", false, &out).ok());
  EXPECT_FALSE(parser.Parse("{{{", false, &out).ok());
  out.clear();
  ASSERT_TRUE(parser.Parse(R"({"id": "N2", "title": "fine"})", false, &out).ok());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(std::get<WorkRec>(out[0]).title, "fine");
}

}  // namespace
}  // namespace litgraph
