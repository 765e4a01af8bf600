// 13.0 logistics: LOC (any length) and LOS (5 Soviet, 7 Axis, 3 from a Panzer Army HQ) on the
// kernel SupplyTracer over the kernel HexGrid; the Logistics round (10.5.11) and the
// Attrition Segment (13.8). Not yet: supply depots and their advance (13.6: with no depot on
// the map every Axis-held city with a rail LOS serves as one, 13.5), ports (13.4, 13.5, 13.7).
#include <algorithm>

#include "games/dv/dv.h"

namespace dv {

namespace {

steppe::SupplyTracer& tracer() {
  thread_local steppe::SupplyTracer t;
  return t;
}

constexpr int kSovietLos = 5;  // 13.4
constexpr int kAxisLos = 7;    // 13.5
constexpr int kPanzerLos = 3;  // 13.5

}  // namespace

void DvState::trace_supply(int side, std::vector<uint8_t>& los, std::vector<uint8_t>& loc, int to) const {
  const steppe::HexGrid& gr = g_.grid();
  const size_t n = static_cast<size_t>(gr.size());
  const int enemy = 1 - side;
  std::vector<uint8_t> ezoc;
  compute_zoc(enemy, ezoc);
  std::vector<int8_t> occ(n, kNeutral);
  for (size_t i = 0; i < units_.size(); ++i)
    if (units_[i].box == Box::kMap && g_.units()[i].ground)
      occ[static_cast<size_t>(units_[i].hex)] = static_cast<int8_t>(g_.units()[i].side);
  // 6.3 (LOC), 6.4 (LOS: "a path of hexes of variable length, free of Enemy units or ZOC, from a
  // Friendly occupied hex to a Friendly Supply Source hex. Friendly units negate Enemy ZOC"), 13.2:
  // not through enemy units, enemy ZOC (unless a friendly unit negates it), enemy-held
  // towns and cities, lake or sea; 15.3 no Soviet LOC through Hungary in 1941; 13.2 Turns 1-3
  // no Soviet LOC outside the USSR unless Soviet units occupy the hex.
  const auto node_rule = [&](int h) {
    const HexInfo& hi = g_.hex(h);
    const size_t k = static_cast<size_t>(h);
    if (hi.terrain == kSea || hi.terrain == kLake) return steppe::SupplyEntry::kBlocked;
    if (occ[k] == enemy) return steppe::SupplyEntry::kBlocked;
    if (hi.city && control_[k] == enemy) return steppe::SupplyEntry::kBlocked;
    if (side == kSoviet && year() == 1941 && hi.hungary) return steppe::SupplyEntry::kBlocked;
    if (side == kSoviet && turn_ <= 3 && hi.start_control != kSoviet && occ[k] != kSoviet)
      return steppe::SupplyEntry::kBlocked;
    if (ezoc[k] != 0 && occ[k] != side) return steppe::SupplyEntry::kEndOnly;
    return steppe::SupplyEntry::kOpen;
  };
  // 13.2: not across lake or sea hexsides, except Leningrad's Ladoga crossing (Soviet).
  const auto any_side = [&](int, int u, int edge) {
    return !g_.water().test(u, edge) || (side == kSoviet && g_.ladoga().test(u, edge));
  };
  // 13.3: "A LOS ... may not cross lake/sea hexsides": the Ladoga crossing is the LOC's alone
  // (13.2 "In addition to the above, Soviet units: in Leningrad (hex 4702) may trace a LOC").
  // A railway is followed as map.json draws it (ruling DV-E12).
  const auto los_side = [&](int, int u, int edge) { return !g_.water().test(u, edge); };
  const auto rail_side = [&](int, int u, int edge) { return g_.rail_side().test(u, edge); };
  // 13.4 Soviet sources: the east edge (rail) and the Military Road edge hexes; the
  // reconstructed railways stop one hex short of the edge, so a rail hex next to an east-edge
  // hex leads off it (DV-E5). 13.5 Axis: the west edge in Germany and the USIR.
  std::vector<int> sources;
  for (int h = 0; h < gr.size(); ++h) {
    const HexInfo& hi = g_.hex(h);
    bool src = side == kSoviet ? hi.east_edge || hi.military_road : hi.west_edge || hi.usir;
    if (side == kSoviet && hi.rail && !src)
      for (int nb : gr.neighbours(h)) src |= nb >= 0 && g_.hex(nb).east_edge;
    if (src) sources.push_back(h);
  }
  if (to >= 0) {
    // 7.2: a LOC traced to one hex, by the same rules (13.2).
    loc.assign(n, 0);
    los.assign(n, 0);
    if (node_rule(to) != steppe::SupplyEntry::kOpen) return;
    const std::vector<int> target{to};
    tracer().trace(gr, target, node_rule, any_side);
    for (int h : tracer().supplied_nodes()) loc[static_cast<size_t>(h)] = 1;
    return;
  }
  steppe::SupplyTracer& t = tracer();
  loc.assign(n, 0);
  t.trace(gr, sources, node_rule, any_side);
  for (int h : t.supplied_nodes()) loc[static_cast<size_t>(h)] = 1;
  // 13.2: "Soviet units ... in The Oranienbaum may trace a LOC across the hexside between 4603
  // and 4702 (through Leningrad) and then across the hexside between hexes 1002 and 1102": the
  // Oranienbaum hex (only: the water side is no way for the hexes beyond it) has a LOC when
  // Leningrad has one a path may pass through.
  if (side == kSoviet) {
    const int oran = g_.place("oranienbaum"), lenin = g_.place("leningrad");
    if (oran >= 0 && lenin >= 0 && loc[static_cast<size_t>(lenin)] != 0 &&
        loc[static_cast<size_t>(oran)] == 0 && node_rule(lenin) == steppe::SupplyEntry::kOpen &&
        node_rule(oran) != steppe::SupplyEntry::kBlocked)
      loc[static_cast<size_t>(oran)] = 1;
  }
  // The rail net that leads to the sources (13.4 "any road or rail hex leading to them";
  // 13.5 rail west of the 1941 line, and a city with a rail LOS as a depot).
  t.trace(gr, sources, node_rule, rail_side);
  std::vector<int> rail;
  for (int h : t.supplied_nodes()) {
    const HexInfo& hi = g_.hex(h);
    if (side == kSoviet || hi.start_control != kSoviet ||
        (hi.city && control_[static_cast<size_t>(h)] == kAxis) || hi.west_edge || hi.usir)
      rail.push_back(h);
  }
  los.assign(n, 0);
  t.trace(gr, rail, node_rule, los_side, side == kSoviet ? kSovietLos : kAxisLos);
  for (int h : t.supplied_nodes()) los[static_cast<size_t>(h)] = 1;
  if (side == kAxis) {
    // 13.5: within 3 hexes of an in-supply Panzer Army HQ (never through another HQ).
    std::vector<int> hqs;
    for (int c = kChitPanzer1; c <= kChitPanzer4; ++c) {
      const int hq = g_.hq_of_panzer_chit(c);
      if (hq >= 0 && us(hq).box == Box::kMap && los[static_cast<size_t>(us(hq).hex)] != 0)
        hqs.push_back(us(hq).hex);
    }
    if (!hqs.empty()) {
      t.trace(gr, hqs, node_rule, los_side, kPanzerLos);
      for (int h : t.supplied_nodes()) los[static_cast<size_t>(h)] = 1;
    }
  }
  for (size_t h = 0; h < n; ++h)
    if (loc[h] == 0) los[h] = 0;  // IS also counts as OOS (13.1)
}

// 10.5.11: remove OOS where supplied, mark OOS by LOS and IS by LOC; 13.8 an empty
// Fortified Zone that is OOS or IS is removed.
void DvState::logistics_round() {
  std::array<std::vector<uint8_t>, 2> los, loc;
  for (int side = 0; side < 2; ++side)
    trace_supply(side, los[static_cast<size_t>(side)], loc[static_cast<size_t>(side)]);
  int oos = 0, is = 0;
  for (size_t i = 0; i < units_.size(); ++i) {
    UnitState& s = units_[i];
    const UnitDef& d = g_.units()[i];
    if (s.box != Box::kMap || !d.ground) continue;
    const size_t h = static_cast<size_t>(s.hex);
    const size_t side = static_cast<size_t>(d.side);
    if (loc[side][h] == 0) {
      if (s.supply != 2) ++is;
      s.supply = 2;
    } else if (los[side][h] == 0) {
      if (s.supply == 0) ++oos, s.supply = 1;
    } else if (s.supply == 1) {
      s.supply = 0;
    }
  }
  for (int h = 0; h < g_.grid().size(); ++h)
    if (g_.hex(h).fz && fz_gone_[static_cast<size_t>(h)] == 0 && los[kSoviet][static_cast<size_t>(h)] == 0 &&
        occupant_side(h) != kSoviet) {
      fz_gone_[static_cast<size_t>(h)] = 1;
      log("supply", "the empty Fortified Zone in " + g_.grid().id(h) + " is out of supply and removed",
          "13.8");
    }
  log("supply", "Logistics: " + std::to_string(oos) + " units newly OOS, " + std::to_string(is) + " newly IS",
      "10.5.11");
  air_logistics();  // 8.1 air bases out of supply relocate; 8.6.1 Air Supply markers end
}

// 13.8: each IS unit still IS and adjacent to an in-supply enemy unit is eliminated; one
// that now traces a LOC becomes OOS (never straight to In Supply); 12.7.2 an unoccupied
// Fortified Zone without a LOC is removed.
void DvState::attrition() {
  std::array<std::vector<uint8_t>, 2> los, loc;
  for (int side = 0; side < 2; ++side)
    trace_supply(side, los[static_cast<size_t>(side)], loc[static_cast<size_t>(side)]);
  const steppe::HexGrid& gr = g_.grid();
  std::vector<int> emptied;
  for (size_t i = 0; i < units_.size(); ++i) {
    UnitState& s = units_[i];
    const UnitDef& d = g_.units()[i];
    if (s.box != Box::kMap || !d.ground || s.supply != 2) continue;
    if (loc[static_cast<size_t>(d.side)][static_cast<size_t>(s.hex)] != 0) {
      s.supply = 1;
      continue;
    }
    bool threatened = false;
    for (int nb : gr.neighbours(s.hex))
      for (size_t j = 0; nb >= 0 && j < units_.size() && !threatened; ++j)
        threatened = units_[j].box == Box::kMap && units_[j].hex == nb && g_.units()[j].side != d.side &&
                     g_.units()[j].ground && units_[j].supply == 0;
    if (!threatened) continue;
    // 17.1.2 (cited in 8.6.1: "Isolated German Mech units are treated as OOS for Attrition purposes
    // on Turns 2-4 under rule 17.1.2"): in a game begun with Barbarossa they survive this check
    // and stay Isolated (ruling DV-B2).
    if (d.nation == "german" && d.mech && first_turn_ == 1 && turn_ >= g_.barbarossa_mech_oos().first &&
        turn_ <= g_.barbarossa_mech_oos().second) {
      log("attrition", d.label + " is isolated, treated as OOS for attrition on this Barbarossa turn",
          "17.1.2, 13.8");
      continue;
    }
    log("attrition", d.label + " is isolated next to an in-supply enemy and eliminated", "13.8");
    emptied.push_back(s.hex);
    s.box = Box::kEliminated;
    s.hex = -1;
    s.steps = 0;
    s.supply = 0;
    if (d.hq) s.return_turn = static_cast<int16_t>(turn_ + (d.type == "panzer-hq" ? 2 : 1));
  }
  // 2.4: a hex emptied by isolation changes hands at once.
  for (int h : emptied)
    if (occupant_side(h) == kNeutral && control(h) != kNeutral) set_control(h, 1 - control(h));
  for (int h = 0; h < gr.size(); ++h)
    if (g_.hex(h).fz && fz_gone_[static_cast<size_t>(h)] == 0 && loc[kSoviet][static_cast<size_t>(h)] == 0 &&
        occupant_side(h) != kSoviet) {
      fz_gone_[static_cast<size_t>(h)] = 1;
      log("attrition", "the unoccupied Fortified Zone in " + gr.id(h) + " has no LOC and is removed",
          "12.7.2");
    }
}

}  // namespace dv
