// Rail movement (1.2.8, 3.35): "units that start this sequence in a zone with a Train unit can be
// transported by rail ... Trains have an unlimited movement range on the board. Each train can
// transport 6 units per turn. When a train unloads any or all units its movement stops. Trains
// may not move to a zone, load a unit then move and unload." Units are loaded on the zone's
// trains (`load`), then the trains carrying them run to a zone and unload there (`rail`).
#include <algorithm>

#include "games/aa/state.h"
#include "kernel/pathfinding.h"

namespace steppe::aa {

int AaState::loaded(int zone) const {
  int n = 0;
  for (const Unit& u : units_)
    if (u.zone == zone && side_of(u.nation) == active_ && u.rail == 1) ++n;
  return n;
}

int AaState::rail_capacity(int zone) const {
  const int train = g_->base_index("train");
  int trains = 0;
  for (const Unit& u : units_)
    if (u.zone == zone && u.type == train && side_of(u.nation) == active_ && u.rail == 0) ++trains;
  // 3.35 "Each train can transport 6 units per turn" (units.json; +2 with Russia's card 3, 4.4.2).
  return trains * carry_capacity(train) - loaded(zone);
}

Status AaState::check_load(const Action& a) const {
  if (phase_ != Phase::kRail) return rule_error("1.2.8", "units go by rail in the Rail/Naval step");
  if (a.nargs != 4 || a.args[0] < 1 || a.args[1] < 0 || a.args[1] >= kNationCount || a.args[2] < 0 ||
      a.args[2] >= g_->base_type_count() || a.args[3] < 0 || a.args[3] >= g_->zone_count())
    return Error{"usage: load COUNT UNIT ZONE", "", ""};
  const int n = a.args[0], nation = a.args[1], type = a.args[2], zone = a.args[3];
  if (side_of(nation) != active_) return rule_error("1.2.8", "it is not that side's step");
  const UnitType& t = g_->base(type);
  if (t.aircraft() || t.facility || t.has_class("rail") || t.movement == 0)
    return rule_error("3.35", t.name + " does not go by rail");
  int ready = 0;
  for (const Unit& u : units_)
    if (u.zone == zone && u.nation == nation && u.type == type && u.rail == 0 && !u.locked) ++ready;
  if (ready < n)
    return rule_error("3.35", "only " + std::to_string(ready) + " " + t.name + " here can board a train");
  if (rail_capacity(zone) < n)
    return rule_error("3.35", "the trains in " + g_->zone(zone).name + " have room for " +
                                  std::to_string(std::max(0, rail_capacity(zone))) + " more units (" +
                                  std::to_string(carry_capacity(g_->base_index("train"))) + " each)");
  return Status::ok();
}

void AaState::apply_load(const Action& a) {
  const int n = a.args[0], nation = a.args[1], type = a.args[2], zone = a.args[3];
  int done = 0;
  for (Unit& u : units_)
    if (done < n && u.zone == zone && u.nation == nation && u.type == type && u.rail == 0 && !u.locked) {
      u.rail = 1;
      ++done;
    }
  log("rail",
      std::to_string(n) + " " + g_->base(type).name + " board the train in " + g_->zone(zone).name +
          " (3.35)",
      "3.35");
}

Status AaState::check_rail(const Action& a) const {
  if (phase_ != Phase::kRail) return rule_error("1.2.8", "trains run in the Rail/Naval step");
  if (a.nargs != 2 || a.args[0] < 0 || a.args[0] >= g_->zone_count() || a.args[1] < 0 ||
      a.args[1] >= g_->zone_count() || a.args[0] == a.args[1])
    return Error{"usage: rail FROM TO", "", ""};
  const int from = a.args[0], to = a.args[1];
  const int train = g_->base_index("train");
  int trains = 0;
  for (const Unit& u : units_)
    if (u.zone == from && u.type == train && side_of(u.nation) == active_ && u.rail == 0) ++trains;
  // 4.4.1 Axis card 2: "All trains move again after unloading units, but cannot load any more
  // units until the following turn": a train that ran may run once more, empty (rail 3 after).
  const bool again =
      trains == 0 && loaded(from) == 0 && murphy_card(active_, "trains_run_again") != nullptr &&
      std::any_of(units_.begin(), units_.end(), [&](const Unit& u) {
        return u.zone == from && u.type == train && side_of(u.nation) == active_ && u.rail == 2;
      });
  if (trains == 0 && !again)
    return rule_error("3.35", "no train in " + g_->zone(from).name + " that has not run this turn");
  // A rail move is a non-combat move: through and into friendly zones without enemy units
  // (ruling "Rail routes"); never across the Kerch Straits.
  PathFinder pf;
  const auto cost = [&](int f, int next, int) {
    const Zone& z = g_->zone(next);
    // 3.35: "Zones with Railroad damage cannot be moved into or passed through during the Rail
    // movement sequence" (3.37: 1 damage).
    if (!z.land() || controller(next) != active_ || enemy_units_in(next, active_) ||
        g_->kerch_between(f, next) || inoperable(next, kRailroad))
      return StepCost::impassable();
    return StepCost::enter(1);
  };
  pf.reachable(g_->map().graph(), from, 1 << 20, cost);
  if (!pf.reached(to))
    return rule_error("3.35", "no rail route through friendly zones to " + g_->zone(to).name);
  return Status::ok();
}

void AaState::apply_rail(const Action& a) {
  const int from = a.args[0], to = a.args[1];
  const int train = g_->base_index("train");
  const int cargo = loaded(from);
  const int cap = carry_capacity(train);
  int trains = std::max(1, (cargo + cap - 1) / cap);
  const int ran = trains;
  const bool fresh = std::any_of(units_.begin(), units_.end(), [&](const Unit& u) {
    return u.zone == from && u.type == train && side_of(u.nation) == active_ && u.rail == 0;
  });
  if (!fresh) {
    // 4.4.1 Axis card 2: the train runs again, empty.
    for (Unit& u : units_)
      if (u.zone == from && u.type == train && side_of(u.nation) == active_ && u.rail == 2) {
        u.zone = to;
        u.rail = 3;
        u.from = from;
        break;
      }
    log("rail", "A train runs again, empty, " + g_->zone(from).name + " -> " + g_->zone(to).name + " (4.4.1)",
        "4.4.1");
    return;
  }
  for (Unit& u : units_) {
    if (u.zone != from || side_of(u.nation) != active_) continue;
    if (u.rail == 1 || (trains > 0 && u.type == train && u.rail == 0)) {
      if (u.type == train && u.rail == 0) --trains;
      u.zone = to;
      u.rail = 2;  // "When a train unloads any or all units its movement stops"
      u.from = from;
    }
  }
  log("rail",
      std::to_string(ran) + (ran == 1 ? " train runs " : " trains run ") + g_->zone(from).name + " -> " +
          g_->zone(to).name + " with " + std::to_string(cargo) + " units (3.35)",
      "3.35");
}

}  // namespace steppe::aa
