// Moscow '41 engine speed: the supply query (9.2) for every area, move generation in the
// Command Phase (every block's cheapest routes, 10.8) and one random Campaign playout
// (the supply check of each impulse, 9.1, and everything else a game does).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "ai/agent.h"
#include "games/all_games.h"
#include "games/moscow41/state.h"

namespace {

const steppe::Game* moscow_game() {
  static std::unique_ptr<steppe::Game> game = [] {
    auto g = steppe::load_game("moscow41", steppe::default_data_dir());
    return g ? std::move(g).value() : nullptr;
  }();
  return game.get();
}

// The Campaign (seed 7) at the first Command Phase after `decisions` random decisions in
// which more than 20 actions are legal: a mid-game position with fronts and contested areas.
const moscow41::Moscow41State* command_position(int decisions) {
  static std::unique_ptr<steppe::State> held;
  if (held != nullptr) return dynamic_cast<const moscow41::Moscow41State*>(held.get());
  const steppe::Game* g = moscow_game();
  if (g == nullptr) return nullptr;
  auto s = g->new_state("campaign", 7).value();
  auto random = steppe::make_agent("random", 3).value();
  std::vector<steppe::Action> legal;
  for (int i = 0; i < 20000 && !s->is_terminal(); ++i) {
    const auto* m = dynamic_cast<const moscow41::Moscow41State*>(s.get());
    if (i >= decisions && m->phase() == moscow41::Phase::kCommand) {
      s->legal_actions(legal);
      if (legal.size() > 20) break;
    }
    if (!s->apply(random->choose(*s)).is_ok()) break;
  }
  held = std::move(s);
  return dynamic_cast<const moscow41::Moscow41State*>(held.get());
}

// in_supply_area for every area and both sides (what isolation attrition, recall and
// reinforcement placement ask area by area).
void BM_Moscow41InSupplyEveryArea(benchmark::State& bs) {
  const auto* s = command_position(300);
  if (s == nullptr) {
    bs.SkipWithError("moscow41 not available");
    return;
  }
  const int areas = dynamic_cast<const moscow41::Moscow41Game&>(*moscow_game()).map().area_count();
  int64_t supplied = 0;
  for (auto _ : bs) {
    supplied = 0;
    for (int side : {moscow41::kGerman, moscow41::kSoviet})
      for (int n = 0; n < areas; ++n) supplied += s->in_supply_area(side, n) ? 1 : 0;
    benchmark::DoNotOptimize(supplied);
  }
  bs.counters["supplied"] = static_cast<double>(supplied);
}
BENCHMARK(BM_Moscow41InSupplyEveryArea);

// Legal actions in a Command Phase: every block's cheapest route to each destination.
void BM_Moscow41CommandLegalActions(benchmark::State& bs) {
  const auto* s = command_position(300);
  if (s == nullptr) {
    bs.SkipWithError("moscow41 not available");
    return;
  }
  std::vector<steppe::Action> legal;
  for (auto _ : bs) {
    s->legal_actions(legal);
    benchmark::DoNotOptimize(legal.data());
  }
  bs.counters["actions"] = static_cast<double>(legal.size());
}
BENCHMARK(BM_Moscow41CommandLegalActions);

// Random Campaign games, seeds 1-50: the same games in every build whose self-play hashes
// match, so builds compare on equal work.
void BM_Moscow41RandomCampaign(benchmark::State& bs) {
  const steppe::Game* g = moscow_game();
  if (g == nullptr) {
    bs.SkipWithError("moscow41 not available");
    return;
  }
  uint64_t seed = 1;
  int64_t decisions = 0, games = 0;
  for (auto _ : bs) {
    auto s = g->new_state("campaign", seed).value();
    auto random = steppe::make_agent("random", seed).value();
    ++seed;
    for (int i = 0; i < 200000 && !s->is_terminal(); ++i) {
      if (!s->apply(random->choose(*s)).is_ok()) break;
      ++decisions;
    }
    ++games;
  }
  bs.counters["decisions/game"] =
      static_cast<double>(decisions) / static_cast<double>(std::max<int64_t>(1, games));
}
BENCHMARK(BM_Moscow41RandomCampaign)->Iterations(50)->Unit(benchmark::kMillisecond);

}  // namespace
