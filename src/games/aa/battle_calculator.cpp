#include "games/aa/battle_calculator.h"

#include <algorithm>
#include <optional>

namespace steppe::aa {

namespace {

// pmf[k] = chance of k hits; convolved with Binomial(count, value/12) for each value.
std::vector<double> binomial(int n, double p) {
  std::vector<double> out(static_cast<size_t>(n) + 1, 0.0);
  out[0] = 1.0;
  for (int i = 0; i < n; ++i)
    for (int k = i + 1; k >= 0; --k) {
      const size_t u = static_cast<size_t>(k);
      out[u] = out[u] * (1.0 - p) + (k > 0 ? out[u - 1] * p : 0.0);
    }
  return out;
}

std::vector<double> convolve(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> out(a.size() + b.size() - 1, 0.0);
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != 0.0)
      for (size_t j = 0; j < b.size(); ++j) out[i + j] += a[i] * b[j];
  return out;
}

// Joint chance of (hits, 1s among them) with the 1s capped at `ones_cap` (3.36.2.3: each 1
// that hits also destroys a supply token or truck; more 1s than there are tokens do nothing).
// pmf[h * (ones_cap + 1) + o].
std::vector<double> hit_and_ones_distribution(const DiceByValue& by_value, int ones_cap) {
  int n = 0;
  for (int c : by_value) n += c;
  const size_t w = static_cast<size_t>(ones_cap) + 1;
  std::vector<double> pmf(static_cast<size_t>(n + 1) * w, 0.0);
  pmf[0] = 1.0;
  int dice_so_far = 0;
  for (int v = 1; v <= kDie; ++v) {
    const double p_one = 1.0 / kDie;
    const double p_other_hit = static_cast<double>(v - 1) / kDie;
    const double p_miss = static_cast<double>(kDie - v) / kDie;
    for (int c = 0; c < by_value[static_cast<size_t>(v)]; ++c) {
      ++dice_so_far;
      for (int h = dice_so_far; h >= 0; --h) {
        for (int o = ones_cap; o >= 0; --o) {
          const size_t at = static_cast<size_t>(h) * w + static_cast<size_t>(o);
          double x = pmf[at] * p_miss;
          if (h > 0) {
            const size_t prev_h = static_cast<size_t>(h - 1) * w;
            x += pmf[prev_h + static_cast<size_t>(o)] * p_other_hit;
            if (o > 0) x += pmf[prev_h + static_cast<size_t>(o - 1)] * p_one;
            if (o == ones_cap) x += pmf[prev_h + static_cast<size_t>(o)] * p_one;  // capped
          }
          pmf[at] = x;
        }
      }
    }
  }
  return pmf;
}

// Adds a finished battle, reached with chance p, to the odds.
void record_outcome(const Battle& b, double p, BattleOdds& odds) {
  const UnitTypes& types = b.types();
  switch (b.outcome()) {
    case Outcome::kAttackerWins: {
      odds.attacker_wins += p;
      bool land = false;
      for (int t = 0; t < types.size(); ++t)
        if (types.at(t).combatant && !types.at(t).aircraft() &&
            b.forces(Side::kAttacker).alive[static_cast<size_t>(t)] > 0)
          land = true;
      if (land) odds.attacker_captures += p;
      break;
    }
    case Outcome::kDefenderHolds:
      odds.defender_holds += p;
      break;
    case Outcome::kBothDestroyed:
      odds.both_destroyed += p;
      break;
    case Outcome::kAttackerRetreats:
      odds.attacker_retreats += p;
      break;
    case Outcome::kOngoing:
      break;
  }
  for (Side side : {Side::kAttacker, Side::kDefender}) {
    const size_t i = static_cast<size_t>(idx(side));
    odds.survivors[i][static_cast<size_t>(combatants_left(b, side))] += p;
    for (int t = 0; t < types.size(); ++t)
      odds.expected_left[i][static_cast<size_t>(t)] += p * b.forces(side).alive[static_cast<size_t>(t)];
    odds.expected_bp_lost[i] += p * bp_lost(b, side);
  }
}

struct Fire {
  // Joint (hits, ones) pmf, flattened; width = ones cap + 1.
  std::vector<double> pmf;
  int width = 1;
  int max_hits = 0;
};

Fire fire_of(const DiceByValue& d, int enemy_supply_targets) {
  Fire f;
  if (enemy_supply_targets == 0) {
    f.pmf = hit_distribution(d);
  } else {
    f.pmf = hit_and_ones_distribution(d, enemy_supply_targets);
    f.width = enemy_supply_targets + 1;
  }
  f.max_hits = static_cast<int>(f.pmf.size()) / f.width - 1;
  return f;
}

// One battle after step A: the states (ka, kd, sa, sd) of hits taken and supply targets lost.
class StateSpace {
 public:
  StateSpace(const Battle& start, const RetreatRule& retreat, double weight, BattleOdds& odds)
      : start_(start), types_(start.types()), retreat_(retreat), weight_(weight), odds_(odds) {
    for (Side s : {Side::kAttacker, Side::kDefender}) {
      const CasualtyOrder& order =
          s == Side::kAttacker ? start.setup().attacker_order : start.setup().defender_order;
      auto& seq = seq_[static_cast<size_t>(idx(s))];
      Forces f = start.forces(s);
      seq.push_back(f);
      // The owner's order, one hit at a time: the units left after k hits (the same
      // CasualtyOrder::apply_hits the round uses, so k hits at once end in seq[k]).
      while (order.apply_hits(f, types_, 1) == 0) seq.push_back(f);
      int supply = 0;
      for (int t = 0; t < types_.size(); ++t)
        if (types_.at(t).supply_target) supply += f.alive[static_cast<size_t>(t)];
      supply_[static_cast<size_t>(idx(s))] = supply;
    }
    ka_max_ = static_cast<int>(seq_[0].size()) - 1;
    kd_max_ = static_cast<int>(seq_[1].size()) - 1;
    sa_max_ = supply_[0];
    sd_max_ = supply_[1];
    fire_cache_.resize(static_cast<size_t>((ka_max_ + 1) * (kd_max_ + 1)) * 2);
  }

