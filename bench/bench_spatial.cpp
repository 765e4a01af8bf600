// Spatial kernel speed: supply tracing, path-finding and neighbour lookups on a
// Barbarossa-Deluxe-sized map (23 x 25 = 575 hexes), next to a bare flat-array BFS over
// the same hex graph so the cost of the callbacks and bookkeeping is visible.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <deque>
#include <string>
#include <vector>

#include "kernel/hexmap.h"
#include "kernel/pathfinding.h"
#include "kernel/supply.h"
#include "kernel/units.h"

namespace {

using steppe::HexMap;
using steppe::Json;

// The BD grid rectangle, a band of rough terrain and a river line, so costs vary.
const HexMap& bd_map() {
  static const HexMap map = [] {
    Json j;
    j["grid"] = Json::parse(R"({"id_format": "RRCC", "orientation": "pointy",
      "rows": {"first": 10, "last": 32, "increase": "south"},
      "cols": {"first": 0, "last": 24, "increase": "west"}, "odd_rows_shift": "west"})");
    j["terrain_types"] = {"clear", "rough"};
    j["hexside_features"] = {"river"};
    Json hexes = Json::array();
    for (int r = 10; r <= 32; ++r)
      for (int c = 0; c <= 24; ++c) {
        char id[8];
        std::snprintf(id, sizeof id, "%02d%02d", r, c);
        hexes.push_back({{"id", id}, {"terrain", (c == 8 || c == 9) ? "rough" : "clear"}});
      }
    j["hexes"] = hexes;
    Json sides = Json::array();
    for (int r = 10; r <= 32; ++r) {
      char a[8], b[8];
      std::snprintf(a, sizeof a, "%02d14", r);
      std::snprintf(b, sizeof b, "%02d15", r);
      sides.push_back({{"hexes", {a, b}}, {"features", {"river"}}});
    }
    j["hexsides"] = sides;
    auto m = HexMap::from_json(j, "bench");
    if (!m.is_ok()) std::abort();
    return std::move(m).value();
  }();
  return map;
}

// 40 Soviet units along a front with gaps, as in a mid-game position.
struct Position {
  steppe::UnitSet units;
  std::vector<int> sources;
  Position() : units(bd_map().size(), 0) {
    const HexMap& m = bd_map();
    steppe::Unit soviet;
    soviet.side = 1;
    // Units are named after their start hex; column 11 holds the front, column 5 a second line.
    for (int r = 10; r <= 32; ++r)
      if (r % 4 != 0)
        units.add(soviet, m.grid().id(m.grid().index(r, 11)),
                  steppe::UnitLocation::node(m.grid().index(r, 11)));
    for (int r = 12; r <= 32; r += 1)
      if (r % 3 == 0)
        units.add(soviet, m.grid().id(m.grid().index(r, 5)),
                  steppe::UnitLocation::node(m.grid().index(r, 5)));
    for (int r = 17; r <= 29; ++r) sources.push_back(m.grid().index(r, 24));
  }
};

const Position& position() {
  static const Position p;
  return p;
}

// Nodes off the map or held by the other side (side 1) of the position.
std::vector<uint8_t> blocked_nodes(const HexMap& m, const Position& p) {
  std::vector<uint8_t> blocked(static_cast<size_t>(m.size()));
  for (int i = 0; i < m.size(); ++i)
    blocked[i] = (!m.on_map(i) || p.units.occupied_by_other_side(i, 0)) ? 1 : 0;
  return blocked;
}

// The whole-map trace from the position's sources with `rule`, timed.
template <class Rule>
void trace_whole_map(benchmark::State& state, const Rule& rule) {
  const HexMap& m = bd_map();
  const Position& p = position();
  steppe::SupplyTracer t;
  const auto any = [](int, int, int) { return true; };
  for (auto _ : state) {
    t.trace(m.graph(), p.sources, rule, any);
    benchmark::DoNotOptimize(t.supplied_nodes().size());
  }
  state.counters["supplied"] = static_cast<double>(t.supplied_nodes().size());
}

void BM_SupplyTraceWholeMap(benchmark::State& state) {
  const Position& p = position();
  trace_whole_map(state, [&](int node) {
    return p.units.occupied_by_other_side(node, 0) ? steppe::SupplyEntry::kBlocked
                                                   : steppe::SupplyEntry::kOpen;
  });
}
BENCHMARK(BM_SupplyTraceWholeMap);

// The tracer against BM_BareBfsSameGraph on equal terms: its rule reads the same
// precomputed blocked array, so the difference is the tracer's own work (callbacks,
// stamps, distances, paths), not the cost of asking the units who stands where.
void BM_SupplyTracePrecomputedRule(benchmark::State& state) {
  const std::vector<uint8_t> blocked = blocked_nodes(bd_map(), position());
  trace_whole_map(state, [&](int node) {
    return blocked[node] ? steppe::SupplyEntry::kBlocked : steppe::SupplyEntry::kOpen;
  });
}
BENCHMARK(BM_SupplyTracePrecomputedRule);

