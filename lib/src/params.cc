#include "litgraph/params.h"

#include <fmt/format.h>

#include <charconv>
#include <fstream>

namespace litgraph {

void ParamTable::Add(std::string name, double* value, std::string description) {
  params_.push_back({std::move(name), std::move(description), value, {}, nullptr});
}
void ParamTable::Add(std::string name, int* value, std::string description) {
  params_.push_back({std::move(name), std::move(description), value, {}, nullptr});
}
void ParamTable::Add(std::string name, size_t* value, std::string description) {
  params_.push_back({std::move(name), std::move(description), value, {}, nullptr});
}
void ParamTable::Add(std::string name, std::string* value, std::string description,
                     std::vector<std::string> choices) {
  params_.push_back({std::move(name), std::move(description), value, std::move(choices), nullptr});
}

ParamTable::Param* ParamTable::Find(const std::string& name) {
  for (auto& p : params_)
    if (p.name == name) return &p;
  return nullptr;
}

void ParamTable::AddFlags(CLI::App* app, const std::string& group) {
  for (Param& p : params_) {
    std::string flag = "--" + p.name;
    for (char& c : flag)
      if (c == '_') c = '-';
    std::visit(
        [&](auto* v) {
          using T = std::remove_pointer_t<decltype(v)>;
          std::string desc = p.description;
          if constexpr (std::is_same_v<T, std::string>) {
            desc += fmt::format(" (default {})", *v);
            p.option = app->add_option(flag, *v, desc)->group(group)->type_name("NAME");
            if (!p.choices.empty()) p.option->check(CLI::IsMember(p.choices));
          } else {
            desc += fmt::format(" (default {})", *v);
            p.option = app->add_option(flag, *v, desc)->group(group)->type_name("X");
          }
        },
        p.value);
  }
}

Status ParamTable::Set(const std::string& name, const std::string& value) {
  Param* p = Find(name);
  if (!p) return Status::BadInput(fmt::format("unknown parameter \"{}\"", name));
  return std::visit(
      [&](auto* v) -> Status {
        using T = std::remove_pointer_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          if (!p->choices.empty() && std::find(p->choices.begin(), p->choices.end(), value) == p->choices.end())
            return Status::BadInput(fmt::format("\"{}\" is not a valid {}", value, name));
          *v = value;
          return Status::Ok();
        } else if constexpr (std::is_same_v<T, double>) {
          char* end = nullptr;
          double x = std::strtod(value.c_str(), &end);
          if (end == value.c_str() || *end != '\0')
            return Status::BadInput(fmt::format("{} needs a number, not \"{}\"", name, value));
          *v = x;
          return Status::Ok();
        } else {
          T x{};
          auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), x);
          if (ec != std::errc() || ptr != value.data() + value.size())
            return Status::BadInput(fmt::format("{} needs an integer, not \"{}\"", name, value));
          *v = x;
          return Status::Ok();
        }
      },
      p->value);
}

Status ParamTable::ApplyCommandLine() {
  for (Param& p : params_) {
    if (!p.option || p.option->count() == 0 || p.option->results().empty()) continue;
    Status st = Set(p.name, p.option->results().back());
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

Status ParamTable::LoadConfig(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::Io(fmt::format("{}: cannot open config file", path));
  std::string line;
  int n = 0;
  auto trim = [](std::string s) {
    size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
  };
  while (std::getline(in, line)) {
    ++n;
    line = trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    size_t eq = line.find('=');
    if (eq == std::string::npos)
      return Status::BadInput(fmt::format("{}:{}: expected \"name = value\"", path, n));
    std::string name = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    for (char& c : name)
      if (c == '-') c = '_';
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
      value = value.substr(1, value.size() - 2);
    Param* p = Find(name);
    if (p && p->option && p->option->count() > 0) continue;  // the flag wins
    Status st = Set(name, value);
    if (!st.ok()) return Status::BadInput(fmt::format("{}:{}: {}", path, n, st.message()));
  }
  return Status::Ok();
}

}  // namespace litgraph
