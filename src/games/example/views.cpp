// The typed views (kernel/views.h), answered from the rules code itself: describe from the
// verb table's notation, preview from odds_against() and the table apply() reads, reach
// from the movement search check_move() runs.
#include <map>

#include "games/example/example.h"

namespace example {

using steppe::Error;
using steppe::Result;

Result<steppe::ActionDescription> ExampleState::describe(const steppe::Action& a) const {
  steppe::ActionDescription d;
  d.text = action_to_string(a);
  const auto& grid = g_->grid();
  if (a.verb == kMove && a.nargs == 2 && a.args[0] >= 0 && a.args[0] < static_cast<int>(hex_.size()) &&
      grid.valid(a.args[1])) {
    const UnitDef& u = g_->units()[static_cast<size_t>(a.args[0])];
    d.verb = "move";
    d.rule = "3.1";
    d.units = {u.id};
    if (hex_of(a.args[0]) >= 0) d.from = {grid.id(hex_of(a.args[0]))};
    d.to = {grid.id(a.args[1])};
    d.summary = u.id + " moves to " + grid.id(a.args[1]);
  } else if (a.verb == kAttack && a.nargs == 1 && grid.valid(a.args[0])) {
    d.verb = "attack";
    d.rule = "4.1";
    for (int u : odds_against(a.args[0]).attackers) {
      d.units.push_back(g_->units()[static_cast<size_t>(u)].id);
      d.from.push_back(grid.id(hex_of(u)));
    }
    d.to = {grid.id(a.args[0])};
    d.summary = "attack on " + grid.id(a.args[0]);
  } else if (a.verb == kEnd && a.nargs == 0) {
    d.verb = "end";
    d.rule = "2.1";
    d.summary = std::string("end of the ") + kPhaseNames[phase_] + " phase";
  } else {
    return Error{"not an action of the example game", "", ""};
  }
  return d;
}

// The exact distribution: one die, each face 1/6, read on the column apply() would use.
Result<steppe::Preview> ExampleState::preview(const steppe::Action& a, int viewer) const {
  (void)viewer;  // open information
  if (a.verb != kAttack || a.nargs != 1 || !g_->grid().valid(a.args[0]))
    return Error{"only an attack has a preview", "4.1", ""};
  const int hex = a.args[0];
  if (unit_at(hex) < 0) return steppe::rule_error("4.1", "no unit to attack in " + g_->grid().id(hex));
  const Odds o = odds_against(hex);
  auto column = [&](int c) {
    return c < 0 ? std::string("below 1-2") : g_->crt_columns()[static_cast<size_t>(c)];
  };
  steppe::Preview p;
  p.kind = "combat";
  p.attack = o.attack;
  p.defense = o.defense;
  p.raw = column(o.raw_col);
  p.final = column(o.final_col);
  p.rule = "4.3";
  if (o.shift != 0) p.shifts.push_back({o.shift, g_->terrain_at(hex).name, "4.2"});
  p.summary = std::to_string(o.attack) + " vs " + std::to_string(o.defense) + " = " + p.raw +
              (o.shift != 0 ? " -> " + p.final : std::string());
  static const std::map<std::string, std::string> kMeaning = {{"AE", "attackers eliminated"},
                                                              {"AR", "attackers retreat"},
                                                              {"EX", "exchange"},
                                                              {"DR", "defender retreats"},
                                                              {"DE", "defender eliminated"}};
  std::map<std::string, int> faces;
  for (int die = 1; die <= 6; ++die) ++faces[g_->crt(o.final_col, die)];
  for (const auto& [res, n] : faces) p.outcomes.push_back({res, n / 6.0, kMeaning.at(res), "4.3"});
  return p;
}

Result<steppe::Reach> ExampleState::reach(std::string_view unit, int viewer) const {
  (void)viewer;
  const int u = g_->unit_index(unit);
  if (u < 0) return Error{"no unit '" + std::string(unit) + "'", "1.2", ""};
  if (hex_of(u) < 0) return steppe::rule_error("4.3", std::string(unit) + " has been eliminated");
  steppe::Reach r;
  r.unit = std::string(unit);
  r.from = g_->grid().id(hex_of(u));
  r.allowance = g_->units()[static_cast<size_t>(u)].ma;
  steppe::PathFinder pf;
  search_moves(u, pf);
  std::vector<int> path;
  for (int h : pf.reached_nodes()) {
    if (h == hex_of(u)) continue;
    steppe::ReachDestination d;
    d.location = g_->grid().id(h);
    d.cost = pf.cost(h);
    pf.path(h, path);
    for (size_t i = 1; i < path.size(); ++i) d.path.push_back(g_->grid().id(path[i]));
    if (next_to_enemy(h, g_->units()[static_cast<size_t>(u)].side))
      d.note = "ends next to an enemy unit (3.2)";
    r.destinations.push_back(std::move(d));
  }
  return r;
}

}  // namespace example
