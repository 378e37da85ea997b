// Tests for text.h: word splitting and folding, title normalization, the
// bit-parallel LCS (against a plain dynamic program), title match scores,
// DOI / OpenAlex id / name normalization and abstract reconstruction.
#include "litgraph/text.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace litgraph {
namespace {

using Strings = std::vector<std::string>;

// ---- Words -----------------------------------------------------------------

TEST(WordsTest, PunctuationSeparatesAndDigitsStay) {
  EXPECT_EQ(Words("Graph-based Q&A, 2nd ed."), (Strings{"graph", "based", "q", "a", "2nd", "ed"}));
  EXPECT_EQ(Words("COVID-19: a review (2020)"), (Strings{"covid", "19", "a", "review", "2020"}));
  EXPECT_EQ(Words("x86_64/arm64"), (Strings{"x86", "64", "arm64"}));
}

TEST(WordsTest, EmptyAndSeparatorOnlyInputs) {
  EXPECT_TRUE(Words("").empty());
  EXPECT_TRUE(Words("  --- ... !!! ").empty());
  EXPECT_TRUE(Words("\xE2\x80\x94\xE2\x80\x9C\xE2\x80\x9D").empty());  // em dash, curly quotes
}

TEST(WordsTest, FoldsLatinDiacritics) {
  EXPECT_EQ(Words("Hajič"), (Strings{"hajic"}));
  EXPECT_EQ(Words("Æther"), (Strings{"aether"}));
  EXPECT_EQ(Words("Straße"), (Strings{"strasse"}));
  EXPECT_EQ(Words("Łódź Œuvre Þór ĳssel"), (Strings{"lodz", "oeuvre", "thor", "ijssel"}));
  EXPECT_EQ(Words("Crème Brûlée"), (Strings{"creme", "brulee"}));
  EXPECT_EQ(Words("ÀÉÎÕÜ àéîõü"), (Strings{"aeiou", "aeiou"}));
}

TEST(WordsTest, CombiningMarksVanishInsideWords) {
  // Decomposed forms: e + U+0301, c + U+030C, a + U+0308 + U+0301 (two marks).
  EXPECT_EQ(Words("Cafe\xCC\x81 au lait"), (Strings{"cafe", "au", "lait"}));
  EXPECT_EQ(Words("Hajic\xCC\x8C"), (Strings{"hajic"}));
  EXPECT_EQ(Words("a\xCC\x88\xCC\x81x"), (Strings{"ax"}));
  // Decomposed and precomposed spellings give the same words.
  EXPECT_EQ(Words("Hajic\xCC\x8C, Jan"), Words("Hajič, Jan"));
}

TEST(WordsTest, NonLatinLettersAreKept) {
  EXPECT_EQ(Words("αβγ δέλτα"), (Strings{"αβγ", "δέλτα"}));
  EXPECT_EQ(Words("the λ-calculus"), (Strings{"the", "λ", "calculus"}));
  EXPECT_EQ(Words("深度学习 model"), (Strings{"深度学习", "model"}));
}

TEST(WordsTest, SeparatorCodePointsSplit) {
  // Multiplication sign, non-breaking space, general punctuation block.
  EXPECT_EQ(Words("3×3"), (Strings{"3", "3"}));
  EXPECT_EQ(Words("a\xC2\xA0"
                  "b"),
            (Strings{"a", "b"}));
  EXPECT_EQ(Words("pre\xE2\x80\x91training"), (Strings{"pre", "training"}));  // U+2011
}

TEST(WordsTest, InvalidUtf8SeparatesInsteadOfCrashing) {
  EXPECT_EQ(Words("ab\xFF"
                  "cd"),
            (Strings{"ab", "cd"}));
  EXPECT_EQ(Words("ab\xC3"), (Strings{"ab"}));  // truncated two-byte sequence at the end
}

// Reference Words(): decode each code point, drop combining marks, fold
// letters with FoldLetter, keep other letters as-is, split on the rest.
Strings ReferenceWords(std::string_view text) {
  Strings words;
  std::string cur;
  size_t i = 0;
  while (i < text.size()) {
    uint32_t cp = DecodeUtf8(text, &i);
    if (cp >= 0x300 && cp <= 0x36F) continue;
    std::string folded;
    bool other = false;
    if (FoldLetter(cp, &folded, &other)) {
      cur += folded;
    } else if (other) {
      AppendUtf8(cp, &cur);
    } else if (!cur.empty()) {
      words.push_back(cur);
      cur.clear();
    }
  }
  if (!cur.empty()) words.push_back(cur);
  return words;
}

TEST(WordsTest, MatchesCodePointReferenceOnRandomText) {
  std::mt19937 rng(2718);
  const std::vector<std::string> pieces = {
      "a",           "Z", "q",    "7",    " ",        "-",
      ",",           ".", "'",    "_",    "\t",       "é",
      "Æ",           "ß", "Č",    "ł",    "ſ",        "\xCC\x81",
      "\xCC\x8C",    "α", "Ω",    "д",    "深",       "\xE2\x80\x93",
      "\xC2\xA0",    "×", "\xFF", "\xC3", "\xE2\x82", "\xF0\x9F\x98\x80",
      "\xEF\xBC\x8C"};
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    int n = static_cast<int>(rng() % 30);
    for (int i = 0; i < n; ++i) text += pieces[rng() % pieces.size()];
    ASSERT_EQ(Words(text), ReferenceWords(text)) << "text: " << text;
  }
}

