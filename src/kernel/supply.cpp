#include "kernel/supply.h"

#include <algorithm>

namespace steppe {

void SupplyTracer::prepare(int node_count) {
  const size_t n = static_cast<size_t>(node_count);
  if (stamp_.size() < n) {
    stamp_.resize(n, 0);
    rule_.resize(n, 0);
    next_.resize(n, -1);
    order_.reserve(n);
  }
  if (++gen_ == 0) {  // wrapped: clear once
    std::fill(stamp_.begin(), stamp_.end(), 0);
    gen_ = 1;
  }
  order_.clear();
}

int SupplyTracer::distance(int node) const {
  if (!supplied(node)) return -1;
  if (last_was_one_) return node == one_from_ && one_end_ >= 0 ? one_length_ : -1;
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
