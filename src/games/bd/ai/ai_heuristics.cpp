// Barbarossa Deluxe heuristics for greedy and mcts (docs/ai.md). Everything is read from
// the state and its data (thresholds, CRT, terrain shifts); nothing here is a rule: the
// legal moves always come from BdState.
#include "games/bd/ai/ai_heuristics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>
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

// The value of `y` half-widths (VP-equivalents over the scale): tanh, with what lies beyond
// 3 compressed to 3 + ln(1 + |y| - 3). tanh of 20 is 1.0 in a double, so a side winning by
// a mile saw every move alike, and a Soviet far ahead in Manstein's Gambit walked Moscow's
// garrison out in front of a random German, who took Moscow and the game (14.10). The
// search reads differences after atanh (mcts.cpp), so they stay visible up to about
// |y| = e^14.
double squash(double y) {
  const double a = std::abs(y);
  return std::tanh(std::copysign(a <= 3.0 ? a : 3.0 + std::log1p(a - 3.0), y));
}

// VP-equivalents that take a short scenario's value (tanh) to 0.76: one condition of
// 13.4/14.4/14.10/15.4 missing at the end weighs 5 (scenario_objective).
constexpr double kShortScenarioScale = 6.0;
// VP-equivalents of a city gained or lost: on the chart (4.14) and in What If (15.4 asks
// for one eastern city) a measure of progress; in the other short scenarios, and for a
// threatened start city in any of them, a condition of their victory.
constexpr double kProgressCityWeight = 0.3;
constexpr double kConditionCityWeight = 1.5;

// The share of a stack's exposure (its units' worth times its chance of a bad result at the
// odds the enemy can bring, exposure()) the evaluation counts: the enemy cannot strike
// every stack at once with the same units. Not tuned beyond the runs in docs/ai.md.
constexpr double kExposureWeight = 0.5;

// Attack factors of `side` that can strike each hex on its next move (11.10): every unit
// on the map spreads its attack (halved out of supply, 7.16) over the hexes within four
// steps, at full weight up to two away and less from three and four. BD has no ZOC, so
// what slows a unit is terrain and other units, which this ignores.
void attack_potential(const BdState& st, int side, std::array<float, kNumHexes>& pot) {
  static constexpr float kReachWeight[] = {0.0f, 1.0f, 1.0f, 0.6f, 0.3f};
  constexpr int kReach = 4;
  pot.fill(0.0f);
  // Units in one hex share one search: their factors are summed first (a third of the
  // evaluation's time went here, one search per unit).
  std::array<int16_t, kNumHexes> att{};
  std::array<int16_t, kNumHexes> sources{};  // hexes with attack factors, in unit order
  int num_sources = 0;
  for (int u = 0; u < st.num_units(); ++u) {
    const UnitSt& s = st.unit(u);
    const UnitDef& d = st.def(u);
    if (s.where != kOnMap || s.hex < 0 || d.side != side) continue;
    const int a = factor(d.attack) / (st.supply_of(u) == kSupOos ? 2 : 1);
    if (a <= 0) continue;
    const size_t h = static_cast<size_t>(s.hex);
    if (att[h] == 0) sources[static_cast<size_t>(num_sources++)] = static_cast<int16_t>(s.hex);
    att[h] = static_cast<int16_t>(att[h] + a);
  }
  std::array<int16_t, kNumHexes> seen{};
  seen.fill(-1);
  std::array<int16_t, kNumHexes> ring_a{}, ring_b{};
  for (int i = 0; i < num_sources; ++i) {
    const int src = sources[static_cast<size_t>(i)];
    const float a = static_cast<float>(att[static_cast<size_t>(src)]);
    const auto mark = static_cast<int16_t>(i);
    int16_t* ring = ring_a.data();
    int16_t* next = ring_b.data();
    int ring_size = 1, next_size = 0;
    ring[0] = static_cast<int16_t>(src);
    seen[static_cast<size_t>(src)] = mark;
    for (int step = 1; step <= kReach && ring_size > 0; ++step) {
      next_size = 0;
      const float w = a * kReachWeight[step];
      for (int r = 0; r < ring_size; ++r)
        for (int k = 0; k < 6; ++k) {
          const int n = neighbour(ring[r], k);
          if (n < 0 || seen[static_cast<size_t>(n)] == mark || !st.hex_info(n).on_map) continue;
          seen[static_cast<size_t>(n)] = mark;
          pot[static_cast<size_t>(n)] += w;
          next[next_size++] = static_cast<int16_t>(n);
        }
      std::swap(ring, next);
      ring_size = next_size;
    }
  }
}

// A defending unit's factor as the AI counts it: halved out of supply (7.16).
int defense_now(const BdState& st, int u) {
  return factor(st.def(u).defense) / (st.supply_of(u) == kSupOos ? 2 : 1);
}

