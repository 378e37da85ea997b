#!/usr/bin/env python3
"""The kill -9 matrix (issue 20): every writer killed at points spread over its run, and the
store it leaves checked.

Operations (a chain: each one's store before is the previous one's store after):
  ingest-bulk        litgraph-ingest BASE.jsonl into an empty store (the bulk path:
                     rollback journal, secondary indexes dropped and re-created)
  keywords-full      litgraph-extract-keywords (first full run: phrase statistics + keywords)
  embed-train        litgraph-embed --train (first model, vectors, HNSW)
  ingest-upsert      litgraph-ingest UPSERT.jsonl: N/10 new works + N/40 changed works (newer
                     updated_date, new title, cited_by_count + 7) into the full store (WAL path)
  keywords-missing   litgraph-extract-keywords --missing
  embed-missing      litgraph-embed --missing
  keywords-full-again, embed-train-again   the full runs once more on the final store
                     (replacing a keyword generation / a model that exists)

For each operation the store before (B) is copied and the operation run to completion twice:
A1 without readers (timed) and A2 with concurrent readers (timed; kill points are fractions of
this duration); A1 and A2 must be the same state (files that differ between them, the
multi-threaded HNSW builds, are compared by name only). Then for each kill point a fresh copy of
B runs the operation and gets SIGKILL at that point while a reader loop queries the store and
two held readers (opened during the write, asked after the kill) wait:
  p05 .. p95   a fraction of A2's duration (--points, spread from 5% to 95%)
  commit       as soon as every new generation directory of the run has its MANIFEST (the
               generation is written, the SQLite commit in progress or just before)
  cleanup      as soon as the previous generation starts being removed (after the commit)
A point whose process had already exited is recorded as such (state A, no kill).

Checks after the kill, each run:
  (a) the query battery (find-paper by id / BM25 / semantic, tri-search, rwr-rank with a seed on
      stdin, twice, paper --cited-by and the card, lineage --descendants) exits 0, 1 or 2 as the
      reference stores do, never 4 or 5;
  (b) the store is B or A: PRAGMA integrity_check ok, every table's content hash (meta with
      generation numbers masked), the generation numbers and every battery output equal those
      of B or of A1;
  (c) the same command run again exits 0 and leaves A1 (or, when the killed run had already
      committed, the state of the command run twice in a row, AA, computed once per operation):
      the same table hashes, generation numbers, battery outputs and derived file bytes;
  (d) after that run the store holds exactly the files of that reference: no *.tmp,
      *.removed, rollback journal or generation directory that is not current.
Concurrent readers: every answer a reader gave during the write (a loop cycling through the
battery, one query at a time) and the held readers' answers must equal B's or A's; exit 4 with
the documented "locked by its first bulk load" message (a reader waiting more than 10 s behind
the first bulk load) is counted apart; anything else is an inconsistent answer.

Use --writer-threads 1: litgraph-embed builds its HNSW indexes on several threads by default, and
hnswlib's multi-threaded insertion order is not deterministic, so two complete runs write
different graphs and the battery's ANN-dependent answers (tri-search, find-paper --semantic) can
differ without anything being wrong; with one thread the files and answers repeat exactly.

Standard library only. Writes raw JSON (--json) and the matrix in Markdown (--markdown).

  /usr/bin/python3 bench/reliability/kill_matrix.py --bin build --work /tmp/kill-matrix \\
      --writer-threads 1 --json bench/results/DATE-reliability/kill-matrix.json \\
      --markdown bench/results/DATE-reliability/kill-matrix-table.md
"""
import argparse
import hashlib
import json
import os
import platform
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time

TOOLS = ["ingest", "extract-keywords", "embed", "find-paper", "paper", "lineage", "rwr-rank",
         "tri-search", "gen-works"]
BULK_LOCK_MSG = "locked by its first bulk load"
QUERY_TIMEOUT = 180


def log(*a):
    print(time.strftime("%H:%M:%S"), *a, file=sys.stderr, flush=True)


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def copy_store(src, dst):
    if os.path.exists(dst):
        shutil.rmtree(dst)
    sh(["cp", "-a", src, dst])  # keeps the hard links between generations


# ---------------------------------------------------------------------------------------------
# Corpus


