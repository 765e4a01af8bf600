#include "games/aa/battle.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

#include "kernel/json_data.h"

namespace steppe::aa {

bool UnitType::has_class(std::string_view c) const {
  return std::find(classes.begin(), classes.end(), c) != classes.end();
}

UnitTypes UnitTypes::from_list(std::vector<UnitType> types) {
  UnitTypes out;
  out.types_ = std::move(types);
  return out;
}

int UnitTypes::index_of(std::string_view id) const {
  for (size_t i = 0; i < types_.size(); ++i)
    if (types_[i].id == id) return static_cast<int>(i);
  return -1;
}

Result<UnitTypes> UnitTypes::load(const std::filesystem::path& data_dir, const std::string& nation) {
  const auto file = data_dir / "units.json";
  auto doc = load_json_file(file);
  if (!doc) return doc.error();
  JsonReader root(*doc, file.string());
  UnitTypes out;
  for (const JsonReader& u : root.at("unit_types").elements()) {
    UnitType t;
    t.id = u.str("id");
    t.name = u.str("name");
    t.attack = u.int_in("attack", 0, kDie);
    t.defence = u.int_in("defence", 0, kDie);
    t.movement = u.int_in("movement", 0, 99);
    t.cost = u.int_in("cost", 0, 999);
    t.hits = u.int_in("hits", 1, 10);
    t.repair_cost = static_cast<int>(u.integer_or("repair_cost", 0));
    t.attack_dice = static_cast<int>(u.integer_or("attack_dice", 1));
    t.classes = u.str_list("classes");
    t.elite = u.boolean_or("elite", false);
    t.advanced = u.boolean_or("advanced", false);
    t.optional = u.boolean_or("optional", false);
    t.facility = u.boolean_or("facility", false);
    t.needs_air_base = u.boolean_or("needs_air_base", false);
    t.nations = u.str_list_or_empty("nations");
    {
      const std::string rule = u.str_or("rule", "");
      t.section = rule.substr(0, rule.find_first_of(" ,"));
    }
    t.casualty_band = static_cast<int>(u.integer_or("casualty_band", 0));
    if (t.has_class("bomber")) {
      t.sbr_hit = static_cast<int>(u.integer_or("sbr_hit", 0));
      t.sbr_dice = static_cast<int>(u.integer_or("sbr_dice", 1));
      t.sbr_targets = u.str_list_or_empty("sbr_targets");
    }
    if (auto abilities = u.opt("abilities")) {
      for (const JsonReader& a : abilities->elements()) {
        const std::string kind = a.str("kind");
        if (kind == "support") {
          Support s;
          s.partner_class = a.str("partner_class");
          s.bonus = a.int_in("bonus", -12, 12);
          const std::string when = a.str("when");
          if (when == "attack") {
            s.when = Support::When::kAttack;
          } else if (when == "defence") {
            s.when = Support::When::kDefence;
          } else if (when == "both") {
            s.when = Support::When::kBoth;
          } else {
            a.at("when").fail_value("a support's \"when\" must be attack, defence or both");
          }
          s.partners_each = a.int_in("partners_each", 1, 12);
          s.unless_enemy_class = a.str_or("unless_enemy_class", "");
          t.supports.push_back(s);
        } else if (kind == "anti_aircraft") {
          t.anti_aircraft = a.int_in("value", 0, kDie);
        } else if (kind == "drop_bonus") {
          t.drop_bonus = a.int_in("bonus", 0, kDie);
        } else if (kind == "carry") {
          // 3.7, 3.23 (movement.cpp); 3.35 trains keep their own rail rule (rail.cpp).
          t.carry_capacity = a.int_in("capacity", 0, 99);
          t.cargo_classes = a.str_list("cargo_classes");
          t.carry_phases = a.str_list("phases");
        } else if (kind == "choose_target") {
          t.choose_target_at = a.int_in("roll_at_most", 0, kDie);
          t.choose_target_class = a.str("target_class");
        }
        // tow belongs to movement (3.4).
      }
    }
    static constexpr std::string_view kNotInCombat[] = {"noncombat", "facility", "facility_like", "general",
                                                        "noncombat_air"};
    t.combatant = std::none_of(std::begin(kNotInCombat), std::end(kNotInCombat),
                               [&](std::string_view c) { return t.has_class(c); });
    t.supply_target = t.has_class("supply_target");
    if (out.index_of(t.id) >= 0) u.at("id").fail_value("duplicate unit type");
    out.types_.push_back(std::move(t));
  }
  if (!nation.empty() && nation != "germany" && nation != "russia") {
    // 3.1: minor Axis values, reconstructed in units.json's minor_axis_values.
    const JsonReader minors = root.at("minor_axis_values");
    minors.check_reconstructed();
    const auto nations = minors.str_list("nations");
    if (std::find(nations.begin(), nations.end(), nation) == nations.end()) {
      minors.at("nations").fail("no unit values for the nation " + steppe::quoted(nation) + " (3.1)");
    } else {
      const int da = static_cast<int>(minors.integer("attack_delta"));
      const int dd = static_cast<int>(minors.integer("defence_delta"));
      for (UnitType& t : out.types_) {
        if (!t.combatant) continue;
        if (t.attack > 0) t.attack = std::clamp(t.attack + da, 1, kDie);
        if (t.defence > 0) t.defence = std::clamp(t.defence + dd, 1, kDie);
      }
    }
  }
  if (!root.ok()) return root.error();
  return out;
}

// --- Casualty order --------------------------------------------------------------------

CasualtyOrder CasualtyOrder::cheapest_first(const UnitTypes& types) {
  CasualtyOrder o;
  for (int i = 0; i < types.size(); ++i) o.type_priority.push_back(i);
  std::stable_sort(o.type_priority.begin(), o.type_priority.end(), [&](int a, int b) {
    const UnitType& x = types.at(a);
    const UnitType& y = types.at(b);
    if (x.cost != y.cost) return x.cost < y.cost;
    return std::max(x.attack, x.defence) < std::max(y.attack, y.defence);
  });
  return o;
}

Status CasualtyOrder::validate(const UnitTypes& types) const {
  std::vector<int> seen(static_cast<size_t>(types.size()), 0);
  for (int t : type_priority) {
    if (t < 0 || t >= types.size())
      return rule_error("3.36.2.3", "the casualty order names a unit type that does not exist");
    if (seen[static_cast<size_t>(t)]++)
      return rule_error("3.36.2.3", "the casualty order names " + types.at(t).name + " twice");
  }
  for (int t = 0; t < types.size(); ++t)
    if (!seen[static_cast<size_t>(t)])
      return rule_error("3.36.2.3", "the casualty order leaves out " + types.at(t).name);
  return Status::ok();
}

int CasualtyOrder::apply_hits(Forces& f, const UnitTypes& types, int hits) const {
  while (hits > 0) {
    int target = -1;
    bool damage_only = false;
    if (absorb_with_two_hit_units) {
      for (int t : type_priority) {
        const size_t i = static_cast<size_t>(t);
        if (types.at(t).combatant && types.at(t).hits == 2 && f.alive[i] > f.damaged[i]) {
          target = t;
          damage_only = true;
          break;
        }
      }
    }
    if (target < 0) {
      for (int t : type_priority) {
        if (types.at(t).combatant && f.alive[static_cast<size_t>(t)] > 0) {
          target = t;
          break;
        }
      }
    }
    if (target < 0) return hits;  // nothing left to take the hit
    const size_t i = static_cast<size_t>(target);
    // 3.2: a 2-hit unit's first hit damages it (absorbed first, or when its turn comes).
    if (damage_only || (types.at(target).hits == 2 && f.damaged[i] == 0)) {
      ++f.damaged[i];
    } else {
      if (f.damaged[i] > 0) --f.damaged[i];
      --f.alive[i];
    }
    --hits;
  }
  return 0;
}

int CasualtyOrder::apply_aircraft_hits(Forces& f, const UnitTypes& types, int hits) const {
  for (int t : type_priority) {
    const UnitType& u = types.at(t);
    if (!u.combatant || !u.aircraft()) continue;
    const size_t i = static_cast<size_t>(t);
    const int n = std::min(hits, f.alive[i]);
    f.alive[i] -= n;
    f.damaged[i] = std::min(f.damaged[i], f.alive[i]);
    hits -= n;
  }
  return hits;
}

int CasualtyOrder::apply_class_hits(Forces& f, const UnitTypes& types, std::string_view cls, int hits) const {
  for (int t : type_priority) {
    const UnitType& u = types.at(t);
    if (!u.combatant || !u.has_class(cls)) continue;
    const size_t i = static_cast<size_t>(t);
    const int n = std::min(hits, f.alive[i]);
    f.alive[i] -= n;
    f.damaged[i] = std::min(f.damaged[i], f.alive[i]);
    hits -= n;
  }
  return hits;
}

int CasualtyOrder::apply_supply_kills(Forces& f, const UnitTypes& types, int ones) const {
  for (int t : type_priority) {
    if (!types.at(t).supply_target) continue;
    const size_t i = static_cast<size_t>(t);
    const int n = std::min(ones, f.alive[i]);
    f.alive[i] -= n;
    ones -= n;
  }
  return ones;
}

// --- Battle ----------------------------------------------------------------------------

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::kOngoing:
      return "ongoing";
    case Outcome::kAttackerWins:
      return "attacker wins";
    case Outcome::kDefenderHolds:
      return "defender holds";
    case Outcome::kBothDestroyed:
      return "both destroyed";
    case Outcome::kAttackerRetreats:
      return "attacker retreats";
  }
  return "?";
}

