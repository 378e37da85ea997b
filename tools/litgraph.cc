// litgraph: the git-style dispatcher. `litgraph TOOL ARGS...` runs
// litgraph-TOOL ARGS..., looked up first next to this executable, then on
// PATH; common options may come before the tool (`litgraph --db A
// find-paper x`). `litgraph --help` lists the tools (tools/tools.list);
// `litgraph help TOOL` shows a tool's manual: the installed page next to
// the executable (../share/man), the source tree's from a build tree, else
// man(1)'s search, else the tool's --help. Hidden flags generate litgraph(1)
// (--generate-man) and the dispatcher's completions (--generate-completion
// bash|zsh|fish), which complete tool names and hand the rest to the tool's
// own completion. Exit codes are the tool's; 2 for an unknown tool (with the
// nearest name); 4 when the tool cannot be started.
#include <fmt/format.h>
#include <limits.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "tool.h"

namespace {

using litgraph::ToolInfo;
using litgraph::ToolList;

void Usage(std::FILE* f) {
  fmt::print(f,
             "litgraph {}: a scholarly knowledge graph you run yourself\n\n"
             "Usage: litgraph [COMMON OPTIONS] TOOL [ARGS...]   (same as litgraph-TOOL ...)\n"
             "       litgraph help TOOL|json\n\n"
             "Tools:\n",
             LITGRAPH_VERSION);
  for (const ToolInfo& t : ToolList()) fmt::print(f, "  {:<18} {}\n", t.name, t.summary);
  fmt::print(f,
             "\nCommon options (every tool, before or after TOOL): --db DIR, --format FORMAT,\n"
             "-q/--quiet, --threads N; and --version, --help. Run 'litgraph TOOL --help' for a\n"
             "tool's options, 'litgraph help TOOL' for its manual and 'litgraph help json' for\n"
             "the record format.\n");
}

std::string Roff(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '-')
      out += "\\-";
    else if (c == '\\')
      out += "\\e";
    else
      out += c;
  }
  return out;
}

std::string ManPage() {
  std::string m =
      fmt::format(".TH LITGRAPH 1 \"\" \"litgraph {}\" \"litgraph manual\"\n", LITGRAPH_VERSION);
  m += ".SH NAME\nlitgraph \\- a scholarly knowledge graph you run yourself\n";
  m += ".SH SYNOPSIS\n.B litgraph\n[\\fICOMMON OPTIONS\\fR] \\fITOOL\\fR [\\fIARGS\\fR...]\n.br\n"
       ".B litgraph\n\\-\\-help | \\-\\-version | help \\fITOOL\\fR | help json\n";
  m +=
      ".SH DESCRIPTION\n\\fBlitgraph\\fR runs \\fBlitgraph\\-\\fITOOL\\fR with the remaining "
      "arguments, git style.\nThe tool is looked up next to the \\fBlitgraph\\fR executable "
      "first, then on PATH.\n.PP\nThe tools share one store (\\-\\-db \\fIDIR\\fR or "
      "\\fBLITGRAPH_DB\\fR) and pass JSON lines\nthrough pipes (see \\fBlitgraph\\-json\\fR(7)):\n";
  for (const ToolInfo& t : ToolList())
    m += ".TP\n.B " + Roff(t.name) + "\n" + Roff(t.summary) + "\n";
  m += ".SH COMMON OPTIONS\nEvery tool accepts \\-\\-db \\fIDIR\\fR, \\-\\-format \\fIFORMAT\\fR, "
       "\\-q/\\-\\-quiet,\n\\-\\-threads \\fIN\\fR, \\-\\-version and \\-\\-help with the same "
       "meaning. The first four may\nalso come before \\fITOOL\\fR.\n.PP\n\\fBlitgraph help\\fR "
       "\\fITOOL\\fR shows the tool's manual page (from the installation, or\nfrom the source tree "
       "of a build tree); \\fBlitgraph help json\\fR shows \\fBlitgraph\\-json\\fR(7). An\nunknown "
       "tool is a usage error that names the closest tool.\n";
  m += ".SH EXIT STATUS\n0 success; 1 a search found nothing; 2 usage error (including an unknown "
       "tool);\n3 malformed input; 4 I/O, store or backend error (including a tool that cannot be "
       "started);\n5 internal error.\n";
  m += ".SH SEE ALSO\n";
  for (const ToolInfo& t : ToolList()) m += "\\fBlitgraph\\-" + Roff(t.name) + "\\fR(1), ";
  return m + "\\fBlitgraph\\-json\\fR(7)\n";
}

std::string Completion(std::string_view shell) {
  std::string names;
  for (const ToolInfo& t : ToolList()) names += std::string(names.empty() ? "" : " ") + t.name;
  if (shell == "bash")
    return "# bash completion for litgraph (generated from tools/tools.list)\n"
           "_litgraph() {\n"
           "  if [[ $COMP_CWORD -eq 1 ]]; then\n"
           "    COMPREPLY=($(compgen -W '" +
           names +
           " help' -- \"${COMP_WORDS[1]}\")); return\n"
           "  fi\n"
           "  local tool=litgraph-${COMP_WORDS[1]} fn=_litgraph_${COMP_WORDS[1]//-/_}\n"
           "  if ! declare -F \"$fn\" >/dev/null && declare -F _completion_loader >/dev/null; "
           "then\n"
           "    _completion_loader \"$tool\" 2>/dev/null\n"
           "  fi\n"
           "  if declare -F \"$fn\" >/dev/null; then\n"
           "    COMP_WORDS=(\"$tool\" \"${COMP_WORDS[@]:2}\"); COMP_CWORD=$((COMP_CWORD - 1))\n"
           "    \"$fn\"\n"
           "  else\n"
           "    COMPREPLY=($(compgen -f -- \"${COMP_WORDS[COMP_CWORD]}\"))\n"
           "  fi\n"
           "}\n"
           "complete -F _litgraph litgraph\n";
  if (shell == "zsh")
    return "#compdef litgraph\n# zsh completion for litgraph (generated from tools/tools.list)\n"
           "if (( CURRENT == 2 )); then\n"
           "  _values 'tool' " +
           names +
           " help\n"
           "else\n"
           "  words=(litgraph-${words[2]} ${words[3,-1]})\n"
           "  (( CURRENT-- ))\n"
           "  _normal\n"
           "fi\n";
  return "# fish completion for litgraph (generated from tools/tools.list)\n"
         "function __litgraph_delegate\n"
         "  set -l words (commandline -opc)\n"
         "  complete -C \"litgraph-$words[2] $words[3..-1] \"(commandline -ct)\n"
         "end\n"
         "complete -c litgraph -f -n __fish_use_subcommand -a '" +
         names +
         " help'\n"
         "complete -c litgraph -f -n 'not __fish_use_subcommand' -a '(__litgraph_delegate)'\n";
}

