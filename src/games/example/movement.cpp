// 3 Movement: the kernel's PathFinder over the kernel's HexGrid, with this game's cost
// calculator (3.1 terrain, 3.2 zone of control, 3.3 one unit per hex).
#include <string>

#include "games/example/example.h"

namespace example {

using steppe::rule_error;
using steppe::Status;
using steppe::StepCost;

namespace {

// One search buffer per thread: after the first search it allocates nothing.
steppe::PathFinder& path_finder() {
  thread_local steppe::PathFinder pf;
  return pf;
}

}  // namespace

void ExampleState::search_moves(int unit, steppe::PathFinder& pf) const {
  const UnitDef& d = g_->units()[static_cast<size_t>(unit)];
  const auto cost = [&](int /*from*/, int to, int /*dir*/) -> StepCost {
    const Terrain& t = g_->terrain_at(to);
    if (t.cost < 0) return StepCost::impassable();                           // 3.1 lakes
    if (unit_at(to) >= 0) return StepCost::impassable();                     // 3.3
    if (next_to_enemy(to, d.side)) return StepCost::enter_and_stop(t.cost);  // 3.2
    return StepCost::enter(t.cost);
  };
  pf.reachable(g_->grid(), hex_of(unit), d.ma, cost);
}

Status ExampleState::check_move(int unit, int to) const {
  if (!movement_phase()) return rule_error("2.1", "units move only in their side's Movement Phase");
  const UnitDef& d = g_->units()[static_cast<size_t>(unit)];
  if (d.side != phasing_side()) return rule_error("2.1", d.id + " is not the phasing side's unit");
  if (hex_of(unit) < 0) return rule_error("4.3", d.id + " has been eliminated");
  if (done_[static_cast<size_t>(unit)] != 0) return rule_error("3.1", d.id + " has already moved this phase");
  if (to == hex_of(unit)) return rule_error("3.1", d.id + " is already in " + g_->grid().id(to));
  const std::string where = g_->grid().id(to);
  if (g_->terrain_at(to).cost < 0) return rule_error("3.1", "no unit may enter " + where + " (lake)");
  if (unit_at(to) >= 0) return rule_error("3.3", where + " already holds a unit");
  steppe::PathFinder& pf = path_finder();
  search_moves(unit, pf);
  if (!pf.reached(to))
    return rule_error("3.1", d.id + " cannot reach " + where + " with " + std::to_string(d.ma) +
                                 " MP (enemy zones of control stop it, 3.2)");
  return Status::ok();
}

void ExampleState::do_move(int unit, int to) {
  const std::string from = g_->grid().id(hex_of(unit));
  hex_[static_cast<size_t>(unit)] = to;
  done_[static_cast<size_t>(unit)] = 1;
  note("move", g_->units()[static_cast<size_t>(unit)].id + " moves " + from + " -> " + g_->grid().id(to),
       "3.1");
}

// Every unit of the phasing side that has not moved, to every hex it reaches, in unit order
// then in order of the hexes' indices (deterministic).
void ExampleState::generate_moves(std::vector<steppe::Action>& out) const {
  steppe::PathFinder& pf = path_finder();
  for (size_t u = 0; u < hex_.size(); ++u) {
    if (hex_[u] < 0 || done_[u] != 0 || g_->units()[u].side != phasing_side()) continue;
    search_moves(static_cast<int>(u), pf);
    for (int h = 0; h < g_->grid().size(); ++h) {
      if (h == hex_[u] || !pf.reached(h)) continue;
      steppe::Action a;
      a.verb = kMove;
      a.push(static_cast<int32_t>(u));
      a.push(h);
      out.push_back(a);
    }
  }
}

}  // namespace example
