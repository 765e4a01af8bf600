// Barbarossa Deluxe rules: sequence of play (5.x) and the administrative phase (8.x).
// Section numbers are the rulebook's (seeds/000); where the text is silent or ambiguous
// the choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_internal.h"

namespace bd {

// ======================================================================= sequence of play (5.x)

int BdState::phase_side() const {
  switch (phase_) {
    case kSetupPhase:
      for (const auto& [u, z] : setup_zones())
        if (unit(u).where == kToSetUp) return def(u).side;
      return lith_relocate_ ? kSoviet : kGerman;  // 3.7 the Soviet relocation step
    case kAdminGerman:
    case kGermanOrder:
    case kGermanStrategic:
    case kGermanB:
    case kGermanC:
      return kGerman;
    case kGameOver:
      return kNoSide;
    default:
      return kSoviet;
  }
}

bool BdState::is_move_phase() const {
  const bool b = phase_ == kGermanB || phase_ == kSovietB;
  const bool c = phase_ == kGermanC || phase_ == kSovietC;
  if (!b && !c) return false;
  const int o = order_[phase_side()];
  if (o == kFightFight) return false;
  if (o == kFightMove) return c;
  return b;  // move/fight (5.4)
}

bool BdState::is_assault_phase() const {
  const bool b = phase_ == kGermanB || phase_ == kSovietB;
  const bool c = phase_ == kGermanC || phase_ == kSovietC;
  return (b || c) && !is_move_phase();
}

int BdState::current_player() const {
  if (phase_ == kGameOver) return steppe::kTerminalPlayer;
  switch (pending_) {
    case kPendLwDefend:
      return kGerman;
    case kPendEmergency:
    case kPendCaucasus:
    case kPendSupport:
      return kSoviet;
    case kPendInterrupt:  // 9.7: the defender of the attack declared
      return other(phase_side());
    case kPendBbChoice:
    case kPendAdvance:
    case kPendBbLoss:
      return battle_.attacker;
    case kPendRetreat:
    case kPendTakeRetreat:
      return other(battle_.attacker);
    case kPendOverstack: {  // 6.2 the opposing player chooses
      const int h = overstacked_hex();
      return h >= 0 ? other(occupant_side(h)) : phase_side();
    }
    default:
      return phase_side();
  }
}

std::vector<double> BdState::returns() const {
  if (winner_ == kGerman) return {1.0, -1.0};
  if (winner_ == kSoviet) return {-1.0, 1.0};
  return {0.0, 0.0};
}

Json BdState::result() const {
  // The German's ground gained: hexes of the USSR and the Baltic states he controls (a pace
  // measure for the AI reports; VP counts only the cities among them).
  int held = 0;
  for (int h = 0; h < kNumHexes; ++h)
    if (hx(h).on_map && (hx(h).country == kUssr || hx(h).country == kBaltic) &&
        hex_.control[static_cast<size_t>(h)] == kGerman)
      ++held;
  return Json{{"winner", winner_ == kNoSide ? "draw" : side_name(winner_)},
              {"turn", turn_},
              {"vp", vp_},
              {"german_hexes_in_ussr", held},
              {"reason", end_reason_}};
}

void BdState::clear_phase_flags(bool new_player_turn) {
  // Flags that outlive a phase: through the game turn, or until done (bd_state.h, UnitFlag).
  constexpr uint16_t kLong = kFlagRevealed | kFlagStandFast | kFlagEdgeEntry | kFlagConvertPending;
  const uint16_t keep = new_player_turn ? kLong : kLong | kFlagSeaMoved | kFlagTurnAttacked;
  for (auto& s : units_) {
    s.flags = static_cast<uint16_t>(s.flags & keep);
    s.mp = -1;
    s.start_hex = s.where == kOnMap ? s.hex : int16_t{-1};
  }
  movers_.clear();
  kerch_from_ = -1;
  sea_used_ = 0;
}

void BdState::enter_phase(Phase p) {
  const int side_before = phase_side();
  phase_ = p;
  crimea_switched_ = false;
  clear_phase_flags(phase_side() != side_before);
  // 8.36-8.39: each support marker may be committed once per Soviet Prepared Assault Phase.
  markers_.artillery_used = markers_.air_armies_used = 0;
  markers_.support_used = 0;
  bulg_hex_ = -1;           // 8.26: the Bulgarians' 6.4 exception ends with their first move
  emergency_used_ = false;  // 8.11: once during every German Movement Phase
  log("phase", std::string("Game Turn ") + std::to_string(turn_) + ": " + phase_name(p), "5.2");
  // 8.19: due Guards tank conversions happen in the Mutual Administrative Phase, or the
  // moment a waiting namesake is back in overland supply (checked at each phase start).
  guards_tank_conversions();
  ss_delayed_check();  // 8.17
  // 8.11: from GT3, once per German Movement Phase, the Soviet may place one RVGK unit in a
  // supplied Soviet city (offered at the start of the phase: ruling BD-14).
  if (is_move_phase() && phase_side() == kGerman && turn_ >= 3) {
    bool any = false;
    for (int u = 0; u < num_units() && !any; ++u) any = unit(u).where == kRvgk && def(u).side == kSoviet;
    if (any) pending_ = kPendEmergency;
  }
  // 5.10: Paulus Pause declined: each German hex with mech units loses d6 MF on GT3
  // (rolled at the start of the movement phase: ruling BD-6).
  if (is_move_phase() && phase_side() == kGerman && turn_ == 3 && paulus_ == 2) {
    paulus_rolls_.clear();
    for (int h = 0; h < kNumHexes; ++h) {
      bool mech = false;
      for (int u = 0; u < num_units(); ++u)
        if (unit(u).where == kOnMap && unit(u).hex == h && def(u).side == kGerman && def(u).cls == kMech)
          mech = true;
      if (mech)
        paulus_rolls_.emplace_back(
            static_cast<int16_t>(h),
            static_cast<int8_t>(roll(6, "Paulus Pause MF loss in " + hex_id(h), "5.10")));
    }
  }
}

void BdState::begin_turn() {
  for (auto& s : units_) s.flags = static_cast<uint16_t>(s.flags & ~kFlagEdgeEntry);  // 8.1: one turn
  hex_.entered.fill(0);
  hex_.insitu.fill(0);
  markers_.east_wall_left = 0;
  rvgk_moves_ = 0;
  order_ = {kOrderNone, kOrderNone};
  markers_.aerial = -1;
  crimea_turn_ = crimea_on_;                                              // 7.4 the choice is per game turn
  if (markers_.aerial_return == turn_) markers_.aerial_available = true;  // 7.7
  const int fixed_luftwaffe = sparam("luftwaffe");                        // 15.7
  markers_.luftwaffe_left =
      static_cast<int8_t>(fixed_luftwaffe > 0 ? fixed_luftwaffe : ti().luftwaffe);  // 11.23
  if (watch_ == 2 && turn_ == data_->victory.watch_reveal_turn)                     // 4.18 Oder: two more
    markers_.luftwaffe_left =
        static_cast<int8_t>(markers_.luftwaffe_left + data_->victory.oder_luftwaffe_extra);
  for (int s = 0; s < 2; ++s) {  // 8.12
    repl_left_mech_[static_cast<size_t>(s)] = static_cast<int8_t>(ti().repl[s][kMech]);
    repl_left_non_[static_cast<size_t>(s)] = static_cast<int8_t>(ti().repl[s][kNonMech]);
  }
  if (turn_ < sparam("replacements_from_turn")) repl_left_mech_ = repl_left_non_ = {0, 0};  // 12.4
  if (sparam("german_repl_mech") > 0 || sparam("german_repl_non") > 0) {  // 4.17, 14.11 Manstein's Gambit
    repl_left_mech_[kGerman] = static_cast<int8_t>(sparam("german_repl_mech"));
    repl_left_non_[kGerman] = static_cast<int8_t>(sparam("german_repl_non"));
    log("replacements",
        "German replacements " + std::to_string(sparam("german_repl_mech")) + "/" +
            std::to_string(sparam("german_repl_non")) + " this turn",
        "4.17");
  }
  if (sparam("no_replacements_first_turn") > 0 && turn_ == first_turn_) {  // 15.6
    repl_left_mech_ = repl_left_non_ = {0, 0};
    log("replacements", "no replacements for either side on the first turn", "15.6");
  } else if (sparam("repl_bonus") > 0) {  // 15.6: each TRRT number one higher (ruling BD-SC5)
    for (size_t sd = 0; sd < 2; ++sd) {
      repl_left_mech_[sd] = static_cast<int8_t>(repl_left_mech_[sd] + sparam("repl_bonus"));
      repl_left_non_[sd] = static_cast<int8_t>(repl_left_non_[sd] + sparam("repl_bonus"));
    }
    log("replacements",
        "replacements +" + std::to_string(sparam("repl_bonus")) + " over the TRRT: German " +
            std::to_string(repl_left_mech_[kGerman]) + "/" + std::to_string(repl_left_non_[kGerman]) +
            ", Soviet " + std::to_string(repl_left_mech_[kSoviet]) + "/" +
            std::to_string(repl_left_non_[kSoviet]),
        "15.6");
  }
  hex_.turn_start_control = hex_.control;  // 4.4, 4.19
  soviet_losses_ = 0;                      // 4.19
  const VictoryRules& vr = data_->victory;
  if (turn_ == vr.watch_reveal_turn && watch_ != 0) {  // 4.18: the counter is uncovered
    log("victory",
        std::string("the German reveals his choice: Operation Watch on the ") +
            (watch_ == 2 ? "Oder" : "Rhine"),
        "4.18");
    if (watch_ == 2) {
      repl_left_mech_[kGerman] = static_cast<int8_t>(vr.oder_repl_mech);
      repl_left_non_[kGerman] = static_cast<int8_t>(vr.oder_repl_non);
      for (const auto& label : vr.oder_units) {
        const int u = data_->find_unit(label);
        if (u < 0 || u >= num_units()) continue;
        UnitSt& us = units_[static_cast<size_t>(u)];
        if (us.where == kOnMap || us.where == kDeadPerm) continue;
        if (u == ss_unit()) ss_due_ = 0;  // 4.18 overturns the 8.17 schedule
        us.where = kTrrt;
        us.turn = static_cast<int8_t>(turn_);
        log("reinforcement", label + " arrives as an Oder special reinforcement", "4.18");
      }
    }
  }
  // 7.21: "During any game turns, starting with Game Turn 7, which begin with the German
  // player in control of Moscow ... the Soviet player must refrain from deploying offensive
  // supply markers. That effect lasts until such time as a new game turn begins with the
  // Soviet player back in overland supplied control of Moscow." A Moscow retaken but cut off
  // keeps the ban. (The flag keeps its stored name: positions of earlier versions load.)
  if (const int moscow = data_->places.moscow; moscow >= 0) {
    const int owner = hex_.control[static_cast<size_t>(moscow)];
    if (turn_ >= 7 && owner == kGerman)
      german_moscow_at_start_ = true;
    else if (owner == kSoviet && overland(moscow, kSoviet))
      german_moscow_at_start_ = false;
  }
  for (const auto& m : data_->markers) {
    const bool now =
        m.turn == turn_ || (turn_ == first_turn_ && m.turn < first_turn_ && m.marker == "offensive-supply");
    if (!now) continue;
    // 15.8: "Neither the Hero City nor Fortress City rules are in effect in this scenario."
    if ((m.marker == "hero-city" || m.marker == "fortress-city") && sparam("no_hero_fortress_cities") > 0)
      continue;
    if (m.marker == "hero-city" && m.turn == turn_)
      markers_.hero_left = static_cast<int8_t>(markers_.hero_left + m.count);           // 9.1
    if (m.marker == "fortified-area" && m.turn == turn_) markers_.fa_available = true;  // 8.18
    if (m.marker == "east-wall" && m.turn == turn_)
      markers_.east_wall_left = static_cast<int8_t>(m.count);                              // 8.5
    if (m.marker == "aerial-supply" && m.turn == turn_) markers_.aerial_available = true;  // 7.7
    if (m.marker == "fortress-city" && m.turn == turn_ && m.turn >= 28)
      markers_.fortress_restricted_left = static_cast<int8_t>(markers_.fortress_restricted_left + m.count);
    else if (m.marker == "fortress-city" && m.turn == turn_)
      markers_.fortress_left = static_cast<int8_t>(markers_.fortress_left + m.count);  // 9.2
    if (m.marker == "offensive-supply") {                                              // 7.10
      const int i = m.letter == "A" ? 0 : m.letter == "B" ? 1 : 2;
      markers_.osupply_have[static_cast<size_t>(i)] = 1;
    }
  }
  // 8.21: one rifle army to the GT27 box on GT6, 7 and 8 (1); one more permanently on GT20 (2).
  withdraw_due_ = sparam("no_rifle_withdrawals") > 0                    ? 0  // 15.8
                  : turn_ >= 6 && turn_ <= 8                            ? 1
                  : turn_ == data_->victory.soviet_perm_withdrawal_turn ? 2
                                                                        : 0;
  if (withdraw_due_ == 2)
    log("withdraw",
        "a further rifle army must be permanently withdrawn this turn (withdraw ARMY, in the Soviet "
        "segment)",
        "8.21");
  // 8.29: GT22 the early panzer corps become their late "2-4" counterparts in place, "even in
  // the dead pile"; "any early-war panzer corps that's without regular overland supply doesn't
  // undergo conversion until such time as it's brought back into overland supply or goes into
  // the dead pile" (pending_conversions_check).
  if (turn_ == 22)
    for (int u = 0; u < num_units(); ++u) {
      const UnitDef& d = def(u);
      if (d.type != kPanzer || d.counterpart < 0 || d.attack_circled) continue;
      UnitSt& s = units_[static_cast<size_t>(u)];
      if (s.where != kOnMap && s.where != kDead) continue;
      if (s.where == kOnMap && !overland_for_conversion(u)) {
        s.flags |= kFlagConvertPending;
        log("convert", d.label + " has no overland supply: its conversion waits", "8.29");
        continue;
      }
      convert_late_panzer(u);
    }
  mark_dirty();
  log("turn", "Game Turn " + std::to_string(turn_) + " (" + ti().months + ")", "5.8");
  ss_turn_start();          // 8.17
  stalingrad_turn_start();  // 12.7
  mg_replacements();        // 4.17
  // 4.11: the launch condition is looked at at the start of the game turn.
  cauc_open_ = caucasus_scenario() && cauc_ == kCaucNone && caucasus_launch_condition();
  if (cauc_open_)
    log("victory",
        "the German may launch a Caucasus expedition this turn (Maikop, Dnepropetrovsk, Rostov held)",
        "4.11");
}

void BdState::reorganise_gt3(int u) {
  const UnitDef& d = def(u);
  UnitSt& s = units_[static_cast<size_t>(u)];
  s.flags = static_cast<uint16_t>(s.flags & ~kFlagConvertPending);
  if (d.type != kOversizedRifleArmy) {
    s.where = kDeadPerm;
    s.hex = -1;
    log("convert", d.label + " removed in the GT3 reorganisation", "8.23");
    mark_dirty();
    return;
  }
  UnitSt& c = units_[static_cast<size_t>(d.counterpart)];
  c.where =
      s.where;  // on the map, or the dead pile of a delayed one (8.23 "find their way into the dead pile")
  c.hex = s.hex;
  c.order = s.order;
  s.where = kDeadPerm;
  s.hex = -1;
  repoint_attached(u, d.counterpart);
  if (c.where != kOnMap || german_sees(d.counterpart))
    log("convert", d.label + " becomes " + def(d.counterpart).label, "8.23");
  else  // 11.7 beneath the top of its stack
    log_fog("convert", d.label + " becomes " + def(d.counterpart).label,
            "an oversized Soviet rifle army becomes its reorganised counterpart", "8.23");
  mark_dirty();
}

void BdState::convert_late_panzer(int u) {
  const UnitDef& d = def(u);
  UnitSt& s = units_[static_cast<size_t>(u)];
  s.flags = static_cast<uint16_t>(s.flags & ~kFlagConvertPending);
  UnitSt& c = units_[static_cast<size_t>(d.counterpart)];
  c.where = s.where;
  c.hex = s.hex;
  c.order = s.order;
  s.where = kOutOfPlay;
  s.hex = -1;
  repoint_attached(u, d.counterpart);  // 8.31 its Tiger battalion stays with the new counter
  log("convert", d.label + " becomes " + def(d.counterpart).label, "8.29");
  mark_dirty();
}

// 8.23 "the removal (and/or substitution) takes place the instant such units find their way into
// the dead pile or are brought back into overland supply, whichever comes first"; 8.29 the same.
void BdState::pending_conversions_check() {
  for (int u = 0; u < num_units(); ++u) {
    const UnitSt& s = unit(u);
    if (!(s.flags & kFlagConvertPending)) continue;
    const bool due = s.where == kDead || (s.where == kOnMap && overland_for_conversion(u));
    if (!due && s.where == kOnMap) continue;
    if (def(u).type == kPanzer)
      convert_late_panzer(u);
    else
      reorganise_gt3(u);
  }
}

// 8.23, 8.29: what ends a delayed conversion ("brought back into overland supply").
bool BdState::overland_for_conversion(int u) const {
  const int sup = unit_supply(u);
  return sup == kSupOverland || sup == kSupAlways;
}

void BdState::next_player_turn() {
  const int side = phase_side();
  if (side == kGerman)
    if (const int para = para_drop_unit(); para >= 0) {  // 4.17 entry that turn or never
      units_[static_cast<size_t>(para)].where = kOutOfPlay;
      log("reinforcement", def(para).label + " neither entered nor dropped on the first turn: out of play",
          "4.17");
    }
  if (side == kGerman && oder_active() && watch_on_the_oder_check()) return;  // 4.19
  if (side == kSoviet) markers_.osupply = {{-1, -1, -1}};  // 7.12 removed at the end of the player turn
  if (side == first_player_) {
    const int second = side == kGerman ? kSoviet : kGerman;  // spelled out: GCC 12 -Warray-bounds
    order_[second] = kOrderNone;
    enter_phase(second == kGerman ? kGermanOrder : kSovietOrder);
    return;
  }
  victory_check();
}

// Phase IV (4.14) plus the end-of-turn events.
void BdState::victory_check() {
  clear_phase_flags();
  // 7.7: a used aerial supply marker comes back d6 turns later.
  if (markers_.aerial >= 0) {
    const int r = roll(6, "aerial supply marker return", "7.7");
    markers_.aerial_return = static_cast<int8_t>(turn_ + r);
    markers_.aerial = -1;
  }
  // 4.2: end of GT1-5, -1 VP per hex of Greater Germany / General Government a Soviet unit occupies.
  if (turn_ <= 5 && sparam("no_1941_opening") == 0) {
    for (int h = 0; h < kNumHexes; ++h) {
      const Country c = hx(h).country;
      if ((c == kGreaterGermany || c == kGeneralGovernment) && occupant_side(h) == kSoviet &&
          !(opt_lithuania_ &&
            hex_.start_control[static_cast<size_t>(h)] == kSoviet)) {  // 3.7 Soviet from the start
        vp_ -= 1;
        vp_events_ -= 1;
        log("vp", "Soviet units occupy " + hex_id(h) + ": German VP -1", "4.2");
      }
    }
  }
  // 8.23: last act of GT3: Soviet corps removed, oversized armies replaced by regulars. "The
  // only way any of those removals may be delayed is if an affected unit is at that instant cut
  // off from all supply in a pocket on the map" (pending_conversions_check).
  if (turn_ == 3)
    for (int u = 0; u < num_units(); ++u) {
      const UnitDef& d = def(u);
      UnitSt& s = units_[static_cast<size_t>(u)];
      const bool corps = d.type == kMechCorps || d.type == kRifleCorps || d.type == kAirborneCorps;
      const bool oversized = d.type == kOversizedRifleArmy && s.where == kOnMap && d.counterpart >= 0;
      if (!oversized &&
          !(corps && (s.where == kOnMap || s.where == kDead || s.where == kRvgk || s.where == kTrrt)))
        continue;
      if (s.where == kOnMap && unit_supply(u) == kSupOos) {
        s.flags |= kFlagConvertPending;
        log_fog("convert", d.label + " is cut off from all supply: its reorganisation waits",
                "a pocketed Soviet unit's reorganisation waits", "8.23");
        continue;
      }
      reorganise_gt3(u);
    }
  // 8.28: the Italian 8th Army leaves at the end of GT16.
  if (turn_ == 16)
    for (int u = 0; u < num_units(); ++u)
      if (def(u).nation == "italian" && unit(u).where == kOnMap) {
        units_[static_cast<size_t>(u)].where = kOutOfPlay;
        units_[static_cast<size_t>(u)].hex = -1;
        log("withdraw", def(u).label + " leaves the game", "8.28");
      }
  summer_offensive_check();  // 4.4
  ss_turn_end();             // 4.10
  stalingrad_turn_end();     // 12.7
  caucasus_victory_phase();  // 4.13
  mark_dirty();
  if (mg_ && turn_ >= data_->victory.mg_end_turn && mg_victory_check()) return;  // 4.16
  const TurnInfo& t = ti();
  // 4.14: the scenarios scored by the Victory Check Chart, from their first check (12.3).
  const int chart_from = sparam("victory_chart_from_turn");
  const bool chart = chart_from > 0 && turn_ >= chart_from;
  if (turn_ >= last_turn_ && scenario_victory()) return;
  if (turn_ >= last_turn_) {
    // 4.1: no draws; the final check decides (4.20: net Forgiveness Points added).
    const int total = vp_ + (opt_forgiveness_ ? fp_ : 0);
    if (opt_forgiveness_ && fp_ != 0)
      log("vp",
          "Forgiveness Points " + std::string(fp_ > 0 ? "+" : "") + std::to_string(fp_) + ": final total " +
              std::to_string(total),
          "4.20");
    const int w = total >= t.german_wins_at ? kGerman : kSoviet;
    end_game(w, "final Victory Check with " + std::to_string(total) + " VP", "4.14");
    return;
  }
  if (chart && t.check && turn_ >= 3 && opt_forgiveness_) {
    // 4.20 (option): instead of ending the game, record one FP per VP needed to bring the
    // total back into the play-on range and move the VP track there (ruling BD-V3).
    int n = 0;
    if (vp_ >= t.german_wins_at) n = vp_ - (t.german_wins_at - 1);
    if (vp_ <= t.soviet_wins_at) n = -(t.soviet_wins_at + 1 - vp_);
    if (n != 0) {
      fp_ += n;
      vp_ -= n;
      vp_events_ -= n;
      log("vp",
          "Forgiveness Points: " + std::string(n > 0 ? "+" : "") + std::to_string(n) + " FP (net " +
              std::to_string(fp_) + "), play on with " + std::to_string(vp_) + " VP",
          "4.20");
    }
  }
  if (chart && t.check && turn_ >= 3) {
    if (vp_ >= t.german_wins_at) {
      end_game(kGerman,
               "Victory Check: " + std::to_string(vp_) + " VP >= " + std::to_string(t.german_wins_at),
               "4.14");
      return;
    }
    if (vp_ <= t.soviet_wins_at) {
      end_game(kSoviet,
               "Victory Check: " + std::to_string(vp_) + " VP <= " + std::to_string(t.soviet_wins_at),
               "4.14");
      return;
    }
  }
  ++turn_;
  begin_turn();
  enter_phase(kAdminGerman);
  territory_vp_checks();  // 4.5, 4.6 "the first instant after the end of GT13"
}

// Scenario victory conditions checked at the end of the last turn: the scenario file's
// "end_victory" names the section and gives its lists and numbers (EndVictory).
bool BdState::scenario_victory() {
  if (sc_ == nullptr || sc_->end_victory.rule.empty()) return false;
  const EndVictory& ev = sc_->end_victory;
  // "leningrad" -> "Leningrad", for the log lines.
  const auto title = [](std::string name) {
    if (!name.empty()) name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
    return name;
  };
  auto german_city_held = [&](int h) {
    return hex_.control[static_cast<size_t>(h)] == kGerman && overland(h, kGerman);
  };
  auto soviet_city_held = [&](int h) {
    return hex_.control[static_cast<size_t>(h)] == kSoviet && overland(h, kSoviet);
  };
  if (ev.rule == "13.4") {
    bool all = true;
    for (int h = 0; h < kNumHexes; ++h)
      if (hx(h).city && hex_.start_control[static_cast<size_t>(h)] == kGerman && !german_city_held(h))
        all = false;
    int big = 0;
    std::string named;
    for (size_t i = 0; i < ev.cities.size(); ++i) {
      if (ev.cities[i] >= 0 && german_city_held(ev.cities[i])) ++big;
      named += (i == 0 ? "" : ", ") + title(ev.city_names[i]);
    }
    // 13.4: an expedition still in the holding box (never short of supply there, 4.13)
    // counts as one such city.
    if (cauc_ == kCaucInBox || cauc_ == kCaucBrokeThrough) ++big;
    if (all && big >= ev.cities_needed)
      end_game(kGerman, "holds every start city and " + std::to_string(ev.cities_needed) + " of " + named,
               "13.4");
    else
      end_game(kSoviet, "the German did not meet 13.4", "13.4");
    return true;
  }
  if (ev.rule == "14.4") {
    bool kept = true;
    int gained = 0;
    for (int h = 0; h < kNumHexes; ++h) {
      if (!hx(h).city) continue;
      if (hex_.start_control[static_cast<size_t>(h)] == kSoviet && !soviet_city_held(h)) kept = false;
      if (hex_.start_control[static_cast<size_t>(h)] == kGerman &&
          hex_.control[static_cast<size_t>(h)] == kSoviet)
        ++gained;
    }
    // 14.4: no overland-supplied German unit on the Dnepr south of Kiev, and no German unit
    // in the Gotenkopf (3105), each count as a city taken.
    bool dnepr_german = false, goten_german = false;
    for (int u = 0; u < num_units(); ++u) {
      if (unit(u).where != kOnMap || def(u).side != kGerman) continue;
      if (hx(unit(u).hex).dnepr && unit_supply(u) == kSupOverland) dnepr_german = true;
      if (unit(u).hex == ev.no_enemy_in) goten_german = true;
    }
    if (!dnepr_german) {
      ++gained;
      log("victory", "no German unit in overland supply on the Dnepr south of Kiev: counts as a city taken",
          "14.4");
    }
    if (!goten_german) {
      ++gained;
      log("victory",
          "no German unit in the " + title(ev.no_enemy_in_name) + " (" + hex_id(ev.no_enemy_in) +
              "): counts as a city taken",
          "14.4");
    }
    bool leningrad_clear = true;
    const int len = ev.clear_around;
    for (int d = 0; d < 6 && len >= 0; ++d)
      if (neighbour(len, d) >= 0 && occupant_side(neighbour(len, d)) == kGerman) leningrad_clear = false;
    if (kept && gained >= ev.cities_needed && leningrad_clear)
      end_game(kSoviet,
               "kept its cities, took " + std::to_string(ev.cities_needed) + " and cleared " +
                   title(ev.clear_around_name),
               "14.4");
    else
      end_game(kGerman, "the Soviet did not meet 14.4", "14.4");
    return true;
  }
  if (ev.rule == "14.10") {
    bool all = true;
    int gained = 0;
    for (int h = 0; h < kNumHexes; ++h) {
      if (!hx(h).city) continue;
      if (hex_.start_control[static_cast<size_t>(h)] == kGerman && !german_city_held(h)) all = false;
      if (hex_.start_control[static_cast<size_t>(h)] == kSoviet && german_city_held(h)) ++gained;
    }
    if (const int per = sparam("oos_kills_per_city"); per > 0 && oos_kills_ >= per) {
      gained += oos_kills_ / per;
      log("victory",
          std::to_string(oos_kills_) + " Soviet units eliminated out of supply count as " +
              std::to_string(oos_kills_ / per) + " cities taken",
          "14.10");
    }
    if (all && gained >= ev.cities_needed)
      end_game(kGerman,
               ev.cities_needed == 1 ? std::string("held every start city and took one")
                                     : "held every start city and took " + std::to_string(ev.cities_needed),
               "14.10");
    else
      end_game(kSoviet, "the German did not meet 14.10", "14.10");
    return true;
  }
  if (ev.rule == "15.4") {  // supply irrelevant; the only scenario with draws
    bool s_east = true, g_west = true;
    int s_west = 0, g_east = 0;
    for (int h = 0; h < kNumHexes; ++h) {
      if (!hx(h).city && h != data_->places.usir) continue;
      const bool east = hex_.start_control[static_cast<size_t>(h)] == kSoviet;
      const int c = hex_.control[static_cast<size_t>(h)];
      if (east) {
        if (c != kSoviet) s_east = false;
        if (c == kGerman) ++g_east;
      } else if (hex_.start_control[static_cast<size_t>(h)] == kGerman) {
        if (c != kGerman) g_west = false;
        if (c == kSoviet) ++s_west;
      }
    }
    if (s_east && s_west >= ev.cities_needed)
      end_game(kSoviet, "holds every eastern city and one in the west", "15.4");
    else if (g_west && g_east >= ev.cities_needed)
      end_game(kGerman, "holds the USIR, every western city and one in the east", "15.4");
    else {
      winner_ = kNoSide;
      end_reason_ = "draw (15.4)";
      phase_ = kGameOver;
      log("victory", "draw", "15.4");
    }
    return true;
  }
  return false;
}

void BdState::end_phase() {
  switch (phase_) {
    case kSetupPhase:  // 3.7 the Soviet ends his relocations into Poland
      lith_relocate_ = false;
      log("setup", "the Soviet finishes relocating units into Poland", "3.7");
      rebase_vp();
      start_play();
      return;
    case kAdminGerman:
      if (ss_due_ == 1) {  // 8.17 not in overland supply nor dead: delayed
        ss_due_ = 2;
        log("withdraw", label(ss_unit()) + " is not in overland supply: its withdrawal is delayed", "8.17");
      }
      for (int u = 0; u < num_units(); ++u)  // 8.1 German reinforcements not entered are forfeit
        if (unit(u).where == kTrrt && unit(u).turn <= turn_ && def(u).side == kGerman) {
          if (u == para_drop_unit()) {  // 4.17: it may still enter by air drop this turn
            log("reinforcement", def(u).label + " waits to make a combat air drop this turn", "4.17",
                1u << kGerman);  // 11.7 still on the TRRT, hidden from the Soviet
            continue;
          }
          units_[static_cast<size_t>(u)].where = kOutOfPlay;
          log("reinforcement", def(u).label + " forfeited (not entered on time)", "8.1");
        }
      if (markers_.east_wall_left > 0)
        log("marker", std::to_string(markers_.east_wall_left) + " East Wall counters found no legal hex",
            "8.5");
      markers_.east_wall_left = 0;
      enter_phase(kAdminSoviet);
      return;
    case kAdminSoviet:
      if (withdraw_due_ == 2) {  // 8.21 no rifle army to withdraw (ruling BD-W1)
        withdraw_due_ = 0;
        log("withdraw", "no rifle army on the map or in the dead pile: the permanent withdrawal lapses",
            "8.21");
      }
      for (int u = 0; u < num_units(); ++u)  // 8.1 Soviet delayed reinforcements wait in the RVGK
        if (unit(u).where == kTrrt && unit(u).turn <= turn_ && def(u).side == kSoviet &&
            !converts_on_arrival(u) &&
            def(u).entry_hex < 0) {  // 8.19, 8.20 conversions wait on the TRRT (ruling BD-16)
          units_[static_cast<size_t>(u)].where = kRvgk;
          log("reinforcement", def(u).label + " delayed into the RVGK", "8.1", 1u << kSoviet);
        }
      markers_.fa_available = false;  // 8.18 placed immediately or not at all
      enter_phase(first_player_ == kGerman ? kGermanOrder : kSovietOrder);
      return;
    case kSovietOSupply:
      if (skip_rvgk_once_) {
        skip_rvgk_once_ = false;
        enter_phase(kSovietB);
        return;
      }
      enter_phase(turn_ == 1 ? kSovietB : kSovietRvgk);
      return;
    case kSovietRvgk:
      enter_phase(kSovietB);
      return;
    case kGermanStrategic:
      enter_phase(kGermanB);
      return;
    case kGermanB:
      enter_phase(kGermanC);
      return;
    case kSovietB:
      if (assault_only_) {  // 12.2
        assault_only_ = false;
        next_player_turn();
        return;
      }
      enter_phase(kSovietC);
      return;
    case kGermanC:
    case kSovietC:
      next_player_turn();
      return;
    default:
      return;
  }
}

// ======================================================================= admin (8.x)

void BdState::entry_hexes(int u, std::vector<int>& out) const {
  out.clear();
  const UnitDef& d = def(u);
  const int side = d.side;
  if (bulgarian_entry(u)) {  // 8.26 triggered on or before GT13
    out = data_->places.bulgarian_exits;
    return;
  }
  if (d.entry_hex >= 0) {  // 8.2, 8.3, 8.33 fixed entry hex
    out.push_back(d.entry_hex);
    return;
  }
  if (enters_in_situ(u)) {  // 8.2, 8.4, 8.27 friendly-occupied hexes (8.4: German cities too)
    for (int h = 0; h < kNumHexes; ++h)
      if (is_entry_hex(u, h)) out.push_back(h);
    return;
  }
  // 8.1: edge supply hexes and cities, fixed by the map (a scenario test may have edited it).
  if (map_ == &data_->hexes && data_->entry_candidates_built)
    out = data_->entry_candidates[static_cast<size_t>(side)];
  else
    out = entry_candidates_of(*data_, *map_, side);
}

bool BdState::is_entry_hex(int u, int hex) const {
  const UnitDef& d = def(u);
  if (bulgarian_entry(u))  // 8.26
    return std::find(data_->places.bulgarian_exits.begin(), data_->places.bulgarian_exits.end(), hex) !=
           data_->places.bulgarian_exits.end();
  if (d.entry_hex >= 0) return hex == d.entry_hex;  // 8.2, 8.3, 8.33
  if (enters_in_situ(u))                            // 8.2, 8.27 in situ; 8.4 also any German city
    return hx(hex).on_map &&
           (occupant_side(hex) == d.side ||
            (d.type == kEmergency && hx(hex).city && hex_.control[static_cast<size_t>(hex)] == kGerman));
  if (hx(hex).city) return true;  // 8.1
  const auto& edge = d.side == kGerman ? data_->places.german_edge : data_->places.soviet_edge;
  return hx(hex).on_map && !data_->tec.prohibited[hx(hex).terrain] &&
         std::find(edge.begin(), edge.end(), hex) != edge.end();
}

Status BdState::check_entry(int u, int hex) const {
  const UnitDef& d = def(u);
  if (hex < 0 || hex >= kNumHexes || !hx(hex).on_map) return rerr("8.1", "not a map hex");
  if (enters_in_situ(u)) {
    const char* rule = d.type == kKampfgruppe ? "8.2" : d.type == kEmergency ? "8.4" : "8.27";
    if (!is_entry_hex(u, hex))
      return rerr(rule, d.type == kEmergency
                            ? d.label + " enters in situ on a German-occupied hex or in a German city"
                            : d.label + " enters in situ on a hex friendly units occupy");
    if (d.type == kKampfgruppe && d.zone != kZoneNone && hx(hex).zone != d.zone)
      return rerr("8.2", d.label + " enters only in the " + (d.zone == kZoneNorth ? "north" : "south") +
                             " supply area");
    if (d.type != kMechGroup && occupant_side(hex) == d.side && hex_.insitu[static_cast<size_t>(hex)])
      return rerr(rule, "one in-situ entry per hex per administrative phase");
    if (d.type == kMechGroup && !overland(hex, kSoviet))
      return rerr("8.27", hex_id(hex) + " has no overland supply");
  } else if (bulgarian_entry(u)) {
    if (!is_entry_hex(u, hex))
      return rerr("8.26", d.label + " enters through a Bulgarian border hex (3215-3218)");
    if (enemy_in(hex, d.side)) return rerr("8.26", hex_id(hex) + " holds enemy units");
    if (hex_.entered[static_cast<size_t>(hex)] >= 5)
      return rerr("8.1", "one full stack per entry hex per turn");
    std::vector<int> add{u};
    return stacking_ok(hex, d.side, add);  // neutral Bulgaria: no control needed (ruling BD-SM5)
  } else if (!is_entry_hex(u, hex)) {
    return rerr("8.1", d.label + " may enter only at a friendly edge supply hex or a supplied friendly city");
  }
  if (hex_.control[static_cast<size_t>(hex)] != d.side)
    return rerr(d.nation == "romanian-communist" ? "8.25" : "8.1",
                hex_id(hex) + " is not friendly-controlled");
  if (enemy_in(hex, d.side)) return rerr("8.1", hex_id(hex) + " holds enemy units");
  // 8.34, 8.35: "The supply status of the city a that time is irrelevant; the LCFC [the
  // LPMA] arrives there as long as the hex is Soviet-controlled."
  const bool supply_irrelevant = d.type == kMilitiaArmy || d.type == kCounterFireCorps;
  if (d.side == kSoviet && d.entry_hex >= 0 && !supply_irrelevant && !overland(hex, kSoviet))
    return rerr(d.nation == "romanian-communist" ? "8.25" : "8.1", hex_id(hex) + " has no overland supply");
  // 8.3 "The 6th SS Infantry Corps may only appear in Riga (1415), and it may only do so provided
  // that city is in regular overland supply at that time"; 8.33 a Fortress Command's hex must be
  // "German-controlled and in overland supply".
  if (d.side == kGerman && (d.type == kSsInfantry || d.type == kFortressCommand) && !overland(hex, kGerman))
    return rerr(d.type == kSsInfantry ? "8.3" : "8.33", hex_id(hex) + " has no overland supply");
  if (hx(hex).city && d.entry_hex < 0 && !enters_in_situ(u)) {
    const auto& edge = d.side == kGerman ? data_->places.german_edge : data_->places.soviet_edge;
    if (std::find(edge.begin(), edge.end(), hex) == edge.end() && !overland(hex, d.side))
      return rerr("8.1", "city " + hex_id(hex) + " has no overland supply");
  }
  if (hex_.entered[static_cast<size_t>(hex)] >= 5)
    return rerr("8.1", "one full stack per entry hex per turn");
  std::vector<int> add{u};
  return stacking_ok(hex, d.side, add);
}

void BdState::zone_hexes(const std::string& zone, std::vector<int>& out) const {
  out.clear();
  const ScenarioDef* sc = nullptr;
  for (const auto& s : data_->scenarios)
    if (s.id == scenario_id_) sc = &s;
  if (sc != nullptr) {
    auto it = sc->zones.find(zone);
    if (it != sc->zones.end() && !it->second.empty()) {
      out = it->second;
      return;
    }
  }
  auto it = data_->places.zones.find(zone);
  if (it != data_->places.zones.end()) {
    out = it->second;
    // 3.7 Lithuania option: the Lithuania hexes join AGN; AGC and AGS lose their hexes that
    // became Soviet and may use the German-controlled hexes next to their printed ones that
    // no other army group uses (ruling BD-SC1).
    if (opt_lithuania_ && (zone == "AGN" || zone == "AGC" || zone == "AGS")) {
      const auto& pz = data_->places.zones;
      const auto lith = pz.find("lithuania");
      if (lith == pz.end()) return;
      if (zone == "AGN") {
        out.insert(out.end(), lith->second.begin(), lith->second.end());
        return;
      }
      auto used = [&](int n) {
        for (const char* g : {"AGN", "AGC", "AGS", "lithuania"}) {
          const auto z = pz.find(g);
          if (z != pz.end() && std::find(z->second.begin(), z->second.end(), n) != z->second.end())
            return true;
        }
        return false;
      };
      out.clear();
      for (int h : it->second)
        if (hex_.control[static_cast<size_t>(h)] == kGerman) out.push_back(h);
      for (int h : it->second)
        for (int d = 0; d < 6; ++d) {
          const int n = neighbour(h, d);
          if (n < 0 || !hx(n).on_map || data_->tec.prohibited[hx(n).terrain] ||
              hex_.control[static_cast<size_t>(n)] != kGerman || used(n) ||
              std::find(out.begin(), out.end(), n) != out.end())
            continue;
          out.push_back(n);
        }
    }
    return;
  }
  for (int h = 0; h < kNumHexes; ++h) {
    if (!hx(h).on_map || data_->tec.prohibited[hx(h).terrain]) continue;
    if (zone == "romania" || zone == "Rom") {
      if (hx(h).country == kRomania) out.push_back(h);
    } else if (zone == "any-german") {
      if (data_->map_loaded ? hex_.control[static_cast<size_t>(h)] == kGerman : hex_col(h) >= 13)
        out.push_back(h);
    } else if (zone == "german-occupied") {
      // 13.7 "anywhere west of the Soviet front line": the German-held part of the USSR
      // and the Baltic states, not the 1941 Reich and its allies (ruling BD-15).
      const Country c = hx(h).country;
      if (data_->map_loaded ? hex_.control[static_cast<size_t>(h)] == kGerman && (c == kUssr || c == kBaltic)
                            : hex_col(h) >= 13)
        out.push_back(h);
    } else if (zone == "any-soviet") {
      if (data_->map_loaded ? hex_.control[static_cast<size_t>(h)] == kSoviet : hex_col(h) <= 11)
        out.push_back(h);
    }
  }
  // Without a generated map (no countries, no control) Romania falls back to the AGS hexes
  // and the free zones to the western / eastern halves of the grid (ruling BD-8).
  if (out.empty() && (zone == "romania" || zone == "Rom")) {
    auto ags = data_->places.zones.find("AGS");
    if (ags != data_->places.zones.end()) out = ags->second;
  }
}

}  // namespace bd
