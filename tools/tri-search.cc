// litgraph-tri-search: SciAtlas' tri-path recall + graph rerank search.
//
// Reads a query from its arguments (any text) or --file (a whole paper or
// idea), or --like example papers (ids; - = stdin), with optional
// structured parts (--keyword, --title, filters).
// Writes the top papers (or authors) as JSON lines with a score breakdown
// and explanation paths, or with --explain a readable account.
// Exit codes: 0 found, 1 nothing found or a --like paper not in the store,
// 2 usage, 3 malformed --candidates file or ids on stdin, 4 store or backend
// error, 5 internal.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "litgraph/jsonl.h"
#include "litgraph/llm.h"
#include "litgraph/render.h"
#include "litgraph/search.h"
#include "litgraph/store.h"
#include "tool.h"

namespace {

using namespace litgraph;

// "high:graph neural network" -> ("graph neural network", 0.9).
std::pair<std::string, double> Leveled(const std::string& arg, bool title) {
  size_t colon = arg.find(':');
  if (colon != std::string::npos) {
    std::string level = arg.substr(0, colon);
    double v = title ? TitleLevel(level) : KeywordLevel(level);
    if (v >= 0) return std::make_pair(arg.substr(colon + 1), v);
  }
  return std::make_pair(arg, title ? TitleLevel("high") : KeywordLevel("high"));
}

}  // namespace

namespace {

using namespace litgraph;

Manual ToolManual() {
  Manual man;
  man.synopsis =
      "[OPTIONS] QUERY...\n.br\n[OPTIONS] --file PAPER.txt\n.br\n[OPTIONS] --like ID[,ID...]";
  man.description =
      "Finds the papers most relevant to any text (keywords, a question, an abstract, an idea, "
      "a whole paper) by SciAtlas' neuro-symbolic search (Qiao et al. 2025, section 3), with "
      "every formula of the paper:\n\n"
      "Keyword path: up to 8 keywords of the query (litgraph-extract-keywords' extractor, or an "
      "LLM) matched to Keyword nodes exactly and by vector (cosine >= 0.7, top 3). Semantic path: "
      "the query embedded with the store's model (only the abstract of a whole paper), the top "
      "60 papers by title and by abstract vectors, 15 of each kept. Title path: titles given "
      "with --title or quoted in the query, matched exactly or fuzzily (>= 0.88). Merge: "
      "s_pre = 0.3 x semantic + 0.8 x title + a title bonus (MinMax-normalized). Graph: a 2-hop "
      "subgraph of the seed papers and keywords, a random walk with restart over Table 2's "
      "weights. Final: 0.35 x pre + 0.45 x graph x gate + 0.20 x citation importance, gate = "
      "max(0.25, pre), near-duplicate titles removed, top 20.\n\n"
      "Those are the paper's weights (--ranking-profile balanced). By default (--ranking-profile "
      "adaptive) the final weights follow the query's length, chosen on development data "
      "(bench/results/2026-11-26-default): a query of at most 20 words (keywords, a title) is "
      "ranked by the graph: 0.10 x pre + 0.75 x graph + 0.15 x importance (95th-percentile "
      "scale), no gate, restart 0.05, CITES weight 1.5, BM25 in s_pre with weight 0.3; one of "
      "at least 60 words (an abstract, a paper, --like of papers with abstracts) by the direct "
      "matches: 0.80 x pre + 0.10 x graph x gate + 0.10 x importance, the paper's other values; "
      "in between, every real-valued parameter is blended linearly in the word count "
      "(--short-words, --long-words). A parameter given by flag or --config holds for every "
      "query.\n\n"
      "--retrieval-mode runs one path alone (ablations). --ranking-profile moves the defaults: "
      "adaptive (the default, above), precision (more weight on direct matches, more restart), "
      "balanced (the paper), discovery (relaxed gate, less restart: exploratory), impact "
      "(citations weigh more). --prf-docs N with --lambda-prf X adds pseudo-relevance feedback "
      "(the N best candidates as a second query; off by default). --bias "
      "relation=low|middle|high scales a relation (keyword, nonseed_keyword, citation, related, "
      "authorship, coauthorship, cooccurrence, exploration). Every parameter also has its own "
      "flag and a --config file (shared with litgraph-rwr-rank).\n\n"
      "--like ID (query by example: repeatable, ids, DOIs or exact titles separated by commas, "
      "- for ids on standard input) searches for papers like stored ones. Keyword path: the "
      "examples' stored keywords (importance / 10) and the keywords their stored keyword vectors "
      "match; extracted from their title and abstract only when they have none. Semantic path: "
      "their stored title and abstract vectors (blended 0.4 / 0.6, no model call). Title path: "
      "their titles, for other papers with (nearly) the same title. Graph: each example is a "
      "paper seed scored as an exact title hit (the strongest seed); the examples' literature "
      "map (litgraph-map's co-citation and coupling measures) gives --like-similar similar works "
      "(and --like-prior prior works) as candidates, their similarity divided by the best "
      "entering s_pre with weight --lambda-like (scores.like); --like-neighbours of the "
      "examples' references and as many of their citations (most cited first) join the "
      "candidates too (off by default). The walk starts from the examples and the other seeds. "
      "The examples are never returned: scores.like, their seeds and paths say why a paper was. "
      "--like is a query of its own: query text or "
      "--file with it is a usage error; --keyword, --title and filters add to it. A --like "
      "paper that is not in the store is an error naming it (exit 1).\n\n"
      "--target author ranks related authors by their walk score. --candidates ranks "
      "only the given papers (re-ranking someone else's list); --exclude drops papers.\n\n"
      "Citation metrics (litgraph-metrics): --where FIELD OP NUMBER keeps result papers whose "
      "metric satisfies the condition (repeatable, all must hold; the fields and operators of "
      "litgraph-find-paper's --where), applied with the other filters before the final "
      "ranking, so the importance term is scaled over the papers kept; a null metric never "
      "satisfies a condition. A metric named by --where, --fields or --sort is added to each "
      "paper record (--sort pagerank orders the results by PageRank). Values come from the "
      "store's metrics file when it is current, else are computed (a note says so).";
  man.input =
      "Nothing on standard input unless --file -, --like - or --candidates - is given (ids: "
      "one a line, or JSON lines with an \"id\" field).";
  man.output =
      "One JSON object per result: the paper fields of litgraph-json(7), rank, score (the final "
      "score), scores {emb, title, pre, graph, gate, importance, final}, is_seed, paths (up to 3 "
      "explanations {nodes, relations, strength, text}) and seeds (the seeds those paths start "
      "from). --explain prints a readable account instead; --timings adds the time of each "
      "stage as JSON on standard error.";
  man.exit_status = "Exit 1 when no paper is found.";
  man.examples = {
      {"litgraph-tri-search --db lib.db graph neural networks for drug discovery",
       "A topical search."},
      {"litgraph-tri-search --db lib.db --file idea.txt --ranking-profile discovery",
       "Ground an idea, exploring further."},
      {"litgraph-tri-search --db lib.db --keyword 'high:open access' --title 'The state of OA' "
       "--explain",
       "Structured query with a readable explanation."},
      {"litgraph-tri-search --db lib.db --target author protein structure prediction",
       "Related authors."},
      {"litgraph-tri-search --db lib.db --like W2741809807 --explain",
       "Papers like a stored one, with the seeds and paths that found them."}};
  return man;
}

}  // namespace

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  SearchParams params;
  ParamTable table;
  SearchQuery q;
  std::vector<std::string> words, keyword_args, title_args, bias, exclude, like;
  std::string file, profile = "adaptive", candidates, config, mode = "hybrid", target = "paper";
  std::string kw_backend = "builtin";
  LlmOptions llm;
  bool explain = false, timings = false;
  MetricSelection metrics;
};

