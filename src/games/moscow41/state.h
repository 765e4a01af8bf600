// Moscow41State: one position of Moscow '41. Internal to the module (tests include it).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "games/moscow41/moscow41.h"
#include "kernel/json_data.h"
#include "kernel/supply.h"
#include "kernel/verbs.h"

namespace moscow41 {

// Where a block is when it is not on a map node.
constexpr int kLocPool = -1;         // reinforcement pool (5.0)
constexpr int kLocOobN = -2;         // "N" blocks waiting for November (5.1)
constexpr int kLocOobK = -3;         // the 48th Panzer Corps waiting for Kiev (5.1)
constexpr int kLocDestroyed = -4;    // German block destroyed for good (10.14.3)
constexpr int kLocSurrendered = -5;  // Soviet block surrendered for good (9.3)
constexpr int kLocUnplaced = -6;     // not yet set up / not in this scenario
constexpr int kLocDrawn = -7;        // drawn from the pool, waiting for its owner to place it (5.0)
constexpr int kLocRemoved = -8;      // withdrawn from the game for good (OR 14.8)
constexpr int kLocSetup = -9;        // drawn for the Scenario Setup, waiting for its owner to place it

// "german" or "soviet" (the game's side names), "none" for anything else.
const char* side_name(int side);

enum Weather { kSunny = 0, kRain = 1, kSnow = 2 };
// kReplace: a Leader Activation spends its Regeneration/Replacement Points (7.2.2);
// kDeploy: the drawn reinforcements are placed (5.0, 7.2, 11.0 Option B).
enum class Phase {
  kLogistics,
  kImpulse,
  kActivation,
  kCommand,
  kCombat,
  kOver,
  kBlitz,
  kExploit,
  kReplace,
  kDeploy,
  kSetup  // Scenario Setup: the pieces the text leaves to a player are placed (Soviets first)
};
enum class ImpulseKind { kNone, kPass, kTactical, kStrategic, kStrategicReinforce };

enum Verb : uint16_t {
  kVLogPause = 1,
  kVLogActivate,
  kVPass,       // declare a Pass (12.0); then move / dl / end in its Command Segment
  kVTactical,   // declare a Tactical Impulse (10.0)
  kVStrategic,  // Strategic Impulse option A (11.0)
  kVReinforce,  // Strategic Impulse option B (11.0)
  kVActivate,   // hq, path... (10.1)
  kVEndActivation,
  kVMove,       // block, path... (10.8)
  kVBuildDl,    // block (4.1)
  kVArtillery,  // hq, area (10.4)
  kVEndCommands,
  kVBattle,  // area (10.11)
  kVEndCombat,
  kVAir,        // lw hq, area, He-111 count, Stuka count (10.10)
  kVBlitz,      // block, area (10.16)
  kVExploit,    // spend the Initiative on an Exploitation Move (10.18)
  kVHit,        // block: the owner's choice among equally strong blocks (10.14.1)
  kVStep,       // block: one step Regenerated/Replaced (7.2.2)
  kVPlace,      // block, area: a drawn reinforcement is placed (5.0)
  kVRail,       // block, area: a Rail Move (OR 14.4)
  kVRecall,     // block, area: a 4th Panzer Gruppe block leaves the Road, or Zhukov Leningrad (OR 14.2)
  kVAa,         // (bomber * 2 + destroyed)...: the German converts AA hits (10.12.3)
  kVStuka,      // area, count: surviving Stukas follow a Blitz into the area (10.16)
  kVSetup,      // block, area: a set-up block placed where its scenario step allows (Scenario Setup)
  kVSetupDl,    // area: a set-up Defensive Line placed (Scenario Setup)
  kVSetupAuto,  // the side's remaining set-up pieces placed by the seeded automatic procedure
};

// A piece the Scenario Setup leaves to its owner ("in any adjacent Area", "along the
// frontline", "at the German player choice"): a drawn block or a Defensive Line, and the
// scenario step's rule for where it may go (docs/rulings.md, "Moscow '41 / Set-ups").
enum class SetupRule {
  kAdjacentOneEach,  // "the others - one each - in any adjacent Area" of the HQ
  kAdjacent,         // "the others in any adjacent Area" of the HQ
  kHqOrAdjacent,     // "in the Area occupied by their HQ, or in any adjacent Area"
  kZone,             // "in any Area along the frontline" / "in any controlled Area"
  kDl                // "Defensive Lines in any (German|Soviet) controlled Area [along the frontline]"
};
struct SetupPiece {
  int side = kNoSide;
  int block = -1;  // -1: a Defensive Line
  SetupRule rule = SetupRule::kZone;
  int hq = -1;               // the HQ of the adjacent rules
  bool front = false;        // kZone, kDl: only along the frontline
  std::vector<int> exclude;  // kDl: areas the step names as not allowed
  int level = 0;             // the strength it is set up at (index into BlockDef::levels)
  bool face_up = false;
};

// The optional rules (14.0), agreed before play. They ride on the scenario name
// ("campaign+moscow-supply+blizzard"), so saves and replays record them.
enum Option {
  kOptIgnoreColour,       // OR 14.1 ignore-army-colour
  kOptZhukovHoepner,      // OR 14.2 zhukov-hoepner
  kOptMoscowSupply,       // OR 14.3 moscow-supply
  kOptRail,               // OR 14.4 rail-movement
  kOptBlizzard,           // OR 14.5 blizzard
  kOptCavalry,            // OR 14.6 cavalry-mobility
  kOptInfantryDivisions,  // OR 14.7 infantry-divisions
  kOptCrusader,           // OR 14.8 operation-crusader
  kOptCount
};
struct OptionInfo {
  const char* name;
  const char* rule;
  const char* title;  // for the new-game page
};
const OptionInfo& option_info(int o);
int option_by_name(const std::string& name);  // -1 if unknown
std::string option_list();                    // "ignore-army-colour (14.1), ..."

// A battle waiting for a loss allocation (10.12, 10.14.1): the steps run so far, the
// absorb bonus left, and the hits its owner still has to apply.
struct Battle {
  int node = -1;
  int step = 0;  // next step of 10.12 to run (0 artillery, 1 AA, 2 airstrike, 3 and 4 ground fire, 5 done)
  int absorb = 0;
  bool tank_attack = false;
  bool blitz = false;  // one of the Blitz Segment's battles (10.16)
  std::vector<int> attackers;
  int loss_side = kNoSide;  // no hits waiting
  int loss_hits = 0;
  int aa_hits = 0;  // 10.12.3: AA hits the German still has to convert into results
};

enum BomberStatus { kBomberReady = 0, kBomberCommitted, kBomberAborted, kBomberDestroyed, kBomberRemoved };

struct BlockState {
  int loc = kLocUnplaced;  // node index or kLoc*
  int level = 0;           // index into BlockDef::levels (0 = full strength)
  bool revealed = false, isolated = false, activated = false, acted = false, river = false;
  bool face_up = false;  // stays revealed (Last Gasp White blocks)
  bool blitz = false;    // cleared a Green area as an attacking Fast block (10.15, 10.16)
  bool blitzed = false;  // has made its Blitz move this impulse
};

struct AreaState {
  int control = kSoviet;
  int dl = kNoSide;  // owner of the Defensive Line in the area
  bool contested_at_start = false;
  bool fought = false;
  int artillery = -1;  // block index of the HQ whose marker is here
};

class Moscow41State : public steppe::State {
 public:
  explicit Moscow41State(const Moscow41Game& g);
  Moscow41State(const Moscow41State&) = default;

