// litgraph-extract-keywords: the keyword layer of the graph.
//
// Store mode (default): extracts 3-8 canonical keywords with importance 1-10
// for all papers (or --missing, or --id ...), writes Keyword nodes,
// HAS_KEYWORD, COOCCUR and the keyword FTS index into the store, atomically.
// Filter mode (--filter): paper or query records on stdin ({"id","title",
// "abstract"} or {"text"}), the same records with "keywords" on stdout.
// Exit codes: 0 ok, 2 usage, 3 malformed stdin record, 4 store or backend
// error, 5 internal.
#include <fmt/format.h>

#include "litgraph/find.h"
#include "litgraph/jsonl.h"
#include "litgraph/keyword_store.h"
#include "litgraph/llm.h"
#include "litgraph/store.h"
#include "tool.h"

namespace {

using namespace litgraph;

Manual ToolManual() {
  Manual man;
  man.synopsis = "[OPTIONS] [--missing | --id PAPER...]\n.br\n[OPTIONS] --filter < records.jsonl";
  man.description =
      "Gives every paper 3 to 8 keywords: canonical, reusable noun phrases of 1 to 4 words "
      "(research areas, problem types, method families, evaluation paradigms) with an "
      "importance from 1 to 10. Keywords become Keyword nodes (id kw:<text>) linked to papers "
      "by HAS_KEYWORD (relevance = importance / 10) and to each other by COOCCUR (the number "
      "of papers using both); a new graph generation carries them.\n\n"
      "The built-in extractor (default) is offline and deterministic: noun-phrase chunks "
      "found by a lexicon-and-suffix tagger and their sub-phrases ending in a noun, normalized "
      "(lowercase, hyphenated words kept whole, singular head), scored by a logistic model "
      "over features of the phrase in the paper (title, position, occurrences whole or inside "
      "longer phrases) and smoothed corpus statistics of the store (specificity; phrases other "
      "papers share are preferred, phrases of one paper are not dropped); the weights are "
      "fitted on Inspec (doc/keywords.md). It extracts on --threads threads (all cores by "
      "default), with the same keywords whatever their number. A full run recounts those "
      "statistics, within --memory-budget whatever the corpus (sorted runs of phrase counts "
      "spill to DIR/keywords.tmp, removed afterwards); --missing (what a cron job runs after "
      "ingest) "
      "reuses them and says when a full run is due. --stats-from DIR copies the statistics of "
      "another store instead (the shards of a sharded build, litgraph-merge(1), extracting "
      "with the statistics of one sample).\n\n"
      "--backend llm asks an OpenAI-compatible chat-completions endpoint (llama.cpp server, "
      "Ollama, vLLM, OpenAI) for the same contract as strict JSON, validates and retries "
      "malformed answers, runs --llm-concurrency requests at a time, and caches answers in the "
      "store by content hash, committing every --batch papers so an interrupted run resumes "
      "with --missing. The key is read from LITGRAPH_LLM_API_KEY or OPENAI_API_KEY.\n\n"
      "--filter reads records from standard input and writes each back with a \"keywords\" "
      "array; with a store it uses the store's statistics and favours phrases that are "
      "already Keyword nodes.";
  man.input =
      "Filter mode: JSON lines with \"title\" and/or \"abstract\", or \"text\"; other "
      "fields pass through unchanged.";
  man.output =
      "Filter mode: each input record plus keywords [{text, label, score}]. Store mode: a summary "
      "on "
      "standard error; with --stats also as JSON on standard output.";
  man.exit_status = "Exit 4 when the LLM backend cannot be reached or the store fails.";
  man.examples = {
      {"litgraph-extract-keywords --db lib.db", "Keywords for every paper."},
      {"litgraph-extract-keywords --db lib.db --missing",
       "Only new papers and papers whose text changed."},
      {"echo '{\"text\": \"graph neural networks for molecule property prediction\"}' | "
       "litgraph-extract-keywords --db lib.db --filter",
       "Keywords of a query."},
      {"litgraph-extract-keywords --db lib.db --backend llm --llm-url http://localhost:8080/v1 "
       "--llm-model qwen3",
       "Use a local llama.cpp server."}};
  return man;
}

}  // namespace

