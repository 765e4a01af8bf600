// Barbarossa Deluxe position: units, control, markers, phase, pending decisions.
// Every rule cites its rulebook section (seeds/000, digest 000-barbarossa-deluxe.md).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "games/bd/bd_data.h"
#include "kernel/json_data.h"
#include "kernel/state.h"
#include "kernel/verbs.h"

namespace steppe {
class SupplyTracer;
}

namespace bd {

using steppe::Action;
using steppe::Status;

// Verbs of the action notation (printed and parsed by action_to_string / parse_action).
enum Verb : uint16_t {
  kVerbNone = 0,
  kEndPhase,         // end-phase
  kMove,             // move <unit> <hex> <hex>...       (path starts at the unit's hex)
  kAttackFrom,       // attack <target> from <hex>... [lw]
  kAttackWith,       // attack <target> with <unit>... [lw]
  kMobileAssault,    // mobile-assault <target> with <unit>... [lw]
  kOrder,            // order move-fight | fight-move | fight-fight
  kPaulus,           // paulus take | decline
  kZone1942,         // zone north | south
  kEnter,            // enter <unit> <hex>                (reinforcement, 8.1)
  kReplace,          // replace <unit> <hex> | rvgk       (8.12)
  kRvgkIn,           // rvgk-in <unit>
  kRvgkOut,          // rvgk-out <unit> <hex>
  kOffSupply,        // osupply <A|B|C> <hex>
  kRetreat,          // retreat <hex>
  kAdvance,          // advance <unit>
  kAdvanceDone,      // advance-done
  kBbChoice,         // convert-bb dr | bb
  kLwDefend,         // luftwaffe-defend yes | no
  kSetup,            // setup <unit> <hex>
  kWithdraw,         // withdraw <unit>
  kDeclineWithdraw,  // decline-withdrawal
  kHeroCity,         // hero-city <hex>
  kAdvance2,         // advance-second <unit> <hex>   (11.32)
  kFortressCity,     // fortress-city <hex>           (9.2)
  kFortifiedArea,    // fortified-area <hex>          (8.18)
  kAerialSupply,     // aerial-supply <hex>           (7.7)
  kStrategic,        // strategic <unit> <hex>        (8.6, 8.7)
  kEmergencyRvgk,    // emergency-rvgk <unit> <hex> | no-emergency-rvgk (8.11)
  kNoEmergencyRvgk,
  kSummerOffensive,  // summer-offensive                (4.4, German admin GT17-19)
  kWatch,            // watch rhine | oder              (4.18, German admin GT28, secret)
  kCrimeaSupply,     // crimea-supply on | off            (7.4)
  kSeaMove,          // sea-move <unit> <hex>              (10.16, 10.17)
  kConvert,          // convert <guards|shock> <rifle-army> (8.20, Soviet admin)
  kCombOut,          // comb-out                        (8.16, start of a German player turn)
  kEastWall,         // east-wall <hex>                 (8.5, German admin GT19)
  kCaucasusLaunch,   // caucasus-launch <unit> <unit> <unit>          (4.11, German movement phase)
  kCaucasusSend,     // caucasus-send <unit>                          (4.12, Soviet response)
  kCaucasusRefuse,   // caucasus-refuse                               (4.12: the German wins)
  kCaucasusRecall,   // caucasus-recall <unit> <hex> <unit> <hex>...  (4.13, German movement phase)
  kCaucasusLeave,    // caucasus-leave <unit> <hex>                   (4.13, Soviet movement phase)
  kMansteinsGambit,  // mansteins-gambit   (4.16: the 1943 summer offensive run as Manstein's Gambit)
  kTakeRetreat,      // take-retreat yes | no              (13.9, Soviet, before the die roll)
  kSupport,          // support artillery|air-army <unit> | support interceptor|partisans|airborne (8.36-8.41)
  kSupportDone,      // support-done                    (8.41: no more support for this battle)
  kBulgariaExit,     // bulgaria-exit <unit>            (8.26, Soviet movement phase)
  kBulgariaReturn,   // bulgaria-return <hex>           (8.26, the next Soviet movement phase)
  kOverstackRemove,  // overstack-remove <unit>            (6.2, the opponent of an over-stacked hex)
  kBbLoss,           // bb-loss <unit>                     (11.26, the attacker's Bloodbath losses)
  kAttach,           // attach <TB|CM> <corps|army>       (8.31, 8.32: arrival, strategic / RVGK transfer)
  kLetAttack,        // let-attack                        (9.7: the defender lets a declared attack go on)
  kNumVerbs
};

enum Where : uint8_t { kOutOfPlay, kOnMap, kDead, kDeadPerm, kRvgk, kCaucasus, kTrrt, kToSetUp, kInBulgaria };
const char* where_name(int w);

enum Phase : uint8_t {
  kSetupPhase,
  kAdminGerman,
  kAdminSoviet,
  kGermanOrder,
  kGermanB,
  kGermanC,
  kSovietOrder,
  kSovietOSupply,
  kSovietRvgk,
  kSovietB,
  kSovietC,
  kGameOver,
  kGermanStrategic,  // II.A (8.6), GT9-29
  kNumPhases
};
const char* phase_name(int p);
int parse_phase(std::string_view s);

enum PhaseOrder : uint8_t { kOrderNone, kMoveFight, kFightMove, kFightFight };
enum SupplyState : uint8_t {
  kSupOverland,
  kSupGarrison,
  kSupCoastal,
  kSupAerial,
  kSupOos,
  kSupAlways,
  kSupNone,
  kSupCrimea  // 7.4 (after kSupNone: older values keep their numbers)
};
const char* supply_name(int s);

enum Pending : uint8_t {
  kPendNone,
  kPendLwDefend,
  kPendBbChoice,
  kPendRetreat,
  kPendAdvance,
  kPendEmergency,
  kPendCaucasus,     // 4.12 the Soviet sends rifle armies into the Caucasus box
  kPendTakeRetreat,  // 13.9: the Soviet may take a Defender Retreat before the die roll
  kPendSupport,      // 8.36-8.41 the Soviet commits support markers to his prepared assault
  kPendOverstack,    // 6.2: the opponent removes units of an over-stacked hex, one at a time
  kPendBbLoss,       // 11.26: the attacker chooses which units pay for a Bloodbath, one at a time
  kPendInterrupt     // 8.11, 9.1, 9.2, 9.7: the defender may act before a declared attack (BD-14)
};

// 8.36-8.40 the Soviet support markers (the first word after `support`).
enum SupportKind : uint8_t {
  kSupArtillery = 1,  // 8.36 doubles one army's attack factor
  kSupAirArmy,        // 8.38 +1 to one army's attack factor
  kSupInterceptor,    // 8.37 1R
  kSupPartisans,      // 8.39 1R
  kSupAirborne,       // 8.40 1R
  kNumSupportKinds
};
// Battle::boost bits (per attacker) and Battle::support bits (per battle).
enum : uint8_t { kBoostArtillery = 1, kBoostAirArmy = 2 };
enum : uint8_t { kSupportInterceptor = 1, kSupportPartisans = 2, kSupportAirborne = 4 };

// 4.11-4.13 the Caucasus expedition.
enum CaucasusState : uint8_t { kCaucNone, kCaucInBox, kCaucBrokeThrough, kCaucRecalled, kCaucDefeated };

// Per-unit flags (cleared at the end of each phase unless noted).
enum UnitFlag : uint16_t {
  kFlagDone = 1,         // finished moving this phase (10.2)
  kFlagAttacked = 2,     // attacked this phase (11.3)
  kFlagDefended = 4,     // was attacked this phase (11.3)
  kFlagRetreatedIn = 8,  // retreated into its hex this phase (11.29, 10.31)
  kFlagRevealed = 16,    // identity shown to the German at an odds calculation (11.7); cleared when it moves
  kFlagMaDone = 32,      // Soviet: made its one MA this phase (10.24)
  kFlagMaFailed = 64,    // Soviet MA survivors stay in the launch hex (10.28)
  kFlagNoMove = 128,     // placed by emergency RVGK etc.: no further move this phase
  // Kept through the phases of one player turn (cleared when the Soviet's begins):
  kFlagSeaMoved = 256,      // moved by sea: no other move or attack this player turn (10.16)
  kFlagTurnAttacked = 512,  // attacked this player turn: may not then move by sea (10.16)
  // Kept through the whole game turn (set at its start):
  kFlagStandFast = 1024,  // 12.7 in Stalingrad under Hitler's stand-fast order: no move, no attack
  // Kept until the unit first moves, or the game turn ends:
  kFlagEdgeEntry = 2048,  // 8.1 entered at a board-edge hex: its first move pays that hex's cost
  // Kept until it is done:
  kFlagConvertPending = 4096,  // 8.23, 8.29 a removal or conversion waiting for supply or the dead pile
};

// A vector of at most N trivially copyable values kept inside its owner (Stockfish style:
// no heap in the hot path). A copy copies the used part only, with one memcpy: a state's
// clone (once per MCTS simulation) then neither allocates nor copies element by element
// (std::vector copies a type with default member initializers one element at a time).
template <class T, size_t N>
class InlineVec {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  InlineVec() = default;
  InlineVec(const InlineVec& o) : n_(o.n_) { std::memcpy(buf_, o.buf_, n_ * sizeof(T)); }
  InlineVec& operator=(const InlineVec& o) {
    if (this != &o) {
      n_ = o.n_;
      std::memcpy(buf_, o.buf_, n_ * sizeof(T));
    }
    return *this;
  }
  ~InlineVec() = default;

