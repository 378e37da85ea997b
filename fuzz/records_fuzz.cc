// The record parser (records.h) as ingest drives it: the input's lines, each
// parsed from a zero-padded buffer (ingest's way) and again unpadded (the
// parser copies), then the whole input as one document; for every work the
// keys ingest derives on its reader thread (title key, packed reference
// lists) and the terms the lexical index takes from title and abstract. Also the tools' JSON-lines
// reader (jsonl.h) and the record text extract-keywords --filter reads (PaperTextOf). Oracles:
// padded and unpadded parses agree; packed id lists unpack to the same ids.
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "fuzz_util.h"
#include "litgraph/coding.h"
#include "litgraph/jsonl.h"
#include "litgraph/keyword_store.h"
#include "litgraph/lexical.h"
#include "litgraph/records.h"
#include "litgraph/text.h"

using namespace litgraph;
using namespace litgraph::fuzz;

namespace {

void Derive(const std::vector<Record>& records) {
  for (const Record& r : records) {
    const auto* w = std::get_if<WorkRec>(&r);
    if (!w) continue;
    Use(NormalizeTitleKey(w->title));
    for (const auto* ids : {&w->refs, &w->related}) {
      std::string packed = PackIdList(*ids);
      std::vector<std::string> back;
      Check(UnpackIdList(packed, &back), "a packed id list does not unpack");
      Check(back == *ids, "a packed id list unpacks to other ids");
    }
    Use(AnalyzeTerms(w->title).size() + AnalyzeTerms(w->abstract).size());
    Use(NormalizeDoi(w->doi));
  }
}

Status ParsePadded(RecordParser* parser, std::string_view text, std::vector<Record>* out) {
  std::string buf(text);
  buf.resize(text.size() + RecordParser::kPadding);
  return parser->Parse(std::string_view(buf.data(), text.size()), true, out);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static RecordParser* parser = new RecordParser();
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  size_t start = 0;
  int lines = 0;
  while (start <= all.size() && lines++ < 64) {
    size_t nl = all.find('\n', start);
    std::string_view line = all.substr(start, nl == std::string_view::npos ? nl : nl - start);
    start = nl == std::string_view::npos ? all.size() + 1 : nl + 1;
    std::vector<Record> padded, unpadded;
    Status a = ParsePadded(parser, line, &padded);
    Status b = parser->Parse(line, false, &unpadded);
    Check(a.ok() == b.ok() && a.code() == b.code(), "padded and unpadded parses disagree");
    Check(padded.size() == unpadded.size(), "padded and unpadded parses give other records");
    if (a.ok()) Derive(padded);
  }
  std::vector<Record> doc;
  if (ParsePadded(parser, all, &doc).ok()) Derive(doc);

  std::istringstream in{std::string(all)};
  Use(ForEachJsonLine(in, "<fuzz>", [](Json& record, const std::string& where) {
    auto text = PaperTextOf(record, where);
    if (text.ok()) Use(text->title.size() + text->abstract.size());
    return Status::Ok();
  }));
  return 0;
}
