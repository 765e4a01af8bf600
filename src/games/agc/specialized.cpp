// 11.0 Specialized Movement: 11.1 Railroad Movement (with 22.5.1 armored trains), 11.3 Strategic
// Movement and 11.6 Untried UR/MG Movement (22.9: Untried units are face down, their values
// unknown). Overrun (11.4), flotillas (11.2) and air and sea transport (11.7) are not in this
// version; infiltration (11.5) is in movement.cpp.
#include <algorithm>
#include <deque>
#include <queue>

#include "games/agc/agc.h"

namespace agc {

using steppe::Error;
using steppe::Status;

namespace {

// 1 on the hexes fewer than `dist` hexes from a ground combat unit of `enemy` (11.1.1, 11.3.1d:
// "at least three hexes (at least two hexes intervening)").
std::vector<uint8_t> near_enemy(const AgcState& s, int enemy, int dist) {
  const AgcGame& g = s.g();
  std::vector<int> depth(static_cast<size_t>(g.grid_.size()), -1);
  std::deque<int> q;
  for (size_t u = 0; u < s.us_.size(); ++u)
    if (s.us_[u].hex >= 0 && g.units_[u].side == enemy && g.units_[u].combat && depth[s.us_[u].hex] < 0) {
      depth[s.us_[u].hex] = 0;
      q.push_back(s.us_[u].hex);
    }
  while (!q.empty()) {
    const int h = q.front();
    q.pop_front();
    if (depth[h] + 1 >= dist) continue;
    for (int dir = 0; dir < 6; ++dir) {
      const int nb = g.grid_.neighbour(h, dir);
      if (nb >= 0 && depth[nb] < 0) {
        depth[nb] = depth[h] + 1;
        q.push_back(nb);
      }
    }
  }
  std::vector<uint8_t> out(depth.size(), 0);
  for (size_t h = 0; h < depth.size(); ++h) out[h] = depth[h] >= 0 ? 1 : 0;
  return out;
}

// 11.1.2, 19.1.1: "Only friendly railroad hexes can be used for friendly rail movement". No rail is
// converted yet (19.2), so a side's rail is the rail of its own country at the start (ruling A-54).
bool friendly_rail(const AgcState& s, int hex, int side) {
  return s.g().rail_.at(hex) != 0 && s.g().control0_[hex] == side;
}

bool is_armored_train(const AgcState& s, int u) { return s.g().units_[u].armored_train; }

// The rail MPs to each hex the unit can reach by rail from its hex (-1 none), 11.1.2, 11.1.5.
std::vector<int> rail_reach(const AgcState& s, int u, const std::vector<uint8_t>& near) {
  const AgcGame& g = s.g();
  const auto& d = g.units_[u];
  const int from = s.us_[u].hex;
  const bool train = is_armored_train(s, u);
  const int limit = train ? g.armored_train_hexes_ : g.rail_hexes_;
  std::vector<int> cost(static_cast<size_t>(g.grid_.size()), -1);
  using Node = std::pair<int, int>;  // cost, hex
  std::priority_queue<Node, std::vector<Node>, std::greater<>> pq;
  cost[from] = 0;
  pq.emplace(0, from);
  while (!pq.empty()) {
    const auto [c, h] = pq.top();
    pq.pop();
    if (c != cost[h]) continue;
    // 11.1.2: "can never enter an enemy ZOC" (Exception One: armored trains may): movement by rail
    // ends where it enters one.
    if (h != from && s.in_enemy_zoc(h, d.side)) continue;
    for (int dir = 0; dir < 6; ++dir) {
      if (!g.rail_.test(h, dir)) continue;  // 11.1.2: along connected railroad hexes
      const int nb = g.grid_.neighbour(h, dir);
      if (nb < 0 || !friendly_rail(s, nb, d.side) || s.occupant(nb) == 1 - d.side) continue;
      if (!train && (near[nb] != 0 || s.in_enemy_zoc(nb, d.side))) continue;  // 11.1.2
      // 11.1.5, 13.2.2: "Every rail hex in any Zone of Interdiction costs twelve (12) Rail MPs".
      const int step = s.interdiction_level(nb) > 0 ? g.rail_interdicted_cost_ : 1;
      const int nc = c + step;
      if (nc > limit || (cost[nb] >= 0 && cost[nb] <= nc)) continue;
      cost[nb] = nc;
      pq.emplace(nc, nb);
    }
  }
  cost[from] = -1;
  return cost;
}

// The unit's friendly Movement Phase (4.2): rail and strategic movement happen only then (11.1.2,
// 11.3.2); armored trains also in the Soviet Motorized Movement Phase (11.1.2 Exception One).
bool movement_phase_of(const AgcState& s, int u) {
  const int side = s.g().units_[u].side;
  if (side == kAxis) return s.phase_ == kAxisMovement;
  return s.phase_ == kSovietMovement || (is_armored_train(s, u) && s.phase_ == kSovietMotorizedMovement);
}

}  // namespace

std::vector<int> AgcState::rail_reach_of(int u) const {
  return rail_reach(*this, u, near_enemy(*this, 1 - g_->units_[u].side, g_->rail_enemy_distance_));
}

std::vector<int> AgcState::rail_reach_with(int u, const std::vector<uint8_t>& near) const {
  return rail_reach(*this, u, near);
}

std::vector<uint8_t> AgcState::near_enemy_of(int side, int dist) const {
  return near_enemy(*this, 1 - side, dist);
}

// 11.1.3: "An HQ or a unit with zero stacking value uses one stacking point of rail capacity ...
// Armored trains do not count against rail capacity."
int AgcState::rail_points(int u) const {
  const auto& d = g_->units_[u];
  if (d.armored_train) return 0;
  if (d.hq || d.stacking == 0) return g_->rail_zero_points_;
  return d.stacking;
}

int AgcState::rail_capacity_left(int side) const {
  return (sc_ != nullptr ? sc_->rail_capacity[side] : 0) - rail_used_[side];
}

Status AgcState::check_rail(int u, int to) const {
  if (auto st = check_rail_start(u); !st.is_ok()) return st;
  const auto& d = g_->units_[u];
  if (to < 0 || to >= g_->grid_.size() || to == us_[u].hex) return Error{"no rail destination", "11.1.2", ""};
  const int cost = rail_reach_of(u)[to];
  if (cost < 0)
    return Error{
        d.label + " has no rail route to " + g_->grid_.id(to) + " within " +
            std::to_string(d.armored_train ? g_->armored_train_hexes_ : g_->rail_hexes_) +
            " rail MPs along friendly railroad hexes, three hexes from the enemy, entering no enemy ZOC",
        "11.1.2", ""};
  if (stack_[d.side][to] + d.stacking > g_->stacking_limit_)
    return Error{
        "more than " + std::to_string(g_->stacking_limit_) + " stacking points in " + g_->grid_.id(to),
        "3.0e.2", ""};
  return Status::ok();
}

Status AgcState::check_rail_start(int u) const {
  const auto& d = g_->units_[u];
  const auto& s = us_[u];
  if (d.side != side_of_phase()) return Error{d.label + " is not the phasing player's", "4.2", ""};
  if (!movement_phase_of(*this, u))
    return Error{"units conduct Railroad Movement only during the friendly Movement Phase", "11.1.2", ""};
  if (declaring_) return Error{"attacks have been declared: movement is over for this phase", "12.0", ""};
  if (s.hex < 0 || d.air) return Error{d.label + " is not on the map", "11.1.1", ""};
  if (untried(u) && d.ur_mg) return Error{"Untried UR/MG units cannot move", "22.9.2", ""};
  if (d.flotilla) return Error{"a flotilla does not move by rail", "11.2.1", ""};
  if (s.railed)
    return Error{d.label + " has moved by rail this game-turn (only once per game-turn)", "11.1.2", ""};
  if (s.moved)
    return Error{"a unit moving by rail cannot otherwise move during that Movement Phase", "11.1.2", ""};
  if (s.out_of_supply)
    return Error{"only a unit in General or Emergency Supply can move by railroad", "11.1.1", ""};
  if (!friendly_rail(*this, s.hex, d.side))
    return Error{d.label + " must begin on a friendly railroad hex", "11.1.1, 19.1.1", ""};
  const bool train = d.armored_train;
  if (!train && interdiction_level(s.hex) > 0)
    return Error{"a unit in an air Zone of Interdiction cannot begin railroad movement", "11.1.1, 13.2.1",
                 ""};
  if (!train && near_enemy(*this, 1 - d.side, g_->rail_enemy_distance_)[s.hex] != 0)
    return Error{"the unit must begin at least three hexes from an enemy ground combat unit", "11.1.1", ""};
  if (rail_points(u) > rail_capacity_left(d.side))
    return Error{"the Rail Capacity left this game-turn (" + std::to_string(rail_capacity_left(d.side)) +
                     " stacking points) is too small for " + d.label,
                 "11.1.3", ""};
  return Status::ok();
}

void AgcState::do_rail(int u, int to) {
  const auto& d = g_->units_[u];
  auto& s = us_[u];
  const int cost = rail_reach_of(u)[to];
  stack_[d.side][s.hex] = static_cast<uint8_t>(stack_[d.side][s.hex] - d.stacking);
  rail_used_[d.side] = static_cast<int16_t>(rail_used_[d.side] + rail_points(u));
  s.railed = true;
  s.moved = true;
  s.mp_left = 0;  // 11.1.2: "A unit moving by rail cannot otherwise move during that Movement Phase."
  s.road_in = -1;
  place(u, to);
  emit({"move",
        d.label + " moves by rail to " + g_->grid_.id(to) + " (" + std::to_string(cost) + " rail MPs)",
        "11.1.2",
        0xFFFFFFFFu,
        false,
        {}});
  rebuild_occupancy();
}

// 11.3.1: "To be eligible, the unit must: a. have an MA greater than zero. b. begin its movement
// phase on a minor road, road, or motorway hex ... c. be in General Supply in each hex occupied or
// entered, and d. be at least three hexes from an enemy combat unit in each hex occupied or entered
// ... and e. not begin movement in a Zone of Interdiction or move into a Zone of Interdiction".
Status AgcState::check_strategic(int u) const {
  const auto& d = g_->units_[u];
  const auto& s = us_[u];
  if (d.side != side_of_phase()) return Error{d.label + " is not the phasing player's", "4.2", ""};
  if (!movement_phase_of(*this, u) || d.armored_train)
    return Error{"strategic movement only during the friendly Movement Phase", "11.3.2", ""};
  if (declaring_) return Error{"attacks have been declared: movement is over for this phase", "12.0", ""};
  if (s.hex < 0 || d.air) return Error{d.label + " is not on the map", "11.3.1", ""};
  if (s.strategic) return Error{d.label + " already uses strategic movement this game-turn", "11.3.3", ""};
  if (s.moved || s.railed) return Error{d.label + " has already moved this phase", "11.3.1b", ""};
  if (d.ma <= 0 || (untried(u) && d.ur_mg) || d.flotilla || !moves_this_phase(u))
    return Error{d.label + " is not eligible for strategic movement (MA greater than zero)", "11.3.1a", ""};
  if ((g_->road_[0].at(s.hex) | g_->road_[1].at(s.hex) | g_->road_[2].at(s.hex)) == 0)
    return Error{d.label + " must begin on a minor road, road or motorway hex", "11.3.1b", ""};
  if (s.out_of_supply) return Error{d.label + " is not in General Supply", "11.3.1c", ""};
  if (near_enemy(*this, 1 - d.side, g_->strategic_enemy_distance_)[s.hex] != 0)
    return Error{d.label + " is within three hexes of an enemy combat unit", "11.3.1d", ""};
  if (interdiction_level(s.hex) > 0)
    return Error{d.label + " begins in a Zone of Interdiction", "11.3.1e, 13.2.4", ""};
  return Status::ok();
}

void AgcState::do_strategic(int u) {
  auto& s = us_[u];
  s.strategic = true;
  // 11.3.2: "Increase their movement allowance for this phase by half."
  s.mp_left = static_cast<int8_t>(std::min(127, g_->units_[u].ma * g_->strategic_ma_halves_));
  emit({"move", g_->units_[u].label + " uses strategic movement", "11.3.2", 0xFFFFFFFFu, false, {}});
}

// 11.3.1c-e, 11.3.3, 10.6.3a: the hex a unit using strategic movement may enter next.
Status AgcState::check_strategic_step(int u, int to, bool by_road) const {
  const auto& d = g_->units_[u];
  if (!by_road)
    return Error{"strategic movement is solely along motorways, main or minor roads", "11.3.3", ""};
  if (in_enemy_zoc(to, d.side)) return Error{"strategic movement never enters an enemy ZOC", "10.6.3a", ""};
  if (near_enemy(*this, 1 - d.side, g_->strategic_enemy_distance_)[to] != 0)
    return Error{"strategic movement stays at least three hexes from enemy combat units", "11.3.1d", ""};
  if (interdiction_level(to) > 0)
    return Error{"strategic movement does not enter a Zone of Interdiction", "11.3.1e, 13.2.4", ""};
  std::vector<uint8_t> map;
  supply_map(d.side, map);
  if (map[to] == 0) return Error{"strategic movement only through hexes in General Supply", "11.3.1c", ""};
  return Status::ok();
}

// ---- 11.6, 22.9 Untried UR/MG units ----

// 22.9.1: "Zero strength UR/MG units are removed from the map immediately when flipped to their
// Tried sides"; 22.9.3: "returned to the opaque cup" (off the map, not eliminated).
void AgcState::reveal(int u, const char* rule) {
  auto& s = us_[u];
  const auto& d = g_->units_[u];
  s.tried = true;
  emit({"reveal",
        d.label + " in " + (s.hex >= 0 ? g_->grid_.id(s.hex) : std::string("the cup")) +
            " is revealed: " + d.id + " " + std::to_string(d.attack) + "-" + std::to_string(d.defense) + "-" +
            std::to_string(d.ma),
        rule,
        0xFFFFFFFFu,
        false,
        {}});
  if (d.defense == 0 && s.hex >= 0) {
    emit({"reveal",
          d.label + " has no defense strength and returns to the UR/MG cup",
          "11.6.3, 22.9.1",
          0xFFFFFFFFu,
          false,
          {}});
    s.hex = -1;
    s.tried = false;  // back in the cup, Untried side up (22.9.3)
    rebuild_occupancy();
    return;
  }
  s.mp_left = static_cast<int8_t>(ma_this_phase(u));  // 11.6.2: an MA above zero moves normally
}

// 22.9.1, 22.9.3: neither player knows which counter lies face down where: a sample deals the Untried
// counters of each kind (UR/MG, Militia) on the map and in the cup (off the map, not eliminated) to
// the face-down hexes anew.
void AgcState::resample_untried(uint64_t& x) {
  for (const bool ur : {true, false}) {
    std::vector<int> pool, slots;
    for (size_t u = 0; u < us_.size(); ++u) {
      const auto& d = g_->units_[u];
      if (!d.untried || d.ur_mg != ur || us_[u].tried || us_[u].eliminated) continue;
      if (us_[u].hex < 0 && !ur) continue;  // Militia off the map are reinforcements to come (8.5)
      pool.push_back(static_cast<int>(u));
      if (us_[u].hex >= 0) slots.push_back(us_[u].hex);
    }
    if (slots.empty()) continue;
    for (size_t i = pool.size(); i > 1; --i) {
      x = steppe::splitmix64(x);
      std::swap(pool[i - 1], pool[(x >> 16) % i]);
    }
    for (size_t i = 0; i < pool.size(); ++i) {
      auto& s = us_[pool[i]];
      s.hex = i < slots.size() ? static_cast<int16_t>(slots[i]) : int16_t{-1};
      s.mp_left = static_cast<int8_t>(ma_this_phase(pool[i]));
    }
  }
  rebuild_occupancy();
}

// 11.6.1: "After the Soviet Player has moved all desired units with known movement values, he may
// flip Untried UR/MG units to their Tried sides" (in the Soviet Movement Phase).
Status AgcState::check_flip(int u) const {
  const auto& d = g_->units_[u];
  if (phase_ != kSovietMovement)
    return Error{"Untried UR/MG units are flipped in the Soviet Movement Phase", "11.6", ""};
  if (declaring_) return Error{"movement is over for this phase", "12.0", ""};
  if (!untried(u) || us_[u].hex < 0)
    return Error{d.label + " is not an Untried unit on the map", "11.6.1", ""};
  if (!d.ur_mg)
    return Error{"Militia units placed on their Untried sides may not be flipped by the Soviet player",
                 "22.10.2", ""};
  return Status::ok();
}

}  // namespace agc
