// Barbarossa Deluxe rules: movement (10.x) and the move-generation memo.
// Section numbers are the rulebook's (seeds/000); where the text is silent or ambiguous
// the choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_internal.h"

namespace bd {

namespace {

// The move-generation memo (BdState::set_move_memo_enabled). A unit's moves are a function
// of its hex, MP and MF left, whether it carries or is a TB / CM (8.31, 8.32), the map,
// the turn's movement rules (turn, 1942 zone) and, for each hex its search looked at,
// whether the stacks there let it in (10.4 no enemy, 6.2 stacking). The memo keeps, per
// unit, the moves and that trace, plus the occupancy of the last call; at each call a hex
// whose occupancy changed since invalidates the units for which it opened or closed, and
// only those are searched again (a unit passing through its own lines changes nothing for
// most of the others). It lives in the thread, not in the
// state: a clone copies nothing, and the states of one search (clones of one root) share
// it. Not used on GT1 (5.13 reads the unit's supply) nor for a search that met a strait
// end (10.14 reads more than occupancy).
struct MoveMemo {
  struct Entry {
    bool valid = false;
    int16_t hex = -1, mp = 0, budget = 0;
    uint8_t sup = 0;
    ReachTrace trace;
    std::vector<Action> moves;
  };
  bool enabled = true;
  uint64_t epoch = 0;
  const void* data = nullptr;
  const void* map = nullptr;
  int turn = -1, zone1942 = -1;
  std::array<uint8_t, kNumHexes> occ_side{}, occ_count{}, occ_sats{}, occ_cav{}, occ_sup{};
  std::vector<Entry> units;
};

thread_local MoveMemo t_move_memo;
}  // namespace

// Bumped when a map may have been edited in place or a state made from other data (test
// edits, new scenarios): every thread's memo starts again.
std::atomic<uint64_t> g_move_memo_epoch{1};

// ======================================================================= movement (10.x)

// 2.11 MF from the TRRT by side and class; 7.16 halved out of supply, 7.5/7.7 halved on
// coastal or aerial supply; 5.10 GT3 Paulus Pause declined: German mech lose a d6 per hex.
int BdState::mf_of(int u) const {
  const UnitDef& d = def(u);
  if (d.cls == kStatic) return 0;
  int mf = turn_mf(d.side, d.cls == kMech, turn_);
  const int sup = unit_supply(u);
  if (d.side == kGerman && d.cls == kMech && oder_active()) mf = data_->victory.oder_mech_mf;  // 4.18
  if (sup == kSupOos || sup == kSupCoastal || sup == kSupAerial) mf /= 2;
  if (d.side == kGerman && d.cls == kMech && turn_ == 3 && paulus_ == 2)
    for (const auto& [h, r] : paulus_rolls_)
      if (h == unit(u).hex) mf = std::max(0, mf - r);
  return mf;
}

// 2.11 the TRRT's MF of a side's mech or non-mech units on turn t, unless the scenario
// fixes it (15.6 What If: the mf_* params).
int BdState::turn_mf(int side, bool mech, int t) const {
  if (sc_ != nullptr) {
    const int fixed = sc_->fixed_mf[static_cast<size_t>(side)][mech ? kMech : kNonMech];
    if (fixed > 0) return fixed;  // 15.6
  }
  return data_->turn(t).mf[side][mech ? kMech : kNonMech];
}

// What the unit has left to move: its MF until it starts moving (mp < 0), then what its
// moves left it (10.2).
int BdState::mp_left(int u) const {
  const UnitSt& s = unit(u);
  return s.mp >= 0 ? s.mp : start_mf(u);
}

// 10.5, 10.6 (ruling BD-MV1): the units that move (or mobile-assault) one after another are one
// "parent stack" while each began the phase in the hex the current movers began it in: any of
// them may move on, split off or resume. A unit that began the phase elsewhere starts another
// stack, and the earlier one may not resume (10.2, 10.6). 10.7: each unit pays its own MP, so a
// stack moving together goes no farther than its slowest unit unless it drops that one off.
bool BdState::in_moving_stack(int u) const {
  if (movers_.empty() || movers_.size() >= movers_.capacity()) return false;
  const int start = unit(u).start_hex;
  return start >= 0 && unit(movers_[0]).start_hex == start && def(movers_[0]).side == def(u).side;
}

// The MF a unit starts its move with: 8.1 "Units entering via a map edge hex begin paying
// normal movement costs starting with their hex of placement" (a city entry costs nothing).
int BdState::start_mf(int u) const {
  const UnitSt& s = unit(u);
  const int mf = mf_of(u);
  if (!(s.flags & kFlagEdgeEntry) || s.where != kOnMap) return mf;
  const int cost = hex_entry_cost(u, s.hex);
  return cost < 0 ? mf : std::max(0, mf - cost);
}

// Cost for unit u to enter `to` from adjacent `from`; -1 when prohibited.
int BdState::enter_cost(int u, int from, int to) const {
  const int dir = direction(from, to);
  return dir < 0 ? -1 : enter_cost_dir(u, from, to, dir);
}

int BdState::enter_cost_dir(int u, int from, int to, int dir) const {
  const int base = hex_entry_cost(u, to);
  return base < 0 ? -1 : edge_entry_cost(u, from, to, dir, base);
}

// The part of the cost of entering `to` that does not depend on the hexside crossed; reach()
// memoises it per hex (it is most of the work of a movement phase's legal actions).
int BdState::hex_entry_cost(int u, int to) const {
  const UnitDef& d = def(u);
  const HexInfo& b = hx(to);
  if (!b.on_map) return -1;                         // 10.21 leaving the map is not offered
  if (data_->tec.prohibited[b.terrain]) return -1;  // 10.13
  if (enemy_in(to, d.side)) return -1;              // 10.4
  // 7.18: supply is no bar: a unit may deliberately move where it will or may be OOS.
  // 10.22: Axis satellites never north of the logistical boundary (suspended in 1942 if
  // the German chose the north, 5.6).
  if (kept_south(d) && b.zone == kZoneNorth) return -1;
  if (d.type == kCavalryGroup && d.zone != kZoneNone && b.zone != kZoneNone && b.zone != d.zone)
    return -1;                                                    // 8.30
  if (d.type == kSsInfantry && b.country != kBaltic) return -1;   // 8.3 the 6th SS: the Baltic republics
  if (d.type == kCoastalCommand && b.area != kAreaCS) return -1;  // 8.3 the KSC: the CS supply area
  if (turn_ == 1) {  // 5.11 (the Hungarian border is a hexside rule: edge_entry_cost)
    if (d.side == kGerman && unit(u).start_hex >= 0 && hx(unit(u).start_hex).country == kRomania &&
        b.country != kRomania)
      return -1;
    if (d.side == kSoviet && (b.country == kHungary || b.country == kRomania)) return -1;
  }
  const Places& pl = data_->places;
  const int cls = d.cls == kMech ? kMech : kNonMech;
  Terrain t = b.terrain;
  if (t == kMarsh && d.cls == kMech && d.side == kSoviet && turn_ >= 13) t = kClear;  // 10.12
  if (t == kMarsh && d.cls == kMech && d.side == kGerman && turn_ == 1 &&
      std::find(pl.gt1_marsh.begin(), pl.gt1_marsh.end(), to) != pl.gt1_marsh.end() &&
      unit_supply(u) == kSupOverland)
    t = kClear;                                                // 5.13
  return d.type == kCavalryGroup ? 1 : data_->tec.mp[t][cls];  // 8.30
}

// The hexside part: sea and lake sides, the Kerch and Sivash crossings, rivers, the
// Hungarian border on GT1; `base` is hex_entry_cost(u, to) >= 0.
int BdState::edge_entry_cost(int u, int from, int to, int dir, int base) const {
  const UnitDef& d = def(u);
  const HexInfo& a = hx(from);
  const Places& pl = data_->places;
  const bool kerch = is_crossing(pl.kerch, from, to);
  const bool sivash = is_crossing(pl.sivash, from, to);
  bool river = (a.river >> dir) & 1u;
  if (sivash) {  // 10.15: Soviet non-mech from GT7, as across a river
    if (d.side != kSoviet || d.cls == kMech || turn_ < 7) return -1;
    river = true;
  } else if (kerch) {
    // 10.14: one stack per movement phase, starting the phase in the departure hex; it stops.
    // The stack is the units that started the phase in the departure hex: once one has
    // crossed, the others of that hex may follow, no one else.
    if ((kerch_from_ >= 0 && kerch_from_ != from) || unit(u).start_hex != from || unit(u).mp >= 0) return -1;
  } else if ((a.sea_side >> dir) & 1u || (a.lake_side >> dir) & 1u) {
    return -1;  // 10.13, 11.19
  }
  if (turn_ == 1 && d.side == kGerman && (a.country == kHungary) != (hx(to).country == kHungary))
    return -1;  // 5.11
  const int cls = d.cls == kMech ? kMech : kNonMech;
  if (river && !(turn_ == 1 && d.side == kGerman)) return base + data_->tec.river_mp[cls];  // 10.18
  return base;
}

// Why enter_cost(u, from, to) < 0, citing the rule that forbids: the error path of
// check_move only, so the cost functions on the hot path stay plain numbers. The checks
// are those of hex_entry_cost and edge_entry_cost, in their order.
Status BdState::entry_refusal(int u, int from, int to) const {
  const UnitDef& d = def(u);
  const HexInfo& a = hx(from);
  const HexInfo& b = hx(to);
  const Places& pl = data_->places;
  const std::string what = d.label + " may not enter " + hex_id(to) + " from " + hex_id(from) + ": ";
  if (!b.on_map) return rerr("10.21", what + "it is off the map");
  if (data_->tec.prohibited[b.terrain])
    return rerr("10.13", what + std::string(terrain_name(b.terrain)) + " hexes may not be entered");
  if (kept_south(d) && b.zone == kZoneNorth)
    return rerr("10.22", what + "Axis satellite armies stay south of the logistical zone boundary");
  if (d.type == kCavalryGroup && d.zone != kZoneNone && b.zone != kZoneNone && b.zone != d.zone)
    return rerr("8.30", what + "a cavalry group stays in its own zone");
  if (d.type == kSsInfantry && b.country != kBaltic)
    return rerr("8.3", what + "the 6th SS may only move and attack into hexes within the Baltic republics");
  if (d.type == kCoastalCommand && b.area != kAreaCS)
    return rerr("8.3", what + "the KSC may only move and attack into hexes of the CS supply area");
  if (turn_ == 1 && d.side == kGerman && unit(u).start_hex >= 0 &&
      hx(unit(u).start_hex).country == kRomania && b.country != kRomania)
    return rerr("5.11", what + "on Game Turn 1 units starting in Romania stay in Romania");
  if (turn_ == 1 && d.side == kSoviet && (b.country == kHungary || b.country == kRomania))
    return rerr("5.11", what + "on Game Turn 1 Soviet units do not enter Hungary or Romania");
  const int dir = direction(from, to);
  if (is_crossing(pl.sivash, from, to))
    return rerr("10.15", what + "only Soviet non-mechanized units cross the Sivash, from Game Turn 7");
  if (is_crossing(pl.kerch, from, to))
    return rerr("10.14", what +
                             "one stack a movement phase crosses the Kerch Strait, each unit having "
                             "started the phase in the departure hex");
  if (dir >= 0 && ((a.sea_side >> dir) & 1u || (a.lake_side >> dir) & 1u))
    return rerr("10.13", what + "all-sea and all-lake hexsides may not be crossed");
  if (turn_ == 1 && d.side == kGerman && (a.country == kHungary) != (b.country == kHungary))
    return rerr("5.11", what + "on Game Turn 1 German units do not cross the Hungarian border");
  return rerr("10.1", what + "it may not be entered");
}

Status BdState::check_move(const Action& a) const {
  if (!is_move_phase()) return rerr("5.2", std::string("no movement in ") + phase_name(phase_));
  if (a.nargs < 3) return rerr("10.1", "a move needs a unit and at least one hex to enter");
  const int u = a.args[0];
  if (u < 0 || u >= num_units()) return rerr("", "unknown unit");
  const UnitDef& d = def(u);
  const UnitSt& s = unit(u);
  if (d.side != phase_side()) return rerr("5.2", d.label + " is not a unit of the phasing player");
  if (s.where != kOnMap) return rerr("10.1", d.label + " is not on the map");
  if (d.cls == kStatic || d.type == kFortressCommand)
    return rerr("2.9", d.label + " is static and never moves");
  if (d.type == kCoastalArmy) return rerr("10.34", "the ICA moves only by switching ports: sea-move ICA HEX");
  if (is_attachable(u))
    return rerr(attach_rule(u), d.label + " never moves alone: it moves with the " +
                                    (d.type == kCmGroup ? "army" : "corps") + " it is attached to" +
                                    (s.parent >= 0 ? " (" + label(s.parent) + ")" : ""));
  if (s.flags & (kFlagDone | kFlagNoMove))  // 10.2, 10.6: another stack has moved since
    return rerr("10.2, 10.6", d.label + " has finished moving this phase");
  if (s.flags & kFlagStandFast)
    return rerr("12.7",
                d.label + " is in Stalingrad under Hitler's stand-fast order: it may not move this turn");
  if (s.flags & kFlagMaFailed)
    return rerr("10.28", d.label + " failed a mobile assault and stays in its launch hex");
  if (s.mp >= 0 && std::find(movers_.begin(), movers_.end(), u) == movers_.end())
    return rerr("10.2, 10.6",
                d.label +
                    " already moved, and a unit of another stack has moved since; a stack's move is "
                    "finished once another stack starts");
  if (a.args[1] != s.hex)
    return rerr("10.1", "the path must start at " + d.label + "'s hex " + hex_id(s.hex));
  const int budget = mp_left(u);
  int spent = 0;
  for (int i = 2; i < a.nargs; ++i) {
    const int from = a.args[i - 1], to = a.args[i];
    if (to < 0 || to >= kNumHexes) return rerr("10.1", "bad hex in path");
    if (direction(from, to) < 0) return rerr("10.1", hex_id(to) + " is not adjacent to " + hex_id(from));
    if (enemy_in(to, d.side))
      return rerr("10.4", hex_id(to) + " holds enemy units (only a mobile assault may enter)");
    const int c = enter_cost(u, from, to);
    if (c < 0) return entry_refusal(u, from, to);
    spent += c;
    if (i != a.nargs - 1) {  // 6.2: the limits hold at every instant, also in the hexes passed through
      std::vector<int> self{u};
      if (auto st = stacking_ok(to, d.side, self); !st) return st;
    }
    // 10.14: a Kerch crossing ends the move.
    const Places& pl = data_->places;
    if (is_crossing(pl.kerch, from, to) && i != a.nargs - 1)
      return rerr("10.14", "a stack that crosses the Kerch Strait stops");
  }
  if (spent > budget) {
    // 10.3: a unit may always move one hex by spending its whole MF.
    const bool minimum = a.nargs == 3 && s.mp < 0 && budget > 0;
    if (!minimum)
      return rerr("10.1",
                  d.label + " needs " + std::to_string(spent) + " MP but has " + std::to_string(budget));
  }
  // 8.30: a cavalry group "may never end any phase ... in any type of city hex". A move that
  // stops in a city could be the end of its phase (the next unit to move ends it), so it may
  // pass through a city within one move but not stop there (ruling BD-C1).
  if (d.type == kCavalryGroup && hx(a.args[a.nargs - 1]).city)
    return rerr("8.30", d.label + " is a cavalry group: it may pass through a city but never stop in one");
  std::vector<int> add{u};
  if (auto st = stacking_ok(a.args[a.nargs - 1], d.side, add); !st) return st;
  // One notation per move: the cheapest path (ties broken by search order). Other routes
  // are made as several shorter moves of the same unit (10.2 lets it continue).
  std::array<int16_t, kNumHexes> best{}, parent{};
  reach(u, best, parent);
  int x = a.args[a.nargs - 1];
  for (int i = a.nargs - 1; i >= 1; --i) {
    if (x != a.args[i])
      return rerr("10.1", "not the cheapest path to " + hex_id(a.args[a.nargs - 1]) +
                              "; move in steps to choose a route");
    x = parent[static_cast<size_t>(x)];
  }
  if (x != -1) return rerr("10.1", "not the cheapest path; move in steps to choose a route");
  return Status::ok();
}

// Cheapest paths for unit u from its hex with its MP left (10.1, 10.3 minimum move, 10.14
// Kerch stop). best[h] = MP left on arrival (-1 unreachable); parent[h] = previous hex.
void BdState::reach(int u, std::array<int16_t, kNumHexes>& best,
                    std::array<int16_t, kNumHexes>& parent) const {
  if (reach_memo_.unit == u && reach_memo_.version == version_) {
    best = reach_memo_.best;
    parent = reach_memo_.parent;
    return;
  }
  reach_search(u, best, parent);
  reach_memo_.unit = u;
  reach_memo_.version = version_;
  reach_memo_.best = best;
  reach_memo_.parent = parent;
}

// reach() without its memo (gen_moves searches every unit once: storing each would copy
// 2.3 KB per unit for nothing).
void BdState::reach_search(int u, std::array<int16_t, kNumHexes>& best,
                           std::array<int16_t, kNumHexes>& parent, HexBits* reached,
                           ReachTrace* trace) const {
  const UnitSt& s = unit(u);
  const int budget = mp_left(u);
  // 6.2: stacking limits hold hex by hex and instant by instant, so a hex the unit would
  // over-stack can be neither entered nor passed through (6.3, 6.4, 8.30).
  compute_occupancy();
  const UnitDef& ud = def(u);
  const StackAdd add = stack_add(u);
  // hex_entry_cost(u, to) with the unit's own tests made once (the search asks it for every
  // hex it meets): the same tests, the occupancy read directly (computed above).
  const TerrainCosts& tec = data_->tec;
  const bool sat_north = kept_south(ud);  // 10.22
  const bool cavalry = ud.type == kCavalryGroup;
  const bool cav_zone = cavalry && ud.zone != kZoneNone;  // 8.30
  const bool baltic_only = ud.type == kSsInfantry;        // 8.3 the 6th SS
  const bool cs_only = ud.type == kCoastalCommand;        // 8.3 the KSC
  const bool gt1_from_romania =
      turn_ == 1 && ud.side == kGerman && s.start_hex >= 0 && hx(s.start_hex).country == kRomania;  // 5.11
  const bool gt1_soviet = turn_ == 1 && ud.side == kSoviet;                                         // 5.11
  const int mp_cls = ud.cls == kMech ? kMech : kNonMech;
  const bool marsh_clear = ud.cls == kMech && ud.side == kSoviet && turn_ >= 13;  // 10.12
  const bool gt1_marsh = ud.cls == kMech && ud.side == kGerman && turn_ == 1;     // 5.13
  // The part of the cost that does not depend on who stands where (the memo keeps it).
  auto entry_cost = [&](int to) {
    const HexInfo& b = hx(to);
    if (!b.on_map || tec.prohibited[b.terrain]) return -1;  // 10.21, 10.13
    if (sat_north && b.zone == kZoneNorth) return -1;
    if (cav_zone && b.zone != kZoneNone && b.zone != ud.zone) return -1;
    if ((baltic_only && b.country != kBaltic) || (cs_only && b.area != kAreaCS)) return -1;
    if (gt1_from_romania && b.country != kRomania) return -1;
    if (gt1_soviet && (b.country == kHungary || b.country == kRomania)) return -1;
    Terrain t = b.terrain;
    if (t == kMarsh && marsh_clear) t = kClear;
    if (t == kMarsh && gt1_marsh &&
        std::find(data_->places.gt1_marsh.begin(), data_->places.gt1_marsh.end(), to) !=
            data_->places.gt1_marsh.end() &&
        unit_supply(u) == kSupOverland)
      t = kClear;
    return cavalry ? 1 : tec.mp[t][mp_cls];
  };
  best.fill(-1);
  best[static_cast<size_t>(s.hex)] = static_cast<int16_t>(budget);
  parent[static_cast<size_t>(s.hex)] = -1;
  auto mark_reached = [reached](int h) {
    if (reached != nullptr)
      (*reached)[static_cast<size_t>(h) / 64] |= uint64_t{1} << (static_cast<size_t>(h) % 64);
  };
  if (reached != nullptr) reached->fill(0);
  if (trace != nullptr) *trace = ReachTrace{};
  mark_reached(s.hex);
  // hex_entry_cost per hex, computed on first need (-2: not yet; -1: may not enter or
  // over-stacks).
  std::array<int16_t, kNumHexes> hex_cost;
  hex_cost.fill(-2);
  const Places& pl = data_->places;
  // edge_entry_cost without its Kerch and Sivash cases, for a hex that is no end of either
  // strait (all but four): the same cost with fewer tests per hexside, the search's inner loop.
  const bool gt1_german = turn_ == 1 && ud.side == kGerman;
  const int river_mp = data_->tec.river_mp[ud.cls == kMech ? kMech : kNonMech];
  auto strait_end = [&pl](int h) {
    return std::find(pl.kerch.begin(), pl.kerch.end(), h) != pl.kerch.end() ||
           std::find(pl.sivash.begin(), pl.sivash.end(), h) != pl.sivash.end();
  };
  // Simple label-correcting search (MF <= ~12, map small): process by decreasing MP left.
  // The two queues keep their storage between calls (no allocation per unit searched).
  static thread_local std::vector<int> frontier, next;
  const steppe::HexGrid& grid = grid_2_2();
  frontier.assign(1, s.hex);
  // MP left at each hex's last expansion. Expanding a hex again with the same MP left
  // changes nothing (best only grows, so every neighbour already holds at least what it
  // would be offered): such repeats, a hex queued twice, are skipped.
  std::array<int16_t, kNumHexes> expanded;
  expanded.fill(-1);
  while (!frontier.empty()) {
    next.clear();
    for (const int h : frontier) {
      const int left = best[static_cast<size_t>(h)];
      if (expanded[static_cast<size_t>(h)] == left) continue;
      expanded[static_cast<size_t>(h)] = static_cast<int16_t>(left);
      const HexInfo& a = hx(h);
      const bool at_strait = strait_end(h);
      if (at_strait && trace != nullptr) trace->strait = true;
      const std::span<const int32_t, 6> around = grid.neighbours(h);  // the kernel's flat table
      for (int dd = 0; dd < 6; ++dd) {
        const int n = around[static_cast<size_t>(dd)];
        if (n < 0) continue;
        int16_t& hc = hex_cost[static_cast<size_t>(n)];
        if (hc == -2) {
          const int cost = entry_cost(n);
          const bool open = n == s.hex || stacks_let_in(n, ud.side, add);  // 10.4, 6.2
          hc = static_cast<int16_t>(cost >= 0 && open ? cost : -1);
          if (trace != nullptr) {
            const auto i = static_cast<size_t>(n);
            trace->examined[i / 64] |= uint64_t{1} << (i % 64);
            if (cost >= 0) trace->enterable[i / 64] |= uint64_t{1} << (i % 64);
            if (open) trace->open[i / 64] |= uint64_t{1} << (i % 64);
          }
        }
        if (hc < 0) continue;
        int c = 0;
        if (at_strait) {
          c = edge_entry_cost(u, h, n, dd, hc);
          if (c < 0) continue;
        } else {
          if (((a.sea_side | a.lake_side) >> dd) & 1u) continue;                               // 10.13, 11.19
          if (gt1_german && (a.country == kHungary) != (hx(n).country == kHungary)) continue;  // 5.11
          c = ((a.river >> dd) & 1u) && !gt1_german ? hc + river_mp : hc;                      // 10.18
        }
        int rem = left - c;
        if (rem < 0) {
          if (h == s.hex && s.mp < 0 && budget > 0)
            rem = 0;  // 10.3
          else
            continue;
        }
        if (at_strait && is_crossing(pl.kerch, h, n)) rem = 0;  // 10.14 stops
        if (rem > best[static_cast<size_t>(n)]) {
          if (best[static_cast<size_t>(n)] < 0) mark_reached(n);
          best[static_cast<size_t>(n)] = static_cast<int16_t>(rem);
          parent[static_cast<size_t>(n)] = static_cast<int16_t>(h);
          next.push_back(n);
        }
      }
    }
    frontier.swap(next);
  }
}

void BdState::set_move_memo_enabled(bool on) {
  t_move_memo.enabled = on;
  t_move_memo.units.clear();
}

BdState::StackAdd BdState::stack_add(const UnitDef& d, bool sup) {
  return {d.free_stacking() ? 0 : 1, d.satellite_army() ? 1 : 0, d.type == kCavalryGroup ? 1 : 0,
          sup ? 1 : 0};
}

BdState::StackAdd BdState::stack_add(int u) const {
  return stack_add(def(u), is_attachable(u) || attached_of(u) >= 0);  // 8.31, 8.32 one per stack
}

bool BdState::stacks_let_in(int hex, int side, const StackAdd& add) const {
  const auto i = static_cast<size_t>(hex);
  const uint8_t o = cache_.occ_side[i];
  const StackingLimits& lim = data_->stacking;
  return (o == kNoSide || o == side) && cache_.occ_count[i] + add.count <= lim.units_per_hex &&
         cache_.occ_sats[i] + add.sats <= lim.satellite_armies_per_hex &&
         cache_.occ_cav[i] + add.cav <= lim.cavalry_groups_per_hex && cache_.occ_sup[i] + add.sup <= 1;
}

bool BdState::sync_move_memo() const {
  MoveMemo& memo = t_move_memo;
  if (!memo.enabled || turn_ == 1) return false;
  compute_occupancy();
  const uint64_t epoch = g_move_memo_epoch.load(std::memory_order_relaxed);
  if (memo.epoch != epoch || memo.data != data_.get() || memo.map != map_ || memo.turn != turn_ ||
      memo.zone1942 != zone1942_ || memo.units.size() != static_cast<size_t>(num_units())) {
    memo.units.assign(static_cast<size_t>(num_units()), MoveMemo::Entry{});
    memo.epoch = epoch;
    memo.data = data_.get();
    memo.map = map_;
    memo.turn = turn_;
    memo.zone1942 = zone1942_;
  } else {
    HexBits changed{};
    bool any = false;
    for (size_t h = 0; h < static_cast<size_t>(kNumHexes); ++h)
      if (memo.occ_side[h] != cache_.occ_side[h] || memo.occ_count[h] != cache_.occ_count[h] ||
          memo.occ_sats[h] != cache_.occ_sats[h] || memo.occ_cav[h] != cache_.occ_cav[h] ||
          memo.occ_sup[h] != cache_.occ_sup[h]) {
        changed[h / 64] |= uint64_t{1} << (h % 64);
        any = true;
      }
    for (size_t v = 0; any && v < memo.units.size(); ++v) {
      MoveMemo::Entry& e = memo.units[v];
      if (!e.valid) continue;
      const UnitDef& vd = def(static_cast<int>(v));
      const StackAdd add = stack_add(vd, e.sup != 0);
      for (size_t w = 0; w < changed.size() && e.valid; ++w)
        for (uint64_t bits = changed[w] & e.trace.examined[w] & e.trace.enterable[w]; bits != 0;
             bits &= bits - 1) {
          const size_t h = w * 64 + static_cast<size_t>(std::countr_zero(bits));
          if (static_cast<int>(h) == e.hex) continue;  // its own hex: always open to it
          if (stacks_let_in(static_cast<int>(h), vd.side, add) !=
              (((e.trace.open[w] >> (h % 64)) & 1u) != 0)) {
            e.valid = false;
            break;
          }
        }
    }
  }
  memo.occ_side = cache_.occ_side;
  memo.occ_count = cache_.occ_count;
  memo.occ_sats = cache_.occ_sats;
  memo.occ_cav = cache_.occ_cav;
  memo.occ_sup = cache_.occ_sup;
  return true;
}

// Each unit x each reachable destination, by its cheapest path (Dijkstra on MP).
void BdState::gen_moves(std::vector<Action>& out) const {
  const int side = phase_side();
  std::array<int16_t, kNumHexes> best{}, parent{};
  HexBits reached{};
  std::array<int32_t, kNumHexes> move_at{};  // index in `out` of the unit's move to each hex, or -1
  const bool memo_on = sync_move_memo();
  MoveMemo& memo = t_move_memo;
  for (int u = 0; u < num_units(); ++u) {
    const UnitSt& s = unit(u);
    const UnitDef& d = def(u);
    if (s.where != kOnMap || d.side != side || d.cls == kStatic || d.type == kFortressCommand ||
        d.type == kCoastalArmy || d.type == kTigerBattalion || d.type == kCmGroup)  // 8.31, 8.32
      continue;
    if (s.flags & (kFlagDone | kFlagNoMove | kFlagMaFailed)) continue;
    if (s.mp >= 0 && std::find(movers_.begin(), movers_.end(), u) == movers_.end()) continue;
    const int budget = mp_left(u);
    const auto sup = static_cast<uint8_t>(stack_add(u).sup);
    MoveMemo::Entry* entry = memo_on ? &memo.units[static_cast<size_t>(u)] : nullptr;
    if (entry != nullptr && entry->valid && entry->hex == s.hex && entry->mp == s.mp &&
        entry->budget == budget && entry->sup == sup) {
      out.insert(out.end(), entry->moves.begin(), entry->moves.end());
      continue;
    }
    const size_t first_move = out.size();
    // reach() enters only hexes the unit fits in (6.2), so every destination keeps the
    // stacking limits (stacking_ok need not be asked again).
    reach_search(u, best, parent, &reached, entry != nullptr ? &entry->trace : nullptr);
    // Each move starts as a copy of this one (the same bytes as a new zeroed Action given
    // the verb and unit, without zeroing 124 bytes for each of ~2,500 moves).
    Action first;
    first.verb = kMove;
    first.push(u);
    move_at.fill(-1);
    for (size_t w = 0; w < reached.size(); ++w)  // the reached hexes in hex order
      for (uint64_t bits = reached[w]; bits != 0; bits &= bits - 1) {
        const int h = static_cast<int>(w * 64) + std::countr_zero(bits);
        if (h == s.hex || best[static_cast<size_t>(h)] < 0) continue;
        // A path is its parent's path plus h: when the parent's move is already listed
        // (a lower hex), it is extended instead of walking the parent chain again.
        if (const int32_t pm = move_at[static_cast<size_t>(parent[static_cast<size_t>(h)])]; pm >= 0) {
          Action a = out[static_cast<size_t>(pm)];
          if (a.full()) continue;  // as below: a path longer than the action holds
          a.push(h);
          move_at[static_cast<size_t>(h)] = static_cast<int32_t>(out.size());
          out.push_back(a);
          continue;
        }
        int path[32];
        int n = 0;
        for (int x = h; x != -1 && n < 32; x = parent[static_cast<size_t>(x)]) path[n++] = x;
        if (n + 1 > Action::kMaxArgs) continue;
        move_at[static_cast<size_t>(h)] = static_cast<int32_t>(out.size());
        Action& a = out.emplace_back(first);
        for (int i = n - 1; i >= 0; --i) a.push(path[i]);
      }
    if (d.type == kCavalryGroup)  // 8.30 (ruling BD-C1): through a city, never stopping in one
      out.erase(std::remove_if(out.begin() + static_cast<std::ptrdiff_t>(first_move), out.end(),
                               [&](const Action& a) { return hx(a.args[a.nargs - 1]).city; }),
                out.end());
    if (entry != nullptr) {
      entry->valid = !entry->trace.strait;
      entry->hex = static_cast<int16_t>(s.hex);
      entry->mp = static_cast<int16_t>(s.mp);
      entry->budget = static_cast<int16_t>(budget);
      entry->sup = sup;
      entry->moves.assign(out.begin() + static_cast<std::ptrdiff_t>(first_move), out.end());
    }
  }
}

}  // namespace bd
