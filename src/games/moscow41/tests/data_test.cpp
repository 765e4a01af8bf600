// Data consistency: the reconstructed map, roster and set-ups against every number the
// rulebook gives.
#include <fstream>
#include <functional>
#include <map>

#include "games/moscow41/tests/common.h"
#include "kernel/json_data.h"

namespace moscow41 {
namespace {

using test::game;
using test::start;

TEST(Moscow41Data, MapHas175AreasAnd12Boxes) {  // 2.0, 2.2
  const auto& m = game().map();
  EXPECT_EQ(m.area_count(), 175);
  EXPECT_EQ(m.box_count(), 12);
  for (int n = 1; n <= 171; ++n) EXPECT_GE(m.find(std::to_string(n)), 0) << n;
  for (const char* s : {"16A", "9A", "4A", "2A"}) EXPECT_EQ(game().areas()[m.find(s)].terrain, kStaging);
  for (int n = 0; n < m.area_count(); ++n) EXPECT_GE(m.polygon(n).size(), 3u) << m.id(n);
}

TEST(Moscow41Data, AdjacencyIsSymmetricAndConnected) {
  std::vector<int> seen(static_cast<size_t>(game().land().node_count()), 0), todo{game().moscow()};
  seen[game().moscow()] = 1;
  while (!todo.empty()) {
    int x = todo.back();
    todo.pop_back();
    for (int y : game().neighbours(x)) {
      EXPECT_TRUE(game().adjacent(y, x));
      if (!seen[y]) seen[y] = 1, todo.push_back(y);
    }
  }
  int reached = 0;
  for (int n = 0; n < game().map().area_count(); ++n) reached += seen[n];
  EXPECT_EQ(reached, 175);
}

TEST(Moscow41Data, NamedPlaces) {  // 2.4.3, OR 14.3, 10.14.1, 10.3 example
  const auto& m = game().map();
  EXPECT_EQ(m.name(m.find("63")), "Moscow");
  int victory = 0;
  for (const auto& a : game().areas()) victory += a.node < m.area_count() && a.terrain == kVictory;
  EXPECT_EQ(victory, 5);
  const auto& vyazma = game().areas()[m.find("70")];
  EXPECT_EQ(vyazma.terrain, kYellow);
  EXPECT_TRUE(vyazma.city);
  EXPECT_TRUE(game().adjacent(m.find("100"), m.find("95")));
  int special = 0;
  for (const auto& a : game().areas()) special += a.special_city;
  EXPECT_EQ(special, 2);
  EXPECT_EQ(m.name(game().road()[0]), "Pskov");
  EXPECT_EQ(m.name(game().road()[9]), "Leningrad");
}

TEST(Moscow41Data, SupplyIcons) {  // 2.1-2.2: 7 orange, 5 light blue, 5 blue
  int kiev = 0, shl = 0, len = 0, east = 0;
  for (const auto& a : game().areas())
    kiev += a.src_kiev, shl += a.src_shl, len += a.src_len, east += a.src_east;
  EXPECT_EQ(kiev, 7);
  EXPECT_EQ(shl, 5);
  EXPECT_EQ(len, 5);
  EXPECT_GT(east, 5);
}

TEST(Moscow41Data, RosterCountsPerArmy) {  // army list, 5.1
  std::map<std::pair<int, std::string>, int> n;
  int k = 0, l = 0, nn = 0;
  for (const auto& b : game().blocks()) {
    n[{b.side, b.colour}]++;
    k += b.letter == 'K', l += b.letter == 'L', nn += b.letter == 'N';
  }
  EXPECT_EQ((n[{kGerman, "yellow"}]), 6);
  EXPECT_EQ((n[{kGerman, "lightblue"}]), 5);
  EXPECT_EQ((n[{kGerman, "pink"}]), 6);
  EXPECT_EQ((n[{kGerman, "brown"}]), 3);
  EXPECT_EQ((n[{kGerman, "red"}]), 7);
  EXPECT_EQ((n[{kGerman, "green"}]), 4);
  EXPECT_EQ((n[{kGerman, "blue"}]), 4);
  EXPECT_EQ((n[{kGerman, "white"}]), 12);
  EXPECT_EQ((n[{kSoviet, "green"}]), 8);
  EXPECT_EQ((n[{kSoviet, "lightblue"}]), 8);
  EXPECT_EQ((n[{kSoviet, "red"}]), 8);
  EXPECT_EQ((n[{kSoviet, "blue"}]), 14);
  EXPECT_EQ((n[{kSoviet, "yellow"}]), 4);
  EXPECT_EQ((n[{kSoviet, "white"}]), 26);
  EXPECT_EQ(k, 1);
  EXPECT_EQ(l, 4);
  EXPECT_EQ(nn, 5);
}

TEST(Moscow41Data, E14_4_2_6_SecondPanzerGruppe) {  // 4.2.6 example
  std::vector<std::string> red;
  for (const auto& b : game().blocks())
    if (b.side == kGerman && b.colour == "red") red.push_back(b.id);
  std::sort(red.begin(), red.end());
  EXPECT_EQ(red, (std::vector<std::string>{"1Kav", "24PzK", "46PzK", "47PzK", "DR", "GD", "HQ2Pg"}));
}

struct Counts {
  int map = 0, pool = 0, waiting = 0, gone = 0;
};
Counts count(const Moscow41State& s, int side) {
  Counts c;
  for (size_t b = 0; b < game().blocks().size(); ++b) {
    if (game().blocks()[b].side != side) continue;
    const int l = s.block(static_cast<int>(b)).loc;
    if (l >= 0)
      ++c.map;
    else if (l == kLocPool)
      ++c.pool;
    else if (l == kLocOobN || l == kLocOobK)
      ++c.waiting;
    else
      ++c.gone;
  }
  return c;
}

TEST(Moscow41Data, CampaignSetupTotals) {  // Campaign Game totals
  for (uint64_t seed : {1, 2, 3}) {
    auto s = start("campaign", seed);
    ASSERT_TRUE(s);
    Counts so = count(*s, kSoviet), ge = count(*s, kGerman);
    EXPECT_EQ(so.map, 36);
    EXPECT_EQ(so.pool, 29);
    EXPECT_EQ(so.waiting, 5);
    EXPECT_EQ(ge.map, 21);
    EXPECT_EQ(ge.pool, 28);
    EXPECT_EQ(ge.waiting, 1);
    // 14 Remnants among the 28 corps start at minimum strength.
    int at_min = 0;
    for (size_t b = 0; b < game().blocks().size(); ++b)
      if (game().blocks()[b].tag == "corps" &&
          s->block(static_cast<int>(b)).level == game().blocks()[b].min_level())
        ++at_min;
    EXPECT_EQ(at_min, 14);
  }
}

TEST(Moscow41Data, TyphoonAndLastGaspSetupTotals) {
  auto t = start("typhoon", 5);
  ASSERT_TRUE(t);
  Counts so = count(*t, kSoviet), ge = count(*t, kGerman);
  EXPECT_EQ(so.map, 43);
  EXPECT_EQ(so.pool, 10);
  EXPECT_EQ(so.waiting, 5);
  EXPECT_EQ(so.gone, 12);
  EXPECT_EQ(ge.map, 47);
  EXPECT_EQ(ge.pool, 3);
  auto l = start("last-gasp", 5);
  ASSERT_TRUE(l);
  so = count(*l, kSoviet);
  ge = count(*l, kGerman);
  EXPECT_EQ(so.map, 46);
  EXPECT_EQ(so.pool, 5);
  EXPECT_EQ(so.gone, 19);
  EXPECT_EQ(ge.map, 50);
  for (const char* red_star : {"4", "15", "17", "31"}) {
    const int n = game().node(red_star);
    EXPECT_TRUE(l->contested(n)) << red_star;
    EXPECT_EQ(l->area(n).control, kSoviet) << red_star;
    EXPECT_EQ(l->area(n).dl, kSoviet) << red_star;
  }
}

TEST(Moscow41Data, ScenarioLogisticsValues) {  // derived checks in digest 7
  auto c = start("campaign");
  EXPECT_EQ(c->logistics_value(kSoviet), 12);
  EXPECT_EQ(c->logistics_value(kGerman), 8);  // E4 (7.2.1 example)
  auto t = start("typhoon");
  EXPECT_EQ(t->logistics_value(kSoviet), 12);
  EXPECT_EQ(t->logistics_value(kGerman), 14);
  auto l = start("last-gasp");
  EXPECT_EQ(l->logistics_value(kSoviet),
            13);  // Snow: no halving, the Soviets hold Moscow and Leningrad (7.2.1.1)
  EXPECT_EQ(l->logistics_value(kGerman), 5);
}

TEST(Moscow41Data, StackingHoldsAtEverySetup) {  // 2.7
  for (const char* sc : {"campaign", "typhoon", "last-gasp"})
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      auto s = start(sc, seed);
      ASSERT_TRUE(s) << sc;
      for (int n = 0; n < game().map().area_count(); ++n)
        for (int side : {kGerman, kSoviet}) {
          const int lim = game().tables().stack[game().areas()[n].terrain];
          EXPECT_LE(s->blocks_in(side, n), lim) << sc << " seed " << seed << " area " << game().map().id(n);
        }
    }
}

TEST(Moscow41Data, SetUpChoiceStepsAreMarkedAndChecked) {  // Scenario Setup
  // A step placed "in any adjacent Area" / "along the frontline" must say whether it is a
  // player's choice; no fixed step may claim to be one.
  namespace fs = std::filesystem;
  auto load_with = [&](const std::string& what, const std::function<void(Json&)>& edit) {
    const fs::path tmp = fs::temp_directory_path() / ("m41_bad_setup_" + what);
    fs::remove_all(tmp);
    fs::create_directories(tmp);
    fs::copy(fs::path(STEPPE_DEFAULT_DATA_DIR) / "moscow41", tmp / "moscow41", fs::copy_options::recursive);
    const fs::path file = tmp / "moscow41" / "scenarios" / "typhoon.json";
    auto doc = steppe::load_json_file(file);
    EXPECT_TRUE(doc);
    Json j = *doc;
    edit(j);
    std::ofstream(file) << j.dump();
    auto r = moscow41::load_game(tmp);
    fs::remove_all(tmp);
    return r ? std::string() : r.error().to_string();
  };
  // Typhoon's Soviet White "along the frontline" (step 16) without its flag.
  const Json& soviet = game().scenario("typhoon")->doc["setup"]["soviet"];
  ASSERT_EQ(soviet[16].value("zone", ""), "front");
  ASSERT_EQ(soviet[16].value("choice", false), true);
  const std::string missing = load_with("missing", [](Json& j) { j["setup"]["soviet"][16].erase("choice"); });
  EXPECT_NE(missing.find("typhoon.json"), std::string::npos) << missing;
  EXPECT_NE(missing.find("/setup/soviet/16"), std::string::npos) << missing;
  EXPECT_NE(missing.find("choice"), std::string::npos) << missing;
  // Stalin and Zhukov in Moscow (step 6) are placed by the text.
  const std::string fixed = load_with("fixed", [](Json& j) { j["setup"]["soviet"][6]["choice"] = true; });
  EXPECT_NE(fixed.find("/setup/soviet/6/choice"), std::string::npos) << fixed;
  const std::string not_bool = load_with("bool", [](Json& j) { j["setup"]["soviet"][16]["choice"] = "yes"; });
  EXPECT_NE(not_bool.find("/setup/soviet/16/choice"), std::string::npos) << not_bool;
  // The real data: every such step of Typhoon and Last Gasp is a choice, none of the others'.
  for (const char* sc : {"campaign", "beyond-the-dnieper", "typhoon", "last-gasp"})
    for (const char* side : {"soviet", "german"})
      for (const auto& step : game().scenario(sc)->doc["setup"][side]) {
        const bool by_rule = step.contains("near") || step.contains("near_own_hq") || step.contains("zone") ||
                             step.contains("dl_count");
        EXPECT_EQ(step.value("choice", false), by_rule) << sc << " " << side << ": " << step.dump();
      }
}

// 1.7 and the scenarios' Special Victory Conditions are data (scenarios/*.json "victory"):
// read as the rulebook lists them, and refused with the file and field when they are wrong.
TEST(Moscow41Data, VictoryConditionsAreScenarioData) {
  const auto& m = game().map();
  const VictoryRules* dnieper = game().victory_rules("dnieper");
  ASSERT_NE(dnieper, nullptr);
  EXPECT_EQ(dnieper->rule, "Scenario 1");
  ASSERT_EQ(dnieper->german_wins_at_once.size(), 2u);  // DLs in Yelnia and Yartsevo; Chernigov and Romny
  EXPECT_EQ(dnieper->german_wins_at_once[0].german_dls, (std::vector<int>{m.find("91"), m.find("68")}));
  EXPECT_EQ(dnieper->german_wins_at_once[1].german_controls,
            (std::vector<int>{m.find("151"), m.find("166")}));
  EXPECT_FALSE(dnieper->most_vp_at_end);
  const VictoryRules* moscow = game().victory_rules("moscow");  // Scenarios 2 and 3
  ASSERT_NE(moscow, nullptr);
  ASSERT_EQ(moscow->german_wins_at_once.size(), 1u);
  EXPECT_EQ(moscow->german_wins_at_once[0].german_controls, (std::vector<int>{game().moscow()}));
  const VictoryRules* campaign = game().victory_rules("campaign");
  ASSERT_NE(campaign, nullptr);
  EXPECT_TRUE(campaign->sudden_death_vp);
  EXPECT_TRUE(campaign->most_vp_at_end);
  EXPECT_EQ(game().victory_rules("none"), nullptr);

  namespace fs = std::filesystem;
  auto load_with = [&](const std::string& what, const std::string& scenario,
                       const std::function<void(Json&)>& edit) {
    const fs::path tmp = fs::temp_directory_path() / ("m41_bad_victory_" + what);
    fs::remove_all(tmp);
    fs::create_directories(tmp);
    fs::copy(fs::path(STEPPE_DEFAULT_DATA_DIR) / "moscow41", tmp / "moscow41", fs::copy_options::recursive);
    const fs::path file = tmp / "moscow41" / "scenarios" / (scenario + ".json");
    auto doc = steppe::load_json_file(file);
    EXPECT_TRUE(doc);
    Json j = *doc;
    edit(j);
    std::ofstream(file) << j.dump();
    auto r = moscow41::load_game(tmp);
    fs::remove_all(tmp);
    return r ? std::string() : r.error().to_string();
  };
  const std::string area = load_with("area", "beyond-the-dnieper", [](Json& j) {
    j["victory"]["german_wins_at_once"][0]["german_dls"][1] = "999";
  });
  EXPECT_NE(area.find("beyond-the-dnieper.json"), std::string::npos) << area;
  EXPECT_NE(area.find("/victory/german_wins_at_once/0/german_dls"), std::string::npos) << area;
  EXPECT_NE(area.find("999"), std::string::npos) << area;
  const std::string box = load_with("box", "typhoon", [](Json& j) {
    j["victory"]["german_wins_at_once"][0]["german_controls"][0] = "kiev";  // a box, not an area
  });
  EXPECT_NE(box.find("/victory/german_wins_at_once/0/german_controls"), std::string::npos) << box;
  const std::string end = load_with("end", "campaign", [](Json& j) { j["victory"]["at_end"] = "draw"; });
  EXPECT_NE(end.find("/victory/at_end"), std::string::npos) << end;
  // Typhoon and Last Gasp share the kind "moscow": they must not disagree.
  const std::string differ = load_with("differ", "last-gasp", [](Json& j) {
    j["victory"]["german_wins_at_once"][0]["german_controls"][0] = "62";
  });
  EXPECT_NE(differ.find("moscow"), std::string::npos) << differ;
  EXPECT_NE(differ.find("last-gasp.json"), std::string::npos) << differ;
}

TEST(Moscow41Data, BadRosterIsRefusedWithFieldPath) {
  // A copy of the data with a bad step colour must be refused naming the file and field.
  namespace fs = std::filesystem;
  const fs::path tmp = fs::temp_directory_path() / "m41_bad_data";
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  fs::copy(fs::path(STEPPE_DEFAULT_DATA_DIR) / "moscow41", tmp / "moscow41", fs::copy_options::recursive);
  auto doc = steppe::load_json_file(tmp / "moscow41" / "roster.json");
  ASSERT_TRUE(doc);
  Json j = *doc;
  j["blocks"][5]["steps"][0] = "purple";
  std::ofstream(tmp / "moscow41" / "roster.json") << j.dump();
  auto r = moscow41::load_game(tmp);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().to_string().find("roster.json"), std::string::npos) << r.error().to_string();
  EXPECT_NE(r.error().to_string().find("/blocks/5/steps"), std::string::npos) << r.error().to_string();
  fs::remove_all(tmp);
}

