#!/usr/bin/python3
"""litgraph-lineage against networkx on random connected pairs, in one run.

    /usr/bin/python3 bench/lineage_bench.py --bin BUILD --db STORE --records FILE \
        [--ingest] [--pairs 200] [--seed 1] [--max-hops 6] [--timeout 10] [--repeats 3] \
        [--cache FILE] [--summary-csv FILE] [--dataset NAME]

FILE is the JSON-lines input the store was (or, with --ingest, is now) built from:
OpenAlex works or native records. The script reads it itself, keeping only each work's
id, year, cited_by_count and references, so networkx sees exactly the citations the
store holds: references resolved inside the file, self-citations and duplicates dropped
(graph_build.h). Citation count per paper, as litgraph uses it: the record's
cited_by_count when present, else the in-store in-degree.

Pairs: a random B with references, then a random walk of 1..max-hops steps along
references (no repeated paper); its end is A. Kept when A != B, year(A) <= year(B) (so
the tool does not swap them) and the pair is new. Deterministic for a given --seed.

Workloads (all in this one invocation; python3-networkx from Debian):
  spawn          /bin/true as a process: the driver's own process-start overhead
  startup        `litgraph-graph-bench --db STORE --benchmarks open --repeats 1` as a
                 fresh process (start + Store::Open + Graph::Open + first Neighbours),
                 --startup-runs times; wall clock, and the in-process open time it prints
  litgraph       `litgraph-lineage --db STORE --format jsonl --max-hops H A B` as a
                 process, wall clock, process start included; --repeats runs per pair,
                 the pair's time is their median (the first run is reported too)
  networkx       nx.all_simple_paths(G, B, A, cutoff=H) over a DiGraph of all
                 citations, keeping the path with the largest sum of citation counts
                 (ties: fewer hops); G built once and not timed per pair; --timeout
                 seconds per pair (SIGALRM), timeouts recorded with the best path found
                 so far (which must not beat litgraph's)
  exhaustive     an independent exact check for pairs networkx cannot finish:
                 depth-first enumeration of every simple path B -> A of <= H hops, cut
                 only where the exact distance to A (backward BFS from A, computed while
                 it stays under 300k papers) exceeds the hops left; same timeout

Every litgraph path is checked: starts at B, ends at A, simple, <= H hops, each step a
stored citation, and its score = the sum of the counts above. Agreement compares the total
citations of the best path; where the exhaustive search finds a single optimal path
(ex_ties = 1), the paths themselves must also be equal (same_path).

stdout: one CSV row per pair (header first). stderr: progress and the summary.
--summary-csv FILE: the summary as workload,param,value,unit,count rows.
Times are milliseconds. The litgraph runs happen before the networkx graph is built, so
the driver's process is still small when it spawns the tool.
"""
import argparse
import array
import json
import os
import pickle
import random
import resource
import signal
import statistics
import subprocess
import sys
import time

from benchlib import log, pct


def short_id(s):
    if isinstance(s, int):
        return str(s)
    for pre in ("https://openalex.org/", "http://openalex.org/"):
        if s.startswith(pre):
            return s[len(pre):]
    return s


# ---- the citation graph of the records file ----------------------------------------

