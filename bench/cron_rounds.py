#!/usr/bin/env python3
"""The cron path run again and again on one store: its cost over the rounds, compactions included.

bench/cron_bench.py times one update of a freshly compacted store. A store updated every night
carries its deltas from one update to the next, and some nights compact them (the vector
fields' past 20% of their base, the lexical index's likewise), so the cost a cron user pays is
the sum over the rounds. This runs --rounds updates of --works works each (half of them changed
works of the store, half new ones) on one copy of --src, with the cron recipe of README.md:

    litgraph-ingest FILE; litgraph-extract-keywords --missing; litgraph-embed --missing

Input: one pass of `litgraph-gen-works --works N --seed GEN_SEED [--profile P]` (the generator
and profile the source store was built with, another seed, so a changed work gets another
title, abstract and references); round r takes works/2 positions of the store's works not
taken by an earlier round (changed works) and works/2 positions of its most recent --recent
share, written under ids after the store's and every earlier round's (new works).

    /usr/bin/python3 bench/cron_rounds.py --bin BUILD --src STORE --work DIR --rounds 4 \\
        --works 100000 --out rounds.json

Output: JSON with every step's wall, peak RSS and --stats summary per round, and the vectors'
manifest info after it (a field without a `vector_delta` entry was compacted in that round), and a
table on stderr. --report FILE prints the table again.
"""
import argparse
import json
import os
import random
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import log  # noqa: E402
from cron_bench import NEW_DATE, fresh_copy, renumber, run_cmd  # noqa: E402


def make_rounds(a, corpus_n):
    tag = f"-{a.profile}" if a.profile else ""
    paths = [os.path.join(a.work, f"round{tag}-c{corpus_n}-g{a.gen_seed}-s{a.seed}-w{a.works}-{r + 1}.jsonl")
             for r in range(a.rounds)]
    if all(os.path.exists(p) for p in paths):
        return paths
    rng = random.Random(a.seed)
    half, rest = a.works // 2, a.works - a.works // 2
    changed = rng.sample(range(corpus_n), half * a.rounds)
    taken = set(changed)
    lo = int(corpus_n * (1 - a.recent))
    pool = [k for k in range(lo, corpus_n) if k not in taken]
    new = rng.sample(pool, min(len(pool), rest * a.rounds))
    if len(new) < rest * a.rounds:
        raise SystemExit(f"--recent {a.recent}: {len(pool)} positions for {rest * a.rounds} new works")
    role = {}
    for r in range(a.rounds):
        for p in changed[r * half:(r + 1) * half]:
            role[p] = (r, None)
        for i, p in enumerate(new[r * rest:(r + 1) * rest]):
            role[p] = (r, corpus_n + r * rest + i)
    outs = [open(p + ".tmp", "w") for p in paths]
    cmd = [f"{a.bin}/litgraph-gen-works", "--works", str(corpus_n), "--seed", str(a.gen_seed),
           "--out", "-"] + (["--profile", a.profile] if a.profile else [])
    log("input: " + " ".join(cmd))
    t0 = time.perf_counter()
    gen = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=1 << 20)
    for pos, line in enumerate(gen.stdout):
        if pos not in role:
            continue
        r, i = role[pos]
        w = json.loads(line)
        w["updated_date"] = NEW_DATE
        if i is not None:
            renumber(w, i)
        outs[r].write(json.dumps(w, separators=(",", ":"), ensure_ascii=False) + "\n")
    if gen.wait() != 0:
        raise SystemExit("litgraph-gen-works failed")
    for p, f in zip(paths, outs):
        f.close()
        os.replace(p + ".tmp", p)
    log(f"input: {a.rounds} rounds in {time.perf_counter() - t0:.0f} s")
    return paths


def run_steps(a, steps, db, t0, logdir, box, label):
    """Runs (name, argv) steps in order (cron_bench.run_cmd); their measurements by name."""
    out = {}
    for name, argv in steps:
        out[name] = run_cmd(a, name, argv, db, t0, logdir, box)
        out[name].pop("files", None)
        log(f"{label} {name}: {out[name]['wall_s']} s; {json.dumps(out[name]['stats'])[:400]}")
    return out


