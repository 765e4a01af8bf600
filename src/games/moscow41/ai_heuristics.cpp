// Moscow '41 heuristics for greedy and mcts (docs/ai.md). Everything is read from the
// state and its data; nothing here is a rule: the legal moves always come from
// Moscow41State. The agents call these on determinized clones (resample_hidden), so the
// enemy strengths they read are the sampled ones, never the true hidden blocks.
#include "games/moscow41/ai_heuristics.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "games/moscow41/state.h"

namespace moscow41 {
namespace {

using steppe::Action;

// Per-position tables shared by the evaluation, the prior and the rollout policy.
struct View {
  const Moscow41State& st;
  const Moscow41Game& g;
  int side = kGerman;           // whose goals and enemies (the side to move, for the prior)
  std::vector<int> str[2];      // combat strength per node and side (HQs at half)
  std::vector<int> count[2];    // blocks per node and side
  std::vector<int> dist_goal;   // area steps to the nearest objective `side` lacks
  std::vector<int> dist_enemy;  // area steps to the nearest enemy-occupied area
  std::vector<int> dist_obj;    // area steps to the nearest objective, whoever holds it

  static void bfs(const Moscow41Game& g, std::vector<int>& dist, std::vector<int> frontier) {
    std::vector<int> next;
    while (!frontier.empty()) {
      next.clear();
      for (int n : frontier)
        for (int y : g.adjacency()[static_cast<size_t>(n)])
          if (dist[static_cast<size_t>(y)] < 0) {
            dist[static_cast<size_t>(y)] = dist[static_cast<size_t>(n)] + 1;
            next.push_back(y);
          }
      frontier.swap(next);
    }
  }

  View(const Moscow41State& s, const Moscow41Game& game, int for_side) : st(s), g(game), side(for_side) {
    const size_t nodes = static_cast<size_t>(g.map().node_count());
    for (int k = 0; k < 2; ++k) {
      str[k].assign(nodes, 0);
      count[k].assign(nodes, 0);
    }
    for (size_t i = 0; i < g.blocks().size(); ++i) {
      const BlockDef& d = g.blocks()[i];
      const int loc = st.block(static_cast<int>(i)).loc;
      if (loc < 0 || d.kind == Kind::kLeader) continue;
      const int s2 = st.strength(static_cast<int>(i));
      str[d.side][static_cast<size_t>(loc)] += d.kind == Kind::kCombat ? s2 : s2 / 2;
      ++count[d.side][static_cast<size_t>(loc)];
    }
    dist_goal.assign(nodes, -1);
    dist_enemy.assign(nodes, -1);
    dist_obj.assign(nodes, -1);
    std::vector<int> fg, fe, fo;
    for (int n = 0; n < g.map().area_count(); ++n) {
      if (objective(n)) {
        dist_obj[static_cast<size_t>(n)] = 0;
        fo.push_back(n);
      }
      if (objective(n) && st.area(n).control != side) {
        dist_goal[static_cast<size_t>(n)] = 0;
        fg.push_back(n);
      }
      if (count[1 - side][static_cast<size_t>(n)] > 0) {
        dist_enemy[static_cast<size_t>(n)] = 0;
        fe.push_back(n);
      }
    }
    bfs(g, dist_goal, fg);
    bfs(g, dist_enemy, fe);
    bfs(g, dist_obj, fo);
  }

