// Generals (4.5, optional; the attribute chart 4.5.1 is data/aa/generals.json, the generals the
// tables of IV E in setup.json): "Generals have attributes that modify other units' attack and
// defense values during combat."
//
//   general NAME ZONE    4.5   a general picked for the side is placed (Purchase or Place step)
//
// Played with the scenario option "generals" (`barbarossa+generals`). A general is a piece of
// type `general` (0/0/4/0) that moves like a land unit, goes into battles with its side's
// units, takes no hits, and is destroyed when its side loses a battle it is in (ruling
// "Generals").
#include <algorithm>

#include "games/aa/state.h"

namespace steppe::aa {

// 4.5: "Each general is picked randomly": one of the nation's generals not yet picked.
void AaState::draw_general(int nation, const std::string& why) {
  const auto& all = g_->generals();
  std::vector<int> pool;
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].nation == nation && (generals_drawn_ & (1u << i)) == 0) pool.push_back(static_cast<int>(i));
  if (pool.empty()) return;
  const int pick =
      pool.size() == 1
          ? pool.front()
          : pool[static_cast<size_t>(roll(static_cast<int>(pool.size()), "general picked", "4.5") - 1)];
  generals_drawn_ |= 1u << pick;
  generals_waiting_.push_back(pick);
  const General& gen = all[static_cast<size_t>(pick)];
  log("general",
      std::string(nation_id(nation)) + " receives General " + gen.name + " (skill " +
          std::to_string(gen.skill) + ", attribute " + std::to_string(gen.attribute) + "): " + why + " (4.5)",
      "4.5");
}

Status AaState::check_general(const Action& a) const {
  if (a.nargs != 2 || a.args[0] < 0 || a.args[0] >= static_cast<int>(g_->generals().size()) ||
      a.args[1] < 0 || a.args[1] >= g_->zone_count())
    return Error{"usage: general NAME ZONE", "", ""};
  if (!generals_) return rule_error("4.5", "generals are an optional rule this game does not use");
  const int id = a.args[0], zone = a.args[1];
  const General& gen = g_->generals()[static_cast<size_t>(id)];
  if (std::find(generals_waiting_.begin(), generals_waiting_.end(), id) == generals_waiting_.end())
    return rule_error("4.5", "General " + gen.name + " is not waiting to be placed");
  if (side_of(gen.nation) != active_) return rule_error("1.2", "it is not that side's step");
  // "Each country follows the same placement rules as purchased units when placing a general".
  if (phase_ != Phase::kPurchase && phase_ != Phase::kPlace)
    return rule_error("4.5, 1.2.9", "generals are placed in the side's Purchase or Place Purchases step");
  // "Minor Axis countries ... have to place their general in their own country."
  if (minor_axis(gen.nation) && g_->zone(zone).original_owner != gen.nation &&
      !(gen.nation == kItaly && g_->zone(zone).reinforcement == "italian"))
    return rule_error("4.5", "a minor Axis general is placed in its own country");
  return placement_zone(gen.nation, g_->base_index("general"), kMainPool, zone, 1);
}

void AaState::apply_general(const Action& a) {
  const int id = a.args[0], zone = a.args[1];
  const General& gen = g_->generals()[static_cast<size_t>(id)];
  generals_waiting_.erase(std::find(generals_waiting_.begin(), generals_waiting_.end(), id));
  Unit u;
  u.nation = gen.nation;
  u.type = g_->base_index("general");
  u.zone = zone;
  u.general = id + 1;
  units_.push_back(u);
  log("general", "General " + gen.name + " takes command in " + g_->zone(zone).name + " (4.5)", "4.5");
}

void AaState::gen_general(std::vector<Action>& out) const {
  if (!generals_ || (phase_ != Phase::kPurchase && phase_ != Phase::kPlace)) return;
  for (int id : generals_waiting_) {
    if (side_of(g_->generals()[static_cast<size_t>(id)].nation) != active_) continue;
    for (int z = 0; z < g_->zone_count(); ++z) {
      const Action a = act(kGeneral, {id, z});
      if (check_general(a)) out.push_back(a);
    }
  }
}

