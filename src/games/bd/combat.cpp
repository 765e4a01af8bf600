// Barbarossa Deluxe rules: combat (10.23-11.33).
// Section numbers are the rulebook's (seeds/000); where the text is silent or ambiguous
// the choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_internal.h"

namespace bd {

// ======================================================================= combat (10.23-11.33)

// 10.23: German mech MA in every single-month turn; Soviet mech from GT25.
bool BdState::ma_allowed_now(int side) const {
  if (side == kGerman) return ti().single && !(turn_ == 3 && paulus_ == 1);
  return turn_ >= 25;
}

// 10.24: entering the enemy hex costs its terrain and river cost plus 2 (3 with a city or
// fortified line) MP (ruling BD-1).
int BdState::ma_cost(int u, int launch, int target) const {
  const UnitDef& d = def(u);
  const int dir = direction(launch, target);
  if (dir < 0) return -1;
  const HexInfo& a = hx(launch);
  const HexInfo& b = hx(target);
  if (!b.on_map || data_->tec.prohibited[b.terrain]) return -1;
  if ((a.sea_side >> dir) & 1u || (a.lake_side >> dir) & 1u) return -1;  // 10.25
  const Places& pl = data_->places;
  if (pl.strait(launch, target)) return -1;  // 11.17, 11.18: mech never attack across
  Terrain t = b.terrain;
  if (t == kMarsh && d.side == kGerman && turn_ == 1 &&
      std::find(pl.gt1_marsh.begin(), pl.gt1_marsh.end(), target) != pl.gt1_marsh.end())
    t = kClear;                              // 5.13
  if (!data_->tec.ma_allowed[t]) return -1;  // 10.25 clear terrain only
  const int cls = d.cls == kMech ? kMech : kNonMech;
  int cost = data_->tec.mp[t][cls];
  if (((a.river >> dir) & 1u) && !(turn_ == 1 && d.side == kGerman)) cost += data_->tec.river_mp[cls];
  const bool line = b.fortified >= 0 && b.fortified != d.side;
  cost += (b.city || line) ? data_->tec.ma_extra_city : data_->tec.ma_extra_clear;
  return cost;
}

// 10.34: each Soviet Movement Phase the ICA may switch between Soviet-controlled Odessa and
// Sevastopol (it never enters one that has fallen).
Status BdState::check_ica_switch(int u, int h) const {
  const Places& pl = data_->places;
  const UnitSt& s = unit(u);
  if (!is_move_phase() || phase_side() != kSoviet)
    return rerr("10.34", "the ICA switches ports in a Soviet Movement Phase");
  if (s.where != kOnMap || (s.hex != pl.odessa && s.hex != pl.sevastopol))
    return rerr("10.34", "the ICA is not in Odessa or Sevastopol");
  if (s.flags & (kFlagDone | kFlagNoMove)) return rerr("10.34", "the ICA already switched ports this phase");
  const int other_port = s.hex == pl.odessa ? pl.sevastopol : pl.odessa;
  if (h != other_port) return rerr("10.34", "the ICA switches only between Odessa and Sevastopol");
  if (hex_.control[static_cast<size_t>(h)] != kSoviet || enemy_in(h, kSoviet))
    return rerr("10.34", hex_id(h) + " has fallen: the ICA may not enter it");
  std::vector<int> add{u};
  return stacking_ok(h, kSoviet, add);
}

int BdState::sea_of(int hex) const {
  const auto& seas = data_->places.sea_ports;
  for (size_t i = 0; i < seas.size() && i < 8; ++i)
    if (std::find(seas[i].begin(), seas[i].end(), hex) != seas[i].end()) return static_cast<int>(i);
  return -1;
}

// 8.31, 8.32: a TB / CM among the attackers `atts` is refused unless its parent is too.
Status BdState::attacks_with_parent(int u, const std::vector<int>& atts) const {
  if (!is_attachable(u) ||
      (unit(u).parent >= 0 && std::find(atts.begin(), atts.end(), unit(u).parent) != atts.end()))
    return Status::ok();
  return rerr(attach_rule(u), def(u).label + " never fights alone: it attacks with " +
                                  (unit(u).parent >= 0 ? label(unit(u).parent) : std::string("its parent")));
}

// Why unit u may not attack `target` (a mobile assault if `ma`): the rule and the reason,
// or {nullptr, nullptr} if it may. One list of bars for the check, legal actions and the
// refusal's citation.
BdState::AttackBar BdState::attack_bar(int u, int target, bool ma) const {
  const UnitSt& s = unit(u);
  const UnitDef& d = def(u);
  if (s.where != kOnMap) return {"11.2", "is not on the map"};
  if (is_attachable(u)) {  // 8.31, 8.32: never fights alone; mobile assaults with a mech parent only
    const int p = s.parent;
    if (p < 0 || unit(p).hex != s.hex || is_attachable(p))
      return {attach_rule(u), "never fights alone, and its parent is not with it"};
    if (ma && def(p).cls != kMech)
      return {attach_rule(u), "makes mobile assaults only with a mechanized parent"};
    return attack_bar(p, target, ma);
  }
  const int dir = direction(s.hex, target);
  if (dir < 0) return {"11.2", "is not adjacent"};
  // 11.3, 11.4: a unit attacks at most once per prepared assault phase. 10.30: that bar is for
  // prepared assaults only: a unit's MA (failed or not) and its PA of the same player turn, in
  // either phase order, do not bar each other.
  if (!ma && (s.flags & kFlagAttacked)) return {"11.3, 11.4", "has already attacked this phase"};
  if (s.flags & kFlagSeaMoved) return {"10.16", "moved by sea this turn"};
  if (s.flags & kFlagStandFast) return {"12.7", "is in Stalingrad under Hitler's stand-fast order this turn"};
  if (d.type == kFortressCommand) return {"8.33", "is a Fortress Command, which never attacks"};
  if (d.type == kCoastalArmy) return {"10.34", "is the ICA, which never attacks"};
  if (d.attack == 0 && d.support_shifts == 0) return {"11.12", "has no attack factor"};
  const HexInfo& a = hx(s.hex);
  const HexInfo& b = hx(target);
  const Places& pl = data_->places;
  const bool kerch = is_crossing(pl.kerch, s.hex, target);
  const bool sivash = is_crossing(pl.sivash, s.hex, target);
  if (kerch && d.cls == kMech)
    return {"11.17", "is mechanized: no mechanized attack across the Kerch Strait"};
  if (sivash && !(d.side == kSoviet && d.cls != kMech && turn_ >= 7))
    return {"11.18", "may not attack across the Sivash (Soviet non-mechanized units only, from Game Turn 7)"};
  if (!kerch && !sivash && (((a.sea_side >> dir) & 1u) || ((a.lake_side >> dir) & 1u)))
    return {"11.19", "may not attack across an all-sea or all-lake hexside"};
  if (kept_south(d) && b.zone == kZoneNorth)
    return {"10.22", "is an Axis satellite army: none north of the logistical zone boundary"};
  if (d.type == kSsInfantry && b.country != kBaltic)
    return {"8.3", "is the 6th SS, which may only attack into hexes within the Baltic republics"};
  if (d.type == kCoastalCommand && b.area != kAreaCS)
    return {"8.3", "is the KSC, which may only attack into hexes of the CS supply area"};
  if (d.type == kCavalryGroup && b.city) return {"8.30", "is a cavalry group: never into a city"};
  if (d.type == kCavalryGroup && d.zone != kZoneNone && b.zone != kZoneNone && b.zone != d.zone)
    return {"8.30", "is a cavalry group: it stays in its own zone"};
  if (turn_ == 1) {
    if (d.side == kGerman && (a.country == kRomania || a.country == kHungary || b.country == kHungary))
      return {"5.11", "may not attack from Romania or Hungary, or into Hungary, on Game Turn 1"};
    if (d.side == kSoviet && (b.country == kHungary || b.country == kRomania))
      return {"5.11", "may not attack into Hungary or Romania on Game Turn 1"};
  }
  if (d.side == kGerman && turn_ == 3 && paulus_ == 1)
    return {"5.10", "Paulus Pause: no German attacks on GT3"};
  if (ma) {
    if (d.cls != kMech) return {"10.23", "is not mechanized: only mechanized units make mobile assaults"};
    if (d.side == kSoviet && (s.flags & (kFlagMaDone | kFlagMaFailed)))
      return {"10.24", "has already made a mobile assault this phase"};
    if (s.flags & (kFlagDone | kFlagNoMove)) return {"10.23", "has finished moving this phase"};
  }
  return {nullptr, nullptr};
}

bool BdState::can_attack_unit(int u, int target, bool ma) const {
  return attack_bar(u, target, ma).rule == nullptr;
}

Status BdState::collect_attack_from(const Action& a, std::vector<int>& atts) const {
  atts.clear();
  const int target = a.args[0];
  std::vector<int> here;
  for (int i = 2; i < a.nargs; ++i) {
    const int h = a.args[i];
    if (h < 0 || h >= kNumHexes) return rerr("11.2", "bad hex");
    if (direction(h, target) < 0) return rerr("11.2", hex_id(h) + " is not adjacent to " + hex_id(target));
    units_in(h, here);
    bool any = false;
    for (int u : here)
      if (def(u).side == phase_side() && can_attack_unit(u, target, false)) {
        atts.push_back(u);
        if (def(u).attack != 0) any = true;
      }
    if (!any) {
      // The first unit's bar names the rule that forbids (a strait, a sea hexside, 11.3).
      for (int u : here)
        if (def(u).side == phase_side())
          if (const AttackBar bar = attack_bar(u, target, false); bar.rule != nullptr)
            return rerr(bar.rule, "no unit in " + hex_id(h) + " may attack " + hex_id(target) + ": " +
                                      def(u).label + " " + bar.reason);
      return rerr("11.3", "no unit in " + hex_id(h) + " may attack " + hex_id(target));
    }
  }
  return Status::ok();
}

Status BdState::check_attack(int target, const std::vector<int>& atts, bool ma, bool lw, bool drop) const {
  const int side = phase_side();
  if (pending_ != kPendNone) return rerr("11.6", "finish the battle in progress first");
  if (ma) {
    if (!is_move_phase()) return rerr("10.23", "mobile assaults happen only in a movement phase");
    if (!ma_allowed_now(side))
      return rerr("10.23", side == kGerman ? "German mobile assaults only in single-month turns"
                                           : "Soviet mobile assaults only from Game Turn 25");
  } else if (!is_assault_phase()) {
    return rerr("5.2", std::string("no prepared assaults in ") + phase_name(phase_));
  }
  if (target < 0 || target >= kNumHexes || !hx(target).on_map) return rerr("11.2", "target is not a map hex");
  if (!enemy_in(target, side)) return rerr("11.2", hex_id(target) + " holds no enemy units");
  if (atts.empty()) return rerr("11.1", "an attack needs attackers");
  if (side == kGerman && turn_ == 3 && paulus_ == 1)
    return rerr("5.10", "Paulus Pause taken: no German attacks of any kind on Game Turn 3");
  if (atts.size() > kMaxBattleUnits) return rerr("11.1", "too many attackers for one battle");
  std::vector<int> defenders;
  units_in(target, defenders);
  if (!ma)  // 11.4: no defender is attacked more than once per prepared assault phase
    for (int dd : defenders)
      if ((unit(dd).flags & kFlagDefended) && !(unit(dd).flags & kFlagRetreatedIn))
        return rerr("11.4", "the units in " + hex_id(target) + " were already attacked this phase");
  bool has_factor = false, has_army = false, lcfc = false;
  for (size_t i = 0; i < atts.size(); ++i) {
    const int u = atts[i];
    if (u < 0 || u >= num_units()) return rerr("", "unknown unit");
    if (std::count(atts.begin(), atts.end(), u) > 1)  // 11.4: one unit, one attack factor
      return rerr("11.4", def(u).label + " listed twice");
    if (def(u).side != side) return rerr("11.1", def(u).label + " is not the phasing player's unit");
    if (Status st = attacks_with_parent(u, atts); !st) return st;
    if (const AttackBar bar = attack_bar(u, target, ma); bar.rule != nullptr)
      return rerr(bar.rule, def(u).label + " may not attack " + hex_id(target) + ": it " + bar.reason);
    if (def(u).attack != 0) has_factor = true;
    if (def(u).type == kCounterFireCorps)
      lcfc = true;
    else if (def(u).attack != 0)
      has_army = true;
  }
  if (!has_factor) return rerr("11.12", "units with no attack factor never attack alone");
  // 12.8: on GT13 of The Road Back only Soviet units that started in the southern logistics
  // area may attack (they count as offensively supplied, offensive_ok).
  if (side == kSoviet && sparam("first_turn_south_attacks_only") > 0 && turn_ == first_turn_)
    for (int u : atts) {
      const int start = unit(u).start_hex >= 0 ? unit(u).start_hex : unit(u).hex;
      if (hx(start).zone != kZoneSouth)
        return rerr("12.8", def(u).label + " did not start Game Turn 13 in the southern logistics area");
    }
  if (drop) {  // 4.17 combat air drop of the 2nd Para
    if (side != kGerman || para_drop_unit() < 0)
      return rerr("4.17", "the 2nd Paratroop Corps may drop only on the first turn of Manstein's Gambit");
    if (ma) {  // it lands with the assaulting stack if the hex is cleared (ruling BD-SC6)
      int count = 1;
      for (int u : atts) count += def(u).free_stacking() ? 0 : 1;
      if (count > data_->stacking.units_per_hex)
        return rerr("4.17", "no room for the paratroopers beside a full mobile-assault stack (6.3)");
    }
  }
  if (lcfc && !has_army) return rerr("8.35", "the LCFC never attacks alone");
  // 11.23; 10.33: a German mobile assault may be supported as a prepared assault may.
  if (lw && (side != kGerman || markers_.luftwaffe_left <= 0))
    return rerr("11.23", "no Luftwaffe marker available");
  if (ma) {
    const int launch = unit(atts[0]).hex;
    const HexInfo& t = hx(target);
    if (hero_city(target) || fortress_city(target) || target == markers_.fa_hex)
      return rerr("10.25", "no mobile assault into a Hero City, Fortress City or Fortified Area hex");
    (void)t;
    for (int u : atts) {
      if (unit(u).hex != launch)
        return rerr("10.27", "units that mobile-assault together attack from one hex");
      if (unit(u).start_hex != unit(atts[0]).start_hex)
        return rerr("10.27",
                    "units that mobile-assault together must have started the phase stacked together");
      const int c = ma_cost(u, launch, target);
      if (c < 0) return rerr("10.25", "mobile assaults only into clear terrain, not across water");
      const int left = mp_left(u);
      if (left < c)
        return rerr("10.25", def(u).label + " needs " + std::to_string(c) + " MP for this mobile assault");
      const int sup = unit_supply(u);
      if (sup != kSupOverland && sup != kSupGarrison && sup != kSupAlways && sup != kSupCrimea)  // 7.4
        return rerr("10.26", def(u).label + " needs overland or garrison supply to mobile-assault");
      if (unit(u).mp >= 0 && std::find(movers_.begin(), movers_.end(), u) == movers_.end())
        return rerr("10.2", def(u).label + " already finished its move");
    }
  }
  return Status::ok();
}

// Sums attack factors (1.3 / 11.12: units reduced together are summed, divided once,
// rounded down, never below 1).
int BdState::attack_factor_total(const Battle& b, bool roll_dice, std::vector<int>* per_unit) {
  const HexInfo& t = hx(b.target);
  const Places& pl = data_->places;
  int sums[9] = {};  // by divisor 1, 2, 4, 8
  int fixed = 0;
  if (b.drop >= 0) fixed += def(b.drop).defense;  // 4.17 the paratroopers add their defence factor
  for (int i = 0; i < b.natt; ++i) {
    const int u = b.att[static_cast<size_t>(i)];
    const UnitDef& d = def(u);
    int base = d.attack;
    if (d.attack == 0) {  // support units (8.31, 8.32) count 1 in a Bloodbath only
      if (per_unit) per_unit->push_back(d.support_shifts > 0 ? 1 : 0);
      continue;
    }
    if (base == kRolled)
      base = roll_dice ? roll(6, d.label + " combat factor", d.type == kEmergency ? "8.4" : "8.35") : 3;
    const uint8_t boost = b.boost[static_cast<size_t>(i)];
    const int air = (boost & kBoostAirArmy) ? 1 : 0;  // 8.38: +1, never doubled (nor halved: ruling BD-SM3)
    fixed += air;
    // 8.35: the LCFC's factor is rolled "again, supply status irrelevant".
    const int sup = d.type == kCounterFireCorps ? kSupAlways : unit_supply(u);
    if (d.type == kPanzer && t.city && !d.attack_circled) base = d.defense;                     // 11.20, 8.29
    if (d.type == kMountain && (t.terrain == kRough) && sup == kSupOverland) base = d.defense;  // 11.14
    int div = 1, mult = 1;
    if (d.side == kGerman) {
      if (sup == kSupOos || sup == kSupCoastal || sup == kSupAerial) div = 2;  // 7.16, 7.5, 7.7
    } else if (turn_ < 7) {
      if (sup == kSupOos) div = 2;  // 7.9, 7.22
    } else {
      if (sup == kSupOos)
        div = 4;  // 7.22
      else if (sup == kSupGarrison || (sup == kSupOverland && !offensive_ok(u)))
        div = 2;  // 7.22 garrison supply; 7.9 overland supply without offensive supply
    }
    const int so = order_[kSoviet];
    if (d.type == kShockArmy && (so == kFightMove || so == kFightFight) && sup == kSupOverland &&
        offensive_ok(u))
      mult = 2;                              // 5.7
    if (boost & kBoostArtillery) mult *= 2;  // 8.36 (never on a shock army)
    bool marsh_halved =
        t.terrain == kMarsh && d.cls == kMech &&
        !(turn_ == 1 && d.side == kGerman &&
          std::find(pl.gt1_marsh.begin(), pl.gt1_marsh.end(), b.target) != pl.gt1_marsh.end());
    if (d.type == kShockArmy && div > 1) {  // 7.22: halved or quartered shock armies attack with 3
      fixed += 3;
      if (per_unit) per_unit->push_back(3 + air);
      continue;
    }
    if (marsh_halved) div *= 2;  // 11.15
    sums[std::min(div, 8)] += base * mult;
    if (per_unit) per_unit->push_back(std::max(1, base * mult / div) + air);
  }
  int total = fixed;
  for (int dv : {1, 2, 4, 8})
    if (sums[dv] > 0) total += std::max(1, sums[dv] / dv);
  return total;
}

// 10.26: "When determining the supply state of the units defending against the MA, don't
// figure in, in any way, the presence of the enemy units making the MA; they have no effect on
// the defenders' supply state for that battle." The assaulting units only ever block paths, so
// a defender supplied with them there is supplied without them; otherwise its supply is traced
// on a copy of the position without them.
int BdState::ma_defender_supply(const Battle& b, int u) const {
  const int sup = unit_supply(u);
  if (sup != kSupOos || unit(u).forced_supply != kSupNone) return sup;
  BdState without(*this);
  for (int i = 0; i < b.natt; ++i) {
    UnitSt& s = without.units_[static_cast<size_t>(b.att[static_cast<size_t>(i)])];
    s.where = kOutOfPlay;
    s.hex = -1;
  }
  without.mark_dirty();
  return without.unit_supply(u);
}

int BdState::defense_factor_total(const Battle& b, bool roll_dice, std::vector<int>* per_unit) {
  int sums[3] = {};
  for (int i = 0; i < b.ndef; ++i) {
    const int u = b.def[static_cast<size_t>(i)];
    const UnitDef& d = def(u);
    int base = d.defense;
    if (base == kRolled)
      base = roll_dice ? roll(6, d.label + " combat factor", d.type == kEmergency ? "8.4" : "8.35") : 3;
    const int sup = d.type == kCounterFireCorps ? kSupAlways  // 8.35: "supply status irrelevant"
                    : b.is_ma                   ? ma_defender_supply(b, u)  // 10.26
                                                : unit_supply(u);
    const int div = sup == kSupOos ? 2 : 1;  // 7.16 (coastal, aerial, garrison: full defence)
    sums[div] += base;
    if (per_unit) per_unit->push_back(base / div);
  }
  int total = 0;
  for (int dv : {1, 2})
    if (sums[dv] > 0) total += std::max(1, sums[dv] / dv);
  return total;
}

// Column shifts, positive = right (attacker's favour). Digest 5.2. `why`, when given,
// receives one {shift, reason, rule} per shift that applies (the combat preview).
int BdState::shifts_for(const Battle& b, Json* why) const {
  const HexInfo& t = hx(b.target);
  const Places& pl = data_->places;
  const int att = b.attacker, dfd = other(att);
  int s = 0;
  auto add = [&](int n, const std::string& reason, const char* rule) {
    if (n == 0) return;
    s += n;
    if (why) why->push_back(Json{{"shift", n}, {"reason", reason}, {"rule", rule}});
  };
  Terrain ter = t.terrain;
  if (ter == kMarsh && att == kGerman && turn_ == 1 &&
      std::find(pl.gt1_marsh.begin(), pl.gt1_marsh.end(), b.target) != pl.gt1_marsh.end())
    ter = kClear;  // 5.13
  if (ter == kMarsh) {
    if (!b.is_ma) add(data_->tec.shift[kMarsh], "marsh (prepared assault)", "11.15");
  } else {
    add(data_->tec.shift[ter], std::string(terrain_name(ter)) + " terrain", "11.14");
  }
  const bool hc_fc = hero_city(b.target) || fortress_city(b.target);
  if (hc_fc)
    add(data_->tec.fortress_shift, hero_city(b.target) ? "Hero City" : "Fortress City", "9.6");
  else if (t.city)
    add(data_->tec.city_shift, "city", "11.20");
  if (t.fortified == dfd)
    add(data_->tec.line_shift, "defender's fortified line", "11.21");
  else if (dfd == kGerman && east_wall(b.target))
    add(data_->tec.line_shift, "East Wall", "8.5, 11.21");
  const bool fa = dfd == kSoviet && fa_effect(b.target);
  if (fa)
    add(markers_.fa_turn == turn_ ? data_->tec.fa_first : data_->tec.fa_later,
        markers_.fa_turn == turn_ ? "Fortified Area (turn placed)" : "Fortified Area", "8.18");  // 11.22
  // 11.16 rivers: all attackers across river hexsides (or an MA across one). 11.17, 11.18:
  // the Kerch Strait and the Sivash count as river hexsides for the non-mech units that
  // may attack across them (mechanized ones never may, attack_from_ok).
  bool all_river = true;
  const char* strait_rule = nullptr;  // set when an attacker is across a strait
  int adjacent = 0;
  uint8_t dirs = 0;
  int nhex = 0;
  for (int i = 0; i < b.natt; ++i) {
    const int h = unit(b.att[static_cast<size_t>(i)]).hex;
    const int d = direction(b.target, h);
    if (d < 0) continue;
    ++adjacent;
    const bool strait = pl.strait(h, b.target);
    if (strait) strait_rule = is_crossing(pl.kerch, h, b.target) ? "11.16, 11.17" : "11.16, 11.18";
    if (!((hx(h).river >> direction(h, b.target)) & 1u) && !strait) all_river = false;
    if (!((dirs >> d) & 1u)) ++nhex;
    dirs = static_cast<uint8_t>(dirs | (1u << d));
  }
  if (turn_ == 1 && att == kGerman) all_river = false;  // 10.18 GT1 German ignore rivers
  if (all_river && adjacent > 0) {
    if (strait_rule != nullptr)
      add(-1, "every attacker across a river or strait (as a river)", strait_rule);
    else
      add(-1, "every attacker across a river", "11.16");
  }
  // 11.24 concentric: opposite hexes, three alternating hexes, or more than three hexes.
  if (!b.is_ma && !hc_fc && !(fa && markers_.fa_turn != turn_) &&
      !(att == kSoviet && t.city && !fortress_city(b.target))) {
    bool conc = nhex > 3;
    for (int d = 0; d < 3; ++d)
      if (((dirs >> d) & 1u) && ((dirs >> (d + 3)) & 1u)) conc = true;
    if ((dirs & 0b010101) == 0b010101 || (dirs & 0b101010) == 0b101010) conc = true;
    if (conc) add(1, "concentric attack", "11.24");
  }
  if (b.is_ma) {
    add(data_->tec.ma_shift, "mobile assault", "10.32");
    if (att == kGerman && turn_ == 4 && paulus_ == 2)
      add(-1, "Paulus Pause declined: mobile assaults 2L on GT4", "5.10");
  } else if (att == kGerman) {
    const int o = order_[kGerman];
    if (o == kFightMove && ti().single && ti().year == 1941)
      add(1, "fight/move in a 1941 single-month turn", "5.6");
    // 13.8: in Operations Blue & Kremlin the declared zone's bonus is for "the first three turns
    // of this scenario" only (param zone_1942_turns; ruling BD-SC9).
    const int zone_turns = sparam("zone_1942_turns");
    if (o == kFightMove && ti().single && ti().year == 1942 && zone1942_ != kZoneNone &&
        t.zone == zone1942_ && (zone_turns <= 0 || turn_ < first_turn_ + zone_turns))
      add(1, "fight/move in the chosen 1942 zone", zone_turns > 0 ? "5.6, 13.8" : "5.6");
    if (o == kFightFight && phase_ == kGermanB) add(1, "first combat phase of fight/fight", "5.6");
    if (turn_ == 4 && paulus_ == 2) add(-1, "Paulus Pause declined (GT4)", "5.10");
    if (turn_ == 5 && paulus_ == 2) add(-2, "Paulus Pause declined (GT5)", "5.10");
  } else {
    if (order_[kSoviet] == kMoveFight &&
        !(sparam("first_turn_no_move_fight_shift") > 0 && turn_ == first_turn_))
      add(-1, "Soviet move/fight", "5.7");  // 12.2
  }
  if (turn_ == 1 && att == kSoviet && t.west_of_start_line)
    add(-1, "Soviet attack west of the start line on GT1", "5.15");
  if (b.lw_attack) add(1, "Luftwaffe supports the attack", "11.23");
  if (b.lw_defend) add(-1, "Luftwaffe supports the defence", "11.23");
  // 8.37, 8.39, 8.40 Soviet support markers printed "1R" (8.41: they combine).
  if (b.support & kSupportInterceptor) add(1, "VI Interceptor Corps", "8.37");
  if (b.support & kSupportPartisans) add(1, "Partisans", "8.39");
  if (b.support & kSupportAirborne) add(1, "Airborne Assault", "8.40");
  // 8.31 Tigers (max one shift per battle), 8.32 one shift per CM group.
  bool tiger = false;
  int cm = 0;
  std::vector<int> tu;
  units_in(b.target, tu);
  auto scan = [&](int u, int sign) {
    // 11.29: units that retreated into the hex (a TB / CM with its parent) do not defend.
    if (sign < 0 && !b.is_ma) {
      const int p = unit(u).parent >= 0 ? unit(u).parent : u;
      if (unit(p).flags & kFlagRetreatedIn) return;
    }
    if (def(u).type == kTigerBattalion) tiger = true;
    if (def(u).type == kCmGroup) cm += sign;
  };
  if (att == kGerman) {
    for (int i = 0; i < b.natt; ++i) scan(b.att[static_cast<size_t>(i)], 1);
    for (int u : tu) scan(u, -1);
    if (tiger) add(1, "Tiger battalion", "8.31");
    add(cm < 0 ? cm : 0, "Soviet CM group(s) defending", "8.32");
  } else {
    for (int i = 0; i < b.natt; ++i) scan(b.att[static_cast<size_t>(i)], 1);
    for (int u : tu) scan(u, -1);
    if (tiger) add(-1, "Tiger battalion defending", "8.31");
    add(cm > 0 ? cm : 0, "Soviet CM group(s) attacking", "8.32");
  }
  // 11.33 a solo Axis satellite defending inside the USSR.
  if (att == kSoviet && b.ndef == 1 && def(b.def[0]).axis_satellite() && t.country == kUssr)
    add(1, "lone Axis satellite defending in the USSR", "11.33");
  return s;
}

void BdState::compute_odds(Battle& b, bool roll_dice) {
  b.attack = attack_factor_total(b, roll_dice, nullptr);
  b.defense = defense_factor_total(b, roll_dice, nullptr);
  if (b.defense <= 0) {
    b.raw_index = 99;
  } else if (b.attack >= b.defense) {
    b.raw_index = static_cast<int8_t>(std::min(90, b.attack / b.defense - 1));  // 11.8
  } else {
    b.raw_index = static_cast<int8_t>(-std::min(90, ceil_div(b.defense, std::max(1, b.attack)) - 1));  // 11.9
  }
  b.shifts = static_cast<int8_t>(shifts_for(b));
  b.final_index =
      static_cast<int8_t>(std::clamp(b.raw_index + b.shifts, -120, 120));  // 11.11 unbounded scale
}

void BdState::start_battle(const std::vector<int>& atts_named, int target, bool ma, bool lw, bool drop) {
  // 8.31, 8.32: a TB / CM attacks with its parent whenever the parent attacks.
  std::vector<int> atts = atts_named;
  for (int u : atts_named)
    if (const int c = attached_of(u);
        c >= 0 && std::find(atts.begin(), atts.end(), c) == atts.end() && atts.size() < kMaxBattleUnits)
      atts.push_back(c);
  Battle b;
  b.active = 1;
  b.target = static_cast<int16_t>(target);
  b.is_ma = ma ? 1 : 0;
  b.attacker = static_cast<uint8_t>(phase_side());
  b.lw_attack = lw ? 1 : 0;
  if (lw) markers_.luftwaffe_left--;
  for (int u : atts) {
    b.att[b.natt++] = static_cast<int16_t>(u);
    const int h = unit(u).hex;
    bool seen = false;
    for (int i = 0; i < b.nfrom; ++i) seen |= b.from[static_cast<size_t>(i)] == h;
    if (!seen && b.nfrom < 6) b.from[b.nfrom++] = static_cast<int16_t>(h);
  }
  std::vector<int> defs;
  units_in(target, defs);
  for (int dd : defs) {
    if (!ma && (unit(dd).flags & kFlagRetreatedIn)) continue;  // 11.29 do not defend
    if (!ma && unit(dd).parent >= 0 && (unit(unit(dd).parent).flags & kFlagRetreatedIn)) continue;
    if (b.ndef < kMaxBattleUnits) b.def[b.ndef++] = static_cast<int16_t>(dd);
  }
  if (ma) {
    b.launch = unit(atts[0]).hex;
    for (int u : atts) {
      UnitSt& s = units_[static_cast<size_t>(u)];
      const int left = mp_left(u);
      s.mp = static_cast<int8_t>(left - ma_cost(u, b.launch, target));
      s.flags |= kFlagTurnAttacked;  // 10.16
      if (def(u).side == kSoviet) s.flags |= kFlagMaDone;
    }
    // 10.6: the assaulting units go on as the moving stack; the rest of their parent stack
    // that has moved may resume too.
    if (!in_moving_stack(atts[0])) movers_.clear();
    for (int u : atts)
      if (std::find(movers_.begin(), movers_.end(), u) == movers_.end() &&
          movers_.size() < movers_.capacity())
        movers_.push_back(static_cast<int16_t>(u));
  } else {
    for (int u : atts) units_[static_cast<size_t>(u)].flags |= kFlagAttacked | kFlagTurnAttacked;
    for (int i = 0; i < b.ndef; ++i)
      units_[static_cast<size_t>(b.def[static_cast<size_t>(i)])].flags |= kFlagDefended;
  }
  if (drop) {  // 4.17: placed atop the Soviet stack; placed or eliminated after the battle
    b.drop = static_cast<int16_t>(para_drop_unit());
    units_[static_cast<size_t>(b.drop)].where = kOutOfPlay;
    units_[static_cast<size_t>(b.drop)].turn = 0;
  }
  battle_ = b;
  std::string text = std::string(side_name(b.attacker)) +
                     (ma ? " mobile assault on " : " prepared assault on ") + hex_id(target) + " with";
  for (int u : atts) text += " " + label(u);
  if (b.attacker == kSoviet) {
    // 11.7 (ruling BD-FOG1): the German sees the attacking stacks, not beneath their top
    // units, until the odds are computed; he hears the hexes the attack comes from.
    std::string from;
    for (int u : atts)
      if (from.find(" " + hex_id(unit(u).hex)) == std::string::npos) from += " " + hex_id(unit(u).hex);
    log_fog("combat", text,
            std::string("Soviet") + (ma ? " mobile assault on " : " prepared assault on ") + hex_id(target) +
                " from" + from,
            ma ? "10.24" : "11.1");
  } else {
    log("combat", text, ma ? "10.24" : "11.1");
  }
  if (drop)
    log("combat",
        label(b.drop) + " makes a combat air drop on " + hex_id(target) + ", adding its defence factor",
        "4.17");
  // 11.23: the German may commit a Luftwaffe marker to the defence (before the odds, 8.38),
  // against a mobile assault as against a prepared one (10.33).
  if (b.attacker == kSoviet && markers_.luftwaffe_left > 0) {
    pending_ = kPendLwDefend;
    return;
  }
  if (enter_support()) return;  // 8.36-8.41
  resolve_battle();
}

void BdState::resolve_battle() {
  Battle& b = battle_;
  compute_odds(b, true);
  // 11.7 (ruling BD-FOG1): the Soviet attackers are shown to the German when the odds are
  // computed, as the defenders are.
  if (sink_ != nullptr && b.attacker == kSoviet) {
    std::string attackers;
    for (int i = 0; i < b.natt; ++i) attackers += " " + label(b.att[static_cast<size_t>(i)]);
    steppe::Event e;
    e.kind = "reveal";
    e.text = "attackers on " + hex_id(b.target) + ":" + attackers;
    e.rule = "11.7";
    e.reveals = true;
    emit(std::move(e));
  }
  // 11.7: the defenders are revealed when the odds are computed.
  std::string shown;
  for (int i = 0; i < b.ndef; ++i) {
    units_[static_cast<size_t>(b.def[static_cast<size_t>(i)])].flags |= kFlagRevealed;
    shown += " " + label(b.def[static_cast<size_t>(i)]);
  }
  if (sink_ != nullptr) {
    steppe::Event e;
    e.kind = "reveal";
    e.text = "defenders in " + hex_id(b.target) + ":" + shown;
    e.rule = "11.7";
    e.reveals = true;
    emit(std::move(e));
  }
  // 13.9: the Soviet may take a Defender Retreat just before the die is rolled.
  if (retreat_offer()) {
    pending_ = kPendTakeRetreat;
    return;
  }
  roll_battle();
}

// 13.9: on the first turn of Blue & Kremlin, a German MA or PA into a non-city hex of the
// southern logistics zone, when the defenders have a hex to retreat into and the result
// depends on the die.
bool BdState::retreat_offer() const {
  const Battle& b = battle_;
  if (sparam("first_turn_defender_retreat_offer") == 0 || turn_ != first_turn_ || b.attacker != kGerman ||
      !b.active)
    return false;
  const HexInfo& t = hx(b.target);
  if (t.city || t.zone != kZoneSouth) return false;
  if (b.final_index > data_->crt.max_index || b.final_index < data_->crt.min_index) return false;
  std::vector<int> opts;
  retreat_options(b.target, kSoviet, opts);
  return !opts.empty();
}

void BdState::roll_battle() {
  Battle& b = battle_;
  const Crt& crt = data_->crt;
  int res;
  std::string how;
  if (b.final_index > crt.max_index) {
    res = kDE;  // 11.10
    how = "automatic";
  } else if (b.final_index < crt.min_index) {
    res = kAE;
    how = "automatic";
  } else {
    b.die = static_cast<int8_t>(roll(6, "combat", "11.25"));
    res = crt.results[static_cast<size_t>(b.final_index - crt.min_index)][static_cast<size_t>(b.die - 1)];
    how = "die " + std::to_string(b.die);
  }
  b.rolled = static_cast<uint8_t>(res);
  last_odds_ = b.final_index;
  // The line gives every column shift with its reason and rule, as the preview (the
  // `combat` query) did before the die: "shifts 1R (1L rough terrain 11.14; 1R
  // concentric attack 11.24; 1R Luftwaffe supports the attack 11.23)".
  auto lr = [](int n) {
    return n == 0 ? std::string("0") : std::to_string(std::abs(n)) + (n > 0 ? "R" : "L");
  };
  Json why = Json::array();
  if (sink_ != nullptr) shifts_for(b, &why);  // the shifts compute_odds summed; only when logged
  std::string shifts = lr(b.shifts);
  if (!why.empty()) {
    shifts += " (";
    for (size_t i = 0; i < why.size(); ++i)
      shifts += (i ? "; " : "") + lr(why[i]["shift"].get<int>()) + " " + why[i]["reason"].get<std::string>() +
                " " + why[i]["rule"].get<std::string>();
    shifts += ")";
  }
  log("combat",
      std::to_string(b.attack) + " vs " + std::to_string(b.defense) + " = " +
          (b.raw_index == 99 ? std::string("auto") : odds_label(b.raw_index)) + ", shifts " + shifts +
          " -> " + (b.raw_index == 99 ? std::string("auto") : odds_label(b.final_index)) + ", " + how + ": " +
          result_name(res),
      "11.25");
  if (res == kBB) {
    const HexInfo& t = hx(b.target);
    if (turn_ == 1 && b.attacker == kSoviet) {  // 5.14
      log("combat", "Bloodbath becomes Defender Retreat on Game Turn 1", "5.14");
      res = kDR;
    } else {
      bool option = false;
      if (b.attacker == kGerman && turn_ == 1) option = true;  // 5.14
      // 5.16: "Starting with Game Turn 2, and all during the rest of 1941, and again during all
      // single-month turns of 1942", never into a city (the calendar's years and month counts).
      if (b.attacker == kGerman &&
          ((turn_ >= 2 && ti().year == 1941) || (ti().single && ti().year == 1942)) && !t.city)
        option = true;                             // 5.16
      if (soviet_may_convert_bb()) option = true;  // 11.33
      if (option) {
        pending_ = kPendBbChoice;
        return;
      }
    }
  }
  apply_result(res);
}

// 11.26: while any involved dotted unit survives, only dotted units may be chosen; the
// dropped paratroopers (4.17) count at their defence factor (ruling BD-SC6).
void BdState::bb_candidates(std::vector<int>& out) const {
  const Battle& b = battle_;
  out.clear();
  for (int i = 0; i < b.natt; ++i) {
    const int u = b.att[static_cast<size_t>(i)];
    // 8.31, 8.32: an attached TB / CM goes only with its parent (bb_value counts it there).
    if (unit(u).where == kOnMap && !(is_attachable(u) && unit(u).parent >= 0)) out.push_back(u);
  }
  if (b.drop >= 0) out.push_back(b.drop);
  const bool dotted_left = std::any_of(out.begin(), out.end(), [&](int u) { return def(u).dotted; });
  if (dotted_left) std::erase_if(out, [&](int u) { return !def(u).dotted; });
}

int BdState::bb_value(int u) const {
  const Battle& b = battle_;
  if (u == b.drop) return def(u).defense;
  const int c = attached_of(u);  // 8.31, 8.32: its TB / CM counts one factor and goes with it
  int v = 0;
  for (int i = 0; i < b.natt; ++i) {
    const int x = b.att[static_cast<size_t>(i)];
    if (x == u) v += std::max(1, static_cast<int>(b.bb_per[static_cast<size_t>(i)]));
    if (x == c && c >= 0) v += std::max(1, static_cast<int>(b.bb_per[static_cast<size_t>(i)]));
  }
  return v;
}

void BdState::bb_remove(int u) {
  Battle& b = battle_;
  b.bb_need = static_cast<int16_t>(b.bb_need - bb_value(u));
  if (u == b.drop) {
    b.drop = -1;
    eliminate(u, "4.17");
  } else {
    eliminate(u, "11.26");
  }
}

// Removes what the rule leaves no choice about (a single candidate, or candidates that must
// all go to cover the loss); otherwise the attacker chooses (pending bb-loss).
void BdState::bb_continue() {
  Battle& b = battle_;
  std::vector<int> cand;
  while (b.bb_need > 0) {
    bb_candidates(cand);
    if (cand.empty()) break;
    int sum = 0;
    for (int u : cand) sum += bb_value(u);
    if (cand.size() > 1 && sum > b.bb_need) {
      pending_ = kPendBbLoss;
      return;
    }
    for (int u : cand) bb_remove(u);
  }
  pending_ = kPendNone;
  after_defender_gone(true);
}

// 11.33: a Soviet attack on a hex inside the USSR that holds only an Axis satellite unit:
// the Soviet may convert its BB result to a DR.
bool BdState::soviet_may_convert_bb() const {
  const Battle& b = battle_;
  return b.attacker == kSoviet && b.ndef == 1 && def(b.def[0]).axis_satellite() &&
         hx(b.target).country == kUssr;
}

void BdState::apply_result(int res, bool soviet_converted_bb) {
  Battle& b = battle_;
  const HexInfo& t = hx(b.target);
  const int dfd = other(b.attacker);
  if (res == kDR) {
    const bool fa_later = dfd == kSoviet && fa_effect(b.target) && markers_.fa_turn != turn_;
    // 11.33: a DR the Soviet converted from a BB stands "even in fortress city defenses
    // inside the USSR".
    if (soviet_converted_bb && fortress_city(b.target)) {
      log("combat", "the Defender Retreat stands in the Fortress City (converted Bloodbath)", "11.33");
    } else if (hero_city(b.target) || fortress_city(b.target) || fa_later) {
      res = kBB;  // 9.6, 8.18 (11.22)
      log("combat", "Defender Retreat becomes Bloodbath in a Hero/Fortress City or Fortified Area",
          fa_later ? "8.18" : "9.6");
      if (!soviet_converted_bb && soviet_may_convert_bb()) {  // 11.33: that BB too is his to convert
        pending_ = kPendBbChoice;
        return;
      }
    } else if (t.city && dfd == kGerman) {
      res = kAS;  // 11.20
      log("combat", "Defender Retreat becomes Attacker Stalled: German-side defenders in a city", "11.20");
    }
  }
  b.result = static_cast<uint8_t>(res);
  last_result_ = result_name(res);
  std::vector<int> in_hex;
  units_in(b.target, in_hex);
  auto kill_retreated_in = [&]() {  // 11.29
    if (b.is_ma) return;
    for (int u : in_hex)
      if (unit(u).where == kOnMap && (unit(u).flags & kFlagRetreatedIn)) eliminate(u, "11.29");
  };
  switch (res) {
    case kAE:
      for (int i = 0; i < b.natt; ++i) eliminate(b.att[static_cast<size_t>(i)], "11.26");
      finish_battle();
      return;
    case kAS:
      if (b.is_ma)
        for (int i = 0; i < b.natt; ++i) {
          const int u = b.att[static_cast<size_t>(i)];
          if (def(u).side == kSoviet) units_[static_cast<size_t>(u)].flags |= kFlagMaFailed;  // 10.28
        }
      finish_battle();
      return;
    case kDE:
      for (int i = 0; i < b.ndef; ++i) eliminate(b.def[static_cast<size_t>(i)], "11.26");
      kill_retreated_in();
      after_defender_gone(true);
      return;
    case kBB: {
      // 11.26: defenders eliminated; the attacker removes units of his choice until their
      // attack factors (as they counted in this battle) cover the defence lost, dotted units
      // first (bb_continue; ruling BD-7).
      const int lost = b.defense;  // the defence as it counted in this battle (supply included)
      b.defense_lost = lost;
      for (int i = 0; i < b.ndef; ++i) eliminate(b.def[static_cast<size_t>(i)], "11.26");
      kill_retreated_in();
      std::vector<int> per;
      Battle tmp = b;
      attack_factor_total(tmp, false, &per);
      b.bb_need = static_cast<int16_t>(lost);
      for (int i = 0; i < b.natt; ++i)
        b.bb_per[static_cast<size_t>(i)] = static_cast<int16_t>(per[static_cast<size_t>(i)]);
      bb_continue();
      return;
    }
    case kDR: {
      b.nretreat = 0;
      for (int i = 0; i < b.ndef; ++i) {
        const int u = b.def[static_cast<size_t>(i)];
        const UnitDef& d = def(u);
        if (d.type == kFortressCommand || d.type == kMilitiaArmy || d.type == kCounterFireCorps) {
          eliminate(u,
                    d.type == kFortressCommand ? "8.33" : "8.34");  // static units die instead of retreating
          continue;
        }
        b.retreating[b.nretreat++] = static_cast<int16_t>(u);
      }
      kill_retreated_in();
      if (b.nretreat == 0) {
        after_defender_gone(true);
        return;
      }
      std::vector<int> opts;
      retreat_options(b.target, dfd, opts);
      if (opts.empty()) {
        for (int i = 0; i < b.nretreat; ++i) eliminate(b.retreating[static_cast<size_t>(i)], "11.28");
        b.nretreat = 0;
        after_defender_gone(true);
        return;
      }
      if (opts.size() == 1) {
        do_retreat(opts[0]);
        return;
      }
      pending_ = kPendRetreat;
      return;
    }
    default:
      finish_battle();
  }
}

// 11.27-11.28: adjacent hexes free of enemy units, not where the attack came from, not
// across prohibited hexsides; the side's preferred directions first.
void BdState::retreat_options(int from_hex, int side, std::vector<int>& out) const {
  out.clear();
  static const int pref[2][3] = {{kW, kSW, kNW}, {kE, kSE, kNE}};
  const Places& pl = data_->places;
  auto ok = [&](int d) {
    const int n = neighbour(from_hex, d);
    // 10.21: never off the map (a unit with no other way out is eliminated).
    if (n < 0 || !hx(n).on_map || data_->tec.prohibited[hx(n).terrain]) return -1;
    if (enemy_in(n, side)) return -1;
    if (battle_.active) {
      for (int i = 0; i < battle_.nfrom; ++i)
        if (battle_.from[static_cast<size_t>(i)] == n) return -1;
      if (battle_.launch == n) return -1;  // 10.31
    }
    const HexInfo& a = hx(from_hex);
    if ((a.sea_side >> d) & 1u || (a.lake_side >> d) & 1u) return -1;  // 11.19
    if (pl.strait(from_hex, n)) return -1;                             // 11.17, 11.18
    return n;
  };
  for (int d : pref[side]) {
    const int n = ok(d);
    if (n >= 0) out.push_back(n);
  }
  if (!out.empty()) return;
  for (int d = 0; d < 6; ++d) {
    if (d == pref[side][0] || d == pref[side][1] || d == pref[side][2]) continue;
    const int n = ok(d);
    if (n >= 0) out.push_back(n);
  }
}

void BdState::do_retreat(int dest) {
  Battle& b = battle_;
  std::vector<int> movers;
  for (int i = 0; i < b.nretreat; ++i) {
    const int u = b.retreating[static_cast<size_t>(i)];
    if (is_attachable(u) && unit(u).parent >= 0 && unit(unit(u).parent).where == kOnMap &&
        unit(unit(u).parent).hex == unit(u).hex)
      continue;  // 8.31, 8.32: retreats with its parent
    movers.push_back(u);
  }
  b.nretreat = 0;
  int here = dest;
  for (int hop = 0; hop < 8 && !movers.empty(); ++hop) {
    std::vector<int> fits, surplus;
    for (int u : movers) {
      std::vector<int> trial = fits;
      trial.push_back(u);
      const bool cav_city = def(u).type == kCavalryGroup && hx(here).city;  // 8.30
      if (!cav_city && stacking_ok(here, def(u).side, trial).is_ok())
        fits.push_back(u);
      else
        surplus.push_back(u);
    }
    for (int u : fits) {
      move_to(u, here);
      units_[static_cast<size_t>(u)].flags |= kFlagRetreatedIn;
      log("retreat", label(u) + " retreats to " + hex_id(here), "11.27");
    }
    if (surplus.empty()) break;
    std::vector<int> opts;
    retreat_options(here, def(surplus[0]).side, opts);
    if (opts.empty() || hop == 7) {
      for (int u : surplus) eliminate(u, "11.28");
      break;
    }
    movers = surplus;  // 11.28: the surplus retreats further
    here = opts[0];
  }
  pending_ = kPendNone;
  after_defender_gone(true);
}

void BdState::after_defender_gone(bool cleared) {
  Battle& b = battle_;
  std::vector<int> left;
  units_in(b.target, left);
  bool enemy_left = false;
  for (int u : left)
    if (def(u).side != b.attacker) enemy_left = true;
  cleared = cleared && !enemy_left;
  if (b.drop >= 0) {  // 4.17
    const int para = b.drop;
    b.drop = -1;
    if (cleared) {
      place(para, b.target);
      units_[static_cast<size_t>(para)].flags |= kFlagDone | kFlagAttacked;
      log("combat", label(para) + " survives the air drop and holds " + hex_id(b.target), "4.17");
    } else {
      eliminate(para, "4.17");
      log("combat", label(para) + " is lost: the air drop did not clear " + hex_id(b.target), "4.17");
    }
  }
  if (b.is_ma) {
    if (cleared) {  // 10.29: no advance; the assaulting units are in the hex and move on
      for (int i = 0; i < b.natt; ++i) {
        const int u = b.att[static_cast<size_t>(i)];
        if (unit(u).where == kOnMap) move_to(u, b.target);
      }
    } else {
      for (int i = 0; i < b.natt; ++i) {
        const int u = b.att[static_cast<size_t>(i)];
        if (def(u).side == kSoviet) units_[static_cast<size_t>(u)].flags |= kFlagMaFailed;
      }
    }
    finish_battle();
    return;
  }
  if (!cleared) {
    finish_battle();
    return;
  }
  // 11.30: survivors may advance one hex into the emptied hex.
  b.nadv = 0;
  const Places& pl = data_->places;
  for (int i = 0; i < b.natt; ++i) {
    const int u = b.att[static_cast<size_t>(i)];
    if (unit(u).where != kOnMap || def(u).cls == kStatic || def(u).type == kCounterFireCorps) continue;
    if (is_attachable(u)) continue;  // 8.31, 8.32: advances with its parent
    const int h = unit(u).hex;
    const int d = direction(h, b.target);
    if (d < 0) continue;
    bool bad = ((hx(h).lake_side >> d) & 1u) != 0;
    if (pl.strait(h, b.target)) bad = true;
    if (!bad) b.adv[b.nadv++] = static_cast<int16_t>(u);
  }
  if (b.nadv == 0) {
    finish_battle();
    return;
  }
  pending_ = kPendAdvance;
}

void BdState::finish_battle() {
  if (battle_.drop >= 0) {  // 4.17: the hex was not cleared
    const int para = battle_.drop;
    battle_.drop = -1;
    eliminate(para, "4.17");
    log("combat", label(para) + " is lost: the air drop did not clear " + hex_id(battle_.target), "4.17");
  }
  battle_.active = 0;
  pending_ = kPendNone;
  mark_dirty();
}

// 10.27: the units in u's hex that started the phase with it and can mobile-assault
// `target` now (MP, supply, not finished), in unit order.
void BdState::ma_group(int u, int target, std::vector<int>& out) const {
  out.clear();
  const int h = unit(u).hex;
  for (int x = 0; x < num_units(); ++x) {
    const UnitSt& s = unit(x);
    if (s.where != kOnMap || s.hex != h || s.start_hex != unit(u).start_hex || def(x).side != def(u).side)
      continue;
    if (is_attachable(x)) continue;  // 8.31, 8.32: joins with its parent (start_battle)
    if (!can_attack_unit(x, target, true)) continue;
    const int c = ma_cost(x, h, target);
    const int left = mp_left(x);
    if (c < 0 || left < c) continue;
    const int sup = unit_supply(x);
    if (sup != kSupOverland && sup != kSupGarrison && sup != kSupAlways && sup != kSupCrimea) continue;
    if (s.mp >= 0 && std::find(movers_.begin(), movers_.end(), x) == movers_.end()) continue;
    out.push_back(x);
  }
}

void BdState::gen_attacks(std::vector<Action>& out) const {
  const int side = phase_side();
  std::array<uint8_t, kNumHexes> occ{};
  occ.fill(kNoSide);
  for (int u = 0; u < num_units(); ++u)
    if (unit(u).where == kOnMap) occ[static_cast<size_t>(unit(u).hex)] = def(u).side;
  // The units of each hex as a list in unit order, so that a stack is read without a scan
  // of every unit (units_in scans them, and this asks for every candidate hex); `stack`
  // sorts it exactly as units_in does (the same sequence into the same sort).
  std::array<int16_t, kNumHexes> head;
  head.fill(-1);
  std::array<int16_t, kMaxUnits> next_in_hex{};
  for (int u = num_units() - 1; u >= 0; --u)
    if (unit(u).where == kOnMap) {
      next_in_hex[static_cast<size_t>(u)] = head[static_cast<size_t>(unit(u).hex)];
      head[static_cast<size_t>(unit(u).hex)] = static_cast<int16_t>(u);
    }
  auto stack = [&](int h, std::vector<int>& into) {
    into.clear();
    for (int x = head[static_cast<size_t>(h)]; x >= 0; x = next_in_hex[static_cast<size_t>(x)])
      into.push_back(x);
    std::sort(into.begin(), into.end(), [&](int a, int b) { return unit(a).order < unit(b).order; });
  };
  std::vector<int> here;
  if (is_assault_phase()) {
    for (int t = 0; t < kNumHexes; ++t) {
      if (occ[static_cast<size_t>(t)] != other(side)) continue;
      stack(t, here);
      bool done = false;
      for (int dd : here)
        if ((unit(dd).flags & kFlagDefended) && !(unit(dd).flags & kFlagRetreatedIn)) done = true;
      if (done) continue;
      int hexes[6], n = 0;
      for (int d = 0; d < 6; ++d) {
        const int h = neighbour(t, d);
        if (h < 0 || occ[static_cast<size_t>(h)] != side) continue;
        stack(h, here);
        bool any = false;
        for (int u : here)
          if (def(u).attack != 0 && can_attack_unit(u, t, false)) any = true;
        if (any) hexes[n++] = h;
      }
      for (int mask = 1; mask < (1 << n); ++mask) {
        Action a;
        a.verb = kAttackFrom;
        a.push(t);
        a.push(0);
        for (int i = 0; i < n; ++i)
          if ((mask >> i) & 1) a.push(hexes[i]);
        std::vector<int> atts;
        if (!collect_attack_from(a, atts).is_ok()) continue;
        if (!check_attack(t, atts, false, false).is_ok()) continue;
        out.push_back(a);
        if (side == kGerman && markers_.luftwaffe_left > 0) {
          a.args[1] = 1;
          out.push_back(a);
        }
      }
      // Single units of a stack may attack on their own (11.5): "attack T with U".
      for (int i = 0; i < n; ++i) {
        stack(hexes[i], here);
        for (int u : here) {
          if (def(u).attack == 0) continue;
          std::vector<int> one{u};
          if (!check_attack(t, one, false, false).is_ok()) continue;
          for (int lw = 0; lw <= (side == kGerman && markers_.luftwaffe_left > 0 ? 1 : 0); ++lw) {
            Action a;
            a.verb = kAttackWith;
            a.push(t);
            a.push(lw);
            a.push(u);
            out.push_back(a);
          }
        }
      }
    }
  } else if (is_move_phase() && ma_allowed_now(side)) {
    for (int h = 0; h < kNumHexes; ++h) {
      if (occ[static_cast<size_t>(h)] != side) continue;
      stack(h, here);
      for (int d = 0; d < 6; ++d) {
        const int t = neighbour(h, d);
        if (t < 0 || occ[static_cast<size_t>(t)] != other(side)) continue;
        // Each unit alone, and each group that started the phase together (10.27).
        std::vector<int> group;
        std::vector<int16_t> seen_starts;
        for (int u : here) {
          if (!can_attack_unit(u, t, true)) continue;
          for (int lw = 0; lw <= (side == kGerman && markers_.luftwaffe_left > 0 ? 1 : 0); ++lw) {
            std::vector<int> one{u};
            if (def(u).attack != 0 && check_attack(t, one, true, lw != 0).is_ok()) {
              Action a;
              a.verb = kMobileAssault;
              a.push(t);
              a.push(lw);
              a.push(u);
              out.push_back(a);
            }
            if (std::find(seen_starts.begin(), seen_starts.end(), unit(u).start_hex) != seen_starts.end())
              continue;
            ma_group(u, t, group);
            if (group.size() < 2 || group.size() + 2 > static_cast<size_t>(Action::kMaxArgs)) continue;
            if (!check_attack(t, group, true, lw != 0).is_ok()) continue;
            Action a;
            a.verb = kMobileAssault;
            a.push(t);
            a.push(lw);
            for (int x : group) a.push(x);
            out.push_back(a);
          }
          seen_starts.push_back(unit(u).start_hex);
        }
      }
    }
  }
}

}  // namespace bd