// Lowercasing is documented for every word ("Lowercased words"), and the
// title key is "letters only, lowercase" (SciAtlas section 3.1).
TEST(WordsTest, NonLatinLettersAreLowercased) {
  EXPECT_EQ(Words("ΑΒΓ"), Words("αβγ"));
  EXPECT_EQ(NormalizeTitleKey("ΔΕΛΤΑ Model"), NormalizeTitleKey("δελτα model"));
  EXPECT_EQ(NormalizeTitleKey("Модель"), NormalizeTitleKey("модель"));
}

// ---- UTF-8 and folding primitives -------------------------------------------

TEST(Utf8Test, RoundTripsCodePoints) {
  for (uint32_t cp : {0x0u, 0x41u, 0x7Fu, 0x80u, 0xE9u, 0x7FFu, 0x800u, 0x3B1u, 0xFFFDu, 0xFFFFu,
                      0x10000u, 0x1F600u, 0x10FFFFu}) {
    std::string s;
    AppendUtf8(cp, &s);
    size_t i = 0;
    EXPECT_EQ(DecodeUtf8(s, &i), cp) << std::hex << cp;
    EXPECT_EQ(i, s.size());
  }
}

TEST(Utf8Test, InvalidBytesDecodeAsReplacementAndAdvanceByOne) {
  std::string s = "\xFF\xC3(\xE2\x82";
  size_t i = 0;
  EXPECT_EQ(DecodeUtf8(s, &i), 0xFFFDu);
  EXPECT_EQ(i, 1u);
  EXPECT_EQ(DecodeUtf8(s, &i), 0xFFFDu);  // C3 followed by a non-continuation byte
  EXPECT_EQ(i, 2u);
  EXPECT_EQ(DecodeUtf8(s, &i), static_cast<uint32_t>('('));
  EXPECT_EQ(DecodeUtf8(s, &i), 0xFFFDu);  // truncated three-byte sequence
  EXPECT_EQ(i, 4u);
}

TEST(FoldLetterTest, FoldsReportsOtherLettersAndRejectsSymbols) {
  std::string out;
  bool other = true;
  EXPECT_TRUE(FoldLetter(0xE9, &out, &other));  // é
  EXPECT_EQ(out, "e");
  EXPECT_FALSE(other);
  out.clear();
  EXPECT_TRUE(FoldLetter(0xC6, &out, &other));  // Æ
  EXPECT_EQ(out, "ae");
  out.clear();
  EXPECT_TRUE(FoldLetter(0xDF, &out, &other));  // ß
  EXPECT_EQ(out, "ss");
  out.clear();
  EXPECT_TRUE(FoldLetter('Q', &out, &other));
  EXPECT_EQ(out, "q");
  out.clear();
  EXPECT_FALSE(FoldLetter(0xD7, &out, &other));  // ×
  EXPECT_FALSE(other);
  EXPECT_TRUE(FoldLetter(0x391, &out, &other));  // Α: kept as a letter, lowercased
  EXPECT_TRUE(other);
  EXPECT_EQ(out, "α");
  out.clear();
  EXPECT_FALSE(FoldLetter(0x2014, &out, &other));  // em dash
  EXPECT_FALSE(other);
  EXPECT_FALSE(FoldLetter(0x301, &out, &other));  // combining acute
  EXPECT_FALSE(other);
  EXPECT_TRUE(out.empty());
}

