#include "kernel/supply.h"

#include <algorithm>

namespace steppe {

void SupplyTracer::prepare(const NodeGraph& g) {
  const size_t n = static_cast<size_t>(g.node_count());
  if (stamp_.size() < n) {
    stamp_.resize(n, 0);
    rule_stamp_.resize(n, 0);
    rule_.resize(n, 0);
    dist_.resize(n, 0);
    next_.resize(n, -1);
    order_.reserve(n);
  }
  if (++gen_ == 0) {  // wrapped: clear once
    std::fill(stamp_.begin(), stamp_.end(), 0);
    std::fill(rule_stamp_.begin(), rule_stamp_.end(), 0);
    gen_ = 1;
  }
  order_.clear();
}

SupplyEntry SupplyTracer::rule_of(int node, SupplyNodeFn& node_rule) {
  // The game's rule may look at stacks and ZOC; ask once per node per trace.
  if (rule_stamp_[node] != gen_) {
    rule_stamp_[node] = gen_;
    rule_[node] = static_cast<uint8_t>(node_rule(node));
  }
  return static_cast<SupplyEntry>(rule_[node]);
}

void SupplyTracer::trace(const NodeGraph& g, std::span<const int> sources, SupplyNodeFn node_rule,
                         SupplyEdgeFn can_pass, int max_length) {
  prepare(g);
  last_was_one_ = false;
  for (int s : sources) {
    if (s < 0 || s >= g.node_count() || stamp_[s] == gen_) continue;
    if (rule_of(s, node_rule) == SupplyEntry::kBlocked) continue;
    stamp_[s] = gen_;
    dist_[s] = 0;
    next_[s] = -1;
    order_.push_back(s);
  }
  // order_ doubles as the FIFO queue: BFS appends, `head` walks it.
  for (size_t head = 0; head < order_.size(); ++head) {
    const int u = order_[head];
    // Only sources and open nodes carry supply further (kEndOnly nodes end paths).
    if (dist_[u] > 0 && rule_of(u, node_rule) != SupplyEntry::kOpen) continue;
    if (max_length >= 0 && dist_[u] >= max_length) continue;
    for (const GraphEdge& e : g.neighbours(u)) {
      const int v = e.to;
      if (stamp_[v] == gen_) continue;
      if (rule_of(v, node_rule) == SupplyEntry::kBlocked) continue;
      if (!can_pass(v, u, e.id)) continue;  // the path runs from the unit (v) towards the source
      stamp_[v] = gen_;
      dist_[v] = dist_[u] + 1;
      next_[v] = u;
      order_.push_back(v);
    }
  }
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

bool SupplyTracer::trace_one(const NodeGraph& g, int from, IsSourceFn is_source, SupplyNodeFn node_rule,
                             SupplyEdgeFn can_pass, int max_length) {
  prepare(g);
  last_was_one_ = true;
  one_from_ = from;
  one_end_ = -1;
  if (rule_of(from, node_rule) == SupplyEntry::kBlocked) return false;
  stamp_[from] = gen_;
  dist_[from] = 0;
  next_[from] = -1;
  order_.push_back(from);
  for (size_t head = 0; head < order_.size(); ++head) {
    const int u = order_[head];
    if (is_source(u)) {
      one_end_ = u;
      dist_[from] = dist_[u];
      // Only `from` counts as supplied after a single query.
      const int keep = from;
      for (int n : order_)
        if (n != keep) stamp_[n] = gen_ - 1;
      return true;
    }
    if (dist_[u] > 0 && rule_of(u, node_rule) != SupplyEntry::kOpen) continue;  // may end here only
    if (max_length >= 0 && dist_[u] >= max_length) continue;
    for (const GraphEdge& e : g.neighbours(u)) {
      const int v = e.to;
      if (stamp_[v] == gen_) continue;
      if (rule_of(v, node_rule) == SupplyEntry::kBlocked) continue;
      if (!can_pass(u, v, e.id)) continue;
      stamp_[v] = gen_;
      dist_[v] = dist_[u] + 1;
      next_[v] = u;  // predecessor, towards the unit
      order_.push_back(v);
    }
  }
  for (int n : order_) stamp_[n] = gen_ - 1;
  return false;
}

}  // namespace steppe
