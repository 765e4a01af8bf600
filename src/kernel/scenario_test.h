// The scenario-test language (docs/scenario-tests.md): plain-text, line-based files that
// turn every rulebook worked example and bug report into a readable, runnable test.
//
//   name   Attack from two hexes at 3:1
//   rule   10.3
//   game   bd
//   scenario empty          # or a named scenario; default "empty"
//   seed   7                # default 1
//   turn 3                  # bare game-specific set-up words go to State::test_set
//   set place german 4Pz 2514
//   dice 5 3                # the next rolls
//   do move 4Pz 2514 2614   # must be legal and applied
//   illegal move 4Pz 2614 2714 cites 10.3   # must be refused (citing 10.3), state unchanged
//   legal  attack 2714 from 2614
//   expect unit 4Pz hex = 2614              # State::test_query(["unit","4Pz","hex"]) == "2614"
//   expect winner german
//   expect agent mcts seed 3 budget 200 chooses attack 2714 from 2614
//
// The state is created at the first line that needs one. A run stops a file at its first
// failing line and reports file:line, the line, the expected and the actual value.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/state.h"

namespace steppe {

struct ScenarioLine {
  int line = 0;                    // 1-based line number in the file
  std::string text;                // the line without its comment, trimmed
  std::vector<std::string> words;  // text split on whitespace
};

struct ScenarioTest {
  std::string file;
  std::string name;
  std::string rule;
  std::vector<ScenarioLine> lines;  // every non-empty, non-comment line (header lines too)
};

// Parses a scenario-test file's text. Syntax errors (a kernel keyword with missing or
// malformed arguments) are reported as "file:line: ..." Errors.
Result<ScenarioTest> parse_scenario_test(std::string_view text, const std::string& file);

// Finds the Game named on a `game` line (the CLI loads installed games; tests pass
// their own). The Game must outlive the run.
using GameProvider = std::function<Result<const Game*>(const std::string& id)>;
// Lets a named agent choose an action in `state` with a seed and an iteration budget
// (the kernel does not know the agents; the CLI and game tests pass steppe_ai's).
using AgentChooser =
    std::function<Result<Action>(const std::string& agent, uint64_t seed, int budget, const State& state)>;

// The agent `random` alone, without steppe_ai: a seeded uniform choice among the legal
// actions (for game tests whose `play random` lines assert what holds for any choice).
AgentChooser uniform_random_chooser();

struct ScenarioEnv {
  GameProvider games;
  AgentChooser agents;  // may be empty: `expect agent` lines then fail, saying so
  // Called after each file of run_scenario_paths with (files done, files in all); may be
  // empty. The CLI draws its progress bar with it.
  std::function<void(size_t, size_t)> on_file_done;
};

struct ScenarioFailure {
  std::string file;
  int line = 0;
  std::string text;
  std::string expected;
  std::string actual;
  // "file:line: text\n  expected: ...\n  actual:   ..."
  std::string to_string() const;
};

struct ScenarioResult {
  std::string file;
  std::string name;
  bool passed = false;
  int checks = 0;  // assertions that were evaluated and held
  std::optional<ScenarioFailure> failure;
};

ScenarioResult run_scenario_test(const ScenarioTest& test, const ScenarioEnv& env);
// Reads, parses and runs one file (a read or parse error is a failed result).
ScenarioResult run_scenario_file(const std::filesystem::path& file, const ScenarioEnv& env);

struct ScenarioSummary {
  int passed = 0;
  int failed = 0;
  std::vector<ScenarioResult> results;
};

constexpr const char* kScenarioTestExtension = ".scn";
// Runs files and directories (a directory: every *.scn below it, recursively, in sorted
// order). A path that does not exist is a failed result.
ScenarioSummary run_scenario_paths(const std::vector<std::filesystem::path>& paths, const ScenarioEnv& env);

}  // namespace steppe
