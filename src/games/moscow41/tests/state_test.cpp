// Fog of war, action legality, determinism and random play-outs.
#include <algorithm>
#include <sstream>

#include "games/moscow41/tests/common.h"

namespace moscow41 {
namespace {

using test::game;
using test::start;

// Plays `n` random legal actions (seeded), checking invariants after each.
void playout(Moscow41State& s, int n, uint64_t seed) {
  std::vector<steppe::Action> acts;
  uint64_t x = seed;
  for (int i = 0; i < n && !s.is_terminal(); ++i) {
    s.legal_actions(acts);
    ASSERT_FALSE(acts.empty()) << "no legal action at step " << i << ": "
                               << s.observation(s.current_player()).dump();
    x = steppe::splitmix64(x);
    // Prefer ending segments now and then so that turns advance.
    const auto& a = acts[x % acts.size()];
    ASSERT_TRUE(s.apply(a).is_ok()) << s.action_to_string(a);
  }
}

TEST(Moscow41State, EveryLegalActionChecksAndRoundTripsNotation) {
  auto s = start("campaign", 3);
  std::vector<steppe::Action> acts;
  auto round_trip = [&]() {
    for (const auto& a : acts) {
      EXPECT_TRUE(s->check(a).is_ok());
      auto p = s->parse_action(s->action_to_string(a));
      ASSERT_TRUE(p) << s->action_to_string(a);
      EXPECT_EQ(*p, a) << s->action_to_string(a);
    }
  };
  // 3.0: an impulse starts with one choice among A. Tactical, B. Strategic (two options,
  // 11.0; the Germans hold the disc) and C. Pass; the blocks act only after it.
  s->legal_actions(acts);
  std::vector<std::string> names;
  names.reserve(acts.size());
  for (const auto& a : acts) names.push_back(s->action_to_string(a));
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"pass", "si", "si reinforce", "ti"}));
  round_trip();
  // 12.0: in the Pass's Command Segment, one block's moves and DLs, and "end".
  ASSERT_TRUE(s->apply(*s->parse_action("pass")).is_ok());
  s->legal_actions(acts);
  ASSERT_GT(acts.size(), 10u);
  round_trip();
}

// Set-up words with a number typo are refused with a message; they used to throw
// std::invalid_argument out of std::stoi ("internal error: stoi" from the CLI).
TEST(Moscow41State, BadNumbersInSetUpWordsAreRefused) {
  auto s = start("empty");
  for (const auto& words : std::vector<std::vector<std::string>>{
           {"turn", "x"}, {"turn", "9"}, {"surrendered", "2a"}, {"destroyed", ""}}) {
    const auto st = s->test_set(words);
    ASSERT_FALSE(st.is_ok()) << words[0] << " " << words[1];
    EXPECT_NE(st.error().message.find("'" + words[1] + "'"), std::string::npos) << st.error().message;
  }
}

// Set-up words for block status: `reveal B` (1.5) and `isolated B yes|no` (11.0), read
// back by the `block B revealed|isolated` queries; a bad block or value is refused.
TEST(Moscow41State, RevealAndIsolatedSetUpWords) {
  auto s = start("campaign");
  std::string block;
  for (int b = 0; b < static_cast<int>(game().blocks().size()); ++b)
    if (s->block(b).loc >= 0) {
      block = game().blocks()[static_cast<size_t>(b)].id;
      break;
    }
  ASSERT_FALSE(block.empty());
  ASSERT_TRUE(s->test_set({"reveal", block}).is_ok());
  EXPECT_EQ(*s->test_query({"block", block, "revealed"}), "yes");
  ASSERT_TRUE(s->test_set({"isolated", block, "yes"}).is_ok());
  EXPECT_EQ(*s->test_query({"block", block, "isolated"}), "yes");
  ASSERT_TRUE(s->test_set({"isolated", block, "no"}).is_ok());
  EXPECT_EQ(*s->test_query({"block", block, "isolated"}), "no");
  EXPECT_FALSE(s->test_set({"isolated", block, "maybe"}).is_ok());
  EXPECT_FALSE(s->test_set({"reveal", "NoSuchBlock"}).is_ok());
}

