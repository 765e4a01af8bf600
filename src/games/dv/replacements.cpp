// 7.4 Axis replacements (steps by kind from the turn record track), 7.6 Soviet replacements
// (RF income: factory cities, Lend-Lease, off-map factories; RF cost: the defence factor, or
// per unit for the types of 7.6's table, with its one-per-turn limit). A reduced unit on the
// map is flipped where it stands; an eliminated replaceable unit comes back as a
// reinforcement (7.2, 7.3). Every unit must be able to be in supply now. Unused
// replacements are lost (7.1). Not yet: 7.4's special turns (11, 22, 23), the half RF of a
// retaken factory city, Leningrad's lake RF, 7.5 and the Soviet conversions (7.8).
#include <algorithm>

#include "games/dv/dv.h"

namespace dv {

namespace {

bool has_type(const std::vector<std::string>& types, const std::string& t) {
  return std::find(types.begin(), types.end(), t) != types.end();
}

}  // namespace

// 7.7 "During the Replacement Phase of the indicated Turn ... Multi-step conversion units are
// Replaced by a new counter at full strength. Units being converted may be either on the map or
// in the Axis Eliminated Units Box. If on map, the unit must be In Supply ... the old version is
// permanently removed from the game and Replaced (wherever it was) by the new. [Exception: If
// Replaced on map, the removed version must be In Supply; if not currently In Supply, make the
// conversion the next Axis Replacement Segment it is In Supply.] All conversions that are
// possible are mandatory." (Every Axis conversion of counters.json is a counter for a counter.)
void DvState::axis_conversions() {
  std::vector<uint8_t> los, loc;
  for (int n = 0; n < static_cast<int>(g_.units().size()); ++n) {
    const UnitDef& d = g_.unit(n);
    if (d.converts < 0 || us(n).box != Box::kPending || d.entry_turn > turn_) continue;
    UnitState& old = us(d.converts);
    const std::string& was = g_.unit(d.converts).label;
    if (old.box == Box::kMap) {
      if (los.empty()) trace_supply(kAxis, los, loc);
      if (los[static_cast<size_t>(old.hex)] == 0) {
        log("convert", was + " is not in supply: its conversion to " + d.label + " waits", "7.7");
        continue;
      }
      UnitState& s = us(n);
      s = UnitState{};
      s.box = Box::kMap;
      s.hex = old.hex;
      s.steps = static_cast<uint8_t>(d.steps);
      s.act = old.act;
      log("convert", was + " becomes " + d.label + " in " + g_.grid().id(old.hex), "7.7");
    } else if (old.box == Box::kEliminated) {
      us(n) = UnitState{};
      us(n).box = Box::kEliminated;
      log("convert", was + " becomes " + d.label + " in the Eliminated box", "7.7");
    } else {
      continue;  // not in play: the new counter enters as a reinforcement (7.9)
    }
    old = UnitState{};
    old.box = Box::kRemoved;
  }
}

void DvState::begin_replacements(int side) {
  const TurnDef& td = g_.turn(turn_);
  if (side == kAxis) {
    axis_conversions();
    axis_pool_.assign(g_.axis_kinds().size(), 0);
    int total = 0;
    for (const auto& [kind, n] : td.axis_replacements)
      for (size_t k = 0; k < g_.axis_kinds().size(); ++k)
        if (g_.axis_kinds()[k].first == kind) axis_pool_[k] += n, total += n;
    if (total > 0) log("replace", "Axis replacements: " + std::to_string(total) + " steps", "7.4");
    return;
  }
  // 7.6 income.
  rebuilt_.assign(g_.limited_types().size(), 0);
  std::vector<uint8_t> los, loc;
  trace_supply(kSoviet, los, loc);
  int factories = 0;
  for (int h = 0; h < g_.grid().size(); ++h)
    if (g_.hex(h).factory && control(h) == kSoviet && loc[static_cast<size_t>(h)] != 0) ++factories;
  rf_ = factories * td.rf_factory_each + td.rf_off_map;
  std::string why = std::to_string(factories) + " factory cities x " + std::to_string(td.rf_factory_each) +
                    " + off-map " + std::to_string(td.rf_off_map);
  if (!td.lend_lease.empty()) {
    int ll = roll(6, "Lend-Lease", "7.6");
    if (td.lend_lease.find("+3") != std::string::npos) ll += 3;
    const int vologda = g_.place("vologda"), stalingrad = g_.place("stalingrad");
    if (vologda >= 0 && loc[static_cast<size_t>(vologda)] == 0) ll -= 3;
    if (stalingrad >= 0 && control(stalingrad) == kAxis) ll -= 3;
    ll = std::max(ll, 0);  // DV-R4
    rf_ += ll;
    why += " + Lend-Lease " + std::to_string(ll);
  }
  // 7.10 "Turn 8: Remove the Soviet Crimea, Leningrad, and Moscow Militia Corps from the game
  // during the Soviet part of the Reinforcement/Replacement Phase. The Soviet player receives 1
  // RF for each such Supplied Corps removed from the map."
  int militia = 0;
  for (int u = 0; u < static_cast<int>(g_.units().size()); ++u) {
    const UnitDef& d = g_.unit(u);
    UnitState& s = us(u);
    if (!soviet_part_withdrawal(d) || d.exit_turn > turn_ ||
        (s.box != Box::kMap && s.box != Box::kEliminated))
      continue;
    const bool supplied = s.box == Box::kMap && los[static_cast<size_t>(s.hex)] != 0;
    militia += supplied ? 1 : 0;
    log("withdraw", d.label + " is withdrawn" + (supplied ? ", 1 RF" : ""), "7.10");
    s = UnitState{};
    s.box = Box::kRemoved;
  }
  if (militia > 0) {
    rf_ += militia;
    why += " + withdrawn militia " + std::to_string(militia);
  }
  if (rf_ > 0) log("replace", "Soviet RF: " + std::to_string(rf_) + " (" + why + ")", "7.6, 7.10");
}

// 7.4/7.6 "Units may only receive Replacement steps if they would be In Supply if a Supply
// check were performed at that instant."
bool DvState::in_supply_now(int u, int h) const {
  std::vector<uint8_t> los, loc;
  trace_supply(g_.unit(u).side, los, loc);
  return los[static_cast<size_t>(h)] != 0;
}

namespace {

// The Axis kind (index) that may give `type` a step now, or -1.
int axis_kind_for(const DvGame& g, const std::vector<int>& pool, const std::string& type) {
  for (size_t k = 0; k < pool.size(); ++k)
    if (pool[k] > 0 && has_type(g.axis_kinds()[k].second, type)) return static_cast<int>(k);
  return -1;
}

}  // namespace

int DvState::flip_cost(int u, const std::vector<uint8_t>* los) const {
  const UnitDef& d = g_.unit(u);
  const UnitState& s = us(u);
  if (stage_ != Stage::kReplace || d.side != active_ || s.box != Box::kMap || d.steps != 2 || s.steps != 1)
    return -1;
  if (!d.replaceable) return -1;
  if (d.side == kAxis) {
    if (d.nation != "german" || axis_kind_for(g_, axis_pool_, d.type) < 0) return -1;
  } else {
    // 7.6: not to full strength next to an Axis unit unless in or next to a Soviet factory city.
    bool near_axis = false, near_factory = g_.hex(s.hex).factory && control(s.hex) == kSoviet;
    for (int n : g_.grid().neighbours(s.hex)) {
      if (n < 0) continue;
      near_axis |= occupant_side(n) == kAxis;
      near_factory |= g_.hex(n).factory && control(n) == kSoviet;
    }
    if (near_axis && !near_factory) return -1;
  }
  if (los != nullptr ? (*los)[static_cast<size_t>(s.hex)] == 0 : !in_supply_now(u, s.hex)) return -1;
  if (d.side == kAxis) return 1;
  const int cost =
      d.type == "guards-tank-army" ? g_.reduced_gta_cost() : d.defense[0] - d.defense[1];  // DV-R9
  return cost <= rf_ ? cost : -1;
}

int DvState::rebuild_cost(int u, bool full) const {
  const UnitDef& d = g_.unit(u);
  const UnitState& s = us(u);
  if (stage_ != Stage::kReplace || d.side != active_ || s.box != Box::kEliminated || !d.replaceable ||
      !d.ground)
    return -1;
  if (d.hq || (!full && d.steps == 1)) return -1;  // a one-step unit returns at its one strength ("full")
  if (d.side == kAxis) {
    // 7.4: one step: an eliminated two-step unit returns reduced.
    if (full && d.steps == 2) return -1;
    if (d.nation != "german" || axis_kind_for(g_, axis_pool_, d.type) < 0) return -1;
    return 1;
  }
  int cost = g_.unit_rf_cost(d.type);
  if (cost < 0) {
    cost = d.defense[full || d.steps == 1 ? 0 : 1];  // 7.6 one RF per defence factor
  } else {
    if (d.type == "guards-tank-army" && !full) cost = g_.reduced_gta_cost();
    // 7.6: a second unit of a limited type only after one of every eliminated limited type.
    const auto& lim = g_.limited_types();
    const auto it = std::find(lim.begin(), lim.end(), d.type);
    if (it != lim.end() && rebuilt_[static_cast<size_t>(it - lim.begin())] > 0) {
      for (size_t k = 0; k < lim.size(); ++k) {
        if (rebuilt_[k] > 0) continue;
        for (int v = 0; v < static_cast<int>(g_.units().size()); ++v)
          if (us(v).box == Box::kEliminated && g_.unit(v).replaceable && g_.unit(v).type == lim[k] &&
              g_.unit(v).side == kSoviet)
            return -1;
      }
    }
  }
  return cost <= rf_ ? cost : -1;
}

void DvState::rebuild_hexes(int u, std::vector<int>& out, const std::vector<uint8_t>* los,
                            const std::vector<uint8_t>* loc) const {
  std::vector<uint8_t> own_los, own_loc;
  if (los == nullptr || loc == nullptr) {
    trace_supply(g_.unit(u).side, own_los, own_loc);
    los = &own_los;
    loc = &own_loc;
  }
  entry_hexes(u, out, loc);
  out.erase(
      std::remove_if(out.begin(), out.end(), [&](int h) { return (*los)[static_cast<size_t>(h)] == 0; }),
      out.end());
}

void DvState::do_flip(int u) {
  const UnitDef& d = g_.unit(u);
  if (d.side == kAxis) {
    --axis_pool_[static_cast<size_t>(axis_kind_for(g_, axis_pool_, d.type))];
  } else {
    rf_ -= flip_cost(u);
  }
  us(u).steps = 2;
  log("replace", d.label + " is brought back to full strength", d.side == kAxis ? "7.4" : "7.6");
}

void DvState::do_rebuild(int u, int h, bool full) {
  const UnitDef& d = g_.unit(u);
  if (d.side == kAxis) {
    --axis_pool_[static_cast<size_t>(axis_kind_for(g_, axis_pool_, d.type))];
  } else {
    rf_ -= rebuild_cost(u, full);
    const auto& lim = g_.limited_types();
    const auto it = std::find(lim.begin(), lim.end(), d.type);
    if (it != lim.end()) ++rebuilt_[static_cast<size_t>(it - lim.begin())];
  }
  UnitState& s = us(u);
  s.box = Box::kMap;
  s.hex = h;
  s.steps = static_cast<uint8_t>(full || d.steps == 1 ? d.steps : 1);
  s.supply = 0;
  set_control(h, d.side);
  log("replace",
      d.label + " returns at " + g_.grid().id(h) + (s.steps == 1 && d.steps == 2 ? " reduced" : ""),
      d.side == kAxis ? "7.4" : "7.6");
}

}  // namespace dv
