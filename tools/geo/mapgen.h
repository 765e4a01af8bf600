// steppe_mapgen: turns real geography (data/geo extracts + hand-authored 1941 overlays)
// into a game's hex map (data/<game>/map.json), driven by data/<game>/grid.json.
//
// Every rule of thumb (thresholds, projection, anchors, outline, which river classes count)
// is a parameter in grid.json; hand corrections (map-fixes.json) are applied last and
// listed in the output so an owner of the printed map can correct any hex.
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "kernel/error.h"
#include "kernel/hexgrid.h"
#include "kernel/json_data.h"

namespace steppe::mapgen {

// Spherical Lambert conformal conic (km).
class Lcc {
 public:
  Lcc() = default;
  Lcc(double lon0, double lat0, double lat1, double lat2, double radius_km);
  std::array<double, 2> forward(double lon, double lat) const;
  std::array<double, 2> inverse(double x, double y) const;

 private:
  double lon0_ = 0, n_ = 1, f_ = 1, rho0_ = 0, r_ = 6371.0;
};

// How a grid's (row, col) sit in the hex plane (one unit = one hex width, the
// centre-to-centre distance; the affine fit absorbs which compass way the axes run).
//  kPointyRows: pointy-top, odd rows shifted half a hex towards higher columns (BD: RRCC,
//               columns rise westward, "odd_rows_shift": "west"): X = col (+0.5 on odd
//               rows), Y = row * sqrt(3)/2.
//  kFlatCols:   flat-top, odd columns shifted half a hex towards higher rows (Dark Valley:
//               CCRR, rows rise southward, "odd_cols_shift": "south"): X = col * sqrt(3)/2,
//               Y = row (+0.5 on odd columns). The transpose of kPointyRows.
enum class PlaneLayout { kPointyRows, kFlatCols };
// The layout of a grid.json "grid" object; an error for a flat grid whose odd columns do
// not shift towards higher rows (the only flat layout the plane functions model).
Result<PlaneLayout> plane_layout_of(const HexGrid& grid, const JsonReader& grid_json);

std::array<double, 2> hex_plane_centre(int row, int col, PlaneLayout layout = PlaneLayout::kPointyRows);
// Nearest hex (row, col) to a plane point.
std::array<int, 2> hex_at_plane(double x, double y, PlaneLayout layout = PlaneLayout::kPointyRows);

// Sample points of one hex, as offsets from its centre in the hex plane: the square lattice
// of spacing `step` (hex widths) whose points sit half a step off the centre lines, clipped
// to the hexagon. grid.json's sampling.lattice_step_hexes 0.1 gives 84 points.
std::vector<std::array<double, 2>> hex_sample_offsets(double step,
                                                      PlaneLayout layout = PlaneLayout::kPointyRows);

struct AnchorResidual {
  std::string hex, name;
  double lon = 0, lat = 0;
  double affine_dcol = 0, affine_drow = 0, affine_dist = 0;  // before the RBF warp
  std::string placed_hex;                                    // after the warp
};

// Geographic fit: LCC projection, least-squares affine to the hex plane, exact Gaussian
// RBF correction through the anchors.
class GeoFit {
 public:
  static Result<GeoFit> from_json(const JsonReader& grid);
  std::array<double, 2> to_plane(double lon, double lat) const;
  std::array<double, 2> to_lonlat(double x, double y) const;
  std::array<double, 2> to_km(double lon, double lat) const { return lcc_.forward(lon, lat); }
  const std::vector<AnchorResidual>& residuals() const { return residuals_; }
  PlaneLayout layout() const { return layout_; }
  double affine_rms() const { return affine_rms_; }
  double km_per_hex() const;
  Json to_json() const;

 private:
  std::array<double, 2> affine(double xkm, double ykm) const;
  std::array<double, 2> correction(double u, double v) const;
  Lcc lcc_;
  PlaneLayout layout_ = PlaneLayout::kPointyRows;
  std::array<double, 6> a_{};  // u = a0 + a1 x + a2 y ; v = a3 + a4 x + a5 y (x,y in 1000 km)
  double sigma_ = 2.5;
  std::vector<std::array<double, 2>> centres_;  // anchors' affine plane points
  std::vector<std::array<double, 2>> weights_;
  std::vector<AnchorResidual> residuals_;
  double affine_rms_ = 0;
};

struct GenerateReport {
  std::vector<std::string> lines;  // human-readable summary
};

// Generates the map of `game` from repo files under `root` (data/<game>/grid.json ...).
Result<Json> generate(const std::filesystem::path& root, const std::string& game, GenerateReport* report);

// Writes JSON the way mapgen does (stable key order, fixed indentation, trailing newline).
std::string dump_map(const Json& map);

// SVG drawing of a generated map (terrain colours, river/lake/sea hexsides, borders,
// railways, cities, hex ids). `root` is used for the optional real-coastline underlay.
Result<std::string> render_svg(const Json& map, const std::filesystem::path& root, const std::string& game,
                               bool geo_underlay);

}  // namespace steppe::mapgen
