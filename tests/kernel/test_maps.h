// Maps built in code for the kernel tests: the full Barbarossa Deluxe grid rectangle
// with every hex on the map, terrain chosen per hex, and optional hexside features.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "kernel/hexmap.h"

namespace steppe::testing {

inline Json bd_rect_map_json(const std::function<std::string(int row, int col)>& terrain = nullptr,
                             const std::vector<std::pair<std::string, std::string>>& rivers = {}) {
  Json j;
  j["grid"] = Json::parse(R"({"id_format": "RRCC", "orientation": "pointy",
    "rows": {"first": 10, "last": 32, "increase": "south"},
    "cols": {"first": 0, "last": 24, "increase": "west"}, "odd_rows_shift": "west"})");
  j["terrain_types"] = {"clear", "rough", "marsh", "all-sea"};
  j["hex_features"] = {"city"};
  j["hexside_features"] = {"river", "all-sea"};
  Json hexes = Json::array();
  for (int r = 10; r <= 32; ++r)
    for (int c = 0; c <= 24; ++c) {
      char id[24];  // room for any two ints: GCC at -O1 warns of truncation otherwise
      std::snprintf(id, sizeof id, "%02d%02d", r, c);
      hexes.push_back({{"id", id}, {"terrain", terrain ? terrain(r, c) : "clear"}});
    }
  j["hexes"] = hexes;
  Json sides = Json::array();
  for (const auto& [a, b] : rivers) sides.push_back({{"hexes", {a, b}}, {"features", {"river"}}});
  j["hexsides"] = sides;
  return j;
}

inline HexMap bd_rect_map(const std::function<std::string(int row, int col)>& terrain = nullptr,
                          const std::vector<std::pair<std::string, std::string>>& rivers = {}) {
  auto m = HexMap::from_json(bd_rect_map_json(terrain, rivers), "test-map");
  if (!m.is_ok()) throw std::runtime_error(m.error().to_string());
  return std::move(m).value();
}

}  // namespace steppe::testing
