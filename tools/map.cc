// litgraph-map: a literature map over seed papers, as Connected Papers and
// Inciteful draw one.
//
// Reads seed papers from its arguments, or from stdin one per line: plain
// ids, DOIs, OpenAlex URLs, titles, or JSON lines with an "id" field (so any
// tool's output pipes in). Writes one record per paper of the map (seeds,
// similar, prior and derivative works), or the map as a Graphviz, Mermaid,
// GraphML or SVG drawing.
// Exit codes: 0 ok, 1 no seed is in the store (or the seeds share nothing
// with any paper: the seeds are still printed), 2 usage (no seed given, an
// ambiguous title), 3 malformed stdin line, 4 store error, or --format svg
// without Graphviz's dot on PATH, 5 internal.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "litgraph/find.h"
#include "litgraph/jsonl.h"
#include "litgraph/literature_map.h"
#include "litgraph/render.h"
#include "litgraph/store.h"
#include "litgraph/subprocess.h"
#include "tool.h"

namespace {

using namespace litgraph;

Manual ToolManual() {
  Manual man;
  man.synopsis = "[OPTIONS] [PAPER...]";
  man.description =
      "Maps the literature around one or more seed papers (ids, DOIs or titles), as Connected "
      "Papers and Inciteful do, from the citation graph of the store.\n\n"
      "Similar works are the papers most related to the seeds by co-citation (both are cited "
      "by the same papers) and bibliographic coupling (both cite the same papers), combined "
      "over all seeds. Each relation is scored by --co-citation and --coupling: count (the "
      "shared papers), salton (the count over the geometric mean of the two papers' citing "
      "papers, or references) or adamic-adar (each shared citing paper weighs 1/log of its "
      "number of references; each shared reference 1/log of its number of citing papers). "
      "Per seed, each relation's scores are divided by their best value, weighted "
      "(--co-citation-weight, --coupling-weight) and added; a paper's score is the sum over "
      "the seeds (--normalize global: each relation summed over the seeds first, then divided "
      "by its best sum). The defaults were chosen by how well they recover held-out papers' "
      "references from three of them on the ACL Anthology Network. Salton's measure needs "
      "every candidate's number of citing papers or references: on a large store "
      "--coupling adamic-adar maps about twice as fast, for slightly lower recall.\n\n"
      "With the seeds, the similar works form the map's core. Prior works are the papers the "
      "core cites most (counted by citing papers of the core); derivative works are the papers "
      "citing most of the core. Ties go to the more cited paper.\n\n"
      "Only the seeds' neighbourhood is read. For a seed with more than --max-scan citing "
      "papers, co-citation reads its --max-scan most cited citing papers, and coupling reads "
      "at most ten times --max-scan citations of its references (the least cited references "
      "first); a note says when that happened.\n\n"
      "--format dot, mermaid, graphml and svg draw the map instead: its papers coloured by "
      "role, \"cites\" edges from citing to cited paper, and a dashed \"similar\" edge from each "
      "similar work without a citation edge to a seed to the seed it is most similar to. svg "
      "runs Graphviz (dot -Tsvg), which must be on PATH.";
  man.input =
      "Without arguments, seed papers one per line: an id, DOI, OpenAlex URL or title, or a "
      "JSON record with an \"id\" field (other fields are ignored).";
  man.output =
      "One record per paper of the map: seeds, then similar, prior and derivative works, each "
      "in rank order. The paper fields of litgraph-json(7) with role (seed, similar, prior, "
      "derivative), rank (within the role), score (similar: the combined similarity; prior: "
      "papers of the core citing it; derivative: papers of the core it cites; seeds: null), "
      "co_citation and coupling (the relations' scores in the chosen measures, summed over the "
      "seeds), co_cited and coupled (shared citing papers and shared references, summed over "
      "the seeds), seeds (the seeds it shares one with), similar_to (similar works: the seed it "
      "is most similar to), cites_in_map and cited_by_in_map (the seeds and similar works it "
      "cites, and those citing it).";
  man.exit_status =
      "Exit 1 when no seed is in the store (seeds not found are warned about; the others are "
      "mapped), or when the seeds share no citing paper or reference with any paper (the seeds "
      "are still printed). Exit 2 when no seed is given or a title matches several papers. "
      "Exit 4 for --format svg when Graphviz's dot is not on PATH.";
  man.examples = {
      {"litgraph-map --db lib.db W2250539671 W2963341956",
       "The map around two papers, as records."},
      {"litgraph-map --db lib.db --format svg W2250539671 > map.svg",
       "The map around one paper, drawn by Graphviz."},
      {"litgraph-find-paper --db lib.db --limit 3 word embeddings | litgraph-map --db lib.db "
       "--similar 10 --format bibtex",
       "Ten papers like the top three hits, with what they build on and what builds on them, "
       "as BibTeX."},
      {"litgraph-map --db lib.db --co-citation salton --coupling adamic-adar --coupling-weight 1 "
       "W2250539671",
       "Inciteful's measures at equal weights."}};
  return man;
}

struct Options {
  std::vector<std::string> papers;
  MapOptions map;
  std::string co_citation, coupling, normalize;
};

void AddOptions(CLI::App& app, Options* o) {
  app.add_option("papers", o->papers, "Seed paper ids, DOIs or titles (none: from stdin)")
      ->type_name("PAPER");
  const std::string group = "Map";
  app.add_option("--similar", o->map.similar,
                 fmt::format("Similar works (default {})", o->map.similar))
      ->type_name("N")
      ->check(NumberIn<size_t>(0, 1000))
      ->group(group);
  app.add_option("--prior", o->map.prior, fmt::format("Prior works (default {})", o->map.prior))
      ->type_name("N")
      ->check(NumberIn<size_t>(0, 1000))
      ->group(group);
  app.add_option("--derivative", o->map.derivative,
                 fmt::format("Derivative works (default {})", o->map.derivative))
      ->type_name("N")
      ->check(NumberIn<size_t>(0, 1000))
      ->group(group);
  const std::vector<std::string> measures = {"count", "salton", "adamic-adar"};
  app.add_option(
         "--co-citation", o->co_citation,
         fmt::format("Co-citation measure (default {})", MapMeasureName(o->map.co_citation)))
      ->check(CLI::IsMember(measures))
      ->group(group);
  app.add_option("--coupling", o->coupling,
                 fmt::format("Bibliographic coupling measure (default {})",
                             MapMeasureName(o->map.coupling)))
      ->check(CLI::IsMember(measures))
      ->group(group);
  app.add_option("--co-citation-weight", o->map.co_citation_weight,
                 fmt::format("Weight of co-citation (default {}; 0 leaves it out)",
                             o->map.co_citation_weight))
      ->type_name("W")
      ->check(NumberIn(0.0, 1000.0))
      ->group(group);
  app.add_option(
         "--coupling-weight", o->map.coupling_weight,
         fmt::format("Weight of coupling (default {}; 0 leaves it out)", o->map.coupling_weight))
      ->type_name("W")
      ->check(NumberIn(0.0, 1000.0))
      ->group(group);
  app.add_option("--normalize", o->normalize,
                 fmt::format("Scale relations per seed, or globally after summing over the seeds "
                             "(default {})",
                             MapNormalizationName(o->map.normalization)))
      ->check(CLI::IsMember({"seed", "global"}))
      ->group(group);
  app.add_option("--max-scan", o->map.max_scan,
                 fmt::format("Citing papers read per seed (default {})", o->map.max_scan))
      ->type_name("N")
      ->check(NumberIn<size_t>(1, 100000000))
      ->group(group);
}

// The seeds as dense ids: arguments, else lines of standard input.
Result<std::vector<uint32_t>> ResolveSeeds(Tool& tool, PaperFinder& finder, Options& o) {
  size_t missing = 0;
  auto seeds = ResolvePapers(tool, finder, &o.papers,
                             "no seed paper given (arguments or ids on stdin)", &missing);
  if (!seeds.ok()) return seeds.status();
  if (seeds->empty())
    return Status::NotFound(missing > 1 ? "no seed is in the store"
                                        : "the seed is not in the store");
  return seeds;
}

// Graphviz's SVG of a DOT drawing.
Result<std::string> Svg(const std::string& dot) {
  const std::string program = FindProgram("dot");
  if (program.empty())
    return Status::IoError(
        "--format svg needs Graphviz's dot on PATH (install graphviz, or use --format dot)");
  auto run = RunProcess({program, "-Tsvg"}, dot, std::chrono::minutes(2));
  if (!run.ok()) return run.status();
  if (run->exit_code != 0 || run->out.empty()) {
    std::string why = run->err.substr(0, run->err.find('\n'));
    return Status::IoError(
        fmt::format("{} -Tsvg failed ({}){}", program,
                    run->timed_out ? "timed out" : fmt::format("exit {}", run->exit_code),
                    why.empty() ? "" : ": " + why));
  }
  return run->out;
}

Status Run(Tool& tool, Options& o) {
  if (!o.co_citation.empty()) ParseMapMeasure(o.co_citation, &o.map.co_citation);
  if (!o.coupling.empty()) ParseMapMeasure(o.coupling, &o.map.coupling);
  if (!o.normalize.empty()) ParseMapNormalization(o.normalize, &o.map.normalization);
  if (o.map.co_citation_weight == 0 && o.map.coupling_weight == 0 && o.map.similar > 0)
    return Status::InvalidArgument(
        "--co-citation-weight and --coupling-weight are both 0: nothing scores similar works");
  auto store = Store::Open(tool.common().db, Store::Mode::kRead);
  if (!store.ok()) return store.status();
  PaperFinder finder(store->get());
  Graph* graph = finder.graph();
  if (!graph) {
    LITGRAPH_RETURN_IF_ERROR(finder.status());
    return Status::IoError((*store)->dir() + ": the store has no graph yet (run litgraph-ingest)");
  }
  auto seeds = ResolveSeeds(tool, finder, o);
  if (!seeds.ok()) return seeds.status();
  auto map = BuildLiteratureMap(*graph, *seeds, o.map);
  if (!map.ok()) return map.status();
  if (map->capped)
    tool.Note(fmt::format(
        "a seed is a hub: its scan stopped at --max-scan {} (co-citation read its most cited "
        "citing papers, coupling its least cited references)",
        o.map.max_scan));
  const std::string& format = tool.common().format_name;
  Output out(tool.common().format);
  if (format == "graphml") {
    out.Raw(LiteratureMapGraphml(store->get(), *graph, *map));
  } else if (format == "svg") {
    auto svg = Svg(DrawLiteratureMap(Format::kDot, store->get(), *graph, *map));
    if (!svg.ok()) return svg.status();
    out.Raw(*svg);
  } else if (out.format() == Format::kDot || out.format() == Format::kMermaid) {
    out.Raw(DrawLiteratureMap(out.format(), store->get(), *graph, *map));
  } else {
    tool.Shape(&out, store->get());
    out.SetColumns(LiteratureMapColumns());
    for (const Json& j : LiteratureMapRecords(store->get(), graph, *map)) out.Write(j);
  }
  out.Finish();  // here, not in the destructor, so that a closed pipe ends the run quietly
  LITGRAPH_RETURN_IF_ERROR(finder.status());
  const bool asked = o.map.similar + o.map.prior + o.map.derivative > 0;
  if (asked && std::all_of(map->entries.begin(), map->entries.end(),
                           [](const MapEntry& e) { return e.role == MapRole::kSeed; }))
    return Status::NotFound("the seeds share no citing paper or reference with another paper");
  return Status::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> formats = PaperFormats();
  formats.insert(formats.end(), {"dot", "mermaid", "graphml", "svg"});
  Tool tool("map", ToolManual(), formats);
  tool.AddShapingOptions();
  Options o;
  AddOptions(tool.app(), &o);
  return tool.Run(argc, argv, [&] { return Run(tool, o); });
}
