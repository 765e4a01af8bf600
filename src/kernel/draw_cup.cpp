#include "kernel/draw_cup.h"

#include <algorithm>

namespace steppe {

namespace {
// A stream apart from the dice's: the same seed must not make the cup echo the dice.
constexpr uint64_t kCupStream = 0xC0FFEE5EEDC0FFEEULL;
}  // namespace

void DrawCup::add(int chit, int count) {
  for (int i = 0; i < count; ++i)
    contents_.insert(std::upper_bound(contents_.begin(), contents_.end(), chit), chit);
}

bool DrawCup::remove(int chit) {
  const auto it = std::lower_bound(contents_.begin(), contents_.end(), chit);
  if (it == contents_.end() || *it != chit) return false;
  contents_.erase(it);
  return true;
}

void DrawCup::return_drawn() {
  for (int32_t chit : drawn_) add(chit);
  drawn_.clear();
}

int DrawCup::count(int chit) const {
  const auto [lo, hi] = std::equal_range(contents_.begin(), contents_.end(), chit);
  return static_cast<int>(hi - lo);
}

int DrawCup::draw() {
  if (contents_.empty()) return -1;
  const uint64_t n = counter_++;
  auto it = contents_.end();
  if (!forced_.empty()) {
    const int want = forced_.front();
    forced_.erase(forced_.begin());
    it = std::lower_bound(contents_.begin(), contents_.end(), want);
    if (it == contents_.end() || *it != want) {
      if (misfit_ < 0) misfit_ = want;
      it = contents_.end();
    }
  }
  if (it == contents_.end()) {
    const uint64_t r = splitmix64(seed_ ^ kCupStream ^ splitmix64(n));
    // Top 32 bits times the cup's size, shifted: bias below 2^-20 for any cup we use.
    const auto k = static_cast<ptrdiff_t>(((r >> 32) * static_cast<uint64_t>(contents_.size())) >> 32);
    it = contents_.begin() + k;
  }
  const int chit = *it;
  contents_.erase(it);
  drawn_.push_back(chit);
  return chit;
}

}  // namespace steppe
