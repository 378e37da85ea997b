// litgraph-lineage: citation paths between two papers, and lineage trees.
//
// Reads two paper arguments A (older) and B (newer) as ids, DOIs or titles,
// or one paper with --ancestors / --descendants. Writes one JSON line per
// path step (oldest first; each paper cites the previous one) or per tree
// node, or a Graphviz / Mermaid drawing.
// Exit codes: 0 found, 1 no path within --max-hops, 2 usage or ambiguous
// title (candidates listed), 4 store error, 5 internal.
#include "litgraph/lineage.h"

#include <fmt/format.h>

#include "litgraph/find.h"
#include "litgraph/render.h"
#include "litgraph/store.h"
#include "tool.h"

namespace {

using namespace litgraph;

Manual ToolManual() {
  Manual man;
  man.synopsis = "[OPTIONS] A B\n.br\n[OPTIONS] --ancestors PAPER | --descendants PAPER";
  man.description =
      "Traces how a newer paper B descends from an older paper A through citations: B cites a "
      "paper that cites a paper ... that cites A. A and B are ids, DOIs or titles; given in the "
      "wrong order they are swapped (with a note on standard error).\n\n"
      "The result is the most influential citation path among all citation paths of at most "
      "--max-hops edges, by each paper's citation count (the record's cited_by_count when "
      "present, the in-store count otherwise; a note says which). By default (--objective "
      "mean) that is the path whose papers are most cited on average: a detour through another "
      "paper is taken only when that paper is cited more than the path's papers on average, so "
      "a larger --max-hops never lengthens the answer for its own sake. --objective total "
      "takes the path with the largest total citation count (SciNetBench's ground truth for "
      "its path-wise task), which favours the longest path --max-hops allows. Ties go to fewer "
      "hops. --shortest orders paths by hop count first; --k N returns the N best distinct "
      "paths.\n\n"
      "--ancestors PAPER lists the papers PAPER builds on (its references, their references, "
      "... to --depth hops); --descendants PAPER the papers building on it; both ranked by "
      "citation count, each with its tree parent.";
  man.input = "Nothing on standard input.";
  man.output =
      "Paths: one JSON object per step, oldest paper first: path (1-based), step (0-based), "
      "hops, score (the path's total citations), mean_citations (per paper), the paper fields "
      "of litgraph-json(7), and "
      "relation (\"CITES\": this paper cites the previous step; null for step 0). Trees: one "
      "object per paper with rank, depth, parent, via (tree path from the root) and relation. "
      "--format dot and --format mermaid draw the path(s) or tree instead.";
  man.exit_status =
      "Exit 1 when no path exists within --max-hops; the message says how far "
      "the search went. Exit 2 when a title matches several papers.";
  man.examples = {{"litgraph-lineage --db lib.db W1 W2", "The most cited path from W2 back to W1."},
                  {"litgraph-lineage --db lib.db --k 3 --format dot W1 W2 | dot -Tsvg > paths.svg",
                   "Draw the three best paths."},
                  {"litgraph-lineage --db lib.db --ancestors W2 --depth 2 --limit 30",
                   "The 30 most cited papers W2 builds on, within two hops."}};
  return man;
}

}  // namespace

