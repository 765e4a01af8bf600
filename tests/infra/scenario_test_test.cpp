#include "kernel/scenario_test.h"

#include <gtest/gtest.h>

#include <set>

#include "race_game.h"

namespace steppe {
namespace {

using testing::RaceGame;

ScenarioEnv race_env(const RaceGame& g) {
  ScenarioEnv env;
  env.games = [&g](const std::string& id) -> Result<const Game*> {
    if (id == "race") return static_cast<const Game*>(&g);
    return Error{"unknown game '" + id + "'", "", ""};
  };
  // A stand-in "agent" that picks the first legal action: enough to test the routing.
  env.agents = [](const std::string& name, uint64_t, int, const State& s) -> Result<Action> {
    if (name != "first") return Error{"unknown agent " + name, "", ""};
    std::vector<Action> acts;
    s.legal_actions(acts);
    return acts.front();
  };
  return env;
}

TEST(ScenarioParser, ReadsHeaderAndSkipsComments) {
  auto t = parse_scenario_test("# c\nname  Hello world\nrule 10.3 # tail\n\ngame race\ndo step 1\n", "x.scn");
  ASSERT_TRUE(t.is_ok()) << t.error().to_string();
  EXPECT_EQ(t->name, "Hello world");
  EXPECT_EQ(t->rule, "10.3");
  ASSERT_EQ(t->lines.size(), 4u);
  EXPECT_EQ(t->lines[3].line, 6);
  EXPECT_EQ(t->lines[3].text, "do step 1");
}

TEST(ScenarioParser, SyntaxErrorsNameFileAndLine) {
  for (const char* text :
       {"game\n", "seed x\n", "dice 0\n", "dice 4 y\n", "expect a b\n", "illegal cites 3\n",
        "expect agent x seed\n", "expect agent x chooses\n", "do\n", "", "\n# only\n", "seed -1\n"}) {
    auto t = parse_scenario_test(text, "bad.scn");
    ASSERT_FALSE(t.is_ok()) << text;
    EXPECT_EQ(t.error().where.rfind("bad.scn", 0), 0u) << t.error().to_string();
  }
  auto t = parse_scenario_test("game race\n\nexpect pos red 3\n", "bad.scn");
  ASSERT_FALSE(t.is_ok());
  EXPECT_EQ(t.error().where, "bad.scn:3");
}

TEST(ScenarioRunner, PassingFixtureFilesPass) {
  RaceGame g;
  auto sum = run_scenario_paths({"tests/infra/scenarios/race"}, race_env(g));
  EXPECT_EQ(sum.failed, 0);
  EXPECT_EQ(sum.passed, 3);
  for (const auto& r : sum.results)
    if (!r.passed) ADD_FAILURE() << r.failure->to_string();
  EXPECT_GE(sum.results[0].checks, 5);
}

TEST(ScenarioRunner, EveryFailingFileFailsWithFileLineExpectedActual) {
  RaceGame g;
  auto sum = run_scenario_paths({"tests/infra/scenarios/failing"}, race_env(g));
  EXPECT_EQ(sum.passed, 0);
  EXPECT_EQ(sum.failed, 8);
  for (const auto& r : sum.results) {
    ASSERT_FALSE(r.passed) << r.file;
    ASSERT_TRUE(r.failure.has_value());
    EXPECT_NE(r.failure->to_string().find(r.file), std::string::npos) << r.failure->to_string();
  }
}

ScenarioResult run_text(const RaceGame& g, const std::string& text) {
  auto t = parse_scenario_test(text, "t.scn");
  EXPECT_TRUE(t.is_ok()) << t.error().to_string();
  return run_scenario_test(*t, race_env(g));
}

TEST(ScenarioRunner, WrongValueReportsExpectedAndActual) {
  RaceGame g;
  auto r = run_text(g, "game race\ndo step 2\nexpect pos red = 3\n");
  ASSERT_FALSE(r.passed);
  EXPECT_EQ(r.failure->line, 3);
  EXPECT_EQ(r.failure->expected, "3");
  EXPECT_EQ(r.failure->actual, "2");
  EXPECT_EQ(r.failure->to_string(), "t.scn:3: expect pos red = 3\n  expected: 3\n  actual:   2");
}

// `dice 9` met by a d6 used to reach the game as a 9 (BD read past its CRT row); now the
// roll is clamped and the test fails, naming the value and the die.
TEST(ScenarioRunner, ForcedRollTheDieCannotShowFailsTheTest) {
  RaceGame g;
  auto r = run_text(g, "game race\nscenario short\ndice 9\ndo roll\n");
  ASSERT_FALSE(r.passed);
  EXPECT_EQ(r.failure->line, 4);
  EXPECT_EQ(r.failure->actual, "forced roll 9 met a d6") << r.failure->to_string();
  EXPECT_TRUE(run_text(g, "game race\nscenario short\ndice 6\ndo roll\nexpect pos red = 6\n").passed);
}

TEST(ScenarioRunner, IllegalChecksCitationAndUnchangedState) {
  RaceGame g;
  EXPECT_TRUE(run_text(g, "game race\nillegal step 3 cites R2\n").passed);
  auto r = run_text(g, "game race\nillegal step 3 cites R4\n");
  ASSERT_FALSE(r.passed);
  EXPECT_NE(r.failure->actual.find("R2"), std::string::npos) << r.failure->actual;
  // A game whose refusals change the state is caught.
  RaceGame buggy("h", testing::RaceBugs{.refusal_changes_state = true});
  auto b = run_text(buggy, "game race\nillegal step 3 cites R2\n");
  ASSERT_FALSE(b.passed);
  EXPECT_NE(b.failure->actual.find("state changed"), std::string::npos) << b.failure->actual;
}

TEST(ScenarioRunner, LegalAlsoRequiresListing) {
  RaceGame buggy("h", testing::RaceBugs{.accept_step3 = true});
  auto r = run_text(buggy, "game race\nlegal step 3\n");
  ASSERT_FALSE(r.passed);
  EXPECT_NE(r.failure->actual.find("legal_actions"), std::string::npos);
}

TEST(ScenarioRunner, HeaderAfterStateIsAnError) {
  RaceGame g;
  auto r = run_text(g, "game race\ndo step 1\nseed 4\n");
  ASSERT_FALSE(r.passed);
  EXPECT_EQ(r.failure->line, 3);
}

TEST(ScenarioRunner, SeedAndScenarioAreUsed) {
  RaceGame g;
  // The cards are dealt from the seeded dice, so two seeds give a different deal somewhere.
  std::set<std::string> deals;
  for (int seed = 1; seed <= 6; ++seed) {
    for (int card = 1; card <= 3; ++card) {
      auto r = run_text(g, "game race\nseed " + std::to_string(seed) +
                               "\nexpect card red = " + std::to_string(card) + "\n");
      if (r.passed) deals.insert(std::to_string(card));
    }
  }
  EXPECT_GE(deals.size(), 2u);
  EXPECT_TRUE(
      run_text(g, "game race\nscenario short\ndice 6 1 2\ndo roll\ndo roll\ndo roll\nexpect winner red\n")
          .passed);
  EXPECT_FALSE(
      run_text(g, "game race\nscenario standard\ndice 6 1 2\ndo roll\ndo roll\ndo roll\nexpect winner red\n")
          .passed);
}

TEST(ScenarioRunner, AgentWithoutChooserFailsClearly) {
  RaceGame g;
  auto t = parse_scenario_test("game race\nexpect agent mcts seed 1 budget 5 chooses roll\n", "t.scn");
  ASSERT_TRUE(t.is_ok());
  ScenarioEnv env = race_env(g);
  env.agents = nullptr;
  auto r = run_scenario_test(*t, env);
  ASSERT_FALSE(r.passed);
  EXPECT_NE(r.failure->actual.find("no agents"), std::string::npos);
}

TEST(ScenarioRunner, MissingPathIsAFailure) {
  RaceGame g;
  auto sum = run_scenario_paths({"tests/infra/scenarios/does-not-exist.scn"}, race_env(g));
  EXPECT_EQ(sum.failed, 1);
}

}  // namespace
}  // namespace steppe
