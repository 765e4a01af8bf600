// The Dark Valley's verbs, one kernel/verbs.h row each: how each is generated, checked,
// applied, printed and read. Units are named by their counter label, hexes by CCRR.
//   place UNIT HEX     7.2/7.3 a reinforcement enters
//   chit NAME          10.2 the initiative player's first chit
//   mode move|combat   10.5.5/10.5.7 the order of a Move/Combat or Panzer Army round
//   pick UNIT          11.1 the unit to move next
//   move UNIT HEX      11.1 the picked unit moves (its own hex: it stays)
//   attack HEX         12.2 an attack on that hex begins
//   add UNIT           12.2 a unit joins the attack
//   resolve            12.3 the attack is fought
//   cancel             12.2 the attack is called off before it is fought
//   advance UNIT       12.6 a surviving attacker advances into the emptied hex
//   stop               12.6 no (further) advance
//   end                10.5 the movement or combat part of the round is over
//   lose UNIT          12.3c the owner's unit that takes the next step loss
//   retreat UNIT HEX   12.5 where the owner's next unit retreats to
//   manstein HEX       10.2, 10.5.10 the Axis plays the held Manstein/Model chit there
//   hold               10.2 the Axis keeps it back: the next chit is drawn; on Turn 12 after the
//                      first initiative chit, Fall Blau's second chit is kept for Turn 13
//   rail UNIT HEX      9.2/9.4 a unit moves by rail in the Strategic Movement Phase
//   ship UNIT HEX      9.3/9.5 Naval Transport of a unit from port to port
//   done               7.1 the Replacement Segment is over; 9.2-9.5 the rail or naval segment is over;
//                      8.2 the Air Base Segment, 8.6 the German Air Supply is over
//   base AIR HEX       8.2 an air unit's base moves (air.cpp, as are the three below)
//   air AIR            8.3/8.4 air support for the combat being fought (the attacker's, then the defender's)
//   bombard AIR UNIT   8.5 an air unit bombards an enemy ground unit
//   airsupply AIR HEX  8.6.1/8.6.2 German Air Supply
//   stavka             10.2, 10.5.9 the Soviet plays the held Stavka chit (then `place UNIT HEX`
//                      from the Stavka Reserve, 10.5.9.2, and `done`)
//   purge UNIT         10.5.6.2 the Axis eliminates a Rifle Division for an unmade mandate
//   reserve UNIT       7.3 a Soviet reinforcement goes into the Stavka Reserve (from Turn 3)
#include "kernel/verbs.h"

#include <algorithm>
#include <span>

#include "games/dv/dv.h"

