// Barbarossa Deluxe knowledge for the game-agnostic agents (docs/ai.md, "Per-game
// heuristics"): a position evaluation, an action prior / move ordering and a rollout
// policy. Registered under "bd" by steppe::register_installed_heuristics (src/games/all_agents.cpp).
#pragma once

#include <memory>

#include "ai/heuristics.h"

namespace bd {

std::unique_ptr<steppe::ai::Heuristics> make_bd_heuristics(const steppe::Game& game);

}  // namespace bd
