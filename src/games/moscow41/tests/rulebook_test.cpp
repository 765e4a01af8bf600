// Runs the rulebook worked examples in tests/rulebook/moscow41/*.scn (one file per rule
// section) through the kernel's scenario-test runner.
#include "games/moscow41/tests/common.h"
#include "kernel/scenario_test.h"

namespace moscow41 {
namespace {

TEST(Moscow41Rulebook, WorkedExamples) {
  steppe::ScenarioEnv env;
  env.games = [](const std::string& id) -> steppe::Result<const steppe::Game*> {
    if (id != "moscow41") return steppe::Error{"only moscow41 here", "", ""};
    return static_cast<const steppe::Game*>(&test::game());
  };
  // `play random`: a seeded uniform choice among the legal actions (11.0 Option B lets it
  // place the drawn reinforcements; what the test asserts holds for any choice).
  env.agents = steppe::uniform_random_chooser();
  const auto dir =
      std::filesystem::path(STEPPE_DEFAULT_DATA_DIR).parent_path() / "tests" / "rulebook" / "moscow41";
  const auto sum = steppe::run_scenario_paths({dir}, env);
  EXPECT_GE(sum.passed, 8);
  for (const auto& r : sum.results)
    if (!r.passed) ADD_FAILURE() << r.file << ": " << (r.failure ? r.failure->to_string() : "failed");
}

}  // namespace
}  // namespace moscow41
