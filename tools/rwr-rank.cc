// litgraph-rwr-rank: ranks what a set of seed nodes reaches by a typed
// random walk with restart over their 2-hop subgraph.
//
// Reads seeds as JSON lines on stdin: {"id", "weight"} of any node type, or
// the records of other tools (their "score" becomes the weight unless
// --weight-field names another field). Writes ranked nodes of --target type
// with scores and up to three explanation paths each.
// Exit codes: 0 ok, 1 no seed resolved, 2 usage, 3 malformed stdin line,
// 4 store error, 5 internal.
#include <fmt/format.h>

#include <chrono>
#include <unordered_set>

#include "litgraph/jsonl.h"
#include "litgraph/render.h"
#include "litgraph/rwr.h"
#include "litgraph/store.h"
#include "tool.h"

namespace {

using namespace litgraph;

Manual ToolManual() {
  Manual man;
  man.synopsis = "[OPTIONS] < seeds.jsonl";
  man.description =
      "Ranks the nodes a set of seeds reaches in the graph, SciAtlas' graph reranking "
      "(Qiao et al. 2025, sections 3.2-3.3) as a standalone step.\n\n"
      "Seeds are normalized to a distribution (each weight over their sum). The subgraph is "
      "everything within 2 "
      "hops of the seeds over relations with non-zero weight, edges undirected, keeping at most "
      "--per-hop-cap new nodes per hop and node type: the strongest edge to the previous hop "
      "first; among equal weights the more cited paper, or the COAUTHOR / COOCCUR edge with "
      "more joint papers; then the smaller id. Edge weights follow Table 2 (HAS_KEYWORD 1.2 x "
      "kappa x relevance with kappa = the seed keyword's weight or 0.25, CITES 1.0, RELATED_TO "
      "0.9, AUTHORED 0.8, COAUTHOR and COOCCUR 0.6 x max(1, min(2, ln(1 + count))); "
      "PUBLISHED_IN, HAS_TOPIC, AFFILIATED_WITH and the topic hierarchy are off unless given a "
      "weight). The walk restarts with probability --alpha and stops when the L1 change falls "
      "below --epsilon or after --max-iter iterations; nodes without neighbours keep their "
      "mass. --propagation two-step gives the reference code's two-step propagation instead.\n\n"
      "Every parameter has a flag and can be set in a --config file of \"name = value\" lines "
      "(the format litgraph-tri-search reads too); flags win over the file.";
  man.input =
      "One seed per line: a JSON record with \"id\" (a paper, author, institution, source, "
      "topic or keyword id such as kw:graph neural network; papers also by DOI or title), an "
      "optional \"type\", and a weight (\"weight\", else \"score\", or --weight-field); or a "
      "plain id, DOI, OpenAlex URL or title (weight 1). Other fields are ignored.";
  man.output =
      "Ranked nodes: the node's record (papers: the fields of litgraph-json(7)), rank, score "
      "(its walk probability), is_seed, and paths: up to 3 explanations {nodes, relations, "
      "strength, text}, each from a seed to the node in at most 2 hops.";
  man.exit_status = "Exit 1 when no seed is found in the store.";
  man.examples = {
      {"litgraph-find-paper --db lib.db --limit 30 graph neural networks | litgraph-rwr-rank "
       "--db lib.db",
       "Papers reached from the top 30 text hits."},
      {"echo '{\"id\": \"kw:machine translation\", \"weight\": 1}' | litgraph-rwr-rank --db "
       "lib.db --target author",
       "Authors around a keyword."}};
  return man;
}

}  // namespace

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  RwrParams params;
  ParamTable table;
  std::string target = "paper", weight_field, config;
  bool exclude_seeds = false, timings = false;
  size_t limit = 20;
};

void AddOptions(CLI::App& app, Options* o) {
  o->params.Register(&o->table);
  app.add_option("--target", o->target,
                 "Node type to rank: paper (default), author, keyword, ... or any")
      ->check(
          CLI::IsMember({"paper", "author", "keyword", "institution", "source", "topic", "any"}));
  app.add_option("--weight-field", o->weight_field,
                 "Input field holding seed weights (default weight, else score)")
      ->type_name("NAME");
  app.add_flag("--exclude-seeds", o->exclude_seeds, "Leave the seeds out of the ranking");
  app.add_option("-n,--limit", o->limit, "Number of results (default 20)")
      ->type_name("N")
      ->check(NumberIn<size_t>(1, 1000000));
  app.add_option("--config", o->config, "Parameter file of name = value lines")->type_name("FILE");
  app.add_flag("--timings", o->timings, "Print stage timings and subgraph size as JSON on stderr");
  AddParamFlags(&app, &o->table, "Walk parameters");
}

