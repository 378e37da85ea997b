// The Model Context Protocol server behind litgraph-mcp: the tools as MCP
// tools, over JSON-RPC 2.0 messages, one per line (the MCP stdio transport).
//
// Each MCP tool is one litgraph executable. A call's JSON arguments are
// checked against the tool's input schema, turned into the executable's
// command line (--db and --format jsonl added, free text after "--" so it is
// never read as an option) and its standard input, and run as a process with
// a time limit (subprocess.h); its JSON lines become the call's structured
// result {"records": [...], "exit_code", "messages"}, described by an output
// schema built from the record schemas in schemas/ (compiled in). Exit 0 and 1
// (nothing found) are results; 2-5, a timeout or a crash are tool errors
// (isError) carrying the tool's message. Write tools (ingest,
// extract_keywords, embed) exist only with Options::allow_writes.
//
// Protocol versions 2025-06-18, 2025-03-26 and 2024-11-05: the client's when
// it asks for one of them, else the newest. Methods: initialize, ping,
// tools/list, tools/call; notifications: initialized, cancelled (kills the
// call's process; no response is sent for it). Errors: -32700 parse error,
// -32600 invalid request, -32601 unknown method, -32602 unknown tool or
// invalid arguments, -32603 internal.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "litgraph/jsonl.h"
#include "litgraph/status.h"
#include "litgraph/subprocess.h"

namespace litgraph::mcp {

// The protocol versions served, newest first.
const std::vector<std::string>& ProtocolVersions();
// The client's version when served, else the newest.
std::string NegotiateVersion(const Json& requested);

// The record schemas of schemas/ by name ("paper" for paper.schema.json), as
// compiled in; the names in file order. RecordSchema returns null for an
// unknown name.
std::vector<std::string> RecordSchemaNames();
const Json& RecordSchema(std::string_view name);

// One self-contained JSON Schema for records of any of `types`: the record
// schemas they refer to are copied under "$defs" and references between
// files ("paper.schema.json", "ranked_node.schema.json#/$defs/path")
// rewritten to point there, without "$schema" and "$id", so that draft-07
// and 2020-12 validators read it alike. Errors: InvalidArgument naming an
// unknown schema.
Result<Json> BundleRecordSchema(const std::vector<std::string>& types);

// Checks `value` against the subset of JSON Schema the input schemas use:
// type (one or a list), enum, const, minimum, maximum, minLength, maxLength,
// minItems, maxItems, items, properties, required, additionalProperties
// false. Errors: InvalidArgument naming the argument ("limit: 0 is less than
// the minimum 1").
Status CheckSchema(const Json& schema, const Json& value, const std::string& where = "");

// A tool call as a process: the executable (litgraph-<program>), its
// arguments after the program name, and its standard input.
struct Invocation {
  std::string program;
  std::vector<std::string> args;
  std::string input;
};

struct ToolSpec {
  std::string name;     // MCP name: find_paper
  std::string program;  // executable suffix: find-paper
  std::string title, description;
  bool writes = false;
  Json input_schema;
  std::vector<std::string> record_types;  // record schemas of its output
  // Builds the invocation from checked arguments; InvalidArgument for a
  // combination the schema cannot express (lineage needs two papers or one
  // tree root).
  std::function<Status(const Json& args, Invocation* call)> build;
};

// Every tool, read-only ones first.
const std::vector<ToolSpec>& Tools();
// The tool called `name`, or null.
const ToolSpec* FindTool(std::string_view name);

// Checks the arguments of a tools/call and builds its invocation.
Status BuildInvocation(const ToolSpec& tool, const Json& arguments, Invocation* call);

// The MCP tool description of tools/list: name, title, description,
// inputSchema, outputSchema, annotations.
Json ToolDescription(const ToolSpec& tool);

// The CallToolResult of a finished process.
Json CallResult(const ToolSpec& tool, const ProcessResult& run, std::chrono::milliseconds limit);

class Server {
 public:
  struct Options {
    std::string db;       // the store every call reads or writes
    std::string bin_dir;  // where litgraph-<program> executables are
    bool allow_writes = false;
    std::chrono::milliseconds timeout{60000};  // per call
    int threads = 0;                           // --threads of each call; 0: the tool's default
  };
  using Runner = std::function<Result<ProcessResult>(
      const std::vector<std::string>& argv, const std::string& input,
      std::chrono::milliseconds limit, const std::atomic<bool>* cancel)>;
  using Writer = std::function<void(const std::string& line)>;
  using Logger = std::function<void(const std::string& msg)>;

  // `write` gets each response as one line of JSON (no newline), from one
  // thread at a time; `log` gets diagnostics (they never go to `write`).
  Server(Options options, Runner run, Writer write, Logger log);
  ~Server();  // Shutdown(true)

  // Handles one line of input. tools/call runs on a thread of its own and
  // answers when its process ends; everything else answers before
  // returning. Thread-compatible: call from one thread.
  void Handle(const std::string& line);
  // Waits for the calls still running (each ends by its time limit); with
  // `cancel`, kills their processes first (and sends no answers).
  void Shutdown(bool cancel);

 private:
  struct Call;
  void Send(const Json& message);
  void Reply(const Json& id, Json result);
  void Fail(const Json& id, int code, const std::string& message);
  void Dispatch(const Json& msg);
  void StartCall(const Json& id, const Json& params);
  void RunCall(std::shared_ptr<Call> call);
  void Cancel(const Json& params);
  void Reap();

  Options options_;
  Runner run_;
  Writer write_;
  Logger log_;
  std::mutex write_mu_;
  std::mutex calls_mu_;
  std::map<std::string, std::shared_ptr<Call>> calls_;  // running, by id (JSON text)
  std::vector<std::thread> threads_;
  std::vector<std::thread::id> finished_;  // threads to join
};

}  // namespace litgraph::mcp
