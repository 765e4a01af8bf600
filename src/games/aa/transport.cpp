// Transport: naval transport between naval bases (1.2.8, 3.10, 3.28), trucks carrying infantry,
// artillery and supplies (3.7), transport planes (3.23) and the airborne drop (3.13).
//
//   ship COUNT UNIT FROM TO    3.28  units sail from one friendly naval base to another
//   carry COUNT UNIT ZONE BY   3.7, 3.23  units board the zone's trucks or transports
//
// Units carried ride with their carriers when those move (`move 1 truck warsaw brest`) and get
// off when the side ends its movement step; airborne flown into an enemy zone in the Combat
// Move are dropped there at once (ruling "Carrying and dropping", docs/rulings.md).
#include <algorithm>
#include <set>
#include <tuple>

#include "games/aa/state.h"

namespace steppe::aa {

namespace {

bool has_phase(const UnitType& t, std::string_view p) {
  return std::find(t.carry_phases.begin(), t.carry_phases.end(), p) != t.carry_phases.end();
}

bool is_cargo(const UnitType& carrier, const UnitType& t) {
  return std::any_of(carrier.cargo_classes.begin(), carrier.cargo_classes.end(),
                     [&](const std::string& c) { return t.has_class(c); });
}

const char* carrier_rule(const UnitType& carrier) { return carrier.aircraft() ? "3.23" : "3.7"; }

}  // namespace

// --- 3.28 Naval transport -----------------------------------------------------------------

// 3.10: "Each country has its own naval capacity, equal to how many units and/or supplies can
// be transported from one naval base to another"; 3.28 "Each side has a limit to the amount of
// units than can be transported from a naval base" (ruling "Naval capacity").
int AaState::naval_capacity_left(int zone) const {
  // 4.4.1 Axis card 6: "Axis naval movement is increased to 5 for each naval base".
  const int cap = active_ == kAxis && murphy_card(kAxis, "naval_capacity") != nullptr
                      ? murphy_value(kAxis, "naval_capacity")
                      : g_->rules().naval_capacity[static_cast<size_t>(active_)];
  return cap - shipped_[static_cast<size_t>(zone)];
}

Status AaState::check_ship(const Action& a) const {
  if (phase_ != Phase::kRail)
    return rule_error("1.2.8, 3.28",
                      std::string("units go by sea in the Rail/Naval step, not in ") + phase_name(phase_));
  if (a.nargs != 5 || a.args[0] < 1 || a.args[1] < 0 || a.args[1] >= kNationCount || a.args[2] < 0 ||
      a.args[2] >= g_->base_type_count() || a.args[3] < 0 || a.args[3] >= g_->zone_count() || a.args[4] < 0 ||
      a.args[4] >= g_->zone_count() || a.args[3] == a.args[4])
    return Error{"usage: ship COUNT UNIT FROM TO", "", ""};
  const int n = a.args[0], nation = a.args[1], type = a.args[2], from = a.args[3], to = a.args[4];
  if (side_of(nation) != active_) return rule_error("1.2.8", "it is not that side's step");
  const UnitType& t = g_->base(type);
  if (t.aircraft() || t.facility || t.has_class("rail") || t.movement == 0)
    return rule_error("3.28", t.name + " does not go by sea (land units and supplies do)");
  const int base = g_->base_index("naval_base");
  // 3.28: "from one friendly naval base to another"; 3.10 "Naval bases are inoperable after
  // taking 5 damage and must be repaired to resume operations".
  for (int z : {from, to}) {
    if (controller(z) != active_ || enemy_units_in(z, active_))
      return rule_error(
          "3.28", "units sail only between friendly naval bases; " + g_->zone(z).name + " is not friendly");
    int bases = 0;
    for (const Unit& u : units_)
      if (u.zone == z && u.type == base && side_of(u.nation) == active_) ++bases;
    if (bases == 0) return rule_error("3.28", "there is no friendly naval base in " + g_->zone(z).name);
    if (inoperable(z, kNavalBase))
      return rule_error("3.10", "the naval base in " + g_->zone(z).name + " is inoperable until repaired");
  }
  // Both bases on one sea (ruling "Naval routes").
  bool same_water = false;
  for (const GraphEdge& e : g_->map().graph().neighbours(from)) {
    const ZoneKind k = g_->zone(static_cast<int>(e.to)).kind;
    if ((k == ZoneKind::kSea || k == ZoneKind::kLake) &&
        g_->map().connection_between(static_cast<int>(e.to), to) >= 0)
      same_water = true;
  }
  if (!same_water)
    return rule_error("3.28", g_->zone(from).name + " and " + g_->zone(to).name + " are not on the same sea");
  int ready = 0;
  for (const Unit& u : units_)
    if (u.zone == from && u.nation == nation && u.type == type && u.rail == 0 && !u.locked && u.carried == 0)
      ++ready;
  if (ready < n)
    return rule_error("3.28", "only " + std::to_string(ready) + " " + t.name + " in " + g_->zone(from).name +
                                  " can sail (units that went by rail or sea this step do not)");
  if (naval_capacity_left(from) < n)
    return rule_error("3.10, 3.28",
                      "the naval base in " + g_->zone(from).name + " can ship " +
                          std::to_string(std::max(0, naval_capacity_left(from))) +
                          " more units this turn (naval capacity " +
                          std::to_string(naval_capacity_left(from) + shipped_[static_cast<size_t>(from)]) +
                          ")");
  return Status::ok();
}

void AaState::apply_ship(const Action& a) {
  const int n = a.args[0], nation = a.args[1], type = a.args[2], from = a.args[3], to = a.args[4];
  int done = 0;
  for (Unit& u : units_)
    if (done < n && u.zone == from && u.nation == nation && u.type == type && u.rail == 0 && !u.locked &&
        u.carried == 0) {
      u.zone = to;
      u.rail = 2;  // moved in this step: boards no train and sails no more
      u.from = from;
      ++done;
    }
  shipped_[static_cast<size_t>(from)] += n;
  // 3.28: "transported, without using supplies".
  log("naval",
      std::to_string(n) + " " + nation_id(nation) + " " + g_->base(type).name + " sail " +
          g_->zone(from).name + " -> " + g_->zone(to).name + " (3.28)",
      "3.28");
}

void AaState::gen_ship(std::vector<Action>& out) const {
  if (phase_ != Phase::kRail) return;
  const int base = g_->base_index("naval_base");
  std::set<int> ports;
  for (const Unit& u : units_)
    if (u.type == base && side_of(u.nation) == active_) ports.insert(u.zone);
  if (ports.size() < 2) return;
  std::set<std::tuple<int, int, int>> groups;
  for (const Unit& u : units_)
    if (side_of(u.nation) == active_ && ports.count(u.zone) != 0 && u.rail == 0 && !u.locked &&
        u.carried == 0)
      groups.insert({u.zone, u.nation, u.type});
  for (const auto& [from, nation, type] : groups)
    for (int to : ports) {
      if (to == from) continue;
      for (int n = 1;; ++n) {
        const Action a = act(kShip, {n, nation, type, from, to});
        if (!check_ship(a)) break;
        out.push_back(a);
      }
    }
}

// --- 3.7 Trucks, 3.23 Transports, 3.13 Airborne --------------------------------------------

int AaState::carried_on(int zone, int carrier_type) const {
  int n = 0;
  for (const Unit& u : units_)
    if (u.zone == zone && side_of(u.nation) == active_ && u.carried == carrier_type + 1) ++n;
  return n;
}

Status AaState::check_carry(const Action& a) const {
  if (a.nargs != 5 || a.args[0] < 1 || a.args[1] < 0 || a.args[1] >= kNationCount || a.args[2] < 0 ||
      a.args[2] >= g_->base_type_count() || a.args[3] < 0 || a.args[3] >= g_->zone_count() || a.args[4] < 0 ||
      a.args[4] >= g_->base_type_count())
    return Error{"usage: carry COUNT UNIT ZONE truck|transport", "", ""};
  const int n = a.args[0], nation = a.args[1], type = a.args[2], zone = a.args[3], by = a.args[4];
  const UnitType& c = g_->base(by);
  const UnitType& t = g_->base(type);
  if (c.carry_capacity == 0 || c.has_class("rail"))
    return rule_error(c.has_class("rail") ? "3.35" : "3.7, 3.23",
                      c.has_class("rail") ? "units board trains with `load` in the Rail/Naval step"
                                          : c.name + " carries no units (trucks and transports do)");
  const char* rule = carrier_rule(c);
  if (side_of(nation) != active_) return rule_error("1.2", "it is not that side's move");
  // 3.7: "Trucks load, move, and unload only in non-combat movement"; 3.23 "loaded during the
  // NCM phase. Airborne units being used for airborne attack ... are loaded during the Combat
  // phase" (the Combat Move, 3.13: "dropped into enemy territories during combat move sequence").
  const bool airborne_drop = phase_ == Phase::kCombatMove && has_phase(c, "combat_move_airborne");
  if (!(phase_ == Phase::kNonCombatMove && has_phase(c, "non_combat_move")) && !airborne_drop)
    return rule_error(rule, c.aircraft()
                                ? "transports load in the Non-Combat Move (airborne for a drop in the "
                                  "Combat Move)"
                                : "trucks load, move and unload only in the Non-Combat Move");
  if (airborne_drop && !t.has_class("airborne"))
    return rule_error("3.23", "in the Combat Move transports load only airborne units for a drop");
  if (!is_cargo(c, t)) return rule_error(rule, c.name + " cannot carry " + t.name);
  if (airborne_drop) {
    // 3.13: "transported by transport plane from an airbase"; 3.9 inoperable at 5 damage.
    const int air_base = g_->base_index("air_base");
    const bool base = std::any_of(units_.begin(), units_.end(), [&](const Unit& u) {
      return u.zone == zone && u.type == air_base && side_of(u.nation) == active_;
    });
    if (!base)
      return rule_error("3.13", "airborne are flown from an air base; " + g_->zone(zone).name + " has none");
    if (inoperable(zone, kAirBase))
      return rule_error("3.9", "the air base in " + g_->zone(zone).name + " is inoperable until repaired");
  }
  // "Units being transported ... have to start in the same zone as the transport": carriers
  // and cargo that have not moved in this step.
  int carriers = 0, ready = 0;
  for (const Unit& u : units_) {
    if (u.zone != zone || side_of(u.nation) != active_) continue;
    if (u.type == by && u.mp == c.movement && u.morale != 2 && !u.locked) ++carriers;
    if (u.nation == nation && u.type == type && u.carried == 0 && !u.locked && u.morale != 2 &&
        u.mp == t.movement && !(u.marsh_turn > 0 && turn_ <= u.marsh_turn + 1))
      ++ready;
  }
  if (ready < n)
    return rule_error(rule, "only " + std::to_string(ready) + " " + t.name + " in " + g_->zone(zone).name +
                                " can board (units carried start the move there and have not moved)");
  const int room = carriers * carry_capacity(by) - carried_on(zone, by);
  if (room < n)
    return rule_error(rule, "the " + c.name + " in " + g_->zone(zone).name +
                                " that have not moved have room for " + std::to_string(std::max(0, room)) +
                                " more units (" + std::to_string(c.carry_capacity) + " each)");
  return Status::ok();
}

void AaState::apply_carry(const Action& a) {
  const int n = a.args[0], nation = a.args[1], type = a.args[2], zone = a.args[3], by = a.args[4];
  const UnitType& t = g_->base(type);
  int done = 0;
  for (Unit& u : units_)
    if (done < n && u.zone == zone && u.nation == nation && u.type == type && u.carried == 0 && !u.locked &&
        u.morale != 2 && u.mp == t.movement && !(u.marsh_turn > 0 && turn_ <= u.marsh_turn + 1)) {
      u.carried = by + 1;
      u.mp = 0;  // carried, it does not walk in this step
      ++done;
    }
  const UnitType& c = g_->base(by);
  log("carry",
      std::to_string(n) + " " + nation_id(nation) + " " + t.name + " board the " + c.name + " in " +
          g_->zone(zone).name + " (" + carrier_rule(c) + ")",
      carrier_rule(c));
}

Status AaState::check_carrier_move(int n, int type, int from, int to) const {
  const UnitType& c = g_->base(type);
  if (c.carry_capacity == 0 || c.has_class("rail")) return Status::ok();
  const int load = carried_on(from, type);
  if (load == 0) return Status::ok();
  const char* rule = carrier_rule(c);
  if (n * c.carry_capacity < load)
    return rule_error(rule, "the " + std::to_string(load) + " units aboard need " +
                                std::to_string((load + c.carry_capacity - 1) / c.carry_capacity) + " " +
                                c.name + " to move with them");
  if (phase_ == Phase::kCombatMove) {
    // 3.13: "dropped into enemy territories during combat move sequence".
    const bool enemy = enemy_units_in(to, active_) || (g_->zone(to).land() && controller(to) != active_);
    if (!enemy || !g_->zone(to).land())
      return rule_error("3.13", "airborne aboard are dropped into an enemy territory");
  }
  return Status::ok();
}

void AaState::move_cargo(int type, int from, int to) {
  const UnitType& c = g_->base(type);
  if (c.carry_capacity == 0 || c.has_class("rail")) return;
  int n = 0;
  const bool drop = phase_ == Phase::kCombatMove;
  for (Unit& u : units_)
    if (u.zone == from && side_of(u.nation) == active_ && u.carried == type + 1) {
      u.zone = to;
      u.from = from;
      if (drop) {
        u.carried = 0;
        u.dropped = true;  // 3.13: +1 in the first round of the battle
      }
      ++n;
    }
  if (n == 0) return;
  log("carry",
      std::to_string(n) + (drop ? " airborne are dropped into " : " units ride with the " + c.name + " to ") +
          g_->zone(to).name + " (" + (drop ? "3.13" : carrier_rule(c)) + ")",
      drop ? "3.13" : carrier_rule(c));
}

// The end of a movement step: every unit aboard gets off where its carrier is (3.7 "unload
// only in non-combat movement"; 3.23).
void AaState::unload_all() {
  for (Unit& u : units_)
    if (side_of(u.nation) == active_) u.carried = 0;
}

void AaState::gen_carry(std::vector<Action>& out) const {
  if (phase_ != Phase::kNonCombatMove && phase_ != Phase::kCombatMove) return;
  std::set<std::pair<int, int>> carriers;  // (zone, type)
  for (const Unit& u : units_)
    if (side_of(u.nation) == active_ && g_->base(u.type).carry_capacity > 0 &&
        !g_->base(u.type).has_class("rail") && u.mp == g_->base(u.type).movement)
      carriers.insert({u.zone, u.type});
  if (carriers.empty()) return;
  std::set<std::tuple<int, int, int>> groups;
  for (const Unit& u : units_)
    if (side_of(u.nation) == active_ && u.carried == 0 && u.mp > 0) groups.insert({u.zone, u.nation, u.type});
  for (const auto& [zone, by] : carriers)
    for (const auto& [z, nation, type] : groups) {
      if (z != zone) continue;
      for (int n = 1;; ++n) {
        const Action a = act(kCarry, {n, nation, type, zone, by});
        if (!check_carry(a)) break;
        out.push_back(a);
      }
    }
}

}  // namespace steppe::aa
