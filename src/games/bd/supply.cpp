// Barbarossa Deluxe rules: supply (7.x).
// Section numbers are the rulebook's (seeds/000); where the text is silent or ambiguous
// the choice is written in docs/rulings.md (BD-n).
#include "kernel/supply.h"

#include "games/bd/bd_internal.h"

namespace bd {

// ======================================================================= supply (7.x)

namespace {

// The searches' buffers, one set per thread: a clone of a position copies none of them.
thread_local steppe::SupplyTracer t_tracer;

// How a path may step across a hexside when the map decides it all: one byte per hex, bit d
// open towards direction d (SupplyGraph::sides, crimea_sides); the tracer skips closed sides
// without reading the neighbour.
struct MapStep {
  const uint8_t* bits;
  unsigned sides(int h) const { return bits[h]; }
  bool operator()(int /*to*/, int /*from*/, int /*dir*/) const { return true; }
};

// The German's: the map's part, and the 7.4 bottlenecks, which depend on who holds them.
struct GermanStep {
  const uint8_t* bits;
  const uint8_t* tier;
  const uint8_t* control;
  int dnepropetrovsk, rostov;
  unsigned sides(int h) const { return bits[h]; }
  // `from` is nearer the source, `to` the hex the supply spreads into.
  bool operator()(int to, int from, int /*dir*/) const {
    const int ta = tier[from], tb = tier[to];
    if (tb <= ta) return true;
    // 7.4: into DP only through Dnepropetrovsk, into R only through Rostov.
    if (tb == 1 && to != dnepropetrovsk) return false;
    if (tb == 2 && (to != rostov || ta != 1)) return false;
    // 7.4 "if Dnepropetrovsk were to be captured by the Soviet player, all units ... would
    // instantly be OOS": a Soviet-held bottleneck blocks even when empty (BD-TR2).
    return control[to] != kSoviet;
  }
};

}  // namespace

// What the map alone does not decide, per hex: enemy units (7.3, 7.9) and enemy-held
// fortifications (7.20). Values, not members, so that the search keeps them in registers.
template <int kSide>
struct BdState::OpenNow {
  const uint8_t* occ;
  const uint8_t* control;
  const uint8_t* enemy_fort;
  const BdState* state;
  int fa_hex;
  bool east_walls;
  bool operator()(int h) const {
    if (occ[h] != kNoSide && occ[h] != kSide) return false;  // 7.3, 7.9
    if constexpr (kSide == kGerman)
      return !(control[h] == kSoviet && (enemy_fort[h] || h == fa_hex));  // 7.20
    else
      return !(control[h] == kGerman && (enemy_fort[h] || (east_walls && state->east_wall(h))));  // 7.20, 8.5
  }
};

template <int kSide>
BdState::OpenNow<kSide> BdState::open_now() const {
  return OpenNow<kSide>{
      cache_.occ_side.data(), hex_.control.data(),        supply_graph().enemy_fort[kSide].data(), this,
      markers_.fa_hex,        !markers_.east_wall.empty()};
}

// One side's overland supply into cache_.sup (the tracer's results are its until the next trace).
template <int kSide>
void BdState::trace_overland(steppe::SupplyTracer& tracer) const {
  const SupplyGraph& g = supply_graph();
  const OpenNow<kSide> open = open_now<kSide>();
  const auto node_rule = [open](int h) {
    return open(h) ? steppe::SupplyEntry::kOpen : steppe::SupplyEntry::kBlocked;
  };
  if constexpr (kSide == kGerman)
    tracer.trace(data_->grid, g.sources[kSide], node_rule,
                 GermanStep{g.sides[kSide].data(), g.tier.data(), hex_.control.data(),
                            data_->places.dnepropetrovsk, data_->places.rostov});
  else
    tracer.trace(data_->grid, g.sources[kSide], node_rule, MapStep{g.sides[kSide].data()});
  const std::span<const uint8_t> marks = tracer.supplied_marks();
  std::memcpy(cache_.sup[kSide].data(), marks.data(), std::min(marks.size(), cache_.sup[kSide].size()));
}

// Overland supply per hex and side: a path of any length, not through enemy units, to a
// friendly edge source (7.3, 7.9), inside one logistical area (7.15), through the DP/R
// bottlenecks for the German (7.4), not through enemy fortifications (7.20). The search is the
// kernel's SupplyTracer over the BD HexGrid; the rules are its node rule and step.
void BdState::compute_supply() const {
  if (!supply_dirty_) return;
  supply_dirty_ = false;
  compute_occupancy();
  steppe::SupplyTracer& tracer = t_tracer;
  trace_overland<kGerman>(tracer);
  compute_crimea(tracer);
  trace_overland<kSoviet>(tracer);
}

// 7.4 Crimea supply: while switched on and the German controls Sevastopol, up to five
// German-side units in the CS area without overland supply that trace a path (CS hexes only,
// across the Kerch but never the Sivash, 7.14) to Sevastopol are fully supplied. The text lets
// the German declare which five when more are there; we take the five nearest Sevastopol
// (then the top of a stack first), a ruling in docs/rulings.md.
void BdState::compute_crimea(steppe::SupplyTracer& tracer) const {
  crimea_units_.clear();
  const Places& pl = data_->places;
  const SupplyGraph& g = supply_graph();
  const int sev = pl.sevastopol;
  if (!crimea_on_ || sev < 0 || hex_.control[static_cast<size_t>(sev)] != kGerman) return;
  // Sevastopol, the source, need only be a hex the German may trace into; the path's other
  // hexes are in the CS area too.
  const uint8_t* cs = g.crimea_enter.data();
  const uint8_t* enter = g.enter[kGerman].data();
  const OpenNow<kGerman> open = open_now<kGerman>();
  const auto node_rule = [&](int h) {
    return (h == sev ? enter[h] : cs[h]) && open(h) ? steppe::SupplyEntry::kOpen
                                                    : steppe::SupplyEntry::kBlocked;
  };
  const int source[] = {sev};
  tracer.trace(data_->grid, source, node_rule, MapStep{g.crimea_sides.data()});
  std::vector<int> ids;
  for (size_t i = 0; i < units_.size(); ++i) {
    const UnitSt& s = units_[i];
    if (s.where != kOnMap || (*defs_)[i].side != kGerman) continue;
    const auto h = static_cast<size_t>(s.hex);
    if (!tracer.supplied(s.hex) || cache_.sup[kGerman][h]) continue;
    ids.push_back(static_cast<int>(i));
  }
  std::sort(ids.begin(), ids.end(), [&](int x, int y) {
    const UnitSt& a = units_[static_cast<size_t>(x)];
    const UnitSt& b = units_[static_cast<size_t>(y)];
    const int da = tracer.distance(a.hex), db = tracer.distance(b.hex);
    return da != db ? da < db : a.order < b.order;
  });
  // Ruling BD-22: the units the German declared (and that qualify) first, in his order; the
  // slots he left open go to the nearest others.
  size_t front = 0;
  for (int16_t u : crimea_declared_) {
    const auto it = std::find(ids.begin() + static_cast<std::ptrdiff_t>(front), ids.end(), u);
    if (it == ids.end()) continue;
    std::rotate(ids.begin() + static_cast<std::ptrdiff_t>(front), it, it + 1);
    ++front;
  }
  for (size_t i = 0; i < ids.size() && i < 5; ++i) crimea_units_.push_back(static_cast<int16_t>(ids[i]));
}

bool BdState::overland(int hex, int side) const {
  compute_supply();
  return cache_.sup[side][static_cast<size_t>(hex)] != 0;
}

// 7.2 / 7.8 supply state of one unit on the map.
int BdState::unit_supply(int u) const {
  const UnitSt& s = unit(u);
  if (s.forced_supply != kSupNone) return s.forced_supply;
  if (s.where != kOnMap) return kSupNone;
  const UnitDef& d = def(u);
  if (d.type == kCoastalArmy || d.type == kCavalryGroup) return kSupAlways;  // 10.34, 8.30
  if (overland(s.hex, d.side)) return kSupOverland;
  const HexInfo& h = hx(s.hex);
  if (d.side == kSoviet && hero_city(s.hex)) return kSupGarrison;  // 7.13, 9.4
  if (d.side == kGerman && fortress_city(s.hex) &&
      (h.country == kGreaterGermany || h.country == kGeneralGovernment || h.country == kHungary))
    return kSupGarrison;                  // 7.6, 9.5 (elsewhere an FC has normal supply)
  if (d.side == kGerman && crimea_on_) {  // 7.4
    compute_supply();
    if (std::find(crimea_units_.begin(), crimea_units_.end(), u) != crimea_units_.end()) return kSupCrimea;
  }
  if (d.side == kGerman && markers_.aerial == s.hex) return kSupAerial;                // 7.7
  if (d.side == kGerman && h.coastal && coastal_supply_ok(s.hex)) return kSupCoastal;  // 7.5
  return kSupOos;
}

// 7.5: a German coastal hex on the Sea of Azov only gives coastal supply while the German
// side controls both sides of the Kerch Straits (3105/3106). 7.4: not in a game turn in which
// Crimea supply was switched on, except on the Baltic (the coast north of the logistical
// boundary).
bool BdState::coastal_supply_ok(int hex) const {
  const Places& pl = data_->places;
  if (crimea_turn_ && hx(hex).zone != kZoneNorth) return false;
  if (std::find(pl.azov_coast.begin(), pl.azov_coast.end(), hex) == pl.azov_coast.end()) return true;
  for (int k : pl.kerch)
    if (k < 0 || hex_.control[static_cast<size_t>(k)] != kGerman) return false;
  return true;
}

int BdState::supply_of(int u) const { return unit_supply(u); }

// 4.15: +1 for Kiev, +2 for Leningrad (victory.json) held by the German.
int BdState::moscow_surrender_modifier() const {
  int mod = 0;
  for (size_t i = 0; i < data_->moscow_mods_hex.size() && i < data_->moscow_mods_value.size(); ++i)
    if (hex_.control[static_cast<size_t>(data_->moscow_mods_hex[i])] == kGerman)
      mod += data_->moscow_mods_value[i];
  return mod;
}

// 7.10-7.11: offensive supply = overland supply and a marker within range (GT7+).
int BdState::offensive_ok(int u) const {
  if (turn_ < 7) return 1;
  if (sparam("offensive_supply_always") > 0) return 1;  // 15.8
  if (sparam("first_turn_south_attacks_only") > 0 && turn_ == first_turn_)
    return 1;  // 12.8 (only southern units attack: check_attack)
  const int sup = unit_supply(u);
  if (sup != kSupOverland && sup != kSupAlways) return 0;
  if (sup == kSupAlways) return 1;  // 8.30 cavalry never need offensive supply
  for (int m = 0; m < 3; ++m) {
    const int h = markers_.osupply[static_cast<size_t>(m)];
    if (h >= 0 && hex_distance(unit(u).hex, h) <= kOffensiveSupplyRange[static_cast<size_t>(m)]) return 1;
  }
  return 0;
}

}  // namespace bd
