// The generator (tools/geo): projection maths, the fit, determinism, places where real
// geography puts them, and clear errors on bad input.
#include "geo/mapgen.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "kernel/hexgrid.h"

namespace steppe::mapgen {
namespace {

namespace fs = std::filesystem;

GeoFit bd_fit() {
  auto doc = load_json_file("data/bd/grid.json");
  EXPECT_TRUE(doc.is_ok());
  const JsonReader g(*doc, "grid.json");
  auto fit = GeoFit::from_json(g);
  EXPECT_TRUE(fit.is_ok()) << fit.error().to_string();
  return *fit;
}

TEST(Lcc, RoundTrip) {
  Lcc p(30, 52, 47, 57, 6371);
  for (double lon : {14.0, 30.0, 48.0})
    for (double lat : {41.0, 52.0, 62.0}) {
      const auto xy = p.forward(lon, lat);
      const auto ll = p.inverse(xy[0], xy[1]);
      EXPECT_NEAR(ll[0], lon, 1e-9);
      EXPECT_NEAR(ll[1], lat, 1e-9);
    }
  // Scale: one degree of latitude is about 111 km.
  const auto a = p.forward(30, 50), b = p.forward(30, 51);
  EXPECT_NEAR(std::hypot(a[0] - b[0], a[1] - b[1]), 111.2, 1.5);
}

TEST(HexPlane, NearestHexIsTheHexItself) {
  for (int r = 10; r <= 32; ++r)
    for (int c = 0; c <= 24; ++c) {
      const auto p = hex_plane_centre(r, c);
      const auto h = hex_at_plane(p[0] + 0.3, p[1] - 0.2);
      EXPECT_EQ(h[0], r);
      EXPECT_EQ(h[1], c);
    }
}

// The plane geometry agrees with the kernel's BD 2.2 adjacency: neighbours are exactly one
// hex width apart.
TEST(HexPlane, NeighboursAreOneHexApart) {
  auto doc = load_json_file("data/bd/grid.json");
  ASSERT_TRUE(doc.is_ok());
  auto grid = HexGrid::from_json((*doc)["grid"], "grid.json");
  ASSERT_TRUE(grid.is_ok());
  for (int idx = 0; idx < grid->size(); ++idx)
    for (int d = 0; d < 6; ++d) {
      const int o = grid->neighbour(idx, d);
      if (o < 0) continue;
      const auto a = hex_plane_centre(grid->row(idx), grid->col(idx));
      const auto b = hex_plane_centre(grid->row(o), grid->col(o));
      EXPECT_NEAR(std::hypot(a[0] - b[0], a[1] - b[1]), 1.0, 1e-9);
    }
}

// The Dark Valley's flat-top CCRR grid (odd columns half a hex south): the plane agrees with
// the kernel's adjacency (4603 and 4702 are neighbours, 13.2), the nearest hex of a point
// near a centre is that hex, and the sample lattice is the transpose of the pointy one.
TEST(HexPlane, FlatLayoutMatchesTheDarkValleyGrid) {
  auto doc = load_json_file("data/dv/grid.json");
  ASSERT_TRUE(doc.is_ok());
  const JsonReader g(*doc, "grid.json");
  auto grid = HexGrid::from_json(g.at("grid"));
  ASSERT_TRUE(grid.is_ok());
  auto layout = plane_layout_of(*grid, g.at("grid"));
  ASSERT_TRUE(layout.is_ok());
  ASSERT_EQ(*layout, PlaneLayout::kFlatCols);
  EXPECT_TRUE(grid->adjacent(grid->parse("4603"), grid->parse("4702")));
  for (int idx = 0; idx < grid->size(); ++idx) {
    const auto a = hex_plane_centre(grid->row(idx), grid->col(idx), *layout);
    const auto h = hex_at_plane(a[0] + 0.2, a[1] - 0.3, *layout);
    EXPECT_EQ(h[0], grid->row(idx));
    EXPECT_EQ(h[1], grid->col(idx));
    for (int d = 0; d < 6; ++d) {
      const int o = grid->neighbour(idx, d);
      if (o < 0) continue;
      const auto b = hex_plane_centre(grid->row(o), grid->col(o), *layout);
      EXPECT_NEAR(std::hypot(a[0] - b[0], a[1] - b[1]), 1.0, 1e-9);
    }
  }
  const auto pointy = hex_sample_offsets(0.1);
  const auto flat = hex_sample_offsets(0.1, PlaneLayout::kFlatCols);
  ASSERT_EQ(flat.size(), pointy.size());
  for (size_t i = 0; i < flat.size(); ++i) {
    EXPECT_EQ(flat[i][0], pointy[i][1]);
    EXPECT_EQ(flat[i][1], pointy[i][0]);
  }
}

// A flat grid whose odd columns shift towards lower rows is not a layout the plane models.
TEST(HexPlane, FlatGridShiftedTheOtherWayIsRefused) {
  auto doc = load_json_file("data/dv/grid.json");
  ASSERT_TRUE(doc.is_ok());
  Json grid_json = (*doc)["grid"];
  grid_json["odd_cols_shift"] = "north";
  const JsonReader g(grid_json, "grid.json");
  auto grid = HexGrid::from_json(g);
  ASSERT_TRUE(grid.is_ok());
  auto layout = plane_layout_of(*grid, g);
  ASSERT_FALSE(layout.is_ok());
  EXPECT_NE(layout.error().to_string().find("odd columns"), std::string::npos);
}

// The committed Dark Valley map is what the generator makes now, and the text's hexes hold:
// Leningrad 4702, Oranienbaum 4603, the Hungarian oil hex W1642, 47 VP hexes (3.1).
TEST(DarkValleyMap, CommittedMapIsTheGeneratorsAndHoldsTheTextsHexes) {
  auto map = generate(fs::current_path(), "dv", nullptr);
  ASSERT_TRUE(map.is_ok()) << map.error().to_string();
  std::ifstream f("data/dv/map.json");
  std::stringstream committed;
  committed << f.rdbuf();
  EXPECT_EQ(dump_map(*map), committed.str()) << "re-run `steppe mapgen dv`";
  const auto& places = (*map)["place_hexes"];
  EXPECT_EQ(places["Leningrad"], "4702");
  EXPECT_EQ(places["Oranienbaum"], "4603");
  EXPECT_EQ(places["Nagykanizsa"], "1642");
  int vp = 0;
  for (const auto& h : (*map)["hexes"])
    for (const auto& feat : h["features"]) vp += feat == "vp" ? 1 : 0;
  EXPECT_EQ(vp, 47);
}

TEST(GeoFit, AnchorsLandInTheirHexesAndInverseRoundTrips) {
  const GeoFit fit = bd_fit();
  ASSERT_GE(fit.residuals().size(), 17u);
  for (const auto& r : fit.residuals()) {
    EXPECT_EQ(r.placed_hex, r.hex) << r.name;
    EXPECT_LT(r.affine_dist, 2.0) << r.name << ": the affine fit alone is off by more than 2 hexes";
  }
  EXPECT_LT(fit.affine_rms(), 1.0);
  EXPECT_NEAR(fit.km_per_hex(), 95.0, 10.0);  // a 90 km-ish hex
  for (double x : {2.0, 10.0, 20.0})
    for (double y : {10.0, 20.0, 27.0}) {
      const auto ll = fit.to_lonlat(x, y);
      const auto p = fit.to_plane(ll[0], ll[1]);
      EXPECT_NEAR(p[0], x, 1e-6);
      EXPECT_NEAR(p[1], y, 1e-6);
    }
}

// Every city that mattered in 1941-45 on the map sits within a hex of where the fitted
// projection of its real coordinates puts it, and on land.
TEST(Places, CitiesSitWhereRealGeographyPutsThem) {
  const GeoFit fit = bd_fit();
  auto map = load_json_file("data/bd/map.json");
  ASSERT_TRUE(map.is_ok());
  auto cities = load_json_file("data/geo/hist/cities_1941.json");
  ASSERT_TRUE(cities.is_ok());
  std::map<std::string, const Json*> hexes;
  for (const auto& h : (*map)["hexes"]) hexes[h["id"].get<std::string>()] = &h;
  const auto& place = (*map)["place_hexes"];
  int checked = 0;
  for (const auto& c : (*cities)["cities"]) {
    const std::string name = c["name"];
    const auto p = fit.to_plane(c["lonlat"][0].get<double>(), c["lonlat"][1].get<double>());
    const auto rc = hex_at_plane(p[0], p[1]);
    char id[24];  // room for any two ints (GCC warns of truncation otherwise)
    std::snprintf(id, sizeof id, "%02d%02d", rc[0], rc[1]);
    if (!hexes.count(id)) continue;  // off the map
    ++checked;
    ASSERT_TRUE(place.contains(name)) << name << " is on the map but has no hex";
    const std::string got = place[name];
    const auto q = hex_plane_centre(std::stoi(got.substr(0, 2)), std::stoi(got.substr(2, 2)));
    EXPECT_LE(std::hypot(q[0] - p[0], q[1] - p[1]), 1.0) << name << " placed in " << got;
    const std::string t = (*hexes.at(got))["terrain"];
    // Every city-rank place is on land (a mostly-water coast hex such as Helsinki's 1014 keeps
    // its land: grid.json cities.city_hex_min_land_share).
    const bool city = c["kinds"].dump().find("\"city\"") != std::string::npos;
    if (city) {
      EXPECT_TRUE(t != "all-sea" && t != "all-lake") << name << " in water hex " << got;
    }
  }
  EXPECT_GT(checked, 150);
}

// The sample lattice grid.json asks for is the one the docs describe: 84 points, all inside
// the hexagon, symmetric about the centre.
TEST(Sampling, GridJsonLatticeGives84PointsInsideTheHex) {
  auto doc = load_json_file("data/bd/grid.json");
  ASSERT_TRUE(doc.is_ok());
  const double step = (*doc)["sampling"]["lattice_step_hexes"].get<double>();
  const auto pts = hex_sample_offsets(step);
  EXPECT_EQ(pts.size(), 84u);
  const double r = 1.0 / std::sqrt(3.0);
  double sx = 0, sy = 0;
  for (const auto& p : pts) {
    EXPECT_LE(std::abs(p[0]), 0.5);
    EXPECT_LE(std::abs(p[1]), r * (1.0 - std::abs(p[0])) + 1e-12);
    sx += p[0];
    sy += p[1];
  }
  EXPECT_NEAR(sx, 0.0, 1e-9);
  EXPECT_NEAR(sy, 0.0, 1e-9);
  // Finer lattices sample more; every lattice has at least a point per quadrant.
  EXPECT_GT(hex_sample_offsets(0.05).size(), pts.size());
  EXPECT_EQ(hex_sample_offsets(0.5).size(), 4u);
}

// Re-running the generator gives byte-identical output, equal to the committed map.
TEST(Generate, DeterministicAndCommittedMapIsCurrent) {
  auto a = generate(".", "bd", nullptr);
  ASSERT_TRUE(a.is_ok()) << a.error().to_string();
  auto b = generate(".", "bd", nullptr);
  ASSERT_TRUE(b.is_ok());
  const std::string da = dump_map(*a), db = dump_map(*b);
  EXPECT_EQ(da, db);
  std::ifstream f("data/bd/map.json", std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_TRUE(ss.str() == da) << "data/bd/map.json is stale: run `build/tools/geo/steppe-mapgen generate bd`";
}

class BadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("steppe-mapgen-test-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "data" / "bd");
    fs::create_directory_symlink(fs::absolute("data/geo"), root_ / "data" / "geo");
    fs::copy_file("data/bd/grid.json", root_ / "data/bd/grid.json");
  }
  void TearDown() override { fs::remove_all(root_); }
  void write_fixes(const std::string& text) { std::ofstream(root_ / "data/bd/map-fixes.json") << text; }
  // Rewrites the scratch copy of grid.json with one edit applied.
  void edit_grid(const std::function<void(Json&)>& edit) {
    auto doc = load_json_file(root_ / "data/bd/grid.json");
    ASSERT_TRUE(doc.is_ok()) << doc.error().to_string();
    Json grid = *doc;
    edit(grid);
    std::ofstream(root_ / "data/bd/grid.json") << grid.dump(1);
  }
  fs::path root_;
};

TEST_F(BadInput, FixNamingAnOffMapHexIsAnError) {
  write_fixes(
      R"({"reconstructed":true,"source":"t","fixes":[{"hex":"1024","field":"terrain","value":"clear","rule":"1.4"}]})");
  auto r = generate(root_, "bd", nullptr);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.error().to_string().find("map-fixes.json"), std::string::npos) << r.error().to_string();
  EXPECT_NE(r.error().to_string().find("1024"), std::string::npos) << r.error().to_string();
}

TEST_F(BadInput, FixWithoutRuleOrUnknownTerrainIsAnError) {
  write_fixes(
      R"({"reconstructed":true,"source":"t","fixes":[{"hex":"2013","field":"terrain","value":"swamp","rule":"5.13"}]})");
  auto r = generate(root_, "bd", nullptr);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.error().to_string().find("swamp"), std::string::npos) << r.error().to_string();
  write_fixes(
      R"({"reconstructed":true,"source":"t","fixes":[{"hex":"2013","field":"terrain","value":"marsh"}]})");
  r = generate(root_, "bd", nullptr);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.error().to_string().find("rule"), std::string::npos) << r.error().to_string();
}

