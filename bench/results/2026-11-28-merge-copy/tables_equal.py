import sqlite3, sys, hashlib
def digest(path):
    c = sqlite3.connect(f"file:{path}/litgraph.sqlite?mode=ro", uri=True)
    out = {}
    for t in ["paper","author","institution","source","topic","subfield","field","domain","authorship","paper_topic","keyword","paper_keyword","keyword_extracted","keyword_pending","vectors_stale"]:
        rows = sorted(repr(r) for r in c.execute(f"SELECT * FROM {t}"))
        out[t] = (len(rows), hashlib.sha256("\n".join(rows).encode()).hexdigest()[:16])
    return out
a, b = digest(sys.argv[1]), digest(sys.argv[2])
for t in a: print(t, a[t][0], "same" if a[t] == b[t] else f"DIFFERENT {a[t]} {b[t]}")
