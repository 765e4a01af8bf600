// Barbarossa Deluxe rules: observations and determinization of hidden units
// (11.7). Section numbers are the rulebook's (seeds/000); where the text is
// silent or ambiguous the choice is written in docs/rulings.md (BD-n).
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
  // Old Hands Note to 2.12: every unit has one step; it is in play or
  // eliminated, never reduced, so the counters carry no step state.
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
    // 11.7: the German sees only the top unit of a Soviet stack (and units
    // revealed by an odds calculation since they last moved); the Soviet sees
    // German stacks.
    const bool hidden = s == kSoviet && side == kGerman;
    for (size_t i = 0; i < here.size(); ++i) {
      const int u = here[i];
      if (hidden && i > 0 && !(unit(u).flags & kFlagRevealed)) continue;
      Json j{{"unit", label(u)}};
      if (!hidden && unit(u).parent >= 0) j["attached_to"] = label(unit(u).parent);  // 8.31, 8.32
      if (s == side) j["mp"] = unit(u).mp;
      // 7.2, 7.8: the supply state of every unit this side sees (it follows
      // from the public map, markers and units); from GT7 a Soviet unit in
      // overland supply may lack offensive supply (7.10), which halves its
      // attack (7.22).
      const int sup = unit_supply(u);
      j["supply"] = supply_name(sup);
      if (s == kSoviet && sup == kSupOverland && turn_ >= 7) j["offensive"] = offensive_ok(u) != 0;
      // 2.11, 7.16: the movement allowance of a unit that may move now (halved
      // OOS).
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
    // 11.7 (ruling BD-FOG2): the RVGK box may be covered, so its size is the
    // Soviet's alone.
    if (s == side) b["rvgk_count"] = rvgk_count;
    boxes[side_name(s)] = b;
  }
  o["boxes"] = boxes;
  // 4.11-4.13: the Caucasus Holding Box is on the mapsheet, open to both
  // players.
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
  // 8.36-8.40: the Soviet support markers in their holding boxes (public, on
  // the mapsheet).
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
      // 11.7 (ruling BD-FOG1): the German learns which army is supported at the
      // odds.
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

// Determinization (11.7): the German cannot tell hidden Soviet units apart
// (below the top of a stack, not revealed since they last moved, or in the
// RVGK): permute them among their slots within the same stacking category.
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
  // 8.32: a CM stays atop an army of its hex, whichever army the sample put
  // there (ruling BD-TB3; if none is eligible, ruling BD-TB1 applies after the
  // next action).
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

}  // namespace bd
