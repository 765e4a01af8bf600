// `steppe conformance GAME SCENARIO [--playouts N] [--seed S] [--max-actions N]`: runs
// the kernel's conformance suite (src/kernel/conformance.h) on an installed game and
// prints its report; exits 1 if any check failed.
#include <iostream>

#include "cli/cli_util.h"
#include "cli/command.h"
#include "kernel/conformance.h"

namespace steppe::cli {
namespace {

struct ConformanceArgs {
  std::string game;
  std::string scenario;
  int playouts = 10;
  uint64_t seed = 1;
  int max_actions = 500;
  std::string data;
};

CommandRegistrar conformance_cmd("conformance", [](CLI::App& app) {
  auto a = std::make_shared<ConformanceArgs>();
  auto* sub =
      app.add_subcommand("conformance", "check a game against the State contract with random playouts");
  sub->add_option("game", a->game, "game id")->required();
  sub->add_option("scenario", a->scenario, "scenario id")->required();
  sub->add_option("--playouts", a->playouts, "random playouts (default 10)")->check(CLI::NonNegativeNumber);
  sub->add_option("--seed", a->seed, "seed (default 1)");
  sub->add_option("--max-actions", a->max_actions, "actions per playout at most (default 500)")
      ->check(CLI::NonNegativeNumber);
  add_data_option(sub, a->data);
  sub->callback([a] {
    auto g = load_game_or_fail("conformance", a->game, a->data);
    Progress progress("conformance", a->playouts);
    const ConformanceReport r = run_conformance(*g, a->scenario, a->playouts, a->seed, a->max_actions,
                                                [&progress](int done, int) { progress.update(done); });
    progress.finish();
    std::cout << r.summary() << "\n";
    if (!r.ok()) throw CLI::RuntimeError(1);
  });
});

}  // namespace
}  // namespace steppe::cli
