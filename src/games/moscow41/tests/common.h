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

inline std::unique_ptr<Moscow41State> start(const std::string& scenario, uint64_t seed = 1) {
  auto r = game().new_state(scenario, seed);
  if (!r) {
    ADD_FAILURE() << r.error().to_string();
    return nullptr;
  }
  return std::unique_ptr<Moscow41State>(dynamic_cast<Moscow41State*>(std::move(r).value().release()));
}

}  // namespace moscow41::test
