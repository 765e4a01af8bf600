// Knowledge of The Dark Valley for the game-agnostic agents (docs/ai.md, "The Dark Valley"):
// a position evaluation read from the victory conditions (3.1 VP hexes, 3.2's thresholds and
// the 1941 objectives), the forces on the map and their supply, and the VP hexes each side
// leaves open to the other. Registered under "dv" by steppe::register_installed_heuristics
// (src/games/all_agents.cpp). Nothing here is a rule: the legal moves come from DvState.
#pragma once

#include <memory>

#include "ai/heuristics.h"

namespace dv {

class DvState;

std::unique_ptr<steppe::ai::Heuristics> make_dv_heuristics(const steppe::Game& game);

// The evaluation's terms for one position, Axis-positive, in VP hexes (for tests and the
// docs): evaluate() is tanh(total / scale).
struct DvEvalTerms {
  double vp = 0;          // Axis VP hexes against the year's Soviet threshold (3.2)
  double objectives = 0;  // 1941: Moscow, Kiev, Leningrad (3.2 Axis condition 1)
  double forces = 0;      // the two sides' combat strength on the map, supply-weighted, as a share
  double open = 0;        // VP hexes a side holds empty with an enemy unit next to them
  double total() const { return vp + objectives + forces + open; }
};
DvEvalTerms dv_eval_terms(const DvState& s);

}  // namespace dv
