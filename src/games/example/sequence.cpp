// 2 Sequence of play and 5 Victory.
#include "games/example/example.h"

namespace example {

// 2.1: Blue Movement, Blue Combat, Red Movement, Red Combat; after the last turn's Red
// Combat the game ends (5.1).
void ExampleState::end_phase() {
  std::fill(done_.begin(), done_.end(), 0);
  std::fill(hit_.begin(), hit_.end(), 0);
  if (phase_ == kRedCombat) {
    if (turn_ >= sc_->turns) {
      check_victory(true);
      return;
    }
    ++turn_;
    phase_ = kBlueMovement;
  } else {
    phase_ = static_cast<Phase>(phase_ + 1);
  }
  note("phase", "Turn " + std::to_string(turn_) + ": " + kPhaseNames[phase_], "2.1");
}

// 5.1: a side with no unit left loses at once; at the end of the last turn Blue wins if a
// Blue unit holds the objective.
void ExampleState::check_victory(bool end_of_game) {
  bool alive[2] = {false, false};
  for (size_t u = 0; u < hex_.size(); ++u)
    if (hex_[u] >= 0) alive[g_->units()[u].side] = true;
  const bool sudden = !end_of_game && sc_->objective >= 0;  // the empty test map has no sudden end
  int winner = -1;
  std::string why;
  if (sudden && !alive[kBlue]) {
    winner = kRed;
    why = "no Blue unit is left";
  } else if (sudden && !alive[kRed]) {
    winner = kBlue;
    why = "no Red unit is left";
  } else if (end_of_game) {
    const int holder = unit_at(sc_->objective);
    const bool blue_holds = holder >= 0 && g_->units()[static_cast<size_t>(holder)].side == kBlue;
    winner = blue_holds || !alive[kRed] ? kBlue : kRed;
    if (blue_holds)
      why = "a Blue unit holds the objective";
    else if (!alive[kRed])
      why = "no Red unit is left";
    else
      why = "Blue does not hold the objective";
  }
  if (winner < 0) return;
  winner_ = winner;
  note("end", g_->side_names()[static_cast<size_t>(winner)] + " wins: " + why, "5.1");
}

}  // namespace example