  const steppe::Game& game() const override { return g_; }
  int current_player() const override;
  bool is_terminal() const override { return phase_ == Phase::kOver; }
  std::vector<double> returns() const override;
  Json result() const override;
  void legal_actions(std::vector<steppe::Action>& out) const override;
  steppe::Status check(const steppe::Action& a) const override;
  std::unique_ptr<steppe::State> clone() const override { return std::make_unique<Moscow41State>(*this); }
  Json observation(int side) const override;
  Json full_json() const override;
  uint64_t state_hash() const override;
  // The position format (position.cpp, docs/saves.md): written by name, read back exactly.
  steppe::Result<Json> position() const override;
  steppe::Status read_position(const steppe::JsonReader& r);
  int game_turn() const override { return turn_; }
  std::string action_to_string(const steppe::Action& a) const override;
  steppe::Result<steppe::Action> parse_action(std::string_view text) const override;
  void resample_hidden(int viewer, uint64_t seed) override;
  steppe::Status test_set(const std::vector<std::string>& words) override;
  steppe::Result<std::string> test_query(const std::vector<std::string>& words) const override;

  // Typed views (kernel/views.h; views.cpp), answered from the rules code apply() runs.
  steppe::Result<steppe::ActionDescription> describe(const steppe::Action& a) const override;
  // "battle AREA": the dice of each step of 10.12, each modifier with its reason and rule,
  // and the exact distribution of the hits each side scores. Refused (1.5) when a block
  // involved is hidden from `viewer`.
  steppe::Result<steppe::Preview> preview(const steppe::Action& a, int viewer) const override;
  steppe::Result<steppe::Reach> reach(std::string_view unit, int viewer) const override;
  void legal_actions_for(std::string_view unit, std::vector<steppe::Action>& out) const override;
  // The server asks "combat A" and "reach B" on a copy resampled for `side`: refused here
  // (1.5) when the view itself would refuse `side`, whatever the sample holds.
  steppe::Status query_allowed(int side, const std::vector<std::string>& words) const override;