void AddOptions(CLI::App& app, Options* o) {
  o->params.Register(&o->table);
  app.add_option("query", o->words, "The query text")->type_name("TEXT");
  app.add_option("--file", o->file,
                 "Read the query from a file (- = stdin); a paper's abstract is embedded")
      ->type_name("FILE");
  app.add_option("--like", o->like,
                 "Papers like these stored ones (ids, DOIs or titles; commas; - = stdin)")
      ->allow_extra_args(false)
      ->type_name("ID");
  app.add_option("--keyword", o->keyword_args,
                 "A keyword, optionally leveled: high:|middle:|low:TERM")
      ->allow_extra_args(false)
      ->type_name("TERM");
  app.add_option("--title", o->title_args,
                 "A title to match, optionally leveled: high:|middle:|low:TITLE")
      ->allow_extra_args(false)
      ->type_name("TITLE");
  app.add_option("--after", o->q.after, "Papers published in or after YEAR")
      ->type_name("YEAR")
      ->check(NumberIn(0, 9999));
  app.add_option("--before", o->q.before, "Papers published in or before YEAR")
      ->type_name("YEAR")
      ->check(NumberIn(0, 9999));
  app.add_option("--field", o->q.field, "Papers of an OpenAlex field (name or id)")
      ->type_name("FIELD");
  app.add_option("--retrieval-mode", o->mode,
                 "Paths used: keyword, semantic, title or hybrid (default)")
      ->check(CLI::IsMember({"keyword", "semantic", "title", "hybrid"}));
  app.add_option("--ranking-profile", o->profile,
                 "adaptive (default: by query length), precision, balanced (the paper), "
                 "discovery or impact")
      ->check(CLI::IsMember({"adaptive", "precision", "balanced", "discovery", "impact"}));
  app.add_option("--bias", o->bias, "Scale a relation: RELATION=low|middle|high")
      ->allow_extra_args(false)
      ->type_name("REL=LEVEL");
  app.add_option("--target", o->target, "Rank papers (default) or authors")
      ->check(CLI::IsMember({"paper", "author"}));
  app.add_option("--candidates", o->candidates, "Rank only these papers (file of ids; - = stdin)")
      ->type_name("FILE");
  app.add_option("--exclude", o->exclude, "Leave a paper out (id or DOI)")
      ->allow_extra_args(false)
      ->type_name("PAPER");
  app.add_option("-n,--limit", o->params.limit,
                 "Number of results (default 20; with --candidates, all of them)")
      ->type_name("N")
      ->check(NumberIn<size_t>(1, 1000000));
  app.add_flag("--explain", o->explain,
               "Print a readable account of the ranking instead of records");
  app.add_flag("--timings", o->timings, "Print stage timings as JSON on stderr");
  o->metrics.AddOptions(&app);
  app.add_option("--config", o->config, "Parameter file of name = value lines")->type_name("FILE");
  app.add_option("--keyword-backend", o->kw_backend, "Query keywords: builtin (default) or llm")
      ->check(CLI::IsMember({"builtin", "llm"}));
  AddBackendOptions(&app, "llm", "Chat-completions (--keyword-backend llm)", &o->llm.url,
                    &o->llm.model, &o->llm.http);
  AddParamFlags(&app, &o->table, "Search parameters");
}

