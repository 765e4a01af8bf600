// Moscow '41 (Vento Nuovo, rulebook seeds/002; digest 002-moscow41.md).
//
// The map (175 areas, 12 boxes), the 120-block roster, the tables and the scenarios are
// data in data/moscow41/ (mostly reconstructed, see tools/moscow41/). This module holds
// the rules only; each rule cites its section.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "kernel/areamap.h"
#include "kernel/state.h"

namespace moscow41 {

using steppe::Json;

constexpr int kGerman = 0;
constexpr int kSoviet = 1;
constexpr int kNoSide = -1;

enum class Kind { kLeader, kHq, kLwHq, kCombat };
enum class BlockType { kNone, kInfantry, kMotorized, kCavalry, kTank };
enum Fire { kSingle = 0, kDouble = 1, kTriple = 2 };  // black / white / red (4.2.2)
enum Terrain { kGreen = 0, kYellow = 1, kVictory = 2, kStaging = 3 };

struct BlockDef {
  std::string id, name, colour, tag;
  int side = kGerman;
  Kind kind = Kind::kCombat;
  BlockType type = BlockType::kNone;
  std::vector<int> levels;  // strengths from full to minimum, e.g. {4,3,2,1} or HQ {4,3,2,0}
  std::vector<int> fire;    // fire class per level (same indexing as levels)
  std::vector<int> cost;    // replacement cost to restore the step at this level (7.2.2)
  bool fast = false, remnant = false, blitz = false, infantry_division = false;
  bool cavalry_mobility = false;  // OR 14.6: the 7 Soviet cavalry and the German 1st Cavalry
  char letter = 0;                // 'K', 'L', 'N' or 0 (5.1)
  bool is_hq() const { return kind == Kind::kHq || kind == Kind::kLwHq; }
  int min_level() const { return static_cast<int>(levels.size()) - 1; }
};

struct AreaDef {
  int node = -1;
  Terrain terrain = kGreen;
  bool city = false, special_city = false;
  bool src_east = false, src_kiev = false, src_shl = false, src_len = false, src_german = false;
  bool typhoon_german = false, last_gasp_german = false;
};

struct Tables {
  std::array<int, 3> hits_on{6, 5, 4};
  std::array<int, 4> mp{1, 2, 2, 1};
  std::array<int, 4> absorb{0, 1, 2, 0};
  std::array<int, 4> stack{4, 2, 2, 1000};
  int absorb_city = 1, absorb_dl = 1, absorb_max = 3;
  int mp_rain = 3, mp_snow = 2, fast_mp = 5, slow_mp = 3, disengage = 1;
  int mp_rain_cavalry = 2;       // OR 14.6
  int infantry_division_mp = 4;  // OR 14.7
  int blizzard_defend_div = 2;   // OR 14.5: German strength 1/2 defending
  int blizzard_attack_div = 4;   // OR 14.5: and 1/4 attacking
  std::array<int, 3> replacement{1, 2, 3};
  int hq_step_cost = 1;
  int dl_german = 10, dl_soviet = 20;
  int losses_per_point = 10, sudden_death_vp = 7;
  int weather_track_len = 6;
};

struct Scenario {
  steppe::ScenarioInfo info;
  Json doc;
};

// How a scenario is won (1.7 for the Campaign, each scenario's Special Victory Conditions),
// from the "victory" object of its file. Scenarios that share a kind share the conditions.
struct VictoryRules {
  std::string kind;              // "campaign", "dnieper", "moscow": the name the agents and tests use
  std::string rule;              // the section the log cites
  bool sudden_death_vp = false;  // 1.7: a side at Tables::sudden_death_vp wins at once
  // The Germans win at once when every area of `german_dls` holds a German DL and they
  // control every area of `german_controls`, for any one of the conditions.
  struct GermanWin {
    std::vector<int> german_dls, german_controls;
    bool operator==(const GermanWin&) const = default;
  };
  std::vector<GermanWin> german_wins_at_once;
  std::string german_win;       // the result's name
  bool most_vp_at_end = false;  // 1.7; otherwise any other result is a Soviet victory
  bool operator==(const VictoryRules&) const = default;
};

class Moscow41Game;
Moscow41Game* as_moscow41(steppe::Game* g);

// Loads and validates data_dir/moscow41/{map,roster,tables}.json and scenarios/*.json.
steppe::Result<std::unique_ptr<steppe::Game>> load_game(const std::filesystem::path& data_dir);

class Moscow41Game : public steppe::Game {
 public:
  std::string id() const override { return "moscow41"; }
  std::string name() const override { return "Moscow '41"; }
  std::vector<std::string> side_names() const override { return {"german", "soviet"}; }
  std::vector<steppe::ScenarioInfo> scenarios() const override;
  steppe::Result<std::unique_ptr<steppe::State>> new_state(const std::string& scenario,
                                                           uint64_t seed) const override;
  std::string rules_hash() const override { return rules_hash_; }
  Json map_json() const override { return map_->json(); }
  steppe::Result<Json> describe_location(const std::string& id) const override { return map_->describe(id); }
  // The position format (position.cpp, kernel/position.h).
  steppe::Result<std::unique_ptr<steppe::State>> state_from_position(const Json& position) const override;

