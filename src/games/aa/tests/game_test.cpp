// The Axis & Allies-style Barbarossa as a game: data loads, the kernel's conformance suite,
// random games played to their end, and the rules of the turn sequence checked on positions.
#include <gtest/gtest.h>

#include <memory>

#include "games/aa/aa.h"
#include "games/aa/state.h"
#include "kernel/conformance.h"

namespace steppe::aa {
namespace {

const Game& game() {
  static const std::unique_ptr<Game> g = [] {
    auto r = load_game(STEPPE_DEFAULT_DATA_DIR);
    if (!r) ADD_FAILURE() << r.error().to_string();
    return std::move(r.value());
  }();
  return *g;
}

std::unique_ptr<AaState> start(const std::string& scenario = "barbarossa", uint64_t seed = 1) {
  auto r = game().new_state(scenario, seed);
  EXPECT_TRUE(r.is_ok()) << (r ? "" : r.error().to_string());
  return std::unique_ptr<AaState>(static_cast<AaState*>(r.value().release()));
}

Status act(AaState& s, const std::string& text) {
  auto a = s.parse_action(text);
  if (!a) return a.error();
  return s.apply(*a);
}

TEST(AaGame, LoadsTheMapAndSetUp) {
  auto s = start();
  const auto& g = static_cast<const AaGame&>(game());
  EXPECT_EQ(g.zone_count(), 71);
  EXPECT_EQ(g.city_zones("Moscow").size(), 3u);
  EXPECT_EQ(s->bp(kAxis), 60);    // 2.1
  EXPECT_EQ(s->bp(kRussia), 25);  // 2.8
  EXPECT_EQ(s->current_player(), kAxis);
  EXPECT_EQ(s->phase(), Phase::kPurchase);
  EXPECT_EQ(s->controller(g.zone_index("warsaw")), kAxis);
  EXPECT_EQ(s->controller(g.zone_index("brest")), kRussia);
}

TEST(AaGame, KernelConformanceSuite) {
  for (const char* sc : {"barbarossa", "barbarossa-18"}) {
    const auto rep = run_conformance(game(), sc, 2, 7, 150);
    EXPECT_TRUE(rep.ok()) << sc << ": " << rep.summary();
  }
}

// A random policy that ends its step a third of the time plays whole games to a result.
TEST(AaGame, RandomGamesReachTheEnd) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    auto s = start("barbarossa", seed);
    std::vector<Action> acts;
    uint64_t x = seed * 7919;
    int steps = 0;
    while (!s->is_terminal() && steps < 200000) {
      s->legal_actions(acts);
      ASSERT_FALSE(acts.empty());
      x = splitmix64(x);
      const Action* pick = &acts[x % acts.size()];
      if (x % 3 == 0 && s->parse_action("end") && s->check(*s->parse_action("end")).is_ok()) {
        static const Action end = *s->parse_action("end");
        pick = &end;
      }
      ASSERT_TRUE(s->apply(*pick).is_ok()) << s->action_to_string(*pick);
      ++steps;
    }
    ASSERT_TRUE(s->is_terminal()) << "seed " << seed << " after " << steps << " actions";
    const Json r = s->result();
    EXPECT_TRUE(r["winner"] == "axis" || r["winner"] == "russia") << r.dump();
    EXPECT_LE(r["turn"].get<int>(), 12);
  }
}

// 1.2.3, 2.1: Germany buys with its 60 BP; what it cannot afford is refused citing the rule.
TEST(AaGame, PurchaseSpendsBuildPoints) {
  auto s = start();
  ASSERT_TRUE(act(*s, "buy 4 medium_armor").is_ok());
  EXPECT_EQ(s->bp(kAxis), 28);
  const Status too_much = act(*s, "buy 4 medium_armor");
  ASSERT_FALSE(too_much.is_ok());
  EXPECT_EQ(too_much.error().rule, "1.2.3");
  // 3.2: only 2 elite units a turn.
  ASSERT_TRUE(act(*s, "buy 2 ss_panzer").is_ok());
  const Status third = act(*s, "buy 1 ss_grenadier");
  ASSERT_FALSE(third.is_ok());
  EXPECT_EQ(third.error().rule, "3.2");
  // Guards are Russia's.
  EXPECT_FALSE(act(*s, "buy 1 guard_armor").is_ok());
}