  void run() {
    const size_t n = state_count();
    std::vector<double> mass(n, 0.0);
    mass[0] = 1.0;
    // Round 1 has its own dice (3.13 the airborne drop bonus); with a round limit every
    // round up to it is stepped explicitly, since the attacker leaves at its end (3.36.2.4).
    const int layered = std::max(1, retreat_.after_round);
    if (retreat_.below_win_probability > 0) compute_press_on_value();
    for (int r = 1; r <= layered; ++r) {
      std::vector<double> next(n, 0.0);
      for (size_t s = 0; s < n; ++s) {
        if (mass[s] == 0.0) continue;
        step(s, r == 1, mass[s], next, /*stationary=*/false);
      }
      mass.swap(next);
      for (size_t s = 0; s < n; ++s) {
        if (mass[s] == 0.0) continue;
        if (retreat_.after_round > 0 && r >= retreat_.after_round) {
          record_retreat(s, r, mass[s]);
          mass[s] = 0.0;
        } else if (retreats_by_odds(s)) {
          record_retreat(s, r, mass[s]);
          mass[s] = 0.0;
        }
      }
    }
    if (retreat_.after_round > 0) return;
    // Rounds after the first: the same chances every round. Hits only accumulate, so each
    // state's mass is complete once the states before it (in index order) are done.
    for (size_t s = 0; s < n; ++s) {
      if (mass[s] == 0.0) continue;
      if (retreats_by_odds(s)) {
        record_retreat(s, 2, mass[s]);
        continue;
      }
      step(s, false, mass[s], mass, /*stationary=*/true);
    }
  }

 private:
  size_t state_count() const {
    return static_cast<size_t>(ka_max_ + 1) * static_cast<size_t>(kd_max_ + 1) *
           static_cast<size_t>(sa_max_ + 1) * static_cast<size_t>(sd_max_ + 1);
  }
  size_t id(int ka, int kd, int sa, int sd) const {
    return ((static_cast<size_t>(ka) * static_cast<size_t>(kd_max_ + 1) + static_cast<size_t>(kd)) *
                static_cast<size_t>(sa_max_ + 1) +
            static_cast<size_t>(sa)) *
               static_cast<size_t>(sd_max_ + 1) +
           static_cast<size_t>(sd);
  }
  void decode(size_t s, int& ka, int& kd, int& sa, int& sd) const {
    sd = static_cast<int>(s % static_cast<size_t>(sd_max_ + 1));
    s /= static_cast<size_t>(sd_max_ + 1);
    sa = static_cast<int>(s % static_cast<size_t>(sa_max_ + 1));
    s /= static_cast<size_t>(sa_max_ + 1);
    kd = static_cast<int>(s % static_cast<size_t>(kd_max_ + 1));
    ka = static_cast<int>(s / static_cast<size_t>(kd_max_ + 1));
  }

  // The battle at a state, for the round code.
  Battle at(int ka, int kd, int sa, int sd, int rounds_done, Outcome o) const {
    Battle b = start_;
    Forces a = seq_[0][static_cast<size_t>(ka)];
    Forces d = seq_[1][static_cast<size_t>(kd)];
    start_.setup().attacker_order.apply_supply_kills(a, types_, sa);
    start_.setup().defender_order.apply_supply_kills(d, types_, sd);
    b.set_position(a, d, rounds_done, o);
    return b;
  }

