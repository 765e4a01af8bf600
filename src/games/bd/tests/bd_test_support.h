// What the BD test binaries share: the game loaded once, a fresh state of a scenario, and
// the scenario-test set-up words and queries written as one string.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "games/bd/bd_game.h"
#include "games/bd/bd_state.h"
#include "kernel/notation.h"

namespace bd_test {

inline const bd::BdGame& game() {
  static std::unique_ptr<steppe::Game> g = [] {
    auto r = bd::load_game(STEPPE_DEFAULT_DATA_DIR);
    if (!r) {
      ADD_FAILURE() << r.error().to_string();
      return std::unique_ptr<steppe::Game>();
    }
    return std::move(r).value();
  }();
  return static_cast<const bd::BdGame&>(*g);
}

inline std::unique_ptr<bd::BdState> fresh(const std::string& scenario = "empty", uint64_t seed = 1) {
  auto s = game().new_state(scenario, seed);
  EXPECT_TRUE(s.is_ok()) << (s ? "" : s.error().to_string());
  return std::unique_ptr<bd::BdState>(static_cast<bd::BdState*>(std::move(s).value().release()));
}

// A scenario-test query ("odds attack 2614 from 2514"): its answer, or "ERROR: ..." when refused.
inline std::string q(const bd::BdState& s, const std::string& text) {
  auto r = s.test_query(steppe::split_words(text));
  return r ? *r : "ERROR: " + r.error().to_string();
}

// A scenario-test set-up word ("place german 4Pz 2514"), which must be accepted.
inline void set(bd::BdState& s, const std::string& text) {
  auto st = s.test_set(steppe::split_words(text));
  ASSERT_TRUE(st.is_ok()) << text << ": " << st.error().to_string();
}

}  // namespace bd_test
