"""End-to-end cases of a growing store (issue 13): what the cron recipe in
README.md (ingest, extract-keywords --missing, embed --missing) leaves
findable, and what it says about the model. Imported by run.py.
"""
import json
import os
import sqlite3

from run import lines, native, write


def case_embed_missing_says_when_new_words_call_for_a_retrain(c):
    """New papers in a vocabulary the model never saw: embed --missing says a retrain is due."""
    db = c.path("drift.db")
    c.run("ingest", "--db", db, "-q", *c.fixtures())
    c.run("embed", "--db", db, "-q")
    # Same-vocabulary papers: no drift.
    same = [native(f"S{i}", "Open access citation advantage",
                   abstract="Open access articles receive more citations than closed access "
                            "articles in many scholarly journals and disciplines, according to "
                            "large-scale analyses of citation data and altmetrics.")
            for i in range(3)]
    c.run("ingest", "--db", db, "-q", write(c.path("same.jsonl"), "\n".join(same) + "\n"))
    out, _, _ = c.run("embed", "--db", db, "--missing", "--stats")
    s = json.loads(out.strip().splitlines()[-1])
    assert s["abstracts"] == 3 and s["retrain_due"] is False, s
    assert s["unknown_words_new"] is not None and s["unknown_words_old"] is not None, s
    # Papers whose words the model has never seen.
    words = ["zorblat", "quindex", "fentrap", "morvane", "glistor", "prandel", "votrick",
             "sembrix", "ulkator", "draxen", "pellium", "ostravy"]
    new = [native(f"N{i}", f"{words[i]} {words[i + 1]} {words[i + 2]}",
                  abstract=" ".join(words[(i + k) % len(words)] for k in range(40)))
           for i in range(5)]
    c.run("ingest", "--db", db, "-q", write(c.path("new.jsonl"), "\n".join(new) + "\n"))
    out, err, _ = c.run("embed", "--db", db, "--missing", "--stats")
    s = json.loads(out.strip().splitlines()[-1])
    assert s["abstracts"] == 5, s
    assert s["retrain_due"] is True, s
    assert s["unknown_words_new"] > 0.9, s
    assert "unknown to the model" in s["retrain_reason"], s
    assert "run with --train" in err, err


def case_cron_recipe_makes_papers_of_new_words_findable_by_every_path(c):
    """The cron recipe on papers whose words the model never saw: every path finds them first."""
    db = c.path("cron.db")
    c.run("ingest", "--db", db, "-q", *c.fixtures())
    c.run("extract-keywords", "--db", db, "-q")
    c.run("embed", "--db", db, "-q")
    new = [native("BUS1", "BusTUC: a natural language bus route oracle",
                  abstract="The BusTUC system answers questions about bus routes and "
                           "timetables in Trondheim; the oracle parses the question."),
           native("ZOR1", "Zorblat quindex fentrap", abstract="zorblat quindex fentrap morvane")]
    c.run("ingest", "--db", db, "-q", write(c.path("cron.jsonl"), "\n".join(new) + "\n"))
    c.run("extract-keywords", "--db", db, "--missing", "-q")
    c.run("embed", "--db", db, "--missing", "-q")
    for query, want in (("bus route oracle", "BUS1"), ("zorblat quindex", "ZOR1")):
        for tool, args in (("tri-search", []), ("find-paper", ["--semantic"]),
                           ("find-paper", ["--hybrid"]), ("find-paper", [])):
            out, _, _ = c.run(tool, "--db", db, *args, *query.split(), "-n", "3")
            got = [r["id"] for r in lines(out)]
            assert got and got[0] == want, (tool, args, query, got)


def case_tri_search_answers_from_bm25_before_embed(c):
    """A store ingested but not embedded: tri-search finds what BM25 puts first (in its top 10)."""
    db = c.path("plain.db")
    c.run("ingest", "--db", db, "-q", *c.fixtures())
    con = sqlite3.connect(f"file:{db}/litgraph.sqlite?mode=ro", uri=True)
    # Cited papers: a paper nothing links to can rank below the graph's
    # (the short-query profile weighs the walk at 0.75), with vectors too.
    papers = [{"title": t} for (t,) in con.execute(
        "select title from paper where length(title) > 30 order by cited_by_count desc, id "
        "limit 5")]
    con.close()
    assert len(papers) == 5, papers
    for p in papers:
        bm25, _, _ = c.run("find-paper", "--db", db, "--format", "jsonl", "-n", "1", p["title"])
        tri, _, _ = c.run("tri-search", "--db", db, "--format", "jsonl", "-n", "10", p["title"])
        got = [r["id"] for r in lines(tri)]
        assert lines(bm25)[0]["id"] in got, (p["title"], got, bm25)
        report, _, _ = c.run("tri-search", "--db", db, "-n", "3", "--explain", p["title"])
        assert "BM25 stood in" in report, report
    # Once embedded, the semantic path is back.
    c.run("embed", "--db", db, "-q")
    report, _, _ = c.run("tri-search", "--db", db, "-n", "3", "--explain", papers[0]["title"])
    assert "BM25 stood in" not in report, report


