// Barbarossa Deluxe rules: observations and determinization of hidden units (11.7).
// Section numbers are the rulebook's (seeds/000); where the text is silent or ambiguous
// the choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_internal.h"

namespace bd {

// ======================================================================= views

Json BdState::observation(int side) const {
  Json o;
  o["game"] = "bd";
  o["viewer"] = side_name(side);
  o["scenario"] = std::string(scenario_id_);
  o["turn"] = turn_;
  o["months"] = ti().months;
  o["phase"] = phase_name(phase_);
  o["current_player"] = current_player() >= 0 ? side_name(current_player()) : "none";
  o["vp"] = vp_;  // 11.7 the VP total is public
  Json opts = Json::array();
  if (opt_forgiveness_) opts.push_back("forgiveness-points");
  if (opt_kiev_) opts.push_back("kiev-vp");
  o["options"] = opts;
  if (opt_forgiveness_) o["forgiveness_points"] = fp_;               // 4.20 recorded openly
  if (summer_turn_ != 0) o["summer_offensive_turn"] = summer_turn_;  // 4.4 declared openly
  if (mg_) o["mansteins_gambit"] = true;                             // 4.16 declared openly
  // 4.18: the Rhine/Oder counter is hidden from the Soviet until GT30.
  if (watch_ != 0 && (side == kGerman || turn_ >= data_->victory.watch_reveal_turn))
    o["watch"] = watch_ == 2 ? "oder" : "rhine";
  else if (watch_ != 0)
    o["watch"] = "hidden";
  o["order"] = {kOrderNames[order_[0]], kOrderNames[order_[1]]};
  // Old Hands Note to 2.12: every unit has one step; it is in play or eliminated, never
  // reduced, so the counters carry no step state.
  o["steps_per_unit"] = 1;
  Json ctrl = Json::array();
  for (int h = 0; h < kNumHexes; ++h)
    if (hex_.control[static_cast<size_t>(h)] == kGerman) ctrl.push_back(hex_id(h));
  o["german_controls"] = ctrl;
  Json stacks = Json::array();
  std::vector<int> here;
  for (int h = 0; h < kNumHexes; ++h) {
    const int s = occupant_side(h);
    if (s == kNoSide) continue;
    units_in(h, here);
    Json st{{"hex", hex_id(h)}, {"side", side_name(s)}, {"count", here.size()}};
    Json list = Json::array();
    // 11.7: the German sees only the top unit of a Soviet stack (and units revealed by an
    // odds calculation since they last moved); the Soviet sees German stacks.
    const bool hidden = s == kSoviet && side == kGerman;
    for (size_t i = 0; i < here.size(); ++i) {
      const int u = here[i];
      if (hidden && i > 0 && !(unit(u).flags & kFlagRevealed)) continue;
      Json j{{"unit", label(u)}};
      if (!hidden && unit(u).parent >= 0) j["attached_to"] = label(unit(u).parent);  // 8.31, 8.32
      if (s == side) j["mp"] = unit(u).mp;
      // 7.2, 7.8: the supply state of every unit this side sees (it follows from the
      // public map, markers and units); from GT7 a Soviet unit in overland supply may
      // lack offensive supply (7.10), which halves its attack (7.22).
      const int sup = unit_supply(u);
      j["supply"] = supply_name(sup);
      if (s == kSoviet && sup == kSupOverland && turn_ >= 7) j["offensive"] = offensive_ok(u) != 0;
      // 2.11, 7.16: the movement allowance of a unit that may move now (halved OOS).
      if (s == side && is_move_phase() && phase_side() == side) j["mf"] = mf_of(u);
      list.push_back(j);
    }
    st["units"] = list;
    stacks.push_back(st);
  }
  o["stacks"] = stacks;
  Json boxes;
  for (int s = 0; s < 2; ++s) {
    Json b{{"dead", Json::array()},
           {"rvgk", Json::array()},
           {"trrt", Json::array()},
           {"caucasus", Json::array()}};
    int rvgk_count = 0;
    for (int u = 0; u < num_units(); ++u) {
      if (def(u).side != s) continue;
      const int w = unit(u).where;
      if (w == kDead || w == kDeadPerm) b["dead"].push_back(label(u));  // the dead pile is public
      if (w == kCaucasus) b["caucasus"].push_back(label(u));
      if (w == kRvgk) {
        ++rvgk_count;
        if (s == side) b["rvgk"].push_back(label(u));  // 11.7 hidden from the German
      }
      if (w == kTrrt && s == side) b["trrt"].push_back(Json{{"unit", label(u)}, {"turn", unit(u).turn}});
    }
    // 11.7 (ruling BD-FOG2): the RVGK box may be covered, so its size is the Soviet's alone.
    if (s == side) b["rvgk_count"] = rvgk_count;
    boxes[side_name(s)] = b;
  }
  o["boxes"] = boxes;
  // 4.11-4.13: the Caucasus Holding Box is on the mapsheet, open to both players.
  {
    static const char* names[] = {"none", "in-box", "broke-through", "recalled", "defeated"};
    Json c{{"state", names[std::min<int>(cauc_, 4)]}, {"launch_open", cauc_open_}};
    if (cauc_ != kCaucNone) c["departed_turn"] = cauc_turn_;
    if (pending_ == kPendCaucasus) c["soviet_to_send"] = cauc_need_;
    Json units = Json::array();
    for (int u = 0; u < num_units(); ++u)
      if (unit(u).where == kCaucasus)
        units.push_back(Json{{"unit", label(u)}, {"side", side_name(def(u).side)}});
    c["units"] = units;
    o["caucasus"] = c;
  }
  if (ss_due_ != 0) o["ss_withdrawal"] = ss_due_ == 1 ? "due" : "delayed";  // 8.17
  Json m;
  Json hc = Json::array(), fc = Json::array(), os = Json::array();
  for (auto x : markers_.hero_city) hc.push_back(hex_id(x));
  for (auto x : markers_.fortress_city) fc.push_back(hex_id(x));
  for (int i = 0; i < 3; ++i)
    if (markers_.osupply[static_cast<size_t>(i)] >= 0)
      os.push_back(Json{{"marker", std::string(1, "ABC"[i])},
                        {"hex", hex_id(markers_.osupply[static_cast<size_t>(i)])}});
  m["hero_cities"] = hc;
  m["fortress_cities"] = fc;
  m["offensive_supply"] = os;
  m["luftwaffe_left"] = markers_.luftwaffe_left;
  if (markers_.fa_hex >= 0) m["fortified_area"] = hex_id(markers_.fa_hex);
  Json ew = Json::array();
  for (auto x : markers_.east_wall) ew.push_back(hex_id(x));
  m["east_wall"] = ew;  // 8.5
  if (markers_.east_wall_left > 0) m["east_wall_to_place"] = markers_.east_wall_left;
  // 8.36-8.40: the Soviet support markers in their holding boxes (public, on the mapsheet).
  m["soviet_support"] = Json{{"artillery", support_arrived("artillery-corps")},
                             {"artillery_used", markers_.artillery_used},
                             {"air_armies", support_arrived("air-army")},
                             {"air_armies_used", markers_.air_armies_used},
                             {"interceptor", support_arrived("vi-interceptor") > 0},
                             {"partisans", support_arrived("partisans") > 0},
                             {"airborne", support_arrived("airborne-assault") > 0},
                             {"airborne_used_1942", (markers_.airborne_years & 1u) != 0},
                             {"airborne_used_1943", (markers_.airborne_years & 2u) != 0}};
  if (bulg_state_ == 1 && bulg_unit_ >= 0)  // 8.26: the unit off the map in Bulgaria
    m["bulgaria"] = Json{{"unit", label(bulg_unit_)}, {"exit_turn", bulg_exit_turn_}};
  o["markers"] = m;
  if (battle_.active) {
    Json b{{"target", hex_id(battle_.target)},
           {"attacker", side_name(battle_.attacker)},
           {"mobile", battle_.is_ma != 0}};
    Json sup = Json::array();  // 8.36-8.41 support committed so far
    for (int i = 0; i < battle_.natt; ++i) {
      const uint8_t x = battle_.boost[static_cast<size_t>(i)];
      // 11.7 (ruling BD-FOG1): the German learns which army is supported at the odds.
      const int u = battle_.att[static_cast<size_t>(i)];
      const std::string who =
          side == kGerman && battle_.rolled == 0xFF && !german_sees(u) ? std::string() : " " + label(u);
      if (x & kBoostArtillery) sup.push_back("artillery" + who);
      if (x & kBoostAirArmy) sup.push_back("air-army" + who);
    }
    if (battle_.support & kSupportInterceptor) sup.push_back("interceptor");
    if (battle_.support & kSupportPartisans) sup.push_back("partisans");
    if (battle_.support & kSupportAirborne) sup.push_back("airborne");
    b["support"] = sup;
    b["luftwaffe"] = battle_.lw_attack != 0 || battle_.lw_defend != 0;
    if (battle_.rolled != 0xFF) {
      b["odds"] = battle_.raw_index == 99 ? "auto" : odds_label(battle_.final_index);
      b["result"] = result_name(battle_.rolled);
    }
    o["battle"] = b;
  }
  o["pending"] = static_cast<int>(pending_);
  if (pending_ == kPendInterrupt)  // 9.7: the attack submitted, not yet declared (public)
    o["attack_submitted"] = Json{{"target", hex_id(held_attack_.args[0])},
                                 {"attacker", side_name(phase_side())},
                                 {"mobile", held_attack_.verb == kMobileAssault}};
  if (phase_ == kGameOver) o["result"] = result();
  return o;
}

Json BdState::full_json() const {
  Json j;
  j["scenario"] = std::string(scenario_id_);
  j["turn"] = turn_;
  j["phase"] = phase_name(phase_);
  j["vp"] = vp_;
  j["winner"] = side_name(winner_);
  j["order"] = {kOrderNames[order_[0]], kOrderNames[order_[1]]};
  j["paulus"] = paulus_;
  j["crimea_supply"] = crimea_on_;  // 7.4
  if (!crimea_declared_.empty()) {
    Json decl = Json::array();
    for (int16_t u : crimea_declared_) decl.push_back(label(u));
    j["crimea_declared"] = decl;  // 7.4 ruling BD-22
  }
  j["zone1942"] = zone1942_;
  j["pending"] = static_cast<int>(pending_);
  j["options"] = {{"forgiveness-points", opt_forgiveness_}, {"kiev-vp", opt_kiev_}};
  j["section4"] = {{"fp", fp_},
                   {"baltic_lost", baltic_lost_},
                   {"dnepr_lost", dnepr_lost_},
                   {"early_fallen", early_fallen_},
                   {"kiev_taken", kiev_taken_},
                   {"summer_turn", summer_turn_},
                   {"summer_done", summer_done_},
                   {"watch", watch_},
                   {"soviet_losses", soviet_losses_},
                   {"ss_due", ss_due_},
                   {"ss_cycle", ss_cycle_},
                   {"ss_failed", ss_failed_},
                   {"ss_done", ss_done_},
                   {"caucasus", cauc_},
                   {"caucasus_open", cauc_open_},
                   {"caucasus_turn", cauc_turn_},
                   {"caucasus_rolled", cauc_rolled_},
                   {"caucasus_need", cauc_need_},
                   {"mansteins_gambit", mg_}};
  j["dice"] = {{"seed", dice_.seed()}, {"counter", dice_.counter()}};
  Json units = Json::array();
  for (int u = 0; u < num_units(); ++u) {
    const UnitSt& s = unit(u);
    if (s.where == kOutOfPlay && def(u).entry_turn == 0) continue;
    Json x{{"unit", label(u)}, {"where", where_name(s.where)}};
    if (s.where == kOnMap) x["hex"] = hex_id(s.hex);
    if (s.parent >= 0) x["attached_to"] = label(s.parent);  // 8.31, 8.32
    if (s.where == kTrrt) x["turn"] = s.turn;
    if (s.mp >= 0) x["mp"] = s.mp;
    if (s.flags) x["flags"] = s.flags;
    units.push_back(x);
  }
  j["units"] = units;
  std::string ctrl(kNumHexes, '.');
  for (int h = 0; h < kNumHexes; ++h)
    ctrl[static_cast<size_t>(h)] = "GS."[std::min<int>(hex_.control[static_cast<size_t>(h)], 2)];
  j["control"] = ctrl;
  j["observation_soviet"] = observation(kSoviet)["markers"];
  return j;
}

// Determinization (11.7): the German cannot tell hidden Soviet units apart (below the top
// of a stack, not revealed since they last moved, or in the RVGK): permute them among
// their slots within the same stacking category.
void BdState::resample_hidden(int viewer, uint64_t seed) {
  dice_.reseed(seed);
  // 4.18: the Soviet does not know which side of the Rhine/Oder counter is up.
  if (viewer == kSoviet && watch_ != 0 && turn_ < data_->victory.watch_reveal_turn)
    watch_ = static_cast<int8_t>(1 + (steppe::splitmix64(seed ^ 0x4f646572ULL) & 1u));
  if (viewer != kGerman) return;
  std::vector<int> here;
  std::vector<int> slots[4];
  for (int u = 0; u < num_units(); ++u) {
    if (def(u).side != kSoviet) continue;
    const UnitSt& s = unit(u);
    bool hidden = s.where == kRvgk;
    if (s.where == kOnMap && !(s.flags & kFlagRevealed)) {
      units_in(s.hex, here);
      hidden = !here.empty() && here[0] != u;
    }
    if (!hidden || is_attachable(u)) continue;  // 8.32 the four CM groups are alike: not shuffled
    const UnitDef& d = def(u);
    const int cat = d.satellite_army() ? 1 : d.type == kCavalryGroup ? 2 : d.free_stacking() ? 3 : 0;
    slots[cat].push_back(u);
  }
  uint64_t x = seed;
  for (auto& group : slots) {
    std::vector<UnitSt> st;
    st.reserve(group.size());
    for (int u : group) st.push_back(unit(u));
    for (size_t i = st.size(); i > 1; --i) {
      x = steppe::splitmix64(x);
      std::swap(st[i - 1], st[static_cast<size_t>(x % i)]);
    }
    for (size_t i = 0; i < group.size(); ++i) units_[static_cast<size_t>(group[i])] = st[i];
  }
  mark_dirty();
  // 8.32: a CM stays atop an army of its hex, whichever army the sample put there (ruling
  // BD-TB3; if none is eligible, ruling BD-TB1 applies after the next action).
  for (int c = 0; c < num_units(); ++c) {
    if (!is_attachable(c) || unit(c).where != kOnMap) continue;
    UnitSt& cs = units_[static_cast<size_t>(c)];
    const int p = cs.parent;
    if (p >= 0 && unit(p).where == kOnMap && unit(p).hex == cs.hex && eligible_parent(c, p)) continue;
    cs.parent = -1;
    mark_dirty();
    cs.parent = static_cast<int16_t>(default_parent(c, cs.hex));
    mark_dirty();
  }
}

// ======================================================================= typed views

namespace {

// The section each verb carries out (describe()), in Verb order.
// 11.26: what each result of the CRT does.
constexpr const char* kResultMeanings[] = {
    "all attackers eliminated", "no effect", "all defenders eliminated; the attacker may advance",
    "bloodbath: all defenders eliminated, the attacker loses at least their defence in attack factors",
    "the defender retreats (11.27)"};

}  // namespace

void BdState::action_units(const Action& a, std::vector<int>& out) const {
  out.clear();
  auto add = [&](int u) {
    if (u >= 0 && u < num_units() && std::find(out.begin(), out.end(), u) == out.end()) out.push_back(u);
  };
  switch (a.verb) {
    case kMove:
    case kEnter:
    case kRvgkOut:
    case kSetup:
    case kReplace:
    case kRvgkIn:
    case kAdvance:
    case kWithdraw:
    case kOverstackRemove:
    case kBbLoss:
    case kAdvance2:
    case kStrategic:
    case kEmergencyRvgk:
    case kSeaMove:
    case kCaucasusLeave:
    case kBulgariaExit:
      if (a.nargs > 0) add(a.args[0]);
      break;
    case kConvert:
    case kAttach:
      for (int i = 0; i < std::min<int>(a.nargs, 2); ++i) add(a.args[i]);
      break;
    case kAttackWith:
    case kMobileAssault:
      for (int i = 2; i < a.nargs; ++i) add(a.args[i]);
      break;
    case kAttackFrom: {  // the units in the hexes the attack comes from
      std::vector<int> here;
      for (int i = 2; i < a.nargs; ++i) {
        if (a.args[i] < 0 || a.args[i] >= kNumHexes) continue;
        units_in(a.args[i], here);
        for (int u : here) add(u);
      }
      break;
    }
    case kCrimeaSupply:
      for (int i = 1; i < a.nargs; ++i) add(a.args[i]);
      break;
    case kCaucasusLaunch:
    case kCaucasusSend:
      for (int i = 0; i < a.nargs; ++i) add(a.args[i]);
      break;
    case kCaucasusRecall:
      for (int i = 0; i < a.nargs; i += 2) add(a.args[i]);
      break;
    case kSupport:
      if (a.nargs > 1) add(a.args[1]);
      break;
    default:
      break;
  }
}

steppe::Result<steppe::ActionDescription> BdState::describe(const Action& a) const {
  if (a.verb == kVerbNone || a.verb >= kNumVerbs)
    return steppe::Error{"unknown action (verb " + std::to_string(a.verb) + ")", "", ""};
  steppe::ActionDescription d;
  d.text = action_to_string(a);
  const auto* row = verbs().find(a.verb);
  d.verb = std::string(row->name);
  d.rule = std::string(row->rule);
  d.summary = d.text;
  std::vector<int> us;
  action_units(a, us);
  for (int u : us) d.units.push_back(label(u));
  auto hex_arg = [&](int i) { return i < a.nargs && a.args[i] >= 0 && a.args[i] < kNumHexes; };
  auto add_loc = [](std::vector<std::string>& v, const std::string& id) {
    if (std::find(v.begin(), v.end(), id) == v.end()) v.push_back(id);
  };
  auto where_now = [&](int u) {  // the hex a unit stands in, if on the map
    if (unit(u).where == kOnMap) add_loc(d.from, hex_id(unit(u).hex));
  };
  switch (a.verb) {
    case kMove: {  // args: unit, the unit's hex, the hexes it enters (10.1)
      if (!hex_arg(1)) break;
      Json path = Json::array();
      for (int i = 1; i < a.nargs; ++i) path.push_back(hex_id(a.args[i]));
      d.from.push_back(hex_id(a.args[1]));
      d.to.push_back(hex_id(a.args[a.nargs - 1]));
      d.detail = Json{{"path", path}, {"hexes_entered", a.nargs - 2}};
      if (!us.empty()) d.summary = label(us[0]) + " moves from " + d.from[0] + " to " + d.to[0];
      break;
    }
    case kAttackFrom:
    case kAttackWith:
    case kMobileAssault: {
      if (!hex_arg(0)) break;
      d.to.push_back(hex_id(a.args[0]));
      if (a.verb == kAttackFrom) {
        for (int i = 2; i < a.nargs; ++i)
          if (hex_arg(i)) add_loc(d.from, hex_id(a.args[i]));
      } else {
        for (int u : us) where_now(u);
      }
      d.detail = Json{{"luftwaffe", (a.args[1] & 1) != 0}, {"drop", (a.args[1] & 2) != 0}};
      d.summary = std::string(a.verb == kMobileAssault ? "mobile assault" : "prepared assault") + " on " +
                  d.to[0] + " by " + std::to_string(us.size()) + " unit" + (us.size() == 1 ? "" : "s");
      if (!d.from.empty()) {
        d.summary += " from";
        for (const auto& h : d.from) d.summary += " " + h;
      }
      break;
    }
    case kEnter:
    case kRvgkOut:
    case kSetup:
    case kReplace:
    case kAdvance2:
    case kStrategic:
    case kEmergencyRvgk:
    case kSeaMove:
    case kCaucasusLeave:
      if (!us.empty()) where_now(us[0]);
      if (hex_arg(1)) {
        d.to.push_back(hex_id(a.args[1]));
        if (!us.empty()) d.summary = label(us[0]) + ": " + d.verb + " to " + d.to[0];
      }
      break;
    case kOffSupply:
      if (hex_arg(1)) d.to.push_back(hex_id(a.args[1]));
      break;
    case kRetreat:
    case kHeroCity:
    case kFortressCity:
    case kFortifiedArea:
    case kAerialSupply:
    case kEastWall:
    case kBulgariaReturn:
      if (hex_arg(0)) d.to.push_back(hex_id(a.args[0]));
      break;
    case kCaucasusRecall:
      for (int i = 1; i < a.nargs; i += 2)
        if (hex_arg(i)) d.to.push_back(hex_id(a.args[i]));
      break;
    default:
      for (int u : us) where_now(u);
      break;
  }
  return d;
}

void BdState::legal_actions_for(std::string_view unit_name, std::vector<Action>& out) const {
  out.clear();
  const int u = find_label(unit_name);
  if (u < 0) return;
  std::vector<Action> all;
  legal_actions(all);
  std::vector<int> us;
  for (const Action& a : all) {
    action_units(a, us);
    if (std::find(us.begin(), us.end(), u) != us.end()) out.push_back(a);
  }
}

steppe::Result<steppe::Preview> BdState::combat_preview(const Action& a,
                                                        const std::vector<std::string>& support) const {
  auto bad = [](const std::string& why) { return steppe::Error{why, "", ""}; };
  if (a.verb != kAttackFrom && a.verb != kAttackWith && a.verb != kMobileAssault) return bad("not an attack");
  std::vector<int> atts;
  if (a.verb == kAttackFrom) {
    // Previews ignore whose phase it is: gather every unit of the side in those hexes.
    std::vector<int> here;
    for (int i = 2; i < a.nargs; ++i) {
      units_in(a.args[i], here);
      for (int u : here)
        if (def(u).attack != 0 || def(u).support_shifts > 0) atts.push_back(u);
    }
  } else {
    for (int i = 2; i < a.nargs; ++i) atts.push_back(a.args[i]);
    for (int i = 2; i < a.nargs; ++i)  // 8.31, 8.32 as start_battle: a TB / CM joins its parent
      if (const int c = attached_of(a.args[i]);
          c >= 0 && std::find(atts.begin(), atts.end(), c) == atts.end() && atts.size() < kMaxBattleUnits)
        atts.push_back(c);
  }
  if (atts.empty()) return bad("no attackers");
  BdState tmp(*this);
  tmp.sink_ = nullptr;
  Battle b;
  b.target = static_cast<int16_t>(a.args[0]);
  b.attacker = def(atts[0]).side;
  b.is_ma = a.verb == kMobileAssault;
  b.lw_attack = a.args[1] != 0 && b.attacker == kGerman;
  b.lw_defend = a.args[1] != 0 && b.attacker == kSoviet;
  for (int u : atts) b.att[b.natt++] = static_cast<int16_t>(u);
  std::vector<int> defs;
  units_in(b.target, defs);
  for (int dd : defs)
    if (b.is_ma || !(unit(dd).flags & kFlagRetreatedIn)) b.def[b.ndef++] = static_cast<int16_t>(dd);
  if (b.ndef == 0) return bad("no defenders in " + hex_id(b.target));
  for (size_t i = 0; i < support.size(); ++i) {
    int kind = 0;
    for (int x = kSupArtillery; x < kNumSupportKinds; ++x)
      if (support[i] == kSupportNames[x]) kind = x;
    if (kind == 0) return bad("unknown support '" + support[i] + "'");
    int su = -1;
    if (kind == kSupArtillery || kind == kSupAirArmy) {
      if (i + 1 >= support.size() || (su = find_label(support[i + 1])) < 0)
        return bad("support " + support[i] + " names an army");
      ++i;
    }
    apply_support(b, kind, su);
  }
  tmp.compute_odds(b, false);
  // Factors, raw odds, every shift with its reason and rule, and the final column
  // (11.8-11.11). Rolled factors (8.4, 8.35) count 3 here.
  Json shifts = Json::array();
  tmp.shifts_for(b, &shifts);
  std::vector<int> per;
  tmp.attack_factor_total(b, false, &per);
  Json atts_j = Json::array();
  for (int i = 0; i < b.natt; ++i) {
    const int u = b.att[static_cast<size_t>(i)];
    Json aj{{"unit", label(u)},
            {"factor", i < static_cast<int>(per.size()) ? per[static_cast<size_t>(i)] : 0},
            {"supply", supply_name(tmp.unit_supply(u))}};
    const uint8_t boost = b.boost[static_cast<size_t>(i)];
    if (boost & kBoostArtillery) aj["artillery"] = "8.36";  // factor doubled
    if (boost & kBoostAirArmy) aj["air_army"] = "8.38";     // +1
    atts_j.push_back(aj);
  }
  const Crt& crt = data_->crt;
  const bool auto_de = b.raw_index == 99 || b.final_index > crt.max_index;  // 11.10
  const bool auto_ae = !auto_de && b.final_index < crt.min_index;           // 11.10
  steppe::Preview p;
  p.kind = "combat";
  p.attack = b.attack;
  p.defense = b.defense;
  p.raw = b.raw_index == 99 ? std::string("auto-DE") : odds_label(b.raw_index);
  p.final = auto_de ? "auto-DE" : auto_ae ? "auto-AE" : odds_label(b.final_index);
  p.rule = "11.25";
  for (const auto& s : shifts)
    p.shifts.push_back({s["shift"].get<int>(), s["reason"].get<std::string>(), s["rule"].get<std::string>()});
  // 11.25: the die picks the result in the final column of the CRT (data/bd/crt.json); an
  // automatic result needs no die (11.10).
  std::array<int, 5> count{};
  if (auto_de) {
    count[kDE] = 6;
  } else if (auto_ae) {
    count[kAE] = 6;
  } else {
    for (int die = 1; die <= 6; ++die)
      ++count[crt.results[static_cast<size_t>(b.final_index - crt.min_index)][static_cast<size_t>(die - 1)]];
  }
  for (int r = 0; r < 5; ++r)
    if (count[static_cast<size_t>(r)] > 0)
      p.outcomes.push_back({result_name(r), count[static_cast<size_t>(r)] / 6.0, kResultMeanings[r],
                            auto_de || auto_ae ? "11.10" : "11.26"});
  auto lr = [](int n) {
    return n == 0 ? std::string("0") : std::to_string(std::abs(n)) + (n > 0 ? "R" : "L");
  };
  p.summary = std::to_string(b.attack) + " vs " + std::to_string(b.defense) + " = " + p.raw + ", shifts " +
              lr(b.shifts) + " -> " + p.final;
  p.detail = Json{{"defenders", b.ndef},
                  {"raw_rule", b.raw_index == 99       ? "11.10"
                               : b.attack >= b.defense ? "11.8"
                                                       : "11.9"},
                  {"total_shift", b.shifts},
                  {"final_rule", "11.11"},
                  {"attackers", atts_j}};
  return p;
}

namespace {
std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> w;
  size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && text[at] == ' ') ++at;
    const size_t end = std::min(text.find(' ', at), text.size());
    if (end > at) w.push_back(text.substr(at, end - at));
    at = end;
  }
  return w;
}
}  // namespace

