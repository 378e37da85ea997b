#include "litgraph/store_status.h"

#include <fmt/format.h>

#include <filesystem>

#include "litgraph/checked_file.h"
#include "litgraph/generation.h"
#include "litgraph/graph.h"
#include "litgraph/metrics.h"
#include "litgraph/model.h"
#include "litgraph/store.h"
#include "litgraph/vectors.h"

namespace litgraph {

namespace fs = std::filesystem;

namespace {

uint64_t BytesIn(const fs::path& p) {
  std::error_code ec;
  if (fs::is_regular_file(p, ec)) return fs::file_size(p, ec);
  uint64_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(p, ec))
    if (e.is_regular_file(ec)) n += e.file_size(ec);
  return n;
}

Json InfoJson(const GenerationView& view) {
  Json out;
  for (auto it = view.info().begin(); it != view.info().end(); ++it) out[it.key()] = it.value();
  return out;
}

// Checks every page of every file of a generation; failures go to *damage.
void VerifyGeneration(const GenerationView& view, std::vector<std::string>* damage) {
  for (const auto& [name, build] : view.files()) {
    CheckedFile f;
    Status st = view.OpenFile(name, &f);
    if (st.ok()) st = f.VerifyAll();
    if (!st.ok()) damage->push_back(st.message());
  }
}

}  // namespace

