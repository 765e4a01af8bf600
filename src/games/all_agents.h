// The agents' per-game knowledge, registered in one place. The rules libraries
// (steppe_game_<id>) know nothing of the agents; each game's heuristics live in
// steppe_game_<id>_ai and are handed to the AI's registry here, explicitly, by the
// programs that run agents (the CLI's main, which also starts the server; the agent
// tests; the benchmarks). Nothing registers itself as a side effect of loading.
#pragma once

namespace steppe {

// Registers every installed game's heuristics with steppe::ai::register_heuristics.
// Idempotent and thread-safe (the registry takes a lock; registering again replaces a
// factory by the same one).
void register_installed_heuristics();

}  // namespace steppe
