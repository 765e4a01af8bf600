// 9.0 Strategic Movement, the Strategic Movement Phase (III of 4.0) after the Reinforcement/
// Replacement Phase: Axis rail (9.2), Axis naval (9.3), Soviet rail (9.4), Soviet naval (9.5),
// each a segment of its own in which the side moves units (`rail UNIT HEX`, `ship UNIT HEX`)
// until it says `done` or has no move left.
// 9.1 one Strategic Movement per unit per turn; it does not touch what the unit may do in the
// Action Rounds. Rail lines are controlled as ruling DV-E15 reads 9.2/9.4.
// Naval Transport (9.3 Axis, 9.5 Soviet, `ship UNIT HEX`) follows each side's rail segment.
// Not yet: the Soviet amphibious invasion, Air Drop/Air Transport, and the Stavka Reserve by rail (the
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

// III. the Strategic Movement Phase in 4.0's order: a. Axis rail (9.2), b. Axis naval (9.3),
// c. Soviet rail (9.4), d. Soviet naval (9.5). A segment with no move to make is passed over
// (the Axis rail roll is still made and logged).
void DvState::advance_strategic() {
  for (;;) {
    if (phase1_ >= 4 && phase1_ <= 7) {
      const int side = phase1_ <= 5 ? kAxis : kSoviet;
      const bool rail = phase1_ == 4 || phase1_ == 6;
      const TurnDef& td = g_.turn(turn_);
      rail_left_ = 0;
      naval_left_ = {0, 0};
      if (rail && side == kAxis && td.axis_rail_dice > 0) {
        // 9.2 "the Axis player may roll 2d6 and move that number of steps by rail"; 1d6 in
        // Snow and from 1944 (trt.json "axis_rail").
        for (int i = 0; i < td.axis_rail_dice; ++i) rail_left_ += roll(6, "Axis rail steps", "9.2");
        log("rail", "Axis rail movement: " + std::to_string(rail_left_) + " steps", "9.2");
      } else if (rail && side == kSoviet) {
        rail_left_ = td.soviet_rail_steps;  // 9.4 "four Combat unit steps per Turn"
      } else if (!rail) {
        // 9.3/9.5 the steps per turn of each sea (trt.json naval_capacity_steps).
        naval_left_ = {g_.naval_steps(side, 0), g_.naval_steps(side, 1)};
      }
      active_ = side;
      stage_ = rail ? Stage::kRail : Stage::kNaval;
      std::vector<steppe::Action> acts;
      if (rail_left_ > 0 || naval_left_[0] > 0 || naval_left_[1] > 0) legal_actions(acts);
      if (acts.size() > 1) return;  // more than "done": there is a move to make
      rail_left_ = 0;
      naval_left_ = {0, 0};
      ++phase1_;
      continue;
    }
    phase1_ = 8;
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
  // Hexes holding a ground unit of the mover's side: only there can the stacking limits refuse
  // it (one unit alone fits every limit of 5.1), so the costly count is made only there.
  std::vector<uint8_t> own_here(static_cast<size_t>(gr.size()), 0);
  for (size_t i = 0; i < units_.size(); ++i) {
    if (units_[i].box != Box::kMap || !g_.units()[i].ground) continue;
    if (g_.units()[i].side == d.side) own_here[static_cast<size_t>(units_[i].hex)] = 1;
    if (g_.units()[i].side != enemy) continue;
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
      if (own_here[static_cast<size_t>(n)] == 0 || stack_ok(n, d.side, {u})) out.push_back(n);
    }
  }
  std::sort(out.begin(), out.end());
}

// 9.1, for rail and naval movement alike: the segment, the side whose segment it is, a combat
// unit on the map, one strategic move per turn. `*rule` is left as the caller set it for the
// unit check (its own section), 9.1 for the others.
std::string DvState::strategic_refusal(int u, Stage segment, const char* kind, const char* not_now,
                                       std::string* rule) const {
  const UnitDef& d = g_.unit(u);
  const UnitState& s = us(u);
  if (stage_ != segment) {
    *rule = "9.1";
    return not_now;
  }
  if (d.side != active_) {
    *rule = "9.1";
    return std::string("this is the ") + (active_ == kAxis ? "Axis" : "Soviet") + " " + kind +
           " segment (Strategic Movement takes place in the order of the Sequence of Play)";
  }
  if (!d.combat || s.box != Box::kMap) return d.label + " is not a combat unit on the map";
  if (s.strategic) {
    *rule = "9.1";
    return d.label + " has already made its Strategic Movement this turn";
  }
  return "";
}

// The segments end by themselves when no unit of the side has a move of that kind left: the
// first unit with a destination answers (the supply trace is made once, as gen_rail does).
bool DvState::rail_move_left() const {
  if (stage_ != Stage::kRail || rail_left_ <= 0) return false;
  std::vector<uint8_t> los, loc;
  trace_supply(active_, los, loc);
  std::vector<int> dest;
  for (int u = 0; u < static_cast<int>(g_.units().size()); ++u) {
    rail_destinations(u, dest, &los);
    if (!dest.empty()) return true;
  }
  return false;
}

bool DvState::naval_move_left() const {
  if (stage_ != Stage::kNaval) return false;
  std::vector<int> dest;
  for (int u = 0; u < static_cast<int>(g_.units().size()); ++u) {
    naval_destinations(u, dest);
    if (!dest.empty()) return true;
  }
  return false;
}

