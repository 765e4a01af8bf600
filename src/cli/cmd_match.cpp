// Commands on save files (docs/saves.md):
//   steppe new GAME SCENARIO [--seed N] -o FILE   start a game and save it
//   steppe actions FILE                           the legal actions now, one per line
//   steppe apply FILE ACTION...                   apply actions (all or none) and save
//   steppe replay FILE [--log]                    verify a save by replaying; print its hash
//   steppe migrate FILE [-o OUT]                  continue a save the engine no longer replays
//   steppe position FILE                          print the position of a saved game now
#include <iostream>
#include <random>

#include "cli/cli_util.h"
#include "cli/command.h"
#include "kernel/notation.h"
#include "kernel/position.h"

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
  std::string output;  // migrate -o
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
      print_event_log(m, a->side);
    }
    std::cout << hash_to_hex(m.state().state_hash()) << "\n";
  });
});

// Issue 29: a save whose log no longer replays under this engine is continued from its
// latest position that loads; the original file is kept beside the migrated one.
CommandRegistrar migrate_cmd("migrate", [](CLI::App& app) {
  auto a = std::make_shared<MatchArgs>();
  auto* sub = app.add_subcommand(
      "migrate",
      "continue a save made by another engine or rules data: from its latest position that loads, "
      "re-applying the actions after it while they stay legal (docs/saves.md)");
  sub->add_option("file", a->file, "save file")->required();
  sub->add_option("-o,--output", a->output,
                  "write the migrated save here (default: over FILE, the original kept as "
                  "FILE.before-migration)");
  add_data_option(sub, a->data);
  sub->callback([a] {
    const std::string& out = a->output;
    auto j = read_save_file(a->file);
    if (!j) fail("migrate", j.error().to_string());
    auto h = read_save_header(*j, a->file);
    if (!h) fail("migrate", h.error().to_string());
    auto g = load_game_or_fail("migrate", h->game, a->data);
    const size_t before =
        j->contains("migrations") && (*j)["migrations"].is_array() ? (*j)["migrations"].size() : 0;
    auto m = Match::migrate_save_json(*j, *g, a->file);
    if (!m) fail("migrate", m.error().to_string());
    const bool migrated = (*m)->migrations().size() > before;
    if (!migrated) {
      std::cout << a->file << " replays exactly under Steppe " STEPPE_VERSION "; nothing to migrate\n";
      if (out.empty()) return;
    } else {
      std::cout << (*m)->migrations().back()["text"].get<std::string>() << "\n";
    }
    std::string target = out.empty() ? a->file : out;
    if (out.empty()) {
      const std::string keep = a->file + ".before-migration";
      if (Status s = write_file_atomically(keep, j->dump(1) + "\n"); !s.is_ok())
        fail("migrate", s.error().to_string());
      std::cout << "the original is kept as " << keep << "\n";
    }
    if (Status s = (*m)->save_file(target); !s.is_ok()) fail("migrate", s.error().to_string());
    std::cout << "-> " << target << "\n";
  });
});

CommandRegistrar position_cmd("position", [](CLI::App& app) {
  auto a = std::make_shared<MatchArgs>();
  auto* sub =
      app.add_subcommand("position", "print the position of a saved game now (docs/saves.md, Positions)");
  sub->add_option("file", a->file, "save file")->required();
  add_data_option(sub, a->data);
  sub->callback([a] {
    auto lm = load_match_or_fail("position", a->file, a->data);
    auto doc = position_document(lm.match->state());
    if (!doc) fail("position", doc.error().to_string());
    std::cout << doc->dump(1) << "\n";
  });
});

}  // namespace
}  // namespace steppe::cli
