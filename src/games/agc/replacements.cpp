// 7.0 Receiving Replacements (A3 of the Strategic Segment, 4.2) and the steps of the Strategic
// Segment and the Interphase that wait for a player's choice.
//
// The Soviet player rolls on the scenario's Soviet Replacement Table (7.1.1: a d10, +1 in Mud,
// +1 per Mandated Attack not yet made; replacements.json, reconstructed); the Axis player
// receives the RPs of his set-up card (7.3). I-RPs and the Axis A-RPs go to the Loss/Replacement
// Tracks (excess lost, 7.2b, 7.3.1); A, N (7.2d) and the Strongpoints (7.2a) are this turn's and
// are spent in the Engineering Phase (not played here); V-RPs are spent now (7.2d, 7.3.3:
// `repair`); M owes a Mandated Attack (7.2e.1); R is one choice of 7.2e.2 (`r-event`, ruling
// A-29); S one more ASP (7.2e.3). Tried Militia and RES units in supplied cities convert into
// I-RPs (7.2c: `convert`).
//
// The steps (StrategicStep): A3 Axis, A3 Soviet, A4 Axis, A4 Soviet (reinforcements.cpp), and
// the Interphase's Non-Op HQ recovery (special_units.cpp). A step opens only when its side has a
// choice; `end` closes it (ruling A-60).
#include <algorithm>

#include "games/agc/agc.h"

