// The position: set-up from data/dv/scenarios (3.1, 17.x), the result, hashing, what each
// side sees. The game is open (digest 8: "There is essentially none" hidden): both sides
// see the whole position, the cup's contents (which the availability chart and the Chit Pull
// Track tell anyway) but never its future order, which no object holds (kernel/draw_cup.h).
#include <algorithm>

#include "games/dv/dv.h"
#include "kernel/json_data.h"

namespace dv {

using steppe::Error;
using steppe::Result;
using steppe::Status;

Result<std::unique_ptr<steppe::State>> DvGame::new_state(const std::string& scenario_and_options,
                                                         uint64_t seed) const {
  const auto [scenario, options] = steppe::split_scenario_options(scenario_and_options);
  if (!options.empty())
    return Error{"The Dark Valley has no optional rules yet (3.2 variable VP is not implemented)", "3.2", ""};
  auto st = std::make_unique<DvState>(*this);
  st->dice().reseed(seed);
  if (Status s = st->setup(scenario); !s.is_ok()) return s.error();
  return std::unique_ptr<steppe::State>(std::move(st));
}

Status DvState::setup(const std::string& scenario) {
  scenario_ = scenario;
  const steppe::HexGrid& gr = g_.grid();
  units_.assign(g_.units().size(), UnitState{});
  air_.assign(g_.air_units().size(), AirSlot{});  // 8.x
  air_supply_used_.assign(g_.air_units().size(), 0);
  control_.assign(static_cast<size_t>(gr.size()), kNeutral);
  fz_gone_.assign(static_cast<size_t>(gr.size()), 0);
  fort_gone_.assign(static_cast<size_t>(gr.size()), 0);
  for (int h = 0; h < gr.size(); ++h) control_[static_cast<size_t>(h)] = g_.hex(h).start_control;
  cup_ = steppe::DrawCup(steppe::splitmix64(dice_.seed() ^ 0xC0FFEEULL));
  if (scenario == "empty") {
    first_turn_ = 1;
    last_turn_ = 44;
    turn_ = 1;
    for (auto& u : units_) u.box = Box::kRemoved;
    stage_ = Stage::kMove;
    active_ = kAxis;
    chit_ = kChitMove;
    segments_ = {kSegMove};
    seg_ = 0;
    return Status::ok();
  }
  const Scenario* sc = g_.scenario(scenario);
  if (sc == nullptr) return Error{"unknown scenario '" + scenario + "'", "17.0", ""};
  const Json& d = sc->doc;
  first_turn_ = d.value("first_turn", 1);
  last_turn_ = sc->end_turn;
  turn_ = first_turn_;
  // 3.1/17.x: the set-up; every other counter enters on its turn (7.1) or not at all.
  for (size_t i = 0; i < units_.size(); ++i) {
    const UnitDef& def = g_.units()[i];
    units_[i].box = def.entry_turn > first_turn_ ? Box::kPending : Box::kRemoved;
  }
  for (const auto& e : d["setup"]) {
    const int u = g_.unit_index(e.value("unit", ""));
    UnitState& s = us(u);
    s.steps = static_cast<uint8_t>(g_.unit(u).steps);
    if (e.contains("hex")) {
      s.box = Box::kMap;
      s.hex = gr.parse(e.value("hex", ""));
      if (g_.unit(u).ground) set_control(s.hex, g_.unit(u).side);
    } else {
      const std::string b = e.value("box", "");
      s.box = b == "stavka-reserve" ? Box::kStavkaReserve
              : b == "other-fronts" ? Box::kOtherFronts
              : b == "eliminated"   ? Box::kEliminated
              : b == "air-assets"   ? Box::kAirAssets
                                    : Box::kAvailable;
    }
  }
  for (const char* side : {"axis", "soviet"})
    if (d.contains("control_changes") && d["control_changes"].contains(side))
      for (const auto& id : d["control_changes"][side]) {
        const int h = gr.parse(id.get<std::string>());
        if (h >= 0)
          control_[static_cast<size_t>(h)] =
              static_cast<int8_t>(std::string_view(side) == "axis" ? kAxis : kSoviet);
      }
  // 3.2: the "Axis 41" level of a scenario starting after December 1941 is its start VP (DV-S1).
  if (first_turn_ > 7) axis41_ = vp();
  air_setup();  // 8.2, DV-A2
  start_turn();
  return Status::ok();
}

int DvState::current_player() const {
  if (stage_ == Stage::kOver) return steppe::kTerminalPlayer;
  // 12.3c, 12.5: the owner of the units chooses their losses and retreats.
  if ((stage_ == Stage::kLoss || stage_ == Stage::kRetreat) && !pending_.empty())
    return pending_.front().side;
  if (stage_ == Stage::kAirDefend) return 1 - active_;  // 8.4 the defender places his air
  return active_;
}

std::vector<double> DvState::returns() const {
  if (winner_ == kAxis) return {1.0, -1.0};
  if (winner_ == kSoviet) return {-1.0, 1.0};
  return {0.0, 0.0};
}

Json DvState::result() const {
  Json r{{"turn", turn_}, {"vp", vp()}, {"scenario", scenario_}};
  if (stage_ == Stage::kOver) {
    r["winner"] = winner_ == kAxis ? "axis" : winner_ == kSoviet ? "soviet" : "draw";
    r["reason"] = why_;
  }
  if (axis41_ >= 0) r["axis41"] = axis41_;
  r["axis42"] = axis42_;
  return r;
}

void DvState::log(const std::string& kind, const std::string& text, const std::string& rule) const {
  if (event_sink() == nullptr) return;
  steppe::Event e;
  e.kind = kind;
  e.text = text + (rule.empty() ? "" : " (" + rule + ")");
  e.rule = rule;
  emit(std::move(e));
}

namespace {
const char* stage_name(Stage s) {
  switch (s) {
    case Stage::kPlace:
      return "place";
    case Stage::kReplace:
      return "replace";
    case Stage::kInitiative:
      return "initiative";
    case Stage::kMode:
      return "mode";
    case Stage::kMove:
      return "move";
    case Stage::kCombat:
      return "combat";
    case Stage::kAdvance:
      return "advance";
    case Stage::kLoss:
      return "loss";
    case Stage::kRetreat:
      return "retreat";
    case Stage::kHeld:
      return "held";
    case Stage::kRail:
      return "rail";
    case Stage::kNaval:
      return "naval";
    case Stage::kOver:
      return "over";
    case Stage::kAirBase:
      return "air-base";
    case Stage::kAirDefend:
      return "air-defend";
    case Stage::kAirSupply:
      return "air-supply";
    case Stage::kStavkaPlace:
      return "stavka-place";
    case Stage::kMandate:
      return "mandate";
  }
  return "?";
}
const char* box_name(Box b) {
  switch (b) {
    case Box::kMap:
      return "map";
    case Box::kPending:
      return "pending";
    case Box::kEliminated:
      return "eliminated";
    case Box::kRemoved:
      return "removed";
    case Box::kStavkaReserve:
      return "stavka-reserve";
    case Box::kOtherFronts:
      return "other-fronts";
    case Box::kAirAssets:
      return "air-assets";
    case Box::kAvailable:
      return "available";
  }
  return "?";
}
}  // namespace

Json DvState::observation(int side) const {
  (void)side;  // open information (digest 8)
  const steppe::HexGrid& gr = g_.grid();
  const TurnDef& td = g_.turn(turn_);
  Json o{{"turn", turn_},
         {"date", td.date},
         {"weather", std::array<const char*, 4>{"fair", "mixed", "mud", "snow"}[td.weather]},
         {"initiative", td.initiative == kAxis ? "axis" : "soviet"},
         {"stage", stage_name(stage_)},
         {"active", active_ == kAxis ? "axis" : "soviet"},
         {"chit", chit_ >= 0 ? std::string(kChitNames[static_cast<size_t>(chit_)]) : ""},
         {"vp", vp()},
         {"rf", rf_}};
  Json pool = Json::object();
  for (size_t k = 0; k < axis_pool_.size() && k < g_.axis_kinds().size(); ++k)
    if (axis_pool_[k] > 0) pool[g_.axis_kinds()[k].first] = axis_pool_[k];
  o["axis_replacements"] = pool;
  // A chit in the cup is kind * 2 + owner (sequence.cpp); Logistics is neutral (DV-T4).
  auto chit_name = [](int c) {
    const int kind = c / 2;
    const std::string name(kChitNames[static_cast<size_t>(kind)]);
    return kind == kChitLogistics ? name : (c % 2 == kAxis ? "axis " : "soviet ") + name;
  };
  Json cup = Json::array();
  for (int c : cup_.contents()) cup.push_back(chit_name(c));
  o["cup"] = cup;  // what is in the cup, never its order (there is none until a draw)
  Json pulled = Json::array();
  for (int c : pulled_) pulled.push_back(chit_name(c));
  o["pulled"] = pulled;  // the Chit Pull Track (10.2)
  if (picked_ >= 0) o["picked"] = g_.unit(picked_).label;
  if (target_ >= 0) {
    o["target"] = gr.id(target_);
    Json a = Json::array();
    for (int u : attackers_) a.push_back(g_.unit(u).label);
    o["attackers"] = a;
  }
  Json units = Json::array();
  for (size_t i = 0; i < units_.size(); ++i) {
    const UnitState& s = units_[i];
    if (s.box == Box::kRemoved || s.box == Box::kPending) continue;
    Json u{{"unit", g_.units()[i].label}, {"box", box_name(s.box)}, {"steps", s.steps}};
    if (s.box == Box::kMap) u["hex"] = gr.id(s.hex);
    if (s.supply != 0) u["supply"] = s.supply == 1 ? "OOS" : "IS";
    if (s.moved) u["moved"] = true;
    if (s.attacked) u["attacked"] = true;
    units.push_back(std::move(u));
  }
  o["units"] = units;
  // 8.x the air units in play, their bases and sides (open information: 8.4's support is placed
  // face up, the attacker's first, ruling DV-A7).
  Json air = Json::array();
  for (int u : g_.air_units()) {
    if (!air_in_play(u) && air_slot(u).back < 0) continue;
    if (us(u).box != Box::kAirAssets) continue;
    const AirSlot& a = air_slot(u);
    Json x{{"unit", g_.unit(u).label}, {"done", a.done}};
    if (a.base >= 0) x["base"] = gr.id(a.base);
    if (a.back >= 0 && a.back > turn_) x["eliminated_until"] = a.back;
    air.push_back(std::move(x));
  }
  o["air"] = air;
  if (!air_att_.empty() || !air_def_.empty()) {
    Json c = {{"attack", Json::array()}, {"defence", Json::array()}};
    for (int u : air_att_) c["attack"].push_back(g_.unit(u).label);
    for (int u : air_def_) c["defence"].push_back(g_.unit(u).label);
    o["air_support"] = c;
  }
  if (!air_supplied_.empty()) {
    Json a = Json::array();
    for (int u : air_supplied_) a.push_back(g_.unit(u).label);
    o["air_supplied"] = a;  // 8.6.1 Air Supply markers
  }
  Json axis_vp = Json::array();
  for (int h : g_.vp_hexes())
    if (control(h) == kAxis) axis_vp.push_back(gr.id(h));
  o["axis_vp_hexes"] = axis_vp;
  return o;
}

Json DvState::full_json() const {
  Json j = observation(kAxis);
  j["scenario"] = scenario_;
  j["seg"] = seg_;
  j["segments"] = segments_;
  j["mech_only"] = mech_only_combat_;
  j["initiative_left"] = initiative_left_;
  j["preset"] = preset_;
  j["used_move"] = used_move_;
  j["used_combat"] = used_combat_;
  j["advancers"] = advancers_;
  j["phase1"] = phase1_;
  j["rebuilt"] = rebuilt_;
  j["rail_left"] = rail_left_;
  j["naval_left"] = naval_left_;
  j["axis41"] = axis41_;
  j["axis42"] = axis42_;
  j["winner"] = winner_;
  j["dice"] = {dice_.seed(), dice_.counter()};
  j["cup_rng"] = {cup_.seed(), cup_.counter()};
  Json ctl = Json::array();
  for (size_t h = 0; h < control_.size(); ++h)
    if (control_[h] != g_.hex(static_cast<int>(h)).start_control)
      ctl.push_back({g_.grid().id(static_cast<int>(h)), control_[h]});
  j["control"] = ctl;
  Json flags = Json::array();
  for (size_t i = 0; i < units_.size(); ++i) {
    const UnitState& s = units_[i];
    flags.push_back({static_cast<int>(s.box), s.hex, s.steps, s.supply, s.moved, s.attacked, s.defended,
                     s.forced, s.started_adjacent, s.return_turn, s.left, s.act, s.strategic});
  }
  j["unit_state"] = flags;
  Json pend = Json::array();
  for (const PendingResult& p : pending_)
    pend.push_back({p.retreat, p.side, p.attacker, p.steps, p.taken, p.from, p.rule, p.units});
  j["pending"] = pend;
  j["fall_blau_turn"] = fall_blau_turn_;
  j["manstein"] = {manstein_hex_, manstein_back_, manstein_year_, manstein_uses_, held_passed_};
  j["stavka"] = {stavka_passed_, stavka_played_, stavka_steps_, stavka_new_, stavka_hq_new_};
  j["mandates"] = {mandates_, mandates_made_, purges_left_};
  j["fz_gone"] = fz_gone_;
  j["fort_gone"] = fort_gone_;
  return j;
}

uint64_t DvState::state_hash() const {
  uint64_t h = 1469598103934665603ULL;
  auto mix = [&h](uint64_t v) { h = (h ^ v) * 1099511628211ULL; };
  mix(static_cast<uint64_t>(turn_));
  mix(static_cast<uint64_t>(stage_));
  mix(static_cast<uint64_t>(active_) + 7);
  mix(static_cast<uint64_t>(chit_) + 7);
  mix(seg_);
  for (auto s : segments_) mix(s);
  mix(mech_only_combat_ ? 1 : 0);
  mix(static_cast<uint64_t>(initiative_left_));
  for (int c : preset_) mix(static_cast<uint64_t>(c));
  for (int s = 0; s < 2; ++s)
    mix(used_move_[static_cast<size_t>(s)] * 3u + used_combat_[static_cast<size_t>(s)]);
  for (int c : cup_.contents()) mix(static_cast<uint64_t>(c));
  mix(cup_.seed());
  mix(cup_.counter());
  for (int c : pulled_) mix(static_cast<uint64_t>(c) + 100);
  mix(static_cast<uint64_t>(picked_) + 1);
  mix(static_cast<uint64_t>(target_) + 1);
  for (int u : attackers_) mix(static_cast<uint64_t>(u));
  for (int u : advancers_) mix(static_cast<uint64_t>(u) + 1000);
  for (const UnitState& s : units_) {
    mix(static_cast<uint64_t>(s.hex + 1) << 8 | static_cast<uint64_t>(s.box));
    mix(static_cast<uint64_t>(s.steps) | static_cast<uint64_t>(s.supply) << 4 | uint64_t{s.moved} << 8 |
        uint64_t{s.attacked} << 9 | uint64_t{s.defended} << 10 | uint64_t{s.forced} << 11 |
        uint64_t{s.started_adjacent} << 12 | uint64_t{s.left} << 13 | uint64_t{s.act} << 14 |
        uint64_t{s.strategic} << 15 | static_cast<uint64_t>(s.return_turn + 1) << 16);
  }
  for (size_t i = 0; i < control_.size(); ++i)
    if (control_[i] != g_.hex(static_cast<int>(i)).start_control)
      mix(i << 2 | static_cast<uint64_t>(control_[i] + 1));
  for (size_t i = 0; i < fz_gone_.size(); ++i)
    if (fz_gone_[i] != 0 || fort_gone_[i] != 0)
      mix(i << 2 | fz_gone_[i] | static_cast<uint64_t>(fort_gone_[i]) << 1);
  for (const PendingResult& p : pending_) {
    mix(uint64_t{p.retreat} | uint64_t{p.attacker} << 1 | static_cast<uint64_t>(p.side) << 2 |
        static_cast<uint64_t>(p.steps) << 4 | static_cast<uint64_t>(p.taken) << 12 |
        static_cast<uint64_t>(p.from + 1) << 20);
    for (char c : p.rule) mix(static_cast<uint64_t>(c));
    for (int u : p.units) mix(static_cast<uint64_t>(u) + 5000);
  }
  mix(static_cast<uint64_t>(manstein_hex_ + 1) | static_cast<uint64_t>(manstein_back_) << 16 |
      static_cast<uint64_t>(manstein_year_) << 32 | static_cast<uint64_t>(manstein_uses_) << 48 |
      uint64_t{held_passed_} << 56);
  mix(static_cast<uint64_t>(fall_blau_turn_) + 313);
  // 10.5.9 the Stavka chit, 10.5.6.1/10.5.6.2 Stalin's mandates
  mix(uint64_t{stavka_passed_} | uint64_t{stavka_played_} << 1 | static_cast<uint64_t>(stavka_steps_) << 2 |
      static_cast<uint64_t>(mandates_) << 12 | static_cast<uint64_t>(mandates_made_) << 20 |
      static_cast<uint64_t>(purges_left_) << 28);
  for (int u : stavka_new_) mix(static_cast<uint64_t>(u) + 21000);
  for (int u : stavka_hq_new_) mix(static_cast<uint64_t>(u) + 23000);
  mix(static_cast<uint64_t>(phase1_));
  for (int p : axis_pool_) mix(static_cast<uint64_t>(p) + 77);
  mix(static_cast<uint64_t>(rf_) + 991);
  mix(static_cast<uint64_t>(rail_left_) + 4441);
  mix(static_cast<uint64_t>(naval_left_[0]) << 8 | static_cast<uint64_t>(naval_left_[1]));
  for (auto r : rebuilt_) mix(r + 55u);
  mix(static_cast<uint64_t>(axis41_) + 1);
  mix(axis42_ ? 1 : 0);
  mix(static_cast<uint64_t>(winner_) + 2);
  for (const AirSlot& a : air_)  // 8.x
    mix(static_cast<uint64_t>(a.base + 1) | uint64_t{a.done} << 20 | static_cast<uint64_t>(a.back + 1) << 24);
  for (int u : air_att_) mix(static_cast<uint64_t>(u) + 7000);
  for (int u : air_def_) mix(static_cast<uint64_t>(u) + 9000);
  for (int x : bombarded_) mix(static_cast<uint64_t>(x) + 11000);
  for (int u : air_supplied_) mix(static_cast<uint64_t>(u) + 13000);
  for (int n : air_supply_used_) mix(static_cast<uint64_t>(n) + 17);
  mix(static_cast<uint64_t>(air_phase_) | static_cast<uint64_t>(air_supply_kind_) << 4 |
      static_cast<uint64_t>(air_supply_left_) << 8);
  mix(dice_.seed());
  mix(dice_.counter());
  return h;
}

void DvState::resample_hidden(int viewer, uint64_t seed) {
  (void)viewer;
  // Neither future rolls nor future draws are known to anyone (kernel/draw_cup.h).
  dice_.reseed(seed);
  cup_.reseed(steppe::splitmix64(seed ^ 0xC0FFEEULL));
}

}  // namespace dv
