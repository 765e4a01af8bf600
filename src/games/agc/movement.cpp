// 10.0 Movement: MA by phase (Movement Phase Chart), the Movement Point Cost Chart, ZOC
// (10.6) and stacking (3.0e). Roads (10.7.7), rail (11.0), overrun (11.4) and
// infiltration (11.5) are not in this first version.
#include "games/agc/agc.h"

namespace agc {

using steppe::Error;
using steppe::Status;

int AgcState::ma_this_phase(int unit) const {
  const auto& d = g_->units_[unit];
  if (d.side != side_of_phase() || d.cls == kGreen || !d.combat) return 0;
  return d.ma * g_->ma_halves_[phase_][d.cls] / 2;  // 10.0 Note Two: fractions dropped off roads
}

int AgcState::enter_cost(int unit, int from, int to) const {
  const auto& d = g_->units_[unit];
  const int w = weather();
  const int dir = g_->grid_.direction(from, to);
  if (dir < 0) return -1;
  if (g_->major_river_.test(from, dir)) return -1;  // 10.7.9c: unbridged major rivers (bridges later)
  int cost = g_->hex_cost_[g_->terrain_[to]][d.cls][w];
  if (cost < 0) return -1;
  if (g_->river_.test(from, dir)) {
    const int r = g_->river_cost_[d.cls][w];
    if (r < 0) return -1;
    cost += r;  // 10.7.4
  }
  return cost;
}

Status AgcState::check_move(int unit, int to) const {
  const auto& d = g_->units_[unit];
  const auto& s = us_[unit];
  if (phase_ == kAxisCombat || phase_ == kSovietCombat)
    return Error{"units move only in a movement phase", "4.2", ""};
  if (d.side != side_of_phase()) return Error{d.label + " is not the phasing player's", "4.2", ""};
  if (s.hex < 0) return Error{d.label + " is not on the map", "10.0", ""};
  if (s.mp_left <= 0) return Error{d.label + " has no movement points left in this phase", "10.0", ""};
  if (!g_->grid_.adjacent(s.hex, to)) return Error{"a unit moves one adjacent hex at a time", "10.4", ""};
  if (stack_[1 - d.side][to] != 0) return Error{"a unit may not enter an enemy-occupied hex", "10.4", ""};
  const int cost = enter_cost(unit, s.hex, to);
  if (cost < 0) return Error{d.label + " may not enter " + g_->grid_.id(to) + " (terrain)", "10.7", ""};
  if (cost > s.mp_left)
    return Error{d.label + " lacks the movement points to enter " + g_->grid_.id(to), "10.0", ""};
  if (in_enemy_zoc(s.hex, d.side) && in_enemy_zoc(to, d.side))
    return Error{"no move directly from one enemy ZOC hex to another", "10.6.6", ""};
  if (stack_[d.side][to] + d.stacking > g_->stacking_limit_)
    return Error{
        "more than " + std::to_string(g_->stacking_limit_) + " stacking points in " + g_->grid_.id(to),
        "3.0e.2", ""};
  return Status::ok();
}

void AgcState::do_move(int unit, int to) {
  const auto& d = g_->units_[unit];
  auto& s = us_[unit];
  const int cost = enter_cost(unit, s.hex, to);
  stack_[d.side][s.hex] = static_cast<uint8_t>(stack_[d.side][s.hex] - d.stacking);
  s.mp_left = static_cast<int8_t>(s.mp_left - cost);
  place(unit, to);
  if (in_enemy_zoc(to, d.side)) s.mp_left = 0;  // 10.6.5: stop on entering an enemy ZOC
  emit({"move", d.label + " moves to " + g_->grid_.id(to), "10.0", 0xFFFFFFFFu, false, {}});
  rebuild_occupancy();
}

}  // namespace agc