TEST_F(BadInput, NonAdjacentHexsideFixIsAnError) {
  write_fixes(
      R"({"reconstructed":true,"source":"t","fixes":[{"hexside":["3105","3107"],"features":["strait"],"rule":"10.14"}]})");
  auto r = generate(root_, "bd", nullptr);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.error().to_string().find("adjacent"), std::string::npos) << r.error().to_string();
}

// A city-rank place in a hex with too little land is refused, naming the place and the hex:
// Helsinki (1014) has 19% land, so demanding half the hex be land makes it an error.
TEST_F(BadInput, CityInAMostlyWaterHexIsAnError) {
  write_fixes(R"({"reconstructed":true,"source":"t","fixes":[]})");
  edit_grid([](Json& grid) { grid["cities"]["city_hex_min_land_share"] = 0.5; });
  auto r = generate(root_, "bd", nullptr);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.error().to_string().find("Helsinki"), std::string::npos) << r.error().to_string();
  EXPECT_NE(r.error().to_string().find("1014"), std::string::npos) << r.error().to_string();
}

// A fix that turns a city hex into sea is refused: no city, port or oil field in water.
TEST_F(BadInput, FixTurningACityHexToSeaIsAnError) {
  write_fixes(
      R"({"reconstructed":true,"source":"t","fixes":[{"hex":"2911","field":"terrain","value":"all-sea","rule":"t"}]})");
  auto r = generate(root_, "bd", nullptr);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.error().to_string().find("2911"), std::string::npos) << r.error().to_string();
  EXPECT_NE(r.error().to_string().find("land hex"), std::string::npos) << r.error().to_string();
}