// Per-position tables shared by the prior and the rollout policy.
struct View {
  int side = kGerman;
  std::array<uint8_t, kNumHexes> occ{};         // side with units in the hex, kNoSide if empty
  std::array<uint8_t, kNumHexes> count{};       // own/enemy units in the hex
  std::array<int16_t, kNumHexes> dist_enemy{};  // hex steps to the nearest enemy-occupied hex
  std::array<int16_t, kNumHexes> dist_goal{};   // hex steps to the nearest VP hex `side` does not control
  std::array<float, kNumHexes> enemy_pot{};     // the enemy's attack_potential()
  std::array<int16_t, kNumHexes> own_def{};     // `side`'s defense factors in the hex (defense_now)

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
      if (st.def(u).side == side)
        own_def[static_cast<size_t>(s.hex)] =
            static_cast<int16_t>(own_def[static_cast<size_t>(s.hex)] + defense_now(st, u));
    }
    attack_potential(st, other(side), enemy_pot);
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

// A battle as the AI sees it before declaring it: the rough CRT column from the factor
// ratio plus terrain, city, line and Luftwaffe shifts (11.10-11.24), the attack factors it
// commits, and the expected outcome for the attacker in [-1, 1] from the data's CRT.
struct AttackEstimate {
  int column = 0;     // odds index, clamped to one past the CRT's ends (all the same beyond)
  int committed = 0;  // attack factors of the units that attack
  double value = 0;
};

