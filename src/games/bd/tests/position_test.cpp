// The BD position format (position.cpp, kernel/position.h; issue 29): every state of random
// games of every scenario reads back exactly, a game continued from a position plays on
// identically, and a bad position is refused with an error naming the field.
#include "kernel/position.h"

#include <functional>

#include "games/bd/tests/bd_test_support.h"

namespace {

using bd_test::game;
using steppe::Json;

void round_trip_every_action(const std::string& scenario, uint64_t seed, int max_actions) {
  auto st = game().new_state(scenario, seed);
  ASSERT_TRUE(st);
  steppe::State& s = **st;
  steppe::Dice rng(seed * 7919 + 1);
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
    if (i == 40) continued = std::move(back).value();
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
  EXPECT_GT(checked, 40);
}

TEST(BdPosition, EveryActionOfARandomGrandCampaignReadsBack) {
  round_trip_every_action("grand-campaign+forgiveness-points+kiev-vp", 3, 500);
}
TEST(BdPosition, EveryActionOfRandomGamesOfEachScenarioReadsBack) {
  for (const char* sc : {"blue-kremlin", "citadel", "mansteins-gambit", "road-back", "what-if-1942"})
    round_trip_every_action(sc, 5, 250);
}

TEST(BdPosition, IsReadableByName) {
  auto s = bd_test::fresh("grand-campaign", 1);
  auto doc = steppe::position_document(*s);
  ASSERT_TRUE(doc);
  const Json& st = (*doc)["state"];
  EXPECT_EQ(st["scenario"], "grand-campaign");
  EXPECT_TRUE(st["phase"].is_string());
  ASSERT_FALSE(st["units"].empty());
  const auto first = st["units"].begin();  // an iterator: key() and value() stay valid
  const Json& u = first.value();
  EXPECT_FALSE(first.key().empty());
  EXPECT_TRUE(u["where"].is_string());
  EXPECT_TRUE(u["label"].is_string());
}

TEST(BdPosition, BadFieldsAreRefusedNamingTheField) {
  auto s = bd_test::fresh("grand-campaign", 1);
  const Json good = *steppe::position_document(*s);
  const std::string first = good["state"]["units"].begin().key();
  struct Case {
    std::string name;
    std::function<void(Json&)> spoil;
    std::string where;
  };
  const std::vector<Case> cases = {
      {"turn", [](Json& j) { j["state"]["turn"] = -4; }, "/state/turn"},
      {"phase", [](Json& j) { j["state"]["phase"] = "tea"; }, "/state/phase"},
      {"unit hex", [&](Json& j) { j["state"]["units"][first]["hex"] = "9999"; },
       "/state/units/" + first + "/hex"},
      {"unit where", [&](Json& j) { j["state"]["units"][first]["where"] = "moon"; },
       "/state/units/" + first + "/where"},
      {"unit flag", [&](Json& j) { j["state"]["units"][first]["flags"] = {"sleepy"}; },
       "/state/units/" + first + "/flags/0"},
      {"unknown unit",
       [](Json& j) { j["state"]["units"]["99th Imaginary"] = j["state"]["units"].begin().value(); },
       "/state/units/99th Imaginary"},
      {"control", [](Json& j) { j["state"]["hexes"]["control"] = "GS"; }, "/state/hexes/control"},
      {"rules field", [](Json& j) { j["state"]["rules"].erase("watch"); }, "/state/rules/watch"},
      {"scenario", [](Json& j) { j["state"]["scenario"] = "kursk"; }, "/state/scenario"},
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

// Flags that live longer than a phase (12.7 stand-fast, 8.1 edge entry) were once not named
// in positions and were lost on reading one back.
TEST(BdPosition, TurnLongUnitFlagsReadBack) {
  auto s = bd_test::fresh("empty", 1);
  // 1724 is a German board-edge hex of the printed map (7.3); the panzer corps enters there.
  for (const char* w : {"turn 15", "phase german-admin", "trrt 40Pz 15", "control 1724 german"})
    bd_test::set(*s, w);
  auto enter = s->parse_action("enter 40Pz 1724");
  ASSERT_TRUE(enter) << enter.error().to_string();
  ASSERT_TRUE(s->apply(*enter).is_ok());
  bd_test::set(*s, "phase german-phase-b");
  const std::string mp = bd_test::q(*s, "unit 40Pz mp");
  ASSERT_LT(std::stoi(mp), std::stoi(bd_test::q(*s, "unit 40Pz mf")));  // 8.1: the entry hex is paid
  auto doc = steppe::position_document(*s);
  ASSERT_TRUE(doc) << doc.error().to_string();
  auto back = steppe::state_from_position_document(game(), Json::parse(doc->dump()));
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ((*back)->state_hash(), s->state_hash());
  auto mp_back = (*back)->test_query({"unit", "40Pz", "mp"});
  ASSERT_TRUE(mp_back);
  EXPECT_EQ(*mp_back, mp);
}
