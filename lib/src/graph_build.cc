#include "litgraph/graph_build.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <future>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "litgraph/coding.h"
#include "litgraph/files.h"
#include "litgraph/flat_map.h"
#include "litgraph/graph.h"
#include "litgraph/lexical.h"
#include "litgraph/store.h"

namespace litgraph {

namespace {

// Edges of one relation before sorting.
struct Edges {
  std::vector<uint32_t> src, dst, attr;
  void Add(uint32_t s, uint32_t d, uint32_t a = 0) {
    src.push_back(s);
    dst.push_back(d);
    attr.push_back(a);
  }
  size_t size() const { return src.size(); }
};

enum class Merge { kFirst, kSum, kMax };

// Sorted, de-duplicated CSR of `e` over source ids [0, num_nodes).
struct Csr {
  uint64_t num_nodes = 0;
  std::vector<uint64_t> offsets;
  std::vector<uint32_t> ids, attrs;
};

Csr ToCsr(const Edges& e, uint64_t num_nodes, bool reverse, bool with_attrs, Merge merge) {
  const auto& s = reverse ? e.dst : e.src;
  const auto& d = reverse ? e.src : e.dst;
  Csr c;
  c.num_nodes = num_nodes;
  c.offsets.assign(num_nodes + 1, 0);
  for (uint32_t x : s) ++c.offsets[x + 1];
  for (uint64_t i = 0; i < num_nodes; ++i) c.offsets[i + 1] += c.offsets[i];
  std::vector<uint64_t> fill(c.offsets.begin(), c.offsets.end() - 1);
  std::vector<uint64_t> packed(e.size());  // dst << 32 | attr, sorted per node
  for (size_t i = 0; i < e.size(); ++i)
    packed[fill[s[i]]++] = (static_cast<uint64_t>(d[i]) << 32) | e.attr[i];
  c.ids.reserve(e.size());
  if (with_attrs) c.attrs.reserve(e.size());
  uint64_t out = 0;
  for (uint64_t n = 0; n < num_nodes; ++n) {
    uint64_t a = c.offsets[n], b = c.offsets[n + 1];
    std::sort(packed.begin() + a, packed.begin() + b);
    c.offsets[n] = out;
    for (uint64_t k = a; k < b; ++k) {
      uint32_t id = static_cast<uint32_t>(packed[k] >> 32);
      uint32_t at = static_cast<uint32_t>(packed[k]);
      if (out > c.offsets[n] && c.ids.back() == id) {  // duplicate edge
        if (with_attrs) {
          if (merge == Merge::kSum) c.attrs.back() += at;
          else if (merge == Merge::kMax) c.attrs.back() = std::max(c.attrs.back(), at);
        }
        continue;
      }
      c.ids.push_back(id);
      if (with_attrs) c.attrs.push_back(at);
      ++out;
    }
  }
  c.offsets[num_nodes] = out;
  return c;
}

// The ranked lists of a hub relation (graph.h): for each list longer than
// `length`, its first `length` entries by attribute rank, citations (lists
// of papers; `citations` as stored in paper.citations), id.
Csr RankedCsr(Rel rel, const Csr& full, std::span<const uint32_t> citations, uint32_t length) {
  Csr r;
  r.num_nodes = full.num_nodes;
  r.offsets.assign(full.num_nodes + 1, 0);
  const bool attrs = !full.attrs.empty();
  const bool papers = GetRelInfo(rel).to == NodeType::kPaper;
  auto cites = [&](uint32_t p) { return papers && p < citations.size() ? CitationCount(citations[p]) : 0u; };
  std::vector<uint32_t> order;
  for (uint64_t n = 0; n < full.num_nodes; ++n) {
    uint64_t a = full.offsets[n], b = full.offsets[n + 1];
    r.offsets[n] = r.ids.size();
    if (b - a <= length) continue;
    order.resize(b - a);
    for (uint64_t i = a; i < b; ++i) order[i - a] = static_cast<uint32_t>(i);
    size_t keep = length;
    auto rank = [&](uint32_t i) { return attrs ? RankedAttr(rel, full.attrs[i]) : 0u; };
    std::partial_sort(order.begin(), order.begin() + keep, order.end(), [&](uint32_t x, uint32_t y) {
      if (rank(x) != rank(y)) return rank(x) > rank(y);
      uint32_t cx = cites(full.ids[x]), cy = cites(full.ids[y]);
      if (cx != cy) return cx > cy;
      return full.ids[x] < full.ids[y];
    });
    for (size_t k = 0; k < keep; ++k) {
      r.ids.push_back(full.ids[order[k]]);
      if (attrs) r.attrs.push_back(full.attrs[order[k]]);
    }
  }
  r.offsets[full.num_nodes] = r.ids.size();
  return r;
}

// Resolves external paper ids (as packed in paper.refs) to dense ids.
class PaperIdMap {
 public:
  explicit PaperIdMap(size_t expected) { works_.reserve(expected); }
  void Add(std::string_view ext, uint32_t id) {
    uint64_t n = PackedWorkNumber(ext);
    if (n != 0) works_[n] = id;
    else other_.emplace(std::string(ext), id);
  }
  void Prefetch(const PackedId& p) const {
    if (p.is_work_number) works_.Prefetch(p.work_number);
  }
  // 0 when unknown (dense ids start at 1).
  uint32_t Find(const PackedId& p) const {
    if (p.is_work_number) {
      const uint32_t* id = works_.Find(p.work_number);
      return id ? *id : 0;
    }
    auto it = other_.find(std::string(p.text));
    return it == other_.end() ? 0 : it->second;
  }