def case_cron_recipe_embeds_changed_papers_again(c):
    """A paper whose abstract changed: status says its vectors are stale, embed --missing
    embeds it again (and only it), and the semantic path finds it by its new text."""
    db = c.path("changed.db")
    c.run("ingest", "--db", db, "-q", *c.fixtures())
    c.run("embed", "--db", db, "-q")
    # Texts whose vector is all zero (no known word) count as embedded by every run.
    out, _, _ = c.run("embed", "--db", db, "--missing", "--stats")
    base = json.loads(out.strip().splitlines()[-1])
    query = "bus route oracle timetable questions Trondheim"
    out, _, _ = c.run("find-paper", "--db", db, "--semantic", *query.split(), "-n", "1")
    before = lines(out)[0]["id"]
    out, _, _ = c.run("find-paper", "--db", db, "--id", "W2741809807")
    title = lines(out)[0]["title"]
    changed = native("W2741809807", title,
                     abstract="The BusTUC system answers questions about bus routes and "
                              "timetables in Trondheim; the oracle parses the question.",
                     updated_date="2099-01-01")
    c.run("ingest", "--db", db, "-q", write(c.path("changed.jsonl"), changed + "\n"))
    out, _, _ = c.run("status", "--db", db, "--format", "jsonl", expect=1)
    st = lines(out)[0]
    assert st["vectors"]["papers_with_stale_vectors"] == 1, st["vectors"]
    assert any("changed title or abstract" in p for p in st["problems"]), st["problems"]
    out, _, _ = c.run("embed", "--db", db, "--missing", "--stats")
    s = json.loads(out.strip().splitlines()[-1])
    assert s["changed"] == 1, s
    assert (s["abstracts"], s["titles"]) == (base["abstracts"] + 1, base["titles"] + 1), (base, s)
    out, _, _ = c.run("find-paper", "--db", db, "--semantic", *query.split(), "-n", "1")
    assert lines(out)[0]["id"] == "W2741809807" != before, (before, out)
    out, _, _ = c.run("status", "--db", db, "--format", "jsonl", expect=None)
    assert lines(out)[0]["vectors"]["papers_with_stale_vectors"] == 0, out
    out, _, _ = c.run("embed", "--db", db, "--missing", "--stats")
    s = json.loads(out.strip().splitlines()[-1])
    assert s["changed"] == 0 and s["abstracts"] == base["abstracts"], (base, s)


def case_updates_keep_a_lexical_delta_until_compacted(c):
    """An update indexes the changed and new papers in a delta beside the carried-over base:
    BM25 and the fuzzy title index find a changed paper by its new text and no longer by its
    old one; status counts the delta; ingest --compact with no input folds it in, with the
    same answers."""
    db = c.path("delta.db")
    c.run("ingest", "--db", db, "-q", *c.fixtures())
    out, _, _ = c.run("find-paper", "--db", db, "--id", "W2741809807")
    old_title = lines(out)[0]["title"]
    out, _, _ = c.run("find-paper", "--db", db, *old_title.split(), "-n", "1")
    assert lines(out)[0]["id"] == "W2741809807", out
    new_title = "Quokkafresh lexicons for bus route oracles"
    changed = native("W2741809807", new_title, abstract="quokkafresh marsupial timetables",
                     updated_date="2099-01-01")
    added = native("BUS2", "Marsupial quokkafresh sightings", abstract="quokkafresh oracle")
    c.run("ingest", "--db", db, "-q", write(c.path("delta.jsonl"), changed + "\n" + added + "\n"))
    graph = sorted(d for d in os.listdir(db) if d.startswith("graph."))[-1]
    files = set(os.listdir(os.path.join(db, graph)))
    assert {"delta.lexicon", "delta.postings", "delta.mask", "title.delta.mask"} <= files, files
    out, _, _ = c.run("status", "--db", db, "--format", "jsonl", expect=None)
    assert lines(out)[0]["graph"]["lexical_delta_papers"] == 2, out

    def answers():
        got = {}
        for q in ("quokkafresh", "marsupial timetables", old_title):
            out, _, _ = c.run("find-paper", "--db", db, *q.split(), "-n", "5", expect=None)
            got[q] = [r["id"] for r in lines(out)]
        out, _, _ = c.run("find-paper", "--db", db, "--title", new_title, "-n", "1")
        got["title"] = [r["id"] for r in lines(out)]
        return got

    got = answers()
    assert sorted(got["quokkafresh"]) == ["BUS2", "W2741809807"], got
    assert got["marsupial timetables"][0] == "W2741809807", got
    assert "W2741809807" not in got[old_title], got  # its old words are masked
    assert got["title"] == ["W2741809807"], got
    c.run("ingest", "--db", db, "--compact", "-q", stdin="")
    graph = sorted(d for d in os.listdir(db) if d.startswith("graph."))[-1]
    assert not any("delta" in f for f in os.listdir(os.path.join(db, graph))), graph
    out, _, _ = c.run("status", "--db", db, "--format", "jsonl", expect=None)
    assert lines(out)[0]["graph"]["lexical_delta_papers"] == 0, out
    compacted = answers()
    # The same answers (the tail of a long query's top 5 may move: statistics are exact again).
    for q in ("quokkafresh", "title"):
        assert sorted(compacted[q]) == sorted(got[q]), (q, got[q], compacted[q])
    assert compacted["marsupial timetables"][0] == "W2741809807", compacted
    assert "W2741809807" not in compacted[old_title], compacted