  // The areas the scenario scores (1.7 Victory Areas; Scenario 1 Yelnia, Yartsevo and the
  // special cities; Scenarios 2-3 Moscow).
  bool objective(int n) const {
    const std::string& k = st.victory_kind();
    if (k == "moscow") return n == g.moscow();
    if (k == "dnieper")
      return g.areas()[static_cast<size_t>(n)].special_city || g.map().id(n) == "91" || g.map().id(n) == "68";
    return g.areas()[static_cast<size_t>(n)].terrain == kVictory;
  }
  int dg(int n) const {
    return n < 0 || dist_goal[static_cast<size_t>(n)] < 0 ? 20 : dist_goal[static_cast<size_t>(n)];
  }
  int dobj(int n) const {
    return n < 0 || dist_obj[static_cast<size_t>(n)] < 0 ? 20 : dist_obj[static_cast<size_t>(n)];
  }
  int de(int n) const {
    return n < 0 || dist_enemy[static_cast<size_t>(n)] < 0 ? 20 : dist_enemy[static_cast<size_t>(n)];
  }
  // Own and enemy strength in an area, for `who`.
  double ratio(int who, int n, int extra) const {
    const double own = str[who][static_cast<size_t>(n)] + extra;
    double foe = str[1 - who][static_cast<size_t>(n)];
    if (st.area(n).dl == 1 - who) foe += 1.0;  // a DL fires one die (4.1)
    const AreaDef& a = g.areas()[static_cast<size_t>(n)];
    if (a.terrain != kGreen) foe *= 1.3;  // Yellow/Victory: absorb bonus (10.14.1)
    if (a.city) foe *= 1.15;
    return own / std::max(0.5, foe);
  }
};

// Odds of a fight as a score in [-1, 1]: 0 at even strength, +1 at 3:1 and more.
double odds_value(double r) { return std::clamp(std::log(std::max(r, 1e-3)) / std::log(3.0), -1.0, 1.0); }

int mover(const Moscow41State& st) { return st.current_player() == kSoviet ? kSoviet : kGerman; }

float score(const View& v, const Action& a, bool others) {
  const Moscow41State& st = v.st;
  const Moscow41Game& g = v.g;
  const int me = v.side;
  switch (a.verb) {
    case kVTactical:
      return 3.0f;
    case kVPass:
      return 0.4f;  // passing twice ends the month (6.0)
    case kVStrategic:
    case kVReinforce:
      return 0.8f;
    case kVLogActivate:
      return 1.5f;
    case kVActivate:
      return a.nargs >= 2 ? 1.0f : 2.0f;
    case kVEndActivation:
    case kVEndCommands:
    case kVEndCombat:
      // Ending a segment while useful actions remain is what makes an AI passive.
      return others ? 0.1f : 1.0f;
    case kVBattle: {
      const int n = a.args[0];
      return static_cast<float>(std::exp(2.0 * odds_value(v.ratio(me, n, 0))));
    }
    case kVBlitz:
    case kVExploit:
    case kVStuka:  // 10.16
      return 2.0f;
    case kVSetup:
    case kVSetupDl: {
      // Scenario Setup: blocks and Defensive Lines toward the front and the objectives,
      // blocks spread over empty areas rather than piled up.
      if (a.nargs < 1) return 1.0f;
      const int n = a.args[a.nargs - 1];
      double w = 1.0;
      if (v.st.on_frontline(me, n)) w += 1.5;
      if (v.objective(n)) w += 2.0;
      w += 2.0 / (1.0 + v.dobj(n));
      if (a.verb == kVSetup && v.count[me][static_cast<size_t>(n)] == 0) w += 0.5;
      if (a.verb == kVSetupDl && v.count[me][static_cast<size_t>(n)] > 0) w += 0.5;  // a DL backs blocks
      return static_cast<float>(w);
    }
    case kVSetupAuto:
      return 0.3f;  // the automatic rest is one choice among hundreds, and a blind one
    case kVAa:      // 10.12.3: fewer bombers out (Destroyed results first) keeps more striking
      return 3.0f / static_cast<float>(std::max<int>(1, a.nargs));
    case kVArtillery:
    case kVAir:
      return 1.5f;
    case kVBuildDl: {
      // 4.1: a DL where the scenario scores it (Scenario 1's Yelnia and Yartsevo) or in a
      // threatened objective of one's own.
      const int at = a.nargs >= 1 ? st.block(a.args[0]).loc : -1;
      // The German spends a block's action on a DL only where Scenario 1 asks for one.
      const bool wanted = me == kSoviet || st.victory_kind() == "dnieper";
      if (wanted && at >= 0 && at < g.map().area_count() && v.objective(at) && st.area(at).dl != me)
        return 4.0f;
      return me == kSoviet ? 0.8f : 0.3f;
    }
    case kVRail:  // OR 14.4: scored as the move it is
    case kVMove: {
      if (a.nargs < 2) return 1.0f;
      const int b = a.args[0];
      const int from = st.block(b).loc;
      const int dest = a.args[a.nargs - 1];
      const BlockDef& d = g.blocks()[static_cast<size_t>(b)];
      double w = 1.0;
      const bool enemy_there = v.count[1 - me][static_cast<size_t>(dest)] > 0 || st.area(dest).dl == 1 - me;
      if (enemy_there) {
        // An attack: worth it at good odds (10.11-10.14).
        const int s = d.kind == Kind::kCombat ? st.strength(b) : 0;
        w *= std::exp(2.0 * odds_value(v.ratio(me, dest, s)));
      } else if (st.area(dest).control != me) {
        w += 0.6;  // take ground (2.5)
      }
      if (v.objective(dest) && st.area(dest).control != me) w += 3.0;
      if (d.kind == Kind::kCombat) {
        w += 0.3 * (v.dg(from) - v.dg(dest));
        if (me == kGerman) w += 0.2 * (v.de(from) - v.de(dest));
      }
      // Never strip an objective the enemy can reach of its last defender.
      if (from >= 0 && v.objective(from) && st.area(from).control == me &&
          v.count[me][static_cast<size_t>(from)] == 1 && v.de(from) <= 1)
        w *= 0.15;
      // Garrison an empty own objective next to the enemy.
      if (v.objective(dest) && st.area(dest).control == me && v.count[me][static_cast<size_t>(dest)] == 0 &&
          v.de(dest) <= 1)
        w += 2.0;
      return static_cast<float>(std::max(0.05, w));
    }
    default:
      return 1.0f;
  }
}

class Moscow41Heuristics : public steppe::ai::Heuristics {
 public:
  bool has_evaluation() const override { return true; }

