// The position format (position.cpp, kernel/position.h; issue 29): every state of random
// games reads back exactly, a game continued from a position plays on identically, and a
// bad position is refused with an error naming the field.
#include "kernel/position.h"

#include <gtest/gtest.h>

#include <functional>

#include "games/moscow41/tests/common.h"

namespace moscow41 {
namespace {

std::unique_ptr<steppe::State> load(const Json& doc) {
  auto s = steppe::state_from_position_document(test::game(), doc);
  EXPECT_TRUE(s) << (s ? "" : s.error().to_string());
  return s ? std::move(s).value() : nullptr;
}

// A random game of `scenario`: after every action the position, as text, reads back to the
// same state; the state loaded after 25 actions plays the rest of the game to the same end.
void round_trip_every_action(const std::string& scenario, uint64_t seed, int max_actions) {
  auto st = test::game().new_state(scenario, seed);
  ASSERT_TRUE(st);
  steppe::State& s = **st;
  steppe::Dice rng(seed * 7919);
  std::vector<steppe::Action> acts;
  std::unique_ptr<steppe::State> continued;
  int checked = 0;
  for (int i = 0; i < max_actions && !s.is_terminal(); ++i) {
    auto doc = steppe::position_document(s);
    ASSERT_TRUE(doc);
    const Json text_round = Json::parse(doc->dump());
    auto back = load(text_round);
    ASSERT_TRUE(back) << scenario << " after " << i << " actions";
    ASSERT_EQ(back->state_hash(), s.state_hash()) << scenario << " after " << i << " actions";
    ASSERT_EQ(back->full_json(), s.full_json()) << scenario << " after " << i << " actions";
    ++checked;
    if (i == 25) continued = std::move(back);  // early: most random games are short
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
  EXPECT_GT(checked, 50);
}

TEST(Moscow41Position, EveryActionOfRandomGamesReadsBackCampaign) {
  round_trip_every_action("campaign", 3, 900);
}
TEST(Moscow41Position, EveryActionOfRandomGamesReadsBackTyphoonWithOptions) {
  round_trip_every_action("typhoon+blizzard+rail-movement+zhukov-hoepner", 5, 700);
}
TEST(Moscow41Position, EveryActionOfRandomGamesReadsBackLastGasp) {
  round_trip_every_action("last-gasp", 8, 700);
}
TEST(Moscow41Position, EveryActionOfRandomGamesReadsBackDnieper) {
  round_trip_every_action("beyond-the-dnieper+operation-crusader", 2, 700);
}

TEST(Moscow41Position, IsReadableByName) {
  auto s = test::start("campaign", 1);
  auto doc = steppe::position_document(*s);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["format"], "steppe-position");
  EXPECT_EQ((*doc)["game"], "moscow41");
  EXPECT_EQ((*doc)["turn"], 1);
  const Json& st = (*doc)["state"];
  EXPECT_EQ(st["scenario"], "campaign");
  EXPECT_TRUE(st["phase"].is_string());
  EXPECT_TRUE(st["weather"].is_string());
  // Blocks by roster id, places by map id.
  const std::string first = test::game().blocks()[0].id;
  ASSERT_TRUE(st["blocks"].contains(first));
  EXPECT_TRUE(st["blocks"][first]["at"].is_string());
  EXPECT_TRUE(st["areas"].contains(test::game().map().id(0)));
}

// Each bad position is refused, naming the field; nothing is loaded.
TEST(Moscow41Position, BadFieldsAreRefusedNamingTheField) {
  auto s = test::start("campaign", 1);
  const Json good = *steppe::position_document(*s);
  const std::string first = test::game().blocks()[0].id;
  struct Case {
    std::string name;
    std::function<void(Json&)> spoil;
    std::string where;  // expected in Error::where
  };
  const std::vector<Case> cases = {
      {"turn as text", [](Json& j) { j["state"]["turn"] = "three"; }, "/state/turn"},
      {"turn out of range", [](Json& j) { j["state"]["turn"] = 0; }, "/state/turn"},
      {"unknown phase", [](Json& j) { j["state"]["phase"] = "lunch"; }, "/state/phase"},
      {"unknown block",
       [](Json& j) { j["state"]["blocks"]["No Such Army"] = j["state"]["blocks"].begin().value(); },
       "/state/blocks/No Such Army"},
      {"block missing", [&](Json& j) { j["state"]["blocks"].erase(first); }, "/state/blocks/" + first},
      {"level too low", [&](Json& j) { j["state"]["blocks"][first]["level"] = 42; },
       "/state/blocks/" + first + "/level"},
      {"block in no area", [&](Json& j) { j["state"]["blocks"][first]["at"] = "Atlantis"; },
       "/state/blocks/" + first + "/at"},
      {"bad side", [](Json& j) { j["state"]["active"] = "italian"; }, "/state/active"},
      {"dice", [](Json& j) { j["state"]["dice"]["counter"] = -1; }, "/state/dice/counter"},
      {"unknown scenario", [](Json& j) { j["state"]["scenario"] = "kursk"; }, "/state/scenario"},
      {"other game", [](Json& j) { j["game"] = "bd"; }, "/game"},
      {"future format", [](Json& j) { j["format_version"] = 2; }, "/format_version"},
      {"not a position", [](Json& j) { j["format"] = "steppe-save"; }, "/format"},
  };
  for (const auto& c : cases) {
    Json bad = good;
    c.spoil(bad);
    auto r = steppe::state_from_position_document(test::game(), bad, "pos.json");
    ASSERT_FALSE(r) << c.name;
    EXPECT_NE(r.error().where.find(c.where), std::string::npos)
        << c.name << ": " << r.error().to_string() << " (expected " << c.where << ")";
    EXPECT_EQ(r.error().where.rfind("pos.json", 0), 0U) << c.name << ": " << r.error().to_string();
  }
}

}  // namespace
}  // namespace moscow41
