// The Dark Valley Deluxe (rulebook seeds/004; digest 004-dark-valley.md; design notes
// docs/dv-design.md).
//
// The map, counters, tables, turn record track and set-ups are data in data/dv/ (mostly
// reconstructed, checked by tools/dv/check.py); this module holds the rules only, one file per
// rule chapter, each rule citing its section:
//   data.cpp      loading and validation of data/dv/
//   state.cpp     the position, set-up (scenarios), hashing, observation
//   sequence.cpp  4.0 sequence of play, 10.x action phase and the chit cup, 7.x arrivals
//   movement.cpp  5.x stacking, 6.x zones of control, 11.x movement
//   combat.cpp    12.x combat
//   supply.cpp    13.x logistics
//   victory.cpp   2.4 control, 3.x victory
//   strategic.cpp 9.x strategic movement (9.1, 9.2/9.4 rail, 9.3/9.5 naval)
//   air.cpp       8.x airpower (bases, combat support, bombardment, air supply)
//   position.cpp  the position format (issue 29)
//   verbs.cpp     the verb table (kernel/verbs.h): generate, check, apply, print, parse
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/draw_cup.h"
#include "kernel/hexgrid.h"
#include "kernel/json_data.h"
#include "kernel/pathfinding.h"
#include "kernel/state.h"
#include "kernel/supply.h"

