// Loading data/agc/ (docs/agc-design.md): the map, the counters, the charts the rules read
// and the scenarios. Every value comes from the JSON; nothing here is a table.
#include <algorithm>
#include <cmath>

#include "games/agc/agc.h"
#include "kernel/json_data.h"

namespace agc {

using steppe::Error;
using steppe::Result;

namespace {

const char* const kWeatherNames[kWeathers] = {"dry", "frost", "mud", "snow"};

int weather_index(const std::string& w) {
  for (int i = 0; i < kWeathers; ++i)
    if (w == kWeatherNames[i]) return i;
  return -1;
}

// A movement.json cell: a number, or a sentence (prohibited off roads, which the roads of
// 10.7.7 will open): -1.
int8_t cost_cell(const Json& v) {
  return v.is_number_integer() ? static_cast<int8_t>(v.get<int>()) : int8_t{-1};
}

// "1.5-1" -> (3, 2); "1-4" -> (2, 8): both halves doubled to keep the 1.5.
std::pair<int, int> odds_of(const std::string& col) {
  const auto dash = col.find('-');
  const double a = std::stod(col.substr(0, dash));
  const double b = std::stod(col.substr(dash + 1));
  return {static_cast<int>(std::lround(a * 2)), static_cast<int>(std::lround(b * 2))};
}

// A number field, or `def` when it is absent or null (e.g. a lake's combat DRM: no combat).
int int_or(const Json& o, const char* key, int def) {
  return o.contains(key) && o.at(key).is_number() ? o.at(key).get<int>() : def;
}

}  // namespace

Result<std::unique_ptr<steppe::Game>> load_game(const std::filesystem::path& data_dir) {
  const auto dir = data_dir / "agc";
  auto g = std::make_unique<AgcGame>();
  auto load = [&](const char* name) { return steppe::load_json_file(dir / name); };
  auto map = load("map.json");
  if (!map) return map.error();
  const Json& m = map.value();
  auto grid = steppe::HexGrid::from_json(m.at("grid"), "agc/map.json");
  if (!grid) return grid.error();
  g->grid_ = std::move(grid).value();
  const int n = g->grid_.size();
  for (const auto& t : m.at("terrain_types")) g->terrain_names_.push_back(t.get<std::string>());
  g->terrain_.assign(n, 0);
  g->settlement_.assign(n, 0);
  g->control0_.assign(n, kNoSide);
  for (const auto& h : m.at("hexes")) {
    const int idx = g->grid_.parse(h.at("id").get<std::string>());
    if (idx < 0) return Error{"bad hex id " + h.at("id").dump(), "", "agc/map.json"};
    const auto t =
        std::find(g->terrain_names_.begin(), g->terrain_names_.end(), h.at("terrain").get<std::string>());
    if (t == g->terrain_names_.end())
      return Error{"unknown terrain " + h.at("terrain").dump(), "", "agc/map.json"};
    g->terrain_[idx] = static_cast<uint8_t>(t - g->terrain_names_.begin());
    if (h.contains("settlement")) {
      const auto s = h.at("settlement").get<std::string>();
      g->settlement_[idx] = s == "town" ? 1 : s == "city" ? 2 : s == "major-city" ? 3 : 0;
    }
    if (h.contains("control")) g->control0_[idx] = h.at("control") == "axis" ? kAxis : kSoviet;
  }
  g->river_ = steppe::HexSideBits(g->grid_);
  g->major_river_ = steppe::HexSideBits(g->grid_);
  g->all_lake_ = steppe::HexSideBits(g->grid_);
  g->road_bridge_ = steppe::HexSideBits(g->grid_);
  g->rail_bridge_ = steppe::HexSideBits(g->grid_);
  g->rail_ = steppe::HexSideBits(g->grid_);
  for (auto& r : g->road_) r = steppe::HexSideBits(g->grid_);
  for (const auto& hs : m.at("hexsides")) {
    const int a = g->grid_.parse(hs.at("hexes")[0].get<std::string>());
    const int b = g->grid_.parse(hs.at("hexes")[1].get<std::string>());
    const int d = a >= 0 && b >= 0 ? g->grid_.direction(a, b) : -1;
    if (d < 0) return Error{"hexside of non-adjacent hexes " + hs.at("hexes").dump(), "", "agc/map.json"};
    for (const auto& f : hs.at("features")) {
      if (f == "river") g->river_.set(g->grid_, a, d);
      if (f == "major-river") g->major_river_.set(g->grid_, a, d);
      if (f == "all-lake") g->all_lake_.set(g->grid_, a, d);
      if (f == "road-bridge") g->road_bridge_.set(g->grid_, a, d);
      if (f == "rail-bridge") g->rail_bridge_.set(g->grid_, a, d);
    }
  }
  // 10.7.7: a road crosses the hexside between two consecutive hexes of its line.
  auto mark_line = [&](const Json& hexes, steppe::HexSideBits& bits) -> steppe::Status {
    for (size_t i = 1; i < hexes.size(); ++i) {
      const int a = g->grid_.parse(hexes[i - 1].get<std::string>());
      const int b = g->grid_.parse(hexes[i].get<std::string>());
      const int d = a >= 0 && b >= 0 ? g->grid_.direction(a, b) : -1;
      if (d < 0)
        return Error{"road or railroad jumps " + hexes[i - 1].dump() + "-" + hexes[i].dump(), "10.7.7",
                     "agc/map.json"};
      bits.set(g->grid_, a, d);
    }
    return steppe::Status::ok();
  };
  const char* const road_types[3] = {"motorway", "main-road", "minor-road"};
  for (const auto& r : m.at("roads")) {
    const auto type = r.at("type").get<std::string>();
    int t = -1;
    for (int k = 0; k < 3; ++k)
      if (type == road_types[k]) t = k;
    if (t < 0) return Error{"unknown road type " + r.at("type").dump(), "10.7.7", "agc/map.json"};
    if (auto st = mark_line(r.at("hexes"), g->road_[t]); !st.is_ok()) return st.error();
  }
  for (const auto& r : m.at("railways"))
    if (auto st = mark_line(r.at("hexes"), g->rail_); !st.is_ok()) return st.error();
  const char* const edges[2] = {"axis_supply_edge", "soviet_supply_edge"};
  for (int side = 0; side < 2; ++side)
    for (const auto& id : m.at("regions").at(edges[side]))
      g->supply_edge_[side].push_back(g->grid_.parse(id.get<std::string>()));
  g->map_doc_ = Json{{"grid", m.at("grid")}, {"terrain_types", m.at("terrain_types")}};

  // 10.7 Movement Point Cost Chart (movement.json): '+' terrains add to clear.
  auto mv = load("movement.json");
  if (!mv) return mv.error();
  const Json& hexc = mv.value().at("hex");
  const char* const classes[2] = {"leg", "motorized"};
  g->hex_cost_.resize(g->terrain_names_.size());
  for (size_t t = 0; t < g->terrain_names_.size(); ++t) {
    const auto& name = g->terrain_names_[t];
    for (int c = 0; c < 2; ++c)
      for (int w = 0; w < kWeathers; ++w) {
        if (!hexc.contains(name))
          return Error{"no movement cost for terrain " + name, "10.7", "agc/movement.json"};
        const Json& cell = hexc.at(name).at(classes[c]);
        int8_t v = cell.is_object() ? cost_cell(cell.at(kWeatherNames[w])) : int8_t{-1};
        if (v >= 0 && hexc.at(name).value("plus", false))
          v = static_cast<int8_t>(v + hexc.at("clear").at(classes[c]).at(kWeatherNames[w]).get<int>());
        g->hex_cost_[t][c][w] = v;
      }
  }
  for (int c = 0; c < 2; ++c)
    for (int w = 0; w < kWeathers; ++w)
      g->river_cost_[c][w] =
          cost_cell(mv.value().at("hexside").at("river").at(classes[c]).at(kWeatherNames[w]));
  // 10.7.7, 10.7.8: road rates (movement.json roads), kept in half MPs.
  const Json& roads = mv.value().at("roads");
  auto halves = [](const Json& v, int cls) -> int8_t {
    if (v.is_object()) {
      const char* const k[2] = {"leg", "motorized"};
      return v.contains(k[cls]) && v.at(k[cls]).is_number()
                 ? static_cast<int8_t>(std::lround(v.at(k[cls]).get<double>() * 2))
                 : int8_t{-1};
    }
    if (v.is_number()) return static_cast<int8_t>(std::lround(v.get<double>() * 2));
    return int8_t{-2};  // a sentence: the Mud column of the hex terrain (10.7.8c.2)
  };
  for (int w = 0; w < kWeathers; ++w) {
    g->major_road_halves_[0][w] = halves(roads.at("motorway").at(kWeatherNames[w]), 0);
    g->major_road_halves_[1][w] = halves(roads.at("main-road").at(kWeatherNames[w]), 0);
    for (int c = 0; c < 2; ++c) {
      g->minor_road_halves_[0][c][w] = halves(roads.at("minor-road").at("clear").at(kWeatherNames[w]), c);
      g->minor_road_halves_[1][c][w] = halves(roads.at("minor-road").at("other").at(kWeatherNames[w]), c);
    }
    g->lake_hexside_open_[w] = mv.value().at("hexside").at("all-lake").at(kWeatherNames[w]).is_number();
    g->major_river_snow_plus_[w] =
        w == weather_index("snow")
            ? static_cast<int8_t>(int_or(mv.value().at("hexside").at("major-river"), "snow_plus", 0))
            : int8_t{0};
    g->infiltration_allowed_[w] =
        mv.value().at("effects_on_movement").at("infiltration").at(kWeatherNames[w]).get<bool>();
  }
  g->enemy_zoc_plus_ = mv.value().at("other").at("enemy_zoc_plus").at("value").get<int>();
  {  // 11.1 railroad movement, 11.3 strategic movement
    const Json& rm = mv.value().at("rail_movement");
    g->rail_hexes_ = rm.at("hexes").at("value").get<int>();
    g->armored_train_hexes_ = rm.at("armored_train_hexes").at("value").get<int>();
    g->rail_interdicted_cost_ = rm.at("interdicted_hex_cost").at("value").get<int>();
    g->rail_enemy_distance_ = rm.at("enemy_distance").at("value").get<int>();
    g->rail_zero_points_ = rm.at("zero_stacking_points").at("value").get<int>();
    const Json& sm = mv.value().at("strategic_movement");
    g->strategic_ma_halves_ = static_cast<int>(std::lround(sm.at("ma_factor").at("value").get<double>() * 2));
    g->strategic_enemy_distance_ = sm.at("enemy_distance").at("value").get<int>();
  }
  for (size_t t = 0; t < g->terrain_names_.size(); ++t) {
    if (g->terrain_names_[t] == "woods") g->woods_terrain_ = static_cast<int>(t);
    if (g->terrain_names_[t] == "clear") g->clear_terrain_ = static_cast<int>(t);
    if (g->terrain_names_[t] == "swamp") g->swamp_terrain_ = static_cast<int>(t);
    if (g->terrain_names_[t] == "marsh") g->marsh_terrain_ = static_cast<int>(t);
    if (g->terrain_names_[t] == "lake") g->lake_terrain_ = static_cast<int>(t);
  }
  // Movement Phase Chart: which class moves in which phase, at what fraction of its MA.
  const char* const phase_keys[kPhaseCount] = {"axis_movement",
                                               "",
                                               "reaction",
                                               "",
                                               "axis_motorized_movement",
                                               "soviet_motorized_movement",
                                               "reaction",
                                               "",
                                               "soviet_movement",
                                               "",
                                               "",
                                               ""};  // no unit moves in 4.2 B6, C5, C6
  for (int p = 0; p < kPhaseCount; ++p) {
    if (*phase_keys[p] == 0) continue;
    const Json& row = mv.value().at("phases").at(phase_keys[p]);
    for (int c = 0; c < 2; ++c) {
      const Json& f = row.at(classes[c]);
      g->ma_halves_[p][c] =
          f.is_number() ? static_cast<uint8_t>(std::lround(f.get<double>() * 2)) : uint8_t{0};
    }
  }

  // Combat Effects Chart (cec.json) and the numbers of tables.json.
  auto cec = load("cec.json");
  if (!cec) return cec.error();
  for (const auto& name : g->terrain_names_) {
    const Json& row = cec.value().at("hex").contains(name) ? cec.value().at("hex").at(name) : Json::object();
    g->terrain_drm_.push_back(static_cast<int8_t>(int_or(row, "drm", 0)));
    g->terrain_zoc_into_.push_back(row.value("zoc_into", true) ? 1 : 0);
    g->terrain_attack_from_halved_.push_back(row.value("attack_from_halved", false) ? 1 : 0);
    g->terrain_protective_.push_back(row.value("protective_16_6_1b", false) ? 1 : 0);  // 16.6.1b
  }
  {
    const Json& hx = cec.value().at("hex");
    const char* const settlements[4] = {"", "town", "city", "major-city"};
    for (int k = 1; k < 4; ++k)
      g->settlement_armor_halved_[k] =
          hx.contains(settlements[k]) && hx.at(settlements[k]).value("armor_attack_halved", false);
    for (int k = 1; k < 4; ++k)
      g->settlement_protective_[k] =
          hx.contains(settlements[k]) && hx.at(settlements[k]).value("protective_16_6_1b", false);
    const Json& sides = cec.value().at("hexside");
    g->river_drm_ = int_or(sides.at("river"), "drm", 0);
    const auto mr = sides.at("major-river").value("attack_across_halved", std::string());
    const auto lake = sides.at("all-lake").value("attack_across", std::string());
    for (int w = 0; w < kWeathers; ++w) {
      const bool snow = w == weather_index("snow");
      g->major_river_attack_halved_[w] = mr == "except snow" ? !snow : mr == "always";
      g->lake_attack_open_[w] = lake == "snow only" ? snow : true;
    }
  }
  for (int w = 0; w < kWeathers; ++w)
    g->zoc_across_major_river_[w] =
        cec.value().at("zoc_by_weather").at("major_river_lake").at(kWeatherNames[w]).get<bool>();
  auto tables = load("tables.json");
  if (!tables) return tables.error();
  g->drm_no_retreat_ = tables.value().at("drm").at("defender_no_retreat").at("value").get<int>();  // 15.6.2
  g->strongpoint_drm_ = tables.value().at("drm").at("strongpoint").at("value").get<int>();         // 18.3.6
  g->overrun_marked_drm_ =
      cec.value().at("markers").at("overrun-marked-defender").at("drm").get<int>();  // 11.4.4d
  {  // 21.1.2: the Soviet Surrender Table (surrender.json)
    auto sur = load("surrender.json");
    if (!sur) return sur.error();
    for (const auto& r : sur.value().at("results"))
      if (r.at("result") == "surrender") g->surrender_from_ = r.at("modified_roll").at(0).get<int>();
    for (const auto& e : sur.value().at("drms")) {
      const std::string k = e.at("key").get<std::string>();
      const int v = e.at("drm").get<int>();
      if (k == "guards_nkvd") g->surrender_guards_drm_ = v;
      if (k == "major_city") g->surrender_major_city_drm_ = v;
      if (k == "town_city_fortification") g->surrender_town_city_fort_drm_ = v;
      if (k == "all_out_of_supply") g->surrender_all_oos_drm_ = v;
      if (k == "operational_hq") g->surrender_hq_drm_ = v;
    }
  }
  g->mandated_min_ =
      odds_of(tables.value().at("limits").at("mandated_min_odds").at("value").get<std::string>());
  g->hq_range_ = tables.value().at("ranges").at("hq_command_range").at("value").get<int>();  // 22.1.1
  g->reaction_range_ = tables.value().at("ranges").at("reaction_from_declared_hex").at("value").get<int>();
  g->additional_retreat_hexes_ =
      tables.value().at("retreat").at("additional_retreat_hexes").at("value").get<int>();
  g->retreat_hexes_ = tables.value().at("retreat").at("retreat_hexes").at("value").get<int>();
  for (const auto& sname : tables.value().at("retreat_orders").at("settlements")) {
    const auto w = sname.get<std::string>();
    const int v = w == "town" ? 1 : w == "city" ? 2 : w == "major-city" ? 3 : 0;
    if (v > 0) g->nkvd_no_retreat_[v] = true;  // 14.3.5
  }
  g->stacking_limit_ = tables.value().at("stacking").at("points_per_hex").at("value").get<int>();
  g->retreat_safe_max_ = tables.value().at("retreat").at("success_max").at("value").get<int>();
  g->infiltration_min_ma_ = tables.value().at("movement").at("infiltration_min_ma").at("value").get<int>();
  g->drm_limit_ = tables.value().at("crt").at("final_drm_limit").at("value").get<int>();
  g->drm_defender_out_of_supply_ =
      tables.value().at("drm").at("defender_out_of_supply").at("value").get<int>();
  // 6.2.2 LOC length and 6.3 road-net length by weather (ruling A-2).
  const Json& supply = tables.value().at("supply");
  for (int w = 0; w < kWeathers; ++w) {
    g->loc_hexes_[w] = static_cast<int8_t>(supply.at("loc_hexes").at(kWeatherNames[w]).get<int>());
    g->road_net_hexes_[w] = static_cast<int8_t>(supply.at("road_net_hexes").at(kWeatherNames[w]).get<int>());
  }
  g->loc_reduced_hexes_ = supply.at("loc_reduced_hexes").at("value").get<int>();
  auto crt = load("crt.json");
  if (!crt) return crt.error();
  for (const auto& col : crt.value().at("columns")) {
    const auto name = col.get<std::string>();
    g->crt_columns_.push_back(odds_of(name));
    std::array<std::pair<std::string, std::string>, 12> rows;
    const Json& cells = crt.value().at("cells").at(name);
    if (cells.size() != rows.size())
      return Error{"CRT column " + name + " needs 12 rows", "15.8", "agc/crt.json"};
    for (size_t r = 0; r < rows.size(); ++r)
      rows[r] = {cells[r].at("attacker").get<std::string>(), cells[r].at("defender").get<std::string>()};
    g->crt_.push_back(rows);
  }

  // The air tables (air.json): 9.1 readiness, 17.1.4 mission size, 17.2.3 Air Initiative, 17.2.4
  // Air Combat, 17.3 AA Fire, 13.1.2 interdiction levels.
  auto airdoc = load("air.json");
  if (!airdoc) return airdoc.error();
  const Json& air = airdoc.value();
  {
    AirTables& t = g->air_;
    t.ready_max = air.at("readiness").at("flown_box").at("ready_on")[1].get<int>();
    t.damaged_max = air.at("readiness").at("damaged_box").at("to_flown_on")[1].get<int>();
    for (int w = 0; w < kWeathers; ++w)
      t.weather_drm[w] =
          static_cast<int8_t>(air.at("readiness").at("weather_drm").at(kWeatherNames[w]).get<int>());
    t.max_units = air.at("missions").at("max_air_units").get<int>();
    const char* const kinds[] = {"mission-lta", "mission-initiative", "get-through", "intercept-initiative",
                                 "intercept-lta"};
    for (const auto& r : air.at("air_initiative").at("rows")) {
      int k = -1;
      for (int i = 0; i < 5; ++i)
        if (r.at("kind") == kinds[i]) k = i;
      if (k < 0)
        return Error{"unknown Air Initiative result " + r.at("kind").dump(), "17.2.3", "agc/air.json"};
      t.initiative.push_back({r.at("roll")[0].get<int>(), r.at("roll")[1].get<int>(), k});
    }
    for (const auto& r : air.at("air_initiative").at("drms")) {
      t.initiative_drm = r.at("drm").get<int>();
      t.initiative_drm_side = r.value("side", "axis") == "axis" ? kAxis : kSoviet;
      for (const auto& mo : r.at("months")) t.initiative_drm_months.push_back(mo.get<int>());
    }
    const Json& ac = air.at("air_combat");
    for (int c = 0; c < 9; ++c) {
      const Json& col = ac.at("cells").at(ac.at("columns")[c].get<std::string>());
      if (col.size() != 10)
        return Error{"an Air Combat Table column needs 10 rows", "17.2.4", "agc/air.json"};
      for (int r = 0; r < 10; ++r) t.combat[c][r] = col[r].get<std::string>()[0];
    }
    const Json& aa = air.at("aa_fire");
    for (int r = 0; r < 10; ++r) t.aa[r] = aa.at("results")[r].get<std::string>()[0];
    t.aa_unit_drm = aa.at("drms")[0].at("drm").get<int>();
    t.aa_city_drm = aa.at("drms")[1].at("drm").get<int>();
    t.aa_bomber_drm = aa.at("drms")[2].at("drm").get<int>();
    t.level_two_total = air.at("interdiction").at("level").at("rating_total_2_or_more").get<int>();
    t.max_level = air.at("interdiction").at("level").at("max_per_hex").get<int>();
  }
  auto listed = [](const Json& list, const std::string& v) {
    for (const auto& x : list)
      if (x == v) return true;
    return false;
  };

  // Counters: ground combat units and air units (supply and bridge counters wait for 6.8, 22.4).
  auto counters = load("counters.json");
  if (!counters) return counters.error();
  for (const auto& u : counters.value().at("units")) {
    UnitDef d;
    d.id = u.at("id").get<std::string>();
    d.label = u.value("label", d.id);
    d.side = u.at("side") == "axis" ? kAxis : kSoviet;
    if (u.contains("full") && u.at("full").is_object()) {
      d.attack = int_or(u.at("full"), "attack", 0);
      d.defense = int_or(u.at("full"), "defense", 0);
      const Json& red = u.contains("reduced") && u.at("reduced").is_object() ? u.at("reduced") : u.at("full");
      d.reduced_attack = int_or(red, "attack", 0);
      d.reduced_defense = int_or(red, "defense", 0);
      d.combat = d.defense > 0;
    }
    d.ma = int_or(u, "ma", 0);
    d.stacking = int_or(u, "stacking", 0);
    d.steps = std::max(1, int_or(u, "steps", 1));
    d.zoc = u.value("zoc", false);
    d.armor = u.value("armor", false);
    d.cavalry = u.value("type", "") == "cavalry-division";
    d.supply_counter = u.value("type", "") == "supply";
    for (const auto& t : tables.value().at("advance_after_combat").at("artillery_types"))
      if (u.value("type", "") == t.get<std::string>()) d.artillery = true;  // 16.7.2
    d.support = int_or(u, "support", 0);                                    // 14.2, 15.4
    d.reduced_support = int_or(u, "reduced_support", d.support);
    d.range = int_or(u, "range", 0);
    d.hq = u.value("hq", false);                   // 22.1
    d.german = u.value("nation", "") == "german";  // 16.6.1a (ruling A-9)
    d.command_value = int_or(u, "command_value", 0);
    for (const auto& t : tables.value().at("retreat_orders").at("nkvd_types"))
      if (u.value("type", "") == t.get<std::string>()) d.nkvd = true;  // 14.3.5
    d.untried = u.value("untried", false);                             // 22.9.1, 22.10
    d.ur_mg = u.value("ur_mg", false);                                 // 22.9
    if (d.untried) d.combat = true;  // 22.9.2: "treated as ground combat units"
    d.engineer = u.value("engineer", false);
    d.guards = u.value("type", "").rfind("guards", 0) == 0;  // 22.8
    d.armored_train = u.value("type", "") == "armored-train";
    d.flotilla = u.value("type", "") == "flotilla";
    d.cls = u.value("ma_colour", "") == "green" ? kGreen : u.value("motorized", false) ? kMotorized : kLeg;
    const std::string type = u.value("type", "");
    if (type == "air" || u.contains("air_type")) {  // 17.1.1
      d.air = true;
      const auto at = u.value("air_type", "dummy");
      d.air_type = at == "F" ? kFighter : at == "B" ? kBomber : kDummy;
      d.acr = int_or(u, "acr", 0);
      d.cas = int_or(u, "cas", 0);
      d.interdiction = int_or(u, "interdiction", 0);
    }
    // 17.3.2: "All ground combat units are eligible for AA Fire except: a. Soviet non-HQ, non-AA
    // units of less than division size. b. All Soviet and Axis cavalry units. c. Axis units that
    // have a 'No ZOC' band."
    d.type = type;                                                        // 8.6.1: the unit type symbol
    d.recovery = int_or(u, "recovery", 0);                                // 22.2.1
    d.militia = u.value("militia", false) || type == "militia-division";  // 22.10
    d.reserve = u.value("reserve", false);                                // 22.11: "RES"
    d.bridge = type == "bridge";                                          // 22.4
    const Json& aaf = air.at("aa_fire");
    d.aa = listed(aaf.at("aa_types"), type);
    d.aa_eligible = d.combat && !listed(aaf.at("cavalry_types"), type) &&
                    (d.side == kAxis ? d.zoc : d.hq || d.aa || listed(aaf.at("soviet_division_types"), type));
    g->units_.push_back(std::move(d));
  }

  // 7.0: the Replacement Tables (replacements.cpp).
  auto repl = load("replacements.json");
  if (!repl) return repl.error();
  if (auto st = load_replacement_data(*g, repl.value(), tables.value()); !st.is_ok()) return st.error();
  for (const char* sid : {"bialystok-minsk", "campaign"}) {
    auto sdoc = load((std::string("scenarios/") + sid + ".json").c_str());
    if (!sdoc) return sdoc.error();
    const Json& s = sdoc.value();
    ScenarioDef sc;
    sc.id = sid;
    sc.name = s.at("name").get<std::string>();
    sc.first_turn = s.at("first_turn").get<int>();
    sc.last_turn = s.at("last_turn").get<int>();
    if (s.contains("rail_capacity"))  // 11.1.3
      sc.rail_capacity = {s.at("rail_capacity").value("axis", 0), s.at("rail_capacity").value("soviet", 0)};
    sc.axis_strongpoints = s.value("axis_strongpoints_allowed", false);  // 18.3.4
    for (const auto& t : s.at("turns")) {
      sc.weather.push_back(std::max(0, weather_index(t.value("weather", t.value("climate", "dry")))));
      sc.storm.push_back(t.value("storm", false) ? 1 : 0);  // 5.1.3c: "Storms in addition"
      const auto date = t.value("date", std::string());     // YYYY-MM-DD
      sc.month.push_back(date.size() >= 7 ? static_cast<uint8_t>(std::stoi(date.substr(5, 2))) : uint8_t{0});
    }
    auto unit = [&](const Json& id) -> Result<int> {
      const int u = g->unit_index(id.get<std::string>());
      if (u < 0) return Error{"unknown unit " + id.dump(), "", std::string("agc/scenarios/") + sid + ".json"};
      return u;
    };
    std::vector<int> west_face;
    for (const auto& e : s.at("west_face_entry")) west_face.push_back(g->grid_.parse(e.get<std::string>()));
    for (const auto& e : s.at("setup")) {
      auto u = unit(e.at("unit"));
      if (!u) return u.error();
      const std::string box = e.value("box", "");
      if (g->units_[u.value()].air) {  // 17.1.2: the Air Operations Card
        const AirBox b = box == "air-ready"     ? kAirReady
                         : box == "air-flown"   ? kAirFlown
                         : box == "air-damaged" ? kAirDamaged
                                                : kAirDestroyed;
        sc.air_setup.emplace_back(u.value(), b);
        continue;
      }
      if (!g->units_[u.value()].combat) continue;
      if (e.contains("hex"))
        sc.setup.emplace_back(u.value(), g->grid_.parse(e.at("hex").get<std::string>()));
      else if (e.value("box", "") == "west-face")
        sc.arrivals.push_back({u.value(), sc.first_turn, west_face});
    }
    for (const auto& e : s.at("reinforcements")) {
      auto u = unit(e.at("unit"));
      if (!u) return u.error();
      if (g->units_[u.value()].air) {  // 8.2.3: "directly to the Ready Box"
        sc.air_arrivals.emplace_back(u.value(), e.at("turn").get<int>());
        continue;
      }
      if (!g->units_[u.value()].combat || !e.contains("hexes")) continue;
      ScenarioDef::Arrival a{u.value(), e.at("turn").get<int>(), {}, 0};
      for (const auto& h : e.at("hexes")) a.hexes.push_back(g->grid_.parse(h.get<std::string>()));
      // 8.1.4: placed in a city when it qualifies, else through the map edge listed with it.
      if (e.contains("city")) {
        a.placement = static_cast<int>(a.hexes.size());
        if (e.contains("or_edge"))
          for (const auto& h : e.at("or_edge")) a.hexes.push_back(g->grid_.parse(h.get<std::string>()));
      }
      sc.arrivals.push_back(std::move(a));
    }
    for (const auto& v : s.at("vp_locations"))
      sc.vp_locations.emplace_back(g->grid_.parse(v.at("hex").get<std::string>()), v.at("vp").get<int>());
    sc.axis_wins_at = s.at("victory").at("axis_wins_at").get<int>();
    if (auto st = load_scenario_cards(*g, s, sc); !st.is_ok()) return st.error();  // 7.1, 8.3, 8.6, 22.2.6
    g->scenarios_.push_back(std::move(sc));
  }
  auto h = steppe::rules_hash_of_dir(dir);
  if (!h) return h.error();
  g->rules_hash_ = h.value();
  return std::unique_ptr<steppe::Game>(std::move(g));
}

int AgcGame::unit_index(std::string_view id) const {
  for (size_t i = 0; i < units_.size(); ++i)
    if (units_[i].id == id) return static_cast<int>(i);
  return -1;
}

std::vector<steppe::ScenarioInfo> AgcGame::scenarios() const {
  std::vector<steppe::ScenarioInfo> out;
  for (const auto& s : scenarios_) out.push_back({s.id, s.name, s.name, s.first_turn, s.last_turn});
  return out;
}

Json AgcGame::map_json() const { return map_doc_; }

Result<Json> AgcGame::describe_location(const std::string& id) const {
  const int h = grid_.parse(id);
  if (h < 0) return Error{"no hex " + id + " on the map", "", ""};
  return Json{{"id", id}, {"terrain", terrain_names_[terrain_[h]]}, {"settlement", settlement_[h]}};
}

}  // namespace agc
