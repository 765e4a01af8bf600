// Per-game knowledge for the game-agnostic agents. The searches (greedy, mcts) know only
// the kernel's State interface; whatever a game knows about good play it gives them
// through a Heuristics object: an evaluation of positions, a prior over actions (which
// is also the move ordering), an optional action abstraction ("operations": macro-moves
// made of several raw actions) and a rollout policy.
//
// A game's factory is registered under its game id (register_heuristics, called for the
// installed games by src/games/all_agents.cpp). A game that has none gets DefaultHeuristics: uniform prior,
// no operations, uniform rollouts, and an evaluation that is returns() at terminal states and 0 elsewhere.
//
// Threading: one Heuristics object is made per agent (make_heuristics), but its methods
// are const and may be called from several searches at once only if the game's
// implementation is thread-safe for const calls; the built-in agents never share one.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernel/state.h"

namespace steppe::ai {

// A macro-operation: raw actions of one side applied in order ("the 4th Panzer Group
// attacks toward Smolensk" = several move actions and an attack). The search treats it
// as one edge of its tree; it stops applying steps early when a step is refused, when
// another side must decide, or when the game ends. The first step must be legal in the
// state the operation was generated for.
struct Operation {
  std::string label;          // readable, for logs and the UI ("panzer thrust 2514")
  std::vector<Action> steps;  // non-empty
  float prior = 1.0f;         // non-negative weight; the search normalises
};

class Heuristics {
 public:
  virtual ~Heuristics() = default;

  // Value of `state` for every side, each in [-1, 1] (+1 = certain win). Called on
  // determinized clones, so it may look at everything in the state it is given. The
  // default: returns() at a terminal state, otherwise 0 for every side.
  virtual void evaluate(const State& state, std::vector<double>& values) const;

  // True when evaluate() knows more than the default (the search then cuts rollouts
  // short and trusts the evaluation; otherwise it plays rollouts to the end).
  virtual bool has_evaluation() const { return false; }

  // Actions per rollout when the agent's spec leaves it to the game (mcts rollout=-1, the
  // default): -1 plays to the end (capped by max_rollout). The default is 8 when the game
  // has an evaluation, else -1. A game whose evaluation is worth more than a few of its
  // rollout policy's moves returns 0 (the leaf is scored as it stands).
  virtual int default_rollout_depth() const { return has_evaluation() ? 8 : -1; }

  // Prior over `actions` (all legal in `state`): one non-negative weight per action
  // (need not sum to 1). Also the move ordering of progressive widening: the search
  // tries actions in decreasing prior. The default is uniform.
  virtual void prior(const State& state, const std::vector<Action>& actions,
                     std::vector<float>& weights) const;

  // Action abstraction: fills `out` with macro-operations covering the useful choices
  // of the side to move and returns true, or returns false to let the search use the raw
  // legal actions (the default). `legal` are the raw legal actions of `state`.
  virtual bool operations(const State& state, const std::vector<Action>& legal,
                          std::vector<Operation>& out) const;

  // Rollout policy: index into `legal` (non-empty, legal in `state`) of the action to
  // play. `rng` is the search's seeded generator; use it for every random choice so the
  // search stays deterministic. The default is uniform.
  virtual size_t rollout_choice(const State& state, const std::vector<Action>& legal, Dice& rng) const;

  // Which turn `state` is in, as an agent's turn clock counts turns (mcts turn_ms,
  // turn_iters): all of one side's decisions with the same key share one budget. Public
  // information only: it is read on the true state. The default is result()["turn"] (0
  // when the result has no whole number there); a game whose sides take many turns in one
  // numbered turn (impulses) says so here.
  virtual int64_t turn_key(const State& state) const;
};

using DefaultHeuristics = Heuristics;

// A rollout policy for rollout_choice: `k` legal actions drawn uniformly (with
// replacement) from `n`, and the index `score` rates highest (the first drawn among
// equals). Cheaper than scoring every action and still biased towards good ones; all
// randomness comes from `rng`. `score(i)` returns a number for index i; n must be >= 1.
template <class Score>
size_t best_of_samples(size_t n, int k, Dice& rng, const Score& score) {
  if (n <= 1) return 0;
  const int count = static_cast<int>(n);
  size_t best = 0;
  bool first = true;
  decltype(score(size_t{0})) best_w{};
  for (int j = 0; j < std::min(count, k); ++j) {
    const auto i = static_cast<size_t>(rng.below(count));
    const auto w = score(i);
    if (first || w > best_w) {
      best_w = w;
      best = i;
      first = false;
    }
  }
  return best;
}

// Factories are plain function pointers so registration needs no allocation order.
using HeuristicsFactory = std::unique_ptr<Heuristics> (*)(const Game& game);

// Registers (or replaces) the heuristics of game `game_id`. Thread-safe. The installed
// games' heuristics are registered in one place, steppe::register_installed_heuristics
// (src/games/all_agents.cpp), called by the programs that run agents; nothing registers
// itself as a side effect of loading a game or of a static initialiser.
void register_heuristics(const std::string& game_id, HeuristicsFactory factory);
void unregister_heuristics(const std::string& game_id);
bool has_registered_heuristics(const std::string& game_id);

// The heuristics of `game` (its registered factory, else DefaultHeuristics).
std::unique_ptr<Heuristics> make_heuristics(const Game& game);

}  // namespace steppe::ai
