"""End-to-end reliability cases (issue 20): readers keep their snapshot across
commits, a first bulk load next to an open reader, read-only stores, and
damaged, missing or foreign derived files (an error naming the file, never
a silently different answer). Imported by run.py, which runs every case_*.
"""
import os
import shutil
import sqlite3
import subprocess
import time

from run import lines, native, write


# One query per way into the store; together they open every kind of derived
# file (lexical and vector indexes, the LSA model, phrase statistics, every
# relation the walks use, the paper attribute arrays).
SEED = "W2741809807"
SEED_LINE = '{"id": "%s"}\n' % SEED
ALL_RELATIONS = ["--beta-affil", "1", "--beta-published", "1", "--beta-topic", "1",
                 "--beta-hierarchy", "1"]
BATTERY = [
    ("find-paper", ["open access citation", "-n", "5"], None),
    ("find-paper", ["--semantic", "open access citation advantage", "-n", "5"], None),
    ("find-paper", ["--author", "Piwowar"], None),
    ("tri-search", ["open access impact of articles", "-n", "5"], None),
    ("rwr-rank", ["--limit", "8"], SEED_LINE),
    ("rwr-rank", ["--limit", "8", "--target", "any"] + ALL_RELATIONS, SEED_LINE),
    ("paper", ["--cited-by", SEED], None),
    ("paper", ["--co-cited", SEED], None),
    ("lineage", ["--descendants", SEED], None),
    ("lineage", ["--ancestors", "W3046863325"], None),
]


def run_battery(c, db, prefix=()):
    """(exit code, stdout, stderr) of every query of the battery."""
    results = []
    for tool, args, stdin in BATTERY:
        p = subprocess.run(list(prefix) + [c.tool(tool), "--db", db, "--format", "jsonl", "-q"]
                           + args, capture_output=True, timeout=120,
                           input=(stdin or "").encode())
        results.append((p.returncode, p.stdout.decode(), p.stderr.decode()))
    return results


def semantic_copy(c, name):
    base = getattr(c, "_reliability_base", None)
    if base is None:
        base = c.path("reliability-base.db")
        c.run("ingest", "--db", base, "-q", *c.fixtures())
        c.run("extract-keywords", "--db", base, "-q")
        c.run("embed", "--db", base, "-q")
        c._reliability_base = base
    db = c.path(name)
    shutil.rmtree(db, ignore_errors=True)
    shutil.copytree(base, db)
    return db


def derived_files(db):
    """Every derived file of the current generations (relative paths)."""
    out = []
    for d in sorted(os.listdir(db)):
        full = os.path.join(db, d)
        if os.path.isdir(full):
            for f in sorted(os.listdir(full)):
                if f != "PIN":
                    out.append(os.path.join(d, f))
    return out


def judge(baseline, results, damaged):
    """Each query: the same answer, or exit 4 naming the damaged file."""
    detected = 0
    for (tool, args, _), want, got in zip(BATTERY, baseline, results):
        code, out, err = got
        if code == want[0] and out == want[1]:
            continue
        assert code == 4, (f"{damaged}: {tool} {' '.join(args)} answered differently "
                           f"(exit {code}):\n{out[:600]}\n{err[:600]}")
        assert os.path.basename(damaged) in err, f"{damaged}: {tool} error does not name it: {err}"
        detected += 1
    return detected


