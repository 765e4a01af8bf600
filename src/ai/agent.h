// An agent chooses an action for the side to move. Agents see a State but must decide
// from observation-consistent information only: a searcher with hidden information calls
// resample_hidden() on its clones before looking.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "kernel/state.h"

namespace steppe {

// Progress of one decision, written by the agent while it searches and readable from any
// other thread (relaxed atomics: a display value, not a synchronisation point).
struct SearchProgress {
  std::atomic<int64_t> iterations{0};  // simulations (or candidates) done so far
  std::atomic<int64_t> budget{0};      // the planned number; 0 = none (time-bounded or no search)
};

// Limits set by whoever runs an agent (the server's time budget and its cancel button).
// Every field is optional. An agent that searches checks them between simulations and
// then returns the best action found so far; the result is always a legal action.
// Stopping early makes a decision depend on timing: an iteration budget replays exactly
// only when neither limit cut it short.
struct SearchLimits {
  const std::atomic<bool>* stop = nullptr;  // set to true from another thread to stop
  std::optional<std::chrono::steady_clock::time_point> deadline;
  SearchProgress* progress = nullptr;  // written by the agent when not null
};

class Agent {
 public:
  virtual ~Agent() = default;
  virtual std::string name() const = 0;
  // Precondition: !state.is_terminal(). Deterministic for a given seed and budget.
  virtual Action choose(const State& state) = 0;
  // The same decision under limits. The default (agents that do not search, like
  // `random`) ignores them: such a decision is quick anyway.
  virtual Action choose_within(const State& state, const SearchLimits& limits) {
    (void)limits;
    return choose(state);
  }
};

// Creates an agent by name ("random", "greedy", "mcts", with optional ":budget").
Result<std::unique_ptr<Agent>> make_agent(const std::string& spec, uint64_t seed);

}  // namespace steppe
