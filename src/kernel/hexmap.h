// A loaded hex map: grid + per-hex data + hexside features + railways, from
// data/<game>/map.json (written by the maps tool, editable by hand):
//
//   { "grid": {...see hexgrid.h...}, "reconstructed": true, "source": "...",
//     "terrain_types": ["clear", "rough", ...], "hex_features": ["city", "port", ...],
//     "hexside_features": ["river", "major-river", ...],
//     "hexes": [{"id": "1011", "terrain": "clear", "features": ["city"], "name": "Leningrad",
//                "country": "ussr", "regions": ["north"], ...extra fields kept as JSON}],
//     "hexsides": [{"hexes": ["2311", "2312"], "features": ["major-river"], "name": "Dnepr"}],
//     "regions": {"R": ["2804", "2805"]},
//     "railways": [["1606", "1607", "1608"]] }
//
// Hexes not listed are off the map, so the outline need not be a rectangle. Terrain and
// features are interned to the vocabularies the file declares; anything unknown,
// duplicated, out of the grid or not adjacent is a load error naming file, field path and
// value, and nothing is returned half-loaded.
//
// Node index = HexGrid index (dense over the grid's bounding box; off-map hexes have no
// edges). Edge id in graph() = hexside index.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/error.h"
#include "kernel/graph.h"
#include "kernel/hexgrid.h"
#include "kernel/json_data.h"
#include "kernel/vocabulary.h"

namespace steppe {

class HexMap {
 public:
  static Result<HexMap> load(const std::filesystem::path& file);
  // `file` names the origin in errors.
  static Result<HexMap> from_json(const Json& doc, const std::string& file);

  const HexGrid& grid() const { return grid_; }
  const NodeGraph& graph() const { return graph_; }
  int size() const { return grid_.size(); }
  bool on_map(int idx) const { return idx >= 0 && idx < size() && terrain_[idx] >= 0; }
  int on_map_count() const { return on_map_count_; }
  // On-map hex by printed id, -1 if not a hex of the map.
  int find(std::string_view id) const;
  Result<int> hex(std::string_view id) const;  // error names the id
  std::string id(int idx) const { return grid_.id(idx); }

  const Vocabulary& terrain_types() const { return terrain_types_; }
  const Vocabulary& hex_features() const { return hex_features_; }
  const Vocabulary& hexside_features() const { return hexside_features_; }
  const Vocabulary& countries() const { return countries_; }
  const Vocabulary& regions() const { return regions_; }

  int terrain(int idx) const { return terrain_[idx]; }  // -1 off the map
  const std::string& terrain_name(int idx) const;
  FeatureBits features(int idx) const { return features_[idx]; }
  bool has_feature(int idx, int f) const { return (features_[idx] & feature_bit(f)) != 0; }
  const std::string& name(int idx) const { return names_[idx]; }  // "" if unnamed
  int country(int idx) const { return country_[idx]; }            // -1 if none
  const std::string& country_name(int idx) const;
  bool in_region(int idx, int region) const { return region >= 0 && region_member_[region][idx] != 0; }
  const std::vector<int32_t>& region_hexes(int region) const { return region_hexes_[region]; }
  // Fields of the hex entry the kernel does not interpret (null if none).
  const Json& extra(int idx) const;

  // Hexside features between adjacent hexes a and b (0 if none or not adjacent).
  FeatureBits hexside_features(int a, int b) const;
  FeatureBits hexside_features_at(int side) const { return side < 0 ? 0 : side_features_[side]; }
  bool hexside_has(int a, int b, int f) const { return (hexside_features(a, b) & feature_bit(f)) != 0; }
  const std::string& hexside_name(int a, int b) const;
  // Railways: chains of hexes as listed, and whether a rail line crosses hexside a-b.
  const std::vector<std::vector<int32_t>>& railways() const { return railways_; }
  bool rail_between(int a, int b) const;
  bool rail_at(int side) const { return side >= 0 && rail_side_[side] != 0; }
  bool has_rail(int idx) const { return rail_hex_[idx] != 0; }

  // {"id","terrain","features","name","country","regions","rail","neighbours":{"W":"2404"},
  //  "hexsides":{"W":["river"]},"extra":{...}} for `steppe map GAME --hex ID`.
  Result<Json> describe(std::string_view id) const;
  // The document this map was loaded from (for the UI's map view).
  const Json& json() const { return doc_; }
  bool reconstructed() const { return reconstructed_; }

 private:
  HexMap() = default;

  HexGrid grid_;
  NodeGraph graph_;
  Vocabulary terrain_types_, hex_features_, hexside_features_, countries_, regions_;
  std::vector<int16_t> terrain_;
  std::vector<FeatureBits> features_;
  std::vector<std::string> names_;
  std::vector<int16_t> country_;
  std::vector<std::vector<uint8_t>> region_member_;  // [region][hex]
  std::vector<std::vector<int32_t>> region_hexes_;   // [region] sorted hex indices
  std::vector<int32_t> extra_index_;                 // hex -> index into extras_, -1 none
  std::vector<Json> extras_;
  std::vector<FeatureBits> side_features_;  // [hexside index]
  std::vector<int32_t> side_name_index_;    // [hexside index] -> side_names_, -1 none
  std::vector<std::string> side_names_;
  std::vector<std::vector<int32_t>> railways_;
  std::vector<uint8_t> rail_side_, rail_hex_;
  int on_map_count_ = 0;
  bool reconstructed_ = false;
  Json doc_;
};

}  // namespace steppe
