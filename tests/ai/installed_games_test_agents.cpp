// Agents on the real games: every installed game's agents must choose legal actions from
// its scenarios. Skipped (with the reason) while no game is installed. Budgets are tiny:
// this checks legality and determinism on the real rules, not strength.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

#include "ai/agent.h"
#include "ai/heuristics.h"
#include "ai/mcts.h"
#include "games/aa/ai/ai_heuristics.h"
#include "games/aa/state.h"
#include "games/all_agents.h"
#include "games/all_games.h"
#include "games/bd/bd_state.h"
#include "games/dv/ai/ai_heuristics.h"
#include "games/dv/dv.h"
#include "games/moscow41/state.h"
#include "kernel/scenario_test.h"

namespace steppe {
namespace {

// The programs that run agents register the games' heuristics themselves (the CLI in its
// main); this binary does it once before its tests.
class InstalledHeuristics : public ::testing::Environment {
 public:
  void SetUp() override { register_installed_heuristics(); }
};
[[maybe_unused]] ::testing::Environment* const kInstalledHeuristics =
    ::testing::AddGlobalTestEnvironment(new InstalledHeuristics);

// Issue 19, clean layers: loading a game's rules registers nothing with the AI (the rules
// library does not link it); the heuristics come from the one explicit registration.
TEST(HeuristicsRegistration, LoadingTheRulesRegistersNothingAndTheExplicitCallRegistersEveryGame) {
  for (const std::string id : {"bd", "moscow41", "aa", "dv"}) {
    ai::unregister_heuristics(id);
    auto game = load_game(id, default_data_dir());
    ASSERT_TRUE(game.is_ok()) << game.error().to_string();
    EXPECT_FALSE(ai::has_registered_heuristics(id)) << id << ": load_game registered heuristics";
  }
  register_installed_heuristics();
  for (const std::string id : {"bd", "moscow41", "aa", "dv"}) {
    EXPECT_TRUE(ai::has_registered_heuristics(id)) << id;
    auto game = load_game(id, default_data_dir());
    ASSERT_TRUE(game.is_ok());
    EXPECT_TRUE(ai::make_heuristics(*game.value())->has_evaluation()) << id;
  }
}

// The agent's first `decisions` in the first and the last scenario (or in `only`, when a
// game's other openings cost too much to search in a unit test).
void plays_legal_moves(const std::string& game_id, const std::string& spec, int decisions,
                       const std::string& only = "") {
  auto game = load_game(game_id, default_data_dir());
  if (!game) GTEST_SKIP() << game_id << " is not installed: " << game.error().to_string();
  std::vector<ScenarioInfo> scenarios;
  for (const auto& sc : game.value()->scenarios())
    if (sc.id != "empty" && (only.empty() || sc.id == only)) scenarios.push_back(sc);
  ASSERT_FALSE(scenarios.empty());
  for (const auto& sc : {scenarios.front(), scenarios.back()}) {
    auto st = game.value()->new_state(sc.id, 11);
    ASSERT_TRUE(st.is_ok()) << st.error().to_string();
    auto s = std::move(st).value();
    auto agent = make_agent(spec, 5).value();
    std::vector<Action> legal;
    for (int d = 0; d < decisions && !s->is_terminal(); ++d) {
      const int side = s->current_player();
      const Action a = agent->choose(*s);
      s->legal_actions(legal);
      EXPECT_NE(std::find(legal.begin(), legal.end(), a), legal.end())
          << sc.id << " decision " << d << ": '" << s->action_to_string(a)
          << "' is not among the legal actions";
      const Status applied = s->apply(a);
      ASSERT_TRUE(applied.is_ok()) << sc.id << " decision " << d << " side " << side << ": "
                                   << applied.error().to_string();
    }
  }
}

TEST(AgentsOnBd, MctsPlaysLegalMoves) { plays_legal_moves("bd", "mcts:iters=8:rollout=4", 4); }
TEST(AgentsOnBd, GreedyPlaysLegalMoves) { plays_legal_moves("bd", "greedy", 4); }
TEST(AgentsOnBd, MctsIsDeterministicOnBd) {
  auto game = load_game("bd", default_data_dir());
  if (!game) GTEST_SKIP() << "bd is not installed: " << game.error().to_string();
  auto s = game.value()->new_state("grand-campaign", 3).value();
  auto a = make_agent("mcts:iters=8:rollout=4", 9).value();
  auto b = make_agent("mcts:iters=8:rollout=4", 9).value();
  EXPECT_EQ(s->action_to_string(a->choose(*s)), s->action_to_string(b->choose(*s)));
}

// AI regression scenarios (tests/ai/GAME/*.scn): each pins the choice of an agent in a
// position where players expect a sensible move (issue 7). Small budgets keep them fast.
void every_ai_scenario_passes(const std::string& game_id, int at_least) {
  auto game = load_game(game_id, default_data_dir());
  if (!game) GTEST_SKIP() << game_id << " is not installed: " << game.error().to_string();
  const Game* g = game.value().get();
  ScenarioEnv env;
  env.games = [g, game_id](const std::string& id) -> Result<const Game*> {
    if (id != game_id) return Error{"only " + game_id + " here", "", ""};
    return g;
  };
  // The same budget convention as `steppe check`: `budget B` is the mcts iteration count.
  env.agents = [](const std::string& name, uint64_t seed, int budget, const State& s) -> Result<Action> {
    std::string spec = name;
    if (budget > 0 && name.rfind("mcts", 0) == 0 && name.find("iters=") == std::string::npos)
      spec += ":iters=" + std::to_string(budget);
    auto agent = make_agent(spec, seed);
    if (!agent) return agent.error();
    return (*agent)->choose(s);
  };
  const std::filesystem::path dir =
      std::filesystem::path(STEPPE_DEFAULT_DATA_DIR).parent_path() / "tests/ai" / game_id;
  auto sum = run_scenario_paths({dir}, env);
  EXPECT_GE(sum.passed, at_least);
  for (const auto& r : sum.results)
    EXPECT_TRUE(r.passed) << r.file << ": " << (r.failure ? r.failure->to_string() : std::string("failed"));
}

TEST(AgentsOnBd, EveryAiScenarioTestFilePasses) { every_ai_scenario_passes("bd", 3); }
// ---------------------------------------------------------------------------------------
// BD macro-operations (src/games/bd/ai_heuristics.cpp, docs/ai.md "BD operations").

// Every operation is a sequence the side to move can play through: each step is accepted
// in turn on a clone and the same side is still to move after every step but the last.
// Returns the operations.
std::vector<ai::Operation> checked_operations(const State& s, const std::string& where) {
  auto h = ai::make_heuristics(s.game());
  std::vector<Action> legal;
  s.legal_actions(legal);
  std::vector<ai::Operation> ops;
  EXPECT_TRUE(h->operations(s, legal, ops)) << where << ": no operations";
  const int side = s.current_player();
  for (const auto& op : ops) {
    EXPECT_FALSE(op.steps.empty()) << where << ": " << op.label;
    EXPECT_GE(op.prior, 0.0f) << where << ": " << op.label;
    if (op.steps.empty()) continue;
    EXPECT_NE(std::find(legal.begin(), legal.end(), op.steps.front()), legal.end())
        << where << ": " << op.label << " starts with an action that is not legal";
    auto c = s.clone();
    for (size_t k = 0; k < op.steps.size(); ++k) {
      EXPECT_EQ(c->current_player(), side) << where << ": " << op.label << " step " << k;
      const Status applied = c->apply(op.steps[k]);
      EXPECT_TRUE(applied.is_ok()) << where << ": " << op.label << " step " << k << " '"
                                   << c->action_to_string(op.steps[k])
                                   << "': " << applied.error().to_string();
    }
  }
  return ops;
}

// One set-up line of a scenario test ("place german 4Pz 2710") on `s`.
Status set_line(State& s, const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string w; in >> w;) words.push_back(w);
  return s.test_set(words);
}

// Takes a scenario's own units off the map (a test then places its own); the first
// refusal, naming the unit.
Status remove_scenario_units(State& s) {
  const auto& bs = dynamic_cast<const bd::BdState&>(s);
  for (int u = 0; u < bs.num_units(); ++u)
    if (bs.unit(u).where == bd::kOnMap) {
      const Status st = s.test_set({"remove", bs.def(u).id});
      if (!st.is_ok()) return Error{"cannot remove " + bs.def(u).id + ": " + st.error().to_string(), "", ""};
    }
  return Status::ok();
}

std::unique_ptr<State> bd_position(const Game& game, const std::vector<std::string>& lines) {
  auto s = game.new_state("empty", 3).value();
  for (const auto& line : lines) {
    const Status st = set_line(*s, line);
    EXPECT_TRUE(st.is_ok()) << line << ": " << (st.is_ok() ? "" : st.error().to_string());
  }
  return s;
}

std::vector<std::string> op_firsts(const State& s, const std::vector<ai::Operation>& ops) {
  std::vector<std::string> out;
  out.reserve(ops.size());
  for (const auto& op : ops) out.push_back(s.action_to_string(op.steps.front()));
  return out;
}

TEST(BdOperations, MovementPhaseOperationsArePlayableAndFewerThanTheMoves) {
  auto game = load_game("bd", default_data_dir());
  if (!game) GTEST_SKIP() << "bd is not installed: " << game.error().to_string();
  auto s = bd_position(*game.value(),
                       {"blank-map", "turn 14", "phase german-movement", "luftwaffe 0", "city 2609 Testgrad",
                        "control 2609 soviet", "place german 4Pz 2710", "place german 3Pz 2710",
                        "place german Inf 2710", "place german I1 2712", "place soviet 16A 2405"});
  std::vector<Action> legal;
  s->legal_actions(legal);
  const auto ops = checked_operations(*s, "movement");
  ASSERT_FALSE(ops.empty());
  EXPECT_LT(ops.size() * 10, legal.size()) << "operations must cut the branching";
  bool end = false;
  std::set<int> movers;
  for (const auto& op : ops) {
    // One unit's move: no stack operation (docs/performance.md, "Why Citadel is lost").
    EXPECT_EQ(op.steps.size(), 1u) << op.label;
    if (op.steps.front().verb == bd::kMove) movers.insert(op.steps.front().args[0]);
    if (op.steps.front().verb == bd::kEndPhase) end = true;
  }
  EXPECT_EQ(movers.size(), 4u) << "each of the four German units has its own operations";
  EXPECT_TRUE(end) << "the phase can always be ended";
  // Each unit keeps its best move by the prior, so the city in reach is among them.
  const auto firsts = op_firsts(*s, ops);
  bool city = false;
  for (const auto& f : firsts) city = city || f.find("2609") == f.size() - 4;
  EXPECT_TRUE(city) << "a move into the undefended city 2609";
  // Deterministic: the same position gives the same operations.
  std::vector<ai::Operation> again;
  ASSERT_TRUE(ai::make_heuristics(*game.value())->operations(*s, legal, again));
  EXPECT_EQ(op_firsts(*s, again), firsts);
}

// 13.4: the German must hold 2 of Leningrad, Moscow and Stalingrad. Holding Moscow, his
// panzer corps can take Stalingrad (two hexes east) or Westgrad (three hexes west, so one
// hex more ground). An evaluation that counts every city and hex alike prefers Westgrad;
// the scenario's condition makes Stalingrad worth more. (A scenario test cannot ask the
// agents: the scenario's own units, which it would have to take off one by one, have
// better moves.)
TEST(BdEvaluation, ShortScenarioConditionsOutweighCitiesAndGround) {
  auto game = load_game("bd", default_data_dir());
  if (!game) GTEST_SKIP() << "bd is not installed: " << game.error().to_string();
  auto s = game.value()->new_state("blue-kremlin", 3).value();
  const Status removed = remove_scenario_units(*s);  // the scenario's own units off the map
  ASSERT_TRUE(removed.is_ok()) << removed.error().to_string();
  for (const std::string line :
       {"blank-map", "turn 13", "phase german-movement", "luftwaffe 0", "city 1606 Moskva",
        "control 1606 german", "city 2501 Stalingrad", "control 2501 soviet", "control 2502 soviet",
        "control 2504 soviet", "control 2505 soviet", "city 2506 Westgrad", "control 2506 soviet",
        "place german 4Pz 2503", "mp 4Pz 3"}) {
    ASSERT_TRUE(set_line(*s, line).is_ok()) << line;
  }
  auto value_after = [&](const std::string& move) {
    auto c = s->clone();
    const auto a = c->parse_action(move);
    EXPECT_TRUE(a.is_ok()) << move;
    if (!a.is_ok()) return 0.0;
    const Status applied = c->apply(a.value());
    EXPECT_TRUE(applied.is_ok()) << move << ": " << (applied.is_ok() ? "" : applied.error().to_string());
    std::vector<double> v;
    ai::make_heuristics(*game.value())->evaluate(*c, v);
    return v.at(bd::kGerman);
  };
  const double stalingrad = value_after("move 4Pz 2503 2502 2501");
  const double westgrad = value_after("move 4Pz 2503 2504 2505 2506");
  EXPECT_GT(stalingrad, westgrad + 0.05);
}

// The German value of What If 1942 on turn `turn` with the eastern cities `taken` (start
// Soviet, now German) and Breslau (2320) lost or held.
double what_if_value(const Game& game, int turn, const std::vector<std::string>& taken, bool breslau_lost) {
  auto s = game.new_state("what-if-1942", 3).value();
  auto set = [&](const std::string& line) { EXPECT_TRUE(set_line(*s, line).is_ok()) << line; };
  set("turn " + std::to_string(turn));
  // Control first: every set-up line but start-control rebases the start on it.
  for (const std::string& h : taken) set("control " + h + " german");
  if (breslau_lost) set("control 2320 soviet");
  for (const std::string& h : taken) set("start-control " + h + " soviet");
  set("start-control 2320 german");
  std::vector<double> v;
  ai::make_heuristics(game)->evaluate(*s, v);
  return v.at(bd::kGerman);
}

// 15.4: What If's German wins by holding every western city (and the USIR) with one
// eastern city taken; anything short of either side's conditions is a draw. With four
// eastern cities taken and Breslau (2320) lost, retaking Breslau wins the game where two
// more eastern cities only add to a draw. Counted linearly (each side's missing
// conditions against the other's), two more cities were worth more.
TEST(BdEvaluation, WhatIfValuesTheLostWesternCityOverMoreEasternOnes) {
  auto game = load_game("bd", default_data_dir());
  if (!game) GTEST_SKIP() << "bd is not installed: " << game.error().to_string();
  const std::vector<std::string> four = {"1813", "2106", "2311", "2501"};
  const double retaken = what_if_value(*game.value(), 13, four, false);
  const double two_more =
      what_if_value(*game.value(), 13, {"1813", "2106", "2311", "2501", "2604", "2607"}, true);
  EXPECT_GT(retaken, two_more + 0.05);
}

// The same early (GT10, four turns before 15.4 is checked): Breslau held with four eastern
// cities taken is worth more than Breslau lost with ten, since the six more count for
// nothing in 15.4. With a city at 1.5 VP-equivalents, as in the other short scenarios, the
// ten scored higher, and the German drove east and never turned back.
TEST(BdEvaluation, WhatIfEarlyValuesAWesternCityOverSixEasternOnes) {
  auto game = load_game("bd", default_data_dir());
  if (!game) GTEST_SKIP() << "bd is not installed: " << game.error().to_string();
  const double held = what_if_value(*game.value(), 10, {"1813", "2106", "2311", "2501"}, false);
  const double ten =
      what_if_value(*game.value(), 10,
                    {"1813", "2106", "2311", "2501", "2604", "2607", "1011", "1114", "2104", "2306"}, true);
  EXPECT_GT(held, ten + 0.05);
}

// A lost start city pulls its side's units back toward it (13.4, 14.4, 14.10, 15.4): a
// German who took Moscow and Stalingrad in Blue & Kremlin left Vitebsk (1711), which a
// random Soviet's first move had entered, in Soviet hands to the end, since its value was
// flat until a unit could enter it in one move. With 2320 (Breslau) lost and nothing else
// on the map, a panzer corps three hexes from it is worth more than one seven hexes off.
TEST(BdEvaluation, ALostStartCityPullsItsSideBack) {
  auto game = load_game("bd", default_data_dir());
  if (!game) GTEST_SKIP() << "bd is not installed: " << game.error().to_string();
  auto value_with_pz_at = [&](const std::string& hex) {
    auto s = game.value()->new_state("blue-kremlin", 3).value();
    EXPECT_TRUE(remove_scenario_units(*s).is_ok());
    // Every set-up line but start-control rebases the start on the control it leaves.
    const std::vector<std::string> lines = {"place german 4Pz " + hex, "supply 4Pz overland",
                                            "control 2320 soviet", "start-control 2320 german"};
    for (const std::string& line : lines) EXPECT_TRUE(set_line(*s, line).is_ok()) << line;
    std::vector<double> v;
    ai::make_heuristics(*game.value())->evaluate(*s, v);
    return v.at(bd::kGerman);
  };
  // Three hexes off (beyond threatened_vp's two) and seven.
  const double near = value_with_pz_at("2020");
  const double far = value_with_pz_at("1620");
  EXPECT_GT(near, far + 0.01);
}

// Far ahead, the value must still tell positions apart: tanh of the Grand Campaign's VP
// 400 is 1.0 in a double, so Moscow garrisoned and Moscow left empty in front of a panzer
// corps (4.15's surrender roll) scored alike and a side winning by a mile walked its
// garrison out (a random German took Moscow in Manstein's Gambit).
TEST(BdEvaluation, FarAheadAnEmptyMoscowStillCosts) {
  auto game = load_game("bd", default_data_dir());
  if (!game) GTEST_SKIP() << "bd is not installed: " << game.error().to_string();
  auto soviet_value = [&](const std::string& army_hex) {
    auto s = game.value()->new_state("grand-campaign", 3).value();
    EXPECT_TRUE(remove_scenario_units(*s).is_ok());  // the scenario's own units off the map
    const std::vector<std::string> lines = {"blank-map",
                                            "turn 14",
                                            "phase soviet-movement",
                                            "luftwaffe 0",
                                            "city 1606 Moscow",
                                            "control 1606 soviet",
                                            "place german 4Pz 1609",
                                            "place soviet 16A " + army_hex,
                                            "vp -400"};
    for (const std::string& line : lines) EXPECT_TRUE(set_line(*s, line).is_ok()) << line;
    std::vector<double> v;
    ai::make_heuristics(*game.value())->evaluate(*s, v);
    return v.at(bd::kSoviet);
  };
  const double garrisoned = soviet_value("1606");
  const double empty = soviet_value("1604");
  EXPECT_LT(garrisoned, 1.0);
  EXPECT_GT(garrisoned, empty);
}

// 11.26: after a Bloodbath the attacker chooses which units pay, one at a time. In that
// pending state the defenders are already gone; the evaluation must count what the
// attacker still owes, or the one-ply look prefers "convert-bb bb" for a gain it does not
// pay for (the German GT1 attacks of the pace runs kept every Bloodbath).
TEST(BdEvaluation, CountsTheBloodbathStillOwed) {
  auto game = load_game("bd", default_data_dir());
  if (!game) GTEST_SKIP() << "bd is not installed: " << game.error().to_string();
  auto s = game.value()->new_state("blue-kremlin", 3).value();
  const auto& bs = dynamic_cast<const bd::BdState&>(*s);
  const Status removed = remove_scenario_units(*s);  // the scenario's own units off the map
  ASSERT_TRUE(removed.is_ok()) << removed.error().to_string();
  for (const std::string line :
       {"blank-map", "turn 2", "phase german-assault", "luftwaffe 0", "place german A1 2709 attack 5",
        "place german A2 2709 attack 5", "place german A3 2709 attack 5", "place soviet 16A 2609 cf 3",
        "place soviet 20A 2104", "place german G9 1916", "dice 5"}) {
    ASSERT_TRUE(set_line(*s, line).is_ok()) << line;
  }
  auto play = [&](State& st, const std::string& move) {
    const auto a = st.parse_action(move);
    ASSERT_TRUE(a.is_ok()) << move;
    const Status applied = st.apply(a.value());
    ASSERT_TRUE(applied.is_ok()) << move << ": " << (applied.is_ok() ? "" : applied.error().to_string());
  };
  auto value = [&](const State& st) {
    std::vector<double> v;
    ai::make_heuristics(*game.value())->evaluate(st, v);
    return v.at(bd::kGerman);
  };
  play(*s, "attack 2609 from 2709");  // 15:3 = 5:1, die 5: BB (11.25)
  play(*s, "convert-bb bb");
  int side = -1;
  ASSERT_EQ(bs.bloodbath_owed(side), 3) << "16A's defence 3 is owed";
  EXPECT_EQ(side, bd::kGerman);
  auto paid = s->clone();
  play(*paid, "bb-loss A1");
  EXPECT_EQ(dynamic_cast<const bd::BdState&>(*paid).bloodbath_owed(side), 0);
  // Owed or paid, nearly the same value (the owed count is an estimate: it counts 6 where
  // A1, a 5-3, is 8). Without it the two differ by 0.09.
  EXPECT_NEAR(value(*s), value(*paid), 0.04);
}

// 10.2 lets a unit that has moved go on while no other unit moves. Its operations, its
// prior and the root of mcts never take it back to the hex it started the phase in, nor to
// any hex no farther from there (an advance scored from each end, or near-equal moves
// picked by noise, sent units back and forth).
TEST(BdOperations, AUnitThatMovedIsNotOfferedItsWayBack) {
  auto game = load_game("bd", default_data_dir());
  if (!game) GTEST_SKIP() << "bd is not installed: " << game.error().to_string();
  auto s = game.value()->new_state("empty", 3).value();
  // 2710 is a German city two hexes from a Soviet army: empty, it is the hex a garrison
  // would go to (the cover operation), from which 4Pz has just moved away.
  for (const std::string line :
       {"blank-map", "turn 14", "phase german-movement", "luftwaffe 0", "city 2710 Testburg",
        "control 2710 german", "place german 4Pz 2710", "place soviet 16A 2708"}) {
    ASSERT_TRUE(set_line(*s, line).is_ok()) << line;
  }
  const auto a = s->parse_action("move 4Pz 2710 2711");
  ASSERT_TRUE(a.is_ok());
  ASSERT_TRUE(s->apply(a.value()).is_ok());
  std::vector<Action> legal;
  s->legal_actions(legal);
  const auto back = s->parse_action("move 4Pz 2711 2710");
  ASSERT_TRUE(back.is_ok());
  ASSERT_NE(std::find(legal.begin(), legal.end(), back.value()), legal.end()) << "the rules allow it";
  std::vector<ai::Operation> ops;
  ASSERT_TRUE(ai::make_heuristics(*game.value())->operations(*s, legal, ops));
  bool moves = false;
  for (const auto& op : ops) {
    EXPECT_NE(s->action_to_string(op.steps.front()), "move 4Pz 2711 2710");
    moves = moves || op.steps.front().verb == bd::kMove;
  }
  EXPECT_TRUE(moves) << "4Pz may still go on";
  // Nor do the prior (0: never worth trying) and so the raw actions the root of mcts offers
  // beside the operations, which had brought the way back in again.
  std::vector<float> weights;
  ai::make_heuristics(*game.value())->prior(*s, legal, weights);
  const auto at = static_cast<size_t>(std::find(legal.begin(), legal.end(), back.value()) - legal.begin());
  EXPECT_EQ(weights.at(at), 0.0f);
  auto cfg = ai::parse_mcts_options("iters=40");
  ASSERT_TRUE(cfg.is_ok());
  ai::MctsAgent agent(cfg.value(), 5);
  EXPECT_NE(s->action_to_string(agent.choose(*s)), "move 4Pz 2711 2710");
  ASSERT_FALSE(agent.last_stats().root.empty());
  for (const auto& e : agent.last_stats().root) EXPECT_NE(s->action_to_string(e.first), "move 4Pz 2711 2710");
  // Nor a hex no farther from 2710 than 2711 is (the first move could have gone there
  // along the same path); a hex farther on still is.
  const int start = bd::parse_hex("2710");
  int farther = 0, nearer = 0;
  for (size_t i = 0; i < legal.size(); ++i) {
    const Action& m = legal[i];
    if (m.verb != bd::kMove || s->action_to_string(m).rfind("move 4Pz ", 0) != 0) continue;
    const bool way_back = bd::hex_distance(start, m.args[m.nargs - 1]) <= 1;
    (way_back ? nearer : farther) += 1;
    EXPECT_EQ(weights[i] == 0.0f, way_back) << s->action_to_string(m);
  }
  EXPECT_GT(farther, 0);
  EXPECT_GT(nearer, 1) << "the way back and a hex beside it";
  for (const auto& op : ops) {
    const Action& m = op.steps.front();
    if (m.verb == bd::kMove) {
      EXPECT_GT(bd::hex_distance(start, m.args[m.nargs - 1]), 1) << op.label;
    }
  }
}

// After a mobile assault (10.24) the assaulting stack may go on from the hex it cleared,
// and hexes its first move could not reach (through the enemy) are open: no hex is a way
// back then. 4Pz and 5Pz, from 2404, clear 2403 (the 10.24 example) and stand there with
// 6 MP; hexes no farther from 2404 than 2403 keep their weight.
TEST(BdOperations, AfterAMobileAssaultNoHexIsAWayBack) {
  auto game = load_game("bd", default_data_dir());
  if (!game) GTEST_SKIP() << "bd is not installed: " << game.error().to_string();
  auto s = bd_position(*game.value(), {"blank-map", "turn 10", "phase german-movement", "luftwaffe 0",
                                       "city 2403", "place soviet 16A 2403 cf 1", "place german 4Pz 2404",
                                       "place german 5Pz 2404", "dice 1"});
  ASSERT_NE(s, nullptr);
  const auto ma = s->parse_action("mobile-assault 2403 with 4Pz 5Pz");
  ASSERT_TRUE(ma.is_ok()) << ma.error().to_string();
  ASSERT_TRUE(s->apply(ma.value()).is_ok());
  const auto& bs = dynamic_cast<const bd::BdState&>(*s);
  int pz = -1;
  for (int u = 0; u < bs.num_units(); ++u)
    if (bs.def(u).label == "4Pz") pz = u;
  ASSERT_GE(pz, 0);
  ASSERT_EQ(bd::hex_id(bs.unit(pz).hex), "2403") << "the 10.24 example clears 2403 (DE)";
  std::vector<Action> legal;
  s->legal_actions(legal);
  std::vector<float> weights;
  ai::make_heuristics(*game.value())->prior(*s, legal, weights);
  const int start = bd::parse_hex("2404");
  int near = 0;
  for (size_t i = 0; i < legal.size(); ++i) {
    const Action& m = legal[i];
    if (m.verb != bd::kMove || m.args[0] != pz || bd::hex_distance(start, m.args[m.nargs - 1]) > 1) continue;
    ++near;
    EXPECT_GT(weights[i], 0.0f) << s->action_to_string(m);
  }
  EXPECT_GT(near, 0) << "4Pz may go on to a hex beside 2404";
}

TEST(BdOperations, AssaultOperationsAttackEachHexOnceWithTheBestSet) {
  auto game = load_game("bd", default_data_dir());
  if (!game) GTEST_SKIP() << "bd is not installed: " << game.error().to_string();
  // 2609 (cf 1) is next to 2709 and 2710; 2610 (cf 12) is next to 2710 too. The German's
  // best column against 2609 needs only some of his units; the others stay free.
  auto s = bd_position(*game.value(), {"blank-map", "turn 14", "phase german-assault", "luftwaffe 0",
                                       "place german 4Pz 2709 attack 5", "place german Inf 2709 attack 5",
                                       "place german 3Pz 2710 attack 5", "place soviet 16A 2609 cf 1",
                                       "place soviet 17A 2610 cf 12"});
  std::vector<Action> legal;
  s->legal_actions(legal);
  const auto ops = checked_operations(*s, "assault");
  std::vector<std::string> attacks;
  for (const auto& f : op_firsts(*s, ops))
    if (f.rfind("attack", 0) == 0) attacks.push_back(f);
  ASSERT_EQ(attacks.size(), 2u) << "one attack per enemy hex (no Luftwaffe left)";
  EXPECT_LT(ops.size(), legal.size());
  // Against 2609 (cf 1) the two units of 2709 already reach the CRT's last column (10:1,
  // beyond 7:1); adding 3Pz from 2710 would change nothing, so the operation leaves it free
  // for 2610. One unit alone (5:1) is a worse column.
  EXPECT_TRUE(std::find(attacks.begin(), attacks.end(), "attack 2609 from 2709") != attacks.end())
      << attacks[0] << " / " << attacks[1];
  EXPECT_TRUE(std::find(attacks.begin(), attacks.end(), "attack 2610 from 2710 2709") != attacks.end())
      << attacks[0] << " / " << attacks[1];
}

// The same on the real scenarios: positions reached by seeded random play, two movement
// and two assault positions of each scenario.
TEST(BdOperations, ScenarioPositionsGivePlayableOperations) {
  auto game = load_game("bd", default_data_dir());
  if (!game) GTEST_SKIP() << "bd is not installed: " << game.error().to_string();
  const Game& g = *game.value();
  for (const char* scenario : {"citadel", "mansteins-gambit", "grand-campaign", "road-back"}) {
    auto s = g.new_state(scenario, 7).value();
    auto random = make_agent("random", 3).value();
    auto h = ai::make_heuristics(g);
    int movement = 0, assault = 0;
    std::vector<Action> legal;
    std::vector<ai::Operation> ops;
    for (int d = 0; d < 3000 && !s->is_terminal() && (movement < 2 || assault < 2); ++d) {
      s->legal_actions(legal);
      if (h->operations(*s, legal, ops)) {
        const bool moving =
            std::any_of(legal.begin(), legal.end(), [&](const Action& a) { return a.verb == bd::kMove; });
        int& seen = moving ? movement : assault;
        if (seen < 2 && (d % 7) == 0) {
          ++seen;
          const auto checked =
              checked_operations(*s, std::string(scenario) + " decision " + std::to_string(d));
          EXPECT_LT(checked.size(), legal.size()) << scenario << " decision " << d;
        }
      }
      ASSERT_TRUE(s->apply(random->choose(*s)).is_ok());
    }
    EXPECT_EQ(movement, 2) << scenario;
    EXPECT_EQ(assault, 2) << scenario;
  }
}

TEST(AgentsOnMoscow41, MctsPlaysLegalMoves) { plays_legal_moves("moscow41", "mcts:iters=8:rollout=4", 6); }
TEST(AgentsOnMoscow41, GreedyPlaysLegalMoves) { plays_legal_moves("moscow41", "greedy", 6); }
TEST(AgentsOnMoscow41, EveryAiScenarioTestFilePasses) { every_ai_scenario_passes("moscow41", 3); }

// ---------------------------------------------------------------------------------------
// Moscow '41 fog of war (1.5) for the agents: no agent may peek at the hidden blocks.

// A deliberately peeking Moscow '41 position: its determinization copies the true hidden
// blocks (only the dice are reseeded). It exists only to show that the no-peek test below
// would catch an agent or a sampler that looked at the truth.
class PeekingMoscow41 final : public moscow41::Moscow41State {
 public:
  explicit PeekingMoscow41(const moscow41::Moscow41State& s) : Moscow41State(s) {}
  std::unique_ptr<State> clone() const override { return std::make_unique<PeekingMoscow41>(*this); }
  void resample_hidden(int viewer, uint64_t seed) override {
    (void)viewer;
    dice().reseed(seed);
  }
};

// Two campaign positions at the German Command Segment (Guderian activated) that differ
// only in what the German cannot see: the Soviet block in an area next to Guderian's
// panzers is at full strength in one and at 1 in the other, and another hidden block has
// swapped places with one in the pool.
struct TwinPositions {
  std::unique_ptr<State> full, weak;
};

TwinPositions moscow_twins(const Game& game) {
  using namespace moscow41;
  const auto& g = dynamic_cast<const Moscow41Game&>(game);
  auto a = game.new_state("campaign", 4).value();
  auto& sa = dynamic_cast<Moscow41State&>(*a);
  for (const char* step : {"ti", "activate HQ2Pg", "commands"}) {
    const Status s = a->apply(a->parse_action(step).value());
    EXPECT_TRUE(s.is_ok()) << step;
  }
  const int guderian = sa.block(g.block_index("HQ2Pg")).loc;
  int target = -1, other = -1, pooled = -1;
  for (size_t i = 0; i < g.blocks().size(); ++i) {
    const int b = static_cast<int>(i);
    const BlockDef& d = g.blocks()[i];
    const BlockState& st = sa.block(b);
    if (d.side != kSoviet || d.kind != Kind::kCombat) continue;
    if (st.loc == kLocPool && pooled < 0) pooled = b;
    if (st.loc < 0 || st.revealed || st.face_up) continue;
    const bool next_to = g.adjacent(guderian, st.loc);
    if (next_to && target < 0 && st.level == 0 && d.levels.front() >= 3)
      target = b;
    else if (!next_to && other < 0)
      other = b;
  }
  EXPECT_GE(target, 0) << "a full-strength hidden Soviet block next to Guderian";
  EXPECT_GE(other, 0);
  EXPECT_GE(pooled, 0);
  auto b = a->clone();
  auto& sb = dynamic_cast<Moscow41State&>(*b);
  const auto id = [&](int x) { return g.blocks()[static_cast<size_t>(x)].id; };
  const auto at = [&](int x) { return g.map().id(sa.block(x).loc); };
  EXPECT_TRUE(sb.test_set({"place", id(target), at(target), "1"}).is_ok());
  EXPECT_TRUE(sb.test_set({"place", id(pooled), at(other)}).is_ok());
  EXPECT_TRUE(sb.test_set({"pool", id(other)}).is_ok());
  return {std::move(a), std::move(b)};
}

TEST(AgentsOnMoscow41, ChoicesDoNotDependOnHiddenEnemyBlocks) {
  auto game = load_game("moscow41", default_data_dir());
  if (!game) GTEST_SKIP() << "moscow41 is not installed: " << game.error().to_string();
  TwinPositions t = moscow_twins(*game.value());
  ASSERT_NE(t.full->state_hash(), t.weak->state_hash()) << "the two positions must really differ";
  ASSERT_EQ(t.full->observation(0), t.weak->observation(0)) << "the German sees the same";
  ASSERT_NE(t.full->observation(1), t.weak->observation(1));
  ASSERT_EQ(t.full->current_player(), 0);
  for (const char* spec : {"mcts:iters=64:rollout=8", "greedy", "random"}) {
    auto x = make_agent(spec, 17).value();
    auto y = make_agent(spec, 17).value();
    auto sa = t.full->clone();
    auto sb = t.weak->clone();
    for (int d = 0; d < 5 && !sa->is_terminal() && sa->current_player() == 0; ++d) {
      ASSERT_EQ(sa->observation(0), sb->observation(0)) << spec << " decision " << d;
      const Action ca = x->choose(*sa), cb = y->choose(*sb);
      ASSERT_EQ(sa->action_to_string(ca), sb->action_to_string(cb)) << spec << " decision " << d;
      ASSERT_TRUE(sa->apply(ca).is_ok());
      ASSERT_TRUE(sb->apply(cb).is_ok());
    }
  }
  // The whole search, not only its answer, is the same: every root edge's visits and value.
  ai::MctsConfig config;
  config.iterations = 64;
  config.rollout_depth = 8;
  ai::MctsAgent x(config, 5), y(config, 5);
  (void)x.choose(*t.full);
  (void)y.choose(*t.weak);
  ASSERT_EQ(x.last_stats().root.size(), y.last_stats().root.size());
  for (size_t i = 0; i < x.last_stats().root.size(); ++i) {
    EXPECT_EQ(x.last_stats().root[i].visits, y.last_stats().root[i].visits) << "edge " << i;
    EXPECT_DOUBLE_EQ(x.last_stats().root[i].mean, y.last_stats().root[i].mean) << "edge " << i;
  }
}

// The control: the same comparison with a sampler that copies the truth must tell the two
// positions apart, or the test above would prove nothing.
TEST(AgentsOnMoscow41, APeekingSamplerWouldBeCaught) {
  auto game = load_game("moscow41", default_data_dir());
  if (!game) GTEST_SKIP() << "moscow41 is not installed: " << game.error().to_string();
  TwinPositions t = moscow_twins(*game.value());
  const PeekingMoscow41 full(dynamic_cast<const moscow41::Moscow41State&>(*t.full));
  const PeekingMoscow41 weak(dynamic_cast<const moscow41::Moscow41State&>(*t.weak));
  ASSERT_EQ(full.observation(0), weak.observation(0));
  ai::MctsConfig config;
  config.iterations = 64;
  config.rollout_depth = 8;
  ai::MctsAgent x(config, 5), y(config, 5);
  const Action ca = x.choose(full), cb = y.choose(weak);
  bool differs = x.last_stats().root.size() != y.last_stats().root.size();
  for (size_t i = 0; !differs && i < x.last_stats().root.size(); ++i)
    differs = x.last_stats().root[i].visits != y.last_stats().root[i].visits ||
              x.last_stats().root[i].mean != y.last_stats().root[i].mean;
  EXPECT_TRUE(differs) << "a peeking search must see the hidden strength";
  std::cout << "[ info     ] peeking mcts chooses '" << full.action_to_string(ca)
            << "' against full strength, '" << weak.action_to_string(cb) << "' against strength 1\n";
}

}  // namespace
}  // namespace steppe

