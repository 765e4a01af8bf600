// Combat (1.2.5, 3.36): each zone the active side attacked is fought round by round with the
// battle module's own round (battle.h, the code the exact calculator also walks), rolling the
// game's logged d12 dice; the attacker may retreat after a round (3.33, 3.36.2.4).
#include <algorithm>

#include "games/aa/state.h"

namespace steppe::aa {

namespace {

std::string dice_text(const std::vector<int>& d) {
  std::string s;
  for (int v : d) s += (s.empty() ? "" : " ") + std::to_string(v);
  return s.empty() ? "-" : s;
}

}  // namespace

Result<BattleSetup> AaState::battle_setup(int zone) const {
  const UnitTypes& types = g_->battle_types();
  const size_t nt = static_cast<size_t>(types.size());
  BattleSetup s;
  s.attacker.alive.assign(nt, 0);
  s.attacker.damaged.assign(nt, 0);
  s.defender = s.attacker;
  int land_attackers = 0, across_river = 0;
  for (const Unit& u : units_) {
    if (u.zone != zone) continue;
    if (u.dropped && side_of(u.nation) == active_) s.terrain.airborne_dropped = true;  // 3.13
    const size_t t = static_cast<size_t>(battle_type_in(zone, u));
    Forces& f = side_of(u.nation) == active_ ? s.attacker : s.defender;
    ++f.alive[t];
    if (u.damage > 0) ++f.damaged[t];
    const UnitType& ut = g_->base(u.type);
    if (side_of(u.nation) == active_ && ut.combatant && !ut.aircraft()) {
      ++land_attackers;
      if (u.from >= 0 && g_->river_between(u.from, zone)) ++across_river;
    }
  }
  const Zone& z = g_->zone(zone);
  s.terrain.city = z.kind == ZoneKind::kCity;     // 3.30
  s.terrain.pripet = z.kind == ZoneKind::kMarsh;  // 3.31
  // 3.34: cut-off defenders without supplies defend at -2 with every defensive modifier void;
  // "If they are attacked they incur no penalty until all supplies are exhausted."
  const int defender = 1 - active_;
  s.terrain.surrounded = controller(zone) == defender && cut_off(defender)[static_cast<size_t>(zone)] != 0 &&
                         supply_tokens(zone, defender) == 0;
  // 3.29 "Land units attacking across a river get a (-1)": the battle takes one river flag,
  // set when every attacking land unit crossed one (ruling "Rivers in a mixed attack").
  s.terrain.river = land_attackers > 0 && across_river == land_attackers;
  s.attacker_order = casualty_order(active_);
  s.defender_order = casualty_order(1 - active_);
  murphy_battle(zone, s);                                                      // 4.4.1, 4.4.2
  general_battle(zone, s);                                                     // 4.5.1
  if (casualty_chart_) s.terrain.casualty_chart = g_->rules().casualty_chart;  // 4.2
  return s;
}

CasualtyOrder AaState::casualty_order(int side) const {
  CasualtyOrder o = CasualtyOrder::cheapest_first(g_->battle_types());
  const auto& first = casualty_first_[static_cast<size_t>(side)];
  const int nb = g_->base_type_count();
  auto rank = [&](int t) {
    const auto it = std::find(first.begin(), first.end(), t % nb);
    return it == first.end() ? static_cast<int>(first.size()) : static_cast<int>(it - first.begin());
  };
  std::stable_sort(o.type_priority.begin(), o.type_priority.end(),
                   [&](int x, int y) { return rank(x) < rank(y); });
  return o;
}

Status AaState::check_casualties(const Action& a) const {
  if (a.nargs != 1 || a.args[0] < 0 || a.args[0] >= g_->base_type_count())
    return Error{"usage: casualties TYPE (the type given up first)", "", ""};
  if (phase_ != Phase::kPurchase)
    return rule_error("3.36.2.3", "the casualty order is set in the side's Purchase step");
  const auto& first = casualty_first_[static_cast<size_t>(active_)];
  if (!first.empty() && first.front() == a.args[0])
    return rule_error("3.36.2.3", g_->base(a.args[0]).name + " is already given up first");
  if (!g_->base(a.args[0]).combatant)
    return rule_error("3.36.2.3", g_->base(a.args[0]).name + " is never chosen as a casualty");
  return Status::ok();
}

void AaState::apply_casualties(const Action& a) {
  auto& first = casualty_first_[static_cast<size_t>(active_)];
  first.erase(std::remove(first.begin(), first.end(), a.args[0]), first.end());
  first.insert(first.begin(), a.args[0]);
  std::string order;
  for (int t : first) order += (order.empty() ? "" : ", ") + g_->base(t).id;
  log("casualties",
      std::string(active_ == kAxis ? "The Axis" : "Russia") + " give up first: " + order + " (3.36.2.3)",
      "3.36.2.3");
}

// Brings the units of `side` in `zone` to the counts the battle left: units lost are removed,
// hits carried are marked (3.2).
void AaState::reconcile(int zone, int side, const Forces& f) {
  const int nt = g_->battle_types().size();
  std::vector<int> alive = f.alive, damaged = f.damaged;
  std::vector<int> seen(static_cast<size_t>(nt), 0);
  // Damaged units first, so that the units already hit are the ones that stay hit.
  std::vector<size_t> order;
  for (size_t i = 0; i < units_.size(); ++i)
    if (units_[i].zone == zone && side_of(units_[i].nation) == side) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t x, size_t y) { return units_[x].damage > units_[y].damage; });
  std::vector<uint8_t> remove(units_.size(), 0);
  for (size_t i : order) {
    Unit& u = units_[i];
    const size_t t = static_cast<size_t>(battle_type_in(zone, u));
    if (seen[t] >= alive[t]) {
      remove[i] = 1;
      continue;
    }
    u.damage = seen[t] < damaged[t] ? 1 : 0;
    ++seen[t];
  }
  std::vector<Unit> kept;
  for (size_t i = 0; i < units_.size(); ++i)
    if (remove[i] == 0) kept.push_back(units_[i]);
  units_ = std::move(kept);
}

