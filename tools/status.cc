// litgraph-status: what a store holds and whether its layers are current.
//
// Writes one record (JSON) or a readable report: papers and other nodes,
// edges per relation, dangling references, the generation of each derived
// layer and the papers it lacks, whether the embedding model is due for a
// retrain, bytes per part, and the problems a tool run would fix.
// Exit codes: 0 healthy, 1 a layer is missing or behind (the problems say
// which tool to run), 4 the store cannot be read or a file is damaged
// (--verify), 5 internal.
#include <fmt/format.h>

#include "litgraph/store.h"
#include "litgraph/store_status.h"
#include "tool.h"

namespace {

using namespace litgraph;

Manual ToolManual() {
  Manual man;
  man.synopsis = "[OPTIONS]";
  man.description =
      "Describes a store: papers, authors, institutions, venues, topics and keywords; the "
      "graph's edges per relation and its dangling references (references to works not in "
      "the store); each derived layer (graph, keywords, vectors, citation metrics) with its "
      "generation and the "
      "papers it does not cover yet; the embedding model, its backend and whether a retrain is "
      "due; the bytes of each part; and whether the store is healthy, with the tool run that "
      "fixes each problem.\n\n"
      "It reads metadata and manifests only, so it answers at once on any store size. "
      "--verify also checks every page of every derived file against its checksum (reads the "
      "whole store).";
  man.input = "Nothing on standard input.";
  man.output =
      "One record {\"type\": \"store_status\", id (the store directory), schema_version, "
      "store_id, papers, nodes {author, institution, source, topic, keyword}, graph "
      "{generation, edges, cites_edges, dangling_references, lexical_delta_papers, relations}, "
      "citation_table (whether "
      "litgraph-export --sql made one), keywords "
      "{generation, backend, papers_without_keywords}, vectors {generation, model_id, "
      "backend, method, dim, papers_at_train, retrain_due, delta_rows, index_segments (shard "
      "indexes a merge kept beside the base index, over all fields), indexed (false after "
      "litgraph-embed --no-index), papers_without_vectors}, "
      "metrics {generation, current (computed from the current graph; a stale file is a "
      "problem), cd_window, novelty, keyword_novelty}, bytes {sqlite, graph, keywords, vectors, "
      "metrics, "
      "total}, healthy, problems [text], damage [text] "
      "(with --verify), verified}. On a terminal, a readable report.";
  man.exit_status =
      "Exit 0 when the store is healthy; 1 when a layer is missing or behind (each problem "
      "names the tool that fixes it); 4 when the store cannot be opened or --verify found a "
      "damaged file.";
  man.examples = {{"litgraph-status --db lib.db", "What the store holds."},
                  {"litgraph-status --db lib.db -q --format jsonl || litgraph-embed --db lib.db "
                   "--missing",
                   "In a cron job: act when the store is not healthy."},
                  {"litgraph-status --db lib.db --verify", "Check every file's checksums."}};
  return man;
}

std::string Count(const Json& v) {
  if (!v.is_number()) return "-";
  std::string s = std::to_string(v.get<int64_t>()), out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0 && s[0] != '-') out += ',';
    out += s[i];
  }
  return out;
}

std::string Mb(const Json& v) {
  return v.is_number() ? fmt::format("{:.1f} MB", v.get<double>() / 1e6) : "-";
}

