// Runs the rulebook worked examples in tests/rulebook/dv/*.scn (one file per rule section)
// through the kernel's scenario-test runner.
#include <gtest/gtest.h>

#include <filesystem>

#include "games/dv/dv.h"
#include "kernel/scenario_test.h"

namespace dv {
namespace {

TEST(DvRulebook, WorkedExamples) {
  static std::unique_ptr<steppe::Game> g = std::move(load_game(STEPPE_DEFAULT_DATA_DIR)).value();
  steppe::ScenarioEnv env;
  env.games = [](const std::string& id) -> steppe::Result<const steppe::Game*> {
    if (id != "dv") return steppe::Error{"only dv here", "", ""};
    return static_cast<const steppe::Game*>(g.get());
  };
  const auto dir = std::filesystem::path(STEPPE_DEFAULT_DATA_DIR).parent_path() / "tests" / "rulebook" / "dv";
  const auto sum = steppe::run_scenario_paths({dir}, env);
  EXPECT_GE(sum.passed, 1);
  for (const auto& r : sum.results)
    if (!r.passed) ADD_FAILURE() << r.file << ": " << (r.failure ? r.failure->to_string() : "failed");
}

}  // namespace
}  // namespace dv
