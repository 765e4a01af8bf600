// Barbarossa Deluxe: the steppe::Game of data/bd/ (rules in bd_state.cpp).
#pragma once

#include <filesystem>
#include <memory>

#include "games/bd/bd_data.h"
#include "kernel/state.h"

namespace bd {

class BdGame : public steppe::Game {
 public:
  explicit BdGame(std::shared_ptr<const BdData> data) : data_(std::move(data)) {}
  std::string id() const override { return "bd"; }
  std::string name() const override { return "Barbarossa Deluxe"; }
  std::vector<std::string> side_names() const override { return {"german", "soviet"}; }
  std::vector<steppe::ScenarioInfo> scenarios() const override;
  steppe::Result<std::unique_ptr<steppe::State>> new_state(const std::string& scenario,
                                                           uint64_t seed) const override;
  std::string rules_hash() const override { return data_->rules_hash; }
  steppe::Json map_json() const override;
  steppe::Result<steppe::Json> describe_location(const std::string& id) const override;
  // The position format (position.cpp, kernel/position.h).
  steppe::Result<std::unique_ptr<steppe::State>> state_from_position(
      const steppe::Json& position) const override;
  std::string describe_situation(const steppe::Json& observation) const override;
  const BdData& data() const { return *data_; }

 private:
  std::shared_ptr<const BdData> data_;
};

// Registered in src/games/all_games.cpp.
steppe::Result<std::unique_ptr<steppe::Game>> load_game(const std::filesystem::path& data_dir);

}  // namespace bd
