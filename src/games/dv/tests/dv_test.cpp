// The Dark Valley: data loading, set-up, the sequence of play and the State contract
// (kernel conformance suite) on every scenario.
#include "games/dv/dv.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "kernel/conformance.h"
#include "kernel/json_data.h"
#include "kernel/notation.h"

namespace dv {
namespace {

const DvGame& game() {
  static std::unique_ptr<steppe::Game> g = [] {
    auto r = load_game(STEPPE_DEFAULT_DATA_DIR);
    if (!r) {
      ADD_FAILURE() << r.error().to_string();
      std::abort();
    }
    return std::move(r).value();
  }();
  return *dynamic_cast<const DvGame*>(g.get());
}

std::unique_ptr<DvState> start(const std::string& scenario, uint64_t seed = 1) {
  auto r = game().new_state(scenario, seed);
  EXPECT_TRUE(r) << (r ? "" : r.error().to_string());
  return std::unique_ptr<DvState>(dynamic_cast<DvState*>(std::move(r).value().release()));
}

TEST(DvData, LoadsTheMapCountersAndTables) {
  const DvGame& g = game();
  EXPECT_EQ(g.grid().size(), 81 * 53);
  EXPECT_EQ(g.units().size(), 438u);
  EXPECT_EQ(g.turn_count(), 44);
  // 3.1: 47 VP hexes, and the Hungarian oil hex W1642 that counts only in 1945.
  EXPECT_EQ(g.vp_hexes().size(), 48u);
  EXPECT_EQ(g.grid().id(g.vp_1945_only()), "1642");
  EXPECT_EQ(g.crt().columns.size(), 8u);
  EXPECT_EQ(g.grid().id(g.place("leningrad")), "4702");
}

TEST(DvData, ABadValueIsRefusedNamingTheFile) {
  const auto dir = std::filesystem::temp_directory_path() / "dv_bad_data";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "dv");
  std::filesystem::copy(
      std::filesystem::path(STEPPE_DEFAULT_DATA_DIR) / "dv", dir / "dv",
      std::filesystem::copy_options::recursive | std::filesystem::copy_options::overwrite_existing);
  auto doc = steppe::load_json_file(dir / "dv" / "crt.json");
  ASSERT_TRUE(doc);
  Json j = *doc;
  j["A"]["1-1"][3] = "XX";
  std::ofstream(dir / "dv" / "crt.json") << j.dump();
  auto r = load_game(dir);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().where.find("crt.json"), std::string::npos) << r.error().to_string();
  std::filesystem::remove_all(dir);
}

TEST(DvSetup, CampaignStartsWithTheAxisPresetCombatRound) {
  auto s = start("campaign");
  // 4.0 II, 8.2: the Axis Air Base Segment comes first (the Soviets have no Strategic Air unit
  // until Turn 30), then 9.3 the Strategic Movement Phase; German units stand in the Baltic ports.
  EXPECT_EQ(s->stage(), Stage::kAirBase);
  EXPECT_EQ(s->current_player(), kAxis);
  ASSERT_TRUE(s->apply(*s->parse_action("done")).is_ok());
  EXPECT_EQ(s->stage(), Stage::kNaval);
  EXPECT_EQ(s->current_player(), kAxis);
  EXPECT_EQ(s->naval_left(0), 4);
  while (s->stage() == Stage::kRail || s->stage() == Stage::kNaval)
    ASSERT_TRUE(s->apply(*s->parse_action("done")).is_ok());
  // 10.2: on Turn 1 the Axis plays Combat, then Move, before the cup.
  EXPECT_EQ(s->turn(), 1);
  EXPECT_EQ(s->stage(), Stage::kCombat);
  EXPECT_EQ(s->current_player(), kAxis);
  EXPECT_EQ(s->vp(), 11);  // scenario vp_start
  int on_map = 0;
  for (int u = 0; u < static_cast<int>(game().units().size()); ++u) on_map += s->on_map(u) ? 1 : 0;
  EXPECT_EQ(on_map, 182);
}

TEST(DvSequence, EndingTheRoundsDrawsChitsAndAdvancesTheTurn) {
  auto s = start("campaign", 5);
  std::vector<steppe::Action> acts;
  // Only "end", "mode", "chit" and "place" (the first listed): every round passes.
  for (int i = 0; i < 400 && s->turn() == 1 && !s->is_terminal(); ++i) {
    auto a = s->parse_action("end");
    if (a && s->check(*a).is_ok()) {
      ASSERT_TRUE(s->apply(*a).is_ok());
      continue;
    }
    s->legal_actions(acts);
    ASSERT_FALSE(acts.empty());
    ASSERT_TRUE(s->apply(acts[0]).is_ok()) << s->action_to_string(acts[0]);
  }
  EXPECT_EQ(s->turn(), 2);
}

// 10.1/10.2: each turn's cup holds that turn's chits of the Action Chit Availability Chart
// only; the chits drawn last turn do not stay in it beside the new ones.
TEST(DvSequence, EachTurnsCupHoldsOnlyThatTurnsChits) {
  auto s = start("campaign", 5);
  std::vector<steppe::Action> acts;
  for (int i = 0; i < 2000 && s->turn() < 4 && !s->is_terminal(); ++i) {
    auto a = s->parse_action("end");
    if (a && s->check(*a).is_ok()) {
      ASSERT_TRUE(s->apply(*a).is_ok());
    } else {
      s->legal_actions(acts);
      ASSERT_FALSE(acts.empty());
      ASSERT_TRUE(s->apply(acts[0]).is_ok()) << s->action_to_string(acts[0]);
    }
    if (s->stage() == Stage::kInitiative) {
      const TurnDef& td = game().turn(s->turn());
      const size_t listed = td.chits[0].size() + td.chits[1].size() + td.neutral.size();
      const Json o = s->observation(kAxis);
      EXPECT_LE(o["cup"].size() + o["pulled"].size(), listed) << "turn " << s->turn();
    }
  }
  EXPECT_GE(s->turn(), 3);
}

