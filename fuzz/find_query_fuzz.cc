// Query text against a real store: the id resolution and find-paper paths
// that take what a user types, and a whole tri-search. The store is built
// once per process from tests/data (ingest, then the keyword layer) in the
// scratch directory and read through one PaperFinder and one TriSearch.
// Per input: Store::ResolvePaperId, PaperFinder::Resolve, find-paper by id,
// DOI, title, author, free text and venue, a --candidates id list file, and
// TriSearch::Run with the input as the query (and as a --keyword / --title
// entry). Errors are Status values; nothing may crash.
#include <cstddef>
#include <cstdint>
#include <fstream>

#include "fuzz_util.h"
#include "litgraph/find.h"
#include "litgraph/ingest.h"
#include "litgraph/jsonl.h"
#include "litgraph/keyword_store.h"
#include "litgraph/search.h"
#include "litgraph/store.h"

#ifndef LITGRAPH_TEST_DATA
#error "LITGRAPH_TEST_DATA (tests/data) must be defined"
#endif

using namespace litgraph;
using namespace litgraph::fuzz;

namespace {

struct Fixture {
  std::unique_ptr<Store> store;
  std::unique_ptr<PaperFinder> finder;
  std::unique_ptr<TriSearch> search;
  std::string list_path;

  Fixture() {
    const std::string dir = ScratchDir() + "/store";
    const std::string data = LITGRAPH_TEST_DATA;
    {
      auto w = Store::Open(dir, Store::Mode::kWrite, /*create=*/true);
      Check(w.ok(), "store create");
      IngestStats is;
      Status st = Ingest(w->get(),
                         {data + "/snowball.works.jsonl", data + "/W2741809807.json",
                          data + "/A5023888391.json", data + "/S137773608.json"},
                         {}, &is);
      Check(st.ok(), "ingest of tests/data");
      KeywordRunStats ks;
      st = RunKeywordExtraction(
          w->get(), {}, [](const PhraseStats* stats) { return MakeBuiltinKeywordBackend(stats); },
          &ks);
      Check(st.ok(), "keyword extraction");
    }
    auto r = Store::Open(dir, Store::Mode::kRead);
    Check(r.ok(), "store open");
    store = std::move(*r);
    finder = std::make_unique<PaperFinder>(store.get());
    search = std::make_unique<TriSearch>(store.get(), SearchParams{});
    list_path = ScratchDir() + "/candidates.txt";
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Fixture* fx = new Fixture();
  if (size > 1024) return 0;  // a query, not a document (query_fuzz takes those)
  const std::string text(reinterpret_cast<const char*>(data), size);
  size_t sum = 0;

  if (auto id = fx->store->ResolvePaperId(text)) sum += static_cast<size_t>(*id);
  if (auto r = fx->finder->Resolve(text); r.ok()) sum += static_cast<size_t>(*r);
  for (int field = 0; field < 6; ++field) {
    FindQuery q;
    q.limit = 5;
    switch (field) {
      case 0:
        q.id = text;
        break;
      case 1:
        q.doi = text;
        break;
      case 2:
        q.title = text;
        break;
      case 3:
        q.author = text;
        break;
      case 4:
        q.text = text;
        break;
      case 5:
        q.text = "open access";
        q.venue = text;
        q.type = text;
        break;
    }
    auto hits = fx->finder->Find(q);
    if (hits.ok()) {
      Check(hits->size() <= q.limit, "more hits than the limit");
      for (const FindHit& h : *hits) sum += static_cast<size_t>(h.paper);
    }
  }
  {
    std::ofstream f(fx->list_path, std::ios::binary | std::ios::trunc);
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  std::vector<std::string> missing;
  if (auto ids = ReadPaperIdList(fx->store.get(), fx->list_path, &missing); ids.ok())
    sum += ids->size();

  SearchQuery sq;
  sq.text = text;
  sq.keywords = {{text, 0.7}};
  sq.titles = {{text, 0.85}};
  auto res = fx->search->Run(sq, nullptr);
  if (res.ok()) {
    Check(res->size() <= fx->search->params().limit, "more results than the limit");
    sum += res->size();
  }
  Check(fx->finder->status().ok(), "an undamaged store read as damaged");
  Use(sum);
  return 0;
}