  static constexpr size_t capacity() { return N; }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  T* data() { return std::launder(reinterpret_cast<T*>(buf_)); }
  const T* data() const { return std::launder(reinterpret_cast<const T*>(buf_)); }
  T* begin() { return data(); }
  T* end() { return data() + n_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + n_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  void clear() { n_ = 0; }
  // The callers check the capacity (kMaxUnits is checked when the data is loaded and when a
  // scenario test adds a unit); a push past it is a bug, stopped here rather than corrupting.
  void push_back(const T& v) {
    if (n_ >= N) std::abort();
    ::new (static_cast<void*>(buf_ + n_ * sizeof(T))) T(v);
    ++n_;
  }
  void assign(size_t n, const T& v) {
    clear();
    for (size_t i = 0; i < n; ++i) push_back(v);
  }
  T* erase(T* first, T* last) {
    const size_t at = static_cast<size_t>(first - begin()), gone = static_cast<size_t>(last - first);
    std::memmove(first, last, static_cast<size_t>(end() - last) * sizeof(T));
    n_ -= gone;
    return begin() + at;
  }
  template <class It>
  void assign(It first, It last) {
    clear();
    for (; first != last; ++first) push_back(static_cast<T>(*first));
  }

 private:
  size_t n_ = 0;
  alignas(T) unsigned char buf_[N * sizeof(T)];
};

struct UnitSt {
  int16_t hex = -1;
  uint8_t where = kOutOfPlay;
  int8_t mp = -1;  // MP left this movement phase; -1 = has not started moving (10.1)
  uint16_t flags = 0;
  int16_t start_hex = -1;            // hex at the start of the phase (10.27)
  int8_t turn = 0;                   // TRRT box turn (kTrrt)
  uint8_t forced_supply = kSupNone;  // scenario-test override
  uint32_t order = 0;                // stacking order: lowest on top (11.7)
  int16_t parent = -1;               // 8.31, 8.32: the corps / army a TB or CM is attached to
};

constexpr int kMaxBattleUnits = 28;

struct Battle {
  int16_t target = -1;
  uint8_t active = 0;
  uint8_t is_ma = 0;
  uint8_t attacker = kGerman;
  uint8_t lw_attack = 0, lw_defend = 0;
  int16_t launch = -1;
  uint8_t natt = 0, ndef = 0, nfrom = 0, nretreat = 0, nadv = 0;
  std::array<int16_t, kMaxBattleUnits> att{};
  std::array<int16_t, kMaxBattleUnits> def{};
  std::array<int16_t, 6> from{};
  std::array<int16_t, kMaxBattleUnits> retreating{};
  std::array<int16_t, kMaxBattleUnits> adv{};  // survivors allowed to advance
  uint8_t nadv2 = 0;
  std::array<int16_t, kMaxBattleUnits> adv2{};       // advanced units allowed a second hex (11.32)
  std::array<int16_t, kMaxBattleUnits> adv2_from{};  // the hex each of them advanced from
  std::array<uint8_t, kMaxBattleUnits> boost{};  // per attacker: kBoostArtillery | kBoostAirArmy (8.36, 8.38)
  uint8_t support = 0;                           // kSupportInterceptor | ... (8.37, 8.39, 8.40)
  int32_t attack = 0, defense = 0, defense_lost = 0;
  int8_t raw_index = 0, shifts = 0, final_index = 0, die = 0;
  uint8_t result = 0xFF, rolled = 0xFF;
  int16_t drop = -1;  // 4.17: the 2nd Paratroop Corps dropped on the target (adds its defence 6)
  // 11.26 Bloodbath: attack factors still to lose, and each attacker's factor as it counted.
  int16_t bb_need = 0;
  std::array<int16_t, kMaxBattleUnits> bb_per{};
};

struct MarkerSt {
  std::vector<int16_t> hero_city;      // hexes with a Soviet HC marker (9.1)
  std::vector<int16_t> fortress_city;  // hexes with a German FC marker (9.2)
  int8_t hero_left = 0, fortress_left = 0, fortress_restricted_left = 0;
  bool fa_available = false;
  bool aerial_available = false;
  int8_t aerial_return = 0;  // 7.7 turn the aerial supply marker comes back
  int16_t fa_hex = -1;       // Soviet Fortified Area (8.18)
  int8_t fa_turn = 0;
  std::array<int16_t, 3> osupply{{-1, -1, -1}};  // A, B, C this Soviet player turn (7.12)
  std::array<int8_t, 3> osupply_have{{0, 0, 0}};
  int16_t aerial = -1;  // German aerial supply marker hex this turn (7.7)
  int8_t luftwaffe_left = 0;
  std::vector<int16_t> east_wall;  // hexes with an intact German East Wall counter (8.5, 11.21)
  int8_t east_wall_left = 0;       // East Wall counters still to place this admin segment (8.5)
  // 8.36-8.40 Soviet support markers committed in this Soviet Prepared Assault Phase (the
  // holding boxes: how many have arrived follows from the turn and trrt.json).
  int8_t artillery_used = 0, air_armies_used = 0;
  uint8_t support_used = 0;    // kSupportInterceptor | kSupportPartisans this phase
  uint8_t airborne_years = 0;  // 8.40 bit 0: used in 1942, bit 1: used in 1943
};

// Memo of the last reach(): valid only for the unit and state version it was computed for.
// A copy starts empty instead of copying 2.3 KB: the copy's next apply would invalidate it
// (this makes clone(), which MCTS calls once per simulation, a sixth cheaper).
struct ReachMemo {
  int unit = -1;
  uint64_t version = 0;
  std::array<int16_t, kNumHexes> best, parent;  // read only while unit != -1
  ReachMemo() = default;
  ReachMemo(const ReachMemo& /*other*/) {}
  ReachMemo& operator=(const ReachMemo& other) {
    if (this != &other) unit = -1;
    return *this;
  }
  ~ReachMemo() = default;
};

// Memo of the last strategic_reach() (8.6), like ReachMemo: the German Strategic Movement
// Phase lists each unit's destinations from one search, and check() of each listed action
// would otherwise search again (a quadratic phase). A copy starts empty.
struct StrategicMemo {
  int unit = -1;
  uint64_t version = 0;
  std::vector<uint8_t> ok;  // read only while unit != -1
  StrategicMemo() = default;
  StrategicMemo(const StrategicMemo& /*other*/) {}
  StrategicMemo& operator=(const StrategicMemo& other) {
    if (this != &other) unit = -1;
    return *this;
  }
  ~StrategicMemo() = default;
};

// Hexes a reach_search() entered, one bit per hex: gen_moves visits them in hex order
// without scanning all kNumHexes entries of `best` for every unit.
using HexBits = std::array<uint64_t, (kNumHexes + 63) / 64>;

// What a reach_search() read of the occupancy, for the move-generation memo: the hexes
// whose entry it looked at, those of them that terrain, zone and the turn's rules let the
// unit enter at all, and those it could enter with the stacks that stood there. `strait`:
// it expanded a Kerch or Sivash end (10.14 reads more than occupancy there).
struct ReachTrace {
  HexBits examined{}, enterable{}, open{};
  bool strait = false;
};

class BdGame;

class BdState : public steppe::State {
 public:
  BdState(const BdGame& game, std::shared_ptr<const BdData> data, uint64_t seed);
  BdState(const BdState&) = default;

