// Purchase/Build Units (1.2.3), Place Purchases (1.2.9) with the placement limits of 2.1-2.11
// and 3.24, and the end of each step.
#include <algorithm>

#include "games/aa/state.h"

namespace steppe::aa {

namespace {

const char* pool_rule(int pool) { return pool == kLendLease ? "2.10" : pool == kSiberian ? "2.11" : "1.2.3"; }

}  // namespace

// 1.2.3: the printed cost; 4.4.1 Axis card 8: "1 Build Point buys 2 supply tokens for this turn only".
long AaState::buy_cost(int type, int n) const {
  const UnitType& t = g_->base(type);
  const long per_bp = murphy_value(active_, "supplies_per_bp");
  if (t.id == "supply" && per_bp > 1) return (static_cast<long>(n) + per_bp - 1) / per_bp * t.cost;
  return static_cast<long>(t.cost) * n;
}

Status AaState::check_buy(const Action& a) const {
  if (phase_ != Phase::kPurchase)
    return rule_error("1.2.3",
                      std::string("units are bought in the Purchase step, not in ") + phase_name(phase_));
  if (a.nargs != 3 || a.args[0] < 1 || a.args[1] < 0 || a.args[1] >= g_->base_type_count() || a.args[2] < 0 ||
      a.args[2] > kSiberian)
    return Error{"usage: buy COUNT TYPE [lend-lease|siberian]", "", ""};
  const int n = a.args[0], type = a.args[1], pool = a.args[2];
  const UnitType& t = g_->base(type);
  // Advanced Setup units (3.13-3.17, 3.22, 3.23) and the optional rules' pieces (4.3, 4.5) are
  // refused citing the unit's own section (its "rule" in units.json); an elite of the other
  // nation, 3.2.
  if (t.advanced || t.optional)
    if (!g_->purchasable(active_, type))
      return rule_error(
          t.section, t.name + (t.advanced ? " is an (Advanced Setup) unit" : " belongs to an optional rule") +
                         ", not bought in the basic game");
  if (!g_->purchasable(active_, type))
    return rule_error("3.2", t.name + " cannot be bought by " + (active_ == kAxis ? "Germany" : "Russia"));
  if (pool != kMainPool && active_ != kRussia)
    return rule_error(pool_rule(pool), "only Russia has that pool");
  // 2.10: "All units purchased have to be non-infantry".
  if (pool == kLendLease && t.id == "infantry")
    return rule_error("2.10", "Lend/Lease units have to be non-infantry");
  // 3.2: "Only 2 units may be purchased per turn" (elites); 6 with the Murphy card 7 (4.4.1
  // "6 SS units can be purchased on this turn", 4.4.2 "6 Guard units").
  const int elite_limit = murphy_card(active_, "elite_limit") != nullptr
                              ? murphy_value(active_, "elite_limit")
                              : g_->rules().elite_per_turn;
  if (t.elite && elite_bought_[static_cast<size_t>(active_)] + n > elite_limit)
    return rule_error(elite_limit != g_->rules().elite_per_turn ? "3.2, 4.4" : "3.2",
                      "only " + std::to_string(elite_limit) + " elite units may be bought this turn");
  if (buy_cost(type, n) > bp(active_, pool))
    return rule_error(pool_rule(pool), std::to_string(n) + " " + t.name + " cost " +
                                           std::to_string(buy_cost(type, n)) + " BP; the pool holds " +
                                           std::to_string(bp(active_, pool)));
  return Status::ok();
}

void AaState::apply_buy(const Action& a) {
  const int n = a.args[0], type = a.args[1], pool = a.args[2];
  const UnitType& t = g_->base(type);
  const int cost = static_cast<int>(buy_cost(type, n));
  if (pool == kLendLease) {
    lend_lease_bp_ -= cost;
  } else if (pool == kSiberian) {
    siberian_bp_ -= cost;
  } else {
    bp_[static_cast<size_t>(active_)] -= cost;
  }
  if (t.elite) elite_bought_[static_cast<size_t>(active_)] += n;
  const int nation = active_ == kAxis ? kGermany : kRussiaNation;
  auto it = std::find_if(pending_.begin(), pending_.end(), [&](const Pending& p) {
    return p.nation == nation && p.type == type && p.pool == pool;
  });
  if (it == pending_.end()) {
    pending_.push_back(Pending{nation, type, pool, n});
  } else {
    it->count += n;
  }
  log("buy",
      std::string(nation_id(nation)) + " buys " + std::to_string(n) + " " + t.name + " for " +
          std::to_string(cost) + " BP (" + pool_rule(pool) + ")",
      pool_rule(pool));
}

Status AaState::check_place(const Action& a) const {
  if (phase_ != Phase::kPlace)
    return rule_error(
        "1.2.9", std::string("units are placed in the Place Purchases step, not in ") + phase_name(phase_));
  if (a.nargs != 5 || a.args[0] < 1 || a.args[1] < 0 || a.args[1] >= kNationCount || a.args[2] < 0 ||
      a.args[2] >= g_->base_type_count() || a.args[3] < 0 || a.args[3] > kSiberian || a.args[4] < 0 ||
      a.args[4] >= g_->zone_count())
    return Error{"usage: place COUNT UNIT ZONE [lend-lease|siberian]", "", ""};
  const int n = a.args[0], nation = a.args[1], type = a.args[2], pool = a.args[3], zone = a.args[4];
  if (side_of(nation) != active_) return rule_error("1.2.9", "it is not that side's placement");
  const auto it = std::find_if(pending_.begin(), pending_.end(), [&](const Pending& p) {
    return p.nation == nation && p.type == type && p.pool == pool;
  });
  const UnitType& t = g_->base(type);
  if (it == pending_.end() || it->count < n)
    return rule_error("1.2.9", "not that many " + t.name + " waiting to be placed");
  return placement_zone(nation, type, pool, zone, n);
}

// The zones of 1.2.9 and 2.1-2.11 where `nation` places `n` units of `type` (from `pool`).
Status AaState::placement_zone(int nation, int type, int pool, int zone, int n) const {
  const UnitType& t = g_->base(type);
  const Zone& z = g_->zone(zone);
  if (!z.land() || controller(zone) != active_ || enemy_units_in(zone, active_))
    return rule_error("1.2.9", "units are placed in a friendly zone without enemy units");
  const bool supply = t.id == "supply";
  // 3.24: "No more than 10 supplies per zone can be placed in a turn."
  if (supply && placed_supply_[static_cast<size_t>(zone)] + n > g_->rules().supply_placement_limit)
    return rule_error("3.24", "no more than 10 supplies per zone can be placed in a turn");
  // 3.9: an Air Base is "Purchased and placed on any friendly territory" (and so a Naval Base).
  if (t.facility) return Status::ok();
  const std::string& rz = z.reinforcement;
  switch (nation) {
    case kGermany:
      // 2.1: "All German units and supplies enter the board in German Reinforcement Zones 1 and 2."
      // 4.4.1 Axis card A: "place all purchased units in the Italian reinforcement zone".
      if (murphy_card(kAxis, "rommel") != nullptr) {
        if (rz != "italian")
          return rule_error("4.4.1",
                            "Rommel is back: this turn German units are placed in the Italian "
                            "Reinforcement Zone");
        return Status::ok();
      }
      if (rz != "german_1" && rz != "german_2")
        return rule_error("2.1", "German units enter in German Reinforcement Zones 1 and 2");
      return Status::ok();
    case kHungary:
      if (z.id != "budapest") return rule_error("2.2", "Hungarian units are placed in Budapest");
      return Status::ok();
    case kItaly:
    case kSpain:
      if (rz != "italian")
        return rule_error(nation == kItaly ? "2.3" : "2.7", "placed in the Italian Reinforcement Zone");
      return Status::ok();
    case kRomania:
    case kBulgaria:
    case kFinland: {
      const char* rule = nation == kRomania ? "2.4" : nation == kBulgaria ? "2.5" : "2.6";
      if (z.original_owner != nation)
        return rule_error(rule, std::string("placed in original ") + nation_id(nation) + " territory");
      return Status::ok();
    }
    default:
      break;
  }
  // Russia (2.8-2.11).
  const bool lend_lease_zone = rz == "lend_lease", siberian_zone = rz.rfind("siberian", 0) == 0;
  if (pool == kLendLease) {
    if (!lend_lease_zone)
      return rule_error("2.10", "Lend/Lease units are placed in the Lend/Lease Reinforcement Zone");
    return Status::ok();
  }
  if (pool == kSiberian) {
    if (!siberian_zone)
      return rule_error("2.11", "Siberian units are placed in the Siberian Reinforcement Zones");
    return Status::ok();
  }
  if (t.id == "infantry") {
    // 2.9: "Infantry are placed in city zones; the number per city is not to exceed the city
    // zones' point value ... Infantry can be placed in the Lend/Lease and Siberian reinforcement zones."
    if (lend_lease_zone || siberian_zone) return Status::ok();
    if (z.vp <= 0)
      return rule_error("2.9", "Russian infantry are placed in city zones (or the reinforcement zones)");
    // 4.4.2 Russia's card 10: "The number of infantry that can be placed in city zones is doubled".
    const int limit = z.vp * std::max(1, murphy_value(kRussia, "infantry_city_limit"));
    if (placed_infantry_[static_cast<size_t>(zone)] + n > limit)
      return rule_error(limit != z.vp ? "2.9, 4.4.2" : "2.9",
                        "no more than " + std::to_string(limit) + " infantry a turn in " + z.name);
    return Status::ok();
  }
  if (supply) {
    // 3.24: "Supplies are placed on the map in zones containing IC's or in the reinforcement zones".
    if (!z.ic && !lend_lease_zone && !siberian_zone)
      return rule_error("3.24", "supplies are placed in IC zones or the reinforcement zones");
    return Status::ok();
  }
  // 2.9: "Purchased/built units must be placed on the board in a zone that contains an IC ...
  // Maximum number of purchased units that can be placed in a zone containing an IC is 10."
  if (!z.ic) return rule_error("2.9", "Russian units are placed in zones with an Industrial Complex");
  if (inoperable(zone, kIndustrialComplex))
    return rule_error("3.37", "the Industrial Complex in " + z.name + " is inoperable until repaired");
  if (placed_other_[static_cast<size_t>(zone)] + n > g_->rules().ic_placement_limit)
    return rule_error("2.9", "no more than 10 units a turn in an IC zone (infantry apart)");
  return Status::ok();
}

void AaState::apply_place(const Action& a) {
  const int n = a.args[0], nation = a.args[1], type = a.args[2], pool = a.args[3], zone = a.args[4];
  auto it = std::find_if(pending_.begin(), pending_.end(), [&](const Pending& p) {
    return p.nation == nation && p.type == type && p.pool == pool;
  });
  it->count -= n;
  if (it->count == 0) pending_.erase(it);
  const UnitType& t = g_->base(type);
  for (int i = 0; i < n; ++i) {
    Unit u;
    u.nation = nation;
    u.type = type;
    u.zone = zone;
    units_.push_back(u);
  }
  if (t.id == "supply") {
    placed_supply_[static_cast<size_t>(zone)] += n;
  } else if (t.id == "infantry") {
    placed_infantry_[static_cast<size_t>(zone)] += n;
  } else {
    placed_other_[static_cast<size_t>(zone)] += n;
  }
  log("place",
      std::to_string(n) + " " + nation_id(nation) + " " + t.name + " placed in " + g_->zone(zone).name +
          " (1.2.9)",
      "1.2.9");
}

Status AaState::check_end(const Action& a) const {
  if (a.nargs != 0) return Error{"usage: end", "", ""};
  if (phase_ == Phase::kOver) return rule_error("1.3", "the game is over");
  if (decision_zone_ >= 0) return rule_error("3.33", "the defender decides first whether to retreat");
  // 1.2.5: "Territories containing units from both sides must resolve combat".
  if (phase_ == Phase::kCombat && !battles_.empty())
    return rule_error("1.2.5",
                      "every battle must be resolved first (" + g_->zone(battles_.front()).name + ")");
  return Status::ok();
}

void AaState::apply_end(const Action&) {
  // 3.7, 3.23: units aboard get off where their trucks and transports stand.
  if (phase_ == Phase::kCombatMove || phase_ == Phase::kNonCombatMove) unload_all();
  if (phase_ == Phase::kNonCombatMove) land_aircraft();
  // 3.33: units that sat out this movement sequence for low morale may move again.
  if (phase_ == Phase::kCombatMove || phase_ == Phase::kNonCombatMove)
    for (Unit& u : units_)
      if (side_of(u.nation) == active_ && u.morale == 2) u.morale = 0;
  // Units not placed wait for the next Place Purchases step (ruling "Units not placed").
  enter_step(step_ + 1);
}

}  // namespace steppe::aa
