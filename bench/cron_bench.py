#!/usr/bin/python3
"""The cron path of issue 13 on a big store: upsert, extract-keywords --missing, embed --missing,
and query latency idle against during the update.

    /usr/bin/python3 bench/cron_bench.py --bin BIN --src STORE --work DIR
        [--works 50000,100000] [--seed 1] [--gen-seed 2] [--profile default|hubs] [--recent 0.2]
        [--latency separate|same|none] [--idle-rounds 5] [--gap-ms 100] [--nice N]
        [--out FILE.json] [--keep]

STORE is a store built from `litgraph-gen-works --works C` (--profile, default: default; seed 1, C = the
number of papers in STORE) with keywords and vectors; it is never written: every run works on
a fresh `cp -a` of it in DIR (then `sync`, so that the copy's write-back does not run during
the timings), removed afterwards unless --keep. With --in-place (a store too big to copy,
e.g. 10M works) the run updates STORE itself; --steps drops steps (embed on a store built
without vectors).

Input (built once per (C, --gen-seed, --seed, N) and kept in DIR as upsert-*.jsonl): the
same generator with the same C and another seed (--gen-seed) gives, at every position i, a
work of the same year (years are laid out by position for C) with another title, abstract,
authors, topics and references, and the same id (default profile: W(1000000000 + 7i); hubs:
W(2000000000 + 3i), then W(4300000000 + 11i)) and DOI. N works:
  changed  N/2 positions drawn uniformly from [0, C): the --gen-seed work at position i as is,
           so an update of the stored work i (id and DOI kept); every field differs
  new      N - N/2 positions drawn from the most recent --recent share of positions (disjoint
           from the changed ones): the --gen-seed work at position k, renamed to the next
           free id W(1000000000 + 7(C + j)) (hubs: W(9000000000 + C + j)) and DOI
           10.5555/synth.(C + j), j = 0, 1, ...;
           its references and related works keep pointing at stored works (in-store
           citations change)
Both get updated_date 2025-11-25T00:00:00.000000 (the store's is 2025-01-01...: never stale).
The generator streams through a pipe (7.6 GB at C = 1M, ~76 GB at 10M, never on disk); only
the selected lines are parsed. A check against STORE (read-only) counts, on a sample, changed
works whose title differs from the stored one and new ids absent from the store, and counts
the new works' references that resolve to stored works.

Workloads, for each N of --works (every command a fresh process, wall clock from spawn to
exit, /usr/bin/time -f '%e %M %U %S' for peak RSS and CPU):
  copy           cp -a STORE COPY; sync
  idle           the query set (below) --idle-rounds times (after one untimed round) on the
                 copy, nothing else running: per query kind p50 / p90 of wall ms
  ingest         litgraph-ingest --db COPY --stats -q FILE: wall, RSS, CPU, its JSON (works
                 new / updated / stale, load_seconds, graph_seconds, seconds)
  keywords       litgraph-extract-keywords --db COPY --missing --stats -q: wall, RSS, its JSON
  embed          litgraph-embed --db COPY --missing --stats -q: wall, RSS, its JSON
  (each of the three under `nice -n N` with --nice N, as README's cron recipe runs them;
  the queries at the default priority)
  cron_total     the sum of the three walls (issue 13: <= 60 s at N = 100k)
  cpu_probe      before and after the cron path, the seconds of a fixed CPU-bound job (see
                 cpu_probe()): the host's speed, to tell a slower run from a slower host
  files          while each command runs, the store directory is listed every 0.2 s and the
                 time each new file or directory first appears is kept (the commands print no
                 phase times of their own beyond --stats): e.g. when ingest's new graph.<G>/
                 appears (end of the SQLite load), its first relation file, its first lexical
                 index file (lexicon, postings, title.*), its last new file; then the commit
  during         the same query loop running in the background through the whole cron path,
                 one query at a time with --gap-ms between queries; every sample is tagged
                 with the command running when it started: p50 per kind and phase, and the
                 ratio to idle (issue 13: within 1.5x). Failed queries are counted.
  findable       after the cron path, the first new and the first changed work of the input
                 looked up by --id, and their (new) title by find-paper (BM25), --semantic,
                 --hybrid and tri-search: rank in the top 20, or null
With --latency separate (default) the timed cron path runs on one copy with no queries, and
the query loop during a second cron path on a second copy (whose own wall times are reported
as *_under_queries); same = one copy, the timed path with the loop running; none = no loop.

Query set (~20 queries, deterministic for --seed, saved as DIR/queries-<seed>.json and reused):
  find_abstract  7 x `litgraph-find-paper --db COPY --limit 20 ABSTRACT` (a whole stored
                 abstract, BM25)
  rwr            7 x `litgraph-rwr-rank --db COPY --limit 20` with the 10 papers
                 `find-paper --limit 10` returns for 3 content words of a stored title as
                 JSON lines on stdin (computed once)
  tri            6 x `litgraph-tri-search --db COPY --limit 20 WORDS` (3-4 content words of a
                 stored title)

stdout: CSV workload,metric,value. --out: everything as JSON (per-query samples included).
`cron_bench.py --report FILE.json` prints the markdown tables of a finished (or partial) run.
"""
import argparse
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import PaperSampler, content_words, log, pct  # noqa: E402

