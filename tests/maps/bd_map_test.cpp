// The Barbarossa Deluxe map (data/bd/map.json): every hex and hexside the rulebook names
// holds what the text says, loaded through the kernel's validated HexMap loader.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "kernel/hexmap.h"

namespace steppe {
namespace {

class BdMap : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto m = HexMap::load("data/bd/map.json");
    ASSERT_TRUE(m.is_ok()) << m.error().to_string();
    map_ = new HexMap(std::move(m).value());
  }
  static void TearDownTestSuite() {
    delete map_;
    map_ = nullptr;
  }
  static int hex(const std::string& id) {
    const int h = map_->find(id);
    EXPECT_GE(h, 0) << id << " is not on the map";
    return h;
  }
  static bool feature(const std::string& id, const std::string& f) {
    const int h = hex(id);
    const int fi = map_->hex_features().find(f);
    return h >= 0 && fi >= 0 && map_->has_feature(h, fi);
  }
  static bool side(const std::string& a, const std::string& b, const std::string& f) {
    const int fi = map_->hexside_features().find(f);
    return fi >= 0 && map_->hexside_has(hex(a), hex(b), fi);
  }
  static std::string terrain(const std::string& id) {
    const int h = hex(id);
    return h >= 0 ? map_->terrain_name(h) : "";
  }
  static std::string control(const std::string& id) {
    const int h = hex(id);
    if (h < 0) return "";
    const Json& e = map_->extra(h);
    return e.is_object() && e.contains("control") ? e["control"].get<std::string>() : "";
  }
  static std::set<std::string> region(const std::string& name) {
    std::set<std::string> out;
    const int r = map_->regions().find(name);
    if (r < 0) return out;
    for (int h : map_->region_hexes(r)) out.insert(map_->id(h));
    return out;
  }
  static bool land(const std::string& id) {
    const auto t = terrain(id);
    return !t.empty() && t != "all-sea" && t != "all-lake";
  }
  static HexMap* map_;
};
HexMap* BdMap::map_ = nullptr;

TEST_F(BdMap, IsReconstructedWithSource) {
  EXPECT_TRUE(map_->reconstructed());
  EXPECT_FALSE(map_->json().value("source", "").empty());
}

// 1.4: map sides north 1000-1624, east 1000-3200, south 3200-2924, west 1624-2924.
TEST_F(BdMap, Rule1_4_MapSidesAndCorners) {
  for (const char* id : {"1000", "1624", "3200", "2924"}) EXPECT_GE(map_->find(id), 0) << id;
  for (int r = 16; r <= 29; ++r) EXPECT_GE(map_->find(std::to_string(r) + "24"), 0) << r << "24 (west side)";
  for (int r = 10; r <= 32; ++r) EXPECT_GE(map_->find(std::to_string(r) + "00"), 0) << r << "00 (east side)";
  EXPECT_LT(map_->find("1524"), 0) << "the west side starts at 1624";
  EXPECT_LT(map_->find("3024"), 0) << "the west side ends at 2924";
  EXPECT_LT(map_->find("1024"), 0);
  EXPECT_LT(map_->find("3224"), 0);
}

// Cities, oil fields and VP places named with their hexes in the text (2.2, 4.2, 4.6-4.8,
// 8.3, 8.33, 10.16, 10.17, 12.6).
TEST_F(BdMap, NamedCitiesSitInTheirHexes) {
  const std::vector<std::pair<std::string, std::string>> cities = {
      {"1011", "Leningrad"},  {"1606", "Moscow"}, {"1806", "Tula"},           {"2311", "Kiev"},
      {"2501", "Stalingrad"}, {"2804", "Rostov"}, {"2607", "Dnepropetrovsk"}, {"3114", "Bucharest"},
      {"2820", "Budapest"},   {"1415", "Riga"},   {"2911", "Odessa"},         {"3108", "Sevastopol"},
      {"3220", "Belgrade"}};
  for (const auto& [id, name] : cities) {
    const int h = hex(id);
    ASSERT_GE(h, 0);
    EXPECT_EQ(map_->name(h), name) << id;
    EXPECT_TRUE(feature(id, "city")) << id << " " << name;
    EXPECT_TRUE(land(id)) << id;
  }
}