TEST(Moscow41State, RefusedActionLeavesStateUnchanged) {
  auto s = start("campaign", 3);
  const uint64_t h = s->state_hash();
  auto a = s->parse_action("battle 63");
  ASSERT_TRUE(a);
  EXPECT_FALSE(s->apply(*a).is_ok());
  auto m = s->parse_action("move 24PzK 63");  // no block acts before the impulse is chosen
  ASSERT_TRUE(m);
  steppe::Status st = s->apply(*m);
  EXPECT_FALSE(st.is_ok());
  EXPECT_EQ(s->state_hash(), h);
  EXPECT_FALSE(s->parse_action("move Nobody 63"));
}

TEST(Moscow41State, ObservationHidesEnemyIdentityAndStrength) {  // 1.5
  for (const char* sc : {"campaign", "typhoon", "last-gasp"}) {
    auto s = start(sc, 9);
    for (int viewer : {kGerman, kSoviet}) {
      const std::string obs = s->observation(viewer).dump();
      for (size_t b = 0; b < game().blocks().size(); ++b) {
        const auto& d = game().blocks()[b];
        const auto& bs = s->block(static_cast<int>(b));
        if (d.side == viewer || bs.revealed || bs.face_up) continue;
        if (bs.loc == kLocDestroyed || bs.loc == kLocSurrendered) continue;  // public OoB
        EXPECT_EQ(obs.find("\"" + d.id + "\""), std::string::npos)
            << sc << ": hidden " << d.id << " leaks to " << viewer;
      }
    }
  }
}

TEST(Moscow41State, LastGaspFaceUpWhitesAreVisible) {  // Last Gasp set-up: face up
  auto s = start("last-gasp", 2);
  const Json obs = s->observation(kSoviet);
  int seen = 0;
  for (const auto& e : obs["enemy_revealed"])
    seen += e["at"] == "4" || e["at"] == "15" || e["at"] == "17" || e["at"] == "31";
  EXPECT_EQ(seen, 4);
}

TEST(Moscow41State, ObservationInvariantUnderResample) {
  for (const char* sc : {"campaign", "typhoon", "last-gasp"})
    for (int viewer : {kGerman, kSoviet}) {
      auto s = start(sc, 4);
      playout(*s, 40, 17);
      const std::string before = s->observation(viewer).dump();
      auto c = s->clone();
      bool changed = false;
      for (uint64_t seed = 1; seed <= 5; ++seed) {
        c->resample_hidden(viewer, seed);
        EXPECT_EQ(c->observation(viewer).dump(), before) << sc << " viewer " << viewer;
        changed = changed || c->full_json()["blocks"] != s->full_json()["blocks"];
      }
      EXPECT_TRUE(changed) << "resampling never changed a hidden identity in " << sc;
    }
}

TEST(Moscow41State, ObservationIsFunctionOfInformationSet) {
  // Two states that differ only in a hidden enemy identity look the same to the viewer.
  auto s = start("campaign", 6);
  auto c = s->clone();
  c->resample_hidden(kGerman, 99);
  EXPECT_NE(c->full_json().dump(), s->full_json().dump());
  EXPECT_EQ(c->observation(kGerman).dump(), s->observation(kGerman).dump());
  EXPECT_NE(c->observation(kSoviet).dump(), s->observation(kSoviet).dump());
}

