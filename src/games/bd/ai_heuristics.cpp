// Barbarossa Deluxe heuristics for greedy and mcts (docs/ai.md). Everything is read from
// the state and its data (thresholds, CRT, terrain shifts); nothing here is a rule: the
// legal moves always come from BdState.
#include "games/bd/ai_heuristics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "games/bd/bd_state.h"

namespace bd {
namespace {

using steppe::Action;

// A combat factor as the AI counts it: rolled factors (8.4, 8.35) at about their mean.
int factor(int f) { return f == kRolled ? 3 : std::max(0, f); }

bool alive(const UnitSt& s) {
  return s.where == kOnMap || s.where == kRvgk || s.where == kTrrt || s.where == kCaucasus;
}

// Victory thresholds of the turn (4.14); turns without a check use the next turn that has
// one, so the evaluation always knows what "winning" means in VP.
void thresholds(const BdState& st, double& mid, double& half) {
  const BdData& d = st.data();
  for (int t = st.turn(); t <= 32; ++t) {
    const TurnInfo& ti = d.turn(t);
    if (ti.german_wins_at < 999 && ti.soviet_wins_at > -999 && ti.german_wins_at > ti.soviet_wins_at) {
      mid = (ti.german_wins_at + ti.soviet_wins_at) / 2.0;
      half = std::max(4.0, (ti.german_wins_at - ti.soviet_wins_at) / 2.0);
      return;
    }
  }
  mid = d.vp_start;
  half = 10.0;
}

// Per-position tables shared by the prior and the rollout policy.
struct View {
  int side = kGerman;
  std::array<uint8_t, kNumHexes> occ{};         // side with units in the hex, kNoSide if empty
  std::array<uint8_t, kNumHexes> count{};       // own/enemy units in the hex
  std::array<int16_t, kNumHexes> dist_enemy{};  // hex steps to the nearest enemy-occupied hex
  std::array<int16_t, kNumHexes> dist_goal{};   // hex steps to the nearest VP hex `side` does not control

  void bfs(const BdState& st, std::array<int16_t, kNumHexes>& dist, std::vector<int>& frontier) {
    std::vector<int> next;
    while (!frontier.empty()) {
      next.clear();
      for (int h : frontier)
        for (int d = 0; d < 6; ++d) {
          const int n = neighbour(h, d);
          if (n < 0 || dist[static_cast<size_t>(n)] >= 0 || !st.hex_info(n).on_map) continue;
          dist[static_cast<size_t>(n)] = static_cast<int16_t>(dist[static_cast<size_t>(h)] + 1);
          next.push_back(n);
        }
      frontier.swap(next);
    }
  }

  explicit View(const BdState& st) {
    side = st.current_player();
    if (side != kGerman && side != kSoviet) side = kGerman;
    occ.fill(kNoSide);
    for (int u = 0; u < st.num_units(); ++u) {
      const UnitSt& s = st.unit(u);
      if (s.where != kOnMap || s.hex < 0) continue;
      occ[static_cast<size_t>(s.hex)] = st.def(u).side;
      ++count[static_cast<size_t>(s.hex)];
    }
    dist_enemy.fill(-1);
    dist_goal.fill(-1);
    std::vector<int> fe, fg;
    for (int h = 0; h < kNumHexes; ++h) {
      if (occ[static_cast<size_t>(h)] == other(side)) {
        dist_enemy[static_cast<size_t>(h)] = 0;
        fe.push_back(h);
      }
      const HexInfo& x = st.hex_info(h);
      if (x.on_map && x.vp && st.control(h) != side) {
        dist_goal[static_cast<size_t>(h)] = 0;
        fg.push_back(h);
      }
    }
    bfs(st, dist_enemy, fe);
    bfs(st, dist_goal, fg);
  }

