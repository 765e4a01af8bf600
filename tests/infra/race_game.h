// Test double for the infrastructure tests only (never registered, never shipped): a
// two-side dice race with a hidden card.
//
//   R1  Sides alternate, one action each; the first to reach the goal wins. After 60
//       actions without a winner the game is a draw.
//   R2  `step N` (N = 1 or 2): advance N spaces. Reveals nothing.
//   R3  `roll`: roll a d6 and advance that many spaces (the roll is revealed).
//   R4  `reveal`: once per game, show your hidden card (1..3, dealt at the start and seen
//       only by its owner) and advance by its value.
//
// Scenarios: "standard" (goal 20), "short" (goal 8), "empty" (goal 20).
// Bugs can be switched on to prove that the conformance suite catches them.
#pragma once

#include <array>
#include <memory>
#include <string>

#include "kernel/state.h"

namespace steppe::testing {

struct RaceBugs {
  bool leak_card = false;               // observation shows the opponent's hidden card
  bool accept_step3 = false;            // check() accepts `step 3` though legal_actions omits it
  bool refusal_changes_state = false;   // a refused action still advances the dice counter
  bool clone_forgets_position = false;  // clone() resets side 1's position
  bool notation_loses_arg = false;      // action_to_string("step 2") prints "step"
};

class RaceGame final : public Game {
 public:
  explicit RaceGame(std::string rules_hash = "race-rules-1", RaceBugs bugs = {})
      : rules_hash_(std::move(rules_hash)), bugs_(bugs) {}
  std::string id() const override { return "race"; }
  std::string name() const override { return "Dice Race (test fixture)"; }
  std::vector<std::string> side_names() const override { return {"red", "blue"}; }
  std::vector<ScenarioInfo> scenarios() const override;
  Result<std::unique_ptr<State>> new_state(const std::string& scenario, uint64_t seed) const override;
  std::string rules_hash() const override { return rules_hash_; }
  Json map_json() const override;
  Result<Json> describe_location(const std::string& id) const override;
  const RaceBugs& bugs() const { return bugs_; }

 private:
  std::string rules_hash_;
  RaceBugs bugs_;
};

class RaceState final : public State {
 public:
  enum Verb : uint16_t { kStep = 1, kRoll = 2, kReveal = 3 };
  static constexpr int kMaxActions = 60;

  RaceState(const RaceGame& game, int goal, uint64_t seed);
  RaceState(const RaceState&) = default;

  const Game& game() const override { return *game_; }
  int current_player() const override;
  bool is_terminal() const override;
  std::vector<double> returns() const override;
  Json result() const override;
  void legal_actions(std::vector<Action>& out) const override;
  Status check(const Action& a) const override;
  std::unique_ptr<State> clone() const override;
  Json observation(int side) const override;
  Json full_json() const override;
  uint64_t state_hash() const override;
  std::string action_to_string(const Action& a) const override;
  Result<Action> parse_action(std::string_view text) const override;
  void resample_hidden(int viewer, uint64_t seed) override;
  Status test_set(const std::vector<std::string>& words) override;
  Result<std::string> test_query(const std::vector<std::string>& words) const override;

 protected:
  void do_apply(const Action& a) override;

 private:
  int winner() const;  // -1 none
  const RaceGame* game_;
  int goal_;
  int turn_ = 0;  // side to move
  int actions_ = 0;
  std::array<int, 2> pos_{};
  std::array<int, 2> card_{};
  std::array<bool, 2> revealed_{};
  mutable int refusals_ = 0;  // only used by the refusal_changes_state bug
};

}  // namespace steppe::testing
