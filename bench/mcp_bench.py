#!/usr/bin/python3
"""MCP round trip of find-paper and tri-search beside the same tool run as a process.

    /usr/bin/python3 bench/mcp_bench.py --bin BUILD (--db STORE | --csfcube WORK)
        [--queries 30] [--seed 1] [--sdk DIR]

Queries (--queries of each, random stored papers with a title, deterministic for --seed):
  find_id    find_paper {"id": ID} / litgraph-find-paper --id ID
  find_text  find_paper {"query": 3-4 title words, "limit": 20} / find-paper --limit 20 WORDS
  tri_search tri_search {"query": 3-4 title words, "limit": 20} / tri-search --limit 20 WORDS

Each workload first runs its queries once as processes, untimed (warm-up: the store's pages
in the page cache), then each query as `process` and `mcp_rpc` in turn (alternating which
goes first), then all of them through `mcp_sdk`. Implementations, on the same store and
queries:
  process    the tool as a fresh process (what a shell-using agent runs): spawn to exit,
             stdout read
  mcp_rpc    one long-lived `litgraph-mcp --db STORE` driven over stdio with raw JSON-RPC from
             this script: request line written to response line parsed. The server runs the
             same executable per call, so this is `process` plus the protocol, the argument
             check and the server's own spawn.
  mcp_sdk    the same through the official TypeScript SDK client (Client.callTool, which also
             validates structuredContent against the tool's outputSchema): call to result
             in node. Needs --sdk DIR, a directory whose node_modules holds
             @modelcontextprotocol/sdk (the test suite installs one in BUILD/mcp-client).
  spawn      /bin/true as a process: the driver's own process-start cost (once).

Each result count is the number of records (JSON lines); the counts of one workload must agree
between implementations, or the row says MISMATCH.

--csfcube WORK builds (once) a store of the CSFCube development papers (../shared/data,
4,205 papers with abstracts) with keywords and vectors in WORK.

CSV on stdout: workload,impl,runs,p50_ms,p90_ms,p99_ms,mean_results
stderr: progress and the machine's load average before and after.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import PaperSampler, content_words, log, pct  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "shared", "data", "csfcube-dev")


def build_csfcube(bin_dir, work):
    db, marker = os.path.join(work, "csfcube.db"), os.path.join(work, "csfcube.built")
    if os.path.exists(marker):
        return db
    shutil.rmtree(db, ignore_errors=True)
    os.makedirs(work, exist_ok=True)
    recs = os.path.join(work, "csfcube.jsonl")
    with open(recs, "w") as out:
        for line in open(os.path.join(SHARED, "papers.jsonl")):
            p = json.loads(line)
            out.write(json.dumps({"id": "cs:" + p["paper_id"], "title": p["title"],
                                  "year": p.get("year"),
                                  "abstract": " ".join(s["text"] for s in p["abstract_sentences"])})
                      + "\n")
    for args in (["ingest", recs], ["extract-keywords"], ["embed", "--train"]):
        subprocess.run([os.path.join(bin_dir, "litgraph-" + args[0]), "--db", db, "-q"] + args[1:],
                       check=True, stdout=subprocess.DEVNULL)
    open(marker, "w").close()
    return db


def queries(db, n, seed):
    rng = random.Random(seed)
    sampler = PaperSampler(db)
    out = {"find_id": [], "find_text": [], "tri_search": []}
    while len(out["find_id"]) < n:
        row = sampler.con.execute("select ext_id, title from paper where id = ?",
                                  (rng.randint(1, sampler.max_id),)).fetchone()
        words = content_words(row[1]) if row and row[1] else []
        if len(words) < 3:
            continue
        k = rng.randint(3, min(4, len(words)))
        start = rng.randint(0, len(words) - k)
        text = " ".join(words[start:start + k])
        out["find_id"].append(("find_paper", {"id": row[0]}, "find-paper", ["--id", row[0]]))
        for workload, tool, name in (("find_text", "find-paper", "find_paper"),
                                     ("tri_search", "tri-search", "tri_search")):
            out[workload].append((name, {"query": text, "limit": 20}, tool,
                                  ["--limit", "20", "--", text]))
    return out


def run_process(bin_dir, db, tool, args):
    t = time.perf_counter()
    p = subprocess.run([os.path.join(bin_dir, "litgraph-" + tool), "--db", db, "--format", "jsonl"]
                       + args, capture_output=True)
    ms = (time.perf_counter() - t) * 1000
    if p.returncode not in (0, 1):
        raise SystemExit(f"litgraph-{tool} {args}: exit {p.returncode}: {p.stderr.decode()[:300]}")
    return ms, len([l for l in p.stdout.splitlines() if l.strip()])


class RpcClient:
    """litgraph-mcp over stdio, raw JSON-RPC 2.0 lines."""

    def __init__(self, bin_dir, db):
        self.p = subprocess.Popen([os.path.join(bin_dir, "litgraph-mcp"), "--db", db, "-q"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "mcp_bench", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.p.stdin.write((json.dumps(msg) + "\n").encode())
        self.p.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        reply = json.loads(self.p.stdout.readline())
        if "error" in reply:
            raise SystemExit(f"{method}: {reply['error']}")
        return reply["result"]

    def call(self, name, arguments):
        t = time.perf_counter()
        r = self.request("tools/call", {"name": name, "arguments": arguments})
        ms = (time.perf_counter() - t) * 1000
        if r["isError"]:
            raise SystemExit(f"{name} {arguments}: {r['content'][0]['text']}")
        return ms, len(r["structuredContent"]["records"])

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=60)


def run_sdk(sdk_dir, bin_dir, db, calls):
    """Times each call with the TypeScript SDK client: a list of (ms, records)."""
    script = os.path.join(sdk_dir, "mcp_bench_client.mjs")
    shutil.copy(os.path.join(HERE, "mcp_bench_client.mjs"), script)
    p = subprocess.run(["node", script, os.path.join(bin_dir, "litgraph-mcp"), db],
                       input=json.dumps([[name, args] for name, args, _, _ in calls]).encode(),
                       capture_output=True, cwd=sdk_dir, timeout=3600)
    if p.returncode != 0:
        raise SystemExit(f"mcp_bench_client.mjs: {p.stderr.decode()[-1000:]}")
    return [tuple(x) for x in json.loads(p.stdout)]


def spawn_true():
    t = time.perf_counter()
    subprocess.run(["/bin/true"])
    return (time.perf_counter() - t) * 1000, 0


def row(workload, impl, timings, counts_ok=True):
    ms = [t for t, _ in timings]
    mean = sum(n for _, n in timings) / len(timings)
    note = "" if counts_ok else ",MISMATCH"
    print(f"{workload},{impl},{len(ms)},{pct(ms, 50):.2f},{pct(ms, 90):.2f},{pct(ms, 99):.2f},"
          f"{mean:.1f}{note}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--db")
    ap.add_argument("--csfcube", metavar="WORK")
    ap.add_argument("--queries", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sdk", metavar="DIR")
    a = ap.parse_args()
    if not a.db and not a.csfcube:
        ap.error("give --db STORE or --csfcube WORK")
    a.bin = os.path.abspath(a.bin)
    a.sdk = a.sdk and os.path.abspath(a.sdk)
    db = os.path.abspath(a.db or build_csfcube(a.bin, a.csfcube))
    log(f"load average before: {os.getloadavg()}, {os.cpu_count()} cores")
    qs = queries(db, a.queries, a.seed)
    print("workload,impl,runs,p50_ms,p90_ms,p99_ms,mean_results")
    row("spawn", "process", [spawn_true() for _ in range(a.queries)])
    rpc = RpcClient(a.bin, db)
    for workload, calls in qs.items():
        log(f"{workload}: {len(calls)} queries")
        for _, _, tool, args in calls:  # warm-up: the store's pages in the cache for both
            run_process(a.bin, db, tool, args)
        proc, raw = [], []
        for i, (name, arguments, tool, args) in enumerate(calls):  # interleaved, order alternating
            if i % 2:
                raw.append(rpc.call(name, arguments))
            proc.append(run_process(a.bin, db, tool, args))
            if not i % 2:
                raw.append(rpc.call(name, arguments))
        counts = [n for _, n in proc]
        row(workload, "process", proc)
        row(workload, "mcp_rpc", raw, [n for _, n in raw] == counts)
        if a.sdk:
            sdk = run_sdk(a.sdk, a.bin, db, calls)
            row(workload, "mcp_sdk", sdk, [n for _, n in sdk] == counts)
    rpc.close()
    log(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
