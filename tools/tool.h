// The tool layer: the command-line frame every litgraph executable is built
// on. Only this layer knows CLI11, terminals and exit codes; the library
// (lib/) never prints.
//
// A tool's main() creates a Tool, adds its own options to app(), and calls
// Run() with one function that does the work. Tool adds the common options with
// the same spelling and meaning everywhere (--db, --format, -q/--quiet,
// --threads, --version, --help), maps CLI11's parse errors to exit 2, prints
// help/version to stdout with exit 0, turns the returned Status into the exit
// code and message ("litgraph-<tool>: error: ..."), checks that stdout was
// written, ends quietly on a broken pipe, and reports anything thrown as an
// internal error (exit 5).
//
// The tools are listed once, in tools/tools.list (name and summary); CMake
// builds one executable per line and generates the list compiled in here.
// Each tool's man page and bash/zsh/fish completions are generated from its
// option definitions (hidden flags --generate-man and --generate-completion
// SHELL), so they cannot drift from the code; man/ and completions/ hold the
// generated files and a test checks they are current.
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "litgraph/http.h"
#include "litgraph/jsonl.h"
#include "litgraph/metric_select.h"
#include "litgraph/output.h"
#include "litgraph/params.h"
#include "litgraph/report.h"
#include "litgraph/status.h"
#include "litgraph/store.h"

namespace litgraph {

class PaperFinder;

// One line of tools/tools.list.
struct ToolInfo {
  const char* name;
  const char* summary;
};
// Every tool, in the list's order.
const std::vector<ToolInfo>& ToolList();

// The process exit code of a status (product contract): 0 ok, 1 nothing
// found, 2 invalid argument, 3 malformed input, 4 I/O, store, backend error
// or damage, 5 internal error.
int ExitCode(const Status& status);

// Sections of a tool's man page that are prose rather than option lists.
struct Manual {
  std::string synopsis;     // e.g. "[OPTIONS] [FILE...]"
  std::string description;  // paragraphs separated by blank lines
  std::string input;        // what the tool reads
  std::string output;       // what it writes (fields are in litgraph-json(7))
  std::string exit_status;  // tool-specific notes added to the shared list
  // Examples: pairs of command line and one-sentence explanation.
  std::vector<std::pair<std::string, std::string>> examples;
  std::string summary;  // one line; default: the tool's line in tools.list
};

struct CommonOptions {
  std::string db;           // store directory (--db, $LITGRAPH_DB, ./litgraph.db)
  std::string format_name;  // as given; empty = automatic
  bool quiet = false;
  int threads = 0;                 // 0 = hardware concurrency
  Format format = Format::kJsonl;  // resolved after parsing
};

// The --format values of tools that print papers: records, tables and
// citations (lineage adds its drawings).
std::vector<std::string> PaperFormats();

class Tool {
 public:
  // name: the part after "litgraph-" ("ingest"); formats: the --format values
  // this tool accepts, the first of jsonl/table being the automatic default.
  Tool(std::string name, Manual manual,
       std::vector<std::string> formats = {"jsonl", "table", "tsv"});
  ~Tool();

  CLI::App& app() { return app_; }
  const CommonOptions& common() const { return common_; }
  const std::string& name() const { return name_; }
  std::string prog() const { return "litgraph-" + name_; }

  // Progress, notes and warnings for the library: drawn on stderr (progress
  // only when it is a terminal), silent under --quiet.
  Reporter* reporter();
  void Warn(std::string_view msg) const;
  void Note(std::string_view msg) const;

  // --stats: a tool's run summary as one JSON object on stdout (Summary).
  void AddStatsFlag();
  // --fields and --sort, for tools that print records of papers (with the
  // formats in PaperFormats); Shape applies them, and the store's extra
  // fields for citations, to an Output.
  void AddShapingOptions();
  void Shape(Output* out, Store* store) const;
  bool Shaped() const { return !fields_.empty() || sort_.has_value(); }  // --fields or --sort
  const std::vector<std::string>& fields() const { return fields_; }
  const std::optional<SortKey>& sort() const { return sort_; }
  // Prints the human summary as a note and, with --stats, the record.
  void Summary(const std::string& human, const Json& record);

  // Parses and runs; returns the process exit code. Never throws.
  int Run(int argc, char** argv, const std::function<Status()>& body);

  // Generated documentation (also reachable through the hidden flags).
  std::string ManPage() const;
  std::string Completion(std::string_view shell) const;

 private:
  class Terminal;
  // "did you mean --limit?" for a long option in argv that is not one of
  // this tool's, or "".
  std::string Suggestion(int argc, char** argv) const;

