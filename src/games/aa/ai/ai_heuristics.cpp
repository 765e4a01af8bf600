// The agents' knowledge of the Axis & Allies-style Barbarossa (docs/ai.md, "A&A-style
// Barbarossa"). Everything is counted in Build Points (BP), Axis-positive, from the game's data:
// unit costs and values (data/aa/units.json), the zones' VP and ICs (map.json), the cities that
// win and the income rules (rules.json). Battles and threats are valued by the game's exact
// battle calculator (battle_calculator.h), never by odds of our own.
#include "games/aa/ai/ai_heuristics.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "games/aa/battle_calculator.h"
#include "games/aa/state.h"

namespace steppe::aa {

namespace {

constexpr double kVpBp = 6.0;            // one Axis VP, in BP
constexpr double kCityZoneBp = 40.0;     // each zone of a city that wins the game (1.3)
constexpr double kWholeCityBp = 150.0;   // all of its zones held
constexpr double kBpInHand = 0.85;       // a BP not spent (units bought are worth more)
constexpr double kThreatWeight = 0.5;    // the enemy may not strike everywhere at once
constexpr double kAdvanceWeight = 0.12;  // Axis land strength per zone closer to the goal
constexpr double kScale = 200.0;         // tanh(total / scale)
constexpr double kMinorWeight = 0.8;     // minor Axis units (weaker, 3.1), by cost
constexpr double kPlaceDelay = 0.9;      // a unit still waiting in its side's own Place step

int sign(int side) { return side == kAxis ? 1 : -1; }

struct OddsSummary {
  double capture = 0, att_wins = 0, att_lost = 0, def_lost = 0;
};

class AaHeuristics : public ai::Heuristics {
 public:
  explicit AaHeuristics(const AaGame& g) : g_(g) {
    const int nz = g.zone_count();
    const auto& graph = g.map().graph();
    dist_.assign(static_cast<size_t>(nz) * static_cast<size_t>(nz), kFar);
    for (int a = 0; a < nz; ++a) {
      if (!g.zone(a).land()) continue;
      std::deque<int> q{a};
      at(a, a) = 0;
      while (!q.empty()) {
        const int z = q.front();
        q.pop_front();
        for (const GraphEdge& e : graph.neighbours(z)) {
          const int to = static_cast<int>(e.to);
          if (!g.zone(to).land() || at(a, to) != kFar) continue;
          at(a, to) = at(a, z) + 1;
          q.push_back(to);
        }
      }
    }
    for (const std::string& city : g.rules().hold_to_win)
      for (int z : g.city_zones(city)) goal_.push_back(z);
    goal_dist_.assign(static_cast<size_t>(nz), kFar);
    for (int z = 0; z < nz; ++z)
      for (int t : goal_)
        goal_dist_[static_cast<size_t>(z)] = std::min(goal_dist_[static_cast<size_t>(z)], at(z, t));
    // Purchase worth per BP (data: attack, defence, hits, dice, movement, cost): the Axis
    // attacks (attack counts 0.7), Russia defends (defence 0.7).
    const int nb = g.base_type_count();
    for (int side : {kAxis, kRussia}) {
      auto& eff = eff_[static_cast<size_t>(side)];
      eff.assign(static_cast<size_t>(nb), 0.0);
      double best = 0;
      for (int t = 0; t < nb; ++t) {
        const UnitType& u = g.base(t);
        if (!u.combatant || u.cost <= 0) continue;
        // Lanchester: a force's strength goes as its firepower times its hits, so worth per BP
        // is the geometric mean of pips per BP and hits per BP; the Axis, who must advance,
        // values movement more.
        const double wa = side == kAxis ? 0.7 : 0.3;
        const double pips = wa * u.attack * u.attack_dice + (1 - wa) * u.defence;
        const double mobility = 1.0 + (side == kAxis ? 0.25 : 0.1) * (std::min(u.movement, 4) - 1);
        eff[static_cast<size_t>(t)] = std::sqrt(pips / u.cost * u.hits / u.cost) * mobility;
        best = std::max(best, eff[static_cast<size_t>(t)]);
      }
      for (double& e : eff) e = best > 0 ? e / best : 0;
    }
    supply_ = g.base_index("supply");
    default_order_ = CasualtyOrder::cheapest_first(g.battle_types());
    valuable_.assign(static_cast<size_t>(nz), 0);
    for (int z = 0; z < nz; ++z) {
      const Zone& zn = g.zone(z);
      valuable_[static_cast<size_t>(z)] = zn.land() && (zn.vp > 0 || zn.ic || !zn.reinforcement.empty());
    }
  }

