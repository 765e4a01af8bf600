#include "kernel/pathfinding.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

#include "kernel/areamap.h"
#include "test_maps.h"

// Counts heap allocations, to check that a warmed-up PathFinder allocates nothing. The
// replacement new/delete pair malloc/free; GCC 12 at -O2 misreads that as a mismatch once
// they are inlined, hence the pragma. Under AddressSanitizer (which replaces new/delete
// itself) nothing is counted and the allocation tests are skipped.
#if defined(__SANITIZE_ADDRESS__)
long steppe_test_allocations() { return -1; }
#else
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
namespace {
std::atomic<long> g_allocations{0};
}
void* operator new(size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
long steppe_test_allocations() { return g_allocations.load(); }
#endif

namespace steppe {
namespace {

using testing::bd_rect_map;

TEST(PathFinder, UniformCostReachesExactlyTheHexesWithinRange) {
  HexMap m = bd_rect_map();
  PathFinder pf;
  const int start = m.find("2112");
  pf.reachable(m.graph(), start, 4, [](int, int, int) { return StepCost::enter(1); });
  int count = 0;
  for (int i = 0; i < m.size(); ++i) {
    const int d = m.grid().distance(start, i);
    EXPECT_EQ(pf.reached(i), d <= 4) << m.id(i);
    if (d <= 4) {
      EXPECT_EQ(pf.cost(i), d);
      ++count;
    }
  }
  EXPECT_EQ(count, 61);  // 1 + 6 + 12 + 18 + 24
  EXPECT_EQ(static_cast<int>(pf.reached_nodes().size()), count);
  EXPECT_EQ(pf.reached_nodes().front(), start);
  for (size_t k = 1; k < pf.reached_nodes().size(); ++k)
    EXPECT_LE(pf.cost(pf.reached_nodes()[k - 1]), pf.cost(pf.reached_nodes()[k]));
}

// Crossing a river hexside costs 2 MP more (a typical TEC line); the cheapest path goes
// around the river when it can.
TEST(PathFinder, HexsidePenaltyRoutesAround) {
  HexMap m = bd_rect_map(nullptr, {{"2403", "2404"}, {"2503", "2404"}});
  const int river = m.hexside_features().find("river");
  int blocked = -1;  // a hex made impassable by the test's cost rule
  const auto cost = [&](int from, int to, int edge) {
    (void)from;
    if (to == blocked) return StepCost::impassable();
    int c = 1;
    if ((m.hexside_features_at(edge) & feature_bit(river)) != 0) c += 2;
    return StepCost::enter(c);
  };
  PathFinder pf;
  std::vector<int> path;
  const int a = m.find("2403"), b = m.find("2404");
  EXPECT_EQ(pf.shortest_path(m.graph(), a, b, 10, cost, path), 2);
  ASSERT_EQ(path.size(), 3u);
  EXPECT_EQ(m.id(path[1]), "2303");  // the only dry way round
  blocked = m.find("2303");
  // Via 2503 would cost 1 + 3 (2503/2404 is river too): straight across the river is cheapest.
  EXPECT_EQ(pf.shortest_path(m.graph(), a, b, 10, cost, path), 3);
  ASSERT_EQ(path.size(), 2u);
  EXPECT_EQ(pf.shortest_path(m.graph(), a, b, 2, cost, path), -1);  // not within 2 MP
  EXPECT_TRUE(path.empty());
}

// "Must stop on entering" (e.g. an enemy ZOC): the hex is reached but not passed through,
// while a costlier route that does not stop there can still pass.
TEST(PathFinder, StopOnEnteringIsReachedButNotPassed) {
  // A line graph 0-1-2 plus a detour 0-3-4-1 (cost 3) that arrives at 1 without stopping.
  NodeGraph::Builder b(5);
  const auto link = [&b](int x, int y, int id) {
    b.add(x, y, id);
    b.add(y, x, id);
  };
  link(0, 1, 0);
  link(1, 2, 1);
  link(0, 3, 2);
  link(3, 4, 3);
  link(4, 1, 4);
  NodeGraph g = b.finish();
  const auto cost = [](int from, int to, int) {
    if (from == 0 && to == 1) return StepCost::enter_and_stop(1);  // entering 1 from 0 is into ZOC
    return StepCost::enter(1);
  };
  PathFinder pf;
  pf.reachable(g, 0, 3, cost);
  EXPECT_EQ(pf.cost(1), 1);
  EXPECT_FALSE(pf.reached(2));  // 1 + 1 would need passing through 1 after stopping; 3 + 1 > budget
  pf.reachable(g, 0, 4, cost);
  EXPECT_EQ(pf.cost(1), 1);
  EXPECT_TRUE(pf.can_continue(1));
  EXPECT_EQ(pf.cost(2), 4);  // via the detour
  std::vector<int> path;
  pf.path(2, path);
  EXPECT_EQ(path, (std::vector<int>{0, 3, 4, 1, 2}));
  pf.path(1, path);
  EXPECT_EQ(path, (std::vector<int>{0, 1}));  // the cheapest arrival at 1 is the direct one
}

TEST(PathFinder, AtLeastOneStep) {
  HexMap m = bd_rect_map([](int r, int) { return r == 21 ? "rough" : "clear"; });
  const int rough = m.terrain_types().find("rough");
  const auto cost = [&](int, int to, int) { return StepCost::enter(m.terrain(to) == rough ? 3 : 1); };
  PathFinder pf;
  const int start = m.find("2012"), into = m.find("2112");
  pf.reachable(m.graph(), start, 2, cost);
  EXPECT_FALSE(pf.reached(into));
  pf.reachable(m.graph(), start, 2, cost, MoveOptions{.at_least_one_step = true});
  EXPECT_TRUE(pf.reached(into));
  EXPECT_FALSE(pf.can_continue(into));
  EXPECT_FALSE(pf.reached(m.find("2212")));
}

// Dijkstra against Bellman-Ford on random costs.
TEST(PathFinder, MatchesBellmanFordOnRandomCosts) {
  HexMap m = bd_rect_map();
  std::mt19937 rng(7);
  std::vector<int> edge_cost(m.graph().edge_id_limit());
  for (int& c : edge_cost) c = static_cast<int>(rng() % 5) - 1;  // -1 = impassable
  const auto cost = [&](int, int, int e) {
    return edge_cost[e] < 0 ? StepCost::impassable() : StepCost::enter(edge_cost[e]);
  };
  const int start = m.find("2012"), budget = 9;
  PathFinder pf;
  pf.reachable(m.graph(), start, budget, cost);
  std::vector<int> dist(m.size(), 1 << 29);
  dist[start] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (int u = 0; u < m.size(); ++u)
      for (const GraphEdge& e : m.graph().neighbours(u))
        if (edge_cost[e.id] >= 0 && dist[u] + edge_cost[e.id] < dist[e.to]) {
          dist[e.to] = dist[u] + edge_cost[e.id];
          changed = true;
        }
  }
  std::vector<int> path;
  for (int i = 0; i < m.size(); ++i) {
    ASSERT_EQ(pf.cost(i), dist[i] <= budget ? dist[i] : -1) << m.id(i);
    if (!pf.reached(i)) continue;
    pf.path(i, path);
    int sum = 0;
    for (size_t k = 0; k + 1 < path.size(); ++k)
      sum += edge_cost[m.grid().hexside_index(path[k], path[k + 1])];
    EXPECT_EQ(sum, dist[i]);
  }
}

TEST(PathFinder, SeveralStartsGiveTheNearest) {
  HexMap m = bd_rect_map();
  PathFinder pf;
  const int depots[] = {m.find("1505"), m.find("2820")};
  pf.reachable_from(m.graph(), depots, 6, [](int, int, int) { return StepCost::enter(1); });
  for (int i = 0; i < m.size(); ++i) {
    const int d = std::min(m.grid().distance(depots[0], i), m.grid().distance(depots[1], i));
    ASSERT_EQ(pf.cost(i), d <= 6 ? d : -1) << m.id(i);
  }
  std::vector<int> path;
  pf.path(m.find("1507"), path);
  EXPECT_EQ(path.front(), depots[0]);
  EXPECT_EQ(path.size(), 3u);
}

TEST(PathFinder, NoAllocationAfterWarmUp) {
  HexMap m = bd_rect_map();
  if (steppe_test_allocations() < 0) GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
  PathFinder pf;
  const auto cost = [](int, int, int) { return StepCost::enter(1); };
  pf.reachable(m.graph(), m.find("2112"), 8, cost);  // warm-up
  std::vector<int> path;
  path.reserve(64);
  const long before = steppe_test_allocations();
  for (const char* id : {"1011", "2112", "3215", "1624"}) {
    pf.reachable(m.graph(), m.find(id), 12, cost);
    pf.path(m.find("2112"), path);
    pf.shortest_path(m.graph(), m.find(id), m.find("2000"), 40, cost, path);
  }
  EXPECT_EQ(steppe_test_allocations(), before);
}

TEST(PathFinder, WorksOnAreaMaps) {
  auto am = AreaMap::load("tests/kernel/data/small_areas.json");
  ASSERT_TRUE(am.is_ok());
  const int road = am->connection_types().find("road");
  const auto cost = [&](int, int, int e) {
    return StepCost::enter((am->connection(e).types & feature_bit(road)) != 0 ? 1 : 2);
  };
  PathFinder pf;
  std::vector<int> path;
  // 101 -> 104: via 102 costs 1 (road) + 2 (rail only) + 1 (road) = 4; the untyped 101-103
  // link costs 2, then 1 by road to 104 = 3.
  EXPECT_EQ(pf.shortest_path(am->graph(), am->find("101"), am->find("104"), 10, cost, path), 3);
  EXPECT_EQ(path, (std::vector<int>{am->find("101"), am->find("103"), am->find("104")}));
  EXPECT_EQ(pf.shortest_path(am->graph(), am->find("novgorod"), am->find("pskov"), 10, cost, path), -1);
}

// Wesnoth-style: one search, a cost calculator per unit kind, as a template parameter.
// Mech units pay 2 in rough and may not cross a river; foot units pay 1 and +1 across one.
struct MechCost {
  const HexMap* map;
  const HexSideBits* rivers;
  int rough;
  StepCost operator()(int from, int to, int dir) const {
    if (!map->on_map(to) || rivers->test(from, dir)) return StepCost::impassable();
    return StepCost::enter(map->terrain(to) == rough ? 2 : 1);
  }
};
struct FootCost {
  const HexSideBits* rivers;
  StepCost operator()(int from, int, int dir) const {
    return StepCost::enter(rivers->test(from, dir) ? 2 : 1);
  }
};

TEST(PathFinder, CostCalculatorPerUnitKindOnTheHexGrid) {
  HexMap m = bd_rect_map([](int, int c) { return c == 8 ? "rough" : "clear"; });
  const HexGrid& g = m.grid();
  HexSideBits rivers(g);
  // A river between columns 14 and 15 from edge to edge: every side between the two.
  for (int h = 0; h < g.size(); ++h)
    for (int d = 0; d < HexGrid::kDirections; ++d)
      if (g.col(h) >= 15 && g.neighbour(h, d) >= 0 && g.col(g.neighbour(h, d)) <= 14) rivers.set(g, h, d);
  const int rough = m.terrain_types().find("rough");
  PathFinder pf;
  const int start = m.find("2016");
  pf.reachable(g, start, 4, MechCost{&m, &rivers, rough});
  EXPECT_FALSE(pf.reached(m.find("2014")));  // beyond the river: mech never crosses
  EXPECT_EQ(pf.cost(m.find("2018")), 2);
  pf.reachable(g, start, 4, FootCost{&rivers});
  EXPECT_EQ(pf.cost(m.find("2015")), 1);
  EXPECT_EQ(pf.cost(m.find("2014")), 3);  // 1, then 2 across the river
  // Rough at column 8 costs a mech 2: start beside it.
  pf.reachable(g, m.find("2010"), 4, MechCost{&m, &rivers, rough});
  EXPECT_EQ(pf.cost(m.find("2009")), 1);
  EXPECT_EQ(pf.cost(m.find("2008")), 3);
}

// The same rules on the map's NodeGraph (edge = hexside index) and on the HexGrid (edge =
// direction) give the same costs everywhere.
TEST(PathFinder, HexGridAndNodeGraphAgree) {
  HexMap m = bd_rect_map();
  std::mt19937 rng(11);
  std::vector<int> side_cost(m.grid().hexside_count());
  for (int& c : side_cost) c = static_cast<int>(rng() % 4) - 1;
  const auto by_side = [&](int, int, int side) {
    return side_cost[side] < 0 ? StepCost::impassable() : StepCost::enter(side_cost[side]);
  };
  const auto by_dir = [&](int from, int, int dir) {
    return by_side(0, 0, m.grid().hexside_index_dir(from, dir));
  };
  PathFinder a, b;
  a.reachable(m.graph(), m.find("2012"), 8, by_side);
  b.reachable(m.grid(), m.find("2012"), 8, by_dir);
  for (int i = 0; i < m.size(); ++i) EXPECT_EQ(a.cost(i), b.cost(i)) << m.id(i);
  EXPECT_EQ(a.reached_nodes().size(), b.reached_nodes().size());
}

}  // namespace
}  // namespace steppe
