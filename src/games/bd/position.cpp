// Barbarossa Deluxe: the position format (kernel/position.h, docs/saves.md "Positions").
//
// Everything that happened, by name: units by counter id, hexes by their four-digit id,
// phases, places and supply states by their words. What the scenario fixes (first and last
// turn, the first player, the starting VP, the free set-up zones) is not written: it comes
// from the installed scenario data. Hidden information (the Soviet stack order, the Rhine/
// Oder counter) is included: a position is a full-information document, like a save.
#include "kernel/position.h"

#include <string>
#include <unordered_map>

#include "games/bd/bd_internal.h"

namespace bd {

using steppe::Error;
using steppe::JsonReader;
using steppe::Result;
using steppe::Status;

namespace {

constexpr int kPositionVersion = 1;

constexpr const char* kPendingNames[] = {"none",    "luftwaffe-defend", "bloodbath-choice", "retreat",
                                         "advance", "emergency",        "caucasus",         "take-retreat",
                                         "support", "overstack",        "bloodbath-loss",   "interrupt"};
constexpr const char* kFlagNames[] = {
    "done",    "attacked",  "defended",      "retreated-in", "revealed",   "ma-done",        "ma-failed",
    "no-move", "sea-moved", "turn-attacked", "stand-fast",   "edge-entry", "convert-pending"};
constexpr const char* kControlChars = "GS.";

int winner_code(const std::string& w) {
  return w == "german" ? kGerman : w == "soviet" ? kSoviet : w == "draw" ? 2 : w == "none" ? kNoSide : -99;
}
std::string winner_word(int w) { return w == 2 ? "draw" : side_name(w); }

}  // namespace

Result<Json> BdState::position() const {
  if (own_defs_ || own_map_)
    return Error{"a state whose counters or map were edited by scenario-test words has no position", "", ""};
  const auto hex = [](int h) -> Json { return h >= 0 ? Json(hex_id(h)) : Json(nullptr); };
  const auto uid = [&](int u) -> Json { return u >= 0 ? Json(def(u).id) : Json(nullptr); };
  const auto ids = [&](const auto& v) {
    Json a = Json::array();
    for (auto u : v) a.push_back(uid(u));
    return a;
  };
  const auto hexes = [&](const auto& v) {
    Json a = Json::array();
    for (auto h : v) a.push_back(hex(h));
    return a;
  };
  const auto control = [](const std::array<uint8_t, kNumHexes>& c) {
    std::string s(kNumHexes, '.');
    for (int h = 0; h < kNumHexes; ++h)
      s[static_cast<size_t>(h)] = kControlChars[std::min<int>(c[static_cast<size_t>(h)], 2)];
    return s;
  };
  const auto counts = [&](const std::array<uint8_t, kNumHexes>& c) {
    Json o = Json::object();
    for (int h = 0; h < kNumHexes; ++h)
      if (c[static_cast<size_t>(h)] != 0) o[hex_id(h)] = c[static_cast<size_t>(h)];
    return o;
  };
  Json j;
  j["version"] = kPositionVersion;
  j["scenario"] = std::string(scenario_id_);
  Json opts = Json::array();
  if (opt_forgiveness_) opts.push_back("forgiveness-points");
  if (opt_kiev_) opts.push_back("kiev-vp");
  if (opt_lithuania_) opts.push_back("lithuania");
  j["options"] = opts;
  j["turn"] = turn_;
  j["phase"] = phase_name(phase_);
  j["pending"] = kPendingNames[pending_];
  // 9.7 (ruling BD-14): the attack declared while the defender decides; written only then.
  if (pending_ == kPendInterrupt) j["held_attack"] = action_to_string(held_attack_);
  if (emergency_used_) j["emergency_used"] = true;  // 8.11, only when made this phase
  j["vp"] = vp_;
  j["vp_base_hexes"] = vp_base_hexes_;
  j["vp_events"] = vp_events_;
  j["winner"] = winner_word(winner_);
  j["end_reason"] = end_reason_;
  j["order"] = {{"german", kOrderNames[order_[kGerman]]}, {"soviet", kOrderNames[order_[kSoviet]]}};
  j["dice"] = Json::object();
  steppe::write_dice(j["dice"], dice_);
  j["rules"] = {{"paulus", paulus_},                         // 5.10: 0 undecided, 1 taken, 2 declined
                {"zone1942", zone1942_},                     // 5.6
                {"moscow_rolled", moscow_rolled_},           // 4.15
                {"crimea_supply", crimea_on_},               // 7.4
                {"crimea_this_turn", crimea_turn_},          // 7.4
                {"crimea_switched", crimea_switched_},       // 7.4
                {"crimea_declared", ids(crimea_declared_)},  // 7.4, BD-22
                {"lithuania_relocate", lith_relocate_},      // 3.7
                {"siege", siege_},                           // 12.13
                {"oos_kills", oos_kills_},                   // 14.10
                {"rvgk_setup", rvgk_setup_},                 // 15.3
                {"forgiveness_points", fp_},                 // 4.20
                {"baltic_lost", baltic_lost_},               // 4.5
                {"dnepr_lost", dnepr_lost_},                 // 4.6
                {"early_fallen", early_fallen_},             // 4.7, 4.8 (bits)
                {"kiev_taken", kiev_taken_},                 // 4.21
                {"summer_turn", summer_turn_},               // 4.4
                {"summer_done", summer_done_},               // 4.4
                {"watch", watch_},                           // 4.18: 0 none, 1 Rhine, 2 Oder
                {"soviet_losses", soviet_losses_},           // 4.19
                {"ss_due", ss_due_},                         // 8.17
                {"ss_cycle", ss_cycle_},                     // 8.17
                {"ss_failed", ss_failed_},                   // 4.10 (bits)
                {"ss_done", ss_done_},                       // 8.17 (bits)
                {"caucasus", cauc_},                         // 4.11-4.13
                {"caucasus_open", cauc_open_},               // 4.11
                {"caucasus_turn", cauc_turn_},               //
                {"caucasus_rolled", cauc_rolled_},           //
                {"caucasus_need", cauc_need_},               // 4.12
                {"mansteins_gambit", mg_},                   // 4.16
                {"german_moscow_at_start", german_moscow_at_start_},  // 7.21
                {"rvgk_moves", rvgk_moves_},                          // 8.9
                {"replacements_mech", {repl_left_mech_[0], repl_left_mech_[1]}},
                {"replacements_non_mech", {repl_left_non_[0], repl_left_non_[1]}},
                {"withdrawals_done", withdrawals_done_},  // 8.21
                {"combout_done", combout_done_},          // 8.16 (bits)
                {"combout_left", combout_left_},          // 8.16
                {"returned_once", ids(returned_once_)},   // 8.15
                {"polish_triggered", polish_triggered_},  // 8.24
                {"romania_defected", romania_defected_},  // 8.25
                {"bulgaria", bulg_state_},                // 8.26
                {"bulgaria_unit", uid(bulg_unit_)},       //
                {"bulgaria_exit_turn", bulg_exit_turn_},  //
                {"bulgaria_hex", hex(bulg_hex_)},         //
                {"movers", ids(movers_)},                 // 10.2
                {"kerch_from", hex(kerch_from_)},         // 10.14
                {"sea_used", sea_used_},                  // 10.16, 10.17 (bits)
                {"ff_used_1942", ff_used_1942_},          // 5.5
                {"ff_used_1943", ff_used_1943_},          //
                {"soviet_ff_used", soviet_ff_used_},      //
                {"withdraw_due", withdraw_due_},          // 8.21
                {"stand_fast_ended", stand_fast_ended_},  // 12.7
                {"strategic_used", strat_used_},          // 8.7
                {"skip_rvgk_once", skip_rvgk_once_},      // 14.2
                {"assault_only", assault_only_},          // 12.2
                {"next_order", next_order_},              // 11.7 stacking order
                {"overstack_resume", overstack_resume_},  // 6.2
                {"last_result", last_result_},
                {"last_odds", last_odds_}};
  Json pr = Json::array();
  for (const auto& [h, n] : paulus_rolls_) pr.push_back({hex(h), n});
  j["rules"]["paulus_rolls"] = pr;  // 5.10
  Json units = Json::object();
  for (int u = 0; u < num_units(); ++u) {
    const UnitSt& s = unit(u);
    // Fields at their default are left out (a campaign has some 300 counters).
    Json x{{"label", label(u)}, {"where", where_name(s.where)}};
    if (s.hex >= 0) x["hex"] = hex_id(s.hex);
    if (s.mp != -1) x["mp"] = s.mp;
    if (s.flags != 0) {
      Json flags = Json::array();
      for (size_t b = 0; b < std::size(kFlagNames); ++b)
        if ((s.flags >> b) & 1u) flags.push_back(kFlagNames[b]);
      x["flags"] = flags;
    }
    if (s.start_hex >= 0) x["start_hex"] = hex_id(s.start_hex);
    if (s.turn != 0) x["turn"] = s.turn;
    if (s.order != 0) x["order"] = s.order;
    if (s.forced_supply != kSupNone) x["forced_supply"] = supply_name(s.forced_supply);
    if (s.parent >= 0) x["attached_to"] = def(s.parent).id;
    units[def(u).id] = std::move(x);
  }
  j["units"] = std::move(units);
  j["hexes"] = {{"control", control(hex_.control)},
                {"start_control", control(hex_.start_control)},
                {"turn_start_control", control(hex_.turn_start_control)},
                {"entered", counts(hex_.entered)},
                {"in_situ", counts(hex_.insitu)}};
  const MarkerSt& m = markers_;
  j["markers"] = {{"hero_city", hexes(m.hero_city)},
                  {"fortress_city", hexes(m.fortress_city)},
                  {"hero_left", m.hero_left},
                  {"fortress_left", m.fortress_left},
                  {"fortress_restricted_left", m.fortress_restricted_left},
                  {"fa_available", m.fa_available},
                  {"aerial_available", m.aerial_available},
                  {"aerial_return", m.aerial_return},
                  {"fa_hex", hex(m.fa_hex)},
                  {"fa_turn", m.fa_turn},
                  {"osupply", hexes(m.osupply)},
                  {"osupply_have", {m.osupply_have[0], m.osupply_have[1], m.osupply_have[2]}},
                  {"aerial", hex(m.aerial)},
                  {"luftwaffe_left", m.luftwaffe_left},
                  {"east_wall", hexes(m.east_wall)},
                  {"east_wall_left", m.east_wall_left},
                  {"artillery_used", m.artillery_used},
                  {"air_armies_used", m.air_armies_used},
                  {"support_used", m.support_used},
                  {"airborne_years", m.airborne_years}};
  const Battle& b = battle_;
  if (b.active) {
    const auto part = [&](const auto& arr, int n) {
      Json a = Json::array();
      for (int i = 0; i < n; ++i) a.push_back(uid(arr[static_cast<size_t>(i)]));
      return a;
    };
    Json from = Json::array();
    for (int i = 0; i < b.nfrom; ++i) from.push_back(hex(b.from[static_cast<size_t>(i)]));
    Json adv2 = Json::array();
    for (int i = 0; i < b.nadv2; ++i)
      adv2.push_back({uid(b.adv2[static_cast<size_t>(i)]), hex(b.adv2_from[static_cast<size_t>(i)])});
    Json boost = Json::array(), bb = Json::array();
    for (int i = 0; i < b.natt; ++i) {
      boost.push_back(b.boost[static_cast<size_t>(i)]);
      bb.push_back(b.bb_per[static_cast<size_t>(i)]);
    }
    j["battle"] = {{"target", hex(b.target)},
                   {"mobile_assault", b.is_ma != 0},
                   {"attacker", side_name(b.attacker)},
                   {"luftwaffe_attack", b.lw_attack},
                   {"luftwaffe_defend", b.lw_defend},
                   {"launch", hex(b.launch)},
                   {"attackers", part(b.att, b.natt)},
                   {"defenders", part(b.def, b.ndef)},
                   {"from", from},
                   {"retreating", part(b.retreating, b.nretreat)},
                   {"may_advance", part(b.adv, b.nadv)},
                   {"second_advance", adv2},
                   {"boost", boost},
                   {"support", b.support},
                   {"attack", b.attack},
                   {"defense", b.defense},
                   {"defense_lost", b.defense_lost},
                   {"raw_index", b.raw_index},
                   {"shifts", b.shifts},
                   {"final_index", b.final_index},
                   {"die", b.die},
                   {"result", b.result},
                   {"rolled", b.rolled},
                   {"drop", uid(b.drop)},
                   {"bloodbath_need", b.bb_need},
                   {"bloodbath_per", bb}};
  } else {
    j["battle"] = nullptr;
  }
  return j;
}

Status BdState::read_position(const JsonReader& r) {
  std::unordered_map<std::string, int> by_id;
  for (int u = 0; u < num_units(); ++u) by_id.emplace(def(u).id, u);
  const auto find_unit = [&](std::string_view id) {
    const auto it = by_id.find(std::string(id));
    return it == by_id.end() ? -1 : it->second;
  };
  const auto rd_hex = [](const JsonReader& x) {
    return steppe::read_id(x, parse_hex, "hex of the Barbarossa Deluxe map", true);
  };
  const auto rd_unit = [&](const JsonReader& x) { return steppe::read_id(x, find_unit, "counter", true); };
  const auto rd_control = [&](const JsonReader& x, std::array<uint8_t, kNumHexes>& out) {
    const std::string s = x.as_str();
    if (s.size() != static_cast<size_t>(kNumHexes)) {
      if (x.json().is_string()) x.fail("expected one character per hex (" + std::to_string(kNumHexes) + ")");
      return;
    }
    for (int h = 0; h < kNumHexes; ++h) {
      const char c = s[static_cast<size_t>(h)];
      const char* p = std::strchr(kControlChars, c);
      if (p == nullptr || c == '\0') {
        x.fail("hex " + hex_id(h) + ": control must be G, S or .");
        return;
      }
      out[static_cast<size_t>(h)] = static_cast<uint8_t>(p - kControlChars);
    }
  };
  const auto rd_counts = [&](const JsonReader& x, std::array<uint8_t, kNumHexes>& out) {
    out.fill(0);
    for (const auto& [id, v] : x.members()) {
      const int h = parse_hex(id);
      if (h < 0) {
        v.fail("not a hex id of the Barbarossa Deluxe map: '" + id + "'");
        continue;
      }
      out[static_cast<size_t>(h)] = static_cast<uint8_t>(v.as_int_in(0, 255));
    }
  };
  const auto i8 = [](const JsonReader& x, const char* k, int lo = -128, int hi = 127) {
    return static_cast<int8_t>(x.int_in(k, lo, hi));
  };
  const auto u8 = [](const JsonReader& x, const char* k) {
    return static_cast<uint8_t>(x.int_in(k, 0, 255));
  };

  r.int_in("version", kPositionVersion, kPositionVersion);
  turn_ = r.int_in("turn", 1, 99);
  const std::string ph = r.str("phase");
  const int p = parse_phase(ph);
  if (p < 0 && r.at("phase").json().is_string()) r.at("phase").fail_value("not a phase of the game");
  phase_ = static_cast<Phase>(p < 0 ? 0 : p);
  pending_ = static_cast<Pending>(r.at("pending").as_word(kPendingNames));
  vp_ = r.int_in("vp", -999, 999);
  vp_base_hexes_ = r.int_in("vp_base_hexes", -999, 999);
  vp_events_ = r.int_in("vp_events", -999, 999);
  winner_ = winner_code(r.str("winner"));
  if (winner_ == -99) {
    r.at("winner").fail_value("expected german, soviet, draw or none");
    winner_ = kNoSide;
  }
  end_reason_ = r.str("end_reason");
  for (int s : {kGerman, kSoviet})
    order_[static_cast<size_t>(s)] =
        static_cast<uint8_t>(r.at("order").at(side_name(s)).as_word(kOrderNames));
  steppe::read_dice(r.at("dice"), dice_);

  const JsonReader q = r.at("rules");
  paulus_ = i8(q, "paulus", 0, 2);
  zone1942_ = i8(q, "zone1942", 0, 2);
  moscow_rolled_ = q.boolean("moscow_rolled");
  crimea_on_ = q.boolean("crimea_supply");
  crimea_turn_ = q.boolean("crimea_this_turn");
  crimea_switched_ = q.boolean("crimea_switched");
  crimea_declared_.clear();
  for (const JsonReader& x : q.at("crimea_declared").elements())
    crimea_declared_.push_back(static_cast<int16_t>(rd_unit(x)));
  lith_relocate_ = q.boolean("lithuania_relocate");
  siege_ = i8(q, "siege", 0, 3);
  oos_kills_ = static_cast<int16_t>(q.int_in("oos_kills", 0, 999));
  rvgk_setup_ = i8(q, "rvgk_setup", 0, 127);
  fp_ = q.int_in("forgiveness_points", -999, 999);
  baltic_lost_ = q.boolean("baltic_lost");
  dnepr_lost_ = q.boolean("dnepr_lost");
  early_fallen_ = u8(q, "early_fallen");
  kiev_taken_ = q.boolean("kiev_taken");
  summer_turn_ = i8(q, "summer_turn", 0, 99);
  summer_done_ = i8(q, "summer_done", 0, 2);
  watch_ = i8(q, "watch", 0, 2);
  soviet_losses_ = static_cast<int16_t>(q.int_in("soviet_losses", 0, 9999));
  ss_due_ = i8(q, "ss_due", 0, 2);
  ss_cycle_ = i8(q, "ss_cycle", -1, 127);
  ss_failed_ = u8(q, "ss_failed");
  ss_done_ = u8(q, "ss_done");
  cauc_ = static_cast<uint8_t>(q.int_in("caucasus", kCaucNone, kCaucDefeated));
  cauc_open_ = q.boolean("caucasus_open");
  cauc_turn_ = i8(q, "caucasus_turn", 0, 99);
  cauc_rolled_ = i8(q, "caucasus_rolled", 0, 99);
  cauc_need_ = i8(q, "caucasus_need", 0, 99);
  mg_ = q.boolean("mansteins_gambit");
  german_moscow_at_start_ = q.boolean("german_moscow_at_start");
  rvgk_moves_ = i8(q, "rvgk_moves", 0, 127);
  for (size_t s = 0; s < 2; ++s) {
    repl_left_mech_[s] = static_cast<int8_t>(q.at("replacements_mech").at(s).as_int_in(-128, 127));
    repl_left_non_[s] = static_cast<int8_t>(q.at("replacements_non_mech").at(s).as_int_in(-128, 127));
  }
  withdrawals_done_ = i8(q, "withdrawals_done", 0, 127);
  combout_done_ = u8(q, "combout_done");
  combout_left_ = i8(q, "combout_left", 0, 127);
  returned_once_.clear();
  for (const JsonReader& x : q.at("returned_once").elements())
    returned_once_.push_back(static_cast<int16_t>(rd_unit(x)));
  polish_triggered_ = q.boolean("polish_triggered");
  romania_defected_ = q.boolean("romania_defected");
  bulg_state_ = i8(q, "bulgaria", 0, 3);
  bulg_unit_ = static_cast<int16_t>(rd_unit(q.at("bulgaria_unit")));
  bulg_exit_turn_ = i8(q, "bulgaria_exit_turn", 0, 99);
  bulg_hex_ = static_cast<int16_t>(rd_hex(q.at("bulgaria_hex")));
  movers_.clear();
  for (const JsonReader& x : q.at("movers").elements())
    if (movers_.size() < movers_.capacity())
      movers_.push_back(static_cast<int16_t>(rd_unit(x)));
    else
      x.fail("more movers than a stack can hold");
  kerch_from_ = static_cast<int16_t>(rd_hex(q.at("kerch_from")));
  sea_used_ = u8(q, "sea_used");
  ff_used_1942_ = q.boolean("ff_used_1942");
  ff_used_1943_ = q.boolean("ff_used_1943");
  soviet_ff_used_ = q.boolean("soviet_ff_used");
  withdraw_due_ = i8(q, "withdraw_due", 0, 127);
  stand_fast_ended_ =
      q.opt("stand_fast_ended") ? q.boolean("stand_fast_ended") : false;  // 12.7, absent before
  strat_used_ = i8(q, "strategic_used", 0, 127);
  skip_rvgk_once_ = q.boolean("skip_rvgk_once");
  assault_only_ = q.boolean("assault_only");
  next_order_ = static_cast<uint32_t>(q.integer("next_order"));
  overstack_resume_ = q.boolean("overstack_resume");
  last_result_ = q.str("last_result");
  last_odds_ = q.int_in("last_odds", -999, 999);
  paulus_rolls_.clear();
  for (const JsonReader& x : q.at("paulus_rolls").elements())
    paulus_rolls_.emplace_back(static_cast<int16_t>(rd_hex(x.at(size_t{0}))),
                               static_cast<int8_t>(x.at(size_t{1}).as_int_in(-128, 127)));

  const JsonReader us = r.at("units");
  steppe::check_ids(us, find_unit, "counter");
  for (int u = 0; u < num_units(); ++u) {
    const JsonReader x = us.at(def(u).id);
    if (x.is_null()) continue;
    UnitSt& s = units_[static_cast<size_t>(u)];
    s.where = static_cast<uint8_t>(x.at("where").as_word(kWhereNames));
    const auto opt_hex = [&](const char* k) { return x.opt(k) ? rd_hex(*x.opt(k)) : -1; };
    s.hex = static_cast<int16_t>(opt_hex("hex"));
    s.mp = static_cast<int8_t>(x.opt("mp") ? x.int_in("mp", -1, 127) : -1);
    s.flags = 0;
    if (const auto fl = x.opt("flags"))
      for (const JsonReader& f : fl->elements())
        s.flags = static_cast<uint16_t>(s.flags | (1u << f.as_word(kFlagNames)));
    s.start_hex = static_cast<int16_t>(opt_hex("start_hex"));
    s.turn = static_cast<int8_t>(x.opt("turn") ? x.int_in("turn", -128, 127) : 0);
    s.order = static_cast<uint32_t>(x.integer_or("order", 0));
    s.forced_supply =
        static_cast<uint8_t>(x.opt("forced_supply") ? x.at("forced_supply").as_word(kSupplyNames) : kSupNone);
    s.parent = static_cast<int16_t>(x.opt("attached_to") ? rd_unit(x.at("attached_to")) : -1);
    if (s.where == kOnMap && s.hex < 0 && x.ok()) x.at("hex").fail("a unit on the map needs a hex");
  }
  const JsonReader hx = r.at("hexes");
  rd_control(hx.at("control"), hex_.control);
  rd_control(hx.at("start_control"), hex_.start_control);
  rd_control(hx.at("turn_start_control"), hex_.turn_start_control);
  rd_counts(hx.at("entered"), hex_.entered);
  rd_counts(hx.at("in_situ"), hex_.insitu);

  const JsonReader mk = r.at("markers");
  MarkerSt& m = markers_;
  const auto hex_list = [&](const JsonReader& x, std::vector<int16_t>& out) {
    out.clear();
    for (const JsonReader& e : x.elements()) out.push_back(static_cast<int16_t>(rd_hex(e)));
  };
  hex_list(mk.at("hero_city"), m.hero_city);
  hex_list(mk.at("fortress_city"), m.fortress_city);
  m.hero_left = i8(mk, "hero_left", 0, 127);
  m.fortress_left = i8(mk, "fortress_left", 0, 127);
  m.fortress_restricted_left = i8(mk, "fortress_restricted_left", 0, 127);
  m.fa_available = mk.boolean("fa_available");
  m.aerial_available = mk.boolean("aerial_available");
  m.aerial_return = i8(mk, "aerial_return", 0, 127);
  m.fa_hex = static_cast<int16_t>(rd_hex(mk.at("fa_hex")));
  m.fa_turn = i8(mk, "fa_turn", 0, 127);
  for (size_t i = 0; i < 3; ++i) {
    m.osupply[i] = static_cast<int16_t>(rd_hex(mk.at("osupply").at(i)));
    m.osupply_have[i] = static_cast<int8_t>(mk.at("osupply_have").at(i).as_int_in(-128, 127));
  }
  m.aerial = static_cast<int16_t>(rd_hex(mk.at("aerial")));
  m.luftwaffe_left = i8(mk, "luftwaffe_left", 0, 127);
  hex_list(mk.at("east_wall"), m.east_wall);
  m.east_wall_left = i8(mk, "east_wall_left", 0, 127);
  m.artillery_used = i8(mk, "artillery_used", 0, 127);
  m.air_armies_used = i8(mk, "air_armies_used", 0, 127);
  m.support_used = u8(mk, "support_used");
  m.airborne_years = u8(mk, "airborne_years");

  battle_ = Battle{};
  if (const auto bo = r.opt("battle")) {
    Battle& b = battle_;
    const auto part = [&](const JsonReader& x, auto& arr, uint8_t& n) {
      n = 0;
      for (const JsonReader& e : x.elements()) {
        if (n >= kMaxBattleUnits) {
          e.fail("more units than a battle can hold (" + std::to_string(kMaxBattleUnits) + ")");
          break;
        }
        arr[n++] = static_cast<int16_t>(rd_unit(e));
      }
    };
    b.active = 1;
    b.target = static_cast<int16_t>(rd_hex(bo->at("target")));
    b.is_ma = bo->boolean("mobile_assault") ? 1 : 0;
    const std::string att = bo->str("attacker");
    b.attacker = static_cast<uint8_t>(att == "soviet" ? kSoviet : kGerman);
    b.lw_attack = u8(*bo, "luftwaffe_attack");
    b.lw_defend = u8(*bo, "luftwaffe_defend");
    b.launch = static_cast<int16_t>(rd_hex(bo->at("launch")));
    part(bo->at("attackers"), b.att, b.natt);
    part(bo->at("defenders"), b.def, b.ndef);
    b.nfrom = 0;
    for (const JsonReader& e : bo->at("from").elements())
      if (b.nfrom < b.from.size())
        b.from[b.nfrom++] = static_cast<int16_t>(rd_hex(e));
      else
        e.fail("an attack comes from at most six hexes");
    part(bo->at("retreating"), b.retreating, b.nretreat);
    part(bo->at("may_advance"), b.adv, b.nadv);
    b.nadv2 = 0;
    for (const JsonReader& e : bo->at("second_advance").elements())
      if (b.nadv2 < kMaxBattleUnits) {
        b.adv2[b.nadv2] = static_cast<int16_t>(rd_unit(e.at(size_t{0})));
        b.adv2_from[b.nadv2++] = static_cast<int16_t>(rd_hex(e.at(size_t{1})));
      }
    size_t i = 0;
    for (const JsonReader& e : bo->at("boost").elements())
      if (i < kMaxBattleUnits) b.boost[i++] = static_cast<uint8_t>(e.as_int_in(0, 255));
    i = 0;
    for (const JsonReader& e : bo->at("bloodbath_per").elements())
      if (i < kMaxBattleUnits) b.bb_per[i++] = static_cast<int16_t>(e.as_int_in(-9999, 9999));
    b.support = u8(*bo, "support");
    b.attack = bo->int_in("attack", -9999, 9999);
    b.defense = bo->int_in("defense", -9999, 9999);
    b.defense_lost = bo->int_in("defense_lost", -9999, 9999);
    b.raw_index = i8(*bo, "raw_index");
    b.shifts = i8(*bo, "shifts");
    b.final_index = i8(*bo, "final_index");
    b.die = i8(*bo, "die");
    b.result = u8(*bo, "result");
    b.rolled = u8(*bo, "rolled");
    b.drop = static_cast<int16_t>(rd_unit(bo->at("drop")));
    b.bb_need = static_cast<int16_t>(bo->int_in("bloodbath_need", -9999, 9999));
  }
  emergency_used_ = false;
  if (const auto eu = r.opt("emergency_used")) emergency_used_ = eu->as_bool();
  held_attack_ = Action{};
  if (pending_ == kPendInterrupt) {
    const JsonReader ha = r.at("held_attack");
    const auto parsed = parse_action(ha.as_str());
    if (!parsed ||
        (parsed->verb != kAttackFrom && parsed->verb != kAttackWith && parsed->verb != kMobileAssault))
      ha.fail_value("not an attack of this position");
    else
      held_attack_ = *parsed;
  }
  mark_dirty();
  return r.status();
}

Result<std::unique_ptr<steppe::State>> BdGame::state_from_position(const Json& position) const {
  return steppe::new_state_from_position<BdState>(*this, position);
}

}  // namespace bd
