#include "kernel/supply.h"

#include <gtest/gtest.h>

#include <random>

#include "kernel/units.h"
#include "test_maps.h"

long steppe_test_allocations();  // counted in pathfinding_test.cpp

namespace steppe {
namespace {

using testing::bd_rect_map;

constexpr int kGerman = 0, kSoviet = 1;

// BD 7.3: German sources are the west-edge hexes 1724-2924 (column 24, rows 17-29).
std::vector<int> german_sources(const HexMap& m) {
  std::vector<int> out;
  for (int r = 17; r <= 29; ++r) out.push_back(m.grid().index(r, 24));
  return out;
}

// BD 7.3 / 7.14: paths may not enter hexes with enemy ground units.
TEST(Supply, BlockedByEnemyUnits_7_3) {
  HexMap m = bd_rect_map();
  UnitSet units(m.size(), 0);
  // A Soviet wall down column 12 from row 10 to row 32 cuts the map in two.
  for (int r = 10; r <= 32; ++r) {
    Unit u;
    u.side = kSoviet;
    units.add(u, "wall" + std::to_string(r), UnitLocation::node(m.grid().index(r, 12)));
  }
  const auto rule = [&](int node) {
    return units.occupied_by_other_side(node, kGerman) ? SupplyEntry::kBlocked : SupplyEntry::kOpen;
  };
  const auto any = [](int, int, int) { return true; };
  SupplyTracer t;
  const auto sources = german_sources(m);
  t.trace(m.graph(), sources, rule, any);
  EXPECT_TRUE(t.supplied(m.find("2020")));
  EXPECT_TRUE(t.supplied(m.find("1013")));
  EXPECT_FALSE(t.supplied(m.find("2012")));  // the wall itself
  EXPECT_FALSE(t.supplied(m.find("2011")));  // east of the wall
  EXPECT_FALSE(t.supplied(m.find("1000")));

  // Open a gap at 2112: the east is supplied again, through the gap.
  units.eliminate(units.find("wall21"));
  t.trace(m.graph(), sources, rule, any);
  EXPECT_TRUE(t.supplied(m.find("2112")));
  ASSERT_TRUE(t.supplied(m.find("1000")));
  std::vector<int> path;
  t.path(m.find("1000"), path);
  ASSERT_FALSE(path.empty());
  EXPECT_EQ(path.front(), m.find("1000"));
  EXPECT_EQ(m.grid().col(path.back()), 24);
  EXPECT_NE(std::find(path.begin(), path.end(), m.find("2112")), path.end());
  EXPECT_EQ(static_cast<int>(path.size()) - 1, t.distance(m.find("1000")));
  for (size_t k = 0; k + 1 < path.size(); ++k) EXPECT_TRUE(m.grid().adjacent(path[k], path[k + 1]));
  EXPECT_EQ(t.source_of(m.find("1000")), path.back());
}

TEST(Supply, EnemyOccupiedSourceDoesNotSupply) {
  HexMap m = bd_rect_map();
  const int src = m.find("2024");
  const auto rule = [&](int node) { return node == src ? SupplyEntry::kBlocked : SupplyEntry::kOpen; };
  SupplyTracer t;
  const int sources[] = {src};
  t.trace(m.graph(), sources, rule, [](int, int, int) { return true; });
  EXPECT_FALSE(t.supplied(src));
  EXPECT_FALSE(t.supplied(m.find("2023")));
  EXPECT_TRUE(t.supplied_nodes().empty());
}

TEST(Supply, MaxLengthAndEdgeRule) {
  HexMap m = bd_rect_map([](int, int c) { return c == 20 ? "all-sea" : "clear"; });
  const int sea = m.terrain_types().find("all-sea");
  const auto open = [](int) { return SupplyEntry::kOpen; };
  const auto no_sea = [&](int from, int to, int) { return m.terrain(from) != sea && m.terrain(to) != sea; };
  SupplyTracer t;
  const int sources[] = {m.find("2015")};
  t.trace(m.graph(), sources, open, no_sea, 3);
  for (int i = 0; i < m.size(); ++i) {
    const int d = m.grid().distance(sources[0], i);
    EXPECT_EQ(t.supplied(i), d <= 3) << m.id(i);
    if (d <= 3) {
      EXPECT_EQ(t.distance(i), d);
    }
  }
  // The sea column cuts the west off from an eastern source.
  t.trace(m.graph(), sources, open, no_sea);
  EXPECT_FALSE(t.supplied(m.find("2021")));
  EXPECT_FALSE(t.supplied(m.find("2020")));
  EXPECT_TRUE(t.supplied(m.find("2019")));
}

// A zone of control that blocks tracing through but not into: the unit in it is supplied,
// the hexes beyond only by another way.
TEST(Supply, EndOnlyNodesEndPaths) {
  NodeGraph::Builder b(4);  // 0 (source) - 1 (ZOC) - 2, and 0 - 3
  for (auto [x, y] : {std::pair{0, 1}, {1, 2}, {0, 3}}) {
    b.add(x, y, 0);
    b.add(y, x, 0);
  }
  NodeGraph g = b.finish();
  const auto rule = [](int n) { return n == 1 ? SupplyEntry::kEndOnly : SupplyEntry::kOpen; };
  const auto any = [](int, int, int) { return true; };
  SupplyTracer t;
  const int sources[] = {0};
  t.trace(g, sources, rule, any);
  EXPECT_TRUE(t.supplied(1));
  EXPECT_FALSE(t.supplied(2));
  EXPECT_TRUE(t.supplied(3));
  EXPECT_FALSE(t.trace_one(
      g, 2, [](int n) { return n == 0; }, rule, any));
  EXPECT_TRUE(t.trace_one(
      g, 1, [](int n) { return n == 0; }, rule, any));
  EXPECT_EQ(t.distance(1), 1);
}

// The one-unit query agrees with the whole-map trace on random blockages and limits.
TEST(Supply, TraceOneAgreesWithTrace) {
  HexMap m = bd_rect_map();
  std::mt19937 rng(11);
  SupplyTracer whole, one;
  std::vector<uint8_t> state(m.size());
  const auto sources = german_sources(m);
  std::vector<uint8_t> is_src(m.size(), 0);
  for (int s : sources) is_src[s] = 1;
  std::vector<int> path;
  for (int round = 0; round < 8; ++round) {
    for (auto& s : state) s = static_cast<uint8_t>(rng() % 10 < 3 ? (rng() % 2 ? 2 : 1) : 0);
    const auto rule = [&](int n) { return static_cast<SupplyEntry>(state[n]); };
    const auto any = [](int, int, int) { return true; };
    const int max_len = round % 2 ? 15 : SupplyTracer::kUnlimited;
    whole.trace(m.graph(), sources, rule, any, max_len);
    for (int i = 0; i < m.size(); ++i) {
      const bool ok = one.trace_one(
          m.graph(), i, [&](int n) { return is_src[n] != 0; }, rule, any, max_len);
      ASSERT_EQ(ok, whole.supplied(i)) << m.id(i) << " round " << round;
      if (!ok) continue;
      EXPECT_EQ(one.distance(i), whole.distance(i));
      one.path(i, path);
      ASSERT_FALSE(path.empty());
      EXPECT_EQ(path.front(), i);
      EXPECT_TRUE(is_src[path.back()]);
      EXPECT_EQ(static_cast<int>(path.size()) - 1, whole.distance(i));
    }
  }
}

TEST(Supply, NoAllocationAfterWarmUp) {
  if (steppe_test_allocations() < 0) GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
  HexMap m = bd_rect_map();
  UnitSet units(m.size(), 0);
  Unit soviet;
  soviet.side = kSoviet;
  for (const char* id : {"2012", "2112", "2212", "1911"})
    units.add(soviet, id, UnitLocation::node(m.find(id)));
  const auto rule = [&](int node) {
    return units.occupied_by_other_side(node, kGerman) ? SupplyEntry::kBlocked : SupplyEntry::kOpen;
  };
  const auto any = [](int, int, int) { return true; };
  const auto sources = german_sources(m);
  SupplyTracer t;
  t.trace(m.graph(), sources, rule, any);  // warm-up
  const long before = steppe_test_allocations();
  for (int k = 0; k < 3; ++k) {
    t.trace(m.graph(), sources, rule, any);
    t.trace_one(
        m.graph(), m.find("1000"), [](int n) { return n % 25 == 24; }, rule, any);
  }
  EXPECT_EQ(steppe_test_allocations(), before);
}

// supplied_marks() is a byte per node, non-zero exactly where supplied() is, also when one
// tracer runs a whole-map trace, then a small one (cleared in one sweep), then a whole-map
// one again (cleared node by node), as a game does for one side and then the other.
TEST(Supply, SuppliedMarksAgreeWithSuppliedAcrossCalls) {
  HexMap m = bd_rect_map();
  const HexGrid& g = m.grid();
  const auto open = [](int) { return SupplyEntry::kOpen; };
  const auto any = [](int, int, int) { return true; };
  const auto sources = german_sources(m);
  const std::vector<int> one_hex = {g.index(20, 12)};
  SupplyTracer t;
  const auto agree = [&](size_t expect_supplied) {
    const std::span<const uint8_t> marks = t.supplied_marks();
    ASSERT_EQ(marks.size(), static_cast<size_t>(g.size()));
    size_t count = 0;
    for (int i = 0; i < g.size(); ++i) {
      ASSERT_EQ(marks[static_cast<size_t>(i)] != 0, t.supplied(i)) << g.id(i);
      count += t.supplied(i) ? 1 : 0;
    }
    EXPECT_EQ(count, expect_supplied);
  };
  t.trace(g, sources, open, any);
  agree(static_cast<size_t>(g.size()));
  t.trace(g, one_hex, open, any, 1);  // the hex and its six neighbours
  agree(7);
  t.trace(g, one_hex, open, any, 0);
  agree(1);
  t.trace(g, sources, open, any);
  agree(static_cast<size_t>(g.size()));
  // After trace_one there are no marks to give (its answer is for one node only).
  t.trace_one(
      g, one_hex[0], [&](int n) { return n == sources[0]; }, open, any);
  EXPECT_TRUE(t.supplied_marks().empty());
}

// The trace on the HexGrid itself (edge = direction, hexside rules as per-hex bitmasks)
// supplies the same hexes at the same distances as on the map's NodeGraph (edge = hexside).
TEST(Supply, HexGridWithSideBitsAgreesWithNodeGraph) {
  HexMap m = bd_rect_map();
  const HexGrid& g = m.grid();
  std::mt19937 rng(5);
  HexSideBits sea(g);
  std::vector<uint8_t> sea_side(static_cast<size_t>(g.hexside_count()), 0);
  std::vector<uint8_t> blocked(static_cast<size_t>(g.size()), 0);
  for (int i = 0; i < g.size(); ++i) {
    blocked[static_cast<size_t>(i)] = rng() % 7 == 0 ? 1 : 0;
    for (int d : {0, 1, 5})
      if (g.neighbour(i, d) >= 0 && rng() % 5 == 0) {
        sea.set(g, i, d);
        sea_side[static_cast<size_t>(g.hexside_index_dir(i, d))] = 1;
      }
  }
  const auto rule = [&](int node) { return blocked[node] ? SupplyEntry::kBlocked : SupplyEntry::kOpen; };
  const auto by_side = [&](int, int, int side) { return sea_side[side] == 0; };
  const auto by_dir = [&](int, int to, int dir) {
    return !sea.test(to, dir);
  };  // dir: from `to` (source end)
  const auto sources = german_sources(m);
  SupplyTracer a, b;
  a.trace(m.graph(), sources, rule, by_side);
  b.trace(g, sources, rule, by_dir);
  // The same rule as a per-hex bitmask of open sides (sides()), the closed ones skipped unread.
  struct OpenSides {
    const HexSideBits* sea;
    unsigned sides(int node) const { return ~static_cast<unsigned>(sea->at(node)) & 0x3Fu; }
    bool operator()(int, int, int) const { return true; }
  };
  SupplyTracer c;
  c.trace(g, sources, rule, OpenSides{&sea});
  int supplied = 0;
  for (int i = 0; i < g.size(); ++i) {
    ASSERT_EQ(a.supplied(i), c.supplied(i)) << g.id(i);
    EXPECT_EQ(a.distance(i), c.distance(i)) << g.id(i);
    ASSERT_EQ(a.supplied(i), b.supplied(i)) << g.id(i);
    EXPECT_EQ(a.distance(i), b.distance(i)) << g.id(i);
    supplied += a.supplied(i) ? 1 : 0;
  }
  EXPECT_GT(supplied, 50);             // the rules left a real supplied region...
  EXPECT_LT(supplied, g.size() - 50);  // ...and a real unsupplied one
  // trace_one's edge is stored at the unit end: the same rule seen from the other side.
  const auto by_dir_one = [&](int from, int, int dir) { return !sea.test(from, dir); };
  const auto is_source = [&](int n) { return std::find(sources.begin(), sources.end(), n) != sources.end(); };
  for (int i = 0; i < g.size(); i += 7) {
    EXPECT_EQ(b.trace_one(g, i, is_source, rule, by_dir_one), a.supplied(i)) << g.id(i);
    if (a.supplied(i)) {
      EXPECT_EQ(b.distance(i), a.distance(i)) << g.id(i);
    }
  }
}

}  // namespace
}  // namespace steppe