namespace dv {

using steppe::Action;
using steppe::Error;
using steppe::Result;
using steppe::rule_error;
using steppe::Status;

namespace {

Action make(uint16_t verb, std::initializer_list<int> args = {}) {
  Action a;
  a.verb = verb;
  for (int x : args) a.push(x);
  return a;
}

bool valid_unit(const DvState& s, int u) { return u >= 0 && u < static_cast<int>(s.dv().units().size()); }
bool valid_hex(const DvState& s, int h) { return h >= 0 && h < s.dv().grid().size(); }

Result<int> unit_arg(const DvState& s, std::string_view w) {
  const int u = s.dv().unit_index(w);
  if (u < 0) return Error{"no counter '" + std::string(w) + "' (units are named by their label)", "2.2", ""};
  return u;
}
Result<int> hex_arg(const DvState& s, std::string_view w) {
  const int h = s.dv().grid().parse(w);
  if (h < 0) return Error{"no hex '" + std::string(w) + "' (hexes are CCRR, DV-M1)", "2.1", ""};
  return h;
}

Status arity(const Action& a, int n, std::string_view usage) {
  if (a.nargs != n) return Error{"usage: " + std::string(usage), "", ""};
  return Status::ok();
}

// 10.5.6: units that moved in a Counterattack round must attack; one that still could (next
// to a hex it may attack, alone or with another active unit that has not attacked) holds the
// round open.
bool mover_must_attack(const DvState& s) {
  if (s.chit() != kChitCounterattack) return false;
  const steppe::HexGrid& gr = s.dv().grid();
  for (int u = 0; u < static_cast<int>(s.dv().units().size()); ++u) {
    const UnitState& us = s.us(u);
    if (us.box != Box::kMap || !us.left || us.attacked || !s.active_unit(u, kSegCombat)) continue;
    for (int h : gr.neighbours(us.hex)) {
      if (h < 0 || !s.may_attack_hex(h) || !s.may_join(u, h, {})) continue;
      if (s.dv().unit(u).single_unit) return true;
      for (int v = 0; v < static_cast<int>(s.dv().units().size()); ++v)
        if (v != u && s.us(v).box == Box::kMap && gr.adjacent(s.us(v).hex, h) && s.may_join(v, h, {u}))
          return true;
    }
  }
  return false;
}

}  // namespace

struct Verbs {
  // ---- place ----
  static void gen_place(const DvState& s, std::vector<Action>& out) {
    std::vector<int> hexes;
    if (s.stage() == Stage::kStavkaPlace) {  // 10.5.9.2
      for (int u = 0; u < static_cast<int>(s.dv().units().size()); ++u) {
        s.stavka_placement_hexes(u, hexes);
        for (int h : hexes) out.push_back(make(kPlace, {u, h}));
      }
      return;
    }
    if (s.stage() != Stage::kPlace) return;
    for (int u = 0; u < static_cast<int>(s.dv().units().size()); ++u) {
      if (s.dv().unit(u).side != s.active_side()) continue;
      s.placement_hexes(u, hexes);
      for (int h : hexes) out.push_back(make(kPlace, {u, h}));
    }
  }
  static Status check_place(const DvState& s, const Action& a) {
    if (Status st = arity(a, 2, "place UNIT HEX"); !st) return st;
    if (s.stage() == Stage::kStavkaPlace) {
      if (!valid_unit(s, a.args[0]) || !valid_hex(s, a.args[1]))
        return Error{"usage: place UNIT HEX", "", ""};
      const int u = a.args[0];
      if (s.us(u).box != Box::kStavkaReserve)
        return rule_error("10.5.9", s.dv().unit(u).label + " is not in the Stavka Reserve");
      const int steps = s.reserve_steps(u);
      if (steps > s.stavka_steps())
        return rule_error("10.5.9.1", s.dv().unit(u).label + " has " + std::to_string(steps) +
                                          " steps; only " + std::to_string(s.stavka_steps()) +
                                          " may still leave the Stavka Reserve");
      std::vector<int> hexes;
      s.stavka_placement_hexes(u, hexes);
      if (std::find(hexes.begin(), hexes.end(), a.args[1]) == hexes.end())
        return rule_error("10.5.9.2", s.dv().unit(u).label + " may not be placed at " +
                                          s.dv().grid().id(a.args[1]) +
                                          " (a 7.3 reinforcement hex, or with the Stavka or Zhukov HQ in "
                                          "overland supply, stacking permitting)");
      return Status::ok();
    }
    if (s.stage() != Stage::kPlace)
      return rule_error("7.1", "reinforcements are placed only in the Reinforcement Phase");
    if (!valid_unit(s, a.args[0]) || !valid_hex(s, a.args[1])) return Error{"usage: place UNIT HEX", "", ""};
    if (s.dv().unit(a.args[0]).side != s.active_side())
      return rule_error("7.1", "the Axis places first, then the Soviets");
    std::vector<int> hexes;
    s.placement_hexes(a.args[0], hexes);
    if (hexes.empty())
      return rule_error("7.1", s.dv().unit(a.args[0]).label + " is not a reinforcement of this turn");
    if (std::find(hexes.begin(), hexes.end(), a.args[1]) == hexes.end())
      return rule_error(s.dv().unit(a.args[0]).side == kAxis ? "7.2" : "7.3",
                        s.dv().unit(a.args[0]).label + " may not enter at " + s.dv().grid().id(a.args[1]));
    return Status::ok();
  }
  static void apply_place(DvState& s, const Action& a) {
    if (s.stage() == Stage::kStavkaPlace) {
      s.do_stavka_place(a.args[0], a.args[1]);
      return;
    }
    s.do_place(a.args[0], a.args[1]);
    s.advance_placement();
  }
  // ---- chit ----
  static void gen_chit(const DvState& s, std::vector<Action>& out) {
    if (s.stage() != Stage::kInitiative) return;
    for (int k : s.initiative_choices()) out.push_back(make(kChit, {k}));
  }
  static Status check_chit(const DvState& s, const Action& a) {
    if (Status st = arity(a, 1, "chit NAME"); !st) return st;
    if (s.stage() != Stage::kInitiative)
      return rule_error("10.2", "the initiative chit is chosen at the start of the Action Phase");
    const auto c = s.initiative_choices();
    if (std::find(c.begin(), c.end(), a.args[0]) == c.end())
      return rule_error("10.2", "the initiative player picks one of his own non-Logistics chits in the mix");
    return Status::ok();
  }
  static void apply_chit(DvState& s, const Action& a) {
    const int id = a.args[0] * 2 + s.active_side();
    (void)s.cup_.remove(id);
    s.preset_.push_back(id);
    s.log("chit",
          std::string(s.active_side() == kAxis ? "Axis" : "Soviet") +
              " initiative chit: " + std::string(kChitNames[static_cast<size_t>(a.args[0])]),
          "10.2");
    if (s.initiative_left_ == 1 && s.preset_.size() == 2) s.fall_blau_turn_ = s.turn();  // 10.2 second chit
    if (--s.initiative_left_ > 0 && !s.initiative_choices().empty()) return;
    s.initiative_left_ = 0;
    s.next_round();
  }
  // ---- mode ----
  static void gen_mode(const DvState& s, std::vector<Action>& out) {
    if (s.stage() != Stage::kMode) return;
    for (int m : s.mode_choices()) out.push_back(make(kMode, {m}));
  }
  static Status check_mode(const DvState& s, const Action& a) {
    if (Status st = arity(a, 1, "mode move|combat"); !st) return st;
    if (s.stage() != Stage::kMode) return rule_error("10.5", "no round order to choose now");
    const auto c = s.mode_choices();
    if (std::find(c.begin(), c.end(), a.args[0]) == c.end())
      return rule_error("10.5.5", "at most one Move round and one Combat round per player per turn");
    return Status::ok();
  }
  static void apply_mode(DvState& s, const Action& a) { s.set_mode(a.args[0] == 0); }
  // ---- pick / move ----
  static void gen_pick(const DvState& s, std::vector<Action>& out) {
    if (s.stage() != Stage::kMove || s.picked() >= 0) return;
    for (int u = 0; u < static_cast<int>(s.dv().units().size()); ++u)
      if (s.can_pick(u)) out.push_back(make(kPick, {u}));
  }
  static Status check_pick(const DvState& s, const Action& a) {
    if (Status st = arity(a, 1, "pick UNIT"); !st) return st;
    if (s.stage() != Stage::kMove)
      return rule_error("10.5", "units move only in the movement part of a round");
    // 11.1.1: "The Movement of each unit must be completed before that of another is begun."
    if (s.picked() >= 0)
      return rule_error("11.1, 11.1.1", "finish the move of " + s.dv().unit(s.picked()).label + " first");
    if (!valid_unit(s, a.args[0])) return Error{"usage: pick UNIT", "", ""};
    const int u = a.args[0];
    if (!s.active_unit(u, kSegMove))
      return rule_error("10.5", s.dv().unit(u).label + " is not activated in this round");
    // 11.1.1: "No unit may move more than once per Action Round but, if eligible, a unit may move
    // in multiple Action Rounds in a Turn."
    if (s.us(u).moved)
      return rule_error("11.1, 11.1.1", s.dv().unit(u).label + " has already moved in this round");
    if (!s.can_pick(u)) return rule_error("11.3", s.dv().unit(u).label + " has no movement factor now");
    return Status::ok();
  }
  static void apply_pick(DvState& s, const Action& a) { s.picked_ = a.args[0]; }
  static void gen_move(const DvState& s, std::vector<Action>& out) {
    if (s.stage() != Stage::kMove || s.picked() < 0) return;
    std::vector<int> dest;
    s.move_destinations(s.picked(), dest);
    for (int h : dest) out.push_back(make(kMoveTo, {s.picked(), h}));
  }
  static Status check_move(const DvState& s, const Action& a) {
    if (Status st = arity(a, 2, "move UNIT HEX"); !st) return st;
    if (s.stage() != Stage::kMove)
      return rule_error("10.5", "units move only in the movement part of a round");
    if (!valid_unit(s, a.args[0]) || !valid_hex(s, a.args[1])) return Error{"usage: move UNIT HEX", "", ""};
    if (s.picked() != a.args[0])
      return rule_error("11.1", "pick " + s.dv().unit(a.args[0]).label + " before moving it");
    if (!s.stavka_move_ok(a.args[0], a.args[1]))
      return rule_error("10.5.9.3",
                        s.dv().unit(a.args[0]).label +
                            " entered with the HQ: its first or second hex must be within two "
                            "hexes of an Axis combat unit, or it must end within two hexes of a "
                            "Soviet combat unit that did not leave the Stavka Reserve this round");
    if (!s.move_dest_ok(a.args[0], a.args[1], nullptr))
      return rule_error("11.1, 6.2, 5.1, 10.5.6",
                        s.dv().unit(a.args[0]).label + " cannot reach " + s.dv().grid().id(a.args[1]) +
                            " (movement points, terrain, ZOC 6.2, stacking 5.1; a Counterattack"
                            " mover must end able to attack, 10.5.6)");
    return Status::ok();
  }
  static void apply_move(DvState& s, const Action& a) {
    s.do_move(a.args[0], a.args[1]);
    s.picked_ = -1;
  }
  // ---- attack / add / resolve / cancel ----
  static void gen_attack(const DvState& s, std::vector<Action>& out) {
    if (s.stage() != Stage::kCombat || s.target() >= 0) return;
    std::vector<uint8_t> seen(static_cast<size_t>(s.dv().grid().size()), 0);
    std::vector<int> hexes;
    for (int u = 0; u < static_cast<int>(s.dv().units().size()); ++u) {
      if (!s.on_map(u) || s.dv().unit(u).side != s.active_side() || s.us(u).attacked) continue;
      for (int h : s.dv().grid().neighbours(s.us(u).hex))
        if (h >= 0 && seen[static_cast<size_t>(h)] == 0) {
          seen[static_cast<size_t>(h)] = 1;
          if (s.may_attack_hex(h)) hexes.push_back(h);
        }
    }
    std::sort(hexes.begin(), hexes.end());
    for (int h : hexes) out.push_back(make(kAttack, {h}));
  }
  static Status check_attack(const DvState& s, const Action& a) {
    if (Status st = arity(a, 1, "attack HEX"); !st) return st;
    if (s.stage() != Stage::kCombat)
      return rule_error("12.1", "attacks are made only in the combat part of a round");
    if (s.target() >= 0)
      return rule_error("12.1", "combats are fought one at a time: resolve or cancel the attack on " +
                                    s.dv().grid().id(s.target()));
    if (!valid_hex(s, a.args[0])) return Error{"usage: attack HEX", "", ""};
    if (!s.may_attack_hex(a.args[0]))
      return rule_error("12.2",
                        "no attack on " + s.dv().grid().id(a.args[0]) +
                            ": it needs enemy units not yet attacked this round next to an active unit");
    return Status::ok();
  }
  static void apply_attack(DvState& s, const Action& a) { s.target_ = a.args[0]; }
  static void gen_add(const DvState& s, std::vector<Action>& out) {
    if (s.stage() != Stage::kCombat || s.target() < 0) return;
    for (int h : s.dv().grid().neighbours(s.target()))
      if (h >= 0)
        for (int u = 0; u < static_cast<int>(s.dv().units().size()); ++u)
          if (s.us(u).box == Box::kMap && s.us(u).hex == h && s.may_add(u)) out.push_back(make(kAdd, {u}));
  }
  static Status check_add(const DvState& s, const Action& a) {
    if (Status st = arity(a, 1, "add UNIT"); !st) return st;
    if (s.stage() != Stage::kCombat || s.target() < 0) return rule_error("12.2", "no attack is being made");
    if (!valid_unit(s, a.args[0])) return Error{"usage: add UNIT", "", ""};
    if (!s.may_add(a.args[0]))
      return rule_error("12.2", s.dv().unit(a.args[0]).label + " may not join the attack on " +
                                    s.dv().grid().id(s.target()) +
                                    " (active, adjacent, once per round; 12.4 Volga, 15.1 minors)");
    return Status::ok();
  }
  static void apply_add(DvState& s, const Action& a) { s.attackers_.push_back(a.args[0]); }
  static void gen_resolve(const DvState& s, std::vector<Action>& out) {
    if (s.may_resolve() || s.stage() == Stage::kAirDefend) out.push_back(make(kResolve));
  }
  static Status check_resolve(const DvState& s, const Action& a) {
    if (Status st = arity(a, 0, "resolve"); !st) return st;
    if (s.stage() == Stage::kAirDefend) return Status::ok();  // 8.4 the defender's air is placed
    if (s.stage() != Stage::kCombat || s.target() < 0 || s.attackers().empty())
      return rule_error("12.3", "no attack with attackers to resolve");
    if (!s.may_resolve()) return rule_error("12.2.1", "this unit may not attack alone (Single Unit rule)");
    return Status::ok();
  }
  static void apply_resolve(DvState& s, const Action&) {
    if (AirVerbs::resolve_opens_defence(s)) return;  // 8.4 the defender's air first
    s.stage_ = Stage::kCombat;
    s.resolve_attack();
  }
  static void gen_cancel(const DvState& s, std::vector<Action>& out) {
    if (s.stage() == Stage::kCombat && s.target() >= 0) out.push_back(make(kCancel));
  }
  static Status check_cancel(const DvState& s, const Action& a) {
    if (Status st = arity(a, 0, "cancel"); !st) return st;
    if (s.stage() != Stage::kCombat || s.target() < 0) return rule_error("12.2", "no attack to call off");
    return Status::ok();
  }
  static void apply_cancel(DvState& s, const Action&) { s.end_combat(); }
  // ---- advance / stop ----
  static void gen_advance(const DvState& s, std::vector<Action>& out) {
    if (s.stage() != Stage::kAdvance) return;
    for (int u : s.advancers_)
      if (s.may_advance(u)) out.push_back(make(kAdvance, {u}));
  }
  static Status check_advance(const DvState& s, const Action& a) {
    if (Status st = arity(a, 1, "advance UNIT"); !st) return st;
    if (s.stage() != Stage::kAdvance)
      return rule_error("12.6", "advance only right after a combat that emptied the defender's hex");
    if (!valid_unit(s, a.args[0]) || !s.may_advance(a.args[0]))
      return rule_error("12.6",
                        "only surviving attackers of this combat, and a HQ stacked with them once one has "
                        "advanced, may advance, stacking permitting");
    return Status::ok();
  }
  static void apply_advance(DvState& s, const Action& a) { s.do_advance(a.args[0]); }
  static void gen_stop(const DvState& s, std::vector<Action>& out) {
    if (s.stage() == Stage::kAdvance) out.push_back(make(kStop));
  }
  static Status check_stop(const DvState& s, const Action& a) {
    if (Status st = arity(a, 0, "stop"); !st) return st;
    if (s.stage() != Stage::kAdvance) return rule_error("12.6", "no advance to stop");
    return Status::ok();
  }
  static void apply_stop(DvState& s, const Action&) { s.end_combat(); }
  // ---- end ----
  static void gen_end(const DvState& s, std::vector<Action>& out) {
    if ((s.stage() == Stage::kMove && s.picked() < 0) ||
        (s.stage() == Stage::kCombat && s.target() < 0 && !mover_must_attack(s)))
      out.push_back(make(kEnd));
  }
  static Status check_end(const DvState& s, const Action& a) {
    if (Status st = arity(a, 0, "end"); !st) return st;
    if (s.stage() == Stage::kMove && s.picked() >= 0)
      return rule_error("11.1", "finish the move of " + s.dv().unit(s.picked()).label + " first");
    if (s.stage() == Stage::kCombat && s.target() >= 0)
      return rule_error("12.1", "resolve or cancel the attack on " + s.dv().grid().id(s.target()) + " first");
    if (s.stage() != Stage::kMove && s.stage() != Stage::kCombat)
      return rule_error("10.5", "no movement or combat to end now");
    if (s.stage() == Stage::kCombat && mover_must_attack(s))
      return rule_error("10.5.6", "units that moved in a Counterattack round must attack");
    return Status::ok();
  }
  static void apply_end(DvState& s, const Action&) { s.end_segment(); }

