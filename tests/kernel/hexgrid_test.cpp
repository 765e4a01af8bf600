#include "kernel/hexgrid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>

namespace steppe {
namespace {

// Barbarossa Deluxe's grid as the maps helper writes it (digest 000, section 2.2).
Json bd_grid_json() {
  return Json::parse(R"({"id_format": "RRCC", "orientation": "pointy",
    "rows": {"first": 10, "last": 32, "increase": "south"},
    "cols": {"first": 0, "last": 24, "increase": "west"},
    "odd_rows_shift": "west"})");
}

HexGrid bd_grid() {
  auto g = HexGrid::from_json(bd_grid_json(), "bd-test");
  EXPECT_TRUE(g.is_ok()) << g.error().to_string();
  return std::move(g).value();
}

int H(const HexGrid& g, const char* id) {
  const int i = g.parse(id);
  EXPECT_GE(i, 0) << id;
  return i;
}

int nb(const HexGrid& g, const char* id, const char* dir) {
  const int d = g.parse_direction(dir);
  EXPECT_GE(d, 0) << dir;
  return g.neighbour(H(g, id), d);
}

TEST(HexGrid, BdIdsRoundTrip) {
  HexGrid g = bd_grid();
  EXPECT_EQ(g.size(), 23 * 25);
  for (int i = 0; i < g.size(); ++i) EXPECT_EQ(g.parse(g.id(i)), i);
  EXPECT_EQ(g.id(g.index(10, 11)), "1011");
  EXPECT_EQ(g.parse("0911"), -1);  // row 9 is off the map
  EXPECT_EQ(g.parse("1025"), -1);  // column 25 too
  EXPECT_EQ(g.parse("10a1"), -1);
  EXPECT_EQ(g.parse("101"), -1);
  auto e = g.index_of("3300");
  ASSERT_FALSE(e.is_ok());
  EXPECT_NE(e.error().message.find("3300"), std::string::npos);
}

// 11.27: "west of 2403 is 2404; northwest of 2403 is 2303".
TEST(HexGrid, Bd_11_27_DirectionsOf2403) {
  HexGrid g = bd_grid();
  EXPECT_EQ(g.id(nb(g, "2403", "W")), "2404");
  EXPECT_EQ(g.id(nb(g, "2403", "NW")), "2303");
  EXPECT_EQ(g.direction(H(g, "2403"), H(g, "2404")), g.parse_direction("W"));
}

// 7.11: 2210 is two hexes from 2208, 2308 and 2409.
TEST(HexGrid, Bd_7_11_Distances) {
  HexGrid g = bd_grid();
  EXPECT_EQ(g.distance(H(g, "2210"), H(g, "2208")), 2);
  EXPECT_EQ(g.distance(H(g, "2210"), H(g, "2308")), 2);
  EXPECT_EQ(g.distance(H(g, "2210"), H(g, "2409")), 2);
}

// 11.3: 2709 is adjacent to 2609 (NE) and 2708 (E).
TEST(HexGrid, Bd_11_3_Adjacency) {
  HexGrid g = bd_grid();
  EXPECT_EQ(g.id(nb(g, "2709", "NE")), "2609");
  EXPECT_EQ(g.id(nb(g, "2709", "E")), "2708");
}

TEST(HexGrid, BdKerchSivashLeningrad) {
  HexGrid g = bd_grid();
  EXPECT_EQ(g.id(nb(g, "3105", "W")), "3106");  // Kerch strait hexside 3105/3106
  EXPECT_EQ(g.id(nb(g, "3106", "E")), "3105");
  EXPECT_EQ(g.id(nb(g, "2907", "SW")), "3008");         // Sivash 2907/3008
  EXPECT_TRUE(g.adjacent(H(g, "1011"), H(g, "1110")));  // Leningrad siege hexes
  EXPECT_TRUE(g.adjacent(H(g, "1011"), H(g, "1111")));
}

// 3.3: the AGN, AGC and AGS set-up hexes form one contiguous chain.
TEST(HexGrid, Bd_3_3_SetupChainContiguous) {
  HexGrid g = bd_grid();
  const char* chain[] = {"1517", "1617", "1716", "1817", "1917", "2017",
                         "2116", "2216", "2315", "2416", "2516"};
  for (size_t i = 0; i + 1 < std::size(chain); ++i)
    EXPECT_TRUE(g.adjacent(H(g, chain[i]), H(g, chain[i + 1]))) << chain[i] << "-" << chain[i + 1];
}

// Every BD hex follows the digest's offset rule, written out independently here.
TEST(HexGrid, BdMatchesDigestRuleEverywhere) {
  HexGrid g = bd_grid();
  for (int i = 0; i < g.size(); ++i) {
    const int r = g.row(i), c = g.col(i);
    const bool odd = (r & 1) != 0;
    struct D {
      const char* name;
      int dr, dc;
    };
    const D even_rule[] = {{"W", 0, 1},    {"E", 0, -1}, {"NW", -1, 0},
                           {"NE", -1, -1}, {"SW", 1, 0}, {"SE", 1, -1}};
    const D odd_rule[] = {{"W", 0, 1},   {"E", 0, -1}, {"NW", -1, 1},
                          {"NE", -1, 0}, {"SW", 1, 1}, {"SE", 1, 0}};
    for (const D& d : odd ? odd_rule : even_rule)
      EXPECT_EQ(g.neighbour(i, g.parse_direction(d.name)), g.index(r + d.dr, c + d.dc))
          << g.id(i) << " " << d.name;
  }
}

void check_grid_properties(const HexGrid& g) {
  for (int i = 0; i < g.size(); ++i) {
    ASSERT_EQ(g.parse(g.id(i)), i);
    ASSERT_EQ(g.from_cube(g.cube(i)), i);
    const Cube c = g.cube(i);
    ASSERT_EQ(c.q + c.r + c.s, 0);
    for (int d = 0; d < 6; ++d) {
      const int n = g.neighbour(i, d);
      if (n < 0) continue;
      EXPECT_EQ(g.neighbour(n, HexGrid::opposite(d)), i);
      EXPECT_EQ(g.distance(i, n), 1);
      EXPECT_EQ(g.direction(i, n), d);
      const int side = g.hexside_index(i, n);
      ASSERT_GE(side, 0);
      EXPECT_EQ(side, g.hexside_index(n, i));
      EXPECT_EQ(g.hexside_of_index(side), HexGrid::hexside(i, n));
    }
  }
  // Breadth-first distances inside the grid equal the cube distance.
  for (int src : {0, g.size() / 2, g.size() - 1}) {
    std::vector<int> dist(g.size(), -1);
    std::deque<int> q{src};
    dist[src] = 0;
    while (!q.empty()) {
      const int u = q.front();
      q.pop_front();
      for (int n : g.neighbours(u))
        if (n >= 0 && dist[n] < 0) {
          dist[n] = dist[u] + 1;
          q.push_back(n);
        }
    }
    for (int i = 0; i < g.size(); ++i) EXPECT_EQ(dist[i], g.distance(src, i));
  }
}

TEST(HexGrid, PropertiesBd) { check_grid_properties(bd_grid()); }

TEST(HexGrid, PropertiesOtherLayouts) {
  const char* grids[] = {
      R"({"id_format":"RRCC","orientation":"pointy","rows":{"first":1,"last":12,"increase":"north"},
          "cols":{"first":3,"last":20,"increase":"east"},"odd_rows_shift":"east"})",
      R"({"id_format":"CCRR","orientation":"flat","rows":{"first":1,"last":30,"increase":"south"},
          "cols":{"first":1,"last":40,"increase":"east"},"odd_cols_shift":"south"})",
      R"({"id_format":"CC.RR","orientation":"flat","rows":{"first":0,"last":15,"increase":"north"},
          "cols":{"first":0,"last":17,"increase":"west"},"odd_cols_shift":"north"})",
  };
  for (const char* text : grids) {
    auto g = HexGrid::from_json(Json::parse(text), "t");
    ASSERT_TRUE(g.is_ok()) << g.error().to_string();
    check_grid_properties(*g);
  }
}

