import sys, types, subprocess
sys.path.insert(0, "/work/main/bench")
import cron_bench
for k in (3, 4, 5):
    a = types.SimpleNamespace(work="/work/bench-data/cron10m", gen_seed=k, seed=k, recent=0.2, bin="/work/bench-data/bin0")
    paths, info = cron_bench.make_inputs(a, 10000000, [100000])
    src = paths[100000]
    subprocess.run(["/usr/bin/python3", "/work/main/bench/cron_remake.py", src, f"full{k}.jsonl", "--to", f"W107{k+4}",
                    "--date", f"2026-{k+4:02d}-15", "--prefix", ""], check=True)
    subprocess.run(["rm", "-f", src])
    print("done", k, flush=True)