  // ---- replace / rebuild / done (7.4, 7.6) ----
  static void gen_replace(const DvState& s, std::vector<Action>& out) {
    if (s.stage() != Stage::kReplace) return;
    std::vector<uint8_t> los, loc;
    s.trace_supply(s.active_side(), los, loc);
    for (int u = 0; u < static_cast<int>(s.dv().units().size()); ++u)
      if (s.flip_cost(u, &los) >= 0) out.push_back(make(kReplace, {u}));
  }
  static Status check_replace(const DvState& s, const Action& a) {
    if (Status st = arity(a, 1, "replace UNIT"); !st) return st;
    if (s.stage() != Stage::kReplace)
      return rule_error("7.1", "replacements are taken only in the Replacement Segment");
    if (!valid_unit(s, a.args[0])) return Error{"usage: replace UNIT", "", ""};
    if (s.flip_cost(a.args[0]) < 0)
      return rule_error("7.4, 7.6",
                        s.dv().unit(a.args[0]).label +
                            " may not be brought to full strength now (a reduced replaceable unit of the "
                            "side, in supply, with replacements of its kind or RF enough; 7.6 next to the "
                            "Axis only in or next to a factory city)");
    return Status::ok();
  }
  static void apply_replace(DvState& s, const Action& a) { s.do_flip(a.args[0]); }
  static void gen_rebuild(const DvState& s, std::vector<Action>& out) {
    if (s.stage() != Stage::kReplace) return;
    std::vector<uint8_t> los, loc;
    s.trace_supply(s.active_side(), los, loc);
    std::vector<int> hexes;
    for (int u = 0; u < static_cast<int>(s.dv().units().size()); ++u) {
      const bool reduced = s.rebuild_cost(u, false) >= 0, full = s.rebuild_cost(u, true) >= 0;
      if (!reduced && !full) continue;
      s.rebuild_hexes(u, hexes, &los, &loc);
      for (int h : hexes)
        for (int f = 0; f < 2; ++f)
          if (f == 0 ? reduced : full) out.push_back(make(kRebuild, {u, h, f}));
    }
  }
  static Status check_rebuild(const DvState& s, const Action& a) {
    if (Status st = arity(a, 3, "rebuild UNIT HEX full|reduced"); !st) return st;
    if (s.stage() != Stage::kReplace)
      return rule_error("7.1", "replacements are taken only in the Replacement Segment");
    if (!valid_unit(s, a.args[0]) || !valid_hex(s, a.args[1]) || a.args[2] < 0 || a.args[2] > 1)
      return Error{"usage: rebuild UNIT HEX full|reduced", "", ""};
    if (s.rebuild_cost(a.args[0], a.args[2] == 1) < 0)
      return rule_error("7.4, 7.6",
                        s.dv().unit(a.args[0]).label +
                            " may not be rebuilt so now (an eliminated replaceable unit, with replacements "
                            "of its kind or RF enough; 7.6's one-per-turn limit)");
    std::vector<int> hexes;
    s.rebuild_hexes(a.args[0], hexes);
    if (std::find(hexes.begin(), hexes.end(), a.args[1]) == hexes.end())
      return rule_error("7.2, 7.3", s.dv().unit(a.args[0]).label + " may not return at " +
                                        s.dv().grid().id(a.args[1]) +
                                        " (placed as a reinforcement, in supply)");
    return Status::ok();
  }
  static void apply_rebuild(DvState& s, const Action& a) {
    s.do_rebuild(a.args[0], a.args[1], a.args[2] == 1);
  }
  // The stages a player ends with `done` (7.1, 9.1, 8.2, 8.6, 10.5.9, 10.5.6.2).
  static bool ends_with_done(Stage st) {
    return st == Stage::kReplace || st == Stage::kRail || st == Stage::kNaval || st == Stage::kAirBase ||
           st == Stage::kAirSupply || st == Stage::kStavkaPlace || st == Stage::kMandate;
  }
  static void gen_done(const DvState& s, std::vector<Action>& out) {
    if (ends_with_done(s.stage())) out.push_back(make(kDone));
  }
  static Status check_done(const DvState& s, const Action& a) {
    if (Status st = arity(a, 0, "done"); !st) return st;
    if (!ends_with_done(s.stage()))
      return rule_error(
          "7.1, 9.1, 8.2, 8.6",
          "no Replacement Segment, rail movement, Naval Transport, Air Base Segment or Air Supply "
          "to end");
    return Status::ok();
  }
  static void apply_done(DvState& s, const Action&) {
    if (s.stage() == Stage::kStavkaPlace) {  // 10.5.9: placement is complete
      s.end_stavka_placement();
      return;
    }
    if (s.stage() == Stage::kMandate) {  // 10.5.6.2 "the Axis player may eliminate": no more
      s.log("mandate", "the Axis eliminates no more Rifle Divisions", "10.5.6.2");
      s.purges_left_ = 0;
      s.next_round();
      return;
    }
    if (s.stage() == Stage::kAirBase) {
      AirVerbs::end_segment(s);
      return;
    }
    if (s.stage() == Stage::kAirSupply) {
      s.end_air_supply();
      return;
    }
    if (s.stage() == Stage::kRail) {
      if (s.rail_left_ > 0)
        s.log("rail", "unused rail steps are lost", s.active_side() == kAxis ? "9.2" : "9.4");
      s.rail_left_ = 0;
    } else if (s.stage() == Stage::kNaval) {
      s.naval_left_ = {0, 0};
    } else {
      s.log("replace", "unused replacements are lost", "7.1");
    }
    ++s.phase1_;
    s.advance_placement();
  }

