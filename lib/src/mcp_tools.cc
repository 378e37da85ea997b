// The MCP tools: for each, its input schema and how its arguments become a
// command line of the litgraph executable. Descriptions and ranges follow the
// executables' --help; limits are capped at 1000 records, as a result goes
// into an agent's context.
#include <fmt/format.h>

#include "litgraph/mcp.h"

namespace litgraph::mcp {

namespace {

// How an argument reaches the executable.
enum class Kind {
  kFlag,         // boolean: --flag when true
  kValue,        // --flag=VALUE
  kRepeat,       // array: --flag=VALUE for each
  kText,         // string: one positional argument (after "--")
  kPositionals,  // array: positional arguments (after "--")
  kChoice,       // enum: the flag of the chosen value (none for the default)
  kStdinLines,   // array of strings: standard input, one a line, and --flag=-
  kStdinRecords  // array of objects: standard input as JSON lines, and --flag=- when given
};

struct Param {
  std::string name;
  Kind kind;
  std::string flag;
  Json schema;
  std::vector<std::pair<std::string, std::string>> choices = {};  // kChoice: value, flag
};

Json Str(const std::string& description) {
  return {{"type", "string"}, {"minLength", 1}, {"description", description}};
}
Json Int(int lo, int hi, const std::string& description) {
  return {{"type", "integer"}, {"minimum", lo}, {"maximum", hi}, {"description", description}};
}
Json Num(double lo, double hi, const std::string& description) {
  return {{"type", "number"}, {"minimum", lo}, {"maximum", hi}, {"description", description}};
}
Json Bool(const std::string& description) {
  return {{"type", "boolean"}, {"description", description}};
}
Json Enum(std::vector<std::string> values, const std::string& description) {
  return {{"type", "string"}, {"enum", values}, {"description", description}};
}
Json Strings(size_t max, const std::string& description, size_t min = 1) {
  return {{"type", "array"},
          {"items", {{"type", "string"}, {"minLength", 1}}},
          {"minItems", min},
          {"maxItems", max},
          {"description", description}};
}
Json Limit(int def) { return Int(1, 1000, fmt::format("Number of results (default {})", def)); }

std::string ValueText(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// Ids go to standard input one a line: a line break would split one.
Status OneLine(const std::string& name, const Json& values) {
  for (const Json& v : values)
    if (v.get_ref<const std::string&>().find_first_of("\r\n") != std::string::npos)
      return Status::InvalidArgument(name + ": an item contains a line break");
  return Status::Ok();
}

Status Append(const Param& p, const Json& v, Invocation* call, std::vector<std::string>* tail) {
  switch (p.kind) {
    case Kind::kFlag:
      if (v.get<bool>()) call->args.push_back(p.flag);
      break;
    case Kind::kValue:
      call->args.push_back(p.flag + "=" + ValueText(v));
      break;
    case Kind::kRepeat:
      for (const Json& x : v) call->args.push_back(p.flag + "=" + ValueText(x));
      break;
    case Kind::kText:
      tail->push_back(v.get<std::string>());
      break;
    case Kind::kPositionals:
      for (const Json& x : v) tail->push_back(x.get<std::string>());
      break;
    case Kind::kChoice:
      for (const auto& [value, flag] : p.choices)
        if (v == value && !flag.empty()) call->args.push_back(flag);
      break;
    case Kind::kStdinLines:
      LITGRAPH_RETURN_IF_ERROR(OneLine(p.name, v));
      for (const Json& x : v) call->input += x.get<std::string>() + "\n";
      call->args.push_back(p.flag + "=-");
      break;
    case Kind::kStdinRecords:
      for (const Json& x : v) call->input += x.dump() + "\n";
      if (!p.flag.empty()) call->args.push_back(p.flag + "=-");
      break;
  }
  return Status::Ok();
}

using Check = std::function<Status(const Json& args)>;

// Arguments of which at least one must be given.
Check AnyOf(std::vector<std::string> names) {
  return [names](const Json& args) {
    for (const std::string& n : names)
      if (args.contains(n)) return Status::Ok();
    return Status::InvalidArgument(fmt::format("give at least one of {}", fmt::join(names, ", ")));
  };
}

ToolSpec MakeTool(std::string name, std::string program, std::string title, std::string description,
                  bool writes, std::vector<std::string> record_types, std::vector<Param> params,
                  std::vector<std::string> fixed = {}, std::vector<std::string> required = {},
                  Check check = nullptr) {
  ToolSpec t;
  t.name = std::move(name);
  t.program = std::move(program);
  t.title = std::move(title);
  t.description = std::move(description);
  t.writes = writes;
  t.record_types = std::move(record_types);
  Json props = Json::object();
  for (const Param& p : params) props[p.name] = p.schema;
  t.input_schema = {{"type", "object"}, {"properties", props}, {"additionalProperties", false}};
  if (!required.empty()) t.input_schema["required"] = required;
  t.build = [params, fixed, check](const Json& args, Invocation* call) -> Status {
    if (check) LITGRAPH_RETURN_IF_ERROR(check(args));
    call->args = fixed;
    std::vector<std::string> tail;
    for (const Param& p : params)
      if (args.contains(p.name)) LITGRAPH_RETURN_IF_ERROR(Append(p, args[p.name], call, &tail));
    if (!tail.empty()) {
      call->args.push_back("--");  // free text is never an option
      call->args.insert(call->args.end(), tail.begin(), tail.end());
    }
    return Status::Ok();
  };
  return t;
}

Param YearParam(const std::string& name, const std::string& description) {
  return {name, Kind::kValue, "--" + name, Int(0, 9999, description)};
}

ToolSpec FindPaper() {
  return MakeTool(
      "find_paper", "find-paper", "Find papers",
      "Find papers in the store by id, DOI, title, author or free text (BM25 over title and "
      "abstract, or by vectors with mode semantic/hybrid). Returns paper records with rank, "
      "score and how each matched. exit_code 1 and no records: nothing found.",
      false, {"paper"},
      {{"query", Kind::kText, "", Str("Free text ranked by BM25 over title and abstract")},
       {"id", Kind::kValue, "--id", Str("External id (W123..., native id or OpenAlex URL)")},
       {"doi", Kind::kValue, "--doi", Str("DOI, bare or as a URL")},
       {"title", Kind::kValue, "--title", Str("Title: exact normalized match, then fuzzy")},
       {"author", Kind::kValue, "--author", Str("Author name")},
       {"like", Kind::kRepeat, "--like",
        Strings(100,
                "Papers like these stored ones (ids or DOIs): query by example, ranked by mode; "
                "the examples are not returned. Not with query, id, doi, title or author")},
       YearParam("after", "Keep papers published in or after this year"),
       YearParam("before", "Keep papers published in or before this year"),
       {"venue", Kind::kValue, "--venue",
        Str("Keep papers from a venue: exact name, else names with these words; id or ISSN-L")},
       {"type", Kind::kValue, "--type",
        Str("Keep one OpenAlex work type (article, preprint, ...)")},
       {"mode",
        Kind::kChoice,
        "",
        Enum({"lexical", "semantic", "hybrid"},
             "How free text matches: lexical (BM25, default), semantic (title and abstract "
             "vectors) or hybrid (both, fused)"),
        {{"lexical", ""}, {"semantic", "--semantic"}, {"hybrid", "--hybrid"}}},
       {"fusion", Kind::kValue, "--fusion",
        Enum({"rrf", "linear"}, "Hybrid fusion: rrf (default) or linear")},
       {"candidates", Kind::kStdinLines, "--candidates",
        Strings(100000, "Rank only these papers (ids, DOIs or titles)")},
       {"where", Kind::kRepeat, "--where",
        Strings(10,
                "Keep papers whose citation metric satisfies FIELD OP NUMBER (cd>=0.2, "
                "pagerank>1e-5, citation_percentile>=90; all must hold)")},
       {"limit", Kind::kValue, "--limit", Limit(20)},
       {"title_threshold", Kind::kValue, "--title-threshold",
        Num(0, 1, "Minimum fuzzy title score (default 0.88)")}},
      {}, {}, AnyOf({"query", "id", "doi", "title", "author", "like"}));
}

ToolSpec Paper() {
  return MakeTool(
      "paper", "paper", "Paper details and neighbours",
      "Details of papers (abstract, authorships, topics, keywords, citations in the store), or "
      "with relation their neighbours: the papers they cite (references), the papers citing "
      "them (cited_by), papers most often co-cited with them (co_cited) or sharing most "
      "references (coupled).",
      false, {"paper_card", "paper_neighbour"},
      {{"papers", Kind::kPositionals, "", Strings(100, "Paper ids, DOIs or titles")},
       {"relation",
        Kind::kChoice,
        "",
        Enum({"details", "references", "cited_by", "co_cited", "coupled"},
             "details (default) or a neighbourhood"),
        {{"details", ""},
         {"references", "--references"},
         {"cited_by", "--cited-by"},
         {"co_cited", "--co-cited"},
         {"coupled", "--coupled"}}},
       {"limit", Kind::kValue, "--limit", Int(1, 1000, "Neighbours per paper (default 20)")}},
      {}, {"papers"});
}

Status LineageMode(const Json& args) {
  const int modes = (args.contains("from") || args.contains("to")) + args.contains("ancestors") +
                    args.contains("descendants");
  if (modes != 1 || args.contains("from") != args.contains("to"))
    return Status::InvalidArgument(
        "give from and to (citation paths from an older to a newer paper), or one of ancestors "
        "and descendants (a lineage tree)");
  return Status::Ok();
}

ToolSpec Lineage() {
  ToolSpec t = MakeTool(
      "lineage", "lineage", "Citation lineage",
      "Citation paths from an older paper (from) to a newer one (to) that builds on it, best "
      "first (one record per step, oldest first); or the lineage tree of the papers a paper "
      "builds on (ancestors) or that build on it (descendants).",
      false, {"lineage_step", "lineage_tree_node"},
      {{"from", Kind::kText, "", Str("The older paper A: id, DOI or title")},
       {"to", Kind::kText, "", Str("The newer paper B: id, DOI or title")},
       {"ancestors", Kind::kValue, "--ancestors",
        Str("Lineage tree of the papers this one builds on")},
       {"descendants", Kind::kValue, "--descendants",
        Str("Lineage tree of the papers building on this one")},
       {"max_hops", Kind::kValue, "--max-hops",
        Int(1, 12, "Longest path in citation hops (default 6)")},
       {"objective", Kind::kValue, "--objective",
        Enum({"mean", "total"},
             "Best path: mean (papers most cited on average, default) or total (largest total "
             "citation count)")},
       {"shortest", Kind::kFlag, "--shortest", Bool("Fewest hops first (then the objective)")},
       {"k", Kind::kValue, "--k", Int(1, 100, "Number of distinct paths (default 1)")},
       {"depth", Kind::kValue, "--depth", Int(1, 6, "Tree depth in hops (default 2)")},
       {"limit", Kind::kValue, "--limit", Int(1, 1000, "Tree nodes to return (default 50)")}},
      {}, {}, LineageMode);
  return t;
}

ToolSpec MapTool() {
  const std::vector<std::string> measures = {"count", "salton", "adamic-adar"};
  return MakeTool(
      "literature_map", "map", "Literature map",
      "A literature map over seed papers, as Connected Papers and Inciteful draw one: the "
      "seeds; the papers most similar to them by co-citation (cited by the same papers) and "
      "bibliographic coupling (citing the same papers), combined over the seeds (similar); the "
      "papers the seeds and similar works cite most (prior) and the papers citing most of them "
      "(derivative). Each record has its role, rank, score and evidence: co_cited and coupled "
      "counts, the seeds it relates to, its citation links within the map.",
      false, {"map_entry"},
      {{"papers", Kind::kPositionals, "", Strings(100, "Seed paper ids, DOIs or titles")},
       {"similar", Kind::kValue, "--similar", Int(0, 1000, "Similar works (default 20)")},
       {"prior", Kind::kValue, "--prior", Int(0, 1000, "Prior works (default 10)")},
       {"derivative", Kind::kValue, "--derivative", Int(0, 1000, "Derivative works (default 10)")},
       {"co_citation", Kind::kValue, "--co-citation",
        Enum(measures, "Co-citation measure: count, salton or adamic-adar")},
       {"coupling", Kind::kValue, "--coupling",
        Enum(measures, "Bibliographic coupling measure: count, salton or adamic-adar")},
       {"co_citation_weight", Kind::kValue, "--co-citation-weight",
        Num(0, 1000, "Weight of co-citation (0 leaves it out)")},
       {"coupling_weight", Kind::kValue, "--coupling-weight",
        Num(0, 1000, "Weight of coupling (0 leaves it out)")}},
      {}, {"papers"});
}

ToolSpec RwrRank() {
  const Json seed = {{"type", "object"},
                     {"properties",
                      {{"id", Str("A node id: paper, author (A...), keyword (kw:...), ...")},
                       {"weight", Num(0, 1e9, "Seed weight (default 1)")}}},
                     {"required", {"id"}},
                     {"additionalProperties", false}};
  return MakeTool(
      "rwr_rank", "rwr-rank", "Rank by random walk",
      "Rank the nodes a set of seed nodes reaches in the graph (a typed random walk with "
      "restart over their 2-hop subgraph): related papers, authors, keywords, institutions, "
      "venues or topics, each with its walk probability and up to three explanation paths.",
      false, {"ranked_node"},
      {{"seeds",
        Kind::kStdinRecords,
        "",
        {{"type", "array"},
         {"items", seed},
         {"minItems", 1},
         {"maxItems", 10000},
         {"description", "Seed nodes with optional weights"}}},
       {"target", Kind::kValue, "--target",
        Enum({"paper", "author", "keyword", "institution", "source", "topic", "any"},
             "Node type to rank: paper (default), author, keyword, ... or any")},
       {"exclude_seeds", Kind::kFlag, "--exclude-seeds",
        Bool("Leave the seeds out of the ranking")},
       {"limit", Kind::kValue, "--limit", Limit(20)}},
      {}, {"seeds"});
}

ToolSpec TriSearch() {
  return MakeTool(
      "tri_search", "tri-search", "Search related work",
      "Related work for an idea or an abstract: keyword, semantic and title recall, then a "
      "graph rerank (SciAtlas). Returns papers (or authors) with the final score, the scores "
      "it is made of, explanation paths and their seeds.",
      false, {"tri_search_result"},
      {{"query", Kind::kText, "", Str("The query text: an idea, a question or an abstract")},
       {"like", Kind::kRepeat, "--like",
        Strings(100,
                "Papers like these stored ones (ids or DOIs): their keywords, vectors, title and "
                "citations are the query; they are not returned. Not with query")},
       {"keywords", Kind::kRepeat, "--keyword",
        Strings(50, "Keywords, optionally leveled: high:|middle:|low:TERM")},
       {"titles", Kind::kRepeat, "--title",
        Strings(50, "Titles to match, optionally leveled: high:|middle:|low:TITLE")},
       YearParam("after", "Papers published in or after this year"),
       YearParam("before", "Papers published in or before this year"),
       {"field", Kind::kValue, "--field", Str("Papers of an OpenAlex field (name or id)")},
       {"retrieval_mode", Kind::kValue, "--retrieval-mode",
        Enum({"keyword", "semantic", "title", "hybrid"},
             "Paths used: keyword, semantic, title or hybrid (default)")},
       {"ranking_profile", Kind::kValue, "--ranking-profile",
        Enum({"adaptive", "precision", "balanced", "discovery", "impact"},
             "adaptive (default: by query length), precision, balanced (the paper), discovery "
             "or impact")},
       {"target", Kind::kValue, "--target",
        Enum({"paper", "author"}, "Rank papers (default) or authors")},
       {"exclude", Kind::kRepeat, "--exclude", Strings(1000, "Papers to leave out (ids or DOIs)")},
       {"candidates", Kind::kStdinLines, "--candidates",
        Strings(100000, "Rank only these papers (ids)")},
       {"where", Kind::kRepeat, "--where",
        Strings(10,
                "Keep papers whose citation metric satisfies FIELD OP NUMBER (cd>=0.2, "
                "pagerank>1e-5, citation_percentile>=90; all must hold)")},
       {"limit", Kind::kValue, "--limit", Limit(20)}},
      {}, {}, AnyOf({"query", "like", "keywords", "titles"}));
}

ToolSpec Metrics() {
  return MakeTool(
      "metrics", "metrics", "Citation metrics",
      "Citation metrics of papers: disruption (CD index with n_i, n_j, n_k, and a reason when "
      "undefined), in-store citation counts, citation percentile within field and year, "
      "PageRank over citations, novelty and conventionality (over venue pairs, and over keyword "
      "pairs when built with them); read from the store's metrics "
      "file when built, else the CD index computed for the papers given. Read-only.",
      false, {"metric_entry"},
      {{"papers", Kind::kPositionals, "", Strings(1000, "Paper ids, DOIs or titles")},
       {"window", Kind::kValue, "--window",
        Str("CD citation window in years, or unbounded (default 5)")}},
      {}, {"papers"});
}

ToolSpec Analyze() {
  return MakeTool(
      "analyze", "analyze", "Analyze a set of papers",
      "Structural analyses of a set of papers (a field, the whole store, or given papers): "
      "influential papers and keywords (PageRank within the set), bridging papers between "
      "communities (participation coefficient and betweenness), lineage depth (longest chain of "
      "descendants), "
      "gaps (detached papers, keywords used once, sparse keyword pairs) and near-duplicate "
      "candidates (papers, authors, keywords). Each finding carries its evidence.",
      false, {"analysis_entry"},
      {{"kinds",
        Kind::kPositionals,
        "",
        {{"type", "array"},
         {"items",
          {{"type", "string"},
           {"enum", {"influential", "bridges", "lineage", "gaps", "duplicates"}}}},
         {"minItems", 1},
         {"maxItems", 5},
         {"description", "The analyses to run"}}},
       {"field", Kind::kValue, "--field", Str("The papers of an OpenAlex field (name or id)")},
       {"all", Kind::kFlag, "--all", Bool("Every paper of the store")},
       {"papers", Kind::kRepeat, "--id", Strings(100000, "The papers of the set (ids or DOIs)")},
       {"communities", Kind::kValue, "--communities",
        Enum({"topic", "citation", "keyword"},
             "bridges: communities from topics (default), the citation graph or the keyword "
             "graph")},
       {"bridge_rank", Kind::kValue, "--bridge-rank",
        Enum({"participation", "betweenness"},
             "bridges: rank by participation coefficient (default) or betweenness")},
       {"betweenness_samples", Kind::kValue, "--betweenness-samples",
        Int(1, 100000000,
            "bridges: source papers of the betweenness estimate; exact when at least the set's "
            "size (default 64)")},
       {"seed", Kind::kValue, "--seed",
        Int(0, 999999999, "Seed of the communities and the betweenness sample (default 1)")},
       {"limit", Kind::kValue, "--limit", Int(1, 1000, "Findings per kind (default 20)")}},
      {}, {"kinds"}, [](const Json& args) {
        if (args.contains("field") + args.contains("all") + args.contains("papers") != 1)
          return Status::InvalidArgument("give one set: field, all or papers");
        return Status::Ok();
      });
}

ToolSpec StatusTool() {
  return MakeTool(
      "status", "status", "Store status",
      "What the store holds (papers, authors, keywords, edges per relation), which derived "
      "layers exist and whether they are current, and the problems with the tool run that "
      "fixes each. exit_code 1: not healthy (the record says why).",
      false, {"store_status"},
      {{"verify", Kind::kFlag, "--verify",
        Bool("Also check every page of every derived file (reads the whole store)")}});
}

ToolSpec Ingest() {
  return MakeTool(
      "ingest", "ingest", "Ingest records",
      "Load OpenAlex works or native paper records ({id, title, abstract, year, authors, "
      "venue, doi, references}) into the store, inline or from files the server can read, and "
      "rebuild the graph (and the citation metrics, when the store has them). Returns the "
      "ingest summary.",
      true, {"ingest_summary"},
      {{"records",
        Kind::kStdinRecords,
        "",
        {{"type", "array"},
         {"items", {{"type", "object"}}},
         {"minItems", 1},
         {"maxItems", 100000},
         {"description", "Records (OpenAlex works or native paper records)"}}},
       {"files", Kind::kPositionals, "",
        Strings(1000, "Input files (JSON lines, .gz) on the server's machine")},
       {"skip_invalid", Kind::kFlag, "--skip-invalid",
        Bool("Count and skip malformed records instead of stopping")},
       {"no_metrics", Kind::kFlag, "--no-metrics",
        Bool("Do not rebuild the store's citation metrics (they are stale until "
             "litgraph-metrics --build)")}},
      {"--stats"}, {}, [](const Json& args) {
        if (args.contains("records") == args.contains("files"))
          return Status::InvalidArgument("give records or files (one of them)");
        return Status::Ok();
      });
}

ToolSpec ExtractKeywords() {
  return MakeTool(
      "extract_keywords", "extract-keywords", "Extract keywords",
      "Extract canonical keyphrases into the keyword layer (the built-in extractor): for every "
      "paper, only those without keywords (missing), or the papers given (ids).",
      true, {"keyword_summary"},
      {{"missing", Kind::kFlag, "--missing",
        Bool("Only papers without keywords (after an ingest)")},
       {"ids", Kind::kRepeat, "--id", Strings(10000, "Only these papers (ids, DOIs or titles)")},
       {"recount", Kind::kFlag, "--recount",
        Bool("Recount the corpus phrase statistics on a partial run")},
       {"max_keywords", Kind::kValue, "--max-keywords",
        Int(1, 20, "At most this many keywords per paper (default 8)")}},
      {"--stats"});
}

ToolSpec Embed() {
  return MakeTool(
      "embed", "embed", "Embed papers",
      "Embed papers and keywords with the store's model and build the vector indexes: train "
      "(re)trains the built-in model and re-embeds everything; missing embeds only what has no "
      "vector yet.",
      true, {"embed_summary"},
      {{"train", Kind::kFlag, "--train",
        Bool("(Re)train the built-in model and re-embed everything")},
       {"missing", Kind::kFlag, "--missing", Bool("Only papers and keywords without vectors")}},
      {"--stats"});
}

}  // namespace

const std::vector<ToolSpec>& Tools() {
  static const std::vector<ToolSpec> tools = {
      FindPaper(), Paper(),   Lineage(),    MapTool(), RwrRank(),         TriSearch(),
      Metrics(),   Analyze(), StatusTool(), Ingest(),  ExtractKeywords(), Embed()};
  return tools;
}

}  // namespace litgraph::mcp
