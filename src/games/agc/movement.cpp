// 10.0 Movement: the MA of each phase (Movement Phase Chart, movement.json `phases`), the
// Movement Point Cost Chart (10.7; movement.json `hex`, `hexside`), road movement (10.7.7,
// 10.7.8; movement.json `roads`), major rivers (10.7.9), lakes (10.7.10), enemy ZOCs (10.6),
// One Hex Movement (10.5.3) and Infiltration Movement (11.5). Movement points are counted in
// halves, since a road hex costs one-half MP (10.7.7).
// Rail and strategic movement (11.1, 11.3) and Untried units (11.6) are in specialized.cpp, with
// their Zone of Interdiction effects (13.2.1, 13.2.2, 13.2.4). Not in this version: rail lines
// without rail movement (10.7.6), overrun (11.4), flotillas (11.2, 13.2.3), air and sea transport
// (11.7, 13.2.6). 13.2.7:
// "Normal movement and supply routes are not affected by interdiction": no cost here reads it.
#include <algorithm>

#include "games/agc/agc.h"

namespace agc {

using steppe::Error;
using steppe::Status;

// The Movement Phase Chart: the part of its MA a unit may spend in this phase, in half MPs.
// 10.0 Note Two keeps the half of an odd MA halved (usable on roads and into cities only).
int AgcState::ma_this_phase(int unit) const {
  const auto& d = g_->units_[unit];
  if (!moves_this_phase(unit)) return 0;
  // 10.2.4c: "Activated units move up to their full MA" in the Soviet Motorized Movement Phase.
  const int halves = us_[unit].activated && phase_ == kSovietMotorizedMovement
                         ? 2 * d.ma
                         : d.ma * g_->ma_halves_[phase_][d.cls];
  // 6.7.1: "All ground combat units have their printed Movement Allowances reduced by two (-2)
  // MPs in each Movement Phase. Exception: Cavalry units are not affected" (ruling A-37: two
  // MPs off the allowance of each phase, after the phase's fraction).
  if (us_[unit].out_of_supply && !d.cavalry) return std::max(0, halves - 4);
  return halves;
}

bool AgcState::moves_this_phase(int unit) const {
  const auto& d = g_->units_[unit];
  if (d.side != side_of_phase() || !d.combat || (untried(unit) && d.ur_mg)) return false;  // 22.9.2
  // 10.2.4c: an Activated marker means "no movement in the Movement Phase" (special_units.cpp).
  if (us_[unit].activated) return phase_ == kSovietMotorizedMovement;
  if (d.cls == kGreen) return false;
  return d.ma * g_->ma_halves_[phase_][d.cls] > 0;
}

// 10.7.3-4: the off-road cost to occupy `hex` (the highest terrain plus the '+' terrain), in
// half MPs; -1 where the MPCC prohibits it.
int AgcState::terrain_halves(int unit, int hex) const {
  const int c = g_->hex_cost_[g_->terrain_[hex]][g_->units_[unit].cls][weather()];
  return c < 0 ? -1 : 2 * c;
}

AgcState::MoveCost AgcState::move_cost(int unit, int from, int to) const {
  const auto& g = *g_;
  const auto& d = g.units_[unit];
  const int w = weather();
  const int dir = g.grid_.direction(from, to);
  MoveCost mc;
  if (dir < 0) return mc;
  const int cls = d.cls == kGreen ? kMotorized : d.cls;  // 10.5.10: green pays motorized costs
  // 10.7.10: lakes are impassable until Snow ("frozen"): all-lake hexsides and lake hexes.
  if (g.all_lake_.test(from, dir) && !g.lake_hexside_open_[w]) {
    mc.rule = "10.7.10";
    return mc;
  }
  const bool major = g.major_river_.test(from, dir);
  // 10.7.7: "Units moving directly from hex to hex along a road (the road symbol crosses each
  // hexside) expend MPs at the applicable road movement rate, instead of paying the hexside and
  // hex terrain costs." Across a major river only a road bridge carries the road (10.7.9a).
  int road = -1;
  if (!major || g.road_bridge_.test(from, dir)) {
    for (int t = 0; t < 2; ++t) {  // motorway, main road (10.7.8a-b)
      if (!g.road_[t].test(from, dir)) continue;
      const int r = g.major_road_halves_[t][w];
      if (r >= 0 && (road < 0 || r < road)) road = r;
    }
    if (g.road_[2].test(from, dir)) {  // minor road (10.7.8c)
      const bool clear = g.terrain_[to] == g.clear_terrain_;
      // 10.7.8c.2: in Mud the leg rate is for "non-motorized units that do not have orange or
      // green colored MAs" and "Soviet Armor units"; every other unit pays the motorized one.
      const int rate_cls = d.cls == kLeg || (d.side == kSoviet && d.armor) ? kLeg : kMotorized;
      int r = d.cls == kGreen && w == kMud ? -1 : g.minor_road_halves_[clear ? 0 : 1][rate_cls][w];
      if (r == -2) {
        // "All non-clear hexes require expending MPs at the Mud Column rate for all hex terrain
        // except woods which are ignored."
        const int t = g.terrain_[to] == g.woods_terrain_ ? g.clear_terrain_ : g.terrain_[to];
        const int c = g.hex_cost_[t][rate_cls][w];
        r = c < 0 ? -1 : 2 * c;
      }
      if (r >= 0 && (road < 0 || r < road)) road = r;
    }
  }
  // 10.7.7 Case Four: a unit that entered its hex by road and leaves it off the road pays "the
  // non-road terrain cost of the hex" it leaves (the road rate it paid is made up), but "Road
  // entry still negates river hexside costs".
  const int8_t road_in = us_[unit].road_in;
  int make_up = 0;
  if (road < 0 && road_in >= 0) {
    const int full = terrain_halves(unit, from);
    make_up = full < 0 ? 0 : std::max(0, full - road_in);
  }
  if (road >= 0) {
    mc.halves = road;
    mc.by_road = true;
    mc.rule = "10.7.7";
  } else {
    const int t = terrain_halves(unit, to);
    if (t < 0) return mc;  // 10.7, 10.7.10, 10.7.11: the MPCC prohibits the hex
    int cost = t + make_up;
    if (g.river_.test(from, dir)) {
      const int r = g.river_cost_[cls][w];
      if (r < 0) return mc;
      cost += 2 * r;  // 10.7.4: "+1MP for crossing the river"
    }
    if (major && !g.rail_bridge_.test(from, dir)) {
      // 10.7.9c: an unbridged major river costs the whole MA; "the unit starts its Movement
      // Phase adjacent and moves one hex" (10.7.9d: Snow adds its cost).
      mc.whole_ma = true;
      mc.rule = "10.7.9c";
      cost += 2 * g.major_river_snow_plus_[w];
    } else if (major) {
      mc.rule = "10.7.9b";  // a rail bridge: "the far hex's terrain cost"
    }
    mc.halves = cost;
  }
  // 10.6.4: "Friendly units entering an enemy ZOC must pay one additional MP."
  // 14.1.2: a reacting unit entering a friendly occupied hex in an enemy ZOC "does not pay the MP
  // cost to enter an enemy ZOC".
  if (in_enemy_zoc(to, d.side) && !(reaction_phase() && stack_[d.side][to] != 0))
    mc.halves += 2 * g.enemy_zoc_plus_;
  return mc;
}

// 11.5, 10.1.5: "Axis motorized units with MA of seven or greater"; "Only ground combat units
// with yellow MAs" (ruling A-10: both, on the printed MA); only in the phase where they may
// spend their entire MA (11.5.1); not in Mud (11.5.5); not Out of Supply (11.5.2); starting
// adjacent to an enemy unit and in an enemy ZOC (11.5.3); costs the entire MA (11.5.2).
bool AgcState::can_infiltrate(int unit) const {
  const auto& d = g_->units_[unit];
  const auto& s = us_[unit];
  if (d.cls != kMotorized || d.ma < g_->infiltration_min_ma_ || s.out_of_supply || s.moved || s.hex < 0)
    return false;
  if (g_->ma_halves_[phase_][kMotorized] != 2 || !g_->infiltration_allowed_[weather()]) return false;
  if (!in_enemy_zoc(s.hex, d.side)) return false;
  for (int dir = 0; dir < 6; ++dir) {
    const int nb = g_->grid_.neighbour(s.hex, dir);
    if (nb >= 0 && stack_[1 - d.side][nb] != 0) return true;
  }
  return false;
}

Status AgcState::check_move(int unit, int to) const {
  const auto& d = g_->units_[unit];
  const auto& s = us_[unit];
  if (phase_ == kAxisCombat || phase_ == kSovietCombat)
    return Error{"units move only in a movement phase", "4.2", ""};
  if (d.side != side_of_phase()) return Error{d.label + " is not the phasing player's", "4.2", ""};
  // 12.0: attacks are declared "after all movement is completed".
  if (declaring_) return Error{"attacks have been declared: movement is over for this phase", "12.0", ""};
  if (s.hex < 0) return Error{d.label + " is not on the map", "10.0", ""};
  if (auto st = check_nonop_move(unit); !st.is_ok()) return st;  // 22.2.5g (special_units.cpp)
  if (untried(unit) && d.ur_mg) return Error{"Untried UR/MG units cannot move", "22.9.2", ""};
  if (!moves_this_phase(unit))
    return Error{d.label + " does not move in this phase (Movement Phase Chart)", "4.2", ""};
  // 11.6.1: "After the Soviet Player has moved all desired units with known movement values, he may
  // flip Untried UR/MG units": once he flips, only the flipped units move on.
  if (flipping_ && !(g_->units_[unit].untried && s.tried))
    return Error{"Untried units are being flipped: the units with known movement values have moved", "11.6.1",
                 ""};
  if (reaction_phase()) {
    if (auto st = check_reaction_move(unit, to); !st.is_ok()) return st;
  }
  // 10.5.3: a unit that has spent nothing may still make One Hex Movement (an out-of-supply
  // unit whose MA 6.7.1 took to zero).
  if (s.mp_left <= 0 && s.moved)
    return Error{d.label + " has no movement points left in this phase", "10.0", ""};
  if (!g_->grid_.adjacent(s.hex, to)) return Error{"a unit moves one adjacent hex at a time", "10.5.1", ""};
  if (stack_[1 - d.side][to] != 0) return Error{"a unit may not enter an enemy-occupied hex", "10.4", ""};
  const MoveCost mc = move_cost(unit, s.hex, to);
  if (mc.halves < 0) return Error{d.label + " may not enter " + g_->grid_.id(to) + " (terrain)", mc.rule, ""};
  if (s.strategic && phase_ == (d.side == kAxis ? kAxisMovement : kSovietMovement)) {
    if (auto st = check_strategic_step(unit, to, mc.by_road); !st.is_ok()) return st;  // 11.3
  }
  const bool zoc_to_zoc = in_enemy_zoc(s.hex, d.side) && in_enemy_zoc(to, d.side);
  if (zoc_to_zoc && !can_infiltrate(unit))
    return Error{
        "no move directly from one enemy ZOC hex to another (Infiltration needs a motorized unit of MA " +
            std::to_string(g_->infiltration_min_ma_) +
            "+ at full MA, in supply, adjacent to an enemy unit, not in Mud, not yet moved)",
        "10.6.6", ""};
  if (mc.whole_ma && s.moved)
    return Error{"an unbridged major river takes the whole MA: the unit must not have moved yet", "10.7.9c",
                 ""};
  // 10.5.3 Exception (One Hex Movement): "A unit may be able to move one hex ... even if it lacks
  // sufficient movement points ... The moving unit cannot have expended any movement points".
  if (!mc.whole_ma && !zoc_to_zoc && mc.halves > s.mp_left && s.moved)
    return Error{d.label + " lacks the movement points to enter " + g_->grid_.id(to), "10.0", ""};
  // 10.0 Note Two: the half MP of a halved odd MA is spent only on roads and to enter cities.
  const bool city = g_->settlement_[to] >= 2;
  if (!mc.by_road && !city && !mc.whole_ma && !zoc_to_zoc && s.moved && mc.halves > s.mp_left - s.mp_left % 2)
    return Error{"the half movement point left is usable only on roads or into cities", "10.0", ""};
  // 3.0e.2: units pass freely through friendly stacks; the limit holds where a unit must stop.
  const bool stops = in_enemy_zoc(to, d.side) || mc.whole_ma || zoc_to_zoc || mc.halves >= s.mp_left;
  if (stops && stack_[d.side][to] + d.stacking > g_->stacking_limit_)
    return Error{"more than " + std::to_string(g_->stacking_limit_) + " stacking points in " +
                     g_->grid_.id(to) + " where " + d.label + " must stop",
                 "3.0e.2", ""};
  return Status::ok();
}

void AgcState::do_move(int unit, int to) {
  const auto& d = g_->units_[unit];
  auto& s = us_[unit];
  const MoveCost mc = move_cost(unit, s.hex, to);
  const bool zoc_to_zoc = in_enemy_zoc(s.hex, d.side) && in_enemy_zoc(to, d.side);
  const char* rule = zoc_to_zoc                            ? "11.5"
                     : mc.whole_ma                         ? "10.7.9c"
                     : (!s.moved && mc.halves > s.mp_left) ? "10.5.3"
                                                           : mc.rule;
  if (reaction_phase() && !s.moved) dispatch_reaction(unit);  // 14.1.1b, 22.1.2b
  if (!s.moved) note_nonop_start(unit);                       // 22.2.5g (special_units.cpp)
  stack_[d.side][s.hex] = static_cast<uint8_t>(stack_[d.side][s.hex] - d.stacking);
  s.mp_left = static_cast<int8_t>(std::max(0, s.mp_left - mc.halves));
  if (zoc_to_zoc || mc.whole_ma) s.mp_left = 0;  // 11.5.2, 10.7.9c: the entire MA
  s.moved = true;
  s.road_in = mc.by_road ? static_cast<int8_t>(mc.halves) : int8_t{-1};
  place(unit, to);
  if (in_enemy_zoc(to, d.side)) s.mp_left = 0;  // 10.6.5: stop on entering an enemy ZOC
  // 18.1.5: "Any enemy fortification under construction is destroyed simply by moving any friendly
  // ground combat unit into or through the hex."
  if (d.combat && strongpoint_[to] == 2 - d.side) {
    strongpoint_[to] = 0;
    emit({"fortification",
          "the enemy Strongpoint under construction in " + g_->grid_.id(to) + " is destroyed",
          "18.1.5",
          0xFFFFFFFFu,
          false,
          {}});
  }
  emit({"move", d.label + " moves to " + g_->grid_.id(to), rule, 0xFFFFFFFFu, false, {}});
  rebuild_occupancy();
}

}  // namespace agc
