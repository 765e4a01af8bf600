// Hex grids as data: how one game's printed hex numbers map to geometry.
//
// Each game prints its own numbering ("2514" = row 25, column 14 in Barbarossa Deluxe,
// rows rising southward and columns westward, odd rows shifted half a hex west). The
// grid JSON says all of that, and everything else (neighbours, distance, lines, rings)
// follows from general offset/cube maths, so no game is special-cased:
//
//   "grid": {"id_format": "RRCC", "orientation": "pointy",
//            "rows": {"first": 10, "last": 32, "increase": "south"},
//            "cols": {"first": 0, "last": 24, "increase": "west"},
//            "odd_rows_shift": "west"}
//
// Flat-top grids offset columns instead: "orientation": "flat", "odd_cols_shift":
// "north"|"south", usually "id_format": "CCRR". The id format is a pattern of R (row
// digit), C (column digit) and literal characters ("CC.RR").
//
// Hexes of the bounding box get dense indices 0..size()-1 (row-major), so per-hex data is
// a flat vector. Directions are named on the map's own grid: pointy-top E, NE, NW, W, SW,
// SE; flat-top N, NE, SE, S, SW, NW (index order; opposite direction = (d + 3) % 6).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/error.h"
#include "kernel/json_data.h"

namespace steppe {

enum class HexOrientation : uint8_t { kPointy, kFlat };

// Cube coordinates (q + r + s == 0) in a screen frame: north up, east right.
struct Cube {
  int q = 0, r = 0, s = 0;
  friend bool operator==(const Cube&, const Cube&) = default;
  Cube operator+(const Cube& o) const { return {q + o.q, r + o.r, s + o.s}; }
  Cube operator-(const Cube& o) const { return {q - o.q, r - o.r, s - o.s}; }
  Cube operator*(int k) const { return {q * k, r * k, s * k}; }
};
int cube_distance(const Cube& a, const Cube& b);

// A hexside: the canonical (smaller index first) pair of adjacent hexes.
struct Hexside {
  int32_t a = -1, b = -1;
  friend bool operator==(const Hexside&, const Hexside&) = default;
};

class HexGrid {
 public:
  static constexpr int kDirections = 6;

  HexGrid() = default;  // an empty grid (size 0); real grids come from from_json()

  // Parses and validates a "grid" object (errors go to the reader).
  static Result<HexGrid> from_json(const JsonReader& grid);
  static Result<HexGrid> from_json(const Json& grid, const std::string& file);

  HexOrientation orientation() const { return orientation_; }
  int size() const { return nrows_ * ncols_; }
  bool valid(int idx) const { return idx >= 0 && idx < size(); }
  int first_row() const { return row_first_; }
  int last_row() const { return row_first_ + nrows_ - 1; }
  int first_col() const { return col_first_; }
  int last_col() const { return col_first_ + ncols_ - 1; }

  // Printed row/column numbers <-> dense index (-1 outside the bounding box).
  int index(int row, int col) const;
  int row(int idx) const { return row_first_ + idx / ncols_; }
  int col(int idx) const { return col_first_ + idx % ncols_; }

  // Printed id <-> index. parse() returns -1 for text that is not an id of this grid.
  int parse(std::string_view id) const;
  Result<int> index_of(std::string_view id) const;  // error names the id and the format
  std::string id(int idx) const;

  Cube cube(int idx) const { return cubes_[idx]; }
  int from_cube(const Cube& c) const;  // -1 outside the grid

  int distance(int a, int b) const { return cube_distance(cubes_[a], cubes_[b]); }
  // Hexes on the straight line from a to b inclusive (cube lerp, nudged so a line along
  // a hexside picks one side consistently). Entries are -1 where the line leaves the grid.
  void line(int a, int b, std::vector<int>& out) const;
  // Hexes exactly `radius` from center, in ring order; hexes outside the grid are skipped.
  void ring(int center, int radius, std::vector<int>& out) const;
  // Every hex within `radius` (center included), outside-grid ones skipped.
  void within(int center, int radius, std::vector<int>& out) const;

  // The search-graph view (graph.h): every hex of the bounding box is a node; edge = the
  // direction of the step (0..5). Off-map hexes are the game's rules to refuse.
  int node_count() const { return size(); }
  template <class F>
  void for_each_edge(int idx, F&& f) const {
    const int32_t* n = neighbours_.data() + static_cast<ptrdiff_t>(idx) * kDirections;
    for (int d = 0; d < kDirections; ++d)
      if (n[d] >= 0) f(static_cast<int>(n[d]), d);
  }

