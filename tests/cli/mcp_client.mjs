// Drives litgraph-mcp with the official MCP TypeScript SDK client over stdio
// (tests/cli/run.py, case mcp_server_with_the_sdk_client; run from a directory
// whose node_modules holds @modelcontextprotocol/sdk).
//
//   node mcp_client.mjs SERVER STORE WRITABLE_STORE MISSING_STORE FIFO_DIR
//
// SERVER is build/litgraph-mcp; STORE has keywords and vectors (read-only
// calls); WRITABLE_STORE is a copy the write tools may change; MISSING_STORE
// does not exist; FIFO_DIR holds named pipes nobody writes to, so an ingest
// reading one never ends (the time limit and cancellation cases; /proc tells
// whether it still runs). The SDK
// checks every structuredContent against the tool's outputSchema. Prints a
// line per check; exits non-zero at the first failure.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [server, store, writable, missing, fifoDir] = process.argv.slice(2);

async function connect(args) {
  const transport = new StdioClientTransport({ command: server, args, stderr: "pipe" });
  const log = [];
  transport.stderr?.on("data", (d) => log.push(d.toString()));
  const client = new Client({ name: "litgraph-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, log, close: () => client.close() };
}

function check(name) {
  console.log(`ok ${name}`);
}

// A tools/call that must end in a JSON-RPC error with `code`.
async function rejects(client, params, code, text) {
  await assert.rejects(client.callTool(params), (e) => {
    assert.equal(e.code, code, `${JSON.stringify(params)}: ${e.message}`);
    if (text) assert.match(e.message, text);
    return true;
  });
}

async function call(client, name, args) {
  const r = await client.callTool({ name, arguments: args });
  assert.ok(r.structuredContent || r.isError, `${name}: no structuredContent`);
  return r;
}

function records(r) {
  assert.equal(r.isError, false, JSON.stringify(r.content));
  return r.structuredContent.records;
}

async function readOnly() {
  const { client, close } = await connect(["--db", store]);
  assert.equal(client.getServerVersion().name, "litgraph");
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name),
                   ["find_paper", "paper", "lineage", "literature_map", "rwr_rank", "tri_search",
                    "metrics", "analyze", "status"]);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, "object", t.name);
    assert.equal(t.outputSchema.type, "object", t.name);
    assert.equal(t.annotations.readOnlyHint, true, t.name);
  }
  check("tools/list: nine read-only tools with input and output schemas");

  let r = records(await call(client, "find_paper", { query: "open access citation", limit: 3 }));
  assert.equal(r.length, 3);
  assert.ok(r.every((p) => p.type === "paper" && p.match === "text"));
  r = records(await call(client, "find_paper", { id: "W2741809807" }));
  assert.equal(r[0].id, "W2741809807");
  const text = (await call(client, "find_paper", { id: "W2741809807" })).content[0].text;
  assert.equal(JSON.parse(text.trim()).id, "W2741809807");
  check("find_paper: free text and id; text content holds the JSON lines");

  r = records(await call(client, "paper", { papers: ["10.7717/peerj.4375"] }));
  assert.ok(r[0].abstract.startsWith("Despite growing interest"));
  r = records(await call(client, "paper", { papers: ["W2741809807"], relation: "cited_by",
                                            limit: 2 }));
  assert.ok(r.length === 2 && r.every((p) => p.relation === "cited_by"));
  check("paper: detail card by DOI, cited_by neighbours");

  r = records(await call(client, "lineage", { from: "W2250539671", to: "W2963341956" }));
  assert.deepEqual(r.map((s) => s.id), ["W2250539671", "W2963341956"]);
  r = records(await call(client, "lineage", { descendants: "W2250539671", limit: 3 }));
  assert.ok(r.length === 3 && r.every((n) => n.root === "W2250539671"));
  check("lineage: a path and a tree");

  r = records(await call(client, "literature_map", { papers: ["W2250539671"], similar: 3,
                                                     prior: 0, derivative: 2 }));
  assert.deepEqual(r.map((p) => p.role), ["seed", "similar", "similar", "similar", "derivative",
                                          "derivative"]);
  assert.ok(r.every((p) => Array.isArray(p.seeds) && Array.isArray(p.cites_in_map)));
  assert.ok(r.filter((p) => p.role === "derivative").every((p) => p.cites_in_map.length > 0));
  check("literature_map: seeds, similar and derivative works with their evidence");

  r = records(await call(client, "rwr_rank", { seeds: [{ id: "W2741809807" }], target: "author",
                                               limit: 3 }));
  assert.ok(r.length === 3 && r.every((n) => n.type === "author" && n.paths.length > 0));
  check("rwr_rank: authors near a paper, with paths");

  r = records(await call(client, "tri_search", { query: "open access citation advantage",
                                                 limit: 5 }));
  assert.equal(r.length, 5);
  assert.ok(r.every((p) => typeof p.scores.final === "number" && Array.isArray(p.seeds)));
  check("tri_search: related work with scores and seeds");

  r = records(await call(client, "metrics", { papers: ["W2741809807"] }));
  assert.ok(r.length === 1 && r[0].id === "W2741809807" && "cd" in r[0] && "n_i" in r[0]);
  check("metrics: a paper's citation metrics");

  r = records(await call(client, "analyze", { kinds: ["influential", "lineage"], all: true,
                                              limit: 3 }));
  assert.ok(r.length > 0 && r.every((f) => f.type === "analysis" && typeof f.evidence === "object"));
  check("analyze: findings of the whole store with their evidence");

  const status = await call(client, "status", {});
  assert.equal(status.structuredContent.exit_code, 0);
  assert.equal(records(status)[0].healthy, true);
  check("status: a healthy store");

  r = await call(client, "find_paper", { query: "zzqxv wqpzz" });
  assert.equal(r.isError, false);
  assert.equal(r.structuredContent.exit_code, 1);
  assert.deepEqual(r.structuredContent.records, []);
  check("nothing found: exit_code 1, no records, not an error");

  await rejects(client, { name: "find_paper", arguments: { query: "x", limit: "five" } }, -32602,
                /limit: expected integer/);
  await rejects(client, { name: "find_paper", arguments: { query: "x", limit: 5000 } }, -32602,
                /maximum 1000/);
  await rejects(client, { name: "lineage", arguments: { from: "W2250539671" } }, -32602,
                /give from and to/);
  await rejects(client, { name: "find_paper", arguments: { query: "x", colour: "red" } }, -32602,
                /unknown argument "colour"/);
  await rejects(client, { name: "no_such_tool", arguments: {} }, -32602, /unknown tool/);
  await rejects(client, { name: "ingest", arguments: { records: [{ id: "X" }] } }, -32602,
                /--allow-writes/);
  r = await call(client, "find_paper", { query: "open access", after: 2020, before: 2010 });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.exit_code, 2);
  assert.match(r.content[0].text, /--after 2020 is later than --before 2010/);
  check("bad arguments: -32602 before anything runs; a usage error of the tool is isError");

  // Options can never be smuggled in through free text.
  r = await call(client, "find_paper", { query: "--db /nonexistent open access", limit: 1 });
  assert.equal(r.isError, false);
  check("free text is not read as options");

  const many = await Promise.all(["open access", "citation", "word vectors", "bibliometrics"].map(
      (q) => call(client, "tri_search", { query: q, limit: 2 })));
  assert.ok(many.every((x) => x.isError === false));
  check("concurrent calls");
  await close();
}

