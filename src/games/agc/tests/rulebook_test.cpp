// Runs the rulebook worked examples in tests/rulebook/agc/*.scn (one file per rule section)
// through the kernel's scenario-test runner.
#include <gtest/gtest.h>

#include "games/agc/agc.h"
#include "kernel/scenario_test.h"

namespace agc {
namespace {

TEST(AgcRulebook, WorkedExamples) {
  static auto g = load_game(STEPPE_DEFAULT_DATA_DIR);
  ASSERT_TRUE(g.is_ok()) << g.error().to_string();
  steppe::ScenarioEnv env;
  env.games = [](const std::string& id) -> steppe::Result<const steppe::Game*> {
    if (id != "agc") return steppe::Error{"only agc here", "", ""};
    return static_cast<const steppe::Game*>(g.value().get());
  };
  env.agents = steppe::uniform_random_chooser();
  const auto dir =
      std::filesystem::path(STEPPE_DEFAULT_DATA_DIR).parent_path() / "tests" / "rulebook" / "agc";
  const auto sum = steppe::run_scenario_paths({dir}, env);
  EXPECT_GE(sum.passed, 3);
  for (const auto& r : sum.results)
    if (!r.passed) ADD_FAILURE() << r.file << ": " << (r.failure ? r.failure->to_string() : "failed");
}

}  // namespace
}  // namespace agc
