// Projection and the least-squares + RBF fit of real geography to a game's hex grid.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "geo/mapgen.h"

namespace steppe::mapgen {
namespace {
constexpr double kPi = std::numbers::pi;
constexpr double kRowStep = 0.8660254037844386;  // sqrt(3)/2
double rad(double d) { return d * kPi / 180.0; }
double deg(double r) { return r * 180.0 / kPi; }

// Solves M x = b in place (Gaussian elimination with partial pivoting); false if singular.
bool solve(std::vector<std::vector<double>> m, std::vector<double> b, std::vector<double>& x) {
  const size_t n = b.size();
  for (size_t i = 0; i < n; ++i) {
    size_t p = i;
    for (size_t j = i + 1; j < n; ++j)
      if (std::abs(m[j][i]) > std::abs(m[p][i])) p = j;
    if (std::abs(m[p][i]) < 1e-12) return false;
    std::swap(m[i], m[p]);
    std::swap(b[i], b[p]);
    for (size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const double f = m[j][i] / m[i][i];
      for (size_t k = i; k < n; ++k) m[j][k] -= f * m[i][k];
      b[j] -= f * b[i];
    }
  }
  x.resize(n);
  for (size_t i = 0; i < n; ++i) x[i] = b[i] / m[i][i];
  return true;
}
}  // namespace

Lcc::Lcc(double lon0, double lat0, double lat1, double lat2, double radius_km) : lon0_(lon0), r_(radius_km) {
  const double p1 = rad(lat1), p2 = rad(lat2), p0 = rad(lat0);
  n_ = std::abs(lat1 - lat2) < 1e-9 ? std::sin(p1)
                                    : std::log(std::cos(p1) / std::cos(p2)) /
                                          std::log(std::tan(kPi / 4 + p2 / 2) / std::tan(kPi / 4 + p1 / 2));
  f_ = std::cos(p1) * std::pow(std::tan(kPi / 4 + p1 / 2), n_) / n_;
  rho0_ = r_ * f_ / std::pow(std::tan(kPi / 4 + p0 / 2), n_);
}

std::array<double, 2> Lcc::forward(double lon, double lat) const {
  const double rho = r_ * f_ / std::pow(std::tan(kPi / 4 + rad(lat) / 2), n_);
  const double t = n_ * rad(lon - lon0_);
  return {rho * std::sin(t), rho0_ - rho * std::cos(t)};
}

std::array<double, 2> Lcc::inverse(double x, double y) const {
  const double dy = rho0_ - y;
  double rho = std::copysign(std::sqrt(x * x + dy * dy), n_);
  const double t = std::atan2(x, dy);
  const double lat = 2 * std::atan(std::pow(r_ * f_ / rho, 1 / n_)) - kPi / 2;
  return {lon0_ + deg(t / n_), deg(lat)};
}

Result<PlaneLayout> plane_layout_of(const HexGrid& grid, const JsonReader& grid_json) {
  if (grid.orientation() == HexOrientation::kPointy) return PlaneLayout::kPointyRows;
  // kFlatCols puts odd columns at Y + 1/2, Y growing with the row number: the odd columns
  // must shift towards higher rows.
  const bool rows_south = grid_json.at("rows").str("increase") == "south";
  const bool shift_south = grid_json.str_or("odd_cols_shift", "") == "south";
  if (rows_south != shift_south)
    return Error{"a flat grid must shift its odd columns towards higher row numbers", "",
                 grid_json.where() + "/odd_cols_shift"};
  return PlaneLayout::kFlatCols;
}

namespace {
std::array<double, 2> pointy_centre(int row, int col) {
  return {col + ((row & 1) != 0 ? 0.5 : 0.0), row * kRowStep};
}

std::array<int, 2> pointy_at(double x, double y) {
  // odd-r offset layout in (x, y): axial q = x - y/sqrt(3), r = y / (sqrt(3)/2).
  const double rf = y / kRowStep;
  const double qf = x - rf / 2.0;
  const double sf = -qf - rf;
  double q = std::round(qf), r = std::round(rf), s = std::round(sf);
  const double dq = std::abs(q - qf), dr = std::abs(r - rf), ds = std::abs(s - sf);
  if (dq > dr && dq > ds) {
    q = -r - s;
  } else if (dr > ds) {
    r = -q - s;
  }
  const int ri = static_cast<int>(r), qi = static_cast<int>(q);
  const int col = qi + (ri - (ri & 1)) / 2;
  return {ri, col};
}
}  // namespace

std::array<double, 2> hex_plane_centre(int row, int col, PlaneLayout layout) {
  if (layout == PlaneLayout::kPointyRows) return pointy_centre(row, col);
  const auto t = pointy_centre(col, row);  // the transpose
  return {t[1], t[0]};
}

std::array<int, 2> hex_at_plane(double x, double y, PlaneLayout layout) {
  if (layout == PlaneLayout::kPointyRows) return pointy_at(x, y);
  const auto t = pointy_at(y, x);  // {col, row} of the transpose
  return {t[1], t[0]};
}

std::vector<std::array<double, 2>> hex_sample_offsets(double step, PlaneLayout layout) {
  std::vector<std::array<double, 2>> out;
  if (!(step > 0)) return out;
  // Pointy-top hexagon of width 1: circumradius 1/sqrt(3); inside when |x| <= 1/2 and
  // |y| <= R (1 - |x|). Lattice points at (i + 1/2) step, none on the centre lines.
  // A flat-top hexagon is the transpose.
  const double circumradius = 1.0 / std::sqrt(3.0);
  const int ny = static_cast<int>(std::floor(circumradius / step - 0.5));
  const int nx = static_cast<int>(std::floor(0.5 / step - 0.5));
  for (int j = -ny - 1; j <= ny; ++j)
    for (int i = -nx - 1; i <= nx; ++i) {
      const double dx = (i + 0.5) * step, dy = (j + 0.5) * step;
      if (std::abs(dy) <= circumradius * (1.0 - std::abs(dx))) {
        if (layout == PlaneLayout::kPointyRows)
          out.push_back({dx, dy});
        else
          out.push_back({dy, dx});
      }
    }
  return out;
}

Result<GeoFit> GeoFit::from_json(const JsonReader& grid) {
  GeoFit fit;
  auto pj = grid.at("projection");
  if (pj.str("type") != "lambert_conformal_conic")
    pj.at("type").fail_value("only \"lambert_conformal_conic\" is supported");
  fit.lcc_ = Lcc(pj.number("lon0"), pj.number("lat0"), pj.number("lat1"), pj.number("lat2"),
                 pj.number_or("radius_km", 6371.0));
  auto hg = HexGrid::from_json(grid.at("grid"));
  if (!hg) return hg.error();
  const HexGrid& hex_grid = *hg;
  auto layout = plane_layout_of(hex_grid, grid.at("grid"));
  if (!layout) return layout.error();
  fit.layout_ = *layout;
  auto fj = grid.at("fit");
  fit.sigma_ = fj.number_or("rbf_sigma_hexes", 2.5);
  struct A {
    std::string hex, name;
    double lon, lat, x, y, u, v;
  };
  std::vector<A> anchors;
  for (const auto& a : fj.at("anchors").elements()) {
    A an{};
    an.hex = a.str("hex");
    an.name = a.str_or("name", "");
    auto ll = a.at("lonlat");
    an.lon = ll.at(0).as_number();
    an.lat = ll.at(1).as_number();
    const int idx = hex_grid.parse(an.hex);
    if (idx < 0) {
      a.at("hex").fail_value("anchor hex is not a hex id of the grid");
      continue;
    }
    const auto p = hex_plane_centre(hex_grid.row(idx), hex_grid.col(idx), fit.layout_);
    an.u = p[0];
    an.v = p[1];
    const auto km = fit.lcc_.forward(an.lon, an.lat);
    an.x = km[0] / 1000.0;
    an.y = km[1] / 1000.0;
    anchors.push_back(an);
  }
  if (!grid.ok()) return grid.error();
  if (anchors.size() < 3)
    return Error{"at least 3 fit anchors are needed", "", grid.where() + "/fit/anchors"};
  // Least squares for u and v separately: normal equations of [1 x y].
  std::vector<std::vector<double>> m(3, std::vector<double>(3, 0.0));
  std::vector<double> bu(3, 0.0), bv(3, 0.0);
  for (const auto& a : anchors) {
    const double f[3] = {1.0, a.x, a.y};
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) m[i][j] += f[i] * f[j];
      bu[i] += f[i] * a.u;
      bv[i] += f[i] * a.v;
    }
  }
  std::vector<double> cu, cv;
  if (!solve(m, bu, cu) || !solve(m, bv, cv))
    return Error{"fit anchors are degenerate (collinear)", "", grid.where() + "/fit/anchors"};
  fit.a_ = {cu[0], cu[1], cu[2], cv[0], cv[1], cv[2]};
  // Residuals of the affine fit, and the RBF through them.
  const size_t n = anchors.size();
  std::vector<double> ru(n), rv(n);
  double sum2 = 0;
  for (size_t i = 0; i < n; ++i) {
    const auto p = fit.affine(anchors[i].x * 1000.0, anchors[i].y * 1000.0);
    fit.centres_.push_back(p);
    ru[i] = anchors[i].u - p[0];
    rv[i] = anchors[i].v - p[1];
    AnchorResidual r;
    r.hex = anchors[i].hex;
    r.name = anchors[i].name;
    r.lon = anchors[i].lon;
    r.lat = anchors[i].lat;
    const bool flat = fit.layout_ == PlaneLayout::kFlatCols;
    r.affine_dcol = flat ? -ru[i] / kRowStep : -ru[i];
    r.affine_drow = flat ? -rv[i] : -rv[i] / kRowStep;
    r.affine_dist = std::hypot(ru[i], rv[i]);
    sum2 += r.affine_dist * r.affine_dist;
    fit.residuals_.push_back(r);
  }
  fit.affine_rms_ = std::sqrt(sum2 / static_cast<double>(n));
  std::vector<std::vector<double>> k(n, std::vector<double>(n));
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      const double d2 = std::pow(fit.centres_[i][0] - fit.centres_[j][0], 2) +
                        std::pow(fit.centres_[i][1] - fit.centres_[j][1], 2);
      k[i][j] = std::exp(-d2 / (2 * fit.sigma_ * fit.sigma_));
    }
  std::vector<double> wu, wv;
  if (!solve(k, ru, wu) || !solve(k, rv, wv))
    return Error{"fit anchors too close together for the RBF correction (two anchors on one point?)", "",
                 grid.where() + "/fit/anchors"};
  for (size_t i = 0; i < n; ++i) fit.weights_.push_back({wu[i], wv[i]});
  for (auto& r : fit.residuals_) {
    const auto p = fit.to_plane(r.lon, r.lat);
    const auto h = hex_at_plane(p[0], p[1], fit.layout_);
    if (fit.layout_ == PlaneLayout::kPointyRows) {
      char buf[24];  // room for any two ints (GCC warns of truncation otherwise)
      std::snprintf(buf, sizeof buf, "%02d%02d", h[0], h[1]);
      r.placed_hex = buf;
    } else {
      const int at = hex_grid.index(h[0], h[1]);
      r.placed_hex = at >= 0 ? hex_grid.id(at) : "off-grid";
    }
  }
  return fit;
}