std::string SelfDir() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  buf[n] = '\0';
  std::string p(buf);
  auto slash = p.rfind('/');
  return slash == std::string::npos ? "" : p.substr(0, slash);
}

}  // namespace

std::vector<std::string> ToolNames() {
  std::vector<std::string> names;
  for (const ToolInfo& t : ToolList()) names.push_back(t.name);
  return names;
}

bool IsTool(const std::string& name) {
  for (const ToolInfo& t : ToolList())
    if (name == t.name) return true;
  return false;
}

int UnknownTool(const std::string& name) {
  fmt::print(stderr, "litgraph: error: unknown tool '{}'\n", litgraph::EscapeControls(name));
  if (std::string near = litgraph::Nearest(name, ToolNames()); !near.empty())
    fmt::print(stderr, "litgraph: did you mean '{}'?\n", near);
  Usage(stderr);
  return 2;
}

// Runs litgraph-TOOL with args (args[0] is its name): next to this
// executable first, then on PATH. Returns only when it cannot start.
int Exec(const std::string& prog, std::vector<char*> args) {
  args.push_back(nullptr);
  std::string local = SelfDir() + "/" + prog;
  if (access(local.c_str(), X_OK) == 0) execv(local.c_str(), args.data());
  execvp(prog.c_str(), args.data());
  fmt::print(stderr, "litgraph: error: cannot run {}: {}\n", prog, std::strerror(errno));
  return 4;
}

// `litgraph help TOOL` (or `help json`): the page installed beside this
// executable or in the source tree of this build, else man's own search;
// a tool's --help when there is no man(1).
int Help(const std::string& topic) {
  const bool json = topic == "json";
  if (!json && !IsTool(topic)) return UnknownTool(topic);
  const std::string name = json ? "litgraph-json" : "litgraph-" + topic;
  const std::string page = name + (json ? ".7" : ".1");
  std::string file;
  for (std::string f : {SelfDir() + "/../share/man/" + (json ? "man7/" : "man1/") + page,
                        std::string(LITGRAPH_SOURCE_MAN) + "/" + page})
    if (file.empty() && access(f.c_str(), R_OK) == 0) file = f;
  if (!file.empty())
    execlp("man", "man", "-l", file.c_str(), static_cast<char*>(nullptr));
  else
    execlp("man", "man", json ? "7" : "1", name.c_str(), static_cast<char*>(nullptr));
  if (json) {
    fmt::print(stderr, "litgraph: error: cannot run man: {}\n", std::strerror(errno));
    return 4;
  }
  std::string prog = name, help = "--help";
  return Exec(prog, {prog.data(), help.data()});
}

int main(int argc, char** argv) {
  if (argc < 2) {
    Usage(stderr);
    return 2;
  }
  // Common options before the tool's name move after it.
  std::vector<char*> leading;
  int at = 1;
  while (at < argc && argv[at][0] == '-') {
    std::string opt = argv[at];
    bool takes_value = opt == "--db" || opt == "--format" || opt == "--threads";
    bool common = takes_value || opt == "-q" || opt == "--quiet" || opt.rfind("--db=", 0) == 0 ||
                  opt.rfind("--format=", 0) == 0 || opt.rfind("--threads=", 0) == 0;
    if (!common || (takes_value && at + 1 >= argc)) break;
    leading.push_back(argv[at++]);
    if (takes_value) leading.push_back(argv[at++]);
  }
  if (!leading.empty() && at >= argc) {
    fmt::print(stderr, "litgraph: error: no tool after the common options\n");
    Usage(stderr);
    return 2;
  }
  std::string cmd = argv[at];
  if (cmd == "--generate-man") {
    fmt::print("{}", ManPage());
    return 0;
  }
  if (cmd == "--generate-completion" && argc > 2) {
    fmt::print("{}", Completion(argv[2]));
    return 0;
  }
  if (leading.empty() && (cmd == "-h" || cmd == "--help" || cmd == "help")) {
    if (cmd == "help" && argc > 2) return Help(argv[2]);
    Usage(stdout);
    return 0;
  }
  if (leading.empty() && cmd == "--version") {
    fmt::print("litgraph {}\n", LITGRAPH_VERSION);
    return 0;
  }
  if (!IsTool(cmd)) return UnknownTool(cmd);
  std::string prog = "litgraph-" + cmd;
  std::vector<char*> args = {prog.data()};
  args.insert(args.end(), leading.begin(), leading.end());
  for (int i = at + 1; i < argc; ++i) args.push_back(argv[i]);
  return Exec(prog, args);
}
