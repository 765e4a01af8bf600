#include "kernel/hexgrid.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace steppe {

namespace {

// Cube direction vectors in the screen frame (north up), in each orientation's
// direction-name order. Both lists rotate consistently, which ring() relies on.
constexpr std::array<Cube, 6> kPointyDirs = {{
    {+1, 0, -1},  // E
    {+1, -1, 0},  // NE
    {0, -1, +1},  // NW
    {-1, 0, +1},  // W
    {-1, +1, 0},  // SW
    {0, +1, -1},  // SE
}};
constexpr std::array<Cube, 6> kFlatDirs = {{
    {0, -1, +1},  // N
    {+1, -1, 0},  // NE
    {+1, 0, -1},  // SE
    {0, +1, -1},  // S
    {-1, +1, 0},  // SW
    {-1, 0, +1},  // NW
}};

const std::array<std::string, 6> kPointyNames = {"E", "NE", "NW", "W", "SW", "SE"};
const std::array<std::string, 6> kFlatNames = {"N", "NE", "SE", "S", "SW", "NW"};

const std::array<Cube, 6>& dirs_of(HexOrientation o) {
  return o == HexOrientation::kPointy ? kPointyDirs : kFlatDirs;
}

Cube cube_round(double fq, double fr, double fs) {
  double q = std::round(fq), r = std::round(fr), s = std::round(fs);
  const double dq = std::abs(q - fq), dr = std::abs(r - fr), ds = std::abs(s - fs);
  if (dq > dr && dq > ds)
    q = -r - s;
  else if (dr > ds)
    r = -q - s;
  else
    s = -q - r;
  return {static_cast<int>(q), static_cast<int>(r), static_cast<int>(s)};
}

int pow10(int digits) {
  int p = 1;
  for (int i = 0; i < digits; ++i) p *= 10;
  return p;
}

// Hexes a grid may have; far above any board game, low enough that a typo ("last":
// 32000) is caught instead of allocating gigabytes.
constexpr int kMaxGridHexes = 4'000'000;

}  // namespace

int cube_distance(const Cube& a, const Cube& b) {
  return (std::abs(a.q - b.q) + std::abs(a.r - b.r) + std::abs(a.s - b.s)) / 2;
}

Result<HexGrid> HexGrid::from_json(const Json& grid, const std::string& file) {
  return from_json(JsonReader(grid, file, "/grid"));
}

Result<HexGrid> HexGrid::from_json(const JsonReader& g) {
  const size_t errors_before = g.errors().size();
  HexGrid grid;
  g.allow_only({"id_format", "orientation", "rows", "cols", "odd_rows_shift", "odd_cols_shift",
                "reconstructed", "source", "note"});
  g.check_reconstructed();

  const std::string orient = g.str("orientation");
  if (orient == "pointy") {
    grid.orientation_ = HexOrientation::kPointy;
  } else if (orient == "flat") {
    grid.orientation_ = HexOrientation::kFlat;
  } else if (g.at("orientation").json().is_string()) {
    g.at("orientation").fail_value("orientation must be \"pointy\" or \"flat\"");
  }

  // id_format: R and C digits, each kind contiguous, plus literal characters.
  JsonReader fmt_r = g.at("id_format");
  grid.id_format_ = fmt_r.as_str();
  {
    const std::string& f = grid.id_format_;
    const auto rcount = std::count(f.begin(), f.end(), 'R');
    const auto ccount = std::count(f.begin(), f.end(), 'C');
    const auto contiguous = [&f](char ch) {
      const auto first = f.find(ch), last = f.rfind(ch);
      return first == std::string::npos || f.find_first_not_of(ch, first) > last;
    };
    if (fmt_r.json().is_string() &&
        (rcount == 0 || ccount == 0 || rcount > 6 || ccount > 6 || !contiguous('R') || !contiguous('C')))
      fmt_r.fail_value(
          "id_format must hold 1-6 contiguous R (row) digits and 1-6 contiguous C (column) digits");
    grid.row_digits_ = static_cast<int>(rcount);
    grid.col_digits_ = static_cast<int>(ccount);
  }

  const auto read_axis = [&](const char* key, const char* plus, const char* minus, int digits, int& first,
                             int& count, bool& increase_plus) {
    JsonReader a = g.at(key);
    a.allow_only({"first", "last", "increase"});
    const int limit = digits > 0 && digits <= 6 ? pow10(digits) - 1 : 999999;
    first = a.int_in("first", 0, limit);
    const int last = a.int_in("last", 0, limit);
    if (a.ok() && last < first) a.at("last").fail_value("\"last\" must not be below \"first\"");
    count = last >= first ? last - first + 1 : 1;
    const std::string inc = a.str("increase");
    if (inc == plus) {
      increase_plus = true;
    } else if (inc == minus) {
      increase_plus = false;
    } else if (a.at("increase").json().is_string()) {
      a.at("increase").fail_value(std::string("\"increase\" must be \"") + plus + "\" or \"" + minus + "\"");
    }
  };
  read_axis("rows", "south", "north", grid.row_digits_, grid.row_first_, grid.nrows_,
            grid.rows_increase_south_);
  read_axis("cols", "east", "west", grid.col_digits_, grid.col_first_, grid.ncols_, grid.cols_increase_east_);

  const bool pointy = grid.orientation_ == HexOrientation::kPointy;
  const char* shift_key = pointy ? "odd_rows_shift" : "odd_cols_shift";
  const char* wrong_key = pointy ? "odd_cols_shift" : "odd_rows_shift";
  if (g.has(wrong_key))
    g.at(wrong_key).fail(std::string("\"") + wrong_key + "\" does not fit orientation \"" + orient +
                         "\" (use \"" + shift_key + "\")");
  const std::string shift = g.str(shift_key);
  const char* plus = pointy ? "east" : "south";
  const char* minus = pointy ? "west" : "north";
  if (shift == plus) {
    grid.odd_shift_ = +1;
  } else if (shift == minus) {
    grid.odd_shift_ = -1;
  } else if (g.at(shift_key).json().is_string()) {
    g.at(shift_key).fail_value(std::string("\"") + shift_key + "\" must be \"" + plus + "\" or \"" + minus +
                               "\"");
  }

  if (g.errors().size() == errors_before &&
      static_cast<int64_t>(grid.nrows_) * static_cast<int64_t>(grid.ncols_) > kMaxGridHexes)
    g.fail("grid has more than " + std::to_string(kMaxGridHexes) + " hexes; check rows and cols");
  if (g.errors().size() != errors_before) {
    Error e = g.errors()[errors_before];
    if (g.errors().size() > errors_before + 1)
      e.message += " (and " + std::to_string(g.errors().size() - errors_before - 1) + " more grid errors)";
    return e;
  }
  grid.build();
  return grid;
}