TEST(Moscow41State, ResampleReadsOnlyTheObservation) {  // 1.5, docs/rulings.md
  // Two positions that differ only in what the German cannot see: which Soviet identity
  // stands in a hidden place, at what strength, and which one is in the pool. The same
  // seed must give the same sample in both (the sampler never copies the truth).
  auto a = start("campaign", 6);
  std::vector<int> on_map, in_pool;
  for (size_t i = 0; i < game().blocks().size(); ++i) {
    const int b = static_cast<int>(i);
    const auto& d = game().blocks()[i];
    if (d.side != kSoviet || d.kind != Kind::kCombat) continue;
    const auto& st = a->block(b);
    if (st.loc >= 0 && !st.revealed && !st.face_up) on_map.push_back(b);
    if (st.loc == kLocPool) in_pool.push_back(b);
  }
  ASSERT_GE(on_map.size(), 2u);
  ASSERT_GE(in_pool.size(), 1u);
  auto b = a->clone();
  auto& bb = dynamic_cast<Moscow41State&>(*b);
  const auto id = [&](int x) { return game().blocks()[static_cast<size_t>(x)].id; };
  const std::string where = game().map().id(a->block(on_map[0]).loc);
  ASSERT_TRUE(bb.test_set({"place", id(in_pool[0]), where, "1"}).is_ok());
  ASSERT_TRUE(bb.test_set({"pool", id(on_map[0])}).is_ok());
  ASSERT_TRUE(bb.test_set({"place", id(on_map[1]), game().map().id(a->block(on_map[1]).loc), "1"}).is_ok());
  ASSERT_NE(a->full_json()["blocks"], bb.full_json()["blocks"]) << "the positions must really differ";
  ASSERT_EQ(a->observation(kGerman), bb.observation(kGerman)) << "the German sees the same";
  ASSERT_NE(a->observation(kSoviet), bb.observation(kSoviet));
  bool strength_varies = false, pool_varies = false;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    auto x = a->clone(), y = bb.clone();
    x->resample_hidden(kGerman, seed);
    y->resample_hidden(kGerman, seed);
    EXPECT_EQ(x->full_json(), y->full_json()) << "seed " << seed;
    EXPECT_EQ(x->observation(kGerman), a->observation(kGerman)) << "seed " << seed;
    const auto& xs = dynamic_cast<const Moscow41State&>(*x);
    for (int m : on_map) {
      if (xs.block(m).loc >= 0 && xs.block(m).level != 0) strength_varies = true;
      if (xs.block(m).loc == kLocPool) pool_varies = true;
    }
  }
  EXPECT_TRUE(strength_varies) << "hidden strengths must be drawn, not all kept full";
  EXPECT_TRUE(pool_varies) << "which blocks are in the pool must be drawn too";
}

TEST(Moscow41State, ResampleKeepsTheRoadToLeningradRule) {  // 5.0, 10.9
  auto s = start("campaign", 2);
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    auto c = s->clone();
    c->resample_hidden(kSoviet, seed);
    const auto& cs = dynamic_cast<const Moscow41State&>(*c);
    const auto& road = game().road();
    for (size_t i = 0; i < game().blocks().size(); ++i) {
      const auto& d = game().blocks()[i];
      if (d.side != kGerman) continue;
      const int loc = cs.block(static_cast<int>(i)).loc;
      const bool on_road = std::find(road.begin(), road.end(), loc) != road.end();
      if (d.letter == 'L') {
        EXPECT_TRUE(on_road || loc == kLocPool) << d.id << " seed " << seed;
      } else {
        EXPECT_FALSE(on_road) << d.id << " seed " << seed;
      }
    }
    EXPECT_EQ(cs.block(game().block_index("HQ4Pg")).loc, s->block(game().block_index("HQ4Pg")).loc)
        << "Hoepner's box is public";
  }
}

TEST(Moscow41State, RandomPlayoutsStayLegalAndDeterministic) {
  for (const char* sc : {"campaign", "beyond-the-dnieper", "typhoon", "last-gasp"}) {
    auto a = start(sc, 11), b = start(sc, 11);
    playout(*a, 300, 5);
    playout(*b, 300, 5);
    EXPECT_EQ(a->state_hash(), b->state_hash()) << sc;
  }
}

TEST(Moscow41State, CloneIsIndependent) {
  auto s = start("campaign", 1);
  auto c = s->clone();
  playout(*dynamic_cast<Moscow41State*>(c.get()), 30, 3);
  EXPECT_NE(c->state_hash(), s->state_hash());
  auto d = start("campaign", 1);
  EXPECT_EQ(d->state_hash(), s->state_hash());
}

}  // namespace
}  // namespace moscow41

#include "kernel/conformance.h"