  // ---- rail (9.1, 9.2, 9.4) ----
  static void gen_rail(const DvState& s, std::vector<Action>& out) {
    if (s.stage() != Stage::kRail || s.rail_left() <= 0) return;
    std::vector<uint8_t> los, loc;
    s.trace_supply(s.active_side(), los, loc);
    std::vector<int> dest;
    for (int u = 0; u < static_cast<int>(s.dv().units().size()); ++u) {
      s.rail_destinations(u, dest, &los);
      for (int h : dest) out.push_back(make(kRail, {u, h}));
    }
  }
  static Status check_rail(const DvState& s, const Action& a) {
    if (Status st = arity(a, 2, "rail UNIT HEX"); !st) return st;
    if (!valid_unit(s, a.args[0]) || !valid_hex(s, a.args[1])) return Error{"usage: rail UNIT HEX", "", ""};
    std::string rule;
    const std::string why = s.rail_refusal(a.args[0], a.args[1], &rule);
    if (!why.empty()) return rule_error(rule, why);
    return Status::ok();
  }
  static void gen_ship(const DvState& s, std::vector<Action>& out) {
    if (s.stage() != Stage::kNaval) return;
    std::vector<int> dest;
    for (int u = 0; u < static_cast<int>(s.dv().units().size()); ++u) {
      s.naval_destinations(u, dest);
      for (int h : dest) out.push_back(make(kShip, {u, h}));
    }
  }
  static Status check_ship(const DvState& s, const Action& a) {
    if (Status st = arity(a, 2, "ship UNIT HEX"); !st) return st;
    if (!valid_unit(s, a.args[0]) || !valid_hex(s, a.args[1])) return Error{"usage: ship UNIT HEX", "", ""};
    std::string rule;
    const std::string why = s.naval_refusal(a.args[0], a.args[1], &rule);
    if (!why.empty()) return rule_error(rule, why);
    return Status::ok();
  }
  static void apply_ship(DvState& s, const Action& a) {
    s.do_ship(a.args[0], a.args[1]);
    // The segment ends by itself once no Naval Transport is left to make.
    if (!s.naval_move_left()) {
      s.naval_left_ = {0, 0};
      ++s.phase1_;
      s.advance_placement();
    }
  }
  static void apply_rail(DvState& s, const Action& a) {
    s.do_rail(a.args[0], a.args[1]);
    // The segment ends by itself once no rail move is left (the steps are spent or nobody can go).
    if (!s.rail_move_left()) {
      s.rail_left_ = 0;
      ++s.phase1_;
      s.advance_placement();
    }
  }