Cube HexGrid::offset_to_cube(int row, int col) const {
  // Into a screen frame first (x east, y south), then doubled coordinates, then cube.
  const int y = rows_increase_south_ ? row : -row;
  const int x = cols_increase_east_ ? col : -col;
  if (orientation_ == HexOrientation::kPointy) {
    const int dx = 2 * x + ((row & 1) != 0 ? odd_shift_ : 0);  // doubled width
    const int q = (dx - y) / 2, r = y;                         // dx - y is always even
    return {q, r, -q - r};
  }
  const int dy = 2 * y + ((col & 1) != 0 ? odd_shift_ : 0);  // doubled height
  const int q = x, r = (dy - x) / 2;
  return {q, r, -q - r};
}

void HexGrid::build() {
  const int n = size();
  cubes_.resize(n);
  int max_q = 0, max_r = 0;
  for (int i = 0; i < n; ++i) {
    cubes_[i] = offset_to_cube(row(i), col(i));
    if (i == 0 || cubes_[i].q < min_q_) min_q_ = cubes_[i].q;
    if (i == 0 || cubes_[i].r < min_r_) min_r_ = cubes_[i].r;
    if (i == 0 || cubes_[i].q > max_q) max_q = cubes_[i].q;
    if (i == 0 || cubes_[i].r > max_r) max_r = cubes_[i].r;
  }
  span_q_ = max_q - min_q_ + 1;
  span_r_ = max_r - min_r_ + 1;
  by_cube_.assign(static_cast<size_t>(span_q_) * static_cast<size_t>(span_r_), -1);
  for (int i = 0; i < n; ++i) by_cube_[(cubes_[i].r - min_r_) * span_q_ + (cubes_[i].q - min_q_)] = i;

  neighbours_.assign(static_cast<size_t>(n) * kDirections, -1);
  const auto& dirs = dirs_of(orientation_);
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < kDirections; ++d) neighbours_[i * kDirections + d] = from_cube(cubes_[i] + dirs[d]);
  hexsides_.assign(static_cast<size_t>(n) * kDirections, -1);
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < kDirections; ++d) hexsides_[i * kDirections + d] = side_of(i, d);
}

int HexGrid::index(int r, int c) const {
  const int ri = r - row_first_, ci = c - col_first_;
  if (ri < 0 || ri >= nrows_ || ci < 0 || ci >= ncols_) return -1;
  return ri * ncols_ + ci;
}

int HexGrid::from_cube(const Cube& c) const {
  const int qi = c.q - min_q_, ri = c.r - min_r_;
  if (qi < 0 || qi >= span_q_ || ri < 0 || ri >= span_r_) return -1;
  return by_cube_[ri * span_q_ + qi];
}

int HexGrid::parse(std::string_view id) const {
  if (id.size() != id_format_.size()) return -1;
  int r = 0, c = 0;
  for (size_t i = 0; i < id.size(); ++i) {
    const char f = id_format_[i], ch = id[i];
    if (f == 'R' || f == 'C') {
      if (ch < '0' || ch > '9') return -1;
      int& v = f == 'R' ? r : c;
      v = v * 10 + (ch - '0');
    } else if (f != ch) {
      return -1;
    }
  }
  return index(r, c);
}