Result<StoreReport> DescribeStore(Store* store, bool verify) {
  StoreReport r;
  Json& j = r.record;
  j["id"] = store->dir();
  j["type"] = "store_status";
  j["schema_version"] = std::stoll(store->GetMeta("schema_version").value_or("0"));
  j["store_id"] = store->GetMeta("store_id").value_or("");
  const int64_t papers = store->PaperCount();
  j["papers"] = papers;
  Json nodes = Json::object();
  for (NodeType t : {NodeType::kAuthor, NodeType::kInstitution, NodeType::kSource, NodeType::kTopic,
                     NodeType::kKeyword})
    nodes[NodeTypeName(t)] = store->MaxId(t);  // dense ids: the largest is the count
  j["nodes"] = nodes;
  if (papers == 0) r.problems.push_back("the store has no papers (litgraph-ingest)");
  Json parts = Json::object();
  const uint64_t wal = BytesIn(store->dir() + "/litgraph.sqlite-wal");
  parts["sqlite"] = BytesIn(store->dir() + "/litgraph.sqlite") + wal;
  // A WAL that no writer emptied costs every process that opens the store
  // alone a read of all of it (bench/results/2026-11-28-wal).
  if (wal > Store::kWalLeftBytes && !store->WriterActive())
    r.problems.push_back(fmt::format(
        "the SQLite WAL holds {} MiB that no writer emptied, and every process that opens the "
        "store alone reads all of it first (any writer empties it as it closes, once no reader "
        "holds a snapshot older than it: litgraph-ingest --db DIR with no input)",
        wal >> 20));
  // The graph.
  auto graph = store->Current("graph");
  if (!graph.ok()) return graph.status();
  Json g = {{"generation", nullptr}};
  if (*graph) {
    Json info = InfoJson(**graph);
    g["generation"] = (*graph)->number();
    for (const char* k : {"edges", "cites_edges", "dangling_references", "relations"})
      if (info.contains(k)) g[k] = info[k];
    // Papers the full-text index holds in its delta (ingest --compact folds it in).
    g["lexical_delta_papers"] =
        info.contains("lexical_delta") ? info["lexical_delta"].value("papers", 0) : 0;
    parts["graph"] = BytesIn((*graph)->dir());
    if (verify) VerifyGeneration(**graph, &r.damage);
  } else if (papers > 0) {
    r.problems.push_back("no graph (litgraph-ingest --db DIR with no input builds it)");
  }
  j["graph"] = g;
  // The optional citation table for SQL (litgraph-export --sql): ingest keeps
  // it current, so its presence is all there is to say.
  j["citation_table"] = store->HasCitationTable();
  // The keyword layer.
  auto keywords = store->Current("keywords");
  if (!keywords.ok()) return keywords.status();
  const auto without_keywords = static_cast<int64_t>(store->PaperIdsWithoutKeywords().size());
  Json k = {{"generation", nullptr}, {"papers_without_keywords", without_keywords}};
  if (*keywords) {
    k["generation"] = (*keywords)->number();
    k["backend"] = store->GetMeta("keyword_backend").value_or("builtin");
    parts["keywords"] = BytesIn((*keywords)->dir());
    if (verify) VerifyGeneration(**keywords, &r.damage);
  }
  if (without_keywords > 0)
    r.problems.push_back(fmt::format("{} papers have no keywords (litgraph-extract-keywords{})",
                                     without_keywords, *keywords ? " --missing" : ""));
  j["keywords"] = k;
  // The vectors.
  auto vectors = store->Current("vectors");
  if (!vectors.ok()) return vectors.status();
  Json v = {{"generation", nullptr}};
  int64_t without_vectors = papers;
  if (*vectors) {
    Json info = InfoJson(**vectors);
    v["generation"] = (*vectors)->number();
    for (const char* key : {"model_id", "backend", "method", "dim", "papers_at_train", "url"})
      if (info.contains(key)) v[key] = info[key];
    FieldVectors titles;
    if ((*vectors)->Has("title.vec") && titles.Open(**vectors, "title").ok()) {
      without_vectors = std::max<int64_t>(
          0, store->MaxId(NodeType::kPaper) + 1 - static_cast<int64_t>(titles.rows()));
      v["indexed"] = titles.has_index();  // false after embed --no-index: queries scan
    }
    int64_t delta_rows = 0;
    if (info.contains("vector_delta") && info["vector_delta"].is_object())
      for (const auto& [field, n] : info["vector_delta"].items())
        if (n.is_number_unsigned()) delta_rows += n.get<int64_t>();
    v["delta_rows"] = delta_rows;
    int64_t segments = 0;  // shard indexes a merge kept (vectors.h)
    if (info.contains("vector_segments") && info["vector_segments"].is_object())
      for (const auto& [field, n] : info["vector_segments"].items())
        if (n.is_number_unsigned()) segments += n.get<int64_t>();
    v["index_segments"] = segments;
    const double at_train = info.value("papers_at_train", 0.0);
    const bool due = at_train > 0 && papers > 1.5 * at_train;
    v["retrain_due"] = due;
    if (due)
      r.problems.push_back(fmt::format(
          "the model was trained on {} papers, the store has {} (litgraph-embed --train)",
          static_cast<int64_t>(at_train), papers));
    parts["vectors"] = BytesIn((*vectors)->dir());
    if (verify) VerifyGeneration(**vectors, &r.damage);
  }
  v["papers_without_vectors"] = without_vectors;
  if (without_vectors > 0 && papers > 0)
    r.problems.push_back(fmt::format("{} papers have no vectors (litgraph-embed{})",
                                     without_vectors, *vectors ? " --missing" : ""));
  const int64_t stale =
      *vectors ? store->db().QueryInt("SELECT count(*) FROM vectors_stale").value_or(0) : 0;
  v["papers_with_stale_vectors"] = stale;
  if (stale > 0)
    r.problems.push_back(fmt::format(
        "{} papers changed title or abstract since their vectors (litgraph-embed --missing)",
        stale));
  j["vectors"] = v;
  // The citation metrics (litgraph-metrics --build): optional, current only
  // while they were computed from the current graph.
  auto metrics = store->Current("metrics");
  if (!metrics.ok()) return metrics.status();
  Json m = {{"generation", nullptr}, {"current", nullptr}};
  if (*metrics) {
    Json info = InfoJson(**metrics);
    m["generation"] = (*metrics)->number();
    bool stale = true;
    if (*graph) {
      auto opened = Graph::Open(store);
      if (!opened.ok()) return opened.status();
      auto file = MetricsFile::Open(store, **opened, &stale);
      if (!file.ok()) {
        r.damage.push_back(file.status().message());
      } else if (*file) {
        m["cd_window"] = (*file)->window() > 0 ? Json((*file)->window()) : Json(nullptr);
        m["novelty"] = (*file)->has_novelty();
        m["keyword_novelty"] = (*file)->has_keyword_novelty();
      }
    }
    m["current"] = !stale;
    if (stale)
      r.problems.push_back(
          "the citation metrics predate the store's citations (litgraph-metrics --build)");
    parts["metrics"] = BytesIn((*metrics)->dir());
    if (verify) VerifyGeneration(**metrics, &r.damage);
  }
  j["metrics"] = m;
  uint64_t total = 0;
  for (auto it = parts.begin(); it != parts.end(); ++it) total += it.value().get<uint64_t>();
  parts["total"] = total;
  j["bytes"] = parts;
  if (verify) j["verified"] = r.damage.empty();
  j["healthy"] = r.problems.empty() && r.damage.empty();
  j["problems"] = r.problems;
  if (!r.damage.empty()) j["damage"] = r.damage;
  return r;
}

}  // namespace litgraph