// The floor: a plain BFS over the grid's neighbour table with a precomputed blocked
// array (no callbacks, no stamps, buffers reused).
void BM_BareBfsSameGraph(benchmark::State& state) {
  const HexMap& m = bd_map();
  const Position& p = position();
  const int n = m.size();
  const std::vector<uint8_t> blocked = blocked_nodes(m, p);
  std::vector<uint8_t> seen(n);
  std::vector<int> queue(n);
  size_t count = 0;
  for (auto _ : state) {
    std::fill(seen.begin(), seen.end(), 0);
    size_t head = 0, tail = 0;
    for (int s : p.sources)
      if (!blocked[s] && !seen[s]) {
        seen[s] = 1;
        queue[tail++] = s;
      }
    while (head < tail) {
      const int u = queue[head++];
      for (int v : m.grid().neighbours(u))
        if (v >= 0 && !seen[v] && !blocked[v]) {
          seen[v] = 1;
          queue[tail++] = v;
        }
    }
    count = tail;
    benchmark::DoNotOptimize(count);
  }
  state.counters["supplied"] = static_cast<double>(count);
}
BENCHMARK(BM_BareBfsSameGraph);

void BM_SupplyTraceOneUnit(benchmark::State& state) {
  const HexMap& m = bd_map();
  const Position& p = position();
  steppe::SupplyTracer t;
  const auto rule = [&](int node) {
    return p.units.occupied_by_other_side(node, 0) ? steppe::SupplyEntry::kBlocked
                                                   : steppe::SupplyEntry::kOpen;
  };
  const auto any = [](int, int, int) { return true; };
  const int from = m.find("2102");
  const auto is_source = [&](int node) {
    return m.grid().col(node) == 24 && m.grid().row(node) >= 17 && m.grid().row(node) <= 29;
  };
  for (auto _ : state) benchmark::DoNotOptimize(t.trace_one(m.graph(), from, is_source, rule, any));
}
BENCHMARK(BM_SupplyTraceOneUnit);

// Reachable set of one unit: 1 MP clear, 2 MP rough, +1 across a river, enemy-occupied
// hexes impassable and their neighbours stop movement (a ZOC).
void BM_PathReachable(benchmark::State& state) {
  const HexMap& m = bd_map();
  const Position& p = position();
  const int rough = m.terrain_types().find("rough");
  const steppe::FeatureBits river = steppe::feature_bit(m.hexside_features().find("river"));
  std::vector<uint8_t> zoc(m.size(), 0);
  for (int i = 0; i < m.size(); ++i)
    if (p.units.occupied_by_other_side(i, 0))
      for (int nb : m.grid().neighbours(i))
        if (nb >= 0) zoc[nb] = 1;
  const auto cost = [&](int, int to, int edge) {
    if (p.units.occupied_by_other_side(to, 0)) return steppe::StepCost::impassable();
    int c = m.terrain(to) == rough ? 2 : 1;
    if ((m.hexside_features_at(edge) & river) != 0) c += 1;
    return steppe::StepCost{c, zoc[to] != 0};
  };
  steppe::PathFinder pf;
  const int start = m.find("2118");
  const int budget = static_cast<int>(state.range(0));
  for (auto _ : state) {
    pf.reachable(m.graph(), start, budget, cost);
    benchmark::DoNotOptimize(pf.reached_nodes().size());
  }
  state.counters["reached"] = static_cast<double>(pf.reached_nodes().size());
}
BENCHMARK(BM_PathReachable)->Arg(4)->Arg(8)->Arg(16);

void BM_NeighbourTableAllHexes(benchmark::State& state) {
  const steppe::HexGrid& g = bd_map().grid();
  for (auto _ : state) {
    long sum = 0;
    for (int i = 0; i < g.size(); ++i)
      for (int nb : g.neighbours(i)) sum += nb;
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * bd_map().size() * 6);
}
BENCHMARK(BM_NeighbourTableAllHexes);

void BM_GraphSpansAllHexes(benchmark::State& state) {
  const steppe::NodeGraph& g = bd_map().graph();
  for (auto _ : state) {
    long sum = 0;
    for (int i = 0; i < g.node_count(); ++i)
      for (const steppe::GraphEdge& e : g.neighbours(i)) sum += e.to + e.id;
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * bd_map().graph().edge_count());
}
BENCHMARK(BM_GraphSpansAllHexes);

void BM_HexDistanceAllPairsFromOne(benchmark::State& state) {
  const steppe::HexGrid& g = bd_map().grid();
  for (auto _ : state) {
    long sum = 0;
    for (int i = 0; i < g.size(); ++i) sum += g.distance(287, i);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * g.size());
}
BENCHMARK(BM_HexDistanceAllPairsFromOne);

}  // namespace
