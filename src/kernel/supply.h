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
//     On a HexGrid a can_pass object may also give sides(node): the bitmask of directions
//     trace() may spread in from `node` (per-side bitmasks, e.g. no supply across an
//     all-sea hexside); closed sides are then skipped without reading the neighbour.
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
    // Local pointers: a byte store through a member would make the compiler reload every
    // member after it (char aliasing), the difference between 1.2x and 1.8x a bare BFS.
    uint8_t* const seen = seen_.data();
    int32_t* const next = next_.data();
    int32_t* const order = order_.data();
    size_t count = 0;
    const auto visit = [&](int node, int from, SupplyEntry rule) {
      seen[node] = rule == SupplyEntry::kOpen ? kSeenOpen : kSeenEndOnly;
      next[node] = from;
      order[count++] = node;
    };
    for (int s : sources) {
      if (s < 0 || s >= n || seen[s] != 0) continue;
      const SupplyEntry r = node_rule(s);
      if (r == SupplyEntry::kBlocked) continue;
      visit(s, -1, r);
    }
    // The queue is the visited list: BFS appends, `head` walks it; `level_end` marks where
    // the nodes one step further begin, so no per-node distance is stored. Levels are
    // counted only when a maximum length asks for them.
    const size_t sources_end = count;
    const bool limited = max_length >= 0;
    size_t level_end = count;
    int depth = 0;
    for (size_t head = 0; head < count; ++head) {
      if (limited) {
        if (head == level_end) {
          ++depth;
          level_end = count;
        }
        if (depth >= max_length) continue;
      }
      const int u = order[head];
      // Only sources and open nodes carry supply further (kEndOnly nodes end paths).
      if (seen[u] != kSeenOpen && head >= sources_end) continue;
      const auto step = [&](int v, int edge) {
        if (seen[v] != 0) return;
        if (!can_pass(v, u, edge)) return;  // the path runs from the unit (v) towards the source
        const SupplyEntry r = node_rule(v);
        if (r == SupplyEntry::kBlocked) return;
        visit(v, u, r);
      };
      // A rules object with sides(u), a per-hex bitmask of the directions a path may take
      // from u (towards the unit), on a HexGrid: the closed sides are skipped unread.
      if constexpr (requires { g.for_each_edge_in(u, unsigned{can_pass.sides(u)}, step); })
        g.for_each_edge_in(u, unsigned{can_pass.sides(u)}, step);
      else
        g.for_each_edge(u, step);
    }
    count_ = count;
  }

  bool supplied(int node) const {
    return last_was_one_ ? node == one_from_ && one_end_ >= 0 : seen_[node] != 0;
  }
  int distance(int node) const;   // steps to the source, -1 if unsupplied
  int source_of(int node) const;  // the source its path ends at, -1 if unsupplied
  // The path node..source (empty if unsupplied): for the adjudication log.
  void path(int node, std::vector<int>& out) const;
  // After trace(): every supplied node, in BFS order (sources first).
  std::span<const int32_t> supplied_nodes() const { return {order_.data(), last_was_one_ ? 0 : count_}; }
  // After trace(): one byte per node of the graph, non-zero exactly where supplied() is true
  // (for a game that keeps the answer as a per-node array: one copy, no loop over nodes).
  std::span<const uint8_t> supplied_marks() const {
    return {seen_.data(), last_was_one_ ? 0 : static_cast<size_t>(node_count_)};
  }

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
    uint8_t* const seen = seen_.data();  // locals, as in trace()
    int32_t* const next = next_.data();
    int32_t* const order = order_.data();
    size_t count = 0;
    const auto visit = [&](int node, int pred, SupplyEntry rule) {
      seen[node] = rule == SupplyEntry::kOpen ? kSeenOpen : kSeenEndOnly;
      next[node] = pred;  // predecessor, towards the unit
      order[count++] = node;
    };
    visit(from, -1, first);
    size_t level_end = count;
    int depth = 0;
    bool found = false;
    for (size_t head = 0; head < count && !found; ++head) {
      if (head == level_end) {
        ++depth;
        level_end = count;
      }
      const int u = order[head];
      if (is_source(u)) {
        one_end_ = u;  // only `from` counts as supplied after a single query
        one_length_ = depth;
        found = true;
        break;
      }
      if (depth > 0 && seen[u] != kSeenOpen) continue;  // may end here only
      if (max_length >= 0 && depth >= max_length) continue;
      g.for_each_edge(u, [&](int v, int edge) {
        if (seen[v] != 0) return;
        if (!can_pass(u, v, edge)) return;
        const SupplyEntry r = node_rule(v);
        if (r == SupplyEntry::kBlocked) return;
        visit(v, u, r);
      });
    }
    count_ = count;
    return found;
  }

 private:
  // seen_: 0 = not visited this call, else kSeenOpen or kSeenEndOnly (the node rule's
  // answer, kept for when the node leaves the queue). One byte per node, cleared through
  // the previous call's visited list, so a call costs what it visits, not the map's size.
  static constexpr uint8_t kSeenOpen = 1, kSeenEndOnly = 2;
  void prepare(int node_count);

  std::vector<uint8_t> seen_;
  std::vector<int32_t> next_;   // next node towards the source (trace) / predecessor (trace_one)
  std::vector<int32_t> order_;  // BFS queue, then the visited nodes (count_ of them)
  size_t count_ = 0;
  int node_count_ = 0;                                 // of the last call's graph
  int one_from_ = -1, one_end_ = -1, one_length_ = 0;  // set by trace_one
  bool last_was_one_ = false;
};

}  // namespace steppe
