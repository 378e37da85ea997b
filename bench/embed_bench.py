#!/usr/bin/python3
"""The semantic layer: model training, embedding and index build; vector search recall,
latency and open time, with exact brute force as the peer in the same run.

    /usr/bin/python3 bench/embed_bench.py --bin BUILD --out-dir DIR
        [--train-works FILE --train-db DIR [--train-dataset 100k]]
        [--reference-json FILE --reference-dataset 1m --reference-note TEXT]
        [--db STORE --dataset NAME --bench-bin BUILD2 [--queries 200] [--repeats 3]
         [--open-runs 21] [--seed 1] [--efs 16,32,64,100,200,300,500]
         [--top-efs 120,200,300,500] [--no-hnswlib]]

Part (a), with --train-works: build a fresh store from FILE (OpenAlex works JSONL, e.g.
litgraph-gen-works --works 100000) at --train-db (removed first):
  ingest            `litgraph-ingest -q --stats` (wall; not the subject)
  keywords          `litgraph-extract-keywords -q --stats` (wall; not the subject)
  embed             `litgraph-embed --stats` under /usr/bin/time -f %M: train_seconds
                    (the built-in LSA model), embed_seconds and texts/s (titles + abstracts
                    + keywords), index_seconds and vectors/s (HNSW M=16, ef_construction=200,
                    2 threads), seconds, wall, peak RSS
--reference-json copies an earlier `litgraph-embed --stats` JSON (e.g. the 1M store's own
build) into the same CSV, each row carrying --reference-note. No peer for part (a).
CSV: <out-dir>/embed_<train-dataset>.csv: dataset,param,value,unit,count,note

Part (b), with --db (a store with vectors) and --bench-bin (the build holding
litgraph-vector-bench):
  vectors           `litgraph-vector-bench --db STORE --queries Q --repeats R --hnswlib`: HNSW
                    top-10 at each of --efs against BruteForceSearch (recall@10, p50/p99 us),
                    top-60 at each of --top-efs (120 is the tools' setting), brute force
                    latency (the exact peer), and hnswlib searching the same graph at the same
                    ef values (the implementation peer); see bench/vector_bench.cc.
                    -> <out-dir>/vectors_<dataset>.csv
  files             bytes per vector: each <field>.vec/.hnsw/.hnswlib size / the .vec row
                    count (row 0 unused), and / present rows -> vector_files_<dataset>.csv
  open              `litgraph-vector-bench --open-only` in --open-runs fresh processes: wall
                    clock and its in-process store_open, semantic_open, embed_text,
                    first_search_top60 (ms), page cache warm; then again with the vectors
                    directory's files dropped from the page cache before each run
                    (posix_fadvise DONTNEED, those files only): cold. Medians, plus the
                    first warm run. -> vector_open_<dataset>.csv (workload,param,value,unit,count)
"""
import argparse
import json
import os
import sqlite3
import statistics
import struct
import subprocess
import time

from benchlib import log


def timed(cmd, **kw):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise SystemExit(f"{cmd[0]}: exit {p.returncode}: {p.stderr[-500:]}")
    return time.perf_counter() - t, p


