// The conformance suite every game's tests call: random playouts that check the State
// contract (src/kernel/state.h) mechanically, so that each game module gets the same
// guarantees without writing them again:
//
// - every listed legal action passes check() and applies; the list has no duplicates;
// - random mutations of legal actions that are not in the legal list are refused with an
//   Error, emit no events, and leave the state hash (and full_json) unchanged;
// - a clone equals the original (hash and full_json) and evolves identically;
// - replaying the action log (through the text notation) reproduces the hash;
// - action_to_string / parse_action round-trip every legal action;
// - observation(side) is a function of the side's information set: a clone with
//   resample_hidden(side, s) gives the identical observation;
// - a game with a position format (kernel/position.h) reads its own position back to the
//   same state, and a state loaded from a position evolves like the original;
// - is_terminal() agrees with current_player(); a live state has legal actions and a
//   side in range; returns() is sized to the sides; result() is an object.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernel/state.h"

namespace steppe {

struct ConformanceReport {
  int playouts = 0;
  int finished = 0;                   // playouts that reached a terminal state within max_actions
  int64_t actions = 0;                // actions applied along the playouts
  int64_t legal_checked = 0;          // legal actions checked (check + notation round trip)
  int64_t legal_applied = 0;          // legal actions applied to clones (all actions of sampled states)
  int64_t illegal_tried = 0;          // mutated actions refused as they should be
  int64_t refusals_without_rule = 0;  // of those, refusals citing no rule (malformed actions)
  int64_t observation_checks = 0;
  int64_t position_checks = 0;  // positions written and read back (games with a position format)
  int64_t failure_count = 0;
  std::vector<std::string> failures;  // the first few, readable

  bool ok() const { return failure_count == 0; }
  std::string summary() const;  // one paragraph: counts and the first failures
};

// Plays `playouts` random games of `scenario` (each seeded from `seed`), each cut after
// `max_actions` actions, checking the contract above along the way.
// `on_playout_done(done, playouts)`, if given, is called after each playout (progress bars).
ConformanceReport run_conformance(const Game& game, const std::string& scenario, int playouts, uint64_t seed,
                                  int max_actions, const std::function<void(int, int)>& on_playout_done = {});

}  // namespace steppe
