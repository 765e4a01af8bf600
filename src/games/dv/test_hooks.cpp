// Scenario-test words (docs/scenario-tests.md) for The Dark Valley.
//   set place UNIT HEX [reduced]   put a counter on the map (full strength unless "reduced")
//   set remove UNIT                take a counter off the map
//   set turn N                     the turn (weather, CRT and year follow it)
//   set round CHIT axis|soviet     start a round of that chit (10.5), the cup emptied
//   set supply UNIT ok|oos|is      a unit's supply marker (13.1)
//   set control HEX axis|soviet    who controls a hex (2.4)
//   set eliminate UNIT             put a counter in the Eliminated box
//   set replacements SIDE N        that side's Replacement Segment with N RF (Soviet) or N steps of each kind
//   set rail SIDE N                that side's rail segment (9.2, 9.4) with N rail steps
//   set pending UNIT               a counter waits to enter (7.1), as before its entry turn
//   set begin-turn                 the current turn begins (4.0 I: withdrawals, reinforcements)
//   set naval SIDE                 that side's naval segment (9.3, 9.5) with the turn's steps
//   set air UNIT HEX|none [done]   an air unit in play (8.1), based in HEX (Tac Air: none), Done or not
//   set air-base-phase             4.0 II: the Air Base Phase begins (the Axis Segment first)
//   set logistics-air-supply       8.6.1: the Logistics round's German Air Supply window
//   set end-actions                the Action Phase ends: 4.0 V (8.6.2's Air Supply Segment, 13.8), VI
//   set reserve UNIT [reduced]     a counter waits in the Stavka Reserve (10.5.9)
//   query: stavka-steps (10.5.9.1); mandates (ordered made eliminations-left, 10.5.6.2); unit UNIT act
//   query: air UNIT (HEX|unbased available|done|out|eliminated-until N); air-supplied UNIT; combat (ATT to
//   DEF COLUMN) (Axis) query: unit UNIT hex|steps|supply|box; odds HEX UNIT...; vp; stage; control HEX;
//          stack HEX UNIT...; mf UNIT; reach UNIT HEX; zoc axis|soviet HEX; supplied axis|soviet HEX
#include <algorithm>

#include "games/dv/dv.h"

