// Graph export (export.h): GraphML and neo4j-admin CSV files, streamed from
// SQLite rows and adjacency blocks.
#include "litgraph/export.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <unordered_set>

#include "litgraph/files.h"
#include "litgraph/text.h"

namespace litgraph {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLabels[kNodeTypeCount] = {
    "Paper", "Author", "Institution", "Source", "Topic", "Subfield", "Field", "Domain", "Keyword"};

// The direction a relation type is exported in: its label's own direction
// (symmetric relations have one).
bool Exported(const RelInfo& r) { return r.forward; }
bool Symmetric(const RelInfo& r) { return r.reverse == r.rel; }

// --- Edge properties ---------------------------------------------------------

// A relation's properties, decoded from its edge attribute (model.cc), named
// as in SciAtlas's Table 4 where it has them. `weight` is the one GraphML
// also writes as the edge's weight (-1: none).
struct EdgeProps {
  AttrColumn columns[2];
  int count = 0;
  int weight = -1;
};

EdgeProps PropsOf(Rel r) {
  using enum AttrType;
  switch (r) {
    case Rel::kAuthoredPapers:
      return {{{"position", kInt}, {"is_corresponding", kBool}}, 2, -1};
    case Rel::kCoauthor:
    case Rel::kCooccur:
      return {{{"count", kInt}}, 1, 0};
    case Rel::kAffiliations:
      return {{{"papers", kInt}}, 1, 0};
    case Rel::kTopics:
      return {{{"score", kFloat}, {"is_primary", kBool}}, 2, 0};
    case Rel::kKeywords:
      return {{{"relevance_score", kFloat}}, 1, 0};
    default:
      return {};
  }
}

// The property values of an edge with attribute `a`.
void DecodeProps(Rel r, uint32_t a, AttrValue* out) {
  auto num = [](int64_t i) {
    AttrValue v;
    v.null = false;
    v.i = i;
    return v;
  };
  auto real = [](double f) {
    AttrValue v;
    v.null = false;
    v.f = f;
    return v;
  };
  switch (r) {
    case Rel::kAuthoredPapers:
      out[0] = num(a >> 1);
      out[1] = num(a & 1);
      break;
    case Rel::kTopics:
      out[0] = real((a >> 1) / 1000.0);
      out[1] = num(a & 1);
      break;
    case Rel::kKeywords:
      out[0] = real(a);
      break;
    default:
      out[0] = num(a);
      break;
  }
}

double AsDouble(const AttrValue& v, AttrType t) {
  return t == AttrType::kFloat ? v.f : static_cast<double>(v.i);
}

// --- Output files ------------------------------------------------------------

// A buffered output file, written beside its name (".tmp") and renamed into
// place by Close(); or a stream the caller owns (standard output).
class OutFile {
 public:
  ~OutFile() {
    if (owned_ && f_) {
      std::fclose(f_);
      std::remove(tmp_.c_str());
    }
  }
  Status Open(const std::string& path) {
    path_ = path;
    tmp_ = path + ".tmp";
    f_ = std::fopen(tmp_.c_str(), "wb");
    owned_ = true;
    if (!f_) return Status::IoError(fmt::format("{}: {}", tmp_, std::strerror(errno)));
    return Status::Ok();
  }
  void Attach(std::FILE* f, std::string name) {
    f_ = f;
    path_ = std::move(name);
  }
  void Write(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= kBuffer) Flush();
  }
  int64_t rows = 0;  // for the writer's own counting
  // A write failed (a closed pipe, a full disk): the rest is not worth making.
  bool failed() const { return failed_ != 0; }
  bool pipe_closed() const { return failed_ == EPIPE; }
  const std::string& path() const { return path_; }

  // Flushes; an owned file is synced, closed and renamed over its name.
  Status Close() {
    Flush();
    if (!owned_) {
      if (std::fflush(f_) != 0) failed_ = failed_ ? failed_ : errno;
      if (failed_ != EPIPE) return failed_ ? Error(failed_) : Status::Ok();
      // A closed pipe (`| head`): the reader has what it wanted, so the
      // stream's error is cleared and the export ends quietly.
      std::clearerr(f_);
      return Status::Ok();
    }
    if (std::fflush(f_) != 0 && !failed_) failed_ = errno;
    if (!failed_ && fsync(fileno(f_)) != 0) failed_ = errno;
    if (std::fclose(f_) != 0 && !failed_) failed_ = errno;
    f_ = nullptr;
    if (!failed_ && std::rename(tmp_.c_str(), path_.c_str()) != 0) failed_ = errno;
    if (failed_) {
      std::remove(tmp_.c_str());
      return Error(failed_);
    }
    return Status::Ok();
  }