async function missingStore() {
  const { client, close } = await connect(["--db", missing]);
  for (const [name, args] of [["find_paper", { query: "open access" }], ["status", {}]]) {
    const r = await call(client, name, args);
    assert.equal(r.isError, true, name);
    assert.equal(r.structuredContent.exit_code, 4, name);
    assert.match(r.content[0].text, /no litgraph store/, name);
  }
  check("a missing store: tool errors with exit_code 4 and the tool's message");
  await close();
}

async function writes() {
  const { client, close } = await connect(["--db", writable, "--allow-writes"]);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.filter((t) => !t.annotations.readOnlyHint).map((t) => t.name),
                   ["ingest", "extract_keywords", "embed"]);
  let r = records(await call(client, "ingest", { records: [
    { id: "MCP-1", title: "Agents reading citation graphs", abstract: "Tools for agents.",
      year: 2026, references: ["W2741809807"] }] }));
  assert.equal(r[0].type, "ingest_summary");
  assert.equal(r[0].works_new, 1);
  r = records(await call(client, "extract_keywords", { missing: true }));
  assert.equal(r[0].type, "keyword_summary");
  assert.equal(r[0].papers, 1);
  r = records(await call(client, "embed", { missing: true }));
  assert.equal(r[0].type, "embed_summary");
  r = records(await call(client, "paper", { papers: ["MCP-1"] }));
  assert.ok(r[0].keywords.length > 0 && r[0].references_in_store.includes("W2741809807"));
  check("--allow-writes: ingest, extract_keywords, embed change the store");
  await close();
}

// Whether a process runs with `arg` on its command line (from /proc).
function running(arg) {
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(arg)) return true;
    } catch {}  // it ended meanwhile
  }
  return false;
}

async function waitFor(what, fn) {
  for (let i = 0; i < 200; i++) {
    if (fn()) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

async function limits() {
  const { client, log, close } = await connect(["--db", writable, "--allow-writes",
                                                "--timeout", "1"]);
  const slow = path.join(fifoDir, "slow.jsonl");
  const r = await call(client, "ingest", { files: [slow] });
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /litgraph-ingest did not finish within the time limit of 1 s/);
  assert.equal(running(slow), false);
  check("time limit: the call is a tool error and its process is killed");

  const stuck = path.join(fifoDir, "stuck.jsonl");
  const abort = new AbortController();
  const pending = client.callTool({ name: "ingest", arguments: { files: [stuck] } }, undefined,
                                  { signal: abort.signal, timeout: 60000 });
  await waitFor("the ingest to start", () => running(stuck));
  abort.abort("test cancels");
  await assert.rejects(pending);
  await waitFor("the cancelled ingest to be gone", () => !running(stuck));
  await waitFor("the server to log the cancellation",
                () => log.join("").includes("cancelled: its process was killed"));
  await client.ping();
  check("cancellation: notifications/cancelled kills the call's process; the server goes on");
  await close();
}

try {
  await readOnly();
  await missingStore();
  await writes();
  await limits();
} catch (e) {
  console.error(e);
  process.exit(1);
}
