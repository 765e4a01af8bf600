// AGC: the kernel conformance suite, and random self-play of the short scenario to its end.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "games/agc/agc.h"
#include "kernel/conformance.h"

namespace agc {
namespace {

const steppe::Game& game() {
  static auto g = load_game(STEPPE_DEFAULT_DATA_DIR);
  if (!g.is_ok()) ADD_FAILURE() << g.error().to_string();
  return *g.value();
}

// How many of `events` side `side` may see that contain any of `texts`.
int told(const std::vector<steppe::Event>& events, int side, std::initializer_list<const char*> texts) {
  int n = 0;
  for (const auto& e : events)
    if ((e.visible_to & (1u << side)) != 0 && std::any_of(texts.begin(), texts.end(), [&](const char* t) {
          return e.text.find(t) != std::string::npos;
        }))
      ++n;
  return n;
}

TEST(AgcState, PassesConformance) {
  const auto rep = steppe::run_conformance(game(), "bialystok-minsk", 2, 7, 400);
  EXPECT_TRUE(rep.ok()) << rep.summary();
}

// Random play that ends a phase one time in eight reaches the end of turn 6 with a result.
TEST(AgcState, RandomSelfPlayOfTheShortScenarioEnds) {
  auto st = game().new_state("bialystok-minsk", 11);
  ASSERT_TRUE(st.is_ok());
  auto& s = *st.value();
  std::vector<steppe::Action> acts;
  uint64_t x = 5;
  int n = 0, attacks = 0, flights = 0;
  while (!s.is_terminal() && n < 200000) {
    s.legal_actions(acts);
    ASSERT_FALSE(acts.empty());
    x = steppe::splitmix64(x);
    const auto& a = (x % 8 == 0) ? acts.back() : acts[(x >> 8) % acts.size()];
    ASSERT_TRUE(s.apply(a).is_ok()) << s.action_to_string(a);
    attacks += a.verb == kAttack ? 1 : 0;
    flights += a.verb == kFly ? 1 : 0;  // 17.1: missions are in the legal actions
    ++n;
  }
  ASSERT_TRUE(s.is_terminal());
  const auto r = s.result();
  EXPECT_TRUE(r["winner"] == "axis" || r["winner"] == "soviet") << r.dump();
  EXPECT_EQ(r["turn"], 6);
  EXPECT_GT(attacks, 0) << "no attack was made in " << n << " actions";
  EXPECT_GT(flights, 0) << "no air mission was flown in " << n << " actions";
}

// 10.6.5: a unit entering an enemy ZOC stops. (3.0e.2, no stopping in a hex over 10
// stacking points, is set up hex by hex in tests/rulebook/agc/3.0e.2-*.scn.)
TEST(AgcState, AUnitEnteringAnEnemyZocStops) {
  auto st = game().new_state("bialystok-minsk", 1);
  auto& s = dynamic_cast<AgcState&>(*st.value());
  const auto& g = s.g();
  std::vector<steppe::Action> acts;
  s.legal_actions(acts);
  // The first legal move of a unit with MP to spare after it into a hex of the enemy's ZOC.
  const steppe::Action* into_zoc = nullptr;
  for (const auto& a : acts) {
    if (a.verb != kMove) continue;
    const int u = a.args[0];
    const auto mc = s.move_cost(u, s.us_[u].hex, a.args[1]);
    if (s.in_enemy_zoc(a.args[1], g.units_[u].side) && !s.in_enemy_zoc(s.us_[u].hex, g.units_[u].side) &&
        mc.halves >= 0 && mc.halves < s.us_[u].mp_left && !mc.whole_ma) {
      into_zoc = &a;
      break;
    }
  }
  ASSERT_NE(into_zoc, nullptr) << "the Bialystok-Minsk set-up offers no move into an enemy ZOC";
  const int u = into_zoc->args[0];
  const int to = into_zoc->args[1];
  ASSERT_GT(s.us_[u].mp_left - s.move_cost(u, s.us_[u].hex, to).halves, 0);
  ASSERT_TRUE(s.apply(*into_zoc).is_ok());
  EXPECT_EQ(s.us_[u].hex, to);
  EXPECT_EQ(s.us_[u].mp_left, 0) << "10.6.5: the unit stops on entering the enemy ZOC";
}

// 14.3.2: "The applicable type Orders marker is placed face down on the defender hex. The marker
// will be revealed during the upcoming enemy combat phase."
TEST(AgcState, OrdersMarkersAreFaceDownUntilTheCombatPhase) {
  auto st = game().new_state("empty", 1);
  auto& s = dynamic_cast<AgcState&>(*st.value());
  auto run = [&](std::initializer_list<std::vector<std::string>> sets,
                 std::initializer_list<const char*> acts) {
    for (const auto& w : sets) ASSERT_TRUE(s.test_set(w).is_ok());
    for (const char* text : acts) {
      auto a = s.parse_action(text);
      ASSERT_TRUE(a.is_ok()) << text;
      ASSERT_TRUE(s.apply(a.value()).is_ok()) << text;
    }
  };
  run({{"place", "su-27rd", "1034"}, {"place", "de-7id", "1035"}, {"place", "su-hq3", "1032"}},
      {"declare 1034 by de-7id", "end", "order 1034 no-retreat"});
  EXPECT_EQ(s.observation(kSoviet)["declared"][0]["order"], "no-retreat");
  EXPECT_EQ(s.observation(kAxis)["declared"][0]["order"], "face-down");
  EXPECT_EQ(s.observation(kAxis)["declared"][0]["units"][0], "de-7id");
  run({}, {"end"});  // the Axis Combat Phase: the marker is revealed
  EXPECT_EQ(s.observation(kAxis)["declared"][0]["order"], "no-retreat");
}

// 14.3.2 (a leak found in review): the Order's event names its type to the defender only; the
// attacker is told a marker lies face down. His determinizations draw its type anew, and never
// touch the defender's own view.
TEST(AgcState, AnOrdersTypeReachesTheAttackerNeitherByEventNorBySearch) {
  auto st = game().new_state("empty", 1);
  auto& s = dynamic_cast<AgcState&>(*st.value());
  struct Collect final : steppe::EventSink {
    std::vector<steppe::Event> events;
    void emit(steppe::Event e) override { events.push_back(std::move(e)); }
  } sink;
  s.set_event_sink(&sink);
  for (const auto& w : std::vector<std::vector<std::string>>{
           {"place", "su-27rd", "1034"}, {"place", "de-7id", "1035"}, {"place", "su-hq3", "1032"}})
    ASSERT_TRUE(s.test_set(w).is_ok());
  for (const char* text : {"declare 1034 by de-7id", "end"})
    ASSERT_TRUE(s.apply(s.parse_action(text).value()).is_ok());
  sink.events.clear();
  ASSERT_TRUE(s.apply(s.parse_action("order 1034 no-retreat").value()).is_ok());
  EXPECT_EQ(told(sink.events, kAxis, {"No Retreat"}), 0);
  EXPECT_EQ(told(sink.events, kAxis, {"face down"}), 1);
  EXPECT_EQ(told(sink.events, kSoviet, {"No Retreat"}), 1);
  // The Axis searcher's samples: both types appear over a few seeds, the face-down view stays.
  std::set<std::string> drawn;
  for (uint64_t seed = 1; seed <= 16; ++seed) {
    auto c = s.clone();
    c->resample_hidden(kAxis, seed);
    auto& cs = dynamic_cast<AgcState&>(*c);
    drawn.insert(cs.full_json()["declared"][0]["order"].get<std::string>());
    EXPECT_EQ(cs.observation(kAxis)["declared"][0]["order"], "face-down");
  }
  EXPECT_EQ(drawn, (std::set<std::string>{"no-retreat", "additional-retreat"}));
  auto own = s.clone();
  own->resample_hidden(kSoviet, 3);
  EXPECT_EQ(dynamic_cast<AgcState&>(*own).full_json()["declared"][0]["order"], "no-retreat");
}

// 14.1.1d: a motorized unit bearing an Out of Supply marker may not react.
TEST(AgcState, OutOfSupplyUnitsDoNotReact) {
  auto st = game().new_state("empty", 1);
  auto& s = dynamic_cast<AgcState&>(*st.value());
  for (const auto& w : std::vector<std::vector<std::string>>{{"place", "su-27rd", "1034"},
                                                             {"place", "de-7id", "1035"},
                                                             {"place", "su-102td", "1037"},
                                                             {"place", "su-hq3", "1039"}})
    ASSERT_TRUE(s.test_set(w).is_ok());
  for (const char* text : {"declare 1034 by de-7id", "end"})
    ASSERT_TRUE(s.apply(s.parse_action(text).value()).is_ok());
  const int u = s.g().unit_index("su-102td");
  const auto move = s.parse_action("move su-102td 1038").value();
  EXPECT_TRUE(s.check(move).is_ok());
  s.us_[u].out_of_supply = true;
  const auto st2 = s.check(move);
  ASSERT_FALSE(st2.is_ok());
  EXPECT_EQ(st2.error().rule, "14.1.1");
}

// 17.1.8: "Air units are placed upside down on their mission hex. Their identity and strength is
// unknown to the enemy player until air combat [see 17.2] is resolved." The enemy is told that a
// unit lies face down on the hex, never which one: not by event, not by observation (the unit shows
// as still in the Ready Box), not by a query, and his determinizations draw it anew.
TEST(AgcState, AFaceDownAirUnitReachesTheEnemyNeitherByEventNorBySearch) {
  auto st = game().new_state("empty", 1);
  auto& s = dynamic_cast<AgcState&>(*st.value());
  struct Collect final : steppe::EventSink {
    std::vector<steppe::Event> events;
    void emit(steppe::Event e) override { events.push_back(std::move(e)); }
  } sink;
  s.set_event_sink(&sink);
  for (const auto& w : std::vector<std::vector<std::string>>{{"place", "su-27rd", "1034"},
                                                             {"place", "de-7id", "1035"},
                                                             {"air", "de-stg1-i", "ready"},
                                                             {"air", "de-jg51-i", "ready"},
                                                             {"air", "de-kg3-i", "ready"},
                                                             {"air", "su-12bad", "ready"}})
    ASSERT_TRUE(s.test_set(w).is_ok());
  for (const char* text : {"declare 1034 by de-7id", "end", "end", "end"})
    ASSERT_TRUE(s.apply(s.parse_action(text).value()).is_ok()) << text;
  ASSERT_EQ(s.air_step_, 0);
  sink.events.clear();
  ASSERT_TRUE(s.apply(s.parse_action("fly de-stg1-i 1034").value()).is_ok());
  EXPECT_EQ(told(sink.events, kSoviet, {"de-stg1-i", "Ju 87"}), 0);
  EXPECT_EQ(told(sink.events, kSoviet, {"face down"}), 1);
  EXPECT_EQ(told(sink.events, kAxis, {"de-stg1-i", "Ju 87"}), 1);
  const Json so = s.observation(kSoviet);
  for (const auto& e : so["air"]) EXPECT_NE(e["box"], "mission") << e.dump();
  ASSERT_EQ(so["face_down"].size(), 1u);
  EXPECT_EQ(so["face_down"][0]["hex"], "1034");
  EXPECT_EQ(so["face_down"][0]["count"], 1);
  EXPECT_FALSE(s.query_allowed(kSoviet, {"air", "de-stg1-i"}).is_ok());
  EXPECT_TRUE(s.query_allowed(kAxis, {"air", "de-stg1-i"}).is_ok());
  // The Soviet searcher's samples: several Axis units take the face-down slot; his view stays.
  std::set<std::string> drawn;
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    auto c = s.clone();
    c->resample_hidden(kSoviet, seed);
    auto& cs = dynamic_cast<AgcState&>(*c);
    const Json full = cs.full_json();
    for (const auto& e : full["air"])
      if (e["box"] == "mission") drawn.insert(e["id"].get<std::string>());
    EXPECT_EQ(cs.observation(kSoviet), so);
  }
  EXPECT_GT(drawn.size(), 1u);
  auto own = s.clone();
  own->resample_hidden(kAxis, 3);
  EXPECT_EQ(dynamic_cast<AgcState&>(*own).full_json(), s.full_json());
  // 17.2.1: the air combat step reveals the mission to both.
  ASSERT_TRUE(s.apply(s.parse_action("end").value()).is_ok());
  ASSERT_TRUE(s.apply(s.parse_action("end").value()).is_ok());
  bool revealed = false;
  for (const auto& e : sink.events)
    revealed = revealed || (e.kind == "reveal" && e.text.find("de-stg1-i") != std::string::npos &&
                            (e.visible_to & (1u << kSoviet)) != 0);
  EXPECT_TRUE(revealed);
}

}  // namespace
}  // namespace agc