// Plays "end" where it may, otherwise the first legal action, until `stop` holds.
template <class Stop>
void pass_until(DvState& s, Stop stop) {
  std::vector<steppe::Action> acts;
  for (int i = 0; i < 3000 && !stop() && !s.is_terminal(); ++i) {
    auto a = s.parse_action("end");
    if (!(a && s.check(*a).is_ok())) {
      s.legal_actions(acts);
      ASSERT_FALSE(acts.empty());
      a = acts[0];
    }
    ASSERT_TRUE(s.apply(*a).is_ok()) << s.action_to_string(*a);
  }
  ASSERT_TRUE(stop());
}

// 10.2: "On either Turn 12 (June 1942) or Turn 13 (July 1942), but not both, the Axis player
// chooses the first two Action chits."
TEST(DvSequence, FallBlauIsTurn12OrTurn13NotBoth) {
  for (bool now : {true, false}) {
    auto s = start("fall-blau", 3);
    pass_until(*s, [&] { return s->stage() == Stage::kInitiative; });
    ASSERT_EQ(s->turn(), 12);
    auto hold = s->parse_action("hold");
    ASSERT_TRUE(hold);
    EXPECT_FALSE(s->check(*hold).is_ok());  // not before the first chit
    std::vector<steppe::Action> acts;
    s->legal_actions(acts);
    ASSERT_TRUE(s->apply(acts[0]).is_ok());
    ASSERT_EQ(s->stage(), Stage::kInitiative) << "a second initiative chit on Turn 12";
    EXPECT_TRUE(s->check(*hold).is_ok());  // or Fall Blau waits for Turn 13
    if (now) {
      s->legal_actions(acts);
      ASSERT_TRUE(s->apply(acts[0]).is_ok());
    } else {
      ASSERT_TRUE(s->apply(*hold).is_ok());
    }
    EXPECT_NE(s->stage(), Stage::kInitiative);
    pass_until(*s, [&] { return s->turn() == 13 && s->stage() == Stage::kInitiative; });
    s->legal_actions(acts);
    ASSERT_TRUE(s->apply(acts[0]).is_ok());
    // Taken on Turn 12: one chit on Turn 13; kept: two, with no second choice to keep it.
    EXPECT_EQ(s->stage() == Stage::kInitiative, !now) << (now ? "taken on 12" : "kept for 13");
    if (!now) {
      EXPECT_FALSE(s->check(*hold).is_ok());
    }
  }
}

// 12.3: the preview is the combat's own assessment: 12 against 7 is 1-1 on CRT A, and the
// distribution is CRT A's 1-1 column read for the rolls 1-6.
TEST(DvViews, PreviewGivesOddsAndTheCrtDistribution) {
  auto s = start("empty");
  for (const char* w :
       {"place 1G 5631", "place GI 5630", "place GII 5730", "place GX 5731", "round combat axis"})
    ASSERT_TRUE(s->test_set(steppe::split_words(w)).is_ok()) << w;
  auto a = s->parse_action("attack 5631");
  ASSERT_TRUE(a);
  auto p = s->preview(*a, kAxis);
  ASSERT_TRUE(p) << p.error().to_string();
  EXPECT_EQ(p->attack, 12);
  EXPECT_EQ(p->defense, 7);
  EXPECT_EQ(p->final, "1-1");
  double total = 0;
  std::map<std::string, double> by;
  for (const auto& o : p->outcomes) total += o.probability, by[o.result] = o.probability;
  EXPECT_NEAR(total, 1.0, 1e-9);
  const auto& col = game().crt().tab[0][2];  // CRT A, 1-1
  std::map<std::string, double> want;
  for (size_t row = 1; row <= 6; ++row) want[col[row]] += 1.0 / 6;
  for (const auto& [r, pr] : want) EXPECT_NEAR(by[r], pr, 1e-9) << r;
  // 11.1: reach is the movement search: a 4-MP corps goes four clear hexes.
  auto r = s->reach("GI", kAxis);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->allowance, 4);
}

TEST(DvConformance, EveryScenario) {
  for (const char* sc : {"campaign", "barbarossa", "fall-blau", "zitadelle", "bagration"}) {
    const auto rep = steppe::run_conformance(game(), sc, 2, 7, 150);
    EXPECT_TRUE(rep.ok()) << sc << ": " << rep.summary();
  }
}

// 8.4, ruling DV-A7: no air allocation is secret (the attacker's air is placed face up before the
// defender's), so both sides' observations show the same bases, Done sides and committed air.
TEST(DvAir, AirIsOpenToBothSides) {
  auto s = start("campaign");
  ASSERT_EQ(s->stage(), Stage::kAirBase);
  const Json axis = s->observation(kAxis);
  const Json soviet = s->observation(kSoviet);
  ASSERT_TRUE(axis.contains("air"));
  EXPECT_EQ(axis["air"], soviet["air"]);
  bool based = false;
  for (const Json& a : axis["air"])
    if (a.value("unit", "") == "VIIIAir") based = a.value("base", "") == "2825" && !a.value("done", true);
  EXPECT_TRUE(based);
}

}  // namespace
}  // namespace dv