  // The dice of both sides at (ka, kd): supplies never change them, so cached per pair.
  const std::array<Fire, 2>* fires(int ka, int kd, bool first_round, bool& stalemate) {
    const size_t key = static_cast<size_t>(ka * (kd_max_ + 1) + kd) * 2 + (first_round ? 1 : 0);
    auto& slot = fire_cache_[key];
    if (!slot) {
      Battle b = at(ka, kd, 0, 0, first_round ? 0 : 1, Outcome::kOngoing);
      Cached c;
      c.stalemate = b.stalemate();
      c.fire[0] = fire_of(b.combat_dice(Side::kAttacker), sd_max_);
      c.fire[1] = fire_of(b.combat_dice(Side::kDefender), sa_max_);
      slot = std::move(c);
    }
    stalemate = slot->stalemate;
    return &slot->fire;
  }

  // One round from state s carrying `m`: terminal states are recorded, the rest is added to
  // `into`. Stationary: the chance of staying is summed as a geometric series.
  void step(size_t s, bool first_round, double m, std::vector<double>& into, bool stationary) {
    int ka, kd, sa, sd;
    decode(s, ka, kd, sa, sd);
    ++odds_.states;
    bool stalemate = false;
    const auto* f = fires(ka, kd, first_round, stalemate);
    if (stalemate) {  // ruling "A battle no one can hit": the attacker withdraws
      record_retreat(s, first_round ? 0 : 1, m);
      return;
    }
    const Fire& fa = (*f)[0];
    const Fire& fd = (*f)[1];
    // First pass: the chance that the round changes nothing.
    double p_stay = 0;
    if (stationary) {
      for (int ha = 0; ha <= fa.max_hits; ++ha)
        for (int oa = 0; oa < fa.width; ++oa) {
          const double pa = fa.pmf[static_cast<size_t>(ha * fa.width + oa)];
          if (pa == 0.0 || ha > 0 || (oa > 0 && sd < sd_max_)) continue;
          for (int hd = 0; hd <= fd.max_hits; ++hd)
            for (int od = 0; od < fd.width; ++od) {
              if (hd > 0 || (od > 0 && sa < sa_max_)) continue;
              p_stay += pa * fd.pmf[static_cast<size_t>(hd * fd.width + od)];
            }
        }
      if (p_stay >= 1.0) {  // cannot happen once stalemate is ruled out, but never divide by 0
        record_retreat(s, 1, m);
        return;
      }
      odds_.expected_rounds += weight_ * m / (1.0 - p_stay);
    } else {
      odds_.expected_rounds += weight_ * m;
    }
    const double scale = m / (1.0 - p_stay);
    const int rounds_done = first_round ? 1 : 2;
    for (int ha = 0; ha <= fa.max_hits; ++ha) {
      const int kd2 = std::min(kd + ha, kd_max_);
      for (int oa = 0; oa < fa.width; ++oa) {
        const double pa = fa.pmf[static_cast<size_t>(ha * fa.width + oa)];
        if (pa == 0.0) continue;
        const int sd2 = std::min(sd + oa, sd_max_);
        for (int hd = 0; hd <= fd.max_hits; ++hd) {
          const int ka2 = std::min(ka + hd, ka_max_);
          for (int od = 0; od < fd.width; ++od) {
            const double pd = fd.pmf[static_cast<size_t>(hd * fd.width + od)];
            if (pd == 0.0) continue;
            const int sa2 = std::min(sa + od, sa_max_);
            const size_t t = id(ka2, kd2, sa2, sd2);
            if (stationary && t == s) continue;
            const double p = pa * pd * scale;
            if (ka2 == ka_max_ || kd2 == kd_max_) {
              record_end(ka2, kd2, sa2, sd2, rounds_done, p);
            } else {
              into[t] += p;
            }
          }
        }
      }
    }
  }

  void record(const Battle& b, double p) { record_outcome(b, p * weight_, odds_); }

  void record_end(int ka, int kd, int sa, int sd, int rounds_done, double p) {
    Battle b = at(ka, kd, sa, sd, rounds_done, Outcome::kOngoing);
    b.settle();
    record(b, p);
  }

  void record_retreat(size_t s, int rounds_done, double p) {
    int ka, kd, sa, sd;
    decode(s, ka, kd, sa, sd);
    Battle b = at(ka, kd, sa, sd, rounds_done, Outcome::kOngoing);
    b.retreat();
    record(b, p);
  }

  bool retreats_by_odds(size_t s) const {
    return retreat_.below_win_probability > 0 && press_on_[s] < retreat_.below_win_probability;
  }

