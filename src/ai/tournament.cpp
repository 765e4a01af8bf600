#include "ai/tournament.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "ai/agent.h"
#include "ai/heuristics.h"
#include "ai/mcts.h"

namespace steppe::ai {

Interval wilson_interval(double successes, double n, double z) {
  if (n <= 0) return {0.0, 1.0};
  const double p = successes / n;
  const double z2 = z * z;
  const double denom = 1.0 + z2 / n;
  const double center = (p + z2 / (2.0 * n)) / denom;
  const double half = z / denom * std::sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n));
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

std::vector<double> fit_elo(int agents, const std::vector<PairResult>& results, double prior_draws,
                            int max_iterations) {
  const auto n = static_cast<size_t>(std::max(0, agents));
  std::vector<double> wins(n, 0.0);
  std::vector<std::vector<double>> games(n, std::vector<double>(n, 0.0));
  for (const PairResult& r : results) {
    if (r.i < 0 || r.j < 0 || static_cast<size_t>(r.i) >= n || static_cast<size_t>(r.j) >= n || r.i == r.j)
      continue;
    const auto i = static_cast<size_t>(r.i), j = static_cast<size_t>(r.j);
    wins[i] += r.score_i;
    wins[j] += r.games - r.score_i;
    games[i][j] += r.games;
    games[j][i] += r.games;
  }
  if (prior_draws > 0) {
    for (size_t i = 0; i < n; ++i)
      for (size_t j = i + 1; j < n; ++j)
        if (games[i][j] > 0) {
          games[i][j] += prior_draws;
          games[j][i] += prior_draws;
          wins[i] += prior_draws / 2;
          wins[j] += prior_draws / 2;
        }
  }
  std::vector<double> g(n, 1.0), next(n, 1.0);
  for (int it = 0; it < max_iterations; ++it) {
    double change = 0.0;
    for (size_t i = 0; i < n; ++i) {
      double denom = 0.0;
      for (size_t j = 0; j < n; ++j)
        if (j != i && games[i][j] > 0) denom += games[i][j] / (g[i] + g[j]);
      next[i] = denom > 0 ? std::max(wins[i] / denom, 1e-300) : g[i];
    }
    // Normalise to geometric mean 1 (the model fixes only ratios).
    double log_mean = 0.0;
    for (size_t i = 0; i < n; ++i) log_mean += std::log(next[i]);
    log_mean /= static_cast<double>(std::max<size_t>(n, 1));
    for (size_t i = 0; i < n; ++i) {
      next[i] = std::exp(std::log(next[i]) - log_mean);
      change = std::max(change, std::abs(std::log(next[i]) - std::log(g[i])));
    }
    g.swap(next);
    if (change < 1e-13) break;
  }
  std::vector<double> elo(n);
  for (size_t i = 0; i < n; ++i) elo[i] = 1500.0 + 400.0 * std::log10(g[i]);
  return elo;
}

namespace {

uint64_t mix(uint64_t a, uint64_t b) { return splitmix64(a ^ splitmix64(b + 0x2545F4914F6CDD1DULL)); }

std::optional<double> number_of(const Json& j) {
  if (j.is_number()) return j.get<double>();
  return std::nullopt;
}

// VP per side from result()["vp"]: an object keyed by side name or an array by side.
std::vector<std::optional<double>> vp_per_side(const Json& result, const std::vector<std::string>& sides) {
  std::vector<std::optional<double>> out(sides.size());
  if (!result.is_object() || !result.contains("vp")) return out;
  const Json& vp = result["vp"];
  for (size_t s = 0; s < sides.size(); ++s) {
    if (vp.is_object() && vp.contains(sides[s])) out[s] = number_of(vp[sides[s]]);
    if (vp.is_array() && s < vp.size()) out[s] = number_of(vp[s]);
  }
  return out;
}

// Sums each side's thinking per turn (GameRecord's timing fields). A turn is what the
// agents' turn clocks count (Heuristics::turn_key: a BD game turn, a Moscow '41 impulse).
class TurnClock {
 public:
  TurnClock(GameRecord& rec, const Game& game) : rec_(rec), heuristics_(make_heuristics(game)) {}
  void decided(const State& state, int side, double ms) {
    const Json r = state.result();
    int64_t key = 0;
    if (r.is_object() && r.contains("turn") && r["turn"].is_number_integer()) {
      key = heuristics_->turn_key(state);
    } else {  // a round: side 0's decisions then side 1's
      if (side == 0 && last_side_ == 1) ++rounds_;
      key = rounds_;
    }
    last_side_ = side;
    if (key != key_) close();
    key_ = key;
    ++rec_.decisions[static_cast<size_t>(side)];
    rec_.think_ms[static_cast<size_t>(side)] += ms;
    this_turn_[static_cast<size_t>(side)] += ms;
    decided_[static_cast<size_t>(side)] = true;
  }
  void close() {
    for (size_t s = 0; s < 2; ++s) {
      if (!decided_[s]) continue;
      ++rec_.turns[s];
      rec_.max_turn_ms[s] = std::max(rec_.max_turn_ms[s], this_turn_[s]);
      this_turn_[s] = 0.0;
      decided_[s] = false;
    }
  }

