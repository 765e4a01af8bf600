// 14.0 Defender Reaction. "After Attack Declaration ..., the defending player has a chance to make
// adjustments": in the enemy's Reaction Phase (4.2) the defender issues retreat Orders (14.3),
// commits artillery to declared attacks (14.2) and moves motorized units near the declared
// combats (14.1). Soviet HQs (22.1) give the command points: one a dispatched reacting unit
// (22.1.2b) and one an Order (22.1.2c), each its own allowance of a segment (ruling A-7). Non-Op
// HQs (22.2, special_units.cpp) give none and win where the ranges overlap (22.2.2); Overrun
// markers (11.4) are not in play yet; interdiction lowers the command value (13.2.5, air.cpp).
#include <algorithm>

#include "games/agc/agc.h"

namespace agc {

using steppe::Error;
using steppe::Status;

int AgcState::support_of(int u) const {
  return us_[u].steps_lost == 0 ? g_->units_[u].support : g_->units_[u].reduced_support;
}

// 14.3.4a: "Be within the command range of an operational Soviet HQ. This HQ must have an
// available, non-interdicted command point"; 14.1.1b likewise for reaction. 22.1.1: "a Command
// Range of four hexes ... do not count the hex occupied by the HQ unit" (ruling A-11: d <= 4).
int AgcState::hq_for(int hex, bool orders) const {
  // 22.2.4a, c: a Non-Op HQ issues no Orders and lets no unit react; 22.2.2: its range wins.
  if (!hq_operational_in(hex)) return -1;
  for (size_t u = 0; u < us_.size(); ++u) {
    const auto& d = g_->units_[u];
    if (!d.hq || d.side != kSoviet || us_[u].hex < 0 || us_[u].nonop) continue;
    if (g_->grid_.distance(us_[u].hex, hex) > g_->hq_range_) continue;
    const int used = orders ? us_[u].orders_issued : us_[u].dispatched;
    if (used < command_value(static_cast<int>(u))) return static_cast<int>(u);  // 13.2.5: interdicted
  }
  return -1;
}

// 14.3.5: "NKVD units in town, city, or major city defender hexes automatically confer No Retreat
// status on those hexes without requiring a retreat Order"; 14.3.1: "An Order placed on any hex
// of a multiple-hex combat applies to all hexes."
Order AgcState::order_of(int decl) const {
  const Declared& x = decl_[decl];
  if (x.order != kNoOrder) return x.order;
  for (int h : x.hexes)
    if (g_->nkvd_no_retreat_[g_->settlement_[h]] && hq_operational_in(h))  // 22.2.5e: not near a Non-Op HQ
      for (size_t u = 0; u < us_.size(); ++u)
        if (us_[u].hex == h && g_->units_[u].nkvd) return kNoRetreat;
  return kNoOrder;
}

Status AgcState::check_order(int hex, Order o) const {
  if (!reaction_phase())
    return Error{"retreat Orders are issued by the defender in the Reaction Phase", "14.3.1, 14.0", ""};
  if (o == kNoOrder) return Error{"an Order is No Retreat or Additional Retreat", "14.3.1", ""};
  const int i = declaration_of(hex);
  if (i < 0)
    return Error{"Orders go only to defender hexes bearing Declared Attack markers: " + g_->grid_.id(hex) +
                     " bears none",
                 "14.3.1", ""};
  if (decl_[i].order != kNoOrder)
    return Error{"the attack on " + g_->grid_.id(hex) +
                     " already has an Orders marker (an Order on any hex of a multiple-hex combat applies "
                     "to all hexes)",
                 "14.3.1", ""};
  if (order_of(i) == kNoRetreat)
    return Error{
        "NKVD units confer No Retreat on " + g_->grid_.id(hex) + ": do not place Orders markers there",
        "14.3.5", ""};
  // 14.3.3: "There are no restrictions on the number of Axis defender hexes that may receive
  // retreat Orders."
  if (side_of_phase() == kSoviet && !hq_operational_in(hex))
    return Error{g_->grid_.id(hex) + " is within the Command Range of a Non-Op HQ: no retreat Orders there",
                 "22.2.4a, 22.2.2", ""};
  if (side_of_phase() == kSoviet && hq_for(hex, true) < 0)
    return Error{
        g_->grid_.id(hex) + " is not within the command range of a Soviet HQ with an available command point",
        "14.3.4, 22.1.2", ""};
  return Status::ok();
}

void AgcState::do_order(int hex, Order o) {
  const int i = declaration_of(hex);
  if (side_of_phase() == kSoviet) {
    const int hq = hq_for(hex, true);
    ++us_[hq].orders_issued;  // 22.1.2c
  }
  decl_[i].order = o;
  // 14.3.2: the marker is "placed face down": the attacker learns that an Order is there, not
  // which one, until his Combat Phase reveals it.
  const int defender = side_of_phase();
  emit({"order",
        std::string(o == kNoRetreat ? "No Retreat" : "Additional Retreat") + " Order on " + g_->grid_.id(hex),
        "14.3.1",
        1u << defender,
        false,
        {}});
  emit({"order",
        "an Orders marker face down on " + g_->grid_.id(hex),
        "14.3.2",
        1u << (1 - defender),
        false,
        {}});
}

// 14.3.2: the attacker, before his Combat Phase, knows where the face-down Orders markers lie
// but not which they are: a determinization for him draws each one's type anew. (An NKVD No
// Retreat, 14.3.5, is no marker and stays as it is.)
void AgcState::resample_hidden(int viewer, uint64_t seed) {
  dice_.reseed(seed);
  uint64_t x = seed ^ 0x9e3779b97f4a7c15ULL;
  if (viewer == attacker_side() && !combat_phase())
    for (auto& d : decl_) {
      if (d.order == kNoOrder || d.resolved) continue;
      x = steppe::splitmix64(x);
      d.order = (x >> 32) % 2 == 0 ? kNoRetreat : kAdditionalRetreat;
    }
  resample_untried(x);  // 22.9.1 (specialized.cpp)
  // 17.1.8: the enemy's face-down air units. The viewer knows how many lie on each mission hex and
  // which units are either in the Ready Box or face down somewhere, not which is where nor its
  // role: a sample draws them anew from that pool (Soviet interceptors from its fighters and
  // dummies, 17.1.6).
  const int enemy = 1 - viewer;
  std::vector<int> pool, slots;
  for (size_t u = 0; u < us_.size(); ++u) {
    const auto& d = g_->units_[u];
    if (!d.air || d.side != enemy || (us_[u].box != kAirReady && us_[u].box != kAirMission)) continue;
    if (us_[u].box == kAirMission && us_[u].mission == air_hex_) continue;  // 17.2.1: revealed
    if (us_[u].box == kAirMission) slots.push_back(us_[u].mission);
    if (phase_ == kAxisInterdiction && enemy == kSoviet && d.air_type == kBomber) continue;
    pool.push_back(static_cast<int>(u));
  }
  if (slots.empty()) return;
  for (size_t i = pool.size(); i > 1; --i) {
    x = steppe::splitmix64(x);
    std::swap(pool[i - 1], pool[(x >> 16) % i]);
  }
  for (int u : pool) {
    us_[u].box = kAirReady;
    us_[u].mission = -1;
    us_[u].firing = false;
    us_[u].role_open = false;
  }
  for (size_t i = 0; i < slots.size() && i < pool.size(); ++i) {
    const int u = pool[i];
    const auto& d = g_->units_[u];
    us_[u].box = kAirMission;
    us_[u].mission = static_cast<int16_t>(slots[i]);
    us_[u].firing = d.air_type == kFighter && !dual_purpose(u);  // 17.2.2
    us_[u].role_open = dual_purpose(u);
  }
}

// 14.2.1: "The defender may commit artillery to declared attacks. Each artillery unit committed
// adds its support strength to the defense strength of the defender hex(es) of one declared
// attack ... Once it is committed, a defending artillery unit may not transfer its support
// strength to any other combat." 14.2.2: the qualifiers are on the (missing) chart card: here the
// counter's range in hexes to the defender hex (ruling A-44), in supply (6.7.4), and not in an
// enemy ZOC outside the defender hex (15.5.5 Note).
Status AgcState::check_support(int u, int hex) const {
  const auto& d = g_->units_[u];
  if (!reaction_phase())
    return Error{"the defender commits artillery in the Reaction Phase", "14.2.1, 14.0", ""};
  if (d.side != side_of_phase()) return Error{d.label + " is not the defender's", "14.2.1", ""};
  if (!d.artillery || d.support <= 0)
    return Error{d.label + " is not an artillery unit with a support strength", "14.2.1", ""};
  if (us_[u].hex < 0) return Error{d.label + " is not on the map", "14.2.1", ""};
  const int i = declaration_of(hex);
  if (i < 0) return Error{g_->grid_.id(hex) + " bears no Declared Attack marker", "14.2.1", ""};
  for (const auto& x : decl_)
    if (std::find(x.support.begin(), x.support.end(), u) != x.support.end())
      return Error{d.label + " is already committed to the attack on " + g_->grid_.id(x.hexes[0]) +
                       ": it may not transfer its support strength",
                   "14.2.1", ""};
  if (us_[u].out_of_supply)
    return Error{d.label + " is out of supply: artillery cannot use its support strength", "6.7.4", ""};
  bool in_hex = false, in_range = true;
  for (int h : decl_[i].hexes) {
    in_hex = in_hex || us_[u].hex == h;
    if (g_->grid_.distance(us_[u].hex, h) > d.range) in_range = false;
  }
  if (!in_range)
    return Error{
        d.label + " is beyond its range of " + std::to_string(d.range) + " hexes from " + g_->grid_.id(hex),
        "14.2.2", ""};
  if (d.side == kSoviet && static_cast<int>(decl_[i].support.size()) >= max_artillery(hex))
    return Error{
        "within a Non-Op HQ's Command Range no more than one Soviet artillery unit supports a combat",
        "22.2.5d", ""};
  if (!in_hex && in_enemy_zoc(us_[u].hex, d.side))
    return Error{d.label + " is in an enemy ZOC: it cannot contribute its support strength", "15.5.5, 14.2.2",
                 ""};
  return Status::ok();
}

void AgcState::do_support(int u, int hex) {
  const int i = declaration_of(hex);
  decl_[i].support.push_back(static_cast<int16_t>(u));
  emit({"support",
        g_->units_[u].label + " commits " + std::to_string(support_of(u)) + " support to the defense of " +
            g_->grid_.id(hex),
        "14.2.1",
        0xFFFFFFFFu,
        false,
        {}});
}

// 14.1.1: "the defender may be able to move his motorized units that are within three hexes of a
// declared combat hex up to half their movement allowance" (the Movement Phase Chart's reaction
// row), if a. it does not begin movement in an enemy ZOC, b. (Soviet) it is within Command Range
// of an HQ with an available command point, d. it bears no Out of Supply marker. 14.1.2: "A
// reacting unit cannot move adjacent to an enemy unit or into an enemy ZOC unless ... a friendly
// unit already occupies that hex"; there it stops (10.6.5).
Status AgcState::check_reaction_move(int u, int to) const {
  const auto& d = g_->units_[u];
  const auto& s = us_[u];
  if (!s.moved) {
    if (decl_.empty()) return Error{"no combat was declared: no Reaction Movement is possible", "14.1", ""};
    bool near = false;
    for (const auto& x : decl_)
      for (int h : x.hexes) near = near || g_->grid_.distance(s.hex, h) <= g_->reaction_range_;
    if (!near)
      return Error{d.label + " is not within " + std::to_string(g_->reaction_range_) +
                       " hexes of a declared combat hex",
                   "14.1.1", ""};
    if (in_enemy_zoc(s.hex, d.side))
      return Error{d.label + " begins in an enemy ZOC: it may not react", "14.1.1", ""};
    if (s.out_of_supply)
      return Error{d.label + " bears an Out of Supply marker: it may not react", "14.1.1", ""};
    if (d.side == kSoviet && !hq_operational_in(s.hex))
      return Error{d.label + " is within the Command Range of a Non-Op HQ: it may not react",
                   "22.2.4c, 22.2.2", ""};
    if (d.side == kSoviet && hq_for(s.hex, false) < 0)
      return Error{
          d.label + " is not within the Command Range of a Soviet HQ with an available command point",
          "14.1.1, 22.1.2", ""};
  }
  bool next_to_enemy = in_enemy_zoc(to, d.side);
  for (int dir = 0; dir < 6 && !next_to_enemy; ++dir) {
    const int nb = g_->grid_.neighbour(to, dir);
    next_to_enemy = nb >= 0 && stack_[1 - d.side][nb] != 0;
  }
  if (next_to_enemy && stack_[d.side][to] == 0)
    return Error{d.label +
                     " may move adjacent to an enemy unit or into an enemy ZOC only where a friendly unit "
                     "already is",
                 "14.1.2", ""};
  return Status::ok();
}

void AgcState::dispatch_reaction(int u) {
  if (g_->units_[u].side != kSoviet) return;
  const int hq = hq_for(us_[u].hex, false);
  if (hq >= 0) ++us_[hq].dispatched;  // 22.1.2b
}

}  // namespace agc
