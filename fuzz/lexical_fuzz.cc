// LexicalIndex (lexical.h): a lexicon and its postings (the input's two
// halves, fuzz_util.h SplitPair) opened from a generation, then term lookups,
// BM25 searches with and without a postings budget and a filter, and exact
// scoring of given documents; then the same bytes as a base and its update
// delta with a mask (masked base postings, two parts in one search). Damage
// must read as absent terms and latch in status().
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz_util.h"
#include "litgraph/lexical.h"

using namespace litgraph;
using namespace litgraph::fuzz;

namespace {

// Term lookups, searches and scoring of an open index; damage latches.
void Exercise(const LexicalIndex& index, std::string_view lexicon) {
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
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // "" : the index alone; "d." : the same bytes as a base and as its update
  // delta (lexical.h), with a mask holding every other paper id.
  static GenerationView* view =
      MakeGeneration("graph", {"lexicon", "postings", "d.lexicon", "d.postings", "d.delta.lexicon",
                               "d.delta.postings", "d.delta.mask"})
          .release();
  const Input in = Decode(data, size);
  auto [lexicon, postings] = SplitPair(in.bytes);
  for (const char* name : {"lexicon", "d.lexicon", "d.delta.lexicon"})
    WriteInput(view->Path(name), Identity(name), {in.raw, lexicon});
  for (const char* name : {"postings", "d.postings", "d.delta.postings"})
    WriteInput(view->Path(name), Identity(name), {in.raw, postings});
  LexicalIndex index;
  if (!index.Open(*view).ok()) return 0;
  Exercise(index, lexicon);
  // The mask's size follows the lexicon's id space (header bytes 24..32).
  uint64_t id_space = 0;
  std::memcpy(&id_space, lexicon.data() + 24, 8);  // Open checked the header's size
  if (id_space > (uint64_t{1} << 24)) return 0;
  std::string mask(8 + (id_space + 7) / 8, '\x55');
  const uint64_t count = id_space / 2;
  std::memcpy(mask.data(), &count, 8);
  WriteInput(view->Path("d.delta.mask"), Identity("d.delta.mask"), {in.raw, mask});
  LexicalIndex with_delta;
  if (!with_delta.Open(*view, "d.").ok()) return 0;
  Exercise(with_delta, lexicon);
  uint64_t held = 0;
  Use(with_delta.ForEachDeltaDoc([&](uint32_t d) {
    Check(d < id_space, "a delta paper beyond the id space");
    ++held;
  }));
  Use(held);
  return 0;
}
