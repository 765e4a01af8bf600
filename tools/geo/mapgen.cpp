// The map generator: grid.json + data/geo extracts + hist overlays + map-fixes.json
// -> data/<game>/map.json. Deterministic: same inputs, byte-identical output.
#include "geo/mapgen.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "kernel/hexgrid.h"

namespace steppe::mapgen {
namespace {

using P2 = std::array<double, 2>;

double round_to(double v, double per_unit) { return std::round(v * per_unit) / per_unit; }

bool point_in_polygon(const std::vector<P2>& poly, double x, double y) {
  bool in = false;
  for (size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    const auto& a = poly[i];
    const auto& b = poly[j];
    if ((a[1] > y) != (b[1] > y) && x < (b[0] - a[0]) * (y - a[1]) / (b[1] - a[1]) + a[0]) in = !in;
  }
  return in;
}

double cross(const P2& o, const P2& a, const P2& b) {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

// Proper or touching intersection of segments p1p2 and q1q2; returns the crossing point.
bool segments_cross(const P2& p1, const P2& p2, const P2& q1, const P2& q2, P2* at) {
  const double d1 = cross(q1, q2, p1), d2 = cross(q1, q2, p2);
  const double d3 = cross(p1, p2, q1), d4 = cross(p1, p2, q2);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
    const double t = d1 / (d1 - d2);
    if (at) *at = {p1[0] + (p2[0] - p1[0]) * t, p1[1] + (p2[1] - p1[1]) * t};
    return true;
  }
  return false;
}

double dist_point_segment(const P2& p, const P2& a, const P2& b) {
  const double dx = b[0] - a[0], dy = b[1] - a[1];
  const double len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return std::hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

double dist_point_polyline(const P2& p, const std::vector<P2>& line) {
  double best = 1e300;
  for (size_t i = 1; i < line.size(); ++i) best = std::min(best, dist_point_segment(p, line[i - 1], line[i]));
  if (line.size() == 1) best = std::hypot(p[0] - line[0][0], p[1] - line[0][1]);
  return best;
}

std::vector<P2> read_points(const JsonReader& arr) {
  std::vector<P2> pts;
  for (const auto& p : arr.elements()) pts.push_back({p.at(0).as_number(), p.at(1).as_number()});
  return pts;
}

// Land/sea/lake mask (0 sea, 1 land, 2 lake), rows north -> south, pixel registration.
struct Mask {
  double west = 0, north = 0, step = 1;
  int ncols = 0, nrows = 0;
  std::vector<uint8_t> v;
  int at(double lon, double lat) const {
    const int c = static_cast<int>(std::floor((lon - west) / step));
    const int r = static_cast<int>(std::floor((north - lat) / step));
    if (c < 0 || r < 0 || c >= ncols || r >= nrows) return 1;  // outside the extract: land
    return v[static_cast<size_t>(r) * static_cast<size_t>(ncols) + static_cast<size_t>(c)];
  }
};

struct Relief {
  double west = 0, north = 0, dx = 1, dy = 1;
  int ncols = 0, nrows = 0;
  std::vector<int> v;
  int at(double lon, double lat) const {
    const int c = static_cast<int>(std::lround((lon - west) / dx));
    const int r = static_cast<int>(std::lround((north - lat) / dy));
    if (c < 0 || r < 0 || c >= ncols || r >= nrows) return 0;
    return v[static_cast<size_t>(r) * static_cast<size_t>(ncols) + static_cast<size_t>(c)];
  }
};

Result<Json> load(const std::filesystem::path& root, const std::string& rel) {
  auto r = load_json_file(root / rel);
  return r;
}

struct Country {
  std::string id, name, control;
  std::vector<P2> poly;
};

struct Zone {
  std::string terrain, name;
  std::vector<P2> poly;
};

struct Hex {
  int row = 0, col = 0;
  std::string id;
  P2 plane{}, lonlat{};
  int n = 0, sea = 0, lake = 0, land = 0;
  double elev_mean = 0;
  int elev_p90 = 0, elev_p10 = 0;
  std::string terrain = "clear";
  std::set<std::string> features;
  std::string name;
  int name_pop = -1;
  std::vector<std::string> also;
  std::string country, control;
  std::set<std::string> regions;
  std::string fortified;
  bool water() const { return terrain == "all-sea" || terrain == "all-lake"; }
};

struct Side {
  std::set<std::string> features;
  std::string name;
  std::vector<std::string> border_between;
};

struct River {
  int cls = 0;
  std::string name;     // set for hand courses (reservoirs)
  std::vector<P2> pts;  // plane
  double minx = 0, maxx = 0, miny = 0, maxy = 0;
};

void bbox(River& r) {
  r.minx = r.miny = 1e300;
  r.maxx = r.maxy = -1e300;
  for (const auto& p : r.pts) {
    r.minx = std::min(r.minx, p[0]);
    r.maxx = std::max(r.maxx, p[0]);
    r.miny = std::min(r.miny, p[1]);
    r.maxy = std::max(r.maxy, p[1]);
  }
}

}  // namespace

std::string dump_map(const Json& map) { return map.dump(1) + "\n"; }

Result<Json> generate(const std::filesystem::path& root, const std::string& game, GenerateReport* report) {
  auto say = [&](const std::string& s) {
    if (report) report->lines.push_back(s);
  };
  const std::string grid_rel = "data/" + game + "/grid.json";
  auto grid_doc = load(root, grid_rel);
  if (!grid_doc) return grid_doc.error();
  const JsonReader g(*grid_doc, grid_rel);
  g.check_reconstructed();
  auto fit_r = GeoFit::from_json(g);
  if (!fit_r) return fit_r.error();
  const GeoFit& fit = *fit_r;
  auto hg = HexGrid::from_json(g.at("grid"));
  if (!hg) return hg.error();
  const HexGrid& grid = *hg;
  const PlaneLayout layout = fit.layout();
  // Printed id of (row, col): the grid's own format (BD "RRCC", Dark Valley "CCRR").
  auto hex_id = [&](int row, int col) { return grid.id(grid.index(row, col)); };

  // ---- outline ------------------------------------------------------------------
  std::map<int, int> max_col;
  for (int r = grid.first_row(); r <= grid.last_row(); ++r) max_col[r] = grid.last_col();
  if (auto ol = g.opt("outline")) {
    for (const auto& [k, v] : ol->at("max_col").members()) {
      int r = -1;
      try {
        r = std::stoi(k);
      } catch (...) {
      }
      if (!max_col.count(r)) {
        v.fail("outline row " + k + " is not a row of the grid");
        continue;
      }
      max_col[r] = v.as_int_in(grid.first_col(), grid.last_col());
    }
  }
  if (!g.ok()) return g.error();
  auto on_map = [&](int idx) {
    if (idx < 0) return false;
    return grid.col(idx) <= max_col[grid.row(idx)];
  };

  // ---- inputs -------------------------------------------------------------------
  auto ext = g.at("extracts");
  auto ovl = g.at("overlays");
  const std::string mask_rel = ext.str("mask"), relief_rel = ext.str("relief"),
                    rivers_rel = ext.str("rivers");
  if (!g.ok()) return g.error();
  Mask mask;
  {
    auto d = load(root, mask_rel);
    if (!d) return d.error();
    JsonReader m(*d, mask_rel);
    mask.west = m.number("west");
    mask.north = m.number("north");
    mask.step = m.number("step_deg");
    mask.ncols = m.int_in("ncols", 1, 100000);
    mask.nrows = m.int_in("nrows", 1, 100000);
    if (!m.ok()) return m.error();
    mask.v.reserve(static_cast<size_t>(mask.ncols) * static_cast<size_t>(mask.nrows));
    const auto& rows = (*d)["rows_rle"];
    if (!rows.is_array() || static_cast<int>(rows.size()) != mask.nrows)
      return Error{"rows_rle must hold nrows run-length rows", "", mask_rel + ": /rows_rle"};
    for (size_t r = 0; r < rows.size(); ++r) {
      size_t count = 0;
      const auto& runs = rows[r];
      for (size_t i = 0; i + 1 < runs.size(); i += 2) {
        const auto val = runs[i].get<int>();
        const auto len = runs[i + 1].get<size_t>();
        mask.v.insert(mask.v.end(), len, static_cast<uint8_t>(val));
        count += len;
      }
      if (static_cast<int>(count) != mask.ncols)
        return Error{"run-length row " + std::to_string(r) + " does not add up to ncols", "", mask_rel};
    }
  }
  Relief relief;
  {
    auto d = load(root, relief_rel);
    if (!d) return d.error();
    JsonReader m(*d, relief_rel);
    relief.west = m.number("west");
    relief.north = m.number("north");
    relief.dx = m.number("dx");
    relief.dy = m.number("dy");
    relief.ncols = m.int_in("ncols", 1, 100000);
    relief.nrows = m.int_in("nrows", 1, 100000);
    if (!m.ok()) return m.error();
    for (const auto& row : (*d)["rows_north_to_south"])
      for (const auto& v : row) relief.v.push_back(v.get<int>());
    if (relief.v.size() != static_cast<size_t>(relief.ncols) * static_cast<size_t>(relief.nrows))
      return Error{"relief grid size does not match ncols x nrows", "", relief_rel};
  }
  const std::string hydro_rel = ovl.str("hydro"), countries_rel = ovl.str("countries"),
                    cities_rel = ovl.str("cities"), rail_rel = ovl.str("railways"),
                    terrain_rel = ovl.str("terrain"), fort_rel = ovl.str("fortified_lines");
  if (!g.ok()) return g.error();
  auto hydro_d = load(root, hydro_rel);
  if (!hydro_d) return hydro_d.error();
  const JsonReader hydro(*hydro_d, hydro_rel);
  hydro.check_reconstructed();

  // ---- post-1941 reservoirs back to land (flood fill from each seed) -------------
  std::vector<River> rivers;
  for (const auto& res : hydro.at("reservoirs_post_1941").elements()) {
    // Seeds: the given seed point and every point along the old river course (sampled
    // every ~2 km), so all lake polygons of a reservoir (GSHHG splits some) are removed.
    std::vector<P2> seeds;
    {
      const auto sp = res.at("seed");
      seeds.push_back({sp.at(0).as_number(), sp.at(1).as_number()});
      const auto course = read_points(res.at("course"));
      for (size_t i = 1; i < course.size(); ++i) {
        const double len = std::hypot(course[i][0] - course[i - 1][0], course[i][1] - course[i - 1][1]);
        const int n = std::max(1, static_cast<int>(len / 0.02));
        for (int k = 0; k <= n; ++k) {
          const double t = static_cast<double>(k) / n;
          seeds.push_back({course[i - 1][0] + (course[i][0] - course[i - 1][0]) * t,
                           course[i - 1][1] + (course[i][1] - course[i - 1][1]) * t});
        }
      }
    }
    size_t filled = 0;
    for (const auto& sd : seeds) {
      const int c0 = static_cast<int>(std::floor((sd[0] - mask.west) / mask.step));
      const int r0 = static_cast<int>(std::floor((mask.north - sd[1]) / mask.step));
      std::vector<std::pair<int, int>> stack;
      for (int dr = -3; dr <= 3; ++dr)
        for (int dc = -3; dc <= 3; ++dc) stack.emplace_back(r0 + dr, c0 + dc);
      while (!stack.empty()) {
        auto [r, c] = stack.back();
        stack.pop_back();
        if (r < 0 || c < 0 || r >= mask.nrows || c >= mask.ncols) continue;
        auto& px = mask.v[static_cast<size_t>(r) * static_cast<size_t>(mask.ncols) + static_cast<size_t>(c)];
        if (px != 2) continue;
        px = 1;
        ++filled;
        stack.emplace_back(r + 1, c);
        stack.emplace_back(r - 1, c);
        stack.emplace_back(r, c + 1);
        stack.emplace_back(r, c - 1);
      }
    }
    say("reservoir " + res.str("name") + ": " + std::to_string(filled) + " lake pixels turned to land");
    River rv;
    rv.cls = 1;
    rv.name = res.str_or("river", "");
    for (const auto& p : read_points(res.at("course"))) rv.pts.push_back(fit.to_plane(p[0], p[1]));
    if (rv.pts.size() >= 2) {
      bbox(rv);
      rivers.push_back(rv);
    }
  }
  if (!hydro.ok()) return hydro.error();

  // ---- rivers ------------------------------------------------------------------
  auto hs = g.at("hexsides");
  const int river_min = hs.int_in("river_min_class", 0, 10), river_max = hs.int_in("river_max_class", 0, 10);
  // Classes above river_max up to named_river_max_class count only where they run along a
  // named river of the overlay (so the Dniester or the Desna show, the many unnamed
  // tributaries of WDBII class 2 do not).
  const int named_max = static_cast<int>(hs.integer_or("named_river_max_class", river_max));
  const double side_sea = hs.number("sea_share"), side_lake = hs.number("lake_share");
  const double name_km = hs.number("name_max_dist_km");
  const std::set<std::string> major_rivers = [&] {
    auto v = hs.str_list_or_empty("major_rivers");
    return std::set<std::string>(v.begin(), v.end());
  }();
  if (!g.ok()) return g.error();
  {
    auto d = load(root, rivers_rel);
    if (!d) return d.error();
    JsonReader rj(*d, rivers_rel);
    for (const auto& r : rj.at("rivers").elements()) {
      const int cls = r.int_in("class", 0, 10);
      if (cls < river_min || cls > std::max(river_max, named_max)) continue;
      River rv;
      rv.cls = cls;
      for (const auto& p : read_points(r.at("points"))) rv.pts.push_back(fit.to_plane(p[0], p[1]));
      if (rv.pts.size() < 2) continue;
      bbox(rv);
      rivers.push_back(std::move(rv));
    }
    if (!rj.ok()) return rj.error();
  }
  struct Named {
    std::string name;
    std::vector<P2> pts;
  };
  std::vector<Named> named_rivers, lake_lines;
  std::vector<std::string> lake_line_feature;
  for (const auto& r : hydro.at("river_names").elements()) {
    Named n{r.str("name"), {}};
    for (const auto& p : read_points(r.at("anchors"))) n.pts.push_back(fit.to_plane(p[0], p[1]));
    named_rivers.push_back(n);
  }
  for (const auto& r : hydro.at("lake_lines").elements()) {
    Named n{r.str("name"), {}};
    for (const auto& p : read_points(r.at("points"))) n.pts.push_back(fit.to_plane(p[0], p[1]));
    lake_lines.push_back(n);
    lake_line_feature.push_back(r.str_or("feature", "all-lake"));
  }
  if (!hydro.ok()) return hydro.error();

  // ---- overlays: countries, terrain zones -----------------------------------------
  std::vector<Country> countries;
  {
    auto d = load(root, countries_rel);
    if (!d) return d.error();
    JsonReader cj(*d, countries_rel);
    cj.check_reconstructed();
    for (const auto& c : cj.at("countries").elements()) {
      Country k{c.str("id"), c.str("name"), c.str("control"), read_points(c.at("polygon"))};
      if (k.control != "german" && k.control != "soviet" && k.control != "neutral")
        c.at("control").fail_value("control must be german, soviet or neutral");
      countries.push_back(std::move(k));
    }
    if (!cj.ok()) return cj.error();
  }
  std::vector<Zone> zones;
  {
    auto d = load(root, terrain_rel);
    if (!d) return d.error();
    JsonReader tj(*d, terrain_rel);
    tj.check_reconstructed();
    for (const auto& z : tj.at("zones").elements())
      zones.push_back({z.str("terrain"), z.str("name"), read_points(z.at("polygon"))});
    if (!tj.ok()) return tj.error();
  }
  auto country_at = [&](double lon, double lat) -> int {
    for (size_t i = 0; i < countries.size(); ++i)
      if (point_in_polygon(countries[i].poly, lon, lat)) return static_cast<int>(i);
    return -1;
  };

  // ---- terrain vocabulary ------------------------------------------------------------
  // The terrain types of the game (grid.json), in output order; the generator itself
  // produces "all-sea", "all-lake" and "rough", so those must be among them.
  const std::vector<std::string> terrain_types = g.at("terrain_types").as_str_list();
  const std::set<std::string> terrain_set(terrain_types.begin(), terrain_types.end());
  for (const char* needed : {"all-sea", "all-lake", "rough"})
    if (!terrain_set.count(needed))
      g.at("terrain_types").fail(std::string("must include \"") + needed + "\" (the generator produces it)");
  // The overlay is shared by every game (the Moscow '41 area map reads it too), so its
  // zone terrains are the overlay's words, not a game's: grid.json terrain.overlay_terrain
  // maps each to a game terrain, or to null for a zone this game does not use at its scale
  // (the zone is then dropped before sampling, so it neither claims sample points nor
  // shadows a later zone). Without overlay_terrain a zone's terrain is taken as it is.
  if (auto ot = g.at("terrain").opt("overlay_terrain")) {
    std::map<std::string, std::optional<std::string>> to_game;
    for (const auto& [word, v] : ot->members()) {
      if (v.is_null()) {
        to_game[word] = std::nullopt;
        continue;
      }
      const std::string t = v.as_str();
      if (g.ok() && !terrain_set.count(t)) v.fail_value("not one of terrain_types");
      to_game[word] = t;
    }
    if (!g.ok()) return g.error();
    std::vector<Zone> used;
    for (auto& z : zones) {
      const auto it = to_game.find(z.terrain);
      if (it == to_game.end())
        return Error{
            "zone " + z.name + " has terrain \"" + z.terrain + "\", which " + grid_rel +
                " terrain.overlay_terrain does not map (map it to a terrain, or to null to ignore it)",
            "", terrain_rel};
      if (!it->second) continue;
      z.terrain = *it->second;
      used.push_back(std::move(z));
    }
    zones = std::move(used);
  }
  for (const auto& z : zones)
    if (!terrain_set.count(z.terrain))
      return Error{"zone " + z.name + " has terrain \"" + z.terrain + "\", which is not in " + grid_rel +
                       " terrain_types",
                   "", terrain_rel};
  if (!g.ok()) return g.error();

  // ---- cities (read before the terrain pass: a city hex is never all water) ----------
  auto cf = g.at("cities");
  const double label_min = cf.number("name_every_hex_min_pop_k");
  // A hex holding a city-rank place stays a (coastal) land hex even when its water share
  // reaches sea_share / lake_share, as long as this share of its samples is land; with
  // less land the place is an error to correct in the cities overlay or the fixes.
  const double city_min_land = cf.number("city_hex_min_land_share");
  if (g.ok() && !(city_min_land > 0 && city_min_land <= 1))
    cf.at("city_hex_min_land_share").fail_value("must be a share of the hex above 0 and at most 1");
  std::map<std::string, std::set<std::string>> feature_names;  // feature -> city names
  if (auto fn = cf.opt("feature_names"))
    for (const auto& [feat, names] : fn->members()) {
      auto v = names.as_str_list();
      feature_names[feat] = std::set<std::string>(v.begin(), v.end());
    }
  if (!g.ok()) return g.error();
  struct Place {
    std::string name;
    double pop;
    bool city;
    P2 plane;
    std::vector<std::string> kinds;
  };
  std::vector<Place> places;
  std::map<std::array<int, 2>, std::string> city_rank_at;  // (row, col) -> first city-rank place
  // A game whose city hexes differ from the overlay's "city" kind (BD's) lists them in
  // cities.city_names; a game may add places of its own (overlays.extra_cities, same schema).
  std::optional<std::set<std::string>> city_names;
  if (auto cn = cf.opt("city_names")) {
    auto v = cn->as_str_list();
    city_names = std::set<std::string>(v.begin(), v.end());
  }
  std::vector<std::string> city_files{cities_rel};
  if (auto extra = g.at("overlays").opt("extra_cities")) city_files.push_back(extra->as_str());
  if (!g.ok()) return g.error();
  for (const auto& file : city_files) {
    auto d = load(root, file);
    if (!d) return d.error();
    JsonReader cj(*d, file);
    cj.check_reconstructed();
    for (const auto& c : cj.at("cities").elements()) {
      const auto ll = c.at("lonlat");
      Place k{c.str("name"), c.number("pop_1939_k"), false,
              fit.to_plane(ll.at(0).as_number(), ll.at(1).as_number()), c.str_list("kinds")};
      k.city = city_names ? city_names->count(k.name) > 0
                          : std::find(k.kinds.begin(), k.kinds.end(), "city") != k.kinds.end();
      if (k.city) city_rank_at.emplace(hex_at_plane(k.plane[0], k.plane[1], layout), k.name);
      places.push_back(k);
    }
    if (!cj.ok()) return cj.error();
  }
  if (city_names)
    for (const auto& n : *city_names)
      if (std::none_of(places.begin(), places.end(), [&](const Place& p) { return p.name == n; }))
        return Error{"cities.city_names names " + n + ", which no cities overlay has", "", grid_rel};

  // ---- hexes and per-hex sampling -------------------------------------------------
  auto tj = g.at("terrain");
  const double sea_share = tj.number("sea_share"), lake_share = tj.number("lake_share");
  const double rough_mean = tj.number("rough_mean_elev_m"), rough_p90 = tj.number("rough_p90_elev_m");
  const double rough_relief = tj.number("rough_relief_m"), overlay_share = tj.number("overlay_share");
  const std::string default_terrain = tj.str_or("default", "clear");
  if (g.ok() && !terrain_set.count(default_terrain)) tj.at("default").fail_value("not one of terrain_types");
  const double sample_step = g.at("sampling").number("lattice_step_hexes");
  if (g.ok() && (sample_step < 0.02 || sample_step > 0.5))
    g.at("sampling").at("lattice_step_hexes").fail_value("must be between 0.02 and 0.5 hex widths");
  if (!g.ok()) return g.error();
  std::vector<Hex> hexes;
  std::map<std::string, size_t> by_id;
  std::vector<int> hex_of_index(static_cast<size_t>(grid.size()), -1);
  const std::vector<P2> offsets = hex_sample_offsets(sample_step, layout);
  say("sampling: " + std::to_string(offsets.size()) + " points per hex");
  for (int r = grid.first_row(); r <= grid.last_row(); ++r) {
    for (int c = grid.first_col(); c <= max_col[r]; ++c) {
      Hex h;
      h.row = r;
      h.col = c;
      h.id = hex_id(r, c);
      h.plane = hex_plane_centre(r, c, layout);
      h.lonlat = fit.to_lonlat(h.plane[0], h.plane[1]);
      std::vector<int> elev;
      std::map<int, int> ccount;
      std::map<size_t, int> zcount;
      for (const auto& o : offsets) {
        const auto ll = fit.to_lonlat(h.plane[0] + o[0], h.plane[1] + o[1]);
        const int m = mask.at(ll[0], ll[1]);
        ++h.n;
        if (m == 0) {
          ++h.sea;
          continue;
        }
        if (m == 2) {
          ++h.lake;
          continue;
        }
        ++h.land;
        elev.push_back(relief.at(ll[0], ll[1]));
        ++ccount[country_at(ll[0], ll[1])];
        for (size_t z = 0; z < zones.size(); ++z)
          if (point_in_polygon(zones[z].poly, ll[0], ll[1])) {
            ++zcount[z];
            break;
          }
      }
      if (!elev.empty()) {
        std::sort(elev.begin(), elev.end());
        double sum = 0;
        for (int e : elev) sum += e;
        h.elev_mean = sum / static_cast<double>(elev.size());
        h.elev_p90 = elev[elev.size() * 9 / 10];
        h.elev_p10 = elev[elev.size() / 10];
      }
      const double n = h.n;
      const auto city_here = city_rank_at.find(std::array<int, 2>{r, c});
      const bool keep_land = city_here != city_rank_at.end() && h.land / n >= city_min_land;
      if (city_here != city_rank_at.end() && !keep_land &&
          (h.sea / n >= sea_share || h.lake / n >= lake_share))
        return Error{"city " + city_here->second + " falls in hex " + h.id + ", which is " +
                         std::to_string(static_cast<int>(std::lround(100.0 * (h.sea + h.lake) / n))) +
                         "% water, and a city hex needs cities.city_hex_min_land_share of land: correct the "
                         "place's lonlat or kinds",
                     "", cities_rel};
      if (!keep_land && h.sea / n >= sea_share) {
        h.terrain = "all-sea";
      } else if (!keep_land && h.lake / n >= lake_share) {
        h.terrain = "all-lake";
      } else {
        std::string t = default_terrain;
        bool zoned = false;
        for (const auto& [z, cnt] : zcount)
          if (cnt / static_cast<double>(h.land) >= overlay_share) {
            t = zones[z].terrain;
            zoned = true;
            break;
          }
        if (!zoned && (h.elev_mean >= rough_mean || h.elev_p90 >= rough_p90 ||
                       (h.elev_p90 - h.elev_p10) >= rough_relief))
          t = "rough";
        h.terrain = t;
        // Country: the most land samples; ties go to the earlier (higher-priority) one.
        int best = -1, best_n = 0;
        for (const auto& [ci, cnt] : ccount)
          if (ci >= 0 && cnt > best_n) {
            best = ci;
            best_n = cnt;
          }
        if (best >= 0) {
          h.country = countries[static_cast<size_t>(best)].id;
          h.control = countries[static_cast<size_t>(best)].control;
        }
        if (h.sea > 0) h.features.insert("coastal");
      }
      hex_of_index[static_cast<size_t>(grid.index(r, c))] = static_cast<int>(hexes.size());
      by_id[h.id] = hexes.size();
      hexes.push_back(std::move(h));
    }
  }
  auto hex_at_idx = [&](int idx) -> Hex* {
    if (!on_map(idx)) return nullptr;
    const int k = hex_of_index[static_cast<size_t>(idx)];
    return k < 0 ? nullptr : &hexes[static_cast<size_t>(k)];
  };

  // ---- hexsides -----------------------------------------------------------------
  std::map<std::pair<std::string, std::string>, Side> sides;
  auto side_key = [](const std::string& a, const std::string& b) {
    return a < b ? std::make_pair(a, b) : std::make_pair(b, a);
  };
  int n_river = 0, n_sea = 0, n_lake = 0;
  for (auto& h : hexes) {
    const int idx = grid.index(h.row, h.col);
    for (int d = 0; d < HexGrid::kDirections; ++d) {
      Hex* o = hex_at_idx(grid.neighbour(idx, d));
      if (!o || o->id < h.id) continue;  // each pair once
      if (h.water() || o->water()) continue;
      Side s;
      // Water share along the centre-to-centre segment.
      int sea = 0, lake = 0;
      const int steps = 20;
      for (int i = 0; i <= steps; ++i) {
        const double t = static_cast<double>(i) / steps;
        const auto ll = fit.to_lonlat(h.plane[0] + (o->plane[0] - h.plane[0]) * t,
                                      h.plane[1] + (o->plane[1] - h.plane[1]) * t);
        const int m = mask.at(ll[0], ll[1]);
        sea += m == 0;
        lake += m == 2;
      }
      if (sea / (steps + 1.0) >= side_sea)
        s.features.insert("all-sea");
      else if (lake / (steps + 1.0) >= side_lake)
        s.features.insert("all-lake");
      // Rivers crossing the segment.
      const double minx = std::min(h.plane[0], o->plane[0]), maxx = std::max(h.plane[0], o->plane[0]);
      const double miny = std::min(h.plane[1], o->plane[1]), maxy = std::max(h.plane[1], o->plane[1]);
      // The most important (lowest-class) crossing decides; hand courses count as class 1.
      bool river = false;
      int best_cls = 99;
      P2 at{};
      std::string course_name;
      for (const auto& rv : rivers) {
        if (rv.maxx < minx || rv.minx > maxx || rv.maxy < miny || rv.miny > maxy) continue;
        for (size_t i = 1; i < rv.pts.size(); ++i) {
          P2 x{};
          if (!segments_cross(h.plane, o->plane, rv.pts[i - 1], rv.pts[i], &x)) continue;
          const int cls = rv.name.empty() ? rv.cls : -1;
          if (cls < best_cls) {
            best_cls = cls;
            at = x;
            course_name = rv.name;
          }
          river = true;
        }
      }
      for (size_t li = 0; li < lake_lines.size(); ++li)
        for (size_t i = 1; i < lake_lines[li].pts.size(); ++i)
          if (segments_cross(h.plane, o->plane, lake_lines[li].pts[i - 1], lake_lines[li].pts[i], nullptr)) {
            s.features.insert(lake_line_feature[li]);
            s.name = lake_lines[li].name;
          }
      if (river && !s.features.count("all-sea") && !s.features.count("all-lake")) {
        std::string nm = course_name;
        if (nm.empty()) {
          double best = name_km / fit.km_per_hex();
          for (const auto& nr : named_rivers) {
            const double dd = dist_point_polyline(at, nr.pts);
            if (dd <= best) {
              best = dd;
              nm = nr.name;
            }
          }
        }
        if (best_cls <= river_max || !nm.empty()) s.features.insert("river");
        if (!nm.empty() && s.features.count("river")) {
          s.name = nm;
          if (major_rivers.count(nm)) s.features.insert("major-river");
        }
      }
      n_river += s.features.count("river") ? 1 : 0;
      n_sea += s.features.count("all-sea") ? 1 : 0;
      n_lake += s.features.count("all-lake") ? 1 : 0;
      if (!s.features.empty()) sides[side_key(h.id, o->id)] = std::move(s);
    }
  }
  say("hexsides: " + std::to_string(n_river) + " river, " + std::to_string(n_sea) + " all-sea, " +
      std::to_string(n_lake) + " all-lake");

  // ---- cities ---------------------------------------------------------------------
  std::map<std::string, P2> station_plane;
  std::map<std::string, std::string> city_hex;
  {
    std::vector<Place> cs = places;
    // Largest first, so the hex name goes to the biggest city in it.
    std::stable_sort(cs.begin(), cs.end(), [](const Place& a, const Place& b) {
      if (a.city != b.city) return a.city;
      return a.pop > b.pop;
    });
    for (const auto& c : cs) {
      station_plane[c.name] = c.plane;
      const auto rc = hex_at_plane(c.plane[0], c.plane[1], layout);
      const int idx = grid.index(rc[0], rc[1]);
      Hex* h = idx >= 0 ? hex_at_idx(idx) : nullptr;
      if (!h) continue;
      city_hex[c.name] = h->id;
      bool featured = false;  // a port, oil field, capital... always gets its name shown
      for (const auto& [feat, names] : feature_names) featured = featured || names.count(c.name) > 0;
      if (h->name.empty() && (c.city || c.pop >= label_min || featured)) {
        h->name = c.name;
        h->name_pop = static_cast<int>(c.pop);
        if (c.city) h->features.insert("city");
      } else if (c.city || c.pop >= label_min || featured) {
        h->also.push_back(c.name);
      }
      for (const auto& [feat, names] : feature_names)
        if (names.count(c.name)) h->features.insert(feat);
    }
  }

  // ---- railways -------------------------------------------------------------------
  Json railways = Json::array();
  {
    auto d = load(root, rail_rel);
    if (!d) return d.error();
    JsonReader rj(*d, rail_rel);
    rj.check_reconstructed();
    std::vector<int> fill;
    for (const auto& line : rj.at("lines").elements()) {
      auto st = line.at("stations");
      std::vector<std::string> names = st.as_str_list();
      std::vector<std::vector<int>> paths(1);
      for (size_t i = 0; i < names.size(); ++i)
        if (!station_plane.count(names[i]))
          st.at(i).fail_value("unknown station (not in " + cities_rel + ")");
      if (!rj.ok()) return rj.error();
      auto push = [&](int idx) {
        Hex* h = hex_at_idx(idx);
        if (!h || h->water()) {
          if (!paths.back().empty()) paths.emplace_back();
          return;
        }
        auto& p = paths.back();
        if (!p.empty() && p.back() == idx) return;
        if (!p.empty() && !grid.adjacent(p.back(), idx)) {
          grid.line(p.back(), idx, fill);
          for (size_t k = 1; k + 1 < fill.size(); ++k) {
            Hex* f = hex_at_idx(fill[k]);
            if (f && !f->water() && fill[k] != p.back()) p.push_back(fill[k]);
          }
        }
        p.push_back(idx);
      };
      for (size_t i = 1; i < names.size(); ++i) {
        const P2 a = station_plane[names[i - 1]], b = station_plane[names[i]];
        const double len = std::hypot(b[0] - a[0], b[1] - a[1]);
        const int steps = std::max(1, static_cast<int>(std::ceil(len / 0.2)));
        for (int s = 0; s <= steps; ++s) {
          const double t = static_cast<double>(s) / steps;
          const auto rc = hex_at_plane(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, layout);
          push(grid.index(rc[0], rc[1]));
        }
      }
      for (const auto& p : paths) {
        if (p.size() < 2) continue;
        Json ids = Json::array();
        for (int idx : p) ids.push_back(hex_at_idx(idx)->id);
        railways.push_back(ids);
      }
    }
  }

  // ---- fortified lines -----------------------------------------------------------
  const double fort_dist = g.number("fortified_line_max_dist_hexes");
  {
    auto d = load(root, fort_rel);
    if (!d) return d.error();
    JsonReader fj(*d, fort_rel);
    fj.check_reconstructed();
    for (const auto& l : fj.at("lines").elements()) {
      std::vector<P2> pts;
      for (const auto& p : read_points(l.at("points"))) pts.push_back(fit.to_plane(p[0], p[1]));
      const std::string side = l.str("side");
      for (auto& h : hexes)
        if (!h.water() && h.fortified.empty() && dist_point_polyline(h.plane, pts) <= fort_dist) {
          h.features.insert("fortified-line");
          h.fortified = side;
        }
    }
    if (!fj.ok()) return fj.error();
  }

  // ---- regions ------------------------------------------------------------------
  std::map<std::string, std::set<std::string>> regions;
  const bool cols_rise_east = g.at("grid").at("cols").str("increase") == "east";
  auto is_edge = [&](const Hex& h, const std::string& edge) {
    const int idx = grid.index(h.row, h.col);
    // East / west edges are the first / last column, or the reverse when columns rise eastward.
    const int east_col = cols_rise_east ? grid.last_col() : grid.first_col();
    const int west_col = cols_rise_east ? grid.first_col() : grid.last_col();
    if (edge == "east") return h.col == east_col;
    if (edge == "west") return h.col == west_col;
    auto off = [&](int d) { return !hex_at_idx(grid.neighbour(idx, d)); };
    const int nw = grid.parse_direction("NW"), ne = grid.parse_direction("NE");
    const int sw = grid.parse_direction("SW"), se = grid.parse_direction("SE");
    if (grid.orientation() == HexOrientation::kFlat) {  // flat-top: a hex has N and S sides
      if (edge == "north") return off(grid.parse_direction("N"));
      if (edge == "south") return off(grid.parse_direction("S"));
      return false;
    }
    if (edge == "north") return off(nw) || off(ne);
    if (edge == "south") return off(sw) || off(se);
    return false;
  };
  for (const auto& [name, spec] : g.at("regions").members()) {
    auto& set = regions[name];
    for (const auto& id : spec.str_list_or_empty("hexes")) {
      if (!by_id.count(id)) {
        spec.at("hexes").fail_value("region hex " + id + " is not on the map");
        continue;
      }
      set.insert(id);
    }
    if (auto poly = spec.opt("polygon")) {
      const auto pts = read_points(*poly);
      for (const auto& h : hexes)
        if (!h.water() && point_in_polygon(pts, h.lonlat[0], h.lonlat[1])) set.insert(h.id);
    }
    for (const auto& id : spec.str_list_or_empty("add_hexes"))
      if (by_id.count(id)) set.insert(id);
    if (auto edge = spec.opt("edge")) {
      const std::string e = edge->as_str(), from = spec.str("from"), to = spec.str("to");
      if (!by_id.count(from) || !by_id.count(to)) {
        std::string msg = "edge range ";
        msg.append(from).append("-").append(to).append(" names a hex that is not on the map");
        spec.fail(msg);
        continue;
      }
      const Hex &a = hexes[by_id[from]], &b = hexes[by_id[to]];
      const std::string country = spec.str_or("country", "");
      for (const auto& h : hexes) {
        if (!is_edge(h, e)) continue;
        if (h.row < std::min(a.row, b.row) || h.row > std::max(a.row, b.row)) continue;
        if (h.col < std::min(a.col, b.col) || h.col > std::max(a.col, b.col)) continue;
        if (!country.empty() && h.country != country) continue;
        set.insert(h.id);
      }
    }
    for (const auto& id : spec.str_list_or_empty("except")) set.erase(id);
  }
  if (!g.ok()) return g.error();

  // ---- fixes (last) ---------------------------------------------------------------
  const std::string fixes_rel = g.str("fixes");
  Json fixes_applied = Json::array();
  {
    auto d = load(root, fixes_rel);
    if (!d) return d.error();
    JsonReader fj(*d, fixes_rel);
    fj.check_reconstructed();
    for (const auto& f : fj.at("fixes").elements()) {
      const std::string rule = f.str("rule");
      if (rule.empty()) f.at("rule").fail("every fix cites the rule it makes hold");
      if (f.has("hex")) {
        const std::string id = f.str("hex");
        if (!by_id.count(id)) {
          f.at("hex").fail_value("fix names a hex that is not on the map");
          continue;
        }
        Hex& h = hexes[by_id[id]];
        const std::string field = f.str("field");
        const auto& val = f.json().contains("value") ? f.json()["value"] : Json();
        if (field == "terrain") {
          const std::string t = f.str("value");
          if (!terrain_set.count(t))
            f.at("value").fail_value("unknown terrain (not in grid.json terrain_types)");
          h.terrain = t;
        } else if (field == "name") {
          h.name = f.str("value");
        } else if (field == "country") {
          const std::string c = f.str("value");
          auto it =
              std::find_if(countries.begin(), countries.end(), [&](const Country& k) { return k.id == c; });
          if (it == countries.end()) {
            f.at("value").fail_value("unknown country");
            continue;
          }
          h.country = it->id;
          h.control = it->control;
        } else if (field == "features_add") {
          for (const auto& s : f.str_list("value")) h.features.insert(s);
        } else if (field == "features_remove") {
          for (const auto& s : f.str_list("value")) h.features.erase(s);
        } else {
          f.at("field").fail_value(
              "unknown fix field (terrain, name, country, features_add, features_remove)");
        }
        (void)val;
      } else if (f.has("hexside")) {
        const auto pair = f.str_list("hexside");
        if (pair.size() != 2 || !by_id.count(pair[0]) || !by_id.count(pair[1])) {
          f.at("hexside").fail_value("hexside must name two hexes on the map");
          continue;
        }
        const Hex &a = hexes[by_id[pair[0]]], &b = hexes[by_id[pair[1]]];
        if (!grid.adjacent(grid.index(a.row, a.col), grid.index(b.row, b.col))) {
          f.at("hexside").fail_value("the two hexes are not adjacent");
          continue;
        }
        Side& s = sides[side_key(a.id, b.id)];
        if (f.has("features")) {
          const auto feats = f.str_list("features");
          s.features = std::set<std::string>(feats.begin(), feats.end());
        }
        if (f.has("name")) s.name = f.str("name");
      } else if (f.has("region")) {
        auto& set = regions[f.str("region")];
        for (const auto& id : f.str_list_or_empty("add")) {
          if (!by_id.count(id)) f.at("add").fail_value("hex " + id + " is not on the map");
          set.insert(id);
        }
        for (const auto& id : f.str_list_or_empty("remove")) set.erase(id);
      } else {
        f.fail("a fix names a \"hex\", a \"hexside\" or a \"region\"");
      }
      fixes_applied.push_back(f.json());
    }
    if (!fj.ok()) return fj.error();
  }
  // Border hexsides, after the fixes so that a corrected country or a hex a fix turned to
  // land counts: between two land hexes whose countries differ.
  for (auto& h : hexes) {
    if (h.water() || h.country.empty()) continue;
    const int idx = grid.index(h.row, h.col);
    for (int d = 0; d < HexGrid::kDirections; ++d) {
      const Hex* o = hex_at_idx(grid.neighbour(idx, d));
      if (!o || o->id < h.id || o->water() || o->country.empty() || o->country == h.country) continue;
      Side& s = sides[side_key(h.id, o->id)];
      s.features.insert("border");
      s.border_between = {std::min(h.country, o->country), std::max(h.country, o->country)};
    }
  }
  // Complements (after the fixes, so a hex a fix turned to land counts) ("north" = every land hex not in
  // "south"), after all the direct regions.
  for (const auto& [name, spec] : g.at("regions").members()) {
    const std::string of = spec.str_or("complement_of", "");
    if (of.empty()) continue;
    if (!regions.count(of)) {
      spec.at("complement_of").fail_value("complement of an unknown region");
      continue;
    }
    for (const auto& h : hexes)
      if (!h.water() && !regions[of].count(h.id)) regions[name].insert(h.id);
  }
  if (!g.ok()) return g.error();
  // Regions of whole countries ("all_of_country"), after the fixes so that a corrected
  // country counts.
  for (const auto& [name, spec] : g.at("regions").members()) {
    const std::string of = spec.str_or("all_of_country", "");
    if (of.empty()) continue;
    if (std::none_of(countries.begin(), countries.end(), [&](const Country& k) { return k.id == of; })) {
      spec.at("all_of_country").fail_value("not a country of " + countries_rel);
      continue;
    }
    for (const auto& h : hexes)
      if (!h.water() && h.country == of) regions[name].insert(h.id);
  }
  if (!g.ok()) return g.error();
  // No place that gives its hex a feature may end in water (a fix can turn a hex to water).
  for (const auto& h : hexes)
    if (h.water())
      for (const char* f : {"city", "port", "oil", "capital", "industrial"})
        if (h.features.count(f))
          return Error{"hex " + h.id + " (" + h.name + ") is " + h.terrain + " but has the feature " + f +
                           ": a city, port, oil field, capital or industrial area needs a land hex",
                       "", fixes_rel};
  for (auto it = sides.begin(); it != sides.end();)
    it = it->second.features.empty() ? sides.erase(it) : std::next(it);
  say("fixes applied: " + std::to_string(fixes_applied.size()));

  // ---- output ---------------------------------------------------------------------
  Json out;
  out["grid"] = (*grid_doc)["grid"];
  if (grid_doc->contains("outline")) out["outline"] = {{"max_col", (*grid_doc)["outline"]["max_col"]}};
  out["reconstructed"] = true;
  out["source"] =
      "generated by steppe mapgen from data/geo (see data/geo/SOURCES.md), data/geo/hist overlays, " +
      grid_rel + " and " + fixes_rel;
  out["terrain_types"] = terrain_types;
  out["hex_features"] = {"city", "port", "oil", "capital", "industrial", "fortified-line", "coastal"};
  // A game's own place features (grid.json cities.feature_names) join the vocabulary.
  for (const auto& [feat, names] : feature_names)
    if (std::find(out["hex_features"].begin(), out["hex_features"].end(), feat) == out["hex_features"].end())
      out["hex_features"].push_back(feat);
  out["hexside_features"] = {"river", "major-river", "all-lake", "all-sea", "strait", "border"};
  out["geo_fit"] = fit.to_json();
  Json cj = Json::object();
  for (const auto& c : countries) cj[c.id] = {{"name", c.name}, {"control", c.control}};
  out["countries"] = cj;
  Json hj = Json::array();
  std::map<std::string, std::set<std::string>> hex_regions;
  for (const auto& [name, set] : regions)
    for (const auto& id : set) hex_regions[id].insert(name);
  for (const auto& h : hexes) {
    Json j;
    j["id"] = h.id;
    j["terrain"] = h.terrain;
    j["features"] = Json(std::vector<std::string>(h.features.begin(), h.features.end()));
    if (!h.name.empty()) j["name"] = h.name;
    if (!h.also.empty()) j["also"] = h.also;
    if (!h.country.empty()) j["country"] = h.country;
    if (!h.control.empty()) j["control"] = h.control;
    if (!h.fortified.empty()) j["fortified_by"] = h.fortified;
    const auto& rg = hex_regions[h.id];
    j["regions"] = Json(std::vector<std::string>(rg.begin(), rg.end()));
    j["lonlat"] = {round_to(h.lonlat[0], 1000.0), round_to(h.lonlat[1], 1000.0)};
    if (h.land > 0) j["elev_m"] = static_cast<int>(std::lround(h.elev_mean));
    j["water_share"] = round_to(static_cast<double>(h.sea + h.lake) / h.n, 100.0);
    hj.push_back(j);
  }
  out["hexes"] = hj;
  Json sj = Json::array();
  for (const auto& [k, s] : sides) {
    Json j;
    j["hexes"] = {k.first, k.second};
    j["features"] = Json(std::vector<std::string>(s.features.begin(), s.features.end()));
    if (!s.name.empty()) j["name"] = s.name;
    if (!s.border_between.empty()) j["border_between"] = s.border_between;
    sj.push_back(j);
  }
  out["hexsides"] = sj;
  Json rj = Json::object();
  for (const auto& [name, set] : regions) rj[name] = Json(std::vector<std::string>(set.begin(), set.end()));
  out["regions"] = rj;
  out["railways"] = railways;
  Json ch = Json::object();
  for (const auto& [n, id] : city_hex) ch[n] = id;
  out["place_hexes"] = ch;
  out["fixes_applied"] = fixes_applied;
  say("hexes: " + std::to_string(hexes.size()) + ", railway paths: " + std::to_string(railways.size()));
  return out;
}

}  // namespace steppe::mapgen
