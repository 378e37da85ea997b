// LexicalIndex (lexical.h): a lexicon and its postings (the input's two
// halves, fuzz_util.h SplitPair) opened from a generation, then term lookups,
// BM25 searches with and without a postings budget and a filter, and exact
// scoring of given documents. Damage must read as absent terms and latch in
// status().
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "litgraph/lexical.h"

using namespace litgraph;
using namespace litgraph::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static GenerationView* view = MakeGeneration("graph", {"lexicon", "postings"}).release();
  const Input in = Decode(data, size);
  auto [lexicon, postings] = SplitPair(in.bytes);
  WriteInput(view->Path("lexicon"), Identity("lexicon"), {in.raw, lexicon});
  WriteInput(view->Path("postings"), Identity("postings"), {in.raw, postings});
  LexicalIndex index;
  if (!index.Open(*view).ok()) return 0;
  float sum = 0;
  std::vector<std::string> texts = SampleTexts();
  // The first term strings of the lexicon (after its 96-byte header and the
  // offset tables), as a query: terms it knows.
  if (lexicon.size() > 128) texts.emplace_back(lexicon.substr(lexicon.size() - 48));
  for (const std::string& t : texts) {
    std::vector<QueryTerm> terms = LexicalIndex::QueryTerms(t);
    for (const QueryTerm& q : terms) sum += static_cast<float>(index.DocFreq(q.term));
    for (auto [k, budget] : {std::pair<size_t, size_t>{10, 0}, {3, 5}, {100, 400000}}) {
      std::vector<LexicalHit> hits = index.Search(terms, k, budget);
      Check(hits.size() <= k, "more hits than asked for");
      for (const LexicalHit& h : hits) sum += h.score + static_cast<float>(h.doc);
    }
    std::vector<LexicalHit> odd = index.Search(terms, 5, 0, [](uint32_t d) { return d % 2 == 1; });
    for (const LexicalHit& h : odd) Check(h.doc % 2 == 1, "a filtered-out document returned");
    std::vector<uint32_t> docs = {0, 1, 2, 3, 5, 8, 13, 21, 34, 55, UINT32_MAX};
    std::vector<float> scores = index.ScoreDocs(terms, docs);
    Check(scores.size() == docs.size(), "ScoreDocs output size");
    for (float s : scores) sum += s;
  }
  sum += static_cast<float>(index.Idf(0) + index.Idf(1) + index.Idf(UINT32_MAX));
  Use(sum);
  Use(index.num_terms() + index.num_docs());
  Use(index.status());
  return 0;
}