  // ---- lose / retreat (12.3c, 12.5: the owner's choices) ----
  static void gen_lose(const DvState& s, std::vector<Action>& out) {
    if (s.stage() != Stage::kLoss) return;
    for (int u : s.loss_choices()) out.push_back(make(kLose, {u}));
  }
  static Status check_lose(const DvState& s, const Action& a) {
    if (Status st = arity(a, 1, "lose UNIT"); !st) return st;
    if (s.stage() != Stage::kLoss) return rule_error("12.3c", "no step loss to choose now");
    if (!valid_unit(s, a.args[0])) return Error{"usage: lose UNIT", "", ""};
    const auto c = s.loss_choices();
    if (std::find(c.begin(), c.end(), a.args[0]) == c.end())
      return rule_error("12.3c",
                        s.dv().unit(a.args[0]).label +
                            " may not take this loss: a unit of the combat, no elimination while a "
                            "friendly full-strength two-step unit remains, and a full-strength Guards "
                            "army takes the first attacker loss");
    return Status::ok();
  }
  static void apply_lose(DvState& s, const Action& a) {
    s.lose_step(a.args[0]);
    s.carry_out_results();
  }
  static void gen_retreat(const DvState& s, std::vector<Action>& out) {
    if (s.stage() != Stage::kRetreat) return;
    const int u = s.retreating_unit();
    if (u < 0) return;
    std::vector<int> dest;
    s.retreat_destinations(u, dest);
    for (int h : dest) out.push_back(make(kRetreatTo, {u, h}));
  }
  static Status check_retreat(const DvState& s, const Action& a) {
    if (Status st = arity(a, 2, "retreat UNIT HEX"); !st) return st;
    if (s.stage() != Stage::kRetreat) return rule_error("12.5", "no retreat to make now");
    if (!valid_unit(s, a.args[0]) || !valid_hex(s, a.args[1]))
      return Error{"usage: retreat UNIT HEX", "", ""};
    if (s.retreating_unit() != a.args[0])
      return rule_error("12.5", "the units retreat one at a time: " + s.dv().unit(s.retreating_unit()).label +
                                    " retreats next");
    std::vector<int> dest;
    s.retreat_destinations(a.args[0], dest);
    if (std::find(dest.begin(), dest.end(), a.args[1]) == dest.end())
      return rule_error("12.5, DV-E4",
                        s.dv().unit(a.args[0]).label + " may not retreat to " + s.dv().grid().id(a.args[1]) +
                            " (two hexes away, not next to the combat hex, no enemy unit or "
                            "un-negated enemy ZOC, not over-stacked, along the Retreat Compass "
                            "if at all possible)");
    return Status::ok();
  }
  static void apply_retreat(DvState& s, const Action& a) {
    s.retreat_to(a.args[0], a.args[1]);
    s.carry_out_results();
  }

