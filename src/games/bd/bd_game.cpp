#include "games/bd/bd_game.h"

#include <algorithm>
#include <map>
#include <string>

#include "games/bd/bd_state.h"

namespace bd {

std::vector<steppe::ScenarioInfo> BdGame::scenarios() const {
  std::vector<steppe::ScenarioInfo> out;
  out.push_back({"empty", "Empty map (tests)", "No units; Game Turn 1.", 1, 32});
  for (const auto& s : data_->scenarios) {
    out.push_back({s.id, s.name, s.description, s.first_turn, s.last_turn});
    // The optional rules of the Grand Campaign (BdState::set_option accepts them anywhere,
    // but they speak of its set-up and its Victory Check Chart).
    if (s.id == "grand-campaign")
      out.back().options = {{"forgiveness-points", "Forgiveness Points", "4.20"},
                            {"kiev-vp", "Kiev VP", "4.21"},
                            {"lithuania", "Lithuania set-up variant", "3.7"}};
  }
  return out;
}

// "grand-campaign+forgiveness-points+kiev-vp": a scenario with optional rules agreed
// before play (4.20, 4.21); the whole string is what saves and replays record.
steppe::Result<std::unique_ptr<steppe::State>> BdGame::new_state(const std::string& scenario_and_options,
                                                                 uint64_t seed) const {
  const auto [scenario, options] = steppe::split_scenario_options(scenario_and_options);
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
  for (const auto& o : options)
    if (auto s = st->set_option(o, true); !s) return s.error();
  if (auto s = st->setup_scenario(sc); !s) return s.error();
  return std::unique_ptr<steppe::State>(std::move(st));
}

namespace {

// What the rules see of one hex (HexInfo), named as map.json names it. `full` adds the
// neighbours and the per-hexside features (for `steppe map bd --hex ID`).
steppe::Json hex_record(const HexInfo& x, int h, bool full, const Places& pl) {
  static constexpr const char* kArea[] = {"", "DP", "R", "CS"};
  static constexpr const char* kZone[] = {"", "north", "south"};
  steppe::Json j{{"id", hex_id(h)}, {"terrain", terrain_name(x.terrain)}};
  if (!x.name.empty()) j["name"] = x.name;
  steppe::Json features = steppe::Json::array();
  if (x.city) features.push_back("city");
  if (x.vp) features.push_back("vp");  // 4.2: city, oil field or USIR
  if (x.coastal) features.push_back("coastal");
  if (x.fortified >= 0) features.push_back("fortified-line");
  if (!features.empty() || full) j["features"] = features;
  if (x.vp) j["vp"] = 1;
  if (x.city) j["city"] = x.name;
  if (x.country != kCountryNone) j["country"] = country_name(x.country);
  if (x.initial_control >= 0) j["control"] = x.initial_control == kGerman ? "german" : "soviet";  // 3.6
  if (x.fortified >= 0) j["fortified_by"] = x.fortified == kGerman ? "german" : "soviet";         // 11.21
  if (x.zone != kZoneNone) j["zone"] = kZone[x.zone];                                             // 5.6
  if (x.area != kAreaNone) j["supply_area"] = kArea[x.area];                                      // 7.4
  if (x.west_of_start_line) j["west_of_start_line"] = true;                                       // 5.15
  if (!full) return j;
  steppe::Json nb = steppe::Json::object();
  steppe::Json sides = steppe::Json::object();
  for (int d = 0; d < 6; ++d) {
    if (neighbour(h, d) >= 0) nb[dir_name(d)] = hex_id(neighbour(h, d));
    steppe::Json f = steppe::Json::array();
    if ((x.river >> d & 1) != 0) f.push_back("river");
    if ((x.lake_side >> d & 1) != 0) f.push_back("all-lake");
    if ((x.sea_side >> d & 1) != 0) f.push_back("all-sea");
    if (neighbour(h, d) >= 0 && is_crossing(pl.kerch, h, neighbour(h, d)))
      f.push_back("kerch-strait");                                                                  // 10.14
    if (neighbour(h, d) >= 0 && is_crossing(pl.sivash, h, neighbour(h, d))) f.push_back("sivash");  // 10.15
    if (!f.empty()) sides[dir_name(d)] = f;
  }
  j["neighbours"] = nb;
  j["hexsides"] = sides;
  return j;
}

}  // namespace

steppe::Json BdGame::map_json() const {
  steppe::Json hexes = steppe::Json::array();
  for (int i = 0; i < kNumHexes; ++i) {
    const HexInfo& h = data_->hexes[static_cast<size_t>(i)];
    if (h.on_map) hexes.push_back(hex_record(h, i, false, data_->places));
  }
  return steppe::Json{{"game", "bd"}, {"grid", "RRCC"}, {"hexes", hexes}};
}

steppe::Result<steppe::Json> BdGame::describe_location(const std::string& id) const {
  const int h = parse_hex(id);
  if (h < 0 || !data_->hexes[static_cast<size_t>(h)].on_map)
    return steppe::Error{"'" + id + "' is not a hex of the Barbarossa Deluxe map", "", ""};
  return hex_record(data_->hexes[static_cast<size_t>(h)], h, true, data_->places);
}

// The terminal's view of a side's observation: the turn, each side's stacks by hex (a
// Soviet stack the German sees only the top of shows "+N hidden", 11.7), markers, the
// side's reinforcement track and dead pile.
std::string BdGame::describe_situation(const steppe::Json& o) const {
  if (!o.is_object()) return {};
  std::string out = "Game Turn " + std::to_string(o.value("turn", 0)) + " (" +
                    o.value("months", std::string()) + "), phase " + o.value("phase", std::string()) +
                    ", German VP " + std::to_string(o.value("vp", 0)) + "\n";
  for (const char* side : {"german", "soviet"}) {
    std::string line;
    int stacks = 0;
    for (const auto& st : o.value("stacks", steppe::Json::array())) {
      if (st.value("side", std::string()) != side) continue;
      ++stacks;
      line += "  " + st.value("hex", std::string()) + ":";
      int shown = 0;
      for (const auto& u : st.value("units", steppe::Json::array())) {
        line += " " + u.value("unit", std::string("?"));
        ++shown;
      }
      const int count = st.value("count", shown);
      if (count > shown) line += " +" + std::to_string(count - shown) + " hidden";
      line += "\n";
    }
    out += std::string(side) + " (" + std::to_string(stacks) + " stacks)\n" + line;
  }
  const steppe::Json m = o.value("markers", steppe::Json::object());
  std::string marks;
  auto list = [](const steppe::Json& a) {
    std::string s;
    for (const auto& x : a) s += (s.empty() ? "" : " ") + (x.is_string() ? x.get<std::string>() : x.dump());
    return s;
  };
  if (!m.value("hero_cities", steppe::Json::array()).empty())
    marks += " hero cities " + list(m["hero_cities"]) + ";";
  if (!m.value("fortress_cities", steppe::Json::array()).empty())
    marks += " fortress cities " + list(m["fortress_cities"]) + ";";
  if (m.contains("fortified_area") && m["fortified_area"].is_string())
    marks += " fortified area " + m["fortified_area"].get<std::string>() + ";";
  if (m.contains("luftwaffe_left")) marks += " Luftwaffe markers left " + m["luftwaffe_left"].dump() + ";";
  if (!marks.empty()) out += "markers:" + marks + "\n";
  const std::string viewer = o.value("viewer", std::string());
  const steppe::Json box = o.value("boxes", steppe::Json::object()).value(viewer, steppe::Json::object());
  std::map<int, std::string> arrivals;
  for (const auto& e : box.value("trrt", steppe::Json::array()))
    arrivals[e.value("turn", 0)] += " " + e.value("unit", std::string());
  if (!arrivals.empty()) {
    out += "reinforcements:";
    for (const auto& [turn, units] : arrivals) out += " GT" + std::to_string(turn) + ":" + units + ";";
    out += "\n";
  }
  if (!box.value("dead", steppe::Json::array()).empty()) out += "dead: " + list(box["dead"]) + "\n";
  if (box.value("rvgk_count", 0) > 0)
    out += "RVGK box: " + list(box.value("rvgk", steppe::Json::array())) + "\n";
  return out;
}

steppe::Result<std::unique_ptr<steppe::Game>> load_game(const std::filesystem::path& data_dir) {
  auto d = load_data(data_dir);
  if (!d) return d.error();
  return std::unique_ptr<steppe::Game>(std::make_unique<BdGame>(*d));
}

}  // namespace bd
