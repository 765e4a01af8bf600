// The typed views (kernel/views.h), answered from the rules code: describe (what an action
// is), preview (an attack's strengths, odds, every shift and modifier with its rule, and the
// exact distribution of CRT results, from the same assess() the combat uses) and reach (where
// a unit can move now, from the same PathFinder search the moves are checked against).
#include <algorithm>
#include <map>

#include "games/dv/dv.h"

namespace dv {

using steppe::Error;
using steppe::Result;

Result<steppe::ActionDescription> DvState::describe(const steppe::Action& a) const {
  if (a.verb < kPlace || a.verb > kHold) return Error{"unknown action", "", ""};
  steppe::ActionDescription d;
  d.text = action_to_string(a);
  d.verb = d.text.substr(0, d.text.find(' '));
  const steppe::HexGrid& gr = g_.grid();
  auto unit_ok = [&](int i) {
    return i < a.nargs && a.args[i] >= 0 && a.args[i] < static_cast<int>(g_.units().size());
  };
  auto hex_ok = [&](int i) { return i < a.nargs && a.args[i] >= 0 && a.args[i] < gr.size(); };
  switch (a.verb) {
    case kPlace:
      if (!unit_ok(0) || !hex_ok(1)) return Error{"malformed action", "", ""};
      d.rule = g_.unit(a.args[0]).side == kAxis ? "7.2" : "7.3";
      d.units = {g_.unit(a.args[0]).id};
      d.to = {gr.id(a.args[1])};
      d.summary = g_.unit(a.args[0]).name + " enters at " + gr.id(a.args[1]);
      break;
    case kPick:
    case kMoveTo:
    case kAdd:
    case kAdvance:
      if (!unit_ok(0)) return Error{"malformed action", "", ""};
      d.units = {g_.unit(a.args[0]).id};
      if (us(a.args[0]).box == Box::kMap) d.from = {gr.id(us(a.args[0]).hex)};
      if (a.verb == kMoveTo && hex_ok(1)) {
        d.to = {gr.id(a.args[1])};
        d.summary = g_.unit(a.args[0]).name + " moves to " + gr.id(a.args[1]);
        d.rule = "11.1";
      } else if (a.verb == kAdd || a.verb == kAdvance) {
        if (target_ >= 0) d.to = {gr.id(target_)};
        d.summary = g_.unit(a.args[0]).name + (a.verb == kAdd ? " joins the attack" : " advances");
        d.rule = a.verb == kAdd ? "12.2" : "12.6";
      } else {
        d.summary = g_.unit(a.args[0]).name + " is picked to move";
        d.rule = "11.1";
      }
      break;
    case kLose:
      if (!unit_ok(0)) return Error{"malformed action", "", ""};
      d.units = {g_.unit(a.args[0]).id};
      d.summary = g_.unit(a.args[0]).name + (us(a.args[0]).steps == 2 ? " takes the step loss (flipped)"
                                                                      : " takes the step loss (eliminated)");
      d.rule = "12.3c";
      break;
    case kRetreatTo:
      if (!unit_ok(0) || !hex_ok(1)) return Error{"malformed action", "", ""};
      d.units = {g_.unit(a.args[0]).id};
      if (us(a.args[0]).box == Box::kMap) d.from = {gr.id(us(a.args[0]).hex)};
      d.to = {gr.id(a.args[1])};
      d.summary = g_.unit(a.args[0]).name + " retreats to " + gr.id(a.args[1]);
      d.rule = "12.5";
      break;
    case kAttack:
      if (!hex_ok(0)) return Error{"malformed action", "", ""};
      d.to = {gr.id(a.args[0])};
      d.summary = "attack on " + gr.id(a.args[0]);
      d.rule = "12.2";
      break;
    default:
      d.summary = d.text;
      d.rule = "10.5";
      break;
  }
  return d;
}

// The attack an action stands for: "attack HEX" with every unit that may join it now,
// "add UNIT" with the attackers so far and that unit, "resolve" with the attackers so far.
Result<steppe::Preview> DvState::preview(const steppe::Action& a, int viewer) const {
  (void)viewer;  // open information
  DvState copy(*this);
  copy.set_event_sink(nullptr);
  if (a.verb == kAttack && a.nargs == 1 && a.args[0] >= 0 && a.args[0] < g_.grid().size()) {
    copy.stage_ = Stage::kCombat;
    copy.target_ = -1;
    if (!copy.may_attack_hex(a.args[0])) return Error{"no attack on that hex now", "12.2", ""};
    copy.target_ = a.args[0];
    copy.attackers_.clear();
    for (int u = 0; u < static_cast<int>(g_.units().size()); ++u)
      if (copy.may_add(u)) copy.attackers_.push_back(u);
  } else if (a.verb == kAdd && a.nargs == 1 && target_ >= 0) {
    if (!may_add(a.args[0])) return Error{"that unit may not join this attack", "12.2", ""};
    copy.attackers_.push_back(a.args[0]);
  } else if (a.verb != kResolve || target_ < 0) {
    return Error{"only an attack has a preview", "", ""};
  }
  if (copy.attackers_.empty()) return Error{"no unit may attack that hex now", "12.2", ""};
  const Outcome o = copy.assess();
  const Crt& c = g_.crt();
  steppe::Preview p;
  p.kind = "combat";
  p.attack = o.attack;
  p.defense = o.defense;
  p.raw = o.raw_odds;
  p.final = o.column < 0 ? "AE" : c.columns[static_cast<size_t>(o.column)];
  p.rule = "12.3";
  for (const std::string& n : o.notes) p.shifts.push_back({0, n, ""});
  if (o.shifts != 0) p.shifts.push_back({o.shifts, "column shifts in all", "12.3a"});
  if (o.drm != 0) p.shifts.push_back({o.drm, "die roll modifier for supply", "12.1"});
  std::map<std::string, int> count;
  if (o.column < 0) {
    count["AE"] = 6;
  } else {
    for (int die = 1; die <= 6; ++die) {
      const int r = die + o.drm;
      const size_t row = r <= 0 ? 0 : r >= 7 ? 7 : static_cast<size_t>(r);
      ++count[c.tab[static_cast<size_t>(o.table)][static_cast<size_t>(o.column)][row]];
    }
  }
  for (const auto& [result, n] : count) p.outcomes.push_back({result, n / 6.0, result, "12.3"});
  p.summary = std::to_string(o.attack) + " vs " + std::to_string(o.defense) + " = " + o.raw_odds + " -> " +
              p.final + " on CRT " + (o.table == 0 ? "A" : "B") +
              (o.drm != 0 ? ", DRM " + std::to_string(o.drm) : "");
  Json att = Json::array();
  for (int u : copy.attackers_) att.push_back(g_.unit(u).label);
  p.detail =
      Json{{"attackers", att}, {"table", o.table == 0 ? "A" : "B"}, {"shifts", o.shifts}, {"drm", o.drm}};
  return p;
}

Result<steppe::Reach> DvState::reach(std::string_view unit, int viewer) const {
  (void)viewer;
  const int u = g_.unit_index(unit);
  if (u < 0) return Error{"no counter '" + std::string(unit) + "'", "2.2", ""};
  if (us(u).box != Box::kMap || !g_.unit(u).ground)
    return Error{g_.unit(u).label + " is not a ground unit on the map", "11.1", ""};
  steppe::Reach r;
  r.unit = g_.unit(u).id;
  r.from = g_.grid().id(us(u).hex);
  r.allowance = move_allowance(u, false);
  steppe::PathFinder pf;
  reach_search(u, false, pf);
  std::vector<int> path;
  std::vector<uint8_t> ezoc;
  compute_zoc(1 - g_.unit(u).side, ezoc);
  for (int h : pf.reached_nodes()) {
    if (h == us(u).hex || !move_dest_ok(u, h, nullptr)) continue;
    steppe::ReachDestination d;
    d.location = g_.grid().id(h);
    d.cost = pf.cost(h);
    pf.path(h, path);
    for (size_t i = 1; i < path.size(); ++i) d.path.push_back(g_.grid().id(path[i]));
    if (ezoc[static_cast<size_t>(h)] != 0) d.note = "ends in an enemy ZOC (6.2)";
    r.destinations.push_back(std::move(d));
  }
  return r;
}

}  // namespace dv