Battle::Battle(const UnitTypes& types, BattleSetup setup) : types_(&types), setup_(std::move(setup)) {
  forces_[0] = setup_.attacker;
  forces_[1] = setup_.defender;
}

Result<Battle> Battle::start(const UnitTypes& types, BattleSetup setup) {
  const size_t n = static_cast<size_t>(types.size());
  for (const Forces* f : {&setup.attacker, &setup.defender}) {
    if (f->alive.size() != n || f->damaged.size() != n)
      return rule_error(
          "3.36.2", "a side's forces must give a count for each of the " + std::to_string(n) + " unit types");
    for (size_t i = 0; i < n; ++i) {
      if (f->alive[i] < 0 || f->damaged[i] < 0 || f->damaged[i] > f->alive[i])
        return rule_error("3.36.2", "bad count of " + types.at(static_cast<int>(i)).name);
      if (f->damaged[i] > 0 && types.at(static_cast<int>(i)).hits != 2)
        return rule_error("3.2",
                          types.at(static_cast<int>(i)).name + " cannot carry a hit: only 2-hit units can");
    }
  }
  if (Status s = setup.attacker_order.validate(types); !s) return s.error();
  if (Status s = setup.defender_order.validate(types); !s) return s.error();
  Battle b(types, std::move(setup));
  if (!b.has_combatants(Side::kAttacker))
    return rule_error("3.36.2", "the attacker brings no unit that can fight");
  // A zone with no defending combat unit falls without dice (its supplies are captured, 3.33).
  if (!b.has_combatants(Side::kDefender)) b.outcome_ = Outcome::kAttackerWins;
  return b;
}

