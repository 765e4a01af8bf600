// A test double for the server tests: a tiny two-sided game with hidden information
// ("Duel"), never registered in all_games.cpp and never shipped. Red and Blue each move
// one unit along a row of 8 hexes; each side holds a secret 9-digit code that only it may
// see (in its observation and in a private "note" event); "scout" rolls a die, which is a
// revealing event (so it cannot be undone).
#pragma once

#include <memory>

#include "server/service.h"

namespace steppe::testing {

std::shared_ptr<const Game> make_duel_game();
// A catalog with the Duel only.
server::GameCatalog duel_catalog();

// Secret code of `side` in a Duel state (for leak tests: the value must never reach the
// other side).
std::string duel_secret(const State& s, int side);

}  // namespace steppe::testing
