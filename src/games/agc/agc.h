// Barbarossa: Army Group Center (rulebook seeds/001; digest 001-army-group-center.md).
//
// First playable version on the kernel (issue 23): the map, counters, charts and scenarios
// are data in data/agc/ (reconstructed; docs/agc-design.md). This module holds the rules
// only, one file per rule chapter; each rule cites its section.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "kernel/hexgrid.h"
#include "kernel/json_data.h"
#include "kernel/state.h"
#include "kernel/supply.h"

namespace agc {

using steppe::Json;

constexpr int kAxis = 0;
constexpr int kSoviet = 1;
constexpr int kNoSide = -1;

// Movement classes of movement.json (10.7): leg, motorized; green units move by rail only.
enum MoveClass : uint8_t { kLeg = 0, kMotorized = 1, kGreen = 2 };
constexpr int kWeathers = 4;  // dry, frost, mud, snow (5.1)
enum Weather : uint8_t { kDry = 0, kFrost = 1, kMud = 2, kSnow = 3 };

struct UnitDef {
  std::string id, label;
  int side = kAxis;
  int attack = 0, defense = 0, reduced_attack = 0, reduced_defense = 0;
  int ma = 0, stacking = 0, steps = 1;
  MoveClass cls = kLeg;
  bool zoc = false, combat = false;
  bool armor = false;           // 10.7.8c.2: Soviet armor pays the leg rate on minor roads in Mud
  bool cavalry = false;         // 6.7.1 Exception: cavalry keeps its MA out of supply
  bool supply_counter = false;  // 6.8.2: "A Supply counter cannot be judged out of supply"
  bool artillery = false;       // 16.7.2: cannot advance after combat (tables.json, ruling A-40)
  int support = 0, reduced_support = 0, range = 0;  // 14.2, 15.4: artillery support strength and range
  bool hq = false;                                  // 22.1: a Soviet HQ
  int command_value = 0;                            // 22.1.2
  bool nkvd = false;                                // 14.3.5, 22.8.2
  bool german = false;                              // 16.6.1a: German (including SS)
  // 17.1.1: an air unit (Fighter or Bomber, or a dummy, 17.1.4), with its Air Combat Rating,
  // CAS rating (15.1.2) and interdiction rating (13.1.2). Air units are never on the map.
  bool air = false;
  uint8_t air_type = 0;  // AirType
  int acr = 0, cas = 0, interdiction = 0;
  bool aa = false;           // 17.3: an AA unit (air.json aa_fire.aa_types)
  bool aa_eligible = false;  // 17.3.2: may fire AA (air.json aa_fire eligibility)
  // 7.2c, 8.6.1, 22.x (replacements.cpp, special_units.cpp): the unit type symbol, a Soviet HQ's
  // Recovery Value (22.2.1), tried Militia and RES units (22.10.1, 22.11), Guards (22.8.1), bridges (22.4).
  std::string type;
  int recovery = 0;
  bool militia = false, reserve = false, bridge = false;
  bool untried = false;        // 22.9.1, 22.10: placed Untried side up; its values are not known
  bool ur_mg = false;          // 22.9: a UR/MG unit (Untried ones cannot move, 22.9.2; 11.6 flips them)
  bool engineer = false;       // 22.3: an engineer unit (18.3.4, 22.3.4 with motorized)
  bool guards = false;         // 22.8: a Guards unit (22.8.1 activation, 22.8.3 surrender DRM)
  bool armored_train = false;  // 22.5: moves only by rail (11.1.2 Exception One)
  bool flotilla = false;       // 22.6
};

// replacements.json (7.1-7.3): the Soviet Replacement Tables and the Axis set-up card RPs.
struct ReplacementTables {
  struct Row {
    int fortifications = 0;
    bool e = false;    // 7.2a: the "E" Strongpoint
    int type_i = 0;    // 7.2b
    char other = 0;    // 7.2d: 'A', 'N', 'V' or 0
    char special = 0;  // 7.2e: 'M', 'R', 'S' or 0
  };
  std::vector<std::vector<Row>> soviet;  // [table - 1][row - 1]
  int die = 10;
  int mud_drm = 1, mandated_drm = 1;                        // 7.1.1, 7.2e.1
  int soviet_i_max = 20, axis_i_max = 20, axis_a_max = 10;  // the Loss/Replacement Tracks (7.2b, 7.3.1-2)
  int axis_i = 0, axis_a = 0, axis_v = 0;                   // 7.3: per turn, from the set-up cards
  bool axis_a_every_other = false;
  // tables.json victory_points (7.2e.1, 8.6, 22.2.6) and hq (22.8.1).
  int vp_mandated = 2, vp_withdrawal = 1, vp_disband = 2, guards_per_hq = 1;
};

// 17.1.1: Fighters ("F"), Bombers ("B"); dummies (17.1.4).
enum AirType : uint8_t { kFighter = 0, kBomber = 1, kDummy = 2 };
// 17.1.2: the boxes of the Air Operations Card; kAirOut: not in play (the empty scenario);
// kAirMission: face down on its mission hex (17.1.8).
enum AirBox : uint8_t { kAirOut = 0, kAirReady, kAirFlown, kAirDamaged, kAirDestroyed, kAirMission };
// 17.2.3: the results of the Air Initiative Table (air.json air_initiative).
enum AirInitiative : uint8_t {
  kMissionLta = 0,
  kMissionInitiative,
  kGetThrough,
  kInterceptInitiative,
  kInterceptLta
};

// air.json: the air tables (9.0, 13.0, 17.0).
struct AirTables {
  int ready_max = 6, damaged_max = 3;                   // 9.1: the Flown and Damaged Box ranges (1..max)
  std::array<int8_t, kWeathers> weather_drm{};          // 9.1
  int max_units = 3;                                    // 17.1.4
  std::vector<std::array<int, 3>> initiative;           // 17.2.3: roll from, roll to, AirInitiative
  int initiative_drm = 0, initiative_drm_side = kAxis;  // 17.2.3: the Air Initiative Table DRM, for
  std::vector<int> initiative_drm_months;               // that side declaring first in these months
  std::array<std::array<char, 10>, 9> combat{};         // 17.2.4: [column -4..+4][roll 1..10]: - A D E
  std::array<char, 10> aa{};                            // 17.3.3
  int aa_unit_drm = 0, aa_city_drm = 0, aa_bomber_drm = 0;
  int level_two_total = 2, max_level = 2;  // 13.1.2, 13.1.3
};

struct ScenarioDef {
  std::string id, name, description;
  int first_turn = 1, last_turn = 1;
  std::vector<int> weather;                // per turn (index turn - first_turn): 0..3
  std::vector<std::pair<int, int>> setup;  // unit, hex
  struct Arrival {
    int unit = -1, turn = 0;
    std::vector<int> hexes;
    int placement = 0;  // 8.1.4: the first `placement` hexes are placement hexes (a city), the rest map edge
  };
  std::vector<Arrival> arrivals;                  // reinforcements (8.1) and the west-face box
  std::vector<std::pair<int, int>> vp_locations;  // hex, vp
  int axis_wins_at = 0;
  std::vector<std::pair<int, AirBox>> air_setup;  // 17.1.2: air units and their starting boxes
  std::vector<std::pair<int, int>> air_arrivals;  // 8.2.3: air unit, turn (to the Ready Box)
  std::vector<uint8_t> storm;                     // 5.1.3c, 9.2: per turn, a Storm
  std::vector<uint8_t> month;                     // per turn, the month of its date (1-12; 0 none)
  // 7.1, 7.2e.1, 22.2.6, 8.3, 8.6 (replacements.cpp, reinforcements.cpp): the set-up cards.
  std::vector<uint8_t> soviet_table;  // per turn, the Soviet Replacement Table used (0: none)
  int mandated_from_turn = 0;         // 7.2e.1: "when allowed by scenario instructions"
  bool hq_recovery = true, hq_disband = true;
  std::vector<std::pair<int, int>> withdrawals;  // 8.6: unit, turn
  struct Pool {                                  // 8.3: a Special Reinforcement Pool group
    std::string id;
    int side = 0, vp = 0;  // vp: the VP penalty of choosing it (8.3.1, 8.3.2)
    std::vector<Arrival> units;
  };
  std::vector<Pool> pools;
  std::array<int, 2> rail_capacity{};  // 11.1.3: stacking points per game-turn per side
  bool axis_strongpoints = false;      // 18.3.4: "if scenario instructions allow construction"
};

// 4.2 A3, A4, D: the steps of the Strategic Segment and the Interphase that wait for a player's
// choice (replacements.cpp). They are not phases of the Phase enum: a step opens only when its
// side has something to decide, and `end` closes it.
enum StrategicStep : uint8_t {
  kNoStep = 0,
  kAxisReplacementStep,      // 7.3.3: Axis V-RPs
  kSovietReplacementStep,    // 7.2c conversion, 7.2d V-RP, 7.2e.2 the R event
  kAxisReinforcementStep,    // 8.3.2 pools, 8.4 rebuilt units, 8.6 withdrawals
  kSovietReinforcementStep,  // 8.4, 8.6
  kInterphaseStep            // 22.2.6 Non-Op HQ recovery and disbanding
};
// The StrategicStep words of positions, views and scenario tests, by StrategicStep.
inline constexpr const char* kStrategicStepWords[] = {
    "none",      "axis-replacements", "soviet-replacements", "axis-reinforcements", "soviet-reinforcements",
    "interphase"};

// Phases of one game turn (4.2). The Strategic Segment is automatic (weather, supply,
// reinforcements) and runs when a turn begins. Attacks are declared at the end of the Axis
// Movement and the Soviet Motorized Movement Phases (12.0); the enemy's Reaction Phase (14.0)
// follows each.
enum Phase : uint8_t {
  kAxisMovement = 0,
  kAxisInterdiction,  // 13.1.1: the Axis Air Interdiction Phase
  kSovietReaction,
  kAxisCombat,
  kAxisMotorizedMovement,
  kSovietMotorizedMovement,
  kAxisReaction,
  kSovietCombat,
  kSovietMovement,
  // Appended (saved positions and `set phase N` keep the numbers above): 4.2 B6, C5, C6.
  kAxisEngineering,    // 4.2 B6: after the Axis Motorized Movement Phase
  kSovietEngineering,  // 4.2 C5: after the Soviet Movement Phase
  kSovietSurrender,    // 4.2 C6, 21.1.1: the last phase of the turn
  kPhaseCount
};
// 4.2: the order of play, one Phase after another (sequence.cpp); the enum's numbers are not it.
extern const std::array<Phase, kPhaseCount> kOrderOfPlay;
// 4.2: the side of each phase's segment (B: Axis, C: Soviet), by Phase.
extern const std::array<int8_t, kPhaseCount> kSegmentSide;

// 14.3: the Orders marker on a declared attack's defender hexes.
enum Order : uint8_t { kNoOrder = 0, kNoRetreat = 1, kAdditionalRetreat = 2 };

// 12.0: one declared attack: the Declared Attack markers on its defender hexes (12.8: several
// hexes in one attack), the units designated to attack (12.3.3), and the defender's reaction
// (14.2 artillery committed to it, 14.3 its Orders marker).
struct Declared {
  std::vector<int16_t> hexes, units, support;
  Order order = kNoOrder;
  bool resolved = false;
  bool mandated = false;  // 12.4: a Soviet Mandated Attack, identified when declared
  int8_t cas = 0;         // 15.1.2: the net CAS rating (attacker's points positive)
};

class AgcGame;
steppe::Result<std::unique_ptr<steppe::Game>> load_game(const std::filesystem::path& data_dir);
// replacements.cpp: replacements.json and tables.json (7.0, 8.6, 22.2.6), and a scenario's set-up
// card entries for chapters 7, 8 and 22.
steppe::Status load_replacement_data(AgcGame& g, const Json& repl, const Json& tables);
steppe::Status load_scenario_cards(const AgcGame& g, const Json& s, ScenarioDef& sc);

class AgcGame : public steppe::Game {
 public:
  std::string id() const override { return "agc"; }
  std::string name() const override { return "Barbarossa: Army Group Center"; }
  std::vector<std::string> side_names() const override { return {"axis", "soviet"}; }
  std::vector<steppe::ScenarioInfo> scenarios() const override;
  steppe::Result<std::unique_ptr<steppe::State>> new_state(const std::string& scenario,
                                                           uint64_t seed) const override;
  std::string rules_hash() const override { return rules_hash_; }
  Json map_json() const override;
  steppe::Result<Json> describe_location(const std::string& id) const override;
  // position.cpp (docs/saves.md, "Positions").
  steppe::Result<std::unique_ptr<steppe::State>> state_from_position(const Json& position) const override;

