// `steppe games`: the installed games. `steppe scenarios GAME`: a game's scenarios.
// `steppe map GAME [--hex ID]`: the map as JSON, or one location.
#include <iostream>

#include "cli/cli_util.h"
#include "cli/command.h"
#include "games/all_games.h"

namespace steppe::cli {
namespace {

struct GameArgs {
  std::string game;
  std::string hex;
  std::string data;
};

CommandRegistrar games_cmd("games", [](CLI::App& app) {
  auto* sub = app.add_subcommand("games", "list the installed games");
  sub->callback([] {
    if (installed_games().empty()) {
      std::cout << "no game is installed\n";
      return;
    }
    for (const auto& g : installed_games()) std::cout << g.id << "\t" << g.name << "\n";
  });
});

CommandRegistrar scenarios_cmd("scenarios", [](CLI::App& app) {
  auto args = std::make_shared<GameArgs>();
  auto* sub = app.add_subcommand("scenarios", "list a game's scenarios");
  sub->add_option("game", args->game, "game id (see `steppe games`)")->required();
  add_data_option(sub, args->data);
  sub->callback([args] {
    auto g = load_game_or_fail("scenarios", args->game, args->data);
    for (const auto& s : g->scenarios())
      std::cout << s.id << "\t" << s.name << "\tturns " << s.first_turn << "-" << s.last_turn
                << (s.description.empty() ? "" : "\t" + s.description) << "\n";
  });
});

CommandRegistrar map_cmd("map", [](CLI::App& app) {
  auto args = std::make_shared<GameArgs>();
  auto* sub = app.add_subcommand("map", "print a game's map (or one hex/area) as JSON");
  sub->add_option("game", args->game, "game id")->required();
  auto* hex_opt = sub->add_option("--hex", args->hex, "one hex or area id: describe just that location");
  add_data_option(sub, args->data);
  sub->callback([args, hex_opt] {
    auto g = load_game_or_fail("map", args->game, args->data);
    if (hex_opt->count() > 0 && args->hex.empty())
      fail("map", "--hex needs a hex or area id, not an empty string");
    if (args->hex.empty()) {
      std::cout << g->map_json().dump(1) << "\n";
      return;
    }
    auto d = g->describe_location(args->hex);
    if (!d) fail("map", d.error().to_string());
    std::cout << d->dump(1) << "\n";
  });
});

}  // namespace
}  // namespace steppe::cli