// Every oblast (or republic/krai) centre of the Soviet west in June 1941 that lies on the
// map has its place on it (a city hex or a named place in `place_hexes`), 1941 names.
TEST_F(BdMap, EverySovietOblastCentreOf1941IsPlaced) {
  const Json& places = map_->json()["place_hexes"];
  for (const char* name : {"Leningrad",
                           "Novgorod",
                           "Pskov",
                           "Moscow",
                           "Kalinin",
                           "Smolensk",
                           "Orel",
                           "Tula",
                           "Ryazan",
                           "Kursk",
                           "Voronezh",
                           "Yaroslavl",
                           "Ivanovo",
                           "Gorky",
                           "Vologda",
                           "Tambov",
                           "Penza",
                           "Saratov",
                           "Stalingrad",
                           "Rostov",
                           "Krasnodar",
                           "Ordzhonikidze",
                           "Voroshilovsk",
                           "Kiev",
                           "Kharkov",
                           "Poltava",
                           "Chernigov",
                           "Sumy",
                           "Zhitomir",
                           "Vinnitsa",
                           "Kamenets-Podolsky",
                           "Kirovograd",
                           "Nikolayev",
                           "Odessa",
                           "Dnepropetrovsk",
                           "Zaporozhye",
                           "Stalino",
                           "Voroshilovgrad",
                           "Lvov",
                           "Stanislav",
                           "Drohobych",
                           "Tarnopol",
                           "Rovno",
                           "Lutsk",
                           "Chernovtsy",
                           "Izmail",
                           "Kishinev",
                           "Minsk",
                           "Gomel",
                           "Mogilev",
                           "Vitebsk",
                           "Polotsk",
                           "Pinsk",
                           "Brest",
                           "Bialystok",
                           "Baranovichi",
                           "Vileyka",
                           "Mozyr",
                           "Riga",
                           "Tallinn",
                           "Kaunas",
                           "Vilnius",
                           "Simferopol"}) {
    ASSERT_TRUE(places.contains(name)) << name << " is not placed on the map";
    EXPECT_TRUE(land(places[name].get<std::string>())) << name;
  }
}

TEST_F(BdMap, Rule4_2_OilFieldsAndUsir) {
  for (const char* id : {"3103", "2922", "3015"}) {
    EXPECT_TRUE(feature(id, "oil")) << id;
    EXPECT_TRUE(land(id)) << id;
  }
  EXPECT_TRUE(feature("2419", "industrial"));
  // 4.2 names them: Maikop 3103, Nagykanizsa 2922, Ploesti 3015.
  EXPECT_EQ(map_->name(hex("3103")), "Maikop");
  EXPECT_EQ(map_->name(hex("2922")), "Nagykanizsa");
  EXPECT_EQ(map_->name(hex("3015")), "Ploesti");
  // Exactly three oil fields on the map (4.2).
  int oil = 0;
  const int fi = map_->hex_features().find("oil");
  for (int h = 0; h < map_->size(); ++h)
    if (map_->on_map(h) && map_->has_feature(h, fi)) ++oil;
  EXPECT_EQ(oil, 3);
}

// 4.2: "At the start of the game the German player has 14 VP for controlling the VP hexes
// west of Soviet/Baltic territory": city hexes, the USIR and the oil fields he controls.
TEST_F(BdMap, Rule4_2_FourteenGermanVpHexesAtTheStart) {
  int vp = 0;
  const int city = map_->hex_features().find("city"), oil = map_->hex_features().find("oil"),
            usir = map_->hex_features().find("industrial");
  for (int h = 0; h < map_->size(); ++h) {
    if (!map_->on_map(h) || control(map_->id(h)) != "german") continue;
    if (map_->has_feature(h, city) || map_->has_feature(h, oil) || map_->has_feature(h, usir)) ++vp;
  }
  EXPECT_EQ(vp, 14);
  EXPECT_FALSE(feature("2419", "city")) << "the USIR counts once, as the USIR";
  EXPECT_EQ(map_->name(hex("2922")), "Nagykanizsa");
}

