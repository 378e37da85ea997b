// Citation metrics of papers (../shared/spec/relations.md, issue 15):
// disruption (the CD index), in-store citation counts beside the records',
// percentiles within field and year, PageRank over CITES, and novelty and
// conventionality of the venues a paper's references combine (Uzzi et al.).
//
// Disruption (Funk & Owen-Smith 2017; CD_t of Wu, Wang & Evans 2019). For a
// focal paper f with references R(f) (its CITES out-list in the store), over
// the papers c counted by the window (below), excluding f itself:
//   n_i  papers citing f and none of R(f)
//   n_j  papers citing f and at least one of R(f)
//   n_k  papers citing at least one of R(f) but not f
//   cd        = (n_i - n_j) / (n_i + n_j + n_k)
//   cd_no_nk  = (n_i - n_j) / (n_i + n_j)      (SciNetBench's variant)
// The window (t years, 0 = unbounded) counts a paper c when
//   t > 0:  year(f) and year(c) are known and 0 <= year(c) - year(f) <= t
//   t = 0:  c is not known to be older: year(c) >= year(f), or either
//           year is unknown.
// A paper with no references in the store has CD undefined (reason
// no_references; its n_i still counts its citing papers); with t > 0 a paper
// of unknown year is undefined (no_year, counts 0); a zero denominator is
// undefined (no_citations: nothing in the window cites f or R(f); for
// cd_no_nk, nothing cites f).
//
// Cost: per focal paper, its citing papers plus the citing papers of each
// of its references within the window. The batch reads both CITES lists of
// every paper into memory (CitationCsr: 8 bytes per edge, 20 per paper) with
// each citing list sorted by year, so a window is a binary search and a hub
// reference costs only its citing papers of those years.
//
// Thread-safety: a CitationCsr is immutable after Load and may be read from
// any thread; the batch functions run `threads` workers of their own.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/report.h"
#include "litgraph/status.h"
#include "litgraph/store.h"

namespace litgraph {

inline constexpr int kDefaultCdWindow = 5;

// Why a CD value is null.
enum class CdUndefined : uint8_t { kNone = 0, kNoReferences = 1, kNoCitations = 2, kNoYear = 3 };
const char* CdUndefinedName(CdUndefined why);  // "no_references", ...; "" for kNone

struct Disruption {
  uint32_t n_i = 0, n_j = 0, n_k = 0;
  CdUndefined undefined = CdUndefined::kNone;  // of cd; see CdNoNk for the variant
  std::optional<double> Cd() const;
  std::optional<double> CdNoNk() const;
  // Why CdNoNk() is null (kNone when it is not).
  CdUndefined CdNoNkUndefined() const;
  bool operator==(const Disruption&) const = default;
};

// Compressed sparse rows of (from, to) pairs over nodes 0..n-1: off (n + 1
// offsets) and ids (each node's targets, ascending), duplicates dropped.
void BuildCsr(uint32_t n, std::vector<std::pair<uint32_t, uint32_t>> edges,
              std::vector<uint64_t>* off, std::vector<uint32_t>* ids);

// Both CITES lists of every paper, in memory: references by id, citing
// papers by (year, id), with the papers' years. Self-citations (p cites p)
// are left out: every metric here ignores them.
class CitationCsr {
 public:
  // Reads cites.out and cites.in of the graph (two threads when threads > 1)
  // and which ids of its id space are papers (the store's paper ids).
  static Result<CitationCsr> Load(Graph& graph, int threads);
  // From edges (citing, cited) over papers [0, years.size()), all of them
  // existing; for tests.
  static CitationCsr FromEdges(std::vector<uint16_t> years,
                               const std::vector<std::pair<uint32_t, uint32_t>>& edges);

