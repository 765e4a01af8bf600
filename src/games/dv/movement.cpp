// 5.0 stacking, 6.0 zones of control, 11.0 movement. The movement search is the kernel
// PathFinder over the kernel HexGrid with a Dark Valley cost calculator (MoveCost below).
#include <algorithm>

#include "games/dv/dv.h"

namespace dv {

namespace {

// One search buffer per thread: states are cloned by searches, and a PathFinder's buffers
// are the size of the map, so they are not part of the state.
steppe::PathFinder& path_finder() {
  thread_local steppe::PathFinder pf;
  return pf;
}

}  // namespace

void DvState::units_in(int h, std::vector<int>& out) const {
  out.clear();
  for (size_t i = 0; i < units_.size(); ++i)
    if (units_[i].box == Box::kMap && units_[i].hex == h) out.push_back(static_cast<int>(i));
}

int DvState::occupant_side(int h) const {
  for (size_t i = 0; i < units_.size(); ++i)
    if (units_[i].box == Box::kMap && units_[i].hex == h && g_.units()[i].ground) return g_.units()[i].side;
  return kNeutral;
}

// 5.3 at most 4 combat units, 2 armies and 3 corps (DV-R1); 5.4 one of each HQ kind and one
// artillery per side; 16.2 one Tiger battalion free, more count as divisions; 15.1 two minor
// nationalities never stack together (DV-R2). 5.1/5.2: every move, retreat, advance and placement
// is checked against it, so no hex is ever overstacked and 5.2's elimination never arises
// (ruling DV-R11).
bool DvState::stack_ok(int h, int side, const std::vector<int>& adding) const {
  int units = 0, armies = 0, corps = 0, tigers = 0, artillery = 0;
  int hqs[4] = {0, 0, 0, 0};
  std::string minor;
  bool minors_mixed = false;
  auto count = [&](int u) {
    const UnitDef& d = g_.unit(u);
    if (!d.ground || d.side != side) return;
    if (d.type == "tiger-battalion" && tigers++ == 0) return;
    if (d.type == "artillery") ++artillery;
    if (d.type == "panzer-hq") ++hqs[0];
    if (d.type == "stavka-hq") ++hqs[1];
    if (d.type == "leader") ++hqs[2];
    if (d.combat || d.type == "tiger-battalion") {
      ++units;
      armies += d.army ? 1 : 0;
      corps += d.corps ? 1 : 0;
    }
    if (d.minor) {
      if (!minor.empty() && minor != d.nation) minors_mixed = true;
      minor = d.nation;
    }
  };
  for (size_t i = 0; i < units_.size(); ++i)
    if (units_[i].box == Box::kMap && units_[i].hex == h &&
        std::find(adding.begin(), adding.end(), static_cast<int>(i)) == adding.end())
      count(static_cast<int>(i));
  for (int u : adding) count(u);
  return units <= 4 && armies <= 2 && corps <= 3 && artillery <= 1 && hqs[0] <= 1 && hqs[1] <= 1 &&
         hqs[2] <= 1 && !minors_mixed;
}

// 6.1: a ZOC covers the six adjacent hexes, not across a Major River or the Volga, not into a
// Fort or City or an enemy Fortified Zone, not into Swamp from a mech unit except in Snow,
// and not at all from German mech units in Mud or on the Snow Turns 7-9.
void DvState::compute_zoc(int side, std::vector<uint8_t>& out, int which) const {
  const steppe::HexGrid& gr = g_.grid();
  out.assign(static_cast<size_t>(gr.size()), 0);
  const Weather w = weather();
  for (size_t i = 0; i < units_.size(); ++i) {
    const UnitState& s = units_[i];
    const UnitDef& d = g_.units()[i];
    if (s.box != Box::kMap || !d.zoc || d.side != side || !d.ground) continue;
    if ((which == 1 && d.type != "rifle-army") || (which == 2 && d.type == "rifle-army")) continue;
    if (d.nation == "german" && d.mech && (w == kMud || (w == kSnow && turn_ >= 7 && turn_ <= 9))) continue;
    for (int dir = 0; dir < 6; ++dir) {
      const int n = gr.neighbour(s.hex, dir);
      if (n < 0) continue;
      const HexInfo& hi = g_.hex(n);
      if (hi.terrain == kSea || hi.terrain == kLake) continue;
      if (g_.major().test(s.hex, dir) || g_.volga().test(s.hex, dir)) continue;
      if (hi.city) continue;
      if ((hi.fort_owner != kNeutral || hi.weak_fort_owner != kNeutral) &&
          fort_gone_[static_cast<size_t>(n)] == 0)
        continue;
      if (side == kAxis && hi.fz && fz_gone_[static_cast<size_t>(n)] == 0) continue;
      if (hi.terrain == kSwamp && d.mech && w != kSnow) continue;
      out[static_cast<size_t>(n)] = 1;
    }
  }
}

bool DvState::zoc_of(int side, int h) const {
  std::vector<uint8_t> z;
  compute_zoc(side, z);
  return z[static_cast<size_t>(h)] != 0;
}

// 11.5: in a Move round, Fair or Mixed, in supply, a foot type, not adjacent to an enemy
// ground unit, once per turn.
bool DvState::may_force_march(int u) const {
  const UnitDef& d = g_.unit(u);
  const UnitState& s = us(u);
  if (!d.forced_march || s.forced || s.supply != 0) return false;
  if (chit_ != kChitMove && !(chit_ == kChitMoveCombat && segments_.size() == 1)) return false;
  if (weather() != kFair && weather() != kMixed) return false;
  for (int n : g_.grid().neighbours(s.hex))
    if (n >= 0 && occupant_side(n) == 1 - d.side) return false;
  return true;
}

// 11.1.1: a unit's MPs are its own and this round's: computed afresh from its movement factor
// each round ("MPs may not be accumulated from Round to Round", "may not be lent"), spent by the
// one move the search makes. 11.3 weather (supplied units only), 11.4/13.9 MF 3 when OOS or IS,
// 11.5 Forced March +2,
// 10.5.6 Counterattack: MF at most 3 for units that began the round adjacent to the enemy.
int DvState::move_allowance(int u, bool forced) const {
  const UnitDef& d = g_.unit(u);
  const UnitState& s = us(u);
  int mf = d.mf;
  if (s.supply != 0) {
    mf = std::min(mf, 3);
  } else {
    const Tec& t = g_.tec();
    const Weather w = weather();
    const size_t col = d.side == kSoviet ? 2 : (d.mech ? 0 : 1);
    const int delta = w == kSnow && turn_ >= t.snow_late_from_turn
                          ? t.snow_late_move[col]
                          : t.weather_move[static_cast<size_t>(w)][col];
    mf += delta;
    if (forced) mf += 2;
  }
  if (chit_ == kChitCounterattack && s.started_adjacent) mf = std::min(mf, 3);
  if (air_supplied(u)) mf -= g_.air().oos_mp_penalty;  // 8.6.1 "its MP Allowance is reduced by two"
  return std::max(mf, 0);
}

void DvState::reach_search(int u, bool forced, steppe::PathFinder& pf) const {
  const steppe::HexGrid& gr = g_.grid();
  const UnitDef& d = g_.unit(u);
  const int start = us(u).hex;
  const int budget = move_allowance(u, forced);
  const int enemy = 1 - d.side;
  std::vector<uint8_t> ezoc;
  compute_zoc(enemy, ezoc);
  std::vector<int8_t> occ(static_cast<size_t>(gr.size()), kNeutral);
  for (size_t i = 0; i < units_.size(); ++i)
    if (units_[i].box == Box::kMap && g_.units()[i].ground)
      occ[static_cast<size_t>(units_[i].hex)] = static_cast<int8_t>(g_.units()[i].side);
  std::vector<uint8_t> near_enemy;
  if (forced) {
    near_enemy.assign(static_cast<size_t>(gr.size()), 0);
    for (int h = 0; h < gr.size(); ++h)
      if (occ[static_cast<size_t>(h)] == enemy)
        for (int n : gr.neighbours(h))
          if (n >= 0) near_enemy[static_cast<size_t>(n)] = 1;
  }
  const Tec& t = g_.tec();
  const size_t m = d.mech ? 1 : 0;
  const bool start_in_zoc = ezoc[static_cast<size_t>(start)] != 0;
  // 6.2 exceptions: "In-Supply German Mechanized units that begin their Move in the ZOC of one
  // or more Soviet 5-4 Rifle Army units and no other Soviet units may Move directly to another
  // hex solely in the ZOC of one or more Rifle Army units but must then halt. Similarly, Soviet
  // Guard Tank Armies that begin their Move in Axis ZOC may Move directly to another hex in Axis
  // ZOC but must then halt. In both cases, the units may Move only the one hex." (DV-E9)
  std::vector<uint8_t> other_zoc;  // enemy ZOC of units other than Rifle Armies
  bool rifle_exception = false;
  const bool gta_exception = start_in_zoc && d.type == "guards-tank-army";
  if (start_in_zoc && d.nation == "german" && d.mech && us(u).supply == 0) {
    compute_zoc(enemy, other_zoc, 2);
    rifle_exception = other_zoc[static_cast<size_t>(start)] == 0;
  }
  const auto cost = [&](int from, int to, int dir) -> steppe::StepCost {
    const HexInfo& hi = g_.hex(to);
    if (hi.terrain == kSea || hi.terrain == kLake) return steppe::StepCost::impassable();
    // 11.2: "The Soviets (only) may move units directly between The Oranienbaum and Leningrad,
    // in either direction, at a cost of all the unit's MPs."
    const bool oranienbaum = d.side == kSoviet && g_.oranienbaum().test(from, dir);
    if (g_.water().test(from, dir) && !oranienbaum) return steppe::StepCost::impassable();
    if (occ[static_cast<size_t>(to)] == enemy) return steppe::StepCost::impassable();
    // 15.1 minors: not north of row 25; Romanians and Hungarians not in each other's country.
    if (d.minor && gr.row(to) < g_.minors_north_row()) return steppe::StepCost::impassable();
    if (d.nation == "romanian" && hi.hungary) return steppe::StepCost::impassable();
    if (d.nation == "hungarian" && hi.romania) return steppe::StepCost::impassable();
    // 15.3: in 1941 Soviet units may not enter Hungary.
    if (d.side == kSoviet && year() == 1941 && hi.hungary) return steppe::StepCost::impassable();
    const bool volga = g_.volga().test(from, dir);
    if (volga && d.side == kAxis) return steppe::StepCost::impassable();  // TEC: Axis may not cross
    // 6.2: no moving directly from one enemy ZOC hex to another.
    if (from == start && start_in_zoc && ezoc[static_cast<size_t>(to)] != 0 && !gta_exception &&
        !(rifle_exception && other_zoc[static_cast<size_t>(to)] == 0))
      return steppe::StepCost::impassable();
    if (forced && near_enemy[static_cast<size_t>(to)] != 0) return steppe::StepCost::impassable();
    int c = 0;
    bool all = false;
    if (d.hq) {
      c = 1;  // 14.1 one MP per hex in any terrain
    } else {
      auto add = [&](int v) {
        if (v == kAllMp)
          all = true;
        else if (v == kProhibited)
          all = true, c = -1000;
        else
          c += v;
      };
      add(t.hex_move[hi.terrain][m]);
      if (volga)
        add(t.volga_soviet_move);
      else if (g_.major().test(from, dir))
        add(t.major_move[m]);
      else if (g_.river().test(from, dir))
        add(t.river_move[m]);
      if (g_.strait().test(from, dir)) add(t.strait_move[m]);
      if (hi.dw) add(t.dw_move[m]);
      if (c < 0) return steppe::StepCost::impassable();
    }
    if (oranienbaum) all = true;       // 11.2
    if (all) c = std::max(budget, 1);  // 11.1.2 "costs all of a unit's MPs"
    // 6.2: a unit entering an enemy ZOC stops.
    if (ezoc[static_cast<size_t>(to)] != 0) return steppe::StepCost::enter_and_stop(c);
    return steppe::StepCost::enter(c);
  };
  steppe::MoveOptions opt;
  opt.at_least_one_step = budget >= 1;  // 11.1.3
  pf.reachable(gr, start, budget, cost, opt);
}

// 10.5.6: "all units that are moved must be moved in such a way that they may make a legal
// attack after Movement": a Counterattack mover ends next to an enemy hex it may attack.
bool DvState::counterattack_dest_ok(int u, int h) const {
  if (chit_ != kChitCounterattack || h == us(u).hex) return true;
  const steppe::HexGrid& gr = g_.grid();
  for (int d = 0; d < 6; ++d) {
    const int n = gr.neighbour(h, d);
    if (n < 0 || occupant_side(n) != 1 - g_.unit(u).side || g_.water().test(h, d)) continue;
    if (g_.unit(u).side == kSoviet && year() == 1941 && g_.hex(n).hungary) continue;  // 15.3
    return true;
  }
  return false;
}

// 10.5.9.3: a unit placed with Stavka or Zhukov (1942 on, Soviet initiative turns) may move
// only if "the first or second hex they enter must be within two hexes (one intervening hex) of
// an Axis Combat unit, or they must end their Move within two hexes of a Soviet Combat unit that
// did not enter from Reserve this Round". The hexes entered are those of the move's path, the
// search's cheapest as in DV-E11 (ruling DV-B1). `pf` holds u's search.
bool DvState::stavka_path_ok(int u, int h, const steppe::PathFinder& pf) const {
  if (!stavka_restricted() || !stavka_via_hq(u) || h == us(u).hex) return true;
  const steppe::HexGrid& gr = g_.grid();
  const auto near = [&](int x, int side, bool old_only) {
    for (size_t i = 0; i < units_.size(); ++i) {
      const UnitDef& d = g_.units()[i];
      if (units_[i].box != Box::kMap || d.side != side || !d.combat) continue;
      if (old_only && stavka_new(static_cast<int>(i))) continue;
      if (gr.distance(x, units_[i].hex) <= 2) return true;
    }
    return false;
  };
  if (near(h, kSoviet, true)) return true;
  std::vector<int> path;
  pf.path(h, path);
  // path[0] is the start hex: the first and second hexes entered are path[1] and path[2].
  for (size_t k = 1; k < path.size() && k <= 2; ++k)
    if (near(path[k], kAxis, false)) return true;
  return false;
}

bool DvState::stavka_move_ok(int u, int h) const {
  if (!stavka_restricted() || !stavka_via_hq(u) || h == us(u).hex) return true;
  steppe::PathFinder& pf = path_finder();
  reach_search(u, false, pf);
  return pf.reached(h) && stavka_path_ok(u, h, pf);
}

bool DvState::move_dest_ok(int u, int h, bool* forced) const {
  if (h == us(u).hex) {
    if (forced != nullptr) *forced = false;
    return true;  // stays where it is (its move for this round is spent)
  }
  if (!stack_ok(h, g_.unit(u).side, {u})) return false;  // 5.1a
  if (!counterattack_dest_ok(u, h)) return false;
  if (!stavka_move_ok(u, h)) return false;  // 10.5.9.3
  steppe::PathFinder& pf = path_finder();
  reach_search(u, false, pf);
  if (pf.reached(h)) {
    if (forced != nullptr) *forced = false;
    return true;
  }
  if (!may_force_march(u)) return false;
  reach_search(u, true, pf);
  if (forced != nullptr) *forced = true;
  return pf.reached(h);
}

void DvState::move_destinations(int u, std::vector<int>& out) const {
  out.clear();
  const int side = g_.unit(u).side;
  steppe::PathFinder& pf = path_finder();
  reach_search(u, false, pf);
  for (int h : pf.reached_nodes()) out.push_back(h);
  if (may_force_march(u)) {
    reach_search(u, true, pf);
    for (int h : pf.reached_nodes()) out.push_back(h);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  const int start = us(u).hex;
  const bool stavka = stavka_restricted() && stavka_via_hq(u);
  if (stavka) reach_search(u, false, pf);  // 10.5.9.3 judges the paths of this search
  out.erase(std::remove_if(out.begin(), out.end(),
                           [&](int h) {
                             return h != start && (!stack_ok(h, side, {u}) || !counterattack_dest_ok(u, h) ||
                                                   (stavka && !stavka_path_ok(u, h, pf)));
                           }),
            out.end());
}

// 10.4: "In all cases where only some units may be Active ... use Active (ACT) markers to keep
// track of which units are affected. Remove ACT markers at the end of the Round." The markers go
// on when the round begins, before anything moves: 10.5.7 "Command Range is assessed before any
// Movement has occurred", 10.5.8 "Active markers placed before any Combat or Movement", and
// 10.5.10 Manstein/Model "as if it were a Panzer HQ". A unit keeps its marker for the round
// wherever it or the HQ moves; one that comes into range later gets none (ruling DV-E14).
bool DvState::in_command_range(int u) const {
  const UnitDef& d = g_.unit(u);
  const UnitState& s = us(u);
  if (s.box != Box::kMap || !d.ground || d.side != active_) return false;
  auto in_range = [&](int hq) {
    return hq >= 0 && us(hq).box == Box::kMap &&
           g_.grid().distance(s.hex, us(hq).hex) <= g_.unit(hq).command_range;
  };
  switch (chit_) {
    case kChitPanzer1:
    case kChitPanzer2:
    case kChitPanzer3:
    case kChitPanzer4: {
      const int hq = g_.hq_of_panzer_chit(chit_);
      // 10.5.7 German (only) units; "other (i.e., non-Activated) Pz HQs may not be moved during
      // such an Activation".
      return u != hq && d.nation == "german" && d.type != "panzer-hq" && in_range(hq);
    }
    case kChitManstein:
      return manstein_hex_ >= 0 && g_.grid().distance(s.hex, manstein_hex_) <= 3;  // 10.5.10
    case kChitDeepBattle:
      return in_range(g_.stavka_hq()) || in_range(g_.zhukov());  // 10.5.8
    case kChitStavka:
      // 10.5.9: "any of the newly-placed units that are in Command Range of Stavka or Zhukov HQ"
      return stavka_new(u) && (in_range(g_.stavka_hq()) || in_range(g_.zhukov()));
    default:
      return false;
  }
}

void DvState::place_act_markers() {
  for (int u = 0; u < static_cast<int>(units_.size()); ++u) us(u).act = in_command_range(u);
}

// 10.5: which units a round's chit activates (10.4: those with an ACT marker in the rounds of
// an HQ or leader).
bool DvState::active_unit(int u, Segment seg) const {
  const UnitDef& d = g_.unit(u);
  const UnitState& s = us(u);
  if (s.box != Box::kMap || !d.ground || d.side != active_) return false;
  if (seg == kSegCombat && !d.combat) return false;
  switch (chit_) {
    case kChitPanzer1:
    case kChitPanzer2:
    case kChitPanzer3:
    case kChitPanzer4: {
      // 10.5.7: the HQ and German units in its command range; Move then mech-only Combat.
      if (u == g_.hq_of_panzer_chit(chit_)) return seg == kSegMove;
      if (!s.act) return false;
      return !(seg == kSegCombat && mech_only_combat_ && !d.mech);
    }
    case kChitManstein:
      // 10.5.10: "immediately Activates any units within three hexes as if it were a Panzer HQ"
      // (DV-E7: any Axis unit, Move then mech-only Combat as 10.5.7).
      if (!s.act) return false;
      return !(seg == kSegCombat && mech_only_combat_ && !d.mech);
    case kChitDeepBattle:
      // 10.5.8: units in range of Stavka or Zhukov (either or both from Turn 34).
      return u == g_.stavka_hq() || u == g_.zhukov() || s.act;
    case kChitStavka:
      // 10.5.9: the placed units in range after placement move; "Any of these units that are in
      // Command Range of the Stavka or Zhukov HQs at the end of Movement may then perform Combat".
      // "No other units may participate in either the Movement or Combat during the Stavka Round."
      return seg == kSegMove ? s.act : in_command_range(u);
    default:
      return true;
  }
}

bool DvState::can_pick(int u) const {
  return stage_ == Stage::kMove && picked_ < 0 && active_unit(u, kSegMove) && !us(u).moved &&
         move_allowance(u, false) > 0;
}

void DvState::do_move(int u, int to) {
  UnitState& s = us(u);
  bool forced = false;
  (void)move_dest_ok(u, to, &forced);
  const int from = s.hex;
  // 12.7.2: a Fortified Zone "is eliminated if an Axis unit enters the hex": every Zone the
  // move passes through, not only the one it ends in; the move's path is the search's cheapest
  // (ruling DV-E11). The hex the move ends in goes with set_control below.
  if (g_.unit(u).side == kAxis && from != to) {
    steppe::PathFinder& pf = path_finder();
    reach_search(u, forced, pf);
    std::vector<int> path;
    pf.path(to, path);
    for (int h : path) {
      const size_t k = static_cast<size_t>(h);
      if (h == from || h == to || !g_.hex(h).fz || fz_gone_[k] != 0) continue;
      fz_gone_[k] = 1;
      log("fort",
          "the Fortified Zone in " + g_.grid().id(h) + " is removed: " + g_.unit(u).label +
              " moves through it",
          "12.7.2");
    }
  }
  s.hex = to;
  s.moved = true;
  if (forced) s.forced = true;
  air_overrun(to, g_.unit(u).side);  // 8.1
  if (from != to) {
    s.left = true;
    set_control(to, g_.unit(u).side);
    log("move",
        g_.unit(u).label + " moves " + g_.grid().id(from) + " to " + g_.grid().id(to) +
            (forced ? " by Forced March" : ""),
        forced ? "11.5" : "11.1");
  } else {
    log("move", g_.unit(u).label + " stays in " + g_.grid().id(to), "11.1");
  }
}

}  // namespace dv