 private:
  GameRecord& rec_;
  std::unique_ptr<Heuristics> heuristics_;
  int64_t key_ = -1, rounds_ = 0;
  int last_side_ = -1;
  std::array<double, 2> this_turn_{};
  std::array<bool, 2> decided_{};
};

void play_one(const Game& game, const TournamentConfig& config, const std::vector<std::string>& sides,
              GameRecord& rec) {
  auto st = game.new_state(config.scenario, rec.seed);
  if (!st) {
    rec.error = st.error().to_string();
    return;
  }
  std::unique_ptr<State> state = std::move(st).value();
  std::unique_ptr<Agent> agents[2];
  for (int side = 0; side < 2; ++side) {
    const auto spec = config.agents[static_cast<size_t>(rec.seat_agent[side])];
    auto a = make_agent(spec, mix(rec.seed, static_cast<uint64_t>(side) + 1));
    if (!a) {
      rec.error = a.error().to_string();
      return;
    }
    agents[side] = std::move(a).value();
  }
  TurnClock clock(rec, game);
  while (!state->is_terminal() && rec.plies < config.max_plies) {
    const int side = state->current_player();
    if (side < 0 || side > 1) {
      rec.error = "the game reports side " + std::to_string(side) + " to move";
      return;
    }
    const double t0 = thread_cpu_ms();
    const Action a = agents[side]->choose(*state);
    clock.decided(*state, side, thread_cpu_ms() - t0);
    if (Status s = state->apply(a); !s) {
      rec.error = agents[side]->name() + " chose an illegal action '" + state->action_to_string(a) +
                  "': " + s.error().to_string();
      rec.error_side = side;
      rec.winner = 1 - side;
      return;
    }
    ++rec.plies;
  }
  clock.close();
  rec.result = state->result();
  rec.vp = vp_per_side(rec.result, sides);
  if (rec.result.is_object() && rec.result.contains("vp")) rec.scenario_vp = number_of(rec.result["vp"]);
  if (!state->is_terminal()) {
    rec.unfinished = true;
    rec.winner = -1;
    return;
  }
  rec.returns = state->returns();
  rec.returns.resize(2, 0.0);
  rec.winner = rec.returns[0] > rec.returns[1] ? 0 : rec.returns[1] > rec.returns[0] ? 1 : -1;
}

std::string fmt(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

Result<TournamentReport> run_tournament(const Game& game, const TournamentConfig& config) {
  const std::vector<std::string> sides = game.side_names();
  if (sides.size() != 2)
    return Error{"tournaments are for two-sided games; '" + game.id() + "' has " +
                     std::to_string(sides.size()) + " sides",
                 "", "tournament"};
  if (config.agents.size() < 2) return Error{"a tournament needs at least two agents", "", "--agents"};
  if (config.games < 1) return Error{"--games must be at least 1", "", "--games"};
  if (config.jobs < 1) return Error{"--jobs must be at least 1", "", "--jobs"};
  for (const auto& spec : config.agents)
    if (auto a = make_agent(spec, 0); !a) return a.error();
  if (auto s = game.new_state(config.scenario, config.seed); !s) return s.error();

  TournamentReport rep;
  rep.game = game.id();
  rep.scenario = config.scenario;
  rep.seed = config.seed;
  rep.games_per_seating = config.games;
  rep.side_names = sides;
  const int n_agents = static_cast<int>(config.agents.size());
  std::map<std::string, int> seen;
  for (const auto& spec : config.agents) {
    AgentSummary s;
    const int k = ++seen[spec];
    s.name = k == 1 ? spec : spec + "#" + std::to_string(k);
    rep.agents.push_back(s);
  }

  // Schedule: for each pair (a < b), `games` games with a first, `games` with b first.
  for (int a = 0; a < n_agents; ++a)
    for (int b = a + 1; b < n_agents; ++b)
      for (int g = 0; g < config.games; ++g)
        for (int seating = 0; seating < 2; ++seating) {
          GameRecord r;
          r.index = static_cast<int>(rep.records.size());
          r.seat_agent[0] = seating == 0 ? a : b;
          r.seat_agent[1] = seating == 0 ? b : a;
          r.seed = mix(config.seed, static_cast<uint64_t>(r.index));
          rep.records.push_back(r);
        }

  const int total = static_cast<int>(rep.records.size());
  std::atomic<int> next{0};
  std::mutex progress_mutex;
  int done = 0;
  auto worker = [&] {
    for (;;) {
      const int i = next.fetch_add(1);
      if (i >= total) return;
      play_one(game, config, sides, rep.records[static_cast<size_t>(i)]);
      const std::lock_guard<std::mutex> lock(progress_mutex);
      ++done;
      if (config.progress) config.progress(done, total);
    }
  };
  const int threads = std::min(config.jobs, total);
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(static_cast<size_t>(threads));
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }

  // Summaries.
  std::vector<double> vp_sum(static_cast<size_t>(n_agents), 0.0),
      plies_sum(static_cast<size_t>(n_agents), 0.0);
  std::vector<int> vp_count(static_cast<size_t>(n_agents), 0);
  std::vector<std::array<double, 2>> svp_sum(static_cast<size_t>(n_agents), {0.0, 0.0});
  std::vector<std::array<int, 2>> svp_count(static_cast<size_t>(n_agents), {0, 0});
  struct Timing {
    int decisions = 0, turns = 0;
    double ms = 0.0, max_turn_ms = 0.0;
  };
  std::vector<Timing> timing(static_cast<size_t>(n_agents));
  std::map<std::pair<int, int>, PairSummary> pairs;
  double turn_sum = 0.0;
  int turn_count = 0;
  double plies_total = 0.0;
  for (const GameRecord& r : rep.records) {
    plies_total += r.plies;
    if (r.result.is_object() && r.result.contains("turn") && r.result["turn"].is_number()) {
      turn_sum += r.result["turn"].get<double>();
      ++turn_count;
    }
    const int a = std::min(r.seat_agent[0], r.seat_agent[1]);
    const int b = std::max(r.seat_agent[0], r.seat_agent[1]);
    PairSummary& p = pairs[{a, b}];
    p.a = a;
    p.b = b;
    ++p.games;
    for (int side = 0; side < 2; ++side) {
      const auto ag = static_cast<size_t>(r.seat_agent[side]);
      AgentSummary& s = rep.agents[ag];
      ++s.games;
      plies_sum[ag] += r.plies;
      const auto sd = static_cast<size_t>(side);
      timing[ag].decisions += r.decisions[sd];
      timing[ag].ms += r.think_ms[sd];
      timing[ag].turns += r.turns[sd];
      timing[ag].max_turn_ms = std::max(timing[ag].max_turn_ms, r.max_turn_ms[sd]);
      if (r.winner == side) {
        ++s.wins;
      } else if (r.winner < 0) {
        ++s.draws;
      } else {
        ++s.losses;
      }
      if (r.scenario_vp) {
        svp_sum[ag][static_cast<size_t>(side)] += *r.scenario_vp;
        ++svp_count[ag][static_cast<size_t>(side)];
      }
      if (static_cast<size_t>(side) < r.vp.size() && r.vp[static_cast<size_t>(side)]) {
        vp_sum[ag] += *r.vp[static_cast<size_t>(side)];
        ++vp_count[ag];
      }
    }
    if (r.winner < 0) {
      ++p.draws;
    } else {
      const int winner_agent = r.seat_agent[r.winner];
      if (winner_agent == a) {
        ++p.a_wins;
        if (r.winner == 0) ++p.a_wins_as_first;
      } else {
        ++p.b_wins;
        if (r.winner == 0) ++p.b_wins_as_first;
      }
    }
  }
  rep.mean_plies = total > 0 ? plies_total / total : 0.0;
  if (turn_count > 0) rep.mean_turn = turn_sum / turn_count;
  std::vector<PairResult> results;
  for (auto& [key, p] : pairs) {
    p.a_win_ci = wilson_interval(p.a_wins, p.games);
    rep.pairs.push_back(p);
    results.push_back(PairResult{p.a, p.b, p.a_wins + 0.5 * p.draws, static_cast<double>(p.games)});
  }
  const std::vector<double> elo = fit_elo(n_agents, results, config.elo_prior_draws);
  for (size_t i = 0; i < rep.agents.size(); ++i) {
    AgentSummary& s = rep.agents[i];
    s.win_rate = s.games > 0 ? static_cast<double>(s.wins) / s.games : 0.0;
    s.win_ci = wilson_interval(s.wins, s.games);
    s.score = s.games > 0 ? (s.wins + 0.5 * s.draws) / s.games : 0.0;
    if (vp_count[i] > 0) s.mean_vp = vp_sum[i] / vp_count[i];
    for (size_t seat = 0; seat < 2; ++seat)
      if (svp_count[i][seat] > 0) s.scenario_vp_by_seat[seat] = svp_sum[i][seat] / svp_count[i][seat];
    s.mean_plies = s.games > 0 ? plies_sum[i] / s.games : 0.0;
    s.elo = elo[i];
    s.ms_per_decision = timing[i].decisions > 0 ? timing[i].ms / timing[i].decisions : 0.0;
    s.ms_per_turn = timing[i].turns > 0 ? timing[i].ms / timing[i].turns : 0.0;
    s.max_turn_ms = timing[i].max_turn_ms;
  }
  return rep;
}

Json TournamentReport::to_json() const {
  Json j;
  j["game"] = game;
  j["scenario"] = scenario;
  j["seed"] = seed;
  j["games_per_seating"] = games_per_seating;
  j["sides"] = side_names;
  j["mean_plies"] = mean_plies;
  j["mean_turn"] = mean_turn ? Json(*mean_turn) : Json(nullptr);
  j["agents"] = Json::array();
  j["timing"] = Json::array();  // CPU times: not reproducible, unlike the rest
  for (const auto& a : agents) {
    j["timing"].push_back(Json{{"name", a.name},
                               {"cpu_ms_per_decision", a.ms_per_decision},
                               {"cpu_ms_per_turn", a.ms_per_turn},
                               {"cpu_ms_longest_turn", a.max_turn_ms}});
    j["agents"].push_back(Json{{"name", a.name},
                               {"games", a.games},
                               {"wins", a.wins},
                               {"draws", a.draws},
                               {"losses", a.losses},
                               {"win_rate", a.win_rate},
                               {"win_ci95", {a.win_ci.lo, a.win_ci.hi}},
                               {"score", a.score},
                               {"mean_vp", a.mean_vp ? Json(*a.mean_vp) : Json(nullptr)},
                               {"scenario_vp_by_seat",
                                {a.scenario_vp_by_seat[0] ? Json(*a.scenario_vp_by_seat[0]) : Json(nullptr),
                                 a.scenario_vp_by_seat[1] ? Json(*a.scenario_vp_by_seat[1]) : Json(nullptr)}},
                               {"mean_plies", a.mean_plies},
                               {"elo", a.elo}});
  }
  j["pairs"] = Json::array();
  for (const auto& p : pairs) {
    j["pairs"].push_back(Json{{"a", agents[static_cast<size_t>(p.a)].name},
                              {"b", agents[static_cast<size_t>(p.b)].name},
                              {"games", p.games},
                              {"a_wins", p.a_wins},
                              {"b_wins", p.b_wins},
                              {"draws", p.draws},
                              {"a_wins_as_first", p.a_wins_as_first},
                              {"b_wins_as_first", p.b_wins_as_first},
                              {"a_win_ci95", {p.a_win_ci.lo, p.a_win_ci.hi}}});
  }
  j["games"] = Json::array();
  for (const auto& r : records) {
    Json g{{"index", r.index},
           {"seed", r.seed},
           {"agents",
            {agents[static_cast<size_t>(r.seat_agent[0])].name,
             agents[static_cast<size_t>(r.seat_agent[1])].name}},
           {"winner", r.winner >= 0 ? Json(side_names[static_cast<size_t>(r.winner)]) : Json("draw")},
           {"plies", r.plies},
           {"unfinished", r.unfinished},
           {"result", r.result}};
    if (!r.error.empty()) g["error"] = r.error;
    j["games"].push_back(std::move(g));
  }
  return j;
}

std::string TournamentReport::to_text() const {
  std::ostringstream os;
  os << "Tournament: " << game << " / " << scenario << ", " << agents.size() << " agents, "
     << games_per_seating << " game(s) per pair and seating, seed " << seed << "\n\n";
  size_t w = 5;
  for (const auto& a : agents) w = std::max(w, a.name.size());
  char line[512];
  std::snprintf(line, sizeof line, "%-*s %6s %5s %5s %5s %7s  %-15s %6s %13s %7s\n", static_cast<int>(w),
                "agent", "games", "W", "D", "L", "win%", "95% CI", "score", "mean VP", "Elo");
  os << line;
  std::vector<size_t> order(agents.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  bool scenario_vp = false;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t x, size_t y) { return agents[x].elo > agents[y].elo; });
  for (size_t i : order) {
    const auto& a = agents[i];
    const std::string ci = fmt(100 * a.win_ci.lo, 1) + "-" + fmt(100 * a.win_ci.hi, 1) + "%";
    std::string vp = "-";
    if (a.mean_vp) {
      vp = fmt(*a.mean_vp, 2);
    } else if (a.scenario_vp_by_seat[0] || a.scenario_vp_by_seat[1]) {
      scenario_vp = true;
      vp = (a.scenario_vp_by_seat[0] ? fmt(*a.scenario_vp_by_seat[0], 1) : "-") + " / " +
           (a.scenario_vp_by_seat[1] ? fmt(*a.scenario_vp_by_seat[1], 1) : "-");
    }
    std::snprintf(line, sizeof line, "%-*s %6d %5d %5d %5d %6.1f%%  %-15s %6.3f %13s %7.0f\n",
                  static_cast<int>(w), a.name.c_str(), a.games, a.wins, a.draws, a.losses, 100 * a.win_rate,
                  ci.c_str(), a.score, vp.c_str(), a.elo);
    os << line;
  }
  if (scenario_vp)
    os << "(mean VP: the game's single VP figure, averaged over the agent's games as " << side_names[0]
       << " / as " << side_names[1] << ")\n";
  os << "\nThinking (CPU time of the playing thread): per decision / per turn on average / longest turn\n";
  for (size_t i : order) {
    const auto& a = agents[i];
    std::snprintf(line, sizeof line, "  %-*s %10.1f ms %10.1f ms %10.1f ms\n", static_cast<int>(w),
                  a.name.c_str(), a.ms_per_decision, a.ms_per_turn, a.max_turn_ms);
    os << line;
  }
  os << "\nPairings (wins as first side in brackets):\n";
  for (const auto& p : pairs) {
    const auto& an = agents[static_cast<size_t>(p.a)].name;
    const auto& bn = agents[static_cast<size_t>(p.b)].name;
    os << "  " << an << " vs " << bn << ": " << p.a_wins << " (" << p.a_wins_as_first << ") - " << p.b_wins
       << " (" << p.b_wins_as_first << "), " << p.draws << " draw(s); " << an << " wins "
       << fmt(100.0 * p.a_wins / p.games, 1) << "% [" << fmt(100 * p.a_win_ci.lo, 1) << ", "
       << fmt(100 * p.a_win_ci.hi, 1) << "]\n";
  }
  os << "\nMean game length: " << fmt(mean_plies, 1) << " decisions";
  if (mean_turn) os << ", ending on turn " << fmt(*mean_turn, 1) << " on average";
  os << "\n";
  int errors = 0, unfinished = 0;
  for (const auto& r : records) {
    errors += r.error.empty() ? 0 : 1;
    unfinished += r.unfinished ? 1 : 0;
  }
  if (unfinished > 0) os << unfinished << " game(s) hit the decision limit and were scored as draws\n";
  if (errors > 0) {
    os << errors << " game(s) ended by an error:\n";
    for (const auto& r : records)
      if (!r.error.empty()) os << "  game " << r.index << ": " << r.error << "\n";
  }
  os << "Elo: Bradley-Terry maximum likelihood, draws as half wins, one virtual draw per pair, mean 1500.\n";
  return os.str();
}

