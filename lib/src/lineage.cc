#include "litgraph/lineage.h"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace litgraph {

namespace {

struct Access {
  std::function<void(uint32_t, std::vector<uint32_t>*)> out, in;
  std::function<uint64_t(uint32_t)> weight;
};

constexpr int64_t kNone = -1;

// Best-first ordering of finished paths: citations (total, or mean per
// paper: compared exactly as a.total x b.papers vs b.total x a.papers), then
// hops, then ids.
bool Better(const LineagePath& a, const LineagePath& b, bool shortest,
            LineageObjective objective = LineageObjective::kTotal) {
  if (shortest && a.hops() != b.hops()) return a.hops() < b.hops();
  if (objective == LineageObjective::kMean) {
    const unsigned __int128 x = static_cast<unsigned __int128>(a.citations) * b.nodes.size(),
                            y = static_cast<unsigned __int128>(b.citations) * a.nodes.size();
    if (x != y) return x > y;
  } else if (a.citations != b.citations) {
    return a.citations > b.citations;
  }
  if (a.hops() != b.hops()) return a.hops() < b.hops();
  return a.nodes < b.nodes;
}

class Searcher {
 public:
  Searcher(const Access& g, uint32_t newer, uint32_t older, const LineageOptions& o,
           LineageStats* s)
      : g_(g), b_(newer), a_(older), o_(o), s_(s) {}

  std::vector<LineagePath> Run() {
    if (b_ == a_ || o_.max_hops < 1) return {};
    Expand();
    Build();
    Bounds();
    int d = -1;
    for (int h = 0; h <= o_.max_hops; ++h)
      if (atmost_[h][0] != kNone) {
        d = h;
        break;
      }
    s_->shortest_hops = d;
    if (d < 0) return {};
    std::vector<LineagePath> result;
    if (o_.shortest) {
      for (int h = d; h <= o_.max_hops && result.size() < o_.k; ++h) {
        best_.clear();
        want_ = o_.k - result.size();
        exact_hops_ = h;
        Dfs(h);
        result.insert(result.end(), best_.begin(), best_.end());
      }
    } else if (o_.objective == LineageObjective::kMean) {
      // For a fixed hop count the best totals are the best means: the k best
      // of each length, then the k best means over all lengths.
      for (int h = d; h <= o_.max_hops && !s_->truncated; ++h) {
        best_.clear();
        want_ = o_.k;
        exact_hops_ = h;
        Dfs(h);
        result.insert(result.end(), best_.begin(), best_.end());
      }
      std::sort(result.begin(), result.end(), [&](const LineagePath& x, const LineagePath& y) {
        return Better(x, y, false, LineageObjective::kMean);
      });
      if (result.size() > o_.k) result.resize(o_.k);
    } else {
      want_ = o_.k;
      exact_hops_ = -1;
      Dfs(o_.max_hops);
      result = best_;
    }
    return result;
  }

 private:
  // Step 1: grow the cheaper side until the depths sum to max_hops.
  void Expand() {
    fdist_[b_] = 0;
    bdist_[a_] = 0;
    std::vector<uint32_t> ff = {b_}, bf = {a_}, next, nbrs;
    int kf = 0, kb = 0;
    uint64_t expanded = 0;
    while (kf + kb < o_.max_hops && (!ff.empty() || !bf.empty())) {
      bool forward = bf.empty() || (!ff.empty() && ff.size() <= bf.size());
      auto& frontier = forward ? ff : bf;
      auto& dist = forward ? fdist_ : bdist_;
      int depth = forward ? kf : kb;
      std::sort(frontier.begin(), frontier.end());
      next.clear();
      for (uint32_t v : frontier) {
        if (expanded >= o_.max_expanded) {
          s_->truncated = true;
          break;
        }
        ++expanded;
        (forward ? g_.out : g_.in)(v, &nbrs);
        for (uint32_t u : nbrs) {
          if (u == v) continue;
          if (forward)
            edges_.emplace_back(v, u);
          else
            edges_.emplace_back(u, v);
          if (dist.emplace(u, depth + 1).second) next.push_back(u);
        }
        (forward ? s_->forward_expanded : s_->backward_expanded)++;
      }
      frontier.swap(next);
      (forward ? kf : kb)++;
      if (s_->truncated) break;
    }
    s_->forward_depth = kf;
    s_->backward_depth = kb;
  }

