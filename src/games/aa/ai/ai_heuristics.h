// Knowledge of the Axis & Allies-style Barbarossa for the game-agnostic agents (docs/ai.md,
// "A&A-style Barbarossa"): a position evaluation that values battles, threats and attacks with
// the game's exact battle calculator, an action prior / move ordering and a rollout policy.
// Registered under "aa" by steppe::register_installed_heuristics (src/games/all_agents.cpp).
#pragma once

#include <memory>

#include "ai/heuristics.h"

namespace steppe::aa {

class AaState;

std::unique_ptr<steppe::ai::Heuristics> make_aa_heuristics(const steppe::Game& game);

// The evaluation's terms for one position, Axis-positive, in Build Points (for tests and the
// docs): evaluate() is tanh(total / scale).
struct AaEvalTerms {
  double units = 0;    // units on the map and waiting to be placed, by their cost
  double bp = 0;       // Build Points in hand
  double vp = 0;       // Axis VP, Russian ICs held, the cities that win (1.3)
  double battles = 0;  // battles under way: expected BP lost and the chance of capture
  double threats = 0;  // valuable zones the enemy can reach: the chance they fall
  double advance = 0;  // Axis land strength closing on Moscow and Baku
  double total() const { return units + bp + vp + battles + threats + advance; }
};
AaEvalTerms aa_eval_terms(const steppe::ai::Heuristics& h, const AaState& s);

}  // namespace steppe::aa
