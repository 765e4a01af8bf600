// Barbarossa Deluxe rules: legality of each action (check, and each verb's check, its row in
// verbs.cpp).
// Section numbers are the rulebook's (seeds/000); where the text is silent or ambiguous
// the choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_internal.h"

namespace bd {

Status BdState::check_order(int side, int order) const {
  if (order < kMoveFight || order > kFightFight) return rerr("5.4", "unknown phase order");
  if (sparam("fight_fight_once") > 0) {  // 15.3
    if (order == kFightFight && (side == kGerman ? ff_used_1942_ : soviet_ff_used_))
      return rerr("15.3", "fight/fight only once in this scenario");
    return Status::ok();
  }
  if (side == kGerman) {
    if (turn_ == 1 && order != kFightMove)
      return rerr("5.4", "the German must choose fight/move on Game Turn 1");
    if (order == kFightFight) {
      const bool y42 = ti().single && ti().year == 1942 && !ff_used_1942_;
      const bool y43 = ti().single && ti().year == 1943 && !ff_used_1943_;
      if (!y42 && !y43 && !oder_active())  // 4.18 Oder turn
        return rerr("5.5", "German fight/fight only once in a 1942 and once in a 1943 single-month turn");
    }
  } else {
    if (turn_ <= 5 && order != kFightMove)
      return rerr("5.4", "the Soviet must choose fight/move on Game Turns 1-5");
    if (order == kFightFight && (turn_ < 31 || soviet_ff_used_))
      return rerr("5.5", "Soviet fight/fight only once, on Game Turn 31 or 32");
  }
  return Status::ok();
}

Status BdState::check_end_phase() const {
  if (phase_ == kGermanOrder || phase_ == kSovietOrder) return rerr("5.4", "declare the phase order first");
  if (phase_ == kSetupPhase && (!lith_relocate_ || setup_left(kGerman) + setup_left(kSoviet) > 0))
    return rerr("3.1", "place every set-up unit first");
  if (phase_ == kAdminSoviet && withdraw_due_ == 1)
    return rerr("8.21", "withdraw a rifle army or decline the withdrawal first");
  if (phase_ == kAdminSoviet && withdraw_due_ == 2 && perm_withdrawal_candidates() != 0)
    return rerr("8.21", "a further rifle army must be permanently withdrawn first (withdraw ARMY)");
  if (phase_ == kAdminGerman && markers_.east_wall_left > 0)
    for (int h = 0; h < kNumHexes; ++h)
      if (check_east_wall(h).is_ok())
        return rerr("8.5", "place every East Wall counter first (east-wall <hex>)");
  if (phase_ == kAdminGerman && ss_due_ == 1 && ss_can_withdraw())
    return rerr("8.17", "withdraw " + label(ss_unit()) + " or decline the withdrawal first");
  if (bulgaria_return_due())
    return rerr("8.26",
                "the unit in Bulgaria returns with the three Bulgarian armies in this movement phase "
                "(bulgaria-return <hex>)");
  if (bulgaria_overstacked()) {  // 8.26: within the 6.4 limit by the end of their first move
    std::array<int16_t, kNumHexes> best{}, parent{};
    std::vector<int> here, add(1);
    units_in(bulg_hex_, here);
    for (int x : here) {
      const UnitSt& s = unit(x);
      if (!def(x).satellite_army() || (s.flags & (kFlagDone | kFlagNoMove)) ||
          (s.mp >= 0 && std::find(movers_.begin(), movers_.end(), x) == movers_.end()))
        continue;
      reach(x, best, parent);
      add[0] = x;
      for (int h = 0; h < kNumHexes; ++h)
        if (h != bulg_hex_ && best[static_cast<size_t>(h)] >= 0 && stacking_ok(h, kSoviet, add).is_ok())
          return rerr("8.26",
                      "the Bulgarian armies must be one per hex (6.4) by the end of their first move: "
                      "move " +
                          label(x) + " out of " + hex_id(bulg_hex_));
    }
  }
  if (phase_ == kAdminGerman && vp_schedule() && turn_ == data_->victory.watch_choose_turn && watch_ == 0)
    return rerr("4.18", "choose Operation Watch on the Rhine or on the Oder first (watch rhine | oder)");
  // 5.12: GT1-3 every Soviet unit adjacent to the enemy at the start of a PA phase attacks.
  if (is_assault_phase() && phase_side() == kSoviet && turn_ <= 3 && sparam("no_1941_opening") == 0) {
    std::vector<int> here;
    for (int u = 0; u < num_units(); ++u) {
      const UnitSt& s = unit(u);
      const UnitDef& d = def(u);
      if (s.where != kOnMap || d.side != kSoviet || (s.flags & kFlagAttacked) || d.attack == 0) continue;
      if (hx(s.hex).city || hx(s.hex).fortified == kSoviet) continue;  // exempt
      for (int dd = 0; dd < 6; ++dd) {
        const int t = neighbour(s.hex, dd);
        if (t < 0 || !enemy_in(t, kSoviet) || ((hx(s.hex).river >> dd) & 1u)) continue;
        units_in(t, here);
        bool open = true;
        for (int x : here)
          if ((unit(x).flags & kFlagDefended) && !(unit(x).flags & kFlagRetreatedIn)) open = false;
        if (open && can_attack_unit(u, t, false))
          return rerr("5.12", d.label + " must attack an adjacent enemy hex on Game Turns 1-3");
      }
    }
  }
  return Status::ok();
}

Status BdState::check(const Action& a) const {
  if (phase_ == kGameOver) return rerr("4.1", "the game is over");
  const auto rows = verbs().rows();  // in verb order (verbs.cpp)
  if (a.verb == kVerbNone || a.verb > rows.size()) return rerr("", "unknown verb");
  return rows[a.verb - 1U].check(*this, a);
}

Status BdState::check_arg_count(const Action& a, ArgCount n) const {
  switch (n) {
    case ArgCount::kNone:
      if (a.nargs != 0) return rerr("", "wrong number of arguments");
      break;
    case ArgCount::kOne:
      if (a.nargs != 1) return rerr("", "wrong number of arguments");
      break;
    case ArgCount::kTwo:
      if (a.nargs != 2) return rerr("", "wrong number of arguments");
      break;
    case ArgCount::kAny:
      break;
    case ArgCount::kChoice:
      if (a.nargs != 1) return rerr("", "wrong number of arguments");
      if (a.args[0] != 0 && a.args[0] != 1) return rerr("", "malformed choice");
      break;
    case ArgCount::kAttackWith:  // 11.6: any units, one or more
    case ArgCount::kAttack:
      if (a.nargs < 3 || a.args[1] < 0 || a.args[1] > 3) return rerr("", "malformed attack");
      break;
    case ArgCount::kSupport:
      if (a.nargs != (a.nargs >= 1 && (a.args[0] == kSupArtillery || a.args[0] == kSupAirArmy) ? 2 : 1))
        return rerr("", "wrong number of arguments");
      break;
    case ArgCount::kCrimea:
      if (a.nargs < 1 || a.nargs > 6 || (a.args[0] != 1 && a.nargs != 1))
        return rerr("7.4", "crimea-supply on [UNIT...] (at most five units) | off");
      break;
  }
  return Status::ok();
}

std::optional<Status> BdState::check_pending(const Action& a) const {
  switch (pending_) {
    case kPendTakeRetreat:
      if (a.verb != kTakeRetreat)
        return rerr("13.9", "the Soviet decides first whether to take a Defender Retreat");
      return Status::ok();
    case kPendBbLoss: {  // 11.26
      if (a.verb != kBbLoss || !arg_is_unit(a, 0))
        return rerr("11.26",
                    "the attacker first chooses the units that pay for the Bloodbath (bb-loss UNIT)");
      std::vector<int> cand;
      bb_candidates(cand);
      if (std::find(cand.begin(), cand.end(), a.args[0]) == cand.end())
        return rerr(
            "11.26",
            def(a.args[0]).label +
                " cannot pay for this Bloodbath now (an attacker of this battle, dotted units first)");
      return Status::ok();
    }
    case kPendOverstack: {  // 6.2
      const int h = overstacked_hex();
      if (a.verb != kOverstackRemove || !arg_is_unit(a, 0) || h < 0)
        return rerr("6.2", "the opposing player must first remove units from the over-stacked hex " +
                               (h >= 0 ? hex_id(h) : std::string("?")));
      const int u = a.args[0];
      if (unit(u).where != kOnMap || unit(u).hex != h)
        return rerr("6.2", def(u).label + " is not in the over-stacked hex " + hex_id(h));
      if (overstack_need(h, u) >= overstack_need(h, -1))
        return rerr("6.2",
                    "removing " + def(u).label +
                        " does not bring the stack nearer its limits (only the minimum number of units "
                        "necessary is removed)");
      return Status::ok();
    }
    case kPendLwDefend:
      if (a.verb == kAerialSupply || a.verb == kCrimeaSupply) break;  // 7.7, 7.4 at any instant
      if (a.verb != kLwDefend || a.nargs != 1)
        return rerr("11.23", "the German must decide on defensive Luftwaffe support");
      if (a.args[0] == 1 && markers_.luftwaffe_left <= 0) return rerr("11.23", "no Luftwaffe marker left");
      return Status::ok();
    case kPendEmergency:
      if (a.verb == kNoEmergencyRvgk) return Status::ok();
      if (a.verb != kEmergencyRvgk)
        return rerr("8.11", "the Soviet may make an emergency RVGK deployment now, or decline it");
      return check_emergency_rvgk(a);
    case kPendInterrupt: {  // 9.7, ruling BD-14: the attack is not declared yet
      const int target = held_attack_.args[0];
      const bool german_attacks = phase_side() == kGerman;
      if (a.verb == kLetAttack) return Status::ok();
      if (a.verb == (german_attacks ? kHeroCity : kFortressCity)) {
        if (a.nargs == 1 && a.args[0] == target) return std::nullopt;  // the marker's own rule (9.1, 9.2)
        return rerr("9.7", std::string("only the city about to be attacked, ") + hex_id(target) +
                               ", may be declared now");
      }
      if (a.verb == kEmergencyRvgk && german_attacks && held_attack_.verb == kMobileAssault &&
          emergency_window())
        return check_emergency_rvgk(a);
      return rerr("9.7", std::string("the ") + side_name(other(phase_side())) +
                             " first decides whether to act before the attack on " + hex_id(target) +
                             " is declared (let-attack lets it go on)");
    }
    case kPendCaucasus:  // 4.12
      if (a.verb == kCaucasusRefuse) return Status::ok();
      if (a.verb != kCaucasusSend || !arg_is_unit(a, 0))
        return rerr("4.12", "the Soviet must send " + std::to_string(cauc_need_) +
                                " more rifle armies into the Caucasus box, or refuse (the German then wins)");
      if (!caucasus_responder(a.args[0]))
        return rerr("4.12", def(a.args[0]).label +
                                " is not a rifle army in the RVGK or on the map in overland supply");
      return Status::ok();
    case kPendSupport:  // 8.36-8.41
      if (a.verb == kSupportDone) return Status::ok();
      if (a.verb != kSupport)
        return rerr("8.41", "commit support markers to the attack (support ...) or finish (support-done)");
      return check_support(a.args[0], a.nargs > 1 ? a.args[1] : -1);
    case kPendBbChoice:
      if (a.verb != kBbChoice || a.nargs != 1)
        return rerr("5.16", "choose whether to convert the Bloodbath to Defender Retreat");
      return Status::ok();
    case kPendRetreat: {
      if (a.verb != kRetreat || a.nargs != 1) return rerr("11.27", "the defender must choose a retreat hex");
      std::vector<int> opts;
      retreat_options(battle_.target, other(battle_.attacker), opts);
      if (std::find(opts.begin(), opts.end(), a.args[0]) == opts.end())
        return rerr("11.27",
                    "not a legal retreat hex (preferred directions first, never where the attack came from)");
      return Status::ok();
    }
    case kPendAdvance: {
      if (a.verb == kAdvanceDone) return Status::ok();
      if (a.verb == kAdvance2 && arg_is_unit(a, 0)) return check_advance2(a.args[0], a.args[1]);
      if (a.verb != kAdvance || !arg_is_unit(a, 0))
        return rerr("11.30", "advance a victorious unit or finish advancing");
      const int u = a.args[0];
      bool ok = false;
      for (int i = 0; i < battle_.nadv; ++i) ok |= battle_.adv[static_cast<size_t>(i)] == u;
      if (!ok || unit(u).where != kOnMap || unit(u).hex == battle_.target)
        return rerr("11.30", def(u).label + " may not advance");
      std::vector<int> add{u};
      return stacking_ok(battle_.target, def(u).side, add);
    }
    default:
      break;
  }
  return std::nullopt;
}

// Verbs that only answer a pending decision (check_pending admits them).
Status BdState::verb_check_not_now(const Action& /*a*/) const {
  return rerr("", "this action is not available now");
}

Status BdState::verb_check_end_phase(const Action& a) const {
  if (a.nargs != 0) return rerr("", "end-phase takes no arguments");
  return check_end_phase();
}

// kSupport, kSupportDone
Status BdState::verb_check_support(const Action& /*a*/) const {
  return rerr("8.41", "support markers are committed to a Soviet prepared assault once it is declared");
}

Status BdState::verb_check_bulgaria_exit(const Action& a) const { return check_bulgaria_exit(a.args[0]); }

Status BdState::verb_check_bulgaria_return(const Action& a) const { return check_bulgaria_return(a.args[0]); }

Status BdState::verb_check_move(const Action& a) const {
  if (!arg_is_unit(a, 0)) return rerr("10.1", "unknown unit");
  return check_move(a);
}

// kAttackFrom, kAttackWith, kMobileAssault
Status BdState::verb_check_attack(const Action& a) const {
  if (a.nargs < 3) return rerr("11.1", "an attack needs a target and attackers");
  std::vector<int> atts;
  if (a.args[0] < 0 || a.args[0] >= kNumHexes) return rerr("11.2", "target is not a hex");
  if (phase_side() == kGerman && turn_ == 3 && paulus_ == 1 && (is_assault_phase() || is_move_phase()))
    return rerr("5.10", "Paulus Pause taken: no German attacks of any kind on Game Turn 3");
  if (a.verb == kAttackFrom) {
    if (!is_assault_phase()) return rerr("5.2", std::string("no prepared assaults in ") + phase_name(phase_));
    // One notation per attack: attacking hexes listed in direction order from the target.
    int last = -1;
    for (int i = 2; i < a.nargs; ++i) {
      const int d = a.args[i] >= 0 && a.args[i] < kNumHexes ? direction(a.args[0], a.args[i]) : -1;
      if (d < 0) return rerr("11.2", "attacking hexes must be adjacent to the target");
      if (d <= last)
        return rerr("11.1",
                    "list the attacking hexes once each, in the order E, NE, NW, W, SW, SE from the target");
      last = d;
    }
    if (auto s = collect_attack_from(a, atts); !s) return s;
  } else {
    for (int i = 2; i < a.nargs; ++i) {
      if (!arg_is_unit(a, i)) return rerr("11.1", "unknown unit");
      if (std::find(atts.begin(), atts.end(), a.args[i]) != atts.end())
        return rerr("11.1", label(a.args[i]) + " is named twice");
      atts.push_back(a.args[i]);
    }
    for (int u : atts) {
      // 11.1 first: a refusal about an enemy unit's parent would name a hidden unit (11.7).
      if (def(u).side != phase_side()) return rerr("11.1", label(u) + " is not the phasing player's unit");
      if (Status st = attacks_with_parent(u, atts); !st) return st;
    }
    // 11.6: "It's not necessary for all the units you have stacked in a given hex to
    // participate in the same prepared assault": any of the units able to attack the target
    // may, from one hex or several; units with no attack factor never attack on their own.
    if (a.verb == kAttackWith &&
        std::all_of(atts.begin(), atts.end(), [this](int u) { return def(u).attack == 0; }))
      return rerr("11.12", "units with no attack factor never attack alone");
    if (a.verb == kMobileAssault && atts.size() > 1) {
      // Either one unit alone or the whole group that started the phase together (10.27);
      // a TB / CM named with its parent joins it anyway (8.31, 8.32).
      std::vector<int> group, named;
      for (int u : atts)
        if (!is_attachable(u)) named.push_back(u);
      if (!named.empty() && unit(named[0]).where == kOnMap) ma_group(named[0], a.args[0], group);
      if (named.size() > 1 && group != named)
        return rerr("10.27",
                    "a mobile assault is made by one unit or by its whole group that started the phase "
                    "stacked together");
    }
  }
  return check_attack(a.args[0], atts, a.verb == kMobileAssault, (a.args[1] & 1) != 0, (a.args[1] & 2) != 0);
}

Status BdState::verb_check_order(const Action& a) const {
  if (a.nargs != 1) return rerr("5.4", "order takes one argument");
  const int side = phase_ == kGermanOrder ? kGerman : phase_ == kSovietOrder ? kSoviet : -1;
  if (side < 0) return rerr("5.4", "the phase order is declared at the start of the player turn");
  if (side == kGerman && turn_ == 3 && paulus_ == 0 && sparam("no_1941_opening") == 0)
    return rerr("5.10", "announce the Paulus Pause decision first");
  if (side == kGerman && turn_ == 9 && zone1942_ == kZoneNone && sparam("zone_1942") > 0)
    return rerr("5.6", "declare the 1942 logistics zone first");
  return check_order(side, a.args[0]);
}

Status BdState::verb_check_paulus(const Action& a) const {
  if (phase_ != kGermanOrder || turn_ != 3 || paulus_ != 0)
    return rerr("5.10", "the Paulus Pause is announced at the start of GT3");
  if (a.nargs != 1 || (a.args[0] != 1 && a.args[0] != 2)) return rerr("5.10", "paulus take | decline");
  return Status::ok();
}

Status BdState::verb_check_zone1942(const Action& a) const {
  if (phase_ != kGermanOrder || turn_ != 9 || zone1942_ != kZoneNone)
    return rerr("5.6", "the 1942 zone is declared at the start of the GT9 German player turn");
  if (a.nargs != 1 || (a.args[0] != kZoneNorth && a.args[0] != kZoneSouth))
    return rerr("5.6", "zone north | south");
  return Status::ok();
}

Status BdState::verb_check_enter(const Action& a) const {
  if (!arg_is_unit(a, 0) || a.nargs != 2) return rerr("8.1", "enter <unit> <hex>");
  const int u = a.args[0];
  const int side = phase_ == kAdminGerman ? kGerman : phase_ == kAdminSoviet ? kSoviet : -1;
  if (side < 0) return rerr("5.2", "reinforcements enter in the Mutual Administrative Phase");
  if (def(u).side != side) return rerr("5.2", def(u).label + " belongs to the other side's segment");
  if (unit(u).where != kTrrt || unit(u).turn > turn_)
    return rerr("8.1", def(u).label + " is not a reinforcement due now");
  if (is_attachable(u))
    return rerr(attach_rule(u), def(u).label + " arrives atop a " +
                                    (def(u).type == kCmGroup ? "Soviet army" : "German corps") +
                                    " in overland supply: attach " + def(u).label + " <unit>");
  if (converts_on_arrival(u)) {
    const int t = guards_tank_namesake(u);
    return t >= 0 ? rerr("8.19", def(u).label + " arrives by converting " + def(t).label + " in place")
                  : rerr("8.20", def(u).label + " arrives by converting a rifle army: convert " +
                                     def(u).label + " <rifle army>");
  }
  return check_entry(u, a.args[1]);
}

Status BdState::verb_check_replace(const Action& a) const {
  if (!arg_is_unit(a, 0) || a.nargs != 2) return rerr("8.12", "replace <unit> <hex>|rvgk");
  const int u = a.args[0];
  const UnitDef& d = def(u);
  const bool combout = phase_ == kGermanOrder && combout_left_ > 0;  // 8.16
  const int side = phase_ == kAdminGerman || combout ? kGerman : phase_ == kAdminSoviet ? kSoviet : -1;
  if (side < 0 || d.side != side)
    return rerr("8.12", "replacements are taken in the owner's administrative segment");
  if (combout) {
    if (unit(u).where != kDead) return rerr("8.12", d.label + " is not in the dead pile");
    if (d.dotted || d.cls != kNonMech || d.axis_satellite() || d.type == kFortressCommand)
      return rerr("8.16", "comb-out steps rebuild replaceable non-mech units only");
    if (a.args[1] == -1) return rerr("8.8", "only Soviet replacements may go to the RVGK");
    return check_entry(u, a.args[1]);
  }
  if (unit(u).where != kDead) return rerr("8.12", d.label + " is not in the dead pile");
  if (d.dotted) return rerr("8.12", d.label + " is dotted: never replaceable");
  if (d.axis_satellite() || d.type == kTigerBattalion || d.type == kCmGroup || d.type == kFortressCommand ||
      d.type == kCavalryGroup || d.cls == kStatic)
    return rerr("8.12", d.label + " does not return with replacement steps");
  const int sm = repl_left_mech_[static_cast<size_t>(side)], sn = repl_left_non_[static_cast<size_t>(side)];
  if (d.cls == kMech && sm <= 0) return rerr("8.12", "no mech replacement step left");
  if (d.cls != kMech && sn <= 0 && !(side == kSoviet && sm > 0))
    return rerr("8.12", "no non-mech replacement step left");
  if (a.args[1] == -1) {
    if (side != kSoviet) return rerr("8.8", "only Soviet replacements may go to the RVGK");
    return Status::ok();
  }
  return check_entry(u, a.args[1]);
}

Status BdState::verb_check_rvgk_in(const Action& a) const {
  if (phase_ == kSetupPhase && arg_is_unit(a, 0) && unit(a.args[0]).where == kToSetUp) {  // 15.3
    const int u = a.args[0];
    if (sparam("soviet_rvgk_at_start") <= 0 || def(u).side != kSoviet)
      return rerr("8.9", "no unit starts in the RVGK in this scenario");
    if (rvgk_setup_ >= sparam("soviet_rvgk_at_start"))
      return rerr("15.3", "at most " + std::to_string(sparam("soviet_rvgk_at_start")) +
                              " Soviet units start in the RVGK");
    if (def(u).side != phase_side()) return rerr("3.1", "the other side sets up now");
    for (const auto& [x, z] : setup_zones())
      if (unit(x).where == kToSetUp && def(x).side == def(u).side) {
        if (x != u) return rerr("3.1", "set up units in counter-list order: " + def(x).label + " is next");
        break;
      }
    if (def(u).type == kCavalryGroup || def(u).cls == kStatic || def(u).type == kCoastalArmy)
      return rerr("8.30", def(u).label + " never enters the RVGK");
    return check_border_rule(u, -1);
  }
  if (phase_ != kSovietRvgk) return rerr("8.9", "units go into the RVGK in the Soviet RVGK Phase");
  if (!arg_is_unit(a, 0)) return rerr("8.9", "unknown unit");
  const int u = a.args[0];
  if (rvgk_moves_ >= 5) return rerr("8.9", "5 units per RVGK Phase");
  if (def(u).side == kSoviet && unit(u).where == kCaucasus) {
    // 4.13: the Soviet units in the box may go into the RVGK once the expedition is gone.
    if (german_in_caucasus())
      return rerr("4.13", "the Soviet units stay in the Caucasus box while the expedition is there");
    return Status::ok();
  }
  if (def(u).side != kSoviet || unit(u).where != kOnMap)
    return rerr("8.9", def(u).label + " is not a Soviet unit on the map");
  if (unit(u).flags & kFlagDone) return rerr("8.9", "no unit goes in and out in the same phase");
  if (def(u).type == kCavalryGroup || def(u).cls == kStatic || def(u).type == kCoastalArmy)
    return rerr("8.30", def(u).label + " never enters the RVGK");
  if (unit_supply(u) != kSupOverland)
    return rerr("8.10", def(u).label + " needs an overland supply line to enter the RVGK");
  return Status::ok();
}

Status BdState::verb_check_rvgk_out(const Action& a) const {
  if (phase_ != kSovietRvgk) return rerr("8.9", "units leave the RVGK in the Soviet RVGK Phase");
  if (!arg_is_unit(a, 0) || a.nargs != 2) return rerr("8.10", "rvgk-out <unit> <hex>");
  const int u = a.args[0], h = a.args[1];
  if (rvgk_moves_ >= 5) return rerr("8.9", "5 units per RVGK Phase");
  if (unit(u).where != kRvgk) return rerr("8.10", def(u).label + " is not in the RVGK");
  if (is_attachable(u))
    return rerr("8.32",
                def(u).label + " comes out of the RVGK atop an army: attach " + def(u).label + " <army>");
  if (unit(u).flags & kFlagDone) return rerr("8.9", "no unit goes in and out in the same phase");
  if (h < 0 || h >= kNumHexes || !hx(h).on_map) return rerr("8.10", "not a map hex");
  if (hex_.control[static_cast<size_t>(h)] != kSoviet || enemy_in(h, kSoviet))
    return rerr("8.10", hex_id(h) + " is not Soviet-controlled");
  const auto& edge = data_->places.rvgk_edge;
  const bool is_edge = std::find(edge.begin(), edge.end(), h) != edge.end();
  if (!is_edge && !(hx(h).city && overland(h, kSoviet)))
    return rerr("8.10", "RVGK units come out in a supplied Soviet city or an east-edge hex 1000-2600");
  std::vector<int> add{u};
  return stacking_ok(h, kSoviet, add);
}

Status BdState::verb_check_off_supply(const Action& a) const {
  if (phase_ != kSovietOSupply)
    return rerr("7.12", "offensive supply markers are deployed first in the Soviet player turn");
  if (a.nargs != 2 || a.args[0] < 0 || a.args[0] > 2) return rerr("7.12", "osupply <A|B|C> <hex>");
  if (!markers_.osupply_have[static_cast<size_t>(a.args[0])])
    return rerr("7.10", "that marker has not arrived");
  if (markers_.osupply[static_cast<size_t>(a.args[0])] >= 0)
    return rerr("7.12", "that marker is already placed");
  for (int m = 0; m < a.args[0]; ++m)
    if (markers_.osupply_have[static_cast<size_t>(m)] && markers_.osupply[static_cast<size_t>(m)] < 0)
      return rerr("7.12",
                  std::string("deploy marker ") + "ABC"[m] + " first (markers are placed in order A, B, C)");
  if (a.args[1] < 0 || a.args[1] >= kNumHexes || !hx(a.args[1]).on_map) return rerr("7.12", "not a map hex");
  for (int m = 0; m < 3; ++m)
    if (markers_.osupply[static_cast<size_t>(m)] == a.args[1]) return rerr("7.12", "one marker per hex");
  if (german_moscow_at_start_)
    return rerr("7.21", "no offensive supply while the turn began with Moscow German");
  return Status::ok();
}

Status BdState::verb_check_setup(const Action& a) const {
  if (phase_ != kSetupPhase) return rerr("3.1", "set-up is over");
  if (!arg_is_unit(a, 0) || a.nargs != 2) return rerr("3.3", "setup <unit> <hex>");
  const int u = a.args[0], h = a.args[1];
  if (unit(u).where == kOnMap && lith_relocate_) {  // 3.7 the Soviet relocation step
    if (setup_left(kGerman) + setup_left(kSoviet) > 0)
      return rerr("3.7", "relocations into Poland come after every unit is set up");
    if (!lithuania_relocation(u))
      return rerr("3.7", def(u).label + " may not relocate (only Soviet units, not the 9th Army or the ICA)");
    const auto& z = data_->places.zones.at("lithuania_soviet");
    if (std::find(z.begin(), z.end(), h) == z.end() || h == unit(u).hex)
      return rerr("3.7", "relocations go into 2116, 2216, 2217, 2315 or 2316");
    std::vector<int> add{u};
    return stacking_ok(h, kSoviet, add);
  }
  if (unit(u).where != kToSetUp) return rerr("3.3", def(u).label + " is not waiting to be set up");
  if (def(u).side != phase_side()) return rerr("3.1", "the other side sets up now");
  for (const auto& [x, z] : setup_zones())
    if (unit(x).where == kToSetUp && def(x).side == def(u).side) {
      if (x != u) return rerr("3.1", "set up units in counter-list order: " + def(x).label + " is next");
      break;
    }
  std::string zone;
  for (const auto& [x, z] : setup_zones())
    if (x == u) zone = z;
  std::vector<int> hexes;
  zone_hexes(zone, hexes);
  if (std::find(hexes.begin(), hexes.end(), h) == hexes.end())
    return rerr("3.3", def(u).label + " sets up in zone " + zone + ", which does not include " + hex_id(h));
  if (enemy_in(h, def(u).side)) return rerr("3.1", hex_id(h) + " holds enemy units");
  if (is_attachable(u) && default_parent(u, h) < 0)
    return rerr(attach_rule(u), def(u).label + " sets up atop a " +
                                    (def(u).type == kCmGroup ? "Soviet army" : "German corps") +
                                    " that has none: " + hex_id(h) + " holds no such unit");
  std::vector<int> add{u};
  if (auto st = stacking_ok(h, def(u).side, add); !st) return st;
  return check_border_rule(u, h);
}

Status BdState::verb_check_withdraw(const Action& a) const {
  if (phase_ == kAdminGerman) {  // 8.17
    if (ss_due_ != 1) return rerr("8.17", "no German withdrawal due now");
    if (a.args[0] != ss_unit()) return rerr("8.17", "the withdrawal due is " + label(ss_unit()));
    if (!ss_can_withdraw())
      return rerr("8.17",
                  label(ss_unit()) +
                      " is neither in overland supply nor in the dead pile: its withdrawal is delayed");
    return Status::ok();
  }
  if (phase_ != kAdminSoviet || !withdraw_due_) return rerr("8.21", "no withdrawal due now");
  if (!arg_is_unit(a, 0)) return rerr("8.21", "unknown unit");
  const int u = a.args[0];
  if (withdraw_due_ == 2 && def(u).side == kSoviet && def(u).type == kRifleArmy && unit(u).where == kDead) {
    // Ruling BD-W1: the permanent withdrawal takes a dead army only when none on the map qualifies.
    if (perm_withdrawal_candidates() != -1)
      return rerr("8.21", "a rifle army on the map in overland supply must be withdrawn, not " + label(u));
    return Status::ok();
  }
  if (def(u).side != kSoviet || def(u).type != kRifleArmy || unit(u).where != kOnMap)
    return rerr("8.21", "the withdrawal must be an ordinary rifle army on the map");
  if (unit_supply(u) != kSupOverland)
    return rerr("8.21", "the withdrawn rifle army must be in overland supply");
  return Status::ok();
}

// 8.21 / ruling BD-W1: what the GT20 permanent withdrawal may take: 1 = a rifle army on the
// map in overland supply, -1 = none there but one in the dead pile, 0 = none at all.
int BdState::perm_withdrawal_candidates() const {
  bool dead = false;
  for (int u = 0; u < num_units(); ++u) {
    if (def(u).side != kSoviet || def(u).type != kRifleArmy) continue;
    if (unit(u).where == kOnMap && unit_supply(u) == kSupOverland) return 1;
    if (unit(u).where == kDead) dead = true;
  }
  return dead ? -1 : 0;
}

Status BdState::verb_check_decline_withdraw(const Action& /*a*/) const {
  if (phase_ == kAdminGerman) {
    if (ss_due_ != 1) return rerr("8.17", "no German withdrawal due now");
    return Status::ok();
  }
  if (phase_ != kAdminSoviet || !withdraw_due_) return rerr("8.21", "no withdrawal due now");
  if (withdraw_due_ == 2)
    return rerr("8.21",
                "the permanent withdrawal \"must\" be made: it may not be declined (4.9 prices only "
                "the GT6-8 withdrawals)");
  return Status::ok();
}

// kCaucasusLaunch, kCaucasusSend, kCaucasusRefuse, kCaucasusRecall, kCaucasusLeave
Status BdState::verb_check_caucasus(const Action& a) const { return check_caucasus(a); }

// kSummerOffensive, kMansteinsGambit: 4.16: the MG only as the 1943 summer offensive
Status BdState::verb_check_summer_offensive(const Action& /*a*/) const {
  const auto& turns = data_->victory.summer_turns;
  if (!vp_schedule() || phase_ != kAdminGerman || std::find(turns.begin(), turns.end(), turn_) == turns.end())
    return rerr("4.4", "the 1943 summer offensive is declared at the start of Game Turn 17, 18 or 19");
  if (summer_turn_ != 0 || summer_done_ != 0) return rerr("4.4", "only one 1943 summer offensive");
  return Status::ok();
}

Status BdState::verb_check_watch(const Action& a) const {
  if (!vp_schedule() || phase_ != kAdminGerman || turn_ != data_->victory.watch_choose_turn)
    return rerr("4.18", "Rhine or Oder is chosen at the start of Game Turn 28");
  if (watch_ != 0) return rerr("4.18", "Rhine or Oder is already chosen");
  if (a.args[0] != 1 && a.args[0] != 2) return rerr("4.18", "watch rhine | oder");
  return Status::ok();
}

Status BdState::verb_check_convert(const Action& a) const {
  if (!arg_is_unit(a, 0) || !arg_is_unit(a, 1))
    return rerr("8.20", "convert <guards|shock army> <rifle army>");
  return check_convert(a.args[0], a.args[1]);
}

Status BdState::verb_check_comb_out(const Action& /*a*/) const {
  if (phase_ != kGermanOrder || pending_ != kPendNone)
    return rerr("8.16", "a comb-out is declared at the start of a German player turn");
  const TurnInfo& t = ti();
  if (!t.single || (t.year != 1943 && t.year != 1944))
    return rerr("8.16", "a comb-out is made in a 1943 or a 1944 single-month Game Turn");
  if (combout_done_ & (t.year == 1943 ? 1u : 2u)) return rerr("8.16", "one comb-out in 1943 and one in 1944");
  return Status::ok();
}

// 8.11 (ruling BD-14): from GT3, once during every German Movement Phase: at its start, and
// again just before each German mobile assault is declared while it has not been made.
bool BdState::emergency_window() const {
  if (phase_side() != kGerman || !is_move_phase() || turn_ < 3 || emergency_used_) return false;
  for (int u = 0; u < num_units(); ++u)
    if (unit(u).where == kRvgk && def(u).side == kSoviet) return true;
  return false;
}

Status BdState::check_emergency_rvgk(const Action& a) const {
  if (!arg_is_unit(a, 0)) return rerr("8.11", "emergency-rvgk UNIT HEX");
  const int u = a.args[0], h = a.args[1];
  if (unit(u).where != kRvgk || def(u).side != kSoviet)
    return rerr("8.11", def(u).label + " is not in the RVGK");
  if (h < 0 || h >= kNumHexes || !hx(h).city || hex_.control[static_cast<size_t>(h)] != kSoviet ||
      !overland(h, kSoviet))
    return rerr("8.11", "emergency deployment goes to a Soviet-controlled city with overland supply");
  std::vector<int> add{u};
  return stacking_ok(h, kSoviet, add);
}

// 9.7 (ruling BD-14): the defender may still declare the target a Hero or Fortress City, or
// (8.11) make his emergency RVGK deployment before a mobile assault, until the attack is
// declared: the engine asks him when the attacker submits the attack.
bool BdState::interrupt_window(const Action& attack) const {
  const int target = attack.args[0];
  if (phase_side() == kGerman)
    return static_cast<bool>(hero_city_rule(target)) || (attack.verb == kMobileAssault && emergency_window());
  return static_cast<bool>(fortress_city_rule(target));
}

Status BdState::verb_check_east_wall(const Action& a) const { return check_east_wall(a.args[0]); }

Status BdState::verb_check_hero_city(const Action& a) const {
  if (a.nargs != 1 || a.args[0] < 0 || a.args[0] >= kNumHexes) return rerr("9.1", "hero-city <hex>");
  // 9.1 "at any time(s) during any game turns": in his own segments, and in the German's
  // just before a German attack on the city is declared (kPendInterrupt, ruling BD-14).
  if (pending_ != kPendInterrupt && (current_player() != kSoviet || pending_ != kPendNone ||
                                     !(phase_ == kAdminSoviet || phase_ == kSovietB || phase_ == kSovietC)))
    return rerr("9.7", "Hero Cities are declared by the Soviet, not during an attack");
  return hero_city_rule(a.args[0]);
}

Status BdState::hero_city_rule(int h) const {
  if (sparam("no_hero_fortress_cities") > 0)
    return rerr("15.8", "neither the Hero City nor the Fortress City rules are in effect in this scenario");
  if (markers_.hero_left <= 0) return rerr("9.1", "no Hero City marker available");
  if (!hx(h).city || hx(h).country != kUssr || hex_.control[static_cast<size_t>(h)] != kSoviet)
    return rerr("9.1", "a Hero City must be a Soviet-controlled city in the USSR");
  if (hero_city(h)) return rerr("9.1", "already a Hero City");
  return Status::ok();
}

Status BdState::verb_check_fortress_city(const Action& a) const {
  const int h = a.args[0];
  if (h < 0 || h >= kNumHexes) return rerr("9.2", "not a hex");
  if (pending_ != kPendInterrupt &&  // 9.2 "at any time(s)": also before a Soviet attack on it
      (current_player() != kGerman || pending_ != kPendNone ||
       !(phase_ == kAdminGerman || phase_ == kGermanB || phase_ == kGermanC)))
    return rerr("9.7", "Fortress Cities are declared by the German in his segments, not during an attack");
  return fortress_city_rule(h);
}

Status BdState::fortress_city_rule(int h) const {
  if (sparam("no_hero_fortress_cities") > 0)
    return rerr("15.8", "neither the Hero City nor the Fortress City rules are in effect in this scenario");
  const Country c = hx(h).country;
  const bool home = c == kGreaterGermany || c == kGeneralGovernment || c == kHungary;
  if (markers_.fortress_left <= 0 && !(markers_.fortress_restricted_left > 0 && home))
    return rerr("9.2", markers_.fortress_restricted_left > 0
                           ? "the GT28 Fortress City markers go only in Greater Germany, the General "
                             "Government or Hungary"
                           : "no Fortress City marker available");
  if (!hx(h).city || hex_.control[static_cast<size_t>(h)] != kGerman)
    return rerr("9.2", "a Fortress City must be a German-controlled city");
  if (h == data_->places.usir) return rerr("9.2", "never in the USIR");
  if (fortress_city(h)) return rerr("9.2", "already a Fortress City");
  return Status::ok();
}

// 10.16 Black Sea, 10.17 Baltic, 10.34 the ICA
Status BdState::verb_check_sea_move(const Action& a) const {
  if (!arg_is_unit(a, 0)) return rerr("10.16", "unknown unit");
  const int u = a.args[0], h = a.args[1];
  if (def(u).type == kCoastalArmy) return check_ica_switch(u, h);
  if (!is_move_phase() || phase_side() != kGerman)
    return rerr("10.16", "sea movement happens in a German Movement Phase");
  const UnitDef& d = def(u);
  const UnitSt& s = unit(u);
  if (is_attachable(u)) return rerr(attach_rule(u), d.label + " never moves alone");
  if (d.side != kGerman || d.type != kInfantry || s.where != kOnMap)
    return rerr("10.16", d.label + " is not a German infantry corps on the map");
  const int sea = sea_of(s.hex);
  if (sea < 0 || s.start_hex != s.hex)
    return rerr("10.16", d.label + " did not start the phase in a port of sea movement");
  if (s.mp >= 0 || (s.flags & (kFlagDone | kFlagNoMove | kFlagMaFailed)))
    return rerr("10.16", d.label + " has moved this phase: no sea movement");
  if (s.flags & kFlagTurnAttacked)
    return rerr("10.16", d.label + " attacked this player turn: no sea movement");
  if (s.flags & kFlagStandFast)
    return rerr("12.7",
                d.label + " is in Stalingrad under Hitler's stand-fast order: it may not move this turn");
  if (sea_used_ & (1u << sea)) return rerr("10.16", "one infantry corps per movement phase on this sea");
  if (h < 0 || h >= kNumHexes || h == s.hex || sea_of(h) != sea)
    return rerr("10.16", "the destination must be another port of the same sea");
  if (hex_.control[static_cast<size_t>(s.hex)] != kGerman || hex_.control[static_cast<size_t>(h)] != kGerman)
    return rerr("10.16", "both ports must be German-controlled");
  if (enemy_in(h, kGerman)) return rerr("10.16", hex_id(h) + " holds enemy units");
  std::vector<int> add{u};
  return stacking_ok(h, kGerman, add);
}

// 8.31, 8.32
Status BdState::verb_check_attach(const Action& a) const { return check_attach(a.args[0], a.args[1]); }

Status BdState::verb_check_strategic(const Action& a) const {
  if (phase_ != kGermanStrategic)
    return rerr("8.6", "strategic movement happens in the German Strategic Movement Phase (GT9-29)");
  if (!arg_is_unit(a, 0)) return rerr("8.6", "unknown unit");
  const int u = a.args[0], h = a.args[1];
  const UnitDef& d = def(u);
  if (d.side != kGerman || unit(u).where != kOnMap)
    return rerr("8.6", d.label + " is not a German-side unit on the map");
  if (d.type == kTigerBattalion)
    return rerr("8.31",
                d.label + " moves strategically only onto another corps: attach " + d.label + " <corps>");
  if (d.cls == kStatic || d.type == kFortressCommand)
    return rerr("8.6", d.label + " does not move strategically");
  if (unit(u).flags & kFlagDone) return rerr("8.6", d.label + " already moved strategically");
  if (unit(u).flags & kFlagStandFast)
    return rerr("12.7",
                d.label + " is in Stalingrad under Hitler's stand-fast order: it may not move this turn");
  const int from = unit(u).hex;
  if (!hx(from).city || hex_.control[static_cast<size_t>(from)] != kGerman || !overland(from, kGerman))
    return rerr("8.6", "strategic movement starts in a German-controlled city with overland supply");
  if (strat_used_ + strategic_cost(u) > 8)
    return rerr("8.7", "8 strategic movement units per player turn (mech 2, satellite army 4)");
  if (h < 0 || h >= kNumHexes || h == from) return rerr("8.6", "not a destination");
  if (strategic_memo_.unit != u || strategic_memo_.version != version_) {
    strategic_reach(u, strategic_memo_.ok);
    strategic_memo_.unit = u;
    strategic_memo_.version = version_;
  }
  if (!strategic_memo_.ok[static_cast<size_t>(h)])
    return rerr("8.6",
                "no strategic route to " + hex_id(h) + " (not adjacent to the enemy except at its ends)");
  std::vector<int> add{u};
  return stacking_ok(h, kGerman, add);
}

Status BdState::verb_check_aerial_supply(const Action& a) const {
  const int h = a.args[0];
  if (current_player() != kGerman || (pending_ != kPendNone && pending_ != kPendLwDefend))
    return rerr("7.7",
                "the German commits aerial supply in his own decisions or when a Soviet attack is declared");
  if (!markers_.aerial_available || markers_.aerial >= 0)
    return rerr("7.7", "the aerial supply marker is not available");
  if (h < 0 || h >= kNumHexes || occupant_side(h) != kGerman)
    return rerr("7.7", "aerial supply goes to a hex with German-side units");
  return Status::ok();
}

// 7.4 switched on and off at any time the German acts
Status BdState::verb_check_crimea_supply(const Action& a) const {
  if (current_player() != kGerman || (pending_ != kPendNone && pending_ != kPendLwDefend) ||
      phase_ == kSetupPhase)
    return rerr("7.4", "the German switches Crimea supply in his own decisions");
  if (a.args[0] != 0 && a.args[0] != 1) return rerr("", "malformed choice");
  // (switching on again without names withdraws a declaration: the nearest five, BD-22)
  if ((a.args[0] == 1) == crimea_on_ && a.nargs == 1 && !(crimea_on_ && !crimea_declared_.empty()))
    return rerr("7.4", std::string("Crimea supply is already ") + (crimea_on_ ? "on" : "off"));
  for (int i = 1; i < a.nargs; ++i) {  // 7.4 "declare ... which are drawing supply" (ruling BD-22)
    const int u = a.args[i];
    if (!arg_is_unit(a, i)) return rerr("7.4", "unknown unit");
    for (int j = 1; j < i; ++j)
      if (a.args[j] == u) return rerr("7.4", def(u).label + " named twice");
    if (def(u).side != kGerman || unit(u).where != kOnMap)
      return rerr("7.4", def(u).label + " is not a German-side unit on the map");
    if (hx(unit(u).hex).area != kAreaCS) return rerr("7.4", def(u).label + " is not in the Crimea (CS) area");
  }
  return Status::ok();
}

Status BdState::verb_check_fortified_area(const Action& a) const {
  const int h = a.args[0];
  if (phase_ != kAdminSoviet || !markers_.fa_available)
    return rerr("8.18", "the Fortified Area is placed when it arrives (GT16 Soviet segment)");
  if (h < 0 || h >= kNumHexes || !hx(h).on_map) return rerr("8.18", "not a map hex");
  if (hex_.control[static_cast<size_t>(h)] != kSoviet || !overland(h, kSoviet))
    return rerr("8.18", "the Fortified Area goes in a Soviet-controlled hex with overland supply");
  for (int d = 0; d < 6; ++d) {
    const int n = neighbour(h, d);
    if (n < 0 || hex_.control[static_cast<size_t>(n)] != kSoviet)
      return rerr("8.18", "all six neighbours must be Soviet-controlled");
  }
  return Status::ok();
}

// 11.32: German overland-supplied mech in single-month turns; Soviet mech from GT13
// (from the first turn of The Road Back, 12.5).
// 8.7: a mech unit counts 2, an Axis satellite army 4, any other unit 1 (of 8).
int BdState::strategic_cost(int u) const {
  const UnitDef& d = def(u);
  if (d.satellite_army()) return 4;
  return d.cls == kMech ? 2 : 1;
}

// 8.6: unlimited distance through German-controlled hexes (ruling BD-13), adjacent to
// enemy units only in its first and last hex, no prohibited hexes or hexsides, never
// across the Kerch (or the Sivash).
void BdState::strategic_reach(int u, std::vector<uint8_t>& ok) const {
  ok.assign(kNumHexes, 0);
  const int start = unit(u).hex;
  const UnitDef& d = def(u);
  const Places& pl = data_->places;
  auto near_enemy = [&](int h) {
    for (int dd = 0; dd < 6; ++dd) {
      const int n = neighbour(h, dd);
      if (n >= 0 && enemy_in(n, d.side)) return true;
    }
    return false;
  };
  std::vector<uint8_t> seen(kNumHexes, 0);
  std::vector<int> queue{start};
  seen[static_cast<size_t>(start)] = 1;
  for (size_t qi = 0; qi < queue.size(); ++qi) {
    const int a = queue[qi];
    if (a != start && near_enemy(a)) continue;  // may end here, not pass through
    for (int dd = 0; dd < 6; ++dd) {
      const int b = neighbour(a, dd);
      if (b < 0 || seen[static_cast<size_t>(b)]) continue;
      const HexInfo& x = hx(b);
      if (!x.on_map || data_->tec.prohibited[x.terrain] || enemy_in(b, d.side)) continue;
      if (hex_.control[static_cast<size_t>(b)] != d.side) continue;
      if ((hx(a).sea_side >> dd) & 1u || (hx(a).lake_side >> dd) & 1u) continue;
      if (pl.strait(a, b)) continue;
      if (kept_south(d) && x.zone == kZoneNorth) continue;  // 10.22
      seen[static_cast<size_t>(b)] = 1;
      ok[static_cast<size_t>(b)] = 1;
      queue.push_back(b);
    }
  }
}

bool BdState::second_advance_ok(int u) const {
  const UnitDef& d = def(u);
  if (d.cls != kMech) return false;
  if (d.side == kGerman) return ti().single;
  const int from = sparam("soviet_two_hex_advance_from_turn");  // 12.5
  return turn_ >= 13 || (from > 0 && turn_ >= from);
}

Status BdState::check_advance2(int u, int hex) const {
  int from = -1;  // the hex it advanced from
  for (int i = 0; i < battle_.nadv2; ++i)
    if (battle_.adv2[static_cast<size_t>(i)] == u) from = battle_.adv2_from[static_cast<size_t>(i)];
  if (from < 0 || unit(u).where != kOnMap || unit(u).hex != battle_.target)
    return rerr("11.32", def(u).label + " may not advance a second hex");
  if (unit_supply(u) != kSupOverland) return rerr("11.32", "a second-hex advance needs overland supply");
  const int d = direction(battle_.target, hex);
  if (d < 0 || !hx(hex).on_map || data_->tec.prohibited[hx(hex).terrain])
    return rerr("11.32", "not an adjacent land hex");
  // "any newly adjacent hex": not the hex it advanced from, nor one that was beside it.
  if (hex == from || direction(from, hex) >= 0)
    return rerr("11.32", "the second hex must be newly adjacent: " + hex_id(hex) + " was already next to " +
                             def(u).label + " in " + hex_id(from));
  if (enemy_in(hex, def(u).side)) return rerr("11.32", "the second hex must be free of enemy units");
  const HexInfo& t = hx(battle_.target);
  if ((t.sea_side >> d) & 1u || (t.lake_side >> d) & 1u)
    return rerr("11.30", "no advance across all-water hexsides");
  const Places& pl = data_->places;
  if (pl.strait(battle_.target, hex)) return rerr("11.30", "no advance across the Kerch or the Sivash");
  std::vector<int> add{u};
  return stacking_ok(hex, def(u).side, add);
}

}  // namespace bd
