#include "kernel/conformance.h"

#include <gtest/gtest.h>

#include "race_game.h"

namespace steppe {
namespace {

using testing::RaceBugs;
using testing::RaceGame;

TEST(Conformance, CorrectFixturePasses) {
  RaceGame g;
  for (const char* scen : {"standard", "short"}) {
    auto r = run_conformance(g, scen, 40, 1, 200);
    EXPECT_TRUE(r.ok()) << r.summary();
    EXPECT_EQ(r.playouts, 40);
    EXPECT_EQ(r.finished, 40);  // the race always ends within 60 actions
    EXPECT_GT(r.actions, 40 * 3);
    EXPECT_GT(r.illegal_tried, 100);
    EXPECT_GT(r.refusals_without_rule, 0);
    EXPECT_LT(r.refusals_without_rule, r.illegal_tried);  // R1/R2/R4 refusals cite rules
    EXPECT_GT(r.observation_checks, 0);
  }
}

TEST(Conformance, CutPlayoutsAreNotFailures) {
  RaceGame g;
  auto r = run_conformance(g, "standard", 5, 2, 3);
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(r.finished, 0);
  EXPECT_EQ(r.actions, 15);
}

// Each seeded bug must be caught, with a message that says what is wrong.
struct BugCase {
  RaceBugs bugs;
  const char* expected_text;
};

TEST(Conformance, CatchesEachKindOfBug) {
  const std::vector<BugCase> cases = {
      {RaceBugs{.leak_card = true}, "leaks hidden information"},
      {RaceBugs{.accept_step3 = true}, "is not in legal_actions() but is accepted"},
      {RaceBugs{.refusal_changes_state = true}, "changed the state hash"},
      {RaceBugs{.clone_forgets_position = true}, "clone"},
      {RaceBugs{.notation_loses_arg = true}, "does not parse back"},
  };
  for (const auto& c : cases) {
    RaceGame g("h", c.bugs);
    auto r = run_conformance(g, "standard", 10, 3, 100);
    ASSERT_FALSE(r.ok()) << c.expected_text;
    bool found = false;
    for (const auto& f : r.failures) found = found || f.find(c.expected_text) != std::string::npos;
    EXPECT_TRUE(found) << c.expected_text << "\n" << r.summary();
  }
}

TEST(Conformance, UnknownScenarioIsAFailureNotACrash) {
  RaceGame g;
  auto r = run_conformance(g, "nope", 2, 1, 10);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.summary().find("unknown scenario"), std::string::npos);
}

}  // namespace
}  // namespace steppe
