#pragma once

#include <gtest/gtest.h>

#include "games/all_games.h"
#include "games/moscow41/state.h"

namespace moscow41::test {

inline const Moscow41Game& game() {
  static std::unique_ptr<steppe::Game> g = [] {
    auto r = moscow41::load_game(STEPPE_DEFAULT_DATA_DIR);
    if (!r) {
      ADD_FAILURE() << r.error().to_string();
      std::abort();
    }
    return std::move(r).value();
  }();
  return *dynamic_cast<const Moscow41Game*>(g.get());
}

// Plays `setup auto` for each side still setting up (Scenarios 2 and 3 begin with the
// Scenario Setup phase, Soviets first); true when the set-up is over.
inline bool play_setup_auto(Moscow41State& s) {
  for (int k = 0; k < 2 && s.test_query({"phase"}).value() == "setup"; ++k) {
    auto a = s.parse_action("setup auto");
    if (!a || !s.apply(a.value()).is_ok()) return false;
  }
  return s.test_query({"phase"}).value() != "setup";
}

// A new game; with `set_up` (the default, for the tests of later rules) its set-up phase,
// if any, is played with `setup auto` for both sides.
inline std::unique_ptr<Moscow41State> start(const std::string& scenario, uint64_t seed = 1,
                                            bool set_up = true) {
  auto r = game().new_state(scenario, seed);
  if (!r) {
    ADD_FAILURE() << r.error().to_string();
    return nullptr;
  }
  auto s = std::unique_ptr<Moscow41State>(dynamic_cast<Moscow41State*>(std::move(r).value().release()));
  if (set_up && !play_setup_auto(*s)) ADD_FAILURE() << scenario << ": setup auto did not finish the set-up";
  return s;
}

}  // namespace moscow41::test