def evict_dir(d):
    for f in os.listdir(d):
        fd = os.open(os.path.join(d, f), os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def vectors_dir(db):
    con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
    rows = dict(con.execute("select key, value from meta").fetchall())
    for k in ("vectors_generation", "generation_vectors", "vectors"):
        if k in rows and str(rows[k]).isdigit():
            return os.path.join(db, f"vectors.{rows[k]}")
    gens = sorted(int(n.split(".")[1]) for n in os.listdir(db)
                  if n.startswith("vectors.") and n.split(".")[1].isdigit())
    return os.path.join(db, f"vectors.{gens[-1]}")


def part_train(a):
    rows = []
    ds = a.train_dataset

    def add(param, value, unit, count="", note=""):
        rows.append((ds, param, value, unit, count, note))

    subprocess.run(["rm", "-rf", a.train_db], check=True)
    log(f"ingest {a.train_works} -> {a.train_db}")
    wall, p = timed([f"{a.bin}/litgraph-ingest", "--db", a.train_db, "-q", "--stats", a.train_works])
    s = json.loads(p.stdout)
    add("ingest_wall_s", f"{wall:.1f}", "s", s["works"])
    log("extract-keywords")
    wall, p = timed([f"{a.bin}/litgraph-extract-keywords", "--db", a.train_db, "-q", "--stats"])
    add("keywords_wall_s", f"{wall:.1f}", "s", s["works"])
    log("embed")
    wall, p = timed(["/usr/bin/time", "-f", "%M", f"{a.bin}/litgraph-embed", "--db", a.train_db,
                     "-q", "--stats"])
    e = json.loads(p.stdout)
    rss_kb = int(p.stderr.strip().splitlines()[-1])
    texts = e["titles"] + e["abstracts"] + e["keywords"]
    add("model", e["model"], "", e.get("dim", ""))
    add("train_docs", e.get("train_docs", ""), "docs")
    add("train_terms", e.get("train_terms", ""), "terms")
    add("train_seconds", f"{e['train_seconds']:.2f}", "s", e.get("train_docs", ""))
    add("titles", e["titles"], "vectors")
    add("abstracts", e["abstracts"], "vectors")
    add("keywords", e["keywords"], "vectors")
    add("embed_seconds", f"{e['embed_seconds']:.2f}", "s", texts)
    add("embed_texts_per_s", f"{texts / e['embed_seconds']:.0f}", "texts/s", texts)
    add("index_seconds", f"{e['index_seconds']:.2f}", "s", texts)
    add("index_vectors_per_s", f"{texts / e['index_seconds']:.0f}", "vectors/s", texts)
    add("seconds", f"{e['seconds']:.2f}", "s", texts)
    add("embed_wall_s", f"{wall:.2f}", "s", texts)
    add("embed_peak_rss_mb", f"{rss_kb / 1024:.0f}", "MiB", texts)
    if a.reference_json:
        r = json.load(open(a.reference_json))
        t = r["titles"] + r["abstracts"] + r["keywords"]
        note = a.reference_note
        d = a.reference_dataset
        for param, value, unit, count in [
                ("model", r.get("model", ""), "", r.get("dim", "")),
                ("train_docs", r.get("train_docs", ""), "docs", ""),
                ("train_seconds", f"{r['train_seconds']:.2f}", "s", r.get("train_docs", "")),
                ("titles", r["titles"], "vectors", ""), ("abstracts", r["abstracts"], "vectors", ""),
                ("keywords", r["keywords"], "vectors", ""),
                ("embed_seconds", f"{r['embed_seconds']:.2f}", "s", t),
                ("embed_texts_per_s", f"{t / r['embed_seconds']:.0f}", "texts/s", t),
                ("index_seconds", f"{r['index_seconds']:.2f}", "s", t),
                ("index_vectors_per_s", f"{t / r['index_seconds']:.0f}", "vectors/s", t),
                ("seconds", f"{r['seconds']:.2f}", "s", t)]:
            rows.append((d, param, value, unit, count, note))
    path = os.path.join(a.out_dir, f"embed_{ds}.csv")
    with open(path, "w") as f:
        f.write("dataset,param,value,unit,count,note\n")
        for r in rows:
            f.write(",".join(str(x) if "," not in str(x) else f'"{x}"' for x in r) + "\n")
    log(open(path).read())


def part_vectors(a):
    tool = f"{a.bench_bin}/litgraph-vector-bench"
    vdir = vectors_dir(a.db)
    # Bytes per vector.
    path = os.path.join(a.out_dir, f"vector_files_{a.dataset}.csv")
    with open(path, "w") as f:
        f.write("dataset,field,file,bytes,rows,present,bytes_per_row,bytes_per_present\n")
        for field in ("title", "abstract", "keyword"):
            vec = os.path.join(vdir, field + ".vec")
            if not os.path.exists(vec):
                continue
            with open(vec, "rb") as v:
                hdr = v.read(64)
            dim, _, rows, present = struct.unpack_from("<IIQQ", hdr, 8)
            for ext in (".vec", ".hnsw", ".hnswlib"):
                p = os.path.join(vdir, field + ext)
                if not os.path.exists(p):
                    continue
                sz = os.path.getsize(p)
                f.write(f"{a.dataset},{field},{ext[1:]},{sz},{rows},{present},{sz / rows:.1f},"
                        f"{sz / max(1, present):.1f}\n")
        mp = os.path.join(vdir, "model")
        if os.path.exists(mp):
            f.write(f"{a.dataset},model,model,{os.path.getsize(mp)},,,,\n")
    log(open(path).read())

    # Open time in fresh processes: warm, then cold (vectors dir evicted).
    out = ["workload,param,value,unit,count"]
    for mode in ("warm", "cold"):
        walls, parts = [], {}
        for i in range(a.open_runs):
            if mode == "cold":
                evict_dir(vdir)
            wall, p = timed([tool, "--db", a.db, "--open-only"])
            walls.append(wall * 1000)
            for line in p.stdout.splitlines()[1:]:
                w, param, value, unit, count = line.split(",")
                parts.setdefault(param, []).append(float(value))
                if param == "first_search_top60":
                    results = count
        out.append(f"open_{mode},process_wall,{statistics.median(walls):.3f},ms,{len(walls)}")
        out.append(f"open_{mode},process_wall_first,{walls[0]:.3f},ms,1")
        for param, vs in parts.items():
            out.append(f"open_{mode},{param},{statistics.median(vs):.3f},ms,{len(vs)}")
        out.append(f"open_{mode},first_search_results,{results},count,1")
    spawn = []
    for _ in range(21):
        t = time.perf_counter()
        subprocess.run(["/bin/true"])
        spawn.append((time.perf_counter() - t) * 1000)
    out.append(f"spawn,true,{statistics.median(spawn):.3f},ms,{len(spawn)}")
    path = os.path.join(a.out_dir, f"vector_open_{a.dataset}.csv")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    log("\n".join(out))

    # Recall and latency.
    path = os.path.join(a.out_dir, f"vectors_{a.dataset}.csv")
    log(f"litgraph-vector-bench on {a.db} -> {path}")
    with open(path, "w") as f:
        cmd = [tool, "--db", a.db, "--queries", str(a.queries), "--repeats", str(a.repeats),
               "--seed", str(a.seed), "--efs", a.efs, "--top-ef", a.top_efs]
        if not a.no_hnswlib:
            cmd.append("--hnswlib")
        p = subprocess.run(cmd, stdout=f)
    if p.returncode != 0:
        raise SystemExit(f"litgraph-vector-bench: exit {p.returncode}")
    log(open(path).read())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--bench-bin")
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--train-works")
    ap.add_argument("--train-db")
    ap.add_argument("--train-dataset", default="100k")
    ap.add_argument("--reference-json")
    ap.add_argument("--reference-dataset", default="1m")
    ap.add_argument("--reference-note", default="")
    ap.add_argument("--db")
    ap.add_argument("--dataset", default="store")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--open-runs", type=int, default=21)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--efs", default="16,32,64,100,200,300,500")
    ap.add_argument("--top-efs", default="120,200,300,500")
    ap.add_argument("--no-hnswlib", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    if a.train_works:
        if not a.train_db:
            ap.error("--train-works needs --train-db")
        part_train(a)
    if a.db:
        if not a.bench_bin:
            ap.error("--db needs --bench-bin (the build with litgraph-vector-bench)")
        part_vectors(a)


if __name__ == "__main__":
    main()