NEW_DATE = "2025-11-25T00:00:00.000000"
ID_BASE, ID_STEP = 1000000000, 7
# The hubs profile numbers works W2000000000 + 3i, then W4300000000 + 11i (gen_works.cc,
# WorkId); new works of its upserts take W9000000000 + i, past any id it generates.
HUBS_NEW_BASE = 9000000000


class Ids:
    """Which OpenAlex ids the generator gave the store's works, and which ids new works take."""

    def __init__(self, profile, corpus_n, src):
        self.hubs = profile == "hubs"
        self.corpus_n = corpus_n
        self.src = src
        self.con = None

    def new(self, i):
        return HUBS_NEW_BASE + i if self.hubs else ID_BASE + ID_STEP * i

    def is_new(self, num):
        return num >= HUBS_NEW_BASE if self.hubs else (num - ID_BASE) // ID_STEP >= self.corpus_n

    def in_store(self, num):
        if not self.hubs:
            return num >= ID_BASE and (num - ID_BASE) % ID_STEP == 0 and (num - ID_BASE) // ID_STEP < self.corpus_n
        if self.con is None:
            self.con = sqlite3.connect(f"file:{self.src}/litgraph.sqlite?mode=ro", uri=True)
        return bool(rows(self.con, "select 1 from paper where ext_id = ?", (f"W{num}",)))

    def check(self, con):
        """Raises unless the store looks like the generator's corpus of this profile."""
        first, last = (con.execute(f"select ext_id from paper where id = (select {f}(id) from paper)").fetchone()[0]
                       for f in ("min", "max"))
        want = "W2000000000" if self.hubs else f"W{ID_BASE + ID_STEP * (self.corpus_n - 1)}"
        got = first if self.hubs else last
        if got != want:
            raise SystemExit(f"{self.src}: not a litgraph-gen-works --profile "
                             f"{'hubs' if self.hubs else 'default'} store of {self.corpus_n} works "
                             f"(ids {first}..{last})")
KINDS = ["find_abstract", "rwr", "tri"]


def loadavg():
    with open("/proc/loadavg") as f:
        return f.read().split()[:3]


