// The Axis & Allies-style Barbarossa's battle (3.36.2) and its exact calculator: closed-form
// one-against-one battles worked by hand, the text's modifiers (3.3, 3.29, 3.30, 3.36.2.2), and
// the calculator against a large simulation of the real round code.
#include "games/aa/battle.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "games/aa/battle_calculator.h"

namespace steppe::aa {
namespace {

const UnitTypes& types() {
  static const UnitTypes t = [] {
    auto r = UnitTypes::load("data/aa");
    EXPECT_TRUE(r.is_ok()) << (r ? "" : r.error().to_string());
    return *r;
  }();
  return t;
}

Forces forces(const std::map<std::string, int>& counts, const std::map<std::string, int>& damaged = {}) {
  Forces f;
  f.alive.assign(static_cast<size_t>(types().size()), 0);
  f.damaged.assign(static_cast<size_t>(types().size()), 0);
  for (const auto& [id, n] : counts) {
    const int t = types().index_of(id);
    EXPECT_GE(t, 0) << id;
    f.alive[static_cast<size_t>(t)] = n;
  }
  for (const auto& [id, n] : damaged) f.damaged[static_cast<size_t>(types().index_of(id))] = n;
  return f;
}

BattleSetup setup(const std::map<std::string, int>& att, const std::map<std::string, int>& def,
                  const BattleTerrain& terrain = {}) {
  BattleSetup s;
  s.attacker = forces(att);
  s.defender = forces(def);
  s.terrain = terrain;
  s.attacker_order = CasualtyOrder::cheapest_first(types());
  s.defender_order = CasualtyOrder::cheapest_first(types());
  return s;
}

BattleOdds odds(const BattleSetup& s, RetreatRule r = {}) {
  auto o = calculate_battle(types(), s, r);
  EXPECT_TRUE(o.is_ok()) << (o ? "" : o.error().to_string());
  return *o;
}

// Values of the dice a side rolls, low to high.
std::vector<int> dice_values(const Battle& b, Side side) {
  std::vector<int> out;
  const DiceByValue d = b.combat_dice(side);
  for (int v = 0; v <= kDie; ++v)
    for (int k = 0; k < d[static_cast<size_t>(v)]; ++k) out.push_back(v);
  return out;
}

TEST(AaBattle, UnitTypesCarryThePrintedValues) {
  // 3.3 Infantry (2/4/1/3), 3.6 SS Panzer (8/8/2/10) two hits, 3.22 Heavy Bomber 2 dice.
  const UnitType& inf = types().at(types().index_of("infantry"));
  EXPECT_EQ(inf.attack, 2);
  EXPECT_EQ(inf.defence, 4);
  EXPECT_EQ(inf.cost, 3);
  const UnitType& ss = types().at(types().index_of("ss_panzer"));
  EXPECT_EQ(ss.hits, 2);
  EXPECT_EQ(ss.repair_cost, 4);
  EXPECT_EQ(types().at(types().index_of("heavy_bomber")).attack_dice, 2);
  EXPECT_FALSE(types().at(types().index_of("aa_gun")).combatant);
  EXPECT_TRUE(types().at(types().index_of("supply")).supply_target);
  EXPECT_TRUE(types().at(types().index_of("truck")).supply_target);
}

TEST(AaBattle, MinorAxisValuesAreTheReconstructedOnes) {
  auto ro = UnitTypes::load("data/aa", "romania");
  ASSERT_TRUE(ro.is_ok());
  EXPECT_EQ(ro->at(ro->index_of("infantry")).attack, 1);
  EXPECT_EQ(ro->at(ro->index_of("infantry")).defence, 3);
  auto bad = UnitTypes::load("data/aa", "atlantis");
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.error().message.find("3.1"), std::string::npos);
}

TEST(AaBattle, InfantryMatchedWithArtilleryAttacksAtThree) {
  // 3.3: "+1 to attack when matched 1-1 with artillery": 3 infantry + 1 artillery -> 3, 2, 2, 4.
  auto b = Battle::start(types(), setup({{"infantry", 3}, {"artillery", 1}}, {{"infantry", 1}}));
  ASSERT_TRUE(b.is_ok());
  EXPECT_EQ(dice_values(*b, Side::kAttacker), (std::vector<int>{2, 2, 3, 4}));
  // The bonus is on attack only: defending, the same stack rolls 4, 4, 4, 4.
  auto d = Battle::start(types(), setup({{"infantry", 1}}, {{"infantry", 3}, {"artillery", 1}}));
  EXPECT_EQ(dice_values(*d, Side::kDefender), (std::vector<int>{4, 4, 4, 4}));
}

TEST(AaBattle, CityAndRiverPenaltiesStack) {
  // 3.29, 3.30: land units across a river into a city -2, aircraft -1 only; 4.1 snow waives the river.
  BattleTerrain t;
  t.city = t.river = true;
  auto b = Battle::start(types(),
                         setup({{"infantry", 1}, {"medium_armor", 1}, {"fighter", 1}}, {{"infantry", 1}}, t));
  EXPECT_EQ(dice_values(*b, Side::kAttacker), (std::vector<int>{0, 5, 5}));
  t.snow = true;
  auto s = Battle::start(types(),
                         setup({{"infantry", 1}, {"medium_armor", 1}, {"fighter", 1}}, {{"infantry", 1}}, t));
  EXPECT_EQ(dice_values(*s, Side::kAttacker), (std::vector<int>{1, 5, 6}));
}

TEST(AaBattle, DefendingAircraftUseAttackValuesAgainstALandOnlyAttack) {
  // 3.36.2.2: the defending Bomber rolls its attack 8, not its defence 2.
  auto b = Battle::start(types(), setup({{"infantry", 1}}, {{"bomber", 1}}));
  EXPECT_EQ(dice_values(*b, Side::kDefender), (std::vector<int>{8}));
  auto c = Battle::start(types(), setup({{"infantry", 1}, {"fighter", 1}}, {{"bomber", 1}}));
  EXPECT_EQ(dice_values(*c, Side::kDefender), (std::vector<int>{2}));
}

TEST(AaBattle, TacBomberSupportsArmorOnlyWithoutEnemyFighters) {
  // 3.20: +1 to an armor unit matched 1-1 with the tac bomber if no enemy fighters are present.
  auto b = Battle::start(types(), setup({{"medium_armor", 2}, {"tac_bomber", 1}}, {{"infantry", 1}}));
  EXPECT_EQ(dice_values(*b, Side::kAttacker), (std::vector<int>{7, 7, 8}));
  auto f = Battle::start(types(),
                         setup({{"medium_armor", 2}, {"tac_bomber", 1}}, {{"infantry", 1}, {"fighter", 1}}));
  EXPECT_EQ(dice_values(*f, Side::kAttacker), (std::vector<int>{7, 7, 7}));
}

TEST(AaBattle, CutOffDefendersLoseTheirModifiers) {
  // 3.34: -2 and "All defensive modifiers are void": the fortification's +1 (4.3) is gone.
  BattleTerrain t;
  auto b = Battle::start(types(), setup({{"infantry", 1}}, {{"infantry", 2}, {"fortification", 1}}, t));
  EXPECT_EQ(dice_values(*b, Side::kDefender), (std::vector<int>{4, 5, 5}));
  t.surrounded = true;
  auto c = Battle::start(types(), setup({{"infantry", 1}}, {{"infantry", 2}, {"fortification", 1}}, t));
  EXPECT_EQ(dice_values(*c, Side::kDefender), (std::vector<int>{2, 2, 2}));
}

TEST(AaBattle, OneInfantryAgainstOneInfantryClosedForm) {
  // Attacker hits on 1-2 (2/12), defender on 1-4 (4/12); rounds repeat until someone is hit.
  // P(round decides) = 1 - (10/12)(8/12) = 64/144; attacker wins (2/12)(8/12)/(64/144) = 16/64.
  const BattleOdds o = odds(setup({{"infantry", 1}}, {{"infantry", 1}}));
  EXPECT_NEAR(o.attacker_wins, 16.0 / 64, 1e-12);
  EXPECT_NEAR(o.both_destroyed, 8.0 / 64, 1e-12);
  EXPECT_NEAR(o.defender_holds, 40.0 / 64, 1e-12);
  EXPECT_NEAR(o.attacker_retreats, 0.0, 1e-12);
  EXPECT_NEAR(o.expected_rounds, 144.0 / 64, 1e-12);
  EXPECT_NEAR(o.survivors[0][1], 16.0 / 64, 1e-12);
  EXPECT_NEAR(o.expected_bp_lost[0], 3.0 * 48 / 64, 1e-12);  // the attacker's 3 BP infantry dies
}

TEST(AaBattle, RetreatAfterRoundOneClosedForm) {
  // 3.36.2.4: the attacker leaves after round 1 whenever both still stand: (10/12)(8/12).
  const BattleOdds o = odds(setup({{"infantry", 1}}, {{"infantry", 1}}), RetreatRule{1, 0});
  EXPECT_NEAR(o.attacker_wins, 16.0 / 144, 1e-12);
  EXPECT_NEAR(o.both_destroyed, 8.0 / 144, 1e-12);
  EXPECT_NEAR(o.defender_holds, 40.0 / 144, 1e-12);
  EXPECT_NEAR(o.attacker_retreats, 80.0 / 144, 1e-12);
  // Odds rule at 100%: a single round, then the attacker goes home, as with after_round 1.
  const BattleOdds p = odds(setup({{"infantry", 1}}, {{"infantry", 1}}), RetreatRule{0, 1.0});
  EXPECT_NEAR(p.attacker_retreats, 80.0 / 144, 1e-12);
}

TEST(AaBattle, EliteTakesTwoHitsClosedForm) {
  // 3.2: an SS Panzer (attack 8) against a Medium Armor (defence 7). Per round a = 8/12,
  // d = 7/12. Undamaged: decided when the armor is hit; the panzer survives any 1 hit.
  // W0 = P(win from undamaged), W1 = from damaged (one-hit battle).
  const double a = 8.0 / 12, d = 7.0 / 12;
  const double w1 = a * (1 - d) / (1 - (1 - a) * (1 - d));
  const double both1 = a * d / (1 - (1 - a) * (1 - d));
  // From undamaged: armor hit -> win (whatever the defender rolls); only the defender hits ->
  // damaged; neither -> again.
  const double stay = (1 - a) * (1 - d);
  const double w0 = (a + (1 - a) * d * w1) / (1 - stay);
  const double both0 = (1 - a) * d * both1 / (1 - stay);
  const BattleOdds o = odds(setup({{"ss_panzer", 1}}, {{"medium_armor", 1}}));
  EXPECT_NEAR(o.attacker_wins, w0, 1e-12);
  EXPECT_NEAR(o.both_destroyed, both0, 1e-12);
  EXPECT_NEAR(o.defender_holds, 1 - w0 - both0, 1e-12);
}

TEST(AaBattle, AaGunFiresOncePerAircraftInTheFirstRound) {
  // 3.36.2.1: one d12 per aircraft at 2 or less, first round only; then fighter 6 vs infantry 4.
  const double aa = 2.0 / 12, a = 6.0 / 12, d = 4.0 / 12;
  const double decided = 1 - (1 - a) * (1 - d);
  const BattleOdds o = odds(setup({{"fighter", 1}}, {{"infantry", 1}, {"aa_gun", 1}}));
  EXPECT_NEAR(o.attacker_wins, (1 - aa) * a * (1 - d) / decided, 1e-12);
  EXPECT_NEAR(o.defender_holds, aa + (1 - aa) * (1 - a) * d / decided, 1e-12);
  auto b = Battle::start(types(), setup({{"fighter", 3}, {"bomber", 1}}, {{"infantry", 1}, {"aa_gun", 2}}));
  EXPECT_EQ(b->aa_dice()[2], 4);  // "no matter how many AA guns are in the zone"
}

TEST(AaBattle, OnesDestroySupplyClosedForm) {
  // 3.36.2.3: the attacker's infantry hits on 1-2; a 1 also destroys the defender's supply.
  const BattleOdds o = odds(setup({{"infantry", 1}}, {{"infantry", 1}, {"supply", 1}}));
  EXPECT_NEAR(o.attacker_wins, 16.0 / 64, 1e-12);
  // The round that decides has an attacker hit in 24/64 of the battles, half of them 1s: the
  // supply is destroyed in 12/64. When the attacker wins with a 2 (8/64) it is captured (3.33).
  EXPECT_NEAR(o.expected_left[1][static_cast<size_t>(types().index_of("supply"))], 52.0 / 64, 1e-12);
  EXPECT_NEAR(o.expected_bp_lost[1], 3.0 * 24 / 64 + 1.0 * (12 + 8) / 64, 1e-12);
}

TEST(AaBattle, HitDistributionIsBinomial) {
  DiceByValue d{};
  d[6] = 2;
  const auto p = hit_distribution(d);
  ASSERT_EQ(p.size(), 3u);
  EXPECT_NEAR(p[0], 0.25, 1e-15);
  EXPECT_NEAR(p[1], 0.5, 1e-15);
  EXPECT_NEAR(p[2], 0.25, 1e-15);
}

TEST(AaBattle, CasualtyOrderTakesHitsOneAtATime) {
  // The calculator's states rely on k hits at once ending where k single hits end.
  const CasualtyOrder order = CasualtyOrder::cheapest_first(types());
  const Forces start = forces({{"infantry", 3}, {"ss_panzer", 2}, {"heavy_armor", 1}, {"fighter", 2}});
  for (int k = 0; k <= 12; ++k) {
    Forces once = start, stepwise = start;
    order.apply_hits(once, types(), k);
    for (int i = 0; i < k; ++i) order.apply_hits(stepwise, types(), 1);
    EXPECT_EQ(once, stepwise) << k;
  }
  // 2-hit units absorb first: 3 hits damage the two panzers and the heavy armor, nothing dies.
  Forces f = start;
  order.apply_hits(f, types(), 3);
  EXPECT_EQ(f.alive, start.alive);
}

TEST(AaBattle, BadInputIsRefusedWithTheRule) {
  BattleSetup s = setup({{"supply", 2}}, {{"infantry", 1}});
  auto r = calculate_battle(types(), s, {});
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.error().rule, "3.36.2");
  BattleSetup o = setup({{"infantry", 1}}, {{"infantry", 1}});
  o.defender_order.type_priority.pop_back();
  auto q = calculate_battle(types(), o, {});
  ASSERT_FALSE(q.is_ok());
  EXPECT_EQ(q.error().rule, "3.36.2.3");
  BattleSetup d = setup({{"infantry", 1}}, {{"infantry", 1}});
  d.defender.damaged[static_cast<size_t>(types().index_of("infantry"))] = 1;
  EXPECT_EQ(calculate_battle(types(), d, {}).error().rule, "3.2");
}

