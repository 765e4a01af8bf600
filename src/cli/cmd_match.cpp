// Commands on save files (docs/saves.md):
//   steppe new GAME SCENARIO [--seed N] -o FILE   start a game and save it
//   steppe actions FILE                           the legal actions now, one per line
//   steppe apply FILE ACTION...                   apply actions (all or none) and save
//   steppe replay FILE [--log]                    verify a save by replaying; print its hash
#include <iostream>
#include <random>

#include "cli/cli_util.h"
#include "cli/command.h"
#include "kernel/notation.h"

namespace steppe::cli {
namespace {

struct MatchArgs {
  std::string game;
  std::string scenario;
  uint64_t seed = 0;
  bool seed_given = false;
  std::string file;
  std::vector<std::string> actions;
  bool log = false;
  int side = -1;
  std::string data;
};

uint64_t random_seed() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

CommandRegistrar new_cmd("new", [](CLI::App& app) {
  auto a = std::make_shared<MatchArgs>();
  auto* sub = app.add_subcommand("new", "start a game of SCENARIO and save it to FILE");
  sub->add_option("game", a->game, "game id")->required();
  sub->add_option("scenario", a->scenario, "scenario id (see `steppe scenarios GAME`)")->required();
  sub->add_option("--seed", a->seed, "dice seed (default: random, printed)");
  sub->add_option("-o,--output", a->file, "save file to write")->required();
  add_data_option(sub, a->data);
  sub->callback([a, sub] {
    auto g = load_game_or_fail("new", a->game, a->data);
    const uint64_t seed = sub->count("--seed") > 0 ? a->seed : random_seed();
    auto m = Match::start(*g, a->scenario, seed);
    if (!m) fail("new", m.error().to_string());
    if (Status s = (*m)->save_file(a->file); !s.is_ok()) fail("new", s.error().to_string());
    std::cout << "new " << a->game << " " << a->scenario << " seed " << seed << " -> " << a->file << "\n";
  });
});

CommandRegistrar actions_cmd("actions", [](CLI::App& app) {
  auto a = std::make_shared<MatchArgs>();
  auto* sub = app.add_subcommand("actions", "list the legal actions of a saved game, one per line");
  sub->add_option("file", a->file, "save file")->required();
  add_data_option(sub, a->data);
  sub->callback([a] {
    auto lm = load_match_or_fail("actions", a->file, a->data);
    const State& s = lm.match->state();
    if (s.is_terminal()) fail("actions", "the game is over (" + s.result().dump() + ")", 2);
    std::vector<Action> acts;
    s.legal_actions(acts);
    for (const auto& act : acts) std::cout << s.action_to_string(act) << "\n";
  });
});

CommandRegistrar apply_cmd("apply", [](CLI::App& app) {
  auto a = std::make_shared<MatchArgs>();
  auto* sub = app.add_subcommand("apply", "apply actions to a saved game and save it (all or none)");
  sub->add_option("file", a->file, "save file")->required();
  sub->add_option("actions", a->actions, "actions in the game's notation (quote each one)")->required();
  add_data_option(sub, a->data);
  sub->callback([a] {
    auto lm = load_match_or_fail("apply", a->file, a->data);
    Match& m = *lm.match;
    for (const auto& text : a->actions) {
      if (m.state().is_terminal()) fail("apply", "'" + text + "': the game is over; nothing was saved");
      Status s = m.apply_text(text);
      if (!s.is_ok())
        fail("apply", "'" + text + "' is illegal: " + s.error().to_string() + "; nothing was saved");
      std::cout << m.log().back().action << "\n";
      for (const auto& e : m.log().back().events) std::cout << event_line(e) << "\n";
    }
    if (Status s = m.save_file(a->file); !s.is_ok()) fail("apply", s.error().to_string());
  });
});

CommandRegistrar replay_cmd("replay", [](CLI::App& app) {
  auto a = std::make_shared<MatchArgs>();
  auto* sub =
      app.add_subcommand("replay", "replay a save, verifying every recorded hash; print the state hash");
  sub->add_option("file", a->file, "save file")->required();
  sub->add_flag("--log", a->log, "also print the event log");
  sub->add_option("--side", a->side, "with --log: only what this side (0..n-1) may see");
  add_data_option(sub, a->data);
  sub->callback([a] {
    auto lm = load_match_or_fail("replay", a->file, a->data);
    const Match& m = *lm.match;
    if (a->log) {
      const Json log = m.log_json(a->side);
      for (const auto& entry : log) {
        std::cout << entry["n"].get<size_t>() << ". " << entry.value("side_name", std::string("?"));
        if (entry.contains("action")) std::cout << ": " << entry["action"].get<std::string>();
        std::cout << "\n";
        for (const auto& e : entry["events"]) {
          Event ev;
          ev.text = e["text"].get<std::string>();
          ev.rule = e.value("rule", std::string());
          std::cout << event_line(ev) << "\n";
        }
      }
    }
    std::cout << hash_to_hex(m.state().state_hash()) << "\n";
  });
});

}  // namespace
}  // namespace steppe::cli
