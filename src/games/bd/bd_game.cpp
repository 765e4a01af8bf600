#include "games/bd/bd_game.h"

#include "games/bd/bd_state.h"

namespace bd {

std::vector<steppe::ScenarioInfo> BdGame::scenarios() const {
  std::vector<steppe::ScenarioInfo> out;
  out.push_back({"empty", "Empty map (tests)", "No units; Game Turn 1.", 1, 32});
  for (const auto& s : data_->scenarios)
    out.push_back({s.id, s.name, s.description, s.first_turn, s.last_turn});
  return out;
}

steppe::Result<std::unique_ptr<steppe::State>> BdGame::new_state(const std::string& scenario,
                                                                 uint64_t seed) const {
  const ScenarioDef* sc = nullptr;
  if (scenario != "empty") {
    for (const auto& s : data_->scenarios)
      if (s.id == scenario) sc = &s;
    if (sc == nullptr) {
      std::string known = "empty";
      for (const auto& s : data_->scenarios) known += ", " + s.id;
      return steppe::Error{"unknown scenario '" + scenario + "' (known: " + known + ")", "", ""};
    }
  }
  auto st = std::make_unique<BdState>(*this, data_, seed);
  if (auto s = st->setup_scenario(sc); !s) return s.error();
  return std::unique_ptr<steppe::State>(std::move(st));
}

steppe::Json BdGame::map_json() const {
  steppe::Json hexes = steppe::Json::array();
  const char* tn[] = {"clear", "rough", "marsh", "desert-steppe", "all-sea", "all-lake"};
  for (int i = 0; i < kNumHexes; ++i) {
    const HexInfo& h = data_->hexes[static_cast<size_t>(i)];
    if (!h.on_map) continue;
    steppe::Json j{{"id", hex_id(i)}, {"terrain", tn[h.terrain]}};
    if (h.city) j["city"] = h.name;
    if (h.vp) j["vp"] = 1;
    hexes.push_back(j);
  }
  return steppe::Json{{"game", "bd"}, {"grid", "RRCC"}, {"hexes", hexes}};
}

steppe::Result<steppe::Json> BdGame::describe_location(const std::string& id) const {
  const int h = parse_hex(id);
  if (h < 0 || !data_->hexes[static_cast<size_t>(h)].on_map)
    return steppe::Error{"'" + id + "' is not a hex of the Barbarossa Deluxe map", "", ""};
  const HexInfo& x = data_->hexes[static_cast<size_t>(h)];
  const char* tn[] = {"clear", "rough", "marsh", "desert-steppe", "all-sea", "all-lake"};
  steppe::Json nb = steppe::Json::object();
  for (int d = 0; d < 6; ++d)
    if (neighbour(h, d) >= 0) nb[dir_name(d)] = hex_id(neighbour(h, d));
  return steppe::Json{
      {"id", id}, {"terrain", tn[x.terrain]}, {"city", x.name}, {"vp", x.vp}, {"neighbours", nb}};
}

steppe::Result<std::unique_ptr<steppe::Game>> load_game(const std::filesystem::path& data_dir) {
  auto d = load_data(data_dir);
  if (!d) return d.error();
  return std::unique_ptr<steppe::Game>(std::make_unique<BdGame>(*d));
}

}  // namespace bd