TEST_F(BdMap, Rules10_16_10_17_Ports) {
  for (const char* id : {"1011", "1415", "2911", "3108", "3213"}) EXPECT_TRUE(feature(id, "port")) << id;
  // Königsberg and Danzig have no hex in the text; they must exist as Baltic ports.
  int baltic_named = 0;
  for (int h = 0; h < map_->size(); ++h)
    if (map_->on_map(h) && (map_->name(h) == "Königsberg" || map_->name(h) == "Danzig")) {
      EXPECT_TRUE(map_->has_feature(h, map_->hex_features().find("port"))) << map_->name(h);
      ++baltic_named;
    }
  EXPECT_EQ(baltic_named, 2);
}

TEST_F(BdMap, Rule10_14_KerchStrait) {
  EXPECT_TRUE(side("3105", "3106", "strait"));
  EXPECT_TRUE(side("3105", "3106", "all-sea"));
  EXPECT_TRUE(land("3105"));
  EXPECT_TRUE(land("3106"));
  EXPECT_EQ(map_->hexside_name(hex("3105"), hex("3106")), "Kerch Strait");
}

TEST_F(BdMap, Rule10_15_Sivash) {
  EXPECT_TRUE(side("2907", "3008", "strait"));
  EXPECT_TRUE(side("2907", "3008", "all-sea"));
  EXPECT_TRUE(land("2907"));
  EXPECT_TRUE(land("3008"));
}

// 4.6: the Dnepr from Kiev (2311) down to the 2809/2908 hexside, as one chain of river
// hexsides with no gap at the post-war reservoirs (Kanev, Kremenchug, Dneprodzerzhinsk).
TEST_F(BdMap, Rule4_6_DneprSegmentIsContinuous) {
  EXPECT_TRUE(side("2809", "2908", "river"));
  EXPECT_EQ(map_->hexside_name(hex("2809"), hex("2908")), "Dnepr");
  // Union-find over the hexes touched by Dnepr river hexsides: sides are connected when
  // they share a hex; the side at Kiev and the 2809/2908 side must be in one component.
  const auto& grid = map_->grid();
  const int river = map_->hexside_features().find("river");
  std::vector<std::pair<int, int>> dnepr;
  for (int h = 0; h < map_->size(); ++h) {
    if (!map_->on_map(h)) continue;
    for (int d = 0; d < 6; ++d) {
      const int o = grid.neighbour(h, d);
      if (o > h && map_->on_map(o) && map_->hexside_has(h, o, river) && map_->hexside_name(h, o) == "Dnepr")
        dnepr.emplace_back(h, o);
    }
  }
  ASSERT_FALSE(dnepr.empty());
  std::vector<int> parent(static_cast<size_t>(map_->size()));
  for (size_t i = 0; i < parent.size(); ++i) parent[i] = static_cast<int>(i);
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (auto [a, b] : dnepr) parent[find(a)] = find(b);
  const int kiev = hex("2311");
  bool kiev_on = false;
  for (auto [a, b] : dnepr) kiev_on = kiev_on || a == kiev || b == kiev;
  ASSERT_TRUE(kiev_on) << "a Dnepr hexside touches Kiev";
  EXPECT_EQ(find(kiev), find(hex("2809"))) << "Dnepr chain broken between Kiev and 2809/2908";
  EXPECT_EQ(find(hex("2607")), find(kiev)) << "Dnepropetrovsk is on the Dnepr";
}

TEST_F(BdMap, Rule12_13_LeningradSiegeHexes) {
  for (const char* id : {"1110", "1111"}) {
    EXPECT_TRUE(land(id)) << id;
    EXPECT_TRUE(map_->grid().adjacent(hex("1011"), hex(id))) << id;
    EXPECT_EQ(control(id), "soviet") << id;
  }
  EXPECT_EQ(region("leningrad_siege"), (std::set<std::string>{"1110", "1111"}));
}