// The terrain vocabulary comes from grid.json; one without a type the generator produces
// is refused.
TEST_F(BadInput, TerrainTypesWithoutAllSeaIsAnError) {
  write_fixes(R"({"reconstructed":true,"source":"t","fixes":[]})");
  edit_grid([](Json& grid) {
    grid["terrain_types"] = Json::array({"clear", "rough", "marsh", "desert-steppe", "all-lake"});
  });
  auto r = generate(root_, "bd", nullptr);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.error().to_string().find("all-sea"), std::string::npos) << r.error().to_string();
}

// The terrain overlay is shared with the Moscow '41 area map: grid.json
// terrain.overlay_terrain says what each zone terrain is in BD. A zone terrain it does not
// map is refused, naming the zone terrain; so is a mapping to a terrain BD lacks.
TEST_F(BadInput, OverlayTerrainNotMappedIsAnError) {
  write_fixes(R"({"reconstructed":true,"source":"t","fixes":[]})");
  edit_grid([](Json& grid) { grid["terrain"]["overlay_terrain"].erase("forest"); });
  auto r = generate(root_, "bd", nullptr);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.error().to_string().find("\"forest\""), std::string::npos) << r.error().to_string();
  EXPECT_NE(r.error().to_string().find("overlay_terrain"), std::string::npos) << r.error().to_string();
  edit_grid([](Json& grid) { grid["terrain"]["overlay_terrain"]["forest"] = "woods"; });
  r = generate(root_, "bd", nullptr);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.error().to_string().find("woods"), std::string::npos) << r.error().to_string();
}

