// litgraph-embed: the semantic layer (embedding model, vectors, HNSW).
//
// Store mode: trains the built-in model when asked (--train) or when there
// is none, computes title, abstract and keyword vectors (all, or --missing),
// and builds the HNSW indexes, as one atomic generation. Filter mode
// (--filter): {"text": ...} lines in, the same with "embedding" out.
// Exit codes: 0 ok, 2 usage (including mixing models), 3 malformed stdin
// line, 4 store or backend error, 5 internal.
#include <fmt/format.h>

#include "litgraph/jsonl.h"
#include "litgraph/semantic.h"
#include "litgraph/store.h"
#include "tool.h"

namespace {

using namespace litgraph;

Manual ToolManual() {
  Manual man;
  man.synopsis = "[OPTIONS] [--train | --missing]\n.br\n[OPTIONS] --filter < texts.jsonl";
  man.description =
      "Gives papers title and abstract vectors and keywords keyword vectors, and indexes them "
      "for nearest-neighbour search (HNSW, memory-mapped: opening costs the same at any size).\n\n"
      "The built-in model (default) is trained on the store's own titles and abstracts: "
      "latent semantic analysis, a truncated SVD of the TF-IDF matrix (sublinear tf, Snowball "
      "stems), plus a lexical part: two texts' similarity is (1 - w) x the cosine of their LSA "
      "vectors + w x the cosine of their TF-IDF vectors, so that rare words still count "
      "(--lexical-weight w, default 0.8). Dimension and weight were chosen by retrieval quality "
      "on the CSFCube development fold and an ACL Anthology development split. --train retrains it "
      "(and re-embeds everything); without a model the first run trains one. --missing embeds "
      "only papers and keywords without vectors (and papers whose text changed), with the "
      "existing model: what a cron job runs after ingest. Their vectors go into a delta beside "
      "the unchanged base files (a scan, or an HNSW index of its own from 20,000 rows), so the "
      "work is in proportion to what changed since the base; a run whose delta passes 20% of "
      "the base's rows (--compact-at), or --compact, folds it into new base files: a delta "
      "of 20,000 rows or more is indexed in a segment of its own beside the base index (up to "
      "8 graphs a field), a smaller one is inserted into the base index; --compact-at 100 leaves "
      "the fold to a scheduled "
      "--missing --compact run. A store "
      "litgraph-merge wrote may hold shards' HNSW indexes as segments beside the base index; "
      "compactions keep them (folding one once half its rows changed), and --missing "
      "--fold-segments inserts their vectors into one index per field (as slow as indexing "
      "them: at 1M works ~9 min), which makes semantic queries cheaper. The summary "
      "says when a retrain is due (the store has grown by half since training, or new text has "
      "many words "
      "the model does not know).\n\n"
      "--backend http uses an OpenAI-compatible /v1/embeddings endpoint (llama.cpp server, "
      "Ollama, vLLM, text-embeddings-inference, OpenAI; bge-class models), batched, with "
      "retries and timeouts; the key is read from LITGRAPH_EMBED_API_KEY or OPENAI_API_KEY. "
      "The store records which model made its vectors and refuses to mix models: switching "
      "needs --replace, which re-embeds everything.\n\n"
      "--model-from DIR copies the built-in model of another store instead of training one: "
      "the shards of a sharded build (litgraph-merge(1)) are embedded by one model, trained "
      "once on a sample or a first shard. --no-index writes the vectors without HNSW indexes "
      "(semantic queries then scan every row, exact and slower): litgraph-merge indexes the "
      "merged store, so a shard's own indexes would only cost build time.";
  man.input = "Filter mode: JSON lines with a \"text\" field; other fields pass through.";
  man.output =
      "Filter mode: each record plus \"embedding\" (unit-length floats) and \"model\". Store "
      "mode: a summary on standard error; with --stats also as JSON on standard output.";
  man.exit_status =
      "Exit 2 when the requested model differs from the one that made the "
      "store's vectors (see --replace); exit 4 when the backend fails.";
  man.examples = {
      {"litgraph-embed --db lib.db", "Train the built-in model if needed and embed everything."},
      {"litgraph-embed --db lib.db --missing", "Embed what a new ingest added."},
      {"litgraph-embed --db lib.db --missing --compact",
       "Embed what is missing and fold the vector delta into new base files."},
      {"litgraph-embed --db lib.db --backend http --embed-url http://localhost:8080/v1 "
       "--embed-model bge-small --replace",
       "Switch the store to a served bge model."},
      {"litgraph-embed --db shard-3.db --model-from sample.db",
       "Embed a shard with the model trained on sample.db."},
      {"echo '{\"text\": \"protein folding\"}' | litgraph-embed --db lib.db --filter",
       "Embed a text with the store's model."}};
  return man;
}

}  // namespace