// The calculator against the round code itself, fought battle by battle with dice.
void expect_matches_simulation(const BattleSetup& s, const RetreatRule& rule, int battles) {
  const BattleOdds exact = odds(s, rule);
  auto start = Battle::start(types(), s);
  ASSERT_TRUE(start.is_ok());
  std::map<Outcome, int> count;
  std::array<std::vector<int>, 2> survivors{std::vector<int>(exact.survivors[0].size()),
                                            std::vector<int>(exact.survivors[1].size())};
  std::array<double, 2> bp_sum{}, bp_sq{};
  Dice dice(20261128);
  for (int i = 0; i < battles; ++i) {
    Battle b = *start;
    count[b.fight(dice, rule)]++;
    for (Side side : {Side::kAttacker, Side::kDefender}) {
      const size_t k = static_cast<size_t>(idx(side));
      survivors[k][static_cast<size_t>(combatants_left(b, side))]++;
      const double lost = bp_lost(b, side);
      bp_sum[k] += lost;
      bp_sq[k] += lost * lost;
    }
  }
  const double n = battles;
  auto within = [&](double p_exact, int observed, const std::string& what) {
    const double sigma = std::sqrt(std::max(p_exact * (1 - p_exact), 1e-12) / n);
    EXPECT_LE(std::abs(observed / n - p_exact), 4 * sigma + 1e-9)
        << what << ": exact " << p_exact << ", simulated " << observed / n;
  };
  within(exact.attacker_wins, count[Outcome::kAttackerWins], "attacker wins");
  within(exact.defender_holds, count[Outcome::kDefenderHolds], "defender holds");
  within(exact.both_destroyed, count[Outcome::kBothDestroyed], "both destroyed");
  within(exact.attacker_retreats, count[Outcome::kAttackerRetreats], "attacker retreats");
  for (size_t side = 0; side < 2; ++side) {
    double total = 0;
    for (size_t k = 0; k < survivors[side].size(); ++k) {
      within(exact.survivors[side][k], survivors[side][k],
             "survivors " + std::to_string(side) + "/" + std::to_string(k));
      total += exact.survivors[side][k];
    }
    EXPECT_NEAR(total, 1.0, 1e-9);
    const double mean = bp_sum[side] / n;
    const double sd = std::sqrt(std::max(bp_sq[side] / n - mean * mean, 1e-12) / n);
    EXPECT_LE(std::abs(mean - exact.expected_bp_lost[side]), 4 * sd + 1e-9)
        << "BP lost " << side << ": exact " << exact.expected_bp_lost[side] << ", simulated " << mean;
  }
  EXPECT_NEAR(exact.attacker_wins + exact.defender_holds + exact.both_destroyed + exact.attacker_retreats,
              1.0, 1e-9);
  EXPECT_LT(exact.dropped, 1e-12);  // the negligible terms left out
}

