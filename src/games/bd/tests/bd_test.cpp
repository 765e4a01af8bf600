// Barbarossa Deluxe: unit tests, the kernel conformance suite on every scenario, and every
// scenario-test file in tests/rulebook/bd/ (the rulebook's worked examples) through the
// kernel runner.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "games/bd/bd_game.h"
#include "games/bd/bd_state.h"
#include "games/bd/tests/bd_test_support.h"
#include "kernel/conformance.h"
#include "kernel/scenario_test.h"

namespace {

using bd_test::fresh;
using bd_test::game;
using bd_test::q;
using bd_test::set;

// Plays `scenario` with uniformly random legal actions (a splitmix64 stream from `seed`)
// to its end, checking the invariants after every action; `each(state, action, before)` is
// called after each one, `before` the units' hexes before it. Returns the final state.
template <class Each>
std::unique_ptr<bd::BdState> play_random_checked(const std::string& scenario, uint64_t seed,
                                                 const Each& each) {
  auto s = fresh(scenario, seed);
  std::vector<steppe::Action> acts;
  std::vector<int16_t> before;
  uint64_t x = seed;
  for (int steps = 0; !s->is_terminal() && steps < 100000; ++steps) {
    s->legal_actions(acts);
    EXPECT_FALSE(acts.empty()) << "no legal action in a live state";
    if (acts.empty()) break;
    x = steppe::splitmix64(x);
    const steppe::Action a = acts[x % acts.size()];
    before.resize(static_cast<size_t>(s->num_units()));
    for (int u = 0; u < s->num_units(); ++u) before[static_cast<size_t>(u)] = s->unit(u).hex;
    const auto applied = s->apply(a);
    EXPECT_TRUE(applied.is_ok()) << s->action_to_string(a);
    const auto inv = s->check_invariants();
    EXPECT_TRUE(inv.is_ok()) << scenario << " " << seed << " after " << s->action_to_string(a) << ": "
                             << (inv.is_ok() ? "" : inv.error().to_string());
    if (!applied.is_ok() || !inv.is_ok()) break;
    each(*s, a, before);
  }
  return s;
}

// A scenario-test file with a number typo ("turn 3x") is refused with a message naming the
// word; it used to be read by atoi as 3 (or 0) without a word.
TEST(BdScenarioWords, BadNumbersAreRefusedNotGuessed) {
  auto s = fresh();
  for (const auto& words : std::vector<std::vector<std::string>>{{"turn", "3x"},
                                                                 {"turn", ""},
                                                                 {"turn", "99"},
                                                                 {"last-turn", "x"},
                                                                 {"vp", "12a"},
                                                                 {"dice", "4", "seven"},
                                                                 {"dice", "0"},
                                                                 {"luftwaffe", "-1"}}) {
    const auto st = s->test_set(words);
    ASSERT_FALSE(st.is_ok()) << words[0] << " " << words[1];
    EXPECT_NE(st.error().message.find(words.back() == "seven" ? "seven" : words[1]), std::string::npos)
        << st.error().message;
  }
  set(*s, "turn 3");
  EXPECT_EQ(q(*s, "turn"), "3");
}

TEST(BdGrid, NeighboursFollowTheRulebookExamples) {
  // 11.27: west of 2403 is 2404, north-west is 2303; 7.11 distances; digest 2.2 checks.
  EXPECT_EQ(bd::hex_id(bd::neighbour(bd::parse_hex("2403"), bd::kW)), "2404");
  EXPECT_EQ(bd::hex_id(bd::neighbour(bd::parse_hex("2403"), bd::kNW)), "2303");
  EXPECT_EQ(bd::hex_id(bd::neighbour(bd::parse_hex("2709"), bd::kNE)), "2609");
  EXPECT_EQ(bd::hex_id(bd::neighbour(bd::parse_hex("2907"), bd::kSW)), "3008");
  EXPECT_EQ(bd::hex_distance(bd::parse_hex("2210"), bd::parse_hex("2208")), 2);
  EXPECT_EQ(bd::hex_distance(bd::parse_hex("2210"), bd::parse_hex("2308")), 2);
  EXPECT_EQ(bd::hex_distance(bd::parse_hex("2210"), bd::parse_hex("2409")), 2);
  EXPECT_EQ(bd::hex_distance(bd::parse_hex("1011"), bd::parse_hex("1110")), 1);
  EXPECT_EQ(bd::hex_distance(bd::parse_hex("1011"), bd::parse_hex("1111")), 1);
  for (int h = 0; h < bd::kNumHexes; ++h)
    for (int d = 0; d < 6; ++d) {
      const int n = bd::neighbour(h, d);
      if (n < 0) continue;
      EXPECT_EQ(bd::neighbour(n, (d + 3) % 6), h);
      EXPECT_EQ(bd::hex_distance(h, n), 1);
    }
  EXPECT_EQ(bd::parse_hex("3300"), -1);
  EXPECT_EQ(bd::parse_hex("12a4"), -1);
}

TEST(BdData, TablesLoadAndCarryTheKnownCell) {
  const auto& d = game().data();
  ASSERT_EQ(d.turns.size(), 32u);
  EXPECT_EQ(d.turn(6).year, 1941);  // 5.9 Dec/Jan counts as the ending year
  EXPECT_EQ(d.turn(14).year, 1942);
  EXPECT_TRUE(d.turn(1).single);
  EXPECT_FALSE(d.turn(5).single);
  EXPECT_EQ(d.turn(3).german_wins_at, 22);  // 4.14
  EXPECT_EQ(d.turn(3).soviet_wins_at, 13);
  EXPECT_EQ(d.crt.results.size(), 12u);
  EXPECT_EQ(d.crt.results[static_cast<size_t>(4 - d.crt.min_index)][4], bd::kBB);  // 11.25: 5:1, die 5
  EXPECT_EQ(d.places.moscow, bd::parse_hex("1606"));
}

// The generated map's "features", "regions" and "control" reach the rules: the loader used
// to reset them with absent flat keys (oil fields and the USIR lost their VP, every zone,
// supply area, fortified line and start line was wiped).
TEST(BdData, GeneratedMapFeaturesReachTheRules) {
  const auto& d = game().data();
  auto hex = [&](const char* id) -> const bd::HexInfo& {
    return d.hexes[static_cast<size_t>(bd::parse_hex(id))];
  };
  EXPECT_TRUE(hex("3103").vp) << "Maikop oil, 4.2";
  EXPECT_TRUE(hex("2922").vp) << "Ploesti oil, 4.2";
  EXPECT_TRUE(hex("2419").vp) << "USIR, 4.2";
  EXPECT_EQ(hex("2804").area, bd::kAreaR) << "Rostov, 7.4";
  EXPECT_EQ(hex("3103").area, bd::kAreaDP) << "Maikop, 7.4";
  EXPECT_EQ(hex("3104").area, bd::kAreaCS) << "7.4";
  EXPECT_EQ(hex("2804").zone, bd::kZoneSouth);
  EXPECT_EQ(hex("1606").zone, bd::kZoneNorth) << "Moscow";
  EXPECT_EQ(hex("1111").fortified, bd::kSoviet) << "11.21";
  EXPECT_TRUE(hex("2220").west_of_start_line) << "Warsaw, 5.15";
  EXPECT_FALSE(hex("1606").west_of_start_line);
}

// A scratch data directory holding a copy of data/bd's top-level JSON files (the tables;
// no scenarios), for tests that edit one file and load the game from it.
std::filesystem::path copy_of_bd_tables(const std::string& name) {
  namespace fs = std::filesystem;
  fs::path tmp = fs::temp_directory_path() / name;
  fs::remove_all(tmp);
  fs::create_directories(tmp / "bd");
  for (const auto& e : fs::directory_iterator(fs::path(STEPPE_DEFAULT_DATA_DIR) / "bd"))
    if (e.path().extension() == ".json") fs::copy_file(e.path(), tmp / "bd" / e.path().filename());
  return tmp;
}

TEST(BdData, BadTableIsRefusedNamingFileAndField) {
  namespace fs = std::filesystem;
  const fs::path tmp = copy_of_bd_tables("bd_bad_data");
  {
    auto doc = steppe::load_json_file(tmp / "bd" / "crt.json");
    ASSERT_TRUE(doc.is_ok());
    steppe::Json j = *doc;
    j["results"][3][2] = "XX";
    std::ofstream(tmp / "bd" / "crt.json") << j.dump();
  }
  auto g = bd::load_game(tmp);
  ASSERT_FALSE(g.is_ok());
  EXPECT_NE(g.error().to_string().find("crt.json"), std::string::npos) << g.error().to_string();
  EXPECT_NE(g.error().to_string().find("/results/3/2"), std::string::npos) << g.error().to_string();
  fs::remove_all(tmp);
}

// 2.2: the grid is the kernel's HexGrid read from map.json "grid"; a grid that is not the BD
// grid the positions are sized for (or a malformed one) is refused naming the file and rule.
TEST(BdData, MapGridOtherThanTheBdGridIsRefused) {
  namespace fs = std::filesystem;
  EXPECT_EQ(game().data().grid.size(), bd::kNumHexes);
  EXPECT_EQ(game().data().grid.id(bd::parse_hex("2403")), "2403");
  const fs::path tmp = copy_of_bd_tables("bd_bad_grid");
  auto edit = [&](const char* key, const steppe::Json& value) {
    auto doc = steppe::load_json_file(fs::path(STEPPE_DEFAULT_DATA_DIR) / "bd" / "map.json");
    ASSERT_TRUE(doc.is_ok());
    steppe::Json j = *doc;
    j["grid"][key] = value;
    std::ofstream(tmp / "bd" / "map.json") << j.dump();
  };
  edit("odd_rows_shift", "east");  // a valid grid, but other neighbours than 2.2's
  auto g = bd::load_game(tmp);
  ASSERT_FALSE(g.is_ok());
  EXPECT_NE(g.error().to_string().find("map.json"), std::string::npos) << g.error().to_string();
  EXPECT_NE(g.error().to_string().find("not the Barbarossa Deluxe grid"), std::string::npos)
      << g.error().to_string();
  EXPECT_EQ(g.error().rule, "2.2");
  edit("orientation", "round");
  auto malformed = bd::load_game(tmp);
  ASSERT_FALSE(malformed.is_ok());
  EXPECT_NE(malformed.error().to_string().find("/grid/orientation"), std::string::npos)
      << malformed.error().to_string();
  fs::remove_all(tmp);
}

// 6.3-6.5 limits are data (stacking.json): an owner's edit changes the rule, and a bad value
// is refused naming the file and field.
TEST(BdData, StackingLimitsComeFromStackingJson) {
  namespace fs = std::filesystem;
  const fs::path tmp = copy_of_bd_tables("bd_stacking_data");
  auto edit = [&](const steppe::Json& value) {
    auto doc = steppe::load_json_file(tmp / "bd" / "stacking.json");
    ASSERT_TRUE(doc.is_ok());
    steppe::Json j = *doc;
    j["units_per_hex"] = value;
    std::ofstream(tmp / "bd" / "stacking.json") << j.dump();
  };
  EXPECT_EQ(game().data().stacking.units_per_hex, 5);  // 6.3 as printed
  edit(3);
  {
    auto g = bd::load_game(tmp);
    ASSERT_TRUE(g.is_ok()) << g.error().to_string();
    EXPECT_EQ(static_cast<const bd::BdGame&>(**g).data().stacking.units_per_hex, 3);
  }
  edit("five");
  auto bad = bd::load_game(tmp);
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.error().to_string().find("stacking.json"), std::string::npos) << bad.error().to_string();
  EXPECT_NE(bad.error().to_string().find("units_per_hex"), std::string::npos) << bad.error().to_string();
  fs::remove_all(tmp);
}

