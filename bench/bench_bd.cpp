// Barbarossa Deluxe engine speed (issue 7's performance suite, docs/performance.md):
// legal-action generation and apply per phase, clone of a mid-game state next to a memcpy
// of as many bytes, and one random Grand Campaign playout.
#include <benchmark/benchmark.h>

#include <array>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ai/agent.h"
#include "games/all_games.h"
#include "games/bd/bd_state.h"

namespace {

const steppe::Game* bd_game() {
  static std::unique_ptr<steppe::Game> game = [] {
    auto g = steppe::load_game("bd", steppe::default_data_dir());
    return g ? std::move(g).value() : nullptr;
  }();
  return game.get();
}

// The Grand Campaign (seed 7) after `random` has played `decisions` decisions.
std::unique_ptr<steppe::State> bd_position(int decisions) {
  const steppe::Game* g = bd_game();
  if (g == nullptr) return nullptr;
  auto st = g->new_state("grand-campaign", 7);
  if (!st) return nullptr;
  auto s = std::move(st).value();
  auto random = steppe::make_agent("random", 3).value();
  for (int i = 0; i < decisions && !s->is_terminal(); ++i)
    if (!s->apply(random->choose(*s)).is_ok()) break;
  return s;
}

// The first position of each phase (and pending decision) met in a random Grand Campaign,
// keyed by a readable name.
const std::map<std::string, std::unique_ptr<steppe::State>>& phase_positions() {
  static const auto positions = [] {
    std::map<std::string, std::unique_ptr<steppe::State>> out;
    const steppe::Game* g = bd_game();
    if (g == nullptr) return out;
    auto s = g->new_state("grand-campaign", 7).value();
    auto random = steppe::make_agent("random", 3).value();
    std::vector<steppe::Action> legal;
    for (int i = 0; i < 4000 && !s->is_terminal(); ++i) {
      const auto* bd = dynamic_cast<const bd::BdState*>(s.get());
      s->legal_actions(legal);
      std::string key = bd::phase_name(bd->phase());
      bool attack = false;
      for (const auto& a : legal)
        if (a.verb == bd::kAttackFrom || a.verb == bd::kMobileAssault) attack = true;
      if (attack) key += "+attacks";
      if (out.find(key) == out.end() && legal.size() > 1) out.emplace(key, s->clone());
      if (!s->apply(random->choose(*s)).is_ok()) break;
    }
    return out;
  }();
  return positions;
}

// A fresh generation each time: with the move-generation memo on, every repeat of the same
// position would be served from it (what a game gains from the memo is in the playouts).
void BM_BdLegalActions(benchmark::State& bs, const steppe::State* s) {
  std::vector<steppe::Action> legal;
  bd::BdState::set_move_memo_enabled(false);
  for (auto _ : bs) {
    s->legal_actions(legal);
    benchmark::DoNotOptimize(legal.data());
  }
  bd::BdState::set_move_memo_enabled(true);
  bs.counters["actions"] = static_cast<double>(legal.size());
}

// Clone + apply of the first legal action (the clone alone is BM_BdClone).
void BM_BdCloneApply(benchmark::State& bs, const steppe::State* s) {
  std::vector<steppe::Action> legal;
  s->legal_actions(legal);
  const steppe::Action a = legal.back();
  for (auto _ : bs) {
    auto c = s->clone();
    benchmark::DoNotOptimize(c->apply(a).is_ok());
  }
  bs.SetLabel(s->action_to_string(a));
}

// Bytes a BdState owns: the object, which holds its units inline (room for kMaxUnits);
// the vectors left are empty or a few entries in a mid-game position, and the set-up zones
// are shared by every copy.
size_t state_bytes(const steppe::State& s) {
  (void)dynamic_cast<const bd::BdState&>(s);
  return sizeof(bd::BdState);
}

void BM_BdClone(benchmark::State& bs) {
  auto s = bd_position(150);
  if (!s) {
    bs.SkipWithError("BD not available");
    return;
  }
  for (auto _ : bs) {
    auto c = s->clone();
    benchmark::DoNotOptimize(c.get());
  }
  bs.counters["bytes"] = static_cast<double>(state_bytes(*s));
}
BENCHMARK(BM_BdClone);

// The floor for a clone: one allocation and a memcpy of the same number of bytes.
void BM_BdMemcpySameBytes(benchmark::State& bs) {
  auto s = bd_position(150);
  if (!s) {
    bs.SkipWithError("BD not available");
    return;
  }
  const size_t n = state_bytes(*s);
  std::vector<char> src(n, 1);
  for (auto _ : bs) {
    auto dst = std::make_unique_for_overwrite<char[]>(n);
    std::memcpy(dst.get(), src.data(), n);
    benchmark::DoNotOptimize(dst.get());
    benchmark::ClobberMemory();
  }
  bs.counters["bytes"] = static_cast<double>(n);
}
BENCHMARK(BM_BdMemcpySameBytes);

// BD's whole-map overland supply trace (7.3-7.20), both sides, in a mid-game position.
void BM_BdSupplyTrace(benchmark::State& bs) {
  auto s = bd_position(150);
  if (!s) {
    bs.SkipWithError("BD not available");
    return;
  }
  const auto& bd = dynamic_cast<const bd::BdState&>(*s);
  for (auto _ : bs) {
    bd.retrace_supply();
    benchmark::DoNotOptimize(bd.supply_of(0));
  }
}
BENCHMARK(BM_BdSupplyTrace);

// Its floor: a bare breadth-first search per side over the same hex graph, from the same
// edge sources, through every on-map hex that is not all-sea and holds no enemy unit
// (none of the rules' refinements: logistical areas, lakes, fortifications, DP/R, Kerch).
void BM_BdBareBfsBothSides(benchmark::State& bs) {
  auto s = bd_position(150);
  if (!s) {
    bs.SkipWithError("BD not available");
    return;
  }
  const auto& bd = dynamic_cast<const bd::BdState&>(*s);
  std::array<uint8_t, bd::kNumHexes> occ{};
  occ.fill(bd::kNoSide);
  for (int u = 0; u < bd.num_units(); ++u)
    if (bd.unit(u).where == bd::kOnMap) occ[static_cast<size_t>(bd.unit(u).hex)] = bd.def(u).side;
  std::array<uint8_t, bd::kNumHexes> seen{};
  std::array<int16_t, bd::kNumHexes> queue{};
  const steppe::HexGrid& grid = bd.data().grid;
  size_t supplied = 0;
  for (auto _ : bs) {
    supplied = 0;
    for (int side = 0; side < 2; ++side) {
      seen.fill(0);
      size_t head = 0, tail = 0;
      auto open = [&](int h) {
        const bd::HexInfo& x = bd.hex_info(h);
        const uint8_t o = occ[static_cast<size_t>(h)];
        return x.on_map && x.terrain != bd::kAllSea && (o == bd::kNoSide || o == side);
      };
      const auto& sources = side == bd::kGerman ? bd.data().places.german_edge : bd.data().places.soviet_edge;
      for (int h : sources)
        if (h >= 0 && !seen[static_cast<size_t>(h)] && open(h)) {
          seen[static_cast<size_t>(h)] = 1;
          queue[tail++] = static_cast<int16_t>(h);
        }
      while (head < tail) {
        const int a = queue[head++];
        for (const int32_t b : grid.neighbours(a)) {  // the kernel's flat table, as the trace's
          if (b < 0 || seen[static_cast<size_t>(b)] || !open(b)) continue;
          seen[static_cast<size_t>(b)] = 1;
          queue[tail++] = static_cast<int16_t>(b);
        }
      }
      supplied += tail;
    }
    benchmark::DoNotOptimize(supplied);
  }
  bs.counters["supplied"] = static_cast<double>(supplied);
}
BENCHMARK(BM_BdBareBfsBothSides);

// One whole Grand Campaign played by `random` against itself, a new seed each iteration.
// (decisions/game is a mean over the iterations run, so it moves with their number.)
void random_grand_campaigns(benchmark::State& bs) {
  const steppe::Game* g = bd_game();
  if (g == nullptr) {
    bs.SkipWithError("BD not available");
    return;
  }
  uint64_t seed = 1;
  int64_t decisions = 0;
  int64_t games = 0;
  for (auto _ : bs) {
    auto s = g->new_state("grand-campaign", seed).value();
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
void BM_BdRandomGrandCampaign(benchmark::State& bs) { random_grand_campaigns(bs); }
BENCHMARK(BM_BdRandomGrandCampaign)->Unit(benchmark::kMillisecond);

// The same without the move-generation memo (bd::BdState::set_move_memo_enabled): what the
// memo saves, measured in the same run.
void BM_BdRandomGrandCampaignNoMemo(benchmark::State& bs) {
  bd::BdState::set_move_memo_enabled(false);
  random_grand_campaigns(bs);
  bd::BdState::set_move_memo_enabled(true);
}
BENCHMARK(BM_BdRandomGrandCampaignNoMemo)->Unit(benchmark::kMillisecond);

// Per-phase cases, registered at start-up from the positions of one random game.
const bool registered = [] {
  for (const auto& [name, s] : phase_positions()) {
    benchmark::RegisterBenchmark(("BM_BdLegalActions/" + name).c_str(), BM_BdLegalActions, s.get())
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("BM_BdCloneApply/" + name).c_str(), BM_BdCloneApply, s.get())
        ->Unit(benchmark::kMicrosecond);
  }
  return true;
}();

}  // namespace
