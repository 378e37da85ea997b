#include "litgraph/params.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "litgraph/jsonl.h"

namespace litgraph {

namespace {

// 1000000 rather than 1e+06.
std::string Num(double x) {
  return std::floor(x) == x && std::fabs(x) < 1e15 ? fmt::format("{}", static_cast<int64_t>(x))
                                                   : fmt::format("{}", x);
}

std::string RangeText(const ParamTable::Range& r) {
  constexpr double kMax = std::numeric_limits<double>::max();
  if (r.lo == -kMax && r.hi == kMax) return "a finite number";
  if (r.hi == kMax) return fmt::format("a number >= {}", Num(r.lo));
  return fmt::format("a number {} {} and <= {}", r.lo_open ? ">" : ">=", Num(r.lo), Num(r.hi));
}

bool InRange(double x, const ParamTable::Range& r) {
  return std::isfinite(x) && (r.lo_open ? x > r.lo : x >= r.lo) && x <= r.hi;
}

// Parses an integer of type T (the whole string, no sign for unsigned types).
template <typename T>
bool ParseInt(const std::string& s, T* out) {
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size() && !s.empty();
}

}  // namespace

void ParamTable::Add(std::string name, double* value, std::string description, Range range) {
  AddParam({std::move(name),
            std::move(description),
            fmt::format("{}", *value),
            {},
            true,
            [value, range](const std::string& s, std::string* why) {
              char* end = nullptr;
              double x = std::strtod(s.c_str(), &end);
              if (s.empty() || end != s.c_str() + s.size() || !InRange(x, range)) {
                *why = "is not " + RangeText(range);
                return false;
              }
              *value = x;
              return true;
            }});
}

void ParamTable::Add(std::string name, int* value, std::string description, Range range) {
  AddParam({std::move(name),
            std::move(description),
            fmt::format("{}", *value),
            {},
            true,
            [value, range](const std::string& s, std::string* why) {
              int x = 0;
              if (!ParseInt(s, &x) || !InRange(x, range)) {
                *why = "is not an integer (" + RangeText(range) + ")";
                return false;
              }
              *value = x;
              return true;
            }});
}

void ParamTable::Add(std::string name, size_t* value, std::string description, Range range) {
  AddParam({std::move(name),
            std::move(description),
            fmt::format("{}", *value),
            {},
            true,
            [value, range](const std::string& s, std::string* why) {
              size_t x = 0;
              if (!ParseInt(s, &x) || !InRange(static_cast<double>(x), range)) {
                *why = "is not a count (" + RangeText(range) + ")";
                return false;
              }
              *value = x;
              return true;
            }});
}

void ParamTable::Add(std::string name, std::string* value, std::string description,
                     std::vector<std::string> choices) {
  Param p{std::move(name), std::move(description), *value, choices, false, nullptr};
  p.set = [value, choices](const std::string& s, std::string* why) {
    if (!choices.empty() && std::find(choices.begin(), choices.end(), s) == choices.end()) {
      *why = "is not one of the choices";
      return false;
    }
    *value = s;
    return true;
  };
  AddParam(std::move(p));
}

std::vector<ParamTable::Info> ParamTable::List() const {
  std::vector<Info> out;
  for (const Param& p : params_)
    out.push_back({p.name, p.description, p.default_value, p.choices, p.numeric});
  return out;
}

ParamTable::Param* ParamTable::Find(const std::string& name) {
  for (auto& p : params_)
    if (p.name == name) return &p;
  return nullptr;
}

Status ParamTable::Set(const std::string& name, const std::string& value) {
  Param* p = Find(name);
  if (!p) return Status::InvalidArgument(fmt::format("unknown parameter \"{}\"", name));
  std::string why;
  if (!p->set(value, &why)) {
    std::string choices;
    for (const auto& c : p->choices) choices += (choices.empty() ? " (" : ", ") + c;
    if (!choices.empty()) choices += ")";
    return Status::InvalidArgument(fmt::format("{}: \"{}\" {}{}", name, value, why, choices));
  }
  return Status::Ok();
}

Status ParamTable::SetFromCommandLine(const std::string& name, const std::string& value) {
  LITGRAPH_RETURN_IF_ERROR(Set(name, value));
  command_line_.emplace_back(name, value);
  return Status::Ok();
}

Status ParamTable::ApplyCommandLine() {
  for (const auto& [name, value] : command_line_) LITGRAPH_RETURN_IF_ERROR(Set(name, value));
  return Status::Ok();
}

Status ParamTable::ApplyCommandLineTo(ParamTable* other) const {
  for (const auto& [name, value] : command_line_)
    LITGRAPH_RETURN_IF_ERROR(other->SetFromCommandLine(name, value));
  return Status::Ok();
}

Status ParamTable::LoadConfig(const std::string& path) {
  auto trim = [](std::string s) {
    size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
  };
  auto given = [&](const std::string& name) {
    for (const auto& [n, v] : command_line_)
      if (n == name) return true;
    return false;
  };
  // The input reader refuses directories and unreadable files (IoError) and
  // takes any line ends.
  return ForEachLineIn(path, [&](std::string_view text, const std::string& where) -> Status {
    std::string line = trim(std::string(text.substr(0, text.find('#'))));
    if (line.empty()) return Status::Ok();
    size_t eq = line.find('=');
    if (eq == std::string::npos)
      return Status::MalformedInput(fmt::format("{}: expected \"name = value\"", where));
    std::string name = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    for (char& c : name)
      if (c == '-') c = '_';
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
      value = value.substr(1, value.size() - 2);
    if (given(name)) return Status::Ok();  // the flag wins
    Status st = Set(name, value);
    if (!st.ok()) return Status::MalformedInput(fmt::format("{}: {}", where, st.message()));
    return Status::Ok();
  });
}

}  // namespace litgraph