TEST_F(BdMap, Rule4_11_CaucasusExitRowIsRough) {
  for (const char* id : {"3200", "3201", "3202", "3203", "3204"}) EXPECT_EQ(terrain(id), "rough") << id;
}

// 4.11: "the rough terrain hex-row on the map's southeastern edge (3200-3204)": exactly those
// five hexes, rough, on the south edge (row 32, the last row) and running east from 3200.
TEST_F(BdMap, Rule4_11_CaucasusExitRegionIsExactly3200To3204) {
  const std::set<std::string> want = {"3200", "3201", "3202", "3203", "3204"};
  EXPECT_EQ(region("caucasus_exit"), want);
  for (const auto& id : want) {
    EXPECT_EQ(terrain(id), "rough") << id;
    EXPECT_EQ(map_->grid().row(hex(id)), map_->grid().last_row()) << id << " on the south edge";
    EXPECT_EQ(control(id), "soviet") << id;
  }
}

// 8.26: "any of the four Bulgarian hexes on the map's south edge (3215-3218)".
TEST_F(BdMap, Rule8_26_BulgarianEdgeIsExactlyFourBulgarianSouthEdgeHexes) {
  const std::set<std::string> want = {"3215", "3216", "3217", "3218"};
  EXPECT_EQ(region("bulgarian_edge"), want);
  for (const auto& id : want) {
    EXPECT_TRUE(land(id)) << id;
    EXPECT_EQ(map_->grid().row(hex(id)), map_->grid().last_row()) << id << " on the south edge";
    EXPECT_EQ(map_->country_name(hex(id)), "bulgaria") << id;
    // 3.6 gives Bulgaria to neither side at the start.
    EXPECT_EQ(control(id), "neutral") << id;
  }
  // 8.3: the Yugoslav south-edge hexes run 3023 to 3219, so the Bulgarian stretch ends at 3218.
  EXPECT_EQ(map_->country_name(hex("3219")), "yugoslavia");
}

// 7.9: Soviet supply sources are "any and all ... hexes along the eastern map edge from 1000
// south to 3200, inclusive, except for the four desert-steppe hexes (2700 to 3000)".
TEST_F(BdMap, Rule7_9_SovietSupplyEdgeIsTheEastEdgeLessTheDesertSteppe) {
  std::set<std::string> want;
  for (int r = 10; r <= 32; ++r)
    if (r < 27 || r > 30) want.insert(std::to_string(r) + "00");
  EXPECT_EQ(want.size(), 19u);
  EXPECT_EQ(region("soviet_supply_edge"), want);
  for (const auto& id : want) {
    EXPECT_TRUE(land(id)) << id;
    EXPECT_EQ(control(id), "soviet") << id;
  }
}

// 8.10: RVGK units "may also exit the box via board-edge supply source hexes from 1000 to
// 2600, inclusive".
TEST_F(BdMap, Rule8_10_RvgkExitEdgeIs1000To2600) {
  std::set<std::string> want;
  for (int r = 10; r <= 26; ++r) want.insert(std::to_string(r) + "00");
  const auto rvgk = region("rvgk_exit_edge");
  EXPECT_EQ(rvgk, want);
  const auto supply = region("soviet_supply_edge");
  for (const auto& id : rvgk) EXPECT_TRUE(supply.count(id)) << id << " is a supply source hex (8.10)";
}

// 7.3 / 8.3: the German supply sources are the west edge hexes 1724 to 2924, "German-controlled"
// when the 12th Army enters there: every one is land of a country the German controls (3.6).
TEST_F(BdMap, Rule7_3_GermanSupplyEdgeIsGermanControlledLand) {
  std::set<std::string> want;
  for (int r = 17; r <= 29; ++r) want.insert(std::to_string(r) + "24");
  EXPECT_EQ(region("german_supply_edge"), want);
  for (const auto& id : want) {
    EXPECT_TRUE(land(id)) << id;
    EXPECT_FALSE(map_->country_name(hex(id)).empty()) << id << " has no country";
    EXPECT_EQ(control(id), "german") << id;
  }
}

