#include <iostream>

#include "cli/command.h"
#include "games/all_agents.h"

namespace steppe::cli {
std::vector<CommandDef>& command_registry() {
  static std::vector<CommandDef> commands;
  return commands;
}
}  // namespace steppe::cli

int main(int argc, char** argv) {
  // The agents' per-game knowledge, for every command that runs agents (play, selfplay,
  // match, tournament, check, and serve, whose service makes the server's agents).
  steppe::register_installed_heuristics();
  CLI::App app{"steppe: Eastern Front board wargames, rules enforced"};
  app.require_subcommand(1);
  for (auto& def : steppe::cli::command_registry()) def.setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    // Last line of defence: a bug below must still end in a message, not an abort.
    std::cerr << "steppe: internal error: " << e.what() << "\n";
    return 70;
  }
  return 0;
}
