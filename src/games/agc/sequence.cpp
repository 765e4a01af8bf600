// 4.2 Sequence of Play. A. the Strategic Segment (weather 5.1, supply 6.6, reinforcements
// 8.1) runs when a turn begins; then the player segments, which are not mirror images:
// B. Axis Movement (10.1, full MA), Axis Combat (15.0), Axis Motorized Movement (10.2, motorized
// units at one-half MA); C. Soviet Motorized Movement (10.2, motorized units at full MA; other
// units only when an HQ activates them, 10.2.4c), Soviet Combat (15.0), Soviet Movement (10.1,
// motorized units at one-half MA). The fractions of each phase are movement.json `phases` (the
// Movement Phase Chart). Attacks are declared at the end of the Axis Movement and Soviet
// Motorized Movement Phases (12.0); the defender's Reaction Phase (14.0) follows when an attack
// was declared. The Axis Air Interdiction Phase (13.1.1) follows the Axis Movement Phase when the
// Axis has an air unit in the Ready Box; the Air Readiness Phase (9.1) closes the Strategic Segment.
// The choices of the Replacements and Reinforcement Phases and of the Interphase are steps
// (StrategicStep, replacements.cpp), not phases.
// B6 the Axis Engineering Phase, C5 the Soviet Engineering Phase (18, 19, 20) and C6 the Soviet
// Surrender Phase (21) close the segments (engineering.cpp, surrender.cpp). The order is the table
// kOrderOfPlay, not the enum's numbers: new phases were appended to `enum Phase` so that saved
// positions keep their meaning.
#include <algorithm>

#include "games/agc/agc.h"

