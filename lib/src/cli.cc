#include "litgraph/cli.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace litgraph {

namespace {

// Returns the {a,b,c} choices CLI11's IsMember validator put in the type name.
std::vector<std::string> OptionChoices(const CLI::Option* o) {
  std::string t = o->get_type_name();
  auto l = t.find('{'), r = t.find('}');
  std::vector<std::string> out;
  if (l == std::string::npos || r == std::string::npos || r < l) return out;
  std::string inner = t.substr(l + 1, r - l - 1);
  size_t start = 0;
  while (start <= inner.size()) {
    size_t comma = inner.find(',', start);
    if (comma == std::string::npos) comma = inner.size();
    std::string v = inner.substr(start, comma - start);
    if (!v.empty()) out.push_back(v);
    start = comma + 1;
  }
  return out;
}

std::string ValueName(const CLI::Option* o) {
  std::string t = o->get_type_name();
  auto colon = t.find(':');
  if (colon != std::string::npos) t = t.substr(0, colon);
  return t.empty() ? "VALUE" : t;
}

bool IsHidden(const CLI::Option* o) { return o->get_group().empty(); }

// Flags (--quiet) take no value; CLI11 reports them with expected_max 0.
bool TakesValue(const CLI::Option* o) { return o->get_type_size() != 0 && o->get_expected_max() != 0; }

// Options of the app and of its option groups (CLI11 keeps those apart).
std::vector<const CLI::Option*> AllOptions(const CLI::App& app) {
  std::vector<const CLI::Option*> out = app.get_options();
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->get_name().empty())
      for (const CLI::Option* o : AllOptions(*sub)) out.push_back(o);
  return out;
}

// roff escaping: backslashes and leading dots/quotes.
std::string Roff(std::string_view s) {
  std::string out;
  bool line_start = true;
  for (char c : s) {
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else if (line_start && (c == '.' || c == '\'')) out += "\\&" + std::string(1, c);
    else out += c;
    line_start = c == '\n';
  }
  return out;
}

std::string RoffParagraphs(std::string_view text) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find("\n\n", pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view para = text.substr(pos, end - pos);
    while (!para.empty() && para.front() == '\n') para.remove_prefix(1);
    if (!para.empty()) {
      if (!out.empty()) out += ".PP\n";
      out += Roff(para) + "\n";
    }
    pos = end + 2;
  }
  return out;
}

std::string ShellQuote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

}  // namespace

int ResolveThreads(int requested) {
  if (requested > 0) return requested;
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

Tool::Tool(std::string name, std::string summary, Manual manual, std::vector<std::string> formats)
    : name_(std::move(name)),
      summary_(std::move(summary)),
      manual_(std::move(manual)),
      formats_(std::move(formats)),
      app_(summary_, "litgraph-" + name_) {
  app_.set_version_flag("--version", std::string("litgraph-") + name_ + " " + LITGRAPH_VERSION,
                        "Print the version and exit");
  app_.get_formatter()->column_width(34);
  const char* env_db = std::getenv("LITGRAPH_DB");
  common_.db = env_db && *env_db ? env_db : "./litgraph.db";
  app_.add_option("--db", common_.db,
                  "Store directory (default: $LITGRAPH_DB, else ./litgraph.db)")
      ->type_name("DIR")
      ->group("Common options");
  app_.add_option("--format", common_.format_name,
                  "Output format (default: table on a terminal, jsonl otherwise)")
      ->check(CLI::IsMember(formats_))
      ->group("Common options");
  app_.add_flag("-q,--quiet", common_.quiet, "No progress, notes or warnings on stderr")
      ->group("Common options");
  app_.add_option("--threads", common_.threads, "Worker threads (default: all cores)")
      ->type_name("N")
      ->check(CLI::NonNegativeNumber)
      ->group("Common options");
  app_.add_flag("--generate-man", generate_man_, "Print the man page (roff) and exit")->group("");
  app_.add_option("--generate-completion", generate_completion_,
                  "Print a completion script for SHELL and exit")
      ->check(CLI::IsMember({"bash", "zsh", "fish"}))
      ->group("");
  app_.footer("Exit status: 0 ok, 1 nothing found, 2 usage, 3 malformed input, 4 I/O or store,"
              " 5 internal. See man litgraph-" + name_ + ".");
}

bool Tool::ShowProgress() const { return !common_.quiet && isatty(STDERR_FILENO); }

void Tool::Warn(std::string_view msg) const {
  if (!common_.quiet) fmt::print(stderr, "{}: warning: {}\n", prog(), msg);
}

void Tool::Note(std::string_view msg) const {
  if (!common_.quiet) fmt::print(stderr, "{}: {}\n", prog(), msg);
}

int Tool::Run(int argc, char** argv, const std::function<Status()>& body) {
  std::signal(SIGPIPE, SIG_IGN);
  try {
    try {
      app_.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      return app_.exit(e);  // help to stdout, 0
    } catch (const CLI::CallForAllHelp& e) {
      return app_.exit(e);
    } catch (const CLI::CallForVersion& e) {
      return app_.exit(e);
    } catch (const CLI::ParseError& e) {
      fmt::print(stderr, "{}: error: {}\nRun '{} --help' for usage.\n", prog(), e.what(), prog());
      return static_cast<int>(Code::kUsage);
    }
    if (generate_man_) {
      std::fputs(ManPage().c_str(), stdout);
      return std::fflush(stdout) == 0 ? 0 : static_cast<int>(Code::kIo);
    }
    if (!generate_completion_.empty()) {
      std::fputs(Completion(generate_completion_).c_str(), stdout);
      return std::fflush(stdout) == 0 ? 0 : static_cast<int>(Code::kIo);
    }
    if (common_.format_name.empty()) {
      bool tty = isatty(STDOUT_FILENO);
      bool has_table = std::find(formats_.begin(), formats_.end(), "table") != formats_.end();
      common_.format = tty && has_table ? Format::kTable : Format::kJsonl;
    } else {
      ParseFormat(common_.format_name, &common_.format);
    }
    Status st;
    try {
      st = body();
    } catch (const StatusError& e) {
      st = e.status();
    }
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
      if (errno == EPIPE) return st.exit_code();
      if (st.ok()) st = Status::Io(fmt::format("error writing output: {}", std::strerror(errno)));
    }
    if (!st.ok() && !st.message().empty()) {
      if (st.code() == Code::kNotFound) {
        if (!common_.quiet) fmt::print(stderr, "{}: {}\n", prog(), st.message());
      } else {
        fmt::print(stderr, "{}: error: {}\n", prog(), st.message());
      }
    }
    return st.exit_code();
  } catch (const BrokenPipe&) {
    return 0;  // `| head` closed the pipe: end quietly
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "{}: error: out of memory\n", prog());
    return static_cast<int>(Code::kIo);
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: internal error: {}\n", prog(), e.what());
    return static_cast<int>(Code::kInternal);
  } catch (...) {
    fmt::print(stderr, "{}: internal error\n", prog());
    return static_cast<int>(Code::kInternal);
  }
}

