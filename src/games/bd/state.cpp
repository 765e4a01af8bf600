// Barbarossa Deluxe rules: construction, occupancy, serialisation and invariants of the state.
// Section numbers are the rulebook's (seeds/000); where the text is silent or ambiguous
// the choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_internal.h"

namespace bd {

const char* where_name(int w) { return w >= 0 && w <= kInBulgaria ? kWhereNames[w] : "?"; }
const char* phase_name(int p) { return p >= 0 && p < kNumPhases ? kPhaseNames[p] : "?"; }
const char* supply_name(int s) { return s >= 0 && s < 8 ? kSupplyNames[s] : "?"; }
int parse_phase(std::string_view s) {
  for (int i = 0; i < kNumPhases; ++i)
    if (s == kPhaseNames[i]) return i;
  // Friendly aliases for scenario tests.
  if (s == "german-movement" || s == "german-assault" || s == "german-prepared-assault") return -2;
  if (s == "soviet-movement" || s == "soviet-assault" || s == "soviet-prepared-assault") return -3;
  return -1;
}

// ======================================================================= construction

BdState::BdState(const BdGame& game, std::shared_ptr<const BdData> data, uint64_t seed)
    : game_(&game), data_(std::move(data)) {
  dice_ = steppe::Dice(seed);
  defs_ = &data_->units;
  map_ = &data_->hexes;
  units_.assign(defs_->size(), UnitSt{});  // load_counters keeps it <= kMaxUnits
  vp_start_ = vp_ = data_->vp_start;
  // 3.6: initial control by country.
  for (int h = 0; h < kNumHexes; ++h)
    hex_.control[static_cast<size_t>(h)] = static_cast<uint8_t>(start_control_3_6(hx(h)));
}

const steppe::Game& BdState::game() const { return *game_; }

const std::vector<std::pair<int16_t, std::string>>& BdState::setup_zones() const {
  static const std::vector<std::pair<int16_t, std::string>> none;
  return setup_zone_ ? *setup_zone_ : none;
}

// The supply graph of this state's map: the data's, or one built for an edited map (tests).
const SupplyGraph& BdState::supply_graph() const {
  if (map_ == &data_->hexes) return data_->supply_graph;
  if (!own_graph_)
    own_graph_ = std::make_shared<const SupplyGraph>(build_supply_graph(data_->grid, *map_, data_->places));
  return *own_graph_;
}

HexInfo& BdState::hx_mut(int h) {
  own_graph_.reset();  // the caller edits the map
  if (map_ == &data_->hexes && data_->entry_candidates_built) {
    own_map_ = std::make_shared<std::array<HexInfo, kNumHexes>>(*map_);
    map_ = own_map_.get();
  }
  return const_cast<HexInfo&>((*map_)[static_cast<size_t>(h)]);  // unique copy made above
}

Status BdState::setup_scenario(const ScenarioDef* sc) {
  g_move_memo_epoch.fetch_add(1, std::memory_order_relaxed);  // perhaps other data at a freed one's address
  if (sc == nullptr) {
    scenario_id_ = "empty";
    turn_ = 1;
    phase_ = kAdminGerman;
    begin_turn();
    rebase_vp();
    return Status::ok();
  }
  scenario_id_ = sc->id;
  sc_ = sc;
  first_turn_ = sc->first_turn;
  last_turn_ = sc->last_turn;
  first_player_ = sc->first_player;
  vp_start_ = vp_ = sc->vp_start;
  turn_ = sc->first_turn;
  // The scenario's start front (12.14/12.15, 13.6, 14.6/14.7, 14.9) before any unit is
  // placed, so that placing units neither moves the front nor scores VP.
  for (int h : sc->german_control) hex_.control[static_cast<size_t>(h)] = kGerman;
  for (int h : sc->soviet_control) hex_.control[static_cast<size_t>(h)] = kSoviet;
  // 3.7 Lithuania option: Lithuania goes to the German side, five hexes of Poland to the
  // Soviet; Soviet units printed for Lithuania set up in other Soviet hexes (last, after
  // the German, ruling BD-SC1).
  const auto& pz = data_->places.zones;
  const auto lith = pz.find("lithuania");
  const auto lith_soviet = pz.find("lithuania_soviet");
  std::vector<int16_t> displaced;
  std::vector<std::pair<int16_t, std::string>> zones = setup_zones();  // setup_zone_ once complete
  if (opt_lithuania_) {
    if (sc->id != "grand-campaign" && sc->id != "what-if-1942")
      return steppe::Error{"the Lithuania option applies only to the Grand Campaign and 1942: What If", "3.7",
                           sc->id};
    if (lith == pz.end() || lith_soviet == pz.end())
      return steppe::Error{"places.json lacks the zones lithuania / lithuania_soviet", "3.7", sc->id};
    for (int h : lith->second) hex_.control[static_cast<size_t>(h)] = kGerman;
    for (int h : lith_soviet->second) hex_.control[static_cast<size_t>(h)] = kSoviet;
    log("setup", "Lithuania option: Lithuania is German, 2116 2216 2217 2315 2316 are Soviet", "3.7");
    lith_relocate_ = sc->id == "grand-campaign";
  }
  std::vector<bool> listed(units_.size(), false);
  for (const auto& e : sc->setup) {
    listed[static_cast<size_t>(e.unit)] = true;
    UnitSt& u = units_[static_cast<size_t>(e.unit)];
    if (e.hex >= 0 && opt_lithuania_ && def(e.unit).side == kSoviet &&
        std::find(lith->second.begin(), lith->second.end(), e.hex) != lith->second.end()) {
      u.where = kToSetUp;  // 3.7 displaced out of Lithuania
      displaced.push_back(static_cast<int16_t>(e.unit));
      has_setup_units_ = true;
      log("setup", def(e.unit).label + " is displaced out of Lithuania and sets up in another Soviet hex",
          "3.7", 1u << kSoviet);
    } else if (e.hex >= 0) {
      if (!hx(e.hex).on_map)
        return steppe::Error{"set-up hex " + hex_id(e.hex) + " is not on the map", "3.1", sc->id};
      place(e.unit, e.hex, true);
    } else if (!e.zone.empty()) {
      u.where = kToSetUp;
      zones.emplace_back(static_cast<int16_t>(e.unit), e.zone);
      has_setup_units_ = true;
    } else if (e.box == "dead") {
      u.where = kDead;
    } else if (e.box == "dead-permanent" || e.box == "out-of-play") {
      u.where = e.box == "dead-permanent" ? kDeadPerm : kOutOfPlay;
    } else if (e.box == "rvgk") {
      u.where = kRvgk;
    } else if (e.box == "caucasus") {
      u.where = kCaucasus;
    } else if (e.box == "trrt") {
      u.where = kTrrt;
      u.turn = static_cast<int8_t>(e.turn);
    } else {
      return steppe::Error{"unknown set-up box '" + e.box + "'", "", sc->id};
    }
  }
  // 12.9: an expedition set up in the Caucasus Holding Box is under way (4.13); 12.3 its
  // resolution roll of a given turn may already have been made ("caucasus-roll-gtN").
  for (const auto& e : sc->setup)
    if (e.box == "caucasus" && def(e.unit).side == kGerman) {
      cauc_ = kCaucInBox;
      cauc_turn_ = static_cast<int8_t>(first_turn_ - 1);
    }
  for (const auto& [m, h] : sc->markers)
    if (m.rfind("caucasus-roll-gt", 0) == 0)
      if (const auto t = steppe::parse_int_in(m.substr(16), 1, 32)) cauc_rolled_ = static_cast<int8_t>(*t);
  for (int16_t u : displaced) zones.emplace_back(u, "any-soviet");  // 3.7
  if (!zones.empty())
    setup_zone_ = std::make_shared<const std::vector<std::pair<int16_t, std::string>>>(std::move(zones));
  // Units not listed: reinforcements by their printed entry turn (3.3, 3.4), if still to come.
  for (size_t i = 0; i < units_.size(); ++i) {
    if (listed[i]) continue;
    const UnitDef& d = (*defs_)[i];
    // 3.5: the question-marked communist armies are set aside, off the TRRT; 8.24-8.26: they
    // arrive when triggered.
    if (d.type == kCommunistSatelliteArmy) continue;
    if (d.entry_turn > 0 && d.entry_turn > sc->first_turn) {
      units_[i].where = kTrrt;
      units_[i].turn = static_cast<int8_t>(d.entry_turn);
    }
  }
  for (const auto& [m, h] : sc->markers) {
    if (m == "hero-city" && h >= 0) markers_.hero_city.push_back(static_cast<int16_t>(h));
    if (m == "aerial-supply" && h < 0) markers_.aerial_available = true;  // 12.6, 13.7, 14.7
    if (m == "leningrad-siege") siege_ = 1;                               // 12.13 besieged at the start
    if (m == "fortress-city" && h >= 0) markers_.fortress_city.push_back(static_cast<int16_t>(h));
    if (m == "fortified-area" && h >= 0) {
      markers_.fa_hex = static_cast<int16_t>(h);
      markers_.fa_turn = static_cast<int8_t>(turn_ - 1);
    }
  }
  // 8.31, 8.32: a TB / CM of the fixed set-up goes atop a unit of its hex (ruling BD-TB3).
  for (int u = 0; u < num_units(); ++u) {
    if (!is_attachable(u) || unit(u).where != kOnMap || unit(u).parent >= 0) continue;
    const int p = default_parent(u, unit(u).hex);
    if (p < 0)
      return steppe::Error{
          "set-up puts " + label(u) + " in " + hex_id(unit(u).hex) + " without a unit to attach it to",
          attach_rule(u), sc->id};
    units_[static_cast<size_t>(u)].parent = static_cast<int16_t>(p);
    mark_dirty();
  }
  // Stacking of the fixed set-up (6.3, 6.4).
  for (int h = 0; h < kNumHexes; ++h) {
    std::vector<int> none;
    const int s = occupant_side(h);
    if (s == kNoSide) continue;
    if (auto st = stacking_ok(h, s, none); !st)
      return steppe::Error{"set-up over-stacks hex " + hex_id(h) + ": " + st.error().message, "6.3", sc->id};
  }
  start_mode_ = sc->start_phase == "soviet-first-phase"    ? 1
                : sc->start_phase == "soviet-assault-only" ? 2
                                                           : 0;
  rebase_vp();
  if (has_setup_units_) {
    phase_ = kSetupPhase;
  } else {
    start_play();
  }
  mark_dirty();
  return Status::ok();
}

// First phase after set-up: the Mutual Administrative Phase, except Citadel (14.2: the
// Soviet Player Turn of GT19, no RVGK phase) and The Road Back (12.2: GT13 is one Soviet
// Prepared Assault Phase).
const std::vector<std::string>& BdState::option_names() {
  static const std::vector<std::string> names{"forgiveness-points", "kiev-vp", "lithuania"};
  return names;
}

Status BdState::set_option(const std::string& name, bool on) {
  if (name == "forgiveness-points") {
    opt_forgiveness_ = on;  // 4.20
  } else if (name == "kiev-vp") {
    opt_kiev_ = on;  // 4.21
  } else if (name == "lithuania") {
    opt_lithuania_ = on;  // 3.7 (applied by setup_scenario)
  } else {
    return steppe::Error{"unknown option '" + name + "' (options: forgiveness-points, kiev-vp, lithuania)",
                         "4.20", ""};
  }
  mark_dirty();
  return Status::ok();
}

void BdState::start_play() {
  begin_turn();
  if (start_mode_ == 1) {
    skip_rvgk_once_ = true;
    enter_phase(kSovietOrder);
  } else if (start_mode_ == 2) {
    assault_only_ = true;
    order_[kSoviet] = kFightMove;
    enter_phase(kSovietB);
  } else {
    enter_phase(kAdminGerman);
  }
}

// ======================================================================= occupancy

void BdState::units_in(int hex, std::vector<int>& out) const {
  out.clear();
  for (size_t i = 0; i < units_.size(); ++i)
    if (units_[i].where == kOnMap && units_[i].hex == hex) out.push_back(static_cast<int>(i));
  std::sort(out.begin(), out.end(), [&](int a, int b) { return unit(a).order < unit(b).order; });
}

void BdState::compute_occupancy() const {
  if (!occ_dirty_) return;
  occ_dirty_ = false;
  cache_.occ_side.fill(kNoSide);
  cache_.occ_count.fill(0);
  cache_.occ_sats.fill(0);
  cache_.occ_cav.fill(0);
  cache_.occ_sup.fill(0);
  std::fill_n(cache_.occ_child.begin(), units_.size(), int16_t{-1});
  for (size_t i = 0; i < units_.size(); ++i) {
    if (units_[i].where != kOnMap) continue;
    const size_t h = static_cast<size_t>(units_[i].hex);
    const UnitDef& d = (*defs_)[i];
    cache_.occ_side[h] = d.side;
    if (d.satellite_army()) ++cache_.occ_sats[h];
    if (d.type == kCavalryGroup) ++cache_.occ_cav[h];
    if (d.type == kTigerBattalion || d.type == kCmGroup) ++cache_.occ_sup[h];
    if (!d.free_stacking()) ++cache_.occ_count[h];
    const int p = units_[i].parent;
    if (p >= 0 && static_cast<size_t>(p) < units_.size())
      cache_.occ_child[static_cast<size_t>(p)] = static_cast<int16_t>(i);
  }
}

int BdState::attached_of(int p) const {
  compute_occupancy();
  return p >= 0 && static_cast<size_t>(p) < units_.size() ? cache_.occ_child[static_cast<size_t>(p)] : -1;
}

int BdState::occupant_side(int hex) const {
  compute_occupancy();
  return cache_.occ_side[static_cast<size_t>(hex)];
}

// 6.3 five units per hex; 6.4 one satellite army; 6.5 free units (cavalry max 1); 8.31,
// 8.32 one TB (CM) per stack. A unit added brings the TB / CM attached to it.
Status BdState::stacking_ok(int hex, int side, const std::vector<int>& adding) const {
  compute_occupancy();
  int count = cache_.occ_count[static_cast<size_t>(hex)], sats = cache_.occ_sats[static_cast<size_t>(hex)],
      cav = cache_.occ_cav[static_cast<size_t>(hex)], sup = cache_.occ_sup[static_cast<size_t>(hex)];
  bool adds_sat = false;
  for (int u : adding) {
    if (unit(u).where == kOnMap && unit(u).hex == hex) continue;  // already counted
    const UnitDef& d = def(u);
    if (is_attachable(u)) {
      if (unit(u).parent < 0 || std::find(adding.begin(), adding.end(), unit(u).parent) == adding.end())
        ++sup;
    } else if (const int c = attached_of(u); c >= 0) {
      ++sup;  // comes with its parent (counted once even when listed too)
    }
    if (d.satellite_army()) {
      ++sats;
      adds_sat = true;
    }
    if (d.type == kCavalryGroup) ++cav;
    if (!d.free_stacking()) ++count;
  }
  (void)side;
  const StackingLimits& lim = data_->stacking;  // data/bd/stacking.json
  if (count > lim.units_per_hex)
    return rerr("6.3", "hex " + hex_id(hex) + " would hold " + std::to_string(count) + " units (limit " +
                           std::to_string(lim.units_per_hex) + ")");
  // 8.26: the returning Bulgarians' entry hex is exempt until the end of their first move
  // (but takes no further satellite army).
  if (sats > lim.satellite_armies_per_hex && !(hex == bulg_hex_ && !adds_sat))
    return rerr("6.4", "hex " + hex_id(hex) + " would hold " + std::to_string(sats) +
                           " satellite armies (limit " + std::to_string(lim.satellite_armies_per_hex) + ")");
  if (cav > lim.cavalry_groups_per_hex)
    return rerr("8.30", "hex " + hex_id(hex) + " would hold " + std::to_string(cav) +
                            " cavalry groups (limit " + std::to_string(lim.cavalry_groups_per_hex) + ")");
  if (sup > 1)
    return rerr(side == kSoviet ? "8.32" : "8.31",
                "hex " + hex_id(hex) + " would hold " + std::to_string(sup) +
                    (side == kSoviet ? " CM groups (never more than one per stack)"
                                     : " Tiger battalions (never more than one per stack)"));
  return Status::ok();
}

// 6.2: hexes over the limits of 6.3 (five units), 6.4 (one satellite army) or 8.30 (one
// cavalry group). Normal play never makes one (every move, retreat and entry keeps the
// limits); exceptional entries and test set-ups can.
int BdState::overstacked_hex() const {
  compute_occupancy();
  const StackingLimits& lim = data_->stacking;
  for (size_t h = 0; h < kNumHexes; ++h)
    if (cache_.occ_side[h] != kNoSide &&
        (cache_.occ_count[h] > lim.units_per_hex || cache_.occ_sats[h] > lim.satellite_armies_per_hex ||
         cache_.occ_cav[h] > lim.cavalry_groups_per_hex))
      return static_cast<int>(h);
  return -1;
}

// 6.2 "the minimum number of involved enemy units necessary": the surplus satellite armies
// and cavalry groups must go (each also counts against the five when it is not free), then
// as many more as the five-unit limit still needs.
int BdState::overstack_need(int hex, int skip) const {
  std::vector<int> here;
  units_in(hex, here);
  int count = 0, sats = 0, cav = 0, sats_counted = 0, cav_counted = 0;
  for (int u : here) {
    if (u == skip) continue;
    const UnitDef& d = def(u);
    if (!d.free_stacking()) ++count;
    if (d.satellite_army()) {
      ++sats;
      if (!d.free_stacking()) ++sats_counted;
    }
    if (d.type == kCavalryGroup) {
      ++cav;
      if (!d.free_stacking()) ++cav_counted;
    }
  }
  const StackingLimits& lim = data_->stacking;
  const int ex_sat = std::max(0, sats - lim.satellite_armies_per_hex);
  const int ex_cav = std::max(0, cav - lim.cavalry_groups_per_hex);
  const int counted = std::min(ex_sat, sats_counted) + std::min(ex_cav, cav_counted);
  return ex_sat + ex_cav + std::max(0, count - counted - lim.units_per_hex);
}

bool BdState::overstack_check() {
  if (phase_ == kGameOver || pending_ != kPendNone || battle_.active) return false;
  const int h = overstacked_hex();
  if (h < 0) return false;
  const int side = occupant_side(h);
  pending_ = kPendOverstack;
  log("stacking",
      std::string(side_name(side)) + " stack in " + hex_id(h) + " is over-stacked: the " +
          side_name(other(side)) + " removes " + std::to_string(overstack_need(h, -1)) +
          " unit(s) of his choice to the dead pile",
      "6.2");
  return true;
}

bool BdState::hero_city(int hex) const {
  return std::find(markers_.hero_city.begin(), markers_.hero_city.end(), hex) != markers_.hero_city.end();
}
bool BdState::fortress_city(int hex) const {
  return std::find(markers_.fortress_city.begin(), markers_.fortress_city.end(), hex) !=
         markers_.fortress_city.end();
}
bool BdState::fa_effect(int hex) const {
  if (markers_.fa_hex < 0) return false;
  return hex == markers_.fa_hex || hex_distance(hex, markers_.fa_hex) == 1;
}
bool BdState::east_wall(int hex) const {
  return std::find(markers_.east_wall.begin(), markers_.east_wall.end(), hex) != markers_.east_wall.end();
}

// 8.5 (and 11.21): one counter per hex, in a German-controlled, overland-supplied non-city
// hex inside the USSR or the Baltic states; stacking and enemy adjacency do not matter.
Status BdState::check_east_wall(int h) const {
  if (phase_ != kAdminGerman || markers_.east_wall_left <= 0)
    return rerr("8.5", "East Wall counters are placed when they arrive (GT19 German administrative segment)");
  if (h < 0 || h >= kNumHexes || !hx(h).on_map || data_->tec.prohibited[hx(h).terrain])
    return rerr("8.5", "not a land hex of the map");
  const HexInfo& x = hx(h);
  if (x.country != kUssr && x.country != kBaltic)
    return rerr("8.5", "East Wall counters go inside the USSR or the Baltic states");
  if (x.city) return rerr("8.5", "East Wall counters never go in a city hex");
  if (hex_.control[static_cast<size_t>(h)] != kGerman || !overland(h, kGerman))
    return rerr("8.5", hex_id(h) + " is not a German-controlled hex with overland supply");
  if (east_wall(h)) return rerr("8.5", "no more than one East Wall counter per hex");
  return Status::ok();
}

// 8.19: the tank army whose Guards version u is (the tank army's counterpart), or -1.
int BdState::guards_tank_namesake(int u) const {
  if (def(u).type != kGuardsTankArmy) return -1;
  for (int t = 0; t < num_units(); ++t)
    if (def(t).type == kTankArmy && def(t).counterpart == u) return t;
  return -1;
}

// 8.19 / 8.20: Guards and Shock armies arrive by converting a rifle army, a Guards tank
// army by converting its namesake; neither enters by 8.1 nor waits in the RVGK. A Guards
// tank army whose namesake has left play for good arrives as an ordinary reinforcement
// (ruling BD-16).
bool BdState::converts_on_arrival(int u) const {
  const UnitDef& d = def(u);
  if (d.side != kSoviet) return false;
  if (d.type == kGuardsArmy || d.type == kShockArmy) return true;
  const int t = guards_tank_namesake(u);
  if (t < 0) return false;
  return unit(t).where != kOutOfPlay && unit(t).where != kDeadPerm;
}

// 8.19: a due Guards tank army replaces its namesake on the map (in overland supply), in
// the dead pile or in the RVGK (ruling BD-16); a namesake out of overland supply waits.
void BdState::guards_tank_conversions() {
  for (int g = 0; g < num_units(); ++g) {
    if (def(g).type != kGuardsTankArmy) continue;
    if (unit(g).where != kTrrt || unit(g).turn > turn_) continue;
    const int t = guards_tank_namesake(g);
    if (t < 0) continue;
    const UnitSt& ts = unit(t);
    std::string where;
    uint32_t vis = 0xFFFFFFFFu;
    const bool unseen = ts.where == kOnMap && !german_sees(t);  // 11.7 beneath the top of its stack
    if (ts.where == kOnMap) {
      if (unit_supply(t) != kSupOverland) continue;
      where = "in " + hex_id(ts.hex);
    } else if (ts.where == kDead) {
      where = "in the dead pile";
    } else if (ts.where == kRvgk) {
      where = "in the RVGK";
      vis = 1u << kSoviet;  // 11.7 the RVGK is hidden
    } else {
      continue;
    }
    units_[static_cast<size_t>(g)] = ts;  // hex, stack order, MP and flags carry over
    units_[static_cast<size_t>(t)] = UnitSt{};
    repoint_attached(t, g);  // 8.32 its CM stays atop the new army
    mark_dirty();
    const std::string text = label(t) + " becomes " + label(g) + " " + where + " (no replacement step)";
    if (unseen)
      log_fog("convert", text,
              "a Soviet tank army " + where + " becomes a Guards tank army (no replacement step)", "8.19");
    else
      log("convert", text, "8.19", vis);
  }
}

// 8.20: any one overland-supplied ordinary rifle army on the map makes way for a due Guards
// or Shock army.
Status BdState::check_convert(int g, int r) const {
  if (phase_ != kAdminSoviet)
    return rerr("8.20", "Guards and Shock armies arrive in the Soviet administrative segment");
  const UnitDef& gd = def(g);
  if (gd.side != kSoviet || (gd.type != kGuardsArmy && gd.type != kShockArmy))
    return rerr("8.20", gd.label + " is not a Guards or Shock army");
  if (unit(g).where != kTrrt || unit(g).turn > turn_)
    return rerr("8.20", gd.label + " is not a reinforcement due now");
  const UnitDef& rd = def(r);
  if (rd.side != kSoviet || rd.type != kRifleArmy)
    return rerr("8.20", rd.label + " is not an ordinary (non-Guards, non-Shock) rifle army");
  if (unit(r).where != kOnMap) return rerr("8.20", rd.label + " is not on the map");
  if (unit_supply(r) != kSupOverland) return rerr("8.20", rd.label + " is not in overland supply");
  return Status::ok();
}

// 8.2 KG (without a printed hex), 8.4 emergency units, 8.27 Mechanized Group Popov.
bool BdState::enters_in_situ(int u) const {
  const UnitDef& d = def(u);
  return (d.type == kKampfgruppe && d.entry_hex < 0) || d.type == kEmergency || d.type == kMechGroup;
}

// 8.24 Polish and 8.25 Romanian communist armies: triggered the first time a Soviet unit in
// regular overland supply moves adjacent to the General Government / to Bucharest (each hex
// of the move counts; its supply is judged at the end of the move: ruling BD-21).
void BdState::communist_triggers(int u, const std::vector<int>& path) {
  if (def(u).side != kSoviet || unit(u).where != kOnMap) return;
  if (polish_triggered_ && romania_defected_) return;
  if (unit_supply(u) != kSupOverland) return;
  auto near = [&](int h, auto pred) {
    if (pred(h)) return true;
    for (int d = 0; d < 6; ++d) {
      const int n = neighbour(h, d);
      if (n >= 0 && pred(n)) return true;
    }
    return false;
  };
  bool poland = false, romania = false;
  const int buc = data_->places.bucharest;
  for (int h : path) {
    poland |= near(h, [&](int x) { return hx(x).country == kGeneralGovernment; });
    romania |= buc >= 0 && near(h, [&](int x) { return x == buc; });
  }
  auto find_nation = [&](const char* nation, std::vector<int>& out) {
    out.clear();
    for (int x = 0; x < num_units(); ++x)
      if (def(x).nation == nation && unit(x).where == kOutOfPlay) out.push_back(x);
  };
  std::vector<int> units;
  if (poland && !polish_triggered_) {
    polish_triggered_ = true;
    find_nation("polish-communist", units);
    for (int p : units) {
      const int first = def(p).entry_turn;  // 8.24: GT13, the counter's entry turn
      if (turn_ < first) {                  // 8.24 never before GT13: a normal reinforcement then
        units_[static_cast<size_t>(p)].where = kTrrt;
        units_[static_cast<size_t>(p)].turn = static_cast<int8_t>(first);
        log("reinforcement",
            label(p) + " will arrive as a reinforcement on Game Turn " + std::to_string(first), "8.24");
        continue;
      }
      // Atop the triggering stack, else the nearest Soviet-occupied overland-supplied hex
      // with room (ties: the lowest hex number).
      std::vector<int> add{p};
      int best = -1, best_d = 1 << 20;
      for (int h = 0; h < kNumHexes; ++h) {
        if (occupant_side(h) != kSoviet || !overland(h, kSoviet) || !stacking_ok(h, kSoviet, add).is_ok())
          continue;
        const int dist = hex_distance(h, unit(u).hex);
        if (dist < best_d) {
          best = h;
          best_d = dist;
        }
      }
      if (best < 0) {
        units_[static_cast<size_t>(p)].where = kTrrt;
        units_[static_cast<size_t>(p)].turn = static_cast<int8_t>(turn_ + 1);
        log("reinforcement", label(p) + " finds no room and arrives next turn", "8.24");
        continue;
      }
      place(p, best);
      units_[static_cast<size_t>(p)].flags |= kFlagDone;  // it appears; it does not move on this phase
      log("reinforcement", label(p) + " appears in " + hex_id(best), "8.24");
    }
  }
  if (romania && !romania_defected_) {
    romania_defected_ = true;
    log("defection", "Romania defects to the Soviet side", "8.25");
    for (int x = 0; x < num_units(); ++x) {  // 1) the Axis Romanian armies leave for good
      if (def(x).nation != "romanian" || !def(x).satellite_army()) continue;
      UnitSt& s = units_[static_cast<size_t>(x)];
      if (s.where == kDeadPerm || s.where == kOutOfPlay) continue;
      s = UnitSt{};
      s.where = kDeadPerm;
      log("defection", label(x) + " is removed from play", "8.25");
    }
    mark_dirty();
    find_nation("romanian-communist", units);
    // 2) and 3): 1RC next turn, 4RC the turn after, never before their counters' entry turns
    // (GT14 and GT15, the turns of a trigger on or before GT13).
    int next = turn_ + 1;
    for (int x : units) {
      const int t = std::max(next, def(x).entry_turn);
      units_[static_cast<size_t>(x)].where = kTrrt;
      units_[static_cast<size_t>(x)].turn = static_cast<int8_t>(t);
      log("reinforcement", label(x) + " will enter at Bucharest on Game Turn " + std::to_string(t), "8.25");
      next = t + 1;
    }
  }
}

// 8.15: the Romanian 3rd/4th Army's first death in overland supply puts it d6 boxes ahead
// on the TRRT (no replacement step); any other death is permanent.
void BdState::returns_once(int u, int sup) {
  UnitSt& s = units_[static_cast<size_t>(u)];
  const bool used = std::find(returned_once_.begin(), returned_once_.end(), u) != returned_once_.end();
  if (used || sup != kSupOverland || romania_defected_) {
    s.where = kDeadPerm;
    log("eliminate",
        label(u) +
            (used                ? " has already returned once"
             : romania_defected_ ? " cannot return: Romania has defected"
                                 : " was not in overland supply") +
            ": gone for good",
        "8.15");
    return;
  }
  const int r = roll(6, label(u) + " return delay", "8.15");
  returned_once_.push_back(static_cast<int16_t>(u));
  s.where = kTrrt;
  s.turn = static_cast<int8_t>(std::min(turn_ + r, 99));
  log("reinforcement",
      label(u) + " returns on Game Turn " + std::to_string(turn_ + r) + " (d6 = " + std::to_string(r) + ")",
      "8.15");
}

void BdState::serialize(std::string& out) const {
  auto put = [&](int64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put(turn_);
  put(phase_);
  put(pending_);
  put(vp_);
  put(order_[0]);
  put(order_[1]);
  put(paulus_);
  put(zone1942_);
  put(moscow_rolled_);
  put(winner_);
  put(rvgk_moves_);
  put(withdraw_due_);
  if (stand_fast_ended_) put(uint8_t{0x7f});  // 12.7 (only when set: the other games' hashes stay)
  if (emergency_used_) put(uint8_t{0x7e});    // 8.11 (only when set, likewise)
  if (pending_ == kPendInterrupt) {           // 9.7 the attack the defender answers
    put(held_attack_.verb);
    for (int i = 0; i < held_attack_.nargs; ++i) put(held_attack_.args[static_cast<size_t>(i)]);
  }
  put(strat_used_);
  put(skip_rvgk_once_ * 2 + assault_only_);
  put(ff_used_1942_ * 4 + ff_used_1943_ * 2 + soviet_ff_used_);
  put(kerch_from_);
  put(sea_used_);
  put(opt_forgiveness_ * 2 + opt_kiev_);
  put(opt_lithuania_ * 2 + lith_relocate_);
  put(siege_);
  put(oos_kills_);
  put(rvgk_setup_);
  put(fp_);
  put(baltic_lost_ * 2 + dnepr_lost_);
  put(early_fallen_);
  put(kiev_taken_);
  put(summer_turn_);
  put(summer_done_);
  put(watch_);
  put(soviet_losses_);
  put(ss_due_);
  put(ss_cycle_);
  put(ss_failed_);
  put(ss_done_);
  put(cauc_);
  put(cauc_open_);
  put(cauc_turn_);
  put(cauc_rolled_);
  put(cauc_need_);
  put(mg_);
  put(overstack_resume_);
  put(static_cast<int64_t>(dice_.seed()));
  put(static_cast<int64_t>(dice_.counter()));
  for (int s = 0; s < 2; ++s) {
    put(repl_left_mech_[static_cast<size_t>(s)]);
    put(repl_left_non_[static_cast<size_t>(s)]);
  }
  for (const auto& u : units_) {
    put(u.hex);
    put(u.where);
    put(u.mp);
    put(u.flags);
    put(u.start_hex);
    put(u.turn);
    put(u.order);
    put(u.forced_supply);
    put(u.parent);
  }
  out.append(reinterpret_cast<const char*>(hex_.control.data()), hex_.control.size());
  out.append(reinterpret_cast<const char*>(hex_.entered.data()), hex_.entered.size());
  out.append(reinterpret_cast<const char*>(hex_.start_control.data()), hex_.start_control.size());
  out.append(reinterpret_cast<const char*>(hex_.turn_start_control.data()), hex_.turn_start_control.size());
  for (auto x : markers_.hero_city) put(x);
  put(-1);
  for (auto x : markers_.fortress_city) put(x);
  put(-1);
  put(markers_.hero_left);
  put(markers_.fortress_left);
  put(markers_.fortress_restricted_left);
  put(markers_.fa_available);
  put(markers_.aerial_available);
  put(markers_.aerial_return);
  put(markers_.fa_hex);
  put(markers_.fa_turn);
  for (int i = 0; i < 3; ++i) {
    put(markers_.osupply[static_cast<size_t>(i)]);
    put(markers_.osupply_have[static_cast<size_t>(i)]);
  }
  put(markers_.aerial);
  put(markers_.luftwaffe_left);
  put(crimea_on_);
  put(crimea_switched_);
  put(crimea_turn_);
  put(static_cast<int64_t>(crimea_declared_.size()));
  for (int16_t u : crimea_declared_) put(u);
  for (auto x : markers_.east_wall) put(x);
  put(-1);
  put(markers_.east_wall_left);
  put(combout_done_);
  put(combout_left_);
  for (auto x : returned_once_) put(x);
  put(-1);
  put(polish_triggered_ * 2 + romania_defected_);
  put(markers_.artillery_used);  // 8.36-8.40
  put(markers_.air_armies_used);
  put(markers_.support_used);
  put(markers_.airborne_years);
  put(bulg_state_);  // 8.26
  put(bulg_unit_);
  put(bulg_exit_turn_);
  put(bulg_hex_);
  out.append(reinterpret_cast<const char*>(hex_.insitu.data()), hex_.insitu.size());
  for (auto m : movers_) put(m);
  put(-1);
  const Battle& b = battle_;
  put(b.active);
  if (b.active) {
    put(b.target);
    put(b.is_ma);
    put(b.attacker);
    put(b.lw_attack);
    put(b.lw_defend);
    put(b.launch);
    for (int i = 0; i < b.natt; ++i) put(b.att[static_cast<size_t>(i)]);
    put(-1);
    for (int i = 0; i < b.ndef; ++i) put(b.def[static_cast<size_t>(i)]);
    put(-1);
    for (int i = 0; i < b.nretreat; ++i) put(b.retreating[static_cast<size_t>(i)]);
    put(-1);
    for (int i = 0; i < b.nadv; ++i) put(b.adv[static_cast<size_t>(i)]);
    put(-1);
    for (int i = 0; i < b.nadv2; ++i)
      put(b.adv2[static_cast<size_t>(i)]), put(b.adv2_from[static_cast<size_t>(i)]);
    for (int i = 0; i < b.natt; ++i) put(b.boost[static_cast<size_t>(i)]);  // 8.36, 8.38
    put(b.support);                                                         // 8.37, 8.39, 8.40
    put(b.final_index);
    put(b.rolled);
    put(b.drop);
    put(b.bb_need);
  }
}

uint64_t BdState::state_hash() const {
  std::string s;
  s.reserve(units_.size() * 64 + 2048);
  serialize(s);
  return steppe::fnv1a64(s);
}

// ======================================================================= invariants

Status BdState::check_invariants() const {
  // One pass over the units (O(units + hexes)): sides present per hex.
  std::array<uint8_t, kNumHexes> sides{};
  for (int u = 0; u < num_units(); ++u)
    if (unit(u).where == kOnMap)
      sides[static_cast<size_t>(unit(u).hex)] |= static_cast<uint8_t>(1u << def(u).side);
  for (int h = 0; h < kNumHexes; ++h) {
    const uint8_t m = sides[static_cast<size_t>(h)];
    if (m == 0) continue;
    if (m == 3 && !(battle_.active && battle_.is_ma)) return rerr("10.4", "both sides in hex " + hex_id(h));
    if (m == 3) continue;
    const int side = m == 1 ? kGerman : kSoviet;
    std::vector<int> none;
    if (auto st = stacking_ok(h, side, none); !st && pending_ == kPendNone) return st;
    if (hex_.control[static_cast<size_t>(h)] != side)
      return rerr("3.6", "occupied hex " + hex_id(h) + " not controlled by its occupant");
  }
  for (int u = 0; u < num_units(); ++u) {
    const UnitSt& s = unit(u);
    if ((s.where == kOnMap) != (s.hex >= 0)) return rerr("", label(u) + " has an inconsistent location");
    // 8.31, 8.32: a TB / CM on the map sits in its parent's hex atop an eligible parent; only
    // TB / CM have parents; off the map they have none. One per stack is checked by
    // stacking_ok above.
    if (s.parent >= 0 && (!is_attachable(u) || s.where != kOnMap))
      return rerr(attach_rule(u), label(u) + " has a parent but is not an attached TB / CM on the map");
    if (is_attachable(u) && s.where == kOnMap) {
      const int p = s.parent;
      if (p < 0 || !eligible_parent(u, p))
        return rerr(attach_rule(u), label(u) + " is on the map without a parent");
      if (unit(p).where != kOnMap || unit(p).hex != s.hex)
        return rerr(attach_rule(u), label(u) + " is not in the hex of its parent " + label(p));
    }
  }
  const int expect = vp_start_ + (count_german_vp_hexes() - vp_base_hexes_) + vp_events_;
  if (expect != vp_)
    return rerr("4.2",
                "VP " + std::to_string(vp_) + " does not match control (" + std::to_string(expect) + ")");
  return Status::ok();
}

}  // namespace bd
