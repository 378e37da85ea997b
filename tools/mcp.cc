// litgraph-mcp: the tools as a Model Context Protocol server over stdio.
//
// Reads JSON-RPC 2.0 messages from standard input, one a line, and writes the
// answers to standard output, one a line; standard output carries nothing
// else, diagnostics go to standard error. Each tool call runs the matching
// litgraph executable (found beside this one) on the store of --db, with a
// time limit (lib/include/litgraph/mcp.h). Read-only unless --allow-writes.
// Exit codes: 0 at the end of input, 2 usage, 4 output error, 5 internal.
#include "litgraph/mcp.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <iostream>
#include <mutex>

#include "litgraph/subprocess.h"
#include "tool.h"

namespace {

using namespace litgraph;

Manual ToolManual() {
  Manual man;
  man.synopsis = "[OPTIONS]";
  man.description =
      "Serves the litgraph tools to an agent (Claude Desktop, Claude Code, an IDE, any Model "
      "Context Protocol client) over stdio: JSON-RPC 2.0 messages, one per line, on standard "
      "input and output. Protocol versions 2025-06-18, 2025-03-26 and 2024-11-05.\n\n"
      "Tools: find_paper, paper, lineage, literature_map, rwr_rank, tri_search and status; with "
      "--allow-writes "
      "also ingest, extract_keywords and embed. Each has a JSON Schema for its arguments (the "
      "options of the executable, with their ranges and choices) and one for its result: "
      "{\"records\": [...], \"exit_code\": N, \"messages\": [...]}, the records being those of "
      "litgraph-json(7) (the schemas of share/litgraph/schemas). A call's text content holds "
      "the same records as JSON lines.\n\n"
      "Every call runs the tool's executable (litgraph-find-paper, ...) from the directory of "
      "litgraph-mcp on the store of --db, in a process group of its own: arguments are checked "
      "against the schema before anything runs (a bad argument is JSON-RPC error -32602), free "
      "text is passed after \"--\" so it is never read as an option, and the store cannot be "
      "changed per call. Exit 1 (nothing found) is an empty result; exits 2 to 5 are tool "
      "errors (isError) with the tool's message. A call that runs past --timeout, or that the "
      "client cancels (notifications/cancelled), has its process group killed. Calls run "
      "concurrently.\n\n"
      "--threads, when given, is passed on to every call. Standard output carries only the "
      "protocol; a line per call (tool, exit code, seconds) "
      "and other notes go to standard error unless --quiet.";
  man.input = "JSON-RPC 2.0 messages, one per line (the MCP stdio transport).";
  man.output =
      "JSON-RPC 2.0 responses, one per line. tools/call results: structuredContent "
      "{records, exit_code, messages} and a text content block with the records as JSON lines.";
  man.exit_status =
      "Exit 0 when standard input ends (after the calls still running have answered).";
  man.examples = {
      {"litgraph-mcp --db ~/papers.db", "Serve a store read-only (an MCP client starts this)."},
      {"claude mcp add litgraph -- litgraph-mcp --db ~/papers.db", "Register it with Claude Code."},
      {"litgraph-mcp --db lib.db --allow-writes --timeout 600",
       "Also let the agent ingest records and build keywords and vectors."}};
  return man;
}

// The directory of this executable, where the other tools are installed.
std::string ExecutableDir() {
  std::string path(4096, '\0');
  ssize_t n = readlink("/proc/self/exe", path.data(), path.size());
  if (n <= 0) return ".";
  path.resize(static_cast<size_t>(n));
  return path.substr(0, path.rfind('/'));
}

}  // namespace

int main(int argc, char** argv) {
  using namespace litgraph;
  Tool tool("mcp", ToolManual(), {"jsonl"});
  bool allow_writes = false;
  double timeout = 60;
  tool.app().add_flag("--allow-writes", allow_writes,
                      "Also offer the tools that change the store (ingest, extract_keywords, "
                      "embed)");
  tool.app()
      .add_option("--timeout", timeout, "Time limit of one tool call in seconds (default 60)")
      ->type_name("SECONDS")
      ->check(NumberIn(0.01, 86400.0));
  return tool.Run(argc, argv, [&]() -> Status {
    mcp::Server::Options options;
    options.db = tool.common().db;
    options.bin_dir = ExecutableDir();
    options.allow_writes = allow_writes;
    options.threads = tool.common().threads;
    options.timeout = std::chrono::milliseconds(static_cast<int64_t>(timeout * 1000));
    std::atomic<bool> write_failed{false};
    mcp::Server server(
        options, RunProcess,
        [&](const std::string& line) {
          std::fwrite(line.data(), 1, line.size(), stdout);
          std::fputc('\n', stdout);
          if (std::fflush(stdout) != 0) write_failed = true;
        },
        [&](const std::string& msg) { tool.Note(msg); });
    tool.Note(fmt::format("serving {} ({}), tools from {}", options.db,
                          allow_writes ? "read and write" : "read-only", options.bin_dir));
    if (isatty(STDIN_FILENO))
      tool.Note("reading JSON-RPC messages from the terminal, one a line (end with Ctrl-D)");
    std::string line;
    while (!write_failed && std::getline(std::cin, line)) server.Handle(line);
    server.Shutdown(write_failed);
    if (write_failed) return Status::IoError("cannot write to standard output: client gone");
    return Status::Ok();
  });
}