bool Battle::has_combatants(Side side) const {
  const Forces& f = forces(side);
  for (int t = 0; t < types_->size(); ++t)
    if (types_->at(t).combatant && f.alive[static_cast<size_t>(t)] > 0) return true;
  return false;
}

DiceByValue Battle::aa_dice() const {
  DiceByValue d{};
  if (round_ != 0) return d;  // 3.36.2.1: "for the first round of combat only"
  int value = 0;
  const Forces& def = forces(Side::kDefender);
  for (int t = 0; t < types_->size(); ++t)
    if (def.alive[static_cast<size_t>(t)] > 0) value = std::max(value, types_->at(t).anti_aircraft);
  if (value == 0) return d;
  // "Roll 1d12, no matter how many AA guns are in the zone, for each aircraft" (3.36.2.1).
  const Forces& att = forces(Side::kAttacker);
  for (int t = 0; t < types_->size(); ++t) {
    const UnitType& u = types_->at(t);
    if (u.combatant && u.aircraft()) d[static_cast<size_t>(value)] += att.alive[static_cast<size_t>(t)];
  }
  return d;
}

DiceByValue Battle::combat_dice(Side side, std::string_view only_class) const {
  const UnitTypes& types = *types_;
  const Forces& f = forces(side);
  const Forces& enemy = forces(other(side));
  const bool attacking = side == Side::kAttacker;
  const bool first_round = round_ == 0;
  const BattleTerrain& terrain = setup_.terrain;
  auto side_has = [&](const Forces& x, auto pred) {
    for (int t = 0; t < types.size(); ++t)
      if (x.alive[static_cast<size_t>(t)] > 0 && pred(types.at(t))) return true;
    return false;
  };
  // 3.36.2.2: "If a battle consists of attacking land units with no aircraft and the defending
  // units have aircraft, then the defending side has air supremacy and all aircraft use their
  // attack values."
  const bool defender_air_supremacy = !attacking && !side_has(forces(Side::kAttacker), [](const UnitType& u) {
    return u.combatant && u.aircraft();
  });
  // 3.34: cut-off defenders fight at -2 and "All defensive modifiers are void".
  const bool cut_off = !attacking && terrain.surrounded;

  // Per unit, its modified value; supports then add to the weakest partners first.
  std::vector<std::vector<int>> values(static_cast<size_t>(types.size()));
  for (int t = 0; t < types.size(); ++t) {
    const UnitType& u = types.at(t);
    const int n = f.alive[static_cast<size_t>(t)];
    if (n == 0 || !u.combatant || (!only_class.empty() && !u.has_class(only_class))) continue;
    int v = attacking ? u.attack : ((defender_air_supremacy && u.aircraft()) ? u.attack : u.defence);
    if (attacking) {
      if (terrain.city) v -= 1;                                        // 3.30
      if (terrain.river && !terrain.snow && !u.aircraft()) v -= 1;     // 3.29, 4.1 (3.30: -2 with a city)
      if (first_round && terrain.airborne_dropped) v += u.drop_bonus;  // 3.13
    } else if (cut_off || terrain.pripet) {
      v -= 2;  // 3.34 cut off (which voids every other defensive modifier), or 3.31 the Pripet
    }
    const auto& bonus = terrain.bonus[static_cast<size_t>(idx(side))];
    if (!bonus.empty() && !cut_off) v += bonus[static_cast<size_t>(t)];  // 4.4.1, 4.4.2, 4.5.1
    const auto& first = terrain.first_round_bonus[static_cast<size_t>(idx(side))];
    if (first_round && !first.empty() && !cut_off) v += first[static_cast<size_t>(t)];  // 4.5.1
    values[static_cast<size_t>(t)].assign(static_cast<size_t>(n), v);
  }
  if (!cut_off) {
    for (int s = 0; s < types.size(); ++s) {
      const int supporters = f.alive[static_cast<size_t>(s)];
      if (supporters == 0) continue;
      for (const Support& sp : types.at(s).supports) {
        const bool applies = sp.when == Support::When::kBoth ||
                             (sp.when == Support::When::kAttack && attacking) ||
                             (sp.when == Support::When::kDefence && !attacking);
        if (!applies) continue;
        if (!sp.unless_enemy_class.empty() &&
            side_has(enemy, [&](const UnitType& u) { return u.has_class(sp.unless_enemy_class); }))
          continue;  // 3.20: no bonus when enemy fighters are present
        // "matched 1-1" (3.3, 3.17, 3.20; 4.3 "1 or 2 infantry to 1 fortification")
        const bool two = terrain.artillery_supports_two[static_cast<size_t>(idx(side))] && attacking &&
                         types.at(s).has_class("artillery") && sp.partner_class == "infantry";  // 4.5.1
        int capacity = supporters * (two ? std::max(2, sp.partners_each) : sp.partners_each);
        for (int t = 0; t < types.size() && capacity > 0; ++t) {
          if (!types.at(t).has_class(sp.partner_class)) continue;
          auto& vs = values[static_cast<size_t>(t)];
          std::sort(vs.begin(), vs.end());
          for (size_t k = 0; k < vs.size() && capacity > 0; ++k, --capacity) vs[k] += sp.bonus;
        }
      }
    }
  }
  DiceByValue d{};
  for (int t = 0; t < types.size(); ++t) {
    const int dice_each = attacking ? types.at(t).attack_dice : 1;  // 3.22
    for (int v : values[static_cast<size_t>(t)]) d[static_cast<size_t>(std::clamp(v, 0, kDie))] += dice_each;
  }
  return d;
}

