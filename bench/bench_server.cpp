// The game server's work per action as the game grows (issue 19, deliverable 6): one action
// through Service::act, with a WebSocket-like subscriber per side, early in a Barbarossa
// Deluxe Grand Campaign and late in one. Before the per-side event lists, every push rebuilt
// each side's whole visible log, so the late action cost more; now both should cost the same
// (docs/performance.md has the numbers).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "games/all_games.h"
#include "server/service.h"

namespace {

using steppe::Json;
using steppe::server::Service;

struct ServedGame {
  std::shared_ptr<Service> service;
  std::string id;
  std::vector<std::string> tokens;
  uint64_t rng = 7;
  size_t bytes_pushed = 0;

  // An action of the side to move, chosen at random among its view's legal actions: its
  // token and text, or an empty token when the game is over.
  std::pair<std::string, std::string> choose() {
    const Json info = service->game_info(id).body["game"];
    const int side = info.value("current_player", -1);
    if (side < 0) return {};
    const Json view = service->view(id, tokens[static_cast<size_t>(side)]).json()["view"];
    const Json& legal = view["legal_actions"];
    if (legal.empty()) return {};
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return {tokens[static_cast<size_t>(side)],
            legal[static_cast<size_t>((rng >> 33) % legal.size())]["text"]};
  }
  bool play(const std::pair<std::string, std::string>& a) {
    return !a.first.empty() && service->act(id, a.first, a.second).status == 200;
  }
  bool play_one() { return play(choose()); }
};

// A Grand Campaign (seed 7) served in memory, after `actions` random actions (this seed's
// random game ends between 150 and 190 actions, so the late point is 100, plus the 40 timed).
std::unique_ptr<ServedGame> served_bd(int actions) {
  auto game = steppe::load_game("bd", steppe::default_data_dir());
  if (!game) return nullptr;
  auto store = steppe::server::open_sqlite_store(":memory:");
  if (!store) return nullptr;
  steppe::server::GameCatalog catalog{
      {"bd", "Barbarossa Deluxe", std::shared_ptr<const steppe::Game>(std::move(game).value()), {}}};
  auto g = std::make_unique<ServedGame>();
  steppe::server::ServiceOptions opts;
  opts.create_per_minute = 0;
  g->service = std::make_shared<Service>(std::move(catalog), std::move(store).value(), opts);
  const auto made =
      g->service->create_game(Json{{"game", "bd"}, {"scenario", "grand-campaign"}, {"seed", 7}}, "");
  if (made.status != 200) return nullptr;
  g->id = made.body["game"]["id"];
  for (const auto& s : made.body["seats"]) g->tokens.push_back(s["token"]);
  for (const auto& t : g->tokens)
    g->service->subscribe(
        g->id, t, [p = g.get()](std::shared_ptr<const std::string> m) { p->bytes_pushed += m->size(); });
  for (int i = 0; i < actions; ++i)
    if (!g->play_one()) return nullptr;
  return g;
}

// One action, with its pushes, after `state.range(0)` actions of the game.
void BM_ServerActionAfter(benchmark::State& state) {
  auto g = served_bd(static_cast<int>(state.range(0)));
  if (g == nullptr) {
    state.SkipWithError("could not serve a Grand Campaign that long");
    return;
  }
  const size_t bytes0 = g->bytes_pushed;
  int64_t played = 0;
  for (auto _ : state) {
    state.PauseTiming();  // only the action and its pushes are timed
    const auto a = g->choose();
    state.ResumeTiming();
    if (!g->play(a)) {
      state.SkipWithError("the game ended");
      break;
    }
    ++played;
  }
  if (played > 0)
    state.counters["pushed_bytes_per_action"] =
        static_cast<double>(g->bytes_pushed - bytes0) / static_cast<double>(played);
}
BENCHMARK(BM_ServerActionAfter)->Arg(20)->Arg(100)->Iterations(40)->Unit(benchmark::kMillisecond);

}  // namespace
