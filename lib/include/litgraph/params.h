// Named tuning parameters shared by command-line flags and config files.
//
// A ParamTable lists parameters once (name, pointer, description, the values
// it accepts). Config files hold "name = value" lines ('#' starts a comment,
// dashes may stand for underscores); rwr-rank and tri-search share the
// format, so one file can tune both. The tool layer adds one flag per
// parameter (--beta-cite for "beta_cite", AddParamFlags in tools/tool.h),
// which records the value with SetFromCommandLine: a flag wins over the config
// file and over presets applied after parsing (ApplyCommandLine).
//
// Numbers must be finite and inside the parameter's range; an out-of-range,
// non-numeric or unknown value is refused and nothing is stored.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "litgraph/status.h"

namespace litgraph {

// The numbers a parameter accepts: lo <= x <= hi (lo < x when lo_open).
struct ParamRange {
  double lo = -std::numeric_limits<double>::max();
  double hi = std::numeric_limits<double>::max();
  bool lo_open = false;
};

class ParamTable {
 public:
  using Range = ParamRange;
  static Range AtLeast(double lo) { return {lo, std::numeric_limits<double>::max(), false}; }
  static Range Between(double lo, double hi) { return {lo, hi, false}; }
  static Range Above(double lo, double hi) { return {lo, hi, true}; }  // lo < x <= hi

  void Add(std::string name, double* value, std::string description, Range range = {});
  void Add(std::string name, int* value, std::string description, Range range = {});
  void Add(std::string name, size_t* value, std::string description, Range range = {});
  // A free string, or one of `choices` when given.
  void Add(std::string name, std::string* value, std::string description,
           std::vector<std::string> choices = {});
  // An enum, spelled by the names of `choices`.
  template <typename E>
  void AddChoice(std::string name, E* value, std::string description,
                 std::vector<std::pair<std::string, E>> choices);

  // What the tool layer needs to make a flag of each parameter.
  struct Info {
    std::string name, description;
    std::string default_value;         // the value when the table was filled
    std::vector<std::string> choices;  // empty for numbers and free strings
    bool numeric = false;
  };
  std::vector<Info> List() const;

  // Applies one "name = value" assignment. InvalidArgument for an unknown
  // name or a value the parameter does not accept.
  Status Set(const std::string& name, const std::string& value);
  // Set, remembered as given on the command line (see ApplyCommandLine).
  Status SetFromCommandLine(const std::string& name, const std::string& value);
  // Applies a config file; parameters given on the command line keep their
  // value. MalformedInput "FILE:LINE: ..." for unknown names or bad values;
  // IoError naming the file when it is missing, unreadable or a directory.
  Status LoadConfig(const std::string& path);
  // Re-applies every value given on the command line, so a flag also wins
  // over presets applied after parsing (--ranking-profile).
  Status ApplyCommandLine();
  // Applies this table's command-line values to `other`, a table over a
  // second set of the same parameters (as given on its command line).
  Status ApplyCommandLineTo(ParamTable* other) const;

 private:
  struct Param {
    std::string name, description, default_value;
    std::vector<std::string> choices;
    bool numeric = false;
    // Parses and stores; false (with *why) when the value is refused.
    std::function<bool(const std::string&, std::string* why)> set;
  };
  Param* Find(const std::string& name);
  void AddParam(Param p) { params_.push_back(std::move(p)); }
  std::vector<Param> params_;
  std::vector<std::pair<std::string, std::string>> command_line_;
};

template <typename E>
void ParamTable::AddChoice(std::string name, E* value, std::string description,
                           std::vector<std::pair<std::string, E>> choices) {
  Param p;
  p.name = std::move(name);
  p.description = std::move(description);
  for (const auto& [n, e] : choices) {
    p.choices.push_back(n);
    if (e == *value) p.default_value = n;
  }
  p.set = [value, choices = std::move(choices)](const std::string& v, std::string* why) {
    for (const auto& [n, e] : choices)
      if (n == v) {
        *value = e;
        return true;
      }
    *why = "is not one of the choices";
    return false;
  };
  AddParam(std::move(p));
}

}  // namespace litgraph
