// Movement: which nodes a unit can reach with its movement points, and by which path.
//
// The game supplies the rules as a cost callback (from, to, edge id) -> StepCost: the MP
// to enter `to` (terrain, hexside, weather, road/rail...) or impassable, and whether
// entering ends the move (enemy ZOC, "must stop on entering"). The kernel runs Dijkstra
// on the common NodeGraph view, so hex maps and area maps move alike. A PathFinder owns
// its buffers and reuses them: after the first call on a graph, calls allocate nothing
// (legal-move generation calls this for every unit of every position a search visits).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "kernel/function_ref.h"
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

// (from, to, edge id) -> cost. Edge id: hexside index (HexMap) or connection (AreaMap).
using StepCostFn = FunctionRef<StepCost(int from, int to, int edge)>;

struct MoveOptions {
  // Many wargames let a unit always move one hex/area when its MP would not suffice
  // (the move then ends there). Off by default; the game says if its rules allow it.
  bool at_least_one_step = false;
};

class PathFinder {
 public:
  // Every node reachable from `start` spending at most `budget` MP. The results below
  // describe this call until the next one.
  void reachable(const NodeGraph& g, int start, int budget, StepCostFn cost, MoveOptions options = {});
  // The same from several starts at once (cost 0 at each): e.g. "within N MP of any
  // friendly depot", or a supply trace measured in movement points (from the sources).
  void reachable_from(const NodeGraph& g, std::span<const int> starts, int budget, StepCostFn cost,
                      MoveOptions options = {});
  // Cheapest path from `start` to `goal` within `budget` (stops as soon as the goal is
  // settled). Returns its cost and fills `path` (start..goal), or returns -1.
  int shortest_path(const NodeGraph& g, int start, int goal, int budget, StepCostFn cost,
                    std::vector<int>& path, MoveOptions options = {});

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
  void prepare(const NodeGraph& g);
  int run(const NodeGraph& g, std::span<const int> starts, int goal, int budget, StepCostFn cost,
          MoveOptions options);
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
