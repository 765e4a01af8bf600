// 22.1 Operational Soviet HQs and 22.2 Non-Operational HQs (the Command Range of 22.1.1 and the
// Orders and reaction points of 22.1.2b-c are reaction.cpp's hq_for; the interdicted command
// value is air.cpp's command_value).
//
// 10.2.4c, 22.1.2a: at the beginning of the Soviet Motorized Movement Phase an in-range HQ
// activates one non-motorized unit per command point (`activate`), and one Guards unit free
// (22.8.1); activated units move at full MA then and not in the Soviet Movement Phase, and the
// Activated markers go in the Interphase. 22.2: a Non-Op HQ issues no Orders, activates nothing,
// lets no unit react (22.2.4), and within its range its effects win over an Operational HQ's
// (22.2.2): no NKVD No Retreat (22.2.5e), at most one Soviet artillery unit per combat (22.2.5d).
// An HQ goes Non-Op when it retreats through a vacant hex in an Axis ZOC (22.2.3c; the Overrun
// marker of 22.2.3b waits for 11.4). In the Interphase (22.2.6) the Soviet player rolls for each
// Non-Op HQ he wants to recover (`recover`: d10 <= Recovery Value) or disbands one instead
// (`disband`: to the Cadre Box, +2 Axis VP).
#include <algorithm>

#include "games/agc/agc.h"