def case_embed_missing_keeps_a_vector_delta_until_compacted(c):
    """embed --missing writes the changed and new papers' vectors into a delta beside the
    linked base files: the semantic path finds a changed paper by its new text and not by its
    old one, status counts the delta, and --compact folds it into new base files with the
    same answers."""
    db = c.path("vdelta.db")
    c.run("ingest", "--db", db, "-q", *c.fixtures())
    c.run("embed", "--db", db, "-q")
    base_gen = sorted(d for d in os.listdir(db) if d.startswith("vectors."))[-1]
    inodes = {f: os.stat(os.path.join(db, base_gen, f)).st_ino
              for f in ("abstract.vec", "abstract.hnsw")}
    out, _, _ = c.run("find-paper", "--db", db, "--id", "W2741809807")
    old = lines(out)[0]
    old_query = old["title"]
    changed = native("W2741809807", "Bus route oracles for Trondheim timetables",
                     abstract="The BusTUC system answers questions about bus routes and "
                              "timetables in Trondheim; the oracle parses the question.",
                     updated_date="2099-01-01")
    added = native("BUS3", "A question answering oracle for bus timetables",
                   abstract="Natural language questions about bus routes, stops and "
                            "timetables are parsed and answered by an oracle.")
    c.run("ingest", "--db", db, "-q", write(c.path("vd.jsonl"), changed + "\n" + added + "\n"))
    out, _, _ = c.run("embed", "--db", db, "--missing", "--stats")
    s = json.loads(out.strip().splitlines()[-1])
    assert s["compacted"] is False and s["delta_rows"] >= 4, s
    gen = sorted(d for d in os.listdir(db) if d.startswith("vectors."))[-1]
    files = set(os.listdir(os.path.join(db, gen)))
    assert {"abstract.delta.ids", "abstract.delta.vec", "title.delta.ids"} <= files, files
    # The base files are the old generation's, linked, not rewritten.
    for f, inode in inodes.items():
        assert os.stat(os.path.join(db, gen, f)).st_ino == inode, f
    out, _, _ = c.run("status", "--db", db, "--format", "jsonl", expect=None)
    assert lines(out)[0]["vectors"]["delta_rows"] == s["delta_rows"], out

    def answers():
        got = {}
        for q in ("bus route oracle timetables Trondheim", old_query):
            out, _, _ = c.run("find-paper", "--db", db, "--semantic", *q.split(), "-n", "3",
                              expect=None)
            got[q] = [(r["id"], round(r["score"], 5)) for r in lines(out)]
        return got

    got = answers()
    ids = [i for i, _ in got["bus route oracle timetables Trondheim"]]
    assert sorted(ids[:2]) == ["BUS3", "W2741809807"], got
    assert "W2741809807" not in [i for i, _ in got[old_query]], got  # its old vector is masked
    out, _, _ = c.run("embed", "--db", db, "--missing", "--compact", "--stats")
    s = json.loads(out.strip().splitlines()[-1])
    assert s["compacted"] is True and s["delta_rows"] == 0, s
    gen = sorted(d for d in os.listdir(db) if d.startswith("vectors."))[-1]
    assert not any("delta" in f for f in os.listdir(os.path.join(db, gen))), gen
    out, _, _ = c.run("status", "--db", db, "--format", "jsonl", expect=None)
    assert lines(out)[0]["vectors"]["delta_rows"] == 0, out
    assert answers() == got


