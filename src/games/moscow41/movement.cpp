// Moscow '41: Movement (2.6, 10.8), Hoepner's Road (10.9), command (10.2-10.6) and Defensive Lines (4.1).
// Every rule cites its rulebook section (seeds/002).
#include <algorithm>
#include <functional>
#include <map>

#include "games/moscow41/state.h"
#include "kernel/pathfinding.h"
#include "kernel/supply.h"

namespace moscow41 {

using steppe::Action;
using steppe::rule_error;
using steppe::Status;
using steppe::StepCost;

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
  // and no disengaging); within stacking at the end. The kernel's trace from the start
  // through friendly areas finds them.
  std::vector<int> out;
  const int side = def(b).side, start = block(b).loc;
  thread_local Presence pr;  // buffers reused: searched for every block of every position
  fill_presence(pr);
  auto friendly = [&](int n) { return is_area(n) && area(n).control == side && !pr.contested(n); };
  if (!friendly(start)) return out;
  thread_local steppe::SupplyTracer tracer;
  const int from[] = {start};
  tracer.trace(
      g_.land(), from,
      [&](int n) { return friendly(n) ? steppe::SupplyEntry::kOpen : steppe::SupplyEntry::kBlocked; },
      [](int, int, int) { return true; });
  for (int x : tracer.supplied_nodes())
    if (x != start && stack_ok(side, x, 1, &pr)) out.push_back(x);
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
    if (!g_.adjacent(g_.moscow(), dest))
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

int Moscow41State::absorb(int node, int defender, std::vector<steppe::PreviewShift>* why) const {
  // 10.13 absorb: Yellow +1; controlled city +1 or Victory +2; controlled DL +1; max 3.
  // 2.3: "Cities, Victory Areas, Yellow Areas and Defensive Lines provide an Absorb Bonus";
  // 2.4.5: "A City has an Absorb Bonus".
  const AreaDef& a = ad(node);
  int total = 0;
  auto add = [&](int bonus, const char* reason) {
    total += bonus;
    if (why != nullptr && bonus != 0) why->push_back({-bonus, reason, "10.13"});
  };
  if (a.terrain == kYellow) add(g_.tables().absorb[kYellow], "the defender's absorb bonus: Yellow area");
  if (area(node).control == defender) {
    if (a.terrain == kVictory)
      add(g_.tables().absorb[kVictory], "the defender's absorb bonus: controlled Victory area");
    else if (a.city)
      add(g_.tables().absorb_city, "the defender's absorb bonus: controlled city");
    if (area(node).dl == defender)
      add(g_.tables().absorb_dl, "the defender's absorb bonus: its Defensive Line");
  }
  if (total > g_.tables().absorb_max && why != nullptr)
    why->push_back({total - g_.tables().absorb_max, "the absorb bonus is capped", "10.13"});
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
    if (!g_.adjacent(at, nx))
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

std::vector<std::vector<int>> Moscow41State::reachable(int b, bool allow_engage, bool hq_act,
                                                       std::vector<int>* costs) const {
  // Cheapest path to every area the block may end in: the kernel's Dijkstra on MP (10.8),
  // whose ties go to the lowest area index (docs/rulings.md).
  std::vector<std::vector<int>> out;
  const BlockDef& d = def(b);
  const int start = block(b).loc;
  if (!is_area(start) || d.kind == Kind::kLeader) return out;
  const int side = d.side, enemy = 1 - side;
  thread_local Presence pr;  // buffers reused: searched for every block of every position
  fill_presence(pr);
  const bool disengage = pr.contested(start);
  const auto step = [&](int from, int to, int) {
    if (to == start) return StepCost::impassable();
    if (side == kSoviet && ad(to).terrain == kStaging) return StepCost::impassable();  // 2.4.4
    int cost = enter_cost(b, to);
    if (from == start && disengage) {
      // 10.8: disengaging costs +1 MP and must enter a friendly uncontested area.
      cost += g_.tables().disengage;
      if (area(to).control != side || pr.contested(to)) return StepCost::impassable();
    }
    if (!pr.units(enemy, to)) return StepCost::enter(cost);
    if (!allow_engage) return StepCost::impassable();
    return StepCost::enter_and_stop(cost);  // 10.8: a block entering enemy units stops
  };
  thread_local steppe::PathFinder finder;
  finder.reachable(g_.land(), start, mp_allowance(b), step);
  std::vector<int> path;
  for (int y = 0; y < node_count(); ++y) {
    if (y == start || !finder.reached(y)) continue;
    if (!stack_ok(side, y, 1, &pr)) continue;
    if (hq_act && pr.units(enemy, y)) continue;
    finder.path(y, path);  // start..y
    out.emplace_back(path.begin() + 1, path.end());
    if (costs != nullptr) costs->push_back(finder.cost(y));
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
    for (int y : g_.neighbours(x)) {
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

bool Moscow41State::in_tactical_range(int hq, int node) const {
  // 10.3: a path of at most the HQ's range not passing through enemy-controlled or contested
  // areas, but it may end in one.
  const int side = def(hq).side, start = block(hq).loc;
  if (!is_area(start)) return false;
  thread_local Presence pr;  // buffers reused: asked for every block of every position
  fill_presence(pr);
  const auto step = [&](int, int to, int) {
    if (to == start || (side == kSoviet && ad(to).terrain == kStaging)) return StepCost::impassable();
    if (area(to).control != side || pr.contested(to))
      return StepCost::enter_and_stop(1);  // may end, not pass
    return StepCost::enter(1);
  };
  thread_local steppe::PathFinder finder;
  thread_local std::vector<int> path;
  return finder.shortest_path(g_.land(), start, node, hq_range(hq), step, path) >= 0;
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
    if (in_tactical_range(static_cast<int>(h), s.loc)) return true;
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

}  // namespace moscow41
