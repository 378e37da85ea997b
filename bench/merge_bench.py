#!/usr/bin/env python3
"""litgraph-merge throughput and peak RSS, with a single-process ingest as the peer.

Workloads (N synthetic OpenAlex works from litgraph-gen-works, seed 1, cut into 4
consecutive slices):
  shards_<N>     the 4 shard stores built one after another (ingest; with --layers also
                 extract-keywords --stats-from and embed --model-from the first shard):
                 wall seconds per shard
  merge_<N>      litgraph-merge of the 4 shards into an empty store: works/s of the load
                 phase (shard rows applied through ingest's writer) and end to end (phrase
                 statistics, graph and lexical index, vectors and HNSW included), peak RSS
  ingest_<N>     the peer, in the same run: litgraph-ingest of the same N works into an
                 empty store (with --layers also extract-keywords and embed), wall seconds
                 and peak RSS
  check_<N>      the merged store against the single build: papers, CITES edges and
                 dangling references must be equal (1 = equal)
  sharded_<N>    with --parallel: the whole sharded build's wall clock beside the single
                 build's. Shard 1 is built first (its statistics and model are the others'),
                 shards 2-4 under GNU parallel -j2 with `embed --no-index` (the merge
                 extends shard 1's indexes), then the merge; needs --layers. With
                 --shard-index shards 2-4 build their HNSW indexes too, which the merge
                 keeps as segments (vectors.h) instead of inserting their vectors.
  --merge-modes segments,fold  merges the same shards once per mode (`fold`:
                 `litgraph-merge --fold-vectors`, one index per field), each with its own
                 merge_<N>_<mode> rows; --keep-merged leaves the merged stores (and the
                 shards) in --work, e.g. for litgraph-vector-bench.

CSV on stdout: workload,metric,value. The machine's load average is printed beside the
timings (this machine is shared).
Usage: merge_bench.py --bin BUILD --work DIR [--sizes 100000] [--layers [--parallel
       [--shard-index]]] [--merge-modes segments[,fold]] [--keep-merged] [--no-peer]
       [--profile hubs | --input RECORDS.jsonl]
"""
import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import time


def timed(cmd):
    """Runs cmd under /usr/bin/time: (wall seconds, peak RSS MB, stdout)."""
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr[-3000:]}")
    return wall, int(p.stderr.strip().splitlines()[-1]) / 1024, p.stdout


def meta(db, key):
    con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
    try:
        row = con.execute("select value from meta where key = ?", (key,)).fetchone()
        return row[0] if row else None
    finally:
        con.close()


