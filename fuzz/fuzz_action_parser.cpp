// Fuzzes the action parser of the first installed game (at the start of its first
// scenario); while no game is installed, of the race test fixture. Whatever parses must
// print back to text that parses to the same action, and check()/apply() on it must
// give a verdict without crashing; a refusal must leave the state unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string_view>

#include "games/all_games.h"
#include "race_game.h"

namespace {

struct Target {
  std::unique_ptr<steppe::Game> owned;
  steppe::testing::RaceGame race;
  const steppe::Game* game = &race;
  std::unique_ptr<steppe::State> state;
};

Target& target() {
  static Target* t = [] {
    auto* tg = new Target();
    for (const auto& g : steppe::installed_games()) {
      auto loaded = g.load(steppe::default_data_dir());
      if (!loaded) continue;
      tg->owned = std::move(loaded).value();
      tg->game = tg->owned.get();
      break;
    }
    const auto scens = tg->game->scenarios();
    auto st = tg->game->new_state(scens.empty() ? "empty" : scens.front().id, 1);
    if (!st) st = tg->game->new_state("empty", 1);
    if (!st) __builtin_trap();
    tg->state = std::move(st).value();
    std::fprintf(stderr, "fuzz_action_parser: fuzzing the action parser of '%s'\n", tg->game->id().c_str());
    return tg;
  }();
  return *t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Target& t = target();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto a = t.state->parse_action(text);
  if (!a) return 0;
  const std::string printed = t.state->action_to_string(*a);
  auto back = t.state->parse_action(printed);
  if (!back || !(*back == *a)) __builtin_trap();
  auto copy = t.state->clone();
  const uint64_t before = copy->state_hash();
  steppe::Status s = copy->apply(*a);
  if (!s.is_ok() && copy->state_hash() != before) __builtin_trap();
  return 0;
}
