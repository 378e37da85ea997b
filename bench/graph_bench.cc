// litgraph-graph-bench: store open time and the citation adjacency format
// (doc/graph-format.md) measured on a real store, block size by block size.
//
//   litgraph-graph-bench --db STORE [--benchmarks LIST] [--reads N] [--repeats R]
//                        [--npb 16,32,64,128,256] [--seed S] [--tmp DIR]
//
// Workloads (--benchmarks, comma-separated; default all, in this order):
//   open       Store::Open (read mode), Graph::Open and the first
//              Neighbours() call on cites.out (which maps the file), each
//              timed in this process, --repeats times, fresh objects every
//              time: rows open_store, open_graph, first_neighbours, open_total
//              (ms; median, and the first repeat as param "first").
//              A fresh-process figure (process start included) comes from
//              bench/lineage_bench.py, which runs `--benchmarks open
//              --repeats 1` as a new process many times.
//   blocks     For every adjacency file of the store's graph: how its blocks
//              are stored (doc/graph-format.md keeps a block compressed only
//              when zstd halves it). Rows per file (param = file name):
//              blocks_zstd (fraction of blocks stored compressed),
//              stored_bytes_per_edge and raw_bytes_per_edge (the blocks as
//              stored, and all of them decompressed, per stored edge
//              direction), any_gain_bytes_per_edge (every block as zstd at
//              the writer's level would shrink it, the rule before 2026-11-27: raw
//              blocks are compressed to know), and
//              zstd_decode_us (mean time to decompress one of its compressed
//              blocks; count = blocks); then the byte rows of all files
//              together (param "all").
//   load       Decodes the store's cites.out.adj completely into CSR arrays
//              (edges/s) and reports that file's own bytes/edge.
//   encode     For each --npb value: WriteAdjacency (the store's writer, with its
//              zstd level and rule, fsync included) to a temporary directory: write time
//              and bytes/edge of the whole file (header + index + blocks);
//              raw_blocks: the fraction of blocks stored without zstd (zstd
//              did not halve them).
//   random     For each --npb value: a fresh Adjacency (empty block cache; the
//              file itself is in the page cache, just written), --reads
//              Neighbours() calls on uniformly random node ids: ns per read
//              (median over --repeats), count = neighbour ids returned.
//   scan       For each --npb value: a fresh Adjacency reading every node in
//              id order, checking each list against the CSR: edges/s (median).
//   ranked     The ranked lists of every hub relation (doc/graph-format.md),
//              made again from the store's lists and paper.citations, as a
//              graph update makes them for every list it changes: each list
//              longer than the ranked length through RankList (rank keys made
//              once per entry, then a selection over integers) and, the
//              baseline in the same run, through the comparator RankList had
//              until 2026-12-01 (std::partial_sort whose comparator looks up
//              the attribute rank and citation count of both entries at every
//              comparison); both must agree. Rows per relation (param = file):
//              ranklist_ns and partial_sort_ns (ns per list entry, median of
//              --repeats; count = entries), and param "all".
//   compare    Other encodings of the same CSR, for the targets.md anchors
//              (delta+varint ~2.65 B/edge, raw u32 + zstd ~2.9 B/edge):
//                varint_raw       the litgraph block contents without zstd
//                                 (varint degree, delta+varint ids)
//                u32_raw          u32 degree + u32 ids per node, uncompressed
//                u32_zstd_block   the same u32 stream cut into --npb blocks,
//                                 each zstd level 3 (raw when not smaller), plus
//                                 the same 64-byte header and u64 index
//                u32_zstd_whole   the whole u32 stream as one zstd frame
//                                 (no random access; a lower bound)
//
// CSV on stdout: workload,param,value,unit,count. `count` is the number of
// results behind the timing (edges, neighbour ids returned, repeats), so a
// fast but wrong run stands out. Progress and the configuration go to stderr.
// Exit status: 0 ok, 2 usage, 4 store or I/O error, 5 a decoded list differs
// from the CSR.
#include <fmt/format.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "../lib/src/graph_build_parts.h"
#include "litgraph/coding.h"
#include "litgraph/graph.h"
#include "litgraph/graph_build.h"
#include "litgraph/store.h"

