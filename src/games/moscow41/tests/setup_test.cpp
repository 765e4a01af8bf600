// Scenario Setup: the set-up phase of Operation Typhoon and The Wehrmacht's Last Gasp
// (Soviets first, then Germans), its actions, its fog of war and its hand-over.
#include <algorithm>
#include <set>

#include "games/moscow41/ai/ai_heuristics.h"
#include "games/moscow41/tests/common.h"
#include "kernel/match.h"

namespace moscow41 {
namespace {

using test::game;
using test::start;

std::string q(const Moscow41State& s, const std::vector<std::string>& w) { return s.test_query(w).value(); }

steppe::Status act(Moscow41State& s, const std::string& text) {
  auto a = s.parse_action(text);
  if (!a) return a.error();
  return s.apply(*a);
}

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::string w;
  for (char c : s) {
    if (c == ' ') {
      if (!w.empty()) out.push_back(w);
      w.clear();
    } else {
      w += c;
    }
  }
  if (!w.empty()) out.push_back(w);
  return out;
}

TEST(Moscow41Setup, CampaignAndDnieperHaveNoSetUpPhase) {
  for (const char* sc : {"campaign", "beyond-the-dnieper"}) {
    auto s = start(sc, 4, false);
    ASSERT_TRUE(s);
    EXPECT_EQ(q(*s, {"phase"}), "impulse") << sc;
    EXPECT_EQ(q(*s, {"active"}), "german") << sc;
    EXPECT_FALSE(s->full_json().contains("setup")) << sc;
    EXPECT_TRUE(s->setup_pieces().empty()) << sc;
  }
}

TEST(Moscow41Setup, CampaignAndDnieperStartExactlyAsBeforeTheSetUpPhase) {
  // The start hashes (full state, dice counter included) printed by the code before the
  // set-up phase existed (commit b012643): the same blocks, areas, strengths and dice.
  struct Pin {
    const char* scenario;
    uint64_t seed;
    uint64_t hash;
  };
  const Pin pins[] = {
      {"campaign", 1, 0xd223b81caaf17f69ULL},
      {"campaign", 2, 0xbec59e5104f97cb4ULL},
      {"campaign", 7, 0x3a60f0a0b6ef7ec1ULL},
      {"campaign", 12345, 0x88d28c667026ac25ULL},
      {"beyond-the-dnieper", 1, 0x36a17f98347b905aULL},
      {"beyond-the-dnieper", 2, 0xa15eea98fc37e1e7ULL},
      {"beyond-the-dnieper", 7, 0x74e796809d6b4522ULL},
      {"beyond-the-dnieper", 12345, 0xa90eaf43d156031eULL},
      {"campaign+blizzard+rail-movement", 1, 0x8c71f9924df420e5ULL},
      {"campaign+blizzard+rail-movement", 12345, 0x7348744a958e20d9ULL},
  };
  for (const Pin& p : pins) {
    auto s = start(p.scenario, p.seed, false);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->state_hash(), p.hash) << p.scenario << " seed " << p.seed;
  }
}

TEST(Moscow41Setup, TyphoonSovietsFirstThenGermansThenLogistics) {
  auto s = start("typhoon", 5, false);
  ASSERT_TRUE(s);
  EXPECT_EQ(q(*s, {"phase"}), "setup");
  EXPECT_EQ(s->current_player(), kSoviet);
  // 5 Red + 6 Blue + 5 Green next to their HQs, 9 White along the frontline, 10 DLs.
  EXPECT_EQ(q(*s, {"setup-left", "soviet"}), "35");
  EXPECT_EQ(q(*s, {"setup-left", "german"}), "0");  // the Germans draw after the Soviets
  int german_on_map = 0;
  for (size_t b = 0; b < game().blocks().size(); ++b)
    german_on_map += game().blocks()[b].side == kGerman && s->block(static_cast<int>(b)).loc >= 0;
  EXPECT_EQ(german_on_map, 0);
  ASSERT_TRUE(act(*s, "setup auto").is_ok());
  EXPECT_EQ(q(*s, {"phase"}), "setup");
  EXPECT_EQ(s->current_player(), kGerman);
  EXPECT_EQ(q(*s, {"setup-left", "soviet"}), "0");
  // 4 infantry groups less the one with each HQ, Blue/Green/Red, 48PzK + 8 White, 5 DLs.
  const int german_left = std::stoi(q(*s, {"setup-left", "german"}));
  EXPECT_GT(german_left, 20);
  int dls = 0;
  for (const auto& p : s->setup_pieces()) dls += p.block < 0;
  EXPECT_EQ(dls, 5);
  ASSERT_TRUE(act(*s, "setup auto").is_ok());
  EXPECT_EQ(q(*s, {"phase"}), "logistics");  // Scenario Start: October Logistics Phase
  EXPECT_EQ(q(*s, {"active"}), "soviet");    // the side without the Initiative chooses first
  EXPECT_TRUE(s->setup_pieces().empty());
}

