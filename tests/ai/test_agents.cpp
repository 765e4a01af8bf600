#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <thread>

#include "ai/agent.h"
#include "ai/heuristics.h"
#include "ai/mcts.h"
#include "fixture_games.h"

namespace steppe {
void PrintTo(const Action& a, std::ostream* os) {
  *os << "verb " << a.verb << " args";
  for (int i = 0; i < a.nargs; ++i) *os << ' ' << a.args[i];
}
namespace {

using fixture::CardGame;
using fixture::CardState;
using fixture::NimGame;
using fixture::NimState;

std::unique_ptr<State> nim_state(const NimGame& g, const std::string& scenario, uint64_t seed = 1) {
  auto s = g.new_state(scenario, seed);
  EXPECT_TRUE(s.is_ok());
  return std::move(s).value();
}

std::unique_ptr<Agent> agent(const std::string& spec, uint64_t seed) {
  auto a = make_agent(spec, seed);
  EXPECT_TRUE(a.is_ok()) << (a.is_ok() ? "" : a.error().to_string());
  return std::move(a).value();
}

// Plays one game; returns the winning side (or -1 for a draw).
int play(State& s, Agent& a0, Agent& a1) {
  while (!s.is_terminal()) {
    Agent& a = s.current_player() == 0 ? a0 : a1;
    const Action act = a.choose(s);
    EXPECT_TRUE(s.apply(act).is_ok());
  }
  const auto r = s.returns();
  return r[0] > r[1] ? 0 : r[1] > r[0] ? 1 : -1;
}

TEST(AgentSpec, ParsesKnownAgentsAndPresets) {
  EXPECT_EQ(agent("random", 1)->name(), "random");
  EXPECT_EQ(agent("greedy", 1)->name(), "greedy");
  // The presets are turn clocks (docs/ai.md); "mcts" alone is the normal one.
  EXPECT_EQ(agent("mcts", 1)->name(), "mcts:iters=1000:turn_ms=5000");
  EXPECT_EQ(agent("mcts:normal", 1)->name(), "mcts:iters=1000:turn_ms=5000");
  EXPECT_EQ(agent("mcts:easy", 1)->name(), "mcts:iters=200:turn_ms=1500");
  EXPECT_EQ(agent("mcts:hard", 1)->name(), "mcts:iters=5000:turn_ms=20000");
  EXPECT_EQ(agent("mcts:c=2", 1)->name(), "mcts:iters=1000:turn_ms=5000:c=2");
  // A spec naming iters or ms without a turn budget is a fixed budget per decision,
  // wherever a preset stands: these replay exactly.
  EXPECT_EQ(agent("mcts:iters=77:c=2", 1)->name(), "mcts:iters=77:c=2");
  EXPECT_EQ(agent("mcts:hard:iters=77", 1)->name(), "mcts:iters=77");
  EXPECT_EQ(agent("mcts:iters=77:hard", 1)->name(), "mcts:iters=5000");
  EXPECT_EQ(agent("mcts:ms=50", 1)->name(), "mcts:iters=1000:ms=50");
  EXPECT_EQ(agent("mcts:iters=0:ms=50", 1)->name(), "mcts:iters=0:ms=50");
  // Turn budgets, alone or capped per decision; a name parses back to itself.
  EXPECT_EQ(agent("mcts:iters=0:turn_iters=3000", 1)->name(), "mcts:iters=0:turn_iters=3000");
  EXPECT_EQ(agent("mcts:turn_iters=3000", 1)->name(), "mcts:iters=1000:turn_iters=3000");
  EXPECT_EQ(agent("mcts:turn_ms=800:iters=50", 1)->name(), "mcts:iters=50:turn_ms=800");
  for (const char* spec : {"mcts", "mcts:easy", "mcts:iters=0:turn_iters=3000", "mcts:turn_ms=800:iters=50",
                           "mcts:iters=0:ms=50", "mcts:iters=77:c=2"}) {
    const std::string name = agent(spec, 1)->name();
    EXPECT_EQ(agent(name, 1)->name(), name) << spec;
  }
}

// Nim whose "turns" are six plies long (Heuristics::turn_key), so that one agent playing
// both sides makes six decisions a turn.
class NimTurnHeuristics final : public ai::Heuristics {
 public:
  int64_t turn_key(const State& state) const override { return state.result()["turn"].get<int64_t>() / 6; }
};

TEST(MctsTurnClock, SpreadsATurnsSimulationsOverItsDecisions) {
  NimGame g("test-nim-turns");
  const fixture::ScopedHeuristics<NimTurnHeuristics> heuristics("test-nim-turns");
  auto run = [&](uint64_t seed) {
    auto s = nim_state(g, "big");
    ai::MctsAgent a(ai::parse_mcts_options("iters=0:turn_iters=600").value(), seed);
    std::map<int64_t, std::pair<int, int>> per_turn;  // turn -> (decisions searched, simulations)
    std::vector<std::string> moves;
    while (!s->is_terminal()) {
      const int64_t turn = s->result()["turn"].get<int64_t>() / 6;
      const Action act = a.choose(*s);
      moves.push_back(s->action_to_string(act));
      if (!a.last_stats().root.empty() && a.last_stats().iterations > 0) {
        ++per_turn[turn].first;
        per_turn[turn].second += a.last_stats().iterations;
        EXPECT_EQ(a.turn_clock().key, turn);
        EXPECT_EQ(a.turn_clock().spent_iters, per_turn[turn].second);
      }
      EXPECT_TRUE(s->apply(act).is_ok());
    }
    return std::make_pair(per_turn, moves);
  };
  const auto [turns, moves] = run(7);
  ASSERT_GE(turns.size(), 3u);
  for (const auto& [turn, dec_sims] : turns) {
    const auto [decisions, sims] = dec_sims;
    // Never more than the turn's budget, but for the one simulation every decision runs.
    EXPECT_LE(sims, 600 + decisions) << "turn " << turn;
    // Once a turn's length is known, a full turn spends most of its budget.
    if (turn > 0 && decisions == 6) {
      EXPECT_GE(sims, 300) << "turn " << turn;
    }
  }
  // Counted in simulations, the clock is deterministic.
  EXPECT_EQ(run(7).second, moves);
}

// Prefers the highest nonempty pile, taken whole: a prior that a search of the position
// has no reason to agree with, so the spent turn's pick can be told apart.
class NimPriorTurnHeuristics final : public ai::Heuristics {
 public:
  int64_t turn_key(const State& state) const override { return state.result()["turn"].get<int64_t>() / 6; }
  void prior(const State& state, const std::vector<Action>& actions, std::vector<float>& out) const override {
    (void)state;
    out.clear();
    for (const Action& a : actions) out.push_back(static_cast<float>(1 + 100 * a.args[0] + a.args[1]));
  }
};

TEST(MctsTurnClock, ASpentTurnPlaysThePriorsFirstMoveWithoutASimulation) {
  NimGame g("test-nim-spent");
  const fixture::ScopedHeuristics<NimPriorTurnHeuristics> heuristics("test-nim-spent");
  auto s = nim_state(g, "big");  // piles 9 10 11 12
  // Two simulations a turn (six plies): the first decisions take them, the rest is spent.
  ai::MctsAgent a(ai::parse_mcts_options("iters=0:turn_iters=2").value(), 3);
  int searched = 0, spent = 0;
  while (!s->is_terminal() && s->result()["turn"].get<int>() < 6) {
    const bool turn_spent = a.turn_clock().started && a.turn_clock().spent_iters >= 2;
    const Json piles = s->full_json()["piles"];
    const Action act = a.choose(*s);
    if (turn_spent) {
      ++spent;
      EXPECT_EQ(a.last_stats().iterations, 0);
      int top = 3;
      while (piles[top].get<int>() == 0) --top;
      EXPECT_EQ(s->action_to_string(act),
                "take " + std::to_string(top) + " " + std::to_string(piles[top].get<int>()));
    } else {
      ++searched;
      EXPECT_GE(a.last_stats().iterations, 1);
    }
    ASSERT_TRUE(s->apply(act).is_ok());
  }
  EXPECT_GE(searched, 2);
  EXPECT_GE(spent, 2);
}

TEST(AgentSpec, RefusesBadSpecsClearly) {
  for (const char* bad : {"alphago", "mcts:iters=-3", "mcts:iters=abc", "mcts:fast", "mcts:depth=3",
                          "random:3", "greedy:hard", "mcts:iters=0", "mcts::easy", "mcts:ops=2",
                          "mcts:turn_ms=-1", "mcts:turn_iters=2.5", "mcts:iters=0:turn_ms=0"}) {
    auto a = make_agent(bad, 1);
    ASSERT_FALSE(a.is_ok()) << bad;
    EXPECT_FALSE(a.error().message.empty());
  }
  auto a = make_agent("mcts:depth=3", 1);
  EXPECT_NE(a.error().message.find("depth"), std::string::npos);
}

TEST(Heuristics, DefaultIsUniformAndReturnsAtTerminal) {
  NimGame g("test-nim-default");
  auto h = ai::make_heuristics(g);
  auto s = nim_state(g, "345");
  std::vector<Action> legal;
  s->legal_actions(legal);
  std::vector<float> w;
  h->prior(*s, legal, w);
  ASSERT_EQ(w.size(), legal.size());
  for (float x : w) EXPECT_EQ(x, 1.0f);
  std::vector<double> v;
  h->evaluate(*s, v);
  EXPECT_EQ(v, (std::vector<double>{0.0, 0.0}));
  ASSERT_TRUE(s->apply(NimState::take(0, 3)).is_ok());
  ASSERT_TRUE(s->apply(NimState::take(1, 4)).is_ok());
  ASSERT_TRUE(s->apply(NimState::take(2, 5)).is_ok());  // first takes the last stone
  h->evaluate(*s, v);
  EXPECT_EQ(v, (std::vector<double>{1.0, -1.0}));
  std::vector<ai::Operation> ops;
  EXPECT_FALSE(h->operations(*s, legal, ops));
}

TEST(Heuristics, RegistryByGameIdWithFallback) {
  NimGame g("test-nim-registry");
  EXPECT_FALSE(ai::has_registered_heuristics("test-nim-registry"));
  ai::register_heuristics("test-nim-registry", [](const Game&) -> std::unique_ptr<ai::Heuristics> {
    return std::make_unique<fixture::NimHeuristics>();
  });
  EXPECT_TRUE(ai::has_registered_heuristics("test-nim-registry"));
  EXPECT_TRUE(ai::make_heuristics(g)->has_evaluation());
  ai::unregister_heuristics("test-nim-registry");
  EXPECT_FALSE(ai::make_heuristics(g)->has_evaluation());
}

// Piles 1 2 4 have nim-sum 7: the only winning move is to take 1 from pile 2 (leaving
// 1 2 3). Found by random rollouts alone, no evaluation.
TEST(Mcts, FindsTheWinningMoveInAWonPosition) {
  NimGame g("test-nim-plain");
  auto s = nim_state(g, "124");
  for (uint64_t seed : {1u, 2u, 3u}) {
    ai::MctsAgent a(ai::parse_mcts_options("iters=1000").value(), seed);
    EXPECT_EQ(a.choose(*s), NimState::take(2, 1)) << "seed " << seed;
    EXPECT_EQ(a.last_stats().iterations, 1000);
    EXPECT_GT(a.last_stats().root.size(), 1u);
  }
}

// Piles 3 4 5 (nim-sum 2, win = take 2 from pile 0) are deep enough that random rollouts
// mislead a small search (Nim is a known hard case for plain MCTS); with the game's
// evaluation cutting the rollouts the search finds the move.
TEST(Mcts, FindsTheWinningMoveWithTheGamesEvaluation) {
  NimGame g("test-nim-eval");
  const fixture::ScopedHeuristics<fixture::NimHeuristics> heuristics("test-nim-eval");
  auto s = nim_state(g, "345");
  for (uint64_t seed : {1u, 2u, 3u}) {
    ai::MctsAgent a(ai::parse_mcts_options("iters=400:rollout=0").value(), seed);
    EXPECT_EQ(a.choose(*s), NimState::take(0, 2)) << "seed " << seed;
  }
}

TEST(Mcts, FindsTheWinInOneEvenWithoutAnEvaluation) {
  NimGame g("test-nim-plain");
  auto s = nim_state(g, "345");
  ASSERT_TRUE(s->apply(NimState::take(0, 3)).is_ok());
  ASSERT_TRUE(s->apply(NimState::take(1, 4)).is_ok());
  // Second to move with one pile of 5: take it all.
  ai::MctsAgent a(ai::parse_mcts_options("iters=200").value(), 9);
  EXPECT_EQ(a.choose(*s), NimState::take(2, 5));
}

TEST(Mcts, BeatsRandomOverManyGamesDeterministically) {
  NimGame g("test-nim-plain");
  auto count_wins = [&] {
    int wins = 0;
    for (uint64_t i = 0; i < 20; ++i) {
      auto s = nim_state(g, "random", 100 + i);
      auto m = agent("mcts:iters=300", 1000 + i);
      auto r = agent("random", 2000 + i);
      const int mcts_side = static_cast<int>(i % 2);
      const int winner = mcts_side == 0 ? play(*s, *m, *r) : play(*s, *r, *m);
      if (winner == mcts_side) ++wins;
    }
    return wins;
  };
  const int wins = count_wins();
  EXPECT_EQ(wins, count_wins());  // same seeds, same games
  EXPECT_GE(wins, 17);            // random wins some lost-from-the-start positions only
  EXPECT_EQ(wins, 20);            // the recorded count for these seeds
}

TEST(Mcts, DeterministicForASeedAndBudget) {
  NimGame g("test-nim-plain");
  auto s = nim_state(g, "big");
  ai::MctsAgent a(ai::parse_mcts_options("iters=500").value(), 42);
  ai::MctsAgent b(ai::parse_mcts_options("iters=500").value(), 42);
  for (int move = 0; move < 4 && !s->is_terminal(); ++move) {
    const Action x = a.choose(*s);
    const Action y = b.choose(*s);
    EXPECT_EQ(x, y);
    ASSERT_EQ(a.last_stats().root.size(), b.last_stats().root.size());
    for (size_t i = 0; i < a.last_stats().root.size(); ++i) {
      EXPECT_EQ(a.last_stats().root[i].visits, b.last_stats().root[i].visits);
      EXPECT_EQ(a.last_stats().root[i].first, b.last_stats().root[i].first);
    }
    EXPECT_EQ(a.last_stats().nodes, b.last_stats().nodes);
    ASSERT_TRUE(s->apply(x).is_ok());
  }
  // Another seed explores differently (visit counts differ somewhere).
  auto s2 = nim_state(g, "big");
  ai::MctsAgent c(ai::parse_mcts_options("iters=500").value(), 42);
  ai::MctsAgent d(ai::parse_mcts_options("iters=500").value(), 43);
  (void)c.choose(*s2);
  (void)d.choose(*s2);
  bool differs = false;
  for (size_t i = 0; i < c.last_stats().root.size(); ++i)
    differs = differs || c.last_stats().root[i].visits != d.last_stats().root[i].visits;
  EXPECT_TRUE(differs);
}

TEST(Mcts, TimeBudgetStopsTheSearch) {
  NimGame g("test-nim-plain");
  auto s = nim_state(g, "big");
  ai::MctsAgent a(ai::parse_mcts_options("iters=0:ms=20").value(), 1);
  const Action x = a.choose(*s);
  EXPECT_TRUE(s->check(x).is_ok());
  EXPECT_GT(a.last_stats().iterations, 0);
}

TEST(Mcts, DeadlineInTheLimitsStopsAnUnboundedSearchWithALegalMove) {
  NimGame g("test-nim-plain");
  auto s = nim_state(g, "big");
  // One hour of budget in the spec: only the caller's 200 ms deadline can end it.
  ai::MctsAgent a(ai::parse_mcts_options("iters=0:ms=3600000").value(), 1);
  SearchProgress progress;
  SearchLimits limits;
  limits.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
  limits.progress = &progress;
  const auto t0 = std::chrono::steady_clock::now();
  const Action x = a.choose_within(*s, limits);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(30));
  EXPECT_TRUE(s->check(x).is_ok());
  EXPECT_GT(a.last_stats().iterations, 0);
  EXPECT_EQ(progress.iterations.load(), a.last_stats().iterations);
  EXPECT_EQ(progress.budget.load(), 0) << "no iteration budget";
}

TEST(Mcts, StopFlagFromAnotherThreadEndsAnUnboundedSearch) {
  NimGame g("test-nim-plain");
  auto s = nim_state(g, "big");
  ai::MctsAgent a(ai::parse_mcts_options("iters=0:ms=3600000").value(), 1);
  std::atomic<bool> stop{false};
  SearchProgress progress;
  SearchLimits limits;
  limits.stop = &stop;
  limits.progress = &progress;
  std::atomic<bool> returned{false};
  Action x;
  std::thread searcher([&] {
    x = a.choose_within(*s, limits);
    returned = true;
  });
  // Progress is visible from this thread while the search runs.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (progress.iterations.load() < 100 && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_GE(progress.iterations.load(), 100);
  EXPECT_FALSE(returned.load()) << "an hour's budget cannot be over yet";
  stop = true;
  searcher.join();  // hangs (the test times out) if the flag is not observed
  EXPECT_TRUE(s->check(x).is_ok());
  EXPECT_GE(a.last_stats().iterations, 100);
}

TEST(Mcts, UnusedLimitsChangeNothing) {
  // An iteration budget that the limits do not cut replays exactly as choose() does.
  NimGame g("test-nim-plain");
  auto s = nim_state(g, "big");
  ai::MctsAgent a(ai::parse_mcts_options("iters=300").value(), 9);
  ai::MctsAgent b(ai::parse_mcts_options("iters=300").value(), 9);
  std::atomic<bool> stop{false};
  SearchProgress progress;
  SearchLimits limits;
  limits.stop = &stop;
  limits.deadline = std::chrono::steady_clock::now() + std::chrono::hours(1);
  limits.progress = &progress;
  EXPECT_EQ(a.choose(*s), b.choose_within(*s, limits));
  ASSERT_EQ(a.last_stats().root.size(), b.last_stats().root.size());
  for (size_t i = 0; i < a.last_stats().root.size(); ++i)
    EXPECT_EQ(a.last_stats().root[i].visits, b.last_stats().root[i].visits);
  EXPECT_EQ(progress.iterations.load(), 300);
  EXPECT_EQ(progress.budget.load(), 300);
}

TEST(Greedy, StopFlagSetBeforehandStillGivesALegalMove) {
  NimGame g("test-nim-plain");
  auto s = nim_state(g, "big");
  ai::GreedyAgent a(3);
  std::atomic<bool> stop{true};
  SearchLimits limits;
  limits.stop = &stop;
  EXPECT_TRUE(s->check(a.choose_within(*s, limits)).is_ok());
}

// The guesser cannot see the card. Guessing is worth -1/3 on average, passing 0; an agent
// that peeked at the true card would guess it and win.
TEST(Mcts, DoesNotPeekAtHiddenInformation) {
  CardGame honest(true);
  for (uint64_t seed = 0; seed < 6; ++seed) {
    auto s = honest.new_state("deal", seed).value();
    ai::MctsAgent a(ai::parse_mcts_options("iters=600").value(), seed);
    EXPECT_EQ(a.choose(*s), CardState::pass()) << "card " << static_cast<CardState&>(*s).card();
  }
}

// Control: when resample_hidden leaks the true card (a broken game), the same search
// guesses it, so the test above really distinguishes peeking from not peeking.
TEST(Mcts, PeekingWouldChangeTheChoice) {
  CardGame leaky(false);
  for (uint64_t seed = 0; seed < 6; ++seed) {
    auto s = leaky.new_state("deal", seed).value();
    const int card = static_cast<CardState&>(*s).card();
    ai::MctsAgent a(ai::parse_mcts_options("iters=600").value(), seed);
    EXPECT_EQ(a.choose(*s), CardState::guess(card));
  }
}

TEST(Greedy, DoesNotPeekEither) {
  // Greedy has no evaluation here (default heuristics): every guess of a resampled card
  // is as likely to be wrong; the test checks it never always hits the true card.
  CardGame honest(true);
  int hits = 0;
  for (uint64_t seed = 0; seed < 30; ++seed) {
    auto s = honest.new_state("deal", seed).value();
    auto a = agent("greedy", seed);
    const Action x = a->choose(*s);
    if (x == CardState::guess(static_cast<CardState&>(*s).card())) ++hits;
  }
  EXPECT_LT(hits, 25);
}

TEST(Mcts, UsesTheGamesOperations) {
  NimGame g("test-nim-ops");
  const fixture::ScopedHeuristics<fixture::NimOperationHeuristics> heuristics("test-nim-ops");
  auto s = nim_state(g, "345");
  ai::MctsAgent a(ai::parse_mcts_options("iters=300:root_raw=0").value(), 5);
  const Action x = a.choose(*s);
  // Only "empty a pile" and "take one" operations exist: 3 + 3 root edges, not 12 actions.
  EXPECT_EQ(a.last_stats().root.size(), 6u);
  EXPECT_TRUE(x.args[1] == 1 || x.args[1] == s->clone()->full_json()["piles"][x.args[0]].get<int>());
  ai::MctsAgent raw(ai::parse_mcts_options("iters=300:ops=0").value(), 5);
  (void)raw.choose(*s);
  EXPECT_EQ(raw.last_stats().root.size(), 12u);
  // root_raw (the default): the 6 operations at the root, and beside them the 6 raw
  // actions that no one-step operation already is (2 of the 3, 2 or 3 of the 4, 2 to 4 of
  // the 5).
  ai::MctsAgent wide(ai::parse_mcts_options("iters=300").value(), 5);
  (void)wide.choose(*s);
  EXPECT_EQ(wide.last_stats().root.size(), 12u);
  EXPECT_EQ(a.name(), "mcts:iters=300:root_raw=0");
  EXPECT_FALSE(ai::parse_mcts_options("root_raw=2").is_ok());
}

TEST(Mcts, PriorOrdersProgressiveWidening) {
  // With the default uniform prior the legal order is kept; with widening a node with few
  // visits considers only the first edges.
  NimGame g("test-nim-plain");
  auto s = nim_state(g, "big");
  ai::MctsAgent a(ai::parse_mcts_options("iters=10:widen=1:widen_exp=0.5").value(), 3);
  (void)a.choose(*s);
  size_t visited = 0;
  for (const auto& e : a.last_stats().root) visited += e.visits > 0 ? 1 : 0;
  // ceil(1 * sqrt(N+1)) edges for N <= 9: at most 4 distinct edges ever tried.
  EXPECT_LE(visited, 4u);
  EXPECT_GE(visited, 2u);
  EXPECT_EQ(a.last_stats().root.size(), 42u);
}

TEST(Greedy, UsesTheEvaluation) {
  NimGame g("test-nim-greedy");
  const fixture::ScopedHeuristics<fixture::NimHeuristics> heuristics("test-nim-greedy");
  auto s = nim_state(g, "345");
  for (uint64_t seed = 0; seed < 5; ++seed)
    EXPECT_EQ(agent("greedy", seed)->choose(*s), NimState::take(0, 2));
  // Piles 9 10 11 12 (nim-sum 4): every move to nim-sum 0 is best; greedy finds one.
  auto b = nim_state(g, "big");
  for (uint64_t seed = 0; seed < 5; ++seed) {
    auto c = b->clone();
    ASSERT_TRUE(c->apply(agent("greedy", seed)->choose(*b)).is_ok());
    EXPECT_EQ(static_cast<NimState&>(*c).nim_sum(), 0);
  }
}

TEST(Mcts, RootStartsFromTheOnePlyValue) {
  // Piles 9 10 11 12 (nim-sum 4) under a perfect evaluation: one simulation leaves the
  // choice to the root's order. With root_eval the one-ply look finds a move to nim-sum 0
  // (what greedy finds); without it the uniform prior keeps the legal order, whose first
  // move (one from pile 0) is not one.
  NimGame g("test-nim-root-eval");
  const fixture::ScopedHeuristics<fixture::NimHeuristics> heuristics("test-nim-root-eval");
  auto s = nim_state(g, "big");
  for (uint64_t seed = 0; seed < 3; ++seed) {
    auto c = s->clone();
    ASSERT_TRUE(c->apply(agent("mcts:iters=1", seed)->choose(*s)).is_ok());
    EXPECT_EQ(static_cast<NimState&>(*c).nim_sum(), 0);
    auto d = s->clone();
    ASSERT_TRUE(d->apply(agent("mcts:iters=1:root_eval=0", seed)->choose(*s)).is_ok());
    EXPECT_NE(static_cast<NimState&>(*d).nim_sum(), 0);
  }
  // The options parse, print and parse back.
  const auto cfg = ai::parse_mcts_options("iters=7:root_eval=0:root_temp=0.5:root_visits=3");
  ASSERT_TRUE(cfg.is_ok());
  EXPECT_FALSE(cfg.value().root_eval);
  EXPECT_EQ(cfg.value().spec(), "mcts:iters=7:root_eval=0:root_temp=0.5:root_visits=3");
  EXPECT_FALSE(ai::parse_mcts_options("root_temp=0").is_ok());
  EXPECT_FALSE(ai::parse_mcts_options("root_eval=2").is_ok());
}

TEST(Mcts, RootChanceAveragesAnEdgesDice) {
  // One simulation leaves the choice to the one-ply look. Seeing one roll, it gambles
  // whenever that roll is a 6 (worth 1 against the safe 0.2); with 16 rolls the gamble's
  // mean (about -0.25) is seen, and it never does.
  fixture::GambleGame g;
  const fixture::ScopedHeuristics<fixture::GambleHeuristics> heuristics("test-gamble");
  int gambles_one = 0, gambles_many = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    auto s = g.new_state("start", seed).value();
    if (agent("mcts:iters=1", seed)->choose(*s).verb == fixture::GambleState::kGamble) ++gambles_one;
    if (agent("mcts:iters=1:root_chance=16", seed)->choose(*s).verb == fixture::GambleState::kGamble)
      ++gambles_many;
  }
  EXPECT_GT(gambles_one, 0);
  EXPECT_EQ(gambles_many, 0);
  EXPECT_EQ(ai::parse_mcts_options("iters=1:root_chance=16").value().spec(), "mcts:iters=1:root_chance=16");
  EXPECT_FALSE(ai::parse_mcts_options("root_chance=0").is_ok());
}

