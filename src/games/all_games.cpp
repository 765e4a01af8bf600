#include "games/all_games.h"

#include <cstdlib>

#include "games/aa/aa.h"
#include "games/agc/agc.h"
#include "games/bd/bd_game.h"
#include "games/dv/dv.h"
#include "games/moscow41/moscow41.h"

namespace steppe {

const std::vector<GameEntry>& installed_games() {
  static const std::vector<GameEntry> games = {
      // Game modules register here: {"bd", "Barbarossa Deluxe", &bd::load_game},
      {"bd", "Barbarossa Deluxe", &bd::load_game},
      {"moscow41", "Moscow '41", &moscow41::load_game},
      {"dv", "The Dark Valley Deluxe", &dv::load_game},
      {"agc", "Barbarossa: Army Group Center", &agc::load_game},
      {"aa", "Fighting the Battle of Barbarossa", &aa::load_game},
  };
  return games;
}

Result<std::unique_ptr<Game>> load_game(const std::string& id, const std::filesystem::path& data_dir) {
  for (const auto& g : installed_games())
    if (g.id == id) return g.load(data_dir);
  std::string known;
  for (const auto& g : installed_games()) known += (known.empty() ? "" : ", ") + g.id;
  return Error{"unknown game '" + id + "'" +
                   (known.empty() ? " (no game is installed yet)" : " (installed: " + known + ")"),
               "", ""};
}

std::filesystem::path default_data_dir() {
  if (const char* env = std::getenv("STEPPE_DATA"); env != nullptr && *env != '\0') return env;
  return STEPPE_DEFAULT_DATA_DIR;
}

}  // namespace steppe
