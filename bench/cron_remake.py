#!/usr/bin/python3
"""A second cron upsert from one cron_bench.py already applied in place, without the generator.

    python3 bench/cron_remake.py UPSERT.jsonl OUT.jsonl [--new-prefix W1070 --to W1071]
        [--date 2026-01-15] [--prefix "Revised "]

cron_bench.py's upsert holds 50k changed works (stored ids) and 50k new ones (ids from
W1070000000 at 10M). Once applied, re-applying it changes nothing. This rewrites it into a
fresh one of the same shape, in ~1 min instead of the generator's ~12 min at 10M:
- every id with the new works' prefix gets another prefix, references to them included. So
  the new works are new again, and references between them still resolve;
- the changed works get --prefix ("Revised ") before their title;
- every work gets a later updated_date (--date; a third upsert needs a later one than the
  second's).
"""
import argparse
import json

ap = argparse.ArgumentParser()
ap.add_argument("src")
ap.add_argument("dst")
ap.add_argument("--new-prefix", default="W1070")
ap.add_argument("--to", default="W1071")
ap.add_argument("--date", default="2026-01-15")
ap.add_argument("--prefix", default="Revised ")
a = ap.parse_args()
old, new = f"openalex.org/{a.new_prefix}", f"openalex.org/{a.to}"
with open(a.src) as f, open(a.dst, "w") as o:
    for line in f:
        d = json.loads(line.replace(old, new))
        if new not in d["id"]:
            d["title"] = d["display_name"] = a.prefix + d["title"]
        d["updated_date"] = f"{a.date}T00:00:00.000000"
        o.write(json.dumps(d, separators=(",", ":")) + "\n")