std::string Tool::ManPage() const {
  std::string p = prog();
  std::string upper = p;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string m;
  m += fmt::format(".TH {} 1 \"\" \"litgraph {}\" \"litgraph manual\"\n", upper, LITGRAPH_VERSION);
  m += ".SH NAME\n" + Roff(p) + " \\- " + Roff(summary_) + "\n";
  m += ".SH SYNOPSIS\n.B " + Roff(p) + "\n" + Roff(manual_.synopsis) + "\n";
  m += ".br\n.B litgraph " + Roff(name_) + "\n" + Roff(manual_.synopsis) + "\n";
  m += ".SH DESCRIPTION\n" + RoffParagraphs(manual_.description);
  m += ".SH OPTIONS\n";
  auto describe = [&](const CLI::Option* o) {
    std::string names;
    for (const auto& s : o->get_snames()) names += (names.empty() ? "" : ", ") + ("\\-" + s);
    for (const auto& l : o->get_lnames())
      names += (names.empty() ? "" : ", ") + ("\\-\\-" + Roff(l));
    if (o->get_positional() && names.empty()) names = Roff(o->get_name(true));
    std::string value;
    if (TakesValue(o) && !o->get_positional()) value = " \\fI" + Roff(ValueName(o)) + "\\fR";
    std::string desc = o->get_description();
    auto choices = OptionChoices(o);
    if (!choices.empty()) {
      desc += " One of:";
      for (const auto& c : choices) desc += " " + c;
      desc += ".";
    }
    if (!o->get_envname().empty()) desc += " Environment: " + o->get_envname() + ".";
    return ".TP\n.B " + names + value + "\n" + Roff(desc) + "\n";
  };
  std::vector<std::string> groups;
  for (const CLI::Option* o : AllOptions(app_)) {
    if (IsHidden(o) || o->get_positional()) continue;
    if (std::find(groups.begin(), groups.end(), o->get_group()) == groups.end())
      groups.push_back(o->get_group());
  }
  for (const CLI::Option* o : AllOptions(app_))
    if (o->get_positional()) m += describe(o);
  for (const auto& g : groups) {
    if (g != "Options") m += ".SS " + Roff(g) + "\n";
    for (const CLI::Option* o : AllOptions(app_))
      if (!IsHidden(o) && !o->get_positional() && o->get_group() == g) m += describe(o);
  }
  if (!manual_.input.empty()) m += ".SH INPUT\n" + RoffParagraphs(manual_.input);
  if (!manual_.output.empty()) m += ".SH OUTPUT\n" + RoffParagraphs(manual_.output);
  m += ".SH EXIT STATUS\n";
  m += ".TP\n0\nSuccess.\n.TP\n1\nA search found nothing.\n.TP\n2\nUsage error (bad option or "
       "argument, ambiguous input).\n.TP\n3\nMalformed input; the message names the file and "
       "line.\n.TP\n4\nI/O, store or backend error.\n.TP\n5\nInternal error.\n";
  if (!manual_.exit_status.empty()) m += ".PP\n" + RoffParagraphs(manual_.exit_status);
  m += ".PP\nA closed output pipe (for example \\fB| head\\fR) ends the tool quietly.\n";
  m += ".SH ENVIRONMENT\n.TP\nLITGRAPH_DB\nStore directory used when \\-\\-db is not given.\n";
  if (!manual_.examples.empty()) {
    m += ".SH EXAMPLES\n";
    for (const auto& [cmd, what] : manual_.examples)
      m += ".TP\n.B " + Roff(cmd) + "\n" + Roff(what) + "\n";
  }
  m += ".SH SEE ALSO\n\\fBlitgraph\\fR(1), \\fBlitgraph-json\\fR(7)\n";
  return m;
}

