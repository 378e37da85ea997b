// Writes the fuzz targets' seed corpus: fuzz-make-seeds OUT_DIR writes
// OUT_DIR/<target>/<seed> for every target of fuzz/CMakeLists.txt.
//
// Derived-file seeds are what the library's own writers produce for a tiny
// store built from tests/data (ingest, keyword layer) plus a few small files
// written directly (sparse adjacency, short ranked lists, a small model,
// vectors and HNSW indexes over fuzz_util.h's HnswRows): each file's payload
// (the format's bytes, which the targets wrap as a checked file) and, for
// the small ones, the whole file after an 'R' (fuzz_util.h). Text seeds are
// records, ids, titles and queries from tests/data. Deterministic apart from
// the store id (and so the raw files' footers), which the targets do not
// check for payload seeds.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fuzz_util.h"
#include "litgraph/embed.h"
#include "litgraph/graph.h"
#include "litgraph/ingest.h"
#include "litgraph/keyword_store.h"
#include "litgraph/keywords.h"
#include "litgraph/records.h"
#include "litgraph/sqlite.h"
#include "litgraph/store.h"
#include "litgraph/vectors.h"

using namespace litgraph;
using namespace litgraph::fuzz;
namespace fs = std::filesystem;

namespace {

std::string out_dir;

std::string ReadAll(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void Seed(const std::string& target, const std::string& name, std::string_view bytes) {
  fs::create_directories(out_dir + "/" + target);
  WriteRaw(out_dir + "/" + target + "/" + name, bytes);
}

// A checked file's payload.
std::string Payload(const std::string& path) {
  std::string b = ReadAll(path);
  Check(b.size() >= kCheckedFooterSize, "not a checked file");
  uint64_t n;
  std::memcpy(&n, b.data() + b.size() - kCheckedFooterSize + 40, 8);
  Check(n <= b.size(), "bad payload size");
  return b.substr(0, n);
}

// The payload seed of a checked file, and its raw seed when it is small.
void SeedFile(const std::string& target, const std::string& name, const std::string& path,
              size_t raw_limit = 16384) {
  Seed(target, name, Payload(path));
  std::string raw = ReadAll(path);
  if (raw.size() <= raw_limit) Seed(target, "raw-" + name, "R" + raw);
}

// Rewrites a file of the store under the fuzz identity (the raw seeds must
// carry the identity the target expects).
std::string Rewrap(const std::string& path, const std::string& name) {
  const std::string to = ScratchDir() + "/rewrap-" + name;
  Check(WriteCheckedFile(to, Identity(name), Payload(path)).ok(), "rewrap");
  return to;
}

struct Built {
  std::string dir;
  const GenerationView* graph = nullptr;
  const GenerationView* keywords = nullptr;
};

void Structural(Store* store) {
  auto gv = store->Current("graph");
  Check(gv.ok() && *gv, "no graph generation");
  const GenerationView& g = **gv;
  // Adjacency: every relation file of the tiny store.
  for (const auto& [name, build] : g.files()) {
    if (name.ends_with(".adj"))
      SeedFile("adjacency", "store-" + name, Rewrap(g.Path(name), "cites.out.adj"), 4096);
    if (name.ends_with(".ranked"))
      SeedFile("ranked_lists", "store-" + name, Rewrap(g.Path(name), "cites.in.ranked"), 4096);
  }
  // The lexical indexes: lexicon + split + postings.
  for (std::string prefix : {"", "title."}) {
    std::string lex = Payload(g.Path(prefix + "lexicon"));
    std::string post = Payload(g.Path(prefix + "postings"));
    Seed("lexical", "store-" + prefix + "index", lex + std::string(kSplit) + post);
    if (prefix == "title.") {
      std::string rl = ReadAll(Rewrap(g.Path(prefix + "lexicon"), "lexicon"));
      std::string rp = ReadAll(Rewrap(g.Path(prefix + "postings"), "postings"));
      Seed("lexical", "raw-store-title.index", "R" + rl + std::string(kSplit) + rp);
    }
  }
  SeedFile("manifest", "graph-MANIFEST", Rewrap(g.Path("MANIFEST"), "MANIFEST"));
  SeedFile("checked_file", "paper.years", Rewrap(g.Path("paper.years"), "fuzz.bin"));
  SeedFile("checked_file", "paper.citations", Rewrap(g.Path("paper.citations"), "fuzz.bin"));

  auto kv = store->Current("keywords");
  Check(kv.ok() && *kv, "no keywords generation");
  const GenerationView& k = **kv;
  SeedFile("phrase_stats", "store-phrase_df", Rewrap(k.Path("phrase_df"), "phrase_df"), 8192);
  SeedFile("manifest", "keywords-MANIFEST", Rewrap(k.Path("MANIFEST"), "MANIFEST"));
  for (const auto& [name, build] : k.files())
    if (name.ends_with(".adj"))
      SeedFile("adjacency", "store-kw-" + name, Rewrap(k.Path(name), "cites.out.adj"), 4096);
}

// Small files written directly by the writers.
void Handmade(const std::vector<std::string>& texts) {
  const std::string d = ScratchDir();
  // Dense adjacency with attributes, 1 and 3 nodes per block; a sparse one.
  {
    std::vector<uint64_t> off = {0, 2, 2, 5, 6, 6, 9};
    std::vector<uint32_t> ids = {1, 3, 0, 2, 4, 5, 0, 1, 2};
    std::vector<uint32_t> attrs = {7, 8, 1, 2, 3, 4, 5, 6, 9};
    Check(WriteAdjacency(d + "/a1", Identity("cites.out.adj"), 6, off, ids, attrs, 3).ok(), "adj");
    SeedFile("adjacency", "attrs-3-per-block", d + "/a1");
    Check(WriteAdjacency(d + "/a2", Identity("cites.out.adj"), 6, off, ids, {}, 1).ok(), "adj");
    SeedFile("adjacency", "dense-1-per-block", d + "/a2");
    AdjacencyWriter w;
    Check(w.Open(d + "/a3", Identity("cites.out.adj"), 100, true, true, 2).ok(), "adj");
    std::vector<uint32_t> l1 = {4, 9, 60}, a1 = {1, 1, 2}, l2 = {99}, a2 = {3};
    Check(w.Add(3, l1, a1).ok() && w.Add(17, {}, {}).ok() && w.Add(42, l2, a2).ok() &&
              w.Add(99, l1, a1).ok() && w.Finish().ok(),
          "sparse adj");
    SeedFile("adjacency", "sparse", d + "/a3");
    // A block long enough for zstd to compress it.
    std::vector<uint64_t> off2 = {0};
    std::vector<uint32_t> ids2;
    for (uint32_t n = 0; n < 40; ++n) {
      for (uint32_t k = 0; k < 20; ++k) ids2.push_back(k * 3 + n % 2);
      off2.push_back(ids2.size());
    }
    Check(WriteAdjacency(d + "/a4", Identity("cites.out.adj"), 40, off2, ids2, {}, 16).ok(), "adj");
    SeedFile("adjacency", "compressed", d + "/a4");
    // Bases with their deltas (sparse, past the base's nodes too), the
    // payloads and the raw files split by kSplit.
    const std::string delta = AdjDeltaName("cites.out.adj");
    for (bool attrs : {false, true}) {
      AdjacencyWriter dw;
      const std::string path = d + (attrs ? "/d1" : "/d2");
      std::vector<uint32_t> l1 = {0, 5}, a1 = {4, 4}, l2 = {1, 2, 3, 7}, a2 = {1, 2, 3, 4};
      Check(dw.Open(path, Identity(delta), 8, attrs, true, 2).ok(), "delta");
      Check(dw.Add(1, l1, attrs ? a1 : std::vector<uint32_t>()).ok() && dw.Add(4, {}, {}).ok() &&
                dw.Add(7, l2, attrs ? a2 : std::vector<uint32_t>()).ok() && dw.Finish().ok(),
            "delta");
      const std::string base = d + (attrs ? "/a1" : "/a2");
      const std::string seed = attrs ? "base-and-delta-attrs" : "base-and-delta";
      Seed("adjacency", seed, Payload(base) + std::string(kSplit) + Payload(path));
      Seed("adjacency", "raw-" + seed, "R" + ReadAll(base) + std::string(kSplit) + ReadAll(path));
    }
  }
  // Ranked lists of length 4, with and without attributes.
  {
    std::vector<uint64_t> off = {0, 4, 4, 8, 9};
    std::vector<uint32_t> ids = {5, 3, 9, 1, 2, 4, 6, 8, 7};
    std::vector<uint32_t> attrs = {9, 8, 7, 6, 5, 4, 3, 2, 1};
    Check(WriteRankedLists(d + "/r1", Identity("cites.in.ranked"), 4, off, ids, attrs, 4).ok(),
          "ranked");
    SeedFile("ranked_lists", "attrs", d + "/r1");
    Check(WriteRankedLists(d + "/r2", Identity("cites.in.ranked"), 4, off, ids, {}, 4).ok(),
          "ranked");
    SeedFile("ranked_lists", "plain", d + "/r2");
  }
  // Vectors: a few rows of dimension 4 (row 0 and row 3 absent); the HNSW
  // rows themselves.
  {
    std::vector<float> rows = {0, 0, 0, 0, 1, 0, 0, 0, 0.6f, 0.8f,
                               0, 0, 0, 0, 0, 0, 0, 0, 0.5f, 0.5f};
    Check(VectorFile::Write(d + "/v1", Identity("title.vec"), 4, 5, rows.data()).ok(), "vec");
    SeedFile("vector_file", "dim4", d + "/v1");
    std::vector<float> h = HnswRows();
    Check(VectorFile::Write(d + "/v2", Identity("title.vec"), kHnswDim, kHnswRows, h.data()).ok(),
          "vec");
    SeedFile("vector_file", "hnsw-rows", d + "/v2");
  }
  // A model trained on the texts: a small vocabulary, dimension 4.
  {
    LsaTrainOptions o;
    o.dim = 4;
    o.max_terms = 150;
    o.threads = 1;
    LsaTrainStats st;
    Check(TrainLsaOnTexts(texts, o, d + "/model", &st, Identity("model")).ok(), "train");
    SeedFile("lsa_model", "snowball-dim4", d + "/model");
    o.max_terms = 12;
    o.dim = 2;
    o.lexical_weight = 0;
    Check(TrainLsaOnTexts(texts, o, d + "/model2", &st, Identity("model")).ok(), "train");
    SeedFile("lsa_model", "tiny-dense-only", d + "/model2");
  }
  // Phrase statistics counted from a few texts.
  {
    PhraseStats s;
    for (size_t i = 0; i < texts.size() && i < 12; ++i) s.AddDocument(texts[i], texts[i]);
    for (const std::string& t : SampleTexts()) s.AddDocument(t, t);
    Check(s.Write(d + "/p1", Identity("phrase_df")).ok(), "phrase stats");
    SeedFile("phrase_stats", "counted", d + "/p1");
  }
  // Checked files: short, two pages, a sorted string table.
  {
    Check(WriteCheckedFile(d + "/c1", Identity("fuzz.bin"), "hello").ok(), "checked");
    SeedFile("checked_file", "short", d + "/c1");
    std::string two(5000, 'x');
    for (size_t i = 0; i < two.size(); i += 7) two[i] = static_cast<char>(i);
    Check(WriteCheckedFile(d + "/c2", Identity("fuzz.bin"), two).ok(), "checked");
    SeedFile("checked_file", "two-pages", d + "/c2");
    std::string table;
    uint64_t offs[4] = {0, 1, 3, 8};  // "a", "bc", "graph" at 24 + 32 = 56
    uint64_t head[3] = {24, 56, 3};
    table.append(reinterpret_cast<const char*>(head), 24);
    table.append(reinterpret_cast<const char*>(offs), 32);
    table += "abcgraph";
    Seed("checked_file", "string-table", table);
  }
}

// HNSW indexes over HnswRows, and a vectors MANIFEST.
void Vectors(Store* store) {
  auto b = GenerationBuilder::Start(store, "vectors");
  Check(b.ok(), "vectors generation");
  GenerationBuilder* out = b->get();
  std::vector<float> rows = HnswRows();
  Check(VectorFile::Write(out, "title.vec", kHnswDim, kHnswRows, rows.data()).ok(), "vec");
  VectorFile v;
  auto id = out->Identity("title.vec");
  Check(id.ok() && v.Open(out->Path("title.vec"), *id).ok(), "vec open");
  for (int m : {4, 16}) {
    HnswBuildOptions o;
    o.M = m;
    o.ef_construction = 40;
    o.threads = 1;
    const std::string name = fmt::format("m{}", m);
    Check(BuildHnsw(v, out, name, o).ok(), "hnsw build");
    SeedFile("hnsw", "M" + std::to_string(m), Rewrap(out->Path(name + ".hnsw"), "title.hnsw"));
  }
  out->info()["model"] = "lsa:0";
  {
    Transaction txn(&store->db(), "IMMEDIATE");
    Check(out->Commit().ok(), "vectors commit");
    txn.Commit();
  }
  auto cv = store->Current("vectors");
  Check(cv.ok() && *cv, "vectors current");
  SeedFile("manifest", "vectors-MANIFEST", Rewrap((*cv)->Path("MANIFEST"), "MANIFEST"));
  // A segment (labelled nodes, vectors.h): live, waypoint and unlabelled nodes.
  auto b2 = GenerationBuilder::Start(store, "vectors");
  Check(b2.ok(), "segment generation");
  Check(WriteHnswSegment(
            **cv, "m16.hnsw",
            [](uint64_t node, uint32_t) -> uint32_t {
              const auto n = static_cast<uint32_t>(node);
              return n % 7 == 0 ? kNoLabel : n % 2 ? kWaypoint | n : n;
            },
            b2->get(), "seg.hnsw")
            .ok(),
        "segment");
  SeedFile("hnsw", "segment-M16", Rewrap((*b2)->Path("seg.hnsw"), "title.hnsw"));
}

void Texts(const std::vector<std::string>& lines, const std::vector<std::string>& titles) {
  const std::string data = LITGRAPH_TEST_DATA;
  // Records: the shortest work lines, entity records, an API page, an
  // array, a native record.
  std::vector<std::string> sorted = lines;
  std::sort(sorted.begin(), sorted.end(),
            [](const auto& a, const auto& b) { return a.size() < b.size(); });
  for (size_t i = 0; i < 4 && i < sorted.size(); ++i)
    Seed("records", fmt::format("work-{}", i), sorted[i] + "\n");
  for (const char* f : {"A5023888391", "I27837315", "S137773608", "T11636", "C71924100",
                        "F4320332161", "P4310319965"}) {
    nlohmann::json j = nlohmann::json::parse(ReadAll(data + "/" + f + ".json"));
    // Entity records are long; the first fields are what the parser reads.
    Seed("records", f, j.dump() + "\n");
  }
  Seed("records", "api-page", R"({"meta":{"count":1},"results":[)" + sorted[0] + "]}\n");
  Seed("records", "array", "[" + sorted[1] + "]\n");
  Seed("records", "native",
       R"({"id":"acl:P19-1001","title":"A native record","abstract":"Text.","year":2019,)"
       R"("authors":["Ada Lovelace",{"name":"Alan Turing","id":"t1"}],"venue":"ACL",)"
       R"("doi":"10.1/x","references":["acl:P18-1","W2741809807"],"related":["acl:P17-2"],)"
       R"("type":"article","cited_by_count":3,"date":"2019-07-01","updated_date":"2020-01-01"})"
       "\n"
       R"({"id":"n2","title":"Second line"})"
       "\n");
  // The abstract rebuilder: a real inverted index.
  {
    nlohmann::json w = nlohmann::json::parse(ReadAll(data + "/W2741809807.json"));
    Seed("abstract", "W2741809807", w["abstract_inverted_index"].dump());
    Seed("abstract", "small", R"({"Graph":[0],"neural":[1,5],"networks":[2],"and":[3,4]})");
    Seed("abstract", "structured-a", std::string("\x10\x03\x01\x02\x05\x01\x07\x00\x02", 9));
    Seed("abstract", "structured-b", std::string(40, '\x11'));
  }
  // Queries: sample texts, titles, ids, DOIs, option values, pasted papers.
  std::vector<std::string> q = SampleTexts();
  for (size_t i = 0; i < titles.size() && i < 6; ++i) q.push_back(titles[i]);
  for (const char* s :
       {"W2741809807", "https://openalex.org/W2741809807", "https://api.openalex.org/works/W1",
        "10.7717/peerj.4375", "https://doi.org/10.7717/PEERJ.4375", "doi:10.7717/peerj.4375",
        "Heather Piwowar", "Hajič,  Jan", "PeerJ", "citation=high", "exploration=low", "precision",
        "keyword", "high", "subfields/1804"})
    q.push_back(s);
  q.push_back(
      "Title of a paper\n\nAbstract\nWe study the citation advantage of open access "
      "articles across many disciplines and find a consistent effect over all years "
      "studied in this large sample.\n\nIntroduction\n...");
  q.push_back(R"({"title":"A record","abstract":"graph neural networks for citations"})");
  for (size_t i = 0; i < q.size(); ++i) {
    Seed("query", fmt::format("q{:02}", i), q[i]);
    Seed("find_query", fmt::format("q{:02}", i), q[i]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz-make-seeds OUT_DIR\n");
    return 2;
  }
  out_dir = argv[1];
  const std::string data = LITGRAPH_TEST_DATA;
  const std::string dir = ScratchDir() + "/store";
  auto w = Store::Open(dir, Store::Mode::kWrite, /*create=*/true);
  Check(w.ok(), "store create");
  Store* store = w->get();
  IngestStats is;
  Check(Ingest(store, {data + "/snowball.works.jsonl", data + "/A5023888391.json"}, {}, &is).ok(),
        "ingest");
  KeywordRunStats ks;
  Check(RunKeywordExtraction(
            store, {}, [](const PhraseStats* s) { return MakeBuiltinKeywordBackend(s); }, &ks)
            .ok(),
        "keywords");
  // Texts of the works, for the model and the queries.
  std::vector<std::string> lines, texts, titles;
  {
    std::istringstream in(ReadAll(data + "/snowball.works.jsonl"));
    RecordParser parser;
    for (std::string line; std::getline(in, line);) {
      lines.push_back(line);
      std::vector<Record> recs;
      if (!parser.Parse(line, false, &recs).ok()) continue;
      for (const Record& r : recs)
        if (const auto* wr = std::get_if<WorkRec>(&r)) {
          texts.push_back(wr->title + ". " + wr->abstract);
          titles.push_back(wr->title);
        }
    }
  }
  Structural(store);
  Handmade(texts);
  Vectors(store);
  Texts(lines, titles);
  return 0;
}
