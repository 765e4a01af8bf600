#include "kernel/areamap.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace steppe {

namespace {
const std::string kEmpty;
const Json kNullJson;
}  // namespace

Result<AreaMap> AreaMap::load(const std::filesystem::path& file) {
  auto doc = load_json_file(file);
  if (!doc) return doc.error();
  return from_json(*doc, file.string());
}

Result<AreaMap> AreaMap::from_json(const Json& doc, const std::string& file) {
  JsonReader r(doc, file);
  if (!r.is_object()) {
    r.fail("a map file must be a JSON object");
    return r.error();
  }
  AreaMap m;
  r.check_reconstructed();
  m.reconstructed_ = r.is_reconstructed();
  read_vocabulary(r, "terrain_types", false, INT16_MAX, m.terrain_types_);
  read_vocabulary(r, "area_features", false, 64, m.area_features_);
  read_vocabulary(r, "connection_types", true, 64, m.connection_types_);

  std::unordered_map<std::string, int> by_id;
  std::unordered_map<std::string, std::string> first_path;
  const auto add_node = [&](const JsonReader& e, bool box) {
    if (!e.is_object()) {
      e.fail_value(box ? "each box must be an object" : "each area must be an object");
      return;
    }
    e.check_reconstructed();
    const JsonReader id_r = e.at("id");
    const std::string id = id_r.as_str();
    if (!id_r.json().is_string()) return;
    if (id.empty()) {
      id_r.fail("ids must not be empty");
      return;
    }
    if (by_id.count(id) != 0) {
      id_r.fail("id \"" + id + "\" is used twice (first at " + first_path[id] + ")");
      return;
    }
    const int node = static_cast<int>(m.ids_.size());
    by_id[id] = node;
    first_path[id] = e.path();
    m.ids_.push_back(id);
    m.names_.push_back(e.str_or("name", id));

    int terrain = -1;
    if (auto t = e.opt("terrain")) {
      const std::string name = t->as_str();
      terrain = m.terrain_types_.find(name);
      if (t->json().is_string() && terrain < 0)
        t->fail("unknown terrain \"" + name +
                "\" (not declared in terrain_types: " + m.terrain_types_.list() + ")");
    }
    m.terrain_.push_back(static_cast<int16_t>(terrain));
    FeatureBits bits = 0;
    if (auto f = e.opt("features")) bits = read_feature_bits(*f, m.area_features_, "area_features");
    m.features_.push_back(bits);

    std::vector<LonLat> poly;
    if (auto p = e.opt("polygon")) {
      for (const JsonReader& pt : p->elements()) {
        if (pt.is_array() && pt.size() != 2) {
          pt.fail_value("a polygon point is [longitude, latitude]");
          continue;
        }
        const double lon = pt.at(0).as_number(), lat = pt.at(1).as_number();
        if (lon < -180 || lon > 180 || lat < -90 || lat > 90)
          pt.fail_value("longitude must be within -180..180 and latitude within -90..90");
        poly.push_back({lon, lat});
      }
      if (p->is_array() && p->size() < 3) p->fail_value("a polygon needs at least 3 points");
    }
    m.polygons_.push_back(std::move(poly));

    Json extra = Json::object();
    for (auto it = e.json().begin(); it != e.json().end(); ++it) {
      static const char* kKnown[] = {"id", "name", "terrain", "features", "polygon"};
      if (std::find(std::begin(kKnown), std::end(kKnown), it.key()) == std::end(kKnown))
        extra[it.key()] = it.value();
    }
    m.extras_.push_back(extra.empty() ? Json() : std::move(extra));
  };

  for (const JsonReader& a : r.at("areas").elements()) add_node(a, false);
  m.area_count_ = static_cast<int>(m.ids_.size());
  if (auto boxes = r.opt("boxes"))
    for (const JsonReader& b : boxes->elements()) add_node(b, true);
  if (r.at("areas").is_array() && m.area_count_ == 0) r.at("areas").fail("the map has no areas");

  std::unordered_map<uint64_t, int> pair_seen;  // unordered node pair -> connection index
  const auto endpoint = [&](const JsonReader& c, const char* key) -> int {
    const JsonReader e = c.at(key);
    const std::string id = e.as_str();
    if (!e.json().is_string()) return -1;
    auto it = by_id.find(id);
    if (it == by_id.end()) {
      e.fail("\"" + id + "\" is not the id of an area or box of this map");
      return -1;
    }
    return it->second;
  };
  const auto conns = r.at("connections").elements();
  for (size_t pos = 0; pos < conns.size(); ++pos) {
    const JsonReader& c = conns[pos];
    c.check_reconstructed();
    const int a = endpoint(c, "a"), b = endpoint(c, "b");
    FeatureBits types = 0;
    if (auto t = c.opt("types")) types = read_feature_bits(*t, m.connection_types_, "connection_types");
    const bool one_way = c.boolean_or("one_way", false);
    if (a < 0 || b < 0) continue;
    if (a == b) {
      c.at("b").fail_value("a connection must join two different areas");
      continue;
    }
    const uint64_t key =
        (static_cast<uint64_t>(std::min(a, b)) << 32) | static_cast<uint32_t>(std::max(a, b));
    if (auto it = pair_seen.find(key); it != pair_seen.end()) {
      c.fail("connection " + m.ids_[a] + "-" + m.ids_[b] + " is listed twice (first at /connections/" +
             std::to_string(it->second) + ")");
      continue;
    }
    pair_seen[key] = static_cast<int>(m.connections_.size());
    m.connections_.push_back(AreaConnection{a, b, types, one_way});
  }

  if (!r.ok()) return r.error();

  NodeGraph::Builder builder(m.node_count());
  for (int i = 0; i < m.connection_count(); ++i) {
    const AreaConnection& c = m.connections_[i];
    builder.add(c.a, c.b, i);
    if (!c.one_way) builder.add(c.b, c.a, i);
  }
  m.graph_ = builder.finish();
  m.doc_ = doc;
  return m;
}