// Flat-top, odd columns shifted south, CCRR ids, rows rising south, columns east: the
// "odd-q" layout of many hex wargames.
TEST(HexGrid, FlatOddQNeighbours) {
  auto gr = HexGrid::from_json(
      Json::parse(R"({"id_format":"CCRR","orientation":"flat","rows":{"first":1,"last":20,"increase":"south"},
          "cols":{"first":1,"last":20,"increase":"east"},"odd_cols_shift":"south"})"),
      "t");
  ASSERT_TRUE(gr.is_ok());
  const HexGrid& g = *gr;
  // Column 05 is odd (shifted down): NE of 0505 is 0605, SE 0606, N 0504, SW 0406, NW 0405.
  EXPECT_EQ(g.id(nb(g, "0505", "N")), "0504");
  EXPECT_EQ(g.id(nb(g, "0505", "S")), "0506");
  EXPECT_EQ(g.id(nb(g, "0505", "NE")), "0605");
  EXPECT_EQ(g.id(nb(g, "0505", "SE")), "0606");
  EXPECT_EQ(g.id(nb(g, "0505", "SW")), "0406");
  EXPECT_EQ(g.id(nb(g, "0505", "NW")), "0405");
  // Column 06 is even: NE of 0605 is 0704, SE 0705.
  EXPECT_EQ(g.id(nb(g, "0605", "NE")), "0704");
  EXPECT_EQ(g.id(nb(g, "0605", "SE")), "0705");
  EXPECT_EQ(g.parse_direction("E"), -1);  // flat-top grids have no E/W neighbours
  EXPECT_EQ(g.neighbour(H(g, "0101"), g.parse_direction("N")), -1);
}

