// Dice: a seeded, counter-based generator. Roll n of a game is a pure function of
// (seed, n), so a log of actions plus the seed replays bit for bit, and a state can be
// cloned or hashed without hidden generator state. Tests and scenario files can force
// the next rolls; a forced roll still advances the counter, so forcing never shifts
// the rolls that follow it.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace steppe {

inline uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

class Dice {
 public:
  Dice() = default;
  explicit Dice(uint64_t seed) : seed_(seed) {}

  // One roll of a die with `sides` faces: 1..sides.
  int roll(int sides) {
    const uint64_t n = counter_++;
    if (!forced_.empty()) {
      const int v = forced_.front();
      forced_.erase(forced_.begin());
      if (v >= 1 && v <= sides) return v;
      // A forced value the die cannot show (a test's `dice 9` met by a d6) would index past
      // a table; the roll is clamped and remembered so the test runner can fail the test.
      if (misfit_ == 0) {
        misfit_ = v;
        misfit_sides_ = sides;
      }
      return v < 1 ? 1 : sides;
    }
    const uint64_t r = splitmix64(seed_ ^ splitmix64(n));
    // Top 32 bits times sides, shifted: bias below 2^-26 for any die we use.
    return 1 + static_cast<int>(((r >> 32) * static_cast<uint64_t>(sides)) >> 32);
  }

  // Uniform integer in [0, n): for shuffles and random draws (not shown as a die).
  int below(int n) { return roll(n) - 1; }

  void force(int value) { forced_.push_back(value); }
  bool has_forced() const { return !forced_.empty(); }
  void clear_forced() { forced_.clear(); }
  // The first forced value since the last call that did not fit its die, as {value, sides};
  // {0, 0} when every forced roll fitted. Clears it.
  std::pair<int, int> take_misfit() {
    const std::pair<int, int> m{misfit_, misfit_sides_};
    misfit_ = misfit_sides_ = 0;
    return m;
  }

  uint64_t seed() const { return seed_; }
  uint64_t counter() const { return counter_; }
  // Determinization: a searcher that must not know future rolls gives the dice a new seed.
  void reseed(uint64_t seed) { seed_ = seed; }
  // A position's dice stream (kernel/position.h): the next roll is roll `counter` of `seed`.
  void restore(uint64_t seed, uint64_t counter) {
    seed_ = seed;
    counter_ = counter;
    forced_.clear();
  }

 private:
  uint64_t seed_ = 0;
  uint64_t counter_ = 0;
  std::vector<int> forced_;
  int misfit_ = 0, misfit_sides_ = 0;
};

}  // namespace steppe
