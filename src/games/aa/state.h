// The state of one game of the Axis & Allies-style Barbarossa: the turn sequence (1.2), the
// Build Points (chapter II), the units on the zones, control, pending purchases and battles.
// Everything is open information: both sides see the whole board (no rule hides anything).
#pragma once

#include <array>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "games/aa/aa.h"
#include "kernel/json_data.h"
#include "kernel/verbs.h"

namespace steppe::aa {

// The verb numbers of the verb table (verbs.cpp); the notation's words name them, and the
// AI's heuristics read them (AgentsOnAa.VerbNumbersMatchTheNotation checks both agree).
enum Verb : uint16_t {
  kBuy = 1,
  kMove,
  kBattle,
  kRetreat,
  kPlace,
  kEnd,
  kCasualties,
  kStand,
  kWithdraw,
  kPull,
  kLoad,
  kRail,
  kSbr,
  kRepair,
  kShip,
  kCarry,
  kGeneral,
  kProtect
};

// An action of verb `verb` with `args`, as the rules files build them for legal_actions().
inline Action act(uint16_t verb, std::initializer_list<int> args) {
  Action a;
  a.verb = verb;
  for (int v : args) a.push(v);
  return a;
}

// 1.2: the steps one side plays in a turn.
enum class Phase { kPurchase, kCombatMove, kCombat, kBlitz, kNonCombatMove, kRail, kPlace, kOver };
const char* phase_name(Phase p);
const char* phase_rule(Phase p);  // the section of 1.2 describing the step ("1.2.4")

// Russia's separate Build Point pools (2.10, 2.11); everything else buys from the main pool.
enum Pool { kMainPool = 0, kLendLease = 1, kSiberian = 2 };

struct Unit {
  int nation = kGermany;
  int type = 0;  // base type (AaGame::base)
  int zone = -1;
  int damage = 0;       // 3.2: a 2-hit unit's first hit
  int mp = 0;           // movement left in this movement sequence
  int from = -1;        // the zone it last entered its zone from (3.29: attacking across a river)
  bool locked = false;  // 2.4-2.6: locked until its nation mobilizes
  int marsh_turn = 0;   // 3.31: the turn it entered the Pripet Marshes (0: never)
  int rail = 0;     // 3.35 in this Rail step: 1 loaded, 2 moved (a train or its cargo), 3 ran again (4.4.1)
  int morale = 0;   // 3.33: retreated (1), sitting out its side's next movement sequence (2)
  int carried = 0;  // 3.7, 3.23: aboard this side's carriers of base type carried - 1 (0: not)
  bool dropped = false;  // 3.13: dropped by transport in this Combat Move (+1 in the first round)
  int general = 0;       // 4.5: the general this piece is (AaGame::generals() index + 1), 0: none
};

// Units bought (1.2.3) or granted (2.2-2.7), waiting for the Place Purchases step (1.2.9).
struct Pending {
  int nation = kGermany, type = 0, pool = kMainPool, count = 0;
};

class AaState : public State {
 public:
  explicit AaState(const AaGame& g) : g_(&g) {}
  AaState(const AaState&) = default;

  const Game& game() const override { return *g_; }
  const AaGame& aa() const { return *g_; }
  // 3.33: after a round the defender decides whether to retreat, inside the attacker's step.
  int current_player() const override {
    return phase_ == Phase::kOver ? kTerminalPlayer : decision_zone_ >= 0 ? 1 - active_ : active_;
  }
  bool is_terminal() const override { return phase_ == Phase::kOver; }
  std::vector<double> returns() const override;
  Json result() const override;
  void legal_actions(std::vector<Action>& out) const override;
  Status check(const Action& a) const override;
  std::unique_ptr<State> clone() const override { return std::make_unique<AaState>(*this); }
  Json observation(int side) const override;
  Json full_json() const override;
  uint64_t state_hash() const override;
  std::string action_to_string(const Action& a) const override;
  Result<Action> parse_action(std::string_view text) const override;
  Result<Preview> preview(const Action& a, int viewer) const override;  // views.cpp
  Result<ActionDescription> describe(const Action& a) const override;
  Result<Reach> reach(std::string_view unit, int viewer) const override;
  Status test_set(const std::vector<std::string>& words) override;
  Result<std::string> test_query(const std::vector<std::string>& words) const override;

  Status setup(const std::string& scenario);
  // position.cpp (docs/saves.md, "Positions"): the whole state by name, and back.
  Result<Json> position() const override;
  int game_turn() const override { return turn_; }
  Status read_position(const JsonReader& r);

