// litgraph-vector-bench: semantic search recall and latency on a real store,
// the store's own HNSW indexes against exact brute force in the same run.
//
//   litgraph-vector-bench --db STORE [--queries 200] [--seed 1]
//                         [--efs 16,32,64,100,200] [--k 10] [--top 60]
//                         [--top-ef 120] [--repeats 3] [--sets NAME,...]
//                         [--from-delta | --papers FILE] [--keywords FILE]
//   litgraph-vector-bench --db STORE --open-only
//
// Query sets (each --queries queries, random papers, deterministic for --seed;
// papers without the needed vector are skipped and redrawn):
//   abstract_vec   the stored abstract vector of a random paper, searched in
//                  the abstract index (query by example: the paper itself is
//                  among the exact top 10)
//   title_vec      the stored title vector of a random paper, in the title index
//   title_text     a random paper's title embedded with SemanticIndex::EmbedText
//                  (the store's model, as litgraph-tri-search embeds a query),
//                  searched in the title index ...
//   title_text_abs ... and the same vectors in the abstract index (tri-search
//                  searches both fields with one query vector)
//   keyword_vec    the stored vector of a random keyword, in the keyword index
//                  (of the field's delta with --from-delta; from the dense
//                  keyword ids in FILE with --keywords FILE, e.g. the keywords
//                  an update added)
// With --from-delta the papers are drawn from each field's delta (the papers
// `embed --missing` embedded since the base: vectors.h), whose own index
// answers for them. With --papers, from the dense ids in FILE (one per line),
// e.g. the papers whose vectors a compaction moved.
//
// Workloads per query set:
//   brute          BruteForceSearch top-k: the exact answer and the peer
//                  (a scan of every present row); latency per query
//   hnsw           SemanticIndex::Search(field, q, k, ef) for each --efs value:
//                  recall@k against brute, latency per query
//   hnsw_top       top --top (60) at each ef of --top-ef (default 120 =
//                  max(2 x 60, 100), what litgraph-tri-search and find-paper
//                  use; a comma-separated list sweeps): latency,
//                  recall@k of its first k and recall@top against brute top-top
//   hnswlib        with --hnswlib, the peer on the SAME graph: hnswlib's own
//                  index file (<field>.hnswlib, which the .hnsw was exported
//                  from) loaded into RAM, searchKnn at the same ef values
//                  (top-k and top --top): recall and latency, in process
// Recall counts a hit when its id is in the exact answer or its score ties the
// exact k-th score (within 1e-6): duplicate texts give identical vectors.
// Latency: each query is run --repeats times in a row and its median kept;
// p50 / p99 / mean are over queries, in microseconds, warm: the brute-force
// pass reads every vector first and one untimed HNSW pass at the largest ef
// touches the index before timing.
//
// Bytes per vector (file size / rows) are computed by bench/embed_bench.py.
//   --open-only    one open in this process: Store::Open, SemanticIndex::Open,
//                  EmbedText of a fixed query, the first Search (title
//                  field, top 60, ef 120; maps the field's files); ms each.
//                  bench/embed_bench.py runs this in fresh processes.
//
// CSV on stdout: workload,field,impl,k,ef,queries,recall,p50_us,p99_us,mean_us,mean_results
// (--open-only: workload,param,value,unit,count). Progress on stderr.
// Exit status: 0 ok, 2 usage, 4 store error.
#include <fmt/format.h>
#include <hnswlib/hnswlib.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "litgraph/semantic.h"
#include "litgraph/store.h"