  void evaluate(const steppe::State& state, std::vector<double>& values) const override {
    const auto* st = dynamic_cast<const Moscow41State*>(&state);
    if (st == nullptr || state.is_terminal()) {
      Heuristics::evaluate(state, values);
      return;
    }
    const auto& g = dynamic_cast<const Moscow41Game&>(st->game());
    // Everything in VP-equivalents, German positive.
    double x = 0;
    const std::string& kind = st->victory_kind();
    const View v(*st, g, kGerman);
    if (kind == "campaign" || kind == "none") {
      x += st->victory_points(kGerman) - st->victory_points(kSoviet);  // 1.7
    } else {
      // Scenarios 1-3: the Germans must take their objectives, anything else is Soviet.
      // Scenario 1 wants German DLs in Yelnia and Yartsevo (control is only a first
      // step) or both special cities; Scenarios 2-3 want Moscow.
      double specials = 0, lines = 0;
      int n_specials = 0, n_lines = 0;
      for (int n = 0; n < g.map().area_count(); ++n) {
        if (!v.objective(n)) continue;
        const bool german = st->area(n).control == kGerman && !st->contested(n);
        if (kind == "dnieper" && !g.areas()[static_cast<size_t>(n)].special_city) {
          ++n_lines;
          lines += st->area(n).dl == kGerman ? 1.0 : german ? 0.4 : 0.0;
        } else {
          ++n_specials;
          specials += german ? 1.0 : 0.0;
        }
      }
      const double done =
          std::max(n_specials > 0 ? specials / n_specials : 0.0, n_lines > 0 ? lines / n_lines : 0.0);
      x += 4.0 * done - 2.0;
    }
    // How close the German spearheads are to what they lack (the Soviet keeps them away).
    int best = 20;
    for (size_t i = 0; i < g.blocks().size(); ++i) {
      const BlockDef& d = g.blocks()[i];
      const int loc = st->block(static_cast<int>(i)).loc;
      if (d.side != kGerman || d.kind != Kind::kCombat || loc < 0 || loc >= g.map().area_count()) continue;
      best = std::min(best, v.dg(loc));
    }
    x += 0.15 * (4 - std::min(best, 8));
    // Objectives held with no block in them while an enemy block stands next door, when
    // the enemy walking in would be its sudden death (1.7, campaign): Smolensk for the
    // Germans at the start (the Soviets hold 6 VP).
    const int sudden = g.tables().sudden_death_vp;
    for (int n = 0; n < g.map().area_count(); ++n) {
      if (!v.objective(n) || st->contested(n)) continue;
      const int owner = st->area(n).control;
      if (owner != kGerman && owner != kSoviet) continue;
      if (v.count[owner][static_cast<size_t>(n)] > 0) continue;
      bool threatened = false;
      for (int y : g.adjacency()[static_cast<size_t>(n)])
        threatened = threatened || v.count[1 - owner][static_cast<size_t>(y)] > 0;
      if (!threatened) continue;
      const bool fatal = kind == "campaign" && st->victory_points(1 - owner) + 1 >= sudden;
      if (!fatal) continue;  // a smaller weight made the German AI passive (fewer VP taken)
      const double loss = 3.0;
      x += owner == kGerman ? -loss : loss;
    }
    // Battles to come: a contested area is worth its odds (10.11-10.14), more when it is
    // an objective. Without this a move into an enemy area looks like nothing happened.
    for (int n = 0; n < g.map().area_count(); ++n)
      if (st->contested(n)) x += (v.objective(n) ? 0.6 : 0.3) * odds_value(v.ratio(kGerman, n, 0));
    // Strength: steps on the map (HQs at half), the Soviet pool at a third (destroyed
    // Soviet blocks come back, 10.14.3; German losses are for good).
    double s[2] = {0, 0};
    int isolated[2] = {0, 0};
    for (size_t i = 0; i < g.blocks().size(); ++i) {
      const BlockDef& d = g.blocks()[i];
      if (d.kind == Kind::kLeader) continue;
      const BlockState& b = st->block(static_cast<int>(i));
      const double w = d.kind == Kind::kCombat ? 1.0 : 0.5;
      if (b.loc >= 0 || b.loc == kLocSetup) {  // a block in hand at the set-up counts as placed
        s[d.side] += w * st->strength(static_cast<int>(i));
        if (b.isolated) ++isolated[d.side];  // 9.3: isolated blocks wither
      } else if (b.loc == kLocPool && d.side == kSoviet) {
        s[d.side] += w * d.levels.back() / 3.0;
      }
    }
    x += 0.12 * s[kGerman] - 0.08 * s[kSoviet];
    x -= 0.2 * (isolated[kGerman] - isolated[kSoviet]);
    // The offset of the strength term (the sides start unequal) only shifts every value
    // alike; tanh keeps it inside (-1, 1).
    const double gv = std::tanh(x / 6.0);
    values.assign(2, 0.0);
    values[kGerman] = gv;
    values[kSoviet] = -gv;
  }

