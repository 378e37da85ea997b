// PhraseStats (keywords.h): a phrase-statistics file opened, looked up,
// used by the keyword extractor on sample texts, and written back (the
// mapped mode's Write) and reopened. The extractor's contract must hold
// whatever the statistics say: at most max_keywords keywords, importance
// 1..10.
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "litgraph/keywords.h"

using namespace litgraph;
using namespace litgraph::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Input in = Decode(data, size);
  const std::string name = "phrase_df";
  const std::string path = ScratchDir() + "/" + name;
  WriteInput(path, Identity(name), in);
  PhraseStats stats;
  if (!stats.Open(path, Identity(name)).ok()) return 0;
  uint64_t sum = stats.size() + stats.num_docs();
  for (const char* p : {"graph neural network", "open access", "biodiversity", "citation"})
    sum += stats.DocFreq(PhraseHash(p));
  for (size_t i = 32; i + 8 <= in.bytes.size() && i < 32 + 8 * 8; i += 8) {
    uint64_t h;
    std::memcpy(&h, in.bytes.data() + i, 8);  // hashes the file holds
    sum += stats.DocFreq(h) + stats.DocFreq(h + 1);
  }
  sum += stats.DocFreq(0) + stats.DocFreq(UINT64_MAX);
  KeywordExtractor ex(&stats, [](const std::string& p) { return p.size() % 2 == 0; });
  const std::vector<std::string>& texts = SampleTexts();
  ExtractOptions o;
  for (size_t i = 0; i < texts.size(); ++i) {
    std::vector<Keyword> kws = ex.Extract(texts[i], texts[(i + 1) % texts.size()], o);
    Check(kws.size() <= o.max_keywords, "more keywords than max_keywords");
    for (const Keyword& k : kws) {
      Check(k.score >= 1 && k.score <= 10, "importance outside 1..10");
      Check(!k.text.empty(), "an empty keyword");
    }
  }
  const std::string again = ScratchDir() + "/phrase_df.again";
  if (stats.Write(again, Identity("phrase_df.again")).ok()) {
    PhraseStats re;
    Check(re.Open(again, Identity("phrase_df.again")).ok(), "written statistics do not reopen");
    sum += re.size();
  }
  Use(sum);
  Use(stats.status());
  return 0;
}
