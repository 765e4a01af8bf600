// Moscow '41 heuristics for greedy and mcts (docs/ai.md). Everything is read from the
// state and its data; nothing here is a rule: the legal moves always come from
// Moscow41State. The agents call these on determinized clones (resample_hidden), so the
// enemy strengths they read are the sampled ones, never the true hidden blocks.
#include "games/moscow41/ai/ai_heuristics.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "games/moscow41/state.h"

namespace moscow41 {
namespace {

using steppe::Action;

// What holding a spendable Initiative Disc is worth, in the evaluation's VP-like units (a
// Victory Area counts 1). Not tuned beyond ending the disc trade (see evaluate()).
constexpr double kInitiativeValue = 0.5;

// Per-position tables shared by the evaluation, the prior and the rollout policy.
struct View {
  const Moscow41State& st;
  const Moscow41Game& g;
  int side = kGerman;            // whose goals and enemies (the side to move, for the prior)
  std::vector<int> str[2];       // combat strength per node and side (HQs at half)
  std::vector<int> count[2];     // blocks per node and side
  std::vector<int> dist_goal;    // area steps to the nearest objective `side` lacks
  std::vector<int> dist_enemy;   // area steps to the nearest enemy-occupied area
  std::vector<int> dist_obj;     // area steps to the nearest objective, whoever holds it
  std::vector<int> dist_moscow;  // area steps to Moscow (63)

  // How an objective stands against what its enemy can bring to it in one impulse (1.7:
  // Smolensk at the campaign start, Moscow in Scenarios 2-3).
  struct Hold {
    int node = -1;
    int owner = kNoSide;
    bool critical = false;  // its loss leaves the enemy at most one objective short of sudden death
    double need = 0;        // hits the enemy must score: the owner's steps there, its DL, the absorb bonus
    double hits = 0;        // expected hits of the strongest attack the enemy can mount next impulse
    double var = 0;         // their variance (the dice)
    bool reach = false;     // an enemy block can get there
  };
  std::vector<Hold> holds;