namespace agc {
namespace {

// 22.9.1: "The back sides of the counters represent the Untried mode, where the unit values are not
// known." 11.6: "Untried ... units do not have their strengths and MAs revealed until these units are
// flipped during combat odds determination". The Axis player never learns an Untried Soviet unit's
// strength before then: not from his observation (no id, no strength, no MA, no place in the list
// that names it), not from an event, not from a query, and his determinizations deal the face-down
// counters anew. Combat reveals it to both.
TEST(AgcState, AnUntriedUnitsStrengthReachesTheAxisNeitherByViewNorByEventNorBySearch) {
  auto st = game().new_state("empty", 1);
  auto& s = dynamic_cast<AgcState&>(*st.value());
  struct Collect final : steppe::EventSink {
    std::vector<steppe::Event> events;
    void emit(steppe::Event e) override { events.push_back(std::move(e)); }
  } sink;
  s.set_event_sink(&sink);
  // su-ur11 is 2-4-0 on its Tried side, su-ur02 0-1-0; neither id nor "2-4" nor "0-1" may show.
  for (const auto& w : std::vector<std::vector<std::string>>{
           {"place", "su-ur11", "1034"}, {"place", "su-ur02", "2040"}, {"place", "de-7id", "1035"}})
    ASSERT_TRUE(s.test_set(w).is_ok());
  const auto leaks = [](const Json& view) {
    const std::string text = view.dump();
    return text.find("su-ur11") != std::string::npos || text.find("su-ur02") != std::string::npos;
  };
  for (int side : {kAxis, kSoviet}) {
    const Json v = s.observation(side);
    EXPECT_FALSE(leaks(v)) << v["units"].dump();
    int hidden = 0;
    for (const auto& e : v["units"]) {
      if (!e.value("untried", false)) continue;
      ++hidden;
      EXPECT_EQ(e["id"], "untried");
      EXPECT_FALSE(e.contains("mp"));
      EXPECT_FALSE(e.contains("steps_lost"));
    }
    EXPECT_EQ(hidden, 2);
  }
  EXPECT_FALSE(s.query_allowed(kAxis, {"unit", "su-ur11", "steps"}).is_ok());
  EXPECT_FALSE(s.query_allowed(kAxis, {"odds", "1034"}).is_ok());
  // The declaration's odds count no Untried defender (12.3.4), so a legal or refused declaration
  // tells nothing either; nor does any event up to the Combat Phase.
  sink.events.clear();
  ASSERT_TRUE(s.apply(s.parse_action("declare 1034 by de-7id").value()).is_ok());
  for (int i = 0; i < 8 && !(s.phase_ == kAxisCombat && s.air_step_ == 2); ++i)
    ASSERT_TRUE(s.apply(s.parse_action("end").value()).is_ok())
        << s.check(s.parse_action("end").value()).error().to_string();
  ASSERT_EQ(s.phase_, kAxisCombat);
  EXPECT_EQ(told(sink.events, kAxis, {"su-ur11", "2-4"}), 0);
  // Determinizations: the Axis view stays the same while the counters under it change.
  const Json ao = s.observation(kAxis);
  std::set<std::string> at_1034;
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    auto c = s.clone();
    c->resample_hidden(kAxis, seed);
    auto& cs = dynamic_cast<AgcState&>(*c);
    EXPECT_EQ(cs.observation(kAxis), ao);
    for (size_t u = 0; u < cs.us_.size(); ++u)
      if (cs.us_[u].hex == cs.g().grid_.parse("1034") && cs.g().units_[u].untried)
        at_1034.insert(cs.g().units_[u].id);
  }
  EXPECT_GT(at_1034.size(), 1u);
  // 15.5.4: the attack reveals it, to both players.
  sink.events.clear();
  ASSERT_TRUE(s.apply(s.parse_action("attack 1034").value()).is_ok());
  EXPECT_EQ(told(sink.events, kAxis, {"su-ur11 2-4-0"}), 1);
  EXPECT_FALSE(s.untried(s.g().unit_index("su-ur11")));
}

// 22.9.3: UR/MG units are "drawn randomly, sight-unseen": the Soviet player does not know which counter
// lies face down where either. His legal actions name the hex ("flip HEX"), one per hex, never the
// counter; an action naming an Untried counter is refused the same way whether it is on the map or
// in the cup, so neither a list nor a probe tells where the strong ones are, and he cannot pick one.
TEST(AgcState, TheSovietPlayerFlipsAnUntriedCounterByItsHexNotByItsName) {
  auto st = game().new_state("empty", 1);
  auto& s = dynamic_cast<AgcState&>(*st.value());
  for (const auto& w : std::vector<std::vector<std::string>>{{"place", "su-ur11", "1034"},
                                                             {"place", "su-ur02", "1034"},
                                                             {"place", "su-ur08", "2040"},
                                                             {"phase", "8"}})
    ASSERT_TRUE(s.test_set(w).is_ok()) << w[0];
  std::vector<steppe::Action> legal;
  s.legal_actions(legal);
  std::multiset<std::string> flips;
  for (const auto& a : legal) {
    const std::string text = s.action_to_string(a);
    EXPECT_EQ(text.find("su-ur"), std::string::npos) << text;
    if (text.rfind("flip ", 0) == 0) flips.insert(text);
  }
  EXPECT_EQ(flips, (std::multiset<std::string>{"flip 1034", "flip 2040"}));
  const auto on_map = s.parse_action("flip su-ur11");
  const auto in_cup = s.parse_action("flip su-ur05");  // never placed: in the cup
  ASSERT_FALSE(on_map.is_ok());
  ASSERT_FALSE(in_cup.is_ok());
  EXPECT_EQ(on_map.error().rule, "22.9.1");
  EXPECT_EQ(in_cup.error().rule, "22.9.1");
  EXPECT_FALSE(s.parse_action("move su-ur08 2041").is_ok());
  // Flipping 1034 turns one of its two counters; the other stays Untried there.
  ASSERT_TRUE(s.apply(s.parse_action("flip 1034").value()).is_ok());
  const int a = s.g().unit_index("su-ur11"), b = s.g().unit_index("su-ur02");
  EXPECT_NE(s.untried(a), s.untried(b));
}

}  // namespace
}  // namespace agc