// Every land hex lies in a 1941 country (so its start control is defined by 3.6), and every
// city hex is land.
TEST_F(BdMap, EveryLandHexHasACountryAndEveryCityIsOnLand) {
  const int city = map_->hex_features().find("city");
  for (int h = 0; h < map_->size(); ++h) {
    if (!map_->on_map(h)) continue;
    const std::string id = map_->id(h);
    if (land(id)) {
      EXPECT_FALSE(map_->country_name(h).empty()) << id;
    }
    if (map_->has_feature(h, city)) {
      EXPECT_TRUE(land(id)) << id << " " << map_->name(h);
    }
  }
  // Helsinki's hex is mostly sea at this scale but keeps its land, as a coastal city hex.
  EXPECT_EQ(map_->name(hex("1014")), "Helsinki");
  EXPECT_TRUE(land("1014"));
  EXPECT_TRUE(feature("1014", "coastal"));
}

TEST_F(BdMap, Rule7_9_ExactlyFourDesertSteppeHexesOnTheEastEdge) {
  std::set<std::string> desert;
  for (int h = 0; h < map_->size(); ++h)
    if (map_->on_map(h) && map_->terrain_name(h) == "desert-steppe") desert.insert(map_->id(h));
  EXPECT_EQ(desert, (std::set<std::string>{"2700", "2800", "2900", "3000"}));
  const auto supply = region("soviet_supply_edge");
  for (const char* id : {"2700", "2800", "2900", "3000"}) EXPECT_FALSE(supply.count(id)) << id;
  EXPECT_TRUE(supply.count("1000"));
  EXPECT_TRUE(supply.count("3200"));
}

TEST_F(BdMap, Rule5_13_MarshAt2013And2014) {
  EXPECT_EQ(terrain("2013"), "marsh");
  EXPECT_EQ(terrain("2014"), "marsh");
}

// 3.3: the AGN/AGC/AGS set-up chain lies on the German side of the 1941 border; 2.5: the
// Soviet 6th Army starts in 2314 on the Soviet side.
TEST_F(BdMap, Rule3_3_SetUpHexesOnTheGermanSide) {
  const std::vector<std::string> chain = {"1517", "1617", "1716", "1817", "1917", "2017",
                                          "2116", "2216", "2315", "2416", "2516"};
  for (size_t i = 0; i < chain.size(); ++i) {
    EXPECT_TRUE(land(chain[i])) << chain[i];
    EXPECT_EQ(control(chain[i]), "german") << chain[i];
    if (i > 0) {
      EXPECT_TRUE(map_->grid().adjacent(hex(chain[i - 1]), hex(chain[i]))) << chain[i];
    }
  }
  EXPECT_EQ(region("AGN"), (std::set<std::string>{"1517", "1617", "1716"}));
  EXPECT_EQ(region("AGC"), (std::set<std::string>{"1817", "1917", "2017", "2116"}));
  EXPECT_EQ(region("AGS"), (std::set<std::string>{"2216", "2315", "2416", "2516"}));
  EXPECT_EQ(control("2314"), "soviet");
  EXPECT_TRUE(land("2314"));
}

// 3.7: five Lithuania hexes (Soviet at the start), and the five Polish hexes of the variant
// are German-held General Government land.
TEST_F(BdMap, Rule3_7_LithuaniaHexes) {
  const auto lit = region("lithuania");
  EXPECT_EQ(lit.size(), 5u);
  for (const auto& id : lit) EXPECT_EQ(control(id), "soviet") << id;
  for (const char* id : {"2116", "2216", "2217", "2315", "2316"}) {
    EXPECT_EQ(control(id), "german") << id;
    EXPECT_EQ(map_->country_name(hex(id)), "general_government") << id;
  }
}

