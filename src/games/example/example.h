// The example game (docs/example-rules.md): the smallest complete game on the kernel, and
// the template a new game starts from (docs/architecture.md, "Adding a game"). Everything a
// game module has is here at its smallest: data loaded and validated from data/example/,
// one file per rule chapter (sequence.cpp 2 and 5, movement.cpp 3, combat.cpp 4), one verb
// table (verbs.cpp), the typed views (views.cpp), the scenario-test hooks in their own file
// (test_hooks.cpp), and a test that runs the kernel's conformance suite and the scenario
// tests of tests/rulebook/example/.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/hexgrid.h"
#include "kernel/json_data.h"
#include "kernel/pathfinding.h"
#include "kernel/state.h"

namespace example {

using steppe::Json;

constexpr int kBlue = 0;
constexpr int kRed = 1;

// 2.1: the phases of a turn, in order.
enum Phase : uint8_t { kBlueMovement = 0, kBlueCombat, kRedMovement, kRedCombat, kPhaseCount };
inline constexpr std::array<const char*, kPhaseCount> kPhaseNames = {"blue-movement", "blue-combat",
                                                                     "red-movement", "red-combat"};

// Verb ids (Action::verb); the rows are in verbs.cpp.
enum Verb : uint16_t { kMove = 1, kAttack = 2, kEnd = 3 };

struct Terrain {
  std::string name;
  int cost = 1;   // 3.1: MP to enter; negative: may not be entered
  int shift = 0;  // 4.2: columns for a defender in it (negative: to the left)
};

struct UnitDef {
  std::string id;
  int side = kBlue;
  int attack = 0, defense = 0, ma = 0;
};

struct Scenario {
  std::string id, name, description;
  int turns = 1;
  int objective = -1;           // 5.1: hex index
  std::vector<int> setup_hexs;  // per unit: hex index, -1 not in play
};

class ExampleGame : public steppe::Game {
 public:
  // data.cpp: reads and validates data/example/game.json; errors name file, field and value.
  static steppe::Result<std::unique_ptr<ExampleGame>> load(const std::filesystem::path& data_dir);

  std::string id() const override { return "example"; }
  std::string name() const override { return "Example"; }
  std::vector<std::string> side_names() const override { return {"blue", "red"}; }
  std::vector<steppe::ScenarioInfo> scenarios() const override;
  steppe::Result<std::unique_ptr<steppe::State>> new_state(const std::string& scenario,
                                                           uint64_t seed) const override;
  std::string rules_hash() const override { return rules_hash_; }
  Json map_json() const override;
  steppe::Result<Json> describe_location(const std::string& id) const override;

  const steppe::HexGrid& grid() const { return grid_; }
  const Terrain& terrain_at(int hex) const { return terrain_[hex_terrain_[static_cast<size_t>(hex)]]; }
  const std::vector<UnitDef>& units() const { return units_; }
  int unit_index(std::string_view id) const;  // -1 if none
  const std::vector<std::string>& crt_columns() const { return crt_columns_; }
  // 4.3: the result for column `col` (0-based; -1 = below the first column) and die 1..6.
  const std::string& crt(int col, int die) const;

 private:
  steppe::HexGrid grid_;
  std::vector<Terrain> terrain_;
  std::vector<uint8_t> hex_terrain_;  // per hex: index into terrain_
  std::vector<std::string> crt_columns_;
  std::string below_first_;
  std::vector<std::vector<std::string>> crt_rows_;  // [die - 1][column]
  std::vector<UnitDef> units_;
  std::vector<Scenario> scenarios_;
  std::string rules_hash_;
  Json map_doc_;
};

steppe::Result<std::unique_ptr<steppe::Game>> load_game(const std::filesystem::path& data_dir);

// A combat's numbers before the die (4.2), shared by check, apply and preview.
struct Odds {
  int attack = 0, defense = 0;
  int raw_col = -1;    // column of the ratio (-1 below the first)
  int shift = 0;       // 4.2 terrain
  int final_col = -1;  // after the shift, clamped to the table (-1 below the first)
  std::vector<int> attackers;
};

class ExampleState : public steppe::State {
 public:
  ExampleState(const ExampleGame& g, const Scenario* sc, uint64_t seed);

  const steppe::Game& game() const override { return *g_; }
  int current_player() const override;
  bool is_terminal() const override { return winner_ >= 0; }
  std::vector<double> returns() const override;
  Json result() const override;
  void legal_actions(std::vector<steppe::Action>& out) const override;
  steppe::Status check(const steppe::Action& a) const override;
  std::unique_ptr<steppe::State> clone() const override { return std::make_unique<ExampleState>(*this); }
  // Open information: both sides see everything but the dice stream's future.
  Json observation(int side) const override;
  Json full_json() const override;
  uint64_t state_hash() const override;
  std::string action_to_string(const steppe::Action& a) const override;
  steppe::Result<steppe::Action> parse_action(std::string_view text) const override;
  int game_turn() const override { return turn_; }

  // views.cpp
  steppe::Result<steppe::ActionDescription> describe(const steppe::Action& a) const override;
  steppe::Result<steppe::Preview> preview(const steppe::Action& a, int viewer) const override;
  steppe::Result<steppe::Reach> reach(std::string_view unit, int viewer) const override;

  // test_hooks.cpp (docs/scenario-tests.md)
  steppe::Status test_set(const std::vector<std::string>& words) override;
  steppe::Result<std::string> test_query(const std::vector<std::string>& words) const override;

  // ---- the rules, each in its chapter's file ----
  const ExampleGame& g() const { return *g_; }
  Phase phase() const { return phase_; }
  int turn() const { return turn_; }
  int phasing_side() const { return phase_ == kBlueMovement || phase_ == kBlueCombat ? kBlue : kRed; }
  bool movement_phase() const { return phase_ == kBlueMovement || phase_ == kRedMovement; }
  int hex_of(int unit) const { return hex_[static_cast<size_t>(unit)]; }
  int unit_at(int hex) const;  // -1 if empty
  bool next_to_enemy(int hex, int side) const;
  // sequence.cpp (2, 5)
  void end_phase();
  void check_victory(bool end_of_game);
  // movement.cpp (3)
  void search_moves(int unit, steppe::PathFinder& pf) const;
  steppe::Status check_move(int unit, int to) const;
  void do_move(int unit, int to);
  void generate_moves(std::vector<steppe::Action>& out) const;
  // combat.cpp (4)
  Odds odds_against(int defender_hex) const;
  steppe::Status check_attack(int defender_hex) const;
  void do_attack(int defender_hex);
  void generate_attacks(std::vector<steppe::Action>& out) const;

  void retreat(int unit);  // 4.4
  void eliminate(int unit, const std::string& why, const char* rule);
  // One line of the adjudication log, citing its rule.
  void note(const char* kind, std::string text, const char* rule) const {
    steppe::Event e;
    e.kind = kind;
    e.text = std::move(text);
    e.rule = rule;
    emit(std::move(e));
  }

 private:
  const ExampleGame* g_;
  const Scenario* sc_;
  int turn_ = 1;
  Phase phase_ = kBlueMovement;
  int winner_ = -1;            // side, once the game is over
  std::vector<int> hex_;       // per unit: hex index, -1 eliminated
  std::vector<uint8_t> done_;  // per unit: moved (movement phase) or attacked (combat phase)
  std::vector<uint8_t> hit_;   // per hex: attacked this phase (4.1)

  void do_apply(const steppe::Action& a) override;
};

}  // namespace example