Status AaState::check_battle(const Action& a) const {
  if (phase_ != Phase::kCombat)
    return rule_error("1.2.5",
                      std::string("battles are fought in the Combat step, not in ") + phase_name(phase_));
  if (a.nargs != 1 || a.args[0] < 0 || a.args[0] >= g_->zone_count())
    return Error{"usage: battle ZONE", "", ""};
  if (decision_zone_ >= 0) return rule_error("3.33", "the defender decides first whether to retreat");
  if (std::find(battles_.begin(), battles_.end(), a.args[0]) == battles_.end())
    return rule_error("3.36", "no battle to fight in " + g_->zone(a.args[0]).name);
  return Status::ok();
}

void AaState::apply_battle(const Action& a) {
  const int zone = a.args[0];
  const std::string& name = g_->zone(zone).name;
  if (battle_rounds_[static_cast<size_t>(zone)] == 0) general_duel(zone);  // 4.5
  auto setup = battle_setup(zone);
  auto b = Battle::start(g_->battle_types(), setup.value());
  if (!b) {
    // The attacker has nothing left that can fight (its aircraft fell to AA earlier).
    log("combat", "Battle of " + name + ": " + b.error().message, b.error().rule);
    settle_battle(zone, Outcome::kDefenderHolds);
    return;
  }
  Battle& battle = b.value();
  const int rounds = battle_rounds_[static_cast<size_t>(zone)];
  if (battle.outcome() == Outcome::kOngoing) {
    if (rounds > 0) battle.set_position(setup->attacker, setup->defender, rounds, Outcome::kOngoing);
    RoundDice rolled;
    const RoundRoll r = battle.fight_round(dice_, RetreatRule{}, &rolled);
    ++battle_rounds_[static_cast<size_t>(zone)];
    // The dice, shown (3.36.2: A AA guns, B air supremacy, C combat).
    std::string text = "Battle of " + name + ", round " + std::to_string(rounds + 1) + ":";
    if (!rolled.aa.empty())
      text += " AA [" + dice_text(rolled.aa) + "] " + std::to_string(r.aa_hits) + " hits;";
    if (!rolled.dogfight[0].empty() || !rolled.dogfight[1].empty())
      text += " dogfight attacker [" + dice_text(rolled.dogfight[0]) + "] defender [" +
              dice_text(rolled.dogfight[1]) + "];";
    if (!rolled.free_shots.empty()) text += " free shots [" + dice_text(rolled.free_shots) + "];";
    text += " attacker [" + dice_text(rolled.combat[0]) + "] " + std::to_string(r.hits[0]) +
            " hits, defender [" + dice_text(rolled.combat[1]) + "] " + std::to_string(r.hits[1]) +
            " hits (3.36.2)";
    Event e;
    e.kind = "roll";
    e.text = text;
    e.rule = "3.36.2";
    e.reveals = true;
    e.data = Json{{"zone", g_->zone(zone).id},
                  {"aa", rolled.aa},
                  {"attacker", rolled.combat[0]},
                  {"defender", rolled.combat[1]},
                  {"hits", {r.hits[0], r.hits[1]}}};
    emit(std::move(e));
    reconcile(zone, active_, battle.forces(Side::kAttacker));
    reconcile(zone, 1 - active_, battle.forces(Side::kDefender));
  }
  if (battle.outcome() != Outcome::kOngoing) {
    settle_battle(zone, battle.outcome());
  } else if (defender_may_retreat(zone)) {
    decision_zone_ = zone;  // 3.33, 3.36.2.4: "Either side may retreat at the end of each round"
  }
}

