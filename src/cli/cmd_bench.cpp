// `steppe bench`: a fixed set of positions played out and searched to a fixed budget,
// printing a deterministic node count and the speed (in the manner of Stockfish's
// bench). The node count depends only on the code and the data, so a change in it means
// a change in behaviour; nodes/second measures speed on this machine.
//   playouts: from each installed game's scenarios, random playouts with fixed seeds;
//             a node is one applied action (its legal actions are generated each time).
//   --games picks some installed games (the signature chains them in installed order).
//   search:   MCTS with a fixed iteration budget from each scenario's start; a node is
//             one tree node the search created.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <utility>
#include <vector>

#include "ai/agent.h"
#include "ai/mcts.h"
#include "cli/cli_util.h"
#include "cli/command.h"
#include "games/all_games.h"
#include "kernel/notation.h"

namespace steppe::cli {
namespace {

struct BenchArgs {
  int playouts = 4;
  int max_actions = 2000;
  int iterations = 200;
  int scenarios = 2;
  std::vector<std::string> games;  // empty: every installed game
  std::string data;
};

void run(const BenchArgs& a) {
  if (installed_games().empty()) fail("bench", "no game is installed; there is nothing to bench");
  int64_t nodes = 0;
  uint64_t signature = 0;  // hash of every final state: shows the positions were the same
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::pair<std::string, std::unique_ptr<Game>>> games;
  int64_t steps = 0;
  for (const auto& want : a.games) {
    bool known = false;
    for (const auto& entry : installed_games()) known = known || entry.id == want;
    if (!known) fail("bench", "unknown game '" + want + "'");
  }
  for (const auto& entry : installed_games()) {
    if (!a.games.empty() && std::find(a.games.begin(), a.games.end(), entry.id) == a.games.end()) continue;
    games.emplace_back(entry.id, load_game_or_fail("bench", entry.id, a.data));
    steps += std::min<int64_t>(static_cast<int64_t>(games.back().second->scenarios().size()), a.scenarios);
  }
  Progress progress("bench", steps);
  int64_t step = 0;
  for (const auto& [id, g] : games) {
    auto scens = g->scenarios();
    if (static_cast<int>(scens.size()) > a.scenarios) scens.resize(static_cast<size_t>(a.scenarios));
    for (const auto& sc : scens) {
      progress.update(step++, id + "/" + sc.id);
      int64_t scen_nodes = 0;
      for (int p = 0; p < a.playouts; ++p) {
        auto st = g->new_state(sc.id, static_cast<uint64_t>(p) + 1);
        if (!st) fail("bench", st.error().to_string());
        Dice rng(splitmix64(static_cast<uint64_t>(p) + 17));
        std::vector<Action> acts;
        for (int i = 0; i < a.max_actions && !(*st)->is_terminal(); ++i) {
          (*st)->legal_actions(acts);
          if (acts.empty()) break;
          if (!(*st)->apply(acts[static_cast<size_t>(rng.below(static_cast<int>(acts.size())))]).is_ok())
            fail("bench", "a listed legal action was refused in " + id + "/" + sc.id);
          ++scen_nodes;
        }
        signature = splitmix64(signature ^ (*st)->state_hash());
      }
      auto root = g->new_state(sc.id, 1);
      if (root && !(*root)->is_terminal() && a.iterations > 0) {
        ai::MctsConfig cfg;
        cfg.iterations = a.iterations;
        ai::MctsAgent agent(cfg, 1);
        const Action act = agent.choose(**root);
        scen_nodes += static_cast<int64_t>(agent.last_stats().nodes);
        signature = splitmix64(signature ^ act.hash());
      }
      progress.update(step);
      std::cout << id << "/" << sc.id << ": " << scen_nodes << " nodes\n";
      nodes += scen_nodes;
    }
  }
  progress.finish();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "===========================\n";
  std::cout << "Total time (ms) : " << static_cast<int64_t>(secs * 1000.0) << "\n";
  std::cout << "Nodes searched  : " << nodes << "\n";
  std::cout << "Nodes/second    : "
            << static_cast<int64_t>(secs > 0 ? static_cast<double>(nodes) / secs : 0.0) << "\n";
  std::cout << "Signature       : " << hash_to_hex(signature) << "\n";
}

CommandRegistrar bench_cmd("bench", [](CLI::App& app) {
  auto a = std::make_shared<BenchArgs>();
  auto* sub =
      app.add_subcommand("bench", "fixed playouts and searches: deterministic node count and nodes/second");
  sub->add_option("--playouts", a->playouts, "random playouts per scenario (default 4)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--max-actions", a->max_actions, "actions per playout at most (default 2000)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--iterations", a->iterations, "MCTS iterations per scenario start (default 200)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--scenarios", a->scenarios, "scenarios per game, in listed order (default 2)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option(
         "--games", a->games,
         "only these games, in installed order (default: every installed game; a new game changes the "
         "signature, so a refactor of the old ones compares with --games naming them)")
      ->delimiter(',');
  add_data_option(sub, a->data);
  sub->callback([a] { run(*a); });
});

}  // namespace
}  // namespace steppe::cli