  // ---- manstein / hold (10.2, 10.5.10) ----
  static void gen_manstein(const DvState& s, std::vector<Action>& out) {
    if (s.stage() != Stage::kHeld || s.active_side() != kAxis) return;
    std::vector<int> hexes;
    s.manstein_hexes(hexes);
    for (int h : hexes) out.push_back(make(kManstein, {h}));
  }
  static Status check_manstein(const DvState& s, const Action& a) {
    if (Status st = arity(a, 1, "manstein HEX"); !st) return st;
    if (s.stage() != Stage::kHeld || s.active_side() != kAxis)
      return rule_error("10.2",
                        "Manstein/Model is played only before a chit is drawn from the cup, or last"
                        " (and after the Soviet's choice of the Stavka chit)");
    if (!valid_hex(s, a.args[0])) return Error{"usage: manstein HEX", "", ""};
    std::vector<int> hexes;
    s.manstein_hexes(hexes);
    if (std::find(hexes.begin(), hexes.end(), a.args[0]) == hexes.end())
      return rule_error("10.5.10", "Manstein/Model is placed on a fully supplied Axis combat unit, not in " +
                                       s.dv().grid().id(a.args[0]));
    return Status::ok();
  }
  static void apply_manstein(DvState& s, const Action& a) { s.play_manstein(a.args[0]); }
  static void gen_hold(const DvState& s, std::vector<Action>& out) {
    if (s.stage() == Stage::kHeld || s.may_defer_fall_blau()) out.push_back(make(kHold));
  }
  static Status check_hold(const DvState& s, const Action& a) {
    if (Status st = arity(a, 0, "hold"); !st) return st;
    if (s.stage() != Stage::kHeld && !s.may_defer_fall_blau())
      return rule_error("10.2", "no held chit or Fall Blau choice to keep back now");
    return Status::ok();
  }
  static void apply_hold(DvState& s, const Action&) {
    if (s.stage() == Stage::kInitiative) {
      s.log("chit", "the Axis keeps Fall Blau's two initiative chits for Turn 13", "10.2");
      s.initiative_left_ = 0;
    } else if (s.active_side() == kSoviet) {
      s.stavka_passed_ = true;  // 10.2: Stavka is kept back for this draw
    } else {
      s.held_passed_ = true;
    }
    s.next_round();
  }
  // ---- stavka (10.2, 10.5.9) ----
  static void gen_stavka(const DvState& s, std::vector<Action>& out) {
    if (s.stage() == Stage::kHeld && s.active_side() == kSoviet) out.push_back(make(kStavka));
  }
  static Status check_stavka(const DvState& s, const Action& a) {
    if (Status st = arity(a, 0, "stavka"); !st) return st;
    if (s.stage() != Stage::kHeld || s.active_side() != kSoviet)
      return rule_error("10.2",
                        "the Stavka chit is played only before a chit is drawn from the cup, or last, "
                        "never before an Axis initiative chit (or as the Soviet initiative chit)");
    return Status::ok();
  }
  static void apply_stavka(DvState& s, const Action&) {
    s.pulled_.push_back(kChitStavka * 2 + kSoviet);
    s.log("chit", "the Soviet plays the Stavka chit", "10.2");
    s.start_round(kChitStavka, kSoviet);
  }
  // ---- purge (10.5.6.2) ----
  static void gen_purge(const DvState& s, std::vector<Action>& out) {
    std::vector<int> c;
    s.purge_choices(c);
    for (int u : c) out.push_back(make(kPurge, {u}));
  }
  static Status check_purge(const DvState& s, const Action& a) {
    if (Status st = arity(a, 1, "purge UNIT"); !st) return st;
    if (s.stage() != Stage::kMandate)
      return rule_error("10.5.6.2",
                        "Rifle Divisions are eliminated only for mandated counterattacks not made");
    if (!valid_unit(s, a.args[0])) return Error{"usage: purge UNIT", "", ""};
    std::vector<int> c;
    s.purge_choices(c);
    if (std::find(c.begin(), c.end(), a.args[0]) == c.end())
      return rule_error("10.5.6.2", s.dv().unit(a.args[0]).label +
                                        " may not be chosen: a Soviet 1-4 Rifle Division on the map, those "
                                        "adjacent to Axis units first, else those closest to one");
    return Status::ok();
  }
  static void apply_purge(DvState& s, const Action& a) { s.do_purge(a.args[0]); }
  // ---- reserve (7.3) ----
  static void gen_reserve(const DvState& s, std::vector<Action>& out) {
    if (s.stage() != Stage::kPlace || s.active_side() != kSoviet) return;
    for (int u = 0; u < static_cast<int>(s.dv().units().size()); ++u)
      if (s.may_reserve(u)) out.push_back(make(kReserve, {u}));
  }
  static Status check_reserve(const DvState& s, const Action& a) {
    if (Status st = arity(a, 1, "reserve UNIT"); !st) return st;
    if (s.stage() != Stage::kPlace || s.active_side() != kSoviet)
      return rule_error("7.3", "reinforcements go into the Stavka Reserve only when the Soviet places them");
    if (!valid_unit(s, a.args[0])) return Error{"usage: reserve UNIT", "", ""};
    if (!s.may_reserve(a.args[0]))
      return rule_error("7.3", s.dv().unit(a.args[0]).label +
                                   " may not go into the Stavka Reserve (a Soviet " +
                                   "reinforcement of this turn, from Turn " +
                                   std::to_string(s.dv().stavka_reserve_from()) + ")");
    return Status::ok();
  }
  static void apply_reserve(DvState& s, const Action& a) {
    s.do_reserve(a.args[0]);
    s.advance_placement();
  }

