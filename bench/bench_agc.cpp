// Army Group Center at scale (issue 23): whole-map supply trace against a bare BFS on the
// same 7,600-hex grid, one unit's movement options, a random playout of the short scenario,
// and clone.
#include <benchmark/benchmark.h>

#include <deque>
#include <vector>

#include "games/agc/agc.h"

namespace {

const agc::AgcGame& agc_game() {
  static auto g = agc::load_game(STEPPE_DEFAULT_DATA_DIR);
  return static_cast<const agc::AgcGame&>(*g.value());
}

std::unique_ptr<agc::AgcState> start() {
  auto s = agc_game().new_state("bialystok-minsk", 3);
  return std::unique_ptr<agc::AgcState>(static_cast<agc::AgcState*>(s.value().release()));
}

void BM_AgcSupplyTraceWholeMap(benchmark::State& st) {
  auto s = start();
  for (auto _ : st) {
    s->trace_supply();  // both sides: Railroad Net, Road Net and two LOC traces each (6.2-6.4)
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_AgcSupplyTraceWholeMap)->Unit(benchmark::kMicrosecond);

// The same two traces as a bare BFS over the grid with no rules.
void BM_AgcBareBfsTwice(benchmark::State& st) {
  const auto& g = agc_game();
  const int n = g.grid().size();
  std::vector<uint8_t> seen(n);
  std::vector<int32_t> queue(n);
  for (auto _ : st) {
    for (int side = 0; side < 2; ++side) {
      std::fill(seen.begin(), seen.end(), 0);
      size_t tail = 0;
      for (int h : g.supply_edge_[side]) {
        if (seen[h] == 0) {
          seen[h] = 1;
          queue[tail++] = h;
        }
      }
      for (size_t head = 0; head < tail; ++head)
        g.grid().for_each_edge(queue[head], [&](int v, int) {
          if (seen[v] == 0) {
            seen[v] = 1;
            queue[tail++] = v;
          }
        });
      benchmark::DoNotOptimize(tail);
    }
  }
}
BENCHMARK(BM_AgcBareBfsTwice)->Unit(benchmark::kMicrosecond);

// One unit's moves now: the six check_move calls (ZOC, stacking, terrain) of one step.
void BM_AgcOneUnitMoveOptions(benchmark::State& st) {
  auto s = start();
  int unit = -1;
  for (size_t u = 0; u < s->us_.size(); ++u)
    if (s->us_[u].hex >= 0 && s->us_[u].mp_left > 0) unit = static_cast<int>(u);
  const int at = s->us_[unit].hex;
  for (auto _ : st) {
    int ok = 0;
    for (int d = 0; d < 6; ++d) {
      const int nb = agc_game().grid().neighbour(at, d);
      if (nb >= 0 && s->check_move(unit, nb).is_ok()) ++ok;
    }
    benchmark::DoNotOptimize(ok);
  }
}
BENCHMARK(BM_AgcOneUnitMoveOptions);

void BM_AgcLegalActions(benchmark::State& st) {
  auto s = start();
  std::vector<steppe::Action> acts;
  for (auto _ : st) {
    s->legal_actions(acts);
    benchmark::DoNotOptimize(acts.data());
  }
}
BENCHMARK(BM_AgcLegalActions)->Unit(benchmark::kMicrosecond);

void BM_AgcRandomPlayoutShortScenario(benchmark::State& st) {
  std::vector<steppe::Action> acts;
  uint64_t seed = 1;
  for (auto _ : st) {
    auto s = start();
    uint64_t x = ++seed;
    while (!s->is_terminal()) {
      s->legal_actions(acts);
      x = steppe::splitmix64(x);
      s->apply_generated((x % 8 == 0) ? acts.back() : acts[(x >> 8) % acts.size()]);
    }
  }
}
BENCHMARK(BM_AgcRandomPlayoutShortScenario)->Unit(benchmark::kMillisecond);

void BM_AgcClone(benchmark::State& st) {
  auto s = start();
  for (auto _ : st) benchmark::DoNotOptimize(s->clone());
}
BENCHMARK(BM_AgcClone)->Unit(benchmark::kMicrosecond);

}  // namespace
