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
#include "kernel/json_data.h"

namespace bd {

using steppe::Error;
using steppe::Json;
using steppe::Result;

enum Side : uint8_t { kGerman = 0, kSoviet = 1, kNoSide = 2 };
inline int other(int side) { return 1 - side; }
const char* side_name(int side);

// ---- Hex grid (RRCC, digest 2.2). Rows 10..32 rise southward, columns 00..24 westward;
// odd rows sit half a hex west of even rows. Direction order matches kernel/hexgrid.h
// (pointy-top): E, NE, NW, W, SW, SE; opposite = (d + 3) % 6.
constexpr int kFirstRow = 10, kLastRow = 32, kFirstCol = 0, kLastCol = 24;
constexpr int kRows = kLastRow - kFirstRow + 1, kCols = kLastCol - kFirstCol + 1;
constexpr int kNumHexes = kRows * kCols;
enum Dir : uint8_t { kE = 0, kNE = 1, kNW = 2, kW = 3, kSW = 4, kSE = 5 };
int hex_index(int row, int col);  // -1 outside the box
int hex_row(int idx);
int hex_col(int idx);
int parse_hex(std::string_view id);  // -1 if not a hex id of the grid
std::string hex_id(int idx);
int neighbour(int idx, int dir);  // -1 off-grid
int direction(int from, int to);  // -1 if not adjacent
int hex_distance(int a, int b);
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
  std::string nation;
  UnitClass cls = kNonMech;
  UnitType type = kInfantry;
  int attack = 0, defense = 0;  // kRolled for "d6"
  bool attack_circled = false;  // 8.29
  int support_shifts = 0;       // 8.31, 8.32
  bool dotted = false;          // 2.5, 8.12
  Zone zone = kZoneNone;        // 8.2, 8.30
  std::string setup_code;
  int entry_turn = 0;  // 0 = none
  int entry_hex = -1;
  int counterpart = -1;  // unit index
  bool axis_satellite() const { return nation == "hungarian" || nation == "italian" || nation == "romanian"; }
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
};

struct Places {
  int moscow = -1, leningrad = -1, kiev = -1, stalingrad = -1, rostov = -1, dnepropetrovsk = -1;
  int sevastopol = -1, odessa = -1, bucharest = -1, ploesti = -1, budapest = -1, riga = -1, usir = -1;
  std::map<std::string, std::vector<int>> zones;  // AGN, AGC, AGS
  std::map<std::string, int> named;               // every hex of places.json "hexes" by name (2.2)
  std::vector<int> german_edge, soviet_edge, rvgk_edge, gt1_marsh, kerch, sivash;
  std::vector<int> azov_coast;  // 7.5 coastal hexes on the Sea of Azov only
};

struct MarkerArrival {
  std::string marker, letter;
  int side = kSoviet, turn = 0, count = 1, range = 0;
};

// stacking.json: the limits of 6.3, 6.4 and 8.30 (which units are free of 6.3 is the
// counter's own property, UnitDef::free_stacking).
struct StackingLimits {
  int units_per_hex = 5;             // 6.3
  int satellite_armies_per_hex = 1;  // 6.4
  int cavalry_groups_per_hex = 1;    // 8.30
};

struct BdData {
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
  std::string rules_hash;
  const TurnInfo& turn(int t) const { return turns[static_cast<size_t>(std::clamp(t, 1, 32) - 1)]; }
  int find_unit(std::string_view key) const;  // -1 if unknown
};

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
