// Tournaments between agents (`steppe tournament`, docs/ai.md): every pair of agents plays
// `games` games with each agent in each seat, from one scenario; the report gives win
// rates with 95% Wilson intervals, mean victory points, game length and an Elo table
// fitted by maximum likelihood (Bradley-Terry). Reproducible from the seed whatever the
// number of threads: each game's seeds are a function of (seed, game index) only.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernel/state.h"

namespace steppe::ai {

struct Interval {
  double lo = 0.0;
  double hi = 0.0;
};

// 95% (z = 1.96) Wilson score interval of `successes` out of `n` (n > 0).
Interval wilson_interval(double successes, double n, double z = 1.959963984540054);

// Results between two agents, from i's point of view: score_i = wins + draws / 2.
struct PairResult {
  int i = 0;
  int j = 0;
  double score_i = 0.0;
  double games = 0.0;
};

// Elo ratings by maximum likelihood of the Bradley-Terry model (P(i beats j) =
// g_i / (g_i + g_j), draws counted as half a win each), fitted by the MM iteration
// (Hunter 2004). `prior_draws` virtual drawn games are added to every pair that played,
// which keeps ratings finite when an agent won or lost everything (0 = pure MLE).
// Ratings are 400·log10(g) shifted so that their mean is 1500.
std::vector<double> fit_elo(int agents, const std::vector<PairResult>& results, double prior_draws = 1.0,
                            int max_iterations = 100000);

struct TournamentConfig {
  std::string scenario;
  std::vector<std::string> agents;  // agent specs (make_agent), at least two
  int games = 10;                   // games per pair and seating (a pair plays 2 × games)
  uint64_t seed = 1;
  int jobs = 1;            // threads
  int max_plies = 200000;  // a game still running after this is scored a draw
  double elo_prior_draws = 1.0;
  // Called after each finished game (done, total), serialised by the tournament.
  std::function<void(int, int)> progress;
};

struct GameRecord {
  int index = 0;
  int seat_agent[2] = {0, 0};  // agent index playing side 0 and side 1
  uint64_t seed = 0;           // the game's seed (new_state)
  int winner = -1;             // winning side, -1 draw
  bool unfinished = false;     // stopped by max_plies (scored a draw)
  std::vector<double> returns;
  std::vector<std::optional<double>> vp;  // per side, when result() has "vp" per side
  std::optional<double> scenario_vp;      // when result()["vp"] is one number (e.g. BD's VP total)
  int plies = 0;
  Json result;
  std::string error;  // an agent's illegal action (that agent's side loses) or a game error
  int error_side = -1;
  // Thinking time per side, in CPU milliseconds of the playing thread (not reproducible:
  // kept out of the report's JSON "games" and "agents", see "timing"). A turn is a game turn
  // (result()["turn"]) or, for a game without one, a round of both sides' decisions.
  std::array<int, 2> decisions{};
  std::array<double, 2> think_ms{};
  std::array<int, 2> turns{};           // turns in which the side made at least one decision
  std::array<double, 2> max_turn_ms{};  // the most thinking in one turn
};

struct AgentSummary {
  std::string name;
  int games = 0, wins = 0, draws = 0, losses = 0;
  double win_rate = 0.0;
  Interval win_ci;
  double score = 0.0;             // (wins + draws/2) / games
  std::optional<double> mean_vp;  // own VP, when the game reports VP per side
  // Mean of a single-number result()["vp"] over this agent's games as side 0 / side 1.
  std::optional<double> scenario_vp_by_seat[2];
  double mean_plies = 0.0;
  double elo = 1500.0;
  // Thinking (CPU ms, see GameRecord): per decision, per turn on average, in the longest turn.
  double ms_per_decision = 0.0, ms_per_turn = 0.0, max_turn_ms = 0.0;
};

struct PairSummary {
  int a = 0, b = 0;  // agent indices, a < b
  int games = 0, a_wins = 0, b_wins = 0, draws = 0;
  int a_wins_as_first = 0, b_wins_as_first = 0;
  Interval a_win_ci;
};

struct TournamentReport {
  std::string game;
  std::string scenario;
  uint64_t seed = 0;
  int games_per_seating = 0;
  std::vector<std::string> side_names;
  std::vector<AgentSummary> agents;
  std::vector<PairSummary> pairs;
  std::vector<GameRecord> records;
  double mean_plies = 0.0;
  std::optional<double> mean_turn;  // from result()["turn"]

  // Everything but "timing" (CPU times per agent) is a function of the configuration.
  Json to_json() const;
  std::string to_text() const;
  std::string to_svg() const;  // bar chart of win rates with their 95% intervals
};

Result<TournamentReport> run_tournament(const Game& game, const TournamentConfig& config);

}  // namespace steppe::ai
