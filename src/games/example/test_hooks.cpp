// Scenario-test hooks (docs/scenario-tests.md), kept apart from the rules: set-up words for
// `set ...` lines and queries for `expect ...` lines. Nothing but the scenario-test runner
// calls them; the server and the agents never do.
//   set place UNIT HEX      a unit onto the map (from anywhere, even eliminated)
//   set remove UNIT         a unit off the map
//   set phase NAME          blue-movement | blue-combat | red-movement | red-combat
//   set turn N
//   expect unit UNIT hex = HEX|eliminated
//   expect cost UNIT HEX = MP|unreachable   the movement search check_move() runs
//   expect odds HEX = COLUMN         the column after shifts ("below" under the first)
//   expect phase = NAME,  expect turn = N
#include <charconv>

#include "games/example/example.h"

namespace example {

using steppe::Error;
using steppe::Result;
using steppe::Status;

Status ExampleState::test_set(const std::vector<std::string>& w) {
  if (w.size() == 3 && w[0] == "place") {
    const int u = g_->unit_index(w[1]);
    const int h = g_->grid().parse(w[2]);
    if (u < 0 || h < 0) return Error{"set place: no unit '" + w[1] + "' or no hex '" + w[2] + "'", "", ""};
    if (unit_at(h) >= 0 && unit_at(h) != u)
      return Error{"set place: " + w[2] + " already holds a unit", "3.3", ""};
    hex_[static_cast<size_t>(u)] = h;
    return Status::ok();
  }
  if (w.size() == 2 && w[0] == "remove") {
    const int u = g_->unit_index(w[1]);
    if (u < 0) return Error{"set remove: no unit '" + w[1] + "'", "", ""};
    hex_[static_cast<size_t>(u)] = -1;
    return Status::ok();
  }
  if (w.size() == 2 && w[0] == "phase") {
    for (int p = 0; p < kPhaseCount; ++p)
      if (w[1] == kPhaseNames[static_cast<size_t>(p)]) {
        phase_ = static_cast<Phase>(p);
        std::fill(done_.begin(), done_.end(), 0);
        std::fill(hit_.begin(), hit_.end(), 0);
        return Status::ok();
      }
    return Error{"set phase: no phase '" + w[1] + "'", "2.1", ""};
  }
  if (w.size() == 2 && w[0] == "turn") {
    int t = 0;
    const auto [end, ec] = std::from_chars(w[1].data(), w[1].data() + w[1].size(), t);
    if (ec != std::errc() || end != w[1].data() + w[1].size() || t < 1 || t > sc_->turns)
      return Error{"set turn: not a turn of this scenario: '" + w[1] + "'", "2.1", ""};
    turn_ = t;
    return Status::ok();
  }
  return Error{"unknown set-up words (place UNIT HEX, remove UNIT, phase NAME, turn N)", "", ""};
}

Result<std::string> ExampleState::test_query(const std::vector<std::string>& w) const {
  if (w.size() == 3 && w[0] == "unit" && w[2] == "hex") {
    const int u = g_->unit_index(w[1]);
    if (u < 0) return Error{"no unit '" + w[1] + "'", "", ""};
    return hex_of(u) < 0 ? std::string("eliminated") : g_->grid().id(hex_of(u));
  }
  if (w.size() == 2 && w[0] == "odds") {
    const int h = g_->grid().parse(w[1]);
    if (h < 0) return Error{"no hex '" + w[1] + "'", "", ""};
    const Odds o = odds_against(h);
    return o.final_col < 0 ? std::string("below") : g_->crt_columns()[static_cast<size_t>(o.final_col)];
  }
  if (w.size() == 3 && w[0] == "cost") {
    const int u = g_->unit_index(w[1]);
    const int h = g_->grid().parse(w[2]);
    if (u < 0 || h < 0 || hex_of(u) < 0)
      return Error{"cost: no unit '" + w[1] + "' on the map or no hex '" + w[2] + "'", "", ""};
    steppe::PathFinder pf;
    search_moves(u, pf);
    return pf.reached(h) ? std::to_string(pf.cost(h)) : std::string("unreachable");
  }
  if (w.size() == 1 && w[0] == "phase") return std::string(kPhaseNames[phase_]);
  if (w.size() == 1 && w[0] == "turn") return std::to_string(turn_);
  return Error{"unknown query (unit UNIT hex, cost UNIT HEX, odds HEX, phase, turn)", "", ""};
}

}  // namespace example
