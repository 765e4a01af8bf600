// Helpers shared by the sub-commands: failing with a message and an exit code, loading
// games and saves, the agent chooser for scenario tests, and a progress bar that is
// drawn only when stderr is a terminal.
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "kernel/match.h"
#include "kernel/scenario_test.h"
#include "kernel/state.h"

namespace steppe::cli {

// Prints "steppe CMD: message" to stderr and exits with `code` (via CLI::RuntimeError).
[[noreturn]] void fail(const std::string& command, const std::string& message, int code = 1);

// Adds `--data DIR` (default: the source tree's data/ or $STEPPE_DATA).
void add_data_option(CLI::App* sub, std::string& data);
std::filesystem::path data_dir(const std::string& option);

// Loads an installed game or fails ("no game is installed" while none is).
std::unique_ptr<Game> load_game_or_fail(const std::string& command, const std::string& id,
                                        const std::string& data);

// A match loaded from a save file, with the game it needs (declared first: outlives it).
struct LoadedMatch {
  std::unique_ptr<Game> game;
  std::unique_ptr<Match> match;
};
LoadedMatch load_match_or_fail(const std::string& command, const std::filesystem::path& file,
                               const std::string& data);

// The agents of steppe_ai for `expect agent` lines; `budget` > 0 sets MCTS iterations.
AgentChooser steppe_agent_chooser();
// Agent spec with a budget applied ("mcts" + 200 -> "mcts:iters=200").
std::string agent_spec_with_budget(const std::string& name, int budget);

// One adjudication-log line per event: "  [R3] red rolls for movement: rolled 4".
std::string event_line(const Event& e);
// The log of a match as `steppe replay --log` prints it: each action and its events, only
// what `side` may see (-1: everything).
void print_event_log(const Match& m, int side);

// A progress bar on stderr, drawn only when stderr is a terminal, at most ~10 times/s.
class Progress {
 public:
  Progress(std::string label, int64_t total);
  ~Progress();
  void update(int64_t done, const std::string& note = "");
  void finish();

 private:
  std::string label_;
  int64_t total_;
  bool tty_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace steppe::cli
