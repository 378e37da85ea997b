// litgraph-find-paper: finds papers in a store.
//
// Reads a query from its arguments (free text, --id, --doi, --title,
// --author, --like example papers, filters); with --like - or
// --candidates -, ids from standard input. Writes one JSON line per paper found, best first:
// the paper fields of litgraph-json(7) plus rank, score and match.
// Exit codes: 0 found, 1 nothing matched or a --like paper is not in the
// store, 2 usage, 3 malformed ids on stdin, 4 store error, 5 internal.
#include <fmt/format.h>

#include <algorithm>

#include "litgraph/find.h"
#include "litgraph/jsonl.h"
#include "litgraph/render.h"
#include "litgraph/store.h"
#include "tool.h"

namespace {

using namespace litgraph;

Manual ToolManual() {
  Manual man;
  man.synopsis = "[OPTIONS] [QUERY...]";
  man.description =
      "Finds papers in the store by external id, DOI, title, author or free text, best match "
      "first.\n\n"
      "Free text (QUERY) is ranked by BM25 over title and abstract through the store's "
      "impact-ordered lexical index, so a whole abstract or a query of common words answers "
      "in milliseconds. --title matches the normalized title exactly (letters only, lowercase) "
      "and otherwise fuzzily with SciAtlas' title score (0.65 LCS ratio + 0.35 token Jaccard), "
      "keeping matches >= 0.88. --author matches every word of the name (diacritics folded); "
      "with a QUERY too, that author's papers are ranked by the text.\n\n"
      "--semantic matches free text against title and abstract vectors (litgraph-embed): the "
      "top 60 by each, scored 0.4 x title cosine + 0.6 x abstract cosine (SciAtlas' semantic "
      "score). "
      "--hybrid fuses the BM25 and semantic rankings by reciprocal rank fusion (--fusion rrf, "
      "1/(60 + rank) summed) or by averaging min-max normalized scores (--fusion linear). "
      "--candidates restricts any text ranking to a given set of papers, each scored: "
      "re-ranking someone else's list.\n\n"
      "--like ID (query by example: repeatable, ids, DOIs or exact titles separated by commas, "
      "- for ids on standard input) ranks papers like stored ones: BM25 with the examples' "
      "title and abstract, --like-terms most informative terms of them (weight x IDF; 0 = all), "
      "--semantic with their stored title and abstract vectors (blended 0.4 / 0.6, no model "
      "call), --hybrid both fused. The examples are never returned; match says like_text, "
      "like_semantic or like_hybrid. --like is a query of its own: free text, --id, --doi, "
      "--title or --author with it is a usage error; filters and --candidates apply. A --like "
      "paper that is not in the store is an error naming it (exit 1).\n\n"
      "--after and --before keep papers published in or after / in or before a year; "
      "--venue keeps papers whose venue name contains the given words (or whose venue id or "
      "ISSN-L equals it); --type keeps an OpenAlex work type (article, preprint, ...).\n\n"
      "Citation metrics (litgraph-metrics): --where FIELD OP NUMBER keeps papers whose metric "
      "satisfies the condition (repeatable, all must hold; FIELD one of cd, cd_no_nk, n_i, n_j, "
      "n_k, cited_by_in_store, pagerank, citation_percentile, novelty, conventionality, "
      "novelty_pairs; OP one of < <= > >= = !=); a paper whose metric is null (e.g. CD "
      "undefined) never satisfies it. The filter applies before the ranking is cut to --limit. "
      "A metric named by --where, --fields or --sort is added to each record, so --sort cd "
      "orders the hits by their CD index. The values are read from the store's metrics file "
      "(litgraph-metrics --build) when it is current; otherwise the CD index (window 5) is "
      "computed for each paper considered, and pagerank and citation_percentile for the whole "
      "graph in memory (a note says so); novelty needs a file built with --novelty.";
  man.input =
      "Nothing on standard input, unless --like - or --candidates - is given: paper ids, one a "
      "line, or JSON lines with an \"id\" field (another tool's output).";
  man.output =
      "One JSON object per paper: id, type (\"paper\"), title, year, venue, authors, "
      "cited_by_count, citation_source, doi, rank (1-based), score and match (id, doi, "
      "title_exact, title_fuzzy, author, author+text, text, semantic, hybrid, like_text, "
      "like_semantic or like_hybrid). Scores are "
      "comparable within "
      "one match kind: 1 for id/DOI/exact title, the title similarity (0.65 x sequence ratio + "
      "0.35 x word overlap) for fuzzy titles, BM25 "
      "for text.";
  man.exit_status = "Exit 1 when nothing matches, or when a --like paper is not in the store.";
  man.examples = {
      {"litgraph-find-paper --db lib.db graph neural networks for molecules", "Free-text search."},
      {"litgraph-find-paper --db lib.db --doi https://doi.org/10.7717/peerj.4375",
       "Look up a DOI."},
      {"litgraph-find-paper --db lib.db --title 'The state of OA' --limit 3",
       "Exact, then fuzzy, title match."},
      {"litgraph-find-paper --db lib.db --author 'Heather Piwowar' --after 2015 open access",
       "An author's recent papers about a topic."},
      {"litgraph-find-paper --db lib.db --hybrid --like W2741809807",
       "Papers like a stored one (text and vectors fused)."},
      {"litgraph-find-paper --db lib.db --where 'cd>=0.5' --sort pagerank word embeddings",
       "Disruptive papers about a topic, the most central first."}};
  return man;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace litgraph;
  Tool tool("find-paper", ToolManual(), PaperFormats());
  tool.AddShapingOptions();
  std::vector<std::string> words;
  FindQuery q;
  auto& app = tool.app();
  app.add_option("query", words, "Free text ranked by BM25 over title and abstract")
      ->type_name("TEXT");
  app.add_option("--id", q.id, "External id (W123..., native id or OpenAlex URL)")->type_name("ID");
  app.add_option("--doi", q.doi, "DOI, bare or as a URL")->type_name("DOI");
  app.add_option("--title", q.title, "Title: exact normalized match, then fuzzy")
      ->type_name("TITLE");
  app.add_option("--author", q.author, "Author name")->type_name("NAME");
  app.add_option("--after", q.after, "Keep papers published in or after YEAR")
      ->type_name("YEAR")
      ->check(NumberIn(0, 9999));
  app.add_option("--before", q.before, "Keep papers published in or before YEAR")
      ->type_name("YEAR")
      ->check(NumberIn(0, 9999));
  app.add_option("--venue", q.venue,
                 "Keep papers from a venue: exact name, else names with these words; id or ISSN-L")
      ->type_name("VENUE");
  app.add_option("--type", q.type, "Keep one OpenAlex work type (article, preprint, ...)")
      ->type_name("TYPE");
  std::vector<std::string> like;
  app.add_option("--like", like,
                 "Papers like these stored ones (ids, DOIs or titles; commas; - = stdin)")
      ->allow_extra_args(false)
      ->type_name("ID");
  app.add_option("--like-terms", q.like_terms,
                 "With --like: BM25 terms of the examples kept, by weight x IDF (0 = all)")
      ->type_name("N")
      ->check(NumberIn<size_t>(0, 100000));
  bool semantic = false, hybrid = false;
  std::string candidates;
  app.add_flag("--semantic", semantic, "Match free text by title and abstract vectors");
  app.add_flag("--hybrid", hybrid, "Match free text by BM25 and vectors, fused (see --fusion)");
  std::string fusion = "rrf";
  app.add_option("--fusion", fusion, "Hybrid fusion: rrf (default) or linear")
      ->check(CLI::IsMember({"rrf", "linear"}));
  app.add_option("--candidates", candidates,
                 "Rank only these papers (file of ids or JSON lines; - = stdin)")
      ->type_name("FILE");
  app.add_option("-n,--limit", q.limit, "Number of results (default 20)")
      ->type_name("N")
      ->check(NumberIn<size_t>(1, 1000000));
  app.add_option("--title-threshold", q.title_threshold, "Minimum fuzzy title score (default 0.88)")
      ->type_name("X")
      ->check(NumberIn(0.0, 1.0));
  MetricSelection metrics;
  metrics.AddOptions(&app);
  return tool.Run(argc, argv, [&]() -> Status {
    LITGRAPH_RETURN_IF_ERROR(CheckYearRange(q.after, q.before));
    for (const auto& w : words) q.text += (q.text.empty() ? "" : " ") + w;
    auto store = Store::Open(tool.common().db, Store::Mode::kRead);
    if (!store.ok()) return store.status();
    if (semantic && hybrid) return Status::InvalidArgument("give --semantic or --hybrid, not both");
    if (!like.empty()) {
      if (!q.text.empty() || !q.id.empty() || !q.doi.empty() || !q.title.empty() ||
          !q.author.empty())
        return Status::InvalidArgument(
            "--like is a query of its own: give no query text, --id, --doi, --title or --author "
            "with it");
      if (candidates == "-" && std::find(like.begin(), like.end(), "-") != like.end())
        return Status::InvalidArgument("--like - and --candidates - both read standard input");
      auto ids = ResolveExamples(store->get(), like);
      if (!ids.ok()) return ids.status();
      q.like = std::move(ids.value());
    }
    q.text_match = semantic ? TextMatch::kSemantic
                   : hybrid ? TextMatch::kHybrid
                            : TextMatch::kLexical;
    q.fusion = fusion == "linear" ? Fusion::kLinear : Fusion::kRrf;
    if (!candidates.empty()) {
      std::vector<std::string> missing;
      auto ids = ReadPaperIdList(store->get(), candidates, &missing);
      if (!ids.ok()) return ids.status();
      if (!missing.empty())
        tool.Warn(fmt::format("{} candidate ids are not in the store (first: {})", missing.size(),
                              missing[0]));
      if (ids->empty()) return Status::NotFound("no candidate is in the store");
      q.candidates = std::move(ids.value());
      if (q.text.empty() && q.like.empty())
        return Status::InvalidArgument("--candidates ranks by a free-text query; give one");
    }
    PaperFinder finder(store->get());
    LITGRAPH_RETURN_IF_ERROR(metrics.Prepare(tool, store->get(), finder.graph()));
    q.accept = metrics.Accept();
    auto hits = finder.Find(q);
    if (!hits.ok()) return hits.status();
    if (hits->empty()) return Status::NotFound("no paper matches");
    Output out(tool.common().format);
    out.SetColumns(PaperColumns());
    tool.Shape(&out, store->get());
    int rank = 0;
    for (const FindHit& h : *hits) {
      auto p = (*store)->GetPaperSummary(h.paper);
      if (!p) continue;
      Json j = PaperJson(*p, finder.graph());
      j["rank"] = ++rank;
      j["score"] = h.score;
      j["match"] = MatchName(h.match);
      metrics.AddFields(&j, static_cast<uint32_t>(h.paper));
      out.Write(j);
    }
    out.Finish();
    LITGRAPH_RETURN_IF_ERROR(metrics.status());
    return finder.status();
  });
}
