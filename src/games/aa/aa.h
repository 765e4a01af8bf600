// The Axis & Allies-style Barbarossa ("Fighting the Battle of Barbarossa", rulebook seeds/003;
// digest 003-axis-allies-barbarossa.md; section numbers from data/aa/sections.json).
//
// The map (zones, borders, rivers, VP, ICs, reinforcement zones), the unit types, the set-up
// and the rules' numbers are data in data/aa/ (reconstructed where the text lacks them). This
// module holds the rules only; each rule cites its section.
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "games/aa/battle.h"
#include "kernel/areamap.h"
#include "kernel/state.h"

namespace steppe::aa {

constexpr int kAxis = 0;
constexpr int kRussia = 1;
constexpr int kNoSide = -1;

// The nations of chapter II (2.1-2.8), in the text's order; Russia last.
enum Nation {
  kGermany = 0,
  kHungary,
  kItaly,
  kRomania,
  kBulgaria,
  kFinland,
  kSpain,
  kRussiaNation,
  kNationCount
};
const char* nation_id(int n);  // "germany"
int nation_from_id(std::string_view id);
inline int side_of(int nation) { return nation == kRussiaNation ? kRussia : kAxis; }
inline bool minor_axis(int nation) { return nation != kGermany && nation != kRussiaNation; }

enum class ZoneKind { kLand, kCity, kMarsh, kLake, kSea };

// 3.36.1: "Targets can be AA guns, supplies, trains, air bases, naval bases, and industrial
// complexes"; "Each Zone can be targeted for Railroad damage by SBR" (3.35). The first four are
// facilities that take damage points (3.37), the rest units destroyed by a hit.
enum SbrTarget {
  kIndustrialComplex = 0,
  kAirBase,
  kNavalBase,
  kRailroad,
  kAaGun,
  kSupplyTarget,
  kTrainTarget,
  kTargetCount
};
const char* sbr_target_id(int t);  // the units.json spelling: "industrial_complex", "railroad", ...

struct Zone {
  std::string id, name;
  ZoneKind kind = ZoneKind::kLand;
  int original_owner = -1;    // nation, -1 for seas and lakes
  int vp = 0;                 // 1.1: "Russian cities have a number in each area"
  bool ic = false;            // 2.9
  std::string reinforcement;  // "german_1", "italian", "hungarian", "lend_lease", "siberian_1", ...
  std::string city;           // the city area the zone belongs to ("Moscow")
  int locked_nation = -1;     // 2.4, 2.5, 2.6: units of this nation here are locked until mobilized
  bool land() const { return kind == ZoneKind::kLand || kind == ZoneKind::kCity || kind == ZoneKind::kMarsh; }
};

// The numbers of chapters I and II (data/aa/rules.json).
struct Rules {
  int last_turn = 12, extended_last_turn = 18;  // 1.3
  std::vector<std::string> hold_to_win;         // 1.3: "Moscow", "Baku" (city areas)
  int vp_to_win = 28, vp_checked_at_turn = 18;  // 1.3
  int ci_automatic_through = 2;                 // 1.2.1
  int russia_3d6_from = 8;                      // 1.2.1
  int german_start = 60, german_income = 48;    // 2.1
  int russia_start = 25, russia_max = 80;       // 2.8
  int ic_placement_limit = 10, supply_placement_limit = 10, destroyed_ic_penalty = 10;  // 2.9, 3.24
  int lend_lease_from = 4, lend_lease_bp = 8;                                           // 2.10
  int siberian_from = 6, siberian_bp = 40;                                              // 2.11
  int elite_per_turn = 2;                                                               // 3.2
  int romania_vp = 20, bulgaria_vp = 23;                                                // 2.4, 2.5
  std::vector<int> italy_turns;                                                         // 2.3
  // 3.37: damage that makes a facility inoperable (IC 10, bases 5, railroad 1), by SbrTarget.
  std::array<int, 4> facility_capacity{};
  int repair_cost_per_point = 1;
  // 3.10, 3.28: units a naval base ships out per Rail/Naval step, by side (II: Germany's
  // "Naval Capacity: 3" for the Axis, Russia's 2).
  std::array<int, 2> naval_capacity{3, 2};
  // 4.2: the Casualty chart's band (1-5, units.json casualty_band) of each d12 result 1..12.
  std::vector<int> casualty_chart;
};

// A placement a nation receives (2.2-2.7 mobilizations and schedules): units by base type.
struct Grant {
  int nation = kGermany;
  std::vector<std::pair<int, int>> units;  // (base type, count)
};

// 4.4.1, 4.4.2: one card of a side's Murphy's Law chart (data/aa/murphy.json).
struct MurphyCard {
  std::string card, text, effect, duration, needs;  // duration: turn, game or once
  bool played = true;                               // false: drawn and logged, not played yet
  int value = 0, city_value = 0, this_turn = 0;
  int zone = -1;
  Grant grant;
};

// 4.5: a general of the tables of IV E (setup.json generals_optional) and the attributes of
// 4.5.1 (data/aa/generals.json).
struct General {
  std::string name;
  int skill = 0, attribute = 0, nation = kGermany;
};
struct GeneralAttribute {
  int number = 0;
  std::string effect, cls, text;
  bool played = true, first_round = false;
  int attack = 0, defence = 0;
};

struct SetupForce {
  int zone = -1, nation = kGermany;
  bool locked = false;
  std::vector<std::pair<int, int>> units;  // (base type, count)
};

class AaGame : public Game {
 public:
  std::string id() const override { return "aa"; }
  std::string name() const override { return "Fighting the Battle of Barbarossa (Axis & Allies style)"; }
  std::vector<std::string> side_names() const override { return {"axis", "russia"}; }
  std::vector<ScenarioInfo> scenarios() const override;
  Result<std::unique_ptr<State>> new_state(const std::string& scenario, uint64_t seed) const override;
  std::string rules_hash() const override { return rules_hash_; }
  Json map_json() const override { return map_->json(); }
  Result<Json> describe_location(const std::string& id) const override { return map_->describe(id); }
  // position.cpp (docs/saves.md, "Positions").
  Result<std::unique_ptr<State>> state_from_position(const Json& position) const override;