  int de(int h) const {
    return h < 0 || dist_enemy[static_cast<size_t>(h)] < 0 ? 30 : dist_enemy[static_cast<size_t>(h)];
  }
  int dg(int h) const {
    return h < 0 || dist_goal[static_cast<size_t>(h)] < 0 ? 30 : dist_goal[static_cast<size_t>(h)];
  }
};

// Expected outcome of a battle for the attacker in [-1, 1], from the data's CRT and a
// rough column: factor ratio plus terrain, city, line and Luftwaffe shifts (11.10-11.24).
double attack_value(const BdState& st, const View& v, const Action& a) {
  const int target = a.args[0];
  const bool lw = a.args[1] != 0;
  const bool ma = a.verb == kMobileAssault;
  const int att_side = v.side;
  int attack = 0, shifts = 0, defense = 0;
  auto add_attacker = [&](int u) {
    const UnitDef& d = st.def(u);
    attack += factor(d.attack);
    shifts += d.support_shifts;
    for (int x = 0; x < st.num_units(); ++x)  // 8.31, 8.32: its TB / CM attacks with it
      if (st.unit(x).parent == u && st.unit(x).where == kOnMap) shifts += st.def(x).support_shifts;
  };
  if (a.verb == kAttackFrom) {
    for (int i = 2; i < a.nargs; ++i)
      for (int u = 0; u < st.num_units(); ++u) {
        const UnitSt& s = st.unit(u);
        if (s.where == kOnMap && s.hex == a.args[i] && st.def(u).side == att_side && st.def(u).attack != 0 &&
            !(s.flags & kFlagAttacked))
          add_attacker(u);
      }
  } else {
    for (int i = 2; i < a.nargs; ++i) add_attacker(a.args[i]);
  }
  for (int u = 0; u < st.num_units(); ++u) {
    const UnitSt& s = st.unit(u);
    if (s.where == kOnMap && s.hex == target && st.def(u).side != att_side)
      defense += factor(st.def(u).defense);
  }
  if (defense <= 0) return 1.0;
  if (attack <= 0) return -1.0;
  const BdData& d = st.data();
  const HexInfo& t = st.hex_info(target);
  int index = attack >= defense ? attack / defense - 1 : -((defense + attack - 1) / attack - 1);
  shifts += d.tec.shift[t.terrain];
  if (t.city) shifts += d.tec.city_shift;
  if (t.fortified == other(att_side)) shifts += d.tec.line_shift;
  if (ma) shifts += d.tec.ma_shift;
  if (lw) shifts += 1;
  index += shifts;
  const Crt& crt = d.crt;
  if (index > crt.max_index) return 1.0;
  if (index < crt.min_index) return -1.0;
  const auto& row = crt.results[static_cast<size_t>(index - crt.min_index)];
  double sum = 0;
  for (uint8_t r : row) {
    switch (r) {
      case kDE:
        sum += 1.0;
        break;
      case kDR:
        sum += 0.5;
        break;
      case kBB:
        sum += 0.1;
        break;
      case kAS:
        sum -= 0.3;
        break;
      default:
        sum -= 1.0;
        break;  // AE
    }
  }
  return sum / static_cast<double>(row.size());
}

// Victory hexes a side holds with none of its units in them while an enemy unit is within
// kThreatHexes: the enemy may walk in on its next move (3.6 control, 4.2 VP). Each costs its
// owner half of what losing it would (German positive). Without this the evaluation sees
// no difference between a garrisoned city and an empty one, so agents walked the units in
// front of a city away to chase a distant target (tests/ai/bd/keeps-its-city-covered*.scn).
constexpr int kThreatHexes = 2;
double threatened_vp(const BdState& st, double city_w) {
  std::array<std::array<int16_t, kNumHexes>, 2> dist{};  // hex steps to the side's nearest unit
  std::array<uint8_t, kNumHexes> own{};                  // a side's units in the hex (bit per side)
  std::vector<int> frontier[2], next;
  for (auto& d : dist) d.fill(-1);
  for (int u = 0; u < st.num_units(); ++u) {
    const UnitSt& s = st.unit(u);
    const int side = st.def(u).side;
    if (s.where != kOnMap || s.hex < 0 || side > kSoviet) continue;
    own[static_cast<size_t>(s.hex)] |= static_cast<uint8_t>(1u << side);
    if (dist[static_cast<size_t>(side)][static_cast<size_t>(s.hex)] < 0) {
      dist[static_cast<size_t>(side)][static_cast<size_t>(s.hex)] = 0;
      frontier[side].push_back(s.hex);
    }
  }
  for (int side = 0; side < 2; ++side) {
    auto& d = dist[static_cast<size_t>(side)];
    for (int step = 1; step <= kThreatHexes && !frontier[side].empty(); ++step) {
      next.clear();
      for (int h : frontier[side])
        for (int k = 0; k < 6; ++k) {
          const int n = neighbour(h, k);
          if (n < 0 || d[static_cast<size_t>(n)] >= 0 || !st.hex_info(n).on_map) continue;
          d[static_cast<size_t>(n)] = static_cast<int16_t>(step);
          next.push_back(n);
        }
      frontier[side].swap(next);
    }
  }
  double x = 0;
  for (int h = 0; h < kNumHexes; ++h) {
    const HexInfo& hi = st.hex_info(h);
    if (!hi.on_map || !hi.vp) continue;
    const int owner = st.control(h);
    if (owner != kGerman && owner != kSoviet) continue;
    if (own[static_cast<size_t>(h)] & (1u << owner)) continue;
    if (dist[static_cast<size_t>(other(owner))][static_cast<size_t>(h)] < 0) continue;
    const double loss = 0.5 * (1.0 + (hi.city ? city_w : 0.0));
    x += owner == kGerman ? -loss : loss;
  }
  return x;
}

// Weight of one action for the side to move (prior and rollout scoring).
float score(const BdState& st, const View& v, const Action& a, bool others) {
  switch (a.verb) {
    case kEndPhase:
      // Ending a phase while useful actions remain is what makes an AI passive.
      return others ? 0.05f : 1.0f;
    case kAttackFrom:
    case kAttackWith:
    case kMobileAssault: {
      const double e = attack_value(st, v, a);
      double w = std::exp(3.0 * e);
      if (a.args[1] != 0) w *= 0.7;  // a Luftwaffe marker is spent: only worth it when it turns the odds
      return static_cast<float>(w);
    }
    case kMove: {
      if (a.nargs < 2) return 1.0f;
      const int u = a.args[0];
      const int from = st.unit(u).hex;
      const int dest = a.args[a.nargs - 1];
      const HexInfo& x = st.hex_info(dest);
      const UnitDef& d = st.def(u);
      double w = 1.0;
      if (x.vp && st.control(dest) != v.side)
        w += 4.0;  // capture a VP hex (4.2)
      else if (st.control(dest) != v.side)
        w += 0.5;  // take ground (3.6)
      const bool attacker = v.side == kGerman || st.turn() >= 6;
      if (attacker && factor(d.attack) > 0) {
        w += 0.35 * (v.de(from) - v.de(dest));
        w += 0.25 * (v.dg(from) - v.dg(dest));
        if (v.de(dest) == 1) w += 0.5;  // into contact: an attack next
      }
      // Never strip a threatened victory hex of its last defender.
      const HexInfo& fx = st.hex_info(from);
      if (fx.vp && v.de(from) <= 2 && v.count[static_cast<size_t>(from)] == 1) w *= 0.15;
      // Garrison an empty own victory hex the enemy threatens.
      if (x.vp && st.control(dest) == v.side && v.count[static_cast<size_t>(dest)] == 0 && v.de(dest) <= 2)
        w += 2.5;
      return static_cast<float>(std::max(0.05, w));
    }
    case kRetreat:
      return static_cast<float>(1.0 + v.de(a.args[0]));
    case kAdvance:
    case kAdvance2:
      return 2.0f;
    case kSupport:  // 8.36-8.40: each marker is good for this phase only
      return 3.0f;
    case kAttach: {  // 8.31, 8.32: a TB / CM is worth most on a strong mechanized parent (mobile assaults)
      const UnitDef& p = st.def(a.args[1]);
      return static_cast<float>(1.0 + (p.cls == kMech ? 1.0 : 0.0) + 0.2 * factor(p.attack));
    }
    default:
      return 1.0f;
  }
}

class BdHeuristics : public steppe::ai::Heuristics {
 public:
  bool has_evaluation() const override { return true; }