class Corpus:
    """Papers 0..n-1 in file order: ids, years, record counts, CSR of resolved refs."""

    def __init__(self):
        self.ids = []
        self.years = array.array("H")
        self.counts = array.array("q")  # -1: absent from the record
        self.out_off = array.array("Q", [0])
        self.out = array.array("I")
        self.duplicates = 0

    @staticmethod
    def read(path, log_every=100000):
        c = Corpus()
        index = {}
        raw_refs = []  # per paper: list of referenced short ids
        t0 = time.time()
        with open(path, "rb") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                r = json.loads(line)
                rid = r.get("id")
                if rid is None:
                    continue
                sid = short_id(rid)
                openalex = isinstance(rid, str) and "openalex.org/" in rid
                if openalex and not sid.startswith("W"):
                    continue  # authors, institutions, ... : not papers
                if openalex:
                    refs = r.get("referenced_works") or []
                    year = r.get("publication_year") or 0
                    if not year and (r.get("publication_date") or "")[:4].isdigit():
                        year = int(r["publication_date"][:4])
                else:
                    refs = r.get("references") or []
                    year = r.get("year") or 0
                    if not (0 < year < 3000):
                        year = 0
                cbc = r.get("cited_by_count")
                refs = [short_id(x) for x in refs if x]
                if sid in index:  # a later record of the same paper replaces it
                    c.duplicates += 1
                    i = index[sid]
                    c.years[i] = year
                    c.counts[i] = -1 if cbc is None else min(int(cbc), 0x7FFFFFFF)
                    raw_refs[i] = refs
                    continue
                index[sid] = len(c.ids)
                c.ids.append(sid)
                c.years.append(min(int(year), 65535))
                c.counts.append(-1 if cbc is None else min(int(cbc), 0x7FFFFFFF))
                raw_refs.append(refs)
                if len(c.ids) % log_every == 0:
                    log(f"  read {len(c.ids)} papers, {time.time() - t0:.0f} s")
        dangling = 0
        for i, refs in enumerate(raw_refs):
            s = set()
            for x in refs:
                j = index.get(x)
                if j is None:
                    dangling += 1
                elif j != i:
                    s.add(j)
            c.out.extend(sorted(s))
            c.out_off.append(len(c.out))
            raw_refs[i] = None
        c.dangling = dangling
        return c

    def finish(self):
        n = len(self.ids)
        self.n = n
        indeg = array.array("I", bytes(4 * n))
        for u in self.out:
            indeg[u] += 1
        self.indeg = indeg
        # Citation count as litgraph uses it.
        self.weight = array.array("q", (self.counts[i] if self.counts[i] >= 0 else indeg[i]
                                        for i in range(n)))
        # Reverse CSR.
        off = array.array("Q", bytes(8 * (n + 1)))
        for v in range(n):
            off[v + 1] = off[v] + indeg[v]
        fill = array.array("Q", off[:n])
        inn = array.array("I", bytes(4 * len(self.out)))
        o, t = self.out_off, self.out
        for v in range(n):
            for k in range(o[v], o[v + 1]):
                u = t[k]
                inn[fill[u]] = v
                fill[u] += 1
        self.in_off, self.inn = off, inn
        self.index = {s: i for i, s in enumerate(self.ids)}

    def refs(self, v):
        return self.out[self.out_off[v]:self.out_off[v + 1]]

    def citers(self, v):
        return self.inn[self.in_off[v]:self.in_off[v + 1]]

    def has_edge(self, v, u):
        o = self.out_off
        lo, hi = o[v], o[v + 1]
        # binary search in the sorted slice
        while lo < hi:
            mid = (lo + hi) // 2
            if self.out[mid] < u:
                lo = mid + 1
            else:
                hi = mid
        return lo < o[v + 1] and self.out[lo] == u


def load_corpus(path, cache):
    st = os.stat(path)
    key = (os.path.abspath(path), st.st_size, int(st.st_mtime))
    if cache and os.path.exists(cache):
        with open(cache, "rb") as f:
            k, c = pickle.load(f)
        if k == key:
            log(f"corpus from cache {cache}")
            return c, 0.0
    t = time.time()
    c = Corpus.read(path)
    dt = time.time() - t
    if cache:
        with open(cache + ".tmp", "wb") as f:
            pickle.dump((key, c), f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(cache + ".tmp", cache)
    return c, dt


# ---- pairs ----------------------------------------------------------------------------

def sample_pairs(c, n, hops, seed):
    rng = random.Random(seed)
    with_refs = [v for v in range(c.n) if c.out_off[v + 1] > c.out_off[v]]
    pairs, seen, tries = [], set(), 0
    while len(pairs) < n and tries < 200 * n:
        tries += 1
        b = rng.choice(with_refs)
        steps = rng.randint(1, hops)
        cur, visited = b, {b}
        walked = 0
        for _ in range(steps):
            nxt = [u for u in c.refs(cur) if u not in visited]
            if not nxt:
                break
            cur = rng.choice(nxt)
            visited.add(cur)
            walked += 1
        a = cur
        if a == b or (a, b) in seen:
            continue
        ya, yb = c.years[a], c.years[b]
        if ya and yb and ya > yb:
            continue
        seen.add((a, b))
        pairs.append((a, b, walked))
    return pairs


# ---- litgraph ------------------------------------------------------------------------

def run_timed(cmd):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True)
    return (time.perf_counter() - t) * 1000, p