  void prior(const steppe::State& state, const std::vector<Action>& actions,
             std::vector<float>& weights) const override {
    const auto* st = dynamic_cast<const Moscow41State*>(&state);
    if (st == nullptr) {
      Heuristics::prior(state, actions, weights);
      return;
    }
    const View v(*st, dynamic_cast<const Moscow41Game&>(st->game()), mover(*st));
    const bool others = actions.size() > 1;
    weights.resize(actions.size());
    for (size_t i = 0; i < actions.size(); ++i) weights[i] = score(v, actions[i], others);
  }

  // An impulse is a turn for the agents' clocks (a month holds a dozen of each side's).
  int64_t turn_key(const steppe::State& state) const override {
    const auto* st = dynamic_cast<const Moscow41State*>(&state);
    if (st == nullptr) return Heuristics::turn_key(state);
    return static_cast<int64_t>(st->turn()) * 1000000 + st->impulses_started();
  }

  // Best of a few sampled actions: cheap, biased toward attacks at good odds and moves
  // toward the objectives, still random enough to sample the opponent's replies.
  size_t rollout_choice(const steppe::State& state, const std::vector<Action>& legal,
                        steppe::Dice& rng) const override {
    const auto* st = dynamic_cast<const Moscow41State*>(&state);
    const int n = static_cast<int>(legal.size());
    if (st == nullptr || n <= 1) return n <= 1 ? 0 : static_cast<size_t>(rng.below(n));
    const View v(*st, dynamic_cast<const Moscow41Game&>(st->game()), mover(*st));
    return steppe::ai::best_of_samples(legal.size(), 4, rng,
                                       [&](size_t i) { return score(v, legal[i], true); });
  }
};

}  // namespace

std::unique_ptr<steppe::ai::Heuristics> make_moscow41_heuristics(const steppe::Game& game) {
  (void)game;
  return std::make_unique<Moscow41Heuristics>();
}

}  // namespace moscow41