namespace {

struct Options {
  EmbedRunOptions run;
  bool filter = false;
};

void AddOptions(Tool& tool, Options* opt) {
  CLI::App& app = tool.app();
  EmbedRunOptions* o = &opt->run;
  CLI::Option* train =
      app.add_flag("--train", o->train, "(Re)train the built-in model and re-embed everything");
  app.add_option("--model-from", o->model_from,
                 "Copy the built-in model of the store at DIR instead of training one (every "
                 "shard of a corpus embedded by one model; see litgraph-merge)")
      ->type_name("DIR")
      ->excludes(train);
  app.add_flag("--missing", o->missing, "Only papers and keywords without vectors");
  app.add_flag("--replace", o->replace, "Allow switching models (re-embeds everything)");
  app.add_flag("--compact", o->compact,
               "With --missing: fold the vector delta into new base files");
  app.add_flag("--fold-segments", o->fold_segments,
               "With --missing: compact, and insert the vectors of the shard indexes "
               "litgraph-merge kept (segments) into one index per field");
  app.add_option("--compact-at", o->delta_fraction,
                 "With --missing: fold the delta into new base files once it holds more than "
                 "this share of the base's rows (default 0.2; 0 folds every run, 100 leaves it "
                 "to --compact)")
      ->type_name("FRACTION")
      ->check(NumberIn(0.0, 1e6));
  app.add_flag(
      "--no-index", [o](int64_t) { o->index = false; },
      "Write the vectors without HNSW indexes (queries scan them); litgraph-merge inserts "
      "such a shard's vectors instead of keeping its index; a later run with --compact "
      "builds them");
  app.add_option("--keyword-min-papers", o->keyword_min_papers,
                 "Vectors only for keywords of at least N papers (default 2; 1: every keyword); "
                 "every run sets them again from the keywords' paper counts")
      ->type_name("N")
      ->check(NumberIn(1, 1000000));
  app.add_flag("--filter", opt->filter, "Filter mode: {\"text\"} records on stdin");
  app.add_option("--backend", o->backend, "Model: builtin (default) or http")
      ->check(CLI::IsMember({"builtin", "http"}));
  AddBackendOptions(&app, "embed", "Embeddings", &o->http.url, &o->http.model, &o->http.http);
  app.add_option("--embed-batch", o->http.batch, "Texts per HTTP request (default 64)")
      ->type_name("N")
      ->check(NumberIn<size_t>(1, 100000));
  app.add_option("--dim", o->lsa.dim, "Built-in model dimension (default 128)")
      ->type_name("N")
      ->check(NumberIn(8, 1024));
  app.add_option("--lexical-weight", o->lsa.lexical_weight,
                 "Built-in model: weight of the TF-IDF cosine in its similarity (default 0.8)")
      ->type_name("W")
      ->check(NumberIn(0.0, 1.0));
  app.add_option("--train-docs", o->lsa.max_docs, "Papers sampled for training (default 200000)")
      ->type_name("N")
      ->check(NumberIn<size_t>(1, 100000000));
  app.add_option("--max-terms", o->lsa.max_terms, "Vocabulary size (default 100000)")
      ->type_name("N")
      ->check(NumberIn<size_t>(1, 10000000));
  app.add_option("--hnsw-m", o->hnsw.M, "HNSW links per node (default 16)")
      ->type_name("N")
      ->check(NumberIn(4, 128));
  app.add_option("--ef-construction", o->hnsw.ef_construction,
                 "HNSW build beam width (default 200)")
      ->type_name("N")
      ->check(NumberIn(10, 2000));
  app.add_option("--delta-ef-construction", o->hnsw.delta_ef_construction,
                 "HNSW build beam width of a delta's index, at most --ef-construction (default "
                 "64)")
      ->type_name("N")
      ->check(NumberIn(10, 2000));
  app.add_option("--memory-budget", o->memory_budget,
                 "Memory for the texts being embedded and the HNSW index being built, e.g. 512M "
                 "or 8G (default 2G); an index built afresh that would not fit is built in "
                 "segments (~640 bytes a vector at 128 dimensions; at most 16 a field), each "
                 "searched beside the others")
      ->type_name("SIZE")
      ->transform(CLI::AsSizeValue(false))
      ->check(NumberIn<size_t>(size_t{8} << 20, size_t{1} << 50));
  tool.AddStatsFlag();
}

// --filter: {"text"} records in, the same with "embedding" out, by the HTTP
// model asked for or else the store's own.
Status Filter(Tool& tool, const EmbedRunOptions& o, const std::string& key) {
  std::unique_ptr<Embedder> http;
  std::unique_ptr<Store> store;
  std::unique_ptr<SemanticIndex> index;
  Embedder* embedder = nullptr;
  if (o.backend == "http") {
    http = std::make_unique<HttpEmbedder>(o.http);
    embedder = http.get();
  } else {
    auto s = Store::Open(tool.common().db, Store::Mode::kRead);
    if (!s.ok()) return s.status();
    store = std::move(s.value());
    auto idx = SemanticIndex::Open(store.get(), key);
    if (!idx.ok())
      return idx.status().code() == Code::kNotFound ? Status::IoError(idx.status().message())
                                                    : idx.status();
    index = std::move(idx.value());
    embedder = &index->embedder();
  }
  const std::string model = embedder->model_id();
  if (index) LITGRAPH_RETURN_IF_ERROR(index->status());  // a damaged model names its file
  Output out(Format::kJsonl);
  return ForEachJsonLineIn("-", [&](Json& rec, const std::string& where) -> Status {
    if (!rec.contains("text") || !rec["text"].is_string())
      return Status::MalformedInput(where + ": expected a JSON object with a string \"text\"");
    std::vector<float> v;
    LITGRAPH_RETURN_IF_ERROR(embedder->Embed({rec["text"].get<std::string>()}, &v));
    rec["embedding"] = v;
    rec["model"] = model;
    out.Write(rec);
    return Status::Ok();
  });
}

Status Run(Tool& tool, Options& opt) {
  EmbedRunOptions& o = opt.run;
  if (o.backend == "http" && !o.model_from.empty())
    return Status::InvalidArgument("--model-from copies a built-in model: not with --backend http");
  if (o.backend == "http" && (o.http.url.empty() || o.http.model.empty()))
    return Status::InvalidArgument("--backend http needs --embed-url and --embed-model");
  std::string key = ApiKeyFromEnv({"LITGRAPH_EMBED_API_KEY", "OPENAI_API_KEY"});
  o.http.http.api_key = key;
  o.threads = ResolveThreads(tool.common().threads);
  o.reporter = tool.reporter();
  if (opt.filter) return Filter(tool, o, key);
  auto store = Store::Open(tool.common().db, Store::Mode::kWrite, false, tool.reporter());
  if (!store.ok()) return store.status();
  EmbedRunStats s;
  LITGRAPH_RETURN_IF_ERROR(RunEmbed(store->get(), o, &s));
  tool.Summary(
      fmt::format("{} ({} dims{}){}: {} title, {} abstract, {} keyword vectors; embed {:.1f} s, "
                  "index {:.1f} s, total {:.1f} s",
                  s.model_id, s.dim,
                  s.lexical_weight > 0 ? fmt::format(", lexical weight {}", s.lexical_weight) : "",
                  s.trained ? fmt::format(", trained on {} papers in {:.1f} s", s.train.docs,
                                          s.train.seconds)
                            : "",
                  s.titles, s.abstracts, s.keywords, s.embed_seconds, s.index_seconds, s.seconds),
      {{"id", tool.common().db},
       {"type", "embed_summary"},
       {"model", s.model_id},
       {"dim", s.dim},
       {"lexical_weight", s.lexical_weight},
       {"trained", s.trained},
       {"train_docs", s.train.docs},
       {"train_terms", s.train.terms},
       {"train_dropped_terms", s.train.dropped_terms},
       {"train_seconds", s.train.seconds},
       {"titles", s.titles},
       {"abstracts", s.abstracts},
       {"changed", s.changed},
       {"keywords", s.keywords},
       {"delta_rows", s.delta_rows},
       {"compacted", s.compacted},
       {"index_segments", s.index_segments},
       {"indexed", o.index},
       {"embed_seconds", s.embed_seconds},
       {"index_seconds", s.index_seconds},
       {"seconds", s.seconds},
       {"unknown_words_new", s.unknown_words_new < 0 ? Json() : Json(s.unknown_words_new)},
       {"unknown_words_old", s.unknown_words_old < 0 ? Json() : Json(s.unknown_words_old)},
       {"retrain_due", s.retrain_due},
       {"retrain_reason", s.retrain_reason.empty() ? Json() : Json(s.retrain_reason)}});
  if (s.retrain_due) tool.Note(s.retrain_reason + ": run with --train");
  return Status::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  Tool tool("embed", ToolManual(), {"jsonl"});
  Options o;
  AddOptions(tool, &o);
  return tool.Run(argc, argv, [&] { return Run(tool, o); });
}