// The gamble's worth squashed far from 0, as BD's tanh(VP / scale) is when one side is
// well ahead: safe tanh(5.2) = 0.99994, the gamble's mean about 0.99979. The prior favours
// the gamble ten to one.
class SquashedGambleHeuristics final : public ai::Heuristics {
 public:
  void evaluate(const State& state, std::vector<double>& values) const override {
    const double v = std::tanh(5.0 + state.returns()[0]);
    values = {v, -v};
  }
  bool has_evaluation() const override { return true; }
  void prior(const State& state, const std::vector<Action>& actions, std::vector<float>& out) const override {
    (void)state;
    out.clear();
    for (const Action& a : actions) out.push_back(a.verb == fixture::GambleState::kGamble ? 10.0f : 1.0f);
  }
};

TEST(Mcts, RootOnePlyLookSeesGainsInASaturatedEvaluation) {
  // Values 0.00015 apart: the one-ply look's gains are read after atanh, so the safe move's
  // lead (0.57 there) outweighs the prior. Read raw, the gamble kept most of the visits.
  fixture::GambleGame g;
  const fixture::ScopedHeuristics<SquashedGambleHeuristics> heuristics("test-gamble");
  int safe = 0;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    auto s = g.new_state("start", seed).value();
    if (agent("mcts:iters=20:root_chance=16", seed)->choose(*s).verb == fixture::GambleState::kSafe) ++safe;
  }
  EXPECT_EQ(safe, 20);
}

