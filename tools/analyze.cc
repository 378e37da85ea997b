// litgraph-analyze: structural analyses of a set of papers: influential
// papers and keywords, bridging papers between communities, lineage depth,
// gaps, near-duplicate candidates.
//
// Reads the set from --field, --all, or paper ids on stdin (one a line, or
// JSON lines with an "id" field: another tool's output). Writes one
// analysis_entry record per finding, each with its evidence.
// Exit codes: 0 ok, 1 the set is empty or nothing was found, 2 usage, 3
// malformed stdin line, 4 store error (no graph, damage), 5 internal.
#include "litgraph/analyze.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <unordered_map>

#include "litgraph/find.h"
#include "litgraph/render.h"
#include "litgraph/store.h"
#include "tool.h"

namespace {

using namespace litgraph;

const std::vector<std::string> kKinds = {"influential", "bridges", "lineage", "gaps", "duplicates"};

Manual ToolManual() {
  Manual man;
  man.synopsis = "[OPTIONS] KIND... (--field FIELD | --all | < ids)";
  man.description =
      "Structural analyses of a set of papers: the papers of an OpenAlex field (--field: the "
      "field of each paper's primary topic), the whole store (--all), or a query's results "
      "(paper ids on standard input). The set is taken as the subgraph it induces: citations "
      "between its papers, their keywords, topics and authors. KIND is one or more of:\n\n"
      "influential: papers by PageRank over the set's citations (damping 0.85, the rank of "
      "papers citing nothing in the set spread over all), with their citations within the set; "
      "keywords by the summed PageRank of the set's papers that have them.\n\n"
      "bridges: papers between communities, by their participation coefficient P = 1 - sum_c "
      "(k_c / k)^2 over their k citation neighbours in the set (references and citing papers), "
      "k_c of them in community c (Guimera and Amaral 2005): 0 when every neighbour is in one "
      "community, towards 1 when they spread over many. Communities are the papers' primary "
      "topics (--communities topic, the default), a label propagation over the set's "
      "undirected citation graph (--communities citation; Raghavan et al. 2007: papers in a "
      "random order, ties broken at random, seeded by --seed, so every run gives the same "
      "communities), or a label propagation over the set's keyword graph (--communities "
      "keyword: the keywords of the set's papers, linked by the number of papers having both, "
      "are grouped, and each paper joins the group most of its keywords are in; a paper "
      "without keywords has none). Beside it, betweenness: the paper's betweenness centrality "
      "in the set's undirected citation graph (Brandes 2001; the share of the shortest paths "
      "between other pairs of papers that pass through it, each pair once, normalized by "
      "(n - 1)(n - 2) / 2), exact when --betweenness-samples is at least the set's size, else "
      "estimated from that many source papers drawn at random (default 64; seeded by --seed; "
      "Brandes and Pich 2007: the sampled sums scaled by n / samples); betweenness_exact and "
      "betweenness_sources say which. Each source costs one pass over the set's citations (64 "
      "on an 11k-paper field with 217k citations: about 0.3 s of CPU; exact: about a minute of "
      "CPU). "
      "--bridge-rank chooses the score papers are ranked by "
      "(participation, the default, or betweenness). Papers with fewer than --min-degree "
      "neighbours are left out.\n\n"
      "lineage: lineage depth, the longest chain of descendants within the set (p, a paper "
      "citing p, a paper citing that one, ...) in citation steps, with the chain. Citation "
      "cycles are condensed: the papers of a cycle share one step.\n\n"
      "gaps: detached papers (no citation to or from another paper of the set), keywords "
      "used by one paper of the set, and sparse keyword-pair cells between dense ones: among "
      "the --pair-top keywords most used in the set (each by at least 3 papers), pairs "
      "that co-occur in at most --sparse-ratio times the papers expected if they were "
      "independent (count_a x count_b / papers, at least 2 expected); score = expected - "
      "observed.\n\n"
      "duplicates: near-duplicate candidates: papers whose titles score at least "
      "--title-threshold (0.65 x sequence ratio + 0.35 x word overlap of the letters-only "
      "titles, 1 when those are equal; candidates share one of the two words of either title "
      "rarest in the set, or the whole title), authors of the set's papers with "
      "the same normalized name but different ids (score 1) or the same surname and given "
      "names equal up to initials (0.9), and keywords of the set equal up to plural endings "
      "(0.9; 1 when the same text).\n\n"
      "Each finding is one record, ranked within its kind; --limit caps each kind (total says "
      "how many there were).";
  man.input =
      "Without --field or --all, papers one per line on standard input: an id, DOI, OpenAlex URL "
      "or title, or a JSON record with an \"id\" field (other fields are ignored).";
  man.output =
      "One analysis_entry record per finding: type (\"analysis\"), analysis (the KIND), finding "
      "(influential_paper, influential_keyword, bridge_paper, lineage_depth, detached_paper, "
      "single_use_keyword, sparse_keyword_pair, duplicate_papers, duplicate_authors, "
      "duplicate_keywords), rank, total, score, subject (paper, keyword or author), id, title, "
      "year (papers), other_id and other_title (pairs) and evidence (what the finding rests "
      "on; litgraph-json(7)). With --stats, an analysis_summary record last.";
  man.exit_status = "Exit 1 when the set is empty or no finding was made.";
  man.examples = {
      {"litgraph-analyze --db lib.db influential --field 'Computer Science'",
       "The most central papers and keywords of a field."},
      {"litgraph-find-paper --db lib.db -n 500 word embeddings | litgraph-analyze --db lib.db "
       "bridges lineage",
       "Bridging papers and the deepest lineages among a search's results."},
      {"litgraph-analyze --db lib.db --all gaps duplicates",
       "Detached papers, rare keywords, sparse keyword pairs and duplicate candidates."}};
  return man;
}

struct Options {
  std::vector<std::string> kinds, ids;
  std::string field, communities = "topic", bridge_rank = "participation";
  uint32_t betweenness_samples = 64;
  uint64_t seed = 1;
  bool all = false;
  size_t limit = 20;
  uint32_t min_degree = 3;
  double title_threshold = 0.88;
  GapOptions gaps;
};

void AddOptions(CLI::App& app, Options* o) {
  app.add_option("kind", o->kinds,
                 "influential, bridges, lineage, gaps or duplicates (one or more)")
      ->check(CLI::IsMember(kKinds))
      ->type_name("KIND");
  app.add_option("--field", o->field, "The papers of an OpenAlex field (name or id)")
      ->type_name("FIELD");
  app.add_flag("--all", o->all, "Every paper of the store");
  app.add_option("--id", o->ids, "A paper of the set (repeatable; none: ids on stdin)")
      ->allow_extra_args(false)
      ->type_name("ID");
  app.add_option("-n,--limit", o->limit, "Findings per kind (default 20)")
      ->type_name("N")
      ->check(NumberIn<size_t>(1, 1000000));
  app.add_option("--communities", o->communities,
                 "bridges: topic (primary topics, default), citation or keyword (label "
                 "propagation over the citation or keyword graph)")
      ->check(CLI::IsMember({"topic", "citation", "keyword"}));
  app.add_option("--bridge-rank", o->bridge_rank,
                 "bridges: rank by participation (default) or betweenness")
      ->check(CLI::IsMember({"participation", "betweenness"}));
  app.add_option("--betweenness-samples", o->betweenness_samples,
                 "bridges: source papers of the betweenness estimate; exact when at least the "
                 "set's size (default 64)")
      ->type_name("K")
      ->check(NumberIn<uint32_t>(1, 100000000));
  app.add_option("--seed", o->seed,
                 "Seed of the communities and the betweenness sample (default 1)")
      ->type_name("N")
      ->check(NumberIn<uint64_t>(0, 999999999999));
  app.add_option("--min-degree", o->min_degree,
                 "bridges: citation neighbours in the set a paper needs (default 3)")
      ->type_name("N")
      ->check(NumberIn<uint32_t>(1, 1000000));
  app.add_option("--pair-top", o->gaps.top,
                 "gaps: dense keywords whose pairs are examined (default 30)")
      ->type_name("N")
      ->check(NumberIn<size_t>(2, 1000));
  app.add_option("--sparse-ratio", o->gaps.sparse_ratio,
                 "gaps: a pair is sparse at <= this x its expected co-occurrence (default 0.25)")
      ->type_name("X")
      ->check(NumberIn(0.0, 1.0));
  app.add_option("--title-threshold", o->title_threshold,
                 "duplicates: minimum title score (default 0.88, as find-paper --title)")
      ->type_name("X")
      ->check(NumberIn(0.5, 1.0));
}

using Clock = std::chrono::steady_clock;

class Analyzer {
 public:
  Analyzer(Store* store, Graph* graph, const PaperSet& set, const Options& o, Output* out)
      : store_(store), graph_(graph), s_(set), o_(o), out_(out) {}

