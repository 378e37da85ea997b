// bench/mcp_bench.py's mcp_sdk implementation: times tool calls through the official
// MCP TypeScript SDK client against litgraph-mcp over stdio.
//
//   node mcp_bench_client.mjs SERVER STORE < calls.json
//
// calls.json: [[tool name, arguments], ...]. Writes [[ms, records], ...] as JSON: each
// callTool from call to result (the SDK's outputSchema check included). Run from a directory
// whose node_modules holds @modelcontextprotocol/sdk.
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [server, store] = process.argv.slice(2);
const calls = JSON.parse(fs.readFileSync(0, "utf8"));
const client = new Client({ name: "mcp_bench", version: "1" });
await client.connect(new StdioClientTransport({ command: server, args: ["--db", store, "-q"] }));
await client.listTools();  // the SDK caches the output schemas' validators here
const out = [];
for (const [name, args] of calls) {
  const t = performance.now();
  const r = await client.callTool({ name, arguments: args });
  const ms = performance.now() - t;
  if (r.isError) throw new Error(`${name}: ${r.content[0].text}`);
  out.push([ms, r.structuredContent.records.length]);
}
await client.close();
console.log(JSON.stringify(out));
