#include "litgraph/mcp.h"

#include <gtest/gtest.h>

#include <set>

namespace litgraph::mcp {
namespace {

Invocation Build(const std::string& tool, const Json& args, Status* st = nullptr) {
  Invocation call;
  Status s = BuildInvocation(*FindTool(tool), args, &call);
  if (st) *st = s;
  return call;
}

TEST(McpTest, NegotiatesTheClientsVersionOrTheNewest) {
  EXPECT_EQ(NegotiateVersion("2025-03-26"), "2025-03-26");
  EXPECT_EQ(NegotiateVersion("2024-11-05"), "2024-11-05");
  EXPECT_EQ(NegotiateVersion("2025-11-25"), "2025-06-18");
  EXPECT_EQ(NegotiateVersion(Json(7)), "2025-06-18");
}

TEST(McpTest, ArgumentsBecomeOptionsAndFreeTextComesAfterDashes) {
  Invocation call =
      Build("find_paper",
            {{"query", "--db /etc graph"}, {"limit", 5}, {"mode", "hybrid"}, {"after", 2010}});
  EXPECT_EQ(call.program, "find-paper");
  EXPECT_EQ(call.args, (std::vector<std::string>{"--after=2010", "--hybrid", "--limit=5", "--",
                                                 "--db /etc graph"}));
  call = Build("tri_search", {{"keywords", {"a", "high:b"}}, {"candidates", {"W1", "W2"}}});
  EXPECT_EQ(call.args,
            (std::vector<std::string>{"--keyword=a", "--keyword=high:b", "--candidates=-"}));
  EXPECT_EQ(call.input, "W1\nW2\n");
  call = Build("rwr_rank", {{"seeds", {{{"id", "W1"}, {"weight", 2}}}}, {"exclude_seeds", true}});
  EXPECT_EQ(call.input, "{\"id\":\"W1\",\"weight\":2}\n");
  EXPECT_EQ(call.args, (std::vector<std::string>{"--exclude-seeds"}));
  call = Build("lineage", {{"from", "A"}, {"to", "B"}, {"k", 3}});
  EXPECT_EQ(call.args, (std::vector<std::string>{"--k=3", "--", "A", "B"}));
  call = Build("paper", {{"papers", {"W1"}}, {"relation", "cited_by"}});
  EXPECT_EQ(call.args, (std::vector<std::string>{"--cited-by", "--", "W1"}));
  call = Build("find_paper", {{"query", "x"}, {"where", {"cd>=0.2", "pagerank>0"}}});
  EXPECT_EQ(call.args,
            (std::vector<std::string>{"--where=cd>=0.2", "--where=pagerank>0", "--", "x"}));
  call = Build("analyze", {{"kinds", {"bridges", "lineage"}},
                           {"field", "Computer Science"},
                           {"communities", "citation"}});
  EXPECT_EQ(call.program, "analyze");
  EXPECT_EQ(call.args,
            (std::vector<std::string>{"--field=Computer Science", "--communities=citation", "--",
                                      "bridges", "lineage"}));
  call = Build("metrics", {{"papers", {"W1"}}, {"window", "unbounded"}});
  EXPECT_EQ(call.args, (std::vector<std::string>{"--window=unbounded", "--", "W1"}));
  call = Build("ingest", {{"records", {{{"id", "N1"}}}}});
  EXPECT_EQ(call.args, (std::vector<std::string>{"--stats"}));
  EXPECT_EQ(call.input, "{\"id\":\"N1\"}\n");
}

TEST(McpTest, BadArgumentsAreRefusedNamingTheArgument) {
  struct Case {
    const char* tool;
    Json args;
    const char* message;
  } cases[] = {
      {"find_paper", {{"query", "x"}, {"limit", 0}}, "limit: 0 is less than the minimum 1"},
      {"find_paper", {{"query", "x"}, {"limit", "5"}}, "limit: expected integer, got string"},
      {"find_paper", {{"query", "x"}, {"limit", 2.5}}, "limit: expected integer, got number"},
      {"find_paper", {{"query", "x"}, {"mode", "fast"}}, "mode: \"fast\" is not one of"},
      {"find_paper", {{"query", "x"}, {"colour", 1}}, "unknown argument \"colour\""},
      {"find_paper", {{"limit", 3}}, "give at least one of query, id"},
      {"find_paper", {{"query", ""}}, "query: needs at least 1 characters"},
      {"paper", Json::object(), "missing required argument \"papers\""},
      {"paper", {{"papers", {"W1", 2}}}, "papers[1]: expected string"},
      {"lineage", {{"from", "A"}}, "give from and to"},
      {"lineage", {{"from", "A"}, {"to", "B"}, {"ancestors", "C"}}, "give from and to"},
      {"rwr_rank", {{"seeds", {{{"weight", 1}}}}}, "seeds[0]: missing required argument \"id\""},
      {"tri_search", {{"candidates", {"W1\nW2"}}, {"query", "x"}}, "line break"},
      {"ingest", Json::object(), "give records or files"},
      {"analyze", {{"kinds", {"bridges"}}}, "give one set"},
      {"analyze", {{"kinds", {"bridges"}}, {"all", true}, {"field", "x"}}, "give one set"},
      {"analyze", {{"kinds", {"cliques"}}, {"all", true}}, "is not one of"},
  };
  for (const Case& c : cases) {
    Status st;
    Build(c.tool, c.args, &st);
    EXPECT_EQ(st.code(), Code::kInvalidArgument) << c.tool << " " << c.args.dump();
    EXPECT_NE(st.message().find(c.message), std::string::npos)
        << c.tool << " " << c.args.dump() << ": " << st.message();
  }
}

// Every reference in a bundle points into its own $defs.
void ExpectLocalRefs(const Json& bundle, const Json& node) {
  if (node.is_object()) {
    EXPECT_FALSE(node.contains("$schema"));
    for (const auto& [key, value] : node.items()) {
      if (key == "$ref") {
        std::string ref = value.get<std::string>();
        ASSERT_EQ(ref.rfind("#/$defs/", 0), 0u) << ref;
        EXPECT_FALSE(bundle.at(Json::json_pointer(ref.substr(1))).is_null()) << ref;
      } else {
        ExpectLocalRefs(bundle, value);
      }
    }
  } else if (node.is_array()) {
    for (const Json& x : node) ExpectLocalRefs(bundle, x);
  }
}

TEST(McpTest, OutputSchemasBundleTheRecordSchemas) {
  for (const std::string& name : RecordSchemaNames()) {
    auto bundle = BundleRecordSchema({name});
    ASSERT_TRUE(bundle.ok()) << name;
    ExpectLocalRefs(*bundle, *bundle);
  }
  auto tri = BundleRecordSchema({"tri_search_result"});
  std::set<std::string> defs;
  for (const auto& [k, v] : (*tri)["$defs"].items()) defs.insert(k);
  EXPECT_EQ(defs, (std::set<std::string>{"tri_search_result", "ranked_node", "paper"}));
  EXPECT_FALSE(BundleRecordSchema({"no_such"}).ok());
  for (const ToolSpec& t : Tools()) {
    Json d = ToolDescription(t);
    EXPECT_EQ(d["inputSchema"]["type"], "object") << t.name;
    EXPECT_EQ(d["outputSchema"]["type"], "object") << t.name;
    ExpectLocalRefs(d["outputSchema"], d["outputSchema"]);
  }
}

TEST(McpTest, ExitCodesBecomeResultsOrToolErrors) {
  const ToolSpec& find = *FindTool("find_paper");
  const auto limit = std::chrono::milliseconds(2000);
  ProcessResult run;
  run.exit_code = 0;
  run.out = "{\"id\":\"W1\",\"type\":\"paper\"}\n{\"id\":\"W2\",\"type\":\"paper\"}\n";
  Json r = CallResult(find, run, limit);
  EXPECT_EQ(r["isError"], false);
  EXPECT_EQ(r["structuredContent"]["records"].size(), 2u);
  EXPECT_EQ(r["content"][0]["text"], run.out);
  run = ProcessResult();
  run.exit_code = 1;
  r = CallResult(find, run, limit);
  EXPECT_EQ(r["isError"], false);
  EXPECT_EQ(r["structuredContent"]["exit_code"], 1);
  EXPECT_TRUE(r["structuredContent"]["records"].empty());
  run.exit_code = 4;
  run.err = "litgraph-find-paper: error: no litgraph store at x\n";
  r = CallResult(find, run, limit);
  EXPECT_EQ(r["isError"], true);
  EXPECT_EQ(r["content"][0]["text"], "litgraph-find-paper: error: no litgraph store at x");
  run = ProcessResult();
  run.timed_out = true;
  r = CallResult(find, run, limit);
  EXPECT_EQ(r["isError"], true);
  EXPECT_NE(r["content"][0]["text"].get<std::string>().find("time limit of 2 s"),
            std::string::npos);
  run = ProcessResult();
  run.exit_code = 0;
  run.out = "not json\n";
  EXPECT_EQ(CallResult(find, run, limit)["isError"], true);
}

// A server whose processes are a function: records what it was asked to run.
struct Harness {
  std::vector<Json> sent;
  std::vector<std::vector<std::string>> runs;
  std::mutex mu;
  mcp::Server server;
  explicit Harness(bool writes, int exit_code = 0)
      : server(
            {"db", "/bin", writes, std::chrono::milliseconds(1000)},
            [this, exit_code](const std::vector<std::string>& argv, const std::string&,
                              std::chrono::milliseconds, const std::atomic<bool>*) {
              std::lock_guard lock(mu);
              runs.push_back(argv);
              ProcessResult r;
              r.exit_code = exit_code;
              r.out = "{\"id\":\"W1\"}\n";
              return Result<ProcessResult>(r);
            },
            [this](const std::string& line) { sent.push_back(Json::parse(line)); },
            [](const std::string&) {}) {}
  Json Ask(const Json& msg) {
    sent.clear();
    server.Handle(msg.dump());
    server.Shutdown(false);
    return sent.empty() ? Json() : sent.back();
  }
};

Json Request(int id, const std::string& method, Json params = Json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
}

TEST(McpTest, ServerAnswersTheProtocol) {
  Harness h(false);
  Json r = h.Ask(Request(1, "initialize", {{"protocolVersion", "2025-03-26"}}));
  EXPECT_EQ(r["result"]["protocolVersion"], "2025-03-26");
  EXPECT_EQ(r["id"], 1);
  EXPECT_EQ(h.Ask(Request(2, "ping"))["result"], Json::object());
  r = h.Ask(Request(3, "tools/list"));
  std::vector<std::string> names;
  for (const Json& t : r["result"]["tools"]) names.push_back(t["name"]);
  EXPECT_EQ(names,
            (std::vector<std::string>{"find_paper", "paper", "lineage", "literature_map",
                                      "rwr_rank", "tri_search", "metrics", "analyze", "status"}));
  EXPECT_EQ(h.Ask(Request(4, "no/such"))["error"]["code"], -32601);
  {  // not JSON: a parse error with a null id
    h.sent.clear();
    h.server.Handle("{not json");
    ASSERT_EQ(h.sent.size(), 1u);
    EXPECT_EQ(h.sent[0]["error"]["code"], -32700);
    EXPECT_TRUE(h.sent[0]["id"].is_null());
  }
  EXPECT_EQ(h.Ask({{"id", 5}, {"method", "ping"}})["error"]["code"], -32600);
  r = h.Ask(Request(6, "tools/call", {{"name", "ingest"}, {"arguments", {{"files", {"x"}}}}}));
  EXPECT_EQ(r["error"]["code"], -32602);
  EXPECT_NE(r["error"]["message"].get<std::string>().find("--allow-writes"), std::string::npos);
  r = h.Ask(Request(7, "tools/call", {{"name", "nope"}}));
  EXPECT_EQ(r["error"]["code"], -32602);
  r = h.Ask(Request(8, "tools/call", {{"name", "find_paper"}, {"arguments", {{"limit", -1}}}}));
  EXPECT_EQ(r["error"]["code"], -32602);
  EXPECT_TRUE(h.runs.empty());  // nothing ran for a bad call
  // A notification is never answered.
  EXPECT_TRUE(h.Ask({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).is_null());
}

TEST(McpTest, ServerRunsTheToolOnTheStore) {
  Harness h(true);
  Json r = h.Ask(Request(1, "tools/call",
                         {{"name", "find_paper"}, {"arguments", {{"query", "open access"}}}}));
  EXPECT_EQ(r["result"]["isError"], false);
  EXPECT_EQ(r["result"]["structuredContent"]["records"][0]["id"], "W1");
  ASSERT_EQ(h.runs.size(), 1u);
  EXPECT_EQ(h.runs[0], (std::vector<std::string>{"/bin/litgraph-find-paper", "--db=db",
                                                 "--format=jsonl", "--", "open access"}));
  r = h.Ask(Request(2, "tools/list"));
  EXPECT_EQ(r["result"]["tools"].size(), 12u);
  Harness failing(false, 3);
  r = failing.Ask(Request(1, "tools/call", {{"name", "status"}}));
  EXPECT_EQ(r["result"]["isError"], true);
  EXPECT_EQ(r["result"]["structuredContent"]["exit_code"], 3);
}

}  // namespace
}  // namespace litgraph::mcp