  bool has_evaluation() const override { return true; }
  int default_rollout_depth() const override { return 0; }

  void evaluate(const State& state, std::vector<double>& values) const override {
    const auto* s = dynamic_cast<const AaState*>(&state);
    if (s == nullptr || state.is_terminal()) {
      Heuristics::evaluate(state, values);
      return;
    }
    const double v = std::tanh(terms(*s).total() / kScale);
    values.assign(2, 0.0);
    values[kAxis] = v;
    values[kRussia] = -v;
  }

  AaEvalTerms terms(const AaState& s) const {
    AaEvalTerms t;
    const int nz = g_.zone_count();
    const int turns_left = std::max(1, s.aa().rules().last_turn - s.turn() + 1);
    // Units, and per zone what stands there (for battles, threats and supply).
    std::vector<double> land_value(static_cast<size_t>(nz) * 2, 0.0);
    std::vector<int> supplies(static_cast<size_t>(nz) * 2, 0);
    for (const Unit& u : s.units()) {
      const int side = side_of(u.nation);
      const UnitType& ut = g_.base(u.type);
      if (ut.facility) continue;  // bases change hands with their zone
      double v = ut.cost - (u.damage > 0 ? ut.repair_cost : 0);
      if (minor_axis(u.nation)) v *= kMinorWeight;
      t.units += sign(side) * v;
      const size_t k = static_cast<size_t>(u.zone) * 2 + static_cast<size_t>(side);
      if (u.type == supply_) ++supplies[k];
      if (ut.combatant && !ut.aircraft()) land_value[k] += v;
    }
    // 3.24: a zone's first supply token lets its units move; worth more than its 1 BP there.
    for (int z = 0; z < nz; ++z)
      for (int side : {kAxis, kRussia}) {
        const size_t k = static_cast<size_t>(z) * 2 + static_cast<size_t>(side);
        if (supplies[k] > 0 && land_value[k] > 0) t.units += sign(side) * std::min(2.0, 0.1 * land_value[k]);
      }
    // Units waiting to be placed. In its own Place step a side's waiting unit is worth 0.9 of its
    // cost (placing it is worth something); before, a unit bought is worth its cost times a
    // marginal worth that falls with the count of its type bought, from 0.7 + 0.6 x its worth
    // per BP (1 for the side's best type), so the BP go to a mix and are not all spent on one
    // type; a BP kept is worth kBpInHand.
    std::vector<int> bought(static_cast<size_t>(g_.base_type_count()) * 2, 0);
    for (const Pending& p : s.pending()) {
      const int side = side_of(p.nation);
      const double minor = minor_axis(p.nation) ? kMinorWeight : 1.0;
      double v = 0;
      if (s.phase() == Phase::kPlace && s.active() == side) {
        v = kPlaceDelay * minor * g_.base(p.type).cost * p.count;
      } else {
        for (int i = 0; i < p.count; ++i) {
          int& k = bought[static_cast<size_t>(p.type) * 2 + static_cast<size_t>(side)];
          v += minor * g_.base(p.type).cost * purchase_worth(side, p.type, k);
          ++k;
        }
      }
      t.units += sign(side) * v;
    }
    t.bp = kBpInHand * (s.bp(kAxis) - s.bp(kRussia) - s.bp(kRussia, kLendLease) - s.bp(kRussia, kSiberian));
    // VP (1.3), Russian ICs lost (2.9: 10 BP a turn), the cities that win.
    t.vp = kVpBp * s.axis_vp();
    for (int z = 0; z < nz; ++z)
      if (g_.zone(z).ic && g_.zone(z).original_owner == kRussiaNation && s.controller(z) == kAxis)
        t.vp += 0.5 * g_.rules().destroyed_ic_penalty * turns_left;
    for (const std::string& city : g_.rules().hold_to_win) {
      const auto& zs = g_.city_zones(city);
      int held = 0;
      for (int z : zs) held += s.controller(z) == kAxis ? 1 : 0;
      t.vp += kCityZoneBp * held + (held == static_cast<int>(zs.size()) && held > 0 ? kWholeCityBp : 0);
    }
    // Battles under way (the active side attacks): expected losses and the chance of capture.
    // While the attacker is still moving (its Combat Move) a battle counts half as it stands and
    // half as it would be with every unit of the attacker that can still reach it: one group
    // is never enough against a stack, and the first group in is worth the attack it starts.
    std::vector<uint8_t> contested(static_cast<size_t>(nz), 0);
    const int att = s.active();
    for (int z = 0; z < nz; ++z)
      if (g_.zone(z).land() && s.count(z, att) > 0 && s.enemy_units_in(z, att))
        contested[static_cast<size_t>(z)] = 1;
    // Each unit free to join is counted for one battle only: the most valuable zone it can
    // reach (the lowest index among equals), so opening a second attack with the same
    // reserves is worth nothing more.
    std::vector<int> joins;  // per unit: the battle it could join, -1 none
    if (s.phase() == Phase::kCombatMove) {
      joins.assign(s.units().size(), -1);
      for (size_t i = 0; i < s.units().size(); ++i) {
        const Unit& u = s.units()[i];
        if (side_of(u.nation) != att || u.locked || u.mp <= 0 || u.zone < 0) continue;
        if (contested[static_cast<size_t>(u.zone)] != 0) continue;
        const UnitType& ut = g_.base(u.type);
        if (!ut.combatant) continue;
        double best = -1;
        for (int z = 0; z < nz; ++z) {
          if (contested[static_cast<size_t>(z)] == 0) continue;
          const int d = ut.aircraft() ? 1 : g_.zone(u.zone).land() ? dist(u.zone, z) : kFar;
          if (d > u.mp) continue;
          const double value = zone_value(z, 1 - att, turns_left);
          if (value > best && can_move(s, u, z)) {
            best = value;
            joins[i] = z;
          }
        }
      }
    }
    for (int z = 0; z < nz; ++z) {
      if (contested[static_cast<size_t>(z)] == 0) continue;
      auto setup = s.battle_setup(z);
      if (!setup) continue;
      const double value = zone_value(z, 1 - att, turns_left);
      const OddsSummary o = odds(*setup);
      double v = o.def_lost - o.att_lost + o.capture * value;
      if (!joins.empty()) {
        BattleSetup full = *setup;
        bool more = false;
        for (size_t i = 0; i < s.units().size(); ++i) {
          if (joins[i] != z) continue;
          const Unit& u = s.units()[i];
          const size_t bt = static_cast<size_t>(g_.battle_type(u.nation, u.type));
          ++full.attacker.alive[bt];
          if (u.damage > 0) ++full.attacker.damaged[bt];
          more = true;
        }
        if (more) {
          const OddsSummary p = odds(full);
          v = 0.5 * v + 0.5 * std::max(v, p.def_lost - p.att_lost + p.capture * value);
        }
      }
      t.battles += sign(att) * v;
    }
    // Threats: a valuable zone the enemy's units can reach next, by the chance they take it.
    for (int z = 0; z < nz; ++z) {
      const int owner = s.controller(z);
      if (owner == kNoSide || contested[static_cast<size_t>(z)] != 0 || !g_.zone(z).land()) continue;
      if (!valuable_[static_cast<size_t>(z)]) continue;
      const double value = zone_value(z, owner, turns_left);
      const double p = threat(s, z, owner);
      t.threats -= sign(owner) * kThreatWeight * p * value;
    }
    // Axis land strength closing on the cities that win.
    for (const Unit& u : s.units()) {
      if (side_of(u.nation) != kAxis || u.locked) continue;
      const UnitType& ut = g_.base(u.type);
      if (!ut.combatant || ut.aircraft()) continue;
      const int d = goal_dist_[static_cast<size_t>(u.zone)];
      t.advance += kAdvanceWeight * ut.cost * std::max(0, 10 - std::min(d, 10)) / 10.0;
    }
    return t;
  }