TEST(AaBattle, CalculatorMatchesTwoHundredThousandSimulatedBattles) {
  // Mixed arms: artillery pairing, 2-hit elites, aircraft under AA fire, supplies and a truck
  // for the 1s, a city.
  BattleTerrain t;
  t.city = true;
  const BattleSetup s = setup(
      {{"infantry", 3},
       {"artillery", 1},
       {"medium_armor", 1},
       {"ss_panzer", 1},
       {"fighter", 1},
       {"tac_bomber", 1}},
      {{"infantry", 4}, {"artillery", 1}, {"guard_armor", 1}, {"aa_gun", 1}, {"supply", 2}, {"truck", 1}}, t);
  expect_matches_simulation(s, {}, 200000);
}

TEST(AaBattle, CalculatorMatchesSimulationWithARetreatAfterRoundTwo) {
  const BattleSetup s = setup({{"infantry", 4}, {"artillery", 2}, {"medium_armor", 2}, {"bomber", 1}},
                              {{"infantry", 5}, {"fighter", 1}, {"heavy_armor", 1}});
  expect_matches_simulation(s, RetreatRule{2, 0}, 100000);
}

TEST(AaBattle, OddsRuleRetreatsFromALosingBattle) {
  // 2 infantry attacking 4: pressing on rarely wins; at a 30% floor the attacker leaves early
  // and loses less.
  const BattleSetup s = setup({{"infantry", 2}}, {{"infantry", 4}});
  const BattleOdds fight = odds(s);
  const BattleOdds careful = odds(s, RetreatRule{0, 0.3});
  EXPECT_LT(fight.attacker_wins, 0.3);
  EXPECT_GT(careful.attacker_retreats, 0.5);
  EXPECT_LT(careful.expected_bp_lost[0], fight.expected_bp_lost[0]);
}