  // Data, for the rules and the tests.
  const steppe::AreaMap& map() const { return *map_; }
  const std::vector<BlockDef>& blocks() const { return blocks_; }
  const std::vector<AreaDef>& areas() const { return areas_; }  // per node (boxes: default)
  const Tables& tables() const { return tables_; }
  int block_index(std::string_view id) const;
  int node(std::string_view id) const { return map_->find(id); }
  // The land borders (2.0): the map's "land" connections, each area's neighbours in
  // increasing node order (the order legal actions list them in). The road to Leningrad
  // is no land border.
  const steppe::NodeGraph& land() const { return land_; }
  bool adjacent(int a, int b) const { return a >= 0 && a < land_.node_count() && land_.has_edge(a, b); }
  // The nodes across the land borders of `node`, in increasing order, for range-for loops
  // (a plain range: clang 14, which clang-tidy and the fuzz build use, cannot compile
  // std::views over libstdc++ 12).
  struct Neighbours {
    struct Iterator {
      const steppe::GraphEdge* edge;
      int operator*() const { return edge->to; }
      Iterator& operator++() {
        ++edge;
        return *this;
      }
      bool operator!=(const Iterator& o) const { return edge != o.edge; }
    };
    std::span<const steppe::GraphEdge> edges;
    Iterator begin() const { return {edges.data()}; }
    Iterator end() const { return {edges.data() + edges.size()}; }
  };
  Neighbours neighbours(int node) const { return {land_.neighbours(node)}; }
  bool river_between(int a, int b) const;
  int box_rastenburg() const { return rastenburg_; }
  int box_kiev() const { return kiev_; }
  const std::vector<int>& road() const { return road_; }  // node ids of R1..R10
  int road_shlisselburg() const { return road_shl_; }     // index into road()
  int moscow() const { return moscow_; }
  const std::vector<std::string>& staging_for(const std::string& colour) const;
  const std::vector<std::array<std::string, 3>>& icons() const { return icons_; }  // area, colour, type
  const Scenario* scenario(const std::string& id) const;
  const VictoryRules* victory_rules(std::string_view kind) const;  // nullptr: no such kind
  int bomber_count() const { return static_cast<int>(bomber_fk_.size()); }
  const std::string& bomber_fk(int i) const { return bomber_fk_[static_cast<size_t>(i)]; }
  bool bomber_is_stuka(int i) const { return bomber_type_[static_cast<size_t>(i)] == "stuka"; }
  const std::string& bomber_id(int i) const { return bomber_id_[static_cast<size_t>(i)]; }
  int bomber_index(std::string_view id) const {
    for (size_t i = 0; i < bomber_id_.size(); ++i)
      if (bomber_id_[i] == id) return static_cast<int>(i);
    return -1;
  }

 private:
  friend steppe::Result<std::unique_ptr<steppe::Game>> load_game(const std::filesystem::path&);
  std::unique_ptr<steppe::AreaMap> map_;
  std::vector<BlockDef> blocks_;
  std::vector<AreaDef> areas_;
  steppe::NodeGraph land_;
  std::vector<uint8_t> river_;  // node*node matrix of river borders
  Tables tables_;
  std::vector<Scenario> scenarios_;
  std::vector<VictoryRules> victory_rules_;  // one per kind
  std::vector<std::pair<std::string, std::vector<std::string>>> staging_;
  std::vector<std::array<std::string, 3>> icons_;
  std::vector<int> road_;
  std::vector<std::string> bomber_fk_, bomber_type_, bomber_id_;
  int road_shl_ = -1, rastenburg_ = -1, kiev_ = -1, moscow_ = -1;
  std::string rules_hash_;
};

}  // namespace moscow41
