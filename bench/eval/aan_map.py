#!/usr/bin/env python3
"""Literature maps on the ACL Anthology Network: which similarity measures find a held-out
paper's other references from three of them.

Protocol (the held-out split of aan_citations.py, development part only): the papers with >= 5
references inside the collection are eligible; the test sample is random.Random(7).sample(N),
and the development sample another N papers from the rest, random.Random(11) (--split dev, the
only split this script runs, so the test papers stay untouched). The store is built with
litgraph-ingest alone from every paper but the development sample, dropping every edge that
touches it. For each held-out paper P with >= 6 references in the store, the seeds are 3 of its
references, random.Random("aan_map:" + P).sample (a string seed: no hash randomization), and the
relevant papers are its other references in the store. P's own citations are gone from the
store, so no edge of P can give its references away.

Runs, each scored over the same queries:
  map variants  litgraph-map SEED1 SEED2 SEED3 with the variant's flags; scored are the similar
                works (--similar 20: Recall@20, binary nDCG@20), and the map's union of similar and
                prior works (--similar 10 --prior 10: the 10 similar then the 10 prior works, @20)
  co_cited_1    baseline: litgraph-paper --co-cited of the first seed (the other seeds removed)
  ppr_cites     baseline: litgraph-rwr-rank from the three seeds over CITES edges only
  most_cited    baseline: the store's most cited papers (in-store citations), seeds removed
Significance: a paired randomization test (sign flips of the per-query differences, 10,000
resamples, two-sided p) of --reference against every other run, on each metric.
Timing: wall time of each litgraph-map process of --reference's similar run (process start,
store open, map, output), p50 and p95.

Usage: aan_map.py --bin BUILD --work DIR [--n 1000] [--out DIR] [--variants 'name=flags;...']
CSV on stdout: run,queries,recall@20,ndcg@20,union_recall@20,union_ndcg@20
--out DIR also writes summary.csv, per_query.csv, significance.csv and timing.csv there.
"""
import argparse
import csv
import json
import math
import os
import random
import shlex
import subprocess
import sys
import time

from aan_citations import load_aan, write_without  # the same split and store

K = 20

CC = {"aa": "adamic-adar", "salton": "salton", "count": "count"}

# name -> litgraph-map flags. Single relations first, then the combinations at equal weights
# (every flag explicit: the tool's defaults are one of the runs).
VARIANTS = [
    ("cc_count", "--coupling-weight 0 --co-citation count"),
    ("cc_salton", "--coupling-weight 0 --co-citation salton"),
    ("cc_aa", "--coupling-weight 0 --co-citation adamic-adar"),
    ("bc_count", "--co-citation-weight 0 --coupling count"),
    ("bc_salton", "--co-citation-weight 0 --coupling salton"),
    ("bc_aa", "--co-citation-weight 0 --coupling adamic-adar"),
    ("count+count", "--co-citation count --coupling count --coupling-weight 1"),
    ("salton+salton", "--co-citation salton --coupling salton --coupling-weight 1"),
    ("aa+aa", "--co-citation adamic-adar --coupling adamic-adar --coupling-weight 1"),
    # Inciteful's pair: Salton co-citation, Adamic/Adar coupling
    ("salton+aa", "--co-citation salton --coupling adamic-adar --coupling-weight 1"),
    ("aa+salton", "--co-citation adamic-adar --coupling salton --coupling-weight 1"),
    ("count+aa", "--co-citation count --coupling adamic-adar --coupling-weight 1"),
    ("aa+count", "--co-citation adamic-adar --coupling count --coupling-weight 1"),
    ("salton+count", "--co-citation salton --coupling count --coupling-weight 1"),
    ("count+salton", "--co-citation count --coupling salton --coupling-weight 1"),
    ("salton+aa/global",
     "--co-citation salton --coupling adamic-adar --coupling-weight 1 --normalize global"),
    ("aa+aa/global",
     "--co-citation adamic-adar --coupling adamic-adar --coupling-weight 1 --normalize global"),
    ("count+count/global",
     "--co-citation count --coupling count --coupling-weight 1 --normalize global"),
    ("cc_aa/global", "--coupling-weight 0 --co-citation adamic-adar --normalize global"),
    ("cc_count/global", "--coupling-weight 0 --co-citation count --normalize global"),
] + [  # coupling at a fraction of co-citation's weight
    (f"{cc}+{bc}@{w}", f"--co-citation {CC[cc]} --coupling {CC[bc]} --coupling-weight {w}")
    for cc, bc, ws in [("aa", "aa", (0.05, 0.1, 0.25, 0.5)),
                       ("aa", "salton", (0.05, 0.1, 0.25, 0.5)), ("aa", "count", (0.1, 0.25)),
                       ("count", "salton", (0.1, 0.25)), ("salton", "aa", (0.1, 0.25))]
    for w in ws
] + [("default", "")]  # the tool's defaults: must equal aa+salton@0.25