namespace moscow41 {
namespace {

TEST(Moscow41State, KernelConformanceSuite) {
  for (const char* sc : {"campaign", "typhoon", "last-gasp", "beyond-the-dnieper"}) {
    const auto rep = steppe::run_conformance(test::game(), sc, 2, 7, 100);
    EXPECT_TRUE(rep.ok()) << sc << ": " << rep.summary();
  }
}

}  // namespace
}  // namespace moscow41

namespace moscow41 {
namespace {

// A policy that passes half of the time plays whole games: logistics, weather, final
// phases and the end of the game are all reached.
TEST(Moscow41State, WholeGamesReachTheEnd) {
  for (const char* sc : {"campaign", "beyond-the-dnieper", "typhoon", "last-gasp"}) {
    auto s = test::start(sc, 21);
    std::vector<steppe::Action> acts;
    uint64_t x = 77;
    int steps = 0;
    bool saw_weather_change = false;
    while (!s->is_terminal() && steps < 20000) {
      s->legal_actions(acts);
      ASSERT_FALSE(acts.empty());
      x = steppe::splitmix64(x);
      const steppe::Action* pick = &acts[x % acts.size()];
      if ((x >> 20) % 2 == 0)
        for (const auto& a : acts)
          if (a.verb == kVPass || a.verb == kVEndCombat) pick = &a;  // lean towards ending
      ASSERT_TRUE(s->apply(*pick).is_ok());
      saw_weather_change = saw_weather_change || s->weather() != kSunny;
      ++steps;
    }
    EXPECT_TRUE(s->is_terminal()) << sc << " after " << steps << " actions, turn " << s->turn();
    EXPECT_TRUE(s->result().contains("winner")) << sc;
    (void)saw_weather_change;  // the forced-dice weather test is tests/rulebook/moscow41/8.1-weather.scn
  }
}

}  // namespace
}  // namespace moscow41