 private:
  static constexpr size_t kBuffer = 1 << 20;
  void Flush() {
    if (buf_.empty() || failed_) {
      buf_.clear();
      return;
    }
    if (std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size()) failed_ = errno ? errno : EIO;
    buf_.clear();
  }
  Status Error(int err) const {
    return Status::IoError(fmt::format("{}: {}", path_, std::strerror(err)));
  }
  std::FILE* f_ = nullptr;
  bool owned_ = false;
  int failed_ = 0;
  std::string path_, tmp_, buf_;
};

// --- Writers -----------------------------------------------------------------

// What Export feeds a format with: the node types and relations first, then
// each type's nodes and each relation's edges, in that order.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual Status Begin(const std::vector<NodeType>& types, const std::vector<Rel>& rels) = 0;
  virtual Status BeginNodes(NodeType t) = 0;
  virtual void Node(NodeType t, const NodeRow& row) = 0;
  virtual Status BeginEdges(Rel r) = 0;
  // `props`: PropsOf(r).count values (none when the file has no attributes).
  virtual void Edge(Rel r, uint32_t from, uint32_t to, const AttrValue* props) = 0;
  virtual Status Finish(ExportStats* stats) = 0;
  // A write failed: the export stops early and Finish reports it.
  virtual bool Failed() const = 0;
};

const char* GraphmlType(AttrType t) {
  switch (t) {
    case AttrType::kString:
      return "string";
    case AttrType::kInt:
      return "long";
    case AttrType::kFloat:
      return "double";
    case AttrType::kBool:
      return "boolean";
  }
  return "string";
}

std::string FormatValue(const AttrValue& v, AttrType t) {
  switch (t) {
    case AttrType::kString:
      return std::string(v.s);
    case AttrType::kInt:
      return fmt::format("{}", v.i);
    case AttrType::kFloat:
      return fmt::format("{}", v.f);
    case AttrType::kBool:
      return v.i ? "true" : "false";
  }
  return "";
}

// GraphML (http://graphml.graphdrawing.org): a <key> per attribute name with
// its type, nodes then edges of one directed graph. Node ids are
// "<type>:<dense id>" ("paper:12").
class GraphmlSink : public Sink {
 public:
  explicit GraphmlSink(OutFile* out) : out_(out) {}

  Status Begin(const std::vector<NodeType>& types, const std::vector<Rel>& rels) override {
    out_->Write(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\"\n"
        "    xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
        "    xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
        "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n");
    Key("node", "type", AttrType::kString);
    Key("node", "label", AttrType::kString);
    std::unordered_set<std::string> seen;
    for (NodeType t : types)
      for (const AttrColumn& c : Store::NodeColumns(t))
        if (seen.insert(c.name).second) Key("node", c.name, c.type);
    Key("edge", "relation", AttrType::kString);
    Key("edge", "weight", AttrType::kFloat);
    seen.clear();
    for (Rel r : rels) {
      EdgeProps p = PropsOf(r);
      for (int i = 0; i < p.count; ++i)
        if (seen.insert(p.columns[i].name).second)
          Key("edge", p.columns[i].name, p.columns[i].type);
    }
    out_->Write("  <graph id=\"litgraph\" edgedefault=\"directed\">\n");
    return Status::Ok();
  }

  Status BeginNodes(NodeType t) override {
    columns_ = Store::NodeColumns(t);
    return Status::Ok();
  }

  void Node(NodeType t, const NodeRow& row) override {
    line_.clear();
    fmt::format_to(std::back_inserter(line_), "    <node id=\"{}:{}\">", NodeTypeName(t), row.id);
    Data("n_type", kLabels[static_cast<int>(t)]);
    if (row.values.size() > 1 && !row.values[1].null) Data("n_label", XmlText(row.values[1].s));
    for (size_t i = 0; i < columns_.size(); ++i) {
      const AttrValue& v = row.values[i];
      if (v.null) continue;
      const std::string text = FormatValue(v, columns_[i].type);
      Data(std::string("n_") + columns_[i].name,
           columns_[i].type == AttrType::kString ? XmlText(text) : text);
    }
    line_ += "</node>\n";
    out_->Write(line_);
  }