TEST(Moscow41Setup, LastGaspStartsInTheImpulsesAfterTheSetUp) {
  auto s = start("last-gasp", 5, false);
  ASSERT_TRUE(s);
  EXPECT_EQ(q(*s, {"phase"}), "setup");
  // Zhukov, the five "N" blocks and seven White at the Soviet's choice, six DLs.
  EXPECT_EQ(q(*s, {"setup-left", "soviet"}), "19");
  ASSERT_TRUE(act(*s, "setup auto").is_ok());
  ASSERT_TRUE(act(*s, "setup auto").is_ok());
  EXPECT_EQ(q(*s, {"phase"}), "impulse");
  EXPECT_EQ(q(*s, {"active"}), "german");
}

TEST(Moscow41Setup, EveryListedSetUpActionIsLegalAndRoundTrips) {
  for (const char* sc : {"typhoon", "last-gasp"}) {
    auto s = start(sc, 2, false);
    for (int side = 0; side < 2; ++side) {
      std::vector<steppe::Action> acts;
      s->legal_actions(acts);
      ASSERT_FALSE(acts.empty());
      EXPECT_EQ(acts.back().verb, kVSetupAuto) << sc;
      std::set<int> verbs;
      for (const auto& a : acts) {
        verbs.insert(a.verb);
        EXPECT_TRUE(s->check(a).is_ok()) << s->action_to_string(a);
        auto p = s->parse_action(s->action_to_string(a));
        ASSERT_TRUE(p) << s->action_to_string(a);
        EXPECT_EQ(*p, a);
      }
      EXPECT_EQ(verbs, (std::set<int>{kVSetup, kVSetupDl, kVSetupAuto})) << sc;
      // One action per waiting block and area it may take (no duplicates).
      std::set<std::string> texts;
      for (const auto& a : acts) texts.insert(s->action_to_string(a));
      EXPECT_EQ(texts.size(), acts.size());
      ASSERT_TRUE(act(*s, "setup auto").is_ok());
    }
  }
}

TEST(Moscow41Setup, OneEachInTheAreasAdjacentToTheHq) {
  // Typhoon: "the six Red Blocks: one in the Area occupied by the K HQ and the other five -
  // one each - in any adjacent Area".
  auto s = start("typhoon", 5, false);
  const std::string hq_area = q(*s, {"block", "HQ-K", "at"});
  std::vector<std::string> reds;
  for (const auto& p : s->setup_pieces())
    if (p.block >= 0 && p.rule == SetupRule::kAdjacentOneEach && p.hq == game().block_index("HQ-K"))
      reds.push_back(game().blocks()[static_cast<size_t>(p.block)].id);
  ASSERT_EQ(reds.size(), 5u);
  const auto first_areas = words(q(*s, {"setup-areas", reds[0], "soviet"}));
  ASSERT_GE(first_areas.size(), 2u);
  EXPECT_EQ(std::find(first_areas.begin(), first_areas.end(), hq_area), first_areas.end())
      << "one block stands with the HQ already; the others go next to it";
  for (const auto& a : first_areas) EXPECT_TRUE(game().adjacent(game().node(hq_area), game().node(a))) << a;
  ASSERT_TRUE(act(*s, "setup " + reds[0] + " " + first_areas[0]).is_ok());
  EXPECT_EQ(q(*s, {"block", reds[0], "at"}), first_areas[0]);
  EXPECT_EQ(q(*s, {"block", reds[0], "strength"}), "1");  // minimum strength
  // One each: the area taken is no longer offered to the next red block.
  const auto next = words(q(*s, {"setup-areas", reds[1], "soviet"}));
  EXPECT_EQ(std::find(next.begin(), next.end(), first_areas[0]), next.end());
  const auto refused = act(*s, "setup " + reds[1] + " " + first_areas[0]);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_EQ(refused.error().rule, "Scenario Setup");
  EXPECT_NE(refused.error().message.find("one each"), std::string::npos) << refused.error().message;
  // Not adjacent: Moscow is far from the Kalinin Front.
  const auto far = act(*s, "setup " + reds[1] + " 63");
  ASSERT_FALSE(far.is_ok());
  EXPECT_NE(far.error().message.find("not adjacent to HQ-K"), std::string::npos) << far.error().message;
}

