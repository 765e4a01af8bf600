#include <vector>

#include "ai/agent.h"
#include "ai/mcts.h"

namespace steppe {
namespace {

// Uniform over the legal actions; the baseline every other agent must beat.
class RandomAgent final : public Agent {
 public:
  explicit RandomAgent(uint64_t seed) : dice_(seed) {}
  std::string name() const override { return "random"; }
  Action choose(const State& state) override {
    state.legal_actions(actions_);
    return actions_[static_cast<size_t>(dice_.below(static_cast<int>(actions_.size())))];
  }

 private:
  Dice dice_;
  std::vector<Action> actions_;
};

}  // namespace

namespace ai {
std::unique_ptr<Agent> make_random_agent(uint64_t seed) { return std::make_unique<RandomAgent>(seed); }
}  // namespace ai

}  // namespace steppe