namespace agc {

// 4.2: "B. Axis Player Segment 1. Movement Phase ... 5. Motorized Movement Phase 6. Engineering Phase
// C. Soviet Player Segment 1. Motorized Movement Phase 2. Axis Reaction Phase 3. Combat Phase
// 4. Movement Phase 5. Engineering Phase 6. Soviet Surrender Phase".
const std::array<Phase, kPhaseCount> kOrderOfPlay = {
    kAxisMovement,          kAxisInterdiction, kSovietReaction,          kAxisCombat,
    kAxisMotorizedMovement, kAxisEngineering,  kSovietMotorizedMovement, kAxisReaction,
    kSovietCombat,          kSovietMovement,   kSovietEngineering,       kSovietSurrender};
// 4.2: the segment each phase belongs to, by Phase number (B: Axis, C: Soviet).
const std::array<int8_t, kPhaseCount> kSegmentSide = {
    kAxis,   kAxis,   kAxis,   kAxis, kAxis, kSoviet,  // movement .. Soviet motorized movement
    kSoviet, kSoviet, kSoviet,                         // Axis reaction, Soviet combat, Soviet movement
    kAxis,   kSoviet, kSoviet};                        // Axis engineering, Soviet engineering, surrender

Phase AgcState::next_phase(Phase p) {
  for (size_t i = 0; i + 1 < kOrderOfPlay.size(); ++i)
    if (kOrderOfPlay[i] == p) return kOrderOfPlay[i + 1];
  return kPhaseCount;
}

void AgcState::begin_turn() {
  // A. Strategic Segment: weather is the scenario's (5.1.1); supply is traced (6.6); then the
  // Replacements Phase (7.0) and the Reinforcement/Withdrawal Phase (8.0), whose choices may wait
  // for a player (replacements.cpp) before start_player_segments() closes the segment.
  rebuild_occupancy();
  trace_supply();
  // 7.2e.1: the victory point locations the Axis holds as the turn begins.
  vp_held_ = 0;
  if (sc_ != nullptr)
    for (size_t i = 0; i < sc_->vp_locations.size() && i < 64; ++i) {
      const int h = sc_->vp_locations[i].first;
      if (h >= 0 && control_[h] == kAxis) vp_held_ |= uint64_t{1} << i;
    }
  strategic_segment();
}

void AgcState::start_player_segments() {
  rebuild_occupancy();
  // 8.2.3: "Air units entering as reinforcements go directly to the Ready Box".
  if (sc_ != nullptr)
    for (const auto& [u, t] : sc_->air_arrivals)
      if (t == turn_ && us_[u].box == kAirOut && !us_[u].withdrawn) to_box(u, kAirReady, "8.2.3");
  air_readiness();  // A5 the Air Readiness Phase (9.0)
  // 11.1.2, 11.1.3, 11.3.3: rail movement and Rail Capacity, and strategic movement, are per game-turn.
  for (auto& s : us_) s.railed = s.strategic = false;
  rail_used_ = {};
  phase_ = kAxisMovement;
  begin_phase();
}

void AgcState::next_turn() {
  if (sc_ == nullptr || turn_ >= sc_->last_turn) {
    finish();
    return;
  }
  ++turn_;
  begin_turn();
}

void AgcState::begin_phase() {
  for (size_t u = 0; u < us_.size(); ++u) {
    us_[u].attacked = false;
    us_[u].moved_in_zoc = false;
    us_[u].moved = false;
    us_[u].road_in = -1;
    us_[u].restricted_moved = 0;  // 22.2.5g: "during each movement phase"
    us_[u].mp_left = static_cast<int8_t>(ma_this_phase(static_cast<int>(u)));
  }
  std::fill(attacked_hex_.begin(), attacked_hex_.end(), 0);
  // 12.0: the Declared Attack markers last from the declaration through the enemy's Reaction
  // Phase (14.0) to the Combat Phase (15.0) that executes them.
  if (!reaction_phase() && !combat_phase() && phase_ != kAxisInterdiction) decl_.clear();
  air_step_ = 0;
  air_hex_ = -1;
  air_init_ = air_side_ = -1;
  air_round_ = 0;
  if (combat_phase()) begin_air_steps();         // 17.1.7
  if (engineering_phase()) begin_engineering();  // 11.4.4 Note, 18.3.5 (engineering.cpp)
  if (surrender_phase()) begin_surrender();      // 21.1 (surrender.cpp)
  declaring_ = false;
  flipping_ = false;  // 11.6.1
  // 22.1.2: an HQ's command points are counted per game segment (ruling A-7).
  if (declaration_phase())
    for (auto& s : us_) s.orders_issued = s.dispatched = 0;
  emit(
      {"phase",
       "turn " + std::to_string(turn_) + " phase " + std::to_string(phase_) + " (" + phase_name(phase_) + ")",
       "4.2",
       0xFFFFFFFFu,
       false,
       {}});
}

// 3.0e.2: "A maximum of ten (10) stacking points can occupy a hex at the end of any friendly
// movement phase or retreat ... the excess is eliminated by the owning player. The units
// removed are placed in the Cadre Box". The owner's choice is made for him: the units that
// moved there last go first (they are the ones that broke the limit).
void AgcState::enforce_stacking(int side, const char* rule) {
  for (int h = 0; h < g_->grid_.size(); ++h) {
    while (stack_[side][h] > g_->stacking_limit_) {
      int victim = -1;
      for (size_t u = 0; u < us_.size(); ++u)
        if (us_[u].hex == h && g_->units_[u].side == side && g_->units_[u].stacking > 0 &&
            (victim < 0 || (us_[u].moved && !us_[victim].moved)))
          victim = static_cast<int>(u);
      if (victim < 0) break;
      emit({"stacking",
            g_->units_[victim].label + " exceeds the " + std::to_string(g_->stacking_limit_) +
                " stacking points of " + g_->grid_.id(h) + " and goes to the Cadre Box",
            rule,
            0xFFFFFFFFu,
            false,
            {}});
      stack_[side][h] = static_cast<uint8_t>(stack_[side][h] - g_->units_[victim].stacking);
      us_[victim].hex = -1;
      us_[victim].eliminated = true;
    }
  }
  rebuild_occupancy();
}

void AgcState::end_phase() {
  if (strategic_ != kNoStep) {  // 4.2 A3, A4, D: a step of the Strategic Segment or the Interphase
    end_strategic_step();
    return;
  }
  // 17.1.6, 17.1.7: `end` first closes the allocation steps of the air missions.
  if (phase_ == kAxisInterdiction) {
    air_end_step();
    if (air_step_ != 2) return;
  } else if (combat_phase() && air_step_ != 2) {
    air_end_step();
    return;
  }
  close_advance();  // 16.7.1: ending the phase declines an advance still open
  if (phase_ != kAxisCombat && phase_ != kSovietCombat && phase_ != kAxisInterdiction)
    enforce_stacking(side_of_phase(), "3.0e.2");
  // 12.3.6: "Once an attack is declared, it must be executed": the end of a Combat Phase drops
  // only the declared attacks that can no longer be made (no defender or no attacker is left).
  if (combat_phase())
    for (size_t i = 0; i < decl_.size(); ++i)
      if (!decl_[i].resolved) {
        emit({"combat",
              "the declared attack on " + g_->grid_.id(decl_[i].hexes[0]) + " can no longer be made",
              "12.3.6",
              0xFFFFFFFFu,
              false,
              {}});
        decl_[i].resolved = true;
      }
  if (engineering_phase()) end_engineering();  // 18.3.5, 11.4.4 Note (engineering.cpp)
  if (next_phase(phase_) < kPhaseCount) {
    phase_ = next_phase(phase_);
    // 13.1.1: "the Axis player can conduct Interdiction missions": with no air unit in the Ready
    // Box (17.1.3) he has none to fly, and the phase is passed.
    if (phase_ == kAxisInterdiction) {
      bool ready = false;
      for (size_t u = 0; u < us_.size(); ++u)
        ready = ready || (g_->units_[u].air && g_->units_[u].side == kAxis && us_[u].box == kAirReady);
      if (!ready) phase_ = next_phase(phase_);
    }
    // 14.1: "if the moving player has declared no combats ... no Reaction Movement is possible";
    // Orders and artillery go to declared attacks only (14.2.1, 14.3.1): no Reaction Phase.
    if (reaction_phase() && decl_.empty()) {
      emit({"phase", "no attack was declared: no Reaction Phase", "14.1", 0xFFFFFFFFu, false, {}});
      phase_ = next_phase(phase_);
    }
    begin_phase();
    // 4.2: an Engineering or Surrender Phase in which the phase's player can do nothing is passed.
    if ((engineering_phase() || surrender_phase()) && !phase_has_play()) {
      emit({"phase",
            std::string("nothing to do in the ") + phase_name(phase_) + ": the phase is passed",
            "4.2",
            0xFFFFFFFFu,
            false,
            {}});
      end_phase();
    }
    return;
  }
  if (sc_ == nullptr) {
    finish();
    return;
  }
  // D. the Interphase: "Remove all Interdiction markers during each Game Turn Interphase" (13.2.7 Note).
  if (std::count(interdiction_.begin(), interdiction_.end(), 0) != static_cast<long>(interdiction_.size()))
    emit({"interdiction", "the Interdiction markers are removed", "13.2.7", 0xFFFFFFFFu, false, {}});
  std::fill(interdiction_.begin(), interdiction_.end(), 0);
  interphase();  // special_units.cpp: 10.2.4c, 7.2e.1, 22.2.6; then the next turn
}

}  // namespace agc