// The mean outcome of a CRT column for the attacker, in [-1, 1]: DE 1, DR 0.5, BB 0.1,
// AS -0.3, AE -1 (11.10-11.26); columns beyond the table's ends are automatic (11.10).
double crt_value(const Crt& crt, int index) {
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

// The odds index of `attack` against `defense` (11.10), before shifts.
int odds_index(int attack, int defense) {
  return attack >= defense ? attack / defense - 1 : -((defense + attack - 1) / attack - 1);
}

// The CRT shifts of the defender's hex for an attack by `att_side` (11.11-11.24).
int hex_shifts(const BdState& st, int hex, int att_side) {
  const BdData& d = st.data();
  const HexInfo& t = st.hex_info(hex);
  int shifts = d.tec.shift[t.terrain];
  if (t.city) shifts += d.tec.city_shift;
  if (t.fortified == other(att_side)) shifts += d.tec.line_shift;
  return shifts;
}

// A stack of `defense` factors in `hex` struck by `attack` factors of `att_side`: the
// attacker's mean CRT outcome where it favours him (0 to 1), else 0.
double counter_risk(const BdState& st, int hex, int attack, int defense, int att_side) {
  if (defense <= 0) return 1.0;
  return std::max(0.0, crt_value(st.data().crt, odds_index(attack, defense) + hex_shifts(st, hex, att_side)));
}

AttackEstimate estimate_attack(const BdState& st, const View& v, const Action& a) {
  AttackEstimate est;
  const int target = a.args[0];
  const bool lw = (a.args[1] & 1) != 0;
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
  est.committed = attack;
  for (int u = 0; u < st.num_units(); ++u) {
    const UnitSt& s = st.unit(u);
    if (s.where == kOnMap && s.hex == target && st.def(u).side != att_side)
      defense += factor(st.def(u).defense);
  }
  const Crt& crt = st.data().crt;
  if (defense <= 0) {
    est.column = crt.max_index + 1;
    est.value = 1.0;
    return est;
  }
  if (attack <= 0) {
    est.column = crt.min_index - 1;
    est.value = -1.0;
    return est;
  }
  int index = odds_index(attack, defense);
  shifts += hex_shifts(st, target, att_side);
  if (ma) shifts += st.data().tec.ma_shift;
  if (lw) shifts += 1;
  index += shifts;
  est.column = std::clamp(index, crt.min_index - 1, crt.max_index + 1);
  est.value = crt_value(crt, index);
  return est;
}

double attack_value(const BdState& st, const View& v, const Action& a) {
  return estimate_attack(st, v, a).value;
}

// Victory hexes a side holds with none of its units in them while an enemy unit is within
// kThreatHexes: the enemy may walk in on its next move (3.6 control, 4.2 VP). Each costs its
// owner half of what losing it would (German positive). Without this the evaluation sees
// no difference between a garrisoned city and an empty one, so agents walked the units in
// front of a city away to chase a distant target (tests/ai/bd/keeps-its-city-covered*.scn).
constexpr int kThreatHexes = 2;
// A hex whose loss can end the game (sudden death) counts as threatened from as far as a
// German panzer corps moves this turn or the next (TRRT, 2.11; 10 in the summer of 1941;
// What If's 10 all game, 15.6: read from the TRRT alone it fell to 5 on GT13),
// at least four hexes: a Moscow left empty at the end of a Soviet GT1 was taken on GT2.
int sudden_death_reach(const BdState& st) {
  const int mf = std::max(st.turn_mf(kGerman, true, st.turn()), st.turn_mf(kGerman, true, st.turn() + 1));
  return std::clamp(mf, 4, 12);
}
// The chance that a German capture of `hex` ends the game at once: 14.10 (Manstein's
// Gambit: Moscow or Leningrad) and 15.5 (What If: Moscow) for certain, 4.15's surrender
// roll (d6 + Kiev 1 + Leningrad 2 >= 5, once per game) in every other scenario.
double sudden_death_chance(const BdState& st, int hex) {
  const Places& pl = st.data().places;
  const std::string_view id = st.scenario_id();
  if (hex < 0) return 0.0;
  if (id == "mansteins-gambit" && (hex == pl.moscow || hex == pl.leningrad)) return 1.0;
  if (hex != pl.moscow) return 0.0;
  if (id == "what-if-1942") return 1.0;
  if (!st.moscow_roll_pending()) return 0.0;
  const int need = st.data().moscow_surrender_at - st.moscow_surrender_modifier();
  return std::clamp((7.0 - need) / 6.0, 0.0, 1.0);
}

// How far off an enemy unit threatens `side`'s victory hex `hex`.
int threat_radius(const BdState& st, int side, int hex) {
  return side == kSoviet && sudden_death_chance(st, hex) > 0.0 ? sudden_death_reach(st) : kThreatHexes;
}

double threatened_vp(const BdState& st, double city_w, double game_w) {
  std::array<std::array<int16_t, kNumHexes>, 2> dist{};  // hex steps to the side's nearest unit
  std::array<uint8_t, kNumHexes> own{};                  // a side's units in the hex (bit per side)
  std::vector<int> frontier[2], next;
  const int reach = std::max(kThreatHexes, sudden_death_reach(st));
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
    for (int step = 1; step <= reach && !frontier[side].empty(); ++step) {
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
    const int d = dist[static_cast<size_t>(other(owner))][static_cast<size_t>(h)];
    if (d < 0) continue;
    const double end = owner == kSoviet ? sudden_death_chance(st, h) : 0.0;
    if (d > kThreatHexes && end == 0.0) continue;
    const double loss = 0.5 * (1.0 + (hi.city ? city_w : 0.0)) + 0.5 * end * game_w;
    x += owner == kGerman ? -loss : loss;
  }
  return x;
}

// Stacks left where the enemy can mass against them on his next move (11.10-11.26): every
// stack weighs its chance of a DE, DR or Bloodbath at the odds of the enemy's
// attack_potential() against the worth of its units (`unit_worth` per combat factor).
// German positive. Without it a panzer corps drove alone five hexes into the Soviet GT1
// set-up and was counterattacked there (docs/ai.md, "Exposure").
// A garrison whose loss can end the game (sudden_death_chance) also risks the game: its
// chance of a bad result times that chance times half of `game_w`, as threatened_vp()
// counts an empty one, added to `sudden_death` unweighted. Counted by its units' worth
// alone, Manstein's Gambit's Soviet held Moscow with what he had left over, and a German
// Bloodbath took it and the game (14.10).
double exposure(const BdState& st, double unit_worth, double game_w, double& sudden_death) {
  sudden_death = 0.0;
  std::array<std::array<float, kNumHexes>, 2> pot{};  // [side] attack that can strike the hex
  for (int side = 0; side < 2; ++side) attack_potential(st, side, pot[static_cast<size_t>(side)]);
  std::array<std::array<int16_t, kNumHexes>, 2> def{};
  std::array<std::array<float, kNumHexes>, 2> worth{};
  for (int u = 0; u < st.num_units(); ++u) {
    const UnitSt& s = st.unit(u);
    const UnitDef& d = st.def(u);
    if (s.where != kOnMap || s.hex < 0 || d.side > kSoviet) continue;
    const size_t side = static_cast<size_t>(d.side), h = static_cast<size_t>(s.hex);
    def[side][h] = static_cast<int16_t>(def[side][h] + defense_now(st, u));
    worth[side][h] += static_cast<float>(factor(d.attack) + factor(d.defense));
  }
  double x = 0;
  for (int side = 0; side < 2; ++side) {
    const int enemy = other(side);
    for (int h = 0; h < kNumHexes; ++h) {
      const size_t i = static_cast<size_t>(h);
      const int d = def[static_cast<size_t>(side)][i];
      const int a = static_cast<int>(pot[static_cast<size_t>(enemy)][i]);
      if (worth[static_cast<size_t>(side)][i] <= 0 || a <= 0) continue;
      const double risk = counter_risk(st, h, a, d, enemy);
      const double loss = risk * unit_worth * worth[static_cast<size_t>(side)][i];
      x += side == kGerman ? -loss : loss;
      if (side == kSoviet) sudden_death += risk * sudden_death_chance(st, h) * 0.5 * game_w;
    }
  }
  return x;
}

// The short scenarios are won on all-or-nothing conditions checked at their end (13.4,
// 14.4, 14.10, 15.4): one side must hold every city it started with and take a number of
// the other's. What is still missing, in "conditions": a start city not held, a city short
// of the number, a Citadel extra not met. Returns VP-equivalents, German positive: each
// missing condition of the side that must win weighs from 1 VP at the start to 5 at the
// end, when nothing is left to repair it. Read like scenario_victory() (bd_state.cpp),
// without its overland-supply test (a city cut off is still likely to be held). 0 for the
// scenarios scored on the Victory Check Chart (4.14).
// What If 1942 (15.4, the one scenario with draws): a side meeting every condition counts
// 3 conditions' weight, one condition short half that (e^-0.7), two short a quarter.
constexpr double kDrawScenarioScale = 3.0;
constexpr double kDrawFalloff = 0.7;

// How near `side` stands to retaking its lost start city `hex`, as a part of the missing
// condition: 0.3 with a combat unit next to it, falling to 0 seven hexes off. Without it
// the value of a lost city was flat until a unit could enter it in one move, and a German
// who took Moscow and Stalingrad in Blue & Kremlin left Vitebsk, which a random Soviet's
// first move had entered, in Soviet hands for four turns and lost on 13.4.
double recapture_pull(const BdState& st, int hex, int side) {
  int d = 99;
  for (int u = 0; u < st.num_units(); ++u) {
    const UnitSt& s = st.unit(u);
    const UnitDef& def = st.def(u);
    if (s.where != kOnMap || s.hex < 0 || def.side != side || def.cls == kStatic || factor(def.attack) <= 0)
      continue;
    d = std::min(d, hex_distance(s.hex, hex));
  }
  return 0.3 * std::clamp(1.0 - (d - 1) / 6.0, 0.0, 1.0);
}

double scenario_objective(const BdState& st) {
  const std::string_view id = st.scenario_id();
  const Places& pl = st.data().places;
  const int span = std::max(1, st.last_turn() - st.first_turn());
  const double w = 1.0 + 4.0 * std::clamp(static_cast<double>(st.turn() - st.first_turn()) / span, 0.0, 1.0);
  double lost[2] = {0, 0};  // cities a side started with and does not control, less recapture_pull
  int gained[2] = {0, 0};   // cities a side took from the other's start
  for (int h = 0; h < kNumHexes; ++h) {
    const HexInfo& x = st.hex_info(h);
    if (!x.on_map || (!x.city && !(id == "what-if-1942" && h == pl.usir))) continue;
    const int start = st.start_control(h), now = st.control(h);
    if (start != kGerman && start != kSoviet) continue;
    if (now != start) lost[start] += 1.0 - recapture_pull(st, h, start);
    if (now == other(start)) ++gained[other(start)];
  }
  auto holds = [&](int h) { return h >= 0 && st.control(h) == kGerman; };
  if (id == "blue-kremlin") {  // 13.4: the German holds his cities and 2 of Leningrad, Moscow, Stalingrad
    int big = 0;
    for (int h : {pl.leningrad, pl.moscow, pl.stalingrad}) big += holds(h) ? 1 : 0;
    return -w * (lost[kGerman] + std::max(0, 2 - big));
  }
  if (id == "mansteins-gambit")  // 14.10: the German holds his cities and takes one
    return -w * (lost[kGerman] + std::max(0, 1 - gained[kGerman]));
  if (id == "citadel") {  // 14.4: the Soviet keeps his cities, takes 7, clears Leningrad
    bool dnepr = false, goten = false, leningrad = false;
    const auto g = pl.named.find("gotenkopf");
    for (int u = 0; u < st.num_units(); ++u) {
      const UnitSt& s = st.unit(u);
      if (s.where != kOnMap || s.hex < 0 || st.def(u).side != kGerman) continue;
      if (st.hex_info(s.hex).dnepr) dnepr = true;
      if (g != pl.named.end() && s.hex == g->second) goten = true;
      for (int d = 0; d < 6 && pl.leningrad >= 0; ++d)
        if (neighbour(pl.leningrad, d) == s.hex) leningrad = true;
    }
    const int taken = gained[kSoviet] + (dnepr ? 0 : 1) + (goten ? 0 : 1);
    return w * (lost[kSoviet] + std::max(0, 7 - taken) + (leningrad ? 1 : 0));
  }
  if (id == "what-if-1942") {
    // 15.4: either side wins by holding its own cities and taking one of the other's, and
    // anything else is a draw, so a side's chance falls off with what it still misses and a
    // city more taken from a side already far from its win adds nearly nothing. Counted
    // linearly (each side's misses against the other's), the German valued a tenth eastern
    // city as much as the western one he had lost, and every game against greedy was drawn.
    const double miss_g = lost[kGerman] + std::max(0, 1 - gained[kGerman]);
    const double miss_s = lost[kSoviet] + std::max(0, 1 - gained[kSoviet]);
    return kDrawScenarioScale * w * (std::exp(-kDrawFalloff * miss_g) - std::exp(-kDrawFalloff * miss_s));
  }
  return 0.0;
}

// 7.10-7.12: from GT7 a Soviet attack is halved unless the attacker, in overland supply, is
// within range of an offensive supply marker (A 4 hexes, B 3, C 2). A marker is worth the
// attack factors it brings into range that no marker placed already covers: a unit next to
// a German unit counts fully, one a move from contact half. Without this every hex scored
// alike, the markers went wherever the search's order put them, and the Soviet attacked at
// half strength from GT7 on.
double osupply_value(const BdState& st, const View& v, int marker, int hex) {
  const auto& range = BdState::kOffensiveSupplyRange;
  if (marker < 0 || marker > 2) return 0.0;
  double value = 0.0;
  for (int u = 0; u < st.num_units(); ++u) {
    const UnitSt& s = st.unit(u);
    const UnitDef& d = st.def(u);
    if (d.side != kSoviet || s.where != kOnMap || s.hex < 0 || factor(d.attack) <= 0) continue;
    // 7.11: an OOS unit gains nothing; units that always have supply (8.30) need no marker.
    if (st.supply_of(u) != kSupOverland || hex_distance(s.hex, hex) > range[static_cast<size_t>(marker)])
      continue;
    bool covered = false;
    for (int m = 0; m < 3 && !covered; ++m) {
      const int h = st.osupply_hex(m);
      covered = h >= 0 && hex_distance(s.hex, h) <= range[static_cast<size_t>(m)];
    }
    if (covered) continue;
    const int contact = v.side == kSoviet ? v.de(s.hex) : 30;
    value += contact <= 1 ? factor(d.attack) : (contact == 2 ? 0.5 * factor(d.attack) : 0.0);
  }
  return value;
}

// Weight of unit u going from `from` (-1: from off the map) to `dest`, for the side to move.
float destination_score(const BdState& st, const View& v, int u, int from, int dest) {
  if (dest < 0) return 1.0f;
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
  } else if (from < 0) {
    w += 0.15 * (30 - v.de(dest));  // a defender arriving: nearer the front
  }
  // Where the enemy can mass more than the stack there can stand (exposure()): the likelier
  // a counterattack destroys the unit, the less the hex is worth. Contact, ground and even a
  // victory hex are not worth a unit the enemy takes next turn.
  if (const int a = static_cast<int>(v.enemy_pot[static_cast<size_t>(dest)]); a > 0) {
    const int def = v.own_def[static_cast<size_t>(dest)] + (from == dest ? 0 : defense_now(st, u));
    const double risk = counter_risk(st, dest, a, def, other(v.side));
    w *= std::max(0.1, 1.0 - 1.5 * risk);  // 5:1 (DE, DR and BB two each) leaves 0.2
  }
  // Out of overland supply a unit moves and fights at half (7.16): a unit in supply does
  // not walk out of it for ground or contact (a victory hex may still be worth it).
  if (from >= 0 && st.supply_of(u) == kSupOverland && !st.overland(dest, v.side)) w *= 0.35;
  if (from >= 0) {
    // Never strip a threatened victory hex of its last defender.
    const HexInfo& fx = st.hex_info(from);
    if (fx.vp && v.de(from) <= threat_radius(st, v.side, from) && v.count[static_cast<size_t>(from)] == 1)
      w *= 0.15;
  }
  // Garrison an empty own victory hex the enemy threatens.
  if (x.vp && st.control(dest) == v.side && v.count[static_cast<size_t>(dest)] == 0 &&
      v.de(dest) <= threat_radius(st, v.side, dest))
    w += 2.5;
  return static_cast<float>(std::max(0.05, w));
}

