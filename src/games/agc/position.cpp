// Barbarossa: Army Group Center: the position format (kernel/position.h, docs/saves.md
// "Positions").
//
// Everything that happened, by name: units by counter id, hexes by their RRCC id, phases
// and sides by their words. What the scenario and the map fix (the turns, the weather of
// each turn, the arrivals, the victory hexes, who holds each hex at the start) is not
// written: it comes from the installed data, and "control" lists only the hexes that
// changed hands. Stacking and zones of control are worked out from the units on load, as
// the rules do after every move (3.0e, 3.0f). Everything is open information.
#include "kernel/position.h"

#include <string>

#include "games/agc/agc.h"

namespace agc {

using steppe::JsonReader;
using steppe::Result;
using steppe::Status;

namespace {

constexpr int kPositionVersion = 1;

// 4.2, in order (Phase).
constexpr const char* kPhaseWords[] = {
    "axis-movement",    "axis-air-interdiction",   "soviet-reaction",
    "axis-combat",      "axis-motorized-movement", "soviet-motorized-movement",
    "axis-reaction",    "soviet-combat",           "soviet-movement",
    "axis-engineering", "soviet-engineering",      "soviet-surrender"};  // appended: 4.2 B6, C5, C6
constexpr const char* kOrderWords[] = {"none", "no-retreat", "additional-retreat"};  // 14.3
constexpr const char* kWeatherWords[] = {"dry", "frost", "mud", "snow"};
constexpr const char* kBoxWords[] = {"out", "ready", "flown", "damaged", "destroyed", "mission"};  // 17.1.2
constexpr const char* kControlWords[] = {"none", "axis", "soviet"};   // kNoSide + 1
constexpr const char* kRebuildWords[] = {"none", "cadre", "active"};  // 20.2
constexpr const char* kStrongpointWords[] = {"none", "axis-under-construction", "soviet-under-construction",
                                             "axis", "soviet"};  // 18.3.5

}  // namespace

Result<Json> AgcState::position() const {
  const auto& grid = g_->grid_;
  Json j;
  j["version"] = kPositionVersion;
  j["scenario"] = sc_ != nullptr ? sc_->id : "empty";
  j["options"] = Json::array();
  j["turn"] = turn_;
  j["phase"] = kPhaseWords[phase_];
  j["over"] = over_;
  if (weather_override_ >= 0) j["weather"] = kWeatherWords[weather_override_];  // 5.1, set by a test
  steppe::write_dice(j["dice"], dice_);
  Json units = Json::object();
  for (size_t u = 0; u < us_.size(); ++u) {
    const UnitState& s = us_[u];
    // Fields at their default are left out (a unit not yet arrived is {"hex": null}).
    Json x{{"hex", s.hex >= 0 ? Json(grid.id(s.hex)) : Json(nullptr)}};
    if (s.steps_lost != 0) x["steps_lost"] = s.steps_lost;            // 16.3.3
    if (s.mp_left != 0) x["mp_halves"] = s.mp_left;                   // 10.0: left in this phase, half MPs
    if (s.road_in >= 0) x["road_in"] = s.road_in;                     // 10.7.7 Case Four
    if (s.moved) x["moved"] = true;                                   // 10.5.3
    if (s.attacked) x["attacked"] = true;                             // 15.1
    if (s.out_of_supply) x["out_of_supply"] = true;                   // 6.6.4
    if (s.emergency) x["emergency_supply"] = true;                    // 6.6.3
    if (s.eliminated) x["eliminated"] = true;                         // 16.4
    if (s.moved_in_zoc) x["moved_in_zoc"] = true;                     // 10.6
    if (s.may_advance) x["may_advance"] = true;                       // 16.7.2
    if (s.orders_issued != 0) x["orders_issued"] = s.orders_issued;   // 22.1.2c
    if (s.dispatched != 0) x["dispatched"] = s.dispatched;            // 22.1.2b
    if (s.box != kAirOut) x["air_box"] = kBoxWords[s.box];            // 17.1.2
    if (s.mission >= 0) x["mission"] = grid.id(s.mission);            // 17.1.5
    if (s.firing) x["firing"] = true;                                 // 17.2.2
    if (s.role_open) x["role_open"] = true;                           // 17.2.2a.2
    if (s.target >= 0) x["target"] = g_->units_[s.target].id;         // 17.2.4a
    if (s.seq != 0) x["engage_seq"] = s.seq;                          // 17.2.4a
    if (s.retarget) x["retarget"] = true;                             // 17.2.4e
    if (s.nonop) x["non_op"] = true;                                  // 22.2
    if (s.activated) x["activated"] = true;                           // 10.2.4c
    if (s.withdrawn) x["withdrawn"] = true;                           // 8.6
    if (s.rebuild != 0) x["rebuild_box"] = kRebuildWords[s.rebuild];  // 20.2, 8.4
    if (s.activations != 0) x["activations"] = s.activations;         // 22.1.2a
    if (s.guards_used) x["guards_used"] = true;                       // 22.8.1
    if (s.recovery_rolled) x["recovery_rolled"] = true;               // 22.2.6a
    if (s.restricted_moved != 0) x["restricted_moved"] = s.restricted_moved;  // 22.2.5g
    if (s.tried) x["tried"] = true;                                           // 22.9.1
    if (s.overrun) x["overrun"] = true;                                       // 11.4.4
    if (s.railed) x["railed"] = true;                                         // 11.1.2
    if (s.strategic) x["strategic"] = true;                                   // 11.3
    units[g_->units_[u].id] = std::move(x);
  }
  j["units"] = std::move(units);
  Json control = Json::object();
  for (size_t h = 0; h < control_.size(); ++h)
    if (control_[h] != g_->control0_[h])
      control[grid.id(static_cast<int>(h))] = kControlWords[control_[h] + 1];
  j["control"] = std::move(control);  // 3.0: the last to occupy a hex controls it
  Json attacked = Json::array();
  for (size_t h = 0; h < attacked_hex_.size(); ++h)
    if (attacked_hex_[h] != 0) attacked.push_back(grid.id(static_cast<int>(h)));
  j["attacked_hexes"] = std::move(attacked);                        // 15.1: attacked in this phase
  if (advance_hex_ >= 0) j["advance_hex"] = grid.id(advance_hex_);  // 16.7: an advance is open
  // 12.0: the declared attacks; 14.2, 14.3: the defender's artillery and Orders on them.
  Json declared = Json::array();
  for (const auto& x : decl_) {
    Json e{{"hexes", Json::array()}, {"units", Json::array()}};
    for (int h : x.hexes) e["hexes"].push_back(grid.id(h));
    for (int u : x.units) e["units"].push_back(g_->units_[u].id);
    if (!x.support.empty()) {
      e["support"] = Json::array();
      for (int u : x.support) e["support"].push_back(g_->units_[u].id);
    }
    if (x.order != kNoOrder) e["order"] = kOrderWords[x.order];
    if (x.resolved) e["resolved"] = true;
    if (x.mandated) e["mandated"] = true;  // 12.4
    if (x.cas != 0) e["cas"] = x.cas;      // 15.1.2
    declared.push_back(std::move(e));
  }
  if (!declared.empty()) j["declared"] = std::move(declared);
  if (declaring_) j["declaring"] = true;
  if (mandated_owed_ != 0) j["mandated_owed"] = mandated_owed_;  // 7.1.1e
  if (air_step_ != 0) j["air_step"] = air_step_;                 // 17.1.6, 17.1.7
  if (air_hex_ >= 0) j["air_hex"] = grid.id(air_hex_);           // 17.2.1: the mission hex being resolved
  if (air_init_ >= 0) j["air_initiative"] = air_init_;           // 17.2.3: the result rolled over it
  if (air_side_ != kNoSide) j["air_side"] = kControlWords[air_side_ + 1];
  if (air_round_ != 0) j["air_round"] = air_round_;             // 17.2.4
  if (storm_override_ >= 0) j["storm"] = storm_override_ != 0;  // 9.2, set by a test
  Json interdiction = Json::object();                           // 13.1.2
  for (size_t h = 0; h < interdiction_.size(); ++h)
    if (interdiction_[h] != 0) interdiction[grid.id(static_cast<int>(h))] = interdiction_[h];
  if (!interdiction.empty()) j["interdiction"] = std::move(interdiction);
  // 7.0, 8.0, 22.2.6 (replacements.cpp): the step waited on, the RP tracks and this turn's points.
  Json rp{{"step", kStrategicStepWords[strategic_]},
          {"axis_i", rp_i_[kAxis]},
          {"axis_a", rp_a_axis_},
          {"axis_v", rp_v_[kAxis]},
          {"soviet_i", rp_i_[kSoviet]},
          {"soviet_a", rp_a_soviet_},
          {"soviet_n", rp_n_},
          {"soviet_v", rp_v_[kSoviet]},
          {"strongpoints", strongpoints_},
          {"e_strongpoint", e_strongpoint_},
          {"extra_asp", extra_asp_},
          {"r_event", r_event_},
          {"roll", replacement_roll_},
          {"vp_adjust", vp_adjust_},
          {"vp_held", vp_held_},
          {"pools_used", pools_used_},
          {"disbanded", disbanded_}};
  Json due = Json::array();
  for (int u : withdraw_due_) due.push_back(g_->units_[u].id);
  rp["withdrawals_due"] = std::move(due);
  j["replacements"] = std::move(rp);
  Json strongpoints = Json::object();  // 18.3
  for (size_t h = 0; h < strongpoint_.size(); ++h)
    if (strongpoint_[h] != 0) strongpoints[grid.id(static_cast<int>(h))] = kStrongpointWords[strongpoint_[h]];
  if (!strongpoints.empty()) j["strongpoints"] = std::move(strongpoints);
  if (strongpoints_left_[kAxis] != 0 || strongpoints_left_[kSoviet] != 0)  // 18.3.3
    j["strongpoints_left"] = {{"axis", strongpoints_left_[kAxis]}, {"soviet", strongpoints_left_[kSoviet]}};
  if (rail_used_[kAxis] != 0 || rail_used_[kSoviet] != 0)  // 11.1.3
    j["rail_used"] = {{"axis", rail_used_[kAxis]}, {"soviet", rail_used_[kSoviet]}};
  if (flipping_) j["flipping"] = true;  // 11.6.1
  return j;
}

Status AgcState::read_position(const JsonReader& r) {
  const AgcGame& g = *g_;
  const auto find_hex = [&](std::string_view id) { return g.grid_.parse(id); };
  const auto find_unit = [&](std::string_view id) { return g.unit_index(id); };

  r.int_in("version", kPositionVersion, kPositionVersion);
  turn_ = r.int_in("turn", 1, 99);
  phase_ = static_cast<Phase>(r.at("phase").as_word(kPhaseWords));
  over_ = r.boolean("over");
  weather_override_ = static_cast<int8_t>(r.has("weather") ? r.at("weather").as_word(kWeatherWords) : -1);
  steppe::read_dice(r.at("dice"), dice_);

  const JsonReader us = r.at("units");
  steppe::check_ids(us, find_unit, "unit");
  for (size_t u = 0; u < us_.size(); ++u) {
    const UnitDef& d = g.units_[u];
    const JsonReader x = us.at(d.id);
    if (!x.is_object()) {
      (void)x.members();  // reports what it is instead (nothing more if it is absent: reported)
      continue;
    }
    x.allow_only({"hex",         "steps_lost",      "mp_halves",        "road_in",     "moved",
                  "attacked",    "out_of_supply",   "emergency_supply", "eliminated",  "moved_in_zoc",
                  "may_advance", "orders_issued",   "dispatched",       "air_box",     "mission",
                  "firing",      "role_open",       "target",           "engage_seq",  "retarget",
                  "non_op",      "activated",       "withdrawn",        "rebuild_box", "activations",
                  "guards_used", "recovery_rolled", "restricted_moved", "tried",       "overrun",
                  "railed",      "strategic"});
    UnitState& s = us_[u];
    s.hex = static_cast<int16_t>(steppe::read_id(x.at("hex"), find_hex, "hex of the map", true));
    s.steps_lost = static_cast<int8_t>(x.has("steps_lost") ? x.int_in("steps_lost", 0, d.steps) : 0);
    s.mp_left = static_cast<int8_t>(x.has("mp_halves") ? x.int_in("mp_halves", 0, 127) : 0);
    s.road_in = static_cast<int8_t>(x.has("road_in") ? x.int_in("road_in", 0, 127) : -1);
    s.moved = x.boolean_or("moved", false);
    s.attacked = x.boolean_or("attacked", false);
    s.out_of_supply = x.boolean_or("out_of_supply", false);
    s.emergency = x.boolean_or("emergency_supply", false);
    if (s.emergency && s.out_of_supply)
      x.at("emergency_supply").fail_value("one two-sided marker: Emergency Supply or Out of Supply (6.6.4)");
    s.eliminated = x.boolean_or("eliminated", false);
    s.moved_in_zoc = x.boolean_or("moved_in_zoc", false);
    s.may_advance = x.boolean_or("may_advance", false);
    s.orders_issued = static_cast<int8_t>(x.has("orders_issued") ? x.int_in("orders_issued", 0, 99) : 0);
    s.dispatched = static_cast<int8_t>(x.has("dispatched") ? x.int_in("dispatched", 0, 99) : 0);
    s.box = static_cast<uint8_t>(x.has("air_box") ? x.at("air_box").as_word(kBoxWords) : kAirOut);
    s.mission = static_cast<int16_t>(
        x.has("mission") ? steppe::read_id(x.at("mission"), find_hex, "hex of the map") : -1);
    s.firing = x.boolean_or("firing", false);
    s.role_open = x.boolean_or("role_open", false);
    s.target =
        static_cast<int16_t>(x.has("target") ? steppe::read_id(x.at("target"), find_unit, "unit") : -1);
    s.seq = static_cast<uint8_t>(x.has("engage_seq") ? x.int_in("engage_seq", 0, 255) : 0);
    s.retarget = x.boolean_or("retarget", false);
    s.nonop = x.boolean_or("non_op", false);
    if (s.nonop && !d.hq) x.at("non_op").fail_value("only a Soviet HQ has a Non-Operational side (22.2.1)");
    s.activated = x.boolean_or("activated", false);
    s.withdrawn = x.boolean_or("withdrawn", false);
    s.rebuild = static_cast<uint8_t>(x.has("rebuild_box") ? x.at("rebuild_box").as_word(kRebuildWords) : 0);
    s.activations = static_cast<int8_t>(x.has("activations") ? x.int_in("activations", 0, 99) : 0);
    s.guards_used = x.boolean_or("guards_used", false);
    s.recovery_rolled = x.boolean_or("recovery_rolled", false);
    s.restricted_moved =
        static_cast<int8_t>(x.has("restricted_moved") ? x.int_in("restricted_moved", 0, 99) : 0);
    if ((s.withdrawn || s.rebuild != 0) && s.hex >= 0)
      x.at("hex").fail_value(
          "a withdrawn unit or one on the Unit Rebuilding Chart is off the map (8.6, 20.2)");
    s.tried = x.boolean_or("tried", false);  // 22.9.1
    if (s.tried && !d.untried) x.at("tried").fail_value("only Untried units are flipped to Tried (22.9.1)");
    s.overrun = x.boolean_or("overrun", false);      // 11.4.4
    s.railed = x.boolean_or("railed", false);        // 11.1.2
    s.strategic = x.boolean_or("strategic", false);  // 11.3
    if (s.box != kAirOut && !d.air)
      x.at("air_box").fail_value("only air units are in the air boxes (17.1.2)");
    if ((s.box == kAirMission) != (s.mission >= 0))
      x.at(s.mission >= 0 ? "mission" : "air_box")
          .fail_value("an air unit on a mission has a mission hex (17.1.5)");
    if (s.eliminated && s.hex >= 0) x.at("hex").fail_value("an eliminated unit is off the map (16.4)");
    if (s.hex >= 0 && s.steps_lost >= d.steps)
      x.at("steps_lost").fail_value("a unit on the map has a step left (16.3.3)");
  }
  control_ = g.control0_;
  for (const auto& [id, x] : r.at("control").members()) {
    const int h = g.grid_.parse(id);
    if (h < 0) {
      x.fail("not a hex of the map: " + steppe::quoted(id));
      continue;
    }
    control_[static_cast<size_t>(h)] = static_cast<int8_t>(x.as_word(kControlWords) - 1);
  }
  std::fill(attacked_hex_.begin(), attacked_hex_.end(), 0);
  for (const JsonReader& x : r.at("attacked_hexes").elements()) {
    const int h = steppe::read_id(x, find_hex, "hex of the map");
    if (h >= 0) attacked_hex_[static_cast<size_t>(h)] = 1;
  }
  advance_hex_ = r.has("advance_hex") ? steppe::read_id(r.at("advance_hex"), find_hex, "hex of the map") : -1;
  decl_.clear();
  if (r.has("declared"))
    for (const JsonReader& e : r.at("declared").elements()) {
      Declared x;
      for (const JsonReader& h : e.at("hexes").elements())
        x.hexes.push_back(static_cast<int16_t>(steppe::read_id(h, find_hex, "hex of the map")));
      for (const JsonReader& u : e.at("units").elements())
        x.units.push_back(static_cast<int16_t>(steppe::read_id(u, find_unit, "unit")));
      if (e.has("support"))
        for (const JsonReader& u : e.at("support").elements())
          x.support.push_back(static_cast<int16_t>(steppe::read_id(u, find_unit, "unit")));
      x.order = e.has("order") ? static_cast<Order>(e.at("order").as_word(kOrderWords)) : kNoOrder;
      x.resolved = e.boolean_or("resolved", false);
      x.mandated = e.boolean_or("mandated", false);
      x.cas = static_cast<int8_t>(e.has("cas") ? e.int_in("cas", -99, 99) : 0);
      if (x.hexes.empty()) e.at("hexes").fail_value("a declared attack has a defender hex (12.0)");
      decl_.push_back(std::move(x));
    }
  declaring_ = r.has("declaring") && r.boolean("declaring");
  mandated_owed_ = r.has("mandated_owed") ? r.int_in("mandated_owed", 0, 99) : 0;
  air_step_ = static_cast<uint8_t>(r.has("air_step") ? r.int_in("air_step", 0, 5) : 0);
  air_hex_ = static_cast<int16_t>(
      r.has("air_hex") ? steppe::read_id(r.at("air_hex"), find_hex, "hex of the map") : -1);
  air_init_ = static_cast<int8_t>(r.has("air_initiative") ? r.int_in("air_initiative", 0, 4) : -1);
  air_side_ = static_cast<int8_t>(r.has("air_side") ? r.at("air_side").as_word(kControlWords) - 1 : kNoSide);
  air_round_ = static_cast<uint8_t>(r.has("air_round") ? r.int_in("air_round", 0, 2) : 0);
  storm_override_ = static_cast<int8_t>(r.has("storm") ? (r.boolean("storm") ? 1 : 0) : -1);
  std::fill(interdiction_.begin(), interdiction_.end(), 0);
  if (r.has("interdiction"))
    for (const auto& [id, x] : r.at("interdiction").members()) {
      const int h = g.grid_.parse(id);
      if (h < 0) {
        x.fail("not a hex of the map: " + steppe::quoted(id));
        continue;
      }
      interdiction_[static_cast<size_t>(h)] = static_cast<uint8_t>(x.as_int_in(1, 2));
    }
  // 7.0, 8.0, 22.2.6 (absent in older positions: nothing received, no step waiting).
  strategic_ = kNoStep;
  rp_i_ = rp_v_ = {0, 0};
  rp_a_axis_ = rp_a_soviet_ = rp_n_ = strongpoints_ = extra_asp_ = disbanded_ = 0;
  e_strongpoint_ = r_event_ = false;
  replacement_roll_ = -1;
  vp_adjust_ = 0;
  vp_held_ = 0;
  pools_used_ = 0;
  withdraw_due_.clear();
  if (r.has("replacements")) {
    const JsonReader x = r.at("replacements");
    x.allow_only({"step", "axis_i", "axis_a", "axis_v", "soviet_i", "soviet_a", "soviet_n", "soviet_v",
                  "strongpoints", "e_strongpoint", "extra_asp", "r_event", "roll", "vp_adjust", "vp_held",
                  "pools_used", "disbanded", "withdrawals_due"});
    const auto& t = g.repl_;
    strategic_ = static_cast<uint8_t>(x.at("step").as_word(kStrategicStepWords));
    rp_i_[kAxis] = static_cast<int8_t>(x.int_in("axis_i", 0, t.axis_i_max));
    rp_a_axis_ = static_cast<int8_t>(x.int_in("axis_a", 0, t.axis_a_max));
    rp_v_[kAxis] = static_cast<int8_t>(x.int_in("axis_v", 0, 99));
    rp_i_[kSoviet] = static_cast<int8_t>(x.int_in("soviet_i", 0, t.soviet_i_max));
    rp_a_soviet_ = static_cast<int8_t>(x.int_in("soviet_a", 0, 99));
    rp_n_ = static_cast<int8_t>(x.int_in("soviet_n", 0, 99));
    rp_v_[kSoviet] = static_cast<int8_t>(x.int_in("soviet_v", 0, 99));
    strongpoints_ = static_cast<int8_t>(x.int_in("strongpoints", 0, 99));
    e_strongpoint_ = x.boolean("e_strongpoint");
    extra_asp_ = static_cast<int8_t>(x.int_in("extra_asp", 0, 99));
    r_event_ = x.boolean("r_event");
    replacement_roll_ = static_cast<int8_t>(x.int_in("roll", -1, 99));
    vp_adjust_ = x.int_in("vp_adjust", -9999, 9999);
    vp_held_ = static_cast<uint64_t>(x.at("vp_held").as_int());  // bit i: vp_locations[i] (at most 64)
    pools_used_ = static_cast<uint32_t>(x.int_in("pools_used", 0, 0x7FFFFFFF));
    disbanded_ = static_cast<int8_t>(x.int_in("disbanded", 0, 99));
    for (const JsonReader& u : x.at("withdrawals_due").elements())
      withdraw_due_.push_back(static_cast<int16_t>(steppe::read_id(u, find_unit, "unit")));
  }
  std::fill(strongpoint_.begin(), strongpoint_.end(), 0);
  if (r.has("strongpoints"))  // 18.3
    for (const auto& [id, x] : r.at("strongpoints").members()) {
      const int h = g.grid_.parse(id);
      if (h < 0) {
        x.fail("not a hex of the map: " + steppe::quoted(id));
        continue;
      }
      strongpoint_[static_cast<size_t>(h)] = static_cast<uint8_t>(x.as_word(kStrongpointWords));
    }
  strongpoints_left_ = {};
  if (r.has("strongpoints_left")) {
    const JsonReader x = r.at("strongpoints_left");
    strongpoints_left_ = {static_cast<int8_t>(x.int_in("axis", 0, 99)),
                          static_cast<int8_t>(x.int_in("soviet", 0, 99))};
  }
  rail_used_ = {};
  if (r.has("rail_used")) {
    const JsonReader x = r.at("rail_used");
    rail_used_ = {static_cast<int16_t>(x.int_in("axis", 0, 999)),
                  static_cast<int16_t>(x.int_in("soviet", 0, 999))};
  }
  flipping_ = r.has("flipping") && r.boolean("flipping");
  rebuild_occupancy();  // 3.0e, 3.0f: from the units, as after every move
  return r.status();
}

Result<std::unique_ptr<steppe::State>> AgcGame::state_from_position(const Json& position) const {
  return steppe::new_state_from_position<AgcState>(*this, position);
}

}  // namespace agc
