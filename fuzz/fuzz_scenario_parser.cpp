// Fuzzes the scenario-test parser and runner (kernel/scenario_test.h) against the race
// test fixture: any text must parse or give a file:line error, and running a parsed test
// must pass or fail cleanly.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kernel/scenario_test.h"
#include "race_game.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const steppe::testing::RaceGame game;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto t = steppe::parse_scenario_test(text, "fuzz.scn");
  if (!t) return 0;
  steppe::ScenarioEnv env;
  env.games = [](const std::string& id) -> steppe::Result<const steppe::Game*> {
    if (id == "race") return static_cast<const steppe::Game*>(&game);
    return steppe::Error{"unknown game", "", ""};
  };
  auto r = steppe::run_scenario_test(*t, env);
  if (!r.passed && !r.failure) __builtin_trap();
  if (r.failure) (void)r.failure->to_string();
  return 0;
}
