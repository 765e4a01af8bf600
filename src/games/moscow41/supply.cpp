// Moscow '41: Supply (9.0-9.2), isolation (9.3) and step losses.
// Every rule cites its rulebook section (seeds/002).
#include "games/moscow41/state.h"

namespace moscow41 {

// ----------------------------------------------------------------------------------------
// Supply (9.0-9.2)
bool Moscow41State::in_supply_area(int side, int node) const {
  if (node < 0) return false;
  if (!is_area(node)) return true;  // 2.2, 10.9.1: boxes are always in supply
  const int n = node_count();
  auto passable = [&](int x) {
    if (!is_area(x) || area(x).control != side || contested(x)) return false;
    if (side == kSoviet && ad(x).terrain == kStaging) return false;  // 2.4.4
    return true;
  };
  auto source = [&](int x) {
    const AreaDef& a = ad(x);
    if (side == kGerman) return a.src_german;
    // OR 14.3: a Soviet-controlled, uncontested Moscow (passable() checked both) is a source.
    if (options_[kOptMoscowSupply] && x == g_.moscow()) return true;
    return a.src_east || (a.src_kiev && !kiev_german_) || (a.src_shl && !shl_german_ && !len_german_) ||
           (a.src_len && !len_german_);
  };
  std::vector<uint8_t> seen(static_cast<size_t>(n), 0);
  std::vector<int> todo;
  // A LOC may start in a contested area but neither cross nor end in one (9.2).
  if (passable(node)) {
    todo.push_back(node);
    seen[static_cast<size_t>(node)] = 1;
  } else if (contested(node)) {
    for (int y : g_.adjacency()[static_cast<size_t>(node)])
      if (passable(y) && !seen[static_cast<size_t>(y)]) {
        seen[static_cast<size_t>(y)] = 1;
        todo.push_back(y);
      }
  }
  while (!todo.empty()) {
    const int x = todo.back();
    todo.pop_back();
    if (source(x)) return true;
    for (int y : g_.adjacency()[static_cast<size_t>(x)])
      if (!seen[static_cast<size_t>(y)] && passable(y)) {
        seen[static_cast<size_t>(y)] = 1;
        todo.push_back(y);
      }
  }
  return false;
}

void Moscow41State::supply_check(int side) {
  // 9.1: at the start of each own impulse, units without a LOC are Isolated.
  for (size_t b = 0; b < blocks_.size(); ++b) {
    if (g_.blocks()[b].side != side || blocks_[b].loc < 0) continue;
    const bool iso = !in_supply_area(side, blocks_[b].loc);
    blocks_[b].isolated = iso;
    if (iso)
      log_hidden(
          side, "supply", g_.blocks()[b].id + " is isolated",
          std::string("a ") + side_name(side) + " block in " + g_.map().id(blocks_[b].loc) + " is isolated",
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
