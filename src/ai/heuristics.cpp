#include "ai/heuristics.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace steppe::ai {

void Heuristics::evaluate(const State& state, std::vector<double>& values) const {
  const size_t sides = state.game().side_names().size();
  if (state.is_terminal()) {
    values = state.returns();
    values.resize(sides, 0.0);
    for (double& v : values) v = std::clamp(v, -1.0, 1.0);
    return;
  }
  values.assign(sides, 0.0);
}

void Heuristics::prior(const State& state, const std::vector<Action>& actions,
                       std::vector<float>& weights) const {
  (void)state;
  weights.assign(actions.size(), 1.0f);
}

bool Heuristics::operations(const State& state, const std::vector<Action>& legal,
                            std::vector<Operation>& out) const {
  (void)state;
  (void)legal;
  out.clear();
  return false;
}

size_t Heuristics::rollout_choice(const State& state, const std::vector<Action>& legal, Dice& rng) const {
  (void)state;
  return static_cast<size_t>(rng.below(static_cast<int>(legal.size())));
}

int64_t Heuristics::turn_key(const State& state) const {
  const Json r = state.result();
  if (r.is_object()) {
    const auto it = r.find("turn");
    if (it != r.end() && it->is_number_integer()) return it->get<int64_t>();
  }
  return 0;
}

namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, HeuristicsFactory> factories;
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

void register_heuristics(const std::string& game_id, HeuristicsFactory factory) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  r.factories[game_id] = factory;
}

void unregister_heuristics(const std::string& game_id) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  r.factories.erase(game_id);
}

bool has_registered_heuristics(const std::string& game_id) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  return r.factories.count(game_id) != 0;
}

std::unique_ptr<Heuristics> make_heuristics(const Game& game) {
  HeuristicsFactory factory = nullptr;
  {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    if (auto it = r.factories.find(game.id()); it != r.factories.end()) factory = it->second;
  }
  if (factory != nullptr) {
    if (auto h = factory(game)) return h;
  }
  return std::make_unique<DefaultHeuristics>();
}

}  // namespace steppe::ai
