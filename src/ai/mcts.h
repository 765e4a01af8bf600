// Game-agnostic Monte Carlo tree search over the kernel's State interface (docs/ai.md).
//
// - PUCT selection with the prior of the game's Heuristics; progressive widening in
//   decreasing prior (the move ordering), so a phase with thousands of legal moves only
//   ever looks at the best-ordered few until they have been visited enough.
// - Information-set sampling: every iteration clones the root, calls
//   resample_hidden(root side, per-iteration seed) and searches that determinization;
//   the true state's hidden information is never looked at (and the dice are reseeded,
//   so chance outcomes are averaged over: the tree is open-loop).
// - Leaves are valued by a rollout with the game's rollout policy, cut after
//   `rollout_depth` actions and scored by the game's evaluation.
// - Optional action abstraction: when the game groups its raw actions into operations,
//   tree edges are operations (several actions) instead of single actions.
// - Per-unit factoring: the kernel's move actions move one unit each, so a phase in which
//   every unit acts is a chain of single-unit decisions of the same side in the tree.
//   Statistics of each (side, action) are also shared across the whole tree (one table),
//   and an unvisited edge starts from that shared value, so what was learned about
//   "unit X to hex H" in one branch orders that unit's choice in every other branch.
// - Nodes and edges live in arenas (vectors reused across decisions): no per-node
//   allocation in the search loop once the arenas have grown.
// Deterministic for a given seed and iteration budget; a time budget is not.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "ai/agent.h"
#include "ai/heuristics.h"

namespace steppe::ai {

struct MctsConfig {
  int iterations = 1000;  // simulations per decision (upper bound when time_ms > 0; 0 = none)
  double time_ms = 0.0;   // > 0: stop after this wall time (non-deterministic)
  // The turn clock: one budget for all of the agent's decisions in one game turn (as the
  // game's Heuristics::turn_key counts turns), spread over them as they come. What a
  // player waits for is a turn of many unit moves, which a budget per decision does not
  // bound. A decision of a spent turn plays the prior's first edge without a simulation,
  // and `iterations` caps each decision.
  double turn_ms = 0.0;             // > 0: CPU time of the agent's thread per turn (non-deterministic)
  int turn_iters = 0;               // > 0: simulations per turn (deterministic)
  double c_puct = 1.5;              // exploration constant of PUCT
  double widen_base = 2.0;          // progressive widening: a node with N visits considers
  double widen_exp = 0.5;           //   ceil(widen_base * (N + 1)^widen_exp) edges in prior order
  int rollout_depth = -1;           // actions per rollout; -1 = the game's default_rollout_depth()
                                    //   (8 with an evaluation, else to the end, capped by max_rollout)
  int max_rollout = 200;            // hard cap on rollout length (a cut rollout without an
                                    //   evaluation scores 0 for every side)
  bool use_operations = true;       // use the game's macro-operations when it offers them
  bool share_action_values = true;  // per-(side, action) statistics shared across the tree
  // The root's edges start from their one-ply value: each is applied once to a
  // determinization and scored by the game's evaluation (greedy's look), which orders the
  // root (prior times exp(value gain / root_temp)) and stands in for root_visits visits of
  // its mean. Only when the game has an evaluation.
  bool root_eval = true;
  double root_temp = 0.002;  // value units (a VP is about 0.1 in BD) per e-fold of the prior
  double root_visits = 2.0;  // pseudo-visits of the one-ply value in an edge's mean
  // With operations, the root also offers every raw legal action as a one-step edge, so
  // the one-ply look sees all that greedy sees (an operation's unit goes where the prior
  // says; the evaluation may know better) and the multi-step operations stay.
  bool root_raw = true;
  // A root edge whose first look rolled dice (an attack) is scored as the mean of this many
  // determinizations (other dice, other hidden draws) instead of one: a single lucky roll
  // made an attack at poor odds look best to the one-ply look, as it does to greedy.
  int root_chance = 4;
  // An operation of several steps chosen at the root is played through: its next steps are
  // the agent's next decisions, without a search, while each is legal and the game stands
  // where the step before left it (same state hash: no other side's decision, no other
  // roll in between). The one-ply look scores an operation by where all its steps leave
  // the game; played one step at a time, the next search may abandon it.
  bool commit_plans = false;

  // Canonical spec text ("mcts:iters=1000:c=1.5"), also the agent's name.
  std::string spec() const;
};

// Parses the options after "mcts" in an agent spec: presets easy|normal|hard and
// key=value pairs (iters, ms, turn_ms, turn_iters, c, widen, widen_exp, rollout,
// max_rollout, ops, share, root_eval, root_temp, root_visits, root_raw, root_chance, commit), separated by
// ':', applied left to right on top of the normal preset. Example: "hard:c=2" or "iters=500:rollout=0". The
// presets are turn clocks (easy 1.5 s, normal 5 s, hard 20 s a turn, with 200 / 1000 / 5000 simulations at
// most per decision). A spec that names iters or ms but neither turn_ms nor turn_iters is a fixed budget per
// decision, with no turn clock, wherever a preset stands in it: "mcts:iters=100" replays exactly, as it
// always did. Naming turn_iters alone replaces the preset's turn_ms.
Result<MctsConfig> parse_mcts_options(const std::string& options);

// The configuration of the spec "mcts" alone: the normal preset.
MctsConfig default_mcts_config();

struct RootEdgeStats {
  Action first;   // first action of the edge (the one choose() would return)
  int steps = 1;  // > 1 for an operation
  uint32_t visits = 0;
  double mean = 0.0;  // mean value for the side to move
  float prior = 0.0f;
};

struct MctsStats {
  int iterations = 0;
  size_t nodes = 0;
  size_t edges = 0;
  std::vector<RootEdgeStats> root;  // in move-ordering (prior) order
};

class MctsAgent final : public Agent {
 public:
  MctsAgent(MctsConfig config, uint64_t seed);
  std::string name() const override { return config_.spec(); }
  Action choose(const State& state) override { return choose_within(state, SearchLimits{}); }
  // Stops between simulations when limits.stop is set or limits.deadline has passed
  // (whichever comes first with the configured budget), then plays the best root edge so
  // far; limits.progress counts the simulations.
  Action choose_within(const State& state, const SearchLimits& limits) override;
  // Statistics of the last choose() (for tests, benchmarks and `--verbose` tools).
  const MctsStats& last_stats() const { return stats_; }
  // The turn clock's state: decisions searched and budget spent in the current turn.
  struct TurnClock {
    bool started = false;
    int64_t key = 0;            // Heuristics::turn_key of the current turn
    int decisions = 0;          // searched decisions in it so far
    double spent_ms = 0.0;      // CPU time (thread_cpu_ms) of all of its calls, forced moves too
    int64_t spent_iters = 0;    // their simulations
    double mean_decisions = 0;  // searched decisions per past turn (running mean; 0 = none yet)
    int turns = 0;              // past turns in that mean
  };
  const TurnClock& turn_clock() const { return clock_; }
  const MctsConfig& config() const { return config_; }