  void evaluate(const steppe::State& state, std::vector<double>& values) const override {
    const auto* st = dynamic_cast<const BdState*>(&state);
    if (st == nullptr || state.is_terminal()) {
      Heuristics::evaluate(state, values);
      return;
    }
    double mid = 0, half = 10;
    thresholds(*st, mid, half);
    // Everything in VP-equivalents, German positive.
    double x = st->vp() - mid;  // 4.14 Victory Check Chart
    int city_gain = 0, ground = 0;
    for (int h = 0; h < kNumHexes; ++h) {
      const HexInfo& hi = st->hex_info(h);
      if (!hi.on_map) continue;
      const int now = st->control(h), start = st->start_control(h);
      if (now == start) continue;
      const int sign = now == kGerman ? 1 : (start == kGerman ? -1 : 0);
      if (hi.city) city_gain += sign;  // the short scenarios score start cities (13.4, 14.4, 14.10, 15.4)
      ground += sign;
    }
    const bool chart = st->scenario_id() == "grand-campaign" || st->scenario_id() == "road-back";
    const double city_w = chart ? 0.3 : 1.5;
    x += city_w * city_gain;
    x += 0.04 * ground;
    x += threatened_vp(*st, city_w);
    // Combat strength: an eliminated average unit is worth about a third of a VP.
    double strength[2] = {0, 0};
    int n_units = 0, oos[2] = {0, 0};
    for (int u = 0; u < st->num_units(); ++u) {
      const UnitSt& s = st->unit(u);
      if (!alive(s)) continue;
      const UnitDef& d = st->def(u);
      if (d.side > kSoviet) continue;
      strength[d.side] += factor(d.attack) + factor(d.defense);
      ++n_units;
      if (s.where == kOnMap && st->supply_of(u) == kSupOos) ++oos[d.side];  // 7.16, 7.22
    }
    const double avg = n_units > 0 ? (strength[0] + strength[1]) / n_units : 6.0;
    if (avg > 0) x += 0.35 * (strength[kGerman] - strength[kSoviet]) / avg;
    x -= 0.15 * (oos[kGerman] - oos[kSoviet]);
    const double g = std::tanh(x / half);
    values.assign(2, 0.0);
    values[kGerman] = g;
    values[kSoviet] = -g;
  }