// 4.5: "If 2 generals from opposing sides meet in combat, 1d12 is rolled for each general. The
// roll is added to the general's skill level and the general with the highest total wins and is
// able to modify his troops' combat values. The opposing general cannot use his attributes for
// the battle." A side with several generals in the battle leads with its most skilled; a tie is
// rolled again (ruling "Generals"). Decided once, before the first round.
void AaState::general_duel(int zone) {
  auto& slot = battle_general_[static_cast<size_t>(zone)];
  slot = 0;
  if (!generals_) return;
  std::array<int, 2> best{-1, -1};
  const auto& all = g_->generals();
  for (const Unit& u : units_) {
    if (u.zone != zone || u.general == 0) continue;
    int& b = best[static_cast<size_t>(side_of(u.nation))];
    if (b < 0 || all[static_cast<size_t>(u.general - 1)].skill > all[static_cast<size_t>(b)].skill)
      b = u.general - 1;
  }
  if (best[0] < 0 && best[1] < 0) return;
  int winner = best[0] >= 0 ? best[0] : best[1];
  if (best[0] >= 0 && best[1] >= 0) {
    const General& ax = all[static_cast<size_t>(best[0])];
    const General& ru = all[static_cast<size_t>(best[1])];
    for (;;) {
      const int a = roll(12, "General " + ax.name, "4.5") + ax.skill;
      const int r = roll(12, "General " + ru.name, "4.5") + ru.skill;
      if (a == r) continue;
      winner = a > r ? best[0] : best[1];
      log("general",
          "Generals meet in " + g_->zone(zone).name + ": " + ax.name + " " + std::to_string(a) + ", " +
              ru.name + " " + std::to_string(r) + "; " + all[static_cast<size_t>(winner)].name +
              " commands (4.5)",
          "4.5");
      break;
    }
  }
  slot = winner + 1;
}

// 4.5.1: the commanding general's attribute, on his side's units in this battle.
void AaState::general_battle(int zone, BattleSetup& s) const {
  if (!generals_) return;
  const int id = battle_general_[static_cast<size_t>(zone)] - 1;
  if (id < 0) return;
  const General& gen = g_->generals()[static_cast<size_t>(id)];
  const GeneralAttribute* at = g_->general_attribute(gen.attribute);
  if (at == nullptr || !at->played) return;
  const size_t role = side_of(gen.nation) == active_ ? 0 : 1;
  if (at->effect == "artillery_support_two") {
    s.terrain.artillery_supports_two[role] = role == 0;  // "during attack"
    return;
  }
  if (at->effect != "class_bonus") return;
  const int v = role == 0 ? at->attack : at->defence;
  if (v == 0) return;
  const UnitTypes& types = g_->battle_types();
  auto& bonus = at->first_round ? s.terrain.first_round_bonus[role] : s.terrain.bonus[role];
  if (bonus.empty()) bonus.assign(static_cast<size_t>(types.size()), 0);
  for (int t = 0; t < types.size(); ++t)
    if (types.at(t).combatant && types.at(t).has_class(at->cls)) bonus[static_cast<size_t>(t)] += v;
}

// 4.5: "A General is destroyed by being surrounded in a losing battle, in a losing attack and not
// retreating, or defending in battle and not retreat."
void AaState::generals_lost(int zone, int side, const std::string& why) {
  std::vector<Unit> kept;
  for (const Unit& u : units_) {
    if (u.zone == zone && u.general > 0 && side_of(u.nation) == side) {
      log("general",
          "General " + g_->generals()[static_cast<size_t>(u.general - 1)].name + " is lost in " +
              g_->zone(zone).name + ": " + why + " (4.5)",
          "4.5");
      continue;
    }
    kept.push_back(u);
  }
  units_ = std::move(kept);
}

}  // namespace steppe::aa