  void Influential() {
    Influence inf = ComputeInfluence(s_);
    std::vector<uint32_t> order = Order([&](uint32_t a, uint32_t b) {
      return inf.pagerank[a] != inf.pagerank[b] ? inf.pagerank[a] > inf.pagerank[b] : a < b;
    });
    for (size_t r = 0; r < order.size() && r < o_.limit; ++r) {
      const uint32_t p = order[r];
      std::vector<uint32_t> citing(s_.Citers(p).begin(), s_.Citers(p).end());
      std::sort(citing.begin(), citing.end(), [&](uint32_t a, uint32_t b) {
        return inf.pagerank[a] != inf.pagerank[b] ? inf.pagerank[a] > inf.pagerank[b] : a < b;
      });
      if (citing.size() > 3) citing.resize(3);
      Emit("influential", "influential_paper", r, order.size(), inf.pagerank[p], NodeType::kPaper,
           s_.papers[p], -1,
           {{"pagerank_in_set", inf.pagerank[p]},
            {"in_set_citations", s_.Citers(p).size()},
            {"in_set_references", s_.Refs(p).size()},
            {"cited_by_count", graph_->Citations(s_.papers[p])},
            {"top_citing", PaperIds(citing)}});
    }
    for (size_t r = 0; r < inf.keywords.size() && r < o_.limit; ++r) {
      const Influence::KeywordScore& k = inf.keywords[r];
      Emit("influential", "influential_keyword", r, inf.keywords.size(), k.score,
           NodeType::kKeyword, k.keyword, -1,
           {{"pagerank_sum", k.score},
            {"papers_in_set", k.papers},
            {"top_paper", PaperId(k.top_paper)}});
    }
  }