// ---- Title normalization ------------------------------------------------------

TEST(NormalizeTitleTest, DocumentedExamples) {
  EXPECT_EQ(NormalizeTitleKey("Pre-Training of BERT!"), "pretrainingofbert");
  EXPECT_EQ(NormalizeTitleWords("Pre-Training of BERT!"), "pre training of bert");
}

TEST(NormalizeTitleTest, KeyKeepsLettersOnly) {
  EXPECT_EQ(NormalizeTitleKey("GPT-4: 175B parameters"), "gptbparameters");
  EXPECT_EQ(NormalizeTitleKey("  Hajič   Æther "), "hajicaether");
  EXPECT_EQ(NormalizeTitleKey("123 456"), "");
  EXPECT_EQ(NormalizeTitleKey(""), "");
  EXPECT_EQ(NormalizeTitleWords("GPT-4: 175B parameters"), "gpt b parameters");
  EXPECT_EQ(NormalizeTitleWords("  a   b  "), "a b");
}

TEST(NormalizeTitleTest, HyphenAndSpaceVariantsShareAKey) {
  const Strings variants = {
      "Pre-Training of BERT",
      "Pre Training of BERT",
      "PreTraining of BERT",
      "pre\xE2\x80\x93training of bert",  // en dash
      "Pre\xE2\x80\x90Training of BERT",  // U+2010 hyphen
      "Pre - Training  of  BERT.",
      "PRE-TRAINING OF BERT",
  };
  for (const auto& v : variants) {
    EXPECT_EQ(NormalizeTitleKey(v), "pretrainingofbert") << v;
    EXPECT_DOUBLE_EQ(TitleMatchScore(v, variants[0]), 1.0) << v;
  }
  // Words differ only where the variant really joins the two words.
  EXPECT_EQ(NormalizeTitleWords(variants[1]), "pre training of bert");
  EXPECT_EQ(NormalizeTitleWords(variants[3]), "pre training of bert");
  EXPECT_EQ(NormalizeTitleWords(variants[2]), "pretraining of bert");
}

// ---- LCS ----------------------------------------------------------------------

size_t ReferenceLcs(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> dp(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j)
      dp[i][j] = a[i - 1] == b[j - 1] ? dp[i - 1][j - 1] + 1 : std::max(dp[i - 1][j], dp[i][j - 1]);
  return dp[a.size()][b.size()];
}

std::string RandomString(std::mt19937& rng, size_t len, int alphabet, bool high_bytes) {
  std::string s(len, ' ');
  std::uniform_int_distribution<int> pick(0, alphabet - 1);
  for (char& c : s) {
    int x = pick(rng);
    c = static_cast<char>(high_bytes ? 0x80 + x * 7 : 'a' + x);
  }
  return s;
}

TEST(LcsTest, SmallExamples) {
  EXPECT_EQ(LcsLength("", ""), 0u);
  EXPECT_EQ(LcsLength("abc", ""), 0u);
  EXPECT_EQ(LcsLength("", "abc"), 0u);
  EXPECT_EQ(LcsLength("abc", "abc"), 3u);
  EXPECT_EQ(LcsLength("abcbdab", "bdcaba"), 4u);
  EXPECT_EQ(LcsLength("abc", "def"), 0u);
  EXPECT_EQ(LcsLength("a", std::string(200, 'a')), 1u);
}