  // steppe::State
  const steppe::Game& game() const override;
  int current_player() const override;
  bool is_terminal() const override { return phase_ == kGameOver; }
  std::vector<double> returns() const override;
  Json result() const override;
  void legal_actions(std::vector<Action>& out) const override;
  Status check(const Action& a) const override;
  std::unique_ptr<steppe::State> clone() const override { return std::make_unique<BdState>(*this); }
  Json observation(int side) const override;
  Json full_json() const override;
  uint64_t state_hash() const override;
  // The position format (position.cpp, docs/saves.md): written by name, read back exactly.
  steppe::Result<steppe::Json> position() const override;
  steppe::Status read_position(const steppe::JsonReader& r);
  int game_turn() const override { return turn_; }
  std::string action_to_string(const Action& a) const override;
  steppe::Result<Action> parse_action(std::string_view text) const override;
  void resample_hidden(int viewer, uint64_t seed) override;
  Status test_set(const std::vector<std::string>& words) override;
  steppe::Result<std::string> test_query(const std::vector<std::string>& words) const override;
  steppe::Status query_allowed(int side, const std::vector<std::string>& words) const override;
  // Typed views (kernel/views.h; views.cpp). The `combat`, `odds`, `shifts` and `reach`
  // scenario-test queries answer from the same code.
  steppe::Result<steppe::ActionDescription> describe(const Action& a) const override;
  steppe::Result<steppe::Preview> preview(const Action& a, int viewer) const override;
  steppe::Result<steppe::Reach> reach(std::string_view unit, int viewer) const override;
  void legal_actions_for(std::string_view unit, std::vector<Action>& out) const override;

  // Scenario set-up (BdGame::new_state).
  Status setup_scenario(const ScenarioDef* sc);
  void sudden_death(int hex, int side);  // 14.10, 15.5
  Status entry_refusal(int u, int from, int to) const;
  // Optional rules agreed before play (BdGame::new_state "SCENARIO+OPTION...", the
  // scenario-test word `option`): forgiveness-points (4.20), kiev-vp (4.21).
  Status set_option(const std::string& name, bool on);
  static const std::vector<std::string>& option_names();
  // Debug invariants (stacking, one place per unit, VP/control consistency).
  Status check_invariants() const;

  // Read access used by tests and tools.
  int turn() const { return turn_; }
  int first_turn() const { return first_turn_; }
  int last_turn() const { return last_turn_; }
  // gen_moves keeps each unit's moves in a memo of its thread and searches again only the
  // units near a hex whose occupancy changed (docs/performance.md, "Move-generation memo").
  // On by default; tests turn it off to compare it with a fresh search. Per thread.
  static void set_move_memo_enabled(bool on);
  int phase() const { return phase_; }
  int vp() const { return vp_; }
  int control(int hex) const { return hex_.control[static_cast<size_t>(hex)]; }
  const UnitSt& unit(int u) const { return units_[static_cast<size_t>(u)]; }
  const UnitDef& def(int u) const { return (*defs_)[static_cast<size_t>(u)]; }
  int num_units() const { return static_cast<int>(units_.size()); }
  int supply_of(int u) const;
  // 7.3, 7.4, 7.9: `side` can trace overland supply to `hex` as the units stand now.
  bool overland(int hex, int side) const;
  // Traces overland supply for both sides again, as after any change (bench/ measures it).
  void retrace_supply() const {
    supply_dirty_ = true;
    compute_supply();
  }
  int winner() const { return winner_; }
  // Read access for the AI heuristics (src/games/bd/ai/ai_heuristics.cpp).
  const BdData& data() const { return *data_; }
  const HexInfo& hex_info(int h) const { return hx(h); }
  int start_control(int hex) const { return hex_.start_control[static_cast<size_t>(hex)]; }
  std::string_view scenario_id() const { return scenario_id_; }
  // 11.26: attack factors the attacker still owes for a Bloodbath whose losses he is
  // choosing (pending bb-loss), and his side; 0 otherwise.
  int bloodbath_owed(int& side) const {
    side = battle_.attacker;
    return pending_ == kPendBbLoss ? std::max(0, static_cast<int>(battle_.bb_need)) : 0;
  }
  // 4.15: the Moscow surrender roll has not been made yet (one roll per game), and the
  // modifier it would get now.
  bool moscow_roll_pending() const { return !moscow_rolled_; }
  // 2.11 the TRRT's MF of a side's mech or non-mech units on turn t (15.6: What If's
  // fixed MF), before supply and the unit's own limits.
  int turn_mf(int side, bool mech, int t) const;
  int moscow_surrender_modifier() const;
  // 7.10: the range of offensive supply markers A, B and C.
  static constexpr std::array<int, 3> kOffensiveSupplyRange{{4, 3, 2}};
  // 7.12: the hex of offensive supply marker A, B or C (0, 1, 2) this Soviet player turn, or -1.
  int osupply_hex(int marker) const { return markers_.osupply[static_cast<size_t>(marker)]; }

 protected:
  void do_apply(const Action& a) override;

 private:
  friend class BdTestAccess;
  const HexInfo& hx(int h) const { return (*map_)[static_cast<size_t>(h)]; }
  HexInfo& hx_mut(int h);
  const TurnInfo& ti() const { return data_->turn(turn_); }
  int phase_side() const;
  bool is_move_phase() const;
  bool is_assault_phase() const;
  int order_of(int side) const { return order_[side]; }