TEST(Moscow41Setup, RefusalsNameTheConstraintAndChangeNothing) {
  auto s = start("typhoon", 5, false);
  const uint64_t before = s->state_hash();
  auto refused = [&](const std::string& text, const std::string& needle) {
    const auto r = act(*s, text);
    ASSERT_FALSE(r.is_ok()) << text;
    EXPECT_NE(r.error().message.find(needle), std::string::npos) << text << ": " << r.error().message;
    EXPECT_EQ(s->state_hash(), before) << text;
  };
  refused("logistics pause", "Scenario Setup is not finished");
  refused("setup HQ3Pg 67", "not yours");                // the Germans set up second
  refused("setup HQ-K 46", "not waiting to be set up");  // placed by the text
  refused("setup dl 90", "not a soviet controlled Area");
  refused("setup auto now", "");
  std::string white;
  for (const auto& p : s->setup_pieces())
    if (p.block >= 0 && p.rule == SetupRule::kZone) white = game().blocks()[static_cast<size_t>(p.block)].id;
  ASSERT_FALSE(white.empty());
  refused("setup " + white + " 63", "not along the frontline");  // Moscow is far behind the front
  refused("setup " + white + " 90", "not a soviet controlled Area");
  ASSERT_TRUE(act(*s, "setup dl 63").is_ok());
  const uint64_t after_dl = s->state_hash();
  const auto twice = act(*s, "setup dl 63");
  ASSERT_FALSE(twice.is_ok());
  EXPECT_NE(twice.error().message.find("already holds a Defensive Line"), std::string::npos);
  EXPECT_EQ(s->state_hash(), after_dl);
}

TEST(Moscow41Setup, OverstackingIsRefusedCitingTwoSeven) {
  auto s = start("typhoon", 5, false);
  std::vector<std::string> whites;
  for (const auto& p : s->setup_pieces())
    if (p.block >= 0 && p.rule == SetupRule::kZone)
      whites.push_back(game().blocks()[static_cast<size_t>(p.block)].id);
  ASSERT_GE(whites.size(), 5u);
  // A Green front area takes four Soviet blocks (2.7); find one that is empty.
  std::string green;
  for (const auto& a : words(q(*s, {"setup-areas", whites[0], "soviet"}))) {
    const int n = game().node(a);
    if (game().areas()[static_cast<size_t>(n)].terrain == kGreen && q(*s, {"blocks", "soviet", a}) == "0") {
      green = a;
      break;
    }
  }
  ASSERT_FALSE(green.empty());
  for (int k = 0; k < 4; ++k)
    ASSERT_TRUE(act(*s, "setup " + whites[static_cast<size_t>(k)] + " " + green).is_ok());
  const auto r = act(*s, "setup " + whites[4] + " " + green);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.error().rule, "Scenario Setup, 2.7");
  EXPECT_NE(r.error().message.find("overstacked"), std::string::npos);
}

