// Spatial kernel speed: supply tracing, path-finding and neighbour lookups on a
// Barbarossa-Deluxe-sized map (23 x 25 = 575 hexes), next to a bare flat-array BFS over
// the same hex graph so the cost of the rules and bookkeeping is visible; and the same
// trace on a generated 20,000-hex map (the size of the largest game planned).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

#include "kernel/hexgrid.h"
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

// A bare BFS over the grid's neighbour table: the floor the tracer is measured against.
size_t bare_bfs(const steppe::HexGrid& g, const std::vector<int>& sources,
                const std::vector<uint8_t>& blocked, std::vector<uint8_t>& seen, std::vector<int>& queue) {
  std::fill(seen.begin(), seen.end(), 0);
  size_t head = 0, tail = 0;
  for (int s : sources)
    if (!blocked[s] && !seen[s]) {
      seen[s] = 1;
      queue[tail++] = s;
    }
  while (head < tail) {
    const int u = queue[head++];
    for (int v : g.neighbours(u))
      if (v >= 0 && !seen[v] && !blocked[v]) {
        seen[v] = 1;
        queue[tail++] = v;
      }
  }
  return tail;
}

// The issue-19 measure, in one run: the kernel's trace on the HexGrid (rules inlined, the
// same precomputed blocked array) against bare_bfs on the same graph, interleaved in
// rounds so both see the same machine load. Counters: ns per whole-map trace of each and
// their ratio (goal: at most 1.3).
void trace_vs_bare_bfs(benchmark::State& state, const steppe::HexGrid& g, const std::vector<int>& sources,
                       const std::vector<uint8_t>& blocked) {
  using Clock = std::chrono::steady_clock;
  const int n = g.size();
  std::vector<uint8_t> seen(static_cast<size_t>(n));
  std::vector<int> queue(static_cast<size_t>(n));
  steppe::SupplyTracer t;
  const auto rule = [&](int node) {
    return blocked[node] ? steppe::SupplyEntry::kBlocked : steppe::SupplyEntry::kOpen;
  };
  const auto any = [](int, int, int) { return true; };
  const int reps = 20;
  double bfs_ns = 0, trace_ns = 0;
  size_t bfs_count = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    for (int k = 0; k < reps; ++k)
      benchmark::DoNotOptimize(bfs_count = bare_bfs(g, sources, blocked, seen, queue));
    const auto t1 = Clock::now();
    for (int k = 0; k < reps; ++k) {
      t.trace(g, sources, rule, any);
      benchmark::DoNotOptimize(t.supplied_nodes().size());
    }
    const auto t2 = Clock::now();
    bfs_ns += std::chrono::duration<double, std::nano>(t1 - t0).count();
    trace_ns += std::chrono::duration<double, std::nano>(t2 - t1).count();
  }
  if (t.supplied_nodes().size() != bfs_count) state.SkipWithError("the trace and the BFS disagree");
  const double runs = static_cast<double>(state.iterations()) * reps;
  state.counters["bfs_ns"] = bfs_ns / runs;
  state.counters["trace_ns"] = trace_ns / runs;
  state.counters["ratio"] = trace_ns / bfs_ns;
  state.counters["supplied"] = static_cast<double>(bfs_count);
}

void BM_SupplyTraceVsBareBfs(benchmark::State& state) {
  trace_vs_bare_bfs(state, bd_map().grid(), position().sources, blocked_nodes(bd_map(), position()));
}
BENCHMARK(BM_SupplyTraceVsBareBfs);

// A generated 100 x 200 = 20,000-hex map: one hex in nine blocked (enemy units, all-sea) at
// random, supply sources along the west edge column.
struct BigMap {
  steppe::HexGrid grid;
  std::vector<uint8_t> blocked;
  std::vector<int> sources;
  BigMap() {
    auto g = steppe::HexGrid::from_json(Json::parse(R"({"id_format": "RRRCCC", "orientation": "pointy",
          "rows": {"first": 0, "last": 99, "increase": "south"},
          "cols": {"first": 0, "last": 199, "increase": "east"}, "odd_rows_shift": "east"})"),
                                        "bench-20k");
    if (!g.is_ok()) std::abort();
    grid = std::move(g).value();
    blocked.assign(static_cast<size_t>(grid.size()), 0);
    uint64_t x = 12345;
    for (auto& b : blocked) {
      x = steppe_bench_next(x);
      b = (x >> 33) % 9 == 0 ? 1 : 0;
    }
    for (int r = 0; r <= 99; ++r) {
      const int s = grid.index(r, 0);
      blocked[static_cast<size_t>(s)] = 0;
      sources.push_back(s);
    }
  }
  static uint64_t steppe_bench_next(uint64_t x) {
    return x * 6364136223846793005ULL + 1442695040888963407ULL;
  }
};

const BigMap& big_map() {
  static const BigMap m;
  return m;
}

void BM_SupplyTrace20kHexes(benchmark::State& state) {
  const BigMap& m = big_map();
  steppe::SupplyTracer t;
  const auto rule = [&](int node) {
    return m.blocked[node] ? steppe::SupplyEntry::kBlocked : steppe::SupplyEntry::kOpen;
  };
  const auto any = [](int, int, int) { return true; };
  for (auto _ : state) {
    t.trace(m.grid, m.sources, rule, any);
    benchmark::DoNotOptimize(t.supplied_nodes().size());
  }
  state.counters["hexes"] = m.grid.size();
  state.counters["supplied"] = static_cast<double>(t.supplied_nodes().size());
}
BENCHMARK(BM_SupplyTrace20kHexes)->Unit(benchmark::kMicrosecond);

void BM_SupplyTraceVsBareBfs20kHexes(benchmark::State& state) {
  trace_vs_bare_bfs(state, big_map().grid, big_map().sources, big_map().blocked);
}
BENCHMARK(BM_SupplyTraceVsBareBfs20kHexes)->Unit(benchmark::kMicrosecond);

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
