// Supply tracing: which nodes can trace a path to a supply source.
//
// One multi-source breadth-first search from every source answers the question for the
// whole map at once (a game checks many units per phase); a per-unit query searches from
// one unit toward the sources and stops at the first. The game gives its rules as two
// callables, template parameters so that they inline into the search loop (a lambda or a
// rules object per side; bench/ holds the trace within 1.3x of a bare BFS):
//   node rule (node) -> kOpen: a path may pass through; kEndOnly: a path may start or end
//     here but not pass through (e.g. an enemy zone of control that only blocks tracing
//     *through*); kBlocked: no path may use it (e.g. enemy-occupied; BD 7.3, 7.14).
//   can_pass (from, to, edge): may the path step from `from` to `to`, where `from` is the
//     end nearer the unit (all-sea hexsides, Kerch/Sivash by side, logistical areas). In
//     trace() the edge is the one stored at `to` (the source end) leading to `from`; in
//     trace_one() the one stored at `from` leading to `to`. A NodeGraph's edge ids (hexside
//     or connection index) are the same either way; on a HexGrid the edge is a direction.
// Sources are path ends: a kBlocked source does not supply (BD 7.3: "a source hex doesn't
// work while enemy-occupied"); a kEndOnly one still does. Optional maximum length counts
// steps from the unit's node to the source. The graph's adjacency must be symmetric (as
// hex maps and two-way area connections are); direction-dependent rules go in can_pass.
// The graph is any SearchGraph (graph.h). Buffers are reused: no allocation per call after
// the first on a graph of that size.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "kernel/graph.h"

namespace steppe {

enum class SupplyEntry : uint8_t { kOpen, kEndOnly, kBlocked };

class SupplyTracer {
 public:
  static constexpr int kUnlimited = -1;

  // Marks every node that can trace to one of `sources`. Valid until the next call.
  template <SearchGraph Graph, class NodeRule, class CanPass>
  void trace(const Graph& g, std::span<const int> sources, const NodeRule& node_rule, const CanPass& can_pass,
             int max_length = kUnlimited) {
    const int n = g.node_count();
    prepare(n);
    last_was_one_ = false;
    for (int s : sources) {
      if (s < 0 || s >= n || stamp_[s] == gen_) continue;
      const SupplyEntry r = node_rule(s);
      if (r == SupplyEntry::kBlocked) continue;
      visit(s, -1, r);
    }
    // order_ doubles as the FIFO queue: BFS appends, `head` walks it; `level_end` marks
    // where the nodes one step further begin, so no per-node distance is stored.
    size_t level_end = order_.size();
    int depth = 0;
    for (size_t head = 0; head < order_.size(); ++head) {
      if (head == level_end) {
        ++depth;
        level_end = order_.size();
      }
      const int u = order_[head];
      // Only sources and open nodes carry supply further (kEndOnly nodes end paths).
      if (depth > 0 && rule_[u] != static_cast<uint8_t>(SupplyEntry::kOpen)) continue;
      if (max_length >= 0 && depth >= max_length) continue;
      g.for_each_edge(u, [&](int v, int edge) {
        if (stamp_[v] == gen_) return;
        const SupplyEntry r = node_rule(v);
        if (r == SupplyEntry::kBlocked) return;
        if (!can_pass(v, u, edge)) return;  // the path runs from the unit (v) towards the source
        visit(v, u, r);
      });
    }
  }

  bool supplied(int node) const { return stamp_[node] == gen_; }
  int distance(int node) const;   // steps to the source, -1 if unsupplied
  int source_of(int node) const;  // the source its path ends at, -1 if unsupplied
  // The path node..source (empty if unsupplied): for the adjudication log.
  void path(int node, std::vector<int>& out) const;
  const std::vector<int32_t>& supplied_nodes() const { return order_; }

  // One unit: can `from` trace to any node with is_source(node)? Same rules as trace().
  // On success path() describes the found path from `from`. Overwrites trace() results.
  template <SearchGraph Graph, class IsSource, class NodeRule, class CanPass>
  bool trace_one(const Graph& g, int from, const IsSource& is_source, const NodeRule& node_rule,
                 const CanPass& can_pass, int max_length = kUnlimited) {
    prepare(g.node_count());
    last_was_one_ = true;
    one_from_ = from;
    one_end_ = -1;
    const SupplyEntry first = node_rule(from);
    if (first == SupplyEntry::kBlocked) return false;
    visit(from, -1, first);  // next_ = predecessor, towards the unit
    size_t level_end = order_.size();
    int depth = 0;
    for (size_t head = 0; head < order_.size(); ++head) {
      if (head == level_end) {
        ++depth;
        level_end = order_.size();
      }
      const int u = order_[head];
      if (is_source(u)) {
        one_end_ = u;
        one_length_ = depth;
        // Only `from` counts as supplied after a single query.
        for (int x : order_)
          if (x != from) stamp_[x] = gen_ - 1;
        return true;
      }
      if (depth > 0 && rule_[u] != static_cast<uint8_t>(SupplyEntry::kOpen)) continue;  // may end here only
      if (max_length >= 0 && depth >= max_length) continue;
      g.for_each_edge(u, [&](int v, int edge) {
        if (stamp_[v] == gen_) return;
        const SupplyEntry r = node_rule(v);
        if (r == SupplyEntry::kBlocked) return;
        if (!can_pass(u, v, edge)) return;
        visit(v, u, r);
      });
    }
    for (int x : order_) stamp_[x] = gen_ - 1;
    return false;
  }

 private:
  void prepare(int node_count);
  void visit(int node, int next, SupplyEntry rule) {
    stamp_[node] = gen_;
    next_[node] = next;
    rule_[node] = static_cast<uint8_t>(rule);
    order_.push_back(node);
  }

  uint32_t gen_ = 1;
  std::vector<uint32_t> stamp_;  // node visited this call iff stamp_ == gen_
  std::vector<uint8_t> rule_;    // the node rule's answer, for visited nodes
  std::vector<int32_t> next_;    // next node towards the source (trace) / predecessor (trace_one)
  std::vector<int32_t> order_;   // BFS queue, then the visited nodes
  int one_from_ = -1, one_end_ = -1, one_length_ = 0;  // set by trace_one
  bool last_was_one_ = false;
};

}  // namespace steppe
