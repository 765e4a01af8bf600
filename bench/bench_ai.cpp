// Agent speed: MCTS simulations per second (the "sims/s" counter) on the test fixtures
// and, when Barbarossa Deluxe is installed, on a BD position after some random moves.
#include <benchmark/benchmark.h>

#include "../tests/ai/fixture_games.h"
#include "ai/agent.h"
#include "ai/heuristics.h"
#include "ai/mcts.h"
#include "games/all_agents.h"
#include "games/all_games.h"

namespace {

using steppe::ai::MctsAgent;
using steppe::ai::parse_mcts_options;

void run_mcts(benchmark::State& bs, const steppe::State& position, const std::string& options) {
  MctsAgent agent(parse_mcts_options(options).value(), 1);
  int64_t sims = 0;
  for (auto _ : bs) {
    benchmark::DoNotOptimize(agent.choose(position));
    sims += agent.last_stats().iterations;
  }
  bs.counters["sims/s"] = benchmark::Counter(static_cast<double>(sims), benchmark::Counter::kIsRate);
  bs.counters["nodes"] = static_cast<double>(agent.last_stats().nodes);
}

// Nim 9 10 11 12 (42 moves at the root), rollouts to the end with the uniform policy.
void BM_MctsNimRollouts(benchmark::State& bs) {
  steppe::fixture::NimGame game("bench-nim");
  auto s = game.new_state("big", 1).value();
  run_mcts(bs, *s, "iters=2000");
}
BENCHMARK(BM_MctsNimRollouts)->Unit(benchmark::kMillisecond);

// The hidden-card game: every simulation resamples the hidden card (determinization).
void BM_MctsHiddenCard(benchmark::State& bs) {
  steppe::fixture::CardGame game;
  auto s = game.new_state("deal", 1).value();
  run_mcts(bs, *s, "iters=2000");
}
BENCHMARK(BM_MctsHiddenCard)->Unit(benchmark::kMillisecond);

// Barbarossa Deluxe grand campaign after `random` has played N decisions (30: still in the
// set-up; 150: a movement phase with about 950 legal actions).
void BM_MctsBdMidGame(benchmark::State& bs) {
  steppe::register_installed_heuristics();
  auto game = steppe::load_game("bd", steppe::default_data_dir());
  if (!game) {
    bs.SkipWithError(("BD not available: " + game.error().to_string()).c_str());
    return;
  }
  // The grand campaign if there is one, else the first scenario that is not the test map.
  std::string scenario;
  for (const auto& sc : game.value()->scenarios())
    if (sc.id == "grand-campaign" || (scenario.empty() && sc.id != "empty")) scenario = sc.id;
  if (scenario.empty()) scenario = "empty";
  auto st = game.value()->new_state(scenario, 7);
  if (!st) {
    bs.SkipWithError(st.error().to_string().c_str());
    return;
  }
  auto s = std::move(st).value();
  auto random = steppe::make_agent("random", 3).value();
  for (int i = 0; i < bs.range(0) && !s->is_terminal(); ++i) {
    if (!s->apply(random->choose(*s)).is_ok()) break;
  }
  if (s->is_terminal()) {
    bs.SkipWithError("the BD game ended during the random opening");
    return;
  }
  std::vector<steppe::Action> legal;
  s->legal_actions(legal);
  bs.SetLabel(scenario + ", " + std::to_string(legal.size()) + " legal actions, e.g. '" +
              s->action_to_string(legal.front()) + "'");
  // Rollouts of 4 actions: BD decisions cost milliseconds each.
  run_mcts(bs, *s, "iters=50:rollout=4");
}
BENCHMARK(BM_MctsBdMidGame)->Arg(30)->Arg(150)->Unit(benchmark::kMillisecond);

// One call of the BD evaluation (what the root's one-ply look and `greedy` pay per action)
// on the Grand Campaign after `random` has played N decisions (150: a German movement
// phase, armies in contact; 300: GT2).
void BM_BdEvaluate(benchmark::State& bs) {
  steppe::register_installed_heuristics();
  auto game = steppe::load_game("bd", steppe::default_data_dir());
  if (!game) {
    bs.SkipWithError(("BD not available: " + game.error().to_string()).c_str());
    return;
  }
  auto st = game.value()->new_state("grand-campaign", 7);
  if (!st) {
    bs.SkipWithError(st.error().to_string().c_str());
    return;
  }
  auto s = std::move(st).value();
  auto random = steppe::make_agent("random", 3).value();
  for (int i = 0; i < bs.range(0) && !s->is_terminal(); ++i)
    if (!s->apply(random->choose(*s)).is_ok()) break;
  const auto heuristics = steppe::ai::make_heuristics(*game.value());
  std::vector<double> values;
  for (auto _ : bs) {
    heuristics->evaluate(*s, values);
    benchmark::DoNotOptimize(values.data());
  }
}
BENCHMARK(BM_BdEvaluate)->Arg(150)->Arg(300);

}  // namespace
