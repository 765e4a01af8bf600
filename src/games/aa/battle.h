// The general combat of the Axis & Allies-style Barbarossa (rulebook seeds/003, section numbers
// from data/aa/sections.json): the battle state, one combat round (3.36.2: A AA guns fire in the
// first round, C attacker and defender roll a d12 per unit against their modified values,
// casualties chosen by each owner's casualty order and removed together, 1s destroy supply
// tokens and trucks) and the attacker's retreat rule (3.36.2.4, 3.33). The exact battle
// calculator (battle_calculator.h) builds its transitions from these same functions.
//
// Not yet here (listed in docs/aa-design.md): a fighter's retreat from the dogfight, generals
// and Murphy cards. The Tank Destroyer's choice of target (3.16) is played with real dice
// (fight_round); the calculator counts its hits as ordinary hits.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/dice.h"
#include "kernel/error.h"

namespace steppe::aa {

constexpr int kDie = 12;  // 3.36.2.3: every combat roll is one d12

// A unit type's support ability, "matched 1-1" (3.3 artillery/infantry, 3.17 SP artillery/mech,
// 3.20 tac bomber/armor, 4.3 fortification/infantry): each supporting unit gives `bonus` to up to
// `partners_each` units of `partner_class`.
struct Support {
  enum class When { kAttack, kDefence, kBoth };
  std::string partner_class;
  int bonus = 1;
  When when = When::kAttack;
  int partners_each = 1;
  std::string unless_enemy_class;  // 3.20: "If no enemy fighters are present in the battle"
};

struct UnitType {
  std::string id;
  std::string name;
  int attack = 0;
  int defence = 0;
  int movement = 0;
  int cost = 0;
  int hits = 1;         // 3.2: elite units take 2 hits to destroy
  int repair_cost = 0;  // 3.2, 3.15
  int attack_dice = 1;  // 3.22: the Heavy Bomber rolls 2d12 during attacks
  std::vector<std::string> classes;
  std::vector<Support> supports;
  int anti_aircraft = 0;        // 3.8, 3.36.2.1: hits aircraft at or under this in the first round
  int drop_bonus = 0;           // 3.13: Airborne +1 in the first round after a drop
  bool elite = false;           // 3.2: "Only 2 units may be purchased per turn"
  bool advanced = false;        // (Advanced Setup) units, 3.13-3.17, 3.22, 3.23
  bool optional = false;        // optional rules' pieces: fortifications 4.3, generals 4.5
  bool facility = false;        // bases (3.9, 3.10): placed, never moved
  bool needs_air_base = false;  // 3.21, 3.22: "Must end their turn in a zone that contains an airbase"
  int sbr_hit = 0;              // 3.36.1: hits on this or less in a Strategic Bombing Raid (0: cannot raid)
  int sbr_dice = 1;             // 3.22: the Heavy Bomber rolls 2d12
  std::vector<std::string> sbr_targets;  // 3.20, 3.21: what it may bomb
  std::vector<std::string> nations;      // who may field it (SS: Germany, Guards: Russia); empty: all
  std::string section;                   // the section its "rule" cites first ("3.16")
  // 3.7 Trucks, 3.23 Transport: how many units of `cargo_classes` one carries (0: none), and
  // the movement sequences it carries in ("non_combat_move", "combat_move_airborne").
  int carry_capacity = 0;
  std::vector<std::string> cargo_classes;
  std::vector<std::string> carry_phases;
  // 3.16 Tank Destroyer: "may choose any land vehicle as its target on a roll of 2 or less".
  int choose_target_at = 0;
  std::string choose_target_class;
  int casualty_band = 0;  // 4.2: the row of the optional Casualty chart (0: never rolled for)

  bool has_class(std::string_view c) const;
  bool aircraft() const { return has_class("air"); }
  // Rolls in C and can be chosen as a casualty. AA guns, bases, trains, trucks, supplies and
  // generals cannot (ruling "What rolls in general combat", docs/rulings.md).
  bool combatant = false;
  // 3.7, 3.36.2.3: "For every 1 rolled in combat, an enemy supply token or truck is destroyed".
  bool supply_target = false;
};

class UnitTypes {
 public:
  // Reads data/aa/units.json. With a minor Axis nation ("romania"), its reconstructed values
  // (3.1: "Minor Axis unit values are different") replace the printed ones.
  static Result<UnitTypes> load(const std::filesystem::path& data_dir, const std::string& nation = "");
  const std::vector<UnitType>& all() const { return types_; }
  const UnitType& at(int index) const { return types_[static_cast<size_t>(index)]; }
  int size() const { return static_cast<int>(types_.size()); }
  // -1 when there is no such type.
  int index_of(std::string_view id) const;
  // A table of types already loaded (the game joins the printed and the minor Axis values, 3.1).
  static UnitTypes from_list(std::vector<UnitType> types);

