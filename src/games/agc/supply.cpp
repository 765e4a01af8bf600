// 6.0 General Supply: Supply Routes (6.1) made of an LOC (6.2), a Road Net (6.3) and a
// Railroad Net (6.4) back to a Supply Source (6.5); the Supply Determination Phase and its
// Emergency / Out of Supply markers (6.6). The out-of-supply effects (6.7) are applied where
// the rule they change lives: 6.7.1 in ma_this_phase (movement.cpp), 6.7.2 in can_infiltrate
// (movement.cpp), 6.7.5 in combat_drm (combat.cpp). Interdiction never blocks a Supply Route
// (13.2.7).
//
// One whole-map answer per side, built outward from the sources with the kernel's
// SupplyTracer: the Railroad Net (unlimited, along railroad hexsides), then the Road Net (21
// hexes, 15 in Mud or Snow, along motorway and main-road hexsides, from a source or a
// Railroad Net hex), then the LOC (7 hexes, 5 where 6.2.2 reduces it) from any net hex. A unit
// is supplied where its hex is a net hex or one LOC step from a hex the LOC reaches: the hex
// the unit occupies is not counted and not traced through (6.2.2, ruling A-38).
#include <algorithm>
#include <span>
#include <vector>

#include "games/agc/agc.h"

namespace agc {

namespace {

// Scratch buffers, per thread (searches run clones in parallel): no allocation per trace
// after the first.
struct SupplyScratch {
  steppe::SupplyTracer tracer;
  std::vector<uint8_t> own, enemy, route_ok, net, loc_long, loc_short;
  std::vector<int> sources, net_hexes;
};
thread_local SupplyScratch scratch;

// Per hex, the directions a path may take from it along one kind of line (for
// SupplyTracer's sides(): closed sides are skipped unread).
struct AlongSides {
  const steppe::HexSideBits* a = nullptr;
  const steppe::HexSideBits* b = nullptr;
  unsigned sides(int h) const { return static_cast<unsigned>(a->at(h) | (b != nullptr ? b->at(h) : 0)); }
  bool operator()(int, int, int) const { return true; }
};

}  // namespace

void AgcState::supply_map(int side, std::vector<uint8_t>& out) const {
  using steppe::SupplyEntry;
  const AgcGame& g = *g_;
  const int n = g.grid_.size();
  const int w = weather();
  SupplyScratch& sc = scratch;
  sc.own.assign(static_cast<size_t>(n), 0);
  sc.enemy.assign(static_cast<size_t>(n), 0);
  sc.route_ok.assign(static_cast<size_t>(n), 1);
  sc.net.assign(static_cast<size_t>(n), 0);
  // 6.1.2 a: "cannot be traced through any hex occupied by an enemy ground combat unit".
  for (size_t u = 0; u < us_.size(); ++u) {
    const int h = us_[u].hex;
    if (h < 0 || !g.units_[u].combat) continue;
    if (g.units_[u].side == side)
      sc.own[h] = 1;
    else
      sc.enemy[h] = 1;
  }
  // 6.1.2 b: "... through a hex in an enemy ZOC unless that hex is also occupied by a friendly
  // ground combat unit".
  const auto& enemy_zoc = zoc_[1 - side];
  for (int h = 0; h < n; ++h)
    if (sc.enemy[h] != 0 || (enemy_zoc[h] != 0 && sc.own[h] == 0)) sc.route_ok[h] = 0;
  // 18.1.1: "Any friendly non-destroyed Strongpoint blocks tracing an enemy Supply Route through the
  // hex it occupies."
  for (int h = 0; h < n; ++h)
    if (strongpoint(h, 1 - side)) sc.route_ok[h] = 0;

  // 6.5.1, 6.5.2: the scenario's map-edge sources, friendly (Soviet) and not enemy-occupied;
  // 6.5.1: every friendly Soviet major city, "even when surrounded".
  sc.sources.clear();
  for (int h : g.supply_edge_[side])
    if (h >= 0 && sc.route_ok[h] != 0 && (side == kAxis || control_[h] == side)) sc.sources.push_back(h);
  if (side == kSoviet)
    for (int h = 0; h < n; ++h)
      if (g.settlement_[h] == 3 && control_[h] == kSoviet && sc.enemy[h] == 0 &&
          std::find(sc.sources.begin(), sc.sources.end(), h) == sc.sources.end())
        sc.sources.push_back(h);
  for (int h : sc.sources) sc.net[h] = 1;
  const auto open_or_source = [&](int h) {
    return sc.net[h] != 0 || sc.route_ok[h] != 0 ? SupplyEntry::kOpen : SupplyEntry::kBlocked;
  };

  // 6.4: "any continuous series of connected railroad hexes of unlimited length that leads to a
  // friendly Supply Source". The Axis net only over rail converted to Axis use; no conversion
  // is played yet (19), so that is the rail outside the Soviet Union (ruling A-39).
  sc.tracer.trace(
      g.grid_, std::span<const int>(sc.sources),
      [&](int h) {
        if (side == kAxis && g.control0_[h] != kAxis && sc.net[h] == 0) return SupplyEntry::kBlocked;
        return open_or_source(h);
      },
      AlongSides{&g.rail_, nullptr});
  for (int h : sc.tracer.supplied_nodes()) sc.net[h] |= 2;
  // 6.3: "connected main road or motorway hexes, no more than 21 hexes in length, that lead
  // either to a friendly supply source or to a railroad hex which forms part of a friendly
  // railroad net"; 15 in Mud or Snow (ruling A-2).
  sc.net_hexes.assign(sc.tracer.supplied_nodes().begin(), sc.tracer.supplied_nodes().end());
  sc.tracer.trace(g.grid_, std::span<const int>(sc.net_hexes), open_or_source,
                  AlongSides{&g.road_[0], &g.road_[1]}, g.road_net_hexes_[w]);
  for (int h : sc.tracer.supplied_nodes()) sc.net[h] |= 4;
  sc.net_hexes.assign(sc.tracer.supplied_nodes().begin(), sc.tracer.supplied_nodes().end());

  // 6.2.1 b: swamp is traced through in Dry or Mud only along a road or railroad that enters
  // from, and leaves into, a hex of the LOC.
  const bool swamp_closed = w == kDry || w == kMud;
  const auto line_sides = [&](int h) {
    return static_cast<unsigned>(g.road_[0].at(h) | g.road_[1].at(h) | g.road_[2].at(h) | g.rail_.at(h));
  };
  // 6.2.1 a: no LOC across a non-frozen all-lake hexside, nor a major river without a bridge
  // (bridge units are not in play yet).
  const auto hexside_open = [&](int a, int dir) {
    if (g.all_lake_.test(a, dir) && !g.lake_hexside_open_[w]) return false;
    if (g.major_river_.test(a, dir) && !g.road_bridge_.test(a, dir) && !g.rail_bridge_.test(a, dir))
      return false;
    return true;
  };
  // One LOC step from `from` into `to` (either may be the end nearer the unit).
  const auto loc_step = [&](int from, int to, int dir_from) {
    if (!hexside_open(from, dir_from)) return false;
    const bool along_line = ((line_sides(from) >> dir_from) & 1u) != 0;
    if (swamp_closed && g.terrain_[to] == g.swamp_terrain_ && sc.net[to] == 0 && !along_line) return false;
    if (swamp_closed && g.terrain_[from] == g.swamp_terrain_ && sc.net[from] == 0 && !along_line)
      return false;
    return true;
  };
  // 6.2.2 a-b: the hexes that cut the LOC to five (road or rail through swamp, marsh, in Dry).
  // 6.2.2c (woods under Lingering Mud, 5.1.4) waits for the weather chapter.
  const auto shortens = [&](int h) {
    return w == kDry && (g.terrain_[h] == g.swamp_terrain_ || g.terrain_[h] == g.marsh_terrain_);
  };
  const auto loc_node = [&](int h, bool long_loc) {
    if (sc.net[h] != 0) return SupplyEntry::kOpen;
    if (sc.route_ok[h] == 0 || g.terrain_[h] == g.lake_terrain_) return SupplyEntry::kBlocked;
    if (long_loc && shortens(h)) return SupplyEntry::kBlocked;
    return SupplyEntry::kOpen;
  };
  // In trace() the edge is the direction stored at `u` (the source end) leading to `v`.
  const auto can_pass = [&](int v, int u, int dir) { return loc_step(u, v, dir); };
  const int full = g.loc_hexes_[w];
  const int reduced = std::min(full, g.loc_reduced_hexes_);
  // The LOC reaches these hexes within length-1 hexes; the unit's own hex is the last step.
  sc.loc_long.assign(static_cast<size_t>(n), 0);
  sc.loc_short.assign(static_cast<size_t>(n), 0);
  if (full > reduced) {
    sc.tracer.trace(
        g.grid_, std::span<const int>(sc.net_hexes), [&](int h) { return loc_node(h, true); }, can_pass,
        full - 1);
    for (int h : sc.tracer.supplied_nodes()) sc.loc_long[h] = 1;
  }
  sc.tracer.trace(
      g.grid_, std::span<const int>(sc.net_hexes), [&](int h) { return loc_node(h, false); }, can_pass,
      reduced - 1);
  for (int h : sc.tracer.supplied_nodes()) sc.loc_short[h] = 1;

  out.assign(static_cast<size_t>(n), 0);
  for (int h = 0; h < n; ++h) {
    if (sc.net[h] != 0) {
      out[h] = 1;
      continue;
    }
    if (sc.enemy[h] != 0) continue;  // 6.1.2 a: no friendly unit is here
    uint8_t ok = 0;
    g.grid_.for_each_edge(h, [&](int nb, int dir) {
      if (ok != 0 || (sc.loc_long[nb] == 0 && sc.loc_short[nb] == 0)) return;
      // The step from the unit's hex: its own terrain is not traced through (ruling A-38).
      if (!hexside_open(h, dir)) return;
      const bool along_line = ((line_sides(h) >> dir) & 1u) != 0;
      if (swamp_closed && g.terrain_[nb] == g.swamp_terrain_ && sc.net[nb] == 0 && !along_line) return;
      ok = 1;
    });
    out[h] = ok;
  }
}

// 6.6 Supply State Determination, in the Strategic Segment of every turn (4.2). A unit judged
// so keeps its state for the turn (6.6 Note).
void AgcState::trace_supply() {
  std::vector<uint8_t> map[2];
  for (int side = 0; side < 2; ++side) supply_map(side, map[side]);
  for (size_t u = 0; u < us_.size(); ++u) {
    UnitState& s = us_[u];
    const UnitDef& d = g_->units_[u];
    if (s.hex < 0 || d.supply_counter) continue;  // 6.8.2: supply counters are never out of supply
    if (map[d.side][s.hex] != 0) {
      // 6.6.2: "If the unit carries an Emergency Supply or Out of Supply marker, remove the marker".
      if (s.emergency || s.out_of_supply)
        emit({"supply", d.label + " is back in General Supply", "6.6.2", 0xFFFFFFFFu, false, {}});
      s.emergency = s.out_of_supply = false;
    } else if (s.out_of_supply) {
      // 6.6.4b: the Out of Supply marker remains.
    } else if (s.emergency) {
      s.emergency = false;
      s.out_of_supply = true;  // 6.6.4a: flip the Emergency Supply marker to Out of Supply
      emit({"supply", d.label + " is out of General Supply", "6.6.4", 0xFFFFFFFFu, false, {}});
    } else {
      s.emergency = true;  // 6.6.3: "Place an Emergency Supply marker on the unit"
      emit({"supply", d.label + " is in Emergency Supply", "6.6.3", 0xFFFFFFFFu, false, {}});
    }
  }
}

}  // namespace agc