def ndcg_binary(ranked, relevant, k=K):
    dcg = sum(1 / math.log2(i + 2) for i, p in enumerate(ranked[:k]) if p in relevant)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(k, len(relevant))))
    return dcg / ideal if ideal else 0.0


def recall(ranked, relevant, k=K):
    return len(set(ranked[:k]) & relevant) / len(relevant)


def randomization_p(diffs, rounds=10000, seed=1):
    """Two-sided p of a paired sign-flip randomization test on per-query differences."""
    diffs = [d for d in diffs if d != 0]  # a zero difference flips to itself
    if not diffs:
        return 1.0
    observed = abs(sum(diffs))
    rng = random.Random(seed)
    hits = 0
    for _ in range(rounds):
        s = sum(d if rng.random() < 0.5 else -d for d in diffs)
        if abs(s) >= observed - 1e-12:
            hits += 1
    return (hits + 1) / (rounds + 1)


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


def split(shared, n, seed):
    """(papers, refs within the collection, development sample) as aan_citations.py --split dev."""
    papers, refs = load_aan(shared)
    eligible = sorted(p for p, r in refs.items() if len(r) >= 5)
    test = set(random.Random(seed).sample(eligible, min(n, len(eligible))))
    # The committed test numbers (300 papers) are a subset of a larger test sample.
    assert set(random.Random(seed).sample(eligible, min(300, len(eligible)))) <= test
    rest = [p for p in eligible if p not in test]
    dev = sorted(random.Random(seed + 4).sample(rest, min(n, len(rest))))
    return papers, refs, dev


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                                     "shared", "data", "aan"))
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--reference", default="aa+salton@0.25",
                    help="the run the others are tested against (the chosen default)")
    ap.add_argument("--variants", default="", help="'name=flags;...' instead of the built-in list")
    ap.add_argument("--no-baselines", action="store_true")
    ap.add_argument("--out", default="")
    ap.add_argument("--rebuild", action="store_true")
    a = ap.parse_args()
    if not os.path.exists(os.path.join(a.shared, "citations.tsv")):
        print(f"skipped: {a.shared} not present", file=sys.stderr)
        return 0
    papers, refs, held = split(a.shared, a.n, a.seed)
    held_set = set(held)
    os.makedirs(a.work, exist_ok=True)
    db = os.path.join(a.work, f"aan-map-holdout{a.n}-{a.seed}-dev.db")
    marker = db + ".built"
    if a.rebuild or not os.path.exists(marker):
        subprocess.run(["rm", "-rf", db, marker], check=True)
        recs = db + ".jsonl"
        write_without(papers, refs, held_set, recs)
        subprocess.run([f"{a.bin}/litgraph-ingest", "--db", db, "-q", recs], check=True)
        open(marker, "w").close()
    # In-store citation counts (held-out papers cite nothing in the store).
    in_degree = {}
    for s, ts in refs.items():
        if s in held_set:
            continue
        for t in ts:
            if t not in held_set:
                in_degree[t] = in_degree.get(t, 0) + 1
    most_cited = sorted(in_degree, key=lambda p: (-in_degree[p], p))

    queries = []
    for pid in held:
        r = sorted(refs[pid] - held_set)
        if len(r) < 6:
            continue
        seeds = random.Random("aan_map:" + pid).sample(r, 3)
        queries.append((pid, seeds, set(r) - set(seeds)))
    print(f"# {len(held)} held-out papers, {len(queries)} with >= 6 references in the store",
          file=sys.stderr)

    variants = VARIANTS
    if a.variants:
        variants = [tuple(v.split("=", 1)) for v in a.variants.split(";") if v]
    timings = []

    def run_map(flags, seeds, similar, prior, timed=False):
        cmd = ([f"{a.bin}/litgraph-map", "--db", db, "--format", "jsonl", "-q", "--similar",
                str(similar), "--prior", str(prior), "--derivative", "0"]
               + shlex.split(flags) + seeds)
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        if timed:
            timings.append(time.perf_counter() - t0)
        if p.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr}")
        recs = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
        return ([r["id"] for r in recs if r["role"] == "similar"],
                [r["id"] for r in recs if r["role"] == "prior"])

    def co_cited_first(seeds):
        p = subprocess.run([f"{a.bin}/litgraph-paper", "--db", db, "--format", "jsonl", "-q",
                            "--co-cited", "--limit", str(K + 3), seeds[0]],
                           capture_output=True, text=True)
        ids = [json.loads(l)["id"] for l in p.stdout.splitlines() if l.strip()]
        return [i for i in ids if i not in seeds][:K]

    cites_only = ["--beta-rel", "0", "--beta-auth", "0", "--beta-coauth", "0", "--beta-hk", "0",
                  "--beta-cooc", "0"]

    def ppr(seeds):
        p = subprocess.run([f"{a.bin}/litgraph-rwr-rank", "--db", db, "--format", "jsonl", "-q",
                            "--exclude-seeds", "--limit", str(K)] + cites_only,
                           input="".join(s + "\n" for s in seeds), capture_output=True, text=True)
        return [json.loads(l)["id"] for l in p.stdout.splitlines() if l.strip()]

    per_query = {}  # run -> [(recall, ndcg, union_recall, union_ndcg)]
    summary = []
    print("run,queries,recall@20,ndcg@20,union_recall@20,union_ndcg@20")

    def report(name, rows):
        per_query[name] = rows
        n = len(rows)
        means = [sum(r[i] for r in rows) / n for i in range(4)]
        summary.append([name, n] + means)
        cells = ",".join("" if math.isnan(m) else f"{m:.4f}" for m in means)
        print(f"{name},{n},{cells}", flush=True)

    for name, flags in variants:
        rows = []
        for pid, seeds, relevant in queries:
            similar, _ = run_map(flags, seeds, K, 0, timed=(name == a.reference))
            s10, p10 = run_map(flags, seeds, K // 2, K // 2)
            union = s10 + p10
            rows.append((recall(similar, relevant), ndcg_binary(similar, relevant),
                         recall(union, relevant), ndcg_binary(union, relevant)))
        report(name, rows)
    if not a.no_baselines:
        nan = float("nan")
        top = lambda seeds: [p for p in most_cited if p not in seeds][:K]
        for name, fn in [("co_cited_1", co_cited_first), ("ppr_cites", ppr), ("most_cited", top)]:
            rows = []
            for pid, seeds, relevant in queries:
                ranked = fn(seeds)
                rows.append((recall(ranked, relevant), ndcg_binary(ranked, relevant), nan, nan))
            report(name, rows)

    sig = []
    if a.reference in per_query:
        ref = per_query[a.reference]
        metrics = ["recall@20", "ndcg@20", "union_recall@20", "union_ndcg@20"]
        for name, rows in per_query.items():
            if name == a.reference:
                continue
            for i, m in enumerate(metrics):
                diffs = [x[i] - y[i] for x, y in zip(ref, rows)]
                if any(math.isnan(d) for d in diffs):
                    continue
                mean = sum(diffs) / len(diffs)
                sig.append([a.reference, name, m, f"{mean:+.4f}", f"{randomization_p(diffs):.4f}"])
    if timings:
        print(f"# {a.reference}: litgraph-map wall time p50 {pct(timings, 50) * 1000:.1f} ms, "
              f"p95 {pct(timings, 95) * 1000:.1f} ms over {len(timings)} runs", file=sys.stderr)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, "summary.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["run", "queries", "recall@20", "ndcg@20", "union_recall@20",
                        "union_ndcg@20"])
            for row in summary:
                w.writerow(row[:2] + ["" if math.isnan(x) else f"{x:.4f}" for x in row[2:]])
        with open(os.path.join(a.out, "per_query.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["run", "paper", "seeds", "relevant", "recall@20", "ndcg@20",
                        "union_recall@20", "union_ndcg@20"])
            for name, rows in per_query.items():
                for (pid, seeds, relevant), r in zip(queries, rows):
                    w.writerow([name, pid, " ".join(seeds), len(relevant)] +
                               ["" if math.isnan(x) else f"{x:.4f}" for x in r])
        with open(os.path.join(a.out, "significance.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["reference", "run", "metric", "mean_difference", "p_two_sided"])
            w.writerows(sig)
        if timings:
            with open(os.path.join(a.out, "timing.csv"), "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["run", "runs", "p50_ms", "p95_ms", "max_ms"])
                w.writerow([a.reference, len(timings), f"{pct(timings, 50) * 1000:.1f}",
                            f"{pct(timings, 95) * 1000:.1f}", f"{max(timings) * 1000:.1f}"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