def case_damaged_derived_files_fail_naming_the_file(c):
    """Deleted, truncated, flipped, swapped and foreign files: same answer or exit 4 naming it."""
    db = semantic_copy(c, "damage.db")
    baseline = run_battery(c, db)
    for query, b in zip(BATTERY, baseline):
        assert b[0] == 0 and b[1], f"baseline {query[:2]}: exit {b[0]}\n{b[2]}"
    other = c.path("other.db")  # another store: same records, its own identity
    shutil.rmtree(other, ignore_errors=True)
    c.run("ingest", "--db", other, "-q", *c.fixtures())
    files = derived_files(db)
    assert len(files) > 40, files
    stats = {"cases": 0, "detected": 0, "silent": 0}
    for rel in files:
        path = os.path.join(db, rel)
        original = open(path, "rb").read()
        damages = [("deleted", None), ("truncated", original[: len(original) // 2]),
                   ("flipped", bytes(b ^ (0x20 if i == len(original) // 3 else 0)
                                     for i, b in enumerate(original)))]
        if rel.endswith(".adj") and not rel.endswith("cites.out.adj"):
            damages.append(("swapped", open(os.path.join(os.path.dirname(path),
                                                         "cites.out.adj"), "rb").read()))
        foreign = os.path.join(other, os.path.dirname(rel).split(".")[0] + ".1",
                               os.path.basename(rel))
        if os.path.exists(foreign):
            damages.append(("foreign", open(foreign, "rb").read()))
        for how, content in damages:
            os.remove(path)
            if content is not None:
                with open(path, "wb") as f:
                    f.write(content)
            results = run_battery(c, db)
            stats["cases"] += 1
            n = judge(baseline, results, rel)
            stats["detected"] += n > 0
            # A flip in bytes no query reads changes nothing; a foreign file of
            # the same size no query opens neither.
            if how in ("deleted", "truncated"):
                assert n > 0, f"{rel} {how}: no query noticed"
            with open(path, "wb") as f:
                f.write(original)
    assert run_battery(c, db) == baseline
    print(f"     corruption cases {stats['cases']}, detected {stats['detected']}, "
          f"silent wrong answers 0")


def case_reader_keeps_its_generation_across_commits(c):
    """A reader open across three commits answers from its snapshot, in full."""
    db = semantic_copy(c, "pinned.db")
    want, _, _ = c.run("rwr-rank", "--db", db, "--limit", "3", stdin=SEED_LINE)
    assert len(lines(want)) == 3
    rwr = subprocess.Popen([c.tool("rwr-rank"), "--db", db, "--limit", "3", "-q"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    cited = subprocess.Popen([c.tool("paper"), "--db", db, "--cited-by", "-q", "--format",
                              "jsonl"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    want_cited, _, _ = c.run("paper", "--db", db, "--cited-by", SEED, "--format", "jsonl")
    time.sleep(0.5)  # both have opened the store
    gens = sorted(d for d in os.listdir(db) if d.startswith("graph."))
    for i in range(3):
        c.run("ingest", "--db", db, "-q",
              write(c.path(f"commit{i}.jsonl"), native(f"C{i}", f"commit {i}",
                                                       references=[SEED]) + "\n"))
    assert all(os.path.isdir(os.path.join(db, g)) for g in gens), "a pinned generation went"
    out, err = rwr.communicate(f'{{"id":"{SEED}"}}\n'.encode(), timeout=60)
    assert rwr.returncode == 0, err.decode()
    assert out.decode() == want, f"reader mixed generations:\n{out.decode()}\nwant\n{want}"
    out, err = cited.communicate(f'{{"id":"{SEED}"}}\n'.encode(), timeout=60)
    assert cited.returncode == 0, err.decode()
    assert out.decode() == want_cited
    # Once the readers are gone the next writer removes their generation.
    c.run("ingest", "--db", db, "-q", c.path("commit0.jsonl"))
    left = sorted(d for d in os.listdir(db) if d.startswith("graph."))
    assert len(left) == 1, left
    now, _, _ = c.run("paper", "--db", db, "--cited-by", SEED, "--format", "jsonl")
    assert {r["id"] for r in lines(now)} >= {"C0", "C1", "C2"}


def case_a_wal_left_behind_is_a_status_problem_a_writer_clears(c):
    """A WAL nobody emptied (readers held it past every writer's close) is named by
    litgraph-status, and the next writer empties it as it closes."""
    db = semantic_copy(c, "wal-left.db")
    path = os.path.join(db, "litgraph.sqlite")
    reader = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM meta").fetchall()  # holds a snapshot
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("CREATE TABLE wal_filler(x BLOB)")
    for _ in range(70):  # 70 MiB of WAL the reader keeps from being reset
        writer.execute("INSERT INTO wal_filler VALUES (zeroblob(1048576))")
    writer.execute("DROP TABLE wal_filler")
    writer.close()  # not the last connection: no checkpoint
    reader.close()  # read-only: no checkpoint either
    wal = os.path.join(db, "litgraph.sqlite-wal")
    assert os.path.getsize(wal) > 64 << 20, os.path.getsize(wal)
    out, _, code = c.run("status", "--db", db, expect=None)
    status = lines(out)[0]
    assert code != 0 and not status["healthy"], status
    assert any("WAL" in p and "litgraph-ingest" in p for p in status["problems"]), status
    c.run("ingest", "--db", db, "-q", stdin="")
    assert not os.path.exists(wal) or os.path.getsize(wal) == 0, os.path.getsize(wal)
    out, _, _ = c.run("status", "--db", db, expect=None)
    assert not any("WAL" in p for p in lines(out)[0]["problems"]), out


def case_first_bulk_load_next_to_an_open_reader(c):
    """A first load into an empty store waits for nobody and fails for nobody."""
    db = c.path("bulk-reader.db")
    shutil.rmtree(db, ignore_errors=True)
    c.run("ingest", "--db", db, "-q", stdin="")
    assert os.path.exists(os.path.join(db, "litgraph.sqlite"))
    reader = sqlite3.connect(os.path.join(db, "litgraph.sqlite"))
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM meta").fetchall()  # holds a snapshot
    _, err, _ = c.run("ingest", "--db", db, *c.fixtures(), timeout=120)
    assert "readers have the store open" in err, err
    reader.rollback()
    reader.close()
    out, _, _ = c.run("find-paper", "--db", db, "--id", SEED)
    assert lines(out)[0]["id"] == SEED


def case_read_only_store_serves_readers(c):
    """A store the user cannot write (mode a-w, another user) answers every query unchanged."""
    db = semantic_copy(c, "readonly.db")
    baseline = run_battery(c, db)
    before = {f: os.stat(os.path.join(db, f)).st_mtime_ns for f in derived_files(db)}
    sqlite_before = open(os.path.join(db, "litgraph.sqlite"), "rb").read()
    as_other = []
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            print("     skipped: running as root without setpriv to drop privileges")
            return
        as_other = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        os.chmod(c.tmp, 0o755)
        probe = subprocess.run(as_other + [c.tool("find-paper"), "--version"],
                               capture_output=True)
        if probe.returncode != 0:
            print("     skipped: user nobody cannot run the build's binaries here "
                  f"({probe.stderr.decode().strip()[:200]})")
            return
    for root, dirs, files in os.walk(db):
        for n in files:
            os.chmod(os.path.join(root, n), 0o444)
        for n in dirs:
            os.chmod(os.path.join(root, n), 0o555)
    os.chmod(db, 0o555)
    try:
        for (tool, args, _), want, got in zip(BATTERY, baseline, run_battery(c, db, as_other)):
            assert got[:2] == want[:2], (f"{tool} {args} on a read-only store: exit {got[0]}\n"
                                         f"{got[2][:800]}")
        # Writers are refused with a clear error.
        p = subprocess.run(as_other + [c.tool("ingest"), "--db", db, "-q"], input=b"",
                           capture_output=True, timeout=60)
        assert p.returncode == 4 and db in p.stderr.decode(), p.stderr.decode()
    finally:
        for root, dirs, files in os.walk(db):
            os.chmod(root, 0o755)
            for n in files:
                os.chmod(os.path.join(root, n), 0o644)
    assert {f: os.stat(os.path.join(db, f)).st_mtime_ns for f in derived_files(db)} == before
    assert open(os.path.join(db, "litgraph.sqlite"), "rb").read() == sqlite_before