  // --- What the rules read (public for the verb table and the tests) ---
  int turn() const { return turn_; }
  Phase phase() const { return phase_; }
  int active() const { return active_; }
  int ci() const { return ci_; }
  int bp(int pool_owner_side, int pool = kMainPool) const;
  int controller(int z) const { return control_[static_cast<size_t>(z)]; }
  const std::vector<Unit>& units() const { return units_; }
  const std::vector<Pending>& pending() const { return pending_; }
  const std::vector<int>& battles() const { return battles_; }
  int axis_vp() const;  // 1.3
  int winner() const { return winner_; }
  int count(int zone, int side) const;
  int count_of(int zone, int nation, int type) const;
  bool enemy_units_in(int zone, int side) const;
  bool held_since_before_this_turn(int zone, int side) const {
    return controller(zone) == side && captured_[static_cast<size_t>(zone)] < turn_;
  }
  // 3.34: zones `side` holds with no route through its zones to an IC or reinforcement zone.
  std::vector<uint8_t> cut_off(int side) const;
  int supply_tokens(int zone, int side) const;
  // The retreat rule for one battle the attacker may choose (3.33), for previews and tests.
  Result<BattleSetup> battle_setup(int zone) const;

  // --- Verbs (verbs.cpp dispatches to these) ---
  Status check_buy(const Action& a) const;
  void apply_buy(const Action& a);
  long buy_cost(int type, int n) const;
  Status check_move(const Action& a) const;
  void apply_move(const Action& a);
  Status check_battle(const Action& a) const;
  void apply_battle(const Action& a);
  Status check_retreat(const Action& a) const;
  void apply_retreat(const Action& a);
  Status check_place(const Action& a) const;
  void apply_place(const Action& a);
  Status check_casualties(const Action& a) const;
  void apply_casualties(const Action& a);
  void gen_casualties(std::vector<Action>& out) const;
  // 3.36.2.3 "The defender decides which units are hit ... The attacker decides": the side's
  // order of giving up units, its chosen types first, then cheapest first.
  CasualtyOrder casualty_order(int side) const;
  Status check_stand(const Action& a) const;
  void apply_stand(const Action& a);
  Status check_withdraw(const Action& a) const;
  void apply_withdraw(const Action& a);
  Status check_pull(const Action& a) const;
  void apply_pull(const Action& a);
  void gen_defender(std::vector<Action>& out) const;
  int decision_zone() const { return decision_zone_; }
  int withdraw_left() const { return withdraw_left_; }
  Status check_load(const Action& a) const;
  void apply_load(const Action& a);
  Status check_rail(const Action& a) const;
  void apply_rail(const Action& a);
  void gen_rail(std::vector<Action>& out) const;
  int rail_capacity(int zone) const;
  int loaded(int zone) const;
  // transport.cpp: 3.28 naval transport (`ship`), 3.7 trucks and 3.23 transports (`carry`),
  // 3.13 airborne drops.
  Status check_ship(const Action& a) const;
  void apply_ship(const Action& a);
  void gen_ship(std::vector<Action>& out) const;
  int naval_capacity_left(int zone) const;
  Status check_carry(const Action& a) const;
  void apply_carry(const Action& a);
  void gen_carry(std::vector<Action>& out) const;
  int carried_on(int zone, int carrier_type) const;  // the active side's units aboard in `zone`
  // 3.7, 3.23: refusal of a move of carriers that cannot take their load along; ok otherwise.
  Status check_carrier_move(int n, int type, int from, int to) const;
  void move_cargo(int type, int from, int to);
  void unload_all();
  Status check_sbr(const Action& a) const;
  void apply_sbr(const Action& a);
  Status check_repair(const Action& a) const;
  void apply_repair(const Action& a);
  void gen_sbr(std::vector<Action>& out) const;
  int damage(int zone, int target) const {
    return damage_[static_cast<size_t>(target)][static_cast<size_t>(zone)];
  }
  bool inoperable(int zone, int target) const {
    return damage(zone, target) >= g_->rules().facility_capacity[static_cast<size_t>(target)];
  }
  Status check_end(const Action& a) const;
  void apply_end(const Action& a);
  void gen_buy(std::vector<Action>& out) const;
  void gen_move(std::vector<Action>& out) const;
  void gen_battle(std::vector<Action>& out) const;
  void gen_retreat(std::vector<Action>& out) const;
  void gen_place(std::vector<Action>& out) const;
  void gen_end(std::vector<Action>& out) const;
  // murphy.cpp (4.4): the optional Murphy's Law cards ("+murphy" after the scenario).
  Status set_option(const std::string& option);
  bool murphy() const { return murphy_; }
  // The card `side` drew this turn with that effect, or a game-long one it drew before; null if none.
  const MurphyCard* murphy_card(int side, std::string_view effect) const;
  int murphy_value(int side, std::string_view effect) const {
    const MurphyCard* c = murphy_card(side, effect);
    return c == nullptr ? 0 : c->value;
  }
  int card(int side) const { return card_[static_cast<size_t>(side)]; }
  Status check_protect(const Action& a) const;  // 4.4.2 Russia's card 5
  void apply_protect(const Action& a);
  void gen_protect(std::vector<Action>& out) const;
  int protected_zone() const { return protected_zone_; }
  int carry_capacity(int type) const;                 // 3.7, 3.23, 3.35 with Russia's card 3
  int battle_type_in(int zone, const Unit& u) const;  // 3.1, with Axis card 4
  // generals.cpp (4.5, option "generals").
  Status check_general(const Action& a) const;
  void apply_general(const Action& a);
  void gen_general(std::vector<Action>& out) const;
  bool generals_on() const { return generals_; }
  const std::vector<int>& generals_waiting() const { return generals_waiting_; }
  Status placement_zone(int nation, int type, int pool, int zone, int n) const;  // 1.2.9 and 2.1-2.11

