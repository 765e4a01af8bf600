// Moscow '41: Supply (9.0-9.2), isolation (9.3) and step losses.
// Every rule cites its rulebook section (seeds/002).
#include "kernel/supply.h"

#include <string>
#include <vector>

#include "games/moscow41/state.h"

namespace moscow41 {

// ----------------------------------------------------------------------------------------
// Supply (9.0-9.2)
bool Moscow41State::loc_passable(int side, int x, const Presence& pr) const {
  // 9.2: a Line of Communication runs through areas the side controls, uncontested.
  if (!is_area(x) || area(x).control != side || pr.contested(x)) return false;
  return !(side == kSoviet && ad(x).terrain == kStaging);  // 2.4.4
}

bool Moscow41State::supply_source(int side, int x) const {
  const AreaDef& a = ad(x);
  if (side == kGerman) return a.src_german;
  // OR 14.3: a Soviet-controlled, uncontested Moscow (loc_passable checks both) is a source.
  if (options_[kOptMoscowSupply] && x == g_.moscow()) return true;
  return a.src_east || (a.src_kiev && !kiev_german_) || (a.src_shl && !shl_german_ && !len_german_) ||
         (a.src_len && !len_german_);
}

void Moscow41State::trace_supply(int side, steppe::SupplyTracer& tracer) const {
  // 9.2 for the whole map at once, traced from the sources (2.1): a LOC may start in a
  // contested area but neither cross nor end in one, so a contested area is a path's end
  // only (kEndOnly), supplied when a supplied area borders it.
  thread_local Presence pr;
  fill_presence(pr);
  thread_local std::vector<int> sources;
  sources.clear();
  for (int x = 0; x < g_.map().area_count(); ++x)
    if (loc_passable(side, x, pr) && supply_source(side, x)) sources.push_back(x);
  tracer.trace(
      g_.land(), sources,
      [&](int x) {
        if (loc_passable(side, x, pr)) return steppe::SupplyEntry::kOpen;
        return is_area(x) && pr.contested(x) ? steppe::SupplyEntry::kEndOnly : steppe::SupplyEntry::kBlocked;
      },
      [](int, int, int) { return true; });
}

bool Moscow41State::in_supply_area(int side, int node) const {
  // 9.2 for one area: the kernel's search from it stops at the first source.
  if (node < 0) return false;
  if (!is_area(node)) return true;  // 2.2, 10.9.1: boxes are always in supply
  thread_local Presence pr;
  fill_presence(pr);
  thread_local steppe::SupplyTracer tracer;
  return tracer.trace_one(
      g_.land(), node, [&](int x) { return loc_passable(side, x, pr) && supply_source(side, x); },
      [&](int x) {
        if (loc_passable(side, x, pr)) return steppe::SupplyEntry::kOpen;
        // A LOC may start in a contested area (9.2): its neighbours are tried.
        return x == node && pr.contested(x) ? steppe::SupplyEntry::kEndOnly : steppe::SupplyEntry::kBlocked;
      },
      [](int, int, int) { return true; });
}

void Moscow41State::supply_check(int side) {
  // 9.1: at the start of each own impulse, units without a LOC are Isolated (one trace
  // answers for every block: marking blocks changes no LOC).
  thread_local steppe::SupplyTracer tracer;
  trace_supply(side, tracer);
  for (size_t b = 0; b < blocks_.size(); ++b) {
    const int loc = blocks_[b].loc;
    if (g_.blocks()[b].side != side || loc < 0) continue;
    const bool iso = is_area(loc) && !tracer.supplied(loc);
    blocks_[b].isolated = iso;
    if (iso)
      log_hidden(side, "supply", g_.blocks()[b].id + " is isolated",
                 std::string("a ") + side_name(side) + " block in " + g_.map().id(loc) + " is isolated",
                 "9.1");
  }
}

void Moscow41State::isolation_check(int side) {
  // 9.3: isolated units still cut off lose a step; at minimum they surrender. A DL is
  // destroyed only if alone (no friendly block) in a contested area: judged before the
  // blocks' attrition (9.3 example, Area 30: the infantry surrenders, the DL stays).
  std::vector<int> doomed_dls;
  for (int n = 0; n < g_.map().area_count(); ++n)
    if (area(n).dl == side && contested(n) && blocks_in(side, n) == 0 && !in_supply_area(side, n))
      doomed_dls.push_back(n);
  for (size_t i = 0; i < blocks_.size(); ++i) {
    const int b = static_cast<int>(i);
    if (def(b).side != side || !block(b).isolated || block(b).loc < 0) continue;
    if (in_supply_area(side, block(b).loc)) {
      bs(b).isolated = false;
      continue;
    }
    // 9.3 reduces "Blocks", and Leaders are Blocks (4.0): Stalin in a cut-off Moscow loses
    // a step each impulse and surrenders at the Heart (Hitler, in his always-supplied box,
    // "cannot be eliminated", 4.2.4).
    log_hidden(side, "attrition", def(b).id + " suffers isolation attrition",
               std::string("a ") + side_name(side) + " block in " + g_.map().id(block(b).loc) +
                   " suffers isolation attrition",
               "9.3");
    reduce(b, true);
  }
  for (int n : doomed_dls) {
    as(n).dl = kNoSide;
    log("attrition", std::string("isolated ") + side_name(side) + " DL in " + g_.map().id(n) + " destroyed",
        "9.3");
    settle_control(n);  // 2.5
  }
}

void Moscow41State::reduce(int b, bool surrender) {
  // 4.2.3.1: one step per hit; a hit at minimum destroys (10.14.3) or surrenders (9.3).
  BlockState& s = bs(b);
  const BlockDef& d = def(b);
  if (s.level < d.min_level()) {
    ++s.level;
    return;
  }
  if (d.id == "Hitler") return;  // 4.2.4: Hitler cannot be eliminated
  const int was = s.loc;
  s.revealed = s.activated = s.isolated = s.face_up = false;
  if (d.side == kGerman) {
    // Hoepner destroyed (10.17): nobody advances on the Road any more (docs/rulings.md).
    if (d.id == "HQ4Pg" && s.loc >= 0 && !is_area(s.loc)) hoepner_road_ = -1;
    s.loc = kLocDestroyed;
    ++destroyed_german_;
    log("eliminate", d.id + " is destroyed for good", surrender ? "9.3" : "10.14.3");
  } else if (surrender) {
    s.loc = kLocSurrendered;
    ++surrendered_soviet_;
    log("eliminate", d.id + " surrenders", "9.3");
    if (d.kind == Kind::kLeader && !stalin_dead_) {  // 4.2.4 (docs/rulings.md, "Stalin")
      stalin_dead_ = true;
      log("leader", "Stalin has surrendered: no more Soviet Logistics Phases", "4.2.4, 9.3");
    }
  } else {
    s.loc = kLocPool;
    s.level = 0;
    log("eliminate", d.id + " is destroyed and returns to the pool", "10.14.3");
  }
  settle_control(was);  // 2.5: its side's last unit there may be gone
}

}  // namespace moscow41
