// The Dark Valley heuristics for greedy and mcts (docs/ai.md). Everything is read from the
// state and its data; the agents call these on determinized clones (resample_hidden), so a
// chit cup they read is a sampled one.
#include "games/dv/ai/ai_heuristics.h"

#include <cmath>
#include <vector>

#include "games/dv/dv.h"

namespace dv {
namespace {

// tanh(total / kScale): a difference of about 12 VP hexes is a near-certain result.
constexpr double kScale = 12.0;
// The whole material balance (all of one side's strength against none) is worth this many
// VP hexes; an even front scores 0.
constexpr double kForcesWeight = 16.0;
// What an objective of 3.2's 1941 condition is worth beyond its VP hex.
constexpr double kMoscowValue = 4.0;
constexpr double kKievOrLeningradValue = 2.0;
// An open VP hex (held, empty, an enemy unit next to it) is this much of a loss already.
constexpr double kOpenShare = 0.4;

// 3.2: the Axis VP at or under which the Soviets win in `year` (1941: none; the Axis holds
// its start line then, so the reference is the 1942 threshold).
double soviet_threshold(int year) {
  switch (year) {
    case 1941:
    case 1942:
      return 28;
    case 1943:
      return 23;
    case 1944:
      return 13;
    default:
      return 2;  // 1945: Berlin and Axis VP 2 or less at the end
  }
}

// A unit's combat worth at its current step level: attack plus defence (2.4).
double worth(const UnitDef& d, const UnitState& u) {
  const size_t level = u.steps >= d.steps ? 0 : 1;
  return d.attack[level] + d.defense[level];
}

class DvHeuristics final : public steppe::ai::Heuristics {
 public:
  bool has_evaluation() const override { return true; }

  void evaluate(const steppe::State& state, std::vector<double>& values) const override {
    values.assign(2, 0.0);
    if (state.is_terminal()) {
      values = state.returns();
      return;
    }
    const auto& s = static_cast<const DvState&>(state);
    const double v = std::tanh(dv_eval_terms(s).total() / kScale);
    values[kAxis] = v;
    values[kSoviet] = -v;
  }
};

}  // namespace

DvEvalTerms dv_eval_terms(const DvState& s) {
  const DvGame& g = s.dv();
  DvEvalTerms t;
  t.vp = s.vp() - soviet_threshold(s.year());
  if (s.year() == 1941) {
    auto held = [&](const char* place) {
      const int h = g.place(place);
      return h >= 0 && s.control(h) == kAxis;
    };
    if (held("moscow")) t.objectives += kMoscowValue;
    if (held("kiev") || held("leningrad")) t.objectives += kKievOrLeningradValue;
  }
  // 13.1: an OOS unit fights and moves at a loss, an IS one may be eliminated (13.8).
  double strength[2] = {0, 0};
  std::vector<uint8_t> occupied[2];
  for (auto& o : occupied) o.assign(static_cast<size_t>(g.grid().size()), 0);
  for (size_t i = 0; i < g.units().size(); ++i) {
    const UnitDef& d = g.units()[i];
    const UnitState& u = s.us(static_cast<int>(i));
    if (u.box != Box::kMap || !d.ground) continue;
    occupied[d.side][static_cast<size_t>(u.hex)] = 1;
    if (!d.combat) continue;
    const double supply = u.supply == 0 ? 1.0 : u.supply == 1 ? 0.6 : 0.3;
    strength[d.side] += worth(d, u) * supply;
  }
  if (strength[0] + strength[1] > 0)
    t.forces = kForcesWeight * (strength[0] - strength[1]) / (strength[0] + strength[1]);
  // An empty VP hex next to an enemy unit: cities stop no ZOC (6.0: no ZOC extends into a
  // city), so nothing but a unit in it keeps the enemy out.
  for (int h : g.vp_hexes()) {
    const size_t k = static_cast<size_t>(h);
    const int owner = s.control(h);
    if ((owner != kAxis && owner != kSoviet) || occupied[0][k] != 0 || occupied[1][k] != 0) continue;
    bool threatened = false;
    for (int dir = 0; dir < 6 && !threatened; ++dir) {
      const int n = g.grid().neighbour(h, dir);
      threatened = n >= 0 && occupied[1 - owner][static_cast<size_t>(n)] != 0;
    }
    if (threatened) t.open += owner == kAxis ? -kOpenShare : kOpenShare;
  }
  return t;
}

std::unique_ptr<steppe::ai::Heuristics> make_dv_heuristics(const steppe::Game& /*game*/) {
  return std::make_unique<DvHeuristics>();
}

}  // namespace dv