 private:
  U64Map<uint32_t> works_;
  std::unordered_map<std::string, uint32_t> other_;
};

// HAS_KEYWORD both ways and COOCCUR, from paper_keyword.
template <typename Write>
void BuildKeywordRelations(Store* store, uint64_t n_papers, uint64_t n_keywords, Write&& write) {
  Db& db = store->db();
  Edges has, cooc;
  Stmt st = db.Prepare("SELECT paper_id, keyword_id, score FROM paper_keyword ORDER BY paper_id");
  int64_t cur = -1;
  std::vector<uint32_t> kws;
  auto flush = [&] {
    std::sort(kws.begin(), kws.end());
    for (size_t i = 0; i < kws.size(); ++i)
      for (size_t j = i + 1; j < kws.size(); ++j) {
        cooc.Add(kws[i], kws[j], 1);
        cooc.Add(kws[j], kws[i], 1);
      }
    kws.clear();
  };
  while (st.Step()) {
    if (st.Int(0) != cur) {
      flush();
      cur = st.Int(0);
    }
    uint32_t kw = static_cast<uint32_t>(st.Int(1));
    has.Add(static_cast<uint32_t>(cur), kw, static_cast<uint32_t>(st.Int(2)));
    kws.push_back(kw);
  }
  flush();
  write(Rel::kKeywords, ToCsr(has, n_papers, false, true, Merge::kMax));
  write(Rel::kKeywordPapers, ToCsr(has, n_keywords, true, true, Merge::kMax));
  // COOCCUR keeps each keyword's kCooccurTopK strongest co-occurrences and
  // the reverse of those edges: popular keywords co-occur with thousands of
  // others, mostly once, which costs every walk through them and says little.
  Csr full = ToCsr(cooc, n_keywords, false, true, Merge::kSum);
  cooc = Edges();
  std::vector<std::pair<uint32_t, uint32_t>> order;
  for (uint64_t k = 0; k < full.num_nodes; ++k) {
    uint64_t a = full.offsets[k], b = full.offsets[k + 1];
    order.clear();
    for (uint64_t i = a; i < b; ++i) order.emplace_back(full.attrs[i], full.ids[i]);
    size_t keep = std::min<size_t>(order.size(), kCooccurTopK);
    std::partial_sort(order.begin(), order.begin() + keep, order.end(), [](const auto& x, const auto& y) {
      return x.first != y.first ? x.first > y.first : x.second < y.second;
    });
    for (size_t i = 0; i < keep; ++i) {
      cooc.Add(static_cast<uint32_t>(k), order[i].second, order[i].first);
      cooc.Add(order[i].second, static_cast<uint32_t>(k), order[i].first);
    }
  }
  write(Rel::kCooccur, ToCsr(cooc, n_keywords, false, true, Merge::kMax));
}

}  // namespace

Status BuildGraph(Store* store, const GraphBuildOptions& options, GraphBuildStats* stats) {
  auto t0 = std::chrono::steady_clock::now();
  Db& db = store->db();
  int64_t gen = 0;
  auto dir_or = store->NewArtifactDir("graph", &gen);
  if (!dir_or.ok()) return dir_or.status();
  const std::string dir = dir_or.value();

  const uint64_t n_papers = static_cast<uint64_t>(store->MaxId(NodeType::kPaper)) + 1;
  const uint64_t n_authors = static_cast<uint64_t>(store->MaxId(NodeType::kAuthor)) + 1;
  const uint64_t n_insts = static_cast<uint64_t>(store->MaxId(NodeType::kInstitution)) + 1;
  const uint64_t n_sources = static_cast<uint64_t>(store->MaxId(NodeType::kSource)) + 1;
  const uint64_t n_topics = static_cast<uint64_t>(store->MaxId(NodeType::kTopic)) + 1;
  const uint64_t n_subfields = static_cast<uint64_t>(store->MaxId(NodeType::kSubfield)) + 1;
  const uint64_t n_fields = static_cast<uint64_t>(store->MaxId(NodeType::kField)) + 1;
  const uint64_t n_domains = static_cast<uint64_t>(store->MaxId(NodeType::kDomain)) + 1;
  const uint64_t n_keywords = static_cast<uint64_t>(store->MaxId(NodeType::kKeyword)) + 1;

  // Writes one relation in both directions (or one, when rev is absent);
  // writes run on a second thread while the next relation is collected.
  std::vector<std::future<Status>> pending;
  nlohmann::json rel_stats = nlohmann::json::object();
  // Citation counts for the ranked lists: this generation's paper.citations,
  // held here (or mapped from the current generation for a keyword-only
  // rebuild) until every write has finished.
  std::vector<uint32_t> citations;
  MappedFile current_citations;
  std::span<const uint32_t> rank_citations;
  // Writes a relation's adjacency file, and its ranked lists (graph.h) for
  // the hub relations to papers.
  auto write_files = [&options, &rank_citations](const std::string& dir, Rel rel, const Csr& csr) {
    std::string base = dir + "/" + GetRelInfo(rel).file;
    Status st = WriteAdjacency(base + ".adj", csr.num_nodes, csr.offsets, csr.ids, csr.attrs,
                               options.nodes_per_block, options.zstd_level);
    if (!st.ok() || !RankedRelation(rel)) return st;
    Csr ranked = RankedCsr(rel, csr, rank_citations, options.ranked_length);
    return WriteRankedLists(base + ".ranked", ranked.num_nodes, ranked.offsets, ranked.ids,
                            ranked.attrs, options.ranked_length);
  };
  auto write = [&](Rel rel, Csr csr) {
    stats->edges += static_cast<int64_t>(csr.ids.size());
    rel_stats[GetRelInfo(rel).file] = csr.ids.size();
    pending.push_back(std::async(std::launch::async, [&write_files, &dir, rel, csr = std::move(csr)] {
      return write_files(dir, rel, csr);
    }));
    if (pending.size() >= 2) {  // bound memory: at most two relations in flight
      Status st = pending.front().get();
      pending.erase(pending.begin());
      ThrowIfError(st);
    }
  };

  if (options.keywords_only) {
    int64_t current = store->Generation("graph");
    if (current == 0) {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
      return Status::Io("the store has no graph yet (run litgraph-ingest)");
    }
    std::string from = store->ArtifactDir("graph", current);
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(from, ec)) {
      std::string name = e.path().filename().string();
      if (name == "keywords.adj" || name == "keyword.papers.adj" || name == "cooccur.adj" ||
          name == "keyword.papers.ranked" || name == "cooccur.ranked")
        continue;
      std::filesystem::create_hard_link(e.path(), dir + "/" + name, ec);
      if (ec) return Status::Io(fmt::format("{}: {}", e.path().string(), ec.message()));
    }
    auto prev = store->GetMeta("graph_info");
    nlohmann::json info = prev ? nlohmann::json::parse(*prev) : nlohmann::json::object();
    Status mapped = current_citations.Open(from + "/paper.citations");
    if (!mapped.ok()) return mapped;
    rank_citations = {reinterpret_cast<const uint32_t*>(current_citations.data()), current_citations.size() / 4};
    auto write_now = [&](Rel rel, Csr csr) {
      info["relations"][GetRelInfo(rel).file] = csr.ids.size();
      ThrowIfError(write_files(dir, rel, csr));
    };
    BuildKeywordRelations(store, n_papers, n_keywords, write_now);
    int64_t edges = 0;  // the total over every relation, the new keyword layer included
    for (const auto& [name, count] : info["relations"].items()) edges += count.get<int64_t>();
    info["edges"] = edges;
    info["generation"] = gen;
    FsyncDir(dir);
    FsyncDir(store->dir());
    store->SetMeta("graph_info", info.dump());
    store->SetGeneration("graph", gen);
    stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return Status::Ok();
  }
  std::future<Status> lexical_done;
  LexicalBuildStats ls;
  if (options.lexical)
    lexical_done = std::async(std::launch::async,
                              [&] { return options.lexical->Write(dir, n_papers, &ls); });
  try {
    // Papers: id map, then references, related works, venues, attributes.
    PaperIdMap ids(n_papers);
    {
      Stmt st = db.Prepare("SELECT id, ext_id FROM paper");
      while (st.Step()) ids.Add(st.Text(1), static_cast<uint32_t>(st.Int(0)));
    }
    Edges cites, related, published;
    std::vector<int64_t> record_counts(n_papers, -1);
    std::vector<uint16_t> years(n_papers, 0);
    {
      Stmt st = db.Prepare(
          "SELECT id, refs, related, source_id, cited_by_count, year FROM paper ORDER BY id");
      // A row's ids are decoded, then prefetched, then resolved: the lookups'
      // cache misses overlap.
      std::vector<PackedId> refs;
      auto resolve = [&](std::string_view blob, auto&& fn) {
        refs.clear();
        bool ok = ForEachPackedId(blob, [&](const PackedId& ref) { refs.push_back(ref); });
        for (const PackedId& ref : refs) ids.Prefetch(ref);
        for (const PackedId& ref : refs) fn(ids.Find(ref));
        return ok;
      };
      while (st.Step()) {
        uint32_t p = static_cast<uint32_t>(st.Int(0));
        bool ok = resolve(st.Blob(1), [&](uint32_t q) {
          if (q == 0) ++stats->dangling_references;
          else if (q != p) cites.Add(p, q);
        });
        ok = resolve(st.Blob(2), [&](uint32_t q) {
          if (q != 0 && q != p) {
            related.Add(p, q);
            related.Add(q, p);
          }
        }) && ok;
        if (!ok) throw StatusError(Status::Io(fmt::format("paper {}: corrupt reference list", p)));
        if (!st.IsNull(3)) published.Add(p, static_cast<uint32_t>(st.Int(3)));
        if (!st.IsNull(4)) record_counts[p] = st.Int(4);
        if (!st.IsNull(5)) years[p] = static_cast<uint16_t>(std::clamp<int64_t>(st.Int(5), 0, 65535));
      }
    }
    Csr cites_out = ToCsr(cites, n_papers, false, false, Merge::kFirst);
    Csr cites_in = ToCsr(cites, n_papers, true, false, Merge::kFirst);
    cites = Edges();
    stats->cites_edges = static_cast<int64_t>(cites_out.ids.size());
    citations.assign(n_papers, 0);
    for (uint64_t p = 0; p < n_papers; ++p) {
      int64_t c = record_counts[p];
      uint32_t in_store = static_cast<uint32_t>(cites_in.offsets[p + 1] - cites_in.offsets[p]);
      citations[p] = c >= 0 ? static_cast<uint32_t>(std::min<int64_t>(c, ~kCitationsFromStoreBit))
                            : (in_store | kCitationsFromStoreBit);
    }
    record_counts = {};
    rank_citations = citations;
    ThrowIfError(WriteFileAtomic(dir + "/paper.citations", {reinterpret_cast<const char*>(citations.data()), citations.size() * 4}));
    ThrowIfError(WriteFileAtomic(dir + "/paper.years", {reinterpret_cast<const char*>(years.data()), years.size() * 2}));
    write(Rel::kCitesOut, std::move(cites_out));
    write(Rel::kCitesIn, std::move(cites_in));
    write(Rel::kRelated, ToCsr(related, n_papers, false, false, Merge::kFirst));
    related = Edges();
    write(Rel::kPublishedIn, ToCsr(published, n_papers, false, false, Merge::kFirst));
    write(Rel::kSourcePapers, ToCsr(published, n_sources, true, false, Merge::kFirst));
    published = Edges();

    // Authorships: AUTHORED both ways, COAUTHOR, AFFILIATED_WITH.
    {
      Edges authored, coauthor, affiliated;
      Stmt st = db.Prepare(
          "SELECT paper_id, position, author_id, is_corresponding, institutions FROM authorship"
          " ORDER BY paper_id, position");
      int64_t cur = -1;
      std::vector<uint32_t> team;
      auto flush_team = [&] {
        size_t n = team.size();
        std::vector<uint32_t> members;
        if (static_cast<int>(n) > kCoauthorFullTeam) {
          members.assign(team.begin(), team.begin() + kCoauthorHead);
          members.insert(members.end(), team.end() - kCoauthorTail, team.end());
        } else {
          members = team;
        }
        std::sort(members.begin(), members.end());
        members.erase(std::unique(members.begin(), members.end()), members.end());
        for (size_t i = 0; i < members.size(); ++i)
          for (size_t j = i + 1; j < members.size(); ++j) {
            coauthor.Add(members[i], members[j], 1);
            coauthor.Add(members[j], members[i], 1);
          }
        team.clear();
      };
      while (st.Step()) {
        int64_t paper = st.Int(0);
        if (paper != cur) {
          flush_team();
          cur = paper;
        }
        uint32_t author = static_cast<uint32_t>(st.Int(2));
        uint32_t attr = static_cast<uint32_t>(std::min<int64_t>(st.Int(1), 1 << 20)) << 1 |
                        (st.Int(3) ? 1u : 0u);
        authored.Add(static_cast<uint32_t>(paper), author, attr);
        team.push_back(author);
        std::string_view inst = st.Text(4);
        size_t p = 0;
        while (p < inst.size()) {
          size_t e = inst.find(' ', p);
          if (e == std::string_view::npos) e = inst.size();
          affiliated.Add(author, static_cast<uint32_t>(std::strtoul(std::string(inst.substr(p, e - p)).c_str(), nullptr, 10)), 1);
          p = e + 1;
        }
      }
      flush_team();
      Stmt last = db.Prepare(
          "SELECT id, last_institution_id FROM author WHERE last_institution_id IS NOT NULL");
      while (last.Step())
        affiliated.Add(static_cast<uint32_t>(last.Int(0)), static_cast<uint32_t>(last.Int(1)), 1);
      // An author listed twice on one paper keeps the first position (kMin
      // via kFirst after sorting by (id, attr)).
      write(Rel::kAuthors, ToCsr(authored, n_papers, false, true, Merge::kFirst));
      write(Rel::kAuthoredPapers, ToCsr(authored, n_authors, true, true, Merge::kFirst));
      authored = Edges();
      write(Rel::kCoauthor, ToCsr(coauthor, n_authors, false, true, Merge::kSum));
      coauthor = Edges();
      write(Rel::kAffiliations, ToCsr(affiliated, n_authors, false, true, Merge::kSum));
      write(Rel::kInstitutionAuthors, ToCsr(affiliated, n_insts, true, true, Merge::kSum));
    }

    // Topics and the topic hierarchy.
    {
      Edges topics;
      Stmt st = db.Prepare("SELECT paper_id, topic_id, score, is_primary FROM paper_topic");
      while (st.Step()) {
        double score = st.IsNull(2) ? 0 : st.Double(2);
        uint32_t milli = static_cast<uint32_t>(std::lround(std::clamp(score, 0.0, 1.0) * 1000));
        topics.Add(static_cast<uint32_t>(st.Int(0)), static_cast<uint32_t>(st.Int(1)),
                   milli << 1 | (st.Int(3) ? 1u : 0u));
      }
      write(Rel::kTopics, ToCsr(topics, n_papers, false, true, Merge::kMax));
      write(Rel::kTopicPapers, ToCsr(topics, n_topics, true, true, Merge::kMax));
      auto hierarchy = [&](const char* sql, Rel up, Rel down, uint64_t n_child, uint64_t n_parent) {
        Edges e;
        Stmt h = db.Prepare(sql);
        while (h.Step())
          if (!h.IsNull(1)) e.Add(static_cast<uint32_t>(h.Int(0)), static_cast<uint32_t>(h.Int(1)));
        write(up, ToCsr(e, n_child, false, false, Merge::kFirst));
        write(down, ToCsr(e, n_parent, true, false, Merge::kFirst));
      };
      hierarchy("SELECT id, subfield_id FROM topic", Rel::kTopicSubfield, Rel::kSubfieldTopics,
                n_topics, n_subfields);
      hierarchy("SELECT id, field_id FROM subfield", Rel::kSubfieldField, Rel::kFieldSubfields,
                n_subfields, n_fields);
      hierarchy("SELECT id, domain_id FROM field", Rel::kFieldDomain, Rel::kDomainFields,
                n_fields, n_domains);
    }

    BuildKeywordRelations(store, n_papers, n_keywords, write);
    for (auto& f : pending) ThrowIfError(f.get());
    pending.clear();
    ThrowIfError(lexical_done.valid() ? lexical_done.get()
                                      : BuildLexicalIndexes(store, dir, &ls));
    stats->lexical_terms = ls.terms;
    stats->lexical_postings = ls.postings;
  } catch (...) {
    for (auto& f : pending)
      if (f.valid()) f.wait();
    if (lexical_done.valid()) lexical_done.wait();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    throw;
  }
  FsyncDir(dir);
  FsyncDir(store->dir());
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    auto size = static_cast<int64_t>(e.file_size(ec));
    stats->bytes += size;
    std::string name = e.path().filename().string();
    if (name == "cites.out.adj" || name == "cites.in.adj") stats->cites_bytes += size;
  }
  stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  nlohmann::json info = {{"generation", gen},
                         {"edges", stats->edges},
                         {"cites_edges", stats->cites_edges},
                         {"dangling_references", stats->dangling_references},
                         {"bytes", stats->bytes},
                         {"relations", rel_stats},
                         {"lexical_terms", stats->lexical_terms},
                         {"lexical_postings", stats->lexical_postings},
                         {"nodes_per_block", options.nodes_per_block}};
  store->SetMeta("graph_info", info.dump());
  store->SetGeneration("graph", gen);
  return Status::Ok();
}

}  // namespace litgraph