// The query from the arguments, --file, --keyword and --title; the
// parameters with their precedence: profile < config file < flags < --bias.
Status Prepare(Options& o) {
  LITGRAPH_RETURN_IF_ERROR(o.params.ApplyProfile(o.profile));
  if (!o.config.empty()) LITGRAPH_RETURN_IF_ERROR(o.table.LoadConfig(o.config));
  LITGRAPH_RETURN_IF_ERROR(o.table.ApplyCommandLine());
  for (const auto& b : o.bias) LITGRAPH_RETURN_IF_ERROR(o.params.ApplyBias(b));
  if (o.params.short_query) {
    // The adaptive profile's short-query side takes the same file, flags and
    // biases: a parameter given is the same for every query.
    auto short_params = std::make_shared<SearchParams>(*o.params.short_query);
    ParamTable table;
    short_params->Register(&table);
    if (!o.config.empty()) LITGRAPH_RETURN_IF_ERROR(table.LoadConfig(o.config));
    LITGRAPH_RETURN_IF_ERROR(o.table.ApplyCommandLineTo(&table));
    for (const auto& b : o.bias) LITGRAPH_RETURN_IF_ERROR(short_params->ApplyBias(b));
    o.params.short_query = std::move(short_params);
  }
  SearchQuery& q = o.q;
  ParseRetrievalMode(o.mode, &q.mode);  // one of the choices CLI11 checked
  q.target = o.target == "author" ? SearchTarget::kAuthor : SearchTarget::kPaper;
  for (const auto& w : o.words) q.text += (q.text.empty() ? "" : " ") + w;
  if (!o.file.empty()) {
    auto text = ReadTextInput(o.file);
    if (!text.ok()) return text.status();
    const std::string& whole = *text;
    q.abstract = AbstractOf(whole);
    q.text += (q.text.empty() ? "" : "\n") + whole;
  }
  for (const auto& k : o.keyword_args) q.keywords.push_back(Leveled(k, false));
  for (const auto& t : o.title_args) q.titles.push_back(Leveled(t, true));
  if (!o.like.empty()) {
    if (!q.text.empty())
      return Status::InvalidArgument(
          "--like is a query of its own: give no query text or --file with it (--keyword and "
          "--title add to it)");
    if (o.candidates == "-" && std::find(o.like.begin(), o.like.end(), "-") != o.like.end())
      return Status::InvalidArgument("--like - and --candidates - both read standard input");
    return Status::Ok();
  }
  if (q.text.empty() && q.keywords.empty() && q.titles.empty())
    return Status::InvalidArgument(
        "nothing to search: give a query, --file, --keyword, --title or --like");
  if (q.text.empty()) {
    for (const auto& [k, v] : q.keywords) q.text += k + ". ";
    for (const auto& [t, v] : q.titles) q.text += t + ". ";
  }
  return Status::Ok();
}

