// Typed views (kernel/views.h): the preview of a battle, or of a combat move into one, from the
// exact battle calculator (battle_calculator.h), which walks the battle module's own round.
#include <algorithm>
#include <cmath>

#include "games/aa/battle_calculator.h"
#include "games/aa/state.h"

namespace steppe::aa {

Result<Preview> AaState::preview(const Action& a, int viewer) const {
  (void)viewer;  // open information (no rule hides anything)
  const std::string text = action_to_string(a);
  int zone = -1;
  AaState after(*this);
  after.set_event_sink(nullptr);
  if (text.rfind("battle ", 0) == 0 && a.nargs == 1) {
    zone = a.args[0];
    if (Status s = check(a); !s) return s.error();
    // 3.36.2.1-2: AA fire and the dogfight belong to the first round; the calculator starts a
    // battle there, so a battle already under way is previewed only when they change nothing.
    if (battle_rounds_[static_cast<size_t>(zone)] > 0) {
      for (const Unit& u : units_)
        if (u.zone == zone && g_->base(u.type).aircraft())
          return rule_error(
              "3.36.2.1", "a battle under way with aircraft in it is previewed before its first round only");
    }
  } else if (text.rfind("move ", 0) == 0 && a.nargs == 5) {
    if (Status s = check(a); !s) return s.error();
    zone = a.args[4];
    if (phase_ != Phase::kCombatMove || !enemy_units_in(zone, active_))
      return rule_error("3.25", "only a combat move into enemy units makes a battle to preview");
    after.apply_generated(a);
  } else {
    return rule_error("3.36", "only a battle or a combat move into one has a preview");
  }
  auto setup = after.battle_setup(zone);
  if (!setup) return setup.error();
  const auto odds = calculate_battle(g_->battle_types(), *setup, RetreatRule{});
  if (!odds) return odds.error();
  Preview p;
  p.kind = "combat";
  p.rule = "3.36.2";
  const auto& o = *odds;
  auto pct = [](double x) {
    const long tenths = std::lround(x * 1000);
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + "%";
  };
  p.summary = "Battle of " + g_->zone(zone).name + ": attacker wins " + pct(o.attacker_wins) +
              " (takes the zone " + pct(o.attacker_captures) + "), defender holds " + pct(o.defender_holds) +
              ", both destroyed " + pct(o.both_destroyed);
  p.outcomes = {{"attacker wins", o.attacker_wins, "no defending combat unit left", "3.36.2.3"},
                {"defender holds", o.defender_holds, "no attacking combat unit left", "3.36.2.3"},
                {"both destroyed", o.both_destroyed, "nothing left on either side", "3.36.2.3"},
                {"attacker withdraws", o.attacker_retreats, "no side can score a hit", "3.36.2.4"}};
  if (setup->terrain.city) p.shifts.push_back({-1, "attacking a city zone", "3.30"});
  if (setup->terrain.river) p.shifts.push_back({-1, "land units attacking across a river", "3.29"});
  if (setup->terrain.pripet) p.shifts.push_back({-2, "defending in the Pripet Marshes", "3.31"});
  p.detail =
      Json{{"exact", true},
           {"states", o.states},
           {"dropped", o.dropped},
           {"expected_rounds", o.expected_rounds},
           {"expected_bp_lost", {{"attacker", o.expected_bp_lost[0]}, {"defender", o.expected_bp_lost[1]}}},
           {"attacker_survivors", o.survivors[0]},
           {"defender_survivors", o.survivors[1]}};
  return p;
}

}  // namespace steppe::aa