def cpu_probe(a):
    """Seconds of a fixed CPU-bound job (litgraph-gen-works --works 50000, output discarded;
    1.4-1.5 s on an idle, full-speed core of this machine). The shared host's CPU speed varies
    from hour to hour (the same cron path took 1.6x the CPU seconds in two idle runs), so each
    run records the probe before and after its cron path: compare runs whose probes agree."""
    t = time.perf_counter()
    subprocess.run([f"{a.bin}/litgraph-gen-works", "--works", "50000", "--out", "-"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return round(time.perf_counter() - t, 2)


def rows(con, sql, args=()):
    return con.execute(sql, args).fetchall()


# ---------------------------------------------------------------- input


def input_paths(a, corpus_n, sizes):
    return {n: os.path.join(a.work, f"upsert{profile_tag(a)}-c{corpus_n}-g{a.gen_seed}-s{a.seed}-r{a.recent}-w{n}.jsonl")
            for n in sizes}


def renumber(ids, w, i):
    """Makes generated work w the new work number i (its OpenAlex id and DOI past the store's)."""
    wid = f"https://openalex.org/W{ids.new(i)}"
    doi = f"https://doi.org/10.5555/synth.{i}"
    w["id"] = wid
    w["doi"] = doi
    w.setdefault("ids", {})
    w["ids"]["openalex"] = wid
    w["ids"]["doi"] = doi


def make_inputs(a, ids, corpus_n, sizes):
    """Writes the upsert files of every size in one pass of the generator; returns their info."""
    paths = input_paths(a, corpus_n, sizes)
    info_path = os.path.join(a.work, f"upsert{profile_tag(a)}-c{corpus_n}-g{a.gen_seed}-s{a.seed}-r{a.recent}.info.json")
    info = {}
    if os.path.exists(info_path):
        with open(info_path) as f:
            info = {int(k): v for k, v in json.load(f).items()}
    todo = [n for n in sizes if n not in info or not os.path.exists(paths[n])]
    if not todo:
        return paths, info
    rng = random.Random(a.seed)
    max_changed = max(n // 2 for n in todo)
    max_new = max(n - n // 2 for n in todo)
    changed = rng.sample(range(corpus_n), max_changed)
    taken = set(changed)
    lo = int(corpus_n * (1 - a.recent))
    pool = [k for k in range(lo, corpus_n) if k not in taken]
    if len(pool) < max_new:
        raise SystemExit(f"--recent {a.recent}: {len(pool)} positions for {max_new} new works")
    new = rng.sample(pool, max_new)
    changed_rank = {p: r for r, p in enumerate(changed)}
    new_rank = {p: r for r, p in enumerate(new)}
    outs = {n: open(paths[n] + ".tmp", "w") for n in todo}
    stats = {n: {"works": n, "changed": 0, "new": 0, "new_refs": 0, "new_refs_in_store": 0,
                 "new_related": 0, "new_related_in_store": 0, "changed_refs": 0,
                 "corpus_works": corpus_n, "gen_seed": a.gen_seed, "seed": a.seed,
                 "recent": a.recent, "new_id_first": f"W{ids.new(corpus_n)}"}
             for n in todo}
    cmd = [f"{a.bin}/litgraph-gen-works", "--works", str(corpus_n), "--seed", str(a.gen_seed),
           "--profile", a.profile, "--out", "-"]
    log("input: " + " ".join(cmd) + " | select " + ",".join(map(str, todo)))
    t0 = time.perf_counter()
    gen = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=1 << 20)

    def in_store(url):
        return ids.in_store(int(url.rsplit("W", 1)[1]))

    for pos, line in enumerate(gen.stdout):
        cr = changed_rank.get(pos)
        nr = new_rank.get(pos)
        if cr is None and nr is None:
            continue
        w = json.loads(line)
        w["updated_date"] = NEW_DATE
        if nr is not None:
            renumber(ids, w, corpus_n + nr)
        text = json.dumps(w, separators=(",", ":"), ensure_ascii=False) + "\n"
        for n in todo:
            if cr is not None and cr < n // 2:
                outs[n].write(text)
                s = stats[n]
                s["changed"] += 1
                s["changed_refs"] += len(w.get("referenced_works") or [])
            elif nr is not None and nr < n - n // 2:
                outs[n].write(text)
                s = stats[n]
                s["new"] += 1
                refs = w.get("referenced_works") or []
                rel = w.get("related_works") or []
                s["new_refs"] += len(refs)
                s["new_refs_in_store"] += sum(1 for r in refs if in_store(r))
                s["new_related"] += len(rel)
                s["new_related_in_store"] += sum(1 for r in rel if in_store(r))
    err = gen.stderr.read().decode()
    if gen.wait() != 0:
        raise SystemExit(f"litgraph-gen-works failed: {err}")
    for n in todo:
        outs[n].close()
        os.replace(paths[n] + ".tmp", paths[n])
        stats[n]["bytes"] = os.path.getsize(paths[n])
        stats[n]["gen_summary"] = err.strip()
        stats[n]["build_seconds"] = round(time.perf_counter() - t0, 1)
        info[n] = stats[n]
    with open(info_path, "w") as f:
        json.dump(info, f, indent=1)
    log(f"input: done in {time.perf_counter() - t0:.0f} s")
    return paths, info


def check_input(src, ids, path, sample=400):
    """Against the source store (read-only): changed works really differ, new ids are absent."""
    con = sqlite3.connect(f"file:{src}/litgraph.sqlite?mode=ro", uri=True)
    ch = ch_title_diff = ch_present = ch_newer = nw = nw_absent = 0
    ref_checked = ref_found = 0
    with open(path) as f:
        for line in f:
            if ch >= sample and nw >= sample:
                break
            w = json.loads(line)
            ext = w["id"].rsplit("/", 1)[1]
            num = int(ext[1:])
            is_new = ids.is_new(num)
            r = rows(con, "select title, updated_date from paper where ext_id = ?", (ext,))
            if is_new:
                if nw >= sample:
                    continue
                nw += 1
                nw_absent += not r
                for ref in w.get("referenced_works") or []:
                    ref_checked += 1
                    ref_found += bool(rows(con, "select 1 from paper where ext_id = ?",
                                           (ref.rsplit("/", 1)[1],)))
            else:
                if ch >= sample:
                    continue
                ch += 1
                if r:
                    ch_present += 1
                    ch_title_diff += r[0][0] != w.get("title")
                    ch_newer += (r[0][1] or "") < w["updated_date"]
    return {"changed_sampled": ch, "changed_in_store": ch_present, "changed_title_differs": ch_title_diff,
            "changed_newer_date": ch_newer, "new_sampled": nw, "new_absent_from_store": nw_absent,
            "new_refs_checked": ref_checked, "new_refs_found_in_store": ref_found}


# ---------------------------------------------------------------- queries


def make_query_set(a, db):
    path = os.path.join(a.work, f"queries-{a.seed}.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    rng = random.Random(a.seed * 7919 + 1)
    papers = PaperSampler(db)
    qs = []
    want = {"find_abstract": 7, "rwr": 7, "tri": 6}
    have = {k: 0 for k in want}
    while any(have[k] < want[k] for k in want):
        row = papers.random(rng)
        if not row:
            continue
        title, abstract = row
        words = content_words(title)
        if have["find_abstract"] < want["find_abstract"] and abstract and len(abstract) > 200:
            qs.append({"kind": "find_abstract", "args": ["--limit", "20", abstract]})
            have["find_abstract"] += 1
        elif have["rwr"] < want["rwr"] and len(words) >= 3:
            q = words[:3]
            p = subprocess.run([f"{a.bin}/litgraph-find-paper", "--db", db, "--format", "jsonl",
                                "--limit", "10", *q], capture_output=True, text=True)
            if p.returncode != 0 or not p.stdout.strip():
                continue
            seeds = "".join(json.dumps({"id": json.loads(l)["id"]}) + "\n"
                            for l in p.stdout.splitlines() if l.strip())
            qs.append({"kind": "rwr", "args": ["--limit", "20"], "stdin": seeds, "seed_query": q})
            have["rwr"] += 1
        elif have["tri"] < want["tri"] and len(words) >= 4:
            k = rng.choice([3, 4])
            start = rng.randint(0, len(words) - k)
            qs.append({"kind": "tri", "args": ["--limit", "20", *words[start:start + k]]})
            have["tri"] += 1
    # Interleave the kinds so that every phase sees all of them.
    order = {k: [q for q in qs if q["kind"] == k] for k in want}
    qs = []
    while any(order.values()):
        for k in want:
            if order[k]:
                qs.append(order[k].pop(0))
    with open(path, "w") as f:
        json.dump(qs, f, indent=1)
    return qs


TOOL = {"find_abstract": "litgraph-find-paper", "rwr": "litgraph-rwr-rank", "tri": "litgraph-tri-search"}


def run_query(a, db, qi, q):
    cmd = [f"{a.bin}/{TOOL[q['kind']]}", "--db", db, "--format", "jsonl", *q["args"]]
    t = time.perf_counter()
    p = subprocess.run(cmd, input=q.get("stdin", "").encode(), capture_output=True)
    ms = (time.perf_counter() - t) * 1000
    return {"q": qi, "kind": q["kind"], "ms": round(ms, 2), "rc": p.returncode,
            "results": p.stdout.count(b"\n"),
            "err": p.stderr.decode(errors="replace")[-200:] if p.returncode not in (0, 1) else ""}


class QueryLoop(threading.Thread):
    """Runs the query set in turn, one process at a time, until stopped."""

    def __init__(self, a, db, qs, t0, phase):
        super().__init__(daemon=True)
        self.a, self.db, self.qs, self.t0, self.phase = a, db, qs, t0, phase
        self.samples = []
        self.stop = threading.Event()

    def run(self):
        i = 0
        while not self.stop.is_set():
            qi = i % len(self.qs)
            start = time.perf_counter() - self.t0
            ph = self.phase()
            s = run_query(self.a, self.db, qi, self.qs[qi])
            s["t"] = round(start, 3)
            s["phase"] = ph
            self.samples.append(s)
            i += 1
            if self.a.gap_ms:
                self.stop.wait(self.a.gap_ms / 1000)


def idle_latency(a, db, qs):
    for qi, q in enumerate(qs):  # warm-up round, untimed
        run_query(a, db, qi, q)
    samples = []
    for _ in range(a.idle_rounds):
        for qi, q in enumerate(qs):
            s = run_query(a, db, qi, q)
            s["phase"] = "idle"
            samples.append(s)
            if a.gap_ms:
                time.sleep(a.gap_ms / 1000)
    return samples


def summarize_latency(samples):
    out = {}
    phases = sorted({s["phase"] for s in samples})
    for ph in phases + ["update"]:
        sel = [s for s in samples if (s["phase"] == ph if ph != "update"
                                      else s["phase"] in ("ingest", "keywords", "embed", "between"))]
        if not sel:
            continue
        d = {}
        for k in KINDS + ["all"]:
            ms = [s["ms"] for s in sel if (k == "all" or s["kind"] == k) and s["rc"] in (0, 1)]
            d[k] = {"n": len(ms), "p50": round(pct(ms, 50), 1), "p90": round(pct(ms, 90), 1),
                    "p99": round(pct(ms, 99), 1), "max": round(max(ms), 1) if ms else None}
        d["failed"] = sum(1 for s in sel if s["rc"] not in (0, 1))
        d["failed_examples"] = list({s["err"] for s in sel if s["rc"] not in (0, 1)})[:3]
        d["no_results"] = sum(1 for s in sel if s["rc"] == 1)
        out[ph] = d
    return out


# ---------------------------------------------------------------- cron path


class DirWatch(threading.Thread):
    """First time each path under the store directory (depth 2) is seen, every 0.2 s."""

    def __init__(self, db, t0):
        super().__init__(daemon=True)
        self.db, self.t0 = db, t0
        self.before = set(self.scan())
        self.seen = {}
        self.stop = threading.Event()

    def scan(self):
        out = []
        try:
            for e in os.scandir(self.db):
                out.append(e.name)
                if e.is_dir():
                    try:
                        out.extend(e.name + "/" + f for f in os.listdir(e.path))
                    except FileNotFoundError:
                        pass
        except FileNotFoundError:
            pass
        return out

    def run(self):
        while True:
            t = round(time.perf_counter() - self.t0, 2)
            for p in self.scan():
                if p not in self.before and p not in self.seen:
                    self.seen[p] = t
            if self.stop.wait(0.2):
                break


def timeline(seen, wall):
    """Phase marks from the first-seen times: new generation directories and their files."""
    marks = {}
    gens = sorted({p.split("/")[0] for p in seen if "." in p.split("/")[0] and "/" in p
                   and p.split("/")[0].split(".")[0] in ("graph", "keywords", "vectors")})
    lex = ("lexicon", "postings", "title.lexicon", "title.postings")
    for g in gens:
        files = {p.split("/", 1)[1]: t for p, t in seen.items() if p.startswith(g + "/")}
        if not files:
            continue
        m = {"dir_first_file": min(files.values()), "last_new_file": max(files.values()),
             "files": len(files)}
        if g.startswith("graph."):
            rel = [t for f, t in files.items() if f.endswith(".adj") or f.endswith(".ranked")
                   or f.startswith("paper.")]
            lx = [t for f, t in files.items() if f in lex]
            if rel:
                m["first_relation_file"], m["last_relation_file"] = min(rel), max(rel)
            if lx:
                m["first_lexical_file"] = min(lx)
            if "lexical.tmp" in files:
                m["lexical_tmp_dir"] = files["lexical.tmp"]
        marks[g] = m
    for p, t in seen.items():
        if "/" not in p and p.endswith(".tmp"):
            marks[p] = {"first_seen": t}
    marks["wall"] = round(wall, 2)
    marks["first_seen"] = dict(sorted(seen.items(), key=lambda kv: kv[1])[:200])
    return marks


def run_cmd(a, name, argv, db, t0, logdir, phase_box):
    """Runs one step; a failed attempt (e.g. `database is locked` while readers run) is kept
    and the step retried after 1 s, at most --retries times."""
    attempts = []
    while True:
        k = len(attempts)
        tf = os.path.join(logdir, f"{name}.{k}.time")
        ef = os.path.join(logdir, f"{name}.{k}.stderr")
        of = os.path.join(logdir, f"{name}.{k}.stdout")
        phase_box[0] = name
        watch = DirWatch(db, time.perf_counter())
        load = loadavg()
        watch.start()
        start = time.perf_counter()
        with open(ef, "w") as err, open(of, "w") as out:
            nice = ["nice", "-n", str(a.nice)] if a.nice else []
            p = subprocess.run(["/usr/bin/time", "-f", "%e %M %U %S", "-o", tf, *nice, *argv],
                               stdout=out, stderr=err)
        wall = time.perf_counter() - start
        watch.stop.set()
        watch.join()
        phase_box[0] = "between"
        if p.returncode == 0:
            break
        with open(ef) as f:
            msg = f.read()[-600:]
        attempts.append({"rc": p.returncode, "wall_s": round(wall, 2), "stderr": msg,
                         "start_s": round(start - t0, 2)})
        log(f"  {name}: attempt {k} exit {p.returncode}: {msg.strip()[:300]}")
        if len(attempts) > a.retries:
            raise SystemExit(f"{name}: failed {len(attempts)} times")
        time.sleep(1)
    e, m, u, s = open(tf).read().split()[-4:]
    stats = {}
    for line in open(of).read().splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                stats = json.loads(line)
            except ValueError:
                pass
    return {"cmd": argv, "wall_s": round(wall, 2), "time_elapsed_s": float(e),
            "peak_rss_mb": round(int(m) / 1024), "user_s": float(u), "sys_s": float(s),
            "loadavg_before": load, "stats": stats, "files": timeline(watch.seen, wall),
            "start_s": round(start - t0, 2), "failed_attempts": attempts,
            "wall_with_failures_s": round(wall + sum(x["wall_s"] for x in attempts) + len(attempts), 2)}


def cron_path(a, db, inp, logdir, t0, phase_box):
    b = a.bin
    steps = [("ingest", [f"{b}/litgraph-ingest", "--db", db, "--stats", "-q", inp]),
             ("keywords", [f"{b}/litgraph-extract-keywords", "--db", db, "--missing", "--stats", "-q"]),
             ("embed", [f"{b}/litgraph-embed", "--db", db, "--missing", "--stats", "-q"])]
    steps = [st for st in steps if st[0] in a.steps.split(",")]
    out = {}
    for name, argv in steps:
        log(f"  {name}: {' '.join(argv)}")
        out[name] = run_cmd(a, name, argv, db, t0, logdir, phase_box)
        log(f"  {name}: {out[name]['wall_s']} s, {out[name]['peak_rss_mb']} MB; "
            f"{json.dumps(out[name]['stats'])[:300]}")
    out["total_s"] = round(sum(out[n]["wall_s"] for n, _ in steps), 2)
    out["total_with_failures_s"] = round(sum(out[n]["wall_with_failures_s"] for n, _ in steps), 2)
    out["failed_attempts"] = sum(len(out[n]["failed_attempts"]) for n, _ in steps)
    return out


def findable(a, ids, db, inp):
    """The first new and the first changed work of the input: found by id, and by their (new)
    title through each search path? (rank in the top 20, or null)"""
    first = {}
    with open(inp) as f:
        for line in f:
            w = json.loads(line)
            ext = w["id"].rsplit("/", 1)[1]
            role = "new" if ids.is_new(int(ext[1:])) else "changed"
            first.setdefault(role, w)
            if len(first) == 2:
                break
    out = {}
    for role, w in first.items():
        ext = w["id"].rsplit("/", 1)[1]
        title = w["title"]
        res = {"id": ext, "title": title}
        for name, cmd in [("by_id", ["litgraph-find-paper", "--id", ext]),
                          ("bm25_title", ["litgraph-find-paper", "--limit", "20", title]),
                          ("semantic_title", ["litgraph-find-paper", "--semantic", "--limit", "20", title]),
                          ("hybrid_title", ["litgraph-find-paper", "--hybrid", "--limit", "20", title]),
                          ("tri_search_title", ["litgraph-tri-search", "--limit", "20", title])]:
            p = subprocess.run([f"{a.bin}/{cmd[0]}", "--db", db, "--format", "jsonl", *cmd[1:]],
                               capture_output=True, text=True)
            ids = [json.loads(l).get("id", "") for l in p.stdout.splitlines() if l.strip()]
            rank = next((i + 1 for i, x in enumerate(ids) if x.endswith(ext)), None)
            res[name] = {"rc": p.returncode, "rank": rank}
        out[role] = res
    return out


def fresh_copy(a, dst):
    if getattr(a, "in_place", False):  # cron_rounds.py has no --in-place
        return 0.0
    if os.path.exists(dst):
        shutil.rmtree(dst)
    t = time.perf_counter()
    link_copy(a.src, dst)
    subprocess.run(["sync"], check=True)
    return round(time.perf_counter() - t, 1)


def link_copy(src, dst):
    """A copy of store `src` whose generation directories' files are hard links: a generation
    is never written once made (doc/store-format.md), and a later one goes into a directory of
    its own. Their PIN files are copied (readers lock them) and so is every other file."""
    os.makedirs(dst)
    for name in os.listdir(src):
        s, d = os.path.join(src, name), os.path.join(dst, name)
        if os.path.isdir(s) and os.path.exists(os.path.join(s, "MANIFEST")):
            os.makedirs(d)
            for f in os.listdir(s):
                if f == "PIN":
                    shutil.copy2(os.path.join(s, f), os.path.join(d, f))
                else:
                    os.link(os.path.join(s, f), os.path.join(d, f))
        elif os.path.isdir(s):
            shutil.copytree(s, d)
        else:
            shutil.copy2(s, d)


def one_run(a, n, inp, qs, ids, label, with_queries, timed, save=lambda r: None):
    db = a.src if a.in_place else os.path.join(a.work, f"cron-{label}.db")
    logdir = os.path.join(a.work, f"log-w{n}-{label}")
    os.makedirs(logdir, exist_ok=True)
    r = {"label": label, "with_queries": with_queries}
    log(f"[{n} {label}] copy {a.src} -> {db}")
    r["copy_s"] = fresh_copy(a, db)
    r["loadavg_start"] = loadavg()
    r["cpu_probe_before_s"] = cpu_probe(a)
    samples = []
    if qs is not None:
        log(f"[{n} {label}] idle queries")
        samples = idle_latency(a, db, qs)
    t0 = time.perf_counter()
    phase_box = ["before"]
    loop = None
    if with_queries:
        loop = QueryLoop(a, db, qs, t0, lambda: phase_box[0])
        loop.start()
        time.sleep(1)  # the loop is running before the update starts
    log(f"[{n} {label}] cron path")
    try:
        r["cron"] = cron_path(a, db, inp, logdir, t0, phase_box)
    except SystemExit as e:
        r["error"] = str(e)
        if loop:
            loop.stop.set()
            loop.join()
            r["samples"] = samples + loop.samples
        save(r)
        raise
    if loop:
        loop.stop.set()
        loop.join()
        samples += loop.samples
    r["loadavg_end"] = loadavg()
    r["cpu_probe_after_s"] = cpu_probe(a)
    if samples:
        r["latency"] = summarize_latency(samples)
        r["samples"] = samples
    if timed:
        r["findable"] = findable(a, ids, db, inp)
    st = subprocess.run([f"{a.bin}/litgraph-status", "--db", db, "--format", "jsonl"],
                        capture_output=True, text=True)
    r["status_rc"] = st.returncode
    r["status"] = st.stdout[-4000:]
    r["store_bytes"] = sum(os.path.getsize(os.path.join(d, f))
                           for d, _, fs in os.walk(db) for f in fs)
    if not a.keep and not a.in_place:
        shutil.rmtree(db)
    save(r)
    return r


def profile_tag(a):
    return "" if a.profile == "default" else f"-{a.profile}"


def emit(w, metric, value):
    print(f"{w},{metric},{value}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="directory of the litgraph binaries")
    ap.add_argument("--src", required=True, help="source store (never written)")
    ap.add_argument("--work", required=True, help="directory for inputs, copies and logs")
    ap.add_argument("--works", default="50000,100000", help="upsert sizes, comma-separated")
    ap.add_argument("--seed", type=int, default=1, help="selection and query seed")
    ap.add_argument("--gen-seed", type=int, default=2, help="litgraph-gen-works seed of the upserts")
    ap.add_argument("--profile", default="default",
                    help="litgraph-gen-works profile of STORE and of the upserts (default, hubs)")
    ap.add_argument("--recent", type=float, default=0.2,
                    help="new works come from this most recent share of positions")
    ap.add_argument("--latency", choices=["separate", "same", "none"], default="separate")
    ap.add_argument("--idle-rounds", type=int, default=5)
    ap.add_argument("--gap-ms", type=float, default=100, help="pause between background queries")
    ap.add_argument("--nice", type=int, default=0,
                    help="run the cron steps under nice -n N (README's cron recipe), queries at 0")
    ap.add_argument("--out", help="JSON with every measurement")
    ap.add_argument("--keep", action="store_true", help="keep the store copies")
    ap.add_argument("--retries", type=int, default=5, help="retries of a failed cron step")
    ap.add_argument("--steps", default="ingest,keywords,embed",
                    help="the cron steps run (e.g. ingest,keywords on a store without vectors)")
    ap.add_argument("--in-place", action="store_true",
                    help="update STORE itself, no copy (a store too big to copy: one size, "
                         "--latency none or same; STORE is changed)")
    a = ap.parse_args()
    if a.in_place and (a.latency == "separate" or "," in a.works):
        raise SystemExit("--in-place takes one --works size and --latency none or same")
    a.src = os.path.abspath(a.src)
    os.makedirs(a.work, exist_ok=True)
    sizes = [int(x) for x in a.works.split(",")]
    con = sqlite3.connect(f"file:{a.src}/litgraph.sqlite?mode=ro", uri=True)
    corpus_n = con.execute("select count(*) from paper").fetchone()[0]
    ids = Ids(a.profile, corpus_n, a.src)
    ids.check(con)
    con.close()
    result = {"bin": os.path.abspath(a.bin), "src": a.src, "corpus_works": corpus_n,
              "args": vars(a), "loadavg_start": loadavg(),
              "uptime_start": subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(),
              "runs": {}}
    paths, info = make_inputs(a, ids, corpus_n, sizes)
    qs = None
    print("workload,metric,value")
    for n in sizes:
        chk = check_input(a.src, ids, paths[n])
        log(f"input {n}: {json.dumps(info[n])[:400]} check {chk}")
        res = {"input": info[n], "input_path": paths[n], "input_check": chk}
        if a.latency != "none" and qs is None:
            # The query set is made on a copy (find-paper seeds need the tools).
            qdb = os.path.join(a.work, "cron-q.db")
            if not os.path.exists(os.path.join(a.work, f"queries-{a.seed}.json")):
                fresh_copy(a, qdb)
                qs = make_query_set(a, qdb)
                shutil.rmtree(qdb)
            else:
                qs = make_query_set(a, None)
        result["runs"][n] = res

        def saver(label):
            def save(r):
                res[label] = r
                if a.out:
                    with open(a.out, "w") as f:
                        json.dump(result, f, indent=1)
            return save
        if a.latency == "separate":
            one_run(a, n, paths[n], qs, ids, "timed", False, True, saver("timed"))
            one_run(a, n, paths[n], qs, ids, "loaded", True, False, saver("loaded"))
        elif a.latency == "same":
            one_run(a, n, paths[n], qs, ids, "timed", True, True, saver("timed"))
            res["loaded"] = res["timed"]
        else:
            one_run(a, n, paths[n], None, ids, "timed", False, True, saver("timed"))
        w = f"cron_{n}_into_{corpus_n}"
        c = res["timed"]["cron"]
        emit(w, "input_changed", info[n]["changed"])
        emit(w, "input_new", info[n]["new"])
        for step in a.steps.split(","):
            emit(w, f"{step}_wall_s", c[step]["wall_s"])
            emit(w, f"{step}_peak_rss_mb", c[step]["peak_rss_mb"])
            emit(w, f"{step}_cpu_s", round(c[step]["user_s"] + c[step]["sys_s"], 1))
        s = c["ingest"]["stats"]
        for k in ("works_new", "works_updated", "works_stale", "load_seconds", "graph_seconds", "seconds"):
            if k in s:
                emit(w, f"ingest_{k}", s[k])
        emit(w, "cron_total_s", c["total_s"])
        emit(w, "cpu_probe_before_s", res["timed"]["cpu_probe_before_s"])
        emit(w, "cpu_probe_after_s", res["timed"]["cpu_probe_after_s"])
        emit(w, "failed_attempts", c["failed_attempts"])
        if "loaded" in res and "latency" in res["loaded"]:
            lat = res["loaded"]["latency"]
            lc = res["loaded"]["cron"]
            if a.latency == "separate":
                emit(w, "cron_total_under_queries_s", lc["total_s"])
                emit(w, "failed_attempts_under_queries", lc["failed_attempts"])
            for ph in ("idle", "ingest", "keywords", "embed", "update"):
                if ph not in lat:
                    continue
                for k in KINDS + ["all"]:
                    emit(w, f"p50_ms_{ph}_{k}", lat[ph][k]["p50"])
                    emit(w, f"p99_ms_{ph}_{k}", lat[ph][k]["p99"])
                    if ph != "idle" and lat["idle"][k]["p50"] > 0:
                        emit(w, f"p50_ratio_{ph}_{k}", round(lat[ph][k]["p50"] / lat["idle"][k]["p50"], 2))
                emit(w, f"failed_{ph}", lat[ph]["failed"])
        if a.out:
            with open(a.out, "w") as f:
                json.dump(result, f, indent=1)
    result["loadavg_end"] = loadavg()
    result["uptime_end"] = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    if a.out:
        with open(a.out, "w") as f:
            json.dump(result, f, indent=1)


def cron_runs(r):
    """(N, its results, "timed" or "loaded", that run's results) of an --out JSON, by N."""
    for n, res in sorted(r["runs"].items(), key=lambda kv: int(kv[0])):
        for label in ("timed", "loaded"):
            if res.get(label):
                yield n, res, label, res[label]


def report(path):
    """Markdown tables from an --out JSON (the committed summaries are made with this)."""
    with open(path) as f:
        r = json.load(f)
    print(f"bin `{r['bin']}`, source store `{r['src']}` ({r['corpus_works']:,} works); "
          f"{r.get('uptime_start', '')}")
    print()
    print("| N (changed + new) | run | ingest wall (load + graph) | ingest RSS | keywords wall | "
          "keywords RSS | embed wall | embed RSS | total | failed attempts | load avg (1 min) at start of each step | "
          "CPU probe before / after |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n, res, label, x in cron_runs(r):
        if "cron" not in x:
            if "error" in x:
                print(f"| {int(n):,} | {label} | failed: {x['error']} |||||||||")
            continue
        c = x["cron"]
        i, k, e = c["ingest"], c["keywords"], c["embed"]
        s = i["stats"]
        print(f"| {int(n):,} ({res['input']['changed']:,} + {res['input']['new']:,}) | {label} | "
              f"{i['wall_s']:.1f} s ({s.get('load_seconds', 0):.1f} + {s.get('graph_seconds', 0):.1f}) | "
              f"{i['peak_rss_mb']:,} MB | {k['wall_s']:.1f} s | {k['peak_rss_mb']:,} MB | "
              f"{e['wall_s']:.1f} s | {e['peak_rss_mb']:,} MB | **{c['total_s']:.1f} s** | "
              f"{c.get('failed_attempts', 0)} | "
              f"{i['loadavg_before'][0]} / {k['loadavg_before'][0]} / {e['loadavg_before'][0]} | "
              f"{x.get('cpu_probe_before_s', '-')} / {x.get('cpu_probe_after_s', '-')} s |")
    print()
    print("Ingest timeline (seconds from the start of `litgraph-ingest`, from the first-seen times "
          "of the new generation's files; the tools print no phase times of their own):")
    print()
    print("| N | run | new graph dir (end of the SQLite load) | relation files | lexical "
          "index files (lexicon, postings) appear | exit | load_seconds / graph_seconds (--stats) |")
    print("|---|---|---|---|---|---|---|")
    for n, res, label, x in cron_runs(r):
        if "cron" not in x:
            continue
        i = x["cron"]["ingest"]
        g = [v for k, v in i["files"].items() if k.startswith("graph.") and "removed" not in k
             and isinstance(v, dict) and "first_relation_file" in v]
        if not g:
            continue
        g = g[0]
        s = i["stats"]
        print(f"| {int(n):,} | {label} | {g['dir_first_file']:.0f} | {g['first_relation_file']:.0f}"
              f"-{g['last_relation_file']:.0f} | {g.get('first_lexical_file', float('nan')):.0f} | "
              f"{i['wall_s']:.0f} | {s.get('load_seconds', 0):.0f} / {s.get('graph_seconds', 0):.0f} |")
    print()
    print("| N | phase | samples | find_abstract p50 (x idle) | rwr p50 (x idle) | tri p50 (x idle) | "
          "all p50 (x idle) | all p99 | all max | failed |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n, res in sorted(r["runs"].items(), key=lambda kv: int(kv[0])):
        x = res.get("loaded")
        if not x or "latency" not in x:
            continue
        lat = x["latency"]
        idle = lat["idle"]
        for ph in ("idle", "ingest", "keywords", "embed", "update"):
            if ph not in lat:
                continue
            d = lat[ph]
            cells = []
            for k in KINDS + ["all"]:
                ratio = d[k]["p50"] / idle[k]["p50"] if ph != "idle" and idle[k]["p50"] else None
                cells.append(f"{d[k]['p50']:.0f} ms" + (f" ({ratio:.2f}x)" if ratio else ""))
            print(f"| {int(n):,} | {ph} | {d['all']['n']} | " + " | ".join(cells) +
                  f" | {d['all']['p99']:.0f} ms | {d['all']['max']:.0f} ms | {d['failed']} |")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--report":
        report(sys.argv[2])
    else:
        main()
