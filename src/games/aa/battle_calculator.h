// The exact battle calculator (issue 24): the probability distribution of a battle's outcome
// by dynamic programming over its states, not by sampling.
//
// A side's state is how many hits it has taken down its owner's casualty order (a fixed order
// makes the units left a function of that count) and how many supply tokens/trucks it has lost
// to 1s. Hits only ever accumulate, so the states are visited once each in increasing order;
// a round in which nothing happens returns to the same state and is summed as a geometric
// series. Each state's dice come from Battle::combat_dice / aa_dice and its hits are applied by
// the CasualtyOrder, the code that resolves a real round (battle.h); the chance of k hits from
// n dice is the convolution of the dice's hit chances (value/12 each, 3.36.2.3).
#pragma once

#include <array>
#include <vector>

#include "games/aa/battle.h"

namespace steppe::aa {

struct BattleOdds {
  double attacker_wins = 0;   // no defending combat unit left, an attacking one left
  double defender_holds = 0;  // no attacking combat unit left, a defending one left
  double both_destroyed = 0;
  double attacker_retreats = 0;  // by the retreat rule (or a battle no one can hit)
  double attacker_captures = 0;  // attacker wins with a land unit left to take the zone
  // survivors[side][n]: chance that exactly n of the side's combat units are left at the end.
  std::array<std::vector<double>, 2> survivors;
  // expected_left[side][type]: expected number of units of each type left in the zone at the end
  // (a losing side's supplies still there are the enemy's now: expected_bp_lost counts them).
  std::array<std::vector<double>, 2> expected_left;
  std::array<double, 2> expected_bp_lost{};
  double expected_rounds = 0;
  long states = 0;     // battle states the DP evaluated
  double dropped = 0;  // chance left out as negligible (terms under 1e-16), for honesty
};

// Errors (bad forces, a casualty order leaving out a type) cite the rule and compute nothing.
Result<BattleOdds> calculate_battle(const UnitTypes& types, const BattleSetup& setup,
                                    const RetreatRule& retreat);

// Chance of exactly k hits (k = 0..dice) from the dice of `by_value` (exposed for tests).
std::vector<double> hit_distribution(const DiceByValue& by_value);

}  // namespace steppe::aa
