#include "games/aa/battle_calculator.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

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
    for (const UnitType& u : types_.all())
      for (const Support& sp : u.supports)
        if (!sp.unless_enemy_class.empty() && std::find(unless_classes_.begin(), unless_classes_.end(),
                                                        sp.unless_enemy_class) == unless_classes_.end())
          unless_classes_.push_back(sp.unless_enemy_class);
    kSigs = size_t{1} << (unless_classes_.size() + 1);
    for (size_t side = 0; side < 2; ++side)
      for (const Forces& f : seq_[side]) sig_[side].push_back(signature(f));
    fire_cache_[0].resize(static_cast<size_t>(ka_max_ + 1) * kSigs * 2);
    fire_cache_[1].resize(static_cast<size_t>(kd_max_ + 1) * kSigs * 2);
  }

  void run() {
    const size_t n = state_count();
    std::vector<double> mass(n, 0.0);
    mass[0] = 1.0;
    end_mass_.assign(n, 0.0);
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
        if ((retreat_.after_round > 0 && r >= retreat_.after_round) || retreats_by_odds(s)) {
          record_retreat(s, r, mass[s]);
          mass[s] = 0.0;
        }
      }
    }
    if (retreat_.after_round > 0) {
      record_ends();
      return;
    }
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
    record_ends();
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

  // The dice of both sides at (ka, kd). A side's dice depend on its own units and on the
  // enemy only through which classes it still has (aircraft, 3.36.2.2; fighters, 3.20), so
  // each side's fire is cached by (its hits taken, the enemy's signature).
  const std::array<const Fire*, 2> fires(int ka, int kd, bool first_round, bool& stalemate) {
    const size_t r = first_round ? 1 : 0;
    const int sig_d = sig_[1][static_cast<size_t>(kd)];
    const int sig_a = sig_[0][static_cast<size_t>(ka)];
    auto& slot_a = fire_cache_[0][(static_cast<size_t>(ka) * kSigs + static_cast<size_t>(sig_d)) * 2 + r];
    auto& slot_d = fire_cache_[1][(static_cast<size_t>(kd) * kSigs + static_cast<size_t>(sig_a)) * 2 + r];
    if (!slot_a || !slot_d) {
      const Battle b = at(ka, kd, 0, 0, first_round ? 0 : 1, Outcome::kOngoing);
      if (!slot_a) slot_a = fire_of(b.combat_dice(Side::kAttacker), sd_max_);
      if (!slot_d) slot_d = fire_of(b.combat_dice(Side::kDefender), sa_max_);
    }
    // Battle::stalemate: no die on either side can hit (all their chance is on 0 hits).
    stalemate = slot_a->pmf[0] == 1.0 && slot_d->pmf[0] == 1.0;
    return {&*slot_a, &*slot_d};
  }

  // Bit 0: the side has a combat aircraft; bit 1 + i: it has a unit of unless_classes_[i].
  int signature(const Forces& f) const {
    int sig = 0;
    for (int t = 0; t < types_.size(); ++t) {
      if (f.alive[static_cast<size_t>(t)] == 0) continue;
      const UnitType& u = types_.at(t);
      if (u.combatant && u.aircraft()) sig |= 1;
      for (size_t i = 0; i < unless_classes_.size(); ++i)
        if (u.has_class(unless_classes_[i])) sig |= 2 << i;
    }
    return sig;
  }

  // One round from state s carrying `m`: terminal states are recorded, the rest is added to
  // `into`. Stationary: the chance of staying is summed as a geometric series.
  void step(size_t s, bool first_round, double m, std::vector<double>& into, bool stationary) {
    int ka, kd, sa, sd;
    decode(s, ka, kd, sa, sd);
    ++odds_.states;
    bool stalemate = false;
    const auto f = fires(ka, kd, first_round, stalemate);
    if (stalemate) {  // ruling "A battle no one can hit": the attacker withdraws
      record_retreat(s, first_round ? 0 : 1, m);
      return;
    }
    // Where each side's fire sends the other: hits beyond the units left, and 1s beyond the
    // supply tokens left, change nothing more, so the tails are summed into the last cells.
    const int rem_d = kd_max_ - kd, rem_sd = sd_max_ - sd;
    const int rem_a = ka_max_ - ka, rem_sa = sa_max_ - sa;
    clip(*f[0], rem_d, rem_sd, on_defender_);
    clip(*f[1], rem_a, rem_sa, on_attacker_);
    const size_t wd = static_cast<size_t>(rem_sd) + 1, wa = static_cast<size_t>(rem_sa) + 1;
    // A round in which nothing happens returns to s: summed as a geometric series.
    const double p_stay = stationary ? on_defender_[0] * on_attacker_[0] : 0.0;
    if (p_stay >= 1.0) {  // cannot happen once stalemate is ruled out, but never divide by 0
      record_retreat(s, 1, m);
      return;
    }
    odds_.expected_rounds += weight_ * m / (1.0 - p_stay);
    const double scale = m / (1.0 - p_stay);
    const size_t stay = stationary ? 0 : SIZE_MAX;  // cell 0 of both: nothing happened
    keep(on_defender_, kept_d_);
    keep(on_attacker_, kept_a_);
    // A state's index is a sum of a part the attacker's fire sets (the defender's hits and
    // supplies lost) and a part the defender's fire sets, so each cell's part is found once.
    const size_t first_end_a = attacker_offsets(ka, sa, wa);
    double kept = 0;
    for (const auto& [i, pa_raw] : kept_d_) {
      const double pa = pa_raw * scale;
      const size_t kd2 = static_cast<size_t>(kd) + i / wd;
      const size_t offset_d = kd2 * stride_kd() + static_cast<size_t>(sd) + i % wd;
      const bool defender_gone = kd2 == static_cast<size_t>(kd_max_);
      for (size_t n = 0; n < kept_a_.size(); ++n) {
        if (i == stay && kept_a_[n].first == stay) continue;
        const double p = pa * kept_a_[n].second;
        kept += p;
        const size_t t = offset_d + offset_a_[n];
        if (defender_gone || n >= first_end_a) {
          end_mass_[t] += p;
        } else {
          into[t] += p;
        }
      }
    }
    odds_.dropped += weight_ * std::max(0.0, m - kept);
  }

  // A state's index is a sum of a part the attacker's fire sets (the defender's hits and
  // supplies lost) and a part the defender's fire sets, so each cell's part is found once:
  // offset_a_[n] for kept_a_[n]. Returns the first cell that leaves the attacker no unit.
  size_t stride_kd() const { return static_cast<size_t>(sa_max_ + 1) * static_cast<size_t>(sd_max_ + 1); }
  size_t attacker_offsets(int ka, int sa, size_t wa) {
    const size_t stride_ka = static_cast<size_t>(kd_max_ + 1) * stride_kd();
    const size_t stride_sa = static_cast<size_t>(sd_max_) + 1;
    offset_a_.clear();
    size_t first_end_a = kept_a_.size();
    for (size_t n = 0; n < kept_a_.size(); ++n) {
      const size_t j = kept_a_[n].first;
      const size_t ka2 = static_cast<size_t>(ka) + j / wa;
      offset_a_.push_back(ka2 * stride_ka + (static_cast<size_t>(sa) + j % wa) * stride_sa);
      if (ka2 == static_cast<size_t>(ka_max_) && first_end_a == kept_a_.size()) first_end_a = n;
    }
    return first_end_a;
  }

  // The cells of a fire worth carrying: chances under kNegligible (1e-16 of a battle) are left
  // out and their total reported in BattleOdds::dropped, so "exact" is exact to that sum.
  static constexpr double kNegligible = 1e-16;
  static void keep(const std::vector<double>& cells, std::vector<std::pair<size_t, double>>& out) {
    out.clear();
    for (size_t i = 0; i < cells.size(); ++i)
      if (cells[i] >= kNegligible || (i == 0 && cells[i] > 0)) out.emplace_back(i, cells[i]);
  }

  // out[h * (rem_s + 1) + o]: the fire's (hits, 1s) with hits held to rem_h and 1s to rem_s.
  static void clip(const Fire& f, int rem_h, int rem_s, std::vector<double>& out) {
    const size_t w = static_cast<size_t>(rem_s) + 1;
    const size_t fw = static_cast<size_t>(f.width);
    out.assign((static_cast<size_t>(rem_h) + 1) * w, 0.0);
    for (int h = 0; h <= f.max_hits; ++h) {
      const size_t hc = static_cast<size_t>(std::min(h, rem_h));
      for (int o = 0; o < f.width; ++o) {
        const double p = f.pmf[static_cast<size_t>(h) * fw + static_cast<size_t>(o)];
        if (p != 0.0) out[hc * w + static_cast<size_t>(std::min(o, rem_s))] += p;
      }
    }
  }

  // The battles that ended, each end state recorded once.
  void record_ends() {
    for (size_t t = 0; t < end_mass_.size(); ++t) {
      if (end_mass_[t] == 0.0) continue;
      int ka, kd, sa, sd;
      decode(t, ka, kd, sa, sd);
      Battle b = at(ka, kd, sa, sd, 1, Outcome::kOngoing);
      b.settle();
      record(b, end_mass_[t]);
    }
  }

  void record(const Battle& b, double p) { record_outcome(b, p * weight_, odds_); }

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
      const auto f = fires(ka, kd, false, stalemate);
      if (stalemate) continue;
      const int rem_d = kd_max_ - kd, rem_sd = sd_max_ - sd;
      const int rem_a = ka_max_ - ka, rem_sa = sa_max_ - sa;
      clip(*f[0], rem_d, rem_sd, on_defender_);
      clip(*f[1], rem_a, rem_sa, on_attacker_);
      keep(on_defender_, kept_d_);
      keep(on_attacker_, kept_a_);
      const size_t wd = static_cast<size_t>(rem_sd) + 1, wa = static_cast<size_t>(rem_sa) + 1;
      const double p_stay = on_defender_[0] * on_attacker_[0];
      const size_t first_end_a = attacker_offsets(ka, sa, wa);
      double alive_a = 0;  // the chance the attacker keeps a unit through this round's fire
      for (size_t k = 0; k < first_end_a; ++k) alive_a += kept_a_[k].second;
      double win = 0;
      for (const auto& [i, pa] : kept_d_) {
        const size_t kd2 = static_cast<size_t>(kd) + i / wd;
        if (kd2 == static_cast<size_t>(kd_max_)) {
          win += pa * alive_a;
          continue;
        }
        // value[s] is still 0 here, so the round that changes nothing adds nothing.
        const size_t offset_d = kd2 * stride_kd() + static_cast<size_t>(sd) + i % wd;
        double sum = 0;
        for (size_t k = 0; k < first_end_a; ++k) sum += kept_a_[k].second * value[offset_d + offset_a_[k]];
        win += pa * sum;
      }
      press_on_[s] = p_stay < 1.0 ? win / (1.0 - p_stay) : 0.0;
      value[s] = press_on_[s] < retreat_.below_win_probability ? 0.0 : press_on_[s];
    }
  }

  const Battle& start_;
  const UnitTypes& types_;
  RetreatRule retreat_;
  double weight_;
  BattleOdds& odds_;
  std::array<std::vector<Forces>, 2> seq_;
  std::array<int, 2> supply_{};
  int ka_max_ = 0, kd_max_ = 0, sa_max_ = 0, sd_max_ = 0;
  std::vector<std::string> unless_classes_;
  size_t kSigs = 2;
  std::array<std::vector<int>, 2> sig_;
  std::array<std::vector<std::optional<Fire>>, 2> fire_cache_;
  std::vector<double> press_on_;
  std::vector<double> end_mass_;
  std::vector<double> on_defender_, on_attacker_;  // scratch of step()
  std::vector<std::pair<size_t, double>> kept_d_, kept_a_;
  std::vector<size_t> offset_a_;
};

