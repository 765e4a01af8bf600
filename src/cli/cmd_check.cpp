// `steppe check FILE|DIR...`: run scenario tests (docs/scenario-tests.md) and print
// "N passed, N failed"; exits 1 if any failed.
#include <iostream>
#include <map>
#include <memory>

#include "cli/cli_util.h"
#include "cli/command.h"
#include "games/all_games.h"

namespace steppe::cli {
namespace {

struct CheckArgs {
  std::vector<std::string> paths;
  std::string data;
  bool verbose = false;
};

CommandRegistrar check_cmd("check", [](CLI::App& app) {
  auto a = std::make_shared<CheckArgs>();
  auto* sub = app.add_subcommand("check", "run scenario-test files (*.scn; directories recursively)");
  sub->add_option("paths", a->paths, "files or directories")->required();
  sub->add_flag("-v,--verbose", a->verbose, "print every test, not only failures");
  add_data_option(sub, a->data);
  sub->callback([a] {
    // Games are loaded once each, on first use, and kept for the whole run.
    auto games = std::make_shared<std::map<std::string, std::unique_ptr<Game>>>();
    ScenarioEnv env;
    env.games = [games, a](const std::string& id) -> Result<const Game*> {
      auto it = games->find(id);
      if (it != games->end()) return static_cast<const Game*>(it->second.get());
      if (installed_games().empty()) return Error{"no game is installed", "", ""};
      auto g = load_game(id, data_dir(a->data));
      if (!g) return g.error();
      const Game* p = g->get();
      (*games)[id] = std::move(g).value();
      return p;
    };
    env.agents = steppe_agent_chooser();
    auto progress = std::make_shared<std::unique_ptr<Progress>>();
    env.on_file_done = [progress](size_t done, size_t total) {
      if (!*progress) *progress = std::make_unique<Progress>("check", static_cast<int64_t>(total));
      (*progress)->update(static_cast<int64_t>(done));
    };
    std::vector<std::filesystem::path> paths(a->paths.begin(), a->paths.end());
    const ScenarioSummary sum = run_scenario_paths(paths, env);
    if (*progress) (*progress)->finish();
    for (const auto& r : sum.results) {
      if (!r.passed)
        std::cout << "FAIL " << r.failure->to_string() << "\n";
      else if (a->verbose)
        std::cout << "ok   " << r.file << " (" << r.checks << " checks)\n";
    }
    std::cout << sum.passed << " passed, " << sum.failed << " failed\n";
    if (sum.results.empty()) fail("check", "no scenario tests (*.scn) found");
    if (sum.failed > 0) throw CLI::RuntimeError(1);
  });
});

}  // namespace
}  // namespace steppe::cli