// --candidates, --exclude and the keyword backend, against the store.
Result<std::unique_ptr<KeywordBackend>> Resolve(Tool& tool, Store* store, Options& o) {
  if (!o.like.empty()) {
    auto ids = ResolveExamples(store, o.like);
    if (!ids.ok()) return ids.status();
    o.q.like = std::move(ids.value());
  }
  if (!o.candidates.empty()) {
    std::vector<std::string> missing;
    auto ids = ReadPaperIdList(store, o.candidates, &missing);
    if (!ids.ok()) return ids.status();
    if (!missing.empty())
      tool.Warn(fmt::format("{} candidate ids are not in the store", missing.size()));
    if (ids->empty()) return Status::NotFound("no candidate is in the store");
    o.q.candidates = std::move(ids.value());
    // Without -n the whole pool is ranked (a re-ranking); -n cuts it.
    if (tool.app().get_option("--limit")->count() == 0) o.params.limit = o.q.candidates.size();
  }
  for (const auto& e : o.exclude)
    if (auto id = store->ResolvePaperId(e)) o.q.exclude.push_back(*id);
  if (o.kw_backend != "llm") return std::unique_ptr<KeywordBackend>();
  if (o.llm.url.empty() || o.llm.model.empty())
    return Status::InvalidArgument("--keyword-backend llm needs --llm-url and --llm-model");
  o.llm.http.api_key = ApiKeyFromEnv({"LITGRAPH_LLM_API_KEY", "OPENAI_API_KEY"});
  return MakeLlmKeywordBackend(o.llm, nullptr);
}

void PrintTimings(const SearchTrace& trace, Clock::time_point start, Clock::time_point parsed) {
  auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  fmt::print(stderr, "{}\n",
             Json({{"startup_ms", ms(start, parsed)},
                   {"keywords_ms", trace.t_keywords},
                   {"semantic_ms", trace.t_semantic},
                   {"title_ms", trace.t_title},
                   {"merge_ms", trace.t_merge},
                   {"subgraph_ms", trace.t_subgraph},
                   {"hop_ms", trace.t_hops},
                   {"edges_ms", trace.t_edges},
                   {"walk_ms", trace.t_walk},
                   {"rank_ms", trace.t_rank},
                   {"total_ms", ms(start, Clock::now())},
                   {"subgraph_nodes", trace.subgraph_nodes},
                   {"subgraph_edges", trace.subgraph_edges},
                   {"paper_seeds", trace.paper_seeds.size()},
                   {"keyword_seeds", trace.keyword_seeds.size()}})
                 .dump());
}

Status Run(Tool& tool, Options& o, Clock::time_point start) {
  auto parsed = Clock::now();
  LITGRAPH_RETURN_IF_ERROR(CheckYearRange(o.q.after, o.q.before));
  LITGRAPH_RETURN_IF_ERROR(Prepare(o));
  auto store = Store::Open(tool.common().db, Store::Mode::kRead);
  if (!store.ok()) return store.status();
  auto backend = Resolve(tool, store->get(), o);
  if (!backend.ok()) return backend.status();
  if (tool.common().threads > 0)
    o.params.rwr.threads = tool.common().threads;  // else RwrParams' default
  TriSearch search(store->get(), o.params, std::move(backend.value()));
  LITGRAPH_RETURN_IF_ERROR(o.metrics.Prepare(tool, store->get(), search.finder().graph()));
  if (o.metrics.active() && o.q.target == SearchTarget::kAuthor)
    return Status::InvalidArgument("--where and metric fields are for papers, not --target author");
  o.q.accept = o.metrics.Accept();
  SearchTrace trace;
  auto results = search.Run(o.q, &trace);
  if (!results.ok()) return results.status();
  if (results->empty()) return Status::NotFound("no paper found");
  std::vector<Json> records;
  int rank = 0;
  for (const SearchResult& r : *results) {
    records.push_back(
        SearchResultJson(store->get(), search.finder().graph(), search, trace, r, ++rank));
    if (r.type == NodeType::kPaper)
      o.metrics.AddFields(&records.back(), static_cast<uint32_t>(r.id));
  }
  Output out(o.explain ? Format::kJsonl : tool.common().format);
  if (o.explain) {
    out.Raw(SearchReport(search, trace, *results, records));
  } else {
    if (o.q.target == SearchTarget::kAuthor) {
      out.SetColumns(NodeColumns());
    } else {
      out.SetColumns({{"rank", "#", 0},
                      {"score", "score", 0},
                      {"year", "year", 0},
                      {"id", "id", 0},
                      {"title", "title", 70},
                      {"authors", "authors", 28},
                      {"cited_by_count", "cites", 0},
                      {"doi", "doi", 0, false}});
    }
    tool.Shape(&out, store->get());
    for (const Json& j : records) out.Write(j);
  }
  out.Finish();
  if (o.timings) PrintTimings(trace, start, parsed);
  return o.metrics.status();
}

}  // namespace

int main(int argc, char** argv) {
  auto start = Clock::now();
  Tool tool("tri-search", ToolManual(), PaperFormats());
  tool.AddShapingOptions();
  Options o;
  AddOptions(tool.app(), &o);
  return tool.Run(argc, argv, [&] { return Run(tool, o, start); });
}