TEST(HexGrid, LineAndRing) {
  HexGrid g = bd_grid();
  std::vector<int> out;
  for (auto [a, b] : {std::pair{"1011", "3215"}, {"2403", "2403"}, {"1500", "2824"}, {"2210", "2409"}}) {
    g.line(H(g, a), H(g, b), out);
    ASSERT_EQ(static_cast<int>(out.size()), g.distance(H(g, a), H(g, b)) + 1);
    EXPECT_EQ(out.front(), H(g, a));
    EXPECT_EQ(out.back(), H(g, b));
    for (size_t i = 0; i + 1 < out.size(); ++i) {
      ASSERT_GE(out[i + 1], 0);
      EXPECT_TRUE(g.adjacent(out[i], out[i + 1]));
    }
  }
  const int center = H(g, "2112");
  for (int radius = 0; radius <= 5; ++radius) {
    g.ring(center, radius, out);
    EXPECT_EQ(static_cast<int>(out.size()), radius == 0 ? 1 : 6 * radius);
    for (int h : out) EXPECT_EQ(g.distance(center, h), radius);
    std::vector<int> sorted = out;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end());
  }
  g.within(center, 3, out);
  EXPECT_EQ(out.size(), 37u);
  // At a corner the ring is cut by the grid edge.
  g.ring(H(g, "1000"), 1, out);
  EXPECT_EQ(out.size(), 2u);  // 1001 (W) and 1100 (SW); row 10 is even so SE is off-grid
}

struct BadGridCase {
  const char* patch;  // JSON merge patch applied to the BD grid
  const char* where;
  const char* needle;
};

TEST(HexGrid, BadGridErrorsNameFieldAndValue) {
  const BadGridCase cases[] = {
      {R"({"orientation": "pointed"})", "/grid/orientation", "pointed"},
      {R"({"rows": {"increase": "up"}})", "/grid/rows/increase", "up"},
      {R"({"cols": {"last": 100}})", "/grid/cols/last", "100"},
      {R"({"rows": {"first": 30, "last": 20}})", "/grid/rows/last", "20"},
      {R"({"id_format": "RCRC"})", "/grid/id_format", "RCRC"},
      {R"({"odd_rows_shift": "north"})", "/grid/odd_rows_shift", "north"},
      {R"({"orientation": "flat"})", "/grid/odd_rows_shift", "odd_cols_shift"},
      {R"({"colums": 3})", "/grid/colums", "unknown field"},
      {R"({"rows": {"first": "10"}})", "/grid/rows/first", "\"10\""},
  };
  for (const auto& c : cases) {
    Json j = bd_grid_json();
    j.merge_patch(Json::parse(c.patch));
    auto g = HexGrid::from_json(j, "data/x/map.json");
    ASSERT_FALSE(g.is_ok()) << c.patch;
    EXPECT_EQ(g.error().where, std::string("data/x/map.json: ") + c.where) << g.error().to_string();
    EXPECT_NE(g.error().message.find(c.needle), std::string::npos) << g.error().to_string();
  }
}

}  // namespace
}  // namespace steppe