  const steppe::HexGrid& grid() const { return grid_; }
  int unit_index(std::string_view id) const;

  steppe::HexGrid grid_;
  std::vector<uint8_t> terrain_;     // per hex: index into terrain_names_
  std::vector<uint8_t> settlement_;  // 0 none, 1 town, 2 city, 3 major city
  std::vector<int8_t> control0_;     // per hex: side controlling it at the start
  std::vector<std::string> terrain_names_;
  steppe::HexSideBits river_, major_river_, all_lake_, road_bridge_, rail_bridge_;
  // 10.7.7: the hexsides each road type crosses (motorway, main road, minor road), and the
  // railroads' (10.6 Mud ZOC, 10.7.6).
  std::array<steppe::HexSideBits, 3> road_;
  steppe::HexSideBits rail_;
  // 10.7.7, 10.7.8: road rates in half MPs [road type][weather]; the minor road's [clear or
  // other][class][weather]; -1 prohibited, -2 "the Mud column of the hex terrain, woods
  // ignored" (10.7.8c.2).
  std::array<std::array<int8_t, kWeathers>, 2> major_road_halves_{};
  std::array<std::array<std::array<int8_t, kWeathers>, 2>, 2> minor_road_halves_{};
  int woods_terrain_ = -1, clear_terrain_ = 0;
  std::array<int8_t, kWeathers> major_river_snow_plus_{};  // 10.7.9d
  std::array<bool, kWeathers> lake_hexside_open_{};        // 10.7.10: all-lake hexsides frozen
  std::array<bool, kWeathers> infiltration_allowed_{};     // 11.5.5
  int enemy_zoc_plus_ = 1;                                 // 10.6.4
  int infiltration_min_ma_ = 7;                            // 10.1.5, ruling A-10
  std::vector<int> supply_edge_[2];                        // 6.5: the sides' supply source hexes
  std::array<int8_t, kWeathers> loc_hexes_{};              // 6.2.2: 7, 5 in Mud or Snow
  int loc_reduced_hexes_ = 5;                              // 6.2.2a-d
  std::array<int8_t, kWeathers> road_net_hexes_{};         // 6.3 (ruling A-2): 21, 15 in Mud or Snow
  int swamp_terrain_ = -1, marsh_terrain_ = -1, lake_terrain_ = -1;
  // 10.7: cost to enter a hex [terrain][class][weather]; -1 prohibited.
  std::vector<std::array<std::array<int8_t, kWeathers>, 2>> hex_cost_;
  std::array<std::array<int8_t, kWeathers>, 2> river_cost_{};  // 10.7.4: added across a river
  std::vector<int8_t> terrain_drm_;                            // cec.json hex drm, per terrain
  std::vector<uint8_t> terrain_attack_from_halved_;            // 15.5.2a (cec.json swamp)
  std::array<bool, 4> settlement_armor_halved_{};              // 15.5.2c, by settlement 0-3
  std::array<bool, kWeathers> major_river_attack_halved_{};    // 15.5.2b: "except snow"
  std::array<bool, kWeathers> lake_attack_open_{};             // cec.json all-lake: "snow only"
  int river_drm_ = 0;                                          // 15.6.1b (cec.json hexside river)
  std::vector<uint8_t> terrain_zoc_into_;
  std::array<bool, kWeathers> zoc_across_major_river_{};  // 10.6
  // Movement Phase Chart: MA fraction in halves (2 = full, 1 = half, 0 = none) per phase and class.
  std::array<std::array<uint8_t, 2>, kPhaseCount> ma_halves_{};
  // CRT (15.8)
  std::vector<std::pair<int, int>> crt_columns_;  // odds a-b as (a*2, b*2) to keep 1.5-1
  std::vector<std::array<std::pair<std::string, std::string>, 12>> crt_;
  int drm_limit_ = 3, drm_defender_out_of_supply_ = -1;
  int stacking_limit_ = 10;
  int retreat_safe_max_ = 3;  // 16.6.6: a modified roll this high or lower is safe
  int retreat_hexes_ = 2, additional_retreat_hexes_ = 3;  // 16.6.1
  int hq_range_ = 4;                                      // 22.1.1: Command Range
  int reaction_range_ = 3;                                // 14.1.1: from a declared combat hex
  std::array<bool, 4> nkvd_no_retreat_{};                 // 14.3.5: by settlement 0-3
  std::vector<uint8_t> terrain_protective_;               // 16.6.1b (cec.json), per terrain
  std::array<bool, 4> settlement_protective_{};           // 16.6.1b, by settlement 0-3
  int drm_no_retreat_ = 1;                                // 15.6.2: Defender No Retreat
  std::pair<int, int> mandated_min_{6, 4};                // 12.4: 3-2, doubled as crt_columns_
  AirTables air_;                                         // air.json
  ReplacementTables repl_;                                // replacements.json (7.0)
  // movement.json rail_movement, strategic_movement (11.1, 11.3)
  int rail_hexes_ = 60, armored_train_hexes_ = 48, rail_interdicted_cost_ = 12, rail_enemy_distance_ = 3;
  int rail_zero_points_ = 1;
  int strategic_ma_halves_ = 3, strategic_enemy_distance_ = 3;  // 11.3.2: MA x 1.5, as half MPs per MP
  int strongpoint_drm_ = 1, overrun_marked_drm_ = -1;           // 18.3.6, 11.4.4d (tables.json, cec.json)
  // surrender.json (21.1.2): a modified roll in [surrender_from_, ..] surrenders; the DRMs.
  int surrender_from_ = 7, surrender_guards_drm_ = -2, surrender_major_city_drm_ = -1;
  int surrender_town_city_fort_drm_ = -1, surrender_all_oos_drm_ = 1, surrender_hq_drm_ = -1;
  std::vector<UnitDef> units_;
  std::vector<ScenarioDef> scenarios_;
  std::string rules_hash_;
  Json map_doc_;
};

struct UnitState {
  int16_t hex = -1;  // -1 off map
  int8_t steps_lost = 0;
  int8_t mp_left = 0;   // this phase, in half MPs (10.7.7 road rates of one-half MP)
  int8_t road_in = -1;  // half MPs paid to enter this hex along a road, -1 if not (10.7.7 Case Four)
  bool moved = false;   // has spent MPs this phase (10.5.3 One Hex Movement)
  bool attacked = false;
  bool out_of_supply = false;  // 6.6.4: an Out of Supply marker
  bool emergency = false;      // 6.6.3: an Emergency Supply marker (treated as in General Supply)
  bool eliminated = false;
  bool moved_in_zoc = false;
  bool may_advance = false;  // 16.7.2: a victorious attacker of the open advance (advance_hex_)
  int8_t orders_issued = 0;  // 22.1.2c: a Soviet HQ's command points spent on Orders this segment
  int8_t dispatched = 0;     // 22.1.2b: a Soviet HQ's command points spent on reaction this segment
  // 17.1: an air unit's box, and on a mission its mission hex and its role (17.2.2).
  uint8_t box = kAirOut;
  int16_t mission = -1;
  bool firing = false;
  bool role_open = false;        // 17.2.2a.2: a dual purpose fighter whose role is not yet declared
  int16_t target = -1;           // 17.2.4a: the enemy air unit a firing unit engages
  uint8_t seq = 0;               // 17.2.4a: the order of the engagements ("the first attacker")
  bool retarget = false;         // 17.2.4e: unengaged after the first round, to select a new target
  bool nonop = false;            // 22.2: a Soviet HQ on its Non-Operational side
  bool activated = false;        // 10.2.4c: an Activated marker (removed in the Interphase)
  bool withdrawn = false;        // 8.6: withdrawn from the game
  uint8_t rebuild = 0;           // 20.2, 8.4: 1 in the Cadre Box, 2 in the Active Box (off the map)
  int8_t activations = 0;        // 22.1.2a: a Soviet HQ's command points spent on activation this turn
  bool guards_used = false;      // 22.8.1: its free Guards activation is spent
  bool recovery_rolled = false;  // 22.2.6a: rolled for in this Interphase
  int8_t restricted_moved = 0;   // 22.2.5g: a Non-Op HQ's: units begun in its range that moved this phase
  bool tried = false;            // 22.9.1: an Untried unit flipped to its Tried side (11.6, 15.5.4)
  bool overrun = false;          // 11.4.4: an Overrun marker
  bool railed = false;           // 11.1.2: moved by rail this game-turn ("only once per game-turn")
  bool strategic = false;        // 11.3: using strategic movement this phase
};

class AgcState : public steppe::State {
 public:
  AgcState(const AgcGame& g, const ScenarioDef* sc, uint64_t seed);

