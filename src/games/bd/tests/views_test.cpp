// Barbarossa Deluxe: the typed views of the State API (kernel/views.h) the server and the
// UI read: describe(), preview() (11.7-11.26), reach() (10.1) and legal_actions_for(). Each
// is checked against the scenario-test query that answers from the same code.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "games/bd/bd_game.h"
#include "games/bd/bd_state.h"
#include "games/bd/tests/bd_test_support.h"

namespace {

using bd_test::fresh;
using bd_test::q;
using bd_test::set;

steppe::Action act(const bd::BdState& s, const std::string& text) {
  auto a = s.parse_action(text);
  EXPECT_TRUE(a.is_ok()) << text << ": " << (a ? "" : a.error().to_string());
  return a ? *a : steppe::Action{};
}

// The position of BdState.CombatPreviewListsEveryShiftWithItsRule: 12 vs 3 into rough
// terrain (11.14 1L), concentric (11.24 1R), with the Luftwaffe (11.23 1R): 4:1 -> 5:1.
void known_attack(bd::BdState& s) {
  set(s, "blank-map");
  set(s, "turn 14");
  set(s, "phase german-assault");
  set(s, "terrain 2403 rough");
  set(s, "place soviet D1 2403 cf 3");
  set(s, "place german A1 2404 cf 9");
  set(s, "place german A2 2402 cf 3");
}

// 11.6 (the browser's subsets): a preview answers only an attack the rules accept now; a
// unit not adjacent to the target or named twice is refused with the rule, as apply() is.
TEST(BdViews, PreviewRefusesAnAttackTheRulesRefuse) {
  auto s = fresh();
  known_attack(*s);
  set(*s, "place german A3 2408 cf 3");  // far from 2403
  const auto subset = s->preview(act(*s, "attack 2403 with A1 A2"), bd::kGerman);
  ASSERT_TRUE(subset.is_ok()) << subset.error().to_string();
  EXPECT_EQ(subset->attack, 12);
  const auto far = s->preview(act(*s, "attack 2403 with A1 A3"), bd::kGerman);
  ASSERT_FALSE(far.is_ok());
  EXPECT_FALSE(far.error().rule.empty());
  const auto twice = s->preview(act(*s, "attack 2403 with A1 A1"), bd::kGerman);
  ASSERT_FALSE(twice.is_ok());
  EXPECT_EQ(twice.error().rule, "11.1");
}

// 11.8-11.11, 11.25: the preview of an attack gives the factors, raw odds, each shift with
// its rule, the final column, and the die's distribution over the results in that column
// of the CRT (data), summing to 1; it agrees with the `combat` query (one code path).
TEST(BdViews, PreviewOfAKnownAttackGivesColumnShiftsAndOutcomes) {
  auto s = fresh();
  known_attack(*s);
  const auto p = s->preview(act(*s, "attack 2403 from 2402 2404 lw"), bd::kGerman);
  ASSERT_TRUE(p.is_ok()) << p.error().to_string();
  EXPECT_EQ(p->kind, "combat");
  EXPECT_EQ(p->attack, 12);
  EXPECT_EQ(p->defense, 3);
  EXPECT_EQ(p->raw, "4:1");
  EXPECT_EQ(p->final, "5:1");
  std::map<std::string, int> by_rule;
  for (const auto& sh : p->shifts) {
    by_rule[sh.rule] += sh.shift;
    EXPECT_FALSE(sh.reason.empty());
  }
  EXPECT_EQ(by_rule, (std::map<std::string, int>{{"11.14", -1}, {"11.23", 1}, {"11.24", 1}}));
  std::map<std::string, double> expected;
  for (int die = 1; die <= 6; ++die) expected[q(*s, "crt 5:1 " + std::to_string(die))] += 1.0 / 6;
  double sum = 0;
  std::map<std::string, double> got;
  for (const auto& o : p->outcomes) {
    sum += o.probability;
    got[o.result] = o.probability;
    EXPECT_FALSE(o.meaning.empty()) << o.result;
    EXPECT_EQ(o.rule, "11.26");
  }
  EXPECT_NEAR(sum, 1.0, 1e-12);
  ASSERT_EQ(got.size(), expected.size());
  for (const auto& [r, pr] : expected) EXPECT_NEAR(got[r], pr, 1e-12) << r;
  const auto j = steppe::Json::parse(q(*s, "combat attack 2403 from 2404 2402 lw"));
  EXPECT_EQ(j["final"], p->final);
  EXPECT_EQ(j["raw"], p->raw);
  EXPECT_EQ(j["shifts"].size(), p->shifts.size());
  EXPECT_EQ(steppe::to_json(*p)["final"], "5:1");
}

// 11.10: final odds above the table are an automatic DE, with no die.
TEST(BdViews, PreviewAboveTheTableIsACertainDe) {
  auto s = fresh();
  set(*s, "blank-map");
  set(*s, "turn 14");
  set(*s, "phase german-assault");
  set(*s, "place soviet D1 2403 cf 1");
  set(*s, "place german A1 2404 cf 9");
  const auto p = s->preview(act(*s, "attack 2403 from 2404"), bd::kGerman);
  ASSERT_TRUE(p.is_ok()) << p.error().to_string();
  EXPECT_EQ(p->final, "auto-DE");
  ASSERT_EQ(p->outcomes.size(), 1u);
  EXPECT_EQ(p->outcomes[0].result, "DE");
  EXPECT_EQ(p->outcomes[0].probability, 1.0);
  EXPECT_EQ(p->outcomes[0].rule, "11.10");
}

// 11.7: the German may not preview an attack on a Soviet stack he sees only the top of
// (its defence would name the hidden units); the Soviet may. Refused exactly as the
// server's query gate refuses the `combat` query.
TEST(BdViews, PreviewOfAHiddenStackIsRefusedCiting11_7) {
  auto s = fresh();
  set(*s, "blank-map");
  set(*s, "turn 14");
  set(*s, "phase german-assault");
  set(*s, "place soviet 16A 2403 cf 3");
  set(*s, "place soviet 20A 2403 cf 3");
  set(*s, "place german A1 2404 cf 9");
  const steppe::Action a = act(*s, "attack 2403 from 2404");
  const auto p = s->preview(a, bd::kGerman);
  ASSERT_FALSE(p.is_ok());
  EXPECT_EQ(p.error().rule, "11.7");
  const auto gate = s->query_allowed(bd::kGerman, steppe::split_words("combat attack 2403 from 2404"));
  ASSERT_FALSE(gate.is_ok());
  EXPECT_EQ(gate.error().message, p.error().message);
  const auto soviet = s->preview(a, bd::kSoviet);
  ASSERT_TRUE(soviet.is_ok()) << soviet.error().to_string();
  EXPECT_EQ(soviet->defense, 6);
  // Nor may the German ask where the hidden unit can go.
  const auto r = s->reach("20A", bd::kGerman);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.error().rule, "11.7");
  EXPECT_FALSE(s->preview(act(*s, "end-phase"), bd::kGerman).is_ok()) << "only attacks are previewed";
}