std::string DvState::rail_refusal(int u, int h, std::string* rule) const {
  const UnitDef& d = g_.unit(u);
  const UnitState& s = us(u);
  *rule = d.side == kAxis ? "9.2" : "9.4";
  if (std::string why = strategic_refusal(u, Stage::kRail, "rail",
                                          "rail movement is made only in the Strategic Movement Phase (Axis "
                                          "from Turn 11, Soviets from Turn 4)",
                                          rule);
      !why.empty())
    return why;
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

// 9.3 Axis: "Black Sea: ... Only if Sevastopol is Axis-Controlled. Sea of Azov: Only if
// Sevastopol is Axis-Controlled and the Axis Control both sides of the Kerch Straits. No Naval
// Transport to/from during Snow Turns"; "Gulf of Finland: No Naval Transport to/from during Snow
// Turns". 9.5 Soviet: the same but for Sevastopol.
bool DvState::sea_open(int side, int sea) const {
  if ((sea == kGulfOfFinland || sea == kAzov) && weather() == kSnow) return false;
  if (side == kAxis && sea_zone(sea) == 1) {
    const int sevastopol = g_.place("sevastopol");
    if (sevastopol < 0 || control(sevastopol) != kAxis) return false;
  }
  if (sea == kAzov)
    for (int h : g_.kerch_hexes())
      if (control(h) != side) return false;  // ruling DV-E16
  return true;
}

int DvState::naval_cost(int u) const {
  return us(u).steps * (g_.unit(u).mech ? g_.naval_mech_factor() : 1);  // 9.3/9.5 mech double
}

// 9.3/9.5 "from a Friendly-Controlled Port to a Friendly-Controlled Port not in range of" an
// enemy air unit (the Soviet 18th Air; a German Air unit). "Rostov may be used as a Port only if
// no Enemy units (not ZOCs) occupy river hexes between Rostov and the Sea of Azov."
void DvState::naval_destinations(int u, std::vector<int>& out) const {
  out.clear();
  const UnitDef& d = g_.unit(u);
  const UnitState& s = us(u);
  if (stage_ != Stage::kNaval || d.side != active_ || !d.combat || s.box != Box::kMap || s.strategic ||
      s.steps == 0)
    return;
  const int from_sea = g_.port_sea(s.hex);
  if (from_sea == kNoSea || naval_cost(u) > naval_left_[static_cast<size_t>(sea_zone(from_sea))]) return;
  const steppe::HexGrid& gr = g_.grid();
  const int enemy = 1 - d.side;
  const int rostov = g_.place("rostov");
  const auto usable = [&](int h) {
    if (control(h) != d.side || !sea_open(d.side, g_.port_sea(h))) return false;
    if (h == rostov)
      for (int r : g_.rostov_river())
        if (occupant_side(r) == enemy) return false;
    return true;
  };
  if (!usable(s.hex)) return;
  for (int h = 0; h < gr.size(); ++h) {
    const int sea = g_.port_sea(h);
    if (h == s.hex || sea == kNoSea || sea_zone(sea) != sea_zone(from_sea) || !usable(h)) continue;
    const bool covered = enemy_air_covers(d.side, h);  // 8.4 the range from the air unit's base
    if (!covered && stack_ok(h, d.side, {u})) out.push_back(h);
  }
}

std::string DvState::naval_refusal(int u, int h, std::string* rule) const {
  const UnitDef& d = g_.unit(u);
  const UnitState& s = us(u);
  *rule = d.side == kAxis ? "9.3" : "9.5";
  if (std::string why = strategic_refusal(
          u, Stage::kNaval, "naval",
          "Naval Transport is made only in the Strategic Movement Phase, after the side's rail movement",
          rule);
      !why.empty())
    return why;
  const int sea = g_.port_sea(s.hex);
  if (sea == kNoSea) return d.label + " is not in a port";
  const int left = naval_left_[static_cast<size_t>(sea_zone(sea))];
  if (naval_cost(u) > left)
    return d.label + " counts " + std::to_string(naval_cost(u)) +
           " steps (mechanized steps count double); only " + std::to_string(left) + " are left in " +
           (sea_zone(sea) == 0 ? "the Baltic" : "the Black Sea") + " this turn";
  std::vector<int> dest;
  naval_destinations(u, dest);
  if (std::find(dest.begin(), dest.end(), h) != dest.end()) {
    *rule = "";
    return "";
  }
  if (dest.empty())
    return d.label + " may not sail from " + g_.grid().id(s.hex) +
           " (a friendly-controlled port of an open sea: the Gulf of Finland and the Sea of Azov are closed "
           "in Snow, the Axis Black Sea needs Sevastopol, the Sea of Azov both sides of the Kerch Straits, "
           "Rostov no enemy unit on its river)";
  return d.label + " may not sail to " + g_.grid().id(h) +
         " (a friendly-controlled port of the same sea, open this turn, out of the range of enemy air units; "
         "stacking 5.1)";
}

void DvState::do_ship(int u, int to) {
  UnitState& s = us(u);
  const UnitDef& d = g_.unit(u);
  const int from = s.hex;
  const int zone = sea_zone(g_.port_sea(from));
  naval_left_[static_cast<size_t>(zone)] -= naval_cost(u);
  s.hex = to;
  s.strategic = true;
  set_control(to, d.side);
  log("naval",
      d.label + " sails " + g_.grid().id(from) + " to " + g_.grid().id(to) + " (" +
          std::to_string(naval_cost(u)) + " steps, " +
          std::to_string(naval_left_[static_cast<size_t>(zone)]) + " left in " +
          (zone == 0 ? "the Baltic" : "the Black Sea") + " this turn)",
      d.side == kAxis ? "9.3" : "9.5");
}

}  // namespace dv