namespace dv {

using steppe::Json;

constexpr int kAxis = 0;
constexpr int kSoviet = 1;
constexpr int kNeutral = -1;

enum Weather : uint8_t { kFair = 0, kMixed = 1, kMud = 2, kSnow = 3 };
enum Terrain : uint8_t { kClear = 0, kWoods, kSwamp, kRough, kSea, kLake, kTerrainCount };

// Move cost codes (terrain.json): >= 0 MP, kAllMp "all of a unit's MPs", kProhibited.
constexpr int kAllMp = 1000;
constexpr int kProhibited = -1;

// 9.3/9.5 the seas of Naval Transport: the Baltic (with the Gulf of Finland) and the Black Sea
// (with the Sea of Azov) each have their own step allowance.
enum Sea : uint8_t { kBaltic = 0, kGulfOfFinland, kBlackSea, kAzov, kSeaCount };
constexpr int kNoSea = -1;
inline int sea_zone(int sea) { return sea == kBaltic || sea == kGulfOfFinland ? 0 : 1; }

// Where a unit is when it is not on a map hex.
enum class Box : uint8_t {
  kMap,
  kPending,
  kEliminated,
  kRemoved,
  kStavkaReserve,
  kOtherFronts,
  kAirAssets,
  kAvailable
};

struct UnitDef {
  std::string id, label, name, nation, cls, type, size;
  int side = kAxis;
  int steps = 1;
  std::array<int, 2> attack{0, 0}, defense{0, 0};  // [full, reduced]
  int mf = 0;
  bool zoc = false, replaceable = true;
  int entry_turn = -1, exit_turn = -1, returns = -1;  // -1: none / on a trigger
  int command_range = 0;
  int air_range = 0;  // 8.4: an air unit's range (9.3/9.5: no Naval Transport to a port in it)
  int air_support = 0, air_bombard = 0;  // 8.1: a Strategic Air unit's support and bombardment factors
  int air_loss_drm = 0;                  // 8.5: the German 8th Air's +1 on the loss result only
  int converts = -1;  // 7.7: the Axis counter this one replaces on its entry turn (-1: none)
  // Derived classes the rules ask about.
  bool mech = false;               // class "mech" (11.3: HQs and leaders count as mech)
  bool ground = false;             // 2.4: has a movement factor
  bool combat = false;             // 2.4: ground unit with an attack or defence factor
  bool hq = false;                 // 14.1: Panzer Army HQs, Stavka, Zhukov
  bool army = false;               // 5.3: XXXX combat units
  bool corps = false;              // 5.3: XXX combat units
  bool single_unit = false;        // 12.2.1: may attack alone
  bool forced_march = false;       // 11.5: infantry, light infantry, mountain, shock, marine, airborne
  bool minor = false;              // 15.1: Romanian, Hungarian, Italian
  bool enters_eliminated = false;  // 7.3: arrives in the Eliminated box (the armies due on Turns 5-7)
};

struct Tec {
  std::array<std::array<int, 2>, kTerrainCount> hex_move{};  // [terrain][mech]
  std::array<int, kTerrainCount> hex_shift{};
  std::array<bool, kTerrainCount> mech_attack_halved{};
  std::array<int, 2> river_move{}, major_move{}, strait_move{}, dw_move{};
  int volga_soviet_move = 2;
  int river_shift = 0, fort_shift = 0, weak_fort_shift = 0, fz_shift = 0, dw_defense = 0;
  bool city_doubled = true;
  // 11.3 movement factor changes by weather, for supplied units: [weather][axis mech, axis
  // other, soviet] (terrain.json "weather_move"; Snow split by winter, 11.3).
  std::array<std::array<int, 3>, 4> weather_move{};
  std::array<int, 3> snow_late_move{};  // Snow Dec 42 - Feb 45
  int snow_late_from_turn = 17;
};

struct Crt {
  std::vector<std::string> columns;                            // "1-3" .. "6-1"
  std::array<std::vector<std::array<std::string, 8>>, 2> tab;  // [A/B][column][row]
  // 12.1.1: per side, per turn: 0 = A, 1 = B
  std::array<std::array<uint8_t, 45>, 2> which{};
  int drm_attacker_oos = -2, drm_defender_oos = 2;
};

struct TurnDef {
  int turn = 0, year = 1941;
  std::string date;
  Weather weather = kFair;
  int initiative = kAxis;
  std::array<std::vector<std::string>, 2> chits;  // own chits per side
  std::vector<std::string> neutral;               // logistics
  std::vector<std::string> axis_withdrawals, soviet_withdrawals;
  std::vector<std::pair<std::string, int>> axis_replacements;  // 7.4 steps by kind
  int rf_factory_each = 0, rf_off_map = 0;                     // 7.6
  std::string lend_lease;                                      // "", "1d6", "1d6 +3"
  int axis_rail_dice = 0;     // 9.2: d6 rolled for the Axis rail steps (0: no Axis rail yet)
  int soviet_rail_steps = 0;  // 9.4: Soviet combat-unit steps by rail (0: none yet)
};

struct HexInfo {
  Terrain terrain = kClear;
  bool city = false, port = false, vp = false, factory = false, oil = false;
  bool rail = false, east_edge = false, west_edge = false, usir = false, military_road = false;
  bool fz = false, dw = false;
  int8_t fort_owner = kNeutral, weak_fort_owner = kNeutral;
  int8_t start_control = kNeutral;
  int8_t country = -1;
  bool ussr = false, hungary = false, romania = false, germany = false;
};

struct Scenario {
  steppe::ScenarioInfo info;
  Json doc;
  int end_turn = 44;  // the victory check's last turn (DV-S1)
};

// Chit kinds (10.1). The chit cup holds their ids (index into kChitNames).
enum Chit : uint8_t {
  kChitMove,
  kChitCombat,
  kChitMoveCombat,
  kChitCounterattack,
  kChitPanzer1,
  kChitPanzer2,
  kChitPanzer3,
  kChitPanzer4,
  kChitDeepBattle,
  kChitStavka,
  kChitLogistics,
  kChitCombatZhukov,
  kChitCombatStavka,
  kChitCombatStavkaZhukov,
  kChitManstein,
  kChitCount
};
extern const std::array<std::string_view, kChitCount> kChitNames;
int chit_from_name(std::string_view name);  // -1 if unknown

// The verbs (verbs.cpp), Action::verb.
enum Verb : uint16_t {
  kPlace = 1,
  kChit,
  kMode,
  kPick,
  kMoveTo,
  kAttack,
  kAdd,
  kResolve,
  kCancel,
  kAdvance,
  kStop,
  kEnd,
  kReplace,
  kRebuild,
  kDone,
  kLose,
  kRetreatTo,
  kManstein,
  kHold,
  kRail,
  kShip,
  // 8.x airpower (air.cpp)
  kBase,       // base AIR HEX       8.2 an air unit's base moves (Air Base Phase)
  kAir,        // air AIR            8.3/8.4 an air unit or Tac Air supports the combat being fought
  kBombard,    // bombard AIR UNIT   8.5 an air unit bombards an enemy ground unit
  kAirSupply,  // airsupply AIR HEX  8.6.1/8.6.2 an air unit supplies German units by air
  // 10.5.9 the held Stavka chit, 10.5.6.2 the Axis answer to unmade Stalin mandates (DV helper B)
  kStavka,  // stavka             10.2, 10.5.9 the Soviet plays the held Stavka chit
  kPurge,   // purge UNIT         10.5.6.2 the Axis eliminates a Soviet 1-4 Rifle Division
  kReserve  // reserve UNIT       7.3 a Soviet reinforcement goes into the Stavka Reserve
};

// 8.x the rules' numbers of air.json (reconstructed where the text prints none).
struct AirRules {
  int free_move_hexes = 12;  // 8.2
  int bases_per_town = 1, bases_per_city = 2;
  bool soviet_base_in_ussr = true;
  int strategic_per_combat = 1, lone_hq_cap = 1;                                // 8.4, 8.3
  std::vector<std::pair<int, int>> soviet_tac_per_combat;                       // 8.3.1 (from year, max)
  std::array<bool, 4> romanian_weather{};                                       // 8.3.2
  int done_at_most = 3;                                                         // 8.5
  std::array<int, 4> bomb_weather_drm{};                                        // 8.5 German air
  int oos_year = 1941, oos_max_round = 6, oos_max_air = 6, oos_mp_penalty = 2;  // 8.6.1
  std::array<bool, 4> oos_weather{};
  int is_first = 2, is_last = 18, is_risk_from = 12, is_lost_at = 12, is_back = 3;  // 8.6.2
  int winter_first = 7, winter_last = 9;                                            // 8.7
  std::vector<std::pair<int, int>> initial_base;                                    // (unit, hex) DV-A2
  // 8.5 the Bombardment Table (bombardment.json): columns, [column][row], terrain defence.
  std::vector<std::string> bomb_columns;
  std::vector<std::array<std::string, 8>> bomb_table;
  std::array<int, kTerrainCount> bomb_terrain{};
  int bomb_town = 1, bomb_city = 2, bomb_weak_fort = 2, bomb_fort = 4, bomb_dw = 1, bomb_fz = 1;
};

class DvGame;
// 8.x air.json and bombardment.json (air.cpp), called by load_game once the counters are in.
steppe::Status load_air(DvGame& g, const Json& air, const Json& bombardment, const std::string& dir);
steppe::Result<std::unique_ptr<steppe::Game>> load_game(const std::filesystem::path& data_dir);

class DvGame : public steppe::Game {
 public:
  std::string id() const override { return "dv"; }
  std::string name() const override { return "The Dark Valley Deluxe"; }
  std::vector<std::string> side_names() const override { return {"axis", "soviet"}; }
  std::vector<steppe::ScenarioInfo> scenarios() const override;
  steppe::Result<std::unique_ptr<steppe::State>> new_state(const std::string& scenario,
                                                           uint64_t seed) const override;
  std::string rules_hash() const override { return rules_hash_; }
  Json map_json() const override { return map_doc_; }
  steppe::Result<Json> describe_location(const std::string& id) const override;
  // The position format (position.cpp, kernel/position.h).
  steppe::Result<std::unique_ptr<steppe::State>> state_from_position(const Json& position) const override;