steppe::Result<steppe::Preview> BdState::preview(const Action& a, int viewer) const {
  if (a.verb != kAttackFrom && a.verb != kAttackWith && a.verb != kMobileAssault)
    return steppe::Error{"BD previews attacks only; '" + action_to_string(a) + "' is not one", "", ""};
  // 11.7: the preview names the same hexes and units as the action; the viewer may not
  // look beneath the top of an enemy stack before the attack is committed.
  if (Status s = query_allowed(viewer, words_of(action_to_string(a))); !s.is_ok()) return s.error();
  // Odds only for an attack the rules accept now: a unit not adjacent, or named twice, is
  // refused with the rule, as apply() would refuse it (the browser's subsets, 11.6).
  if (Status s = check(a); !s.is_ok()) return s.error();
  return combat_preview(a, {});
}

steppe::Reach BdState::reach_of(int u) const {
  std::array<int16_t, kNumHexes> best{}, parent{};
  reach(u, best, parent);
  steppe::Reach r;
  const int start = unit(u).hex;
  r.unit = label(u);
  r.from = hex_id(start);
  r.allowance = mp_left(u);
  for (int h = 0; h < kNumHexes; ++h) {
    if (h == start || best[static_cast<size_t>(h)] < 0) continue;
    // 8.30 (ruling BD-C1): a cavalry group passes through cities but never stops in one.
    if (def(u).type == kCavalryGroup && hx(h).city) continue;
    steppe::ReachDestination d;
    d.location = hex_id(h);
    d.cost = r.allowance - best[static_cast<size_t>(h)];
    for (int x = h, n = 0; x != start && x >= 0 && n < kNumHexes; x = parent[static_cast<size_t>(x)], ++n)
      d.path.push_back(hex_id(x));
    std::reverse(d.path.begin(), d.path.end());
    r.destinations.push_back(std::move(d));
  }
  return r;
}

steppe::Result<steppe::Reach> BdState::reach(std::string_view unit_name, int viewer) const {
  const int u = find_label(unit_name);
  if (u < 0) return steppe::Error{"unknown unit '" + std::string(unit_name) + "'", "", ""};
  if (Status s = query_allowed(viewer, {"reach", std::string(unit_name)}); !s.is_ok()) return s.error();
  if (unit(u).where != kOnMap)
    return steppe::Error{std::string(unit_name) + " is not on the map", "10.1", ""};
  return reach_of(u);
}

}  // namespace bd