// 3.33: "Units, including aircraft, can only retreat to an adjacent friendly zone ... Units can
// not retreat across a river, lake, reinforcement zone of any type, or into the Pripet Marshes."
bool AaState::retreat_zone_ok(int from, int to, int side) const {
  if (to < 0 || to >= g_->zone_count() || g_->map().connection_between(from, to) < 0) return false;
  const Zone& z = g_->zone(to);
  return z.land() && z.kind != ZoneKind::kMarsh && z.reinforcement.empty() && controller(to) == side &&
         !enemy_units_in(to, side) && !g_->river_between(from, to);
}

void AaState::settle_battle(int zone, Outcome o) {
  battle_fought_[static_cast<size_t>(zone)] = 1;
  battles_.erase(std::remove(battles_.begin(), battles_.end(), zone), battles_.end());
  const std::string& name = g_->zone(zone).name;
  const int defender = 1 - active_;
  if (o == Outcome::kAttackerRetreats) {
    // A battle no one can hit (ruling in docs/rulings.md): the attacker withdraws to the first
    // zone it may retreat to, and with none its units are lost.
    int to = -1;
    for (const GraphEdge& e : g_->map().graph().neighbours(zone))
      if (retreat_zone_ok(zone, static_cast<int>(e.to), active_)) {
        to = static_cast<int>(e.to);
        break;
      }
    int moved = 0;
    std::vector<Unit> kept;
    for (Unit u : units_) {
      if (u.zone == zone && side_of(u.nation) == active_) {
        const UnitType& t = g_->base(u.type);
        if (to >= 0 && (t.combatant || u.general > 0)) {  // 4.5: generals withdraw with them
          u.zone = to;
          u.mp = 0;
          ++moved;
        } else if (t.combatant || u.general > 0) {
          continue;  // nowhere to go
        } else {
          u.nation = defender == kAxis ? kGermany : kRussiaNation;  // 3.33: captured
        }
      }
      kept.push_back(u);
    }
    units_ = std::move(kept);
    log("combat",
        "Battle of " + name + ": no side can score a hit; the attacker withdraws" +
            (to >= 0 ? " to " + g_->zone(to).name : " and, with nowhere to go, is lost") + " (3.36.2.4)",
        "3.36.2.4");
    return;
  }
  bool land_left = false;
  for (const Unit& u : units_)
    if (u.zone == zone && side_of(u.nation) == active_ && g_->base(u.type).combatant &&
        !g_->base(u.type).aircraft())
      land_left = true;
  if (o == Outcome::kAttackerWins) {
    log("combat", "Battle of " + name + ": the attacker wins (3.36.2.3)", "3.36.2.3");
    generals_lost(zone, defender, "defending in a lost battle");  // 4.5
    if (land_left) {
      capture(zone, active_, "3.36.2");
    } else {
      log("combat", name + " is not taken: only land units take a zone (3.25)", "3.25");
    }
    return;
  }
  log("combat",
      "Battle of " + name +
          (o == Outcome::kBothDestroyed ? ": both sides are destroyed" : ": the defender holds") +
          " (3.36.2.3)",
      "3.36.2.3");
  generals_lost(zone, active_, "a losing attack, not retreating");  // 4.5
  // The attacker's supplies and trucks left in the zone are the defender's (3.33).
  for (Unit& u : units_)
    if (u.zone == zone && side_of(u.nation) == active_ && !g_->base(u.type).combatant)
      u.nation = defender == kAxis ? kGermany : kRussiaNation;
}