TEST(AaBattle, NoDefenderMeansNoDice) {
  const BattleOdds o = odds(setup({{"infantry", 1}}, {{"supply", 2}}));
  EXPECT_EQ(o.attacker_wins, 1.0);
  EXPECT_EQ(o.expected_bp_lost[1], 2.0);  // the supplies are captured (3.33)
}

}  // namespace
}  // namespace steppe::aa

namespace steppe::aa {
namespace {

TEST(AaBattle, SupplyTokensChangeLossesNotTheFight) {
  // Supply tokens never roll or take ordinary hits (3.12, 3.36.2.3): the odds of the fight are
  // the same with or without them; only what the defender loses grows.
  const BattleOdds bare =
      odds(setup({{"infantry", 6}, {"medium_armor", 2}}, {{"infantry", 5}, {"artillery", 1}}));
  const BattleOdds supplied =
      odds(setup({{"infantry", 6}, {"medium_armor", 2}}, {{"infantry", 5}, {"artillery", 1}, {"supply", 3}}));
  EXPECT_NEAR(bare.attacker_wins, supplied.attacker_wins, 1e-12);
  EXPECT_NEAR(bare.defender_holds, supplied.defender_holds, 1e-12);
  EXPECT_GT(supplied.expected_bp_lost[1], bare.expected_bp_lost[1] + 0.5);
  EXPECT_GT(supplied.states, bare.states);
  EXPECT_LT(supplied.dropped, 1e-12);
}

}  // namespace
}  // namespace steppe::aa

