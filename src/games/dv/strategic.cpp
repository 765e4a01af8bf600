// 9.0 Strategic Movement, the Strategic Movement Phase (III of 4.0) after the Reinforcement/
// Replacement Phase: Axis rail (9.2), then Soviet rail (9.4), each a segment of its own in which
// the side moves units by rail (`rail UNIT HEX`) until it says `done` or has no rail move left.
// 9.1 one Strategic Movement per unit per turn; it does not touch what the unit may do in the
// Action Rounds. Rail lines are controlled as ruling DV-E15 reads 9.2/9.4.
// Not yet: naval movement between ports (which sea each port is on is not in data/dv yet),
// the Soviet amphibious invasion, Air Drop/Air Transport, and the Stavka Reserve by rail (the
// held Stavka chit, 10.5.9, is not played yet).
#include <algorithm>
#include <deque>

#include "games/dv/dv.h"

namespace dv {

namespace {

// 9.2, 9.4 "may not enter an Enemy-Controlled Town, City or Fort": the hexes 2.4 gives a
// controller. A rail line is the side's where such a hex is the side's (ruling DV-E15).
bool has_control(const HexInfo& hi) {
  return hi.city || hi.oil || hi.fort_owner != kNeutral || hi.weak_fort_owner != kNeutral;
}

}  // namespace

// III. the Strategic Movement Phase in 4.0's order: a. Axis rail (9.2), c. Soviet rail (9.4).
// A segment with no rail move to make is passed over (its Axis roll is still made and logged).
void DvState::advance_strategic() {
  for (;;) {
    if (phase1_ == 4 || phase1_ == 5) {
      const int side = phase1_ == 4 ? kAxis : kSoviet;
      const TurnDef& td = g_.turn(turn_);
      rail_left_ = 0;
      if (side == kAxis && td.axis_rail_dice > 0) {
        // 9.2 "the Axis player may roll 2d6 and move that number of steps by rail"; 1d6 in
        // Snow and from 1944 (trt.json "axis_rail").
        for (int i = 0; i < td.axis_rail_dice; ++i) rail_left_ += roll(6, "Axis rail steps", "9.2");
        log("rail", "Axis rail movement: " + std::to_string(rail_left_) + " steps", "9.2");
      } else if (side == kSoviet && td.soviet_rail_steps > 0) {
        rail_left_ = td.soviet_rail_steps;  // 9.4 "four Combat unit steps per Turn"
      }
      active_ = side;
      stage_ = Stage::kRail;
      std::vector<steppe::Action> acts;
      if (rail_left_ > 0) legal_actions(acts);
      if (acts.size() > 1) return;  // more than "done": there is a rail move to make
      rail_left_ = 0;
      ++phase1_;
      continue;
    }
    phase1_ = 6;
    begin_action_phase();
    return;
  }
}

// 9.2 "move ... any distance along In-Supply, Axis-Controlled Rail Lines. Such units may not
// start, end or move adjacent to Enemy units nor may they enter Enemy-Controlled Towns, Cities,
// or Forts ... must be In Supply in each hex it enters as if Supply were being judged at that
// moment"; 9.4 the same for the Soviets ("nor move adjacent to an Enemy unit at any point").
void DvState::rail_destinations(int u, std::vector<int>& out, const std::vector<uint8_t>* traced,
                                std::vector<int>* parent) const {
  out.clear();
  if (parent != nullptr) parent->assign(static_cast<size_t>(g_.grid().size()), -1);
  const UnitDef& d = g_.unit(u);
  const UnitState& s = us(u);
  if (stage_ != Stage::kRail || d.side != active_ || !d.combat || s.box != Box::kMap || s.strategic ||
      s.steps == 0 || s.steps > rail_left_)
    return;
  const steppe::HexGrid& gr = g_.grid();
  std::vector<uint8_t> own_los, loc;
  if (traced == nullptr) trace_supply(d.side, own_los, loc);
  const std::vector<uint8_t>& los = traced != nullptr ? *traced : own_los;
  const int enemy = 1 - d.side;
  std::vector<uint8_t> near_enemy(static_cast<size_t>(gr.size()), 0);
  for (size_t i = 0; i < units_.size(); ++i) {
    if (units_[i].box != Box::kMap || g_.units()[i].side != enemy || !g_.units()[i].ground) continue;
    near_enemy[static_cast<size_t>(units_[i].hex)] = 1;
    for (int n : gr.neighbours(units_[i].hex))
      if (n >= 0) near_enemy[static_cast<size_t>(n)] = 1;
  }
  const auto open = [&](int h) {
    const HexInfo& hi = g_.hex(h);
    const size_t k = static_cast<size_t>(h);
    return hi.rail && los[k] != 0 && near_enemy[k] == 0 && (!has_control(hi) || control(h) == d.side);
  };
  if (!open(s.hex)) return;
  std::vector<uint8_t> seen(static_cast<size_t>(gr.size()), 0);
  std::deque<int> todo{s.hex};
  seen[static_cast<size_t>(s.hex)] = 1;
  while (!todo.empty()) {
    const int h = todo.front();
    todo.pop_front();
    const auto nbs = gr.neighbours(h);
    for (int dir = 0; dir < static_cast<int>(nbs.size()); ++dir) {
      const int n = nbs[static_cast<size_t>(dir)];
      if (n < 0 || seen[static_cast<size_t>(n)] != 0 || !g_.rail_side().test(h, dir) || !open(n)) continue;
      seen[static_cast<size_t>(n)] = 1;
      if (parent != nullptr) (*parent)[static_cast<size_t>(n)] = h;
      todo.push_back(n);
      // 5.1 stacking at the end of the move (ruling DV-R11).
      if (stack_ok(n, d.side, {u})) out.push_back(n);
    }
  }
  std::sort(out.begin(), out.end());
}

std::string DvState::rail_refusal(int u, int h, std::string* rule) const {
  const UnitDef& d = g_.unit(u);
  const UnitState& s = us(u);
  const std::string sec = d.side == kAxis ? "9.2" : "9.4";
  *rule = sec;
  if (stage_ != Stage::kRail) {
    *rule = "9.1";
    return "rail movement is made only in the Strategic Movement Phase (Axis from Turn 11, Soviets from "
           "Turn 4)";
  }
  if (d.side != active_) {
    *rule = "9.1";
    return std::string("this is the ") + (active_ == kAxis ? "Axis" : "Soviet") +
           " rail segment (Strategic Movement takes place in the order of the Sequence of Play)";
  }
  if (!d.combat || s.box != Box::kMap) return d.label + " is not a combat unit on the map";
  if (s.strategic) {
    *rule = "9.1";
    return d.label + " has already made its Strategic Movement this turn";
  }
  if (s.steps > rail_left_)
    return d.label + " has " + std::to_string(s.steps) + " steps; only " + std::to_string(rail_left_) +
           " rail steps are left this turn";
  std::vector<int> dest;
  rail_destinations(u, dest);
  if (dest.empty() && h != s.hex)
    return d.label + " may not start a rail move in " + g_.grid().id(s.hex) +
           " (an in-supply rail hex of its side, not next to an enemy unit)";
  if (std::find(dest.begin(), dest.end(), h) == dest.end())
    return d.label + " cannot reach " + g_.grid().id(h) +
           " by rail (along the side's in-supply rail lines, never next to an enemy unit nor into an "
           "enemy-controlled town, city or fort; stacking 5.1 at the end)";
  *rule = "";
  return "";
}

void DvState::do_rail(int u, int to) {
  UnitState& s = us(u);
  const int from = s.hex;
  const UnitDef& d = g_.unit(u);
  // 12.7.2 (ruling DV-E11): an Axis unit passing by rail through a Fortified Zone removes it; the
  // path is the search's shortest along the rail net.
  if (d.side == kAxis) {
    std::vector<int> dest, parent;
    rail_destinations(u, dest, nullptr, &parent);
    for (int h = parent[static_cast<size_t>(to)]; h >= 0 && h != from; h = parent[static_cast<size_t>(h)]) {
      const size_t k = static_cast<size_t>(h);
      if (!g_.hex(h).fz || fz_gone_[k] != 0) continue;
      fz_gone_[k] = 1;
      log("fort",
          "the Fortified Zone in " + g_.grid().id(h) + " is removed: " + d.label +
              " moves through it by rail",
          "12.7.2");
    }
  }
  rail_left_ -= s.steps;
  s.hex = to;
  s.strategic = true;
  set_control(to, d.side);
  log("rail",
      d.label + " moves by rail " + g_.grid().id(from) + " to " + g_.grid().id(to) + " (" +
          std::to_string(s.steps) + " steps, " + std::to_string(rail_left_) + " left this turn)",
      d.side == kAxis ? "9.2" : "9.4");
}

}  // namespace dv