  const steppe::HexGrid& grid() const { return grid_; }
  const HexInfo& hex(int h) const { return hexes_[static_cast<size_t>(h)]; }
  const std::vector<UnitDef>& units() const { return units_; }
  const UnitDef& unit(int u) const { return units_[static_cast<size_t>(u)]; }
  int unit_index(std::string_view label) const;  // by label or id; -1 if none
  const Tec& tec() const { return tec_; }
  const Crt& crt() const { return crt_; }
  const TurnDef& turn(int t) const { return turns_[static_cast<size_t>(t - 1)]; }
  int turn_count() const { return static_cast<int>(turns_.size()); }
  const Scenario* scenario(const std::string& id) const;
  const steppe::HexSideBits& river() const { return river_; }
  const steppe::HexSideBits& major() const { return major_; }
  const steppe::HexSideBits& volga() const { return volga_; }
  const steppe::HexSideBits& water() const { return water_; }  // all-sea / all-lake sides
  const steppe::HexSideBits& strait() const { return strait_; }
  const steppe::HexSideBits& rail_side() const { return rail_side_; }
  const steppe::HexSideBits& ladoga() const { return ladoga_; }
  const steppe::HexSideBits& oranienbaum() const { return oranienbaum_; }  // 11.2
  const std::vector<int>& vp_hexes() const { return vp_hexes_; }
  int vp_1945_only() const { return vp_1945_; }
  int place(std::string_view name) const;  // places.json "hexes" by key; -1 if absent
  const std::array<std::vector<int>, 2>& compass() const { return compass_; }
  int minors_north_row() const { return minors_row_; }
  int deep_battle_both_from() const { return deep_battle_both_from_; }
  int hq_of_panzer_chit(int chit) const { return panzer_hq_[static_cast<size_t>(chit - kChitPanzer1)]; }
  int stavka_hq() const { return stavka_; }
  // 10.5.9.1 (trt.json "stavka_release"): the minimum steps of the 2d6 roll by year;
  // 10.5.6.1 (trt.json "stalin_mandates"): the minimum of the 2d6 and the odds a mandate needs.
  int stavka_minimum(int year) const;
  int stalin_minimum() const { return stalin_min_; }
  int stavka_reserve_from() const { return stavka_reserve_from_; }  // 7.3 Turn 3
  // 17.1.2 (trt.json "barbarossa_isolated_mech"): the turns isolated German mech units count as
  // OOS for attrition in a game begun on Turn 1.
  std::pair<int, int> barbarossa_mech_oos() const { return barbarossa_mech_; }
  const std::string& stalin_odds() const { return stalin_odds_; }
  // 12.9 (crt.json "weather_combat", ruling DV-B3): column shifts by weather (0 Fair .. 3 Snow).
  int weather_shift(int weather) const { return weather_shift_[static_cast<size_t>(weather)]; }
  int zhukov() const { return zhukov_; }
  // 7.4: the Axis replacement kinds and the counter types each rebuilds.
  const std::vector<std::pair<std::string, std::vector<std::string>>>& axis_kinds() const {
    return axis_kinds_;
  }
  // 7.6: the types Replaced by unit, their cost, and the types under the one-per-turn limit.
  int unit_rf_cost(const std::string& type) const;  // -1: priced by defence factor
  int reduced_gta_cost() const { return reduced_gta_cost_; }
  // 9.3/9.5: the sea a port lies on (kNoSea if none), the steps per turn [side][zone], how
  // many a mech step counts for, the hexes on both sides of the Kerch Straits, Rostov's river.
  int port_sea(int h) const { return port_sea_[static_cast<size_t>(h)]; }
  int naval_steps(int side, int zone) const {
    return naval_cap_[static_cast<size_t>(side)][static_cast<size_t>(zone)];
  }
  int naval_mech_factor() const { return naval_mech_; }
  const std::vector<int>& kerch_hexes() const { return kerch_; }
  const std::vector<int>& rostov_river() const { return rostov_river_; }
  const std::vector<std::string>& limited_types() const { return limited_; }
  // 8.x: the air units (Strategic Air units and Tac Air assets, counters of class "air") and
  // the rules' numbers.
  const std::vector<int>& air_units() const { return air_units_; }
  int air_slot(int u) const;  // index into air_units(), -1 if u is no air unit
  const AirRules& air() const { return air_; }