TEST(LcsTest, MatchesDynamicProgramAcrossWordBoundaries) {
  std::mt19937 rng(12345);
  // Lengths around 64 and 128 exercise the single- and multi-word paths and
  // the masking of the last partial word.
  const std::vector<size_t> lengths = {1,   2,   5,   31,  63,  64,  65,  100,
                                       127, 128, 129, 191, 192, 193, 250, 300};
  int cases = 0;
  for (size_t la : lengths) {
    for (size_t lb : {size_t{1}, size_t{17}, size_t{64}, size_t{65}, size_t{130}, size_t{257}}) {
      for (int alphabet : {2, 4, 26}) {
        std::string a = RandomString(rng, la, alphabet, false);
        std::string b = RandomString(rng, lb, alphabet, false);
        ASSERT_EQ(LcsLength(a, b), ReferenceLcs(a, b)) << a << " / " << b;
        ASSERT_EQ(LcsLength(b, a), ReferenceLcs(a, b)) << a << " / " << b;
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 16 * 6 * 3);
}

TEST(LcsTest, MatchesDynamicProgramOnRandomLengthsAndHighBytes) {
  std::mt19937 rng(777);
  std::uniform_int_distribution<size_t> len(0, 400);
  for (int i = 0; i < 300; ++i) {
    bool high = i % 3 == 0;
    std::string a = RandomString(rng, len(rng), 3 + i % 5, high);
    std::string b = RandomString(rng, len(rng), 3 + i % 5, high);
    ASSERT_EQ(LcsLength(a, b), ReferenceLcs(a, b)) << "case " << i;
  }
}

TEST(LcsTest, LongCommonRunsCarryAcrossWords) {
  // Identical long strings (carries through every word) and a shifted copy.
  std::string a;
  for (int i = 0; i < 500; ++i) a.push_back(static_cast<char>('a' + (i * 7) % 26));
  EXPECT_EQ(LcsLength(a, a), a.size());
  EXPECT_EQ(LcsLength(a, "x" + a.substr(1) + "y"), a.size() - 1);
  EXPECT_EQ(LcsLength(a, a.substr(130, 200)), 200u);
}

// ---- Similarity scores ----------------------------------------------------------

TEST(SimilarityTest, SequenceSimilarityByHand) {
  EXPECT_DOUBLE_EQ(SequenceSimilarity("", ""), 1.0);
  EXPECT_DOUBLE_EQ(SequenceSimilarity("abc", ""), 0.0);
  EXPECT_DOUBLE_EQ(SequenceSimilarity("abc", "abc"), 1.0);
  EXPECT_DOUBLE_EQ(SequenceSimilarity("abcd", "abdc"), 6.0 / 8.0);        // LCS 3
  EXPECT_DOUBLE_EQ(SequenceSimilarity("kitten", "sitting"), 8.0 / 13.0);  // LCS "ittn"
}

TEST(SimilarityTest, TokenJaccardByHand) {
  EXPECT_DOUBLE_EQ(TokenJaccard("a b c", "b c d"), 2.0 / 4.0);
  EXPECT_DOUBLE_EQ(TokenJaccard("a a b", "b a"), 1.0);  // sets, not bags
  EXPECT_DOUBLE_EQ(TokenJaccard("", ""), 1.0);
  EXPECT_DOUBLE_EQ(TokenJaccard("a", ""), 0.0);
  EXPECT_DOUBLE_EQ(TokenJaccard("graph neural networks", "graph neural network"), 2.0 / 4.0);
  EXPECT_DOUBLE_EQ(TokenJaccard("x  y", "y x"), 1.0);  // empty tokens ignored
}

TEST(SimilarityTest, TitleMatchScoreExactKeyIsOne) {
  EXPECT_DOUBLE_EQ(TitleMatchScore("Attention Is All You Need", "attention is all you need."), 1.0);
  EXPECT_DOUBLE_EQ(TitleMatchScore("Deep   Residual-Learning", "deep residual learning"), 1.0);
}

TEST(SimilarityTest, TitleMatchScoreFuzzyByHand) {
  // Word forms "graph neural networks" (21 chars) and "graph neural network"
  // (20 chars): LCS 20, seq = 40/41; word sets share 2 of 4 -> jaccard 0.5.
  double expected = 0.65 * (40.0 / 41.0) + 0.35 * 0.5;
  EXPECT_NEAR(TitleMatchScore("Graph Neural Networks", "Graph neural network"), expected, 1e-12);
  EXPECT_NEAR(expected, 0.8091463414634146, 1e-12);
  // "deep learning" (13 chars) vs "deep learning a review" (22 chars): LCS 13,
  // seq = 26/35; word sets share 2 of 4 -> jaccard 0.5.
  EXPECT_NEAR(TitleMatchScore("Deep Learning", "Deep learning: a review"),
              0.65 * (26.0 / 35.0) + 0.35 * 0.5, 1e-12);
  // Symmetric.
  EXPECT_DOUBLE_EQ(TitleMatchScore("Graph neural network", "Graph Neural Networks"),
                   TitleMatchScore("Graph Neural Networks", "Graph neural network"));
}

TEST(SimilarityTest, TitleMatchScoreOfUnrelatedOrEmptyTitles) {
  EXPECT_DOUBLE_EQ(TitleMatchScore("abc", "xyz"), 0.0);
  EXPECT_LT(TitleMatchScore("Graph networks", "Protein folding"), 0.5);
  EXPECT_DOUBLE_EQ(TitleMatchScore("", "Graph networks"), 0.0);
}

// TitleMatchScore deliberately refuses an exact match on empty keys
// (`!ka.empty() && ka == kb`), but two titles without letters then reach the
// fuzzy formula with two empty word forms, where SequenceSimilarity("", "")
// and TokenJaccard("", "") are both 1.0.
TEST(SimilarityTest, TitlesWithoutLettersDoNotMatch) {
  EXPECT_LT(TitleMatchScore("1984", "2001"), 0.88);
  EXPECT_LT(TitleMatchScore("???", "2001"), 0.88);
}

// ---- DOIs ------------------------------------------------------------------------

TEST(NormalizeDoiTest, AcceptedForms) {
  const std::string want = "10.7717/peerj.4375";
  EXPECT_EQ(NormalizeDoi("10.7717/peerj.4375"), want);
  EXPECT_EQ(NormalizeDoi("10.7717/PeerJ.4375"), want);
  EXPECT_EQ(NormalizeDoi("https://doi.org/10.7717/peerj.4375"), want);
  EXPECT_EQ(NormalizeDoi("HTTPS://DOI.ORG/10.7717/PEERJ.4375"), want);
  EXPECT_EQ(NormalizeDoi("http://doi.org/10.7717/peerj.4375"), want);
  EXPECT_EQ(NormalizeDoi("https://dx.doi.org/10.7717/peerj.4375"), want);
  EXPECT_EQ(NormalizeDoi("http://dx.doi.org/10.7717/peerj.4375"), want);
  EXPECT_EQ(NormalizeDoi("doi.org/10.7717/peerj.4375"), want);
  EXPECT_EQ(NormalizeDoi("doi:10.7717/peerj.4375"), want);
  EXPECT_EQ(NormalizeDoi("DOI: 10.7717/peerj.4375"), want);
  EXPECT_EQ(NormalizeDoi("  10.7717/peerj.4375\n"), want);
  // Slashes inside the suffix stay.
  EXPECT_EQ(NormalizeDoi("https://doi.org/10.1002/(SICI)1097-4571"), "10.1002/(sici)1097-4571");
}

TEST(NormalizeDoiTest, NonDoisGiveEmpty) {
  for (const char* s :
       {"", "   ", "hello", "W2741809807", "10.7717", "10.", "11.1234/abc",
        "https://example.org/10.1234/abc", "doi:", "https://doi.org/", "arXiv:1706.03762"}) {
    EXPECT_EQ(NormalizeDoi(s), "") << s;
  }
}

// ---- OpenAlex ids ------------------------------------------------------------------

TEST(ShortOpenAlexIdTest, AcceptedForms) {
  EXPECT_EQ(ShortOpenAlexId("https://openalex.org/W2741809807"), "W2741809807");
  EXPECT_EQ(ShortOpenAlexId("http://openalex.org/W2741809807"), "W2741809807");
  EXPECT_EQ(ShortOpenAlexId("openalex.org/W2741809807"), "W2741809807");
  EXPECT_EQ(ShortOpenAlexId("https://api.openalex.org/works/W2741809807"), "W2741809807");
  EXPECT_EQ(ShortOpenAlexId("https://api.openalex.org/W2741809807"), "W2741809807");
  EXPECT_EQ(ShortOpenAlexId("https://api.openalex.org/authors/A5023888391"), "A5023888391");
  EXPECT_EQ(ShortOpenAlexId("W2741809807"), "W2741809807");
  EXPECT_EQ(ShortOpenAlexId("w2741809807"), "W2741809807");
  EXPECT_EQ(ShortOpenAlexId("https://openalex.org/i27837315"), "I27837315");
  for (const char* id : {"A1", "I1", "S1", "T1", "C1", "F1", "P1"})
    EXPECT_EQ(ShortOpenAlexId(id), id);
}

TEST(ShortOpenAlexIdTest, TopicHierarchyKeepsItsPath) {
  EXPECT_EQ(ShortOpenAlexId("https://openalex.org/subfields/1804"), "subfields/1804");
  EXPECT_EQ(ShortOpenAlexId("subfields/1804"), "subfields/1804");
  EXPECT_EQ(ShortOpenAlexId("https://openalex.org/fields/18"), "fields/18");
  EXPECT_EQ(ShortOpenAlexId("https://openalex.org/domains/3"), "domains/3");
}

TEST(ShortOpenAlexIdTest, GarbageGivesEmpty) {
  for (const char* s :
       {"", "W", "X123", "W12x", "hello", "https://openalex.org/", "https://example.org/W123",
        "10.7717/peerj.4375", "W-1", "W 1", "https://openalex.org/subfields/"}) {
    EXPECT_EQ(ShortOpenAlexId(s), "") << s;
  }
}

// ---- Names ---------------------------------------------------------------------------

TEST(NormalizeNameTest, FoldsCollapsesAndKeepsDigits) {
  EXPECT_EQ(NormalizeName("Hajič,  Jan"), "hajic jan");
  EXPECT_EQ(NormalizeName("  Amble, Tore "), "amble tore");
  EXPECT_EQ(NormalizeName("José García-Márquez"), "jose garcia marquez");
  EXPECT_EQ(NormalizeName("Smith 3rd"), "smith 3rd");
  EXPECT_EQ(NormalizeName("Proc. ACL 2000"), "proc acl 2000");
  EXPECT_EQ(NormalizeName(""), "");
  EXPECT_EQ(NormalizeName("Hajic\xCC\x8C, Jan"), "hajic jan");
}

// ---- Abstracts -------------------------------------------------------------------------

TEST(AbstractTest, RebuildsInPositionOrder) {
  EXPECT_EQ(AbstractFromInvertedIndex({{"world", {1}}, {"hello", {0}}}), "hello world");
  EXPECT_EQ(AbstractFromInvertedIndex({{"the", {0, 3}}, {"cat", {1}}, {"saw", {2}}, {"dog", {4}}}),
            "the cat saw the dog");
  EXPECT_EQ(AbstractFromInvertedIndex({}), "");
  EXPECT_EQ(AbstractFromInvertedIndex({{"lonely", {}}}), "");
}

TEST(AbstractTest, SkipsGapsAndDuplicatePositions) {
  // Positions 1..4 missing: the words close up.
  EXPECT_EQ(AbstractFromInvertedIndex({{"x", {0}}, {"y", {5}}, {"z", {9}}}), "x y z");
  // Two words claim position 2: exactly one of them is kept.
  std::string s = AbstractFromInvertedIndex({{"a", {0, 2}}, {"b", {1}}, {"c", {2}}, {"d", {3}}});
  EXPECT_TRUE(s == "a b a d" || s == "a b c d") << s;
  // Same word listed twice at one position.
  EXPECT_EQ(AbstractFromInvertedIndex({{"a", {0, 0}}, {"b", {1}}}), "a b");
}

}  // namespace
}  // namespace litgraph