def load():
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--sizes", default="100000")
    ap.add_argument("--parallel", action="store_true",
                    help="shards 2-4 under GNU parallel -j2 with embed --no-index (with --layers)")
    ap.add_argument("--layers", action="store_true",
                    help="shards and peer with keywords and vectors too")
    ap.add_argument("--shard-index", action="store_true",
                    help="with --parallel: shards 2-4 build their HNSW indexes")
    ap.add_argument("--merge-modes", default="segments",
                    help="segments (the default merge) and/or fold (--fold-vectors)")
    ap.add_argument("--keep-merged", action="store_true",
                    help="keep the merged stores and the shards")
    ap.add_argument("--no-peer", action="store_true", help="skip the single-process build")
    ap.add_argument("--profile", default="", help="litgraph-gen-works --profile (e.g. hubs)")
    ap.add_argument("--input", help="cut this JSON-lines file (real records) instead of "
                    "generating works; --sizes is then its line count")
    a = ap.parse_args()
    if a.input:
        with open(a.input) as f:
            a.sizes = str(sum(1 for _ in f))
    modes = a.merge_modes.split(",")
    os.makedirs(a.work, exist_ok=True)
    b = lambda t: os.path.join(a.bin, "litgraph-" + t)
    print("workload,metric,value")
    for n in [int(x) for x in a.sizes.split(",")]:
        data = a.input or os.path.join(a.work, f"works-{n}{a.profile}.jsonl")
        if not os.path.exists(data):
            subprocess.run([b("gen-works"), "--works", str(n), "--out", data] +
                           (["--profile", a.profile] if a.profile else []), check=True,
                           stderr=subprocess.DEVNULL)
        with open(data) as f:
            recs = f.readlines()
        parts = []
        for i in range(4):
            p = os.path.join(a.work, f"works-{n}-part{i + 1}.jsonl")
            with open(p, "w") as f:
                f.writelines(recs[len(recs) * i // 4:len(recs) * (i + 1) // 4])
            parts.append(p)
        del recs
        # Shards, one after another (the 2 cores are shared: parallel runs would measure
        # the other engineers' load as much as ours).
        shards = []
        shard_stage = 0.0
        if a.parallel:
            if not a.layers:
                raise SystemExit("--parallel needs --layers")
            first = os.path.join(a.work, f"shard1-{n}.db")
            shutil.rmtree(first, ignore_errors=True)
            t = time.perf_counter()
            for cmd in ([b("ingest"), "--db", first, "-q", parts[0]],
                        [b("extract-keywords"), "--db", first, "-q"],
                        [b("embed"), "--db", first, "-q"]):
                subprocess.run(cmd, check=True)
            rest = [os.path.join(a.work, f"shard{i + 1}-{n}.db") for i in range(1, 4)]
            for db in rest:
                shutil.rmtree(db, ignore_errors=True)
            job = (f"{b('ingest')} --db {{2}} -q {{1}} && "
                   f"{b('extract-keywords')} --db {{2}} -q --stats-from {first} && "
                   f"{b('embed')} --db {{2}} -q --model-from {first}" +
                   ("" if a.shard_index else " --no-index"))
            subprocess.run(["parallel", "--will-cite", "--halt", "now,fail=1", "-j", "2", job,
                            ":::", *parts[1:], ":::+", *rest], check=True)
            shard_stage = time.perf_counter() - t
            print(f"sharded_{n},shard_stage_wall_s,{shard_stage:.1f}", flush=True)
            shards = [first] + rest
            for p in parts:
                os.remove(p)
        for i, p in enumerate([] if a.parallel else parts):
            db = os.path.join(a.work, f"shard{i + 1}-{n}.db")
            shutil.rmtree(db, ignore_errors=True)
            wall, rss, _ = timed([b("ingest"), "--db", db, "-q", p])
            if a.layers:
                model = shards[0] if shards else None
                w2, r2, _ = timed([b("extract-keywords"), "--db", db, "-q"] +
                                  (["--stats-from", model] if model else []))
                w3, r3, _ = timed([b("embed"), "--db", db, "-q"] +
                                  (["--model-from", model] if model else []))
                wall, rss = wall + w2 + w3, max(rss, r2, r3)
            shards.append(db)
            os.remove(p)  # disk: a 1M-work corpus is written four times otherwise
            print(f"shards_{n},shard{i + 1}_wall_s,{wall:.1f}")
            print(f"shards_{n},shard{i + 1}_peak_rss_mb,{rss:.0f}", flush=True)
        merge_wall = None
        for mode in modes:
            out = os.path.join(a.work, f"merged-{n}-{mode}.db")
            shutil.rmtree(out, ignore_errors=True)
            l0 = load()
            extra = ["--fold-vectors"] if mode == "fold" else []
            wall, rss, stdout = timed([b("merge"), "--db", out, "-q", "--stats"] + extra + shards)
            s = json.loads(stdout)
            w = f"merge_{n}" if mode == "segments" else f"merge_{n}_{mode}"
            print(f"{w},works,{s['works']}")
            print(f"{w},load_works_per_s,{s['works'] / s['load_seconds']:.0f}")
            print(f"{w},end_to_end_works_per_s,{s['works'] / wall:.0f}")
            print(f"{w},wall_s,{wall:.1f}")
            for k in ("load_seconds", "keywords_seconds", "graph_seconds", "vectors_seconds"):
                print(f"{w},{k},{s[k]:.1f}")
            print(f"{w},paper_keywords,{s['paper_keywords']}")
            for k in ("vectors", "vectors_indexed", "vectors_in_segments", "vector_segments"):
                print(f"{w},{k},{s.get(k, '')}")
            print(f"{w},peak_rss_mb,{rss:.0f}")
            print(f"{w},loadavg_before,{l0}")
            print(f"{w},loadavg_after,{load()}", flush=True)
            gm = json.loads(meta(out, "graph_info"))
            if merge_wall is None:
                merge_wall = wall
            if not a.keep_merged:
                shutil.rmtree(out)  # disk, before the peer's store is written
        if a.no_peer:
            if not a.keep_merged:
                for db in shards:
                    shutil.rmtree(db)
            continue
        # The peer: one process over the same works.
        single = os.path.join(a.work, f"single-{n}.db")
        shutil.rmtree(single, ignore_errors=True)
        l0 = load()
        wall, rss, stdout = timed([b("ingest"), "--db", single, "-q", "--stats", data])
        ing = json.loads(stdout)
        w = f"ingest_{n}"
        print(f"{w},works_per_s,{ing['works'] / wall:.0f}")
        print(f"{w},load_works_per_s,{ing['works'] / ing['load_seconds']:.0f}")
        print(f"{w},wall_s,{wall:.1f}")
        print(f"{w},peak_rss_mb,{rss:.0f}")
        if a.layers:
            w2, _, _ = timed([b("extract-keywords"), "--db", single, "-q", "--stats-from",
                              shards[0]])
            w3, _, _ = timed([b("embed"), "--db", single, "-q", "--model-from", shards[0]])
            print(f"{w},keywords_and_embed_wall_s,{w2 + w3:.1f}")
            if a.parallel:
                print(f"sharded_{n},sharded_build_wall_s,{shard_stage + merge_wall:.1f}")
                print(f"sharded_{n},single_build_wall_s,{wall + w2 + w3:.1f}", flush=True)
        print(f"{w},loadavg_before,{l0}")
        print(f"{w},loadavg_after,{load()}", flush=True)
        gs = json.loads(meta(single, "graph_info"))
        same = (s["works"] == ing["works"] and gm["cites_edges"] == gs["cites_edges"] and
                gm["dangling_references"] == gs["dangling_references"])
        print(f"check_{n},same_papers_edges_dangling,{int(same)}", flush=True)
        for db in ([] if a.keep_merged else shards) + [single]:
            shutil.rmtree(db)


if __name__ == "__main__":
    main()
