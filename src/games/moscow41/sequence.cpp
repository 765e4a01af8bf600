// Moscow '41: Sequence of play (3.0, 6.0): turns, weather (8.0), impulses, deactivation (10.17),
// the Initiative (3.2.1) and the Final Phase (13.0).
// Every rule cites its rulebook section (seeds/002).
#include <algorithm>

#include "games/moscow41/state.h"
#include "games/moscow41/state_names.h"

namespace moscow41 {

namespace {

constexpr int kNovember = 5, kDecember = 6;  // turns 5 and 6 (1.4)

}  // namespace

// ----------------------------------------------------------------------------------------
// Sequence of play (3.0, 6.0)
int Moscow41State::current_player() const {
  if (phase_ == Phase::kOver) return steppe::kTerminalPlayer;
  return loss_pending() ? battle_.loss_side : active_;  // 10.14.1: the owner allocates
}

void Moscow41State::start_turn(int t) {
  turn_ = t;
  passes_in_row_ = 0;
  german_impulses_ = 0;
  initiative_spent_this_turn_[0] = initiative_spent_this_turn_[1] = false;
  log("phase", std::string("turn ") + std::to_string(t) + " (" + kMonths[t - 1] + ")", "3.0");
  if (t == 5) {  // 5.1: the N blocks join the Soviet pool at the start of November
    for (auto& s : blocks_)
      if (s.loc == kLocOobN) s.loc = kLocPool;
  }
  if (t >= 2) {  // 7.0: Logistics Phase on turns 2-6, the player without the Initiative first
    phase_ = Phase::kLogistics;
    logistics_done_ = 0;
    active_ = 1 - initiative_;
    if (active_ == kSoviet && stalin_dead_) {
      logistics_done_ = 1;
      active_ = initiative_;
    }
  } else {
    phase_ = Phase::kImpulse;
    active_ = initiative_;
  }
}

void Moscow41State::weather_check() {
  // 8.1: from the 2nd German impulse of October, at each German impulse the forecast
  // marker moves right and the Soviet player rolls; roll <= box: the weather moves on.
  // 1.6: "The Weather is predetermined (Sunny) during all the Impulses of July, August and
  // September": nothing is rolled before October (turn 4).
  if (active_ != kGerman || turn_ < 4) return;
  ++german_impulses_;
  // OR 14.5: from the 2nd German impulse of December the weather is Blizzard, whatever it
  // was; it works as Snow (weather_ stays Snow) with the German strength rule of 14.5.
  if (options_[kOptBlizzard] && turn_ == kDecember && german_impulses_ >= 2 && !blizzard_) {
    blizzard_ = true;
    weather_ = kSnow;
    forecast_ = 0;
    log("weather", "the weather turns to Blizzard", "14.5");
    return;
  }
  if (turn_ == 4 && german_impulses_ == 1) return;
  if (weather_ >= kSnow) return;
  forecast_ = std::min(forecast_ + 1, g_.tables().weather_track_len);
  const int r = roll(6, "weather (forecast box " + std::to_string(forecast_) + ")", "8.1");
  if (r <= forecast_) {
    ++weather_;
    forecast_ = 0;
    log("weather", std::string("the weather turns to ") + kWeather[weather_], "8.1");
  }
}

void Moscow41State::start_impulse(ImpulseKind k) {
  impulse_ = k;
  ++impulses_started_;
  if (active_ == kGerman)  // 10.14.3: aborted bombers are back from the next German impulse
    for (auto& b : bomber_status_)
      if (b == kBomberAborted) b = kBomberReady;
  weather_check();
  supply_check(active_);
  for (auto& a : areas_) a.fought = false, a.artillery = -1;
  for (int n = 0; n < node_count(); ++n) as(n).contested_at_start = contested(n);
  for (auto& s : blocks_) s.acted = false, s.river = false;
}

void Moscow41State::end_impulse() {
  for (size_t i = 0; i < bomber_status_.size(); ++i)
    if (bomber_status_[i] == kBomberCommitted) bomber_status_[i] = kBomberReady, bomber_area_[i] = -1;
  std::fill(bomber_struck_.begin(), bomber_struck_.end(), -1);
  blitz_moves_.clear();
  if (phase_ != Phase::kExploit) isolation_check(active_);  // 6.0: done before the Exploitation
  // 10.15: the attacking blocks left visible after their battles (and the Blitz marks) are
  // concealed when the impulse ends (docs/rulings.md, "Concealment"); boxes keep theirs.
  for (size_t i = 0; i < blocks_.size(); ++i)
    if (g_.blocks()[i].side == active_ && is_area(blocks_[i].loc))
      blocks_[i].revealed = blocks_[i].face_up || blocks_[i].activated;
  for (auto& s : blocks_) s.acted = false, s.river = false;
  for (auto& a : areas_) a.artillery = -1;
  update_victory();
  if (phase_ == Phase::kOver) return;
  passes_in_row_ = impulse_ == ImpulseKind::kPass ? passes_in_row_ + 1 : 0;
  impulse_ = ImpulseKind::kNone;
  if (passes_in_row_ >= 2) {  // 3.0: two consecutive passes end the Impulses Phase
    final_phase();
    return;
  }
  active_ = 1 - active_;
  phase_ = Phase::kImpulse;
}

void Moscow41State::final_phase() {
  log("phase", "Final Phase", "13.0");
  // 13.1: destroyed bombers return.
  for (auto& b : bomber_status_)
    if (b == kBomberDestroyed) b = kBomberReady;
  // OR 14.8 Operation Crusader: in the Final Phase of November both Luftwaffe HQs and the
  // eight bombers leave the game for good (withdrawn, not destroyed: no 7.2.1 loss point).
  if (options_[kOptCrusader] && turn_ == kNovember) {
    for (size_t b = 0; b < blocks_.size(); ++b)
      if (g_.blocks()[b].kind == Kind::kLwHq && blocks_[b].loc != kLocRemoved) {
        blocks_[b] = BlockState{};
        blocks_[b].loc = kLocRemoved;
      }
    for (size_t i = 0; i < bomber_status_.size(); ++i) {
      bomber_status_[i] = kBomberRemoved;
      bomber_area_[i] = -1;
    }
    log("crusader",
        "Operation Crusader: the 2nd and 8th Fliegerkorps and their bombers leave for the Mediterranean",
        "14.8");
  }
  // 13.2 Kiev: the Germans control both special cities.
  if (!kiev_german_) {
    bool all = true;
    int count = 0;
    for (int n = 0; n < g_.map().area_count(); ++n)
      if (ad(n).special_city) {
        ++count;
        all = all && area(n).control == kGerman;
      }
    if (count == 2 && all) {
      kiev_german_ = true;
      for (auto& s : blocks_)
        if (s.loc == kLocOobK) s.loc = kLocPool;
      log("kiev", "Kiev falls: +1 German VP, 48th Panzer Corps to the pool, south border cut", "13.2");
    }
  }
  // 13.3 Leningrad: Hoepner has reached the last box.
  if (!len_german_ && hoepner_road_ == static_cast<int>(g_.road().size()) - 1) {
    len_german_ = true;
    for (size_t b = 0; b < blocks_.size(); ++b)
      if (g_.blocks()[b].letter == 'L' && blocks_[b].loc >= 0 && !is_area(blocks_[b].loc)) {
        blocks_[b].loc = kLocPool;
        blocks_[b].level = 0;
      }
    hoepner_road_ = -1;
    log("leningrad", "Leningrad falls: +1 German VP, north border cut, 4th Panzer Gruppe to the pool",
        "13.3");
    // OR 14.2 (silent on this): Zhukov in the Leningrad box is driven out to the Soviet pool,
    // as a destroyed Soviet block goes (10.14.3); he may not return to the box.
    const int z = g_.block_index("Zhukov");
    if (z >= 0 && block(z).loc == g_.road().back()) {
      bs(z) = BlockState{};
      bs(z).loc = kLocPool;
      log("leningrad", "Zhukov leaves fallen Leningrad for the Soviet pool", "14.2");
    }
  }
  update_victory();
  if (phase_ == Phase::kOver) return;
  if (turn_ >= last_turn_) {
    const int gv = victory_points(kGerman), sv = victory_points(kSoviet);
    const VictoryRules* v = g_.victory_rules(victory_kind_);
    const bool most_vp = v != nullptr && v->most_vp_at_end;
    if (most_vp) {
      winner_ = gv > sv ? kGerman : sv > gv ? kSoviet : 2;
      result_kind_ = "marginal victory (most VP after December)";
    } else {
      winner_ = kSoviet;  // scenarios 1-3: any other result is a Soviet victory
      result_kind_ = "Soviet victory (scenario end)";
    }
    phase_ = Phase::kOver;
    log("victory", "game over: " + result_kind_, most_vp ? "1.7" : "Scenarios");
    return;
  }
  start_turn(turn_ + 1);
}

void Moscow41State::deactivate() {
  // 10.17: every activated HQ loses a step and is hidden; an exhausted one is destroyed.
  for (size_t i = 0; i < blocks_.size(); ++i) {
    const int b = static_cast<int>(i);
    if (!block(b).activated) continue;
    bs(b).activated = false;
    bs(b).revealed = false;
    log("deactivate", def(b).id + " deactivates", "10.17");
    reduce(b, false);
  }
}

bool Moscow41State::initiative_spendable(int side) const {
  if (initiative_ != side) return false;
  if (initiative_limit_ == "once_per_game" && initiative_uses_[side] >= 1) return false;  // Scenario 1
  return !(initiative_limit_ == "once_per_month" && initiative_spent_this_turn_[side]);   // Scenario 3
}

bool Moscow41State::can_exploit() const {
  // 10.18: after a TI, by spending the Initiative; Germans in good weather only, Soviets
  // in good weather or Snow.
  if (!initiative_spendable(active_)) return false;
  if (active_ == kGerman) return weather_ == kSunny;
  return weather_ != kRain;
}

void Moscow41State::finish_tactical() {
  deactivate();
  for (auto& s : blocks_) s.blitz = false, s.blitzed = false, s.acted = false;
  if (can_exploit()) {
    // 6.0: the Isolation Check comes before the Exploitation Movement, so an exploiting
    // block cannot rescue a cut-off one from its attrition (end_impulse skips it then).
    isolation_check(active_);
    update_victory();
    if (phase_ == Phase::kOver) return;
    phase_ = Phase::kExploit;
    exploiting_ = false;
    return;
  }
  end_impulse();
}

bool Moscow41State::mandatory_battles_left() const {
  // 10.11: a battle is mandatory in an area newly contested this impulse.
  for (int n = 0; n < g_.map().area_count(); ++n) {
    if (!contested(n) || area(n).contested_at_start || area(n).fought) continue;
    for (int b : pieces(active_, n))
      if (!block(b).isolated) return true;
  }
  return false;
}

}  // namespace moscow41
