// Running a program as a child process with a time limit: what the MCP server
// (litgraph-mcp) runs each tool call as.
//
// RunProcess starts `argv[0]` (a path, not searched in $PATH) in a process
// group of its own, writes `input` to its standard input and closes it,
// collects standard output and standard error, and waits for it to end. When
// the time limit passes, or `cancel` becomes true (checked at least every
// 50 ms), the whole process group is killed (SIGKILL) and the result says
// why. The child also dies with the calling thread (PR_SET_PDEATHSIG), so a
// server that is killed leaves no tool running. The caller ignores SIGPIPE
// (the tool frame does), since a child may exit without reading its input.
//
// Thread-safety: any number of threads may run processes at once; every
// descriptor is opened close-on-exec, so one child never holds another's
// pipes open.
#pragma once

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "litgraph/status.h"

namespace litgraph {

struct ProcessResult {
  int exit_code = -1;      // the exit status, or -1 when killed by a signal
  int signal = 0;          // the signal that ended it, or 0
  bool timed_out = false;  // killed because the time limit passed
  bool cancelled = false;  // killed because `cancel` became true
  std::string out, err;    // everything it wrote
  double seconds = 0;      // from start to end
};

// Errors: IoError when the program cannot be started (fork, pipes, or exec:
// the message names the program and the reason).
Result<ProcessResult> RunProcess(const std::vector<std::string>& argv, const std::string& input,
                                 std::chrono::milliseconds limit,
                                 const std::atomic<bool>* cancel = nullptr);

// The path of the executable `name` in the first directory of $PATH that
// has one (an empty entry is the current directory), or "" when none does.
// A name with a slash is checked as it is.
std::string FindProgram(const std::string& name);

}  // namespace litgraph