  const steppe::Game& game() const override { return *g_; }
  int current_player() const override;
  bool is_terminal() const override { return over_; }
  std::vector<double> returns() const override;
  Json result() const override;
  void legal_actions(std::vector<steppe::Action>& out) const override;
  steppe::Status check(const steppe::Action& a) const override;
  // 12.0: a declaration by any subset of the units able to attack (12.2) is checked like any
  // other; legal_actions() lists the whole-hex, one-unit and two-hex forms only.
  bool unlisted_form(const steppe::Action& a) const override;
  std::unique_ptr<steppe::State> clone() const override { return std::make_unique<AgcState>(*this); }
  // Everything is open but the Orders markers: 14.3.2 "placed face down on the defender hex. The
  // marker will be revealed during the upcoming enemy combat phase" (state.cpp).
  Json observation(int side) const override;
  void resample_hidden(int viewer, uint64_t seed) override;  // 14.3.2, 17.1.8 (reaction.cpp)
  steppe::Status query_allowed(int side, const std::vector<std::string>& words) const override;  // 17.1.8
  Json full_json() const override;
  uint64_t state_hash() const override;
  std::string action_to_string(const steppe::Action& a) const override;
  steppe::Result<steppe::Action> parse_action(std::string_view text) const override;
  steppe::Status test_set(const std::vector<std::string>& words) override;
  steppe::Result<std::string> test_query(const std::vector<std::string>& words) const override;
  // position.cpp (docs/saves.md, "Positions"): the whole state by name, and back.
  steppe::Result<Json> position() const override;
  int game_turn() const override { return turn_; }
  steppe::Status read_position(const steppe::JsonReader& r);

