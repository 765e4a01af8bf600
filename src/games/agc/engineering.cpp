// 4.2 B6 the Axis Engineering Phase and C5 the Soviet Engineering Phase: "Both players may expend
// available Replacement Points (RPs) during their respective friendly Engineering Phases" (20.0);
// Strongpoints are begun and completed (18.3.5) and enemy fortifications destroyed (18.1.4);
// Overrun markers come off the enemy's units (11.4.4 Note). Rail conversion (19) and the
// replacements themselves (20) are not played in this version.
#include <algorithm>

#include "games/agc/agc.h"

namespace agc {

const char* AgcState::phase_name(Phase p) {
  static constexpr const char* kNames[kPhaseCount] = {
      "Axis Movement Phase",    "Axis Air Interdiction Phase",   "Soviet Reaction Phase",
      "Axis Combat Phase",      "Axis Motorized Movement Phase", "Soviet Motorized Movement Phase",
      "Axis Reaction Phase",    "Soviet Combat Phase",           "Soviet Movement Phase",
      "Axis Engineering Phase", "Soviet Engineering Phase",      "Soviet Surrender Phase"};
  return p < kPhaseCount ? kNames[p] : "end of turn";
}

// 4.2: whether the phase's player can still do something in an Engineering or Surrender Phase.
// The surrender checks are made as the Surrender Phase begins (surrender.cpp): nothing is left.
bool AgcState::phase_has_play() const {
  if (!engineering_phase()) return false;
  const int side = side_of_phase();
  if (side == kSoviet) return strongpoints_left_[kSoviet] > 0;  // 18.3.3
  if (sc_ == nullptr || !sc_->axis_strongpoints) return false;  // 18.3.4
  for (size_t u = 0; u < us_.size(); ++u)
    if (g_->units_[u].engineer && g_->units_[u].side == kAxis && us_[u].hex >= 0) return true;  // 22.3.2
  return false;
}

bool AgcState::strongpoint(int hex, int side) const { return hex >= 0 && strongpoint_[hex] == 3 + side; }

namespace {
// 22.3.1, 22.3.2: an engineer of `side` in `hex` that has not "engaged in combat ... or strategic or
// railroad movement".
bool engineer_in(const AgcState& s, int hex, int side) {
  for (size_t u = 0; u < s.us_.size(); ++u) {
    const auto& d = s.g().units_[u];
    if (s.us_[u].hex == hex && d.side == side && d.engineer && !s.us_[u].attacked && !s.us_[u].railed &&
        !s.us_[u].strategic)
      return true;
  }
  return false;
}
}  // namespace

void AgcState::begin_engineering() {
  const int side = side_of_phase();
  // 11.4.4 Note: "Overrun markers on Soviet units are removed during the Axis Engineering Phase.
  // Overrun markers on Axis units are removed during the Soviet Engineering Phase."
  for (size_t u = 0; u < us_.size(); ++u)
    if (us_[u].overrun && g_->units_[u].side != side) {
      us_[u].overrun = false;
      emit({"overrun",
            "the Overrun marker comes off " + g_->units_[u].label,
            "11.4.4",
            0xFFFFFFFFu,
            false,
            {}});
    }
  std::vector<uint8_t> supplied;
  supply_map(side, supplied);
  for (int h = 0; h < g_->grid_.size(); ++h) {
    // 18.1.4: "Any completed enemy fortification is destroyed when any friendly division or engineer
    // unit remains in the fortification hex during its Engineering Phase."
    if (strongpoint(h, 1 - side)) {
      bool destroyer = false;
      for (size_t u = 0; u < us_.size() && !destroyer; ++u)
        destroyer = us_[u].hex == h && g_->units_[u].side == side &&
                    (g_->units_[u].engineer || g_->units_[u].stacking >= 2);  // a division (ruling A-53)
      if (destroyer) {
        strongpoint_[h] = 0;
        emit({"fortification",
              "the enemy Strongpoint in " + g_->grid_.id(h) + " is destroyed",
              "18.1.4",
              0xFFFFFFFFu,
              false,
              {}});
      }
    }
    // 18.3.5: "During the next friendly Engineering Phase, flip Strongpoints that are under
    // construction over to their completed side if the construction hex is still in General
    // Supply"; 22.3.2: an Axis one only "if an Engineer is in that hex".
    if (strongpoint_[h] == 1 + side) {
      const bool ok = supplied[h] != 0 && (side == kSoviet || engineer_in(*this, h, kAxis));
      if (ok) {
        strongpoint_[h] = static_cast<uint8_t>(3 + side);
        emit({"fortification",
              "the Strongpoint in " + g_->grid_.id(h) + " is completed",
              "18.3.5",
              0xFFFFFFFFu,
              false,
              {}});
      }
    }
  }
}

// 7.2a: "Strongpoints are lost if not placed on the game-turn received."
void AgcState::end_engineering() {
  if (side_of_phase() == kSoviet) strongpoints_left_[kSoviet] = 0;
}

steppe::Status AgcState::check_strongpoint(int hex) const {
  if (!engineering_phase())
    return steppe::Error{"Strongpoints are built in the friendly Engineering Phase", "18.3.5", ""};
  if (hex < 0 || hex >= g_->grid_.size()) return steppe::Error{"no such hex", "18.3.1", ""};
  const int side = side_of_phase();
  if (strongpoint_[hex] != 0)
    return steppe::Error{"the construction hex cannot already contain another Strongpoint", "18.3.1", ""};
  if (occupant(hex) == 1 - side) return steppe::Error{"the hex holds enemy units", "18.3.1", ""};
  if (g_->terrain_[hex] == g_->lake_terrain_) return steppe::Error{"no Strongpoint in a lake", "18.3.1", ""};
  if (side == kSoviet && strongpoints_left_[kSoviet] <= 0)
    return steppe::Error{
        "the Soviet player may begin no more Strongpoints this turn than his Soviet Replacements Table roll "
        "gave",
        "18.3.3", ""};
  if (side == kAxis && (sc_ == nullptr || !sc_->axis_strongpoints))
    return steppe::Error{"the scenario instructions do not allow Axis Strongpoints", "18.3.4", ""};
  if (side == kAxis && !engineer_in(*this, hex, kAxis))
    return steppe::Error{
        "an Axis Strongpoint needs an engineer in the hex that has not attacked or moved by strategic or "
        "railroad movement this turn",
        "18.3.4, 22.3.2", ""};
  std::vector<uint8_t> supplied;
  supply_map(side, supplied);
  if (supplied[hex] == 0)
    return steppe::Error{"construction can start only on a hex in General Supply", "18.3.1", ""};
  return steppe::Status::ok();
}

void AgcState::do_strongpoint(int hex) {
  const int side = side_of_phase();
  if (side == kSoviet) --strongpoints_left_[kSoviet];
  // 22.3.1: "A Soviet Engineer unit can place a completed Strongpoint during the same game-turn it
  // is received."
  const bool completed = side == kSoviet && engineer_in(*this, hex, kSoviet);
  strongpoint_[hex] = static_cast<uint8_t>((completed ? 3 : 1) + side);
  emit({"fortification",
        std::string(completed ? "a completed Strongpoint is placed in " : "a Strongpoint is begun in ") +
            g_->grid_.id(hex),
        completed ? "22.3.1" : "18.3.5",
        0xFFFFFFFFu,
        false,
        {}});
}

}  // namespace agc