  // Occupancy.
  void units_in(int hex, std::vector<int>& out) const;
  // 8.31, 8.32 Tiger battalions and CM groups: attached to a parent, never alone.
  // 10.22: an Axis satellite army never moves, advances, retreats, attacks or traces supply
  // into a hex north of the logistical boundary, unless the German chose the north for his
  // 1942 effort (5.6, 13.8: the rule is then suspended).
  bool kept_south(const UnitDef& d) const {
    return d.axis_satellite() && !(zone1942_ == kZoneNorth && turn_ >= 9);
  }
  bool is_attachable(int u) const {
    const UnitType t = def(u).type;
    return t == kTigerBattalion || t == kCmGroup;
  }
  const char* attach_rule(int u) const { return def(u).type == kCmGroup ? "8.32" : "8.31"; }
  bool eligible_parent(int s, int p) const;  // p's kind may carry s (German corps / Soviet army)
  int attached_of(int p) const;              // the TB/CM on the map attached to p, or -1
  Status check_attach(int s, int p) const;   // the kAttach action
  void attach(int s, int p);                 // puts s atop p
  void carry_attached(int p);                // s follows its parent into the parent's hex
  void repoint_attached(int from, int to);   // a counter replaced in place keeps its TB / CM
  int default_parent(int s, int hex) const;  // ruling BD-TB3: the unit of hex a TB / CM goes atop, or -1
  void orphan_check();                       // after each action: a parent gone off the map (ruling BD-TB1)
  void support_lost(int s);                  // 8.31, 8.32 the d6 return of an eliminated TB / CM
  int occupant_side(int hex) const;          // side with units in hex, or kNoSide
  bool enemy_in(int hex, int side) const {
    const int s = occupant_side(hex);
    return s != kNoSide && s != side;
  }
  Status stacking_ok(int hex, int side, const std::vector<int>& adding) const;
  // 6.2: the first over-stacked hex (6.3, 6.4, 8.30), or -1; the fewest removals that bring
  // `hex` back into the limits, without unit `skip` (-1: none skipped).
  int overstacked_hex() const;
  int overstack_need(int hex, int skip) const;
  // 6.2 at the start or end of a phase and after an assault: asks the opponent to remove
  // units when a hex is over-stacked; true if it did.
  bool overstack_check();

  // Supply (7.x).
  void compute_supply() const;
  template <int kSide>
  struct OpenNow;  // 7.3, 7.9, 7.20: may a path of the side use the hex now (supply.cpp)
  template <int kSide>
  OpenNow<kSide> open_now() const;
  template <int kSide>
  void trace_overland(steppe::SupplyTracer& tracer) const;
  void compute_crimea(steppe::SupplyTracer& tracer) const;
  int unit_supply(int u) const;
  bool coastal_supply_ok(int hex) const;  // 7.5 Azov coast needs both Kerch hexes
  int offensive_ok(int u) const;

  // Movement (10.x).
  int mf_of(int u) const;
  int mp_left(int u) const;           // MF before the unit's move, MP left after
  bool in_moving_stack(int u) const;  // 10.5, 10.6: u began the phase with the moving parent stack
  int start_mf(int u) const;  // MF it starts its move with: less its entry hex after an edge entry (8.1)
  const SupplyGraph& supply_graph() const;
  int enter_cost(int u, int from, int to) const;               // -1 prohibited
  int enter_cost_dir(int u, int from, int to, int dir) const;  // the same, `to` = neighbour(from, dir)
  int hex_entry_cost(int u, int to) const;                     // enter_cost_dir's per-hex part
  int edge_entry_cost(int u, int from, int to, int dir, int base) const;  // ... and its hexside part
  Status check_move(const Action& a) const;
  void gen_moves(std::vector<Action>& out) const;
  void gen_caucasus(std::vector<Action>& out) const;  // 4.11-4.13 in a movement phase
  void reach(int u, std::array<int16_t, kNumHexes>& best, std::array<int16_t, kNumHexes>& parent) const;
  void reach_search(int u, std::array<int16_t, kNumHexes>& best, std::array<int16_t, kNumHexes>& parent,
                    HexBits* reached = nullptr, ReachTrace* trace = nullptr) const;
  // What one unit adds to a hex's stack, for the limits of 6.3, 6.4, 8.30 and 8.31/8.32
  // (`sup`: it is, or carries, a TB / CM).
  struct StackAdd {
    int count = 0, sats = 0, cav = 0, sup = 0;
  };
  static StackAdd stack_add(const UnitDef& d, bool sup);
  StackAdd stack_add(int u) const;
  // A unit of `side` adding `add` may enter `hex` with the stacks standing there now: no
  // enemy unit (10.4) and within the limits (6.2). The occupancy cache must be current.
  bool stacks_let_in(int hex, int side, const StackAdd& add) const;
  // gen_moves: brings this thread's move memo to the current occupancy (the units a changed
  // hex opened or closed for are marked for a new search); false when the memo is not used.
  bool sync_move_memo() const;
  void ma_group(int u, int target, std::vector<int>& out) const;

  // Combat (11.x).
  Status check_attack(int target, const std::vector<int>& atts, bool ma, bool lw, bool drop = false) const;
  Status attacks_with_parent(int u, const std::vector<int>& atts) const;  // 8.31, 8.32
  int para_drop_unit() const;  // 4.17: the 2nd Para if it may still drop this turn, else -1
  bool retreat_offer() const;  // 13.9: the Soviet may take a DR in the battle in progress
  Status collect_attack_from(const Action& a, std::vector<int>& atts) const;
  int sea_of(int hex) const;
  // 11.26 Bloodbath losses: who may be chosen now (dotted first), a unit's loss value, and
  // the removals made without a choice; bb_continue asks the attacker or ends the battle.
  void bb_candidates(std::vector<int>& out) const;
  int bb_value(int u) const;
  void bb_remove(int u);
  void bb_continue();
  std::pair<bool, int> cities_since_turn_start() const;  // 4.4, 4.19: (all kept, Soviet cities taken)
  Status check_ica_switch(int u, int h) const;           // index in Places::sea_ports, -1 if not a port
  struct AttackBar {
    const char* rule;    // the section that forbids, or nullptr: the unit may attack
    const char* reason;  // "has already attacked this phase"
  };
  AttackBar attack_bar(int u, int target, bool ma) const;
  bool can_attack_unit(int u, int target, bool ma) const;
  void compute_odds(Battle& b, bool roll_factors);
  int attack_factor_total(const Battle& b, bool roll, std::vector<int>* per_unit);
  int defense_factor_total(const Battle& b, bool roll, std::vector<int>* per_unit);
  int ma_defender_supply(const Battle& b, int u) const;  // 10.26
  int shifts_for(const Battle& b, Json* why = nullptr) const;
  void start_battle(const std::vector<int>& atts, int target, bool ma, bool lw, bool drop = false);
  void resolve_battle();
  void roll_battle();  // the die roll and result, after the odds (11.25)
  // soviet_converted_bb: the Soviet turned a BB into this DR by 11.33.
  void apply_result(int res, bool soviet_converted_bb = false);
  bool soviet_may_convert_bb() const;  // 11.33
  void retreat_options(int from_hex, int side, std::vector<int>& out) const;
  void do_retreat(int dest);
  void after_defender_gone(bool cleared);
  void finish_battle();
  void gen_attacks(std::vector<Action>& out) const;
  bool ma_allowed_now(int side) const;
  int ma_cost(int u, int launch, int target) const;
  void zone_hexes(const std::string& zone, std::vector<int>& out) const;
  void next_player_turn();
  void clear_phase_flags(bool new_player_turn = true);
  void start_play();
  int strategic_cost(int u) const;
  void strategic_reach(int u, std::vector<uint8_t>& ok) const;