  // Set-up from a scenario (or "empty"). Pieces left to a player's choice wait in the
  // set-up phase (Phase::kSetup); the rest is placed at once.
  steppe::Status setup(const std::string& scenario);
  // Scenario Setup: the pieces still waiting for their owner, and where each may go now
  // (sorted node indices; the rule's fallbacks included, docs/rulings.md).
  const std::vector<SetupPiece>& setup_pieces() const { return setup_; }
  std::vector<int> setup_sites(const SetupPiece& p) const;
  // An optional rule (14.0) by name; an unknown name is refused and changes nothing.
  steppe::Status set_option(const std::string& name, bool on);
  bool option(Option o) const { return options_[o]; }
  bool blizzard() const { return blizzard_; }  // OR 14.5

  // Rules queries (public for tests).
  int strength(int b) const;                      // current strength of block b (HQ at the Heart: 0)
  int logistics_value(int side) const;            // 7.2.1 with 7.2.1.1
  int victory_points(int side) const;             // 1.7
  bool in_supply_area(int side, int node) const;  // 9.2
  bool contested(int node) const;
  // An area next to one `side` does not control (Staging aside): "along the frontline".
  bool on_frontline(int side, int node) const;
  bool has_units(int side, int node) const;  // a block (not a Leader, 4.2.4) or a DL of `side`
  int blocks_in(int side, int node) const;   // blocks (not DLs) of `side` in `node`
  int weather() const { return weather_; }
  // MP any block pays to enter `node` in this weather (2.6, 8.0), and the hits the
  // terrain, city and DL absorb for `defender` there (10.13, capped).
  int area_enter_cost(int node) const;
  int absorb(int node, int defender, std::vector<steppe::PreviewShift>* why = nullptr) const;
  int turn() const { return turn_; }
  int active() const { return active_; }
  Phase phase() const { return phase_; }
  ImpulseKind impulse_kind() const { return impulse_; }  // the impulse being played (6.0)
  // The side holding the Initiative Disc (3.2.1), and whether `side` may still spend it
  // under the scenario's limit (once per game, once per month).
  int initiative() const { return initiative_; }
  bool initiative_spendable(int side) const;
  const BlockState& block(int b) const { return blocks_[static_cast<size_t>(b)]; }
  const AreaState& area(int n) const { return areas_[static_cast<size_t>(n)]; }
  int winner() const { return winner_; }
  const std::string& victory_kind() const { return victory_kind_; }  // campaign, dnieper, moscow, none
  int last_turn() const { return last_turn_; }
  int hoepner_box() const { return hoepner_road_; }  // index on the Road, -1 off it
  // Impulses begun since this state was created: the agents' turn clock counts an impulse
  // as a turn (ai_heuristics.cpp). Not part of the game (no rule reads it) and so not in
  // full_json or the hash; a replayed game counts the same.
  int impulses_started() const { return impulses_started_; }

