// litgraph: the git-style dispatcher. `litgraph TOOL ARGS...` runs
// litgraph-TOOL ARGS..., looked up first next to this executable, then on
// PATH. `litgraph --help` lists the tools (tools/tools.list); `litgraph help
// TOOL` shows a tool's manual. Hidden flags generate litgraph(1)
// (--generate-man) and the dispatcher's completions (--generate-completion
// bash|zsh|fish), which complete tool names and hand the rest to the tool's
// own completion. Exit codes are the tool's; 2 for an unknown tool; 4 when
// the tool cannot be started.
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
             "Usage: litgraph TOOL [ARGS...]   (same as litgraph-TOOL [ARGS...])\n\n"
             "Tools:\n",
             LITGRAPH_VERSION);
  for (const ToolInfo& t : ToolList()) fmt::print(f, "  {:<18} {}\n", t.name, t.summary);
  fmt::print(
      f,
      "\nCommon options (every tool): --db DIR, --format jsonl|table|tsv, -q/--quiet,\n"
      "--threads N, --version, --help. Run 'litgraph TOOL --help' for a tool's options,\n"
      "'man litgraph-TOOL' for its manual and 'man 7 litgraph-json' for the record format.\n");
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
  m += ".SH SYNOPSIS\n.B litgraph\n\\fITOOL\\fR [\\fIARGS\\fR...]\n.br\n.B litgraph\n"
       "\\-\\-help | \\-\\-version | help \\fITOOL\\fR\n";
  m +=
      ".SH DESCRIPTION\n\\fBlitgraph\\fR runs \\fBlitgraph\\-\\fITOOL\\fR with the remaining "
      "arguments, git style.\nThe tool is looked up next to the \\fBlitgraph\\fR executable "
      "first, then on PATH.\n.PP\nThe tools share one store (\\-\\-db \\fIDIR\\fR or "
      "\\fBLITGRAPH_DB\\fR) and pass JSON lines\nthrough pipes (see \\fBlitgraph\\-json\\fR(7)):\n";
  for (const ToolInfo& t : ToolList())
    m += ".TP\n.B " + Roff(t.name) + "\n" + Roff(t.summary) + "\n";
  m += ".SH COMMON OPTIONS\nEvery tool accepts \\-\\-db \\fIDIR\\fR, \\-\\-format jsonl|table|tsv, "
       "\\-q/\\-\\-quiet,\n\\-\\-threads \\fIN\\fR, \\-\\-version and \\-\\-help with the same "
       "meaning.\n";
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

int main(int argc, char** argv) {
  if (argc < 2) {
    Usage(stderr);
    return 2;
  }
  std::string cmd = argv[1];
  if (cmd == "--generate-man") {
    fmt::print("{}", ManPage());
    return 0;
  }
  if (cmd == "--generate-completion" && argc > 2) {
    fmt::print("{}", Completion(argv[2]));
    return 0;
  }
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    if (cmd == "help" && argc > 2) {
      cmd = argv[2];
      std::string prog = "litgraph-" + cmd;
      execlp("man", "man", prog.c_str(), static_cast<char*>(nullptr));
      return 4;
    }
    Usage(stdout);
    return 0;
  }
  if (cmd == "--version") {
    fmt::print("litgraph {}\n", LITGRAPH_VERSION);
    return 0;
  }
  bool known = false;
  for (const ToolInfo& t : ToolList()) known = known || cmd == t.name;
  if (!known || cmd.empty() || cmd[0] == '-') {
    fmt::print(stderr, "litgraph: error: unknown tool '{}'\n", litgraph::EscapeControls(cmd));
    Usage(stderr);
    return 2;
  }
  std::string prog = "litgraph-" + cmd;
  std::vector<char*> args;
  args.push_back(prog.data());
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  std::string local = SelfDir() + "/" + prog;
  if (access(local.c_str(), X_OK) == 0) execv(local.c_str(), args.data());
  execvp(prog.c_str(), args.data());
  fmt::print(stderr, "litgraph: error: cannot run {}: {}\n", prog, std::strerror(errno));
  return 4;
}