  // Local ids: 0 = B, 1 = A, then the rest of the corridor in id order.
  void Build() {
    std::vector<uint32_t> nodes;
    for (auto& [v, d] : fdist_) nodes.push_back(v);
    for (auto& [v, d] : bdist_)
      if (!fdist_.count(v)) nodes.push_back(v);
    std::sort(nodes.begin(), nodes.end());
    global_ = {b_, a_};
    for (uint32_t v : nodes)
      if (v != a_ && v != b_) global_.push_back(v);
    for (size_t i = 0; i < global_.size(); ++i) local_[global_[i]] = static_cast<uint32_t>(i);
    out_.assign(global_.size(), {});
    std::sort(edges_.begin(), edges_.end());
    edges_.erase(std::unique(edges_.begin(), edges_.end()), edges_.end());
    for (auto [u, v] : edges_) out_[local_[u]].push_back(local_[v]);
    weight_.resize(global_.size());
    for (size_t i = 0; i < global_.size(); ++i)
      weight_[i] = static_cast<int64_t>(g_.weight(global_[i]));
    s_->corridor_nodes = global_.size();
    s_->corridor_edges = edges_.size();
  }

  // Step 2: exact_[h][v] = heaviest walk from v to A with exactly h edges;
  // atmost_[h][v] = max over 0..h.
  void Bounds() {
    int L = o_.max_hops;
    size_t n = global_.size();
    exact_.assign(L + 1, std::vector<int64_t>(n, kNone));
    atmost_.assign(L + 1, std::vector<int64_t>(n, kNone));
    exact_[0][1] = weight_[1];
    atmost_[0][1] = weight_[1];
    for (int h = 1; h <= L; ++h) {
      for (size_t v = 0; v < n; ++v) {
        if (v == 1) {
          atmost_[h][v] = weight_[1];
          continue;
        }
        int64_t best = kNone;
        for (uint32_t u : out_[v]) best = std::max(best, exact_[h - 1][u]);
        exact_[h][v] = best == kNone ? kNone : best + weight_[v];
        atmost_[h][v] = std::max(atmost_[h - 1][v], exact_[h][v]);
      }
    }
  }

  int64_t Bound(int rem, uint32_t v) const {
    return exact_hops_ >= 0 ? exact_[rem][v] : atmost_[rem][v];
  }

  void Offer(int64_t sum) {
    LineagePath p;
    for (uint32_t v : path_) p.nodes.push_back(global_[v]);
    p.citations = static_cast<uint64_t>(sum);
    auto pos = std::find_if(best_.begin(), best_.end(),
                            [&](const LineagePath& q) { return Better(p, q, false); });
    best_.insert(pos, std::move(p));
    if (best_.size() > want_) best_.pop_back();
  }

  // Step 3: branch and bound from B.
  void Dfs(int max_hops) {
    path_ = {0};
    on_path_.assign(global_.size(), 0);
    on_path_[0] = 1;
    if (Bound(max_hops, 0) == kNone) return;
    Visit(0, max_hops, weight_[0]);
  }

  void Visit(uint32_t v, int rem, int64_t sum) {
    if (v == 1) {
      if (exact_hops_ < 0 || rem == 0) Offer(sum);
      return;
    }
    if (rem == 0) return;
    if (++s_->dfs_steps > o_.max_steps) {
      s_->truncated = true;
      return;
    }
    std::vector<std::pair<int64_t, uint32_t>> next;
    for (uint32_t u : out_[v]) {
      if (on_path_[u]) continue;
      int64_t b = Bound(rem - 1, u);
      if (b != kNone) next.emplace_back(b, u);
    }
    std::sort(next.begin(), next.end(), [&](const auto& x, const auto& y) {
      return x.first != y.first ? x.first > y.first : global_[x.second] < global_[y.second];
    });
    for (auto [b, u] : next) {
      if (best_.size() >= want_ && sum + b < static_cast<int64_t>(best_.back().citations)) break;
      path_.push_back(u);
      on_path_[u] = 1;
      Visit(u, rem - 1, sum + weight_[u]);
      on_path_[u] = 0;
      path_.pop_back();
      if (s_->truncated) return;
    }
  }

  const Access& g_;
  uint32_t b_, a_;
  const LineageOptions& o_;
  LineageStats* s_;
  std::unordered_map<uint32_t, int> fdist_, bdist_;
  std::vector<std::pair<uint32_t, uint32_t>> edges_;
  std::vector<uint32_t> global_;
  std::unordered_map<uint32_t, uint32_t> local_;
  std::vector<std::vector<uint32_t>> out_;
  std::vector<int64_t> weight_;
  std::vector<std::vector<int64_t>> exact_, atmost_;
  std::vector<uint32_t> path_;
  std::vector<char> on_path_;
  std::vector<LineagePath> best_;
  size_t want_ = 1;
  int exact_hops_ = -1;
};

std::vector<LineagePath> Run(const Access& g, uint32_t newer, uint32_t older,
                             const LineageOptions& options, LineageStats* stats) {
  LineageStats local;
  if (!stats) stats = &local;
  Searcher s(g, newer, older, options, stats);
  return s.Run();
}

}  // namespace