 private:
  void do_apply(const steppe::Action& a) override;

  // The verb table (verbs.cpp): one row per verb with its notation, arguments, rule, check
  // and application; parse_action, action_to_string, describe, check and apply go through it.
  static const steppe::VerbTable<Moscow41State>& verbs();
  // The arguments a verb's notation takes after its name.
  enum class ArgForm {
    kNone,           // "end"
    kBlock,          // "hit B"
    kBlockArea,      // "rail B AREA"
    kBlockRoute,     // "move B [AREA...] AREA"
    kBlockOptRoute,  // "activate HQ [AREA...]"
    kArea,           // "battle AREA"
    kDl,             // "dl B [disband AREA]"
    kAa,             // "aa destroy BOMBER... abort BOMBER..."
    kStuka,          // "stuka AREA N"
    kAir,            // "air LWHQ AREA HE111 STUKA"
  };
  steppe::Result<steppe::Action> read_action(uint16_t verb, ArgForm form,
                                             std::span<const std::string_view> words) const;
  std::string write_action(const steppe::Action& a, ArgForm form) const;
  template <uint16_t Verb, ArgForm Form>
  static steppe::Result<steppe::Action> parse_as(const Moscow41State& s,
                                                 std::span<const std::string_view> w) {
    return s.read_action(Verb, Form, w);
  }
  template <ArgForm Form>
  static std::string print_as(const Moscow41State& s, const steppe::Action& a) {
    return s.write_action(a, Form);
  }
  template <steppe::Status (Moscow41State::*Check)(const steppe::Action&) const>
  static steppe::Status check_by(const Moscow41State& s, const steppe::Action& a) {
    return (s.*Check)(a);
  }
  template <void (Moscow41State::*Apply)(const steppe::Action&)>
  static void apply_by(Moscow41State& s, const steppe::Action& a) {
    (s.*Apply)(a);
  }
  // Each verb's own check (after the gates check() applies to every verb) and application.
  steppe::Status verb_check_aa(const steppe::Action& a) const;
  steppe::Status verb_check_activate(const steppe::Action& a) const;
  steppe::Status verb_check_air(const steppe::Action& a) const;
  steppe::Status verb_check_artillery(const steppe::Action& a) const;
  steppe::Status verb_check_battle(const steppe::Action& a) const;
  steppe::Status verb_check_blitz(const steppe::Action& a) const;
  steppe::Status verb_check_end_activation(const steppe::Action& a) const;
  steppe::Status verb_check_end_combat(const steppe::Action& a) const;
  steppe::Status verb_check_end_commands(const steppe::Action& a) const;
  steppe::Status verb_check_exploit(const steppe::Action& a) const;
  steppe::Status verb_check_hit(const steppe::Action& a) const;
  steppe::Status verb_check_logistics(const steppe::Action& a) const;
  steppe::Status verb_check_move_or_dl(const steppe::Action& a) const;
  steppe::Status verb_check_pass(const steppe::Action& a) const;
  steppe::Status verb_check_place(const steppe::Action& a) const;
  steppe::Status verb_check_rail(const steppe::Action& a) const;
  steppe::Status verb_check_recall(const steppe::Action& a) const;
  steppe::Status verb_check_step(const steppe::Action& a) const;
  steppe::Status verb_check_strategic(const steppe::Action& a) const;
  steppe::Status verb_check_stuka(const steppe::Action& a) const;
  steppe::Status verb_check_tactical(const steppe::Action& a) const;
  void verb_apply_aa(const steppe::Action& a);
  void verb_apply_activate(const steppe::Action& a);
  void verb_apply_air(const steppe::Action& a);
  void verb_apply_artillery(const steppe::Action& a);
  void verb_apply_battle(const steppe::Action& a);
  void verb_apply_blitz(const steppe::Action& a);
  void verb_apply_build_dl(const steppe::Action& a);
  void verb_apply_end_activation(const steppe::Action& a);
  void verb_apply_end_combat(const steppe::Action& a);
  void verb_apply_end_commands(const steppe::Action& a);
  void verb_apply_exploit(const steppe::Action& a);
  void verb_apply_hit(const steppe::Action& a);
  void verb_apply_logistics(const steppe::Action& a);
  void verb_apply_move(const steppe::Action& a);
  void verb_apply_pass(const steppe::Action& a);
  void verb_apply_place(const steppe::Action& a);
  void verb_apply_rail(const steppe::Action& a);
  void verb_apply_recall(const steppe::Action& a);
  void verb_apply_setup(const steppe::Action& a);
  void verb_apply_setup_auto(const steppe::Action& a);
  void verb_apply_step(const steppe::Action& a);
  void verb_apply_strategic(const steppe::Action& a);
  void verb_apply_stuka(const steppe::Action& a);
  void verb_apply_tactical(const steppe::Action& a);

