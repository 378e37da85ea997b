// litgraph-lineage: citation paths between two papers, and lineage trees.
//
// Reads two paper arguments A (older) and B (newer) as ids, DOIs or titles,
// or one paper with --ancestors / --descendants. Writes one JSON line per
// path step (oldest first; each paper cites the previous one) or per tree
// node, or a Graphviz / Mermaid drawing.
// Exit codes: 0 found, 1 no path within --max-hops, 2 usage or ambiguous
// title (candidates listed), 4 store error, 5 internal.
#include <fmt/format.h>

#include "litgraph/find.h"
#include "litgraph/lineage.h"
#include "litgraph/render.h"
#include "litgraph/store.h"
#include "tool.h"

int main(int argc, char** argv) {
  using namespace litgraph;
  Manual man;
  man.synopsis = "[OPTIONS] A B\n.br\n[OPTIONS] --ancestors PAPER | --descendants PAPER";
  man.description =
      "Traces how a newer paper B descends from an older paper A through citations: B cites a "
      "paper that cites a paper ... that cites A. A and B are ids, DOIs or titles; given in the "
      "wrong order they are swapped (with a note on standard error).\n\n"
      "By default the result is the most influential citation path (SciNetBench's ground "
      "truth): among all citation paths of at most --max-hops edges, the one whose papers' "
      "total citation count is largest, using each record's cited_by_count when present and "
      "the in-store citation count otherwise (each step says which). Ties go to fewer hops. "
      "--shortest orders paths by hop count first; --k N returns the N best distinct paths.\n\n"
      "--ancestors PAPER lists the papers PAPER builds on (its references, their references, "
      "... to --depth hops); --descendants PAPER the papers building on it; both ranked by "
      "citation count, each with its tree parent.";
  man.input = "Nothing on standard input.";
  man.output =
      "Paths: one JSON object per step, oldest paper first: path (1-based), step (0-based), "
      "hops, score (the path's total citations), the paper fields of litgraph-json(7), and "
      "relation (\"CITES\": this paper cites the previous step; null for step 0). Trees: one "
      "object per paper with rank, depth, parent, via (tree path from the root) and relation. "
      "--format dot and --format mermaid draw the path(s) or tree instead.";
  man.exit_status = "Exit 1 when no path exists within --max-hops; the message says how far "
                    "the search went. Exit 2 when a title matches several papers.";
  man.examples = {
      {"litgraph-lineage --db lib.db W1 W2", "The most cited path from W2 back to W1."},
      {"litgraph-lineage --db lib.db --k 3 --format dot W1 W2 | dot -Tsvg > paths.svg",
       "Draw the three best paths."},
      {"litgraph-lineage --db lib.db --ancestors W2 --depth 2 --limit 30",
       "The 30 most cited papers W2 builds on, within two hops."}};
  Tool tool("lineage", man, {"jsonl", "table", "tsv", "dot", "mermaid"});
  std::vector<std::string> args;
  LineageOptions opt;
  TreeOptions tree;
  std::string ancestors, descendants;
  auto& app = tool.app();
  app.add_option("papers", args, "A (older) and B (newer): ids, DOIs or titles")
      ->type_name("PAPER")
      ->expected(0, 2);
  app.add_option("--max-hops", opt.max_hops, "Longest path in citation hops (default 6)")
      ->type_name("N")
      ->check(CLI::Range(1, 12));
  app.add_flag("--shortest", opt.shortest, "Fewest hops first (then most cited)");
  app.add_option("-k,--k", opt.k, "Number of distinct paths (default 1)")
      ->type_name("N")
      ->check(CLI::Range(1, 1000));
  app.add_option("--ancestors", ancestors, "Lineage tree of the papers PAPER builds on")
      ->type_name("PAPER");
  app.add_option("--descendants", descendants, "Lineage tree of the papers building on PAPER")
      ->type_name("PAPER");
  app.add_option("--depth", tree.depth, "Tree depth in hops (default 2)")
      ->type_name("D")
      ->check(CLI::Range(1, 6));
  app.add_option("-n,--limit", tree.limit, "Tree nodes to return (default 50)")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  return tool.Run(argc, argv, [&]() -> Status {
    const bool tree_mode = !ancestors.empty() || !descendants.empty();
    if (tree_mode && (!args.empty() || (!ancestors.empty() && !descendants.empty())))
      return Status::InvalidArgument("give either A B, or one of --ancestors / --descendants");
    if (!tree_mode && args.size() != 2)
      return Status::InvalidArgument("expected two papers: A (older) B (newer)");
    auto store_or = Store::Open(tool.common().db, Store::Mode::kRead);
    if (!store_or.ok()) return store_or.status();
    Store* store = store_or->get();
    PaperFinder finder(store);
    Graph* g = finder.graph();
    if (!g) {
      LITGRAPH_RETURN_IF_ERROR(finder.status());
      return Status::IoError(store->dir() + ": the store has no graph yet (run litgraph-ingest)");
    }
    Output out(tool.common().format);
    const Format f = tool.common().format;
    const bool draw = f == Format::kDot || f == Format::kMermaid;

    if (tree_mode) {
      tree.descendants = !descendants.empty();
      auto root = finder.Resolve(tree.descendants ? descendants : ancestors);
      if (!root.ok()) return root.status();
      bool truncated = false;
      auto nodes = LineageTree(*g, static_cast<uint32_t>(*root), tree, &truncated);
      if (!nodes.ok()) return nodes.status();
      if (truncated) tool.Note("the tree walk stopped at its node cap; deeper levels are partial");
      if (nodes->empty())
        return Status::NotFound(tree.descendants ? "no citing papers in the store"
                                                 : "no references in the store");
      if (draw) {
        out.Raw(DrawLineageTree(f, store, *g, static_cast<uint32_t>(*root), *nodes, tree.descendants));
        return Status::Ok();
      }
      out.SetColumns({{"rank", "#", 0}, {"depth", "depth", 0}, {"year", "year", 0},
                      {"id", "id", 0}, {"title", "title", 70}, {"cited_by_count", "cites", 0},
                      {"parent", "parent", 0}});
      for (const Json& j :
           LineageTreeRecords(store, g, static_cast<uint32_t>(*root), *nodes, tree.descendants))
        out.Write(j);
      out.Finish();
      return Status::Ok();
    }

    auto a = finder.Resolve(args[0]);
    if (!a.ok()) return a.status();
    auto b = finder.Resolve(args[1]);
    if (!b.ok()) return b.status();
    if (*a == *b) return Status::InvalidArgument("A and B are the same paper");
    auto lineage = TraceLineage(*g, static_cast<uint32_t>(*a), static_cast<uint32_t>(*b), opt);
    if (!lineage.ok()) return lineage.status();
    const LineageStats& stats = lineage->stats;
    if (lineage->swapped)
      tool.Note(fmt::format("{} is the newer paper: tracing from it back to {}", args[0], args[1]));
    if (stats.truncated) tool.Warn("the search hit its work cap; the paths shown may not be the best");
    if (lineage->paths.empty())
      return Status::NotFound(fmt::format(
          "no citation path within {} hops (searched {} papers forward to depth {} and {} "
          "backward to depth {})",
          opt.max_hops, stats.forward_expanded, stats.forward_depth, stats.backward_expanded,
          stats.backward_depth));
    size_t from_store = 0, total = 0;
    for (const auto& p : lineage->paths)
      for (uint32_t n : p.nodes) {
        ++total;
        from_store += g->CitationsFromRecord(n) ? 0 : 1;
      }
    tool.Note(fmt::format("citation counts: {} of {} steps from records (OpenAlex cited_by_count), "
                          "{} counted in the store",
                          total - from_store, total, from_store));
    if (draw) {
      out.Raw(DrawLineagePaths(f, store, *g, lineage->paths));
      return Status::Ok();
    }
    out.SetColumns({{"path", "path", 0}, {"step", "step", 0}, {"year", "year", 0},
                    {"id", "id", 0}, {"title", "title", 70}, {"cited_by_count", "cites", 0},
                    {"relation", "relation", 0}});
    for (const Json& j : LineagePathRecords(store, g, lineage->paths)) out.Write(j);
    out.Finish();
    return Status::Ok();
  });
}