// 3.24: a unit moves only with a supply token in its zone or an adjacent one; one token pays
// for every unit leaving that zone in the sequence.
TEST(AaGame, MovingSpendsOneSupplyPerZone) {
  auto s = start();
  const auto& g = static_cast<const AaGame&>(game());
  ASSERT_TRUE(act(*s, "end").is_ok());  // purchase
  ASSERT_EQ(s->phase(), Phase::kCombatMove);
  const int lublin = g.zone_index("lublin");
  const int supply = g.base_index("supply");
  const int before = s->count_of(lublin, kGermany, supply);
  ASSERT_TRUE(act(*s, "move 2 infantry warsaw brest").is_ok());
  ASSERT_TRUE(act(*s, "move 1 artillery warsaw brest").is_ok());
  EXPECT_EQ(s->count_of(g.zone_index("warsaw"), kGermany, supply), 3);  // one spent, once
  EXPECT_EQ(s->count_of(lublin, kGermany, supply), before);
}

// 3.25, 3.36: attacking Brest makes a battle; the combat step fights it with logged d12s.
TEST(AaGame, AttackFightsABattleWithRealDice) {
  auto s = start();
  const auto& g = static_cast<const AaGame&>(game());
  ASSERT_TRUE(act(*s, "end").is_ok());
  ASSERT_TRUE(act(*s, "move 4 medium_armor warsaw brest").is_ok());
  ASSERT_TRUE(act(*s, "move 3 artillery warsaw brest").is_ok());
  ASSERT_TRUE(act(*s, "end").is_ok());
  ASSERT_EQ(s->phase(), Phase::kCombat);
  ASSERT_EQ(s->battles().size(), 1u);
  const Status early = act(*s, "end");
  ASSERT_FALSE(early.is_ok());
  EXPECT_EQ(early.error().rule, "1.2.5");
  const uint64_t dice_before = s->dice().counter();
  int rounds = 0;
  while (!s->battles().empty() && rounds < 50) {
    if (s->decision_zone() >= 0) {
      EXPECT_EQ(s->current_player(), kRussia);  // 3.33: the defender decides after a round
      ASSERT_TRUE(act(*s, "stand brest").is_ok());
    }
    ASSERT_TRUE(act(*s, "battle brest").is_ok());
    ++rounds;
  }
  EXPECT_GT(s->dice().counter(), dice_before);
  // 7 attackers at 7 and 4 against 4 defenders: either Brest fell or the attack was wiped out.
  const int brest = g.zone_index("brest");
  if (s->controller(brest) == kAxis) {
    EXPECT_EQ(s->count(brest, kRussia), 0);
  } else {
    EXPECT_EQ(s->count(brest, kAxis), 0);
  }
}

}  // namespace
}  // namespace steppe::aa

#include "kernel/scenario_test.h"

namespace steppe::aa {
namespace {

// The rulebook's worked examples and rules, tests/rulebook/aa/*.scn (one file per section).
TEST(AaRulebook, WorkedExamples) {
  ScenarioEnv env;
  env.games = [](const std::string& id) -> Result<const Game*> {
    if (id != "aa") return Error{"only aa here", "", ""};
    return &game();
  };
  const auto dir = std::filesystem::path(STEPPE_DEFAULT_DATA_DIR).parent_path() / "tests" / "rulebook" / "aa";
  const auto sum = run_scenario_paths({dir}, env);
  EXPECT_GE(sum.passed, 9);
  for (const auto& r : sum.results)
    if (!r.passed) ADD_FAILURE() << r.file << ": " << (r.failure ? r.failure->to_string() : "failed");
}

}  // namespace
}  // namespace steppe::aa

#include "games/aa/battle_calculator.h"

