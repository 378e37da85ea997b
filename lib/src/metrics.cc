#include "litgraph/metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <thread>
#include <unordered_set>

#include "litgraph/flat_map.h"
#include "litgraph/generation.h"
#include "litgraph/sqlite.h"
#include "parallel_chunks.h"

namespace litgraph {

namespace {

using Clock = std::chrono::steady_clock;
double Since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Reads one dense adjacency file of the graph into CSR arrays over
// [0, papers); ids outside the space are dropped.
Status ReadCsr(const GenerationView& view, const std::string& file, uint64_t papers,
               std::vector<uint64_t>* off, std::vector<uint32_t>* ids) {
  Adjacency adj;
  LITGRAPH_RETURN_IF_ERROR(adj.Open(view, file));
  AdjacencyScan scan(adj);
  off->assign(papers + 1, 0);
  ids->clear();
  ids->reserve(adj.num_edges());
  for (uint64_t p = 0; p < papers; ++p) {
    for (uint32_t x : scan.Get(p).ids)
      if (x < papers && x != p) ids->push_back(x);  // a self-citation is ignored
    (*off)[p + 1] = ids->size();
  }
  return adj.status();
}

// Unbiased bounded random numbers of our own (std::uniform_int_distribution
// differs between standard libraries): Lemire's multiply-shift with
// rejection.
uint64_t Below(std::mt19937_64& rng, uint64_t n) {
  unsigned __int128 m = static_cast<unsigned __int128>(rng()) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < n) {
    const uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(rng()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

uint64_t PairKey(int32_t a, int32_t b) {  // a <= b, both >= 0
  return (static_cast<uint64_t>(a) + 1) << 32 | (static_cast<uint64_t>(b) + 1);
}

void PutU32(std::string* s, uint32_t v) { s->append(reinterpret_cast<const char*>(&v), 4); }
void PutU64(std::string* s, uint64_t v) { s->append(reinterpret_cast<const char*>(&v), 8); }
void PutF32(std::string* s, float v) { s->append(reinterpret_cast<const char*>(&v), 4); }
void PutF64(std::string* s, double v) { s->append(reinterpret_cast<const char*>(&v), 8); }
std::string Header(const char magic[8]) { return std::string(magic, 8); }

constexpr char kCdMagic[8] = {'L', 'G', 'C', 'D', 'X', 0, 0, 1};
constexpr char kRanksMagic[8] = {'L', 'G', 'R', 'K', 'S', 0, 0, 1};
constexpr char kNoveltyMagicV1[8] = {'L', 'G', 'N', 'O', 'V', 0, 0, 1};
constexpr char kNoveltyMagic[8] = {'L', 'G', 'N', 'O', 'V', 0, 0, 2};
constexpr uint32_t kNoveltyKeywords = 1;  // novelty header flag: the keyword variant
constexpr size_t kHeader = 64;

// The graph files the metrics are computed from: a metrics generation is
// current while the graph's files of these names are the builds it read.
constexpr const char* kInputs[] = {"cites.out.adj",      "cites.in.adj",    "paper.years",
                                   "paper.citations",    "topics.adj",      "topic.subfield.adj",
                                   "subfield.field.adj", "published_in.adj"};

// Keyword novelty reads the papers' keywords as well.
nlohmann::json InputBuilds(const GenerationView& view, bool keywords) {
  nlohmann::json j = nlohmann::json::object();
  auto add = [&](const std::string& name) {
    auto it = view.files().find(name);
    j[name] = it == view.files().end() ? nlohmann::json(nullptr) : nlohmann::json(it->second);
  };
  // An adjacency file's delta is part of its relation (graph.h): its build
  // counts, and its absence too.
  auto add_relation = [&](const std::string& name) {
    add(name);
    if (name.ends_with(".adj")) {
      const std::string delta = AdjDeltaName(name);
      if (view.Has(delta)) add(delta);
    }
  };
  for (const char* name : kInputs) add_relation(name);
  if (keywords) add_relation("keywords.adj");
  return j;
}

}  // namespace

// ---- Disruption ---------------------------------------------------------------

const char* CdUndefinedName(CdUndefined why) {
  switch (why) {
    case CdUndefined::kNone:
      return "";
    case CdUndefined::kNoReferences:
      return "no_references";
    case CdUndefined::kNoCitations:
      return "no_citations";
    case CdUndefined::kNoYear:
      return "no_year";
  }
  return "";
}

std::optional<double> Disruption::Cd() const {
  if (undefined != CdUndefined::kNone) return std::nullopt;
  const double d = static_cast<double>(n_i) + n_j + n_k;
  if (d == 0) return std::nullopt;
  return (static_cast<double>(n_i) - n_j) / d;
}

CdUndefined Disruption::CdNoNkUndefined() const {
  if (undefined != CdUndefined::kNone) return undefined;
  return n_i + n_j == 0 ? CdUndefined::kNoCitations : CdUndefined::kNone;
}

std::optional<double> Disruption::CdNoNk() const {
  if (CdNoNkUndefined() != CdUndefined::kNone) return std::nullopt;
  return (static_cast<double>(n_i) - n_j) / (static_cast<double>(n_i) + n_j);
}

Result<CitationCsr> CitationCsr::Load(Graph& graph, int threads) {
  CitationCsr g;
  const uint64_t n = graph.num_papers();
  g.years_.resize(n);
  for (uint64_t p = 0; p < n; ++p) g.years_[p] = static_cast<uint16_t>(graph.Year(p));
  Status out_status, in_status;
  auto read_out = [&] {
    out_status = ReadCsr(graph.view(), "cites.out.adj", n, &g.ref_off_, &g.ref_ids_);
  };
  auto read_in = [&] {
    in_status = ReadCsr(graph.view(), "cites.in.adj", n, &g.cit_off_, &g.cit_ids_);
  };
  if (Workers(threads) > 1) {
    std::thread t(read_in);
    read_out();
    t.join();
  } else {
    read_out();
    read_in();
  }
  LITGRAPH_RETURN_IF_ERROR(out_status);
  LITGRAPH_RETURN_IF_ERROR(in_status);
  LITGRAPH_RETURN_IF_ERROR(graph.status());
  g.exists_.assign(n, 0);
  try {
    for (int64_t id : graph.store()->PaperIds())
      if (id >= 0 && static_cast<uint64_t>(id) < n) g.exists_[id] = 1;
  } catch (const StatusError& e) {
    return e.status();
  }
  g.existing_ = static_cast<uint32_t>(std::count(g.exists_.begin(), g.exists_.end(), 1));
  g.SortCitersByYear(Workers(threads));
  return g;
}

void BuildCsr(uint32_t n, std::vector<std::pair<uint32_t, uint32_t>> e, std::vector<uint64_t>* off,
              std::vector<uint32_t>* ids) {
  std::sort(e.begin(), e.end());
  e.erase(std::unique(e.begin(), e.end()), e.end());
  off->assign(n + 1, 0);
  for (auto [a, b] : e) ++(*off)[a + 1];
  for (uint32_t i = 0; i < n; ++i) (*off)[i + 1] += (*off)[i];
  ids->clear();
  ids->reserve(e.size());
  for (auto [a, b] : e) ids->push_back(b);
}

CitationCsr CitationCsr::FromEdges(std::vector<uint16_t> years,
                                   const std::vector<std::pair<uint32_t, uint32_t>>& edges) {
  CitationCsr g;
  g.years_ = std::move(years);
  const uint32_t n = g.num_papers();
  g.exists_.assign(n, 1);
  g.existing_ = n;
  std::vector<std::pair<uint32_t, uint32_t>> fwd, back;
  for (auto [a, b] : edges) {
    if (a >= n || b >= n || a == b) continue;
    fwd.emplace_back(a, b);
    back.emplace_back(b, a);
  }
  BuildCsr(n, std::move(fwd), &g.ref_off_, &g.ref_ids_);
  BuildCsr(n, std::move(back), &g.cit_off_, &g.cit_ids_);
  g.SortCitersByYear(1);
  return g;
}

void CitationCsr::SortCitersByYear(int threads) {
  ParallelChunks(num_papers(), threads, 4096, [&](uint64_t b, uint64_t e, int) {
    for (uint64_t p = b; p < e; ++p)
      std::sort(cit_ids_.begin() + static_cast<int64_t>(cit_off_[p]),
                cit_ids_.begin() + static_cast<int64_t>(cit_off_[p + 1]),
                [&](uint32_t x, uint32_t y) {
                  return years_[x] != years_[y] ? years_[x] < years_[y] : x < y;
                });
  });
}

Disruption ComputeDisruption(const CitationCsr& g, uint32_t f, int window,
                             std::vector<uint32_t>* mark, uint32_t tag) {
  Disruption d;
  const int fy = g.Year(f);
  if (window > 0 && fy == 0) {
    d.undefined = CdUndefined::kNoYear;
    return d;
  }
  uint32_t* m = mark->data();
  uint32_t union_size = 0;  // papers citing a reference of f (f excluded)
  bool any_reference = false;
  for (uint32_t r : g.Refs(f)) {
    if (r == f) continue;  // a paper citing itself: that edge is ignored
    any_reference = true;
    g.ForCitersInWindow(r, fy, window, [&](uint32_t c) {
      if (c != f && m[c] != tag) {
        m[c] = tag;
        ++union_size;
      }
    });
  }
  uint32_t citing = 0, both = 0;
  g.ForCitersInWindow(f, fy, window, [&](uint32_t c) {
    if (c == f) return;
    ++citing;
    if (m[c] == tag) ++both;
  });
  d.n_i = citing - both;
  d.n_j = both;
  d.n_k = union_size - both;
  if (!any_reference)
    d.undefined = CdUndefined::kNoReferences;
  else if (d.n_i + d.n_j + d.n_k == 0)
    d.undefined = CdUndefined::kNoCitations;
  return d;
}

std::vector<Disruption> ComputeDisruptionAll(const CitationCsr& g, int window, int threads,
                                             Reporter* reporter) {
  const uint32_t n = g.num_papers();
  std::vector<Disruption> out(n);
  const int workers = Workers(threads);
  std::vector<std::vector<uint32_t>> marks(workers);
  std::atomic<uint64_t> done{0};
  auto last = Clock::now();
  std::mutex report_mu;
  ParallelChunks(n, workers, 1024, [&](uint64_t b, uint64_t e, int w) {
    auto& mark = marks[w];
    if (mark.empty()) mark.assign(n, 0);
    for (uint64_t p = b; p < e; ++p)
      out[p] = ComputeDisruption(g, static_cast<uint32_t>(p), window, &mark,
                                 static_cast<uint32_t>(p) + 1);
    const uint64_t d = done.fetch_add(e - b) + (e - b);
    if (w == 0 && Since(last) > 0.5) {
      std::lock_guard<std::mutex> lock(report_mu);
      last = Clock::now();
      reporter->Progress(fmt::format("disruption: {} of {} papers", d, n));
    }
  });
  reporter->Progress("");
  return out;
}

Result<std::vector<Disruption>> ComputeDisruptionOf(Graph& graph,
                                                    const std::vector<uint32_t>& papers,
                                                    int window) {
  Adjacency& out_adj = graph.adj(Rel::kCitesOut);
  Adjacency& in_adj = graph.adj(Rel::kCitesIn);
  std::vector<Disruption> result;
  std::vector<uint32_t> refs, citers;
  std::unordered_set<uint32_t> cite_refs;
  for (uint32_t f : papers) {
    Disruption d;
    const int fy = graph.Year(f);
    if (window > 0 && fy == 0) {
      d.undefined = CdUndefined::kNoYear;
      result.push_back(d);
      continue;
    }
    auto counted = [&](uint32_t c) {
      return c != f && c < graph.num_papers() && InCdWindow(fy, graph.Year(c), window);
    };
    auto r = out_adj.Neighbours(f).ids;
    refs.assign(r.begin(), r.end());
    auto c = in_adj.Neighbours(f).ids;
    citers.assign(c.begin(), c.end());
    cite_refs.clear();
    for (uint32_t ref : refs) {
      if (ref >= graph.num_papers() || ref == f) continue;
      for (uint32_t x : in_adj.Neighbours(ref).ids)
        if (x != ref && counted(x)) cite_refs.insert(x);
    }
    uint32_t citing = 0, both = 0;
    for (uint32_t x : citers) {
      if (!counted(x)) continue;
      ++citing;
      if (cite_refs.count(x)) ++both;
    }
    d.n_i = citing - both;
    d.n_j = both;
    d.n_k = static_cast<uint32_t>(cite_refs.size()) - both;
    if (std::none_of(refs.begin(), refs.end(),
                     [&](uint32_t x) { return x < graph.num_papers() && x != f; }))
      d.undefined = CdUndefined::kNoReferences;
    else if (d.n_i + d.n_j + d.n_k == 0)
      d.undefined = CdUndefined::kNoCitations;
    result.push_back(d);
  }
  LITGRAPH_RETURN_IF_ERROR(graph.status());
  return result;
}

// ---- PageRank -----------------------------------------------------------------

PageRankResult ComputePageRank(const CitationCsr& g, const PageRankOptions& o, int threads) {
  PageRankResult r;
  const uint32_t n = g.num_papers();
  const double papers = g.num_existing();
  if (papers == 0) return r;
  const int workers = Workers(threads);
  std::vector<double> rank(n, 0), next(n), contrib(n);
  for (uint32_t p = 0; p < n; ++p) rank[p] = g.Exists(p) ? 1.0 / papers : 0;
  std::vector<double> partial(workers);
  for (r.iterations = 1; r.iterations <= o.max_iterations; ++r.iterations) {
    double dangling = 0;
    for (uint32_t p = 0; p < n; ++p) {
      const size_t out = g.Refs(p).size();
      if (out == 0) {
        dangling += rank[p];
        contrib[p] = 0;
      } else {
        contrib[p] = rank[p] / static_cast<double>(out);
      }
    }
    const double base = (1 - o.damping) / papers + o.damping * dangling / papers;
    std::fill(partial.begin(), partial.end(), 0.0);
    ParallelChunks(n, workers, 8192, [&](uint64_t b, uint64_t e, int w) {
      double change = 0;
      for (uint64_t v = b; v < e; ++v) {
        double s = 0;
        for (uint32_t u : g.Citers(static_cast<uint32_t>(v))) s += contrib[u];
        next[v] = g.Exists(static_cast<uint32_t>(v)) ? base + o.damping * s : 0;
        change += std::fabs(next[v] - rank[v]);
      }
      partial[w] += change;
    });
    rank.swap(next);
    r.residual = std::accumulate(partial.begin(), partial.end(), 0.0);
    if (r.residual < o.tolerance) break;
  }
  r.iterations = std::min(r.iterations, o.max_iterations);
  r.rank = std::move(rank);
  return r;
}

// ---- Fields and percentiles ---------------------------------------------------

Result<std::vector<int32_t>> PaperFields(Graph& graph) {
  const uint64_t n = graph.num_papers();
  std::vector<int32_t> field(n, -1);
  Adjacency& topics = graph.adj(Rel::kTopics);
  Adjacency& topic_subfield = graph.adj(Rel::kTopicSubfield);
  Adjacency& subfield_field = graph.adj(Rel::kSubfieldField);
  std::vector<int32_t> topic_field;  // -2: not looked up yet
  AdjacencyScan scan(topics);
  for (uint64_t p = 0; p < n; ++p) {
    Adjacency::List l = scan.Get(p);
    if (l.size() == 0) continue;
    // Primary topic first, then the highest score (attr: score in
    // thousandths << 1 | is_primary), then the smallest id.
    size_t best = 0;
    for (size_t i = 1; i < l.size(); ++i) {
      const uint32_t a = l.attrs.empty() ? 0 : l.attrs[i];
      const uint32_t b = l.attrs.empty() ? 0 : l.attrs[best];
      if ((a & 1) != (b & 1) ? (a & 1) > (b & 1) : (a >> 1) > (b >> 1)) best = i;
    }
    const uint32_t t = l.ids[best];
    if (t >= topic_field.size()) topic_field.resize(t + 1, -2);
    if (topic_field[t] == -2) {
      int32_t f = -1;
      auto sub = topic_subfield.Neighbours(t).ids;
      if (!sub.empty()) {
        auto fl = subfield_field.Neighbours(sub[0]).ids;
        if (!fl.empty()) f = static_cast<int32_t>(fl[0]);
      }
      topic_field[t] = f;
    }
    field[p] = topic_field[t];
  }
  LITGRAPH_RETURN_IF_ERROR(graph.status());
  return field;
}

std::vector<float> GroupPercentiles(const std::vector<uint64_t>& group,
                                    const std::vector<uint32_t>& count) {
  const size_t n = group.size();
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (group[a] != group[b]) return group[a] < group[b];
    return count[a] < count[b];
  });
  std::vector<float> pct(n, 0);
  for (size_t gs = 0; gs < n;) {
    size_t ge = gs;
    while (ge < n && group[order[ge]] == group[order[gs]]) ++ge;
    const double size = static_cast<double>(ge - gs);
    for (size_t rs = gs; rs < ge;) {
      size_t re = rs;
      while (re < ge && count[order[re]] == count[order[rs]]) ++re;
      const double below = static_cast<double>(rs - gs), equal = static_cast<double>(re - rs);
      const float v = static_cast<float>(100.0 * (below + 0.5 * equal) / size);
      for (size_t i = rs; i < re; ++i) pct[order[i]] = v;
      rs = re;
    }
    gs = ge;
  }
  return pct;
}

// ---- Novelty ------------------------------------------------------------------

Result<std::vector<int32_t>> PaperVenues(Graph& graph) {
  const uint64_t n = graph.num_papers();
  std::vector<int32_t> venue(n, -1);
  Adjacency& published = graph.adj(Rel::kPublishedIn);
  AdjacencyScan scan(published);
  for (uint64_t p = 0; p < n; ++p) {
    auto ids = scan.Get(p).ids;
    if (!ids.empty()) venue[p] = static_cast<int32_t>(ids[0]);
  }
  LITGRAPH_RETURN_IF_ERROR(graph.status());
  return venue;
}

namespace {

// The citations grouped by (citing year, cited year), each stratum's
// positions in the CSR's reference array ascending: built once, shuffled K
// times.
struct Strata {
  std::vector<uint64_t> positions;  // edge positions, stratum by stratum
  std::vector<uint64_t> bounds;     // stratum starts, then the end
};

Strata MakeStrata(const CitationCsr& g) {
  Strata s;
  std::vector<uint32_t> key;  // citing year << 16 | cited year, per edge
  key.reserve(g.num_edges());
  for (uint32_t p = 0; p < g.num_papers(); ++p)
    for (uint32_t r : g.Refs(p))
      key.push_back(static_cast<uint32_t>(g.Year(p)) << 16 | static_cast<uint32_t>(g.Year(r)));
  s.positions.resize(key.size());
  std::iota(s.positions.begin(), s.positions.end(), uint64_t{0});
  std::stable_sort(s.positions.begin(), s.positions.end(),
                   [&](uint64_t a, uint64_t b) { return key[a] < key[b]; });
  for (size_t i = 0; i < s.positions.size(); ++i)
    if (i == 0 || key[s.positions[i]] != key[s.positions[i - 1]]) s.bounds.push_back(i);
  s.bounds.push_back(s.positions.size());
  return s;
}

std::vector<uint32_t> Randomize(const CitationCsr& g, const Strata& s, uint64_t seed) {
  std::vector<uint32_t> refs;
  refs.reserve(g.num_edges());
  for (uint32_t p = 0; p < g.num_papers(); ++p)
    for (uint32_t r : g.Refs(p)) refs.push_back(r);
  std::vector<uint32_t> out = refs;
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> cited;
  for (size_t k = 0; k + 1 < s.bounds.size(); ++k) {
    const uint64_t b = s.bounds[k], e = s.bounds[k + 1];
    cited.clear();
    for (uint64_t i = b; i < e; ++i) cited.push_back(refs[s.positions[i]]);
    for (uint64_t i = cited.size(); i > 1; --i) std::swap(cited[i - 1], cited[Below(rng, i)]);
    for (uint64_t i = b; i < e; ++i) out[s.positions[i]] = cited[i - b];
  }
  return out;
}

// Calls fn(pair key) for every label pair of a paper's references (refs[begin,
// end), the reference array of the CSR or a randomization of it): a label of
// one reference with a label of another.
template <typename Fn>
void ForEachPair(const PaperLabels& labels, const uint32_t* refs, uint64_t begin, uint64_t end,
                 std::vector<uint64_t>* scratch, Fn&& fn) {
  scratch->clear();
  for (uint64_t i = begin; i < end; ++i)
    for (int32_t l : labels.Of(refs[i]))
      scratch->push_back(static_cast<uint64_t>(l) << 32 | (i - begin));  // label, reference
  std::sort(scratch->begin(), scratch->end());
  const uint64_t* x = scratch->data();
  const size_t m = scratch->size();
  for (size_t i = 0; i < m; ++i)
    for (size_t j = i + 1; j < m; ++j)
      if (static_cast<uint32_t>(x[i]) != static_cast<uint32_t>(x[j]))
        fn(PairKey(static_cast<int32_t>(x[i] >> 32), static_cast<int32_t>(x[j] >> 32)));
}

// Observed pair counts (index per pair) and, over the randomized networks,
// the sums and sums of squares of each pair's count.
// Pair key -> index + 1 (0: none). With few labels a triangular array
// indexed by the pair itself: one read per lookup instead of a hash probe
// into a table of 16-byte slots (at 1M papers and 5,019 venues, 12.6M
// entries, 50 MB); else a hash map.
class PairIndex {
 public:
  static constexpr uint64_t kDenseMax = uint64_t{32} << 20;
  void Init(int32_t labels) {
    const uint64_t v = static_cast<uint64_t>(std::max(labels, 0));
    if (v * (v + 1) / 2 <= kDenseMax) {
      v_ = v;
      dense_.assign(v * (v + 1) / 2, 0);
    }
  }
  uint32_t& operator[](uint64_t key) { return v_ ? dense_[Tri(key)] : map_[key]; }
  const uint32_t* Find(uint64_t key) const {
    if (!v_) return map_.Find(key);
    const uint32_t& x = dense_[Tri(key)];
    return x ? &x : nullptr;
  }