def litgraph_pair(bin_dir, db, a_id, b_id, hops, repeats):
    cmd = [os.path.join(bin_dir, "litgraph-lineage"), "--db", db, "--format", "jsonl",
           "--max-hops", str(hops), a_id, b_id]
    times, first = [], None
    for _ in range(repeats):
        ms, p = run_timed(cmd)
        times.append(ms)
        if first is None:
            first = p
    p = first
    res = {"ms": statistics.median(times), "ms_first": times[0], "rc": p.returncode,
           "truncated": b"work cap" in p.stderr, "path": [], "score": None, "hops": None}
    if p.returncode == 0:
        rows = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
        rows = [r for r in rows if r.get("path") == 1]
        rows.sort(key=lambda r: r["step"])
        res["path"] = [r["id"] for r in rows]  # oldest (A) first
        res["score"] = rows[0]["score"] if rows else None
        res["hops"] = rows[0]["hops"] if rows else None
    elif p.returncode != 1:
        res["error"] = p.stderr.decode(errors="replace")[:300]
    return res


def check_path(c, path_ids, a, b, hops, score):
    """'ok' or what is wrong with a litgraph path (ids oldest first)."""
    if not path_ids:
        return "empty"
    try:
        nodes = [c.index[x] for x in path_ids]
    except KeyError as e:
        return f"unknown id {e}"
    if nodes[0] != a or nodes[-1] != b:
        return "wrong ends"
    if len(set(nodes)) != len(nodes):
        return "not simple"
    if len(nodes) - 1 > hops:
        return "too long"
    for older, newer in zip(nodes, nodes[1:]):
        if not c.has_edge(newer, older):
            return f"no citation {c.ids[newer]} -> {c.ids[older]}"
    total = sum(c.weight[v] for v in nodes)
    if total != score:
        return f"score {score} != sum {total}"
    return "ok"


# ---- reference searches ---------------------------------------------------------------

class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


class Best:
    def __init__(self):
        self.total, self.path, self.paths, self.ties = None, None, 0, 0

    def offer(self, total, path):
        self.paths += 1
        if (self.total is None or total > self.total
                or (total == self.total and len(path) < len(self.path))):
            self.total, self.path, self.ties = total, list(path), 1
        elif total == self.total and len(path) == len(self.path):
            self.ties += 1  # equally good paths: litgraph may pick another one


def timed(fn, best, timeout):
    signal.setitimer(signal.ITIMER_REAL, timeout)
    t = time.perf_counter()
    status = "ok"
    try:
        fn(best)
    except Timeout:
        status = "timeout"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return (time.perf_counter() - t) * 1000, status


def nx_search(G, w, b, a, hops):
    import networkx as nx

    def run(best):
        for path in nx.all_simple_paths(G, b, a, cutoff=hops):
            best.offer(sum(w[v] for v in path), path)
    return run