namespace agc {

using steppe::Action;
using steppe::Error;
using steppe::Result;
using steppe::Status;

namespace {
constexpr const char* kSideWords[] = {"axis", "soviet"};
}  // namespace

// ---- data ----
Status load_replacement_data(AgcGame& g, const Json& repl, const Json& tables) {
  ReplacementTables& t = g.repl_;
  const std::string file = "agc/replacements.json";
  const Json& sov = repl.at("soviet");
  for (const auto& d : sov.at("drms")) {
    const std::string when = d.at("when").get<std::string>();
    if (when == "Mud weather")
      t.mud_drm = d.at("drm").get<int>();  // 7.1.1
    else if (when == "each Mandated Attack not yet made")
      t.mandated_drm = d.at("drm").get<int>();  // 7.2e.1
    else
      return Error{"unknown Replacement Table DRM " + Json(when).dump(), "7.1.1", file};
  }
  for (int n = 1; sov.at("tables").contains(std::to_string(n)); ++n) {
    std::vector<ReplacementTables::Row> rows;
    for (const auto& r : sov.at("tables").at(std::to_string(n)).at("rows")) {
      ReplacementTables::Row row;
      const Json& f = r.at("fortifications");
      if (f.is_number_integer()) {
        row.fortifications = f.get<int>();
      } else {
        const std::string v = f.get<std::string>();  // "2E"
        if (v.empty() || v.back() != 'E')
          return Error{"a fortifications cell is a number or a number and E: " + Json(v).dump(), "7.2a",
                       file};
        row.fortifications = std::stoi(v.substr(0, v.size() - 1));
        row.e = true;
      }
      row.type_i = r.at("type_i").get<int>();
      const std::string o = r.at("other").get<std::string>(), sp = r.at("special").get<std::string>();
      if (o.size() > 1 || (o.size() == 1 && std::string("ANV").find(o[0]) == std::string::npos))
        return Error{"an Other Replacements cell is A, N, V or empty: " + Json(o).dump(), "7.2d", file};
      if (sp.size() > 1 || (sp.size() == 1 && std::string("MRS").find(sp[0]) == std::string::npos))
        return Error{"a Special Events cell is M, R, S or empty: " + Json(sp).dump(), "7.2e", file};
      row.other = o.empty() ? char{0} : o[0];
      row.special = sp.empty() ? char{0} : sp[0];
      if (r.at("roll").get<int>() != static_cast<int>(rows.size()) + 1)
        return Error{"the rows of a Replacement Table are numbered 1, 2, ... in order", "7.1.1", file};
      rows.push_back(row);
    }
    if (rows.empty()) return Error{"a Soviet Replacement Table needs rows", "7.1.1", file};
    t.soviet.push_back(std::move(rows));
  }
  t.soviet_i_max = sov.at("track_max").at("type_i").get<int>();
  const Json& ax = repl.at("axis");
  t.axis_i_max = ax.at("track_max").at("type_i").get<int>();
  t.axis_a_max = ax.at("track_max").at("type_a").get<int>();
  t.axis_i = ax.at("per_turn").at("type_i").get<int>();
  t.axis_a = ax.at("per_turn").at("type_a").get<int>();
  t.axis_v = ax.at("per_turn").at("type_v").get<int>();
  t.axis_a_every_other = ax.at("per_turn").value("every_other_turn_a", false);
  const Json& vp = tables.at("victory_points");
  t.vp_mandated = vp.at("mandated_attack_unmade_when_vp_location_captured").at("value").get<int>();
  t.vp_withdrawal = vp.at("withdrawal_cancelled_or_unsubstituted").at("value").get<int>();
  t.vp_disband = vp.at("non_op_hq_disbanded").at("value").get<int>();
  t.guards_per_hq = tables.at("hq").at("guards_free_activation_per_hq").at("value").get<int>();
  if (t.soviet_i_max < 0 || t.soviet_i_max > 99 || t.axis_i_max < 0 || t.axis_i_max > 99 ||
      t.axis_a_max < 0 || t.axis_a_max > 99)
    return Error{"a Loss/Replacement Track has 0 to 99 boxes", "7.2b", file};
  return Status::ok();
}

Status load_scenario_cards(const AgcGame& g, const Json& s, ScenarioDef& sc) {
  const std::string file = "agc/scenarios/" + sc.id + ".json";
  for (const auto& t : s.at("turns")) {
    const int n = t.value("soviet_replacement_table", 0);
    if (n < 0 || n > static_cast<int>(g.repl_.soviet.size()))
      return Error{"no Soviet Replacement Table " + std::to_string(n), "7.1", file};
    sc.soviet_table.push_back(static_cast<uint8_t>(n));
  }
  sc.mandated_from_turn = s.at("soviet_replacements").value("mandated_attacks_from_turn", 0);
  sc.hq_recovery = s.value("hq_recovery_allowed", true);
  sc.hq_disband = s.value("hq_disband_allowed", true);
  auto unit = [&](const Json& id) { return g.unit_index(id.get<std::string>()); };
  for (const auto& w : s.at("withdrawals")) {
    const int u = unit(w.at("unit"));
    if (u < 0) return Error{"unknown unit " + w.at("unit").dump(), "8.6", file};
    sc.withdrawals.emplace_back(u, w.at("turn").get<int>());
  }
  if (s.contains("special_reinforcement_pools"))
    for (const auto& p : s.at("special_reinforcement_pools")) {
      ScenarioDef::Pool pool;
      pool.id = p.at("id").get<std::string>();
      pool.side = p.at("side") == "axis" ? kAxis : kSoviet;
      pool.vp = p.at("vp").get<int>();
      for (const auto& e : p.at("units")) {
        const int u = unit(e.at("unit"));
        if (u < 0 || g.units_[u].side != pool.side)
          return Error{"pool " + pool.id + ": unknown unit or wrong side " + e.at("unit").dump(), "8.3",
                       file};
        ScenarioDef::Arrival a{u, e.at("turn").get<int>(), {}, 0};
        for (const auto& h : e.at("hexes")) a.hexes.push_back(g.grid_.parse(h.get<std::string>()));
        if (e.contains("city")) {  // 8.1.4: the city, else the map edge listed with it
          a.placement = static_cast<int>(a.hexes.size());
          if (e.contains("or_edge"))
            for (const auto& h : e.at("or_edge")) a.hexes.push_back(g.grid_.parse(h.get<std::string>()));
        }
        if (std::count(a.hexes.begin(), a.hexes.end(), -1) != 0)
          return Error{"pool " + pool.id + ": a hex is not on the map", "8.3", file};
        pool.units.push_back(std::move(a));
      }
      sc.pools.push_back(std::move(pool));
    }
  if (sc.pools.size() > 32) return Error{"at most 32 Special Reinforcement Pool groups", "8.3", file};
  return Status::ok();
}

// ---- A3 the Replacements Phase ----
void AgcState::replacement_phase(int test_table) {
  strongpoints_ = 0;
  e_strongpoint_ = false;
  rp_a_soviet_ = rp_n_ = 0;  // 7.2d: "The Soviet Player cannot save these points"
  extra_asp_ = 0;
  r_event_ = false;
  rp_v_ = {0, 0};
  replacement_roll_ = -1;
  // 7.0: "if allowed by scenario instructions": the empty scenario has none (a test names a table).
  if (sc_ == nullptr && test_table < 0) return;
  const int i = sc_ != nullptr ? turn_ - sc_->first_turn : 0;
  int table =
      sc_ != nullptr && i >= 0 && i < static_cast<int>(sc_->soviet_table.size()) ? sc_->soviet_table[i] : 0;
  if (test_table >= 0) table = test_table;
  // 7.3: "The Axis Player receives Type I, A, and V RPs as specified on scenario set-up cards."
  const auto& t = g_->repl_;
  auto add = [&](int8_t& track, int n, int max, const char* what, const char* rule) {
    const int before = track;
    track = static_cast<int8_t>(std::min(max, before + n));
    emit({"replacements",
          std::string(what) + ": +" + std::to_string(n) + " (track " + std::to_string(before) + " -> " +
              std::to_string(track) + (before + n > max ? "; the excess is lost" : "") + ")",
          rule,
          0xFFFFFFFFu,
          false,
          {}});
  };
  add(rp_i_[kAxis], t.axis_i, t.axis_i_max, "Axis Type I RPs", "7.3.1");
  if (!t.axis_a_every_other || i % 2 == 0)
    add(rp_a_axis_, t.axis_a, t.axis_a_max, "Axis Type A RPs", "7.3.2");
  rp_v_[kAxis] = static_cast<int8_t>(t.axis_v);
  if (table > 0) soviet_replacement_roll(table);
}

// 7.1.1: "The Soviet Player rolls the die, adds any DRMs for Mud weather or unexecuted Mandated
// Attacks, and locates this number on the die roll column" (a roll past the table reads its
// last row, ruling A-61).
void AgcState::soviet_replacement_roll(int table) {
  const auto& t = g_->repl_;
  const auto& rows = t.soviet[table - 1];
  const int die = roll(t.die, "Soviet Replacement Table " + std::to_string(table), "7.1.1");
  int drm = weather() == kMud ? t.mud_drm : 0;
  drm += t.mandated_drm * mandated_owed_;  // 7.2e.1: "each unresolved Mandated Attack becomes a +1 DRM"
  const int r = std::clamp(die + drm, 1, static_cast<int>(rows.size()));
  replacement_roll_ = static_cast<int8_t>(r);
  const auto& row = rows[r - 1];
  std::string got = "roll " + std::to_string(die) + (drm != 0 ? " +" + std::to_string(drm) : "") + " = row " +
                    std::to_string(r) + ":";
  strongpoints_ = static_cast<int8_t>(row.fortifications);  // 7.2a
  e_strongpoint_ = row.e;
  // 18.3.3: these are the Strongpoints the Soviet player may begin in this turn's Engineering Phase
  // (engineering.cpp); the "E" one counts as one more (its placement limits are not checked yet).
  strongpoints_left_[kSoviet] = static_cast<int8_t>(row.fortifications + (row.e ? 1 : 0));
  got += " " + std::to_string(row.fortifications) + (row.e ? "E" : "") + " Strongpoints,";
  const int before = rp_i_[kSoviet];
  rp_i_[kSoviet] = static_cast<int8_t>(std::min(t.soviet_i_max, before + row.type_i));  // 7.2b
  got += " " + std::to_string(row.type_i) + " I-RPs (track " + std::to_string(before) + " -> " +
         std::to_string(rp_i_[kSoviet]) + (before + row.type_i > t.soviet_i_max ? ", excess lost" : "") + ")";
  if (row.other == 'A') ++rp_a_soviet_, got += ", an Armaments RP";
  if (row.other == 'N') ++rp_n_, got += ", an NKVD RP";
  if (row.other == 'V') ++rp_v_[kSoviet], got += ", an Aircraft RP";
  if (row.special == 'M') {
    // 7.2e.1: "One Mandated Attack accrues ... (when allowed by scenario instructions)".
    if (sc_ == nullptr || turn_ >= sc_->mandated_from_turn) {
      ++mandated_owed_;
      got += ", a Mandated Attack (" + std::to_string(mandated_owed_) + " not yet made)";
    } else {
      got += ", M (no Mandated Attacks before turn " + std::to_string(sc_->mandated_from_turn) + ")";
    }
  }
  if (row.special == 'R') r_event_ = true, got += ", an R event";
  if (row.special == 'S') ++extra_asp_, got += ", one additional ASP";  // 7.2e.3
  emit({"replacements",
        "Soviet Replacement Table " + std::to_string(table) + ": " + got,
        "7.1.1, 7.2",
        0xFFFFFFFFu,
        false,
        {}});
}

// ---- the steps ----
int AgcState::strategic_side() const {
  switch (strategic_) {
    case kAxisReplacementStep:
    case kAxisReinforcementStep:
      return kAxis;
    case kSovietReplacementStep:
    case kSovietReinforcementStep:
    case kInterphaseStep:
      return kSoviet;
    default:
      return kNoSide;
  }
}

void AgcState::strategic_segment(int test_table) {
  replacement_phase(test_table);
  strategic_ = kNoStep;
  next_strategic_step();
}

bool AgcState::strategic_choice(int step) const {
  std::vector<Action> acts;
  const uint8_t keep = strategic_;
  auto& self = const_cast<AgcState&>(*this);  // the generators read strategic_ only
  self.strategic_ = static_cast<uint8_t>(step);
  gen_chapter_verbs(*this, acts);
  self.strategic_ = keep;
  return !acts.empty();
}

namespace {
// The effects of a step's end, whether it was closed by `end` or had nothing to decide.
void close_step(AgcState& s, uint8_t step) {
  if (step == kAxisReplacementStep || step == kSovietReplacementStep) {
    const int side = step == kAxisReplacementStep ? kAxis : kSoviet;
    if (s.rp_v_[side] > 0)  // 7.3.3 "or they are lost"; 7.2d "This point cannot be saved"
      s.log("replacements",
            std::string(kSideWords[side]) + " V-RPs not spent are lost: " + std::to_string(s.rp_v_[side]),
            side == kAxis ? "7.3.3" : "7.2d");
    s.rp_v_[side] = 0;
    if (side == kSoviet && s.r_event_) {
      // 8.3.1: "The option to enter one group must be exercised on the turn it is received".
      s.log("replacements", "the R event was not used and is lost", "8.3.1, 7.2e.2");
      s.r_event_ = false;
    }
  }
  if (step == kAxisReinforcementStep || step == kSovietReinforcementStep) s.withdraw_due();
}
}  // namespace

void AgcState::end_strategic_step() {
  close_step(*this, strategic_);
  if (strategic_ == kInterphaseStep) {
    strategic_ = kNoStep;
    next_turn();
    return;
  }
  next_strategic_step();
}

void AgcState::next_strategic_step() {
  for (;;) {
    const int next = strategic_ + 1;
    if (next == kAxisReinforcementStep) reinforcement_phase();  // A4 begins (reinforcements.cpp)
    if (next >= kInterphaseStep) {
      strategic_ = kNoStep;
      start_player_segments();  // A5 and the Axis Player Segment
      return;
    }
    strategic_ = static_cast<uint8_t>(next);
    if (strategic_choice(next)) {
      const char* const names[] = {
          "", "the Axis Replacements Phase (7.3)", "the Soviet Replacements Phase (7.1, 7.2)",
          "the Axis Reinforcement/Withdrawal Phase (8.0)", "the Soviet Reinforcement/Withdrawal Phase (8.0)"};
      emit({"phase",
            std::string(names[next]) + ": " + kSideWords[strategic_side()] + " to decide",
            "4.2",
            0xFFFFFFFFu,
            false,
            {}});
      return;
    }
    close_step(*this, strategic_);  // nothing to decide
  }
}

// ---- 7.2c, 7.2d, 7.3.3, 7.2e.2 ----
namespace {

bool in_step(const AgcState& s, uint8_t step) { return s.strategic_ == step; }

// 7.2c: "remove any Reserve units or Militia units on their tried sides [22.10 and 22.11] that
// occupy a Soviet city or major city in General Supply and are not in an Axis ZOC"; 22.10.1
// "(except for zero strength units) with infantry or cavalry unit type symbols".
Status check_convert(const AgcState& s, int u) {
  if (!in_step(s, kSovietReplacementStep))
    return Error{"Militia and RES units convert into RPs only in the Soviet Replacement Phase", "7.2c", ""};
  const auto& d = s.g().units_[u];
  const auto& us = s.us_[u];
  if (d.side != kSoviet || (!d.militia && !d.reserve))
    return Error{d.label + " is not a Soviet Militia or RES unit", "7.2c, 22.10.1, 22.11", ""};
  if (s.untried(u))
    return Error{"Untried Militia cannot be converted until flipped to their Tried sides", "22.10.1", ""};
  if (us.hex < 0) return Error{d.label + " is not on the map", "7.2c", ""};
  if (d.attack == 0 && d.defense == 0) return Error{"zero strength units are not converted", "22.10.1", ""};
  const int h = us.hex;
  if (s.g().settlement_[h] < 2 || s.control_[h] != kSoviet)
    return Error{d.label + " is not in a Soviet city or major city", "7.2c", ""};
  if (us.out_of_supply) return Error{d.label + " is not in General Supply", "7.2c", ""};
  if (s.in_enemy_zoc(h, kSoviet)) return Error{d.label + " is in an Axis ZOC", "7.2c", ""};
  return Status::ok();
}

void do_convert(AgcState& s, int u) {
  const int steps = s.steps_left(u);
  const int before = s.rp_i_[kSoviet];
  s.rp_i_[kSoviet] = static_cast<int8_t>(std::min(s.g().repl_.soviet_i_max, before + steps));
  s.us_[u].hex = -1;
  s.us_[u].eliminated = true;
  s.us_[u].rebuild = 1;  // "Place any removed Militia/Reserve units in the Cadre Box"
  s.rebuild_occupancy();
  s.log("replacements",
        s.g().units_[u].label + " is converted: +" + std::to_string(steps) + " I-RPs (track " +
            std::to_string(before) + " -> " + std::to_string(s.rp_i_[kSoviet]) + "); to the Cadre Box",
        "7.2c");
}

// 7.2d: "move one Soviet Air Unit from the Destroyed or Damaged Box (Soviet player option)
// immediately to the Ready Box"; 7.3.3: "One point moves one air unit (any Axis Nationality)
// from the Destroyed or Damaged box ... to the Ready Box."
Status check_repair(const AgcState& s, int u) {
  const int side = s.strategic_side();
  if (!in_step(s, kAxisReplacementStep) && !in_step(s, kSovietReplacementStep))
    return Error{"V-RPs are spent in the Replacement Phase they are received", "7.3.3, 7.2d", ""};
  const auto& d = s.g().units_[u];
  if (!d.air || d.side != side) return Error{d.label + " is not one of your air units", "7.3.3, 7.2d", ""};
  if (s.rp_v_[side] <= 0) return Error{"no V-RP is left this turn", side == kAxis ? "7.3.3" : "7.2d", ""};
  if (s.us_[u].box != kAirDamaged && s.us_[u].box != kAirDestroyed)
    return Error{d.label + " is not in the Damaged or Destroyed Box", side == kAxis ? "7.3.3" : "7.2d", ""};
  return Status::ok();
}

// 7.2e.2 (ruling A-29): one of: a Special Reinforcement Pool (8.3.1), a garrison release
// (22.12.2d), or the removal of the Emergency/Out of Supply markers of one unit or stack.
enum REvent : int { kRPool = 0, kRGarrison = 1, kRSupply = 2 };

bool pool_eligible(const AgcState& s, int p, int side) {
  if (s.sc_ == nullptr || p < 0 || p >= static_cast<int>(s.sc_->pools.size())) return false;
  const auto& pool = s.sc_->pools[p];
  if (pool.side != side || (s.pools_used_ & (1u << p)) != 0) return false;
  // 8.3.1: "A group can be chosen if any units are eligible to enter on the current game turn."
  for (const auto& a : pool.units)
    if (a.turn <= s.turn_) return true;
  return false;
}

Status check_r_event(const AgcState& s, int kind, int arg) {
  if (!in_step(s, kSovietReplacementStep) || !s.r_event_)
    return Error{"the R event is chosen in the Soviet Replacement Phase it is received", "7.2e.2", ""};
  if (kind == kRPool) {
    if (!pool_eligible(s, arg, kSoviet))
      return Error{
          "that Soviet Special Reinforcement Pool group is not available this turn (chosen already, or "
          "its earliest turn of entry has not arrived)",
          "8.3.1", ""};
    return Status::ok();
  }
  if (kind == kRGarrison)
    return Error{"no Soviet Garrison hex is in play (garrisons, 22.12, are not played yet)", "22.12.2d", ""};
  bool marked = false;
  for (size_t u = 0; u < s.us_.size(); ++u)
    if (s.us_[u].hex == arg && s.g().units_[u].side == kSoviet &&
        (s.us_[u].out_of_supply || s.us_[u].emergency))
      marked = true;
  if (!marked)
    return Error{
        "no Soviet unit in " + s.g().grid_.id(arg) + " has an Emergency Supply or Out of Supply marker",
        "7.2e.2", ""};
  return Status::ok();
}

void do_r_event(AgcState& s, int kind, int arg) {
  s.r_event_ = false;
  if (kind == kRPool) {
    const auto& pool = s.sc_->pools[arg];
    s.pools_used_ |= 1u << arg;
    s.vp_adjust_ += pool.vp;  // 8.3.1: "adjust the VP track for any Soviet VP penalty"
    s.log("reinforcement",
          "the R event releases the Soviet Special Reinforcement Pool " + pool.id +
              (pool.vp != 0 ? " (" + std::to_string(pool.vp) + " VP to the Axis)" : ""),
          "7.2e.2, 8.3.1");
    return;  // its units enter in this turn's Reinforcement Phase (8.3: "as normal reinforcements")
  }
  std::string who;
  for (size_t u = 0; u < s.us_.size(); ++u)
    if (s.us_[u].hex == arg && s.g().units_[u].side == kSoviet &&
        (s.us_[u].out_of_supply || s.us_[u].emergency)) {
      s.us_[u].out_of_supply = s.us_[u].emergency = false;
      who += (who.empty() ? "" : ", ") + s.g().units_[u].label;
    }
  for (size_t u = 0; u < s.us_.size(); ++u)
    s.us_[u].mp_left = static_cast<int8_t>(s.ma_this_phase(static_cast<int>(u)));
  s.log("supply",
        "the R event removes the supply markers in " + s.g().grid_.id(arg) + " (" + who +
            "): in General Supply for the rest of the Game Turn",
        "7.2e.2");
}

Action act(uint16_t verb, std::initializer_list<int> args) {
  Action a;
  a.verb = verb;
  for (int x : args) a.push(x);
  return a;
}

bool unit_ok(const AgcState& s, int u) { return u >= 0 && u < static_cast<int>(s.us_.size()); }

}  // namespace

// Declared in reinforcements.cpp and special_units.cpp.
Status check_pool(const AgcState& s, int p);
void do_pool(AgcState& s, int p);
Status check_enter(const AgcState& s, int u, int hex);
void do_enter(AgcState& s, int u, int hex);
Status check_keep(const AgcState& s, int u);
void do_keep(AgcState& s, int u);
Status check_recover(const AgcState& s, int u);
void do_recover(AgcState& s, int u);
Status check_disband(const AgcState& s, int u);
void do_disband(AgcState& s, int u);
Status check_activate(const AgcState& s, int u);
void do_activate(AgcState& s, int u);
void gen_reinforcement_verbs(const AgcState& s, std::vector<Action>& out);
void gen_special_verbs(const AgcState& s, std::vector<Action>& out);

bool chapter_verb(uint16_t verb) { return verb >= kConvert && verb <= kActivate; }

void gen_chapter_verbs(const AgcState& s, std::vector<Action>& out) {
  if (s.over_) return;
  const int n = static_cast<int>(s.us_.size());
  if (in_step(s, kSovietReplacementStep))
    for (int u = 0; u < n; ++u)
      if (s.g().units_[u].side == kSoviet && s.us_[u].hex >= 0 && check_convert(s, u).is_ok())
        out.push_back(act(kConvert, {u}));
  if (in_step(s, kAxisReplacementStep) || in_step(s, kSovietReplacementStep))
    for (int u = 0; u < n; ++u)
      if (s.g().units_[u].air && check_repair(s, u).is_ok()) out.push_back(act(kRepair, {u}));
  if (in_step(s, kSovietReplacementStep) && s.r_event_) {
    if (s.sc_ != nullptr)
      for (int p = 0; p < static_cast<int>(s.sc_->pools.size()); ++p)
        if (check_r_event(s, kRPool, p).is_ok()) out.push_back(act(kREvent, {kRPool, p}));
    std::vector<uint8_t> seen(s.g().grid_.size(), 0);
    for (int u = 0; u < n; ++u) {
      const int h = s.us_[u].hex;
      if (h < 0 || seen[h] != 0) continue;
      seen[h] = 1;
      if (check_r_event(s, kRSupply, h).is_ok()) out.push_back(act(kREvent, {kRSupply, h}));
    }
  }
  gen_reinforcement_verbs(s, out);
  gen_special_verbs(s, out);
}

Status check_chapter_verb(const AgcState& s, const Action& a) {
  const auto& grid = s.g().grid_;
  switch (a.verb) {
    case kConvert:
      if (a.nargs != 1 || !unit_ok(s, a.args[0])) return Error{"malformed convert", "", ""};
      return check_convert(s, a.args[0]);
    case kRepair:
      if (a.nargs != 1 || !unit_ok(s, a.args[0])) return Error{"malformed repair", "", ""};
      return check_repair(s, a.args[0]);
    case kREvent:
      if (a.nargs != 2 || a.args[0] < 0 || a.args[0] > 2 || (a.args[0] != kRPool && !grid.valid(a.args[1])))
        return Error{"malformed r-event", "", ""};
      return check_r_event(s, a.args[0], a.args[1]);
    case kPool:
      if (a.nargs != 1) return Error{"malformed pool", "", ""};
      return check_pool(s, a.args[0]);
    case kEnter:
      if (a.nargs != 2 || !unit_ok(s, a.args[0]) || !grid.valid(a.args[1]))
        return Error{"malformed enter", "", ""};
      return check_enter(s, a.args[0], a.args[1]);
    case kKeep:
      if (a.nargs != 1 || !unit_ok(s, a.args[0])) return Error{"malformed keep", "", ""};
      return check_keep(s, a.args[0]);
    case kRecover:
      if (a.nargs != 1 || !unit_ok(s, a.args[0])) return Error{"malformed recover", "", ""};
      return check_recover(s, a.args[0]);
    case kDisband:
      if (a.nargs != 1 || !unit_ok(s, a.args[0])) return Error{"malformed disband", "", ""};
      return check_disband(s, a.args[0]);
    case kActivate:
      if (a.nargs != 1 || !unit_ok(s, a.args[0])) return Error{"malformed activate", "", ""};
      return check_activate(s, a.args[0]);
    default:
      return Error{"unknown action", "", ""};
  }
}

void apply_chapter_verb(AgcState& s, const Action& a) {
  switch (a.verb) {
    case kConvert:
      do_convert(s, a.args[0]);
      break;
    case kRepair: {
      const int side = s.g().units_[a.args[0]].side;
      --s.rp_v_[side];
      s.to_box(a.args[0], kAirReady, side == kAxis ? "7.3.3" : "7.2d");
      break;
    }
    case kREvent:
      do_r_event(s, a.args[0], a.args[1]);
      break;
    case kPool:
      do_pool(s, a.args[0]);
      break;
    case kEnter:
      do_enter(s, a.args[0], a.args[1]);
      break;
    case kKeep:
      do_keep(s, a.args[0]);
      break;
    case kRecover:
      do_recover(s, a.args[0]);
      break;
    case kDisband:
      do_disband(s, a.args[0]);
      break;
    case kActivate:
      do_activate(s, a.args[0]);
      break;
    default:
      break;
  }
}

std::string print_chapter_verb(const AgcState& s, const Action& a) {
  const auto& g = s.g();
  auto unit = [&](int i) { return g.units_[a.args[i]].id; };
  switch (a.verb) {
    case kConvert:
      return "convert " + unit(0);
    case kRepair:
      return "repair " + unit(0);
    case kREvent:
      if (a.args[0] == kRPool) return "r-event pool " + s.sc_->pools[a.args[1]].id;
      return std::string("r-event ") + (a.args[0] == kRGarrison ? "garrison " : "supply ") +
             g.grid_.id(a.args[1]);
    case kPool:
      return "pool " +
             (s.sc_ != nullptr && a.args[0] >= 0 && a.args[0] < static_cast<int>(s.sc_->pools.size())
                  ? s.sc_->pools[a.args[0]].id
                  : std::string("?"));
    case kEnter:
      return "enter " + unit(0) + " " + g.grid_.id(a.args[1]);
    case kKeep:
      return "keep " + unit(0);
    case kRecover:
      return "recover " + unit(0);
    case kDisband:
      return "disband " + unit(0);
    case kActivate:
      return "activate " + unit(0);
    default:
      return "?";
  }
}

Result<Action> parse_chapter_verb(uint16_t verb, const AgcState& s, std::span<const std::string_view> args) {
  const auto& g = s.g();
  auto unit_arg = [&](std::string_view w, const char* rule) -> Result<int> {
    const int u = g.unit_index(w);
    if (u < 0) return Error{"no unit '" + std::string(w) + "'", rule, ""};
    return u;
  };
  auto pool_arg = [&](std::string_view w) -> int {
    if (s.sc_ != nullptr)
      for (size_t p = 0; p < s.sc_->pools.size(); ++p)
        if (s.sc_->pools[p].id == w) return static_cast<int>(p);
    return -1;
  };
  const char* const usage[] = {
      "convert UNIT", "repair UNIT",    "r-event pool ID | r-event garrison HEX | r-event supply HEX",
      "pool ID",      "enter UNIT HEX", "keep UNIT",
      "recover HQ",   "disband HQ",     "activate UNIT"};
  const char* const rules[] = {"7.2c",  "7.3.3",  "7.2e.2", "8.3",    "8.4",
                               "8.6.3", "22.2.6", "22.2.6", "10.2.4c"};
  const int k = verb - kConvert;
  const size_t want = verb == kREvent || verb == kEnter ? 2 : 1;
  if (args.size() != want) return Error{std::string("usage: ") + usage[k], rules[k], ""};
  if (verb == kREvent) {
    if (args[0] == "pool") {
      const int p = pool_arg(args[1]);
      if (p < 0)
        return Error{"no Special Reinforcement Pool group '" + std::string(args[1]) + "'", "8.3", ""};
      return act(kREvent, {kRPool, p});
    }
    if (args[0] != "garrison" && args[0] != "supply")
      return Error{std::string("usage: ") + usage[k], rules[k], ""};
    const int h = g.grid_.parse(args[1]);
    if (h < 0) return Error{"no hex '" + std::string(args[1]) + "' (RRCC)", rules[k], ""};
    return act(kREvent, {args[0] == "garrison" ? kRGarrison : kRSupply, h});
  }
  if (verb == kPool) {
    const int p = pool_arg(args[0]);
    if (p < 0) return Error{"no Special Reinforcement Pool group '" + std::string(args[0]) + "'", "8.3", ""};
    return act(kPool, {p});
  }
  auto u = unit_arg(args[0], rules[k]);
  if (!u) return u.error();
  if (want == 2) {
    const int h = g.grid_.parse(args[1]);
    if (h < 0) return Error{"no hex '" + std::string(args[1]) + "' (RRCC)", rules[k], ""};
    return act(verb, {u.value(), h});
  }
  return act(verb, {u.value()});
}

// ---- the views ----
Json AgcState::chapter_json() const {
  Json j{{"step", kStrategicStepWords[strategic_]},
         {"axis", {{"i", rp_i_[kAxis]}, {"a", rp_a_axis_}, {"v", rp_v_[kAxis]}}},
         {"soviet",
          {{"i", rp_i_[kSoviet]},
           {"a", rp_a_soviet_},
           {"n", rp_n_},
           {"v", rp_v_[kSoviet]},
           {"strongpoints", strongpoints_},
           {"e_strongpoint", e_strongpoint_},
           {"extra_asp", extra_asp_},
           {"r_event", r_event_},
           {"roll", replacement_roll_}}},
         {"vp_adjust", vp_adjust_}};
  Json due = Json::array();
  for (int u : withdraw_due_) due.push_back(g_->units_[u].id);
  j["withdrawals_due"] = std::move(due);
  Json pools = Json::array();
  if (sc_ != nullptr)
    for (size_t p = 0; p < sc_->pools.size(); ++p)
      if ((pools_used_ & (1u << p)) != 0) pools.push_back(sc_->pools[p].id);
  j["pools_used"] = std::move(pools);
  Json marks = Json::object();  // 22.2, 10.2.4c, 20.2
  for (size_t u = 0; u < us_.size(); ++u) {
    const auto& s = us_[u];
    if (s.nonop) marks[g_->units_[u].id] = "non-op";
    if (s.activated) marks[g_->units_[u].id] = "activated";
    if (s.withdrawn) marks[g_->units_[u].id] = "withdrawn";
    if (s.rebuild == 1) marks[g_->units_[u].id] = "cadre";
    if (s.rebuild == 2) marks[g_->units_[u].id] = "active";
  }
  j["markers"] = std::move(marks);
  return j;
}

// ---- scenario-test words (docs/scenario-tests.md) ----
namespace {
int side_word(const std::string& w) { return w == "axis" ? kAxis : w == "soviet" ? kSoviet : kNoSide; }
}  // namespace

bool AgcState::chapter_set(const std::vector<std::string>& words, Status& st) {
  const auto n = words.size();
  const std::string w0 = n > 0 ? words[0] : "";
  auto unit = [&](const std::string& id) {
    const int u = g_->unit_index(id);
    if (u < 0) st = Error{"no unit " + id, "", ""};
    return u;
  };
  if (n == 4 && w0 == "rp") {  // rp SIDE i|a|n|v N: an RP track or this turn's points
    const int side = side_word(words[1]);
    const int v = std::clamp(std::stoi(words[3]), 0, 99);
    const std::string& k = words[2];
    if (side == kNoSide || (k != "i" && k != "a" && k != "n" && k != "v") || (k == "n" && side == kAxis)) {
      st = Error{"rp axis|soviet i|a|n|v N (n: Soviet only)", "", ""};
      return true;
    }
    if (k == "i") rp_i_[side] = static_cast<int8_t>(v);
    if (k == "v") rp_v_[side] = static_cast<int8_t>(v);
    if (k == "a") (side == kAxis ? rp_a_axis_ : rp_a_soviet_) = static_cast<int8_t>(v);
    if (k == "n") rp_n_ = static_cast<int8_t>(v);
    return true;
  }
  if ((n == 1 || n == 2) && w0 == "replacements") {  // run the Strategic Segment from A3 now
    const int table = n == 2 ? std::stoi(words[1]) : 0;
    if (table < 0 || table > static_cast<int>(g_->repl_.soviet.size())) {
      st = Error{"replacements [TABLE]: no Soviet Replacement Table " + words[1], "", ""};
      return true;
    }
    strategic_segment(table);
    return true;
  }
  if (n == 1 && w0 == "interphase") {  // run the Game Turn Interphase now
    interphase();
    return true;
  }
  if (n == 2 && w0 == "step") {  // open a step of the Strategic Segment now
    for (int k = 0; k < 6; ++k)
      if (words[1] == kStrategicStepWords[k]) {
        strategic_ = static_cast<uint8_t>(k);
        return true;
      }
    st = Error{
        "step "
        "none|axis-replacements|soviet-replacements|axis-reinforcements|soviet-reinforcements|interphase",
        "", ""};
    return true;
  }
  if (n == 2 && w0 == "r-event") {  // 7.2e.2: an R result waiting
    r_event_ = words[1] == "yes";
    return true;
  }
  if (n == 2 && w0 == "withdraw") {  // 8.6: UNIT is due to be withdrawn this turn
    const int u = unit(words[1]);
    if (u >= 0) withdraw_due_.push_back(static_cast<int16_t>(u));
    return true;
  }
  if (n == 3 && w0 == "nonop") {  // 22.2: an HQ's side
    const int u = unit(words[1]);
    if (u >= 0 && !g_->units_[u].hq) st = Error{words[1] + " is not an HQ", "", ""};
    if (u >= 0 && g_->units_[u].hq) us_[u].nonop = words[2] == "yes";
    return true;
  }
  if (n == 3 && w0 == "rebuild") {  // 20.2: a unit into the Cadre or Active Box
    const int u = unit(words[1]);
    if (u < 0) return true;
    if (words[2] != "cadre" && words[2] != "active") {
      st = Error{"rebuild UNIT cadre|active", "", ""};
      return true;
    }
    us_[u].hex = -1;
    us_[u].eliminated = true;
    us_[u].rebuild = words[2] == "cadre" ? 1 : 2;
    us_[u].steps_lost = static_cast<int8_t>(g_->units_[u].steps - 1);  // 20.2.2: "at its one-step level"
    rebuild_occupancy();
    return true;
  }
  if (n == 2 && w0 == "turn") {  // the Game Turn (only the number changes)
    turn_ = std::clamp(std::stoi(words[1]), 1, 99);
    return true;
  }
  if (n == 3 && w0 == "marker") {  // 6.6.3, 6.6.4: a unit's supply marker
    const int u = unit(words[1]);
    if (u < 0) return true;
    if (words[2] != "oos" && words[2] != "emergency" && words[2] != "none") {
      st = Error{"marker UNIT oos|emergency|none", "", ""};
      return true;
    }
    us_[u].out_of_supply = words[2] == "oos";
    us_[u].emergency = words[2] == "emergency";
    return true;
  }
  if (n == 3 && w0 == "control") {  // 3.0b: who controls HEX
    const int h = g_->grid_.parse(words[1]);
    const int side = side_word(words[2]);
    if (h < 0) {
      st = Error{"control HEX axis|soviet|none: no hex " + words[1], "", ""};
      return true;
    }
    control_[h] = static_cast<int8_t>(side);
    return true;
  }
  return false;
}

bool AgcState::chapter_query(const std::vector<std::string>& words, std::string& out,
                             std::string& err) const {
  const auto n = words.size();
  const std::string w0 = n > 0 ? words[0] : "";
  if (n == 3 && w0 == "rp") {
    const int side = side_word(words[1]);
    const std::string& k = words[2];
    if (side == kNoSide) {
      err = "rp axis|soviet i|a|n|v";
      return true;
    }
    const int v = k == "i"   ? rp_i_[side]
                  : k == "v" ? rp_v_[side]
                  : k == "a" ? (side == kAxis ? rp_a_axis_ : rp_a_soviet_)
                  : k == "n" ? (side == kSoviet ? rp_n_ : 0)
                             : -1;
    if (v < 0) err = "rp axis|soviet i|a|n|v";
    out = std::to_string(v);
    return true;
  }
  if (n == 1 && w0 == "strongpoints") {
    out = std::to_string(strongpoints_) + (e_strongpoint_ ? "E" : "");
    return true;
  }
  if (n == 1 && w0 == "r-event") {
    out = r_event_ ? "yes" : "no";
    return true;
  }
  if (n == 1 && w0 == "extra-asp") {
    out = std::to_string(extra_asp_);
    return true;
  }
  if (n == 1 && w0 == "replacement-roll") {
    out = replacement_roll_ < 0 ? "none" : std::to_string(replacement_roll_);
    return true;
  }
  if (n == 1 && w0 == "step") {
    out = kStrategicStepWords[strategic_];
    return true;
  }
  if (n == 1 && w0 == "axis-vp") {
    out = std::to_string(axis_vp());
    return true;
  }
  if (n == 1 && w0 == "withdrawals-due") {
    for (int u : withdraw_due_) out += (out.empty() ? "" : " ") + g_->units_[u].id;
    if (out.empty()) out = "none";
    return true;
  }
  if (n == 3 && w0 == "unit" && (words[2] == "rebuild" || words[2] == "activated" || words[2] == "hq")) {
    const int u = g_->unit_index(words[1]);
    if (u < 0) {
      err = "no unit " + words[1];
      return true;
    }
    const auto& s = us_[u];
    if (words[2] == "activated") out = s.activated ? "yes" : "no";
    if (words[2] == "hq") out = !g_->units_[u].hq ? "none" : s.nonop ? "non-op" : "operational";
    if (words[2] == "rebuild")
      out = s.withdrawn      ? "withdrawn"
            : s.rebuild == 1 ? "cadre"
            : s.rebuild == 2 ? "active"
            : s.eliminated   ? "eliminated"
            : s.hex >= 0     ? "map"
                             : "off-map";
    return true;
  }
  return false;
}

}  // namespace agc
