// Barbarossa Deluxe rules: hex control and victory points (3.6, 4.x victory conditions).
// Section numbers are the rulebook's (seeds/000); where the text is silent or ambiguous
// the choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_internal.h"

namespace bd {

// ======================================================================= control & VP

// 3.6: control switches the instant an enemy ground unit enters; 4.2 VP change at once.
// 14.10, 15.5: the scenario's "sudden_death" hexes (Moscow, Leningrad, Berlin): play stops
// the instant `side` gains control of one, supply state irrelevant. Called after the VP
// and the 4.15 surrender roll of that control change.
void BdState::sudden_death(int hex, int side) {
  if (sc_ == nullptr || phase_ == kGameOver) return;
  for (const SuddenDeath& sd : sc_->sudden_death)
    if (sd.side == side && sd.hex == hex) {
      end_game(side, std::string(side_name(side)) + " control of " + hex_id(hex), sd.rule);
      return;
    }
}

void BdState::set_control(int hex, int side) {
  const uint8_t old = hex_.control[static_cast<size_t>(hex)];
  if (old == side) return;
  hex_.control[static_cast<size_t>(hex)] = static_cast<uint8_t>(side);
  mark_dirty();
  log("control", std::string(side_name(side)) + " takes control of " + hex_id(hex), "3.6");
  if (side == kSoviet && turn_ > 4 && east_wall(hex)) {  // 11.21 destroyed when first occupied
    markers_.east_wall.erase(std::find(markers_.east_wall.begin(), markers_.east_wall.end(), hex));
    log("marker", "the East Wall counter in " + hex_id(hex) + " is destroyed", "11.21");
  }
  const HexInfo& h = hx(hex);
  if (!h.vp) {
    sudden_death(hex, side);
    territory_vp_checks();
    return;
  }
  int delta = side == kGerman ? 1 : (old == kGerman ? -1 : 0);
  if (delta == 0) {
    sudden_death(hex, side);
    territory_vp_checks();
    return;
  }
  std::string rule = "4.2";
  // 4.3, 9.3: capturing a Hero City is worth 2 (marker removed for good); losing a Fortress
  // City costs 2. A place retaken by its first owner is worth 1 again, with no marker.
  if (side == kGerman && hero_city(hex)) {
    delta = 2;
    rule = "4.3";
    markers_.hero_city.erase(std::find(markers_.hero_city.begin(), markers_.hero_city.end(), hex));
    vp_events_ += 1;
  } else if (side == kSoviet && fortress_city(hex)) {
    delta = -2;
    rule = "4.3";
    markers_.fortress_city.erase(
        std::find(markers_.fortress_city.begin(), markers_.fortress_city.end(), hex));
    vp_events_ -= 1;
  }
  const VictoryRules& vr = data_->victory;
  if (side == kGerman && hex == vr.kiev_hex && !kiev_taken_) {
    kiev_taken_ = true;
    // 4.21 (option): Kiev first taken by the end of GT3 is worth d6-1 instead.
    if (opt_kiev_ && turn_ <= vr.kiev_by_turn) {
      const int award = roll_vp(vr.kiev_roll, "Kiev VP roll (d6-1)", "4.21");
      vp_events_ += award - delta;
      delta = award;
      rule = "4.21";
    }
  }
  if (side == kSoviet && vp_schedule())
    for (size_t i = 0; i < vr.early_loss.size() && i < 8; ++i) {
      const EarlyLoss& l = vr.early_loss[i];
      if (l.hex != hex || ((early_fallen_ >> i) & 1u) != 0) continue;
      early_fallen_ = static_cast<uint8_t>(early_fallen_ | (1u << i));
      // 4.7 / 4.8: first Soviet capture before GT27 costs ceil(d6/2)+1 instead of the normal VP.
      if (turn_ < l.before_turn) {
        const int debit = roll_vp(l.roll, l.name + " early loss roll", l.rule);
        vp_events_ += -debit - delta;
        delta = -debit;
        rule = l.rule;
      }
    }
  vp_ += delta;
  log("vp",
      "German VP " + std::string(delta > 0 ? "+" : "") + std::to_string(delta) + " for " + hex_id(hex) +
          (h.name.empty() ? "" : " (" + h.name + ")") + ": now " + std::to_string(vp_),
      rule);
  // 4.15: the first German capture of Moscow triggers the surrender roll.
  if (side == kGerman && hex == data_->places.moscow && !moscow_rolled_) {
    moscow_rolled_ = true;
    const int mod = moscow_surrender_modifier();
    const int r = roll(6, "Moscow surrender roll", "4.15");
    log("victory",
        "Moscow surrender roll " + std::to_string(r) + " + " + std::to_string(mod) + " = " +
            std::to_string(r + mod),
        "4.15");
    if (r + mod >= data_->moscow_surrender_at) end_game(kGerman, "Moscow surrenders", "4.15");
  }
  sudden_death(hex, side);
  territory_vp_checks();
}

// The scenarios scored by the Victory Check Chart, where the German VP schedule of 4.4-4.10
// applies (the Road Back continues the Grand Campaign, 12.3; `empty` is for tests).
bool BdState::vp_schedule() const { return sparam("vp_schedule") > 0; }

// ceil(d6 / divide) + add, logged with the rule that calls for it.
int BdState::roll_vp(const VpRoll& r, const std::string& what, const std::string& rule) {
  const int die = roll(6, what, rule);
  const int v = ceil_div(die, std::max(1, r.divide)) + r.add;
  log("vp", what + ": " + std::to_string(die) + " gives " + std::to_string(v) + " VP", rule);
  return v;
}

// 4.5 and 4.6: conditions looked at from the first instant after the end of GT13 (at the
// start of GT14, then at every change of control), each at most once per game.
void BdState::territory_vp_checks() {
  caucasus_defeat_check();  // 4.13 Rostov or Dnepropetrovsk Soviet (any scenario with an expedition)
  if (!vp_schedule() || phase_ == kGameOver) return;
  const VictoryRules& vr = data_->victory;
  // The on-map hexes `in` selects, and how many of them `side` controls.
  auto count = [&](auto in, int side) {
    std::pair<int, int> n{0, 0};
    for (int h = 0; h < kNumHexes; ++h)
      if (hx(h).on_map && in(hx(h))) {
        ++n.first;
        n.second += hex_.control[static_cast<size_t>(h)] == side ? 1 : 0;
      }
    return n;
  };
  auto award = [&](bool& once, int vp, const std::string& why, const char* rule) {
    once = true;
    vp_ += vp;
    vp_events_ += vp;
    log("vp", why + ": German VP " + std::to_string(vp) + ", now " + std::to_string(vp_), rule);
  };
  if (!baltic_lost_ && turn_ > vr.baltic_after) {
    const auto [baltic, soviet] = count([](const HexInfo& x) { return x.country == kBaltic; }, kSoviet);
    if (baltic > 0 && soviet == baltic)
      award(baltic_lost_, vr.baltic_vp, "the Soviet controls every hex of the three Baltic states", "4.5");
  }
  if (!dnepr_lost_ && turn_ > vr.dnepr_after) {
    // 4.6 "no longer controls one or more hexes bordering the Dnepr": read as controls none
    // of them (digest 9 item 14, ruling BD-V2).
    const auto [river, german] = count([](const HexInfo& x) { return x.dnepr; }, kGerman);
    if (river > 0 && german == 0)
      award(dnepr_lost_, vr.dnepr_vp, "the German controls no hex on the Dnepr between Kiev and 2809/2908",
            "4.6");
  }
}

// 12.13: Leningrad starts The Road Back under siege. The siege ends (German VP -1) the
// instant no German-side unit is adjacent to the city while it is in Soviet overland supply
// (ruling BD-SC3); it is re-established (+1) by German-side units in 1110 and/or 1111 or by
// cutting the city's overland supply; once the German controls Leningrad it holds for good.
void BdState::leningrad_siege_check() {
  if (siege_ == 0 || siege_ == 3 || phase_ == kGameOver) return;
  const int len = data_->places.leningrad;
  if (len < 0) return;
  if (hex_.control[static_cast<size_t>(len)] == kGerman) {
    if (siege_ == 2) {
      vp_ += 1;
      vp_events_ += 1;
    }
    siege_ = 3;
    log("vp",
        "the German controls Leningrad: the siege VP can no longer be lost, German VP " + std::to_string(vp_),
        "12.13");
    return;
  }
  bool adjacent = false;
  for (int d = 0; d < 6; ++d) {
    const int n = neighbour(len, d);
    if (n >= 0 && occupant_side(n) == kGerman) adjacent = true;
  }
  const bool cut = !overland(len, kSoviet);
  if (siege_ == 1 && !adjacent && !cut) {
    siege_ = 2;
    vp_ -= 1;
    vp_events_ -= 1;
    log("vp", "the siege of Leningrad is lifted: German VP -1, now " + std::to_string(vp_), "12.13");
  } else if (siege_ == 2) {
    bool back = cut;
    const auto z = data_->places.zones.find("leningrad_siege");
    if (z != data_->places.zones.end())
      for (int h : z->second) back = back || occupant_side(h) == kGerman;
    if (back) {
      siege_ = 1;
      vp_ += 1;
      vp_events_ += 1;
      log("vp", "the siege of Leningrad is re-established: German VP +1, now " + std::to_string(vp_),
          "12.13");
    }
  }
}

// 4.17: the 2nd Paratroop Corps may make its combat air drop during the first turn of
// Manstein's Gambit while it still waits in the TRRT (it has not entered as a regular unit).
int BdState::para_drop_unit() const {
  // The first turn of Manstein's Gambit: the scenario's first turn (14.x), or the turn it was
  // declared in the Grand Campaign (4.16).
  const bool mg_first =
      (sparam("mansteins_gambit_from_start") > 0 && turn_ == first_turn_) || (mg_ && turn_ == summer_turn_);
  if (!mg_first) return -1;
  const int u = data_->find_unit("de-2para");
  if (u < 0 || u >= num_units()) return -1;
  const UnitSt& s = unit(u);
  return s.where == kTrrt && s.turn <= turn_ ? u : -1;
}

void BdState::uncovered_border(int side, std::vector<int>& out) const {
  out.clear();
  for (int h = 0; h < kNumHexes; ++h) {
    if (!hx(h).on_map || data_->tec.prohibited[hx(h).terrain] || hex_.control[static_cast<size_t>(h)] != side)
      continue;
    bool border = false;
    for (int d = 0; d < 6 && !border; ++d) {
      const int n = neighbour(h, d);
      border = n >= 0 && hx(n).on_map && hex_.control[static_cast<size_t>(n)] == other(side);
    }
    if (border && occupant_side(h) != side) out.push_back(h);
  }
}

int BdState::setup_left(int side) const {
  int n = 0;
  for (const auto& [x, z] : setup_zones()) n += unit(x).where == kToSetUp && def(x).side == side ? 1 : 0;
  return n;
}

// 15.3: both sides must place at least one unit in every hex along their side of the border:
// a placement elsewhere (or into the RVGK, h = -1) must leave enough units for the empty ones.
Status BdState::check_border_rule(int u, int h) const {
  if (sparam("border_garrison") <= 0) return Status::ok();
  const int side = def(u).side;
  std::vector<int> open;
  uncovered_border(side, open);
  const bool covers = h >= 0 && std::find(open.begin(), open.end(), h) != open.end();
  const int left_after = setup_left(side) - 1;
  const int open_after = static_cast<int>(open.size()) - (covers ? 1 : 0);
  if (left_after < open_after)
    return rerr("15.3",
                "every hex along your side of the border needs a unit: " + std::to_string(open_after) +
                    " still empty and " + std::to_string(left_after) + " units left to set up");
  return Status::ok();
}

// 3.7: after the set-up the Soviet may move any of his units (not the 9th Army or the ICA)
// from his territory into the five hexes of Poland he keeps.
bool BdState::lithuania_relocation(int u) const {
  if (!lith_relocate_ || def(u).side != kSoviet || unit(u).where != kOnMap) return false;
  if (hex_.control[static_cast<size_t>(unit(u).hex)] != kSoviet) return false;
  for (const char* id : {"su-9a", "su-9ar", "su-ica"})
    if (data_->find_unit(id) == u) return false;
  return true;
}

// 4.4, 4.19: whether the German still holds every city he held at the start of this game
// turn, and how many cities Soviet then he holds now.
std::pair<bool, int> BdState::cities_since_turn_start() const {
  bool kept = true;
  int taken = 0;
  for (int h = 0; h < kNumHexes; ++h) {
    if (!hx(h).city) continue;
    const int was = hex_.turn_start_control[static_cast<size_t>(h)];
    const int now = hex_.control[static_cast<size_t>(h)];
    if (was == kGerman && now != kGerman) kept = false;
    if (was == kSoviet && now == kGerman) ++taken;
  }
  return {kept, taken};
}

// 4.4: a declared offensive is judged at the end of its turn; without a success by the end
// of GT19 (or at a failure, whichever comes first) the German loses ceil(d6/2) VP.
void BdState::summer_offensive_check() {
  const auto& turns = data_->victory.summer_turns;
  if (!vp_schedule() || summer_done_ != 0 || turns.empty() || mg_) return;  // 4.16 supersedes 4.4
  bool fail = false;
  if (summer_turn_ == turn_) {
    const auto [kept, taken] = cities_since_turn_start();
    if (kept && taken >= 1) {
      summer_done_ = 1;
      log("victory",
          "the 1943 summer offensive succeeds: every German city held and " + std::to_string(taken) +
              " Soviet city taken",
          "4.4");
      return;
    }
    log("victory", "the 1943 summer offensive fails", "4.4");
    fail = true;
  } else if (summer_turn_ == 0 && turn_ == turns.back()) {
    log("victory", "no 1943 summer offensive declared by the end of GT" + std::to_string(turn_), "4.4");
    fail = true;
  }
  if (!fail) return;
  summer_done_ = 2;
  const int debit = roll_vp(data_->victory.summer_roll, "1943 summer offensive debit roll (d6/2)", "4.4");
  vp_ -= debit;
  vp_events_ -= debit;
  log("vp", "German VP -" + std::to_string(debit) + ", now " + std::to_string(vp_), "4.4");
}

// 4.19: at the end of the German player turn of GT30 with Oder chosen, the game ends.
bool BdState::watch_on_the_oder_check() {
  const VictoryRules& vr = data_->victory;
  const auto [kept, taken] = cities_since_turn_start();
  const bool win =
      kept && (taken >= vr.oder_cities || (taken >= 1 && soviet_losses_ >= vr.oder_one_city_units) ||
               soviet_losses_ >= vr.oder_units_alone);
  const std::string why = std::string(kept ? "every German city held" : "a German city lost") + ", " +
                          std::to_string(taken) + " Soviet cities taken, " + std::to_string(soviet_losses_) +
                          " Soviet units eliminated";
  if (win)
    end_game(kGerman, "Watch on the Oder succeeds: " + why, "4.19");
  else
    end_game(kSoviet, "Watch on the Oder fails: " + why, "4.19");
  return true;
}

// ======================================================================= VP bookkeeping

int BdState::count_german_vp_hexes() const {
  int n = 0;
  for (int h = 0; h < kNumHexes; ++h)
    if (hx(h).vp && hex_.control[static_cast<size_t>(h)] == kGerman) ++n;
  return n;
}

void BdState::rebase_vp() {
  hex_.start_control = hex_.control;
  vp_base_hexes_ = count_german_vp_hexes();
  vp_start_ = vp_;
  vp_events_ = 0;
}

int BdState::find_label(std::string_view key) const {
  const int d = data_->find_unit(key);
  if (d >= 0 && d < num_units()) return d;
  std::string k(key);
  for (auto& c : k) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (int u = static_cast<int>(data_->units.size()); u < num_units(); ++u) {
    std::string l = def(u).label, i = def(u).id;
    for (auto& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (auto& c : i) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (l == k || i == k) return u;
  }
  return -1;
}

}  // namespace bd
