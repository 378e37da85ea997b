// The shared command-line frame every litgraph tool is built on.
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
// The man page and the bash/zsh/fish completions are generated from the same
// option definitions (hidden flags --generate-man and --generate-completion
// SHELL), so they cannot drift from the code; man/ and completions/ hold the
// generated files and a test checks they are current.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "litgraph/output.h"
#include "litgraph/status.h"

namespace litgraph {

// Sections of a tool's man page that are prose rather than option lists.
struct Manual {
  std::string synopsis;     // e.g. "[OPTIONS] [FILE...]"
  std::string description;  // paragraphs separated by blank lines
  std::string input;        // what the tool reads
  std::string output;       // what it writes (fields are in litgraph-json(7))
  std::string exit_status;  // tool-specific notes added to the shared list
  // Examples: pairs of command line and one-sentence explanation.
  std::vector<std::pair<std::string, std::string>> examples;
};

struct CommonOptions {
  std::string db;               // store directory (--db, $LITGRAPH_DB, ./litgraph.db)
  std::string format_name;      // as given; empty = automatic
  bool quiet = false;
  int threads = 0;              // 0 = hardware concurrency
  Format format = Format::kJsonl;  // resolved after parsing
};

class Tool {
 public:
  // name: the part after "litgraph-" ("ingest"); formats: the --format values
  // this tool accepts, the first of jsonl/table being the automatic default.
  Tool(std::string name, std::string summary, Manual manual,
       std::vector<std::string> formats = {"jsonl", "table", "tsv"});

  CLI::App& app() { return app_; }
  const CommonOptions& common() const { return common_; }
  const std::string& name() const { return name_; }
  std::string prog() const { return "litgraph-" + name_; }

  // True when progress lines should be drawn (stderr is a terminal, not quiet).
  bool ShowProgress() const;
  // "litgraph-<tool>: warning: msg" / plain notes on stderr, unless --quiet.
  void Warn(std::string_view msg) const;
  void Note(std::string_view msg) const;

  // Parses and runs; returns the process exit code. Never throws.
  int Run(int argc, char** argv, const std::function<Status()>& body);

  // Generated documentation (also reachable through the hidden flags).
  std::string ManPage() const;
  std::string Completion(std::string_view shell) const;

 private:
  std::string name_, summary_;
  Manual manual_;
  std::vector<std::string> formats_;
  CLI::App app_;
  CommonOptions common_;
  std::string generate_completion_;
  bool generate_man_ = false;
};

// Number of worker threads to use for --threads N (0 = hardware concurrency).
int ResolveThreads(int requested);

}  // namespace litgraph
