// Named tuning parameters shared by command-line flags and config files.
//
// A ParamTable lists parameters once (name, pointer, description); it adds a
// flag per parameter (--beta-cite for "beta_cite") and reads config files of
// "name = value" lines ('#' starts a comment). Flags given on the command
// line win over the config file. rwr-rank and tri-search share the format,
// so one file can tune both.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <variant>
#include <vector>

#include "litgraph/status.h"

namespace litgraph {

class ParamTable {
 public:
  void Add(std::string name, double* value, std::string description);
  void Add(std::string name, int* value, std::string description);
  void Add(std::string name, size_t* value, std::string description);
  void Add(std::string name, std::string* value, std::string description,
           std::vector<std::string> choices = {});

  // Adds --<name-with-dashes> flags in an option group.
  void AddFlags(CLI::App* app, const std::string& group);
  // Applies a config file; flags already given on the command line keep
  // their value. BadInput "FILE:LINE: ..." for unknown names or bad values.
  Status LoadConfig(const std::string& path);
  // Applies one "name = value" assignment (also used by tests).
  Status Set(const std::string& name, const std::string& value);
  // Re-applies every flag given on the command line, so a flag also wins
  // over presets applied after parsing (--ranking-profile).
  Status ApplyCommandLine();

 private:
  struct Param {
    std::string name, description;
    std::variant<double*, int*, size_t*, std::string*> value;
    std::vector<std::string> choices;
    CLI::Option* option = nullptr;
  };
  Param* Find(const std::string& name);
  std::vector<Param> params_;
};

}  // namespace litgraph
