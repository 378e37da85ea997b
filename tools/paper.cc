// litgraph-paper: paper details and citation neighbourhoods.
//
// Reads paper ids, DOIs or titles from its arguments, or from stdin one per
// line: plain ids, DOIs, OpenAlex URLs, titles, or JSON lines with an "id"
// field (so any tool's output pipes in). Writes one detail card
// per paper, or with --references / --cited-by / --co-cited / --coupled the
// ranked neighbour papers of each.
// Exit codes: 0 ok, 1 a paper was not found (others are still printed),
// 2 usage (ambiguous title), 3 malformed stdin line, 4 store error.
#include <fmt/format.h>

#include "litgraph/citations.h"
#include "litgraph/find.h"
#include "litgraph/jsonl.h"
#include "litgraph/metrics.h"
#include "litgraph/render.h"
#include "litgraph/store.h"
#include "tool.h"

namespace {

using namespace litgraph;

Manual ToolManual() {
  Manual man;
  man.synopsis = "[OPTIONS] [PAPER...]";
  man.description =
      "Shows a detail card for each PAPER (an id, DOI or title; with no PAPER, JSON lines with "
      "an \"id\" field are read from standard input, so litgraph-find-paper output can be piped "
      "in): authors with positions and institutions, venue, topics, keywords, abstract, open "
      "access data, the references and citing papers present in the store, and the paper's "
      "citation metrics when the store has a current metrics file (litgraph-metrics --build)."
      "\n\n"
      "--references and --cited-by list the papers it cites and the papers citing it; "
      "--co-cited lists the papers most often cited together with it; --coupled lists the "
      "papers sharing most references with it (bibliographic coupling). Lists are ranked by "
      "their count, then citations.";
  man.input =
      "Without arguments, papers one per line: an id, DOI, OpenAlex URL or title, or a JSON "
      "record with an \"id\" field (other fields are ignored).";
  man.output =
      "Detail cards: the paper fields of litgraph-json(7) plus date, work_type, language, "
      "abstract, source, open_access, pdf_url, authorships, topics, keywords, "
      "openalex_keywords, references_in_store, cited_by_in_store and their counts, "
      "dangling_references, metrics (when the store has a current metrics file: the fields of "
      "litgraph-metrics' records after the paper fields); as a table (the default on a terminal) a "
      "card to read: title, "
      "ids, venue, authors, counts, keywords, topics and the abstract wrapped to the "
      "terminal (--fields or --sort give rows instead). Neighbour lists: paper records with "
      "rank, score (the count), relation and of (the paper they belong to).";
  man.exit_status =
      "Exit 1 when a paper is not found; the others are still shown. Exit 2 when a title "
      "matches several papers (the candidates are listed).";
  man.examples = {
      {"litgraph-paper --db lib.db W2741809807", "The detail card of one work."},
      {"litgraph-paper --db lib.db --co-cited --limit 10 10.7717/peerj.4375",
       "Papers most often cited together with a DOI."},
      {"litgraph-find-paper --db lib.db --limit 3 open access | litgraph-paper --db lib.db "
       "--cited-by",
       "Who cites the top three hits."}};
  return man;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace litgraph;
  Tool tool("paper", ToolManual(), PaperFormats());
  tool.AddShapingOptions();
  std::vector<std::string> papers;
  bool references = false, cited_by = false, co_cited = false, coupled = false;
  size_t limit = 20;
  auto& app = tool.app();
  app.add_option("papers", papers, "Paper ids, DOIs or titles (none: ids from stdin)")
      ->type_name("PAPER");
  auto* g = app.add_option_group("Neighbourhood", "List neighbours instead of details");
  g->add_flag("--references", references, "Papers it cites (in the store)");
  g->add_flag("--cited-by", cited_by, "Papers citing it (in the store)");
  g->add_flag("--co-cited", co_cited, "Papers most often co-cited with it");
  g->add_flag("--coupled", coupled, "Papers sharing most references with it");
  g->require_option(0, 1);
  app.add_option("-n,--limit", limit, "Neighbours per paper (default 20)")
      ->type_name("N")
      ->check(NumberIn<size_t>(1, 1000000));
  return tool.Run(argc, argv, [&]() -> Status {
    auto store = Store::Open(tool.common().db, Store::Mode::kRead);
    if (!store.ok()) return store.status();
    if (papers.empty()) {
      LITGRAPH_RETURN_IF_ERROR(ForEachIdIn("-", [&](const std::string& id, const std::string&) {
        papers.push_back(id);
        return Status::Ok();
      }));
      if (papers.empty())
        return Status::InvalidArgument("no paper given (arguments or ids on stdin)");
    }
    PaperFinder finder(store->get());
    Graph* graph = finder.graph();
    LITGRAPH_RETURN_IF_ERROR(finder.status());  // a damaged graph is an error, not "no graph"
    // The store's metrics (litgraph-metrics --build) join the card when current.
    std::unique_ptr<MetricsFile> metrics;
    if (graph) {
      auto m = MetricsFile::Open(store->get(), *graph);
      if (!m.ok()) return m.status();
      metrics = std::move(*m);
    }
    Output out(tool.common().format);
    tool.Shape(&out, store->get());
    const bool list_mode = references || cited_by || co_cited || coupled;
    const bool shaped = tool.Shaped();
    size_t printed = 0;
    if (list_mode) {
      auto cols = PaperColumns();
      cols.insert(cols.begin() + 1, {"of", "of", 0});
      out.SetColumns(cols);
    } else {
      out.SetColumns({{"id", "id", 0},
                      {"year", "year", 0},
                      {"title", "title", 60},
                      {"authors", "authors", 40},
                      {"venue", "venue", 30},
                      {"cited_by_count", "cites", 0},
                      {"references_in_store_count", "refs", 0},
                      {"cited_by_in_store_count", "cited_in_store", 0},
                      {"doi", "doi", 0, false}});
    }
    const Neighbourhood kind = references ? Neighbourhood::kReferences
                               : cited_by ? Neighbourhood::kCitedBy
                               : co_cited ? Neighbourhood::kCoCited
                                          : Neighbourhood::kCoupled;
    Status result;
    for (const std::string& arg : papers) {
      auto id = finder.Resolve(arg);
      if (!id.ok()) {
        if (id.status().code() != Code::kNotFound) return id.status();
        tool.Warn(id.status().message());
        result = Status::NotFound("");
        continue;
      }
      if (!list_mode) {
        Json card = PaperCard(store->get(), graph, *id, 200, metrics.get());
        if (out.format() == Format::kTable && !shaped)  // a card to read, not a row
          out.Raw((printed++ ? "\n" : "") + PaperCardText(card, out.width()));
        else
          out.Write(card);
        continue;
      }
      if (!graph) return Status::IoError("the store has no graph yet (run litgraph-ingest)");
      bool capped = false;
      auto neighbours =
          CitationNeighbours(*graph, static_cast<uint32_t>(*id), kind, limit, &capped);
      if (!neighbours.ok()) return neighbours.status();
      auto of = (*store)->GetPaperSummary(*id);
      int rank = 0;
      for (const Neighbour& n : *neighbours) {
        Json j = NeighbourJson(store->get(), graph, n, kind, of ? of->ext_id : arg, rank + 1);
        if (j.is_null()) continue;
        ++rank;
        out.Write(j);
      }
      if (capped) tool.Note(fmt::format("{}: scan capped at the most cited neighbours", arg));
    }
    out.Finish();
    LITGRAPH_RETURN_IF_ERROR(finder.status());
    if (metrics) LITGRAPH_RETURN_IF_ERROR(metrics->status());
    return result;
  });
}
