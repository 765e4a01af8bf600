// The installed games. Each game module adds one entry in all_games.cpp.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernel/state.h"

namespace steppe {

using GameLoader = std::function<Result<std::unique_ptr<Game>>(const std::filesystem::path& data_dir)>;

struct GameEntry {
  std::string id;    // "bd"
  std::string name;  // "Barbarossa Deluxe"
  GameLoader load;   // reads and validates data_dir/<id>/...
};

const std::vector<GameEntry>& installed_games();

// Loads game `id` from `data_dir` (default: the source tree's data/, or $STEPPE_DATA).
Result<std::unique_ptr<Game>> load_game(const std::string& id, const std::filesystem::path& data_dir);
std::filesystem::path default_data_dir();

}  // namespace steppe
