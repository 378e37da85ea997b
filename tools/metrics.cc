// litgraph-metrics: citation metrics of papers: disruption (CD index), in-store
// citation counts beside the records', citation percentiles within field and
// year, PageRank over CITES, novelty and conventionality.
//
// Reads paper ids, DOIs or titles from its arguments, or from stdin one per
// line (plain ids or JSON lines with an "id" field, so any tool's output pipes
// in); --all prints every paper. Writes one metric_entry record per paper.
// --build computes every paper's metrics and commits them as the store's
// metrics generation (DIR/metrics.<N>/), which later runs and the paper card
// read; with --stats it prints a metrics_summary record.
// Exit codes: 0 ok, 1 a paper was not found (the others are printed), 2 usage,
// 3 malformed stdin line, 4 store error (no graph, damage), 5 internal.
#include "litgraph/metrics.h"

#include <fmt/format.h>

#include <cmath>

#include "litgraph/find.h"
#include "litgraph/jsonl.h"
#include "litgraph/render.h"
#include "litgraph/store.h"
#include "tool.h"

namespace {

using namespace litgraph;

Manual ToolManual() {
  Manual man;
  man.synopsis = "[OPTIONS] [PAPER...]\n--all [OPTIONS]\n--build [OPTIONS]\n--refresh";
  man.description =
      "Citation metrics of papers from the store's citation graph (CITES edges between papers "
      "in the store; references to works not in the store do not count).\n\n"
      "Disruption, the CD index of Funk and Owen-Smith (2017) as CD_t of Wu, Wang and Evans "
      "(2019). For a focal paper f with references R(f), among the papers counted by the "
      "window, n_i cite f and none of R(f), n_j cite f and at least one of R(f), n_k cite at "
      "least one of R(f) but not f; cd = (n_i - n_j) / (n_i + n_j + n_k), and cd_no_nk = "
      "(n_i - n_j) / (n_i + n_j), SciNetBench's variant. Both range from -1 (consolidating) to "
      "+1 (disruptive). The window of t years (--window, default 5) counts a paper c when both "
      "years are known and 0 <= year(c) - year(f) <= t (a paper of the same year counts); "
      "--window 0 or unbounded counts every paper not known to be older than f (year(c) >= "
      "year(f), or either year unknown). f itself is never counted, and a paper citing itself "
      "has that edge ignored. A value is null with a reason: no_references (f has no reference "
      "in the store; n_i still counts its citing papers), no_year (a window and f's year is "
      "unknown), no_citations (the denominator is 0: nothing in the window cites f or R(f); "
      "for cd_no_nk, nothing cites f).\n\n"
      "cited_by_in_store is the number of papers of the store citing the paper, beside "
      "cited_by_count (the record's count, OpenAlex's global one, when present; "
      "citation_source says which). citation_percentile places cited_by_count among the "
      "papers of the same field and year: 100 x (papers with fewer citations + half of those "
      "with as many, itself included) / papers of the group. A paper's field is its primary "
      "topic's field (else its best-scored topic's); papers without topics form one group per "
      "year, as do papers of unknown year.\n\n"
      "pagerank is PageRank over CITES (citing -> cited) with damping --damping (0.85), power "
      "iteration from the uniform vector until the L1 change is below --tolerance (1e-10; at "
      "most 200 iterations); the rank of papers with no reference in the store (dangling) "
      "is spread over all papers each step; the ranks sum to 1.\n\n"
      "novelty and conventionality follow Uzzi, Mukherjee, Stringer and Jones (2013): each "
      "pair of a paper's references that both have a venue gives a venue pair (a venue with "
      "itself included); pairs are counted over the store and in --k randomized networks "
      "(default 10, seeded by --seed) in which, within each stratum of citations with the same "
      "citing year and cited year, the cited papers are permuted (a random sequence of edge "
      "swaps within the stratum: every paper keeps its number of references and of citations "
      "and the years of both). A pair's z = (observed - mean) / sd over the networks; a "
      "paper's novelty is the 10th percentile of its pairs' z (lower: more atypical "
      "combinations), its conventionality the median (nearest rank). Skipped: references "
      "without a venue, and pairs whose sd is 0 (z undefined); novelty_pairs counts the pairs "
      "used; null when none is left. Novelty is computed by --build --novelty (or --all "
      "--novelty) only.\n\n"
      "novelty_keywords and conventionality_keywords (--keyword-novelty, which implies "
      "--novelty) are the same over keyword pairs of the cited papers, counted on the same "
      "randomized networks: each reference contributes its --keywords-per-reference keywords "
      "(default 1) of highest importance among the --keyword-vocabulary keywords used by most "
      "papers of the store (default 2048, at most 8000); a keyword of one reference is paired "
      "with each keyword of every other reference (a keyword with itself included, as a venue "
      "is). Skipped, besides pairs whose sd is 0: references with no keyword in that "
      "vocabulary, keywords beyond the first --keywords-per-reference of a reference, and pairs "
      "of two keywords of the same reference (not a combination the citing paper made). Why "
      "bounded: at 1M papers with 22 references and 8 keywords each, every keyword pair of "
      "every reference pair would be ~15 billion pair occurrences per network; one keyword per "
      "reference keeps the cost of venue novelty. novelty_keywords_pairs counts the pairs "
      "used.\n\n"
      "--build computes every paper's metrics in one batch (--threads workers over the "
      "citation lists read into memory) and commits them as a new generation of the store's "
      "derived file DIR/metrics.<N>/ (doc/store-format.md). litgraph-ingest rebuilds it with "
      "the same options after it changes the graph (unless --no-metrics); a file older than "
      "the store's citations (after ingest --no-metrics) is stale and ignored (a note says so, "
      "as does litgraph-status) until --build or --refresh runs. --refresh rebuilds them with "
      "the options recorded in the file, only when they predate the graph: the cron line after "
      "litgraph-extract-keywords --missing when keyword novelty is kept (ingest does not "
      "change keywords). Queries for papers read the file when it "
      "exists and has the asked window; otherwise the CD index is computed for the given "
      "papers from the graph files (reading their citing papers and their references' citing "
      "papers), and pagerank and citation_percentile, which need the whole graph, are null "
      "unless the file has them. --all prints every paper, from the file or computed in "
      "memory. metrics_source says whether the CD values were read (file) or computed.";
  man.input =
      "Without arguments or --all, papers one per line on standard input: an id, DOI, OpenAlex "
      "URL or title, or a JSON record with an \"id\" field (other fields are ignored).";
  man.output =
      "One metric_entry record per paper: the paper fields of litgraph-json(7) with cd_window "
      "(years, null: unbounded), n_i, n_j, n_k, cd, cd_undefined, cd_no_nk, "
      "cd_no_nk_undefined, cited_by_in_store, pagerank, citation_percentile, novelty, "
      "conventionality, novelty_pairs, novelty_keywords, conventionality_keywords, "
      "novelty_keywords_pairs and metrics_source (file or computed). --build prints a "
      "summary on stderr, and with --stats a metrics_summary record on stdout.";
  man.exit_status =
      "Exit 1 when a paper is not in the store (the others are printed). Exit 4 when the store "
      "has no graph.";
  man.examples = {
      {"litgraph-metrics --db lib.db --build",
       "Computes every paper's metrics (CD_5, PageRank, "
       "percentiles) and keeps them in the store."},
      {"litgraph-metrics --db lib.db W2250539671", "One paper's metrics."},
      {"litgraph-metrics --db lib.db --window unbounded W2250539671",
       "Its CD index over all later papers."},
      {"litgraph-find-paper --db lib.db word embeddings | litgraph-metrics --db lib.db --sort cd",
       "The hits of a search, most disruptive first."},
      {"litgraph-metrics --db lib.db --build --novelty --k 10 --seed 1",
       "The same with novelty and conventionality against ten randomized networks."},
      {"litgraph-extract-keywords --db lib.db --missing && litgraph-metrics --db lib.db --refresh",
       "In a cron job: keyword novelty reads the keywords, which ingest does not change."},
      {"litgraph-metrics --db lib.db --build --keyword-novelty",
       "Novelty over venue pairs and over keyword pairs of the cited papers."}};
  return man;
}

struct Options {
  std::vector<std::string> papers, ids;
  std::string window = std::to_string(kDefaultCdWindow);
  bool all = false, build = false, refresh = false;
  MetricsBuildOptions metrics;
};

// --window: a number of years or "unbounded" (0).
CLI::Validator WindowValidator() {
  CLI::Validator years = NumberIn<int>(0, 1000);
  return CLI::Validator(
      [years](std::string& s) mutable -> std::string {
        if (s == "unbounded") return "";
        return years(s).empty() ? "" : s + " is not a number of years from 0 to 1000 or unbounded";
      },
      "YEARS|unbounded", "WINDOW");
}

void AddOptions(CLI::App& app, Options* o) {
  app.add_option("papers", o->papers, "Paper ids, DOIs or titles (none: from stdin)")
      ->type_name("PAPER");
  app.add_option("--id", o->ids, "A paper (repeatable; same as a PAPER argument)")->type_name("ID");
  app.add_flag("--all", o->all, "Every paper of the store");
  app.add_flag("--build", o->build,
               "Compute every paper's metrics and keep them in the store (DIR/metrics.<N>/)");
  app.add_flag("--refresh", o->refresh,
               "Rebuild the store's metrics with the options they were built with, if they "
               "predate the graph (else nothing)");
  const std::string group = "Metrics";
  app.add_option("--window", o->window,
                 fmt::format("CD citation window in years; 0 or unbounded: none (default {})",
                             kDefaultCdWindow))
      ->check(WindowValidator())
      ->group(group);
  app.add_option("--damping", o->metrics.pagerank.damping,
                 fmt::format("PageRank damping (default {})", o->metrics.pagerank.damping))
      ->type_name("D")
      ->check(NumberIn(0.0, 0.99))
      ->group(group);
  app.add_option(
         "--tolerance", o->metrics.pagerank.tolerance,
         fmt::format("PageRank's L1 change to stop at (default {})", o->metrics.pagerank.tolerance))
      ->type_name("X")
      ->check(NumberIn(1e-15, 1.0))
      ->group(group);
  app.add_flag("--novelty", o->metrics.novelty,
               "With --build or --all: novelty and conventionality too")
      ->group(group);
  app.add_flag("--keyword-novelty", o->metrics.keyword_novelty,
               "With --build or --all: novelty over keyword pairs too (implies --novelty)")
      ->group(group);
  app.add_option("--keyword-vocabulary", o->metrics.keyword_options.vocabulary,
                 fmt::format("Keyword novelty: keywords of most papers used as labels (default {})",
                             o->metrics.keyword_options.vocabulary))
      ->type_name("N")
      ->check(NumberIn(1, kMaxKeywordVocabulary))
      ->group(group);
  app.add_option("--keywords-per-reference", o->metrics.keyword_options.per_reference,
                 fmt::format("Keyword novelty: keywords each cited paper contributes (default {})",
                             o->metrics.keyword_options.per_reference))
      ->type_name("N")
      ->check(NumberIn(1, 8))
      ->group(group);
  app.add_option(
         "--k", o->metrics.novelty_options.k,
         fmt::format("Randomized networks for novelty (default {})", o->metrics.novelty_options.k))
      ->type_name("K")
      ->check(NumberIn(2, 1000))
      ->group(group);
  app.add_option("--seed", o->metrics.novelty_options.seed,
                 fmt::format("Seed of the randomized networks (default {})",
                             o->metrics.novelty_options.seed))
      ->type_name("N")
      ->check(NumberIn<uint64_t>(0, 999999999999))
      ->group(group);
}

Status Build(Tool& tool, Options& o) {
  auto store = Store::Open(tool.common().db, Store::Mode::kWrite, false, tool.reporter());
  if (!store.ok()) return store.status();
  MetricsBuildStats s;
  Status st = BuildMetrics(store->get(), o.metrics, &s, tool.reporter());
  if (st.code() == Code::kNotFound) return Status::IoError(st.message());
  LITGRAPH_RETURN_IF_ERROR(st);
  tool.Summary(
      fmt::format("metrics generation {} of {} papers, {} citations: read {:.1f} s, CD {:.1f} s, "
                  "PageRank {:.1f} s ({} iterations){}, written {:.1f} s, total {:.1f} s",
                  s.generation, s.papers, s.edges, s.load_seconds, s.cd_seconds, s.pagerank_seconds,
                  s.pagerank_iterations,
                  o.metrics.novelty ? fmt::format(", novelty {:.1f} s", s.novelty_seconds) : "",
                  s.write_seconds, s.seconds),
      {{"id", tool.common().db},
       {"type", "metrics_summary"},
       {"generation", s.generation},
       {"graph_generation", s.graph_generation},
       {"papers", s.papers},
       {"cites_edges", s.edges},
       {"cd_window", o.metrics.window > 0 ? Json(o.metrics.window) : Json(nullptr)},
       {"novelty", o.metrics.novelty},
       {"keyword_novelty", o.metrics.keyword_novelty},
       {"pagerank_iterations", s.pagerank_iterations},
       {"load_seconds", s.load_seconds},
       {"cd_seconds", s.cd_seconds},
       {"pagerank_seconds", s.pagerank_seconds},
       {"novelty_seconds", s.novelty_seconds},
       {"write_seconds", s.write_seconds},
       {"seconds", s.seconds}});
  return Status::Ok();
}

Status Run(Tool& tool, Options& o) {
  o.metrics.window = o.window == "unbounded" ? 0 : std::stoi(o.window);
  o.metrics.threads = tool.common().threads;
  o.metrics.novelty |= o.metrics.keyword_novelty;
  o.papers.insert(o.papers.end(), o.ids.begin(), o.ids.end());
  if (o.build || o.refresh) {
    if (o.all || !o.papers.empty() || (o.build && o.refresh))
      return Status::InvalidArgument("--build and --refresh take no papers and no --all");
    if (o.build) return Build(tool, o);
    auto store = Store::Open(tool.common().db, Store::Mode::kWrite, false, tool.reporter());
    if (!store.ok()) return store.status();
    bool rebuilt = false;
    MetricsBuildStats s;
    LITGRAPH_RETURN_IF_ERROR(
        RefreshMetrics(store->get(), tool.common().threads, &rebuilt, &s, tool.reporter()));
    tool.Note(
        rebuilt ? fmt::format("metrics generation {} rebuilt in {:.1f} s", s.generation, s.seconds)
                : "the store's metrics are current (or it has none): nothing to do");
    return Status::Ok();
  }
  if (o.all && !o.papers.empty()) return Status::InvalidArgument("--all takes no papers");
  auto store = Store::Open(tool.common().db, Store::Mode::kRead);
  if (!store.ok()) return store.status();
  PaperFinder finder(store->get());
  Graph* graph = finder.graph();
  if (!graph) {
    LITGRAPH_RETURN_IF_ERROR(finder.status());
    return Status::IoError((*store)->dir() + ": the store has no graph yet (run litgraph-ingest)");
  }
  bool stale = false;
  auto file = MetricsFile::Open(store->get(), *graph, &stale);
  if (!file.ok()) return file.status();
  if (stale)
    tool.Note(
        "the store's metrics file predates its citations (run litgraph-metrics --build); "
        "computing instead");
  const MetricsFile* mf = file->get();
  const bool cd_from_file = mf && mf->window() == o.metrics.window;
  Output out(tool.common().format);
  tool.Shape(&out, store->get());
  out.SetColumns(MetricColumns());
  auto write = [&](const MetricRecord& r) {
    Json j = MetricJson(store->get(), graph, r);
    if (!j.is_null()) out.Write(j);
  };
  Status result;
  if (o.all) {
    if (cd_from_file && (!o.metrics.novelty || mf->has_novelty()) &&
        (!o.metrics.keyword_novelty || mf->has_keyword_novelty())) {
      PaperMetrics m;
      for (uint32_t p = 0; p < mf->num_papers(); ++p)
        if (mf->Get(p, &m)) write(ToRecord(p, m));
      LITGRAPH_RETURN_IF_ERROR(mf->status());
    } else {
      auto all = ComputeAllMetrics(*graph, o.metrics, tool.reporter());
      if (!all.ok()) return all.status();
      for (uint32_t p = 0; p < all->cd.size(); ++p) write(ToRecord(p, *all));
    }
  } else {
    size_t missing = 0;
    auto resolved =
        ResolvePapers(tool, finder, &o.papers,
                      "no paper given (arguments, --id, ids on stdin or --all)", &missing);
    if (!resolved.ok()) return resolved.status();
    if (missing) result = Status::NotFound("");
    const std::vector<uint32_t>& ids = *resolved;
    // From the file where it has the paper; the CD index of this window
    // computed for the others (PageRank and percentiles still from the file).
    std::vector<PaperMetrics> stored(ids.size());
    std::vector<char> in_file(ids.size(), 0);
    std::vector<uint32_t> need;
    for (size_t i = 0; i < ids.size(); ++i) {
      in_file[i] = mf && mf->Get(ids[i], &stored[i]);
      if (!(cd_from_file && in_file[i])) need.push_back(ids[i]);
    }
    auto computed = ComputeDisruptionOf(*graph, need, o.metrics.window);
    if (!computed.ok()) return computed.status();
    size_t next = 0;
    for (size_t i = 0; i < ids.size(); ++i) {
      MetricRecord r;
      if (in_file[i]) r = ToRecord(ids[i], stored[i]);
      if (!(cd_from_file && in_file[i])) {
        r.paper = ids[i];
        r.disruption = (*computed)[next++];
        r.window = o.metrics.window;
        r.in_store_citations = graph->InStoreCitations(ids[i]);
        r.from_file = false;
      }
      write(r);
    }
    if (mf) LITGRAPH_RETURN_IF_ERROR(mf->status());
  }
  out.Finish();  // here, not in the destructor, so that a closed pipe ends the run quietly
  LITGRAPH_RETURN_IF_ERROR(finder.status());
  LITGRAPH_RETURN_IF_ERROR(graph->status());
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  Tool tool("metrics", ToolManual(), PaperFormats());
  tool.AddShapingOptions();
  tool.AddStatsFlag();
  Options o;
  AddOptions(tool.app(), &o);
  return tool.Run(argc, argv, [&] { return Run(tool, o); });
}