 private:
  friend steppe::Result<std::unique_ptr<steppe::Game>> load_game(const std::filesystem::path&);
  friend steppe::Status load_air(DvGame& g, const Json& air, const Json& bombardment, const std::string& dir);
  std::vector<int> air_units_;
  AirRules air_;
  steppe::HexGrid grid_;
  std::vector<HexInfo> hexes_;
  std::vector<UnitDef> units_;
  Tec tec_;
  Crt crt_;
  std::vector<TurnDef> turns_;
  std::vector<Scenario> scenarios_;
  steppe::HexSideBits river_, major_, volga_, water_, strait_, rail_side_, ladoga_, oranienbaum_;
  std::vector<int> vp_hexes_;
  int vp_1945_ = -1;
  std::vector<std::pair<std::string, int>> places_;
  std::array<std::vector<int>, 2> compass_;  // retreat directions per side (12.5)
  int minors_row_ = 25;
  int deep_battle_both_from_ = 34;
  std::array<int, 4> panzer_hq_{-1, -1, -1, -1};
  int stavka_ = -1, zhukov_ = -1;
  std::vector<std::pair<int, int>> stavka_min_;  // (year, minimum) 10.5.9.1
  int stalin_min_ = 6;                           // 10.5.6.1
  int stavka_reserve_from_ = 3;                  // 7.3
  std::string stalin_odds_ = "1-3";              // 10.5.6.2
  std::pair<int, int> barbarossa_mech_{2, 4};    // 17.1.2
  std::array<int, 4> weather_shift_{};           // 12.9
  std::vector<std::pair<std::string, std::vector<std::string>>> axis_kinds_;
  std::vector<std::pair<std::string, int>> unit_costs_;
  int reduced_gta_cost_ = 2;
  std::vector<std::string> limited_;
  std::vector<int8_t> port_sea_;
  std::array<std::array<int, 2>, 2> naval_cap_{};
  int naval_mech_ = 2;
  std::vector<int> kerch_, rostov_river_;
  Json map_doc_;
  std::string rules_hash_;
};

// The stage of the action phase the game waits in.
enum class Stage : uint8_t {
  kPlace,        // 7.2/7.3: placing this turn's reinforcements (the Axis first, 7.1)
  kReplace,      // 7.4/7.6: spending replacements
  kInitiative,   // 10.2: the initiative player picks his first chit
  kMode,         // 10.5.5/10.5.7: the owner picks the order of a Move/Combat or Panzer Army chit
  kMove,         // 11.x: a movement segment
  kCombat,       // 12.x: a combat segment
  kAdvance,      // 12.6: the attacker may advance into the emptied hex
  kLoss,         // 12.3c: the owner chooses which unit loses the next step
  kRetreat,      // 12.5: the defender chooses where the next unit retreats
  kHeld,         // 10.2, 10.5.10: before a draw, the Axis may play the held Manstein/Model chit
  kRail,         // 9.2/9.4: a side's rail movement in the Strategic Movement Phase
  kNaval,        // 9.3/9.5: a side's Naval Transport in the Strategic Movement Phase
  kOver,         // 3.2: the game is over
  kAirBase,      // 8.2: a side's Air Base Segment (4.0 II)
  kAirDefend,    // 8.4: the defender may add air support before the combat is fought
  kAirSupply,    // 8.6.1 (Logistics round) / 8.6.2 (4.0 V.b): German Air Supply
  kStavkaPlace,  // 10.5.9.2: the Stavka round's units leave the Stavka Reserve
  kMandate       // 10.5.6.2: the Axis eliminates Rifle Divisions for unmade Stalin mandates
};

// 8.x one air unit's state (DvState::air_, parallel to DvGame::air_units()). The air unit
// itself stays in the Air/Assets box (Box::kAirAssets) while in play: it is never a ground
// unit on a hex; its base is `base`.
struct AirSlot {
  int32_t base = -1;  // 8.1/8.2 its base's hex (-1: not based; Tac Air has none)
  bool done = false;  // 8.4 on its "Done" side (Tac Air: used this turn, 8.3)
  int16_t back = -1;  // 8.6.2 eliminated: returns on this turn
  friend bool operator==(const AirSlot&, const AirSlot&) = default;
};

enum Segment : uint8_t { kSegMove, kSegCombat };

struct UnitState {
  int32_t hex = -1;
  Box box = Box::kPending;
  uint8_t steps = 0;              // steps left (0 off the map)
  uint8_t supply = 0;             // 0 in supply, 1 OOS, 2 IS (13.1)
  bool moved = false;             // moved this round (11.1)
  bool left = false;              // left its hex this round (10.5.6: such movers must attack)
  bool attacked = false;          // attacked this round (12.2)
  bool defended = false;          // was attacked this round (12.2)
  bool forced = false;            // force-marched this turn (11.5)
  bool started_adjacent = false;  // 10.5.6: adjacent to the enemy when the round began
  bool act = false;               // 10.4 ACT marker: in the round's command range when it began
  int16_t return_turn = -1;       // 7.9: back from the Other Fronts box on this turn
  bool strategic = false;         // 9.1: made its one Strategic Movement this turn
  friend bool operator==(const UnitState&, const UnitState&) = default;
};

// 12.3c/12.5: a combat result still to be carried out, by the owner's choices: `steps`
// step losses among `units`, or the retreat of `units` from `from`.
struct PendingResult {
  bool retreat = false;
  int side = kAxis;
  bool attacker = false;  // 12.3c: the first attacker loss goes to a full Guards army
  int steps = 0;          // losses still to take
  int taken = 0;          // losses taken so far
  int from = -1;          // the combat hex a retreat starts from
  std::string rule;       // cited in the log
  std::vector<int> units;
  friend bool operator==(const PendingResult&, const PendingResult&) = default;
};

// 12.3 one combat as assessed before the roll (combat.cpp; views use it for the preview).
struct Outcome {
  int attack = 0, defense = 0;     // after halving, doubling and additions (12.3a, 12.4)
  std::string raw_odds;            // "7-1" before the cap and the shifts
  int column = -1;                 // index into Crt::columns after the cap and shifts; -1 = automatic AE
  int shifts = 0;                  // column shifts, negative = left
  int drm = 0;                     // die roll modifiers (12.1, 12.3b)
  int table = 0;                   // 0 = CRT A, 1 = CRT B (12.1.1)
  std::vector<std::string> notes;  // "Woods: 1 left (TEC)" ...
};

// 7.10: the Soviet units withdrawn in the Soviet part of the Reinforcement/Replacement Phase
// (the Militia Corps, for an RF each), not at the start of the turn.
inline bool soviet_part_withdrawal(const UnitDef& d) {
  return d.side == kSoviet && d.type == "militia-corps";
}

class DvState : public steppe::State {
 public:
  explicit DvState(const DvGame& g) : g_(g) {}
  DvState(const DvState&) = default;