namespace steppe {
namespace {

// The flat hexside table gives the same index as the rule it caches, from either hex.
TEST(HexGrid, HexsideTableMatchesFromBothSides) {
  const HexGrid g = bd_grid();
  for (int i = 0; i < g.size(); ++i)
    for (int d = 0; d < HexGrid::kDirections; ++d) {
      const int nb = g.neighbour(i, d);
      const int side = g.hexside_index_dir(i, d);
      if (nb < 0) {
        EXPECT_EQ(side, -1);
        continue;
      }
      ASSERT_GE(side, 0);
      EXPECT_EQ(side, g.hexside_index_dir(nb, HexGrid::opposite(d)));
      EXPECT_EQ(g.hexside_of_index(side), HexGrid::hexside(i, nb));
    }
}

// A HexGrid is itself a search graph: each on-grid neighbour once, edge = its direction.
TEST(HexGrid, ForEachEdgeListsNeighboursWithDirections) {
  const HexGrid g = bd_grid();
  EXPECT_EQ(g.node_count(), g.size());
  const int corner = H(g, "1000");
  std::vector<std::pair<int, int>> seen;
  g.for_each_edge(corner, [&](int to, int d) { seen.emplace_back(to, d); });
  ASSERT_EQ(seen.size(), 2u);  // a corner hex of the box has two neighbours on the grid
  for (const auto& [to, d] : seen) EXPECT_EQ(g.neighbour(corner, d), to);
  seen.clear();
  const int mid = H(g, "2012");
  g.for_each_edge(mid, [&](int to, int d) { seen.emplace_back(to, d); });
  EXPECT_EQ(seen.size(), 6u);
  // Only the directions of a side mask, in direction order.
  seen.clear();
  g.for_each_edge_in(mid, 0b100101u, [&](int to, int d) { seen.emplace_back(to, d); });
  EXPECT_EQ(seen, (std::vector<std::pair<int, int>>{
                      {g.neighbour(mid, 0), 0}, {g.neighbour(mid, 2), 2}, {g.neighbour(mid, 5), 5}}));
}

// A river set from one hex is seen from its neighbour on the opposite side, and nowhere else.
TEST(HexSideBits, SetMarksTheSideFromBothHexes) {
  const HexGrid g = bd_grid();
  HexSideBits rivers(g);
  const int a = H(g, "2012");
  const int b = g.neighbour(a, 1);
  rivers.set(g, a, 1);
  EXPECT_TRUE(rivers.test(a, 1));
  EXPECT_TRUE(rivers.test(b, HexGrid::opposite(1)));
  EXPECT_EQ(static_cast<unsigned>(rivers.at(a)), 1u << 1);
  EXPECT_EQ(static_cast<unsigned>(rivers.at(b)), 1u << HexGrid::opposite(1));
  int marked = 0;
  for (int i = 0; i < g.size(); ++i) marked += rivers.at(i) != 0 ? 1 : 0;
  EXPECT_EQ(marked, 2);
  rivers.set(g, b, HexGrid::opposite(1), false);  // cleared from the other end
  EXPECT_EQ(static_cast<unsigned>(rivers.at(a)), 0u);
  EXPECT_EQ(static_cast<unsigned>(rivers.at(b)), 0u);
  // A side at the grid's edge has one hex only.
  const int corner = H(g, "1000");
  for (int d = 0; d < HexGrid::kDirections; ++d)
    if (g.neighbour(corner, d) < 0) {
      rivers.set(g, corner, d);
      EXPECT_TRUE(rivers.test(corner, d));
    }
}

}  // namespace
}  // namespace steppe