// 2.4.6 / 10.12.5.1: a river separates the areas on its two banks; it does not ring the
// town it flows through, and a drive along it crosses nothing.
TEST(Moscow41Data, RiversSeparateBanksAndDoNotRingTowns) {
  const auto& m = game().map();
  auto river = [&](const char* a, const char* b) { return game().river_between(m.find(a), m.find(b)); };
  // Along the Desna Zhukovka (103) -> Bryansk (117) -> Pochep (119): the same bank.
  EXPECT_FALSE(river("103", "117"));
  EXPECT_FALSE(river("117", "119"));
  // Bryansk (right bank) faces Area 120 and Area 109 across the Desna.
  EXPECT_TRUE(river("117", "120"));
  EXPECT_TRUE(river("109", "117"));
  // Along the Moskva: Mozhaysk (72) -> Zvenigorod (73) -> Moscow (63).
  EXPECT_FALSE(river("72", "73"));
  EXPECT_FALSE(river("63", "73"));
  // Along the Volga upstream of Kalinin: Rzhev (46) -> Staritsa (58).
  EXPECT_FALSE(river("46", "58"));
  // Voronezh (149) lies east of the Don: the approach from the west (160) crosses it.
  EXPECT_TRUE(river("149", "160"));
  // No town is ringed by its river: at least two of a river city's borders cross none.
  for (const char* town : {"90", "117", "26", "46", "81", "110", "95", "128", "151", "149"}) {
    const int a = m.find(town);
    int rivers = 0;
    for (int b : game().neighbours(a)) rivers += game().river_between(a, b) ? 1 : 0;
    EXPECT_LE(rivers + 2, game().land().degree(a)) << m.name(a);
  }
}

TEST(Moscow41Data, RiverTypeThatDisagreesWithTheRiverModelIsRefused) {  // 2.4.6
  namespace fs = std::filesystem;
  const fs::path tmp = fs::temp_directory_path() / "m41_bad_rivers";
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  fs::copy(fs::path(STEPPE_DEFAULT_DATA_DIR) / "moscow41", tmp / "moscow41", fs::copy_options::recursive);
  auto doc = steppe::load_json_file(tmp / "moscow41" / "map.json");
  ASSERT_TRUE(doc);
  Json j = *doc;
  // Mark Zhukovka-Bryansk a river border in the connections only.
  bool marked = false;
  for (auto& c : j["connections"])
    if (c["a"] == "103" && c["b"] == "117") {
      c["types"] = Json::array({"land", "river"});
      marked = true;
    }
  ASSERT_TRUE(marked);
  std::ofstream(tmp / "moscow41" / "map.json") << j.dump();
  auto r = moscow41::load_game(tmp);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().to_string().find("103-117"), std::string::npos) << r.error().to_string();
  EXPECT_NE(r.error().to_string().find("2.4.6"), std::string::npos) << r.error().to_string();
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace moscow41
