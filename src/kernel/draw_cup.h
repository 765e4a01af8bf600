// The draw cup: chits drawn blind from a cup, for chit-draw activation games (which
// formation moves next). It stands beside the dice (dice.h) and works the same way: draw
// n of a game is a pure function of (seed, n) and the cup's contents, so a log of actions
// plus the seed replays bit for bit, and a state can be cloned or hashed without hidden
// generator state. Tests and scenario files can force the next draws.
//
// The cup has no hidden order to leak: it holds its chits as a sorted multiset (what is in
// the cup is public, as the chits put in are seen), and a draw picks uniformly among them
// only when it is made. Nothing in the object says which chit comes out next; a searcher
// that must not know future draws gives the cup a new seed (reseed), as with the dice.
// What came out is kept in drawn(), in order, for the log.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "kernel/dice.h"

namespace steppe {

class DrawCup {
 public:
  DrawCup() = default;
  explicit DrawCup(uint64_t seed) : seed_(seed) {}

  // Puts `count` copies of `chit` (a game's id, >= 0) into the cup.
  void add(int chit, int count = 1);
  // Takes one `chit` out without drawing it (eliminated, held back); false if none is in.
  bool remove(int chit);
  // Puts every drawn chit back (the end of a turn in most chit-draw games); drawn() empties.
  void return_drawn();

  // Draws one chit at random from the cup: -1 when the cup is empty. A draw advances the
  // counter even when forced, so forcing never shifts the draws that follow.
  int draw();

  // Forces the next draw to yield `chit`. If that chit is not in the cup when the draw is
  // made, the draw is random and the misfit is remembered for the test runner.
  void force(int chit) { forced_.push_back(chit); }
  bool has_forced() const { return !forced_.empty(); }
  void clear_forced() { forced_.clear(); }
  // The first forced chit since the last call that was not in the cup, or -1. Clears it.
  int take_misfit() { return std::exchange(misfit_, -1); }

  bool empty() const { return contents_.empty(); }
  int size() const { return static_cast<int>(contents_.size()); }
  int count(int chit) const;
  // What is in the cup, sorted (never the order the chits will come out: there is none).
  std::span<const int32_t> contents() const { return contents_; }
  // The chits drawn since the last return_drawn(), in the order they came out.
  const std::vector<int32_t>& drawn() const { return drawn_; }

  uint64_t seed() const { return seed_; }
  uint64_t counter() const { return counter_; }
  void reseed(uint64_t seed) { seed_ = seed; }

  friend bool operator==(const DrawCup&, const DrawCup&) = default;

 private:
  uint64_t seed_ = 0;
  uint64_t counter_ = 0;
  std::vector<int32_t> contents_;  // sorted
  std::vector<int32_t> drawn_;
  std::vector<int> forced_;
  int misfit_ = -1;
};

}  // namespace steppe
