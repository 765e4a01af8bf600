// The AGC position format (position.cpp, kernel/position.h; issue 29): every state of random
// games of each scenario reads back exactly (the same state hash, the same position, the same
// legal actions), a game continued from a position plays on identically, and a bad position
// is refused with an error naming the field.
#include "kernel/position.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include "games/agc/agc.h"

namespace agc {
namespace {

using steppe::State;

const steppe::Game& game() {
  static auto g = load_game(STEPPE_DEFAULT_DATA_DIR);
  if (!g.is_ok()) ADD_FAILURE() << g.error().to_string();
  return *g.value();
}

Json position_of(const State& s) {
  auto doc = steppe::position_document(s);
  EXPECT_TRUE(doc) << (doc ? "" : doc.error().to_string());
  return doc ? *doc : Json();
}

// A random game of `scenario` whose policy ends a phase one time in eight: after every action
// the position, as text, reads back to the same state; the state loaded after `continue_at`
// actions plays on to the same end.
void round_trip_every_action(const std::string& scenario, uint64_t seed, int max_actions, int continue_at) {
  auto st = game().new_state(scenario, seed);
  ASSERT_TRUE(st);
  State& s = **st;
  uint64_t x = seed;
  std::vector<steppe::Action> acts, acts_back;
  std::unique_ptr<State> continued;
  int checked = 0, attacks = 0;
  for (int i = 0; i < max_actions && !s.is_terminal(); ++i) {
    const std::string w = scenario + " after " + std::to_string(i) + " actions";
    const Json doc = position_of(s);
    auto back = steppe::state_from_position_document(game(), Json::parse(doc.dump()));
    ASSERT_TRUE(back) << w << ": " << back.error().to_string();
    ASSERT_EQ((*back)->state_hash(), s.state_hash()) << w;
    ASSERT_EQ((*back)->full_json(), s.full_json()) << w;
    ASSERT_EQ(position_of(**back), doc) << w;
    s.legal_actions(acts);
    (*back)->legal_actions(acts_back);
    ASSERT_EQ(acts_back, acts) << w;
    ++checked;
    if (i == continue_at) continued = std::move(back).value();
    ASSERT_FALSE(acts.empty());
    x = steppe::splitmix64(x);
    const steppe::Action a = (x % 8 == 0) ? acts.back() : acts[(x >> 8) % acts.size()];
    attacks += a.verb == kAttack ? 1 : 0;
    ASSERT_TRUE(s.apply(a).is_ok()) << w << ": " << s.action_to_string(a);
    if (continued) {
      ASSERT_TRUE(continued->apply(a).is_ok()) << w << ": " << s.action_to_string(a);
    }
  }
  ASSERT_TRUE(continued != nullptr);
  EXPECT_EQ(continued->state_hash(), s.state_hash()) << "the game continued from a position diverged";
  EXPECT_EQ(position_of(*continued), position_of(s)) << "the game continued from a position diverged";
  EXPECT_GT(checked, 2 * continue_at) << "the game was short: " << checked << " actions";
  EXPECT_GT(attacks, 0) << "no attack, so no combat state was read back";
}

TEST(AgcPosition, EveryActionOfARandomGameReadsBackBialystokMinsk) {
  round_trip_every_action("bialystok-minsk", 11, 3000, 40);
}
TEST(AgcPosition, EveryActionOfARandomGameReadsBackCampaign) {
  round_trip_every_action("campaign", 4, 600, 100);
}

TEST(AgcPosition, IsReadableByName) {
  auto s = game().new_state("bialystok-minsk", 1);
  ASSERT_TRUE(s);
  const Json doc = position_of(**s);
  EXPECT_EQ(doc["format"], "steppe-position");
  EXPECT_EQ(doc["game"], "agc");
  const Json& st = doc["state"];
  EXPECT_EQ(st["scenario"], "bialystok-minsk");
  EXPECT_EQ(st["phase"], "axis-movement");
  const auto& g = dynamic_cast<const AgcGame&>(game());
  ASSERT_TRUE(st["units"].contains(g.units_[0].id));
}

// Each bad position is refused, naming the field; nothing is loaded.
TEST(AgcPosition, BadFieldsAreRefusedNamingTheField) {
  auto s = game().new_state("bialystok-minsk", 1);
  ASSERT_TRUE(s);
  const Json good = position_of(**s);
  std::string on_map;  // a unit on the map
  for (const auto& [id, u] : good["state"]["units"].items())
    if (on_map.empty() && u["hex"].is_string()) on_map = id;
  ASSERT_FALSE(on_map.empty());
  const std::string u = "/state/units/" + on_map;
  struct Case {
    std::string name;
    std::function<void(Json&)> spoil;
    std::string where;  // expected in Error::where
  };
  const std::vector<Case> cases = {
      {"turn as text", [](Json& j) { j["state"]["turn"] = "three"; }, "/state/turn"},
      {"unknown phase", [](Json& j) { j["state"]["phase"] = "lunch"; }, "/state/phase"},
      {"unit hex", [&](Json& j) { j["state"]["units"][on_map]["hex"] = "9999"; }, u + "/hex"},
      {"eliminated on the map", [&](Json& j) { j["state"]["units"][on_map]["eliminated"] = true; },
       u + "/hex"},
      {"steps lost", [&](Json& j) { j["state"]["units"][on_map]["steps_lost"] = 9; }, u + "/steps_lost"},
      {"misspelt field", [&](Json& j) { j["state"]["units"][on_map]["steps"] = 1; }, u + "/steps"},
      {"unit missing", [&](Json& j) { j["state"]["units"].erase(on_map); }, u},
      {"unknown unit",
       [](Json& j) {
         j["state"]["units"]["99th Imaginary"] = {{"hex", nullptr}};
       },
       "/state/units/99th Imaginary"},
      {"control of no hex", [](Json& j) { j["state"]["control"]["moon"] = "axis"; }, "/state/control/moon"},
      {"control word",
       [&](Json& j) {
         j["state"]["control"][good["state"]["units"][on_map]["hex"].get<std::string>()] = "finnish";
       },
       "/state/control/"},
      {"attacked hex", [](Json& j) { j["state"]["attacked_hexes"] = {"x"}; }, "/state/attacked_hexes/0"},
      {"dice", [](Json& j) { j["state"]["dice"]["seed"] = "lucky"; }, "/state/dice/seed"},
      {"unknown scenario", [](Json& j) { j["state"]["scenario"] = "kursk"; }, "/state/scenario"},
      {"future format", [](Json& j) { j["format_version"] = 2; }, "/format_version"},
      // 7.0, 8.0, 22.2 (replacements.cpp)
      {"unknown step", [](Json& j) { j["state"]["replacements"]["step"] = "tea"; },
       "/state/replacements/step"},
      {"I track past its end", [](Json& j) { j["state"]["replacements"]["soviet_i"] = 99; },
       "/state/replacements/soviet_i"},
      {"Non-Op side of a unit that is no HQ", [&](Json& j) { j["state"]["units"][on_map]["non_op"] = true; },
       u + "/non_op"},
      {"withdrawn on the map", [&](Json& j) { j["state"]["units"][on_map]["withdrawn"] = true; }, u + "/hex"},
  };
  for (const auto& c : cases) {
    Json bad = good;
    c.spoil(bad);
    auto r = steppe::state_from_position_document(game(), bad, "pos.json");
    ASSERT_FALSE(r) << c.name;
    EXPECT_NE(r.error().where.find(c.where), std::string::npos)
        << c.name << ": " << r.error().to_string() << " (expected " << c.where << ")";
    EXPECT_EQ(r.error().where.rfind("pos.json", 0), 0U) << c.name << ": " << r.error().to_string();
  }
}

// A step of the Strategic Segment (4.2 A3, replacements.cpp) reads back with its tracks, its R
// event and the units' Non-Op, Activated and rebuilding marks, and offers the same choices.
TEST(AgcPosition, AStepOfTheStrategicSegmentReadsBack) {
  auto st = game().new_state("empty", 1);
  ASSERT_TRUE(st);
  auto& s = static_cast<AgcState&>(**st);
  for (const std::vector<std::string>& w :
       std::vector<std::vector<std::string>>{{"place", "su-27rd", "1034"},
                                             {"marker", "su-27rd", "oos"},
                                             {"place", "su-hq3", "1032"},
                                             {"nonop", "su-hq3", "yes"},
                                             {"rebuild", "su-56rd", "active"},
                                             {"rp", "soviet", "i", "7"},
                                             {"rp", "axis", "a", "3"},
                                             {"step", "soviet-replacements"},
                                             {"r-event", "yes"}})
    ASSERT_TRUE(s.test_set(w).is_ok());
  const Json doc = position_of(s);
  EXPECT_EQ(doc["state"]["replacements"]["step"], "soviet-replacements");
  auto back = steppe::state_from_position_document(game(), Json::parse(doc.dump()));
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ((*back)->state_hash(), s.state_hash());
  EXPECT_EQ(position_of(**back), doc);
  std::vector<steppe::Action> a, b;
  s.legal_actions(a);
  (*back)->legal_actions(b);
  EXPECT_EQ(a, b);
  bool supply = false;
  for (const auto& x : a) supply = supply || s.action_to_string(x) == "r-event supply 1034";
  EXPECT_TRUE(supply) << "the R event's supply choice is offered";
  EXPECT_EQ((*back)->current_player(), kSoviet);
}

}  // namespace
}  // namespace agc