namespace steppe::aa {
namespace {

TEST(AaBattle, DogfightThenFreeShotClosedForm) {
  // 3.36.2.2: attacker fighter + bomber against a lone fighter. The fighters dogfight at 6
  // against 6: each way of ending (attacker's fighter left, both gone, defender's left) has
  // chance (1/4)/(3/4) = 1/3. The defender's winning fighter gets one free shot (6 in 12) at
  // the bomber; if it misses, the bomber (8) fights the fighter (6): 0.4 / 0.4 / 0.2.
  const BattleOdds o = odds(setup({{"fighter", 1}, {"bomber", 1}}, {{"fighter", 1}}));
  EXPECT_NEAR(o.attacker_wins, 2.0 / 3 + 1.0 / 6 * 0.4, 1e-12);
  EXPECT_NEAR(o.both_destroyed, 1.0 / 6 * 0.4, 1e-12);
  EXPECT_NEAR(o.defender_holds, 1.0 / 6 + 1.0 / 6 * 0.2, 1e-12);
  // Without the bomber there is nothing to shoot at after the dogfight.
  const BattleOdds f = odds(setup({{"fighter", 1}}, {{"fighter", 1}}));
  EXPECT_NEAR(f.attacker_wins, 1.0 / 3, 1e-12);
  EXPECT_NEAR(f.both_destroyed, 1.0 / 3, 1e-12);
}

TEST(AaBattle, CalculatorMatchesSimulationWithADogfight) {
  const BattleSetup s = setup({{"infantry", 3}, {"medium_armor", 1}, {"fighter", 2}, {"tac_bomber", 1}},
                              {{"infantry", 4}, {"fighter", 2}, {"bomber", 1}, {"aa_gun", 1}});
  expect_matches_simulation(s, {}, 100000);
}

}  // namespace
}  // namespace steppe::aa