  void prior(const State& state, const std::vector<Action>& actions,
             std::vector<float>& weights) const override {
    const auto* s = dynamic_cast<const AaState*>(&state);
    if (s == nullptr) {
      Heuristics::prior(state, actions, weights);
      return;
    }
    weights.resize(actions.size());
    for (size_t i = 0; i < actions.size(); ++i) weights[i] = static_cast<float>(score(*s, actions[i]));
  }

  size_t rollout_choice(const State& state, const std::vector<Action>& legal, Dice& rng) const override {
    const auto* s = dynamic_cast<const AaState*>(&state);
    const int n = static_cast<int>(legal.size());
    if (s == nullptr || n <= 1) return n <= 1 ? 0 : static_cast<size_t>(rng.below(n));
    return ai::best_of_samples(legal.size(), 4, rng, [&](size_t i) { return score(*s, legal[i]); });
  }

 private:
  static constexpr int kFar = 99;
  int& at(int a, int b) {
    return dist_[static_cast<size_t>(a) * static_cast<size_t>(g_.zone_count()) + static_cast<size_t>(b)];
  }
  int dist(int a, int b) const {
    return dist_[static_cast<size_t>(a) * static_cast<size_t>(g_.zone_count()) + static_cast<size_t>(b)];
  }

  // Whether the rules let one unit of u's group move into z now (3.24-3.29: supply, rivers, paths).
  static bool can_move(const AaState& s, const Unit& u, int z) {
    Action a;
    a.verb = kMove;
    for (int v : {1, u.nation, u.type, u.zone, z}) a.push(v);
    return s.check(a).is_ok();
  }

