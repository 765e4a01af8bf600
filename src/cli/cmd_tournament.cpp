// `steppe tournament GAME SCENARIO --agents A,B[,C...] --games N --seed S [--jobs J]
//  [--json] [--plot FILE.svg]`: every pair of agents plays N games in each seating; the
// report gives win rates with 95% Wilson intervals, mean VP, game length and Elo
// (docs/ai.md).
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "ai/tournament.h"
#include "cli/command.h"
#include "games/all_games.h"

namespace steppe::cli {
namespace {

struct TournamentArgs {
  std::string game;
  std::string scenario;
  std::string agents;
  int games = 10;
  uint64_t seed = 1;
  int jobs = 1;
  int max_plies = 200000;
  bool json = false;
  std::string plot;
  std::string data;
};

std::vector<std::string> split_agents(const std::string& s) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream is(s);
  while (std::getline(is, item, ',')) out.push_back(item);
  return out;
}

void draw_progress(int done, int total) {
  const int width = 40;
  const int filled = total > 0 ? done * width / total : width;
  std::string bar(static_cast<size_t>(filled), '=');
  bar.resize(static_cast<size_t>(width), ' ');
  std::fprintf(stderr, "\r[%s] %d/%d games", bar.c_str(), done, total);
  if (done == total) std::fprintf(stderr, "\n");
  std::fflush(stderr);
}

void fail(const std::string& msg) {
  std::cerr << "steppe tournament: " << msg << "\n";
  throw CLI::RuntimeError(1);
}

void run(const TournamentArgs& a) {
  const std::filesystem::path data = a.data.empty() ? default_data_dir() : std::filesystem::path(a.data);
  auto game = load_game(a.game, data);
  if (!game) fail(game.error().to_string());
  ai::TournamentConfig c;
  c.scenario = a.scenario;
  c.agents = split_agents(a.agents);
  c.games = a.games;
  c.seed = a.seed;
  c.jobs = a.jobs;
  c.max_plies = a.max_plies;
  if (isatty(fileno(stderr))) c.progress = draw_progress;
  auto rep = ai::run_tournament(*game.value(), c);
  if (!rep) fail(rep.error().to_string());
  if (!a.plot.empty()) {
    std::ofstream out(a.plot, std::ios::binary);
    if (!out) fail("cannot write the plot to '" + a.plot + "'");
    out << rep.value().to_svg();
    if (!out.flush()) fail("cannot write the plot to '" + a.plot + "'");
  }
  if (a.json) {
    std::cout << rep.value().to_json().dump(2) << "\n";
  } else {
    std::cout << rep.value().to_text();
    if (!a.plot.empty()) std::cout << "Plot written to " << a.plot << "\n";
  }
}

const CommandRegistrar registrar{
    "tournament", [](CLI::App& app) {
      auto args = std::make_shared<TournamentArgs>();
      CLI::App* sub = app.add_subcommand(
          "tournament", "Play agents against each other in both seats; win rates (95% Wilson CI), VP, Elo");
      sub->add_option("game", args->game, "game id (e.g. bd)")->required();
      sub->add_option("scenario", args->scenario, "scenario id")->required();
      sub->add_option("--agents", args->agents,
                      "comma-separated agent specs: random, greedy, mcts[:easy|normal|hard|iters=N|ms=N...]")
          ->required();
      sub->add_option("--games", args->games, "games per pair and seating")->check(CLI::Range(1, 1000000));
      sub->add_option("--seed", args->seed, "seed (the whole tournament is reproducible from it)");
      sub->add_option("--jobs,-j", args->jobs, "games played at once, in threads")->check(CLI::Range(1, 256));
      sub->add_option("--max-plies", args->max_plies, "decisions after which a game is scored a draw")
          ->check(CLI::Range(1, 100000000));
      sub->add_flag("--json", args->json, "print the report as JSON");
      sub->add_option("--plot", args->plot, "write an SVG bar chart of win rates with 95% CIs");
      sub->add_option("--data", args->data,
                      "data directory (default: the source tree's data/ or $STEPPE_DATA)");
      sub->callback([args] { run(*args); });
    }};

}  // namespace
}  // namespace steppe::cli
