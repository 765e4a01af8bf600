// `steppe selfplay GAME SCENARIO --seed N --agents A,B [-o FILE]`: agents play a whole
// game; prints a JSON summary (winner, final turn, VP, number of actions, final hash).
// `--timeline FILE.csv` records the game's numeric result fields (turn, VP, ...) at the first
// action of every new turn and at the end; `--until-turn T` stops once turn T is over (for
// pace runs such as docs/ai-pace.md).
#include <fstream>
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
  int64_t until_turn = 0;
  std::string timeline;
  std::string data;
};

// One CSV row per new turn: the action count and every numeric top-level field of result().
class TimelineWriter {
 public:
  explicit TimelineWriter(const std::string& path) {
    if (path.empty()) return;
    out_.open(path);
    if (!out_) fail("selfplay", "cannot write the timeline to '" + path + "'");
  }
  void add(size_t actions, const Json& result, bool force) {
    if (!out_.is_open() || !result.is_object()) return;
    const int64_t turn = result.value("turn", int64_t{0});
    if (!force && turn == last_turn_) return;
    last_turn_ = turn;
    if (columns_.empty()) {
      for (const auto& [k, v] : result.items())
        if (v.is_number()) columns_.push_back(k);
      out_ << "actions";
      for (const auto& c : columns_) out_ << ',' << c;
      out_ << '\n';
    }
    out_ << actions;
    for (const auto& c : columns_) {
      out_ << ',';
      if (result.contains(c) && result[c].is_number()) out_ << result[c].dump();
    }
    out_ << '\n' << std::flush;
  }

 private:
  std::ofstream out_;
  std::vector<std::string> columns_;
  int64_t last_turn_ = -1;
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
  TimelineWriter timeline(a.timeline);
  timeline.add(match.size(), match.state().result(), true);
  while (!match.state().is_terminal() && static_cast<int64_t>(match.size()) < a.max_actions) {
    const int side = match.state().current_player();
    const Action act = agents[static_cast<size_t>(side)]->choose(match.state());
    if (Status s = match.apply(act); !s.is_ok())
      fail("selfplay", "agent " + specs[static_cast<size_t>(side)] + " chose an illegal action '" +
                           match.state().action_to_string(act) + "': " + s.error().to_string());
    if (!a.out.empty() && match.size() % 1000 == 0) (void)match.save_file(a.out);
    const Json r = match.state().result();
    const int64_t turn = r.contains("turn") && r["turn"].is_number_integer() ? r["turn"].get<int64_t>() : 0;
    timeline.add(match.size(), r, false);
    if (a.until_turn > 0 && turn > a.until_turn) break;
    progress.update(last_turn > 0 ? turn : static_cast<int64_t>(match.size()),
                    std::to_string(match.size()) + " actions");
  }
  progress.finish();
  timeline.add(match.size(), match.state().result(), true);
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
  sub->add_option("--until-turn", a->until_turn, "stop when this turn is over (0: play to the end)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--timeline", a->timeline,
                  "write turn, VP and the other numeric result fields per turn (CSV)");
  add_data_option(sub, a->data);
  sub->callback([a] { run(*a); });
});

}  // namespace
}  // namespace steppe::cli