TEST(Greedy, BreaksTiesWithTheSeededGenerator) {
  // Default heuristics value every non-final move 0: the choice is a seeded tie-break.
  NimGame g("test-nim-plain");
  auto s = nim_state(g, "big");
  std::vector<Action> picks;
  for (uint64_t seed = 0; seed < 8; ++seed) picks.push_back(agent("greedy", seed)->choose(*s));
  bool varied = false;
  for (const auto& p : picks) varied = varied || !(p == picks[0]);
  EXPECT_TRUE(varied);
  for (uint64_t seed = 0; seed < 8; ++seed) EXPECT_EQ(agent("greedy", seed)->choose(*s), picks[seed]);
  // A move that wins at once beats every tie.
  auto t = nim_state(g, "345");
  ASSERT_TRUE(t->apply(NimState::take(0, 3)).is_ok());
  ASSERT_TRUE(t->apply(NimState::take(1, 4)).is_ok());
  EXPECT_EQ(agent("greedy", 3)->choose(*t), NimState::take(2, 5));
}

}  // namespace
}  // namespace steppe

namespace steppe {
namespace {

using fixture::PairGame;
using fixture::PairState;

// Two decisions of the same side in a row (one per unit), then the other side: the search
// must credit both decisions to the side that made them.
TEST(Mcts, ConsecutiveDecisionsOfOneSidePerUnit) {
  PairGame g;
  for (uint64_t seed : {1u, 2u, 3u}) {
    auto s = g.new_state("start", seed).value();
    ai::MctsAgent a(ai::parse_mcts_options("iters=2000").value(), seed);
    EXPECT_EQ(a.choose(*s), PairState::move(0, 3)) << "seed " << seed;
    ASSERT_TRUE(s->apply(PairState::move(0, 3)).is_ok());
    EXPECT_EQ(a.choose(*s), PairState::move(1, 4)) << "seed " << seed;
  }
}

// A two-step operation is one edge of the tree: 25 root edges (root_raw=0; with it the
// five raw first moves would stand beside them), and the agent returns the operation's
// first step.
TEST(Mcts, MultiStepOperationsAreOneEdge) {
  PairGame g;
  const fixture::ScopedHeuristics<fixture::PairOperationHeuristics> heuristics("test-pair");
  auto s = g.new_state("start", 1).value();
  ai::MctsAgent a(ai::parse_mcts_options("iters=1500:root_raw=0").value(), 4);
  EXPECT_EQ(a.choose(*s), PairState::move(0, 3));
  ASSERT_EQ(a.last_stats().root.size(), 25u);
  for (const auto& e : a.last_stats().root) EXPECT_EQ(e.steps, 2);
  // The most visited edge is the winning plan (3, 4) and it is valued as a win.
  const auto best = std::max_element(a.last_stats().root.begin(), a.last_stats().root.end(),
                                     [](const auto& x, const auto& y) { return x.visits < y.visits; });
  EXPECT_GT(best->mean, 0.9);
}

// commit=1: the operation chosen is played through. Its second step is the next decision,
// made without a search (one root edge, no visits); from any other state than the one its
// first step led to, the plan is dropped and the agent searches again.
TEST(Mcts, CommitPlaysAnOperationThrough) {
  PairGame g;
  const fixture::ScopedHeuristics<fixture::PairOperationHeuristics> heuristics("test-pair");
  auto s = g.new_state("start", 1).value();
  ai::MctsAgent a(ai::parse_mcts_options("iters=1500:root_raw=0:commit=1").value(), 4);
  ASSERT_EQ(a.choose(*s), PairState::move(0, 3));
  auto other = s->clone();
  ASSERT_TRUE(s->apply(PairState::move(0, 3)).is_ok());
  EXPECT_EQ(a.choose(*s), PairState::move(1, 4));
  ASSERT_EQ(a.last_stats().root.size(), 1u);
  EXPECT_EQ(a.last_stats().root[0].visits, 0u);

  ai::MctsAgent b(ai::parse_mcts_options("iters=1500:root_raw=0:commit=1").value(), 4);
  ASSERT_EQ(b.choose(*other), PairState::move(0, 3));
  ASSERT_TRUE(other->apply(PairState::move(0, 2)).is_ok());  // not the plan's first step
  b.choose(*other);
  EXPECT_EQ(b.last_stats().root.size(), 5u) << "a stale plan must be dropped, not played";
}

}  // namespace
}  // namespace steppe
