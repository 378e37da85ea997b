#!/usr/bin/env python3
"""Two builds of one tool on one store, paired: each input file (JSON lines on stdin, e.g.
find-paper's output as rwr-rank seeds) is run by both builds back to back, the order
alternating by round, fresh processes, after one untimed run of each.

    bench/pair_ab.py STORE BIN_A BIN_B ROUNDS INPUT.jsonl... [-- TOOL_ARGS]
    (TOOL=litgraph-rwr-rank by default; every run gets --db STORE --limit 20 --format jsonl)

Prints the p50 wall and CPU (user + sys) of each build, B's change of each p50 with a 95%
bootstrap interval (benchlib.p50_change, the runs paired), and how many runs' outputs
differed (a change meant to be exact must print 0). layout_ab.py does the same for
benchlib's query set; this takes any inputs, e.g. seeds on a store without abstracts (AAN).
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import p50_change, timed  # noqa: E402


def main():
    if len(sys.argv) < 6:
        raise SystemExit(__doc__)
    store, a, b, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    rest = sys.argv[5:]
    cut = rest.index("--") if "--" in rest else len(rest)
    files, extra = rest[:cut], rest[cut + 1:]
    tool = os.environ.get("TOOL", "litgraph-rwr-rank")

    def run(bindir, path):
        with open(path, "rb") as f:
            stdin = f.read()
        cmd = [f"{bindir}/{tool}", "--db", store, "--limit", "20", "--format", "jsonl"] + extra
        return timed(cmd, stdin=stdin)

    for path in files:  # warm-up
        run(a, path)
        run(b, path)
    wall, cpu, differ = [], [], 0
    for r in range(rounds):
        for path in files:
            order = (a, b) if r % 2 == 0 else (b, a)
            res = {x: run(x, path) for x in order}
            differ += res[a][2] != res[b][2]
            wall.append((res[b][0], res[a][0]))
            cpu.append((res[b][1], res[a][1]))
    for name, pairs in (("wall", wall), ("cpu", cpu)):
        change, (lo, hi) = p50_change(pairs)
        print(f"{name}: p50 A {statistics.median(y for _, y in pairs):.2f} ms, "
              f"B {statistics.median(x for x, _ in pairs):.2f} ms, "
              f"B {change:+.1f}% [{lo:+.1f}, {hi:+.1f}]")
    print(f"runs {len(wall)}, outputs differing {differ}")


if __name__ == "__main__":
    main()