namespace {

struct Options {
  std::vector<std::string> papers;     // A B
  std::string ancestors, descendants;  // or one tree root
  std::string objective = "mean";
  LineageOptions paths;
  TreeOptions tree;
};

void AddOptions(CLI::App& app, Options* o) {
  app.add_option("papers", o->papers, "A (older) and B (newer): ids, DOIs or titles")
      ->type_name("PAPER")
      ->expected(0, 2);
  app.add_option("--max-hops", o->paths.max_hops, "Longest path in citation hops (default 6)")
      ->type_name("N")
      ->check(NumberIn(1, 12));
  app.add_option("--objective", o->objective,
                 "Best path: mean (papers most cited on average, default) or total (largest total "
                 "citation count, SciNetBench's ground truth)")
      ->check(CLI::IsMember({"mean", "total"}));
  app.add_flag("--shortest", o->paths.shortest, "Fewest hops first (then the objective)");
  app.add_option("-k,--k", o->paths.k, "Number of distinct paths (default 1)")
      ->type_name("N")
      ->check(NumberIn<size_t>(1, 1000));
  app.add_option("--ancestors", o->ancestors, "Lineage tree of the papers PAPER builds on")
      ->type_name("PAPER");
  app.add_option("--descendants", o->descendants, "Lineage tree of the papers building on PAPER")
      ->type_name("PAPER");
  app.add_option("--depth", o->tree.depth, "Tree depth in hops (default 2)")
      ->type_name("D")
      ->check(NumberIn(1, 6));
  app.add_option("-n,--limit", o->tree.limit, "Tree nodes to return (default 50)")
      ->type_name("N")
      ->check(NumberIn<size_t>(1, 1000000));
}

bool Drawing(Format f) { return f == Format::kDot || f == Format::kMermaid; }

// --ancestors / --descendants: the lineage tree of one paper.
Status Tree(Tool& tool, Store* store, PaperFinder& finder, Graph& g, Options o) {
  o.tree.descendants = !o.descendants.empty();
  auto root = finder.Resolve(o.tree.descendants ? o.descendants : o.ancestors);
  if (!root.ok()) return root.status();
  const uint32_t r = static_cast<uint32_t>(*root);
  bool truncated = false;
  auto nodes = LineageTree(g, r, o.tree, &truncated);
  if (!nodes.ok()) return nodes.status();
  if (truncated) tool.Note("the tree walk stopped at its node cap; deeper levels are partial");
  if (nodes->empty())
    return Status::NotFound(o.tree.descendants ? "no citing papers in the store"
                                               : "no references in the store");
  Output out(tool.common().format);
  if (Drawing(out.format())) {
    out.Raw(DrawLineageTree(out.format(), store, g, r, *nodes, o.tree.descendants));
    return Status::Ok();
  }
  tool.Shape(&out, store);
  out.SetColumns({{"rank", "#", 0},
                  {"depth", "depth", 0},
                  {"year", "year", 0},
                  {"id", "id", 0},
                  {"title", "title", 70},
                  {"cited_by_count", "cites", 0},
                  {"parent", "parent", 0},
                  {"doi", "doi", 0, false}});
  for (const Json& j : LineageTreeRecords(store, &g, r, *nodes, o.tree.descendants)) out.Write(j);
  return Status::Ok();
}

// A B: the best citation paths between two papers.
Status Paths(Tool& tool, Store* store, PaperFinder& finder, Graph& g, const Options& o) {
  auto a = finder.Resolve(o.papers[0]);
  if (!a.ok()) return a.status();
  auto b = finder.Resolve(o.papers[1]);
  if (!b.ok()) return b.status();
  if (*a == *b) return Status::InvalidArgument("A and B are the same paper");
  auto lineage = TraceLineage(g, static_cast<uint32_t>(*a), static_cast<uint32_t>(*b), o.paths);
  if (!lineage.ok()) return lineage.status();
  const LineageStats& stats = lineage->stats;
  if (lineage->swapped)
    tool.Note(
        fmt::format("{} is the newer paper: tracing from it back to {}", o.papers[0], o.papers[1]));
  if (stats.truncated)
    tool.Warn("the search hit its work cap; the paths shown may not be the best");
  if (lineage->paths.empty())
    return Status::NotFound(fmt::format(
        "no citation path within {} hops (searched {} papers forward to depth {} and {} "
        "backward to depth {})",
        o.paths.max_hops, stats.forward_expanded, stats.forward_depth, stats.backward_expanded,
        stats.backward_depth));
  size_t from_store = 0, total = 0;
  for (const auto& p : lineage->paths)
    for (uint32_t n : p.nodes) {
      ++total;
      from_store += g.CitationsFromRecord(n) ? 0 : 1;
    }
  // Only a mix is worth a word: the path then compares counts of two origins.
  if (from_store > 0 && from_store < total)
    tool.Note(
        fmt::format("citation counts: {} of {} steps from records (OpenAlex cited_by_count), "
                    "{} counted in the store",
                    total - from_store, total, from_store));
  Output out(tool.common().format);
  if (Drawing(out.format())) {
    out.Raw(DrawLineagePaths(out.format(), store, g, lineage->paths));
    return Status::Ok();
  }
  tool.Shape(&out, store);
  out.SetColumns({{"path", "path", 0},
                  {"step", "step", 0},
                  {"year", "year", 0},
                  {"id", "id", 0},
                  {"title", "title", 70},
                  {"cited_by_count", "cites", 0},
                  {"relation", "relation", 0},
                  {"doi", "doi", 0, false}});
  for (const Json& j : LineagePathRecords(store, &g, lineage->paths)) out.Write(j);
  return Status::Ok();
}

Status Run(Tool& tool, Options& o) {
  o.paths.objective = o.objective == "total" ? LineageObjective::kTotal : LineageObjective::kMean;
  const bool tree_mode = !o.ancestors.empty() || !o.descendants.empty();
  if (tree_mode && (!o.papers.empty() || (!o.ancestors.empty() && !o.descendants.empty())))
    return Status::InvalidArgument("give either A B, or one of --ancestors / --descendants");
  if (!tree_mode && o.papers.size() != 2)
    return Status::InvalidArgument("expected two papers: A (older) B (newer)");
  auto store = Store::Open(tool.common().db, Store::Mode::kRead);
  if (!store.ok()) return store.status();
  PaperFinder finder(store->get());
  Graph* g = finder.graph();
  if (!g) {
    LITGRAPH_RETURN_IF_ERROR(finder.status());
    return Status::IoError((*store)->dir() + ": the store has no graph yet (run litgraph-ingest)");
  }
  return tree_mode ? Tree(tool, store->get(), finder, *g, o)
                   : Paths(tool, store->get(), finder, *g, o);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> formats = PaperFormats();
  formats.insert(formats.end(), {"dot", "mermaid"});
  Tool tool("lineage", ToolManual(), formats);
  tool.AddShapingOptions();
  Options o;
  AddOptions(tool.app(), &o);
  return tool.Run(argc, argv, [&] { return Run(tool, o); });
}