  const steppe::Game& game() const override { return g_; }
  const DvGame& dv() const { return g_; }
  int current_player() const override;
  bool is_terminal() const override { return stage_ == Stage::kOver; }
  std::vector<double> returns() const override;
  Json result() const override;
  void legal_actions(std::vector<steppe::Action>& out) const override;
  steppe::Status check(const steppe::Action& a) const override;
  std::unique_ptr<steppe::State> clone() const override { return std::make_unique<DvState>(*this); }
  Json observation(int side) const override;
  Json full_json() const override;
  uint64_t state_hash() const override;
  std::string action_to_string(const steppe::Action& a) const override;
  steppe::Result<steppe::Action> parse_action(std::string_view text) const override;
  void resample_hidden(int viewer, uint64_t seed) override;
  steppe::Status test_set(const std::vector<std::string>& words) override;
  steppe::Result<std::string> test_query(const std::vector<std::string>& words) const override;
  steppe::Result<steppe::ActionDescription> describe(const steppe::Action& a) const override;
  steppe::Result<steppe::Preview> preview(const steppe::Action& a, int viewer) const override;
  steppe::Result<steppe::Reach> reach(std::string_view unit, int viewer) const override;

  steppe::Status setup(const std::string& scenario);
  // The position format (position.cpp, docs/saves.md): written by name, read back exactly.
  steppe::Result<Json> position() const override;
  steppe::Status read_position(const steppe::JsonReader& r);
  int game_turn() const override { return turn_; }

  // ---- read access for the verb table, views and tests ----
  const UnitState& us(int u) const { return units_[static_cast<size_t>(u)]; }
  UnitState& us(int u) { return units_[static_cast<size_t>(u)]; }
  int turn() const { return turn_; }
  Stage stage() const { return stage_; }
  int active_side() const { return active_; }
  int chit() const { return chit_; }
  int segment() const { return segments_[seg_]; }
  int picked() const { return picked_; }
  int target() const { return target_; }
  const std::vector<int>& attackers() const { return attackers_; }
  int control(int h) const { return control_[static_cast<size_t>(h)]; }
  int vp() const;
  Weather weather() const { return g_.turn(turn_).weather; }
  int year() const { return g_.turn(turn_).year; }
  bool on_map(int u) const { return us(u).box == Box::kMap; }

  // ---- 5.x stacking, 6.x ZOC, 11.x movement (movement.cpp) ----
  bool stack_ok(int h, int side, const std::vector<int>& adding) const;
  void units_in(int h, std::vector<int>& out) const;
  int occupant_side(int h) const;      // side with units in h, or kNeutral
  bool zoc_of(int side, int h) const;  // 6.1: h is in the ZOC of a `side` unit
  // 6.1; `which` 0 every ZOC unit, 1 only Rifle Armies, 2 every unit but Rifle Armies (6.2).
  void compute_zoc(int side, std::vector<uint8_t>& out, int which = 0) const;
  int move_allowance(int u, bool forced) const;  // 11.3, 11.4, 11.5, 10.5.6
  bool may_force_march(int u) const;
  // Fills `pf` with where u can move now; forced = the Forced March search (11.5).
  void reach_search(int u, bool forced, steppe::PathFinder& pf) const;
  bool move_dest_ok(int u, int h, bool* forced) const;
  bool counterattack_dest_ok(int u, int h) const;
  void move_destinations(int u, std::vector<int>& out) const;
  bool active_unit(int u, Segment seg) const;  // activated by the round's chit (10.5)
  bool in_command_range(int u) const;          // 10.4, 10.5.7-10.5.10: within the round's range now
  void place_act_markers();                    // 10.4: at the start of a round
  void replace_act_markers();                  // test set-up: again while nothing has moved
  bool can_pick(int u) const;
  void do_move(int u, int to);

