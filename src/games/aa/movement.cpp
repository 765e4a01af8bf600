// Movement (3.24-3.32): Combat Move, Blitz, Non-Combat Move, supplies for movement, sea zones,
// rivers, the Kerch Straits, the Pripet Marshes, and aircraft landing.
//
// A land unit moves one zone per action (`move 2 infantry warsaw brest`), so the zones it enters
// on the way, and their captures, are each an action of their own. An aircraft flies to any
// zone within its movement points in one action, by the cheapest route (kernel PathFinder over
// the map's graph), since nothing on its way stops it (ruling "Aircraft routes").
#include <algorithm>

#include "games/aa/state.h"
#include "kernel/pathfinding.h"

namespace steppe::aa {

int AaState::count(int zone, int side) const {
  int n = 0;
  for (const Unit& u : units_)
    if (u.zone == zone && side_of(u.nation) == side) ++n;
  return n;
}

int AaState::count_of(int zone, int nation, int type) const {
  int n = 0;
  for (const Unit& u : units_)
    if (u.zone == zone && u.nation == nation && u.type == type) ++n;
  return n;
}

bool AaState::enemy_units_in(int zone, int side) const {
  for (const Unit& u : units_)
    if (u.zone == zone && side_of(u.nation) != side) return true;
  return false;
}

// Units of the group that may move now, best movement first.
int AaState::movable(int zone, int nation, int type) const {
  int n = 0;
  for (const Unit& u : units_) {
    if (u.zone != zone || u.nation != nation || u.type != type || u.locked || u.mp <= 0 || u.morale == 2)
      continue;
    // 3.31: "Land units that move into this zone have to wait one complete turn before they
    // can be moved again".
    if (u.marsh_turn > 0 && turn_ <= u.marsh_turn + 1) continue;
    ++n;
  }
  return n;
}

// MP to go from `from` to `to` for this unit type, -1 if it cannot; `path` gets the route.
int AaState::move_cost(int from, int to, int nation, int type, std::vector<int>* path) const {
  (void)nation;
  const UnitType& t = g_->base(type);
  const Zone& dest = g_->zone(to);
  if (!t.aircraft()) {
    if (!dest.land() || g_->map().connection_between(from, to) < 0) return -1;
    if (path != nullptr) *path = {from, to};
    return 1;
  }
  // 3.27: "Aircraft can move through the large sea zones on the map. Movement cost into these
  // zones is 4 ... Lake Lagoda and Lake Peipus are excluded from this rule."
  PathFinder pf;
  std::vector<int> route;
  const auto cost = [&](int, int next, int) {
    const ZoneKind k = g_->zone(next).kind;
    if (k == ZoneKind::kLake) return StepCost::impassable();
    return StepCost::enter(k == ZoneKind::kSea ? 4 : 1);
  };
  const int c = pf.shortest_path(g_->map().graph(), from, to, 99, cost, route);
  if (path != nullptr) *path = route;
  return c;
}

// 3.24: "1 Supply token is used for all units, including supplies, being moved in a zone. The
// supplies have to be in the zone that the units are being moved from, or in an adjacent zone.
// Supplies are used in the Combat Movement and Non-Combat Movement sequences." One token per
// zone moved from per sequence (digest A6); aircraft fly without (ruling "Supplies for
// movement").
bool AaState::needs_supply(int zone) const {
  return (phase_ == Phase::kCombatMove || phase_ == Phase::kNonCombatMove) &&
         supplied_[static_cast<size_t>(zone)] == 0;
}

// The zone whose token pays for moving out of `zone`: the zone itself first, then its
// neighbours in map order (ruling "Supplies for movement"); -1 if none.
int AaState::supply_source(int zone, int moving_supplies) const {
  const int supply = g_->base_index("supply");
  auto tokens = [&](int z) {
    int n = 0;
    for (const Unit& u : units_)
      if (u.zone == z && u.type == supply && side_of(u.nation) == active_) ++n;
    return n;
  };
  if (tokens(zone) > moving_supplies) return zone;
  for (const GraphEdge& e : g_->map().graph().neighbours(zone))
    if (tokens(static_cast<int>(e.to)) > 0) return static_cast<int>(e.to);
  return -1;
}

void AaState::capture(int zone, int side, const std::string& rule) {
  control_[static_cast<size_t>(zone)] = side;
  captured_[static_cast<size_t>(zone)] = turn_;
  generals_lost(zone, 1 - side, "the zone is taken");  // 4.5
  // 3.33 "Supplies, trucks and trains may never retreat and are instead captured"; AA guns
  // and bases change hands with the zone (ruling "Who keeps what").
  int taken = 0;
  for (Unit& u : units_)
    if (u.zone == zone && side_of(u.nation) != side) {
      u.nation = side == kAxis ? kGermany : kRussiaNation;
      u.locked = false;
      u.mp = 0;
      ++taken;
    }
  log("control",
      std::string(side == kAxis ? "The Axis take " : "Russia takes ") + g_->zone(zone).name +
          (taken > 0 ? " and capture " + std::to_string(taken) + " enemy pieces" : "") + " (" + rule + ")",
      rule);
  if (side == kRussia) return;
}

Status AaState::check_move(const Action& a) const {
  if (phase_ != Phase::kCombatMove && phase_ != Phase::kBlitz && phase_ != Phase::kNonCombatMove)
    return rule_error("1.2.4, 1.2.6, 1.2.7",
                      std::string("units move only in the Combat Move, Blitz Move and Non-Combat Move steps, "
                                  "not in ") +
                          phase_name(phase_));
  if (a.nargs != 5) return Error{"usage: move COUNT UNIT FROM TO", "", ""};
  const int n = a.args[0], nation = a.args[1], type = a.args[2], from = a.args[3], to = a.args[4];
  if (nation < 0 || nation >= kNationCount || type < 0 || type >= g_->base_type_count() || from < 0 ||
      from >= g_->zone_count() || to < 0 || to >= g_->zone_count() || from == to || n < 1)
    return Error{"move: no such unit, zone or count", "", ""};
  if (side_of(nation) != active_) return rule_error("1.2", "it is not that side's move");
  const UnitType& t = g_->base(type);
  if (t.movement == 0 || t.facility)
    // 3.9 Air Base, 3.10 Naval Base (0/2/0/10): a movement of 0; trains go by rail (3.35).
    return rule_error(t.has_class("rail")    ? "3.35"
                      : t.id == "naval_base" ? "3.10"
                                             : "3.9",
                      t.name + " does not move");
  if (t.has_class("rail")) return rule_error("3.35", "trains move by rail in sequence 8, not yet played");
  if (count_of(from, nation, type) < n)
    return rule_error("3.25", "not that many " + t.name + " in " + g_->zone(from).name);
  const int ready = movable(from, nation, type);
  if (ready < n) {
    for (const Unit& u : units_)
      if (u.zone == from && u.nation == nation && u.type == type && u.locked)
        return rule_error(
            nation == kRomania    ? "2.4"
            : nation == kBulgaria ? "2.5"
                                  : "2.6",
            t.name + " in " + g_->zone(from).name + " are locked until " + nation_id(nation) + " mobilizes");
    return rule_error("3.25", "only " + std::to_string(ready) + " " + t.name + " in " + g_->zone(from).name +
                                  " have movement left (3.31: the Pripet Marshes hold a unit a full turn)");
  }
  // The n units with the most movement left are the ones that move.
  std::vector<int> mps;
  for (const Unit& u : units_)
    if (u.zone == from && u.nation == nation && u.type == type && !u.locked && u.mp > 0 && u.morale != 2 &&
        !(u.marsh_turn > 0 && turn_ <= u.marsh_turn + 1))
      mps.push_back(u.mp);
  std::sort(mps.rbegin(), mps.rend());
  const int mp = mps[static_cast<size_t>(n - 1)];
  const int cost = move_cost(from, to, nation, type, nullptr);
  const Zone& dest = g_->zone(to);
  if (cost < 0)
    return rule_error(t.aircraft() ? "3.27" : "3.25",
                      t.name + " cannot go from " + g_->zone(from).name + " to " + dest.name);
  if (cost > mp)
    return rule_error("3.25", t.name + " has " + std::to_string(mp) + " movement left; " + dest.name +
                                  " costs " + std::to_string(cost));
  const bool enemy_there = enemy_units_in(to, active_);
  const bool enemy_zone = dest.land() && controller(to) != active_;
  // 4.4.2 Russia's card 5: a zone "that the Axis cannot attack" this turn.
  if (phase_ == Phase::kCombatMove && active_ == kAxis && to == protected_zone_ &&
      (enemy_there || enemy_zone))
    return rule_error("4.4.2", "counter intelligence: the Axis cannot attack " + dest.name + " this turn");
  // 3.7, 3.23, 3.13: carriers take the units aboard along (transport.cpp).
  if (Status s = check_carrier_move(n, type, from, to); !s) return s;
  const bool dropping = phase_ == Phase::kCombatMove && t.carry_capacity > 0 && carried_on(from, type) > 0;
  if (t.aircraft()) {
    if (phase_ == Phase::kBlitz) return rule_error("3.26", "only ground units blitz");
    // 3.23: a Transport (0/0/10/6) carries, it does not fight: it cannot attack an enemy zone,
    // unless it drops airborne there (3.13).
    if (phase_ == Phase::kCombatMove && !t.combatant && !dropping && (enemy_there || enemy_zone))
      return rule_error("3.23", t.name + " cannot attack or take an enemy zone");
    if (phase_ == Phase::kNonCombatMove) {
      // 3.32: "No movement is allowed that would result in combat"; aircraft end where they land,
      // in a friendly zone (3.25; 3.18 read as the contrast with SBR aircraft, see docs/rulings.md).
      if (enemy_there) return rule_error("3.32", "no movement may result in combat in the Non-Combat Move");
      if (!dest.land() || controller(to) != active_)
        return rule_error("3.32", "aircraft end the Non-Combat Move in a friendly zone");
    }
    if (dest.kind == ZoneKind::kSea && phase_ == Phase::kCombatMove)
      return rule_error("3.27", "aircraft pass through sea zones but do not stop in them");
    return Status::ok();
  }
  // Land units.
  if (g_->kerch_between(from, to)) {
    // 3.29: "The Kerch Straits can only be crossed if both Crimea and Krosnodor are in friendly
    // control. Only 1 unit per turn may cross the Kerch Straits."
    if (controller(from) != active_ || controller(to) != active_)
      return rule_error("3.29",
                        "the Kerch Straits are crossed only when both Crimea and Krosnodor are friendly");
    if (kerch_used_[static_cast<size_t>(active_)] + n > 1)
      return rule_error("3.29", "only 1 unit per turn may cross the Kerch Straits");
  }
  if (phase_ == Phase::kCombatMove) {
    if (enemy_units_in(from, active_))
      return rule_error("3.25", "units in a zone with enemy units stay there to fight");
    // 4.5: a general goes into battle with his side's units, but does not attack or take a zone.
    if ((enemy_there || enemy_zone) && !t.combatant && !(t.has_class("general") && enemy_there))
      return rule_error(t.has_class("general") ? "4.5" : "3.25",
                        t.name + " cannot attack or take an enemy zone");
    // 3.34: "These units cannot attack" (surrounded, no supplies).
    if ((enemy_there || enemy_zone) && controller(from) == active_ && supply_tokens(from, active_) == 0 &&
        cut_off(active_)[static_cast<size_t>(from)] != 0)
      return rule_error("3.34",
                        g_->zone(from).name + " is surrounded and has no supplies: its units cannot attack");
  } else if (phase_ == Phase::kBlitz) {
    // 1.2.6: "All eligible units with remaining movement may now conduct Blitzes"; 3.26: "Any ground unit
    // with a movement of 2 can blitz ... move into an unoccupied enemy zone after combat is over ... Units
    // cannot blitz across a river."
    if (t.movement < 2 || !t.combatant)
      return rule_error("1.2.6, 3.26", "only ground units with a movement of 2 blitz");
    if (!enemy_zone || enemy_there) return rule_error("3.26", "a blitz moves into an unoccupied enemy zone");
    if (g_->river_between(from, to)) return rule_error("3.26", "units cannot blitz across a river");
    if (dest.kind == ZoneKind::kMarsh) return rule_error("3.31", "the Pripet Marshes cannot be blitzed");
    if (g_->zone(from).kind == ZoneKind::kCity && battle_fought_[static_cast<size_t>(from)] != 0)
      return rule_error("3.30",
                        "attackers cannot blitz through a city zone where a battle was fought this turn");
  } else {
    // 1.2.7: "All units can be moved into friendly territories keeping within the supply rules
    // and movement limits".
    if (enemy_there || controller(to) != active_)
      return rule_error("1.2.7, 3.32",
                        "in the Non-Combat Move units move only into friendly zones without enemy units");
  }
  if (phase_ != Phase::kBlitz && needs_supply(from)) {
    const int moving_supplies = t.has_class("supply") ? n : 0;
    if (supply_source(from, moving_supplies) < 0)
      return rule_error("3.24",
                        "no supply token in " + g_->zone(from).name + " or an adjacent zone to move with");
  }
  return Status::ok();
}

void AaState::apply_move(const Action& a) {
  const int n = a.args[0], nation = a.args[1], type = a.args[2], from = a.args[3], to = a.args[4];
  const UnitType& t = g_->base(type);
  std::vector<int> path;
  const int cost = move_cost(from, to, nation, type, &path);
  const bool enemy_there = enemy_units_in(to, active_);
  const bool enemy_zone = g_->zone(to).land() && controller(to) != active_;
  std::vector<size_t> chosen;
  for (size_t i = 0; i < units_.size(); ++i) {
    const Unit& u = units_[i];
    if (u.zone == from && u.nation == nation && u.type == type && !u.locked && u.mp > 0 && u.morale != 2 &&
        !(u.marsh_turn > 0 && turn_ <= u.marsh_turn + 1))
      chosen.push_back(i);
  }
  std::stable_sort(chosen.begin(), chosen.end(),
                   [&](size_t x, size_t y) { return units_[x].mp > units_[y].mp; });
  chosen.resize(static_cast<size_t>(n));
  // Pay the supply (3.24) with a token that is not moving (one not aboard a carrier if there is
  // one, then the one with the least movement left).
  std::string paid;
  if (!t.aircraft() && phase_ != Phase::kBlitz && needs_supply(from)) {
    const int src = supply_source(from, t.has_class("supply") ? n : 0);
    const int supply = g_->base_index("supply");
    size_t spent = units_.size();
    for (size_t i = 0; i < units_.size(); ++i) {
      const Unit& u = units_[i];
      if (u.zone != src || u.type != supply || side_of(u.nation) != active_ ||
          std::find(chosen.begin(), chosen.end(), i) != chosen.end())
        continue;
      if (spent == units_.size() || (u.carried == 0 && units_[spent].carried != 0) ||
          ((u.carried == 0) == (units_[spent].carried == 0) && u.mp < units_[spent].mp))
        spent = i;
    }
    if (spent < units_.size()) {
      units_.erase(units_.begin() + static_cast<std::ptrdiff_t>(spent));
      for (size_t& i : chosen)
        if (i > spent) --i;
    }
    supplied_[static_cast<size_t>(from)] = 1;
    paid = "; a supply token in " + g_->zone(src).name + " is spent (3.24)";
  }
  const int entered_from = path.size() >= 2 ? path[path.size() - 2] : from;
  for (size_t i : chosen) {
    Unit& u = units_[i];
    u.zone = to;
    u.mp -= cost;
    u.from = entered_from;
    if (!t.aircraft() && g_->zone(to).kind == ZoneKind::kMarsh) u.marsh_turn = turn_;  // 3.31
  }
  if (!t.aircraft() && g_->kerch_between(from, to)) kerch_used_[static_cast<size_t>(active_)] += n;
  const bool dropping = phase_ == Phase::kCombatMove && t.carry_capacity > 0 && carried_on(from, type) > 0;
  move_cargo(type, from, to);  // 3.7, 3.23; 3.13 the drop
  log("move",
      std::to_string(n) + " " + nation_id(nation) + " " + t.name + " " + g_->zone(from).name + " -> " +
          g_->zone(to).name + paid,
      phase_ == Phase::kBlitz        ? "1.2.6, 3.26"
      : phase_ == Phase::kCombatMove ? "1.2.4, 3.25"
                                     : "1.2.7, 3.32");
  // 4.4.2 Russia's card 8 counts Finland's attacks on Russian zones, whenever they came.
  if (murphy_ && phase_ == Phase::kCombatMove && nation == kFinland && controller(to) == kRussia &&
      (enemy_there || enemy_zone))
    finland_attacked_ = true;
  if (phase_ == Phase::kCombatMove && (enemy_there || (enemy_zone && !t.aircraft()))) {
    // 2.4-2.6: a Russian attack on original Romanian or Finnish territory, or on Viipuri held by
    // the Axis, mobilizes Romania and Bulgaria, or Finland.
    if (active_ == kRussia && controller(to) == kAxis) {
      const int owner = g_->zone(to).original_owner;
      if (owner == kRomania) {
        mobilize(kRomania, "Russia attacks " + g_->zone(to).name);
        mobilize(kBulgaria, "Russia attacks original Romanian territory");
      }
      if (owner == kFinland || g_->zone(to).id == "viipuri")
        mobilize(kFinland, "Russia attacks " + g_->zone(to).name);
    }
  }
  if (dropping) {
    // 3.13: the airborne attack the zone, or take it if it is empty; the transport does not
    // land there but flies back to its air base, its move spent (ruling "Carrying and dropping").
    if (enemy_there) {
      attacked_[static_cast<size_t>(to)] = 1;
    } else {
      capture(to, active_, "3.13");
    }
    for (size_t i : chosen) {
      units_[i].zone = from;
      units_[i].mp = 0;
    }
    return;
  }
  if (phase_ == Phase::kCombatMove && enemy_there) {
    attacked_[static_cast<size_t>(to)] = 1;
  } else if (!t.aircraft() && enemy_zone && !enemy_there) {
    // 3.26: moving into an unoccupied enemy zone takes it. Only a unit with a movement of 2 may
    // go on (blitz way 1), and not after crossing a river or into the marshes.
    capture(to, active_, phase_ == Phase::kBlitz ? "3.26" : "3.25");
    const bool may_go_on = phase_ == Phase::kCombatMove && t.movement >= 2 && !g_->river_between(from, to) &&
                           g_->zone(to).kind != ZoneKind::kMarsh;
    if (!may_go_on)
      for (size_t i : chosen) units_[i].mp = 0;
  }
}

// 3.32: "Fighters, tactical bombers, and transports must land in any zone that has been under
// friendly control for at least 1 full game turn. Medium and Heavy Bombers have to return to
// airbases"; 3.31 "Aircraft cannot end a turn in this zone". An aircraft with nowhere to land
// when its side ends the Non-Combat Move is lost (ruling "Aircraft landing").
void AaState::land_aircraft() {
  const int air_base = g_->base_index("air_base");
  std::vector<Unit> kept;
  int lost = 0;
  for (const Unit& u : units_) {
    const UnitType& t = g_->base(u.type);
    bool ok = true;
    if (side_of(u.nation) == active_ && t.aircraft()) {
      const Zone& z = g_->zone(u.zone);
      ok = z.land() && z.kind != ZoneKind::kMarsh && held_since_before_this_turn(u.zone, active_) &&
           !enemy_units_in(u.zone, active_);
      if (ok && t.needs_air_base) {
        ok = false;
        for (const Unit& b : units_)
          if (b.zone == u.zone && b.type == air_base && side_of(b.nation) == active_ &&
              !inoperable(u.zone, kAirBase))
            ok = true;
      }
      if (!ok) {
        ++lost;
        log("loss",
            std::string(nation_id(u.nation)) + " " + t.name + " in " + z.name +
                " has no legal landing and is lost (3.32)",
            "3.32");
      }
    }
    if (ok) kept.push_back(u);
  }
  if (lost > 0) units_ = std::move(kept);
}

}  // namespace steppe::aa
