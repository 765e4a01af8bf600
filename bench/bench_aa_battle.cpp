// The exact battle calculator of the Axis & Allies-style Barbarossa (issue 24: a 30-against-30
// mixed battle in under 10 ms on one core).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <string>

#include "games/aa/battle.h"
#include "games/aa/battle_calculator.h"

namespace {

using steppe::aa::BattleSetup;
using steppe::aa::CasualtyOrder;
using steppe::aa::Forces;
using steppe::aa::UnitTypes;

Forces make(const UnitTypes& types, const std::map<std::string, int>& counts) {
  Forces f;
  f.alive.assign(static_cast<size_t>(types.size()), 0);
  f.damaged.assign(static_cast<size_t>(types.size()), 0);
  for (const auto& [id, n] : counts) f.alive[static_cast<size_t>(types.index_of(id))] = n;
  return f;
}

void BM_AaBattleCalculator30v30(benchmark::State& state) {
  auto types = UnitTypes::load("data/aa");
  if (!types) {
    state.SkipWithError(types.error().to_string().c_str());
    return;
  }
  BattleSetup s;
  s.attacker = make(*types, {{"infantry", 12},
                             {"artillery", 4},
                             {"medium_armor", 6},
                             {"ss_panzer", 2},
                             {"fighter", 4},
                             {"tac_bomber", 2}});
  s.defender = make(*types, {{"infantry", 14},
                             {"artillery", 5},
                             {"medium_armor", 5},
                             {"guard_armor", 2},
                             {"fighter", 4},
                             {"aa_gun", 1}});
  // Supply tokens in the zone add a dimension to the states (3.36.2.3: 1s destroy them).
  s.defender.alive[static_cast<size_t>(types->index_of("supply"))] = static_cast<int>(state.range(1));
  s.attacker_order = CasualtyOrder::cheapest_first(*types);
  s.defender_order = CasualtyOrder::cheapest_first(*types);
  steppe::aa::RetreatRule rule;
  if (state.range(0) == 1) rule.below_win_probability = 0.4;
  long states = 0;
  for (auto _ : state) {
    auto odds = steppe::aa::calculate_battle(*types, s, rule);
    if (!odds) {
      state.SkipWithError(odds.error().to_string().c_str());
      return;
    }
    states = odds->states;
    benchmark::DoNotOptimize(odds->attacker_wins);
  }
  state.counters["states"] = static_cast<double>(states);
}
// Args: (0 fight to the end | 1 retreat when the odds of winning fall below 40%, defending
// supply tokens).
BENCHMARK(BM_AaBattleCalculator30v30)
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({0, 2})
    ->Args({1, 2})
    ->Unit(benchmark::kMillisecond);

}  // namespace