Status AaState::check_retreat(const Action& a) const {
  if (phase_ != Phase::kCombat) return rule_error("3.33", "retreats happen in the Combat step");
  if (a.nargs != 2 || a.args[0] < 0 || a.args[0] >= g_->zone_count())
    return Error{"usage: retreat ZONE TO", "", ""};
  const int zone = a.args[0], to = a.args[1];
  if (decision_zone_ >= 0) return rule_error("3.33", "the defender decides first whether to retreat");
  if (std::find(battles_.begin(), battles_.end(), zone) == battles_.end())
    return rule_error("3.33", "no battle in " + g_->zone(zone).name);
  if (battle_rounds_[static_cast<size_t>(zone)] == 0)
    return rule_error("3.36.2.4",
                      "the attacker may retreat after the end of a round, and none has been fought");
  if (!retreat_zone_ok(zone, to, active_))
    return rule_error("3.33",
                      "units can only retreat to an adjacent friendly zone, not across a river or lake, "
                      "into a reinforcement zone or into the Pripet Marshes");
  return Status::ok();
}

void AaState::apply_retreat(const Action& a) {
  const int zone = a.args[0], to = a.args[1];
  int moved = 0, captured = 0;
  for (Unit& u : units_) {
    if (u.zone != zone || side_of(u.nation) != active_) continue;
    if (g_->base(u.type).combatant || u.general > 0) {  // 4.5: generals retreat with their troops
      u.zone = to;
      u.mp = 0;
      u.from = zone;
      ++moved;
    } else {
      // 3.33: "Supplies, trucks and trains may never retreat and are instead captured."
      u.nation = active_ == kAxis ? kRussiaNation : kGermany;
      ++captured;
    }
  }
  battle_fought_[static_cast<size_t>(zone)] = 1;
  battles_.erase(std::remove(battles_.begin(), battles_.end(), zone), battles_.end());
  log("combat",
      "The attacker retreats " + std::to_string(moved) + " units from " + g_->zone(zone).name + " to " +
          g_->zone(to).name + (captured > 0 ? "; " + std::to_string(captured) + " pieces are captured" : "") +
          " (3.33)",
      "3.33");
}

}  // namespace steppe::aa