  const BlockDef& def(int b) const { return g_.blocks()[static_cast<size_t>(b)]; }
  BlockState& bs(int b) { return blocks_[static_cast<size_t>(b)]; }
  AreaState& as(int n) { return areas_[static_cast<size_t>(n)]; }
  const AreaDef& ad(int n) const { return g_.areas()[static_cast<size_t>(n)]; }
  int node_count() const { return g_.map().node_count(); }
  bool is_area(int n) const { return n >= 0 && n < g_.map().area_count(); }

  // Movement (10.8).
  int mp_allowance(int b) const;
  std::vector<int> rail_destinations(int b) const;     // OR 14.4
  steppe::Status check_rail(int b, int dest) const;    // OR 14.4
  steppe::Status check_recall(int b, int dest) const;  // OR 14.2
  bool hoepner_full_hq() const;      // Hoepner gives artillery and Blitz (scenarios 2-3, OR 14.2)
  bool zhukov_in_leningrad() const;  // OR 14.2
  bool azul_14_7(int b) const;       // OR 14.7: Azul's weather exemption
  int german_weather_dice(int dice, bool attacking) const;  // 8.0 Snow, OR 14.5 Blizzard
  int enter_cost(int b, int node) const;
  steppe::Status check_path(int b, const int32_t* path, int len, bool allow_engage,
                            bool for_hq_activation) const;
  void move_block(int b, const int32_t* path, int len);
  std::vector<int> path_to(int b, int dest, bool allow_engage, bool hq_act) const;
  steppe::Status check_move(int b, int dest, bool allow_engage, bool hq_act) const;
  // route or not; hq_act: an HQ's activation move (10.1, no engaging)
  steppe::Status check_move_action(const steppe::Action& a, bool allow_engage, bool hq_act = false) const;
  // 10.8, 2.5: one route per distinct effect that the cheapest route does not have.
  std::vector<std::vector<int>> route_choices(int b, bool allow_engage, int only_dest = -1) const;
  void follow(int b, int dest, bool allow_engage, bool hq_act);
  void enter(int side, int node);
  void settle_control(int node);  // 2.5: the side left alone in an area controls it
  // The cheapest path to every area `b` may end in; `costs` (if given) gets each one's MP.
  std::vector<std::vector<int>> reachable(int b, bool allow_engage, bool hq_activation,
                                          std::vector<int>* costs = nullptr) const;
  bool commanded(int b) const;                     // 10.2, 10.3, 10.6
  bool in_tactical_range(int hq, int node) const;  // 10.3
  int hq_range(int hq) const;
  // has_units, contested and stack_ok read once for every area, for a route search that
  // asks them at every step (each of those scans every block).
  struct Presence {
    std::vector<uint8_t> blocks[2];   // blocks (not DLs) per side and node, for stacking (2.7)
    std::vector<uint8_t> leaders[2];  // of which Leaders: not units for 2.5 (4.2.4, has_units)
    std::vector<int> dl;              // owner of the node's DL, kNoSide if none
    bool units(int side, int node) const {
      const auto i = static_cast<size_t>(node);
      return dl[i] == side || blocks[side][i] > leaders[side][i];
    }
    bool contested(int node) const { return units(kGerman, node) && units(kSoviet, node); }
  };
  Presence presence() const;
  void fill_presence(Presence& p) const;  // the same into `p`, reusing its buffers (search loops)
  // 2.7: `extra` more blocks of `side` fit in `node` (the counts read from `pr` when given).
  bool stack_ok(int side, int node, int extra, const Presence* pr = nullptr) const;
  steppe::Status check_dl(const steppe::Action& a) const;
  steppe::Status check_dl(int b, int disband) const;  // disband: a DL's area to take up (4.1), or -1
  bool all_dls_in_use(int side) const;                // 4.1: every beam of `side` is on the map

