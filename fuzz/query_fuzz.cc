// Query text analysis without a store: what tri-search and find-paper do to
// the text a user types before touching an index. BM25 query terms, word
// splitting and folding, keyword extraction in query mode (with corpus
// statistics counted from sample texts), titles quoted in the text, the
// abstract of a pasted paper, id and DOI normalization, title matching, and
// the option values given as text (--ranking-profile, --bias, --mode,
// --keyword/--title levels). Oracles: the analysis is deterministic, a
// title matches itself with score 1, similarities stay in [0, 1], keyword
// contracts hold.
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "litgraph/keywords.h"
#include "litgraph/lexical.h"
#include "litgraph/search.h"
#include "litgraph/text.h"

using namespace litgraph;
using namespace litgraph::fuzz;

namespace {

const PhraseStats& Stats() {
  static PhraseStats* s = [] {
    auto* p = new PhraseStats();
    for (const std::string& t : SampleTexts()) p->AddDocument(t, t);
    return p;
  }();
  return *s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Long enough for a pasted abstract; the title matcher is quadratic.
  if (size > 8192) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  size_t sum = 0;

  std::vector<QueryTerm> terms = LexicalIndex::QueryTerms(text);
  for (const QueryTerm& t : terms) {
    Check(!t.term.empty() && t.weight >= 1, "an empty or weightless query term");
    sum += t.term.size();
  }
  Check(LexicalIndex::QueryTerms(text).size() == terms.size(), "query analysis not deterministic");
  std::vector<std::string> words = Words(text);
  size_t n = 0;
  ForEachWord(text, [&](std::string_view w) {
    Check(n < words.size() && words[n] == w, "ForEachWord and Words disagree");
    ++n;
  });
  Check(n == words.size(), "ForEachWord and Words disagree on the count");
  for (const std::string& w : words) {
    Check(!w.empty(), "an empty word");
    sum += Stem(w).size() + Singular(w).size() + IsStopword(w);
  }
  sum += AnalyzeTerms(text).size();

  ExtractOptions eo;
  for (const PhraseStats* stats : {static_cast<const PhraseStats*>(nullptr), &Stats()}) {
    KeywordExtractor ex(stats, [](const std::string& p) { return p.size() % 3 == 0; });
    std::vector<Keyword> kws = ex.Extract("", text, eo);
    Check(kws.size() <= eo.max_keywords, "more keywords than max_keywords");
    for (const Keyword& k : kws) {
      Check(k.score >= 1 && k.score <= 10, "importance outside 1..10");
      Check(!k.text.empty(), "an empty keyword");
      sum += KeywordExtId(k.text).size();
    }
  }
  sum += NormalizeKeyword(text).size();

  for (const auto& [title, conf] : TitlesInText(text)) {
    Check(conf > 0 && conf <= 1, "a title confidence outside (0, 1]");
    sum += title.size();
  }
  sum += AbstractOf(text).size();

  sum += NormalizeDoi(text).size() + ShortOpenAlexId(text).size() + NormalizeName(text).size();
  const std::string key = NormalizeTitleKey(text);
  const std::string tw = NormalizeTitleWords(text);
  sum += key.size() + tw.size();
  if (!key.empty()) Check(TitleMatchScore(text, text) == 1.0, "a title does not match itself");
  for (const std::string& other : SampleTexts()) {
    double s = TitleMatchScore(text, other);
    Check(s >= 0 && s <= 1, "a title score outside [0, 1]");
    double q = SequenceSimilarity(tw, NormalizeTitleWords(other));
    Check(q >= 0 && q <= 1, "a sequence similarity outside [0, 1]");
  }

  SearchParams p;
  Use(p.ApplyProfile(text));
  Use(p.ApplyBias(text));
  RetrievalMode mode;
  sum += ParseRetrievalMode(text, &mode);
  double levels = KeywordLevel(text) + TitleLevel(text);
  Use(levels);
  Use(sum);
  return 0;
}