  // The worth per BP of the k-th unit of a type bought this turn (0-based): 0.7 + 0.6 x its
  // worth per BP, the bonus falling by 0.8 for every 6 BP already spent on the type (by BP,
  // not by count, so cheap and dear types compare alike).
  double purchase_worth(int side, int type, int k) const {
    if (type == supply_) return 0.7 + 0.8 * std::pow(0.8, k);  // 3.24: land units move only with supplies
    const double e = eff_[static_cast<size_t>(side)][static_cast<size_t>(type)];
    return 0.7 + 0.6 * e * std::pow(0.8, k * g_.base(type).cost / 6.0);
  }

  // What `owner` loses with zone z: VP (Axis-held Russian cities count for the Axis), an IC's
  // income, a city that wins, and 1 BP of ground.
  double zone_value(int z, int owner, int turns_left) const {
    const Zone& zn = g_.zone(z);
    double v = 1.0 + kVpBp * zn.vp;
    if (zn.ic && zn.original_owner == kRussiaNation) v += 0.5 * g_.rules().destroyed_ic_penalty * turns_left;
    if (std::find(goal_.begin(), goal_.end(), z) != goal_.end())
      v += kCityZoneBp + (owner == kRussia ? 30 : 60);
    if (!zn.reinforcement.empty()) v += 10.0;  // where the side's units come in (1.2.9)
    return v;
  }

  // The chance that the enemy of `owner` takes z next, with every unit it has within reach.
  double threat(const AaState& s, int z, int owner) const {
    const int enemy = 1 - owner;
    const UnitTypes& types = g_.battle_types();
    BattleSetup b;
    b.attacker.alive.assign(static_cast<size_t>(types.size()), 0);
    b.attacker.damaged = b.attacker.alive;
    b.defender = b.attacker;
    bool any = false;
    for (const Unit& u : s.units()) {
      const UnitType& ut = g_.base(u.type);
      if (!ut.combatant || u.locked) continue;
      const size_t t = static_cast<size_t>(g_.battle_type(u.nation, u.type));
      if (side_of(u.nation) == owner) {
        if (u.zone == z) {
          ++b.defender.alive[t];
          if (u.damage > 0) ++b.defender.damaged[t];
        }
        continue;
      }
      if (u.zone < 0 || !g_.zone(u.zone).land()) continue;
      const int d = dist(u.zone, z);
      if (d < 1 || d > std::max(1, ut.movement)) continue;
      ++b.attacker.alive[t];
      if (u.damage > 0) ++b.attacker.damaged[t];
      any = any || !ut.aircraft();
    }
    if (!any) return 0.0;
    b.terrain.city = g_.zone(z).kind == ZoneKind::kCity;
    b.terrain.pripet = g_.zone(z).kind == ZoneKind::kMarsh;
    // The rules' default order: a side's own casualty choice must not move its threats.
    (void)enemy;
    b.attacker_order = default_order_;
    b.defender_order = default_order_;
    return odds(b).capture;
  }

