// Barbarossa Deluxe rules. Section numbers are the rulebook's (seeds/000); where the text
// is silent or ambiguous the choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_state.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "games/bd/bd_game.h"
#include "kernel/json_data.h"
#include "kernel/notation.h"

namespace bd {

namespace {

// The move-generation memo (BdState::set_move_memo_enabled). A unit's moves are a function
// of its hex, MP and MF left, whether it carries or is a TB / CM (8.31, 8.32), the map,
// the turn's movement rules (turn, 1942 zone) and, for each hex its search looked at,
// whether the stacks there let it in (10.4 no enemy, 6.2 stacking). The memo keeps, per
// unit, the moves and that trace, plus the occupancy of the last call; at each call a hex
// whose occupancy changed since invalidates the units for which it opened or closed, and
// only those are searched again (a unit passing through its own lines changes nothing for
// most of the others). It lives in the thread, not in the
// state: a clone copies nothing, and the states of one search (clones of one root) share
// it. Not used on GT1 (5.13 reads the unit's supply) nor for a search that met a strait
// end (10.14 reads more than occupancy).
struct MoveMemo {
  struct Entry {
    bool valid = false;
    int16_t hex = -1, mp = 0, budget = 0;
    uint8_t sup = 0;
    ReachTrace trace;
    std::vector<Action> moves;
  };
  bool enabled = true;
  uint64_t epoch = 0;
  const void* data = nullptr;
  const void* map = nullptr;
  int turn = -1, zone1942 = -1;
  std::array<uint8_t, kNumHexes> occ_side{}, occ_count{}, occ_sats{}, occ_cav{}, occ_sup{};
  std::vector<Entry> units;
};

thread_local MoveMemo t_move_memo;
// Bumped when a map may have been edited in place or a state made from other data (test
// edits, new scenarios): every thread's memo starts again.
std::atomic<uint64_t> g_move_memo_epoch{1};

constexpr const char* kPhaseNames[] = {
    "setup",           "german-admin",   "soviet-admin",   "german-order",
    "german-phase-b",  "german-phase-c", "soviet-order",   "soviet-offensive-supply",
    "soviet-rvgk",     "soviet-phase-b", "soviet-phase-c", "game-over",
    "german-strategic"};
constexpr const char* kWhereNames[] = {"out-of-play", "map",  "dead",      "dead-permanent", "rvgk",
                                       "caucasus",    "trrt", "to-set-up", "bulgaria"};
constexpr const char* kSupplyNames[] = {"overland", "garrison", "coastal", "aerial",
                                        "oos",      "always",   "none",    "crimea"};
constexpr const char* kVerbNames[] = {"",
                                      "end-phase",
                                      "move",
                                      "attack",
                                      "attack",
                                      "mobile-assault",
                                      "order",
                                      "paulus",
                                      "zone",
                                      "enter",
                                      "replace",
                                      "rvgk-in",
                                      "rvgk-out",
                                      "osupply",
                                      "retreat",
                                      "advance",
                                      "advance-done",
                                      "convert-bb",
                                      "luftwaffe-defend",
                                      "setup",
                                      "withdraw",
                                      "decline-withdrawal",
                                      "hero-city",
                                      "advance-second",
                                      "fortress-city",
                                      "fortified-area",
                                      "aerial-supply",
                                      "strategic",
                                      "emergency-rvgk",
                                      "no-emergency-rvgk",
                                      "summer-offensive",
                                      "watch",
                                      "crimea-supply",
                                      "sea-move",
                                      "convert",
                                      "comb-out",
                                      "east-wall",
                                      "caucasus-launch",
                                      "caucasus-send",
                                      "caucasus-refuse",
                                      "caucasus-recall",
                                      "caucasus-leave",
                                      "mansteins-gambit",
                                      "take-retreat",
                                      "support",
                                      "support-done",
                                      "bulgaria-exit",
                                      "bulgaria-return",
                                      "overstack-remove",
                                      "bb-loss",
                                      "attach"};
constexpr const char* kSupportNames[] = {"", "artillery", "air-army", "interceptor", "partisans", "airborne"};
constexpr const char* kOrderNames[] = {"none", "move-fight", "fight-move", "fight-fight"};

steppe::Error rerr(const char* rule, std::string msg) { return steppe::Error{std::move(msg), rule, ""}; }

int ceil_div(int a, int b) { return (a + b - 1) / b; }

}  // namespace

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
  if (!own_graph_) own_graph_ = std::make_shared<const SupplyGraph>(build_supply_graph(*map_, data_->places));
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
    if (d.type == kCommunistSatelliteArmy) continue;  // 8.24-8.26: they arrive when triggered
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

// ======================================================================= 8.36-8.41 support markers

// Markers of that kind in the Soviet holding box on this turn: arrived (trrt.json) and not
// yet withdrawn (8.37 leaves at the start of GT8). A scenario starting later has them all.
int BdState::support_arrived(const char* marker) const {
  int n = 0;
  for (const auto& m : data_->markers)
    if (m.side == kSoviet && m.marker == marker && m.turn <= turn_ &&
        (m.withdrawn == 0 || turn_ < m.withdrawn))
      n += m.count;
  return n;
}

// How many markers of `kind` the Soviet may still commit in this phase (before looking at
// the battle): 0 when the phase, the phase order or the year forbids them.
int BdState::support_left(int kind) const {
  if (phase_side() != kSoviet || !is_assault_phase()) return 0;
  const int o = order_[kSoviet];
  // 8.36, 8.38: fight/move or fight/fight turns, and only the first PA phase of fight/fight;
  // 8.37, 8.40: fight/move turns only. Either way the Soviet Phase B.
  const bool first_pa = phase_ == kSovietB && (o == kFightMove || o == kFightFight);
  const bool fight_move = phase_ == kSovietB && o == kFightMove;
  switch (kind) {
    case kSupArtillery:
      return first_pa ? std::max(0, support_arrived("artillery-corps") - markers_.artillery_used) : 0;
    case kSupAirArmy:
      return first_pa ? std::max(0, support_arrived("air-army") - markers_.air_armies_used) : 0;
    case kSupInterceptor:
      return fight_move && support_arrived("vi-interceptor") > 0 &&
                     !(markers_.support_used & kSupportInterceptor)
                 ? 1
                 : 0;
    case kSupPartisans:  // 8.39: whatever the phase order
      return support_arrived("partisans") > 0 && !(markers_.support_used & kSupportPartisans) ? 1 : 0;
    case kSupAirborne: {  // 8.40: once in 1942 and once in 1943 (digest 9 item 19)
      const int y = ti().year;
      if (!fight_move || (y != 1942 && y != 1943) || support_arrived("airborne-assault") <= 0) return 0;
      return (markers_.airborne_years >> (y - 1942)) & 1u ? 0 : 1;
    }
    default:
      return 0;
  }
}

// Rifle, oversized rifle, shock, Guards, tank and Guards tank armies: the Soviet field
// armies (8.32's CM parents, BD-TB2; with others, 8.36/8.38's supported armies, BD-SM2).
static bool soviet_field_army(UnitType t) {
  switch (t) {
    case kRifleArmy:
    case kOversizedRifleArmy:
    case kShockArmy:
    case kGuardsArmy:
    case kTankArmy:
    case kGuardsTankArmy:
      return true;
    default:
      return false;
  }
}

// Ruling BD-SM2: the "army" 8.36 and 8.38 support is a counter of an army type (rifle,
// oversized, shock, Guards, tank, Guards tank, coastal, militia and the communist satellite
// armies); corps and groups are not armies.
bool BdState::support_army(int u) const {
  const UnitType t = def(u).type;
  return soviet_field_army(t) || t == kCoastalArmy || t == kMilitiaArmy || t == kCommunistSatelliteArmy;
}

Status BdState::check_support(int kind, int u) const {
  const Battle& b = battle_;
  if (pending_ != kPendSupport || !b.active || b.attacker != kSoviet || b.is_ma)
    return rerr("8.41",
                "support markers are committed to a Soviet prepared assault once the German has "
                "declared his Luftwaffe support (8.38)");
  static const char* rules[] = {"", "8.36", "8.38", "8.37", "8.39", "8.40"};
  if (kind < kSupArtillery || kind >= kNumSupportKinds) return rerr("8.41", "unknown support marker");
  const char* rule = rules[kind];
  if (support_left(kind) <= 0) {
    switch (kind) {
      case kSupArtillery:
      case kSupAirArmy:
        return rerr(rule, std::string(kind == kSupArtillery ? "no artillery corps" : "no air army") +
                              " left for this phase (fight/move or fight/fight turns, first prepared "
                              "assault phase only; each once per phase)");
      case kSupInterceptor:
        return rerr(rule,
                    "the VI Interceptor Corps is not available (GT6-7, fight/move turns, once per phase)");
      case kSupPartisans:
        return rerr(rule, "the partisans have been committed this phase or have not arrived");
      default:
        return rerr(rule,
                    "the airborne assault marker is not available (fight/move turns, once in 1942 and "
                    "once in 1943)");
    }
  }
  int idx = -1;
  if (kind == kSupArtillery || kind == kSupAirArmy) {
    for (int i = 0; i < b.natt; ++i)
      if (b.att[static_cast<size_t>(i)] == u) idx = i;
    if (u < 0 || u >= num_units() || idx < 0) return rerr(rule, "support goes to an army making this attack");
    if (!support_army(u)) return rerr(rule, def(u).label + " is not an army");
    const uint8_t bit = kind == kSupArtillery ? kBoostArtillery : kBoostAirArmy;
    if (b.boost[static_cast<size_t>(idx)] & bit)
      return rerr(rule, def(u).label + " already has " +
                            (kind == kSupArtillery ? "an artillery corps" : "an air army"));
  }
  const HexInfo& t = hx(b.target);
  switch (kind) {
    case kSupArtillery:
      if (def(u).type == kShockArmy) return rerr(rule, "shock armies may never be supported by artillery");
      if (unit_supply(u) != kSupOverland) return rerr(rule, def(u).label + " is not in overland supply");
      break;
    case kSupAirArmy:
      if (b.lw_defend) return rerr(rule, "no air army in a battle where a Luftwaffe marker is committed");
      break;
    case kSupInterceptor: {
      if (b.support & kSupportInterceptor) return rerr(rule, "already committed");
      const int moscow = data_->places.moscow;
      const int range = 5;  // 8.37: counted out from Moscow, the Moscow hex not counted
      bool in_range = moscow >= 0 && hex_distance(moscow, b.target) <= range;
      for (int i = 0; i < b.natt && in_range; ++i)
        in_range = hex_distance(moscow, unit(b.att[static_cast<size_t>(i)]).hex) <= range;
      if (!in_range) return rerr(rule, "the attackers and the target must all be within 5 hexes of Moscow");
      break;
    }
    case kSupPartisans:
      if (b.support & kSupportPartisans) return rerr(rule, "already committed");
      if (t.city || t.country != kUssr)
        return rerr(rule, "partisans support attacks on non-city hexes in the USSR");
      for (int i = 0; i < b.ndef; ++i)
        if (unit_supply(b.def[static_cast<size_t>(i)]) != kSupOverland)
          return rerr(rule, "partisans act only against defenders in overland supply");
      break;
    case kSupAirborne:
      if (b.support & kSupportAirborne) return rerr(rule, "already committed");
      if (t.city || t.country != kUssr)
        return rerr(rule, "airborne assaults go only into non-city hexes in the USSR");
      break;
    default:
      break;
  }
  return Status::ok();
}

bool BdState::any_support() const {
  for (int k = kSupArtillery; k < kNumSupportKinds; ++k) {
    if (support_left(k) <= 0) continue;
    if (k == kSupArtillery || k == kSupAirArmy) {
      for (int i = 0; i < battle_.natt; ++i)
        if (check_support(k, battle_.att[static_cast<size_t>(i)]).is_ok()) return true;
    } else if (check_support(k, -1).is_ok()) {
      return true;
    }
  }
  return false;
}

// 8.38: the German has declared his Luftwaffe support; now the Soviet commits his markers
// (all of them at this point: ruling BD-SM1).
bool BdState::enter_support() {
  if (battle_.attacker != kSoviet || battle_.is_ma) return false;
  pending_ = kPendSupport;
  if (any_support()) return true;
  pending_ = kPendNone;
  return false;
}

void BdState::apply_support(Battle& b, int kind, int u) const {
  if (kind == kSupArtillery || kind == kSupAirArmy) {
    for (int i = 0; i < b.natt; ++i)
      if (b.att[static_cast<size_t>(i)] == u)
        b.boost[static_cast<size_t>(i)] |= kind == kSupArtillery ? kBoostArtillery : kBoostAirArmy;
  } else {
    b.support |= kind == kSupInterceptor ? kSupportInterceptor
                 : kind == kSupPartisans ? kSupportPartisans
                                         : kSupportAirborne;
  }
}

// ======================================================================= 8.26 Bulgarian armies

Status BdState::check_bulgaria_exit(int u) const {
  if (pending_ != kPendNone) return rerr("8.26", "finish the pending decision first");
  if (!is_move_phase() || phase_side() != kSoviet)
    return rerr("8.26", "a Soviet unit moves off the map into Bulgaria in a Soviet movement phase");
  if (bulg_state_ != 0) return rerr("8.26", "the Bulgarian armies have already been called");
  if (u < 0 || u >= num_units() || def(u).side != kSoviet) return rerr("8.26", "not a Soviet unit");
  const UnitSt& s = unit(u);
  const auto& ex = data_->places.bulgarian_exits;
  if (s.where != kOnMap || std::find(ex.begin(), ex.end(), s.hex) == ex.end())
    return rerr("8.26", def(u).label + " is not in a Bulgarian south-edge hex (3215-3218)");
  if (def(u).cls == kStatic || (s.flags & (kFlagDone | kFlagNoMove | kFlagSeaMoved)))
    return rerr("10.2", def(u).label + " may not move now");
  if (s.mp >= 0 && std::find(movers_.begin(), movers_.end(), u) == movers_.end())
    return rerr("10.2", def(u).label + " already finished its move");
  const int left = mp_left(u);
  if (left < 1) return rerr("8.26", "moving off the map costs 1 MP");
  return Status::ok();
}

Status BdState::check_bulgaria_return(int hex) const {
  if (pending_ != kPendNone) return rerr("8.26", "finish the pending decision first");
  if (bulg_state_ != 1) return rerr("8.26", "no Soviet unit is waiting in Bulgaria");
  if (!is_move_phase() || phase_side() != kSoviet || turn_ <= bulg_exit_turn_)
    return rerr("8.26", "the unit returns with the Bulgarians in the next Soviet movement phase");
  const auto& ex = data_->places.bulgarian_exits;
  if (hex < 0 || hex >= kNumHexes || !hx(hex).on_map || std::find(ex.begin(), ex.end(), hex) == ex.end())
    return rerr("8.26", "they return through a Bulgarian south-edge hex (3215-3218)");
  if (enemy_in(hex, kSoviet)) return rerr("8.26", hex_id(hex) + " holds enemy units");
  std::vector<int> add{bulg_unit_};
  for (int x = 0; x < num_units(); ++x)
    if (bulgarian(x) && unit(x).where == kOutOfPlay) add.push_back(x);
  // 6.4 is waived for this entry (8.26), 6.3 is not.
  compute_occupancy();
  int count = cache_.occ_count[static_cast<size_t>(hex)];
  for (int x : add)
    if (!def(x).free_stacking()) ++count;
  if (count > data_->stacking.units_per_hex)
    return rerr("6.3", "hex " + hex_id(hex) + " would hold " + std::to_string(count) + " units");
  return Status::ok();
}

// The return is made in the first Soviet movement phase after the exit, if a hex allows it.
bool BdState::bulgaria_return_due() const {
  if (bulg_state_ != 1 || !is_move_phase() || phase_side() != kSoviet || turn_ <= bulg_exit_turn_)
    return false;
  for (int h : data_->places.bulgarian_exits)
    if (check_bulgaria_return(h).is_ok()) return true;
  return false;
}

bool BdState::bulgaria_overstacked() const {
  if (bulg_hex_ < 0) return false;
  compute_occupancy();
  return cache_.occ_sats[static_cast<size_t>(bulg_hex_)] > data_->stacking.satellite_armies_per_hex;
}

void BdState::log(const std::string& kind, const std::string& text, const std::string& rule,
                  uint32_t vis) const {
  if (sink_ == nullptr) return;
  steppe::Event e;
  e.kind = kind;
  e.text = text;
  e.rule = rule;
  e.visible_to = vis;
  emit(std::move(e));
}

bool BdState::german_sees(int u) const {
  if (def(u).side == kGerman) return true;
  const UnitSt& s = unit(u);
  if (s.where == kDead || s.where == kDeadPerm || s.where == kCaucasus) return true;
  if (s.where != kOnMap) return false;  // 11.7 the RVGK and the Turn Record Track are hidden
  if (s.flags & kFlagRevealed) return true;
  for (int v = 0; v < num_units(); ++v)
    if (v != u && unit(v).where == kOnMap && unit(v).hex == s.hex && unit(v).order < s.order) return false;
  return true;
}

void BdState::log_seen(int u, const std::string& kind, const std::string& text,
                       const std::string& german_text, const std::string& rule) const {
  if (sink_ == nullptr) return;  // searches log nothing: no need to look at the stack
  if (german_sees(u))
    log(kind, text, rule);
  else
    log_fog(kind, text, german_text, rule);
}

void BdState::log_fog(const std::string& kind, const std::string& text, const std::string& german_text,
                      const std::string& rule) const {
  log(kind, text, rule, 1u << kSoviet);
  if (!german_text.empty()) log(kind, german_text, rule, 1u << kGerman);
}

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
  // 4.3: capturing a Hero City is worth 2 (marker removed); losing a Fortress City costs 2.
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
  if (side == kGerman && hex == data_->places.moscow && !moscow_rolled_ &&
      scenario_id_ != "empty-no-moscow") {
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
bool BdState::vp_schedule() const {
  return scenario_id_ == "grand-campaign" || scenario_id_ == "road-back" || scenario_id_ == "empty";
}

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
      (scenario_id_ == "mansteins-gambit" && turn_ == first_turn_) || (mg_ && turn_ == summer_turn_);
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

// ----------------------------------------------------------------- 4.10 / 8.17 2nd SS Panzer Corps

int BdState::ss_unit() const {
  const std::string& l = data_->victory.ss_unit;
  if (l.empty()) return -1;
  const int u = data_->find_unit(l);
  return u >= 0 && u < num_units() ? u : -1;
}

// The withdrawals belong to the VP schedule's scenarios (ruling BD-V1): the short 1943
// scenarios that include GT19 start on it or replace the schedule (14.x, 4.17).
bool BdState::ss_schedule() const { return vp_schedule() && ss_unit() >= 0 && !mg_; }  // 8.17 MG note

// 8.17: picked up if in regular overland supply, or taken from the dead pile.
bool BdState::ss_can_withdraw() const {
  const int u = ss_unit();
  if (u < 0) return false;
  const UnitSt& s = unit(u);
  return s.where == kDead || (s.where == kOnMap && unit_supply(u) == kSupOverland);
}

void BdState::ss_withdraw(const char* how) {
  const int u = ss_unit();
  const VictoryRules& vr = data_->victory;
  const size_t i = static_cast<size_t>(std::max<int>(0, ss_cycle_));
  UnitSt& s = units_[static_cast<size_t>(u)];
  s.where = kTrrt;
  s.turn = static_cast<int8_t>(i < vr.ss_returns.size() ? vr.ss_returns[i] : 33);
  s.hex = -1;
  s.mp = -1;
  s.flags = 0;
  ss_done_ = static_cast<uint8_t>(ss_done_ | (1u << i));
  ss_due_ = 0;
  mark_dirty();
  log("withdraw", label(u) + " " + how + ": back on GT" + std::to_string(s.turn), "8.17");
}

// Start of a game turn: a withdrawal falls due on GT19 / GT25; a delayed one lapses when
// the corps is due back anyway (ruling BD-V6).
void BdState::ss_turn_start() {
  if (!ss_schedule()) return;
  const VictoryRules& vr = data_->victory;
  for (size_t i = 0; i < vr.ss_returns.size(); ++i)
    if (turn_ == vr.ss_returns[i] && ss_due_ != 0 && ss_cycle_ == static_cast<int>(i)) {
      ss_due_ = 0;
      log("withdraw", label(ss_unit()) + ": the delayed withdrawal lapses, the corps is due back now",
          "8.17");
    }
  // A corps out of play (a forfeited reinforcement, 8.1) or permanently eliminated has
  // nothing to withdraw (ruling BD-V6).
  const int where = unit(ss_unit()).where;
  if (where == kOutOfPlay || where == kDeadPerm) return;
  for (size_t i = 0; i < vr.ss_turns.size() && i < 8; ++i) {
    if (turn_ != vr.ss_turns[i] || ((ss_done_ | ss_failed_) >> i) & 1u) continue;
    ss_due_ = 1;
    ss_cycle_ = static_cast<int8_t>(i);
    log("withdraw",
        label(ss_unit()) + " is called on to be withdrawn (withdraw " + label(ss_unit()) +
            " | decline-withdrawal)",
        "8.17");
  }
}

// 8.17: "delayed until such time as it is either in the dead pile or back in regular
// overland supply", looked at from the start of every phase (ruling BD-V6).
void BdState::ss_delayed_check() {
  if (ss_due_ == 2 && phase_ != kGameOver && ss_can_withdraw()) ss_withdraw("withdrawn (delayed withdrawal)");
}

// 4.10: a withdrawal not made during its own game turn costs its VP, once.
void BdState::ss_turn_end() {
  if (!ss_schedule() || ss_due_ == 0 || ss_cycle_ < 0) return;
  ss_delayed_check();
  const VictoryRules& vr = data_->victory;
  const size_t i = static_cast<size_t>(ss_cycle_);
  if (ss_due_ == 0 || i >= vr.ss_turns.size() || turn_ != vr.ss_turns[i] || ((ss_failed_ >> i) & 1u)) return;
  ss_due_ = 2;
  ss_failed_ = static_cast<uint8_t>(ss_failed_ | (1u << i));
  vp_ += vr.ss_vp;
  vp_events_ += vr.ss_vp;
  log("vp",
      label(ss_unit()) + " could not be withdrawn on GT" + std::to_string(turn_) + ": German VP " +
          std::to_string(vr.ss_vp) + ", now " + std::to_string(vp_),
      "4.10");
}

// ----------------------------------------------------------------- 4.11-4.13 Caucasus expedition

// The Grand Campaign and the scenarios that continue or contain it (4.11; 13.4 names the
// expedition in Operations Blue & Kremlin; the Road Back starts with one under way, 12.9).
bool BdState::caucasus_scenario() const { return vp_schedule() || scenario_id_ == "blue-kremlin"; }

bool BdState::caucasus_exit(int hex) const {
  const auto& ex = data_->victory.caucasus_exits;
  return std::find(ex.begin(), ex.end(), hex) != ex.end();
}

// 4.11: Maikop, Dnepropetrovsk and Rostov German-controlled, in overland supply, with no
// Soviet unit in any hex adjacent to them.
bool BdState::caucasus_launch_condition() const {
  const auto& hexes = data_->victory.caucasus_launch_hexes;
  if (hexes.empty()) return false;
  for (int h : hexes) {
    if (h < 0 || hex_.control[static_cast<size_t>(h)] != kGerman || !overland(h, kGerman)) return false;
    for (int d = 0; d < 6; ++d) {
      const int n = neighbour(h, d);
      if (n >= 0 && occupant_side(n) == kSoviet) return false;
    }
  }
  return true;
}

bool BdState::german_in_caucasus() const {
  for (int u = 0; u < num_units(); ++u)
    if (unit(u).where == kCaucasus && def(u).side == kGerman) return true;
  return false;
}

// 4.12: a rifle army (ordinary, shock or guards: ruling BD-V7) from the RVGK, or from the
// map in overland supply.
bool BdState::caucasus_responder(int u) const {
  const UnitDef& d = def(u);
  const auto& types = data_->victory.caucasus_response_types;
  if (d.side != kSoviet || std::find(types.begin(), types.end(), d.type) == types.end()) return false;
  const UnitSt& s = unit(u);
  return s.where == kRvgk || (s.where == kOnMap && unit_supply(u) == kSupOverland);
}

int BdState::caucasus_responders() const {
  int n = 0;
  for (int u = 0; u < num_units(); ++u) n += caucasus_responder(u) ? 1 : 0;
  return n;
}

// 4.13: the instant the Soviet controls Rostov or Dnepropetrovsk, or occupies all five exit
// hexes at once, the German units in the box go to the dead pile.
void BdState::caucasus_defeat_check() {
  if ((cauc_ != kCaucInBox && cauc_ != kCaucBrokeThrough) || phase_ == kGameOver) return;
  const Places& pl = data_->places;
  std::string why;
  for (int h : {pl.rostov, pl.dnepropetrovsk})
    if (h >= 0 && hex_.control[static_cast<size_t>(h)] == kSoviet) why = "the Soviet controls " + hex_id(h);
  if (why.empty()) {
    const auto& ex = data_->victory.caucasus_exits;
    bool all = !ex.empty();
    for (int h : ex) all = all && h >= 0 && occupant_side(h) == kSoviet;
    if (all) why = "Soviet units occupy all five exit hexes";
  }
  if (why.empty()) return;
  cauc_ = kCaucDefeated;
  log("victory", "the Caucasus expedition is defeated: " + why, "4.13");
  for (int u = 0; u < num_units(); ++u)
    if (unit(u).where == kCaucasus && def(u).side == kGerman) eliminate(u, "4.13");
}

// 4.13: in each Victory Check Phase from the departure's turn, the breakthrough roll (+1 with
// Stalingrad German in overland supply); after it, d6 VP and then +1 VP each later phase.
void BdState::caucasus_victory_phase() {
  if ((cauc_ != kCaucInBox && cauc_ != kCaucBrokeThrough) || cauc_rolled_ >= turn_) return;
  const VictoryRules& vr = data_->victory;
  const bool broke_before = cauc_ == kCaucBrokeThrough;
  cauc_rolled_ = static_cast<int8_t>(turn_);
  int award = 0;
  if (broke_before) {
    award = vr.caucasus_per_turn_vp;
    log("vp", "the Caucasus expedition holds the oil region", "4.13");
  } else {
    const int st = vr.caucasus_stalingrad;
    const int mod = st >= 0 && hex_.control[static_cast<size_t>(st)] == kGerman && overland(st, kGerman)
                        ? vr.caucasus_stalingrad_mod
                        : 0;
    const int die = roll(6, "Caucasus breakthrough roll", "4.13");
    const bool through = die + mod >= vr.caucasus_breakthrough_at;
    log("victory",
        "Caucasus breakthrough roll " + std::to_string(die) + (mod != 0 ? " + " + std::to_string(mod) : "") +
            (through ? ": the expedition breaks through to the Trans-Caucasus oil" : ": nothing happens"),
        "4.13");
    if (!through) return;
    cauc_ = kCaucBrokeThrough;
    award = roll_vp(vr.caucasus_award, "Caucasus oil VP roll", "4.13");
  }
  if (!vp_schedule() || award == 0) return;  // ruling BD-V1: VP only where the chart decides
  vp_ += award;
  vp_events_ += award;
  log("vp", "Caucasus oil: German VP +" + std::to_string(award) + ", now " + std::to_string(vp_), "4.13");
}

Status BdState::check_caucasus(const Action& a) const {
  const VictoryRules& vr = data_->victory;
  auto unit_ok = [&](int i) { return i < a.nargs && a.args[i] >= 0 && a.args[i] < num_units(); };
  const bool german_move = phase_side() == kGerman && is_move_phase() && pending_ == kPendNone;
  switch (a.verb) {
    case kCaucasusLaunch: {
      if (!caucasus_scenario()) return rerr("4.11", "no Caucasus expedition in this scenario");
      if (cauc_ != kCaucNone) return rerr("4.13", "only one Caucasus expedition per game");
      if (!german_move) return rerr("4.11", "an expedition leaves the map in a German movement phase");
      if (!cauc_open_)
        return rerr("4.11",
                    "at the start of this game turn the German did not control Maikop, Dnepropetrovsk and "
                    "Rostov in overland supply with no Soviet unit adjacent");
      if (a.nargs != vr.caucasus_infantry + vr.caucasus_panzer)
        return rerr("4.11", "the expedition is " + std::to_string(vr.caucasus_infantry) +
                                " infantry or mountain corps and " + std::to_string(vr.caucasus_panzer) +
                                " panzer corps, all at once");
      int inf = 0, pz = 0;
      for (int i = 0; i < a.nargs; ++i) {
        if (!unit_ok(i)) return rerr("4.11", "unknown unit");
        for (int j = 0; j < i; ++j)
          if (a.args[j] == a.args[i]) return rerr("4.11", "a unit is listed twice");
        const int u = a.args[i];
        const UnitDef& d = def(u);
        if (d.side != kGerman || d.nation != "german")
          return rerr("4.11", d.label + " is not a German (non-satellite) unit");
        if (unit(u).where != kOnMap || !caucasus_exit(unit(u).hex))
          return rerr("4.11", d.label + " is not in one of the exit hexes 3200-3204");
        const auto& it = vr.caucasus_infantry_types;
        const auto& pt = vr.caucasus_panzer_types;
        if (std::find(it.begin(), it.end(), d.type) != it.end())
          ++inf;
        else if (std::find(pt.begin(), pt.end(), d.type) != pt.end())
          ++pz;
        else
          return rerr("4.11", d.label + " is neither an infantry/mountain corps nor a panzer corps");
      }
      if (inf != vr.caucasus_infantry || pz != vr.caucasus_panzer)
        return rerr("4.11", "the expedition is " + std::to_string(vr.caucasus_infantry) +
                                " infantry or mountain corps and " + std::to_string(vr.caucasus_panzer) +
                                " panzer corps");
      return Status::ok();
    }
    case kCaucasusSend:
    case kCaucasusRefuse:
      return rerr("4.12", "no Caucasus expedition is waiting for the Soviet response");
    case kCaucasusRecall: {
      if (cauc_ == kCaucBrokeThrough)
        return rerr("4.13", "after its breakthrough the expedition garrisons the oil region for good");
      if (cauc_ != kCaucInBox) return rerr("4.13", "no expedition in the Caucasus box");
      if (!german_move) return rerr("4.13", "an expedition is recalled in a German movement phase");
      if (turn_ <= cauc_turn_)
        return rerr("4.13", "an expedition is recalled only in a later movement phase than its departure");
      if (a.nargs % 2 != 0 || a.nargs == 0) return rerr("4.13", "caucasus-recall <unit> <hex>...");
      std::vector<int> in_box;
      for (int u = 0; u < num_units(); ++u)
        if (unit(u).where == kCaucasus && def(u).side == kGerman) in_box.push_back(u);
      if (static_cast<size_t>(a.nargs / 2) != in_box.size())
        return rerr("4.13", "the whole expedition comes out at once (all in, all out)");
      std::vector<int> listed;
      for (int i = 0; i < a.nargs; i += 2) {
        if (!unit_ok(i)) return rerr("4.13", "unknown unit");
        const int u = a.args[i], h = a.args[i + 1];
        if (unit(u).where != kCaucasus || def(u).side != kGerman)
          return rerr("4.13", def(u).label + " is not in the expedition");
        if (std::find(listed.begin(), listed.end(), u) != listed.end())
          return rerr("4.13", def(u).label + " is listed twice");
        listed.push_back(u);
        if (!caucasus_exit(h))
          return rerr("4.13", "the expedition re-enters through the exit hexes 3200-3204");
        if (enemy_in(h, kGerman)) return rerr("4.13", hex_id(h) + " is occupied by Soviet units");
      }
      for (int i = 1; i < a.nargs; i += 2) {
        std::vector<int> add;
        for (int j = 0; j < a.nargs; j += 2)
          if (a.args[j + 1] == a.args[i]) add.push_back(a.args[j]);
        if (auto st = stacking_ok(a.args[i], kGerman, add); !st) return st;
      }
      return Status::ok();
    }
    case kCaucasusLeave: {
      if (!unit_ok(0) || a.nargs != 2) return rerr("4.13", "caucasus-leave <unit> <hex>");
      const int u = a.args[0], h = a.args[1];
      if (unit(u).where != kCaucasus || def(u).side != kSoviet)
        return rerr("4.13", def(u).label + " is not a Soviet unit in the Caucasus box");
      if (german_in_caucasus())
        return rerr("4.13", "the Soviet units stay while the expedition is in the box");
      if (!(phase_side() == kSoviet && is_move_phase() && pending_ == kPendNone))
        return rerr("4.13", "units leave the Caucasus box in a Soviet movement phase");
      if (!caucasus_exit(h))
        return rerr("4.13", "units leave the Caucasus box through the exit hexes 3200-3204");
      if (enemy_in(h, kSoviet)) return rerr("4.13", hex_id(h) + " is occupied by German units");
      std::vector<int> add{u};
      return stacking_ok(h, kSoviet, add);
    }
    default:
      return rerr("", "not a Caucasus action");
  }
}

// ----------------------------------------------------------------- 4.16 / 4.17 Manstein's Gambit

// 4.17: the three "MG" counters arrive on the first turn of the offensive; 2nd SS and 3rd
// SS Panzer Corps are pulled ahead from their later TRRT boxes (the 8.17 schedule is
// overturned); German replacements are 2/2 for its turns.
void BdState::mg_start() {
  const VictoryRules& vr = data_->victory;
  for (const auto& l : vr.mg_units) {
    const int u = data_->find_unit(l);
    if (u < 0 || u >= num_units()) continue;
    UnitSt& s = units_[static_cast<size_t>(u)];
    if (s.where != kOutOfPlay && s.where != kTrrt) continue;
    s.where = kTrrt;
    s.turn = static_cast<int8_t>(turn_);
    log("reinforcement", l + " arrives for Manstein's Gambit", "4.17", 1u << kGerman);  // 11.7 the TRRT
  }
  for (const auto& [l, box] : vr.mg_early) {
    const int u = data_->find_unit(l);
    if (u < 0 || u >= num_units()) continue;
    UnitSt& s = units_[static_cast<size_t>(u)];
    if (s.where != kTrrt || s.turn != box) continue;
    s.turn = static_cast<int8_t>(turn_);
    log("reinforcement", l + " is pulled ahead from the GT" + std::to_string(box) + " box", "4.17",
        1u << kGerman);  // 11.7 the Soviet may not examine the German TRRT
  }
  if (ss_due_ != 0) {
    ss_due_ = 0;
    log("withdraw", label(ss_unit()) + ": Manstein's Gambit overturns its withdrawal", "8.17");
  }
  mg_replacements();
}

void BdState::mg_replacements() {
  const VictoryRules& vr = data_->victory;
  if (!mg_ || turn_ > vr.mg_end_turn) return;
  // Steps already taken this turn count against the new allowance.
  const int used_m = ti().repl[kGerman][kMech] - repl_left_mech_[kGerman];
  const int used_n = ti().repl[kGerman][kNonMech] - repl_left_non_[kGerman];
  repl_left_mech_[kGerman] = static_cast<int8_t>(std::max(0, vr.mg_repl_mech - std::max(0, used_m)));
  repl_left_non_[kGerman] = static_cast<int8_t>(std::max(0, vr.mg_repl_non - std::max(0, used_n)));
}

// 4.16: at the end of GT20 the German wins if he controls every VP hex that was his at the
// start of GT1 (3.6: the 14 VP of 4.2) and two of Leningrad, Moscow, Kiev, Stalingrad.
bool BdState::mg_victory_check() {
  const VictoryRules& vr = data_->victory;
  std::string lost;
  int start = 0;
  for (int h = 0; h < kNumHexes; ++h) {
    if (!hx(h).vp || !hx(h).on_map || start_control_3_6(hx(h)) != kGerman) continue;
    ++start;
    if (hex_.control[static_cast<size_t>(h)] != kGerman) lost += (lost.empty() ? "" : " ") + hex_id(h);
  }
  int big = 0;
  for (int h : vr.mg_cities)
    if (h >= 0 && hex_.control[static_cast<size_t>(h)] == kGerman) ++big;
  const std::string why = std::to_string(start) + " GT1 VP hexes" +
                          (lost.empty() ? " all held" : ", lost " + lost) + ", " + std::to_string(big) +
                          " of Leningrad, Moscow, Kiev, Stalingrad";
  if (lost.empty() && big >= vr.mg_cities_needed)
    end_game(kGerman, "Manstein's Gambit succeeds: " + why, "4.16");
  else
    end_game(kSoviet, "Manstein's Gambit fails: " + why, "4.16");
  return true;
}

void BdState::end_game(int winner, const std::string& why, const std::string& rule) {
  winner_ = winner;
  end_reason_ = why;
  phase_ = kGameOver;
  pending_ = kPendNone;
  battle_.active = 0;
  log("victory", std::string(side_name(winner)) + " wins: " + why, rule);
}

void BdState::place(int u, int hex, bool setting_up) {
  UnitSt& s = units_[static_cast<size_t>(u)];
  s.where = kOnMap;
  s.hex = static_cast<int16_t>(hex);
  s.order = next_order_++;
  s.flags = static_cast<uint16_t>(s.flags & ~kFlagRevealed);
  mark_dirty();
  carry_attached(u);
  if (hex_.control[static_cast<size_t>(hex)] == def(u).side) {
    if (def(u).side == kSoviet && !setting_up) caucasus_defeat_check();  // 4.13
    return;
  }
  if (setting_up) {
    // 3.6 a unit controls its own hex, but a set-up placement is the start position, not
    // a capture: the scenario states its opening VP (3.2, 12.3), so no VP and no 4.3/4.15.
    hex_.control[static_cast<size_t>(hex)] = def(u).side;
    log("control", std::string(side_name(def(u).side)) + " sets up in " + hex_id(hex) + " and controls it",
        "3.6", def(u).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);  // as the set-up itself (11.7)
    return;
  }
  set_control(hex, def(u).side);
  if (def(u).side == kSoviet) caucasus_defeat_check();  // 4.13 all five exit hexes occupied
}

void BdState::move_to(int u, int hex) {
  UnitSt& s = units_[static_cast<size_t>(u)];
  s.hex = static_cast<int16_t>(hex);
  s.order = next_order_++;
  s.flags = static_cast<uint16_t>(s.flags & ~kFlagRevealed);
  mark_dirty();
  carry_attached(u);
  if (hex_.control[static_cast<size_t>(hex)] != def(u).side) set_control(hex, def(u).side);
  if (def(u).side == kSoviet) caucasus_defeat_check();  // 4.13 all five exit hexes occupied
}

// ======================================================================= 8.31, 8.32 TB / CM attachment

// 8.31 "atop any German corps ... the TB may not be directly attached to any Axis satellite
// army"; 8.32 "atop any Soviet army ... not ... any Communist satellite army". Ruling
// BD-TB2: a German "corps" is any German (not satellite) combat counter that moves and
// attacks: corps, Korps-/Kampfgruppen, emergency units, army detachments, groups; not the
// fortress and coastal commands. A Soviet "army" is a rifle, oversized, shock, Guards, tank
// or Guards tank army; not the ICA (it only switches ports), the LPMA (static) or the
// communist satellite armies.
bool BdState::eligible_parent(int s, int p) const {
  if (p < 0 || p >= num_units() || p == s || is_attachable(p)) return false;
  const UnitDef& d = def(p);
  if (d.side != def(s).side) return false;
  if (def(s).type == kTigerBattalion)
    return d.side == kGerman && !d.axis_satellite() && !d.satellite_army() && d.cls != kStatic &&
           d.type != kFortressCommand && d.type != kCoastalCommand && d.attack != 0;
  return soviet_field_army(d.type);
}

void BdState::attach(int s, int p) {
  UnitSt& st = units_[static_cast<size_t>(s)];
  st.parent = static_cast<int16_t>(p);
  st.where = kOnMap;
  st.hex = unit(p).hex;
  st.order = next_order_++;
  st.mp = -1;
  st.start_hex = unit(p).start_hex;
  mark_dirty();
}

// 8.31, 8.32: "TB always move with their supported corps": whatever moves or places the
// parent (a move, retreat, advance, mobile assault, sea or strategic move) brings it along.
void BdState::carry_attached(int p) {
  const int c = attached_of(p);
  if (c < 0) return;
  UnitSt& cs = units_[static_cast<size_t>(c)];
  if (cs.where == kOnMap && cs.hex == unit(p).hex) return;
  cs.where = kOnMap;
  cs.hex = unit(p).hex;
  cs.order = next_order_++;
  cs.flags = static_cast<uint16_t>(cs.flags & ~kFlagRevealed);
  mark_dirty();
}

// Ruling BD-TB3: where the rules place a TB / CM in a hex without naming its parent (a
// scenario's fixed or free set-up "atop any corps in the hex", ruling BD-TB1), it goes atop
// the eligible unit of the hex that has none: a mechanized one first (8.31, 8.32: it may then
// take part in mobile assaults), then the highest attack factor, then the top of the stack.
int BdState::default_parent(int s, int hex) const {
  if (hex < 0) return -1;
  int best = -1;
  for (int x = 0; x < num_units(); ++x) {
    if (unit(x).where != kOnMap || unit(x).hex != hex || !eligible_parent(s, x)) continue;
    if (const int c = attached_of(x); c >= 0 && c != s) continue;
    if (best < 0) {
      best = x;
      continue;
    }
    const UnitDef &a = def(x), &b = def(best);
    const int ka = a.cls == kMech ? 1 : 0, kb = b.cls == kMech ? 1 : 0;
    if (ka != kb ? ka > kb : a.attack != b.attack ? a.attack > b.attack : unit(x).order < unit(best).order)
      best = x;
  }
  return best;
}

void BdState::repoint_attached(int from, int to) {
  for (auto& st : units_)
    if (st.parent == from) st.parent = static_cast<int16_t>(to);
  mark_dirty();
}

// Ruling BD-TB1: a parent that leaves the map without being eliminated (withdrawn, into
// the Caucasus box, converted away) leaves its TB / CM behind: it goes atop another
// eligible unit of the hex that has none (ruling BD-TB3 picks which); if there is none it
// returns to the TRRT and arrives again next game turn (8.31, 8.32 arrival placement). A CM
// whose army goes into the RVGK goes into the RVGK with it (8.32: CM transfer via the RVGK).
// A TB or CM placed without a parent (scenario tests) is treated the same way.
void BdState::orphan_check() {
  for (int s = 0; s < num_units(); ++s) {
    if (!is_attachable(s)) continue;
    UnitSt& st = units_[static_cast<size_t>(s)];
    if (st.where != kOnMap) {
      st.parent = -1;
      continue;
    }
    const int p = st.parent;
    if (p >= 0 && unit(p).where == kOnMap && eligible_parent(s, p)) {
      if (unit(p).hex != st.hex) carry_attached(p);
      continue;
    }
    const char* rule = attach_rule(s);
    if (p >= 0 && def(s).type == kCmGroup && unit(p).where == kRvgk) {
      st.where = kRvgk;
      st.hex = -1;
      st.parent = -1;
      st.flags |= kFlagDone;  // 8.9 not out again in the same phase
      mark_dirty();
      log("rvgk", label(s) + " goes into the RVGK with " + label(p), "8.32", 1u << kSoviet);
      continue;
    }
    const int to = default_parent(s, st.hex);
    if (to >= 0) {
      st.parent = static_cast<int16_t>(to);
      mark_dirty();
      log("attach",
          label(s) + (p >= 0 ? " loses " + label(p) + " and" : "") + " goes atop " + label(to) +
              " (ruling BD-TB1)",
          rule, def(s).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
      continue;
    }
    st.where = turn_ < last_turn_ ? kTrrt : kOutOfPlay;
    st.turn = static_cast<int8_t>(turn_ + 1);
    st.hex = -1;
    st.parent = -1;
    mark_dirty();
    log("attach",
        label(s) + " has no " + (def(s).type == kCmGroup ? "army" : "corps") + " to stay with: " +
            (st.where == kTrrt ? "back to the TRRT, arrives next turn" : "out of play") + " (ruling BD-TB1)",
        rule);
  }
}

// 8.31, 8.32: an eliminated replaceable TB / CM returns d6 turns later as a reinforcement,
// or never if that is past the end of the scenario.
void BdState::support_lost(int s) {
  UnitSt& st = units_[static_cast<size_t>(s)];
  const char* rule = attach_rule(s);
  const int r = roll(6, label(s) + " return delay", rule);
  if (turn_ + r > last_turn_) {
    st.where = kDeadPerm;
    log("eliminate",
        label(s) + " would return on Game Turn " + std::to_string(turn_ + r) +
            ", after the end of the scenario: permanently eliminated",
        rule);
    return;
  }
  st.where = kTrrt;
  st.turn = static_cast<int8_t>(turn_ + r);
  log("reinforcement", label(s) + " returns as a reinforcement on Game Turn " + std::to_string(turn_ + r),
      rule);
}

Status BdState::check_attach(int s, int p) const {
  if (s < 0 || s >= num_units() || !is_attachable(s))
    return rerr("8.31", "attach <TB|CM> <corps|army>: only Tiger battalions and CM groups are attached");
  const UnitDef& d = def(s);
  const char* rule = attach_rule(s);
  const bool cm = d.type == kCmGroup;
  if (p < 0 || p >= num_units()) return rerr(rule, "unknown unit");
  if (!eligible_parent(s, p))
    return rerr(rule, def(p).label + " is not " +
                          (cm ? "a Soviet army (never a communist satellite army)"
                              : "a German corps (never an Axis satellite army)"));
  const UnitSt& ps = unit(p);
  if (ps.where != kOnMap) return rerr(rule, def(p).label + " is not on the map");
  const UnitSt& st = unit(s);
  if (st.parent == p && st.where == kOnMap) return rerr(rule, d.label + " is already atop " + def(p).label);
  compute_occupancy();
  const int there =
      cache_.occ_sup[static_cast<size_t>(ps.hex)] - (st.where == kOnMap && st.hex == ps.hex ? 1 : 0);
  if (there > 0)
    return rerr(rule, hex_id(ps.hex) + std::string(" already holds a ") +
                          (cm ? "CM group" : "Tiger battalion") + " (never more than one per stack)");
  const int side = d.side;
  const bool admin =
      (side == kGerman && phase_ == kAdminGerman) || (side == kSoviet && phase_ == kAdminSoviet);
  if (st.where == kTrrt) {  // arrival
    if (!admin) return rerr("5.2", "reinforcements arrive in the owner's administrative segment");
    if (st.turn > turn_) return rerr("8.1", d.label + " is not a reinforcement due now");
    if (unit_supply(p) != kSupOverland)
      return rerr(rule, def(p).label + " is not in overland supply: " + d.label + " arrives atop a " +
                            (cm ? "Soviet army" : "German corps") + " then in overland supply");
    return Status::ok();
  }
  if (!cm && st.where == kOnMap && phase_ == kGermanStrategic) {  // 8.31 via strategic movement (8.6)
    if (st.flags & kFlagDone) return rerr("8.6", d.label + " already moved strategically");
    const int from = st.hex;
    if (!hx(from).city || hex_.control[static_cast<size_t>(from)] != kGerman || !overland(from, kGerman))
      return rerr("8.6", "strategic movement starts in a German-controlled city with overland supply");
    if (strat_used_ + strategic_cost(s) > 8)
      return rerr("8.7", "8 strategic movement units per player turn (mech 2, satellite army 4)");
    if (ps.hex != from) {
      std::vector<uint8_t> ok;
      strategic_reach(s, ok);
      if (!ok[static_cast<size_t>(ps.hex)])
        return rerr("8.6", "no strategic route to " + hex_id(ps.hex) +
                               " (not adjacent to the enemy except at its ends)");
    }
    return Status::ok();
  }
  if (cm && st.where == kRvgk && phase_ == kSovietRvgk) {  // 8.32 via the RVGK
    if (rvgk_moves_ >= 5) return rerr("8.9", "5 units per RVGK Phase");
    if (st.flags & kFlagDone) return rerr("8.9", "no unit goes in and out in the same phase");
    if (unit_supply(p) != kSupOverland) return rerr("8.32", def(p).label + " is not in overland supply");
    return Status::ok();
  }
  if (st.where == kOnMap)
    return rerr(rule,
                cm ? d.label + " changes army only through the RVGK (rvgk-in " + d.label +
                         ", then attach it in a later RVGK Phase)"
                   : d.label + " changes corps only by strategic movement (German Strategic Movement Phase)");
  return rerr(rule, d.label + " is not a reinforcement due now");
}

// 2.5/8.12 dotted units never return; 8.22 oversized armies eliminated GT1-3 are replaced
// by their regular counterpart in the dead pile; 8.14 from GT28 German units eliminated
// out of overland supply are permanently gone.
void BdState::eliminate(int u, const char* rule) {
  UnitSt& s = units_[static_cast<size_t>(u)];
  const UnitDef& d = def(u);
  if (is_attachable(u) && s.where != kOnMap) return;  // 8.31, 8.32 already gone with its parent
  const bool was_on_map = s.where == kOnMap;
  const int child = was_on_map ? attached_of(u) : -1;
  int sup = was_on_map ? unit_supply(u) : kSupOverland;
  bool permanent = d.dotted;
  if (d.side == kGerman && turn_ >= 28 && sup != kSupOverland) permanent = true;
  if (d.type == kFortressCommand || d.type == kMilitiaArmy || d.type == kCounterFireCorps ||
      d.type == kCavalryGroup)
    permanent = true;
  s.where = permanent ? kDeadPerm : kDead;
  s.hex = -1;
  s.mp = -1;
  s.parent = -1;
  mark_dirty();
  if (d.returns_once && !permanent) returns_once(u, sup);  // 8.15
  if (d.side == kSoviet)                                   // 4.19: printed CF above 3 counts as two units
    soviet_losses_ = static_cast<int16_t>(
        soviet_losses_ + (std::max(d.attack, d.defense) > data_->victory.oder_big_cf ? 2 : 1));
  if (sink_ != nullptr) {
    steppe::Event e;
    e.kind = "eliminate";
    e.text =
        std::string(side_name(d.side)) + " " + d.label + " eliminated" + (permanent ? " permanently" : "");
    e.rule = rule;
    // For the losses plot: one unit, one step (every unit has one step, 2.12).
    e.data = Json{{"loss", {{"side", side_name(d.side)}, {"units", 1}, {"steps", 1}}}};
    emit(std::move(e));
  }
  // 14.10: every five Soviet units eliminated while out of supply count as one city taken.
  if (d.side == kSoviet && was_on_map && sup == kSupOos && sparam("oos_kills_per_city") > 0) {
    ++oos_kills_;
    log("victory",
        d.label + " was out of supply: Soviet units eliminated out of supply " + std::to_string(oos_kills_),
        "14.10");
  }
  if (d.type == kOversizedRifleArmy && turn_ <= 3 && d.counterpart >= 0) {  // 8.22
    s.where = kDeadPerm;
    units_[static_cast<size_t>(d.counterpart)].where = kDead;
  }
  if (d.type == kTankArmy && d.counterpart >= 0) guards_tank_conversions();  // 8.19 a waiting conversion
  if (is_attachable(u) && !permanent) support_lost(u);                       // 8.31, 8.32 the d6 return
  if (child >= 0) {  // 8.31, 8.32: "attached TB share the fate of their parent corps"
    log("eliminate", label(child) + " shares the fate of " + d.label, attach_rule(child));
    eliminate(child, attach_rule(child));
  }
}

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

// ======================================================================= movement (10.x)

// 2.11 MF from the TRRT by side and class; 7.16 halved out of supply, 7.5/7.7 halved on
// coastal or aerial supply; 5.10 GT3 Paulus Pause declined: German mech lose a d6 per hex.
int BdState::mf_of(int u) const {
  const UnitDef& d = def(u);
  if (d.cls == kStatic) return 0;
  int mf = turn_mf(d.side, d.cls == kMech, turn_);
  const int sup = unit_supply(u);
  if (d.side == kGerman && d.cls == kMech && oder_active()) mf = data_->victory.oder_mech_mf;  // 4.18
  if (sup == kSupOos || sup == kSupCoastal || sup == kSupAerial) mf /= 2;
  if (d.side == kGerman && d.cls == kMech && turn_ == 3 && paulus_ == 2)
    for (const auto& [h, r] : paulus_rolls_)
      if (h == unit(u).hex) mf = std::max(0, mf - r);
  return mf;
}

// 2.11 the TRRT's MF of a side's mech or non-mech units on turn t, unless the scenario
// fixes it (15.6 What If: the mf_* params).
int BdState::turn_mf(int side, bool mech, int t) const {
  if (sc_ != nullptr) {
    const int fixed = sc_->fixed_mf[static_cast<size_t>(side)][mech ? kMech : kNonMech];
    if (fixed > 0) return fixed;  // 15.6
  }
  return data_->turn(t).mf[side][mech ? kMech : kNonMech];
}

// What the unit has left to move: its MF until it starts moving (mp < 0), then what its
// moves left it (10.2).
int BdState::mp_left(int u) const {
  const UnitSt& s = unit(u);
  return s.mp >= 0 ? s.mp : mf_of(u);
}

// Cost for unit u to enter `to` from adjacent `from`; -1 when prohibited.
int BdState::enter_cost(int u, int from, int to) const {
  const int dir = direction(from, to);
  return dir < 0 ? -1 : enter_cost_dir(u, from, to, dir);
}

int BdState::enter_cost_dir(int u, int from, int to, int dir) const {
  const int base = hex_entry_cost(u, to);
  return base < 0 ? -1 : edge_entry_cost(u, from, to, dir, base);
}

// The part of the cost of entering `to` that does not depend on the hexside crossed; reach()
// memoises it per hex (it is most of the work of a movement phase's legal actions).
int BdState::hex_entry_cost(int u, int to) const {
  const UnitDef& d = def(u);
  const HexInfo& b = hx(to);
  if (!b.on_map) return -1;                         // 10.21 leaving the map is not offered
  if (data_->tec.prohibited[b.terrain]) return -1;  // 10.11
  if (enemy_in(to, d.side)) return -1;              // 10.4
  // 10.22: Axis satellites never north of the logistical boundary (suspended in 1942 if
  // the German chose the north, 5.6).
  if (d.axis_satellite() && b.zone == kZoneNorth && !(zone1942_ == kZoneNorth && turn_ >= 9)) return -1;
  if (d.type == kCavalryGroup && d.zone != kZoneNone && b.zone != kZoneNone && b.zone != d.zone)
    return -1;       // 8.30
  if (turn_ == 1) {  // 5.11 (the Hungarian border is a hexside rule: edge_entry_cost)
    if (d.side == kGerman && unit(u).start_hex >= 0 && hx(unit(u).start_hex).country == kRomania &&
        b.country != kRomania)
      return -1;
    if (d.side == kSoviet && (b.country == kHungary || b.country == kRomania)) return -1;
  }
  const Places& pl = data_->places;
  const int cls = d.cls == kMech ? kMech : kNonMech;
  Terrain t = b.terrain;
  if (t == kMarsh && d.cls == kMech && d.side == kSoviet && turn_ >= 13) t = kClear;  // 10.10
  if (t == kMarsh && d.cls == kMech && d.side == kGerman && turn_ == 1 &&
      std::find(pl.gt1_marsh.begin(), pl.gt1_marsh.end(), to) != pl.gt1_marsh.end() &&
      unit_supply(u) == kSupOverland)
    t = kClear;                                                // 5.13
  return d.type == kCavalryGroup ? 1 : data_->tec.mp[t][cls];  // 8.30
}

// The hexside part: sea and lake sides, the Kerch and Sivash crossings, rivers, the
// Hungarian border on GT1; `base` is hex_entry_cost(u, to) >= 0.
int BdState::edge_entry_cost(int u, int from, int to, int dir, int base) const {
  const UnitDef& d = def(u);
  const HexInfo& a = hx(from);
  const Places& pl = data_->places;
  const bool kerch = is_crossing(pl.kerch, from, to);
  const bool sivash = is_crossing(pl.sivash, from, to);
  bool river = (a.river >> dir) & 1u;
  if (sivash) {  // 10.15: Soviet non-mech from GT7, as across a river
    if (d.side != kSoviet || d.cls == kMech || turn_ < 7) return -1;
    river = true;
  } else if (kerch) {
    // 10.14: one stack per movement phase, starting the phase in the departure hex; it stops.
    // The stack is the units that started the phase in the departure hex: once one has
    // crossed, the others of that hex may follow, no one else.
    if ((kerch_from_ >= 0 && kerch_from_ != from) || unit(u).start_hex != from || unit(u).mp >= 0) return -1;
  } else if ((a.sea_side >> dir) & 1u || (a.lake_side >> dir) & 1u) {
    return -1;  // 10.11, 11.19
  }
  if (turn_ == 1 && d.side == kGerman && (a.country == kHungary) != (hx(to).country == kHungary))
    return -1;  // 5.11
  const int cls = d.cls == kMech ? kMech : kNonMech;
  if (river && !(turn_ == 1 && d.side == kGerman)) return base + data_->tec.river_mp[cls];  // 10.18
  return base;
}

// Why enter_cost(u, from, to) < 0, citing the rule that forbids: the error path of
// check_move only, so the cost functions on the hot path stay plain numbers. The checks
// are those of hex_entry_cost and edge_entry_cost, in their order.
Status BdState::entry_refusal(int u, int from, int to) const {
  const UnitDef& d = def(u);
  const HexInfo& a = hx(from);
  const HexInfo& b = hx(to);
  const Places& pl = data_->places;
  const std::string what = d.label + " may not enter " + hex_id(to) + " from " + hex_id(from) + ": ";
  if (!b.on_map) return rerr("10.21", what + "it is off the map");
  if (data_->tec.prohibited[b.terrain])
    return rerr("10.13", what + std::string(terrain_name(b.terrain)) + " hexes may not be entered");
  if (d.axis_satellite() && b.zone == kZoneNorth && !(zone1942_ == kZoneNorth && turn_ >= 9))
    return rerr("10.22", what + "Axis satellite armies stay south of the logistical zone boundary");
  if (d.type == kCavalryGroup && d.zone != kZoneNone && b.zone != kZoneNone && b.zone != d.zone)
    return rerr("8.30", what + "a cavalry group stays in its own zone");
  if (turn_ == 1 && d.side == kGerman && unit(u).start_hex >= 0 &&
      hx(unit(u).start_hex).country == kRomania && b.country != kRomania)
    return rerr("5.11", what + "on Game Turn 1 units starting in Romania stay in Romania");
  if (turn_ == 1 && d.side == kSoviet && (b.country == kHungary || b.country == kRomania))
    return rerr("5.11", what + "on Game Turn 1 Soviet units do not enter Hungary or Romania");
  const int dir = direction(from, to);
  if (is_crossing(pl.sivash, from, to))
    return rerr("10.15", what + "only Soviet non-mechanized units cross the Sivash, from Game Turn 7");
  if (is_crossing(pl.kerch, from, to))
    return rerr("10.14", what +
                             "one stack a movement phase crosses the Kerch Strait, each unit having "
                             "started the phase in the departure hex");
  if (dir >= 0 && ((a.sea_side >> dir) & 1u || (a.lake_side >> dir) & 1u))
    return rerr("10.13", what + "all-sea and all-lake hexsides may not be crossed");
  if (turn_ == 1 && d.side == kGerman && (a.country == kHungary) != (b.country == kHungary))
    return rerr("5.11", what + "on Game Turn 1 German units do not cross the Hungarian border");
  return rerr("10.1", what + "it may not be entered");
}

Status BdState::check_move(const Action& a) const {
  if (!is_move_phase()) return rerr("5.2", std::string("no movement in ") + phase_name(phase_));
  if (a.nargs < 3) return rerr("10.1", "a move needs a unit and at least one hex to enter");
  const int u = a.args[0];
  if (u < 0 || u >= num_units()) return rerr("", "unknown unit");
  const UnitDef& d = def(u);
  const UnitSt& s = unit(u);
  if (d.side != phase_side()) return rerr("5.2", d.label + " is not a unit of the phasing player");
  if (s.where != kOnMap) return rerr("10.1", d.label + " is not on the map");
  if (d.cls == kStatic || d.type == kFortressCommand)
    return rerr("2.9", d.label + " is static and never moves");
  if (d.type == kCoastalArmy) return rerr("10.34", "the ICA moves only by switching ports: sea-move ICA HEX");
  if (is_attachable(u))
    return rerr(attach_rule(u), d.label + " never moves alone: it moves with the " +
                                    (d.type == kCmGroup ? "army" : "corps") + " it is attached to" +
                                    (s.parent >= 0 ? " (" + label(s.parent) + ")" : ""));
  if (s.flags & (kFlagDone | kFlagNoMove)) return rerr("10.2", d.label + " has finished moving this phase");
  if (s.flags & kFlagMaFailed)
    return rerr("10.28", d.label + " failed a mobile assault and stays in its launch hex");
  if (s.mp >= 0 && std::find(movers_.begin(), movers_.end(), u) == movers_.end())
    return rerr("10.2", d.label + " already moved; finish one unit or stack before starting the next");
  if (a.args[1] != s.hex)
    return rerr("10.1", "the path must start at " + d.label + "'s hex " + hex_id(s.hex));
  const int budget = mp_left(u);
  int spent = 0;
  for (int i = 2; i < a.nargs; ++i) {
    const int from = a.args[i - 1], to = a.args[i];
    if (to < 0 || to >= kNumHexes) return rerr("10.1", "bad hex in path");
    if (direction(from, to) < 0) return rerr("10.1", hex_id(to) + " is not adjacent to " + hex_id(from));
    if (enemy_in(to, d.side))
      return rerr("10.4", hex_id(to) + " holds enemy units (only a mobile assault may enter)");
    const int c = enter_cost(u, from, to);
    if (c < 0) return entry_refusal(u, from, to);
    spent += c;
    if (i != a.nargs - 1) {  // 6.2: the limits hold at every instant, also in the hexes passed through
      std::vector<int> self{u};
      if (auto st = stacking_ok(to, d.side, self); !st) return st;
    }
    // 10.14: a Kerch crossing ends the move.
    const Places& pl = data_->places;
    if (is_crossing(pl.kerch, from, to) && i != a.nargs - 1)
      return rerr("10.14", "a stack that crosses the Kerch Strait stops");
  }
  if (spent > budget) {
    // 10.3: a unit may always move one hex by spending its whole MF.
    const bool minimum = a.nargs == 3 && s.mp < 0 && budget > 0;
    if (!minimum)
      return rerr("10.1",
                  d.label + " needs " + std::to_string(spent) + " MP but has " + std::to_string(budget));
  }
  std::vector<int> add{u};
  if (auto st = stacking_ok(a.args[a.nargs - 1], d.side, add); !st) return st;
  // One notation per move: the cheapest path (ties broken by search order). Other routes
  // are made as several shorter moves of the same unit (10.2 lets it continue).
  std::array<int16_t, kNumHexes> best{}, parent{};
  reach(u, best, parent);
  int x = a.args[a.nargs - 1];
  for (int i = a.nargs - 1; i >= 1; --i) {
    if (x != a.args[i])
      return rerr("10.1", "not the cheapest path to " + hex_id(a.args[a.nargs - 1]) +
                              "; move in steps to choose a route");
    x = parent[static_cast<size_t>(x)];
  }
  if (x != -1) return rerr("10.1", "not the cheapest path; move in steps to choose a route");
  return Status::ok();
}

// Cheapest paths for unit u from its hex with its MP left (10.1, 10.3 minimum move, 10.14
// Kerch stop). best[h] = MP left on arrival (-1 unreachable); parent[h] = previous hex.
void BdState::reach(int u, std::array<int16_t, kNumHexes>& best,
                    std::array<int16_t, kNumHexes>& parent) const {
  if (reach_memo_.unit == u && reach_memo_.version == version_) {
    best = reach_memo_.best;
    parent = reach_memo_.parent;
    return;
  }
  reach_search(u, best, parent);
  reach_memo_.unit = u;
  reach_memo_.version = version_;
  reach_memo_.best = best;
  reach_memo_.parent = parent;
}

// reach() without its memo (gen_moves searches every unit once: storing each would copy
// 2.3 KB per unit for nothing).
void BdState::reach_search(int u, std::array<int16_t, kNumHexes>& best,
                           std::array<int16_t, kNumHexes>& parent, HexBits* reached,
                           ReachTrace* trace) const {
  const UnitSt& s = unit(u);
  const int budget = mp_left(u);
  // 6.2: stacking limits hold hex by hex and instant by instant, so a hex the unit would
  // over-stack can be neither entered nor passed through (6.3, 6.4, 8.30).
  compute_occupancy();
  const UnitDef& ud = def(u);
  const StackAdd add = stack_add(u);
  // hex_entry_cost(u, to) with the unit's own tests made once (the search asks it for every
  // hex it meets): the same tests, the occupancy read directly (computed above).
  const TerrainCosts& tec = data_->tec;
  const bool sat_north = ud.axis_satellite() && !(zone1942_ == kZoneNorth && turn_ >= 9);  // 10.22
  const bool cavalry = ud.type == kCavalryGroup;
  const bool cav_zone = cavalry && ud.zone != kZoneNone;  // 8.30
  const bool gt1_from_romania =
      turn_ == 1 && ud.side == kGerman && s.start_hex >= 0 && hx(s.start_hex).country == kRomania;  // 5.11
  const bool gt1_soviet = turn_ == 1 && ud.side == kSoviet;                                         // 5.11
  const int mp_cls = ud.cls == kMech ? kMech : kNonMech;
  const bool marsh_clear = ud.cls == kMech && ud.side == kSoviet && turn_ >= 13;  // 10.10
  const bool gt1_marsh = ud.cls == kMech && ud.side == kGerman && turn_ == 1;     // 5.13
  // The part of the cost that does not depend on who stands where (the memo keeps it).
  auto entry_cost = [&](int to) {
    const HexInfo& b = hx(to);
    if (!b.on_map || tec.prohibited[b.terrain]) return -1;  // 10.21, 10.11
    if (sat_north && b.zone == kZoneNorth) return -1;
    if (cav_zone && b.zone != kZoneNone && b.zone != ud.zone) return -1;
    if (gt1_from_romania && b.country != kRomania) return -1;
    if (gt1_soviet && (b.country == kHungary || b.country == kRomania)) return -1;
    Terrain t = b.terrain;
    if (t == kMarsh && marsh_clear) t = kClear;
    if (t == kMarsh && gt1_marsh &&
        std::find(data_->places.gt1_marsh.begin(), data_->places.gt1_marsh.end(), to) !=
            data_->places.gt1_marsh.end() &&
        unit_supply(u) == kSupOverland)
      t = kClear;
    return cavalry ? 1 : tec.mp[t][mp_cls];
  };
  best.fill(-1);
  best[static_cast<size_t>(s.hex)] = static_cast<int16_t>(budget);
  parent[static_cast<size_t>(s.hex)] = -1;
  auto mark_reached = [reached](int h) {
    if (reached != nullptr)
      (*reached)[static_cast<size_t>(h) / 64] |= uint64_t{1} << (static_cast<size_t>(h) % 64);
  };
  if (reached != nullptr) reached->fill(0);
  if (trace != nullptr) *trace = ReachTrace{};
  mark_reached(s.hex);
  // hex_entry_cost per hex, computed on first need (-2: not yet; -1: may not enter or
  // over-stacks).
  std::array<int16_t, kNumHexes> hex_cost;
  hex_cost.fill(-2);
  const Places& pl = data_->places;
  // edge_entry_cost without its Kerch and Sivash cases, for a hex that is no end of either
  // strait (all but four): the same cost with fewer tests per hexside, the search's inner loop.
  const bool gt1_german = turn_ == 1 && ud.side == kGerman;
  const int river_mp = data_->tec.river_mp[ud.cls == kMech ? kMech : kNonMech];
  auto strait_end = [&pl](int h) {
    return std::find(pl.kerch.begin(), pl.kerch.end(), h) != pl.kerch.end() ||
           std::find(pl.sivash.begin(), pl.sivash.end(), h) != pl.sivash.end();
  };
  // Simple label-correcting search (MF <= ~12, map small): process by decreasing MP left.
  // The two queues keep their storage between calls (no allocation per unit searched).
  static thread_local std::vector<int> frontier, next;
  frontier.assign(1, s.hex);
  // MP left at each hex's last expansion. Expanding a hex again with the same MP left
  // changes nothing (best only grows, so every neighbour already holds at least what it
  // would be offered): such repeats, a hex queued twice, are skipped.
  std::array<int16_t, kNumHexes> expanded;
  expanded.fill(-1);
  while (!frontier.empty()) {
    next.clear();
    for (const int h : frontier) {
      const int left = best[static_cast<size_t>(h)];
      if (expanded[static_cast<size_t>(h)] == left) continue;
      expanded[static_cast<size_t>(h)] = static_cast<int16_t>(left);
      const HexInfo& a = hx(h);
      const bool at_strait = strait_end(h);
      if (at_strait && trace != nullptr) trace->strait = true;
      for (int dd = 0; dd < 6; ++dd) {
        const int n = neighbour(h, dd);
        if (n < 0) continue;
        int16_t& hc = hex_cost[static_cast<size_t>(n)];
        if (hc == -2) {
          const int cost = entry_cost(n);
          const bool open = n == s.hex || stacks_let_in(n, ud.side, add);  // 10.4, 6.2
          hc = static_cast<int16_t>(cost >= 0 && open ? cost : -1);
          if (trace != nullptr) {
            const auto i = static_cast<size_t>(n);
            trace->examined[i / 64] |= uint64_t{1} << (i % 64);
            if (cost >= 0) trace->enterable[i / 64] |= uint64_t{1} << (i % 64);
            if (open) trace->open[i / 64] |= uint64_t{1} << (i % 64);
          }
        }
        if (hc < 0) continue;
        int c = 0;
        if (at_strait) {
          c = edge_entry_cost(u, h, n, dd, hc);
          if (c < 0) continue;
        } else {
          if (((a.sea_side | a.lake_side) >> dd) & 1u) continue;                               // 10.11, 11.19
          if (gt1_german && (a.country == kHungary) != (hx(n).country == kHungary)) continue;  // 5.11
          c = ((a.river >> dd) & 1u) && !gt1_german ? hc + river_mp : hc;                      // 10.18
        }
        int rem = left - c;
        if (rem < 0) {
          if (h == s.hex && s.mp < 0 && budget > 0)
            rem = 0;  // 10.3
          else
            continue;
        }
        if (at_strait && is_crossing(pl.kerch, h, n)) rem = 0;  // 10.14 stops
        if (rem > best[static_cast<size_t>(n)]) {
          if (best[static_cast<size_t>(n)] < 0) mark_reached(n);
          best[static_cast<size_t>(n)] = static_cast<int16_t>(rem);
          parent[static_cast<size_t>(n)] = static_cast<int16_t>(h);
          next.push_back(n);
        }
      }
    }
    frontier.swap(next);
  }
}

void BdState::set_move_memo_enabled(bool on) {
  t_move_memo.enabled = on;
  t_move_memo.units.clear();
}

BdState::StackAdd BdState::stack_add(const UnitDef& d, bool sup) {
  return {d.free_stacking() ? 0 : 1, d.satellite_army() ? 1 : 0, d.type == kCavalryGroup ? 1 : 0,
          sup ? 1 : 0};
}

BdState::StackAdd BdState::stack_add(int u) const {
  return stack_add(def(u), is_attachable(u) || attached_of(u) >= 0);  // 8.31, 8.32 one per stack
}

bool BdState::stacks_let_in(int hex, int side, const StackAdd& add) const {
  const auto i = static_cast<size_t>(hex);
  const uint8_t o = cache_.occ_side[i];
  const StackingLimits& lim = data_->stacking;
  return (o == kNoSide || o == side) && cache_.occ_count[i] + add.count <= lim.units_per_hex &&
         cache_.occ_sats[i] + add.sats <= lim.satellite_armies_per_hex &&
         cache_.occ_cav[i] + add.cav <= lim.cavalry_groups_per_hex && cache_.occ_sup[i] + add.sup <= 1;
}

bool BdState::sync_move_memo() const {
  MoveMemo& memo = t_move_memo;
  if (!memo.enabled || turn_ == 1) return false;
  compute_occupancy();
  const uint64_t epoch = g_move_memo_epoch.load(std::memory_order_relaxed);
  if (memo.epoch != epoch || memo.data != data_.get() || memo.map != map_ || memo.turn != turn_ ||
      memo.zone1942 != zone1942_ || memo.units.size() != static_cast<size_t>(num_units())) {
    memo.units.assign(static_cast<size_t>(num_units()), MoveMemo::Entry{});
    memo.epoch = epoch;
    memo.data = data_.get();
    memo.map = map_;
    memo.turn = turn_;
    memo.zone1942 = zone1942_;
  } else {
    HexBits changed{};
    bool any = false;
    for (size_t h = 0; h < static_cast<size_t>(kNumHexes); ++h)
      if (memo.occ_side[h] != cache_.occ_side[h] || memo.occ_count[h] != cache_.occ_count[h] ||
          memo.occ_sats[h] != cache_.occ_sats[h] || memo.occ_cav[h] != cache_.occ_cav[h] ||
          memo.occ_sup[h] != cache_.occ_sup[h]) {
        changed[h / 64] |= uint64_t{1} << (h % 64);
        any = true;
      }
    for (size_t v = 0; any && v < memo.units.size(); ++v) {
      MoveMemo::Entry& e = memo.units[v];
      if (!e.valid) continue;
      const UnitDef& vd = def(static_cast<int>(v));
      const StackAdd add = stack_add(vd, e.sup != 0);
      for (size_t w = 0; w < changed.size() && e.valid; ++w)
        for (uint64_t bits = changed[w] & e.trace.examined[w] & e.trace.enterable[w]; bits != 0;
             bits &= bits - 1) {
          const size_t h = w * 64 + static_cast<size_t>(std::countr_zero(bits));
          if (static_cast<int>(h) == e.hex) continue;  // its own hex: always open to it
          if (stacks_let_in(static_cast<int>(h), vd.side, add) !=
              (((e.trace.open[w] >> (h % 64)) & 1u) != 0)) {
            e.valid = false;
            break;
          }
        }
    }
  }
  memo.occ_side = cache_.occ_side;
  memo.occ_count = cache_.occ_count;
  memo.occ_sats = cache_.occ_sats;
  memo.occ_cav = cache_.occ_cav;
  memo.occ_sup = cache_.occ_sup;
  return true;
}

// Each unit x each reachable destination, by its cheapest path (Dijkstra on MP).
void BdState::gen_moves(std::vector<Action>& out) const {
  const int side = phase_side();
  std::array<int16_t, kNumHexes> best{}, parent{};
  HexBits reached{};
  std::array<int32_t, kNumHexes> move_at{};  // index in `out` of the unit's move to each hex, or -1
  const bool memo_on = sync_move_memo();
  MoveMemo& memo = t_move_memo;
  for (int u = 0; u < num_units(); ++u) {
    const UnitSt& s = unit(u);
    const UnitDef& d = def(u);
    if (s.where != kOnMap || d.side != side || d.cls == kStatic || d.type == kFortressCommand ||
        d.type == kCoastalArmy || d.type == kTigerBattalion || d.type == kCmGroup)  // 8.31, 8.32
      continue;
    if (s.flags & (kFlagDone | kFlagNoMove | kFlagMaFailed)) continue;
    if (s.mp >= 0 && std::find(movers_.begin(), movers_.end(), u) == movers_.end()) continue;
    const int budget = mp_left(u);
    const auto sup = static_cast<uint8_t>(stack_add(u).sup);
    MoveMemo::Entry* entry = memo_on ? &memo.units[static_cast<size_t>(u)] : nullptr;
    if (entry != nullptr && entry->valid && entry->hex == s.hex && entry->mp == s.mp &&
        entry->budget == budget && entry->sup == sup) {
      out.insert(out.end(), entry->moves.begin(), entry->moves.end());
      continue;
    }
    const size_t first_move = out.size();
    // reach() enters only hexes the unit fits in (6.2), so every destination keeps the
    // stacking limits (stacking_ok need not be asked again).
    reach_search(u, best, parent, &reached, entry != nullptr ? &entry->trace : nullptr);
    // Each move starts as a copy of this one (the same bytes as a new zeroed Action given
    // the verb and unit, without zeroing 124 bytes for each of ~2,500 moves).
    Action first;
    first.verb = kMove;
    first.push(u);
    move_at.fill(-1);
    for (size_t w = 0; w < reached.size(); ++w)  // the reached hexes in hex order
      for (uint64_t bits = reached[w]; bits != 0; bits &= bits - 1) {
        const int h = static_cast<int>(w * 64) + std::countr_zero(bits);
        if (h == s.hex || best[static_cast<size_t>(h)] < 0) continue;
        // A path is its parent's path plus h: when the parent's move is already listed
        // (a lower hex), it is extended instead of walking the parent chain again.
        if (const int32_t pm = move_at[static_cast<size_t>(parent[static_cast<size_t>(h)])]; pm >= 0) {
          Action a = out[static_cast<size_t>(pm)];
          if (a.full()) continue;  // as below: a path longer than the action holds
          a.push(h);
          move_at[static_cast<size_t>(h)] = static_cast<int32_t>(out.size());
          out.push_back(a);
          continue;
        }
        int path[32];
        int n = 0;
        for (int x = h; x != -1 && n < 32; x = parent[static_cast<size_t>(x)]) path[n++] = x;
        if (n + 1 > Action::kMaxArgs) continue;
        move_at[static_cast<size_t>(h)] = static_cast<int32_t>(out.size());
        Action& a = out.emplace_back(first);
        for (int i = n - 1; i >= 0; --i) a.push(path[i]);
      }
    if (entry != nullptr) {
      entry->valid = !entry->trace.strait;
      entry->hex = static_cast<int16_t>(s.hex);
      entry->mp = static_cast<int16_t>(s.mp);
      entry->budget = static_cast<int16_t>(budget);
      entry->sup = sup;
      entry->moves.assign(out.begin() + static_cast<std::ptrdiff_t>(first_move), out.end());
    }
  }
}

// ======================================================================= combat (10.23-11.33)

// 10.23: German mech MA in every single-month turn; Soviet mech from GT25.
bool BdState::ma_allowed_now(int side) const {
  if (side == kGerman) return ti().single && !(turn_ == 3 && paulus_ == 1);
  return turn_ >= 25;
}

// 10.24: entering the enemy hex costs its terrain and river cost plus 2 (3 with a city or
// fortified line) MP (ruling BD-1).
int BdState::ma_cost(int u, int launch, int target) const {
  const UnitDef& d = def(u);
  const int dir = direction(launch, target);
  if (dir < 0) return -1;
  const HexInfo& a = hx(launch);
  const HexInfo& b = hx(target);
  if (!b.on_map || data_->tec.prohibited[b.terrain]) return -1;
  if ((a.sea_side >> dir) & 1u || (a.lake_side >> dir) & 1u) return -1;  // 10.25
  const Places& pl = data_->places;
  if (pl.strait(launch, target)) return -1;  // 11.17, 11.18: mech never attack across
  Terrain t = b.terrain;
  if (t == kMarsh && d.side == kGerman && turn_ == 1 &&
      std::find(pl.gt1_marsh.begin(), pl.gt1_marsh.end(), target) != pl.gt1_marsh.end())
    t = kClear;                              // 5.13
  if (!data_->tec.ma_allowed[t]) return -1;  // 10.25 clear terrain only
  const int cls = d.cls == kMech ? kMech : kNonMech;
  int cost = data_->tec.mp[t][cls];
  if (((a.river >> dir) & 1u) && !(turn_ == 1 && d.side == kGerman)) cost += data_->tec.river_mp[cls];
  const bool line = b.fortified >= 0 && b.fortified != d.side;
  cost += (b.city || line) ? data_->tec.ma_extra_city : data_->tec.ma_extra_clear;
  return cost;
}

// 10.34: each Soviet Movement Phase the ICA may switch between Soviet-controlled Odessa and
// Sevastopol (it never enters one that has fallen).
Status BdState::check_ica_switch(int u, int h) const {
  const Places& pl = data_->places;
  const UnitSt& s = unit(u);
  if (!is_move_phase() || phase_side() != kSoviet)
    return rerr("10.34", "the ICA switches ports in a Soviet Movement Phase");
  if (s.where != kOnMap || (s.hex != pl.odessa && s.hex != pl.sevastopol))
    return rerr("10.34", "the ICA is not in Odessa or Sevastopol");
  if (s.flags & (kFlagDone | kFlagNoMove)) return rerr("10.34", "the ICA already switched ports this phase");
  const int other_port = s.hex == pl.odessa ? pl.sevastopol : pl.odessa;
  if (h != other_port) return rerr("10.34", "the ICA switches only between Odessa and Sevastopol");
  if (hex_.control[static_cast<size_t>(h)] != kSoviet || enemy_in(h, kSoviet))
    return rerr("10.34", hex_id(h) + " has fallen: the ICA may not enter it");
  std::vector<int> add{u};
  return stacking_ok(h, kSoviet, add);
}

int BdState::sea_of(int hex) const {
  const auto& seas = data_->places.sea_ports;
  for (size_t i = 0; i < seas.size() && i < 8; ++i)
    if (std::find(seas[i].begin(), seas[i].end(), hex) != seas[i].end()) return static_cast<int>(i);
  return -1;
}

// 8.31, 8.32: a TB / CM among the attackers `atts` is refused unless its parent is too.
Status BdState::attacks_with_parent(int u, const std::vector<int>& atts) const {
  if (!is_attachable(u) ||
      (unit(u).parent >= 0 && std::find(atts.begin(), atts.end(), unit(u).parent) != atts.end()))
    return Status::ok();
  return rerr(attach_rule(u), def(u).label + " never fights alone: it attacks with " +
                                  (unit(u).parent >= 0 ? label(unit(u).parent) : std::string("its parent")));
}

// Why unit u may not attack `target` (a mobile assault if `ma`): the rule and the reason,
// or {nullptr, nullptr} if it may. One list of bars for the check, legal actions and the
// refusal's citation.
BdState::AttackBar BdState::attack_bar(int u, int target, bool ma) const {
  const UnitSt& s = unit(u);
  const UnitDef& d = def(u);
  if (s.where != kOnMap) return {"11.2", "is not on the map"};
  if (is_attachable(u)) {  // 8.31, 8.32: never fights alone; mobile assaults with a mech parent only
    const int p = s.parent;
    if (p < 0 || unit(p).hex != s.hex || is_attachable(p))
      return {attach_rule(u), "never fights alone, and its parent is not with it"};
    if (ma && def(p).cls != kMech)
      return {attach_rule(u), "makes mobile assaults only with a mechanized parent"};
    return attack_bar(p, target, ma);
  }
  const int dir = direction(s.hex, target);
  if (dir < 0) return {"11.2", "is not adjacent"};
  if (!ma && (s.flags & kFlagAttacked)) return {"11.3", "has already attacked this phase"};
  if (s.flags & kFlagSeaMoved) return {"10.16", "moved by sea this turn"};
  if (d.type == kFortressCommand) return {"8.33", "is a Fortress Command, which never attacks"};
  if (d.type == kCoastalArmy) return {"10.34", "is the ICA, which never attacks"};
  if (d.attack == 0 && d.support_shifts == 0) return {"11.12", "has no attack factor"};
  const HexInfo& a = hx(s.hex);
  const HexInfo& b = hx(target);
  const Places& pl = data_->places;
  const bool kerch = is_crossing(pl.kerch, s.hex, target);
  const bool sivash = is_crossing(pl.sivash, s.hex, target);
  if (kerch && d.cls == kMech)
    return {"11.17", "is mechanized: no mechanized attack across the Kerch Strait"};
  if (sivash && !(d.side == kSoviet && d.cls != kMech && turn_ >= 7))
    return {"11.18", "may not attack across the Sivash (Soviet non-mechanized units only, from Game Turn 7)"};
  if (!kerch && !sivash && (((a.sea_side >> dir) & 1u) || ((a.lake_side >> dir) & 1u)))
    return {"11.19", "may not attack across an all-sea or all-lake hexside"};
  if (d.axis_satellite() && b.zone == kZoneNorth && !(zone1942_ == kZoneNorth && turn_ >= 9))
    return {"10.22", "is an Axis satellite army: none north of the logistical zone boundary"};
  if (d.type == kCavalryGroup && b.city) return {"8.30", "is a cavalry group: never into a city"};
  if (d.type == kCavalryGroup && d.zone != kZoneNone && b.zone != kZoneNone && b.zone != d.zone)
    return {"8.30", "is a cavalry group: it stays in its own zone"};
  if (turn_ == 1) {
    if (d.side == kGerman && (a.country == kRomania || a.country == kHungary || b.country == kHungary))
      return {"5.11", "may not attack from Romania or Hungary, or into Hungary, on Game Turn 1"};
    if (d.side == kSoviet && (b.country == kHungary || b.country == kRomania))
      return {"5.11", "may not attack into Hungary or Romania on Game Turn 1"};
  }
  if (d.side == kGerman && turn_ == 3 && paulus_ == 1)
    return {"5.10", "Paulus Pause: no German attacks on GT3"};
  if (ma) {
    if (d.cls != kMech) return {"10.23", "is not mechanized: only mechanized units make mobile assaults"};
    if (d.side == kSoviet && (s.flags & (kFlagMaDone | kFlagMaFailed)))
      return {"10.24", "has already made a mobile assault this phase"};
    if (s.flags & (kFlagDone | kFlagNoMove)) return {"10.23", "has finished moving this phase"};
  }
  return {nullptr, nullptr};
}

bool BdState::can_attack_unit(int u, int target, bool ma) const {
  return attack_bar(u, target, ma).rule == nullptr;
}

Status BdState::collect_attack_from(const Action& a, std::vector<int>& atts) const {
  atts.clear();
  const int target = a.args[0];
  std::vector<int> here;
  for (int i = 2; i < a.nargs; ++i) {
    const int h = a.args[i];
    if (h < 0 || h >= kNumHexes) return rerr("11.2", "bad hex");
    if (direction(h, target) < 0) return rerr("11.2", hex_id(h) + " is not adjacent to " + hex_id(target));
    units_in(h, here);
    bool any = false;
    for (int u : here)
      if (def(u).side == phase_side() && can_attack_unit(u, target, false)) {
        atts.push_back(u);
        if (def(u).attack != 0) any = true;
      }
    if (!any) {
      // The first unit's bar names the rule that forbids (a strait, a sea hexside, 11.3).
      for (int u : here)
        if (def(u).side == phase_side())
          if (const AttackBar bar = attack_bar(u, target, false); bar.rule != nullptr)
            return rerr(bar.rule, "no unit in " + hex_id(h) + " may attack " + hex_id(target) + ": " +
                                      def(u).label + " " + bar.reason);
      return rerr("11.3", "no unit in " + hex_id(h) + " may attack " + hex_id(target));
    }
  }
  return Status::ok();
}

Status BdState::check_attack(int target, const std::vector<int>& atts, bool ma, bool lw, bool drop) const {
  const int side = phase_side();
  if (pending_ != kPendNone) return rerr("11.6", "finish the battle in progress first");
  if (ma) {
    if (!is_move_phase()) return rerr("10.23", "mobile assaults happen only in a movement phase");
    if (!ma_allowed_now(side))
      return rerr("10.23", side == kGerman ? "German mobile assaults only in single-month turns"
                                           : "Soviet mobile assaults only from Game Turn 25");
  } else if (!is_assault_phase()) {
    return rerr("5.2", std::string("no prepared assaults in ") + phase_name(phase_));
  }
  if (target < 0 || target >= kNumHexes || !hx(target).on_map) return rerr("11.2", "target is not a map hex");
  if (!enemy_in(target, side)) return rerr("11.2", hex_id(target) + " holds no enemy units");
  if (atts.empty()) return rerr("11.1", "an attack needs attackers");
  if (side == kGerman && turn_ == 3 && paulus_ == 1)
    return rerr("5.10", "Paulus Pause taken: no German attacks of any kind on Game Turn 3");
  if (atts.size() > kMaxBattleUnits) return rerr("11.1", "too many attackers for one battle");
  std::vector<int> defenders;
  units_in(target, defenders);
  if (!ma)
    for (int dd : defenders)
      if ((unit(dd).flags & kFlagDefended) && !(unit(dd).flags & kFlagRetreatedIn))
        return rerr("11.3", "the units in " + hex_id(target) + " were already attacked this phase");
  bool has_factor = false, has_army = false, lcfc = false;
  for (size_t i = 0; i < atts.size(); ++i) {
    const int u = atts[i];
    if (u < 0 || u >= num_units()) return rerr("", "unknown unit");
    if (std::count(atts.begin(), atts.end(), u) > 1) return rerr("11.3", def(u).label + " listed twice");
    if (def(u).side != side) return rerr("11.1", def(u).label + " is not the phasing player's unit");
    if (Status st = attacks_with_parent(u, atts); !st) return st;
    if (const AttackBar bar = attack_bar(u, target, ma); bar.rule != nullptr)
      return rerr(bar.rule, def(u).label + " may not attack " + hex_id(target) + ": it " + bar.reason);
    if (def(u).attack != 0) has_factor = true;
    if (def(u).type == kCounterFireCorps)
      lcfc = true;
    else if (def(u).attack != 0)
      has_army = true;
  }
  if (!has_factor) return rerr("11.12", "units with no attack factor never attack alone");
  // 12.8: on GT13 of The Road Back only Soviet units that started in the southern logistics
  // area may attack (they count as offensively supplied, offensive_ok).
  if (side == kSoviet && scenario_id_ == "road-back" && turn_ == first_turn_)
    for (int u : atts) {
      const int start = unit(u).start_hex >= 0 ? unit(u).start_hex : unit(u).hex;
      if (hx(start).zone != kZoneSouth)
        return rerr("12.8", def(u).label + " did not start Game Turn 13 in the southern logistics area");
    }
  if (drop) {  // 4.17 combat air drop of the 2nd Para
    if (side != kGerman || para_drop_unit() < 0)
      return rerr("4.17", "the 2nd Paratroop Corps may drop only on the first turn of Manstein's Gambit");
    if (ma) {  // it lands with the assaulting stack if the hex is cleared (ruling BD-SC6)
      int count = 1;
      for (int u : atts) count += def(u).free_stacking() ? 0 : 1;
      if (count > data_->stacking.units_per_hex)
        return rerr("4.17", "no room for the paratroopers beside a full mobile-assault stack (6.3)");
    }
  }
  if (lcfc && !has_army) return rerr("8.35", "the LCFC never attacks alone");
  if (lw && (side != kGerman || markers_.luftwaffe_left <= 0))
    return rerr("11.23", "no Luftwaffe marker available");
  if (ma) {
    const int launch = unit(atts[0]).hex;
    const HexInfo& t = hx(target);
    if (hero_city(target) || fortress_city(target) || target == markers_.fa_hex)
      return rerr("10.25", "no mobile assault into a Hero City, Fortress City or Fortified Area hex");
    (void)t;
    for (int u : atts) {
      if (unit(u).hex != launch)
        return rerr("10.27", "units that mobile-assault together attack from one hex");
      if (unit(u).start_hex != unit(atts[0]).start_hex)
        return rerr("10.27",
                    "units that mobile-assault together must have started the phase stacked together");
      const int c = ma_cost(u, launch, target);
      if (c < 0) return rerr("10.25", "mobile assaults only into clear terrain, not across water");
      const int left = mp_left(u);
      if (left < c)
        return rerr("10.25", def(u).label + " needs " + std::to_string(c) + " MP for this mobile assault");
      const int sup = unit_supply(u);
      if (sup != kSupOverland && sup != kSupGarrison && sup != kSupAlways && sup != kSupCrimea)  // 7.4
        return rerr("10.26", def(u).label + " needs overland or garrison supply to mobile-assault");
      if (unit(u).mp >= 0 && std::find(movers_.begin(), movers_.end(), u) == movers_.end())
        return rerr("10.2", def(u).label + " already finished its move");
    }
  }
  return Status::ok();
}

// Sums attack factors (1.3 / 11.12: units reduced together are summed, divided once,
// rounded down, never below 1).
int BdState::attack_factor_total(const Battle& b, bool roll_dice, std::vector<int>* per_unit) {
  const HexInfo& t = hx(b.target);
  const Places& pl = data_->places;
  int sums[9] = {};  // by divisor 1, 2, 4, 8
  int fixed = 0;
  if (b.drop >= 0) fixed += def(b.drop).defense;  // 4.17 the paratroopers add their defence factor
  for (int i = 0; i < b.natt; ++i) {
    const int u = b.att[static_cast<size_t>(i)];
    const UnitDef& d = def(u);
    int base = d.attack;
    if (d.attack == 0) {  // support units (8.31, 8.32) count 1 in a Bloodbath only
      if (per_unit) per_unit->push_back(d.support_shifts > 0 ? 1 : 0);
      continue;
    }
    if (base == kRolled)
      base = roll_dice ? roll(6, d.label + " combat factor", d.type == kEmergency ? "8.4" : "8.35") : 3;
    const uint8_t boost = b.boost[static_cast<size_t>(i)];
    const int air = (boost & kBoostAirArmy) ? 1 : 0;  // 8.38: +1, never doubled (nor halved: ruling BD-SM3)
    fixed += air;
    const int sup = unit_supply(u);
    if (d.type == kPanzer && t.city && !d.attack_circled) base = d.defense;                     // 11.20, 8.29
    if (d.type == kMountain && (t.terrain == kRough) && sup == kSupOverland) base = d.defense;  // 11.14
    int div = 1, mult = 1;
    if (d.side == kGerman) {
      if (sup == kSupOos || sup == kSupCoastal || sup == kSupAerial) div = 2;  // 7.16, 7.5, 7.7
    } else if (turn_ < 7) {
      if (sup == kSupOos) div = 2;  // 7.9, 7.22
    } else {
      if (sup == kSupOos)
        div = 4;  // 7.22
      else if (sup == kSupGarrison || (sup == kSupOverland && !offensive_ok(u)))
        div = 2;  // 7.22 garrison supply; 7.9 overland supply without offensive supply
    }
    const int so = order_[kSoviet];
    if (d.type == kShockArmy && (so == kFightMove || so == kFightFight) && sup == kSupOverland &&
        offensive_ok(u))
      mult = 2;                              // 5.7
    if (boost & kBoostArtillery) mult *= 2;  // 8.36 (never on a shock army)
    bool marsh_halved =
        t.terrain == kMarsh && d.cls == kMech &&
        !(turn_ == 1 && d.side == kGerman &&
          std::find(pl.gt1_marsh.begin(), pl.gt1_marsh.end(), b.target) != pl.gt1_marsh.end());
    if (d.type == kShockArmy && div > 1) {  // 7.22: halved or quartered shock armies attack with 3
      fixed += 3;
      if (per_unit) per_unit->push_back(3 + air);
      continue;
    }
    if (marsh_halved) div *= 2;  // 11.15
    sums[std::min(div, 8)] += base * mult;
    if (per_unit) per_unit->push_back(std::max(1, base * mult / div) + air);
  }
  int total = fixed;
  for (int dv : {1, 2, 4, 8})
    if (sums[dv] > 0) total += std::max(1, sums[dv] / dv);
  return total;
}

int BdState::defense_factor_total(const Battle& b, bool roll_dice, std::vector<int>* per_unit) {
  int sums[3] = {};
  for (int i = 0; i < b.ndef; ++i) {
    const int u = b.def[static_cast<size_t>(i)];
    const UnitDef& d = def(u);
    int base = d.defense;
    if (base == kRolled)
      base = roll_dice ? roll(6, d.label + " combat factor", d.type == kEmergency ? "8.4" : "8.35") : 3;
    const int sup = unit_supply(u);
    const int div = sup == kSupOos ? 2 : 1;  // 7.16 (coastal, aerial, garrison: full defence)
    sums[div] += base;
    if (per_unit) per_unit->push_back(base / div);
  }
  int total = 0;
  for (int dv : {1, 2})
    if (sums[dv] > 0) total += std::max(1, sums[dv] / dv);
  return total;
}

// Column shifts, positive = right (attacker's favour). Digest 5.2. `why`, when given,
// receives one {shift, reason, rule} per shift that applies (the combat preview).
int BdState::shifts_for(const Battle& b, Json* why) const {
  const HexInfo& t = hx(b.target);
  const Places& pl = data_->places;
  const int att = b.attacker, dfd = other(att);
  int s = 0;
  auto add = [&](int n, const std::string& reason, const char* rule) {
    if (n == 0) return;
    s += n;
    if (why) why->push_back(Json{{"shift", n}, {"reason", reason}, {"rule", rule}});
  };
  Terrain ter = t.terrain;
  if (ter == kMarsh && att == kGerman && turn_ == 1 &&
      std::find(pl.gt1_marsh.begin(), pl.gt1_marsh.end(), b.target) != pl.gt1_marsh.end())
    ter = kClear;  // 5.13
  if (ter == kMarsh) {
    if (!b.is_ma) add(data_->tec.shift[kMarsh], "marsh (prepared assault)", "11.15");
  } else {
    add(data_->tec.shift[ter], std::string(terrain_name(ter)) + " terrain", "11.14");
  }
  const bool hc_fc = hero_city(b.target) || fortress_city(b.target);
  if (hc_fc)
    add(data_->tec.fortress_shift, hero_city(b.target) ? "Hero City" : "Fortress City", "9.6");
  else if (t.city)
    add(data_->tec.city_shift, "city", "11.20");
  if (t.fortified == dfd)
    add(data_->tec.line_shift, "defender's fortified line", "11.21");
  else if (dfd == kGerman && east_wall(b.target))
    add(data_->tec.line_shift, "East Wall", "8.5, 11.21");
  const bool fa = dfd == kSoviet && fa_effect(b.target);
  if (fa)
    add(markers_.fa_turn == turn_ ? data_->tec.fa_first : data_->tec.fa_later,
        markers_.fa_turn == turn_ ? "Fortified Area (turn placed)" : "Fortified Area", "8.18");
  // 11.16 rivers: all attackers across river hexsides (or an MA across one). 11.17, 11.18:
  // the Kerch Strait and the Sivash count as river hexsides for the non-mech units that
  // may attack across them (mechanized ones never may, attack_from_ok).
  bool all_river = true;
  const char* strait_rule = nullptr;  // set when an attacker is across a strait
  int adjacent = 0;
  uint8_t dirs = 0;
  int nhex = 0;
  for (int i = 0; i < b.natt; ++i) {
    const int h = unit(b.att[static_cast<size_t>(i)]).hex;
    const int d = direction(b.target, h);
    if (d < 0) continue;
    ++adjacent;
    const bool strait = pl.strait(h, b.target);
    if (strait) strait_rule = is_crossing(pl.kerch, h, b.target) ? "11.16, 11.17" : "11.16, 11.18";
    if (!((hx(h).river >> direction(h, b.target)) & 1u) && !strait) all_river = false;
    if (!((dirs >> d) & 1u)) ++nhex;
    dirs = static_cast<uint8_t>(dirs | (1u << d));
  }
  if (turn_ == 1 && att == kGerman) all_river = false;  // 10.18 GT1 German ignore rivers
  if (all_river && adjacent > 0) {
    if (strait_rule != nullptr)
      add(-1, "every attacker across a river or strait (as a river)", strait_rule);
    else
      add(-1, "every attacker across a river", "11.16");
  }
  // 11.24 concentric: opposite hexes, three alternating hexes, or more than three hexes.
  if (!b.is_ma && !hc_fc && !(fa && markers_.fa_turn != turn_) &&
      !(att == kSoviet && t.city && !fortress_city(b.target))) {
    bool conc = nhex > 3;
    for (int d = 0; d < 3; ++d)
      if (((dirs >> d) & 1u) && ((dirs >> (d + 3)) & 1u)) conc = true;
    if ((dirs & 0b010101) == 0b010101 || (dirs & 0b101010) == 0b101010) conc = true;
    if (conc) add(1, "concentric attack", "11.24");
  }
  if (b.is_ma) {
    add(data_->tec.ma_shift, "mobile assault", "10.32");
    if (att == kGerman && turn_ == 4 && paulus_ == 2)
      add(-1, "Paulus Pause declined: mobile assaults 2L on GT4", "5.10");
  } else if (att == kGerman) {
    const int o = order_[kGerman];
    if (o == kFightMove && ti().single && ti().year == 1941)
      add(1, "fight/move in a 1941 single-month turn", "5.6");
    if (o == kFightMove && ti().single && ti().year == 1942 && zone1942_ != kZoneNone && t.zone == zone1942_)
      add(1, "fight/move in the chosen 1942 zone", "5.6");
    if (o == kFightFight && phase_ == kGermanB) add(1, "first combat phase of fight/fight", "5.6");
    if (turn_ == 4 && paulus_ == 2) add(-1, "Paulus Pause declined (GT4)", "5.10");
    if (turn_ == 5 && paulus_ == 2) add(-2, "Paulus Pause declined (GT5)", "5.10");
  } else {
    if (order_[kSoviet] == kMoveFight && !(scenario_id_ == "road-back" && turn_ == 13))
      add(-1, "Soviet move/fight", "5.7");  // 12.2
  }
  if (turn_ == 1 && att == kSoviet && t.west_of_start_line)
    add(-1, "Soviet attack west of the start line on GT1", "5.15");
  if (b.lw_attack) add(1, "Luftwaffe supports the attack", "11.23");
  if (b.lw_defend) add(-1, "Luftwaffe supports the defence", "11.23");
  // 8.37, 8.39, 8.40 Soviet support markers printed "1R" (8.41: they combine).
  if (b.support & kSupportInterceptor) add(1, "VI Interceptor Corps", "8.37");
  if (b.support & kSupportPartisans) add(1, "Partisans", "8.39");
  if (b.support & kSupportAirborne) add(1, "Airborne Assault", "8.40");
  // 8.31 Tigers (max one shift per battle), 8.32 one shift per CM group.
  bool tiger = false;
  int cm = 0;
  std::vector<int> tu;
  units_in(b.target, tu);
  auto scan = [&](int u, int sign) {
    // 11.29: units that retreated into the hex (a TB / CM with its parent) do not defend.
    if (sign < 0 && !b.is_ma) {
      const int p = unit(u).parent >= 0 ? unit(u).parent : u;
      if (unit(p).flags & kFlagRetreatedIn) return;
    }
    if (def(u).type == kTigerBattalion) tiger = true;
    if (def(u).type == kCmGroup) cm += sign;
  };
  if (att == kGerman) {
    for (int i = 0; i < b.natt; ++i) scan(b.att[static_cast<size_t>(i)], 1);
    for (int u : tu) scan(u, -1);
    if (tiger) add(1, "Tiger battalion", "8.31");
    add(cm < 0 ? cm : 0, "Soviet CM group(s) defending", "8.32");
  } else {
    for (int i = 0; i < b.natt; ++i) scan(b.att[static_cast<size_t>(i)], 1);
    for (int u : tu) scan(u, -1);
    if (tiger) add(-1, "Tiger battalion defending", "8.31");
    add(cm > 0 ? cm : 0, "Soviet CM group(s) attacking", "8.32");
  }
  // 11.33 a solo Axis satellite defending inside the USSR.
  if (att == kSoviet && b.ndef == 1 && def(b.def[0]).axis_satellite() && t.country == kUssr)
    add(1, "lone Axis satellite defending in the USSR", "11.33");
  return s;
}

void BdState::compute_odds(Battle& b, bool roll_dice) {
  b.attack = attack_factor_total(b, roll_dice, nullptr);
  b.defense = defense_factor_total(b, roll_dice, nullptr);
  if (b.defense <= 0) {
    b.raw_index = 99;
  } else if (b.attack >= b.defense) {
    b.raw_index = static_cast<int8_t>(std::min(90, b.attack / b.defense - 1));  // 11.8
  } else {
    b.raw_index = static_cast<int8_t>(-std::min(90, ceil_div(b.defense, std::max(1, b.attack)) - 1));  // 11.9
  }
  b.shifts = static_cast<int8_t>(shifts_for(b));
  b.final_index =
      static_cast<int8_t>(std::clamp(b.raw_index + b.shifts, -120, 120));  // 11.11 unbounded scale
}

void BdState::start_battle(const std::vector<int>& atts_named, int target, bool ma, bool lw, bool drop) {
  // 8.31, 8.32: a TB / CM attacks with its parent whenever the parent attacks.
  std::vector<int> atts = atts_named;
  for (int u : atts_named)
    if (const int c = attached_of(u);
        c >= 0 && std::find(atts.begin(), atts.end(), c) == atts.end() && atts.size() < kMaxBattleUnits)
      atts.push_back(c);
  Battle b;
  b.active = 1;
  b.target = static_cast<int16_t>(target);
  b.is_ma = ma ? 1 : 0;
  b.attacker = static_cast<uint8_t>(phase_side());
  b.lw_attack = lw ? 1 : 0;
  if (lw) markers_.luftwaffe_left--;
  for (int u : atts) {
    b.att[b.natt++] = static_cast<int16_t>(u);
    const int h = unit(u).hex;
    bool seen = false;
    for (int i = 0; i < b.nfrom; ++i) seen |= b.from[static_cast<size_t>(i)] == h;
    if (!seen && b.nfrom < 6) b.from[b.nfrom++] = static_cast<int16_t>(h);
  }
  std::vector<int> defs;
  units_in(target, defs);
  for (int dd : defs) {
    if (!ma && (unit(dd).flags & kFlagRetreatedIn)) continue;  // 11.29 do not defend
    if (!ma && unit(dd).parent >= 0 && (unit(unit(dd).parent).flags & kFlagRetreatedIn)) continue;
    if (b.ndef < kMaxBattleUnits) b.def[b.ndef++] = static_cast<int16_t>(dd);
  }
  if (ma) {
    b.launch = unit(atts[0]).hex;
    for (int u : atts) {
      UnitSt& s = units_[static_cast<size_t>(u)];
      const int left = mp_left(u);
      s.mp = static_cast<int8_t>(left - ma_cost(u, b.launch, target));
      s.flags |= kFlagTurnAttacked;  // 10.16
      if (def(u).side == kSoviet) s.flags |= kFlagMaDone;
    }
    movers_.assign(atts.begin(), atts.end());
  } else {
    for (int u : atts) units_[static_cast<size_t>(u)].flags |= kFlagAttacked | kFlagTurnAttacked;
    for (int i = 0; i < b.ndef; ++i)
      units_[static_cast<size_t>(b.def[static_cast<size_t>(i)])].flags |= kFlagDefended;
  }
  if (drop) {  // 4.17: placed atop the Soviet stack; placed or eliminated after the battle
    b.drop = static_cast<int16_t>(para_drop_unit());
    units_[static_cast<size_t>(b.drop)].where = kOutOfPlay;
    units_[static_cast<size_t>(b.drop)].turn = 0;
  }
  battle_ = b;
  std::string text = std::string(side_name(b.attacker)) +
                     (ma ? " mobile assault on " : " prepared assault on ") + hex_id(target) + " with";
  for (int u : atts) text += " " + label(u);
  if (b.attacker == kSoviet) {
    // 11.7 (ruling BD-FOG1): the German sees the attacking stacks, not beneath their top
    // units, until the odds are computed; he hears the hexes the attack comes from.
    std::string from;
    for (int u : atts)
      if (from.find(" " + hex_id(unit(u).hex)) == std::string::npos) from += " " + hex_id(unit(u).hex);
    log_fog("combat", text,
            std::string("Soviet") + (ma ? " mobile assault on " : " prepared assault on ") + hex_id(target) +
                " from" + from,
            ma ? "10.24" : "11.1");
  } else {
    log("combat", text, ma ? "10.24" : "11.1");
  }
  if (drop)
    log("combat",
        label(b.drop) + " makes a combat air drop on " + hex_id(target) + ", adding its defence factor",
        "4.17");
  // 11.23: the German may commit a Luftwaffe marker to the defence (before the odds, 8.38).
  if (b.attacker == kSoviet && markers_.luftwaffe_left > 0) {
    pending_ = kPendLwDefend;
    return;
  }
  if (enter_support()) return;  // 8.36-8.41
  resolve_battle();
}

void BdState::resolve_battle() {
  Battle& b = battle_;
  compute_odds(b, true);
  // 11.7 (ruling BD-FOG1): the Soviet attackers are shown to the German when the odds are
  // computed, as the defenders are.
  if (sink_ != nullptr && b.attacker == kSoviet) {
    std::string attackers;
    for (int i = 0; i < b.natt; ++i) attackers += " " + label(b.att[static_cast<size_t>(i)]);
    steppe::Event e;
    e.kind = "reveal";
    e.text = "attackers on " + hex_id(b.target) + ":" + attackers;
    e.rule = "11.7";
    e.reveals = true;
    emit(std::move(e));
  }
  // 11.7: the defenders are revealed when the odds are computed.
  std::string shown;
  for (int i = 0; i < b.ndef; ++i) {
    units_[static_cast<size_t>(b.def[static_cast<size_t>(i)])].flags |= kFlagRevealed;
    shown += " " + label(b.def[static_cast<size_t>(i)]);
  }
  if (sink_ != nullptr) {
    steppe::Event e;
    e.kind = "reveal";
    e.text = "defenders in " + hex_id(b.target) + ":" + shown;
    e.rule = "11.7";
    e.reveals = true;
    emit(std::move(e));
  }
  // 13.9: the Soviet may take a Defender Retreat just before the die is rolled.
  if (retreat_offer()) {
    pending_ = kPendTakeRetreat;
    return;
  }
  roll_battle();
}

// 13.9: on the first turn of Blue & Kremlin, a German MA or PA into a non-city hex of the
// southern logistics zone, when the defenders have a hex to retreat into and the result
// depends on the die.
bool BdState::retreat_offer() const {
  const Battle& b = battle_;
  if (scenario_id_ != "blue-kremlin" || turn_ != first_turn_ || b.attacker != kGerman || !b.active)
    return false;
  const HexInfo& t = hx(b.target);
  if (t.city || t.zone != kZoneSouth) return false;
  if (b.final_index > data_->crt.max_index || b.final_index < data_->crt.min_index) return false;
  std::vector<int> opts;
  retreat_options(b.target, kSoviet, opts);
  return !opts.empty();
}

void BdState::roll_battle() {
  Battle& b = battle_;
  const Crt& crt = data_->crt;
  int res;
  std::string how;
  if (b.final_index > crt.max_index) {
    res = kDE;  // 11.10
    how = "automatic";
  } else if (b.final_index < crt.min_index) {
    res = kAE;
    how = "automatic";
  } else {
    b.die = static_cast<int8_t>(roll(6, "combat", "11.25"));
    res = crt.results[static_cast<size_t>(b.final_index - crt.min_index)][static_cast<size_t>(b.die - 1)];
    how = "die " + std::to_string(b.die);
  }
  b.rolled = static_cast<uint8_t>(res);
  last_odds_ = b.final_index;
  // The line gives every column shift with its reason and rule, as the preview (the
  // `combat` query) did before the die: "shifts 1R (1L rough terrain 11.14; 1R
  // concentric attack 11.24; 1R Luftwaffe supports the attack 11.23)".
  auto lr = [](int n) {
    return n == 0 ? std::string("0") : std::to_string(std::abs(n)) + (n > 0 ? "R" : "L");
  };
  Json why = Json::array();
  if (sink_ != nullptr) shifts_for(b, &why);  // the shifts compute_odds summed; only when logged
  std::string shifts = lr(b.shifts);
  if (!why.empty()) {
    shifts += " (";
    for (size_t i = 0; i < why.size(); ++i)
      shifts += (i ? "; " : "") + lr(why[i]["shift"].get<int>()) + " " + why[i]["reason"].get<std::string>() +
                " " + why[i]["rule"].get<std::string>();
    shifts += ")";
  }
  log("combat",
      std::to_string(b.attack) + " vs " + std::to_string(b.defense) + " = " +
          (b.raw_index == 99 ? std::string("auto") : odds_label(b.raw_index)) + ", shifts " + shifts +
          " -> " + (b.raw_index == 99 ? std::string("auto") : odds_label(b.final_index)) + ", " + how + ": " +
          result_name(res),
      "11.25");
  if (res == kBB) {
    const HexInfo& t = hx(b.target);
    if (turn_ == 1 && b.attacker == kSoviet) {  // 5.14
      log("combat", "Bloodbath becomes Defender Retreat on Game Turn 1", "5.14");
      res = kDR;
    } else {
      bool option = false;
      if (b.attacker == kGerman && turn_ == 1) option = true;  // 5.14
      if (b.attacker == kGerman && ((turn_ >= 2 && turn_ <= 6) || (turn_ >= 9 && turn_ <= 12)) && !t.city)
        option = true;                             // 5.16
      if (soviet_may_convert_bb()) option = true;  // 11.33
      if (option) {
        pending_ = kPendBbChoice;
        return;
      }
    }
  }
  apply_result(res);
}

// 11.26: while any involved dotted unit survives, only dotted units may be chosen; the
// dropped paratroopers (4.17) count at their defence factor (ruling BD-SC6).
void BdState::bb_candidates(std::vector<int>& out) const {
  const Battle& b = battle_;
  out.clear();
  for (int i = 0; i < b.natt; ++i) {
    const int u = b.att[static_cast<size_t>(i)];
    // 8.31, 8.32: an attached TB / CM goes only with its parent (bb_value counts it there).
    if (unit(u).where == kOnMap && !(is_attachable(u) && unit(u).parent >= 0)) out.push_back(u);
  }
  if (b.drop >= 0) out.push_back(b.drop);
  const bool dotted_left = std::any_of(out.begin(), out.end(), [&](int u) { return def(u).dotted; });
  if (dotted_left) std::erase_if(out, [&](int u) { return !def(u).dotted; });
}

int BdState::bb_value(int u) const {
  const Battle& b = battle_;
  if (u == b.drop) return def(u).defense;
  const int c = attached_of(u);  // 8.31, 8.32: its TB / CM counts one factor and goes with it
  int v = 0;
  for (int i = 0; i < b.natt; ++i) {
    const int x = b.att[static_cast<size_t>(i)];
    if (x == u) v += std::max(1, static_cast<int>(b.bb_per[static_cast<size_t>(i)]));
    if (x == c && c >= 0) v += std::max(1, static_cast<int>(b.bb_per[static_cast<size_t>(i)]));
  }
  return v;
}

void BdState::bb_remove(int u) {
  Battle& b = battle_;
  b.bb_need = static_cast<int16_t>(b.bb_need - bb_value(u));
  if (u == b.drop) {
    b.drop = -1;
    eliminate(u, "4.17");
  } else {
    eliminate(u, "11.26");
  }
}

// Removes what the rule leaves no choice about (a single candidate, or candidates that must
// all go to cover the loss); otherwise the attacker chooses (pending bb-loss).
void BdState::bb_continue() {
  Battle& b = battle_;
  std::vector<int> cand;
  while (b.bb_need > 0) {
    bb_candidates(cand);
    if (cand.empty()) break;
    int sum = 0;
    for (int u : cand) sum += bb_value(u);
    if (cand.size() > 1 && sum > b.bb_need) {
      pending_ = kPendBbLoss;
      return;
    }
    for (int u : cand) bb_remove(u);
  }
  pending_ = kPendNone;
  after_defender_gone(true);
}

// 11.33: a Soviet attack on a hex inside the USSR that holds only an Axis satellite unit:
// the Soviet may convert its BB result to a DR.
bool BdState::soviet_may_convert_bb() const {
  const Battle& b = battle_;
  return b.attacker == kSoviet && b.ndef == 1 && def(b.def[0]).axis_satellite() &&
         hx(b.target).country == kUssr;
}

void BdState::apply_result(int res, bool soviet_converted_bb) {
  Battle& b = battle_;
  const HexInfo& t = hx(b.target);
  const int dfd = other(b.attacker);
  if (res == kDR) {
    const bool fa_later = dfd == kSoviet && fa_effect(b.target) && markers_.fa_turn != turn_;
    // 11.33: a DR the Soviet converted from a BB stands "even in fortress city defenses
    // inside the USSR".
    if (soviet_converted_bb && fortress_city(b.target)) {
      log("combat", "the Defender Retreat stands in the Fortress City (converted Bloodbath)", "11.33");
    } else if (hero_city(b.target) || fortress_city(b.target) || fa_later) {
      res = kBB;  // 9.6, 8.18
      log("combat", "Defender Retreat becomes Bloodbath in a Hero/Fortress City or Fortified Area",
          fa_later ? "8.18" : "9.6");
      if (!soviet_converted_bb && soviet_may_convert_bb()) {  // 11.33: that BB too is his to convert
        pending_ = kPendBbChoice;
        return;
      }
    } else if (t.city && dfd == kGerman) {
      res = kAS;  // 11.20
      log("combat", "Defender Retreat becomes Attacker Stalled: German-side defenders in a city", "11.20");
    }
  }
  b.result = static_cast<uint8_t>(res);
  last_result_ = result_name(res);
  std::vector<int> in_hex;
  units_in(b.target, in_hex);
  auto kill_retreated_in = [&]() {  // 11.29
    if (b.is_ma) return;
    for (int u : in_hex)
      if (unit(u).where == kOnMap && (unit(u).flags & kFlagRetreatedIn)) eliminate(u, "11.29");
  };
  switch (res) {
    case kAE:
      for (int i = 0; i < b.natt; ++i) eliminate(b.att[static_cast<size_t>(i)], "11.26");
      finish_battle();
      return;
    case kAS:
      if (b.is_ma)
        for (int i = 0; i < b.natt; ++i) {
          const int u = b.att[static_cast<size_t>(i)];
          if (def(u).side == kSoviet) units_[static_cast<size_t>(u)].flags |= kFlagMaFailed;  // 10.28
        }
      finish_battle();
      return;
    case kDE:
      for (int i = 0; i < b.ndef; ++i) eliminate(b.def[static_cast<size_t>(i)], "11.26");
      kill_retreated_in();
      after_defender_gone(true);
      return;
    case kBB: {
      // 11.26: defenders eliminated; the attacker removes units of his choice until their
      // attack factors (as they counted in this battle) cover the defence lost, dotted units
      // first (bb_continue; ruling BD-7).
      const int lost = b.defense;  // the defence as it counted in this battle (supply included)
      b.defense_lost = lost;
      for (int i = 0; i < b.ndef; ++i) eliminate(b.def[static_cast<size_t>(i)], "11.26");
      kill_retreated_in();
      std::vector<int> per;
      Battle tmp = b;
      attack_factor_total(tmp, false, &per);
      b.bb_need = static_cast<int16_t>(lost);
      for (int i = 0; i < b.natt; ++i)
        b.bb_per[static_cast<size_t>(i)] = static_cast<int16_t>(per[static_cast<size_t>(i)]);
      bb_continue();
      return;
    }
    case kDR: {
      b.nretreat = 0;
      for (int i = 0; i < b.ndef; ++i) {
        const int u = b.def[static_cast<size_t>(i)];
        const UnitDef& d = def(u);
        if (d.type == kFortressCommand || d.type == kMilitiaArmy || d.type == kCounterFireCorps) {
          eliminate(u,
                    d.type == kFortressCommand ? "8.33" : "8.34");  // static units die instead of retreating
          continue;
        }
        b.retreating[b.nretreat++] = static_cast<int16_t>(u);
      }
      kill_retreated_in();
      if (b.nretreat == 0) {
        after_defender_gone(true);
        return;
      }
      std::vector<int> opts;
      retreat_options(b.target, dfd, opts);
      if (opts.empty()) {
        for (int i = 0; i < b.nretreat; ++i) eliminate(b.retreating[static_cast<size_t>(i)], "11.28");
        b.nretreat = 0;
        after_defender_gone(true);
        return;
      }
      if (opts.size() == 1) {
        do_retreat(opts[0]);
        return;
      }
      pending_ = kPendRetreat;
      return;
    }
    default:
      finish_battle();
  }
}

// 11.27-11.28: adjacent hexes free of enemy units, not where the attack came from, not
// across prohibited hexsides; the side's preferred directions first.
void BdState::retreat_options(int from_hex, int side, std::vector<int>& out) const {
  out.clear();
  static const int pref[2][3] = {{kW, kSW, kNW}, {kE, kSE, kNE}};
  const Places& pl = data_->places;
  auto ok = [&](int d) {
    const int n = neighbour(from_hex, d);
    if (n < 0 || !hx(n).on_map || data_->tec.prohibited[hx(n).terrain]) return -1;
    if (enemy_in(n, side)) return -1;
    if (battle_.active) {
      for (int i = 0; i < battle_.nfrom; ++i)
        if (battle_.from[static_cast<size_t>(i)] == n) return -1;
      if (battle_.launch == n) return -1;  // 10.31
    }
    const HexInfo& a = hx(from_hex);
    if ((a.sea_side >> d) & 1u || (a.lake_side >> d) & 1u) return -1;  // 11.19
    if (pl.strait(from_hex, n)) return -1;                             // 11.17, 11.18
    return n;
  };
  for (int d : pref[side]) {
    const int n = ok(d);
    if (n >= 0) out.push_back(n);
  }
  if (!out.empty()) return;
  for (int d = 0; d < 6; ++d) {
    if (d == pref[side][0] || d == pref[side][1] || d == pref[side][2]) continue;
    const int n = ok(d);
    if (n >= 0) out.push_back(n);
  }
}

void BdState::do_retreat(int dest) {
  Battle& b = battle_;
  std::vector<int> movers;
  for (int i = 0; i < b.nretreat; ++i) {
    const int u = b.retreating[static_cast<size_t>(i)];
    if (is_attachable(u) && unit(u).parent >= 0 && unit(unit(u).parent).where == kOnMap &&
        unit(unit(u).parent).hex == unit(u).hex)
      continue;  // 8.31, 8.32: retreats with its parent
    movers.push_back(u);
  }
  b.nretreat = 0;
  int here = dest;
  for (int hop = 0; hop < 8 && !movers.empty(); ++hop) {
    std::vector<int> fits, surplus;
    for (int u : movers) {
      std::vector<int> trial = fits;
      trial.push_back(u);
      const bool cav_city = def(u).type == kCavalryGroup && hx(here).city;  // 8.30
      if (!cav_city && stacking_ok(here, def(u).side, trial).is_ok())
        fits.push_back(u);
      else
        surplus.push_back(u);
    }
    for (int u : fits) {
      move_to(u, here);
      units_[static_cast<size_t>(u)].flags |= kFlagRetreatedIn;
      log("retreat", label(u) + " retreats to " + hex_id(here), "11.27");
    }
    if (surplus.empty()) break;
    std::vector<int> opts;
    retreat_options(here, def(surplus[0]).side, opts);
    if (opts.empty() || hop == 7) {
      for (int u : surplus) eliminate(u, "11.28");
      break;
    }
    movers = surplus;  // 11.28: the surplus retreats further
    here = opts[0];
  }
  pending_ = kPendNone;
  after_defender_gone(true);
}

void BdState::after_defender_gone(bool cleared) {
  Battle& b = battle_;
  std::vector<int> left;
  units_in(b.target, left);
  bool enemy_left = false;
  for (int u : left)
    if (def(u).side != b.attacker) enemy_left = true;
  cleared = cleared && !enemy_left;
  if (b.drop >= 0) {  // 4.17
    const int para = b.drop;
    b.drop = -1;
    if (cleared) {
      place(para, b.target);
      units_[static_cast<size_t>(para)].flags |= kFlagDone | kFlagAttacked;
      log("combat", label(para) + " survives the air drop and holds " + hex_id(b.target), "4.17");
    } else {
      eliminate(para, "4.17");
      log("combat", label(para) + " is lost: the air drop did not clear " + hex_id(b.target), "4.17");
    }
  }
  if (b.is_ma) {
    if (cleared) {  // 10.29: no advance; the assaulting units are in the hex and move on
      for (int i = 0; i < b.natt; ++i) {
        const int u = b.att[static_cast<size_t>(i)];
        if (unit(u).where == kOnMap) move_to(u, b.target);
      }
    } else {
      for (int i = 0; i < b.natt; ++i) {
        const int u = b.att[static_cast<size_t>(i)];
        if (def(u).side == kSoviet) units_[static_cast<size_t>(u)].flags |= kFlagMaFailed;
      }
    }
    finish_battle();
    return;
  }
  if (!cleared) {
    finish_battle();
    return;
  }
  // 11.30: survivors may advance one hex into the emptied hex.
  b.nadv = 0;
  const Places& pl = data_->places;
  for (int i = 0; i < b.natt; ++i) {
    const int u = b.att[static_cast<size_t>(i)];
    if (unit(u).where != kOnMap || def(u).cls == kStatic || def(u).type == kCounterFireCorps) continue;
    if (is_attachable(u)) continue;  // 8.31, 8.32: advances with its parent
    const int h = unit(u).hex;
    const int d = direction(h, b.target);
    if (d < 0) continue;
    bool bad = ((hx(h).lake_side >> d) & 1u) != 0;
    if (pl.strait(h, b.target)) bad = true;
    if (!bad) b.adv[b.nadv++] = static_cast<int16_t>(u);
  }
  if (b.nadv == 0) {
    finish_battle();
    return;
  }
  pending_ = kPendAdvance;
}

void BdState::finish_battle() {
  if (battle_.drop >= 0) {  // 4.17: the hex was not cleared
    const int para = battle_.drop;
    battle_.drop = -1;
    eliminate(para, "4.17");
    log("combat", label(para) + " is lost: the air drop did not clear " + hex_id(battle_.target), "4.17");
  }
  battle_.active = 0;
  pending_ = kPendNone;
  mark_dirty();
}

// 10.27: the units in u's hex that started the phase with it and can mobile-assault
// `target` now (MP, supply, not finished), in unit order.
void BdState::ma_group(int u, int target, std::vector<int>& out) const {
  out.clear();
  const int h = unit(u).hex;
  for (int x = 0; x < num_units(); ++x) {
    const UnitSt& s = unit(x);
    if (s.where != kOnMap || s.hex != h || s.start_hex != unit(u).start_hex || def(x).side != def(u).side)
      continue;
    if (is_attachable(x)) continue;  // 8.31, 8.32: joins with its parent (start_battle)
    if (!can_attack_unit(x, target, true)) continue;
    const int c = ma_cost(x, h, target);
    const int left = mp_left(x);
    if (c < 0 || left < c) continue;
    const int sup = unit_supply(x);
    if (sup != kSupOverland && sup != kSupGarrison && sup != kSupAlways && sup != kSupCrimea) continue;
    if (s.mp >= 0 && std::find(movers_.begin(), movers_.end(), x) == movers_.end()) continue;
    out.push_back(x);
  }
}

void BdState::gen_attacks(std::vector<Action>& out) const {
  const int side = phase_side();
  std::array<uint8_t, kNumHexes> occ{};
  occ.fill(kNoSide);
  for (int u = 0; u < num_units(); ++u)
    if (unit(u).where == kOnMap) occ[static_cast<size_t>(unit(u).hex)] = def(u).side;
  // The units of each hex as a list in unit order, so that a stack is read without a scan
  // of every unit (units_in scans them, and this asks for every candidate hex); `stack`
  // sorts it exactly as units_in does (the same sequence into the same sort).
  std::array<int16_t, kNumHexes> head;
  head.fill(-1);
  std::array<int16_t, kMaxUnits> next_in_hex{};
  for (int u = num_units() - 1; u >= 0; --u)
    if (unit(u).where == kOnMap) {
      next_in_hex[static_cast<size_t>(u)] = head[static_cast<size_t>(unit(u).hex)];
      head[static_cast<size_t>(unit(u).hex)] = static_cast<int16_t>(u);
    }
  auto stack = [&](int h, std::vector<int>& into) {
    into.clear();
    for (int x = head[static_cast<size_t>(h)]; x >= 0; x = next_in_hex[static_cast<size_t>(x)])
      into.push_back(x);
    std::sort(into.begin(), into.end(), [&](int a, int b) { return unit(a).order < unit(b).order; });
  };
  std::vector<int> here;
  if (is_assault_phase()) {
    for (int t = 0; t < kNumHexes; ++t) {
      if (occ[static_cast<size_t>(t)] != other(side)) continue;
      stack(t, here);
      bool done = false;
      for (int dd : here)
        if ((unit(dd).flags & kFlagDefended) && !(unit(dd).flags & kFlagRetreatedIn)) done = true;
      if (done) continue;
      int hexes[6], n = 0;
      for (int d = 0; d < 6; ++d) {
        const int h = neighbour(t, d);
        if (h < 0 || occ[static_cast<size_t>(h)] != side) continue;
        stack(h, here);
        bool any = false;
        for (int u : here)
          if (def(u).attack != 0 && can_attack_unit(u, t, false)) any = true;
        if (any) hexes[n++] = h;
      }
      for (int mask = 1; mask < (1 << n); ++mask) {
        Action a;
        a.verb = kAttackFrom;
        a.push(t);
        a.push(0);
        for (int i = 0; i < n; ++i)
          if ((mask >> i) & 1) a.push(hexes[i]);
        std::vector<int> atts;
        if (!collect_attack_from(a, atts).is_ok()) continue;
        if (!check_attack(t, atts, false, false).is_ok()) continue;
        out.push_back(a);
        if (side == kGerman && markers_.luftwaffe_left > 0) {
          a.args[1] = 1;
          out.push_back(a);
        }
      }
      // Single units of a stack may attack on their own (11.5): "attack T with U".
      for (int i = 0; i < n; ++i) {
        stack(hexes[i], here);
        for (int u : here) {
          if (def(u).attack == 0) continue;
          std::vector<int> one{u};
          if (!check_attack(t, one, false, false).is_ok()) continue;
          for (int lw = 0; lw <= (side == kGerman && markers_.luftwaffe_left > 0 ? 1 : 0); ++lw) {
            Action a;
            a.verb = kAttackWith;
            a.push(t);
            a.push(lw);
            a.push(u);
            out.push_back(a);
          }
        }
      }
    }
  } else if (is_move_phase() && ma_allowed_now(side)) {
    for (int h = 0; h < kNumHexes; ++h) {
      if (occ[static_cast<size_t>(h)] != side) continue;
      stack(h, here);
      for (int d = 0; d < 6; ++d) {
        const int t = neighbour(h, d);
        if (t < 0 || occ[static_cast<size_t>(t)] != other(side)) continue;
        // Each unit alone, and each group that started the phase together (10.27).
        std::vector<int> group;
        std::vector<int16_t> seen_starts;
        for (int u : here) {
          if (!can_attack_unit(u, t, true)) continue;
          for (int lw = 0; lw <= (side == kGerman && markers_.luftwaffe_left > 0 ? 1 : 0); ++lw) {
            std::vector<int> one{u};
            if (def(u).attack != 0 && check_attack(t, one, true, lw != 0).is_ok()) {
              Action a;
              a.verb = kMobileAssault;
              a.push(t);
              a.push(lw);
              a.push(u);
              out.push_back(a);
            }
            if (std::find(seen_starts.begin(), seen_starts.end(), unit(u).start_hex) != seen_starts.end())
              continue;
            ma_group(u, t, group);
            if (group.size() < 2 || group.size() + 2 > static_cast<size_t>(Action::kMaxArgs)) continue;
            if (!check_attack(t, group, true, lw != 0).is_ok()) continue;
            Action a;
            a.verb = kMobileAssault;
            a.push(t);
            a.push(lw);
            for (int x : group) a.push(x);
            out.push_back(a);
          }
          seen_starts.push_back(unit(u).start_hex);
        }
      }
    }
  }
}

// ======================================================================= sequence of play (5.x)

int BdState::phase_side() const {
  switch (phase_) {
    case kSetupPhase:
      for (const auto& [u, z] : setup_zones())
        if (unit(u).where == kToSetUp) return def(u).side;
      return lith_relocate_ ? kSoviet : kGerman;  // 3.7 the Soviet relocation step
    case kAdminGerman:
    case kGermanOrder:
    case kGermanStrategic:
    case kGermanB:
    case kGermanC:
      return kGerman;
    case kGameOver:
      return kNoSide;
    default:
      return kSoviet;
  }
}

bool BdState::is_move_phase() const {
  const bool b = phase_ == kGermanB || phase_ == kSovietB;
  const bool c = phase_ == kGermanC || phase_ == kSovietC;
  if (!b && !c) return false;
  const int o = order_[phase_side()];
  if (o == kFightFight) return false;
  if (o == kFightMove) return c;
  return b;  // move/fight (5.4)
}

bool BdState::is_assault_phase() const {
  const bool b = phase_ == kGermanB || phase_ == kSovietB;
  const bool c = phase_ == kGermanC || phase_ == kSovietC;
  return (b || c) && !is_move_phase();
}

int BdState::current_player() const {
  if (phase_ == kGameOver) return steppe::kTerminalPlayer;
  switch (pending_) {
    case kPendLwDefend:
      return kGerman;
    case kPendEmergency:
    case kPendCaucasus:
    case kPendSupport:
      return kSoviet;
    case kPendBbChoice:
    case kPendAdvance:
    case kPendBbLoss:
      return battle_.attacker;
    case kPendRetreat:
    case kPendTakeRetreat:
      return other(battle_.attacker);
    case kPendOverstack: {  // 6.2 the opposing player chooses
      const int h = overstacked_hex();
      return h >= 0 ? other(occupant_side(h)) : phase_side();
    }
    default:
      return phase_side();
  }
}

std::vector<double> BdState::returns() const {
  if (winner_ == kGerman) return {1.0, -1.0};
  if (winner_ == kSoviet) return {-1.0, 1.0};
  return {0.0, 0.0};
}

Json BdState::result() const {
  // The German's ground gained: hexes of the USSR and the Baltic states he controls (a pace
  // measure for the AI reports; VP counts only the cities among them).
  int held = 0;
  for (int h = 0; h < kNumHexes; ++h)
    if (hx(h).on_map && (hx(h).country == kUssr || hx(h).country == kBaltic) &&
        hex_.control[static_cast<size_t>(h)] == kGerman)
      ++held;
  return Json{{"winner", winner_ == kNoSide ? "draw" : side_name(winner_)},
              {"turn", turn_},
              {"vp", vp_},
              {"german_hexes_in_ussr", held},
              {"reason", end_reason_}};
}

void BdState::clear_phase_flags(bool new_player_turn) {
  const uint16_t keep = new_player_turn ? kFlagRevealed : kFlagRevealed | kFlagSeaMoved | kFlagTurnAttacked;
  for (auto& s : units_) {
    s.flags = static_cast<uint16_t>(s.flags & keep);
    s.mp = -1;
    s.start_hex = s.where == kOnMap ? s.hex : int16_t{-1};
  }
  movers_.clear();
  kerch_from_ = -1;
  sea_used_ = 0;
}

void BdState::enter_phase(Phase p) {
  const int side_before = phase_side();
  phase_ = p;
  crimea_switched_ = false;
  clear_phase_flags(phase_side() != side_before);
  // 8.36-8.39: each support marker may be committed once per Soviet Prepared Assault Phase.
  markers_.artillery_used = markers_.air_armies_used = 0;
  markers_.support_used = 0;
  bulg_hex_ = -1;  // 8.26: the Bulgarians' 6.4 exception ends with their first move
  log("phase", std::string("Game Turn ") + std::to_string(turn_) + ": " + phase_name(p), "5.2");
  // 8.19: due Guards tank conversions happen in the Mutual Administrative Phase, or the
  // moment a waiting namesake is back in overland supply (checked at each phase start).
  guards_tank_conversions();
  ss_delayed_check();  // 8.17
  // 8.11: from GT3, once per German Movement Phase, the Soviet may place one RVGK unit in a
  // supplied Soviet city (offered at the start of the phase: ruling BD-14).
  if (is_move_phase() && phase_side() == kGerman && turn_ >= 3) {
    bool any = false;
    for (int u = 0; u < num_units() && !any; ++u) any = unit(u).where == kRvgk && def(u).side == kSoviet;
    if (any) pending_ = kPendEmergency;
  }
  // 5.10: Paulus Pause declined: each German hex with mech units loses d6 MF on GT3
  // (rolled at the start of the movement phase: ruling BD-6).
  if (is_move_phase() && phase_side() == kGerman && turn_ == 3 && paulus_ == 2) {
    paulus_rolls_.clear();
    for (int h = 0; h < kNumHexes; ++h) {
      bool mech = false;
      for (int u = 0; u < num_units(); ++u)
        if (unit(u).where == kOnMap && unit(u).hex == h && def(u).side == kGerman && def(u).cls == kMech)
          mech = true;
      if (mech)
        paulus_rolls_.emplace_back(
            static_cast<int16_t>(h),
            static_cast<int8_t>(roll(6, "Paulus Pause MF loss in " + hex_id(h), "5.10")));
    }
  }
}

void BdState::begin_turn() {
  hex_.entered.fill(0);
  hex_.insitu.fill(0);
  markers_.east_wall_left = 0;
  rvgk_moves_ = 0;
  order_ = {kOrderNone, kOrderNone};
  markers_.aerial = -1;
  crimea_turn_ = crimea_on_;                                              // 7.4 the choice is per game turn
  if (markers_.aerial_return == turn_) markers_.aerial_available = true;  // 7.7
  const int fixed_luftwaffe = sparam("luftwaffe");                        // 15.7
  markers_.luftwaffe_left =
      static_cast<int8_t>(fixed_luftwaffe > 0 ? fixed_luftwaffe : ti().luftwaffe);  // 11.23
  if (watch_ == 2 && turn_ == data_->victory.watch_reveal_turn)                     // 4.18 Oder: two more
    markers_.luftwaffe_left =
        static_cast<int8_t>(markers_.luftwaffe_left + data_->victory.oder_luftwaffe_extra);
  for (int s = 0; s < 2; ++s) {  // 8.12
    repl_left_mech_[static_cast<size_t>(s)] = static_cast<int8_t>(ti().repl[s][kMech]);
    repl_left_non_[static_cast<size_t>(s)] = static_cast<int8_t>(ti().repl[s][kNonMech]);
  }
  if (scenario_id_ == "road-back" && turn_ == 13) repl_left_mech_ = repl_left_non_ = {0, 0};  // 12.4
  if (sparam("german_repl_mech") > 0 || sparam("german_repl_non") > 0) {  // 4.17, 14.11 Manstein's Gambit
    repl_left_mech_[kGerman] = static_cast<int8_t>(sparam("german_repl_mech"));
    repl_left_non_[kGerman] = static_cast<int8_t>(sparam("german_repl_non"));
    log("replacements",
        "German replacements " + std::to_string(sparam("german_repl_mech")) + "/" +
            std::to_string(sparam("german_repl_non")) + " this turn",
        "4.17");
  }
  if (sparam("no_replacements_first_turn") > 0 && turn_ == first_turn_) {  // 15.6
    repl_left_mech_ = repl_left_non_ = {0, 0};
    log("replacements", "no replacements for either side on the first turn", "15.6");
  } else if (sparam("repl_bonus") > 0) {  // 15.6: each TRRT number one higher (ruling BD-SC5)
    for (size_t sd = 0; sd < 2; ++sd) {
      repl_left_mech_[sd] = static_cast<int8_t>(repl_left_mech_[sd] + sparam("repl_bonus"));
      repl_left_non_[sd] = static_cast<int8_t>(repl_left_non_[sd] + sparam("repl_bonus"));
    }
    log("replacements",
        "replacements +" + std::to_string(sparam("repl_bonus")) + " over the TRRT: German " +
            std::to_string(repl_left_mech_[kGerman]) + "/" + std::to_string(repl_left_non_[kGerman]) +
            ", Soviet " + std::to_string(repl_left_mech_[kSoviet]) + "/" +
            std::to_string(repl_left_non_[kSoviet]),
        "15.6");
  }
  hex_.turn_start_control = hex_.control;  // 4.4, 4.19
  soviet_losses_ = 0;                      // 4.19
  const VictoryRules& vr = data_->victory;
  if (turn_ == vr.watch_reveal_turn && watch_ != 0) {  // 4.18: the counter is uncovered
    log("victory",
        std::string("the German reveals his choice: Operation Watch on the ") +
            (watch_ == 2 ? "Oder" : "Rhine"),
        "4.18");
    if (watch_ == 2) {
      repl_left_mech_[kGerman] = static_cast<int8_t>(vr.oder_repl_mech);
      repl_left_non_[kGerman] = static_cast<int8_t>(vr.oder_repl_non);
      for (const auto& label : vr.oder_units) {
        const int u = data_->find_unit(label);
        if (u < 0 || u >= num_units()) continue;
        UnitSt& us = units_[static_cast<size_t>(u)];
        if (us.where == kOnMap || us.where == kDeadPerm) continue;
        if (u == ss_unit()) ss_due_ = 0;  // 4.18 overturns the 8.17 schedule
        us.where = kTrrt;
        us.turn = static_cast<int8_t>(turn_);
        log("reinforcement", label + " arrives as an Oder special reinforcement", "4.18");
      }
    }
  }
  german_moscow_at_start_ =
      data_->places.moscow >= 0 && hex_.control[static_cast<size_t>(data_->places.moscow)] == kGerman;
  for (const auto& m : data_->markers) {
    const bool now =
        m.turn == turn_ || (turn_ == first_turn_ && m.turn < first_turn_ && m.marker == "offensive-supply");
    if (!now) continue;
    if (m.marker == "hero-city" && m.turn == turn_)
      markers_.hero_left = static_cast<int8_t>(markers_.hero_left + m.count);           // 9.1
    if (m.marker == "fortified-area" && m.turn == turn_) markers_.fa_available = true;  // 8.18
    if (m.marker == "east-wall" && m.turn == turn_)
      markers_.east_wall_left = static_cast<int8_t>(m.count);                              // 8.5
    if (m.marker == "aerial-supply" && m.turn == turn_) markers_.aerial_available = true;  // 7.7
    if (m.marker == "fortress-city" && m.turn == turn_ && m.turn >= 28)
      markers_.fortress_restricted_left = static_cast<int8_t>(markers_.fortress_restricted_left + m.count);
    else if (m.marker == "fortress-city" && m.turn == turn_)
      markers_.fortress_left = static_cast<int8_t>(markers_.fortress_left + m.count);  // 9.2
    if (m.marker == "offensive-supply") {                                              // 7.10
      const int i = m.letter == "A" ? 0 : m.letter == "B" ? 1 : 2;
      markers_.osupply_have[static_cast<size_t>(i)] = 1;
    }
  }
  withdraw_due_ = (turn_ >= 6 && turn_ <= 8 && scenario_id_ != "what-if-1942") ? 1 : 0;  // 8.21
  // 8.29: GT22 the early panzer corps become their late "2-4" counterparts in place.
  if (turn_ == 22)
    for (int u = 0; u < num_units(); ++u) {
      const UnitDef& d = def(u);
      if (d.type != kPanzer || d.counterpart < 0 || d.attack_circled) continue;
      UnitSt& s = units_[static_cast<size_t>(u)];
      if (s.where != kOnMap && s.where != kDead) continue;
      UnitSt& c = units_[static_cast<size_t>(d.counterpart)];
      c.where = s.where;
      c.hex = s.hex;
      c.order = s.order;
      s.where = kOutOfPlay;
      s.hex = -1;
      repoint_attached(u, d.counterpart);  // 8.31 its Tiger battalion stays with the new counter
      log("convert", d.label + " becomes " + def(d.counterpart).label, "8.29");
    }
  mark_dirty();
  log("turn", "Game Turn " + std::to_string(turn_) + " (" + ti().months + ")", "5.8");
  ss_turn_start();    // 8.17
  mg_replacements();  // 4.17
  // 4.11: the launch condition is looked at at the start of the game turn.
  cauc_open_ = caucasus_scenario() && cauc_ == kCaucNone && caucasus_launch_condition();
  if (cauc_open_)
    log("victory",
        "the German may launch a Caucasus expedition this turn (Maikop, Dnepropetrovsk, Rostov held)",
        "4.11");
}

void BdState::next_player_turn() {
  const int side = phase_side();
  if (side == kGerman)
    if (const int para = para_drop_unit(); para >= 0) {  // 4.17 entry that turn or never
      units_[static_cast<size_t>(para)].where = kOutOfPlay;
      log("reinforcement", def(para).label + " neither entered nor dropped on the first turn: out of play",
          "4.17");
    }
  if (side == kGerman && oder_active() && watch_on_the_oder_check()) return;  // 4.19
  if (side == kSoviet) markers_.osupply = {{-1, -1, -1}};  // 7.12 removed at the end of the player turn
  if (side == first_player_) {
    const int second = side == kGerman ? kSoviet : kGerman;  // spelled out: GCC 12 -Warray-bounds
    order_[second] = kOrderNone;
    enter_phase(second == kGerman ? kGermanOrder : kSovietOrder);
    return;
  }
  victory_check();
}

// Phase IV (4.14) plus the end-of-turn events.
void BdState::victory_check() {
  clear_phase_flags();
  // 7.7: a used aerial supply marker comes back d6 turns later.
  if (markers_.aerial >= 0) {
    const int r = roll(6, "aerial supply marker return", "7.7");
    markers_.aerial_return = static_cast<int8_t>(turn_ + r);
    markers_.aerial = -1;
  }
  // 4.2: end of GT1-5, -1 VP per hex of Greater Germany / General Government a Soviet unit occupies.
  if (turn_ <= 5 && scenario_id_ != "what-if-1942") {
    for (int h = 0; h < kNumHexes; ++h) {
      const Country c = hx(h).country;
      if ((c == kGreaterGermany || c == kGeneralGovernment) && occupant_side(h) == kSoviet &&
          !(opt_lithuania_ &&
            hex_.start_control[static_cast<size_t>(h)] == kSoviet)) {  // 3.7 Soviet from the start
        vp_ -= 1;
        vp_events_ -= 1;
        log("vp", "Soviet units occupy " + hex_id(h) + ": German VP -1", "4.2");
      }
    }
  }
  // 8.23: last act of GT3: Soviet corps removed, oversized armies replaced by regulars.
  if (turn_ == 3)
    for (int u = 0; u < num_units(); ++u) {
      const UnitDef& d = def(u);
      UnitSt& s = units_[static_cast<size_t>(u)];
      if (d.type == kMechCorps || d.type == kRifleCorps || d.type == kAirborneCorps) {
        if (s.where == kOnMap || s.where == kDead || s.where == kRvgk || s.where == kTrrt) {
          s.where = kDeadPerm;
          s.hex = -1;
          log("convert", d.label + " removed in the GT3 reorganisation", "8.23");
        }
      } else if (d.type == kOversizedRifleArmy && s.where == kOnMap && d.counterpart >= 0) {
        UnitSt& c = units_[static_cast<size_t>(d.counterpart)];
        c.where = kOnMap;
        c.hex = s.hex;
        c.order = s.order;
        s.where = kDeadPerm;
        s.hex = -1;
        repoint_attached(u, d.counterpart);
        if (german_sees(d.counterpart))
          log("convert", d.label + " becomes " + def(d.counterpart).label, "8.23");
        else  // 11.7 beneath the top of its stack
          log_fog("convert", d.label + " becomes " + def(d.counterpart).label,
                  "an oversized Soviet rifle army becomes its reorganised counterpart", "8.23");
      }
    }
  // 8.28: the Italian 8th Army leaves at the end of GT16.
  if (turn_ == 16)
    for (int u = 0; u < num_units(); ++u)
      if (def(u).nation == "italian" && unit(u).where == kOnMap) {
        units_[static_cast<size_t>(u)].where = kOutOfPlay;
        units_[static_cast<size_t>(u)].hex = -1;
        log("withdraw", def(u).label + " leaves the game", "8.28");
      }
  summer_offensive_check();  // 4.4
  ss_turn_end();             // 4.10
  caucasus_victory_phase();  // 4.13
  mark_dirty();
  if (mg_ && turn_ >= data_->victory.mg_end_turn && mg_victory_check()) return;  // 4.16
  const TurnInfo& t = ti();
  const bool chart = scenario_id_ == "grand-campaign" || scenario_id_ == "empty" ||
                     (scenario_id_ == "road-back" && turn_ >= 16);
  if (turn_ >= last_turn_ && scenario_victory()) return;
  if (turn_ >= last_turn_) {
    // 4.1: no draws; the final check decides (4.20: net Forgiveness Points added).
    const int total = vp_ + (opt_forgiveness_ ? fp_ : 0);
    if (opt_forgiveness_ && fp_ != 0)
      log("vp",
          "Forgiveness Points " + std::string(fp_ > 0 ? "+" : "") + std::to_string(fp_) + ": final total " +
              std::to_string(total),
          "4.20");
    const int w = total >= t.german_wins_at ? kGerman : kSoviet;
    end_game(w, "final Victory Check with " + std::to_string(total) + " VP", "4.14");
    return;
  }
  if (chart && t.check && turn_ >= 3 && opt_forgiveness_) {
    // 4.20 (option): instead of ending the game, record one FP per VP needed to bring the
    // total back into the play-on range and move the VP track there (ruling BD-V3).
    int n = 0;
    if (vp_ >= t.german_wins_at) n = vp_ - (t.german_wins_at - 1);
    if (vp_ <= t.soviet_wins_at) n = -(t.soviet_wins_at + 1 - vp_);
    if (n != 0) {
      fp_ += n;
      vp_ -= n;
      vp_events_ -= n;
      log("vp",
          "Forgiveness Points: " + std::string(n > 0 ? "+" : "") + std::to_string(n) + " FP (net " +
              std::to_string(fp_) + "), play on with " + std::to_string(vp_) + " VP",
          "4.20");
    }
  }
  if (chart && t.check && turn_ >= 3) {
    if (vp_ >= t.german_wins_at) {
      end_game(kGerman,
               "Victory Check: " + std::to_string(vp_) + " VP >= " + std::to_string(t.german_wins_at),
               "4.14");
      return;
    }
    if (vp_ <= t.soviet_wins_at) {
      end_game(kSoviet,
               "Victory Check: " + std::to_string(vp_) + " VP <= " + std::to_string(t.soviet_wins_at),
               "4.14");
      return;
    }
  }
  ++turn_;
  begin_turn();
  enter_phase(kAdminGerman);
  territory_vp_checks();  // 4.5, 4.6 "the first instant after the end of GT13"
}

// Scenario victory conditions checked at the end of the last turn.
bool BdState::scenario_victory() {
  auto german_city_held = [&](int h) {
    return hex_.control[static_cast<size_t>(h)] == kGerman && overland(h, kGerman);
  };
  auto soviet_city_held = [&](int h) {
    return hex_.control[static_cast<size_t>(h)] == kSoviet && overland(h, kSoviet);
  };
  if (scenario_id_ == "blue-kremlin") {  // 13.4
    bool all = true;
    for (int h = 0; h < kNumHexes; ++h)
      if (hx(h).city && hex_.start_control[static_cast<size_t>(h)] == kGerman && !german_city_held(h))
        all = false;
    int big = 0;
    for (int h : {data_->places.leningrad, data_->places.moscow, data_->places.stalingrad})
      if (h >= 0 && german_city_held(h)) ++big;
    // 13.4: an expedition still in the holding box (never short of supply there, 4.13)
    // counts as one such city.
    if (cauc_ == kCaucInBox || cauc_ == kCaucBrokeThrough) ++big;
    if (all && big >= 2)
      end_game(kGerman, "holds every start city and 2 of Leningrad, Moscow, Stalingrad", "13.4");
    else
      end_game(kSoviet, "the German did not meet 13.4", "13.4");
    return true;
  }
  if (scenario_id_ == "citadel") {  // 14.4
    bool kept = true;
    int gained = 0;
    for (int h = 0; h < kNumHexes; ++h) {
      if (!hx(h).city) continue;
      if (hex_.start_control[static_cast<size_t>(h)] == kSoviet && !soviet_city_held(h)) kept = false;
      if (hex_.start_control[static_cast<size_t>(h)] == kGerman &&
          hex_.control[static_cast<size_t>(h)] == kSoviet)
        ++gained;
    }
    // 14.4: no overland-supplied German unit on the Dnepr south of Kiev, and no German unit
    // in the Gotenkopf (3105), each count as a city taken.
    bool dnepr_german = false, goten_german = false;
    const auto goten = data_->places.named.find("gotenkopf");
    for (int u = 0; u < num_units(); ++u) {
      if (unit(u).where != kOnMap || def(u).side != kGerman) continue;
      if (hx(unit(u).hex).dnepr && unit_supply(u) == kSupOverland) dnepr_german = true;
      if (goten != data_->places.named.end() && unit(u).hex == goten->second) goten_german = true;
    }
    if (!dnepr_german) {
      ++gained;
      log("victory", "no German unit in overland supply on the Dnepr south of Kiev: counts as a city taken",
          "14.4");
    }
    if (!goten_german) {
      ++gained;
      log("victory", "no German unit in the Gotenkopf (3105): counts as a city taken", "14.4");
    }
    bool leningrad_clear = true;
    const int len = data_->places.leningrad;
    for (int d = 0; d < 6 && len >= 0; ++d)
      if (neighbour(len, d) >= 0 && occupant_side(neighbour(len, d)) == kGerman) leningrad_clear = false;
    if (kept && gained >= 7 && leningrad_clear)
      end_game(kSoviet, "kept its cities, took 7 and cleared Leningrad", "14.4");
    else
      end_game(kGerman, "the Soviet did not meet 14.4", "14.4");
    return true;
  }
  if (scenario_id_ == "mansteins-gambit") {  // 14.10
    bool all = true;
    int gained = 0;
    for (int h = 0; h < kNumHexes; ++h) {
      if (!hx(h).city) continue;
      if (hex_.start_control[static_cast<size_t>(h)] == kGerman && !german_city_held(h)) all = false;
      if (hex_.start_control[static_cast<size_t>(h)] == kSoviet && german_city_held(h)) ++gained;
    }
    if (const int per = sparam("oos_kills_per_city"); per > 0 && oos_kills_ >= per) {
      gained += oos_kills_ / per;
      log("victory",
          std::to_string(oos_kills_) + " Soviet units eliminated out of supply count as " +
              std::to_string(oos_kills_ / per) + " cities taken",
          "14.10");
    }
    if (all && gained >= 1)
      end_game(kGerman, "held every start city and took one", "14.10");
    else
      end_game(kSoviet, "the German did not meet 14.10", "14.10");
    return true;
  }
  if (scenario_id_ == "what-if-1942") {  // 15.4: supply irrelevant; the only scenario with draws
    bool s_east = true, g_west = true;
    int s_west = 0, g_east = 0;
    for (int h = 0; h < kNumHexes; ++h) {
      if (!hx(h).city && h != data_->places.usir) continue;
      const bool east = hex_.start_control[static_cast<size_t>(h)] == kSoviet;
      const int c = hex_.control[static_cast<size_t>(h)];
      if (east) {
        if (c != kSoviet) s_east = false;
        if (c == kGerman) ++g_east;
      } else if (hex_.start_control[static_cast<size_t>(h)] == kGerman) {
        if (c != kGerman) g_west = false;
        if (c == kSoviet) ++s_west;
      }
    }
    if (s_east && s_west >= 1)
      end_game(kSoviet, "holds every eastern city and one in the west", "15.4");
    else if (g_west && g_east >= 1)
      end_game(kGerman, "holds the USIR, every western city and one in the east", "15.4");
    else {
      winner_ = kNoSide;
      end_reason_ = "draw (15.4)";
      phase_ = kGameOver;
      log("victory", "draw", "15.4");
    }
    return true;
  }
  return false;
}

void BdState::end_phase() {
  switch (phase_) {
    case kSetupPhase:  // 3.7 the Soviet ends his relocations into Poland
      lith_relocate_ = false;
      log("setup", "the Soviet finishes relocating units into Poland", "3.7");
      rebase_vp();
      start_play();
      return;
    case kAdminGerman:
      if (ss_due_ == 1) {  // 8.17 not in overland supply nor dead: delayed
        ss_due_ = 2;
        log("withdraw", label(ss_unit()) + " is not in overland supply: its withdrawal is delayed", "8.17");
      }
      for (int u = 0; u < num_units(); ++u)  // 8.1 German reinforcements not entered are forfeit
        if (unit(u).where == kTrrt && unit(u).turn <= turn_ && def(u).side == kGerman) {
          if (u == para_drop_unit()) {  // 4.17: it may still enter by air drop this turn
            log("reinforcement", def(u).label + " waits to make a combat air drop this turn", "4.17",
                1u << kGerman);  // 11.7 still on the TRRT, hidden from the Soviet
            continue;
          }
          units_[static_cast<size_t>(u)].where = kOutOfPlay;
          log("reinforcement", def(u).label + " forfeited (not entered on time)", "8.1");
        }
      if (markers_.east_wall_left > 0)
        log("marker", std::to_string(markers_.east_wall_left) + " East Wall counters found no legal hex",
            "8.5");
      markers_.east_wall_left = 0;
      enter_phase(kAdminSoviet);
      return;
    case kAdminSoviet:
      for (int u = 0; u < num_units(); ++u)  // 8.1 Soviet delayed reinforcements wait in the RVGK
        if (unit(u).where == kTrrt && unit(u).turn <= turn_ && def(u).side == kSoviet &&
            !converts_on_arrival(u) &&
            def(u).entry_hex < 0) {  // 8.19, 8.20 conversions wait on the TRRT (ruling BD-16)
          units_[static_cast<size_t>(u)].where = kRvgk;
          log("reinforcement", def(u).label + " delayed into the RVGK", "8.1", 1u << kSoviet);
        }
      markers_.fa_available = false;  // 8.18 placed immediately or not at all
      enter_phase(first_player_ == kGerman ? kGermanOrder : kSovietOrder);
      return;
    case kSovietOSupply:
      if (skip_rvgk_once_) {
        skip_rvgk_once_ = false;
        enter_phase(kSovietB);
        return;
      }
      enter_phase(turn_ == 1 ? kSovietB : kSovietRvgk);
      return;
    case kSovietRvgk:
      enter_phase(kSovietB);
      return;
    case kGermanStrategic:
      enter_phase(kGermanB);
      return;
    case kGermanB:
      enter_phase(kGermanC);
      return;
    case kSovietB:
      if (assault_only_) {  // 12.2
        assault_only_ = false;
        next_player_turn();
        return;
      }
      enter_phase(kSovietC);
      return;
    case kGermanC:
    case kSovietC:
      next_player_turn();
      return;
    default:
      return;
  }
}

// ======================================================================= admin (8.x)

void BdState::entry_hexes(int u, std::vector<int>& out) const {
  out.clear();
  const UnitDef& d = def(u);
  const int side = d.side;
  if (bulgarian_entry(u)) {  // 8.26 triggered on or before GT13
    out = data_->places.bulgarian_exits;
    return;
  }
  if (d.entry_hex >= 0) {  // 8.2, 8.3, 8.33 fixed entry hex
    out.push_back(d.entry_hex);
    return;
  }
  if (enters_in_situ(u)) {  // 8.2, 8.4, 8.27 friendly-occupied hexes (8.4: German cities too)
    for (int h = 0; h < kNumHexes; ++h)
      if (is_entry_hex(u, h)) out.push_back(h);
    return;
  }
  // 8.1: edge supply hexes and cities, fixed by the map (a scenario test may have edited it).
  if (map_ == &data_->hexes && data_->entry_candidates_built)
    out = data_->entry_candidates[static_cast<size_t>(side)];
  else
    out = entry_candidates_of(*data_, *map_, side);
}

bool BdState::is_entry_hex(int u, int hex) const {
  const UnitDef& d = def(u);
  if (bulgarian_entry(u))  // 8.26
    return std::find(data_->places.bulgarian_exits.begin(), data_->places.bulgarian_exits.end(), hex) !=
           data_->places.bulgarian_exits.end();
  if (d.entry_hex >= 0) return hex == d.entry_hex;  // 8.2, 8.3, 8.33
  if (enters_in_situ(u))                            // 8.2, 8.27 in situ; 8.4 also any German city
    return hx(hex).on_map &&
           (occupant_side(hex) == d.side ||
            (d.type == kEmergency && hx(hex).city && hex_.control[static_cast<size_t>(hex)] == kGerman));
  if (hx(hex).city) return true;  // 8.1
  const auto& edge = d.side == kGerman ? data_->places.german_edge : data_->places.soviet_edge;
  return hx(hex).on_map && !data_->tec.prohibited[hx(hex).terrain] &&
         std::find(edge.begin(), edge.end(), hex) != edge.end();
}

Status BdState::check_entry(int u, int hex) const {
  const UnitDef& d = def(u);
  if (hex < 0 || hex >= kNumHexes || !hx(hex).on_map) return rerr("8.1", "not a map hex");
  if (enters_in_situ(u)) {
    const char* rule = d.type == kKampfgruppe ? "8.2" : d.type == kEmergency ? "8.4" : "8.27";
    if (!is_entry_hex(u, hex))
      return rerr(rule, d.type == kEmergency
                            ? d.label + " enters in situ on a German-occupied hex or in a German city"
                            : d.label + " enters in situ on a hex friendly units occupy");
    if (d.type == kKampfgruppe && d.zone != kZoneNone && hx(hex).zone != d.zone)
      return rerr("8.2", d.label + " enters only in the " + (d.zone == kZoneNorth ? "north" : "south") +
                             " supply area");
    if (d.type != kMechGroup && occupant_side(hex) == d.side && hex_.insitu[static_cast<size_t>(hex)])
      return rerr(rule, "one in-situ entry per hex per administrative phase");
    if (d.type == kMechGroup && !overland(hex, kSoviet))
      return rerr("8.27", hex_id(hex) + " has no overland supply");
  } else if (bulgarian_entry(u)) {
    if (!is_entry_hex(u, hex))
      return rerr("8.26", d.label + " enters through a Bulgarian border hex (3215-3218)");
    if (enemy_in(hex, d.side)) return rerr("8.26", hex_id(hex) + " holds enemy units");
    if (hex_.entered[static_cast<size_t>(hex)] >= 5)
      return rerr("8.1", "one full stack per entry hex per turn");
    std::vector<int> add{u};
    return stacking_ok(hex, d.side, add);  // neutral Bulgaria: no control needed (ruling BD-SM5)
  } else if (!is_entry_hex(u, hex)) {
    return rerr("8.1", d.label + " may enter only at a friendly edge supply hex or a supplied friendly city");
  }
  if (hex_.control[static_cast<size_t>(hex)] != d.side)
    return rerr(d.nation == "romanian-communist" ? "8.25" : "8.1",
                hex_id(hex) + " is not friendly-controlled");
  if (enemy_in(hex, d.side)) return rerr("8.1", hex_id(hex) + " holds enemy units");
  if (d.side == kSoviet && d.entry_hex >= 0 && !overland(hex, kSoviet))
    return rerr(d.nation == "romanian-communist" ? "8.25" : "8.1", hex_id(hex) + " has no overland supply");
  if (hx(hex).city && d.entry_hex < 0 && !enters_in_situ(u)) {
    const auto& edge = d.side == kGerman ? data_->places.german_edge : data_->places.soviet_edge;
    if (std::find(edge.begin(), edge.end(), hex) == edge.end() && !overland(hex, d.side))
      return rerr("8.1", "city " + hex_id(hex) + " has no overland supply");
  }
  if (hex_.entered[static_cast<size_t>(hex)] >= 5)
    return rerr("8.1", "one full stack per entry hex per turn");
  std::vector<int> add{u};
  return stacking_ok(hex, d.side, add);
}

void BdState::zone_hexes(const std::string& zone, std::vector<int>& out) const {
  out.clear();
  const ScenarioDef* sc = nullptr;
  for (const auto& s : data_->scenarios)
    if (s.id == scenario_id_) sc = &s;
  if (sc != nullptr) {
    auto it = sc->zones.find(zone);
    if (it != sc->zones.end() && !it->second.empty()) {
      out = it->second;
      return;
    }
  }
  auto it = data_->places.zones.find(zone);
  if (it != data_->places.zones.end()) {
    out = it->second;
    // 3.7 Lithuania option: the Lithuania hexes join AGN; AGC and AGS lose their hexes that
    // became Soviet and may use the German-controlled hexes next to their printed ones that
    // no other army group uses (ruling BD-SC1).
    if (opt_lithuania_ && (zone == "AGN" || zone == "AGC" || zone == "AGS")) {
      const auto& pz = data_->places.zones;
      const auto lith = pz.find("lithuania");
      if (lith == pz.end()) return;
      if (zone == "AGN") {
        out.insert(out.end(), lith->second.begin(), lith->second.end());
        return;
      }
      auto used = [&](int n) {
        for (const char* g : {"AGN", "AGC", "AGS", "lithuania"}) {
          const auto z = pz.find(g);
          if (z != pz.end() && std::find(z->second.begin(), z->second.end(), n) != z->second.end())
            return true;
        }
        return false;
      };
      out.clear();
      for (int h : it->second)
        if (hex_.control[static_cast<size_t>(h)] == kGerman) out.push_back(h);
      for (int h : it->second)
        for (int d = 0; d < 6; ++d) {
          const int n = neighbour(h, d);
          if (n < 0 || !hx(n).on_map || data_->tec.prohibited[hx(n).terrain] ||
              hex_.control[static_cast<size_t>(n)] != kGerman || used(n) ||
              std::find(out.begin(), out.end(), n) != out.end())
            continue;
          out.push_back(n);
        }
    }
    return;
  }
  for (int h = 0; h < kNumHexes; ++h) {
    if (!hx(h).on_map || data_->tec.prohibited[hx(h).terrain]) continue;
    if (zone == "romania" || zone == "Rom") {
      if (hx(h).country == kRomania) out.push_back(h);
    } else if (zone == "any-german") {
      if (data_->map_loaded ? hex_.control[static_cast<size_t>(h)] == kGerman : hex_col(h) >= 13)
        out.push_back(h);
    } else if (zone == "german-occupied") {
      // 13.7 "anywhere west of the Soviet front line": the German-held part of the USSR
      // and the Baltic states, not the 1941 Reich and its allies (ruling BD-15).
      const Country c = hx(h).country;
      if (data_->map_loaded ? hex_.control[static_cast<size_t>(h)] == kGerman && (c == kUssr || c == kBaltic)
                            : hex_col(h) >= 13)
        out.push_back(h);
    } else if (zone == "any-soviet") {
      if (data_->map_loaded ? hex_.control[static_cast<size_t>(h)] == kSoviet : hex_col(h) <= 11)
        out.push_back(h);
    }
  }
  // Without a generated map (no countries, no control) Romania falls back to the AGS hexes
  // and the free zones to the western / eastern halves of the grid (ruling BD-8).
  if (out.empty() && (zone == "romania" || zone == "Rom")) {
    auto ags = data_->places.zones.find("AGS");
    if (ags != data_->places.zones.end()) out = ags->second;
  }
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

// ======================================================================= check / apply

Status BdState::check_order(int side, int order) const {
  if (order < kMoveFight || order > kFightFight) return rerr("5.4", "unknown phase order");
  if (scenario_id_ == "what-if-1942") {  // 15.3
    if (order == kFightFight && (side == kGerman ? ff_used_1942_ : soviet_ff_used_))
      return rerr("15.3", "fight/fight only once in this scenario");
    return Status::ok();
  }
  if (side == kGerman) {
    if (turn_ == 1 && order != kFightMove)
      return rerr("5.4", "the German must choose fight/move on Game Turn 1");
    if (order == kFightFight) {
      const bool y42 = ti().single && ti().year == 1942 && !ff_used_1942_;
      const bool y43 = ti().single && ti().year == 1943 && !ff_used_1943_;
      if (!y42 && !y43 && !oder_active())  // 4.18 Oder turn
        return rerr("5.5", "German fight/fight only once in a 1942 and once in a 1943 single-month turn");
    }
  } else {
    if (turn_ <= 5 && order != kFightMove)
      return rerr("5.4", "the Soviet must choose fight/move on Game Turns 1-5");
    if (order == kFightFight && (turn_ < 31 || soviet_ff_used_))
      return rerr("5.5", "Soviet fight/fight only once, on Game Turn 31 or 32");
  }
  return Status::ok();
}

Status BdState::check_end_phase() const {
  if (phase_ == kGermanOrder || phase_ == kSovietOrder) return rerr("5.4", "declare the phase order first");
  if (phase_ == kSetupPhase && (!lith_relocate_ || setup_left(kGerman) + setup_left(kSoviet) > 0))
    return rerr("3.1", "place every set-up unit first");
  if (phase_ == kAdminSoviet && withdraw_due_)
    return rerr("8.21", "withdraw a rifle army or decline the withdrawal first");
  if (phase_ == kAdminGerman && markers_.east_wall_left > 0)
    for (int h = 0; h < kNumHexes; ++h)
      if (check_east_wall(h).is_ok())
        return rerr("8.5", "place every East Wall counter first (east-wall <hex>)");
  if (phase_ == kAdminGerman && ss_due_ == 1 && ss_can_withdraw())
    return rerr("8.17", "withdraw " + label(ss_unit()) + " or decline the withdrawal first");
  if (bulgaria_return_due())
    return rerr("8.26",
                "the unit in Bulgaria returns with the three Bulgarian armies in this movement phase "
                "(bulgaria-return <hex>)");
  if (bulgaria_overstacked()) {  // 8.26: within the 6.4 limit by the end of their first move
    std::array<int16_t, kNumHexes> best{}, parent{};
    std::vector<int> here, add(1);
    units_in(bulg_hex_, here);
    for (int x : here) {
      const UnitSt& s = unit(x);
      if (!def(x).satellite_army() || (s.flags & (kFlagDone | kFlagNoMove)) ||
          (s.mp >= 0 && std::find(movers_.begin(), movers_.end(), x) == movers_.end()))
        continue;
      reach(x, best, parent);
      add[0] = x;
      for (int h = 0; h < kNumHexes; ++h)
        if (h != bulg_hex_ && best[static_cast<size_t>(h)] >= 0 && stacking_ok(h, kSoviet, add).is_ok())
          return rerr("8.26",
                      "the Bulgarian armies must be one per hex (6.4) by the end of their first move: "
                      "move " +
                          label(x) + " out of " + hex_id(bulg_hex_));
    }
  }
  if (phase_ == kAdminGerman && vp_schedule() && turn_ == data_->victory.watch_choose_turn && watch_ == 0)
    return rerr("4.18", "choose Operation Watch on the Rhine or on the Oder first (watch rhine | oder)");
  // 5.12: GT1-3 every Soviet unit adjacent to the enemy at the start of a PA phase attacks.
  if (is_assault_phase() && phase_side() == kSoviet && turn_ <= 3 && scenario_id_ != "what-if-1942") {
    std::vector<int> here;
    for (int u = 0; u < num_units(); ++u) {
      const UnitSt& s = unit(u);
      const UnitDef& d = def(u);
      if (s.where != kOnMap || d.side != kSoviet || (s.flags & kFlagAttacked) || d.attack == 0) continue;
      if (hx(s.hex).city || hx(s.hex).fortified == kSoviet) continue;  // exempt
      for (int dd = 0; dd < 6; ++dd) {
        const int t = neighbour(s.hex, dd);
        if (t < 0 || !enemy_in(t, kSoviet) || ((hx(s.hex).river >> dd) & 1u)) continue;
        units_in(t, here);
        bool open = true;
        for (int x : here)
          if ((unit(x).flags & kFlagDefended) && !(unit(x).flags & kFlagRetreatedIn)) open = false;
        if (open && can_attack_unit(u, t, false))
          return rerr("5.12", d.label + " must attack an adjacent enemy hex on Game Turns 1-3");
      }
    }
  }
  return Status::ok();
}

Status BdState::check(const Action& a) const {
  Status s = check_inner(a);
  return s;
}

Status BdState::check_inner(const Action& a) const {
  if (phase_ == kGameOver) return rerr("4.1", "the game is over");
  {
    // Argument counts and flag values per verb (malformed actions are refused outright).
    int want = -1;
    switch (a.verb) {
      case kEndPhase:
      case kNoEmergencyRvgk:
      case kAdvanceDone:
      case kDeclineWithdraw:
      case kSummerOffensive:
      case kCombOut:
      case kCaucasusRefuse:
      case kMansteinsGambit:
      case kSupportDone:
        want = 0;
        break;
      case kSupport:  // artillery and air armies name the army they support
        want = a.nargs >= 1 && (a.args[0] == kSupArtillery || a.args[0] == kSupAirArmy) ? 2 : 1;
        break;
      case kOrder:
      case kPaulus:
      case kZone1942:
      case kRvgkIn:
      case kRetreat:
      case kAdvance:
      case kBbChoice:
      case kLwDefend:
      case kWithdraw:
      case kHeroCity:
      case kFortressCity:
      case kFortifiedArea:
      case kAerialSupply:
      case kWatch:
      case kEastWall:
      case kCaucasusSend:
      case kTakeRetreat:
      case kBulgariaExit:
      case kBulgariaReturn:
      case kOverstackRemove:
      case kBbLoss:
        want = 1;
        break;
      case kEnter:
      case kAdvance2:
      case kStrategic:
      case kSeaMove:
      case kEmergencyRvgk:
      case kReplace:
      case kRvgkOut:
      case kOffSupply:
      case kSetup:
      case kConvert:
      case kCaucasusLeave:
      case kAttach:
        want = 2;
        break;
      case kAttackWith:
        want = 3;
        break;
      case kMove:
      case kAttackFrom:
      case kMobileAssault:
      case kCaucasusLaunch:
      case kCaucasusRecall:
        break;
      case kCrimeaSupply:  // on|off, then up to five declared units when on (7.4)
        if (a.nargs < 1 || a.nargs > 6 || (a.args[0] != 1 && a.nargs != 1))
          return rerr("7.4", "crimea-supply on [UNIT...] (at most five units) | off");
        break;
      default:
        return rerr("", "unknown verb");
    }
    if (want >= 0 && a.nargs != want) return rerr("", "wrong number of arguments");
    if ((a.verb == kAttackFrom || a.verb == kAttackWith || a.verb == kMobileAssault) &&
        (a.nargs < 3 || a.args[1] < 0 || a.args[1] > 3))
      return rerr("", "malformed attack");
    if ((a.verb == kBbChoice || a.verb == kLwDefend || a.verb == kTakeRetreat) && a.args[0] != 0 &&
        a.args[0] != 1)
      return rerr("", "malformed choice");
  }
  auto unit_arg = [&](int i) { return i < a.nargs && a.args[i] >= 0 && a.args[i] < num_units(); };
  // Pending decisions first.
  switch (pending_) {
    case kPendTakeRetreat:
      if (a.verb != kTakeRetreat)
        return rerr("13.9", "the Soviet decides first whether to take a Defender Retreat");
      return Status::ok();
    case kPendBbLoss: {  // 11.26
      if (a.verb != kBbLoss || !unit_arg(0))
        return rerr("11.26",
                    "the attacker first chooses the units that pay for the Bloodbath (bb-loss UNIT)");
      std::vector<int> cand;
      bb_candidates(cand);
      if (std::find(cand.begin(), cand.end(), a.args[0]) == cand.end())
        return rerr(
            "11.26",
            def(a.args[0]).label +
                " cannot pay for this Bloodbath now (an attacker of this battle, dotted units first)");
      return Status::ok();
    }
    case kPendOverstack: {  // 6.2
      const int h = overstacked_hex();
      if (a.verb != kOverstackRemove || !unit_arg(0) || h < 0)
        return rerr("6.2", "the opposing player must first remove units from the over-stacked hex " +
                               (h >= 0 ? hex_id(h) : std::string("?")));
      const int u = a.args[0];
      if (unit(u).where != kOnMap || unit(u).hex != h)
        return rerr("6.2", def(u).label + " is not in the over-stacked hex " + hex_id(h));
      if (overstack_need(h, u) >= overstack_need(h, -1))
        return rerr("6.2",
                    "removing " + def(u).label +
                        " does not bring the stack nearer its limits (only the minimum number of units "
                        "necessary is removed)");
      return Status::ok();
    }
    case kPendLwDefend:
      if (a.verb == kAerialSupply || a.verb == kCrimeaSupply) break;  // 7.7, 7.4 at any instant
      if (a.verb != kLwDefend || a.nargs != 1)
        return rerr("11.23", "the German must decide on defensive Luftwaffe support");
      if (a.args[0] == 1 && markers_.luftwaffe_left <= 0) return rerr("11.23", "no Luftwaffe marker left");
      return Status::ok();
    case kPendEmergency: {
      if (a.verb == kNoEmergencyRvgk) return Status::ok();
      if (a.verb != kEmergencyRvgk || !unit_arg(0))
        return rerr("8.11", "the Soviet may make an emergency RVGK deployment now, or decline it");
      const int u = a.args[0], h = a.args[1];
      if (unit(u).where != kRvgk || def(u).side != kSoviet)
        return rerr("8.11", def(u).label + " is not in the RVGK");
      if (h < 0 || h >= kNumHexes || !hx(h).city || hex_.control[static_cast<size_t>(h)] != kSoviet ||
          !overland(h, kSoviet))
        return rerr("8.11", "emergency deployment goes to a Soviet-controlled city with overland supply");
      std::vector<int> add{u};
      return stacking_ok(h, kSoviet, add);
    }
    case kPendCaucasus:  // 4.12
      if (a.verb == kCaucasusRefuse) return Status::ok();
      if (a.verb != kCaucasusSend || !unit_arg(0))
        return rerr("4.12", "the Soviet must send " + std::to_string(cauc_need_) +
                                " more rifle armies into the Caucasus box, or refuse (the German then wins)");
      if (!caucasus_responder(a.args[0]))
        return rerr("4.12", def(a.args[0]).label +
                                " is not a rifle army in the RVGK or on the map in overland supply");
      return Status::ok();
    case kPendSupport:  // 8.36-8.41
      if (a.verb == kSupportDone) return Status::ok();
      if (a.verb != kSupport)
        return rerr("8.41", "commit support markers to the attack (support ...) or finish (support-done)");
      return check_support(a.args[0], a.nargs > 1 ? a.args[1] : -1);
    case kPendBbChoice:
      if (a.verb != kBbChoice || a.nargs != 1)
        return rerr("5.16", "choose whether to convert the Bloodbath to Defender Retreat");
      return Status::ok();
    case kPendRetreat: {
      if (a.verb != kRetreat || a.nargs != 1) return rerr("11.27", "the defender must choose a retreat hex");
      std::vector<int> opts;
      retreat_options(battle_.target, other(battle_.attacker), opts);
      if (std::find(opts.begin(), opts.end(), a.args[0]) == opts.end())
        return rerr("11.27",
                    "not a legal retreat hex (preferred directions first, never where the attack came from)");
      return Status::ok();
    }
    case kPendAdvance: {
      if (a.verb == kAdvanceDone) return Status::ok();
      if (a.verb == kAdvance2 && unit_arg(0)) return check_advance2(a.args[0], a.args[1]);
      if (a.verb != kAdvance || !unit_arg(0))
        return rerr("11.30", "advance a victorious unit or finish advancing");
      const int u = a.args[0];
      bool ok = false;
      for (int i = 0; i < battle_.nadv; ++i) ok |= battle_.adv[static_cast<size_t>(i)] == u;
      if (!ok || unit(u).where != kOnMap || unit(u).hex == battle_.target)
        return rerr("11.30", def(u).label + " may not advance");
      std::vector<int> add{u};
      return stacking_ok(battle_.target, def(u).side, add);
    }
    default:
      break;
  }
  switch (a.verb) {
    case kEndPhase:
      if (a.nargs != 0) return rerr("", "end-phase takes no arguments");
      return check_end_phase();
    case kSupport:
    case kSupportDone:
      return rerr("8.41", "support markers are committed to a Soviet prepared assault once it is declared");
    case kBulgariaExit:
      return check_bulgaria_exit(a.args[0]);
    case kBulgariaReturn:
      return check_bulgaria_return(a.args[0]);
    case kMove:
      if (!unit_arg(0)) return rerr("10.1", "unknown unit");
      return check_move(a);
    case kAttackFrom:
    case kAttackWith:
    case kMobileAssault: {
      if (a.nargs < 3) return rerr("11.1", "an attack needs a target and attackers");
      std::vector<int> atts;
      if (a.args[0] < 0 || a.args[0] >= kNumHexes) return rerr("11.2", "target is not a hex");
      if (phase_side() == kGerman && turn_ == 3 && paulus_ == 1 && (is_assault_phase() || is_move_phase()))
        return rerr("5.10", "Paulus Pause taken: no German attacks of any kind on Game Turn 3");
      if (a.verb == kAttackFrom) {
        if (!is_assault_phase())
          return rerr("5.2", std::string("no prepared assaults in ") + phase_name(phase_));
        // One notation per attack: attacking hexes listed in direction order from the target.
        int last = -1;
        for (int i = 2; i < a.nargs; ++i) {
          const int d = a.args[i] >= 0 && a.args[i] < kNumHexes ? direction(a.args[0], a.args[i]) : -1;
          if (d < 0) return rerr("11.2", "attacking hexes must be adjacent to the target");
          if (d <= last)
            return rerr(
                "11.1",
                "list the attacking hexes once each, in the order E, NE, NW, W, SW, SE from the target");
          last = d;
        }
        if (auto s = collect_attack_from(a, atts); !s) return s;
      } else {
        for (int i = 2; i < a.nargs; ++i) {
          if (!unit_arg(i)) return rerr("11.1", "unknown unit");
          atts.push_back(a.args[i]);
        }
        for (int u : atts) {
          // 11.1 first: a refusal about an enemy unit's parent would name a hidden unit (11.7).
          if (def(u).side != phase_side())
            return rerr("11.1", label(u) + " is not the phasing player's unit");
          if (Status st = attacks_with_parent(u, atts); !st) return st;
        }
        if (a.verb == kAttackWith && def(atts[0]).attack == 0)
          return rerr("11.12", "units with no attack factor never attack alone");
        if (a.verb == kMobileAssault && atts.size() > 1) {
          // Either one unit alone or the whole group that started the phase together (10.27);
          // a TB / CM named with its parent joins it anyway (8.31, 8.32).
          std::vector<int> group, named;
          for (int u : atts)
            if (!is_attachable(u)) named.push_back(u);
          if (!named.empty() && unit(named[0]).where == kOnMap) ma_group(named[0], a.args[0], group);
          if (named.size() > 1 && group != named)
            return rerr("10.27",
                        "a mobile assault is made by one unit or by its whole group that started the phase "
                        "stacked together");
        }
      }
      return check_attack(a.args[0], atts, a.verb == kMobileAssault, (a.args[1] & 1) != 0,
                          (a.args[1] & 2) != 0);
    }
    case kOrder: {
      if (a.nargs != 1) return rerr("5.4", "order takes one argument");
      const int side = phase_ == kGermanOrder ? kGerman : phase_ == kSovietOrder ? kSoviet : -1;
      if (side < 0) return rerr("5.4", "the phase order is declared at the start of the player turn");
      if (side == kGerman && turn_ == 3 && paulus_ == 0 && scenario_id_ != "what-if-1942")
        return rerr("5.10", "announce the Paulus Pause decision first");
      if (side == kGerman && turn_ == 9 && zone1942_ == kZoneNone &&
          (scenario_id_ == "grand-campaign" || scenario_id_ == "blue-kremlin" || scenario_id_ == "empty"))
        return rerr("5.6", "declare the 1942 logistics zone first");
      return check_order(side, a.args[0]);
    }
    case kPaulus:
      if (phase_ != kGermanOrder || turn_ != 3 || paulus_ != 0)
        return rerr("5.10", "the Paulus Pause is announced at the start of GT3");
      if (a.nargs != 1 || (a.args[0] != 1 && a.args[0] != 2)) return rerr("5.10", "paulus take | decline");
      return Status::ok();
    case kZone1942:
      if (phase_ != kGermanOrder || turn_ != 9 || zone1942_ != kZoneNone)
        return rerr("5.6", "the 1942 zone is declared at the start of the GT9 German player turn");
      if (a.nargs != 1 || (a.args[0] != kZoneNorth && a.args[0] != kZoneSouth))
        return rerr("5.6", "zone north | south");
      return Status::ok();
    case kEnter: {
      if (!unit_arg(0) || a.nargs != 2) return rerr("8.1", "enter <unit> <hex>");
      const int u = a.args[0];
      const int side = phase_ == kAdminGerman ? kGerman : phase_ == kAdminSoviet ? kSoviet : -1;
      if (side < 0) return rerr("5.2", "reinforcements enter in the Mutual Administrative Phase");
      if (def(u).side != side) return rerr("5.2", def(u).label + " belongs to the other side's segment");
      if (unit(u).where != kTrrt || unit(u).turn > turn_)
        return rerr("8.1", def(u).label + " is not a reinforcement due now");
      if (is_attachable(u))
        return rerr(attach_rule(u), def(u).label + " arrives atop a " +
                                        (def(u).type == kCmGroup ? "Soviet army" : "German corps") +
                                        " in overland supply: attach " + def(u).label + " <unit>");
      if (converts_on_arrival(u)) {
        const int t = guards_tank_namesake(u);
        return t >= 0 ? rerr("8.19", def(u).label + " arrives by converting " + def(t).label + " in place")
                      : rerr("8.20", def(u).label + " arrives by converting a rifle army: convert " +
                                         def(u).label + " <rifle army>");
      }
      return check_entry(u, a.args[1]);
    }
    case kReplace: {
      if (!unit_arg(0) || a.nargs != 2) return rerr("8.12", "replace <unit> <hex>|rvgk");
      const int u = a.args[0];
      const UnitDef& d = def(u);
      const bool combout = phase_ == kGermanOrder && combout_left_ > 0;  // 8.16
      const int side = phase_ == kAdminGerman || combout ? kGerman : phase_ == kAdminSoviet ? kSoviet : -1;
      if (side < 0 || d.side != side)
        return rerr("8.12", "replacements are taken in the owner's administrative segment");
      if (combout) {
        if (unit(u).where != kDead) return rerr("8.12", d.label + " is not in the dead pile");
        if (d.dotted || d.cls != kNonMech || d.axis_satellite() || d.type == kFortressCommand)
          return rerr("8.16", "comb-out steps rebuild replaceable non-mech units only");
        if (a.args[1] == -1) return rerr("8.8", "only Soviet replacements may go to the RVGK");
        return check_entry(u, a.args[1]);
      }
      if (unit(u).where != kDead) return rerr("8.12", d.label + " is not in the dead pile");
      if (d.dotted) return rerr("8.12", d.label + " is dotted: never replaceable");
      if (d.axis_satellite() || d.type == kTigerBattalion || d.type == kCmGroup ||
          d.type == kFortressCommand || d.type == kCavalryGroup || d.cls == kStatic)
        return rerr("8.12", d.label + " does not return with replacement steps");
      const int sm = repl_left_mech_[static_cast<size_t>(side)],
                sn = repl_left_non_[static_cast<size_t>(side)];
      if (d.cls == kMech && sm <= 0) return rerr("8.12", "no mech replacement step left");
      if (d.cls != kMech && sn <= 0 && !(side == kSoviet && sm > 0))
        return rerr("8.13", "no non-mech replacement step left");
      if (a.args[1] == -1) {
        if (side != kSoviet) return rerr("8.8", "only Soviet replacements may go to the RVGK");
        return Status::ok();
      }
      return check_entry(u, a.args[1]);
    }
    case kRvgkIn: {
      if (phase_ == kSetupPhase && unit_arg(0) && unit(a.args[0]).where == kToSetUp) {  // 15.3
        const int u = a.args[0];
        if (sparam("soviet_rvgk_at_start") <= 0 || def(u).side != kSoviet)
          return rerr("8.9", "no unit starts in the RVGK in this scenario");
        if (rvgk_setup_ >= sparam("soviet_rvgk_at_start"))
          return rerr("15.3", "at most " + std::to_string(sparam("soviet_rvgk_at_start")) +
                                  " Soviet units start in the RVGK");
        if (def(u).side != phase_side()) return rerr("3.1", "the other side sets up now");
        for (const auto& [x, z] : setup_zones())
          if (unit(x).where == kToSetUp && def(x).side == def(u).side) {
            if (x != u)
              return rerr("3.1", "set up units in counter-list order: " + def(x).label + " is next");
            break;
          }
        if (def(u).type == kCavalryGroup || def(u).cls == kStatic || def(u).type == kCoastalArmy)
          return rerr("8.30", def(u).label + " never enters the RVGK");
        return check_border_rule(u, -1);
      }
      if (phase_ != kSovietRvgk) return rerr("8.9", "units go into the RVGK in the Soviet RVGK Phase");
      if (!unit_arg(0)) return rerr("8.9", "unknown unit");
      const int u = a.args[0];
      if (rvgk_moves_ >= 5) return rerr("8.9", "5 units per RVGK Phase");
      if (def(u).side == kSoviet && unit(u).where == kCaucasus) {
        // 4.13: the Soviet units in the box may go into the RVGK once the expedition is gone.
        if (german_in_caucasus())
          return rerr("4.13", "the Soviet units stay in the Caucasus box while the expedition is there");
        return Status::ok();
      }
      if (def(u).side != kSoviet || unit(u).where != kOnMap)
        return rerr("8.9", def(u).label + " is not a Soviet unit on the map");
      if (unit(u).flags & kFlagDone) return rerr("8.9", "no unit goes in and out in the same phase");
      if (def(u).type == kCavalryGroup || def(u).cls == kStatic || def(u).type == kCoastalArmy)
        return rerr("8.30", def(u).label + " never enters the RVGK");
      if (unit_supply(u) != kSupOverland)
        return rerr("8.10", def(u).label + " needs an overland supply line to enter the RVGK");
      return Status::ok();
    }
    case kRvgkOut: {
      if (phase_ != kSovietRvgk) return rerr("8.9", "units leave the RVGK in the Soviet RVGK Phase");
      if (!unit_arg(0) || a.nargs != 2) return rerr("8.10", "rvgk-out <unit> <hex>");
      const int u = a.args[0], h = a.args[1];
      if (rvgk_moves_ >= 5) return rerr("8.9", "5 units per RVGK Phase");
      if (unit(u).where != kRvgk) return rerr("8.10", def(u).label + " is not in the RVGK");
      if (is_attachable(u))
        return rerr("8.32",
                    def(u).label + " comes out of the RVGK atop an army: attach " + def(u).label + " <army>");
      if (unit(u).flags & kFlagDone) return rerr("8.9", "no unit goes in and out in the same phase");
      if (h < 0 || h >= kNumHexes || !hx(h).on_map) return rerr("8.10", "not a map hex");
      if (hex_.control[static_cast<size_t>(h)] != kSoviet || enemy_in(h, kSoviet))
        return rerr("8.10", hex_id(h) + " is not Soviet-controlled");
      const auto& edge = data_->places.rvgk_edge;
      const bool is_edge = std::find(edge.begin(), edge.end(), h) != edge.end();
      if (!is_edge && !(hx(h).city && overland(h, kSoviet)))
        return rerr("8.10", "RVGK units come out in a supplied Soviet city or an east-edge hex 1000-2600");
      std::vector<int> add{u};
      return stacking_ok(h, kSoviet, add);
    }
    case kOffSupply: {
      if (phase_ != kSovietOSupply)
        return rerr("7.12", "offensive supply markers are deployed first in the Soviet player turn");
      if (a.nargs != 2 || a.args[0] < 0 || a.args[0] > 2) return rerr("7.12", "osupply <A|B|C> <hex>");
      if (!markers_.osupply_have[static_cast<size_t>(a.args[0])])
        return rerr("7.10", "that marker has not arrived");
      if (markers_.osupply[static_cast<size_t>(a.args[0])] >= 0)
        return rerr("7.12", "that marker is already placed");
      for (int m = 0; m < a.args[0]; ++m)
        if (markers_.osupply_have[static_cast<size_t>(m)] && markers_.osupply[static_cast<size_t>(m)] < 0)
          return rerr("7.12", std::string("deploy marker ") + "ABC"[m] +
                                  " first (markers are placed in order A, B, C)");
      if (a.args[1] < 0 || a.args[1] >= kNumHexes || !hx(a.args[1]).on_map)
        return rerr("7.12", "not a map hex");
      for (int m = 0; m < 3; ++m)
        if (markers_.osupply[static_cast<size_t>(m)] == a.args[1]) return rerr("7.12", "one marker per hex");
      if (german_moscow_at_start_)
        return rerr("7.21", "no offensive supply while the turn began with Moscow German");
      return Status::ok();
    }
    case kSetup: {
      if (phase_ != kSetupPhase) return rerr("3.1", "set-up is over");
      if (!unit_arg(0) || a.nargs != 2) return rerr("3.3", "setup <unit> <hex>");
      const int u = a.args[0], h = a.args[1];
      if (unit(u).where == kOnMap && lith_relocate_) {  // 3.7 the Soviet relocation step
        if (setup_left(kGerman) + setup_left(kSoviet) > 0)
          return rerr("3.7", "relocations into Poland come after every unit is set up");
        if (!lithuania_relocation(u))
          return rerr("3.7",
                      def(u).label + " may not relocate (only Soviet units, not the 9th Army or the ICA)");
        const auto& z = data_->places.zones.at("lithuania_soviet");
        if (std::find(z.begin(), z.end(), h) == z.end() || h == unit(u).hex)
          return rerr("3.7", "relocations go into 2116, 2216, 2217, 2315 or 2316");
        std::vector<int> add{u};
        return stacking_ok(h, kSoviet, add);
      }
      if (unit(u).where != kToSetUp) return rerr("3.3", def(u).label + " is not waiting to be set up");
      if (def(u).side != phase_side()) return rerr("3.1", "the other side sets up now");
      for (const auto& [x, z] : setup_zones())
        if (unit(x).where == kToSetUp && def(x).side == def(u).side) {
          if (x != u) return rerr("3.1", "set up units in counter-list order: " + def(x).label + " is next");
          break;
        }
      std::string zone;
      for (const auto& [x, z] : setup_zones())
        if (x == u) zone = z;
      std::vector<int> hexes;
      zone_hexes(zone, hexes);
      if (std::find(hexes.begin(), hexes.end(), h) == hexes.end())
        return rerr("3.3",
                    def(u).label + " sets up in zone " + zone + ", which does not include " + hex_id(h));
      if (enemy_in(h, def(u).side)) return rerr("3.1", hex_id(h) + " holds enemy units");
      if (is_attachable(u) && default_parent(u, h) < 0)
        return rerr(attach_rule(u), def(u).label + " sets up atop a " +
                                        (def(u).type == kCmGroup ? "Soviet army" : "German corps") +
                                        " that has none: " + hex_id(h) + " holds no such unit");
      std::vector<int> add{u};
      if (auto st = stacking_ok(h, def(u).side, add); !st) return st;
      return check_border_rule(u, h);
    }
    case kWithdraw: {
      if (phase_ == kAdminGerman) {  // 8.17
        if (ss_due_ != 1) return rerr("8.17", "no German withdrawal due now");
        if (a.args[0] != ss_unit()) return rerr("8.17", "the withdrawal due is " + label(ss_unit()));
        if (!ss_can_withdraw())
          return rerr("8.17",
                      label(ss_unit()) +
                          " is neither in overland supply nor in the dead pile: its withdrawal is delayed");
        return Status::ok();
      }
      if (phase_ != kAdminSoviet || !withdraw_due_) return rerr("8.21", "no withdrawal due now");
      if (!unit_arg(0)) return rerr("8.21", "unknown unit");
      const int u = a.args[0];
      if (def(u).side != kSoviet || def(u).type != kRifleArmy || unit(u).where != kOnMap)
        return rerr("8.21", "the withdrawal must be an ordinary rifle army on the map");
      if (unit_supply(u) != kSupOverland)
        return rerr("8.21", "the withdrawn rifle army must be in overland supply");
      return Status::ok();
    }
    case kDeclineWithdraw:
      if (phase_ == kAdminGerman) {
        if (ss_due_ != 1) return rerr("8.17", "no German withdrawal due now");
        return Status::ok();
      }
      if (phase_ != kAdminSoviet || !withdraw_due_) return rerr("8.21", "no withdrawal due now");
      return Status::ok();
    case kCaucasusLaunch:
    case kCaucasusSend:
    case kCaucasusRefuse:
    case kCaucasusRecall:
    case kCaucasusLeave:
      return check_caucasus(a);
    case kSummerOffensive:
    case kMansteinsGambit: {  // 4.16: the MG only as the 1943 summer offensive
      const auto& turns = data_->victory.summer_turns;
      if (!vp_schedule() || phase_ != kAdminGerman ||
          std::find(turns.begin(), turns.end(), turn_) == turns.end())
        return rerr("4.4", "the 1943 summer offensive is declared at the start of Game Turn 17, 18 or 19");
      if (summer_turn_ != 0 || summer_done_ != 0) return rerr("4.4", "only one 1943 summer offensive");
      return Status::ok();
    }
    case kWatch:
      if (!vp_schedule() || phase_ != kAdminGerman || turn_ != data_->victory.watch_choose_turn)
        return rerr("4.18", "Rhine or Oder is chosen at the start of Game Turn 28");
      if (watch_ != 0) return rerr("4.18", "Rhine or Oder is already chosen");
      if (a.args[0] != 1 && a.args[0] != 2) return rerr("4.18", "watch rhine | oder");
      return Status::ok();
    case kConvert:
      if (!unit_arg(0) || !unit_arg(1)) return rerr("8.20", "convert <guards|shock army> <rifle army>");
      return check_convert(a.args[0], a.args[1]);
    case kCombOut: {
      if (phase_ != kGermanOrder || pending_ != kPendNone)
        return rerr("8.16", "a comb-out is declared at the start of a German player turn");
      const TurnInfo& t = ti();
      if (!t.single || (t.year != 1943 && t.year != 1944))
        return rerr("8.16", "a comb-out is made in a 1943 or a 1944 single-month Game Turn");
      if (combout_done_ & (t.year == 1943 ? 1u : 2u))
        return rerr("8.16", "one comb-out in 1943 and one in 1944");
      return Status::ok();
    }
    case kEastWall:
      return check_east_wall(a.args[0]);
    case kHeroCity: {
      if (a.nargs != 1 || a.args[0] < 0 || a.args[0] >= kNumHexes) return rerr("9.1", "hero-city <hex>");
      if (current_player() != kSoviet || pending_ != kPendNone ||
          !(phase_ == kAdminSoviet || phase_ == kSovietB || phase_ == kSovietC))
        return rerr("9.7", "Hero Cities are declared by the Soviet, not during an attack");
      if (markers_.hero_left <= 0) return rerr("9.1", "no Hero City marker available");
      const int h = a.args[0];
      if (!hx(h).city || hx(h).country != kUssr || hex_.control[static_cast<size_t>(h)] != kSoviet)
        return rerr("9.1", "a Hero City must be a Soviet-controlled city in the USSR");
      if (hero_city(h)) return rerr("9.1", "already a Hero City");
      return Status::ok();
    }
    case kFortressCity: {
      const int h = a.args[0];
      if (h < 0 || h >= kNumHexes) return rerr("9.2", "not a hex");
      if (current_player() != kGerman || pending_ != kPendNone ||
          !(phase_ == kAdminGerman || phase_ == kGermanB || phase_ == kGermanC))
        return rerr("9.7",
                    "Fortress Cities are declared by the German in his segments, not during an attack");
      const Country c = hx(h).country;
      const bool home = c == kGreaterGermany || c == kGeneralGovernment || c == kHungary;
      if (markers_.fortress_left <= 0 && !(markers_.fortress_restricted_left > 0 && home))
        return rerr("9.2", markers_.fortress_restricted_left > 0
                               ? "the GT28 Fortress City markers go only in Greater Germany, the General "
                                 "Government or Hungary"
                               : "no Fortress City marker available");
      if (!hx(h).city || hex_.control[static_cast<size_t>(h)] != kGerman)
        return rerr("9.2", "a Fortress City must be a German-controlled city");
      if (h == data_->places.usir) return rerr("9.2", "never in the USIR");
      if (fortress_city(h)) return rerr("9.2", "already a Fortress City");
      return Status::ok();
    }
    case kSeaMove: {  // 10.16 Black Sea, 10.17 Baltic, 10.34 the ICA
      if (!unit_arg(0)) return rerr("10.16", "unknown unit");
      const int u = a.args[0], h = a.args[1];
      if (def(u).type == kCoastalArmy) return check_ica_switch(u, h);
      if (!is_move_phase() || phase_side() != kGerman)
        return rerr("10.16", "sea movement happens in a German Movement Phase");
      const UnitDef& d = def(u);
      const UnitSt& s = unit(u);
      if (is_attachable(u)) return rerr(attach_rule(u), d.label + " never moves alone");
      if (d.side != kGerman || d.type != kInfantry || s.where != kOnMap)
        return rerr("10.16", d.label + " is not a German infantry corps on the map");
      const int sea = sea_of(s.hex);
      if (sea < 0 || s.start_hex != s.hex)
        return rerr("10.16", d.label + " did not start the phase in a port of sea movement");
      if (s.mp >= 0 || (s.flags & (kFlagDone | kFlagNoMove | kFlagMaFailed)))
        return rerr("10.16", d.label + " has moved this phase: no sea movement");
      if (s.flags & kFlagTurnAttacked)
        return rerr("10.16", d.label + " attacked this player turn: no sea movement");
      if (sea_used_ & (1u << sea)) return rerr("10.16", "one infantry corps per movement phase on this sea");
      if (h < 0 || h >= kNumHexes || h == s.hex || sea_of(h) != sea)
        return rerr("10.16", "the destination must be another port of the same sea");
      if (hex_.control[static_cast<size_t>(s.hex)] != kGerman ||
          hex_.control[static_cast<size_t>(h)] != kGerman)
        return rerr("10.16", "both ports must be German-controlled");
      if (enemy_in(h, kGerman)) return rerr("10.16", hex_id(h) + " holds enemy units");
      std::vector<int> add{u};
      return stacking_ok(h, kGerman, add);
    }
    case kAttach:  // 8.31, 8.32
      return check_attach(a.args[0], a.args[1]);
    case kStrategic: {
      if (phase_ != kGermanStrategic)
        return rerr("8.6", "strategic movement happens in the German Strategic Movement Phase (GT9-29)");
      if (!unit_arg(0)) return rerr("8.6", "unknown unit");
      const int u = a.args[0], h = a.args[1];
      const UnitDef& d = def(u);
      if (d.side != kGerman || unit(u).where != kOnMap)
        return rerr("8.6", d.label + " is not a German-side unit on the map");
      if (d.type == kTigerBattalion)
        return rerr("8.31",
                    d.label + " moves strategically only onto another corps: attach " + d.label + " <corps>");
      if (d.cls == kStatic || d.type == kFortressCommand)
        return rerr("8.6", d.label + " does not move strategically");
      if (unit(u).flags & kFlagDone) return rerr("8.6", d.label + " already moved strategically");
      const int from = unit(u).hex;
      if (!hx(from).city || hex_.control[static_cast<size_t>(from)] != kGerman || !overland(from, kGerman))
        return rerr("8.6", "strategic movement starts in a German-controlled city with overland supply");
      if (strat_used_ + strategic_cost(u) > 8)
        return rerr("8.7", "8 strategic movement units per player turn (mech 2, satellite army 4)");
      if (h < 0 || h >= kNumHexes || h == from) return rerr("8.6", "not a destination");
      if (strategic_memo_.unit != u || strategic_memo_.version != version_) {
        strategic_reach(u, strategic_memo_.ok);
        strategic_memo_.unit = u;
        strategic_memo_.version = version_;
      }
      if (!strategic_memo_.ok[static_cast<size_t>(h)])
        return rerr("8.6",
                    "no strategic route to " + hex_id(h) + " (not adjacent to the enemy except at its ends)");
      std::vector<int> add{u};
      return stacking_ok(h, kGerman, add);
    }
    case kAerialSupply: {
      const int h = a.args[0];
      if (current_player() != kGerman || (pending_ != kPendNone && pending_ != kPendLwDefend))
        return rerr(
            "7.7",
            "the German commits aerial supply in his own decisions or when a Soviet attack is declared");
      if (!markers_.aerial_available || markers_.aerial >= 0)
        return rerr("7.7", "the aerial supply marker is not available");
      if (h < 0 || h >= kNumHexes || occupant_side(h) != kGerman)
        return rerr("7.7", "aerial supply goes to a hex with German-side units");
      return Status::ok();
    }
    case kCrimeaSupply:  // 7.4 switched on and off at any time the German acts
      if (current_player() != kGerman || (pending_ != kPendNone && pending_ != kPendLwDefend) ||
          phase_ == kSetupPhase)
        return rerr("7.4", "the German switches Crimea supply in his own decisions");
      if (a.args[0] != 0 && a.args[0] != 1) return rerr("", "malformed choice");
      // (switching on again without names withdraws a declaration: the nearest five, BD-22)
      if ((a.args[0] == 1) == crimea_on_ && a.nargs == 1 && !(crimea_on_ && !crimea_declared_.empty()))
        return rerr("7.4", std::string("Crimea supply is already ") + (crimea_on_ ? "on" : "off"));
      for (int i = 1; i < a.nargs; ++i) {  // 7.4 "declare ... which are drawing supply" (ruling BD-22)
        const int u = a.args[i];
        if (!unit_arg(i)) return rerr("7.4", "unknown unit");
        for (int j = 1; j < i; ++j)
          if (a.args[j] == u) return rerr("7.4", def(u).label + " named twice");
        if (def(u).side != kGerman || unit(u).where != kOnMap)
          return rerr("7.4", def(u).label + " is not a German-side unit on the map");
        if (hx(unit(u).hex).area != kAreaCS)
          return rerr("7.4", def(u).label + " is not in the Crimea (CS) area");
      }
      return Status::ok();
    case kFortifiedArea: {
      const int h = a.args[0];
      if (phase_ != kAdminSoviet || !markers_.fa_available)
        return rerr("8.18", "the Fortified Area is placed when it arrives (GT16 Soviet segment)");
      if (h < 0 || h >= kNumHexes || !hx(h).on_map) return rerr("8.18", "not a map hex");
      if (hex_.control[static_cast<size_t>(h)] != kSoviet || !overland(h, kSoviet))
        return rerr("8.18", "the Fortified Area goes in a Soviet-controlled hex with overland supply");
      for (int d = 0; d < 6; ++d) {
        const int n = neighbour(h, d);
        if (n < 0 || hex_.control[static_cast<size_t>(n)] != kSoviet)
          return rerr("8.18", "all six neighbours must be Soviet-controlled");
      }
      return Status::ok();
    }
    default:
      return rerr("", "this action is not available now");
  }
}

// 11.32: German overland-supplied mech in single-month turns; Soviet mech from GT13
// (from the first turn of The Road Back, 12.5).
// 8.7: a mech unit counts 2, an Axis satellite army 4, any other unit 1 (of 8).
int BdState::strategic_cost(int u) const {
  const UnitDef& d = def(u);
  if (d.satellite_army()) return 4;
  return d.cls == kMech ? 2 : 1;
}

// 8.6: unlimited distance through German-controlled hexes (ruling BD-13), adjacent to
// enemy units only in its first and last hex, no prohibited hexes or hexsides, never
// across the Kerch (or the Sivash).
void BdState::strategic_reach(int u, std::vector<uint8_t>& ok) const {
  ok.assign(kNumHexes, 0);
  const int start = unit(u).hex;
  const UnitDef& d = def(u);
  const Places& pl = data_->places;
  auto near_enemy = [&](int h) {
    for (int dd = 0; dd < 6; ++dd) {
      const int n = neighbour(h, dd);
      if (n >= 0 && enemy_in(n, d.side)) return true;
    }
    return false;
  };
  std::vector<uint8_t> seen(kNumHexes, 0);
  std::vector<int> queue{start};
  seen[static_cast<size_t>(start)] = 1;
  for (size_t qi = 0; qi < queue.size(); ++qi) {
    const int a = queue[qi];
    if (a != start && near_enemy(a)) continue;  // may end here, not pass through
    for (int dd = 0; dd < 6; ++dd) {
      const int b = neighbour(a, dd);
      if (b < 0 || seen[static_cast<size_t>(b)]) continue;
      const HexInfo& x = hx(b);
      if (!x.on_map || data_->tec.prohibited[x.terrain] || enemy_in(b, d.side)) continue;
      if (hex_.control[static_cast<size_t>(b)] != d.side) continue;
      if ((hx(a).sea_side >> dd) & 1u || (hx(a).lake_side >> dd) & 1u) continue;
      if (pl.strait(a, b)) continue;
      if (d.axis_satellite() && x.zone == kZoneNorth && !(zone1942_ == kZoneNorth && turn_ >= 9))
        continue;  // 10.22
      seen[static_cast<size_t>(b)] = 1;
      ok[static_cast<size_t>(b)] = 1;
      queue.push_back(b);
    }
  }
}

bool BdState::second_advance_ok(int u) const {
  const UnitDef& d = def(u);
  if (d.cls != kMech) return false;
  if (d.side == kGerman) return ti().single;
  return turn_ >= 13 || scenario_id_ == "road-back";
}

Status BdState::check_advance2(int u, int hex) const {
  int from = -1;  // the hex it advanced from
  for (int i = 0; i < battle_.nadv2; ++i)
    if (battle_.adv2[static_cast<size_t>(i)] == u) from = battle_.adv2_from[static_cast<size_t>(i)];
  if (from < 0 || unit(u).where != kOnMap || unit(u).hex != battle_.target)
    return rerr("11.32", def(u).label + " may not advance a second hex");
  if (unit_supply(u) != kSupOverland) return rerr("11.32", "a second-hex advance needs overland supply");
  const int d = direction(battle_.target, hex);
  if (d < 0 || !hx(hex).on_map || data_->tec.prohibited[hx(hex).terrain])
    return rerr("11.32", "not an adjacent land hex");
  // "any newly adjacent hex": not the hex it advanced from, nor one that was beside it.
  if (hex == from || direction(from, hex) >= 0)
    return rerr("11.32", "the second hex must be newly adjacent: " + hex_id(hex) + " was already next to " +
                             def(u).label + " in " + hex_id(from));
  if (enemy_in(hex, def(u).side)) return rerr("11.32", "the second hex must be free of enemy units");
  const HexInfo& t = hx(battle_.target);
  if ((t.sea_side >> d) & 1u || (t.lake_side >> d) & 1u)
    return rerr("11.30", "no advance across all-water hexsides");
  const Places& pl = data_->places;
  if (pl.strait(battle_.target, hex)) return rerr("11.30", "no advance across the Kerch or the Sivash");
  std::vector<int> add{u};
  return stacking_ok(hex, def(u).side, add);
}

void BdState::do_apply(const Action& a) {
  // A move's MF (10.1) is a function of the position before the move: read here, before
  // mark_dirty() drops the supply trace that check() has just made, it costs no new trace.
  const int move_mf = a.verb == kMove && unit(a.args[0]).mp < 0 ? mf_of(a.args[0]) : -1;
  mark_dirty();
  switch (a.verb) {
    case kLwDefend:
      pending_ = kPendNone;
      if (a.args[0] == 1) {
        battle_.lw_defend = 1;
        markers_.luftwaffe_left--;
        log("combat", "Luftwaffe supports the defence of " + hex_id(battle_.target), "11.23");
      }
      if (enter_support()) break;  // 8.38: the Soviet commits his support after this decision
      resolve_battle();
      break;
    case kTakeRetreat:
      pending_ = kPendNone;
      if (a.args[0] == 1) {
        log("combat",
            "the Soviet takes a Defender Retreat in " + hex_id(battle_.target) + " instead of the die roll",
            "13.9");
        battle_.rolled = kDR;
        apply_result(kDR);
      } else {
        roll_battle();
      }
      break;
    case kSupport: {  // 8.36-8.41
      const int kind = a.args[0], u = a.nargs > 1 ? a.args[1] : -1;
      apply_support(battle_, kind, u);
      std::string text, german_text;  // 11.7: the army supported may be hidden from the German
      const char* rule = "8.41";
      switch (kind) {
        case kSupArtillery:
          ++markers_.artillery_used;
          text = "an artillery corps supports " + label(u) + ": its attack factor is doubled";
          german_text = "an artillery corps supports " + label_for_german(u, "a Soviet army") +
                        ": its attack factor is doubled";
          rule = "8.36";
          break;
        case kSupAirArmy:
          ++markers_.air_armies_used;
          text = "an air army supports " + label(u) + ": +1 attack factor";
          german_text = "an air army supports " + label_for_german(u, "a Soviet army") + ": +1 attack factor";
          rule = "8.38";
          break;
        case kSupInterceptor:
          markers_.support_used |= kSupportInterceptor;
          text = "the VI Interceptor Corps supports the attack: 1R";
          rule = "8.37";
          break;
        case kSupPartisans:
          markers_.support_used |= kSupportPartisans;
          text = "the partisans support the attack: 1R";
          rule = "8.39";
          break;
        default:
          markers_.airborne_years |= static_cast<uint8_t>(1u << (ti().year - 1942));
          text = "an airborne assault supports the attack: 1R (its " + std::to_string(ti().year) + " use)";
          rule = "8.40";
          break;
      }
      if (german_text.empty() || german_text == text)
        log("combat", text + " on " + hex_id(battle_.target), rule);
      else
        log_fog("combat", text + " on " + hex_id(battle_.target),
                german_text + " on " + hex_id(battle_.target), rule);
      if (!any_support()) {
        pending_ = kPendNone;
        resolve_battle();
      }
      break;
    }
    case kSupportDone:
      pending_ = kPendNone;
      resolve_battle();
      break;
    case kBulgariaExit: {  // 8.26
      const int u = a.args[0];
      UnitSt& s = units_[static_cast<size_t>(u)];
      s.where = kInBulgaria;
      s.hex = -1;
      s.mp = -1;
      movers_.erase(std::remove(movers_.begin(), movers_.end(), u), movers_.end());
      bulg_unit_ = static_cast<int16_t>(u);
      bulg_exit_turn_ = static_cast<int8_t>(turn_);
      std::vector<int> bg;
      for (int x = 0; x < num_units(); ++x)
        if (bulgarian(x) && unit(x).where == kOutOfPlay) bg.push_back(x);
      const int first = bg.empty() ? 14 : def(bg[0]).entry_turn;  // GT14: the counters' entry turn
      if (turn_ < first) {
        // On or before GT13: the Bulgarians (and the unit: ruling BD-SM5) enter on GT14 via
        // Bulgaria's border hexes.
        bulg_state_ = 2;
        bg.push_back(u);
        for (int x : bg) {
          units_[static_cast<size_t>(x)].where = kTrrt;
          units_[static_cast<size_t>(x)].turn = static_cast<int8_t>(first);
        }
        log("reinforcement",
            label(u) + " moves off the map into Bulgaria: it and the Bulgarian armies enter on Game Turn " +
                std::to_string(first) + " through the Bulgarian border hexes",
            "8.26");
      } else {
        bulg_state_ = 1;
        log("reinforcement",
            label(u) +
                " moves off the map into Bulgaria (1 MP): it returns with the three Bulgarian armies "
                "in the next Soviet movement phase",
            "8.26");
      }
      break;
    }
    case kBulgariaReturn: {  // 8.26
      const int h = a.args[0];
      std::vector<int> bg{bulg_unit_};
      for (int x = 0; x < num_units(); ++x)
        if (bulgarian(x) && unit(x).where == kOutOfPlay) bg.push_back(x);
      bulg_hex_ = static_cast<int16_t>(h);
      bulg_state_ = 3;
      std::string names;
      for (int x : bg) {
        place(x, h);
        UnitSt& s = units_[static_cast<size_t>(x)];
        s.mp = -1;
        s.flags = 0;
        s.start_hex = static_cast<int16_t>(h);
        names += " " + label(x);
      }
      log("reinforcement",
          "returning through " + hex_id(h) + ":" + names +
              " (one satellite army per hex again by the end of their first move, 6.4)",
          "8.26");
      break;
    }
    case kBbChoice:
      pending_ = kPendNone;
      log("combat", a.args[0] == 1 ? "Bloodbath converted to Defender Retreat" : "Bloodbath kept",
          battle_.attacker == kSoviet ? "11.33" : (turn_ == 1 ? "5.14" : "5.16"));
      apply_result(a.args[0] == 1 ? kDR : kBB, a.args[0] == 1 && battle_.attacker == kSoviet);
      break;
    case kRetreat:
      do_retreat(a.args[0]);
      break;
    case kAdvance: {
      const int from = unit(a.args[0]).hex;
      move_to(a.args[0], battle_.target);
      log("advance", label(a.args[0]) + " advances into " + hex_id(battle_.target), "11.30");
      communist_triggers(a.args[0], std::vector<int>{battle_.target});  // 8.24, 8.25
      for (int i = 0; i < battle_.nadv; ++i)
        if (battle_.adv[static_cast<size_t>(i)] == a.args[0]) battle_.adv[static_cast<size_t>(i)] = -1;
      if (second_advance_ok(a.args[0]) && battle_.nadv2 < kMaxBattleUnits) {
        battle_.adv2_from[battle_.nadv2] = static_cast<int16_t>(from);
        battle_.adv2[battle_.nadv2++] = static_cast<int16_t>(a.args[0]);
      }
      break;
    }
    case kAdvance2:
      move_to(a.args[0], a.args[1]);
      log("advance", label(a.args[0]) + " advances a second hex into " + hex_id(a.args[1]), "11.32");
      communist_triggers(a.args[0], std::vector<int>{a.args[1]});  // 8.24, 8.25
      for (int i = 0; i < battle_.nadv2; ++i)
        if (battle_.adv2[static_cast<size_t>(i)] == a.args[0]) battle_.adv2[static_cast<size_t>(i)] = -1;
      break;
    case kFortressCity:
      markers_.fortress_city.push_back(static_cast<int16_t>(a.args[0]));
      if (markers_.fortress_left > 0 &&
          !(turn_ >= 28 && markers_.fortress_restricted_left > 0 &&
            (hx(a.args[0]).country == kGreaterGermany || hx(a.args[0]).country == kGeneralGovernment ||
             hx(a.args[0]).country == kHungary)))
        markers_.fortress_left--;
      else
        markers_.fortress_restricted_left--;
      log("marker", "Fortress City declared at " + hex_id(a.args[0]), "9.2");
      break;
    case kEmergencyRvgk:
      pending_ = kPendNone;
      place(a.args[0], a.args[1]);
      units_[static_cast<size_t>(a.args[0])].flags |= kFlagNoMove;
      units_[static_cast<size_t>(a.args[0])].start_hex = static_cast<int16_t>(a.args[1]);
      log_seen(a.args[0], "rvgk",
               "emergency RVGK deployment: " + label(a.args[0]) + " at " + hex_id(a.args[1]),
               "emergency RVGK deployment: a Soviet unit at " + hex_id(a.args[1]), "8.11");
      break;
    case kNoEmergencyRvgk:
      pending_ = kPendNone;
      break;
    case kSeaMove: {
      if (def(a.args[0]).type == kCoastalArmy) {  // 10.34
        log("move",
            label(a.args[0]) + " switches ports " + hex_id(unit(a.args[0]).hex) + " -> " + hex_id(a.args[1]),
            "10.34", 1u << kSoviet);  // 11.7 as every Soviet move: the German sees the stacks
        move_to(a.args[0], a.args[1]);
        units_[static_cast<size_t>(a.args[0])].flags |= kFlagDone;
        break;
      }
      const int sea = sea_of(unit(a.args[0]).hex);
      sea_used_ = static_cast<uint8_t>(sea_used_ | (1u << sea));
      log("move",
          label(a.args[0]) + " moves by sea " + hex_id(unit(a.args[0]).hex) + " -> " + hex_id(a.args[1]) +
              "; it may not move on or attack this player turn",
          sea == 0 ? "10.16" : "10.17", def(a.args[0]).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
      move_to(a.args[0], a.args[1]);
      units_[static_cast<size_t>(a.args[0])].flags |= kFlagDone | kFlagSeaMoved;
      break;
    }
    case kAttach: {  // 8.31, 8.32
      const int u = a.args[0], p = a.args[1];
      const char* rule = attach_rule(u);
      const std::string from =
          unit(u).where == kOnMap ? hex_id(unit(u).hex) : std::string(where_name(unit(u).where));
      if (unit(u).where == kTrrt) {
        attach(u, p);
        log("reinforcement", label(u) + " arrives atop " + label(p) + " in " + hex_id(unit(p).hex), rule,
            def(u).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
      } else if (unit(u).where == kRvgk) {
        ++rvgk_moves_;
        attach(u, p);
        log_seen(u, "rvgk",
                 label(u) + " comes out of the RVGK atop " + label(p) + " in " + hex_id(unit(p).hex),
                 "a Soviet unit comes out of the RVGK in " + hex_id(unit(p).hex), rule);
      } else {
        strat_used_ = static_cast<int8_t>(strat_used_ + strategic_cost(u));
        attach(u, p);
        log("move",
            label(u) + " moves strategically " + from + " -> " + hex_id(unit(p).hex) + " atop " + label(p),
            "8.6, 8.31", def(u).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
      }
      units_[static_cast<size_t>(u)].flags |= kFlagDone;
      break;
    }
    case kStrategic:
      strat_used_ = static_cast<int8_t>(strat_used_ + strategic_cost(a.args[0]));
      log("move",
          label(a.args[0]) + " moves strategically " + hex_id(unit(a.args[0]).hex) + " -> " +
              hex_id(a.args[1]),
          "8.6", def(a.args[0]).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
      move_to(a.args[0], a.args[1]);
      units_[static_cast<size_t>(a.args[0])].flags |= kFlagDone;
      break;
    case kCrimeaSupply: {
      const bool was_on = crimea_on_;
      crimea_on_ = a.args[0] == 1;
      crimea_switched_ = true;
      if (crimea_on_) crimea_turn_ = true;
      crimea_declared_.clear();  // ruling BD-22: a declaration stands until the next switch
      std::string names;
      for (int i = 1; i < a.nargs; ++i) {
        crimea_declared_.push_back(static_cast<int16_t>(a.args[i]));
        names += " " + label(a.args[i]);
      }
      mark_dirty();
      if (was_on != crimea_on_)
        log("supply", std::string("German Crimea supply switched ") + (crimea_on_ ? "on" : "off"), "7.4");
      if (!names.empty()) log("supply", "German Crimea supply declared for" + names, "7.4");
      break;
    }
    case kAerialSupply:
      markers_.aerial = static_cast<int16_t>(a.args[0]);
      markers_.aerial_available = false;
      log("marker", "German aerial supply committed to " + hex_id(a.args[0]), "7.7");
      break;
    case kFortifiedArea:
      markers_.fa_hex = static_cast<int16_t>(a.args[0]);
      markers_.fa_turn = static_cast<int8_t>(turn_);
      markers_.fa_available = false;
      log("marker", "Soviet Fortified Area placed at " + hex_id(a.args[0]), "8.18");
      break;
    case kAdvanceDone:
      finish_battle();
      break;
    case kEndPhase:
      // 6.2, 8.26: Bulgarians still over-stacked at the end of their first move (none of them
      // could leave the entry hex) go to the dead pile down to the limit (ruling BD-SM6).
      if (bulgaria_overstacked()) {
        std::vector<int> here;
        units_in(bulg_hex_, here);
        int sats = 0;
        for (int x : here)
          if (def(x).satellite_army() && ++sats > data_->stacking.satellite_armies_per_hex) {
            log("eliminate", label(x) + " is over-stacked at the end of its first move", "6.2, 8.26");
            eliminate(x, "6.2");
          }
      }
      // 6.2: a hex over-stacked at the end of the phase is brought back into the limits
      // first; the phase ends after the last removal.
      if (overstack_check()) {
        overstack_resume_ = true;
        break;
      }
      end_phase();
      (void)overstack_check();  // 6.2 ... and at the start of the next phase
      break;
    case kBbLoss:  // 11.26
      log("combat", label(a.args[0]) + " is given up for the Bloodbath", "11.26");
      bb_remove(a.args[0]);
      bb_continue();
      break;
    case kOverstackRemove: {  // 6.2
      const int u = a.args[0];
      const std::string from = hex_id(unit(u).hex);
      eliminate(u, "6.2");
      pending_ = kPendNone;
      log("stacking",
          std::string(side_name(other(def(u).side))) + " removes " + label(u) +
              " from the over-stacked hex " + from + " to the dead pile",
          "6.2");
      if (overstack_check()) break;
      if (overstack_resume_) {
        overstack_resume_ = false;
        end_phase();
        (void)overstack_check();
      }
      break;
    }
    case kMove: {
      const int u = a.args[0];
      UnitSt& s = units_[static_cast<size_t>(u)];
      if (std::find(movers_.begin(), movers_.end(), u) == movers_.end()) {
        for (int m : movers_) units_[static_cast<size_t>(m)].flags |= kFlagDone;  // 10.2
        movers_.assign(1, static_cast<int16_t>(u));
      }
      int left = s.mp >= 0 ? s.mp : move_mf;
      const Places& pl = data_->places;
      std::string path = hex_id(a.args[1]);
      for (int i = 2; i < a.nargs; ++i) {
        const int from = a.args[i - 1], to = a.args[i];
        left -= enter_cost(u, from, to);
        if (is_crossing(pl.kerch, from, to)) {
          kerch_from_ = static_cast<int16_t>(from);  // 10.14
          left = 0;
        }
        move_to(u, to);
        path += " " + hex_id(to);
      }
      s.mp = static_cast<int8_t>(std::max(0, left));
      log("move", std::string(side_name(def(u).side)) + " " + label(u) + " moves " + path, "10.1",
          def(u).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
      if (def(u).side == kSoviet) {  // 8.24, 8.25
        std::vector<int> hexes(a.args.begin() + 2, a.args.begin() + a.nargs);
        communist_triggers(u, hexes);
      }
      break;
    }
    case kAttackFrom:
    case kAttackWith:
    case kMobileAssault: {
      std::vector<int> atts;
      if (a.verb == kAttackFrom) {
        (void)collect_attack_from(a, atts);
      } else {
        for (int i = 2; i < a.nargs; ++i) atts.push_back(a.args[i]);
      }
      if (a.verb != kMobileAssault)
        for (int m : movers_) units_[static_cast<size_t>(m)].flags |= kFlagDone;
      start_battle(atts, a.args[0], a.verb == kMobileAssault, (a.args[1] & 1) != 0, (a.args[1] & 2) != 0);
      break;
    }
    case kOrder: {
      const int side = phase_ == kGermanOrder ? kGerman : kSoviet;
      order_[static_cast<size_t>(side)] = static_cast<uint8_t>(a.args[0]);
      if (side == kGerman && combout_left_ > 0) {
        log("replacement", std::to_string(combout_left_) + " comb-out steps not used are lost", "8.16");
        combout_left_ = 0;
      }
      if (a.args[0] == kFightFight) {
        if (side == kSoviet)
          soviet_ff_used_ = true;
        else if (ti().year == 1942)
          ff_used_1942_ = true;
        else
          ff_used_1943_ = true;
      }
      log("order", std::string(side_name(side)) + " declares " + kOrderNames[a.args[0]], "5.4");
      if (side == kGerman) {
        if (turn_ >= 9 && turn_ <= 29) {  // 8.6
          strat_used_ = 0;
          enter_phase(kGermanStrategic);
        } else {
          enter_phase(kGermanB);
        }
      } else {
        bool any = false;
        for (auto h : markers_.osupply_have) any |= h != 0;
        if (turn_ >= 7 && any && !german_moscow_at_start_ && scenario_id_ != "what-if-1942")
          enter_phase(kSovietOSupply);
        else
          enter_phase((turn_ == 1 || skip_rvgk_once_) ? kSovietB : kSovietRvgk);
        skip_rvgk_once_ = false;
      }
      break;
    }
    case kPaulus:
      paulus_ = static_cast<int8_t>(a.args[0]);
      log("order",
          a.args[0] == 1 ? "Paulus Pause taken: no German attacks this turn" : "Paulus Pause declined",
          "5.10");
      break;
    case kZone1942:
      zone1942_ = static_cast<int8_t>(a.args[0]);
      log("order", std::string("1942 logistics effort: ") + (a.args[0] == kZoneNorth ? "north" : "south"),
          "5.6");
      break;
    case kConvert: {
      const int g = a.args[0], r = a.args[1];
      const std::string where = hex_id(unit(r).hex);
      const bool seen = german_sees(r);          // 11.7 the top unit of its stack, or revealed
      units_[static_cast<size_t>(g)] = unit(r);  // hex, stack order, MP and flags carry over
      units_[static_cast<size_t>(r)] = UnitSt{};
      repoint_attached(r, g);  // 8.32 its CM stays atop the new army
      units_[static_cast<size_t>(r)].where = kDead;
      const std::string text =
          label(r) + " in " + where + " becomes " + label(g) + "; " + label(r) + " goes to the dead pile";
      if (seen)
        log("convert", text, "8.20");
      else
        log_fog("convert", text,
                "a Soviet army in " + where +
                    " becomes a Guards or Shock army; the army replaced goes to the dead pile",
                "8.20");
      break;
    }
    case kCombOut: {
      const int r = roll(6, "rear-area comb-out", "8.16");
      combout_left_ = static_cast<int8_t>(r / 2);
      combout_done_ = static_cast<uint8_t>(combout_done_ | (ti().year == 1943 ? 1u : 2u));
      log("replacement",
          "German rear-area comb-out: d6 = " + std::to_string(r) + ", " + std::to_string(r / 2) +
              " bonus non-mech replacement steps",
          "8.16");
      break;
    }
    case kEastWall:
      markers_.east_wall.push_back(static_cast<int16_t>(a.args[0]));
      markers_.east_wall_left--;
      log("marker", "East Wall counter placed in " + hex_id(a.args[0]), "8.5");
      break;
    case kEnter:
      if (enters_in_situ(a.args[0]) && occupant_side(a.args[1]) == def(a.args[0]).side)
        hex_.insitu[static_cast<size_t>(a.args[1])] = 1;  // 8.2, 8.4
      place(a.args[0], a.args[1]);
      hex_.entered[static_cast<size_t>(a.args[1])]++;
      log("reinforcement", label(a.args[0]) + " enters at " + hex_id(a.args[1]), "8.1",
          def(a.args[0]).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
      break;
    case kReplace: {
      const int u = a.args[0];
      const int side = def(u).side;
      if (phase_ == kGermanOrder) {  // 8.16 a comb-out step
        combout_left_--;
        place(u, a.args[1]);
        hex_.entered[static_cast<size_t>(a.args[1])]++;
        log("replacement", label(u) + " rebuilt at " + hex_id(a.args[1]) + " by the comb-out", "8.16");
        break;
      }
      if (def(u).cls == kMech || repl_left_non_[static_cast<size_t>(side)] <= 0)
        repl_left_mech_[static_cast<size_t>(side)]--;  // 8.13 Soviet may use a mech step for non-mech
      else
        repl_left_non_[static_cast<size_t>(side)]--;
      if (a.args[1] == -1) {
        units_[static_cast<size_t>(u)].where = kRvgk;
        log("replacement", label(u) + " rebuilt into the RVGK", "8.8", 1u << kSoviet);
      } else {
        place(u, a.args[1]);
        hex_.entered[static_cast<size_t>(a.args[1])]++;
        log("replacement", label(u) + " rebuilt at " + hex_id(a.args[1]), "8.12");
      }
      break;
    }
    case kRvgkIn: {
      UnitSt& s = units_[static_cast<size_t>(a.args[0])];
      if (phase_ == kSetupPhase) {  // 15.3
        s.where = kRvgk;
        ++rvgk_setup_;
        log("setup", label(a.args[0]) + " starts in the RVGK", "15.3", 1u << kSoviet);
        if (setup_left(kGerman) + setup_left(kSoviet) == 0 && !lith_relocate_) {
          rebase_vp();
          start_play();
        }
        break;
      }
      s.where = kRvgk;
      s.hex = -1;
      s.parent = -1;  // 8.32 a CM leaves its army for the RVGK
      s.flags |= kFlagDone;
      ++rvgk_moves_;
      mark_dirty();
      log("rvgk", label(a.args[0]) + " goes into the RVGK", "8.9", 1u << kSoviet);
      break;
    }
    case kRvgkOut:
      place(a.args[0], a.args[1]);
      units_[static_cast<size_t>(a.args[0])].start_hex = static_cast<int16_t>(a.args[1]);
      units_[static_cast<size_t>(a.args[0])].flags |= kFlagDone;
      ++rvgk_moves_;
      log_seen(a.args[0], "rvgk", label(a.args[0]) + " comes out of the RVGK at " + hex_id(a.args[1]),
               "a Soviet unit comes out of the RVGK at " + hex_id(a.args[1]), "8.10");
      break;
    case kOffSupply:
      markers_.osupply[static_cast<size_t>(a.args[0])] = static_cast<int16_t>(a.args[1]);
      log("marker", std::string("offensive supply ") + "ABC"[a.args[0]] + " at " + hex_id(a.args[1]), "7.12");
      break;
    case kSetup:
      if (unit(a.args[0]).where == kOnMap) {  // 3.7 relocation into Poland
        place(a.args[0], a.args[1], true);
        log("setup", label(a.args[0]) + " relocates to " + hex_id(a.args[1]), "3.7", 1u << kSoviet);
        break;
      }
      place(a.args[0], a.args[1], true);
      log("setup", label(a.args[0]) + " sets up in " + hex_id(a.args[1]), "3.3",
          def(a.args[0]).side == kSoviet ? (1u << kSoviet) : 0xFFFFFFFFu);
      if (setup_left(kGerman) + setup_left(kSoviet) == 0 && !lith_relocate_) {
        rebase_vp();
        start_play();
      }
      break;
    case kWithdraw: {
      if (phase_ == kAdminGerman) {  // 8.17
        ss_withdraw("withdrawn");
        break;
      }
      UnitSt& s = units_[static_cast<size_t>(a.args[0])];
      s.where = kTrrt;
      s.turn = 27;  // 8.21
      s.hex = -1;
      withdraw_due_ = 0;
      mark_dirty();
      log("withdraw", label(a.args[0]) + " withdrawn until GT27", "8.21");
      break;
    }
    case kSummerOffensive:
      summer_turn_ = static_cast<int8_t>(turn_);
      log("order", "the German declares his 1943 summer offensive", "4.4");
      break;
    case kMansteinsGambit:
      summer_turn_ = static_cast<int8_t>(turn_);
      mg_ = true;
      log("order",
          "the German declares his 1943 summer offensive as Manstein's Gambit: the game ends at the end of "
          "GT" +
              std::to_string(data_->victory.mg_end_turn),
          "4.16");
      mg_start();
      break;
    case kWatch:
      watch_ = static_cast<int8_t>(a.args[0]);
      // 4.18: the choice stays under the coffee cup until GT30; only the German sees it.
      log("order", std::string("Operation Watch on the ") + (a.args[0] == 2 ? "Oder" : "Rhine") + " chosen",
          "4.18", 1u << kGerman);
      log("order", "the German has chosen between Rhine and Oder (hidden until Game Turn 30)", "4.18",
          1u << kSoviet);
      break;
    case kDeclineWithdraw:
      if (phase_ == kAdminGerman) {  // 4.10
        const int i = std::max<int>(0, ss_cycle_);
        ss_due_ = 0;
        ss_failed_ = static_cast<uint8_t>(ss_failed_ | (1u << i));
        vp_ += data_->victory.ss_vp;
        vp_events_ += data_->victory.ss_vp;
        log("vp",
            "the German declines the withdrawal of " + label(ss_unit()) + ": German VP " +
                std::to_string(data_->victory.ss_vp) + ", now " + std::to_string(vp_),
            "4.10");
        break;
      }
      withdraw_due_ = 0;
      vp_ += 1;
      vp_events_ += 1;
      log("vp", "Soviet declines the withdrawal: German VP +1", "4.9");
      break;
    case kHeroCity:
      markers_.hero_city.push_back(static_cast<int16_t>(a.args[0]));
      markers_.hero_left--;
      mark_dirty();
      log("marker", "Hero City declared at " + hex_id(a.args[0]), "9.1");
      break;
    case kCaucasusLaunch: {                                                     // 4.11
      for (int m : movers_) units_[static_cast<size_t>(m)].flags |= kFlagDone;  // 10.2
      movers_.clear();
      std::string names;
      for (int i = 0; i < a.nargs; ++i) {
        UnitSt& s = units_[static_cast<size_t>(a.args[i])];
        names += (i > 0 ? ", " : "") + label(a.args[i]) + " (" + hex_id(s.hex) + ")";
        s.where = kCaucasus;
        s.hex = -1;
        s.mp = -1;
        s.flags = 0;
      }
      mark_dirty();
      cauc_ = kCaucInBox;
      cauc_turn_ = static_cast<int8_t>(turn_);
      log("caucasus", "the German launches a Caucasus expedition: " + names + " leave the map", "4.11");
      // 4.12: the Soviet must answer at once with four rifle armies, or lose.
      cauc_need_ = static_cast<int8_t>(data_->victory.caucasus_response);
      if (cauc_need_ <= 0) break;
      if (caucasus_responders() < cauc_need_) {
        end_game(kGerman,
                 "the Soviet cannot send " + std::to_string(cauc_need_) + " rifle armies to the Caucasus",
                 "4.12");
        break;
      }
      pending_ = kPendCaucasus;
      break;
    }
    case kCaucasusSend: {  // 4.12
      const int u = a.args[0];
      UnitSt& s = units_[static_cast<size_t>(u)];
      const std::string from = s.where == kRvgk ? std::string("the RVGK") : hex_id(s.hex);
      s.where = kCaucasus;
      s.hex = -1;
      s.mp = -1;
      s.flags = 0;
      mark_dirty();
      --cauc_need_;
      log("caucasus", "the Soviet sends " + label(u) + " from " + from + " into the Caucasus box", "4.12");
      if (cauc_need_ <= 0) {
        pending_ = kPendNone;
      } else if (caucasus_responders() < cauc_need_) {
        end_game(kGerman, "the Soviet cannot send enough rifle armies to the Caucasus", "4.12");
      }
      break;
    }
    case kCaucasusRefuse:
      end_game(kGerman, "the Soviet does not respond to the Caucasus expedition", "4.12");
      break;
    case kCaucasusRecall: {  // 4.13: all out, at 0 MP through exit hexes free of Soviet units
      for (int m : movers_) units_[static_cast<size_t>(m)].flags |= kFlagDone;  // 10.2
      movers_.clear();
      std::string names;
      for (int i = 0; i < a.nargs; i += 2) {
        const int u = a.args[i], h = a.args[i + 1];
        place(u, h);
        UnitSt& s = units_[static_cast<size_t>(u)];
        s.mp = -1;
        s.flags = 0;
        s.start_hex = static_cast<int16_t>(h);
        names += (i > 0 ? ", " : "") + label(u) + " at " + hex_id(h);
      }
      cauc_ = kCaucRecalled;
      log("caucasus", "the German recalls the Caucasus expedition: " + names, "4.13");
      break;
    }
    case kCaucasusLeave: {  // 4.13 (ruling BD-V6)
      const int u = a.args[0], h = a.args[1];
      place(u, h);
      UnitSt& s = units_[static_cast<size_t>(u)];
      s.mp = -1;
      s.start_hex = static_cast<int16_t>(h);
      log("caucasus", label(u) + " leaves the Caucasus box at " + hex_id(h), "4.13");
      break;
    }
    default:
      break;
  }
  switch (a.verb) {  // 6.2 at the end of the resolution of an assault
    case kAttackFrom:
    case kAttackWith:
    case kMobileAssault:
    case kLwDefend:
    case kTakeRetreat:
    case kBbChoice:
    case kRetreat:
    case kAdvanceDone:
      (void)overstack_check();
      break;
    default:
      break;
  }
  orphan_check();           // 8.31, 8.32 ruling BD-TB1
  leningrad_siege_check();  // 12.13 at every instant
#ifndef NDEBUG
  if (auto s = check_invariants(); !s) {
    log("invariant", "invariant broken: " + s.error().message, "");
    std::fprintf(stderr, "BD invariant broken after %s: %s\n", action_to_string(a).c_str(),
                 s.error().message.c_str());
    assert(false && "BD invariant broken");
  }
#endif
}

void BdState::legal_actions(std::vector<Action>& out) const {
  out.clear();
  if (phase_ == kGameOver) return;
  auto push_if = [&](const Action& a) {
    if (check_inner(a).is_ok()) out.push_back(a);
  };
  auto mk = [](uint16_t verb, std::initializer_list<int> args) {
    Action a;
    a.verb = verb;
    for (int x : args) a.push(x);
    return a;
  };
  switch (pending_) {
    case kPendTakeRetreat:
      push_if(mk(kTakeRetreat, {0}));
      push_if(mk(kTakeRetreat, {1}));
      return;
    case kPendBbLoss: {  // 11.26
      std::vector<int> cand;
      bb_candidates(cand);
      for (int u : cand) push_if(mk(kBbLoss, {u}));
      return;
    }
    case kPendOverstack: {  // 6.2
      const int h = overstacked_hex();
      if (h < 0) return;
      std::vector<int> here;
      units_in(h, here);
      for (int u : here) push_if(mk(kOverstackRemove, {u}));
      return;
    }
    case kPendLwDefend:
      push_if(mk(kLwDefend, {0}));
      push_if(mk(kLwDefend, {1}));
      if (markers_.aerial_available && markers_.aerial < 0)
        for (int h = 0; h < kNumHexes; ++h) push_if(mk(kAerialSupply, {h}));
      return;
    case kPendEmergency:
      for (int u = 0; u < num_units(); ++u)
        if (unit(u).where == kRvgk && def(u).side == kSoviet)
          for (int h = 0; h < kNumHexes; ++h)
            if (hx(h).city) push_if(mk(kEmergencyRvgk, {u, h}));
      out.push_back(mk(kNoEmergencyRvgk, {}));
      return;
    case kPendCaucasus:  // 4.12
      for (int u = 0; u < num_units(); ++u)
        if (caucasus_responder(u)) out.push_back(mk(kCaucasusSend, {u}));
      out.push_back(mk(kCaucasusRefuse, {}));
      return;
    case kPendSupport:  // 8.36-8.41
      for (int k = kSupArtillery; k < kNumSupportKinds; ++k) {
        if (support_left(k) <= 0) continue;
        if (k == kSupArtillery || k == kSupAirArmy) {
          for (int i = 0; i < battle_.natt; ++i)
            push_if(mk(kSupport, {k, battle_.att[static_cast<size_t>(i)]}));
        } else {
          push_if(mk(kSupport, {k}));
        }
      }
      out.push_back(mk(kSupportDone, {}));
      return;
    case kPendBbChoice:
      out.push_back(mk(kBbChoice, {1}));
      out.push_back(mk(kBbChoice, {0}));
      return;
    case kPendRetreat: {
      std::vector<int> opts;
      retreat_options(battle_.target, other(battle_.attacker), opts);
      for (int h : opts) out.push_back(mk(kRetreat, {h}));
      return;
    }
    case kPendAdvance:
      for (int i = 0; i < battle_.nadv; ++i)
        if (battle_.adv[static_cast<size_t>(i)] >= 0)
          push_if(mk(kAdvance, {battle_.adv[static_cast<size_t>(i)]}));
      for (int i = 0; i < battle_.nadv2; ++i) {
        const int u = battle_.adv2[static_cast<size_t>(i)];
        if (u < 0) continue;
        for (int d = 0; d < 6; ++d) {
          const int n = neighbour(battle_.target, d);
          if (n >= 0) push_if(mk(kAdvance2, {u, n}));
        }
      }
      out.push_back(mk(kAdvanceDone, {}));
      return;
    default:
      break;
  }
  std::vector<int> hexes;
  switch (phase_) {
    case kSetupPhase:
      for (const auto& [u, z] : setup_zones()) {
        if (unit(u).where != kToSetUp || def(u).side != phase_side()) continue;
        zone_hexes(z, hexes);
        for (int h : hexes) push_if(mk(kSetup, {u, h}));
        if (sparam("soviet_rvgk_at_start") > 0) push_if(mk(kRvgkIn, {u}));  // 15.3
        break;  // one unit at a time keeps the branching small
      }
      if (lith_relocate_ && setup_left(kGerman) + setup_left(kSoviet) == 0) {  // 3.7
        const auto it = data_->places.zones.find("lithuania_soviet");
        for (int u = 0; u < num_units(); ++u)
          if (lithuania_relocation(u) && it != data_->places.zones.end())
            for (int h : it->second) push_if(mk(kSetup, {u, h}));
        push_if(mk(kEndPhase, {}));
      }
      return;
    case kAdminGerman:
    case kAdminSoviet: {
      const int side = phase_ == kAdminGerman ? kGerman : kSoviet;
      if (side == kSoviet && withdraw_due_) {
        for (int u = 0; u < num_units(); ++u)
          if (def(u).type == kRifleArmy && unit(u).where == kOnMap) push_if(mk(kWithdraw, {u}));
        out.push_back(mk(kDeclineWithdraw, {}));
        return;
      }
      if (side == kGerman && markers_.east_wall_left > 0)  // 8.5
        for (int h = 0; h < kNumHexes; ++h) push_if(mk(kEastWall, {h}));
      if (side == kGerman && ss_due_ == 1) {  // 8.17 / 4.10
        if (ss_can_withdraw()) {
          out.push_back(mk(kWithdraw, {ss_unit()}));
          out.push_back(mk(kDeclineWithdraw, {}));
          return;
        }
        out.push_back(mk(kDeclineWithdraw, {}));
      }
      for (int u = 0; u < num_units(); ++u) {
        if (def(u).side != side) continue;
        const UnitSt& s = unit(u);
        if (s.where == kTrrt && s.turn <= turn_ && converts_on_arrival(u)) {
          if (def(u).type == kGuardsArmy || def(u).type == kShockArmy)  // 8.20
            for (int r = 0; r < num_units(); ++r)
              if (def(r).type == kRifleArmy && unit(r).where == kOnMap) push_if(mk(kConvert, {u, r}));
        } else if (s.where == kTrrt && s.turn <= turn_ && is_attachable(u)) {  // 8.31, 8.32 atop a parent
          for (int p = 0; p < num_units(); ++p)
            if (unit(p).where == kOnMap && eligible_parent(u, p)) push_if(mk(kAttach, {u, p}));
        } else if (s.where == kTrrt && s.turn <= turn_) {
          entry_hexes(u, hexes);
          for (int h : hexes) push_if(mk(kEnter, {u, h}));
        } else if (s.where == kDead) {
          if (side == kSoviet) push_if(mk(kReplace, {u, -1}));
          entry_hexes(u, hexes);
          for (int h : hexes) push_if(mk(kReplace, {u, h}));
        }
      }
      if (side == kSoviet && markers_.fa_available)
        for (int h = 0; h < kNumHexes; ++h) push_if(mk(kFortifiedArea, {h}));
      if (side == kGerman && (markers_.fortress_left > 0 || markers_.fortress_restricted_left > 0))
        for (int h = 0; h < kNumHexes; ++h)
          if (hx(h).city) push_if(mk(kFortressCity, {h}));
      // 7.4: listed once a turn here, and not again once switched in this phase: a switch
      // back changes nothing in it and would let an agent toggle for ever (the German may
      // still type it, BD-22).
      if (side == kGerman && !crimea_switched_) push_if(mk(kCrimeaSupply, {crimea_on_ ? 0 : 1}));
      if (side == kSoviet && markers_.hero_left > 0)
        for (int h = 0; h < kNumHexes; ++h)
          if (hx(h).city) push_if(mk(kHeroCity, {h}));
      if (side == kGerman) {
        push_if(mk(kSummerOffensive, {}));  // 4.4
        push_if(mk(kMansteinsGambit, {}));  // 4.16
        push_if(mk(kWatch, {1}));           // 4.18
        push_if(mk(kWatch, {2}));
      }
      push_if(mk(kEndPhase, {}));
      return;
    }
    case kGermanOrder:
    case kSovietOrder:
      push_if(mk(kCombOut, {}));  // 8.16
      if (phase_ == kGermanOrder && combout_left_ > 0)
        for (int u = 0; u < num_units(); ++u)
          if (def(u).side == kGerman && unit(u).where == kDead && def(u).cls == kNonMech) {
            entry_hexes(u, hexes);
            for (int h : hexes) push_if(mk(kReplace, {u, h}));
          }
      push_if(mk(kPaulus, {1}));
      push_if(mk(kPaulus, {2}));
      push_if(mk(kZone1942, {kZoneNorth}));
      push_if(mk(kZone1942, {kZoneSouth}));
      for (int o = kMoveFight; o <= kFightFight; ++o) push_if(mk(kOrder, {o}));
      return;
    case kSovietOSupply:
      for (int m = 0; m < 3; ++m) {
        if (!markers_.osupply_have[static_cast<size_t>(m)] || markers_.osupply[static_cast<size_t>(m)] >= 0)
          continue;
        for (int h = 0; h < kNumHexes; ++h)
          if (hx(h).on_map) push_if(mk(kOffSupply, {m, h}));
        break;  // markers in order A, B, C
      }
      push_if(mk(kEndPhase, {}));
      return;
    case kSovietRvgk:
      for (int u = 0; u < num_units(); ++u) {
        if (def(u).side != kSoviet) continue;
        if (unit(u).where == kOnMap || unit(u).where == kCaucasus) {
          push_if(mk(kRvgkIn, {u}));
        } else if (unit(u).where == kRvgk && is_attachable(u)) {  // 8.32 out atop an army
          if (rvgk_moves_ < 5 && !(unit(u).flags & kFlagDone))
            for (int p = 0; p < num_units(); ++p)
              if (unit(p).where == kOnMap && eligible_parent(u, p)) push_if(mk(kAttach, {u, p}));
        } else if (unit(u).where == kRvgk) {
          for (int h = 0; h < kNumHexes; ++h)
            if (hx(h).city || std::find(data_->places.rvgk_edge.begin(), data_->places.rvgk_edge.end(), h) !=
                                  data_->places.rvgk_edge.end())
              push_if(mk(kRvgkOut, {u, h}));
        }
      }
      push_if(mk(kEndPhase, {}));
      return;
    case kGermanStrategic: {
      std::vector<uint8_t> ok;
      for (int u = 0; u < num_units(); ++u) {
        if (def(u).side != kGerman || unit(u).where != kOnMap || !hx(unit(u).hex).city) continue;
        if (strat_used_ + strategic_cost(u) > 8 || (unit(u).flags & kFlagDone)) continue;
        strategic_reach(u, ok);
        if (is_attachable(u)) {  // 8.31 onto another corps
          ok[static_cast<size_t>(unit(u).hex)] = 1;
          for (int p = 0; p < num_units(); ++p)
            if (unit(p).where == kOnMap && ok[static_cast<size_t>(unit(p).hex)] && eligible_parent(u, p))
              push_if(mk(kAttach, {u, p}));
          continue;
        }
        for (int h = 0; h < kNumHexes; ++h)
          if (ok[static_cast<size_t>(h)]) push_if(mk(kStrategic, {u, h}));
      }
      push_if(mk(kEndPhase, {}));
      return;
    }
    case kGermanB:
    case kGermanC:
    case kSovietB:
    case kSovietC:
      if (is_move_phase()) gen_moves(out);
      if (is_move_phase() && phase_side() == kSoviet)  // 10.34
        for (int u = 0; u < num_units(); ++u)
          if (def(u).type == kCoastalArmy && unit(u).where == kOnMap)
            for (int h : {data_->places.odessa, data_->places.sevastopol})
              if (h >= 0 && h != unit(u).hex) push_if(mk(kSeaMove, {u, h}));
      if (is_move_phase() && phase_side() == kGerman)  // 10.16, 10.17
        for (int u = 0; u < num_units(); ++u) {
          if (def(u).type != kInfantry || def(u).side != kGerman || unit(u).where != kOnMap) continue;
          const int sea = sea_of(unit(u).hex);
          if (sea < 0) continue;
          for (int h : data_->places.sea_ports[static_cast<size_t>(sea)])
            if (h != unit(u).hex) push_if(mk(kSeaMove, {u, h}));
        }
      if (is_move_phase()) gen_caucasus(out);            // 4.11-4.13
      if (is_move_phase() && phase_side() == kSoviet) {  // 8.26
        if (bulg_state_ == 0)
          for (int h : data_->places.bulgarian_exits) {
            units_in(h, hexes);
            for (int u : hexes) push_if(mk(kBulgariaExit, {u}));
          }
        if (bulg_state_ == 1)
          for (int h : data_->places.bulgarian_exits) push_if(mk(kBulgariaReturn, {h}));
      }
      {
        const size_t first = out.size();
        gen_attacks(out);
        if (phase_side() == kGerman && para_drop_unit() >= 0)  // 4.17 each attack also with the air drop
          for (size_t i = first, n = out.size(); i < n; ++i) {
            Action a = out[i];
            if (a.verb != kAttackFrom && a.verb != kAttackWith && a.verb != kMobileAssault) continue;
            a.args[1] |= 2;
            push_if(a);
          }
      }
      if (phase_side() == kGerman && (markers_.fortress_left > 0 || markers_.fortress_restricted_left > 0))
        for (int h = 0; h < kNumHexes; ++h)
          if (hx(h).city) push_if(mk(kFortressCity, {h}));
      if (phase_side() == kGerman && markers_.aerial_available && markers_.aerial < 0)
        for (int h = 0; h < kNumHexes; ++h) push_if(mk(kAerialSupply, {h}));
      if (phase_side() == kSoviet && markers_.hero_left > 0)
        for (int h = 0; h < kNumHexes; ++h)
          if (hx(h).city) push_if(mk(kHeroCity, {h}));
      push_if(mk(kEndPhase, {}));
      return;
    default:
      return;
  }
}

// 4.11-4.13 in a movement phase: the launch (every choice of the expedition's units in the
// exit hexes), the recall (every assignment of its units to the free exit hexes) and the
// Soviet units leaving the box.
void BdState::gen_caucasus(std::vector<Action>& out) const {
  if (pending_ != kPendNone) return;
  const VictoryRules& vr = data_->victory;
  auto push_if = [&](const Action& a) {
    if (check_inner(a).is_ok()) out.push_back(a);
  };
  const int side = phase_side();
  if (side == kGerman && cauc_ == kCaucNone && cauc_open_ && caucasus_scenario()) {
    std::vector<int> inf, pz;
    for (int u = 0; u < num_units(); ++u) {
      const UnitDef& d = def(u);
      if (d.side != kGerman || d.nation != "german" || unit(u).where != kOnMap || !caucasus_exit(unit(u).hex))
        continue;
      if (std::find(vr.caucasus_infantry_types.begin(), vr.caucasus_infantry_types.end(), d.type) !=
          vr.caucasus_infantry_types.end())
        inf.push_back(u);
      else if (std::find(vr.caucasus_panzer_types.begin(), vr.caucasus_panzer_types.end(), d.type) !=
               vr.caucasus_panzer_types.end())
        pz.push_back(u);
    }
    // Combinations of k out of a list, appended to `cur`.
    std::vector<std::vector<int>> inf_sets, pz_sets;
    auto combos = [](const std::vector<int>& from, int k, std::vector<std::vector<int>>& sets) {
      std::vector<int> cur;
      auto rec = [&](auto&& self, size_t start) -> void {
        if (static_cast<int>(cur.size()) == k) {
          sets.push_back(cur);
          return;
        }
        for (size_t i = start; i < from.size(); ++i) {
          cur.push_back(from[i]);
          self(self, i + 1);
          cur.pop_back();
        }
      };
      rec(rec, 0);
    };
    combos(inf, vr.caucasus_infantry, inf_sets);
    combos(pz, vr.caucasus_panzer, pz_sets);
    for (const auto& a : inf_sets)
      for (const auto& b : pz_sets) {
        std::vector<int> all(a);
        all.insert(all.end(), b.begin(), b.end());
        std::sort(all.begin(), all.end());
        Action x;
        x.verb = kCaucasusLaunch;
        for (int u : all) x.push(u);
        push_if(x);
      }
  }
  if (side == kGerman && cauc_ == kCaucInBox && turn_ > cauc_turn_) {
    std::vector<int> box, free_exits;
    for (int u = 0; u < num_units(); ++u)
      if (unit(u).where == kCaucasus && def(u).side == kGerman) box.push_back(u);
    for (int h : vr.caucasus_exits)
      if (h >= 0 && !enemy_in(h, kGerman)) free_exits.push_back(h);
    if (box.empty() || free_exits.empty() || box.size() > 5) return;
    std::vector<size_t> pick(box.size(), 0);
    for (;;) {
      Action x;
      x.verb = kCaucasusRecall;
      for (size_t i = 0; i < box.size(); ++i) {
        x.push(box[i]);
        x.push(free_exits[pick[i]]);
      }
      push_if(x);
      size_t i = 0;
      while (i < pick.size() && ++pick[i] == free_exits.size()) pick[i++] = 0;
      if (i == pick.size()) break;
    }
  }
  if (side == kSoviet && cauc_ != kCaucInBox && cauc_ != kCaucBrokeThrough)
    for (int u = 0; u < num_units(); ++u)
      if (unit(u).where == kCaucasus && def(u).side == kSoviet)
        for (int h : vr.caucasus_exits)
          if (h >= 0) {
            Action x;
            x.verb = kCaucasusLeave;
            x.push(u);
            x.push(h);
            push_if(x);
          }
}

// ======================================================================= notation

std::string BdState::action_to_string(const Action& a) const {
  auto U = [&](int i) {
    return a.args[i] >= 0 && a.args[i] < num_units() ? label(a.args[i]) : std::string("?");
  };
  auto H = [&](int i) { return hex_id(a.args[i]); };
  std::string s = a.verb < kNumVerbs ? kVerbNames[a.verb] : "?";
  switch (a.verb) {
    case kMove:
      s += " " + U(0);
      for (int i = 1; i < a.nargs; ++i) s += " " + H(i);
      break;
    case kAttackFrom:
      s += " " + H(0) + " from";
      for (int i = 2; i < a.nargs; ++i) s += " " + H(i);
      if (a.args[1] & 1) s += " lw";
      if (a.args[1] & 2) s += " drop";  // 4.17
      break;
    case kAttackWith:
    case kMobileAssault:
      s += " " + H(0) + " with";
      for (int i = 2; i < a.nargs; ++i) s += " " + U(i);
      if (a.args[1] & 1) s += " lw";
      if (a.args[1] & 2) s += " drop";  // 4.17
      break;
    case kOrder:
      s += std::string(" ") + kOrderNames[std::clamp(a.args[0], 0, 3)];
      break;
    case kPaulus:
      s += a.args[0] == 1 ? " take" : " decline";
      break;
    case kZone1942:
      s += a.args[0] == kZoneNorth ? " north" : " south";
      break;
    case kEnter:
    case kRvgkOut:
    case kSetup:
      s += " " + U(0) + " " + H(1);
      break;
    case kConvert:
    case kAttach:
      s += " " + U(0) + " " + U(1);
      break;
    case kReplace:
      s += " " + U(0) + " " + (a.args[1] < 0 ? std::string("rvgk") : H(1));
      break;
    case kRvgkIn:
    case kAdvance:
    case kWithdraw:
    case kOverstackRemove:
    case kBbLoss:
      s += " " + U(0);
      break;
    case kOffSupply:
      s += std::string(" ") + "ABC"[std::clamp(a.args[0], 0, 2)] + " " + H(1);
      break;
    case kRetreat:
    case kHeroCity:
    case kFortressCity:
    case kFortifiedArea:
    case kAerialSupply:
    case kEastWall:
      s += " " + H(0);
      break;
    case kCrimeaSupply:
      s += a.args[0] == 1 ? " on" : " off";
      for (int i = 1; i < a.nargs; ++i) s += " " + U(i);
      break;
    case kAdvance2:
    case kStrategic:
    case kEmergencyRvgk:
    case kSeaMove:
      s += " " + U(0) + " " + H(1);
      break;
    case kBbChoice:
      s += a.args[0] == 1 ? " dr" : " bb";
      break;
    case kLwDefend:
    case kTakeRetreat:
      s += a.args[0] == 1 ? " yes" : " no";
      break;
    case kWatch:
      s += a.args[0] == 2 ? " oder" : a.args[0] == 1 ? " rhine" : " ?";
      break;
    case kCaucasusLaunch:
    case kCaucasusSend:
      for (int i = 0; i < a.nargs; ++i) s += " " + U(i);
      break;
    case kCaucasusRecall:
      for (int i = 0; i + 1 < a.nargs; i += 2) s += " " + U(i) + " " + H(i + 1);
      break;
    case kCaucasusLeave:
      s += " " + U(0) + " " + H(1);
      break;
    case kSupport:
      s +=
          std::string(" ") + (a.args[0] > 0 && a.args[0] < kNumSupportKinds ? kSupportNames[a.args[0]] : "?");
      if (a.nargs > 1) s += " " + U(1);
      break;
    case kBulgariaExit:
      s += " " + U(0);
      break;
    case kBulgariaReturn:
      s += " " + H(0);
      break;
    default:
      break;
  }
  return s;
}

steppe::Result<Action> BdState::parse_attack(const std::vector<std::string>& t, bool ma) const {
  Action a;
  a.verb = ma ? kMobileAssault : kAttackWith;
  if (t.size() < 4)
    return steppe::Error{"usage: attack <hex> from <hex>... | attack <hex> with <unit>... [lw]", "", ""};
  const int target = parse_hex(t[1]);
  if (target < 0) return steppe::Error{"'" + t[1] + "' is not a hex", "", ""};
  a.push(target);
  a.push(0);
  size_t end = t.size();
  if (end > 4 && t[end - 1] == "drop") {  // 4.17 combat air drop
    a.args[1] |= 2;
    --end;
  }
  if (t[end - 1] == "lw") {
    a.args[1] |= 1;
    --end;
  }
  if (t[2] == "from" && !ma) {
    a.verb = kAttackFrom;
    for (size_t i = 3; i < end; ++i) {
      const int h = parse_hex(t[i]);
      if (h < 0) return steppe::Error{"'" + t[i] + "' is not a hex", "", ""};
      if (a.full()) return steppe::Error{"too many hexes", "", ""};
      a.push(h);
    }
  } else if (t[2] == "with") {
    for (size_t i = 3; i < end; ++i) {
      const int u = find_label(t[i]);
      if (u < 0) return steppe::Error{"unknown unit '" + t[i] + "'", "", ""};
      if (a.full()) return steppe::Error{"too many units", "", ""};
      a.push(u);
    }
  } else {
    return steppe::Error{"expected 'from' or 'with' after the target hex", "", ""};
  }
  if (a.nargs < 3) return steppe::Error{"an attack needs at least one attacker", "", ""};
  return a;
}

steppe::Result<Action> BdState::parse_action(std::string_view text) const {
  std::vector<std::string> t;
  {
    std::string cur;
    for (char c : text) {
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        if (!cur.empty()) t.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    if (!cur.empty()) t.push_back(cur);
  }
  if (t.empty()) return steppe::Error{"empty action", "", ""};
  auto bad = [&](const std::string& why) {
    return steppe::Error{why + " in '" + std::string(text) + "'", "", ""};
  };
  auto U = [&](size_t i, int& out) {
    if (i >= t.size()) return false;
    out = find_label(t[i]);
    return out >= 0;
  };
  auto H = [&](size_t i, int& out) {
    if (i >= t.size()) return false;
    out = parse_hex(t[i]);
    return out >= 0;
  };
  Action a;
  const std::string& v = t[0];
  int u = -1, h = -1;
  if (v == "end-phase" && t.size() == 1) {
    a.verb = kEndPhase;
  } else if (v == "move") {
    a.verb = kMove;
    if (!U(1, u)) return bad("unknown unit");
    a.push(u);
    if (t.size() < 4) return bad("a move lists the unit's hex and the hexes it enters");
    for (size_t i = 2; i < t.size(); ++i) {
      if (!H(i, h)) return bad("'" + t[i] + "' is not a hex");
      if (a.full()) return bad("path too long");
      a.push(h);
    }
  } else if (v == "attack" || v == "mobile-assault") {
    return parse_attack(t, v == "mobile-assault");
  } else if (v == "order" && t.size() == 2) {
    a.verb = kOrder;
    int o = -1;
    for (int i = 1; i <= 3; ++i)
      if (t[1] == kOrderNames[i]) o = i;
    if (o < 0) return bad("order is move-fight, fight-move or fight-fight");
    a.push(o);
  } else if (v == "paulus" && t.size() == 2 && (t[1] == "take" || t[1] == "decline")) {
    a.verb = kPaulus;
    a.push(t[1] == "take" ? 1 : 2);
  } else if (v == "crimea-supply" && t.size() >= 2 && t.size() <= 7 &&
             (t[1] == "on" || (t[1] == "off" && t.size() == 2))) {
    a.verb = kCrimeaSupply;
    a.push(t[1] == "on" ? 1 : 0);
    for (size_t i = 2; i < t.size(); ++i) {  // 7.4 the declared units (ruling BD-22)
      if (!U(i, u)) return bad("unknown unit");
      a.push(u);
    }
  } else if (v == "zone" && t.size() == 2 && (t[1] == "north" || t[1] == "south")) {
    a.verb = kZone1942;
    a.push(t[1] == "north" ? kZoneNorth : kZoneSouth);
  } else if ((v == "enter" || v == "rvgk-out" || v == "setup") && t.size() == 3) {
    a.verb = v == "enter" ? kEnter : v == "setup" ? kSetup : kRvgkOut;
    if (!U(1, u)) return bad("unknown unit");
    if (!H(2, h)) return bad("not a hex");
    a.push(u);
    a.push(h);
  } else if (v == "replace" && t.size() == 3) {
    a.verb = kReplace;
    if (!U(1, u)) return bad("unknown unit");
    a.push(u);
    if (t[2] == "rvgk") {
      a.push(-1);
    } else {
      if (!H(2, h)) return bad("not a hex");
      a.push(h);
    }
  } else if ((v == "rvgk-in" || v == "advance" || v == "withdraw" || v == "overstack-remove" ||
              v == "bb-loss") &&
             t.size() == 2) {
    a.verb = v == "rvgk-in"            ? kRvgkIn
             : v == "advance"          ? kAdvance
             : v == "withdraw"         ? kWithdraw
             : v == "overstack-remove" ? kOverstackRemove
                                       : kBbLoss;
    if (!U(1, u)) return bad("unknown unit");
    a.push(u);
  } else if (v == "osupply" && t.size() == 3 && t[1].size() == 1 && t[1][0] >= 'A' && t[1][0] <= 'C') {
    a.verb = kOffSupply;
    a.push(t[1][0] - 'A');
    if (!H(2, h)) return bad("not a hex");
    a.push(h);
  } else if ((v == "convert" || v == "attach") && t.size() == 3) {
    a.verb = v == "convert" ? kConvert : kAttach;
    if (!U(1, u)) return bad("unknown unit");
    a.push(u);
    if (!U(2, u)) return bad("unknown unit");
    a.push(u);
  } else if (v == "comb-out" && t.size() == 1) {
    a.verb = kCombOut;
  } else if ((v == "retreat" || v == "hero-city" || v == "fortress-city" || v == "fortified-area" ||
              v == "aerial-supply" || v == "east-wall") &&
             t.size() == 2) {
    a.verb = v == "east-wall"       ? kEastWall
             : v == "retreat"       ? kRetreat
             : v == "hero-city"     ? kHeroCity
             : v == "fortress-city" ? kFortressCity
             : v == "aerial-supply" ? kAerialSupply
                                    : kFortifiedArea;
    if (!H(1, h)) return bad("not a hex");
    a.push(h);
  } else if ((v == "advance-second" || v == "strategic" || v == "emergency-rvgk" || v == "sea-move") &&
             t.size() == 3) {
    a.verb = v == "strategic"        ? kStrategic
             : v == "emergency-rvgk" ? kEmergencyRvgk
             : v == "sea-move"       ? kSeaMove
                                     : kAdvance2;
    if (!U(1, u)) return bad("unknown unit");
    if (!H(2, h)) return bad("not a hex");
    a.push(u);
    a.push(h);
  } else if (v == "no-emergency-rvgk" && t.size() == 1) {
    a.verb = kNoEmergencyRvgk;
  } else if (v == "advance-done" && t.size() == 1) {
    a.verb = kAdvanceDone;
  } else if (v == "decline-withdrawal" && t.size() == 1) {
    a.verb = kDeclineWithdraw;
  } else if (v == "summer-offensive" && t.size() == 1) {
    a.verb = kSummerOffensive;
  } else if (v == "mansteins-gambit" && t.size() == 1) {
    a.verb = kMansteinsGambit;
  } else if (v == "watch" && t.size() == 2 && (t[1] == "rhine" || t[1] == "oder")) {
    a.verb = kWatch;
    a.push(t[1] == "oder" ? 2 : 1);
  } else if ((v == "caucasus-launch" || v == "caucasus-send") && t.size() >= 2) {
    a.verb = v == "caucasus-launch" ? kCaucasusLaunch : kCaucasusSend;
    std::vector<int> us;
    for (size_t i = 1; i < t.size(); ++i) {
      if (!U(i, u)) return bad("unknown unit '" + t[i] + "'");
      if (us.size() >= 10) return bad("too many units");
      us.push_back(u);
    }
    std::sort(us.begin(), us.end());  // one notation per expedition
    for (int x : us) a.push(x);
  } else if (v == "caucasus-refuse" && t.size() == 1) {
    a.verb = kCaucasusRefuse;
  } else if (v == "caucasus-recall" && t.size() >= 3 && t.size() % 2 == 1) {
    a.verb = kCaucasusRecall;
    std::vector<std::pair<int, int>> pairs;
    for (size_t i = 1; i + 1 < t.size(); i += 2) {
      if (!U(i, u)) return bad("unknown unit '" + t[i] + "'");
      if (!H(i + 1, h)) return bad("'" + t[i + 1] + "' is not a hex");
      if (pairs.size() >= 10) return bad("too many units");
      pairs.emplace_back(u, h);
    }
    std::sort(pairs.begin(), pairs.end());  // one notation per recall
    for (const auto& [x, y] : pairs) {
      a.push(x);
      a.push(y);
    }
  } else if (v == "caucasus-leave" && t.size() == 3) {
    a.verb = kCaucasusLeave;
    if (!U(1, u)) return bad("unknown unit");
    if (!H(2, h)) return bad("not a hex");
    a.push(u);
    a.push(h);
  } else if (v == "convert-bb" && t.size() == 2 && (t[1] == "dr" || t[1] == "bb")) {
    a.verb = kBbChoice;
    a.push(t[1] == "dr" ? 1 : 0);
  } else if (v == "luftwaffe-defend" && t.size() == 2 && (t[1] == "yes" || t[1] == "no")) {
    a.verb = kLwDefend;
    a.push(t[1] == "yes" ? 1 : 0);
  } else if (v == "take-retreat" && t.size() == 2 && (t[1] == "yes" || t[1] == "no")) {
    a.verb = kTakeRetreat;  // 13.9
    a.push(t[1] == "yes" ? 1 : 0);
  } else if (v == "support" && (t.size() == 2 || t.size() == 3)) {  // 8.36-8.41
    a.verb = kSupport;
    int k = 0;
    for (int i = kSupArtillery; i < kNumSupportKinds; ++i)
      if (t[1] == kSupportNames[i]) k = i;
    if (k == 0) return bad("support is artillery, air-army, interceptor, partisans or airborne");
    a.push(k);
    const bool names_army = k == kSupArtillery || k == kSupAirArmy;
    if (names_army != (t.size() == 3))
      return bad(names_army ? "artillery and air-army support name the army they support"
                            : "interceptor, partisans and airborne support name no unit");
    if (names_army) {
      if (!U(2, u)) return bad("unknown unit");
      a.push(u);
    }
  } else if (v == "support-done" && t.size() == 1) {
    a.verb = kSupportDone;
  } else if (v == "bulgaria-exit" && t.size() == 2) {
    a.verb = kBulgariaExit;
    if (!U(1, u)) return bad("unknown unit");
    a.push(u);
  } else if (v == "bulgaria-return" && t.size() == 2) {
    a.verb = kBulgariaReturn;
    if (!H(1, h)) return bad("not a hex");
    a.push(h);
  } else {
    return bad(
        "unknown action (verbs: end-phase, move, attack, mobile-assault, order, paulus, zone, enter, "
        "replace, "
        "rvgk-in, rvgk-out, osupply, retreat, advance, advance-done, convert-bb, luftwaffe-defend, "
        "take-retreat, "
        "setup, "
        "withdraw, decline-withdrawal, hero-city, fortress-city, fortified-area, aerial-supply, "
        "advance-second, strategic, emergency-rvgk, no-emergency-rvgk, summer-offensive, watch, convert, "
        "comb-out, east-wall, caucasus-launch, caucasus-send, caucasus-refuse, caucasus-recall, "
        "caucasus-leave, mansteins-gambit, crimea-supply, sea-move, support, support-done, bulgaria-exit, "
        "bulgaria-return, overstack-remove, bb-loss, attach)");
  }
  return a;
}

// ======================================================================= views

Json BdState::observation(int side) const {
  Json o;
  o["game"] = "bd";
  o["viewer"] = side_name(side);
  o["scenario"] = std::string(scenario_id_);
  o["turn"] = turn_;
  o["months"] = ti().months;
  o["phase"] = phase_name(phase_);
  o["current_player"] = current_player() >= 0 ? side_name(current_player()) : "none";
  o["vp"] = vp_;  // 11.7 the VP total is public
  Json opts = Json::array();
  if (opt_forgiveness_) opts.push_back("forgiveness-points");
  if (opt_kiev_) opts.push_back("kiev-vp");
  o["options"] = opts;
  if (opt_forgiveness_) o["forgiveness_points"] = fp_;               // 4.20 recorded openly
  if (summer_turn_ != 0) o["summer_offensive_turn"] = summer_turn_;  // 4.4 declared openly
  if (mg_) o["mansteins_gambit"] = true;                             // 4.16 declared openly
  // 4.18: the Rhine/Oder counter is hidden from the Soviet until GT30.
  if (watch_ != 0 && (side == kGerman || turn_ >= data_->victory.watch_reveal_turn))
    o["watch"] = watch_ == 2 ? "oder" : "rhine";
  else if (watch_ != 0)
    o["watch"] = "hidden";
  o["order"] = {kOrderNames[order_[0]], kOrderNames[order_[1]]};
  // Old Hands Note to 2.12: every unit has one step; it is in play or eliminated, never
  // reduced, so the counters carry no step state.
  o["steps_per_unit"] = 1;
  Json ctrl = Json::array();
  for (int h = 0; h < kNumHexes; ++h)
    if (hex_.control[static_cast<size_t>(h)] == kGerman) ctrl.push_back(hex_id(h));
  o["german_controls"] = ctrl;
  Json stacks = Json::array();
  std::vector<int> here;
  for (int h = 0; h < kNumHexes; ++h) {
    const int s = occupant_side(h);
    if (s == kNoSide) continue;
    units_in(h, here);
    Json st{{"hex", hex_id(h)}, {"side", side_name(s)}, {"count", here.size()}};
    Json list = Json::array();
    // 11.7: the German sees only the top unit of a Soviet stack (and units revealed by an
    // odds calculation since they last moved); the Soviet sees German stacks.
    const bool hidden = s == kSoviet && side == kGerman;
    for (size_t i = 0; i < here.size(); ++i) {
      const int u = here[i];
      if (hidden && i > 0 && !(unit(u).flags & kFlagRevealed)) continue;
      Json j{{"unit", label(u)}};
      if (!hidden && unit(u).parent >= 0) j["attached_to"] = label(unit(u).parent);  // 8.31, 8.32
      if (s == side) j["mp"] = unit(u).mp;
      // 7.2, 7.8: the supply state of every unit this side sees (it follows from the
      // public map, markers and units); from GT7 a Soviet unit in overland supply may
      // lack offensive supply (7.10), which halves its attack (7.22).
      const int sup = unit_supply(u);
      j["supply"] = supply_name(sup);
      if (s == kSoviet && sup == kSupOverland && turn_ >= 7) j["offensive"] = offensive_ok(u) != 0;
      // 2.11, 7.16: the movement allowance of a unit that may move now (halved OOS).
      if (s == side && is_move_phase() && phase_side() == side) j["mf"] = mf_of(u);
      list.push_back(j);
    }
    st["units"] = list;
    stacks.push_back(st);
  }
  o["stacks"] = stacks;
  Json boxes;
  for (int s = 0; s < 2; ++s) {
    Json b{{"dead", Json::array()},
           {"rvgk", Json::array()},
           {"trrt", Json::array()},
           {"caucasus", Json::array()}};
    int rvgk_count = 0;
    for (int u = 0; u < num_units(); ++u) {
      if (def(u).side != s) continue;
      const int w = unit(u).where;
      if (w == kDead || w == kDeadPerm) b["dead"].push_back(label(u));  // the dead pile is public
      if (w == kCaucasus) b["caucasus"].push_back(label(u));
      if (w == kRvgk) {
        ++rvgk_count;
        if (s == side) b["rvgk"].push_back(label(u));  // 11.7 hidden from the German
      }
      if (w == kTrrt && s == side) b["trrt"].push_back(Json{{"unit", label(u)}, {"turn", unit(u).turn}});
    }
    // 11.7 (ruling BD-FOG2): the RVGK box may be covered, so its size is the Soviet's alone.
    if (s == side) b["rvgk_count"] = rvgk_count;
    boxes[side_name(s)] = b;
  }
  o["boxes"] = boxes;
  // 4.11-4.13: the Caucasus Holding Box is on the mapsheet, open to both players.
  {
    static const char* names[] = {"none", "in-box", "broke-through", "recalled", "defeated"};
    Json c{{"state", names[std::min<int>(cauc_, 4)]}, {"launch_open", cauc_open_}};
    if (cauc_ != kCaucNone) c["departed_turn"] = cauc_turn_;
    if (pending_ == kPendCaucasus) c["soviet_to_send"] = cauc_need_;
    Json units = Json::array();
    for (int u = 0; u < num_units(); ++u)
      if (unit(u).where == kCaucasus)
        units.push_back(Json{{"unit", label(u)}, {"side", side_name(def(u).side)}});
    c["units"] = units;
    o["caucasus"] = c;
  }
  if (ss_due_ != 0) o["ss_withdrawal"] = ss_due_ == 1 ? "due" : "delayed";  // 8.17
  Json m;
  Json hc = Json::array(), fc = Json::array(), os = Json::array();
  for (auto x : markers_.hero_city) hc.push_back(hex_id(x));
  for (auto x : markers_.fortress_city) fc.push_back(hex_id(x));
  for (int i = 0; i < 3; ++i)
    if (markers_.osupply[static_cast<size_t>(i)] >= 0)
      os.push_back(Json{{"marker", std::string(1, "ABC"[i])},
                        {"hex", hex_id(markers_.osupply[static_cast<size_t>(i)])}});
  m["hero_cities"] = hc;
  m["fortress_cities"] = fc;
  m["offensive_supply"] = os;
  m["luftwaffe_left"] = markers_.luftwaffe_left;
  if (markers_.fa_hex >= 0) m["fortified_area"] = hex_id(markers_.fa_hex);
  Json ew = Json::array();
  for (auto x : markers_.east_wall) ew.push_back(hex_id(x));
  m["east_wall"] = ew;  // 8.5
  if (markers_.east_wall_left > 0) m["east_wall_to_place"] = markers_.east_wall_left;
  // 8.36-8.40: the Soviet support markers in their holding boxes (public, on the mapsheet).
  m["soviet_support"] = Json{{"artillery", support_arrived("artillery-corps")},
                             {"artillery_used", markers_.artillery_used},
                             {"air_armies", support_arrived("air-army")},
                             {"air_armies_used", markers_.air_armies_used},
                             {"interceptor", support_arrived("vi-interceptor") > 0},
                             {"partisans", support_arrived("partisans") > 0},
                             {"airborne", support_arrived("airborne-assault") > 0},
                             {"airborne_used_1942", (markers_.airborne_years & 1u) != 0},
                             {"airborne_used_1943", (markers_.airborne_years & 2u) != 0}};
  if (bulg_state_ == 1 && bulg_unit_ >= 0)  // 8.26: the unit off the map in Bulgaria
    m["bulgaria"] = Json{{"unit", label(bulg_unit_)}, {"exit_turn", bulg_exit_turn_}};
  o["markers"] = m;
  if (battle_.active) {
    Json b{{"target", hex_id(battle_.target)},
           {"attacker", side_name(battle_.attacker)},
           {"mobile", battle_.is_ma != 0}};
    Json sup = Json::array();  // 8.36-8.41 support committed so far
    for (int i = 0; i < battle_.natt; ++i) {
      const uint8_t x = battle_.boost[static_cast<size_t>(i)];
      // 11.7 (ruling BD-FOG1): the German learns which army is supported at the odds.
      const int u = battle_.att[static_cast<size_t>(i)];
      const std::string who =
          side == kGerman && battle_.rolled == 0xFF && !german_sees(u) ? std::string() : " " + label(u);
      if (x & kBoostArtillery) sup.push_back("artillery" + who);
      if (x & kBoostAirArmy) sup.push_back("air-army" + who);
    }
    if (battle_.support & kSupportInterceptor) sup.push_back("interceptor");
    if (battle_.support & kSupportPartisans) sup.push_back("partisans");
    if (battle_.support & kSupportAirborne) sup.push_back("airborne");
    b["support"] = sup;
    b["luftwaffe"] = battle_.lw_attack != 0 || battle_.lw_defend != 0;
    if (battle_.rolled != 0xFF) {
      b["odds"] = battle_.raw_index == 99 ? "auto" : odds_label(battle_.final_index);
      b["result"] = result_name(battle_.rolled);
    }
    o["battle"] = b;
  }
  o["pending"] = static_cast<int>(pending_);
  if (phase_ == kGameOver) o["result"] = result();
  return o;
}

Json BdState::full_json() const {
  Json j;
  j["scenario"] = std::string(scenario_id_);
  j["turn"] = turn_;
  j["phase"] = phase_name(phase_);
  j["vp"] = vp_;
  j["winner"] = side_name(winner_);
  j["order"] = {kOrderNames[order_[0]], kOrderNames[order_[1]]};
  j["paulus"] = paulus_;
  j["crimea_supply"] = crimea_on_;  // 7.4
  if (!crimea_declared_.empty()) {
    Json decl = Json::array();
    for (int16_t u : crimea_declared_) decl.push_back(label(u));
    j["crimea_declared"] = decl;  // 7.4 ruling BD-22
  }
  j["zone1942"] = zone1942_;
  j["pending"] = static_cast<int>(pending_);
  j["options"] = {{"forgiveness-points", opt_forgiveness_}, {"kiev-vp", opt_kiev_}};
  j["section4"] = {{"fp", fp_},
                   {"baltic_lost", baltic_lost_},
                   {"dnepr_lost", dnepr_lost_},
                   {"early_fallen", early_fallen_},
                   {"kiev_taken", kiev_taken_},
                   {"summer_turn", summer_turn_},
                   {"summer_done", summer_done_},
                   {"watch", watch_},
                   {"soviet_losses", soviet_losses_},
                   {"ss_due", ss_due_},
                   {"ss_cycle", ss_cycle_},
                   {"ss_failed", ss_failed_},
                   {"ss_done", ss_done_},
                   {"caucasus", cauc_},
                   {"caucasus_open", cauc_open_},
                   {"caucasus_turn", cauc_turn_},
                   {"caucasus_rolled", cauc_rolled_},
                   {"caucasus_need", cauc_need_},
                   {"mansteins_gambit", mg_}};
  j["dice"] = {{"seed", dice_.seed()}, {"counter", dice_.counter()}};
  Json units = Json::array();
  for (int u = 0; u < num_units(); ++u) {
    const UnitSt& s = unit(u);
    if (s.where == kOutOfPlay && def(u).entry_turn == 0) continue;
    Json x{{"unit", label(u)}, {"where", where_name(s.where)}};
    if (s.where == kOnMap) x["hex"] = hex_id(s.hex);
    if (s.parent >= 0) x["attached_to"] = label(s.parent);  // 8.31, 8.32
    if (s.where == kTrrt) x["turn"] = s.turn;
    if (s.mp >= 0) x["mp"] = s.mp;
    if (s.flags) x["flags"] = s.flags;
    units.push_back(x);
  }
  j["units"] = units;
  std::string ctrl(kNumHexes, '.');
  for (int h = 0; h < kNumHexes; ++h)
    ctrl[static_cast<size_t>(h)] = "GS."[std::min<int>(hex_.control[static_cast<size_t>(h)], 2)];
  j["control"] = ctrl;
  j["observation_soviet"] = observation(kSoviet)["markers"];
  return j;
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

// Determinization (11.7): the German cannot tell hidden Soviet units apart (below the top
// of a stack, not revealed since they last moved, or in the RVGK): permute them among
// their slots within the same stacking category.
void BdState::resample_hidden(int viewer, uint64_t seed) {
  dice_.reseed(seed);
  // 4.18: the Soviet does not know which side of the Rhine/Oder counter is up.
  if (viewer == kSoviet && watch_ != 0 && turn_ < data_->victory.watch_reveal_turn)
    watch_ = static_cast<int8_t>(1 + (steppe::splitmix64(seed ^ 0x4f646572ULL) & 1u));
  if (viewer != kGerman) return;
  std::vector<int> here;
  std::vector<int> slots[4];
  for (int u = 0; u < num_units(); ++u) {
    if (def(u).side != kSoviet) continue;
    const UnitSt& s = unit(u);
    bool hidden = s.where == kRvgk;
    if (s.where == kOnMap && !(s.flags & kFlagRevealed)) {
      units_in(s.hex, here);
      hidden = !here.empty() && here[0] != u;
    }
    if (!hidden || is_attachable(u)) continue;  // 8.32 the four CM groups are alike: not shuffled
    const UnitDef& d = def(u);
    const int cat = d.satellite_army() ? 1 : d.type == kCavalryGroup ? 2 : d.free_stacking() ? 3 : 0;
    slots[cat].push_back(u);
  }
  uint64_t x = seed;
  for (auto& group : slots) {
    std::vector<UnitSt> st;
    st.reserve(group.size());
    for (int u : group) st.push_back(unit(u));
    for (size_t i = st.size(); i > 1; --i) {
      x = steppe::splitmix64(x);
      std::swap(st[i - 1], st[static_cast<size_t>(x % i)]);
    }
    for (size_t i = 0; i < group.size(); ++i) units_[static_cast<size_t>(group[i])] = st[i];
  }
  mark_dirty();
  // 8.32: a CM stays atop an army of its hex, whichever army the sample put there (ruling
  // BD-TB3; if none is eligible, ruling BD-TB1 applies after the next action).
  for (int c = 0; c < num_units(); ++c) {
    if (!is_attachable(c) || unit(c).where != kOnMap) continue;
    UnitSt& cs = units_[static_cast<size_t>(c)];
    const int p = cs.parent;
    if (p >= 0 && unit(p).where == kOnMap && unit(p).hex == cs.hex && eligible_parent(c, p)) continue;
    cs.parent = -1;
    mark_dirty();
    cs.parent = static_cast<int16_t>(default_parent(c, cs.hex));
    mark_dirty();
  }
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

// ======================================================================= scenario-test hooks

Status BdState::test_set(const std::vector<std::string>& words) {
  g_move_memo_epoch.fetch_add(1, std::memory_order_relaxed);  // a test may edit the map in place
  mark_dirty();
  Status s = set_word(words);
  // `start-control` edits what the rebase would overwrite (the set-up's control, which the
  // short scenarios' conditions compare with); it changes no VP.
  if (s.is_ok() && words.front() != "start-control") {
    rebase_vp();
    mark_dirty();
  }
  return s;
}

Status BdState::set_word(const std::vector<std::string>& w) {
  auto bad = [&](const std::string& why) { return steppe::Error{why, "", "test_set"}; };
  if (w.empty()) return bad("empty set-up line");
  auto side_of = [](const std::string& s) { return s == "german" ? kGerman : s == "soviet" ? kSoviet : -1; };
  auto hex_at = [&](size_t i) { return i < w.size() ? parse_hex(w[i]) : -1; };
  const std::string& k = w[0];
  if (k == "turn" && w.size() == 2) {
    const auto t = steppe::parse_int_in(w[1], 1, 32);
    if (!t) return bad("turn must be 1..32, not '" + w[1] + "'");
    turn_ = *t;
    begin_turn();
    return Status::ok();
  }
  if (k == "blank-map" && w.size() == 1) {
    // Tests: every hex of the grid on the map, clear, no features, no control, except that a
    // hex holding units stays its occupant's (3.6: the invariant that occupied hexes are the
    // occupant's holds in a scenario's set-up placed on a blank map too).
    auto m = std::make_shared<std::array<HexInfo, kNumHexes>>();
    for (auto& x : *m) x.on_map = true;
    own_map_ = m;
    map_ = m.get();
    own_graph_.reset();
    hex_.control.fill(kNoSide);
    for (int u = 0; u < num_units(); ++u)
      if (unit(u).where == kOnMap) hex_.control[static_cast<size_t>(unit(u).hex)] = def(u).side;
    mark_dirty();
    return Status::ok();
  }
  if (k == "last-turn" && w.size() == 2) {
    const auto t = steppe::parse_int_in(w[1], 1, 32);
    if (!t) return bad("last-turn must be 1..32, not '" + w[1] + "'");
    last_turn_ = *t;
    return Status::ok();
  }
  if (k == "phase" && w.size() == 2) {
    int p = parse_phase(w[1]);
    const bool assault = w[1].find("assault") != std::string::npos;
    if (p == -2 || p == -3) {
      const int side = p == -2 ? kGerman : kSoviet;
      order_[static_cast<size_t>(side)] = kMoveFight;
      p = side == kGerman ? (assault ? kGermanC : kGermanB) : (assault ? kSovietC : kSovietB);
    }
    if (p < 0) return bad("unknown phase '" + w[1] + "'");
    pending_ = kPendNone;
    overstack_resume_ = false;
    battle_.active = 0;
    phase_ = static_cast<Phase>(p);
    clear_phase_flags();
    markers_.artillery_used = markers_.air_armies_used = 0;  // 8.36-8.39 a new phase
    markers_.support_used = 0;
    bulg_hex_ = -1;  // 8.26
    return Status::ok();
  }
  if (k == "order" && w.size() == 3) {
    const int side = side_of(w[1]);
    int o = -1;
    for (int i = 0; i <= 3; ++i)
      if (w[2] == kOrderNames[i]) o = i;
    if (side < 0 || o < 0) return bad("order <german|soviet> <move-fight|fight-move|fight-fight>");
    order_[static_cast<size_t>(side)] = static_cast<uint8_t>(o);
    return Status::ok();
  }
  if (k == "place" && w.size() >= 4) {
    const int side = side_of(w[1]);
    const int h = hex_at(3);
    if (side < 0)
      return bad("place <german|soviet> <unit> <hex> [attack N] [defense N] [class C] [type T] [dotted]");
    if (h < 0) return bad("'" + w[3] + "' is not a hex");
    int u = find_label(w[2]);
    if (u >= 0 && def(u).side != side) return bad(w[2] + " is a " + side_name(def(u).side) + " unit");
    if (u < 0 || w.size() > 4) {
      UnitDef d = u >= 0 ? def(u) : UnitDef{};
      if (u < 0) {
        d.label = w[2];
        d.id = std::string(side == kGerman ? "de-" : "su-") + "test-" + w[2];
        d.name = w[2];
        d.side = static_cast<uint8_t>(side);
        d.set_nation(side == kGerman ? "german" : "soviet");
        // Defaults by label: "4Pz" a 4-3 panzer corps, "3T" a tank army, else 3-3 / 2-2 foot.
        const bool pz = w[2].size() > 2 && w[2].substr(w[2].size() - 2) == "Pz";
        const bool tank = side == kSoviet && !w[2].empty() && (w[2].back() == 'T');
        d.cls = pz || tank ? kMech : kNonMech;
        d.type = side == kGerman ? (pz ? kPanzer : kInfantry) : (tank ? kTankArmy : kRifleArmy);
        d.attack = pz ? 4 : 3;
        d.defense = 3;
      }
      for (size_t i = 4; i < w.size(); ++i) {
        const std::string& key = w[i];
        const std::string val = i + 1 < w.size() ? w[i + 1] : "";
        if (key == "dotted") {
          d.dotted = true;
          continue;
        }
        if (key == "circled") {
          d.attack_circled = true;
          continue;
        }
        if (val.empty()) return bad("'" + key + "' needs a value");
        ++i;
        const auto n = steppe::parse_int_in(val, -99, 99);
        const bool numeric_key = key == "attack" || key == "defense" || key == "cf" || key == "shifts";
        if (numeric_key && !n && !(val == "d6" && (key == "attack" || key == "defense")))
          return bad("'" + key + "' needs a number, not '" + val + "'");
        if (key == "attack")
          d.attack = val == "d6" ? kRolled : *n;
        else if (key == "defense")
          d.defense = val == "d6" ? kRolled : *n;
        else if (key == "cf")
          d.attack = d.defense = *n;
        else if (key == "class")
          d.cls = val == "mech" ? kMech : val == "static" ? kStatic : kNonMech;
        else if (key == "nation")
          d.set_nation(val);
        else if (key == "shifts")
          d.support_shifts = *n;
        else if (key == "zone")
          d.zone = val == "north" ? kZoneNorth : kZoneSouth;
        else if (key == "type") {
          bool ok = false;
          d.type = type_from_name(val, ok);
          if (!ok) return bad("unknown unit type '" + val + "'");
        } else
          return bad("unknown unit property '" + key + "'");
      }
      auto nd = std::make_shared<std::vector<UnitDef>>(*defs_);
      if (u < 0) {
        if (num_units() >= kMaxUnits)
          return bad("at most " + std::to_string(kMaxUnits) + " units (kMaxUnits)");
        nd->push_back(d);
        u = static_cast<int>(nd->size()) - 1;
        units_.push_back(UnitSt{});
      } else {
        (*nd)[static_cast<size_t>(u)] = d;
      }
      own_defs_ = nd;
      defs_ = nd.get();
    }
    if (enemy_in(h, side)) return bad("hex " + hex_id(h) + " holds enemy units");
    units_[static_cast<size_t>(u)] = UnitSt{};
    place(u, h);
    units_[static_cast<size_t>(u)].start_hex = static_cast<int16_t>(h);
    return Status::ok();
  }
  if ((k == "remove" || k == "dead" || k == "rvgk" || k == "dead-permanent") && w.size() == 2) {
    const int u = find_label(w[1]);
    if (u < 0) return bad("unknown unit '" + w[1] + "'");
    UnitSt& s = units_[static_cast<size_t>(u)];
    s.where = k == "remove" ? kOutOfPlay : k == "dead" ? kDead : k == "rvgk" ? kRvgk : kDeadPerm;
    s.hex = -1;
    return Status::ok();
  }
  if (k == "attach" && w.size() == 3) {  // 8.31, 8.32: puts a TB / CM atop a unit, no checks but kind
    const int u = find_label(w[1]), p = find_label(w[2]);
    if (u < 0 || p < 0) return bad("unknown unit '" + w[u < 0 ? 1 : 2] + "'");
    if (!is_attachable(u)) return bad(w[1] + " is not a Tiger battalion or CM group");
    if (!eligible_parent(u, p)) return bad(w[2] + " may not carry " + w[1] + " (8.31, 8.32)");
    if (unit(p).where != kOnMap) return bad(w[2] + " is not on the map");
    attach(u, p);
    return Status::ok();
  }
  if (k == "trrt" && w.size() == 3) {
    const int u = find_label(w[1]);
    if (u < 0) return bad("unknown unit '" + w[1] + "'");
    const auto t = steppe::parse_int_in(w[2], 1, 32);
    if (!t) return bad("arrival turn must be 1..32, not '" + w[2] + "'");
    units_[static_cast<size_t>(u)].where = kTrrt;
    units_[static_cast<size_t>(u)].hex = -1;
    units_[static_cast<size_t>(u)].turn = static_cast<int8_t>(*t);
    return Status::ok();
  }
  if (k == "mp" && w.size() == 3) {
    const int u = find_label(w[1]);
    if (u < 0) return bad("unknown unit '" + w[1] + "'");
    const auto mp = steppe::parse_int_in(w[2], -1, 99);
    if (!mp) return bad("mp must be a number, not '" + w[2] + "'");
    units_[static_cast<size_t>(u)].mp = static_cast<int8_t>(*mp);
    movers_.assign(1, static_cast<int16_t>(u));
    return Status::ok();
  }
  if (k == "reveal" && w.size() == 2) {  // 11.7: as an odds calculation would show it to the German
    const int u = find_label(w[1]);
    if (u < 0) return bad("unknown unit '" + w[1] + "'");
    units_[static_cast<size_t>(u)].flags |= kFlagRevealed;
    mark_dirty();
    return Status::ok();
  }
  if (k == "supply" && w.size() == 3) {
    const int u = find_label(w[1]);
    if (u < 0) return bad("unknown unit '" + w[1] + "'");
    int st = -1;
    for (int i = 0; i < 8; ++i)
      if (w[2] == kSupplyNames[i]) st = i;
    if (st < 0)
      return bad("supply state is overland, garrison, coastal, aerial, oos, always, crimea or none");
    units_[static_cast<size_t>(u)].forced_supply = static_cast<uint8_t>(st);
    return Status::ok();
  }
  if ((k == "control" || k == "start-control") && w.size() == 3) {
    const int h = hex_at(1);
    if (h < 0) return bad("not a hex");
    const int side = side_of(w[2]);
    (k == "control" ? hex_.control : hex_.start_control)[static_cast<size_t>(h)] =
        static_cast<uint8_t>(side < 0 ? kNoSide : side);
    return Status::ok();
  }
  if (k == "vp" && w.size() == 2) {
    const auto v = steppe::parse_int_in(w[1], -999, 999);
    if (!v) return bad("vp must be a number, not '" + w[1] + "'");
    vp_ = *v;
    return Status::ok();
  }
  if (k == "option" && (w.size() == 2 || w.size() == 3)) {  // 4.20, 4.21
    if (w.size() == 3 && w[2] != "on" && w[2] != "off") return bad("option NAME [on|off]");
    if (w[1] == "lithuania")  // 3.7 changes the set-up: it rides on the scenario name
      return bad("the Lithuania option changes the set-up: use 'scenario grand-campaign+lithuania'");
    return set_option(w[1], w.size() == 2 || w[2] == "on");
  }
  if (k == "paulus" && w.size() == 2) {
    paulus_ = w[1] == "taken" || w[1] == "take" ? 1 : 2;
    return Status::ok();
  }
  if (k == "zone1942" && w.size() == 2) {
    zone1942_ = w[1] == "north" ? kZoneNorth : kZoneSouth;
    return Status::ok();
  }
  if (k == "aerial-available" && w.size() == 1) {
    markers_.aerial_available = true;
    markers_.aerial = -1;
    return Status::ok();
  }
  if (k == "luftwaffe" && w.size() == 2) {
    const auto n = steppe::parse_int_in(w[1], 0, 99);
    if (!n) return bad("luftwaffe must be 0..99, not '" + w[1] + "'");
    markers_.luftwaffe_left = static_cast<int8_t>(*n);
    return Status::ok();
  }
  if (k == "dice") {
    std::vector<int> rolls;  // all or none: a bad word forces nothing
    for (size_t i = 1; i < w.size(); ++i) {
      const auto v = steppe::parse_int_in(w[i], 1, 6);
      if (!v) return bad("a forced die is 1..6, not '" + w[i] + "'");
      rolls.push_back(*v);
    }
    for (int v : rolls) dice_.force(v);
    return Status::ok();
  }
  if (k == "marker" && w.size() >= 3) {
    const std::string& m = w[1];
    if (m == "osupply-available" && w.size() == 3) {  // held, not placed (7.12)
      if (w[2].size() != 1 || w[2][0] < 'A' || w[2][0] > 'C') return bad("marker osupply-available <A|B|C>");
      markers_.osupply[static_cast<size_t>(w[2][0] - 'A')] = -1;
      markers_.osupply_have[static_cast<size_t>(w[2][0] - 'A')] = 1;
      return Status::ok();
    }
    if (m == "osupply" && w.size() == 4) {
      const int h = hex_at(3);
      if (h < 0 || w[2].size() != 1 || w[2][0] < 'A' || w[2][0] > 'C')
        return bad("marker osupply <A|B|C> <hex>");
      markers_.osupply[static_cast<size_t>(w[2][0] - 'A')] = static_cast<int16_t>(h);
      markers_.osupply_have[static_cast<size_t>(w[2][0] - 'A')] = 1;
      return Status::ok();
    }
    const int h = hex_at(2);
    if (h < 0) return bad("not a hex");
    if (m == "hero-city")
      markers_.hero_city.push_back(static_cast<int16_t>(h));
    else if (m == "fortress-city")
      markers_.fortress_city.push_back(static_cast<int16_t>(h));
    else if (m == "aerial")
      markers_.aerial = static_cast<int16_t>(h);
    else if (m == "east-wall")
      markers_.east_wall.push_back(static_cast<int16_t>(h));
    else if (m == "fortified-area") {
      markers_.fa_hex = static_cast<int16_t>(h);
      const auto t = w.size() > 3 ? steppe::parse_int_in(w[3], 0, 32) : std::optional<int>(turn_ - 1);
      if (!t) return bad("fortified-area turn must be 0..32, not '" + w[3] + "'");
      markers_.fa_turn = static_cast<int8_t>(*t);
    } else
      return bad("unknown marker '" + m + "'");
    return Status::ok();
  }
  // Map edits (copy-on-write): terrain, city, river, fortified, country, zone, area, coastal.
  if ((k == "terrain" || k == "city" || k == "river" || k == "fortified" || k == "country" || k == "zone" ||
       k == "area" || k == "coastal" || k == "west-of-start" || k == "lake-side" || k == "sea-side" ||
       k == "offmap" || k == "dnepr") &&
      w.size() >= 2) {
    const int h = hex_at(1);
    if (h < 0) return bad("not a hex");
    HexInfo& x = hx_mut(h);
    const std::string v = w.size() > 2 ? w[2] : "";
    if (k == "terrain") {
      int t = -1;
      for (int i = 0; i < kNumTerrain; ++i)
        if (v == terrain_name(static_cast<Terrain>(i))) t = i;
      if (t < 0) return bad("unknown terrain '" + v + "'");
      x.terrain = static_cast<Terrain>(t);
    } else if (k == "city") {
      x.city = true;
      x.vp = true;
      if (!v.empty()) x.name = v;
    } else if (k == "river" || k == "lake-side" || k == "sea-side") {
      int d = -1;
      for (int i = 0; i < 6; ++i)
        if (v == dir_name(i)) d = i;
      const int n = neighbour(h, d);
      if (d < 0 || n < 0) return bad(k + " <hex> <E|NE|NW|W|SW|SE>");
      HexInfo& y = hx_mut(n);
      uint8_t& a = k == "river" ? x.river : k == "lake-side" ? x.lake_side : x.sea_side;
      uint8_t& b = k == "river" ? y.river : k == "lake-side" ? y.lake_side : y.sea_side;
      a = static_cast<uint8_t>(a | (1u << d));
      b = static_cast<uint8_t>(b | (1u << ((d + 3) % 6)));
    } else if (k == "fortified") {
      x.fortified = static_cast<int8_t>(side_of(v));
    } else if (k == "country") {
      x.country = v == "ussr"                 ? kUssr
                  : v == "baltic"             ? kBaltic
                  : v == "greater-germany"    ? kGreaterGermany
                  : v == "general-government" ? kGeneralGovernment
                  : v == "hungary"            ? kHungary
                  : v == "romania"            ? kRomania
                                              : kCountryOther;
    } else if (k == "zone") {
      x.zone = v == "north" ? kZoneNorth : v == "south" ? kZoneSouth : kZoneNone;
    } else if (k == "area") {
      x.area = v == "DP" ? kAreaDP : v == "R" ? kAreaR : v == "CS" ? kAreaCS : kAreaNone;
    } else if (k == "coastal") {
      x.coastal = true;
    } else if (k == "west-of-start") {
      x.west_of_start_line = true;
    } else if (k == "offmap") {
      x.on_map = false;
    } else if (k == "dnepr") {
      x.dnepr = true;  // 4.6
    }
    return Status::ok();
  }
  return bad("unknown set-up word '" + k + "'");
}

steppe::Result<std::string> BdState::test_query(const std::vector<std::string>& words) const {
  return query_word(words);
}

// 11.7: a query may name only units the asking side may identify and stacks it may see
// whole. The German may not look beneath the top unit of a Soviet stack before an attack is
// committed, so he gets no odds against (nor from) a stack he sees only the top of; neither
// side may examine the other's units on the Turn Record Track, nor the German the RVGK.
// Asking is refused the same way whichever hidden unit or box is named.
steppe::Status BdState::query_allowed(int side, const std::vector<std::string>& words) const {
  if (side != kGerman && side != kSoviet) return Status::ok();
  auto identifies = [&](int u) {
    if (def(u).side == side) return true;
    if (side == kGerman) return german_sees(u);
    return unit(u).where != kTrrt && unit(u).where != kToSetUp;  // 11.7 the German TRT
  };
  std::vector<int> here;
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (const int u = find_label(w); u >= 0 && !identifies(u))
      return rerr("11.7", "'" + w + "' is not a unit " + side_name(side) + " may identify now");
    const int h = parse_hex(w);
    if (h < 0) continue;
    units_in(h, here);
    for (int u : here)
      if (!identifies(u))
        return rerr("11.7", std::string("the ") + side_name(side) +
                                " may not look beneath the top unit of the " + side_name(def(u).side) +
                                " stack in " + hex_id(h) +
                                " until the odds of a committed attack are computed");
  }
  return Status::ok();
}

steppe::Result<std::string> BdState::query_word(const std::vector<std::string>& w) const {
  auto bad = [&](const std::string& why) { return steppe::Error{why, "", "test_query"}; };
  if (w.empty()) return bad("empty query");
  const std::string& k = w[0];
  auto side_of = [](const std::string& s) { return s == "german" ? kGerman : s == "soviet" ? kSoviet : -1; };
  if (k == "unit" && w.size() == 3) {
    const int u = find_label(w[1]);
    if (u < 0) return bad("unknown unit '" + w[1] + "'");
    const UnitSt& s = unit(u);
    if (w[2] == "hex") return s.where == kOnMap ? hex_id(s.hex) : std::string(where_name(s.where));
    if (w[2] == "where" || w[2] == "status") return std::string(where_name(s.where));
    if (w[2] == "mp") return std::to_string(s.mp >= 0 ? s.mp : (s.where == kOnMap ? mf_of(u) : 0));
    if (w[2] == "mf") return std::to_string(mf_of(u));
    if (w[2] == "supply") return std::string(supply_name(unit_supply(u)));
    if (w[2] == "offensive") return std::string(offensive_ok(u) ? "yes" : "no");
    if (w[2] == "attacked") return std::string(s.flags & kFlagAttacked ? "yes" : "no");
    if (w[2] == "revealed") return std::string(s.flags & kFlagRevealed ? "yes" : "no");
    // 2.5 the printed counter (as this state has it: `place` properties replace them).
    auto factor = [](int f) { return f == kRolled ? std::string("d6") : std::to_string(f); };
    if (w[2] == "attack") return factor(def(u).attack);
    if (w[2] == "defense") return factor(def(u).defense);
    if (w[2] == "dotted") return std::string(def(u).dotted ? "yes" : "no");
    if (w[2] == "setup") return def(u).setup_code.empty() ? std::string("none") : def(u).setup_code;
    if (w[2] == "trrt") return s.where == kTrrt ? std::to_string(s.turn) : std::string("none");  // 3.3, 3.4
    if (w[2] == "attached") return s.parent >= 0 ? label(s.parent) : std::string("none");        // 8.31, 8.32
    if (w[2] == "contact") {  // enemy-occupied hexes next to the unit (AI scenarios)
      if (s.where != kOnMap) return std::string("0");
      compute_occupancy();
      int n = 0;
      for (int d = 0; d < 6; ++d) {
        const int h = neighbour(s.hex, d);
        if (h >= 0 && cache_.occ_side[static_cast<size_t>(h)] == other(def(u).side)) ++n;
      }
      return std::to_string(n);
    }
    return bad(
        "unit <label> hex|where|mp|mf|supply|offensive|attacked|revealed|attack|defense|dotted|setup|trrt|"
        "attached|contact");
  }
  if (k == "place" && w.size() == 2) {  // 2.2: a hex the rulebook names (places.json)
    std::string key = w[1];
    std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
    const auto it = data_->places.named.find(key);
    if (it == data_->places.named.end() || it->second < 0) return bad("no place named '" + w[1] + "'");
    return hex_id(it->second);
  }
  if (k == "hex" && w.size() == 3 && w[2] == "name") {  // the map's name of the hex
    const int h = parse_hex(w[1]);
    if (h < 0) return bad("not a hex");
    return hx(h).name.empty() ? std::string("none") : hx(h).name;
  }
  if (k == "hex" && w.size() == 3 && w[2] == "units") {
    const int h = parse_hex(w[1]);
    if (h < 0) return bad("not a hex");
    std::vector<int> here;
    units_in(h, here);
    std::string out;
    for (int u : here) out += (out.empty() ? "" : " ") + label(u);
    return out.empty() ? std::string("none") : out;
  }
  if (k == "reach" && w.size() == 2) {
    // The cheapest MP cost of every hex the unit can reach now (10.1, 10.3, 10.14), as
    // JSON for the UI: {"unit", "hex", "mp", "hexes": {"2403": {"cost", "left"}}}.
    const int u = find_label(w[1]);
    if (u < 0) return bad("unknown unit '" + w[1] + "'");
    if (unit(u).where != kOnMap) return bad(w[1] + " is not on the map");
    std::array<int16_t, kNumHexes> best{}, parent{};
    reach(u, best, parent);
    const int budget = mp_left(u);
    Json hexes = Json::object();
    for (int h = 0; h < kNumHexes; ++h)
      if (h != unit(u).hex && best[static_cast<size_t>(h)] >= 0)
        hexes[hex_id(h)] =
            Json{{"cost", budget - best[static_cast<size_t>(h)]}, {"left", best[static_cast<size_t>(h)]}};
    return Json{{"unit", label(u)}, {"hex", hex_id(unit(u).hex)}, {"mp", budget}, {"hexes", hexes}}.dump();
  }
  if ((k == "odds" || k == "raw-odds" || k == "shifts" || k == "attack-strength" || k == "defense-strength" ||
       k == "column" || k == "combat") &&
      w.size() >= 4) {
    std::vector<std::string> t{"attack"};
    size_t start = 1;
    if (w[1] == "attack" || w[1] == "mobile-assault") {
      t[0] = w[1];
      start = 2;
    }
    // 8.36-8.41: "... support artillery UNIT air-army UNIT interceptor partisans airborne"
    // previews support markers (their eligibility is not checked, as for `lw`).
    size_t end_w = w.size();
    for (size_t i = start; i < w.size(); ++i)
      if (w[i] == "support") {
        end_w = i;
        break;
      }
    for (size_t i = start; i < end_w; ++i) t.push_back(w[i]);
    auto a = parse_attack(t, t[0] == "mobile-assault");
    if (!a) return a.error();
    std::vector<int> atts;
    if (a->verb == kAttackFrom) {
      // Queries ignore whose phase it is: gather every unit of the side in those hexes.
      std::vector<int> here;
      for (int i = 2; i < a->nargs; ++i) {
        units_in(a->args[i], here);
        for (int u : here)
          if (def(u).attack != 0 || def(u).support_shifts > 0) atts.push_back(u);
      }
    } else {
      for (int i = 2; i < a->nargs; ++i) atts.push_back(a->args[i]);
      for (int i = 2; i < a->nargs; ++i)  // 8.31, 8.32 as start_battle: a TB / CM joins its parent
        if (const int c = attached_of(a->args[i]);
            c >= 0 && std::find(atts.begin(), atts.end(), c) == atts.end() && atts.size() < kMaxBattleUnits)
          atts.push_back(c);
    }
    if (atts.empty()) return bad("no attackers");
    BdState tmp(*this);
    tmp.sink_ = nullptr;
    Battle b;
    b.target = static_cast<int16_t>(a->args[0]);
    b.attacker = def(atts[0]).side;
    b.is_ma = a->verb == kMobileAssault;
    b.lw_attack = a->args[1] != 0 && b.attacker == kGerman;
    b.lw_defend = a->args[1] != 0 && b.attacker == kSoviet;
    for (int u : atts) b.att[b.natt++] = static_cast<int16_t>(u);
    std::vector<int> defs;
    units_in(b.target, defs);
    for (int dd : defs)
      if (b.is_ma || !(unit(dd).flags & kFlagRetreatedIn)) b.def[b.ndef++] = static_cast<int16_t>(dd);
    if (b.ndef == 0) return bad("no defenders in " + hex_id(b.target));
    for (size_t i = end_w + 1; i < w.size(); ++i) {
      int kind = 0;
      for (int x = kSupArtillery; x < kNumSupportKinds; ++x)
        if (w[i] == kSupportNames[x]) kind = x;
      if (kind == 0) return bad("unknown support '" + w[i] + "'");
      int su = -1;
      if (kind == kSupArtillery || kind == kSupAirArmy) {
        if (i + 1 >= w.size() || (su = find_label(w[i + 1])) < 0)
          return bad("support " + w[i] + " names an army");
        ++i;
      }
      apply_support(b, kind, su);
    }
    tmp.compute_odds(b, false);
    if (k == "combat") {
      // The whole preview as JSON: factors, raw odds, every shift with its reason and rule,
      // and the final column (11.8-11.11). Rolled factors (8.4, 8.35) count 3 here.
      Json shifts = Json::array();
      tmp.shifts_for(b, &shifts);
      std::vector<int> per;
      tmp.attack_factor_total(b, false, &per);
      Json atts_j = Json::array();
      for (int i = 0; i < b.natt; ++i) {
        const int u = b.att[static_cast<size_t>(i)];
        Json aj{{"unit", label(u)},
                {"factor", i < static_cast<int>(per.size()) ? per[static_cast<size_t>(i)] : 0},
                {"supply", supply_name(tmp.unit_supply(u))}};
        const uint8_t boost = b.boost[static_cast<size_t>(i)];
        if (boost & kBoostArtillery) aj["artillery"] = "8.36";  // factor doubled
        if (boost & kBoostAirArmy) aj["air_army"] = "8.38";     // +1
        atts_j.push_back(aj);
      }
      std::string final_col = b.raw_index == 99 || b.final_index > data_->crt.max_index ? "auto-DE"
                              : b.final_index < data_->crt.min_index                    ? "auto-AE"
                                                                     : odds_label(b.final_index);
      return Json{{"attack", b.attack},
                  {"defense", b.defense},
                  {"defenders", b.ndef},
                  {"raw", b.raw_index == 99 ? std::string("auto-DE") : odds_label(b.raw_index)},
                  {"raw_rule", b.raw_index == 99       ? "11.10"
                               : b.attack >= b.defense ? "11.8"
                                                       : "11.9"},
                  {"shifts", shifts},
                  {"total_shift", b.shifts},
                  {"final", final_col},
                  {"final_rule", "11.11"},
                  {"attackers", atts_j}}
          .dump();
    }
    if (k == "attack-strength") return std::to_string(b.attack);
    if (k == "defense-strength") return std::to_string(b.defense);
    if (k == "shifts") return std::to_string(b.shifts);
    if (k == "raw-odds") return b.raw_index == 99 ? std::string("auto-DE") : odds_label(b.raw_index);
    if (b.raw_index == 99 || b.final_index > data_->crt.max_index) return std::string("auto-DE");
    if (b.final_index < data_->crt.min_index) return std::string("auto-AE");
    return odds_label(b.final_index);
  }
  if (k == "result") return last_result_.empty() ? std::string("none") : last_result_;
  if (k == "last-odds") return odds_label(last_odds_);
  if (k == "crt" && w.size() == 3) {
    const int die = steppe::parse_int_in(w[2], 1, 6).value_or(0);
    int idx = -999;
    for (int i = data_->crt.min_index; i <= data_->crt.max_index; ++i)
      if (odds_label(i) == w[1]) idx = i;
    if (idx == -999 || die < 1 || die > 6) return bad("crt <odds> <die>");
    return std::string(result_name(
        data_->crt.results[static_cast<size_t>(idx - data_->crt.min_index)][static_cast<size_t>(die - 1)]));
  }
  if (k == "supply" && w.size() == 3 && w[1] == "unit") {
    const int u = find_label(w[2]);
    if (u < 0) return bad("unknown unit");
    return std::string(supply_name(unit_supply(u)));
  }
  if (k == "supply" && w.size() == 3) {
    const int h = parse_hex(w[1]);
    const int side = side_of(w[2]);
    if (h < 0 || side < 0) return bad("supply <hex> <german|soviet>");
    return std::string(overland(h, side) ? "overland" : "none");
  }
  if (k == "control" && w.size() == 2) {
    const int h = parse_hex(w[1]);
    if (h < 0) return bad("not a hex");
    return std::string(side_name(hex_.control[static_cast<size_t>(h)]));
  }
  if (k == "vp") return std::to_string(vp_);
  if (k == "siege") {  // 12.13
    static constexpr const char* kSiege[] = {"none", "besieged", "lifted", "held"};
    return std::string(kSiege[std::clamp<int>(siege_, 0, 3)]);
  }
  if (k == "border-open" && w.size() == 2) {  // 15.3 border hexes of SIDE without its unit
    std::vector<int> open;
    uncovered_border(w[1] == "soviet" ? kSoviet : kGerman, open);
    return std::to_string(open.size());
  }
  if (k == "oos-kills") return std::to_string(oos_kills_);  // 14.10
  if (k == "repl" && w.size() == 2) {                       // 8.12
    const int sd = w[1] == "soviet" ? kSoviet : kGerman;
    return std::to_string(repl_left_mech_[static_cast<size_t>(sd)]) + "/" +
           std::to_string(repl_left_non_[static_cast<size_t>(sd)]);
  }
  if (k == "fp") return std::to_string(fp_);                                                    // 4.20
  if (k == "watch") return std::string(watch_ == 2 ? "oder" : watch_ == 1 ? "rhine" : "none");  // 4.18
  if (k == "summer-offensive")                                                                  // 4.4
    return summer_done_ == 1   ? std::string("succeeded")
           : summer_done_ == 2 ? std::string("debited")
           : summer_turn_ != 0 ? "declared " + std::to_string(summer_turn_)
                               : std::string("none");
  if (k == "soviet-losses") return std::to_string(soviet_losses_);  // 4.19
  if (k == "caucasus") {                                            // 4.11-4.13
    static const char* names[] = {"none", "in-box", "broke-through", "recalled", "defeated"};
    if (cauc_ == kCaucNone) return std::string(cauc_open_ ? "open" : "none");
    return std::string(names[std::min<int>(cauc_, 4)]);
  }
  if (k == "mansteins-gambit") return std::string(mg_ ? "yes" : "no");  // 4.16
  if (k == "replacements" && w.size() == 2 && side_of(w[1]) >= 0)       // 8.12 steps left: mech/non-mech
    return std::to_string(repl_left_mech_[static_cast<size_t>(side_of(w[1]))]) + "/" +
           std::to_string(repl_left_non_[static_cast<size_t>(side_of(w[1]))]);
  if (k == "ss-withdrawal")  // 8.17 / 4.10
    return std::string(ss_due_ == 1   ? "due"
                       : ss_due_ == 2 ? "delayed"
                                      : "none") +
           " done " + std::to_string(ss_done_) + " failed " + std::to_string(ss_failed_);
  if (k == "winner") return std::string(winner_ == kNoSide ? "none" : side_name(winner_));
  if (k == "turn") return std::to_string(turn_);
  if (k == "phase") return std::string(phase_name(phase_));
  if (k == "current") return std::string(current_player() >= 0 ? side_name(current_player()) : "none");
  if (k == "pending") {
    static const char* names[] = {
        "none",           "luftwaffe-defend",  "convert-bb",   "retreat", "advance",
        "emergency-rvgk", "caucasus-response", "take-retreat", "support", "overstack",
        "bb-loss"};
    return std::string(names[pending_]);
  }
  if (k == "support-left" && w.size() == 2) {  // 8.36-8.40 markers still usable in this phase
    for (int x = kSupArtillery; x < kNumSupportKinds; ++x)
      if (w[1] == kSupportNames[x]) return std::to_string(support_left(x));
    return bad("support-left artillery|air-army|interceptor|partisans|airborne");
  }
  if (k == "bulgaria") {  // 8.26
    static const char* names[] = {"none", "waiting", "gt14", "returned"};
    std::string r = names[std::clamp<int>(bulg_state_, 0, 3)];
    if (bulg_unit_ >= 0) r += " " + label(bulg_unit_);
    return r;
  }
  if (k == "distance" && w.size() == 3) {
    const int a = parse_hex(w[1]), b = parse_hex(w[2]);
    if (a < 0 || b < 0) return bad("distance <hex> <hex>");
    return std::to_string(hex_distance(a, b));
  }
  if (k == "neighbour" && w.size() == 3) {
    const int a = parse_hex(w[1]);
    int d = -1;
    for (int i = 0; i < 6; ++i)
      if (w[2] == dir_name(i)) d = i;
    if (a < 0 || d < 0) return bad("neighbour <hex> <E|NE|NW|W|SW|SE>");
    return neighbour(a, d) >= 0 ? hex_id(neighbour(a, d)) : std::string("none");
  }
  if (k == "legal" && w.size() >= 2) {
    std::string text;
    for (size_t i = 1; i < w.size(); ++i) text += (i > 1 ? " " : "") + w[i];
    auto a = parse_action(text);
    if (!a) return a.error();
    Status s = check(*a);
    return s.is_ok() ? std::string("ok") : std::string("illegal ") + s.error().rule;
  }
  if (k == "year") return std::to_string(ti().year);
  if (k == "month-type") return std::string(ti().single ? "single" : "double");
  if (k == "markers" && w.size() == 2 && w[1] == "luftwaffe") return std::to_string(markers_.luftwaffe_left);
  if (k == "hero-city" && w.size() == 2) return std::string(hero_city(parse_hex(w[1])) ? "yes" : "no");
  if (k == "east-wall" && w.size() == 2) return std::string(east_wall(parse_hex(w[1])) ? "yes" : "no");
  if (k == "east-wall-left") return std::to_string(markers_.east_wall_left);
  if (k == "comb-out-steps") return std::to_string(combout_left_);
  return bad("unknown query '" + k + "'");
}

}  // namespace bd
