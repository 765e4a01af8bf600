// Typed views (kernel/views.h): the preview of a battle, or of a combat move into one, from the
// exact battle calculator (battle_calculator.h), which walks the battle module's own round.
#include <algorithm>

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
    return std::to_string(static_cast<int>(x * 1000 + 0.5) / 10.0).substr(0, 4) + "%";
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
