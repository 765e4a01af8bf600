// The parts of the Game / State interface (state.h) that are code rather than declarations.
#include "kernel/state.h"

#include <algorithm>

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

}  // namespace steppe
