// 3.0e Stacking and 3.0f Zones of Control, with the terrain and weather that limit a ZOC
// (3.0f.3-4; cec.json `zoc_by_weather` and `hex[].zoc_into`; 10.6 Reminders; 10.7.12).
#include <algorithm>

#include "games/agc/agc.h"

namespace agc {

// 3.0f: may the ZOC of the units in `hex` enter its neighbour in direction `dir`?
// `all_motorized`: every ground combat unit of the hex is motorized (10.6 Mud; ruling A-30).
bool AgcState::projects_zoc(int hex, int dir, bool all_motorized) const {
  const auto& g = *g_;
  const int nb = g.grid_.neighbour(hex, dir);
  if (nb < 0) return false;
  // 10.7.12 / 10.6 Reminders: "ZOCs do not extend ... into major city hexes."
  if (g.settlement_[nb] == 3) return false;
  // 3.0f.4: the CEC's terrain rows (cec.json hex[].zoc_into).
  if (g.terrain_zoc_into_[g.terrain_[nb]] == 0) return false;
  const int w = weather();
  // 10.6 Reminders: "ZOCs do not extend across major river/ inland sea/lake hexsides
  // (except during Snow)" (cec.json zoc_by_weather.major_river_lake).
  if ((g.major_river_.test(hex, dir) || g.all_lake_.test(hex, dir)) && !g.zoc_across_major_river_[w])
    return false;
  // 3.0f.3, 10.6: "during Mud turns, motorized units can only project ZOCs into adjacent city
  // or town hexes, and through hexsides crossed by roads or RRs" (ruling A-30).
  if (w == kMud && all_motorized) {
    const bool town_or_city = g.settlement_[nb] == 1 || g.settlement_[nb] == 2;
    const bool road_or_rail = g.road_[0].test(hex, dir) || g.road_[1].test(hex, dir) ||
                              g.road_[2].test(hex, dir) || g.rail_.test(hex, dir);
    if (!town_or_city && !road_or_rail) return false;
  }
  return true;
}

void AgcState::rebuild_occupancy() {
  const auto& grid = g_->grid_;
  const int n = grid.size();
  for (int s = 0; s < 2; ++s) {
    std::fill(stack_[s].begin(), stack_[s].end(), 0);
    std::fill(zoc_[s].begin(), zoc_[s].end(), 0);
  }
  // Per hex and side: bit 0 a unit exerts a ZOC, bit 1 a non-motorized ground combat unit.
  std::array<std::vector<uint8_t>, 2> flags;
  for (auto& f : flags) f.assign(static_cast<size_t>(n), 0);
  for (size_t u = 0; u < us_.size(); ++u) {
    const int h = us_[u].hex;
    if (h < 0) continue;
    const auto& d = g_->units_[u];
    // 3.0e.1: a unit's printed stacking value; HQs, MSUs, Dumps and Bridges count zero.
    stack_[d.side][h] = static_cast<uint8_t>(std::min(255, stack_[d.side][h] + d.stacking));
    if (!d.combat) continue;
    zoc_[d.side][h] = 1;  // 3.0f.1: "A ground combat unit always controls the hex it occupies"
    if (d.zoc) flags[d.side][h] |= 1;
    if (d.cls != kMotorized) flags[d.side][h] |= 2;
  }
  for (int side = 0; side < 2; ++side)
    for (int h = 0; h < n; ++h) {
      const uint8_t f = flags[side][h];
      // 3.0f.2: "If at least one unit in a hex exerts a ZOC, all combat units in that hex
      // exert ZOC"; a hex of No-ZOC-band units only exerts none into the six hexes around it.
      if ((f & 1) == 0) continue;
      const bool all_motorized = (f & 2) == 0;
      for (int dir = 0; dir < 6; ++dir)
        if (projects_zoc(h, dir, all_motorized)) zoc_[side][grid.neighbour(h, dir)] = 1;
    }
}

int AgcState::occupant(int hex) const {
  if (stack_[kAxis][hex] != 0) return kAxis;
  if (stack_[kSoviet][hex] != 0) return kSoviet;
  // a unit with stacking 0 (HQ) still occupies
  for (size_t u = 0; u < us_.size(); ++u)
    if (us_[u].hex == hex) return g_->units_[u].side;
  return kNoSide;
}

}  // namespace agc