  void Bridges() {
    std::vector<int32_t> community;
    const bool topics = o_.communities == "topic";
    if (topics)
      community = s_.topic;
    else if (o_.communities == "keyword")
      community = KeywordCommunities(s_, 50, o_.seed);
    else
      community = LabelPropagation(s_, 50, o_.seed);
    std::vector<Participation> part = ComputeParticipation(s_, community);
    const Betweenness btw = ComputeBetweenness(CitationGraph(s_), o_.betweenness_samples, o_.seed);
    const bool by_betweenness = o_.bridge_rank == "betweenness";
    auto score = [&](uint32_t p) {
      return by_betweenness ? btw.normalized[p] : part[p].coefficient;
    };
    std::vector<uint32_t> order;
    for (uint32_t p = 0; p < s_.size(); ++p)
      if (part[p].degree >= o_.min_degree && score(p) > 0) order.push_back(p);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      if (score(a) != score(b)) return score(a) > score(b);
      if (part[a].degree != part[b].degree) return part[a].degree > part[b].degree;
      return a < b;
    });
    auto name = [&](int32_t c) -> Json {
      if (c < 0) return nullptr;
      if (!topics) return fmt::format("{}{}", o_.communities == "keyword" ? "k" : "c", c);
      auto label = store_->NodeLabel(NodeType::kTopic, c);
      return label ? label->second : std::to_string(c);
    };
    for (size_t r = 0; r < order.size() && r < o_.limit; ++r) {
      const uint32_t p = order[r];
      std::map<int64_t, uint32_t> count;
      auto add = [&](uint32_t q) {
        ++count[community[q] >= 0 ? community[q] : -1 - static_cast<int64_t>(q)];
      };
      for (uint32_t q : s_.Refs(p)) add(q);
      for (uint32_t q : s_.Citers(p)) add(q);
      std::vector<std::pair<uint32_t, int64_t>> by_size;
      for (auto [c, k] : count) by_size.emplace_back(k, c);
      std::sort(by_size.begin(), by_size.end(), [](auto a, auto b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
      });
      Json neighbours = Json::array();
      for (size_t i = 0; i < by_size.size() && i < 5; ++i)
        neighbours.push_back(
            {{"community", by_size[i].second >= 0 ? name(static_cast<int32_t>(by_size[i].second))
                                                  : Json(nullptr)},
             {"papers", by_size[i].first}});
      Emit("bridges", "bridge_paper", r, order.size(), score(p), NodeType::kPaper, s_.papers[p], -1,
           {{"participation", part[p].coefficient},
            {"betweenness", btw.normalized[p]},
            {"betweenness_pairs", btw.value[p]},
            {"betweenness_exact", btw.exact},
            {"betweenness_sources", btw.sources},
            {"rank_by", o_.bridge_rank},
            {"degree", part[p].degree},
            {"communities", part[p].communities},
            {"community", name(community[p])},
            {"community_source", o_.communities},
            {"neighbour_communities", neighbours}});
    }
  }

  void Lineage() {
    std::vector<LineageDepth> d = ComputeLineageDepths(s_);
    std::vector<uint32_t> order;
    for (uint32_t p = 0; p < s_.size(); ++p)
      if (d[p].depth > 0) order.push_back(p);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      if (d[a].depth != d[b].depth) return d[a].depth > d[b].depth;
      if (s_.Citers(a).size() != s_.Citers(b).size())
        return s_.Citers(a).size() > s_.Citers(b).size();
      return a < b;
    });
    for (size_t r = 0; r < order.size() && r < o_.limit; ++r) {
      const uint32_t p = order[r];
      std::vector<uint32_t> chain = LineageChain(d, p);
      Json years = Json::array();
      for (uint32_t q : chain) years.push_back(s_.years[q] ? Json(s_.years[q]) : Json(nullptr));
      Emit("lineage", "lineage_depth", r, order.size(), d[p].depth, NodeType::kPaper, s_.papers[p],
           -1,
           {{"depth", d[p].depth},
            {"in_set_citations", s_.Citers(p).size()},
            {"chain", PaperIds(chain)},
            {"chain_years", years}});
    }
  }

  void GapsKind() {
    Gaps g = ComputeGaps(s_, o_.gaps);
    for (size_t r = 0; r < g.detached.size() && r < o_.limit; ++r) {
      const uint32_t p = g.detached[r];
      Emit("gaps", "detached_paper", r, g.detached.size(), 0, NodeType::kPaper, s_.papers[p], -1,
           {{"references_in_store", graph_->adj(Rel::kCitesOut).Degree(s_.papers[p])},
            {"cited_by_in_store", graph_->InStoreCitations(s_.papers[p])},
            {"papers_in_set", s_.size()}});
    }
    for (size_t r = 0; r < g.single_use.size() && r < o_.limit; ++r) {
      auto [k, p] = g.single_use[r];
      Emit(
          "gaps", "single_use_keyword", r, g.single_use.size(), 1, NodeType::kKeyword, k, -1,
          {{"paper", PaperId(p)}, {"papers_in_store", graph_->adj(Rel::kKeywordPapers).Degree(k)}});
    }
    for (size_t r = 0; r < g.sparse_pairs.size() && r < o_.limit; ++r) {
      const KeywordPairGap& x = g.sparse_pairs[r];
      Emit("gaps", "sparse_keyword_pair", r, g.sparse_pairs.size(), x.expected - x.observed,
           NodeType::kKeyword, x.a, x.b,
           {{"count_a", x.count_a},
            {"count_b", x.count_b},
            {"observed", x.observed},
            {"expected", x.expected},
            {"papers_in_set", s_.size()}});
    }
  }

  void Duplicates() {
    std::vector<std::string> titles(s_.size());
    for (uint32_t p = 0; p < s_.size(); ++p)
      titles[p] = store_->GetText(TextColumn::kPaperTitle, s_.papers[p]);
    std::vector<DuplicatePair> papers = DuplicateTitles(titles, o_.title_threshold);
    for (size_t r = 0; r < papers.size() && r < o_.limit; ++r) {
      const DuplicatePair& x = papers[r];
      Emit("duplicates", "duplicate_papers", r, papers.size(), x.score, NodeType::kPaper,
           s_.papers[x.a], s_.papers[x.b],
           {{"reason", x.reason},
            {"title_similarity", x.score},
            {"years", {Year(x.a), Year(x.b)}},
            {"dois", {Doi(x.a), Doi(x.b)}}});
    }
    // Authors and keywords of the set's papers.
    std::vector<uint32_t> authors, keywords(s_.keywords.begin(), s_.keywords.end());
    Adjacency& by = graph_->adj(Rel::kAuthors);
    for (uint32_t p : s_.papers)
      for (uint32_t a : by.Neighbours(p).ids) authors.push_back(a);
    auto names = [&](NodeType t, std::vector<uint32_t>& ids) {
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
      std::vector<std::pair<uint32_t, std::string>> out;
      for (uint32_t id : ids)
        if (auto l = store_->NodeLabel(t, id)) out.emplace_back(id, l->second);
      return out;
    };
    std::vector<DuplicatePair> people = DuplicateNames(names(NodeType::kAuthor, authors));
    Adjacency& authored = graph_->adj(Rel::kAuthoredPapers);
    for (size_t r = 0; r < people.size() && r < o_.limit; ++r) {
      const DuplicatePair& x = people[r];
      Emit("duplicates", "duplicate_authors", r, people.size(), x.score, NodeType::kAuthor, x.a,
           x.b,
           {{"reason", x.reason},
            {"papers_in_store", {authored.Degree(x.a), authored.Degree(x.b)}}});
    }
    std::vector<DuplicatePair> kws = DuplicateKeywords(names(NodeType::kKeyword, keywords));
    Adjacency& kp = graph_->adj(Rel::kKeywordPapers);
    for (size_t r = 0; r < kws.size() && r < o_.limit; ++r) {
      const DuplicatePair& x = kws[r];
      Emit("duplicates", "duplicate_keywords", r, kws.size(), x.score, NodeType::kKeyword, x.a, x.b,
           {{"reason", x.reason}, {"papers_in_store", {kp.Degree(x.a), kp.Degree(x.b)}}});
    }
  }

  size_t findings() const { return findings_; }

 private:
  template <typename Less>
  std::vector<uint32_t> Order(Less less) {
    std::vector<uint32_t> order(s_.size());
    for (uint32_t p = 0; p < s_.size(); ++p) order[p] = p;
    std::sort(order.begin(), order.end(), less);
    return order;
  }
  std::string PaperId(uint32_t local) {
    return NodeExtId(store_, NodeType::kPaper, s_.papers[local]);
  }
  Json PaperIds(const std::vector<uint32_t>& local) {
    Json a = Json::array();
    for (uint32_t p : local) a.push_back(PaperId(p));
    return a;
  }
  Json Year(uint32_t local) { return s_.years[local] ? Json(s_.years[local]) : Json(nullptr); }
  Json Doi(uint32_t local) {
    auto p = store_->GetPaperSummary(s_.papers[local]);
    return p && !p->doi.empty() ? Json(p->doi) : Json(nullptr);
  }
  void Emit(const std::string& analysis, const std::string& finding, size_t r, size_t total,
            double score, NodeType subject, int64_t id, int64_t other, Json evidence) {
    out_->Write(AnalysisJson(store_, analysis, finding, static_cast<int>(r + 1), total, score,
                             subject, id, other, std::move(evidence)));
    ++findings_;
  }

  Store* store_;
  Graph* graph_;
  const PaperSet& s_;
  const Options& o_;
  Output* out_;
  size_t findings_ = 0;
};