def table(result):
    lines = ["| round | ingest | extract-keywords | embed (index) | total | compacted |",
             "|---|---|---|---|---|---|"]
    total = 0.0
    for r in result["rounds"]:
        e = r["embed"]
        delta = r["vectors_info"].get("vector_delta") or {}
        comp = [f for f in ("title", "abstract", "keyword") if f not in delta]
        total += r["total_s"]
        lines.append(f"| {r['round']} | {r['ingest']['wall_s']:.1f} s | {r['keywords']['wall_s']:.1f} s | "
                     f"{e['wall_s']:.1f} s ({e['stats'].get('index_seconds', 0):.1f}) | "
                     f"{r['total_s']:.1f} s | {', '.join(comp) or '-'} |")
    lines.append(f"| all | | | | {total:.1f} s ({total / max(1, len(result['rounds'])):.1f} s a round) | |")
    if "fold" in result:
        f = result["fold"]
        how = "ingest --compact" if "--compact" in f["ingest"].get("cmd", []) else "ingest --compact-at 0"
        lines.append(f"| fold ({how}, embed --missing --compact) | {f['ingest']['wall_s']:.1f} s | | "
                     f"{f['embed']['wall_s']:.1f} s ({f['embed']['stats'].get('index_seconds', 0):.1f}) | "
                     f"{f['ingest']['wall_s'] + f['embed']['wall_s']:.1f} s | all |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", help="directory of the litgraph binaries")
    ap.add_argument("--src", help="source store (never written)")
    ap.add_argument("--work", help="directory for inputs, the store copy and logs")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--works", type=int, default=100000, help="works per round (half changed, half new)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gen-seed", type=int, default=2)
    ap.add_argument("--recent", type=float, default=0.2)
    ap.add_argument("--profile", help="litgraph-gen-works --profile the source store was built with")
    ap.add_argument("--nice", type=int, default=0)
    ap.add_argument("--retries", type=int, default=0)
    ap.add_argument("--keep", action="store_true", help="keep the store copy")
    ap.add_argument("--compact-at", help="pass --compact-at F to ingest and embed (100: the "
                    "updates never fold their deltas)")
    ap.add_argument("--fold-at-end", action="store_true", help="after the rounds, time the "
                    "explicit folds: ingest --compact-at 0 with no input, embed --missing --compact")
    ap.add_argument("--out", help="JSON with every measurement")
    ap.add_argument("--report", help="print the table of an --out file and exit")
    a = ap.parse_args()
    if a.report:
        print(table(json.load(open(a.report))))
        return
    if not (a.bin and a.src and a.work):
        ap.error("--bin, --src and --work are needed")
    os.makedirs(a.work, exist_ok=True)
    con = sqlite3.connect(f"file:{a.src}/litgraph.sqlite?mode=ro", uri=True)
    corpus_n = con.execute("SELECT count(*) FROM paper").fetchone()[0]
    con.close()
    paths = make_rounds(a, corpus_n)
    db = os.path.join(a.work, "rounds.db")
    result = {"bin": a.bin, "src": a.src, "corpus_works": corpus_n, "args": vars(a),
              "loadavg_start": open("/proc/loadavg").read().split()[:3],
              "copy_s": fresh_copy(a, db), "rounds": []}
    t0 = time.perf_counter()
    box = ["between"]
    for r, inp in enumerate(paths, 1):
        logdir = os.path.join(a.work, f"log-round-{r}")
        os.makedirs(logdir, exist_ok=True)
        b = a.bin
        rr = {"round": r, "input": inp}
        at = ["--compact-at", a.compact_at] if a.compact_at else []
        rr.update(run_steps(a, [
            ("ingest", [f"{b}/litgraph-ingest", "--db", db, "--stats", "-q", *at, inp]),
            ("keywords", [f"{b}/litgraph-extract-keywords", "--db", db, "--missing", "--stats", "-q"]),
            ("embed", [f"{b}/litgraph-embed", "--db", db, "--missing", "--stats", "-q", *at])],
            db, t0, logdir, box, f"round {r}"))
        con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
        rr["vectors_info"] = json.loads(
            con.execute("SELECT value FROM meta WHERE key = 'vectors_info'").fetchone()[0])
        rr["graph_info_delta"] = {k: v for k, v in json.loads(
            con.execute("SELECT value FROM meta WHERE key = 'graph_info'").fetchone()[0]).items()
            if "delta" in k or "compact" in k or k == "update_seconds"}
        con.close()
        rr["total_s"] = round(sum(rr[n]["wall_s"] for n in ("ingest", "keywords", "embed")), 2)
        result["rounds"].append(rr)
        if a.out:
            with open(a.out, "w") as f:
                json.dump(result, f, indent=1)
    if a.fold_at_end:
        logdir = os.path.join(a.work, "log-fold")
        os.makedirs(logdir, exist_ok=True)
        result["fold"] = run_steps(a, [
            ("ingest", [f"{a.bin}/litgraph-ingest", "--db", db, "--compact-at", "0", "--stats",
                        "-q", "/dev/null"]),
            ("embed", [f"{a.bin}/litgraph-embed", "--db", db, "--missing", "--compact", "--stats",
                       "-q"])],
            db, t0, logdir, box, "fold")
        if a.out:
            with open(a.out, "w") as f:
                json.dump(result, f, indent=1)
    log(table(result))
    if not a.keep:
        subprocess.run(["rm", "-rf", db], check=True)


if __name__ == "__main__":
    main()