namespace steppe {
namespace {

// ---------------------------------------------------------------------------------------
// The A&A-style Barbarossa (src/games/aa/ai/, docs/ai.md "A&A-style Barbarossa").
TEST(AgentsOnAa, GreedyPlaysLegalMoves) { plays_legal_moves("aa", "greedy", 4); }
TEST(AgentsOnAa, MctsPlaysLegalMoves) { plays_legal_moves("aa", "mcts:iters=4", 3); }
TEST(AgentsOnAa, EveryAiScenarioTestFilePasses) { every_ai_scenario_passes("aa", 3); }

// The heuristics name the verb table's numbers (verbs.cpp); they must match the notation.
TEST(AgentsOnAa, VerbNumbersMatchTheNotation) {
  auto game = load_game("aa", default_data_dir());
  ASSERT_TRUE(game.is_ok()) << game.error().to_string();
  auto s = game.value()->new_state("barbarossa", 1).value();
  const std::vector<std::pair<std::string, int>> verbs = {
      {"buy 1 infantry", 1},
      {"move 1 infantry warsaw brest", 2},
      {"battle brest", 3},
      {"retreat brest warsaw", 4},
      {"place 1 infantry warsaw", 5},
      {"end", 6},
      {"casualties infantry", 7},
      {"stand brest", 8},
      {"withdraw brest", 9},
      {"pull 1 infantry brest warsaw", 10},
      {"load 1 infantry warsaw", 11},
      {"rail warsaw brest", 12},
      {"sbr 1 bomber warsaw moscow-west industrial_complex", 13},
      {"repair warsaw railroad 1", 14}};
  for (const auto& [text, verb] : verbs) {
    auto a = s->parse_action(text);
    ASSERT_TRUE(a.is_ok()) << text;
    EXPECT_EQ(a->verb, verb) << text;
  }
}

// The threat term: an empty Moscow with German armor next to it costs Russia more than a
// garrisoned one, and more than Gorky's (fewer VP, no city that wins).
TEST(AgentsOnAa, EvaluationChargesAnEmptyMoscowUnderThreat) {
  auto game = load_game("aa", default_data_dir());
  ASSERT_TRUE(game.is_ok()) << game.error().to_string();
  auto h = ai::make_heuristics(*game.value());
  auto make = [&](int garrison) {
    auto st = game.value()->new_state("barbarossa", 1).value();
    EXPECT_TRUE(st->test_set({"clear"}).is_ok());
    EXPECT_TRUE(st->test_set({"step", "3", "axis", "axis", "purchase"}).is_ok());
    EXPECT_TRUE(st->test_set({"control", "smolensk", "axis"}).is_ok());
    EXPECT_TRUE(st->test_set({"units", "smolensk", "germany:medium_armor", "6"}).is_ok());
    EXPECT_TRUE(st->test_set({"units", "moscow-west", "russia:infantry", std::to_string(garrison)}).is_ok());
    return st;
  };
  auto empty = make(0), held = make(8);
  const auto& e = dynamic_cast<const aa::AaState&>(*empty);
  const auto& g = dynamic_cast<const aa::AaState&>(*held);
  const double empty_threat = aa::aa_eval_terms(*h, e).threats;
  const double held_threat = aa::aa_eval_terms(*h, g).threats;
  EXPECT_GT(empty_threat, held_threat + 30) << empty_threat << " vs " << held_threat;
  std::vector<double> ve, vg;
  h->evaluate(*empty, ve);
  h->evaluate(*held, vg);
  EXPECT_GT(ve[aa::kAxis], vg[aa::kAxis]);
}

// The greedy Axis attacks at good odds: given a won battle next door, its first combat move
// is into it (the exact calculator values the attack), over several seeds.
TEST(AgentsOnAa, GreedyAttacksAtGoodOddsOverSeeds) {
  auto game = load_game("aa", default_data_dir());
  ASSERT_TRUE(game.is_ok()) << game.error().to_string();
  for (uint64_t seed : {1, 2, 3, 4, 5}) {
    auto st = game.value()->new_state("barbarossa", seed).value();
    ASSERT_TRUE(st->test_set({"clear"}).is_ok());
    ASSERT_TRUE(st->test_set({"control", "brest", "axis"}).is_ok());
    ASSERT_TRUE(st->test_set({"step", "3", "axis", "axis", "combat-move"}).is_ok());
    ASSERT_TRUE(st->test_set({"units", "brest", "germany:medium_armor", "4"}).is_ok());
    ASSERT_TRUE(st->test_set({"units", "brest", "germany:supply", "2"}).is_ok());
    ASSERT_TRUE(st->test_set({"units", "minsk", "russia:infantry", "1"}).is_ok());
    ASSERT_TRUE(st->test_set({"units", "lvov", "russia:infantry", "9"}).is_ok());
    auto agent = make_agent("greedy", seed).value();
    const std::string chosen = st->action_to_string(agent->choose(*st));
    EXPECT_EQ(chosen.rfind("move ", 0), 0U) << chosen;
    EXPECT_NE(chosen.find("medium_armor brest minsk"), std::string::npos)
        << "seed " << seed << ": " << chosen;
  }
}

// ---------------------------------------------------------------------------------------
// The Dark Valley (src/games/dv/ai/, docs/ai.md "The Dark Valley").
// Barbarossa: Bagration opens with 8,016 rail moves, seconds of greedy search each.
TEST(AgentsOnDv, GreedyPlaysLegalMoves) { plays_legal_moves("dv", "greedy", 12, "barbarossa"); }
TEST(AgentsOnDv, MctsPlaysLegalMoves) { plays_legal_moves("dv", "mcts:iters=4", 6, "barbarossa"); }
TEST(AgentsOnDv, EveryAiScenarioTestFilePasses) { every_ai_scenario_passes("dv", 2); }

// The terms move the way the victory conditions do: Kiev taken is one VP hex and, in 1941,
// half of 3.2's first Axis condition; an empty Kiev next to an Axis unit is open to it; a
// Soviet army added to the map tips the forces to the Soviets.
TEST(AgentsOnDv, EvaluationFollowsVpObjectivesForcesAndOpenHexes) {
  auto game = load_game("dv", default_data_dir());
  ASSERT_TRUE(game.is_ok()) << game.error().to_string();
  auto make = [&](const std::vector<std::vector<std::string>>& words) {
    auto st = game.value()->new_state("empty", 1).value();
    EXPECT_TRUE(st->test_set({"turn", "2"}).is_ok());
    EXPECT_TRUE(st->test_set({"control", "4832", "soviet"}).is_ok());
    for (const auto& w : words) EXPECT_TRUE(st->test_set(w).is_ok()) << w[0];
    return st;
  };
  auto terms = [](const std::unique_ptr<State>& st) {
    return dv::dv_eval_terms(dynamic_cast<const dv::DvState&>(*st));
  };
  const auto base = terms(make({{"place", "1Pz", "4830"}, {"place", "8A", "5230"}}));
  const auto taken = terms(make({{"place", "1Pz", "4832"}, {"place", "8A", "5230"}}));
  EXPECT_DOUBLE_EQ(taken.vp, base.vp + 1);
  EXPECT_GT(taken.objectives, base.objectives);
  const auto open = terms(make({{"place", "1Pz", "4831"}, {"place", "8A", "5230"}}));
  EXPECT_GT(open.open, base.open);
  const auto covered = terms(make({{"place", "1Pz", "4831"}, {"place", "8A", "4832"}}));
  EXPECT_DOUBLE_EQ(covered.open, base.open);
  EXPECT_GT(
      base.forces,
      terms(make({{"place", "1Pz", "4830"}, {"place", "8A", "5230"}, {"place", "11A", "5231"}})).forces);
  auto h = ai::make_heuristics(*game.value());
  std::vector<double> vb, vt;
  h->evaluate(*make({{"place", "1Pz", "4830"}}), vb);
  h->evaluate(*make({{"place", "1Pz", "4832"}}), vt);
  EXPECT_GT(vt[dv::kAxis], vb[dv::kAxis]);
  EXPECT_DOUBLE_EQ(vt[dv::kSoviet], -vt[dv::kAxis]);
}
}  // namespace
}  // namespace steppe
