// Fuzzes save loading (kernel/match.h): garbage, truncated or edited saves must be
// refused with a clear Error (or load and replay), never crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kernel/match.h"
#include "race_game.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const steppe::testing::RaceGame game;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  steppe::Json j = steppe::Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  auto m = steppe::Match::from_save_json(j, game, "fuzz.json");
  if (!m) {
    if (m.error().message.empty()) __builtin_trap();
    return 0;
  }
  // A save that loads must save back to one that loads to the same state.
  auto again = steppe::Match::from_save_json((*m)->save_json(), game, "again");
  if (!again || (*again)->state().state_hash() != (*m)->state().state_hash()) __builtin_trap();
  return 0;
}
