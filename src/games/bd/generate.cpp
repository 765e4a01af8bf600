// Barbarossa Deluxe rules: legal-action generation.
// Section numbers are the rulebook's (seeds/000); where the text is silent or ambiguous
// the choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_internal.h"

namespace bd {

void BdState::legal_actions(std::vector<Action>& out) const {
  out.clear();
  if (phase_ == kGameOver) return;
  auto push_if = [&](const Action& a) {
    if (BdState::check(a).is_ok()) out.push_back(a);
  };
  auto mk = [](uint16_t verb, std::initializer_list<int> args) {
    Action a;
    a.verb = verb;
    for (int x : args) a.push(x);
    return a;
  };
  switch (pending_) {
    case kPendTakeRetreat:
      push_if(mk(kTakeRetreat, {0}));
      push_if(mk(kTakeRetreat, {1}));
      return;
    case kPendBbLoss: {  // 11.26
      std::vector<int> cand;
      bb_candidates(cand);
      for (int u : cand) push_if(mk(kBbLoss, {u}));
      return;
    }
    case kPendOverstack: {  // 6.2
      const int h = overstacked_hex();
      if (h < 0) return;
      std::vector<int> here;
      units_in(h, here);
      for (int u : here) push_if(mk(kOverstackRemove, {u}));
      return;
    }
    case kPendLwDefend:
      push_if(mk(kLwDefend, {0}));
      push_if(mk(kLwDefend, {1}));
      if (markers_.aerial_available && markers_.aerial < 0)
        for (int h = 0; h < kNumHexes; ++h) push_if(mk(kAerialSupply, {h}));
      return;
    case kPendEmergency:
      for (int u = 0; u < num_units(); ++u)
        if (unit(u).where == kRvgk && def(u).side == kSoviet)
          for (int h = 0; h < kNumHexes; ++h)
            if (hx(h).city) push_if(mk(kEmergencyRvgk, {u, h}));
      out.push_back(mk(kNoEmergencyRvgk, {}));
      return;
    case kPendInterrupt: {  // 9.7, ruling BD-14
      const int target = held_attack_.args[0];
      if (phase_side() == kGerman) {
        push_if(mk(kHeroCity, {target}));
        if (held_attack_.verb == kMobileAssault && emergency_window())
          for (int u = 0; u < num_units(); ++u)
            if (unit(u).where == kRvgk && def(u).side == kSoviet)
              for (int h = 0; h < kNumHexes; ++h)
                if (hx(h).city) push_if(mk(kEmergencyRvgk, {u, h}));
      } else {
        push_if(mk(kFortressCity, {target}));
      }
      out.push_back(mk(kLetAttack, {}));
      return;
    }
    case kPendCaucasus:  // 4.12
      for (int u = 0; u < num_units(); ++u)
        if (caucasus_responder(u)) out.push_back(mk(kCaucasusSend, {u}));
      out.push_back(mk(kCaucasusRefuse, {}));
      return;
    case kPendSupport:  // 8.36-8.41
      for (int k = kSupArtillery; k < kNumSupportKinds; ++k) {
        if (support_left(k) <= 0) continue;
        if (k == kSupArtillery || k == kSupAirArmy) {
          for (int i = 0; i < battle_.natt; ++i)
            push_if(mk(kSupport, {k, battle_.att[static_cast<size_t>(i)]}));
        } else {
          push_if(mk(kSupport, {k}));
        }
      }
      out.push_back(mk(kSupportDone, {}));
      return;
    case kPendBbChoice:
      out.push_back(mk(kBbChoice, {1}));
      out.push_back(mk(kBbChoice, {0}));
      return;
    case kPendRetreat: {
      std::vector<int> opts;
      retreat_options(battle_.target, other(battle_.attacker), opts);
      for (int h : opts) out.push_back(mk(kRetreat, {h}));
      return;
    }
    case kPendAdvance:
      for (int i = 0; i < battle_.nadv; ++i)
        if (battle_.adv[static_cast<size_t>(i)] >= 0)
          push_if(mk(kAdvance, {battle_.adv[static_cast<size_t>(i)]}));
      for (int i = 0; i < battle_.nadv2; ++i) {
        const int u = battle_.adv2[static_cast<size_t>(i)];
        if (u < 0) continue;
        for (int d = 0; d < 6; ++d) {
          const int n = neighbour(battle_.target, d);
          if (n >= 0) push_if(mk(kAdvance2, {u, n}));
        }
      }
      out.push_back(mk(kAdvanceDone, {}));
      return;
    default:
      break;
  }
  std::vector<int> hexes;
  switch (phase_) {
    case kSetupPhase:
      for (const auto& [u, z] : setup_zones()) {
        if (unit(u).where != kToSetUp || def(u).side != phase_side()) continue;
        zone_hexes(z, hexes);
        for (int h : hexes) push_if(mk(kSetup, {u, h}));
        if (sparam("soviet_rvgk_at_start") > 0) push_if(mk(kRvgkIn, {u}));  // 15.3
        break;  // one unit at a time keeps the branching small
      }
      if (lith_relocate_ && setup_left(kGerman) + setup_left(kSoviet) == 0) {  // 3.7
        const auto it = data_->places.zones.find("lithuania_soviet");
        for (int u = 0; u < num_units(); ++u)
          if (lithuania_relocation(u) && it != data_->places.zones.end())
            for (int h : it->second) push_if(mk(kSetup, {u, h}));
        push_if(mk(kEndPhase, {}));
      }
      return;
    case kAdminGerman:
    case kAdminSoviet: {
      const int side = phase_ == kAdminGerman ? kGerman : kSoviet;
      if (side == kSoviet && withdraw_due_ == 2)  // 8.21 permanent: after any conversions (5.3)
        for (int u = 0; u < num_units(); ++u)
          if (def(u).type == kRifleArmy && (unit(u).where == kOnMap || unit(u).where == kDead))
            push_if(mk(kWithdraw, {u}));
      if (side == kSoviet && withdraw_due_ == 1) {
        for (int u = 0; u < num_units(); ++u)
          if (def(u).type == kRifleArmy && unit(u).where == kOnMap) push_if(mk(kWithdraw, {u}));
        out.push_back(mk(kDeclineWithdraw, {}));
        return;
      }
      if (side == kGerman && markers_.east_wall_left > 0)  // 8.5
        for (int h = 0; h < kNumHexes; ++h) push_if(mk(kEastWall, {h}));
      if (side == kGerman && ss_due_ == 1) {  // 8.17 / 4.10
        if (ss_can_withdraw()) {
          out.push_back(mk(kWithdraw, {ss_unit()}));
          out.push_back(mk(kDeclineWithdraw, {}));
          return;
        }
        out.push_back(mk(kDeclineWithdraw, {}));
      }
      for (int u = 0; u < num_units(); ++u) {
        if (def(u).side != side) continue;
        const UnitSt& s = unit(u);
        if (s.where == kTrrt && s.turn <= turn_ && converts_on_arrival(u)) {
          if (def(u).type == kGuardsArmy || def(u).type == kShockArmy)  // 8.20
            for (int r = 0; r < num_units(); ++r)
              if (def(r).type == kRifleArmy && unit(r).where == kOnMap) push_if(mk(kConvert, {u, r}));
        } else if (s.where == kTrrt && s.turn <= turn_ && is_attachable(u)) {  // 8.31, 8.32 atop a parent
          for (int p = 0; p < num_units(); ++p)
            if (unit(p).where == kOnMap && eligible_parent(u, p)) push_if(mk(kAttach, {u, p}));
        } else if (s.where == kTrrt && s.turn <= turn_) {
          entry_hexes(u, hexes);
          for (int h : hexes) push_if(mk(kEnter, {u, h}));
        } else if (s.where == kDead) {
          if (side == kSoviet) push_if(mk(kReplace, {u, -1}));
          entry_hexes(u, hexes);
          for (int h : hexes) push_if(mk(kReplace, {u, h}));
        }
      }
      if (side == kSoviet && markers_.fa_available)
        for (int h = 0; h < kNumHexes; ++h) push_if(mk(kFortifiedArea, {h}));
      if (side == kGerman && (markers_.fortress_left > 0 || markers_.fortress_restricted_left > 0))
        for (int h = 0; h < kNumHexes; ++h)
          if (hx(h).city) push_if(mk(kFortressCity, {h}));
      // 7.4: listed once a turn here, and not again once switched in this phase: a switch
      // back changes nothing in it and would let an agent toggle for ever (the German may
      // still type it, BD-22).
      if (side == kGerman && !crimea_switched_) push_if(mk(kCrimeaSupply, {crimea_on_ ? 0 : 1}));
      if (side == kSoviet && markers_.hero_left > 0)
        for (int h = 0; h < kNumHexes; ++h)
          if (hx(h).city) push_if(mk(kHeroCity, {h}));
      if (side == kGerman) {
        push_if(mk(kSummerOffensive, {}));  // 4.4
        push_if(mk(kMansteinsGambit, {}));  // 4.16
        push_if(mk(kWatch, {1}));           // 4.18
        push_if(mk(kWatch, {2}));
      }
      push_if(mk(kEndPhase, {}));
      return;
    }
    case kGermanOrder:
    case kSovietOrder:
      push_if(mk(kCombOut, {}));  // 8.16
      if (phase_ == kGermanOrder && combout_left_ > 0)
        for (int u = 0; u < num_units(); ++u)
          if (def(u).side == kGerman && unit(u).where == kDead && def(u).cls == kNonMech) {
            entry_hexes(u, hexes);
            for (int h : hexes) push_if(mk(kReplace, {u, h}));
          }
      push_if(mk(kPaulus, {1}));
      push_if(mk(kPaulus, {2}));
      push_if(mk(kZone1942, {kZoneNorth}));
      push_if(mk(kZone1942, {kZoneSouth}));
      for (int o = kMoveFight; o <= kFightFight; ++o) push_if(mk(kOrder, {o}));
      return;
    case kSovietOSupply:
      for (int m = 0; m < 3; ++m) {
        if (!markers_.osupply_have[static_cast<size_t>(m)] || markers_.osupply[static_cast<size_t>(m)] >= 0)
          continue;
        for (int h = 0; h < kNumHexes; ++h)
          if (hx(h).on_map) push_if(mk(kOffSupply, {m, h}));
        break;  // markers in order A, B, C
      }
      push_if(mk(kEndPhase, {}));
      return;
    case kSovietRvgk:
      for (int u = 0; u < num_units(); ++u) {
        if (def(u).side != kSoviet) continue;
        if (unit(u).where == kOnMap || unit(u).where == kCaucasus) {
          push_if(mk(kRvgkIn, {u}));
        } else if (unit(u).where == kRvgk && is_attachable(u)) {  // 8.32 out atop an army
          if (rvgk_moves_ < 5 && !(unit(u).flags & kFlagDone))
            for (int p = 0; p < num_units(); ++p)
              if (unit(p).where == kOnMap && eligible_parent(u, p)) push_if(mk(kAttach, {u, p}));
        } else if (unit(u).where == kRvgk) {
          for (int h = 0; h < kNumHexes; ++h)
            if (hx(h).city || std::find(data_->places.rvgk_edge.begin(), data_->places.rvgk_edge.end(), h) !=
                                  data_->places.rvgk_edge.end())
              push_if(mk(kRvgkOut, {u, h}));
        }
      }
      push_if(mk(kEndPhase, {}));
      return;
    case kGermanStrategic: {
      std::vector<uint8_t> ok;
      for (int u = 0; u < num_units(); ++u) {
        if (def(u).side != kGerman || unit(u).where != kOnMap || !hx(unit(u).hex).city) continue;
        if (strat_used_ + strategic_cost(u) > 8 || (unit(u).flags & kFlagDone)) continue;
        strategic_reach(u, ok);
        if (is_attachable(u)) {  // 8.31 onto another corps
          ok[static_cast<size_t>(unit(u).hex)] = 1;
          for (int p = 0; p < num_units(); ++p)
            if (unit(p).where == kOnMap && ok[static_cast<size_t>(unit(p).hex)] && eligible_parent(u, p))
              push_if(mk(kAttach, {u, p}));
          continue;
        }
        for (int h = 0; h < kNumHexes; ++h)
          if (ok[static_cast<size_t>(h)]) push_if(mk(kStrategic, {u, h}));
      }
      push_if(mk(kEndPhase, {}));
      return;
    }
    case kGermanB:
    case kGermanC:
    case kSovietB:
    case kSovietC:
      if (is_move_phase()) gen_moves(out);
      if (is_move_phase() && phase_side() == kSoviet)  // 10.34
        for (int u = 0; u < num_units(); ++u)
          if (def(u).type == kCoastalArmy && unit(u).where == kOnMap)
            for (int h : {data_->places.odessa, data_->places.sevastopol})
              if (h >= 0 && h != unit(u).hex) push_if(mk(kSeaMove, {u, h}));
      if (is_move_phase() && phase_side() == kGerman)  // 10.16, 10.17
        for (int u = 0; u < num_units(); ++u) {
          if (def(u).type != kInfantry || def(u).side != kGerman || unit(u).where != kOnMap) continue;
          const int sea = sea_of(unit(u).hex);
          if (sea < 0) continue;
          for (int h : data_->places.sea_ports[static_cast<size_t>(sea)])
            if (h != unit(u).hex) push_if(mk(kSeaMove, {u, h}));
        }
      if (is_move_phase()) gen_caucasus(out);            // 4.11-4.13
      if (is_move_phase() && phase_side() == kSoviet) {  // 8.26
        if (bulg_state_ == 0)
          for (int h : data_->places.bulgarian_exits) {
            units_in(h, hexes);
            for (int u : hexes) push_if(mk(kBulgariaExit, {u}));
          }
        if (bulg_state_ == 1)
          for (int h : data_->places.bulgarian_exits) push_if(mk(kBulgariaReturn, {h}));
      }
      {
        const size_t first = out.size();
        gen_attacks(out);
        if (phase_side() == kGerman && para_drop_unit() >= 0)  // 4.17 each attack also with the air drop
          for (size_t i = first, n = out.size(); i < n; ++i) {
            Action a = out[i];
            if (a.verb != kAttackFrom && a.verb != kAttackWith && a.verb != kMobileAssault) continue;
            a.args[1] |= 2;
            push_if(a);
          }
      }
      if (phase_side() == kGerman && (markers_.fortress_left > 0 || markers_.fortress_restricted_left > 0))
        for (int h = 0; h < kNumHexes; ++h)
          if (hx(h).city) push_if(mk(kFortressCity, {h}));
      if (phase_side() == kGerman && markers_.aerial_available && markers_.aerial < 0)
        for (int h = 0; h < kNumHexes; ++h) push_if(mk(kAerialSupply, {h}));
      if (phase_side() == kSoviet && markers_.hero_left > 0)
        for (int h = 0; h < kNumHexes; ++h)
          if (hx(h).city) push_if(mk(kHeroCity, {h}));
      push_if(mk(kEndPhase, {}));
      return;
    default:
      return;
  }
}

// 4.11-4.13 in a movement phase: the launch (every choice of the expedition's units in the
// exit hexes), the recall (every assignment of its units to the free exit hexes) and the
// Soviet units leaving the box.
void BdState::gen_caucasus(std::vector<Action>& out) const {
  if (pending_ != kPendNone) return;
  const VictoryRules& vr = data_->victory;
  auto push_if = [&](const Action& a) {
    if (BdState::check(a).is_ok()) out.push_back(a);
  };
  const int side = phase_side();
  if (side == kGerman && cauc_ == kCaucNone && cauc_open_ && caucasus_scenario()) {
    std::vector<int> inf, pz;
    for (int u = 0; u < num_units(); ++u) {
      const UnitDef& d = def(u);
      if (d.side != kGerman || d.nation != "german" || unit(u).where != kOnMap || !caucasus_exit(unit(u).hex))
        continue;
      if (std::find(vr.caucasus_infantry_types.begin(), vr.caucasus_infantry_types.end(), d.type) !=
          vr.caucasus_infantry_types.end())
        inf.push_back(u);
      else if (std::find(vr.caucasus_panzer_types.begin(), vr.caucasus_panzer_types.end(), d.type) !=
               vr.caucasus_panzer_types.end())
        pz.push_back(u);
    }
    // Combinations of k out of a list, appended to `cur`.
    std::vector<std::vector<int>> inf_sets, pz_sets;
    auto combos = [](const std::vector<int>& from, int k, std::vector<std::vector<int>>& sets) {
      std::vector<int> cur;
      auto rec = [&](auto&& self, size_t start) -> void {
        if (static_cast<int>(cur.size()) == k) {
          sets.push_back(cur);
          return;
        }
        for (size_t i = start; i < from.size(); ++i) {
          cur.push_back(from[i]);
          self(self, i + 1);
          cur.pop_back();
        }
      };
      rec(rec, 0);
    };
    combos(inf, vr.caucasus_infantry, inf_sets);
    combos(pz, vr.caucasus_panzer, pz_sets);
    for (const auto& a : inf_sets)
      for (const auto& b : pz_sets) {
        std::vector<int> all(a);
        all.insert(all.end(), b.begin(), b.end());
        std::sort(all.begin(), all.end());
        Action x;
        x.verb = kCaucasusLaunch;
        for (int u : all) x.push(u);
        push_if(x);
      }
  }
  if (side == kGerman && cauc_ == kCaucInBox && turn_ > cauc_turn_) {
    std::vector<int> box, free_exits;
    for (int u = 0; u < num_units(); ++u)
      if (unit(u).where == kCaucasus && def(u).side == kGerman) box.push_back(u);
    for (int h : vr.caucasus_exits)
      if (h >= 0 && !enemy_in(h, kGerman)) free_exits.push_back(h);
    if (box.empty() || free_exits.empty() || box.size() > 5) return;
    std::vector<size_t> pick(box.size(), 0);
    for (;;) {
      Action x;
      x.verb = kCaucasusRecall;
      for (size_t i = 0; i < box.size(); ++i) {
        x.push(box[i]);
        x.push(free_exits[pick[i]]);
      }
      push_if(x);
      size_t i = 0;
      while (i < pick.size() && ++pick[i] == free_exits.size()) pick[i++] = 0;
      if (i == pick.size()) break;
    }
  }
  if (side == kSoviet && cauc_ != kCaucInBox && cauc_ != kCaucBrokeThrough)
    for (int u = 0; u < num_units(); ++u)
      if (unit(u).where == kCaucasus && def(u).side == kSoviet)
        for (int h : vr.caucasus_exits)
          if (h >= 0) {
            Action x;
            x.verb = kCaucasusLeave;
            x.push(u);
            x.push(h);
            push_if(x);
          }
}

}  // namespace bd
