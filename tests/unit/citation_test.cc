// Tests for citation.h: names, keys, escaping and the three entry formats.
// The CLI suite parses whole exports with real parsers (bibtexparser,
// citeproc-py); these pin the details.
#include "litgraph/citation.h"

#include <gtest/gtest.h>

namespace litgraph {
namespace {

TEST(CitationTest, SplitsDisplayNames) {
  auto split = [](const char* s) {
    PersonName n = SplitPersonName(s);
    return n.family + "|" + n.given;
  };
  EXPECT_EQ(split("Jevin D. West"), "West|Jevin D.");
  EXPECT_EQ(split("Juan Pablo Alperín"), "Alperín|Juan Pablo");
  EXPECT_EQ(split("Ludwig van Beethoven"), "van Beethoven|Ludwig");
  EXPECT_EQ(split("Charles de la Vallée"), "de la Vallée|Charles");
  EXPECT_EQ(split("Martin Luther King Jr."), "King Jr.|Martin Luther");
  EXPECT_EQ(split("West,  Jevin D."), "West|Jevin D.");
  EXPECT_EQ(split("Aristotle"), "Aristotle|");
  EXPECT_EQ(split("王小明"), "王小明|");
  EXPECT_EQ(split("  "), "|");
  EXPECT_EQ(split("Research and Development"), "Research and Development|");
}

TEST(CitationTest, KeysFoldToAsciiAndSkipFunctionWords) {
  Json p = {{"title", "The state of OA: a large-scale analysis"},
            {"year", 2018},
            {"authors", {"Heather Piwowar", "Jason Priem"}}};
  EXPECT_EQ(CitationKey(p), "piwowar2018state");
  p["authors"] = {"Vincent Larivière"};
  p["title"] = "Über Ærø";
  EXPECT_EQ(CitationKey(p), "lariviere2018uber");
  p["authors"] = {"Łukasz Kaiser-Żółć"};
  EXPECT_EQ(CitationKey(p), "kaiserzolc2018uber");
  p["authors"] = {"王小明"};  // nothing to fold: no name part
  p.erase("year");
  p["title"] = "On the of";
  EXPECT_EQ(CitationKey(p), "anonnd");
  // Paper cards list authors as objects.
  EXPECT_EQ(CitationKey({{"authors", {{{"name", "Ada Lovelace"}}}}, {"year", 1843}}),
            "lovelace1843");
}

TEST(CitationTest, LatexSpecialsAreEscaped) {
  EXPECT_EQ(LatexEscape("50% of $x_1$ & {y} #2 ~a^b \\c"),
            "50\\% of \\$x\\_1\\$ \\& \\{y\\} \\#2 \\textasciitilde{}a\\textasciicircum{}b "
            "\\textbackslash{}c");
  EXPECT_EQ(LatexEscape("line\nbreak\ttab\x1b"), "line break tab ");
  EXPECT_EQ(LatexEscape("café"), "café");
}

TEST(CitationTest, BibtexEntryTypeFollowsWorkTypeThenVenue) {
  Json p = {{"id", "W1"},
            {"title", "A {B} title"},
            {"year", 2020},
            {"venue", "Proceedings of the 58th Annual Meeting of the ACL"},
            {"authors", {"Ada Lovelace", "Research and Development"}},
            {"doi", "10.18653/v1/2020.acl-main.1"}};
  EXPECT_EQ(BibtexEntry(p, "k"),
            "@inproceedings{k,\n"
            "  author = {Lovelace, Ada and {Research and Development}},\n"
            "  title = {{A \\{B\\} title}},\n"
            "  booktitle = {Proceedings of the 58th Annual Meeting of the ACL},\n"
            "  year = {2020},\n"
            "  doi = {10.18653/v1/2020.acl-main.1},\n"
            "  url = {https://openalex.org/W1}\n"
            "}\n");
  p["venue"] = "PeerJ";
  EXPECT_EQ(BibtexEntry(p, "k").rfind("@article{k,", 0), 0u);
  EXPECT_NE(BibtexEntry(p, "k").find("journal = {PeerJ}"), std::string::npos);
  p["work_type"] = "dissertation";
  EXPECT_EQ(BibtexEntry(p, "k").rfind("@phdthesis{k,", 0), 0u);
  p.erase("venue");
  p.erase("work_type");
  EXPECT_EQ(BibtexEntry(p, "k").rfind("@misc{k,", 0), 0u);
}

TEST(CitationTest, RisAndCslJsonCarryTheSameFields) {
  Json p = {{"id", "P02-1040"},
            {"title", "Bleu: a Method"},
            {"year", 2002},
            {"date", "2002-07-06"},
            {"venue", "ACL"},
            {"work_type", "article"},
            {"authors", {"Kishore Papineni", "Wei-Jing Zhu"}},
            {"landing_page_url", "https://aclanthology.org/P02-1040"}};
  EXPECT_EQ(RisEntry(p),
            "TY  - JOUR\nAU  - Papineni, Kishore\nAU  - Zhu, Wei-Jing\nTI  - Bleu: a Method\n"
            "T2  - ACL\nPY  - 2002\nDA  - 2002/07/06\nUR  - https://aclanthology.org/P02-1040\n"
            "ID  - P02-1040\nER  - \n");
  Json item = CslJsonItem(p, "papineni2002bleu");
  EXPECT_EQ(item["type"], "article-journal");
  EXPECT_EQ(item["author"][1], (Json{{"family", "Zhu"}, {"given", "Wei-Jing"}}));
  EXPECT_EQ(item["issued"]["date-parts"], Json::parse("[[2002, 7, 6]]"));
  EXPECT_EQ(item["container-title"], "ACL");
  EXPECT_EQ(item["URL"], "https://aclanthology.org/P02-1040");
  EXPECT_FALSE(item.contains("DOI"));
  p["title"] = "two\nlines";
  EXPECT_NE(RisEntry(p).find("TI  - two lines\n"), std::string::npos);
}

}  // namespace
}  // namespace litgraph
