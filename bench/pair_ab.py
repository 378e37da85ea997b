#!/usr/bin/env python3
"""Two builds of one tool on one store, paired: each input file (JSON lines on stdin, e.g.
find-paper's output as rwr-rank seeds) is run by both builds back to back, the order
alternating by round, fresh processes, after one untimed run of each.

    bench/pair_ab.py STORE BIN_A BIN_B ROUNDS INPUT.jsonl... [-- TOOL_ARGS]
    (TOOL=litgraph-rwr-rank by default; every run gets --db STORE --limit 20 --format jsonl)

Prints the p50 wall and CPU (user + sys) of each build, the median of the paired ratios
B/A - 1, and how many runs' outputs differed (a change meant to be exact must print 0).
"""
import os, resource, statistics, subprocess, sys, time
store, a, b, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rest = sys.argv[5:]
extra = rest[rest.index("--") + 1:] if "--" in rest else []
files = rest[:rest.index("--")] if "--" in rest else rest
tool = os.environ.get("TOOL", "litgraph-rwr-rank")
def run(bin_, f):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    with open(f) as inp:
        out = subprocess.run([f"{bin_}/{tool}", "--db", store, "--limit", "20", "--format", "jsonl"] + extra,
                             stdin=inp, capture_output=True, check=True).stdout
    w = (time.perf_counter() - t) * 1000
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)) * 1000
    return w, cpu, out
walls = {a: [], b: []}; cpus = {a: [], b: []}; dw = []; dc = []; differ = 0
for f in files:  # warm
    run(a, f); run(b, f)
for r in range(rounds):
    for f in files:
        order = (a, b) if r % 2 == 0 else (b, a)
        res = {x: run(x, f) for x in order}
        if res[a][2] != res[b][2]: differ += 1
        for x in (a, b):
            walls[x].append(res[x][0]); cpus[x].append(res[x][1])
        dw.append(res[b][0] / res[a][0] - 1); dc.append(res[b][1] / res[a][1] - 1)
med = statistics.median
print(f"runs {len(dw)}  wall p50 A {med(walls[a]):.2f} B {med(walls[b]):.2f} ms  paired median {100*med(dw):+.1f}%  "
      f"cpu p50 A {med(cpus[a]):.2f} B {med(cpus[b]):.2f} ms  paired median {100*med(dc):+.1f}%  outputs differing {differ}")