// 3.36.2.2 B: the dogfight, by a DP over (attacker fighters lost, defender fighters lost),
// then the winner's free shots; appends each way it ends with its chance.
void air_supremacy(const Battle& b, double weight, std::vector<std::pair<Battle, double>>& out) {
  if (!b.dogfight_pending()) {
    Battle c = b;
    c.apply_free_shots(Side::kAttacker, 0);  // no dogfight, no free shots
    out.emplace_back(c, weight);
    return;
  }
  auto fighters = [&](Side s) {
    int n = 0;
    for (int t = 0; t < b.types().size(); ++t)
      if (b.types().at(t).combatant && b.types().at(t).has_class("fighter"))
        n += b.forces(s).alive[static_cast<size_t>(t)];
    return n;
  };
  const int na = fighters(Side::kAttacker), nd = fighters(Side::kDefender);
  const size_t w = static_cast<size_t>(nd) + 1;
  std::vector<double> mass(static_cast<size_t>(na + 1) * w, 0.0);
  mass[0] = 1.0;
  for (int i = 0; i <= na; ++i) {
    for (int j = 0; j <= nd; ++j) {
      const double m = mass[static_cast<size_t>(i) * w + static_cast<size_t>(j)];
      if (m == 0.0) continue;
      Battle c = b;
      c.apply_dogfight(j, i);
      const DiceByValue fa = c.combat_dice(Side::kAttacker, "fighter");
      const DiceByValue fd = c.combat_dice(Side::kDefender, "fighter");
      const auto pa = hit_distribution(fa), pd = hit_distribution(fd);
      const bool cannot_hit = pa[0] == 1.0 && pd[0] == 1.0;
      if (!c.dogfight_pending() || cannot_hit) {
        Side shooter = Side::kAttacker;
        const auto shots = hit_distribution(c.free_shot_dice(shooter));
        for (size_t h = 0; h < shots.size(); ++h) {
          if (shots[h] == 0.0) continue;
          Battle e = c;
          e.apply_free_shots(shooter, static_cast<int>(h));
          out.emplace_back(e, weight * m * shots[h]);
        }
        continue;
      }
      const double stay = pa[0] * pd[0];
      for (size_t ha = 0; ha < pa.size(); ++ha)
        for (size_t hd = 0; hd < pd.size(); ++hd) {
          if (ha == 0 && hd == 0) continue;
          const size_t i2 = std::min(static_cast<size_t>(i) + hd, static_cast<size_t>(na));
          const size_t j2 = std::min(static_cast<size_t>(j) + ha, static_cast<size_t>(nd));
          mass[i2 * w + j2] += m * pa[ha] * pd[hd] / (1.0 - stay);
        }
    }
  }
}

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
  // 3.36.2.1: step A first, its hits removed "before moving to air (B.)"; then B, the
  // dogfight and its free shots (3.36.2.2). Each way they can end is a battle of its own for
  // the DP of step C, weighted by its chance; the same forces reached two ways are merged.
  std::vector<std::pair<Battle, double>> after_b;
  const std::vector<double> aa = hit_distribution(b.aa_dice());
  for (size_t j = 0; j < aa.size(); ++j) {
    if (aa[j] == 0.0) continue;
    Battle after = b;
    after.apply_aa(static_cast<int>(j));
    if (after.outcome() != Outcome::kOngoing) {  // every attacker shot down before the exchange
      after_b.emplace_back(after, aa[j]);
      continue;
    }
    air_supremacy(after, aa[j], after_b);
  }
  std::map<std::vector<int>, size_t> seen;
  std::vector<std::pair<Battle, double>> merged;
  for (auto& [battle, w] : after_b) {
    std::vector<int> key;
    for (Side side : {Side::kAttacker, Side::kDefender}) {
      key.insert(key.end(), battle.forces(side).alive.begin(), battle.forces(side).alive.end());
      key.insert(key.end(), battle.forces(side).damaged.begin(), battle.forces(side).damaged.end());
    }
    key.push_back(static_cast<int>(battle.outcome()));
    auto [it, fresh] = seen.emplace(key, merged.size());
    if (fresh) {
      merged.emplace_back(battle, w);
    } else {
      merged[it->second].second += w;
    }
  }
  for (const auto& [battle, w] : merged) {
    if (battle.outcome() != Outcome::kOngoing) {  // decided in A or B
      odds.expected_rounds += w;
      record_outcome(battle, w, odds);
      continue;
    }
    StateSpace space(battle, retreat, w, odds);
    space.run();
  }
  return odds;
}

}  // namespace steppe::aa
