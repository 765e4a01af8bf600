// The state (2.0, 3.0e stacking, 3.0f zones of control), the sequence of play (4.2),
// victory (24.0) and the verb table.
#include <algorithm>
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
  tracer_ = std::make_shared<steppe::SupplyTracer>();
  if (sc != nullptr) {
    turn_ = sc->first_turn;
    for (const auto& [u, h] : sc->setup) us_[u].hex = static_cast<int16_t>(h);  // 4.1
  }
  begin_turn();
}

int AgcState::weather() const {
  if (weather_override_ >= 0) return weather_override_;
  if (sc_ == nullptr) return 0;
  const int i = turn_ - sc_->first_turn;
  return i >= 0 && i < static_cast<int>(sc_->weather.size()) ? sc_->weather[i] : 0;
}

int AgcState::side_of_phase() const { return phase_ < kSovietMotorizedMovement ? kAxis : kSoviet; }
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
  int vp = 0;
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
  }
  Json ctrl = Json::object();
  for (size_t h = 0; h < control_.size(); ++h)
    if (control_[h] != g_->control0_[h]) ctrl[g_->grid_.id(static_cast<int>(h))] = control_[h];
  return Json{{"turn", turn_},   {"phase", phase_}, {"over", over_},          {"units", units},
              {"control", ctrl}, {"vp", axis_vp()}, {"dice", dice_.counter()}};
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
        (static_cast<uint64_t>(s.may_advance) << 32));
  }
  mix(static_cast<uint64_t>(advance_hex_) + 1);  // -1 (none) mixes as 0
  for (size_t i = 0; i < control_.size(); ++i) mix(static_cast<uint8_t>(control_[i]) + i * 4);
  for (size_t i = 0; i < attacked_hex_.size(); ++i)
    if (attacked_hex_[i] != 0) mix(i);
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
  if (s.phase_ != kAxisCombat && s.phase_ != kSovietCombat) return;
  const int enemy = 1 - s.side_of_phase();
  for (int h = 0; h < s.g().grid_.size(); ++h)
    if (s.stack_[enemy][h] != 0 && s.check_attack(h).is_ok()) {
      Action a;
      a.verb = kAttack;
      a.push(h);
      out.push_back(a);
    }
}
Status check_attack(const AgcState& s, const Action& a) {
  if (a.nargs != 1 || !s.g().grid_.valid(a.args[0])) return Error{"malformed attack", "", ""};
  return s.check_attack(a.args[0]);
}
void apply_attack(AgcState& s, const Action& a) { s.do_attack(a.args[0]); }

void gen_end(const AgcState&, std::vector<Action>& out) {
  Action a;
  a.verb = kEnd;
  out.push_back(a);
}
Status check_end(const AgcState&, const Action& a) {
  if (a.nargs != 0) return Error{"malformed end", "", ""};
  return Status::ok();
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

constexpr steppe::VerbRow<AgcState> kVerbs[] = {
    {kMove, "move", "move UNIT HEX", "10.0", &gen_move, &check_move, &apply_move, &print_move, &parse_move,
     nullptr},
    {kAttack, "attack", "attack HEX", "15.0", &gen_attack, &check_attack, &apply_attack, &print_attack,
     &parse_attack, nullptr},
    {kEnd, "end", "end", "4.2", &gen_end, &check_end, &apply_end, &print_end, &parse_end, nullptr},
    {kAdvance, "advance", "advance UNIT", "16.7", &gen_advance, &check_advance, &apply_advance,
     &print_advance, &parse_advance, nullptr},
    {kHold, "hold", "hold", "16.7.1", &gen_hold, &check_hold, &apply_hold, &print_hold, &parse_hold, nullptr},
};
constexpr steppe::VerbTable<AgcState> kTable{kVerbs};

}  // namespace

void AgcState::legal_actions(std::vector<Action>& out) const {
  out.clear();
  if (over_) return;
  kTable.generate(*this, out);
}
Status AgcState::check(const Action& a) const {
  if (over_) return Error{"the game is over", "24.0", ""};
  return kTable.check(*this, a);
}
void AgcState::do_apply(const Action& a) { kTable.apply(*this, a); }
std::string AgcState::action_to_string(const Action& a) const { return kTable.print(*this, a); }
Result<Action> AgcState::parse_action(std::string_view text) const { return kTable.parse(*this, text); }

namespace {
// (3, 2) -> "1.5-1": the columns are kept doubled (data.cpp odds_of).
std::string column_name(std::pair<int, int> c) {
  auto half = [](int v) { return std::to_string(v / 2) + (v % 2 != 0 ? ".5" : ""); };
  return half(c.first) + "-" + half(c.second);
}
}  // namespace

// Scenario-test words (docs/scenario-tests.md).
Status AgcState::test_set(const std::vector<std::string>& words) {
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
  if (words.size() == 1 && words[0] == "supply") {  // 6.6: run a Supply Determination Phase now
    trace_supply();
    for (size_t u = 0; u < us_.size(); ++u)
      us_[u].mp_left = static_cast<int8_t>(ma_this_phase(static_cast<int>(u)));
    return Status::ok();
  }
  return Error{"set words: place UNIT HEX | phase N | weather W | supply", "", ""};
}

Result<std::string> AgcState::test_query(const std::vector<std::string>& words) const {
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
    attackers_of(h, att);
    defenders_of(h, def);
    int a = 0, d = 0;  // final odds: the 15.5.2 halvings, in halves
    for (int u : att) a += attack_halves(u, h);
    for (int u : def) d += 2 * defense_of(u);
    const int col = odds_column(a, d);
    return col < 0 ? std::string("below") : column_name(g_->crt_columns_[col]);
  }
  if (words.size() == 3 && words[0] == "unit" && words[2] == "steps") {
    const int u = g_->unit_index(words[1]);
    if (u < 0) return Error{"no unit " + words[1], "", ""};
    return std::to_string(steps_left(u));
  }
  if (words.size() == 2 && words[0] == "vp") return std::to_string(axis_vp());
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