namespace {

using namespace litgraph;
using Clock = std::chrono::steady_clock;
// The identity of the files this benchmark writes and reads back.
const FileIdentity kBenchFile{{}, 1, "bench.adj"};

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void Row(const std::string& workload, const std::string& param, double value,
         const std::string& unit, uint64_t count) {
  std::printf("%s,%s,%.6g,%s,%llu\n", workload.c_str(), param.c_str(), value, unit.c_str(),
              static_cast<unsigned long long>(count));
  std::fflush(stdout);
}

[[noreturn]] void Die(int code, const std::string& msg) {
  std::fprintf(stderr, "litgraph-graph-bench: %s\n", msg.c_str());
  std::exit(code);
}

void Check(const Status& st) {
  if (!st.ok()) Die(4, st.message());
}

struct Csr {
  uint64_t num_nodes = 0;
  std::vector<uint64_t> offsets;
  std::vector<uint32_t> ids;
};

uint64_t FileSize(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) Die(4, path + ": cannot stat");
  return static_cast<uint64_t>(st.st_size);
}

// Appends the u32 stream of nodes [first, last): degree, then ids.
void AppendU32(const Csr& g, uint64_t first, uint64_t last, std::string* out) {
  auto put = [&](uint32_t v) { out->append(reinterpret_cast<const char*>(&v), 4); };
  for (uint64_t n = first; n < last; ++n) {
    put(static_cast<uint32_t>(g.offsets[n + 1] - g.offsets[n]));
    for (uint64_t k = g.offsets[n]; k < g.offsets[n + 1]; ++k) put(g.ids[k]);
  }
}

