#include "kernel/draw_cup.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

namespace steppe {
namespace {

std::vector<int> draw_all(DrawCup cup) {
  std::vector<int> out;
  while (!cup.empty()) out.push_back(cup.draw());
  return out;
}

DrawCup cup_of(uint64_t seed, std::initializer_list<int> chits) {
  DrawCup cup(seed);
  for (int c : chits) cup.add(c);
  return cup;
}

TEST(DrawCup, EveryChitComesOutOnceThenTheCupIsEmpty) {
  DrawCup cup = cup_of(5, {3, 1, 4, 1, 5, 9, 2, 6});
  EXPECT_EQ(cup.size(), 8);
  EXPECT_EQ(cup.count(1), 2);
  std::vector<int> out = draw_all(cup);
  std::sort(out.begin(), out.end());
  EXPECT_EQ(out, (std::vector<int>{1, 1, 2, 3, 4, 5, 6, 9}));
  while (!cup.empty()) cup.draw();
  EXPECT_EQ(cup.draw(), -1);
  EXPECT_EQ(cup.drawn().size(), 8u);
}

// Replay: the same seed and the same operations give the same draws; the draws do not
// depend on the order the chits went in (the cup holds no order of its own).
TEST(DrawCup, SameSeedSameDrawsWhateverTheOrderChitsWentIn) {
  EXPECT_EQ(draw_all(cup_of(11, {1, 2, 3, 4, 5, 6, 7})), draw_all(cup_of(11, {7, 6, 5, 4, 3, 2, 1})));
  EXPECT_EQ(cup_of(11, {1, 2, 3}), cup_of(11, {3, 1, 2}));
  bool some_differ = false;
  for (uint64_t s = 12; s < 20; ++s)
    some_differ |= draw_all(cup_of(11, {1, 2, 3, 4, 5, 6, 7})) != draw_all(cup_of(s, {1, 2, 3, 4, 5, 6, 7}));
  EXPECT_TRUE(some_differ);
}

// A clone made mid-game carries on exactly as the original: no hidden generator state.
TEST(DrawCup, CloneContinuesIdentically) {
  DrawCup cup = cup_of(3, {10, 11, 12, 13, 14, 15});
  cup.draw();
  cup.draw();
  DrawCup copy = cup;
  EXPECT_EQ(draw_all(cup), draw_all(copy));
  EXPECT_EQ(copy.counter(), 2u);
}

// Each chit is equally likely to come out first.
TEST(DrawCup, FirstDrawRoughlyUniform) {
  std::map<int, int> first;
  const int trials = 6000;
  for (int s = 0; s < trials; ++s) ++first[cup_of(static_cast<uint64_t>(s), {0, 1, 2, 3, 4, 5}).draw()];
  ASSERT_EQ(first.size(), 6u);
  for (const auto& [chit, n] : first) {
    EXPECT_GT(n, trials / 6 - 150) << chit;
    EXPECT_LT(n, trials / 6 + 150) << chit;
  }
}

TEST(DrawCup, ForcedDrawsComeFirstAndDoNotShiftTheRest) {
  DrawCup plain = cup_of(9, {1, 2, 3, 4, 5, 6});
  DrawCup forced = plain;
  plain.draw();
  forced.force(4);
  EXPECT_EQ(forced.draw(), 4);
  EXPECT_EQ(forced.counter(), plain.counter());
  // A chit not in the cup: the draw is random and the misfit is reported once.
  forced.force(42);
  const int got = forced.draw();
  EXPECT_NE(got, 42);
  EXPECT_GE(got, 1);
  EXPECT_EQ(forced.take_misfit(), 42);
  EXPECT_EQ(forced.take_misfit(), -1);
}

TEST(DrawCup, RemoveAndReturnDrawn) {
  DrawCup cup = cup_of(1, {1, 2, 2, 3});
  EXPECT_TRUE(cup.remove(2));
  EXPECT_EQ(cup.count(2), 1);
  EXPECT_FALSE(cup.remove(7));
  EXPECT_EQ(cup.size(), 3);
  const int a = cup.draw();
  const int b = cup.draw();
  EXPECT_EQ(cup.drawn(), (std::vector<int32_t>{a, b}));
  cup.return_drawn();
  EXPECT_TRUE(cup.drawn().empty());
  EXPECT_EQ(cup.size(), 3);
  EXPECT_TRUE(std::is_sorted(cup.contents().begin(), cup.contents().end()));
}

// Reseeding (determinization for a searcher) changes the draws that follow.
TEST(DrawCup, ReseedChangesFutureDraws) {
  DrawCup a = cup_of(2, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  DrawCup b = a;
  b.reseed(99);
  EXPECT_NE(draw_all(a), draw_all(b));
}

}  // namespace
}  // namespace steppe