// forest -> null is what keeps the BD map free of the overlay's forest belts: mapping them
// to rough instead makes some clear hexes rough (and changes nothing else).
TEST_F(BadInput, ForestZonesAreIgnoredOnlyBecauseOverlayTerrainSaysSo) {
  fs::copy_file("data/bd/map-fixes.json", root_ / "data/bd/map-fixes.json");
  auto base = generate(root_, "bd", nullptr);
  ASSERT_TRUE(base.is_ok()) << base.error().to_string();
  edit_grid([](Json& grid) { grid["terrain"]["overlay_terrain"]["forest"] = "rough"; });
  auto wooded = generate(root_, "bd", nullptr);
  ASSERT_TRUE(wooded.is_ok()) << wooded.error().to_string();
  const Json& a = (*base)["hexes"];
  const Json& b = (*wooded)["hexes"];
  ASSERT_EQ(a.size(), b.size());
  int changed = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i]["terrain"] == b[i]["terrain"]) continue;
    ++changed;
    EXPECT_EQ(a[i]["terrain"], "clear") << a[i]["id"];
    EXPECT_EQ(b[i]["terrain"], "rough") << b[i]["id"];
  }
  EXPECT_GT(changed, 0);
}

TEST_F(BadInput, MissingGridFileNamesTheFile) {
  fs::remove(root_ / "data/bd/grid.json");
  auto r = generate(root_, "bd", nullptr);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.error().to_string().find("grid.json"), std::string::npos) << r.error().to_string();
}

}  // namespace
}  // namespace steppe::mapgen