def make_corpus(binp, work, works, seed):
    base = os.path.join(work, f"base-{works}.jsonl")
    upsert = os.path.join(work, f"upsert-{works}.jsonl")
    if not os.path.exists(base):
        with open(base + ".part", "w") as f:
            sh([binp("gen-works"), "--works", str(works), "--seed", str(seed)], stdout=f,
               stderr=subprocess.DEVNULL)
        os.rename(base + ".part", base)
    if not os.path.exists(upsert):
        new = subprocess.run([binp("gen-works"), "--works", str(max(1, works // 10)), "--seed",
                              str(seed + 1)], capture_output=True, text=True, check=True).stdout
        with open(upsert + ".part", "w") as out:
            # New works: another seed's works under ids and DOIs of their own; their
            # references stay, so they cite works of the base corpus.
            for line in new.splitlines():
                r = json.loads(line)
                r["id"] = r["id"].replace("/W1", "/W3")
                r["ids"]["openalex"] = r["id"]
                if r.get("doi"):
                    r["doi"] = r["doi"].replace("synth.", "synth2.")
                    r["ids"]["doi"] = r["doi"]
                out.write(json.dumps(r) + "\n")
            # Changed works: every 40th base work, newer.
            with open(base) as f:
                for i, line in enumerate(f):
                    if i % 40 == 7:
                        r = json.loads(line)
                        r["title"] = r["display_name"] = r["title"] + " revisited"
                        r["cited_by_count"] += 7
                        r["updated_date"] = "2025-06-01T00:00:00.000000"
                        out.write(json.dumps(r) + "\n")
        os.rename(upsert + ".part", upsert)
    return base, upsert


def choose_queries(base, upsert):
    """Battery parameters: a changed work cited in the base corpus and by new works (its card,
    citing papers, lineage and walk change with the upsert) and a new work's title."""
    indeg, new_indeg, changed, titles = {}, {}, [], {}
    with open(base) as f:
        for i, line in enumerate(f):
            r = json.loads(line)
            for x in r["referenced_works"]:
                indeg[x] = indeg.get(x, 0) + 1
            if i % 40 == 7:
                changed.append(r["id"])
                titles[r["id"]] = r["title"]
    new_title = None
    with open(upsert) as f:
        for line in f:
            r = json.loads(line)
            if "/W3" in r["id"]:
                new_title = new_title or r["title"]
                for x in r["referenced_works"]:
                    new_indeg[x] = new_indeg.get(x, 0) + 1
    cands = [(new_indeg.get(c, 0), -indeg.get(c, 0), c) for c in changed
             if 5 <= indeg.get(c, 0) <= 80]
    if not cands:
        cands = [(new_indeg.get(c, 0), -indeg.get(c, 0), c) for c in changed]
    seed = max(cands)[2]
    short = seed.rsplit("/", 1)[1]
    title = titles[seed]
    words = [w for w in title.replace(":", " ").split() if len(w) > 4][:3]
    return {"seed": short, "seed_title": title, "bm25": " ".join(words), "new_title": new_title}


def battery(q):
    seed_line = '{"id": "%s"}\n' % q["seed"]
    rels = ["--beta-affil", "1", "--beta-published", "1", "--beta-topic", "1",
            "--beta-hierarchy", "1"]
    return [
        ("find_id", "find-paper", ["--id", q["seed"]], None),
        ("find_bm25", "find-paper", ["-n", "5", q["bm25"]], None),
        ("find_semantic", "find-paper", ["--semantic", "-n", "5", q["seed_title"]], None),
        ("find_semantic_new", "find-paper", ["--semantic", "-n", "3", q["new_title"]], None),
        ("tri_search", "tri-search", ["-n", "5", q["seed_title"]], None),
        ("tri_search_new", "tri-search", ["-n", "3", q["new_title"]], None),
        ("rwr", "rwr-rank", ["--limit", "10"], seed_line),
        ("rwr_any", "rwr-rank", ["--limit", "10", "--target", "any"] + rels, seed_line),
        ("cited_by", "paper", ["--cited-by", q["seed"]], None),
        ("card", "paper", [q["seed"]], None),
        ("lineage", "lineage", ["--descendants", q["seed"]], None),
    ]


# ---------------------------------------------------------------------------------------------
# Store state


class Ctx:
    pass


def run_query(ctx, db, item):
    name, tool, args, stdin = item
    t = time.monotonic()
    try:
        p = subprocess.run([ctx.binp(tool), "--db", db, "--format", "jsonl", "-q"] + args,
                           input=(stdin or "").encode(), capture_output=True,
                           timeout=QUERY_TIMEOUT)
        code, out, err = p.returncode, p.stdout, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        code, out, err = "timeout", b"", "timed out"
    return {"q": name, "exit": code, "sha": hashlib.sha256(out).hexdigest()[:16],
            "lines": out.count(b"\n"), "ms": round((time.monotonic() - t) * 1000, 1),
            "err": err.strip()[:300], "out": out}


def run_battery(ctx, db):
    res = {}
    for item in ctx.battery:
        r = run_query(ctx, db, item)
        res[r["q"]] = r
    return res


def answer(r):
    return (r["exit"], r["sha"])


def strip_out(bat):
    return {k: {x: v[x] for x in v if x != "out"} for k, v in bat.items()}


def table_hashes(db):
    """Content hash of every table (virtual tables excluded: their shadow tables are in);
    meta with generation numbers and timings (*_info keys ending in "seconds") masked; the
    generation numbers; integrity_check. Opened as
    litgraph's readers open it (read-write connection, query_only): closing it checkpoints and
    removes the WAL as theirs does, where a read-only connection would leave -wal and -shm."""
    con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=rw", uri=True, timeout=30)
    try:
        con.execute("PRAGMA query_only=1")
        integrity = con.execute("PRAGMA integrity_check").fetchall()
        tabs = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' "
                           "AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name").fetchall()
        out = {}
        gens = {}
        for name, sql in tabs:
            h = hashlib.sha256()
            if "WITHOUT ROWID" in sql.upper():
                pk = sorted((r[5], r[1]) for r in con.execute(f'PRAGMA table_info("{name}")')
                            if r[5])
                order = ", ".join(f'"{c}"' for _, c in pk)
            else:
                order = "rowid"
            n = 0
            for row in con.execute(f'SELECT * FROM "{name}" ORDER BY {order}'):
                if name == "meta":
                    key, value = row[0], row[1]
                    if key.endswith("_generation"):
                        gens[key[: -len("_generation")]] = int(value)
                        value = "<generation>"
                    elif key.endswith("_info"):
                        try:
                            j = json.loads(value)
                            if isinstance(j, dict):  # generation and timings vary by run
                                j.pop("generation", None)
                                for k in [k for k in j if k.endswith("seconds")]:
                                    j.pop(k)
                            value = json.dumps(j, sort_keys=True)
                        except ValueError:
                            pass
                    row = (key, value)
                h.update(repr(row).encode())
                h.update(b"\n")
                n += 1
            out[name] = [n, h.hexdigest()[:16]]
        papers = con.execute("SELECT count(*) FROM paper").fetchone()[0]
    finally:
        con.close()
    return {"integrity": [r[0] for r in integrity], "tables": out, "generations": gens,
            "papers": papers}


def listing(db):
    """Every entry of the store directory (generation directories with their files)."""
    out = {}
    for d in sorted(os.listdir(db)):
        p = os.path.join(db, d)
        if os.path.isdir(p):
            out[d] = sorted(os.listdir(p))
        else:
            out[d] = None
    return out


def file_hashes(db):
    out, manifests = {}, {}
    for d, files in listing(db).items():
        for f in files or []:
            if os.path.isdir(os.path.join(db, d, f)):  # a build's scratch (lexical.tmp)
                out[f"{d}/{f}"] = "<directory>"
                continue
            with open(os.path.join(db, d, f), "rb") as fh:
                data = fh.read()
            out[f"{d}/{f}"] = hashlib.sha256(data).hexdigest()[:16]
            if f == "MANIFEST":
                manifests[d] = manifest_payload(data)
    return out, manifests


def manifest_payload(data):
    """A MANIFEST's JSON (checked_file.h: the payload, page hashes, a 64-byte footer whose
    u64 at offset 40 is the payload's length); None when it cannot be read."""
    try:
        n = int.from_bytes(data[-64 + 40:-64 + 48], "little")
        return json.loads(data[:n])
    except (ValueError, IndexError):
        return None


def masked_manifest(m, nondet_names):
    """A manifest with the sizes of the files two complete runs write differently and its
    timings masked."""
    if not isinstance(m, dict):
        return m
    m = json.loads(json.dumps(m))
    for info in [v for v in m.values() if isinstance(v, dict)]:  # timings vary by run
        for k in [k for k in info if k.endswith("seconds")]:
            info.pop(k)
    for name, entry in m.get("files", {}).items():
        if name in nondet_names and isinstance(entry, list) and len(entry) == 2:
            entry[1] = "<size>"
    return m


def state(ctx, db, bat=None):
    s = {"battery": bat if bat is not None else run_battery(ctx, db)}
    try:
        s.update(table_hashes(db))
    except sqlite3.Error as e:
        s["sqlite_error"] = str(e)
    s["listing"] = listing(db)
    s["files"], s["manifests"] = file_hashes(db)
    return s


def same_state(s, ref, nondet_files=(), alt=None):
    """Differences between state s and the reference (empty: the same). alt: a second
    reference run of the same state whose battery answers are also accepted."""
    diffs = []
    if s.get("sqlite_error"):
        return ["sqlite: " + s["sqlite_error"]]
    if s["integrity"] != ["ok"]:
        diffs.append(f"integrity_check: {s['integrity'][:3]}")
    if s["papers"] != ref["papers"]:
        diffs.append(f"papers {s['papers']} != {ref['papers']}")
    for t in sorted(set(s["tables"]) | set(ref["tables"])):
        if s["tables"].get(t) != ref["tables"].get(t):
            diffs.append(f"table {t}: {s['tables'].get(t)} != {ref['tables'].get(t)}")
    if s["generations"] != ref["generations"]:
        diffs.append(f"generations {s['generations']} != {ref['generations']}")
    for q, r in s["battery"].items():
        ok = {answer(ref["battery"][q])}
        if alt:
            ok.add(answer(alt["battery"][q]))
        if answer(r) not in ok:
            diffs.append(f"query {q}: exit {r['exit']} {r['lines']} lines {r['sha']} "
                         f"!= exit {ref['battery'][q]['exit']} {ref['battery'][q]['lines']} "
                         f"lines {ref['battery'][q]['sha']}")
    return diffs


def same_files(s, ref, nondet_files):
    """Derived files: the same names in the same generation directories, the same bytes
    (names only for the files two complete runs write differently)."""
    diffs = []
    current = {f"{a}.{n}" for a, n in ref["generations"].items()}
    for d in sorted(set(s["listing"]) | set(ref["listing"])):
        if s["listing"].get(d, "absent") != ref["listing"].get(d, "absent"):
            diffs.append(f"entry {d}: {s['listing'].get(d, 'absent')} != "
                         f"{ref['listing'].get(d, 'absent')}")
    nondet_names = {f.split("/", 1)[1] for f in nondet_files} - {"MANIFEST"}
    for f, h in s["files"].items():
        d, name = f.split("/", 1)
        if f not in ref["files"] or d not in current or name in nondet_names \
                or h == ref["files"][f]:
            continue
        # A manifest names its files' sizes: compared with those of the files two complete
        # runs write differently masked (their bytes are not compared either).
        if name == "MANIFEST" and masked_manifest(s["manifests"].get(d), nondet_names) == \
                masked_manifest(ref["manifests"].get(d), nondet_names) is not None:
            continue
        diffs.append(f"bytes {f}")
    return diffs


def leftovers(s):
    """Entries no store at rest has: temporary files, removed or uncommitted generations,
    a rollback journal."""
    current = {f"{a}.{n}" for a, n in s.get("generations", {}).items()}
    bad = []
    for d, files in s["listing"].items():
        if files is None:
            if d not in ("litgraph.sqlite", "LOCK"):
                bad.append(d)
            continue
        if d not in current:
            bad.append(d + "/")
        for f in files:
            if f.endswith(".tmp") or "removed" in f:
                bad.append(f"{d}/{f}")
    return bad


# ---------------------------------------------------------------------------------------------
# Operations


def operations(ctx):
    return {
        "ingest-bulk": ["ingest", ctx.base],
        "keywords-full": ["extract-keywords"],
        "embed-train": ["embed", "--train"],
        "ingest-upsert": ["ingest", ctx.upsert],
        "keywords-missing": ["extract-keywords", "--missing"],
        "embed-missing": ["embed", "--missing"],
        "keywords-full-again": ["extract-keywords"],
        "embed-train-again": ["embed", "--train"],
    }


CHAIN = ["ingest-bulk", "keywords-full", "embed-train", "ingest-upsert", "keywords-missing",
         "embed-missing"]


def writer_cmd(ctx, op, db):
    tool, *args = ctx.ops[op]
    cmd = [ctx.binp(tool), "--db", db] + args
    if ctx.writer_threads:
        cmd += ["--threads", str(ctx.writer_threads)]
    return cmd


class Readers:
    """A loop of battery queries against db while a writer runs, plus held readers (open now,
    asked later). Classifies every answer against the before / after references."""

    def __init__(self, ctx, db, refs, n_threads, held=True):
        self.ctx, self.db, self.refs, self.with_held = ctx, db, refs, held
        self.stop = threading.Event()
        self.counts = {"queries": 0, "before": 0, "after": 0, "bulk_lock_refused": 0,
                       "inconsistent": 0}
        self.bad = []
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.loop, args=(i,), daemon=True)
                        for i in range(n_threads)]
        self.held = []
        self.started = False

    def classify(self, r):
        b = answer(self.refs["before"]["battery"][r["q"]])
        a = {answer(x["battery"][r["q"]]) for x in self.refs["after"]}
        with self.lock:
            self.counts["queries"] += 1
            if answer(r) == b:
                self.counts["before"] += 1
            elif answer(r) in a:
                self.counts["after"] += 1
            elif r["exit"] == 4 and BULK_LOCK_MSG in r["err"]:
                self.counts["bulk_lock_refused"] += 1
            else:
                self.counts["inconsistent"] += 1
                self.bad.append({x: r[x] for x in r if x != "out"})
                path = os.path.join(self.ctx.work, "inconsistent",
                                    f"{int(time.time() * 1000)}-{r['q']}.out")
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as f:
                    f.write(r["out"])

    def loop(self, k):
        i = k
        while not self.stop.is_set():
            self.classify(run_query(self.ctx, self.db, self.ctx.battery[i % len(self.ctx.battery)]))
            i += 1

    def start(self):
        self.started = True
        for t in self.threads:
            t.start()
        # Held readers: open the store now (pin its generations), get their input later.
        for name in ("cited_by", "rwr") if self.with_held else ():
            item = next(b for b in self.ctx.battery if b[0] == name)
            _, tool, args, _ = item
            args = [a for a in args if a != self.ctx.q["seed"]]  # the seed comes on stdin
            p = subprocess.Popen([self.ctx.binp(tool), "--db", self.db, "--format", "jsonl",
                                  "-q"] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
            self.held.append((name, p, time.monotonic()))

    def finish(self):
        self.stop.set()
        if not self.started:
            return dict(self.counts, bad=self.bad)
        for t in self.threads:
            t.join()
        for name, p, t0 in self.held:
            try:
                out, err = p.communicate(('{"id": "%s"}\n' % self.ctx.q["seed"]).encode(),
                                         timeout=QUERY_TIMEOUT)
                code = p.returncode
            except subprocess.TimeoutExpired:
                p.kill()
                out, err = p.communicate()
                code = "timeout"
            r = {"q": name, "exit": code, "sha": hashlib.sha256(out).hexdigest()[:16],
                 "lines": out.count(b"\n"), "ms": round((time.monotonic() - t0) * 1000, 1),
                 "err": err.decode(errors="replace").strip()[:300], "out": out}
            self.classify(r)
            with self.lock:
                self.counts.setdefault("held", []).append(
                    {"q": name, "exit": code, "lines": r["lines"], "sha": r["sha"]})
        return dict(self.counts, bad=self.bad)


def run_writer(ctx, op, db, tag, readers=None, kill=None):
    """Runs the operation on db; kill: None, ("time", seconds), ("commit", [paths that must
    all exist]) or ("cleanup", [paths one of which must disappear]). Returns a record."""
    err_path = os.path.join(ctx.work, "logs", f"{op}-{tag}.stderr")
    os.makedirs(os.path.dirname(err_path), exist_ok=True)
    rec = {"cmd": " ".join(writer_cmd(ctx, op, db))}
    with open(err_path, "wb") as err:
        t0 = time.monotonic()
        p = subprocess.Popen(writer_cmd(ctx, op, db), stdout=subprocess.DEVNULL, stderr=err)
        started = False

        def start_readers():
            nonlocal started
            if readers and not started:
                readers.start()
                started = True

        # Readers start once the writer holds the store; into an empty store, once the bulk
        # load has its rollback journal (a reader open before would keep it in the WAL).
        journal = os.path.join(db, "litgraph.sqlite-journal")
        bulk = op == "ingest-bulk"
        killed_at = None
        while p.poll() is None:
            now = time.monotonic() - t0
            if readers and not started and (
                    (bulk and (os.path.exists(journal) or now > 2.0)) or
                    (not bulk and now > 0.2)):
                start_readers()
            if kill:
                how, arg = kill
                fire = ((how == "time" and now >= arg) or
                        (how == "commit" and all(os.path.exists(x) for x in arg)) or
                        (how == "cleanup" and any(not os.path.exists(x) for x in arg)))
                if fire:
                    try:
                        os.kill(p.pid, signal.SIGKILL)
                        killed_at = now
                    except ProcessLookupError:
                        pass
                    break
            time.sleep(0.0005 if kill and kill[0] != "time" else 0.002)
        rc = p.wait()
        rec["seconds"] = round(time.monotonic() - t0, 3)
    rec["rc"] = rc
    rec["killed"] = rc == -signal.SIGKILL
    rec["killed_at"] = round(killed_at, 3) if killed_at is not None and rec["killed"] else None
    with open(err_path, "rb") as f:
        text = f.read().decode(errors="replace")
    rec["stderr_tail"] = text[-400:]
    rec["bulk_path_left"] = "readers have the store open" in text
    rec["readers_started"] = started
    return rec


def reference(ctx, op, before_dir):
    """A1 (no readers, timed), A2 (with readers, timed) and their comparison."""
    refs = ctx.refs
    a1 = os.path.join(ctx.work, "ref", f"{op}.A1")
    copy_store(before_dir, a1)
    w1 = run_writer(ctx, op, a1, "A1")
    if w1["rc"] != 0:
        raise SystemExit(f"{op}: reference run failed: {w1}")
    s1 = state(ctx, a1)
    refs[op] = {"before_dir": before_dir, "A1_dir": a1, "A1": s1, "A1_run": w1}
    log(f"{op}: A1 {w1['seconds']} s, papers {s1['papers']}, generations {s1['generations']}")
    return a1


def reference_a2(ctx, op):
    r = ctx.refs[op]
    a2 = os.path.join(ctx.work, "ref", f"{op}.A2")
    copy_store(r["before_dir"], a2)
    rd = Readers(ctx, a2, {"before": r["B"], "after": [r["A1"]]}, ctx.readers,
                 held=held_readers(op, "A2"))
    w2 = run_writer(ctx, op, a2, "A2", readers=rd)
    rstats = rd.finish()
    if w2["rc"] != 0:
        raise SystemExit(f"{op}: reference run with readers failed: {w2} {rstats}")
    s2 = state(ctx, a2)
    nondet = sorted(f for f in s2["files"] if f in r["A1"]["files"]
                    and s2["files"][f] != r["A1"]["files"][f])
    diffs = same_state(s2, r["A1"])
    r.update({"A2": s2, "A2_run": w2, "A2_readers": rstats, "nondeterministic_files": nondet,
              "A1_vs_A2": diffs, "duration": w2["seconds"]})
    log(f"{op}: A2 {w2['seconds']} s with readers ({rstats['queries']} queries, "
        f"{rstats['inconsistent']} inconsistent); A1 vs A2: {diffs or 'same'}; "
        f"files written differently: {nondet}")
    shutil.rmtree(a2)


def reference_aa(ctx, op):
    """The operation run twice in a row (what a rerun after a committed kill must give)."""
    r = ctx.refs[op]
    if "AA" not in r:
        aa = os.path.join(ctx.work, "ref", f"{op}.AA")
        copy_store(r["A1_dir"], aa)
        w = run_writer(ctx, op, aa, "AA")
        r["AA"] = state(ctx, aa)
        r["AA_run"] = w
        log(f"{op}: AA reference {w['seconds']} s rc {w['rc']}")
        shutil.rmtree(aa)
    return r["AA"]


def kill_points(ctx, op):
    r = ctx.refs[op]
    d = r["duration"]
    n = ctx.points
    fracs = ctx.fractions or [0.05 + 0.9 * i / (n - 1) if n > 1 else 0.5 for i in range(n)]
    pts = []
    for f in fracs:
        pts.append((f"p{round(f * 100):02d}", ("time", f * d)))
    if ctx.only_timed:
        return pts
    b, a = r["B"]["generations"], r["A1"]["generations"]
    changed = [k for k in a if a[k] != b.get(k)]
    pts.append(("commit", ("commit", [None] + [f"{k}.{a[k]}/MANIFEST" for k in changed])))
    old = [f"{k}.{b[k]}" for k in changed if b.get(k)]
    if old:
        pts.append(("cleanup", ("cleanup", [None] + old)))
    return pts


def held_readers(op, point):
    """Held readers join the reader loop except during the first bulk load (a reader open
    across its commit fails the load: see bulk_load_with_held_reader) and at the cleanup
    point (they pin the previous generation, so the writer never removes it)."""
    return op != "ingest-bulk" and point != "cleanup"


def bulk_load_with_held_reader(ctx, hold_s):
    """The first bulk load while a reader that opened during the load stays open for hold_s
    seconds (a pipeline waiting on its input): the writer must wait for it or succeed, the
    reader must answer from B or A."""
    r = ctx.refs["ingest-bulk"]
    db = os.path.join(ctx.work, "held.db")
    copy_store(r["before_dir"], db)
    cmd = writer_cmd(ctx, "ingest-bulk", db)
    t0 = time.monotonic()
    w = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    journal = os.path.join(db, "litgraph.sqlite-journal")
    while not os.path.exists(journal) and w.poll() is None:
        time.sleep(0.001)
    opened = time.monotonic() - t0
    rd = subprocess.Popen([ctx.binp("paper"), "--db", db, "--cited-by", "--format", "jsonl", "-q"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        w_err = w.communicate(timeout=hold_s)[1]
    except subprocess.TimeoutExpired:
        w_err = None
    out, err = rd.communicate(('{"id": "%s"}\n' % ctx.q["seed"]).encode(), timeout=QUERY_TIMEOUT)
    if w_err is None:
        w_err = w.communicate()[1]
    res = {"hold_s": hold_s, "reader_opened_s": round(opened, 3),
           "writer_cmd": " ".join(cmd).replace(db, "DB"), "writer_rc": w.returncode,
           "writer_seconds": round(time.monotonic() - t0, 2),
           "writer_stderr": w_err.decode(errors="replace").strip()[-300:],
           "reader_exit": rd.returncode, "reader_lines": out.count(b"\n"),
           "reader_stderr": err.decode(errors="replace").strip()[:300]}
    ans = (rd.returncode, hashlib.sha256(out).hexdigest()[:16])
    res["reader_answer"] = ("B" if ans == answer(r["B"]["battery"]["cited_by"]) else
                            "A" if ans == answer(r["A1"]["battery"]["cited_by"]) else
                            "inconsistent")
    s = state(ctx, db)
    res["store"] = ("B" if not same_state(s, r["B"]) else
                    "A" if not same_state(s, r["A1"], alt=r.get("A2")) else "neither")
    w2 = run_writer(ctx, "ingest-bulk", db, f"held{hold_s}-next")
    s2 = state(ctx, db)
    res["next_writer_rc"] = w2["rc"]
    if res["store"] == "A":
        res["next_diff"] = same_state(s2, reference_aa(ctx, "ingest-bulk"))
    else:
        res["next_diff"] = same_state(s2, r["A1"], alt=r.get("A2"))
    res["leftovers_after_next"] = leftovers(s2)
    res["ok"] = (w.returncode == 0 and res["reader_answer"] != "inconsistent"
                 and res["store"] == "A")
    shutil.rmtree(db)
    log(f"bulk load with a reader held {hold_s} s: {res}")
    return res


def run_case(ctx, op, point, kill):
    r = ctx.refs[op]
    db = os.path.join(ctx.work, "case.db")
    copy_store(r["before_dir"], db)
    if kill[0] != "time":
        kill = (kill[0], [os.path.join(db, x) for x in kill[1] if x])
    rd = Readers(ctx, db, {"before": r["B"], "after": [r["A1"], r["A2"]]}, ctx.readers,
                 held=held_readers(op, point))
    load0 = os.getloadavg()[0]
    w = run_writer(ctx, op, db, f"{point}", readers=rd, kill=kill)
    rstats = rd.finish()
    case = {"op": op, "point": point, "kill": kill[0],
            "kill_target_s": round(kill[1], 3) if kill[0] == "time" else None,
            "writer": w, "readers": rstats, "load1": load0}
    case["listing_after_kill"] = listing(db)
    # (a) + (b)
    s = state(ctx, db)
    case["battery_after_kill"] = strip_out(s["battery"])
    case["exit_4_5"] = [q for q, x in s["battery"].items() if x["exit"] in (4, 5, "timeout")
                        or (isinstance(x["exit"], int) and x["exit"] < 0)]
    d_before = same_state(s, r["B"])
    d_after = same_state(s, r["A1"], alt=r["A2"])
    case["state"] = "B" if not d_before else "A" if not d_after else "neither"
    if case["state"] == "neither":
        case["diff_before"], case["diff_after"] = d_before, d_after
    case["leftovers_after_kill"] = leftovers(s)
    # (c) + (d)
    expect = r["A1"] if case["state"] != "A" else reference_aa(ctx, op)
    w2 = run_writer(ctx, op, db, f"{point}-next")
    case["next_writer"] = w2
    s2 = state(ctx, db)
    case["next_diff"] = same_state(s2, expect, alt=r["A2"] if expect is r["A1"] else None)
    case["next_files_diff"] = same_files(s2, expect, r["nondeterministic_files"])
    case["next_exit_4_5"] = [q for q, x in s2["battery"].items() if x["exit"] in (4, 5)]
    case["leftovers_after_next"] = leftovers(s2)
    case["recovered"] = (case["state"] in ("B", "A") and not case["exit_4_5"]
                         and w2["rc"] == 0 and not case["next_diff"]
                         and not case["next_files_diff"] and not case["leftovers_after_next"])
    case["reader_inconsistent"] = rstats["inconsistent"]
    if not case["recovered"] or rstats["inconsistent"]:
        keep = os.path.join(ctx.work, "failed", f"{op}-{point}")
        os.makedirs(os.path.dirname(keep), exist_ok=True)
        copy_store(db, keep)
        case["kept"] = keep
    shutil.rmtree(db)
    return case


# ---------------------------------------------------------------------------------------------
# Report


def cell(c):
    if not c["recovered"] or c["reader_inconsistent"]:
        return "**FAIL**"
    if not c["writer"]["killed"]:
        return "A (done)"  # the process exited before the kill point
    return c["state"]


def markdown(res):
    pts = []
    for c in res["cases"]:
        if c["point"] not in pts:
            pts.append(c["point"])
    out = ["| operation | A1 s | A2 s | " + " | ".join(pts) + " | recovered |",
           "|---|---:|---:|" + "---|" * len(pts) + "---:|"]
    for op in res["ops"]:
        cs = {c["point"]: c for c in res["cases"] if c["op"] == op}
        if not cs:
            continue
        ref = res["references"][op]
        row = [op, f"{ref['A1_seconds']:.1f}", f"{ref['A2_seconds']:.1f}"]
        row += [cell(cs[p]) if p in cs else "n/a" for p in pts]
        ok = sum(1 for c in cs.values() if c["recovered"] and not c["reader_inconsistent"])
        row.append(f"{ok}/{len(cs)}")
        out.append("| " + " | ".join(row) + " |")
    t = res["totals"]
    out.append("")
    out.append(f"Runs {t['runs']} (killed while running {t['killed']}, process already done "
               f"{t['done_before_kill']}); recovered {t['recovered']}, failures "
               f"{t['failures']}. State right after the kill: B {t['state_B']}, A "
               f"{t['state_A']}, neither {t['state_neither']}.")
    out.append(f"Concurrent reader queries {t['reader_queries']} (answered from B "
               f"{t['reader_before']}, from A {t['reader_after']}, refused behind the first "
               f"bulk load {t['reader_bulk_lock_refused']}), inconsistent answers "
               f"{t['reader_inconsistent']}; battery queries after kills and next writers "
               f"{t['battery_queries']}, exit 4/5 {t['battery_exit_4_5']}.")
    return "\n".join(out) + "\n"


def totals(cases):
    t = {"runs": len(cases), "killed": sum(c["writer"]["killed"] for c in cases)}
    t["done_before_kill"] = t["runs"] - t["killed"]
    t["recovered"] = sum(1 for c in cases if c["recovered"] and not c["reader_inconsistent"])
    t["failures"] = t["runs"] - t["recovered"]
    for s in ("B", "A", "neither"):
        t[f"state_{s}"] = sum(c["state"] == s for c in cases)
    for k in ("queries", "before", "after", "bulk_lock_refused", "inconsistent"):
        t[f"reader_{k}"] = sum(c["readers"][k] for c in cases)
    t["held_reader_answers"] = sum(len(c["readers"].get("held", [])) for c in cases)
    t["battery_queries"] = sum(2 * len(c["battery_after_kill"]) for c in cases)
    t["battery_exit_4_5"] = sum(len(c["exit_4_5"]) + len(c["next_exit_4_5"]) for c in cases)
    t["bulk_path_left"] = sum(c["writer"]["bulk_path_left"] for c in cases
                              if c["op"] == "ingest-bulk")
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "..", "..", "build"))
    ap.add_argument("--work", default="/tmp/litgraph-kill-matrix")
    ap.add_argument("--works", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--points", type=int, default=10, help="timed kill points, 5%%..95%%")
    ap.add_argument("--fractions", default="",
                    help="timed kill points as fractions of the run (comma list), instead of "
                         "--points")
    ap.add_argument("--only-timed", action="store_true", help="no commit / cleanup points")
    ap.add_argument("--ops", default=",".join(CHAIN + ["keywords-full-again",
                                                       "embed-train-again"]))
    ap.add_argument("--readers", type=int, default=1, help="concurrent reader loops")
    ap.add_argument("--writer-threads", type=int, default=0)
    ap.add_argument("--held-reader-seconds", default="5,30",
                    help="bulk load with a reader held open this long (comma list; empty: skip)")
    ap.add_argument("--json", required=True)
    ap.add_argument("--markdown")
    a = ap.parse_args()

    ctx = Ctx()
    ctx.work = os.path.abspath(a.work)
    ctx.points, ctx.readers, ctx.writer_threads = a.points, a.readers, a.writer_threads
    ctx.fractions = [float(x) for x in a.fractions.split(",") if x]
    ctx.only_timed = a.only_timed
    os.makedirs(ctx.work, exist_ok=True)
    # The binaries are copied first: a rebuild meanwhile does not change what is measured.
    bindir = os.path.join(ctx.work, "bin")
    os.makedirs(bindir, exist_ok=True)
    binaries = {}
    for t in TOOLS:
        src = os.path.join(a.bin, f"litgraph-{t}")
        shutil.copy2(src, bindir)
        with open(src, "rb") as f:
            binaries[t] = {"sha256": hashlib.sha256(f.read()).hexdigest(),
                           "mtime": time.strftime("%Y-%m-%dT%H:%M:%S",
                                                  time.gmtime(os.path.getmtime(src)))}
    ctx.binp = lambda t: os.path.join(bindir, f"litgraph-{t}")
    started = time.time()
    log(f"corpus: {a.works} works, seed {a.seed}")
    ctx.base, ctx.upsert = make_corpus(ctx.binp, ctx.work, a.works, a.seed)
    ctx.q = choose_queries(ctx.base, ctx.upsert)
    ctx.battery = battery(ctx.q)
    ctx.ops = operations(ctx)
    ops = [o for o in a.ops.split(",") if o]
    for o in ops:
        if o not in ctx.ops:
            raise SystemExit(f"unknown operation {o}")

    # References: the chain of stores, each operation's B, A1, A2.
    ctx.refs = {}
    os.makedirs(os.path.join(ctx.work, "ref"), exist_ok=True)
    empty = os.path.join(ctx.work, "ref", "empty")
    if os.path.exists(empty):
        shutil.rmtree(empty)
    sh([ctx.binp("ingest"), "--db", empty, "-q"], stdin=subprocess.DEVNULL)
    prev = empty
    last_needed = max([CHAIN.index(o) for o in ops if o in CHAIN] +
                      [len(CHAIN) - 1 if any(o not in CHAIN for o in ops) else -1])
    for o in CHAIN[: last_needed + 1]:
        prev = reference(ctx, o, prev)
    for o in ops:
        if o not in CHAIN:
            reference(ctx, o, ctx.refs[CHAIN[-1]]["A1_dir"])
    for o in ops:
        r = ctx.refs[o]
        r["B"] = state(ctx, r["before_dir"])
        reference_a2(ctx, o)
        same = [q for q in r["B"]["battery"]
                if answer(r["B"]["battery"][q]) == answer(r["A1"]["battery"][q])]
        r["queries_unchanged"] = same
        log(f"{o}: queries that B and A answer alike: {same}")

    scenarios = []
    if "ingest-bulk" in ops and a.held_reader_seconds:
        for hold in [float(x) for x in a.held_reader_seconds.split(",")]:
            scenarios.append(bulk_load_with_held_reader(ctx, hold))
    ctx.scenarios = scenarios
    cases = []
    for o in ops:
        for point, kill in kill_points(ctx, o):
            c = run_case(ctx, o, point, kill)
            cases.append(c)
            log(f"{o} {point}: killed={c['writer']['killed']} at {c['writer']['killed_at']} "
                f"state={c['state']} next_rc={c['next_writer']['rc']} "
                f"recovered={c['recovered']} readers={c['readers']['queries']}"
                f"/{c['readers']['inconsistent']} bad; {c.get('diff_before', '')} "
                f"{c['next_diff'][:3]} {c['next_files_diff'][:3]} "
                f"{c['leftovers_after_next']}")
            res = assemble(a, ctx, ops, cases, binaries, started)
            with open(a.json, "w") as f:
                json.dump(res, f, indent=1)
    res = assemble(a, ctx, ops, cases, binaries, started)
    with open(a.json, "w") as f:
        json.dump(res, f, indent=1)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(markdown(res))
    log(json.dumps(res["totals"]))


def assemble(a, ctx, ops, cases, binaries, started):
    refs = {}
    for o in ops:
        r = ctx.refs[o]
        refs[o] = {
            "command": r["A1_run"]["cmd"].replace(r["A1_dir"], "DB"),
            "A1_seconds": r["A1_run"]["seconds"], "A2_seconds": r["A2_run"]["seconds"],
            "A2_readers": r["A2_readers"], "A1_vs_A2": r["A1_vs_A2"],
            "nondeterministic_files": r["nondeterministic_files"],
            "B": {k: r["B"][k] for k in ("papers", "generations", "tables", "listing")},
            "A1": {k: r["A1"][k] for k in ("papers", "generations", "tables", "listing")},
            "B_battery": strip_out(r["B"]["battery"]),
            "A1_battery": strip_out(r["A1"]["battery"]),
            "queries_unchanged": r["queries_unchanged"],
            "AA_run": r.get("AA_run"),
        }
    return {
        "command": " ".join([os.path.basename(sys.executable)] + sys.argv),
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "elapsed_s": round(time.time() - started, 1),
        "machine": {"cpus": os.cpu_count(), "loadavg_end": os.getloadavg(),
                    "platform": platform.platform()},
        "binaries": binaries, "works": a.works, "seed": a.seed, "queries": ctx.q,
        "battery": [[n, t, args] for n, t, args, _ in ctx.battery],
        "ops": ops, "references": refs, "totals": totals(cases),
        "bulk_load_with_held_reader": ctx.scenarios, "cases": cases,
    }


if __name__ == "__main__":
    main()
