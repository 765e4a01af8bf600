// Strategic Bombing Raids (3.36.1) and repairs (1.2.9, 3.37).
//
// A raid is announced in the Combat Move (`sbr COUNT BOMBER FROM ZONE TARGET`): the bombers
// spend the move and take no part in general combat. At the start of the Combat step every raid
// is resolved before any battle: the zone's AA guns fire one d12 per bomber, then each bomber
// left rolls its SBR dice (Tac 3, Bomber 4, Heavy 2 x 4); a hit on an IC, base or railroad is
// rerolled for the damage points, a hit on an AA gun, supply or train destroys it. The bombers
// then are back where they flew from. Escorts and interceptors are not played yet.
#include <algorithm>

#include "games/aa/state.h"

namespace steppe::aa {

bool AaState::sbr_target_present(int zone, int target) const {
  const int enemy = 1 - active_;
  const Zone& z = g_->zone(zone);
  if (!z.land() || controller(zone) != enemy) return false;
  switch (target) {
    case kIndustrialComplex:
      return z.ic;
    case kRailroad:
      return true;
    default: {
      const int type = g_->base_index(sbr_target_id(target));
      for (const Unit& u : units_)
        if (u.zone == zone && u.type == type && side_of(u.nation) == enemy) return true;
      return false;
    }
  }
}

Status AaState::check_sbr(const Action& a) const {
  if (phase_ != Phase::kCombatMove) return rule_error("3.25", "raids are flown in the Combat Move");
  if (a.nargs != 6 || a.args[0] < 1 || a.args[1] < 0 || a.args[1] >= kNationCount || a.args[2] < 0 ||
      a.args[2] >= g_->base_type_count() || a.args[3] < 0 || a.args[3] >= g_->zone_count() || a.args[4] < 0 ||
      a.args[4] >= g_->zone_count() || a.args[5] < 0 || a.args[5] >= kTargetCount)
    return Error{"usage: sbr COUNT BOMBER FROM ZONE TARGET", "", ""};
  const int n = a.args[0], nation = a.args[1], type = a.args[2], from = a.args[3], zone = a.args[4],
            target = a.args[5];
  if (side_of(nation) != active_) return rule_error("1.2", "it is not that side's move");
  if (active_ == kAxis && zone == protected_zone_)  // 4.4.2 Russia's card 5
    return rule_error("4.4.2",
                      "counter intelligence: the Axis cannot attack " + g_->zone(zone).name + " this turn");
  const UnitType& t = g_->base(type);
  if (t.sbr_hit <= 0) return rule_error("3.36.1", "only Tactical, Medium and Heavy bombers raid");
  if (std::find(t.sbr_targets.begin(), t.sbr_targets.end(), sbr_target_id(target)) == t.sbr_targets.end())
    return rule_error("3.36.1", t.name + " cannot target " + sbr_target_id(target) +
                                    " (Tactical bombers: trains, supplies, naval and air bases)");
  if (!sbr_target_present(zone, target))
    return rule_error("3.36.1",
                      std::string("no enemy ") + sbr_target_id(target) + " in " + g_->zone(zone).name);
  if (movable(from, nation, type) < n)
    return rule_error("3.25", "not that many " + t.name + " ready in " + g_->zone(from).name);
  int best = 0, have = 0;
  std::vector<int> mps;
  for (const Unit& u : units_)
    if (u.zone == from && u.nation == nation && u.type == type && !u.locked && u.mp > 0) mps.push_back(u.mp);
  std::sort(mps.rbegin(), mps.rend());
  have = static_cast<int>(mps.size());
  if (have >= n) best = mps[static_cast<size_t>(n - 1)];
  const int cost = move_cost(from, zone, nation, type, nullptr);
  if (cost < 0 || cost > best)
    return rule_error("3.25", g_->zone(zone).name + " is beyond the bombers' movement");
  return Status::ok();
}

void AaState::apply_sbr(const Action& a) {
  const int n = a.args[0], nation = a.args[1], type = a.args[2], from = a.args[3], zone = a.args[4],
            target = a.args[5];
  std::vector<size_t> chosen;
  for (size_t i = 0; i < units_.size(); ++i) {
    const Unit& u = units_[i];
    if (u.zone == from && u.nation == nation && u.type == type && !u.locked && u.mp > 0) chosen.push_back(i);
  }
  std::stable_sort(chosen.begin(), chosen.end(),
                   [&](size_t x, size_t y) { return units_[x].mp > units_[y].mp; });
  for (size_t k = 0; k < static_cast<size_t>(n); ++k) units_[chosen[k]].mp = 0;  // the raid is their move
  raids_.push_back(Raid{zone, target, from, nation, type, n});
  log("sbr",
      std::to_string(n) + " " + g_->base(type).name + " from " + g_->zone(from).name + " raid " +
          g_->zone(zone).name + " (" + sbr_target_id(target) + ") (3.36.1)",
      "3.36.1");
}

void AaState::resolve_raids() {
  const int aa_gun = g_->base_index("aa_gun");
  for (const Raid& r : raids_) {
    const UnitType& t = g_->base(r.type);
    const std::string& name = g_->zone(r.zone).name;
    // "AA guns and any targeted unit that has an AA ability fires at this time and casualties
    // are removed": one die per bomber at the AA gun's value (ruling "AA fire").
    int aa_value = 0;
    for (const Unit& u : units_)
      if (u.zone == r.zone && u.type == aa_gun && side_of(u.nation) != active_)
        aa_value = g_->base(aa_gun).anti_aircraft;
    int bombers = r.count;
    if (aa_value > 0) {
      std::string rolls;
      int shot = 0;
      for (int i = 0; i < r.count; ++i) {
        const int v = dice_.roll(12);
        rolls += (rolls.empty() ? "" : " ") + std::to_string(v);
        if (v <= aa_value) ++shot;
      }
      bombers -= shot;
      int to_remove = shot;
      std::vector<Unit> kept;
      for (const Unit& u : units_) {
        if (to_remove > 0 && u.zone == r.from && u.nation == r.nation && u.type == r.type && u.mp == 0) {
          --to_remove;
          continue;
        }
        kept.push_back(u);
      }
      units_ = std::move(kept);
      Event e{"roll",
              "Raid on " + name + ": AA [" + rolls + "] shoots down " + std::to_string(shot) + " (3.36.1)",
              "3.36.1",
              0xFFFFFFFFu,
              true,
              Json{{"aa", rolls}}};
      emit(std::move(e));
    }
    std::string rolls;
    int hits = 0;
    for (int i = 0; i < bombers * t.sbr_dice; ++i) {
      const int v = dice_.roll(12);
      rolls += (rolls.empty() ? "" : " ") + std::to_string(v);
      if (v <= t.sbr_hit) ++hits;
    }
    std::string result;
    if (r.target <= kRailroad) {
      // "each hit is rerolled for the amount of damage done to the target"
      int points = 0;
      std::string rerolls;
      for (int i = 0; i < hits; ++i) {
        const int v = dice_.roll(12);
        rerolls += (rerolls.empty() ? "" : " ") + std::to_string(v);
        points += v;
      }
      auto& dmg = damage_[static_cast<size_t>(r.target)][static_cast<size_t>(r.zone)];
      dmg = std::min(g_->rules().facility_capacity[static_cast<size_t>(r.target)], dmg + points);
      result = std::to_string(hits) + " hits, damage [" + rerolls + "] = " + std::to_string(points) + "; " +
               sbr_target_id(r.target) + " damage now " + std::to_string(dmg) +
               (inoperable(r.zone, r.target) ? ", inoperable" : "");
    } else {
      // "AA guns, supplies, and trains are destroyed if targeted and hit."
      const int type = g_->base_index(sbr_target_id(r.target));
      int left = hits, gone = 0;
      std::vector<Unit> kept;
      for (const Unit& u : units_) {
        if (left > 0 && u.zone == r.zone && u.type == type && side_of(u.nation) != active_) {
          --left;
          ++gone;
          continue;
        }
        kept.push_back(u);
      }
      units_ = std::move(kept);
      result = std::to_string(hits) + " hits, " + std::to_string(gone) + " " + sbr_target_id(r.target) +
               " destroyed";
    }
    Event e{"roll",   "Raid on " + name + ": bombers [" + rolls + "] " + result + " (3.36.1)",
            "3.36.1", 0xFFFFFFFFu,
            true,     Json{{"zone", g_->zone(r.zone).id}, {"hits", hits}}};
    emit(std::move(e));
  }
  raids_.clear();
}

// 1.2.9: "Damage inflicted by enemy SBR attacks may be repaired by spending Build Points. Each
// damage point costs 1 Build Point to repair."
Status AaState::check_repair(const Action& a) const {
  if (phase_ != Phase::kPlace)
    return rule_error("1.2.9", "repairs are made in the Place Purchases/Repair step");
  if (a.nargs != 3 || a.args[0] < 0 || a.args[0] >= g_->zone_count() || a.args[1] < 0 ||
      a.args[1] > kRailroad || a.args[2] < 1)
    return Error{"usage: repair ZONE FACILITY POINTS", "", ""};
  const int zone = a.args[0], target = a.args[1], points = a.args[2];
  if (controller(zone) != active_) return rule_error("3.37", "a side repairs its own facilities");
  if (damage(zone, target) < points)
    return rule_error("3.37", std::string("the ") + sbr_target_id(target) + " in " + g_->zone(zone).name +
                                  " has " + std::to_string(damage(zone, target)) + " damage");
  if (points * g_->rules().repair_cost_per_point > bp(active_))
    return rule_error("1.2.9",
                      "each damage point costs 1 Build Point; no Build Points were held over for it");
  return Status::ok();
}

void AaState::apply_repair(const Action& a) {
  const int zone = a.args[0], target = a.args[1], points = a.args[2];
  damage_[static_cast<size_t>(target)][static_cast<size_t>(zone)] -= points;
  bp_[static_cast<size_t>(active_)] -= points * g_->rules().repair_cost_per_point;
  log("repair",
      std::to_string(points) + " damage repaired on the " + sbr_target_id(target) + " in " +
          g_->zone(zone).name + " (3.37)",
      "3.37");
}

}  // namespace steppe::aa
