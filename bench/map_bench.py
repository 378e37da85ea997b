#!/usr/bin/python3
"""litgraph-map wall time on a store: seeds like a reader's, and the store's biggest hubs.

    /usr/bin/python3 bench/map_bench.py --bin BUILD --db STORE [--queries 200] [--seed 1]
        [--repeats 3] [--args '--similar 20'] [--hubs 5]

Workloads (one invocation, same binary and store):
  spawn    /bin/true as a process: the driver's own process-start overhead
  map      a random paper P with >= 6 references in the store (litgraph-paper --references
           P), seeds = 3 of them (random.Random(seed)); `litgraph-map --db STORE --format jsonl
           SEED1 SEED2 SEED3` as a process, wall clock, process start and store open included;
           --repeats runs per query, the query's time is their median
  hub      each of the --hubs most cited papers of the store (by the records' cited_by_count;
           or the papers of --hub-ids) alone as the seed, same measurement

stdout: CSV workload,query,ms,records,capped (records: lines printed, so a fast but empty run
stands out; capped: the tool noted a capped scan). stderr: p50/p95/max per workload.
"""
import argparse
import random
import shlex
import sqlite3
import statistics
import subprocess
import sys
import time

from benchlib import log, pct


def timed(cmd, repeats):
    times, out, err = [], "", ""
    for _ in range(repeats):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        times.append((time.perf_counter() - t0) * 1000)
        if p.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr[:500]}")
        out, err = p.stdout, p.stderr
    return statistics.median(times), out, err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--hubs", type=int, default=5)
    ap.add_argument("--hub-ids", default="",
                    help="comma-separated hub seeds (stores whose records carry no cited_by_count)")
    ap.add_argument("--args", default="", help="extra litgraph-map flags")
    a = ap.parse_args()
    con = sqlite3.connect(f"file:{a.db}/litgraph.sqlite?mode=ro", uri=True)
    max_id = con.execute("select max(id) from paper").fetchone()[0]
    rng = random.Random(a.seed)
    extra = shlex.split(a.args)
    tool = f"{a.bin}/litgraph-map"
    print("workload,query,ms,records,capped")
    rows = {"spawn": [], "map": [], "hub": []}
    for i in range(20):
        ms, _, _ = timed(["/bin/true"], 1)
        rows["spawn"].append(ms)
        print(f"spawn,{i},{ms:.2f},0,0")
    tries = 0
    while len(rows["map"]) < a.queries and tries < a.queries * 200:
        tries += 1
        row = con.execute("select ext_id from paper where id = ?",
                          (rng.randint(1, max_id),)).fetchone()
        if not row:
            continue
        p = subprocess.run([f"{a.bin}/litgraph-paper", "--db", a.db, "--format", "tsv", "-q",
                            "--fields", "id", "--references", "--limit", "1000", row[0]],
                           capture_output=True, text=True)
        refs = sorted(set(p.stdout.split()[1:]))
        if len(refs) < 6:
            continue
        seeds = rng.sample(refs, 3)
        ms, out, err = timed([tool, "--db", a.db, "--format", "jsonl"] + extra + seeds, a.repeats)
        rows["map"].append(ms)
        print(f"map,{' '.join(seeds)},{ms:.2f},{len(out.splitlines())},{int('hub' in err)}",
              flush=True)
    # The most cited papers by in-store citations need the graph; the records' counts are
    # what the store has at hand (cited_by_count, else none).
    hubs = [h for h in a.hub_ids.split(",") if h] or [r[0] for r in con.execute(
        "select ext_id from paper where cited_by_count is not null "
        "order by cited_by_count desc limit ?", (a.hubs,))]
    for h in hubs:
        ms, out, err = timed([tool, "--db", a.db, "--format", "jsonl"] + extra + [h], a.repeats)
        rows["hub"].append(ms)
        print(f"hub,{h},{ms:.2f},{len(out.splitlines())},{int('hub' in err)}", flush=True)
    for name, xs in rows.items():
        if xs:
            log(f"{name}: {len(xs)} runs, p50 {pct(xs, 50):.1f} ms, p95 {pct(xs, 95):.1f} ms, "
                f"max {max(xs):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