  uint32_t num_papers() const { return static_cast<uint32_t>(years_.size()); }  // id space
  // Whether id p is a paper of the store (dense ids start at 1, and an id
  // space may have holes): PageRank and percentiles count papers only.
  bool Exists(uint32_t p) const { return exists_[p] != 0; }
  uint32_t num_existing() const { return existing_; }
  uint64_t num_edges() const { return ref_ids_.size(); }
  int Year(uint32_t p) const { return years_[p]; }
  std::span<const uint32_t> Refs(uint32_t p) const {
    return {ref_ids_.data() + ref_off_[p], ref_off_[p + 1] - ref_off_[p]};
  }
  // Citing papers, by (year, id): unknown years (0) first.
  std::span<const uint32_t> Citers(uint32_t p) const {
    return {cit_ids_.data() + cit_off_[p], cit_off_[p + 1] - cit_off_[p]};
  }
  // The citing papers of p that the window of a focal paper of year
  // `focal_year` counts (see above), as at most two runs of Citers(p).
  template <typename Fn>
  void ForCitersInWindow(uint32_t p, int focal_year, int window, Fn&& fn) const;

 private:
  void SortCitersByYear(int threads);
  std::vector<uint16_t> years_;
  std::vector<char> exists_;
  uint32_t existing_ = 0;
  std::vector<uint64_t> ref_off_, cit_off_;
  std::vector<uint32_t> ref_ids_, cit_ids_;
};

// Whether the window of a focal paper of year fy counts a paper of year cy.
inline bool InCdWindow(int fy, int cy, int window) {
  if (window > 0) return fy > 0 && cy > 0 && cy >= fy && cy - fy <= window;
  return fy == 0 || cy == 0 || cy >= fy;
}

// CD of one focal paper. `mark` has one entry per paper (all different from
// `tag` on entry; tag != 0 and unique per call, e.g. focal + 1).
Disruption ComputeDisruption(const CitationCsr& g, uint32_t focal, int window,
                             std::vector<uint32_t>* mark, uint32_t tag);
// CD of every paper, `threads` workers.
std::vector<Disruption> ComputeDisruptionAll(const CitationCsr& g, int window, int threads,
                                             Reporter* reporter = NullReporter());
// CD of some papers straight from the graph's adjacency files (no CSR):
// reads each focal paper's lists and its references' citing lists.
Result<std::vector<Disruption>> ComputeDisruptionOf(Graph& graph,
                                                    const std::vector<uint32_t>& papers,
                                                    int window);

// PageRank over CITES (citing -> cited): damping d, power iteration from the
// uniform vector until the L1 change is below `tolerance` (or
// max_iterations); the mass of papers without references in the store
// (dangling) is spread uniformly over all papers each step, as is the
// teleport mass 1 - d. Over the papers that exist (CitationCsr::Exists;
// other ids of the id space rank 0); the vector sums to 1.
struct PageRankOptions {
  double damping = 0.85;
  double tolerance = 1e-10;
  int max_iterations = 200;
};
struct PageRankResult {
  std::vector<double> rank;
  int iterations = 0;
  double residual = 0;  // L1 change of the last iteration
};
PageRankResult ComputePageRank(const CitationCsr& g, const PageRankOptions& o, int threads);

// The field a paper belongs to: its primary topic's field (else its
// highest-scoring topic's), or -1 when it has no topic. Reads topics,
// topic.subfield and subfield.field.
Result<std::vector<int32_t>> PaperFields(Graph& graph);
// Percentile of each paper's count within the papers of its group (same
// group id): 100 x (papers with a lower count + half of those with an equal
// count, itself included) / papers of the group. Groups are arbitrary
// 64-bit keys.
std::vector<float> GroupPercentiles(const std::vector<uint64_t>& group,
                                    const std::vector<uint32_t>& count);

// Novelty and conventionality (Uzzi, Mukherjee, Stringer & Jones 2013).
// Each paper carries labels (PaperLabels): its venue (PUBLISHED_IN), or
// for the keyword variant a few of its keywords (KeywordLabels). Every pair
// of a paper's references gives the pairs of their labels: (label of the
// one, label of the other), unordered, a label with itself included (two
// references in one venue); labels of one reference are never paired with
// each other (a reference's own keywords are not a combination the citing
// paper made). Pairs are counted over the whole store (observed). K
// randomized networks keep every citation's citing paper and the years at
// both ends: within each stratum of citations with the same (citing year,
// cited year), the cited papers are permuted (a uniformly random
// composition of edge swaps inside the stratum; each paper's number of
// references and of citations and the years of its references and citing
// papers are kept exactly). A pair's z = (observed - mean) / sd over the K
// networks (sd with K - 1). A paper's novelty is the 10th percentile of the
// z of its pairs (pair occurrences, nearest-rank), its conventionality
// their median. Skipped: references without a label (no venue; no keyword
// in the vocabulary); pairs whose z is undefined (sd 0: the pair occurs
// equally often in every randomized network, e.g. always 0 times); papers
// with no pair left have null novelty. Seeded: the same seed and K give the
// same numbers on every machine (std::mt19937_64, own shuffle). Every
// variant is counted on the same K networks.
struct NoveltyOptions {
  int k = 10;
  uint64_t seed = 1;
};
struct Novelty {
  float novelty = 0, conventionality = 0;  // NaN when undefined
  uint32_t pairs = 0;                      // pair occurrences with a defined z
};
// Labels of each paper (ids of the CSR's id space), as CSR: off has
// papers + 1 entries; labels are in [0, num_labels).
struct PaperLabels {
  std::vector<uint64_t> off;
  std::vector<int32_t> ids;
  int32_t num_labels = 0;
  std::span<const int32_t> Of(uint32_t p) const {
    if (p + 1 >= off.size()) return {};
    return {ids.data() + off[p], off[p + 1] - off[p]};
  }
};
// One label per paper with a venue (venue[p] >= 0).
PaperLabels VenueLabels(const std::vector<int32_t>& venue);

// The keyword variant's labels: the vocabulary is the `vocabulary` keywords
// of most papers (ties: smaller id); a paper's labels are its keywords in
// the vocabulary, at most `per_reference`, of highest importance (the
// HAS_KEYWORD attribute; ties: more papers, then smaller id). A label is the
// keyword's rank in the vocabulary (0: the most used). Why bounded: at 1M
// papers of 22 references and 8 keywords, all keyword pairs of all
// reference pairs would be ~15G pair occurrences per network and ~250k^2/2
// possible pairs; one keyword per reference among the 2,048 most used keeps
// the count of venue novelty's (O(references^2) per paper) and the pair
// table dense (2.1M cells).
struct KeywordNoveltyOptions {
  int vocabulary = 2048;  // at most kMaxKeywordVocabulary
  int per_reference = 1;
};
inline constexpr int kMaxKeywordVocabulary = 8000;  // the dense pair table's bound
// From each paper's keyword list (CSR over papers: off, keyword ids,
// importance attributes, one per id).
struct KeywordLabelStats {
  uint64_t papers_with_keywords = 0, papers_labelled = 0;
  uint32_t keywords = 0;             // distinct keywords in the lists
  std::vector<uint32_t> vocabulary;  // each label's keyword id
};
PaperLabels KeywordLabels(const std::vector<uint64_t>& off, const std::vector<uint32_t>& ids,
                          const std::vector<uint32_t>& importance, const KeywordNoveltyOptions& o,
                          KeywordLabelStats* stats = nullptr);
// The same from the graph (HAS_KEYWORD lists of every paper).
Result<PaperLabels> PaperKeywordLabels(Graph& graph, const KeywordNoveltyOptions& o,
                                       KeywordLabelStats* stats = nullptr);

// Network input for novelty: per paper its venue (-1 none) and year; the
// CSR's references.
std::vector<Novelty> ComputeNovelty(const CitationCsr& g, const std::vector<int32_t>& venue,
                                    const NoveltyOptions& o, int threads,
                                    Reporter* reporter = NullReporter());
// Every variant (label set) against the same K randomized networks: one
// result vector per variant, in order.
std::vector<std::vector<Novelty>> ComputeNoveltyVariants(
    const CitationCsr& g, const std::vector<const PaperLabels*>& variants, const NoveltyOptions& o,
    int threads, Reporter* reporter = NullReporter());
// One randomization: the references (cited papers) of every paper after the
// permutation within (citing year, cited year) strata, as a CSR's offsets
// and ids (offsets are g's). For tests and ComputeNovelty.
std::vector<uint32_t> RandomizeReferences(const CitationCsr& g, uint64_t seed);
// Pair z-scores over explicit networks, for tests: observed and randomized
// reference lists over the same papers.
struct PairZ {
  int32_t a, b;  // labels, a <= b
  double observed, mean, sd, z;
};
using VenuePairZ = PairZ;
std::vector<PairZ> LabelPairZScores(const CitationCsr& g, const PaperLabels& labels,
                                    const std::vector<std::vector<uint32_t>>& randomized);
std::vector<PairZ> VenuePairZScores(const CitationCsr& g, const std::vector<int32_t>& venue,
                                    const std::vector<std::vector<uint32_t>>& randomized);
// Novelty of every paper from explicit networks (as ComputeNoveltyVariants
// after its randomization), for tests.
std::vector<Novelty> NoveltyFromNetworks(const CitationCsr& g, const PaperLabels& labels,
                                         const std::vector<std::vector<uint32_t>>& randomized);
// The paper's value from its pairs' z (10th percentile, median: nearest rank
// on the sorted values, index ceil(q n) - 1).
float PercentileNearestRank(std::vector<float>* values, double q);

// Papers' venue (PUBLISHED_IN; the first when several), -1 when none.
Result<std::vector<int32_t>> PaperVenues(Graph& graph);

// ---- The derived file: DIR/metrics.<N>/ (doc/store-format.md) -------------
//
// Written by BuildMetrics (litgraph-metrics --build), a generation of the
// artifact "metrics" whose manifest info records the graph generation it
// was computed from; readers use it only while that is the current graph.
// Files (checked files, little-endian):
//   disruption  header 64 B: "LGCDX\0\0\1", u64 papers, u32 window, 44 B 0;
//               per paper 16 B: u32 n_i, u32 n_j, u32 n_k, u32 undefined
//   ranks       header 64 B: "LGRKS\0\0\1", u64 papers, f64 damping, u32
//               iterations, 36 B 0; per paper 16 B: f64 pagerank, f32
//               citation percentile (field, year), u32 in-store citations
//   novelty     (when built with novelty) header 64 B: "LGNOV\0\0\2", u64
//               papers, u32 K, u32 flags (1: keyword variant), u64 seed,
//               u32 keyword vocabulary, u32 keywords per reference, 24 B 0;
//               per paper 24 B: venue pairs' f32 novelty, f32
//               conventionality (NaN: undefined), u32 pairs; then the same
//               for keyword pairs (NaN, NaN, 0 without the variant).
//               Version 1 ("LGNOV\0\0\1", written before keyword novelty):
//               the same header with flags 0, per paper 12 B (venue only);
//               readers take both.
struct MetricsBuildOptions {
  int window = kDefaultCdWindow;
  PageRankOptions pagerank;
  bool novelty = false;
  bool keyword_novelty = false;  // implies novelty
  NoveltyOptions novelty_options;
  KeywordNoveltyOptions keyword_options;
  int threads = 0;
  int novelty_file_version = 2;  // 1: the old layout (venue only), for readers' tests
};
// The options a metrics generation was built with (its manifest info), so
// that an update can rebuild it alike.
MetricsBuildOptions MetricsOptionsOf(const nlohmann::json& info);
struct MetricsBuildStats {
  int64_t generation = 0, graph_generation = 0;
  uint64_t papers = 0, edges = 0;
  double load_seconds = 0, cd_seconds = 0, pagerank_seconds = 0, novelty_seconds = 0,
         write_seconds = 0, seconds = 0;
  int pagerank_iterations = 0;
};
// Every paper's metrics, in memory (what BuildMetrics writes).
struct AllMetrics {
  int window = kDefaultCdWindow;
  std::vector<Disruption> cd;
  PageRankResult pagerank;
  std::vector<float> percentile;         // citation percentile within (field, year)
  std::vector<uint32_t> in_store;        // CITES in-degree
  std::vector<Novelty> novelty;          // empty unless asked for
  std::vector<Novelty> keyword_novelty;  // likewise
  KeywordLabelStats keyword_labels;      // the keyword variant's vocabulary
  MetricsBuildStats stats;               // timings, papers, edges
};
// Computes them from the graph (CitationCsr::Load, then each metric).
Result<AllMetrics> ComputeAllMetrics(Graph& graph, const MetricsBuildOptions& o,
                                     Reporter* reporter = NullReporter());

// Computes every paper's metrics and commits them as a new generation of
// "metrics" (store opened for writing). NotFound when the store has no graph.
Status BuildMetrics(Store* store, const MetricsBuildOptions& o, MetricsBuildStats* stats,
                    Reporter* reporter = NullReporter());

// Keeps the metrics up to date with the store: when it has a metrics
// generation that no longer matches the current graph (MetricsFile::Open's
// stale: the citations, years, topics, venues or, for keyword novelty,
// keywords changed), rebuilds it with the options it was built with
// (MetricsOptionsOf; `threads` workers), as BuildMetrics. Nothing when the
// store has no metrics or they are current. A full rebuild: CD, PageRank,
// percentiles and novelty are global (a paper's CD depends on the citing
// papers of its references, its percentile on its whole field and year),
// so an upsert of a few papers changes values far from them. *rebuilt (may
// be null) says whether it ran; *stats its figures.
Status RefreshMetrics(Store* store, int threads, bool* rebuilt, MetricsBuildStats* stats,
                      Reporter* reporter = NullReporter());

// One paper's metrics as read from the derived file.
struct PaperMetrics {
  Disruption disruption;
  int window = 0;
  double pagerank = 0;
  float percentile = 0;
  uint32_t in_store_citations = 0;
  bool has_novelty = false, has_keyword_novelty = false;
  Novelty novelty, keyword_novelty;
};

// One paper's metrics as tools print them (render.h: MetricJson).
struct MetricRecord {
  uint32_t paper = 0;
  Disruption disruption;
  int window = kDefaultCdWindow;  // 0: unbounded
  uint32_t in_store_citations = 0;
  std::optional<double> pagerank;   // needs the whole graph: the file or --all
  std::optional<float> percentile;  // likewise
  std::optional<Novelty> novelty;   // when the file has it
  std::optional<Novelty> keyword_novelty;
  bool from_file = false;  // read from the derived file, else computed now
};
MetricRecord ToRecord(uint32_t paper, const PaperMetrics& m);
MetricRecord ToRecord(uint32_t paper, const AllMetrics& m);

// The current metrics generation of a store opened for reading.
class MetricsFile {
 public:
  // Null when the store has no metrics generation, or one computed from
  // another graph generation than `graph`'s (*stale set then).
  static Result<std::unique_ptr<MetricsFile>> Open(Store* store, const Graph& graph,
                                                   bool* stale = nullptr);
  int window() const { return window_; }
  bool has_novelty() const { return has_novelty_; }
  bool has_keyword_novelty() const { return has_keyword_novelty_; }
  int novelty_version() const { return novelty_version_; }  // 0: no novelty file
  uint64_t num_papers() const { return papers_; }
  const nlohmann::json& info() const { return info_; }
  // False when the paper is outside the file or a read met damage
  // (status()).
  bool Get(uint32_t paper, PaperMetrics* out) const;
  Status status() const;

