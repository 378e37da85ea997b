#!/usr/bin/env python3
"""tri-search latency of the adaptive default against balanced (issue 19), fresh processes.

  profile_latency.py BUILD STORE

40 stored papers spread over the id range, each queried by its title and by its abstract (first
3,000 characters) with --ranking-profile adaptive and balanced, alternating which runs first,
2 rounds. Prints wall p50 / p90 / max and CPU p50 per query kind and profile.
"""
import os, sqlite3, statistics, subprocess, sys, time, resource
bin_, db = sys.argv[1], sys.argv[2]
con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
mx = con.execute("select max(id) from paper").fetchone()[0]
rows = con.execute("select title, abstract from paper where id % ? = 13 and length(abstract) > 200 limit 40", (mx // 40,)).fetchall()
con.close()
def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN); return r.ru_utime + r.ru_stime
res = {}
for rep in range(2):
    for title, abstract in rows:
        for kind, q in (("title", title), ("abstract", abstract[:3000])):
            profs = ("adaptive", "balanced") if rep % 2 == 0 else ("balanced", "adaptive")
            for prof in profs:
                c0, t0 = cpu(), time.perf_counter()
                p = subprocess.run([os.path.join(bin_, "litgraph-tri-search"), "--db", db, "--format", "jsonl", "--ranking-profile", prof, q], capture_output=True)
                wall, c = (time.perf_counter() - t0) * 1000, (cpu() - c0) * 1000
                assert p.returncode in (0, 1), p.stderr[:300]
                res.setdefault((kind, prof), []).append((wall, c))
for (kind, prof), v in sorted(res.items()):
    w = sorted(x[0] for x in v); c = sorted(x[1] for x in v)
    print(f"{kind:8} {prof:9} n={len(v)} wall p50 {statistics.median(w):6.1f} p90 {w[int(len(w)*0.9)]:6.1f} max {w[-1]:6.1f} ms  cpu p50 {statistics.median(c):6.1f} ms")
print("load", os.getloadavg())
