#pragma once

#include <gtest/gtest.h>

#include "games/all_games.h"
#include "games/moscow41/state.h"
#include "kernel/notation.h"

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

// A new game; with `play_setup` (the default, for the tests of later rules) its set-up
// phase, if any, is played with `setup auto` for both sides.
inline std::unique_ptr<Moscow41State> start(const std::string& scenario, uint64_t seed = 1,
                                            bool play_setup = true) {
  auto r = game().new_state(scenario, seed);
  if (!r) {
    ADD_FAILURE() << r.error().to_string();
    return nullptr;
  }
  auto s = std::unique_ptr<Moscow41State>(dynamic_cast<Moscow41State*>(std::move(r).value().release()));
  if (play_setup && !play_setup_auto(*s))
    ADD_FAILURE() << scenario << ": setup auto did not finish the set-up";
  return s;
}

// Scenario-test set-up lines ("place german 4Pz 28"), each of which must be accepted.
inline void set_up(Moscow41State& s, const std::vector<std::string>& lines) {
  for (const auto& l : lines) ASSERT_TRUE(s.test_set(steppe::split_words(l)).is_ok()) << l;
}

// An action in the notation, which must parse and be legal.
inline void act(Moscow41State& s, const std::string& text) {
  auto a = s.parse_action(text);
  ASSERT_TRUE(a) << text;
  const auto st = s.apply(*a);
  ASSERT_TRUE(st.is_ok()) << text << ": " << st.error().to_string();
}

}  // namespace moscow41::test