Result<std::vector<LineagePath>> FindLineage(Graph& graph, uint32_t newer, uint32_t older,
                                             const LineageOptions& options, LineageStats* stats) {
  Adjacency& out = graph.adj(Rel::kCitesOut);
  Adjacency& in = graph.adj(Rel::kCitesIn);
  Access g;
  g.out = [&](uint32_t v, std::vector<uint32_t>* r) {
    auto l = out.Neighbours(v);
    r->assign(l.ids.begin(), l.ids.end());
  };
  g.in = [&](uint32_t v, std::vector<uint32_t>* r) {
    auto l = in.Neighbours(v);
    r->assign(l.ids.begin(), l.ids.end());
  };
  g.weight = [&](uint32_t v) { return static_cast<uint64_t>(graph.Citations(v)); };
  std::vector<LineagePath> paths = Run(g, newer, older, options, stats);
  LITGRAPH_RETURN_IF_ERROR(graph.status());
  return paths;
}

Result<LineageResult> TraceLineage(Graph& graph, uint32_t a, uint32_t b,
                                   const LineageOptions& options) {
  LineageResult r;
  r.older = a;
  r.newer = b;
  const int ya = graph.Year(a), yb = graph.Year(b);
  if (ya && yb && ya > yb) {
    std::swap(r.older, r.newer);
    r.swapped = true;
  }
  auto paths = FindLineage(graph, r.newer, r.older, options, &r.stats);
  if (!paths.ok()) return paths.status();
  r.paths = std::move(paths.value());
  if (r.paths.empty() && !(ya && yb && ya != yb)) {  // same or unknown years: try both ways
    LineageStats other;
    auto rev = FindLineage(graph, r.older, r.newer, options, &other);
    if (!rev.ok()) return rev.status();
    if (!rev->empty()) {
      std::swap(r.older, r.newer);
      r.swapped = !r.swapped;
      r.paths = std::move(rev.value());
      r.stats = other;
    }
  }
  return r;
}

std::vector<LineagePath> FindLineage(const std::vector<std::vector<uint32_t>>& out,
                                     const std::vector<uint64_t>& weight, uint32_t newer,
                                     uint32_t older, const LineageOptions& options,
                                     LineageStats* stats) {
  std::vector<std::vector<uint32_t>> in(out.size());
  for (uint32_t v = 0; v < out.size(); ++v)
    for (uint32_t u : out[v]) in[u].push_back(v);
  Access g;
  g.out = [&](uint32_t v, std::vector<uint32_t>* r) {
    *r = v < out.size() ? out[v] : std::vector<uint32_t>{};
  };
  g.in = [&](uint32_t v, std::vector<uint32_t>* r) {
    *r = v < in.size() ? in[v] : std::vector<uint32_t>{};
  };
  g.weight = [&](uint32_t v) { return v < weight.size() ? weight[v] : 0; };
  return Run(g, newer, older, options, stats);
}

Result<std::vector<TreeNode>> LineageTree(Graph& graph, uint32_t root, const TreeOptions& options,
                                          bool* truncated) {
  *truncated = false;
  Adjacency& adj = graph.adj(options.descendants ? Rel::kCitesIn : Rel::kCitesOut);
  std::unordered_map<uint32_t, TreeNode> seen;
  seen[root] = {root, 0, root, {}};
  std::vector<uint32_t> frontier = {root}, next;
  for (int d = 1; d <= options.depth && !frontier.empty(); ++d) {
    // The most cited node of a layer claims its children first, so each
    // node's parent is its most cited neighbour one layer up.
    std::sort(frontier.begin(), frontier.end(), [&](uint32_t a, uint32_t b) {
      uint32_t ca = graph.Citations(a), cb = graph.Citations(b);
      return ca != cb ? ca > cb : a < b;
    });
    next.clear();
    for (uint32_t v : frontier) {
      for (uint32_t u : adj.Neighbours(v).ids) {
        if (seen.size() >= options.max_nodes) {
          *truncated = true;
          break;
        }
        if (seen.emplace(u, TreeNode{u, d, v, {}}).second) next.push_back(u);
      }
      if (*truncated) break;
    }
    frontier.swap(next);
    if (*truncated) break;
  }
  std::vector<TreeNode> all;
  for (auto& [id, n] : seen)
    if (id != root) all.push_back(n);
  auto rank = [&](const TreeNode& a, const TreeNode& b) {
    uint32_t ca = graph.Citations(a.paper), cb = graph.Citations(b.paper);
    if (ca != cb) return ca > cb;
    if (a.depth != b.depth) return a.depth < b.depth;
    return a.paper < b.paper;
  };
  std::sort(all.begin(), all.end(), rank);
  if (all.size() > options.limit) all.resize(options.limit);
  for (TreeNode& n : all) {
    for (uint32_t p = n.parent; p != root; p = seen[p].parent) n.via.push_back(p);
    std::reverse(n.via.begin(), n.via.end());
  }
  LITGRAPH_RETURN_IF_ERROR(graph.status());
  return all;
}

}  // namespace litgraph