bool Battle::dogfight_pending() const {
  if (round_ != 0 || air_supremacy_done_ || outcome_ != Outcome::kOngoing) return false;
  auto has_fighter = [&](Side s) {
    for (int t = 0; t < types_->size(); ++t)
      if (types_->at(t).combatant && types_->at(t).has_class("fighter") &&
          forces(s).alive[static_cast<size_t>(t)] > 0)
        return true;
    return false;
  };
  return has_fighter(Side::kAttacker) && has_fighter(Side::kDefender);
}

void Battle::apply_dogfight(int hits_on_defender, int hits_on_attacker) {
  setup_.defender_order.apply_class_hits(forces(Side::kDefender), *types_, "fighter", hits_on_defender);
  setup_.attacker_order.apply_class_hits(forces(Side::kAttacker), *types_, "fighter", hits_on_attacker);
}

DiceByValue Battle::free_shot_dice(Side& shooter) const {
  DiceByValue none{};
  auto count = [&](Side s, std::string_view cls) {
    int n = 0;
    for (int t = 0; t < types_->size(); ++t)
      if (types_->at(t).combatant && types_->at(t).has_class(cls))
        n += forces(s).alive[static_cast<size_t>(t)];
    return n;
  };
  if (round_ != 0 || air_supremacy_done_ || dogfight_pending()) return none;
  // Only after a dogfight: "The side that wins the air battle ... gets a free/pre-emptive shot
  // at the enemies' aircraft left in the territory. This shot is per fighter left".
  const bool attacker_won = count(Side::kAttacker, "fighter") > 0 && count(Side::kDefender, "fighter") == 0;
  const bool defender_won = count(Side::kDefender, "fighter") > 0 && count(Side::kAttacker, "fighter") == 0;
  if (!attacker_won && !defender_won) return none;
  shooter = attacker_won ? Side::kAttacker : Side::kDefender;
  if (count(other(shooter), "air") == 0) return none;
  return combat_dice(shooter, "fighter");
}