TEST(Moscow41Setup, TheEnemySeesOnlyHowManyPiecesAreLeft) {  // 1.5
  auto s = start("typhoon", 7, false);
  auto pending_ids = [&](int side) {
    std::vector<std::string> ids;
    for (const auto& p : s->setup_pieces())
      if (p.side == side && p.block >= 0) ids.push_back(game().blocks()[static_cast<size_t>(p.block)].id);
    return ids;
  };
  auto no_names = [&](const Json& obs, const std::vector<std::string>& ids) {
    const std::string text = obs.dump();
    for (const auto& id : ids) EXPECT_EQ(text.find("\"" + id + "\""), std::string::npos) << id;
  };
  const Json mine = s->observation(kSoviet), theirs = s->observation(kGerman);
  ASSERT_TRUE(mine.contains("setup"));
  EXPECT_EQ(mine["setup"].size(), 35u);
  EXPECT_FALSE(theirs.contains("setup"));
  EXPECT_EQ(theirs["enemy_setup"]["blocks"], 25);
  EXPECT_EQ(theirs["enemy_setup"]["dls"], 10);
  no_names(theirs, pending_ids(kSoviet));
  // Placed blocks stay face down: the German sees a count in the area, not the block.
  const std::string red = pending_ids(kSoviet).front();
  const std::string area = words(q(*s, {"setup-areas", red, "soviet"})).front();
  ASSERT_TRUE(act(*s, "setup " + red + " " + area).is_ok());
  const Json after = s->observation(kGerman);
  EXPECT_EQ(after["enemy_setup"]["blocks"], 24);
  EXPECT_EQ(after["enemy_hidden"][area]["blocks"].get<int>(), std::stoi(q(*s, {"blocks", "soviet", area})));
  no_names(after, {red});
  ASSERT_TRUE(act(*s, "setup auto").is_ok());
  // The German's turn: the Soviet sees only the count of German pieces in hand, and none of
  // the German blocks on the map by name (none is face up in Typhoon).
  const Json sov = s->observation(kSoviet);
  EXPECT_GT(sov["enemy_setup"]["blocks"].get<int>(), 0);
  no_names(sov, pending_ids(kGerman));
  for (size_t b = 0; b < game().blocks().size(); ++b) {
    const auto& d = game().blocks()[b];
    if (d.side == kGerman && d.kind != Kind::kLeader && s->block(static_cast<int>(b)).loc >= 0)
      no_names(sov, {d.id});
  }
}

TEST(Moscow41Setup, ObservationInvariantUnderResampleDuringTheSetUp) {
  for (const char* sc : {"typhoon", "last-gasp"})
    for (int stage = 0; stage < 2; ++stage) {
      auto s = start(sc, 3, false);
      if (stage == 1) {
        ASSERT_TRUE(act(*s, "setup auto").is_ok());
      }
      for (int viewer : {kGerman, kSoviet}) {
        const std::string before = s->observation(viewer).dump();
        for (uint64_t seed = 1; seed <= 4; ++seed) {
          auto c = s->clone();
          c->resample_hidden(viewer, seed);
          EXPECT_EQ(c->observation(viewer).dump(), before)
              << sc << " stage " << stage << " viewer " << viewer;
          // The sample can still be played through its set-up.
          auto& cs = dynamic_cast<Moscow41State&>(*c);
          EXPECT_TRUE(test::play_setup_auto(cs)) << sc << " stage " << stage << " viewer " << viewer;
        }
      }
    }
}

TEST(Moscow41Setup, SameActionsSameGame) {
  // Replays depend on it: the set-up choices and `setup auto` are deterministic.
  auto a = start("last-gasp", 9, false), b = start("last-gasp", 9, false);
  for (auto* s : {a.get(), b.get()}) {
    const auto piece = s->setup_pieces().front();
    const std::string id = piece.block < 0 ? "dl" : game().blocks()[static_cast<size_t>(piece.block)].id;
    const auto areas = words(q(*s, {"setup-areas", id, "soviet"}));
    ASSERT_TRUE(act(*s, "setup " + id + " " + areas.back()).is_ok());
    ASSERT_TRUE(act(*s, "setup auto").is_ok());
    ASSERT_TRUE(act(*s, "setup auto").is_ok());
  }
  EXPECT_EQ(a->state_hash(), b->state_hash());
}

