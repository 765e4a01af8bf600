// 12.0 Attack Declaration. "Before an attack can take place, it must be declared. The Axis
// Player declares all attacks after all movement is completed in the Axis Movement Phase. The
// Soviet Player declares all attacks after all movement is completed in the Soviet Motorized
// Movement Phase. Place a 'Declared Attack' marker on each defender hex targeted by an attack."
// A declaration names its defender hexes (12.8: one or more) and the units designated to attack
// (12.1, 12.3.3); the checks are 12.1 (who may attack), 12.2/15.2.3 (each unit attacks once, each
// hex is attacked once), 12.3 (minimum initial odds at the moment of declaration), 12.5/12.6
// (eligible hexes), 12.7 (hexes that must be attacked: checked when the declarations are
// complete, ruling A-42) and 12.8 (multiple-hex attacks). 12.4: a Soviet Mandated Attack is
// identified when declared, at 3-2 or better; the M results of the Soviet Replacement Table owe
// them (7.2e.1, replacements.cpp).
#include <algorithm>

#include "games/agc/agc.h"

namespace agc {

using steppe::Error;
using steppe::Status;

int AgcState::declaration_of(int hex) const {
  for (size_t i = 0; i < decl_.size(); ++i)
    if (std::find(decl_[i].hexes.begin(), decl_[i].hexes.end(), hex) != decl_[i].hexes.end())
      return static_cast<int>(i);
  return -1;
}

// 12.1.1: "ground combat units with attack strengths greater than zero that are located adjacent
// to enemy units in hexes where attacks are allowed [12.5]"; the lake hexside (cec.json) and
// 12.5 Conditions One and Two as combat.cpp attackers_of.
bool AgcState::may_attack_into(int u, int hex) const {
  const auto& s = us_[u];
  if (s.hex < 0 || attack_of(u) <= 0 || !g_->grid_.adjacent(s.hex, hex)) return false;
  if (g_->all_lake_.test(s.hex, g_->grid_.direction(s.hex, hex)) && !g_->lake_attack_open_[weather()])
    return false;
  return projects_zoc_into(hex, s.hex) || move_cost(u, s.hex, hex).halves >= 0;
}

// 12.3.3: "Total the attack strengths of adjacent friendly non-artillery ground combat units
// designated to attack." 12.3.4: "Total the defense strengths of all Tried, non-artillery ground
// combat units in the defender hex(es)." 12.1.2: artillery is not taken into account. (Untried
// units count nothing until combat reveals them, 15.5.4.)
void AgcState::declared_odds(const std::vector<int>& hexes, const std::vector<int>& units, int& a,
                             int& d) const {
  a = 0;
  d = 0;
  for (int u : units)
    if (!g_->units_[u].artillery) a += attack_of(u);
  for (size_t u = 0; u < us_.size(); ++u) {
    const auto& def = g_->units_[u];
    if (us_[u].hex < 0 || def.artillery || !def.combat || def.hq || def.supply_counter) continue;
    if (untried(static_cast<int>(u))) continue;  // 12.3.4: "all Tried ... units"
    if (std::find(hexes.begin(), hexes.end(), us_[u].hex) != hexes.end())
      d += defense_of(static_cast<int>(u));
  }
}

int AgcState::mandated_declared() const {
  int n = 0;
  for (const auto& x : decl_) n += x.mandated && !x.resolved ? 1 : 0;
  return n;
}

Status AgcState::check_declare(const std::vector<int>& hexes, const std::vector<int>& units,
                               bool mandated) const {
  if (!declaration_phase())
    return Error{
        "attacks are declared after all movement of the Axis Movement Phase (Soviet: Motorized "
        "Movement Phase)",
        "12.0", ""};
  if (hexes.empty()) return Error{"a declared attack names at least one defender hex", "12.0", ""};
  if (units.empty()) return Error{"a declared attack names the units designated to attack", "12.3.3", ""};
  const int side = side_of_phase();
  for (size_t i = 0; i < hexes.size(); ++i) {
    const int h = hexes[i];
    if (std::find(hexes.begin(), hexes.begin() + static_cast<long>(i), h) !=
        hexes.begin() + static_cast<long>(i))
      return Error{g_->grid_.id(h) + " is named twice", "12.8", ""};
    if (stack_[1 - side][h] == 0) return Error{"no enemy unit in " + g_->grid_.id(h), "12.0", ""};
    if (declaration_of(h) >= 0 || attacked_hex_[h] != 0)
      return Error{g_->grid_.id(h) + " already bears a Declared Attack marker: a hex is attacked once",
                   "15.2.3, 12.0", ""};
  }
  for (size_t i = 0; i < units.size(); ++i) {
    const int u = units[i];
    const auto& d = g_->units_[u];
    if (std::find(units.begin(), units.begin() + static_cast<long>(i), u) !=
        units.begin() + static_cast<long>(i))
      return Error{d.label + " is named twice", "12.3.3", ""};
    if (d.side != side) return Error{d.label + " is not the declaring player's", "12.1.1", ""};
    if (us_[u].hex < 0) return Error{d.label + " is not on the map", "12.1.1", ""};
    if (d.artillery)
      return Error{d.label + " is artillery: artillery is not taken into account during Attack Declaration",
                   "12.1.2", ""};
    if (attack_of(u) <= 0)
      return Error{d.label + " has no attack strength: zero attack strength units cannot attack", "12.1.1",
                   ""};
    for (const auto& x : decl_)
      if (std::find(x.units.begin(), x.units.end(), u) != x.units.end())
        return Error{d.label + " is already designated for the attack on " + g_->grid_.id(x.hexes[0]) +
                         ": no unit attacks more than once",
                     "15.2.3, 12.2", ""};
    for (int h : hexes) {
      if (!g_->grid_.adjacent(us_[u].hex, h))
        return Error{
            d.label + " is not adjacent to " + g_->grid_.id(h) +
                (hexes.size() > 1 ? ": all attacking units must be adjacent to all defending units" : ""),
            hexes.size() > 1 ? "12.8" : "12.1.1", ""};
      if (!may_attack_into(u, h))
        return Error{g_->grid_.id(h) + " projects no ZOC into " + g_->grid_.id(us_[u].hex) + " and " +
                         d.label + " cannot enter it: no attack can be declared from there",
                     "12.6.1, 12.5", ""};
    }
  }
  // 12.3.1, 12.3.2, 12.3.5: the initial odds, computed now, at least one to four.
  int a = 0, d = 0;
  declared_odds(hexes, units, a, d);
  if (odds_column(2 * a, 2 * d) < 0)
    return Error{"initial odds " + std::to_string(a) + " to " + std::to_string(d) +
                     " are less than one to four: no attack can be declared",
                 "12.3.5, 12.3.1", ""};
  // 12.4: "Any Soviet Mandated Attacks must be identified when declared. The minimum initial odds
  // ratio must be three to two (3-2) or better." 7.1.1e: one is owed for each M received.
  if (mandated) {
    if (side != kSoviet) return Error{"only the Soviet player makes Mandated Attacks", "12.4", ""};
    if (mandated_declared() >= mandated_owed_)
      return Error{"no Mandated Attack is owed (the Mandated Attack Not Yet Made marker is at " +
                       std::to_string(mandated_owed_) + ")",
                   "12.4, 7.1.1", ""};
    const auto [ma, mb] = g_->mandated_min_;
    if (static_cast<int64_t>(2 * a) * mb < static_cast<int64_t>(2 * d) * ma)
      return Error{"initial odds " + std::to_string(a) + " to " + std::to_string(d) +
                       " are less than three to two: no Mandated Attack can be declared",
                   "12.4", ""};
  }
  return Status::ok();
}

void AgcState::do_declare(const std::vector<int>& hexes, const std::vector<int>& units, bool mandated) {
  Declared x;
  x.mandated = mandated;
  for (int h : hexes) x.hexes.push_back(static_cast<int16_t>(h));
  for (int u : units) x.units.push_back(static_cast<int16_t>(u));
  int a = 0, d = 0;
  declared_odds(hexes, units, a, d);
  declaring_ = true;  // 12.0: "after all movement is completed"
  std::string where;
  for (int h : hexes) where += (where.empty() ? "" : "+") + g_->grid_.id(h);
  emit({"declare",
        std::string(mandated ? "Mandated " : "") + "Declared Attack on " + where + " by " +
            std::to_string(units.size()) + " unit(s), initial odds " + std::to_string(a) + " to " +
            std::to_string(d),
        "12.3.5",
        0xFFFFFFFFu,
        false,
        {}});
  decl_.push_back(std::move(x));
}

// Ruling A-42: until the declarations are complete (the phase ends) a Declared Attack marker may
// be taken back; then it is final (12.3.6: "Once an attack is declared, it must be executed").
Status AgcState::check_undeclare(int hex) const {
  if (!declaration_phase() || declaration_of(hex) < 0)
    return Error{"no Declared Attack marker of this declaration on " + g_->grid_.id(hex), "12.0", ""};
  return Status::ok();
}

void AgcState::do_undeclare(int hex) {
  const int i = declaration_of(hex);
  emit({"declare",
        "the Declared Attack on " + g_->grid_.id(hex) + " is taken back",
        "12.0",
        0xFFFFFFFFu,
        false,
        {}});
  decl_.erase(decl_.begin() + i);
  declaring_ = !decl_.empty();  // ruling A-42: with no marker left, movement may go on
}

// 12.7: "When any friendly unit attacks, all enemy combat units that project a ZOC into the
// attacking unit's hex must be attacked by either the friendly attacking unit in question, or by
// another eligible friendly attacking unit."
Status AgcState::check_declarations_complete() const {
  if (!declaration_phase()) return Status::ok();
  const int enemy = 1 - side_of_phase();
  for (const auto& x : decl_)
    for (int u : x.units) {
      const int from = us_[u].hex;
      if (from < 0) continue;
      for (int dir = 0; dir < 6; ++dir) {
        const int nb = g_->grid_.neighbour(from, dir);
        if (nb < 0 || stack_[enemy][nb] == 0 || !projects_zoc_into(nb, from)) continue;
        if (declaration_of(nb) < 0)
          return Error{g_->units_[u].label + " attacks from " + g_->grid_.id(from) + ": " + g_->grid_.id(nb) +
                           " projects a ZOC into that hex and must be attacked too (declare it, or take back "
                           "the attack on " +
                           g_->grid_.id(x.hexes[0]) + ")",
                       "12.7", ""};
      }
    }
  return Status::ok();
}

}  // namespace agc
