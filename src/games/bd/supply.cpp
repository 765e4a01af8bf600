// Barbarossa Deluxe rules: supply (7.x).
// Section numbers are the rulebook's (seeds/000); where the text is silent or ambiguous
// the choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_internal.h"

namespace bd {

// ======================================================================= supply (7.x)

// Overland supply per hex and side: a path of any length, not through enemy units, to a
// friendly edge source (7.3, 7.9), inside one logistical area (7.15), through the DP/R
// bottlenecks for the German (7.4), not through enemy fortifications (7.20).
void BdState::compute_supply() const {
  if (!supply_dirty_) return;
  supply_dirty_ = false;
  compute_occupancy();
  const auto& occ = cache_.occ_side;
  const Places& pl = data_->places;
  const SupplyGraph& g = supply_graph();
  for (int side = 0; side < 2; ++side) {
    auto& sup = cache_.sup[side];
    sup.fill(0);
    const auto& enter = g.enter[static_cast<size_t>(side)];
    const auto& edges = g.edges[static_cast<size_t>(side)];
    const auto& fort = g.enemy_fort[static_cast<size_t>(side)];
    std::array<int16_t, kNumHexes> queue;  // each hex enters once (marked in `sup` first)
    // What the map alone does not decide: enemy units (7.3, 7.9) and enemy-held
    // fortifications (7.20).
    auto open_now = [&](int h) {
      const size_t i = static_cast<size_t>(h);
      if (occ[i] != kNoSide && occ[i] != side) return false;  // 7.3, 7.9
      if (side == kGerman && hex_.control[i] == kSoviet && (fort[i] || h == markers_.fa_hex))
        return false;  // 7.20
      if (side == kSoviet && hex_.control[i] == kGerman &&
          (fort[i] || (!markers_.east_wall.empty() && east_wall(h))))
        return false;  // 7.20 (East Wall counters, 8.5)
      return true;
    };
    auto passable = [&](int h) { return enter[static_cast<size_t>(h)] && open_now(h); };
    const auto& sources = side == kGerman ? pl.german_edge : pl.soviet_edge;
    size_t tail = 0;
    for (int s : sources) {
      if (s < 0 || sup[static_cast<size_t>(s)] || !passable(s)) continue;
      if (side == kGerman && g.tier[static_cast<size_t>(s)] != 0) continue;
      sup[static_cast<size_t>(s)] = 1;
      queue[tail++] = static_cast<int16_t>(s);
    }
    for (size_t qi = 0; qi < tail; ++qi) {
      const int a = queue[qi];
      const unsigned mask = edges[static_cast<size_t>(a)];
      const int ta = side == kGerman ? g.tier[static_cast<size_t>(a)] : 0;
      for (int d = 0; d < 6; ++d) {
        if (!((mask >> d) & 1u)) continue;
        const int b = neighbour(a, d);
        if (sup[static_cast<size_t>(b)] || !open_now(b)) continue;
        const int tb = side == kGerman ? g.tier[static_cast<size_t>(b)] : 0;
        if (tb > ta) {  // 7.4: into DP only through Dnepropetrovsk, into R only through Rostov
          if (tb == 1 && b != pl.dnepropetrovsk) continue;
          if (tb == 2 && (b != pl.rostov || ta != 1)) continue;
          // 7.4 "if Dnepropetrovsk were to be captured by the Soviet player, all units ...
          // would instantly be OOS": a Soviet-held bottleneck blocks even when empty (BD-TR2).
          if (hex_.control[static_cast<size_t>(b)] == kSoviet) continue;
        }
        sup[static_cast<size_t>(b)] = 1;
        queue[tail++] = static_cast<int16_t>(b);
      }
    }
    if (side == kGerman) compute_crimea(passable);
  }
}

// 7.4 Crimea supply: while switched on and the German controls Sevastopol, up to five
// German-side units in the CS area without overland supply that trace a path (CS hexes only,
// across the Kerch but never the Sivash, 7.14) to Sevastopol are fully supplied. The text lets
// the German declare which five when more are there; we take the five nearest Sevastopol
// (then the top of a stack first), a ruling in docs/rulings.md.
template <class Passable>
void BdState::compute_crimea(const Passable& passable) const {
  crimea_units_.clear();
  const Places& pl = data_->places;
  const int sev = pl.sevastopol;
  if (!crimea_on_ || sev < 0 || hex_.control[static_cast<size_t>(sev)] != kGerman || !passable(sev)) return;
  std::array<int16_t, kNumHexes> dist{};
  dist.fill(-1);
  std::vector<int> queue{sev};
  dist[static_cast<size_t>(sev)] = 0;
  for (size_t qi = 0; qi < queue.size(); ++qi) {
    const int a = queue[qi];
    for (int d = 0; d < 6; ++d) {
      const int b = neighbour(a, d);
      if (b < 0 || dist[static_cast<size_t>(b)] >= 0 || hx(b).area != kAreaCS || !passable(b)) continue;
      if (hx(a).zone != hx(b).zone) continue;  // 7.15
      const bool kerch = is_crossing(pl.kerch, a, b);
      const bool sivash = is_crossing(pl.sivash, a, b);
      if (sivash) continue;                                                                 // 7.14
      if (!kerch && ((hx(a).sea_side >> d) & 1u || (hx(a).lake_side >> d) & 1u)) continue;  // 7.14
      dist[static_cast<size_t>(b)] = static_cast<int16_t>(dist[static_cast<size_t>(a)] + 1);
      queue.push_back(b);
    }
  }
  std::vector<std::pair<int, uint32_t>> cand;  // (distance, stacking order) per unit
  std::vector<int> ids;
  for (size_t i = 0; i < units_.size(); ++i) {
    const UnitSt& s = units_[i];
    if (s.where != kOnMap || (*defs_)[i].side != kGerman) continue;
    const auto h = static_cast<size_t>(s.hex);
    if (dist[h] < 0 || cache_.sup[kGerman][h]) continue;
    ids.push_back(static_cast<int>(i));
  }
  std::sort(ids.begin(), ids.end(), [&](int x, int y) {
    const UnitSt& a = units_[static_cast<size_t>(x)];
    const UnitSt& b = units_[static_cast<size_t>(y)];
    const int da = dist[static_cast<size_t>(a.hex)], db = dist[static_cast<size_t>(b.hex)];
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
  if (d.side == kSoviet && hero_city(s.hex)) return kSupGarrison;  // 7.13
  if (d.side == kGerman && fortress_city(s.hex) &&
      (h.country == kGreaterGermany || h.country == kGeneralGovernment || h.country == kHungary))
    return kSupGarrison;                  // 7.6
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
  if (scenario_id_ == "what-if-1942") return 1;  // 15.8
  if (scenario_id_ == "road-back" && turn_ == 13)
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