namespace moscow41 {
namespace {

struct Collect : steppe::EventSink {
  std::vector<steppe::Event> events;
  void emit(steppe::Event e) override { events.push_back(std::move(e)); }
};

TEST(Moscow41State, MoveAndSupplyEventsDoNotNameHiddenEnemyBlocks) {  // 1.5
  auto s = test::start("campaign", 8);
  Collect sink;
  s->set_event_sink(&sink);
  std::vector<steppe::Action> acts;
  uint64_t x = 5;
  int checked = 0;
  for (int i = 0; i < 300 && !s->is_terminal(); ++i) {
    s->legal_actions(acts);
    x = steppe::splitmix64(x);
    sink.events.clear();
    ASSERT_TRUE(s->apply(acts[x % acts.size()]).is_ok());
    for (const auto& e : sink.events) {
      if (e.kind != "move" && e.kind != "supply" && e.kind != "attrition" && e.kind != "reinforce" &&
          e.kind != "logistics")
        continue;
      std::istringstream in(e.text);
      std::vector<std::string> words;
      for (std::string w; in >> w;) words.push_back(w);
      for (int viewer : {kGerman, kSoviet}) {
        if ((e.visible_to & (1u << viewer)) == 0) continue;
        for (size_t b = 0; b < test::game().blocks().size(); ++b) {
          const auto& d = test::game().blocks()[b];
          if (d.side == viewer || s->block(static_cast<int>(b)).revealed) continue;
          ++checked;
          EXPECT_EQ(std::find(words.begin(), words.end(), d.id), words.end())
              << "\"" << e.text << "\" shown to " << viewer;
        }
      }
    }
  }
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace moscow41

namespace moscow41 {
namespace {

using test::act;
using test::set_up;

// 10.14.1: a loss choice is the owner's; the attacker sees that hits wait, not the list.
TEST(Moscow41State, LossChoiceIsTheOwnersAndListedOnlyToHim) {
  auto s = test::start("campaign", 2);
  // From 67 (no river border with 68) the tanks make a Tank Attack (10.12.5.2) and fire first.
  set_up(*s, {"clear", "victory none", "control 54 german", "control 52 german", "control 51 german",
              "control 53 german", "control 67 german", "place HQ3Pg 67", "place 39PzK 67", "place 57PzK 67",
              "place A16 68", "place A19 68", "active german"});
  for (const char* t : {"ti", "activate HQ3Pg", "commands", "move 39PzK 68", "move 57PzK 68", "combat"})
    act(*s, t);
  for (int d : {6, 1, 1, 1, 1, 1, 1, 1}) s->dice().force(d);
  act(*s, "battle 68");
  ASSERT_EQ(s->current_player(), kSoviet);
  std::vector<steppe::Action> acts;
  s->legal_actions(acts);
  std::vector<std::string> names;
  names.reserve(acts.size());
  for (const auto& a : acts) names.push_back(s->action_to_string(a));
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"hit A16", "hit A19"}));
  const Json mine = s->observation(kSoviet), theirs = s->observation(kGerman);
  ASSERT_TRUE(mine.contains("loss") && theirs.contains("loss"));
  EXPECT_EQ(mine["loss"]["choices"], Json::array({"A16", "A19"}));
  EXPECT_EQ(mine["loss"]["hits"], 1);
  EXPECT_EQ(theirs["loss"]["side"], "soviet");
  EXPECT_FALSE(theirs["loss"].contains("choices"));
  // A refused hit changes nothing; a clone replays the same.
  const uint64_t h = s->state_hash();
  EXPECT_FALSE(s->apply(*s->parse_action("hit 57PzK")).is_ok());
  EXPECT_EQ(s->state_hash(), h);
}

// 10.8: a named route has one printed form, and applies along that route.
TEST(Moscow41State, NamedRouteRoundTripsAndIsFollowed) {
  auto s = test::start("campaign", 2);
  set_up(*s, {"clear", "victory none", "control 54 german", "control 52 german", "control 51 german",
              "control 53 german", "place HQ3Pg 54", "place 39PzK 54", "active german"});
  for (const char* t : {"ti", "activate HQ3Pg", "commands"}) act(*s, t);
  auto a = s->parse_action("move 39PzK 64 91");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->nargs, 3);
  EXPECT_EQ(s->action_to_string(*a), "move 39PzK 64 91");
  EXPECT_TRUE(s->check(*a).is_ok());
  // The cheapest route (through Green Yartsevo 68) is refused in its long form: "move 39PzK 91"
  // is its only notation.
  EXPECT_FALSE(s->check(*s->parse_action("move 39PzK 68 91")).is_ok());
  EXPECT_TRUE(s->check(*s->parse_action("move 39PzK 91")).is_ok());
  act(*s, "move 39PzK 64 91");
  EXPECT_EQ(s->area(test::game().node("64")).control, kGerman);
  EXPECT_EQ(s->area(test::game().node("68")).control, kSoviet);
}

// 10.8 (docs/rulings.md, "Routes"): of equally cheap routes the move follows the one
// through the lowest area index. Area 53 reaches 60 through Green 57 or Green 66, two MP
// either way; 57 comes first in the map, so it is 57 that changes control (2.5).
TEST(Moscow41State, EquallyCheapRoutesGoThroughTheLowestAreaIndex) {
  ASSERT_LT(test::game().node("57"), test::game().node("66"));
  auto s = test::start("campaign", 2);
  set_up(*s, {"clear", "victory none", "control 54 german", "control 52 german", "control 51 german",
              "control 53 german", "control 57 soviet", "control 66 soviet", "control 60 soviet",
              "place HQ3Pg 53", "place 39PzK 53", "active german"});
  for (const char* t : {"ti", "activate HQ3Pg", "commands"}) act(*s, t);
  EXPECT_FALSE(s->check(*s->parse_action("move 39PzK 57 60")).is_ok());  // the cheapest: "move 39PzK 60"
  EXPECT_TRUE(s->check(*s->parse_action("move 39PzK 66 60")).is_ok());
  act(*s, "move 39PzK 60");
  EXPECT_EQ(s->block(test::game().block_index("39PzK")).loc, test::game().node("60"));
  EXPECT_EQ(s->area(test::game().node("57")).control, kGerman);
  EXPECT_EQ(s->area(test::game().node("66")).control, kSoviet);
}

// One verb table (verbs.cpp) drives the notation, describe(), check() and apply(): every
// verb has its row, and an unreadable action lists every form the table knows.
TEST(Moscow41State, EveryVerbHasARowInTheVerbTable) {
  auto s = test::start("campaign", 1);
  for (uint16_t v = kVLogPause; v <= kVSetupAuto; ++v) {
    steppe::Action a;
    a.verb = v;
    const auto st = s->check(a);
    EXPECT_EQ(st.is_ok() ? std::string::npos : st.error().message.find("unknown action"), std::string::npos)
        << v;
    const auto d = s->describe(a);
    EXPECT_EQ(d ? std::string::npos : d.error().message.find("unknown action"), std::string::npos) << v;
    EXPECT_NE(s->action_to_string(a), "?") << v;
  }
  steppe::Action none;
  none.verb = kVSetupAuto + 1;
  EXPECT_EQ(s->action_to_string(none), "?");
  EXPECT_FALSE(s->check(none).is_ok());
  const auto bad = s->parse_action("march 39PzK 63");
  ASSERT_FALSE(bad);
  for (const char* form :
       {"move B [AREA...] AREA", "exploit", "blitz B AREA", "setup dl AREA", "si reinforce"})
    EXPECT_NE(bad.error().message.find(form), std::string::npos) << form;
  auto dl = s->parse_action("setup dl 63");  // two-word verb names share their first word
  ASSERT_TRUE(dl);
  EXPECT_EQ(dl->verb, kVSetupDl);
  EXPECT_EQ(s->describe(*dl)->verb, "setup-dl");
  EXPECT_EQ(s->action_to_string(*dl), "setup dl 63");
}

// 5.0: drawn reinforcements are the owner's to place; the enemy learns how many, not which.
TEST(Moscow41State, DrawnReinforcementsAreHiddenFromTheEnemy) {
  auto s = test::start("campaign", 3);
  set_up(*s, {"initiative soviet", "active soviet"});
  act(*s, "si reinforce");
  const Json mine = s->observation(kSoviet), theirs = s->observation(kGerman);
  EXPECT_EQ(mine["phase"], "deploy");
  int drawn = 0;
  std::vector<std::string> ids;
  for (const auto& b : mine["own"])
    if (b["at"] == "drawn") {
      ++drawn;
      ids.push_back(b["id"]);
    }
  EXPECT_EQ(drawn, 12);
  EXPECT_EQ(theirs.value("enemy_drawn", 0), drawn);
  const std::string text = theirs.dump();
  for (const auto& id : ids) EXPECT_EQ(text.find("\"" + id + "\""), std::string::npos) << id;
  std::vector<steppe::Action> acts;
  s->legal_actions(acts);
  ASSERT_FALSE(acts.empty());
  for (const auto& a : acts) {
    EXPECT_EQ(a.verb, kVPlace);
    auto p = s->parse_action(s->action_to_string(a));
    ASSERT_TRUE(p);
    EXPECT_EQ(*p, a);
  }
}

// 1.5, 7.2.1: the Logistics Value counts the non-exhausted HQs, which the enemy need not
// know; the Strategic Impulse and the Leader Activation tell it to the owner only.
TEST(Moscow41State, LogisticsValueIsToldToItsOwnerOnly) {
  auto s = test::start("campaign", 3);
  Collect sink;
  s->set_event_sink(&sink);
  auto lv_seen_by = [&](int viewer) {
    int n = 0;
    for (const auto& e : sink.events)
      if ((e.visible_to & (1u << viewer)) != 0 && e.text.find(", LV ") != std::string::npos) ++n;
    return n;
  };
  set_up(*s, {"initiative soviet", "active soviet"});
  act(*s, "si");
  EXPECT_EQ(lv_seen_by(kSoviet), 1);
  EXPECT_EQ(lv_seen_by(kGerman), 0);
  bool told = false;
  for (const auto& e : sink.events)
    told = told ||
           ((e.visible_to & (1u << kGerman)) != 0 && e.text.find("Strategic Impulse") != std::string::npos);
  EXPECT_TRUE(told) << "the German still learns that a Strategic Impulse is played";
  sink.events.clear();
  set_up(*s, {"turn 2", "logistics german"});
  act(*s, "logistics activate");
  EXPECT_EQ(lv_seen_by(kGerman), 1);
  EXPECT_EQ(lv_seen_by(kSoviet), 0);
}

// 5.0, 1.5: the German's sample of the Soviet's drawn reinforcements keeps their number and
// their state (drawn, waiting for the Soviet to place them) without copying which they are.
TEST(Moscow41State, ResampleKeepsTheEnemysDrawnBlocksAsDrawn) {
  auto s = test::start("campaign", 3);
  set_up(*s, {"initiative soviet", "active soviet"});
  act(*s, "si reinforce");
  const std::string seen = s->observation(kGerman).dump();
  auto drawn_ids = [](const Json& full) {  // block indices; full_json's blocks are [loc, level, ...]
    std::vector<size_t> ids;
    for (size_t i = 0; i < full["blocks"].size(); ++i)
      if (full["blocks"][i][0] == kLocDrawn) ids.push_back(i);
    return ids;
  };
  const auto truth = drawn_ids(s->full_json());
  ASSERT_EQ(truth.size(), 12u);
  bool differs = false;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    auto c = s->clone();
    c->resample_hidden(kGerman, seed);
    EXPECT_EQ(c->observation(kGerman).dump(), seen) << "seed " << seed;
    EXPECT_EQ(drawn_ids(c->full_json()).size(), truth.size()) << "seed " << seed;
    differs = differs || drawn_ids(c->full_json()) != truth;
    std::vector<steppe::Action> acts;
    c->legal_actions(acts);  // the Soviet still has blocks to place in the sample
    EXPECT_FALSE(acts.empty()) << "seed " << seed;
  }
  EXPECT_TRUE(differs) << "the sample copied which blocks the Soviet drew";
}

}  // namespace
}  // namespace moscow41

