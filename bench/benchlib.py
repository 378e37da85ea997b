"""Helpers shared by the benchmark drivers in bench/ (import from a driver run as
`/usr/bin/python3 bench/NAME.py`: its directory is on sys.path)."""
import re
import resource
import sqlite3
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
