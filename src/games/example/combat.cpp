// 4 Combat: odds, the terrain shift, the Combat Results Table (data), retreats.
#include <algorithm>
#include <string>

#include "games/example/example.h"

namespace example {

using steppe::rule_error;
using steppe::Status;

// 4.1, 4.2: every phasing unit next to the defender that has not attacked attacks it.
Odds ExampleState::odds_against(int defender_hex) const {
  Odds o;
  const int def = unit_at(defender_hex);
  if (def < 0) return o;
  const int side = 1 - g_->units()[static_cast<size_t>(def)].side;
  for (int n : g_->grid().neighbours(defender_hex)) {
    const int u = n < 0 ? -1 : unit_at(n);
    if (u < 0 || g_->units()[static_cast<size_t>(u)].side != side || done_[static_cast<size_t>(u)] != 0)
      continue;
    o.attackers.push_back(u);
    o.attack += g_->units()[static_cast<size_t>(u)].attack;
  }
  std::sort(o.attackers.begin(), o.attackers.end());
  o.defense = g_->units()[static_cast<size_t>(def)].defense;
  // Columns 1-2, 1-1, 2-1, ...: a ratio of at least 1-1 is column floor(a/d); 1-2 is 0.
  const int ncols = static_cast<int>(g_->crt_columns().size());
  if (o.attack >= o.defense)
    o.raw_col = std::min(ncols - 1, o.attack / o.defense);
  else
    o.raw_col = 2 * o.attack >= o.defense ? 0 : -1;
  o.shift = g_->terrain_at(defender_hex).shift;
  o.final_col = o.raw_col < 0 ? -1 : std::clamp(o.raw_col + o.shift, -1, ncols - 1);
  return o;
}

Status ExampleState::check_attack(int defender_hex) const {
  if (movement_phase()) return rule_error("2.1", "attacks are made only in the Combat Phase");
  const std::string where = g_->grid().id(defender_hex);
  const int def = unit_at(defender_hex);
  if (def < 0) return rule_error("4.1", "no unit to attack in " + where);
  if (g_->units()[static_cast<size_t>(def)].side == phasing_side())
    return rule_error("4.1", "the unit in " + where + " is your own");
  if (hit_[static_cast<size_t>(defender_hex)] != 0)
    return rule_error("4.1", "the unit in " + where + " has already been attacked this phase");
  if (odds_against(defender_hex).attackers.empty())
    return rule_error("4.1", "none of your units next to " + where + " may still attack");
  return Status::ok();
}

void ExampleState::eliminate(int unit, const std::string& why, const char* rule) {
  hex_[static_cast<size_t>(unit)] = -1;
  note("eliminated", g_->units()[static_cast<size_t>(unit)].id + " is eliminated (" + why + ")", rule);
}

// 4.4: to the first empty, enterable adjacent hex that is not next to an enemy unit.
void ExampleState::retreat(int unit) {
  const int side = g_->units()[static_cast<size_t>(unit)].side;
  for (int n : g_->grid().neighbours(hex_of(unit))) {
    if (n < 0 || g_->terrain_at(n).cost < 0 || unit_at(n) >= 0 || next_to_enemy(n, side)) continue;
    note("retreat", g_->units()[static_cast<size_t>(unit)].id + " retreats to " + g_->grid().id(n), "4.4");
    hex_[static_cast<size_t>(unit)] = n;
    return;
  }
  eliminate(unit, "no hex to retreat to", "4.4");
}

void ExampleState::do_attack(int defender_hex) {
  const Odds o = odds_against(defender_hex);
  const int def = unit_at(defender_hex);
  const int die = roll(6, "combat at " + g_->grid().id(defender_hex), "4.3");
  const std::string& res = g_->crt(o.final_col, die);
  const std::string column =
      o.final_col < 0 ? "below " + g_->crt_columns()[0] : g_->crt_columns()[static_cast<size_t>(o.final_col)];
  note("combat",
       std::to_string(o.attack) + " against " + std::to_string(o.defense) + " at " +
           g_->grid().id(defender_hex) + ", column " + column + ", die " + std::to_string(die) + ": " + res,
       "4.3");
  hit_[static_cast<size_t>(defender_hex)] = 1;
  for (int u : o.attackers) done_[static_cast<size_t>(u)] = 1;
  if (res == "AE") {
    for (int u : o.attackers) eliminate(u, "AE", "4.3");
  } else if (res == "AR") {
    for (int u : o.attackers) retreat(u);
  } else if (res == "EX") {
    eliminate(def, "EX", "4.3");
    // The attacker with the largest attack factor; the first in unit order among equals.
    int strongest = o.attackers.front();
    for (int u : o.attackers)
      if (g_->units()[static_cast<size_t>(u)].attack > g_->units()[static_cast<size_t>(strongest)].attack)
        strongest = u;
    eliminate(strongest, "EX", "4.3");
  } else if (res == "DR") {
    retreat(def);
  } else if (res == "DE") {
    eliminate(def, "DE", "4.3");
  }
  check_victory(false);
}

// Every enemy unit that may be attacked now, in order of its hex index.
void ExampleState::generate_attacks(std::vector<steppe::Action>& out) const {
  for (int h = 0; h < g_->grid().size(); ++h) {
    if (unit_at(h) < 0 || !check_attack(h).is_ok()) continue;
    steppe::Action a;
    a.verb = kAttack;
    a.push(h);
    out.push_back(a);
  }
}

}  // namespace example