  // The same, only the directions whose bit is set in `sides` (a HexSideBits byte or a
  // game's own per-hex mask): a search skips closed sides without loading the neighbour.
  template <class F>
  void for_each_edge_in(int idx, unsigned sides, F&& f) const {
    const int32_t* n = neighbours_.data() + static_cast<ptrdiff_t>(idx) * kDirections;
    for (unsigned m = sides & 0x3Fu; m != 0; m &= m - 1) {
      const int d = std::countr_zero(m);
      if (n[d] >= 0) f(static_cast<int>(n[d]), d);
    }
  }

  // Neighbour in direction d (0..5), -1 off-grid. Precomputed table.
  int neighbour(int idx, int d) const { return neighbours_[idx * kDirections + d]; }
  std::span<const int32_t, kDirections> neighbours(int idx) const {
    return std::span<const int32_t, kDirections>(
        neighbours_.data() + static_cast<ptrdiff_t>(idx) * kDirections, kDirections);
  }
  // Direction from a to adjacent b, or -1 if not adjacent.
  int direction(int a, int b) const;
  bool adjacent(int a, int b) const { return direction(a, b) >= 0; }

  static int opposite(int d) { return (d + 3) % kDirections; }
  const std::string& direction_name(int d) const;
  int parse_direction(std::string_view name) const;  // -1 if not a direction of this grid

  // Hexsides: canonical pair, and a dense index 0..hexside_count()-1 (each hex owns the
  // sides in directions 0, 1 and 5 (E/NE/SE pointy; N/NE/NW flat), so per-hexside data is
  // a flat vector too). -1 when a and b are not adjacent.
  static Hexside hexside(int a, int b) { return a < b ? Hexside{a, b} : Hexside{b, a}; }
  int hexside_count() const { return size() * 3; }
  int hexside_index(int a, int b) const;
  // Side of idx in direction d, -1 off-grid. Precomputed table.
  int hexside_index_dir(int idx, int d) const { return hexsides_[idx * kDirections + d]; }
  Hexside hexside_of_index(int side) const;

  Json to_json() const;  // the grid object this grid was parsed from (normalised)

 private:
  void build();
  int side_of(int idx, int d) const;  // hexside index by rule (fills hexsides_)
  Cube offset_to_cube(int row, int col) const;

  HexOrientation orientation_ = HexOrientation::kPointy;
  std::string id_format_;
  int row_first_ = 0, nrows_ = 0, col_first_ = 0, ncols_ = 0;
  bool rows_increase_south_ = true;  // pointy: rows rise south/north; flat likewise
  bool cols_increase_east_ = true;
  int odd_shift_ = 1;  // +1: odd rows east (pointy) / odd cols south (flat); -1 west/north
  int row_digits_ = 0, col_digits_ = 0;

  std::vector<Cube> cubes_;
  std::vector<int32_t> neighbours_;  // size() * 6
  std::vector<int32_t> hexsides_;    // size() * 6: hexside index per hex and direction
  // Cube bounding box, for from_cube lookups without searching.
  int min_q_ = 0, min_r_ = 0, span_q_ = 0, span_r_ = 0;
  std::vector<int32_t> by_cube_;
};

// One bit per hexside of each hex (bit d = the side towards direction d): rivers, sea
// sides, a side's "may trace supply across" and the like, tested in a search's inner loop
// with one load and a shift. set() marks the side from both hexes, so the answer is the
// same whichever end asks.
class HexSideBits {
 public:
  HexSideBits() = default;
  explicit HexSideBits(const HexGrid& grid) : bits_(static_cast<size_t>(grid.size()), 0) {}

  uint8_t at(int idx) const { return bits_[static_cast<size_t>(idx)]; }
  bool test(int idx, int d) const { return ((bits_[static_cast<size_t>(idx)] >> d) & 1u) != 0; }
  // Sets (or clears) the side of idx in direction d and the same side seen from the neighbour.
  void set(const HexGrid& grid, int idx, int d, bool on = true) {
    put(idx, d, on);
    const int nb = grid.neighbour(idx, d);
    if (nb >= 0) put(nb, HexGrid::opposite(d), on);
  }
  int size() const { return static_cast<int>(bits_.size()); }
  // The bytes, one per hex: a search keeps this pointer in a local, so that its own byte
  // stores (which may alias anything) do not make it reload the vector's.
  const uint8_t* data() const { return bits_.data(); }

 private:
  void put(int idx, int d, bool on) {
    uint8_t& b = bits_[static_cast<size_t>(idx)];
    b = static_cast<uint8_t>(on ? (b | (1u << d)) : (b & ~(1u << d)));
  }
  std::vector<uint8_t> bits_;
};

}  // namespace steppe
