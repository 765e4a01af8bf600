#include "kernel/pathfinding.h"

#include <algorithm>

namespace steppe {

void PathFinder::prepare(int node_count, int edge_bound) {
  const size_t states = static_cast<size_t>(node_count) * 2;
  if (stamp_.size() < states) {
    stamp_.resize(states, 0);
    dist_.resize(states, 0);
    pred_.resize(states, -1);
    done_.resize(states, 0);
    seen_node_.resize(states / 2, 0);
    order_.reserve(states / 2);
  }
  // Each free state relaxes each of its edges at most once, so this bounds the pushes.
  heap_.reserve(static_cast<size_t>(edge_bound) + states + 1);
  if (++gen_ == 0) {  // the generation counter wrapped: clear the stamps once
    std::fill(stamp_.begin(), stamp_.end(), 0);
    std::fill(seen_node_.begin(), seen_node_.end(), 0);
    gen_ = 1;
  }
  order_.clear();
  heap_.clear();
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