TEST_F(BdMap, Rule3_6_StartingControlByCountry) {
  EXPECT_EQ(control("1606"), "soviet");
  EXPECT_EQ(control("1415"), "soviet");  // Riga, Latvian SSR
  EXPECT_EQ(control("2820"), "german");  // Budapest
  EXPECT_EQ(control("3114"), "german");  // Bucharest
  EXPECT_EQ(control("2419"), "german");  // USIR
  EXPECT_EQ(control("3220"), "german");  // Belgrade
  EXPECT_EQ(map_->country_name(hex("3220")), "yugoslavia");
  EXPECT_EQ(map_->country_name(hex("2911")), "ussr");  // Odessa
}

TEST_F(BdMap, Rule7_4_SupplyAreas) {
  const auto r = region("R"), dp = region("DP"), cs = region("CS");
  EXPECT_TRUE(r.count("2804"));
  EXPECT_TRUE(r.count("2904"));
  EXPECT_TRUE(r.count("2801"));
  for (const auto& id : r) EXPECT_TRUE(dp.count(id)) << "R is a subset of DP: " << id;
  for (const char* id : {"2200", "2806", "3100", "3004", "2607"}) EXPECT_TRUE(dp.count(id)) << id;
  for (const char* id : {"3108", "3106", "3008", "3005", "3104", "3105"}) EXPECT_TRUE(cs.count(id)) << id;
  // Across the Kerch, Crimea supply reaches 3005 and 3104 overland from 3105.
  EXPECT_FALSE(side("3105", "3005", "all-sea"));
  EXPECT_FALSE(side("3105", "3104", "all-sea"));
  EXPECT_FALSE(cs.count("2911"));
}

// 7.15 / 10.22: the north and south logistical areas split the land between them; the AGC
// set-up is north, AGS and the 1942 satellite positions south.
TEST_F(BdMap, Rule7_15_LogisticalAreas) {
  const auto north = region("north"), south = region("south");
  for (int h = 0; h < map_->size(); ++h) {
    if (!map_->on_map(h) || !land(map_->id(h))) continue;
    EXPECT_NE(north.count(map_->id(h)), south.count(map_->id(h))) << map_->id(h);
  }
  for (const char* id : {"1817", "1917", "2017", "2116", "1606", "1011", "2013", "2014"})
    EXPECT_TRUE(north.count(id)) << id;
  for (const char* id : {"2216", "2315", "2416", "2516", "2314", "2311", "2303", "2403", "2501", "2804"})
    EXPECT_TRUE(south.count(id)) << id;
}

TEST_F(BdMap, Rule10_9_VolgaReservoirAndManychDeepAreAllLakeHexsides) {
  int volga = 0, manych = 0;
  const auto& grid = map_->grid();
  const int lake = map_->hexside_features().find("all-lake");
  for (int h = 0; h < map_->size(); ++h) {
    if (!map_->on_map(h)) continue;
    for (int d = 0; d < 6; ++d) {
      const int o = grid.neighbour(h, d);
      if (o <= h || !map_->on_map(o) || !map_->hexside_has(h, o, lake)) continue;
      volga += map_->hexside_name(h, o) == "Volga Reservoir";
      manych += map_->hexside_name(h, o) == "Manych Deep";
    }
  }
  EXPECT_GE(volga, 1);
  EXPECT_GE(manych, 3);
}

TEST_F(BdMap, SouthEdgeHexesOfRules8_3_And8_26) {
  for (const char* id : {"3215", "3216", "3217", "3218"}) EXPECT_TRUE(land(id)) << id;
  const auto yu = region("yugoslav_edge");
  EXPECT_TRUE(yu.count("3219"));
  EXPECT_TRUE(yu.count("3023"));
  for (const auto& id : yu) EXPECT_EQ(map_->country_name(hex(id)), "yugoslavia") << id;
  EXPECT_EQ(region("german_supply_edge").size(), 13u);  // 1724..2924 (7.3)
}