  Status BeginEdges(Rel r) override {
    props_ = PropsOf(r);
    from_type_ = NodeTypeName(GetRelInfo(r).from);
    to_type_ = NodeTypeName(GetRelInfo(r).to);
    label_ = GetRelInfo(r).label;
    return Status::Ok();
  }

  void Edge(Rel, uint32_t from, uint32_t to, const AttrValue* props) override {
    line_.clear();
    fmt::format_to(std::back_inserter(line_), "    <edge source=\"{}:{}\" target=\"{}:{}\">",
                   from_type_, from, to_type_, to);
    Data("e_relation", label_);
    if (props) {
      if (props_.weight >= 0)
        Data("e_weight",
             fmt::format("{}", AsDouble(props[props_.weight], props_.columns[props_.weight].type)));
      for (int i = 0; i < props_.count; ++i)
        Data(std::string("e_") + props_.columns[i].name,
             FormatValue(props[i], props_.columns[i].type));
    }
    line_ += "</edge>\n";
    out_->Write(line_);
  }

  bool Failed() const override { return out_->failed(); }

  Status Finish(ExportStats* stats) override {
    out_->Write("  </graph>\n</graphml>\n");
    LITGRAPH_RETURN_IF_ERROR(out_->Close());
    stats->pipe_closed = out_->pipe_closed();
    stats->files.push_back(out_->path());
    return Status::Ok();
  }

 private:
  void Key(const char* domain, const std::string& name, AttrType type) {
    out_->Write(fmt::format("  <key id=\"{}_{}\" for=\"{}\" attr.name=\"{}\" attr.type=\"{}\"/>\n",
                            domain[0], name, domain, name, GraphmlType(type)));
  }
  void Data(std::string_view key, std::string_view text) {
    fmt::format_to(std::back_inserter(line_), "<data key=\"{}\">{}</data>", key, text);
  }

  OutFile* out_;
  std::span<const AttrColumn> columns_;
  EdgeProps props_;
  const char *from_type_ = "", *to_type_ = "", *label_ = "";
  std::string line_;
};

// Quotes a path for sh when it needs it.
std::string ShellWord(const std::string& s) {
  bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_./-=+:,@%", c);
  });
  if (plain) return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

const char* Neo4jType(AttrType t) {
  switch (t) {
    case AttrType::kString:
      return "";
    case AttrType::kInt:
      return ":int";
    case AttrType::kFloat:
      return ":float";
    case AttrType::kBool:
      return ":boolean";
  }
  return "";
}

// The input files of `neo4j-admin database import full` (Neo4j 5): a node
// file per label (<Label>.csv: ":ID(<Label>)" in the label's own ID space,
// the properties, ":LABEL") and a relationship file per type (<TYPE>.csv:
// ":START_ID(<Label>)", ":END_ID(<Label>)", ":TYPE", the properties), with
// import.sh running the import. IDs are the dense ids (--id-type=integer);
// nulls are empty unquoted fields (no property).
class Neo4jSink : public Sink {
 public:
  explicit Neo4jSink(std::string dir) : dir_(std::move(dir)) {}

