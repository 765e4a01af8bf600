#include "kernel/pathfinding.h"

#include <algorithm>
#include <functional>

namespace steppe {

void PathFinder::prepare(const NodeGraph& g) {
  const size_t states = static_cast<size_t>(g.node_count()) * 2;
  if (stamp_.size() < states) {
    stamp_.resize(states, 0);
    dist_.resize(states, 0);
    pred_.resize(states, -1);
    done_.resize(states, 0);
    seen_node_.resize(states / 2, 0);
    order_.reserve(states / 2);
  }
  // Each free state relaxes each of its edges at most once, so this bounds the pushes.
  heap_.reserve(static_cast<size_t>(g.edge_count()) + states + 1);
  if (++gen_ == 0) {  // the generation counter wrapped: clear the stamps once
    std::fill(stamp_.begin(), stamp_.end(), 0);
    std::fill(seen_node_.begin(), seen_node_.end(), 0);
    gen_ = 1;
  }
  order_.clear();
  heap_.clear();
}

int PathFinder::run(const NodeGraph& g, std::span<const int> starts, int goal, int budget, StepCostFn cost,
                    MoveOptions options) {
  prepare(g);
  const auto relax = [this](int state, int d, int from_state) {
    if (stamp_[state] == gen_ && (done_[state] != 0 || dist_[state] <= d)) return;
    stamp_[state] = gen_;
    dist_[state] = d;
    pred_[state] = from_state;
    done_[state] = 0;
    heap_.emplace_back(d, state);
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
  };
  for (int start : starts)
    if (start >= 0 && start < g.node_count()) relax(2 * start, 0, -1);
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    const auto [d, state] = heap_.back();
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
    for (const GraphEdge& e : g.neighbours(node)) {
      const StepCost sc = cost(node, e.to, e.id);
      if (!sc.passable()) continue;
      bool stop = sc.stop;
      const int nd = d + sc.cost;
      if (nd > budget) {
        // The minimum move: one step from the start, which then ends the move.
        if (!(options.at_least_one_step && d == 0 && pred_[state] < 0)) continue;
        stop = true;
      }
      relax(2 * e.to + (stop ? 1 : 0), nd, state);
    }
  }
  return -1;
}

void PathFinder::reachable(const NodeGraph& g, int start, int budget, StepCostFn cost, MoveOptions options) {
  const int starts[] = {start};
  run(g, starts, -1, budget, cost, options);
}

void PathFinder::reachable_from(const NodeGraph& g, std::span<const int> starts, int budget, StepCostFn cost,
                                MoveOptions options) {
  run(g, starts, -1, budget, cost, options);
}

int PathFinder::shortest_path(const NodeGraph& g, int start, int goal, int budget, StepCostFn cost,
                              std::vector<int>& out, MoveOptions options) {
  const int starts[] = {start};
  const int c = run(g, starts, goal, budget, cost, options);
  out.clear();
  if (c >= 0) path(goal, out);
  return c;
}

int PathFinder::best_state(int node) const {
  const int free = 2 * node, stopped = 2 * node + 1;
  const bool f = settled(free), s = settled(stopped);
  if (f && s) return dist_[free] <= dist_[stopped] ? free : stopped;
  return f ? free : (s ? stopped : -1);
}

int PathFinder::cost(int node) const {
  const int s = best_state(node);
  return s < 0 ? -1 : dist_[s];
}

void PathFinder::path(int node, std::vector<int>& out) const {
  out.clear();
  for (int s = best_state(node); s >= 0; s = pred_[s]) out.push_back(s / 2);
  std::reverse(out.begin(), out.end());
}

}  // namespace steppe