  const AreaMap& map() const { return *map_; }
  int zone_count() const { return static_cast<int>(zones_.size()); }
  const Zone& zone(int z) const { return zones_[static_cast<size_t>(z)]; }
  int zone_index(std::string_view id) const { return map_->find(id); }
  bool river_between(int a, int b) const;
  bool kerch_between(int a, int b) const;
  // Base types (data/aa/units.json, the printed values) and the battle's table: the base types
  // followed by the same types at the minor Axis values (3.1).
  const UnitTypes& battle_types() const { return battle_types_; }
  int base_type_count() const { return base_count_; }
  const UnitType& base(int t) const { return battle_types_.at(t); }
  int base_index(std::string_view id) const;
  int battle_type(int nation, int base_type) const {
    return minor_axis(nation) ? base_count_ + base_type : base_type;
  }
  bool purchasable(int side, int base_type) const;
  const Rules& rules() const { return rules_; }
  const std::vector<SetupForce>& setup() const { return setup_; }
  const Grant& hungary_each_turn() const { return hungary_; }
  const Grant& italy_each_turn() const { return italy_; }
  const Grant& mobilization(int nation) const { return mobilization_[static_cast<size_t>(nation)]; }
  const std::vector<int>& city_zones(std::string_view city) const;
  const std::vector<MurphyCard>& murphy(int side) const { return murphy_[static_cast<size_t>(side)]; }
  const std::vector<General>& generals() const { return generals_; }
  const GeneralAttribute* general_attribute(int number) const {
    for (const GeneralAttribute& a : attributes_)
      if (a.number == number) return &a;
    return nullptr;
  }
  int generals_at_start(int nation) const {  // 4.5: Germany 2, Russia 4, each minor 1
    return nation == kGermany ? generals_germany_ : nation == kRussiaNation ? generals_russia_ : 1;
  }

 private:
  friend Result<std::unique_ptr<Game>> load_game(const std::filesystem::path& data_dir);
  std::unique_ptr<AreaMap> map_;
  std::vector<Zone> zones_;
  std::vector<uint8_t> border_;  // zone*zone: 1 river, 2 Kerch Straits
  UnitTypes battle_types_;
  int base_count_ = 0;
  Rules rules_;
  std::vector<SetupForce> setup_;
  Grant hungary_, italy_;
  std::array<Grant, kNationCount> mobilization_;
  std::array<std::vector<MurphyCard>, 2> murphy_;
  std::vector<General> generals_;
  std::vector<GeneralAttribute> attributes_;
  int generals_germany_ = 2, generals_russia_ = 4;
  std::vector<std::pair<std::string, std::vector<int>>> cities_;
  std::string rules_hash_;
};

// Loads and validates data_dir/aa/{map,units,setup,rules}.json.
Result<std::unique_ptr<Game>> load_game(const std::filesystem::path& data_dir);

}  // namespace steppe::aa
