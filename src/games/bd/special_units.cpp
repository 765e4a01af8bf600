// Barbarossa Deluxe rules: support markers (8.36-8.41), Bulgarian armies (8.26), TB / CM attachment
// (8.31, 8.32). Section numbers are the rulebook's (seeds/000); where the text is silent or ambiguous the
// choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_internal.h"

namespace bd {

// ======================================================================= 8.36-8.41 support markers

// Markers of that kind in the Soviet holding box on this turn: arrived (trrt.json) and not
// yet withdrawn (8.37 leaves at the start of GT8). A scenario starting later has them all.
int BdState::support_arrived(const char* marker) const {
  int n = 0;
  for (const auto& m : data_->markers)
    if (m.side == kSoviet && m.marker == marker && m.turn <= turn_ &&
        (m.withdrawn == 0 || turn_ < m.withdrawn))
      n += m.count;
  return n;
}

// How many markers of `kind` the Soviet may still commit in this phase (before looking at
// the battle): 0 when the phase, the phase order or the year forbids them.
int BdState::support_left(int kind) const {
  if (phase_side() != kSoviet || !is_assault_phase()) return 0;
  const int o = order_[kSoviet];
  // 8.36, 8.38: fight/move or fight/fight turns, and only the first PA phase of fight/fight;
  // 8.37, 8.40: fight/move turns only. Either way the Soviet Phase B.
  const bool first_pa = phase_ == kSovietB && (o == kFightMove || o == kFightFight);
  const bool fight_move = phase_ == kSovietB && o == kFightMove;
  switch (kind) {
    case kSupArtillery:
      return first_pa ? std::max(0, support_arrived("artillery-corps") - markers_.artillery_used) : 0;
    case kSupAirArmy:
      return first_pa ? std::max(0, support_arrived("air-army") - markers_.air_armies_used) : 0;
    case kSupInterceptor:
      return fight_move && support_arrived("vi-interceptor") > 0 &&
                     !(markers_.support_used & kSupportInterceptor)
                 ? 1
                 : 0;
    case kSupPartisans:  // 8.39: whatever the phase order
      return support_arrived("partisans") > 0 && !(markers_.support_used & kSupportPartisans) ? 1 : 0;
    case kSupAirborne: {  // 8.40: once in 1942 and once in 1943 (digest 9 item 19)
      const int y = ti().year;
      if (!fight_move || support_arrived("airborne-assault") <= 0) return 0;
      // 15.8 (1942 What If): "may be used once during the scenario" (param airborne_once).
      if (sparam("airborne_once") > 0) return markers_.airborne_years != 0 ? 0 : 1;
      if (y != 1942 && y != 1943) return 0;
      return (markers_.airborne_years >> (y - 1942)) & 1u ? 0 : 1;
    }
    default:
      return 0;
  }
}

// Rifle, oversized rifle, shock, Guards, tank and Guards tank armies: the Soviet field
// armies (8.32's CM parents, BD-TB2; with others, 8.36/8.38's supported armies, BD-SM2).
static bool soviet_field_army(UnitType t) {
  switch (t) {
    case kRifleArmy:
    case kOversizedRifleArmy:
    case kShockArmy:
    case kGuardsArmy:
    case kTankArmy:
    case kGuardsTankArmy:
      return true;
    default:
      return false;
  }
}

// Ruling BD-SM2: the "army" 8.36 and 8.38 support is a counter of an army type (rifle,
// oversized, shock, Guards, tank, Guards tank, coastal, militia and the communist satellite
// armies); corps and groups are not armies.
bool BdState::support_army(int u) const {
  const UnitType t = def(u).type;
  return soviet_field_army(t) || t == kCoastalArmy || t == kMilitiaArmy || t == kCommunistSatelliteArmy;
}

Status BdState::check_support(int kind, int u) const {
  const Battle& b = battle_;
  if (pending_ != kPendSupport || !b.active || b.attacker != kSoviet || b.is_ma)
    return rerr("8.41",
                "support markers are committed to a Soviet prepared assault once the German has "
                "declared his Luftwaffe support (8.38)");
  static const char* rules[] = {"", "8.36", "8.38", "8.37", "8.39", "8.40"};
  if (kind < kSupArtillery || kind >= kNumSupportKinds) return rerr("8.41", "unknown support marker");
  const char* rule = rules[kind];
  if (support_left(kind) <= 0) {
    switch (kind) {
      case kSupArtillery:
      case kSupAirArmy:
        return rerr(rule, std::string(kind == kSupArtillery ? "no artillery corps" : "no air army") +
                              " left for this phase (fight/move or fight/fight turns, first prepared "
                              "assault phase only; each once per phase)");
      case kSupInterceptor:
        return rerr(rule,
                    "the VI Interceptor Corps is not available (GT6-7, fight/move turns, once per phase)");
      case kSupPartisans:
        return rerr(rule, "the partisans have been committed this phase or have not arrived");
      default:
        if (sparam("airborne_once") > 0)
          return rerr("15.8",
                      "the airborne assault marker is not available (fight/move turns, once during the "
                      "scenario)");
        return rerr(rule,
                    "the airborne assault marker is not available (fight/move turns, once in 1942 and "
                    "once in 1943)");
    }
  }
  int idx = -1;
  if (kind == kSupArtillery || kind == kSupAirArmy) {
    for (int i = 0; i < b.natt; ++i)
      if (b.att[static_cast<size_t>(i)] == u) idx = i;
    if (u < 0 || u >= num_units() || idx < 0) return rerr(rule, "support goes to an army making this attack");
    if (!support_army(u)) return rerr(rule, def(u).label + " is not an army");
    const uint8_t bit = kind == kSupArtillery ? kBoostArtillery : kBoostAirArmy;
    if (b.boost[static_cast<size_t>(idx)] & bit)
      return rerr(rule, def(u).label + " already has " +
                            (kind == kSupArtillery ? "an artillery corps" : "an air army"));
  }
  const HexInfo& t = hx(b.target);
  switch (kind) {
    case kSupArtillery:
      if (def(u).type == kShockArmy) return rerr(rule, "shock armies may never be supported by artillery");
      if (unit_supply(u) != kSupOverland) return rerr(rule, def(u).label + " is not in overland supply");
      break;
    case kSupAirArmy:
      if (b.lw_defend) return rerr(rule, "no air army in a battle where a Luftwaffe marker is committed");
      break;
    case kSupInterceptor: {
      if (b.support & kSupportInterceptor) return rerr(rule, "already committed");
      const int moscow = data_->places.moscow;
      const int range = 5;  // 8.37: counted out from Moscow, the Moscow hex not counted
      bool in_range = moscow >= 0 && hex_distance(moscow, b.target) <= range;
      for (int i = 0; i < b.natt && in_range; ++i)
        in_range = hex_distance(moscow, unit(b.att[static_cast<size_t>(i)]).hex) <= range;
      if (!in_range) return rerr(rule, "the attackers and the target must all be within 5 hexes of Moscow");
      break;
    }
    case kSupPartisans:
      if (b.support & kSupportPartisans) return rerr(rule, "already committed");
      if (t.city || t.country != kUssr)
        return rerr(rule, "partisans support attacks on non-city hexes in the USSR");
      for (int i = 0; i < b.ndef; ++i)
        if (unit_supply(b.def[static_cast<size_t>(i)]) != kSupOverland)
          return rerr(rule, "partisans act only against defenders in overland supply");
      break;
    case kSupAirborne:
      if (b.support & kSupportAirborne) return rerr(rule, "already committed");
      if (t.city || t.country != kUssr)
        return rerr(rule, "airborne assaults go only into non-city hexes in the USSR");
      // 15.8 (1942 What If): "but not in any battle in which one or more Luftwaffe ground
      // support units are participating" (param airborne_no_luftwaffe).
      if (sparam("airborne_no_luftwaffe") > 0 && b.lw_defend)
        return rerr("15.8", "no airborne assault in a battle where a Luftwaffe marker is committed");
      break;
    default:
      break;
  }
  return Status::ok();
}

bool BdState::any_support() const {
  for (int k = kSupArtillery; k < kNumSupportKinds; ++k) {
    if (support_left(k) <= 0) continue;
    if (k == kSupArtillery || k == kSupAirArmy) {
      for (int i = 0; i < battle_.natt; ++i)
        if (check_support(k, battle_.att[static_cast<size_t>(i)]).is_ok()) return true;
    } else if (check_support(k, -1).is_ok()) {
      return true;
    }
  }
  return false;
}

// 8.38: the German has declared his Luftwaffe support; now the Soviet commits his markers
// (all of them at this point: ruling BD-SM1).
bool BdState::enter_support() {
  if (battle_.attacker != kSoviet || battle_.is_ma) return false;
  pending_ = kPendSupport;
  if (any_support()) return true;
  pending_ = kPendNone;
  return false;
}

void BdState::apply_support(Battle& b, int kind, int u) const {
  if (kind == kSupArtillery || kind == kSupAirArmy) {
    for (int i = 0; i < b.natt; ++i)
      if (b.att[static_cast<size_t>(i)] == u)
        b.boost[static_cast<size_t>(i)] |= kind == kSupArtillery ? kBoostArtillery : kBoostAirArmy;
  } else {
    b.support |= kind == kSupInterceptor ? kSupportInterceptor
                 : kind == kSupPartisans ? kSupportPartisans
                                         : kSupportAirborne;
  }
}

// ======================================================================= 8.26 Bulgarian armies

Status BdState::check_bulgaria_exit(int u) const {
  if (pending_ != kPendNone) return rerr("8.26", "finish the pending decision first");
  if (!is_move_phase() || phase_side() != kSoviet)
    return rerr("8.26", "a Soviet unit moves off the map into Bulgaria in a Soviet movement phase");
  if (bulg_state_ != 0) return rerr("8.26", "the Bulgarian armies have already been called");
  if (u < 0 || u >= num_units() || def(u).side != kSoviet) return rerr("8.26", "not a Soviet unit");
  const UnitSt& s = unit(u);
  const auto& ex = data_->places.bulgarian_exits;
  if (s.where != kOnMap || std::find(ex.begin(), ex.end(), s.hex) == ex.end())
    return rerr("8.26", def(u).label + " is not in a Bulgarian south-edge hex (3215-3218)");
  if (def(u).cls == kStatic || (s.flags & (kFlagDone | kFlagNoMove | kFlagSeaMoved)))
    return rerr("10.2", def(u).label + " may not move now");
  if (s.mp >= 0 && std::find(movers_.begin(), movers_.end(), u) == movers_.end())
    return rerr("10.2", def(u).label + " already finished its move");
  const int left = mp_left(u);
  if (left < 1) return rerr("8.26", "moving off the map costs 1 MP");
  return Status::ok();
}

Status BdState::check_bulgaria_return(int hex) const {
  if (pending_ != kPendNone) return rerr("8.26", "finish the pending decision first");
  if (bulg_state_ != 1) return rerr("8.26", "no Soviet unit is waiting in Bulgaria");
  if (!is_move_phase() || phase_side() != kSoviet || turn_ <= bulg_exit_turn_)
    return rerr("8.26", "the unit returns with the Bulgarians in the next Soviet movement phase");
  const auto& ex = data_->places.bulgarian_exits;
  if (hex < 0 || hex >= kNumHexes || !hx(hex).on_map || std::find(ex.begin(), ex.end(), hex) == ex.end())
    return rerr("8.26", "they return through a Bulgarian south-edge hex (3215-3218)");
  if (enemy_in(hex, kSoviet)) return rerr("8.26", hex_id(hex) + " holds enemy units");
  std::vector<int> add{bulg_unit_};
  for (int x = 0; x < num_units(); ++x)
    if (bulgarian(x) && unit(x).where == kOutOfPlay) add.push_back(x);
  // 6.4 is waived for this entry (8.26), 6.3 is not.
  compute_occupancy();
  int count = cache_.occ_count[static_cast<size_t>(hex)];
  for (int x : add)
    if (!def(x).free_stacking()) ++count;
  if (count > data_->stacking.units_per_hex)
    return rerr("6.3", "hex " + hex_id(hex) + " would hold " + std::to_string(count) + " units");
  return Status::ok();
}

// The return is made in the first Soviet movement phase after the exit, if a hex allows it.
bool BdState::bulgaria_return_due() const {
  if (bulg_state_ != 1 || !is_move_phase() || phase_side() != kSoviet || turn_ <= bulg_exit_turn_)
    return false;
  for (int h : data_->places.bulgarian_exits)
    if (check_bulgaria_return(h).is_ok()) return true;
  return false;
}

bool BdState::bulgaria_overstacked() const {
  if (bulg_hex_ < 0) return false;
  compute_occupancy();
  return cache_.occ_sats[static_cast<size_t>(bulg_hex_)] > data_->stacking.satellite_armies_per_hex;
}

void BdState::log(const std::string& kind, const std::string& text, const std::string& rule,
                  uint32_t vis) const {
  if (sink_ == nullptr) return;
  steppe::Event e;
  e.kind = kind;
  e.text = text;
  e.rule = rule;
  e.visible_to = vis;
  emit(std::move(e));
}

bool BdState::german_sees(int u) const {
  if (def(u).side == kGerman) return true;
  const UnitSt& s = unit(u);
  if (s.where == kDead || s.where == kDeadPerm || s.where == kCaucasus) return true;
  if (s.where != kOnMap) return false;  // 11.7 the RVGK and the Turn Record Track are hidden
  if (s.flags & kFlagRevealed) return true;
  for (int v = 0; v < num_units(); ++v)
    if (v != u && unit(v).where == kOnMap && unit(v).hex == s.hex && unit(v).order < s.order) return false;
  return true;
}

void BdState::log_seen(int u, const std::string& kind, const std::string& text,
                       const std::string& german_text, const std::string& rule) const {
  if (sink_ == nullptr) return;  // searches log nothing: no need to look at the stack
  if (german_sees(u))
    log(kind, text, rule);
  else
    log_fog(kind, text, german_text, rule);
}

void BdState::log_fog(const std::string& kind, const std::string& text, const std::string& german_text,
                      const std::string& rule) const {
  log(kind, text, rule, 1u << kSoviet);
  if (!german_text.empty()) log(kind, german_text, rule, 1u << kGerman);
}

// ======================================================================= 8.31, 8.32 TB / CM attachment

// 8.31 "atop any German corps ... the TB may not be directly attached to any Axis satellite
// army"; 8.32 "atop any Soviet army ... not ... any Communist satellite army". Ruling
// BD-TB2: a German "corps" is any German (not satellite) combat counter that moves and
// attacks: corps, Korps-/Kampfgruppen, emergency units, army detachments, groups; not the
// fortress and coastal commands. A Soviet "army" is a rifle, oversized, shock, Guards, tank
// or Guards tank army; not the ICA (it only switches ports), the LPMA (static) or the
// communist satellite armies.
bool BdState::eligible_parent(int s, int p) const {
  if (p < 0 || p >= num_units() || p == s || is_attachable(p)) return false;
  const UnitDef& d = def(p);
  if (d.side != def(s).side) return false;
  if (def(s).type == kTigerBattalion)
    return d.side == kGerman && !d.axis_satellite() && !d.satellite_army() && d.cls != kStatic &&
           d.type != kFortressCommand && d.type != kCoastalCommand && d.attack != 0;
  return soviet_field_army(d.type);
}

void BdState::attach(int s, int p) {
  UnitSt& st = units_[static_cast<size_t>(s)];
  st.parent = static_cast<int16_t>(p);
  st.where = kOnMap;
  st.hex = unit(p).hex;
  st.order = next_order_++;
  st.mp = -1;
  st.start_hex = unit(p).start_hex;
  mark_dirty();
}

// 8.31, 8.32: "TB always move with their supported corps": whatever moves or places the
// parent (a move, retreat, advance, mobile assault, sea or strategic move) brings it along.
void BdState::carry_attached(int p) {
  const int c = attached_of(p);
  if (c < 0) return;
  UnitSt& cs = units_[static_cast<size_t>(c)];
  if (cs.where == kOnMap && cs.hex == unit(p).hex) return;
  cs.where = kOnMap;
  cs.hex = unit(p).hex;
  cs.order = next_order_++;
  cs.flags = static_cast<uint16_t>(cs.flags & ~kFlagRevealed);
  mark_dirty();
}

// Ruling BD-TB3: where the rules place a TB / CM in a hex without naming its parent (a
// scenario's fixed or free set-up "atop any corps in the hex", ruling BD-TB1), it goes atop
// the eligible unit of the hex that has none: a mechanized one first (8.31, 8.32: it may then
// take part in mobile assaults), then the highest attack factor, then the top of the stack.
int BdState::default_parent(int s, int hex) const {
  if (hex < 0) return -1;
  int best = -1;
  for (int x = 0; x < num_units(); ++x) {
    if (unit(x).where != kOnMap || unit(x).hex != hex || !eligible_parent(s, x)) continue;
    if (const int c = attached_of(x); c >= 0 && c != s) continue;
    if (best < 0) {
      best = x;
      continue;
    }
    const UnitDef &a = def(x), &b = def(best);
    const int ka = a.cls == kMech ? 1 : 0, kb = b.cls == kMech ? 1 : 0;
    if (ka != kb ? ka > kb : a.attack != b.attack ? a.attack > b.attack : unit(x).order < unit(best).order)
      best = x;
  }
  return best;
}

void BdState::repoint_attached(int from, int to) {
  for (auto& st : units_)
    if (st.parent == from) st.parent = static_cast<int16_t>(to);
  mark_dirty();
}

// Ruling BD-TB1: a parent that leaves the map without being eliminated (withdrawn, into
// the Caucasus box, converted away) leaves its TB / CM behind: it goes atop another
// eligible unit of the hex that has none (ruling BD-TB3 picks which); if there is none it
// returns to the TRRT and arrives again next game turn (8.31, 8.32 arrival placement). A CM
// whose army goes into the RVGK goes into the RVGK with it (8.32: CM transfer via the RVGK).
// A TB or CM placed without a parent (scenario tests) is treated the same way.
void BdState::orphan_check() {
  for (int s = 0; s < num_units(); ++s) {
    if (!is_attachable(s)) continue;
    UnitSt& st = units_[static_cast<size_t>(s)];
    if (st.where != kOnMap) {
      st.parent = -1;
      continue;
    }
    const int p = st.parent;
    if (p >= 0 && unit(p).where == kOnMap && eligible_parent(s, p)) {
      if (unit(p).hex != st.hex) carry_attached(p);
      continue;
    }
    const char* rule = attach_rule(s);
    if (p >= 0 && def(s).type == kCmGroup && unit(p).where == kRvgk) {
      st.where = kRvgk;
      st.hex = -1;
      st.parent = -1;
      st.flags |= kFlagDone;  // 8.9 not out again in the same phase
      mark_dirty();
      log("rvgk", label(s) + " goes into the RVGK with " + label(p), "8.32", 1u << kSoviet);
      continue;
    }
    const int to = default_parent(s, st.hex);
    if (to >= 0) {
      st.parent = static_cast<int16_t>(to);
      mark_dirty();
      log("attach",
          label(s) + (p >= 0 ? " loses " + label(p) + " and" : "") + " goes atop " + label(to) +
              " (ruling BD-TB1)",
          rule, def(s).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
      continue;
    }
    st.where = turn_ < last_turn_ ? kTrrt : kOutOfPlay;
    st.turn = static_cast<int8_t>(turn_ + 1);
    st.hex = -1;
    st.parent = -1;
    mark_dirty();
    log("attach",
        label(s) + " has no " + (def(s).type == kCmGroup ? "army" : "corps") + " to stay with: " +
            (st.where == kTrrt ? "back to the TRRT, arrives next turn" : "out of play") + " (ruling BD-TB1)",
        rule);
  }
}

// 8.31, 8.32: an eliminated replaceable TB / CM returns d6 turns later as a reinforcement,
// or never if that is past the end of the scenario.
void BdState::support_lost(int s) {
  UnitSt& st = units_[static_cast<size_t>(s)];
  const char* rule = attach_rule(s);
  const int r = roll(6, label(s) + " return delay", rule);
  if (turn_ + r > last_turn_) {
    st.where = kDeadPerm;
    log("eliminate",
        label(s) + " would return on Game Turn " + std::to_string(turn_ + r) +
            ", after the end of the scenario: permanently eliminated",
        rule);
    return;
  }
  st.where = kTrrt;
  st.turn = static_cast<int8_t>(turn_ + r);
  log("reinforcement", label(s) + " returns as a reinforcement on Game Turn " + std::to_string(turn_ + r),
      rule);
}

Status BdState::check_attach(int s, int p) const {
  if (s < 0 || s >= num_units() || !is_attachable(s))
    return rerr("8.31", "attach <TB|CM> <corps|army>: only Tiger battalions and CM groups are attached");
  const UnitDef& d = def(s);
  const char* rule = attach_rule(s);
  const bool cm = d.type == kCmGroup;
  if (p < 0 || p >= num_units()) return rerr(rule, "unknown unit");
  if (!eligible_parent(s, p))
    return rerr(rule, def(p).label + " is not " +
                          (cm ? "a Soviet army (never a communist satellite army)"
                              : "a German corps (never an Axis satellite army)"));
  const UnitSt& ps = unit(p);
  if (ps.where != kOnMap) return rerr(rule, def(p).label + " is not on the map");
  const UnitSt& st = unit(s);
  if (st.parent == p && st.where == kOnMap) return rerr(rule, d.label + " is already atop " + def(p).label);
  compute_occupancy();
  const int there =
      cache_.occ_sup[static_cast<size_t>(ps.hex)] - (st.where == kOnMap && st.hex == ps.hex ? 1 : 0);
  if (there > 0)
    return rerr(rule, hex_id(ps.hex) + std::string(" already holds a ") +
                          (cm ? "CM group" : "Tiger battalion") + " (never more than one per stack)");
  const int side = d.side;
  const bool admin =
      (side == kGerman && phase_ == kAdminGerman) || (side == kSoviet && phase_ == kAdminSoviet);
  if (st.where == kTrrt) {  // arrival
    if (!admin) return rerr("5.2", "reinforcements arrive in the owner's administrative segment");
    if (st.turn > turn_) return rerr("8.1", d.label + " is not a reinforcement due now");
    if (unit_supply(p) != kSupOverland)
      return rerr(rule, def(p).label + " is not in overland supply: " + d.label + " arrives atop a " +
                            (cm ? "Soviet army" : "German corps") + " then in overland supply");
    return Status::ok();
  }
  if (!cm && st.where == kOnMap && phase_ == kGermanStrategic) {  // 8.31 via strategic movement (8.6)
    if (st.flags & kFlagDone) return rerr("8.6", d.label + " already moved strategically");
    const int from = st.hex;
    if (!hx(from).city || hex_.control[static_cast<size_t>(from)] != kGerman || !overland(from, kGerman))
      return rerr("8.6", "strategic movement starts in a German-controlled city with overland supply");
    if (strat_used_ + strategic_cost(s) > 8)
      return rerr("8.7", "8 strategic movement units per player turn (mech 2, satellite army 4)");
    if (ps.hex != from) {
      std::vector<uint8_t> ok;
      strategic_reach(s, ok);
      if (!ok[static_cast<size_t>(ps.hex)])
        return rerr("8.6", "no strategic route to " + hex_id(ps.hex) +
                               " (not adjacent to the enemy except at its ends)");
    }
    return Status::ok();
  }
  if (cm && st.where == kRvgk && phase_ == kSovietRvgk) {  // 8.32 via the RVGK
    if (rvgk_moves_ >= 5) return rerr("8.9", "5 units per RVGK Phase");
    if (st.flags & kFlagDone) return rerr("8.9", "no unit goes in and out in the same phase");
    if (unit_supply(p) != kSupOverland) return rerr("8.32", def(p).label + " is not in overland supply");
    return Status::ok();
  }
  if (st.where == kOnMap)
    return rerr(rule,
                cm ? d.label + " changes army only through the RVGK (rvgk-in " + d.label +
                         ", then attach it in a later RVGK Phase)"
                   : d.label + " changes corps only by strategic movement (German Strategic Movement Phase)");
  return rerr(rule, d.label + " is not a reinforcement due now");
}

// 2.5/8.12 dotted units never return; 8.22 oversized armies eliminated GT1-3 are replaced
// by their regular counterpart in the dead pile; 8.14 from GT28 German units eliminated
// out of overland supply are permanently gone.
void BdState::eliminate(int u, const char* rule) {
  UnitSt& s = units_[static_cast<size_t>(u)];
  const UnitDef& d = def(u);
  if (is_attachable(u) && s.where != kOnMap) return;  // 8.31, 8.32 already gone with its parent
  const bool was_on_map = s.where == kOnMap;
  const int child = was_on_map ? attached_of(u) : -1;
  int sup = was_on_map ? unit_supply(u) : kSupOverland;
  bool permanent = d.dotted;
  if (d.side == kGerman && turn_ >= 28 && sup != kSupOverland) permanent = true;
  if (d.type == kFortressCommand || d.type == kMilitiaArmy || d.type == kCounterFireCorps ||
      d.type == kCavalryGroup)
    permanent = true;
  s.where = permanent ? kDeadPerm : kDead;
  s.hex = -1;
  s.mp = -1;
  s.parent = -1;
  mark_dirty();
  if (d.returns_once && !permanent) returns_once(u, sup);  // 8.15
  if (d.side == kSoviet)                                   // 4.19: printed CF above 3 counts as two units
    soviet_losses_ = static_cast<int16_t>(
        soviet_losses_ + (std::max(d.attack, d.defense) > data_->victory.oder_big_cf ? 2 : 1));
  if (sink_ != nullptr) {
    steppe::Event e;
    e.kind = "eliminate";
    e.text =
        std::string(side_name(d.side)) + " " + d.label + " eliminated" + (permanent ? " permanently" : "");
    e.rule = rule;
    // For the losses plot: one unit, one step (every unit has one step, 2.12).
    e.data = Json{{"loss", {{"side", side_name(d.side)}, {"units", 1}, {"steps", 1}}}};
    emit(std::move(e));
  }
  // 14.10: every five Soviet units eliminated while out of supply count as one city taken.
  if (d.side == kSoviet && was_on_map && sup == kSupOos && sparam("oos_kills_per_city") > 0) {
    ++oos_kills_;
    log("victory",
        d.label + " was out of supply: Soviet units eliminated out of supply " + std::to_string(oos_kills_),
        "14.10");
  }
  if (d.type == kOversizedRifleArmy && turn_ <= 3 && d.counterpart >= 0) {  // 8.22
    s.where = kDeadPerm;
    units_[static_cast<size_t>(d.counterpart)].where = kDead;
  }
  if (d.type == kTankArmy && d.counterpart >= 0) guards_tank_conversions();  // 8.19 a waiting conversion
  if (is_attachable(u) && !permanent) support_lost(u);                       // 8.31, 8.32 the d6 return
  if (child >= 0) {  // 8.31, 8.32: "attached TB share the fate of their parent corps"
    log("eliminate", label(child) + " shares the fate of " + d.label, attach_rule(child));
    eliminate(child, attach_rule(child));
  }
}

}  // namespace bd
