// Barbarossa Deluxe rules: application of each action (do_apply, and each verb's apply, its
// row in verbs.cpp).
// Section numbers are the rulebook's (seeds/000); where the text is silent or ambiguous
// the choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_internal.h"

namespace bd {

void BdState::do_apply(const Action& a) {
  verbs().rows()[a.verb - 1U].apply(*this, a);  // in verb order (verbs.cpp)
  orphan_check();                               // 8.31, 8.32 ruling BD-TB1
  leningrad_siege_check();                      // 12.13 at every instant
  pending_conversions_check();                  // 8.23, 8.29 "the instant"
#ifndef NDEBUG
  if (auto s = check_invariants(); !s) {
    log("invariant", "invariant broken: " + s.error().message, "");
    std::fprintf(stderr, "BD invariant broken after %s: %s\n", action_to_string(a).c_str(),
                 s.error().message.c_str());
    assert(false && "BD invariant broken");
  }
#endif
}

void BdState::verb_apply_lw_defend(const Action& a) {
  pending_ = kPendNone;
  if (a.args[0] == 1) {
    battle_.lw_defend = 1;
    markers_.luftwaffe_left--;
    log("combat", "Luftwaffe supports the defence of " + hex_id(battle_.target), "11.23");
  }
  if (enter_support()) return;  // 8.38: the Soviet commits his support after this decision
  resolve_battle();
}

void BdState::verb_apply_take_retreat(const Action& a) {
  pending_ = kPendNone;
  if (a.args[0] == 1) {
    log("combat",
        "the Soviet takes a Defender Retreat in " + hex_id(battle_.target) + " instead of the die roll",
        "13.9");
    battle_.rolled = kDR;
    apply_result(kDR);
  } else {
    roll_battle();
  }
}

// 8.36-8.41
void BdState::verb_apply_support(const Action& a) {
  const int kind = a.args[0], u = a.nargs > 1 ? a.args[1] : -1;
  apply_support(battle_, kind, u);
  std::string text, german_text;  // 11.7: the army supported may be hidden from the German
  const char* rule = "8.41";
  switch (kind) {
    case kSupArtillery:
      ++markers_.artillery_used;
      text = "an artillery corps supports " + label(u) + ": its attack factor is doubled";
      german_text = "an artillery corps supports " + label_for_german(u, "a Soviet army") +
                    ": its attack factor is doubled";
      rule = "8.36";
      break;
    case kSupAirArmy:
      ++markers_.air_armies_used;
      text = "an air army supports " + label(u) + ": +1 attack factor";
      german_text = "an air army supports " + label_for_german(u, "a Soviet army") + ": +1 attack factor";
      rule = "8.38";
      break;
    case kSupInterceptor:
      markers_.support_used |= kSupportInterceptor;
      text = "the VI Interceptor Corps supports the attack: 1R";
      rule = "8.37";
      break;
    case kSupPartisans:
      markers_.support_used |= kSupportPartisans;
      text = "the partisans support the attack: 1R";
      rule = "8.39";
      break;
    default:
      if (sparam("airborne_once") > 0) {  // 15.8: once during the scenario
        markers_.airborne_years |= 1u;
        text = "an airborne assault supports the attack: 1R (its one use in this scenario)";
        rule = "15.8";
      } else {
        markers_.airborne_years |= static_cast<uint8_t>(1u << (ti().year - 1942));
        text = "an airborne assault supports the attack: 1R (its " + std::to_string(ti().year) + " use)";
        rule = "8.40";
      }
      break;
  }
  if (german_text.empty() || german_text == text)
    log("combat", text + " on " + hex_id(battle_.target), rule);
  else
    log_fog("combat", text + " on " + hex_id(battle_.target), german_text + " on " + hex_id(battle_.target),
            rule);
  if (!any_support()) {
    pending_ = kPendNone;
    resolve_battle();
  }
}

void BdState::verb_apply_support_done(const Action& /*a*/) {
  pending_ = kPendNone;
  resolve_battle();
}

// 8.26
void BdState::verb_apply_bulgaria_exit(const Action& a) {
  const int u = a.args[0];
  UnitSt& s = units_[static_cast<size_t>(u)];
  s.where = kInBulgaria;
  s.hex = -1;
  s.mp = -1;
  movers_.erase(std::remove(movers_.begin(), movers_.end(), u), movers_.end());
  bulg_unit_ = static_cast<int16_t>(u);
  bulg_exit_turn_ = static_cast<int8_t>(turn_);
  std::vector<int> bg;
  for (int x = 0; x < num_units(); ++x)
    if (bulgarian(x) && unit(x).where == kOutOfPlay) bg.push_back(x);
  const int first = bg.empty() ? 14 : def(bg[0]).entry_turn;  // GT14: the counters' entry turn
  if (turn_ < first) {
    // On or before GT13: the Bulgarians (and the unit: ruling BD-SM5) enter on GT14 via
    // Bulgaria's border hexes.
    bulg_state_ = 2;
    bg.push_back(u);
    for (int x : bg) {
      units_[static_cast<size_t>(x)].where = kTrrt;
      units_[static_cast<size_t>(x)].turn = static_cast<int8_t>(first);
    }
    log("reinforcement",
        label(u) + " moves off the map into Bulgaria: it and the Bulgarian armies enter on Game Turn " +
            std::to_string(first) + " through the Bulgarian border hexes",
        "8.26");
  } else {
    bulg_state_ = 1;
    log("reinforcement",
        label(u) +
            " moves off the map into Bulgaria (1 MP): it returns with the three Bulgarian armies "
            "in the next Soviet movement phase",
        "8.26");
  }
}

// 8.26
void BdState::verb_apply_bulgaria_return(const Action& a) {
  const int h = a.args[0];
  std::vector<int> bg{bulg_unit_};
  for (int x = 0; x < num_units(); ++x)
    if (bulgarian(x) && unit(x).where == kOutOfPlay) bg.push_back(x);
  bulg_hex_ = static_cast<int16_t>(h);
  bulg_state_ = 3;
  std::string names;
  for (int x : bg) {
    place(x, h);
    UnitSt& s = units_[static_cast<size_t>(x)];
    s.mp = -1;
    s.flags = 0;
    s.start_hex = static_cast<int16_t>(h);
    names += " " + label(x);
  }
  log("reinforcement",
      "returning through " + hex_id(h) + ":" + names +
          " (one satellite army per hex again by the end of their first move, 6.4)",
      "8.26");
}

void BdState::verb_apply_bb_choice(const Action& a) {
  pending_ = kPendNone;
  log("combat", a.args[0] == 1 ? "Bloodbath converted to Defender Retreat" : "Bloodbath kept",
      battle_.attacker == kSoviet ? "11.33" : (turn_ == 1 ? "5.14" : "5.16"));
  apply_result(a.args[0] == 1 ? kDR : kBB, a.args[0] == 1 && battle_.attacker == kSoviet);
}

void BdState::verb_apply_retreat(const Action& a) { do_retreat(a.args[0]); }

void BdState::verb_apply_advance(const Action& a) {
  const int from = unit(a.args[0]).hex;
  move_to(a.args[0], battle_.target);
  log("advance", label(a.args[0]) + " advances into " + hex_id(battle_.target), "11.30");
  communist_triggers(a.args[0], std::vector<int>{battle_.target});  // 8.24, 8.25
  for (int i = 0; i < battle_.nadv; ++i)
    if (battle_.adv[static_cast<size_t>(i)] == a.args[0]) battle_.adv[static_cast<size_t>(i)] = -1;
  if (second_advance_ok(a.args[0]) && battle_.nadv2 < kMaxBattleUnits) {
    battle_.adv2_from[battle_.nadv2] = static_cast<int16_t>(from);
    battle_.adv2[battle_.nadv2++] = static_cast<int16_t>(a.args[0]);
  }
}

void BdState::verb_apply_advance2(const Action& a) {
  move_to(a.args[0], a.args[1]);
  log("advance", label(a.args[0]) + " advances a second hex into " + hex_id(a.args[1]), "11.32");
  communist_triggers(a.args[0], std::vector<int>{a.args[1]});  // 8.24, 8.25
  for (int i = 0; i < battle_.nadv2; ++i)
    if (battle_.adv2[static_cast<size_t>(i)] == a.args[0]) battle_.adv2[static_cast<size_t>(i)] = -1;
}

void BdState::verb_apply_fortress_city(const Action& a) {
  markers_.fortress_city.push_back(static_cast<int16_t>(a.args[0]));
  if (markers_.fortress_left > 0 &&
      !(turn_ >= 28 && markers_.fortress_restricted_left > 0 &&
        (hx(a.args[0]).country == kGreaterGermany || hx(a.args[0]).country == kGeneralGovernment ||
         hx(a.args[0]).country == kHungary)))
    markers_.fortress_left--;
  else
    markers_.fortress_restricted_left--;
  log("marker", "Fortress City declared at " + hex_id(a.args[0]), "9.2");
  if (pending_ == kPendInterrupt) end_interrupt();
}

void BdState::verb_apply_emergency_rvgk(const Action& a) {
  const bool before_attack = pending_ == kPendInterrupt;
  pending_ = kPendNone;
  emergency_used_ = true;  // 8.11 once during the phase
  place(a.args[0], a.args[1]);
  units_[static_cast<size_t>(a.args[0])].flags |= kFlagNoMove;
  units_[static_cast<size_t>(a.args[0])].start_hex = static_cast<int16_t>(a.args[1]);
  log_seen(a.args[0], "rvgk", "emergency RVGK deployment: " + label(a.args[0]) + " at " + hex_id(a.args[1]),
           "emergency RVGK deployment: a Soviet unit at " + hex_id(a.args[1]), "8.11");
  if (before_attack) {
    pending_ = kPendInterrupt;
    end_interrupt();
  }
}

void BdState::verb_apply_no_emergency_rvgk(const Action& /*a*/) { pending_ = kPendNone; }

void BdState::verb_apply_sea_move(const Action& a) {
  if (def(a.args[0]).type == kCoastalArmy) {  // 10.34
    log("move",
        label(a.args[0]) + " switches ports " + hex_id(unit(a.args[0]).hex) + " -> " + hex_id(a.args[1]),
        "10.34", 1u << kSoviet);  // 11.7 as every Soviet move: the German sees the stacks
    move_to(a.args[0], a.args[1]);
    units_[static_cast<size_t>(a.args[0])].flags |= kFlagDone;
    return;
  }
  const int sea = sea_of(unit(a.args[0]).hex);
  sea_used_ = static_cast<uint8_t>(sea_used_ | (1u << sea));
  log("move",
      label(a.args[0]) + " moves by sea " + hex_id(unit(a.args[0]).hex) + " -> " + hex_id(a.args[1]) +
          "; it may not move on or attack this player turn",
      sea == 0 ? "10.16" : "10.17", def(a.args[0]).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
  move_to(a.args[0], a.args[1]);
  units_[static_cast<size_t>(a.args[0])].flags |= kFlagDone | kFlagSeaMoved;
}

// 8.31, 8.32
void BdState::verb_apply_attach(const Action& a) {
  const int u = a.args[0], p = a.args[1];
  const char* rule = attach_rule(u);
  const std::string from =
      unit(u).where == kOnMap ? hex_id(unit(u).hex) : std::string(where_name(unit(u).where));
  if (unit(u).where == kTrrt) {
    attach(u, p);
    log("reinforcement", label(u) + " arrives atop " + label(p) + " in " + hex_id(unit(p).hex), rule,
        def(u).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
  } else if (unit(u).where == kRvgk) {
    ++rvgk_moves_;
    attach(u, p);
    log_seen(u, "rvgk", label(u) + " comes out of the RVGK atop " + label(p) + " in " + hex_id(unit(p).hex),
             "a Soviet unit comes out of the RVGK in " + hex_id(unit(p).hex), rule);
  } else {
    strat_used_ = static_cast<int8_t>(strat_used_ + strategic_cost(u));
    attach(u, p);
    log("move",
        label(u) + " moves strategically " + from + " -> " + hex_id(unit(p).hex) + " atop " + label(p),
        "8.6, 8.31", def(u).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
  }
  units_[static_cast<size_t>(u)].flags |= kFlagDone;
}

void BdState::verb_apply_strategic(const Action& a) {
  strat_used_ = static_cast<int8_t>(strat_used_ + strategic_cost(a.args[0]));
  log("move",
      label(a.args[0]) + " moves strategically " + hex_id(unit(a.args[0]).hex) + " -> " + hex_id(a.args[1]),
      "8.6", def(a.args[0]).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
  move_to(a.args[0], a.args[1]);
  units_[static_cast<size_t>(a.args[0])].flags |= kFlagDone;
}

void BdState::verb_apply_crimea_supply(const Action& a) {
  const bool was_on = crimea_on_;
  crimea_on_ = a.args[0] == 1;
  crimea_switched_ = true;
  if (crimea_on_) crimea_turn_ = true;
  crimea_declared_.clear();  // ruling BD-22: a declaration stands until the next switch
  std::string names;
  for (int i = 1; i < a.nargs; ++i) {
    crimea_declared_.push_back(static_cast<int16_t>(a.args[i]));
    names += " " + label(a.args[i]);
  }
  mark_dirty();
  if (was_on != crimea_on_)
    log("supply", std::string("German Crimea supply switched ") + (crimea_on_ ? "on" : "off"), "7.4");
  if (!names.empty()) log("supply", "German Crimea supply declared for" + names, "7.4");
}

void BdState::verb_apply_aerial_supply(const Action& a) {
  markers_.aerial = static_cast<int16_t>(a.args[0]);
  markers_.aerial_available = false;
  log("marker", "German aerial supply committed to " + hex_id(a.args[0]), "7.7");
}

void BdState::verb_apply_fortified_area(const Action& a) {
  markers_.fa_hex = static_cast<int16_t>(a.args[0]);
  markers_.fa_turn = static_cast<int8_t>(turn_);
  markers_.fa_available = false;
  log("marker", "Soviet Fortified Area placed at " + hex_id(a.args[0]), "8.18");
}

void BdState::verb_apply_advance_done(const Action& /*a*/) { finish_battle(); }

void BdState::verb_apply_end_phase(const Action& /*a*/) {
  // 6.2, 8.26: Bulgarians still over-stacked at the end of their first move (none of them
  // could leave the entry hex) go to the dead pile down to the limit (ruling BD-SM6).
  if (bulgaria_overstacked()) {
    std::vector<int> here;
    units_in(bulg_hex_, here);
    int sats = 0;
    for (int x : here)
      if (def(x).satellite_army() && ++sats > data_->stacking.satellite_armies_per_hex) {
        log("eliminate", label(x) + " is over-stacked at the end of its first move", "6.2, 8.26");
        eliminate(x, "6.2");
      }
  }
  // 6.2: a hex over-stacked at the end of the phase is brought back into the limits
  // first; the phase ends after the last removal.
  if (overstack_check()) {
    overstack_resume_ = true;
    return;
  }
  end_phase();
  (void)overstack_check();  // 6.2 ... and at the start of the next phase
}

// 11.26
void BdState::verb_apply_bb_loss(const Action& a) {
  log("combat", label(a.args[0]) + " is given up for the Bloodbath", "11.26");
  bb_remove(a.args[0]);
  bb_continue();
}

// 6.2
void BdState::verb_apply_overstack_remove(const Action& a) {
  const int u = a.args[0];
  const std::string from = hex_id(unit(u).hex);
  eliminate(u, "6.2");
  pending_ = kPendNone;
  log("stacking",
      std::string(side_name(other(def(u).side))) + " removes " + label(u) + " from the over-stacked hex " +
          from + " to the dead pile",
      "6.2");
  if (overstack_check()) return;
  if (overstack_resume_) {
    overstack_resume_ = false;
    end_phase();
    (void)overstack_check();
  }
}

void BdState::verb_apply_move(const Action& a, int move_mf) {
  const int u = a.args[0];
  UnitSt& s = units_[static_cast<size_t>(u)];
  if (std::find(movers_.begin(), movers_.end(), u) == movers_.end()) {
    if (in_moving_stack(u)) {  // 10.5, 10.6: a unit of the moving parent stack
      movers_.push_back(static_cast<int16_t>(u));
    } else {
      for (int m : movers_) units_[static_cast<size_t>(m)].flags |= kFlagDone;  // 10.2, 10.6
      movers_.assign(1, static_cast<int16_t>(u));
    }
  }
  int left = s.mp >= 0 ? s.mp : move_mf;
  const Places& pl = data_->places;
  std::string path = hex_id(a.args[1]);
  for (int i = 2; i < a.nargs; ++i) {
    const int from = a.args[i - 1], to = a.args[i];
    left -= enter_cost(u, from, to);
    if (is_crossing(pl.kerch, from, to)) {
      kerch_from_ = static_cast<int16_t>(from);  // 10.14
      left = 0;
    }
    move_to(u, to);
    path += " " + hex_id(to);
  }
  s.mp = static_cast<int8_t>(std::max(0, left));
  s.flags = static_cast<uint16_t>(s.flags & ~kFlagEdgeEntry);  // 8.1 the entry hex is paid for
  log("move", std::string(side_name(def(u).side)) + " " + label(u) + " moves " + path, "10.1",
      def(u).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
  if (def(u).side == kSoviet) {  // 8.24, 8.25
    std::vector<int> hexes(a.args.begin() + 2, a.args.begin() + a.nargs);
    communist_triggers(u, hexes);
  }
}

// kAttackFrom, kAttackWith, kMobileAssault
void BdState::verb_apply_attack(const Action& a) {
  if (interrupt_window(a)) {  // 9.7, ruling BD-14: the defender's moment comes first
    held_attack_ = a;
    pending_ = kPendInterrupt;
    log("combat",
        std::string("the ") + side_name(phase_side()) + " is about to " +
            (a.verb == kMobileAssault ? "mobile-assault " : "attack ") + hex_id(a.args[0]) + ": the " +
            side_name(other(phase_side())) + " may act before the attack is declared",
        "9.7");
    return;
  }
  declare_attack(a);
}

// 9.7: the defender let the attack go on; it is declared as it was submitted.
void BdState::verb_apply_let_attack(const Action& /*a*/) {
  const Action held = held_attack_;
  held_attack_ = Action{};
  pending_ = kPendNone;
  declare_attack(held);
}

// 9.7: the defender acted (a Hero or Fortress City, an emergency RVGK deployment); the
// attack was never declared and the attacker chooses again with the new situation.
void BdState::end_interrupt() {
  log("combat",
      "the attack on " + hex_id(held_attack_.args[0]) + " was not declared: the " + side_name(phase_side()) +
          " chooses again",
      "9.7");
  held_attack_ = Action{};
  pending_ = kPendNone;
}

void BdState::declare_attack(const Action& a) {
  std::vector<int> atts;
  if (a.verb == kAttackFrom) {
    (void)collect_attack_from(a, atts);
  } else {
    for (int i = 2; i < a.nargs; ++i) atts.push_back(a.args[i]);
  }
  if (a.verb != kMobileAssault)
    for (int m : movers_) units_[static_cast<size_t>(m)].flags |= kFlagDone;
  start_battle(atts, a.args[0], a.verb == kMobileAssault, (a.args[1] & 1) != 0, (a.args[1] & 2) != 0);
}

void BdState::verb_apply_order(const Action& a) {
  const int side = phase_ == kGermanOrder ? kGerman : kSoviet;
  order_[static_cast<size_t>(side)] = static_cast<uint8_t>(a.args[0]);
  if (side == kGerman && combout_left_ > 0) {
    log("replacement", std::to_string(combout_left_) + " comb-out steps not used are lost", "8.16");
    combout_left_ = 0;
  }
  if (a.args[0] == kFightFight) {
    if (side == kSoviet)
      soviet_ff_used_ = true;
    else if (ti().year == 1942)
      ff_used_1942_ = true;
    else
      ff_used_1943_ = true;
  }
  log("order", std::string(side_name(side)) + " declares " + kOrderNames[a.args[0]], "5.4");
  if (side == kGerman) {
    if (turn_ >= 9 && turn_ <= 29) {  // 8.6
      strat_used_ = 0;
      enter_phase(kGermanStrategic);
    } else {
      enter_phase(kGermanB);
    }
  } else {
    bool any = false;
    for (auto h : markers_.osupply_have) any |= h != 0;
    if (turn_ >= 7 && any && !german_moscow_at_start_ && sparam("offensive_supply_always") == 0) {
      enter_phase(kSovietOSupply);  // 14.2: skip_rvgk_once_ is read when this phase ends
    } else {
      enter_phase((turn_ == 1 || skip_rvgk_once_) ? kSovietB : kSovietRvgk);
      skip_rvgk_once_ = false;
    }
  }
}

void BdState::verb_apply_paulus(const Action& a) {
  paulus_ = static_cast<int8_t>(a.args[0]);
  log("order", a.args[0] == 1 ? "Paulus Pause taken: no German attacks this turn" : "Paulus Pause declined",
      "5.10");
}

void BdState::verb_apply_zone1942(const Action& a) {
  zone1942_ = static_cast<int8_t>(a.args[0]);
  log("order", std::string("1942 logistics effort: ") + (a.args[0] == kZoneNorth ? "north" : "south"), "5.6");
}

void BdState::verb_apply_convert(const Action& a) {
  const int g = a.args[0], r = a.args[1];
  const std::string where = hex_id(unit(r).hex);
  const bool seen = german_sees(r);          // 11.7 the top unit of its stack, or revealed
  units_[static_cast<size_t>(g)] = unit(r);  // hex, stack order, MP and flags carry over
  units_[static_cast<size_t>(r)] = UnitSt{};
  repoint_attached(r, g);  // 8.32 its CM stays atop the new army
  units_[static_cast<size_t>(r)].where = kDead;
  const std::string text =
      label(r) + " in " + where + " becomes " + label(g) + "; " + label(r) + " goes to the dead pile";
  if (seen)
    log("convert", text, "8.20");
  else
    log_fog("convert", text,
            "a Soviet army in " + where +
                " becomes a Guards or Shock army; the army replaced goes to the dead pile",
            "8.20");
}

void BdState::verb_apply_comb_out(const Action& /*a*/) {
  const int r = roll(6, "rear-area comb-out", "8.16");
  combout_left_ = static_cast<int8_t>(r / 2);
  combout_done_ = static_cast<uint8_t>(combout_done_ | (ti().year == 1943 ? 1u : 2u));
  log("replacement",
      "German rear-area comb-out: d6 = " + std::to_string(r) + ", " + std::to_string(r / 2) +
          " bonus non-mech replacement steps",
      "8.16");
}

void BdState::verb_apply_east_wall(const Action& a) {
  markers_.east_wall.push_back(static_cast<int16_t>(a.args[0]));
  markers_.east_wall_left--;
  log("marker", "East Wall counter placed in " + hex_id(a.args[0]), "8.5");
}

void BdState::verb_apply_enter(const Action& a) {
  if (enters_in_situ(a.args[0]) && occupant_side(a.args[1]) == def(a.args[0]).side)
    hex_.insitu[static_cast<size_t>(a.args[1])] = 1;  // 8.2, 8.4
  place(a.args[0], a.args[1]);
  hex_.entered[static_cast<size_t>(a.args[1])]++;
  // 8.1: a unit placed on a board-edge hex (not a city, not in situ) pays for that hex when
  // it first moves.
  if (!enters_in_situ(a.args[0]) && !bulgarian_entry(a.args[0]) && !hx(a.args[1]).city) {
    const auto& pl = data_->places;
    const auto& edge = def(a.args[0]).side == kGerman ? pl.german_edge : pl.soviet_edge;
    if (std::find(edge.begin(), edge.end(), a.args[1]) != edge.end())
      units_[static_cast<size_t>(a.args[0])].flags |= kFlagEdgeEntry;
  }
  log("reinforcement", label(a.args[0]) + " enters at " + hex_id(a.args[1]), "8.1",
      def(a.args[0]).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
}

void BdState::verb_apply_replace(const Action& a) {
  const int u = a.args[0];
  const int side = def(u).side;
  if (phase_ == kGermanOrder) {  // 8.16 a comb-out step
    combout_left_--;
    place(u, a.args[1]);
    hex_.entered[static_cast<size_t>(a.args[1])]++;
    log("replacement", label(u) + " rebuilt at " + hex_id(a.args[1]) + " by the comb-out", "8.16");
    return;
  }
  if (def(u).cls == kMech || repl_left_non_[static_cast<size_t>(side)] <= 0)
    repl_left_mech_[static_cast<size_t>(side)]--;  // 8.13 Soviet may use a mech step for non-mech
  else
    repl_left_non_[static_cast<size_t>(side)]--;
  if (a.args[1] == -1) {
    units_[static_cast<size_t>(u)].where = kRvgk;
    log("replacement", label(u) + " rebuilt into the RVGK", "8.8", 1u << kSoviet);
  } else {
    place(u, a.args[1]);
    hex_.entered[static_cast<size_t>(a.args[1])]++;
    log("replacement", label(u) + " rebuilt at " + hex_id(a.args[1]), "8.12");
  }
}

void BdState::verb_apply_rvgk_in(const Action& a) {
  UnitSt& s = units_[static_cast<size_t>(a.args[0])];
  if (phase_ == kSetupPhase) {  // 15.3
    s.where = kRvgk;
    ++rvgk_setup_;
    log("setup", label(a.args[0]) + " starts in the RVGK", "15.3", 1u << kSoviet);
    if (setup_left(kGerman) + setup_left(kSoviet) == 0 && !lith_relocate_) {
      rebase_vp();
      start_play();
    }
    return;
  }
  s.where = kRvgk;
  s.hex = -1;
  s.parent = -1;  // 8.32 a CM leaves its army for the RVGK
  s.flags |= kFlagDone;
  ++rvgk_moves_;
  mark_dirty();
  log("rvgk", label(a.args[0]) + " goes into the RVGK", "8.9", 1u << kSoviet);
}

void BdState::verb_apply_rvgk_out(const Action& a) {
  place(a.args[0], a.args[1]);
  units_[static_cast<size_t>(a.args[0])].start_hex = static_cast<int16_t>(a.args[1]);
  units_[static_cast<size_t>(a.args[0])].flags |= kFlagDone;
  ++rvgk_moves_;
  log_seen(a.args[0], "rvgk", label(a.args[0]) + " comes out of the RVGK at " + hex_id(a.args[1]),
           "a Soviet unit comes out of the RVGK at " + hex_id(a.args[1]), "8.10");
}

void BdState::verb_apply_off_supply(const Action& a) {
  markers_.osupply[static_cast<size_t>(a.args[0])] = static_cast<int16_t>(a.args[1]);
  log("marker", std::string("offensive supply ") + "ABC"[a.args[0]] + " at " + hex_id(a.args[1]), "7.12");
}

void BdState::verb_apply_setup(const Action& a) {
  if (unit(a.args[0]).where == kOnMap) {  // 3.7 relocation into Poland
    place(a.args[0], a.args[1], true);
    log("setup", label(a.args[0]) + " relocates to " + hex_id(a.args[1]), "3.7", 1u << kSoviet);
    return;
  }
  place(a.args[0], a.args[1], true);
  log("setup", label(a.args[0]) + " sets up in " + hex_id(a.args[1]), "3.3",
      def(a.args[0]).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
  if (setup_left(kGerman) + setup_left(kSoviet) == 0 && !lith_relocate_) {
    rebase_vp();
    start_play();
  }
}

void BdState::verb_apply_withdraw(const Action& a) {
  if (phase_ == kAdminGerman) {  // 8.17
    ss_withdraw("withdrawn");
    return;
  }
  UnitSt& s = units_[static_cast<size_t>(a.args[0])];
  if (withdraw_due_ == 2) {  // 8.21: "It may never be reentered into play in any way."
    s.where = kOutOfPlay;
    s.hex = -1;
    s.mp = -1;
    s.flags = 0;
    withdraw_due_ = 0;
    mark_dirty();
    log("withdraw", label(a.args[0]) + " permanently withdrawn (it may never re-enter play)", "8.21");
    return;
  }
  s.where = kTrrt;
  s.turn = 27;  // 8.21
  s.hex = -1;
  withdraw_due_ = 0;
  mark_dirty();
  log("withdraw", label(a.args[0]) + " withdrawn until GT27", "8.21");
}

void BdState::verb_apply_summer_offensive(const Action& /*a*/) {
  summer_turn_ = static_cast<int8_t>(turn_);
  log("order", "the German declares his 1943 summer offensive", "4.4");
}

void BdState::verb_apply_mansteins_gambit(const Action& /*a*/) {
  summer_turn_ = static_cast<int8_t>(turn_);
  mg_ = true;
  log("order",
      "the German declares his 1943 summer offensive as Manstein's Gambit: the game ends at the end of "
      "GT" +
          std::to_string(data_->victory.mg_end_turn),
      "4.16");
  mg_start();
}

void BdState::verb_apply_watch(const Action& a) {
  watch_ = static_cast<int8_t>(a.args[0]);
  // 4.18: the choice stays under the coffee cup until GT30; only the German sees it.
  log("order", std::string("Operation Watch on the ") + (a.args[0] == 2 ? "Oder" : "Rhine") + " chosen",
      "4.18", 1u << kGerman);
  log("order", "the German has chosen between Rhine and Oder (hidden until Game Turn 30)", "4.18",
      1u << kSoviet);
}

void BdState::verb_apply_decline_withdraw(const Action& /*a*/) {
  if (phase_ == kAdminGerman) {  // 4.10
    const int i = std::max<int>(0, ss_cycle_);
    ss_due_ = 0;
    ss_failed_ = static_cast<uint8_t>(ss_failed_ | (1u << i));
    vp_ += data_->victory.ss_vp;
    vp_events_ += data_->victory.ss_vp;
    log("vp",
        "the German declines the withdrawal of " + label(ss_unit()) + ": German VP " +
            std::to_string(data_->victory.ss_vp) + ", now " + std::to_string(vp_),
        "4.10");
    return;
  }
  withdraw_due_ = 0;
  vp_ += 1;
  vp_events_ += 1;
  log("vp", "Soviet declines the withdrawal: German VP +1", "4.9");
}

void BdState::verb_apply_hero_city(const Action& a) {
  markers_.hero_city.push_back(static_cast<int16_t>(a.args[0]));
  markers_.hero_left--;
  mark_dirty();
  log("marker", "Hero City declared at " + hex_id(a.args[0]), "9.1");
  if (pending_ == kPendInterrupt) end_interrupt();
}

// 4.11
void BdState::verb_apply_caucasus_launch(const Action& a) {
  for (int m : movers_) units_[static_cast<size_t>(m)].flags |= kFlagDone;  // 10.2
  movers_.clear();
  std::string names;
  for (int i = 0; i < a.nargs; ++i) {
    UnitSt& s = units_[static_cast<size_t>(a.args[i])];
    names += (i > 0 ? ", " : "") + label(a.args[i]) + " (" + hex_id(s.hex) + ")";
    s.where = kCaucasus;
    s.hex = -1;
    s.mp = -1;
    s.flags = 0;
  }
  mark_dirty();
  cauc_ = kCaucInBox;
  cauc_turn_ = static_cast<int8_t>(turn_);
  log("caucasus", "the German launches a Caucasus expedition: " + names + " leave the map", "4.11");
  // 4.12: the Soviet must answer at once with four rifle armies, or lose.
  cauc_need_ = static_cast<int8_t>(data_->victory.caucasus_response);
  if (cauc_need_ <= 0) return;
  if (caucasus_responders() < cauc_need_) {
    end_game(kGerman,
             "the Soviet cannot send " + std::to_string(cauc_need_) + " rifle armies to the Caucasus",
             "4.12");
    return;
  }
  pending_ = kPendCaucasus;
}

// 4.12
void BdState::verb_apply_caucasus_send(const Action& a) {
  const int u = a.args[0];
  UnitSt& s = units_[static_cast<size_t>(u)];
  const std::string from = s.where == kRvgk ? std::string("the RVGK") : hex_id(s.hex);
  s.where = kCaucasus;
  s.hex = -1;
  s.mp = -1;
  s.flags = 0;
  mark_dirty();
  --cauc_need_;
  log("caucasus", "the Soviet sends " + label(u) + " from " + from + " into the Caucasus box", "4.12");
  if (cauc_need_ <= 0) {
    pending_ = kPendNone;
  } else if (caucasus_responders() < cauc_need_) {
    end_game(kGerman, "the Soviet cannot send enough rifle armies to the Caucasus", "4.12");
  }
}

void BdState::verb_apply_caucasus_refuse(const Action& /*a*/) {
  end_game(kGerman, "the Soviet does not respond to the Caucasus expedition", "4.12");
}

// 4.13: all out, at 0 MP through exit hexes free of Soviet units
void BdState::verb_apply_caucasus_recall(const Action& a) {
  for (int m : movers_) units_[static_cast<size_t>(m)].flags |= kFlagDone;  // 10.2
  movers_.clear();
  std::string names;
  for (int i = 0; i < a.nargs; i += 2) {
    const int u = a.args[i], h = a.args[i + 1];
    place(u, h);
    UnitSt& s = units_[static_cast<size_t>(u)];
    s.mp = -1;
    s.flags = 0;
    s.start_hex = static_cast<int16_t>(h);
    names += (i > 0 ? ", " : "") + label(u) + " at " + hex_id(h);
  }
  cauc_ = kCaucRecalled;
  log("caucasus", "the German recalls the Caucasus expedition: " + names, "4.13");
}

// 4.13 (ruling BD-V6)
void BdState::verb_apply_caucasus_leave(const Action& a) {
  const int u = a.args[0], h = a.args[1];
  place(u, h);
  UnitSt& s = units_[static_cast<size_t>(u)];
  s.mp = -1;
  s.start_hex = static_cast<int16_t>(h);
  log("caucasus", label(u) + " leaves the Caucasus box at " + hex_id(h), "4.13");
}

}  // namespace bd
