// The state (2.0, 3.0e stacking, 3.0f zones of control), the sequence of play (4.2),
// victory (24.0) and the verb table.
#include <algorithm>
#include <map>
#include <span>

#include "games/agc/agc.h"
#include "kernel/verbs.h"

namespace agc {

using steppe::Action;
using steppe::Error;
using steppe::Result;
using steppe::Status;

steppe::Result<std::unique_ptr<steppe::State>> AgcGame::new_state(const std::string& scenario,
                                                                  uint64_t seed) const {
  for (const auto& s : scenarios_)
    if (s.id == scenario) return std::unique_ptr<steppe::State>(std::make_unique<AgcState>(*this, &s, seed));
  if (scenario == "empty")
    return std::unique_ptr<steppe::State>(std::make_unique<AgcState>(*this, nullptr, seed));
  return Error{"unknown scenario '" + scenario + "' (bialystok-minsk, campaign)", "", ""};
}

AgcState::AgcState(const AgcGame& g, const ScenarioDef* sc, uint64_t seed) : g_(&g), sc_(sc) {
  dice_ = steppe::Dice(seed);
  us_.resize(g.units_.size());
  control_ = g.control0_;
  for (auto& v : stack_) v.assign(g.grid_.size(), 0);
  for (auto& v : zoc_) v.assign(g.grid_.size(), 0);
  attacked_hex_.assign(g.grid_.size(), 0);
  interdiction_.assign(g.grid_.size(), 0);
  strongpoint_.assign(g.grid_.size(), 0);  // 18.3: none at the start
  tracer_ = std::make_shared<steppe::SupplyTracer>();
  if (sc != nullptr) {
    turn_ = sc->first_turn;
    for (const auto& [u, h] : sc->setup) us_[u].hex = static_cast<int16_t>(h);  // 4.1
    for (const auto& [u, b] : sc->air_setup) us_[u].box = b;                    // 17.1.2
  }
  begin_turn();
}

int AgcState::weather() const {
  if (weather_override_ >= 0) return weather_override_;
  if (sc_ == nullptr) return 0;
  const int i = turn_ - sc_->first_turn;
  return i >= 0 && i < static_cast<int>(sc_->weather.size()) ? sc_->weather[i] : 0;
}

// 14.0: the Reaction Phase belongs to the defender.
int AgcState::side_of_phase() const {
  if (strategic_ != kNoStep) return strategic_side();  // 4.2 A3, A4, D (replacements.cpp)
  if (phase_ == kSovietReaction) return kSoviet;
  // 17.1.6: the Soviet sends opposing fighters after the Axis has allocated; 17.1.7: the defender
  // allocates his CAS missions after the attacker.
  if (air_step_ == 3 && role_side() != kNoSide) return role_side();  // 17.2.2
  if (air_step_ >= 4) return air_side_;                              // 17.2.4a, e
  if (phase_ == kAxisInterdiction) return air_step_ == 1 ? kSoviet : kAxis;
  if (combat_phase() && air_step_ == 1) return 1 - attacker_side();
  if (phase_ == kAxisReaction) return kAxis;
  return attacker_side();
}
int AgcState::current_player() const { return over_ ? steppe::kTerminalPlayer : side_of_phase(); }

void AgcState::place(int unit, int hex) {
  us_[unit].hex = static_cast<int16_t>(hex);
  if (hex >= 0 && control_[hex] != g_->units_[unit].side) {
    control_[hex] = static_cast<int8_t>(g_->units_[unit].side);  // 3.0 control: last to occupy
    emit({"control",
          g_->units_[unit].label + " takes control of " + g_->grid_.id(hex),
          "3.0",
          0xFFFFFFFFu,
          false,
          {}});
  }
}

// 16.3.3: a four-step unit's first loss is a Step Loss marker (-2 to both strengths) on its
// full side; then the reduced side; a three-step unit loses its full side first.
int AgcState::attack_of(int u) const {
  const auto& d = g_->units_[u];
  const int lost = us_[u].steps_lost;
  if (lost == 0) return d.attack;
  if (d.steps == 4 && lost == 1) return std::max(0, d.attack - 2);
  if ((d.steps == 4 && lost == 3) || (d.steps == 3 && lost == 2)) return std::max(0, d.reduced_attack - 2);
  return d.reduced_attack;
}
int AgcState::defense_of(int u) const {
  const auto& d = g_->units_[u];
  const int lost = us_[u].steps_lost;
  if (lost == 0) return d.defense;
  if (d.steps == 4 && lost == 1) return std::max(1, d.defense - 2);
  if ((d.steps == 4 && lost == 3) || (d.steps == 3 && lost == 2)) return std::max(1, d.reduced_defense - 2);
  return std::max(1, d.reduced_defense);
}

void AgcState::lose_step(int u, const char* rule) {
  ++us_[u].steps_lost;
  if (steps_left(u) <= 0) {
    us_[u].hex = -1;
    us_[u].eliminated = true;  // 16.4: to the Eliminated Box
    emit({"loss", g_->units_[u].label + " is eliminated", rule, 0xFFFFFFFFu, false, {}});
  } else {
    emit({"loss", g_->units_[u].label + " loses a step", rule, 0xFFFFFFFFu, false, {}});
  }
}

// ---- 24.0 victory ----
int AgcState::axis_vp() const {
  int vp = vp_adjust_;  // 24.1: VPs for actions (7.2e.1, 8.3, 8.6, 22.2.6)
  if (sc_ != nullptr)
    for (const auto& [h, v] : sc_->vp_locations)
      if (h >= 0 && control_[h] == kAxis) vp += v;  // 24.1.2
  return vp;
}

void AgcState::finish() {
  over_ = true;
  emit({"end",
        "the game ends with " + std::to_string(axis_vp()) + " Axis VP",
        "24.0",
        0xFFFFFFFFu,
        false,
        {}});
}

std::vector<double> AgcState::returns() const {
  if (!over_ || sc_ == nullptr) return {0, 0};
  const bool axis = axis_vp() >= sc_->axis_wins_at;  // 24.0
  return axis ? std::vector<double>{1, -1} : std::vector<double>{-1, 1};
}

Json AgcState::result() const {
  const auto r = returns();
  return Json{{"winner", !over_     ? "none"
                         : r[0] > 0 ? "axis"
                         : r[1] > 0 ? "soviet"
                                    : "draw"},
              {"turn", turn_},
              {"vp", axis_vp()},
              {"axis_wins_at", sc_ != nullptr ? sc_->axis_wins_at : 0}};
}

Json AgcState::full_json() const {
  Json units = Json::array();
  for (size_t u = 0; u < us_.size(); ++u) {
    const auto& s = us_[u];
    if (s.hex < 0 && !s.eliminated && s.steps_lost == 0) continue;
    units.push_back({{"id", g_->units_[u].id},
                     {"hex", s.hex >= 0 ? g_->grid_.id(s.hex) : ""},
                     {"steps_lost", s.steps_lost},
                     {"mp", s.mp_left},
                     {"attacked", s.attacked},
                     {"oos", s.out_of_supply},
                     {"emergency", s.emergency},
                     {"eliminated", s.eliminated}});
    if (g_->units_[u].untried) units.back()["untried"] = !s.tried;  // 22.9.1
    if (s.overrun) units.back()["overrun"] = true;                  // 11.4.4
    if (s.railed) units.back()["railed"] = true;                    // 11.1.2
    if (s.strategic) units.back()["strategic"] = true;              // 11.3
  }
  Json ctrl = Json::object();
  for (size_t h = 0; h < control_.size(); ++h)
    if (control_[h] != g_->control0_[h]) ctrl[g_->grid_.id(static_cast<int>(h))] = control_[h];
  // 12.0: the Declared Attack markers; 14.2 the artillery committed, 14.3 the Orders.
  Json declared = Json::array();
  for (size_t i = 0; i < decl_.size(); ++i) {
    const auto& x = decl_[i];
    Json e{{"hexes", Json::array()},
           {"units", Json::array()},
           {"support", Json::array()},
           {"mandated", x.mandated},
           {"resolved", x.resolved}};
    for (int h : x.hexes) e["hexes"].push_back(g_->grid_.id(h));
    for (int u : x.units) e["units"].push_back(g_->units_[u].id);
    for (int u : x.support) e["support"].push_back(g_->units_[u].id);
    const char* const words[] = {"none", "no-retreat", "additional-retreat"};
    e["order"] = words[order_of(static_cast<int>(i))];
    if (x.order == kNoOrder && order_of(static_cast<int>(i)) != kNoOrder) e["nkvd"] = true;  // 14.3.5
    if (x.cas != 0) e["cas"] = x.cas;                                                        // 15.1.2
    declared.push_back(std::move(e));
  }
  // 17.1.2: the Air Operations Card; 17.1.8 the air units face down on their mission hexes.
  const char* const boxes[] = {"out", "ready", "flown", "damaged", "destroyed", "mission"};
  Json air = Json::array();
  for (size_t u = 0; u < us_.size(); ++u) {
    if (!g_->units_[u].air || us_[u].box == kAirOut) continue;
    Json e{{"id", g_->units_[u].id}, {"side", g_->units_[u].side}, {"box", boxes[us_[u].box]}};
    if (us_[u].target >= 0) e["target"] = g_->units_[us_[u].target].id;  // 17.2.4a
    if (us_[u].retarget) e["retarget"] = true;                           // 17.2.4e
    if (us_[u].box == kAirMission) {
      e["hex"] = g_->grid_.id(us_[u].mission);
      e["role"] = g_->units_[u].air_type == kDummy ? "dummy"
                  : us_[u].role_open               ? "undeclared"
                  : us_[u].firing                  ? "firing"
                                                   : "mission";
    }
    air.push_back(std::move(e));
  }
  Json interdiction = Json::object();  // 13.1.2: the Interdiction markers
  for (size_t h = 0; h < interdiction_.size(); ++h)
    if (interdiction_[h] != 0) interdiction[g_->grid_.id(static_cast<int>(h))] = interdiction_[h];
  Json strongpoints = Json::object();  // 18.3: under construction or completed, by side
  for (size_t h = 0; h < strongpoint_.size(); ++h)
    if (strongpoint_[h] != 0) {
      const int v = strongpoint_[h];
      strongpoints[g_->grid_.id(static_cast<int>(h))] =
          std::string(v % 2 == 1 ? "axis" : "soviet") + (v >= 3 ? "" : "-under-construction");
    }
  return Json{{"turn", turn_},
              {"strongpoints", strongpoints},
              {"rail_used", {rail_used_[0], rail_used_[1]}},
              {"strongpoints_left", {strongpoints_left_[0], strongpoints_left_[1]}},
              {"flipping", flipping_},
              {"air", air},
              {"air_step", air_step_},
              {"air_hex", air_hex_ >= 0 ? g_->grid_.id(air_hex_) : ""},
              {"air_initiative", air_init_},
              {"air_side", air_side_},
              {"air_round", air_round_},
              {"interdiction", interdiction},
              {"phase", phase_},
              {"over", over_},
              {"units", units},
              {"control", ctrl},
              {"vp", axis_vp()},
              {"dice", dice_.counter()},
              {"declared", declared},
              {"mandated_owed", mandated_owed_},
              {"replacements", chapter_json()}};  // 7.0, 8.0, 22.2 (replacements.cpp)
}

Json AgcState::observation(int side) const {
  Json j = full_json();
  if (side == attacker_side() && !combat_phase())
    for (auto& x : j["declared"])
      if (x.contains("order") && x["order"] != "none" && !x.value("nkvd", false)) x["order"] = "face-down";
  // 17.1.8: "Their identity and strength is unknown to the enemy player until air combat ... is
  // resolved": the enemy's face-down units show as still in the Ready Box, and each mission hex
  // as a count of face-down units.
  std::map<std::string, std::pair<int, int>> down;  // hex: side, count (ordered by hex, not by unit)
  for (auto& e : j["air"])
    if (e["side"] != side && e["box"] == "mission" && e["hex"] != j["air_hex"]) {  // 17.2.1: revealed
      auto& f = down[e["hex"].get<std::string>()];
      f.first = e["side"].get<int>();
      ++f.second;
      e["box"] = "ready";
      e.erase("hex");
      e.erase("role");
    }
  Json face_down = Json::array();
  for (const auto& [h, f] : down) face_down.push_back({{"hex", h}, {"side", f.first}, {"count", f.second}});
  j["face_down"] = std::move(face_down);
  // 22.9.1: "The back sides of the counters represent the Untried mode, where the unit values are
  // not known" (to either player, ruling A-51): an Untried unit shows as "untried", with no id, no
  // strength and no MA, listed after the others by hex (its place in the list would name it).
  Json known = Json::array();
  std::vector<std::pair<std::string, int>> hidden;  // hex, side
  for (auto& e : j["units"]) {
    if (!e.value("untried", false)) {
      known.push_back(std::move(e));
      continue;
    }
    if (e["hex"] == "") continue;  // in the cup
    const int u = g_->unit_index(e["id"].get<std::string>());
    hidden.emplace_back(e["hex"].get<std::string>(), g_->units_[u].side);
  }
  std::sort(hidden.begin(), hidden.end());
  for (const auto& hs : hidden)
    known.push_back({{"id", "untried"}, {"hex", hs.first}, {"side", hs.second}, {"untried", true}});
  j["units"] = std::move(known);
  return j;
}

uint64_t AgcState::state_hash() const {
  uint64_t h = 1469598103934665603ULL;
  auto mix = [&](uint64_t v) { h = (h ^ v) * 1099511628211ULL; };
  mix(static_cast<uint64_t>(turn_));
  mix(phase_);
  mix(over_ ? 1 : 0);
  mix(dice_.counter());
  mix(static_cast<uint8_t>(weather_override_));
  for (const auto& s : us_) {
    mix(static_cast<uint16_t>(s.hex));
    mix(static_cast<uint64_t>(s.steps_lost) | (static_cast<uint64_t>(static_cast<uint8_t>(s.mp_left)) << 8) |
        (static_cast<uint64_t>(s.attacked) << 16) | (static_cast<uint64_t>(s.out_of_supply) << 17) |
        (static_cast<uint64_t>(s.eliminated) << 18) | (static_cast<uint64_t>(s.moved_in_zoc) << 19) |
        (static_cast<uint64_t>(s.moved) << 20) | (static_cast<uint64_t>(s.emergency) << 21) |
        (static_cast<uint64_t>(static_cast<uint8_t>(s.road_in)) << 24) |
        (static_cast<uint64_t>(s.may_advance) << 32) |
        (static_cast<uint64_t>(static_cast<uint8_t>(s.orders_issued)) << 40) |
        (static_cast<uint64_t>(static_cast<uint8_t>(s.dispatched)) << 48) |
        (static_cast<uint64_t>(s.box) << 56) | (static_cast<uint64_t>(s.firing) << 60) |
        (static_cast<uint64_t>(s.role_open) << 61) | (static_cast<uint64_t>(s.retarget) << 62));
    if (s.target >= 0 || s.seq != 0) mix(0xE6Au + (static_cast<uint64_t>(s.target + 1) << 12) + (s.seq << 4));
    if (s.mission >= 0) mix(0xA1Au + (static_cast<uint64_t>(s.mission) << 12));  // 17.1.5
  }
  mix(air_step_);
  mix(static_cast<uint64_t>(air_hex_) + 1);
  mix((static_cast<uint64_t>(static_cast<uint8_t>(air_init_)) << 16) |
      (static_cast<uint64_t>(static_cast<uint8_t>(air_side_)) << 8) | air_round_);
  mix(static_cast<uint8_t>(storm_override_));
  for (size_t i = 0; i < interdiction_.size(); ++i)
    if (interdiction_[i] != 0) mix(0x13u + (i << 4) + interdiction_[i]);
  for (size_t i = 0; i < strongpoint_.size(); ++i)  // 18.3
    if (strongpoint_[i] != 0) mix(0x183u + (i << 4) + strongpoint_[i]);
  for (size_t u = 0; u < us_.size(); ++u) {  // 22.9.1, 11.4.4, 11.1.2, 11.3
    const auto& s = us_[u];
    if (s.tried || s.overrun || s.railed || s.strategic)
      mix(0x110u + (u << 8) + (s.tried ? 1u : 0u) + (s.overrun ? 2u : 0u) + (s.railed ? 4u : 0u) +
          (s.strategic ? 8u : 0u));
  }
  mix((static_cast<uint64_t>(static_cast<uint8_t>(strongpoints_left_[0])) << 8) |
      static_cast<uint8_t>(strongpoints_left_[1]) | (flipping_ ? 0x10000u : 0u));
  mix((static_cast<uint64_t>(static_cast<uint16_t>(rail_used_[0])) << 16) |
      static_cast<uint16_t>(rail_used_[1]));
  // 12.0, 14.2, 14.3: the declared attacks and the defender's reaction to them.
  mix(declaring_ ? 1 : 0);
  mix(static_cast<uint64_t>(mandated_owed_));
  mix(decl_.size());
  for (const auto& x : decl_) {
    mix(0xDECu);
    for (int xh : x.hexes) mix(static_cast<uint64_t>(xh));
    mix(0x1u);
    for (int u : x.units) mix(static_cast<uint64_t>(u));
    mix(0x2u);
    for (int u : x.support) mix(static_cast<uint64_t>(u));
    mix(static_cast<uint64_t>(x.order) | (x.resolved ? 0x100u : 0u) | (x.mandated ? 0x200u : 0u) |
        (static_cast<uint64_t>(static_cast<uint8_t>(x.cas)) << 16));
  }
  mix(static_cast<uint64_t>(advance_hex_) + 1);  // -1 (none) mixes as 0
  for (size_t i = 0; i < control_.size(); ++i) mix(static_cast<uint8_t>(control_[i]) + i * 4);
  for (size_t i = 0; i < attacked_hex_.size(); ++i)
    if (attacked_hex_[i] != 0) mix(i);
  // 7.0, 8.0, 22.1-22.2 (replacements.cpp)
  mix(strategic_ | (static_cast<uint64_t>(static_cast<uint8_t>(rp_i_[0])) << 8) |
      (static_cast<uint64_t>(static_cast<uint8_t>(rp_i_[1])) << 16) |
      (static_cast<uint64_t>(static_cast<uint8_t>(rp_v_[0])) << 24) |
      (static_cast<uint64_t>(static_cast<uint8_t>(rp_v_[1])) << 32) |
      (static_cast<uint64_t>(static_cast<uint8_t>(rp_a_axis_)) << 40) |
      (static_cast<uint64_t>(static_cast<uint8_t>(rp_a_soviet_)) << 48) |
      (static_cast<uint64_t>(static_cast<uint8_t>(rp_n_)) << 56));
  mix(static_cast<uint64_t>(static_cast<uint8_t>(strongpoints_)) | (e_strongpoint_ ? 0x100u : 0u) |
      (r_event_ ? 0x200u : 0u) | (static_cast<uint64_t>(static_cast<uint8_t>(extra_asp_)) << 16) |
      (static_cast<uint64_t>(static_cast<uint8_t>(replacement_roll_)) << 24) |
      (static_cast<uint64_t>(static_cast<uint8_t>(disbanded_)) << 32) |
      (static_cast<uint64_t>(pools_used_) << 40));
  mix(static_cast<uint64_t>(static_cast<int64_t>(vp_adjust_)));
  mix(vp_held_);
  for (int16_t u : withdraw_due_) mix(0x8600u + static_cast<uint64_t>(u));
  for (size_t u = 0; u < us_.size(); ++u) {
    const auto& x = us_[u];
    if (x.nonop || x.activated || x.withdrawn || x.rebuild != 0 || x.activations != 0 || x.guards_used ||
        x.recovery_rolled || x.restricted_moved != 0)
      mix(0x2200u + (u << 16) + (x.nonop ? 1u : 0u) + (x.activated ? 2u : 0u) + (x.withdrawn ? 4u : 0u) +
          (static_cast<uint64_t>(x.rebuild) << 3) +
          (static_cast<uint64_t>(static_cast<uint8_t>(x.activations)) << 5) + (x.guards_used ? 0x2000u : 0u) +
          (x.recovery_rolled ? 0x4000u : 0u) +
          (static_cast<uint64_t>(static_cast<uint8_t>(x.restricted_moved)) << 48));
  }
  return h;
}

// ---- verbs ----
namespace {

std::string print_move(const AgcState& s, const Action& a) {
  return "move " + s.g().units_[a.args[0]].id + " " + s.g().grid_.id(a.args[1]);
}
std::string print_attack(const AgcState& s, const Action& a) { return "attack " + s.g().grid_.id(a.args[0]); }
std::string print_end(const AgcState&, const Action&) { return "end"; }
std::string print_advance(const AgcState& s, const Action& a) {
  return "advance " + s.g().units_[a.args[0]].id;
}
std::string print_hold(const AgcState&, const Action&) { return "hold"; }
std::string print_declare(const AgcState& s, const Action& a) {
  std::string out = "declare";
  const int n = a.args[0] & 0xFF;
  for (int i = 1; i <= n; ++i) out += " " + s.g().grid_.id(a.args[i]);
  out += " by";
  for (int i = n + 1; i < a.nargs; ++i) out += " " + s.g().units_[a.args[i]].id;
  if ((a.args[0] & 0x100) != 0) out += " mandated";  // 12.4
  return out;
}
std::string print_undeclare(const AgcState& s, const Action& a) {
  return "undeclare " + s.g().grid_.id(a.args[0]);
}
constexpr const char* kOrderWords[] = {"none", "no-retreat", "additional-retreat"};
std::string print_order(const AgcState& s, const Action& a) {
  return "order " + s.g().grid_.id(a.args[0]) + " " + kOrderWords[a.args[1]];
}
std::string print_support(const AgcState& s, const Action& a) {
  return "support " + s.g().units_[a.args[0]].id + " " + s.g().grid_.id(a.args[1]);
}

Result<Action> parse_move(const AgcState& s, std::span<const std::string_view> args) {
  if (args.size() != 2) return Error{"usage: move UNIT HEX", "10.0", ""};
  const int u = s.g().unit_index(args[0]);
  if (u < 0) return Error{"no unit '" + std::string(args[0]) + "'", "10.0", ""};
  const int h = s.g().grid_.parse(args[1]);
  if (h < 0) return Error{"no hex '" + std::string(args[1]) + "' (RRCC)", "10.0", ""};
  Action a;
  a.verb = kMove;
  a.push(u);
  a.push(h);
  return a;
}
Result<Action> parse_attack(const AgcState& s, std::span<const std::string_view> args) {
  if (args.size() != 1) return Error{"usage: attack HEX", "15.0", ""};
  const int h = s.g().grid_.parse(args[0]);
  if (h < 0) return Error{"no hex '" + std::string(args[0]) + "' (RRCC)", "15.0", ""};
  Action a;
  a.verb = kAttack;
  a.push(h);
  return a;
}
Result<Action> parse_end(const AgcState&, std::span<const std::string_view> args) {
  if (!args.empty()) return Error{"usage: end", "4.2", ""};
  Action a;
  a.verb = kEnd;
  return a;
}

Result<Action> parse_advance(const AgcState& s, std::span<const std::string_view> args) {
  if (args.size() != 1) return Error{"usage: advance UNIT", "16.7", ""};
  const int u = s.g().unit_index(args[0]);
  if (u < 0) return Error{"no unit '" + std::string(args[0]) + "'", "16.7", ""};
  Action a;
  a.verb = kAdvance;
  a.push(u);
  return a;
}
// declare HEX [HEX...] by UNIT [UNIT...] [mandated] (12.0, 12.8, 12.4): args are the hex count
// (+ 0x100 for a Mandated Attack), the hexes, the units.
Result<Action> parse_declare(const AgcState& s, std::span<const std::string_view> args) {
  const bool mandated = !args.empty() && args.back() == "mandated";
  if (mandated) args = args.first(args.size() - 1);
  const auto by = std::find(args.begin(), args.end(), std::string_view("by"));
  if (by == args.begin() || by == args.end() || by + 1 == args.end())
    return Error{"usage: declare HEX [HEX...] by UNIT [UNIT...]", "12.0", ""};
  Action a;
  a.verb = kDeclare;
  a.push(static_cast<int32_t>(by - args.begin()) | (mandated ? 0x100 : 0));
  for (auto it = args.begin(); it != by; ++it) {
    const int h = s.g().grid_.parse(*it);
    if (h < 0) return Error{"no hex '" + std::string(*it) + "' (RRCC)", "12.0", ""};
    if (a.full()) return Error{"too many hexes and units in one declaration", "12.0", ""};
    a.push(h);
  }
  for (auto it = by + 1; it != args.end(); ++it) {
    const int u = s.g().unit_index(*it);
    if (u < 0) return Error{"no unit '" + std::string(*it) + "'", "12.0", ""};
    if (a.full()) return Error{"too many hexes and units in one declaration", "12.0", ""};
    a.push(u);
  }
  return a;
}
Result<Action> parse_undeclare(const AgcState& s, std::span<const std::string_view> args) {
  if (args.size() != 1) return Error{"usage: undeclare HEX", "12.0", ""};
  const int h = s.g().grid_.parse(args[0]);
  if (h < 0) return Error{"no hex '" + std::string(args[0]) + "' (RRCC)", "12.0", ""};
  Action a;
  a.verb = kUndeclare;
  a.push(h);
  return a;
}
Result<Action> parse_order(const AgcState& s, std::span<const std::string_view> args) {
  if (args.size() != 2) return Error{"usage: order HEX no-retreat|additional-retreat", "14.3", ""};
  const int h = s.g().grid_.parse(args[0]);
  if (h < 0) return Error{"no hex '" + std::string(args[0]) + "' (RRCC)", "14.3", ""};
  int o = -1;
  for (int k = 1; k < 3; ++k)
    if (args[1] == kOrderWords[k]) o = k;
  if (o < 0) return Error{"an Order is no-retreat or additional-retreat", "14.3.1", ""};
  Action a;
  a.verb = kOrder;
  a.push(h);
  a.push(o);
  return a;
}
Result<Action> parse_support(const AgcState& s, std::span<const std::string_view> args) {
  if (args.size() != 2) return Error{"usage: support UNIT HEX", "14.2", ""};
  const int u = s.g().unit_index(args[0]);
  if (u < 0) return Error{"no unit '" + std::string(args[0]) + "'", "14.2", ""};
  const int h = s.g().grid_.parse(args[1]);
  if (h < 0) return Error{"no hex '" + std::string(args[1]) + "' (RRCC)", "14.2", ""};
  Action a;
  a.verb = kSupport;
  a.push(u);
  a.push(h);
  return a;
}
// fly UNIT HEX (17.1.5): args unit, hex.
std::string print_fly(const AgcState& s, const Action& a) {
  return "fly " + s.g().units_[a.args[0]].id + " " + s.g().grid_.id(a.args[1]);
}
Result<Action> parse_fly(const AgcState& s, std::span<const std::string_view> args) {
  if (args.size() != 2) return Error{"usage: fly UNIT HEX", "17.1.5", ""};
  const int u = s.g().unit_index(args[0]);
  if (u < 0) return Error{"no unit '" + std::string(args[0]) + "'", "17.1", ""};
  const int h = s.g().grid_.parse(args[1]);
  if (h < 0) return Error{"no hex '" + std::string(args[1]) + "' (RRCC)", "17.1.5", ""};
  Action a;
  a.verb = kFly;
  a.push(u);
  a.push(h);
  return a;
}
void gen_fly(const AgcState& s, std::vector<Action>& out) {
  const int side = s.side_of_phase();
  if (!s.air_step_open(side)) return;
  std::vector<int> hexes;
  for (int h = 0; h < s.g().grid_.size(); ++h)
    if (s.listed_fly_hex(h)) hexes.push_back(h);
  for (size_t u = 0; u < s.us_.size(); ++u) {
    if (!s.g().units_[u].air || s.g().units_[u].side != side || s.us_[u].box != kAirReady) continue;
    for (int h : hexes)
      if (s.check_fly(static_cast<int>(u), h).is_ok()) {
        Action a;
        a.verb = kFly;
        a.push(static_cast<int32_t>(u));
        a.push(h);
        out.push_back(a);
      }
  }
}
Status check_fly(const AgcState& s, const Action& a) {
  if (a.nargs != 2 || a.args[0] < 0 || a.args[0] >= static_cast<int>(s.us_.size()) ||
      !s.g().grid_.valid(a.args[1]))
    return Error{"malformed fly", "", ""};
  return s.check_fly(a.args[0], a.args[1]);
}
void apply_fly(AgcState& s, const Action& a) { s.do_fly(a.args[0], a.args[1]); }

// role UNIT mission|firing (17.2.2a.2): args unit, 1 for a firing unit.
std::string print_role(const AgcState& s, const Action& a) {
  return "role " + s.g().units_[a.args[0]].id + (a.args[1] != 0 ? " firing" : " mission");
}
Result<Action> parse_role(const AgcState& s, std::span<const std::string_view> args) {
  if (args.size() != 2 || (args[1] != "mission" && args[1] != "firing"))
    return Error{"usage: role UNIT mission|firing", "17.2.2", ""};
  const int u = s.g().unit_index(args[0]);
  if (u < 0) return Error{"no unit '" + std::string(args[0]) + "'", "17.2.2", ""};
  Action a;
  a.verb = kRole;
  a.push(u);
  a.push(args[1] == "firing" ? 1 : 0);
  return a;
}
void gen_role(const AgcState& s, std::vector<Action>& out) {
  if (s.role_side() == kNoSide) return;
  for (size_t u = 0; u < s.us_.size(); ++u)
    for (int f = 0; f < 2; ++f)
      if (s.us_[u].role_open && s.check_role(static_cast<int>(u), f != 0).is_ok()) {
        Action a;
        a.verb = kRole;
        a.push(static_cast<int32_t>(u));
        a.push(f);
        out.push_back(a);
      }
}
Status check_role(const AgcState& s, const Action& a) {
  if (a.nargs != 2 || a.args[0] < 0 || a.args[0] >= static_cast<int>(s.us_.size()) || a.args[1] < 0 ||
      a.args[1] > 1)
    return Error{"malformed role", "", ""};
  return s.check_role(a.args[0], a.args[1] != 0);
}
void apply_role(AgcState& s, const Action& a) { s.do_role(a.args[0], a.args[1] != 0); }

// engage UNIT TARGET (17.2.4a, e): args firing unit, enemy air unit.
std::string print_engage(const AgcState& s, const Action& a) {
  return "engage " + s.g().units_[a.args[0]].id + " " + s.g().units_[a.args[1]].id;
}
Result<Action> parse_engage(const AgcState& s, std::span<const std::string_view> args) {
  if (args.size() != 2) return Error{"usage: engage UNIT TARGET", "17.2.4", ""};
  const int u = s.g().unit_index(args[0]), t = s.g().unit_index(args[1]);
  if (u < 0 || t < 0) return Error{"no unit '" + std::string(args[u < 0 ? 0 : 1]) + "'", "17.2.4", ""};
  Action a;
  a.verb = kEngage;
  a.push(u);
  a.push(t);
  return a;
}
void gen_engage(const AgcState& s, std::vector<Action>& out) {
  if (s.air_step_ < 4 || s.air_hex_ < 0) return;
  std::vector<int> here;
  for (size_t u = 0; u < s.us_.size(); ++u)
    if (s.us_[u].box == kAirMission && s.us_[u].mission == s.air_hex_) here.push_back(static_cast<int>(u));
  for (int f : here)
    for (int t : here)
      if (s.check_engage(f, t).is_ok()) {
        Action a;
        a.verb = kEngage;
        a.push(f);
        a.push(t);
        out.push_back(a);
      }
}
Status check_engage(const AgcState& s, const Action& a) {
  if (a.nargs != 2 || a.args[0] < 0 || a.args[0] >= static_cast<int>(s.us_.size()) || a.args[1] < 0 ||
      a.args[1] >= static_cast<int>(s.us_.size()))
    return Error{"malformed engage", "", ""};
  return s.check_engage(a.args[0], a.args[1]);
}
void apply_engage(AgcState& s, const Action& a) { s.do_engage(a.args[0], a.args[1]); }

Result<Action> parse_hold(const AgcState&, std::span<const std::string_view> args) {
  if (!args.empty()) return Error{"usage: hold", "16.7.1", ""};
  Action a;
  a.verb = kHold;
  return a;
}

void gen_move(const AgcState& s, std::vector<Action>& out) {
  if (s.phase_ == kAxisCombat || s.phase_ == kSovietCombat) return;
  const int side = s.side_of_phase();
  for (size_t u = 0; u < s.us_.size(); ++u) {
    if (s.g().units_[u].side != side || s.us_[u].hex < 0 || s.us_[u].mp_left <= 0) continue;
    for (int d = 0; d < 6; ++d) {
      const int nb = s.g().grid_.neighbour(s.us_[u].hex, d);
      if (nb >= 0 && s.check_move(static_cast<int>(u), nb).is_ok()) {
        Action a;
        a.verb = kMove;
        a.push(static_cast<int32_t>(u));
        a.push(nb);
        out.push_back(a);
      }
    }
  }
}
Status check_move(const AgcState& s, const Action& a) {
  if (a.nargs != 2 || a.args[0] < 0 || a.args[0] >= static_cast<int>(s.us_.size()) ||
      !s.g().grid_.valid(a.args[1]))
    return Error{"malformed move", "", ""};
  return s.check_move(a.args[0], a.args[1]);
}
void apply_move(AgcState& s, const Action& a) { s.do_move(a.args[0], a.args[1]); }

void gen_attack(const AgcState& s, std::vector<Action>& out) {
  if (!s.combat_phase()) return;
  for (const auto& x : s.decl_)
    if (!x.resolved && s.check_attack(x.hexes[0]).is_ok()) {
      Action a;
      a.verb = kAttack;
      a.push(x.hexes[0]);
      out.push_back(a);
    }
}

// 12.0: the declarations offered: against each eligible hex, all the undesignated units able to
// attack it, and each of them alone (12.2.1: "Friendly ground combat units adjacent to enemy
// units are not obligated to attack"); against two hexes (12.8), the units adjacent to both.
void gen_declare(const AgcState& s, std::vector<Action>& out) {
  if (!s.declaration_phase()) return;
  const int side = s.side_of_phase();
  std::vector<uint8_t> designated(s.us_.size(), 0);
  for (const auto& x : s.decl_)
    for (int u : x.units) designated[u] = 1;
  std::map<int, std::vector<int>> single;
  std::map<std::pair<int, int>, std::vector<int>> pair;
  for (size_t u = 0; u < s.us_.size(); ++u) {
    const int v = static_cast<int>(u);
    const auto& d = s.g().units_[u];
    if (d.side != side || s.us_[u].hex < 0 || designated[u] != 0 || d.artillery || s.attack_of(v) <= 0)
      continue;
    std::vector<int> targets;
    for (int dir = 0; dir < 6; ++dir) {
      const int nb = s.g().grid_.neighbour(s.us_[u].hex, dir);
      if (nb < 0 || s.stack_[1 - side][nb] == 0 || s.declaration_of(nb) >= 0 || s.attacked_hex_[nb] != 0)
        continue;
      if (!s.may_attack_into(v, nb)) continue;
      targets.push_back(nb);
      single[nb].push_back(v);
    }
    for (size_t i = 0; i < targets.size(); ++i)
      for (size_t j = i + 1; j < targets.size(); ++j)
        pair[{std::min(targets[i], targets[j]), std::max(targets[i], targets[j])}].push_back(v);
  }
  auto offer = [&](const std::vector<int>& hexes, const std::vector<int>& units, bool mandated = false) {
    if (hexes.size() + units.size() + 1 > static_cast<size_t>(Action::kMaxArgs)) return;
    if (!s.check_declare(hexes, units, mandated).is_ok()) return;
    Action a;
    a.verb = kDeclare;
    a.push(static_cast<int32_t>(hexes.size()) | (mandated ? 0x100 : 0));
    for (int h : hexes) a.push(h);
    for (int u : units) a.push(u);
    out.push_back(a);
  };
  for (const auto& [h, units] : single) {
    offer({h}, units);
    if (s.mandated_owed_ > s.mandated_declared()) offer({h}, units, true);  // 12.4
    if (units.size() > 1)
      for (int u : units) offer({h}, {u});
  }
  for (const auto& [hh, units] : pair) offer({hh.first, hh.second}, units);
}
Status check_declare(const AgcState& s, const Action& a) {
  const int n = a.args[0] & 0xFF;
  if (a.nargs < 3 || a.args[0] < 1 || (a.args[0] & ~0x1FF) != 0 || n < 1 || n + 1 >= a.nargs)
    return Error{"malformed declare", "", ""};
  std::vector<int> hexes, units;
  for (int i = 1; i <= n; ++i) {
    if (!s.g().grid_.valid(a.args[i])) return Error{"malformed declare", "", ""};
    hexes.push_back(a.args[i]);
  }
  for (int i = n + 1; i < a.nargs; ++i) {
    if (a.args[i] < 0 || a.args[i] >= static_cast<int>(s.us_.size()))
      return Error{"malformed declare", "", ""};
    units.push_back(a.args[i]);
  }
  return s.check_declare(hexes, units, (a.args[0] & 0x100) != 0);
}
void apply_declare(AgcState& s, const Action& a) {
  const int n = a.args[0] & 0xFF;
  std::vector<int> hexes(a.args.begin() + 1, a.args.begin() + 1 + n);
  std::vector<int> units(a.args.begin() + 1 + n, a.args.begin() + a.nargs);
  s.do_declare(hexes, units, (a.args[0] & 0x100) != 0);
}

void gen_undeclare(const AgcState& s, std::vector<Action>& out) {
  if (!s.declaration_phase()) return;
  for (const auto& x : s.decl_) {
    Action a;
    a.verb = kUndeclare;
    a.push(x.hexes[0]);
    out.push_back(a);
  }
}
Status check_undeclare(const AgcState& s, const Action& a) {
  if (a.nargs != 1 || !s.g().grid_.valid(a.args[0])) return Error{"malformed undeclare", "", ""};
  return s.check_undeclare(a.args[0]);
}
void apply_undeclare(AgcState& s, const Action& a) { s.do_undeclare(a.args[0]); }

void gen_order(const AgcState& s, std::vector<Action>& out) {
  if (!s.reaction_phase()) return;
  for (const auto& x : s.decl_)
    for (int o = kNoRetreat; o <= kAdditionalRetreat; ++o)
      if (s.check_order(x.hexes[0], static_cast<Order>(o)).is_ok()) {
        Action a;
        a.verb = kOrder;
        a.push(x.hexes[0]);
        a.push(o);
        out.push_back(a);
      }
}
Status check_order(const AgcState& s, const Action& a) {
  if (a.nargs != 2 || !s.g().grid_.valid(a.args[0]) || a.args[1] < kNoRetreat ||
      a.args[1] > kAdditionalRetreat)
    return Error{"malformed order", "", ""};
  return s.check_order(a.args[0], static_cast<Order>(a.args[1]));
}
void apply_order(AgcState& s, const Action& a) { s.do_order(a.args[0], static_cast<Order>(a.args[1])); }

void gen_support(const AgcState& s, std::vector<Action>& out) {
  if (!s.reaction_phase()) return;
  for (size_t u = 0; u < s.us_.size(); ++u) {
    const auto& d = s.g().units_[u];
    if (!d.artillery || d.side != s.side_of_phase() || s.us_[u].hex < 0) continue;
    for (const auto& x : s.decl_)
      if (s.check_support(static_cast<int>(u), x.hexes[0]).is_ok()) {
        Action a;
        a.verb = kSupport;
        a.push(static_cast<int32_t>(u));
        a.push(x.hexes[0]);
        out.push_back(a);
      }
  }
}
Status check_support(const AgcState& s, const Action& a) {
  if (a.nargs != 2 || a.args[0] < 0 || a.args[0] >= static_cast<int>(s.us_.size()) ||
      !s.g().grid_.valid(a.args[1]))
    return Error{"malformed support", "", ""};
  return s.check_support(a.args[0], a.args[1]);
}
void apply_support(AgcState& s, const Action& a) { s.do_support(a.args[0], a.args[1]); }
Status check_attack(const AgcState& s, const Action& a) {
  if (a.nargs != 1 || !s.g().grid_.valid(a.args[0])) return Error{"malformed attack", "", ""};
  return s.check_attack(a.args[0]);
}
void apply_attack(AgcState& s, const Action& a) { s.do_attack(a.args[0]); }

Status end_allowed(const AgcState& s) {
  if (s.strategic_ != kNoStep) return Status::ok();  // 4.2: a step of the Strategic Segment or the Interphase
  if (s.air_step_ == 3)
    return Error{"the dual purpose fighters revealed over " + s.g().grid_.id(s.air_hex_) +
                     " must first be declared mission or firing units",
                 "17.2.2", ""};
  if (s.air_step_ >= 4)
    return Error{"the side with the initiative over " + s.g().grid_.id(s.air_hex_) +
                     " must first select the targets of its firing units",
                 s.air_step_ == 4 ? "17.2.4a" : "17.2.4e", ""};
  if (s.combat_phase() && s.air_step_ < 2) return Status::ok();  // 17.1.7: the CAS allocation is done
  // 12.7: the declarations are complete only when every hex that must be attacked is.
  if (auto st = s.check_declarations_complete(); !st.is_ok()) return st;
  // 12.3.6: "Once an attack is declared, it must be executed."
  if (s.combat_phase())
    for (size_t i = 0; i < s.decl_.size(); ++i) {
      if (s.decl_[i].resolved) continue;
      std::vector<int> att, def;
      int a = 0, d = 0;
      s.combat_force(static_cast<int>(i), att, def, a, d);
      if (!att.empty() && !def.empty())
        return Error{"the declared attack on " + s.g().grid_.id(s.decl_[i].hexes[0]) +
                         " must still be executed: once an attack is declared, it must be executed",
                     "12.3.6", ""};
    }
  return Status::ok();
}
void gen_end(const AgcState& s, std::vector<Action>& out) {
  if (!end_allowed(s).is_ok()) return;
  Action a;
  a.verb = kEnd;
  out.push_back(a);
}
Status check_end(const AgcState& s, const Action& a) {
  if (a.nargs != 0) return Error{"malformed end", "", ""};
  return end_allowed(s);
}
void apply_end(AgcState& s, const Action&) { s.end_phase(); }

// 16.7 Advance After Combat: while an advance is open, each victorious attacker may advance
// (one action each); hold ends the advance ("A player is not forced to advance a unit").
void gen_advance(const AgcState& s, std::vector<Action>& out) {
  if (s.advance_hex_ < 0) return;
  for (size_t u = 0; u < s.us_.size(); ++u)
    if (s.us_[u].may_advance && s.check_advance(static_cast<int>(u)).is_ok()) {
      Action a;
      a.verb = kAdvance;
      a.push(static_cast<int32_t>(u));
      out.push_back(a);
    }
}
Status check_advance(const AgcState& s, const Action& a) {
  if (a.nargs != 1 || a.args[0] < 0 || a.args[0] >= static_cast<int>(s.us_.size()))
    return Error{"malformed advance", "", ""};
  return s.check_advance(a.args[0]);
}
void apply_advance(AgcState& s, const Action& a) { s.do_advance(a.args[0]); }
void gen_hold(const AgcState& s, std::vector<Action>& out) {
  if (s.advance_hex_ < 0) return;
  Action a;
  a.verb = kHold;
  out.push_back(a);
}
Status check_hold(const AgcState& s, const Action& a) {
  if (a.nargs != 0) return Error{"malformed hold", "", ""};
  if (s.advance_hex_ < 0) return Error{"no advance after combat is open", "16.7.1", ""};
  return Status::ok();
}
void apply_hold(AgcState& s, const Action&) { s.do_hold(); }

// Verbs 30..38 (replacements.cpp): one generator (on the first row) lists them all.
template <uint16_t V>
Result<Action> parse_chapter(const AgcState& s, std::span<const std::string_view> args) {
  return parse_chapter_verb(V, s, args);
}

// ---- 11.1 rail, 11.3 strategic, 11.6 flip, 18.3 strongpoint ----
bool unit_arg(const AgcState& s, const Action& a, int n) {
  return a.nargs == n && a.args[0] >= 0 && a.args[0] < static_cast<int>(s.us_.size());
}
Result<Action> parse_unit_hex(const AgcState& s, std::span<const std::string_view> args, uint16_t verb,
                              const char* usage, const char* rule) {
  if (args.size() != 2) return Error{std::string("usage: ") + usage, rule, ""};
  const int u = s.g().unit_index(args[0]);
  if (u < 0) return Error{"no unit '" + std::string(args[0]) + "'", rule, ""};
  const int h = s.g().grid_.parse(args[1]);
  if (h < 0) return Error{"no hex '" + std::string(args[1]) + "' (RRCC)", rule, ""};
  Action a;
  a.verb = verb;
  a.push(u);
  a.push(h);
  return a;
}
Result<Action> parse_unit(const AgcState& s, std::span<const std::string_view> args, uint16_t verb,
                          const char* usage, const char* rule) {
  if (args.size() != 1) return Error{std::string("usage: ") + usage, rule, ""};
  const int u = s.g().unit_index(args[0]);
  if (u < 0) return Error{"no unit '" + std::string(args[0]) + "'", rule, ""};
  Action a;
  a.verb = verb;
  a.push(u);
  return a;
}
Result<Action> parse_rail(const AgcState& s, std::span<const std::string_view> args) {
  return parse_unit_hex(s, args, kRail, "rail UNIT HEX", "11.1");
}
std::string print_rail(const AgcState& s, const Action& a) {
  return "rail " + s.g().units_[a.args[0]].id + " " + s.g().grid_.id(a.args[1]);
}
// The rail moves listed: to the friendly rail hexes a unit can reach that hold a friendly unit or
// a city (a rail move to any other reachable hex is legal, and unlisted: unlisted_form).
bool listed_rail_hex(const AgcState& s, int side, int h) {
  return s.g().settlement_[h] >= 2 || s.occupant(h) == side;
}
void gen_rail(const AgcState& s, std::vector<Action>& out) {
  if (s.phase_ != kAxisMovement && s.phase_ != kSovietMovement && s.phase_ != kSovietMotorizedMovement)
    return;
  const int side = s.side_of_phase();
  std::vector<uint8_t> near;
  for (size_t u = 0; u < s.us_.size(); ++u) {
    const auto& d = s.g().units_[u];
    if (d.side != side || s.us_[u].hex < 0 || s.us_[u].moved || s.us_[u].railed) continue;
    if (s.g().rail_.at(s.us_[u].hex) == 0 || !s.check_rail_start(static_cast<int>(u)).is_ok()) continue;
    if (near.empty()) near = s.near_enemy_of(side, s.g().rail_enemy_distance_);
    const auto reach = s.rail_reach_with(static_cast<int>(u), near);
    for (int h = 0; h < s.g().grid_.size(); ++h) {
      if (reach[h] < 0 || !listed_rail_hex(s, side, h)) continue;
      if (s.stack_points(h, side) + d.stacking <= s.g().stacking_limit_) {
        Action a;
        a.verb = kRail;
        a.push(static_cast<int32_t>(u));
        a.push(h);
        out.push_back(a);
      }
    }
  }
}
Status check_rail(const AgcState& s, const Action& a) {
  if (!unit_arg(s, a, 2) || !s.g().grid_.valid(a.args[1])) return Error{"malformed rail", "", ""};
  return s.check_rail(a.args[0], a.args[1]);
}
void apply_rail(AgcState& s, const Action& a) { s.do_rail(a.args[0], a.args[1]); }

Result<Action> parse_strategic(const AgcState& s, std::span<const std::string_view> args) {
  return parse_unit(s, args, kStrategic, "strategic UNIT", "11.3");
}
std::string print_strategic(const AgcState& s, const Action& a) {
  return "strategic " + s.g().units_[a.args[0]].id;
}
void gen_strategic(const AgcState& s, std::vector<Action>& out) {
  if (s.phase_ != kAxisMovement && s.phase_ != kSovietMovement) return;
  for (size_t u = 0; u < s.us_.size(); ++u)
    if (s.g().units_[u].side == s.side_of_phase() && s.us_[u].hex >= 0 && !s.us_[u].moved &&
        s.check_strategic(static_cast<int>(u)).is_ok()) {
      Action a;
      a.verb = kStrategic;
      a.push(static_cast<int32_t>(u));
      out.push_back(a);
    }
}
Status check_strategic(const AgcState& s, const Action& a) {
  if (!unit_arg(s, a, 1)) return Error{"malformed strategic", "", ""};
  return s.check_strategic(a.args[0]);
}
void apply_strategic(AgcState& s, const Action& a) { s.do_strategic(a.args[0]); }

// 11.6.1, 22.9.1: the Soviet player flips a face-down counter he knows only by its hex ("flip HEX"):
// the action names the hex, and flips the first Untried UR/MG unit there in counter order (the
// counters of one hex are alike to him, and the draw that placed them was random). A hex holding
// only Untried Militia names one of them, for 22.10.2 to refuse.
int flip_candidate(const AgcState& s, int hex) {
  int militia = -1;
  for (size_t u = 0; u < s.us_.size(); ++u) {
    if (s.us_[u].hex != hex || !s.untried(static_cast<int>(u))) continue;
    if (s.g().units_[u].ur_mg) return static_cast<int>(u);
    if (militia < 0) militia = static_cast<int>(u);
  }
  return militia;
}
Result<Action> parse_flip(const AgcState& s, std::span<const std::string_view> args) {
  if (args.size() != 1) return Error{"usage: flip HEX", "11.6", ""};
  const int h = s.g().grid_.parse(args[0]);
  if (h < 0)
    return Error{"no hex '" + std::string(args[0]) + "' (RRCC): an Untried unit is named by its hex", "11.6",
                 ""};
  const int u = flip_candidate(s, h);
  if (u < 0) return Error{"no Untried unit on " + std::string(args[0]), "11.6.1", ""};
  Action a;
  a.verb = kFlip;
  a.push(u);
  return a;
}
std::string print_flip(const AgcState& s, const Action& a) {
  const int h = s.us_[a.args[0]].hex;
  return "flip " + (h >= 0 ? s.g().grid_.id(h) : std::string("?"));
}
void gen_flip(const AgcState& s, std::vector<Action>& out) {
  if (s.phase_ != kSovietMovement) return;
  for (size_t u = 0; u < s.us_.size(); ++u)
    if (s.check_flip(static_cast<int>(u)).is_ok() && flip_candidate(s, s.us_[u].hex) == static_cast<int>(u)) {
      Action a;  // one action per hex: its units are alike to the player
      a.verb = kFlip;
      a.push(static_cast<int32_t>(u));
      out.push_back(a);
    }
}
Status check_flip(const AgcState& s, const Action& a) {
  if (!unit_arg(s, a, 1)) return Error{"malformed flip", "", ""};
  return s.check_flip(a.args[0]);
}
void apply_flip(AgcState& s, const Action& a) {
  s.flipping_ = true;  // 11.6.1
  s.reveal(a.args[0], "11.6.1");
}

Result<Action> parse_strongpoint(const AgcState& s, std::span<const std::string_view> args) {
  if (args.size() != 1) return Error{"usage: strongpoint HEX", "18.3", ""};
  const int h = s.g().grid_.parse(args[0]);
  if (h < 0) return Error{"no hex '" + std::string(args[0]) + "' (RRCC)", "18.3", ""};
  Action a;
  a.verb = kStrongpoint;
  a.push(h);
  return a;
}
std::string print_strongpoint(const AgcState& s, const Action& a) {
  return "strongpoint " + s.g().grid_.id(a.args[0]);
}
// Listed: the hexes holding a friendly unit (any other legal hex is an unlisted form).
void gen_strongpoint(const AgcState& s, std::vector<Action>& out) {
  if (!s.engineering_phase() || !s.phase_has_play()) return;
  const int side = s.side_of_phase();
  std::vector<uint8_t> seen(static_cast<size_t>(s.g().grid_.size()), 0);
  for (size_t u = 0; u < s.us_.size(); ++u) {
    const int h = s.us_[u].hex;
    if (h < 0 || s.g().units_[u].side != side || seen[h] != 0) continue;
    seen[h] = 1;
    if (s.check_strongpoint(h).is_ok()) {
      Action a;
      a.verb = kStrongpoint;
      a.push(h);
      out.push_back(a);
    }
  }
}
Status check_strongpoint(const AgcState& s, const Action& a) {
  if (a.nargs != 1 || !s.g().grid_.valid(a.args[0])) return Error{"malformed strongpoint", "", ""};
  return s.check_strongpoint(a.args[0]);
}
void apply_strongpoint(AgcState& s, const Action& a) { s.do_strongpoint(a.args[0]); }

constexpr steppe::VerbRow<AgcState> kVerbs[] = {
    {kMove, "move", "move UNIT HEX", "10.0", &gen_move, &check_move, &apply_move, &print_move, &parse_move,
     nullptr},
    {kAttack, "attack", "attack HEX", "15.0", &gen_attack, &check_attack, &apply_attack, &print_attack,
     &parse_attack, nullptr},
    {kEnd, "end", "end", "4.2", &gen_end, &check_end, &apply_end, &print_end, &parse_end, nullptr},
    {kAdvance, "advance", "advance UNIT", "16.7", &gen_advance, &check_advance, &apply_advance,
     &print_advance, &parse_advance, nullptr},
    {kHold, "hold", "hold", "16.7.1", &gen_hold, &check_hold, &apply_hold, &print_hold, &parse_hold, nullptr},
    {kDeclare, "declare", "declare HEX [HEX...] by UNIT [UNIT...]", "12.0", &gen_declare, &check_declare,
     &apply_declare, &print_declare, &parse_declare, nullptr},
    {kUndeclare, "undeclare", "undeclare HEX", "12.0", &gen_undeclare, &check_undeclare, &apply_undeclare,
     &print_undeclare, &parse_undeclare, nullptr},
    {kOrder, "order", "order HEX no-retreat|additional-retreat", "14.3", &gen_order, &check_order,
     &apply_order, &print_order, &parse_order, nullptr},
    {kSupport, "support", "support UNIT HEX", "14.2", &gen_support, &check_support, &apply_support,
     &print_support, &parse_support, nullptr},
    {kFly, "fly", "fly UNIT HEX", "17.1", &gen_fly, &check_fly, &apply_fly, &print_fly, &parse_fly, nullptr},
    {kRole, "role", "role UNIT mission|firing", "17.2.2", &gen_role, &check_role, &apply_role, &print_role,
     &parse_role, nullptr},
    {kEngage, "engage", "engage UNIT TARGET", "17.2.4", &gen_engage, &check_engage, &apply_engage,
     &print_engage, &parse_engage, nullptr},
    {kConvert, "convert", "convert UNIT", "7.2c", &gen_chapter_verbs, &check_chapter_verb,
     &apply_chapter_verb, &print_chapter_verb, &parse_chapter<kConvert>, nullptr},
    {kRepair, "repair", "repair UNIT", "7.3.3", nullptr, &check_chapter_verb, &apply_chapter_verb,
     &print_chapter_verb, &parse_chapter<kRepair>, nullptr},
    {kREvent, "r-event", "r-event pool ID | r-event garrison HEX | r-event supply HEX", "7.2e.2", nullptr,
     &check_chapter_verb, &apply_chapter_verb, &print_chapter_verb, &parse_chapter<kREvent>, nullptr},
    {kPool, "pool", "pool ID", "8.3", nullptr, &check_chapter_verb, &apply_chapter_verb, &print_chapter_verb,
     &parse_chapter<kPool>, nullptr},
    {kEnter, "enter", "enter UNIT HEX", "8.4", nullptr, &check_chapter_verb, &apply_chapter_verb,
     &print_chapter_verb, &parse_chapter<kEnter>, nullptr},
    {kKeep, "keep", "keep UNIT", "8.6.3", nullptr, &check_chapter_verb, &apply_chapter_verb,
     &print_chapter_verb, &parse_chapter<kKeep>, nullptr},
    {kRecover, "recover", "recover HQ", "22.2.6", nullptr, &check_chapter_verb, &apply_chapter_verb,
     &print_chapter_verb, &parse_chapter<kRecover>, nullptr},
    {kDisband, "disband", "disband HQ", "22.2.6", nullptr, &check_chapter_verb, &apply_chapter_verb,
     &print_chapter_verb, &parse_chapter<kDisband>, nullptr},
    {kActivate, "activate", "activate UNIT", "10.2.4c", nullptr, &check_chapter_verb, &apply_chapter_verb,
     &print_chapter_verb, &parse_chapter<kActivate>, nullptr},
    {kRail, "rail", "rail UNIT HEX", "11.1", &gen_rail, &check_rail, &apply_rail, &print_rail, &parse_rail,
     nullptr},
    {kFlip, "flip", "flip HEX", "11.6", &gen_flip, &check_flip, &apply_flip, &print_flip, &parse_flip,
     nullptr},
    {kStrategic, "strategic", "strategic UNIT", "11.3", &gen_strategic, &check_strategic, &apply_strategic,
     &print_strategic, &parse_strategic, nullptr},
    {kStrongpoint, "strongpoint", "strongpoint HEX", "18.3", &gen_strongpoint, &check_strongpoint,
     &apply_strongpoint, &print_strongpoint, &parse_strongpoint, nullptr},
};
constexpr steppe::VerbTable<AgcState> kTable{kVerbs};

}  // namespace

namespace {
bool s_valid_hex(const AgcState& s, int h) { return s.g().grid_.valid(h); }
}  // namespace

void AgcState::legal_actions(std::vector<Action>& out) const {
  out.clear();
  if (over_) return;
  if (strategic_ != kNoStep) {  // 4.2 A3, A4, D: the step's choices and `end`
    gen_chapter_verbs(*this, out);
    gen_end(*this, out);
    return;
  }
  kTable.generate(*this, out);
}
Status AgcState::check(const Action& a) const {
  if (over_) return Error{"the game is over", "24.0", ""};
  if (strategic_ != kNoStep && a.verb != kEnd && !chapter_verb(a.verb))
    return Error{"the Strategic Segment (or the Interphase) is under way: its choices, then end", "4.2", ""};
  return kTable.check(*this, a);
}
void AgcState::do_apply(const Action& a) { kTable.apply(*this, a); }
bool AgcState::unlisted_form(const Action& a) const {
  // 17.1.6: an Interdiction mission "can be placed anywhere on any map"; legal_actions() lists the
  // Soviet HQs' hexes (13.2.5) and the mission hexes already chosen.
  if (a.verb == kFly) return a.nargs == 2 && s_valid_hex(*this, a.args[1]) && !listed_fly_hex(a.args[1]);
  // 11.1.2: a rail move to a hex holding no friendly unit and no city; 18.3.1: a Strongpoint on a
  // hex holding no friendly unit.
  if (a.verb == kRail && a.nargs == 2 && a.args[0] >= 0 && a.args[0] < static_cast<int>(us_.size()) &&
      s_valid_hex(*this, a.args[1]))
    return !listed_rail_hex(*this, g_->units_[a.args[0]].side, a.args[1]);
  if (a.verb == kStrongpoint && a.nargs == 1 && s_valid_hex(*this, a.args[0]))
    return occupant(a.args[0]) != side_of_phase();
  return a.verb == kDeclare && (a.nargs > 3 || (a.nargs > 0 && (a.args[0] & 0x100) != 0));
}
std::string AgcState::action_to_string(const Action& a) const { return kTable.print(*this, a); }
// 22.9.1: an Untried UR/MG unit's values "are not known" and 22.9.3 draws it "sight-unseen": its
// identity (the id names the counter, and so its strength) is known to neither player until it is
// flipped. No action may name one: it is known by its hex alone ("flip HEX"). The refusal is the
// same for an Untried unit on the map and in the cup, so a probe tells nothing of where it is.
Result<Action> AgcState::parse_action(std::string_view text) const {
  for (const auto w : kTable.split(text)) {
    const int u = g_->unit_index(w);
    if (u >= 0 && g_->units_[u].ur_mg && untried(u) && !us_[u].eliminated)
      return Error{
          "no unit is known as '" + std::string(w) +
              "': an Untried UR/MG unit shows no identity until it is flipped; name its hex (flip HEX)",
          "22.9.1", ""};
  }
  return kTable.parse(*this, text);
}

namespace {
// (3, 2) -> "1.5-1": the columns are kept doubled (data.cpp odds_of).
std::string column_name(std::pair<int, int> c) {
  auto half = [](int v) { return std::to_string(v / 2) + (v % 2 != 0 ? ".5" : ""); };
  return half(c.first) + "-" + half(c.second);
}
}  // namespace

// 17.1.8: an enemy air unit face down on its mission hex is unknown: no query tells where it is.
Status AgcState::query_allowed(int side, const std::vector<std::string>& words) const {
  // 22.9.1: an Untried unit's values are not known (ruling A-51): no query about it, nor about the
  // odds or defense of a hex holding one.
  if (words.size() >= 2 && words[0] == "unit") {
    const int u = g_->unit_index(words[1]);
    if (u >= 0 && untried(u))
      return Error{"the values of an Untried unit are not known until it is flipped", "22.9.1", ""};
  }
  if (words.size() >= 2 && (words[0] == "odds" || words[0] == "defense")) {
    const int h = g_->grid_.parse(words[1]);
    for (size_t u = 0; h >= 0 && u < us_.size(); ++u)
      if (us_[u].hex == h && untried(static_cast<int>(u)))
        return Error{"the values of an Untried unit are not known until it is flipped", "22.9.1", ""};
  }
  if (words.size() >= 2 && words[0] == "air") {
    const int u = g_->unit_index(words[1]);
    if (u >= 0 && g_->units_[u].side != side && us_[u].box == kAirMission)
      return Error{"the identity of an air unit face down on its mission hex is unknown to the enemy player",
                   "17.1.8", ""};
  }
  return Status::ok();
}

// Scenario-test words (docs/scenario-tests.md).
Status AgcState::test_set(const std::vector<std::string>& words) {
  if (Status st = Status::ok(); chapter_set(words, st)) return st;  // 7.0, 8.0, 22.x (replacements.cpp)
  if (words.size() == 3 && words[0] == "place") {
    const int u = g_->unit_index(words[1]);
    const int h = g_->grid_.parse(words[2]);
    if (u < 0 || h < 0) return Error{"place UNIT HEX: unknown unit or hex", "", ""};
    place(u, h);
    rebuild_occupancy();
    us_[u].mp_left = static_cast<int8_t>(ma_this_phase(u));
    return Status::ok();
  }
  if (words.size() == 2 && words[0] == "weather") {  // 5.1: this turn's weather, for a test
    const char* const names[kWeathers] = {"dry", "frost", "mud", "snow"};
    for (int w = 0; w < kWeathers; ++w)
      if (words[1] == names[w]) {
        weather_override_ = static_cast<int8_t>(w);
        rebuild_occupancy();
        return Status::ok();
      }
    return Error{"weather dry|frost|mud|snow", "", ""};
  }
  if (words.size() == 2 && words[0] == "phase") {
    phase_ = static_cast<Phase>(std::clamp(std::stoi(words[1]), 0, kPhaseCount - 1));
    begin_phase();
    return Status::ok();
  }
  if (words.size() == 2 && words[0] == "mandated") {  // 7.1.1e: Mandated Attacks owed (M results)
    mandated_owed_ = std::clamp(std::stoi(words[1]), 0, 99);
    return Status::ok();
  }
  if (words.size() == 1 && words[0] == "supply") {  // 6.6: run a Supply Determination Phase now
    trace_supply();
    for (size_t u = 0; u < us_.size(); ++u)
      us_[u].mp_left = static_cast<int8_t>(ma_this_phase(static_cast<int>(u)));
    return Status::ok();
  }
  if (words.size() == 3 && words[0] == "air") {  // 17.1.2: an air unit into a box of the card
    const int u = g_->unit_index(words[1]);
    const char* const names[] = {"out", "ready", "flown", "damaged", "destroyed"};
    if (u < 0 || !g_->units_[u].air) return Error{"air UNIT BOX: no air unit " + words[1], "", ""};
    for (int b = 0; b < 5; ++b)
      if (words[2] == names[b]) {
        us_[u].box = static_cast<uint8_t>(b);
        us_[u].mission = -1;
        us_[u].firing = false;
        us_[u].role_open = false;
        if (combat_phase() && air_step_ == 2) begin_air_steps();  // 17.1.7: the CAS steps reopen
        return Status::ok();
      }
    return Error{"air UNIT out|ready|flown|damaged|destroyed", "", ""};
  }
  if (words.size() == 2 && words[0] == "storm") {  // 5.1.3c, 9.2: this turn is (not) a Storm turn
    storm_override_ = words[1] == "yes" ? 1 : 0;
    return Status::ok();
  }
  if (words.size() == 1 && words[0] == "readiness") {  // 9.0: run an Air Readiness Phase now
    air_readiness();
    return Status::ok();
  }
  if (words.size() == 3 && words[0] == "interdiction") {  // 13.1.2: an Interdiction marker
    const int h = g_->grid_.parse(words[1]);
    if (h < 0) return Error{"interdiction HEX LEVEL: no hex " + words[1], "", ""};
    interdiction_[h] = static_cast<uint8_t>(std::clamp(std::stoi(words[2]), 0, 2));
    return Status::ok();
  }
  if (words.size() == 3 && words[0] == "strongpoints") {  // 18.3.3, 7.2a: Strongpoints to begin this turn
    const int side = words[1] == "axis" ? kAxis : words[1] == "soviet" ? kSoviet : kNoSide;
    if (side == kNoSide) return Error{"strongpoints axis|soviet N", "", ""};
    strongpoints_left_[side] = static_cast<int8_t>(std::clamp(std::stoi(words[2]), 0, 99));
    return Status::ok();
  }
  if (words.size() == 3 && words[0] == "strongpoint") {  // 18.3: a Strongpoint on HEX
    const int h = g_->grid_.parse(words[1]);
    const char* const kinds[] = {"none", "axis-building", "soviet-building", "axis", "soviet"};
    if (h < 0) return Error{"strongpoint HEX none|axis|soviet|axis-building|soviet-building", "", ""};
    for (int k = 0; k < 5; ++k)
      if (words[2] == kinds[k]) {
        strongpoint_[h] = static_cast<uint8_t>(k);
        return Status::ok();
      }
    return Error{"strongpoint HEX none|axis|soviet|axis-building|soviet-building", "", ""};
  }
  if (words.size() == 2 && words[0] == "overrun") {  // 11.4.4: an Overrun marker on UNIT
    const int u = g_->unit_index(words[1]);
    if (u < 0) return Error{"overrun UNIT: no unit " + words[1], "", ""};
    us_[u].overrun = true;
    return Status::ok();
  }
  if (words.size() == 2 && words[0] == "oos") {  // 6.6.4: an Out of Supply marker on UNIT
    const int u = g_->unit_index(words[1]);
    if (u < 0) return Error{"oos UNIT: no unit " + words[1], "", ""};
    us_[u].out_of_supply = true;
    us_[u].emergency = false;
    return Status::ok();
  }
  return Error{
      "set words: place UNIT HEX | phase N | weather W | supply | mandated N | air UNIT BOX | storm yes|no | "
      "readiness | interdiction HEX LEVEL | strongpoints SIDE N | strongpoint HEX KIND | overrun UNIT | oos "
      "UNIT",
      "", ""};
}

Result<std::string> AgcState::test_query(const std::vector<std::string>& words) const {
  if (std::string out, err; chapter_query(words, out, err)) {  // 7.0, 8.0, 22.x (replacements.cpp)
    if (!err.empty()) return Error{err, "", ""};
    return out;
  }
  if (words.size() == 3 && words[0] == "unit" && words[2] == "hex") {
    const int u = g_->unit_index(words[1]);
    if (u < 0) return Error{"no unit " + words[1], "", ""};
    return us_[u].hex >= 0 ? g_->grid_.id(us_[u].hex) : std::string("off-map");
  }
  if (words.size() == 3 && words[0] == "unit" && words[2] == "mp") {
    const int u = g_->unit_index(words[1]);
    if (u < 0) return Error{"no unit " + words[1], "", ""};
    // half MPs (10.7.7): "4.5"
    return std::to_string(us_[u].mp_left / 2) + (us_[u].mp_left % 2 != 0 ? ".5" : "");
  }
  if (words.size() == 2 && words[0] == "odds") {  // 15.5.7: the CRT column of an attack now
    const int h = g_->grid_.parse(words[1]);
    if (h < 0) return Error{"no hex " + words[1], "", ""};
    std::vector<int> att, def;
    int a = 0, d = 0;  // final odds: the 15.5.2 halvings, in halves
    if (declaration_of(h) >= 0) {
      combat_force(declaration_of(h), att, def, a, d);  // 15.2, 14.2: the declared attack
    } else {
      attackers_of(h, att);
      defenders_of(h, def);
      for (int u : att) a += attack_halves(u, h);
      for (int u : def) d += 2 * defense_of(u);
    }
    const int col = odds_column(a, d);
    return col < 0 ? std::string("below") : column_name(g_->crt_columns_[col]);
  }
  if (words.size() == 3 && words[0] == "unit" && words[2] == "steps") {
    const int u = g_->unit_index(words[1]);
    if (u < 0) return Error{"no unit " + words[1], "", ""};
    return std::to_string(steps_left(u));
  }
  if (words.size() == 2 && words[0] == "vp") return std::to_string(axis_vp());
  if (words.size() == 2 && words[0] == "air") {  // 17.1.2: an air unit's box, or its mission hex
    const int u = g_->unit_index(words[1]);
    if (u < 0 || !g_->units_[u].air) return Error{"no air unit " + words[1], "", ""};
    const char* const names[] = {"out", "ready", "flown", "damaged", "destroyed", "mission"};
    std::string out = names[us_[u].box];
    if (us_[u].box == kAirMission)
      out += " " + g_->grid_.id(us_[u].mission) +
             (us_[u].role_open ? " undeclared"
              : us_[u].firing  ? " firing"
                               : "");
    return out;
  }
  if (words.size() == 2 && words[0] == "interdiction") {  // 13.1.3: the Zone of Interdiction level
    const int h = g_->grid_.parse(words[1]);
    if (h < 0) return Error{"no hex " + words[1], "", ""};
    return std::to_string(interdiction_level(h));
  }
  if (words.size() == 2 && words[0] == "cas") {  // 15.1.2: the net CAS of the attack on HEX
    const int h = g_->grid_.parse(words[1]);
    if (h < 0 || declaration_of(h) < 0) return Error{"no declared attack on " + words[1], "", ""};
    return std::to_string(decl_[declaration_of(h)].cas);
  }
  if (words.size() == 2 && words[0] == "command") {  // 22.1.2, 13.2.5: an HQ's command value now
    const int u = g_->unit_index(words[1]);
    if (u < 0 || !g_->units_[u].hq) return Error{"no HQ " + words[1], "", ""};
    return std::to_string(command_value(u));
  }
  if (words.size() == 1 && words[0] == "air-step") return std::to_string(air_step_);
  if (words.size() == 2 && words[0] == "declared") {  // 12.0: the Declared Attack on HEX
    const int h = g_->grid_.parse(words[1]);
    if (h < 0) return Error{"no hex " + words[1], "", ""};
    const int i = declaration_of(h);
    if (i < 0) return std::string("no");
    std::string out = decl_[i].resolved ? "resolved" : decl_[i].mandated ? "mandated" : "yes";
    for (int u : decl_[i].units) out += " " + g_->units_[u].id;
    return out;
  }
  if (words.size() == 2 && words[0] == "order") {  // 14.3: the Orders of the attack on HEX
    const int h = g_->grid_.parse(words[1]);
    if (h < 0) return Error{"no hex " + words[1], "", ""};
    const int i = declaration_of(h);
    if (i < 0) return std::string("no attack");
    const char* const words3[] = {"none", "no-retreat", "additional-retreat"};
    return std::string(words3[order_of(i)]);
  }
  if (words.size() == 2 && words[0] == "defense") {  // 15.5, 14.2: the defense of the attack on HEX
    const int h = g_->grid_.parse(words[1]);
    if (h < 0 || declaration_of(h) < 0) return Error{"no declared attack on " + words[1], "", ""};
    std::vector<int> att, def;
    int a = 0, d = 0;
    combat_force(declaration_of(h), att, def, a, d);
    return std::to_string(d / 2) + (d % 2 != 0 ? ".5" : "");
  }
  if (words.size() == 1 && words[0] == "phase") return std::to_string(phase_);
  if (words.size() == 1 && words[0] == "turn") return std::to_string(turn_);  // 4.2: the Game Turn
  if (words.size() == 2 && words[0] == "strongpoint") {                       // 18.3: the Strongpoint in HEX
    const int h = g_->grid_.parse(words[1]);
    if (h < 0) return Error{"no hex " + words[1], "", ""};
    const int v = strongpoint_[h];
    if (v == 0) return std::string("none");
    return std::string(v % 2 == 1 ? "axis" : "soviet") + (v >= 3 ? " completed" : " under-construction");
  }
  if (words.size() == 2 && words[0] == "rail-capacity") {  // 11.1.3: left this game-turn
    const int side = words[1] == "axis" ? kAxis : words[1] == "soviet" ? kSoviet : kNoSide;
    if (side == kNoSide) return Error{"rail-capacity axis|soviet", "", ""};
    return std::to_string(rail_capacity_left(side));
  }
  if (words.size() == 3 && words[0] == "unit" && words[2] == "untried") {  // 22.9.1
    const int u = g_->unit_index(words[1]);
    if (u < 0) return Error{"no unit " + words[1], "", ""};
    return std::string(untried(u) ? "yes" : "no");
  }
  if (words.size() == 3 && words[0] == "unit" && words[2] == "overrun") {  // 11.4.4
    const int u = g_->unit_index(words[1]);
    if (u < 0) return Error{"no unit " + words[1], "", ""};
    return std::string(us_[u].overrun ? "yes" : "no");
  }
  if (words.size() == 2 && words[0] == "surrender-drm") {  // 21.1.2
    const int h = g_->grid_.parse(words[1]);
    if (h < 0) return Error{"no hex " + words[1], "", ""};
    return std::to_string(surrender_drm(h));
  }
  if (words.size() == 2 && words[0] == "surrender-due") {  // 21.1.1
    const int h = g_->grid_.parse(words[1]);
    if (h < 0) return Error{"no hex " + words[1], "", ""};
    return std::string(surrender_due(h) ? "yes" : "no");
  }
  if (words.size() == 1 && words[0] == "mandated") return std::to_string(mandated_owed_);  // 7.1.1e
  if (words.size() == 3 && words[0] == "distance") {  // hexes between two hexes (ruling A-11)
    const int a = g_->grid_.parse(words[1]), b = g_->grid_.parse(words[2]);
    if (a < 0 || b < 0) return Error{"distance HEX HEX", "", ""};
    return std::to_string(g_->grid_.distance(a, b));
  }
  if (words.size() == 2 && words[0] == "terrain") {  // 10.7: the hex's terrain and settlement
    const int h = g_->grid_.parse(words[1]);
    if (h < 0) return Error{"no hex " + words[1], "", ""};
    return g_->terrain_names_[g_->terrain_[h]] + " " + std::to_string(g_->settlement_[h]);
  }
  if (words.size() == 3 && words[0] == "column") {  // 15.5.7: the CRT column of A to D
    const int col = odds_column(std::stoi(words[1]), std::stoi(words[2]));
    return col < 0 ? std::string("below") : column_name(g_->crt_columns_[col]);
  }
  if (words.size() == 2 && words[0] == "drm") {  // 15.6, 15.7: the final DRM of an attack on HEX now
    const int h = g_->grid_.parse(words[1]);
    if (h < 0) return Error{"no hex " + words[1], "", ""};
    std::vector<int> att;
    attackers_of(h, att);
    return std::to_string(combat_drm(h, att));
  }
  if (words.size() == 3 && words[0] == "zoc") {  // 3.0f: does SIDE exert a ZOC into HEX
    const int side = words[1] == "axis" ? kAxis : words[1] == "soviet" ? kSoviet : kNoSide;
    const int h = g_->grid_.parse(words[2]);
    if (side == kNoSide || h < 0) return Error{"zoc axis|soviet HEX", "", ""};
    return std::string(zoc_[side][h] != 0 ? "yes" : "no");
  }
  if (words.size() == 3 && words[0] == "unit" && words[2] == "status") {
    const int u = g_->unit_index(words[1]);
    if (u < 0) return Error{"no unit " + words[1], "", ""};
    return std::string(us_[u].eliminated ? "eliminated" : us_[u].hex < 0 ? "off-map" : "on-map");
  }
  if (words.size() == 3 && words[0] == "unit" && words[2] == "supply") {  // 6.6.1: its supply state
    const int u = g_->unit_index(words[1]);
    if (u < 0) return Error{"no unit " + words[1], "", ""};
    return std::string(us_[u].out_of_supply ? "out" : us_[u].emergency ? "emergency" : "general");
  }
  if (words.size() == 3 && words[0] == "supply") {  // 6.1: could a unit of SIDE in HEX trace a route now
    const int side = words[1] == "axis" ? kAxis : words[1] == "soviet" ? kSoviet : kNoSide;
    const int h = g_->grid_.parse(words[2]);
    if (side == kNoSide || h < 0) return Error{"supply axis|soviet HEX", "", ""};
    std::vector<uint8_t> map;
    supply_map(side, map);
    return std::string(map[h] != 0 ? "yes" : "no");
  }
  return Error{
      "queries: unit UNIT hex|mp|steps|status|supply | odds HEX | zoc SIDE HEX | supply SIDE HEX | vp", "",
      ""};
}

}  // namespace agc