  // press_on_[s]: the attacker's chance to win if it fights another round from s and then
  // keeps to the odds rule, by a pass over the states from last to first.
  void compute_press_on_value() {
    const size_t n = state_count();
    press_on_.assign(n, 0.0);
    std::vector<double> value(n, 0.0);  // with the rule applied at s itself
    for (size_t s = n; s-- > 0;) {
      int ka, kd, sa, sd;
      decode(s, ka, kd, sa, sd);
      if (ka == ka_max_ || kd == kd_max_) continue;  // terminal states are valued on arrival
      bool stalemate = false;
      const auto* f = fires(ka, kd, false, stalemate);
      if (stalemate) continue;
      const Fire& fa = (*f)[0];
      const Fire& fd = (*f)[1];
      double p_stay = 0, win = 0;
      for (int ha = 0; ha <= fa.max_hits; ++ha)
        for (int oa = 0; oa < fa.width; ++oa) {
          const double pa = fa.pmf[static_cast<size_t>(ha * fa.width + oa)];
          if (pa == 0.0) continue;
          const int kd2 = std::min(kd + ha, kd_max_);
          const int sd2 = std::min(sd + oa, sd_max_);
          for (int hd = 0; hd <= fd.max_hits; ++hd)
            for (int od = 0; od < fd.width; ++od) {
              const double p = pa * fd.pmf[static_cast<size_t>(hd * fd.width + od)];
              if (p == 0.0) continue;
              const int ka2 = std::min(ka + hd, ka_max_);
              const size_t t = id(ka2, kd2, std::min(sa + od, sa_max_), sd2);
              if (t == s) {
                p_stay += p;
              } else if (kd2 == kd_max_) {
                win += ka2 < ka_max_ ? p : 0.0;
              } else if (ka2 < ka_max_) {
                win += p * value[t];
              }
            }
        }
      press_on_[s] = p_stay < 1.0 ? win / (1.0 - p_stay) : 0.0;
      value[s] = press_on_[s] < retreat_.below_win_probability ? 0.0 : press_on_[s];
    }
  }

  struct Cached {
    bool stalemate = false;
    std::array<Fire, 2> fire;
  };

  const Battle& start_;
  const UnitTypes& types_;
  RetreatRule retreat_;
  double weight_;
  BattleOdds& odds_;
  std::array<std::vector<Forces>, 2> seq_;
  std::array<int, 2> supply_{};
  int ka_max_ = 0, kd_max_ = 0, sa_max_ = 0, sd_max_ = 0;
  std::vector<std::optional<Cached>> fire_cache_;
  std::vector<double> press_on_;
};

}  // namespace

std::vector<double> hit_distribution(const DiceByValue& by_value) {
  std::vector<double> pmf{1.0};
  for (int v = 1; v <= kDie; ++v) {
    const int c = by_value[static_cast<size_t>(v)];
    if (c > 0) pmf = convolve(pmf, binomial(c, static_cast<double>(v) / kDie));
  }
  // Dice at 0 never hit but are still dice: the pmf covers 0..all dice.
  pmf.resize(pmf.size() + static_cast<size_t>(by_value[0]), 0.0);
  return pmf;
}

Result<BattleOdds> calculate_battle(const UnitTypes& types, const BattleSetup& setup,
                                    const RetreatRule& retreat) {
  if (retreat.after_round < 0 || retreat.below_win_probability < 0 || retreat.below_win_probability > 1)
    return rule_error("3.36.2.4", "a retreat rule is a round number >= 0 and a chance between 0 and 1");
  auto start = Battle::start(types, setup);
  if (!start) return start.error();
  BattleOdds odds;
  for (Side s : {Side::kAttacker, Side::kDefender}) {
    const Forces& f = s == Side::kAttacker ? setup.attacker : setup.defender;
    int n = 0;
    for (int t = 0; t < types.size(); ++t)
      if (types.at(t).combatant) n += f.alive[static_cast<size_t>(t)];
    odds.survivors[static_cast<size_t>(idx(s))].assign(static_cast<size_t>(n) + 1, 0.0);
    odds.expected_left[static_cast<size_t>(idx(s))].assign(static_cast<size_t>(types.size()), 0.0);
  }
  const Battle& b = *start;
  if (b.outcome() != Outcome::kOngoing) {  // nothing to defend the zone: no dice
    record_outcome(b, 1.0, odds);
    return odds;
  }
  // 3.36.2.1: step A first, its hits removed "before moving to air (B.)": one DP per number of
  // aircraft it downs.
  const std::vector<double> aa = hit_distribution(b.aa_dice());
  for (size_t j = 0; j < aa.size(); ++j) {
    if (aa[j] == 0.0) continue;
    Battle after = b;
    after.apply_aa(static_cast<int>(j));
    if (after.outcome() != Outcome::kOngoing) {  // every attacker shot down before the exchange
      odds.expected_rounds += aa[j];
      record_outcome(after, aa[j], odds);
      continue;
    }
    StateSpace space(after, retreat, aa[j], odds);
    space.run();
  }
  return odds;
}

}  // namespace steppe::aa
