// Murphy's Law (4.4, optional; the charts 4.4.1 and 4.4.2 are data/aa/murphy.json): "When a side
// wins the Combat Initiative roll, randomly draw one card for a situational advantage. A card is
// drawn after the CI roll and the instructions are followed from the chart".
//
// Played with the scenario option "murphy" (`barbarossa+murphy`). The effects are read where
// their rules are: purchases (elite_limit, supplies_per_bp), placement (rommel,
// infantry_city_limit, grant_at_place), the Non-Combat Move (grant_at_non_combat_move), naval
// and carrying capacity, the battle (armor_bonus, infantry_attack_city, infantry_defence,
// no_supply_kills, minor_as_german), income (counter_offensive, lend_lease, siberian,
// finnish_uprising). Cards marked "played": false are drawn and logged only (ruling "Murphy's
// Law cards").
#include <algorithm>

#include "games/aa/state.h"

namespace steppe::aa {

Status AaState::set_option(const std::string& option) {
  if (option == "murphy") {
    murphy_ = true;  // 4.4
    return Status::ok();
  }
  if (option == "casualty-chart") {
    casualty_chart_ = true;  // 4.2
    return Status::ok();
  }
  if (option == "generals") {
    generals_ = true;  // 4.5
    return Status::ok();
  }
  return Error{
      "no optional rule '" + option + "' (the options are: casualty-chart, 4.2; murphy, 4.4; generals, 4.5)",
      "4", ""};
}

const MurphyCard* AaState::murphy_card(int side, std::string_view effect) const {
  if (!murphy_) return nullptr;
  const auto& chart = g_->murphy(side);
  const int now = card_[static_cast<size_t>(side)];
  for (size_t i = 0; i < chart.size(); ++i) {
    if (chart[i].effect != effect || !chart[i].played) continue;
    if (static_cast<int>(i) == now || (kept_[static_cast<size_t>(side)] & (1u << i)) != 0) return &chart[i];
  }
  return nullptr;
}

// 4.4: "randomly draw one card". Drawn cards stay out of the deck until all 13 are drawn, then
// the suit is shuffled again (ruling "Murphy's Law cards").
void AaState::draw_murphy(int side) {
  const auto& chart = g_->murphy(side);
  const auto s = static_cast<size_t>(side);
  const int n = static_cast<int>(chart.size());
  if (drawn_[s] == (1u << n) - 1) drawn_[s] = 0;
  std::vector<int> deck;
  for (int i = 0; i < n; ++i)
    if ((drawn_[s] & (1u << i)) == 0) deck.push_back(i);
  const int pick =
      deck[static_cast<size_t>(roll(static_cast<int>(deck.size()), "Murphy's Law card", "4.4") - 1)];
  drawn_[s] |= static_cast<uint16_t>(1u << pick);
  card_[s] = pick;
  const MurphyCard& c = chart[static_cast<size_t>(pick)];
  const char* rule = side == kAxis ? "4.4.1" : "4.4.2";
  std::string how;
  if (!c.played) {
    how = " (not played yet)";
  } else if (!c.needs.empty()) {
    how = " (no effect: it acts through " + c.needs + ", which is not played)";
  }
  log("murphy",
      std::string(side == kAxis ? "The Axis draw " : "Russia draws ") + c.card + ": " + c.text + how + " (" +
          rule + ")",
      rule);
  if (!c.played || !c.needs.empty()) return;
  if (c.duration == "game") kept_[s] |= static_cast<uint16_t>(1u << pick);
  // The effects that act at once.
  const Rules& r = g_->rules();
  if (c.effect == "counter_offensive") {
    // "Collect 20 extra Build Points this turn and roll 2 d12 for combat initiative on the next turn".
    bp_[kAxis] += c.value;
    ci_two_dice_turn_ = turn_ + 1;
  } else if (c.effect == "rommel") {
    bp_[kAxis] += c.value;  // "Collect 60 extra Build Points"
  } else if (c.effect == "lend_lease") {
    // "Lend lease Build Points for this turn are 25" (the turn's 8 are in already, 2.10).
    lend_lease_bp_ += c.this_turn - (turn_ >= r.lend_lease_from ? r.lend_lease_bp : 0);
  } else if (c.effect == "siberian") {
    // "On this turn only, Siberian reinforcement receive 80 Build Points" (2.11's 40 included).
    siberian_bp_ += c.this_turn - (turn_ >= r.siberian_from ? r.siberian_bp : 0);
  }
}

// 4.4.2 Russia's card 5: "Counter intelligence. Russia can pick one zone on this turn that the
// Axis cannot attack" (`protect ZONE`, in Russia's Purchase step: a zone Russia holds).
Status AaState::check_protect(const Action& a) const {
  if (a.nargs != 1 || a.args[0] < 0 || a.args[0] >= g_->zone_count())
    return Error{"usage: protect ZONE", "", ""};
  if (murphy_card(kRussia, "counter_intelligence") == nullptr)
    return rule_error("4.4.2", "only Russia's Murphy card 5 (counter intelligence) shields a zone");
  if (active_ != kRussia || phase_ != Phase::kPurchase)
    return rule_error("4.4.2", "Russia picks the zone in its Purchase step");
  if (protected_zone_ >= 0)
    return rule_error("4.4.2", "Russia picked " + g_->zone(protected_zone_).name + " already this turn");
  if (!g_->zone(a.args[0]).land() || controller(a.args[0]) != kRussia)
    return rule_error("4.4.2", "Russia picks one of its own zones");
  return Status::ok();
}

void AaState::apply_protect(const Action& a) {
  protected_zone_ = a.args[0];
  log("murphy",
      "Counter intelligence: the Axis cannot attack " + g_->zone(a.args[0]).name + " this turn (4.4.2)",
      "4.4.2");
}

void AaState::gen_protect(std::vector<Action>& out) const {
  if (murphy_card(kRussia, "counter_intelligence") == nullptr || active_ != kRussia ||
      phase_ != Phase::kPurchase || protected_zone_ >= 0)
    return;
  for (int z = 0; z < g_->zone_count(); ++z) {
    Action a;
    a.verb = kProtect;
    a.push(z);
    if (check_protect(a)) out.push_back(a);
  }
}

// 3.1 minor Axis values, except under Axis card 4: "All Minor Axis units attacking and defending
// on this turn that share a zone with any number of German units attack and defend the same as
// their German counterparts".
int AaState::battle_type_in(int zone, const Unit& u) const {
  if (minor_axis(u.nation) && murphy_card(kAxis, "minor_as_german") != nullptr &&
      std::any_of(units_.begin(), units_.end(),
                  [&](const Unit& v) { return v.zone == zone && v.nation == kGermany; }))
    return u.type;
  return g_->battle_type(u.nation, u.type);
}

// The battle modifiers of the cards in effect (4.4.1 3, 10, Q; 4.4.2 4, Q).
void AaState::murphy_battle(int zone, BattleSetup& s) const {
  if (!murphy_) return;
  const UnitTypes& types = g_->battle_types();
  const int nb = g_->base_type_count();
  const bool city = g_->zone(zone).kind == ZoneKind::kCity;
  for (int side : {kAxis, kRussia}) {
    const size_t role = side == active_ ? 0 : 1;  // attacker, defender
    std::vector<int> bonus(static_cast<size_t>(types.size()), 0);
    bool any = false;
    auto add = [&](int t, int v) {
      bonus[static_cast<size_t>(t)] += v;
      any = any || v != 0;
    };
    // Q: "All German [Russian] armor units attack and defend at a +1 for the remainder of the game"
    // (German armor: the printed types, not the minor Axis ones).
    if (const MurphyCard* c = murphy_card(side, "armor_bonus"))
      for (int t = 0; t < nb; ++t)
        if (types.at(t).has_class("armor")) add(t, c->value);
    if (side == kAxis && role == 0 && city)
      if (const MurphyCard* c = murphy_card(kAxis, "infantry_attack_city"))  // Axis 10
        for (int t = 0; t < types.size(); ++t)
          if (types.at(t).has_class("infantry")) add(t, c->value);
    if (side == kRussia && role == 1)
      if (const MurphyCard* c = murphy_card(kRussia, "infantry_defence"))  // Russia 4
        for (int t = 0; t < nb; ++t)
          if (types.at(t).has_class("infantry")) add(t, city ? c->city_value : c->value);
    if (any) s.terrain.bonus[role] = std::move(bonus);
    // Axis 3: "Axis units do not destroy any Russian supplies, trucks, or trains during battle".
    if (side == kAxis && murphy_card(kAxis, "no_supply_kills") != nullptr)
      s.terrain.no_supply_kills[role] = true;
  }
}

// 3.7 Trucks "up to 4", 3.23 Transport 2, 3.35 trains 6 (units.json); Russia's card 3: "All
// Russian trucks and trains increase their load capacity +2 for this turn only".
int AaState::carry_capacity(int type) const {
  const UnitType& t = g_->base(type);
  int cap = t.carry_capacity;
  if (active_ == kRussia && !t.aircraft()) cap += murphy_value(kRussia, "carry_capacity");
  return cap;
}

}  // namespace steppe::aa