void Battle::apply_free_shots(Side shooter, int hits) {
  const CasualtyOrder& order = shooter == Side::kAttacker ? setup_.defender_order : setup_.attacker_order;
  order.apply_class_hits(forces(other(shooter)), *types_, "air", hits);
  air_supremacy_done_ = true;
  if (!has_combatants(Side::kAttacker) || !has_combatants(Side::kDefender)) {
    ++round_;
    settle();
  }
}

bool Battle::stalemate() const {
  for (Side s : {Side::kAttacker, Side::kDefender}) {
    const DiceByValue d = combat_dice(s);
    for (int v = 1; v <= kDie; ++v)
      if (d[static_cast<size_t>(v)] > 0) return false;
  }
  return true;
}

void Battle::apply_aa(int aa_hits) {
  setup_.attacker_order.apply_aircraft_hits(forces(Side::kAttacker), *types_, aa_hits);
  // "remove all hits before moving to air (B.) Air supremacy" (3.36.2.1)
  if (!has_combatants(Side::kAttacker)) {
    ++round_;
    settle();
  }
}

// Hits the owner's order places, or (4.2) the Casualty chart rolls when there are.
void Battle::apply_ordinary(Forces& f, const CasualtyOrder& order, int hits,
                            const std::vector<int>& chart_rolls) {
  for (int r : chart_rolls) {
    if (hits == 0) break;
    if (chart_hit(f, *types_, order, setup_.terrain.casualty_chart, r)) --hits;
  }
  order.apply_hits(f, *types_, hits);
}

