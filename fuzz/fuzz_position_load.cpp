// Fuzzes the position loader (kernel/position.h; issue 29) of every installed game with a
// position format: a garbage, truncated or edited position is refused with an Error naming
// what is wrong, or loads; a position that loads writes back to one that loads to the same
// state. The corpus holds real positions of each game (fuzz/corpus/position_load).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "games/all_games.h"
#include "kernel/position.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<std::unique_ptr<steppe::Game>> games = [] {
    std::vector<std::unique_ptr<steppe::Game>> v;
    for (const auto& e : steppe::installed_games())
      if (auto g = steppe::load_game(e.id, steppe::default_data_dir())) v.push_back(std::move(g).value());
    return v;
  }();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  steppe::Json j = steppe::Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  for (const auto& g : games) {
    auto s = steppe::state_from_position_document(*g, j, "fuzz.json");
    if (!s) {
      if (s.error().message.empty()) __builtin_trap();
      continue;
    }
    auto doc = steppe::position_document(**s);
    if (!doc) __builtin_trap();
    auto again = steppe::state_from_position_document(*g, *doc, "again");
    if (!again || (*again)->state_hash() != (*s)->state_hash()) __builtin_trap();
  }
  return 0;
}
