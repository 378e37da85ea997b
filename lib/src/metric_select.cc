#include "litgraph/metric_select.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

namespace litgraph {

namespace {

constexpr const char* kFieldNames[] = {"cd",
                                       "cd_no_nk",
                                       "n_i",
                                       "n_j",
                                       "n_k",
                                       "cited_by_in_store",
                                       "pagerank",
                                       "citation_percentile",
                                       "novelty",
                                       "conventionality",
                                       "novelty_pairs",
                                       "novelty_keywords",
                                       "conventionality_keywords",
                                       "novelty_keywords_pairs"};
constexpr size_t kNumFields = sizeof(kFieldNames) / sizeof(kFieldNames[0]);

bool WholeGraph(MetricField f) {
  return f == MetricField::kPageRank || f == MetricField::kPercentile;
}
bool NeedsNovelty(MetricField f) {
  return f == MetricField::kNovelty || f == MetricField::kConventionality ||
         f == MetricField::kNoveltyPairs;
}
bool NeedsKeywordNovelty(MetricField f) {
  return f == MetricField::kNoveltyKeywords || f == MetricField::kConventionalityKeywords ||
         f == MetricField::kNoveltyKeywordsPairs;
}

std::optional<double> NoveltyValue(const std::optional<Novelty>& n, int which) {
  if (!n) return std::nullopt;
  if (which == 2) return static_cast<double>(n->pairs);
  if (std::isnan(n->novelty)) return std::nullopt;
  return static_cast<double>(which == 0 ? n->novelty : n->conventionality);
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

const char* MetricFieldName(MetricField f) { return kFieldNames[static_cast<size_t>(f)]; }

std::optional<MetricField> ParseMetricField(std::string_view name) {
  for (size_t i = 0; i < kNumFields; ++i)
    if (name == kFieldNames[i]) return static_cast<MetricField>(i);
  return std::nullopt;
}

std::vector<std::string> MetricFieldNames() {
  return std::vector<std::string>(std::begin(kFieldNames), std::end(kFieldNames));
}

std::optional<double> MetricValue(const MetricRecord& r, MetricField f) {
  switch (f) {
    case MetricField::kCd:
      return r.disruption.Cd();
    case MetricField::kCdNoNk:
      return r.disruption.CdNoNk();
    case MetricField::kNI:
      return r.disruption.n_i;
    case MetricField::kNJ:
      return r.disruption.n_j;
    case MetricField::kNK:
      return r.disruption.n_k;
    case MetricField::kInStore:
      return r.in_store_citations;
    case MetricField::kPageRank:
      return r.pagerank;
    case MetricField::kPercentile:
      if (!r.percentile) return std::nullopt;
      return static_cast<double>(*r.percentile);
    case MetricField::kNovelty:
      return NoveltyValue(r.novelty, 0);
    case MetricField::kConventionality:
      return NoveltyValue(r.novelty, 1);
    case MetricField::kNoveltyPairs:
      return NoveltyValue(r.novelty, 2);
    case MetricField::kNoveltyKeywords:
      return NoveltyValue(r.keyword_novelty, 0);
    case MetricField::kConventionalityKeywords:
      return NoveltyValue(r.keyword_novelty, 1);
    case MetricField::kNoveltyKeywordsPairs:
      return NoveltyValue(r.keyword_novelty, 2);
  }
  return std::nullopt;
}

bool MetricCondition::Holds(std::optional<double> v) const {
  if (!v) return false;
  switch (op) {
    case CompareOp::kLess:
      return *v < value;
    case CompareOp::kLessEqual:
      return *v <= value;
    case CompareOp::kGreater:
      return *v > value;
    case CompareOp::kGreaterEqual:
      return *v >= value;
    case CompareOp::kEqual:
      return *v == value;
    case CompareOp::kNotEqual:
      return *v != value;
  }
  return false;
}

Result<MetricCondition> ParseMetricCondition(std::string_view text) {
  const size_t at = text.find_first_of("<>=!");
  auto bad = [&](const std::string& why) {
    return Status::InvalidArgument(fmt::format("--where {}: {}", text, why));
  };
  if (at == std::string_view::npos)
    return bad("not FIELD OP NUMBER (e.g. cd>=0.2; OP one of < <= > >= = !=)");
  MetricCondition c;
  std::string_view name = Trim(text.substr(0, at)), rest = text.substr(at);
  static const std::pair<const char*, CompareOp> kOps[] = {
      {"<=", CompareOp::kLessEqual}, {">=", CompareOp::kGreaterEqual}, {"==", CompareOp::kEqual},
      {"!=", CompareOp::kNotEqual},  {"<", CompareOp::kLess},          {">", CompareOp::kGreater},
      {"=", CompareOp::kEqual}};
  bool found = false;
  for (const auto& [sym, op] : kOps) {
    const std::string_view s(sym);
    if (rest.substr(0, s.size()) == s) {
      c.op = op;
      rest.remove_prefix(s.size());
      found = true;
      break;
    }
  }
  if (!found) return bad("not FIELD OP NUMBER (OP one of < <= > >= = !=)");
  auto field = ParseMetricField(name);
  if (!field) {
    std::string known;
    for (const auto& n : MetricFieldNames()) {
      if (!known.empty()) known += ", ";
      known += n;
    }
    return bad(fmt::format("unknown metric \"{}\" (known: {})", name, known));
  }
  c.field = *field;
  const std::string number(Trim(rest));
  char* end = nullptr;
  c.value = number.empty() ? NAN : std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(c.value))
    return bad(fmt::format("\"{}\" is not a finite number", number));
  return c;
}

Result<std::unique_ptr<PaperMetricSource>> PaperMetricSource::Open(
    Store* store, Graph* graph, const std::vector<MetricField>& needed, int threads,
    std::string* note, Reporter* reporter) {
  note->clear();
  std::unique_ptr<PaperMetricSource> s(new PaperMetricSource());
  s->store_ = store;
  s->graph_ = graph;
  bool stale = false;
  auto file = MetricsFile::Open(store, *graph, &stale);
  if (!file.ok()) return file.status();
  bool novelty = false, keywords = false, whole = false;
  for (MetricField f : needed) {
    novelty |= NeedsNovelty(f);
    keywords |= NeedsKeywordNovelty(f);
    whole |= WholeGraph(f);
  }
  if (*file && (*file)->window() == kDefaultCdWindow && (!novelty || (*file)->has_novelty()) &&
      (!keywords || (*file)->has_keyword_novelty())) {
    s->file_ = std::move(file.value());
    return s;
  }
  if (novelty || keywords) {
    const char* build = keywords ? "--keyword-novelty" : "--novelty";
    if (*file && (*file)->window() == kDefaultCdWindow)
      return Status::InvalidArgument(
          fmt::format("{} is not in the store's metrics file (run litgraph-metrics --build {})",
                      keywords ? "keyword novelty" : "novelty", build));
    return Status::InvalidArgument(
        fmt::format("novelty needs the store's metrics file{} (run litgraph-metrics --build {})",
                    stale ? ", which predates the store's citations" : "", build));
  }
  const std::string why = stale   ? "the store's metrics file predates its citations"
                          : *file ? fmt::format("the store's metrics file has CD window {}, not {}",
                                                (*file)->window(), kDefaultCdWindow)
                                  : "the store has no metrics file";
  if (whole) {
    *note = why +
            ": computing every paper's metrics in memory for pagerank and citation_percentile "
            "(litgraph-metrics --build keeps them)";
    MetricsBuildOptions o;
    o.threads = threads;
    auto all = ComputeAllMetrics(*graph, o, reporter);
    if (!all.ok()) return all.status();
    s->all_ = std::make_unique<AllMetrics>(std::move(all.value()));
  } else {
    *note = why + ": computing the CD index of each paper asked for";
  }
  return s;
}

const MetricRecord& PaperMetricSource::Get(uint32_t paper) {
  auto it = cache_.find(paper);
  if (it != cache_.end()) return it->second;
  MetricRecord r;
  r.paper = paper;
  r.disruption.undefined = CdUndefined::kNoReferences;  // until known
  if (file_) {
    PaperMetrics m;
    if (file_->Get(paper, &m)) {
      r = ToRecord(paper, m);
    } else if (Status st = file_->status(); !st.ok() && status_.ok()) {
      status_ = st;
    }
  } else if (all_) {
    if (paper < all_->cd.size()) r = ToRecord(paper, *all_);
  } else {
    auto cd = ComputeDisruptionOf(*graph_, {paper}, kDefaultCdWindow);
    if (cd.ok() && cd->size() == 1) {
      r.disruption = (*cd)[0];
      r.in_store_citations = graph_->InStoreCitations(paper);
    } else if (status_.ok()) {
      status_ = cd.ok() ? Status::Internal("no CD value computed") : cd.status();
    }
  }
  return cache_.emplace(paper, r).first->second;
}

bool MetricFilter::Accept(uint32_t paper) const {
  if (conditions_.empty()) return true;
  const MetricRecord& r = source_->Get(paper);
  for (const MetricCondition& c : conditions_)
    if (!c.Holds(MetricValue(r, c.field))) return false;
  return true;
}

}  // namespace litgraph
