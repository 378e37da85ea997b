import os, sqlite3, subprocess, sys, time, statistics
bin_, db, nq, rep = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
tool = sys.argv[5] if len(sys.argv) > 5 else "tri-search"
con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
max_id = con.execute("SELECT max(id) FROM paper").fetchone()[0]
step = max(1, max_id // nq)
rows = con.execute("SELECT title, abstract FROM paper WHERE id % ? = ? % ? AND length(abstract) > 50 ORDER BY id LIMIT ?", (step, 7, step, nq)).fetchall()
base = dict(os.environ, LITGRAPH_DB=db)
modes = {"async": dict(base), "sync": dict(base, LG_SYNC="1"), "off": dict(base, LITGRAPH_VERIFY_PAGES="0")}
t = {m: [] for m in modes}; ratio = {m: [] for m in modes}
order = list(modes)
for r in range(rep):
  for qi, (title, abstract) in enumerate(rows):
    q = abstract[:3000] if tool == "find-paper" else title
    d = {}
    o = order[(r + qi) % 3:] + order[:(r + qi) % 3]
    for m in o:
      s = time.perf_counter(); subprocess.run([bin_ + "/litgraph-" + tool, "--format", "jsonl", q], env=modes[m], stdout=subprocess.DEVNULL, check=True); d[m] = time.perf_counter() - s
      t[m].append(d[m])
    for m in modes: ratio[m].append(d[m] / d["off"])
off = statistics.median(t["off"])
for m in modes:
  print(f"{tool} {m:6s} p50 {1000*statistics.median(t[m]):.1f} ms change {100*(statistics.median(t[m])/off-1):+.1f}% paired {100*(statistics.median(ratio[m])-1):+.1f}%")
