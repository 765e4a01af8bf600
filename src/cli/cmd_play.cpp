// `steppe play GAME SCENARIO [--agent A --side S] [--seed N]`: play in the terminal,
// hot-seat or against an agent. Shows the position summary and the numbered legal
// actions; accepts a number or the notation, `undo`, `save FILE`, `log`, `obs`, `quit`.
#include <unistd.h>

#include <iostream>
#include <random>

#include "ai/agent.h"
#include "cli/cli_util.h"
#include "cli/command.h"
#include "kernel/notation.h"

namespace steppe::cli {
namespace {

struct PlayArgs {
  std::string game;
  std::string scenario;
  std::string agent;
  int side = 1;
  uint64_t seed = 1;
  std::string load;
  int list = 40;
  std::string data;
};

// The observation's top-level scalars in one line ("turn 3, phase movement, ...").
std::string summary_line(const Json& obs) {
  std::string s;
  if (!obs.is_object()) return obs.dump();
  for (const auto& [k, v] : obs.items()) {
    if (v.is_object() || v.is_array()) continue;
    if (!s.empty()) s += ", ";
    s += k + " " + (v.is_string() ? v.get<std::string>() : v.dump());
  }
  return s;
}

bool sees(const Event& ev, int viewer) {
  return viewer >= 0 && viewer < 32 && ((ev.visible_to >> viewer) & 1u);
}

// One action as `viewer` may know it, as the browser shows it: its notation only when it is
// the viewer's own or every event it made reaches that side (a hidden move or deployment reaches it only as
// the events its rules allow, and the notation would name the hidden unit), then those events.
void print_action(const LogEntry& e, const std::string& who, int viewer) {
  bool open = !e.events.empty() || e.side == viewer;
  for (const auto& ev : e.events) open = open && (e.side == viewer || sees(ev, viewer));
  std::cout << who << ": " << (open ? e.action : std::string("(an action hidden from you)")) << "\n";
  for (const auto& ev : e.events)
    if (sees(ev, viewer)) std::cout << event_line(ev) << "\n";
}

void run(const PlayArgs& a) {
  auto g = load_game_or_fail("play", a.game, a.data);
  const auto sides = g->side_names();
  std::unique_ptr<Agent> agent;
  if (!a.agent.empty()) {
    if (a.side < 0 || static_cast<size_t>(a.side) >= sides.size())
      fail("play", "--side must be 0.." + std::to_string(sides.size() - 1));
    auto ag = make_agent(a.agent, splitmix64(a.seed));
    if (!ag) fail("play", ag.error().to_string());
    agent = std::move(ag).value();
  }
  auto m = Match::start(*g, a.scenario, a.seed);
  if (!m) fail("play", m.error().to_string());
  Match& match = **m;
  const bool interactive = isatty(fileno(stdin)) != 0;
  // What the human sees: against an agent, the first side the agent does not play; hot-seat,
  // the side to move (each player looks at the screen on his own turn).
  const int human_view = agent ? (a.side == 0 ? 1 : 0) : -1;
  std::vector<Action> acts;
  std::string last_turn_side;  // the situation is shown when a side's turn begins; `sit` any time
  while (true) {
    const State& s = match.state();
    if (s.is_terminal()) {
      std::cout << "Game over: " << s.result().dump() << "\n";
      return;
    }
    const int side = s.current_player();
    if (agent && side == a.side) {
      const Action act = agent->choose(s);
      if (Status st = match.apply(act); !st.is_ok())
        fail("play", "the agent chose an illegal action: " + st.error().to_string());
      print_action(match.log().back(), sides[static_cast<size_t>(side)] + " (" + agent->name() + ")",
                   human_view);
      continue;
    }
    const int viewer = side;  // the side to move looks at the board (hot-seat: players take turns)
    const Json obs = s.observation(viewer);
    const std::string turn_side =
        obs.is_object() ? obs.value("turn", Json()).dump() + "/" + std::to_string(side) : "";
    if (turn_side != last_turn_side) {
      last_turn_side = turn_side;
      if (!agent)  // hot-seat: say whose view the screen now shows
        std::cout << "\n(hot-seat: " << sides[static_cast<size_t>(side)] << "'s view is shown)\n";
      std::cout << "\n" << g->describe_situation(obs);
    }
    std::cout << "\n" << sides[static_cast<size_t>(side)] << " to move. " << summary_line(obs) << "\n";
    s.legal_actions(acts);
    const size_t shown = std::min(acts.size(), static_cast<size_t>(std::max(a.list, 0)));
    for (size_t i = 0; i < shown; ++i)
      std::cout << "  " << i + 1 << ". " << s.action_to_string(acts[i]) << "\n";
    if (shown < acts.size()) std::cout << "  ... " << acts.size() - shown << " more (type the notation)\n";
    if (interactive) std::cout << "> " << std::flush;
    std::string line;
    if (!std::getline(std::cin, line)) return;
    const auto w = split_words(line);
    if (w.empty()) continue;
    if (w[0] == "quit" || w[0] == "exit") return;
    if (w[0] == "help") {
      std::cout << "a number or an action in notation; find WORD... (list the actions containing every "
                   "word); sit (the situation); undo; save FILE; log; obs; quit\n";
      continue;
    }
    if (w[0] == "sit" || w[0] == "situation") {
      const std::string text = g->describe_situation(obs);
      std::cout << (text.empty() ? obs.dump(1) + "\n" : text);
      continue;
    }
    if (w[0] == "find" && w.size() > 1) {
      // Thousands of legal actions in a movement phase: list the ones naming a unit or hex.
      size_t found = 0;
      for (size_t i = 0; i < acts.size(); ++i) {
        const std::string text = s.action_to_string(acts[i]);
        const auto aw = split_words(text);
        bool all = true;
        for (size_t k = 1; k < w.size() && all; ++k) all = std::find(aw.begin(), aw.end(), w[k]) != aw.end();
        if (!all) continue;
        if (++found <= 60) std::cout << "  " << i + 1 << ". " << text << "\n";
      }
      std::cout << found << " action(s)" << (found > 60 ? " (first 60 shown)" : "") << "\n";
      continue;
    }
    if (w[0] == "obs") {
      std::cout << obs.dump(1) << "\n";
      continue;
    }
    if (w[0] == "log") {
      const int log_view = agent ? human_view : side;
      std::cout << "(the log as " << sides[static_cast<size_t>(log_view)] << " sees it)\n";
      for (const auto& e : match.log()) print_action(e, sides[static_cast<size_t>(e.side)], log_view);
      continue;
    }
    if (w[0] == "save") {
      if (w.size() != 2) {
        std::cout << "usage: save FILE\n";
        continue;
      }
      Status st = match.save_file(w[1]);
      std::cout << (st.is_ok() ? "saved to " + w[1] : "cannot save: " + st.error().to_string()) << "\n";
      continue;
    }
    if (w[0] == "undo") {
      // Hot-seat: one action back. Against an agent: back to this side's previous
      // decision, taking back the agent's replies too.
      const auto& log = match.log();
      size_t n = 0;
      if (!agent) {
        n = log.empty() ? 0 : 1;
      } else {
        for (size_t i = log.size(); i-- > 0;)
          if (log[i].side == side) {
            n = log.size() - i;
            break;
          }
      }
      Status st = n == 0 ? Status(Error{"nothing to undo", "", ""}) : match.undo(n);
      std::cout << (st.is_ok() ? "undone " + std::to_string(n) + " action(s)"
                               : "cannot undo: " + st.error().to_string())
                << "\n";
      continue;
    }
    Status st;
    if (auto num = parse_int(line); num && w.size() == 1) {
      if (*num < 1 || static_cast<size_t>(*num) > acts.size()) {
        std::cout << "no action number " << *num << " (1.." << acts.size() << ")\n";
        continue;
      }
      st = match.apply(acts[static_cast<size_t>(*num - 1)]);
    } else {
      st = match.apply_text(line);
    }
    if (!st.is_ok()) {
      std::cout << "illegal: " << st.error().to_string() << "\n";
      continue;
    }
    print_action(match.log().back(), sides[static_cast<size_t>(side)], side);
  }
}

CommandRegistrar play_cmd("play", [](CLI::App& app) {
  auto a = std::make_shared<PlayArgs>();
  auto* sub = app.add_subcommand("play", "play in the terminal (hot-seat, or against --agent)");
  sub->add_option("game", a->game, "game id")->required();
  sub->add_option("scenario", a->scenario, "scenario id")->required();
  sub->add_option("--agent", a->agent, "agent spec for the computer side (e.g. mcts:normal)");
  sub->add_option("--side", a->side, "side the agent plays (0..n-1, default 1)");
  sub->add_option("--seed", a->seed, "dice seed (default 1)");
  sub->add_option("--list", a->list, "how many legal actions to list (default 40)");
  add_data_option(sub, a->data);
  sub->callback([a] { run(*a); });
});

}  // namespace
}  // namespace steppe::cli