  // Admin (8.x).
  void entry_hexes(int u, std::vector<int>& out) const;
  bool is_entry_hex(int u, int hex) const;  // hex is among entry_hexes(u)
  Status check_entry(int u, int hex) const;
  void begin_turn();
  void end_phase();
  void enter_phase(Phase p);
  void victory_check();
  bool scenario_victory();  // scenario conditions at the end; true if the game ended
  void arrivals();
  // Section 4 VP events (4.4-4.8, 4.19-4.21).
  bool vp_schedule() const;      // the scenario scores by the Victory Check Chart
  void territory_vp_checks();    // 4.5, 4.6: first instant after GT13
  void leningrad_siege_check();  // 12.13 after every action
  // 8.23, 8.29: the GT3 reorganisation and the GT22 panzer conversion of one unit, and the
  // delayed ones, done the instant the unit is back in overland supply or dead (after every action).
  void reorganise_gt3(int u);
  void convert_late_panzer(int u);
  void pending_conversions_check();
  bool overland_for_conversion(int u) const;
  int sparam(const char* key) const {
    if (sc_ != nullptr) return sc_->param(key);
    const auto it = data_->victory.empty_params.find(key);
    return it == data_->victory.empty_params.end() ? 0 : it->second;
  }
  // 15.3: the hexes of `side` along the border (adjacent to a hex the other side controls)
  // without a unit of `side`.
  void uncovered_border(int side, std::vector<int>& out) const;
  int setup_left(int side) const;                // units of `side` still to set up (3.1)
  Status check_border_rule(int u, int h) const;  // 15.3 (h = -1: into the RVGK)
  bool lithuania_relocation(int u) const;        // 3.7: u may relocate into the five Polish hexes
  int roll_vp(const VpRoll& r, const std::string& what, const std::string& rule);
  void summer_offensive_check();   // 4.4 at the end of a game turn
  bool watch_on_the_oder_check();  // 4.19 at the end of the GT30 German player turn
  bool oder_active() const { return watch_ == 2 && turn_ == data_->victory.watch_reveal_turn; }
  // 4.10 / 8.17: the 2nd SS Panzer Corps withdrawals.
  int ss_unit() const;                // the corps' unit index, or -1
  bool ss_schedule() const;           // 8.17 applies in this scenario
  bool ss_can_withdraw() const;       // in overland supply on the map, or in the dead pile
  void ss_withdraw(const char* how);  // to the TRRT box of its next return
  void ss_turn_start();               // start of a game turn: due, returns
  void ss_delayed_check();            // a delayed withdrawal is made as soon as it can be
  void ss_turn_end();                 // Victory Check Phase: -1 VP if not withdrawn this turn
  // 4.11-4.13 the Caucasus expedition.
  bool caucasus_scenario() const;          // the scenario allows a launch (4.11, 13.4)
  bool caucasus_launch_condition() const;  // 4.11 at the start of a game turn
  bool caucasus_exit(int hex) const;
  bool caucasus_responder(int u) const;  // 4.12 may be sent into the box now
  int caucasus_responders() const;
  bool german_in_caucasus() const;
  void caucasus_defeat_check();   // 4.13 Rostov / Dnepropetrovsk / all exits
  void caucasus_victory_phase();  // 4.13 breakthrough roll and oil VP
  Status check_caucasus(const Action& a) const;
  // 4.16 / 4.17 Manstein's Gambit declared in the Grand Campaign.
  void mg_start();          // the declaration turn's reinforcements and replacements
  void mg_replacements();   // 2/2 German replacements while it runs
  bool mg_victory_check();  // end of GT20: true (the game is over)