namespace {

using namespace litgraph;
using Clock = std::chrono::steady_clock;

double Us(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

double Pct(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(p / 100 * (v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

// Runs search() `repeats` times; its median time in microseconds, and the
// last run's hits in *hits.
template <typename Search>
double MedianUs(int repeats, std::vector<VectorHit>* hits, Search&& search) {
  std::vector<double> r;
  for (int rep = 0; rep < repeats; ++rep) {
    auto a = Clock::now();
    *hits = search();
    r.push_back(Us(a, Clock::now()));
  }
  return Pct(r, 50);
}

double Mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / v.size();
}

// hnswlib's space over half rows, as the library builds its indexes (vectors.h).
class HalfSpace : public hnswlib::SpaceInterface<float> {
 public:
  explicit HalfSpace(int dim) : dim_(static_cast<size_t>(dim)) {}
  size_t get_data_size() override { return HalfRowBytes(static_cast<int>(dim_)); }
  hnswlib::DISTFUNC<float> get_dist_func() override { return HalfDistance; }
  void* get_dist_func_param() override { return &dim_; }

 private:
  size_t dim_;
};

// Whether a saved hnswlib index at `path` holds half rows of `dim` (its
// label_offset less its offsetData, hnswalg.h saveIndex).
bool HnswLibHoldsHalf(const std::string& path, int dim) {
  std::ifstream in(path, std::ios::binary);
  uint64_t words[6] = {};
  in.read(reinterpret_cast<char*>(words), sizeof words);
  return in && words[4] - words[5] == HalfRowBytes(dim);
}

struct QuerySet {
  std::string name;
  VecField field;
  std::vector<std::vector<float>> q;
};

// Fraction of `got`'s first k hits that are in the exact top k (ties by score count).
// A hit counts when it is one of the exact top k or scores within tie_eps of
// the k-th (ann-benchmarks counts within 1e-3 of the k-th distance).
float tie_eps = 1e-6f;

double Recall(const std::vector<VectorHit>& got, const std::vector<VectorHit>& exact, size_t k) {
  size_t m = std::min(k, exact.size());
  if (m == 0) return 1.0;
  std::unordered_set<uint32_t> ids;
  for (size_t i = 0; i < m; ++i) ids.insert(exact[i].id);
  float kth = exact[m - 1].score;
  size_t hit = 0;
  for (size_t i = 0; i < std::min(m, got.size()); ++i)
    if (ids.count(got[i].id) || got[i].score >= kth - tie_eps) ++hit;
  return static_cast<double>(hit) / m;
}

int OpenOnly(const std::string& db) {
  auto t0 = Clock::now();
  auto store_or = Store::Open(db, Store::Mode::kRead);
  if (!store_or.ok()) {
    fmt::print(stderr, "litgraph-vector-bench: error: {}\n", store_or.status().message());
    return 4;
  }
  auto t1 = Clock::now();
  auto sem_or = SemanticIndex::Open(store_or->get());
  if (!sem_or.ok()) {
    fmt::print(stderr, "litgraph-vector-bench: error: {}\n", sem_or.status().message());
    return 4;
  }
  SemanticIndex& sem = **sem_or;
  auto t2 = Clock::now();
  auto v = sem.EmbedText("graph neural networks for protein structure prediction");
  auto t3 = Clock::now();
  size_t n = 0;
  if (v.ok() && !v->empty()) n = sem.Search(VecField::kTitle, v->data(), 60, 120).size();
  auto t4 = Clock::now();
  fmt::print("workload,param,value,unit,count\n");
  fmt::print("open,store_open,{:.3f},ms,1\n", Us(t0, t1) / 1000);
  fmt::print("open,semantic_open,{:.3f},ms,1\n", Us(t1, t2) / 1000);
  fmt::print("open,embed_text,{:.3f},ms,1\n", Us(t2, t3) / 1000);
  fmt::print("open,first_search_top60,{:.3f},ms,{}\n", Us(t3, t4) / 1000, n);
  fmt::print("open,total,{:.3f},ms,{}\n", Us(t0, t4) / 1000, n);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"litgraph-vector-bench: HNSW recall and latency against brute force"};
  std::string db, efs_arg = "16,32,64,100,200", top_efs_arg = "120", sets_arg;
  size_t queries = 200, k = 10, top = 60;
  int repeats = 3;
  uint64_t seed = 1;
  bool open_only = false, with_hnswlib = false, from_delta = false;
  std::string papers_file, keywords_file;
  app.add_option("--db", db, "Store directory")->required();
  app.add_option("--queries", queries, "Queries per query set (default 200)");
  app.add_option("--seed", seed, "Random seed (default 1)");
  app.add_option("--efs", efs_arg, "Beam widths for top-k (default 16,32,64,100,200)");
  app.add_option("--k", k, "k for recall@k (default 10)");
  app.add_option("--top", top, "The tools' result count (default 60)");
  app.add_option("--top-ef", top_efs_arg, "ef values for --top (default 120 = max(2 x 60, 100))");
  app.add_option("--sets", sets_arg, "Only these query sets (comma-separated names)");
  app.add_option("--repeats", repeats, "Runs per query, median kept (default 3)");
  app.add_option("--tie-eps", tie_eps,
                 "A hit within this of the k-th exact score counts as found (default 1e-6)");
  app.add_flag("--open-only", open_only, "Time one open + first search and exit");
  app.add_flag("--from-delta", from_delta, "Draw the query papers from the fields' deltas");
  app.add_option("--papers", papers_file, "Draw the query papers from the dense ids in FILE");
  app.add_option("--keywords", keywords_file,
                 "Draw the query keywords from the dense keyword ids in FILE");
  app.add_flag("--hnswlib", with_hnswlib,
               "Also search the same graph with hnswlib (<field>.hnswlib, loaded into RAM)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (open_only) return OpenOnly(db);
  auto split = [](const std::string& arg) {
    std::vector<std::string> out;
    std::stringstream ss(arg);
    std::string tok;
    while (std::getline(ss, tok, ','))
      if (!tok.empty()) out.push_back(tok);
    return out;
  };
  std::vector<size_t> efs, top_efs;
  for (const auto& t : split(efs_arg)) efs.push_back(std::stoul(t));
  for (const auto& t : split(top_efs_arg)) top_efs.push_back(std::stoul(t));
  std::vector<std::string> sets = split(sets_arg);
  try {
    auto store_or = Store::Open(db, Store::Mode::kRead);
    if (!store_or.ok()) throw StatusError(store_or.status());
    Store& store = **store_or;
    auto sem_or = SemanticIndex::Open(&store);
    if (!sem_or.ok()) throw StatusError(sem_or.status());
    SemanticIndex& sem = **sem_or;
    const int dim = sem.dim();
    std::string vdir = fmt::format("{}/vectors.{}", db, store.Generation("vectors"));
    fmt::print(stderr, "store {} vectors {} model {} dim {}\n", db, vdir, sem.model_id(), dim);

    fmt::print("workload,field,impl,k,ef,queries,recall,p50_us,p99_us,mean_us,mean_results\n");
    // Query sets.
    const FieldVectors& tv = sem.vectors(VecField::kTitle);
    const FieldVectors& av = sem.vectors(VecField::kAbstract);
    uint64_t rows = std::min(tv.rows(), av.rows());
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<uint64_t> any(1, rows - 1);
    std::vector<uint32_t> title_delta = tv.DeltaIds(), abstract_delta = av.DeltaIds();
    if (from_delta && (title_delta.empty() || abstract_delta.empty())) {
      fmt::print(stderr, "{}: --from-delta: a field has no delta\n", db);
      return 2;
    }
    if (!papers_file.empty()) {
      std::ifstream in(papers_file);
      title_delta.clear();
      for (uint32_t id; in >> id;) title_delta.push_back(id);
      if (title_delta.empty()) {
        fmt::print(stderr, "{}: no paper ids\n", papers_file);
        return 2;
      }
      abstract_delta = title_delta;
      from_delta = true;
    }
    // A random paper: of the field's delta with --from-delta.
    auto pick_in = [&](const std::vector<uint32_t>& delta) -> uint64_t {
      if (!from_delta) return any(rng);
      return delta[std::uniform_int_distribution<size_t>(0, delta.size() - 1)(rng)];
    };
    auto copy = [&](const float* p) { return std::vector<float>(p, p + dim); };
    QuerySet abs_vec{"abstract_vec", VecField::kAbstract, {}},
        title_vec{"title_vec", VecField::kTitle, {}},
        title_text{"title_text", VecField::kTitle, {}},
        title_text_abs{"title_text_abs", VecField::kAbstract, {}};
    size_t tries = 0;
    while (abs_vec.q.size() < queries && ++tries < queries * 100)
      if (const float* p = av.Row(pick_in(abstract_delta))) abs_vec.q.push_back(copy(p));
    tries = 0;
    while (title_vec.q.size() < queries && ++tries < queries * 100)
      if (const float* p = tv.Row(pick_in(title_delta))) title_vec.q.push_back(copy(p));
    tries = 0;
    size_t unembeddable = 0;
    while (title_text.q.size() < queries && ++tries < queries * 100) {
      std::string t =
          store.GetText(TextColumn::kPaperTitle, static_cast<int64_t>(pick_in(title_delta)));
      if (t.empty()) continue;
      auto v = sem.EmbedText(t);
      if (!v.ok() || v->empty()) {  // empty: no term the model knows
        ++unembeddable;
        continue;
      }
      title_text.q.push_back(*v);
    }
    title_text_abs.q = title_text.q;
    // Keywords: random, of the keyword field's delta, or from --keywords.
    const FieldVectors& kv = sem.vectors(VecField::kKeyword);
    QuerySet keyword_vec{"keyword_vec", VecField::kKeyword, {}};
    std::vector<uint32_t> keyword_ids = from_delta ? kv.DeltaIds() : std::vector<uint32_t>();
    if (!keywords_file.empty()) {
      std::ifstream in(keywords_file);
      keyword_ids.clear();
      for (uint32_t id; in >> id;) keyword_ids.push_back(id);
    }
    tries = 0;
    while (kv.rows() > 1 && keyword_vec.q.size() < queries && ++tries < queries * 100) {
      const uint64_t id =
          keyword_ids.empty()
              ? std::uniform_int_distribution<uint64_t>(1, kv.rows() - 1)(rng)
              : keyword_ids[std::uniform_int_distribution<size_t>(0, keyword_ids.size() - 1)(rng)];
      if (const float* p = kv.Row(id)) keyword_vec.q.push_back(copy(p));
    }
    fmt::print(
        stderr,
        "queries: abstract_vec {} title_vec {} title_text {} (titles with no known term: {}) "
        "keyword_vec {}\n",
        abs_vec.q.size(), title_vec.q.size(), title_text.q.size(), unembeddable,
        keyword_vec.q.size());

    hnswlib::InnerProductSpace space(static_cast<size_t>(dim));
    HalfSpace half_space(dim);
    std::map<VecField, std::unique_ptr<hnswlib::HierarchicalNSW<float>>> hl;
    std::vector<uint16_t> half(static_cast<size_t>(dim));
    auto hl_search = [&](VecField f, const float* q, size_t kk) {
      std::vector<VectorHit> out;
      // An index of half rows (vectors.h) is searched by the query's.
      const bool is_half = hl[f]->data_size_ == HalfRowBytes(dim);
      if (is_half) HalfRow(q, dim, half.data());
      auto pq = hl[f]->searchKnn(is_half ? static_cast<const void*>(half.data()) : q, kk);
      while (!pq.empty()) {
        out.push_back({static_cast<uint32_t>(pq.top().second), 1.0f - pq.top().first});
        pq.pop();
      }
      std::reverse(out.begin(), out.end());
      return out;
    };
    size_t max_ef = efs.empty() ? 100 : *std::max_element(efs.begin(), efs.end());
    for (QuerySet* qs : {&abs_vec, &title_vec, &title_text, &title_text_abs, &keyword_vec}) {
      const char* fname = VecFieldName(qs->field);
      const FieldVectors& vf = sem.vectors(qs->field);
      size_t n = qs->q.size();
      if (!sets.empty() && std::find(sets.begin(), sets.end(), qs->name) == sets.end()) continue;
      if (n == 0 || vf.present() == 0) {
        fmt::print(stderr, "{}: skipped ({} queries, {} {} vectors)\n", qs->name, n, vf.present(),
                   fname);
        continue;
      }
      std::vector<std::vector<VectorHit>> exact(n), exact_top(n);
      std::vector<double> lat, lat_top;
      double results = 0;
      for (size_t i = 0; i < n; ++i) {
        lat.push_back(MedianUs(repeats, &exact[i], [&] { return vf.Exact(qs->q[i].data(), k); }));
        results += exact[i].size();
        exact_top[i] = vf.Exact(qs->q[i].data(), top);
        if (i % 50 == 49) fmt::print(stderr, "{} brute {}/{}\n", qs->name, i + 1, n);
      }
      fmt::print("{},{},brute,{},0,{},1.0000,{:.1f},{:.1f},{:.1f},{:.2f}\n", qs->name, fname, k, n,
                 Pct(lat, 50), Pct(lat, 99), Mean(lat), results / n);
      std::fflush(stdout);
      for (size_t i = 0; i < n; ++i)
        sem.Search(qs->field, qs->q[i].data(), k, max_ef);  // warm, untimed
      for (size_t ef : efs) {
        std::vector<double> l;
        double rec = 0, res = 0;
        for (size_t i = 0; i < n; ++i) {
          std::vector<VectorHit> hits;
          l.push_back(MedianUs(repeats, &hits,
                               [&] { return sem.Search(qs->field, qs->q[i].data(), k, ef); }));
          rec += Recall(hits, exact[i], k);
          res += hits.size();
        }
        fmt::print("{},{},hnsw,{},{},{},{:.4f},{:.1f},{:.1f},{:.1f},{:.2f}\n", qs->name, fname, k,
                   ef, n, rec / n, Pct(l, 50), Pct(l, 99), Mean(l), res / n);
        std::fflush(stdout);
      }
      for (size_t top_ef : top_efs) {
        std::vector<double> l;
        double rec_k = 0, rec_top = 0, res = 0;
        for (size_t i = 0; i < n; ++i) {
          std::vector<VectorHit> hits;
          l.push_back(MedianUs(
              repeats, &hits, [&] { return sem.Search(qs->field, qs->q[i].data(), top, top_ef); }));
          rec_k += Recall(hits, exact[i], k);
          rec_top += Recall(hits, exact_top[i], top);
          res += hits.size();
        }
        fmt::print("{},{},hnsw_top{}_recall{},{},{},{},{:.4f},{:.1f},{:.1f},{:.1f},{:.2f}\n",
                   qs->name, fname, top, k, top, top_ef, n, rec_k / n, Pct(l, 50), Pct(l, 99),
                   Mean(l), res / n);
        fmt::print("{},{},hnsw_top{}_recall{},{},{},{},{:.4f},{:.1f},{:.1f},{:.1f},{:.2f}\n",
                   qs->name, fname, top, top, top, top_ef, n, rec_top / n, Pct(l, 50), Pct(l, 99),
                   Mean(l), res / n);
        std::fflush(stdout);
      }
      if (with_hnswlib) {
        if (!hl.count(qs->field)) {
          std::string path = vdir + "/" + fname + ".hnswlib";
          auto a = Clock::now();
          hl[qs->field] = std::make_unique<hnswlib::HierarchicalNSW<float>>(
              HnswLibHoldsHalf(path, dim)
                  ? static_cast<hnswlib::SpaceInterface<float>*>(&half_space)
                  : &space,
              path);
          fmt::print(stderr, "hnswlib: loaded {} in {:.1f} s\n", path, Us(a, Clock::now()) / 1e6);
        }
        auto& index = *hl[qs->field];
        for (size_t i = 0; i < n; ++i) {  // warm, untimed
          index.setEf(max_ef);
          hl_search(qs->field, qs->q[i].data(), k);
        }
        auto sweep = [&](const std::string& impl, size_t kk, size_t ef, bool also_top) {
          index.setEf(ef);
          std::vector<double> l;
          double rec_k = 0, rec_top = 0, res = 0;
          for (size_t i = 0; i < n; ++i) {
            std::vector<VectorHit> hits;
            l.push_back(MedianUs(repeats, &hits,
                                 [&] { return hl_search(qs->field, qs->q[i].data(), kk); }));
            rec_k += Recall(hits, exact[i], k);
            if (also_top) rec_top += Recall(hits, exact_top[i], top);
            res += hits.size();
          }
          fmt::print("{},{},{},{},{},{},{:.4f},{:.1f},{:.1f},{:.1f},{:.2f}\n", qs->name, fname,
                     also_top ? fmt::format("{}_top{}_recall{}", impl, top, k) : impl, kk, ef, n,
                     rec_k / n, Pct(l, 50), Pct(l, 99), Mean(l), res / n);
          if (also_top)
            fmt::print("{},{},{}_top{}_recall{},{},{},{},{:.4f},{:.1f},{:.1f},{:.1f},{:.2f}\n",
                       qs->name, fname, impl, top, top, kk, ef, n, rec_top / n, Pct(l, 50),
                       Pct(l, 99), Mean(l), res / n);
          std::fflush(stdout);
        };
        for (size_t ef : efs) sweep("hnswlib", k, ef, false);
        for (size_t ef : top_efs) sweep("hnswlib", top, ef, true);
      }
    }
  } catch (const StatusError& e) {
    fmt::print(stderr, "litgraph-vector-bench: error: {}\n", e.what());
    return 4;
  }
  return 0;
}
