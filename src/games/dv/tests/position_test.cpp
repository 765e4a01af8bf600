// The Dark Valley position format (position.cpp, kernel/position.h; issue 29): every state of
// random games of every scenario reads back exactly, a game continued from a position plays
// on identically, and a bad position is refused with an error naming the field.
#include "kernel/position.h"

#include <gtest/gtest.h>

#include <functional>

#include "games/dv/dv.h"
#include "kernel/notation.h"

namespace dv {
namespace {

const steppe::Game& game() {
  static std::unique_ptr<steppe::Game> g = [] {
    auto r = load_game(STEPPE_DEFAULT_DATA_DIR);
    if (!r) {
      ADD_FAILURE() << r.error().to_string();
      std::abort();
    }
    return std::move(r).value();
  }();
  return *g;
}

// A random game of `scenario`: after every action the position, as text, reads back to the
// same state; the state loaded after 25 actions plays the rest of the game to the same end.
void round_trip_every_action(const std::string& scenario, uint64_t seed, int max_actions) {
  auto st = game().new_state(scenario, seed);
  ASSERT_TRUE(st) << st.error().to_string();
  steppe::State& s = **st;
  steppe::Dice rng(seed * 7919);
  std::vector<steppe::Action> acts;
  std::unique_ptr<steppe::State> continued;
  int checked = 0;
  for (int i = 0; i < max_actions && !s.is_terminal(); ++i) {
    auto doc = steppe::position_document(s);
    ASSERT_TRUE(doc) << doc.error().to_string();
    auto back = steppe::state_from_position_document(game(), Json::parse(doc->dump()));
    ASSERT_TRUE(back) << scenario << " after " << i << " actions: " << back.error().to_string();
    ASSERT_EQ((*back)->state_hash(), s.state_hash()) << scenario << " after " << i << " actions";
    ASSERT_EQ((*back)->full_json(), s.full_json()) << scenario << " after " << i << " actions";
    ++checked;
    if (i == 25) continued = std::move(back).value();
    s.legal_actions(acts);
    ASSERT_FALSE(acts.empty());
    const steppe::Action a = acts[static_cast<size_t>(rng.below(static_cast<int>(acts.size())))];
    ASSERT_TRUE(s.apply(a).is_ok());
    if (continued) {
      ASSERT_TRUE(continued->apply(a).is_ok()) << s.action_to_string(a);
    }
  }
  ASSERT_TRUE(continued != nullptr);
  EXPECT_EQ(continued->state_hash(), s.state_hash()) << "the game continued from a position diverged";
  EXPECT_EQ(continued->full_json(), s.full_json());
  EXPECT_GT(checked, 50);
}

TEST(DvPosition, EveryActionOfRandomGamesReadsBackCampaign) { round_trip_every_action("campaign", 3, 600); }
TEST(DvPosition, EveryActionOfRandomGamesReadsBackBarbarossa) {
  round_trip_every_action("barbarossa", 4, 500);
}
TEST(DvPosition, EveryActionOfRandomGamesReadsBackFallBlau) { round_trip_every_action("fall-blau", 5, 500); }
TEST(DvPosition, EveryActionOfRandomGamesReadsBackZitadelle) { round_trip_every_action("zitadelle", 6, 500); }
TEST(DvPosition, EveryActionOfRandomGamesReadsBackBagration) { round_trip_every_action("bagration", 7, 500); }

// 12.3c/12.5: a combat waiting for the owner's choice of loss, then of retreat, reads back
// with its pending results, and the game continued from it makes the same choices.
TEST(DvPosition, PendingLossAndRetreatReadBack) {
  auto st = game().new_state("empty", 1);
  ASSERT_TRUE(st);
  auto& s = dynamic_cast<DvState&>(**st);
  for (const char* w : {"place 8A 5631 reduced", "place RD1 5631", "place GI 5630", "place GII 5730",
                        "place GX 5731", "round combat axis"})
    ASSERT_TRUE(s.test_set(steppe::split_words(w)).is_ok()) << w;
  s.dice().force(4);  // 3-1, roll 4: DR*
  for (const char* a : {"attack 5631", "add GI", "add GII", "add GX", "resolve"}) {
    auto act = s.parse_action(a);
    ASSERT_TRUE(act && s.apply(*act).is_ok()) << a;
  }
  const auto round_trip = [&](Stage want) {
    ASSERT_EQ(s.stage(), want);
    auto doc = steppe::position_document(s);
    ASSERT_TRUE(doc);
    EXPECT_FALSE((*doc)["state"]["pending_results"].empty());
    auto back = steppe::state_from_position_document(game(), Json::parse(doc->dump()));
    ASSERT_TRUE(back) << back.error().to_string();
    EXPECT_EQ((*back)->state_hash(), s.state_hash());
    EXPECT_EQ((*back)->full_json(), s.full_json());
    EXPECT_EQ((*back)->current_player(), kSoviet);
    std::vector<steppe::Action> mine, theirs;
    s.legal_actions(mine);
    (*back)->legal_actions(theirs);
    EXPECT_EQ(mine, theirs);
  };
  round_trip(Stage::kLoss);  // DR*: which of the two one-step units is eliminated
  ASSERT_TRUE(s.apply(*s.parse_action("lose RD1")).is_ok());
  round_trip(Stage::kRetreat);
}

TEST(DvPosition, IsReadableByName) {
  auto s = game().new_state("campaign", 1);
  ASSERT_TRUE(s);
  auto doc = steppe::position_document(**s);
  ASSERT_TRUE(doc) << doc.error().to_string();
  EXPECT_EQ((*doc)["game"], "dv");
  EXPECT_EQ((*doc)["turn"], 1);
  const Json& st = (*doc)["state"];
  EXPECT_EQ(st["scenario"], "campaign");
  // 4.0 II, 8.2: Turn 1 opens with the Axis Air Base Segment (9.3's Naval Transport and
  // 10.2's Combat round come after it); the five German air units start based (DV-A2).
  EXPECT_EQ(st["stage"], "air-base");
  EXPECT_EQ(st["active"], "axis");
  EXPECT_EQ(st["reinforcement_step"], 4);
  EXPECT_EQ(st["air"]["units"]["de-air-viii"]["base"], "2825");
  EXPECT_EQ(st["air"]["units"]["de-air-viii"]["done"], false);
  EXPECT_EQ(st["rail_steps_left"], 0);
  const auto& dv = dynamic_cast<const DvGame&>(game());
  const std::string first = dv.units()[0].id;
  ASSERT_TRUE(st["units"].contains(first));
  EXPECT_TRUE(st["units"][first]["box"].is_string());
  EXPECT_TRUE(st["control"]["axis"].is_array());
}

// Each bad position is refused, naming the field; nothing is loaded.
TEST(DvPosition, BadFieldsAreRefusedNamingTheField) {
  auto s = game().new_state("campaign", 1);
  ASSERT_TRUE(s);
  const Json good = *steppe::position_document(**s);
  const auto& dv = dynamic_cast<const DvGame&>(game());
  const std::string first = dv.units()[0].id;
  struct Case {
    std::string name;
    std::function<void(Json&)> spoil;
    std::string where;
  };
  const std::vector<Case> cases = {
      {"turn as text", [](Json& j) { j["state"]["turn"] = "three"; }, "/state/turn"},
      {"turn out of range", [](Json& j) { j["state"]["turn"] = 45; }, "/state/turn"},
      {"unknown stage", [](Json& j) { j["state"]["stage"] = "lunch"; }, "/state/stage"},
      {"unknown chit", [](Json& j) { j["state"]["chit"] = "tea"; }, "/state/chit"},
      {"chit without owner", [](Json& j) { j["state"]["cup"]["contents"][0] = "move"; },
       "/state/cup/contents/0"},
      {"cup counter", [](Json& j) { j["state"]["cup"]["counter"] = -3; }, "/state/cup/counter"},
      {"unknown unit",
       [](Json& j) { j["state"]["units"]["No Such Army"] = j["state"]["units"].begin().value(); },
       "/state/units/No Such Army"},
      {"unit missing", [&](Json& j) { j["state"]["units"].erase(first); }, "/state/units/" + first},
      {"too many steps", [&](Json& j) { j["state"]["units"][first]["steps"] = 9; },
       "/state/units/" + first + "/steps"},
      {"unknown box", [&](Json& j) { j["state"]["units"][first]["box"] = "attic"; },
       "/state/units/" + first + "/box"},
      {"hex off the map", [](Json& j) { j["state"]["control"]["axis"][0] = "9999"; },
       "/state/control/axis/0"},
      {"bad side", [](Json& j) { j["state"]["active"] = "finnish"; }, "/state/active"},
      {"replacement kind", [](Json& j) { j["state"]["axis_replacements"]["zeppelin"] = 1; },
       "/state/axis_replacements/zeppelin"},
      {"dice", [](Json& j) { j["state"]["dice"]["counter"] = -1; }, "/state/dice/counter"},
      {"unknown scenario", [](Json& j) { j["state"]["scenario"] = "kursk"; }, "/state/scenario"},
      {"other game", [](Json& j) { j["game"] = "bd"; }, "/game"},
  };
  for (const auto& c : cases) {
    Json bad = good;
    c.spoil(bad);
    auto r = steppe::state_from_position_document(game(), bad, "pos.json");
    ASSERT_FALSE(r) << c.name;
    EXPECT_NE(r.error().where.find(c.where), std::string::npos)
        << c.name << ": " << r.error().to_string() << " (expected " << c.where << ")";
  }
}

}  // namespace
}  // namespace dv
