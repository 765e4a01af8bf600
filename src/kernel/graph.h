// The graph view shared by hex maps and area maps: nodes 0..node_count()-1 and, per node,
// its outgoing edges as a contiguous span (compressed sparse rows). Path-finding and
// supply tracing work on this view only, so they serve hexes and areas alike.
//
// An edge carries the neighbour and an edge id that the map gives meaning to: for a hex
// map it is the hexside index (HexMap::hexside_features_at(id)), for an area map the
// connection index (AreaMap::connection(id)). Game rules receive (from, to, edge id).
//
// The searches (pathfinding.h, supply.h) are templates over any graph with node_count()
// and for_each_edge(node, f) calling f(to, edge) for each outgoing edge: a NodeGraph (hex
// or area map), or a HexGrid itself (edge = direction 0..5, the fastest form for a hex
// game whose hexside rules are per-hex bitmasks, HexSideBits).
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <span>
#include <tuple>
#include <vector>

namespace steppe {

struct GraphEdge {
  int32_t to = -1;
  int32_t id = -1;
};

class NodeGraph {
 public:
  NodeGraph() = default;

  int node_count() const { return static_cast<int>(offsets_.empty() ? 0 : offsets_.size() - 1); }
  std::span<const GraphEdge> neighbours(int node) const {
    return {edges_.data() + offsets_[node], edges_.data() + offsets_[node + 1]};
  }
  int degree(int node) const { return offsets_[node + 1] - offsets_[node]; }
  // Whether an edge leads from `from` to `to` (a scan of from's edges: degrees are small).
  bool has_edge(int from, int to) const {
    for (const GraphEdge& e : neighbours(from))
      if (e.to == to) return true;
    return false;
  }
  template <class F>
  void for_each_edge(int node, F&& f) const {
    for (const GraphEdge& e : neighbours(node)) f(static_cast<int>(e.to), static_cast<int>(e.id));
  }
  int edge_count() const { return static_cast<int>(edges_.size()); }  // directed edges
  // Largest edge id + 1: the size of a flat per-edge-id array.
  int edge_id_limit() const { return edge_id_limit_; }

  class Builder {
   public:
    explicit Builder(int node_count) : node_count_(node_count) {}
    // A directed edge; add both directions for an undirected connection.
    void add(int from, int to, int id) { edges_.emplace_back(from, to, id); }
    NodeGraph finish() {
      // Stable sort by source keeps the caller's neighbour order (e.g. hex directions).
      std::stable_sort(edges_.begin(), edges_.end(),
                       [](const auto& x, const auto& y) { return std::get<0>(x) < std::get<0>(y); });
      NodeGraph g;
      g.offsets_.assign(static_cast<size_t>(node_count_) + 1, 0);
      g.edges_.reserve(edges_.size());
      for (const auto& [from, to, id] : edges_) {
        ++g.offsets_[from + 1];
        g.edges_.push_back(GraphEdge{to, id});
        g.edge_id_limit_ = std::max(g.edge_id_limit_, id + 1);
      }
      for (int i = 0; i < node_count_; ++i) g.offsets_[i + 1] += g.offsets_[i];
      return g;
    }

   private:
    int node_count_;
    std::vector<std::tuple<int32_t, int32_t, int32_t>> edges_;
  };

 private:
  std::vector<int32_t> offsets_;  // node_count + 1
  std::vector<GraphEdge> edges_;
  int edge_id_limit_ = 0;
};

// What the searches ask of a graph.
template <class G>
concept SearchGraph = requires(const G& g, int node) {
  { g.node_count() } -> std::convertible_to<int>;
  g.for_each_edge(node, [](int, int) {});
};

}  // namespace steppe
