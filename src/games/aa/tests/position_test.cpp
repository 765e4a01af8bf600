// The position format of the Axis & Allies-style Barbarossa (position.cpp, kernel/position.h;
// issue 29): every state of random games of each scenario reads back exactly (the same state
// hash, the same position, the same legal actions), a game continued from a position plays
// on identically, and a bad position is refused with an error naming the field.
#include "kernel/position.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include "games/aa/aa.h"
#include "games/aa/state.h"

namespace steppe::aa {
namespace {

const Game& game() {
  static const std::unique_ptr<Game> g = [] {
    auto r = load_game(STEPPE_DEFAULT_DATA_DIR);
    if (!r) ADD_FAILURE() << r.error().to_string();
    return std::move(r.value());
  }();
  return *g;
}

Json position_of(const State& s) {
  auto doc = position_document(s);
  EXPECT_TRUE(doc) << (doc ? "" : doc.error().to_string());
  return doc ? *doc : Json();
}

// A random game of `scenario` whose policy ends its step a third of the time (so that it gets
// through turns, battles and raids): after every action the position, as text, reads back to
// the same state; the state loaded after `continue_at` actions plays on to the same end.
void round_trip_every_action(const std::string& scenario, uint64_t seed, int max_actions, int continue_at,
                             int* seen_decisions = nullptr) {
  auto st = game().new_state(scenario, seed);
  ASSERT_TRUE(st);
  State& s = **st;
  const Action end = *s.parse_action("end");
  uint64_t x = seed * 7919;
  std::vector<Action> acts, acts_back;
  std::unique_ptr<State> continued;
  int checked = 0, battles = 0, decisions = 0, raids = 0, last_turn = 0;
  for (int i = 0; i < max_actions && !s.is_terminal(); ++i) {
    const std::string w = scenario + " after " + std::to_string(i) + " actions";
    const Json doc = position_of(s);
    auto back = state_from_position_document(game(), Json::parse(doc.dump()));
    ASSERT_TRUE(back) << w << ": " << back.error().to_string();
    ASSERT_EQ((*back)->state_hash(), s.state_hash()) << w;
    ASSERT_EQ((*back)->full_json(), s.full_json()) << w;
    // The position covers what the state hash does not (raids, damage, casualty orders).
    ASSERT_EQ(position_of(**back), doc) << w;
    s.legal_actions(acts);
    (*back)->legal_actions(acts_back);
    ASSERT_EQ(acts_back, acts) << w;
    ++checked;
    const Json& p = doc["state"];
    battles += p["battles"].empty() ? 0 : 1;
    decisions += p["decision_zone"].is_null() ? 0 : 1;
    raids += p["raids"].empty() ? 0 : 1;
    last_turn = p["turn"].get<int>();
    if (i == continue_at) continued = std::move(back).value();
    ASSERT_FALSE(acts.empty());
    x = splitmix64(x);
    const Action a = x % 3 == 0 && s.check(end).is_ok() ? end : acts[(x >> 8) % acts.size()];
    ASSERT_TRUE(s.apply(a).is_ok()) << w << ": " << s.action_to_string(a);
    if (continued) {
      ASSERT_TRUE(continued->apply(a).is_ok()) << w << ": " << s.action_to_string(a);
    }
  }
  ASSERT_TRUE(continued != nullptr);
  EXPECT_EQ(continued->state_hash(), s.state_hash()) << "the game continued from a position diverged";
  EXPECT_EQ(position_of(*continued), position_of(s)) << "the game continued from a position diverged";
  EXPECT_GT(checked, continue_at);
  // What the positions read back included (a seed that stops reaching them fails here).
  EXPECT_TRUE(s.is_terminal()) << "the game did not reach its end (turn " << last_turn << ")";
  EXPECT_GT(battles, 0) << "no position in a combat step";
  EXPECT_GT(raids, 0) << "no position with a raid announced";
  if (seen_decisions != nullptr) *seen_decisions = decisions;
}

TEST(AaPosition, EveryActionOfARandomGameReadsBackBarbarossa) {
  round_trip_every_action("barbarossa", 3, 900, 60);
}
TEST(AaPosition, EveryActionOfARandomGameReadsBackBarbarossa18) {
  int decisions = 0;
  round_trip_every_action("barbarossa-18", 5, 900, 300, &decisions);
  EXPECT_GT(decisions, 0) << "no position with a defender's retreat decision (3.33)";
}

// 3.37: facility damage, which no random game above happened to do, reads back too.
TEST(AaPosition, FacilityDamageReadsBack) {
  auto s = game().new_state("barbarossa", 1);
  ASSERT_TRUE(s);
  Json doc = position_of(**s);
  doc["state"]["zones"]["warsaw"]["damage"] = {{"industrial_complex", 3}, {"railroad", 1}};
  auto back = state_from_position_document(game(), doc);
  ASSERT_TRUE(back) << back.error().to_string();
  const auto& st = static_cast<const AaState&>(**back);
  const auto& g = static_cast<const AaGame&>(game());
  EXPECT_EQ(st.damage(g.zone_index("warsaw"), kIndustrialComplex), 3);
  EXPECT_TRUE(st.inoperable(g.zone_index("warsaw"), kRailroad));
  EXPECT_EQ(position_of(st), doc);
}

// The state hash covers every field: two positions that differ only in facility damage
// (3.37) or in a side's casualty order hash differently (they once hashed equal, so the
// conformance suite's hash and clone checks could not see those fields).
TEST(AaPosition, FacilityDamageAndCasualtyOrderChangeTheStateHash) {
  auto s = game().new_state("barbarossa", 1);
  ASSERT_TRUE(s);
  const Json doc = position_of(**s);
  auto same = state_from_position_document(game(), doc);
  ASSERT_TRUE(same) << same.error().to_string();
  EXPECT_EQ((*same)->state_hash(), (*s)->state_hash());

  Json damaged = doc;
  damaged["state"]["zones"]["warsaw"]["damage"] = {{"industrial_complex", 3}};
  auto d = state_from_position_document(game(), damaged);
  ASSERT_TRUE(d) << d.error().to_string();
  EXPECT_NE((*d)->state_hash(), (*s)->state_hash());
  EXPECT_NE((*d)->full_json(), (*s)->full_json());

  Json ordered = doc;
  ordered["state"]["casualty_first"]["axis"] = {"infantry"};
  auto o = state_from_position_document(game(), ordered);
  ASSERT_TRUE(o) << o.error().to_string();
  EXPECT_NE((*o)->state_hash(), (*s)->state_hash());
}

TEST(AaPosition, IsReadableByName) {
  auto s = game().new_state("barbarossa", 1);
  ASSERT_TRUE(s);
  const Json doc = position_of(**s);
  EXPECT_EQ(doc["format"], "steppe-position");
  EXPECT_EQ(doc["game"], "aa");
  EXPECT_EQ(doc["turn"], 1);
  const Json& st = doc["state"];
  EXPECT_EQ(st["scenario"], "barbarossa");
  EXPECT_EQ(st["phase"], "purchase");
  EXPECT_EQ(st["active"], "axis");
  EXPECT_EQ(st["bp"]["germany"], 60);  // 2.1
  ASSERT_FALSE(st["units"].empty());
  EXPECT_TRUE(st["units"][0]["nation"].is_string());
  EXPECT_TRUE(st["units"][0]["zone"].is_string());
  EXPECT_EQ(st["zones"]["warsaw"]["control"], "axis");
}

// Each bad position is refused, naming the field; nothing is loaded.
TEST(AaPosition, BadFieldsAreRefusedNamingTheField) {
  auto s = game().new_state("barbarossa", 1);
  ASSERT_TRUE(s);
  const Json good = position_of(**s);
  struct Case {
    std::string name;
    std::function<void(Json&)> spoil;
    std::string where;  // expected in Error::where
  };
  const std::vector<Case> cases = {
      {"turn out of range", [](Json& j) { j["state"]["turn"] = -4; }, "/state/turn"},
      {"unknown phase", [](Json& j) { j["state"]["phase"] = "tea"; }, "/state/phase"},
      {"unknown side", [](Json& j) { j["state"]["ci"] = "italy"; }, "/state/ci"},
      {"winner in play", [](Json& j) { j["state"]["winner"] = "axis"; }, "/state/winner"},
      {"unit in no zone", [](Json& j) { j["state"]["units"][0]["zone"] = "atlantis"; },
       "/state/units/0/zone"},
      {"unknown unit type", [](Json& j) { j["state"]["units"][1]["type"] = "zeppelin"; },
       "/state/units/1/type"},
      {"unknown nation", [](Json& j) { j["state"]["units"][0]["nation"] = "france"; },
       "/state/units/0/nation"},
      {"misspelt unit field", [](Json& j) { j["state"]["units"][0]["dammage"] = 1; },
       "/state/units/0/dammage"},
      {"count zero", [](Json& j) { j["state"]["units"][0]["count"] = 0; }, "/state/units/0/count"},
      {"zone missing", [](Json& j) { j["state"]["zones"].erase("warsaw"); }, "/state/zones/warsaw"},
      {"unknown zone",
       [](Json& j) {
         j["state"]["zones"]["atlantis"] = {{"control", "axis"}};
       },
       "/state/zones/atlantis"},
      {"damage past capacity",
       [](Json& j) {
         j["state"]["zones"]["warsaw"]["damage"] = {{"industrial_complex", 99}};
       },
       "/state/zones/warsaw/damage/industrial_complex"},
      {"casualty order twice",
       [](Json& j) {
         j["state"]["casualty_first"]["axis"] = {"infantry", "infantry"};
       },
       "/state/casualty_first/axis/1"},
      {"battle in no zone", [](Json& j) { j["state"]["battles"] = {"atlantis"}; }, "/state/battles/0"},
      {"decision with no battle", [](Json& j) { j["state"]["decision_zone"] = "warsaw"; },
       "/state/decision_zone"},
      {"retreat roll with no decision", [](Json& j) { j["state"]["withdraw_left"] = 3; },
       "/state/withdraw_left"},
      {"dice", [](Json& j) { j["state"]["dice"]["counter"] = -1; }, "/state/dice/counter"},
      {"unknown scenario", [](Json& j) { j["state"]["scenario"] = "kursk"; }, "/state/scenario"},
      {"other game", [](Json& j) { j["game"] = "bd"; }, "/game"},
  };
  for (const auto& c : cases) {
    Json bad = good;
    c.spoil(bad);
    auto r = state_from_position_document(game(), bad, "pos.json");
    ASSERT_FALSE(r) << c.name;
    EXPECT_NE(r.error().where.find(c.where), std::string::npos)
        << c.name << ": " << r.error().to_string() << " (expected " << c.where << ")";
    EXPECT_EQ(r.error().where.rfind("pos.json", 0), 0U) << c.name << ": " << r.error().to_string();
  }
}

}  // namespace
}  // namespace steppe::aa