namespace steppe::aa {

// 3.33: "The Defender may retreat at the end of the round by rolling 1 d12 and choosing what
// units get to retreat according to the value of the die roll (roll 6 and 6 units get to
// retreat). Units, including aircraft, can only retreat to an adjacent friendly zone." Only
// combat units retreat: "Supplies, trucks and trains may never retreat and are instead captured."
bool AaState::defender_may_retreat(int zone) const {
  const int defender = 1 - active_;
  bool unit = false;
  for (const Unit& u : units_)
    if (u.zone == zone && side_of(u.nation) == defender && g_->base(u.type).combatant) unit = true;
  if (!unit) return false;
  for (const GraphEdge& e : g_->map().graph().neighbours(zone))
    if (retreat_zone_ok(zone, static_cast<int>(e.to), defender)) return true;
  return false;
}

void AaState::close_decision() {
  const int zone = decision_zone_;
  decision_zone_ = -1;
  withdraw_left_ = -1;
  // With every defending combat unit gone the battle is over (the attacker wins the zone).
  bool left = false;
  for (const Unit& u : units_)
    if (u.zone == zone && side_of(u.nation) != active_ && g_->base(u.type).combatant) left = true;
  if (!left) settle_battle(zone, Outcome::kAttackerWins);
}

Status AaState::check_stand(const Action& a) const {
  if (a.nargs != 1 || a.args[0] < 0 || a.args[0] >= g_->zone_count())
    return Error{"usage: stand ZONE", "", ""};
  if (decision_zone_ != a.args[0])
    return rule_error("3.33", "no defender's decision is due in " + g_->zone(a.args[0]).name);
  return Status::ok();
}

void AaState::apply_stand(const Action& a) {
  log("combat",
      std::string(withdraw_left_ >= 0 ? "The defender ends its retreat from " : "The defender stands in ") +
          g_->zone(a.args[0]).name + " (3.33)",
      "3.33");
  close_decision();
}

Status AaState::check_withdraw(const Action& a) const {
  if (a.nargs != 1 || a.args[0] < 0 || a.args[0] >= g_->zone_count())
    return Error{"usage: withdraw ZONE", "", ""};
  if (decision_zone_ != a.args[0])
    return rule_error("3.33", "no defender's decision is due in " + g_->zone(a.args[0]).name);
  if (withdraw_left_ >= 0) return rule_error("3.33", "the defender has rolled for this retreat already");
  return Status::ok();
}

void AaState::apply_withdraw(const Action& a) {
  withdraw_left_ = roll(12, "Defender's retreat roll in " + g_->zone(a.args[0]).name, "3.33");
  log("combat",
      "The defender may retreat " + std::to_string(withdraw_left_) + " units from " +
          g_->zone(a.args[0]).name + " (3.33)",
      "3.33");
}

Status AaState::check_pull(const Action& a) const {
  if (a.nargs != 5 || a.args[0] < 1 || a.args[1] < 0 || a.args[1] >= kNationCount || a.args[2] < 0 ||
      a.args[2] >= g_->base_type_count() || a.args[3] < 0 || a.args[3] >= g_->zone_count())
    return Error{"usage: pull COUNT UNIT ZONE TO", "", ""};
  const int n = a.args[0], nation = a.args[1], type = a.args[2], zone = a.args[3], to = a.args[4];
  if (decision_zone_ != zone || withdraw_left_ < 0)
    return rule_error("3.33", "the defender pulls units out after rolling to retreat (withdraw ZONE)");
  if (side_of(nation) == active_) return rule_error("3.33", "only the defender's units retreat now");
  if (!g_->base(type).combatant) return rule_error("3.33", "supplies, trucks and trains may never retreat");
  if (n > withdraw_left_)
    return rule_error("3.33", "the roll lets " + std::to_string(withdraw_left_) + " more units retreat");
  if (count_of(zone, nation, type) < n)
    return rule_error("3.33", "not that many " + g_->base(type).name + " here");
  if (!retreat_zone_ok(zone, to, 1 - active_))
    return rule_error("3.33",
                      "units can only retreat to an adjacent friendly zone, not across a river or lake, "
                      "into a reinforcement zone or into the Pripet Marshes");
  return Status::ok();
}

void AaState::apply_pull(const Action& a) {
  const int n = a.args[0], nation = a.args[1], type = a.args[2], zone = a.args[3], to = a.args[4];
  int moved = 0;
  for (Unit& u : units_)
    if (moved < n && u.zone == zone && u.nation == nation && u.type == type) {
      u.zone = to;
      u.from = zone;
      u.morale = 1;  // 3.33 "considered to have low morale and cannot be moved in the next sequence"
      ++moved;
    }
  // 4.5: the defender's generals leave with the first units that retreat (they are not counted).
  for (Unit& u : units_)
    if (u.zone == zone && u.general > 0 && side_of(u.nation) == side_of(nation)) {
      u.zone = to;
      u.from = zone;
      u.morale = 1;
    }
  withdraw_left_ -= n;
  log("combat",
      std::to_string(n) + " " + nation_id(nation) + " " + g_->base(type).name + " retreat from " +
          g_->zone(zone).name + " to " + g_->zone(to).name + " (3.33)",
      "3.33");
  bool more = false;
  for (const Unit& u : units_)
    if (u.zone == zone && side_of(u.nation) != active_ && g_->base(u.type).combatant) more = true;
  if (withdraw_left_ == 0 || !more) close_decision();
}

}  // namespace steppe::aa
