// 8.0 Reinforcement and Withdrawal (A4 of the Strategic Segment, 4.2).
//
// Scheduled reinforcements (8.1, 8.2) are placed on their entry hex in this phase and move in
// their side's Movement Phases (ruling A-62); a unit whose entry hexes are all closed waits and
// tries again next turn (8.1.3: "The game turn designated ... is the earliest turn it can
// enter"). Reinforcements placed in a city need the 8.1.4 conditions, else they enter by the
// map edge listed with them (or wait). Special Reinforcement Pools (8.3): a Soviet group after
// an R result (replacements.cpp `r-event pool`), Axis groups at will (`pool`). Rebuilt units in
// the Active Box enter in a supplied friendly city or at a friendly supply-source map edge
// (8.4, `enter`). Withdrawals (8.6) happen when the step ends; `keep` cancels one for a VP.
// 8.5 (Untried Militia drawn from the cup) needs the untried-unit machinery and is not played.
#include <algorithm>

#include "games/agc/agc.h"

namespace agc {

using steppe::Action;
using steppe::Error;
using steppe::Status;

namespace {

bool not_yet_in_play(const AgcState& s, int u) {
  const auto& us = s.us_[u];
  return us.hex < 0 && !us.eliminated && !us.withdrawn && us.rebuild == 0;
}

// Room for the unit in hex: no enemy unit (8.1.3) and within the stacking limit (3.0e).
bool room(const AgcState& s, int u, int h) {
  const auto& d = s.g().units_[u];
  return s.stack_points(h, 1 - d.side) == 0 &&
         s.stack_points(h, d.side) + d.stacking <= s.g().stacking_limit_;
}

}  // namespace

// 8.1.4: "the hex must be friendly, in General Supply, and not in an enemy ZOC (major city hexes
// are not affected by enemy ZOCs)"; 8.4a: "any supplied friendly city or major city not in an
// enemy ZOC" (a major city is not in a ZOC at all, 10.7.12).
bool AgcState::placement_ok(int unit, int hex, std::string* why) const {
  const int side = g_->units_[unit].side;
  auto no = [&](const std::string& w) {
    if (why != nullptr) *why = g_->grid_.id(hex) + " " + w;
    return false;
  };
  if (control_[hex] != side) return no("is not friendly");
  if (g_->settlement_[hex] < 3 && in_enemy_zoc(hex, side)) return no("is in an enemy ZOC");
  std::vector<uint8_t> map;
  supply_map(side, map);
  if (map[hex] == 0) return no("is not in General Supply");
  if (!room(*this, unit, hex)) return no("holds an enemy unit or has no room (3.0e)");
  return true;
}

void AgcState::arrive(const ScenarioDef::Arrival& a, const char* rule) {
  if (!not_yet_in_play(*this, a.unit)) return;
  const auto& d = g_->units_[a.unit];
  for (size_t k = 0; k < a.hexes.size(); ++k) {
    const int h = a.hexes[k];
    if (h < 0 || !room(*this, a.unit, h)) continue;
    if (static_cast<int>(k) < a.placement && !placement_ok(a.unit, h, nullptr)) continue;  // 8.1.4
    place(a.unit, h);
    rebuild_occupancy();
    us_[a.unit].out_of_supply = us_[a.unit].emergency = false;  // 8.1.5
    emit({"reinforcement", d.label + " arrives at " + g_->grid_.id(h), rule, 0xFFFFFFFFu, false, {}});
    return;
  }
  if (a.turn == turn_)
    emit({"reinforcement",
          d.label + " cannot enter this turn: its entry hexes are closed; it waits (8.1.3" +
              std::string(a.placement > 0 ? ", 8.1.4" : "") + ")",
          "8.1.3",
          0xFFFFFFFFu,
          false,
          {}});
}

void AgcState::reinforcement_phase() {
  rebuild_occupancy();
  if (sc_ == nullptr) return;
  // 8.1, 8.2.1: scheduled reinforcements from their turn on; 8.3: the groups chosen.
  for (const auto& a : sc_->arrivals)
    if (a.turn <= turn_) arrive(a, a.placement > 0 ? "8.1.4" : "8.1");
  for (size_t p = 0; p < sc_->pools.size(); ++p)
    if ((pools_used_ & (1u << p)) != 0)
      for (const auto& a : sc_->pools[p].units)
        if (a.turn <= turn_) arrive(a, "8.3");
  // 8.6.1: "On the designated turn, the units to be withdrawn are removed".
  withdraw_due_.clear();
  for (const auto& [u, t] : sc_->withdrawals)
    if (t == turn_ && !us_[u].withdrawn) withdraw_due_.push_back(static_cast<int16_t>(u));
}

namespace {

void pay_vp(AgcState& s, int side, int vp, const std::string& why, const char* rule) {
  // 24.1: "Only the Axis player receives VPs. Those 'earned' by the Soviet player are subtracted
  // from the Axis total": a VP the Axis pays is taken off his total, one the Soviet pays is his
  // (ruling A-63).
  s.vp_adjust_ += side == kAxis ? -vp : vp;
  s.log("vp", why + (side == kAxis ? ": -" : ": +") + std::to_string(vp) + " Axis VP", rule);
}

void withdraw_one(AgcState& s, int u) {
  const auto& g = s.g();
  const auto& d = g.units_[u];
  auto gone = [&](int w, const std::string& how) {
    s.us_[w].hex = -1;
    s.us_[w].withdrawn = true;
    s.us_[w].box = kAirOut;
    s.log("withdrawal", g.units_[w].label + " is withdrawn" + how, d.air ? "8.6.2" : "8.6.1");
  };
  if (d.air) {
    // 8.6.2: "Any air unit of the type designated for withdrawal will suffice ... from the Ready,
    // Flown, Damaged or Destroyed Boxes".
    for (int w = u, k = 0; k <= static_cast<int>(s.us_.size()); w = k++) {
      const auto& x = g.units_[w];
      const auto box = s.us_[w].box;
      if (x.air && x.side == d.side && x.air_type == d.air_type && !s.us_[w].withdrawn && box != kAirOut &&
          box != kAirMission) {
        gone(w, w == u ? "" : " in place of " + d.label);
        return;
      }
    }
    pay_vp(s, d.side, g.repl_.vp_withdrawal, "no air unit of " + d.label + "'s type to withdraw", "8.6.1");
    return;
  }
  if (s.us_[u].hex >= 0 || not_yet_in_play(s, u)) {  // "so long as ... at least one step remaining"
    gone(u, s.us_[u].hex >= 0 ? "" : " before it entered the map");
    return;
  }
  // 8.6.1: "If a withdrawing unit has been destroyed and has not re-entered the game, the owning
  // player must withdraw another unit with the same unit type symbol and equal attack and defense
  // strengths or pay one VP" (the first such unit on the map; ruling A-63).
  for (size_t w = 0; w < s.us_.size(); ++w) {
    const auto& x = g.units_[w];
    if (x.side != d.side || s.us_[w].hex < 0 || x.type != d.type || x.attack != d.attack ||
        x.defense != d.defense)
      continue;
    if (std::find(s.withdraw_due_.begin(), s.withdraw_due_.end(), static_cast<int16_t>(w)) !=
        s.withdraw_due_.end())
      continue;
    gone(static_cast<int>(w), " in place of the destroyed " + d.label);
    return;
  }
  pay_vp(s, d.side, g.repl_.vp_withdrawal, d.label + " was destroyed and no like unit can be withdrawn",
         "8.6.1");
}

}  // namespace

void AgcState::withdraw_due() {
  const int side = strategic_side();
  std::vector<int16_t> left;
  std::vector<int16_t> now;
  for (int16_t u : withdraw_due_) (g_->units_[u].side == side ? now : left).push_back(u);
  for (int16_t u : now) withdraw_one(*this, u);
  withdraw_due_ = std::move(left);
  rebuild_occupancy();
}

// ---- verbs: pool (8.3.2), enter (8.4), keep (8.6.3) ----
namespace {
bool own_reinforcement_step(const AgcState& s, int side) {
  return (s.strategic_ == kAxisReinforcementStep && side == kAxis) ||
         (s.strategic_ == kSovietReinforcementStep && side == kSoviet);
}
}  // namespace

Status check_pool(const AgcState& s, int p) {
  if (s.sc_ == nullptr || p < 0 || p >= static_cast<int>(s.sc_->pools.size()))
    return Error{"no such Special Reinforcement Pool group", "8.3", ""};
  const auto& pool = s.sc_->pools[p];
  if (pool.side == kSoviet)
    return Error{
        "a Soviet Special Reinforcement group enters only after an R result on the Soviet Replacement Table",
        "8.3.1", ""};
  if (!own_reinforcement_step(s, kAxis))
    return Error{"Axis groups are chosen in the Axis Reinforcement Phase", "8.3.2", ""};
  if ((s.pools_used_ & (1u << p)) != 0)
    return Error{"the group " + pool.id + " has been chosen already", "8.3.2", ""};
  bool any = false;
  for (const auto& a : pool.units) any = any || a.turn <= s.turn_;
  if (!any) return Error{"the group " + pool.id + " is not allowed to enter play this turn", "8.3.2", ""};
  return Status::ok();
}

void do_pool(AgcState& s, int p) {
  const auto& pool = s.sc_->pools[p];
  s.pools_used_ |= 1u << p;
  s.log("reinforcement", "the Axis enters the Special Reinforcement Pool group " + pool.id, "8.3.2");
  if (pool.vp != 0) pay_vp(s, kAxis, pool.vp, "the VP penalty of the group " + pool.id, "8.3.2");
  for (const auto& a : pool.units)
    if (a.turn <= s.turn_) s.arrive(a, "8.3.2");  // later units: as scheduled reinforcements (8.3.1)
}

Status check_enter(const AgcState& s, int u, int hex) {
  const auto& d = s.g().units_[u];
  if (!own_reinforcement_step(s, d.side))
    return Error{"rebuilt units enter in their side's Reinforcement Phase", "8.4", ""};
  if (s.us_[u].rebuild != 2) return Error{d.label + " is not in the Active Box", "8.4, 20.2.2a", ""};
  const auto& edge = s.g().supply_edge_[d.side];
  // 8.4b: "entering the map through any friendly map-edge hex designated as a friendly Supply Source".
  if (std::find(edge.begin(), edge.end(), hex) != edge.end()) {
    if (s.control_[hex] != d.side) return Error{s.g().grid_.id(hex) + " is not friendly", "8.4b", ""};
    if (!room(s, u, hex))
      return Error{s.g().grid_.id(hex) + " holds an enemy unit or has no room", "8.4b, 3.0e", ""};
    return Status::ok();
  }
  if (s.g().settlement_[hex] < 2)
    return Error{s.g().grid_.id(hex) + " is neither a city nor a friendly supply-source map-edge hex", "8.4",
                 ""};
  std::string why;
  if (!s.placement_ok(u, hex, &why)) return Error{why, "8.4a", ""};
  return Status::ok();
}

void do_enter(AgcState& s, int u, int hex) {
  s.us_[u].rebuild = 0;
  s.us_[u].eliminated = false;
  s.us_[u].out_of_supply = s.us_[u].emergency = false;
  s.place(u, hex);
  s.rebuild_occupancy();
  s.log("reinforcement", s.g().units_[u].label + " enters from the Active Box at " + s.g().grid_.id(hex),
        "8.4");
}

Status check_keep(const AgcState& s, int u) {
  const auto& d = s.g().units_[u];
  if (!own_reinforcement_step(s, d.side))
    return Error{"withdrawals are cancelled in the owner's Withdrawal Phase", "8.6.3", ""};
  if (std::find(s.withdraw_due_.begin(), s.withdraw_due_.end(), static_cast<int16_t>(u)) ==
      s.withdraw_due_.end())
    return Error{d.label + " is not to be withdrawn this turn", "8.6.3", ""};
  return Status::ok();
}

void do_keep(AgcState& s, int u) {
  s.withdraw_due_.erase(std::find(s.withdraw_due_.begin(), s.withdraw_due_.end(), static_cast<int16_t>(u)));
  pay_vp(s, s.g().units_[u].side, s.g().repl_.vp_withdrawal,
         "the withdrawal of " + s.g().units_[u].label + " is cancelled", "8.6.3");
}

void gen_reinforcement_verbs(const AgcState& s, std::vector<Action>& out) {
  const int side = s.strategic_side();
  if (side == kNoSide || !own_reinforcement_step(s, side)) return;
  auto push = [&](uint16_t verb, int a0, int a1, bool two) {
    Action a;
    a.verb = verb;
    a.push(a0);
    if (two) a.push(a1);
    out.push_back(a);
  };
  if (s.sc_ != nullptr)
    for (int p = 0; p < static_cast<int>(s.sc_->pools.size()); ++p)
      if (check_pool(s, p).is_ok()) push(kPool, p, 0, false);
  std::vector<uint8_t> map;
  for (size_t u = 0; u < s.us_.size(); ++u) {
    if (s.g().units_[u].side != side || s.us_[u].rebuild != 2) continue;
    if (map.empty()) s.supply_map(side, map);
    for (int h = 0; h < s.g().grid_.size(); ++h) {
      const auto& edge = s.g().supply_edge_[side];
      const bool candidate = (s.g().settlement_[h] >= 2 && map[h] != 0 && s.control_[h] == side) ||
                             std::find(edge.begin(), edge.end(), h) != edge.end();
      if (candidate && check_enter(s, static_cast<int>(u), h).is_ok())
        push(kEnter, static_cast<int>(u), h, true);
    }
  }
  for (int16_t u : s.withdraw_due_)
    if (s.g().units_[u].side == side) push(kKeep, u, 0, false);
}

}  // namespace agc