  void prior(const steppe::State& state, const std::vector<Action>& actions,
             std::vector<float>& weights) const override {
    const auto* st = dynamic_cast<const BdState*>(&state);
    if (st == nullptr) {
      Heuristics::prior(state, actions, weights);
      return;
    }
    const View v(*st);
    const bool others = actions.size() > 1;
    weights.resize(actions.size());
    for (size_t i = 0; i < actions.size(); ++i) weights[i] = score(*st, v, actions[i], others);
  }

  // Best of a few sampled actions: cheap, biased toward attacks at good odds and forward
  // moves, still random enough to sample the opponent's replies.
  size_t rollout_choice(const steppe::State& state, const std::vector<Action>& legal,
                        steppe::Dice& rng) const override {
    const auto* st = dynamic_cast<const BdState*>(&state);
    const int n = static_cast<int>(legal.size());
    if (st == nullptr || n <= 1) return n <= 1 ? 0 : static_cast<size_t>(rng.below(n));
    const View v(*st);
    size_t best = 0;
    float best_w = -1;
    for (int k = 0; k < std::min(n, 6); ++k) {
      const size_t i = static_cast<size_t>(rng.below(n));
      const float w = score(*st, v, legal[i], true);
      if (w > best_w) {
        best_w = w;
        best = i;
      }
    }
    return best;
  }
};

}  // namespace

std::unique_ptr<steppe::ai::Heuristics> make_bd_heuristics(const steppe::Game& game) {
  (void)game;
  return std::make_unique<BdHeuristics>();
}

}  // namespace bd