namespace steppe::aa {
namespace {

// The preview of a combat move is the exact calculator's distribution for the battle that
// move makes: 1 German infantry (2) against 1 Russian infantry (4) in the open:
// a round decides with chance 1 - (10/12)(8/12) = 4/9, the attacker alone hitting (2/12)(8/12)
// = 1/9, so P(attacker wins) = 1/4 (closed form).
TEST(AaViews, PreviewOfAnAttackIsTheExactDistribution) {
  auto s = start();
  ASSERT_TRUE(s->test_set({"clear"}).is_ok());
  ASSERT_TRUE(s->test_set({"units", "warsaw", "infantry", "1"}).is_ok());
  ASSERT_TRUE(s->test_set({"units", "warsaw", "supply", "1"}).is_ok());
  ASSERT_TRUE(s->test_set({"units", "bialystok", "russia:infantry", "1"}).is_ok());
  ASSERT_TRUE(s->test_set({"step", "1", "axis", "axis", "combat-move"}).is_ok());
  auto a = s->parse_action("move 1 infantry warsaw bialystok");
  ASSERT_TRUE(a.is_ok());
  auto p = s->preview(*a, kAxis);
  ASSERT_TRUE(p.is_ok()) << p.error().to_string();
  ASSERT_EQ(p->outcomes.size(), 4u);
  EXPECT_NEAR(p->outcomes[0].probability, 0.25, 1e-12);
  EXPECT_NEAR(p->outcomes[1].probability, 0.625, 1e-12);  // (5/18) / (4/9)
  EXPECT_NEAR(p->outcomes[2].probability, 0.125, 1e-12);  // (1/18) / (4/9)
  double sum = 0;
  for (const auto& o : p->outcomes) sum += o.probability;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  // Not an attack: refused citing the rule.
  auto quiet = s->parse_action("move 1 supply warsaw lublin");
  ASSERT_TRUE(quiet.is_ok());
  EXPECT_FALSE(s->preview(*quiet, kAxis).is_ok());
}

}  // namespace
}  // namespace steppe::aa

namespace steppe::aa {
namespace {

// The views answer from the move verb's own rules: where a group can go (3.25, 3.27) and what
// an action means.
TEST(AaViews, ReachAndDescribe) {
  auto s = start();
  ASSERT_TRUE(act(*s, "end").is_ok());  // to the Axis combat move
  auto armor = s->reach("germany:medium_armor@warsaw", kAxis);
  ASSERT_TRUE(armor.is_ok()) << armor.error().to_string();
  EXPECT_EQ(armor->allowance, 2);
  bool brest = false;
  for (const auto& d : armor->destinations) {
    EXPECT_EQ(d.cost, 1);  // a land unit moves one zone an action
    if (d.location == "brest") brest = d.note == "attack (3.25)";
  }
  EXPECT_TRUE(brest);
  // A fighter flies by the cheapest route: Warsaw to Minsk is 2 zones.
  auto fighter = s->reach("germany:fighter@warsaw", kAxis);
  ASSERT_TRUE(fighter.is_ok());
  bool minsk = false;
  for (const auto& d : fighter->destinations)
    if (d.location == "minsk") {
      minsk = true;
      EXPECT_EQ(d.cost, 2);
      EXPECT_EQ(d.path.size(), 2u);
    }
  EXPECT_TRUE(minsk);
  EXPECT_FALSE(s->reach("germany:tank@warsaw", kAxis).is_ok());
  auto a = s->parse_action("move 2 medium_armor warsaw brest");
  ASSERT_TRUE(a.is_ok());
  auto d = s->describe(*a);
  ASSERT_TRUE(d.is_ok());
  EXPECT_EQ(d->verb, "move");
  ASSERT_EQ(d->units.size(), 1u);
  EXPECT_EQ(d->units[0], "germany:medium_armor@warsaw");
  EXPECT_EQ(d->to[0], "brest");
  EXPECT_NE(d->summary.find("(attack)"), std::string::npos);
  // The per-unit actions the UI asks for are that group's moves only.
  std::vector<Action> acts;
  s->legal_actions_for("germany:medium_armor@warsaw", acts);
  EXPECT_FALSE(acts.empty());
  for (const auto& x : acts) EXPECT_EQ(s->action_to_string(x).rfind("move ", 0), 0u);
}

}  // namespace
}  // namespace steppe::aa
