// Agents on the real games: every installed game's agents must choose legal actions from
// its scenarios. Skipped (with the reason) while no game is installed. Budgets are tiny:
// this checks legality and determinism on the real rules, not strength.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "ai/agent.h"
#include "ai/mcts.h"
#include "games/all_games.h"
#include "kernel/scenario_test.h"

namespace steppe {
namespace {

void plays_legal_moves(const std::string& game_id, const std::string& spec, int decisions) {
  auto game = load_game(game_id, default_data_dir());
  if (!game) GTEST_SKIP() << game_id << " is not installed: " << game.error().to_string();
  std::vector<ScenarioInfo> scenarios;
  for (const auto& sc : game.value()->scenarios())
    if (sc.id != "empty") scenarios.push_back(sc);
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

// AI regression scenarios (tests/ai/bd/*.scn): each pins the choice of an agent in a
// position where players expect a sensible move (issue 7). Small budgets keep them fast.
TEST(AgentsOnBd, EveryAiScenarioTestFilePasses) {
  auto game = load_game("bd", default_data_dir());
  if (!game) GTEST_SKIP() << "bd is not installed: " << game.error().to_string();
  const Game* g = game.value().get();
  ScenarioEnv env;
  env.games = [g](const std::string& id) -> Result<const Game*> {
    if (id != "bd") return Error{"only bd here", "", ""};
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
      std::filesystem::path(STEPPE_DEFAULT_DATA_DIR).parent_path() / "tests/ai/bd";
  auto sum = run_scenario_paths({dir}, env);
  EXPECT_GE(sum.passed, 3);
  for (const auto& r : sum.results)
    EXPECT_TRUE(r.passed) << r.file << ": " << (r.failure ? r.failure->to_string() : std::string("failed"));
}

}  // namespace
}  // namespace steppe