// RankList's rule by a comparator over both entries' rank and citations at
// every comparison: how ranked lists were made until 2026-12-01 (the
// `ranked` workload's baseline).
void ComparatorRankList(Rel rel, std::span<const uint32_t> ids, std::span<const uint32_t> attrs,
                        std::span<const uint32_t> citations, uint32_t length,
                        std::vector<uint32_t>* out_ids, std::vector<uint32_t>* out_attrs) {
  out_ids->clear();
  out_attrs->clear();
  if (ids.size() <= length) return;
  const bool with_attrs = !attrs.empty();
  const bool papers = GetRelInfo(rel).to == NodeType::kPaper;
  auto cites = [&](uint32_t p) {
    return papers && p < citations.size() ? CitationCount(citations[p]) : 0u;
  };
  auto rank = [&](uint32_t i) { return with_attrs ? RankedAttr(rel, attrs[i]) : 0u; };
  std::vector<uint32_t> order(ids.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::partial_sort(order.begin(), order.begin() + length, order.end(),
                    [&](uint32_t x, uint32_t y) {
                      if (rank(x) != rank(y)) return rank(x) > rank(y);
                      uint32_t cx = cites(ids[x]), cy = cites(ids[y]);
                      if (cx != cy) return cx > cy;
                      return ids[x] < ids[y];
                    });
  for (size_t k = 0; k < length; ++k) {
    out_ids->push_back(ids[order[k]]);
    if (with_attrs) out_attrs->push_back(attrs[order[k]]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string db, tmp_parent = "/tmp",
                  benchmarks = "open,blocks,load,encode,random,scan,ranked,compare";
  std::string npb_list = "16,32,64,128,256";
  uint64_t reads = 200000, seed = 1;
  int repeats = 5;
  CLI::App app{"litgraph-graph-bench: store open time and adjacency format trade-offs"};
  app.add_option("--db", db, "Store directory")->required();
  app.add_option("--benchmarks", benchmarks,
                 "Workloads: open,blocks,load,encode,random,scan,ranked,compare");
  app.add_option("--reads", reads, "Random neighbour reads per repeat (default 200000)");
  app.add_option("--repeats", repeats, "Repeats per timing; the median is reported (default 5)")
      ->check(CLI::PositiveNumber);
  app.add_option("--npb", npb_list, "Nodes per block to try (default 16,32,64,128,256)");
  app.add_option("--seed", seed, "Seed of the random node ids (default 1)");
  app.add_option("--tmp", tmp_parent, "Parent of the temporary directory (default /tmp)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  auto want = [&](const char* w) {
    std::stringstream ss(benchmarks);
    std::string item;
    while (std::getline(ss, item, ','))
      if (item == w) return true;
    return false;
  };
  std::vector<uint32_t> npbs;
  {
    std::stringstream ss(npb_list);
    std::string item;
    while (std::getline(ss, item, ',')) {
      int v = std::atoi(item.c_str());
      if (v <= 0) Die(2, "--npb: positive integers expected");
      npbs.push_back(static_cast<uint32_t>(v));
    }
  }

  try {
    std::printf("workload,param,value,unit,count\n");

    // ---- open -------------------------------------------------------------
    if (want("open")) {
      std::vector<double> t_store, t_graph, t_first, t_total;
      uint64_t first_deg = 0;
      for (int r = 0; r < repeats; ++r) {
        auto t0 = Clock::now();
        auto store = Store::Open(db, Store::Mode::kRead);
        Check(store.status());
        auto t1 = Clock::now();
        auto graph = Graph::Open(store->get());
        Check(graph.status());
        auto t2 = Clock::now();
        Adjacency& out = (*graph)->adj(Rel::kCitesOut);
        // A paper from the middle of the id space: not a block at the start
        // of the file that the header read may already have faulted in.
        first_deg = out.Neighbours(out.num_nodes() / 2).size();
        auto t3 = Clock::now();
        t_store.push_back(Seconds(t0, t1) * 1e3);
        t_graph.push_back(Seconds(t1, t2) * 1e3);
        t_first.push_back(Seconds(t2, t3) * 1e3);
        t_total.push_back(Seconds(t0, t3) * 1e3);
      }
      Row("open_store", "first", t_store[0], "ms", 1);
      Row("open_graph", "first", t_graph[0], "ms", 1);
      Row("first_neighbours", "first", t_first[0], "ms", first_deg);
      Row("open_total", "first", t_total[0], "ms", 1);
      if (repeats > 1) {
        Row("open_store", "median", Median(t_store), "ms", t_store.size());
        Row("open_graph", "median", Median(t_graph), "ms", t_graph.size());
        Row("first_neighbours", "median", Median(t_first), "ms", first_deg);
        Row("open_total", "median", Median(t_total), "ms", t_total.size());
      }
    }

    // ---- ranked -----------------------------------------------------------
    if (want("ranked")) {
      auto store = Store::Open(db, Store::Mode::kRead);
      Check(store.status());
      auto graph = Graph::Open(store->get());
      Check(graph.status());
      CheckedFile cf;
      Check((*graph)->view().OpenFile("paper.citations", &cf));
      const auto* cp = reinterpret_cast<const uint32_t*>(cf.Read(0, cf.size()));
      if (!cp) Check(cf.status());
      const std::span<const uint32_t> citations(cp, cf.size() / 4);
      double all_new = 0, all_old = 0;
      uint64_t all_entries = 0;
      for (int ri = 0; ri < kRelCount; ++ri) {
        const Rel r = static_cast<Rel>(ri);
        if (!GetRelInfo(r).ranked) continue;
        Adjacency& adj = (*graph)->adj(r);
        // The lists that have a ranked list, copied out once (not timed).
        std::vector<uint64_t> offsets{0};
        std::vector<uint32_t> ids, attrs;
        for (uint64_t n = 0; n < adj.num_nodes(); ++n) {
          Adjacency::List l = adj.Neighbours(n);
          if (l.size() <= kRankedLength) continue;
          ids.insert(ids.end(), l.ids.begin(), l.ids.end());
          attrs.insert(attrs.end(), l.attrs.begin(), l.attrs.end());
          offsets.push_back(ids.size());
        }
        Check((*graph)->status());
        if (ids.empty()) continue;
        const bool with_attrs = !attrs.empty();
        std::vector<double> t_new, t_old;
        std::vector<uint32_t> a_ids, a_attrs, b_ids, b_attrs;
        // which: 0 RankList, 1 the comparator, 2 both, compared (not timed).
        auto pass = [&](int which) {
          for (size_t i = 0; i + 1 < offsets.size(); ++i) {
            std::span<const uint32_t> li(ids.data() + offsets[i], offsets[i + 1] - offsets[i]);
            std::span<const uint32_t> la;
            if (with_attrs) la = {attrs.data() + offsets[i], li.size()};
            if (which != 1)
              graph_parts::RankList(r, li, la, citations, kRankedLength, &a_ids, &a_attrs);
            if (which != 0)
              ComparatorRankList(r, li, la, citations, kRankedLength, &b_ids, &b_attrs);
            if (which == 2 && (a_ids != b_ids || a_attrs != b_attrs))
              Die(5, std::string(GetRelInfo(r).file) + ": ranked lists differ");
          }
        };
        pass(2);
        for (int rep = 0; rep < repeats; ++rep)
          for (int which = 0; which < 2; ++which) {
            auto t0 = Clock::now();
            pass(which);
            (which == 0 ? t_new : t_old).push_back(Seconds(t0, Clock::now()));
          }
        const double n = static_cast<double>(ids.size());
        Row("ranked", std::string(GetRelInfo(r).file) + ".ranklist_ns", Median(t_new) / n * 1e9,
            "ns", ids.size());
        Row("ranked", std::string(GetRelInfo(r).file) + ".partial_sort_ns", Median(t_old) / n * 1e9,
            "ns", ids.size());
        all_new += Median(t_new);
        all_old += Median(t_old);
        all_entries += ids.size();
      }
      if (all_entries) {
        Row("ranked", "all.ranklist_ns", all_new / all_entries * 1e9, "ns", all_entries);
        Row("ranked", "all.partial_sort_ns", all_old / all_entries * 1e9, "ns", all_entries);
      }
    }

    // ---- blocks -----------------------------------------------------------
    if (want("blocks")) {
      auto store = Store::Open(db, Store::Mode::kRead);
      Check(store.status());
      auto graph = Graph::Open(store->get());
      Check(graph.status());
      ZSTD_DCtx* dctx = ZSTD_createDCtx();
      ZSTD_CCtx* cctx = ZSTD_createCCtx();  // at the writer's level
      ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, GraphBuildOptions().zstd_level);
      ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
      std::string out, packed;
      uint64_t all_edges = 0, all_stored = 0, all_raw = 0, all_any_gain = 0;
      for (const RelInfo& r : AllRelations()) {
        const std::string name = std::string(r.file) + ".adj";
        if (!(*graph)->view().Has(name)) continue;
        Adjacency adj;
        Check(adj.Open((*graph)->view(), name));
        if (adj.sparse()) continue;  // a delta's lists
        const uint64_t blocks = (adj.num_nodes() + adj.nodes_per_block() - 1) /
                                std::max<uint32_t>(1, adj.nodes_per_block());
        uint64_t zstd = 0, stored = 0, raw = 0, any_gain = 0;
        double decode_s = 0;
        for (uint64_t b = 0; b < blocks; ++b) {
          std::string_view bytes;
          bool is_raw = false;
          if (!adj.StoredBlock(b, &bytes, &is_raw)) Die(4, name + ": a damaged block index");
          stored += bytes.size();
          if (is_raw) {
            // What the any-gain rule would store: the frame when it is smaller.
            packed.resize(ZSTD_compressBound(bytes.size()));
            const size_t n =
                ZSTD_compress2(cctx, packed.data(), packed.size(), bytes.data(), bytes.size());
            raw += bytes.size();
            any_gain += ZSTD_isError(n) ? bytes.size() : std::min<uint64_t>(n, bytes.size());
            continue;
          }
          ++zstd;
          const unsigned long long n = ZSTD_getFrameContentSize(bytes.data(), bytes.size());
          if (n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN)
            Die(4, name + ": a damaged block");
          out.resize(n);
          auto t0 = Clock::now();
          size_t got = ZSTD_decompressDCtx(dctx, out.data(), n, bytes.data(), bytes.size());
          decode_s += Seconds(t0, Clock::now());
          if (ZSTD_isError(got) || got != n) Die(4, name + ": a damaged block");
          raw += n;
          any_gain += std::min<uint64_t>(n, bytes.size());
        }
        const double edges = std::max<double>(1, static_cast<double>(adj.num_edges()));
        Row("blocks_zstd", name, blocks ? static_cast<double>(zstd) / blocks : 0, "fraction",
            blocks);
        Row("stored_bytes_per_edge", name, stored / edges, "B", adj.num_edges());
        Row("raw_bytes_per_edge", name, raw / edges, "B", adj.num_edges());
        Row("any_gain_bytes_per_edge", name, any_gain / edges, "B", adj.num_edges());
        if (zstd) Row("zstd_decode_us", name, decode_s * 1e6 / zstd, "us", zstd);
        all_edges += adj.num_edges();
        all_stored += stored;
        all_raw += raw;
        all_any_gain += any_gain;
      }
      const double edges = std::max<double>(1, static_cast<double>(all_edges));
      Row("stored_bytes_per_edge", "all", all_stored / edges, "B", all_edges);
      Row("raw_bytes_per_edge", "all", all_raw / edges, "B", all_edges);
      Row("any_gain_bytes_per_edge", "all", all_any_gain / edges, "B", all_edges);
      ZSTD_freeDCtx(dctx);
      ZSTD_freeCCtx(cctx);
    }

    bool need_csr =
        want("load") || want("encode") || want("random") || want("scan") || want("compare");
    if (!need_csr) return 0;

    // ---- load -------------------------------------------------------------
    auto store = Store::Open(db, Store::Mode::kRead);
    Check(store.status());
    auto graph = Graph::Open(store->get());
    Check(graph.status());
    const GenerationView& view = (*graph)->view();
    Csr g;
    uint32_t store_npb = 0;
    uint64_t store_bytes = 0;
    {
      Adjacency adj;
      Check(adj.Open(view, "cites.out.adj"));
      store_npb = adj.nodes_per_block();
      store_bytes = adj.file_bytes();
      g.num_nodes = adj.num_nodes();
      g.offsets.reserve(g.num_nodes + 1);
      g.ids.reserve(adj.num_edges());
      g.offsets.push_back(0);
      auto t0 = Clock::now();
      for (uint64_t n = 0; n < g.num_nodes; ++n) {
        auto l = adj.Neighbours(n);
        g.ids.insert(g.ids.end(), l.ids.begin(), l.ids.end());
        g.offsets.push_back(g.ids.size());
      }
      auto t1 = Clock::now();
      if (g.ids.size() != adj.num_edges())
        Die(5, fmt::format("{}: decoded {} edges, header says {}", view.Path("cites.out.adj"),
                           g.ids.size(), adj.num_edges()));
      std::fprintf(stderr, "cites.out: %llu nodes, %zu edges, %u nodes/block, %llu bytes\n",
                   static_cast<unsigned long long>(g.num_nodes), g.ids.size(), store_npb,
                   static_cast<unsigned long long>(store_bytes));
      if (want("load")) {
        Row("load_csr", fmt::format("npb={}", store_npb), g.ids.size() / Seconds(t0, t1), "edges/s",
            g.ids.size());
        Row("store_file", fmt::format("npb={}", store_npb),
            static_cast<double>(store_bytes) / g.ids.size(), "B/edge", g.ids.size());
      }
    }
    const uint64_t E = g.ids.size();
    if (E == 0) Die(4, view.Path("cites.out.adj") + ": no citation edges");

    // ---- encode / random / scan per block size ------------------------------
    std::string tmpl = tmp_parent + "/litgraph-graph-bench-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) Die(4, tmpl + ": cannot create a temporary directory");
    std::string tmp = buf.data();
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<uint64_t> pick(0, g.num_nodes - 1);
    std::vector<uint64_t> targets(reads);
    for (auto& t : targets) t = pick(rng);

    bool per_npb = want("encode") || want("random") || want("scan");
    for (uint32_t npb : npbs) {
      if (!per_npb) break;
      std::string path = fmt::format("{}/cites.out.{}.adj", tmp, npb);
      std::string param = fmt::format("npb={}", npb);
      auto t0 = Clock::now();
      Check(WriteAdjacency(path, kBenchFile, g.num_nodes, g.offsets, g.ids, {}, npb, 3));
      auto t1 = Clock::now();
      uint64_t bytes = FileSize(path);
      if (want("encode")) {
        Row("write", param, Seconds(t0, t1), "s", E);
        Row("bytes_per_edge", param, static_cast<double>(bytes) / E, "B/edge", E);
        // Blocks stored raw because zstd did not shrink them (index bit 63).
        uint64_t blocks = (g.num_nodes + npb - 1) / npb, raw_blocks = 0;
        CheckedFile f;
        Check(f.Open(path, kBenchFile));
        uint64_t index_at = 0;  // header field: the block index's offset
        const uint8_t* h = f.Read(48, 8);
        if (h) std::memcpy(&index_at, h, 8);
        const uint8_t* index = h ? f.Read(index_at, blocks * 8) : nullptr;
        if (!index) Die(4, path + ": cannot read the block index");
        for (uint64_t i = 0; i < blocks; ++i) {
          uint64_t v;
          std::memcpy(&v, index + i * 8, 8);
          raw_blocks += v >> 63;
        }
        Row("raw_blocks", param, static_cast<double>(raw_blocks) / blocks, "fraction", blocks);
      }
      if (want("random")) {
        std::vector<double> ns;
        uint64_t returned = 0, blocks = 0;
        for (int r = 0; r < repeats; ++r) {
          Adjacency adj;
          Check(adj.Open(path, kBenchFile));
          uint64_t got = 0;
          auto a = Clock::now();
          for (uint64_t t : targets) got += adj.Neighbours(t).size();
          auto b = Clock::now();
          ns.push_back(Seconds(a, b) * 1e9 / std::max<uint64_t>(1, reads));
          returned = got;
          blocks = adj.blocks_decoded();
        }
        Row("random_read", param, Median(ns), "ns/read", returned);
        Row("random_read_blocks", param, static_cast<double>(blocks) / std::max<uint64_t>(1, reads),
            "blocks/read", blocks);
      }
      if (want("scan")) {
        std::vector<double> eps;
        for (int r = 0; r < repeats; ++r) {
          Adjacency adj;
          Check(adj.Open(path, kBenchFile));
          uint64_t got = 0;
          auto a = Clock::now();
          for (uint64_t n = 0; n < g.num_nodes; ++n) {
            auto l = adj.Neighbours(n);
            uint64_t lo = g.offsets[n], hi = g.offsets[n + 1];
            if (l.size() != hi - lo ||
                (l.size() && std::memcmp(l.ids.data(), g.ids.data() + lo, l.size() * 4) != 0))
              Die(5, fmt::format("{}: node {} decodes differently from the CSR", path, n));
            got += l.size();
          }
          auto b = Clock::now();
          if (got != E) Die(5, fmt::format("{}: scan returned {} edges of {}", path, got, E));
          eps.push_back(E / Seconds(a, b));
        }
        Row("scan", param, Median(eps), "edges/s", E);
      }
      std::filesystem::remove(path);
      std::fprintf(stderr, "npb %u done\n", npb);
    }

    // ---- compare ------------------------------------------------------------
    if (want("compare")) {
      uint64_t varint = 0;
      for (uint64_t n = 0; n < g.num_nodes; ++n) {
        uint64_t lo = g.offsets[n], hi = g.offsets[n + 1];
        varint += VarintLength(hi - lo);
        uint32_t prev = 0;
        for (uint64_t k = lo; k < hi; ++k) {
          varint += VarintLength(k == lo ? g.ids[k] : g.ids[k] - prev);
          prev = g.ids[k];
        }
      }
      Row("varint_raw", "-", static_cast<double>(varint) / E, "B/edge", E);
      Row("u32_raw", "-", static_cast<double>((g.num_nodes + E) * 4) / E, "B/edge", E);
      ZSTD_CCtx* cctx = ZSTD_createCCtx();
      ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 3);
      ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0);
      ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
      std::string raw, comp;
      for (uint32_t npb : npbs) {
        uint64_t blocks = (g.num_nodes + npb - 1) / npb;
        uint64_t total = Adjacency::kHeaderSize + (blocks + 1) * 8;
        for (uint64_t b = 0; b < blocks; ++b) {
          raw.clear();
          AppendU32(g, b * npb, std::min<uint64_t>(g.num_nodes, (b + 1) * npb), &raw);
          comp.resize(ZSTD_compressBound(raw.size()));
          size_t n = ZSTD_compress2(cctx, comp.data(), comp.size(), raw.data(), raw.size());
          total += !ZSTD_isError(n) && n < raw.size() ? n : raw.size();
        }
        Row("u32_zstd_block", fmt::format("npb={}", npb), static_cast<double>(total) / E, "B/edge",
            E);
      }
      raw.clear();
      raw.reserve((g.num_nodes + E) * 4);
      AppendU32(g, 0, g.num_nodes, &raw);
      comp.resize(ZSTD_compressBound(raw.size()));
      size_t n = ZSTD_compress2(cctx, comp.data(), comp.size(), raw.data(), raw.size());
      if (ZSTD_isError(n)) Die(4, "zstd failed");
      Row("u32_zstd_whole", "-", static_cast<double>(n) / E, "B/edge", E);
      ZSTD_freeCCtx(cctx);
    }
    std::filesystem::remove_all(tmp);
  } catch (const StatusError& e) {
    Die(4, e.what());
  } catch (const std::exception& e) {
    Die(5, e.what());
  }
  return 0;
}
