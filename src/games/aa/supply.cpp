// Surrounded units (3.34): "If multiple zones are surrounded without a supply route back to an
// industrial complex or a reinforcement zone then all zones are considered surrounded and
// cut-off." The route is traced with the kernel's SupplyTracer over the map's graph, through
// zones the side controls, from every source at once.
#include "kernel/supply.h"

#include "games/aa/state.h"

namespace steppe::aa {

std::vector<uint8_t> AaState::cut_off(int side) const {
  // 2.9 "Industrial complex rule applies to Russia only": the Axis trace to their reinforcement
  // zones (German 1 and 2, Italian, Budapest), Russia to its ICs and reinforcement zones.
  std::vector<int> sources;
  for (int z = 0; z < g_->zone_count(); ++z) {
    const Zone& zone = g_->zone(z);
    if (controller(z) == side && (!zone.reinforcement.empty() || (side == kRussia && zone.ic)))
      sources.push_back(z);
  }
  SupplyTracer tracer;
  tracer.trace(
      g_->map().graph(), sources,
      [&](int z) {
        return g_->zone(z).land() && controller(z) == side ? SupplyEntry::kOpen : SupplyEntry::kBlocked;
      },
      [](int, int, int) { return true; });
  std::vector<uint8_t> out(static_cast<size_t>(g_->zone_count()), 0);
  for (int z = 0; z < g_->zone_count(); ++z)
    if (g_->zone(z).land() && controller(z) == side && !tracer.supplied(z)) out[static_cast<size_t>(z)] = 1;
  return out;
}

int AaState::supply_tokens(int zone, int side) const {
  const int supply = g_->base_index("supply");
  int n = 0;
  for (const Unit& u : units_)
    if (u.zone == zone && u.type == supply && side_of(u.nation) == side) ++n;
  return n;
}

// 3.34: "If a unit or units are surrounded but still have supplies they are treated as normal
// except they must use 1 supply per turn during the enemy's Combat Movement phase."
void AaState::surrounded_use_supply(int side) {
  const auto cut = cut_off(side);
  const int supply = g_->base_index("supply");
  for (int z = 0; z < g_->zone_count(); ++z) {
    if (cut[static_cast<size_t>(z)] == 0 || supply_tokens(z, side) == 0) continue;
    for (size_t i = 0; i < units_.size(); ++i)
      if (units_[i].zone == z && units_[i].type == supply && side_of(units_[i].nation) == side) {
        units_.erase(units_.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
    log("supply", g_->zone(z).name + " is surrounded: one supply token is used (3.34)", "3.34");
  }
}

}  // namespace steppe::aa
