// An agent chooses an action for the side to move. Agents see a State but must decide
// from observation-consistent information only: a searcher with hidden information calls
// resample_hidden() on its clones before looking.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "kernel/state.h"

namespace steppe {

class Agent {
 public:
  virtual ~Agent() = default;
  virtual std::string name() const = 0;
  // Precondition: !state.is_terminal(). Deterministic for a given seed and budget.
  virtual Action choose(const State& state) = 0;
};

// Creates an agent by name ("random", "greedy", "mcts", with optional ":budget").
Result<std::unique_ptr<Agent>> make_agent(const std::string& spec, uint64_t seed);

}  // namespace steppe