TEST(Moscow41Setup, AutoSetUpAlwaysFinishesWithinStacking) {  // 2.7, Scenario Setup
  for (const char* sc : {"typhoon", "last-gasp"})
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      auto s = start(sc, seed, false);
      ASSERT_TRUE(s);
      ASSERT_TRUE(test::play_setup_auto(*s)) << sc << " seed " << seed;
      for (int n = 0; n < game().map().area_count(); ++n)
        for (int side : {kGerman, kSoviet})
          EXPECT_LE(s->blocks_in(side, n),
                    game().tables().stack[game().areas()[static_cast<size_t>(n)].terrain])
              << sc << " seed " << seed << " area " << game().map().id(n);
      for (size_t b = 0; b < game().blocks().size(); ++b)
        EXPECT_NE(s->block(static_cast<int>(b)).loc, kLocSetup);
    }
}

TEST(Moscow41Setup, UndoSaveAndReplayThroughTheSetUp) {
  auto m = steppe::Match::start(game(), "typhoon", 6);
  ASSERT_TRUE(m);
  steppe::Match& match = **m;
  const auto& st = dynamic_cast<const Moscow41State&>(match.state());
  const SetupPiece first = st.setup_pieces().front();
  const std::string id = game().blocks()[static_cast<size_t>(first.block)].id;
  const auto areas = words(q(st, {"setup-areas", id, "soviet"}));
  const uint64_t before = match.state().state_hash();
  ASSERT_TRUE(match.apply_text("setup " + id + " " + areas.front()).is_ok());
  ASSERT_TRUE(match.apply_text("setup dl 63").is_ok());
  // A set-up choice reveals nothing: the owner may take it back.
  EXPECT_EQ(match.undoable(), 2u);
  ASSERT_TRUE(match.undo(2).is_ok());
  EXPECT_EQ(match.state().state_hash(), before);
  ASSERT_TRUE(match.apply_text("setup " + id + " " + areas.back()).is_ok());
  // The Soviets' last piece hands over to the Germans, who draw theirs at random: no undo
  // goes back past the draw.
  ASSERT_TRUE(match.apply_text("setup auto").is_ok());
  EXPECT_EQ(match.state().current_player(), kGerman);
  EXPECT_EQ(match.undoable(), 0u);
  EXPECT_FALSE(match.undo(1).is_ok());
  ASSERT_TRUE(match.apply_text("setup auto").is_ok());
  ASSERT_TRUE(match.apply_text("logistics pause").is_ok());
  // The save replays to the same position.
  auto loaded = steppe::Match::from_save_json(match.save_json(1), game());
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  EXPECT_EQ((*loaded)->state().state_hash(), match.state().state_hash());
  EXPECT_EQ((*loaded)->actions(), match.actions());
}

TEST(Moscow41Setup, AiPriorPrefersFrontAndObjectivesAndNotSetupAuto) {
  auto s = start("typhoon", 5, false);
  auto h = moscow41::make_moscow41_heuristics(game());
  ASSERT_TRUE(h);
  std::vector<steppe::Action> acts;
  s->legal_actions(acts);
  std::vector<float> w;
  h->prior(*s, acts, w);
  ASSERT_EQ(w.size(), acts.size());
  float auto_w = -1, dl_moscow = -1, dl_min = 1e9f, others_min = 1e9f;
  for (size_t i = 0; i < acts.size(); ++i) {
    const std::string t = s->action_to_string(acts[i]);
    if (t == "setup auto") {
      auto_w = w[i];
      continue;
    }
    others_min = std::min(others_min, w[i]);
    if (acts[i].verb == kVSetupDl) {
      dl_min = std::min(dl_min, w[i]);
      if (t == "setup dl 63") dl_moscow = w[i];
    }
  }
  ASSERT_GE(auto_w, 0.0f);
  EXPECT_LT(auto_w, others_min) << "setup auto must not dominate the placements";
  ASSERT_GE(dl_moscow, 0.0f);
  EXPECT_GT(dl_moscow, dl_min) << "a DL in Moscow (the objective) beats one in a quiet rear area";
}

}  // namespace
}  // namespace moscow41