 private:
  std::vector<UnitType> types_;
};

enum class Side { kAttacker = 0, kDefender = 1 };
inline int idx(Side s) { return static_cast<int>(s); }
inline Side other(Side s) { return s == Side::kAttacker ? Side::kDefender : Side::kAttacker; }

// One side's units in a battle, by type index: how many are left and how many of those carry
// one hit (3.2: a damaged elite fights on at full value until its second hit).
struct Forces {
  std::vector<int> alive;
  std::vector<int> damaged;
  bool operator==(const Forces&) const = default;
};

// The owner's casualty order (3.36.2.3: "The defender decides which units are hit ... The
// attacker decides which units are hit"): types in the order they are given up. With
// `absorb_with_two_hit_units`, every undamaged 2-hit unit takes a hit before any unit is
// removed, as players of the family do; otherwise a 2-hit unit takes its two hits in turn.
struct CasualtyOrder {
  std::vector<int> type_priority;
  bool absorb_with_two_hit_units = true;

  // Cheapest first, then the weaker unit (the sensible default the player can change).
  static CasualtyOrder cheapest_first(const UnitTypes& types);
  // Checks the order names every type once.
  Status validate(const UnitTypes& types) const;
  // Takes `hits` hits on combatants; returns the hits left over when none is left.
  int apply_hits(Forces& f, const UnitTypes& types, int hits) const;
  // 3.36.2.1: AA hits fall on aircraft only, in the owner's order.
  int apply_aircraft_hits(Forces& f, const UnitTypes& types, int hits) const;
  // Hits that only units of one class can take (3.36.2.2: fighters in the dogfight).
  int apply_class_hits(Forces& f, const UnitTypes& types, std::string_view cls, int hits) const;
  // 3.36.2.3: a 1 destroys a supply token or truck (the owner picks, by this order).
  int apply_supply_kills(Forces& f, const UnitTypes& types, int ones) const;
};

// Terrain and situation of the battle zone, turned into the text's modifiers.
struct BattleTerrain {
  bool city = false;              // 3.30: attackers -1
  bool river = false;             // 3.29: land units attacking across a river -1 (3.30: -2 into a city)
  bool snow = false;              // 4.1: rivers crossed with no attack penalty
  bool pripet = false;            // 3.31: defenders -2
  bool surrounded = false;        // 3.34: defenders -2, all defensive modifiers void
  bool airborne_dropped = false;  // 3.13
  // 4.4.1, 4.4.2 Murphy's Law cards: by battle side (attacker, defender), a bonus per type
  // index to the value each unit rolls at (empty: none), and whether the side's 1s spare the
  // enemy's supplies and trucks (Axis card 3).
  std::array<std::vector<int>, 2> bonus;
  std::array<std::vector<int>, 2> first_round_bonus;  // 4.5.1 attributes 3, 5, 6
  // 4.5.1 attribute 4: "All artillery can support 2 infantry each at a (+1) during attack".
  std::array<bool, 2> artillery_supports_two{};
  // 4.2 (option casualty-chart): the band of each d12 result 1..12 (index 0 unused); empty: the
  // owner's casualty order takes the hits.
  std::vector<int> casualty_chart;
  std::array<bool, 2> no_supply_kills{};
};

struct BattleSetup {
  Forces attacker;
  Forces defender;
  BattleTerrain terrain;
  CasualtyOrder attacker_order;
  CasualtyOrder defender_order;
};

// What one die is rolled against: the counts of dice at each modified value 0..12.
using DiceByValue = std::array<int, kDie + 1>;

struct RoundRoll {
  int aa_hits = 0;            // step A, first round only
  std::array<int, 2> hits{};  // by firing side
  std::array<int, 2> ones{};  // natural 1s that hit (3.36.2.3)
  // 3.16: of those hits, the Tank Destroyers' rolls of 2 or less, whose target the firing
  // side picks among the enemy's land vehicles (ruling "Tank Destroyer targets").
  std::array<int, 2> chosen{};
  // 4.2: the casualty d12 for each ordinary hit on the other side, by firing side (empty: none).
  std::array<std::vector<int>, 2> chart_rolls;
};

// Every die a round rolled, by step, for the game's log (the dice are real and shown).
struct RoundDice {
  std::vector<int> aa;                       // A, at the attacking aircraft
  std::array<std::vector<int>, 2> dogfight;  // B, by firing side, every exchange
  std::vector<int> free_shots;               // B, the winner's free shots
  std::array<std::vector<int>, 2> combat;    // C, by firing side
};

enum class Outcome { kOngoing, kAttackerWins, kDefenderHolds, kBothDestroyed, kAttackerRetreats };
const char* outcome_name(Outcome o);

// The attacker's retreat rule (3.36.2.4: "The attacking side may retreat after the end of the
// round with no penalties"): after round N, or when its chance of winning by pressing on falls
// below a threshold (the calculator supplies that chance).
struct RetreatRule {
  int after_round = 0;               // 0: never by round count
  double below_win_probability = 0;  // 0: never by odds
};

class Battle {
 public:
  // Checks the forces against the types (counts, damage, attacker has a combatant).
  static Result<Battle> start(const UnitTypes& types, BattleSetup setup);

