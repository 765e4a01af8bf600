// Movement: which nodes a unit can reach with its movement points, and by which path.
//
// One search for every unit kind; the rules come as a cost calculator, a template
// parameter (a rules object per unit kind, or a lambda) so that it inlines into the search
// loop: calc(from, to, edge) -> StepCost, the MP to enter `to` (terrain, hexside, weather,
// road/rail...) or impassable, and whether entering ends the move (enemy ZOC, "must stop
// on entering"). The kernel runs Dijkstra on any SearchGraph (graph.h): a NodeGraph, so
// hex maps and area maps move alike (edge = hexside or connection index), or a HexGrid
// (edge = direction). A PathFinder owns its buffers and reuses them: after the first call
// on a graph, calls allocate nothing (legal-move generation calls this for every unit of
// every position a search visits).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "kernel/graph.h"

namespace steppe {

struct StepCost {
  int cost = 1;       // MP to enter `to`; negative = impassable
  bool stop = false;  // entering `to` ends movement (it is reached, not passed through)

  static StepCost impassable() { return {-1, false}; }
  static StepCost enter(int mp) { return {mp, false}; }
  static StepCost enter_and_stop(int mp) { return {mp, true}; }
  bool passable() const { return cost >= 0; }
};

struct MoveOptions {
  // Many wargames let a unit always move one hex/area when its MP would not suffice
  // (the move then ends there). Off by default; the game says if its rules allow it.
  bool at_least_one_step = false;
};

class PathFinder {
 public:
  // Every node reachable from `start` spending at most `budget` MP. The results below
  // describe this call until the next one.
  template <SearchGraph Graph, class CostCalc>
  void reachable(const Graph& g, int start, int budget, const CostCalc& cost, MoveOptions options = {}) {
    const int starts[] = {start};
    run(g, starts, -1, budget, cost, options);
  }
  // The same from several starts at once (cost 0 at each): e.g. "within N MP of any
  // friendly depot", or a supply trace measured in movement points (from the sources).
  template <SearchGraph Graph, class CostCalc>
  void reachable_from(const Graph& g, std::span<const int> starts, int budget, const CostCalc& cost,
                      MoveOptions options = {}) {
    run(g, starts, -1, budget, cost, options);
  }
  // Cheapest path from `start` to `goal` within `budget` (stops as soon as the goal is
  // settled). Returns its cost and fills `path` (start..goal), or returns -1.
  template <SearchGraph Graph, class CostCalc>
  int shortest_path(const Graph& g, int start, int goal, int budget, const CostCalc& cost,
                    std::vector<int>& out, MoveOptions options = {}) {
    const int starts[] = {start};
    const int c = run(g, starts, goal, budget, cost, options);
    out.clear();
    if (c >= 0) path(goal, out);
    return c;
  }

  bool reached(int node) const { return best_state(node) >= 0; }
  int cost(int node) const;  // MP spent to reach `node`, -1 if not reached
  // Reached with MP to spare and not stopped there, so it could move on.
  bool can_continue(int node) const { return settled(2 * node); }
  // Nodes reached, in order of increasing cost (start first).
  const std::vector<int32_t>& reached_nodes() const { return order_; }
  // Cheapest path from a start to node (empty if not reached).
  void path(int node, std::vector<int>& out) const;

 private:
  // Each node has two search states: 2n = arrived free to move on, 2n+1 = arrived and
  // stopped. Keeping them apart lets a costlier free arrival still pass through a node
  // that a cheaper route reaches only by stopping.
  void prepare(int node_count, int edge_bound);
  template <SearchGraph Graph, class CostCalc>
  int run(const Graph& g, std::span<const int> starts, int goal, int budget, const CostCalc& cost,
          MoveOptions options) {
    const int n = g.node_count();
    // Each free state relaxes each of its edges at most once; 6 per node bounds a hex grid,
    // a NodeGraph says its own count.
    prepare(n, edge_bound(g));
    for (int start : starts)
      if (start >= 0 && start < n) relax(2 * start, 0, -1);
    while (!heap_.empty()) {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
      // Named copies, not a structured binding: the lambda below captures them (clang 14,
      // which clang-tidy and the fuzz build use, refuses to capture bindings).
      const int d = heap_.back().first;
      const int state = heap_.back().second;
      heap_.pop_back();
      if (done_[state] != 0 || dist_[state] != d) continue;  // stale heap entry
      done_[state] = 1;
      const int node = state / 2;
      if (seen_node_[node] != gen_) {
        seen_node_[node] = gen_;
        order_.push_back(node);
      }
      if (node == goal) return d;
      if ((state & 1) != 0) continue;  // stopped here: no further movement
      const bool first_step = d == 0 && pred_[state] < 0;
      g.for_each_edge(node, [&](int to, int edge) {
        const StepCost sc = cost(node, to, edge);
        if (!sc.passable()) return;
        bool stop = sc.stop;
        const int nd = d + sc.cost;
        if (nd > budget) {
          // The minimum move: one step from the start, which then ends the move.
          if (!(options.at_least_one_step && first_step)) return;
          stop = true;
        }
        relax(2 * to + (stop ? 1 : 0), nd, state);
      });
    }
    return -1;
  }
  template <class Graph>
  static int edge_bound(const Graph& g) {
    if constexpr (requires { g.edge_count(); })
      return g.edge_count();
    else
      return g.node_count() * 6;
  }
  void relax(int state, int d, int from_state) {
    if (stamp_[state] == gen_ && (done_[state] != 0 || dist_[state] <= d)) return;
    stamp_[state] = gen_;
    dist_[state] = d;
    pred_[state] = from_state;
    done_[state] = 0;
    heap_.emplace_back(d, state);
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
  }
  bool settled(int state) const {
    return state >= 0 && state < static_cast<int>(stamp_.size()) && stamp_[state] == gen_ &&
           done_[state] != 0;
  }
  int best_state(int node) const;

  uint32_t gen_ = 0;
  std::vector<uint32_t> stamp_;  // state is valid in this call iff stamp_ == gen_
  std::vector<int32_t> dist_;
  std::vector<int32_t> pred_;  // predecessor state
  std::vector<uint8_t> done_;
  std::vector<uint32_t> seen_node_;                // node already in order_ this call
  std::vector<std::pair<int32_t, int32_t>> heap_;  // (cost, state), min-heap
  std::vector<int32_t> order_;
};

}  // namespace steppe