// 10.1: reach() lists what the `reach` query lists, each destination with its cost and a
// path from the unit's hex (excluded) to it (included); on the blank map a hex costs 1 MP.
TEST(BdViews, ReachMatchesTheReachQueryWithPaths) {
  auto s = fresh();
  set(*s, "blank-map");
  set(*s, "turn 10");
  set(*s, "phase german-movement");
  set(*s, "place german 4Pz 2405");
  set(*s, "place soviet 16A 2402 cf 3");
  const auto r = s->reach("4Pz", bd::kGerman);
  ASSERT_TRUE(r.is_ok()) << r.error().to_string();
  const auto j = steppe::Json::parse(q(*s, "reach 4Pz"));
  EXPECT_EQ(r->unit, "4Pz");
  EXPECT_EQ(r->from, "2405");
  EXPECT_EQ(r->allowance, j["mp"].get<int>());
  ASSERT_EQ(r->destinations.size(), j["hexes"].size());
  ASSERT_FALSE(r->destinations.empty());
  for (const auto& d : r->destinations) {
    ASSERT_TRUE(j["hexes"].contains(d.location)) << d.location;
    EXPECT_EQ(d.cost, j["hexes"][d.location]["cost"].get<int>()) << d.location;
    ASSERT_FALSE(d.path.empty());
    EXPECT_EQ(d.path.back(), d.location);
    EXPECT_EQ(static_cast<int>(d.path.size()), d.cost) << d.location;
    EXPECT_EQ(std::find(d.path.begin(), d.path.end(), "2402"), d.path.end()) << "through an enemy hex (10.4)";
  }
  EXPECT_FALSE(s->reach("99Z", bd::kGerman).is_ok());
}

