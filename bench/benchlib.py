"""Helpers shared by the benchmark drivers in bench/ (import from a driver run as
`/usr/bin/python3 bench/NAME.py`: its directory is on sys.path)."""
import os
import random
import re
import resource
import sqlite3
import statistics
import subprocess
import sys
import time

# Words left out when queries are made of a title's content words.
STOP = set("""a an the of in on for and or to with by from at as is are be via its into
using based towards toward through under over new study analysis approach approaches
method methods between about against among without within their this that these those""".split())


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def timed(cmd, env=None, stdin=None):
    """Wall and CPU (user + system of the child) milliseconds of one run, and its stdout.
    Exits when the command fails (exit 1, "nothing found", counts as a run)."""
    def cpu():
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime
    c0, t0 = cpu(), time.perf_counter()
    p = subprocess.run(cmd, input=stdin, capture_output=True, env=env)
    wall, cpu_ms = (time.perf_counter() - t0) * 1000, (cpu() - c0) * 1000
    if p.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr.decode()[:500]}")
    return wall, cpu_ms, p.stdout


def pct(xs, p):
    """The p-th percentile (nearest rank) of xs; nan when empty."""
    xs = sorted(xs)
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def content_words(text):
    """The words of a title worth querying: not STOP, at least 3 characters, in order."""
    return [w for w in re.findall(r"[A-Za-z][A-Za-z0-9-]+", text)
            if w.lower() not in STOP and len(w) >= 3]


class PaperSampler:
    """Random stored papers of a store, read-only through SQLite."""

    def __init__(self, db):
        self.con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
        self.max_id = self.con.execute("select max(id) from paper").fetchone()[0]
        self.has_abstracts = self.con.execute(
            "select count(*) from (select 1 from paper where abstract is not null "
            "and length(abstract) > 50 limit 10)").fetchone()[0] > 0

    def random(self, rng):
        """(title, abstract) of a random dense id, or None when it has no title."""
        row = self.con.execute("select title, abstract from paper where id = ?",
                               (rng.randint(1, self.max_id),)).fetchone()
        return row if row and row[0] else None


def store_queries(bindir, db, count, kinds=None):
    """The query set of the reliability benchmarks: for `count` papers spread over
    the store's id range (with abstracts), find-paper with the whole abstract,
    paper --cited-by, rwr-rank from 60 seeds (a find-paper --limit 60 result),
    lineage --descendants, and tri-search when the store has vectors. Returns
    (rows, [(kind, argv, stdin)]); `kinds` (comma-separated) keeps some only."""
    tool = lambda name: os.path.join(bindir, "litgraph-" + name)
    con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
    max_id = con.execute("SELECT max(id) FROM paper").fetchone()[0]
    step = max(1, max_id // count)
    rows = con.execute("SELECT ext_id, title, abstract FROM paper WHERE id % ? = ? % ? AND "
                       "length(abstract) > 50 ORDER BY id LIMIT ?",
                       (step, 7, step, count)).fetchall()
    meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
    con.close()
    semantic = int(meta.get("vectors_generation", 0) or 0) > 0
    keep = kinds.split(",") if kinds else None
    env = dict(os.environ, LITGRAPH_DB=db)
    queries = []
    for ext, title, abstract in rows:
        queries.append(("find_abstract", [tool("find-paper"), "--format", "jsonl", abstract[:3000]],
                        None))
        queries.append(("cited_by", [tool("paper"), "--format", "jsonl", "--cited-by", ext], None))
        if not keep or "rwr_60_seeds" in keep:
            seeds = subprocess.run([tool("find-paper"), "--format", "jsonl", "--limit", "60",
                                    title], capture_output=True, env=env).stdout
            queries.append(("rwr_60_seeds", [tool("rwr-rank"), "--format", "jsonl"], seeds))
        queries.append(("lineage_tree", [tool("lineage"), "--format", "jsonl", "--descendants",
                                         ext], None))
        if semantic:
            queries.append(("tri_search", [tool("tri-search"), "--format", "jsonl", title], None))
    if keep:
        queries = [q for q in queries if q[0] in keep]
    return rows, queries


def p50_change(pairs, rounds=1000):
    """The change (percent) of the median of the first values of (a, b) pairs against the
    median of the second, and its 95% bootstrap interval (the pairs resampled)."""
    change = (statistics.median(x for x, _ in pairs) /
              statistics.median(y for _, y in pairs) - 1) * 100
    rng, boot = random.Random(1), []
    for _ in range(rounds):
        sample = [rng.choice(pairs) for _ in pairs]
        boot.append((statistics.median(x for x, _ in sample) /
                     statistics.median(y for _, y in sample) - 1) * 100)
    boot.sort()
    return change, (boot[int(rounds * 0.025)], boot[int(rounds * 0.975) - 1])


def run_checks_on_off(queries, env, repeat):
    """Each of store_queries' queries `repeat` times with the page checks on and off
    (LITGRAPH_VERIFY_PAGES) back to back, the order alternating between repeats; the two
    outputs must agree. Returns wall and CPU ms as {kind: {"on": [...], "off": [...]}}, in
    run order (repeat, then query)."""
    envs = {mode: dict(env, LITGRAPH_VERIFY_PAGES=v) for mode, v in (("on", "1"), ("off", "0"))}
    times, cpus = {}, {}
    for r in range(repeat):
        for kind, cmd, stdin in queries:
            outs = {}
            for mode in (("on", "off") if r % 2 == 0 else ("off", "on")):
                dt, cpu, outs[mode] = timed(cmd, envs[mode], stdin)
                times.setdefault(kind, {}).setdefault(mode, []).append(dt)
                cpus.setdefault(kind, {}).setdefault(mode, []).append(cpu)
            assert outs["on"] == outs["off"], f"{kind}: outputs differ with and without checks"
    return times, cpus