 protected:
  void do_apply(const Action& a) override;

 private:
  friend struct Hooks;
  // murphy.cpp
  void draw_murphy(int side);
  void murphy_battle(int zone, BattleSetup& s) const;
  // generals.cpp
  void draw_general(int nation, const std::string& why);
  void general_duel(int zone);
  void general_battle(int zone, BattleSetup& s) const;
  void generals_lost(int zone, int side, const std::string& why);
  // sequence.cpp
  void begin_turn();
  static int step_index(bool ci_side, std::string_view phase);
  void enter_step(int step);
  void end_turn();
  void log(const std::string& kind, const std::string& text, const std::string& rule) const;
  void mobilize(int nation, const std::string& why);
  void grant(const Grant& g, const std::string& rule);
  // movement.cpp
  int movable(int zone, int nation, int type) const;
  int move_cost(int from, int to, int nation, int type, std::vector<int>* path) const;
  bool needs_supply(int zone) const;
  int supply_source(int zone, int moving_supplies) const;
  void capture(int zone, int side, const std::string& rule);
  void land_aircraft();
  // supply.cpp
  void surrounded_use_supply(int side);
  // sbr.cpp
  bool sbr_target_present(int zone, int target) const;
  void resolve_raids();
  // combat.cpp
  bool retreat_zone_ok(int from, int to, int side) const;
  void settle_battle(int zone, Outcome o);
  void reconcile(int zone, int side, const Forces& f);
  bool defender_may_retreat(int zone) const;
  void close_decision();

  const AaGame* g_;
  std::string scenario_;
  int last_turn_ = 12;
  bool extended_ = false;
  int turn_ = 1;
  int step_ = 0;  // index into sequence.cpp kSteps
  Phase phase_ = Phase::kPurchase;
  int ci_ = kAxis;
  int active_ = kAxis;
  int winner_ = kNoSide;
  std::string end_reason_;
  std::array<int, 2> bp_{};
  int lend_lease_bp_ = 0, siberian_bp_ = 0;
  std::array<int, 2> elite_bought_{};
  std::array<int, 2> kerch_used_{};
  bool winter_war_ = false;
  std::array<bool, kNationCount> mobilized_{};
  bool spain_joined_ = false;
  std::vector<Unit> units_;
  std::vector<Pending> pending_;
  std::vector<int> control_;            // side per zone, kNoSide for seas and lakes
  std::vector<int> captured_;           // the turn the zone last changed hands (0: at the start)
  std::vector<uint8_t> battle_fought_;  // this turn (3.26, 3.30)
  std::vector<uint8_t> attacked_;       // in this combat move
  std::vector<uint8_t> supplied_;       // 3.24: a supply token was spent for moves out of it this sequence
  std::vector<int> placed_other_, placed_infantry_, placed_supply_;  // 2.9, 3.24: this turn
  std::vector<int> shipped_;        // 3.28: units shipped out of each naval base in this Rail/Naval step
  std::vector<int> battles_;        // zones still to fight in this combat step (3.36)
  std::vector<int> battle_rounds_;  // rounds fought per zone
  std::array<std::vector<int>, 2> casualty_first_;  // base types each side gives up first, in order
  // 3.36.1 raids announced in this Combat Move: bombers (by origin, nation, type, count) on a
  // zone's target; resolved first thing in the Combat step.
  struct Raid {
    int zone, target, from, nation, type, count;
  };
  std::vector<Raid> raids_;
  std::array<std::vector<int>, 4> damage_;  // 3.37 per facility kind, per zone
  // 4.4 Murphy's Law (option "murphy").
  bool murphy_ = false;
  std::array<uint16_t, 2> drawn_{};  // cards out of each side's deck (bit per chart row)
  std::array<int, 2> card_{-1, -1};  // the card drawn this turn (chart row), -1: none
  std::array<uint16_t, 2> kept_{};   // game-long cards in effect
  int ci_two_dice_turn_ = 0;         // Axis K: the turn the Axis roll 2d12 for CI
  bool finland_attacked_ = false;    // Russia 8: Finland has attacked a Russian zone
  int protected_zone_ = -1;          // Russia 5: the zone the Axis cannot attack this turn
  // 4.5 Generals (option "generals").
  bool casualty_chart_ = false;  // 4.2 Combat Casualties (option "casualty-chart")
  bool generals_ = false;
  uint32_t generals_drawn_ = 0;        // AaGame::generals() picked so far (bit per index)
  std::vector<int> generals_waiting_;  // picked, to be placed (indices)
  std::vector<int> battle_general_;    // per zone: the general whose attribute applies (+1), 0: none
  int decision_zone_ = -1;             // 3.33: the battle whose defender decides now
  int withdraw_left_ = -1;             // 3.33: units the defender's d12 still lets retreat (-1: not rolled)
};

}  // namespace steppe::aa
