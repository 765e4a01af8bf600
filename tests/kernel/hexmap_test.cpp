#include "kernel/hexmap.h"

#include <gtest/gtest.h>

namespace steppe {
namespace {

constexpr const char* kSmallMap = "tests/kernel/data/small_map.json";

Json small_map_json() {
  auto j = load_json_file(kSmallMap);
  EXPECT_TRUE(j.is_ok()) << j.error().to_string();
  return *j;
}

TEST(HexMap, LoadsSmallMap) {
  auto mr = HexMap::load(kSmallMap);
  ASSERT_TRUE(mr.is_ok()) << mr.error().to_string();
  const HexMap& m = *mr;
  EXPECT_TRUE(m.reconstructed());
  EXPECT_EQ(m.on_map_count(), 8);
  const int len = m.find("1011");
  ASSERT_GE(len, 0);
  EXPECT_EQ(m.find("1013"), -1);  // in the grid, not on the map
  EXPECT_FALSE(m.on_map(m.grid().parse("1013")));
  EXPECT_EQ(m.terrain_name(len), "clear");
  EXPECT_EQ(m.name(len), "Leningrad");
  EXPECT_EQ(m.country_name(len), "ussr");
  const int city = m.hex_features().find("city"), oil = m.hex_features().find("oil");
  EXPECT_TRUE(m.has_feature(len, city));
  EXPECT_FALSE(m.has_feature(len, oil));
  EXPECT_EQ(m.extra(len)["vp"], 1);
  EXPECT_TRUE(m.extra(m.find("1010")).is_null());

  const int neva = m.find("1110");
  const int river = m.hexside_features().find("river");
  EXPECT_TRUE(m.hexside_has(len, neva, river));
  EXPECT_TRUE(m.hexside_has(neva, len, river));  // hexsides are symmetric
  EXPECT_EQ(m.hexside_name(neva, len), "Neva");
  EXPECT_EQ(m.hexside_features(len, m.find("1010")), 0u);

  const int siege = m.regions().find("siege"), north = m.regions().find("north");
  EXPECT_TRUE(m.in_region(neva, siege));
  EXPECT_FALSE(m.in_region(len, siege));
  EXPECT_TRUE(m.in_region(len, north));             // from the hex entry
  EXPECT_TRUE(m.in_region(m.find("1010"), north));  // from the regions object
  EXPECT_EQ(m.region_hexes(north).size(), 3u);

  EXPECT_TRUE(m.rail_between(len, neva));
  EXPECT_TRUE(m.rail_between(neva, m.find("1210")));
  EXPECT_FALSE(m.rail_between(len, m.find("1010")));
  EXPECT_TRUE(m.has_rail(len));
  EXPECT_FALSE(m.has_rail(m.find("1010")));
}

TEST(HexMap, GraphHasOnlyOnMapEdgesWithHexsideIds) {
  auto mr = HexMap::load(kSmallMap);
  ASSERT_TRUE(mr.is_ok());
  const HexMap& m = *mr;
  const NodeGraph& g = m.graph();
  EXPECT_EQ(g.node_count(), m.size());
  int edges = 0;
  for (int i = 0; i < g.node_count(); ++i) {
    for (const GraphEdge& e : g.neighbours(i)) {
      EXPECT_TRUE(m.on_map(i));
      EXPECT_TRUE(m.on_map(e.to));
      EXPECT_EQ(e.id, m.grid().hexside_index(i, e.to));
      ++edges;
    }
  }
  EXPECT_EQ(edges, g.edge_count());
  // 1011: E 1010, W 1012, SE 1110, SW 1111 on the map; north of it is off the grid.
  EXPECT_EQ(g.degree(m.find("1011")), 4);
  const int side = m.grid().hexside_index(m.find("1111"), m.find("1112"));
  EXPECT_EQ(m.hexside_features_at(side), feature_bit(m.hexside_features().find("major-river")) |
                                             feature_bit(m.hexside_features().find("strait")));
}

TEST(HexMap, DescribeHex) {
  auto mr = HexMap::load(kSmallMap);
  ASSERT_TRUE(mr.is_ok());
  auto d = mr->describe("1011");
  ASSERT_TRUE(d.is_ok());
  const Json& j = *d;
  EXPECT_EQ(j["terrain"], "clear");
  EXPECT_EQ(j["features"], Json::parse(R"(["city","port"])"));
  EXPECT_EQ(j["country"], "ussr");
  EXPECT_EQ(j["neighbours"]["SE"], "1110");
  EXPECT_EQ(j["neighbours"]["SW"], "1111");
  EXPECT_EQ(j["neighbours"]["W"], "1012");
  EXPECT_TRUE(j["neighbours"]["NW"].is_null());
  EXPECT_EQ(j["hexsides"]["SE"]["features"], Json::parse(R"(["river"])"));
  EXPECT_EQ(j["hexsides"]["SE"]["name"], "Neva");
  EXPECT_EQ(j["hexsides"]["SE"]["rail"], true);
  EXPECT_FALSE(j["hexsides"].contains("E"));
  EXPECT_EQ(j["extra"]["vp"], 1);
  EXPECT_FALSE(mr->describe("1013").is_ok());  // off the map
  EXPECT_FALSE(mr->describe("xyz").is_ok());
}

void expect_error(const Result<HexMap>& r, const std::string& where, const std::string& needle) {
  ASSERT_FALSE(r.is_ok()) << "expected an error at " << where;
  EXPECT_EQ(r.error().where, where) << r.error().to_string();
  EXPECT_NE(r.error().message.find(needle), std::string::npos) << r.error().to_string();
}

TEST(HexMap, BadFilesNameFileFieldAndValue) {
  expect_error(HexMap::load("tests/kernel/data/bad_map_unknown_terrain.json"),
               "tests/kernel/data/bad_map_unknown_terrain.json: /hexes/3/terrain", "swamp");
  expect_error(HexMap::load("tests/kernel/data/bad_map_hexside_not_adjacent.json"),
               "tests/kernel/data/bad_map_hexside_not_adjacent.json: /hexsides/1/hexes", "not adjacent");
  EXPECT_FALSE(HexMap::load("tests/kernel/data/syntax_error.json").is_ok());
  EXPECT_FALSE(HexMap::load("tests/kernel/data/none.json").is_ok());
}

struct BadCase {
  const char* what;
  void (*mutate)(Json&);
  const char* where;
  const char* needle;
};

TEST(HexMap, EveryKindOfBadDatumIsRefused) {
  const BadCase cases[] = {
      {"duplicate hex", [](Json& j) { j["hexes"][2]["id"] = "1011"; }, "/hexes/2/id", "listed twice"},
      {"id outside grid", [](Json& j) { j["hexes"][0]["id"] = "0910"; }, "/hexes/0/id", "0910"},
      {"unknown feature",
       [](Json& j) {
         j["hexes"][1]["features"] = {"city", "fort"};
       },
       "/hexes/1/features/1", "fort"},
      {"unknown hexside feature", [](Json& j) { j["hexsides"][0]["features"] = {"canal"}; },
       "/hexsides/0/features/0", "canal"},
      {"hexside to off-map hex",
       [](Json& j) {
         j["hexsides"][0]["hexes"] = {"1011", "1012x"};
       },
       "/hexsides/0/hexes/1", "1012x"},
      {"duplicate hexside",
       [](Json& j) {
         j["hexsides"][1]["hexes"] = {"1110", "1011"};
       },
       "/hexsides/1/hexes", "listed twice"},
      {"broken railway",
       [](Json& j) {
         j["railways"][0] = {"1011", "1211"};
       },
       "/railways/0/1", "not adjacent"},
      {"region hex off map",
       [](Json& j) {
         j["regions"]["siege"] = {"1110", "1313"};
       },
       "/regions/siege/1", "1313"},
      {"reconstructed without source", [](Json& j) { j["hexes"][4].erase("source"); }, "/hexes/4", "source"},
      {"terrain declared twice", [](Json& j) { j["terrain_types"].push_back("clear"); }, "/terrain_types/4",
       "twice"},
      {"terrain not a string", [](Json& j) { j["hexes"][0]["terrain"] = 3; }, "/hexes/0/terrain", "3"},
      {"bad grid", [](Json& j) { j["grid"]["orientation"] = "round"; }, "/grid/orientation", "round"},
      {"missing hexes", [](Json& j) { j.erase("hexes"); }, "/hexes", "missing"},
  };
  for (const auto& c : cases) {
    Json j = small_map_json();
    c.mutate(j);
    auto r = HexMap::from_json(j, "map.json");
    SCOPED_TRACE(c.what);
    expect_error(r, std::string("map.json: ") + c.where, c.needle);
  }
}

}  // namespace
}  // namespace steppe
