// Paper metrics (metrics.h) where users meet papers (issue 15, item 5):
// conditions on them (find-paper and tri-search --where), and their values
// as fields of those tools' records (--fields, --sort).
//
// One mechanism for every tool: a PaperMetricSource gives a paper's
// MetricRecord, read from the store's metrics file when it is current and
// has the default CD window (kDefaultCdWindow), computed otherwise:
//  - the CD index and its counts and cited_by_in_store per paper on demand
//    (ComputeDisruptionOf: the paper's citing papers and its references'
//    citing papers);
//  - pagerank and citation_percentile, which need the whole graph, for
//    every paper at once in memory (ComputeAllMetrics), the first time one
//    is asked for;
//  - novelty, conventionality and novelty_pairs only from a metrics file
//    built with novelty (litgraph-metrics --build --novelty), their keyword
//    variants (novelty_keywords, ...) from one built with
//    --keyword-novelty: asking for them otherwise is InvalidArgument saying
//    so (K randomized networks of the whole store are not a query-time
//    cost).
// A MetricFilter accepts a paper when every condition holds; a null value
// (CD undefined, no novelty pairs) never satisfies a condition.
//
// Thread-safety: a source caches what it computed; one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "litgraph/graph.h"
#include "litgraph/metrics.h"
#include "litgraph/report.h"
#include "litgraph/status.h"
#include "litgraph/store.h"

namespace litgraph {

// The metric fields of metric_entry records (litgraph-json(7)) that a
// condition or another tool's record can name.
enum class MetricField : uint8_t {
  kCd,
  kCdNoNk,
  kNI,
  kNJ,
  kNK,
  kInStore,
  kPageRank,
  kPercentile,
  kNovelty,
  kConventionality,
  kNoveltyPairs,
  kNoveltyKeywords,
  kConventionalityKeywords,
  kNoveltyKeywordsPairs,
};
// The record key: "cd", "cd_no_nk", "n_i", "n_j", "n_k",
// "cited_by_in_store", "pagerank", "citation_percentile", "novelty",
// "conventionality", "novelty_pairs", "novelty_keywords",
// "conventionality_keywords", "novelty_keywords_pairs".
const char* MetricFieldName(MetricField f);
std::optional<MetricField> ParseMetricField(std::string_view name);
// Every field's key, in the enum's order (for messages and documentation).
std::vector<std::string> MetricFieldNames();
// The field's value in a record; nullopt when it is null there.
std::optional<double> MetricValue(const MetricRecord& r, MetricField f);

enum class CompareOp : uint8_t { kLess, kLessEqual, kGreater, kGreaterEqual, kEqual, kNotEqual };

// One condition: FIELD OP NUMBER, e.g. "cd>=0.2", "citation_percentile >= 90",
// "n_k=0" (operators <, <=, >, >=, = or ==, !=; spaces allowed around them;
// the number finite).
struct MetricCondition {
  MetricField field = MetricField::kCd;
  CompareOp op = CompareOp::kGreaterEqual;
  double value = 0;
  // False for a null value.
  bool Holds(std::optional<double> v) const;
};
// InvalidArgument naming the text, and the known fields when the field is
// not one of them.
Result<MetricCondition> ParseMetricCondition(std::string_view text);

class PaperMetricSource {
 public:
  // `needed`: the fields that will be asked for (decides whether the
  // whole-graph metrics are computed, and refuses novelty without a file).
  // `graph` is the store's current graph (not null); both outlive the
  // source. `*note` gets a sentence for the user when the metrics will be
  // computed rather than read (a stale or missing file), else "".
  static Result<std::unique_ptr<PaperMetricSource>> Open(Store* store, Graph* graph,
                                                         const std::vector<MetricField>& needed,
                                                         int threads, std::string* note,
                                                         Reporter* reporter = NullReporter());
  // The paper's metrics (cached). A failure to compute latches in status()
  // and reads as a record with every value null-equivalent (CD undefined).
  const MetricRecord& Get(uint32_t paper);
  // Whether the values come from the metrics file.
  bool from_file() const { return file_ != nullptr; }
  Status status() const { return status_; }

 private:
  PaperMetricSource() = default;
  Store* store_ = nullptr;
  Graph* graph_ = nullptr;
  std::unique_ptr<MetricsFile> file_;
  std::unique_ptr<AllMetrics> all_;  // whole graph in memory, when needed
  std::unordered_map<uint32_t, MetricRecord> cache_;
  Status status_;
};

// Papers that satisfy every condition.
class MetricFilter {
 public:
  MetricFilter(PaperMetricSource* source, std::vector<MetricCondition> conditions)
      : source_(source), conditions_(std::move(conditions)) {}
  bool empty() const { return conditions_.empty(); }
  bool Accept(uint32_t paper) const;

 private:
  PaperMetricSource* source_;
  std::vector<MetricCondition> conditions_;
};

}  // namespace litgraph
