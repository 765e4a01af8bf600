// The parts of the Game / State interface (state.h) that are code rather than declarations.
#include "kernel/state.h"

#include <algorithm>

#include "kernel/verbs.h"  // compiled here so that the header stays self-contained

namespace steppe {

std::pair<std::string, std::vector<std::string>> split_scenario_options(const std::string& scenario) {
  const size_t plus = scenario.find('+');
  if (plus == std::string::npos) return {scenario, {}};
  std::vector<std::string> options;
  const std::string rest = scenario.substr(plus + 1);
  size_t at = 0;
  while (at <= rest.size()) {
    const size_t next = std::min(rest.find('+', at), rest.size());
    options.push_back(rest.substr(at, next - at));
    at = next + 1;
  }
  return {scenario.substr(0, plus), options};
}

Result<ActionDescription> State::describe(const Action& a) const {
  ActionDescription d;
  d.text = action_to_string(a);
  d.verb = d.text.substr(0, d.text.find(' '));
  d.summary = d.text;
  return d;
}

void State::legal_actions_for(std::string_view unit, std::vector<Action>& out) const {
  std::vector<Action> all;
  legal_actions(all);
  out.clear();
  for (const Action& a : all) {
    auto d = describe(a);
    if (d && std::find(d->units.begin(), d->units.end(), unit) != d->units.end()) out.push_back(a);
  }
}

Result<Preview> State::preview(const Action& a, int viewer) const {
  (void)viewer;
  return Error{"this game gives no preview of '" + action_to_string(a) + "'", "", ""};
}

Result<Reach> State::reach(std::string_view unit, int viewer) const {
  (void)viewer;
  return Error{"this game gives no movement preview for '" + std::string(unit) + "'", "", ""};
}

}  // namespace steppe