  Status Begin(const std::vector<NodeType>&, const std::vector<Rel>&) override {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec) return Status::IoError(fmt::format("{}: {}", dir_, ec.message()));
    return Status::Ok();
  }

  Status BeginNodes(NodeType t) override {
    LITGRAPH_RETURN_IF_ERROR(Next(kLabels[static_cast<int>(t)], true));
    columns_ = Store::NodeColumns(t);
    std::string header = fmt::format(":ID({})", kLabels[static_cast<int>(t)]);
    for (const AttrColumn& c : columns_) header += fmt::format(",{}{}", c.name, Neo4jType(c.type));
    cur_->Write(header + ",:LABEL\n");
    return Status::Ok();
  }

  void Node(NodeType t, const NodeRow& row) override {
    line_.clear();
    fmt::format_to(std::back_inserter(line_), "{}", row.id);
    for (size_t i = 0; i < columns_.size(); ++i) Field(row.values[i], columns_[i].type);
    line_ += ',';
    line_ += kLabels[static_cast<int>(t)];
    line_ += '\n';
    cur_->Write(line_);
    ++cur_->rows;
  }

  Status BeginEdges(Rel r) override {
    const RelInfo& info = GetRelInfo(r);
    LITGRAPH_RETURN_IF_ERROR(Next(info.label, false));
    props_ = PropsOf(r);
    label_ = info.label;
    std::string header =
        fmt::format(":START_ID({}),:END_ID({}),:TYPE", kLabels[static_cast<int>(info.from)],
                    kLabels[static_cast<int>(info.to)]);
    for (int i = 0; i < props_.count; ++i)
      header += fmt::format(",{}{}", props_.columns[i].name, Neo4jType(props_.columns[i].type));
    cur_->Write(header + "\n");
    return Status::Ok();
  }

  void Edge(Rel, uint32_t from, uint32_t to, const AttrValue* props) override {
    line_.clear();
    fmt::format_to(std::back_inserter(line_), "{},{},{}", from, to, label_);
    for (int i = 0; i < props_.count; ++i)
      Field(props ? props[i] : AttrValue{}, props_.columns[i].type);
    line_ += '\n';
    cur_->Write(line_);
    ++cur_->rows;
  }

  bool Failed() const override { return cur_ && cur_->failed(); }

  Status Finish(ExportStats* stats) override {
    LITGRAPH_RETURN_IF_ERROR(Next("", false));
    std::string args = "neo4j-admin database import full --id-type=integer";
    std::string here = args;
    for (const auto& [name, is_nodes] : written_) {
      const char* opt = is_nodes ? "--nodes" : "--relationships";
      args += fmt::format(" {}={}", opt, ShellWord((fs::path(dir_) / (name + ".csv")).string()));
      here += fmt::format(" {}={}.csv", opt, ShellWord(name));
    }
    stats->import_command = args;
    const std::string script = fmt::format(
        "#!/bin/sh\n"
        "# Imports this litgraph export into a new Neo4j 5 database (stop it first):\n"
        "#   ./import.sh [neo4j-admin options] [DATABASE]   (default database: neo4j)\n"
        "# Node ids are per-label integers; each node's OpenAlex id is its `id` property.\n"
        "cd \"$(dirname \"$0\")\" || exit 1\n"
        "exec {} \"$@\"\n",
        here);
    const std::string path = (fs::path(dir_) / "import.sh").string();
    LITGRAPH_RETURN_IF_ERROR(WriteFileAtomic(path, script));
    fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add);
    for (const auto& [name, is_nodes] : written_)
      stats->files.push_back((fs::path(dir_) / (name + ".csv")).string());
    stats->files.push_back(path);
    return Status::Ok();
  }

 private:
  // Closes the current file (an empty one is removed: the importer needs no
  // file for a label without nodes) and opens <name>.csv unless name is "".
  Status Next(const std::string& name, bool is_nodes) {
    if (cur_) {
      const std::string path = cur_->path();
      const bool empty = cur_->rows == 0;
      LITGRAPH_RETURN_IF_ERROR(cur_->Close());
      if (empty)
        std::remove(path.c_str());
      else
        written_.emplace_back(cur_name_, cur_nodes_);
      cur_.reset();
    }
    if (name.empty()) return Status::Ok();
    cur_ = std::make_unique<OutFile>();
    cur_name_ = name;
    cur_nodes_ = is_nodes;
    return cur_->Open((fs::path(dir_) / (name + ".csv")).string());
  }

  void Field(const AttrValue& v, AttrType t) {
    line_ += ',';
    if (v.null) return;
    if (t == AttrType::kString)
      line_ += CsvString(v.s);
    else
      line_ += FormatValue(v, t);
  }

  std::string dir_;
  std::unique_ptr<OutFile> cur_;
  std::string cur_name_;
  bool cur_nodes_ = false;
  std::vector<std::pair<std::string, bool>> written_;  // file name (no .csv), is nodes
  std::span<const AttrColumn> columns_;
  EdgeProps props_;
  const char* label_ = "";
  std::string line_;
};

// --- The export --------------------------------------------------------------

std::vector<Rel> ChosenRels(const RelationSet& set) {
  std::vector<Rel> rels;
  for (const RelInfo& r : AllRelations())
    if (Exported(r) && set.test(static_cast<int>(r.rel))) rels.push_back(r.rel);
  return rels;
}

// The node types a whole-store export writes: the ends of its relations.
std::vector<NodeType> TypesOf(const std::vector<Rel>& rels) {
  bool used[kNodeTypeCount] = {};
  for (Rel r : rels) {
    used[static_cast<int>(GetRelInfo(r).from)] = true;
    used[static_cast<int>(GetRelInfo(r).to)] = true;
  }
  std::vector<NodeType> types;
  for (int t = 0; t < kNodeTypeCount; ++t)
    if (used[t]) types.push_back(static_cast<NodeType>(t));
  return types;
}

