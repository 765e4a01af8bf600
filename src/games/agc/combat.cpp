// 15.0 Combat and 16.0 Combat Results: the odds on the CRT (crt.json), the d10 and the
// final DRM (15.7), step losses (16.3), elimination (16.4) and retreats (16.6).
// Only declared attacks are made (12.0, declaration.cpp); the defender's committed artillery
// (14.2, 15.5.5) and retreat Orders (14.3, 16.6.1, 15.6.2) come from reaction.cpp. The terrain
// halvings (15.5.2) and the terrain DRMs (15.6.1) are read from cec.json. Attack supply (6.8),
// attacker artillery (15.4), air, attacker Orders (15.5.8) and the '*' conditions (16.5.1) are
// not in this version. Advance after combat (16.7) is the attacker's decision
// (the advance and hold verbs) after a combat that vacates the defender hex.
#include <algorithm>

#include "games/agc/agc.h"

namespace agc {

using steppe::Error;
using steppe::Status;

void AgcState::attackers_of(int hex, std::vector<int>& out) const {
  out.clear();
  const int side = side_of_phase();
  for (size_t u = 0; u < us_.size(); ++u) {
    const auto& s = us_[u];
    if (g_->units_[u].side != side || s.hex < 0 || s.attacked || attack_of(static_cast<int>(u)) <= 0)
      continue;
    if (!g_->grid_.adjacent(s.hex, hex)) continue;
    // cec.json all-lake: no attack across a lake hexside except in Snow (12.5 example).
    if (g_->all_lake_.test(s.hex, g_->grid_.direction(s.hex, hex)) && !g_->lake_attack_open_[weather()])
      continue;
    // 12.5: "Eligible enemy-occupied hexes must meet one of two conditions": Condition One, the
    // enemy units in the hex project a ZOC into the attacker's hex (12.5.1); Condition Two, the
    // hex and hexside terrain let the unit enter the hex (12.5.2). Neither: 12.6.1.
    if (!projects_zoc_into(hex, s.hex) && move_cost(static_cast<int>(u), s.hex, hex).halves < 0) continue;
    out.push_back(static_cast<int>(u));
  }
}

// 12.5.1: do the units in `from` project a ZOC into the adjacent hex `into` (3.0f.2: the hex has
// a ZOC-exerting ground combat unit; 3.0f.3-4, 10.6: terrain, weather, Mud motorized limits)?
bool AgcState::projects_zoc_into(int from, int into) const {
  const int dir = g_->grid_.direction(from, into);
  if (dir < 0) return false;
  bool zoc = false, all_motorized = true;
  for (size_t u = 0; u < us_.size(); ++u) {
    if (us_[u].hex != from || !g_->units_[u].combat) continue;
    zoc = zoc || g_->units_[u].zoc;
    all_motorized = all_motorized && g_->units_[u].cls == kMotorized;
  }
  return zoc && projects_zoc(from, dir, all_motorized);
}

// 15.5.2 (Combat Effects Chart): a unit's attack is halved a) attacking from a swamp hex,
// b) across a major-river hexside except in Snow, c) an armor unit attacking into a city or
// major city. Halvings do not compound here (one halving per unit): ruling A-34.
int AgcState::attack_halves(int u, int hex) const {
  const int from = us_[u].hex;
  const int dir = g_->grid_.direction(from, hex);
  const bool halved =
      g_->terrain_attack_from_halved_[g_->terrain_[from]] != 0 ||
      (dir >= 0 && g_->major_river_.test(from, dir) && g_->major_river_attack_halved_[weather()]) ||
      (g_->units_[u].armor && g_->settlement_armor_halved_[g_->settlement_[hex]]);
  return halved ? attack_of(u) : 2 * attack_of(u);
}

void AgcState::defenders_of(int hex, std::vector<int>& out) const {
  out.clear();
  for (size_t u = 0; u < us_.size(); ++u)
    if (us_[u].hex == hex) out.push_back(static_cast<int>(u));
}

// 15.0: "The Attacking player executes the attacks declared during the movement phase in any
// order desired." `attack HEX` resolves the declared attack (12.0) whose markers include HEX.
Status AgcState::check_attack(int hex) const {
  if (!combat_phase()) return Error{"attacks are made in the Combat Phase", "4.2", ""};
  if (air_step_ != 2)
    return Error{
        "the CAS missions are allocated and flown before the declared attacks are resolved (ruling A-46)",
        "15.1.1, 17.1.7", ""};
  const int i = declaration_of(hex);
  if (i < 0) {
    if (attacked_hex_[hex] != 0)
      return Error{g_->grid_.id(hex) + " was already attacked this phase", "15.2.3", ""};
    return Error{g_->grid_.id(hex) +
                     " bears no Declared Attack marker: an attack must be declared before it can "
                     "take place",
                 "12.0, 15.0", ""};
  }
  if (decl_[i].resolved) return Error{g_->grid_.id(hex) + " was already attacked this phase", "15.2.3", ""};
  // 16.7.1: "A player must exercise the option to advance immediately, before resolving any
  // other combats."
  if (advance_hex_ >= 0)
    return Error{"the advance into " + g_->grid_.id(advance_hex_) +
                     " comes first: advance UNIT or hold before the next combat",
                 "16.7.1", ""};
  std::vector<int> att, def;
  int a = 0, d = 0;
  combat_force(i, att, def, a, d);
  if (def.empty()) return Error{"no enemy unit is left in " + g_->grid_.id(hex), "15.0", ""};
  if (att.empty())
    return Error{"no designated unit can attack " + g_->grid_.id(hex) + " any more", "15.2.1", ""};
  return Status::ok();
}

// 15.2.1: the participants are the designated units (12.3.3) still adjacent to every defender
// hex and able to attack it (12.5, 12.8); 12.3.6: "If the friendly attack and support factors
// are available to allow an attack to take place at one to four odds they must be used": below
// one to four, undesignated eligible units join until it is reached. 15.5.5a: the defender adds
// the artillery support committed in the Reaction Phase (14.2); committed artillery in the
// defender hex gives its support instead of its defense (ruling A-18), and artillery outside it
// now in an enemy ZOC no longer contributes (15.5.5 Note).
void AgcState::combat_force(int decl, std::vector<int>& att, std::vector<int>& def, int& a, int& d) const {
  att.clear();
  def.clear();
  const Declared& x = decl_[decl];
  const int enemy = 1 - attacker_side();
  std::vector<int> live;
  for (int h : x.hexes)
    if (stack_[enemy][h] != 0) live.push_back(h);
  if (live.empty()) {
    a = d = 0;
    return;
  }
  auto eligible = [&](int u) {
    if (us_[u].hex < 0 || us_[u].attacked || g_->units_[u].side != attacker_side() || g_->units_[u].artillery)
      return false;
    return std::all_of(live.begin(), live.end(), [&](int h) { return may_attack_into(u, h); });
  };
  for (int u : x.units)
    if (eligible(u)) att.push_back(u);
  for (int h : live)
    for (size_t u = 0; u < us_.size(); ++u)
      if (us_[u].hex == h) def.push_back(static_cast<int>(u));
  auto committed = [&](int u) { return std::find(x.support.begin(), x.support.end(), u) != x.support.end(); };
  d = 0;
  for (int u : def)
    if (!committed(u)) d += 2 * defense_of(u);
  std::vector<int> support;
  for (int u : x.support) {
    if (us_[u].hex < 0 || us_[u].out_of_supply) continue;  // 6.7.4
    const bool in_hex = std::find(live.begin(), live.end(), us_[u].hex) != live.end();
    if (!in_hex && in_enemy_zoc(us_[u].hex, g_->units_[u].side)) continue;  // 15.5.5 Note
    support.push_back(u);
  }
  // 13.2.5d: each point an Interdiction takes off a Soviet HQ's command value takes away "multiple
  // artillery units stacked with an HQ" their support: "The Axis player determines which Soviet
  // artillery units are interdicted" (here the strongest, ruling A-50). "Note: Because one
  // supplied, in-range artillery unit may always support a combat, even if all available Soviet
  // artillery is interdicted, one artillery unit (Axis player's choice) may still support" (the
  // weakest).
  std::vector<int> interdicted;
  for (size_t h = 0; h < us_.size(); ++h) {
    const auto& hd = g_->units_[h];
    if (!hd.hq || hd.side != kSoviet || us_[h].hex < 0) continue;
    const int cut = hd.command_value - command_value(static_cast<int>(h));
    if (cut <= 0) continue;
    std::vector<int> stacked;
    for (int u : support)
      if (g_->units_[u].side == kSoviet && us_[u].hex == us_[h].hex) stacked.push_back(u);
    std::stable_sort(stacked.begin(), stacked.end(),
                     [&](int p, int q) { return support_of(p) > support_of(q); });
    for (int k = 0; k < cut && k < static_cast<int>(stacked.size()); ++k) interdicted.push_back(stacked[k]);
  }
  if (!support.empty() && interdicted.size() == support.size()) {
    auto weakest = std::min_element(interdicted.begin(), interdicted.end(),
                                    [&](int p, int q) { return support_of(p) < support_of(q); });
    interdicted.erase(weakest);
  }
  for (int u : support) {
    if (std::find(interdicted.begin(), interdicted.end(), u) != interdicted.end()) {
      // an interdicted artillery unit in the defender hex defends with its defense strength
      if (std::find(live.begin(), live.end(), us_[u].hex) != live.end()) d += 2 * defense_of(u);
      continue;
    }
    d += 2 * support_of(u);
  }
  a = 0;
  for (int u : att) a += attack_halves(u, live[0]);
  if (att.empty() || odds_column(a, d) >= 0) return;
  for (size_t u = 0; u < us_.size() && odds_column(a, d) < 0; ++u) {
    const int v = static_cast<int>(u);
    if (std::find(att.begin(), att.end(), v) != att.end() || !eligible(v)) continue;
    bool designated = false;
    for (const auto& y : decl_)
      if (!y.resolved && std::find(y.units.begin(), y.units.end(), v) != y.units.end()) designated = true;
    if (designated) continue;
    att.push_back(v);
    a += attack_halves(v, live[0]);
  }
}

int AgcState::odds_column(int att, int def) const {
  // 15.5.7: odds rounded down to a column; below 1-4 the attacker is eliminated; above
  // 10-1 reads 10-1.
  int col = -1;
  for (size_t c = 0; c < g_->crt_columns_.size(); ++c) {
    const auto [a, b] = g_->crt_columns_[c];
    if (static_cast<int64_t>(att) * b >= static_cast<int64_t>(def) * a) col = static_cast<int>(c);
  }
  return col;
}

int AgcState::combat_drm(int hex, const std::vector<int>& attackers) const {
  int drm = g_->terrain_drm_[g_->terrain_[hex]];  // 15.6.1a: the hex's terrain DRM (CEC)
  // 15.6.1b-c: a river hexside DRM only when "all attacking units must attack through it";
  // it adds to the hex DRM ("hill behind a river").
  bool all_across = !attackers.empty();
  for (int u : attackers) {
    const int dir = g_->grid_.direction(us_[u].hex, hex);
    if (dir < 0 || !g_->river_.test(us_[u].hex, dir)) all_across = false;
  }
  if (all_across) drm += g_->river_drm_;
  // 18.3.6: "Units defending in a hex containing a Strongpoint cause a +1 DRM"; 11.4.4d: "Attacks
  // and overruns against a unit that already bears an Overrun marker receive a -1 DRM".
  const int owner = occupant(hex);
  if (owner != kNoSide && strongpoint(hex, owner)) drm += g_->strongpoint_drm_;
  for (size_t u = 0; u < us_.size(); ++u)
    if (us_[u].hex == hex && us_[u].overrun) {
      drm += g_->overrun_marked_drm_;
      break;
    }
  for (size_t u = 0; u < us_.size(); ++u)
    if (us_[u].hex == hex && us_[u].out_of_supply) {
      drm += g_->drm_defender_out_of_supply_;  // 6.7.5
      break;
    }
  return std::clamp(drm, -g_->drm_limit_, g_->drm_limit_);  // 15.7
}

namespace {
// "2R" -> 2 steps and a retreat; "e" -> eliminated; "----" -> nothing (16.1 key).
struct Effect {
  int steps = 0;
  bool retreat = false, eliminated = false;
};
Effect effect_of(const std::string& code) {
  Effect e;
  if (code == "e") e.eliminated = true;
  for (char c : code) {
    if (c >= '1' && c <= '9') e.steps = c - '0';
    if (c == 'R') e.retreat = true;
  }
  return e;
}
}  // namespace

void AgcState::do_attack(int hex) {
  const int di = declaration_of(hex);
  // 15.5.4, 22.9.1: Untried units in the defender hexes are flipped during odds determination.
  for (size_t u = 0; u < us_.size(); ++u)
    if (untried(static_cast<int>(u)) && us_[u].hex >= 0 &&
        std::find(decl_[di].hexes.begin(), decl_[di].hexes.end(), us_[u].hex) != decl_[di].hexes.end())
      reveal(static_cast<int>(u), "15.5.4");
  std::vector<int> att, def;
  int a = 0, d = 0;  // in halves (15.5.2)
  combat_force(di, att, def, a, d);
  decl_[di].resolved = true;
  if (decl_[di].mandated && mandated_owed_ > 0) --mandated_owed_;  // 7.1.1e: the Mandated Attack is made
  std::vector<int> hexes;
  for (int h : decl_[di].hexes) {
    attacked_hex_[h] = 1;
    if (stack_[1 - attacker_side()][h] != 0) hexes.push_back(h);
  }
  hexes.resize(std::max<size_t>(hexes.size(), 1), hex);
  for (int u : att) us_[u].attacked = true;
  const int col = odds_column(a, d);  // 15.5.7: below 1-4 the attacker is eliminated
  std::string acode = "e", dcode = "----";
  int roll_v = 0, row = 0;
  // 15.6.1a: the defender's terrain; of several defender hexes (12.8) the highest.
  int drm = -g_->drm_limit_;
  for (int h : hexes) drm = std::max(drm, combat_drm(h, att));
  const Order order = order_of(di);
  if (order == kNoRetreat) drm = std::min(g_->drm_limit_, drm + g_->drm_no_retreat_);  // 15.6.2
  // 15.6.5: "Each Attacker CAS point equals a minus one (-1) DRM. Each Defender CAS point equals a
  // plus one (+1) DRM." (the net CAS of 15.1.2); 15.7: never beyond +3 or -3.
  if (decl_[di].cas != 0) {
    drm = std::clamp(drm - decl_[di].cas, -g_->drm_limit_, g_->drm_limit_);
    emit({"combat",
          "net CAS DRM " + std::to_string(-decl_[di].cas) + " at " + g_->grid_.id(hex),
          "15.6.5",
          0xFFFFFFFFu,
          false,
          {}});
  }
  if (col >= 0) {
    roll_v = roll(10, "combat at " + g_->grid_.id(hex), "15.8");
    row = std::clamp(roll_v + drm, 0, 11);  // 15.8; the die's 0 reads 10 (2.5.1)
    acode = g_->crt_[col][row].first;
    dcode = g_->crt_[col][row].second;
  }
  std::string where;
  for (int h : hexes) where += (where.empty() ? "" : "+") + g_->grid_.id(h);
  emit({"combat",
        std::to_string(a / 2) + (a % 2 != 0 ? ".5" : "") + " vs " + std::to_string(d / 2) + " at " + where +
            ": column " + (col >= 0 ? std::to_string(col) : std::string("below 1-4")) + ", row " +
            std::to_string(row) + " -> " + acode + "/" + dcode,
        "15.8",
        0xFFFFFFFFu,
        false,
        {}});
  // `from` < 0: each unit retreats away from the hex it occupied during the Declared Attack
  // (16.6.1); else away from `from`.
  auto apply_to = [&](std::vector<int>& force, const Effect& e, int from, int hexes_back, bool additional) {
    if (e.eliminated) {
      for (int u : force)
        while (us_[u].hex >= 0) lose_step(u, "16.4");
      return;
    }
    for (int k = 0; k < e.steps; ++k) {
      // 16.3: the owner takes losses; here from the unit with the most steps left.
      int best = -1;
      for (int u : force)
        if (us_[u].hex >= 0 && (best < 0 || steps_left(u) > steps_left(best))) best = u;
      if (best < 0) break;
      lose_step(best, "16.3");
    }
    if (e.retreat)
      for (int u : force)
        if (us_[u].hex >= 0) retreat(u, from >= 0 ? from : us_[u].hex, hexes_back, additional);  // 16.6.1
  };
  Effect de = effect_of(dcode);
  const Effect ae = effect_of(acode);
  bool additional = false;
  if (de.retreat && order == kNoRetreat) {
    // 16.6.1 Exception 1: "Units bearing a No Retreat marker ... are not required to retreat when
    // they receive an 'R' result. Remove the No Retreat marker and apply one step loss in addition
    // to the printed combat result." a./b. (ruling A-9): one more unless all are German or all the
    // defending units occupy protective terrain.
    de.retreat = false;
    de.steps += 1;
    const bool all_german = std::all_of(def.begin(), def.end(), [&](int u) { return g_->units_[u].german; });
    const bool protective = std::all_of(hexes.begin(), hexes.end(), [&](int h) {
      return g_->terrain_protective_[g_->terrain_[h]] != 0 || g_->settlement_protective_[g_->settlement_[h]];
    });
    if (!all_german && !protective) de.steps += 1;
    emit({"retreat",
          "No Retreat: the defender stands and loses " + std::to_string(de.steps) + " step(s)",
          "16.6.1",
          0xFFFFFFFFu,
          false,
          {}});
  } else if (de.retreat && order == kAdditionalRetreat) {
    // 16.6.1 Exception 2: three hexes instead of two; c. "If the combat result for the force
    // contains both an 'R' result and a numerical result ... the number of steps lost is reduced
    // by one."
    additional = true;
    if (de.steps > 0) --de.steps;
    emit({"retreat",
          "Additional Retreat: the defender retreats " + std::to_string(g_->additional_retreat_hexes_) +
              " hexes and loses " + std::to_string(de.steps) + " step(s)",
          "16.6.1",
          0xFFFFFFFFu,
          false,
          {}});
  }
  apply_to(def, de, -1, additional ? g_->additional_retreat_hexes_ : g_->retreat_hexes_, additional);
  // The attacker's loss falls on the attacking force as a whole (16.3).
  if (ae.eliminated || ae.steps > 0 || ae.retreat) {
    Effect steps_only = ae;
    steps_only.retreat = false;
    apply_to(att, steps_only, -1, 0, false);
    if (ae.retreat)
      for (int u : att)
        if (us_[u].hex >= 0) retreat(u, hexes[0], g_->retreat_hexes_);
  }
  rebuild_occupancy();
  // 16.7: "When any defender hex is vacated as a result of combat, attacking units can advance
  // into that hex". 16.7.2: only the victorious non-artillery attackers of this combat: those
  // still in the hex they attacked from (ruling A-40). Of several vacated hexes (12.8) the
  // advance is into the first (ruling A-43).
  int vacated = -1;
  for (int h : hexes)
    if (vacated < 0 && stack_[1 - attacker_side()][h] == 0) vacated = h;
  if (vacated < 0) return;
  bool any = false;
  for (int u : att)
    if (us_[u].hex >= 0 && !ae.retreat && !g_->units_[u].artillery &&
        g_->grid_.adjacent(us_[u].hex, vacated)) {
      us_[u].may_advance = true;
      any = true;
    }
  if (!any) return;
  advance_hex_ = vacated;
  emit({"advance",
        g_->grid_.id(vacated) + " is vacated: the attacker may advance into it",
        "16.7",
        0xFFFFFFFFu,
        false,
        {}});
}

// 16.7.2-16.7.4: one victorious attacker moves into the vacated hex it attacked, ignoring enemy
// ZOC, within the terrain prohibitions (no MPs are paid) and the stacking limit.
Status AgcState::check_advance(int u) const {
  if (advance_hex_ < 0)
    return Error{"no advance after combat is open: only right after a combat vacates the defender hex",
                 "16.7.1", ""};
  const auto& d = g_->units_[u];
  if (!us_[u].may_advance) {
    if (d.side == side_of_phase() && d.artillery && us_[u].attacked && us_[u].hex >= 0 &&
        g_->grid_.adjacent(us_[u].hex, advance_hex_))
      return Error{d.label + " is artillery: only non-artillery attacking units can advance", "16.7.2", ""};
    return Error{d.label + " is not a victorious attacker of the combat at " + g_->grid_.id(advance_hex_) +
                     ": only the units that participated in that combat can advance",
                 "16.7.2", ""};
  }
  const MoveCost mc = move_cost(u, us_[u].hex, advance_hex_);
  if (mc.halves < 0 || terrain_halves(u, advance_hex_) < 0)
    return Error{d.label + " cannot enter " + g_->grid_.id(advance_hex_) + ": the terrain prohibits it",
                 "16.7", mc.rule};
  if (stack_[d.side][advance_hex_] + d.stacking > g_->stacking_limit_)
    return Error{d.label + " would overstack " + g_->grid_.id(advance_hex_) + " (" +
                     std::to_string(stack_[d.side][advance_hex_] + d.stacking) + " stacking points, limit " +
                     std::to_string(g_->stacking_limit_) + ")",
                 "16.7.4", "3.0e"};
  return Status::ok();
}

void AgcState::do_advance(int u) {
  const int hex = advance_hex_;
  const auto& d = g_->units_[u];
  stack_[d.side][us_[u].hex] = static_cast<uint8_t>(stack_[d.side][us_[u].hex] - d.stacking);
  place(u, hex);
  stack_[d.side][hex] = static_cast<uint8_t>(stack_[d.side][hex] + d.stacking);
  us_[u].may_advance = false;
  us_[u].attacked = true;  // 16.7.1: "After advancing, units cannot attack again in that phase"
  emit({"advance", d.label + " advances into " + g_->grid_.id(hex), "16.7.3", 0xFFFFFFFFu, false, {}});
  rebuild_occupancy();
  // The advance closes when every eligible unit has advanced; else at hold or end (16.7.1).
  if (std::none_of(us_.begin(), us_.end(), [](const UnitState& s) { return s.may_advance; })) close_advance();
}

void AgcState::do_hold() {
  emit(
      {"advance", "no further advance into " + g_->grid_.id(advance_hex_), "16.7.1", 0xFFFFFFFFu, false, {}});
  close_advance();
}

void AgcState::close_advance() {
  if (advance_hex_ < 0) return;
  for (auto& s : us_) s.may_advance = false;
  advance_hex_ = -1;
}

// 16.6: retreat `hexes` hexes, each farther from `from`, never into enemy units, preferring
// hexes free of enemy ZOC. Through two consecutive vacant enemy-ZOC hexes, or with no hex to go
// to, the unit is eliminated (16.6.5, 16.6.2); through one, it loses a step and rolls on the
// Retreat Table (16.6.6; its DRMs are not applied yet). 16.6.7: it may pass through a friendly
// hex over the stacking limit but not end there: overstacked in its last hex it retreats one
// hex more, and overstacked in that third hex it goes to the Cadre Box.
void AgcState::retreat(int u, int from_hex, int hexes, bool additional) {
  const auto& d = g_->units_[u];
  // 16.6.2: "zero MA units ... are removed if forced to retreat."
  if (d.ma == 0) {
    emit({"retreat",
          d.label + " has no movement allowance and cannot retreat",
          "16.6.2",
          0xFFFFFFFFu,
          false,
          {}});
    while (us_[u].hex >= 0) lose_step(u, "16.6.2");
    return;
  }
  int zoc_hexes = 0;
  bool last_in_zoc = false;
  bool extended = false;
  for (int k = 0; k < hexes && us_[u].hex >= 0; ++k) {
    const int at = us_[u].hex;
    const bool last = k + 1 == hexes;
    int best = -1, best_score = 1 << 30;
    bool best_zoc = false, best_over = false;
    for (int dir = 0; dir < 6; ++dir) {
      const int nb = g_->grid_.neighbour(at, dir);
      if (nb < 0 || stack_[1 - d.side][nb] != 0) continue;
      if (g_->grid_.distance(nb, from_hex) <= g_->grid_.distance(at, from_hex)) continue;
      if (enter_cost(u, at, nb) < 0) continue;
      // 16.6.4: friendly units in the hex negate the enemy ZOC.
      const bool zoc = in_enemy_zoc(nb, d.side) && stack_[d.side][nb] == 0;
      const bool over = stack_[d.side][nb] + d.stacking > g_->stacking_limit_;
      // A second consecutive ZOC hex eliminates (16.6.5); ending overstacked costs a hex more
      // (16.6.7); one ZOC hex costs a step and a roll (16.6.6).
      const int score =
          (zoc && last_in_zoc ? 8 : 0) + (over && last ? 4 : 0) + (zoc ? 2 : 0) + (over ? 1 : 0);
      if (score < best_score) {
        best = nb;
        best_score = score;
        best_zoc = zoc;
        best_over = over;
      }
    }
    // 16.6.1 Exception 2b: "Units bearing Additional Retreat markers cannot retreat through even
    // one hex in an uncontested enemy ZOC".
    if (best >= 0 && best_zoc && additional) {
      emit({"retreat",
            d.label + " bears an Additional Retreat marker and cannot retreat through an enemy ZOC",
            "16.6.1",
            0xFFFFFFFFu,
            false,
            {}});
      while (us_[u].hex >= 0) lose_step(u, "16.6.1");
      return;
    }
    if (best < 0 || (best_zoc && last_in_zoc)) {
      emit({"retreat",
            d.label + (best < 0 ? " has no hex to retreat to" : " would retreat through two enemy ZOC hexes"),
            best < 0 ? "16.6.2" : "16.6.5",
            0xFFFFFFFFu,
            false,
            {}});
      while (us_[u].hex >= 0) lose_step(u, best < 0 ? "16.6.2" : "16.6.5");
      return;
    }
    stack_[d.side][at] = static_cast<uint8_t>(stack_[d.side][at] - d.stacking);
    place(u, best);
    stack_[d.side][best] = static_cast<uint8_t>(stack_[d.side][best] + d.stacking);
    emit({"retreat", d.label + " retreats to " + g_->grid_.id(best), "16.6", 0xFFFFFFFFu, false, {}});
    if (best_zoc && d.hq) make_nonop(u, "it retreated through a vacant hex in an Axis ZOC", "22.2.3c");
    last_in_zoc = best_zoc;
    zoc_hexes += best_zoc ? 1 : 0;
    if (last && best_over) {
      if (extended) {  // 16.6.7: "If still over-stacked in the third hex, it is removed"
        emit({"retreat",
              d.label + " is still overstacked in the third hex: to the Cadre Box",
              "16.6.7",
              0xFFFFFFFFu,
              false,
              {}});
        stack_[d.side][best] = static_cast<uint8_t>(stack_[d.side][best] - d.stacking);
        while (us_[u].hex >= 0) lose_step(u, "16.6.7");
        return;
      }
      // 16.6.7: "If it has no alternative but to be overstacked in the second hex of retreat,
      // move it one extra hex away from its original combat position."
      emit({"retreat",
            d.label + " would end overstacked: it retreats one hex more",
            "16.6.7",
            0xFFFFFFFFu,
            false,
            {}});
      extended = true;
      ++hexes;
    }
  }
  if (zoc_hexes > 0 && us_[u].hex >= 0) {
    lose_step(u, "16.6.6");  // 16.6.6.1: automatic step loss
    if (us_[u].hex < 0) return;
    const int r = roll(10, d.label + " retreats through an enemy ZOC", "16.6.6");
    if (r > g_->retreat_safe_max_) {
      emit({"retreat", d.label + " goes to the Cadre Box", "16.6.6", 0xFFFFFFFFu, false, {}});
      while (us_[u].hex >= 0) lose_step(u, "16.6.6");
    }
  }
}

}  // namespace agc
