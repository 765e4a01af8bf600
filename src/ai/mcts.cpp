#include "ai/mcts.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <numeric>
#include <sstream>
#include <string_view>

namespace steppe::ai {

namespace {

constexpr double kSharedPseudoVisits = 8.0;

uint64_t mix(uint64_t a, uint64_t b) { return splitmix64(a ^ splitmix64(b + 0x632BE59BD9B4E019ULL)); }

std::string format_double(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Spec parsing

// The on/off options the parser knows: their key and the field they set.
struct FlagOption {
  const char* key;
  bool MctsConfig::*field;
};
constexpr FlagOption kFlagOptions[] = {
    {"ops", &MctsConfig::use_operations},  {"share", &MctsConfig::share_action_values},
    {"root_eval", &MctsConfig::root_eval}, {"root_raw", &MctsConfig::root_raw},
    {"commit", &MctsConfig::commit_plans},
};

std::string MctsConfig::spec() const {
  std::string s = "mcts";
  s += ":iters=" + std::to_string(iterations);  // also 0, so that a name parses back to itself
  if (time_ms > 0) s += ":ms=" + format_double(time_ms);
  if (turn_ms > 0) s += ":turn_ms=" + format_double(turn_ms);
  if (turn_iters > 0) s += ":turn_iters=" + std::to_string(turn_iters);
  const MctsConfig d;
  if (c_puct != d.c_puct) s += ":c=" + format_double(c_puct);
  if (widen_base != d.widen_base) s += ":widen=" + format_double(widen_base);
  if (widen_exp != d.widen_exp) s += ":widen_exp=" + format_double(widen_exp);
  if (rollout_depth != d.rollout_depth) s += ":rollout=" + std::to_string(rollout_depth);
  if (max_rollout != d.max_rollout) s += ":max_rollout=" + std::to_string(max_rollout);
  // An on/off option of kFlagOptions, where the names always put it (agent names in saved
  // games and reports stay as they were).
  auto flag = [&](std::string_view key) {
    for (const FlagOption& f : kFlagOptions)
      if (key == f.key && this->*f.field != d.*f.field)
        s += std::string(":") + f.key + (this->*f.field ? "=1" : "=0");
  };
  flag("ops");
  flag("share");
  flag("root_eval");
  if (root_temp != d.root_temp) s += ":root_temp=" + format_double(root_temp);
  if (root_visits != d.root_visits) s += ":root_visits=" + format_double(root_visits);
  flag("root_raw");
  if (root_chance != d.root_chance) s += ":root_chance=" + std::to_string(root_chance);
  flag("commit");
  return s;
}

Result<MctsConfig> parse_mcts_options(const std::string& options) {
  MctsConfig c;
  size_t pos = 0;
  auto bad = [&](const std::string& item, const std::string& why) {
    return Error{"bad mcts option '" + item + "': " + why +
                     " (use easy|normal|hard or iters=N, ms=N, turn_ms=N, turn_iters=N, c=X, widen=X, "
                     "widen_exp=X, rollout=N, max_rollout=N, ops=0|1, share=0|1, root_eval=0|1, "
                     "root_temp=X, root_visits=X, root_raw=0|1, root_chance=N, commit=0|1, separated by ':')",
                 "", "agent spec"};
  };
  bool named_budget = false;  // iters or ms
  bool named_turn_ms = false, named_turn_iters = false;
  auto preset = [&](int iters, double turn_ms) {
    c.iterations = iters;
    c.time_ms = 0;
    c.turn_ms = turn_ms;
    c.turn_iters = 0;
  };
  preset(1000, 5000);  // what "mcts" alone means: the options below change it
  while (pos <= options.size() && !options.empty()) {
    size_t end = options.find(':', pos);
    if (end == std::string::npos) end = options.size();
    const std::string item = options.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) return bad(item, "empty option");
    if (item == "easy") {
      preset(200, 1500);
    } else if (item == "normal") {
      preset(1000, 5000);
    } else if (item == "hard") {
      preset(5000, 20000);
    } else {
      const size_t eq = item.find('=');
      if (eq == std::string::npos) return bad(item, "not a preset and not key=value");
      const std::string key = item.substr(0, eq);
      const std::string val = item.substr(eq + 1);
      double num = 0;
      try {
        size_t used = 0;
        num = std::stod(val, &used);
        if (used != val.size()) return bad(item, "value is not a number");
      } catch (...) {
        return bad(item, "value is not a number");
      }
      auto whole = [&](double lo, double hi) { return num == std::floor(num) && num >= lo && num <= hi; };
      if (key == "iters") {
        if (!whole(0, 1e9)) return bad(item, "iters must be a whole number >= 0");
        c.iterations = static_cast<int>(num);
        named_budget = true;
      } else if (key == "ms") {
        if (!(num >= 0 && num <= 3.6e6)) return bad(item, "ms must be between 0 and 3600000");
        c.time_ms = num;
        named_budget = true;
      } else if (key == "turn_ms") {
        if (!(num >= 0 && num <= 3.6e6)) return bad(item, "turn_ms must be between 0 and 3600000");
        c.turn_ms = num;
        named_turn_ms = true;
      } else if (key == "turn_iters") {
        if (!whole(0, 1e9)) return bad(item, "turn_iters must be a whole number >= 0");
        c.turn_iters = static_cast<int>(num);
        named_turn_iters = true;
      } else if (key == "c") {
        if (!(num >= 0 && num <= 100)) return bad(item, "c must be between 0 and 100");
        c.c_puct = num;
      } else if (key == "widen") {
        if (!(num >= 1 && num <= 1e6)) return bad(item, "widen must be between 1 and 1e6");
        c.widen_base = num;
      } else if (key == "widen_exp") {
        if (!(num >= 0 && num <= 1)) return bad(item, "widen_exp must be between 0 and 1");
        c.widen_exp = num;
      } else if (key == "rollout") {
        if (!whole(-1, 1e6)) return bad(item, "rollout must be a whole number >= -1");
        c.rollout_depth = static_cast<int>(num);
      } else if (key == "max_rollout") {
        if (!whole(0, 1e7)) return bad(item, "max_rollout must be a whole number >= 0");
        c.max_rollout = static_cast<int>(num);
      } else if (key == "root_temp") {
        if (!(num > 0 && num <= 100)) return bad(item, "root_temp must be above 0 and at most 100");
        c.root_temp = num;
      } else if (key == "root_visits") {
        if (!(num >= 0 && num <= 1e6)) return bad(item, "root_visits must be between 0 and 1e6");
        c.root_visits = num;
      } else if (key == "root_chance") {
        if (!whole(1, 64)) return bad(item, "root_chance must be a whole number from 1 to 64");
        c.root_chance = static_cast<int>(num);
      } else {
        const FlagOption* flag = nullptr;
        for (const FlagOption& f : kFlagOptions)
          if (key == f.key) flag = &f;
        if (flag == nullptr) return bad(item, "unknown key '" + key + "'");
        if (!whole(0, 1)) return bad(item, key + " must be 0 or 1");
        c.*flag->field = num != 0;
      }
    }
    if (end == options.size()) break;
  }
  // A named turn budget replaces the preset's; a named budget per decision without one
  // has no turn clock (see mcts.h).
  // (No preset sets turn_iters.)
  if (!named_turn_ms && (named_turn_iters || named_budget)) c.turn_ms = 0;
  if (c.iterations == 0 && c.time_ms <= 0 && c.turn_ms <= 0 && c.turn_iters <= 0)
    return bad(options, "no budget (iters=0 needs ms, turn_ms or turn_iters > 0)");
  return c;
}

MctsConfig default_mcts_config() {
  auto c = parse_mcts_options("");
  return c ? c.value() : MctsConfig{};
}

// ---------------------------------------------------------------------------------------
// MCTS

MctsAgent::MctsAgent(MctsConfig config, uint64_t seed)
    : config_(config), seed_(seed), rng_(seed ^ 0x6D637473ULL) {}

uint64_t MctsAgent::shared_key(int player, const Action& a) const {
  return a.hash() ^ (static_cast<uint64_t>(player + 1) * 0x9E3779B97F4A7C15ULL);
}

void MctsAgent::expand(uint32_t node, State& state) {
  const int player = state.current_player();
  state.legal_actions(legal_);
  const auto begin = static_cast<uint32_t>(edges_.size());
  bool used_ops = false;
  if (config_.use_operations && !legal_.empty() && heuristics_->operations(state, legal_, ops_)) {
    for (const Operation& op : ops_) {
      if (op.steps.empty() || !state.check(op.steps.front()).is_ok()) continue;
      Edge e;
      e.step_begin = static_cast<uint32_t>(steps_.size());
      e.step_count = static_cast<uint32_t>(op.steps.size());
      e.prior = std::max(0.0f, op.prior);
      steps_.insert(steps_.end(), op.steps.begin(), op.steps.end());
      edges_.push_back(e);
    }
    used_ops = edges_.size() > begin;
  }
  if (!used_ops || (node == 0 && config_.root_raw)) {
    // The raw actions: the node's edges without operations, or at the root with root_raw
    // beside the operations, except those a one-step operation already is and, beside
    // operations, those the game's prior weighs 0 (never worth trying: BD's way back for a
    // unit that has moved, which the one-ply look took back and forth).
    const auto ops_end = static_cast<uint32_t>(edges_.size());
    heuristics_->prior(state, legal_, weights_);
    weights_.resize(legal_.size(), 1.0f);
    for (size_t i = 0; i < legal_.size(); ++i) {
      bool dup = false;
      for (uint32_t k = begin; k < ops_end && !dup; ++k)
        dup = edges_[k].step_count == 1 && steps_[edges_[k].step_begin] == legal_[i];
      if (dup || (used_ops && weights_[i] <= 0.0f)) continue;
      Edge e;
      e.step_begin = static_cast<uint32_t>(steps_.size());
      e.step_count = 1;
      e.prior = std::max(0.0f, weights_[i]);
      steps_.push_back(legal_[i]);
      edges_.push_back(e);
    }
  }
  const auto end = static_cast<uint32_t>(edges_.size());
  // Normalise the prior (uniform when the game gave all zeros) and order by it, stable so
  // that equal priors keep the game's deterministic legal order.
  double total = 0;
  for (uint32_t i = begin; i < end; ++i) total += edges_[i].prior;
  for (uint32_t i = begin; i < end; ++i)
    edges_[i].prior =
        total > 0 ? static_cast<float>(edges_[i].prior / total) : 1.0f / static_cast<float>(end - begin);
  std::stable_sort(edges_.begin() + begin, edges_.begin() + end,
                   [](const Edge& a, const Edge& b) { return a.prior > b.prior; });
  Node& n = nodes_[node];
  n.player = player;
  n.edge_begin = begin;
  n.edge_count = end - begin;
  n.expanded = true;
}

uint32_t MctsAgent::select(uint32_t node, const State& state, bool check_legal) {
  const Node& n = nodes_[node];
  const double widened =
      std::ceil(config_.widen_base * std::pow(static_cast<double>(n.visits) + 1.0, config_.widen_exp));
  const uint32_t k = std::min<uint32_t>(n.edge_count, static_cast<uint32_t>(std::max(1.0, widened)));
  // First-play urgency: the node's mean value for its player, unless the shared table
  // knows this action.
  double sum = 0;
  uint32_t cnt = 0;
  for (uint32_t i = 0; i < k; ++i) {
    sum += edges_[n.edge_begin + i].value;
    cnt += edges_[n.edge_begin + i].visits;
  }
  const double fpu = cnt > 0 ? sum / cnt : 0.0;
  const double sqrt_n = std::sqrt(static_cast<double>(n.visits) + 1.0);
  excluded_.clear();
  for (uint32_t attempt = 0; attempt < k; ++attempt) {
    uint32_t best = kNone;
    double best_score = -1e300;
    for (uint32_t i = 0; i < k; ++i) {
      const uint32_t ei = n.edge_begin + i;
      if (std::find(excluded_.begin(), excluded_.end(), ei) != excluded_.end()) continue;
      const Edge& e = edges_[ei];
      double q = fpu;
      if (e.has_init) {
        q = edge_mean(e);
      } else if (e.visits > 0) {
        q = e.value / e.visits;
      } else if (config_.share_action_values) {
        auto it = shared_.find(shared_key(n.player, steps_[e.step_begin]));
        // Blend with the node's own first-play value: a few samples elsewhere in the tree
        // must not bury an edge that was never tried here.
        if (it != shared_.end() && it->second.visits > 0)
          q = (it->second.value + fpu * kSharedPseudoVisits) / (it->second.visits + kSharedPseudoVisits);
      }
      const double score = q + config_.c_puct * e.prior * sqrt_n / (1.0 + e.visits);
      if (score > best_score) {
        best_score = score;
        best = ei;
      }
    }
    if (best == kNone) return kNone;
    // In another determinization (or after other dice) an edge may be illegal: skip it.
    if (!check_legal || state.check(steps_[edges_[best].step_begin]).is_ok()) return best;
    excluded_.push_back(best);
  }
  return kNone;
}

double MctsAgent::edge_mean(const Edge& e) const {
  if (e.has_init) {
    const double k = config_.root_visits;
    return e.visits + k > 0 ? (e.value + e.init * k) / (e.visits + k) : e.init;
  }
  return e.visits > 0 ? e.value / e.visits : 0.0;
}

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

namespace {
// atanh of a value in [-1, 1], kept finite: a game's evaluation is bounded, often by a
// squash, and a difference of values far from 0 understates the difference of positions.
double unsquash(double v) { return std::atanh(std::clamp(v, -1.0 + 1e-15, 1.0 - 1e-15)); }
}  // namespace

void MctsAgent::evaluate_root(const State& state, int player, double cpu_from, double cpu_ms,
                              uint64_t chance_seed) {
  const Node& n = nodes_[0];
  if (n.edge_count < 2 || player < 0) return;
  const uint32_t begin = n.edge_begin, end = n.edge_begin + n.edge_count;
  double best = -1e300, worst = 1e300;
  for (uint32_t i = begin; i < end; ++i) {
    // Under the turn clock the look stops at the decision's share: the edges are in prior
    // order, and those left unscored count as the worst scored (as an edge that fails).
    if (cpu_ms > 0 && i > begin && thread_cpu_ms() - cpu_from >= cpu_ms) break;
    Edge& e = edges_[i];
    std::unique_ptr<State> c = state.clone();
    const uint64_t rolls = c->dice().counter();
    if (!apply_edge(e, *c, player)) continue;  // illegal in this determinization: no value
    auto value_of = [&](const State& s) {
      heuristics_->evaluate(s, values_);
      return static_cast<size_t>(player) < values_.size()
                 ? std::clamp(values_[static_cast<size_t>(player)], -1.0, 1.0)
                 : 0.0;
    };
    double v = value_of(*c);
    if (config_.root_chance > 1 && c->dice().counter() != rolls) {
      int samples = 1;
      for (int k = 1; k < config_.root_chance; ++k) {
        std::unique_ptr<State> d = state.clone();
        d->resample_hidden(player, mix(chance_seed, static_cast<uint64_t>(k)));
        if (!apply_edge(e, *d, player)) continue;
        v += value_of(*d);
        ++samples;
      }
      v /= samples;
    }
    e.init = static_cast<float>(v);
    e.has_init = true;
    best = std::max(best, v);
    worst = std::min(worst, v);
  }
  if (best < -1e299) return;
  // The prior keeps the game's knowledge (an attack's odds, which one sampled battle does
  // not show) and leans toward what the evaluation already sees one ply on. Gains are
  // measured after atanh, which undoes the squash of an evaluation such as BD's
  // tanh(VP / scale): where one side is far ahead, a move that loses Moscow and one that
  // keeps it differed by 0.0006 in value, too little for root_temp, and the search moved
  // the garrison out (docs/ai.md, "Saturated values"). Near 0 atanh changes nothing.
  const double top = unsquash(best);
  double total = 0;
  for (uint32_t i = begin; i < end; ++i) {
    Edge& e = edges_[i];
    const double v = unsquash(e.has_init ? e.init : worst);
    e.prior = static_cast<float>(e.prior * std::exp((v - top) / config_.root_temp));
    total += e.prior;
  }
  for (uint32_t i = begin; i < end; ++i)
    edges_[i].prior =
        total > 0 ? static_cast<float>(edges_[i].prior / total) : 1.0f / static_cast<float>(end - begin);
  std::stable_sort(edges_.begin() + begin, edges_.begin() + end,
                   [](const Edge& a, const Edge& b) { return a.prior > b.prior; });
}

bool MctsAgent::apply_edge(const Edge& e, State& state, int player) {
  for (uint32_t s = 0; s < e.step_count; ++s) {
    if (s > 0 && (state.is_terminal() || state.current_player() != player)) break;
    // Copy: apply() may not alias the arena if a game's check() looks back at it.
    const Action a = steps_[e.step_begin + s];
    if (!state.apply(a).is_ok()) return s > 0;
  }
  return true;
}

void MctsAgent::rollout(State& state, std::vector<double>& values, bool legal_ready) {
  int depth = config_.rollout_depth;
  if (depth < 0) depth = heuristics_->default_rollout_depth();
  if (depth < 0) depth = config_.max_rollout;
  depth = std::min(depth, config_.max_rollout);
  for (int d = 0; d < depth && !state.is_terminal(); ++d) {
    // Right after an expansion legal_ already holds this state's actions (legal action
    // generation is the dearest call of a wargame).
    if (d > 0 || !legal_ready) state.legal_actions(legal_);
    if (legal_.empty()) break;
    size_t idx = heuristics_->rollout_choice(state, legal_, rng_);
    if (idx >= legal_.size()) idx = 0;
    if (!state.apply(legal_[idx]).is_ok()) break;
  }
  heuristics_->evaluate(state, values);
}

// Decisions expected before any turn was seen (a BD movement phase with operations is a
// few dozen), and the share of a turn's time planned (the rest covers the overshoot of a
// decision's last simulation and a turn longer than expected).
constexpr double kFirstTurnDecisions = 40.0;
constexpr double kTurnTimePlanned = 0.85;

void MctsAgent::clock_turn(const State& state) {
  const int64_t key = heuristics_->turn_key(state);
  if (!clock_.started || key != clock_.key) {
    if (clock_.started && clock_.decisions > 0) {
      // A running mean that follows the game: turns grow and shrink with the armies.
      clock_.mean_decisions =
          clock_.turns == 0 ? clock_.decisions : 0.5 * clock_.mean_decisions + 0.5 * clock_.decisions;
      ++clock_.turns;
    }
    clock_.started = true;
    clock_.key = key;
    clock_.decisions = 0;
    clock_.spent_ms = 0;
    clock_.spent_iters = 0;
  }
}

bool MctsAgent::turn_share(int& iters, double& ms) const {
  // Decisions still to come, this one included: what a turn took so far beyond those made
  // already, but never fewer than a quarter of that (a turn longer than usual spends its
  // rest more and more thinly instead of running out) and never fewer than two.
  const double expected = clock_.turns > 0 ? clock_.mean_decisions : kFirstTurnDecisions;
  const double left = std::max({expected - clock_.decisions, 0.25 * expected, 2.0});
  // A spent turn plays the prior's first edge without a simulation (choose_within).
  if (config_.turn_iters > 0)
    iters =
        std::max(1, static_cast<int>(static_cast<double>(config_.turn_iters - clock_.spent_iters) / left));
  const double ms_left = config_.turn_ms * kTurnTimePlanned - clock_.spent_ms;
  if (config_.turn_ms > 0) ms = std::max(1e-3, ms_left / left);
  return (config_.turn_ms > 0 && ms_left <= 0) ||
         (config_.turn_iters > 0 && clock_.spent_iters >= config_.turn_iters);
}

uint64_t MctsAgent::hash_after(const State& state, const Action& a) {
  std::unique_ptr<State> c = state.clone();
  return c->apply(a).is_ok() ? c->state_hash() : 0;
}

Action MctsAgent::choose_within(const State& state, const SearchLimits& limits) {
  if (heuristics_game_ != &state.game()) {
    heuristics_ = make_heuristics(state.game());
    heuristics_game_ = &state.game();
  }
  const uint64_t decision_seed = mix(seed_, decisions_++);
  rng_ = Dice(mix(decision_seed, 0x726F6C6CULL));
  const int root_player = state.current_player();
  if (plan_next_ < plan_.size()) {
    // The operation chosen before goes on while its next step is legal and the game is
    // where its last step left it (no other side's decision, no chance in between). Costs
    // no search; not a decision of the turn clock's.
    const Action step = plan_[plan_next_++];
    if (state.state_hash() == plan_hash_ && state.check(step).is_ok()) {
      plan_hash_ = plan_next_ < plan_.size() ? hash_after(state, step) : 0;
      stats_ = MctsStats{};
      stats_.root.push_back(RootEdgeStats{step, 1, 0, 0.0, 1.0f});
      return step;
    }
    plan_.clear();
    plan_next_ = 0;
  }
  const size_t sides = std::max<size_t>(1, state.game().side_names().size());

  nodes_.clear();
  edges_.clear();
  steps_.clear();
  shared_.clear();
  stats_ = MctsStats{};
  nodes_.push_back(Node{});

  // Everything this call costs counts on the turn clock, a forced move's generation too:
  // what a player waits for is the whole decision, not its simulations.
  const double cpu_start = thread_cpu_ms();
  const bool clocked = config_.turn_ms > 0 || config_.turn_iters > 0;
  if (clocked) clock_turn(state);
  struct ChargeClock {
    MctsAgent& agent;
    bool on;
    double from;
    ~ChargeClock() {
      if (on) agent.clock_.spent_ms += thread_cpu_ms() - from;
    }
  } charge{*this, clocked, cpu_start};

  // A forced move needs no search (the legal actions are the mover's own knowledge).
  state.legal_actions(legal_);
  if (legal_.size() == 1) {
    stats_.root.push_back(RootEdgeStats{legal_[0], 1, 0, 0.0, 1.0f});
    return legal_[0];
  }

  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  int max_iters = config_.iterations;
  const double max_ms = config_.time_ms;
  double turn_cpu_ms = 0;   // this decision's CPU share of the turn clock (0 = none)
  bool turn_spent = false;  // the turn clock has nothing left: the prior's pick, no search
  if (clocked) {
    int share_iters = 0;
    turn_spent = turn_share(share_iters, turn_cpu_ms);
    if (share_iters > 0) max_iters = max_iters > 0 ? std::min(max_iters, share_iters) : share_iters;
  }
  bool timed = max_ms > 0;
  auto deadline = start + std::chrono::microseconds(static_cast<int64_t>(max_ms * 1000.0));
  if (limits.deadline) {
    deadline = timed ? std::min(deadline, *limits.deadline) : *limits.deadline;
    timed = true;
  }
  if (limits.progress != nullptr) {
    limits.progress->budget.store(max_iters, std::memory_order_relaxed);
    limits.progress->iterations.store(0, std::memory_order_relaxed);
  }
  // The one-ply look, but not in a spent turn: a Moscow '41 set-up is hundreds of
  // placements under one turn key, and a look at each would take the turn far past its
  // budget. A spent turn plays the edge the first simulation would try (PUCT with no
  // visits: the prior's first) without the simulation: its rollout was most of a spent
  // decision's cost (eight move generations, 150-360 ms in a Moscow '41 impulse) and could
  // not change the pick.
  const bool look = config_.root_eval && heuristics_->has_evaluation() && !turn_spent;
  if (look || turn_spent) {
    // The root expanded on the first simulation's determinization, as the loop would.
    std::unique_ptr<State> sim = state.clone();
    sim->resample_hidden(root_player, mix(decision_seed, 0));
    expand(0, *sim);
    if (look) evaluate_root(*sim, root_player, cpu_start, turn_cpu_ms, mix(decision_seed, 0x6368616E6365ULL));
    if (turn_spent) {
      const uint32_t ei = select(0, *sim, false);
      if (ei != kNone) ++edges_[ei].visits;  // the pick below takes the visited edge
    }
  }
  int it = 0;
  for (; !turn_spent; ++it) {
    if (max_iters > 0 && it >= max_iters) break;
    // Neither check changes what an uncut search does, so iteration budgets stay
    // deterministic. The clock is read every 8 simulations (cheap games run millions a
    // second); the stop flag, a relaxed load, every time.
    if (timed && (it & 7) == 0 && it > 0 && Clock::now() >= deadline) break;
    // The turn clock's share is read every time: a share of one simulation must not run 8.
    if (turn_cpu_ms > 0 && it > 0 && thread_cpu_ms() - cpu_start >= turn_cpu_ms) break;
    if (limits.stop != nullptr && limits.stop->load(std::memory_order_relaxed)) break;
    if (limits.progress != nullptr) limits.progress->iterations.store(it, std::memory_order_relaxed);

    std::unique_ptr<State> sim = state.clone();
    sim->resample_hidden(root_player, mix(decision_seed, static_cast<uint64_t>(it)));
    path_.clear();
    uint32_t node = 0;
    values_.assign(sides, 0.0);
    for (;;) {
      if (sim->is_terminal()) {
        heuristics_->evaluate(*sim, values_);
        break;
      }
      if (!nodes_[node].expanded) {
        expand(node, *sim);
        if (node != 0) {
          rollout(*sim, values_, true);
          break;
        }
      }
      const Node& n = nodes_[node];
      if (n.edge_count == 0 || sim->current_player() != n.player) {
        rollout(*sim, values_);
        break;
      }
      const uint32_t ei = select(node, *sim, node != 0);
      if (ei == kNone) {
        rollout(*sim, values_);
        break;
      }
      const int player = n.player;
      if (!apply_edge(edges_[ei], *sim, player)) {
        rollout(*sim, values_);
        break;
      }
      path_.emplace_back(node, ei);
      if (edges_[ei].child == kNone) {
        edges_[ei].child = static_cast<uint32_t>(nodes_.size());
        nodes_.push_back(Node{});
      }
      node = edges_[ei].child;
    }
    values_.resize(sides, 0.0);
    for (double& v : values_) v = std::clamp(v, -1.0, 1.0);
    for (const auto& [ni, ei] : path_) {
      Node& n = nodes_[ni];
      Edge& e = edges_[ei];
      const double v = n.player >= 0 && static_cast<size_t>(n.player) < sides ? values_[n.player] : 0.0;
      ++n.visits;
      ++e.visits;
      e.value += v;
      if (config_.share_action_values) {
        Shared& sh = shared_[shared_key(n.player, steps_[e.step_begin])];
        ++sh.visits;
        sh.value += v;
      }
    }
  }

  stats_.iterations = it;
  if (clocked) {
    ++clock_.decisions;
    clock_.spent_iters += it;
  }
  if (limits.progress != nullptr) limits.progress->iterations.store(it, std::memory_order_relaxed);
  stats_.nodes = nodes_.size();
  stats_.edges = edges_.size();
  const Node& root = nodes_[0];
  uint32_t best = kNone;
  for (uint32_t i = 0; i < root.edge_count; ++i) {
    const Edge& e = edges_[root.edge_begin + i];
    const double mean = edge_mean(e);
    stats_.root.push_back(
        RootEdgeStats{steps_[e.step_begin], static_cast<int>(e.step_count), e.visits, mean, e.prior});
    // The root's edges were generated on a determinization; what the mover may do never
    // depends on what it cannot see, but a game that broke that rule must not make the
    // agent play an illegal move. (check() on the true state reads nothing hidden from
    // the mover: it only says whether the mover's own move is allowed.)
    if (!state.check(steps_[e.step_begin]).is_ok()) continue;
    if (best == kNone) {
      best = root.edge_begin + i;
      continue;
    }
    const Edge& b = edges_[best];
    const double bmean = edge_mean(b);
    if (e.visits > b.visits || (e.visits == b.visits && mean > bmean)) best = root.edge_begin + i;
  }
  if (best == kNone) {
    // No usable root edge: fall back to the first legal action.
    state.legal_actions(legal_);
    return legal_.front();
  }
  const Edge& chosen = edges_[best];
  if (config_.commit_plans && chosen.step_count > 1) {
    plan_.assign(steps_.begin() + chosen.step_begin + 1,
                 steps_.begin() + chosen.step_begin + chosen.step_count);
    plan_next_ = 0;
    plan_hash_ = hash_after(state, steps_[chosen.step_begin]);
  }
  return steps_[chosen.step_begin];
}

// ---------------------------------------------------------------------------------------
// Greedy

Action GreedyAgent::choose_within(const State& state, const SearchLimits& limits) {
  if (heuristics_game_ != &state.game()) {
    heuristics_ = make_heuristics(state.game());
    heuristics_game_ = &state.game();
  }
  const int me = state.current_player();
  const uint64_t sample_seed = mix(seed_, decisions_++);
  state.legal_actions(legal_);
  double best_value = -1e300;
  best_.clear();
  if (limits.progress != nullptr) {
    limits.progress->budget.store(static_cast<int64_t>(legal_.size()), std::memory_order_relaxed);
    limits.progress->iterations.store(0, std::memory_order_relaxed);
  }
  for (size_t i = 0; i < legal_.size(); ++i) {
    if (limits.stop != nullptr && limits.stop->load(std::memory_order_relaxed)) break;
    if (limits.deadline && (i & 7) == 7 && std::chrono::steady_clock::now() >= *limits.deadline) break;
    if (limits.progress != nullptr)
      limits.progress->iterations.store(static_cast<int64_t>(i), std::memory_order_relaxed);
    // The same determinization for every candidate (common random numbers), and never
    // the true state's hidden information.
    std::unique_ptr<State> c = state.clone();
    c->resample_hidden(me, sample_seed);
    if (!c->apply(legal_[i]).is_ok()) continue;
    heuristics_->evaluate(*c, values_);
    const double v = me >= 0 && static_cast<size_t>(me) < values_.size() ? values_[me] : 0.0;
    if (v > best_value + 1e-12) {
      best_value = v;
      best_.assign(1, i);
    } else if (std::abs(v - best_value) <= 1e-12) {
      best_.push_back(i);
    }
  }
  if (best_.empty()) return legal_.front();
  if (best_.size() > 1) {
    // Ties (actions that change nothing the evaluation measures, such as where a
    // reinforcement enters) go to the game's own move ordering, the prior mcts starts
    // from, read on a determinization; what ties there goes to the seeded generator.
    tied_.clear();
    for (size_t i : best_) tied_.push_back(legal_[i]);
    std::unique_ptr<State> c = state.clone();
    c->resample_hidden(me, sample_seed);
    heuristics_->prior(*c, tied_, weights_);
    if (weights_.size() == tied_.size()) {
      const float top = *std::max_element(weights_.begin(), weights_.end());
      size_t kept = 0;
      for (size_t k = 0; k < best_.size(); ++k)
        if (weights_[k] >= top) best_[kept++] = best_[k];
      best_.resize(kept);
    }
  }
  return legal_[best_[static_cast<size_t>(rng_.below(static_cast<int>(best_.size())))]];
}

}  // namespace steppe::ai