// The edges of one relation: every list (members == nullptr) or the lists
// of the members, keeping neighbours that are members.
void StreamEdges(Graph& graph, Rel r, const std::vector<NodeRef>* members,
                 const std::unordered_set<uint64_t>* member_keys, Sink* sink, int64_t* count) {
  const RelInfo& info = GetRelInfo(r);
  const bool symmetric = Symmetric(info);
  const EdgeProps props = PropsOf(r);
  Adjacency& adj = graph.adj(r);
  AdjacencyScan scan(adj);
  AttrValue values[2];
  auto list_of = [&](uint64_t node) {
    return adj.sparse() || members ? adj.Neighbours(node) : scan.Get(node);
  };
  auto emit = [&](uint32_t from) {
    Adjacency::List list = list_of(from);
    for (size_t k = 0; k < list.size(); ++k) {
      const uint32_t to = list.ids[k];
      if (symmetric && to < from) continue;
      if (member_keys && !member_keys->count(NodeRef{info.to, to}.key())) continue;
      const bool with_props = props.count > 0 && !list.attrs.empty();
      if (with_props) DecodeProps(r, list.attrs[k], values);
      sink->Edge(r, from, to, with_props ? values : nullptr);
      ++*count;
    }
  };
  if (!members) {
    for (uint64_t n = 0; n < adj.num_nodes() && !sink->Failed(); ++n)
      emit(static_cast<uint32_t>(n));
    return;
  }
  for (const NodeRef& m : *members)
    if (m.type == info.from) emit(m.id);
}

}  // namespace

const char* NodeLabel(NodeType t) { return kLabels[static_cast<int>(t)]; }

std::vector<std::string> ExportRelationNames() {
  std::vector<std::string> names;
  for (const RelInfo& r : AllRelations())
    if (Exported(r)) names.push_back(r.label);
  return names;
}

RelationSet AllExportRelations() {
  RelationSet set;
  for (const RelInfo& r : AllRelations())
    if (Exported(r)) set.set(static_cast<int>(r.rel));
  return set;
}

Result<RelationSet> ParseRelations(std::string_view list) {
  RelationSet set;
  size_t p = 0;
  while (p <= list.size()) {
    size_t e = list.find(',', p);
    if (e == std::string_view::npos) e = list.size();
    std::string name;
    for (char c : list.substr(p, e - p))
      if (c != ' ') name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    p = e + 1;
    if (name.empty()) continue;
    bool found = false;
    for (const RelInfo& r : AllRelations()) {
      if (Exported(r) && name == r.label) {
        set.set(static_cast<int>(r.rel));
        found = true;
      }
    }
    if (!found) {
      std::string valid;
      for (const std::string& n : ExportRelationNames()) valid += (valid.empty() ? "" : ", ") + n;
      return Status::InvalidArgument(
          fmt::format("--relations: unknown relation '{}' (valid: {})", name, valid));
    }
  }
  if (set.none()) return Status::InvalidArgument("--relations: no relation given");
  return set;
}

Result<std::vector<NodeRef>> ExportNeighbourhood(Graph& graph, const std::vector<NodeRef>& seeds,
                                                 int hops, const RelationSet& relations,
                                                 size_t max_nodes) {
  std::unordered_set<uint64_t> seen;
  std::vector<NodeRef> all, frontier;
  for (const NodeRef& s : seeds)
    if (seen.insert(s.key()).second) frontier.push_back(s);
  std::sort(frontier.begin(), frontier.end());
  all = frontier;
  if (all.size() > max_nodes)
    return Status::InvalidArgument(
        fmt::format("{} seeds are more than --max-nodes {}", all.size(), max_nodes));
  // Both directions of each chosen relation.
  std::vector<Rel> dirs;
  for (Rel r : ChosenRels(relations)) {
    dirs.push_back(r);
    if (GetRelInfo(r).reverse != r) dirs.push_back(GetRelInfo(r).reverse);
  }
  for (int hop = 1; hop <= hops && !frontier.empty(); ++hop) {
    std::vector<NodeRef> next;
    for (const NodeRef& n : frontier) {
      for (Rel r : dirs) {
        const RelInfo& info = GetRelInfo(r);
        if (info.from != n.type) continue;
        for (uint32_t to : graph.adj(r).Neighbours(n.id).ids) {
          if (!seen.insert(NodeRef{info.to, to}.key()).second) continue;
          next.push_back(NodeRef{info.to, to});
          if (all.size() + next.size() > max_nodes)
            return Status::InvalidArgument(
                fmt::format("the neighbourhood has more than --max-nodes {} nodes at hop {} (raise "
                            "--max-nodes, lower --hops or choose fewer --relations)",
                            max_nodes, hop));
        }
      }
    }
    std::sort(next.begin(), next.end());
    all.insert(all.end(), next.begin(), next.end());
    frontier = std::move(next);
  }
  LITGRAPH_RETURN_IF_ERROR(graph.status());
  std::sort(all.begin(), all.end());
  return all;
}

