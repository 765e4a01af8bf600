// Barbarossa Deluxe: the immutable rules data (map, counters, scenarios, tables), loaded
// and validated from data/bd/ (schema in data/bd/SCHEMA.md). Nothing here changes during
// a game; BdState holds a shared pointer to it.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernel/error.h"
#include "kernel/hexgrid.h"
#include "kernel/json_data.h"

namespace bd {

using steppe::Error;
using steppe::Json;
using steppe::Result;

enum Side : uint8_t { kGerman = 0, kSoviet = 1, kNoSide = 2 };
inline int other(int side) { return 1 - side; }
const char* side_name(int side);

// ---- Hex grid (RRCC, digest 2.2): the kernel's HexGrid. Rows 10..32 rise southward, columns
// 00..24 westward; odd rows sit half a hex west of even rows. Directions are the kernel's
// (pointy-top): E, NE, NW, W, SW, SE; opposite = (d + 3) % 6.
constexpr int kFirstRow = 10, kLastRow = 32, kFirstCol = 0, kLastCol = 24;
constexpr int kRows = kLastRow - kFirstRow + 1, kCols = kLastCol - kFirstCol + 1;
// A position keeps per-hex arrays of this many entries (a clone copies them in one piece);
// map.json's grid must be this box (load_map checks).
constexpr int kNumHexes = kRows * kCols;
// Most counters a game may hold (counters.json has 270; scenario tests add a few). A
// position keeps its units inline (BdState::units_), so that a clone allocates nothing for
// them; load_counters refuses a counter mix larger than this.
constexpr int kMaxUnits = 320;
enum Dir : uint8_t { kE = 0, kNE = 1, kNW = 2, kW = 3, kSW = 4, kSE = 5 };

steppe::HexGrid make_grid_2_2();  // the grid of the box above, as the kernel reads a "grid" object
// The BD grid, built once. The rules ask it for neighbours millions of times per playout:
// the kernel's flat table (HexGrid::neighbour).
inline const steppe::HexGrid& grid_2_2() {
  static const steppe::HexGrid grid = make_grid_2_2();
  return grid;
}
inline int hex_index(int row, int col) { return grid_2_2().index(row, col); }  // -1 outside the box
inline int hex_row(int idx) { return grid_2_2().row(idx); }
inline int hex_col(int idx) { return grid_2_2().col(idx); }
inline int parse_hex(std::string_view id) { return grid_2_2().parse(id); }  // -1 if not a hex id of the grid
std::string hex_id(int idx);                                                // "----" off the grid
inline int neighbour(int idx, int dir) {                                    // -1 off-grid
  if (static_cast<unsigned>(idx) >= static_cast<unsigned>(kNumHexes) || static_cast<unsigned>(dir) >= 6u)
    return -1;
  return grid_2_2().neighbour(idx, dir);
}
inline int direction(int from, int to) {  // -1 if not adjacent
  if (to < 0 || static_cast<unsigned>(from) >= static_cast<unsigned>(kNumHexes)) return -1;
  return grid_2_2().direction(from, to);
}
inline int hex_distance(int a, int b) { return grid_2_2().distance(a, b); }
const char* dir_name(int d);

// ---- Map
enum Terrain : uint8_t { kClear, kRough, kMarsh, kDesert, kAllSea, kAllLake, kNumTerrain };
enum Country : uint8_t {
  kCountryNone,
  kUssr,
  kBaltic,
  kGreaterGermany,
  kGeneralGovernment,
  kSlovakia,
  kHungary,
  kRomania,
  kYugoslavia,
  kBulgaria,
  kCountryOther
};
enum Area : uint8_t { kAreaNone, kAreaDP, kAreaR, kAreaCS };
enum Zone : uint8_t { kZoneNone, kZoneNorth, kZoneSouth };

struct HexInfo {
  bool on_map = false;
  Terrain terrain = kClear;
  bool city = false;
  bool vp = false;  // city, USIR or oil field: 1 VP (4.2)
  std::string name;
  Country country = kCountryNone;
  Zone zone = kZoneNone;
  Area area = kAreaNone;
  int8_t fortified = -1;  // side whose printed fortified line this is (11.21), -1 none
  bool coastal = false;
  bool west_of_start_line = false;
  int8_t initial_control = -1;                     // 3.6 as generated on the map (-1: by country)
  uint8_t river = 0, lake_side = 0, sea_side = 0;  // bit d = hexside in direction d
  bool dnepr = false;  // borders the Dnepr between Kiev and 2809/2908 (4.6, victory.json)
};

// ---- Counters
enum UnitClass : uint8_t { kMech, kNonMech, kStatic };
enum UnitType : uint8_t {
  // German side
  kPanzer,
  kInfantry,
  kMountain,
  kParatroop,
  kLuftwaffeField,
  kSsInfantry,
  kKampfgruppe,
  kEmergency,
  kSatelliteArmy,
  kArmyDetachment,
  kGroup,
  kFortressCommand,
  kTigerBattalion,
  kCoastalCommand,
  // Soviet side
  kRifleArmy,
  kOversizedRifleArmy,
  kShockArmy,
  kGuardsArmy,
  kTankArmy,
  kGuardsTankArmy,
  kMechCorps,
  kRifleCorps,
  kAirborneCorps,
  kCavalryGroup,
  kCmGroup,
  kMechGroup,
  kNavalInfantry,
  kCoastalArmy,
  kMilitiaArmy,
  kCounterFireCorps,
  kCommunistSatelliteArmy,
  kNumUnitTypes
};
const char* unit_type_name(UnitType t);
UnitType type_from_name(const std::string& s, bool& ok);

constexpr int kRolled = -1;  // combat factor "d6", rolled per battle (8.4, 8.35)

struct UnitDef {
  std::string id, label, name;
  uint8_t side = kGerman;
  std::string nation;  // see set_nation
  bool axis_satellite_ = false;
  UnitClass cls = kNonMech;
  UnitType type = kInfantry;
  int attack = 0, defense = 0;  // kRolled for "d6"
  bool attack_circled = false;  // 8.29
  int support_shifts = 0;       // 8.31, 8.32
  bool dotted = false;          // 2.5, 8.12
  bool returns_once = false;    // 8.15: back d6 turns after its first death in overland supply
  Zone zone = kZoneNone;        // 8.2, 8.30
  std::string setup_code;
  int entry_turn = 0;  // 0 = none
  int entry_hex = -1;
  int counterpart = -1;  // unit index
  // Cached by set_nation (set the nation only through it): the move search asks for every
  // hex it tries (10.22).
  bool axis_satellite() const { return axis_satellite_; }
  void set_nation(std::string n) {
    nation = std::move(n);
    axis_satellite_ = nation == "hungarian" || nation == "italian" || nation == "romanian";
  }
  // 6.4: one satellite army per hex, either side.
  bool satellite_army() const { return type == kSatelliteArmy || type == kCommunistSatelliteArmy; }
  // 6.5: units that do not count against the 5-unit limit.
  bool free_stacking() const {
    return type == kFortressCommand || type == kMilitiaArmy || type == kCounterFireCorps ||
           type == kTigerBattalion || type == kCmGroup || type == kCavalryGroup;
  }
};

// ---- Tables
enum Result5 : uint8_t { kAE, kAS, kDE, kBB, kDR };
const char* result_name(int r);

struct Crt {
  int min_index = -5, max_index = 6;            // odds index: i >= 0 -> (i+1):1, i < 0 -> 1:(1-i)
  std::vector<std::array<uint8_t, 6>> results;  // [index - min_index][die - 1]
};
std::string odds_label(int index);

struct TurnInfo {
  int turn = 0;
  std::string months;
  bool single = true;
  int year = 1941;
  int mf[2][2] = {{0, 0}, {0, 0}};    // [side][class mech=0/non-mech=1]
  int repl[2][2] = {{0, 0}, {0, 0}};  // [side][mech/non-mech]
  int luftwaffe = 0;
  int german_wins_at = 999, soviet_wins_at = -999;  // Victory Check Chart (4.14)
  bool check = false;
};

struct TerrainCosts {
  int mp[kNumTerrain][2] = {};  // [terrain][mech=0/non-mech=1]
  bool prohibited[kNumTerrain] = {};
  int shift[kNumTerrain] = {};
  bool ma_allowed[kNumTerrain] = {};
  int river_mp[2] = {2, 1};
  int city_shift = -1, fortress_shift = -3, line_shift = -1, fa_first = -1, fa_later = -2;
  int ma_extra_clear = 2, ma_extra_city = 3, ma_shift = -1;
};

struct SetupEntry {
  int unit = -1;
  int hex = -1;
  std::string zone;  // free placement
  std::string box;   // dead | dead-permanent | rvgk | caucasus | out-of-play | trrt
  int turn = 0;
};

// A sudden-death victory (14.10, 15.5): play stops the instant `side` gains control of
// `hex`, supply state irrelevant.
struct SuddenDeath {
  int side = 0;
  int hex = -1;
  std::string place;  // as named in the file ("moscow", "Berlin")
  std::string rule;
};

// "end_victory" in a scenario file: the conditions checked at the end of its last turn in
// place of victory points. `rule` says which section's conditions (13.4, 14.4, 14.10 or 15.4;
// empty = won on VP, section 4); the lists and numbers those sections print are the data.
struct EndVictory {
  std::string rule;
  // 13.4: the cities of which `cities_needed` must be held ("Leningrad, Moscow, Stalingrad",
  // any two). 14.4, 14.10, 15.4: `cities_needed` is the number to take from the opponent.
  std::vector<int> cities;
  std::vector<std::string> city_names;  // as the file names them, for the log
  int cities_needed = 0;
  int clear_around = -1;  // 14.4: no enemy unit adjacent to this hex (Leningrad)
  std::string clear_around_name;
  int no_enemy_in = -1;  // 14.4: no German unit here counts as a city taken (the Gotenkopf, 3105)
  std::string no_enemy_in_name;
};

struct ScenarioDef {
  std::string id, name, description, rule;
  int first_turn = 1, last_turn = 32;
  int first_player = kGerman;
  std::string start_phase = "admin";
  int vp_start = 14;
  std::vector<SetupEntry> setup;
  std::map<std::string, std::vector<int>> zones;
  // Start-of-scenario hex control over the 3.6 default ("control" in the file): the
  // "german_front" rows expanded at load time plus the explicit lists. Applied before
  // the set-up places any unit.
  std::vector<int> german_control, soviet_control;
  std::vector<std::pair<std::string, int>> markers;  // (marker, hex)
  std::vector<std::string> special_rules;
  std::vector<SuddenDeath> sudden_death;  // "sudden_death" in the file
  EndVictory end_victory;                 // "end_victory" in the file
  // Scenario numbers ("params" in the file, integers): german_repl_mech/non (4.17, 14.11),
  // oos_kills_per_city (14.10), repl_bonus and no_replacements_first_turn (15.6),
  // soviet_rvgk_at_start (15.3), mf_german_mech / mf_german_non / mf_soviet_mech /
  // mf_soviet_non (15.6: a fixed MF in place of the TRRT's), airborne_once,
  // airborne_no_luftwaffe and no_hero_fortress_cities (15.8), stalingrad_stand_fast_turn, stalingrad_vp_turn
  // and stalingrad_vp (12.7), and the scenario rules the engine once chose by scenario id
  // (vp_schedule, victory_chart_from_turn, caucasus_expedition, zone_1942, ...: data/bd/SCHEMA.md).
  // Absent = 0 (rule not in force).
  std::map<std::string, int> params;
  // The mf_* params by [side][kMech / kNonMech], read once at load (mf_of is on the
  // movement hot path); 0 = the TRRT's MF.
  std::array<std::array<int, 2>, 2> fixed_mf{};
  int param(const std::string& key) const {
    const auto it = params.find(key);
    return it == params.end() ? 0 : it->second;
  }
};

// True when a-b is the hexside of a two-hex crossing (Places::kerch, Places::sivash).
inline bool is_crossing(const std::vector<int>& pair, int a, int b) {
  return pair.size() == 2 && ((a == pair[0] && b == pair[1]) || (a == pair[1] && b == pair[0]));
}

struct Places {
  int moscow = -1, leningrad = -1, kiev = -1, stalingrad = -1, rostov = -1, dnepropetrovsk = -1;
  int sevastopol = -1, odessa = -1, bucharest = -1, ploesti = -1, budapest = -1, riga = -1, usir = -1;
  std::map<std::string, std::vector<int>> zones;  // AGN, AGC, AGS
  std::map<std::string, int> named;               // every hex of places.json "hexes" by name (2.2)
  std::vector<int> german_edge, soviet_edge, rvgk_edge, gt1_marsh, kerch, sivash;
  std::vector<int> azov_coast;       // 7.5 coastal hexes on the Sea of Azov only
  std::vector<int> bulgarian_exits;  // 8.26 the Bulgarian south-edge hexes
  // 10.16 Black Sea, 10.17 Baltic: the ports between which one German infantry corps per
  // movement phase may move by sea, per sea.
  std::vector<std::vector<int>> sea_ports;
  // a-b crosses the Kerch Strait or the Sivash (10.14, 10.15, 11.17, 11.18).
  bool strait(int a, int b) const { return is_crossing(kerch, a, b) || is_crossing(sivash, a, b); }
};

struct MarkerArrival {
  std::string marker, letter;
  int side = kSoviet, turn = 0, count = 1, range = 0;
  int withdrawn = 0;  // turn at whose start the marker leaves play (8.37), 0 never
};

// stacking.json: the limits of 6.3, 6.4 and 8.30 (which units are free of 6.3 is the
// counter's own property, UnitDef::free_stacking).
struct StackingLimits {
  int units_per_hex = 5;             // 6.3
  int satellite_armies_per_hex = 1;  // 6.4
  int cavalry_groups_per_hex = 1;    // 8.30
};

// A VP die roll of section 4: ceil(d6 / divide) + add (4.4, 4.7, 4.8, 4.21).
struct VpRoll {
  int divide = 1, add = 0;
};

// 4.7 / 4.8: a hex whose first Soviet capture before a turn costs a rolled VP debit.
struct EarlyLoss {
  int hex = -1;
  std::string name, rule;
  int before_turn = 27;
  VpRoll roll;
};

// victory.json: the section 4 VP events beyond the per-hex values.
struct VictoryRules {
  std::vector<EarlyLoss> early_loss;                                     // 4.7, 4.8
  int baltic_after = 13, baltic_vp = -3;                                 // 4.5
  int dnepr_after = 13, dnepr_vp = -1;                                   // 4.6 (the hexes: HexInfo::dnepr)
  std::vector<int> summer_turns;                                         // 4.4 declaration turns
  VpRoll summer_roll{2, 0};                                              // 4.4 debit
  int kiev_hex = -1, kiev_by_turn = 3;                                   // 4.21 option
  VpRoll kiev_roll{1, -1};                                               // 4.21
  int watch_choose_turn = 28, watch_reveal_turn = 30;                    // 4.18
  int oder_cities = 2, oder_one_city_units = 10, oder_units_alone = 20;  // 4.19
  int oder_big_cf = 3;                                                   // 4.19 CF above: counts 2
  int oder_repl_mech = 4, oder_repl_non = 4, oder_mech_mf = 6, oder_luftwaffe_extra = 2;  // 4.18
  std::vector<std::string> oder_units;                                                    // 4.18
  int soviet_perm_withdrawal_turn = 20;  // 8.21 the permanent rifle army withdrawal
  // The scenario rules of the test scenario `empty` (no scenario file): the Grand Campaign's
  // (ruling BD-3), as victory.json's empty_scenario_params says.
  std::map<std::string, int> empty_params;
  // 4.10 / 8.17: 2nd SS Panzer Corps withdrawals and returns, VP per failed withdrawal.
  std::string ss_unit;
  std::vector<int> ss_turns, ss_returns;
  int ss_vp = -1;
  // 4.11-4.13 Caucasus expedition.
  std::vector<int> caucasus_launch_hexes, caucasus_exits;
  int caucasus_breakthrough_at = 6, caucasus_stalingrad_mod = 1, caucasus_stalingrad = -1;
  int caucasus_response = 4, caucasus_infantry = 1, caucasus_panzer = 2, caucasus_per_turn_vp = 1;
  std::vector<UnitType> caucasus_response_types, caucasus_infantry_types, caucasus_panzer_types;
  VpRoll caucasus_award{1, 0};
  // 4.16 / 4.17 Manstein's Gambit declared in the Grand Campaign.
  int mg_end_turn = 20, mg_repl_mech = 2, mg_repl_non = 2, mg_cities_needed = 2;
  std::vector<std::string> mg_units;                  // arrive on the declaration turn
  std::vector<std::pair<std::string, int>> mg_early;  // (unit, TRRT box) pulled ahead
  std::vector<int> mg_cities;                         // Leningrad, Moscow, Kiev, Stalingrad
};

// 7.14, 7.15, 7.4: the parts of overland supply tracing that depend on the map only, per side,
// for the kernel's SupplyTracer over the BD HexGrid (BdState::compute_supply): the search tests
// one HexSideBits byte per hex instead of terrain (bench/: supply next to a bare breadth-first
// search). Built from a map by build_supply_graph; sized by the grid.
struct SupplyGraph {
  // Bit d of a hex: a path of the side may cross the hexside towards neighbour(hex, d): both
  // hexes may be entered (on the map, not all-sea, lakes only in own territory), the two are in
  // one logistical area (7.15) and the hexside is crossable (no all-sea side, lake sides in own
  // territory, the Kerch and Sivash for the Soviet only, 7.14).
  std::array<steppe::HexSideBits, 2> sides;
  // Side may trace into the hex: on the map, not all-sea, lakes only in own territory (7.14).
  std::array<std::vector<uint8_t>, 2> enter;
  // The side's edge supply sources that the map lets supply (7.3, 7.9): enterable, and for the
  // German outside the DP and R areas (7.4). Enemy units are the search's to test.
  std::array<std::vector<int>, 2> sources;
  // The hex is a printed fortified line of the side's enemy (blocks while the enemy holds it, 7.20).
  std::array<std::vector<uint8_t>, 2> enemy_fort;
  // 7.4 German bottleneck tiers: 0 elsewhere, 1 the DP area, 2 the R area.
  std::vector<uint8_t> tier;
  // 7.4 Crimea supply: the German may trace into the hex (CS area and enterable) ...
  std::vector<uint8_t> crimea_enter;
  // ... and across the hexside (one logistical area, 7.15; the Kerch but never the Sivash, and
  // no other all-sea or all-lake side, 7.14).
  steppe::HexSideBits crimea_sides;
};

struct BdData {
  // The hex grid (kernel, digest 2.2), from map.json "grid"; it must be the box the position
  // arrays are sized for (kFirstRow..kLastRow, kFirstCol..kLastCol), checked on load.
  steppe::HexGrid grid;
  std::array<HexInfo, kNumHexes> hexes;
  StackingLimits stacking;
  bool map_loaded = false;
  std::vector<UnitDef> units;
  std::map<std::string, int> unit_by_key;  // lower-case label and id -> index
  std::vector<ScenarioDef> scenarios;
  Crt crt;
  TerrainCosts tec;
  std::vector<TurnInfo> turns;  // index = turn - 1, 32 entries
  std::vector<MarkerArrival> markers;
  Places places;
  int vp_start = 14;
  std::vector<int> moscow_mods_hex, moscow_mods_value;
  int moscow_surrender_at = 5;
  VictoryRules victory;
  std::string rules_hash;
  // 8.1 entry hexes of units without a fixed entry hex, per side, on this map: the side's
  // edge supply hexes a unit may stand in, then every other city (BdState checks control,
  // supply and stacking). Built once by load_data (entry_candidates_of).
  std::array<std::vector<int>, 2> entry_candidates;
  bool entry_candidates_built = false;
  SupplyGraph supply_graph;  // of `hexes` (build_supply_graph)
  const TurnInfo& turn(int t) const { return turns[static_cast<size_t>(std::clamp(t, 1, 32) - 1)]; }
  int find_unit(std::string_view key) const;  // -1 if unknown
};

SupplyGraph build_supply_graph(const steppe::HexGrid& grid, const std::array<HexInfo, kNumHexes>& hexes,
                               const Places& places);

// BdData::entry_candidates of `side` for these hexes (the map a state may have edited).
std::vector<int> entry_candidates_of(const BdData& d, const std::array<HexInfo, kNumHexes>& hexes, int side);

// Names as map.json and terrain.json spell them ("" for kCountryNone).
const char* terrain_name(Terrain t);
const char* country_name(Country c);
// The free set-up zones BdState::zone_hexes knows without a scenario "zones" list:
// romania (or Rom), any-german, any-soviet, german-occupied.
bool builtin_setup_zone(const std::string& zone);

// 3.6: who controls a hex at the start of the Grand Campaign (by country, or the map's
// generated "control"); kNoSide for neutral and unknown countries.
int start_control_3_6(const HexInfo& h);

// Loads everything under data_dir/bd (map.json optional until the maps helper lands:
// without it the map is the full 23x25 box of clear hexes).
Result<std::shared_ptr<const BdData>> load_data(const std::filesystem::path& data_dir);
// Parses one unit object (also used by the scenario-test word "define").
Result<UnitDef> parse_unit(const Json& j, const std::string& where);

}  // namespace bd