  // Control & VP (3.6, 4.x).
  void set_control(int hex, int side);
  void eliminate(int u, const char* rule);
  void place(int u, int hex, bool setting_up = false);  // setting_up: no VP (3.2, 12.3)
  void move_to(int u, int hex);
  void log(const std::string& kind, const std::string& text, const std::string& rule,
           uint32_t vis = 0xFFFFFFFFu) const;
  std::string label(int u) const { return def(u).label; }
  // 11.7: whether the German may identify unit `u` now: any German unit, a Soviet unit on
  // top of its stack or revealed by an odds calculation since it last moved, or one in a
  // public box (the dead pile, the Caucasus Holding Box).
  bool german_sees(int u) const;
  // 11.7: an event about Soviet units the German may not identify: the Soviet reads `text`,
  // the German `german_text` (nothing when it is empty).
  void log_fog(const std::string& kind, const std::string& text, const std::string& german_text,
               const std::string& rule) const;
  // 11.7: `text` to both sides when the German may identify `u` now, else log_fog.
  void log_seen(int u, const std::string& kind, const std::string& text, const std::string& german_text,
                const std::string& rule) const;
  // 11.7: `label(u)` when the German may identify `u`, else `unseen` ("a Soviet unit").
  std::string label_for_german(int u, const std::string& unseen) const {
    return german_sees(u) ? label(u) : unseen;
  }
  bool hero_city(int hex) const;
  bool fortress_city(int hex) const;
  bool fa_effect(int hex) const;  // 8.18: FA hex or one of its six neighbours, Soviet-held
  bool east_wall(int hex) const;  // 8.5: an intact East Wall counter in the hex
  Status check_east_wall(int hex) const;
  // 8.36-8.41 Soviet support markers.
  int support_arrived(const char* marker) const;  // markers of that kind in the holding box this turn
  int support_left(int kind) const;               // still to commit in this phase (0 when not usable now)
  bool support_army(int u) const;                 // the counter is an army (ruling BD-SM2)
  Status check_support(int kind, int u) const;    // for the battle in progress
  bool any_support() const;
  bool enter_support();  // after the Luftwaffe decision: the Soviet's support decision, if any
  void apply_support(Battle& b, int kind, int u) const;  // records it in b (also the previews)
  // 8.26 Bulgarian communist armies.
  bool bulgarian(int u) const { return def(u).nation == "bulgarian-communist"; }
  // 8.26 triggered on or before GT13: u enters on GT14 through the Bulgarian border hexes.
  bool bulgarian_entry(int u) const {
    return unit(u).where == kTrrt && bulg_state_ == 2 && (bulgarian(u) || u == bulg_unit_);
  }
  Status check_bulgaria_exit(int u) const;
  Status check_bulgaria_return(int hex) const;
  bool bulgaria_return_due() const;
  bool bulgaria_overstacked() const;  // the entry hex still breaks 6.4
  // 8.19 / 8.20: the conversions that bring Guards tank, Guards and Shock armies into play.
  int guards_tank_namesake(int u) const;  // 8.19: the tank army u converts, or -1
  bool converts_on_arrival(int u) const;  // 8.19 / 8.20: u arrives only by a conversion
  void guards_tank_conversions();         // 8.19: due conversions whose tank army qualifies
  Status check_convert(int g, int r) const;
  // 8.2, 8.4, 8.27: units entered in situ on a friendly-occupied hex.
  bool enters_in_situ(int u) const;
  void returns_once(int u, int sup);  // 8.15 a Romanian army's one return from the dead pile
  // 8.24 / 8.25: a Soviet unit in overland supply has moved through `path` (its hexes).
  void communist_triggers(int u, const std::vector<int>& path);
  void end_game(int winner, const std::string& why, const std::string& rule);
  void serialize(std::string& out) const;
  void mark_dirty() const {
    supply_dirty_ = true;
    occ_dirty_ = true;
    ++version_;
  }
  void compute_occupancy() const;
  int count_german_vp_hexes() const;
  void rebase_vp();
  int find_label(std::string_view key) const;
  // The verb table's check column (verbs.cpp): the argument count and form first (a
  // malformed action is refused outright), then a pending decision (which admits only its
  // own answers), then the verb's own rule.
  enum class ArgCount {
    kNone,        // no arguments
    kOne,         // one
    kTwo,         // two
    kAny,         // a unit and a path, a list of units or of unit-hex pairs
    kChoice,      // one, 0 or 1
    kAttack,      // target, flags 0-3, attacking hexes or units
    kAttackWith,  // target, flags 0-3, one unit or more (11.6)
    kSupport,     // artillery and air armies name the army they support (8.36, 8.38)
    kCrimea,      // on|off, then up to five declared units when on (7.4)
  };
  Status check_arg_count(const Action& a, ArgCount n) const;
  // Why `a` does not answer the pending decision, ok if it does, nullopt if none is pending
  // or `a` may interrupt it (7.7, 7.4).
  std::optional<Status> check_pending(const Action& a) const;
  // 11.6 (ruling BD-2): `attack T with U1 U2 ...` of two units or more is accepted, not listed.
  bool unlisted_form(const Action& a) const override { return a.verb == kAttackWith && a.nargs > 3; }
  // 8.11, 9.1, 9.2, 9.7 (ruling BD-14): the defender's moment before an attack is declared.
  bool interrupt_window(const Action& attack) const;
  Status hero_city_rule(int h) const;  // 9.1 why h cannot take an HC marker, whatever the phase
  bool emergency_window() const;       // 8.11 the Soviet's once-per-German-movement-phase deployment
  Status check_emergency_rvgk(const Action& a) const;
  Status fortress_city_rule(int h) const;  // 9.2 why h cannot take an FC marker, whatever the phase
  void end_interrupt();                    // the defender acted: the declared attack is withdrawn (9.7)
  void declare_attack(const Action& a);
  void verb_apply_let_attack(const Action& a);
  bool arg_is_unit(const Action& a, int i) const {
    return i < a.nargs && a.args[i] >= 0 && a.args[i] < num_units();
  }
  // The argument count of check_arg_count as a plain test, inlined into each row's check
  // (generation checks every candidate action: the refusal is built only for a failure).
  template <ArgCount N>
  static constexpr bool arg_count_ok(const Action& a) {
    switch (N) {
      case ArgCount::kNone:
        return a.nargs == 0;
      case ArgCount::kOne:
        return a.nargs == 1;
      case ArgCount::kTwo:
        return a.nargs == 2;
      case ArgCount::kAny:
        return true;
      case ArgCount::kChoice:
        return a.nargs == 1 && (a.args[0] == 0 || a.args[0] == 1);
      case ArgCount::kAttackWith:  // 11.6: any units, one or more
      case ArgCount::kAttack:
        return a.nargs >= 3 && a.args[1] >= 0 && a.args[1] <= 3;
      case ArgCount::kSupport:
        return a.nargs == (a.nargs >= 1 && (a.args[0] == kSupArtillery || a.args[0] == kSupAirArmy) ? 2 : 1);
      case ArgCount::kCrimea:
        return a.nargs >= 1 && a.nargs <= 6 && (a.args[0] == 1 || a.nargs == 1);
    }
    return false;
  }
  template <ArgCount N, Status (BdState::*Rule)(const Action&) const>
  static Status check_as(const BdState& s, const Action& a) {
    if (!arg_count_ok<N>(a)) return s.check_arg_count(a, N);
    if (s.pending_ != kPendNone)
      if (auto pending = s.check_pending(a)) return *pending;
    return (s.*Rule)(a);
  }
  // The verb table's apply column: every action may change supply and occupancy; the
  // actions that end an assault's resolution check the stacking limits after it (6.2).
  static constexpr bool kOverstackAfter = true;
  template <void (BdState::*Rule)(const Action&), bool kOverstack = false>
  static void apply_as(BdState& s, const Action& a) {
    s.mark_dirty();
    (s.*Rule)(a);
    if constexpr (kOverstack) (void)s.overstack_check();
  }
  // A move's MF (10.1) is a function of the position before the move: read before
  // mark_dirty() drops the supply trace that check() has just made, it costs no new trace.
  static void apply_move_as(BdState& s, const Action& a) {
    const int move_mf = s.unit(a.args[0]).mp < 0 ? s.start_mf(a.args[0]) : -1;
    s.mark_dirty();
    s.verb_apply_move(a, move_mf);
  }
  // Each verb's own rule (check.cpp, apply.cpp), named for its table row.
  Status verb_check_end_phase(const Action& a) const;
  Status verb_check_support(const Action& a) const;
  Status verb_check_bulgaria_exit(const Action& a) const;
  Status verb_check_bulgaria_return(const Action& a) const;
  Status verb_check_move(const Action& a) const;
  Status verb_check_attack(const Action& a) const;
  Status verb_check_order(const Action& a) const;
  Status verb_check_paulus(const Action& a) const;
  Status verb_check_zone1942(const Action& a) const;
  Status verb_check_enter(const Action& a) const;
  Status verb_check_replace(const Action& a) const;
  Status verb_check_rvgk_in(const Action& a) const;
  Status verb_check_rvgk_out(const Action& a) const;
  Status verb_check_off_supply(const Action& a) const;
  Status verb_check_setup(const Action& a) const;
  Status verb_check_withdraw(const Action& a) const;
  Status verb_check_decline_withdraw(const Action& a) const;
  int perm_withdrawal_candidates() const;  // 8.21 GT20 (ruling BD-W1)
  void stalingrad_turn_start();            // 12.7
  void stalingrad_turn_end();              // 12.7
  Status verb_check_caucasus(const Action& a) const;
  Status verb_check_summer_offensive(const Action& a) const;
  Status verb_check_watch(const Action& a) const;
  Status verb_check_convert(const Action& a) const;
  Status verb_check_comb_out(const Action& a) const;
  Status verb_check_east_wall(const Action& a) const;
  Status verb_check_hero_city(const Action& a) const;
  Status verb_check_fortress_city(const Action& a) const;
  Status verb_check_sea_move(const Action& a) const;
  Status verb_check_attach(const Action& a) const;
  Status verb_check_strategic(const Action& a) const;
  Status verb_check_aerial_supply(const Action& a) const;
  Status verb_check_crimea_supply(const Action& a) const;
  Status verb_check_fortified_area(const Action& a) const;
  Status verb_check_not_now(const Action& a) const;
  void verb_apply_lw_defend(const Action& a);
  void verb_apply_take_retreat(const Action& a);
  void verb_apply_support(const Action& a);
  void verb_apply_support_done(const Action& a);
  void verb_apply_bulgaria_exit(const Action& a);
  void verb_apply_bulgaria_return(const Action& a);
  void verb_apply_bb_choice(const Action& a);
  void verb_apply_retreat(const Action& a);
  void verb_apply_advance(const Action& a);
  void verb_apply_advance2(const Action& a);
  void verb_apply_fortress_city(const Action& a);
  void verb_apply_emergency_rvgk(const Action& a);
  void verb_apply_no_emergency_rvgk(const Action& a);
  void verb_apply_sea_move(const Action& a);
  void verb_apply_attach(const Action& a);
  void verb_apply_strategic(const Action& a);
  void verb_apply_crimea_supply(const Action& a);
  void verb_apply_aerial_supply(const Action& a);
  void verb_apply_fortified_area(const Action& a);
  void verb_apply_advance_done(const Action& a);
  void verb_apply_end_phase(const Action& a);
  void verb_apply_bb_loss(const Action& a);
  void verb_apply_overstack_remove(const Action& a);
  void verb_apply_move(const Action& a, int move_mf);
  void verb_apply_attack(const Action& a);
  void verb_apply_order(const Action& a);
  void verb_apply_paulus(const Action& a);
  void verb_apply_zone1942(const Action& a);
  void verb_apply_convert(const Action& a);
  void verb_apply_comb_out(const Action& a);
  void verb_apply_east_wall(const Action& a);
  void verb_apply_enter(const Action& a);
  void verb_apply_replace(const Action& a);
  void verb_apply_rvgk_in(const Action& a);
  void verb_apply_rvgk_out(const Action& a);
  void verb_apply_off_supply(const Action& a);
  void verb_apply_setup(const Action& a);
  void verb_apply_withdraw(const Action& a);
  void verb_apply_summer_offensive(const Action& a);
  void verb_apply_mansteins_gambit(const Action& a);
  void verb_apply_watch(const Action& a);
  void verb_apply_decline_withdraw(const Action& a);
  void verb_apply_hero_city(const Action& a);
  void verb_apply_caucasus_launch(const Action& a);
  void verb_apply_caucasus_send(const Action& a);
  void verb_apply_caucasus_refuse(const Action& a);
  void verb_apply_caucasus_recall(const Action& a);
  void verb_apply_caucasus_leave(const Action& a);
  Status check_end_phase() const;
  Status check_order(int side, int order) const;
  bool second_advance_ok(int u) const;
  Status check_advance2(int u, int hex) const;
  Status set_word(const std::vector<std::string>& w);
  steppe::Result<std::string> query_word(const std::vector<std::string>& w) const;
  steppe::Result<Action> parse_attack(const std::vector<std::string>& t, bool ma) const;
  // The verb table (verbs.cpp): one row per verb with its notation (name and arguments)
  // and the rule it carries out; parse_action and action_to_string go through it.
  static const steppe::VerbTable<BdState>& verbs();
  // The arguments a verb's notation takes after its name.
  enum class ArgForm {
    kNone,          // "end-phase"
    kUnit,          // "advance UNIT"
    kHex,           // "retreat HEX"
    kUnitHex,       // "enter UNIT HEX"
    kUnitUnit,      // "attach TB ARMY"
    kUnitPath,      // "move UNIT HEX HEX..."
    kAttack,        // "attack HEX from HEX... [lw] [drop]", "attack HEX with UNIT... [lw] [drop]"
    kOrder,         // "order move-fight"
    kPaulus,        // "paulus take|decline"
    kZone,          // "zone north|south"
    kReplace,       // "replace UNIT HEX|rvgk"
    kOffSupply,     // "osupply A|B|C HEX"
    kCrimea,        // "crimea-supply on [UNIT...] | off"
    kWatch,         // "watch rhine|oder"
    kUnits,         // "caucasus-launch UNIT..."
    kUnitHexPairs,  // "caucasus-recall UNIT HEX [UNIT HEX...]"
    kYesNo,         // "take-retreat yes|no"
    kDrBb,          // "convert-bb dr|bb"
    kSupport,       // "support KIND [ARMY]"
  };
  steppe::Result<Action> read_action(uint16_t verb, ArgForm form, std::span<const std::string_view> w) const;
  std::string write_action(const Action& a, ArgForm form) const;
  template <uint16_t Verb, ArgForm Form>
  static steppe::Result<Action> parse_as(const BdState& s, std::span<const std::string_view> w) {
    return s.read_action(Verb, Form, w);
  }
  template <ArgForm Form>
  static std::string print_as(const BdState& s, const Action& a) {
    return s.write_action(a, Form);
  }
  // The combat preview of an attack or mobile assault `a` (legal now or not), with the
  // support markers named in `support` ("artillery UNIT", "air-army UNIT", "interceptor",
  // ...; 8.36-8.41, their eligibility not checked): what preview() and the odds queries show.
  steppe::Result<steppe::Preview> combat_preview(const Action& a,
                                                 const std::vector<std::string>& support) const;
  // Every hex unit `u` (on the map) can reach now, with its cost and path (10.1, 10.3, 10.14).
  steppe::Reach reach_of(int u) const;
  // The units action `a` names or moves (an attack from hexes: the attackers in them).
  void action_units(const Action& a, std::vector<int>& out) const;