  static void bfs(const Moscow41Game& g, std::vector<int>& dist, std::vector<int> frontier) {
    std::vector<int> next;
    while (!frontier.empty()) {
      next.clear();
      for (int n : frontier)
        for (int y : g.neighbours(n))
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
    dist_moscow.assign(nodes, -1);
    if (g.moscow() >= 0) {
      dist_moscow[static_cast<size_t>(g.moscow())] = 0;
      bfs(g, dist_moscow, {g.moscow()});
    }
    for (int n = 0; n < g.map().area_count(); ++n) {
      const int owner = st.area(n).control;
      if (objective(n) && (owner == kGerman || owner == kSoviet)) holds.push_back(hold(n, owner));
    }
  }

  // A block (not a Leader) or a DL of `who` in `n` (2.5), from the counts above.
  bool units(int who, int n) const { return count[who][static_cast<size_t>(n)] > 0 || st.area(n).dl == who; }

  // Does `n` count toward the sudden death of `owner`'s enemy (1.7 Victory Areas in the
  // campaign; Moscow in Scenarios 2-3; the special cities in Scenario 1)?
  bool in_race(int n, int owner) const {
    const std::string& k = st.victory_kind();
    if (k == "campaign") return true;
    if (k == "moscow") return owner == kSoviet && n == g.moscow();
    return k == "dnieper" && owner == kSoviet && g.areas()[static_cast<size_t>(n)].special_city;
  }
  // How many more such objectives the enemy must take from `owner` to win at once (0: no
  // sudden death for that enemy).
  int race(int owner) const {
    const std::string& k = st.victory_kind();
    if (k == "campaign")
      return std::max(1, g.tables().sudden_death_vp - st.victory_points(1 - owner));  // 1.7
    if (k == "moscow") return owner == kSoviet ? 1 : 0;
    if (k != "dnieper" || owner != kSoviet) return 0;
    int left = 0;  // Scenario 1: both special cities
    for (int m = 0; m < g.map().area_count(); ++m)
      if (g.areas()[static_cast<size_t>(m)].special_city && st.area(m).control != kGerman) ++left;
    return left;
  }

  // Hits a block of `who` takes to be destroyed (10.14): its steps left, an exhausted HQ one.
  int steps_left(int b) const {
    const BlockDef& d = g.blocks()[static_cast<size_t>(b)];
    return std::max(1, static_cast<int>(d.levels.size()) - st.block(b).level);
  }

  // Dice and hit chance of block b attacking (8.0 weather; a block its enemy has not seen
  // counted at least halfway to full strength: the determinization drew its strength, and
  // a garrison sized against a lucky draw falls to the real block).
  void attack_dice(int b, bool seen, double& dice, double& p_hit) const {
    const BlockDef& d = g.blocks()[static_cast<size_t>(b)];
    int level = st.block(b).level;
    int s = st.strength(b);
    if (!seen) {
      level = level / 2;
      s = d.levels[static_cast<size_t>(level)];
    }
    if (st.weather() == kRain)
      s = std::min(s, 1);
    else if (st.weather() == kSnow && d.side == kGerman)
      s = std::max(1, s / 2);
    const int fire =
        d.kind == Kind::kCombat ? d.fire[static_cast<size_t>(level)] : kDouble;  // HQs fire DF (4.2.2)
    dice = s;
    p_hit = (7.0 - g.tables().hits_on[static_cast<size_t>(fire)]) / 6.0;
  }

  Hold hold(int n, int owner) const {
    Hold h;
    h.node = n;
    h.owner = owner;
    const int lacks = race(owner);
    h.critical = in_race(n, owner) && lacks >= 1 && lacks <= 2;
    const int enemy = 1 - owner;
    const AreaDef& a = g.areas()[static_cast<size_t>(n)];
    // 10.13 absorb of the owner as defender, 4.1 its DL's own step.
    const bool defended = units(owner, n);
    h.need = defended ? st.absorb(n, owner) + (st.area(n).dl == owner ? 1 : 0) : 0;
    // Reverse search: MP a block needs to get from each area into n (2.6, 8.0 weather). A
    // route stops in an area the owner holds (10.8: engaging stops a block).
    const size_t nodes = static_cast<size_t>(g.map().node_count());
    std::vector<int> cost(nodes, 99);
    cost[static_cast<size_t>(n)] = 0;
    std::vector<int> frontier{n}, next;
    while (!frontier.empty()) {
      next.clear();
      for (int x : frontier) {
        if (x != n && units(owner, x)) continue;
        const int c = cost[static_cast<size_t>(x)] + st.area_enter_cost(x);
        if (c > g.tables().fast_mp) continue;
        for (int y : g.neighbours(x)) {
          if (y >= g.map().area_count() || c >= cost[static_cast<size_t>(y)]) continue;
          if (enemy == kSoviet && g.areas()[static_cast<size_t>(y)].terrain == kStaging) continue;  // 2.4.4
          cost[static_cast<size_t>(y)] = c;
          next.push_back(y);
        }
      }
      frontier.swap(next);
    }
    // The enemy's attack: its strongest blocks that can get there, as many as stacking
    // lets in (2.7), and one HQ's artillery (10.4).
    struct Att {
      bool inside;  // already in the area: it takes its stacking slot first
      double mean, var;
    };
    std::vector<Att> atts;
    double art = 0, art_var = 0, own_hits = 0;
    int inside = 0;
    for (size_t i = 0; i < g.blocks().size(); ++i) {
      const BlockDef& d = g.blocks()[i];
      const int b = static_cast<int>(i);
      const BlockState& bs = st.block(b);
      if (bs.loc < 0 || bs.loc >= g.map().area_count() || d.kind == Kind::kLeader || d.kind == Kind::kLwHq)
        continue;
      if (d.side == owner) {
        if (bs.loc != n) continue;
        h.need += steps_left(b);
        double dice = 0, p = 0;
        attack_dice(b, true, dice, p);
        own_hits += st.strength(b) * p;
        continue;
      }
      if (bs.isolated) continue;  // 9.1
      const int mp = (d.fast ? g.tables().fast_mp : g.tables().slow_mp) -
                     (bs.loc != n && units(owner, bs.loc) ? g.tables().disengage : 0);
      const int c = cost[static_cast<size_t>(bs.loc)];
      if (c > mp) continue;
      h.reach = true;
      double dice = 0, p = 0;
      attack_dice(b, bs.revealed || bs.face_up, dice, p);
      if (d.kind == Kind::kHq) {  // artillery from next door, or fire in the area
        art = std::max(art, dice * p);
        art_var = std::max(art_var, dice * p * (1 - p));
        if (bs.loc != n) continue;
      }
      if (bs.loc == n) ++inside;
      atts.push_back({bs.loc == n, dice * p, dice * p * (1 - p)});
    }
    std::sort(atts.begin(), atts.end(),
              [](const Att& x, const Att& y) { return x.inside != y.inside ? x.inside : x.mean > y.mean; });
    const size_t slots = static_cast<size_t>(g.tables().stack[static_cast<size_t>(a.terrain)]);
    double hits = art, var = art_var;
    for (size_t k = 0; k < atts.size() && k < std::max<size_t>(slots, static_cast<size_t>(inside)); ++k) {
      hits += atts[k].mean;
      var += atts[k].var;
    }
    // The defender fires first in a city (no Tank Attack, 10.12.5.2): each hit takes a die
    // off the attack.
    h.hits = std::max(0.0, hits - 0.4 * own_hits);
    h.var = var;
    return h;
  }

  // Chance that the enemy takes the objective next impulse, with `less` fewer steps (and
  // `less_fire` less fire) of the owner in it.
  static double fall(const Hold& h, double less = 0, double less_fire = 0) {
    if (!h.reach) return 0.0;
    const double need = h.need - less;
    if (need <= 0.0) return 0.95;  // an empty area is taken by walking in (2.5)
    const double hits = h.hits + 0.4 * less_fire;
    return 0.5 * std::erfc((need - 0.5 - hits) / std::sqrt(2.0 * (h.var + 0.25)));
  }
  const Hold* hold_at(int n) const {
    for (const Hold& h : holds)
      if (h.node == n) return &h;
    return nullptr;
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
      // An objective whose loss would leave the enemy at most one short of sudden death
      // (1.7): do not weaken it below what the enemy can bring next impulse, and
      // reinforce it while it is short.
      if (from >= 0 && from != dest && d.kind != Kind::kLeader) {
        const View::Hold* h = v.hold_at(from);
        if (h != nullptr && h->owner == me && h->critical) {
          double dice = 0, p = 0;
          v.attack_dice(b, true, dice, p);
          const double before = View::fall(*h), after = View::fall(*h, v.steps_left(b), st.strength(b) * p);
          if (after > before + 0.05) w *= std::max(0.02, 1.0 - 3.0 * (after - before));
        }
      }
      if (const View::Hold* h = v.hold_at(dest);
          h != nullptr && h->owner == me && h->critical && from != dest &&
          v.count[me][static_cast<size_t>(dest)] <
              g.tables().stack[static_cast<size_t>(g.areas()[static_cast<size_t>(dest)].terrain)])
        w += 6.0 * View::fall(*h);
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
    // Sudden death (1.7; Scenarios 1-3). Each objective a side holds may fall next
    // impulse, with the chance View::fall gives (the hits the enemy's strongest reachable
    // blocks can score against the steps and absorb bonus holding it); the chance that
    // the enemy takes as many as it still lacks (Smolensk alone at the campaign start,
    // Moscow in Scenarios 2-3) costs the side 6. A campaign Victory Area also counts its
    // VP at its own chance (0.5). The race counts every area at once: an SI can take two,
    // and a greedy German that thinned Smolensk while the Soviets held 4 VP lost the game
    // when they took another Victory Area and walked into Smolensk.
    for (int owner : {kGerman, kSoviet}) {
      const int lacks = v.race(owner);
      if (lacks <= 0) continue;
      // P(at least j of its objectives fall), j up to what the enemy lacks.
      std::vector<double> at_least(static_cast<size_t>(lacks) + 1, 0.0);
      at_least[0] = 1.0;
      double vp_loss = 0;
      for (const View::Hold& h : v.holds) {
        if (h.owner != owner || !v.in_race(h.node, owner)) continue;
        const double p = View::fall(h);
        if (kind == "campaign") vp_loss += 0.5 * p;
        for (size_t j = at_least.size() - 1; j >= 1; --j)
          at_least[j] = at_least[j] * (1 - p) + at_least[j - 1] * p;
      }
      const double loss = 6.0 * at_least.back() + vp_loss;
      x += owner == kGerman ? -loss : loss;
    }
    // Scenarios 2-3: the German armies closing on Moscow, each block by its strength.
    if (kind == "moscow") {
      double closing = 0;
      for (size_t i = 0; i < g.blocks().size(); ++i) {
        const BlockDef& d = g.blocks()[i];
        const int loc = st->block(static_cast<int>(i)).loc;
        if (d.side != kGerman || d.kind != Kind::kCombat || loc < 0 || loc >= g.map().area_count()) continue;
        const int dm = v.dist_moscow[static_cast<size_t>(loc)];
        if (dm >= 0) closing += st->strength(static_cast<int>(i)) * std::max(0, 8 - dm);
      }
      x += 0.015 * closing;
    }
    // Scenarios 1-3: time is the German's enemy (he must take his objective by the last
    // turn; two Passes in a row end the month, 6.0), so a German Pass costs a little.
    // Without it greedy, whose one ply sees a Pass and a Tactical Impulse alike, passed
    // away half its impulses. (In the campaign the same term cost greedy German games.)
    if (kind != "campaign" && st->active() == kGerman && st->impulse_kind() == ImpulseKind::kPass) x -= 0.3;
    // The Initiative Disc (3.2.1): its holder may still play a Strategic Impulse or an
    // Exploitation. Without a value for it, a greedy Soviet spent it on a Strategic Impulse
    // that moved nothing rather than Pass (the prior ranks an SI above a Pass), handing it
    // back to the German each impulse; the two agents then traded it for ever and the
    // July Impulses Phase never ended (two Passes in a row end it, 6.0).
    for (int side : {kGerman, kSoviet})
      if (st->initiative_spendable(side)) x += side == kGerman ? kInitiativeValue : -kInitiativeValue;
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