  // ---- rules (each in its chapter's file) ----
  const AgcGame& g() const { return *g_; }
  int weather() const;
  int8_t weather_override_ = -1;  // a scenario test's `set weather` (docs/scenario-tests.md)
  int side_of_phase() const;
  int attacker_side() const { return kSegmentSide[phase_]; }  // 4.2: the segment's player
  bool reaction_phase() const { return phase_ == kSovietReaction || phase_ == kAxisReaction; }
  bool combat_phase() const { return phase_ == kAxisCombat || phase_ == kSovietCombat; }
  bool declaration_phase() const { return phase_ == kAxisMovement || phase_ == kSovietMotorizedMovement; }
  // 4.2 B6, C5: the friendly Engineering Phase (18.3.5 Strongpoints, 19 rail conversion, 20.0
  // replacements "during their respective friendly Engineering Phases").
  bool engineering_phase() const { return phase_ == kAxisEngineering || phase_ == kSovietEngineering; }
  bool surrender_phase() const { return phase_ == kSovietSurrender; }  // 4.2 C6, 21.1.1
  // sequence.cpp (4.2)
  void begin_turn();
  void begin_phase();
  void end_phase();
  void enforce_stacking(int side, const char* rule);
  static Phase next_phase(Phase p);  // 4.2: the phase after p in kOrderOfPlay, kPhaseCount after the last
  // 4.2: may the phase's player do anything in it? An Engineering or Surrender Phase in which he can
  // do nothing is passed automatically (engineering.cpp, surrender.cpp).
  bool phase_has_play() const;
  static const char* phase_name(Phase p);  // "Axis Engineering Phase" (4.2)
  // engineering.cpp (4.2 B6, C5; 11.4.4 Note; 18.3 Strongpoints)
  void begin_engineering();
  void end_engineering();
  // surrender.cpp (21.0 Soviet Surrender)
  void begin_surrender();
  // state.cpp (3.0e, 3.0f): stacking and zones of control
  void rebuild_occupancy();
  int stack_points(int hex, int side) const { return stack_[side][hex]; }
  int occupant(int hex) const;  // side with units in hex, or kNoSide
  bool in_enemy_zoc(int hex, int side) const { return zoc_[1 - side][hex] != 0; }
  void place(int unit, int hex);
  int attack_of(int u) const;
  int defense_of(int u) const;
  int steps_left(int u) const { return g_->units_[u].steps - us_[u].steps_lost; }
  void lose_step(int u, const char* rule);
  // zoc.cpp (3.0f)
  bool projects_zoc(int hex, int dir, bool all_motorized) const;
  // movement.cpp (10.0)
  struct MoveCost {
    int halves = -1;        // -1 prohibited
    bool by_road = false;   // 10.7.7: entered along a road
    bool whole_ma = false;  // 10.7.9c unbridged major river, 11.5.2 infiltration
    const char* rule = "10.7";
  };
  MoveCost move_cost(int unit, int from, int to) const;
  int enter_cost(int unit, int from, int to) const { return move_cost(unit, from, to).halves; }
  int terrain_halves(int unit, int hex) const;  // off-road cost to occupy hex, -1 prohibited
  bool can_infiltrate(int unit) const;
  steppe::Status check_move(int unit, int to) const;
  void do_move(int unit, int to);
  int ma_this_phase(int unit) const;
  bool moves_this_phase(int unit) const;  // the Movement Phase Chart gives it an MA (4.2)
  // combat.cpp (15.0, 16.0)
  steppe::Status check_attack(int hex) const;
  void attackers_of(int hex, std::vector<int>& out) const;
  bool projects_zoc_into(int from, int into) const;  // 12.5.1 Condition One
  void defenders_of(int hex, std::vector<int>& out) const;
  int odds_column(int att, int def) const;  // -1: below 1-4
  int attack_halves(int u, int hex) const;  // 15.5.2: the unit's attack on hex, in halves
  int combat_drm(int hex, const std::vector<int>& attackers) const;
  // The force of the declared attack decl now (15.2, 15.5): attackers, defenders, and the
  // attack and defense totals in halves (15.5.2, 14.2 support included).
  void combat_force(int decl, std::vector<int>& att, std::vector<int>& def, int& a, int& d) const;
  void do_attack(int hex);
  void retreat(int u, int from_hex, int hexes, bool additional = false);
  // 16.7 Advance After Combat: open after a combat that vacated the defender hex.
  steppe::Status check_advance(int u) const;
  void do_advance(int u);
  void do_hold();        // 16.7.1: "A player is not forced to advance a unit."
  void close_advance();  // 16.7.1: the attacker is done advancing (hold, end, or nobody left)
  // declaration.cpp (12.0 Attack Declaration)
  int declaration_of(int hex) const;           // index into decl_ of the declared attack on hex, or -1
  bool may_attack_into(int u, int hex) const;  // 12.1.1, 12.5: could u attack hex from where it is
  steppe::Status check_declare(const std::vector<int>& hexes, const std::vector<int>& units,
                               bool mandated = false) const;
  void do_declare(const std::vector<int>& hexes, const std::vector<int>& units, bool mandated = false);
  int mandated_declared() const;  // 12.4: Mandated Attacks declared and not yet made
  steppe::Status check_undeclare(int hex) const;
  void do_undeclare(int hex);
  steppe::Status check_declarations_complete() const;  // 12.7, before the phase ends
  void declared_odds(const std::vector<int>& hexes, const std::vector<int>& units, int& a, int& d) const;
  // reaction.cpp (14.0 Defender Reaction)
  int hq_for(int hex, bool orders) const;  // 14.3.4, 14.1.1b: an HQ in range with a point, or -1
  steppe::Status check_order(int hex, Order o) const;
  void do_order(int hex, Order o);
  steppe::Status check_support(int u, int hex) const;
  void do_support(int u, int hex);
  steppe::Status check_reaction_move(int u, int to) const;  // 14.1
  void dispatch_reaction(int u);                            // 14.1.1b: the HQ's command point
  int support_of(int u) const;
  Order order_of(int decl) const;  // 14.3.1, 14.3.5 (NKVD)
  // supply.cpp (6.0): the Supply Determination Phase (6.6) sets the markers of every on-map
  // unit; supply_map fills, per hex, 1 where a unit of `side` there could trace a Supply Route.
  void trace_supply();
  void supply_map(int side, std::vector<uint8_t>& out) const;
  // air.cpp (17.0 Airpower, 9.0 Air Unit Readiness, 13.1 Interdiction)
  bool air_step_open(int side) const;  // 17.1: may `side` fly a mission in this step
  steppe::Status check_fly(int u, int hex) const;
  void do_fly(int u, int hex);
  bool dual_purpose(int u) const;  // 17.2.2a.2, for the missions of this phase
  int role_side() const;           // 17.2.2: the side to declare its dual purpose fighters, or kNoSide
  steppe::Status check_role(int u, bool firing) const;
  void do_role(int u, bool firing);
  steppe::Status check_engage(int f, int t) const;  // 17.2.4a, e
  void do_engage(int f, int t);
  void continue_air();
  bool listed_fly_hex(int hex) const;  // the mission hexes legal_actions() offers
  int mission_units(int hex, int side) const;
  void air_end_step();      // `end` in an air step: the next step, or the missions resolved
  void begin_air_steps();   // 17.1.7: the CAS steps that open a Combat Phase
  bool resolve_missions();  // 17.2, 17.3 and the missions' effects; false: paused for 17.2.2 roles
  bool resolve_air_hex(int hex);
  void air_readiness();  // 9.1-9.3
  void to_box(int u, AirBox b, const char* rule);
  bool storm() const;
  int8_t storm_override_ = -1;            // a scenario test's `set storm`
  int interdiction_level(int hex) const;  // 13.1.3: the Zone of Interdiction level, 0..2
  int command_value(int hq) const;        // 22.1.2 less 13.2.5
  // replacements.cpp (7.0), reinforcements.cpp (8.0), special_units.cpp (22.1-22.4): the steps of
  // the Strategic Segment and the Interphase that wait for a choice (StrategicStep).
  void strategic_segment(int test_table = -1);  // 4.2 A3, A4: from the Replacements Phase on
  void next_strategic_step();                   // opens the next step with a choice, or ends the segment
  void end_strategic_step();                    // `end` in a step
  int strategic_side() const;                   // the side deciding in strategic_
  bool strategic_choice(int step) const;        // does the step have anything to decide
  void replacement_phase(int test_table = -1);  // 7.1-7.3: the automatic part (a test's table)
  void reinforcement_phase();                   // 8.1-8.6: the automatic part
  void withdraw_due();                          // 8.6.1: the withdrawals left at the end of the step
  void interphase();                            // D: 7.2e.1, 22.2.6, 10.2.4c markers; then the next turn
  bool hq_operational_in(int hex) const;        // 22.2.2: no Non-Op HQ's range covers hex
  bool placement_ok(int unit, int hex, std::string* why) const;  // 8.1.4, 8.4a
  int max_artillery(int hex) const;  // 22.2.5d: Soviet artillery units that may support a combat on hex
  void start_player_segments();      // sequence.cpp: 8.2.3, A5, then the Axis Movement Phase
  void next_turn();                  // sequence.cpp: after the Interphase
  void arrive(const ScenarioDef::Arrival& a, const char* rule);  // 8.1: enter at the first hex that qualifies
  void make_nonop(int hq, const char* why, const char* rule);    // 22.2.3
  int activating_hq(int u) const;                   // 10.2.4c: the HQ that can activate u now, or -1
  steppe::Status check_nonop_move(int unit) const;  // 22.2.5g: the Movement Restriction
  void note_nonop_start(int unit);                  // 22.2.5g: a unit begins moving
  bool chapter_set(const std::vector<std::string>& words, steppe::Status& st);  // test words (7, 8, 22)
  bool chapter_query(const std::vector<std::string>& words, std::string& out, std::string& err) const;
  Json chapter_json() const;                // the RP tracks and the steps, for the views
  void soviet_replacement_roll(int table);  // 7.1.1
  // An event from the chapter files' free functions (emit is protected in steppe::State).
  void log(std::string kind, std::string text, std::string rule) const {
    emit({std::move(kind), std::move(text), std::move(rule), 0xFFFFFFFFu, false, {}});
  }
  int roll_die(int sides, const std::string& why, const std::string& rule) { return roll(sides, why, rule); }
  int vp_adjust_ = 0;  // 24.1: VPs for actions (7.2e.1, 8.3, 8.6, 22.2.6)
  uint8_t strategic_ = kNoStep;
  std::array<int8_t, 2> rp_i_{}, rp_v_{};  // 7.2b, 7.3.1 the I tracks; 7.2d, 7.3.3 V-RPs this phase
  int8_t rp_a_axis_ = 0;                   // 7.3.2 the Axis A track
  int8_t rp_a_soviet_ = 0, rp_n_ = 0;      // 7.2d: this turn only
  int8_t strongpoints_ = 0;                // 7.2a: Strongpoints to place this turn
  bool e_strongpoint_ = false;             // 7.2a: the "E" Strongpoint
  int8_t extra_asp_ = 0;                   // 7.2e.3
  bool r_event_ = false;                   // 7.2e.2: an R result not yet used
  int8_t replacement_roll_ = -1;           // 7.1.1: this turn's modified roll (-1 none)
  uint64_t vp_held_ = 0;                   // 7.2e.1: the VP locations the Axis held when the turn began
  uint32_t pools_used_ = 0;                // 8.3: the pool groups chosen
  std::vector<int16_t> withdraw_due_;      // 8.6: units to withdraw at the end of the step
  int8_t disbanded_ = 0;                   // 22.2.6b: HQs disbanded this Interphase
  // 22.9.1: a face-down Untried unit, whose strengths and MA are not known.
  bool untried(int u) const { return g_->units_[u].untried && !us_[u].tried; }
  void reveal(int u, const char* rule);    // 22.9.1: flip to the Tried side (a 0-defense unit leaves)
  steppe::Status check_flip(int u) const;  // 11.6.1
  void resample_untried(uint64_t& x);      // 22.9.1: a determinization draws the Untried counters anew
  // specialized.cpp (11.0 Specialized Movement)
  steppe::Status check_rail(int u, int to) const;  // 11.1
  void do_rail(int u, int to);
  steppe::Status check_rail_start(int u) const;  // 11.1.1-11.1.3: may the unit move by rail at all
  std::vector<int> rail_reach_of(int u) const;   // 11.1.2, 11.1.5: rail MPs to each hex, -1 no route
  std::vector<int> rail_reach_with(int u, const std::vector<uint8_t>& near) const;
  std::vector<uint8_t> near_enemy_of(int side, int dist) const;  // 1: fewer than dist hexes from the enemy
  int rail_capacity_left(int side) const;
  int rail_points(int u) const;                 // 11.1.3: the rail capacity the unit uses
  steppe::Status check_strategic(int u) const;  // 11.3.1
  steppe::Status check_strategic_step(int u, int to, bool by_road) const;  // 11.3.1c-e, 11.3.3
  void do_strategic(int u);
  // surrender.cpp (21.0)
  bool surrender_due(int hex) const;  // 21.1.1: does the Soviet player check this hex
  int surrender_drm(int hex) const;
  // engineering.cpp (18.3)
  steppe::Status check_strongpoint(int hex) const;  // 18.3.1, 18.3.3, 18.3.4
  void do_strongpoint(int hex);
  bool strongpoint(int hex, int side) const;  // a completed, non-destroyed Strongpoint of side in hex
  // victory.cpp (24.0)
  int axis_vp() const;
  void finish();