  const Forces& forces(Side s) const { return forces_[static_cast<size_t>(idx(s))]; }
  Forces& forces(Side s) { return forces_[static_cast<size_t>(idx(s))]; }
  int round() const { return round_; }  // rounds fought so far
  Outcome outcome() const { return outcome_; }
  const BattleSetup& setup() const { return setup_; }
  const UnitTypes& types() const { return *types_; }

  // --- The round, in parts the calculator shares ---------------------------------------
  // 3.36.2.1: dice the defender's AA rolls in this round (one per attacking aircraft when it
  // has an AA gun, first round only), by value.
  DiceByValue aa_dice() const;
  // 3.36.2.3: dice `side` rolls in this round, by modified value (with `only_class`, the
  // dice of those units alone: the fighters of the dogfight).
  DiceByValue combat_dice(Side side, std::string_view only_class = {}) const;
  // 3.36.2.2 B: in the first round, after AA fire, fighters of both sides dogfight ("The
  // attacking side fires first ... resolved like normal combat with the defender returning
  // fire (including casualties)") until one side has none left.
  bool dogfight_pending() const;
  // Applies one exchange of the dogfight: hits on the other side's fighters.
  void apply_dogfight(int hits_on_defender, int hits_on_attacker);
  // The winner's free shots, one per fighter left, at the loser's aircraft; `shooter` is set
  // to the winner. No dice when the loser has no aircraft ("no free/pre-emptive shot").
  DiceByValue free_shot_dice(Side& shooter) const;
  // Applies the free shots and closes step B (the battle may be decided by it).
  void apply_free_shots(Side shooter, int hits);
  // Applies a rolled step A (AA hits on the attacker's aircraft).
  void apply_aa(int aa_hits);
  // Applies the C exchange: both sides' hits and 1s, removed together, then ends the round
  // (the battle's outcome is decided, or the attacker retreats by `retreat`).
  void apply_exchange(const RoundRoll& roll);
  // The attacker retreats (3.36.2.4); supplies and trucks it brought are captured (3.33).
  void retreat();
  // True when neither side has a die that can hit: nothing can change, so the attacker
  // withdraws (ruling "A battle no one can hit", docs/rulings.md).
  bool stalemate() const;
  // Whether `side` still has a unit that can be a casualty.
  bool has_combatants(Side side) const;

  // --- The round with dice -------------------------------------------------------------
  // One full round: A (first round), C, D with the attacker's `retreat` rule by round count.
  // With `rolled`, every die is also recorded there for the log.
  RoundRoll fight_round(Dice& dice, const RetreatRule& retreat, RoundDice* rolled = nullptr);
  // Fights to the end (the odds rule is the calculator's; here only after_round).
  Outcome fight(Dice& dice, const RetreatRule& retreat);

  // Decides the outcome from the forces left (end of a round).
  void settle();
  // Puts the battle at a given position (the calculator walks its states with the same
  // round code): the forces left, the rounds fought and the outcome so far.
  void set_position(const Forces& attacker, const Forces& defender, int rounds_done, Outcome outcome);

 private:
  Battle(const UnitTypes& types, BattleSetup setup);
  void apply_ordinary(Forces& f, const CasualtyOrder& order, int hits, const std::vector<int>& chart_rolls);
  const UnitTypes* types_;
  BattleSetup setup_;
  std::array<Forces, 2> forces_;
  int round_ = 0;
  bool air_supremacy_done_ = false;
  Outcome outcome_ = Outcome::kOngoing;
};

// 3.16: places `hits` Tank Destroyer hits on `f`'s dearest land combat vehicles; returns how many
// found one (the rest are ordinary hits).
int chosen_hits(Forces& f, const UnitTypes& types, int hits);
// 4.2: one hit on `f` by the Casualty chart roll `r`; returns false if no unit could take it.
bool chart_hit(Forces& f, const UnitTypes& types, const CasualtyOrder& order, const std::vector<int>& chart,
               int r);

// Rolls the dice of `by_value` (one d12 each), counting hits (roll <= value) and hits that are 1s.
// With `rolled`, the dice are also appended there.
void roll_dice(const DiceByValue& by_value, Dice& dice, int& hits, int& ones,
               std::vector<int>* rolled = nullptr);

// BP value of a side's forces (3.3-3.23 costs).
int forces_cost(const Forces& f, const UnitTypes& types);
// Combat units a side has left.
int combatants_left(const Battle& b, Side side);
// Build Points a side has lost in the battle so far: units destroyed, and when the battle is
// over, the supply tokens, trucks, trains and AA guns it leaves behind, captured by the enemy
// (3.33 "instead captured"; ruling "Who keeps what" in docs/rulings.md). Facilities (bases)
// change hands with the zone and are not counted.
int bp_lost(const Battle& b, Side side);

}  // namespace steppe::aa
