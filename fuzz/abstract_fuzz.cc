// The abstract rebuilder: OpenAlex's abstract_inverted_index turned back
// into text, by AbstractFromInvertedIndex (text.h) and by the record parser
// (records.cc), which places words in a table instead of sorting them.
//
// The input's first byte chooses:
//   '{'    the input is the value of "abstract_inverted_index" in a work
//          record, parsed as ingest parses it;
//   other  the input describes an index (words from a small alphabet, each
//          with a few positions), rebuilt by both; when every position is
//          distinct and within the parser's limit (1,000,000) the two texts
//          must be equal.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <set>

#include "fuzz_util.h"
#include "litgraph/records.h"
#include "litgraph/text.h"

using namespace litgraph;
using namespace litgraph::fuzz;

namespace {

Status ParseWork(RecordParser* parser, std::string_view index_json, std::string* abstract) {
  std::string rec = R"({"id":"https://openalex.org/W1","title":"t","abstract_inverted_index":)";
  rec += index_json;
  rec += "}";
  std::vector<Record> out;
  Status st = parser->Parse(rec, false, &out);
  if (st.ok()) {
    Check(out.size() == 1 && std::holds_alternative<WorkRec>(out[0]), "a work record expected");
    *abstract = std::get<WorkRec>(out[0]).abstract;
  }
  return st;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static RecordParser* parser = new RecordParser();
  std::string abstract;
  if (size > 0 && data[0] == '{') {
    Use(ParseWork(parser, std::string_view(reinterpret_cast<const char*>(data), size), &abstract));
    return 0;
  }
  FuzzedDataProvider fdp(data, size);
  static const char* kAlphabet[] = {"a", "b", "graph", "\xc3\xa9", "\"", "\\", " ", "", "x\ny"};
  std::vector<std::pair<std::string, std::vector<uint32_t>>> index;
  std::set<uint32_t> seen;
  bool distinct = true, in_limit = true;
  const size_t words = fdp.ConsumeIntegralInRange<size_t>(0, 64);
  for (size_t i = 0; i < words && fdp.remaining_bytes() > 0; ++i) {
    std::string w;
    const size_t parts = fdp.ConsumeIntegralInRange<size_t>(0, 3);
    for (size_t k = 0; k < parts; ++k)
      w += kAlphabet[fdp.ConsumeIntegralInRange<size_t>(0, std::size(kAlphabet) - 1)];
    std::vector<uint32_t> positions;
    const size_t n = fdp.ConsumeIntegralInRange<size_t>(0, 4);
    for (size_t k = 0; k < n; ++k) {
      // Mostly small, dense positions; sometimes sparse or huge ones.
      uint32_t p = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<uint32_t>(0, 200)
                                     : fdp.ConsumeIntegral<uint32_t>();
      distinct = distinct && seen.insert(p).second;
      in_limit = in_limit && p <= 1000000;
      positions.push_back(p);
    }
    index.emplace_back(std::move(w), std::move(positions));
  }
  const std::string rebuilt = AbstractFromInvertedIndex(index);
  std::string json = "{";
  for (size_t i = 0; i < index.size(); ++i) {
    if (i) json += ",";
    json += nlohmann::json(index[i].first).dump() + ":[";
    for (size_t k = 0; k < index[i].second.size(); ++k)
      json += (k ? "," : "") + std::to_string(index[i].second[k]);
    json += "]";
  }
  json += "}";
  Status st = ParseWork(parser, json, &abstract);
  Check(st.ok() == in_limit, "a valid inverted index refused, or an invalid one accepted");
  if (st.ok() && distinct) Check(abstract == rebuilt, "the two abstract rebuilders disagree");
  return 0;
}