void Battle::apply_exchange(const RoundRoll& roll) {
  // 3.36.2.3: the defender rolls "including those chosen as casualties", so both sides' hits
  // are taken from the forces that rolled and removed together.
  Forces& att = forces(Side::kAttacker);
  Forces& def = forces(Side::kDefender);
  // 3.16: the Tank Destroyers' chosen hits first, on the targets their side picks.
  const int placed_on_def = chosen_hits(def, *types_, roll.chosen[0]);
  const int placed_on_att = chosen_hits(att, *types_, roll.chosen[1]);
  apply_ordinary(def, setup_.defender_order, roll.hits[0] - placed_on_def, roll.chart_rolls[0]);
  const auto& spare = setup_.terrain.no_supply_kills;  // 4.4.1 Axis card 3
  if (!spare[0]) setup_.defender_order.apply_supply_kills(def, *types_, roll.ones[0]);
  apply_ordinary(att, setup_.attacker_order, roll.hits[1] - placed_on_att, roll.chart_rolls[1]);
  if (!spare[1]) setup_.attacker_order.apply_supply_kills(att, *types_, roll.ones[1]);
  ++round_;
  settle();
}

// 3.16: "this unit may choose any land vehicle as its target on a roll of 2 or less". The
// firing side puts each such hit on the enemy's dearest land combat vehicle (then the
// strongest), a 2-hit unit's hit first damaging it (ruling "Tank Destroyer targets"); a hit
// that finds no vehicle is an ordinary hit. Returns the hits placed.
int chosen_hits(Forces& f, const UnitTypes& types, int hits) {
  int placed = 0;
  for (; placed < hits; ++placed) {
    int best = -1;
    for (int t = 0; t < types.size(); ++t) {
      const UnitType& u = types.at(t);
      if (f.alive[static_cast<size_t>(t)] == 0 || !u.combatant || u.aircraft() || !u.has_class("land") ||
          !u.has_class("vehicle"))
        continue;
      if (best < 0 || u.cost > types.at(best).cost ||
          (u.cost == types.at(best).cost &&
           u.attack + u.defence > types.at(best).attack + types.at(best).defence))
        best = t;
    }
    if (best < 0) break;
    const auto b = static_cast<size_t>(best);
    if (types.at(best).hits > 1 && f.damaged[b] < f.alive[b]) {
      ++f.damaged[b];
    } else {
      if (f.damaged[b] > 0) --f.damaged[b];
      --f.alive[b];
    }
  }
  return placed;
}

// 4.2: "(1-4) Infantry, Artillery, Airborne (5-6) ... If there are no units in a number range to
// take as a casualty then go to the next lowest range until you can remove a unit." With none in
// that range or below, the next higher range (ruling "Casualty chart"); in a range the owner's
// order picks the type, and a 2-hit unit's first hit damages it.
bool chart_hit(Forces& f, const UnitTypes& types, const CasualtyOrder& order, const std::vector<int>& chart,
               int r) {
  if (r < 1 || static_cast<size_t>(r) >= chart.size()) return false;
  const int band = chart[static_cast<size_t>(r)];
  auto pick = [&](int b) {
    for (int t : order.type_priority)
      if (types.at(t).combatant && types.at(t).casualty_band == b && f.alive[static_cast<size_t>(t)] > 0)
        return t;
    return -1;
  };
  int target = -1;
  for (int b = band; b >= 1 && target < 0; --b) target = pick(b);
  for (int b = band + 1; b <= 5 && target < 0; ++b) target = pick(b);
  if (target < 0) return false;
  const auto i = static_cast<size_t>(target);
  if (types.at(target).hits == 2 && f.damaged[i] < f.alive[i]) {
    ++f.damaged[i];
  } else {
    if (f.damaged[i] > 0) --f.damaged[i];
    --f.alive[i];
  }
  return true;
}