Status Run(Tool& tool, Options& o) {
  const auto t0 = Clock::now();
  if (o.kinds.empty())
    return Status::InvalidArgument(
        "give a KIND: influential, bridges, lineage, gaps or duplicates (one or more)");
  if (o.all + !o.field.empty() + !o.ids.empty() > 1)
    return Status::InvalidArgument("give one set: --field, --all, --id or ids on stdin");
  auto store = Store::Open(tool.common().db, Store::Mode::kRead);
  if (!store.ok()) return store.status();
  PaperFinder finder(store->get());
  Graph* graph = finder.graph();
  if (!graph) {
    LITGRAPH_RETURN_IF_ERROR(finder.status());
    return Status::IoError((*store)->dir() + ": the store has no graph yet (run litgraph-ingest)");
  }
  std::vector<uint32_t> papers;
  size_t missing = 0;
  if (o.all) {
    papers = AllPapers(*graph);
  } else if (!o.field.empty()) {
    auto f = PapersOfField(store->get(), *graph, o.field);
    if (!f.ok()) return f.status();
    papers = std::move(f.value());
  } else {
    auto resolved = ResolvePapers(
        tool, finder, &o.ids, "no papers given (--field, --all, --id or ids on stdin)", &missing);
    if (!resolved.ok()) return resolved.status();
    papers = std::move(resolved.value());
  }
  auto set = LoadPaperSet(*graph, std::move(papers));
  if (!set.ok()) return set.status();
  if (set->size() == 0) return Status::NotFound("the set has no paper");
  const double load_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  Output out(tool.common().format);
  out.SetColumns(AnalysisColumns());
  tool.Shape(&out, nullptr);
  Analyzer a(store->get(), graph, *set, o, &out);
  std::vector<std::string> kinds;
  for (const std::string& k : kKinds)  // each once, in the documented order
    if (std::find(o.kinds.begin(), o.kinds.end(), k) != o.kinds.end()) kinds.push_back(k);
  for (const std::string& k : kinds) {
    if (k == "influential") a.Influential();
    if (k == "bridges") a.Bridges();
    if (k == "lineage") a.Lineage();
    if (k == "gaps") a.GapsKind();
    if (k == "duplicates") a.Duplicates();
  }
  out.Finish();
  LITGRAPH_RETURN_IF_ERROR(graph->status());
  LITGRAPH_RETURN_IF_ERROR(finder.status());
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  size_t edges = set->refs.size();
  Json kinds_json = kinds;
  tool.Summary(fmt::format("{} papers, {} citations within the set: {} findings in {:.3f} s "
                           "(set read in {:.3f} s)",
                           set->size(), edges, a.findings(), seconds, load_seconds),
               {{"id", tool.common().db},
                {"type", "analysis_summary"},
                {"papers", set->size()},
                {"citations", edges},
                {"kinds", kinds_json},
                {"findings", a.findings()},
                {"load_seconds", load_seconds},
                {"seconds", seconds}});
  if (missing) return Status::NotFound("");
  if (a.findings() == 0) return Status::NotFound("no finding");
  return Status::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  Tool tool("analyze", ToolManual());
  tool.AddShapingOptions();
  tool.AddStatsFlag();
  Options o;
  AddOptions(tool.app(), &o);
  return tool.Run(argc, argv, [&] { return Run(tool, o); });
}