namespace dv {

using steppe::Error;
using steppe::Result;
using steppe::Status;

namespace {

int side_word(const std::string& w) { return w == "axis" ? kAxis : w == "soviet" ? kSoviet : kNeutral; }

}  // namespace

// 10.4: a set-up word before anything has moved or fought in the round stands for the position
// at its start, where the round's ACT markers go.
void DvState::replace_act_markers() {
  for (const UnitState& s : units_)
    if (s.moved || s.left || s.attacked) return;
  place_act_markers();
}

Status DvState::test_set(const std::vector<std::string>& w) {
  const steppe::HexGrid& gr = g_.grid();
  auto unit = [&](size_t i) { return i < w.size() ? g_.unit_index(w[i]) : -1; };
  auto hex = [&](size_t i) { return i < w.size() ? gr.parse(w[i]) : -1; };
  if (w.empty()) return Error{"set needs words", "", ""};
  if (w[0] == "place" && unit(1) >= 0 && hex(2) >= 0) {
    UnitState& s = us(unit(1));
    s = UnitState{};
    s.box = Box::kMap;
    s.hex = hex(2);
    s.steps = static_cast<uint8_t>(w.size() > 3 && w[3] == "reduced" ? 1 : g_.unit(unit(1)).steps);
    if (g_.unit(unit(1)).ground) set_control(s.hex, g_.unit(unit(1)).side);
    replace_act_markers();
    return Status::ok();
  }
  if (w[0] == "reserve" && unit(1) >= 0 && w.size() <= 3) {  // 10.5.9: a unit waits in the Stavka Reserve
    us(unit(1)) = UnitState{};
    us(unit(1)).box = Box::kStavkaReserve;
    us(unit(1)).steps = static_cast<uint8_t>(w.size() == 3 && w[2] == "reduced" ? 1 : g_.unit(unit(1)).steps);
    return Status::ok();
  }
  if (w[0] == "remove" && unit(1) >= 0) {
    us(unit(1)) = UnitState{};
    us(unit(1)).box = Box::kRemoved;
    replace_act_markers();
    return Status::ok();
  }
  // 8.x airpower
  if (w[0] == "air" && (w.size() == 3 || w.size() == 4) && unit(1) >= 0 && g_.air_slot(unit(1)) >= 0 &&
      (hex(2) >= 0 || w[2] == "none")) {
    us(unit(1)) = UnitState{};
    us(unit(1)).box = Box::kAirAssets;
    AirSlot& a = air_[static_cast<size_t>(g_.air_slot(unit(1)))];
    a = AirSlot{};
    a.base = hex(2);
    a.done = w.size() == 4 && w[3] == "done";
    return Status::ok();
  }
  if (w[0] == "air-base-phase" && w.size() == 1) {
    phase1_ = 4;
    air_phase_ = 0;
    if (!advance_air_base()) advance_strategic();
    return Status::ok();
  }
  if (w[0] == "logistics-air-supply" && w.size() == 1) {  // 8.6.1's window of the Logistics round
    stage_ = Stage::kAirSupply;
    active_ = kAxis;
    air_supply_kind_ = 1;
    air_supply_left_ = g_.air().oos_max_round;
    std::fill(air_supply_used_.begin(), air_supply_used_.end(), 0);
    return Status::ok();
  }
  if (w[0] == "end-actions" && w.size() == 1) {
    end_turn();
    return Status::ok();
  }
  if (w[0] == "turn" && w.size() == 2) {
    const int t = std::atoi(w[1].c_str());
    if (t < 1 || t > 44) return Error{"turn 1..44", "", ""};
    turn_ = t;
    stavka_played_ = false;  // 10.5.9: the new turn's Stavka chit
    return Status::ok();
  }
  if (w[0] == "round" && w.size() == 3 && chit_from_name(w[1]) >= 0 && side_word(w[2]) != kNeutral) {
    while (!cup_.empty()) (void)cup_.remove(cup_.contents()[0]);
    preset_.clear();
    used_move_ = used_combat_ = {0, 0};
    start_round(chit_from_name(w[1]), side_word(w[2]));
    return Status::ok();
  }
  if (w[0] == "pending" && unit(1) >= 0) {
    us(unit(1)) = UnitState{};
    us(unit(1)).box = Box::kPending;
    return Status::ok();
  }
  if (w[0] == "begin-turn" && w.size() == 1) {
    start_turn();
    return Status::ok();
  }
  if (w[0] == "eliminate" && unit(1) >= 0) {
    us(unit(1)) = UnitState{};
    us(unit(1)).box = Box::kEliminated;
    return Status::ok();
  }
  if (w[0] == "replacements" && w.size() == 3 && side_word(w[1]) != kNeutral) {
    // the side's Replacement Segment with N RF (Soviet) or N steps of every kind (Axis)
    const int n = std::atoi(w[2].c_str());
    stage_ = Stage::kReplace;
    active_ = side_word(w[1]);
    phase1_ = active_ == kAxis ? 1 : 3;
    rf_ = active_ == kSoviet ? n : 0;
    axis_pool_.assign(g_.axis_kinds().size(), active_ == kAxis ? n : 0);
    rebuilt_.assign(g_.limited_types().size(), 0);
    return Status::ok();
  }
  if (w[0] == "rail" && w.size() == 3 && side_word(w[1]) != kNeutral) {
    stage_ = Stage::kRail;
    active_ = side_word(w[1]);
    phase1_ = active_ == kAxis ? 4 : 6;
    rail_left_ = std::atoi(w[2].c_str());
    return Status::ok();
  }
  if (w[0] == "naval" && w.size() == 2 && side_word(w[1]) != kNeutral) {
    stage_ = Stage::kNaval;
    active_ = side_word(w[1]);
    phase1_ = active_ == kAxis ? 5 : 7;
    naval_left_ = {g_.naval_steps(active_, 0), g_.naval_steps(active_, 1)};
    return Status::ok();
  }
  if (w[0] == "supply" && unit(1) >= 0 && w.size() == 3) {
    us(unit(1)).supply = static_cast<uint8_t>(w[2] == "oos" ? 1 : w[2] == "is" ? 2 : 0);
    return Status::ok();
  }
  if (w[0] == "control" && hex(1) >= 0 && w.size() == 3 && side_word(w[2]) != kNeutral) {
    set_control(hex(1), side_word(w[2]));
    return Status::ok();
  }
  return Error{
      "unknown set-up words (place, remove, eliminate, replacements, rail, naval, pending, begin-turn, turn, "
      "round, supply, "
      "control, air, air-base-phase, end-actions)",
      "", ""};
}

Result<std::string> DvState::test_query(const std::vector<std::string>& w) const {
  const steppe::HexGrid& gr = g_.grid();
  auto unit = [&](size_t i) { return i < w.size() ? g_.unit_index(w[i]) : -1; };
  auto hex = [&](size_t i) { return i < w.size() ? gr.parse(w[i]) : -1; };
  if (w.empty()) return Error{"empty query", "", ""};
  if (w[0] == "unit" && unit(1) >= 0 && w.size() == 3) {
    const UnitState& s = us(unit(1));
    if (w[2] == "hex") return s.box == Box::kMap ? gr.id(s.hex) : std::string("none");
    if (w[2] == "steps") return std::to_string(s.steps);
    if (w[2] == "supply") return std::string(s.supply == 0 ? "ok" : s.supply == 1 ? "oos" : "is");
    if (w[2] == "box")
      return std::string(s.box == Box::kMap             ? "map"
                         : s.box == Box::kEliminated    ? "eliminated"
                         : s.box == Box::kOtherFronts   ? "other-fronts"
                         : s.box == Box::kRemoved       ? "removed"
                         : s.box == Box::kStavkaReserve ? "stavka-reserve"
                                                        : "other");
  }
  if (w[0] == "air" && w.size() == 2 && unit(1) >= 0 && g_.air_slot(unit(1)) >= 0) {
    const AirSlot& a = air_slot(unit(1));
    if (us(unit(1)).box != Box::kAirAssets) return std::string("out");
    if (a.back > turn_) return "eliminated-until " + std::to_string(a.back);
    return (a.base >= 0 ? gr.id(a.base) : std::string("unbased")) + (a.done ? " done" : " available");
  }
  if (w[0] == "combat" && w.size() == 1) {  // the combat being fought, as it stands (8.3, 8.4, 12.3a)
    if (target_ < 0) return std::string("none");
    const Outcome o = assess();
    return std::to_string(o.attack) + " to " + std::to_string(o.defense) + " " +
           (o.column < 0 ? std::string("AE") : g_.crt().columns[static_cast<size_t>(o.column)]);
  }
  if (w[0] == "air-supplied" && w.size() == 2 && unit(1) >= 0)
    return std::string(air_supplied(unit(1)) ? "yes" : "no");
  if (w[0] == "rf") return std::to_string(rf_);
  if (w[0] == "stavka-steps") return std::to_string(stavka_steps_);  // 10.5.9.1
  if (w[0] == "mandates")  // 10.5.6.1/10.5.6.2: ordered, made, eliminations left
    return std::to_string(mandates_) + " " + std::to_string(mandates_made_) + " " +
           std::to_string(purges_left_);
  if (w[0] == "unit" && unit(1) >= 0 && w.size() == 3 && w[2] == "act")
    return std::string(us(unit(1)).act ? "yes" : "no");
  if (w[0] == "rail") return std::to_string(rail_left_);
  if (w[0] == "naval" && w.size() == 2 && (w[1] == "baltic" || w[1] == "black-sea"))
    return std::to_string(naval_left_[w[1] == "baltic" ? 0 : 1]);
  if (w[0] == "vp") return std::to_string(vp());
  if (w[0] == "stage") return observation(kAxis)["stage"].get<std::string>();
  if (w[0] == "control" && hex(1) >= 0) {
    const int c = control(hex(1));
    return std::string(c == kAxis ? "axis" : c == kSoviet ? "soviet" : "neutral");
  }
  if (w[0] == "mf" && unit(1) >= 0) return std::to_string(move_allowance(unit(1), false));
  if (w[0] == "reach" && unit(1) >= 0 && hex(2) >= 0) {
    steppe::PathFinder pf;
    reach_search(unit(1), false, pf);
    return pf.reached(hex(2)) ? std::to_string(pf.cost(hex(2))) : std::string("no");
  }
  if (w[0] == "stack" && hex(1) >= 0 && w.size() >= 3) {
    std::vector<int> adding;
    for (size_t i = 2; i < w.size(); ++i) {
      if (unit(i) < 0) return Error{"no counter " + w[i], "", ""};
      adding.push_back(unit(i));
    }
    return std::string(stack_ok(hex(1), g_.unit(adding[0]).side, adding) ? "legal" : "illegal");
  }
  if (w[0] == "zoc" && w.size() == 3 && side_word(w[1]) != kNeutral && hex(2) >= 0)
    return std::string(zoc_of(side_word(w[1]), hex(2)) ? "yes" : "no");
  if (w[0] == "supplied" && w.size() == 3 && side_word(w[1]) != kNeutral && hex(2) >= 0) {
    std::vector<uint8_t> los, loc;
    trace_supply(side_word(w[1]), los, loc);
    const size_t h = static_cast<size_t>(hex(2));
    return std::string(los[h] != 0 ? "ok" : loc[h] != 0 ? "oos" : "is");
  }
  if (w[0] == "odds" && hex(1) >= 0 && w.size() >= 3) {
    DvState copy(*this);
    copy.target_ = hex(1);
    copy.attackers_.clear();
    for (size_t i = 2; i < w.size(); ++i) {
      if (unit(i) < 0) return Error{"no counter " + w[i], "", ""};
      copy.attackers_.push_back(unit(i));
    }
    copy.active_ = g_.unit(copy.attackers_[0]).side;
    const Outcome o = copy.assess();
    if (o.column < 0) return std::string("AE");
    return g_.crt().columns[static_cast<size_t>(o.column)] +
           (o.drm != 0 ? " drm " + std::to_string(o.drm) : "");
  }
  return Error{"unknown query (unit, vp, stage, control, mf, reach, stack, zoc, supplied, odds)", "", ""};
}

}  // namespace dv