namespace agc {

using steppe::Action;
using steppe::Error;
using steppe::Status;

// 22.2.2: "the Non-Op HQ's Command Range takes precedence in any hex where the overlap occurs".
bool AgcState::hq_operational_in(int hex) const {
  for (size_t u = 0; u < us_.size(); ++u)
    if (us_[u].nonop && us_[u].hex >= 0 && g_->grid_.distance(us_[u].hex, hex) <= g_->hq_range_) return false;
  return true;
}

// 22.2.5d: "Under no circumstances can more than one Soviet artillery unit contribute its support
// strength to any given combat" in a Non-Op HQ's range.
int AgcState::max_artillery(int hex) const { return hq_operational_in(hex) ? 99 : 1; }

void AgcState::make_nonop(int hq, const char* why, const char* rule) {
  if (us_[hq].nonop || !g_->units_[hq].hq) return;
  us_[hq].nonop = true;
  emit({"hq", g_->units_[hq].label + " goes Non-Operational: " + why, rule, 0xFFFFFFFFu, false, {}});
}

// 10.2.4c: "Soviet in-range HQs with non-interdicted command points can activate one
// non-motorized unit ... per command point ... each HQ can also activate one in-range Guards unit
// [22.8] at no command point cost (even if a HQs command rating has been reduced to zero)".
int AgcState::activating_hq(int u) const {
  const int at = us_[u].hex;
  if (at < 0 || !hq_operational_in(at)) return -1;  // 22.2.4b
  const bool guards = g_->units_[u].guards;
  for (size_t h = 0; h < us_.size(); ++h) {
    const auto& d = g_->units_[h];
    if (!d.hq || d.side != kSoviet || us_[h].hex < 0 || us_[h].nonop || static_cast<int>(h) == u) continue;
    if (g_->grid_.distance(us_[h].hex, at) > g_->hq_range_) continue;
    if (guards && !us_[h].guards_used && g_->repl_.guards_per_hq > 0) return static_cast<int>(h);
    if (us_[h].activations < command_value(static_cast<int>(h))) return static_cast<int>(h);
  }
  return -1;
}

Status check_activate(const AgcState& s, int u) {
  const auto& d = s.g().units_[u];
  if (s.phase_ != kSovietMotorizedMovement || s.strategic_ != kNoStep || s.declaring_)
    return Error{"units are activated at the beginning of the Soviet Motorized Movement Phase", "10.2.4c",
                 ""};
  if (d.side != kSoviet || !d.combat || s.us_[u].hex < 0)
    return Error{d.label + " is not a Soviet unit on the map", "10.2.4c", ""};
  if (d.hq) return Error{"the HQ cannot activate itself", "22.1.2a", ""};
  if (d.cls == kMotorized)
    return Error{d.label + " is motorized: it moves without activation", "10.2.4c", ""};
  if (s.us_[u].activated) return Error{d.label + " is already activated", "10.2.4c", ""};
  for (size_t x = 0; x < s.us_.size(); ++x)
    if (s.us_[x].moved && s.g().units_[x].side == kSoviet)
      return Error{"activation comes at the beginning of the phase, before any Soviet unit moves", "10.2.4c",
                   ""};
  if (!s.hq_operational_in(s.us_[u].hex))
    return Error{d.label + " is within the Command Range of a Non-Op HQ, which activates no unit",
                 "22.2.4b, 22.2.2", ""};
  if (s.activating_hq(u) < 0)
    return Error{d.label + " is not within the Command Range of an Operational HQ with a command point left" +
                     (d.guards ? " or its free Guards activation" : ""),
                 d.guards ? "10.2.4c, 22.8.1" : "10.2.4c, 22.1.2a", ""};
  return Status::ok();
}

void do_activate(AgcState& s, int u) {
  const int hq = s.activating_hq(u);
  const bool guards = s.g().units_[u].guards && !s.us_[hq].guards_used;
  if (guards)
    s.us_[hq].guards_used = true;
  else
    ++s.us_[hq].activations;
  s.us_[u].activated = true;
  s.us_[u].mp_left = static_cast<int8_t>(s.ma_this_phase(u));
  s.log("activation",
        s.g().units_[u].label + " is activated by " + s.g().units_[hq].label +
            (guards ? " (its free Guards activation)" : " (one command point)"),
        guards ? "22.8.1" : "10.2.4c");
}

// 22.2.5g: "during each movement phase, the number of Soviet ground combat units that begin
// movement within the Command Range is limited to one less than the Non-Op HQ's Recovery Value";
// "A Non-Op Soviet HQ may always move during the Soviet Movement Phase"; 22.2.5f: a unit that
// began outside "can enter and freely move within that command range".
namespace {
bool restricted_by(const AgcState& s, int unit, int hq) {
  const auto& d = s.g().units_[unit];
  if (d.side != kSoviet || !d.combat || !s.us_[hq].nonop || s.us_[hq].hex < 0 || s.us_[unit].moved)
    return false;
  if (unit == hq && s.phase_ == kSovietMovement) return false;
  return s.g().grid_.distance(s.us_[hq].hex, s.us_[unit].hex) <= s.g().hq_range_;
}
}  // namespace

Status AgcState::check_nonop_move(int unit) const {
  for (size_t h = 0; h < us_.size(); ++h)
    if (restricted_by(*this, unit, static_cast<int>(h)) &&
        us_[h].restricted_moved >= std::max(0, g_->units_[h].recovery - 1))
      return Error{g_->units_[unit].label + " begins its movement within the Command Range of the Non-Op " +
                       g_->units_[h].label + ", which lets only " +
                       std::to_string(std::max(0, g_->units_[h].recovery - 1)) +
                       " units (one less than its Recovery Value) move in this phase",
                   "22.2.5g", ""};
  return Status::ok();
}

void AgcState::note_nonop_start(int unit) {
  for (size_t h = 0; h < us_.size(); ++h)
    if (restricted_by(*this, unit, static_cast<int>(h))) ++us_[h].restricted_moved;
}

// ---- 22.2.6 in the Interphase ----
Status check_recover(const AgcState& s, int u) {
  const auto& d = s.g().units_[u];
  if (s.strategic_ != kInterphaseStep)
    return Error{"Non-Op HQs recover in the Game Turn Interphase", "22.2.6a", ""};
  if (s.sc_ != nullptr && !s.sc_->hq_recovery)
    return Error{"the scenario prohibits recovery rolls", "22.2.6a", ""};
  if (!d.hq || !s.us_[u].nonop || s.us_[u].hex < 0)
    return Error{d.label + " is not a Non-Op HQ on the map", "22.2.6a", ""};
  if (s.us_[u].recovery_rolled) return Error{d.label + " has already rolled this Interphase", "22.2.6a", ""};
  return Status::ok();
}

void do_recover(AgcState& s, int u) {
  const auto& d = s.g().units_[u];
  s.us_[u].recovery_rolled = true;
  const int r =
      s.roll_die(10, d.label + " recovery (Recovery Value " + std::to_string(d.recovery) + ")", "22.2.6a");
  if (r <= d.recovery) {
    s.us_[u].nonop = false;
    s.log("hq", d.label + " recovers: flipped to its Operational side", "22.2.6a");
  } else {
    s.log("hq", d.label + " remains Non-Operational", "22.2.6a");
  }
}

Status check_disband(const AgcState& s, int u) {
  const auto& d = s.g().units_[u];
  if (s.strategic_ != kInterphaseStep)
    return Error{"Non-Op HQs are disbanded in the Game Turn Interphase", "22.2.6b", ""};
  if (s.sc_ != nullptr && !s.sc_->hq_disband)
    return Error{"the scenario prohibits disbanding", "22.2.6b", ""};
  if (!d.hq || !s.us_[u].nonop || s.us_[u].hex < 0)
    return Error{d.label + " is not a Non-Op HQ within the scenario map area", "22.2.6b", ""};
  if (s.disbanded_ > 0) return Error{"no more than one Non-Op HQ can be disbanded per turn", "22.2.6b", ""};
  if (s.us_[u].recovery_rolled)
    return Error{
        "the declaration to disband is made in lieu of the recovery roll: " + d.label + " has rolled",
        "22.2.6b", ""};
  return Status::ok();
}

void do_disband(AgcState& s, int u) {
  auto& us = s.us_[u];
  us.hex = -1;
  us.eliminated = true;
  us.rebuild = 1;  // "removed from the map and placed in the Cadre Box"
  us.nonop = false;
  ++s.disbanded_;
  s.vp_adjust_ += s.g().repl_.vp_disband;
  s.rebuild_occupancy();
  s.log("hq",
        s.g().units_[u].label + " is disbanded to the Cadre Box: +" + std::to_string(s.g().repl_.vp_disband) +
            " Axis VP",
        "22.2.6b");
}

void gen_special_verbs(const AgcState& s, std::vector<Action>& out) {
  auto push = [&](uint16_t verb, int u) {
    Action a;
    a.verb = verb;
    a.push(u);
    out.push_back(a);
  };
  const int n = static_cast<int>(s.us_.size());
  if (s.strategic_ == kInterphaseStep)
    for (int u = 0; u < n; ++u) {
      if (!s.us_[u].nonop) continue;
      if (check_recover(s, u).is_ok()) push(kRecover, u);
      if (check_disband(s, u).is_ok()) push(kDisband, u);
    }
  if (s.phase_ == kSovietMotorizedMovement && s.strategic_ == kNoStep && !s.over_)
    for (int u = 0; u < n; ++u)
      if (s.g().units_[u].side == kSoviet && s.us_[u].hex >= 0 && check_activate(s, u).is_ok())
        push(kActivate, u);
}

// D. the Game Turn Interphase (4.2): 10.2.4c, 7.2e.1, 22.2.6.
void AgcState::interphase() {
  bool marked = false;
  for (auto& s : us_) {
    marked = marked || s.activated;
    s.activated = false;  // 10.2.4c: "The markers are removed during the Game Turn Interphase"
    s.activations = 0;    // 22.1.3: "Command value cannot be accumulated from turn to turn"
    s.guards_used = false;
    s.recovery_rolled = false;
  }
  if (marked) emit({"activation", "the Activated markers are removed", "10.2.4c", 0xFFFFFFFFu, false, {}});
  disbanded_ = 0;
  // 7.2e.1: "During the Game Turn Interphase of any turn where the Axis Player captures and holds
  // a scenario victory point location, each Mandated Attack not yet made is converted into +2 VPs
  // for the Axis Player ... and the marker is placed in the Zero box" (ruling A-64).
  if (sc_ != nullptr && mandated_owed_ > 0) {
    bool captured = false;
    for (size_t i = 0; i < sc_->vp_locations.size() && i < 64; ++i) {
      const int h = sc_->vp_locations[i].first;
      if (h >= 0 && control_[h] == kAxis && (vp_held_ & (uint64_t{1} << i)) == 0) captured = true;
    }
    if (captured) {
      const int vp = g_->repl_.vp_mandated * mandated_owed_;
      vp_adjust_ += vp;
      emit({"vp",
            "the Axis captured and holds a victory point location: " + std::to_string(mandated_owed_) +
                " Mandated Attacks not yet made become +" + std::to_string(vp) + " Axis VP",
            "7.2e.1",
            0xFFFFFFFFu,
            false,
            {}});
      mandated_owed_ = 0;
    }
  }
  strategic_ = kNoStep;
  if (strategic_choice(kInterphaseStep)) {
    strategic_ = kInterphaseStep;
    emit({"phase",
          "the Interphase: the Soviet player may roll for his Non-Op HQs or disband one",
          "22.2.6",
          0xFFFFFFFFu,
          false,
          {}});
    return;
  }
  next_turn();
}

}  // namespace agc
