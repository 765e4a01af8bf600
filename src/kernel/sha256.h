// SHA-256 (FIPS 180-4), for the dice commitment of network games (docs/api.md, "Verifiable
// dice"): the server publishes the hash of a game's dice seed when the game is created and
// reveals the seed when it ends, so that either player can check that every roll came from
// a seed fixed before the first move. No cryptographic library is a dependency of the
// kernel; this one function is all it needs.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace steppe {

std::array<uint8_t, 32> sha256(std::string_view data);

// Lower-case hex of sha256(data): 64 characters.
std::string sha256_hex(std::string_view data);

// The text whose SHA-256 is a game's dice commitment: "steppe-dice-v1:<game id>:<seed in
// decimal>". The game's id is part of it so that one commitment cannot be shown for two games.
std::string dice_commitment_text(std::string_view game_id, uint64_t seed);

// sha256_hex(dice_commitment_text(game_id, seed)).
std::string dice_commitment(std::string_view game_id, uint64_t seed);

}  // namespace steppe