std::string Tool::Completion(std::string_view shell) const {
  std::string p = prog();
  std::string fn = "_" + p;
  for (char& c : fn)
    if (c == '-') c = '_';
  struct Opt {
    std::vector<std::string> flags;
    std::string desc, value;
    std::vector<std::string> choices;
    bool takes_value;
  };
  std::vector<Opt> opts;
  for (const CLI::Option* o : AllOptions(app_)) {
    if (IsHidden(o) || o->get_positional()) continue;
    Opt x;
    for (const auto& s : o->get_snames()) x.flags.push_back("-" + s);
    for (const auto& l : o->get_lnames()) x.flags.push_back("--" + l);
    x.desc = o->get_description();
    x.value = ValueName(o);
    x.choices = OptionChoices(o);
    x.takes_value = TakesValue(o);
    opts.push_back(std::move(x));
  }
  std::string out;
  if (shell == "bash") {
    out += "# bash completion for " + p + " (generated from its option definitions)\n";
    out += fn + "() {\n  local cur prev\n  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
           "  prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n  case \"$prev\" in\n";
    for (const auto& o : opts) {
      if (!o.takes_value) continue;
      std::string pat;
      for (const auto& f : o.flags) pat += (pat.empty() ? "" : "|") + f;
      out += "    " + pat + ")\n";
      if (!o.choices.empty()) {
        std::string words;
        for (const auto& c : o.choices) words += (words.empty() ? "" : " ") + c;
        out += "      COMPREPLY=($(compgen -W " + ShellQuote(words) + " -- \"$cur\")); return;;\n";
      } else if (o.value == "DIR") {
        out += "      COMPREPLY=($(compgen -d -- \"$cur\")); return;;\n";
      } else if (o.value == "FILE") {
        out += "      COMPREPLY=($(compgen -f -- \"$cur\")); return;;\n";
      } else {
        out += "      return;;\n";
      }
    }
    out += "  esac\n  if [[ \"$cur\" == -* ]]; then\n    COMPREPLY=($(compgen -W '";
    std::string all;
    for (const auto& o : opts)
      for (const auto& f : o.flags) all += (all.empty() ? "" : " ") + f;
    out += all + "' -- \"$cur\"))\n  else\n    COMPREPLY=($(compgen -f -- \"$cur\"))\n  fi\n}\n";
    out += "complete -F " + fn + " " + p + "\n";
  } else if (shell == "zsh") {
    out += "#compdef " + p + "\n# zsh completion for " + p +
           " (generated from its option definitions)\n_arguments -s \\\n";
    for (const auto& o : opts) {
      std::string desc = o.desc;
      for (char& c : desc)
        if (c == '[' || c == ']' || c == '\'') c = ' ';
      std::string action;
      if (o.takes_value) {
        if (!o.choices.empty()) {
          action = ":" + o.value + ":(";
          for (size_t i = 0; i < o.choices.size(); ++i) action += (i ? " " : "") + o.choices[i];
          action += ")";
        } else if (o.value == "DIR") {
          action = ":" + o.value + ":_files -/";
        } else if (o.value == "FILE") {
          action = ":" + o.value + ":_files";
        } else {
          action = ":" + o.value + ": ";
        }
      }
      if (o.flags.size() > 1) {
        std::string grp, alts;
        for (const auto& f : o.flags) grp += (grp.empty() ? "" : " ") + f;
        for (const auto& f : o.flags) alts += (alts.empty() ? "" : ",") + f;
        out += "  '(" + grp + ")'{" + alts + "}'[" + desc + "]" + action + "' \\\n";
      } else {
        out += "  '" + o.flags[0] + "[" + desc + "]" + action + "' \\\n";
      }
    }
    out += "  '*:file:_files'\n";
  } else {  // fish
    out += "# fish completion for " + p + " (generated from its option definitions)\n";
    for (const auto& o : opts) {
      std::string line = "complete -c " + p;
      for (const auto& f : o.flags) {
        if (f.rfind("--", 0) == 0) line += " -l " + f.substr(2);
        else line += " -s " + f.substr(1);
      }
      if (o.takes_value) {
        line += " -r";
        if (!o.choices.empty()) {
          std::string words;
          for (const auto& c : o.choices) words += (words.empty() ? "" : " ") + c;
          line += " -f -a " + ShellQuote(words);
        } else if (o.value == "DIR") {
          line += " -f -a '(__fish_complete_directories)'";
        }
      }
      line += " -d " + ShellQuote(o.desc);
      out += line + "\n";
    }
  }
  return out;
}

}  // namespace litgraph
