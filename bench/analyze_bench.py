#!/usr/bin/python3
"""litgraph-analyze on a field of a synthetic store, beside a networkx peer in the same run.

    /usr/bin/python3 bench/analyze_bench.py --bin BUILD --work DIR [--works 100000]
        [--set 10000] [--repeat 3] [--seed 1]

Builds its store in --work (removed at the end unless --keep): `litgraph-gen-works --works N`,
`litgraph-ingest`, `litgraph-extract-keywords` (the keyword analyses need the keyword layer).
The set is the field (primary topic's field, as litgraph-analyze --field reads it) whose
paper count is closest to --set.

Workloads (one invocation, same binary and store), each the median of --repeat runs:
  <kind>       `litgraph-analyze --db S --field F KIND --stats -q` for each KIND: the tool's
               own seconds (open, read the set, analyse, write the records) and the process's
               wall time and peak RSS under /usr/bin/time.
  all          the five kinds in one process.
  stdin_all    the same set given as ids on stdin (a query's results): ids resolved one by one.
  nx_peer      networkx on the same set's citation graph (edges read from SQLite in Python,
               loading excluded): nx.pagerank (tol 1e-12) and lineage depth by condensation +
               longest path; checked against litgraph's influential ranking (top 20 ids) and
               lineage depths (top 20).

stdout: CSV workload,papers,citations,findings,tool_seconds,wall_seconds,peak_rss_mb,mismatches,load1
(load1: the 1-minute load average before the run; the machine is shared).
"""
import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from metrics_bench import decode_refs  # noqa: E402  (the packed refs format, one decoder)

KINDS = ["influential", "bridges", "lineage", "gaps", "duplicates"]


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def run(cmd, stdin=None):
    p = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + cmd, input=stdin, capture_output=True,
                       text=True)
    if p.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr[-2000:]}")
    wall, rss_kb = p.stderr.strip().splitlines()[-1].split()
    return float(wall), int(rss_kb) / 1024, p.stdout


def field_sets(db):
    """{field name: [dense paper ids]} by each paper's primary topic (else best-scored)."""
    con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
    best = {}
    for paper, topic, score, primary in con.execute(
            "select paper_id, topic_id, score, is_primary from paper_topic"):
        key = (1 if primary else 0, score or 0, -topic)
        if paper not in best or key > best[paper][0]:
            best[paper] = (key, topic)
    field_of_topic = {t: f for t, f in con.execute(
        "select t.id, f.name from topic t join subfield s on s.id = t.subfield_id "
        "join field f on f.id = s.field_id")}
    out = {}
    for paper, (_, topic) in best.items():
        if topic in field_of_topic:
            out.setdefault(field_of_topic[topic], []).append(paper)
    return out


def nx_peer(db, papers):
    import networkx as nx
    con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
    dense = {ext: pid for pid, ext in con.execute("select id, ext_id from paper")}
    ext_of = {v: k for k, v in dense.items()}
    inset = set(papers)
    g = nx.DiGraph()
    g.add_nodes_from(papers)
    for pid, blob in con.execute("select id, refs from paper"):
        if pid in inset and blob:
            for r in decode_refs(blob, dense):
                if r in inset and r != pid:
                    g.add_edge(pid, r)
    t0 = time.time()
    try:
        pr = nx.pagerank(g, alpha=0.85, tol=1e-12, max_iter=1000)
    except ImportError:  # networkx 2.x without numpy/scipy: its pure Python version
        from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python
        pr = _pagerank_python(g, alpha=0.85, tol=1e-12, max_iter=1000)
    # Lineage depth: citation steps p <- c1 <- ..., condensed cycles one step.
    c = nx.condensation(g.reverse(copy=False))  # edges cited -> citing
    depth_c = {}
    for n in reversed(list(nx.topological_sort(c))):
        depth_c[n] = max((depth_c[m] + 1 for m in c.successors(n)), default=0)
    mapping = c.graph["mapping"]
    depth = {p: depth_c[mapping[p]] for p in papers}
    seconds = time.time() - t0
    return seconds, g.number_of_edges(), pr, depth, ext_of


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--works", type=int, default=100000)
    ap.add_argument("--set", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    tool = lambda name: os.path.join(a.bin, "litgraph-" + name)
    os.makedirs(a.work, exist_ok=True)
    db = os.path.join(a.work, "store.db")
    if not os.path.exists(db):
        works = os.path.join(a.work, "works.jsonl")
        log(f"generating {a.works} works")
        subprocess.run([tool("gen-works"), "--works", str(a.works), "--seed", str(a.seed),
                        "--out", works], check=True)
        log("ingesting")
        subprocess.run([tool("ingest"), "--db", db, "-q", works], check=True)
        log("extracting keywords")
        subprocess.run([tool("extract-keywords"), "--db", db, "-q"], check=True)
        os.remove(works)
    fields = field_sets(db)
    name, papers = min(fields.items(), key=lambda kv: (abs(len(kv[1]) - a.set), kv[0]))
    papers.sort()
    log(f"field {name!r}: {len(papers)} papers")
    print("workload,papers,citations,findings,tool_seconds,wall_seconds,peak_rss_mb,mismatches,load1")

    def measure(label, kinds, stdin=None):
        rows = []
        for _ in range(a.repeat):
            l1 = os.getloadavg()[0]
            args = [tool("analyze"), "--db", db, *kinds, "--stats", "-q", "-n", "20"]
            if stdin is None:
                args += ["--field", name]
            wall, rss, out = run(args, stdin=stdin)
            recs = [json.loads(x) for x in out.splitlines() if x.strip()]
            rows.append((recs[-1]["seconds"], wall, rss, recs, l1))
        rows.sort(key=lambda r: r[0])
        tool_s, wall, rss, recs, l1 = rows[len(rows) // 2]
        s = recs[-1]
        print(f"{label},{s['papers']},{s['citations']},{s['findings']},{tool_s:.3f},{wall:.2f},"
              f"{rss:.0f},,{l1:.2f}", flush=True)
        return recs

    results = {}
    for k in KINDS:
        results[k] = measure(k, [k])
    measure("all", KINDS)
    con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
    ext = dict(con.execute("select id, ext_id from paper"))
    measure("stdin_all", KINDS, stdin="".join(ext[p] + "\n" for p in papers))

    l1 = os.getloadavg()[0]
    seconds, edges, pr, depth, ext_of = nx_peer(db, papers)
    # Mismatches: a top-20 influential paper whose score is not networkx's PageRank (1e-8),
    # a rank where the ids differ and the scores are not tied, a lineage depth not networkx's,
    # a deepest lineage that is not the deepest.
    mismatches = 0
    dense = {v: k for k, v in ext_of.items()}
    ours = [r for r in results["influential"] if r.get("finding") == "influential_paper"]
    theirs = sorted(papers, key=lambda p: (-pr[p], p))[:len(ours)]
    for r, p in zip(ours, theirs):
        mismatches += abs(r["score"] - pr[dense[r["id"]]]) > 1e-8
        mismatches += r["id"] != ext_of[p] and abs(r["score"] - pr[p]) > 1e-12
    lineage = [r for r in results["lineage"] if r.get("finding") == "lineage_depth"]
    for r in lineage:
        mismatches += depth[dense[r["id"]]] != r["score"]
    if lineage and lineage[0]["score"] != max(depth.values()):
        mismatches += 1
    print(f"nx_peer,{len(papers)},{edges},,{seconds:.3f},,,{mismatches},{l1:.2f}", flush=True)
    if not a.keep:
        shutil.rmtree(a.work)


if __name__ == "__main__":
    main()