Status Export(Graph& graph, const ExportOptions& options, std::FILE* out, ExportStats* stats) {
  const std::vector<Rel> rels = ChosenRels(options.relations);
  std::vector<NodeRef> members;
  std::unordered_set<uint64_t> member_keys;
  const bool whole = options.seeds.empty();
  std::vector<NodeType> types;
  if (whole) {
    types = TypesOf(rels);
  } else {
    auto hood = ExportNeighbourhood(graph, options.seeds, options.hops, options.relations,
                                    options.max_nodes);
    if (!hood.ok()) return hood.status();
    members = std::move(*hood);
    for (const NodeRef& m : members) {
      member_keys.insert(m.key());
      if (types.empty() || types.back() != m.type) types.push_back(m.type);
    }
  }
  OutFile file;
  std::unique_ptr<Sink> sink;
  if (options.format == ExportFormat::kGraphml) {
    if (options.out.empty() || options.out == "-")
      file.Attach(out, "standard output");
    else
      LITGRAPH_RETURN_IF_ERROR(file.Open(options.out));
    sink = std::make_unique<GraphmlSink>(&file);
  } else {
    sink = std::make_unique<Neo4jSink>(options.out);
  }
  LITGRAPH_RETURN_IF_ERROR(sink->Begin(types, rels));
  Store* store = graph.store();
  for (NodeType t : types) {
    LITGRAPH_RETURN_IF_ERROR(sink->BeginNodes(t));
    std::vector<uint32_t> ids;
    if (!whole)
      for (const NodeRef& m : members)
        if (m.type == t) ids.push_back(m.id);
    int64_t& count = stats->nodes[NodeLabel(t)];
    options.reporter->Progress(fmt::format("{} nodes", NodeLabel(t)));
    store->ForEachNodeRow(t, whole ? nullptr : &ids, [&](const NodeRow& row) {
      if (sink->Failed()) return;
      sink->Node(t, row);
      ++count;
    });
    stats->total_nodes += count;
  }
  for (Rel r : rels) {
    LITGRAPH_RETURN_IF_ERROR(sink->BeginEdges(r));
    int64_t& count = stats->edges[GetRelInfo(r).label];
    options.reporter->Progress(fmt::format("{} edges", GetRelInfo(r).label));
    StreamEdges(graph, r, whole ? nullptr : &members, whole ? nullptr : &member_keys, sink.get(),
                &count);
    stats->total_edges += count;
    LITGRAPH_RETURN_IF_ERROR(graph.status());
  }
  return sink->Finish(stats);
}

// --- Pure pieces -------------------------------------------------------------

std::string XmlText(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      switch (c) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        case '\'':
          out += "&apos;";
          break;
        default:
          if (c >= 0x20 ? c != 0x7f : (c == '\t' || c == '\n' || c == '\r')) out += c;
      }
      continue;
    }
    const size_t len = Utf8Length(s, i);
    if (len == 0) {  // invalid: one byte becomes U+FFFD
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    const std::string_view seq = s.substr(i, len);
    // C1 controls (C2 80..C2 9F), U+FFFE and U+FFFF.
    const bool drop = (len == 2 && c == 0xC2 && static_cast<unsigned char>(seq[1]) < 0xA0) ||
                      seq == "\xEF\xBF\xBE" || seq == "\xEF\xBF\xBF";
    if (!drop) out.append(seq);
    i += len;
  }
  return out;
}

std::string CsvString(std::string_view s) {
  std::string out = "\"";
  out.reserve(s.size() + 2);
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"') {
      out += "\"\"";
    } else if (c < 0x20 || c == 0x7f) {
      out += ' ';
    } else if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0 &&
               static_cast<unsigned char>(s[i + 1]) >= 0x80) {
      out += ' ';  // a C1 control (U+0080..U+009F)
      ++i;
    } else {
      out += s[i];
    }
  }
  out += '"';
  return out;
}

}  // namespace litgraph