  // ---- 12.x combat (combat.cpp) ----
  bool may_attack_hex(int h) const;
  bool may_add(int u) const;
  bool may_join(int u, int target, const std::vector<int>& attackers) const;  // 12.2, 12.4, 15.1
  bool may_resolve() const;
  Outcome assess() const;
  void resolve_attack();
  // 12.3c/12.5: the results still to carry out, the owner's choices they wait for.
  const std::vector<PendingResult>& pending() const { return pending_; }
  void carry_out_results();
  std::vector<int> loss_choices() const;  // units that may lose the next step
  int retreating_unit() const;            // the next unit to retreat; -1 if none
  void retreat_destinations(int u, std::vector<int>& out) const;
  // 12.5 the two-hex ends; through_zoc: the 6.2 German mech exception's first hex may be in ZOC
  void retreat_ends(int u, bool through_zoc, std::vector<int>& out) const;
  bool retreat_through_zoc(int u) const;  // 6.2: only that way out (German mech, Fair/Mixed)
  void lose_step(int u);
  void retreat_to(int u, int h);
  bool may_advance(int u) const;
  void do_advance(int u);
  void end_combat();

  // ---- 13.x supply (supply.cpp) ----
  // `to`: the LOC alone, to that one hex instead of the supply sources (7.2 "a LOC to Berlin").
  void trace_supply(int side, std::vector<uint8_t>& los, std::vector<uint8_t>& loc, int to = -1) const;
  void logistics_round();  // 10.5.11
  void attrition();        // 13.8

  // ---- 2.4 control, 3.x victory (victory.cpp) ----
  void set_control(int h, int side);
  void zoc_control();
  void victory_check();  // 3.2 at the end of a turn
  void finish(int winner, const std::string& why, const std::string& rule);

  // ---- 4.0 / 10.x sequence (sequence.cpp) ----
  void start_turn();
  void begin_action_phase();
  void start_round(int chit, int side);
  void set_mode(bool move_first);
  void end_segment();
  void next_round();
  void end_turn();
  std::vector<int> initiative_choices() const;
  // 10.2 fourth exception, 10.5.10: the held Manstein/Model chit.
  bool manstein_available() const;
  void manstein_hexes(std::vector<int>& out) const;  // fully supplied Axis combat units' hexes
  void play_manstein(int h);
  int manstein_hex() const { return manstein_hex_; }
  int manstein_back() const { return manstein_back_; }
  // 10.2: on Turn 12, after the first initiative chit, the Axis may keep Fall Blau for Turn 13.
  // 10.2 third exception, 10.5.9: the held Stavka chit and its round.
  bool stavka_available() const;
  void play_stavka();
  void stavka_placement_hexes(int u, std::vector<int>& out) const;  // 10.5.9.2
  int reserve_steps(int u) const;  // 10.5.9.1: the steps a unit in the Stavka Reserve takes out of the roll
  void next_stavka_placement();    // 10.5.9.2: on to the Stavka round once no unit can still be placed
  void do_stavka_place(int u, int h);
  void end_stavka_placement();
  bool stavka_new(int u) const;             // placed from the Stavka Reserve this round
  bool stavka_via_hq(int u) const;          // placed with the Stavka or Zhukov HQ this round (10.5.9.3)
  bool stavka_restricted() const;           // 10.5.9.3 applies to this round
  bool stavka_move_ok(int u, int h) const;  // 10.5.9.3
  bool stavka_path_ok(int u, int h, const steppe::PathFinder& pf) const;
  int stavka_steps() const { return stavka_steps_; }
  // 10.5.6.1/10.5.6.2 Stalin mandates.
  void count_mandate(const Outcome& o);  // a Counterattack attack just fought
  void purge_choices(std::vector<int>& out) const;
  bool begin_purge();  // true if the Axis has eliminations to choose
  void do_purge(int u);
  int mandates() const { return mandates_; }
  int mandates_made() const { return mandates_made_; }
  int purges_left() const { return purges_left_; }
  bool may_defer_fall_blau() const {
    return stage_ == Stage::kInitiative && turn_ == 12 && fall_blau_turn_ == 0 && initiative_left_ == 1 &&
           !preset_.empty();
  }
  std::vector<int> mode_choices() const;  // 0 = move first, 1 = combat first
  bool placement_pending(int side) const;
  void placement_hexes(int u, std::vector<int>& out) const;
  void entry_hexes(int u, std::vector<int>& out,
                   const std::vector<uint8_t>* loc = nullptr) const;  // 7.2/7.3 where u may enter
  void do_place(int u, int h);
  bool may_reserve(int u) const;  // 7.3: a Soviet reinforcement may go into the Stavka Reserve now
  void do_reserve(int u);
  void advance_placement();
  // ---- 7.4-7.6 replacements (replacements.cpp) ----
  void begin_replacements(int side);
  void axis_conversions();  // 7.7, at the start of the Axis Replacement Segment
  bool in_supply_now(int u, int h) const;
  int flip_cost(int u, const std::vector<uint8_t>* los = nullptr) const;  // -1: may not be flipped now
  int rebuild_cost(int u, bool full) const;                               // -1: may not be rebuilt now
  void rebuild_hexes(int u, std::vector<int>& out, const std::vector<uint8_t>* los = nullptr,
                     const std::vector<uint8_t>* loc = nullptr) const;
  void do_flip(int u);
  void do_rebuild(int u, int h, bool full);
  int rf() const { return rf_; }
  // ---- 9.x strategic movement (strategic.cpp) ----
  void advance_strategic();  // III: the rail segments in 4.0's order, then the Action Phase
  // 9.2/9.4: where u may go by rail now (empty: it may not); `los` the side's supply trace;
  // `parent` each reached hex's predecessor on the shortest rail path (-1 none).
  void rail_destinations(int u, std::vector<int>& out, const std::vector<uint8_t>* los = nullptr,
                         std::vector<int>* parent = nullptr) const;
  // The reason u may not rail to h (with its section), or "" when it may.
  std::string rail_refusal(int u, int h, std::string* rule) const;
  std::string strategic_refusal(int u, Stage segment, const char* kind, const char* not_now,
                                std::string* rule) const;  // 9.1, shared by rail and naval
  bool rail_move_left() const;                             // 9.1: some unit of the side may still rail
  bool naval_move_left() const;                            // 9.1: some unit of the side may still sail
  void do_rail(int u, int h);
  int rail_left() const { return rail_left_; }
  // 9.3/9.5 Naval Transport: the sea is open to the side this turn; the ports u may sail to.
  bool sea_open(int side, int sea) const;
  int naval_cost(int u) const;  // steps, a mech step counting double
  void naval_destinations(int u, std::vector<int>& out) const;
  std::string naval_refusal(int u, int h, std::string* rule) const;
  void do_ship(int u, int h);
  int naval_left(int zone) const { return naval_left_[static_cast<size_t>(zone)]; }