std::string TournamentReport::to_svg() const {
  const int bar = 70, gap = 60, left = 60, top = 60, height = 300;
  const int width = std::max(560, left + static_cast<int>(agents.size()) * (bar + gap) + gap);
  const int total_h = top + height + 90;
  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << total_h
     << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  os << "<title>" << xml_escape(game + " / " + scenario) << ": win rate with 95% Wilson interval</title>\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  os << "<text x=\"" << left << "\" y=\"22\" font-size=\"15\">" << xml_escape(game + " / " + scenario)
     << ": win rate with 95% Wilson interval</text>\n";
  os << "<text x=\"" << left << "\" y=\"40\" fill=\"#555\">" << games_per_seating
     << " game(s) per pair and seating, seed " << seed << "</text>\n";
  auto y_of = [&](double rate) { return top + height - static_cast<int>(std::lround(rate * height)); };
  for (int pct = 0; pct <= 100; pct += 25) {
    const int y = y_of(pct / 100.0);
    os << "<line x1=\"" << left << "\" y1=\"" << y << "\" x2=\"" << width - gap / 2 << "\" y2=\"" << y
       << "\" stroke=\"#ddd\"/>\n";
    os << "<text x=\"" << left - 8 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">" << pct << "%</text>\n";
  }
  for (size_t i = 0; i < agents.size(); ++i) {
    const auto& a = agents[i];
    const int x = left + gap + static_cast<int>(i) * (bar + gap);
    const int y = y_of(a.win_rate);
    os << "<rect class=\"bar\" x=\"" << x << "\" y=\"" << y << "\" width=\"" << bar << "\" height=\""
       << top + height - y << "\" fill=\"#4a7ab5\"><title>" << xml_escape(a.name) << ": "
       << fmt(100 * a.win_rate, 1) << "%</title></rect>\n";
    const int cx = x + bar / 2, ylo = y_of(a.win_ci.lo), yhi = y_of(a.win_ci.hi);
    os << "<g class=\"ci\" stroke=\"black\"><line x1=\"" << cx << "\" y1=\"" << ylo << "\" x2=\"" << cx
       << "\" y2=\"" << yhi << "\"/><line x1=\"" << cx - 8 << "\" y1=\"" << ylo << "\" x2=\"" << cx + 8
       << "\" y2=\"" << ylo << "\"/><line x1=\"" << cx - 8 << "\" y1=\"" << yhi << "\" x2=\"" << cx + 8
       << "\" y2=\"" << yhi << "\"/></g>\n";
    os << "<text x=\"" << cx << "\" y=\"" << top + height + 16 << "\" text-anchor=\"middle\">"
       << xml_escape(a.name) << "</text>\n";
    os << "<text x=\"" << cx << "\" y=\"" << top + height + 32
       << "\" text-anchor=\"middle\" fill=\"#555\">Elo " << fmt(a.elo, 0) << "</text>\n";
  }
  os << "</svg>\n";
  return os.str();
}

}  // namespace steppe::ai