 private:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  struct Node {
    int player = -1;
    uint32_t edge_begin = 0;
    uint32_t edge_count = 0;
    uint32_t visits = 0;
    bool expanded = false;
  };
  struct Edge {
    uint32_t step_begin = 0;
    uint32_t step_count = 0;
    float prior = 0.0f;
    uint32_t child = kNone;
    uint32_t visits = 0;
    double value = 0.0;  // sum, for the node's player
    float init = 0.0f;   // one-ply value for the node's player (root only, see root_eval)
    bool has_init = false;
  };
  struct Shared {
    double value = 0.0;
    uint32_t visits = 0;
  };

  void expand(uint32_t node, State& state);
  // Scores the root's edges one ply deep on `state` (a determinization) and reorders them.
  // Under a turn clock (cpu_ms > 0) it stops once the decision has used cpu_ms of CPU
  // time since cpu_from (thread_cpu_ms). A chance edge's other samples are drawn from
  // `state` resampled with seeds from `chance_seed` (root_chance).
  void evaluate_root(const State& state, int player, double cpu_from, double cpu_ms, uint64_t chance_seed);
  uint32_t select(uint32_t node, const State& state, bool check_legal);
  void rollout(State& state, std::vector<double>& values, bool legal_ready = false);
  bool apply_edge(const Edge& e, State& state, int player);
  // An edge's mean value for its node's player, the one-ply value counted in (root_eval).
  double edge_mean(const Edge& e) const;
  uint64_t shared_key(int player, const Action& a) const;
  // Starts a new turn on the clock when the state's turn key changed.
  void clock_turn(const State& state);
  // This decision's share of the turn budget: simulations (0 = no cap from the clock) and
  // milliseconds (0 = none). Returns true when the turn's budget is already spent.
  bool turn_share(int& iters, double& ms) const;

  MctsConfig config_;
  uint64_t seed_;
  uint64_t decisions_ = 0;
  const Game* heuristics_game_ = nullptr;
  std::unique_ptr<Heuristics> heuristics_;
  Dice rng_;

  // Arenas, reused across decisions.
  std::vector<Node> nodes_;
  std::vector<Edge> edges_;
  std::vector<Action> steps_;
  std::unordered_map<uint64_t, Shared> shared_;
  // Scratch buffers.
  std::vector<Action> legal_;
  std::vector<float> weights_;
  std::vector<Operation> ops_;
  std::vector<double> values_;
  std::vector<std::pair<uint32_t, uint32_t>> path_;  // (node, edge)
  std::vector<uint32_t> order_;
  std::vector<uint32_t> excluded_;

  MctsStats stats_;
  TurnClock clock_;
  // commit_plans: the rest of the operation chosen last, next step first, and the hash of
  // the state its last step played leads to (the next step goes on only from there).
  std::vector<Action> plan_;
  size_t plan_next_ = 0;
  uint64_t plan_hash_ = 0;
  // The state after `a` is played on `state` (as the game will play it: same dice).
  static uint64_t hash_after(const State& state, const Action& a);
};

// One-ply search with the game's evaluation: every legal action is tried on a
// determinized clone and the best value for the side to move wins; ties go to the
// seeded generator.
class GreedyAgent final : public Agent {
 public:
  explicit GreedyAgent(uint64_t seed) : seed_(seed), rng_(seed ^ 0x6772656564ULL) {}
  std::string name() const override { return "greedy"; }
  Action choose(const State& state) override { return choose_within(state, SearchLimits{}); }
  // Stops trying candidates when limits.stop is set or the deadline has passed, and plays
  // the best candidate tried so far (the first legal action when none was).
  Action choose_within(const State& state, const SearchLimits& limits) override;

 private:
  uint64_t seed_;
  uint64_t decisions_ = 0;
  Dice rng_;
  const Game* heuristics_game_ = nullptr;
  std::unique_ptr<Heuristics> heuristics_;
  std::vector<Action> legal_;
  std::vector<double> values_;
  std::vector<size_t> best_;
  std::vector<Action> tied_;
  std::vector<float> weights_;
};

std::unique_ptr<Agent> make_random_agent(uint64_t seed);

// CPU time of the calling thread, in milliseconds. The turn clock counts it, so a loaded
// machine (other games, other processes, a tournament's other jobs) does not make an agent
// weaker and "5 s a turn" means 5 s of one core; tournament reports time agents by it.
double thread_cpu_ms();

}  // namespace steppe::ai
