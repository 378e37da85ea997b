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

#include <iostream>

#include "litgraph/cli.h"
#include "litgraph/find.h"
#include "litgraph/keyword_store.h"
#include "litgraph/llm.h"
#include "litgraph/store.h"

int main(int argc, char** argv) {
  using namespace litgraph;
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
      "fitted on Inspec (doc/keywords.md). A full run recounts those statistics; --missing "
      "(what a cron job runs after ingest) reuses them and says when a full run is due.\n\n"
      "--backend llm asks an OpenAI-compatible chat-completions endpoint (llama.cpp server, "
      "Ollama, vLLM, OpenAI) for the same contract as strict JSON, validates and retries "
      "malformed answers, runs --llm-concurrency requests at a time, and caches answers in the "
      "store by content hash, committing every --batch papers so an interrupted run resumes "
      "with --missing. The key is read from LITGRAPH_LLM_API_KEY or OPENAI_API_KEY.\n\n"
      "--filter reads records from standard input and writes each back with a \"keywords\" "
      "array; with a store it uses the store's statistics and favours phrases that are "
      "already Keyword nodes.";
  man.input = "Filter mode: JSON lines with \"title\" and/or \"abstract\", or \"text\"; other "
              "fields pass through unchanged.";
  man.output =
      "Filter mode: each input record plus keywords [{text, score}]. Store mode: a summary on "
      "standard error; with --stats also as JSON on standard output.";
  man.exit_status = "Exit 4 when the LLM backend cannot be reached or the store fails.";
  man.examples = {
      {"litgraph-extract-keywords --db lib.db", "Keywords for every paper."},
      {"litgraph-extract-keywords --db lib.db --missing", "Only papers that have none yet."},
      {"echo '{\"text\": \"graph neural networks for molecule property prediction\"}' | "
       "litgraph-extract-keywords --db lib.db --filter",
       "Keywords of a query."},
      {"litgraph-extract-keywords --db lib.db --backend llm --llm-url http://localhost:8080/v1 "
       "--llm-model qwen3",
       "Use a local llama.cpp server."}};
  Tool tool("extract-keywords", "extract canonical keyphrases into the keyword layer", man,
            {"jsonl"});
  bool missing = false, filter = false, json_stats = false, recount = false;
  std::vector<std::string> ids;
  std::string backend = "builtin";
  LlmOptions llm;
  size_t batch = 0;
  ExtractOptions extract;
  auto& app = tool.app();
  app.add_flag("--missing", missing, "Only papers without keywords (after an ingest)");
  app.add_option("--id", ids, "Only these papers (ids, DOIs or titles; repeat the option)")
      ->type_name("PAPER")
      ->allow_extra_args(false);
  app.add_flag("--filter", filter, "Filter mode: records on stdin, records with keywords out");
  app.add_flag("--recount", recount, "Recount the corpus phrase statistics on a partial run");
  app.add_option("--max-keywords", extract.max_keywords, "At most N keywords per paper (default 8)")
      ->type_name("N")
      ->check(CLI::Range(1, 20));
  app.add_option("--backend", backend, "Extractor: builtin (default) or llm")
      ->check(CLI::IsMember({"builtin", "llm"}));
  app.add_option("--llm-url", llm.url, "Chat-completions base URL (e.g. http://localhost:8080/v1)")
      ->type_name("URL");
  app.add_option("--llm-model", llm.model, "Model name sent to the endpoint")->type_name("NAME");
  app.add_option("--llm-concurrency", llm.http.concurrency, "Requests in flight (default 4)")
      ->type_name("N")
      ->check(CLI::Range(1, 64));
  app.add_option("--llm-timeout", llm.http.timeout_ms, "Per-request timeout in ms (default 60000)")
      ->type_name("MS")
      ->check(CLI::PositiveNumber);
  app.add_option("--llm-retries", llm.http.retries, "Retries of a failed or malformed answer (default 2)")
      ->type_name("N")
      ->check(CLI::Range(0, 10));
  app.add_option("--batch", batch, "Papers per backend call and commit (default 2000; llm 64)")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  app.add_flag("--stats", json_stats, "Print the store-mode summary as JSON on standard output");
  return tool.Run(argc, argv, [&]() -> Status {
    if (backend == "llm" && (llm.url.empty() || llm.model.empty()))
      return Status::Usage("--backend llm needs --llm-url and --llm-model");
    llm.http.api_key = ApiKeyFromEnv({"LITGRAPH_LLM_API_KEY", "OPENAI_API_KEY"});
    if (filter) {
      if (missing || !ids.empty()) return Status::Usage("--filter takes records on stdin, not --missing/--id");
      std::unique_ptr<Store> store;
      PhraseStats stats;
      bool have_stats = false;
      if (auto s = Store::Open(tool.common().db, Store::Mode::kRead); s.ok()) {
        store = std::move(s.value());
        have_stats = OpenPhraseStats(store.get(), &stats).ok();
      }
      std::unique_ptr<KeywordBackend> llm_backend;
      if (backend == "llm") llm_backend = MakeLlmKeywordBackend(llm, nullptr);
      Stmt known;
      if (store) known = store->db().Prepare("SELECT 1 FROM keyword WHERE ext_id = ?");
      KeywordExtractor extractor(have_stats ? &stats : nullptr,
                                 [&](const std::string& phrase) {
                                   if (!store) return false;
                                   known.Bind(1, KeywordExtId(phrase));
                                   bool hit = known.Step();
                                   known.Reset();
                                   return hit;
                                 });
      Output out(Format::kJsonl);
      std::string line;
      int64_t n = 0;
      while (std::getline(std::cin, line)) {
        ++n;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        Json rec = Json::parse(line, nullptr, false);
        if (rec.is_discarded() || !rec.is_object())
          return Status::BadInput(fmt::format("<stdin>:{}: expected a JSON object", n));
        auto str = [&](const char* k) -> Result<std::string> {
          if (!rec.contains(k) || rec[k].is_null()) return std::string();
          if (!rec[k].is_string())
            return Status::BadInput(fmt::format("<stdin>:{}: field \"{}\" must be a string", n, k));
          return rec[k].get<std::string>();
        };
        auto title = str("title"), abstract = str("abstract"), text = str("text");
        for (auto* r : {&title, &abstract, &text})
          if (!r->ok()) return r->status();
        std::string t = *title, a = abstract->empty() ? *text : *abstract;
        std::vector<Keyword> kws;
        if (llm_backend) {
          std::vector<std::vector<Keyword>> res;
          std::vector<std::string> failures;
          Status st = llm_backend->Extract({{0, t, a, fmt::format("<stdin>:{}", n)}}, &res, &failures);
          if (!st.ok()) return st;
          for (const auto& f : failures) tool.Warn(f);
          kws = res[0];
        } else {
          kws = extractor.Extract(t, a, extract);
        }
        Json arr = Json::array();
        for (const auto& k : kws) arr.push_back({{"text", k.text}, {"score", k.score}});
        rec["keywords"] = arr;
        out.Write(rec);
      }
      return Status::Ok();
    }
    if (missing && !ids.empty()) return Status::Usage("give --missing or --id, not both");
    auto store = Store::Open(tool.common().db, Store::Mode::kWrite);
    if (!store.ok()) return store.status();
    KeywordRunOptions opt;
    opt.progress = tool.ShowProgress();
    opt.recount = recount;
    if (missing) opt.select = KeywordRunOptions::Select::kMissing;
    if (!ids.empty()) {
      opt.select = KeywordRunOptions::Select::kIds;
      PaperFinder finder(store->get());
      for (const auto& id : ids) {
        auto r = finder.Resolve(id);
        if (!r.ok()) return r.status();
        opt.ids.push_back(*r);
      }
    }
    opt.batch = batch ? batch : (backend == "llm" ? 64 : 2000);
    opt.commit_batches = backend == "llm";
    Db* db = &(*store)->db();
    KeywordRunStats s;
    Status st = RunKeywordExtraction(
        store->get(), opt,
        [&](const PhraseStats* stats) {
          return backend == "llm" ? MakeLlmKeywordBackend(llm, db)
                                  : MakeBuiltinKeywordBackend(stats, extract);
        },
        &s, [&](const std::string& m) { tool.Warn(m); });
    if (!st.ok()) return st;
    tool.Note(fmt::format("{} papers, {} keyword links, {} keywords in the store, {} failures; "
                          "corpus statistics over {} papers; {:.1f} s ({:.0f} papers/s)",
                          s.papers, s.paper_keywords, s.keywords_total, s.failures, s.corpus_docs,
                          s.seconds, s.extract_seconds > 0 ? s.papers / s.extract_seconds : 0));
    if (s.recount_due)
      tool.Note("the store grew by more than 20% since the phrase statistics were counted: run "
                "without --missing (or with --recount) to refresh them");
    if (json_stats) {
      Output out(Format::kJsonl);
      out.Write({{"id", tool.common().db},
                 {"type", "keyword_summary"},
                 {"papers", s.papers},
                 {"paper_keywords", s.paper_keywords},
                 {"keywords", s.keywords_total},
                 {"failures", s.failures},
                 {"corpus_docs", s.corpus_docs},
                 {"recount_due", s.recount_due},
                 {"extract_seconds", s.extract_seconds},
                 {"seconds", s.seconds}});
    }
    return Status::Ok();
  });
}
