#include "kernel/areamap.h"

#include <gtest/gtest.h>

#include <vector>

namespace steppe {
namespace {

constexpr const char* kAreas = "tests/kernel/data/small_areas.json";

TEST(AreaMap, LoadsAreasBoxesAndConnections) {
  auto mr = AreaMap::load(kAreas);
  ASSERT_TRUE(mr.is_ok()) << mr.error().to_string();
  const AreaMap& m = *mr;
  EXPECT_TRUE(m.reconstructed());
  EXPECT_EQ(m.area_count(), 4);
  EXPECT_EQ(m.box_count(), 2);
  const int smolensk = m.find("101"), vyazma = m.find("102"), mozhaisk = m.find("103"),
            moscow = m.find("104");
  const int pskov = m.find("pskov"), novgorod = m.find("novgorod");
  ASSERT_GE(smolensk, 0);
  EXPECT_EQ(m.find("999"), -1);
  EXPECT_EQ(m.name(smolensk), "Smolensk");
  EXPECT_FALSE(m.is_box(moscow));
  EXPECT_TRUE(m.is_box(pskov));
  EXPECT_EQ(m.terrain_name(vyazma), "forest");
  EXPECT_EQ(m.terrain(pskov), -1);
  EXPECT_TRUE(m.has_feature(moscow, m.area_features().find("supply-source")));
  EXPECT_FALSE(m.has_feature(smolensk, m.area_features().find("supply-source")));
  EXPECT_EQ(m.polygon(smolensk).size(), 3u);
  EXPECT_DOUBLE_EQ(m.polygon(smolensk)[1][1], 54.9);
  EXPECT_TRUE(m.polygon(vyazma).empty());
  EXPECT_EQ(m.extra(smolensk)["vp"], 1);
  EXPECT_EQ(m.extra(novgorod)["order"], 2);

  const int river = m.connection_types().find("river"), rail = m.connection_types().find("rail");
  EXPECT_TRUE(m.connection_has(smolensk, vyazma, river));
  EXPECT_TRUE(m.connection_has(vyazma, smolensk, river));  // undirected
  EXPECT_FALSE(m.connection_has(vyazma, mozhaisk, river));
  EXPECT_TRUE(m.connection_has(vyazma, mozhaisk, rail));
  EXPECT_GE(m.connection_between(smolensk, mozhaisk), 0);  // plain adjacency, no types
  EXPECT_EQ(m.connection_types_between(smolensk, mozhaisk), 0u);
  EXPECT_EQ(m.connection_between(smolensk, moscow), -1);
  EXPECT_GE(m.connection_between(pskov, novgorod), 0);
  EXPECT_EQ(m.connection_between(novgorod, pskov), -1);  // one way

  const NodeGraph& g = m.graph();
  EXPECT_EQ(g.node_count(), 6);
  EXPECT_EQ(g.degree(smolensk), 2);
  EXPECT_EQ(g.degree(mozhaisk), 3);
  EXPECT_EQ(g.edge_count(), 9);  // 4 undirected * 2 + 1 one-way
  for (const GraphEdge& e : g.neighbours(mozhaisk)) {
    const AreaConnection& c = m.connection(e.id);
    EXPECT_TRUE((c.a == mozhaisk && c.b == e.to) || (c.b == mozhaisk && c.a == e.to));
  }
}

TEST(AreaMap, SubgraphKeepsTheConnectionsOfTheGivenTypes) {
  auto mr = AreaMap::load(kAreas);
  ASSERT_TRUE(mr.is_ok()) << mr.error().to_string();
  const AreaMap& m = *mr;
  const int smolensk = m.find("101"), vyazma = m.find("102"), mozhaisk = m.find("103"),
            moscow = m.find("104");
  const int road = m.connection_types().find("road");
  const NodeGraph roads = m.subgraph(feature_bit(road));
  EXPECT_EQ(roads.node_count(), m.node_count());
  EXPECT_EQ(roads.edge_count(), 4);  // 101-102 and 103-104, both ways
  EXPECT_TRUE(roads.has_edge(smolensk, vyazma));
  EXPECT_TRUE(roads.has_edge(moscow, mozhaisk));
  EXPECT_FALSE(roads.has_edge(vyazma, mozhaisk));     // rail only
  EXPECT_FALSE(roads.has_edge(smolensk, mozhaisk));   // untyped
  const NodeGraph all = m.subgraph(~FeatureBits{0});  // untyped connections are left out
  EXPECT_EQ(all.degree(mozhaisk), 2);
  EXPECT_EQ(m.graph().degree(mozhaisk), 3);
}

TEST(AreaMap, SubgraphNeighboursAreInNodeOrderWhateverTheFileOrder) {
  const Json doc = Json::parse(R"({"connection_types": ["land", "sea"],
    "areas": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}, {"id": "z", "name": "Z"}],
    "connections": [{"a": "z", "b": "x", "types": ["land"]}, {"a": "y", "b": "z", "types": ["sea"]},
                    {"a": "x", "b": "y", "types": ["land"]}]})");
  auto mr = AreaMap::from_json(doc, "inline");
  ASSERT_TRUE(mr.is_ok()) << mr.error().to_string();
  const AreaMap& m = *mr;
  const auto targets = [](const NodeGraph& g, int node) {
    std::vector<int> out;
    for (const GraphEdge& e : g.neighbours(node)) out.push_back(e.to);
    return out;
  };
  EXPECT_EQ(targets(m.graph(), 0), (std::vector<int>{2, 1}));  // file order
  const NodeGraph land = m.subgraph(feature_bit(m.connection_types().find("land")));
  EXPECT_EQ(targets(land, 0), (std::vector<int>{1, 2}));
  EXPECT_EQ(targets(land, 1), (std::vector<int>{0}));  // y-z is sea only
  EXPECT_EQ(land.neighbours(0)[0].id, 2);              // the connection's index in the file
  EXPECT_EQ(land.neighbours(0)[1].id, 0);
}