 private:
  size_t Tri(uint64_t key) const {  // row-major upper triangle, a <= b
    const uint64_t a = (key >> 32) - 1, b = (key & 0xffffffffu) - 1;
    return a * v_ - a * (a - 1) / 2 + (b - a);
  }
  uint64_t v_ = 0;
  std::vector<uint32_t> dense_;
  U64Map<uint32_t> map_;
};

struct PairStats {
  PairIndex index;
  std::vector<uint64_t> keys;
  std::vector<double> observed, sum, sum_sq;
  // A pair's mean and sd over k networks and its z (NaN when sd is 0).
  double Z(size_t i, double k, double* mean, double* sd) const {
    *mean = k > 0 ? sum[i] / k : 0;
    const double var = k > 1 ? (sum_sq[i] - k * *mean * *mean) / (k - 1) : 0;
    *sd = std::sqrt(std::max(0.0, var));
    return *sd > 0 ? (observed[i] - *mean) / *sd : std::numeric_limits<double>::quiet_NaN();
  }
  void Add(const std::vector<uint32_t>& counts) {
    for (size_t i = 0; i < counts.size(); ++i) {
      sum[i] += counts[i];
      sum_sq[i] += static_cast<double>(counts[i]) * counts[i];
    }
  }
};

uint64_t RefBegin(const CitationCsr& g, uint32_t p) {
  return static_cast<uint64_t>(g.Refs(p).data() - g.Refs(0).data());
}

void CountObserved(const CitationCsr& g, const PaperLabels& labels, PairStats* st) {
  st->index.Init(labels.num_labels);
  std::vector<uint64_t> scratch;
  const uint32_t* refs = g.Refs(0).data();
  for (uint32_t p = 0; p < g.num_papers(); ++p) {
    const uint64_t b = RefBegin(g, p), e = b + g.Refs(p).size();
    ForEachPair(labels, refs, b, e, &scratch, [&](uint64_t key) {
      uint32_t& slot = st->index[key];
      if (slot == 0) {
        st->keys.push_back(key);
        st->observed.push_back(0);
        slot = static_cast<uint32_t>(st->keys.size());
      }
      st->observed[slot - 1] += 1;
    });
  }
  st->sum.assign(st->keys.size(), 0);
  st->sum_sq.assign(st->keys.size(), 0);
}

// Adds one randomized network's counts of the observed pairs (pairs that
// never occur in the store are not needed: no paper has them).
void CountRandomized(const CitationCsr& g, const PaperLabels& labels,
                     const std::vector<uint32_t>& refs, const PairStats& st,
                     std::vector<uint32_t>* counts) {
  counts->assign(st.keys.size(), 0);
  std::vector<uint64_t> scratch;
  for (uint32_t p = 0; p < g.num_papers(); ++p) {
    const uint64_t b = RefBegin(g, p), e = b + g.Refs(p).size();
    ForEachPair(labels, refs.data(), b, e, &scratch, [&](uint64_t key) {
      if (const uint32_t* i = st.index.Find(key)) ++(*counts)[*i - 1];
    });
  }
}

// Each paper's novelty and conventionality from the pairs' statistics over
// k networks.
std::vector<Novelty> PaperNovelty(const CitationCsr& g, const PaperLabels& labels,
                                  const PairStats& st, double k, int threads) {
  std::vector<float> z(st.keys.size());
  for (size_t i = 0; i < z.size(); ++i) {
    double mean, sd;
    z[i] = static_cast<float>(st.Z(i, k, &mean, &sd));
  }
  const uint32_t n = g.num_papers();
  std::vector<Novelty> out(n);
  const uint32_t* refs = g.Refs(0).data();
  ParallelChunks(n, Workers(threads), 4096, [&](uint64_t b, uint64_t e, int) {
    std::vector<uint64_t> scratch;
    std::vector<float> zs;
    for (uint64_t p = b; p < e; ++p) {
      zs.clear();
      const uint64_t rb = RefBegin(g, static_cast<uint32_t>(p));
      ForEachPair(labels, refs, rb, rb + g.Refs(static_cast<uint32_t>(p)).size(), &scratch,
                  [&](uint64_t key) {
                    const uint32_t* i = st.index.Find(key);
                    if (i && !std::isnan(z[*i - 1])) zs.push_back(z[*i - 1]);
                  });
      Novelty& nv = out[p];
      nv.pairs = static_cast<uint32_t>(zs.size());
      nv.novelty = PercentileNearestRank(&zs, 0.1);
      nv.conventionality = PercentileNearestRank(&zs, 0.5);
    }
  });
  return out;
}

void CountNetworks(const CitationCsr& g, const PaperLabels& labels,
                   const std::vector<std::vector<uint32_t>>& randomized, PairStats* st) {
  CountObserved(g, labels, st);
  std::vector<uint32_t> counts;
  for (const auto& refs : randomized) {
    CountRandomized(g, labels, refs, *st, &counts);
    st->Add(counts);
  }
}

}  // namespace

PaperLabels VenueLabels(const std::vector<int32_t>& venue) {
  PaperLabels l;
  l.off.assign(venue.size() + 1, 0);
  for (size_t p = 0; p < venue.size(); ++p) {
    if (venue[p] >= 0) {
      l.ids.push_back(venue[p]);
      l.num_labels = std::max(l.num_labels, venue[p] + 1);
    }
    l.off[p + 1] = l.ids.size();
  }
  return l;
}

PaperLabels KeywordLabels(const std::vector<uint64_t>& off, const std::vector<uint32_t>& ids,
                          const std::vector<uint32_t>& importance, const KeywordNoveltyOptions& o,
                          KeywordLabelStats* stats) {
  KeywordLabelStats local;
  KeywordLabelStats& st = stats ? *stats : local;
  st = KeywordLabelStats();
  const uint64_t n = off.empty() ? 0 : off.size() - 1;
  std::vector<uint32_t> papers;  // per keyword id
  for (uint32_t k : ids) {
    if (k >= papers.size()) papers.resize(k + 1, 0);
    ++papers[k];
  }
  std::vector<uint32_t> used;
  for (uint32_t k = 0; k < papers.size(); ++k)
    if (papers[k]) used.push_back(k);
  st.keywords = static_cast<uint32_t>(used.size());
  std::sort(used.begin(), used.end(), [&](uint32_t a, uint32_t b) {
    return papers[a] != papers[b] ? papers[a] > papers[b] : a < b;
  });
  const size_t v = std::min(
      used.size(), static_cast<size_t>(std::clamp(o.vocabulary, 0, kMaxKeywordVocabulary)));
  used.resize(v);
  std::vector<int32_t> rank(papers.size(), -1);
  for (size_t r = 0; r < v; ++r) rank[used[r]] = static_cast<int32_t>(r);
  st.vocabulary = used;
  PaperLabels l;
  l.num_labels = static_cast<int32_t>(v);
  l.off.assign(n + 1, 0);
  std::vector<std::pair<uint32_t, int32_t>> cand;  // (importance, rank)
  for (uint64_t p = 0; p < n; ++p) {
    cand.clear();
    for (uint64_t i = off[p]; i < off[p + 1]; ++i)
      if (rank[ids[i]] >= 0)
        cand.emplace_back(importance.empty() ? 0 : importance[i], rank[ids[i]]);
    if (off[p + 1] > off[p]) ++st.papers_with_keywords;
    std::sort(cand.begin(), cand.end(), [](auto a, auto b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    if (cand.size() > static_cast<size_t>(std::max(0, o.per_reference)))
      cand.resize(static_cast<size_t>(std::max(0, o.per_reference)));
    const size_t at = l.ids.size();
    for (auto [imp, r] : cand) l.ids.push_back(r);
    std::sort(l.ids.begin() + static_cast<int64_t>(at), l.ids.end());
    if (!cand.empty()) ++st.papers_labelled;
    l.off[p + 1] = l.ids.size();
  }
  return l;
}

Result<PaperLabels> PaperKeywordLabels(Graph& graph, const KeywordNoveltyOptions& o,
                                       KeywordLabelStats* stats) {
  const uint64_t n = graph.num_papers();
  std::vector<uint64_t> off(n + 1, 0);
  std::vector<uint32_t> ids, importance;
  Adjacency& keywords = graph.adj(Rel::kKeywords);
  AdjacencyScan scan(keywords);
  for (uint64_t p = 0; p < n; ++p) {
    Adjacency::List l = scan.Get(p);
    ids.insert(ids.end(), l.ids.begin(), l.ids.end());
    if (l.attrs.empty())
      importance.insert(importance.end(), l.size(), 0);
    else
      importance.insert(importance.end(), l.attrs.begin(), l.attrs.end());
    off[p + 1] = ids.size();
  }
  LITGRAPH_RETURN_IF_ERROR(graph.status());
  return KeywordLabels(off, ids, importance, o, stats);
}

std::vector<uint32_t> RandomizeReferences(const CitationCsr& g, uint64_t seed) {
  return Randomize(g, MakeStrata(g), seed);
}

float PercentileNearestRank(std::vector<float>* v, double q) {
  if (v->empty()) return std::numeric_limits<float>::quiet_NaN();
  size_t k = static_cast<size_t>(std::ceil(q * static_cast<double>(v->size())));
  k = k == 0 ? 0 : k - 1;
  std::nth_element(v->begin(), v->begin() + static_cast<int64_t>(k), v->end());
  return (*v)[k];
}

std::vector<PairZ> LabelPairZScores(const CitationCsr& g, const PaperLabels& labels,
                                    const std::vector<std::vector<uint32_t>>& randomized) {
  PairStats st;
  CountNetworks(g, labels, randomized, &st);
  std::vector<PairZ> out;
  for (size_t i = 0; i < st.keys.size(); ++i) {
    PairZ z;
    z.a = static_cast<int32_t>((st.keys[i] >> 32) - 1);
    z.b = static_cast<int32_t>((st.keys[i] & 0xffffffffu) - 1);
    z.observed = st.observed[i];
    z.z = st.Z(i, static_cast<double>(randomized.size()), &z.mean, &z.sd);
    out.push_back(z);
  }
  std::sort(out.begin(), out.end(),
            [](const PairZ& x, const PairZ& y) { return std::tie(x.a, x.b) < std::tie(y.a, y.b); });
  return out;
}

std::vector<PairZ> VenuePairZScores(const CitationCsr& g, const std::vector<int32_t>& venue,
                                    const std::vector<std::vector<uint32_t>>& randomized) {
  return LabelPairZScores(g, VenueLabels(venue), randomized);
}

std::vector<Novelty> NoveltyFromNetworks(const CitationCsr& g, const PaperLabels& labels,
                                         const std::vector<std::vector<uint32_t>>& randomized) {
  PairStats st;
  CountNetworks(g, labels, randomized, &st);
  return PaperNovelty(g, labels, st, static_cast<double>(randomized.size()), 1);
}

std::vector<std::vector<Novelty>> ComputeNoveltyVariants(
    const CitationCsr& g, const std::vector<const PaperLabels*>& variants, const NoveltyOptions& o,
    int threads, Reporter* reporter) {
  std::vector<PairStats> st(variants.size());
  reporter->Progress("novelty: observed pairs");
  for (size_t v = 0; v < variants.size(); ++v) CountObserved(g, *variants[v], &st[v]);
  const Strata strata = MakeStrata(g);
  const int workers = std::min(Workers(threads), std::max(1, o.k));
  std::mutex mu;
  std::atomic<int> done{0};
  // Networks in parallel: each worker randomizes and counts whole networks;
  // network i is seeded with seed + i, whichever worker takes it.
  ParallelChunks(
      static_cast<uint64_t>(std::max(0, o.k)), workers, 1, [&](uint64_t b, uint64_t, int) {
        std::vector<uint32_t> refs = Randomize(g, strata, o.seed + b);
        std::vector<uint32_t> counts;
        for (size_t v = 0; v < variants.size(); ++v) {
          CountRandomized(g, *variants[v], refs, st[v], &counts);
          std::lock_guard<std::mutex> lock(mu);
          st[v].Add(counts);
        }
        reporter->Progress(fmt::format("novelty: {} of {} randomized networks", ++done, o.k));
      });
  std::vector<std::vector<Novelty>> out;
  for (size_t v = 0; v < variants.size(); ++v)
    out.push_back(PaperNovelty(g, *variants[v], st[v], o.k, threads));
  reporter->Progress("");
  return out;
}

std::vector<Novelty> ComputeNovelty(const CitationCsr& g, const std::vector<int32_t>& venue,
                                    const NoveltyOptions& o, int threads, Reporter* reporter) {
  const PaperLabels labels = VenueLabels(venue);
  return std::move(ComputeNoveltyVariants(g, {&labels}, o, threads, reporter)[0]);
}

// ---- The derived file ---------------------------------------------------------

Result<AllMetrics> ComputeAllMetrics(Graph& gr, const MetricsBuildOptions& o, Reporter* reporter) {
  AllMetrics all;
  MetricsBuildStats* stats = &all.stats;
  all.window = o.window;
  const int threads = Workers(o.threads);
  auto t = Clock::now();
  reporter->Progress("reading the citation graph");
  auto csr = CitationCsr::Load(gr, threads);
  if (!csr.ok()) return csr.status();
  const CitationCsr& g = *csr;
  stats->load_seconds = Since(t);
  stats->papers = g.num_existing();
  stats->edges = g.num_edges();
  stats->graph_generation = gr.generation();

  t = Clock::now();
  all.cd = ComputeDisruptionAll(g, o.window, threads, reporter);
  stats->cd_seconds = Since(t);

  t = Clock::now();
  reporter->Progress("pagerank");
  all.pagerank = ComputePageRank(g, o.pagerank, threads);
  stats->pagerank_seconds = Since(t);
  stats->pagerank_iterations = all.pagerank.iterations;
  auto fields = PaperFields(gr);
  if (!fields.ok()) return fields.status();
  const uint32_t n = g.num_papers();
  std::vector<uint64_t> group(n);
  std::vector<uint32_t> count(n);
  all.in_store.resize(n);
  for (uint32_t p = 0; p < n; ++p) {
    // Ids that are not papers go to a group of their own (never shown).
    group[p] = g.Exists(p) ? static_cast<uint64_t>(static_cast<uint32_t>((*fields)[p])) << 16 |
                                 static_cast<uint64_t>(g.Year(p))
                           : UINT64_MAX;
    count[p] = gr.Citations(p);
    all.in_store[p] = static_cast<uint32_t>(g.Citers(p).size());
  }
  all.percentile = GroupPercentiles(group, count);

  if (o.novelty || o.keyword_novelty) {
    t = Clock::now();
    auto venues = PaperVenues(gr);
    if (!venues.ok()) return venues.status();
    const PaperLabels venue_labels = VenueLabels(*venues);
    std::vector<const PaperLabels*> variants = {&venue_labels};
    PaperLabels keyword_labels;
    if (o.keyword_novelty) {
      auto kl = PaperKeywordLabels(gr, o.keyword_options, &all.keyword_labels);
      if (!kl.ok()) return kl.status();
      keyword_labels = std::move(*kl);
      variants.push_back(&keyword_labels);
    }
    auto nv = ComputeNoveltyVariants(g, variants, o.novelty_options, threads, reporter);
    all.novelty = std::move(nv[0]);
    if (o.keyword_novelty) all.keyword_novelty = std::move(nv[1]);
    stats->novelty_seconds = Since(t);
  }
  LITGRAPH_RETURN_IF_ERROR(gr.status());
  return all;
}

Status BuildMetrics(Store* store, const MetricsBuildOptions& o, MetricsBuildStats* stats,
                    Reporter* reporter) {
  const auto t0 = Clock::now();
  try {
    auto graph = Graph::Open(store);
    if (!graph.ok()) return graph.status();
    Graph& gr = **graph;
    auto computed = ComputeAllMetrics(gr, o, reporter);
    if (!computed.ok()) return computed.status();
    const AllMetrics& all = *computed;
    *stats = all.stats;
    const uint64_t n = all.cd.size();

    auto t = Clock::now();
    reporter->Progress("writing");
    auto out = GenerationBuilder::Start(store, "metrics");
    if (!out.ok()) return out.status();
    GenerationBuilder& b = **out;
    {
      std::string s = Header(kCdMagic);
      PutU64(&s, n);
      PutU32(&s, static_cast<uint32_t>(o.window));
      s.resize(kHeader, '\0');
      s.reserve(kHeader + 16 * n);
      for (const Disruption& d : all.cd) {
        PutU32(&s, d.n_i);
        PutU32(&s, d.n_j);
        PutU32(&s, d.n_k);
        PutU32(&s, static_cast<uint32_t>(d.undefined));
      }
      LITGRAPH_RETURN_IF_ERROR(WriteCheckedFile(b.Path("disruption"), b.NewFile("disruption"), s));
    }
    {
      std::string s = Header(kRanksMagic);
      PutU64(&s, n);
      PutF64(&s, o.pagerank.damping);
      PutU32(&s, static_cast<uint32_t>(all.pagerank.iterations));
      s.resize(kHeader, '\0');
      s.reserve(kHeader + 16 * n);
      for (uint64_t p = 0; p < n; ++p) {
        PutF64(&s, all.pagerank.rank[p]);
        PutF32(&s, all.percentile[p]);
        PutU32(&s, all.in_store[p]);
      }
      LITGRAPH_RETURN_IF_ERROR(WriteCheckedFile(b.Path("ranks"), b.NewFile("ranks"), s));
    }
    if (!all.novelty.empty()) {
      const bool v1 = o.novelty_file_version == 1, keywords = !all.keyword_novelty.empty();
      if (v1 && keywords) return Status::InvalidArgument("novelty file version 1 has no keywords");
      std::string s = Header(v1 ? kNoveltyMagicV1 : kNoveltyMagic);
      PutU64(&s, n);
      PutU32(&s, static_cast<uint32_t>(o.novelty_options.k));
      PutU32(&s, keywords ? kNoveltyKeywords : 0);
      PutU64(&s, o.novelty_options.seed);
      if (!v1) {
        PutU32(&s, keywords ? static_cast<uint32_t>(o.keyword_options.vocabulary) : 0);
        PutU32(&s, keywords ? static_cast<uint32_t>(o.keyword_options.per_reference) : 0);
      }
      s.resize(kHeader, '\0');
      const Novelty none{std::numeric_limits<float>::quiet_NaN(),
                         std::numeric_limits<float>::quiet_NaN(), 0};
      auto put = [&](const Novelty& nv) {
        PutF32(&s, nv.novelty);
        PutF32(&s, nv.conventionality);
        PutU32(&s, nv.pairs);
      };
      for (uint64_t p = 0; p < n; ++p) {
        put(all.novelty[p]);
        if (!v1) put(keywords ? all.keyword_novelty[p] : none);
      }
      LITGRAPH_RETURN_IF_ERROR(WriteCheckedFile(b.Path("novelty"), b.NewFile("novelty"), s));
    }
    b.info() = {{"generation", b.number()},
                {"graph_generation", gr.generation()},
                {"inputs", InputBuilds(gr.view(), !all.keyword_novelty.empty())},
                {"papers", all.stats.papers},
                {"id_space", n},
                {"cites_edges", all.stats.edges},
                {"window", o.window},
                {"pagerank",
                 {{"damping", o.pagerank.damping},
                  {"tolerance", o.pagerank.tolerance},
                  {"iterations", all.pagerank.iterations},
                  {"residual", all.pagerank.residual}}}};
    if (!all.novelty.empty())
      b.info()["novelty"] = {{"k", o.novelty_options.k}, {"seed", o.novelty_options.seed}};
    if (!all.keyword_novelty.empty())
      b.info()["keyword_novelty"] = {
          {"vocabulary", o.keyword_options.vocabulary},
          {"per_reference", o.keyword_options.per_reference},
          {"keywords", all.keyword_labels.keywords},
          {"labels", all.keyword_labels.vocabulary.size()},
          {"papers_with_keywords", all.keyword_labels.papers_with_keywords},
          {"papers_labelled", all.keyword_labels.papers_labelled}};
    Transaction txn(&store->db(), "IMMEDIATE");
    LITGRAPH_RETURN_IF_ERROR(b.Commit());
    txn.Commit();
    stats->generation = b.number();
    stats->write_seconds = Since(t);
    reporter->Progress("");
  } catch (const StatusError& e) {
    return e.status();
  }
  stats->seconds = Since(t0);
  return Status::Ok();
}

Status RefreshMetrics(Store* store, int threads, bool* rebuilt, MetricsBuildStats* stats,
                      Reporter* reporter) {
  if (rebuilt) *rebuilt = false;
  try {
    auto view = store->Current("metrics");
    if (!view.ok()) return view.status();
    if (!*view || store->Generation("graph") == 0) return Status::Ok();
    MetricsBuildOptions o = MetricsOptionsOf((*view)->info());
    {
      auto graph = Graph::Open(store);
      if (!graph.ok()) return graph.status();
      bool stale = false;
      auto file = MetricsFile::Open(store, **graph, &stale);
      if (file.ok() && !stale) return Status::Ok();  // current (a damaged file is rebuilt)
    }
    o.threads = threads;
    reporter->Progress("rebuilding the citation metrics");
    LITGRAPH_RETURN_IF_ERROR(BuildMetrics(store, o, stats, reporter));
    if (rebuilt) *rebuilt = true;
  } catch (const StatusError& e) {
    return e.status();
  }
  return Status::Ok();
}

MetricsBuildOptions MetricsOptionsOf(const nlohmann::json& info) {
  MetricsBuildOptions o;
  o.window = info.value("window", kDefaultCdWindow);
  if (info.contains("pagerank")) {
    o.pagerank.damping = info["pagerank"].value("damping", o.pagerank.damping);
    o.pagerank.tolerance = info["pagerank"].value("tolerance", o.pagerank.tolerance);
  }
  if (info.contains("novelty")) {
    o.novelty = true;
    o.novelty_options.k = info["novelty"].value("k", o.novelty_options.k);
    o.novelty_options.seed = info["novelty"].value("seed", o.novelty_options.seed);
  }
  if (info.contains("keyword_novelty")) {
    o.keyword_novelty = true;
    const nlohmann::json& k = info["keyword_novelty"];
    o.keyword_options.vocabulary = k.value("vocabulary", o.keyword_options.vocabulary);
    o.keyword_options.per_reference = k.value("per_reference", o.keyword_options.per_reference);
  }
  return o;
}

MetricRecord ToRecord(uint32_t paper, const PaperMetrics& m) {
  MetricRecord r;
  r.paper = paper;
  r.disruption = m.disruption;
  r.window = m.window;
  r.in_store_citations = m.in_store_citations;
  r.pagerank = m.pagerank;
  r.percentile = m.percentile;
  if (m.has_novelty) r.novelty = m.novelty;
  if (m.has_keyword_novelty) r.keyword_novelty = m.keyword_novelty;
  r.from_file = true;
  return r;
}

MetricRecord ToRecord(uint32_t paper, const AllMetrics& m) {
  MetricRecord r;
  r.paper = paper;
  r.disruption = m.cd[paper];
  r.window = m.window;
  r.in_store_citations = m.in_store[paper];
  r.pagerank = m.pagerank.rank[paper];
  r.percentile = m.percentile[paper];
  if (!m.novelty.empty()) r.novelty = m.novelty[paper];
  if (!m.keyword_novelty.empty()) r.keyword_novelty = m.keyword_novelty[paper];
  return r;
}

Result<std::unique_ptr<MetricsFile>> MetricsFile::Open(Store* store, const Graph& graph,
                                                       bool* stale) {
  if (stale) *stale = false;
  auto view = store->Current("metrics");
  if (!view.ok()) return view.status();
  if (!*view) return std::unique_ptr<MetricsFile>();
  const GenerationView& v = **view;
  if (!v.info().contains("inputs") ||
      v.info()["inputs"] != InputBuilds(graph.view(), v.info().contains("keyword_novelty"))) {
    if (stale) *stale = true;
    return std::unique_ptr<MetricsFile>();
  }
  std::unique_ptr<MetricsFile> m(new MetricsFile());
  m->info_ = v.info();
  LITGRAPH_RETURN_IF_ERROR(v.OpenFile("disruption", &m->cd_));
  LITGRAPH_RETURN_IF_ERROR(v.OpenFile("ranks", &m->ranks_));
  auto header = [&](const CheckedFile& f, const char magic[8], size_t record) -> Status {
    const uint8_t* h = f.Read(0, kHeader);
    if (h && &f == &m->novelty_ && std::memcmp(h, kNoveltyMagicV1, 8) == 0) {
      m->novelty_version_ = 1;  // venue pairs only, 12 B per paper
      record = 12;
    } else if (!h || std::memcmp(h, magic, 8) != 0) {
      return Status::Corruption(f.path() + ": not a metrics file of this format");
    }
    uint64_t papers = 0;
    std::memcpy(&papers, h + 8, 8);
    if (f.size() != kHeader + papers * record)
      return Status::Corruption(f.path() + ": size does not match its paper count");
    if (&f == &m->cd_) {
      m->papers_ = papers;
      uint32_t w = 0;
      std::memcpy(&w, h + 16, 4);
      m->window_ = static_cast<int>(w);
    } else if (papers != m->papers_) {
      return Status::Corruption(f.path() + ": paper count differs from disruption's");
    }
    return Status::Ok();
  };
  LITGRAPH_RETURN_IF_ERROR(header(m->cd_, kCdMagic, 16));
  LITGRAPH_RETURN_IF_ERROR(header(m->ranks_, kRanksMagic, 16));
  if (v.Has("novelty")) {
    LITGRAPH_RETURN_IF_ERROR(v.OpenFile("novelty", &m->novelty_));
    m->novelty_version_ = 2;
    LITGRAPH_RETURN_IF_ERROR(header(m->novelty_, kNoveltyMagic, 24));
    m->has_novelty_ = true;
    if (m->novelty_version_ == 2) {
      uint32_t flags = 0;
      std::memcpy(&flags, m->novelty_.Read(0, kHeader) + 20, 4);
      m->has_keyword_novelty_ = (flags & kNoveltyKeywords) != 0;
    }
  }
  return m;
}

bool MetricsFile::Get(uint32_t paper, PaperMetrics* out) const {
  if (paper >= papers_) return false;
  const uint8_t* c = cd_.Read(kHeader + 16ull * paper, 16);
  const uint8_t* r = ranks_.Read(kHeader + 16ull * paper, 16);
  if (!c || !r) return false;
  uint32_t why = 0;
  std::memcpy(&out->disruption.n_i, c, 4);
  std::memcpy(&out->disruption.n_j, c + 4, 4);
  std::memcpy(&out->disruption.n_k, c + 8, 4);
  std::memcpy(&why, c + 12, 4);
  if (why > 3) return false;
  out->disruption.undefined = static_cast<CdUndefined>(why);
  out->window = window_;
  std::memcpy(&out->pagerank, r, 8);
  std::memcpy(&out->percentile, r + 8, 4);
  std::memcpy(&out->in_store_citations, r + 12, 4);
  out->has_novelty = has_novelty_;
  out->has_keyword_novelty = has_keyword_novelty_;
  if (has_novelty_) {
    const size_t record = novelty_version_ == 1 ? 12 : 24;
    const uint8_t* nv = novelty_.Read(kHeader + record * paper, record);
    if (!nv) return false;
    auto get = [](const uint8_t* at, Novelty* x) {
      std::memcpy(&x->novelty, at, 4);
      std::memcpy(&x->conventionality, at + 4, 4);
      std::memcpy(&x->pairs, at + 8, 4);
    };
    get(nv, &out->novelty);
    if (has_keyword_novelty_) get(nv + 12, &out->keyword_novelty);
  }
  return true;
}

Status MetricsFile::status() const {
  LITGRAPH_RETURN_IF_ERROR(cd_.status());
  LITGRAPH_RETURN_IF_ERROR(ranks_.status());
  if (has_novelty_) LITGRAPH_RETURN_IF_ERROR(novelty_.status());
  return Status::Ok();
}

}  // namespace litgraph