def case_compact_at_moves_the_folds(c):
    """--compact-at sets when the deltas fold: 0 folds on every update, 100 leaves a delta of
    more than 20% of the papers (which the default folds) to a later run: an ingest with no
    input at --compact-at 0, embed --missing --compact."""
    db = c.path("cat.db")
    c.run("ingest", "--db", db, "-q", *c.fixtures())
    c.run("embed", "--db", db, "-q")

    def latest(kind):
        gen = sorted((d for d in os.listdir(db) if d.startswith(kind + ".")),
                     key=lambda d: int(d.split(".")[1]))[-1]
        return set(os.listdir(os.path.join(db, gen)))

    one = native("CAT0", "Quokka timetables", abstract="quokka timetables for bus routes")
    c.run("ingest", "--db", db, "-q", "--compact-at", "0", write(c.path("c0.jsonl"), one + "\n"))
    assert not any("delta" in f for f in latest("graph")), latest("graph")
    out, _, _ = c.run("embed", "--db", db, "--missing", "--compact-at", "0", "--stats")
    assert json.loads(out.strip().splitlines()[-1])["compacted"] is True, out
    # Two updates of 40 new papers: a delta of 80, more than 20% of the store, which the
    # default would fold (an update of more than a quarter would rebuild the graph anyway).
    for b in range(2):
        many = [native(f"CAT{b}-{i}", f"Marsupial survey number {i} of {b}",
                       abstract=f"quokka wallaby census {i} in western australia")
                for i in range(40)]
        batch = write(c.path(f"c{b + 1}.jsonl"), "\n".join(many) + "\n")
        c.run("ingest", "--db", db, "-q", "--compact-at", "100", batch)
        assert "delta.lexicon" in latest("graph"), latest("graph")
    out, _, _ = c.run("status", "--db", db, "--format", "jsonl", expect=None)
    assert lines(out)[0]["graph"]["lexical_delta_papers"] == 80, out
    out, _, _ = c.run("embed", "--db", db, "--missing", "--compact-at", "100", "--stats")
    s = json.loads(out.strip().splitlines()[-1])
    assert s["compacted"] is False and s["delta_rows"] >= 160, s
    out, _, _ = c.run("find-paper", "--db", db, "--semantic", "quokka", "wallaby", "census", "-n",
                      "3")
    assert all(r["id"].startswith("CAT") for r in lines(out)), out
    # An update with no input changes nothing, unless a fold is due: --compact-at 0 folds the
    # delta from its runs (ingest --compact would rebuild every graph file).
    c.run("ingest", "--db", db, "-q", "--compact-at", "100", stdin="")
    assert "delta.lexicon" in latest("graph"), latest("graph")
    c.run("ingest", "--db", db, "-q", "--compact-at", "0", stdin="")
    assert not any("delta" in f for f in latest("graph")), latest("graph")
    out, _, _ = c.run("status", "--db", db, "--format", "jsonl", expect=None)
    assert lines(out)[0]["graph"]["lexical_delta_papers"] == 0, out
    out, _, _ = c.run("find-paper", "--db", db, "quokka", "wallaby", "census", "-n", "3")
    assert all(r["id"].startswith("CAT") for r in lines(out)), out
    out, _, _ = c.run("embed", "--db", db, "--missing", "--compact", "--stats")
    assert json.loads(out.strip().splitlines()[-1])["compacted"] is True, out
    _, err, _ = c.run("embed", "--db", db, "--missing", "--compact-at", "-1", expect=2)
    assert "--compact-at" in err, err


def case_writers_replace_derived_files_of_an_older_release(c):
    """A generation without a MANIFEST (an older release): readers say which tool
    rebuilds it, and that tool does."""
    import glob
    import os
    db = c.path("older.db")
    c.run("ingest", "--db", db, "-q", *c.fixtures())
    c.run("embed", "--db", db, "-q")
    [vec] = glob.glob(os.path.join(db, "vectors.*"))
    for name in ("MANIFEST", "PIN"):  # what an older release left
        os.remove(os.path.join(vec, name))
    _, err, rc = c.run("find-paper", "--db", db, "--semantic", "citation", expect=None)
    assert rc != 0 and "run litgraph-embed --train" in err, (rc, err)
    c.run("embed", "--db", db, "--train", "-q")
    out, _, _ = c.run("find-paper", "--db", db, "--semantic", "citation", "-n", "1")
    assert len(lines(out)) == 1, out
    assert not os.path.exists(vec), os.listdir(db)