  // Impulse flow.
  void start_impulse(ImpulseKind k);
  void supply_check(int side);  // 9.1
  // 9.2: every area of `side` with a Line of Communication, marked in `tracer`.
  void trace_supply(int side, steppe::SupplyTracer& tracer) const;
  bool loc_passable(int side, int node, const Presence& pr) const;  // 9.2: a LOC may cross it
  bool supply_source(int side, int node) const;                     // 2.1, 9.2, OR 14.3
  void isolation_check(int side);                                   // 9.3
  void end_impulse();
  void final_phase();  // 13.0
  void start_turn(int turn);
  void weather_check();   // 8.1
  void update_victory();  // 1.7 and scenario conditions
  void reduce(int b, bool surrender);
  void resolve_battle(int node);
  void hoepner_road();  // 10.9
  // `why` (if given) gets each rule that changes the dice, with its reason.
  int dice_for(int b, bool attacking, int node, std::vector<steppe::PreviewShift>* why = nullptr) const;
  // One unit's fire in a step of 10.12, in the order the battle rolls them.
  struct Volley {
    int block;  // -1: a Defensive Line
    int dice;
    int fire;  // Fire
    std::string who, rule;
  };
  std::vector<Volley> artillery_volleys(int node,
                                        std::vector<steppe::PreviewShift>* why = nullptr) const;  // 10.12.2
  // 10.12.5: the attacker's (battle_.attackers still there) or the defender's (DL first).
  std::vector<Volley> ground_volleys(int side, int node,
                                     std::vector<steppe::PreviewShift>* why = nullptr) const;
  std::vector<int> battle_attackers(int node) const;  // the active side's blocks, not isolated
  bool tank_attack(int node, const std::vector<int>& attackers) const;  // 10.12.5.2
  void take_hits_in_preview(int side, int hits);  // queue_hits, ties to the first choice (views.cpp)
  int roll_hits(int dice, int fire, const std::string& who, const std::string& rule);
  void queue_hits(int side, int hits);    // 10.13, 10.14: absorb, then allocate
  bool allocate_hits();                   // false: the owner must choose (10.14.1)
  std::vector<int> loss_choices() const;  // the equally strong blocks a hit may go to
  void advance_battle();                  // runs the steps of 10.12 until a choice
  void finish_battle();                   // 2.5, 10.15: control and concealment
  void next_blitz_battle();               // 10.16: the Blitz battles, one by one
  bool loss_pending() const { return battle_.loss_side != kNoSide; }
  bool aa_pending() const { return battle_.aa_hits > 0; }
  std::vector<int> battle_bombers() const;           // committed to the battle's area
  std::vector<std::vector<int>> aa_choices() const;  // 10.12.3: each as kVAa arguments
  steppe::Status check_aa(const steppe::Action& a) const;
  void apply_aa(const std::vector<int>& results);
  void anti_air(int node);                     // 10.12.3
  int stukas_to_follow(int node) const;        // 10.16
  steppe::Status check_step(int b) const;      // 7.2.2
  std::vector<int> deploy_sites(int b) const;  // 5.0
  void draw_reinforcements(int count);         // 5.0: drawn at random, then placed
  void settle_deploy();                        // unplaceable draws go back; all placed: go on
  void end_logistics();                        // 7.2: the Leader is reduced; next side
  void deactivate();                           // 10.17
  void logistics(int side, bool activate);     // 7.0-7.2
  bool mandatory_battles_left() const;
  int air_range(int lw) const;
  int bombers_allowed(int lw) const;
  int bombers_used(int lw) const;
  int air_distance(int from, int to) const;
  int bombers_ready(int lw, bool stuka) const;
  int air_strike(int node);  // 10.12.4
  bool blitz_hq_in_range(int b) const;
  steppe::Status check_blitz(int b, int node) const;
  bool any_blitz() const;
  void finish_tactical();  // 10.17 deactivation, then the Exploitation offer (10.18)
  bool can_exploit() const;
  bool exploiting_ = false;  // 10.12.3-10.12.4: AA then airstrike; returns hits
  std::vector<int> pieces(int side, int node) const;
  void log(const std::string& kind, const std::string& text, const std::string& rule, bool reveals = false);
  void log_hidden(int owner, const std::string& kind, const std::string& owner_text,
                  const std::string& public_text, const std::string& rule);

