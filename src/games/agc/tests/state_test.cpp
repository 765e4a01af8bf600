// AGC: the kernel conformance suite, and random self-play of the short scenario to its end.
#include <gtest/gtest.h>

#include "games/agc/agc.h"
#include "kernel/conformance.h"

namespace agc {
namespace {

const steppe::Game& game() {
  static auto g = load_game(STEPPE_DEFAULT_DATA_DIR);
  if (!g.is_ok()) ADD_FAILURE() << g.error().to_string();
  return *g.value();
}

TEST(AgcState, PassesConformance) {
  const auto rep = steppe::run_conformance(game(), "bialystok-minsk", 2, 7, 400);
  EXPECT_TRUE(rep.ok()) << rep.summary();
}

// Random play that ends a phase one time in eight reaches the end of turn 6 with a result.
TEST(AgcState, RandomSelfPlayOfTheShortScenarioEnds) {
  auto st = game().new_state("bialystok-minsk", 11);
  ASSERT_TRUE(st.is_ok());
  auto& s = *st.value();
  std::vector<steppe::Action> acts;
  uint64_t x = 5;
  int n = 0, attacks = 0;
  while (!s.is_terminal() && n < 200000) {
    s.legal_actions(acts);
    ASSERT_FALSE(acts.empty());
    x = steppe::splitmix64(x);
    const auto& a = (x % 8 == 0) ? acts.back() : acts[(x >> 8) % acts.size()];
    ASSERT_TRUE(s.apply(a).is_ok()) << s.action_to_string(a);
    attacks += a.verb == kAttack ? 1 : 0;
    ++n;
  }
  ASSERT_TRUE(s.is_terminal());
  const auto r = s.result();
  EXPECT_TRUE(r["winner"] == "axis" || r["winner"] == "soviet") << r.dump();
  EXPECT_EQ(r["turn"], 6);
  EXPECT_GT(attacks, 0) << "no attack was made in " << n << " actions";
}

// 10.6.5: a unit entering an enemy ZOC stops; 3.0e.2: no more than 10 stacking points where
// a unit stops, while "Moving and retreating units can freely enter and pass through stacks".
TEST(AgcState, ZocStopsAndStackingRefuses) {
  auto st = game().new_state("bialystok-minsk", 1);
  auto& s = dynamic_cast<AgcState&>(*st.value());
  const auto& g = s.g();
  // find an Axis motorized unit on the map with a legal move
  std::vector<steppe::Action> acts;
  s.legal_actions(acts);
  ASSERT_GT(acts.size(), 1u);
  const auto a = acts.front();
  ASSERT_EQ(a.verb, kMove);
  const int u = a.args[0];
  const int to = a.args[1];
  ASSERT_TRUE(s.apply(a).is_ok());
  EXPECT_EQ(s.us_[u].hex, to);
  if (s.in_enemy_zoc(to, g.units_[u].side)) {
    EXPECT_EQ(s.us_[u].mp_left, 0);
  }
  // Fill a hex past 10 points: the move is refused citing 3.0e.2.
  int full = -1;
  for (int h = 0; h < g.grid_.size(); ++h)
    if (s.stack_[kAxis][h] >= 8) full = h;
  ASSERT_GE(full, 0);
  for (size_t v = 0; v < s.us_.size(); ++v) {
    if (g.units_[v].side != kAxis || s.us_[v].hex < 0 || s.us_[v].hex == full || s.us_[v].mp_left <= 0)
      continue;
    if (!g.grid_.adjacent(s.us_[v].hex, full) || s.stack_[kAxis][full] + g.units_[v].stacking <= 10) continue;
    const auto st2 = s.check_move(static_cast<int>(v), full);
    const auto mc = s.move_cost(static_cast<int>(v), s.us_[v].hex, full);
    const bool passes = mc.halves >= 0 && mc.halves < s.us_[v].mp_left && !mc.whole_ma &&
                        !s.in_enemy_zoc(full, kAxis) && !s.in_enemy_zoc(s.us_[v].hex, kAxis);
    if (passes) {
      EXPECT_TRUE(st2.is_ok()) << st2.error().message;  // it may move on through the stack
      continue;
    }
    if (mc.halves < 0 || s.in_enemy_zoc(s.us_[v].hex, kAxis)) continue;  // refused for another reason
    ASSERT_FALSE(st2.is_ok());
    EXPECT_EQ(st2.error().rule, "3.0e.2");
    return;
  }
  GTEST_SKIP() << "no Axis unit had to stop in an overstacked hex in this set-up (the .scn tests cover it)";
}

// 14.3.2: "The applicable type Orders marker is placed face down on the defender hex. The marker
// will be revealed during the upcoming enemy combat phase."
TEST(AgcState, OrdersMarkersAreFaceDownUntilTheCombatPhase) {
  auto st = game().new_state("empty", 1);
  auto& s = dynamic_cast<AgcState&>(*st.value());
  auto run = [&](std::initializer_list<std::vector<std::string>> sets,
                 std::initializer_list<const char*> acts) {
    for (const auto& w : sets) ASSERT_TRUE(s.test_set(w).is_ok());
    for (const char* text : acts) {
      auto a = s.parse_action(text);
      ASSERT_TRUE(a.is_ok()) << text;
      ASSERT_TRUE(s.apply(a.value()).is_ok()) << text;
    }
  };
  run({{"place", "su-27rd", "1034"}, {"place", "de-7id", "1035"}, {"place", "su-hq3", "1032"}},
      {"declare 1034 by de-7id", "end", "order 1034 no-retreat"});
  EXPECT_EQ(s.observation(kSoviet)["declared"][0]["order"], "no-retreat");
  EXPECT_EQ(s.observation(kAxis)["declared"][0]["order"], "face-down");
  EXPECT_EQ(s.observation(kAxis)["declared"][0]["units"][0], "de-7id");
  run({}, {"end"});  // the Axis Combat Phase: the marker is revealed
  EXPECT_EQ(s.observation(kAxis)["declared"][0]["order"], "no-retreat");
}

// 14.1.1d: a motorized unit bearing an Out of Supply marker may not react.
TEST(AgcState, OutOfSupplyUnitsDoNotReact) {
  auto st = game().new_state("empty", 1);
  auto& s = dynamic_cast<AgcState&>(*st.value());
  for (const auto& w : std::vector<std::vector<std::string>>{{"place", "su-27rd", "1034"},
                                                             {"place", "de-7id", "1035"},
                                                             {"place", "su-102td", "1037"},
                                                             {"place", "su-hq3", "1039"}})
    ASSERT_TRUE(s.test_set(w).is_ok());
  for (const char* text : {"declare 1034 by de-7id", "end"})
    ASSERT_TRUE(s.apply(s.parse_action(text).value()).is_ok());
  const int u = s.g().unit_index("su-102td");
  const auto move = s.parse_action("move su-102td 1038").value();
  EXPECT_TRUE(s.check(move).is_ok());
  s.us_[u].out_of_supply = true;
  const auto st2 = s.check(move);
  ASSERT_FALSE(st2.is_ok());
  EXPECT_EQ(st2.error().rule, "14.1.1");
}

}  // namespace
}  // namespace agc