// 8.30 (ruling BD-C1): a cavalry group's reach passes through a city but never offers it as
// a destination (the move there is refused, so the map must not shade it).
TEST(BdViews, ReachOfACavalryGroupPassesThroughACityButNeverStopsInIt) {
  auto s = fresh();
  set(*s, "blank-map");
  set(*s, "turn 6");
  for (const char* z : {"2400", "2401", "2402", "2403", "2404", "2405"})
    set(*s, std::string("zone ") + z + " south");
  set(*s, "phase soviet-movement");
  set(*s, "place soviet DCG 2402");
  set(*s, "city 2403");
  const auto r = s->reach("DCG", bd::kSoviet);
  ASSERT_TRUE(r.is_ok()) << r.error().to_string();
  bool beyond = false;
  for (const auto& d : r->destinations) {
    EXPECT_NE(d.location, "2403") << "a city is no destination of a cavalry group";
    if (std::find(d.path.begin(), d.path.end(), "2403") != d.path.end()) beyond = true;
  }
  EXPECT_TRUE(beyond) << "a path through the city to a hex beyond it";
  EXPECT_FALSE(s->apply(act(*s, "move DCG 2402 2403")).is_ok());
}

// describe() names the verb, its rule, the unit and where it goes; legal_actions_for()
// gives exactly the unit's actions, in legal_actions() order (the kernel's default, which
// filters every action by describe(), agrees).
TEST(BdViews, DescribeAndLegalActionsForAMove) {
  auto s = fresh();
  set(*s, "blank-map");
  set(*s, "turn 10");
  set(*s, "phase german-movement");
  set(*s, "place german 4Pz 2405");
  set(*s, "place german 3Pz 2410");
  std::vector<steppe::Action> mine;
  s->legal_actions_for("4Pz", mine);
  ASSERT_FALSE(mine.empty());
  std::vector<steppe::Action> all, expected;
  s->legal_actions(all);
  for (const auto& a : all)
    if (s->action_to_string(a).rfind("move 4Pz ", 0) == 0) expected.push_back(a);
  ASSERT_EQ(mine.size(), expected.size());
  for (size_t i = 0; i < mine.size(); ++i)
    EXPECT_EQ(s->action_to_string(mine[i]), s->action_to_string(expected[i]));
  std::vector<steppe::Action> by_default;
  s->steppe::State::legal_actions_for("4Pz", by_default);
  EXPECT_EQ(by_default.size(), mine.size());
  const steppe::Action& mv = mine.back();
  const std::string text = s->action_to_string(mv);
  const std::string dest = text.substr(text.rfind(' ') + 1);
  const auto d = s->describe(mv);
  ASSERT_TRUE(d.is_ok()) << d.error().to_string();
  EXPECT_EQ(d->verb, "move");
  EXPECT_EQ(d->rule, "10.1");
  EXPECT_EQ(d->text, text);
  EXPECT_EQ(d->units, std::vector<std::string>{"4Pz"});
  EXPECT_EQ(d->from, std::vector<std::string>{"2405"});
  EXPECT_EQ(d->to, std::vector<std::string>{dest});
  EXPECT_NE(d->summary.find("4Pz"), std::string::npos);
  EXPECT_NE(d->summary.find(dest), std::string::npos);
}

TEST(BdViews, DescribeOfAnAttackNamesTargetAttackersAndHexes) {
  auto s = fresh();
  known_attack(*s);
  const auto d = s->describe(act(*s, "attack 2403 from 2404 2402 lw"));
  ASSERT_TRUE(d.is_ok()) << d.error().to_string();
  EXPECT_EQ(d->verb, "attack");
  EXPECT_EQ(d->to, std::vector<std::string>{"2403"});
  EXPECT_EQ(d->from, (std::vector<std::string>{"2404", "2402"}));
  EXPECT_EQ(d->units, (std::vector<std::string>{"A1", "A2"}));
  EXPECT_EQ(d->detail["luftwaffe"], true);
  EXPECT_FALSE(s->describe(steppe::Action{}).is_ok());
}

}  // namespace
