// The state of one example game and the parts of the State contract every game has:
// whose decision it is, the result, what each side sees, the hash.
#include <algorithm>

#include "games/example/example.h"

namespace example {

ExampleState::ExampleState(const ExampleGame& g, const Scenario* sc, uint64_t seed)
    : g_(&g),
      sc_(sc),
      hex_(g.units().size(), -1),
      done_(g.units().size(), 0),
      hit_(static_cast<size_t>(g.grid().size()), 0) {
  dice_.reseed(seed);
  if (sc->setup_hexs.size() == hex_.size()) hex_ = sc->setup_hexs;
}

int ExampleState::current_player() const { return is_terminal() ? steppe::kTerminalPlayer : phasing_side(); }

std::vector<double> ExampleState::returns() const {
  if (!is_terminal()) return {0.0, 0.0};
  return winner_ == kBlue ? std::vector<double>{1.0, -1.0} : std::vector<double>{-1.0, 1.0};
}

Json ExampleState::result() const {
  Json r = {{"turn", turn_}};
  r["winner"] = is_terminal() ? Json(g_->side_names()[static_cast<size_t>(winner_)]) : Json(nullptr);
  return r;
}

int ExampleState::unit_at(int hex) const {
  const auto it = std::find(hex_.begin(), hex_.end(), hex);
  return hex < 0 || it == hex_.end() ? -1 : static_cast<int>(it - hex_.begin());
}

bool ExampleState::next_to_enemy(int hex, int side) const {
  for (int n : g_->grid().neighbours(hex)) {
    const int u = n < 0 ? -1 : unit_at(n);
    if (u >= 0 && g_->units()[static_cast<size_t>(u)].side != side) return true;
  }
  return false;
}

Json ExampleState::observation(int side) const {
  (void)side;  // open information: the dice stream's position is the only thing left out
  Json units = Json::array();
  for (size_t u = 0; u < hex_.size(); ++u) {
    const UnitDef& d = g_->units()[u];
    units.push_back({{"id", d.id},
                     {"side", g_->side_names()[static_cast<size_t>(d.side)]},
                     {"attack", d.attack},
                     {"defense", d.defense},
                     {"ma", d.ma},
                     {"hex", hex_[u] < 0 ? Json(nullptr) : Json(g_->grid().id(hex_[u]))},
                     {"done", done_[u] != 0}});
  }
  return {{"turn", turn_},
          {"last_turn", sc_->turns},
          {"phase", kPhaseNames[phase_]},
          {"objective", sc_->objective < 0 ? Json(nullptr) : Json(g_->grid().id(sc_->objective))},
          {"units", units},
          {"result", result()}};
}

Json ExampleState::full_json() const {
  Json j = observation(kBlue);
  Json hit = Json::array();
  for (int h = 0; h < g_->grid().size(); ++h)
    if (hit_[static_cast<size_t>(h)] != 0) hit.push_back(g_->grid().id(h));
  j["attacked_hexes"] = hit;
  j["scenario"] = sc_->id;
  j["dice"] = {{"seed", dice_.seed()}, {"counter", dice_.counter()}};
  return j;
}

// The hash of the whole state as text: simple and stable across replays. A game searched
// millions of times hashes its fields directly (BD's state_hash).
uint64_t ExampleState::state_hash() const { return steppe::fnv1a64(full_json().dump()); }

}  // namespace example
