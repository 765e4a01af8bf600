// Moscow '41 rules: set-up, sequence of play, impulses, movement, command, combat, supply.
// Every rule cites its rulebook section (seeds/002).
#include "games/moscow41/state.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <queue>
#include <sstream>

#include "kernel/json_data.h"
#include "kernel/notation.h"

namespace moscow41 {

using steppe::Action;
using steppe::Error;
using steppe::Result;
using steppe::rule_error;
using steppe::Status;

const char* side_name(int s) { return s == kGerman ? "german" : s == kSoviet ? "soviet" : "none"; }

namespace {

// Phase names, by Phase (observation "phase", test query "phase").
const char* phase_name(Phase p) {
  static const char* const kNames[] = {"logistics", "impulse", "activation", "command", "combat", "over",
                                       "blitz",     "exploit", "replace",    "deploy",  "setup"};
  return kNames[static_cast<int>(p)];
}
int parse_side(const std::string& s) { return s == "german" ? kGerman : s == "soviet" ? kSoviet : kNoSide; }
const char* kMonths[] = {"July", "August", "September", "October", "November", "December"};
const char* kWeather[] = {"sunny", "rain", "snow"};
constexpr int kNovember = 5, kDecember = 6;  // turns 5 and 6 (1.4)
const char* kBomberStatus[] = {"ready", "committed", "aborted", "destroyed", "removed"};

const OptionInfo kOptions[kOptCount] = {
    {"ignore-army-colour", "14.1", "Ignore army colour"},
    {"zhukov-hoepner", "14.2", "Zhukov and Hoepner"},
    {"moscow-supply", "14.3", "Moscow as a Soviet supply source"},
    {"rail-movement", "14.4", "Rail movement"},
    {"blizzard", "14.5", "Blizzard"},
    {"cavalry-mobility", "14.6", "Cavalry enhanced mobility"},
    {"infantry-divisions", "14.7", "German infantry divisions"},
    {"operation-crusader", "14.8", "Operation Crusader"},
};

}  // namespace

const OptionInfo& option_info(int o) { return kOptions[o]; }

int option_by_name(const std::string& name) {
  for (int o = 0; o < kOptCount; ++o)
    if (name == kOptions[o].name) return o;
  return -1;
}

std::string option_list() {
  std::string s;
  for (int o = 0; o < kOptCount; ++o)
    s += std::string(o ? ", " : "") + kOptions[o].name + " (" + kOptions[o].rule + ")";
  return s;
}

Status Moscow41State::set_option(const std::string& name, bool on) {
  // 14.0: the optional rules are agreed before play.
  const int o = option_by_name(name);
  if (o < 0) return Error{"unknown option '" + name + "' (options: " + option_list() + ")", "14.0", ""};
  options_[o] = on;
  if (o == kOptBlizzard && !on) blizzard_ = false;
  return Status::ok();
}

Moscow41State::Moscow41State(const Moscow41Game& g) : g_(g) {
  blocks_.assign(g.blocks().size(), BlockState{});
  areas_.assign(static_cast<size_t>(g.map().node_count()), AreaState{});
  for (int n = 0; n < g.map().area_count(); ++n)
    if (ad(n).terrain == kStaging) as(n).control = kGerman;
  as(g.box_rastenburg()).control = kGerman;
  bomber_status_.assign(static_cast<size_t>(g.bomber_count()), kBomberReady);
  bomber_area_.assign(static_cast<size_t>(g.bomber_count()), -1);
  bomber_struck_.assign(static_cast<size_t>(g.bomber_count()), -1);
}

void Moscow41State::log(const std::string& kind, const std::string& text, const std::string& rule,
                        bool reveals) {
  if (event_sink() == nullptr) return;
  steppe::Event e;
  e.kind = kind;
  e.text = text;
  e.rule = rule;
  e.reveals = reveals;
  emit(std::move(e));
}

void Moscow41State::log_hidden(int owner, const std::string& kind, const std::string& owner_text,
                               const std::string& public_text, const std::string& rule) {
  // 1.5: the owner reads the block's name; the other side only what it can see.
  if (event_sink() == nullptr) return;
  steppe::Event e;
  e.kind = kind;
  e.text = owner_text;
  e.rule = rule;
  e.visible_to = 1u << owner;
  emit(e);
  e.text = public_text;
  e.visible_to = 1u << (1 - owner);
  emit(std::move(e));
}

// ----------------------------------------------------------------------------------------
// Basic queries
int Moscow41State::strength(int b) const {
  const BlockState& s = block(b);
  return def(b).levels[static_cast<size_t>(s.level)];
}

bool Moscow41State::has_units(int side, int node) const {
  if (node < 0) return false;
  if (areas_[static_cast<size_t>(node)].dl == side) return true;
  // 4.2.4: a Leader counts for stacking only. Stalin takes no hits (docs/rulings.md), so
  // were he a unit for 2.5, Moscow could never fall and Scenarios 2-3 could not be won.
  for (size_t b = 0; b < blocks_.size(); ++b)
    if (blocks_[b].loc == node && g_.blocks()[b].side == side && g_.blocks()[b].kind != Kind::kLeader)
      return true;
  return false;
}

int Moscow41State::blocks_in(int side, int node) const {
  int n = 0;
  for (size_t b = 0; b < blocks_.size(); ++b)
    if (blocks_[b].loc == node && g_.blocks()[b].side == side) ++n;
  return n;
}

std::vector<int> Moscow41State::pieces(int side, int node) const {
  std::vector<int> v;
  for (size_t b = 0; b < blocks_.size(); ++b)
    if (blocks_[b].loc == node && g_.blocks()[b].side == side) v.push_back(static_cast<int>(b));
  return v;
}

bool Moscow41State::contested(int node) const { return has_units(kGerman, node) && has_units(kSoviet, node); }

bool Moscow41State::on_frontline(int side, int node) const {
  for (int y : g_.adjacency()[static_cast<size_t>(node)])
    if (area(y).control != side && ad(y).terrain != kStaging) return true;
  return false;
}

Moscow41State::Presence Moscow41State::presence() const {
  Presence p;
  const auto nodes = static_cast<size_t>(node_count());
  p.blocks[0].assign(nodes, 0);
  p.blocks[1].assign(nodes, 0);
  p.leaders[0].assign(nodes, 0);
  p.leaders[1].assign(nodes, 0);
  p.dl.assign(nodes, kNoSide);
  for (size_t n = 0; n < nodes && n < areas_.size(); ++n) p.dl[n] = areas_[n].dl;
  for (size_t b = 0; b < blocks_.size(); ++b) {
    const int loc = blocks_[b].loc;
    if (loc < 0 || static_cast<size_t>(loc) >= nodes) continue;
    ++p.blocks[g_.blocks()[b].side][static_cast<size_t>(loc)];
    if (g_.blocks()[b].kind == Kind::kLeader) ++p.leaders[g_.blocks()[b].side][static_cast<size_t>(loc)];
  }
  return p;
}

bool Moscow41State::stack_ok(int side, int node, int extra, const Presence* pr) const {
  // 2.7: per player 4 blocks in Green, 2 in Yellow/Victory; Staging unlimited (Germans).
  if (!is_area(node)) return false;
  const int limit = g_.tables().stack[static_cast<size_t>(ad(node).terrain)];
  const int there = pr != nullptr ? pr->blocks[side][static_cast<size_t>(node)] : blocks_in(side, node);
  return there + extra <= limit;
}

int Moscow41State::victory_points(int side) const {
  // 1.7: 5 Victory Areas + the Kiev and Leningrad boxes.
  int vp = 0;
  for (int n = 0; n < g_.map().area_count(); ++n)
    if (ad(n).terrain == kVictory && area(n).control == side) ++vp;
  const bool kiev = side == kGerman ? kiev_german_ : !kiev_german_;
  const bool len = side == kGerman ? len_german_ : !len_german_;
  return vp + (kiev ? 1 : 0) + (len ? 1 : 0);
}

int Moscow41State::logistics_value(int side) const {
  // 7.2.1: Leader + non-exhausted HQs deployed (LW HQs and Hoepner on the Road count) +
  // VP controlled + 1 per 10 enemy losses; 7.2.1.1 weather halving.
  int lv = 0;
  for (size_t b = 0; b < blocks_.size(); ++b) {
    const BlockDef& d = g_.blocks()[b];
    if (d.side != side) continue;
    const BlockState& s = blocks_[b];
    if (d.kind == Kind::kLeader && s.loc >= 0) lv += strength(static_cast<int>(b));
    if (d.is_hq() && s.loc >= 0 && s.loc != g_.box_rastenburg() && strength(static_cast<int>(b)) > 0) ++lv;
  }
  lv += victory_points(side);
  lv += (side == kGerman ? surrendered_soviet_ : destroyed_german_) / g_.tables().losses_per_point;
  const bool both = area(g_.moscow()).control == side && (side == kGerman ? len_german_ : !len_german_);
  if (weather_ == kRain || (weather_ == kSnow && !both)) lv /= 2;
  return lv;
}

// ----------------------------------------------------------------------------------------
// Supply (9.0-9.2)
bool Moscow41State::in_supply_area(int side, int node) const {
  if (node < 0) return false;
  if (!is_area(node)) return true;  // 2.2, 10.9.1: boxes are always in supply
  const int n = node_count();
  auto passable = [&](int x) {
    if (!is_area(x) || area(x).control != side || contested(x)) return false;
    if (side == kSoviet && ad(x).terrain == kStaging) return false;  // 2.4.4
    return true;
  };
  auto source = [&](int x) {
    const AreaDef& a = ad(x);
    if (side == kGerman) return a.src_german;
    // OR 14.3: a Soviet-controlled, uncontested Moscow (passable() checked both) is a source.
    if (options_[kOptMoscowSupply] && x == g_.moscow()) return true;
    return a.src_east || (a.src_kiev && !kiev_german_) || (a.src_shl && !shl_german_ && !len_german_) ||
           (a.src_len && !len_german_);
  };
  std::vector<uint8_t> seen(static_cast<size_t>(n), 0);
  std::vector<int> todo;
  // A LOC may start in a contested area but neither cross nor end in one (9.2).
  if (passable(node)) {
    todo.push_back(node);
    seen[static_cast<size_t>(node)] = 1;
  } else if (contested(node)) {
    for (int y : g_.adjacency()[static_cast<size_t>(node)])
      if (passable(y) && !seen[static_cast<size_t>(y)]) {
        seen[static_cast<size_t>(y)] = 1;
        todo.push_back(y);
      }
  }
  while (!todo.empty()) {
    const int x = todo.back();
    todo.pop_back();
    if (source(x)) return true;
    for (int y : g_.adjacency()[static_cast<size_t>(x)])
      if (!seen[static_cast<size_t>(y)] && passable(y)) {
        seen[static_cast<size_t>(y)] = 1;
        todo.push_back(y);
      }
  }
  return false;
}

void Moscow41State::supply_check(int side) {
  // 9.1: at the start of each own impulse, units without a LOC are Isolated.
  for (size_t b = 0; b < blocks_.size(); ++b) {
    if (g_.blocks()[b].side != side || blocks_[b].loc < 0) continue;
    const bool iso = !in_supply_area(side, blocks_[b].loc);
    blocks_[b].isolated = iso;
    if (iso)
      log_hidden(
          side, "supply", g_.blocks()[b].id + " is isolated",
          std::string("a ") + side_name(side) + " block in " + g_.map().id(blocks_[b].loc) + " is isolated",
          "9.1");
  }
}

void Moscow41State::isolation_check(int side) {
  // 9.3: isolated units still cut off lose a step; at minimum they surrender. A DL is
  // destroyed only if alone (no friendly block) in a contested area: judged before the
  // blocks' attrition (9.3 example, Area 30: the infantry surrenders, the DL stays).
  std::vector<int> doomed_dls;
  for (int n = 0; n < g_.map().area_count(); ++n)
    if (area(n).dl == side && contested(n) && blocks_in(side, n) == 0 && !in_supply_area(side, n))
      doomed_dls.push_back(n);
  for (size_t i = 0; i < blocks_.size(); ++i) {
    const int b = static_cast<int>(i);
    if (def(b).side != side || !block(b).isolated || block(b).loc < 0) continue;
    if (in_supply_area(side, block(b).loc)) {
      bs(b).isolated = false;
      continue;
    }
    // 9.3 reduces "Blocks", and Leaders are Blocks (4.0): Stalin in a cut-off Moscow loses
    // a step each impulse and surrenders at the Heart (Hitler, in his always-supplied box,
    // "cannot be eliminated", 4.2.4).
    log_hidden(side, "attrition", def(b).id + " suffers isolation attrition",
               std::string("a ") + side_name(side) + " block in " + g_.map().id(block(b).loc) +
                   " suffers isolation attrition",
               "9.3");
    reduce(b, true);
  }
  for (int n : doomed_dls) {
    as(n).dl = kNoSide;
    log("attrition", std::string("isolated ") + side_name(side) + " DL in " + g_.map().id(n) + " destroyed",
        "9.3");
    settle_control(n);  // 2.5
  }
}

void Moscow41State::reduce(int b, bool surrender) {
  // 4.2.3.1: one step per hit; a hit at minimum destroys (10.14.3) or surrenders (9.3).
  BlockState& s = bs(b);
  const BlockDef& d = def(b);
  if (s.level < d.min_level()) {
    ++s.level;
    return;
  }
  if (d.id == "Hitler") return;  // 4.2.4: Hitler cannot be eliminated
  const int was = s.loc;
  s.revealed = s.activated = s.isolated = s.face_up = false;
  if (d.side == kGerman) {
    // Hoepner destroyed (10.17): nobody advances on the Road any more (docs/rulings.md).
    if (d.id == "HQ4Pg" && s.loc >= 0 && !is_area(s.loc)) hoepner_road_ = -1;
    s.loc = kLocDestroyed;
    ++destroyed_german_;
    log("eliminate", d.id + " is destroyed for good", surrender ? "9.3" : "10.14.3");
  } else if (surrender) {
    s.loc = kLocSurrendered;
    ++surrendered_soviet_;
    log("eliminate", d.id + " surrenders", "9.3");
    if (d.kind == Kind::kLeader && !stalin_dead_) {  // 4.2.4 (docs/rulings.md, "Stalin")
      stalin_dead_ = true;
      log("leader", "Stalin has surrendered: no more Soviet Logistics Phases", "4.2.4, 9.3");
    }
  } else {
    s.loc = kLocPool;
    s.level = 0;
    log("eliminate", d.id + " is destroyed and returns to the pool", "10.14.3");
  }
  settle_control(was);  // 2.5: its side's last unit there may be gone
}

// ----------------------------------------------------------------------------------------
// Movement (2.6, 10.8) and command (10.2-10.6)
int Moscow41State::mp_allowance(int b) const {
  // OR 14.7: the six German Infantry Divisions stay Slow but have 4 MP.
  if (options_[kOptInfantryDivisions] && def(b).infantry_division && !def(b).fast)
    return g_.tables().infantry_division_mp;
  return def(b).fast ? g_.tables().fast_mp : g_.tables().slow_mp;  // 4.2.1
}

std::vector<int> Moscow41State::rail_destinations(int b) const {
  // OR 14.4: any distance from, across and to friendly uncontested areas (so no engaging
  // and no disengaging); within stacking at the end.
  std::vector<int> out;
  const int side = def(b).side, start = block(b).loc;
  auto friendly = [&](int n) { return is_area(n) && area(n).control == side && !contested(n); };
  if (!friendly(start)) return out;
  std::vector<uint8_t> seen(static_cast<size_t>(node_count()), 0);
  std::vector<int> todo{start};
  seen[static_cast<size_t>(start)] = 1;
  while (!todo.empty()) {
    const int x = todo.back();
    todo.pop_back();
    if (x != start && stack_ok(side, x, 1)) out.push_back(x);
    for (int y : g_.adjacency()[static_cast<size_t>(x)])
      if (!seen[static_cast<size_t>(y)] && friendly(y)) {
        seen[static_cast<size_t>(y)] = 1;
        todo.push_back(y);
      }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Status Moscow41State::check_rail(int b, int dest) const {
  // OR 14.4: in a Pass (the Pass's one block) or a Strategic Impulse (one of its LV actions),
  // a non-Isolated block on a friendly, uncontested area.
  if (!options_[kOptRail])
    return rule_error("14.4", "Rail Movement is optional rule 14.4 (play SCENARIO+rail-movement)");
  if (phase_ != Phase::kCommand || (impulse_ != ImpulseKind::kPass && impulse_ != ImpulseKind::kStrategic))
    return rule_error("14.4", "Rail Moves are made only in a Pass or a Strategic Impulse");
  if (b < 0 || def(b).side != active_) return rule_error("14.4", "not one of your blocks");
  const BlockDef& d = def(b);
  if (d.kind == Kind::kLeader) return rule_error("4.2.1", "Leaders never move");
  if (block(b).acted) return rule_error("10.7", "each block performs one action");
  if (block(b).isolated) return rule_error("14.4", "an Isolated block cannot Rail-move");
  if (impulse_ == ImpulseKind::kStrategic && actions_left_ <= 0)
    return rule_error("11.0", "no more than LV blocks act in a Strategic Impulse");
  const int at = block(b).loc;
  if (!is_area(at)) return rule_error("14.4", d.id + " is not on a map area");
  if (contested(at)) return rule_error("14.4", "a Rail Move cannot disengage");
  if (area(at).control != d.side) return rule_error("14.4", "a Rail Move starts in a friendly area");
  if (!is_area(dest)) return rule_error("14.4", "a Rail Move ends in a map area");
  const auto dests = rail_destinations(b);
  if (std::binary_search(dests.begin(), dests.end(), dest)) return Status::ok();
  if (dest != at && (area(dest).control == d.side && !contested(dest)) && !stack_ok(d.side, dest, 1))
    return rule_error("2.7", "stacking limit in " + g_.map().id(dest) + " exceeded at the end of the move");
  return rule_error("14.4", d.id + " cannot Rail-move to " + g_.map().id(dest) +
                                " (only from, across and to friendly uncontested areas)");
}

bool Moscow41State::hoepner_full_hq() const {
  // Scenarios 2-3 special rule, and OR 14.2: Hoepner gives Artillery Fire and Blitz (on the map).
  return hoepner_on_map_rule_ || options_[kOptZhukovHoepner];
}

bool Moscow41State::zhukov_in_leningrad() const {
  const int z = g_.block_index("Zhukov");
  return options_[kOptZhukovHoepner] && z >= 0 && block(z).loc == g_.road().back();
}

Status Moscow41State::check_recall(int b, int dest) const {
  // OR 14.2, in a Pass (its one block) or a Strategic Impulse (one of its LV actions):
  // "Hitler calls off Leningrad operations": a 4th Panzer Gruppe block on the Road goes to a
  // German-controlled, uncontested, supplied area, once all four have been deployed on the
  // Road; "Stalin sends Zhukov to defend Leningrad": Zhukov leaves the Leningrad box for a
  // Soviet-controlled, uncontested, supplied area adjacent to Moscow.
  if (!options_[kOptZhukovHoepner])
    return rule_error("14.2", "Zhukov and Hoepner is optional rule 14.2 (play SCENARIO+zhukov-hoepner)");
  if (phase_ != Phase::kCommand || (impulse_ != ImpulseKind::kPass && impulse_ != ImpulseKind::kStrategic))
    return rule_error("14.2",
                      "blocks leave the Road or the Leningrad box only in a Pass or a Strategic Impulse");
  if (b < 0 || def(b).side != active_) return rule_error("14.2", "not one of your blocks");
  const BlockDef& d = def(b);
  if (block(b).acted) return rule_error("10.7", "each block performs one action");
  if (impulse_ == ImpulseKind::kStrategic && actions_left_ <= 0)
    return rule_error("11.0", "no more than LV blocks act in a Strategic Impulse");
  if (dest < 0 || !is_area(dest)) return rule_error("14.2", "the block goes to an area on the map");
  const int at = block(b).loc;
  const bool on_road = std::find(g_.road().begin(), g_.road().end(), at) != g_.road().end();
  if (d.side == kGerman) {
    if (d.letter != 'L' || !on_road)
      return rule_error("14.2",
                        "only 4th Panzer Gruppe blocks on the Road to Leningrad are deployed on the map");
    for (size_t i = 0; i < blocks_.size(); ++i)
      if (g_.blocks()[i].letter == 'L' &&
          (blocks_[i].loc == kLocPool || blocks_[i].loc == kLocDrawn || blocks_[i].loc == kLocUnplaced))
        return rule_error("14.2",
                          "all four 4th Panzer Gruppe blocks must first have been deployed on the Road");
  } else {
    if (d.id != "Zhukov" || at != g_.road().back())
      return rule_error("14.2", "only Zhukov, from the Leningrad box, is recalled");
    const auto& adj = g_.adjacency()[static_cast<size_t>(g_.moscow())];
    if (!std::binary_search(adj.begin(), adj.end(), dest))
      return rule_error("14.2", "Zhukov is recalled to an area adjacent to Moscow");
  }
  if (area(dest).control != d.side || contested(dest) || !in_supply_area(d.side, dest))
    return rule_error("14.2", g_.map().id(dest) + " is not a friendly, uncontested, supplied area");
  if (!stack_ok(d.side, dest, 1))
    return rule_error("2.7", "stacking limit in " + g_.map().id(dest) + " exceeded at the end of the move");
  return Status::ok();
}

int Moscow41State::enter_cost(int b, int node) const {
  if (weather_ == kRain && options_[kOptCavalry] && def(b).cavalry_mobility)
    return g_.tables().mp_rain_cavalry;  // OR 14.6: the cavalry pays 2 MP instead of 3
  return area_enter_cost(node);
}

int Moscow41State::area_enter_cost(int node) const {
  if (weather_ == kRain) return g_.tables().mp_rain;  // 8.0
  if (weather_ == kSnow) return g_.tables().mp_snow;
  return g_.tables().mp[static_cast<size_t>(ad(node).terrain)];  // 2.6
}

int Moscow41State::absorb(int node, int defender) const {
  // 10.13 absorb: Yellow +1; controlled city +1 or Victory +2; controlled DL +1; max 3.
  const AreaDef& a = ad(node);
  int total = 0;
  if (a.terrain == kYellow) total += g_.tables().absorb[kYellow];
  if (area(node).control == defender) {
    if (a.terrain == kVictory)
      total += g_.tables().absorb[kVictory];
    else if (a.city)
      total += g_.tables().absorb_city;
    if (area(node).dl == defender) total += g_.tables().absorb_dl;
  }
  return std::min(total, g_.tables().absorb_max);
}

Status Moscow41State::check_path(int b, const int32_t* path, int len, bool allow_engage, bool hq_act) const {
  const BlockDef& d = def(b);
  const int side = d.side, enemy = 1 - side;
  int at = block(b).loc;
  if (!is_area(at)) return rule_error("2.2", d.id + " is not on a map area and cannot move there");
  if (d.kind == Kind::kLeader) return rule_error("4.2.1", "Leaders never move");
  if (len <= 0) return rule_error("10.8", "a move needs at least one area");
  int mp = mp_allowance(b);
  const bool start_contested = contested(at);
  for (int i = 0; i < len; ++i) {
    const int nx = path[i];
    if (!is_area(nx)) return rule_error("2.6", "no movement into boxes or unknown areas");
    const auto& adj = g_.adjacency()[static_cast<size_t>(at)];
    if (!std::binary_search(adj.begin(), adj.end(), nx))
      return rule_error("10.8", g_.map().id(at) + " and " + g_.map().id(nx) + " are not adjacent");
    if (side == kSoviet && ad(nx).terrain == kStaging)
      return rule_error("2.4.4", "German Staging Areas are forbidden to the Soviets");
    int cost = enter_cost(b, nx);
    if (i == 0 && start_contested) {
      // 10.8: disengaging costs +1 MP and must enter a friendly uncontested area.
      cost += g_.tables().disengage;
      if (area(nx).control != side || contested(nx))
        return rule_error("10.8", "a disengaging block must first enter a friendly, uncontested area");
    }
    mp -= cost;
    if (mp < 0) return rule_error("10.8", d.id + " lacks the MP for this move");
    if (has_units(enemy, nx)) {
      if (i != len - 1) return rule_error("10.8", "a block entering an area with enemy units must stop");
      if (!allow_engage) return rule_error(hq_act ? "10.1" : "12.0", "no engaging in this move");
    }
    at = nx;
  }
  const int last = path[len - 1];
  if (last != block(b).loc && !stack_ok(side, last, 1))
    return rule_error("2.7", "stacking limit in " + g_.map().id(last) + " exceeded at the end of the move");
  return Status::ok();
}

std::vector<std::vector<int>> Moscow41State::reachable(int b, bool allow_engage, bool hq_act) const {
  // Cheapest path to every area the block may end in (Dijkstra on MP).
  std::vector<std::vector<int>> out;
  const BlockDef& d = def(b);
  const int start = block(b).loc;
  if (!is_area(start) || d.kind == Kind::kLeader) return out;
  const int side = d.side, enemy = 1 - side, n = node_count();
  std::vector<int> best(static_cast<size_t>(n), 1 << 20), prev(static_cast<size_t>(n), -1);
  using Item = std::pair<int, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
  best[static_cast<size_t>(start)] = 0;
  pq.push({0, start});
  const Presence pr = presence();
  const bool disengage = pr.contested(start);
  const int mp = mp_allowance(b);
  while (!pq.empty()) {
    auto [c, x] = pq.top();
    pq.pop();
    if (c != best[static_cast<size_t>(x)]) continue;
    if (x != start && pr.units(enemy, x)) continue;  // engaged: stop here
    for (int y : g_.adjacency()[static_cast<size_t>(x)]) {
      if (y == start) continue;
      if (side == kSoviet && ad(y).terrain == kStaging) continue;
      int cost = enter_cost(b, y);
      if (x == start && disengage) {
        cost += g_.tables().disengage;
        if (area(y).control != side || pr.contested(y)) continue;
      }
      if (pr.units(enemy, y) && !allow_engage) continue;
      const int nc = c + cost;
      if (nc > mp || nc >= best[static_cast<size_t>(y)]) continue;
      best[static_cast<size_t>(y)] = nc;
      prev[static_cast<size_t>(y)] = x;
      pq.push({nc, y});
    }
  }
  for (int y = 0; y < n; ++y) {
    if (y == start || prev[static_cast<size_t>(y)] < 0) continue;
    if (!stack_ok(side, y, 1, &pr)) continue;
    if (hq_act && pr.units(enemy, y)) continue;
    std::vector<int> path;
    for (int z = y; z != start; z = prev[static_cast<size_t>(z)]) path.push_back(z);
    std::reverse(path.begin(), path.end());
    out.push_back(std::move(path));
  }
  return out;
}

std::vector<int> Moscow41State::path_to(int b, int dest, bool allow_engage, bool hq_act) const {
  for (auto& p : reachable(b, allow_engage, hq_act))
    if (p.back() == dest) return p;
  return {};
}

Status Moscow41State::check_move(int b, int dest, bool allow_engage, bool hq_act) const {
  // The move follows the cheapest route (ties: lowest area index first); docs/rulings.md.
  if (dest < 0 || dest >= node_count()) return rule_error("", "unknown destination");
  if (!path_to(b, dest, allow_engage, hq_act).empty()) return Status::ok();
  // Say why, for a move to an adjacent area; otherwise the general reason.
  const int32_t one[1] = {dest};
  Status s = check_path(b, one, 1, allow_engage, hq_act);
  if (!s.is_ok()) return s;
  if (hq_act && has_units(1 - def(b).side, dest))
    return rule_error("10.1", "an HQ cannot be revealed in an area with enemy units");
  return rule_error("10.8", def(b).id + " cannot reach " + g_.map().id(dest) +
                                " (MP, engaging, disengaging or stacking rules)");
}

std::vector<std::vector<int>> Moscow41State::route_choices(int b, bool allow_engage, int only_dest) const {
  // Routes matter only by what they change: the empty enemy-controlled areas passed through
  // (2.5) and whether an engaging last step crosses a river (10.12.5.1). For each
  // destination and effect the cheapest route (then the lowest area indices) stands for
  // all; effects the cheapest route to that destination already has are left out.
  std::vector<std::vector<int>> out;
  const BlockDef& d = def(b);
  const int start = block(b).loc;
  if (!is_area(start) || d.kind == Kind::kLeader) return out;
  const int side = d.side, enemy = 1 - side;
  const Presence pr = presence();  // the walk below asks at every step of every route
  const bool disengage = pr.contested(start);
  auto effect = [&](const std::vector<int>& p) {
    std::vector<int> key{p.back()};
    for (size_t i = 0; i + 1 < p.size(); ++i)
      if (area(p[i]).control != side) key.push_back(p[i]);
    const int from = p.size() > 1 ? p[p.size() - 2] : start;
    key.push_back(
        pr.units(enemy, p.back()) && !pr.contested(p.back()) && g_.river_between(from, p.back()) ? 1 : 0);
    return key;
  };
  std::map<std::vector<int>, std::pair<int, std::vector<int>>> best;  // effect -> (cost, route)
  std::vector<int> path;
  std::function<void(int, int)> walk = [&](int x, int mp) {
    for (int y : g_.adjacency()[static_cast<size_t>(x)]) {
      if (y == start || std::find(path.begin(), path.end(), y) != path.end()) continue;
      if (!is_area(y) || (side == kSoviet && ad(y).terrain == kStaging)) continue;
      int cost = enter_cost(b, y);
      if (x == start && disengage) {
        cost += g_.tables().disengage;
        if (area(y).control != side || pr.contested(y)) continue;
      }
      const bool engages = pr.units(enemy, y);
      if ((engages && !allow_engage) || cost > mp) continue;
      path.push_back(y);
      if ((only_dest < 0 || y == only_dest) && stack_ok(side, y, 1, &pr)) {
        const int spent = mp_allowance(b) - mp + cost;
        auto [it, fresh] = best.try_emplace(effect(path), spent, path);
        if (!fresh && std::make_pair(spent, path) < it->second) it->second = {spent, path};
      }
      if (!engages) walk(y, mp - cost);  // entering enemy units ends the move (10.8)
      path.pop_back();
    }
  };
  walk(start, mp_allowance(b));
  std::map<int, std::vector<int>> cheapest_effect;
  for (const auto& p : reachable(b, allow_engage, false))
    if (only_dest < 0 || p.back() == only_dest) cheapest_effect[p.back()] = effect(p);
  for (const auto& [key, v] : best)
    if (cheapest_effect[v.second.back()] != key) out.push_back(v.second);
  return out;
}

Status Moscow41State::check_move_action(const Action& a, bool allow_engage, bool hq_act) const {
  // "move B DEST" follows the cheapest route; "move B A1 ... DEST" names every area entered
  // (2.5: the route decides which empty areas change control; 10.12.5.1 which border the
  // last step crosses). A named route must differ from the cheapest one, so that each move
  // has one notation.
  if (a.nargs < 2) return rule_error("", "malformed move");
  const int b = a.args[0];
  if (a.nargs == 2) return check_move(b, a.args[1], allow_engage, hq_act);
  const int len = a.nargs - 1;
  const int32_t* route = &a.args[1];
  for (int i = 0; i < len; ++i) {
    if (route[i] < 0 || route[i] >= node_count()) return rule_error("", "unknown area in the route");
    if (route[i] == block(b).loc) return rule_error("10.8", "a route does not return to its start");
    for (int j = 0; j < i; ++j)
      if (route[j] == route[i]) return rule_error("10.8", "a route enters each area once");
  }
  Status st = check_path(b, route, len, allow_engage, hq_act);
  if (!st.is_ok()) return st;
  for (const auto& r : route_choices(b, allow_engage, route[len - 1]))
    if (r.size() == static_cast<size_t>(len) && std::equal(r.begin(), r.end(), route)) return Status::ok();
  // Same effect as another route: name the one notation of that move.
  return rule_error("10.8",
                    "this route takes the same areas and crosses the same last border as another: each "
                    "move has one notation, the cheapest such route (\"" +
                        std::string(hq_act ? "activate " : "move ") + def(b).id + " " +
                        g_.map().id(route[len - 1]) + "\" for the cheapest of all)");
}

void Moscow41State::follow(int b, int dest, bool allow_engage, bool hq_act) {
  const std::vector<int> p = path_to(b, dest, allow_engage, hq_act);
  std::vector<int32_t> q(p.begin(), p.end());
  move_block(b, q.data(), static_cast<int>(q.size()));
}

void Moscow41State::enter(int side, int node) {
  // 2.5: an area with only one side's units is controlled by it; passing through switches
  // control; a contested area stays with the Original Defender.
  if (!is_area(node)) return;
  if (!has_units(1 - side, node) && area(node).control != side) {
    as(node).control = side;
    log("control", std::string(side_name(side)) + " takes control of " + g_.map().id(node), "2.5");
  }
}

void Moscow41State::settle_control(int node) {
  // 2.5: "A player controls an Area if only Units belonging to that player are in the
  // Area." When the holder's last unit leaves, dies or surrenders, the other side's units
  // left there take it; an emptied area stays with its last occupant.
  if (!is_area(node)) return;
  for (int side : {kGerman, kSoviet})
    if (area(node).control != side && has_units(side, node) && !has_units(1 - side, node)) {
      as(node).control = side;
      log("control", std::string(side_name(side)) + " takes control of " + g_.map().id(node), "2.5");
    }
}

void Moscow41State::move_block(int b, const int32_t* path, int len) {
  const int side = def(b).side;
  const int start = block(b).loc;
  int from = start;
  for (int i = 0; i < len; ++i) {
    const int nx = path[i];
    const bool engaging = i == len - 1 && has_units(1 - side, nx);
    // 2.4.6, 10.12.5.1: every block that engages across a river into an area not contested
    // when the impulse began gets the blue cube, not only the first one in.
    if (engaging && g_.river_between(from, nx) && !area(nx).contested_at_start) bs(b).river = true;
    bs(b).loc = nx;
    enter(side, nx);
    from = nx;
  }
  settle_control(start);  // 2.5: a disengaging block may leave the enemy alone in the area
}

int Moscow41State::hq_range(int hq) const {
  // 10.3: range = strength; Rain 1; Snow halves German ranges; exhausted 0.
  int s = strength(hq);
  if (s <= 0) return 0;
  if (weather_ == kRain) return 1;
  if (weather_ == kSnow && def(hq).side == kGerman) return std::max(1, s / 2);
  return s;
}

std::vector<int> Moscow41State::tactical_range(int hq) const {
  // 10.3: a path not passing through enemy-controlled or contested areas, but it may end in one.
  const int side = def(hq).side, n = node_count();
  std::vector<int> dist(static_cast<size_t>(n), -1), out;
  const int start = block(hq).loc;
  if (!is_area(start)) return out;
  const int r = hq_range(hq);
  std::queue<int> q;
  q.push(start);
  dist[static_cast<size_t>(start)] = 0;
  while (!q.empty()) {
    const int x = q.front();
    q.pop();
    out.push_back(x);
    if (dist[static_cast<size_t>(x)] >= r) continue;
    if (x != start && (area(x).control != side || contested(x))) continue;  // may end, not pass
    for (int y : g_.adjacency()[static_cast<size_t>(x)]) {
      if (dist[static_cast<size_t>(y)] >= 0) continue;
      if (side == kSoviet && ad(y).terrain == kStaging) continue;
      dist[static_cast<size_t>(y)] = dist[static_cast<size_t>(x)] + 1;
      q.push(y);
    }
  }
  return out;
}

bool Moscow41State::commanded(int b) const {
  const BlockDef& d = def(b);
  const BlockState& s = block(b);
  if (!is_area(s.loc) || d.kind == Kind::kLeader) return false;
  for (size_t h = 0; h < blocks_.size(); ++h) {
    const BlockDef& hd = g_.blocks()[h];
    const BlockState& hs = blocks_[h];
    if (hd.side != d.side || hd.kind != Kind::kHq || !hs.activated || !is_area(hs.loc)) continue;
    if (static_cast<int>(h) == b) continue;
    if (hs.loc == s.loc) return true;  // 10.2.2: any block in the HQ's area
    const bool zhukov = hd.id == "Zhukov";
    // 10.2: the HQ's own colour and White; OR 14.1: any colour (Combat Blocks only, except
    // Zhukov, who keeps his command over the other Soviet HQs).
    const bool appropriate =
        zhukov || (d.kind == Kind::kCombat &&
                   (d.colour == hd.colour || d.colour == "white" || options_[kOptIgnoreColour]));
    if (!appropriate) continue;
    const auto tr = tactical_range(static_cast<int>(h));
    if (std::find(tr.begin(), tr.end(), s.loc) != tr.end()) return true;
  }
  return false;
}

Status Moscow41State::check_dl(const steppe::Action& a) const {
  // "dl B" or "dl B disband AREA" (4.1: a DL in AREA is taken up to build this one).
  if (a.nargs != 1 && a.nargs != 2) return rule_error("4.1", "malformed dl");
  return check_dl(a.args[0], a.nargs == 2 ? a.args[1] : -1);
}

Status Moscow41State::check_dl(int b, int disband) const {
  // 4.1 / 10.8: a Combat Block not at minimum, that began the impulse in a controlled,
  // uncontested area without a DL, is reduced to build one.
  const BlockDef& d = def(b);
  const BlockState& s = block(b);
  if (d.kind != Kind::kCombat) return rule_error("4.1", "only Combat Blocks build Defensive Lines");
  if (!is_area(s.loc)) return rule_error("2.7", "no Defensive Lines in boxes");
  if (s.level >= d.min_level()) return rule_error("4.1", "a block at minimum strength cannot build a DL");
  if (area(s.loc).control != d.side || contested(s.loc))
    return rule_error("4.1", "DLs are built only in controlled, uncontested areas");
  if (area(s.loc).dl != kNoSide) return rule_error("2.7", "the area already has a Defensive Line");
  if (ad(s.loc).terrain == kStaging) return rule_error("2.4.4", "no Defensive Lines in Staging Areas");
  // 4.1: "a player may - at anytime - voluntarily disband some to build new ones": the
  // build names the DL it takes up (docs/rulings.md, "Disbanding Defensive Lines").
  if (disband >= 0) {
    if (!is_area(disband) || area(disband).dl != d.side)
      return rule_error("4.1", "there is no Defensive Line of yours to disband there");
    if (!all_dls_in_use(d.side))
      return rule_error("4.1",
                        "a Defensive Line is still free: build it without disbanding one (dl " + d.id + ")");
    return Status::ok();
  }
  if (all_dls_in_use(d.side))
    return rule_error("4.1", "all Defensive Lines are in use: disband one to build this one (dl " + d.id +
                                 " disband AREA)");
  return Status::ok();
}

bool Moscow41State::all_dls_in_use(int side) const {
  int used = 0;
  for (const auto& a : areas_) used += a.dl == side ? 1 : 0;
  return used >= (side == kGerman ? g_.tables().dl_german : g_.tables().dl_soviet);
}

// ----------------------------------------------------------------------------------------
// Sequence of play (3.0, 6.0)
int Moscow41State::current_player() const {
  if (phase_ == Phase::kOver) return steppe::kTerminalPlayer;
  return loss_pending() ? battle_.loss_side : active_;  // 10.14.1: the owner allocates
}

std::vector<double> Moscow41State::returns() const {
  if (winner_ == kGerman) return {1.0, -1.0};
  if (winner_ == kSoviet) return {-1.0, 1.0};
  return {0.0, 0.0};
}

Json Moscow41State::result() const {
  Json r{{"turn", turn_}, {"vp", {{"german", victory_points(kGerman)}, {"soviet", victory_points(kSoviet)}}}};
  if (phase_ == Phase::kOver)
    r["winner"] = winner_ == kGerman ? "german" : winner_ == kSoviet ? "soviet" : "draw";
  if (!result_kind_.empty()) r["kind"] = result_kind_;
  return r;
}

void Moscow41State::update_victory() {
  if (phase_ == Phase::kOver) return;
  // 4.2.4: if Moscow falls, Stalin dies.
  const int stalin = g_.block_index("Stalin");
  if (!stalin_dead_ && area(g_.moscow()).control == kGerman && stalin >= 0) {
    stalin_dead_ = true;
    if (block(stalin).loc >= 0) bs(stalin).loc = kLocSurrendered;
    log("leader", "Moscow has fallen: Stalin dies; no more Soviet Logistics Phases", "4.2.4");
  }
  auto finish = [&](int w, const std::string& kind, const std::string& rule) {
    winner_ = w;
    result_kind_ = kind;
    phase_ = Phase::kOver;
    log("victory", std::string(side_name(w)) + " wins: " + kind, rule);
  };
  if (victory_kind_ == "campaign") {
    for (int s : {kGerman, kSoviet})
      if (victory_points(s) >= g_.tables().sudden_death_vp)
        return finish(s, "decisive victory (sudden death)", "1.7");
  } else if (victory_kind_ == "dnieper") {
    // Scenario 1: German DLs in Yelnia and Yartsevo, or Chernigov and Romny German.
    const int yelnia = g_.node("91"), yartsevo = g_.node("68");
    bool specials = true;
    int count = 0;
    for (int n = 0; n < g_.map().area_count(); ++n)
      if (ad(n).special_city) {
        ++count;
        specials = specials && area(n).control == kGerman;
      }
    if ((area(yelnia).dl == kGerman && area(yartsevo).dl == kGerman) || (count == 2 && specials))
      return finish(kGerman, "German victory (Beyond the Dnieper)", "Scenario 1");
  } else if (victory_kind_ == "moscow") {
    if (area(g_.moscow()).control == kGerman)
      return finish(kGerman, "German victory: Moscow taken", "Scenarios 2-3");
  }
}

void Moscow41State::start_turn(int t) {
  turn_ = t;
  passes_in_row_ = 0;
  german_impulses_ = 0;
  initiative_spent_this_turn_[0] = initiative_spent_this_turn_[1] = false;
  log("phase", std::string("turn ") + std::to_string(t) + " (" + kMonths[t - 1] + ")", "3.0");
  if (t == 5) {  // 5.1: the N blocks join the Soviet pool at the start of November
    for (auto& s : blocks_)
      if (s.loc == kLocOobN) s.loc = kLocPool;
  }
  if (t >= 2) {  // 7.0: Logistics Phase on turns 2-6, the player without the Initiative first
    phase_ = Phase::kLogistics;
    logistics_done_ = 0;
    active_ = 1 - initiative_;
    if (active_ == kSoviet && stalin_dead_) {
      logistics_done_ = 1;
      active_ = initiative_;
    }
  } else {
    phase_ = Phase::kImpulse;
    active_ = initiative_;
  }
}

void Moscow41State::logistics(int side, bool activate) {
  const int leader = g_.block_index(side == kGerman ? "Hitler" : "Stalin");
  if (!activate) {
    if (leader >= 0) bs(leader).level = 0;  // 7.1
    log("logistics", std::string(side_name(side)) + " declares a Logistics Pause", "7.1");
    end_logistics();
    return;
  }
  // 7.2: LV Regeneration Points, LV Replacement Points and LV reinforcements, the value
  // of the moment the Leader is activated (the 7.2.2 example computes it once). The owner
  // spends the points ("step B"), then "end" draws the reinforcements, which he places.
  const int lv = logistics_value(side);
  const std::string act = std::string(side_name(side)) + " activates the Leader";
  log_hidden(side, "logistics", act + ", LV " + std::to_string(lv), act, "7.2");  // 1.5: LV is the owner's
  regen_left_ = repl_left_ = draws_left_ = lv;
  phase_ = Phase::kReplace;
}

void Moscow41State::end_logistics() {
  // 7.2: at the end, the Leader is reduced; then the other player chooses (7.0).
  const int side = active_;
  const int leader = g_.block_index(side == kGerman ? "Hitler" : "Stalin");
  if (phase_ == Phase::kDeploy && leader >= 0 && block(leader).loc >= 0 &&
      block(leader).level < def(leader).min_level())
    ++bs(leader).level;
  regen_left_ = repl_left_ = draws_left_ = 0;
  for (auto& s : blocks_) s.acted = false;
  if (++logistics_done_ >= 2 || (stalin_dead_ && active_ == kGerman)) {
    phase_ = Phase::kImpulse;
    active_ = initiative_;
  } else {
    phase_ = Phase::kLogistics;
    active_ = 1 - active_;
  }
}

Status Moscow41State::check_step(int b) const {
  // 7.2.2: one HQ step per Regeneration Point; a Combat Block step for 1-3 Replacement
  // Points by its colour; never in a contested area nor when Isolated.
  const BlockDef& d = def(b);
  const BlockState& s = block(b);
  if (d.side != active_) return rule_error("7.2.2", "not one of your blocks");
  if (d.kind == Kind::kLeader) return rule_error("7.2", "the Leader is not regenerated by points");
  if (s.loc < 0) return rule_error("7.2.2", d.id + " is not on the map");
  if (s.level <= 0) return rule_error("7.2.2", d.id + " is at full strength");
  if (contested(s.loc)) return rule_error("7.2.2", "no steps are replaced in a contested area");
  if (s.isolated) return rule_error("7.2.2", "no steps are replaced for an Isolated block");
  const int cost = d.cost[static_cast<size_t>(s.level - 1)];
  if (d.is_hq() && cost > regen_left_)
    return rule_error("7.2.2", "not enough Regeneration Points (" + std::to_string(regen_left_) + " left)");
  if (!d.is_hq() && cost > repl_left_)
    return rule_error("7.2.2", "not enough Replacement Points (" + std::to_string(repl_left_) +
                                   " left, the step costs " + std::to_string(cost) + ")");
  return Status::ok();
}

void Moscow41State::draw_reinforcements(int count) {
  // 5.0: drawn at random from the pool; the owner sees them, the enemy only how many.
  draws_left_ = 0;
  for (int k = 0; k < count; ++k) {
    std::vector<int> pool;
    for (size_t b = 0; b < blocks_.size(); ++b)
      if (g_.blocks()[b].side == active_ && blocks_[b].loc == kLocPool) pool.push_back(static_cast<int>(b));
    if (pool.empty()) break;
    const int b = pool[static_cast<size_t>(dice_.below(static_cast<int>(pool.size())))];
    bs(b).loc = kLocDrawn;
    log_hidden(active_, "reinforce", def(b).id + " is drawn from the pool",
               std::string(side_name(active_)) + " draws a reinforcement from the pool", "5.0");
  }
  for (auto& s : blocks_) s.acted = false;  // "acted" marks the areas reinforced this phase
  phase_ = Phase::kDeploy;
  settle_deploy();
}

std::vector<int> Moscow41State::deploy_sites(int b) const {
  // 5.0: Germans in the appropriate Staging Areas ("L" blocks in Hoepner's box); Soviets
  // in a friendly, uncontested, supplied city or Victory Area, one per area, no overstacking.
  const BlockDef& d = def(b);
  std::vector<int> cands;
  if (d.side == kGerman) {
    if (d.letter == 'L') {
      if (hoepner_road_ >= 0) cands.push_back(g_.road()[static_cast<size_t>(hoepner_road_)]);
    } else {
      for (const auto& id : g_.staging_for(d.colour)) cands.push_back(g_.node(id));
    }
    std::sort(cands.begin(), cands.end());
    return cands;
  }
  for (int n = 0; n < g_.map().area_count(); ++n) {
    if (!(ad(n).city || ad(n).terrain == kVictory)) continue;
    if (area(n).control != kSoviet || contested(n) || !stack_ok(kSoviet, n, 1)) continue;
    if (!in_supply_area(kSoviet, n)) continue;
    bool taken = false;  // at most one reinforcement per area
    for (const auto& o : blocks_)
      if (o.loc == n && o.acted) taken = true;
    if (!taken) cands.push_back(n);
  }
  // OR 14.2: Zhukov drawn may go to the Leningrad box instead (while Leningrad is Soviet,
  // and never once recalled from it).
  if (d.id == "Zhukov" && options_[kOptZhukovHoepner] && !zhukov_recalled_ && !len_german_)
    cands.push_back(g_.road().back());  // a box: after every area, so the list stays sorted
  return cands;
}

void Moscow41State::settle_deploy() {
  // A drawn block with no legal site goes back to the pool (5.0: no other is drawn);
  // when none is left to place, the procedure that drew them goes on.
  if (phase_ != Phase::kDeploy) return;
  bool waiting = false;
  for (size_t i = 0; i < blocks_.size(); ++i) {
    const int b = static_cast<int>(i);
    if (block(b).loc != kLocDrawn) continue;
    if (!deploy_sites(b).empty()) {
      waiting = true;
      continue;
    }
    bs(b).loc = kLocPool;
    // 1.5: the enemy learns that a reinforcement could not be placed, not which block it was.
    log_hidden(
        def(b).side, "reinforce", def(b).id + " cannot be placed and returns to the pool",
        std::string(side_name(def(b).side)) + " reinforcement cannot be placed and returns to the pool",
        "5.0");
  }
  if (waiting) return;
  if (impulse_ == ImpulseKind::kStrategicReinforce) {
    for (auto& s : blocks_) s.acted = false;
    phase_ = Phase::kCombat;  // 11.0 Option B: then the Combat Segment
  } else {
    end_logistics();
  }
}

void Moscow41State::weather_check() {
  // 8.1: from the 2nd German impulse of October, at each German impulse the forecast
  // marker moves right and the Soviet player rolls; roll <= box: the weather moves on.
  if (active_ != kGerman || turn_ < 4) return;
  ++german_impulses_;
  // OR 14.5: from the 2nd German impulse of December the weather is Blizzard, whatever it
  // was; it works as Snow (weather_ stays Snow) with the German strength rule of 14.5.
  if (options_[kOptBlizzard] && turn_ == kDecember && german_impulses_ >= 2 && !blizzard_) {
    blizzard_ = true;
    weather_ = kSnow;
    forecast_ = 0;
    log("weather", "the weather turns to Blizzard", "14.5");
    return;
  }
  if (turn_ == 4 && german_impulses_ == 1) return;
  if (weather_ >= kSnow) return;
  forecast_ = std::min(forecast_ + 1, g_.tables().weather_track_len);
  const int r = roll(6, "weather (forecast box " + std::to_string(forecast_) + ")", "8.1");
  if (r <= forecast_) {
    ++weather_;
    forecast_ = 0;
    log("weather", std::string("the weather turns to ") + kWeather[weather_], "8.1");
  }
}

void Moscow41State::start_impulse(ImpulseKind k) {
  impulse_ = k;
  ++impulses_started_;
  if (active_ == kGerman)  // 10.14.3: aborted bombers are back from the next German impulse
    for (auto& b : bomber_status_)
      if (b == kBomberAborted) b = kBomberReady;
  weather_check();
  supply_check(active_);
  for (auto& a : areas_) a.fought = false, a.artillery = -1;
  for (int n = 0; n < node_count(); ++n) as(n).contested_at_start = contested(n);
  for (auto& s : blocks_) s.acted = false, s.river = false;
}

void Moscow41State::end_impulse() {
  for (size_t i = 0; i < bomber_status_.size(); ++i)
    if (bomber_status_[i] == kBomberCommitted) bomber_status_[i] = kBomberReady, bomber_area_[i] = -1;
  std::fill(bomber_struck_.begin(), bomber_struck_.end(), -1);
  blitz_moves_.clear();
  if (phase_ != Phase::kExploit) isolation_check(active_);  // 6.0: done before the Exploitation
  // 10.15: the attacking blocks left visible after their battles (and the Blitz marks) are
  // concealed when the impulse ends (docs/rulings.md, "Concealment"); boxes keep theirs.
  for (size_t i = 0; i < blocks_.size(); ++i)
    if (g_.blocks()[i].side == active_ && is_area(blocks_[i].loc))
      blocks_[i].revealed = blocks_[i].face_up || blocks_[i].activated;
  for (auto& s : blocks_) s.acted = false, s.river = false;
  for (auto& a : areas_) a.artillery = -1;
  update_victory();
  if (phase_ == Phase::kOver) return;
  passes_in_row_ = impulse_ == ImpulseKind::kPass ? passes_in_row_ + 1 : 0;
  impulse_ = ImpulseKind::kNone;
  if (passes_in_row_ >= 2) {  // 3.0: two consecutive passes end the Impulses Phase
    final_phase();
    return;
  }
  active_ = 1 - active_;
  phase_ = Phase::kImpulse;
}

void Moscow41State::final_phase() {
  log("phase", "Final Phase", "13.0");
  // 13.1: destroyed bombers return.
  for (auto& b : bomber_status_)
    if (b == kBomberDestroyed) b = kBomberReady;
  // OR 14.8 Operation Crusader: in the Final Phase of November both Luftwaffe HQs and the
  // eight bombers leave the game for good (withdrawn, not destroyed: no 7.2.1 loss point).
  if (options_[kOptCrusader] && turn_ == kNovember) {
    for (size_t b = 0; b < blocks_.size(); ++b)
      if (g_.blocks()[b].kind == Kind::kLwHq && blocks_[b].loc != kLocRemoved) {
        blocks_[b] = BlockState{};
        blocks_[b].loc = kLocRemoved;
      }
    for (size_t i = 0; i < bomber_status_.size(); ++i) {
      bomber_status_[i] = kBomberRemoved;
      bomber_area_[i] = -1;
    }
    log("crusader",
        "Operation Crusader: the 2nd and 8th Fliegerkorps and their bombers leave for the Mediterranean",
        "14.8");
  }
  // 13.2 Kiev: the Germans control both special cities.
  if (!kiev_german_) {
    bool all = true;
    int count = 0;
    for (int n = 0; n < g_.map().area_count(); ++n)
      if (ad(n).special_city) {
        ++count;
        all = all && area(n).control == kGerman;
      }
    if (count == 2 && all) {
      kiev_german_ = true;
      for (auto& s : blocks_)
        if (s.loc == kLocOobK) s.loc = kLocPool;
      log("kiev", "Kiev falls: +1 German VP, 48th Panzer Corps to the pool, south border cut", "13.2");
    }
  }
  // 13.3 Leningrad: Hoepner has reached the last box.
  if (!len_german_ && hoepner_road_ == static_cast<int>(g_.road().size()) - 1) {
    len_german_ = true;
    for (size_t b = 0; b < blocks_.size(); ++b)
      if (g_.blocks()[b].letter == 'L' && blocks_[b].loc >= 0 && !is_area(blocks_[b].loc)) {
        blocks_[b].loc = kLocPool;
        blocks_[b].level = 0;
      }
    hoepner_road_ = -1;
    log("leningrad", "Leningrad falls: +1 German VP, north border cut, 4th Panzer Gruppe to the pool",
        "13.3");
    // OR 14.2 (silent on this): Zhukov in the Leningrad box is driven out to the Soviet pool,
    // as a destroyed Soviet block goes (10.14.3); he may not return to the box.
    const int z = g_.block_index("Zhukov");
    if (z >= 0 && block(z).loc == g_.road().back()) {
      bs(z) = BlockState{};
      bs(z).loc = kLocPool;
      log("leningrad", "Zhukov leaves fallen Leningrad for the Soviet pool", "14.2");
    }
  }
  update_victory();
  if (phase_ == Phase::kOver) return;
  if (turn_ >= last_turn_) {
    const int gv = victory_points(kGerman), sv = victory_points(kSoviet);
    if (victory_kind_ == "campaign") {
      winner_ = gv > sv ? kGerman : sv > gv ? kSoviet : 2;
      result_kind_ = "marginal victory (most VP after December)";
    } else {
      winner_ = kSoviet;  // scenarios 1-3: any other result is a Soviet victory
      result_kind_ = "Soviet victory (scenario end)";
    }
    phase_ = Phase::kOver;
    log("victory", "game over: " + result_kind_, victory_kind_ == "campaign" ? "1.7" : "Scenarios");
    return;
  }
  start_turn(turn_ + 1);
}

// ----------------------------------------------------------------------------------------
// Combat (10.11-10.15)
bool Moscow41State::azul_14_7(int b) const { return options_[kOptInfantryDivisions] && def(b).id == "Azul"; }

int Moscow41State::german_weather_dice(int dice, bool attacking) const {
  // 8.0: in Snow German attacks are halved; OR 14.5: in Blizzard German strength is halved
  // when defending and quartered when attacking. 3.1: rounded down, never below 1 die.
  if (dice <= 0) return 0;
  if (blizzard_)
    return std::max(1,
                    dice / (attacking ? g_.tables().blizzard_attack_div : g_.tables().blizzard_defend_div));
  if (weather_ == kSnow && attacking) return std::max(1, dice / 2);
  return dice;
}

int Moscow41State::dice_for(int b, bool attacking, int node) const {
  const BlockDef& d = def(b);
  if (d.kind == Kind::kLeader || d.kind == Kind::kLwHq) return 0;  // 4.2.4, 10.10
  int s = strength(b);
  if (s <= 0) return 0;  // 10.5: exhausted HQs have no firepower
  if (!attacking) {
    // OR 14.5: German blocks defend at half in Blizzard (OR 14.7: not the Azul Division).
    if (blizzard_ && d.side == kGerman && !azul_14_7(b)) return german_weather_dice(s, false);
    return s;
  }
  if (weather_ == kRain) {
    s = 1;  // 8.0
  } else if (weather_ == kSnow && d.side == kGerman) {
    if (!azul_14_7(b))
      s = german_weather_dice(s, true);
    else if (blizzard_)
      s = std::max(1, s / 2);  // OR 14.7: Azul has no Snow penalty, and is only halved in Blizzard
  }
  // 10.12.5.1: engaging across a river into a newly contested area: 1 die (frozen in Snow).
  if (block(b).river && !area(node).contested_at_start && weather_ != kSnow) s = 1;
  return s;
}

int Moscow41State::roll_hits(int dice, int fire, const std::string& who, const std::string& rule) {
  int hits = 0;
  const int need = g_.tables().hits_on[static_cast<size_t>(fire)];
  std::string rolls;
  for (int i = 0; i < dice; ++i) {
    const int r = dice_.roll(6);
    rolls += (i ? " " : "") + std::to_string(r);
    if (r >= need) ++hits;
  }
  if (dice > 0) {
    steppe::Event e;
    e.kind = "roll";
    e.text = who + " rolls " + std::to_string(dice) + " dice (" + rolls + "), hits on " +
             std::to_string(need) + "+: " + std::to_string(hits) + " hits";
    e.rule = rule;
    e.reveals = true;
    if (event_sink() != nullptr) emit(std::move(e));
  }
  return hits;
}

std::vector<int> Moscow41State::loss_choices() const {
  // 10.14.1: hits go to the strongest block; among equally strong ones the owner chooses.
  std::vector<int> out;
  if (battle_.node < 0) return out;
  int best = -1;
  for (int b : pieces(battle_.loss_side, battle_.node)) {
    if (def(b).kind == Kind::kLeader) continue;  // 4.2.4: Leaders take no hits
    if (strength(b) > best) {
      best = strength(b);
      out.clear();
    }
    if (strength(b) == best) out.push_back(b);
  }
  return out;
}

bool Moscow41State::allocate_hits() {
  // 10.14: the defender's DL first, then the strongest block. Where the hits left reach
  // every equally strong block, each of them takes one whatever the order (no choice);
  // fewer hits than such blocks: the owner chooses ("hit B"), one hit at a time.
  // The attacker's own DL in the area takes no part and no hits.
  const int side = battle_.loss_side, node = battle_.node;
  while (battle_.loss_hits > 0) {
    if (side != active_ && area(node).dl == side) {
      as(node).dl = kNoSide;
      --battle_.loss_hits;
      log("combat", std::string(side_name(side)) + " DL in " + g_.map().id(node) + " destroyed", "10.14");
      settle_control(node);  // 2.5
      continue;
    }
    const std::vector<int> tied = loss_choices();
    if (tied.empty()) {
      battle_.loss_hits = 0;  // 10.14.2: excess hits are lost
      break;
    }
    if (static_cast<int>(tied.size()) > battle_.loss_hits) return false;
    for (int b : tied) {
      log("combat", def(b).id + " takes a hit", "10.14.1");
      reduce(b, false);
      --battle_.loss_hits;
    }
  }
  battle_.loss_side = kNoSide;
  return true;
}

void Moscow41State::queue_hits(int side, int hits) {
  // 10.13: the defender's Absorb Bonus soaks the battle's hits first, whatever fired them.
  if (side != active_) {
    const int soaked = std::min(hits, battle_.absorb);
    battle_.absorb -= soaked;
    hits -= soaked;
    if (soaked > 0) log("combat", std::to_string(soaked) + " hits absorbed", "10.13");
  }
  if (hits <= 0) return;
  battle_.loss_side = side;
  battle_.loss_hits = hits;
  if (!allocate_hits())
    log("combat",
        std::string(side_name(side)) + " chooses which equally strong block takes each of " +
            std::to_string(battle_.loss_hits) + " hits",
        "10.14.1");
}

void Moscow41State::resolve_battle(int node) {
  const int att = active_, dfn = 1 - active_;
  // 10.12.1 Showdown.
  // The log names what both players now see: every block in the area, at its strength.
  std::string shown;
  for (int s : {att, dfn}) {
    std::string list;
    for (int b : pieces(s, node)) {
      bs(b).revealed = true;
      list += (list.empty() ? " " : ", ") + def(b).id + " (" + std::to_string(strength(b)) + ")";
    }
    if (!list.empty()) shown += (shown.empty() ? ": " : "; ") + std::string(side_name(s)) + list;
  }
  log("reveal", "showdown in " + g_.map().id(node) + shown, "10.12.1", true);
  const bool blitz = phase_ == Phase::kBlitz;
  battle_ = Battle{};
  battle_.node = node;
  battle_.absorb = absorb(node, dfn);
  battle_.blitz = blitz;
  advance_battle();
}

void Moscow41State::advance_battle() {
  // 10.12: the steps of a battle, each one's hits allocated before the next fires (a
  // block reduced by the defender's fire rolls fewer dice). Stops while a choice waits.
  const int att = active_, dfn = 1 - active_, node = battle_.node;
  const AreaDef& a = ad(node);
  auto fire_rule = [&](int b) -> std::string {
    if (def(b).side != kGerman || weather_ != kSnow) return "10.12.5";
    if (azul_14_7(b)) return "10.12.5, 14.7";
    return blizzard_ ? "10.12.5, 14.5" : "10.12.5";
  };
  auto attacker_fire = [&]() {
    int hits = 0;
    for (int b : battle_.attackers)
      if (block(b).loc == node)
        hits += roll_hits(dice_for(b, true, node), def(b).fire[static_cast<size_t>(block(b).level)],
                          def(b).id, fire_rule(b));
    queue_hits(dfn, hits);
  };
  auto defender_fire = [&]() {
    int hits = 0;
    if (area(node).dl == dfn) hits += roll_hits(1, kSingle, "defensive line", "4.1");
    for (int b : pieces(dfn, node))
      hits += roll_hits(dice_for(b, false, node), def(b).fire[static_cast<size_t>(block(b).level)], def(b).id,
                        fire_rule(b));
    queue_hits(att, hits);
  };
  while (!loss_pending() && !aa_pending() && phase_ != Phase::kOver) {
    switch (battle_.step++) {
      case 0:  // 10.12.2 Artillery.
        for (size_t h = 0; h < blocks_.size(); ++h) {
          if (area(node).artillery != static_cast<int>(h)) continue;
          const int hq = static_cast<int>(h);
          if (!block(hq).activated) continue;
          int dice = strength(hq);
          if (weather_ == kRain)
            dice = std::min(dice, 1);
          else if (def(hq).side == kGerman)
            dice = german_weather_dice(dice, true);  // 8.0 Snow; OR 14.5 Blizzard
          queue_hits(dfn, roll_hits(dice, kDouble, def(hq).id + " artillery",
                                    blizzard_ ? "10.12.2, 14.5" : "10.12.2"));
        }
        break;
      case 1:  // 10.12.3 AA (the German may have to convert its hits)
        anti_air(node);
        break;
      case 2:  // 10.12.4 Airstrike
        queue_hits(dfn, air_strike(node));
        break;
      case 3: {  // 10.12.5.2 Tank Attack, judged after the Airstrike; then the first fire.
        battle_.attackers.clear();
        for (int b : pieces(att, node))
          if (!block(b).isolated) battle_.attackers.push_back(b);
        bool att_tank = false, all_tanks_river = true, def_tank = false;
        for (int b : battle_.attackers)
          if (def(b).type == BlockType::kTank) {
            att_tank = true;
            all_tanks_river = all_tanks_river && block(b).river;
          }
        for (int b : pieces(dfn, node)) def_tank = def_tank || def(b).type == BlockType::kTank;
        const bool def_city = a.city && area(node).control == dfn;
        bool tank_attack = weather_ == kSunny && a.terrain == kGreen && area(node).dl != dfn && !def_city &&
                           att_tank && !def_tank;
        if (tank_attack && !area(node).contested_at_start && all_tanks_river) tank_attack = false;
        battle_.tank_attack = tank_attack;
        if (tank_attack) {
          log("combat", "Tank Attack! the attacker fires first", "10.12.5.2");
          attacker_fire();
        } else {
          defender_fire();
        }
        break;
      }
      case 4:
        if (battle_.tank_attack)
          defender_fire();
        else
          attacker_fire();
        break;
      default:
        finish_battle();
        return;
    }
  }
}

void Moscow41State::finish_battle() {
  const int att = active_, dfn = 1 - active_, node = battle_.node;
  const AreaDef& a = ad(node);
  const bool blitz = battle_.blitz;
  battle_ = Battle{};
  as(node).fought = true;
  // Control and concealment (2.5, 10.15).
  const bool def_left = has_units(dfn, node), att_left = blocks_in(att, node) > 0;
  settle_control(node);  // 2.5: whichever side is left alone there holds the area
  if (!def_left || !att_left) {
    for (int s : {att, dfn})
      for (int b : pieces(s, node)) {
        const bool blitz_mark =
            s == att && def(b).fast && def(b).kind == Kind::kCombat && a.terrain == kGreen;
        bs(b).revealed = blitz_mark || block(b).face_up || block(b).activated;
        if (blitz_mark && !def_left) bs(b).blitz = true;
      }
  } else {
    for (int b : pieces(dfn, node)) bs(b).revealed = block(b).face_up || block(b).activated;
  }
  update_victory();
  if (blitz && phase_ != Phase::kOver) next_blitz_battle();
}

void Moscow41State::next_blitz_battle() {
  // 10.16: battles in the areas entered by Blitz are mandatory; an adjacent activated
  // Blitz HQ fires its artillery again. One at a time (a loss choice may stop one).
  for (int n = 0; n < g_.map().area_count(); ++n) {
    if (!contested(n) || area(n).contested_at_start || area(n).fought) continue;
    for (size_t h = 0; h < blocks_.size(); ++h) {
      const BlockDef& hd = g_.blocks()[h];
      if (hd.side != active_ || !blocks_[h].activated ||
          !(hd.blitz || (hd.id == "HQ4Pg" && hoepner_full_hq())))
        continue;
      const auto& adj = g_.adjacency()[static_cast<size_t>(n)];
      if (is_area(blocks_[h].loc) && std::binary_search(adj.begin(), adj.end(), blocks_[h].loc) &&
          area(n).artillery < 0 && strength(static_cast<int>(h)) > 0)
        as(n).artillery = static_cast<int>(h);
    }
    log("blitz", "Blitz battle in " + g_.map().id(n), "10.16");
    resolve_battle(n);
    return;
  }
  finish_tactical();
}

void Moscow41State::hoepner_road() {
  // 10.9: roll Hoepner's strength (weather applies), hits on 5-6; advance min(hits, blocks
  // with him, 3) boxes.
  const int hq = g_.block_index("HQ4Pg");
  if (hq < 0 || !block(hq).activated || hoepner_road_ < 0) return;
  int dice = strength(hq);
  if (weather_ == kRain)
    dice = std::min(dice, 1);
  else
    dice = german_weather_dice(dice, true);  // 8.0 Snow; OR 14.5 Blizzard (an attack)
  // OR 14.2: with Zhukov in the Leningrad box the 4th Panzer Gruppe fires Single Fire.
  const bool zhukov = zhukov_in_leningrad();
  const int hits = roll_hits(dice, zhukov ? kSingle : kDouble, "Hoepner on the Road to Leningrad",
                             std::string(zhukov ? "10.9, 14.2" : "10.9") + (blizzard_ ? ", 14.5" : ""));
  const int box = g_.road()[static_cast<size_t>(hoepner_road_)];
  std::vector<int> with;
  for (size_t b = 0; b < blocks_.size(); ++b)
    if (blocks_[b].loc == box && g_.blocks()[b].kind == Kind::kCombat && g_.blocks()[b].letter == 'L')
      with.push_back(static_cast<int>(b));
  int adv = std::min({hits, static_cast<int>(with.size()), 3});
  adv = std::min(adv, static_cast<int>(g_.road().size()) - 1 - hoepner_road_);
  if (adv <= 0) return;
  for (int k = 1; k <= adv; ++k)
    if (hoepner_road_ + k == g_.road_shlisselburg() && !shl_german_) {
      shl_german_ = true;  // 13.3.1: at once
      log("shlisselburg", "Shlisselburg taken: the western north border is cut", "13.3.1");
    }
  hoepner_road_ += adv;
  const int to = g_.road()[static_cast<size_t>(hoepner_road_)];
  bs(hq).loc = to;
  for (int b : with) bs(b).loc = to;
  as(to).control = kGerman;
  log("move", "Hoepner advances " + std::to_string(adv) + " boxes to " + g_.map().name(to), "10.9");
}

void Moscow41State::deactivate() {
  // 10.17: every activated HQ loses a step and is hidden; an exhausted one is destroyed.
  for (size_t i = 0; i < blocks_.size(); ++i) {
    const int b = static_cast<int>(i);
    if (!block(b).activated) continue;
    bs(b).activated = false;
    bs(b).revealed = false;
    log("deactivate", def(b).id + " deactivates", "10.17");
    reduce(b, false);
  }
}

int Moscow41State::air_range(int lw) const {
  // 10.10: Air Range = strength; Rain 1; Snow halved.
  const int s = strength(lw);
  if (s <= 0) return 0;
  if (weather_ == kRain) return 1;
  if (weather_ == kSnow) return std::max(1, s / 2);
  return s;
}

int Moscow41State::bombers_allowed(int lw) const { return air_range(lw); }  // same rule for the count

int Moscow41State::bombers_used(int lw) const {
  int n = 0;
  for (int i = 0; i < g_.bomber_count(); ++i)
    if (bomber_status_[static_cast<size_t>(i)] == kBomberCommitted && g_.bomber_fk(i) == def(lw).id) ++n;
  return n;
}

int Moscow41State::bombers_ready(int lw, bool stuka) const {
  int n = 0;
  for (int i = 0; i < g_.bomber_count(); ++i)
    if (bomber_status_[static_cast<size_t>(i)] == kBomberReady && g_.bomber_fk(i) == def(lw).id &&
        g_.bomber_is_stuka(i) == stuka)
      ++n;
  return n;
}

int Moscow41State::air_distance(int from, int to) const {
  // Air Range is traced through any area (10.10).
  std::vector<int> d(static_cast<size_t>(node_count()), -1);
  std::queue<int> q;
  d[static_cast<size_t>(from)] = 0;
  q.push(from);
  while (!q.empty()) {
    const int x = q.front();
    q.pop();
    if (x == to) return d[static_cast<size_t>(x)];
    for (int y : g_.adjacency()[static_cast<size_t>(x)])
      if (d[static_cast<size_t>(y)] < 0) {
        d[static_cast<size_t>(y)] = d[static_cast<size_t>(x)] + 1;
        q.push(y);
      }
  }
  return 1 << 20;
}

std::vector<int> Moscow41State::battle_bombers() const {
  std::vector<int> out;
  for (int i = 0; i < g_.bomber_count(); ++i)
    if (bomber_status_[static_cast<size_t>(i)] == kBomberCommitted &&
        bomber_area_[static_cast<size_t>(i)] == battle_.node)
      out.push_back(i);
  return out;
}

std::vector<std::vector<int>> Moscow41State::aa_choices() const {
  // 10.12.3: every hit is an Abort; the German converts two hits into one Destroyed result
  // or two Aborts. All the hits the committed bombers can take are taken. Bombers of one
  // Fliegerkorps and type are alike, so one choice per count of each kind: the first ones
  // of a kind destroyed, the next aborted (kVAa arguments: bomber * 2 + destroyed).
  std::vector<std::vector<int>> out;
  if (!aa_pending()) return out;
  std::vector<std::vector<int>> kinds;  // committed bombers by (Fliegerkorps, type)
  for (int i : battle_bombers()) {
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const std::vector<int>& k) {
      return g_.bomber_fk(k[0]) == g_.bomber_fk(i) && g_.bomber_is_stuka(k[0]) == g_.bomber_is_stuka(i);
    });
    if (it == kinds.end())
      kinds.push_back({i});
    else
      it->push_back(i);
  }
  std::vector<int> pick;
  std::function<void(size_t, int)> walk = [&](size_t k, int hits) {
    if (k == kinds.size()) {
      if (hits == 0) {
        std::vector<int> c = pick;
        std::sort(c.begin(), c.end());
        out.push_back(std::move(c));
      }
      return;
    }
    const auto& kind = kinds[k];
    const int n = static_cast<int>(kind.size());
    for (int d = 0; d <= n && 2 * d <= hits; ++d)
      for (int a = 0; d + a <= n && 2 * d + a <= hits; ++a) {
        const size_t mark = pick.size();
        for (int j = 0; j < d + a; ++j) pick.push_back(kind[static_cast<size_t>(j)] * 2 + (j < d ? 1 : 0));
        walk(k + 1, hits - 2 * d - a);
        pick.resize(mark);
      }
  };
  walk(0, battle_.aa_hits);
  return out;
}

Status Moscow41State::check_aa(const Action& a) const {
  // 10.12.3: the results must name committed bombers of this battle, each once, and take
  // exactly the AA hits waiting (2 per Destroyed, 1 per Abort).
  if (a.nargs < 1) return rule_error("", "malformed aa");
  const auto committed = battle_bombers();
  int hits = 0;
  for (int k = 0; k < a.nargs; ++k) {
    const int i = a.args[k] / 2;
    if (a.args[k] < 0 || std::find(committed.begin(), committed.end(), i) == committed.end())
      return rule_error("10.12.3", "only bombers committed to this battle take AA results");
    for (int j = 0; j < k; ++j)
      if (a.args[j] / 2 == i) return rule_error("10.12.3", "each bomber takes one result");
    hits += (a.args[k] % 2) != 0 ? 2 : 1;
  }
  if (hits != battle_.aa_hits)
    return rule_error("10.12.3", "the results must take exactly the " + std::to_string(battle_.aa_hits) +
                                     " AA hits (Destroyed 2, Abort 1)");
  // One notation per choice: bombers of one Fliegerkorps and type are alike, so the first
  // ones of each kind are named, the Destroyed before the Aborted.
  const std::vector<int> got(a.args.begin(), a.args.begin() + a.nargs);
  for (const auto& c : aa_choices())
    if (c == got) return Status::ok();
  return rule_error(
      "10.12.3",
      "bombers of one kind are alike: name the first ones of each kind (He111-1 before He111-2), "
      "the Destroyed before the Aborted");
}

void Moscow41State::apply_aa(const std::vector<int>& results) {
  // 10.12.3: Aborted bombers are back from the next (German) impulse, Destroyed ones in the
  // Final Phase (13.1).
  for (int r : results) {
    const int i = r / 2;
    const bool destroyed = (r % 2) != 0;
    bomber_status_[static_cast<size_t>(i)] = destroyed ? kBomberDestroyed : kBomberAborted;
    bomber_area_[static_cast<size_t>(i)] = -1;
    log("air", g_.bomber_id(i) + (destroyed ? " is destroyed by AA" : " aborts"), "10.12.3");
  }
  battle_.aa_hits = 0;
}

void Moscow41State::anti_air(int node) {
  const std::vector<int> committed = battle_bombers();
  if (committed.empty()) return;
  const int dfn = 1 - active_;
  // 10.12.3 AA: each defending unit rolls its strength at its own firepower (DL 1 die SF;
  // Stalin and exhausted HQs none); not affected by weather.
  int aa = 0;
  if (area(node).dl == dfn) aa += roll_hits(1, kSingle, "defensive line AA", "10.12.3");
  for (int b : pieces(dfn, node)) {
    if (def(b).kind == Kind::kLeader || def(b).kind == Kind::kLwHq) continue;
    aa += roll_hits(strength(b), def(b).fire[static_cast<size_t>(block(b).level)], def(b).id + " AA",
                    "10.12.3");
  }
  // Hits beyond two per bomber are lost; the German chooses how the others are converted
  // when there is more than one way ("aa destroy B... abort B..."), else it is done at once.
  battle_.aa_hits = std::min(aa, 2 * static_cast<int>(committed.size()));
  if (battle_.aa_hits == 0) return;
  const auto choices = aa_choices();
  if (choices.size() == 1) {
    apply_aa(choices[0]);
    return;
  }
  log("air",
      "the German converts " + std::to_string(battle_.aa_hits) + " AA hits into Aborted/Destroyed results",
      "10.12.3");
}

int Moscow41State::air_strike(int node) {
  // 10.12.4 Airstrike: each bomber that survived the AA rolls its Luftwaffe HQ's strength
  // (weather applies), then goes back to the OoB.
  int hits = 0;
  for (int i : battle_bombers()) {
    const int lw = g_.block_index(g_.bomber_fk(i));
    int dice = strength(lw);
    if (weather_ == kRain)
      dice = std::min(dice, 1);
    else
      dice = german_weather_dice(dice, true);  // 8.0 Snow; OR 14.5 Blizzard (an attack)
    hits += roll_hits(dice, g_.bomber_is_stuka(i) ? kTriple : kDouble,
                      g_.bomber_is_stuka(i) ? "Stuka" : "He-111", blizzard_ ? "10.12.4, 14.5" : "10.12.4");
    bomber_status_[static_cast<size_t>(i)] = kBomberReady;
    bomber_area_[static_cast<size_t>(i)] = -1;
    // 10.16: a Stuka that survived may follow a Fast block Blitzing out of this area.
    if (g_.bomber_is_stuka(i) && phase_ != Phase::kBlitz) bomber_struck_[static_cast<size_t>(i)] = node;
  }
  return hits;
}

int Moscow41State::stukas_to_follow(int node) const {
  // 10.16: Stukas (not He-111) that survived a battle of this impulse may follow a friendly
  // Fast block that Blitzed out of that battle's area into `node`, to support its battle.
  if (!is_area(node) || !contested(node) || area(node).contested_at_start || area(node).fought) return 0;
  int n = 0;
  for (int i = 0; i < g_.bomber_count(); ++i) {
    const int from = bomber_struck_[static_cast<size_t>(i)];
    if (!g_.bomber_is_stuka(i) || from < 0 || bomber_status_[static_cast<size_t>(i)] != kBomberReady)
      continue;
    for (const auto& [x, y] : blitz_moves_)
      if (x == from && y == node) {
        ++n;
        break;
      }
  }
  return n;
}

bool Moscow41State::blitz_hq_in_range(int b) const {
  // 10.16: within range of an activated, appropriate Blitz HQ (Zhukov, Guderian, Hoth;
  // Hoepner only on the map with the Typhoon/Last Gasp special rule).
  for (size_t h = 0; h < blocks_.size(); ++h) {
    const BlockDef& hd = g_.blocks()[h];
    if (hd.side != def(b).side || !blocks_[h].activated || !is_area(blocks_[h].loc)) continue;
    const bool blitz_hq = hd.blitz || (hd.id == "HQ4Pg" && hoepner_full_hq());  // on the map only
    if (!blitz_hq) continue;
    if (!(hd.id == "Zhukov" || def(b).colour == hd.colour || def(b).colour == "white" ||
          options_[kOptIgnoreColour] || blocks_[h].loc == block(b).loc))  // OR 14.1
      continue;
    const auto tr = tactical_range(static_cast<int>(h));
    if (std::find(tr.begin(), tr.end(), block(b).loc) != tr.end()) return true;
  }
  return false;
}

Status Moscow41State::check_blitz(int b, int node) const {
  const BlockDef& d = def(b);
  const BlockState& s = block(b);
  if (d.side != active_ || d.kind != Kind::kCombat || !d.fast)
    return rule_error("10.16", "only Fast Combat Blocks Blitz");
  if (!s.blitz || s.blitzed)
    return rule_error("10.16", "the block has not cleared a Green area this impulse");
  if (!is_area(s.loc) || !is_area(node)) return rule_error("10.16", "no Blitz in boxes or on the Road");
  const auto& adj = g_.adjacency()[static_cast<size_t>(s.loc)];
  if (!std::binary_search(adj.begin(), adj.end(), node))
    return rule_error("10.16", "a Blitz moves 1 MP only");
  if (ad(node).terrain != kGreen) return rule_error("10.16", "no Blitz into Yellow or Victory areas");
  if (area(node).contested_at_start || (contested(node) && !has_units(active_, node)))
    return rule_error("10.16", "no Blitz into an area contested when the Blitz Segment began");
  if (contested(node)) return rule_error("10.16", "no Blitz into a contested area");
  if (!blitz_hq_in_range(b)) return rule_error("10.16", "no activated Blitz HQ has the block in range");
  if (!stack_ok(d.side, node, 1)) return rule_error("2.7", "stacking limit exceeded");
  return Status::ok();
}

bool Moscow41State::any_blitz() const {
  if (weather_ != kSunny) return false;
  for (size_t b = 0; b < blocks_.size(); ++b) {
    if (!blocks_[b].blitz || blocks_[b].blitzed || g_.blocks()[b].side != active_ || !is_area(blocks_[b].loc))
      continue;
    for (int y : g_.adjacency()[static_cast<size_t>(blocks_[b].loc)])
      if (check_blitz(static_cast<int>(b), y).is_ok()) return true;
  }
  return false;
}

bool Moscow41State::initiative_spendable(int side) const {
  if (initiative_ != side) return false;
  if (initiative_limit_ == "once_per_game" && initiative_uses_[side] >= 1) return false;  // Scenario 1
  return !(initiative_limit_ == "once_per_month" && initiative_spent_this_turn_[side]);   // Scenario 3
}

bool Moscow41State::can_exploit() const {
  // 10.18: after a TI, by spending the Initiative; Germans in good weather only, Soviets
  // in good weather or Snow.
  if (!initiative_spendable(active_)) return false;
  if (active_ == kGerman) return weather_ == kSunny;
  return weather_ != kRain;
}

void Moscow41State::finish_tactical() {
  deactivate();
  for (auto& s : blocks_) s.blitz = false, s.blitzed = false, s.acted = false;
  if (can_exploit()) {
    // 6.0: the Isolation Check comes before the Exploitation Movement, so an exploiting
    // block cannot rescue a cut-off one from its attrition (end_impulse skips it then).
    isolation_check(active_);
    update_victory();
    if (phase_ == Phase::kOver) return;
    phase_ = Phase::kExploit;
    exploiting_ = false;
    return;
  }
  end_impulse();
}

bool Moscow41State::mandatory_battles_left() const {
  // 10.11: a battle is mandatory in an area newly contested this impulse.
  for (int n = 0; n < g_.map().area_count(); ++n) {
    if (!contested(n) || area(n).contested_at_start || area(n).fought) continue;
    for (int b : pieces(active_, n))
      if (!block(b).isolated) return true;
  }
  return false;
}

// ----------------------------------------------------------------------------------------
// Actions
namespace {
Action make(uint16_t verb, std::initializer_list<int> args = {}) {
  Action a;
  a.verb = verb;
  for (int x : args) a.push(x);
  return a;
}
}  // namespace

void Moscow41State::legal_actions(std::vector<Action>& out) const {
  out.clear();
  if (phase_ == Phase::kOver) return;
  std::vector<Action> cand;
  auto add_moves = [&](uint16_t verb, int b, bool engage, bool hq_act) {
    // The destinations come from reachable(), so one check() of the block's other
    // conditions stands for all of them (check_move would accept each).
    bool first = true;
    for (const auto& p : reachable(b, engage, hq_act)) {
      Action a;
      a.verb = verb;
      a.push(b);
      a.push(p.back());
      if (first && !check(a).is_ok()) return;
      first = false;
      out.push_back(a);
    }
    if (first || (verb != kVMove && verb != kVActivate)) return;
    for (const auto& p : route_choices(b, engage)) {  // 10.8: routes with other effects
      Action r;
      r.verb = verb;
      r.push(b);
      for (int n : p) r.push(n);
      out.push_back(r);
    }
  };
  auto add_recalls = [&](int b) {  // OR 14.2
    if (!options_[kOptZhukovHoepner] || block(b).loc < 0 || is_area(block(b).loc)) return;
    if (!(def(b).letter == 'L' || def(b).id == "Zhukov")) return;
    for (int n = 0; n < g_.map().area_count(); ++n) cand.push_back(make(kVRecall, {b, n}));
  };
  auto add_rails = [&](int b) {  // OR 14.4: the block's conditions once, then each destination
    if (!options_[kOptRail]) return;
    const auto dests = rail_destinations(b);
    if (dests.empty() || !check_rail(b, dests[0]).is_ok()) return;
    for (int n : dests) out.push_back(make(kVRail, {b, n}));
  };
  auto add_dls = [&](int b) {  // 4.1: with every beam in use, one build per DL to take up
    if (!all_dls_in_use(def(b).side)) {
      cand.push_back(make(kVBuildDl, {b}));
      return;
    }
    for (int n = 0; n < g_.map().area_count(); ++n)
      if (area(n).dl == def(b).side) cand.push_back(make(kVBuildDl, {b, n}));
  };
  const int nb = static_cast<int>(blocks_.size());
  if (aa_pending()) {  // 10.12.3
    for (const auto& c : aa_choices()) {
      Action x;
      x.verb = kVAa;
      for (int r : c) x.push(r);
      out.push_back(x);
    }
    return;
  }
  if (loss_pending()) {
    for (int b : loss_choices()) cand.push_back(make(kVHit, {b}));
    for (const auto& a : cand)
      if (check(a).is_ok()) out.push_back(a);
    return;
  }
  switch (phase_) {
    case Phase::kSetup: {
      // Scenario Setup: each waiting block in each area its step allows; the DLs are alike,
      // so one action per area any of them may take; then the automatic rest.
      std::vector<int> dl_sites;
      for (const SetupPiece& p : setup_) {
        if (p.side != active_) continue;
        const auto sites = setup_sites(p);
        if (p.block < 0) {
          dl_sites.insert(dl_sites.end(), sites.begin(), sites.end());
          continue;
        }
        for (int n : sites) out.push_back(make(kVSetup, {p.block, n}));
      }
      std::sort(dl_sites.begin(), dl_sites.end());
      dl_sites.erase(std::unique(dl_sites.begin(), dl_sites.end()), dl_sites.end());
      for (int n : dl_sites) out.push_back(make(kVSetupDl, {n}));
      out.push_back(make(kVSetupAuto));
      return;
    }
    case Phase::kReplace:
      for (int b = 0; b < nb; ++b)
        if (def(b).side == active_) cand.push_back(make(kVStep, {b}));
      cand.push_back(make(kVEndCombat));
      break;
    case Phase::kDeploy:
      for (int b = 0; b < nb; ++b)
        if (def(b).side == active_ && block(b).loc == kLocDrawn)
          for (int n : deploy_sites(b)) cand.push_back(make(kVPlace, {b, n}));
      break;
    case Phase::kLogistics:
      cand.push_back(make(kVLogPause));
      cand.push_back(make(kVLogActivate));
      break;
    case Phase::kImpulse:
      // 3.0: the impulse is first one of three choices (Tactical, Strategic, Pass); the
      // Pass's one block move or DL comes after, in its own Command Segment (6.0, 12.0).
      cand.push_back(make(kVPass));
      cand.push_back(make(kVTactical));
      cand.push_back(make(kVStrategic));
      cand.push_back(make(kVReinforce));
      break;
    case Phase::kActivation:
      for (int b = 0; b < nb; ++b) {
        if (def(b).side != active_ || !def(b).is_hq() || block(b).activated) continue;
        cand.push_back(make(kVActivate, {b}));
        if (!block(b).isolated) add_moves(kVActivate, b, false, true);
      }
      cand.push_back(make(kVEndActivation));
      break;
    case Phase::kCommand:
      if (impulse_ == ImpulseKind::kPass) {  // 12.0: one block moves (no engaging) or builds a DL
        for (int b = 0; b < nb; ++b) {
          if (def(b).side == active_) add_recalls(b);
          if (def(b).side != active_ || !is_area(block(b).loc) || block(b).isolated) continue;
          add_moves(kVMove, b, false, false);
          add_dls(b);
          add_rails(b);
        }
        cand.push_back(make(kVEndCombat));
        break;
      }
      for (int b = 0; b < nb; ++b) {
        // 10.4: an activated HQ places its artillery marker whatever else it did (its
        // activation already counts as its action, 10.1).
        if (def(b).side == active_ && block(b).activated && def(b).kind == Kind::kHq && is_area(block(b).loc))
          for (int y : g_.adjacency()[static_cast<size_t>(block(b).loc)])
            cand.push_back(make(kVArtillery, {b, y}));
        if (def(b).side != active_ || block(b).acted || block(b).isolated) continue;
        add_moves(kVMove, b, true, false);
        add_dls(b);
        if (impulse_ == ImpulseKind::kStrategic) {
          add_rails(b);
          add_recalls(b);
        }
      }
      for (int b = 0; b < nb; ++b) {
        if (def(b).side != active_ || def(b).kind != Kind::kLwHq || !block(b).activated) continue;
        const int room = bombers_allowed(b) - bombers_used(b);
        const int he = bombers_ready(b, false), st = bombers_ready(b, true);
        for (int n = 0; n < g_.map().area_count() && room > 0; ++n) {
          if (!contested(n) || air_distance(block(b).loc, n) > air_range(b)) continue;
          for (int h = 0; h <= std::min(he, room); ++h)
            for (int k = 0; k <= std::min(st, room - h); ++k)
              if (h + k > 0) cand.push_back(make(kVAir, {b, n, h, k}));
        }
      }
      cand.push_back(make(kVEndCommands));
      break;
    case Phase::kCombat:
      for (int n = 0; n < g_.map().area_count(); ++n) cand.push_back(make(kVBattle, {n}));
      cand.push_back(make(kVEndCombat));
      break;
    case Phase::kBlitz:
      for (int b = 0; b < nb; ++b) {
        if (!block(b).blitz || block(b).blitzed || !is_area(block(b).loc)) continue;
        for (int y : g_.adjacency()[static_cast<size_t>(block(b).loc)]) cand.push_back(make(kVBlitz, {b, y}));
      }
      for (const auto& [x, y] : blitz_moves_) {  // 10.16: Stukas following (once per area)
        (void)x;
        const int n = stukas_to_follow(y);
        bool seen = false;
        for (const auto& o : cand) seen = seen || (o.verb == kVStuka && o.args[0] == y);
        for (int k = 1; k <= n && !seen; ++k) cand.push_back(make(kVStuka, {y, k}));
      }
      cand.push_back(make(kVEndCombat));
      break;
    case Phase::kExploit:
      if (!exploiting_) {
        cand.push_back(make(kVExploit));
      } else {
        for (int b = 0; b < nb; ++b)
          if (def(b).side == active_ && def(b).fast && !block(b).acted && !block(b).isolated)
            add_moves(kVMove, b, false, false);
      }
      cand.push_back(make(kVEndCombat));
      break;
    case Phase::kOver:
      break;
  }
  for (const auto& a : cand)
    if (check(a).is_ok()) out.push_back(a);
}

Status Moscow41State::check(const Action& a) const {
  if (phase_ == Phase::kOver) return rule_error("1.7", "the game is over");
  const int nb = static_cast<int>(blocks_.size());
  auto block_arg = [&](int i) { return i < a.nargs && a.args[i] >= 0 && a.args[i] < nb ? a.args[i] : -1; };
  auto own = [&](int b) { return b >= 0 && def(b).side == active_; };
  switch (a.verb) {  // arity
    case kVLogPause:
    case kVLogActivate:
    case kVTactical:
    case kVStrategic:
    case kVReinforce:
    case kVEndActivation:
    case kVEndCommands:
    case kVEndCombat:
    case kVExploit:
    case kVSetupAuto:
      if (a.nargs != 0) return rule_error("", "this action takes no arguments");
      break;
    default:
      break;
  }
  const bool setup_verb = a.verb == kVSetup || a.verb == kVSetupDl || a.verb == kVSetupAuto;
  if (phase_ == Phase::kSetup) {
    // Scenario Setup: nothing else happens until both sides have placed their pieces, the
    // Soviets first (the player without the Initiative sets up first).
    if (!setup_verb)
      return rule_error("Scenario Setup",
                        std::string("the Scenario Setup is not finished: the ") + side_name(active_) +
                            " has " + std::to_string(setup_left(active_)) +
                            " pieces to set up (setup BLOCK AREA, setup dl AREA, setup auto)");
    return check_setup(a);
  }
  if (setup_verb) return rule_error("Scenario Setup", "the Scenario Setup is over");
  if (loss_pending()) {
    // 10.14.1: the battle waits for the owner to say which equally strong block is hit.
    if (a.verb != kVHit)
      return rule_error("10.14.1", std::string(side_name(battle_.loss_side)) +
                                       " must first choose which block takes the hit");
    const int b = block_arg(0);
    if (a.nargs != 1 || b < 0) return rule_error("", "malformed hit");
    const auto choices = loss_choices();
    if (std::find(choices.begin(), choices.end(), b) == choices.end())
      return rule_error("10.14.1", def(b).id + " is not one of the strongest blocks in the battle");
    return Status::ok();
  }
  if (aa_pending()) {
    // 10.12.3: the battle waits for the German to convert the AA hits.
    if (a.verb != kVAa) return rule_error("10.12.3", "the German must first convert the AA hits (aa ...)");
    return check_aa(a);
  }
  switch (a.verb) {
    case kVAa:
      return rule_error("10.12.3", "no AA hits are waiting to be converted");
    case kVStuka: {  // 10.16
      if (phase_ != Phase::kBlitz) return rule_error("10.16", "Stukas follow Blitzes in the Blitz Segment");
      if (a.nargs != 2 || a.args[0] < 0 || a.args[0] >= node_count() || a.args[1] < 1)
        return rule_error("", "malformed stuka");
      if (a.args[1] > stukas_to_follow(a.args[0]))
        return rule_error("10.16",
                          "only Stukas that survived a battle follow a Fast block Blitzing out of it");
      return Status::ok();
    }
    case kVLogPause:
    case kVLogActivate:
      if (phase_ != Phase::kLogistics) return rule_error("7.0", "not in the Logistics Phase");
      return Status::ok();
    case kVPass:
      if (phase_ != Phase::kImpulse) return rule_error("6.0", "a Pass is chosen at the start of an impulse");
      // The block a Pass moves is chosen in the Pass's Command Segment (move / dl / end).
      return a.nargs == 0 ? Status::ok()
                          : rule_error("12.0", "'pass' takes no arguments; move or dl after it");
    case kVTactical: {
      if (phase_ != Phase::kImpulse) return rule_error("6.0", "not at the start of an impulse");
      for (int b = 0; b < nb; ++b)
        if (own(b) && def(b).kind == Kind::kHq &&
            (is_area(block(b).loc) || block(b).loc == g_.road()[0] ||
             (hoepner_road_ >= 0 && def(b).id == "HQ4Pg")))
          if (in_supply_area(active_, block(b).loc)) return Status::ok();
      return rule_error("10.0", "a Tactical Impulse needs a Tactical HQ that can be activated");
    }
    case kVStrategic:
    case kVReinforce:
      if (phase_ != Phase::kImpulse) return rule_error("6.0", "not at the start of an impulse");
      if (initiative_ != active_) return rule_error("11.0", "a Strategic Impulse spends the Initiative Disc");
      if (initiative_limit_ == "once_per_game" && initiative_uses_[active_] >= 1)
        return rule_error("Scenario 1", "the Initiative Disc may be used only once in this scenario");
      if (initiative_limit_ == "once_per_month" && initiative_spent_this_turn_[active_])
        return rule_error("Scenario 3", "the Initiative Disc may be used only once per month");
      return Status::ok();
    case kVActivate: {
      if (phase_ != Phase::kActivation)
        return rule_error("10.1", "HQs are activated in the Activation Segment");
      const int b = block_arg(0);
      if (!own(b) || !def(b).is_hq()) return rule_error("10.1", "only your own HQs are activated");
      if (block(b).activated) return rule_error("10.1", "that HQ is already activated");
      if (block(b).isolated) return rule_error("9.1", "isolated HQs cannot be activated");
      const bool on_road = def(b).id == "HQ4Pg" && hoepner_road_ >= 0 &&
                           block(b).loc == g_.road()[static_cast<size_t>(hoepner_road_)];
      if (def(b).kind == Kind::kLwHq) {
        bool tactical = false;
        for (int h = 0; h < nb; ++h)
          tactical = tactical || (own(h) && block(h).activated && def(h).kind == Kind::kHq);
        if (!tactical) return rule_error("10.0", "a Luftwaffe HQ is activated only after a Tactical HQ");
        if (strength(b) <= 0) return rule_error("10.5", "an exhausted Luftwaffe HQ cannot be activated");
      }
      if (on_road) return a.nargs == 1 ? Status::ok() : rule_error("10.9", "Hoepner cannot leave the Road");
      if (!is_area(block(b).loc)) return rule_error("10.1", "HQs cannot be activated in boxes");
      if (a.nargs == 1) {
        if (has_units(1 - active_, block(b).loc))
          return rule_error("10.1", "an HQ cannot be revealed in an area with enemy units");
        return Status::ok();
      }
      // 10.1, 2.5: "activate HQ DEST" follows the cheapest route; "activate HQ A1 ... DEST"
      // names the areas entered (which empty enemy areas it takes), as a move does (10.8).
      return check_move_action(a, false, true);
    }
    case kVEndActivation: {
      if (phase_ != Phase::kActivation) return rule_error("10.1", "not in the Activation Segment");
      for (int h = 0; h < nb; ++h)
        if (own(h) && block(h).activated && def(h).kind == Kind::kHq) return Status::ok();
      return rule_error("10.0", "a Tactical Impulse must activate at least one Tactical HQ");
    }
    case kVMove:
    case kVBuildDl: {
      if (phase_ == Phase::kExploit) {
        // 10.18: up to LV non-isolated Fast blocks (HQs included); no engaging, no DLs.
        const int b = block_arg(0);
        if (!exploiting_) return rule_error("10.18", "spend the Initiative first (exploit)");
        if (a.verb == kVBuildDl) return rule_error("10.18", "no Defensive Lines in an Exploitation Move");
        if (!own(b) || !def(b).fast) return rule_error("10.18", "only your Fast blocks exploit");
        if (block(b).acted) return rule_error("10.7", "each block moves once");
        if (block(b).isolated) return rule_error("9.1", "isolated blocks cannot move");
        if (actions_left_ <= 0) return rule_error("10.18", "no more than LV blocks exploit");
        return check_move_action(a, false);
      }
      if (phase_ != Phase::kCommand) return rule_error("10.7", "blocks act in the Command Segment");
      const int b = block_arg(0);
      if (!own(b)) return rule_error("10.7", "not one of your blocks");
      if (block(b).acted) return rule_error("10.7", "each block performs one action");
      if (block(b).isolated) return rule_error("9.1", "isolated blocks cannot act");
      if (impulse_ == ImpulseKind::kPass) {
        // 12.0: one block, up to its full MP, without engaging (disengaging allowed); or a
        // Combat Block reduced to build a DL. Boxes are left only by their own rules.
        if (!is_area(block(b).loc)) return rule_error("12.0", "a Pass moves a block on the map");
        if (a.verb == kVBuildDl) return check_dl(a);
        return check_move_action(a, false);
      }
      if (impulse_ == ImpulseKind::kTactical && !commanded(b))
        return rule_error("10.3", def(b).id + " is not in the Tactical Range of an appropriate activated HQ");
      if (impulse_ == ImpulseKind::kStrategic && actions_left_ <= 0)
        return rule_error("11.0", "no more than LV blocks act in a Strategic Impulse");
      if (a.verb == kVBuildDl) return check_dl(a);
      return check_move_action(a, true);
    }
    case kVArtillery: {
      if (phase_ != Phase::kCommand || impulse_ != ImpulseKind::kTactical)
        return rule_error("10.4", "artillery markers are placed by activated HQs in a Tactical Impulse");
      const int b = block_arg(0);
      if (!own(b) || def(b).kind != Kind::kHq || !block(b).activated)
        return rule_error("10.4", "only an activated Tactical HQ gives Artillery Fire");
      if (def(b).id == "HQ4Pg" && !hoepner_full_hq())
        return rule_error("10.2", "Hoepner has no artillery (scenarios 2-3 and OR 14.2 give him one)");
      if (strength(b) <= 0) return rule_error("10.5", "exhausted HQs have no artillery");
      if (a.nargs != 2 || !is_area(a.args[1])) return rule_error("10.4", "malformed artillery");
      const auto& adj = g_.adjacency()[static_cast<size_t>(block(b).loc)];
      if (!std::binary_search(adj.begin(), adj.end(), a.args[1]))
        return rule_error("10.4", "artillery fires only into an adjacent area");
      if (!contested(a.args[1]))
        return rule_error("10.4", "artillery fires into an area with units of both players");
      for (const auto& ar : areas_)
        if (ar.artillery == b) return rule_error("10.2", "an HQ supports one battle only");
      if (area(a.args[1]).artillery >= 0)
        return rule_error("10.4", "that area already has an artillery marker");
      return Status::ok();
    }
    case kVEndCommands:
      if (phase_ != Phase::kCommand) return rule_error("10.7", "not in the Command Segment");
      if (impulse_ == ImpulseKind::kPass) return rule_error("12.0", "no Combat in a Pass ('end' ends it)");
      return Status::ok();
    case kVAir: {
      if (phase_ != Phase::kCommand || impulse_ != ImpulseKind::kTactical)
        return rule_error("10.10",
                          "bombers are committed by an activated Luftwaffe HQ in a Tactical Impulse");
      if (a.nargs != 4) return rule_error("", "malformed air mission");
      const int b = block_arg(0);
      if (!own(b) || def(b).kind != Kind::kLwHq || !block(b).activated)
        return rule_error("10.10", "only an activated Luftwaffe HQ commits bombers");
      const int n = a.args[1], he = a.args[2], st = a.args[3];
      if (!is_area(n) || !contested(n)) return rule_error("10.10", "bombers strike only contested areas");
      if (he < 0 || st < 0 || he + st <= 0) return rule_error("", "malformed air mission");
      if (air_distance(block(b).loc, n) > air_range(b))
        return rule_error("10.10", "the area is beyond Air Range");
      if (bombers_used(b) + he + st > bombers_allowed(b))
        return rule_error("10.10", "a Luftwaffe HQ commits at most its strength in bombers");
      if (st > bombers_ready(b, true))
        return rule_error("10.10.1", "Stukas are called only by the 8th Fliegerkorps, and only if available");
      if (he > bombers_ready(b, false)) return rule_error("10.10.1", "not enough He-111s available");
      return Status::ok();
    }
    case kVBattle: {
      if (phase_ != Phase::kCombat) return rule_error("10.11", "battles are fought in the Combat Segment");
      if (a.nargs != 1 || !is_area(a.args[0])) return rule_error("10.11", "malformed battle");
      const int n = a.args[0];
      if (!contested(n)) return rule_error("10.11", "a battle needs units of both players in the area");
      if (area(n).fought) return rule_error("10.15", "each battle lasts one round per impulse");
      for (int b : pieces(active_, n))
        if (!block(b).isolated) return Status::ok();
      return rule_error("10.11", "isolated blocks and DLs cannot attack");
    }
    case kVRecall:  // OR 14.2
      if (a.nargs != 2 || block_arg(0) < 0 || a.args[1] < 0 || a.args[1] >= node_count())
        return rule_error("", "malformed recall");
      return check_recall(a.args[0], a.args[1]);
    case kVRail:  // OR 14.4
      if (a.nargs != 2 || block_arg(0) < 0 || a.args[1] < 0 || a.args[1] >= node_count())
        return rule_error("", "malformed rail");
      return check_rail(a.args[0], a.args[1]);
    case kVBlitz:
      if (phase_ != Phase::kBlitz) return rule_error("10.16", "Blitz moves are made in the Blitz Segment");
      if (a.nargs != 2 || block_arg(0) < 0) return rule_error("", "malformed blitz");
      return check_blitz(a.args[0], a.args[1]);
    case kVExploit:
      if (phase_ != Phase::kExploit || exploiting_) return rule_error("10.18", "no Exploitation Move now");
      return Status::ok();
    case kVHit:
      return rule_error("10.14.1", "no hits are waiting to be allocated");
    case kVStep:
      if (phase_ != Phase::kReplace)
        return rule_error("7.2.2",
                          "steps are replaced only in a Leader Activation, before the reinforcements");
      if (a.nargs != 1 || block_arg(0) < 0) return rule_error("", "malformed step");
      return check_step(a.args[0]);
    case kVPlace: {
      if (phase_ != Phase::kDeploy) return rule_error("5.0", "no reinforcement is waiting to be placed");
      const int b = block_arg(0);
      if (a.nargs != 2 || b < 0 || a.args[1] < 0 || a.args[1] >= node_count())
        return rule_error("", "malformed place");
      if (!own(b) || block(b).loc != kLocDrawn)
        return rule_error("5.0", def(b).id + " is not a drawn reinforcement of yours");
      const auto sites = deploy_sites(b);
      if (!std::binary_search(sites.begin(), sites.end(), a.args[1]))
        return rule_error(
            "5.0", def(b).id + " cannot enter " + g_.map().id(a.args[1]) +
                       (def(b).side == kGerman ? " (its Staging Areas, or Hoepner's box for L blocks)"
                                               : " (a friendly, uncontested, supplied city or Victory "
                                                 "Area, one reinforcement per area, no overstacking)"));
      return Status::ok();
    }
    case kVEndCombat:
      if (phase_ == Phase::kBlitz || phase_ == Phase::kExploit || phase_ == Phase::kReplace)
        return Status::ok();
      if (phase_ == Phase::kCommand && impulse_ == ImpulseKind::kPass) return Status::ok();  // 12.0
      if (phase_ != Phase::kCombat) return rule_error("10.11", "not in the Combat Segment");
      if (mandatory_battles_left())
        return rule_error("10.11", "battles in newly contested areas are mandatory");
      return Status::ok();
    default:
      return rule_error("", "unknown action");
  }
}

void Moscow41State::do_apply(const Action& a) {
  switch (a.verb) {
    case kVSetup:
    case kVSetupDl:  // Scenario Setup
      place_setup_piece(static_cast<size_t>(setup_piece_for(a)), a.args[a.nargs - 1]);
      settle_setup();
      return;
    case kVSetupAuto:
      log("setup",
          std::string(side_name(active_)) + " sets up the remaining " + std::to_string(setup_left(active_)) +
              " pieces automatically",
          "Scenario Setup");
      setup_auto(active_);
      settle_setup();
      return;
    case kVLogPause:
    case kVLogActivate:
      logistics(active_, a.verb == kVLogActivate);
      break;
    case kVStep: {  // 7.2.2
      const int b = a.args[0];
      const int cost = def(b).cost[static_cast<size_t>(block(b).level - 1)];
      (def(b).is_hq() ? regen_left_ : repl_left_) -= cost;
      --bs(b).level;
      log_hidden(active_, "logistics",
                 def(b).id + " regains a step (" + std::to_string(cost) +
                     (def(b).is_hq() ? " Regeneration" : " Replacement") + " Point" + (cost > 1 ? "s" : "") +
                     ")",
                 std::string(side_name(active_)) + " replaces a step", "7.2.2");
      break;
    }
    case kVPlace: {  // 5.0
      const int b = a.args[0], n = a.args[1];
      bs(b).loc = n;
      bs(b).level = def(b).remnant ? def(b).min_level() : 0;  // 11.0: Soviet Remnants at minimum
      bs(b).acted = true;  // marks "placed this phase" for the one-per-area rule
      // OR 14.2: only Zhukov may stand in the Leningrad box, so there he is known.
      bs(b).revealed = !is_area(n);
      log_hidden(active_, "reinforce", def(b).id + " arrives in " + g_.map().id(n),
                 std::string(side_name(active_)) + " reinforcement arrives in " + g_.map().id(n), "5.0");
      settle_deploy();
      break;
    }
    case kVHit: {  // 10.14.1: the owner's choice among equally strong blocks
      const int b = a.args[0];
      log("combat", def(b).id + " takes a hit", "10.14.1");
      reduce(b, false);
      --battle_.loss_hits;
      if (allocate_hits()) advance_battle();
      break;
    }
    case kVPass:
      // 6.0: Bad Weather and Supply Checks first, then the Command Segment (12.0).
      start_impulse(ImpulseKind::kPass);
      log("impulse", std::string(side_name(active_)) + " passes", "12.0");
      phase_ = Phase::kCommand;
      break;
    case kVTactical:
      start_impulse(ImpulseKind::kTactical);
      phase_ = Phase::kActivation;
      log("impulse", std::string(side_name(active_)) + " plays a Tactical Impulse", "10.0");
      break;
    case kVStrategic:
    case kVReinforce: {
      start_impulse(a.verb == kVStrategic ? ImpulseKind::kStrategic : ImpulseKind::kStrategicReinforce);
      const int lv = logistics_value(active_);
      ++initiative_uses_[active_];
      initiative_spent_this_turn_[active_] = true;
      initiative_ = 1 - active_;  // 3.2.1, 11.0: the disc passes to the other player
      // 7.2.1: the LV counts the non-exhausted HQs, which the enemy may not know (1.5):
      // only the owner reads it.
      const std::string si =
          std::string(side_name(active_)) + " spends the Initiative on a Strategic Impulse";
      log_hidden(active_, "impulse", si + ", LV " + std::to_string(lv), si, "11.0");
      if (a.verb == kVStrategic) {
        actions_left_ = lv;
        phase_ = Phase::kCommand;
      } else {
        draw_reinforcements(lv);  // 5.0: placed by the owner ("place B AREA"), then Combat
      }
      break;
    }
    case kVActivate: {
      const int b = a.args[0];
      if (a.nargs == 2) follow(b, a.args[1], false, true);
      if (a.nargs > 2) move_block(b, &a.args[1], a.nargs - 1);  // the route the owner named
      bs(b).activated = bs(b).revealed = bs(b).acted = true;
      log("activate", def(b).id + " is activated and revealed in " + g_.map().id(block(b).loc), "10.1", true);
      break;
    }
    case kVEndActivation:
      phase_ = Phase::kCommand;
      break;
    case kVMove: {
      const bool pass = impulse_ == ImpulseKind::kPass && phase_ == Phase::kCommand;
      if (a.nargs == 2)
        follow(a.args[0], a.args[1], phase_ != Phase::kExploit && !pass, false);
      else
        move_block(a.args[0], &a.args[1], a.nargs - 1);  // the route the owner named
      bs(a.args[0]).acted = true;
      if (impulse_ == ImpulseKind::kStrategic || phase_ == Phase::kExploit) --actions_left_;
      log_hidden(
          active_, "move", def(a.args[0]).id + " moves to " + g_.map().id(block(a.args[0]).loc),
          std::string("a ") + side_name(active_) + " block moves to " + g_.map().id(block(a.args[0]).loc),
          pass ? "12.0" : "10.8");
      if (pass) end_impulse();  // 12.0: a Pass moves at most one block, and has no combat
      break;
    }
    case kVAa: {  // 10.12.3
      apply_aa(std::vector<int>(a.args.begin(), a.args.begin() + a.nargs));
      advance_battle();
      break;
    }
    case kVStuka: {  // 10.16
      int left = a.args[1];
      for (int i = 0; i < g_.bomber_count() && left > 0; ++i) {
        const int from = bomber_struck_[static_cast<size_t>(i)];
        if (!g_.bomber_is_stuka(i) || from < 0 || bomber_status_[static_cast<size_t>(i)] != kBomberReady)
          continue;
        if (std::find(blitz_moves_.begin(), blitz_moves_.end(), std::make_pair(from, a.args[0])) ==
            blitz_moves_.end())
          continue;
        bomber_status_[static_cast<size_t>(i)] = kBomberCommitted;
        bomber_area_[static_cast<size_t>(i)] = a.args[0];
        bomber_struck_[static_cast<size_t>(i)] = -1;
        --left;
      }
      log("air", std::to_string(a.args[1]) + " Stuka follow the Blitz into " + g_.map().id(a.args[0]),
          "10.16");
      break;
    }
    case kVRecall: {  // OR 14.2
      const int b = a.args[0], n = a.args[1];
      const bool pass = impulse_ == ImpulseKind::kPass;
      const std::string from = g_.map().id(block(b).loc);
      if (def(b).side == kGerman) {
        called_off_ = true;  // never back to the Road
        if (def(b).id == "HQ4Pg") hoepner_road_ = -1;
        log_hidden(
            active_, "move", def(b).id + " leaves the Road to Leningrad (" + from + ") for " + g_.map().id(n),
            "a 4th Panzer Gruppe block leaves the Road to Leningrad (" + from + ") for " + g_.map().id(n),
            "14.2");
      } else {
        zhukov_recalled_ = true;  // he regains his powers and never returns
        log("move", "Zhukov is recalled from Leningrad to " + g_.map().id(n), "14.2");
      }
      bs(b).loc = n;
      bs(b).acted = true;
      if (impulse_ == ImpulseKind::kStrategic) --actions_left_;
      if (pass) end_impulse();  // 12.0: the Pass's one block
      break;
    }
    case kVRail: {  // OR 14.4
      const int b = a.args[0];
      const bool pass = impulse_ == ImpulseKind::kPass;
      const int from = block(b).loc;
      bs(b).loc = a.args[1];  // only to friendly areas: no control changes there (2.5)
      settle_control(from);   // 2.5: leaving may leave the enemy alone
      bs(b).acted = true;
      if (impulse_ == ImpulseKind::kStrategic) --actions_left_;
      log_hidden(active_, "move", def(b).id + " rail-moves to " + g_.map().id(a.args[1]),
                 std::string("a ") + side_name(active_) + " block rail-moves to " + g_.map().id(a.args[1]),
                 "14.4");
      if (pass) end_impulse();  // 12.0, OR 14.4: a Pass Rail-moves one block
      break;
    }
    case kVBuildDl:
      if (a.nargs > 1) {  // 4.1: the DL named is taken up to build this one
        as(a.args[1]).dl = kNoSide;
        log("dl", "a Defensive Line in " + g_.map().id(a.args[1]) + " is disbanded", "4.1");
        settle_control(a.args[1]);  // 2.5
      }
      bs(a.args[0]).level++;
      bs(a.args[0]).acted = true;
      as(block(a.args[0]).loc).dl = active_;
      if (impulse_ == ImpulseKind::kStrategic) --actions_left_;
      log("dl", "a Defensive Line is built in " + g_.map().id(block(a.args[0]).loc), "4.1");
      if (impulse_ == ImpulseKind::kPass) end_impulse();  // 12.0: instead of the one move
      break;
    case kVAir: {
      int he = a.args[2], st = a.args[3];
      for (int i = 0; i < g_.bomber_count(); ++i) {
        if (bomber_status_[static_cast<size_t>(i)] != kBomberReady || g_.bomber_fk(i) != def(a.args[0]).id)
          continue;
        int& left = g_.bomber_is_stuka(i) ? st : he;
        if (left <= 0) continue;
        --left;
        bomber_status_[static_cast<size_t>(i)] = kBomberCommitted;
        bomber_area_[static_cast<size_t>(i)] = a.args[1];
      }
      log("air",
          def(a.args[0]).id + " sends " + std::to_string(a.args[2]) + " He-111 and " +
              std::to_string(a.args[3]) + " Stuka to " + g_.map().id(a.args[1]),
          "10.10");
      break;
    }
    case kVArtillery:
      as(a.args[1]).artillery = a.args[0];
      log("artillery", def(a.args[0]).id + " places its artillery marker in " + g_.map().id(a.args[1]),
          "10.4");
      break;
    case kVEndCommands:
      phase_ = Phase::kCombat;
      if (impulse_ == ImpulseKind::kTactical) hoepner_road();
      break;
    case kVBattle:
      resolve_battle(a.args[0]);
      break;
    case kVEndCombat:
      if (phase_ == Phase::kReplace) {  // 7.2: points not spent are lost; the draw follows
        draw_reinforcements(draws_left_);
      } else if (phase_ == Phase::kCombat && impulse_ == ImpulseKind::kTactical) {
        if (any_blitz()) {
          phase_ = Phase::kBlitz;  // 10.16
          for (int n = 0; n < node_count(); ++n) as(n).contested_at_start = contested(n);
          for (auto& ar : areas_) ar.fought = false, ar.artillery = -1;
        } else {
          finish_tactical();
        }
      } else if (phase_ == Phase::kBlitz) {
        next_blitz_battle();  // 10.16; then Deactivation (10.17)
      } else {
        if (impulse_ == ImpulseKind::kTactical && phase_ == Phase::kCombat) deactivate();
        end_impulse();
      }
      break;
    case kVBlitz: {
      const int b = a.args[0], n = a.args[1];
      bs(b).blitzed = true;
      bs(b).blitz = false;
      blitz_moves_.emplace_back(block(b).loc, n);  // 10.16: Stukas may follow
      const int32_t one[1] = {n};
      move_block(b, one, 1);
      log("blitz", def(b).id + " blitzes into " + g_.map().id(n), "10.16");
      break;
    }
    case kVExploit:
      exploiting_ = true;
      actions_left_ = logistics_value(active_);
      ++initiative_uses_[active_];
      initiative_spent_this_turn_[active_] = true;
      initiative_ = 1 - active_;
      for (auto& s2 : blocks_) s2.acted = false;
      log("impulse", std::string(side_name(active_)) + " spends the Initiative on an Exploitation Move",
          "10.18");
      break;
    default:
      break;
  }
  update_victory();
}

// ----------------------------------------------------------------------------------------
// Notation
std::string Moscow41State::action_to_string(const Action& a) const {
  auto nid = [&](int n) { return n >= 0 && n < node_count() ? g_.map().id(n) : std::string("?"); };
  auto bid = [&](int b) {
    return b >= 0 && b < static_cast<int>(blocks_.size()) ? def(b).id : std::string("?");
  };
  std::string s;
  auto path = [&](int from) {
    for (int i = from; i < a.nargs; ++i) s += " " + nid(a.args[i]);
  };
  switch (a.verb) {
    case kVLogPause:
      return "logistics pause";
    case kVLogActivate:
      return "logistics activate";
    case kVPass:
      return "pass";
    case kVTactical:
      return "ti";
    case kVStrategic:
      return "si";
    case kVReinforce:
      return "si reinforce";
    case kVActivate:
      s = "activate " + bid(a.nargs > 0 ? a.args[0] : -1);
      path(1);
      return s;
    case kVEndActivation:
      return "commands";
    case kVMove:
      s = "move " + bid(a.nargs > 0 ? a.args[0] : -1);
      path(1);
      return s;
    case kVBuildDl:
      return "dl " + bid(a.nargs > 0 ? a.args[0] : -1) + (a.nargs > 1 ? " disband " + nid(a.args[1]) : "");
    case kVArtillery:
      return "artillery " + bid(a.args[0]) + " " + nid(a.args[1]);
    case kVEndCommands:
      return "combat";
    case kVBattle:
      return "battle " + nid(a.nargs > 0 ? a.args[0] : -1);
    case kVEndCombat:
      return "end";
    case kVBlitz:
      return "blitz " + bid(a.args[0]) + " " + nid(a.args[1]);
    case kVExploit:
      return "exploit";
    case kVHit:  // 10.14.1
      return "hit " + bid(a.nargs > 0 ? a.args[0] : -1);
    case kVStep:  // 7.2.2
      return "step " + bid(a.nargs > 0 ? a.args[0] : -1);
    case kVAa: {  // 10.12.3: aa destroy B... abort B...
      s = "aa";
      for (int pass = 1; pass >= 0; --pass) {
        bool first = true;
        for (int k = 0; k < a.nargs; ++k) {
          const int i = a.args[k] / 2;
          if (a.args[k] % 2 != pass) continue;
          if (first) s += pass ? " destroy" : " abort";
          first = false;
          s += " " + (i >= 0 && i < g_.bomber_count() ? g_.bomber_id(i) : std::string("?"));
        }
      }
      return s;
    }
    case kVStuka:  // 10.16
      return "stuka " + nid(a.nargs > 0 ? a.args[0] : -1) + " " + std::to_string(a.nargs > 1 ? a.args[1] : 0);
    case kVRecall:  // OR 14.2
      return "recall " + bid(a.nargs > 0 ? a.args[0] : -1) + " " + nid(a.nargs > 1 ? a.args[1] : -1);
    case kVRail:  // OR 14.4
      return "rail " + bid(a.nargs > 0 ? a.args[0] : -1) + " " + nid(a.nargs > 1 ? a.args[1] : -1);
    case kVPlace:  // 5.0
      return "place " + bid(a.nargs > 0 ? a.args[0] : -1) + " " + nid(a.nargs > 1 ? a.args[1] : -1);
    case kVSetup:  // Scenario Setup
      return "setup " + bid(a.nargs > 0 ? a.args[0] : -1) + " " + nid(a.nargs > 1 ? a.args[1] : -1);
    case kVSetupDl:
      return "setup dl " + nid(a.nargs > 0 ? a.args[0] : -1);
    case kVSetupAuto:
      return "setup auto";
    case kVAir:  // 10.10: air LWHQ AREA HE111 STUKA
      return "air " + bid(a.args[0]) + " " + nid(a.args[1]) + " " + std::to_string(a.args[2]) + " " +
             std::to_string(a.args[3]);
    default:
      return "?";
  }
}

Result<Action> Moscow41State::parse_action(std::string_view text) const {
  std::istringstream in{std::string(text)};
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  if (w.empty()) return Error{"empty action", "", "notation"};
  auto blk = [&](const std::string& id) -> int { return g_.block_index(id); };
  Action a;
  auto add_block = [&](const std::string& id) -> bool {
    const int b = blk(id);
    if (b < 0) return false;
    a.push(b);
    return true;
  };
  auto add_nodes = [&](size_t from) -> bool {
    for (size_t i = from; i < w.size(); ++i) {
      const int n = g_.node(w[i]);
      if (n < 0 || a.full()) return false;
      a.push(n);
    }
    return true;
  };
  const std::string& v = w[0];
  bool ok = true;
  if (v == "logistics" && w.size() == 2 && (w[1] == "pause" || w[1] == "activate")) {
    a.verb = w[1] == "pause" ? kVLogPause : kVLogActivate;
  } else if (v == "pass" && w.size() == 1) {
    a.verb = kVPass;
  } else if (v == "ti" && w.size() == 1) {
    a.verb = kVTactical;
  } else if (v == "si" && w.size() == 1) {
    a.verb = kVStrategic;
  } else if (v == "si" && w.size() == 2 && w[1] == "reinforce") {
    a.verb = kVReinforce;
  } else if (v == "activate" && w.size() >= 2) {
    a.verb = kVActivate;
    ok = add_block(w[1]) && add_nodes(2);
  } else if (v == "commands" && w.size() == 1) {
    a.verb = kVEndActivation;
  } else if (v == "move" && w.size() >= 3) {
    a.verb = kVMove;
    ok = add_block(w[1]) && add_nodes(2);
  } else if (v == "dl" && (w.size() == 2 || (w.size() == 4 && w[2] == "disband"))) {
    a.verb = kVBuildDl;
    ok = add_block(w[1]) && (w.size() == 2 || add_nodes(3));
  } else if (v == "artillery" && w.size() == 3) {
    a.verb = kVArtillery;
    ok = add_block(w[1]) && add_nodes(2);
  } else if (v == "combat" && w.size() == 1) {
    a.verb = kVEndCommands;
  } else if (v == "battle" && w.size() == 2) {
    a.verb = kVBattle;
    ok = add_nodes(1);
  } else if (v == "end" && w.size() == 1) {
    a.verb = kVEndCombat;
  } else if (v == "blitz" && w.size() == 3) {
    a.verb = kVBlitz;
    ok = add_block(w[1]) && add_nodes(2);
  } else if (v == "exploit" && w.size() == 1) {
    a.verb = kVExploit;
  } else if ((v == "hit" || v == "step") && w.size() == 2) {
    a.verb = v == "hit" ? kVHit : kVStep;
    ok = add_block(w[1]);
  } else if (v == "aa" && w.size() >= 3) {  // 10.12.3: aa destroy B... abort B...
    a.verb = kVAa;
    int mode = -1;
    for (size_t i = 1; i < w.size() && ok; ++i) {
      if (w[i] == "destroy" || w[i] == "abort") {
        mode = w[i] == "destroy" ? 1 : 0;
        continue;
      }
      const int bo = g_.bomber_index(w[i]);
      ok = mode >= 0 && bo >= 0 && !a.full();
      if (ok) a.push(bo * 2 + mode);
    }
    ok = ok && a.nargs > 0;
    std::sort(a.args.begin(), a.args.begin() + a.nargs);  // the results are a set
  } else if (v == "stuka" && w.size() == 3) {             // 10.16: stuka AREA COUNT
    a.verb = kVStuka;
    const int n = g_.node(w[1]);
    const auto k = steppe::parse_int_in(w[2], 1, 8);
    ok = n >= 0 && k.has_value();
    if (ok) {
      a.push(n);
      a.push(*k);
    }
  } else if ((v == "rail" || v == "recall") && w.size() == 3) {  // OR 14.4, OR 14.2
    a.verb = v == "rail" ? kVRail : kVRecall;
    ok = add_block(w[1]) && add_nodes(2);
  } else if (v == "place" && w.size() == 3) {
    a.verb = kVPlace;
    ok = add_block(w[1]) && add_nodes(2);
  } else if (v == "setup" && w.size() == 2 && w[1] == "auto") {  // Scenario Setup
    a.verb = kVSetupAuto;
  } else if (v == "setup" && w.size() == 3 && w[1] == "dl") {
    a.verb = kVSetupDl;
    ok = add_nodes(2);
  } else if (v == "setup" && w.size() == 3) {
    a.verb = kVSetup;
    ok = add_block(w[1]) && add_nodes(2);
  } else if (v == "air" && w.size() == 5) {
    a.verb = kVAir;
    const int n = g_.node(w[2]);
    ok = add_block(w[1]) && n >= 0 && w[3].find_first_not_of("0123456789") == std::string::npos &&
         w[4].find_first_not_of("0123456789") == std::string::npos && !w[3].empty() && !w[4].empty() &&
         w[3].size() < 3 && w[4].size() < 3;
    if (ok) {
      a.push(n);
      a.push(std::stoi(w[3]));
      a.push(std::stoi(w[4]));
    }
  } else {
    ok = false;
  }
  if (!ok || a.verb == 0)
    return Error{"cannot read action \"" + std::string(text) +
                     "\" (forms: logistics pause|activate; pass (then one move B AREA, dl B or end); ti; si "
                     "[reinforce]; activate HQ "
                     "[AREA...]; commands; move B [AREA...] AREA; dl B [disband AREA]; artillery HQ AREA; "
                     "air LWHQ AREA HE111 "
                     "STUKA; combat; "
                     "battle AREA; hit B; step B; place B AREA; rail B AREA; recall B AREA; aa destroy "
                     "BOMBER... abort BOMBER...; stuka AREA N; end; setup B AREA; setup dl AREA; setup auto)",
                 "", "notation"};
  return a;
}

// ----------------------------------------------------------------------------------------
// Fog of war (1.5): observation and determinization
Json Moscow41State::observation(int side) const {
  Json o;
  o["game"] = "moscow41";
  o["viewer"] = side_name(side);
  o["turn"] = turn_;
  o["month"] = kMonths[turn_ - 1];
  o["phase"] = phase_name(phase_);
  if (loss_pending()) {
    // 10.14.1: both players see the battle's blocks (10.12.1) and how many hits wait.
    Json l{{"area", g_.map().id(battle_.node)},
           {"side", side_name(battle_.loss_side)},
           {"hits", battle_.loss_hits}};
    if (side == battle_.loss_side) {
      Json c = Json::array();
      for (int b : loss_choices()) c.push_back(def(b).id);
      l["choices"] = c;
    }
    o["loss"] = l;
  }
  if (aa_pending())  // 10.12.3: both see the AA hits; the German converts them
    o["aa"] = {{"area", g_.map().id(battle_.node)}, {"hits", battle_.aa_hits}};
  if (side == active_ && phase_ == Phase::kReplace)
    o["points"] = {
        {"regeneration", regen_left_}, {"replacement", repl_left_}, {"reinforcements", draws_left_}};
  o["active"] = side_name(active_);
  o["initiative"] = side_name(initiative_);
  o["weather"] = blizzard_ ? "blizzard" : kWeather[weather_];  // OR 14.5
  Json opts = Json::array();                                   // 14.0: the optional rules agreed
  for (int k = 0; k < kOptCount; ++k)
    if (options_[k]) opts.push_back(kOptions[k].name);
  o["options"] = opts;
  o["forecast"] = forecast_;
  o["vp"] = {{"german", victory_points(kGerman)}, {"soviet", victory_points(kSoviet)}};
  o["kiev_german"] = kiev_german_;
  o["shlisselburg_german"] = shl_german_;
  o["leningrad_german"] = len_german_;
  if (options_[kOptZhukovHoepner]) {  // OR 14.2: both announced when they happen
    o["leningrad_called_off"] = called_off_;
    o["zhukov_recalled"] = zhukov_recalled_;
  }
  o["surrendered_soviet"] = surrendered_soviet_;
  o["destroyed_german"] = destroyed_german_;
  if (side == kGerman || side == kSoviet) o["lv"] = logistics_value(side);
  Json areas = Json::object();
  for (int n = 0; n < node_count(); ++n) {
    const AreaState& a = area(n);
    Json j{{"control", side_name(a.control)}};
    if (a.dl != kNoSide) j["dl"] = side_name(a.dl);
    if (a.artillery >= 0) j["artillery"] = def(a.artillery).id;
    areas[g_.map().id(n)] = j;
  }
  o["areas"] = areas;
  Json own = Json::array(), seen = Json::array(), hidden = Json::object();
  Json elim = Json::array();
  int enemy_pool = 0, enemy_waiting = 0, enemy_drawn = 0, enemy_setup_blocks = 0;
  for (size_t i = 0; i < blocks_.size(); ++i) {
    const int b = static_cast<int>(i);
    const BlockDef& d = def(b);
    const BlockState& s = block(b);
    auto where = [&]() -> std::string {
      if (s.loc >= 0) return g_.map().id(s.loc);
      switch (s.loc) {
        case kLocPool:
          return "pool";
        case kLocOobN:
          return "oob-n";
        case kLocOobK:
          return "oob-k";
        case kLocDestroyed:
          return "destroyed";
        case kLocSurrendered:
          return "surrendered";
        case kLocDrawn:
          return "drawn";
        case kLocRemoved:
          return "removed";
        case kLocSetup:
          return "setup";
        default:
          return "unplaced";
      }
    };
    if (d.side == side) {
      own.push_back({{"id", d.id},
                     {"at", where()},
                     {"strength", strength(b)},
                     {"revealed", s.revealed},
                     {"isolated", s.isolated},
                     {"activated", s.activated},
                     {"acted", s.acted}});
      continue;
    }
    // The enemy: the OoB cards (destroyed, surrendered, letter boxes) are public.
    if (s.loc == kLocDestroyed || s.loc == kLocSurrendered || s.loc == kLocRemoved) {
      elim.push_back(d.id);  // OR 14.8: the withdrawal is public too
    } else if (s.loc == kLocPool) {
      ++enemy_pool;
    } else if (s.loc == kLocDrawn) {
      ++enemy_drawn;  // 5.0: drawn, not yet placed: how many, not which
    } else if (s.loc == kLocSetup) {
      ++enemy_setup_blocks;  // Scenario Setup: in the enemy's hand, how many, not which
    } else if (s.loc == kLocOobN || s.loc == kLocOobK) {
      ++enemy_waiting;
    } else if (s.loc >= 0) {
      if (s.revealed || s.face_up) {
        seen.push_back({{"id", d.id}, {"at", where()}, {"strength", strength(b)}});
      } else {
        Json& h = hidden[where()];
        if (h.is_null()) h = {{"blocks", 0}, {"isolated", 0}};
        h["blocks"] = h["blocks"].get<int>() + 1;
        if (s.isolated) h["isolated"] = h["isolated"].get<int>() + 1;
      }
    }
  }
  std::sort(elim.begin(), elim.end());
  o["own"] = own;
  o["enemy_revealed"] = seen;
  o["enemy_hidden"] = hidden;
  o["enemy_pool"] = enemy_pool;
  o["enemy_waiting"] = enemy_waiting;
  if (enemy_drawn > 0) o["enemy_drawn"] = enemy_drawn;
  if (phase_ == Phase::kSetup) {
    // Scenario Setup: the owner sees each waiting piece and where it may go; the enemy
    // only how many blocks and Defensive Lines are still in his hand.
    int enemy_setup_dls = 0;
    for (const SetupPiece& p : setup_) enemy_setup_dls += p.side == 1 - side && p.block < 0;
    if (side == kGerman || side == kSoviet)
      o["enemy_setup"] = {{"blocks", enemy_setup_blocks}, {"dls", enemy_setup_dls}};
    Json mine = Json::array();
    for (const SetupPiece& p : setup_) {
      if (p.side != side) continue;
      Json sites = Json::array();
      for (int n : setup_sites(p)) sites.push_back(g_.map().id(n));
      Json e{{"piece", p.block < 0 ? std::string("dl") : def(p.block).id}, {"rule", setup_rule_text(p)}};
      if (p.block >= 0) e["strength"] = def(p.block).levels[static_cast<size_t>(p.level)];
      e["areas"] = sites;
      mine.push_back(e);
    }
    if (!mine.empty()) o["setup"] = mine;
  }
  o["enemy_eliminated"] = elim;
  // 4.2.4, 7.1, 7.2: the enemy Leader never moves and its strength follows the public
  // Logistics choices (full after a Pause, one step less after an Activation).
  if (side == kGerman || side == kSoviet) {
    const int leader = g_.block_index(side == kGerman ? "Stalin" : "Hitler");
    if (leader >= 0 && block(leader).loc >= 0) o["enemy_leader_strength"] = strength(leader);
  }
  Json bombers = Json::array();
  for (int i = 0; i < g_.bomber_count(); ++i)
    bombers.push_back({{"fliegerkorps", g_.bomber_fk(i) == "2FK" ? 2 : 8},
                       {"stuka", g_.bomber_is_stuka(i)},
                       {"status", kBomberStatus[bomber_status_[static_cast<size_t>(i)]]}});
  o["bombers"] = bombers;
  return o;
}

void Moscow41State::resample_hidden(int viewer, uint64_t seed) {
  // 1.5 fog of war, for the AI's determinization (docs/rulings.md, "Moscow '41: what the
  // enemy knows"). Everything the viewer cannot see is drawn again from what it can see
  // (its observation), never copied from the true state:
  //  - public and kept: the viewer's own blocks; enemy blocks revealed or face up (with
  //    their strength); the enemy Leader (fixed in Rastenburg/Moscow by 4.2.4, strength
  //    from the public Logistics choices 7.1/7.2); eliminated blocks (OoB boxes, 10.14.3,
  //    9.3); blocks waiting for November or Kiev (letters N/K printed on the OoB, 5.1);
  //  - resampled: which enemy identity stands in each hidden slot (the per-area counts and
  //    isolated counts of the observation), which identities are in the pool (its count
  //    is public), and each hidden block's strength (any of its own steps).
  // The draw depends only on public data and `seed`: slots are listed in node order and
  // identities in roster order, so two true states with the same observation give the
  // same sample for the same seed (tested in tests/ai/installed_games_test_agents.cpp).
  dice_.reseed(seed);
  if (viewer != kGerman && viewer != kSoviet) return;
  const int enemy = 1 - viewer;
  auto on_road = [&](int node) {
    return std::find(g_.road().begin(), g_.road().end(), node) != g_.road().end();
  };
  std::vector<int> unknown;  // identities whose place and strength the viewer cannot see
  struct Slot {
    int loc;
    bool isolated;
  };
  std::vector<Slot> slots;  // hidden places on nodes, then pool places
  int pool_slots = 0;
  int drawn_slots = 0;  // drawn from the pool, not yet placed (5.0: the viewer sees a count)
  int setup_slots = 0;  // Scenario Setup: in the enemy's hand (the viewer sees a count)
  for (size_t i = 0; i < blocks_.size(); ++i) {
    const int b = static_cast<int>(i);
    const BlockDef& d = def(b);
    const BlockState& s = block(b);
    if (d.side != enemy || d.kind == Kind::kLeader) continue;
    if (s.loc == kLocDestroyed || s.loc == kLocSurrendered || s.loc == kLocOobN || s.loc == kLocOobK ||
        s.loc == kLocUnplaced || s.loc == kLocRemoved)
      continue;
    if (s.loc >= 0 && (s.revealed || s.face_up)) continue;
    unknown.push_back(b);
    if (s.loc >= 0)
      slots.push_back({s.loc, s.isolated});
    else if (s.loc == kLocDrawn)
      ++drawn_slots;
    else if (s.loc == kLocSetup)
      ++setup_slots;
    else
      ++pool_slots;  // kLocPool
  }
  if (unknown.empty()) return;
  // Canonical slot order: by node, isolated ones after the others (what the counts say).
  std::sort(slots.begin(), slots.end(), [](const Slot& x, const Slot& y) {
    return x.loc != y.loc ? x.loc < y.loc : x.isolated < y.isolated;
  });
  // The rules' limits on where an identity may stand (public, from the roster): while the
  // Road to Leningrad is in play only the "L" blocks are on it and never on the map
  // (5.0, 5.1, 10.9). Road slots are filled first: they are the most constrained.
  // OR 14.2: once Hitler calls off Leningrad (public: a block leaves the Road for the map),
  // "L" blocks may stand on the map.
  auto allowed = [&](int b, int loc) {
    const bool l_block = def(b).letter == 'L';
    if (on_road(loc)) return l_block;
    return !(road_in_play_ && l_block && !called_off_);
  };
  std::stable_partition(slots.begin(), slots.end(), [&](const Slot& x) { return on_road(x.loc); });
  std::vector<int> left = unknown;  // roster order
  // Hoepner's box on the Road is public (his advances are announced, 10.9): he is in it.
  const int hoepner = g_.block_index("HQ4Pg");
  const int hoepner_box = hoepner_road_ >= 0 ? g_.road()[static_cast<size_t>(hoepner_road_)] : -1;
  auto take = [&](int loc) {
    if (loc == hoepner_box) {
      auto it = std::find(left.begin(), left.end(), hoepner);
      if (it != left.end()) {
        left.erase(it);
        return hoepner;
      }
    }
    std::vector<size_t> ok;
    for (size_t k = 0; k < left.size(); ++k)
      if (loc == kLocPool || allowed(left[k], loc)) ok.push_back(k);
    // No identity fits only if the data broke the rule above; any identity is still an
    // honest guess (it is drawn from the public list, not copied).
    if (ok.empty())
      for (size_t k = 0; k < left.size(); ++k) ok.push_back(k);
    const size_t pick = ok[static_cast<size_t>(dice_.below(static_cast<int>(ok.size())))];
    const int b = left[pick];
    left.erase(left.begin() + static_cast<long>(pick));
    return b;
  };
  auto level_prior = [&](int b) {
    // Strength prior: full strength half the time (set-ups and reinforcements start full,
    // 2.7, 5.0), otherwise any of the block's steps (Remnants likewise, 4.2.3).
    const int steps = def(b).min_level() + 1;
    if (dice_.below(2) == 0) return 0;
    return dice_.below(steps);
  };
  for (const Slot& sl : slots) {
    const int b = take(sl.loc);
    BlockState& s = bs(b);
    s = BlockState{};
    s.loc = sl.loc;
    s.isolated = sl.isolated;
    s.level = level_prior(b);
  }
  // Drawn blocks came out of the pool, so any identity a pool slot could hold may be one.
  for (int k = 0; k < drawn_slots + pool_slots; ++k) {
    const int b = take(kLocPool);
    BlockState& s = bs(b);
    s = BlockState{};
    s.loc = k < drawn_slots ? kLocDrawn : kLocPool;
    s.level = def(b).remnant ? def(b).min_level() : 0;  // 5.0: placed full (Remnants at minimum)
  }
  // Scenario Setup: the enemy's waiting blocks are any identities, and which step each came
  // from is hidden too, so each waits with the plainest rule (any controlled Area) at full
  // strength. The Defensive Lines (their rule is the scenario's, public) and the Leaders
  // (named by the scenario, 4.2.4) are kept. Canonical order: blocks, then the rest.
  if (setup_slots > 0) {
    std::vector<SetupPiece> kept, mine;
    for (const SetupPiece& p : setup_) {
      if (p.side != enemy)
        mine.push_back(p);
      else if (p.block < 0 || def(p.block).kind == Kind::kLeader)
        kept.push_back(p);
    }
    setup_ = mine;
    for (int k = 0; k < setup_slots; ++k) {
      const int b = take(kLocPool);
      BlockState& s = bs(b);
      s = BlockState{};
      s.loc = kLocSetup;
      SetupPiece p;
      p.side = enemy;
      p.block = b;
      p.rule = SetupRule::kZone;
      p.level = def(b).remnant ? def(b).min_level() : 0;
      s.level = p.level;
      setup_.push_back(p);
    }
    setup_.insert(setup_.end(), kept.begin(), kept.end());
  }
}

Json Moscow41State::full_json() const {
  Json j;
  j["scenario"] = scenario_;
  Json opts = Json::array();
  for (int k = 0; k < kOptCount; ++k)
    if (options_[k]) opts.push_back(kOptions[k].name);
  j["options"] = opts;
  j["blizzard"] = blizzard_;
  j["turn"] = turn_;
  j["phase"] = static_cast<int>(phase_);
  j["impulse"] = static_cast<int>(impulse_);
  j["active"] = active_;
  j["initiative"] = initiative_;
  j["init_uses"] = {initiative_uses_[0], initiative_uses_[1]};
  j["init_month"] = {initiative_spent_this_turn_[0], initiative_spent_this_turn_[1]};
  j["passes"] = passes_in_row_;
  j["logistics_done"] = logistics_done_;
  j["weather"] = weather_;
  j["forecast"] = forecast_;
  j["german_impulses"] = german_impulses_;
  j["flags"] = {kiev_german_, shl_german_, len_german_, stalin_dead_, road_in_play_, hoepner_on_map_rule_};
  j["or14_2"] = {called_off_, zhukov_recalled_};
  j["losses"] = {surrendered_soviet_, destroyed_german_};
  j["actions_left"] = actions_left_;
  j["exploiting"] = exploiting_;
  j["hoepner_road"] = hoepner_road_;
  j["winner"] = winner_;
  j["dice"] = {dice_.seed(), dice_.counter()};
  Json bl = Json::array();
  for (const auto& s : blocks_)
    bl.push_back({s.loc, s.level, s.revealed, s.isolated, s.activated, s.acted, s.river, s.face_up, s.blitz,
                  s.blitzed});
  j["blocks"] = bl;
  Json ar = Json::array();
  for (const auto& a : areas_) ar.push_back({a.control, a.dl, a.contested_at_start, a.fought, a.artillery});
  j["areas"] = ar;
  j["bombers"] = {bomber_status_, bomber_area_, bomber_struck_};
  if (!blitz_moves_.empty()) j["blitz_moves"] = blitz_moves_;
  if (battle_.node >= 0)
    j["battle"] = {battle_.node,        battle_.step,      battle_.absorb,
                   battle_.tank_attack, battle_.blitz,     battle_.attackers,
                   battle_.loss_side,   battle_.loss_hits, battle_.aa_hits};
  if (phase_ == Phase::kReplace || phase_ == Phase::kDeploy)
    j["points"] = {regen_left_, repl_left_, draws_left_};
  if (!setup_.empty()) {
    Json su = Json::array();
    for (const SetupPiece& p : setup_)
      su.push_back({p.side, p.block, static_cast<int>(p.rule), p.hq, p.front, p.exclude, p.level, p.face_up});
    j["setup"] = su;
  }
  return j;
}

uint64_t Moscow41State::state_hash() const { return steppe::fnv1a64(full_json().dump()); }

// ----------------------------------------------------------------------------------------
// Scenario-test hooks
Status Moscow41State::test_set(const std::vector<std::string>& w) {
  auto need_node = [&](const std::string& id) { return g_.node(id); };
  if (w.empty()) return Error{"empty set-up", "", ""};
  const std::string& k = w[0];
  if (k == "clear" && w.size() == 1) {
    for (auto& s : blocks_) s = BlockState{};
    setup_.clear();
    if (phase_ == Phase::kSetup) phase_ = Phase::kImpulse;
    for (int n = 0; n < node_count(); ++n) {
      as(n).dl = kNoSide;
      as(n).control =
          (is_area(n) && ad(n).terrain == kStaging) || n == g_.box_rastenburg() ? kGerman : kSoviet;
    }
    hoepner_road_ = -1;
    battle_ = Battle{};
    return Status::ok();
  }
  if (k == "place" && (w.size() == 3 || w.size() == 4)) {
    const int b = g_.block_index(w[1]);
    const int n = need_node(w[2]);
    if (b < 0 || n < 0) return Error{"place BLOCK AREA [STRENGTH]: unknown block or area", "", ""};
    int level = 0;
    if (w.size() == 4) {
      const auto st = steppe::parse_int_in(w[3], 0, 99);
      if (!st)
        return Error{"place BLOCK AREA STRENGTH: strength must be a number, not '" + w[3] + "'", "", ""};
      const auto& lv = def(b).levels;
      auto it = std::find(lv.begin(), lv.end(), *st);
      if (it == lv.end()) return Error{"block " + w[1] + " has no strength " + w[3], "", ""};
      level = static_cast<int>(it - lv.begin());
    }
    bs(b).loc = n;
    bs(b).level = level;
    if (def(b).id == "HQ4Pg" || def(b).letter == 'L') {
      for (size_t r = 0; r < g_.road().size(); ++r)
        if (g_.road()[r] == n && def(b).id == "HQ4Pg") hoepner_road_ = static_cast<int>(r);
    }
    if (is_area(n) && !has_units(1 - def(b).side, n)) as(n).control = def(b).side;
    return Status::ok();
  }
  if (k == "pool" && w.size() == 2) {
    const int b = g_.block_index(w[1]);
    if (b < 0) return Error{"unknown block " + w[1], "", ""};
    bs(b).loc = kLocPool;
    return Status::ok();
  }
  if (k == "control" && w.size() == 3 && parse_side(w[2]) != kNoSide) {
    // control AREA[,AREA...] SIDE: every area is checked before any changes.
    std::vector<int> nodes;
    std::stringstream list(w[1]);
    for (std::string id; std::getline(list, id, ',');) {
      if (need_node(id) < 0) return Error{"control AREA[,AREA...] SIDE: unknown area '" + id + "'", "", ""};
      nodes.push_back(need_node(id));
    }
    for (int n : nodes) as(n).control = parse_side(w[2]);
    return Status::ok();
  }
  if (k == "dl" && w.size() == 3 && need_node(w[1]) >= 0) {
    as(need_node(w[1])).dl = parse_side(w[2]);
    return Status::ok();
  }
  if (k == "weather" && w.size() == 2) {
    if (w[1] == "blizzard") {  // OR 14.5
      if (!options_[kOptBlizzard])
        return Error{"Blizzard is optional rule 14.5: play SCENARIO+blizzard or set option blizzard", "14.5",
                     ""};
      weather_ = kSnow;
      blizzard_ = true;
      return Status::ok();
    }
    for (int i = 0; i < 3; ++i)
      if (w[1] == kWeather[i]) {
        weather_ = i;
        blizzard_ = false;
        return Status::ok();
      }
  }
  if (k == "option" && (w.size() == 2 || w.size() == 3)) {  // 14.0
    if (w.size() == 3 && w[2] != "on" && w[2] != "off")
      return Error{"option NAME [on|off], not '" + w[2] + "'", "14.0", ""};
    return set_option(w[1], w.size() == 2 || w[2] == "on");
  }
  if (k == "german-impulses" && w.size() == 2) {  // 8.1, OR 14.5: German impulses this month
    const auto n = steppe::parse_int_in(w[1], 0, 99);
    if (!n) return Error{"german-impulses must be a count, not '" + w[1] + "'", "", ""};
    german_impulses_ = *n;
    return Status::ok();
  }
  if (k == "turn" && w.size() == 2) {
    const auto t = steppe::parse_int_in(w[1], 1, 6);
    if (!t) return Error{"turn must be 1..6, not '" + w[1] + "'", "", ""};
    turn_ = *t;
    return Status::ok();
  }
  // Block status for tests: `reveal B` shows a block to the enemy as combat would (1.5);
  // `isolated B yes|no` sets the isolation the logistics phase would find (11.0).
  if ((k == "reveal" && w.size() == 2) || (k == "isolated" && w.size() == 3)) {
    const int b = g_.block_index(w[1]);
    if (b < 0) return Error{"unknown block '" + w[1] + "'", "", ""};
    if (k == "reveal") {
      bs(b).revealed = true;
    } else {
      if (w[2] != "yes" && w[2] != "no") return Error{"isolated BLOCK yes|no, not '" + w[2] + "'", "", ""};
      bs(b).isolated = w[2] == "yes";
    }
    return Status::ok();
  }
  if ((k == "active" || k == "logistics") && phase_ == Phase::kSetup)
    return Error{"the Scenario Setup is not finished (play setup auto for each side first)", "Scenario Setup",
                 ""};
  if ((k == "active" || k == "initiative") && w.size() == 2 && parse_side(w[1]) != kNoSide) {
    (k == "active" ? active_ : initiative_) = parse_side(w[1]);
    if (k == "active") {
      phase_ = Phase::kImpulse;
      battle_ = Battle{};
    }
    return Status::ok();
  }
  if (k == "logistics" && w.size() == 2 && parse_side(w[1]) != kNoSide) {
    // The Logistics Phase with SIDE to choose, the other side having chosen (7.0).
    phase_ = Phase::kLogistics;
    active_ = parse_side(w[1]);
    logistics_done_ = 1;
    battle_ = Battle{};
    return Status::ok();
  }
  if (k == "surrendered" && w.size() == 2) {
    const auto n = steppe::parse_int_in(w[1], 0, 999);
    if (!n) return Error{"surrendered must be a count, not '" + w[1] + "'", "", ""};
    surrendered_soviet_ = *n;
    return Status::ok();
  }
  if (k == "destroyed" && w.size() == 2) {
    const auto n = steppe::parse_int_in(w[1], 0, 999);
    if (!n) return Error{"destroyed must be a count, not '" + w[1] + "'", "", ""};
    destroyed_german_ = *n;
    return Status::ok();
  }
  if (k == "kiev" && w.size() == 2) {
    kiev_german_ = w[1] == "german";
    return Status::ok();
  }
  if (k == "leningrad" && w.size() == 2) {
    len_german_ = w[1] == "german";
    return Status::ok();
  }
  if (k == "victory" && w.size() == 2) {
    victory_kind_ = w[1];
    return Status::ok();
  }
  return Error{
      "unknown set-up words (clear; place B A [S]; pool B; control A SIDE; dl A SIDE|none; weather W; "
      "turn N; active SIDE; logistics SIDE; initiative SIDE; surrendered N; destroyed N; kiev SIDE; "
      "leningrad SIDE; victory "
      "KIND)",
      "", ""};
}

Result<std::string> Moscow41State::test_query(const std::vector<std::string>& w) const {
  if (w.size() == 2 && w[0] == "lv") return std::to_string(logistics_value(parse_side(w[1])));
  if (w.size() == 2 && w[0] == "vp") return std::to_string(victory_points(parse_side(w[1])));
  if (w.size() == 1 && w[0] == "weather") return std::string(blizzard_ ? "blizzard" : kWeather[weather_]);
  if (w.size() == 1 && w[0] == "surrendered") return std::to_string(surrendered_soviet_);
  if (w.size() == 1 && w[0] == "destroyed") return std::to_string(destroyed_german_);
  if (w.size() == 1 && w[0] == "turn") return std::to_string(turn_);
  if (w.size() == 2 && w[0] == "pool") {
    int n = 0;
    for (size_t b = 0; b < blocks_.size(); ++b)
      n += blocks_[b].loc == kLocPool && g_.blocks()[b].side == parse_side(w[1]);
    return std::to_string(n);
  }
  if (w.size() == 2 && w[0] == "placed-in-cities") {  // friendly blocks in city/Victory areas
    int n = 0;
    for (size_t b = 0; b < blocks_.size(); ++b) {
      const int l = blocks_[b].loc;
      if (g_.blocks()[b].side == parse_side(w[1]) && is_area(l) && (ad(l).city || ad(l).terrain == kVictory))
        ++n;
    }
    return std::to_string(n);
  }
  if (w.size() == 2 && w[0] == "bombers") {
    int n = 0;
    for (int st : bomber_status_) n += w[1] == kBomberStatus[st];
    return std::to_string(n);
  }
  if (w.size() == 2 && w[0] == "points") {  // 7.2.2: left in this Leader Activation
    if (w[1] == "regeneration") return std::to_string(regen_left_);
    if (w[1] == "replacement") return std::to_string(repl_left_);
    if (w[1] == "reinforcements") return std::to_string(draws_left_);
  }
  if (w.size() == 2 && w[0] == "setup-left") return std::to_string(setup_left(parse_side(w[1])));
  if (w.size() == 2 && w[0] == "setup-pieces") {  // the waiting pieces of SIDE, in order
    std::string out;
    for (const SetupPiece& p : setup_)
      if (p.side == parse_side(w[1]))
        out += (out.empty() ? "" : " ") + (p.block < 0 ? "dl" : def(p.block).id);
    return out.empty() ? std::string("none") : out;
  }
  if (w.size() == 3 && w[0] == "setup-areas") {  // where a waiting block (or `dl`) may go
    const int b = w[1] == "dl" ? -1 : g_.block_index(w[1]);
    for (const SetupPiece& p : setup_)
      if (p.side == parse_side(w[2]) && p.block == b) {
        std::string out;
        for (int n : setup_sites(p)) out += (out.empty() ? "" : " ") + g_.map().id(n);
        return out.empty() ? std::string("none") : out;
      }
    return Error{w[1] + " is not waiting to be set up by " + w[2], "", ""};
  }
  if (w.size() == 1 && w[0] == "active") return std::string(side_name(active_));
  if (w.size() == 1 && w[0] == "initiative") return std::string(side_name(initiative_));
  if (w.size() == 1 && w[0] == "phase") {
    return std::string(phase_name(phase_));
  }
  if (w.size() == 2 && w[0] == "control" && g_.node(w[1]) >= 0)
    return std::string(side_name(area(g_.node(w[1])).control));
  if (w.size() == 2 && w[0] == "dl" && g_.node(w[1]) >= 0)
    return std::string(side_name(area(g_.node(w[1])).dl));
  if (w.size() == 2 && w[0] == "contested" && g_.node(w[1]) >= 0)
    return std::string(contested(g_.node(w[1])) ? "yes" : "no");
  if (w.size() == 3 && w[0] == "blocks" && g_.node(w[2]) >= 0)
    return std::to_string(blocks_in(parse_side(w[1]), g_.node(w[2])));
  if (w.size() == 3 && w[0] == "block") {
    const int b = g_.block_index(w[1]);
    if (b < 0) return Error{"unknown block " + w[1], "", ""};
    if (w[2] == "strength") return std::to_string(strength(b));
    if (w[2] == "at") {
      const int l = block(b).loc;
      if (l >= 0) return g_.map().id(l);
      return std::string(l == kLocPool          ? "pool"
                         : l == kLocDrawn       ? "drawn"
                         : l == kLocDestroyed   ? "destroyed"
                         : l == kLocSurrendered ? "surrendered"
                         : l == kLocRemoved     ? "removed"
                         : l == kLocSetup       ? "setup"
                                                : "elsewhere");
    }
    if (w[2] == "isolated") return std::string(block(b).isolated ? "yes" : "no");
    if (w[2] == "revealed") return std::string(block(b).revealed ? "yes" : "no");
  }
  return Error{
      "unknown query (lv S; vp S; weather; active; initiative; phase; control A; dl A; contested A; "
      "blocks S A; block B strength|at|isolated|revealed; points regeneration|replacement|reinforcements; "
      "bombers ready|committed|aborted|destroyed; setup-left S; setup-pieces S; setup-areas B|dl S)",
      "", ""};
}

}  // namespace moscow41