// A copy of data/bd (with scenarios/) whose one scenario file is edited by `edit`; returns
// the load error text ("" if it loaded).
std::string load_with_edited_scenario(const std::string& scenario,
                                      const std::function<void(steppe::Json&)>& edit) {
  namespace fs = std::filesystem;
  // One folder per process: ctest runs the tests that call this in parallel processes.
  const fs::path tmp = fs::temp_directory_path() / ("bd_bad_scenario-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  fs::copy(fs::path(STEPPE_DEFAULT_DATA_DIR) / "bd", tmp / "bd", fs::copy_options::recursive);
  const fs::path file = tmp / "bd" / "scenarios" / (scenario + ".json");
  auto doc = steppe::load_json_file(file);
  if (!doc) return "cannot read " + file.string();
  steppe::Json j = *doc;
  edit(j);
  std::ofstream(file) << j.dump();
  auto g = bd::load_game(tmp);
  fs::remove_all(tmp);
  return g.is_ok() ? std::string() : g.error().to_string();
}

// 13.4, 14.4, 14.10, 15.4: the end-of-play conditions' lists and numbers are the scenario
// file's "end_victory", read as printed, and a bad one is refused naming file and field.
TEST(BdData, EndVictoryIsScenarioDataAndBadOnesAreRefused) {
  const bd::BdData& d = game().data();
  std::map<std::string, const bd::ScenarioDef*> by_id;
  for (const auto& sc : d.scenarios) by_id[sc.id] = &sc;
  ASSERT_TRUE(by_id.count("blue-kremlin") && by_id.count("citadel") && by_id.count("grand-campaign"));
  const bd::EndVictory& bk = by_id["blue-kremlin"]->end_victory;
  EXPECT_EQ(bk.rule, "13.4");
  EXPECT_EQ(bk.cities, (std::vector<int>{d.places.leningrad, d.places.moscow, d.places.stalingrad}));
  EXPECT_EQ(bk.cities_needed, 2);  // "any two of the following three cities"
  const bd::EndVictory& cit = by_id["citadel"]->end_victory;
  EXPECT_EQ(cit.rule, "14.4");
  EXPECT_EQ(cit.cities_needed, 7);  // "seven or more cities"
  EXPECT_EQ(cit.clear_around, d.places.leningrad);
  EXPECT_EQ(bd::hex_id(cit.no_enemy_in), "3105");                  // the Gotenkopf
  EXPECT_TRUE(by_id["grand-campaign"]->end_victory.rule.empty());  // won on VP (section 4)

  std::string e =
      load_with_edited_scenario("citadel", [](steppe::Json& j) { j["end_victory"]["rule"] = "14.9"; });
  EXPECT_NE(e.find("citadel.json"), std::string::npos) << e;
  EXPECT_NE(e.find("/end_victory/rule"), std::string::npos) << e;
  e = load_with_edited_scenario("citadel",
                                [](steppe::Json& j) { j["end_victory"]["clear_around"] = "atlantis"; });
  EXPECT_NE(e.find("/end_victory/clear_around"), std::string::npos) << e;
  EXPECT_NE(e.find("atlantis"), std::string::npos) << e;
  e = load_with_edited_scenario("blue-kremlin",
                                [](steppe::Json& j) { j["end_victory"]["cities_needed"] = 4; });
  EXPECT_NE(e.find("/end_victory/cities_needed"), std::string::npos) << e;  // more than the three listed
  e = load_with_edited_scenario("mansteins-gambit", [](steppe::Json& j) { j["end_victory"]["turns"] = 3; });
  EXPECT_NE(e.find("/end_victory"), std::string::npos) << e;
  EXPECT_NE(e.find("turns"), std::string::npos) << e;
}

// 13.4 as data: with "cities_needed" 1 instead of the printed 2, holding Moscow alone of the
// three wins for the German (tests/rulebook/bd/13.4-one-city.scn, the same position with the
// printed number, is a Soviet win).
TEST(BdData, EndVictoryNumbersDecideTheGame) {
  namespace fs = std::filesystem;
  const fs::path tmp = fs::temp_directory_path() / "bd_end_victory";
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  fs::copy(fs::path(STEPPE_DEFAULT_DATA_DIR) / "bd", tmp / "bd", fs::copy_options::recursive);
  const fs::path file = tmp / "bd" / "scenarios" / "blue-kremlin.json";
  auto doc = steppe::load_json_file(file);
  ASSERT_TRUE(doc.is_ok());
  steppe::Json j = *doc;
  j["end_victory"]["cities_needed"] = 1;
  std::ofstream(file) << j.dump();
  auto g = bd::load_game(tmp);
  fs::remove_all(tmp);
  ASSERT_TRUE(g.is_ok()) << g.error().to_string();
  const steppe::Game* one_city_game = g->get();
  auto test = steppe::parse_scenario_test(
      "name   13.4 with one city needed\nrule   13.4\ngame   bd\nscenario blue-kremlin\nset blank-map\n"
      "city 1810 Smolensk\ncity 2311 Kiev\ncontrol 1810 german\ncontrol 2311 german\ncontrol 1606 german\n"
      "set turn 13\nset phase soviet-movement\ndo end-phase\ndo end-phase\n"
      "expect log contains holds every start city and 1 of Leningrad, Moscow, Stalingrad\n"
      "expect winner german\n",
      "one-city.scn");
  ASSERT_TRUE(test.is_ok()) << test.error().to_string();
  steppe::ScenarioEnv env;
  env.games = [&](const std::string&) -> steppe::Result<const steppe::Game*> { return one_city_game; };
  const steppe::ScenarioResult r = steppe::run_scenario_test(*test, env);
  EXPECT_TRUE(r.passed) << (r.failure ? r.failure->to_string() : std::string("failed"));
}

// 15.7 (What If 1942): "Luftwaffe availability is "3" every turn", whatever the TRRT shows.
// The shipped TRRT gives 3 on that scenario's turns anyway, so a scenario test cannot tell;
// here the TRRT is edited to 1 marker on every turn: the Grand Campaign then gets 1 and the
// What If still 3, every turn, and it may commit three (11.23) but not a fourth.
TEST(BdScenario, WhatIf1942LuftwaffeIsThreeWhateverTheTrrt) {
  namespace fs = std::filesystem;
  const fs::path tmp = fs::temp_directory_path() / ("bd_trrt_15_7_" + std::to_string(getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  fs::copy(fs::path(STEPPE_DEFAULT_DATA_DIR) / "bd", tmp / "bd", fs::copy_options::recursive);
  const fs::path file = tmp / "bd" / "trrt.json";
  auto doc = steppe::load_json_file(file);
  ASSERT_TRUE(doc.is_ok());
  steppe::Json j = *doc;
  ASSERT_TRUE(j["turns"].is_array());
  for (auto& t : j["turns"]) t["german"]["luftwaffe"] = 1;
  std::ofstream(file) << j.dump();
  auto g = bd::load_game(tmp);
  fs::remove_all(tmp);
  ASSERT_TRUE(g.is_ok()) << g.error().to_string();
  auto make = [&](const std::string& scenario) {
    auto st = (*g)->new_state(scenario, 1);
    EXPECT_TRUE(st.is_ok()) << (st ? "" : st.error().to_string());
    return std::unique_ptr<bd::BdState>(static_cast<bd::BdState*>(std::move(st).value().release()));
  };
  auto campaign = make("grand-campaign");
  auto what_if = make("what-if-1942");
  ASSERT_TRUE(campaign && what_if);
  for (const char* turn : {"9", "10", "14", "20"}) {
    set(*campaign, std::string("turn ") + turn);
    set(*what_if, std::string("turn ") + turn);
    EXPECT_EQ(q(*campaign, "markers luftwaffe"), "1") << "the edited TRRT, GT" << turn;
    EXPECT_EQ(q(*what_if, "markers luftwaffe"), "3") << "15.7, GT" << turn;
  }
  // The three markers are there to be used: three battles supported, not a fourth.
  set(*what_if, "blank-map");
  set(*what_if, "turn 10");
  set(*what_if, "phase german-assault");
  const char* targets[] = {"2403", "2406", "2409", "2412"};
  const char* from[] = {"2404", "2407", "2410", "2413"};
  for (int i = 0; i < 4; ++i) {
    set(*what_if, std::string("place soviet S") + std::to_string(i) + " " + targets[i] + " cf 1");
    set(*what_if, std::string("place german G") + std::to_string(i) + " " + from[i] + " cf 3");
  }
  for (int i = 0; i < 4; ++i) {
    auto a = what_if->parse_action(std::string("attack ") + targets[i] + " from " + from[i] + " lw");
    ASSERT_TRUE(a.is_ok()) << a.error().to_string();
    if (i < 3) {
      what_if->dice().force(6);
      ASSERT_TRUE(what_if->apply(*a).is_ok())
          << "battle " << i << ": " << what_if->check(*a).error().to_string();
      EXPECT_EQ(q(*what_if, "result"), "AS");  // 3:1, 1R = 4:1, die 6: nothing pending
      EXPECT_EQ(q(*what_if, "pending"), "none");
    } else {
      auto st = what_if->check(*a);
      ASSERT_FALSE(st.is_ok()) << "a fourth Luftwaffe marker";
      EXPECT_EQ(st.error().rule, "11.23");
    }
  }
  EXPECT_EQ(q(*what_if, "markers luftwaffe"), "0");
}

// The start-of-scenario control ("control" of scenarios/<id>.json) is validated like every
// other field: the error names the file, the field path and the value.
TEST(BdData, BadScenarioControlIsRefusedNamingFileFieldAndValue) {
  std::string e = load_with_edited_scenario("road-back", [](steppe::Json& j) {
    j["control"]["german_front"][4] = "1310";  // row 13 twice (1311 is there already)
  });
  EXPECT_NE(e.find("road-back.json"), std::string::npos) << e;
  EXPECT_NE(e.find("/control/german_front/4"), std::string::npos) << e;
  EXPECT_NE(e.find("1310"), std::string::npos) << e;

  e = load_with_edited_scenario("citadel", [](steppe::Json& j) { j["control"]["german"] = {"2311", "99x"}; });
  EXPECT_NE(e.find("citadel.json"), std::string::npos) << e;
  EXPECT_NE(e.find("/control/german/1"), std::string::npos) << e;
  EXPECT_NE(e.find("99x"), std::string::npos) << e;

  e = load_with_edited_scenario("citadel", [](steppe::Json& j) { j["control"].erase("source"); });
  EXPECT_NE(e.find("/control"), std::string::npos) << e;
  EXPECT_NE(e.find("source"), std::string::npos) << e;
  e = load_with_edited_scenario("citadel", [](steppe::Json& j) {
    j["control"].erase("rule");
    j["control"].erase("reconstructed");
  });
  EXPECT_NE(e.find("/control"), std::string::npos) << e;
  EXPECT_NE(e.find("needs a \"rule\""), std::string::npos) << e;

  // Without its control the Road Back set-up puts German corps in Soviet territory (3.6).
  e = load_with_edited_scenario("road-back", [](steppe::Json& j) { j.erase("control"); });
  EXPECT_NE(e.find("road-back.json"), std::string::npos) << e;
  EXPECT_NE(e.find("/hex"), std::string::npos) << e;
  EXPECT_NE(e.find("starts soviet-controlled"), std::string::npos) << e;

  e = load_with_edited_scenario("blue-kremlin", [](steppe::Json& j) { j["setup"][0]["zone"] = "nowhere"; });
  EXPECT_NE(e.find("/setup/0/zone"), std::string::npos) << e;
  EXPECT_NE(e.find("nowhere"), std::string::npos) << e;

  EXPECT_EQ(load_with_edited_scenario("road-back", [](steppe::Json&) {}), "");
}

// Each later scenario starts on its own front (12.14/12.15, 13.6/13.7, 14.6/14.7, 14.9) with
// the VP its section states: the fixed set-up neither moves the front nor scores.
TEST(BdScenario, LaterScenariosStartOnTheirFrontWithTheStatedVp) {
  const auto& d = game().data();
  for (const auto& sc : d.scenarios) {
    auto s = fresh(sc.id);
    std::array<int, bd::kNumHexes> want{};
    for (int h = 0; h < bd::kNumHexes; ++h)
      want[static_cast<size_t>(h)] = bd::start_control_3_6(d.hexes[static_cast<size_t>(h)]);
    for (int h : sc.german_control) want[static_cast<size_t>(h)] = bd::kGerman;
    for (int h : sc.soviet_control) want[static_cast<size_t>(h)] = bd::kSoviet;
    for (int h = 0; h < bd::kNumHexes; ++h)
      EXPECT_EQ(s->control(h), want[static_cast<size_t>(h)]) << sc.id << " " << bd::hex_id(h);
    EXPECT_EQ(s->vp(), sc.vp_start) << sc.id;
    EXPECT_TRUE(s->check_invariants().is_ok()) << sc.id;
  }
  auto rb = fresh("road-back");
  EXPECT_EQ(rb->vp(), 33) << "12.3";
  for (const char* city : {"2311", "1813", "1415", "2911", "3108", "2607"})  // Kiev .. Dnepropetrovsk
    EXPECT_EQ(rb->control(bd::parse_hex(city)), bd::kGerman) << "road-back " << city;
  // 14.4: the Soviet must take 7 cities that started German; Soviet cities held by the
  // German at the start of Citadel are far more than that.
  auto ci = fresh("citadel");
  int german_soviet_cities = 0;
  for (int h = 0; h < bd::kNumHexes; ++h) {
    const auto& x = d.hexes[static_cast<size_t>(h)];
    if (x.city && (x.country == bd::kUssr || x.country == bd::kBaltic) && ci->control(h) == bd::kGerman)
      ++german_soviet_cities;
  }
  EXPECT_GE(german_soviet_cities, 15);
}

// 13.7: the German free set-up of Blue & Kremlin is "west of the Soviet front line" in the
// East (BD-15), never 1941 Germany, Poland, Romania or Yugoslavia; setting up scores nothing.
TEST(BdScenario, BlueKremlinGermanSetUpIsTheOccupiedEast) {
  const auto& d = game().data();
  for (uint64_t seed : {1u, 2u}) {
    auto s = fresh("blue-kremlin", seed);
    std::array<uint8_t, bd::kNumHexes> start{};
    for (int h = 0; h < bd::kNumHexes; ++h)
      start[static_cast<size_t>(h)] = static_cast<uint8_t>(s->control(h));
    std::vector<steppe::Action> acts;
    uint64_t x = seed;
    int placed = 0;
    while (s->phase() == bd::kSetupPhase) {
      s->legal_actions(acts);
      ASSERT_FALSE(acts.empty());
      for (const auto& a : acts) {
        const std::string t = s->action_to_string(a);
        const int h = bd::parse_hex(t.substr(t.size() - 4));
        ASSERT_GE(h, 0) << t;
        const auto c = d.hexes[static_cast<size_t>(h)].country;
        EXPECT_TRUE(c == bd::kUssr || c == bd::kBaltic) << t;
        EXPECT_EQ(s->control(h), bd::kGerman) << t;
      }
      x = steppe::splitmix64(x);
      ASSERT_TRUE(s->apply(acts[x % acts.size()]).is_ok());
      ++placed;
    }
    EXPECT_GT(placed, 40);
    EXPECT_EQ(s->vp(), 0);
    for (int h = 0; h < bd::kNumHexes; ++h)
      EXPECT_EQ(s->control(h), start[static_cast<size_t>(h)]) << bd::hex_id(h);
  }
  auto s = fresh("blue-kremlin");
  auto near_front = s->parse_action("setup 3R 2408");
  auto poland = s->parse_action("setup 3R 2117");
  ASSERT_TRUE(near_front.is_ok() && poland.is_ok());
  EXPECT_TRUE(s->check(*near_front).is_ok());
  auto st = s->check(*poland);
  ASSERT_FALSE(st.is_ok());
  EXPECT_EQ(st.error().rule, "3.3");
}

TEST(BdState, IllegalActionLeavesStateUnchangedAndCitesRule) {
  auto s = fresh();
  set(*s, "blank-map");
  set(*s, "turn 10");
  set(*s, "phase german-movement");
  set(*s, "place german 4Pz 2404");
  set(*s, "place soviet 16A 2403 cf 3");
  const uint64_t h = s->state_hash();
  auto a = s->parse_action("move 4Pz 2404 2403");
  ASSERT_TRUE(a.is_ok());
  auto st = s->apply(*a);
  ASSERT_FALSE(st.is_ok());
  EXPECT_EQ(st.error().rule, "10.4");
  EXPECT_EQ(s->state_hash(), h);
}

// Issue 19: the verb table is the one list of verbs; a malformed action is answered with the
// form its verb takes, and an unknown one with every verb's form, from that table.
TEST(BdNotation, MalformedActionNamesTheFormsFromTheVerbTable) {
  auto s = fresh();
  set(*s, "blank-map");
  set(*s, "place german 4Pz 2404");
  auto paulus = s->parse_action("paulus maybe");  // 5.10
  ASSERT_FALSE(paulus.is_ok());
  EXPECT_NE(paulus.error().message.find("paulus take|decline"), std::string::npos) << paulus.error().message;
  auto unknown = s->parse_action("no-such-verb 2404");
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_NE(unknown.error().message.find("osupply A|B|C HEX"), std::string::npos) << unknown.error().message;
  for (const char* text : {"attack 2403 with 4Pz lw", "attack 2403 from 2404", "mobile-assault 2403 with 4Pz",
                           "support artillery 4Pz", "caucasus-recall 4Pz 2404", "crimea-supply off"}) {
    auto a = s->parse_action(text);
    ASSERT_TRUE(a.is_ok()) << text;
    EXPECT_EQ(s->action_to_string(*a), text);
    auto d = s->describe(*a);
    ASSERT_TRUE(d.is_ok()) << text;
    EXPECT_EQ(d->verb, std::string(text).substr(0, std::string(text).find(' ')));
  }
}

TEST(BdState, MobileAssaultClearsHexAndUnitsMoveOn) {
  auto s = fresh();
  set(*s, "blank-map");
  set(*s, "turn 10");  // single-month: German MA allowed (10.23)
  set(*s, "phase german-movement");
  set(*s, "place german 4Pz 2405");
  set(*s, "place german 3Pz 2406");
  set(*s, "place soviet 16A 2403 cf 1");
  auto mv = s->parse_action("move 4Pz 2405 2404");
  ASSERT_TRUE(mv.is_ok());
  ASSERT_TRUE(s->apply(*mv).is_ok());
  auto mv2 = s->parse_action("move 3Pz 2406 2405 2404");
  ASSERT_TRUE(mv2.is_ok());
  ASSERT_TRUE(s->apply(*mv2).is_ok()) << s->check(*mv2).error().to_string();
  // 4Pz began the phase in another hex: its move was over when 3Pz started (10.2, 10.6), and
  // units that MA together must have started the phase stacked together (10.27).
  auto bad = s->parse_action("mobile-assault 2403 with 4Pz 3Pz");
  ASSERT_TRUE(bad.is_ok());
  EXPECT_FALSE(s->check(*bad).is_ok());
  // 4 vs 1 = 4:1, MA 1L = 3:1: die 1 = DE
  EXPECT_EQ(q(*s, "odds mobile-assault 2403 with 3Pz"), "3:1");
  auto ma = s->parse_action("mobile-assault 2403 with 3Pz");
  ASSERT_TRUE(ma.is_ok());
  s->dice().force(1);
  ASSERT_TRUE(s->apply(*ma).is_ok()) << s->check(*ma).error().to_string();
  EXPECT_EQ(q(*s, "result"), "DE");
  EXPECT_EQ(q(*s, "unit 3Pz hex"), "2403");
  // 10 MF - 2 (two clear hexes) - 1 (clear) - 2 (MA surcharge) = 5 left (10.24)
  EXPECT_EQ(q(*s, "unit 3Pz mp"), "5");
}

TEST(BdState, ObservationHidesSovietStackBelowTheTop) {
  auto s = fresh();
  set(*s, "place soviet 16A 2403 cf 3");
  set(*s, "place soviet 17A 2403 cf 3");
  set(*s, "rvgk 17A");
  set(*s, "place soviet 20A 2403 cf 3");
  const auto o = s->observation(bd::kGerman);
  std::string dump = o.dump();
  EXPECT_NE(dump.find("16A"), std::string::npos);
  EXPECT_EQ(dump.find("20A"), std::string::npos)
      << "second unit of a Soviet stack visible to the German (11.7)";
  EXPECT_EQ(dump.find("17A"), std::string::npos) << "RVGK content visible to the German (11.7)";
  const auto so = s->observation(bd::kSoviet).dump();
  EXPECT_NE(so.find("20A"), std::string::npos);
  EXPECT_NE(so.find("17A"), std::string::npos);
}

// 7.2, 7.8, 11.7: each unit a side sees carries its supply state (the German sees no
// Soviet unit below the top one, nor its supply); only the moving side's own units carry
// their movement allowance (halved out of supply, 7.16); every unit has one step (2.12).
TEST(BdState, ObservationGivesSupplyOfVisibleUnitsAndMfOfTheMover) {
  auto s = fresh();
  set(*s, "blank-map");
  set(*s, "turn 10");
  set(*s, "phase german-movement");
  set(*s, "place german 4Pz 2405");
  set(*s, "supply 4Pz oos");
  set(*s, "place german 3Pz 2406");
  set(*s, "supply 3Pz overland");
  set(*s, "place soviet 16A 2403 cf 3");
  set(*s, "supply 16A overland");
  set(*s, "place soviet 20A 2403 cf 3");
  set(*s, "supply 20A oos");
  auto unit_in = [](const steppe::Json& o, const std::string& label) {
    for (const auto& st : o["stacks"])
      for (const auto& u : st["units"])
        if (u["unit"] == label) return u;
    return steppe::Json();
  };
  const auto g = s->observation(bd::kGerman);
  EXPECT_EQ(g["steps_per_unit"], 1);
  EXPECT_EQ(unit_in(g, "4Pz")["supply"], "oos");
  EXPECT_EQ(unit_in(g, "3Pz")["supply"], "overland");
  EXPECT_EQ(unit_in(g, "16A")["supply"], "overland");
  // 7.10: no offensive supply marker in range on GT10.
  EXPECT_EQ(unit_in(g, "16A")["offensive"], false);
  EXPECT_TRUE(unit_in(g, "20A").is_null());
  EXPECT_EQ(g.dump().find("20A"), std::string::npos);
  ASSERT_TRUE(unit_in(g, "4Pz").contains("mf"));
  EXPECT_EQ(std::to_string(unit_in(g, "4Pz")["mf"].get<int>()), q(*s, "unit 4Pz mf"));
  EXPECT_EQ(unit_in(g, "4Pz")["mf"].get<int>() * 2, unit_in(g, "3Pz")["mf"].get<int>());
  EXPECT_FALSE(unit_in(g, "16A").contains("mf"));
  const auto so = s->observation(bd::kSoviet);
  EXPECT_EQ(unit_in(so, "20A")["supply"], "oos");
  EXPECT_EQ(unit_in(so, "4Pz")["supply"], "oos");
  EXPECT_FALSE(unit_in(so, "4Pz").contains("mf")) << "the Soviet sees no German movement allowance";
  EXPECT_FALSE(unit_in(so, "20A").contains("mf")) << "not the Soviet movement phase";
}

// Every shift of the combat preview carries its reason and rule, and they add up to the
// shifts the battle uses (11.14 rough terrain 1L, 11.24 concentric 1R, 11.23 Luftwaffe 1R).
TEST(BdState, CombatPreviewListsEveryShiftWithItsRule) {
  auto s = fresh();
  set(*s, "blank-map");
  set(*s, "turn 14");
  set(*s, "phase german-assault");
  set(*s, "terrain 2403 rough");
  set(*s, "place soviet D1 2403 cf 3");
  set(*s, "place german A1 2404 cf 9");
  set(*s, "place german A2 2402 cf 3");
  const auto j = steppe::Json::parse(q(*s, "combat attack 2403 from 2404 2402 lw"));
  EXPECT_EQ(j["attack"], 12);
  EXPECT_EQ(j["defense"], 3);
  EXPECT_EQ(j["raw"], "4:1");
  std::map<std::string, int> by_rule;
  int sum = 0;
  for (const auto& x : j["shifts"]) {
    by_rule[x["rule"].get<std::string>()] += x["shift"].get<int>();
    sum += x["shift"].get<int>();
    EXPECT_FALSE(x["reason"].get<std::string>().empty());
  }
  EXPECT_EQ(by_rule["11.14"], -1);
  EXPECT_EQ(by_rule["11.24"], 1);
  EXPECT_EQ(by_rule["11.23"], 1);
  EXPECT_EQ(by_rule.size(), 3u);
  EXPECT_EQ(sum, j["total_shift"].get<int>());
  EXPECT_EQ(std::to_string(sum), q(*s, "shifts attack 2403 from 2404 2402 lw"));
  EXPECT_EQ(j["final"], q(*s, "odds attack 2403 from 2404 2402 lw"));
  EXPECT_EQ(j["final"], "5:1");
  ASSERT_EQ(j["attackers"].size(), 2u);
}

// The MP cost of each hex a unit can reach now (10.1): every legal move's destination is
// there, at the cost of its path (clear 1 MP per hex on the blank map).
TEST(BdState, ReachGivesTheMpCostOfEveryLegalDestination) {
  auto s = fresh();
  set(*s, "blank-map");
  set(*s, "turn 10");
  set(*s, "phase german-movement");
  set(*s, "place german 4Pz 2405");
  set(*s, "place soviet 16A 2402 cf 3");
  const auto j = steppe::Json::parse(q(*s, "reach 4Pz"));
  EXPECT_EQ(std::to_string(j["mp"].get<int>()), q(*s, "unit 4Pz mf"));
  EXPECT_EQ(j["hexes"]["2404"]["cost"], 1);
  EXPECT_EQ(j["hexes"]["2403"]["cost"], 2);
  EXPECT_EQ(j["hexes"]["2403"]["left"], j["mp"].get<int>() - 2);
  EXPECT_FALSE(j["hexes"].contains("2402")) << "an enemy hex is never entered by a move (10.4)";
  std::vector<steppe::Action> acts;
  s->legal_actions(acts);
  int moves = 0;
  for (const auto& a : acts) {
    const std::string text = s->action_to_string(a);
    if (text.rfind("move 4Pz ", 0) != 0) continue;
    ++moves;
    const std::string dest = text.substr(text.rfind(' ') + 1);
    ASSERT_TRUE(j["hexes"].contains(dest)) << text;
    // Clear terrain everywhere: the cost is the number of hexes entered.
    const int entered = static_cast<int>(std::count(text.begin(), text.end(), ' ')) - 2;
    EXPECT_EQ(j["hexes"][dest]["cost"], entered) << text;
  }
  EXPECT_EQ(moves, static_cast<int>(j["hexes"].size()));
  EXPECT_NE(q(*s, "reach 99Z").rfind("ERROR", 0), std::string::npos);
}

// 4.17: Manstein's Gambit's scenario reinforcement (2nd Para) waits on the turn record
// track for GT18 instead of staying out of play (the scenario's "reinforcements" list).
TEST(BdScenario, MansteinsGambitSecondParaIsAReinforcement) {
  auto s = fresh("mansteins-gambit");
  EXPECT_EQ(q(*s, "unit 2Para where"), "trrt");
}

// 11.7: a Soviet unit revealed at an odds calculation is shown to the German; the
// scenario-test word `reveal` sets that status, `unit U revealed` reads it.
TEST(BdState, RevealedSovietUnitIsVisibleToTheGerman) {
  auto s = fresh();
  set(*s, "place soviet 16A 2403 cf 3");
  set(*s, "place soviet 20A 2403 cf 3");
  EXPECT_EQ(q(*s, "unit 20A revealed"), "no");
  EXPECT_EQ(s->observation(bd::kGerman).dump().find("20A"), std::string::npos);
  set(*s, "reveal 20A");
  EXPECT_EQ(q(*s, "unit 20A revealed"), "yes");
  EXPECT_NE(s->observation(bd::kGerman).dump().find("20A"), std::string::npos);
  EXPECT_FALSE(s->test_set({"reveal", "99Z"}).is_ok());
}

TEST(BdState, RandomGrandCampaignRunsToTheEnd) {
  // With Forgiveness Points (4.20) no interim check ends the game, so the later VP events
  // (4.4, 4.5, 4.6, 4.18/4.19) are played through with the VP invariant checked.
  for (const auto& [scenario, seed] :
       std::vector<std::pair<std::string, uint64_t>>{{"grand-campaign", 1},
                                                     {"grand-campaign", 2},
                                                     {"grand-campaign", 3},
                                                     {"grand-campaign+forgiveness-points", 1},
                                                     {"grand-campaign+forgiveness-points+kiev-vp", 3},
                                                     {"road-back", 1},     // 12.9: the expedition's recall
                                                     {"road-back", 2}}) {  // and defeat (4.13)
    auto s = play_random_checked(
        scenario, seed, [](const bd::BdState&, const steppe::Action&, const std::vector<int16_t>&) {});
    EXPECT_TRUE(s->is_terminal());
    EXPECT_TRUE(s->result().contains("winner"));
  }
}

// 8.31, 8.32: random play through the scenarios where Tiger battalions and CM groups are in
// play keeps every one on the map atop an eligible parent in its hex, at most one per stack
// (check_invariants), and the random player does attach them and move them with their parents.
TEST(BdAttachment, RandomPlayKeepsTigersAndCmGroupsWithTheirParents) {
  int tb_attached = 0, cm_attached = 0, carried = 0, arrivals = 0;
  for (const auto& [scenario, seed] :
       std::vector<std::pair<std::string, uint64_t>>{{"citadel", 1},
                                                     {"citadel", 2},
                                                     {"mansteins-gambit", 1},
                                                     {"mansteins-gambit", 2},
                                                     {"road-back", 3},
                                                     {"grand-campaign+forgiveness-points", 1},
                                                     {"grand-campaign+forgiveness-points", 2},
                                                     {"grand-campaign+forgiveness-points", 3},
                                                     {"grand-campaign+forgiveness-points", 4},
                                                     {"grand-campaign+forgiveness-points", 5}}) {
    auto s = play_random_checked(
        scenario, seed,
        [&](const bd::BdState& st, const steppe::Action& a, const std::vector<int16_t>& before) {
          if (a.verb == bd::kAttach) ++arrivals;
          for (int u = 0; u < st.num_units(); ++u) {
            const bd::UnitSt& us = st.unit(u);
            if (us.where != bd::kOnMap || us.parent < 0) continue;
            (st.def(u).type == bd::kCmGroup ? cm_attached : tb_attached)++;
            // moved by an action that did not name it: carried by its parent
            if (before[static_cast<size_t>(u)] >= 0 && before[static_cast<size_t>(u)] != us.hex &&
                !(a.verb == bd::kAttach && a.args[0] == u))
              ++carried;
          }
        });
    EXPECT_TRUE(s->is_terminal()) << scenario << " " << seed;
  }
  EXPECT_GT(tb_attached, 0);
  EXPECT_GT(cm_attached, 0);
  EXPECT_GT(carried, 0);
  EXPECT_GT(arrivals, 0);
}

// 4.6: the Dnepr hexes come from victory.json: both banks from Kiev down to the 2809/2908
// hexside, plus every neighbour of Kiev and Dnepropetrovsk (all six sides count).
TEST(BdVictory, DneprHexesAreTheKievToKhersonStretch) {
  const auto& d = game().data();
  auto dnepr = [&](const char* id) { return d.hexes[static_cast<size_t>(bd::parse_hex(id))].dnepr; };
  for (const char* id : {"2311", "2310", "2411", "2607", "2608", "2809", "2908"})
    EXPECT_TRUE(dnepr(id)) << id;
  for (int dir = 0; dir < 6; ++dir) {
    EXPECT_TRUE(d.hexes[static_cast<size_t>(bd::neighbour(bd::parse_hex("2311"), dir))].dnepr)
        << "Kiev side " << dir;
    EXPECT_TRUE(d.hexes[static_cast<size_t>(bd::neighbour(bd::parse_hex("2607"), dir))].dnepr)
        << "DP side " << dir;
  }
  for (const char* id : {"1811", "2011", "2909", "3009"})
    EXPECT_FALSE(dnepr(id)) << id << " is outside 2311-2809/2908";
}

// Optional rules ride on the scenario name (saves and replays record it whole) and are
// refused by name when unknown.
TEST(BdVictory, OptionsFollowTheScenarioName) {
  auto s = fresh("grand-campaign+forgiveness-points+kiev-vp");
  const auto o = s->observation(bd::kSoviet);
  ASSERT_TRUE(o.contains("options"));
  EXPECT_EQ(o["options"].size(), 2u);
  EXPECT_EQ(o["scenario"], "grand-campaign");
  auto bad = game().new_state("grand-campaign+no-such-rule", 1);
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.error().message.find("no-such-rule"), std::string::npos);
  EXPECT_FALSE(game().new_state("grand-campaign+", 1).is_ok());
  EXPECT_FALSE(s->test_set({"option", "kiev-vp", "maybe"}).is_ok());
}

// 4.18: the Rhine/Oder choice is under the coffee cup: the Soviet observation and log do not
// show it until GT30, and the Soviet's determinization does not keep it.
TEST(BdVictory, WatchChoiceIsHiddenFromTheSovietUntilGt30) {
  auto s = fresh();
  set(*s, "blank-map");
  set(*s, "turn 28");
  set(*s, "phase german-admin");
  auto a = s->parse_action("watch oder");
  ASSERT_TRUE(a.is_ok());
  ASSERT_TRUE(s->apply(*a).is_ok());
  EXPECT_EQ(s->observation(bd::kGerman)["watch"], "oder");
  EXPECT_EQ(s->observation(bd::kSoviet)["watch"], "hidden");
  EXPECT_EQ(s->observation(bd::kSoviet).dump().find("oder"), std::string::npos);
  EXPECT_EQ(s->observation(bd::kSoviet).dump().find("Oder"), std::string::npos);
  bool saw_rhine = false;
  for (uint64_t seed = 1; seed < 20 && !saw_rhine; ++seed) {
    auto c = s->clone();
    c->resample_hidden(bd::kSoviet, seed);
    saw_rhine = q(static_cast<bd::BdState&>(*c), "watch") == "rhine";
  }
  EXPECT_TRUE(saw_rhine) << "the Soviet's samples must not always know the choice";
  set(*s, "turn 30");
  EXPECT_EQ(s->observation(bd::kSoviet)["watch"], "oder");
}

}  // namespace

namespace bd {
class BdTestAccess {
 public:
  static void eliminate(BdState& s, int u) { s.eliminate(u, "11.26"); }
};
}  // namespace bd

namespace {

// T7 (4.19): Soviet units with printed CF 3, 5 and 7 eliminated count 1 + 2 + 2 = 5.
TEST(BdVictory, OderCountsBigSovietUnitsTwice) {
  auto s = fresh();
  set(*s, "blank-map");
  set(*s, "turn 30");
  set(*s, "place soviet 16A 2010 cf 3");
  set(*s, "place soviet 17A 2011 cf 5");
  set(*s, "place soviet 18A 2012 cf 7");
  EXPECT_EQ(q(*s, "soviet-losses"), "0");
  for (const char* l : {"16A", "17A", "18A"}) {
    int u = -1;
    for (int i = 0; i < s->num_units(); ++i)
      if (s->def(i).label == l) u = i;
    ASSERT_GE(u, 0) << l;
    bd::BdTestAccess::eliminate(*s, u);
  }
  EXPECT_EQ(q(*s, "soviet-losses"), "5");
}

// Every legal action prints and parses back to itself; the state keeps its invariants.
void expect_round_trip(bd::BdState& s) {
  std::vector<steppe::Action> acts;
  s.legal_actions(acts);
  for (const auto& a : acts) {
    const std::string text = s.action_to_string(a);
    auto back = s.parse_action(text);
    ASSERT_TRUE(back.is_ok()) << text;
    EXPECT_TRUE(*back == a) << text;
  }
}

void act(bd::BdState& s, const std::string& text) {
  auto a = s.parse_action(text);
  ASSERT_TRUE(a.is_ok()) << text;
  expect_round_trip(s);
  bool listed = false;
  std::vector<steppe::Action> acts;
  s.legal_actions(acts);
  for (const auto& x : acts) listed |= x == *a;
  EXPECT_TRUE(listed) << text << " is not among the legal actions";
  ASSERT_TRUE(s.apply(*a).is_ok()) << text;
  ASSERT_TRUE(s.check_invariants().is_ok()) << s.check_invariants().error().to_string();
}

// 4.11-4.13: the launch, the Soviet response, the recall and the Soviet units leaving are
// listed, round-trip through the notation, and the Caucasus box is in both observations.
TEST(BdVictory, CaucasusActionsAreListedAndRoundTrip) {
  auto s = fresh();
  for (const char* w :
       {"control 3103 german", "control 2607 german", "control 2804 german", "place german Inf1 3201",
        "place german APz 3202", "place german BPz 3202", "place german CPz 3203", "place soviet R1 1606",
        "place soviet R2 1606", "place soviet R3 1506", "place soviet R4 1506", "place soviet R5 1406",
        "rvgk R5", "vp 26", "turn 10", "phase german-movement"})
    set(*s, w);
  act(*s, "caucasus-launch Inf1 APz BPz");
  EXPECT_EQ(s->observation(bd::kGerman)["caucasus"]["soviet_to_send"], 4);
  for (const char* r : {"R1", "R5", "R2", "R3"}) act(*s, std::string("caucasus-send ") + r);
  for (int side : {bd::kGerman, bd::kSoviet}) {
    const auto o = s->observation(side);
    EXPECT_EQ(o["caucasus"]["state"], "in-box");
    EXPECT_EQ(o["caucasus"]["units"].size(), 7u);
    EXPECT_EQ(o["boxes"]["german"]["caucasus"].size(), 3u);
    EXPECT_EQ(o["boxes"]["soviet"]["caucasus"].size(), 4u);
  }
  set(*s, "phase soviet-phase-c");
  set(*s, "dice 1");
  act(*s, "end-phase");
  set(*s, "phase german-movement");
  act(*s, "caucasus-recall Inf1 3200 APz 3204 BPz 3204");
  EXPECT_EQ(q(*s, "caucasus"), "recalled");
  set(*s, "phase soviet-movement");
  act(*s, "caucasus-leave R5 3201");
  set(*s, "phase soviet-rvgk");
  act(*s, "rvgk-in R1");
  EXPECT_EQ(q(*s, "unit R1 where"), "rvgk");
}

// 8.17 / 4.10: the German withdrawal actions round-trip and are listed.
TEST(BdVictory, SsWithdrawalIsListedAndRoundTrips) {
  auto s = fresh();
  set(*s, "blank-map");
  set(*s, "place german 2SSPz 2020");
  set(*s, "supply 2SSPz overland");
  set(*s, "turn 25");
  set(*s, "phase german-admin");
  std::vector<steppe::Action> acts;
  s->legal_actions(acts);
  ASSERT_EQ(acts.size(), 2u) << "withdraw or decline first";
  act(*s, "withdraw 2SSPz");
  EXPECT_EQ(q(*s, "unit 2SSPz where"), "trrt");
}

// 4.16: the Manstein's Gambit declaration is listed, round-trips and is shown to both sides.
TEST(BdVictory, MansteinsGambitIsListedAndRoundTrips) {
  auto s = fresh();
  set(*s, "vp 30");
  set(*s, "turn 18");
  set(*s, "phase german-admin");
  act(*s, "mansteins-gambit");
  EXPECT_EQ(s->observation(bd::kSoviet)["mansteins_gambit"], true);
  EXPECT_EQ(q(*s, "unit XIVPz where"), "trrt");
  EXPECT_EQ(q(*s, "unit 76Pz where"), "trrt");
}

class BdConformance : public ::testing::TestWithParam<std::string> {};

TEST_P(BdConformance, StateContractHolds) {
  auto rep = steppe::run_conformance(game(), GetParam(), 2, 7, 300);
  EXPECT_TRUE(rep.ok()) << rep.summary();
  EXPECT_GT(rep.actions, 0);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, BdConformance,
                         ::testing::Values("empty", "grand-campaign", "road-back", "blue-kremlin", "citadel",
                                           "mansteins-gambit", "what-if-1942"));

TEST(BdRulebook, EveryScenarioTestFilePasses) {
  const std::filesystem::path dir =
      std::filesystem::path(STEPPE_DEFAULT_DATA_DIR).parent_path() / "tests/rulebook/bd";
  steppe::ScenarioEnv env;
  env.games = [](const std::string& id) -> steppe::Result<const steppe::Game*> {
    if (id != "bd") return steppe::Error{"only bd here", "", ""};
    return static_cast<const steppe::Game*>(&game());
  };
  // `play random`: a seeded uniform choice among the legal actions (the set-up tests of 3.7
  // and 15.3 let it place the units; what they assert holds for any choice).
  env.agents = steppe::uniform_random_chooser();
  auto sum = steppe::run_scenario_paths({dir}, env);
  EXPECT_GT(sum.passed, 15);
  for (const auto& r : sum.results)
    EXPECT_TRUE(r.passed) << r.file << ": " << (r.failure ? r.failure->to_string() : std::string("failed"));
}

}  // namespace

// The move-generation memo (BdState::set_move_memo_enabled) must give exactly the moves of
// a fresh search, in the same order. Random games of every scenario are played twice, with
// the memo and without, and every legal-action list is compared (by a hash of its actions); a second pass
// plays two games by turns on one thread (as a search's clones do), so that the memo serves states that
// differ.
TEST(MoveMemo, GivesTheMovesOfAFreshSearch) {
  auto lists = [](const std::vector<std::pair<std::string, uint64_t>>& games, bool memo) {
    bd::BdState::set_move_memo_enabled(memo);
    std::vector<std::unique_ptr<bd::BdState>> states;
    std::vector<uint64_t> rng;
    for (const auto& [scenario, seed] : games) {
      states.push_back(fresh(scenario, seed));
      rng.push_back(seed);
    }
    // One hash per legal-action list (the actions' own hashes, in order): cheap enough to
    // run under the sanitizers; a mismatch names the decision.
    std::vector<std::vector<uint64_t>> out(games.size());
    std::vector<steppe::Action> acts;
    for (int step = 0; step < 1000; ++step)
      for (size_t g = 0; g < states.size(); ++g) {
        auto& s = *states[g];
        if (s.is_terminal()) continue;
        s.legal_actions(acts);
        uint64_t h = acts.size();
        for (const auto& a : acts) h = steppe::splitmix64(h ^ a.hash());
        out[g].push_back(h);
        rng[g] = steppe::splitmix64(rng[g]);
        EXPECT_TRUE(s.apply(acts[rng[g] % acts.size()]).is_ok());
      }
    bd::BdState::set_move_memo_enabled(true);
    return out;
  };
  for (const char* scenario :
       {"grand-campaign", "road-back", "blue-kremlin", "citadel", "mansteins-gambit", "what-if-1942"})
    for (uint64_t seed : {1}) {
      const auto with = lists({{scenario, seed}}, true);
      const auto without = lists({{scenario, seed}}, false);
      ASSERT_EQ(with[0].size(), without[0].size()) << scenario << " " << seed;
      for (size_t i = 0; i < with[0].size(); ++i)
        ASSERT_EQ(with[0][i], without[0][i]) << scenario << " seed " << seed << " decision " << i;
    }
  const auto by_turns = lists({{"grand-campaign", 5}, {"citadel", 6}}, true);
  const auto alone_a = lists({{"grand-campaign", 5}}, false);
  const auto alone_b = lists({{"citadel", 6}}, false);
  EXPECT_EQ(by_turns[0], alone_a[0]);
  EXPECT_EQ(by_turns[1], alone_b[0]);
}

// ======================================================================= 11.7 fog of war

namespace {

// Every event of the actions it watches, with the sides that may read it.
struct EventsSeen final : steppe::EventSink {
  std::vector<steppe::Event> events;
  void emit(steppe::Event e) override { events.push_back(std::move(e)); }
  // The texts `side` is sent, one a line.
  std::string text_for(int side) const {
    std::string out;
    for (const auto& e : events)
      if ((e.visible_to >> side) & 1u) out += e.text + "\n";
    return out;
  }
};

// Applies `text` (which must be legal) with `seen` collecting its events.
void act_seen(bd::BdState& s, EventsSeen& seen, const std::string& text) {
  s.set_event_sink(&seen);
  act(s, text);
  s.set_event_sink(nullptr);
}

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> w;
  std::istringstream in(text);
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

}  // namespace

// 8.10, 8.11, 11.7 (ruling BD-FOG2): a unit out of the RVGK under another is named to the
// Soviet only; the German is told that a Soviet unit came out of the RVGK there. One that
// lands on top of its stack is seen by both.
TEST(BdFog, RvgkArrivalsNameNoUnitTheGermanMayNotSee) {
  auto s = fresh();
  for (const char* w : {"blank-map", "turn 14", "phase soviet-rvgk", "place soviet 16A 1500",
                        "control 1500 soviet", "control 1600 soviet", "rvgk 50A", "rvgk 19A"})
    set(*s, w);
  EventsSeen seen;
  act_seen(*s, seen, "rvgk-out 50A 1500");
  EXPECT_NE(seen.text_for(bd::kSoviet).find("50A comes out of the RVGK at 1500"), std::string::npos);
  EXPECT_EQ(seen.text_for(bd::kGerman).find("50A"), std::string::npos) << seen.text_for(bd::kGerman);
  EXPECT_NE(seen.text_for(bd::kGerman).find("a Soviet unit comes out of the RVGK at 1500"),
            std::string::npos);
  EventsSeen top;
  act_seen(*s, top, "rvgk-out 19A 1600");  // alone in its hex: the top unit, seen anyway
  EXPECT_NE(top.text_for(bd::kGerman).find("19A comes out of the RVGK at 1600"), std::string::npos);
}

TEST(BdFog, EmergencyRvgkDeploymentNamesNoHiddenUnit) {  // 8.11, 11.7
  auto s = fresh();
  for (const char* w :
       {"blank-map", "turn 5", "city 1606 Moscow", "control 1606 soviet", "place soviet 16A 1606",
        "place soviet 33A 2000 cf 3", "rvgk 33A", "phase german-order"})
    set(*s, w);
  act(*s, "order move-fight");
  ASSERT_EQ(q(*s, "pending"), "emergency-rvgk");
  EventsSeen seen;
  act_seen(*s, seen, "emergency-rvgk 33A 1606");
  EXPECT_NE(seen.text_for(bd::kSoviet).find("emergency RVGK deployment: 33A at 1606"), std::string::npos);
  EXPECT_EQ(seen.text_for(bd::kGerman).find("33A"), std::string::npos) << seen.text_for(bd::kGerman);
  EXPECT_NE(seen.text_for(bd::kGerman).find("emergency RVGK deployment: a Soviet unit at 1606"),
            std::string::npos);
}

// 8.20, 11.7 (ruling BD-FOG3): a rifle army under 4T becomes 2G: the German hears of a
// conversion in the hex, not of the armies (the replaced one then shows in the dead pile).
TEST(BdFog, ConversionUnderTheTopUnitNamesNeitherArmy) {
  auto s = fresh();
  for (const char* w : {"blank-map", "turn 16", "phase soviet-admin", "place soviet 4T 1810",
                        "place soviet 46A 1810", "supply 46A overland", "trrt 2G 16"})
    set(*s, w);
  EventsSeen seen;
  act_seen(*s, seen, "convert 2G 46A");
  EXPECT_NE(seen.text_for(bd::kSoviet).find("46A in 1810 becomes 2G"), std::string::npos);
  const std::string german = seen.text_for(bd::kGerman);
  EXPECT_EQ(german.find("46A"), std::string::npos) << german;
  EXPECT_EQ(german.find("2G"), std::string::npos) << german;
  EXPECT_NE(german.find("a Soviet army in 1810 becomes a Guards or Shock army"), std::string::npos) << german;
}

// 11.1 before 8.32: the German naming a Soviet CM group as an attacker is told it is not his
// unit, not which army the CM group is attached to (11.7).
TEST(BdFog, RefusalOfAnEnemyAttackerNamesNoHiddenParent) {
  auto s = fresh();
  for (const char* w :
       {"blank-map", "turn 25", "place german 3Pz 1012", "place soviet 4T 1011", "place soviet 11G 1010",
        "place soviet CMB 1010 type cm-group class mech cf 0 shifts 1", "attach CMB 11G",
        "place soviet 2G 1010", "phase german-assault"})
    set(*s, w);
  auto a = s->parse_action("attack 1011 with CMB");
  ASSERT_TRUE(a.is_ok()) << a.error().to_string();
  const auto st = s->check(*a);
  ASSERT_FALSE(st.is_ok());
  EXPECT_EQ(st.error().to_string().find("11G"), std::string::npos) << st.error().to_string();
}

// 11.7, 11.8 (ruling BD-FOG1): a Soviet prepared assault is announced to the German by its
// hexes; the attackers beneath the top unit are shown to him when the odds are computed.
TEST(BdFog, SovietAttackersAreShownToTheGermanOnlyAtTheOdds) {
  auto s = fresh();
  for (const char* w :
       {"blank-map", "turn 14", "place german 3Pz 2403", "place soviet 16A 2404", "place soviet 26A 2404",
        "place soviet 12A 2404", "luftwaffe 0", "phase soviet-assault"})
    set(*s, w);
  EventsSeen seen;
  s->set_event_sink(&seen);
  auto a = s->parse_action("attack 2403 from 2404");
  ASSERT_TRUE(a.is_ok()) << a.error().to_string();
  ASSERT_TRUE(s->apply(*a).is_ok()) << s->check(*a).error().to_string();
  s->set_event_sink(nullptr);
  const std::string german = seen.text_for(bd::kGerman);
  EXPECT_NE(seen.text_for(bd::kSoviet).find("prepared assault on 2403 with 16A 26A 12A"), std::string::npos)
      << seen.text_for(bd::kSoviet);
  EXPECT_NE(german.find("Soviet prepared assault on 2403 from 2404"), std::string::npos) << german;
  // Declared, then resolved at once (no Luftwaffe, no support): the reveal comes with the odds.
  const size_t reveal = german.find("attackers on 2403: 16A 26A 12A");
  EXPECT_NE(reveal, std::string::npos) << german;
  EXPECT_EQ(german.substr(0, reveal).find("26A"), std::string::npos) << german;
}

TEST(BdFog, RvgkCountIsTheSovietsAlone) {  // 11.7 (ruling BD-FOG2): the box may be covered
  auto s = fresh();
  set(*s, "rvgk 50A");
  EXPECT_FALSE(s->observation(bd::kGerman)["boxes"]["soviet"].contains("rvgk_count"));
  EXPECT_EQ(s->observation(bd::kSoviet)["boxes"]["soviet"]["rvgk_count"], 1);
}

// 11.7 (ruling BD-FOG3): the German may ask for previews only about what he may see: a
// stack he sees only the top of, a unit beneath it, in the RVGK or on the TRT are refused
// alike; a lone unit (the top one) is answered.
TEST(BdFog, QueriesAboutHiddenUnitsAreRefusedAlike) {
  auto s = fresh();
  for (const char* w :
       {"blank-map", "turn 14", "place german 3Pz 2403", "place german 4Pz 2402", "place soviet 16A 2404",
        "place soviet 26A 2404", "place soviet 12A 2302", "rvgk 50A", "trrt 2G 16", "phase german-assault"})
    set(*s, w);
  auto refused = [&](const std::string& text) {
    const auto st = s->query_allowed(bd::kGerman, words(text));
    return st.is_ok() ? std::string("allowed") : st.error().rule;
  };
  EXPECT_EQ(refused("odds attack 2404 from 2403"), "11.7");
  EXPECT_EQ(refused("combat attack 2302 from 2402"), "allowed");
  EXPECT_EQ(refused("reach 16A"), "allowed");
  EXPECT_EQ(refused("reach 3Pz"), "allowed");
  const auto under = s->query_allowed(bd::kGerman, words("reach 26A"));
  const auto rvgk = s->query_allowed(bd::kGerman, words("reach 50A"));
  const auto trrt = s->query_allowed(bd::kGerman, words("reach 2G"));
  ASSERT_FALSE(under.is_ok());
  ASSERT_FALSE(rvgk.is_ok());
  ASSERT_FALSE(trrt.is_ok());
  // One indistinguishable answer: only the label differs.
  auto without = [](std::string t, const std::string& label) {
    return t.replace(t.find(label), label.size(), "X");
  };
  EXPECT_EQ(without(under.error().to_string(), "26A"), without(rvgk.error().to_string(), "50A"));
  EXPECT_EQ(without(under.error().to_string(), "26A"), without(trrt.error().to_string(), "2G"));
  // The Soviet sees German stacks whole (11.7) and his own units.
  EXPECT_TRUE(s->query_allowed(bd::kSoviet, words("odds attack 2403 from 2404")).is_ok());
  EXPECT_TRUE(s->query_allowed(bd::kSoviet, words("reach 50A")).is_ok());
}
