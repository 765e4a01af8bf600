// Supply tracing: which nodes can trace a path to a supply source.
//
// One multi-source breadth-first search from every source answers the question for the
// whole map at once (a game checks many units per phase); a per-unit query searches from
// one unit toward the sources and stops at the first. The game gives its rules as
// callbacks:
//   node rule (node) -> kOpen: a path may pass through; kEndOnly: a path may start or end
//     here but not pass through (e.g. an enemy zone of control that only blocks tracing
//     *through*); kBlocked: no path may use it (e.g. enemy-occupied; BD 7.3, 7.14).
//   can_pass (from, to, edge id): may the path step from `from` to `to`, where `from` is
//     the end nearer the unit (all-sea hexsides, Kerch/Sivash by side, logistical areas).
// Sources are path ends: a kBlocked source does not supply (BD 7.3: "a source hex doesn't
// work while enemy-occupied"); a kEndOnly one still does. Optional maximum length counts
// steps from the unit's node to the source. The graph's adjacency must be symmetric (as
// hex maps and two-way area connections are); direction-dependent rules go in can_pass.
// Buffers are reused: no allocation per call after the first on a graph.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "kernel/function_ref.h"
#include "kernel/graph.h"

namespace steppe {

enum class SupplyEntry : uint8_t { kOpen, kEndOnly, kBlocked };

using SupplyNodeFn = FunctionRef<SupplyEntry(int node)>;
using SupplyEdgeFn = FunctionRef<bool(int from, int to, int edge)>;
using IsSourceFn = FunctionRef<bool(int node)>;

class SupplyTracer {
 public:
  static constexpr int kUnlimited = -1;

  // Marks every node that can trace to one of `sources`. Valid until the next call.
  void trace(const NodeGraph& g, std::span<const int> sources, SupplyNodeFn node_rule, SupplyEdgeFn can_pass,
             int max_length = kUnlimited);
  bool supplied(int node) const { return stamp_[node] == gen_; }
  int distance(int node) const { return supplied(node) ? dist_[node] : -1; }  // steps to the source
  int source_of(int node) const;  // the source its path ends at, -1 if unsupplied
  // The path node..source (empty if unsupplied): for the adjudication log.
  void path(int node, std::vector<int>& out) const;
  const std::vector<int32_t>& supplied_nodes() const { return order_; }

  // One unit: can `from` trace to any node with is_source(node)? Same rules as trace().
  // On success path() describes the found path from `from`. Overwrites trace() results.
  bool trace_one(const NodeGraph& g, int from, IsSourceFn is_source, SupplyNodeFn node_rule,
                 SupplyEdgeFn can_pass, int max_length = kUnlimited);

 private:
  void prepare(const NodeGraph& g);
  SupplyEntry rule_of(int node, SupplyNodeFn& node_rule);

  uint32_t gen_ = 1;
  std::vector<uint32_t> stamp_;       // node visited this call
  std::vector<uint32_t> rule_stamp_;  // rule_ cached this call
  std::vector<uint8_t> rule_;
  std::vector<int32_t> dist_;
  std::vector<int32_t> next_;         // next node towards the source (trace) / predecessor (trace_one)
  std::vector<int32_t> order_;        // BFS queue, then the visited nodes
  int one_from_ = -1, one_end_ = -1;  // set by trace_one
  bool last_was_one_ = false;
};

}  // namespace steppe