// 5.4 phase order: fight first when the units already in contact carry the attack (and,
// for the German in 1941, 5.6's 1R for fight/move), move first when most of the attack
// still has to close in. Fight/fight (5.5) only when contact is all there is.
float order_score(const BdState& st, const View& v, int order) {
  double contact = 0.0, closing = 0.0;
  for (int u = 0; u < st.num_units(); ++u) {
    const UnitSt& s = st.unit(u);
    const UnitDef& d = st.def(u);
    if (d.side != v.side || s.where != kOnMap || s.hex < 0) continue;
    const int de = v.de(s.hex);
    if (de == 1)
      contact += factor(d.attack);
    else if (de <= 4)
      closing += factor(d.attack);
  }
  double fight_first = contact > 0 ? contact / (contact + closing) : 0.0;
  if (v.side == kGerman && st.turn() <= 4) fight_first += 0.25;
  if (order == kFightMove) return static_cast<float>(0.5 + 2.0 * fight_first);
  if (order == kMoveFight) return static_cast<float>(0.5 + 2.0 * (1.0 - fight_first));
  return static_cast<float>(0.25 + (closing == 0.0 && contact > 0.0 ? 1.5 : 0.0));
}

// A unit that has moved this phase and may go on (10.2) going to `dest`, no farther from
// the hex it started in than it stands: never worth trying, since its first move could have
// gone there along the same path (a move is a whole path, 10.1). Scored from each end, two
// hexes can each look better than the other, or near-equal moves win decisions by noise,
// and units went 1314-1215-1314 within a phase. Not after a mobile assault (10.24): hexes
// its first move could not reach (through the enemy) may be open.
bool goes_back(const UnitSt& us, int dest) {
  return us.mp >= 0 && us.start_hex >= 0 && us.hex >= 0 && (us.flags & kFlagTurnAttacked) == 0 &&
         hex_distance(us.start_hex, dest) <= hex_distance(us.start_hex, us.hex);
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
    case kMove:
      if (a.nargs < 2) return 1.0f;
      // A way back (0 leaves it out of the search; move_operations leaves it out of the
      // operations for the same reason).
      if (goes_back(st.unit(a.args[0]), a.args[a.nargs - 1])) return 0.0f;
      return destination_score(st, v, a.args[0], st.unit(a.args[0]).hex, a.args[a.nargs - 1]);
    // A unit put on the map (reinforcement 8.1, replacement 8.12, RVGK 8.9-8.11, free set-up)
    // or moved by rail or sea (8.6, 10.16) is scored like a move to that hex.
    case kEnter:
    case kRvgkOut:
    case kSetup:
    case kEmergencyRvgk:
      return a.nargs < 2 ? 1.0f : destination_score(st, v, a.args[0], -1, a.args[1]);
    case kReplace:
      return a.nargs < 2 || a.args[1] < 0 ? 1.0f : destination_score(st, v, a.args[0], -1, a.args[1]);
    case kStrategic:
    case kSeaMove:
      return a.nargs < 2 ? 1.0f : destination_score(st, v, a.args[0], st.unit(a.args[0]).hex, a.args[1]);
    // Hex markers that strengthen a defence (9.2 Fortress City, Hero City, 8.18 Fortified
    // Area, 8.5 East Wall) are worth most where the enemy is close.
    case kHeroCity:
    case kFortressCity:
    case kFortifiedArea:
    case kEastWall: {
      if (a.nargs < 1 || a.args[0] < 0) return 1.0f;
      const int h = a.args[0];
      double w = 1.0 + 4.0 / (1.0 + v.de(h));
      if (st.hex_info(h).vp) w += 1.0;
      if (v.occ[static_cast<size_t>(h)] == v.side) w += 1.0;
      return static_cast<float>(w);
    }
    case kRetreat:
      return static_cast<float>(1.0 + v.de(a.args[0]));
    case kAdvance:
    case kAdvance2:
      return 2.0f;
    case kOrder:
      return a.nargs < 1 ? 1.0f : order_score(st, v, a.args[0]);
    case kRvgkIn: {  // 8.8-8.10: a unit far behind the front is worth sending round by the
                     // RVGK; one at the front or holding a victory hex is not (below end-phase)
      if (a.nargs < 1 || st.unit(a.args[0]).where != kOnMap) return 1.0f;  // 15.3 set-up
      const int h = st.unit(a.args[0]).hex;
      if (h < 0 || st.hex_info(h).vp) return 0.02f;
      return static_cast<float>(0.02 + 0.15 * std::max(0, v.de(h) - 4));
    }
    case kAerialSupply: {  // 7.7: worth the German units it supplies that have no other supply
      if (a.nargs < 1 || a.args[0] < 0) return 1.0f;
      double w = 0.02;
      for (int u = 0; u < st.num_units(); ++u)
        if (st.def(u).side == kGerman && st.unit(u).where == kOnMap && st.unit(u).hex == a.args[0] &&
            st.supply_of(u) == kSupOos)
          w += 1.0 + 0.2 * factor(st.def(u).defense);
      return static_cast<float>(w);
    }
    case kOffSupply:
      return static_cast<float>(0.02 + osupply_value(st, v, a.args[0], a.args[1]));
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

// ---------------------------------------------------------------------------------------
// Macro-operations (docs/ai.md, "BD operations"). A movement phase offers ~2,500 raw moves
// and a player makes ~100 decisions in it; the operations keep, per unit, the few moves a
// player would consider and attack each enemy hex once with the best set of adjacent
// units. Built from the legal actions only (every first step is one
// of them), in their order, so they are deterministic.

using steppe::ai::Operation;

// Other verbs of a movement or assault phase (sea moves, Caucasus, markers...) kept as
// single-action operations: at most this many per verb, best first by score().
constexpr int kOtherPerVerb = 3;

bool is_attack(const Action& a) {
  return a.verb == kAttackFrom || a.verb == kAttackWith || a.verb == kMobileAssault;
}

// Own units in the hexes around `hex`, not counting `leaving` (the unit that moves).
int own_neighbours(const View& v, int hex, int leaving_hex) {
  int n = 0;
  for (int d = 0; d < 6; ++d) {
    const int x = neighbour(hex, d);
    if (x < 0 || v.occ[static_cast<size_t>(x)] != v.side) continue;
    if (x == leaving_hex && v.count[static_cast<size_t>(x)] <= 1) continue;
    ++n;
  }
  return n;
}

// The best attack among `cands` (indices into legal): the best odds column, then the
// fewest attack factors committed (the rest stay free for another hex), then legal order.
size_t best_attack(const BdState& st, const View& v, const std::vector<Action>& legal,
                   const std::vector<size_t>& cands) {
  size_t best = cands.front();
  AttackEstimate be = estimate_attack(st, v, legal[best]);
  for (size_t k = 1; k < cands.size(); ++k) {
    const AttackEstimate e = estimate_attack(st, v, legal[cands[k]]);
    if (e.column > be.column || (e.column == be.column && e.committed < be.committed)) {
      be = e;
      best = cands[k];
    }
  }
  return best;
}

// One operation per (target, Luftwaffe or not) among the attacks of `legal` with verb in
// `verbs`: the best set of units for that hex. The 4.17 air-drop variants stay raw-only.
void attack_operations(const BdState& st, const View& v, const std::vector<Action>& legal,
                       std::initializer_list<uint16_t> verbs, std::vector<Operation>& out) {
  std::vector<int> targets;
  for (const Action& a : legal)
    if (std::find(verbs.begin(), verbs.end(), a.verb) != verbs.end() &&
        std::find(targets.begin(), targets.end(), a.args[0]) == targets.end())
      targets.push_back(a.args[0]);
  std::vector<size_t> cands;
  for (int t : targets)
    for (int lw = 0; lw <= 1; ++lw) {
      cands.clear();
      for (size_t i = 0; i < legal.size(); ++i)
        if (std::find(verbs.begin(), verbs.end(), legal[i].verb) != verbs.end() && legal[i].args[0] == t &&
            legal[i].args[1] == lw)
          cands.push_back(i);
      if (cands.empty()) continue;
      const size_t i = best_attack(st, v, legal, cands);
      out.push_back({std::string(lw != 0 ? "attack (Luftwaffe) " : "attack ") + hex_id(t),
                     {legal[i]},
                     score(st, v, legal[i], true)});
    }
}

// Per unit with legal moves: its best move by score() ("advance"), the best move into an
// empty hex next to the enemy with the most own units around it ("front": closes a gap in
// the line) and the best move into an empty own victory hex the enemy threatens ("cover").
// Holding is not moving: another unit's operation or the end of the phase. There is no
// "stack" operation (a unit's hex mates following it): scored as a whole by the root's
// one-ply look but played one unit at a time, it lost Citadel's German seat, which the
// one-ply look without it wins (docs/performance.md, "Why Citadel is lost").
void move_operations(const BdState& st, const View& v, const std::vector<Action>& legal,
                     std::vector<Operation>& out) {
  std::vector<std::vector<size_t>> by_unit(static_cast<size_t>(st.num_units()));
  std::vector<int> order;
  for (size_t i = 0; i < legal.size(); ++i) {
    if (legal[i].verb != kMove || legal[i].nargs < 2) continue;
    // A unit that has moved this phase and may go on (10.2) is not offered a way back (the
    // pace runs moved units 2415-2315-2415-2315).
    if (goes_back(st.unit(legal[i].args[0]), legal[i].args[legal[i].nargs - 1])) continue;
    auto& mine = by_unit[static_cast<size_t>(legal[i].args[0])];
    if (mine.empty()) order.push_back(legal[i].args[0]);
    mine.push_back(i);
  }
  auto dest_of = [&](size_t i) { return legal[i].args[legal[i].nargs - 1]; };
  for (int u : order) {
    const auto& mine = by_unit[static_cast<size_t>(u)];
    const int from = st.unit(u).hex;
    size_t adv = mine.front(), front = legal.size(), cover = legal.size();
    float adv_w = -1, front_w = -1, cover_w = -1;
    int front_nb = -1;
    for (size_t i : mine) {
      const float w = score(st, v, legal[i], true);
      const int dest = dest_of(i);
      if (w > adv_w) {
        adv_w = w;
        adv = i;
      }
      const bool empty = v.count[static_cast<size_t>(dest)] == 0;
      if (empty && v.de(dest) == 1) {
        const int nb = own_neighbours(v, dest, from);
        if (nb > 0 && (nb > front_nb || (nb == front_nb && w > front_w))) {
          front_nb = nb;
          front_w = w;
          front = i;
        }
      }
      const HexInfo& x = st.hex_info(dest);
      if (empty && x.vp && st.control(dest) == v.side && v.de(dest) <= threat_radius(st, v.side, dest) &&
          w > cover_w) {
        cover_w = w;
        cover = i;
      }
    }
    const std::string name = st.def(u).label;
    out.push_back({"advance " + name, {legal[adv]}, adv_w});
    if (front < legal.size() && front != adv)
      out.push_back({"front " + name, {legal[front]}, front_w + 0.5f});
    if (cover < legal.size() && cover != adv && cover != front)
      out.push_back({"cover " + name, {legal[cover]}, cover_w});
  }
}

class BdHeuristics : public steppe::ai::Heuristics {
 public:
  bool has_evaluation() const override { return true; }
  // A BD rollout step is one unit's move among a hundred of the phase, chosen by score():
  // eight of them add noise, not foresight. At the default turn clock rollout=0 beat
  // rollout=8 against greedy (docs/performance.md, "Root one ply, no rollouts, ...").
  int default_rollout_depth() const override { return 0; }

  // The set-up (3.x, 12.x-15.x: a side places every unit before GT1) is a turn of its own
  // on the agents' clocks. Counted as GT1 (result()'s turn), a German set-up of some forty
  // placements, each looked at one ply, spent the budget of the German GT1 player turn, so
  // the most important moves of the campaign were played by the prior alone.
  int64_t turn_key(const steppe::State& state) const override {
    const auto* st = dynamic_cast<const BdState*>(&state);
    if (st == nullptr) return Heuristics::turn_key(state);
    return st->phase() == kSetupPhase ? 0 : st->turn();
  }

  void evaluate(const steppe::State& state, std::vector<double>& values) const override {
    const auto* st = dynamic_cast<const BdState*>(&state);
    if (st == nullptr || state.is_terminal()) {
      Heuristics::evaluate(state, values);
      return;
    }
    // Everything in VP-equivalents, German positive. The Victory Check Chart (4.14) scores
    // the Grand Campaign and the Road Back; the short scenarios are won on their own
    // conditions (scenario_objective below), so their VP counter, which starts at 0 under
    // a chart's middle of 20-30, is not a measure there: counted, it held the value at
    // tanh(-5) and beyond, where a city or a lost army moved it by less than 1e-4 and the
    // root's one-ply look (temperature 0.02) saw nothing.
    const bool chart = st->scenario_id() == "grand-campaign" || st->scenario_id() == "road-back";
    double mid = 0, half = kShortScenarioScale;
    if (chart) thresholds(*st, mid, half);
    double x = chart ? st->vp() - mid : 0.0;
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
    // What If 1942 is won by 15.4's conditions alone (scenario_objective), where every
    // eastern city after the first adds nothing: counted at 1.5 as in the other short
    // scenarios, the German drove on to twenty of them and never retook the western cities
    // the Soviet's first turn took, and every game was drawn. There a city weighs as on
    // the chart, a measure of progress only. A start city threatened still weighs 1.5: its
    // loss is a missing condition there too, and at 0.3 the Soviet left Kaunas to a panzer
    // corps and drew games against `random` he had won.
    const bool what_if = st->scenario_id() == "what-if-1942";
    const double city_w = chart || what_if ? kProgressCityWeight : kConditionCityWeight;
    x += city_w * city_gain;
    x += 0.04 * ground;
    x += threatened_vp(*st, chart ? kProgressCityWeight : kConditionCityWeight, 2.0 * half);
    if (!chart) x += scenario_objective(*st);
    // Combat strength: an eliminated average unit is worth about a third of a VP.
    double strength[2] = {0, 0};
    int n_units = 0, oos[2] = {0, 0};
    for (int u = 0; u < st->num_units(); ++u) {
      const UnitSt& s = st->unit(u);
      if (!alive(s)) continue;
      const UnitDef& d = st->def(u);
      if (d.side > kSoviet) continue;
      // A unit in the RVGK (8.8-8.10) is safe from exposure() but out of the line until a
      // later RVGK phase, and the hole it leaves is scored nowhere else: it counts at 3/4.
      // Without the discount exposure() pulled threatened armies out of the front.
      strength[d.side] += (s.where == kRvgk ? 0.75 : 1.0) * (factor(d.attack) + factor(d.defense));
      ++n_units;
      if (s.where == kOnMap && st->supply_of(u) == kSupOos) ++oos[d.side];  // 7.16, 7.22
    }
    // A Bloodbath whose losses the attacker is still choosing (11.26) has taken the
    // defenders already: count what he owes (attack factors, about half of what a lost
    // unit's attack plus defence is), or the look one ply on sees the gain and not the cost.
    int bb_side = kGerman;
    const int owed = st->bloodbath_owed(bb_side);
    if (owed > 0 && bb_side <= kSoviet) strength[bb_side] -= 2.0 * owed;
    const double avg = n_units > 0 ? (strength[0] + strength[1]) / n_units : 6.0;
    if (avg > 0) x += 0.35 * (strength[kGerman] - strength[kSoviet]) / avg;
    if (avg > 0) {
      double sudden_death = 0.0;
      x += kExposureWeight * exposure(*st, 0.35 / avg, 2.0 * half, sudden_death);
      x += sudden_death;
    }
    x -= 0.15 * (oos[kGerman] - oos[kSoviet]);
    const double g = squash(x / half);
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

  // Movement phases (moves and mobile assaults) and assault phases (attack declarations)
  // get operations; every other decision (administration, set-up, a battle's retreat,
  // advance, Luftwaffe or support choices) keeps its raw actions.
  bool operations(const steppe::State& state, const std::vector<Action>& legal,
                  std::vector<steppe::ai::Operation>& out) const override {
    out.clear();
    const auto* st = dynamic_cast<const BdState*>(&state);
    if (st == nullptr) return false;
    bool moving = false, assaulting = false;
    for (const Action& a : legal) {
      if (a.verb == kMove || a.verb == kMobileAssault) moving = true;
      if (a.verb == kAttackFrom || a.verb == kAttackWith) assaulting = true;
    }
    if (!moving && !assaulting) return false;
    const View v(*st);
    if (moving) {
      move_operations(*st, v, legal, out);
      attack_operations(*st, v, legal, {kMobileAssault}, out);
    } else {
      attack_operations(*st, v, legal, {kAttackFrom, kAttackWith}, out);
    }
    // The phase's other choices, a few per verb, and the end of the phase.
    std::vector<std::pair<float, size_t>> others;
    std::vector<uint16_t> verbs;
    for (const Action& a : legal)
      if (a.verb != kMove && !is_attack(a) && a.verb != kEndPhase &&
          std::find(verbs.begin(), verbs.end(), a.verb) == verbs.end())
        verbs.push_back(a.verb);
    for (uint16_t verb : verbs) {
      others.clear();
      for (size_t i = 0; i < legal.size(); ++i)
        if (legal[i].verb == verb) others.emplace_back(score(*st, v, legal[i], true), i);
      std::stable_sort(others.begin(), others.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      for (size_t k = 0; k < others.size() && k < static_cast<size_t>(kOtherPerVerb); ++k)
        out.push_back(
            {st->action_to_string(legal[others[k].second]), {legal[others[k].second]}, others[k].first});
    }
    for (const Action& a : legal)
      if (a.verb == kEndPhase) out.push_back({"end the phase", {a}, score(*st, v, a, out.size() > 0)});
    return !out.empty();
  }

  // Best of a few sampled actions: cheap, biased toward attacks at good odds and forward
  // moves, still random enough to sample the opponent's replies.
  size_t rollout_choice(const steppe::State& state, const std::vector<Action>& legal,
                        steppe::Dice& rng) const override {
    const auto* st = dynamic_cast<const BdState*>(&state);
    const int n = static_cast<int>(legal.size());
    if (st == nullptr || n <= 1) return n <= 1 ? 0 : static_cast<size_t>(rng.below(n));
    const View v(*st);
    return steppe::ai::best_of_samples(legal.size(), 6, rng,
                                       [&](size_t i) { return score(*st, v, legal[i], true); });
  }
};

}  // namespace

std::unique_ptr<steppe::ai::Heuristics> make_bd_heuristics(const steppe::Game& game) {
  (void)game;
  return std::make_unique<BdHeuristics>();
}

}  // namespace bd
