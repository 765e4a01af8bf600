// Fuzzes the validated JSON data loading (kernel/json_data.h) and the map loaders built
// on it: any bytes must give a value or a clear Error, never a crash or a hang.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kernel/areamap.h"
#include "kernel/hexmap.h"
#include "kernel/json_data.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto doc = steppe::parse_json_text(text, "fuzz.json");
  if (!doc) {
    if (doc.error().message.empty()) __builtin_trap();
    return 0;
  }
  steppe::JsonReader r(*doc, "fuzz.json");
  (void)r.str_or("name", "");
  r.check_reconstructed();
  for (const auto& e : r.opt("items") ? r.at("items").elements() : std::vector<steppe::JsonReader>{})
    (void)e.integer_or("n", 0);
  (void)steppe::json_excerpt(*doc);
  auto hm = steppe::HexMap::from_json(*doc, "fuzz.json");
  if (!hm && hm.error().message.empty()) __builtin_trap();
  auto am = steppe::AreaMap::from_json(*doc, "fuzz.json");
  if (!am && am.error().message.empty()) __builtin_trap();
  return 0;
}