namespace {

struct Options {
  bool missing = false, filter = false, recount = false;
  std::string stats_from;
  std::vector<std::string> ids;
  std::string backend = "builtin";
  LlmOptions llm;
  size_t batch = 0;
  size_t memory_budget = size_t{1} << 30;
  ExtractOptions extract;
};

void AddOptions(Tool& tool, Options* o) {
  CLI::App& app = tool.app();
  app.add_flag("--missing", o->missing,
               "Only papers without keywords of their current text (after an ingest: new "
               "papers, and changed ones, whose old keywords stay until then)");
  app.add_option("--id", o->ids, "Only these papers (ids, DOIs or titles; repeat the option)")
      ->type_name("PAPER")
      ->allow_extra_args(false);
  app.add_flag("--filter", o->filter, "Filter mode: records on stdin, records with keywords out");
  CLI::Option* recount = app.add_flag("--recount", o->recount,
                                      "Recount the corpus phrase statistics on a partial run");
  app.add_option("--stats-from", o->stats_from,
                 "Copy the phrase statistics of the store at DIR instead of counting them (every "
                 "shard of a corpus extracting with one set; see litgraph-merge); the store's "
                 "own phrases are counted too and kept, for litgraph-merge to add up")
      ->type_name("DIR")
      ->excludes(recount);
  app.add_option("--max-keywords", o->extract.max_keywords,
                 "At most N keywords per paper (default 8)")
      ->type_name("N")
      ->check(NumberIn<size_t>(1, 20));
  app.add_option("--backend", o->backend, "Extractor: builtin (default) or llm")
      ->check(CLI::IsMember({"builtin", "llm"}));
  AddBackendOptions(&app, "llm", "Chat-completions", &o->llm.url, &o->llm.model, &o->llm.http);
  app.add_option("--batch", o->batch, "Papers per backend call and commit (default 2000; llm 64)")
      ->type_name("N")
      ->check(NumberIn<size_t>(1, 10000000));
  AddMemoryBudgetOption(&app,
                        "SQLite's cache, the phrase counts, the keyword id cache and the "
                        "keyword layer's sorts",
                        &o->memory_budget);
  tool.AddStatsFlag();
}

// --filter: records on standard input come back with "keywords". The store,
// when there is one, gives corpus statistics and the keywords that exist.
Status Filter(Tool& tool, const Options& o) {
  if (o.missing || !o.ids.empty())
    return Status::InvalidArgument("--filter takes records on stdin, not --missing/--id");
  std::unique_ptr<Store> store;
  if (auto s = Store::Open(tool.common().db, Store::Mode::kRead); s.ok())
    store = std::move(s.value());
  PhraseStats stats;
  Status opened = store ? OpenPhraseStats(store.get(), &stats) : Status::NotFound("");
  if (!opened.ok() && opened.code() != Code::kNotFound) return opened;  // damaged, not absent
  const bool have_stats = opened.ok();
  std::unique_ptr<KeywordBackend> extractor =
      o.backend == "llm"
          ? MakeLlmKeywordBackend(o.llm, nullptr)
          : MakeBuiltinKeywordBackend(have_stats ? &stats : nullptr, o.extract, store.get());
  Output out(Format::kJsonl);
  return ForEachJsonLineIn("-", [&](Json& rec, const std::string& where) -> Status {
    auto text = PaperTextOf(rec, where);
    if (!text.ok()) return text.status();
    std::vector<std::vector<Keyword>> res;
    std::vector<std::string> failures;
    LITGRAPH_RETURN_IF_ERROR(extractor->Extract({*text}, &res, &failures));
    for (const auto& f : failures) tool.Warn(f);
    Json arr = Json::array();
    for (const auto& k : res[0])
      arr.push_back({{"text", k.text},
                     {"label", k.surface.empty() ? k.text : k.surface},
                     {"score", k.score}});
    rec["keywords"] = arr;
    out.Write(rec);
    return Status::Ok();
  });
}

void Summarize(Tool& tool, const KeywordRunStats& st) {
  tool.Summary(
      fmt::format("{} papers, {} keyword links, {} keywords in the store, {} failures; corpus "
                  "statistics over {} papers; {:.1f} s ({:.0f} papers/s)",
                  st.papers, st.paper_keywords, st.keywords_total, st.failures, st.corpus_docs,
                  st.seconds, st.extract_seconds > 0 ? st.papers / st.extract_seconds : 0),
      {{"id", tool.common().db},
       {"type", "keyword_summary"},
       {"papers", st.papers},
       {"paper_keywords", st.paper_keywords},
       {"keywords", st.keywords_total},
       {"failures", st.failures},
       {"corpus_docs", st.corpus_docs},
       {"recount_due", st.recount_due},
       {"extract_seconds", st.extract_seconds},
       {"seconds", st.seconds}});
  if (st.recount_due)
    tool.Note(
        "the store grew by more than 20% since the phrase statistics were counted: run "
        "without --missing (or with --recount) to refresh them");
}

// Store mode: every paper, --missing or --id.
Status Run(Tool& tool, Options& o) {
  if (o.backend == "llm" && (o.llm.url.empty() || o.llm.model.empty()))
    return Status::InvalidArgument("--backend llm needs --llm-url and --llm-model");
  o.llm.http.api_key = ApiKeyFromEnv({"LITGRAPH_LLM_API_KEY", "OPENAI_API_KEY"});
  if (o.filter) return Filter(tool, o);
  if (o.missing && !o.ids.empty())
    return Status::InvalidArgument("give --missing or --id, not both");
  auto store = Store::Open(tool.common().db, Store::Mode::kWrite, false, tool.reporter());
  if (!store.ok()) return store.status();
  Store* s = store->get();
  KeywordRunOptions opt;
  opt.memory_budget = o.memory_budget;
  opt.reporter = tool.reporter();
  opt.recount = o.recount;
  opt.stats_from = o.stats_from;
  if (o.missing) opt.select = KeywordRunOptions::Select::kMissing;
  if (!o.ids.empty()) {
    opt.select = KeywordRunOptions::Select::kIds;
    PaperFinder finder(s);
    for (const auto& id : o.ids) {
      auto r = finder.Resolve(id);
      if (!r.ok()) return r.status();
      opt.ids.push_back(*r);
    }
  }
  opt.batch = o.batch ? o.batch : (o.backend == "llm" ? 64 : 2000);
  opt.threads = ResolveThreads(tool.common().threads);
  opt.commit_batches = o.backend == "llm";
  KeywordRunStats st;
  LITGRAPH_RETURN_IF_ERROR(RunKeywordExtraction(
      s, opt,
      [&](const PhraseStats* stats) {
        return o.backend == "llm"
                   ? MakeLlmKeywordBackend(o.llm, s)
                   : MakeBuiltinKeywordBackend(stats, o.extract, nullptr, opt.threads);
      },
      &st));
  Summarize(tool, st);
  return Status::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  Tool tool("extract-keywords", ToolManual(), {"jsonl"});
  Options o;
  AddOptions(tool, &o);
  return tool.Run(argc, argv, [&] { return Run(tool, o); });
}