  const BdGame* game_;
  std::shared_ptr<const BdData> data_;
  // The counters and the map: data_'s own unless a scenario test edited them (then the
  // edited copies are owned by own_defs_ / own_map_). Plain pointers, so that a clone does
  // not pay two more atomic reference counts for what data_ already keeps alive.
  const std::vector<UnitDef>* defs_ = nullptr;
  const std::array<HexInfo, kNumHexes>* map_ = nullptr;
  std::shared_ptr<const std::vector<UnitDef>> own_defs_;
  std::shared_ptr<const std::array<HexInfo, kNumHexes>> own_map_;
  InlineVec<UnitSt, kMaxUnits> units_;
  // The per-hex state in one trivially copyable block: a copy of the state copies it in one
  // piece (perf of a clone: each separate std::array member was its own rep movs, a dozen
  // start-up costs for 575 bytes each).
  struct HexState {
    std::array<uint8_t, kNumHexes> control{};
    std::array<uint8_t, kNumHexes> entered{};  // units placed per entry hex this turn (8.1)
    std::array<uint8_t, kNumHexes>
        start_control{};  // control at the scenario start (13.4, 14.4, 14.10, 15.4)
    std::array<uint8_t, kNumHexes>
        turn_start_control{};                 // control at the start of this game turn (4.4, 4.19)
    std::array<uint8_t, kNumHexes> insitu{};  // 8.2, 8.4, 8.27: an in-situ entry in the hex this admin phase
  };
  HexState hex_;
  MarkerSt markers_;
  // The scenario's id (data_->scenarios owns the text): a view, so that a clone copies no
  // string (an id longer than 15 characters, "mansteins-gambit", would be allocated).
  std::string_view scenario_id_ = "empty";
  int first_turn_ = 1, last_turn_ = 32, vp_start_ = 14;
  int turn_ = 1;
  Phase phase_ = kAdminGerman;
  int first_player_ = kGerman;
  std::array<uint8_t, 2> order_{{kOrderNone, kOrderNone}};
  int vp_ = 14;
  int vp_base_hexes_ = 0;
  int vp_events_ = 0;  // VP not explained by the control of VP hexes (invariant check)
  int winner_ = kNoSide;
  std::string end_reason_;
  // Per-turn / per-game flags.
  bool crimea_on_ = false;        // 7.4 Crimea supply switched on
  bool crimea_turn_ = false;      // 7.4 ... at some time this game turn: no Black Sea/Azov coastal supply
  bool crimea_switched_ = false;  // 7.4 switched in this phase (not listed again: BD-22)
  int8_t paulus_ = 0;             // 0 undecided, 1 taken, 2 declined (5.10)
  int8_t zone1942_ = kZoneNone;   // 5.6
  bool moscow_rolled_ = false;    // 4.15
  // Section 4 events and options.
  bool opt_forgiveness_ = false, opt_kiev_ = false;  // 4.20, 4.21 (optional rules)
  bool opt_lithuania_ = false;                       // 3.7 (optional rule)
  bool lith_relocate_ = false;                       // 3.7 the Soviet relocation step is open
  const ScenarioDef* sc_ = nullptr;                  // the scenario's data (params)
  int8_t siege_ = 0;       // 12.13: 0 not in play, 1 besieged (VP held), 2 lifted, 3 held for good
  int16_t oos_kills_ = 0;  // 14.10 Soviet units eliminated while out of supply
  int8_t rvgk_setup_ = 0;  // 15.3 Soviet units put into the RVGK at set-up
  int fp_ = 0;             // 4.20 net Forgiveness Points
  bool baltic_lost_ = false, dnepr_lost_ = false;  // 4.5, 4.6 (once)
  uint8_t early_fallen_ = 0;                       // 4.7/4.8: bit i = early_loss[i] has fallen
  bool kiev_taken_ = false;                        // 4.21 the German has taken Kiev once
  int8_t summer_turn_ = 0;                         // 4.4 turn of the declaration (0: none)
  int8_t summer_done_ = 0;                         // 4.4 0 open, 1 succeeded, 2 VP debited
  int8_t watch_ = 0;                               // 4.18 0 not chosen, 1 Rhine, 2 Oder (secret)
  int16_t soviet_losses_ = 0;                      // 4.19 Soviet units eliminated this turn (weighted)
  int8_t ss_due_ = 0;         // 8.17 0 nothing owed, 1 due in this German admin segment, 2 delayed
  int8_t ss_cycle_ = -1;      // 8.17 index of the open withdrawal in victory.ss_turns
  uint8_t ss_failed_ = 0;     // 4.10 bit i: withdrawal i declined or not made (VP lost)
  uint8_t ss_done_ = 0;       // 8.17 bit i: withdrawal i made
  uint8_t cauc_ = kCaucNone;  // 4.11-4.13
  bool cauc_open_ = false;    // 4.11 launch condition met at the start of this game turn
  int8_t cauc_turn_ = 0;      // game turn of the departure
  int8_t cauc_rolled_ = 0;    // last game turn whose Victory Check Phase resolved the expedition
  int8_t cauc_need_ = 0;      // 4.12 rifle armies the Soviet still has to send
  bool mg_ = false;           // 4.16 the summer offensive is Manstein's Gambit
  bool german_moscow_at_start_ =
      false;  // 7.21: offensive supply banned (set when a turn from GT7 begins with Moscow German, cleared
              // when one begins with it Soviet and overland-supplied)
  int8_t rvgk_moves_ = 0;  // 8.9
  std::array<int8_t, 2> repl_left_mech_{}, repl_left_non_{};
  int8_t withdrawals_done_ = 0;         // 8.21
  uint8_t combout_done_ = 0;            // 8.16: bit 0 the 1943 comb-out made, bit 1 the 1944 one
  int8_t combout_left_ = 0;             // 8.16: bonus non-mech steps left this German order segment
  std::vector<int16_t> returned_once_;  // 8.15: Romanian armies already returned once
  bool polish_triggered_ = false;       // 8.24
  bool romania_defected_ = false;       // 8.25
  // 8.26: 0 not triggered, 1 a unit is off the map awaiting its return, 2 triggered on or
  // before GT13 (the Bulgarians enter on GT14), 3 returned.
  int8_t bulg_state_ = 0;
  int16_t bulg_unit_ = -1;     // the unit that moved off the map
  int8_t bulg_exit_turn_ = 0;  // the Game Turn of that move
  int16_t bulg_hex_ = -1;      // entry hex exempt from 6.4 until the end of this movement phase
  InlineVec<int16_t, kMaxBattleUnits> movers_;  // 10.2: only the units of the last move/MA may continue
  std::vector<std::pair<int16_t, int8_t>> paulus_rolls_;  // 5.10 MF loss per hex (GT3)
  int16_t kerch_from_ = -1;  // 10.14 departure hex of this movement phase's one stack across the Kerch
  uint8_t sea_used_ = 0;     // 10.16, 10.17: bit i = a corps moved on Places::sea_ports[i] this phase
  bool ff_used_1942_ = false, ff_used_1943_ = false, soviet_ff_used_ = false;  // 5.5
  // Free set-up (3.3): unit and zone. Written once by setup_scenario and shared by the
  // copies (it holds about a hundred strings in the Grand Campaign).
  std::shared_ptr<const std::vector<std::pair<int16_t, std::string>>> setup_zone_;
  const std::vector<std::pair<int16_t, std::string>>& setup_zones() const;
  int8_t withdraw_due_ = 0;        // 8.21 a withdrawal is due this admin segment
  bool stand_fast_ended_ = false;  // 12.7 Hitler's stand-fast order for Stalingrad has ended
  int8_t strat_used_ = 0;          // 8.7 strategic movement capacity used this player turn
  int8_t start_mode_ = 0;          // 0 admin, 1 Soviet first phase (14.2), 2 Soviet assault only (12.2)
  bool skip_rvgk_once_ = false;    // 14.2 the Citadel opening has no RVGK phase
  bool assault_only_ = false;      // 12.2 GT13 of The Road Back is one Soviet PA phase
  uint32_t next_order_ = 1;
  bool has_setup_units_ = false;
  bool overstack_resume_ = false;  // 6.2: the phase ends once the over-stack removals are made
  // Battle in progress and pending decision.
  Battle battle_;
  Pending pending_ = kPendNone;
  steppe::Action held_attack_{};  // kPendInterrupt: the attack declared, waiting for the defender
  bool emergency_used_ = false;   // 8.11: this German Movement Phase's emergency deployment made
  std::string last_result_;
  int last_odds_ = 0;
  // Supply cache (7.17 recomputed on demand).
  mutable bool supply_dirty_ = true;
  // Occupancy cache: side and stacking counts per hex (rebuilt after any change).
  mutable bool occ_dirty_ = true;
  mutable uint64_t version_ = 0;
  // The occupancy and supply caches, one block for the same reason as HexState.
  struct Caches {
    std::array<uint8_t, kNumHexes> occ_side{};
    std::array<uint8_t, kNumHexes> occ_count{}, occ_sats{}, occ_cav{}, occ_sup{};
    // Per unit: the TB / CM attached to it (8.31, 8.32), or -1. Inline: no allocation per clone.
    std::array<int16_t, kMaxUnits> occ_child{};
    std::array<std::array<uint8_t, kNumHexes>, 2> sup{};  // overland supply per side (7.3)
  };
  mutable Caches cache_;
  // Memo of the last reach() (check_move is called once per legal move by the suites).
  mutable ReachMemo reach_memo_;
  mutable StrategicMemo strategic_memo_;       // the last strategic_reach() (check() of kStrategic)
  mutable std::vector<int16_t> crimea_units_;  // 7.4 units drawing Crimea supply now
  std::vector<int16_t> crimea_declared_;       // 7.4 the German's declared units (first claim on the five)
  mutable std::shared_ptr<const SupplyGraph> own_graph_;  // supply_graph() of an edited map
};

}  // namespace bd
