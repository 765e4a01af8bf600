// `steppe selfplay GAME SCENARIO --seed N --agents A,B [-o FILE]`: agents play a whole
// game; prints a JSON summary (winner, final turn, VP, number of actions, final hash).
#include <iostream>
#include <sstream>

#include "ai/agent.h"
#include "cli/cli_util.h"
#include "cli/command.h"
#include "kernel/notation.h"

namespace steppe::cli {
namespace {

struct SelfplayArgs {
  std::string game;
  std::string scenario;
  uint64_t seed = 1;
  std::string agents = "random";
  std::string out;
  int64_t max_actions = 1000000;
  std::string data;
};

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream is(s);
  while (std::getline(is, item, ',')) out.push_back(item);
  return out;
}

void run(const SelfplayArgs& a) {
  auto g = load_game_or_fail("selfplay", a.game, a.data);
  const auto sides = g->side_names();
  std::vector<std::string> specs = split_commas(a.agents);
  if (specs.size() == 1) specs.resize(sides.size(), specs[0]);
  if (specs.size() != sides.size())
    fail("selfplay", "--agents names " + std::to_string(specs.size()) + " agents but " + g->id() + " has " +
                         std::to_string(sides.size()) + " sides");
  std::vector<std::unique_ptr<Agent>> agents;
  for (size_t i = 0; i < specs.size(); ++i) {
    auto ag = make_agent(specs[i], splitmix64(a.seed + i + 1));
    if (!ag) fail("selfplay", ag.error().to_string());
    agents.push_back(std::move(ag).value());
  }
  auto m = Match::start(*g, a.scenario, a.seed);
  if (!m) fail("selfplay", m.error().to_string());
  Match& match = **m;
  int last_turn = 0;
  for (const auto& s : g->scenarios())
    if (s.id == a.scenario) last_turn = s.last_turn;
  Progress progress("selfplay", last_turn > 0 ? last_turn : a.max_actions);
  while (!match.state().is_terminal() && static_cast<int64_t>(match.size()) < a.max_actions) {
    const int side = match.state().current_player();
    const Action act = agents[static_cast<size_t>(side)]->choose(match.state());
    if (Status s = match.apply(act); !s.is_ok())
      fail("selfplay", "agent " + specs[static_cast<size_t>(side)] + " chose an illegal action '" +
                           match.state().action_to_string(act) + "': " + s.error().to_string());
    if (!a.out.empty() && match.size() % 1000 == 0) (void)match.save_file(a.out);
    const Json r = match.state().result();
    const int64_t turn = r.contains("turn") && r["turn"].is_number_integer() ? r["turn"].get<int64_t>() : 0;
    progress.update(last_turn > 0 ? turn : static_cast<int64_t>(match.size()),
                    std::to_string(match.size()) + " actions");
  }
  progress.finish();
  if (!a.out.empty())
    if (Status s = match.save_file(a.out); !s.is_ok()) fail("selfplay", s.error().to_string());
  const Json r = match.state().result();
  Json summary{{"game", g->id()},
               {"scenario", a.scenario},
               {"seed", a.seed},
               {"agents", specs},
               {"finished", match.state().is_terminal()},
               {"winner", r.value("winner", Json())},
               {"turn", r.value("turn", Json())},
               {"vp", r.value("vp", Json())},
               {"result", r},
               {"actions", match.size()},
               {"final_hash", hash_to_hex(match.state().state_hash())}};
  std::cout << summary.dump(2) << "\n";
}

CommandRegistrar selfplay_cmd("selfplay", [](CLI::App& app) {
  auto a = std::make_shared<SelfplayArgs>();
  auto* sub = app.add_subcommand("selfplay", "agents play a whole game; prints a JSON summary");
  sub->add_option("game", a->game, "game id")->required();
  sub->add_option("scenario", a->scenario, "scenario id")->required();
  sub->add_option("--seed", a->seed, "seed of the dice and the agents (default 1)");
  sub->add_option("--agents", a->agents, "agent specs per side, comma-separated (one = all sides)");
  sub->add_option("-o,--output", a->out, "also save the game to this file");
  sub->add_option("--max-actions", a->max_actions, "stop after this many actions (default 1000000)")
      ->check(CLI::PositiveNumber);
  add_data_option(sub, a->data);
  sub->callback([a] { run(*a); });
});

}  // namespace
}  // namespace steppe::cli
