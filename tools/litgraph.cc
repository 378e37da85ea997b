// litgraph: the git-style dispatcher. `litgraph TOOL ARGS...` runs
// litgraph-TOOL ARGS..., looked up first next to this executable, then on
// PATH. `litgraph --help` lists the tools. Exit codes are the tool's; 2 for an
// unknown tool; 4 when the tool cannot be started.
#include <fmt/format.h>
#include <limits.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct ToolEntry {
  const char* name;
  const char* summary;
};

const ToolEntry kTools[] = {
    {"ingest", "load OpenAlex and native publication records into a store"},
    {"find-paper", "find papers by id, DOI, title, author or free text"},
    {"paper", "show paper details, references and citations"},
    {"lineage", "trace citation paths and lineage trees between papers"},
    {"extract-keywords", "extract canonical keyphrases into the keyword layer"},
    {"embed", "train the built-in embedding model, embed papers, build vector indexes"},
    {"rwr-rank", "rank nodes reached from seeds by a typed random walk with restart"},
    {"tri-search", "tri-path recall and graph rerank search (SciAtlas)"},
};

void Usage(std::FILE* f) {
  fmt::print(f,
             "litgraph {}: a scholarly knowledge graph you run yourself\n\n"
             "Usage: litgraph TOOL [ARGS...]   (same as litgraph-TOOL [ARGS...])\n\n"
             "Tools:\n",
             LITGRAPH_VERSION);
  for (const auto& t : kTools) fmt::print(f, "  {:<18} {}\n", t.name, t.summary);
  fmt::print(f,
             "\nCommon options (every tool): --db DIR, --format jsonl|table|tsv, -q/--quiet,\n"
             "--threads N, --version, --help. Run 'litgraph TOOL --help' for a tool's options,\n"
             "'man litgraph-TOOL' for its manual and 'man 7 litgraph-json' for the record format.\n");
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
  for (const auto& t : kTools) known = known || cmd == t.name;
  if (!known || cmd.empty() || cmd[0] == '-') {
    fmt::print(stderr, "litgraph: error: unknown tool '{}'\n", cmd);
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