void Battle::settle() {
  const bool a = has_combatants(Side::kAttacker);
  const bool d = has_combatants(Side::kDefender);
  if (!a && !d) {
    outcome_ = Outcome::kBothDestroyed;
  } else if (!d) {
    outcome_ = Outcome::kAttackerWins;
  } else if (!a) {
    outcome_ = Outcome::kDefenderHolds;
  }
}

void Battle::retreat() {
  // 3.33: "Supplies, trucks and trains may never retreat and are instead captured."
  Forces& att = forces(Side::kAttacker);
  for (int t = 0; t < types_->size(); ++t)
    if (!types_->at(t).combatant && !types_->at(t).aircraft()) att.alive[static_cast<size_t>(t)] = 0;
  outcome_ = Outcome::kAttackerRetreats;
}

void Battle::set_position(const Forces& attacker, const Forces& defender, int rounds_done, Outcome outcome) {
  forces_[0] = attacker;
  forces_[1] = defender;
  round_ = rounds_done;
  outcome_ = outcome;
}

int combatants_left(const Battle& b, Side side) {
  int n = 0;
  for (int t = 0; t < b.types().size(); ++t)
    if (b.types().at(t).combatant) n += b.forces(side).alive[static_cast<size_t>(t)];
  return n;
}

int bp_lost(const Battle& b, Side side) {
  const UnitTypes& types = b.types();
  const Forces& start = side == Side::kAttacker ? b.setup().attacker : b.setup().defender;
  const Forces& now = b.forces(side);
  const Outcome o = b.outcome();
  const bool loses_zone_or_leaves =
      (side == Side::kDefender && o == Outcome::kAttackerWins) ||
      (side == Side::kAttacker && o != Outcome::kOngoing && o != Outcome::kAttackerWins);
  int lost = 0;
  for (int t = 0; t < types.size(); ++t) {
    const UnitType& u = types.at(t);
    if (u.has_class("facility")) continue;
    const size_t i = static_cast<size_t>(t);
    int left = now.alive[i];
    if (loses_zone_or_leaves && !u.combatant && !u.aircraft()) left = 0;  // captured
    lost += (start.alive[i] - left) * u.cost;
  }
  return lost;
}

void roll_dice(const DiceByValue& by_value, Dice& dice, int& hits, int& ones, std::vector<int>* rolled) {
  hits = ones = 0;
  for (int v = 0; v <= kDie; ++v) {
    for (int k = 0; k < by_value[static_cast<size_t>(v)]; ++k) {
      const int r = dice.roll(kDie);
      if (rolled != nullptr) rolled->push_back(r);
      if (r <= v) {
        ++hits;
        if (r == 1) ++ones;
      }
    }
  }
}

