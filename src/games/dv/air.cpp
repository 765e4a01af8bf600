// 8.0 Airpower: the air units and their bases (8.1, 8.2), Tac Air and Strategic Air combat
// support (8.3, 8.4), air bombardment (8.5), German Air Supply (8.6.1 in the Logistics round,
// 8.6.2 in the Attrition Phase), the winter of 1941-42 (8.7) and the oil hexes (8.8); the
// Air Base Phase (4.0 II) and the Turn Advance flip (4.0 VI). The rules' numbers are
// data/dv/air.json, the Bombardment Table data/dv/bombardment.json, the factors and ranges
// counters.json.
//
// An air unit in play stays in the Air/Assets box (Box::kAirAssets): it is never a unit on a
// hex, so no movement, ZOC, stacking or combat rule of the ground game sees it; its base is
// the hex of its AirSlot (DvState::air_).
#include <algorithm>

#include "games/dv/dv.h"
#include "kernel/verbs.h"

namespace dv {

using steppe::Action;
using steppe::Error;
using steppe::JsonReader;
using steppe::Result;
using steppe::rule_error;
using steppe::Status;

namespace {

constexpr const char* kWeatherNames[] = {"fair", "mixed", "mud", "snow"};

int weather_index(const std::string& w) {
  for (int i = 0; i < 4; ++i)
    if (w == kWeatherNames[i]) return i;
  return -1;
}

std::array<bool, 4> weather_set(const JsonReader& r) {
  std::array<bool, 4> out{};
  for (const JsonReader& e : r.elements()) {
    const int w = weather_index(e.as_str());
    if (w < 0)
      e.fail_value("a weather of 11.3: fair, mixed, mud or snow");
    else
      out[static_cast<size_t>(w)] = true;
  }
  return out;
}

bool strategic(const UnitDef& d) { return d.type == "air-unit"; }

}  // namespace

int DvGame::air_slot(int u) const {
  for (size_t i = 0; i < air_units_.size(); ++i)
    if (air_units_[i] == u) return static_cast<int>(i);
  return -1;
}

Status load_air(DvGame& g, const Json& air, const Json& bombardment, const std::string& dir) {
  for (size_t i = 0; i < g.units_.size(); ++i)
    if (g.units_[i].cls == "air") g.air_units_.push_back(static_cast<int>(i));
  AirRules& a = g.air_;
  JsonReader r(air, dir + "/air.json");
  r.allow_only({"rule", "reconstructed", "source", "basing", "combat_support", "tac_air_per_combat",
                "bombardment", "air_supply_oos", "air_supply_is", "winter", "initial_bases"});
  r.check_reconstructed();
  const JsonReader b = r.at("basing");
  a.free_move_hexes = b.int_in("free_move_hexes", 0, 99);
  a.bases_per_town = b.int_in("bases_per_town", 0, 9);
  a.bases_per_city = b.int_in("bases_per_city", 0, 9);
  a.soviet_base_in_ussr = b.boolean("soviet_base_in_ussr");
  const JsonReader cs = r.at("combat_support");
  a.strategic_per_combat = cs.int_in("strategic_air_per_combat", 0, 9);
  a.lone_hq_cap = cs.int_in("lone_hq_cap", 0, 9);
  const JsonReader tac = r.at("tac_air_per_combat");
  for (const JsonReader& e : tac.at("soviet").elements())
    a.soviet_tac_per_combat.emplace_back(e.int_in("from_year", 1941, 1945), e.int_in("max", 0, 9));
  a.romanian_weather = weather_set(tac.at("romanian_weather"));
  const JsonReader bo = r.at("bombardment");
  a.done_at_most = bo.int_in("done_on_modified_at_most", -9, 9);
  for (int w = 0; w < 4; ++w)
    a.bomb_weather_drm[static_cast<size_t>(w)] = bo.at("weather_drm").int_in(kWeatherNames[w], -9, 9);
  for (const JsonReader& e : bo.at("loss_only_drm").elements()) {
    const int u = g.unit_index(e.str("unit"));
    if (u < 0)
      e.at("unit").fail_value("no such counter");
    else
      g.units_[static_cast<size_t>(u)].air_loss_drm = e.int_in("drm", -9, 9);
  }
  const JsonReader os = r.at("air_supply_oos");
  a.oos_year = os.int_in("year", 1941, 1945);
  a.oos_weather = weather_set(os.at("weather"));
  a.oos_max_round = os.int_in("max_units_per_round", 0, 99);
  a.oos_max_air = os.int_in("max_units_per_air_unit", 0, 99);
  a.oos_mp_penalty = os.int_in("mp_penalty", 0, 9);
  const JsonReader is = r.at("air_supply_is");
  a.is_first = is.int_in("first_turn", 1, 44);
  a.is_last = is.int_in("last_turn", 1, 44);
  a.is_risk_from = is.int_in("risk_from_turn", 1, 45);
  a.is_lost_at = is.int_in("eliminated_at_total", 1, 99);
  a.is_back = is.int_in("back_after_turns", 1, 44);
  const JsonReader wi = r.at("winter");
  a.winter_first = wi.int_in("first_turn", 1, 44);
  a.winter_last = wi.int_in("last_turn", 1, 44);
  for (const auto& [key, e] : r.at("initial_bases").members()) {
    if (key == "rule" || key == "reconstructed" || key == "source") continue;
    const int u = g.unit_index(key);
    const int h = g.grid().parse(e.as_str());
    if (u < 0 || g.air_slot(u) < 0 || !strategic(g.unit(u)))
      e.fail("initial_bases: '" + key + "' is no Strategic Air unit of counters.json");
    else if (h < 0 || !g.hex(h).city)
      e.fail_value("a city hex (8.2: Air Bases are in Towns or Cities)");
    else
      a.initial_base.emplace_back(u, h);
  }
  // 8.5 the Bombardment Table.
  JsonReader t(bombardment, dir + "/bombardment.json");
  a.bomb_columns = t.str_list("odds_columns");
  for (const std::string& c : a.bomb_columns) {
    const std::vector<std::string> rows = t.at("table").at(c).as_str_list();
    if (rows.size() != 8) {
      t.at("table").at(c).fail_value("8 rows: <=0, 1..6, >=7");
      continue;
    }
    std::array<std::string, 8> row;
    std::copy(rows.begin(), rows.end(), row.begin());
    a.bomb_table.push_back(row);
  }
  const JsonReader td = t.at("terrain_defense");
  a.bomb_terrain[kClear] = td.int_in("clear", 0, 9);
  a.bomb_terrain[kWoods] = td.int_in("woods", 0, 9);
  a.bomb_terrain[kSwamp] = td.int_in("swamp", 0, 9);
  a.bomb_terrain[kRough] = td.int_in("rough", 0, 9);
  a.bomb_terrain[kSea] = a.bomb_terrain[kLake] = 1;
  a.bomb_town = td.int_in("town", 0, 9);
  a.bomb_city = td.int_in("city", 0, 9);
  a.bomb_weak_fort = td.int_in("weak-fort", 0, 9);
  a.bomb_fort = td.int_in("fort", 0, 9);
  a.bomb_dw = td.int_in("defensive-works", 0, 9);
  a.bomb_fz = td.int_in("fortified-zone", 0, 9);
  if (!r.ok()) return r.error();
  if (!t.ok()) return t.error();
  return Status::ok();
}

// ---- 8.1, 8.2 the air units and their bases ----

bool DvState::air_in_play(int u) const {
  const int k = g_.air_slot(u);
  if (k < 0 || us(u).box != Box::kAirAssets) return false;
  const AirSlot& a = air_[static_cast<size_t>(k)];
  return a.back < 0 || a.back <= turn_;
}

bool DvState::air_available(int u) const {
  if (!air_in_play(u)) return false;
  const AirSlot& a = air_slot(u);
  return !a.done && (!strategic(g_.unit(u)) || a.base >= 0);
}

// 8.4 "The range cannot be traced through Mountain hexes within the Soviet Union, but is
// otherwise not affected by terrain, Enemy units, or ZOC": a search from the base that does
// not go on from a USSR Mountain hex (the base and the target may be one, ruling DV-A3).
bool DvState::air_in_range(int u, int h) const {
  const AirSlot& a = air_slot(u);
  const steppe::HexGrid& gr = g_.grid();
  const int range = g_.unit(u).air_range;
  if (a.base < 0 || h < 0 || gr.distance(a.base, h) > range) return false;
  if (h == a.base) return true;
  std::vector<int16_t> dist(static_cast<size_t>(gr.size()), -1);
  std::vector<int> frontier{a.base}, next;
  dist[static_cast<size_t>(a.base)] = 0;
  for (int d = 0; d < range && !frontier.empty(); ++d) {
    next.clear();
    for (int x : frontier) {
      if (x != a.base && g_.hex(x).terrain == kRough && g_.hex(x).ussr) continue;
      for (int n : gr.neighbours(x)) {
        if (n < 0 || dist[static_cast<size_t>(n)] >= 0) continue;
        if (n == h) return true;
        dist[static_cast<size_t>(n)] = static_cast<int16_t>(d + 1);
        next.push_back(n);
      }
    }
    frontier.swap(next);
  }
  return false;
}

bool DvState::enemy_air_covers(int side, int h) const {
  for (int u : g_.air_units())
    if (g_.unit(u).side != side && strategic(g_.unit(u)) && air_in_play(u) && air_in_range(u, h)) return true;
  return false;
}

namespace {

// 8.2 "Only one Air Base may stack in a Town; two Air Bases may stack in a City" (the map
// prints cities only, ruling DV-A1).
int base_room(const DvState& s, int h, int except) {
  const AirRules& a = s.dv().air();
  int n = s.dv().hex(h).city ? a.bases_per_city : a.bases_per_town;
  for (int v : s.dv().air_units())
    if (v != except && s.air_in_play(v) && s.air_slot(v).base == h) --n;
  return n;
}

// 8.1/8.2: a hex an air unit of `side` may be based in: a friendly-controlled, in-supply city
// (the Soviets': in the Soviet Union) with room for one more base.
bool base_hex_ok(const DvState& s, int u, int h, const std::vector<uint8_t>& los) {
  const UnitDef& d = s.dv().unit(u);
  const HexInfo& hi = s.dv().hex(h);
  if (!hi.city || s.control(h) != d.side || los[static_cast<size_t>(h)] == 0) return false;
  if (s.occupant_side(h) == 1 - d.side) return false;
  if (d.side == kSoviet && s.dv().air().soviet_base_in_ussr && !hi.ussr) return false;
  return base_room(s, h, u) > 0;
}

// 8.1 "the closest Friendly, In-Supply Town or City" (ties: the lowest hex index, DV-A5).
int closest_base(const DvState& s, int u, int from) {
  std::vector<uint8_t> los, loc;
  s.trace_supply(s.dv().unit(u).side, los, loc);
  const steppe::HexGrid& gr = s.dv().grid();
  int best = -1, best_d = 1 << 20;
  for (int h = 0; h < gr.size(); ++h) {
    if (h == from || !base_hex_ok(s, u, h, los)) continue;
    const int d = gr.distance(from, h);
    if (d < best_d) best = h, best_d = d;
  }
  return best;
}

}  // namespace

void DvState::base_destinations(int u, std::vector<int>& out) const {
  out.clear();
  if (stage_ != Stage::kAirBase || g_.air_slot(u) < 0 || !strategic(g_.unit(u)) ||
      g_.unit(u).side != active_ || !air_in_play(u) || us(u).moved)
    return;
  std::vector<uint8_t> los, loc;
  trace_supply(active_, los, loc);
  for (int h = 0; h < g_.grid().size(); ++h)
    if (h != air_slot(u).base && base_hex_ok(*this, u, h, los)) out.push_back(h);
}

std::string DvState::base_refusal(int u, int h, std::string* rule) const {
  *rule = "8.2";
  if (stage_ != Stage::kAirBase)
    return "Air Bases move only in the Air Base Phase (4.0 II), the Axis Segment first";
  if (g_.air_slot(u) < 0 || !strategic(g_.unit(u))) return g_.unit(u).label + " is no Strategic Air unit";
  if (g_.unit(u).side != active_)
    return "this is the " + std::string(active_ == kAxis ? "Axis" : "Soviet") + " Air Base Segment";
  if (!air_in_play(u)) return g_.unit(u).label + " is not in play";
  if (us(u).moved) return g_.unit(u).label + "'s base has already moved in this segment";
  std::vector<int> dest;
  base_destinations(u, dest);
  if (std::find(dest.begin(), dest.end(), h) == dest.end())
    return g_.unit(u).label + " may not be based in " + g_.grid().id(h) +
           (g_.unit(u).side == kAxis
                ? " (a Friendly-Controlled, In-Supply Town or City"
                : " (an In-Supply, Soviet-Controlled Town or City within the Soviet Union") +
           ", one base to a Town, two to a City)";
  return "";
}

void DvState::do_base(int u, int h) {
  AirSlot& a = air_[static_cast<size_t>(g_.air_slot(u))];
  const UnitDef& d = g_.unit(u);
  const int from = a.base;
  const int dist = from >= 0 ? g_.grid().distance(from, h) : 0;
  a.base = h;
  us(u).moved = true;
  std::string text = d.label +
                     (from >= 0 ? "'s base moves " + std::to_string(dist) + " hexes to " : " is based in ") +
                     g_.grid().id(h);
  std::string rule = "8.2";
  // 8.2 "If beyond 12 hexes, instead flip the Air unit to its Done side"; a unit based for the
  // first time (DV-A2) does not flip.
  if (from >= 0 && dist > g_.air().free_move_hexes) {
    a.done = true;
    text += ": beyond " + std::to_string(g_.air().free_move_hexes) + " hexes, Done";
  } else if (d.side == kAxis && turn_ >= g_.air().winter_first && turn_ <= g_.air().winter_last) {
    // 8.7 "On Turns 7-9 German Air units are automatically flipped to their Done side after
    // performing any single action, including moving their Base counter."
    a.done = true;
    text += ": Done (Turns 7-9)";
    rule = "8.2, 8.7";
  }
  log("air", text, rule);
}

bool DvState::advance_air_base() {
  while (air_phase_ < 2) {
    const int side = air_phase_;
    const Stage was = stage_;
    const int was_active = active_;
    stage_ = Stage::kAirBase;
    active_ = side;
    for (int u : g_.air_units())
      if (g_.unit(u).side == side) us(u).moved = false;
    std::vector<int> dest;
    for (int u : g_.air_units()) {
      base_destinations(u, dest);
      if (!dest.empty()) {
        log("phase", std::string(side == kAxis ? "Axis" : "Soviet") + " Air Base Segment", "4.0, 8.2");
        return true;
      }
    }
    stage_ = was;
    active_ = was_active;
    ++air_phase_;
  }
  return false;
}

// ---- 8.3, 8.4 combat support ----

namespace {

// The side's ground units in the combat being fought: the attackers or the defenders.
std::vector<int> combat_units(const DvState& s, bool attacker) {
  if (attacker) return s.attackers();
  std::vector<int> in, out;
  s.units_in(s.target(), in);
  for (int u : in)
    if (s.dv().unit(u).ground && !s.us(u).defended) out.push_back(u);
  return out;
}

int soviet_tac_limit(const DvState& s) {
  int n = 0;
  for (const auto& [year, max] : s.dv().air().soviet_tac_per_combat)
    if (s.year() >= year) n = max;
  return n;
}

std::string support_refusal(const DvState& s, int u, bool attacker, std::string* rule) {
  const DvGame& g = s.dv();
  const UnitDef& d = g.unit(u);
  *rule = "8.4";
  const int side = attacker ? s.active_side() : 1 - s.active_side();
  if (g.air_slot(u) < 0) return d.label + " is no air unit";
  if (d.side != side) return d.label + " is not the " + (attacker ? "attacker's" : "defender's");
  if (!s.air_in_play(u)) return d.label + " is not in play";
  const std::vector<int>& mine = s.air_committed(attacker);
  const std::vector<int>& theirs = s.air_committed(!attacker);
  if (std::find(mine.begin(), mine.end(), u) != mine.end() ||
      std::find(theirs.begin(), theirs.end(), u) != theirs.end())
    return d.label + " already supports this combat";
  const std::vector<int> units = combat_units(s, attacker);
  if (units.empty()) return "air support is added to friendly units in the combat: add an attacker first";
  if (strategic(d)) {
    if (!s.air_available(u)) return d.label + " is on its Done side or has no base";
    int n = 0;
    for (int v : mine) n += strategic(g.unit(v)) ? 1 : 0;
    if (n >= g.air().strategic_per_combat) return "German Air units may not combine in Combat Support";
    if (!s.air_in_range(u, s.target()))
      return d.label + " cannot reach " + g.grid().id(s.target()) +
             " (its range from its base, not traced through Mountain hexes in the Soviet Union)";
    return "";
  }
  // 8.3 Tac Air: "may be used on attack or defense in any Combat involving units of the same
  // nationality", once per turn.
  *rule = d.nation == "romanian" ? "8.3.2" : d.nation == "soviet" ? "8.3.1" : "8.3";
  if (s.air_slot(u).done) return d.label + " has been used this turn (it returns next turn)";
  bool same = false;
  for (int v : units) same |= g.unit(v).nation == d.nation;
  if (!same) return d.label + " supports only combats involving " + d.nation + " units";
  if (d.nation == "romanian" && !g.air().romanian_weather[s.weather()])
    return "the Romanian Air Asset may be used in Fair or Mixed Weather only";
  if (d.nation == "soviet") {
    int n = 0;
    for (int v : mine) n += !strategic(g.unit(v)) && g.unit(v).nation == "soviet" ? 1 : 0;
    if (n >= soviet_tac_limit(s))
      return "at most " + std::to_string(soviet_tac_limit(s)) + " Soviet Tac Air per Combat in " +
             std::to_string(s.year());
  }
  return "";
}

}  // namespace

std::string DvState::air_support_refusal(int u, std::string* rule) const {
  if (stage_ == Stage::kCombat && target_ >= 0) return support_refusal(*this, u, true, rule);
  if (stage_ == Stage::kAirDefend) return support_refusal(*this, u, false, rule);
  *rule = "8.4";
  return "air support is given to a combat being fought: the attacker's before the defender's";
}

bool DvState::defender_air_possible() const {
  if (target_ < 0) return false;
  std::string rule;
  for (int u : g_.air_units())
    if (support_refusal(*this, u, false, &rule).empty()) return true;
  return false;
}

// 8.3/8.4 "The maximum number of Friendly Air Combat factors that may be added to a Combat is
// equal to the printed attack/defense value of the Friendly units involved in that Combat
// (any excess factors are lost)"; "maximum 1 for lone HQ/Leaders". Tac Air and Air units count
// against one cap (ruling DV-A4).
int DvState::air_factor(bool attacker, std::string* note) const {
  const std::vector<int>& air = attacker ? air_att_ : air_def_;
  if (air.empty() || target_ < 0) return 0;
  int sum = 0;
  for (int u : air) sum += strategic(g_.unit(u)) ? g_.unit(u).air_support : g_.unit(u).attack[0];
  int cap = 0;
  bool lone_hq = true;
  for (int u : combat_units(*this, attacker)) {
    const UnitDef& d = g_.unit(u);
    const size_t step = us(u).steps == d.steps ? 0 : 1;
    cap += attacker ? d.attack[step] : d.defense[step];
    lone_hq = lone_hq && d.hq;
  }
  if (lone_hq) cap = std::min(cap, g_.air().lone_hq_cap);
  const int added = std::min(sum, cap);
  if (note != nullptr) {
    *note = (attacker ? "attacking" : "defending") + std::string(" air support +") + std::to_string(added);
    if (added < sum) *note += " (" + std::to_string(sum) + " offered, capped at the printed values)";
    *note += " (8.3, 8.4)";
  }
  return added;
}

// 8.3 "Once that Combat is resolved, the Tac Air unit is removed from the map and placed on the
// Game Turn Track to return to play the following Turn"; 8.4 "Attacking Air units remain face up
// ... Defending Air units are flipped to their Done side"; 8.7 German air on Turns 7-9.
void DvState::air_after_combat() {
  const bool winter = turn_ >= g_.air().winter_first && turn_ <= g_.air().winter_last;
  for (int pass = 0; pass < 2; ++pass)
    for (int u : pass == 0 ? air_att_ : air_def_) {
      AirSlot& a = air_[static_cast<size_t>(g_.air_slot(u))];
      const UnitDef& d = g_.unit(u);
      if (!strategic(d)) {
        a.done = true;
        log("air", d.label + " is used for this turn", d.nation == "romanian" ? "8.3.2" : "8.3.1");
      } else if (pass == 1 || (winter && d.side == kAxis)) {
        a.done = true;
        log("air", d.label + " returns to its base, Done", pass == 1 ? "8.4" : "8.7");
      } else {
        log("air", d.label + " returns to its base face up", "8.4");
      }
    }
  air_att_.clear();
  air_def_.clear();
}

// ---- 8.5 bombardment ----

namespace {

// 8.5 "The defender's defense strength is determined by the Terrain the unit is in": the
// cumulative Terrain Defense factor; a Fort ignores the other terrain of its hex (12.7.1).
int bombard_defense(const DvState& s, int h, bool fort, bool weak) {
  const AirRules& a = s.dv().air();
  const HexInfo& hi = s.dv().hex(h);
  if (fort) return a.bomb_fort;
  if (weak) return a.bomb_weak_fort;
  int d = a.bomb_terrain[hi.terrain];
  if (hi.city) d += a.bomb_city;
  if (hi.dw) d += a.bomb_dw;
  if (hi.fz) d += a.bomb_fz;
  return std::max(d, 1);
}

// 8.5 "round off in favor of the defender": the column at or below the ratio; -1 below the table.
int bombard_column(const AirRules& a, int att, int def) {
  std::string label;
  if (att >= def) {
    int n = att / def;
    const std::string& top = a.bomb_columns.back();
    const int top_n = std::atoi(top.c_str());
    if (top.size() > 2 && top.substr(top.size() - 2) == "-1") n = std::min(n, top_n);
    label = std::to_string(n) + "-1";
  } else {
    label = "1-" + std::to_string((def + att - 1) / att);
  }
  for (size_t i = 0; i < a.bomb_columns.size(); ++i)
    if (a.bomb_columns[i] == label) return static_cast<int>(i);
  return -1;
}

}  // namespace

std::string DvState::bombard_refusal(int a, int target, std::string* rule) const {
  *rule = "8.5";
  const UnitDef& d = g_.unit(a);
  if (stage_ != Stage::kCombat)
    return "Bombardment takes place in the Combat portion of a Friendly Round in which Combat is permitted";
  if (target_ >= 0) return "finish the combat on " + g_.grid().id(target_) + " first";
  if (g_.air_slot(a) < 0 || !strategic(d))
    return d.label + " is no Strategic Air unit (Tac Air cannot bombard)";
  if (d.side != active_) return d.label + " is not the side whose round it is";
  if (!air_available(a)) return d.label + " is on its Done side or has no base";
  const UnitDef& t = g_.unit(target);
  if (us(target).box != Box::kMap || !t.ground || t.side == active_)
    return t.label + " is no enemy ground unit";
  const int h = us(target).hex;
  if (std::find(bombarded_.begin(), bombarded_.end(), h) != bombarded_.end())
    return "no more than one Air unit may Bombard a single hex each Combat: " + g_.grid().id(h) +
           " has been bombarded this round (DV-A6)";
  if (!air_in_range(a, h))
    return d.label + " cannot reach " + g_.grid().id(h) +
           " (its range from its base, not traced through Mountain hexes in the Soviet Union)";
  return "";
}

void DvState::do_bombard(int a, int target) {
  const AirRules& r = g_.air();
  const UnitDef& d = g_.unit(a);
  const UnitDef& t = g_.unit(target);
  const int h = us(target).hex;
  const HexInfo& hi = g_.hex(h);
  const int def_side = t.side;
  const bool fort = hi.fort_owner == def_side && fort_gone_[static_cast<size_t>(h)] == 0;
  const bool weak = hi.weak_fort_owner == def_side && fort_gone_[static_cast<size_t>(h)] == 0;
  const int def = bombard_defense(*this, h, fort, weak);
  const int col = bombard_column(r, d.air_bombard, def);
  bombarded_.push_back(h);
  AirSlot& s = air_[static_cast<size_t>(g_.air_slot(a))];
  const std::string odds = col >= 0 ? r.bomb_columns[static_cast<size_t>(col)] : "below the table";
  const int die = roll(6, "bombardment of " + g_.grid().id(h), "8.5");
  // 8.5 "German Air (not artillery) bombardment attempts suffer a -1 DRM in Mixed Weather and
  // a -2 DRM in Snow"; the 8th's +1 "affects the Loss Result only, not whether the 8th is Done".
  const int weather_drm = d.side == kAxis ? r.bomb_weather_drm[weather()] : 0;
  const int modified = die + weather_drm;
  const int loss_roll = modified + d.air_loss_drm;
  std::string result = "NE";
  if (col >= 0) {
    const size_t row = loss_roll <= 0 ? 0 : loss_roll >= 7 ? 7 : static_cast<size_t>(loss_roll);
    result = r.bomb_table[static_cast<size_t>(col)][row];
  }
  const bool hit = result.find('1') != std::string::npos;
  std::string text = d.label + " bombards " + t.label + " in " + g_.grid().id(h) + ": " +
                     std::to_string(d.air_bombard) + " to terrain defence " + std::to_string(def) + " (" +
                     odds + "), roll " + std::to_string(die);
  if (weather_drm != 0) text += (weather_drm > 0 ? " +" : " ") + std::to_string(weather_drm);
  if (d.air_loss_drm != 0) text += ", loss read at " + std::to_string(loss_roll);
  text += hit ? ": one step lost" : ": no effect";
  log("bombard", text, "8.5");
  if (hit) {
    UnitState& u = us(target);
    if (u.steps >= 2) {
      u.steps = 1;
      log("loss", t.label + " is reduced", "8.5");
    } else {
      u.box = Box::kEliminated;
      u.hex = -1;
      u.steps = 0;
      u.supply = 0;
      if (t.hq) u.return_turn = static_cast<int16_t>(turn_ + (t.type == "panzer-hq" ? 2 : 1));
      log("loss", t.label + " is eliminated", "8.5");
    }
  }
  // 8.5 "If the modified DR was 1,2, or 3, it returns to Base and is flipped to its Done side";
  // 8.7 every German action on Turns 7-9.
  const bool winter = d.side == kAxis && turn_ >= r.winter_first && turn_ <= r.winter_last;
  if (modified <= r.done_at_most || winter) {
    s.done = true;
    log("air", d.label + " returns to its base, Done", winter && modified > r.done_at_most ? "8.7" : "8.5");
  } else {
    log("air", d.label + " returns to its base, available", "8.5");
  }
}

// ---- 8.6 German Air Supply ----

namespace {

bool german(const UnitDef& d) { return d.side == kAxis && d.nation == "german"; }

// 8.6.1 the OOS German Mechanized units in h that an air unit may supply.
void oos_mech_in(const DvState& s, int h, std::vector<int>& out) {
  out.clear();
  std::vector<int> in;
  s.units_in(h, in);
  for (int v : in)
    if (german(s.dv().unit(v)) && s.dv().unit(v).ground && s.dv().unit(v).mech && s.us(v).supply == 1 &&
        !s.air_supplied(v))
      out.push_back(v);
}

// 8.6.2 the IS German units in and adjacent to h.
void is_units_around(const DvState& s, int h, std::vector<int>& out) {
  out.clear();
  std::vector<int> in;
  auto take = [&](int x) {
    s.units_in(x, in);
    for (int v : in)
      if (german(s.dv().unit(v)) && s.dv().unit(v).ground && s.us(v).supply == 2) out.push_back(v);
  };
  take(h);
  for (int n : s.dv().grid().neighbours(h))
    if (n >= 0) take(n);
}

}  // namespace

bool DvState::air_supplied(int u) const {
  return std::find(air_supplied_.begin(), air_supplied_.end(), u) != air_supplied_.end();
}

std::string DvState::air_supply_refusal(int a, int h, std::string* rule) const {
  *rule = air_supply_kind_ == 1 ? "8.6.1" : "8.6.2";
  if (stage_ != Stage::kAirSupply)
    return "German Air Supply is given in the Logistics round of 1941 (8.6.1) or the Air Supply Segment of "
           "the "
           "Attrition Phase, Turns 2-18 (8.6.2)";
  const UnitDef& d = g_.unit(a);
  if (g_.air_slot(a) < 0 || !strategic(d) || d.side != kAxis) return d.label + " is no German Air unit";
  if (!air_available(a)) return d.label + " is on its Done side or has no base";
  if (!air_in_range(a, h)) return g_.grid().id(h) + " is out of " + d.label + "'s range";
  std::vector<int> units;
  if (air_supply_kind_ == 1) {
    if (air_supply_left_ <= 0)
      return "no more than six German Mechanized units may be Supplied per Logistics Round";
    if (air_supply_used_[static_cast<size_t>(g_.air_slot(a))] >= g_.air().oos_max_air)
      return d.label + " has supplied six Mechanized units this round";
    oos_mech_in(*this, h, units);
    if (units.empty())
      return g_.grid().id(h) +
             " holds no Out of Supply German Mechanized unit not yet Air Supplied (never an "
             "Isolated one)";
    return "";
  }
  if (!g_.hex(h).city || control(h) != kAxis)
    return "Air Supply is given in and adjacent to an Axis-Controlled Town or City, not " + g_.grid().id(h);
  is_units_around(*this, h, units);
  if (units.empty()) return "no Isolated German unit in or adjacent to " + g_.grid().id(h);
  return "";
}

void DvState::do_air_supply(int a, int h) {
  AirSlot& s = air_[static_cast<size_t>(g_.air_slot(a))];
  const UnitDef& d = g_.unit(a);
  std::vector<int> units;
  if (air_supply_kind_ == 1) {
    // 8.6.1 "An Available Air unit may Supply up to six Mechanized units in range and is not
    // flipped to its Done side"; "It is treated as fully Supplied in all respects, but its MP
    // Allowance is reduced by two. It remains in Air Supply until the next Logistics Round."
    oos_mech_in(*this, h, units);
    int& used = air_supply_used_[static_cast<size_t>(g_.air_slot(a))];
    for (int v : units) {
      if (air_supply_left_ <= 0 || used >= g_.air().oos_max_air) break;
      us(v).supply = 0;
      air_supplied_.push_back(v);
      --air_supply_left_;
      ++used;
      log("supply",
          g_.unit(v).label + " is Air Supplied by " + d.label + " (MP Allowance -" +
              std::to_string(g_.air().oos_mp_penalty) + ")",
          "8.6.1");
    }
  } else {
    // 8.6.2 "The Supplied units are marked OOS and no longer Isolated. After providing Supply,
    // flip the Air unit to its Done side."
    is_units_around(*this, h, units);
    for (int v : units) {
      us(v).supply = 1;
      log("supply", g_.unit(v).label + " is Air Supplied by " + d.label + ": OOS, no longer Isolated",
          "8.6.2");
    }
    s.done = true;
    if (turn_ >= g_.air().is_risk_from) {
      // 8.6.2 Turns 12-18: "roll 1d6 and add that number to the range from the Air unit's Base to
      // the IS Town or City. If the total is 1-11, return the Air to its Base. If the total is 12
      // or greater, the Air unit (but not its Base) is eliminated ... three Turns after".
      const int dist = g_.grid().distance(s.base, h);
      const int die = roll(6, "air supply risk of " + d.label, "8.6.2");
      const int total = die + dist;
      if (total >= g_.air().is_lost_at) {
        s.back = static_cast<int16_t>(turn_ + g_.air().is_back);
        log("air",
            d.label + ": roll " + std::to_string(die) + " + range " + std::to_string(dist) + " = " +
                std::to_string(total) + ", eliminated; it returns on Turn " + std::to_string(s.back),
            "8.6.2");
      } else {
        log("air",
            d.label + ": roll " + std::to_string(die) + " + range " + std::to_string(dist) + " = " +
                std::to_string(total) + ", returns to its base",
            "8.6.2");
      }
    }
  }
}

namespace {

bool air_supply_use_left(const DvState& s) {
  std::string rule;
  for (int a : s.dv().air_units()) {
    if (!s.air_available(a) || s.dv().unit(a).side != kAxis) continue;
    for (int h = 0; h < s.dv().grid().size(); ++h)
      if (s.air_supply_refusal(a, h, &rule).empty()) return true;
  }
  return false;
}

}  // namespace

bool DvState::begin_air_supply(bool logistics) {
  const AirRules& r = g_.air();
  if (logistics) {
    if (year() != r.oos_year || !r.oos_weather[weather()]) return false;
  } else if (turn_ < r.is_first || turn_ > r.is_last) {
    return false;
  }
  const Stage was = stage_;
  const int was_active = active_;
  stage_ = Stage::kAirSupply;
  active_ = kAxis;
  air_supply_kind_ = logistics ? 1 : 2;
  air_supply_left_ = logistics ? r.oos_max_round : 0;
  std::fill(air_supply_used_.begin(), air_supply_used_.end(), 0);
  if (air_supply_use_left(*this)) {
    log("phase", logistics ? "German Air Supply to OOS Mechanized units" : "German Air Supply Segment",
        logistics ? "8.6.1" : "4.0, 8.6.2");
    return true;
  }
  stage_ = was;
  active_ = was_active;
  air_supply_kind_ = 0;
  return false;
}

void DvState::end_air_supply() {
  const int kind = air_supply_kind_;
  air_supply_kind_ = 0;
  air_supply_left_ = 0;
  if (kind == 1) {
    next_round();
  } else {
    finish_turn();
  }
}

// ---- the turn, overruns, logistics, oil ----

void DvState::air_setup() {
  air_.assign(g_.air_units().size(), AirSlot{});
  air_supply_used_.assign(g_.air_units().size(), 0);
  std::vector<uint8_t> los, loc;
  bool traced = false;
  for (const auto& [u, h] : g_.air().initial_base) {
    if (us(u).box != Box::kAirAssets) continue;
    if (!traced) trace_supply(kAxis, los, loc), traced = true;
    if (g_.unit(u).side == kAxis && base_hex_ok(*this, u, h, los)) {
      air_[static_cast<size_t>(g_.air_slot(u))].base = h;
      log("air", g_.unit(u).label + " is based in " + g_.grid().id(h), "8.2, DV-A2");
    }
  }
}

void DvState::air_start_turn() {
  air_phase_ = 0;
  air_att_.clear();
  air_def_.clear();
  bombarded_.clear();
  for (int u : g_.air_units()) {
    AirSlot& a = air_[static_cast<size_t>(g_.air_slot(u))];
    if (us(u).box != Box::kAirAssets) {  // withdrawn or removed (7.9, 8.8): its base goes with it
      a = AirSlot{};
      continue;
    }
    // 4.0 VI "flip all Done Air ... units back to their Available (front) sides"; 8.3 Tac Air
    // returns the following Turn; 8.6.2 an eliminated air unit returns on its turn (at its base).
    if (a.back >= 0 && a.back <= turn_) {
      a.back = -1;
      log("air", g_.unit(u).label + " returns to play", "8.6.2");
    }
    a.done = false;
  }
  // 8.3.2 "It is removed from play, on any Turn after 1941, if there are currently no
  // Axis-Controlled Romanian units inside the Soviet Union."
  if (year() > 1941)
    for (int u : g_.air_units()) {
      if (g_.unit(u).nation != "romanian" || !air_in_play(u)) continue;
      bool inside = false;
      for (size_t i = 0; i < units_.size() && !inside; ++i)
        inside = units_[i].box == Box::kMap && g_.units()[i].nation == "romanian" && g_.units()[i].ground &&
                 g_.hex(units_[i].hex).ussr;
      if (!inside) {
        us(u).box = Box::kRemoved;
        log("air", g_.unit(u).label + " is removed from play: no Romanian unit inside the Soviet Union",
            "8.3.2");
      }
    }
}

// 8.1 "If a Soviet unit enters a hex containing an Axis Air Base (via Movement or Advance After
// Combat), the Air Base must immediately relocate to the closest Friendly, In-Supply Town or City
// and its matching Air unit is flipped to its Done side. If an Axis unit enters a hex containing
// a Soviet Air unit, the Air unit is relocated to a different Town or City hex and flipped".
void DvState::air_overrun(int h, int side) {
  for (int u : g_.air_units()) {
    if (g_.unit(u).side == side || !air_in_play(u)) continue;
    AirSlot& a = air_[static_cast<size_t>(g_.air_slot(u))];
    if (a.base != h) continue;
    const int to = closest_base(*this, u, h);
    a.base = to;
    a.done = true;
    log("air",
        g_.unit(u).label + "'s base is overrun in " + g_.grid().id(h) +
            (to >= 0 ? ": it relocates to " + g_.grid().id(to) + ", Done"
                     : ": no friendly in-supply city has room, it waits for the next Air Base Phase (DV-A5)"),
        "8.1");
  }
}

// 8.1 "During the Logistics Action Round, if a Strategic Air unit is Out of Supply or Isolated,
// it is immediately relocated using these same procedures." 8.6.1 Air Supply ends here too.
void DvState::air_logistics() {
  if (!air_supplied_.empty()) {
    log("supply", "Air Supply markers are removed", "8.6.1");
    air_supplied_.clear();
  }
  std::array<std::vector<uint8_t>, 2> los, loc;
  for (int u : g_.air_units()) {
    if (!strategic(g_.unit(u)) || !air_in_play(u)) continue;
    AirSlot& a = air_[static_cast<size_t>(g_.air_slot(u))];
    if (a.base < 0) continue;
    const auto side = static_cast<size_t>(g_.unit(u).side);
    if (los[side].empty()) trace_supply(static_cast<int>(side), los[side], loc[side]);
    if (los[side][static_cast<size_t>(a.base)] != 0) continue;
    const int from = a.base;
    const int to = closest_base(*this, u, from);
    a.base = to;
    a.done = true;
    log("air",
        g_.unit(u).label + "'s base in " + g_.grid().id(from) + " is out of supply" +
            (to >= 0 ? ": it relocates to " + g_.grid().id(to) + ", Done"
                     : ": no base left, it waits (DV-A5)"),
        "8.1");
  }
}

// 8.8 "At the instant the Axis controls no Oil hexes (counting the Oil hex in Hungary)
// permanently remove all Axis Air units from the game."
void DvState::air_oil_check() {
  bool any_air = false;
  for (int u : g_.air_units()) any_air |= g_.unit(u).side == kAxis && strategic(g_.unit(u)) && air_in_play(u);
  if (!any_air) return;
  for (int h = 0; h < g_.grid().size(); ++h)
    if (g_.hex(h).oil && control(h) == kAxis) return;
  for (int u : g_.air_units())
    if (g_.unit(u).side == kAxis && strategic(g_.unit(u)) && us(u).box == Box::kAirAssets) {
      us(u).box = Box::kRemoved;
      air_[static_cast<size_t>(g_.air_slot(u))] = AirSlot{};
      log("air", g_.unit(u).label + " is removed from the game: the Axis controls no Oil hex", "8.8");
    }
}

// ---- the verbs ----

namespace {

Action make(uint16_t verb, std::initializer_list<int> args) {
  Action a;
  a.verb = verb;
  for (int x : args) a.push(x);
  return a;
}
bool valid_unit(const DvState& s, int u) { return u >= 0 && u < static_cast<int>(s.dv().units().size()); }
bool valid_hex(const DvState& s, int h) { return h >= 0 && h < s.dv().grid().size(); }

}  // namespace

void AirVerbs::gen_base(const DvState& s, std::vector<Action>& out) {
  if (s.stage() != Stage::kAirBase) return;
  std::vector<int> dest;
  for (int u : s.dv().air_units()) {
    s.base_destinations(u, dest);
    for (int h : dest) out.push_back(make(kBase, {u, h}));
  }
}
Status AirVerbs::check_base(const DvState& s, const Action& a) {
  if (a.nargs != 2 || !valid_unit(s, a.args[0]) || !valid_hex(s, a.args[1]))
    return Error{"usage: base AIR HEX", "", ""};
  std::string rule;
  const std::string why = s.base_refusal(a.args[0], a.args[1], &rule);
  if (!why.empty()) return rule_error(rule, why);
  return Status::ok();
}
void AirVerbs::apply_base(DvState& s, const Action& a) {
  s.do_base(a.args[0], a.args[1]);
  // The segment ends by itself once no base may move any more.
  std::vector<int> dest;
  for (int u : s.dv().air_units()) {
    s.base_destinations(u, dest);
    if (!dest.empty()) return;
  }
  end_segment(s);
}
void AirVerbs::end_segment(DvState& s) {
  ++s.air_phase_;
  s.advance_placement();
}

void AirVerbs::gen_air(const DvState& s, std::vector<Action>& out) {
  if (!((s.stage() == Stage::kCombat && s.target() >= 0) || s.stage() == Stage::kAirDefend)) return;
  std::string rule;
  for (int u : s.dv().air_units())
    if (s.air_support_refusal(u, &rule).empty()) out.push_back(make(kAir, {u}));
}
Status AirVerbs::check_air(const DvState& s, const Action& a) {
  if (a.nargs != 1 || !valid_unit(s, a.args[0])) return Error{"usage: air AIR", "", ""};
  std::string rule;
  const std::string why = s.air_support_refusal(a.args[0], &rule);
  if (!why.empty()) return rule_error(rule, why);
  return Status::ok();
}
void AirVerbs::apply_air(DvState& s, const Action& a) {
  const bool attacker = s.stage() == Stage::kCombat;
  (attacker ? s.air_att_ : s.air_def_).push_back(a.args[0]);
  s.log("air",
        s.dv().unit(a.args[0]).label + " supports the " + (attacker ? "attack on " : "defence of ") +
            s.dv().grid().id(s.target()),
        "8.4");
}
// 8.4 "Attacking Air support is placed before defenders": the attacker's `resolve` opens the
// defender's window when he has air that may support, and his `resolve` fights the combat.
bool AirVerbs::resolve_opens_defence(DvState& s) {
  if (s.stage() != Stage::kCombat || !s.defender_air_possible()) return false;
  s.stage_ = Stage::kAirDefend;
  s.log("air", "the defender may add air support to " + s.dv().grid().id(s.target()), "8.4");
  return true;
}

void AirVerbs::gen_bombard(const DvState& s, std::vector<Action>& out) {
  if (s.stage() != Stage::kCombat || s.target() >= 0) return;
  std::string rule;
  for (int a : s.dv().air_units()) {
    if (!s.air_available(a) || s.dv().unit(a).side != s.active_side() || !strategic(s.dv().unit(a))) continue;
    for (int u = 0; u < static_cast<int>(s.dv().units().size()); ++u)
      if (s.us(u).box == Box::kMap && s.dv().unit(u).side != s.active_side() && s.dv().unit(u).ground &&
          s.bombard_refusal(a, u, &rule).empty())
        out.push_back(make(kBombard, {a, u}));
  }
}
Status AirVerbs::check_bombard(const DvState& s, const Action& a) {
  if (a.nargs != 2 || !valid_unit(s, a.args[0]) || !valid_unit(s, a.args[1]))
    return Error{"usage: bombard AIR UNIT", "", ""};
  std::string rule;
  const std::string why = s.bombard_refusal(a.args[0], a.args[1], &rule);
  if (!why.empty()) return rule_error(rule, why);
  return Status::ok();
}
void AirVerbs::apply_bombard(DvState& s, const Action& a) { s.do_bombard(a.args[0], a.args[1]); }

void AirVerbs::gen_airsupply(const DvState& s, std::vector<Action>& out) {
  if (s.stage() != Stage::kAirSupply) return;
  std::string rule;
  for (int a : s.dv().air_units()) {
    if (!s.air_available(a) || s.dv().unit(a).side != kAxis) continue;
    for (int h = 0; h < s.dv().grid().size(); ++h)
      if (s.air_supply_refusal(a, h, &rule).empty()) out.push_back(make(kAirSupply, {a, h}));
  }
}
Status AirVerbs::check_airsupply(const DvState& s, const Action& a) {
  if (a.nargs != 2 || !valid_unit(s, a.args[0]) || !valid_hex(s, a.args[1]))
    return Error{"usage: airsupply AIR HEX", "", ""};
  std::string rule;
  const std::string why = s.air_supply_refusal(a.args[0], a.args[1], &rule);
  if (!why.empty()) return rule_error(rule, why);
  return Status::ok();
}
void AirVerbs::apply_airsupply(DvState& s, const Action& a) {
  s.do_air_supply(a.args[0], a.args[1]);
  if (!air_supply_use_left(s)) s.end_air_supply();
}

std::string AirVerbs::print(const DvState& s, const Action& a) {
  auto unit = [&](int i) {
    return i < a.nargs && valid_unit(s, a.args[i]) ? s.dv().unit(a.args[i]).label : "?";
  };
  auto hex = [&](int i) {
    return i < a.nargs && valid_hex(s, a.args[i]) ? s.dv().grid().id(a.args[i]) : "?";
  };
  switch (a.verb) {
    case kBase:
      return "base " + unit(0) + " " + hex(1);
    case kAir:
      return "air " + unit(0);
    case kBombard:
      return "bombard " + unit(0) + " " + unit(1);
    case kAirSupply:
      return "airsupply " + unit(0) + " " + hex(1);
    default:
      return "?";
  }
}

Result<Action> AirVerbs::parse(const DvState& s, uint16_t verb, std::span<const std::string_view> w) {
  const char* usage = verb == kBase      ? "base AIR HEX"
                      : verb == kAir     ? "air AIR"
                      : verb == kBombard ? "bombard AIR UNIT"
                                         : "airsupply AIR HEX";
  const size_t n = verb == kAir ? 1 : 2;
  if (w.size() != n) return Error{std::string("usage: ") + usage, "", ""};
  Action a;
  a.verb = verb;
  for (size_t i = 0; i < n; ++i) {
    const bool is_hex = i == 1 && (verb == kBase || verb == kAirSupply);
    const int x = is_hex ? s.dv().grid().parse(w[i]) : s.dv().unit_index(w[i]);
    if (x < 0)
      return Error{is_hex ? "no hex '" + std::string(w[i]) + "' (hexes are CCRR, DV-M1)"
                          : "no counter '" + std::string(w[i]) + "' (units are named by their label)",
                   is_hex ? "2.1" : "2.2", ""};
    a.push(x);
  }
  return a;
}

}  // namespace dv