def exhaustive_search(c, b, a, hops, cap=300000):
    def run(best):
        w = c.weight
        # Exact distance to A for every paper within K hops of it (complete levels only).
        dist = {a: 0}
        frontier, k = [a], 0
        while k < hops - 1 and frontier and len(dist) < cap:
            nxt = []
            for v in frontier:
                for u in c.citers(v):
                    if u not in dist:
                        dist[u] = k + 1
                        nxt.append(u)
            frontier, k = nxt, k + 1
        path, on = [b], {b}

        def visit(v, rem, s):
            if v == a:
                best.offer(s, path)
                return
            if rem == 0:
                return
            r = rem - 1
            for u in c.refs(v):
                if u in on:
                    continue
                if r <= k:
                    d = dist.get(u)
                    if d is None or d > r:
                        continue
                on.add(u)
                path.append(u)
                visit(u, r, s + w[u])
                path.pop()
                on.discard(u)
        visit(b, hops, w[b])
    return run


def build_nx(c):
    import networkx as nx
    G = nx.DiGraph()
    G.add_nodes_from(range(c.n))
    o, t = c.out_off, c.out
    G.add_edges_from((v, t[k]) for v in range(c.n) for k in range(o[v], o[v + 1]))
    return G


# ---- main ---------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="build directory with the litgraph tools")
    ap.add_argument("--db", required=True, help="store directory")
    ap.add_argument("--records", required=True, help="the JSON-lines file the store holds")
    ap.add_argument("--ingest", action="store_true",
                    help="build STORE from --records first (STORE must not exist)")
    ap.add_argument("--dataset", default="")
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-hops", type=int, default=6)
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per pair and peer")
    ap.add_argument("--repeats", type=int, default=3, help="litgraph runs per pair")
    ap.add_argument("--startup-runs", type=int, default=21)
    ap.add_argument("--cache", help="pickle of the parsed records (reused when the file "
                                    "is unchanged)")
    ap.add_argument("--no-networkx", action="store_true")
    ap.add_argument("--summary-csv")
    a = ap.parse_args()
    dataset = a.dataset or os.path.basename(a.db.rstrip("/"))
    H = a.max_hops
    summary = []

    def S(workload, param, value, unit, count):
        summary.append((workload, param, value, unit, count))

    if a.ingest:
        if os.path.exists(a.db):
            sys.exit(f"{a.db} exists: remove it or drop --ingest")
        t = time.perf_counter()
        p = subprocess.run([os.path.join(a.bin, "litgraph-ingest"), "--db", a.db, "--stats",
                            "-q", a.records], capture_output=True)
        if p.returncode != 0:
            sys.exit(f"ingest failed: {p.stderr.decode()[:500]}")
        st = json.loads(p.stdout.decode().strip().splitlines()[-1])
        S("ingest", "works/s", st.get("works_per_second", 0), "works/s", st.get("works", 0))
        S("ingest", "wall", time.perf_counter() - t, "s", st.get("cites_edges", 0))
        log(f"ingested {st.get('works')} works, {st.get('cites_edges')} citations")

    log(f"reading {a.records}")
    c, parse_s = load_corpus(a.records, a.cache)
    c.finish()
    log(f"corpus: {c.n} papers, {len(c.out)} citations in the file's graph, "
        f"{c.dangling} dangling references, {c.duplicates} duplicate records "
        f"(parse {parse_s:.0f} s)")
    S("corpus", "papers", c.n, "papers", c.n)
    S("corpus", "citations", len(c.out), "edges", len(c.out))
    from_record = sum(1 for x in c.counts if x >= 0)
    S("corpus", "counts_from_records", from_record, "papers", c.n)

    pairs = sample_pairs(c, a.pairs, H, a.seed)
    log(f"{len(pairs)} pairs sampled")

    # spawn overhead and start-up, before anything big lives in this process
    sp = [run_timed(["/bin/true"])[0] for _ in range(a.startup_runs)]
    S("spawn", "/bin/true p50", statistics.median(sp), "ms", len(sp))
    gb = os.path.join(a.bin, "litgraph-graph-bench")
    if os.path.exists(gb):
        wall, inproc = [], []
        for _ in range(a.startup_runs):
            ms, p = run_timed([gb, "--db", a.db, "--benchmarks", "open", "--repeats", "1"])
            wall.append(ms)
            for line in p.stdout.decode().splitlines():
                f = line.split(",")
                if f[0] == "open_total":
                    inproc.append(float(f[2]))
        S("startup", "process p50", statistics.median(wall), "ms", len(wall))
        S("startup", "process max", max(wall), "ms", len(wall))
        if inproc:
            S("startup", "open in-process p50", statistics.median(inproc), "ms", len(inproc))
            S("startup", "open in-process first", inproc[0], "ms", 1)

    # litgraph on every pair
    rows = []
    for i, (av, bv, walked) in enumerate(pairs):
        r = litgraph_pair(a.bin, a.db, c.ids[av], c.ids[bv], H, a.repeats)
        r["check"] = (check_path(c, r["path"], av, bv, H, r["score"]) if r["rc"] == 0
                      else ("no path" if r["rc"] == 1 else "error: " + r.get("error", "")))
        rows.append({"pair": i, "a": av, "b": bv, "walk": walked, "lg": r})
        if (i + 1) % max(20, len(pairs) // 10) == 0:
            log(f"  litgraph {i + 1}/{len(pairs)}")

    # references
    signal.signal(signal.SIGALRM, _alarm)
    for row in rows:
        best = Best()
        row["ex_ms"], row["ex_status"] = timed(exhaustive_search(c, row["b"], row["a"], H),
                                               best, a.timeout)
        row["ex"] = best
    log("exhaustive reference done")
    if not a.no_networkx:
        t = time.time()
        G = build_nx(c)
        build_s = time.time() - t
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        S("networkx", "graph build", build_s, "s", G.number_of_edges())
        S("networkx", "peak RSS", rss, "MiB", G.number_of_nodes())
        log(f"networkx graph: {G.number_of_nodes()} nodes, {G.number_of_edges()} edges, "
            f"{build_s:.0f} s, peak RSS {rss:.0f} MiB")
        w = c.weight
        for i, row in enumerate(rows):
            best = Best()
            row["nx_ms"], row["nx_status"] = timed(nx_search(G, w, row["b"], row["a"], H),
                                                   best, a.timeout)
            row["nx"] = best
            if (i + 1) % max(20, len(rows) // 10) == 0:
                log(f"  networkx {i + 1}/{len(rows)}")
        del G

    # per-pair CSV
    cols = ["dataset", "pair", "a", "b", "year_a", "year_b", "walk_hops", "lg_ms", "lg_ms_first",
            "lg_rc", "lg_hops", "lg_citations", "lg_truncated", "lg_check", "nx_status", "nx_ms",
            "nx_paths", "nx_citations", "nx_hops", "nx_agree", "ex_status", "ex_ms", "ex_paths",
            "ex_citations", "ex_hops", "ex_agree", "ex_ties", "same_path", "lg_path"]
    print(",".join(cols))

    def agree(lg, status, best):
        """yes / no / lower-bound-ok (timeout, best so far <= litgraph) / violated."""
        if status == "ok":
            if best.total is None:
                return "yes" if lg["score"] is None else "no"
            return "yes" if lg["score"] == best.total else "no"
        if best.total is not None and (lg["score"] is None or best.total > lg["score"]):
            return "violated"
        return "open"

    for row in rows:
        lg = row["lg"]
        row["ex_agree"] = agree(lg, row["ex_status"], row["ex"])
        vals = [dataset, row["pair"], c.ids[row["a"]], c.ids[row["b"]], c.years[row["a"]],
                c.years[row["b"]], row["walk"], f"{lg['ms']:.2f}", f"{lg['ms_first']:.2f}",
                lg["rc"], lg["hops"], lg["score"], int(lg["truncated"]), lg["check"]]
        if "nx" in row:
            nx_b = row["nx"]
            row["nx_agree"] = agree(lg, row["nx_status"], nx_b)
            vals += [row["nx_status"], f"{row['nx_ms']:.2f}", nx_b.paths, nx_b.total,
                     len(nx_b.path) - 1 if nx_b.path else None, row["nx_agree"]]
        else:
            vals += [None] * 6
        ex = row["ex"]
        same = None
        if row["ex_status"] == "ok" and ex.path:
            same = int([c.ids[v] for v in reversed(ex.path)] == lg["path"])
            row["same_path"] = same
        vals += [row["ex_status"], f"{row['ex_ms']:.2f}", ex.paths, ex.total,
                 len(ex.path) - 1 if ex.path else None, row["ex_agree"], ex.ties if ex.path else None,
                 same, " ".join(lg["path"])]
        print(",".join("" if v is None else str(v) for v in vals))
        for peer in ("nx", "ex"):
            if row.get(peer + "_agree") in ("no", "violated"):
                p = row[peer]
                log(f"DISAGREE {peer}: pair {row['pair']} A={c.ids[row['a']]} "
                    f"B={c.ids[row['b']]}: litgraph {lg['score']} via {lg['path']}, "
                    f"{peer} {p.total} via {[c.ids[v] for v in reversed(p.path or [])]}")

    # summary
    n = len(rows)
    lg_ms = [r["lg"]["ms"] for r in rows]
    found = [r for r in rows if r["lg"]["rc"] == 0]
    S("litgraph", "p50", pct(lg_ms, 50), "ms", n)
    S("litgraph", "p99", pct(lg_ms, 99), "ms", n)
    S("litgraph", "mean", statistics.mean(lg_ms) if lg_ms else float("nan"), "ms", n)
    S("litgraph", "first-run p50", pct([r["lg"]["ms_first"] for r in rows], 50), "ms", n)
    S("litgraph", "paths found", len(found), "pairs", n)
    S("litgraph", "paths checked ok", sum(r["lg"]["check"] == "ok" for r in found), "pairs",
      len(found))
    S("litgraph", "truncated", sum(r["lg"]["truncated"] for r in rows), "pairs", n)
    uniq = [r for r in rows if r["ex_status"] == "ok" and r["ex"].ties == 1]
    S("litgraph", "same path as exhaustive (unique optimum)",
      sum(r.get("same_path") == 1 for r in uniq), "pairs", len(uniq))
    for peer, name in (("ex", "exhaustive"), ("nx", "networkx")):
        if not rows or peer + "_ms" not in rows[0]:
            continue
        ms = [r[peer + "_ms"] for r in rows]
        done = [r for r in rows if r[peer + "_status"] == "ok"]
        S(name, "p50 (timeouts at limit)", pct(ms, 50), "ms", n)
        S(name, "p99 (timeouts at limit)", pct(ms, 99), "ms", n)
        S(name, "finished", len(done), "pairs", n)
        S(name, "timeouts", n - len(done), "pairs", n)
        if done:
            S(name, "p50 of finished", pct([r[peer + "_ms"] for r in done], 50), "ms", len(done))
        ag = [r[peer + "_agree"] for r in rows]
        S(name, "agree (finished)", ag.count("yes"), "pairs", len(done))
        S(name, "disagree (finished)", ag.count("no"), "pairs", len(done))
        S(name, "timeout best-so-far beats litgraph", ag.count("violated"), "pairs",
          n - len(done))
        S(name, "ratio p50 peer/litgraph", pct(ms, 50) / max(1e-9, pct(lg_ms, 50)), "x", n)
    if a.summary_csv:
        with open(a.summary_csv, "w") as f:
            f.write("workload,param,value,unit,count\n")
            for wl, param, v, unit, cnt in summary:
                f.write(f"{dataset}:{wl},{param},{v:.6g},{unit},{cnt}\n")
    log(f"--- summary ({dataset}) ---")
    for wl, param, v, unit, cnt in summary:
        log(f"{wl:12s} {param:38s} {v:12.4g} {unit:8s} (n={cnt})")


if __name__ == "__main__":
    main()