  // ---- notation ----
  static std::string print(const DvState& s, const Action& a) {
    auto unit = [&](int i) { return valid_unit(s, a.args[i]) ? s.dv().unit(a.args[i]).label : "?"; };
    auto hex = [&](int i) { return valid_hex(s, a.args[i]) ? s.dv().grid().id(a.args[i]) : "?"; };
    switch (a.verb) {
      case kPlace:
        return "place " + unit(0) + " " + hex(1);
      case kChit:
        return "chit " + std::string(a.args[0] >= 0 && a.args[0] < kChitCount
                                         ? kChitNames[static_cast<size_t>(a.args[0])]
                                         : "?");
      case kMode:
        return std::string("mode ") + (a.args[0] == 0 ? "move" : "combat");
      case kPick:
        return "pick " + unit(0);
      case kMoveTo:
        return "move " + unit(0) + " " + hex(1);
      case kAttack:
        return "attack " + hex(0);
      case kAdd:
        return "add " + unit(0);
      case kResolve:
        return "resolve";
      case kCancel:
        return "cancel";
      case kAdvance:
        return "advance " + unit(0);
      case kStop:
        return "stop";
      case kEnd:
        return "end";
      case kReplace:
        return "replace " + unit(0);
      case kRebuild:
        return "rebuild " + unit(0) + " " + hex(1) + (a.args[2] == 1 ? " full" : " reduced");
      case kDone:
        return "done";
      case kLose:
        return "lose " + unit(0);
      case kRetreatTo:
        return "retreat " + unit(0) + " " + hex(1);
      case kManstein:
        return "manstein " + hex(0);
      case kHold:
        return "hold";
      case kRail:
        return "rail " + unit(0) + " " + hex(1);
      case kShip:
        return "ship " + unit(0) + " " + hex(1);
      case kStavka:
        return "stavka";
      case kPurge:
        return "purge " + unit(0);
      case kReserve:
        return "reserve " + unit(0);
      default:
        return "?";
    }
  }
  static Result<Action> parse_none(uint16_t verb, std::span<const std::string_view> w) {
    if (!w.empty()) return Error{"this action takes no arguments", "", ""};
    return make(verb);
  }
  static Result<Action> parse_unit_hex(const DvState& s, uint16_t verb, std::span<const std::string_view> w) {
    if (w.size() != 2)
      return Error{"usage: " +
                       std::string(verb == kPlace    ? "place"
                                   : verb == kMoveTo ? "move"
                                   : verb == kRail   ? "rail"
                                   : verb == kShip   ? "ship"
                                                     : "retreat") +
                       " UNIT HEX",
                   "", ""};
    auto u = unit_arg(s, w[0]);
    if (!u) return u.error();
    auto h = hex_arg(s, w[1]);
    if (!h) return h.error();
    return make(verb, {*u, *h});
  }
  static Result<Action> parse_unit(const DvState& s, uint16_t verb, std::span<const std::string_view> w) {
    if (w.size() != 1) return Error{"this action names one unit", "", ""};
    auto u = unit_arg(s, w[0]);
    if (!u) return u.error();
    return make(verb, {*u});
  }
};

namespace {

using Row = steppe::VerbRow<DvState>;
const Row kRows[] = {
    {kPlace, "place", "place UNIT HEX", "7.1", &Verbs::gen_place, &Verbs::check_place, &Verbs::apply_place,
     &Verbs::print,
     [](const DvState& s, std::span<const std::string_view> w) {
       return Verbs::parse_unit_hex(s, kPlace, w);
     }},
    {kChit, "chit", "chit NAME", "10.2", &Verbs::gen_chit, &Verbs::check_chit, &Verbs::apply_chit,
     &Verbs::print,
     [](const DvState&, std::span<const std::string_view> w) -> Result<Action> {
       if (w.size() != 1 || chit_from_name(w[0]) < 0)
         return Error{"usage: chit NAME (a chit of 10.1)", "10.1", ""};
       return make(kChit, {chit_from_name(w[0])});
     }},
    {kMode, "mode", "mode move|combat", "10.5.5", &Verbs::gen_mode, &Verbs::check_mode, &Verbs::apply_mode,
     &Verbs::print,
     [](const DvState&, std::span<const std::string_view> w) -> Result<Action> {
       if (w.size() != 1 || (w[0] != "move" && w[0] != "combat"))
         return Error{"usage: mode move|combat", "", ""};
       return make(kMode, {w[0] == "move" ? 0 : 1});
     }},
    {kPick, "pick", "pick UNIT", "11.1", &Verbs::gen_pick, &Verbs::check_pick, &Verbs::apply_pick,
     &Verbs::print,
     [](const DvState& s, std::span<const std::string_view> w) { return Verbs::parse_unit(s, kPick, w); }},
    {kMoveTo, "move", "move UNIT HEX", "11.1", &Verbs::gen_move, &Verbs::check_move, &Verbs::apply_move,
     &Verbs::print,
     [](const DvState& s, std::span<const std::string_view> w) {
       return Verbs::parse_unit_hex(s, kMoveTo, w);
     }},
    {kAttack, "attack", "attack HEX", "12.2", &Verbs::gen_attack, &Verbs::check_attack, &Verbs::apply_attack,
     &Verbs::print,
     [](const DvState& s, std::span<const std::string_view> w) -> Result<Action> {
       if (w.size() != 1) return Error{"usage: attack HEX", "", ""};
       auto h = hex_arg(s, w[0]);
       if (!h) return h.error();
       return make(kAttack, {*h});
     }},
    {kAdd, "add", "add UNIT", "12.2", &Verbs::gen_add, &Verbs::check_add, &Verbs::apply_add, &Verbs::print,
     [](const DvState& s, std::span<const std::string_view> w) { return Verbs::parse_unit(s, kAdd, w); }},
    {kResolve, "resolve", "resolve", "12.3", &Verbs::gen_resolve, &Verbs::check_resolve,
     &Verbs::apply_resolve, &Verbs::print,
     [](const DvState&, std::span<const std::string_view> w) { return Verbs::parse_none(kResolve, w); }},
    {kCancel, "cancel", "cancel", "12.2", &Verbs::gen_cancel, &Verbs::check_cancel, &Verbs::apply_cancel,
     &Verbs::print,
     [](const DvState&, std::span<const std::string_view> w) { return Verbs::parse_none(kCancel, w); }},
    {kAdvance, "advance", "advance UNIT", "12.6", &Verbs::gen_advance, &Verbs::check_advance,
     &Verbs::apply_advance, &Verbs::print,
     [](const DvState& s, std::span<const std::string_view> w) { return Verbs::parse_unit(s, kAdvance, w); }},
    {kStop, "stop", "stop", "12.6", &Verbs::gen_stop, &Verbs::check_stop, &Verbs::apply_stop, &Verbs::print,
     [](const DvState&, std::span<const std::string_view> w) { return Verbs::parse_none(kStop, w); }},
    {kEnd, "end", "end", "10.5", &Verbs::gen_end, &Verbs::check_end, &Verbs::apply_end, &Verbs::print,
     [](const DvState&, std::span<const std::string_view> w) { return Verbs::parse_none(kEnd, w); }},
    {kReplace, "replace", "replace UNIT", "7.4", &Verbs::gen_replace, &Verbs::check_replace,
     &Verbs::apply_replace, &Verbs::print,
     [](const DvState& s, std::span<const std::string_view> w) { return Verbs::parse_unit(s, kReplace, w); }},
    {kRebuild, "rebuild", "rebuild UNIT HEX full|reduced", "7.4", &Verbs::gen_rebuild, &Verbs::check_rebuild,
     &Verbs::apply_rebuild, &Verbs::print,
     [](const DvState& s, std::span<const std::string_view> w) -> Result<Action> {
       if (w.size() != 3 || (w[2] != "full" && w[2] != "reduced"))
         return Error{"usage: rebuild UNIT HEX full|reduced", "", ""};
       auto u = unit_arg(s, w[0]);
       if (!u) return u.error();
       auto h = hex_arg(s, w[1]);
       if (!h) return h.error();
       return make(kRebuild, {*u, *h, w[2] == "full" ? 1 : 0});
     }},
    {kDone, "done", "done", "7.1", &Verbs::gen_done, &Verbs::check_done, &Verbs::apply_done, &Verbs::print,
     [](const DvState&, std::span<const std::string_view> w) { return Verbs::parse_none(kDone, w); }},
    {kLose, "lose", "lose UNIT", "12.3c", &Verbs::gen_lose, &Verbs::check_lose, &Verbs::apply_lose,
     &Verbs::print,
     [](const DvState& s, std::span<const std::string_view> w) { return Verbs::parse_unit(s, kLose, w); }},
    {kRetreatTo, "retreat", "retreat UNIT HEX", "12.5", &Verbs::gen_retreat, &Verbs::check_retreat,
     &Verbs::apply_retreat, &Verbs::print,
     [](const DvState& s,
        std::span<const std::string_view> w) { return Verbs::parse_unit_hex(s, kRetreatTo, w); }},
    {kManstein, "manstein", "manstein HEX", "10.5.10", &Verbs::gen_manstein, &Verbs::check_manstein,
     &Verbs::apply_manstein, &Verbs::print,
     [](const DvState& s, std::span<const std::string_view> w) -> Result<Action> {
       if (w.size() != 1) return Error{"usage: manstein HEX", "", ""};
       auto h = hex_arg(s, w[0]);
       if (!h) return h.error();
       return make(kManstein, {*h});
     }},
    {kHold, "hold", "hold", "10.2", &Verbs::gen_hold, &Verbs::check_hold, &Verbs::apply_hold, &Verbs::print,
     [](const DvState&, std::span<const std::string_view> w) { return Verbs::parse_none(kHold, w); }},
    {kRail, "rail", "rail UNIT HEX", "9.2", &Verbs::gen_rail, &Verbs::check_rail, &Verbs::apply_rail,
     &Verbs::print,
     [](const DvState& s,
        std::span<const std::string_view> w) { return Verbs::parse_unit_hex(s, kRail, w); }},
    {kShip, "ship", "ship UNIT HEX", "9.3", &Verbs::gen_ship, &Verbs::check_ship, &Verbs::apply_ship,
     &Verbs::print,
     [](const DvState& s,
        std::span<const std::string_view> w) { return Verbs::parse_unit_hex(s, kShip, w); }},
    // 8.x airpower (air.cpp)
    {kBase, "base", "base AIR HEX", "8.2", &AirVerbs::gen_base, &AirVerbs::check_base, &AirVerbs::apply_base,
     &AirVerbs::print,
     [](const DvState& s, std::span<const std::string_view> w) { return AirVerbs::parse(s, kBase, w); }},
    {kAir, "air", "air AIR", "8.4", &AirVerbs::gen_air, &AirVerbs::check_air, &AirVerbs::apply_air,
     &AirVerbs::print,
     [](const DvState& s, std::span<const std::string_view> w) { return AirVerbs::parse(s, kAir, w); }},
    {kBombard, "bombard", "bombard AIR UNIT", "8.5", &AirVerbs::gen_bombard, &AirVerbs::check_bombard,
     &AirVerbs::apply_bombard, &AirVerbs::print,
     [](const DvState& s, std::span<const std::string_view> w) { return AirVerbs::parse(s, kBombard, w); }},
    {kAirSupply, "airsupply", "airsupply AIR HEX", "8.6", &AirVerbs::gen_airsupply,
     &AirVerbs::check_airsupply, &AirVerbs::apply_airsupply, &AirVerbs::print,
     [](const DvState& s, std::span<const std::string_view> w) { return AirVerbs::parse(s, kAirSupply, w); }},
    // 10.5.9, 10.5.6.2
    {kStavka, "stavka", "stavka", "10.5.9", &Verbs::gen_stavka, &Verbs::check_stavka, &Verbs::apply_stavka,
     &Verbs::print,
     [](const DvState&, std::span<const std::string_view> w) { return Verbs::parse_none(kStavka, w); }},
    {kPurge, "purge", "purge UNIT", "10.5.6.2", &Verbs::gen_purge, &Verbs::check_purge, &Verbs::apply_purge,
     &Verbs::print,
     [](const DvState& s, std::span<const std::string_view> w) { return Verbs::parse_unit(s, kPurge, w); }},
    {kReserve, "reserve", "reserve UNIT", "7.3", &Verbs::gen_reserve, &Verbs::check_reserve,
     &Verbs::apply_reserve, &Verbs::print,
     [](const DvState& s, std::span<const std::string_view> w) { return Verbs::parse_unit(s, kReserve, w); }},
};
const steppe::VerbTable<DvState> kVerbs{kRows};

}  // namespace

void DvState::legal_actions(std::vector<Action>& out) const {
  out.clear();
  if (stage_ == Stage::kOver) return;
  kVerbs.generate(*this, out);
}

Status DvState::check(const Action& a) const {
  if (stage_ == Stage::kOver) return rule_error("3.2", "the game is over");
  return kVerbs.check(*this, a);
}

void DvState::do_apply(const Action& a) { kVerbs.apply(*this, a); }

std::string DvState::action_to_string(const Action& a) const { return kVerbs.print(*this, a); }

Result<Action> DvState::parse_action(std::string_view text) const { return kVerbs.parse(*this, text); }

}  // namespace dv
