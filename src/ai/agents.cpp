// make_agent: the agent spec syntax (docs/ai.md).
//   random
//   greedy
//   mcts[:easy|normal|hard][:key=value]...   e.g. mcts:hard, mcts:iters=500:c=2
//   ("mcts" alone is mcts:normal, the 5-second turn clock; docs/ai.md)
#include "ai/agent.h"
#include "ai/mcts.h"

namespace steppe {

Result<std::unique_ptr<Agent>> make_agent(const std::string& spec, uint64_t seed) {
  const size_t colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  const std::string options = colon == std::string::npos ? "" : spec.substr(colon + 1);
  auto no_options = [&]() -> Status {
    if (colon != std::string::npos)
      return Error{"agent '" + name + "' takes no options (got '" + spec + "')", "", "agent spec"};
    return Status::ok();
  };
  if (name == "random") {
    if (Status s = no_options(); !s) return s.error();
    return ai::make_random_agent(seed);
  }
  if (name == "greedy") {
    if (Status s = no_options(); !s) return s.error();
    return std::unique_ptr<Agent>(std::make_unique<ai::GreedyAgent>(seed));
  }
  if (name == "mcts") {
    ai::MctsConfig config = ai::default_mcts_config();
    if (colon != std::string::npos) {
      auto parsed = ai::parse_mcts_options(options);
      if (!parsed) return parsed.error();
      config = parsed.value();
    }
    return std::unique_ptr<Agent>(std::make_unique<ai::MctsAgent>(config, seed));
  }
  return Error{
      "unknown agent '" + spec + "' (known: random, greedy, mcts[:easy|normal|hard|iters=N|ms=N...])", "",
      "agent spec"};
}

}  // namespace steppe