  const AgcGame* g_;
  const ScenarioDef* sc_;
  int turn_ = 1;
  Phase phase_ = kAxisMovement;
  bool over_ = false;
  std::vector<UnitState> us_;
  std::vector<int8_t> control_;                // per hex
  std::array<std::vector<uint8_t>, 2> stack_;  // stacking points per hex per side
  std::array<std::vector<uint8_t>, 2> zoc_;    // 1 where the side exerts a ZOC
  std::vector<uint8_t> attacked_hex_;          // defender hexes attacked this phase (15.1)
  int advance_hex_ = -1;                       // 16.7: the vacated hex open to an advance
  std::vector<Declared> decl_;                 // 12.0: the declared attacks of this segment
  bool declaring_ = false;                     // 12.0: attacks declared, movement is over
  int mandated_owed_ = 0;                      // 7.1.1e: the Mandated Attack Not Yet Made marker
  // 17.1.6, 17.1.7: the air step of the phase: in the Interdiction Phase 0 Axis missions, 1 Soviet
  // fighters; in a Combat Phase 0 attacker's CAS, 1 defender's CAS, 2 missions resolved.
  // 3: the missions are being resolved and a dual purpose fighter's role is to be declared (17.2.2)
  // on the mission hex air_hex_, whose air units are revealed (17.2.1).
  uint8_t air_step_ = 0;
  int16_t air_hex_ = -1;
  // 17.2.3: the Air Initiative result over air_hex_ (-1 not rolled), the side holding it, and the
  // round of fire reached (0 pairing, 1 fired, 2 done); air_step_ 4 pairing, 5 new targets (17.2.4e).
  int8_t air_init_ = -1, air_side_ = kNoSide;
  uint8_t air_round_ = 0;
  std::vector<uint8_t> interdiction_;             // 13.1.2: the Interdiction marker's level on each hex
  std::shared_ptr<steppe::SupplyTracer> tracer_;  // scratch only; not state
  // 18.3: the Strongpoint on each hex: 0 none, 1 + side under construction, 3 + side completed
  // (18.3.5); a destroyed one is removed.
  std::vector<uint8_t> strongpoint_;
  std::array<int8_t, 2> strongpoints_left_{};  // 18.3.3: Strongpoints the side may still begin this turn
  std::array<int16_t, 2> rail_used_{};         // 11.1.3: rail capacity used this game-turn
  bool flipping_ = false;  // 11.6.1: Untried units are being flipped: known-MA moves are over

