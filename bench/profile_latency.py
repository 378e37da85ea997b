#!/usr/bin/env python3
"""tri-search latency of the adaptive default against balanced (issue 19), fresh processes.

  profile_latency.py BUILD STORE

40 stored papers spread over the id range, each queried by its title and by its abstract (first
3,000 characters) with --ranking-profile adaptive and balanced, alternating which runs first,
2 rounds. Prints wall p50 / p90 / max and CPU p50 per query kind and profile.
"""
import os
import sqlite3
import statistics
import sys

from benchlib import pct, timed


def main():
    build, db = sys.argv[1], sys.argv[2]
    con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
    max_id = con.execute("select max(id) from paper").fetchone()[0]
    rows = con.execute("select title, abstract from paper where id % ? = 13 and "
                       "length(abstract) > 200 limit 40", (max_id // 40,)).fetchall()
    con.close()
    runs = {}  # (kind, profile) -> [(wall ms, cpu ms)]
    for rep in range(2):
        profiles = ("adaptive", "balanced") if rep % 2 == 0 else ("balanced", "adaptive")
        for title, abstract in rows:
            for kind, query in (("title", title), ("abstract", abstract[:3000])):
                for profile in profiles:
                    wall, cpu, _ = timed([os.path.join(build, "litgraph-tri-search"), "--db", db,
                                          "--format", "jsonl", "--ranking-profile", profile,
                                          query])
                    runs.setdefault((kind, profile), []).append((wall, cpu))
    for (kind, profile), v in sorted(runs.items()):
        wall = [x[0] for x in v]
        print(f"{kind:8} {profile:9} n={len(v)} wall p50 {statistics.median(wall):6.1f} "
              f"p90 {pct(wall, 90):6.1f} max {max(wall):6.1f} ms  "
              f"cpu p50 {statistics.median(x[1] for x in v):6.1f} ms")
    print("load", os.getloadavg())


if __name__ == "__main__":
    main()