  // ---- 8.x airpower (air.cpp) ----
  const AirSlot& air_slot(int u) const { return air_[static_cast<size_t>(g_.air_slot(u))]; }
  bool air_in_play(int u) const;          // 8.1 arrived, not withdrawn, removed or eliminated
  bool air_available(int u) const;        // 8.4 in play, based (Strategic), not Done
  bool air_in_range(int u, int h) const;  // 8.4 from its base, not through USSR Mountains
  void base_destinations(int u, std::vector<int>& out) const;  // 8.2 this Air Base Segment
  std::string base_refusal(int u, int h, std::string* rule) const;
  void do_base(int u, int h);
  bool advance_air_base();  // 4.0 II: enters a side's Air Base Segment if it has one
  std::string air_support_refusal(int u, std::string* rule) const;  // 8.3/8.4 now, for the side to move
  bool defender_air_possible() const;                      // 8.4: the defender has air that may support
  int air_factor(bool attacker, std::string* note) const;  // 8.3/8.4 capped factors of the combat
  void air_after_combat();                                 // 8.3/8.4 Tac Air off, defending air Done
  std::string bombard_refusal(int a, int target, std::string* rule) const;
  void do_bombard(int a, int target);
  std::string air_supply_refusal(int a, int h, std::string* rule) const;
  void do_air_supply(int a, int h);
  bool begin_air_supply(bool logistics);  // 8.6: enters the Air Supply window if it has a use
  void end_air_supply();
  void air_start_turn();                         // 4.0 VI Done flipped back, 8.6.2 returns, 8.3.2
  void air_overrun(int h, int side);             // 8.1 a `side` unit entered h
  void air_logistics();                          // 8.1 bases out of supply relocate
  void air_oil_check();                          // 8.8
  void air_setup();                              // DV-A2 the initial bases
  bool air_supplied(int u) const;                // 8.6.1 on an Air Supply marker
  bool enemy_air_covers(int side, int h) const;  // 9.3/9.5 h is in range of an enemy air unit
  const std::vector<int>& air_committed(bool attacker) const { return attacker ? air_att_ : air_def_; }
  int air_supply_kind() const { return air_supply_kind_; }

  void log(const std::string& kind, const std::string& text, const std::string& rule) const;

 protected:
  void do_apply(const steppe::Action& a) override;

