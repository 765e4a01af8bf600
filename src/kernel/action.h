// Action: one decision of one side, a small fixed-size value (no heap), so that legal
// action generation and search can copy and compare actions freely. Each game gives its
// verbs and arguments meaning and prints/parses them in the readable notation
// (`move 4Pz 2514 2614 2714`), which is what logs, saves, the CLI and tests use.
#pragma once

#include <array>
#include <cstdint>
#include <functional>

namespace steppe {

struct Action {
  static constexpr int kMaxArgs = 30;

  uint16_t verb = 0;  // game-defined verb id; 0 is never a valid verb
  uint16_t nargs = 0;
  std::array<int32_t, kMaxArgs> args{};

  void push(int32_t a) { args[nargs++] = a; }
  bool full() const { return nargs >= kMaxArgs; }

  friend bool operator==(const Action& a, const Action& b) {
    if (a.verb != b.verb || a.nargs != b.nargs) return false;
    for (int i = 0; i < a.nargs; ++i)
      if (a.args[i] != b.args[i]) return false;
    return true;
  }

  uint64_t hash() const {
    uint64_t h = 1469598103934665603ULL ^ verb;
    h = (h ^ nargs) * 1099511628211ULL;
    for (int i = 0; i < nargs; ++i) h = (h ^ static_cast<uint32_t>(args[i])) * 1099511628211ULL;
    return h;
  }
};

}  // namespace steppe

template <>
struct std::hash<steppe::Action> {
  size_t operator()(const steppe::Action& a) const noexcept { return a.hash(); }
};
