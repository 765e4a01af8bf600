// A loaded area map (Moscow '41's 175 areas, the A&A-style territories): named areas,
// off-map boxes, typed connections between them, per-area attributes and optional
// polygons for drawing. File format (data/<game>/map.json or areas.json):
//
//   { "reconstructed": true, "source": "...",
//     "terrain_types": ["clear", "forest", "swamp", "city"],      (optional vocabulary)
//     "area_features": ["victory", "supply-source", "staging"],   (optional vocabulary)
//     "connection_types": ["road", "rail", "river", "sea"],
//     "areas": [{"id": "101", "name": "Smolensk", "terrain": "clear", "features": [],
//                "polygon": [[32.0, 54.8], [32.4, 54.9], ...], ...extra fields kept}],
//     "boxes": [{"id": "pskov", "name": "Pskov", ...extra fields kept}],
//     "connections": [{"a": "101", "b": "102", "types": ["road", "river"]},
//                     {"a": "pskov", "b": "novgorod", "one_way": true}] }
//
// Nodes: areas 0..area_count()-1 in file order, then boxes. Edge id in graph() = index of
// the connection in "connections". Everything is validated like HexMap: errors name file,
// field path and value, and nothing half-loaded is returned.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/error.h"
#include "kernel/graph.h"
#include "kernel/hexmap.h"  // FeatureBits
#include "kernel/json_data.h"
#include "kernel/vocabulary.h"

namespace steppe {

struct AreaConnection {
  int32_t a = -1, b = -1;  // node indices
  FeatureBits types = 0;   // bits of connection_types()
  bool one_way = false;    // only a -> b
};

class AreaMap {
 public:
  using LonLat = std::array<double, 2>;

  static Result<AreaMap> load(const std::filesystem::path& file);
  static Result<AreaMap> from_json(const Json& doc, const std::string& file);

  const NodeGraph& graph() const { return graph_; }
  // The connections having any of `types` (e.g. a land graph without the sea lanes), as a
  // graph of the same nodes and edge ids; each node's neighbours in increasing node order,
  // so that a game iterating them gets the same order whatever the file order.
  NodeGraph subgraph(FeatureBits types) const;
  int node_count() const { return static_cast<int>(ids_.size()); }
  int area_count() const { return area_count_; }
  int box_count() const { return node_count() - area_count_; }
  bool is_box(int node) const { return node >= area_count_; }

  int find(std::string_view id) const;  // -1 if no area or box has this id
  Result<int> node(std::string_view id) const;
  const std::string& id(int node) const { return ids_[node]; }
  const std::string& name(int node) const { return names_[node]; }

  const Vocabulary& terrain_types() const { return terrain_types_; }
  const Vocabulary& area_features() const { return area_features_; }
  const Vocabulary& connection_types() const { return connection_types_; }
  int terrain(int node) const { return terrain_[node]; }  // -1 if none (boxes)
  const std::string& terrain_name(int node) const;
  FeatureBits features(int node) const { return features_[node]; }
  bool has_feature(int node, int f) const { return (features_[node] & feature_bit(f)) != 0; }
  const std::vector<LonLat>& polygon(int node) const { return polygons_[node]; }  // empty if none
  const Json& extra(int node) const;

  int connection_count() const { return static_cast<int>(connections_.size()); }
  const AreaConnection& connection(int index) const { return connections_[index]; }
  // Index of the connection from a to b (either direction unless one-way), -1 if none.
  int connection_between(int a, int b) const;
  FeatureBits connection_types_between(int a, int b) const;
  bool connection_has(int a, int b, int type) const {
    return (connection_types_between(a, b) & feature_bit(type)) != 0;
  }

  // {"id","name","box","terrain","features","neighbours":[{"id","types"}],"extra"}.
  Result<Json> describe(std::string_view id) const;
  const Json& json() const { return doc_; }
  bool reconstructed() const { return reconstructed_; }

 private:
  AreaMap() = default;

  NodeGraph graph_;
  int area_count_ = 0;
  std::vector<std::string> ids_, names_;
  Vocabulary terrain_types_, area_features_, connection_types_;
  std::vector<int16_t> terrain_;
  std::vector<FeatureBits> features_;
  std::vector<std::vector<LonLat>> polygons_;
  std::vector<Json> extras_;  // per node, null if none
  std::vector<AreaConnection> connections_;
  bool reconstructed_ = false;
  Json doc_;
};

}  // namespace steppe