  std::string name_, summary_;
  Manual manual_;
  std::vector<std::string> formats_;
  CLI::App app_;
  CommonOptions common_;
  std::vector<std::string> fields_;
  std::optional<SortKey> sort_;
  std::string generate_completion_;
  bool generate_man_ = false, stats_ = false;
  std::unique_ptr<Terminal> terminal_;
};

// The values a numeric option accepts, as a CLI11 validator: a finite
// number of type T within [lo, hi]; integers are written as digits (an
// optional sign, no fraction or exponent). Every numeric option of every
// tool checks its value with it (`->check(NumberIn(1, 1000))`), so NaN,
// infinities, values out of range or too long for T, and trailing text are
// usage errors (exit 2) naming the option and the range:
//   --limit: 99999999999999999999 is not an integer from 1 to 1000000
// --help shows the range after the value name (N:1..1000000). Parameters of
// a ParamTable are checked by the table (AddParamFlags), the same way.
template <typename T>
CLI::Validator NumberIn(T lo, T hi);

// --after YEAR later than --before YEAR: a usage error naming both (a
// range that can match nothing is a mistake, not an empty result).
Status CheckYearRange(int after, int before);

// Opens the --db store for writing (creating it) and runs `write` on it.
// When this call created the store and `write` fails leaving it empty (it
// committed nothing), removes what the call made: the directory, or the
// store's files in an existing directory. Used by ingest and merge.
Status WriteNewOrExistingStore(Tool& tool, const std::function<Status(Store*)>& write);

// The papers a tool is given: `texts` (ids, DOIs or titles, as
// PaperFinder::Resolve takes them), or the ids on standard input when there
// are none (read into `texts`); `none` is the usage error when neither names
// one. A paper not in the store is a warning, counted in *missing.
Result<std::vector<uint32_t>> ResolvePapers(Tool& tool, PaperFinder& finder,
                                            std::vector<std::string>* texts, const char* none,
                                            size_t* missing);

// Paper metrics in the records of a tool that prints papers
// (metric_select.h): --where FIELD OP NUMBER (repeatable) keeps the papers
// whose metric satisfies every condition, and the metric fields that
// --where, --fields or --sort name are added to each paper record (so
// --sort cd orders by the CD index). One mechanism for find-paper and
// tri-search.
class MetricSelection {
 public:
  MetricSelection();
  ~MetricSelection();
  void AddOptions(CLI::App* app);
  // After parsing: parses the conditions and, when any metric is named,
  // opens the metrics source (a note when they are computed rather than
  // read). IoError when metrics are asked for and the store has no graph.
  Status Prepare(Tool& tool, Store* store, Graph* graph);
  // Whether any metric is named (a condition or a field).
  bool active() const { return !fields_.empty(); }
  // The conditions as a query's filter; null when there are none.
  std::function<bool(int64_t)> Accept();
  // Adds the named metric fields (record keys of metric_entry) to a paper
  // record.
  void AddFields(Json* record, uint32_t paper);
  // A failure met while computing metrics (checked after the run).
  Status status() const;

 private:
  std::vector<std::string> where_;
  std::vector<MetricField> fields_;  // named by --where, --fields, --sort
  std::unique_ptr<PaperMetricSource> source_;
  std::unique_ptr<MetricFilter> filter_;
};

// The candidate closest to a mistyped word by edit distance, for "did you
// mean" hints; empty when none is close (more than a third of the word, at
// least 2 edits, differs).
std::string Nearest(std::string_view word, const std::vector<std::string>& candidates);

// Number of worker threads to use for --threads N (0 = hardware concurrency).
int ResolveThreads(int requested);

// One flag per parameter of `table` (--beta-cite for "beta_cite") in an
// option group; a given flag is recorded with ParamTable::SetFromCommandLine,
// and a value the parameter refuses is a usage error.
void AddParamFlags(CLI::App* app, ParamTable* table, const std::string& group);

// The options of an HTTP backend, named --<prefix>-url, -model, -timeout,
// -retries and -concurrency ("llm", "embed"); `what` names the endpoint in
// the help ("Chat-completions").
void AddBackendOptions(CLI::App* app, const std::string& prefix, const std::string& what,
                       std::string* url, std::string* model, HttpOptions* http);

// --memory-budget SIZE (512M, 4G; at least 8M, default 1G) of a tool that
// builds in bounded memory; `what` says what the budget holds in the help.
void AddMemoryBudgetOption(CLI::App* app, const std::string& what, size_t* budget);

namespace internal {

// "an integer from 1 to 10", "a number from 0 to 1"; "1..10" with `brief`.
std::string NumberRangeText(double lo, double hi, bool integer, bool brief);

// Parses all of `s` as T; false for anything else (see NumberIn).
template <typename T>
bool ParseNumber(const std::string& s, T* out) {
  if (s.empty() || s[0] == ' ' || s[0] == '\t') return false;
  if constexpr (std::is_integral_v<T>) {
    const char* b = s.data() + (s[0] == '+' ? 1 : 0);
    const char* e = s.data() + s.size();
    if (b == e || (b != s.data() && *b == '-')) return false;  // "+" and "+-1"
    auto [p, ec] = std::from_chars(b, e, *out);
    return ec == std::errc() && p == e;
  } else {
    char* end = nullptr;
    const double x = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(x)) return false;
    *out = static_cast<T>(x);
    return std::isfinite(*out);
  }
}

}  // namespace internal

template <typename T>
CLI::Validator NumberIn(T lo, T hi) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
  constexpr bool kInteger = std::is_integral_v<T>;
  const std::string range =
      internal::NumberRangeText(static_cast<double>(lo), static_cast<double>(hi), kInteger, false);
  return CLI::Validator(
      [lo, hi, range](std::string& s) -> std::string {
        T x{};
        if (internal::ParseNumber(s, &x) && x >= lo && x <= hi) return "";
        return (s.empty() ? std::string("\"\"") : s) + " is not " + range;
      },
      internal::NumberRangeText(static_cast<double>(lo), static_cast<double>(hi), kInteger, true),
      "NUMBER");
}

}  // namespace litgraph
