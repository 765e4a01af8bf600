// The kernel's dice: counter-based, seeded, forceable. Replays and undo rely on roll n being
// a pure function of (seed, n), so these tests pin that down.
#include "kernel/dice.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace steppe {
namespace {

std::vector<int> rolls(Dice d, int n, int sides = 6) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i) out.push_back(d.roll(sides));
  return out;
}

TEST(Dice, SameSeedSameRollsOtherSeedOtherRolls) {
  EXPECT_EQ(rolls(Dice(42), 200), rolls(Dice(42), 200));
  EXPECT_NE(rolls(Dice(42), 200), rolls(Dice(43), 200));
}

TEST(Dice, EveryFaceInRangeAndRoughlyUniform) {
  for (int sides : {2, 6, 12}) {
    Dice d(7);
    std::vector<int> count(static_cast<size_t>(sides) + 1, 0);
    const int n = 12000 * sides;
    for (int i = 0; i < n; ++i) {
      const int r = d.roll(sides);
      ASSERT_GE(r, 1);
      ASSERT_LE(r, sides);
      ++count[static_cast<size_t>(r)];
    }
    for (int f = 1; f <= sides; ++f)  // 12000 expected per face; 5 sigma is about 550
      EXPECT_NEAR(count[static_cast<size_t>(f)], 12000, 600) << "d" << sides << " face " << f;
  }
}

TEST(Dice, RollNDependsOnlyOnSeedAndCounter) {
  Dice a(5);
  for (int i = 0; i < 10; ++i) a.roll(6);
  Dice b = a;  // a clone continues exactly where the original is
  EXPECT_EQ(a.counter(), 10u);
  EXPECT_EQ(rolls(a, 20), rolls(b, 20));
}

TEST(Dice, ForcedRollsComeFirstAndDoNotShiftTheRest) {
  const std::vector<int> free_rolls = rolls(Dice(9), 6);
  Dice d(9);
  d.force(1);
  d.force(6);
  EXPECT_TRUE(d.has_forced());
  EXPECT_EQ(d.roll(6), 1);
  EXPECT_EQ(d.roll(6), 6);
  EXPECT_FALSE(d.has_forced());
  EXPECT_EQ(d.counter(), 2u);
  // Rolls 3..6 are what they would have been had nothing been forced.
  for (size_t i = 2; i < free_rolls.size(); ++i) EXPECT_EQ(d.roll(6), free_rolls[i]) << "roll " << i;
}

TEST(Dice, ForcedValueTheDieCannotShowIsClampedAndReported) {
  Dice d(1);
  d.force(9);
  d.force(0);
  d.force(3);
  EXPECT_EQ(d.roll(6), 6);  // never 9: a table indexed by the roll stays in bounds
  EXPECT_EQ(d.roll(6), 1);
  EXPECT_EQ(d.roll(6), 3);
  EXPECT_EQ(d.take_misfit(), std::make_pair(9, 6));  // the first misfit is reported once
  EXPECT_EQ(d.take_misfit(), std::make_pair(0, 0));
  d.force(12);
  EXPECT_EQ(d.roll(12), 12);
  EXPECT_EQ(d.take_misfit(), std::make_pair(0, 0));
}

TEST(Dice, ClearForcedAndReseed) {
  Dice d(3);
  d.force(4);
  d.clear_forced();
  EXPECT_FALSE(d.has_forced());
  EXPECT_EQ(rolls(d, 10), rolls(Dice(3), 10));
  // A searcher that must not know future rolls reseeds: same counter, other outcomes.
  Dice e(3);
  e.reseed(1234);
  EXPECT_EQ(e.seed(), 1234u);
  EXPECT_NE(rolls(e, 50), rolls(Dice(3), 50));
}

TEST(Dice, BelowIsZeroBased) {
  Dice d(11);
  std::array<int, 5> seen{};
  for (int i = 0; i < 1000; ++i) {
    const int v = d.below(5);
    ASSERT_GE(v, 0);
    ASSERT_LT(v, 5);
    ++seen[static_cast<size_t>(v)];
  }
  for (int c : seen) EXPECT_GT(c, 0);
}

}  // namespace
}  // namespace steppe
