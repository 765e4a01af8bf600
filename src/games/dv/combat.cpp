// 12.0 combat: who may attack (12.2, 12.2.1), strengths, terrain and odds (12.3a, 12.4,
// 12.7), the roll on CRT A or B (12.1.1, 12.3b), losses (12.3c), retreat (12.5) and advance
// (12.6). Not yet: bombardment (12.8), air and support (8.x, 16.x), bridgeheads (12.4.1),
// and the sea retreat (12.5).
#include <algorithm>

#include "games/dv/dv.h"

namespace dv {

namespace {

// "12 against 7 is 1-1": fractions are dropped in the defender's favour (12.3a, DV-C3).
std::string odds_label(int att, int def) {
  if (att <= 0) return "0-1";
  if (def <= 0) return "99-1";
  if (att >= def) return std::to_string(att / def) + "-1";
  return "1-" + std::to_string((def + att - 1) / att);
}

}  // namespace

// 12.2: a hex of enemy units not yet attacked this round, next to at least one unit that
// may attack it.
bool DvState::may_attack_hex(int h) const {
  if (stage_ != Stage::kCombat || target_ >= 0) return false;
  if (h < 0 || h >= g_.grid().size()) return false;
  bool any = false;
  for (size_t i = 0; i < units_.size(); ++i) {
    const UnitState& s = units_[i];
    if (s.box != Box::kMap || s.hex != h || !g_.units()[i].ground) continue;
    if (g_.units()[i].side == active_) return false;
    // 12.2 each defender is attacked once per round; 12.5 "Retreating units that end their
    // Retreat in a hex containing other non-Retreated Friendly units may be attacked again
    // during the same Action Round": the hex may be attacked while one unit in it has not been.
    if (!s.defended) any = true;
  }
  if (!any) return false;
  if (active_ == kSoviet && year() == 1941 && g_.hex(h).hungary) return false;  // 15.3
  for (int n : g_.grid().neighbours(h)) {
    if (n < 0) continue;
    for (size_t i = 0; i < units_.size(); ++i)
      if (units_[i].box == Box::kMap && units_[i].hex == n && !units_[i].attacked &&
          active_unit(static_cast<int>(i), kSegCombat)) {
        const int dir = g_.grid().direction(n, h);
        if (g_.unit(static_cast<int>(i)).side == kAxis && g_.volga().test(n, dir)) continue;
        if (g_.water().test(n, dir)) continue;
        return true;
      }
  }
  return false;
}

bool DvState::may_add(int u) const {
  if (stage_ != Stage::kCombat || target_ < 0) return false;
  return may_join(u, target_, attackers_);
}

bool DvState::may_join(int u, int target, const std::vector<int>& attackers) const {
  const UnitDef& d = g_.unit(u);
  const UnitState& s = us(u);
  if (!active_unit(u, kSegCombat) || s.attacked) return false;
  if (std::find(attackers.begin(), attackers.end(), u) != attackers.end()) return false;
  const int dir = g_.grid().direction(s.hex, target);
  if (dir < 0) return false;
  if (g_.water().test(s.hex, dir)) return false;
  if (d.side == kAxis && g_.volga().test(s.hex, dir)) return false;  // 12.4 no Axis attack across the Volga
  if (d.minor) {
    if (g_.grid().row(target) < g_.minors_north_row()) return false;  // 15.1
    for (int a : attackers)
      if (g_.unit(a).minor && g_.unit(a).nation != d.nation) return false;  // 15.1
  }
  return true;
}

bool DvState::may_resolve() const {
  if (stage_ != Stage::kCombat || target_ < 0 || attackers_.empty()) return false;
  // 12.2.1 the Single Unit rule.
  return attackers_.size() >= 2 || g_.unit(attackers_[0]).single_unit;
}

Outcome DvState::assess() const {
  Outcome o;
  const steppe::HexGrid& gr = g_.grid();
  const Tec& t = g_.tec();
  const HexInfo& hi = g_.hex(target_);
  const int def_side = 1 - active_;
  std::vector<int> defenders;
  units_in(target_, defenders);
  // 12.4: halved attackers are summed first, then halved; nobody is halved twice.
  int whole = 0, halved = 0;
  bool all_across_river = true;
  bool attacker_oos = false;
  for (int u : attackers_) {
    const UnitDef& d = g_.unit(u);
    const int a = d.attack[us(u).steps == d.steps ? 0 : 1];
    const int dir = gr.direction(us(u).hex, target_);
    if (dir < 0) continue;  // not adjacent: not in this combat (12.2)
    const bool major = g_.major().test(us(u).hex, dir) || g_.volga().test(us(u).hex, dir) ||
                       g_.strait().test(us(u).hex, dir);
    const bool swamp_mech = d.mech && t.mech_attack_halved[hi.terrain];
    (major || swamp_mech ? halved : whole) += a;
    if (!g_.river().test(us(u).hex, dir) || major) all_across_river = false;
    if (us(u).supply != 0) attacker_oos = true;
    // 10.5.3/10.5.4: in Combat-Zhukov/Stavka rounds attackers out of the named range count OOS.
    auto in_range = [&](int hq) {
      return hq >= 0 && us(hq).box == Box::kMap &&
             gr.distance(us(u).hex, us(hq).hex) <= g_.unit(hq).command_range;
    };
    if ((chit_ == kChitCombatZhukov && !in_range(g_.zhukov())) ||
        (chit_ == kChitCombatStavka && !in_range(g_.stavka_hq())) ||
        (chit_ == kChitCombatStavkaZhukov && !in_range(g_.zhukov()) && !in_range(g_.stavka_hq())))
      attacker_oos = true;
  }
  o.attack = whole + halved / 2;
  std::string air_note;
  if (const int air = air_factor(true, &air_note); air > 0) {  // 8.3, 8.4
    o.attack += air;
    o.notes.push_back(air_note);
  }
  if (halved > 0)
    o.notes.push_back("attackers across a Major River or Volga, or mech into Swamp, halved: " +
                      std::to_string(halved) + " -> " + std::to_string(halved / 2) + " (12.4, TEC)");
  int def = 0;
  bool defender_oos = false, alone_hq = true;
  for (int u : defenders)
    if (!g_.unit(u).hq && g_.unit(u).ground) alone_hq = false;
  for (int u : defenders) {
    const UnitDef& d = g_.unit(u);
    if (!d.ground || (d.hq && !alone_hq)) continue;  // 14.1 HQs defend only when alone
    // 12.5: "the Retreated units do not contribute their Combat factors or Supply Status to the
    // defense strength of the other defending units"
    if (us(u).defended) continue;
    def += d.defense[us(u).steps == d.steps ? 0 : 1];
    if (us(u).supply != 0) defender_oos = true;
  }
  const bool fort = hi.fort_owner == def_side && fort_gone_[static_cast<size_t>(target_)] == 0;
  const bool weak = hi.weak_fort_owner == def_side && fort_gone_[static_cast<size_t>(target_)] == 0;
  if (fort || weak) {
    // 12.7.1 a Fort ignores the other terrain of its hex.
    o.shifts += fort ? t.fort_shift : t.weak_fort_shift;
    o.notes.push_back(std::string(fort ? "Fort" : "Weak Fort") + ": " +
                      std::to_string(-(fort ? t.fort_shift : t.weak_fort_shift)) + " left (12.7.1)");
  } else {
    if (hi.city && t.city_doubled) {
      def *= 2;
      o.notes.emplace_back("City: defence doubled (TEC)");
    }
    if (t.hex_shift[hi.terrain] != 0) {
      o.shifts += t.hex_shift[hi.terrain];
      o.notes.push_back("terrain: " + std::to_string(-t.hex_shift[hi.terrain]) + " left (TEC)");
    }
  }
  if (def_side == kSoviet && hi.dw) {
    def += t.dw_defense;
    o.notes.push_back("Defensive Works: +" + std::to_string(t.dw_defense) + " defence (12.7.3)");
  }
  if (def_side == kSoviet && hi.fz && fz_gone_[static_cast<size_t>(target_)] == 0) {
    o.shifts += t.fz_shift;
    o.notes.push_back("Fortified Zone: " + std::to_string(-t.fz_shift) + " left (12.7.2)");
  }
  if (all_across_river && t.river_shift != 0) {
    o.shifts += t.river_shift;
    o.notes.push_back("every attacker across a Minor River: " + std::to_string(-t.river_shift) +
                      " left (TEC)");
  }
  // 12.3a "Also apply any Weather effects on Combat (12.9)": 12.9 is missing from the text; its
  // column shifts are crt.json "weather_combat" (reconstructed as none, ruling DV-B3).
  if (const int ws = g_.weather_shift(weather()); ws != 0) {
    o.shifts += ws;
    o.notes.push_back("weather: " + std::to_string(ws) + " columns (12.9)");
  }
  if (const int air = air_factor(false, &air_note); air > 0) {  // 8.3, 8.4
    def += air;
    o.notes.push_back(air_note);
  }
  o.defense = def;
  o.raw_odds = odds_label(o.attack, def);
  const Crt& c = g_.crt();
  const int last = static_cast<int>(c.columns.size()) - 1;
  int col = -1;
  if (o.attack > 0) {
    if (o.attack >= def || def == 0) {
      const int n = def == 0 ? 99 : o.attack / def;
      const std::string cap = std::to_string(std::min(n, 6)) + "-1";  // 12.3a above 6-1 is 6-1
      for (int i = 0; i <= last; ++i)
        if (c.columns[static_cast<size_t>(i)] == cap) col = i;
    } else {
      for (int i = 0; i <= last; ++i)
        if (c.columns[static_cast<size_t>(i)] == o.raw_odds) col = i;
    }
  }
  if (col >= 0) {
    col += o.shifts;
    if (col > last) col = last;  // DV-C3: a right shift from 6-1 stays at 6-1
    if (col < 0) col = -1;       // DV-C3: a left shift below 1-3 is an automatic AE
  }
  o.column = col;  // -1: below 1-3, automatic AE (12.3a)
  if (attacker_oos) o.drm += c.drm_attacker_oos;
  if (defender_oos) o.drm += c.drm_defender_oos;
  o.table = c.which[static_cast<size_t>(active_)][static_cast<size_t>(turn_)];
  return o;
}

namespace {
bool full_guards(const UnitDef& d, const UnitState& s) {
  return s.steps == 2 && (d.type == "guards-rifle-army" || d.type == "guards-tank-army");
}
}  // namespace

// 12.3c: "If a player is directed to lose a step, he may choose which of his units will
// suffer the step loss. However, no unit in the Combat may be eliminated until all Friendly
// two-step units in the Combat have taken a step loss." and "When attacking (only), a
// full-strength Soviet Guard Rifle Army or Tank Army must take the first attacker loss in
// any Combat (if possible)."
std::vector<int> DvState::loss_choices() const {
  std::vector<int> out;
  if (pending_.empty() || pending_.front().retreat) return out;
  const PendingResult& p = pending_.front();
  std::vector<int> alive, full_two, guards;
  for (int u : p.units) {
    if (us(u).box != Box::kMap) continue;
    alive.push_back(u);
    if (us(u).steps == 2) full_two.push_back(u);
    if (p.attacker && p.taken == 0 && full_guards(g_.unit(u), us(u))) guards.push_back(u);
  }
  if (!guards.empty()) return guards;
  return full_two.empty() ? alive : full_two;
}

void DvState::lose_step(int u) {
  PendingResult& p = pending_.front();
  UnitState& s = us(u);
  const UnitDef& d = g_.unit(u);
  if (s.steps == 2) {
    s.steps = 1;
    log("loss", d.label + " is reduced", p.rule);
  } else {
    s.box = Box::kEliminated;
    s.hex = -1;
    s.steps = 0;
    s.supply = 0;
    // 14.1: Stavka and Zhukov return the next turn, Panzer Army HQs two turns later.
    if (d.hq) s.return_turn = static_cast<int16_t>(turn_ + (d.type == "panzer-hq" ? 2 : 1));
    log("loss", d.label + " is eliminated", p.rule);
  }
  --p.steps;
  ++p.taken;
}

// 12.5: "Each Retreating unit" retreats on its own, the owner choosing its path; the next to
// go is the first of the result's units still in the combat hex (DV-E6).
int DvState::retreating_unit() const {
  if (pending_.empty() || !pending_.front().retreat) return -1;
  const PendingResult& p = pending_.front();
  for (int u : p.units)
    if (us(u).box == Box::kMap && us(u).hex == p.from) return u;
  return -1;
}

// 12.5: two hexes, along the owner's Retreat Compass "if at all possible"; not into enemy
// units, off the map, back into a hex, next to the start, over-stacked at its end or into an
// enemy ZOC a friendly unit (not one of this retreat) does not negate. Where a path along the
// compass exists only such ends are offered (DV-E4).
void DvState::retreat_destinations(int u, std::vector<int>& out) const {
  out.clear();
  if (pending_.empty() || !pending_.front().retreat) return;
  retreat_ends(u, false, out);
  if (out.empty() && retreat_through_zoc(u)) retreat_ends(u, true, out);
  // 12.7.1: "A unit in a Friendly Fort (only) may ignore the Retreat requirement of DR and DR*
  // results": its own hex is one of its choices.
  const int from = pending_.front().from;
  const HexInfo& hi = g_.hex(from);
  const int side = g_.unit(u).side;
  if ((hi.fort_owner == side || hi.weak_fort_owner == side) && fort_gone_[static_cast<size_t>(from)] == 0)
    out.push_back(from);
  std::sort(out.begin(), out.end());
}

// 6.2: "German Mechanized units may Retreat through one Enemy ZOC at the cost of one additional
// step loss per stack in Fair/Mixed Weather Turns but may not end their Retreat in an Enemy ZOC."
// Taken only where no retreat avoids the ZOC (DV-E8).
bool DvState::retreat_through_zoc(int u) const {
  const UnitDef& d = g_.unit(u);
  if (d.nation != "german" || !d.mech || (weather() != kFair && weather() != kMixed)) return false;
  std::vector<int> plain;
  retreat_ends(u, false, plain);
  return plain.empty();
}

void DvState::retreat_ends(int u, bool through_zoc, std::vector<int>& out) const {
  out.clear();
  if (pending_.empty() || !pending_.front().retreat) return;
  const PendingResult& p = pending_.front();
  const int side = g_.unit(u).side;
  const int from = p.from;
  const steppe::HexGrid& gr = g_.grid();
  std::vector<uint8_t> ezoc;
  compute_zoc(1 - side, ezoc);
  auto friendly_other = [&](int h) {
    for (size_t i = 0; i < units_.size(); ++i)
      if (units_[i].box == Box::kMap && units_[i].hex == h && g_.units()[i].side == side &&
          g_.units()[i].ground &&
          std::find(p.units.begin(), p.units.end(), static_cast<int>(i)) == p.units.end())
        return true;
    return false;
  };
  auto open = [&](int a, int d, int b, bool zoc_ok) {
    if (b < 0) return false;
    const HexInfo& bi = g_.hex(b);
    if (bi.terrain == kSea || bi.terrain == kLake || g_.water().test(a, d)) return false;
    if (occupant_side(b) == 1 - side) return false;
    if (!zoc_ok && ezoc[static_cast<size_t>(b)] != 0 && !friendly_other(b)) return false;
    return true;
  };
  const auto& compass = g_.compass()[static_cast<size_t>(side)];
  auto on_compass = [&](int d) { return std::find(compass.begin(), compass.end(), d) != compass.end(); };
  std::vector<std::pair<int, int>> ends;  // (compass score, hex)
  for (int d1 = 0; d1 < 6; ++d1) {
    const int h1 = gr.neighbour(from, d1);
    if (!open(from, d1, h1, through_zoc)) continue;
    for (int d2 = 0; d2 < 6; ++d2) {
      const int h2 = gr.neighbour(h1, d2);
      if (h2 < 0 || h2 == from || gr.distance(from, h2) != 2 || !open(h1, d2, h2, false)) continue;
      if (!stack_ok(h2, side, {u})) continue;  // 5.1c, 5.2: never into overstacking (DV-R11)
      ends.emplace_back((on_compass(d1) ? 1 : 0) + (on_compass(d2) ? 1 : 0), h2);
    }
  }
  int best = -1;
  for (const auto& e : ends) best = std::max(best, e.first);
  for (const auto& [score, h] : ends)
    if (score == best && std::find(out.begin(), out.end(), h) == out.end()) out.push_back(h);
}

void DvState::retreat_to(int u, int h) {
  PendingResult& p = pending_.front();
  if (h == p.from) {  // 12.7.1: it stays in its Fort and is no longer one of the retreating units
    p.units.erase(std::find(p.units.begin(), p.units.end(), u));
    log("retreat", g_.unit(u).label + " stays in the Fort in " + g_.grid().id(h) + " and ignores the retreat",
        "12.7.1");
    return;
  }
  if (retreat_through_zoc(u) && p.taken == 0) {
    // 6.2: one step for the stack that retreats through the enemy ZOC (a retreat's `taken`).
    p.taken = 1;
    UnitState& s = us(u);
    log("retreat", g_.unit(u).label + " retreats through an enemy ZOC and loses a step", "6.2");
    if (s.steps == 2) {
      s.steps = 1;
    } else {
      s = UnitState{};
      s.box = Box::kEliminated;
      if (g_.unit(u).hq) s.return_turn = static_cast<int16_t>(turn_ + 2);  // 14.1 a Panzer Army HQ
      log("loss", g_.unit(u).label + " is eliminated", "6.2");
      return;
    }
  }
  us(u).hex = h;
  set_control(h, g_.unit(u).side);
  log("retreat",
      g_.unit(u).label + " retreats from " + g_.grid().id(pending_.front().from) + " to " + g_.grid().id(h),
      "12.5");
}

// DV-E6: carries out the pending results in order, asking the owner wherever the rules give him a
// choice (12.3c which unit loses a step, 12.5 where each unit retreats) and deciding alone
// where there is none; then 12.6 advances, or the next combat.
void DvState::carry_out_results() {
  std::vector<int> dest;
  while (!pending_.empty()) {
    PendingResult& p = pending_.front();
    if (!p.retreat) {
      int left = 0;
      for (int u : p.units)
        if (us(u).box == Box::kMap) left += us(u).steps;
      if (p.steps <= 0 || left == 0) {
        pending_.erase(pending_.begin());
        continue;
      }
      const std::vector<int> choices = loss_choices();
      if (p.steps >= left || choices.size() == 1) {
        lose_step(choices.front());  // no choice: every step goes, or one unit may take it
        continue;
      }
      stage_ = Stage::kLoss;
      return;
    }
    const int u = retreating_unit();
    if (u < 0) {
      pending_.erase(pending_.begin());
      continue;
    }
    retreat_destinations(u, dest);
    if (dest.empty()) {
      UnitState& s = us(u);
      s.box = Box::kEliminated;
      s.hex = -1;
      s.steps = 0;
      s.supply = 0;
      if (g_.unit(u).hq)
        s.return_turn = static_cast<int16_t>(turn_ + (g_.unit(u).type == "panzer-hq" ? 2 : 1));
      log("retreat", g_.unit(u).label + " cannot retreat from " + g_.grid().id(p.from) + " and is eliminated",
          "12.5");
      continue;
    }
    if (dest.size() == 1) {
      retreat_to(u, dest.front());
      continue;
    }
    stage_ = Stage::kRetreat;
    return;
  }
  // 12.6: attackers may advance into an emptied defender hex.
  advancers_.clear();
  if (occupant_side(target_) == kNeutral) {
    for (int u : attackers_)
      if (us(u).box == Box::kMap) advancers_.push_back(u);
    // 12.6: "An Advance ... may include a HQ stacked with the attacking units".
    for (size_t i = 0; i < units_.size(); ++i) {
      const int hq = static_cast<int>(i);
      if (!g_.unit(hq).hq || g_.unit(hq).side != active_ || units_[i].box != Box::kMap) continue;
      for (int u : attackers_)
        if (us(u).box == Box::kMap && us(u).hex == units_[i].hex) {
          advancers_.push_back(hq);
          break;
        }
    }
  }
  if (!advancers_.empty()) {
    stage_ = Stage::kAdvance;
    return;
  }
  end_combat();
}

void DvState::resolve_attack() {
  const Outcome o = assess();
  count_mandate(o);    // 10.5.6.2
  air_after_combat();  // 8.3, 8.4
  std::vector<int> defenders, retreated;
  units_in(target_, defenders);
  // 12.5: units that retreated into the hex earlier this round (already defended) take no part
  // in the losses or the retreat; they "are eliminated if the defender is forced to Retreat or is
  // eliminated in that subsequent Combat".
  for (int u : defenders)
    if (us(u).defended && g_.unit(u).ground) retreated.push_back(u);
  defenders.erase(std::remove_if(defenders.begin(), defenders.end(),
                                 [&](int u) { return us(u).defended && g_.unit(u).ground; }),
                  defenders.end());
  for (int u : attackers_) us(u).attacked = true;
  for (int u : defenders) us(u).defended = true;
  const steppe::HexGrid& gr = g_.grid();
  std::string result;
  if (o.column < 0) {
    result = "AE";
    log("combat",
        "attack on " + gr.id(target_) + " at " + std::to_string(o.attack) + " to " +
            std::to_string(o.defense) + " (" + o.raw_odds + "): below 1-3, automatic AE",
        "12.3a");
  } else {
    const int die = roll(6, "combat on " + gr.id(target_), "12.3b");
    const int r = die + o.drm;
    const size_t row = r <= 0 ? 0 : r >= 7 ? 7 : static_cast<size_t>(r);
    result = g_.crt().tab[static_cast<size_t>(o.table)][static_cast<size_t>(o.column)][row];
    log("combat",
        "attack on " + gr.id(target_) + " at " + std::to_string(o.attack) + " to " +
            std::to_string(o.defense) + " (" + o.raw_odds + ", " +
            g_.crt().columns[static_cast<size_t>(o.column)] + " on CRT " + (o.table == 0 ? "A" : "B") +
            "), roll " + std::to_string(die) +
            (o.drm != 0 ? (o.drm > 0 ? " +" : " ") + std::to_string(o.drm) : "") + ": " + result,
        "12.3");
  }
  const int from = target_;
  const int defender = 1 - active_;
  auto loss = [&](bool attacker, int steps, const char* rule) {
    PendingResult p;
    p.side = attacker ? active_ : defender;
    p.attacker = attacker;
    p.steps = steps;
    p.rule = rule;
    p.units = attacker ? attackers_ : defenders;
    pending_.push_back(std::move(p));
  };
  pending_.clear();
  if (!retreated.empty()) {
    int fresh_steps = 0;
    for (int u : defenders)
      if (g_.unit(u).ground) fresh_steps += us(u).steps;
    const bool lost = result == "DR" || result == "DR*" || result == "DE" ||
                      ((result == "D1" || result == "EX") && fresh_steps <= 1);
    if (lost)
      for (int u : retreated) {
        UnitState& s = us(u);
        s = UnitState{};
        s.box = Box::kEliminated;
        if (g_.unit(u).hq)
          s.return_turn = static_cast<int16_t>(turn_ + (g_.unit(u).type == "panzer-hq" ? 2 : 1));
        log("loss", g_.unit(u).label + ", retreated into " + gr.id(from) + ", is eliminated with it", "12.5");
      }
  }
  if (result == "AE") {
    loss(true, 99, "12.3a");
  } else if (result == "A1" || result == "A2") {
    loss(true, result == "A1" ? 1 : 2, "12.3c");
  } else if (result == "EX") {
    loss(true, 1, "12.3c");
    loss(false, 1, "12.3c");
  } else if (result == "D1") {
    loss(false, 1, "12.3c");
  } else if (result == "DR" || result == "DR*") {
    if (result == "DR*") loss(false, 1, "12.5, DV-C2");
    PendingResult p;
    p.retreat = true;
    p.side = defender;
    p.from = from;
    p.rule = "12.5";
    p.units = defenders;
    pending_.push_back(std::move(p));
  } else if (result == "DE") {
    loss(true, 1, "DV-C1");
    loss(false, 99, "12.3c");
  }
  carry_out_results();
}

bool DvState::may_advance(int u) const {
  if (stage_ != Stage::kAdvance || std::find(advancers_.begin(), advancers_.end(), u) == advancers_.end() ||
      us(u).hex == target_ || !stack_ok(target_, g_.unit(u).side, {u}))
    return false;
  if (!g_.unit(u).hq) return true;
  // 12.6: a HQ goes with the attacking units: once one of them has advanced.
  for (int a : attackers_)
    if (us(a).box == Box::kMap && us(a).hex == target_) return true;
  return false;
}

// 11.1.1 "Post-Combat Advances and Retreats are not considered Movement": neither spends MPs nor
// marks the unit as moved for the round.
void DvState::do_advance(int u) {
  us(u).hex = target_;
  set_control(target_, g_.unit(u).side);
  air_overrun(target_, g_.unit(u).side);  // 8.1
  advancers_.erase(std::find(advancers_.begin(), advancers_.end(), u));
  log("advance", g_.unit(u).label + " advances into " + g_.grid().id(target_), "12.6");
  bool more = false;
  for (int a : advancers_) more |= may_advance(a);
  if (!more) end_combat();
}

void DvState::end_combat() {
  pending_.clear();
  target_ = -1;
  attackers_.clear();
  advancers_.clear();
  air_att_.clear();  // 8.4 air not yet flown goes back unused (a cancelled attack)
  air_def_.clear();
  stage_ = Stage::kCombat;
}

}  // namespace dv