TEST(AreaMap, Describe) {
  auto mr = AreaMap::load(kAreas);
  ASSERT_TRUE(mr.is_ok());
  auto d = mr->describe("102");
  ASSERT_TRUE(d.is_ok());
  EXPECT_EQ((*d)["name"], "Vyazma");
  EXPECT_EQ((*d)["box"], false);
  ASSERT_EQ((*d)["neighbours"].size(), 2u);
  EXPECT_EQ((*d)["neighbours"][0]["id"], "101");
  EXPECT_EQ((*d)["neighbours"][0]["types"], Json::parse(R"(["road","river"])"));
  EXPECT_FALSE(mr->describe("nowhere").is_ok());
}

struct BadCase {
  const char* what;
  void (*mutate)(Json&);
  const char* where;
  const char* needle;
};

TEST(AreaMap, BadDataIsRefusedWithPath) {
  const BadCase cases[] = {
      {"duplicate id", [](Json& j) { j["boxes"][0]["id"] = "101"; }, "/boxes/0/id", "used twice"},
      {"unknown endpoint", [](Json& j) { j["connections"][1]["b"] = "777"; }, "/connections/1/b", "777"},
      {"unknown type", [](Json& j) { j["connections"][0]["types"] = {"ferry"}; }, "/connections/0/types/0",
       "ferry"},
      {"self loop", [](Json& j) { j["connections"][0]["b"] = "101"; }, "/connections/0/b", "two different"},
      {"duplicate connection",
       [](Json& j) {
         j["connections"].push_back({{"a", "102"}, {"b", "101"}});
       },
       "/connections/5", "listed twice"},
      {"bad polygon point",
       [](Json& j) {
         j["areas"][0]["polygon"][1] = {32.0, 95.0};
       },
       "/areas/0/polygon/1", "95"},
      {"short polygon", [](Json& j) { j["areas"][0]["polygon"].erase(2); }, "/areas/0/polygon", "3 points"},
      {"unknown terrain", [](Json& j) { j["areas"][1]["terrain"] = "taiga"; }, "/areas/1/terrain", "taiga"},
      {"unknown feature", [](Json& j) { j["areas"][1]["features"] = {"bunker"}; }, "/areas/1/features/0",
       "bunker"},
      {"no source", [](Json& j) { j.erase("source"); }, "", "source"},
      {"missing connection types", [](Json& j) { j.erase("connection_types"); }, "/connection_types",
       "missing"},
  };
  auto base = load_json_file(kAreas);
  ASSERT_TRUE(base.is_ok());
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    Json j = *base;
    c.mutate(j);
    auto r = AreaMap::from_json(j, "areas.json");
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.error().where, std::string("areas.json") + (c.where[0] ? ": " : "") + c.where)
        << r.error().to_string();
    EXPECT_NE(r.error().message.find(c.needle), std::string::npos) << r.error().to_string();
  }
}

}  // namespace
}  // namespace steppe