 protected:
  void do_apply(const steppe::Action& a) override;
};

// Verb ids (verbs.cpp).
enum Verb : uint16_t {
  kMove = 1,
  kAttack = 2,
  kEnd = 3,
  kAdvance = 4,
  kHold = 5,
  kDeclare = 6,
  kUndeclare = 7,
  kOrder = 8,
  kSupport = 9,
  kFly = 10,
  kRole = 11,
  kEngage = 12,
  // 20..29: specialized movement (11.0), Strongpoints (18.3)
  kRail = 20,         // 11.1
  kFlip = 21,         // 11.6.1
  kStrategic = 22,    // 11.3
  kStrongpoint = 23,  // 18.3.5
  // replacements.cpp, reinforcements.cpp, special_units.cpp (7.0, 8.0, 22.0)
  kConvert = 30,  // 7.2c
  kRepair = 31,   // 7.2d V, 7.3.3
  kREvent = 32,   // 7.2e.2
  kPool = 33,     // 8.3
  kEnter = 34,    // 8.4
  kKeep = 35,     // 8.6.3
  kRecover = 36,  // 22.2.6a
  kDisband = 37,  // 22.2.6b
  kActivate = 38  // 10.2.4c, 22.1.2a
};

// The verbs of ids 30..39 (replacements.cpp): state.cpp's verb table reaches them through these.
bool chapter_verb(uint16_t verb);
void gen_chapter_verbs(const AgcState& s, std::vector<steppe::Action>& out);
steppe::Status check_chapter_verb(const AgcState& s, const steppe::Action& a);
void apply_chapter_verb(AgcState& s, const steppe::Action& a);
std::string print_chapter_verb(const AgcState& s, const steppe::Action& a);
steppe::Result<steppe::Action> parse_chapter_verb(uint16_t verb, const AgcState& s,
                                                  std::span<const std::string_view> args);

}  // namespace agc
