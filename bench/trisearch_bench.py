#!/usr/bin/python3
"""litgraph-tri-search end to end: wall clock, stage breakdown, peak RSS, cold first query.

    /usr/bin/python3 bench/trisearch_bench.py --bin BUILD --db STORE [--dataset NAME]
        [--queries 50] [--kinds short,title,abstract] [--seed 1] [--repeats 3]
        [--warmup 5] [--evict-first] [--summary-csv FILE]

Query kinds (--queries of each, random stored papers, deterministic for --seed):
  short      3-4 random content words of a random title, in title order
  title      a random paper's whole title
  abstract   a random paper's whole abstract (80-250 words; skipped when the store has no
             abstracts, e.g. AAN)

Workloads:
  first      the first query of the run (a short query), before any warm-up: the cold
             start. With --evict-first, every file of the store and the tool binary are
             first dropped from the page cache (posix_fadvise DONTNEED, this store's files
             only), so it is a true cold start.
  warmup     --warmup untimed queries (one of each kind in turn).
  <kind>     `litgraph-tri-search --db STORE --timings --limit 20 --format jsonl QUERY` as a
             fresh process, --repeats runs per query (median per query): last_line_ms, from
             spawn to the arrival of the --timings line, which the tool prints right after
             its last result line (targets.md's "process start to last line"); wall_ms, from
             spawn to exit; teardown_ms = wall_ms - last_line_ms (destructors, unmapping,
             process exit); the --timings JSON (startup_ms, keywords_ms, semantic_ms,
             title_ms, merge_ms, subgraph_ms, walk_ms, rank_ms, total_ms, subgraph_nodes,
             subgraph_edges, paper_seeds, keyword_seeds); other_ms = total_ms minus the
             stages (store open, output, explanations); peak RSS = the child's ru_maxrss
             from wait4(), the figure `/usr/bin/time -f %M` prints (checked against it on
             the first queries); results = lines printed.
  spawn      /bin/true as a process: the driver's own process-start overhead.

There is no peer: targets.md's anchor is SciAtlas' "within 2 minutes" per retrieval.

stdout: one CSV row per query. stderr: progress and the summary. --summary-csv FILE: the
summary as workload,param,value,unit,count rows.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import tempfile
import time

from benchlib import PaperSampler, content_words, log, pct

STAGES = ["startup_ms", "keywords_ms", "semantic_ms", "title_ms", "merge_ms", "subgraph_ms",
          "walk_ms", "rank_ms"]
def make_queries(db, kinds, n, seed):
    rng = random.Random(seed)
    papers = PaperSampler(db)
    if not papers.has_abstracts:
        kinds = [k for k in kinds if k != "abstract"]
    out = {k: [] for k in kinds}
    while any(len(v) < n for v in out.values()):
        row = papers.random(rng)
        if not row:
            continue
        title, abstract = row
        for k in kinds:
            if len(out[k]) >= n:
                continue
            if k == "short":
                words = content_words(title)
                if len(words) < 3:
                    continue
                c = min(len(words), rng.choice((3, 4)))
                idx = sorted(rng.sample(range(len(words)), c))
                out[k].append(" ".join(words[i] for i in idx))
            elif k == "title":
                out[k].append(title)
            elif k == "abstract" and abstract and len(abstract.split()) >= 20:
                out[k].append(abstract)
            break  # one query per paper
    return out


def evict(paths):
    n = 0
    for p in paths:
        for root, _, files in os.walk(p) if os.path.isdir(p) else [(os.path.dirname(p), [], [os.path.basename(p)])]:
            for f in files:
                try:
                    fd = os.open(os.path.join(root, f), os.O_RDONLY)
                except OSError:
                    continue
                try:
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                    n += 1
                finally:
                    os.close(fd)
    return n


def run_tool_rss(a, q):
    """Spawn; the time the --timings line arrives on stderr (printed right after the last
    result line: "process start to last line"); wait4() for the exit (wall clock to exit,
    ru_maxrss)."""
    cmd = [f"{a.bin}/litgraph-tri-search", "--db", a.db, "--timings", "--limit", "20",
           "--format", "jsonl", q]
    with tempfile.TemporaryFile() as fo:
        t = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=fo, stderr=subprocess.PIPE)
        err, last = b"", None
        for line in p.stderr:
            err += line
            if last is None and line.startswith(b"{"):
                last = (time.perf_counter() - t) * 1000
        _, status, ru = os.wait4(p.pid, 0)
        wall = (time.perf_counter() - t) * 1000
        p.stderr.close()
        p.returncode = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        out = fo.read()
    if p.returncode != 0:
        raise SystemExit(f"tri-search exit {p.returncode} on {q[:80]!r}: {err.decode()[-400:]}")
    tm = None
    for line in err.decode().splitlines():
        if line.startswith("{"):
            tm = json.loads(line)
    if tm is None:
        raise SystemExit(f"tri-search: no --timings line: {err.decode()[-400:]}")
    tm["wall_ms"] = wall
    tm["last_line_ms"] = last
    tm["teardown_ms"] = wall - last
    tm["rss_mb"] = ru.ru_maxrss / 1024
    tm["results"] = len([l for l in out.splitlines() if l.strip()])
    tm["other_ms"] = tm["total_ms"] - sum(tm.get(s, 0) for s in STAGES)
    return tm


def gnu_time_rss(a, q):
    p = subprocess.run(["/usr/bin/time", "-f", "%M", f"{a.bin}/litgraph-tri-search", "--db", a.db,
                        "--limit", "20", "--format", "jsonl", q], capture_output=True, text=True)
    return int(p.stderr.strip().splitlines()[-1]) / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--dataset", default="store")
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--kinds", default="short,title,abstract")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--evict-first", action="store_true")
    ap.add_argument("--summary-csv")
    a = ap.parse_args()

    qs = make_queries(a.db, a.kinds.split(","), a.queries, a.seed)
    extra = make_queries(a.db, ["short", "title"], a.warmup + 1, a.seed + 7)
    first_q = extra["short"][0]
    warm = [x for pair in zip(extra["short"][1:], extra["title"][1:]) for x in pair][:a.warmup]
    log(f"{a.dataset}: kinds {list(qs)} x {a.queries} queries, {a.repeats} repeats")

    summary = []
    if a.evict_first:
        n = evict([a.db, f"{a.bin}/litgraph-tri-search"])
        log(f"evicted {n} files from the page cache")
    first = run_tool_rss(a, first_q)
    log(f"first query (cold{' after eviction' if a.evict_first else ''}): wall {first['wall_ms']:.1f} ms last line "
        f"{first['last_line_ms']:.1f} ms total {first['total_ms']:.1f} ms: " +
        " ".join(f"{s}={first[s]:.1f}" for s in STAGES + ["other_ms"]))
    for s in ["last_line_ms", "wall_ms", "teardown_ms", "total_ms"] + STAGES + ["other_ms", "rss_mb"]:
        summary.append(("first_query", s, "value", first[s], "ms" if s.endswith("_ms") else "MiB",
                        first["results"]))
    summary.append(("first_query", "evicted_page_cache", "value", int(a.evict_first), "bool", 1))
    for q in warm:
        run_tool_rss(a, q)
    # The same first query again, now warm.
    again = [run_tool_rss(a, first_q) for _ in range(3)]
    for c in ("last_line_ms", "wall_ms", "total_ms"):
        summary.append(("first_query_warm", c, "p50", pct([r[c] for r in again], 50), "ms",
                        again[0]["results"]))
    spawn = []
    for _ in range(21):
        t = time.perf_counter()
        subprocess.run(["/bin/true"])
        spawn.append((time.perf_counter() - t) * 1000)
    summary.append(("spawn", "true", "p50", pct(spawn, 50), "ms", len(spawn)))
    # ru_maxrss against GNU time on a few queries.
    for q in [qs[k][0] for k in qs]:
        r1, r2 = run_tool_rss(a, q)["rss_mb"], gnu_time_rss(a, q)
        log(f"rss check: wait4 {r1:.1f} MiB, /usr/bin/time %M {r2:.1f} MiB")

    cols = ["dataset", "kind", "query", "query_words", "last_line_ms", "wall_ms", "teardown_ms",
            "total_ms"] + STAGES + \
        ["other_ms", "rss_mb", "results", "subgraph_nodes", "subgraph_edges", "paper_seeds",
         "keyword_seeds"]
    print(",".join(cols), flush=True)
    rows = []
    for kind, ql in qs.items():
        for i, q in enumerate(ql):
            runs = [run_tool_rss(a, q) for _ in range(a.repeats)]
            r = {c: statistics.median(x[c] for x in runs)
                 for c in ["last_line_ms", "wall_ms", "teardown_ms", "total_ms", "other_ms",
                           "rss_mb"] + STAGES}
            for c in ["results", "subgraph_nodes", "subgraph_edges", "paper_seeds", "keyword_seeds"]:
                r[c] = runs[0][c]
            r.update(dataset=a.dataset, kind=kind, query=i, query_words=len(q.split()))
            rows.append(r)
            print(",".join(f"{r[c]:.3f}" if isinstance(r[c], float) else str(r[c]) for c in cols),
                  flush=True)
        log(f"  {kind}: {len(ql)} queries done")

    groups = [(k, [r for r in rows if r["kind"] == k]) for k in qs] + [("all", rows)]
    for name, rs in groups:
        w = f"trisearch_{name}"
        n = len(rs)
        for c in ["last_line_ms", "wall_ms", "total_ms"]:
            summary.append((w, c, "p50", pct([r[c] for r in rs], 50), "ms", n))
            summary.append((w, c, "p99", pct([r[c] for r in rs], 99), "ms", n))
        for c in STAGES + ["other_ms", "teardown_ms"]:
            summary.append((w, c, "p50", pct([r[c] for r in rs], 50), "ms", n))
        for c in ["subgraph_ms", "semantic_ms", "keywords_ms"]:
            summary.append((w, c, "p99", pct([r[c] for r in rs], 99), "ms", n))
        summary.append((w, "rss_mb", "p50", pct([r["rss_mb"] for r in rs], 50), "MiB", n))
        summary.append((w, "rss_mb", "max", max(r["rss_mb"] for r in rs), "MiB", n))
        for c in ["results", "subgraph_nodes", "subgraph_edges", "paper_seeds", "keyword_seeds",
                  "query_words"]:
            summary.append((w, c, "p50", pct([r[c] for r in rs], 50), "count", n))
        summary.append((w, "subgraph_nodes", "max", max(r["subgraph_nodes"] for r in rs), "count", n))
        summary.append((w, "results", "min", min(r["results"] for r in rs), "count", n))
    lines = ["workload,param,value,unit,count"]
    for w, k, stat, v, unit, cnt in summary:
        lines.append(f"{w},{k}_{stat},{v:.3f},{unit},{cnt}" if isinstance(v, float)
                     else f"{w},{k}_{stat},{v},{unit},{cnt}")
    log("\nsummary")
    for l in lines:
        log(l)
    if a.summary_csv:
        with open(a.summary_csv, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