std::array<double, 2> GeoFit::affine(double xkm, double ykm) const {
  const double x = xkm / 1000.0, y = ykm / 1000.0;
  return {a_[0] + a_[1] * x + a_[2] * y, a_[3] + a_[4] * x + a_[5] * y};
}

std::array<double, 2> GeoFit::correction(double u, double v) const {
  double cu = 0, cv = 0;
  const double s2 = 2 * sigma_ * sigma_;
  for (size_t i = 0; i < centres_.size(); ++i) {
    const double d2 = std::pow(u - centres_[i][0], 2) + std::pow(v - centres_[i][1], 2);
    const double w = std::exp(-d2 / s2);
    cu += weights_[i][0] * w;
    cv += weights_[i][1] * w;
  }
  return {cu, cv};
}

std::array<double, 2> GeoFit::to_plane(double lon, double lat) const {
  const auto km = lcc_.forward(lon, lat);
  const auto p = affine(km[0], km[1]);
  const auto c = correction(p[0], p[1]);
  return {p[0] + c[0], p[1] + c[1]};
}

std::array<double, 2> GeoFit::to_lonlat(double x, double y) const {
  // Undo the warp by fixed-point iteration (the correction is smooth and small), then the
  // affine map, then the projection.
  double u = x, v = y;
  for (int it = 0; it < 30; ++it) {
    const auto c = correction(u, v);
    const double nu = x - c[0], nv = y - c[1];
    const bool done = std::abs(nu - u) < 1e-9 && std::abs(nv - v) < 1e-9;
    u = nu;
    v = nv;
    if (done) break;
  }
  const double det = a_[1] * a_[5] - a_[2] * a_[4];
  const double du = u - a_[0], dv = v - a_[3];
  const double xk = (a_[5] * du - a_[2] * dv) / det * 1000.0;
  const double yk = (-a_[4] * du + a_[1] * dv) / det * 1000.0;
  return lcc_.inverse(xk, yk);
}

double GeoFit::km_per_hex() const { return 1000.0 / std::hypot(a_[1], a_[2]); }

Json GeoFit::to_json() const {
  Json j;
  j["method"] =
      "LCC, least-squares affine to the hex plane, exact Gaussian RBF correction through the anchors";
  j["affine"] = {a_[0], a_[1], a_[2], a_[3], a_[4], a_[5]};
  j["affine_rms_hexes"] = std::round(affine_rms_ * 1000) / 1000;
  j["km_per_hex"] = std::round(km_per_hex() * 10) / 10;
  j["rbf_sigma_hexes"] = sigma_;
  Json arr = Json::array();
  for (const auto& r : residuals_) {
    arr.push_back({{"hex", r.hex},
                   {"name", r.name},
                   {"affine_dcol", std::round(r.affine_dcol * 100) / 100},
                   {"affine_drow", std::round(r.affine_drow * 100) / 100},
                   {"affine_dist_hexes", std::round(r.affine_dist * 100) / 100},
                   {"placed_hex", r.placed_hex}});
  }
  j["anchors"] = arr;
  return j;
}

}  // namespace steppe::mapgen