namespace moscow41 {
namespace {

constexpr const char* kAllOptions =
    "+ignore-army-colour+zhukov-hoepner+moscow-supply+rail-movement+blizzard+cavalry-mobility+infantry-"
    "divisions+operation-crusader";

TEST(Moscow41State, OptionsRideOnTheScenarioName) {  // 14.0
  for (const char* bad : {"campaign+nope", "campaign+", "campaign++blizzard", "campaign+Blizzard"}) {
    auto r = test::game().new_state(bad, 1);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().to_string().find("unknown option"), std::string::npos) << r.error().to_string();
  }
  EXPECT_FALSE(test::game().new_state("nowhere+blizzard", 1));
  auto plain = test::start("campaign", 4);
  auto opt = test::start("campaign+moscow-supply+blizzard", 4);
  ASSERT_TRUE(plain && opt);
  EXPECT_TRUE(opt->option(kOptMoscowSupply));
  EXPECT_TRUE(opt->option(kOptBlizzard));
  EXPECT_FALSE(opt->option(kOptRail));
  EXPECT_NE(plain->state_hash(), opt->state_hash());  // saves and hashes tell them apart
  for (int side : {kGerman, kSoviet}) {
    EXPECT_EQ(opt->observation(side)["options"], Json::array({"moscow-supply", "blizzard"}));
    EXPECT_EQ(plain->observation(side)["options"], Json::array());
  }
  // The set-up word refuses a bad name or switch and changes nothing.
  const uint64_t h = opt->state_hash();
  EXPECT_FALSE(opt->test_set({"option", "nope"}).is_ok());
  EXPECT_FALSE(opt->test_set({"option", "blizzard", "maybe"}).is_ok());
  EXPECT_EQ(opt->state_hash(), h);
  EXPECT_FALSE(plain->test_set({"weather", "blizzard"}).is_ok());  // 14.5 is not on
}

TEST(Moscow41State, KernelConformanceSuiteWithEveryOption) {
  for (const char* sc : {"campaign", "typhoon", "last-gasp"}) {
    const std::string name = std::string(sc) + kAllOptions;
    const auto rep = steppe::run_conformance(test::game(), name, 2, 7, 100);
    EXPECT_TRUE(rep.ok()) << name << ": " << rep.summary();
  }
}

}  // namespace
}  // namespace moscow41
