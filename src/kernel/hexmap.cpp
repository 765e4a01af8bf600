#include "kernel/hexmap.h"

#include <algorithm>
#include <map>

namespace steppe {

namespace {

const std::string kEmpty;
const Json kNullJson;

}  // namespace

Result<HexMap> HexMap::load(const std::filesystem::path& file) {
  auto doc = load_json_file(file);
  if (!doc) return doc.error();
  return from_json(*doc, file.string());
}

Result<HexMap> HexMap::from_json(const Json& doc, const std::string& file) {
  JsonReader r(doc, file);
  if (!r.is_object()) {
    r.fail("a map file must be a JSON object");
    return r.error();
  }
  HexMap m;
  r.check_reconstructed();
  m.reconstructed_ = r.is_reconstructed();

  auto grid = HexGrid::from_json(r.at("grid"));
  if (!grid) return grid.error();  // nothing below can be checked without a grid
  m.grid_ = std::move(grid).value();
  const HexGrid& g = m.grid_;
  const int n = g.size();

  read_vocabulary(r, "terrain_types", true, INT16_MAX, m.terrain_types_);
  read_vocabulary(r, "hex_features", false, 64, m.hex_features_);
  read_vocabulary(r, "hexside_features", false, 64, m.hexside_features_);

  m.terrain_.assign(n, -1);
  m.features_.assign(n, 0);
  m.names_.assign(n, std::string());
  m.country_.assign(n, -1);
  m.extra_index_.assign(n, -1);
  std::vector<int32_t> listed_at(n, -1);  // hex -> its position in "hexes", for duplicates
  std::vector<std::pair<int, int>> region_pairs;

  const auto grid_range = [&g]() {
    return " (ids are " + std::string(g.to_json()["id_format"]) + ", rows " + std::to_string(g.first_row()) +
           "-" + std::to_string(g.last_row()) + ", columns " + std::to_string(g.first_col()) + "-" +
           std::to_string(g.last_col()) + ")";
  };

  const auto hexes = r.at("hexes").elements();
  for (size_t pos = 0; pos < hexes.size(); ++pos) {
    const JsonReader& h = hexes[pos];
    if (!h.is_object()) {
      h.fail_value("each hex must be an object");
      continue;
    }
    h.check_reconstructed();
    const JsonReader id_r = h.at("id");
    const std::string id = id_r.as_str();
    if (!id_r.json().is_string()) continue;
    const int idx = g.parse(id);
    if (idx < 0) {
      id_r.fail("\"" + id + "\" is not a hex of the grid" + grid_range());
      continue;
    }
    if (listed_at[idx] >= 0) {
      id_r.fail("hex \"" + id + "\" is listed twice (first at /hexes/" + std::to_string(listed_at[idx]) +
                ")");
      continue;
    }
    listed_at[idx] = static_cast<int32_t>(pos);

    const JsonReader t = h.at("terrain");
    const std::string terrain = t.as_str();
    const int tid = m.terrain_types_.find(terrain);
    if (t.json().is_string() && tid < 0)
      t.fail("unknown terrain \"" + terrain +
             "\" (not declared in terrain_types: " + m.terrain_types_.list() + ")");
    // An entry with a bad terrain still marks the hex on-map (terrain 0) so later checks
    // (hexsides, railways) do not report follow-on errors; the map is refused anyway.
    m.terrain_[idx] = static_cast<int16_t>(std::max(tid, 0));
    if (auto f = h.opt("features")) m.features_[idx] = read_feature_bits(*f, m.hex_features_, "hex_features");
    m.names_[idx] = h.str_or("name", "");
    if (auto c = h.opt("country")) {
      const std::string country = c->as_str();
      if (c->json().is_string()) {
        if (country.empty())
          c->fail("country must not be empty");
        else
          m.country_[idx] = static_cast<int16_t>(m.countries_.intern(country));
      }
    }
    for (const std::string& reg : h.str_list_or_empty("regions"))
      if (!reg.empty()) region_pairs.emplace_back(m.regions_.intern(reg), idx);

    Json extra = Json::object();
    for (auto it = h.json().begin(); it != h.json().end(); ++it) {
      static const char* kKnown[] = {"id", "terrain", "features", "name", "country", "regions"};
      if (std::find(std::begin(kKnown), std::end(kKnown), it.key()) == std::end(kKnown))
        extra[it.key()] = it.value();
    }
    if (!extra.empty()) {
      m.extra_index_[idx] = static_cast<int32_t>(m.extras_.size());
      m.extras_.push_back(std::move(extra));
    }
  }
  for (int i = 0; i < n; ++i) m.on_map_count_ += m.terrain_[i] >= 0 ? 1 : 0;
  if (r.at("hexes").is_array() && m.on_map_count_ == 0) r.at("hexes").fail("the map has no hexes");

  // A reference to an on-map hex by id; errors name the field.
  const auto on_map_hex = [&](const JsonReader& e) -> int {
    const std::string id = e.as_str();
    if (!e.json().is_string()) return -1;
    const int idx = g.parse(id);
    if (idx < 0) {
      e.fail("\"" + id + "\" is not a hex of the grid" + grid_range());
      return -1;
    }
    if (m.terrain_[idx] < 0) {
      e.fail("hex \"" + id + "\" is not on the map (not listed in \"hexes\")");
      return -1;
    }
    return idx;
  };

  if (auto regs = r.opt("regions")) {
    for (const auto& [name, list] : regs->members()) {
      if (name.empty()) {
        list.fail("region names must not be empty");
        continue;
      }
      const int reg = m.regions_.intern(name);
      for (const JsonReader& e : list.elements()) {
        const int idx = on_map_hex(e);
        if (idx >= 0) region_pairs.emplace_back(reg, idx);
      }
    }
  }
  m.region_member_.assign(m.regions_.size(), std::vector<uint8_t>(n, 0));
  m.region_hexes_.assign(m.regions_.size(), {});
  for (auto [reg, idx] : region_pairs) {
    if (m.region_member_[reg][idx] != 0) continue;  // listed both in the hex and the region
    m.region_member_[reg][idx] = 1;
    m.region_hexes_[reg].push_back(idx);
  }
  for (auto& list : m.region_hexes_) std::sort(list.begin(), list.end());

  m.side_features_.assign(g.hexside_count(), 0);
  m.side_name_index_.assign(g.hexside_count(), -1);
  std::vector<int32_t> side_listed_at(g.hexside_count(), -1);
  if (auto sides = r.opt("hexsides")) {
    const auto list = sides->elements();
    for (size_t pos = 0; pos < list.size(); ++pos) {
      const JsonReader& s = list[pos];
      s.check_reconstructed();
      const JsonReader pair = s.at("hexes");
      if (pair.is_array() && pair.size() != 2) {
        pair.fail_value("a hexside names exactly two hexes");
        continue;
      }
      const int a = on_map_hex(pair.at(0)), b = on_map_hex(pair.at(1));
      if (a < 0 || b < 0) continue;
      const int side = g.hexside_index(a, b);
      if (side < 0) {
        pair.fail_value("hexes " + g.id(a) + " and " + g.id(b) +
                        " are not adjacent, so they share no hexside");
        continue;
      }
      if (side_listed_at[side] >= 0) {
        pair.fail_value("hexside " + g.id(a) + "/" + g.id(b) + " is listed twice (first at /hexsides/" +
                        std::to_string(side_listed_at[side]) + ")");
        continue;
      }
      side_listed_at[side] = static_cast<int32_t>(pos);
      if (auto f = s.opt("features"))
        m.side_features_[side] = read_feature_bits(*f, m.hexside_features_, "hexside_features");
      const std::string name = s.str_or("name", "");
      if (!name.empty()) {
        m.side_name_index_[side] = static_cast<int32_t>(m.side_names_.size());
        m.side_names_.push_back(name);
      }
    }
  }

  m.rail_side_.assign(g.hexside_count(), 0);
  m.rail_hex_.assign(n, 0);
  if (auto rails = r.opt("railways")) {
    for (const JsonReader& line : rails->elements()) {
      std::vector<int32_t> chain;
      if (line.is_array() && line.size() < 2) line.fail_value("a railway lists at least two hexes");
      const auto ids = line.elements();
      for (size_t k = 0; k < ids.size(); ++k) {
        const int idx = on_map_hex(ids[k]);
        if (idx < 0) break;
        if (!chain.empty()) {
          const int side = g.hexside_index(chain.back(), idx);
          if (side < 0) {
            ids[k].fail("railway hex \"" + g.id(idx) + "\" is not adjacent to the previous hex \"" +
                        g.id(chain.back()) + "\"");
            break;
          }
          m.rail_side_[side] = 1;
        }
        m.rail_hex_[idx] = 1;
        chain.push_back(idx);
      }
      m.railways_.push_back(std::move(chain));
    }
  }

  if (!r.ok()) return r.error();

  NodeGraph::Builder b(n);
  for (int i = 0; i < n; ++i) {
    if (m.terrain_[i] < 0) continue;
    for (int d = 0; d < HexGrid::kDirections; ++d) {
      const int nb = g.neighbour(i, d);
      if (nb >= 0 && m.terrain_[nb] >= 0) b.add(i, nb, g.hexside_index_dir(i, d));
    }
  }
  m.graph_ = b.finish();
  m.doc_ = doc;
  return m;
}

int HexMap::find(std::string_view id) const {
  const int idx = grid_.parse(id);
  return on_map(idx) ? idx : -1;
}

Result<int> HexMap::hex(std::string_view id) const {
  const int idx = grid_.parse(id);
  if (idx < 0) return grid_.index_of(id).error();
  if (!on_map(idx)) {
    std::string msg = "hex ";
    msg += quoted(id);
    msg += " is off the map";
    return Error{std::move(msg), "", ""};
  }
  return idx;
}

const std::string& HexMap::terrain_name(int idx) const {
  return terrain_[idx] < 0 ? kEmpty : terrain_types_.name(terrain_[idx]);
}

const std::string& HexMap::country_name(int idx) const {
  return country_[idx] < 0 ? kEmpty : countries_.name(country_[idx]);
}

const Json& HexMap::extra(int idx) const {
  return extra_index_[idx] < 0 ? kNullJson : extras_[extra_index_[idx]];
}

FeatureBits HexMap::hexside_features(int a, int b) const {
  return hexside_features_at(grid_.hexside_index(a, b));
}

const std::string& HexMap::hexside_name(int a, int b) const {
  const int side = grid_.hexside_index(a, b);
  return side < 0 || side_name_index_[side] < 0 ? kEmpty : side_names_[side_name_index_[side]];
}

bool HexMap::rail_between(int a, int b) const { return rail_at(grid_.hexside_index(a, b)); }

Result<Json> HexMap::describe(std::string_view id) const {
  auto idx_r = hex(id);
  if (!idx_r) return idx_r.error();
  const int idx = *idx_r;
  Json j{{"id", std::string(id)},
         {"terrain", terrain_name(idx)},
         {"features", hex_features_.names_of(features_[idx])},
         {"rail", has_rail(idx)}};
  if (!names_[idx].empty()) j["name"] = names_[idx];
  if (country_[idx] >= 0) j["country"] = country_name(idx);
  Json regs = Json::array();
  for (int reg = 0; reg < regions_.size(); ++reg)
    if (in_region(idx, reg)) regs.push_back(regions_.name(reg));
  j["regions"] = regs;
  Json nbs = Json::object(), sides = Json::object();
  for (int d = 0; d < HexGrid::kDirections; ++d) {
    const int nb = grid_.neighbour(idx, d);
    const std::string& dir = grid_.direction_name(d);
    if (!on_map(nb)) {
      nbs[dir] = nullptr;  // off the map
      continue;
    }
    nbs[dir] = grid_.id(nb);
    const int side = grid_.hexside_index_dir(idx, d);
    Json s{{"features", hexside_features_.names_of(side_features_[side])}};
    if (side_name_index_[side] >= 0) s["name"] = side_names_[side_name_index_[side]];
    if (rail_side_[side] != 0) s["rail"] = true;
    if (side_features_[side] != 0 || s.contains("name") || s.contains("rail")) sides[dir] = s;
  }
  j["neighbours"] = nbs;
  j["hexsides"] = sides;
  if (!extra(idx).is_null()) j["extra"] = extra(idx);
  return j;
}

}  // namespace steppe