  OddsSummary odds(const BattleSetup& b) const {
    std::string key;
    key.reserve(256);
    auto put = [&](const std::vector<int>& v) {
      for (int x : v) key.push_back(static_cast<char>(x + 1));
      key.push_back('|');
    };
    put(b.attacker.alive);
    put(b.attacker.damaged);
    put(b.defender.alive);
    put(b.defender.damaged);
    put(b.attacker_order.type_priority);
    put(b.defender_order.type_priority);
    key.push_back(static_cast<char>(1 + b.terrain.city + 2 * b.terrain.river + 4 * b.terrain.pripet +
                                    8 * b.terrain.surrounded + 16 * b.terrain.snow));
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    OddsSummary o;
    bool att_combat = false, def_combat = false;
    for (int t = 0; t < g_.battle_types().size(); ++t) {
      const UnitType& ut = g_.battle_types().at(t);
      if (!ut.combatant) continue;
      att_combat = att_combat || b.attacker.alive[static_cast<size_t>(t)] > 0;
      def_combat = def_combat || b.defender.alive[static_cast<size_t>(t)] > 0;
    }
    if (!att_combat) {
      o = OddsSummary{};
    } else if (!def_combat) {
      o.capture = 1;
      o.att_wins = 1;
    } else {
      auto r = calculate_battle(g_.battle_types(), b, RetreatRule{});
      if (r) {
        o.capture = r->attacker_captures;
        o.att_wins = r->attacker_wins;
        o.att_lost = r->expected_bp_lost[0];
        o.def_lost = r->expected_bp_lost[1];
      }
    }
    if (cache_.size() > 200000) cache_.clear();
    cache_.emplace(std::move(key), o);
    return o;
  }

  // The prior: cheap rules of thumb (the evaluation does the exact work).
  double score(const AaState& s, const Action& a) const {
    const int me = s.active();
    switch (a.verb) {
      case kBuy: {
        const int t = a.args[1];
        if (t == supply_) return 1.0;
        return 0.3 + eff_[static_cast<size_t>(me)][static_cast<size_t>(t)];
      }
      case kCasualties:
        return 0.01;  // the rules' default order (cheapest first) is kept
      case kEnd:
        return 0.55;  // above a move that changes nothing (greedy's ties)
      case kMove: {
        const int n = a.args[0], type = a.args[2], from = a.args[3], to = a.args[4];
        const UnitType& ut = g_.base(type);
        double w = 0.5;
        if (s.enemy_units_in(to, me)) {
          // Attack strength of the group against the defence there.
          double def = 0;
          for (const Unit& u : s.units())
            if (u.zone == to && side_of(u.nation) != me) def += g_.base(u.type).defence;
          double mine = n * ut.attack;
          for (const Unit& u : s.units())
            if (u.zone == to && side_of(u.nation) == me) mine += g_.base(u.type).attack;
          w = 0.3 + std::min(2.0, mine / std::max(1.0, def));
        } else if (g_.zone(to).land() && s.controller(to) != me) {
          w = 1.0 + 0.5 * g_.zone(to).vp;  // an empty enemy zone: taken
        }
        if (me == kAxis && g_.zone(from).land() && g_.zone(to).land())
          w += 0.2 * (goal_dist_[static_cast<size_t>(from)] - goal_dist_[static_cast<size_t>(to)]);
        if (me == kRussia && g_.zone(to).vp > 0) w += 0.2;
        return std::max(0.02, w);
      }
      case kPlace: {
        const int z = a.args[4];
        double w = 0.5;
        if (me == kAxis) w += 0.1 * std::max(0, 12 - goal_dist_[static_cast<size_t>(z)]);
        if (me == kRussia) w += 0.2 * g_.zone(z).vp + (g_.zone(z).ic ? 0.3 : 0.0);
        return w;
      }
      case kBattle:
      case kStand:
        return 1.0;
      case kRetreat:
      case kWithdraw:
        return 0.3;
      case kPull:
        return 0.4;
      case kLoad:
      case kRail:
      case kShip:
      case kCarry:
        return 0.2;
      case kSbr:
        return 0.05;
      case kRepair:
        return 0.3;
      default:
        return 0.5;
    }
  }

  const AaGame& g_;
  std::vector<int> dist_;  // land steps between zones (kFar: none)
  std::vector<int> goal_;  // zones of the cities that win (1.3)
  std::vector<int> goal_dist_;
  std::array<std::vector<double>, 2> eff_;  // purchase worth per BP, 1 for the side's best
  int supply_ = -1;
  CasualtyOrder default_order_;
  std::vector<uint8_t> valuable_;  // zones whose threats count: VP, ICs, reinforcement zones
  mutable std::unordered_map<std::string, OddsSummary> cache_;
};

}  // namespace

std::unique_ptr<ai::Heuristics> make_aa_heuristics(const Game& game) {
  return std::make_unique<AaHeuristics>(dynamic_cast<const AaGame&>(game));
}

AaEvalTerms aa_eval_terms(const ai::Heuristics& h, const AaState& s) {
  return dynamic_cast<const AaHeuristics&>(h).terms(s);
}

}  // namespace steppe::aa
