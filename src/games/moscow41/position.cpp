// Moscow '41: the position format (kernel/position.h, docs/saves.md "Positions").
//
// Everything that happened is written by name: blocks by roster id, areas and boxes by map
// id, phases, weather and sides by their words. What the scenario fixes (first and last
// turn, the Initiative limit, the victory conditions, the Road) is not written: it comes
// from the installed scenario data, so a game continued under corrected data plays on
// under the correction. Hidden information is included (a position is a full-information
// document, like a save).
#include "kernel/position.h"

#include <algorithm>
#include <array>
#include <string>

#include "games/moscow41/state.h"
#include "games/moscow41/state_names.h"

namespace moscow41 {

using steppe::JsonReader;
using steppe::Result;
using steppe::Status;

namespace {

constexpr int kPositionVersion = 1;

// Where a block is when it is off the map (state.h kLoc*), by name.
constexpr std::array<std::pair<int, const char*>, 9> kLocNames = {{
    {kLocPool, "pool"},
    {kLocOobN, "waiting-november"},
    {kLocOobK, "waiting-kiev"},
    {kLocDestroyed, "destroyed"},
    {kLocSurrendered, "surrendered"},
    {kLocUnplaced, "unplaced"},
    {kLocDrawn, "drawn"},
    {kLocRemoved, "removed"},
    {kLocSetup, "setup"},
}};
constexpr const char* kImpulseNames[] = {"none", "pass", "tactical", "strategic", "strategic-reinforce"};
constexpr const char* kSetupRuleNames[] = {"adjacent-one-each", "adjacent", "hq-or-adjacent", "zone", "dl"};
constexpr int kPhaseCount = static_cast<int>(Phase::kSetup) + 1;

std::string side_word(int side) {
  return side == kGerman ? "german" : side == kSoviet ? "soviet" : side == 2 ? "draw" : "none";
}

// Index of `word` in `names`, or a recorded error naming the choices.
int read_side(const JsonReader& r, bool allow_none, bool allow_draw = false) {
  const std::string w = r.as_str();
  if (w == "german") return kGerman;
  if (w == "soviet") return kSoviet;
  if (allow_none && w == "none") return kNoSide;
  if (allow_draw && w == "draw") return 2;
  if (r.json().is_string())
    r.fail_value(std::string("expected german or soviet") + (allow_none ? " or none" : "") +
                 (allow_draw ? " or draw" : ""));
  return allow_none ? kNoSide : kGerman;
}

}  // namespace

Result<Json> Moscow41State::position() const {
  const auto node_id = [&](int n) -> Json { return n >= 0 ? Json(g_.map().id(n)) : Json(nullptr); };
  const auto block_id = [&](int b) -> Json { return b >= 0 ? Json(def(b).id) : Json(nullptr); };
  Json j;
  j["version"] = kPositionVersion;
  j["scenario"] = scenario_;
  Json opts = Json::array();
  for (int k = 0; k < kOptCount; ++k)
    if (options_[k]) opts.push_back(kOptions[k].name);
  j["options"] = opts;
  j["turn"] = turn_;
  j["phase"] = phase_name(phase_);
  j["impulse"] = kImpulseNames[static_cast<int>(impulse_)];
  j["active"] = side_word(active_);
  j["initiative"] = side_word(initiative_);
  j["initiative_uses"] = {{"german", initiative_uses_[kGerman]}, {"soviet", initiative_uses_[kSoviet]}};
  j["initiative_spent_this_turn"] = {{"german", initiative_spent_this_turn_[kGerman]},
                                     {"soviet", initiative_spent_this_turn_[kSoviet]}};
  j["passes_in_row"] = passes_in_row_;
  j["logistics_done"] = logistics_done_;
  j["weather"] = kWeather[weather_];
  j["blizzard"] = blizzard_;
  j["forecast"] = forecast_;
  j["german_impulses"] = german_impulses_;
  j["german_holds"] = {{"kiev", kiev_german_}, {"shlisselburg", shl_german_}, {"leningrad", len_german_}};
  j["stalin_dead"] = stalin_dead_;
  j["panzer_gruppe_called_off"] = called_off_;  // OR 14.2
  j["zhukov_recalled"] = zhukov_recalled_;      // OR 14.2
  j["soviet_blocks_surrendered"] = surrendered_soviet_;
  j["german_blocks_destroyed"] = destroyed_german_;
  j["actions_left"] = actions_left_;
  j["exploiting"] = exploiting_;
  j["hoepner_road"] = hoepner_road_;
  j["winner"] = side_word(winner_);
  j["result"] = result_kind_;
  j["points"] = {{"regeneration", regen_left_}, {"replacement", repl_left_}, {"draws", draws_left_}};
  steppe::write_dice(j["dice"], dice_);
  Json bl = Json::object();
  for (size_t b = 0; b < blocks_.size(); ++b) {
    const BlockState& s = blocks_[b];
    Json x;
    if (s.loc >= 0) {
      x["at"] = g_.map().id(s.loc);
    } else {
      for (const auto& [loc, name] : kLocNames)
        if (loc == s.loc) x["at"] = name;
    }
    x["level"] = s.level;
    x["revealed"] = s.revealed;
    x["face_up"] = s.face_up;
    x["isolated"] = s.isolated;
    x["activated"] = s.activated;
    x["acted"] = s.acted;
    x["river"] = s.river;
    x["blitz"] = s.blitz;
    x["blitzed"] = s.blitzed;
    bl[def(static_cast<int>(b)).id] = std::move(x);
  }
  j["blocks"] = std::move(bl);
  Json ar = Json::object();
  for (size_t n = 0; n < areas_.size(); ++n) {
    const AreaState& a = areas_[n];
    ar[g_.map().id(static_cast<int>(n))] = {{"control", side_word(a.control)},
                                            {"defensive_line", side_word(a.dl)},
                                            {"contested_at_start", a.contested_at_start},
                                            {"fought", a.fought},
                                            {"artillery", block_id(a.artillery)}};
  }
  j["areas"] = std::move(ar);
  Json bombers = Json::object();
  for (int i = 0; i < g_.bomber_count(); ++i) {
    const auto k = static_cast<size_t>(i);
    bombers[g_.bomber_id(i)] = {{"status", kBomberStatus[bomber_status_[k]]},
                                {"area", node_id(bomber_area_[k])},
                                {"struck", node_id(bomber_struck_[k])}};
  }
  j["bombers"] = std::move(bombers);
  Json bm = Json::array();
  for (const auto& [from, to] : blitz_moves_) bm.push_back({node_id(from), node_id(to)});
  j["blitz_moves"] = std::move(bm);
  if (battle_.node >= 0) {
    Json att = Json::array();
    for (int b : battle_.attackers) att.push_back(block_id(b));
    j["battle"] = {{"area", node_id(battle_.node)},
                   {"step", battle_.step},
                   {"absorb", battle_.absorb},
                   {"tank_attack", battle_.tank_attack},
                   {"blitz", battle_.blitz},
                   {"attackers", att},
                   {"loss_side", side_word(battle_.loss_side)},
                   {"loss_hits", battle_.loss_hits},
                   {"aa_hits", battle_.aa_hits}};
  } else {
    j["battle"] = nullptr;
  }
  Json su = Json::array();
  for (const SetupPiece& p : setup_) {
    Json ex = Json::array();
    for (int n : p.exclude) ex.push_back(node_id(n));
    su.push_back({{"side", side_word(p.side)},
                  {"block", block_id(p.block)},
                  {"rule", kSetupRuleNames[static_cast<int>(p.rule)]},
                  {"hq", block_id(p.hq)},
                  {"front", p.front},
                  {"exclude", ex},
                  {"level", p.level},
                  {"face_up", p.face_up}});
  }
  j["setup"] = std::move(su);
  return j;
}

Status Moscow41State::read_position(const JsonReader& r) {
  const int nodes = node_count();
  const auto find_node = [&](std::string_view id) { return g_.node(id); };
  const auto find_block = [&](std::string_view id) { return g_.block_index(id); };
  const auto read_node = [&](const JsonReader& x, bool nullable) {
    return steppe::read_id(x, find_node, "area or box of the map", nullable);
  };
  const auto read_block = [&](const JsonReader& x, bool nullable) {
    return steppe::read_id(x, find_block, "block of the roster", nullable);
  };
  const int version = r.int_in("version", kPositionVersion, kPositionVersion);
  (void)version;
  turn_ = r.int_in("turn", 1, 99);
  const std::string ph = r.str("phase");
  int phase = -1;
  for (int p = 0; p < kPhaseCount; ++p)
    if (ph == phase_name(static_cast<Phase>(p))) phase = p;
  if (phase < 0 && r.at("phase").json().is_string()) r.at("phase").fail_value("not a phase of the game");
  phase_ = static_cast<Phase>(std::max(phase, 0));
  impulse_ = static_cast<ImpulseKind>(r.at("impulse").as_word(kImpulseNames));
  active_ = read_side(r.at("active"), false);
  initiative_ = read_side(r.at("initiative"), false);
  for (int s : {kGerman, kSoviet}) {
    initiative_uses_[s] = r.at("initiative_uses").int_in(side_word(s), 0, 99);
    initiative_spent_this_turn_[s] = r.at("initiative_spent_this_turn").boolean(side_word(s));
  }
  passes_in_row_ = r.int_in("passes_in_row", 0, 99);
  logistics_done_ = r.int_in("logistics_done", 0, 2);
  weather_ = r.at("weather").as_word(kWeather);
  blizzard_ = r.boolean("blizzard");
  forecast_ = r.int_in("forecast", -99, 99);
  german_impulses_ = r.int_in("german_impulses", 0, 999);
  kiev_german_ = r.at("german_holds").boolean("kiev");
  shl_german_ = r.at("german_holds").boolean("shlisselburg");
  len_german_ = r.at("german_holds").boolean("leningrad");
  stalin_dead_ = r.boolean("stalin_dead");
  called_off_ = r.boolean("panzer_gruppe_called_off");
  zhukov_recalled_ = r.boolean("zhukov_recalled");
  surrendered_soviet_ = r.int_in("soviet_blocks_surrendered", 0, 999);
  destroyed_german_ = r.int_in("german_blocks_destroyed", 0, 999);
  actions_left_ = r.int_in("actions_left", -99, 99);
  exploiting_ = r.boolean("exploiting");
  hoepner_road_ = r.int_in("hoepner_road", -1, static_cast<int>(g_.road().size()) - 1);
  winner_ = read_side(r.at("winner"), true, true);
  result_kind_ = r.str("result");
  regen_left_ = r.at("points").int_in("regeneration", 0, 99);
  repl_left_ = r.at("points").int_in("replacement", 0, 99);
  draws_left_ = r.at("points").int_in("draws", 0, 999);
  steppe::read_dice(r.at("dice"), dice_);

  // Every block of the roster is written; one missing or unknown is an error, not a default.
  const JsonReader bl = r.at("blocks");
  steppe::check_ids(bl, find_block, "block of the roster");
  for (size_t b = 0; b < blocks_.size(); ++b) {
    const BlockDef& d = def(static_cast<int>(b));
    const JsonReader x = bl.at(d.id);
    if (x.is_null()) continue;
    BlockState& s = blocks_[b];
    const JsonReader at = x.at("at");
    s.loc = kLocUnplaced;
    bool found = false;
    for (const auto& [loc, name] : kLocNames)
      if (at.json().is_string() && at.json().get<std::string>() == name) {
        s.loc = loc;
        found = true;
      }
    if (!found) s.loc = read_node(at, false);
    s.level = x.int_in("level", 0, d.min_level());
    s.revealed = x.boolean("revealed");
    s.face_up = x.boolean("face_up");
    s.isolated = x.boolean("isolated");
    s.activated = x.boolean("activated");
    s.acted = x.boolean("acted");
    s.river = x.boolean("river");
    s.blitz = x.boolean("blitz");
    s.blitzed = x.boolean("blitzed");
  }
  const JsonReader ar = r.at("areas");
  steppe::check_ids(ar, find_node, "area or box of the map");
  for (int n = 0; n < nodes && n < static_cast<int>(areas_.size()); ++n) {
    const JsonReader x = ar.at(g_.map().id(n));
    if (x.is_null()) continue;
    AreaState& a = areas_[static_cast<size_t>(n)];
    a.control = read_side(x.at("control"), true);
    a.dl = read_side(x.at("defensive_line"), true);
    a.contested_at_start = x.boolean("contested_at_start");
    a.fought = x.boolean("fought");
    a.artillery = read_block(x.at("artillery"), true);
  }
  const JsonReader bo = r.at("bombers");
  for (int i = 0; i < g_.bomber_count(); ++i) {
    const JsonReader x = bo.at(g_.bomber_id(i));
    if (x.is_null()) continue;
    const auto k = static_cast<size_t>(i);
    bomber_status_[k] = x.at("status").as_word(kBomberStatus);
    bomber_area_[k] = read_node(x.at("area"), true);
    bomber_struck_[k] = read_node(x.at("struck"), true);
  }
  blitz_moves_.clear();
  for (const JsonReader& m : r.at("blitz_moves").elements()) {
    if (m.size() != 2) {
      m.fail_value("a Blitz move is [from, to]");
      continue;
    }
    blitz_moves_.emplace_back(read_node(m.at(size_t{0}), false), read_node(m.at(size_t{1}), false));
  }
  battle_ = Battle{};
  if (const auto b = r.opt("battle")) {
    battle_.node = read_node(b->at("area"), false);
    battle_.step = b->int_in("step", 0, 5);
    battle_.absorb = b->int_in("absorb", 0, 99);
    battle_.tank_attack = b->boolean("tank_attack");
    battle_.blitz = b->boolean("blitz");
    for (const JsonReader& x : b->at("attackers").elements())
      battle_.attackers.push_back(read_block(x, false));
    battle_.loss_side = read_side(b->at("loss_side"), true);
    battle_.loss_hits = b->int_in("loss_hits", 0, 999);
    battle_.aa_hits = b->int_in("aa_hits", 0, 999);
  }
  setup_.clear();
  for (const JsonReader& x : r.at("setup").elements()) {
    SetupPiece p;
    p.side = read_side(x.at("side"), false);
    p.block = read_block(x.at("block"), true);
    p.rule = static_cast<SetupRule>(x.at("rule").as_word(kSetupRuleNames));
    p.hq = read_block(x.at("hq"), true);
    p.front = x.boolean("front");
    for (const JsonReader& e : x.at("exclude").elements()) p.exclude.push_back(read_node(e, false));
    p.level = x.int_in("level", 0, 9);
    p.face_up = x.boolean("face_up");
    setup_.push_back(std::move(p));
  }
  return r.status();
}

Result<std::unique_ptr<steppe::State>> Moscow41Game::state_from_position(const Json& position) const {
  return steppe::new_state_from_position<Moscow41State>(*this, position);
}

}  // namespace moscow41