// The report as lines of "name  value" (tsv: name<TAB>value).
std::string Readable(const Json& j, bool tsv) {
  std::vector<std::pair<std::string, std::string>> rows;
  rows.push_back(
      {"store", fmt::format("{} (schema {}, id {})", j["id"].get<std::string>(),
                            Count(j["schema_version"]), j["store_id"].get<std::string>())});
  rows.push_back({"papers", Count(j["papers"])});
  std::string nodes;
  for (auto it = j["nodes"].begin(); it != j["nodes"].end(); ++it)
    nodes += (nodes.empty() ? "" : ", ") + Count(it.value()) + " " + it.key() + "s";
  rows.push_back({"nodes", nodes});
  const Json& g = j["graph"];
  rows.push_back(
      {"graph", g["generation"].is_null()
                    ? "none"
                    : fmt::format("generation {}: {} edges, {} citations, {} dangling "
                                  "references",
                                  Count(g["generation"]), Count(g.value("edges", Json())),
                                  Count(g.value("cites_edges", Json())),
                                  Count(g.value("dangling_references", Json()))) +
                          (g.value("lexical_delta_papers", 0) > 0
                               ? fmt::format("; {} papers in the full-text delta",
                                             Count(g["lexical_delta_papers"]))
                               : std::string())});
  const Json& k = j["keywords"];
  rows.push_back(
      {"keywords",
       fmt::format("{}; {} papers without keywords",
                   k["generation"].is_null() ? "none" : "generation " + Count(k["generation"]),
                   Count(k["papers_without_keywords"]))});
  const Json& v = j["vectors"];
  std::string model = "none";
  if (!v["generation"].is_null())
    model = fmt::format("generation {}: {} ({}, {} dims, trained on {} papers), retrain due: {}",
                        Count(v["generation"]), v.value("model_id", std::string("?")),
                        v.value("backend", std::string("?")), Count(v.value("dim", Json())),
                        Count(v.value("papers_at_train", Json())),
                        v.value("retrain_due", false) ? "yes" : "no");
  rows.push_back(
      {"vectors",
       fmt::format("{}; {} papers without vectors{}{}{}", model, Count(v["papers_without_vectors"]),
                   v.value("delta_rows", 0) > 0
                       ? fmt::format("; {} rows in the vector delta", Count(v["delta_rows"]))
                       : std::string(),
                   v.value("index_segments", 0) > 0
                       ? fmt::format("; {} index segments (a merge's, or built within embed's "
                                     "--memory-budget)",
                                     Count(v["index_segments"]))
                       : std::string(),
                   v.value("indexed", true) ? "" : "; no HNSW index (queries scan the vectors)")});
  const Json& m = j["metrics"];
  rows.push_back({"metrics", m["generation"].is_null()
                                 ? std::string("none (litgraph-metrics --build)")
                                 : fmt::format("generation {}, {}", Count(m["generation"]),
                                               m["current"].get<bool>() ? "current" : "stale")});
  std::string sizes;
  for (auto it = j["bytes"].begin(); it != j["bytes"].end(); ++it)
    sizes += (sizes.empty() ? "" : ", ") + it.key() + " " + Mb(it.value());
  rows.push_back({"size", sizes});
  if (j.contains("verified"))
    rows.push_back({"verified", j["verified"].get<bool>() ? "every page" : "DAMAGE FOUND"});
  rows.push_back({"healthy", j["healthy"].get<bool>() ? "yes" : "no"});
  for (const auto& p : j["problems"]) rows.push_back({"problem", p.get<std::string>()});
  if (j.contains("damage"))
    for (const auto& d : j["damage"]) rows.push_back({"damage", d.get<std::string>()});
  std::string out;
  for (const auto& [name, value] : rows)
    out += tsv ? name + "\t" + value + "\n" : fmt::format("{:<9} {}\n", name, value);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace litgraph;
  Tool tool("status", ToolManual());
  bool verify = false;
  tool.app().add_flag("--verify", verify,
                      "Also check every page of every derived file (reads the whole store)");
  return tool.Run(argc, argv, [&]() -> Status {
    auto store = Store::Open(tool.common().db, Store::Mode::kRead);
    if (!store.ok()) return store.status();
    auto report = DescribeStore(store->get(), verify);
    if (!report.ok()) return report.status();
    Output out(tool.common().format);
    if (out.format() == Format::kJsonl)
      out.Write(report->record);
    else
      out.Raw(Readable(report->record, out.format() == Format::kTsv));
    out.Finish();
    if (!report->damage.empty())
      return Status::Corruption(
          fmt::format("{} damaged file(s): {}", report->damage.size(), report->damage.front()));
    if (!report->problems.empty())
      return Status::NotFound(fmt::format("not healthy: {}", report->problems.front()));
    return Status::Ok();
  });
}