 private:
  CheckedFile cd_, ranks_, novelty_;
  uint64_t papers_ = 0;
  int window_ = 0;
  bool has_novelty_ = false, has_keyword_novelty_ = false;
  int novelty_version_ = 0;
  nlohmann::json info_;
};

}  // namespace litgraph

// ---- Template definitions ---------------------------------------------------
namespace litgraph {

template <typename Fn>
void CitationCsr::ForCitersInWindow(uint32_t p, int fy, int window, Fn&& fn) const {
  std::span<const uint32_t> c = Citers(p);
  auto first_year_at_least = [&](size_t from, int y) {
    size_t lo = from, hi = c.size();
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (years_[c[mid]] < y)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  };
  if (window > 0) {
    if (fy == 0) return;
    const size_t a = first_year_at_least(0, fy), b = first_year_at_least(a, fy + window + 1);
    for (size_t i = a; i < b; ++i) fn(c[i]);
    return;
  }
  if (fy == 0) {
    for (uint32_t x : c) fn(x);
    return;
  }
  const size_t unknown_end = first_year_at_least(0, 1);
  for (size_t i = 0; i < unknown_end; ++i) fn(c[i]);
  for (size_t i = first_year_at_least(unknown_end, fy); i < c.size(); ++i) fn(c[i]);
}

}  // namespace litgraph