TEST_F(BdMap, FortifiedLinesOfBothSides) {
  int soviet = 0, german = 0;
  const int fi = map_->hex_features().find("fortified-line");
  for (int h = 0; h < map_->size(); ++h) {
    if (!map_->on_map(h) || !map_->has_feature(h, fi)) continue;
    const Json& e = map_->extra(h);
    const std::string by = e.is_object() ? e.value("fortified_by", "") : "";
    soviet += by == "soviet";
    german += by == "german";
    if (by == "german") {
      EXPECT_EQ(control(map_->id(h)), "german") << map_->id(h) << " west of the border (11.21)";
    }
  }
  EXPECT_GT(soviet, 5);
  EXPECT_GT(german, 2);
}

TEST_F(BdMap, WaterWhereTheRealGeographyHasIt) {
  // Baltic, Gulf of Finland, Black Sea, Sea of Azov.
  for (const char* id : {"1013", "1116", "1619", "1620", "3010", "3110", "3209", "3006", "3007"})
    EXPECT_EQ(terrain(id), "all-sea") << id;
  // Pripyat marshes between Brest and Gomel.
  int marsh = 0;
  for (const char* id : {"2112", "2113", "2114", "2212", "2213"}) marsh += terrain(id) == "marsh";
  EXPECT_GE(marsh, 3);
  // The Kakhovka and Kremenchug reservoirs did not exist in 1941: no lake hexes there.
  for (const char* id : {"2807", "2808", "2508", "2509"}) EXPECT_TRUE(land(id)) << id;
}

TEST_F(BdMap, EveryFixCitesARule) {
  const Json& fixes = map_->json()["fixes_applied"];
  ASSERT_TRUE(fixes.is_array());
  EXPECT_FALSE(fixes.empty());
  for (const auto& f : fixes) EXPECT_FALSE(f.value("rule", "").empty()) << f.dump();
}

TEST_F(BdMap, RailwaysAreContiguousLandPaths) {
  ASSERT_GT(map_->railways().size(), 30u);
  for (const auto& line : map_->railways())
    for (size_t i = 0; i < line.size(); ++i) {
      EXPECT_TRUE(land(map_->id(line[i])));
      if (i > 0) {
        EXPECT_TRUE(map_->grid().adjacent(line[i - 1], line[i])) << map_->id(line[i]);
      }
    }
  EXPECT_TRUE(map_->has_rail(hex("1606")));
  EXPECT_TRUE(map_->has_rail(hex("1011")));
  EXPECT_TRUE(map_->rail_between(hex("1011"), map_->grid().neighbour(hex("1011"), 0)) ||
              map_->has_rail(hex("1011")));
}

// Every hex the scenario set-up lists of the rulebook (12.x-15.x) place units in is an
// on-map land hex (list taken from the text: lines beginning with a hex number).
TEST_F(BdMap, ScenarioSetUpHexesAreOnMapLand) {
  for (const char* id :
       {"1009", "1011", "1109", "1110", "1111", "1210", "1211", "1310", "1311", "1409", "1410",
        "1411", "1412", "1508", "1509", "1510", "1511", "1513", "1606", "1609", "1610", "1611",
        "1706", "1708", "1709", "1710", "1806", "1807", "1808", "1809", "1906", "1907", "1908",
        "2006", "2007", "2008", "2104", "2105", "2106", "2107", "2108", "2203", "2204", "2205",
        "2206", "2207", "2208", "2209", "2302", "2303", "2304", "2305", "2306", "2307", "2308",
        "2401", "2402", "2403", "2404", "2405", "2406", "2407", "2408", "2500", "2501", "2502",
        "2503", "2504", "2505", "2600", "2601", "2602", "2603", "2604", "2702", "2704", "2803",
        "2804", "2805", "3005", "3103", "3104", "3105", "3106", "3108", "3203", "3204"})
    EXPECT_TRUE(land(id)) << id;
}

}  // namespace
}  // namespace steppe
