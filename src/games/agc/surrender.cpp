// 21.0 Soviet Surrender. 21.1.1: "During the Soviet Surrender Phase of each game turn, the Soviet
// Player makes a surrender check for each Soviet occupied hex that: a. Is in an Axis ZOC, and b.
// Cannot trace a Supply Route of any length to any friendly non-surrounded Soviet major city or
// map-edge supply source regardless of the presence of MSUs or Dumps." 21.1.2: roll on the Soviet
// Surrender Table (surrender.json, reconstructed) with its DRMs; "If the modified die roll results
// in surrender, all Soviet units in the hex are removed and placed in the Eliminated Box."
//
// The checks are die rolls with nothing to choose: they are all made, hex by hex in map order,
// when the phase begins, and the phase is then passed (4.2; ruling A-52).
#include <algorithm>
#include <deque>

#include "games/agc/agc.h"

namespace agc {

namespace {

// 21.1.1b: the hexes a Soviet Supply Route of any length reaches from the map-edge sources (6.5.1).
// A route follows 6.1.2 (no hex with an Axis ground combat unit; no Axis ZOC hex unless a Soviet
// ground combat unit is there), crosses no unbridged major river nor non-frozen all-lake hexside
// (6.2.1a) and enters no completed Axis Strongpoint (18.1.1). A major city it reaches is
// "non-surrounded"; one it does not reach is surrounded, so tracing from the edge alone answers
// both parts of (b) (ruling A-52).
std::vector<uint8_t> surrender_routes(const AgcState& s) {
  const AgcGame& g = s.g();
  const int n = g.grid_.size();
  std::vector<uint8_t> enemy(static_cast<size_t>(n), 0), own(static_cast<size_t>(n), 0);
  for (size_t u = 0; u < s.us_.size(); ++u) {
    const int h = s.us_[u].hex;
    if (h < 0 || !g.units_[u].combat) continue;
    (g.units_[u].side == kSoviet ? own : enemy)[h] = 1;
  }
  const auto open = [&](int h) {
    if (enemy[h] != 0 || s.strongpoint(h, kAxis)) return false;
    return s.zoc_[kAxis][h] == 0 || own[h] != 0;
  };
  std::vector<uint8_t> seen(static_cast<size_t>(n), 0);
  std::deque<int> q;
  for (int h : g.supply_edge_[kSoviet])
    if (h >= 0 && open(h) && s.control_[h] == kSoviet && seen[h] == 0) {
      seen[h] = 1;
      q.push_back(h);
    }
  const int w = s.weather();
  while (!q.empty()) {
    const int h = q.front();
    q.pop_front();
    for (int dir = 0; dir < 6; ++dir) {
      const int nb = g.grid_.neighbour(h, dir);
      if (nb < 0 || seen[nb] != 0 || !open(nb)) continue;
      if (g.all_lake_.test(h, dir) && !g.lake_hexside_open_[w]) continue;
      if (g.major_river_.test(h, dir) && !g.road_bridge_.test(h, dir) && !g.rail_bridge_.test(h, dir))
        continue;
      seen[nb] = 1;
      q.push_back(nb);
    }
  }
  return seen;
}

}  // namespace

bool AgcState::surrender_due(int hex) const {
  if (occupant(hex) != kSoviet) return false;
  // 21.1.1a, and its Exception for major cities (ruling A-16: an Axis ground combat unit adjacent).
  bool axis_zoc = zoc_[kAxis][hex] != 0;
  if (!axis_zoc && g_->settlement_[hex] == 3)
    for (int dir = 0; dir < 6 && !axis_zoc; ++dir) {
      const int nb = g_->grid_.neighbour(hex, dir);
      if (nb < 0) continue;
      for (size_t u = 0; u < us_.size() && !axis_zoc; ++u)
        axis_zoc = us_[u].hex == nb && g_->units_[u].side == kAxis && g_->units_[u].combat;
    }
  if (!axis_zoc) return false;
  return surrender_routes(*this)[hex] == 0;  // 21.1.1b
}

// 21.1.2, 22.8.3: the Soviet Surrender Table DRMs (surrender.json; all but 22.8.3's direction
// reconstructed). The town, city or fortification DRM is not added to the major city's.
int AgcState::surrender_drm(int hex) const {
  int drm = 0;
  bool guards = false, all_oos = true, hq = false, any = false;
  for (size_t u = 0; u < us_.size(); ++u) {
    if (us_[u].hex != hex || g_->units_[u].side != kSoviet) continue;
    any = true;
    guards = guards || g_->units_[u].guards || g_->units_[u].nkvd;
    hq = hq || g_->units_[u].hq;
    all_oos = all_oos && us_[u].out_of_supply;
  }
  if (guards) drm += g_->surrender_guards_drm_;  // 22.8.3
  if (g_->settlement_[hex] == 3)
    drm += g_->surrender_major_city_drm_;
  else if (g_->settlement_[hex] >= 1 || strongpoint(hex, kSoviet))
    drm += g_->surrender_town_city_fort_drm_;
  if (any && all_oos) drm += g_->surrender_all_oos_drm_;
  if (hq) drm += g_->surrender_hq_drm_;
  return drm;
}

void AgcState::begin_surrender() {
  std::vector<int> due;
  for (int h = 0; h < g_->grid_.size(); ++h)
    if (surrender_due(h)) due.push_back(h);
  for (int h : due) {
    const int roll = dice_.roll(10);
    const int drm = surrender_drm(h);
    const bool gone = roll + drm >= g_->surrender_from_;
    emit({"surrender",
          "surrender check for " + g_->grid_.id(h) + ": roll " + std::to_string(roll) +
              (drm >= 0 ? "+" : "") + std::to_string(drm) + (gone ? ": the units surrender" : ": no effect"),
          "21.1.2",
          0xFFFFFFFFu,
          false,
          {}});
    if (!gone) continue;
    for (size_t u = 0; u < us_.size(); ++u)
      if (us_[u].hex == h && g_->units_[u].side == kSoviet) {
        emit({"loss",
              g_->units_[u].label + " surrenders and goes to the Eliminated Box",
              "21.1.2",
              0xFFFFFFFFu,
              false,
              {}});
        us_[u].hex = -1;
        us_[u].eliminated = true;
      }
  }
  rebuild_occupancy();
}

}  // namespace agc
