// Helpers the Barbarossa Deluxe rules files share (bd_state.cpp split by rule chapter,
// issue 19); internal to src/games/bd/, not part of the game's API.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "games/bd/bd_game.h"
#include "games/bd/bd_state.h"
#include "kernel/json_data.h"
#include "kernel/notation.h"

namespace bd {

// The move-generation memo's epoch (movement.cpp): bumped when a map may have been edited
// in place or a state made from other data, so that every thread's memo starts again.
extern std::atomic<uint64_t> g_move_memo_epoch;

inline constexpr const char* kPhaseNames[] = {
    "setup",           "german-admin",   "soviet-admin",   "german-order",
    "german-phase-b",  "german-phase-c", "soviet-order",   "soviet-offensive-supply",
    "soviet-rvgk",     "soviet-phase-b", "soviet-phase-c", "game-over",
    "german-strategic"};
inline constexpr const char* kWhereNames[] = {"out-of-play", "map",  "dead",      "dead-permanent", "rvgk",
                                              "caucasus",    "trrt", "to-set-up", "bulgaria"};
inline constexpr const char* kSupplyNames[] = {"overland", "garrison", "coastal", "aerial",
                                               "oos",      "always",   "none",    "crimea"};
inline constexpr const char* kSupportNames[] = {"",          "artillery", "air-army", "interceptor",
                                                "partisans", "airborne"};
inline constexpr const char* kOrderNames[] = {"none", "move-fight", "fight-move", "fight-fight"};

inline steppe::Error rerr(const char* rule, std::string msg) {
  return steppe::Error{std::move(msg), rule, ""};
}

inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

}  // namespace bd
