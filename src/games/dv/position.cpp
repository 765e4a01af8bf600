// The Dark Valley: the position format (kernel/position.h, docs/saves.md "Positions"; issue 29).
//
// Everything that happened is written by name: units by counter id, hexes by map id, chits
// by owner and kind ("axis panzer-army-1", "logistics"), boxes, stages and segments by their
// words. What the scenario fixes (its first and last turn) is not written: it comes from the
// installed scenario data, so a game continued under corrected data plays on under the
// correction. Control is written whole (every controlled hex), not as a difference from the
// map's printed control, so a corrected map does not move anybody's lines.
//
// The chit cup (kernel/draw_cup.h) is written as its contents, the chits drawn this turn
// and its stream (seed, counter). The cup has no setter for its counter; the reader brings a
// fresh cup to the counter by drawing a placeholder chit and putting it back, then replays
// this turn's draws as forced draws, so the next random draw is the one the game would make.
#include "kernel/position.h"

#include <algorithm>
#include <array>
#include <string>

#include "games/dv/dv.h"

namespace dv {

using steppe::JsonReader;
using steppe::Result;
using steppe::Status;

namespace {

constexpr int kPositionVersion = 1;
// No game draws more chits than this (44 turns of at most a few dozen chits); a larger
// counter in a position is a spoiled file, not a game.
constexpr uint64_t kMaxCupCounter = 100000;

constexpr const char* kStageNames[] = {"place",      "replace",      "initiative", "mode",     "move",
                                       "combat",     "advance",      "loss",       "retreat",  "held",
                                       "rail",       "naval",        "over",       "air-base", "air-defend",
                                       "air-supply", "stavka-place", "mandate"};
constexpr const char* kBoxNames[] = {"map",          "pending",    "eliminated", "removed", "stavka-reserve",
                                     "other-fronts", "air-assets", "available"};
constexpr const char* kSegmentNames[] = {"move", "combat"};
constexpr const char* kSupplyNames[] = {"supplied", "out-of-supply", "isolated"};  // 13.1

std::string side_word(int side) {
  return side == kAxis ? "axis" : side == kSoviet ? "soviet" : side == 2 ? "draw" : "none";
}

int read_side(const JsonReader& r, bool allow_none, bool allow_draw = false) {
  const std::string w = r.as_str();
  if (w == "axis") return kAxis;
  if (w == "soviet") return kSoviet;
  if (allow_none && w == "none") return kNeutral;
  if (allow_draw && w == "draw") return 2;
  if (r.json().is_string())
    r.fail_value(std::string("expected axis or soviet") + (allow_none ? " or none" : "") +
                 (allow_draw ? " or draw" : ""));
  return allow_none ? kNeutral : kAxis;
}

// A chit of the cup (sequence.cpp: kind * 2 + owner; the Logistics chit is neutral, DV-T4).
std::string chit_word(int c) {
  const int kind = c / 2;
  const std::string name(kChitNames[static_cast<size_t>(kind)]);
  return kind == kChitLogistics ? name : side_word(c % 2) + " " + name;
}

int read_chit(const JsonReader& r) {
  const std::string w = r.as_str();
  if (!r.json().is_string()) return 0;
  if (w == kChitNames[kChitLogistics]) return kChitLogistics * 2 + kAxis;
  const size_t sp = w.find(' ');
  const std::string owner = sp == std::string::npos ? "" : w.substr(0, sp);
  const int kind = sp == std::string::npos ? -1 : chit_from_name(w.substr(sp + 1));
  if ((owner != "axis" && owner != "soviet") || kind < 0 || kind == kChitLogistics) {
    r.fail_value("expected 'axis KIND', 'soviet KIND' or 'logistics' with a chit kind of 10.1");
    return 0;
  }
  return kind * 2 + (owner == "axis" ? kAxis : kSoviet);
}

}  // namespace

Result<Json> DvState::position() const {
  const steppe::HexGrid& gr = g_.grid();
  const auto hex = [&](int h) -> Json { return h >= 0 ? Json(gr.id(h)) : Json(nullptr); };
  const auto unit = [&](int u) -> Json { return u >= 0 ? Json(g_.unit(u).id) : Json(nullptr); };
  const auto units_list = [&](const std::vector<int>& v) {
    Json a = Json::array();
    for (int u : v) a.push_back(unit(u));
    return a;
  };
  const auto chits = [](const auto& v) {
    Json a = Json::array();
    for (int c : v) a.push_back(chit_word(c));
    return a;
  };
  Json j;
  j["version"] = kPositionVersion;
  j["scenario"] = scenario_;
  j["options"] = Json::array();
  j["turn"] = turn_;
  j["stage"] = kStageNames[static_cast<int>(stage_)];
  j["active"] = side_word(active_);
  j["chit"] = chit_ >= 0 ? Json(std::string(kChitNames[static_cast<size_t>(chit_)])) : Json(nullptr);
  Json segs = Json::array();
  for (auto s : segments_) segs.push_back(kSegmentNames[s]);
  j["segments"] = segs;  // 10.5: this round's segments, in order
  j["segment_index"] = seg_;
  j["mech_only_combat"] = mech_only_combat_;  // 10.5.7
  j["initiative_left"] = initiative_left_;    // 10.2
  j["preset"] = chits(preset_);               // 10.2 Turn 1
  j["move_rounds_used"] = {{"axis", used_move_[kAxis] != 0}, {"soviet", used_move_[kSoviet] != 0}};
  j["combat_rounds_used"] = {{"axis", used_combat_[kAxis] != 0}, {"soviet", used_combat_[kSoviet] != 0}};
  j["cup"] = {{"contents", chits(cup_.contents())},
              {"drawn", chits(cup_.drawn())},
              {"seed", cup_.seed()},
              {"counter", cup_.counter()}};
  j["pulled"] = chits(pulled_);  // 10.2 the Chit Pull Track
  j["picked"] = unit(picked_);
  j["target"] = hex(target_);
  j["attackers"] = units_list(attackers_);
  j["advancers"] = units_list(advancers_);  // 12.6
  Json pend = Json::array();
  for (const PendingResult& p : pending_)
    pend.push_back({{"kind", p.retreat ? "retreat" : "loss"},
                    {"side", side_word(p.side)},
                    {"attacker", p.attacker},
                    {"steps", p.steps},
                    {"taken", p.taken},
                    {"from", hex(p.from)},
                    {"rule", p.rule},
                    {"units", units_list(p.units)}});
  j["pending_results"] = std::move(pend);  // 12.3c, 12.5: results waiting for the owner's choices
  j["fall_blau_turn"] = fall_blau_turn_ > 0 ? Json(fall_blau_turn_) : Json(nullptr);  // 10.2
  j["manstein_model"] = {{"hex", hex(manstein_hex_)},                                 // 10.5.10
                         {"back_on_turn", manstein_back_},
                         {"year", manstein_year_},
                         {"uses_this_year", manstein_uses_},
                         {"passed_this_draw", held_passed_}};
  j["stavka"] = {{"passed_this_draw", stavka_passed_},  // 10.2, 10.5.9
                 {"played_this_turn", stavka_played_},
                 {"steps_left", stavka_steps_},
                 {"placed", units_list(stavka_new_)},
                 {"placed_with_hq", units_list(stavka_hq_new_)}};
  j["stalin_mandates"] = {
      {"ordered", mandates_}, {"made", mandates_made_}, {"eliminations_left", purges_left_}};
  j["reinforcement_step"] = phase1_;  // 7.1's order
  // 7.4, 7.6: null before the first Replacement Segment of the game (nothing counted yet).
  Json pool = axis_pool_.empty() ? Json(nullptr) : Json::object();
  for (size_t k = 0; k < g_.axis_kinds().size() && !axis_pool_.empty(); ++k)
    pool[g_.axis_kinds()[k].first] = k < axis_pool_.size() ? axis_pool_[k] : 0;
  j["axis_replacements"] = pool;                                                        // 7.4
  j["rf"] = rf_;                                                                        // 7.6
  j["rail_steps_left"] = rail_left_;                                                    // 9.2, 9.4
  j["naval_steps_left"] = {{"baltic", naval_left_[0]}, {"black-sea", naval_left_[1]}};  // 9.3, 9.5
  Json rebuilt = rebuilt_.empty() ? Json(nullptr) : Json::object();
  for (size_t k = 0; k < g_.limited_types().size() && !rebuilt_.empty(); ++k)
    rebuilt[g_.limited_types()[k]] = k < rebuilt_.size() ? rebuilt_[k] : 0;
  j["limited_rebuilt"] = rebuilt;  // 7.6
  Json units = Json::object();
  for (size_t i = 0; i < units_.size(); ++i) {
    const UnitState& s = units_[i];
    Json x{{"box", kBoxNames[static_cast<int>(s.box)]},
           {"hex", hex(s.hex)},
           {"steps", s.steps},
           {"supply", kSupplyNames[std::min<int>(s.supply, 2)]},
           {"moved", s.moved},
           {"left_hex", s.left},
           {"attacked", s.attacked},
           {"defended", s.defended},
           {"force_marched", s.forced},
           {"started_adjacent", s.started_adjacent},
           {"act", s.act},
           {"strategic_moved", s.strategic},  // 9.1
           {"return_turn", s.return_turn >= 0 ? Json(s.return_turn) : Json(nullptr)}};
    units[g_.units()[i].id] = std::move(x);
  }
  j["units"] = std::move(units);
  Json control = {{"axis", Json::array()}, {"soviet", Json::array()}};
  Json fz = Json::array();
  Json forts = Json::array();
  for (int h = 0; h < gr.size(); ++h) {
    const auto k = static_cast<size_t>(h);
    if (control_[k] == kAxis) control["axis"].push_back(gr.id(h));
    if (control_[k] == kSoviet) control["soviet"].push_back(gr.id(h));
    if (fz_gone_[k] != 0) fz.push_back(gr.id(h));
    if (fort_gone_[k] != 0) forts.push_back(gr.id(h));
  }
  j["control"] = std::move(control);                           // 2.4
  j["fortified_zones_gone"] = std::move(fz);                   // 12.7.1
  j["forts_gone"] = std::move(forts);                          // 12.7.2
  j["axis41"] = axis41_ >= 0 ? Json(axis41_) : Json(nullptr);  // 3.2
  j["axis42"] = axis42_;
  j["winner"] = side_word(winner_);
  j["why"] = why_;
  // 8.x airpower: every air unit's slot, the air of the combat being fought, the bombarded
  // hexes of the round, the Air Supply markers and the segments' counters.
  Json air = Json::object();
  for (int u : g_.air_units()) {
    const AirSlot& a = air_slot(u);
    air[g_.unit(u).id] = {{"base", hex(a.base)},
                          {"done", a.done},
                          {"back_on_turn", a.back >= 0 ? Json(a.back) : Json(nullptr)},
                          {"air_supplied_units", air_supply_used_[static_cast<size_t>(g_.air_slot(u))]}};
  }
  Json bombed = Json::array();
  for (int x : bombarded_) bombed.push_back(gr.id(x));
  j["air"] = {{"units", std::move(air)},
              {"attack_support", units_list(air_att_)},
              {"defence_support", units_list(air_def_)},
              {"bombarded_hexes", std::move(bombed)},
              {"air_supplied", units_list(air_supplied_)},
              {"air_base_step", air_phase_},
              {"air_supply_kind", air_supply_kind_},
              {"air_supply_left", air_supply_left_}};
  steppe::write_dice(j["dice"], dice_);
  return j;
}

Status DvState::read_position(const JsonReader& r) {
  const steppe::HexGrid& gr = g_.grid();
  const auto read_hex = [&](const JsonReader& x, bool nullable) {
    if (nullable && x.is_null()) return -1;
    const std::string id = x.as_str();
    const int h = gr.parse(id);
    if (h < 0 && x.json().is_string()) x.fail_value("not a hex of the Dark Valley map");
    return h;
  };
  const auto read_unit = [&](const JsonReader& x, bool nullable) {
    if (nullable && x.is_null()) return -1;
    const std::string id = x.as_str();
    const int u = g_.unit_index(id);
    if (u < 0 && x.json().is_string()) x.fail_value("no counter of the Dark Valley has this id");
    return u;
  };
  const auto read_units = [&](const JsonReader& x) {
    std::vector<int> v;
    for (const JsonReader& e : x.elements()) v.push_back(std::max(read_unit(e, false), 0));
    return v;
  };
  const auto read_chits = [&](const JsonReader& x) {
    std::vector<int> v;
    for (const JsonReader& e : x.elements()) v.push_back(read_chit(e));
    return v;
  };
  (void)r.int_in("version", kPositionVersion, kPositionVersion);
  turn_ = r.int_in("turn", 1, g_.turn_count());
  stage_ = static_cast<Stage>(r.at("stage").as_word(kStageNames));
  active_ = read_side(r.at("active"), false);
  chit_ = -1;
  if (const JsonReader c = r.at("chit"); !c.is_null()) {
    chit_ = chit_from_name(c.as_str());
    if (chit_ < 0 && c.json().is_string()) c.fail_value("not a chit kind of 10.1");
  }
  segments_.clear();
  for (const JsonReader& e : r.at("segments").elements())
    segments_.push_back(static_cast<uint8_t>(e.as_word(kSegmentNames)));
  // Past the last segment once a round is over (sequence.cpp end_segment).
  seg_ = static_cast<size_t>(r.int_in("segment_index", 0, 8));
  mech_only_combat_ = r.boolean("mech_only_combat");
  initiative_left_ = r.int_in("initiative_left", 0, 2);
  preset_ = read_chits(r.at("preset"));
  for (int s : {kAxis, kSoviet}) {
    used_move_[static_cast<size_t>(s)] = r.at("move_rounds_used").boolean(side_word(s)) ? 1 : 0;
    used_combat_[static_cast<size_t>(s)] = r.at("combat_rounds_used").boolean(side_word(s)) ? 1 : 0;
  }

  // The cup: a fresh cup of the position's seed brought to its counter (see the top).
  const JsonReader cup = r.at("cup");
  const std::vector<int> contents = read_chits(cup.at("contents"));
  const std::vector<int> drawn = read_chits(cup.at("drawn"));
  steppe::Dice stream;
  steppe::read_dice(cup, stream);
  if (stream.counter() > kMaxCupCounter) cup.at("counter").fail_value("more draws than any game makes");
  if (stream.counter() < drawn.size()) cup.at("counter").fail_value("fewer draws than the chits drawn");
  if (!r.ok()) return r.error();
  cup_ = steppe::DrawCup(stream.seed());
  cup_.add(0);
  for (uint64_t i = drawn.size(); i < stream.counter(); ++i) {
    (void)cup_.draw();
    cup_.return_drawn();
  }
  (void)cup_.remove(0);
  for (int c : drawn) {
    cup_.add(c);
    cup_.force(c);
    (void)cup_.draw();
  }
  for (int c : contents) cup_.add(c);

  pulled_ = read_chits(r.at("pulled"));
  picked_ = read_unit(r.at("picked"), true);
  target_ = read_hex(r.at("target"), true);
  attackers_ = read_units(r.at("attackers"));
  advancers_ = read_units(r.at("advancers"));
  pending_.clear();
  for (const JsonReader& x : r.at("pending_results").elements()) {
    static constexpr const char* kKinds[] = {"loss", "retreat"};
    PendingResult p;
    p.retreat = x.at("kind").as_word(kKinds) == 1;
    p.side = read_side(x.at("side"), false);
    p.attacker = x.boolean("attacker");
    p.steps = x.int_in("steps", 0, 99);
    p.taken = x.int_in("taken", 0, 99);
    p.from = read_hex(x.at("from"), !p.retreat);
    p.rule = x.str("rule");
    p.units = read_units(x.at("units"));
    pending_.push_back(std::move(p));
  }
  const JsonReader fb = r.at("fall_blau_turn");
  fall_blau_turn_ = fb.is_null() ? 0 : fb.as_int_in(12, 13);
  const JsonReader mm = r.at("manstein_model");
  manstein_hex_ = read_hex(mm.at("hex"), true);
  manstein_back_ = mm.int_in("back_on_turn", 0, 999);
  manstein_year_ = mm.int_in("year", 0, 1945);
  manstein_uses_ = mm.int_in("uses_this_year", 0, 2);
  held_passed_ = mm.boolean("passed_this_draw");
  stavka_passed_ = stavka_played_ = false;
  stavka_steps_ = mandates_ = mandates_made_ = purges_left_ = 0;
  stavka_new_.clear();
  stavka_hq_new_.clear();
  if (const auto sv = r.opt("stavka")) {  // 10.5.9 (absent in positions saved before it)
    stavka_passed_ = sv->boolean("passed_this_draw");
    stavka_played_ = sv->boolean("played_this_turn");
    stavka_steps_ = sv->int_in("steps_left", 0, 99);
    stavka_new_ = read_units(sv->at("placed"));
    stavka_hq_new_ = read_units(sv->at("placed_with_hq"));
  }
  if (const auto sm = r.opt("stalin_mandates")) {  // 10.5.6.1, 10.5.6.2 (likewise)
    mandates_ = sm->int_in("ordered", 0, 99);
    mandates_made_ = sm->int_in("made", 0, 99);
    purges_left_ = sm->int_in("eliminations_left", 0, 99);
  }
  phase1_ = r.int_in("reinforcement_step", 0, 8);
  const JsonReader pool = r.at("axis_replacements");
  axis_pool_.clear();
  if (!pool.is_null()) {
    for (const auto& [kind, x] : pool.members()) {
      bool known = false;
      for (const auto& k : g_.axis_kinds()) known = known || k.first == kind;
      if (!known) x.fail("no Axis replacement kind of 7.4 is called '" + kind + "'");
    }
    axis_pool_.assign(g_.axis_kinds().size(), 0);
    for (size_t k = 0; k < g_.axis_kinds().size(); ++k)
      axis_pool_[k] = pool.int_in(g_.axis_kinds()[k].first, 0, 999);
  }
  rf_ = r.int_in("rf", 0, 9999);
  rail_left_ = static_cast<int>(r.integer_or("rail_steps_left", 0));  // 9.2, 9.4 (absent before them)
  if (rail_left_ < 0 || rail_left_ > 99) r.at("rail_steps_left").fail_value("0..99 rail steps (9.2, 9.4)");
  naval_left_ = {0, 0};
  if (const auto nl = r.opt("naval_steps_left"))  // 9.3, 9.5 (absent before them)
    naval_left_ = {nl->int_in("baltic", 0, 99), nl->int_in("black-sea", 0, 99)};
  const JsonReader rebuilt = r.at("limited_rebuilt");
  rebuilt_.clear();
  if (!rebuilt.is_null()) {
    rebuilt_.assign(g_.limited_types().size(), 0);
    for (size_t k = 0; k < g_.limited_types().size(); ++k)
      rebuilt_[k] = static_cast<uint8_t>(rebuilt.int_in(g_.limited_types()[k], 0, 99));
  }

  // Every counter is written; one missing or unknown is an error, not a default.
  const JsonReader units = r.at("units");
  for (const auto& [id, x] : units.members())
    if (g_.unit_index(id) < 0) x.fail("no counter of the Dark Valley has the id '" + id + "'");
  for (size_t i = 0; i < units_.size(); ++i) {
    const UnitDef& d = g_.units()[i];
    const JsonReader x = units.at(d.id);
    if (x.is_null()) continue;
    UnitState& s = units_[i];
    s.box = static_cast<Box>(x.at("box").as_word(kBoxNames));
    s.hex = read_hex(x.at("hex"), s.box != Box::kMap);
    s.steps = static_cast<uint8_t>(x.int_in("steps", 0, d.steps));
    s.supply = static_cast<uint8_t>(x.at("supply").as_word(kSupplyNames));
    s.moved = x.boolean("moved");
    s.left = x.boolean("left_hex");
    s.attacked = x.boolean("attacked");
    s.defended = x.boolean("defended");
    s.forced = x.boolean("force_marched");
    s.started_adjacent = x.boolean("started_adjacent");
    s.act = x.boolean_or("act", false);                    // 10.4 (absent in positions saved before it)
    s.strategic = x.boolean_or("strategic_moved", false);  // 9.1 (likewise)
    const JsonReader rt = x.at("return_turn");
    s.return_turn = static_cast<int16_t>(rt.is_null() ? -1 : rt.as_int_in(1, g_.turn_count()));
  }
  std::fill(control_.begin(), control_.end(), static_cast<int8_t>(kNeutral));
  for (int side : {kAxis, kSoviet})
    for (const JsonReader& e : r.at("control").at(side_word(side)).elements()) {
      const int h = read_hex(e, false);
      if (h >= 0) control_[static_cast<size_t>(h)] = static_cast<int8_t>(side);
    }
  std::fill(fz_gone_.begin(), fz_gone_.end(), 0);
  std::fill(fort_gone_.begin(), fort_gone_.end(), 0);
  for (const JsonReader& e : r.at("fortified_zones_gone").elements())
    if (const int h = read_hex(e, false); h >= 0) fz_gone_[static_cast<size_t>(h)] = 1;
  for (const JsonReader& e : r.at("forts_gone").elements())
    if (const int h = read_hex(e, false); h >= 0) fort_gone_[static_cast<size_t>(h)] = 1;
  const JsonReader a41 = r.at("axis41");
  axis41_ = a41.is_null() ? -1 : a41.as_int_in(0, 999);
  axis42_ = r.boolean("axis42");
  winner_ = read_side(r.at("winner"), true, true);
  why_ = r.str("why");
  air_.assign(g_.air_units().size(), AirSlot{});
  air_supply_used_.assign(g_.air_units().size(), 0);
  air_att_.clear();
  air_def_.clear();
  bombarded_.clear();
  air_supplied_.clear();
  air_phase_ = 2;
  air_supply_kind_ = air_supply_left_ = 0;
  if (const auto air = r.opt("air")) {  // 8.x (absent in positions saved before it)
    for (int u : g_.air_units()) {
      const JsonReader x = air->at("units").at(g_.unit(u).id);
      if (x.is_null()) continue;
      AirSlot& a = air_[static_cast<size_t>(g_.air_slot(u))];
      a.base = read_hex(x.at("base"), true);
      a.done = x.boolean("done");
      const JsonReader bt = x.at("back_on_turn");
      a.back = static_cast<int16_t>(bt.is_null() ? -1 : bt.as_int_in(1, 99));
      air_supply_used_[static_cast<size_t>(g_.air_slot(u))] = x.int_in("air_supplied_units", 0, 99);
    }
    air_att_ = read_units(air->at("attack_support"));
    air_def_ = read_units(air->at("defence_support"));
    for (const JsonReader& e : air->at("bombarded_hexes").elements())
      if (const int h = read_hex(e, false); h >= 0) bombarded_.push_back(h);
    air_supplied_ = read_units(air->at("air_supplied"));
    air_phase_ = air->int_in("air_base_step", 0, 2);
    air_supply_kind_ = air->int_in("air_supply_kind", 0, 2);
    air_supply_left_ = air->int_in("air_supply_left", 0, 99);
  }
  steppe::read_dice(r.at("dice"), dice_);
  return r.status();
}

Result<std::unique_ptr<steppe::State>> DvGame::state_from_position(const Json& position) const {
  return steppe::new_state_from_position<DvState>(*this, position);
}

}  // namespace dv
