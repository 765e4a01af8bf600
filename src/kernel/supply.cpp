#include "kernel/supply.h"

#include <algorithm>

namespace steppe {

void SupplyTracer::prepare(int node_count) {
  // Clear what the last call visited: node by node when that was a small part of the map (a
  // call costs what it visits, not the map's size), in one sweep when it was not (cheaper per
  // byte than the scattered stores by about the factor below).
  if (count_ * 16 < seen_.size())
    for (size_t i = 0; i < count_; ++i) seen_[static_cast<size_t>(order_[i])] = 0;
  else
    std::fill(seen_.begin(), seen_.end(), uint8_t{0});
  count_ = 0;
  node_count_ = node_count;
  const size_t n = static_cast<size_t>(node_count);
  if (seen_.size() < n) {
    seen_.resize(n, 0);
    next_.resize(n, -1);
    order_.resize(n, -1);
  }
}

int SupplyTracer::distance(int node) const {
  if (!supplied(node)) return -1;
  if (last_was_one_) return one_length_;
  int steps = 0;
  for (int n = next_[node]; n >= 0; n = next_[n]) ++steps;
  return steps;
}

int SupplyTracer::source_of(int node) const {
  if (!supplied(node)) return -1;
  if (last_was_one_) return node == one_from_ ? one_end_ : -1;
  while (next_[node] >= 0) node = next_[node];
  return node;
}

void SupplyTracer::path(int node, std::vector<int>& out) const {
  out.clear();
  if (!supplied(node)) return;
  if (last_was_one_) {
    if (node != one_from_ || one_end_ < 0) return;
    for (int n = one_end_; n >= 0; n = next_[n]) out.push_back(n);
    std::reverse(out.begin(), out.end());
    return;
  }
  for (int n = node; n >= 0; n = next_[n]) out.push_back(n);
}

}  // namespace steppe