// The seeds on standard input: records of any tool, or plain ids, DOIs,
// OpenAlex URLs or titles one per line.
Result<std::vector<Seed>> ReadSeeds(Tool& tool, Store* store, const std::string& weight_field) {
  std::vector<Seed> seeds;
  int64_t unresolved = 0;
  LITGRAPH_RETURN_IF_ERROR(ForEachRecordIn("-", [&](Json& j, const std::string& where) -> Status {
    auto seed = SeedFromRecord(store, j, weight_field, where);
    if (!seed.ok()) return seed.status();
    if (!*seed)
      ++unresolved;
    else if ((*seed)->weight > 0)
      seeds.push_back(**seed);
    return Status::Ok();
  }));
  if (unresolved) tool.Warn(fmt::format("{} seeds are not in the store", unresolved));
  if (seeds.empty()) return Status::NotFound("no seed resolved to a node of the store");
  return seeds;
}

Status Run(Tool& tool, Options& o) {
  auto t0 = Clock::now();
  if (!o.config.empty()) LITGRAPH_RETURN_IF_ERROR(o.table.LoadConfig(o.config));
  auto store_or = Store::Open(tool.common().db, Store::Mode::kRead);
  if (!store_or.ok()) return store_or.status();
  Store* store = store_or->get();
  auto graph_or = Graph::Open(store);
  if (!graph_or.ok())
    return graph_or.status().code() == Code::kNotFound
               ? Status::IoError(graph_or.status().message())
               : graph_or.status();
  Graph& graph = **graph_or;
  auto seeds = ReadSeeds(tool, store, o.weight_field);
  if (!seeds.ok()) return seeds.status();
  auto t1 = Clock::now();
  if (tool.common().threads > 0)
    o.params.threads = tool.common().threads;  // else RwrParams' default
  auto sub = BuildSubgraph(graph, *seeds, o.params);
  if (!sub.ok()) return sub.status();
  const Subgraph& g = *sub;
  auto t2 = Clock::now();
  WalkResult walk = RandomWalk(g, *seeds, o.params);
  auto t3 = Clock::now();
  NodeType want = NodeType::kPaper;
  const bool any = o.target == "any";
  if (!any) ParseNodeType(o.target, &want);
  std::unordered_set<uint64_t> is_seed;
  for (const Seed& s : *seeds) is_seed.insert(s.node.key());
  Output out(tool.common().format);
  if (any || want == NodeType::kPaper) {
    out.SetColumns({{"rank", "#", 0},
                    {"score", "score", 0},
                    {"type", "type", 0},
                    {"id", "id", 0},
                    {"title", "title / name", 70},
                    {"is_seed", "seed", 0},
                    {"doi", "doi", 0, false}});
  } else {
    auto columns = NodeColumns();
    columns.push_back({"is_seed", "seed", 0});
    out.SetColumns(columns);
  }
  tool.Shape(&out, store);
  int rank = 0;
  for (uint32_t i : RankNodes(g, walk, *seeds, any ? nullptr : &want, o.exclude_seeds, o.limit)) {
    Json j = NodeJson(store, &graph, g.nodes[i].type, g.nodes[i].id);
    j["rank"] = ++rank;
    j["score"] = walk.score[i];
    j["is_seed"] = is_seed.count(g.nodes[i].key()) > 0;
    j["paths"] = ExplainJson(store, g, Explain(g, *seeds, i));
    out.Write(j);
  }
  out.Finish();
  if (o.timings) {
    auto ms = [](auto a, auto b) {
      return std::chrono::duration<double, std::milli>(b - a).count();
    };
    fmt::print(stderr, "{}\n",
               Json({{"seeds", seeds->size()},
                     {"nodes", g.nodes.size()},
                     {"edges", g.edges()},
                     {"iterations", walk.iterations},
                     {"residual", walk.residual},
                     {"load_ms", ms(t0, t1)},
                     {"subgraph_ms", ms(t1, t2)},
                     {"hop_ms", g.hop_ms},
                     {"edges_ms", g.edges_ms},
                     {"walk_ms", ms(t2, t3)},
                     {"total_ms", ms(t0, Clock::now())}})
                   .dump());
  }
  return Status::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  Tool tool("rwr-rank", ToolManual(), PaperFormats());
  tool.AddShapingOptions();
  Options o;
  AddOptions(tool.app(), &o);
  return tool.Run(argc, argv, [&] { return Run(tool, o); });
}