namespace steppe::aa {

namespace {
// A group of units in the views: "germany:medium_armor@warsaw" (units of one nation and type in
// one zone are interchangeable, so the group is what a player picks).
std::string group_id(const AaGame& g, int nation, int type, int zone) {
  return std::string(nation_id(nation)) + ":" + g.base(type).id + "@" + g.zone(zone).id;
}
}  // namespace

Result<ActionDescription> AaState::describe(const Action& a) const {
  ActionDescription d;
  d.text = action_to_string(a);
  d.verb = d.text.substr(0, d.text.find(' '));
  const auto zid = [&](int z) { return z >= 0 && z < g_->zone_count() ? g_->zone(z).id : std::string("?"); };
  const bool ok_unit = a.nargs >= 3 && a.args[1] >= 0 && a.args[1] < kNationCount && a.args[2] >= 0 &&
                       a.args[2] < g_->base_type_count();
  if (d.verb == "move" && a.nargs == 5 && ok_unit) {
    d.rule = phase_ == Phase::kBlitz ? "3.26" : phase_ == Phase::kCombatMove ? "3.25" : "3.32";
    d.units = {group_id(*g_, a.args[1], a.args[2], a.args[3])};
    d.from = {zid(a.args[3])};
    d.to = {zid(a.args[4])};
    d.summary = std::to_string(a.args[0]) + " " + g_->base(a.args[2]).name + " move from " +
                g_->zone(a.args[3]).name + " to " +
                (a.args[4] >= 0 && a.args[4] < g_->zone_count() ? g_->zone(a.args[4]).name : "?");
    if (a.args[4] >= 0 && a.args[4] < g_->zone_count() && enemy_units_in(a.args[4], active_))
      d.summary += " (attack)";
  } else if ((d.verb == "place" && a.nargs == 5 && ok_unit)) {
    d.rule = "1.2.9";
    d.to = {zid(a.args[4])};
    d.summary =
        "place " + std::to_string(a.args[0]) + " " + g_->base(a.args[2]).name + " in " + zid(a.args[4]);
  } else if (d.verb == "pull" && a.nargs == 5 && ok_unit) {
    d.rule = "3.33";
    d.units = {group_id(*g_, a.args[1], a.args[2], a.args[3])};
    d.from = {zid(a.args[3])};
    d.to = {zid(a.args[4])};
    d.summary = std::to_string(a.args[0]) + " " + g_->base(a.args[2]).name + " retreat to " + zid(a.args[4]);
  } else if (d.verb == "load" && a.nargs == 4 && ok_unit) {
    d.rule = "3.35";
    d.units = {group_id(*g_, a.args[1], a.args[2], a.args[3])};
    d.from = {zid(a.args[3])};
    d.summary =
        std::to_string(a.args[0]) + " " + g_->base(a.args[2]).name + " board the train in " + zid(a.args[3]);
  } else if ((d.verb == "battle" || d.verb == "stand" || d.verb == "withdraw") && a.nargs == 1) {
    d.rule = d.verb == "battle" ? "3.36" : "3.33";
    d.to = {zid(a.args[0])};
    d.summary = d.verb == "battle"  ? "fight a round in " + zid(a.args[0])
                : d.verb == "stand" ? "the defender stays in " + zid(a.args[0])
                                    : "the defender rolls 1d12 to retreat from " + zid(a.args[0]);
  } else if ((d.verb == "retreat" || d.verb == "rail") && a.nargs == 2) {
    d.rule = d.verb == "retreat" ? "3.33" : "3.35";
    d.from = {zid(a.args[0])};
    d.to = {zid(a.args[1])};
    d.summary = (d.verb == "retreat" ? "the attacker retreats from " : "the trains run from ") +
                zid(a.args[0]) + " to " + zid(a.args[1]);
  } else if (d.verb == "buy") {
    d.rule = "1.2.3";
    d.summary = d.text;
  } else if (d.verb == "casualties") {
    d.rule = "3.36.2.3";
    d.summary = "give up " + d.text.substr(11) + " first in battle";
  } else {
    d.rule = "1.2";
    d.summary = "end the " + std::string(phase_name(phase_)) + " step";
  }
  return d;
}

// Where a group may go now: every zone a move of one of its units to is legal, with its cost
// and route (3.25-3.32, the move verb's own check).
Result<Reach> AaState::reach(std::string_view unit, int viewer) const {
  (void)viewer;
  const size_t colon = unit.find(':'), at = unit.find('@');
  if (colon == std::string_view::npos || at == std::string_view::npos || at < colon)
    return Error{"a unit group is named nation:type@zone, e.g. germany:medium_armor@warsaw", "", ""};
  const int nation = nation_from_id(unit.substr(0, colon));
  const int type = g_->base_index(unit.substr(colon + 1, at - colon - 1));
  const int zone = g_->zone_index(unit.substr(at + 1));
  if (nation < 0 || type < 0 || zone < 0)
    return Error{"no such unit group '" + std::string(unit) + "'", "", ""};
  Reach r;
  r.unit = std::string(unit);
  r.from = g_->zone(zone).id;
  for (const Unit& u : units_)
    if (u.zone == zone && u.nation == nation && u.type == type) r.allowance = std::max(r.allowance, u.mp);
  for (int to = 0; to < g_->zone_count(); ++to) {
    Action a;
    a.verb = 2;  // move
    for (int v : {1, nation, type, zone, to}) a.push(v);
    if (to == zone || !check_move(a)) continue;
    std::vector<int> path;
    ReachDestination d;
    d.location = g_->zone(to).id;
    d.cost = move_cost(zone, to, nation, type, &path);
    for (size_t i = 1; i < path.size(); ++i) d.path.push_back(g_->zone(path[i]).id);
    if (enemy_units_in(to, active_)) d.note = "attack (3.25)";
    r.destinations.push_back(std::move(d));
  }
  return r;
}

}  // namespace steppe::aa