Result<int> HexGrid::index_of(std::string_view id) const {
  const int i = parse(id);
  if (i < 0)
    return Error{quoted(id) + " is not a hex of this map (ids are " + id_format_ + ", rows " +
                     std::to_string(first_row()) + "-" + std::to_string(last_row()) + ", columns " +
                     std::to_string(first_col()) + "-" + std::to_string(last_col()) + ")",
                 "", ""};
  return i;
}

std::string HexGrid::id(int idx) const {
  std::string out = id_format_;
  int r = row(idx), c = col(idx);
  // Fill digits from the right of each group.
  for (size_t i = out.size(); i-- > 0;) {
    if (out[i] == 'R') {
      out[i] = static_cast<char>('0' + r % 10);
      r /= 10;
    } else if (out[i] == 'C') {
      out[i] = static_cast<char>('0' + c % 10);
      c /= 10;
    }
  }
  return out;
}

void HexGrid::line(int a, int b, std::vector<int>& out) const {
  out.clear();
  const int n = distance(a, b);
  const Cube ca = cubes_[a], cb = cubes_[b];
  // The nudge keeps points exactly on a hexside from rounding both ways along the line.
  constexpr double kEq = 1e-6, kEr = 2e-6, kEs = -3e-6;
  for (int i = 0; i <= n; ++i) {
    const double t = n == 0 ? 0.0 : static_cast<double>(i) / n;
    const double q = ca.q + kEq + (cb.q - ca.q) * t;
    const double r = ca.r + kEr + (cb.r - ca.r) * t;
    const double s = ca.s + kEs + (cb.s - ca.s) * t;
    out.push_back(from_cube(cube_round(q, r, s)));
  }
}

void HexGrid::ring(int center, int radius, std::vector<int>& out) const {
  out.clear();
  if (radius <= 0) {
    out.push_back(center);
    return;
  }
  const auto& dirs = dirs_of(orientation_);
  Cube h = cubes_[center] + dirs[4] * radius;
  for (int i = 0; i < kDirections; ++i) {
    for (int j = 0; j < radius; ++j) {
      const int idx = from_cube(h);
      if (idx >= 0) out.push_back(idx);
      h = h + dirs[(i + 6) % 6];
    }
  }
}

void HexGrid::within(int center, int radius, std::vector<int>& out) const {
  out.clear();
  const Cube c = cubes_[center];
  for (int dq = -radius; dq <= radius; ++dq) {
    for (int dr = std::max(-radius, -dq - radius); dr <= std::min(radius, -dq + radius); ++dr) {
      const int idx = from_cube({c.q + dq, c.r + dr, c.s - dq - dr});
      if (idx >= 0) out.push_back(idx);
    }
  }
}

int HexGrid::direction(int a, int b) const {
  const auto n = neighbours(a);
  for (int d = 0; d < kDirections; ++d)
    if (n[d] == b && b >= 0) return d;
  return -1;
}

const std::string& HexGrid::direction_name(int d) const {
  return orientation_ == HexOrientation::kPointy ? kPointyNames[d] : kFlatNames[d];
}

int HexGrid::parse_direction(std::string_view name) const {
  const auto& names = orientation_ == HexOrientation::kPointy ? kPointyNames : kFlatNames;
  for (int d = 0; d < kDirections; ++d)
    if (names[d] == name) return d;
  return -1;
}

namespace {
// Each hex owns the sides in directions 0, 1 and 5; the others belong to the neighbour
// (direction 3 = neighbour's 0, 4 = neighbour's 1, 2 = neighbour's 5).
constexpr std::array<int, 6> kOwnedSlot = {0, 1, -1, -1, -1, 2};
constexpr std::array<int, 3> kSlotDir = {0, 1, 5};
}  // namespace

int HexGrid::side_of(int idx, int d) const {
  const int nb = neighbour(idx, d);
  if (nb < 0) return -1;
  if (kOwnedSlot[d] >= 0) return idx * 3 + kOwnedSlot[d];
  return nb * 3 + kOwnedSlot[opposite(d)];
}

int HexGrid::hexside_index(int a, int b) const {
  if (!valid(a) || !valid(b)) return -1;
  const int d = direction(a, b);
  return d < 0 ? -1 : hexside_index_dir(a, d);
}

Hexside HexGrid::hexside_of_index(int side) const {
  const int owner = side / 3;
  const int nb = neighbour(owner, kSlotDir[side % 3]);
  return nb < 0 ? Hexside{} : hexside(owner, nb);
}

Json HexGrid::to_json() const {
  const bool pointy = orientation_ == HexOrientation::kPointy;
  Json j{
      {"id_format", id_format_},
      {"orientation", pointy ? "pointy" : "flat"},
      {"rows",
       {{"first", first_row()},
        {"last", last_row()},
        {"increase", rows_increase_south_ ? "south" : "north"}}},
      {"cols",
       {{"first", first_col()}, {"last", last_col()}, {"increase", cols_increase_east_ ? "east" : "west"}}}};
  if (pointy)
    j["odd_rows_shift"] = odd_shift_ > 0 ? "east" : "west";
  else
    j["odd_cols_shift"] = odd_shift_ > 0 ? "south" : "north";
  return j;
}

}  // namespace steppe