NodeGraph AreaMap::subgraph(FeatureBits types) const {
  std::vector<std::tuple<int32_t, int32_t, int32_t>> edges;  // (from, to, connection)
  for (int i = 0; i < connection_count(); ++i) {
    const AreaConnection& c = connections_[i];
    if ((c.types & types) == 0) continue;
    edges.emplace_back(c.a, c.b, i);
    if (!c.one_way) edges.emplace_back(c.b, c.a, i);
  }
  std::sort(edges.begin(), edges.end());  // a pair has one connection, so ids never decide
  NodeGraph::Builder builder(node_count());
  for (const auto& [from, to, id] : edges) builder.add(from, to, id);
  return builder.finish();
}

int AreaMap::find(std::string_view id) const {
  for (int i = 0; i < node_count(); ++i)
    if (ids_[i] == id) return i;
  return -1;
}

Result<int> AreaMap::node(std::string_view id) const {
  const int n = find(id);
  if (n < 0) return Error{quoted(id) + " is not an area or box of this map", "", ""};
  return n;
}

const std::string& AreaMap::terrain_name(int node) const {
  return terrain_[node] < 0 ? kEmpty : terrain_types_.name(terrain_[node]);
}

const Json& AreaMap::extra(int node) const { return extras_[node].is_null() ? kNullJson : extras_[node]; }

int AreaMap::connection_between(int a, int b) const {
  if (a < 0 || a >= node_count()) return -1;
  for (const GraphEdge& e : graph_.neighbours(a))
    if (e.to == b) return e.id;
  return -1;
}

FeatureBits AreaMap::connection_types_between(int a, int b) const {
  const int c = connection_between(a, b);
  return c < 0 ? 0 : connections_[c].types;
}

Result<Json> AreaMap::describe(std::string_view id) const {
  auto nr = node(id);
  if (!nr) return nr.error();
  const int n = *nr;
  Json j{{"id", ids_[n]},
         {"name", names_[n]},
         {"box", is_box(n)},
         {"features", area_features_.names_of(features_[n])}};
  if (terrain_[n] >= 0) j["terrain"] = terrain_name(n);
  Json nbs = Json::array();
  for (const GraphEdge& e : graph_.neighbours(n))
    nbs.push_back({{"id", ids_[e.to]}, {"types", connection_types_.names_of(connections_[e.id].types)}});
  j["neighbours"] = nbs;
  if (!extra(n).is_null()) j["extra"] = extra(n);
  return j;
}

}  // namespace steppe