RoundRoll Battle::fight_round(Dice& dice, const RetreatRule& retreat_rule, RoundDice* rolled) {
  auto log = [&](std::vector<int> RoundDice::*field) {
    return rolled == nullptr ? nullptr : &(rolled->*field);
  };
  auto log_side = [&](std::array<std::vector<int>, 2> RoundDice::*field, int side) {
    return rolled == nullptr ? nullptr : &(rolled->*field)[static_cast<size_t>(side)];
  };
  RoundRoll roll;
  if (outcome_ != Outcome::kOngoing) return roll;
  if (round_ == 0) {
    int ones = 0;
    roll_dice(aa_dice(), dice, roll.aa_hits, ones, log(&RoundDice::aa));
    apply_aa(roll.aa_hits);
    if (outcome_ != Outcome::kOngoing) return roll;
    // 3.36.2.2 B. Air supremacy: a fighter with a die of 0 could not end it, so the dogfight
    // stops when neither side's fighters can hit.
    bool fought = false;
    while (dogfight_pending()) {
      const DiceByValue fa = combat_dice(Side::kAttacker, "fighter");
      const DiceByValue fd = combat_dice(Side::kDefender, "fighter");
      if (fa[0] == std::accumulate(fa.begin(), fa.end(), 0) &&
          fd[0] == std::accumulate(fd.begin(), fd.end(), 0))
        break;
      int ha = 0, hd = 0;
      roll_dice(fa, dice, ha, ones, log_side(&RoundDice::dogfight, 0));
      roll_dice(fd, dice, hd, ones, log_side(&RoundDice::dogfight, 1));
      apply_dogfight(ha, hd);
      fought = true;
    }
    Side shooter = Side::kAttacker;
    int free_hits = 0;
    if (fought) roll_dice(free_shot_dice(shooter), dice, free_hits, ones, log(&RoundDice::free_shots));
    apply_free_shots(shooter, free_hits);
    if (outcome_ != Outcome::kOngoing) return roll;
  }
  if (stalemate()) {
    retreat();
    return roll;
  }
  // 3.36.2.3: "the attacker rolling first for each of his units ... then rolls for each of his units".
  // 3.16: a Tank Destroyer's die is rolled after the side's other dice; a hit on 2 or less is
  // one whose target the side picks (RoundRoll::chosen).
  for (const Side s : {Side::kAttacker, Side::kDefender}) {
    const int k = idx(s);
    int at_most = 0;
    for (int t = 0; t < types_->size(); ++t)
      if (forces(s).alive[static_cast<size_t>(t)] > 0 && types_->at(t).choose_target_at > 0)
        at_most = std::max(at_most, types_->at(t).choose_target_at);
    DiceByValue all = combat_dice(s);
    if (at_most == 0) {
      roll_dice(all, dice, roll.hits[static_cast<size_t>(k)], roll.ones[static_cast<size_t>(k)],
                log_side(&RoundDice::combat, k));
      continue;
    }
    const DiceByValue td = combat_dice(s, "tank_destroyer");
    for (size_t v = 0; v < all.size(); ++v) all[v] -= td[v];
    roll_dice(all, dice, roll.hits[static_cast<size_t>(k)], roll.ones[static_cast<size_t>(k)],
              log_side(&RoundDice::combat, k));
    for (int v = 0; v <= kDie; ++v)
      for (int i = 0; i < td[static_cast<size_t>(v)]; ++i) {
        const int r = dice.roll(kDie);
        if (rolled != nullptr) rolled->combat[static_cast<size_t>(k)].push_back(r);
        if (r > v) continue;
        ++roll.hits[static_cast<size_t>(k)];
        if (r == 1) ++roll.ones[static_cast<size_t>(k)];
        if (r <= at_most) ++roll.chosen[static_cast<size_t>(k)];
      }
  }
  // 4.2: "If you take 4 hits, reroll 4 d12 and remove units per the chart" (the defender's first).
  if (!setup_.terrain.casualty_chart.empty())
    for (const size_t k : {size_t{0}, size_t{1}})
      for (int i = 0; i < roll.hits[k] - roll.chosen[k]; ++i) roll.chart_rolls[k].push_back(dice.roll(kDie));
  apply_exchange(roll);
  // 3.36.2.4: "The attacking side may retreat after the end of the round"
  if (outcome_ == Outcome::kOngoing && retreat_rule.after_round > 0 && round_ >= retreat_rule.after_round)
    retreat();
  return roll;
}

Outcome Battle::fight(Dice& dice, const RetreatRule& retreat_rule) {
  while (outcome_ == Outcome::kOngoing) fight_round(dice, retreat_rule);
  return outcome_;
}

int forces_cost(const Forces& f, const UnitTypes& types) {
  int sum = 0;
  for (int t = 0; t < types.size(); ++t) sum += f.alive[static_cast<size_t>(t)] * types.at(t).cost;
  return sum;
}

}  // namespace steppe::aa