  // Scenario Setup (game.cpp).
  steppe::Status setup_side(int side);  // one side's steps: fixed placements, draws, choices
  std::vector<int> setup_zone(int side, bool front, const std::vector<int>& exclude) const;
  std::vector<int> hq_neighbours(int side, int hq) const;  // friendly, uncontested, no other HQ
  std::string setup_rule_text(const SetupPiece& p) const;
  steppe::Status check_setup(const steppe::Action& a) const;
  int setup_left(int side) const;
  int setup_piece_for(const steppe::Action& a) const;  // index into setup_, -1 if none fits
  void place_setup_piece(size_t i, int node);
  void setup_auto(int side);             // the seeded automatic procedure: random among the legal areas
  void settle_setup();                   // unplaceable pieces dropped; Soviet done -> German; done -> start
  steppe::Status settle_setup_status();  // the same, with the German steps' data error if any
  void finish_setup();

  const Moscow41Game& g_;
  std::string scenario_ = "empty";
  std::vector<SetupPiece> setup_;  // Scenario Setup: pieces waiting for their owner
  bool options_[kOptCount] = {};   // 14.0
  bool blizzard_ = false;          // OR 14.5: the weather is Blizzard (weather_ stays Snow)
  bool called_off_ = false;        // OR 14.2: a 4th Panzer Gruppe block has left the Road for the map
  bool zhukov_recalled_ = false;   // OR 14.2: Zhukov has left the Leningrad box (never back)
  std::vector<BlockState> blocks_;
  std::vector<AreaState> areas_;
  Phase phase_ = Phase::kImpulse;
  ImpulseKind impulse_ = ImpulseKind::kNone;
  int turn_ = 1, first_turn_ = 1, last_turn_ = 6;
  int active_ = kGerman, initiative_ = kGerman;
  bool initiative_spent_this_turn_[2] = {false, false};
  int initiative_uses_[2] = {0, 0};
  std::string initiative_limit_ = "none";
  int passes_in_row_ = 0;
  int logistics_done_ = 0;  // how many sides have chosen this Logistics Phase
  int weather_ = kSunny, forecast_ = 0, german_impulses_ = 0;
  int impulses_started_ = 0;
  bool kiev_german_ = false, shl_german_ = false, len_german_ = false, road_in_play_ = true;
  bool hoepner_on_map_rule_ = false;
  int surrendered_soviet_ = 0, destroyed_german_ = 0;
  int actions_left_ = 0;  // SI budget (LV)
  bool stalin_dead_ = false;
  std::string victory_kind_ = "campaign";
  int winner_ = kNoSide;  // -1 none, 2 draw
  std::string result_kind_;
  int hoepner_road_ = -1;                         // index on the road, -1 off the road
  std::vector<int> bomber_status_, bomber_area_;  // per bomber (10.10.1, 10.14.3)
  std::vector<int> bomber_struck_;                // 10.16: area a surviving Stuka struck this impulse, or -1
  std::vector<std::pair<int, int>> blitz_moves_;  // 10.16: (from, to) of this Blitz Segment
  Battle battle_;                                 // a battle waiting for a loss allocation
  int regen_left_ = 0, repl_left_ = 0;            // 7.2.2 points of this Leader Activation
  int draws_left_ = 0;                            // 7.2: reinforcements still to draw
};

}  // namespace moscow41