 private:
  friend struct Verbs;
  friend struct AirVerbs;
  void finish_turn();  // 4.0 V.c and VI, after the German Air Supply Segment
  // 8.x airpower
  std::vector<AirSlot> air_;
  std::vector<int> air_att_, air_def_;  // 8.3/8.4 air committed to the combat being fought
  std::vector<int> bombarded_;          // 8.5 hexes bombarded by air this round
  std::vector<int> air_supplied_;       // 8.6.1 units on an Air Supply marker
  int air_phase_ = 0;                   // 4.0 II: 0 Axis, 1 Soviet, 2 over
  int air_supply_kind_ = 0;             // 8.6: 1 the Logistics round (8.6.1), 2 the Attrition Phase (8.6.2)
  int air_supply_left_ = 0;             // 8.6.1 units still to be supplied this round
  std::vector<int> air_supply_used_;    // 8.6.1 (air unit, units it supplied) this round, flattened
  const DvGame& g_;
  std::string scenario_;
  int first_turn_ = 1, last_turn_ = 44;
  int turn_ = 1;
  Stage stage_ = Stage::kInitiative;
  int active_ = kAxis;             // side acting in this round
  int chit_ = -1;                  // the chit being played
  std::vector<uint8_t> segments_;  // this round's segments (Segment)
  size_t seg_ = 0;
  bool mech_only_combat_ = false;  // 10.5.7 Move then mech-only Combat
  int initiative_left_ = 0;        // 10.2: initiative chits still to pick (2 on the Fall Blau turn)
  std::vector<int> preset_;        // 10.2 Turn 1: Combat then Move, played before the cup
  std::array<uint8_t, 2> used_move_{}, used_combat_{};  // 10.5.5 per side this turn
  steppe::DrawCup cup_;
  std::vector<int> pulled_;  // the Chit Pull Track this turn
  int picked_ = -1;
  int target_ = -1;
  std::vector<int> attackers_;
  std::vector<int> advancers_;          // 12.6: surviving attackers that may advance
  std::vector<PendingResult> pending_;  // 12.3c/12.5: results waiting for the owner's choices
  int manstein_hex_ = -1;               // 10.5.10: where Manstein/Model is during its round
  int manstein_back_ = 0;               // 10.5.10: the turn it may next be played (999: removed)
  int manstein_year_ = 0;               // 10.5.10: the year of its uses counted in manstein_uses_
  int manstein_uses_ = 0;
  bool held_passed_ = false;         // 10.2: the Axis let this draw go without playing it
  bool stavka_passed_ = false;       // 10.2: the Soviet let this draw go without playing Stavka
  bool stavka_played_ = false;       // 10.5.9: the Stavka chit was played this turn
  int stavka_steps_ = 0;             // 10.5.9.1: steps that may still leave the Stavka Reserve
  std::vector<int> stavka_new_;      // 10.5.9: units placed this Stavka round
  std::vector<int> stavka_hq_new_;   // 10.5.9.2/10.5.9.3: of them, those placed with Stavka/Zhukov
  int mandates_ = 0;                 // 10.5.6.1: counterattacks Stalin ordered this round
  int mandates_made_ = 0;            // 10.5.6.2: legal attacks at 1-3 or better with an in-supply unit
  int purges_left_ = 0;              // 10.5.6.2: Rifle Divisions the Axis may still eliminate
  int fall_blau_turn_ = 0;           // 10.2: the turn the Axis chose two chits (12 or 13)
  int phase1_ = 0;                   // I: 0 Axis reinforcements, 1 Axis replacements, 2/3 the Soviet ones;
                                     // III: 4 Axis rail, 5 Axis naval, 6 Soviet rail, 7 Soviet naval,
                                     // 8 done (9.2-9.5)
  std::vector<int> axis_pool_;       // 7.4 steps left by kind (DvGame::axis_kinds)
  int rf_ = 0;                       // 7.6 RF left this turn
  int rail_left_ = 0;                // 9.2/9.4 rail steps left in this segment
  std::array<int, 2> naval_left_{};  // 9.3/9.5 Naval Transport steps left: Baltic, Black Sea
  std::vector<uint8_t> rebuilt_;     // 7.6 limited types rebuilt this turn
  std::vector<UnitState> units_;
  std::vector<int8_t> control_;
  std::vector<uint8_t> fz_gone_, fort_gone_;  // 12.7.1, 12.7.2
  int axis41_ = -1;                           // 3.2 the "Axis 41" VP level
  bool axis42_ = false;                       // 3.2 the "Axis 42" marker placed
  int winner_ = kNeutral;                     // kNeutral while playing; 2 = draw
  std::string why_;
};

// 8.x the air verbs (air.cpp), rows of the verb table in verbs.cpp.
struct AirVerbs {
  static void gen_base(const DvState& s, std::vector<steppe::Action>& out);
  static steppe::Status check_base(const DvState& s, const steppe::Action& a);
  static void apply_base(DvState& s, const steppe::Action& a);
  static void end_segment(DvState& s);  // `done` in the Air Base Segment
  static void gen_air(const DvState& s, std::vector<steppe::Action>& out);
  static steppe::Status check_air(const DvState& s, const steppe::Action& a);
  static void apply_air(DvState& s, const steppe::Action& a);
  static bool resolve_opens_defence(DvState& s);  // 8.4 the attacker's `resolve`
  static void gen_bombard(const DvState& s, std::vector<steppe::Action>& out);
  static steppe::Status check_bombard(const DvState& s, const steppe::Action& a);
  static void apply_bombard(DvState& s, const steppe::Action& a);
  static void gen_airsupply(const DvState& s, std::vector<steppe::Action>& out);
  static steppe::Status check_airsupply(const DvState& s, const steppe::Action& a);
  static void apply_airsupply(DvState& s, const steppe::Action& a);
  static std::string print(const DvState& s, const steppe::Action& a);
  static steppe::Result<steppe::Action> parse(const DvState& s, uint16_t verb,
                                              std::span<const std::string_view> w);
};

}  // namespace dv
